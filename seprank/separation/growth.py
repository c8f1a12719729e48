r"""The template-growth loop shared by every grid-based separation rank.

A grid matricization with M templates per position has rank at most
:math:`\operatorname{sep}_{(A,B)}(f)` (003, Claim 1), and adding templates can only add
rows and columns, so the rank never decreases as the template set grows.  The loop

1. evaluates the grid matrix of the current templates (any evaluator: the generic
   :func:`~seprank.core.grid.grid_tensor` + :func:`~seprank.core.grid.matricize`, or a faster
   structured one such as the in-context GF(p) grid);
2. takes its rank in the plan's domain (:meth:`~seprank.core.domains.ModularDomain.rank`);
3. stops when the rank reaches the caller's upper bound, when the last ``patience`` rounds gave
   the same rank below the matrix size (saturation), when the next round would pass the
   :class:`~seprank.separation.budget.Budget` (templates, memory, time, rounds), or after one
   round for fixed templates; otherwise it multiplies the number of templates by
   :math:`2^{1/\min(|A|,|B|)}` (doubling the smaller side) with fresh templates from the
   plan's template stream.

Every stop says what it means (:attr:`GrowthOutcome.status`): only ``'saturated'`` and
``'upper_bound'`` say the rank stopped growing; a limit or the budget leaves a rank that is
still a certified lower bound but **not saturated** -- the status says so, with what was
reached.  A non-polynomial function (``exp(<x, y>)``) never saturates: the budget ends it.
A progress bar (one tick per round: rank, matrix, seconds) appears on terminals after two
seconds.

:func:`plan_templates` sizes the first round; :func:`grow_until_stable` runs the loop.  Other
growth problems (degree-structured ranks, certificates) reuse it with their own evaluator.
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
from seprank.core.memory import MemoryBudgetError, array_bytes, guard_memory
from seprank.core.progress import progress_bar
from seprank.core.rank import RankResult
from seprank.core.types import Array
from seprank.core.validation import check_int
from seprank.separation.budget import Budget, check_budget, refuses_budget_keywords
from seprank.separation.result import SATURATED_STOPS, RoundRecord, StopReason, growth_status

__all__ = ["GrowthOutcome", "TemplatePlan", "grow_until_stable", "plan_templates"]


#: Automatic schedule: the first round has about this many rows/columns.
INITIAL_SIDE = 16
#: A round is predicted to cost this factor range times the previous one (rank is cubic).
_ROUND_GROWTH = (8.0, 32.0)


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
    first_size : int
        Templates of the first round (drawn when the loop starts, so that a first round too
        large for memory is never sampled).
    fixed : bool
        One round only (templates or their number were given).
    smaller_side : int
        ``min(len(A), len(B))``: sets the growth factor ``2 ** (1 / smaller_side)``.
    default_size : int
        The first-round size without an upper bound (fallback when a bound-sized first grid
        exceeds the memory limit).
    given : numpy.ndarray or None
        The caller's own templates (one fixed round).
    """

    domain: Domain
    rng: np.random.Generator
    dim: int
    first_size: int
    fixed: bool
    smaller_side: int
    default_size: int
    given: Array | None = None

    def sample(self, m: int) -> Array:
        """``m`` fresh templates in the plan's domain (memory-guarded before drawing).

        Parameters
        ----------
        m : int
            Number of templates.

        Returns
        -------
        numpy.ndarray
            ``m`` templates of dimension ``dim`` in the plan's domain.
        """
        guard_memory(array_bytes((m, self.dim), np.int64) * 2,
                     what=f"{m:,} template vectors of dimension {self.dim}",
                     fix="use fewer templates (n_templates=, Budget(max_templates=), upper_bound=)")
        return self.domain.templates(self.rng, m, self.dim)

    def initial(self, m: int | None = None) -> Array:
        """The first round's templates: the given ones, or ``m`` (default ``first_size``)
        fresh ones.

        Parameters
        ----------
        m : int, optional
            Number of fresh templates (default ``first_size``); ignored when templates were given.

        Returns
        -------
        numpy.ndarray
            The first round's templates, shape ``(m, dim)``.
        """
        if self.given is not None:
            return self.given
        return self.sample(self.first_size if m is None else m)


def plan_templates(domain: Domain, rng: np.random.Generator, *, dim: int, smaller_side: int,
                   templates: npt.ArrayLike | None = None, n_templates: int | None = None,
                   upper_bound: int | None = None,
                   max_templates: int | None = None,
                   margin: int | None = None) -> TemplatePlan:
    """Size the first round: given ``templates``, ``n_templates`` of them, or enough for the
    smaller matrix side to reach ``upper_bound`` plus a margin (``margin`` rows; default
    ``max(8, upper_bound // 20)``), or about :data:`INITIAL_SIDE`.  Nothing is sampled here
    (:meth:`TemplatePlan.initial`).

    Parameters
    ----------
    domain : Domain
        The number domain of the grid.
    rng : numpy.random.Generator
        The template stream.
    dim : int, keyword-only
        Dimension of a template vector.
    smaller_side : int, keyword-only
        ``min(|A|, |B|)``: the smaller side of the grid matrix has ``m**smaller_side`` rows.
    templates : array_like, optional, keyword-only
        Fixed templates (one round).
    n_templates : int, optional, keyword-only
        Number of templates of one fixed round.
    upper_bound : int, optional, keyword-only
        A known upper bound on the rank: the first round is sized to exceed it.
    max_templates : int, optional, keyword-only
        Cap on the number of templates.
    margin : int, optional, keyword-only
        Rows beyond ``upper_bound`` (default ``max(8, upper_bound // 20)``).

    Returns
    -------
    TemplatePlan
        The plan (nothing sampled yet).
    """
    dim = check_int("dim", dim)
    smaller_side = check_int("smaller_side", smaller_side)
    default_size = max(2, math.ceil(INITIAL_SIDE ** (1 / smaller_side) - 1e-9))
    base = dict(domain=domain, rng=rng, dim=dim, smaller_side=smaller_side,
                default_size=default_size)
    if templates is not None and n_templates is not None:
        raise ValueError("give templates= or n_templates=, not both")
    if templates is not None:
        given = np.asarray(templates)
        if given.ndim != 2 or given.shape[1] != dim or given.shape[0] < 1:
            raise ValueError(f"templates must have shape (M, dim={dim}) with M >= 1, got "
                             f"{given.shape}")
        return TemplatePlan(first_size=int(given.shape[0]), fixed=True,
                            given=domain.asarray(given), **base)
    if n_templates is not None:
        return TemplatePlan(first_size=check_int("n_templates", n_templates), fixed=True,
                            **base)
    if upper_bound is not None:
        upper_bound = check_int("upper_bound", upper_bound, minimum=0)
    if max_templates is not None:
        max_templates = check_int("max_templates", max_templates)
    if margin is None:
        margin = 8 if upper_bound is None else max(8, upper_bound // 20)
    margin = check_int("margin", margin, minimum=0)
    target_side = INITIAL_SIDE if upper_bound is None else upper_bound + margin
    m0 = max(2, math.ceil(target_side ** (1 / smaller_side) - 1e-9))
    if max_templates is not None:
        m0 = min(m0, max_templates)
    return TemplatePlan(first_size=m0, fixed=False, **base)


@dataclass(frozen=True)
class GrowthOutcome:
    """What the loop reached: the last rank, every round, and why it stopped.

    Attributes
    ----------
    last : RankResult
        The last round's rank.
    history : tuple of RoundRecord
        Every round.
    stop : str
        Why the loop stopped (a :data:`StopReason`).
    matrix_shape : (int, int)
        Shape of the last grid matrix after de-duplication.
    notes : dict
        Remarks for the result's ``details``.
    templates : numpy.ndarray or None
        The templates of the last completed round.
    witness : object
        What ``on_final`` returned for the last round's matrix, or None.
    """

    last: RankResult
    history: tuple[RoundRecord, ...]
    stop: StopReason
    matrix_shape: tuple[int, int]
    notes: dict[str, Any] = field(default_factory=dict)
    #: The templates of the last completed round (the rows/columns of its grid matrix).
    templates: Array | None = field(default=None, repr=False)
    #: What ``on_final(E, templates, rank)`` returned for the last round's matrix E (a
    #: certificate's witness), or None.
    witness: Any = field(default=None, repr=False)

    @property
    def n_templates(self) -> int:
        return self.history[-1].n_templates

    @property
    def saturated(self) -> bool:
        """True when the rank stopped growing (saturation) or reached the upper bound."""
        return self.stop in SATURATED_STOPS

    @property
    def status(self) -> str:
        """The stop in words: saturated or not, and what was reached."""
        return growth_status(self.stop, self.last.rank, self.history, self.notes)


@refuses_budget_keywords
def grow_until_stable(matrix_of: Callable[[Array], Array], plan: TemplatePlan, *,
                      upper_bound: int | None = None, budget: Budget | None = None,
                      progress: bool | None = None,
                      description: str = "separation rank",
                      on_final: Callable[[Array, Array, RankResult], Any] | None = None,
                      rank_of: Callable[[Array], RankResult] | None = None,
                      ) -> GrowthOutcome:
    """Run the growth loop (module docstring) with the grid evaluator ``matrix_of``.

    Parameters
    ----------
    matrix_of : callable
        ``matrix_of(templates)`` -> the grid matrix in ``plan.domain`` (rows: A-tuples, columns:
        B-tuples; duplicate rows/columns may be removed, the rank is unchanged).  It raises a
        :class:`~seprank.core.errors.MemoryBudgetError` (e.g.
        :class:`~seprank.core.errors.GridTooLargeError`) *before allocating* when the round --
        grid and rank step -- would exceed the memory limit: before the first rank that error
        propagates, afterwards the loop stops with ``'memory_limit'``.
    plan : TemplatePlan
        From :func:`plan_templates`.
    upper_bound : int, optional
        Stop when the rank reaches it (module docstring).
    budget : Budget, optional
        Patience, templates, time and rounds (default ``Budget()``: 300 s, patience 2).  Its
        ``max_bytes`` is the evaluator's business: ``matrix_of`` raises (or ``fits`` says
        no) before a round above the memory limit.
    progress : bool, optional
        Progress bar (default: on terminals, after two seconds).
    description : str
        The bar's label.
    on_final : callable, optional
        ``on_final(E, templates, rank)`` is called once with the last round's grid matrix
        before it is released (e.g. to find a non-zero minor for a certificate, at the price
        of one echelon form); its value is :attr:`GrowthOutcome.witness`.  Not called when
        the loop stops because the next round raised a memory error after E was released.
    rank_of : callable, optional
        ``rank_of(E)`` -> the rank of a round's matrix in ``plan.domain`` (default
        ``plan.domain.rank``); the degree blocks pass one that returns the rank a dask worker
        computed of the same matrix (:mod:`seprank.separation.distributed`).

    Returns
    -------
    GrowthOutcome
        The last rank, every round and why the loop stopped.

    Examples
    --------
    >>> from seprank.core.domains import FloatDomain
    >>> plan = plan_templates(FloatDomain(), np.random.default_rng(0), dim=1, smaller_side=1)
    >>> def grid(t):          # exp(x * y): separation rank infinite, the rank keeps growing
    ...     return np.exp(np.outer(t[:, 0], t[:, 0]) / 3)
    >>> out = grow_until_stable(grid, plan, budget=Budget(max_rounds=3))
    >>> out.stop, out.saturated
    ('max_rounds', False)
    >>> out.status.startswith("not saturated")
    True
    """
    if upper_bound is not None:
        upper_bound = check_int("upper_bound", upper_bound, minimum=0)
    budget = check_budget(budget)
    patience, max_templates = budget.patience, budget.max_templates
    rank = plan.domain.rank if rank_of is None else rank_of
    started = time.perf_counter()
    notes: dict[str, Any] = {}
    current = _first_round(matrix_of, plan, upper_bound, notes)
    history: list[RoundRecord] = []
    last: RankResult | None = None
    shape = (0, 0)
    stop: StopReason = "fixed"
    E: Array | None = None
    bar = progress_bar(desc=description, unit="round", progress=progress)
    try:
        while True:
            t0 = time.perf_counter()
            E = None  # the previous round's matrix is released before the next one is built
            try:
                E = matrix_of(current)
                last = rank(E)
            except MemoryBudgetError:
                if (not history and not plan.fixed and upper_bound is not None
                        and len(current) > plan.default_size):
                    # a loose upper bound sized a first grid beyond the memory limit: grow from
                    # the default size instead (the bound still stops the growth if reached)
                    notes["upper_bound_sizing_skipped"] = (
                        f"{len(current)} templates to reach upper_bound={upper_bound} exceed the "
                        "memory limit; grew from the default size instead")
                    current = current[:plan.default_size]
                    continue
                if not history:
                    raise
                stop = "memory_limit"
                break
            shape = (int(E.shape[0]), int(E.shape[1]))
            history.append(RoundRecord(len(current), shape[0], shape[1], last.rank,
                                       time.perf_counter() - t0))
            bar.update(1)
            bar.set_postfix_str(f"rank={last.rank}, matrix={shape[0]}x{shape[1]}, "
                                f"s={history[-1].seconds:.1f}")
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
            if budget.max_rounds is not None and len(history) >= budget.max_rounds:
                stop = "max_rounds"
                notes["budget"] = f"max_rounds={budget.max_rounds}"
                break
            if budget.max_seconds is not None:
                predicted = _predict_next_seconds(history)
                elapsed = time.perf_counter() - started
                if elapsed + predicted > budget.max_seconds:
                    stop = "time_limit"
                    notes["budget"] = (f"{elapsed:.1f} s used; the next round was predicted to "
                                       f"take ~{predicted:.3g} s, beyond max_seconds="
                                       f"{budget.max_seconds:g}")
                    break
            fits = getattr(matrix_of, "fits", None)
            if fits is not None and not fits(m_next):
                stop = "memory_limit"
                break
            try:
                current = np.concatenate([current, plan.sample(m_next - m)])
            except MemoryBudgetError:
                stop = "memory_limit"
                break
    finally:
        bar.close()
    assert last is not None
    final = current[:history[-1].n_templates]
    witness = None if on_final is None or E is None else on_final(E, final, last)
    return GrowthOutcome(last, tuple(history), stop, shape, notes, templates=final,
                         witness=witness)


def _first_round(matrix_of: Callable[[Array], Array], plan: TemplatePlan,
                 upper_bound: int | None, notes: dict[str, Any]) -> Array:
    """The first templates; an upper-bound-sized first round that would not fit in memory
    (``matrix_of.fits(m)`` when the evaluator has it, or the template sample itself) falls
    back to the default size *before* anything large is sampled."""
    m0 = plan.first_size
    bound_sized = not plan.fixed and upper_bound is not None and m0 > plan.default_size
    fits = getattr(matrix_of, "fits", None)
    if bound_sized and fits is not None and not fits(m0):
        notes["upper_bound_sizing_skipped"] = (
            f"{m0} templates to reach upper_bound={upper_bound} exceed the memory limit; grew "
            "from the default size instead")
        return plan.initial(plan.default_size)
    try:
        return plan.initial(m0)
    except MemoryBudgetError:
        if not bound_sized:
            raise
        notes["upper_bound_sizing_skipped"] = (
            f"{m0} templates to reach upper_bound={upper_bound} exceed the memory limit; grew "
            "from the default size instead")
        return plan.initial(plan.default_size)


def _predict_next_seconds(history: list[RoundRecord]) -> float:
    """The next round's time: the last one times the observed growth ratio, clamped to
    [8, 32] (doubling the smaller side of a matrix multiplies a cubic rank step by >= 8; one
    noisy round must not stop the loop on its own)."""
    last = history[-1].seconds
    ratio = _ROUND_GROWTH[0]
    if len(history) >= 2 and history[-2].seconds > 0:
        ratio = min(max(ratio, last / history[-2].seconds), _ROUND_GROWTH[1])
    return last * ratio
