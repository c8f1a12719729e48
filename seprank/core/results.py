"""The vocabulary and the base class of every result that says what it certifies.

* :data:`Method` -- how a rank is taken: ``'exact'`` (over Q), ``'modular'`` (over GF(p)),
  ``'svd'`` (floating point); separation ranks add ``'symbolic'`` (sympy coefficient matrix).
* :data:`Certificate` -- what a number is proved to be: ``'exact'``, ``'lower_bound'`` or
  ``'none'`` (a float estimate).
* :class:`CertifiedResult` -- frozen ``details``, one :meth:`~CertifiedResult._repr_info` hook
  from which ``repr``, :meth:`~CertifiedResult.summary` and Jupyter's ``_repr_markdown_`` are
  rendered; :class:`RankValued` adds ``int(result)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal

import numpy as np

__all__ = ["Certificate", "CertifiedResult", "Method", "RankValued", "SeparationMethod"]

#: How a rank is computed.
Method = Literal["exact", "modular", "svd"]
#: :data:`Method` plus the exact coefficient-matrix rank of a polynomial.
SeparationMethod = Literal["exact", "modular", "svd", "symbolic"]
#: What a reported number is proved to be.
Certificate = Literal["exact", "lower_bound", "none"]

_MARKDOWN_ARRAY_ITEMS = 8


def _shown(value: Any) -> str:
    if isinstance(value, np.ndarray) and value.size > _MARKDOWN_ARRAY_ITEMS:
        head = np.array2string(value.ravel()[:_MARKDOWN_ARRAY_ITEMS], precision=4)
        return f"{head} … ({value.size} values)"
    return repr(value)


class CertifiedResult:
    """Base of the frozen result dataclasses (declare them with ``repr=False``).

    Subclasses override :meth:`_repr_info` (the key fields shown by ``repr``) and
    :meth:`summary` (one line in words); ``details`` becomes a read-only mapping.
    """

    details: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def _repr_info(self) -> dict[str, Any]:
        """The fields ``repr`` shows, in order."""
        return {}

    def summary(self) -> str:
        """One line in words: the value, what it certifies, the key evidence."""
        return ", ".join(f"{k} {v}" for k, v in self._repr_info().items())

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self._repr_info().items())
        return f"{type(self).__name__}({fields})"

    def _repr_markdown_(self) -> str:
        lines = [f"**{self.summary()}**", "", "| field | value |", "|---|---|"]
        lines += [f"| {k} | {_shown(v)} |" for k, v in self._repr_info().items()]
        lines += [f"| {k} | {_shown(v)} |" for k, v in self.details.items()]
        return "\n".join(lines)


class RankValued(CertifiedResult):
    """A :class:`CertifiedResult` whose value is a rank: ``int(result)`` is ``result.rank``."""

    rank: int

    def __int__(self) -> int:
        return int(self.rank)
