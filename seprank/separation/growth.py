r"""The template-growth loop shared by every grid-based separation rank.

A grid matricization with M templates per position has rank at most
:math:`\operatorname{sep}_{(A,B)}(f)` (seed 003, Claim 1), and adding templates can only add
rows and columns, so the rank never decreases as the template set grows.  The loop

1. evaluates the grid matrix of the current templates (any evaluator: the generic
   :func:`~seprank.core.grid.grid_tensor` + :func:`~seprank.core.grid.matricize`, or a faster
   structured one such as the in-context GF(p) grid);
2. takes its rank in the plan's domain (:meth:`~seprank.core.domains.ModularDomain.rank`);
3. stops when the rank reaches the caller's upper bound, when the last ``patience`` rounds gave
   the same rank below the matrix size (saturation), when the next round would pass
   ``max_templates`` or the memory limit, or after one round for fixed templates; otherwise it
   multiplies the number of templates by :math:`2^{1/\min(|A|,|B|)}` (doubling the smaller
   side) with fresh templates from the plan's template stream.

:func:`plan_templates` sizes the first round; :func:`grow_until_stable` runs the loop.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.domains import Domain
from seprank.core.grid import GridTooLargeError
from seprank.core.rank import RankResult
from seprank.separation.result import RoundRecord, StopReason

__all__ = ["GrowthOutcome", "TemplatePlan", "grow_until_stable", "plan_templates"]

Array = npt.NDArray[Any]

#: Automatic schedule: the first round has about this many rows/columns.
INITIAL_SIDE = 16


@dataclass(frozen=True)
class TemplatePlan:
    """Where the templates of a growth loop come from and how the first round is sized.

    Attributes
    ----------
    domain : Domain
        The number domain of the grid (its :meth:`templates` and :meth:`rank` are used).
    rng : numpy.random.Generator
        The template stream (separate from the prime stream).
    dim : int
        Dimension of a template vector.
    first : numpy.ndarray
        Templates of the first round, shape ``(m0, dim)``.
    fixed : bool
        One round only (templates or their number were given).
    smaller_side : int
        ``min(len(A), len(B))``: sets the growth factor ``2 ** (1 / smaller_side)``.
    default_size : int
        The first-round size without an upper bound (fallback when a bound-sized first grid
        exceeds the memory limit).
    """

    domain: Domain
    rng: np.random.Generator
    dim: int
    first: Array
    fixed: bool
    smaller_side: int
    default_size: int

    def sample(self, m: int) -> Array:
        """``m`` fresh templates in the plan's domain."""
        return self.domain.templates(self.rng, m, self.dim)


def plan_templates(domain: Domain, rng: np.random.Generator, *, dim: int, smaller_side: int,
                   templates: npt.ArrayLike | None = None, n_templates: int | None = None,
                   upper_bound: int | None = None,
                   max_templates: int | None = None) -> TemplatePlan:
    """Size the first round: given ``templates``, ``n_templates`` of them, or enough for the
    smaller matrix side to reach ``upper_bound`` plus a margin (default: about
    :data:`INITIAL_SIDE`)."""
    default_size = max(2, math.ceil(INITIAL_SIDE ** (1 / smaller_side) - 1e-9))
    base = dict(domain=domain, rng=rng, dim=dim, smaller_side=smaller_side,
                default_size=default_size)
    if templates is not None:
        given = np.asarray(templates)
        if given.ndim != 2 or given.shape[1] != dim or given.shape[0] < 1:
            raise ValueError(f"templates must have shape (M, dim={dim}) with M >= 1, got "
                             f"{given.shape}")
        return TemplatePlan(first=domain.asarray(given), fixed=True, **base)
    if n_templates is not None:
        if isinstance(n_templates, bool) or not isinstance(n_templates, int | np.integer) \
                or n_templates < 1:
            raise ValueError(f"n_templates must be a positive integer, got {n_templates!r}")
        return TemplatePlan(first=domain.templates(rng, int(n_templates), dim), fixed=True,
                            **base)
    target_side = INITIAL_SIDE if upper_bound is None else upper_bound + max(8, upper_bound // 20)
    m0 = max(2, math.ceil(target_side ** (1 / smaller_side) - 1e-9))
    if max_templates is not None:
        m0 = min(m0, max_templates)
    return TemplatePlan(first=domain.templates(rng, m0, dim), fixed=False, **base)


@dataclass(frozen=True)
class GrowthOutcome:
    """What the loop reached: the last rank, every round, and why it stopped."""

    last: RankResult
    history: tuple[RoundRecord, ...]
    stop: StopReason
    matrix_shape: tuple[int, int]
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def n_templates(self) -> int:
        return self.history[-1].n_templates


def grow_until_stable(matrix_of: Callable[[Array], Array], plan: TemplatePlan, *,
                      upper_bound: int | None = None, patience: int = 2,
                      max_templates: int | None = None) -> GrowthOutcome:
    """Run the growth loop (module docstring) with the grid evaluator ``matrix_of``.

    Parameters
    ----------
    matrix_of : callable
        ``matrix_of(templates)`` -> the grid matrix in ``plan.domain`` (rows: A-tuples, columns:
        B-tuples; duplicate rows/columns may be removed, the rank is unchanged).  It raises
        :class:`~seprank.core.grid.GridTooLargeError` when the grid would exceed the memory
        limit: before the first rank that error propagates, afterwards the loop stops with
        ``'memory_limit'``.
    plan : TemplatePlan
        From :func:`plan_templates`.
    upper_bound, patience, max_templates
        Stop rules (module docstring).
    """
    if isinstance(patience, bool) or not isinstance(patience, int) or patience < 1:
        raise ValueError(f"patience must be a positive integer, got {patience!r}")
    current = plan.first
    history: list[RoundRecord] = []
    notes: dict[str, Any] = {}
    last: RankResult | None = None
    shape = (0, 0)
    stop: StopReason = "fixed"
    while True:
        t0 = time.perf_counter()
        try:
            E = matrix_of(current)
        except GridTooLargeError:
            if (not history and not plan.fixed and upper_bound is not None
                    and len(current) > plan.default_size):
                # a loose upper bound sized a first grid beyond the memory limit: grow from the
                # default size instead (the bound still stops the growth if it is reached)
                notes["upper_bound_sizing_skipped"] = (
                    f"{len(current)} templates to reach upper_bound={upper_bound} exceed the "
                    "memory limit; grew from the default size instead")
                current = current[:plan.default_size]
                continue
            if not history:
                raise
            stop = "memory_limit"
            break
        last = plan.domain.rank(E)
        shape = (int(E.shape[0]), int(E.shape[1]))
        history.append(RoundRecord(len(current), shape[0], shape[1], last.rank,
                                   time.perf_counter() - t0))
        if plan.fixed:
            stop = "fixed"
            break
        if upper_bound is not None and last.rank >= upper_bound:
            stop = "upper_bound"
            break
        recent = [r.rank for r in history[-patience:]]
        if len(recent) == patience and len(set(recent)) == 1 and last.rank < min(shape):
            stop = "saturated"
            break
        m = len(current)
        m_next = max(m + 1, math.ceil(m * 2 ** (1 / plan.smaller_side)))
        if max_templates is not None and m_next > max_templates:
            stop = "max_templates"
            break
        current = np.concatenate([current, plan.sample(m_next - m)])
    assert last is not None
    return GrowthOutcome(last, tuple(history), stop, shape, notes)
