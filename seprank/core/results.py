"""The result vocabulary: how a rank is taken, what a number certifies, and the result bases.

* :data:`Method` -- how a rank is taken: ``'exact'`` (over Q), ``'modular'`` (over GF(p)),
  ``'svd'`` (floating point); separation ranks add ``'symbolic'`` (sympy coefficient matrix).
* :data:`Certificate` -- what a number is proved to be: ``'exact'``, ``'lower_bound'`` or
  ``'none'`` (a float estimate).
* :class:`Result` -- the base of every frozen result dataclass, estimates included: read-only
  ``details`` (pickled as a plain dict) and one :meth:`~Result._repr_info` hook from which
  ``repr``, :meth:`~Result.summary` and Jupyter's ``_repr_markdown_`` are rendered.
* :class:`CertifiedResult` -- a :class:`Result` that says what it certifies (``certifies``, a
  :data:`Certificate`, checked on construction); :class:`RankValued` adds ``int(result)``.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import fields
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, get_args

import numpy as np

from seprank.core.display import html_result, markdown_result, summarize

__all__ = ["CERTIFICATES", "Certificate", "CertifiedResult", "Method", "RankValued", "Result",
           "SeparationMethod"]

#: How a rank is computed.
Method = Literal["exact", "modular", "svd"]
#: :data:`Method` plus the exact coefficient-matrix rank of a polynomial.
SeparationMethod = Literal["exact", "modular", "svd", "symbolic"]
#: What a reported number is proved to be.
Certificate = Literal["exact", "lower_bound", "none"]
#: The values of :data:`Certificate`.
CERTIFICATES: tuple[str, ...] = get_args(Certificate)



def _bulky(value: Any) -> bool:
    """A value whose ``repr`` would be long: arrays, big numbers, long text."""
    return (isinstance(value, np.ndarray)
            or (isinstance(value, Fraction) and len(str(value)) > 40)
            or (isinstance(value, str) and len(value) > 60)
            or (isinstance(value, int) and abs(value) > 10**24))


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Number | np.number) and not isinstance(value, bool | np.bool_)


def _refuse_number(result: Result, op: str, other: Any) -> TypeError:
    head = getattr(result, "headline", None)
    name = head() if callable(head) else None
    attribute = name or "the field you mean"
    what = getattr(result, "certifies", None)
    meaning = ("" if what is None else
               f" (it certifies {what!r}: "
               + {"exact": "the value itself",
                  "lower_bound": "a lower bound, so the true value may be larger",
                  "none": "nothing, a floating-point estimate"}.get(str(what), str(what)) + ")")
    return TypeError(
        f"{type(result).__name__} {op} {other!r} is ambiguous: a result is not a number"
        f"{meaning}; compare result.{attribute} {op} {other!r}, or a result with a "
        "seprank.d2w Bound (result <= upper_bound means 'consistent with the bound')")


def _fields_equal(a: Any, b: Any) -> bool:
    names = [f.name for f in fields(a) if f.compare]
    return tuple(getattr(a, n) for n in names) == tuple(getattr(b, n) for n in names)


class Result:
    """Base of the frozen result dataclasses (declare them with ``repr=False``).

    Subclasses override :meth:`_repr_info` (the key fields shown by ``repr``) and
    :meth:`summary` (one line in words); ``details`` becomes a read-only mapping.  A result
    that certifies something derives from :class:`CertifiedResult` instead.
    """

    details: Mapping[str, Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # ``@dataclass`` adds an ``__eq__`` unless the class body has one; put ours there, so a
        # result compared with a number raises instead of being silently unequal
        if "__eq__" not in cls.__dict__:
            cls.__eq__ = Result.__eq__  # type: ignore[method-assign]

    def __post_init__(self) -> None:
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def headline(self) -> str | None:
        """The name of the attribute holding the result's number (``'rank'`` for ranks).

        Returns
        -------
        str or None
            ``'rank'`` when the result has a ``rank`` attribute, else None (no single number).
        """
        return "rank" if hasattr(self, "rank") else None

    def __eq__(self, other: object) -> bool:
        if _is_number(other):
            raise _refuse_number(self, "==", other)
        if type(other) is not type(self):
            return NotImplemented
        return _fields_equal(self, other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __lt__(self, other: Any) -> bool:
        if _is_number(other):
            raise _refuse_number(self, "<", other)
        return NotImplemented

    def __le__(self, other: Any) -> bool:
        if _is_number(other):
            raise _refuse_number(self, "<=", other)
        return NotImplemented

    def __gt__(self, other: Any) -> bool:
        if _is_number(other):
            raise _refuse_number(self, ">", other)
        return NotImplemented

    def __ge__(self, other: Any) -> bool:
        if _is_number(other):
            raise _refuse_number(self, ">=", other)
        return NotImplemented

    def __getstate__(self) -> dict[str, Any]:
        # a mappingproxy does not pickle: results travel to and from workers as plain dicts
        return {**self.__dict__, "details": dict(self.details)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, details=MappingProxyType(dict(state["details"])))

    def _repr_info(self) -> dict[str, Any]:
        """The fields ``repr`` shows, in order."""
        return {}

    def summary(self) -> str:
        """One line in words: the value, what it certifies, the key evidence.

        Returns
        -------
        str
            One line.
        """
        return ", ".join(f"{k} {v}" for k, v in self._repr_info().items())

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={summarize(v, 60) if _bulky(v) else repr(v)}"
                          for k, v in self._repr_info().items())
        return f"{type(self).__name__}({shown})"

    def _display_fields(self) -> list[tuple[str, Any]]:
        """The rows of the rich display: :meth:`_repr_info`, then ``details``."""
        info = self._repr_info()
        return [*info.items(), *((k, v) for k, v in self.details.items() if k not in info)]

    def _display_math(self) -> str | None:
        """The answer as LaTeX for the rich display's headline (None: no formula)."""
        return None

    def _display_table(self) -> tuple[tuple[str, ...], list[tuple[Any, ...]]] | None:
        """A table shown open under the headline (blocks, rounds), or None."""
        return None

    def _repr_markdown_(self) -> str:
        return markdown_result(self.summary(), self._display_fields(),
                               math=self._display_math(), table=self._display_table())

    def _repr_html_(self) -> str:
        return html_result(self.summary(), self._display_fields(),
                           math=self._display_math(), table=self._display_table())


class CertifiedResult(Result):
    """A :class:`Result` that says what it certifies.

    Attributes
    ----------
    certifies : {'exact', 'lower_bound', 'none'}
        What the result's headline number is proved to be: exactly the quantity, a lower bound
        on it, or nothing (a floating-point estimate).  Declared by each subclass (a field, or
        a property derived from its evidence) and checked when the result is built.

    Examples
    --------
    >>> from dataclasses import dataclass, field
    >>> @dataclass(frozen=True, repr=False)
    ... class Count(CertifiedResult):
    ...     n: int
    ...     certifies: Certificate
    ...     details: Mapping[str, Any] = field(default_factory=dict)
    >>> Count(3, "exact").certifies
    'exact'
    >>> Count(3, "proved")
    Traceback (most recent call last):
    ...
    ValueError: Count.certifies must be one of ('exact', 'lower_bound', 'none'), got 'proved'
    """

    certifies: Certificate

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.certifies not in CERTIFICATES:
            raise ValueError(f"{type(self).__name__}.certifies must be one of {CERTIFICATES}, "
                             f"got {self.certifies!r}")


class RankValued(CertifiedResult):
    """A :class:`CertifiedResult` whose value is a rank: ``int(result)`` is ``result.rank``."""

    rank: int

    def __int__(self) -> int:
        return int(self.rank)
