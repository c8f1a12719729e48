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

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal, get_args

import numpy as np

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

_MARKDOWN_ARRAY_ITEMS = 8


def _shown(value: Any) -> str:
    if isinstance(value, np.ndarray) and value.size > _MARKDOWN_ARRAY_ITEMS:
        head = np.array2string(value.ravel()[:_MARKDOWN_ARRAY_ITEMS], precision=4)
        return f"{head} … ({value.size} values)"
    return repr(value)


class Result:
    """Base of the frozen result dataclasses (declare them with ``repr=False``).

    Subclasses override :meth:`_repr_info` (the key fields shown by ``repr``) and
    :meth:`summary` (one line in words); ``details`` becomes a read-only mapping.  A result
    that certifies something derives from :class:`CertifiedResult` instead.
    """

    details: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

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
        fields = ", ".join(f"{k}={v!r}" for k, v in self._repr_info().items())
        return f"{type(self).__name__}({fields})"

    def _repr_markdown_(self) -> str:
        lines = [f"**{self.summary()}**", "", "| field | value |", "|---|---|"]
        lines += [f"| {k} | {_shown(v)} |" for k, v in self._repr_info().items()]
        lines += [f"| {k} | {_shown(v)} |" for k, v in self.details.items()]
        return "\n".join(lines)


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
