"""Every exception :mod:`seprank` raises beyond ``ValueError`` / ``TypeError``, in one place
(networkx's ``exception.py``, sympy's ``polys/matrices/exceptions.py``).

The module that raises an error re-exports it, so ``seprank.d2w.OutsideHypothesesError`` is
this module's class.

===============================  ===========================================================
:class:`MemoryBudgetError`       an allocation refused before it happens (the memory policy)
:class:`GridTooLargeError`       the same, for a grid tensor or its rank step
:class:`DegreeStructureError`    a function is not of its declared degree structure
:class:`OutsideHypothesesError`  a bound asked for outside its statement's hypotheses
:class:`UnboundedGradientError`  a loss or gradient overflowed (unnormalised attention)
:class:`SemigroupTooLargeError`  a semigroup closure beyond its budget
:class:`TimeBudgetExceeded`      a sweep task beyond its time budget
:class:`WorkBudgetError`         a computation planned beyond the work budget (refused
                                 before it starts; :func:`seprank.core.check_work`)
===============================  ===========================================================
"""

from __future__ import annotations

__all__ = [
    "DegreeStructureError",
    "GridTooLargeError",
    "MemoryBudgetError",
    "OutsideHypothesesError",
    "SemigroupTooLargeError",
    "TimeBudgetExceeded",
    "UnboundedGradientError",
    "WorkBudgetError",
]


class MemoryBudgetError(MemoryError):
    """A computation would exceed the memory limit; raised *before* anything is allocated.

    Attributes
    ----------
    needed : int
        The estimated peak in bytes.
    limit : int
        The limit it was compared with.
    what : str
        What would have been allocated.
    """

    def __init__(self, message: str, *, needed: int = 0, limit: int = 0, what: str = "") -> None:
        super().__init__(message)
        self.needed, self.limit, self.what = int(needed), int(limit), what


class GridTooLargeError(MemoryBudgetError):
    """A grid tensor (or the rank of its matricization) would exceed the memory limit.

    A :class:`MemoryBudgetError`, raised before the grid is allocated.
    """


class DegreeStructureError(ValueError):
    """A function is not of the degree structure it was declared to have."""


class OutsideHypothesesError(ValueError):
    """A bound was requested with ``strict=True`` for a network outside its hypotheses."""


class UnboundedGradientError(ValueError):
    """The loss, its gradient or the updated representation overflowed (not finite).

    Unnormalised polynomial attention has degree-:math:`3^L` logits, so gradients can be
    astronomically large; the theorems assume bounded gradients (Λ_max).  Fix: smaller weights,
    embeddings or templates, or a shallower network.
    """


class SemigroupTooLargeError(ValueError):
    """The closure passed its ``max_size`` budget before it was complete."""


class TimeBudgetExceeded(RuntimeError):
    """A case used more CPU time than its budget (raised between batches of evaluations)."""


class WorkBudgetError(ValueError):
    """A computation would take more elementary operations than the work budget; raised
    *before* it starts (the growth policy of :func:`seprank.core.validation.check_work`).

    Attributes
    ----------
    needed : int
        The estimated number of operations.
    limit : int
        The budget it was compared with.
    what : str
        What would have been computed.
    """

    def __init__(self, message: str, *, needed: int = 0, limit: int = 0, what: str = "") -> None:
        super().__init__(message)
        self.needed, self.limit, self.what = int(needed), int(limit), what
