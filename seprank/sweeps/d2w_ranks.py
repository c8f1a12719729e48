r"""003's network swept: certified generic separation ranks against Theorems 2, 3, 5 and Lemma 6.

For every width :math:`d_x \le 6`, every head count H dividing it, depth :math:`L \le 3`,
:math:`N \le 4` input positions, every partition up to symmetry, and both the plain and the
residual network, :func:`rank_case` certifies a lower bound on the generic separation rank of
the output entry :math:`y^{1}_1` and compares it with every bound of 003 that speaks about it.

Partitions up to symmetry.  The network has no positional encoding, so :math:`y^{i}` is
invariant under permutations of the positions that fix i (layer by layer, the outputs are
permuted with the inputs).  With i = 1 (0-based 0) a partition (A, B) is therefore determined,
up to symmetry, by :math:`a = |A|` with :math:`i \in A`, :math:`1 \le a \le N-1`; swapping A
and B does not change a rank.  Those are the N - 1 classes swept.

What is certified.  A random integer network (weights uniform in [-50, 50]) is evaluated in
GF(p) on templates grown until the rank is stable (:func:`seprank.separation_rank`,
``method='modular'``): the rank is a *certified lower bound* on
:math:`\operatorname{sep}(y;\Theta)` at that Θ, hence on the generic separation rank (the
maximum over Θ, attained almost everywhere).  An upper bound of the paper that is below it is
therefore *certainly* violated; a lower bound of the paper above it is only *not confirmed*
(the measurement is a lower bound).  Stopping at a stable rank is a heuristic for "all of the
rank was found", never part of the certificate.

Budgets.  Each case runs under a time budget in *CPU seconds of the thread running it*
(checked before every batch of network evaluations; the thread's CPU time, not wall time nor
the process's, so that what is over budget depends neither on how busy the machine is nor on
the threads a dask worker runs beside the task -- GF(p) and flint arithmetic are
single-threaded) and a memory budget (the largest
grid, :func:`seprank.core.grid.grid_tensor`'s guard); a case that exceeds either is recorded
as ``over_budget`` with the budget (and, when the memory budget stopped it, the certified rank
reached so far) and is never mistaken for a result.

References
----------
.. [1] 003 (Levine et al., "The Depth-to-Width Interplay in Self-Attention", NeurIPS 2020):
   eq. 5 (separation rank), Theorems 2, 3 and 5, Lemma 6 and App. B.1 (grid tensors).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any, Literal

import numpy as np

from seprank.attention import LinearAttention
from seprank.core.domains import Domain
from seprank.core.errors import TimeBudgetExceeded
from seprank.core.grid import GridTooLargeError
from seprank.core.random import spawn
from seprank.core.validation import check_int
from seprank.d2w.bounds import Bound, mixing_units
from seprank.d2w.theorems import (
    lemma6_lower_bound,
    theorem2_lower,
    theorem2_upper,
    theorem3_upper,
    theorem5_residual_upper,
)
from seprank.separation.budget import Budget
from seprank.separation.engine import separation_rank

__all__ = ["TimeBudgetExceeded", "bound_entry", "estimated_cost", "rank_case", "rank_cases"]

DEFAULT_TIME_BUDGET = 2.0
DEFAULT_MEMORY_BUDGET = 64 * 1024**2


class _DeadlineEntry:
    """The output entry y^{i}_p, refusing to start another batch once the CPU budget is spent."""

    def __init__(self, net: LinearAttention, budget: float) -> None:
        self.entry = net.entry(0, 0)
        self.budget = budget
        self.deadline = time.thread_time() + budget

    def __call__(self, X: np.ndarray, *, domain: Domain | None = None) -> np.ndarray:
        if time.thread_time() > self.deadline:
            raise TimeBudgetExceeded(f"CPU-time budget of {self.budget:g} s exceeded")
        return self.entry(X, domain=domain)


def divisors(n: int) -> list[int]:
    return [h for h in range(1, n + 1) if n % h == 0]


def rank_cases(*, max_width: int = 6, max_depth: int = 3, max_inputs: int = 4,
               residual: tuple[bool, ...] = (False, True), seeds: tuple[int, ...] = (0,),
               time_budget: float = DEFAULT_TIME_BUDGET,
               memory_budget: int = DEFAULT_MEMORY_BUDGET) -> list[dict[str, Any]]:
    """Every case of the sweep as a parameter set for :func:`rank_case`.

    ``(d_x, H, L, N, a, residual, seed)`` over :math:`d_x \\le` ``max_width``, H | d_x,
    L <= ``max_depth``, 2 <= N <= ``max_inputs``, 1 <= a <= N - 1 (the partition class).

    Parameters
    ----------
    max_width : int, keyword-only
        Largest :math:`d_x` (default 6).
    max_depth : int, keyword-only
        Largest L (default 3).
    max_inputs : int, keyword-only
        Largest N (default 4).
    residual : tuple of bool, keyword-only
        Network variants (default both).
    seeds : tuple of int, keyword-only
        Seeds per case (default (0,)).
    time_budget : float, keyword-only
        CPU seconds per case (:func:`rank_case`).
    memory_budget : int, keyword-only
        Bytes per grid (:func:`rank_case`).

    Returns
    -------
    list of dict
        One parameter set per case.

    Examples
    --------
    >>> len(rank_cases())             # 14 (d_x, H) x 3 depths x 6 partitions x 2 networks
    504
    >>> rank_cases(max_width=1, max_depth=1, max_inputs=2, residual=(False,))[0]["heads"]
    1
    """
    for name, value in (("max_width", max_width), ("max_depth", max_depth)):
        check_int(name, value)
    check_int("max_inputs", max_inputs, 2)
    if not residual or any(not isinstance(r, bool) for r in residual):
        raise ValueError(f"residual must be a non-empty tuple of bools, got {residual!r}")
    cases = []
    for d_x in range(1, max_width + 1):
        for heads in divisors(d_x):
            for depth in range(1, max_depth + 1):
                for n_inputs in range(2, max_inputs + 1):
                    for part in range(1, n_inputs):
                        for res in residual:
                            for seed in seeds:
                                cases.append({
                                    "width": d_x, "heads": heads, "depth": depth,
                                    "n_inputs": n_inputs, "part_with_output": part,
                                    "residual": res, "seed": int(seed),
                                    "time_budget": float(time_budget),
                                    "memory_budget": int(memory_budget)})
    return cases


def estimated_cost(case: Mapping[str, Any]) -> float:
    """A rough cost scale of a case (for scheduling the expensive ones first): the number of
    monomials of degree C(L) in :math:`N d_x` variables, capped.

    Parameters
    ----------
    case : Mapping
        A parameter set of :func:`rank_cases`.

    Returns
    -------
    float
        The cost scale.

    Examples
    --------
    :math:`\\binom{n + c - 1}{c}` monomials of degree :math:`c = C(L)` in :math:`n = N d_x`
    variables: C(1) = 1 gives n, C(2) = 4 gives :math:`\\binom{9}{4} = 126` for n = 6:

    >>> estimated_cost({"width": 2, "n_inputs": 2, "depth": 1})
    4.0
    >>> estimated_cost({"width": 2, "n_inputs": 3, "depth": 2})
    126.0
    """
    n_vars = case["width"] * case["n_inputs"]
    c = mixing_units(case["depth"])
    return float(min(1e12, np.prod([(n_vars + k) / (k + 1) for k in range(min(c, 60))])))


def bound_entry(bound: Bound, rank: int | None, *, applies: bool) -> dict[str, Any]:
    """A bound next to a certified lower bound ``rank`` on sep: value, and what they say.

    ``verdict`` is one of ``'consistent'``, ``'VIOLATED'`` (an upper bound below the certified
    rank: certain), ``'not_confirmed'`` (a lower bound above the measured rank: inconclusive),
    ``'not_applicable'`` (the statement does not cover this network) or ``'no_rank'``.

    Parameters
    ----------
    bound : Bound
        A bound of :mod:`seprank.d2w.theorems`.
    rank : int or None
        The certified lower bound on sep (None: not measured).
    applies : bool, keyword-only
        Whether the statement covers this network.

    Returns
    -------
    dict
        The bound's value, its log3 and the verdict.

    Examples
    --------
    Theorem 3's upper bound for :math:`d_x = 2`, L = 1 is :math:`(d_x + H)^{C(1)} = 3`:

    >>> from seprank.d2w import theorem3_upper
    >>> [bound_entry(theorem3_upper(width=2, depth=1), r, applies=True)["verdict"] for r in (3, 4)]
    ['consistent', 'VIOLATED']
    """
    value = bound.value
    exact = value if isinstance(value, int) and value < 2**63 else None
    entry: dict[str, Any] = {
        "statement": bound.statement, "kind": bound.kind, "log3": float(bound.log3),
        "value": exact, "in_hypotheses": bool(bound.in_hypotheses),
        "violated_hypotheses": list(bound.violated)}
    if not applies:
        entry["verdict"] = "not_applicable"
    elif rank is None:
        entry["verdict"] = "no_rank"
    else:
        ok = bound.admits(rank)
        if ok is None:
            entry["verdict"] = "tie"
        elif bound.kind == "upper":
            entry["verdict"] = "consistent" if ok else "VIOLATED"
        else:
            entry["verdict"] = "consistent" if ok else "not_confirmed"
    return entry


def _bounds(width: int, heads: int, depth: int, n_inputs: int, residual: bool,
            rank: int | None) -> dict[str, dict[str, Any]]:
    t2 = theorem2_lower(width=width, depth=depth, heads=heads)
    lemma6 = lemma6_lower_bound(width=width, depth=depth, heads=heads)
    out = {
        "theorem3": bound_entry(theorem3_upper(width=width, depth=depth, heads=heads), rank,
                                applies=not residual),
        "theorem2_upper": bound_entry(theorem2_upper(width=width, depth=depth, heads=heads), rank,
                                      applies=not residual and t2.in_hypotheses),
        "theorem2_lower": bound_entry(t2, rank, applies=not residual and t2.in_hypotheses),
        "lemma6": bound_entry(lemma6, rank, applies=not residual and lemma6.in_hypotheses),
    }
    forms: tuple[Literal["stated", "proof_product", "recursion"], ...] = (
        "stated", "proof_product", "recursion")
    for form in forms:
        out[f"theorem5_{form}"] = bound_entry(
            theorem5_residual_upper(width=width, depth=depth, heads=heads, n_inputs=n_inputs,
                                    form=form),
            rank, applies=residual)
    return out


def rank_case(*, width: int, heads: int, depth: int, n_inputs: int, part_with_output: int,
              residual: bool, seed: int, time_budget: float = DEFAULT_TIME_BUDGET,
              memory_budget: int = DEFAULT_MEMORY_BUDGET) -> dict[str, Any]:
    """One case: the certified rank of :math:`y^1_1` for the partition class a, and the bounds.

    Parameters
    ----------
    width, heads, depth, n_inputs : int, keyword-only
        :math:`d_x`, H (dividing :math:`d_x`), L and N >= 2.
    part_with_output : int, keyword-only
        ``a = |A|``, 1 <= a <= N - 1: A = positions 0..a-1 (holding the output position 0),
        B = the rest.
    residual : bool, keyword-only
        The residual network of 003, App. A.4 (Theorem 5's object) instead of eq. 3's.
    seed : int, keyword-only
        Seeds the weights and the rank computation (two independent streams).
    time_budget : float, keyword-only
        CPU seconds (default 2); past it no new batch of evaluations starts and the case is
        ``over_budget``.
    memory_budget : int, keyword-only
        Bytes allowed for one grid (default 64 MiB); growth that would exceed it stops the case
        (``over_budget`` with the certified rank reached).

    Returns
    -------
    dict
        ``status`` ('ok' or 'over_budget'), ``rank`` (certified lower bound, or None),
        ``stop_reason``, ``matrix_shape``, ``n_templates``, ``prime``, ``budget`` (on
        over-budget), and ``bounds``: one :func:`bound_entry` per statement.

    Examples
    --------
    >>> r = rank_case(width=2, heads=1, depth=1, n_inputs=2, part_with_output=1,
    ...               residual=False, seed=0)
    >>> r["status"], r["rank"], r["bounds"]["theorem3"]["value"]
    ('ok', 3, 3)
    """
    d_x = check_int("width d_x", width)
    H = check_int("heads H", heads)
    L = check_int("depth L", depth)
    N = check_int("n_inputs N", n_inputs, 2)
    a = check_int("part_with_output", part_with_output, 1, N - 1)
    if d_x % H:
        raise ValueError(f"heads H = {H} must divide the width d_x = {d_x}")
    if not isinstance(residual, bool):
        raise ValueError(f"residual must be a bool, got {residual!r}")
    if not (isinstance(time_budget, int | float) and time_budget > 0):
        raise ValueError(f"time_budget must be a positive number of seconds, got {time_budget!r}")
    check_int("memory_budget", memory_budget)
    weights_rng, rank_rng = spawn(seed, 2)
    net = LinearAttention.random(depth=L, width=d_x, heads=H, residual=residual,
                                 seed=weights_rng)
    entry = _DeadlineEntry(net, float(time_budget))
    partition = (list(range(a)), list(range(a, N)))
    out: dict[str, Any] = {"status": "ok", "rank": None, "stop_reason": None,
                           "matrix_shape": None, "n_templates": None, "prime": None}
    try:
        r = separation_rank(entry, n_inputs=N, dim=d_x, partition=partition, method="modular",
                            seed=rank_rng, budget=Budget(max_bytes=int(memory_budget)),
                            progress=False)
    except TimeBudgetExceeded:
        out.update(status="over_budget", budget=f"CPU time {time_budget:g} s")
    except GridTooLargeError as exc:
        out.update(status="over_budget", budget=f"memory {memory_budget / 2**20:g} MiB",
                   detail=str(exc))
    else:
        out.update(rank=int(r.rank), stop_reason=r.stop_reason,
                   matrix_shape=[int(s) for s in r.matrix_shape],
                   n_templates=int(r.n_templates), prime=r.details.get("prime"))
        if r.stop_reason == "memory_limit":
            out.update(status="over_budget", budget=f"memory {memory_budget / 2**20:g} MiB")
    out["bounds"] = _bounds(d_x, H, L, N, residual, out["rank"])
    return out


def iter_rows(records: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Flatten sweep records (parameters + ``value``) into one table row per case."""
    for rec in records:
        value = rec.get("value") or {}
        row = {k: rec[k] for k in ("width", "heads", "depth", "n_inputs", "part_with_output",
                                   "residual", "seed")}
        row.update(status=rec.get("status") if rec.get("status") != "ok"
                   else value.get("status"),
                   rank=value.get("rank"), stop_reason=value.get("stop_reason"),
                   budget=value.get("budget"), version=rec.get("version"),
                   seconds=rec.get("seconds"),
                   peak_mib=None if rec.get("peak_rss_bytes") is None
                   else rec["peak_rss_bytes"] / 2**20)
        for name, b in (value.get("bounds") or {}).items():
            row[f"{name}_log3"] = b["log3"]
            row[f"{name}_verdict"] = b["verdict"]
        yield row
