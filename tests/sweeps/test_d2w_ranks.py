"""The 003 rank sweep: ranks against exact symbolic ones, symmetry classes, verdicts, budgets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from seprank.attention import LinearAttention
from seprank.core.random import spawn
from seprank.d2w.theorems import theorem2_lower, theorem3_upper
from seprank.separation.engine import separation_rank
from seprank.sweeps.d2w_ranks import bound_entry, rank_case, rank_cases
from seprank.sweeps.report import rank_table, write_rank_report
from seprank.sweeps.run import sweep

TINY = [  # (d_x, H, L, N, a, residual): small enough for an exact symbolic rank
    (1, 1, 1, 2, 1, False), (2, 1, 1, 2, 1, False), (2, 2, 1, 2, 1, False),
    (2, 1, 1, 3, 1, False), (2, 1, 1, 3, 2, False), (1, 1, 2, 3, 1, False),
    (2, 1, 1, 2, 1, True), (1, 1, 2, 2, 1, True),
]


def _case(d_x: int, H: int, L: int, N: int, a: int, residual: bool,
          **budgets: Any) -> dict[str, Any]:
    return rank_case(width=d_x, heads=H, depth=L, n_inputs=N, part_with_output=a,
                     residual=residual, seed=3, **budgets)


@pytest.mark.parametrize("d_x,H,L,N,a,residual", TINY)
def test_certified_rank_equals_the_exact_symbolic_rank(d_x: int, H: int, L: int, N: int,
                                                       a: int, residual: bool) -> None:
    """The same network (same weight stream), its coefficient-matrix rank computed exactly
    with sympy: the grid rank is a lower bound that must reach it."""
    got = _case(d_x, H, L, N, a, residual)
    net = LinearAttention.random(depth=L, width=d_x, heads=H, residual=residual,
                                 seed=spawn(3, 2)[0])
    exact = separation_rank(net.entry(0, 0), n_inputs=N, dim=d_x,
                            partition=(range(a), range(a, N)), method="symbolic")
    assert got["status"] == "ok" and got["rank"] == exact.rank


def test_partitions_in_one_symmetry_class_have_one_rank() -> None:
    """y^1 is invariant under permutations fixing position 1: ({1,3},{2}) ~ ({1,2},{3})."""
    swept = _case(2, 1, 2, 3, 2, False)
    net = LinearAttention.random(depth=2, width=2, heads=1, seed=spawn(3, 2)[0])
    other = separation_rank(net.entry(0, 0), n_inputs=3, dim=2, partition=([0, 2], [1]),
                            seed=5)
    assert other.rank == swept["rank"]


def test_bound_verdicts_can_fail() -> None:
    upper = theorem3_upper(width=2, depth=1)                       # (d_x + H)^C(1) = 3
    assert bound_entry(upper, 3, applies=True)["verdict"] == "consistent"
    assert bound_entry(upper, 4, applies=True)["verdict"] == "VIOLATED"
    lower = theorem2_lower(width=5, depth=8)                       # 3^1.42... > 1
    big = int(3 ** float(lower.log3)) + 2
    assert bound_entry(lower, big, applies=True)["verdict"] == "consistent"
    assert bound_entry(lower, 1, applies=True)["verdict"] == "not_confirmed"
    assert bound_entry(upper, None, applies=False)["verdict"] == "not_applicable"


def test_over_budget_cases_are_recorded_with_their_budget() -> None:
    slow = _case(2, 1, 2, 2, 1, False, time_budget=1e-9)
    assert slow["status"] == "over_budget" and slow["budget"].startswith("CPU time")
    assert slow["rank"] is None and slow["bounds"]["theorem3"]["verdict"] == "no_rank"
    big = _case(3, 1, 2, 3, 1, False, memory_budget=2**16)
    assert big["status"] == "over_budget" and big["budget"].startswith("memory")


def test_the_case_list_covers_every_class_once() -> None:
    cases = rank_cases()
    n_pairs = sum(1 for d in range(1, 7) for h in range(1, d + 1) if d % h == 0)   # 14
    assert len(cases) == n_pairs * 3 * (1 + 2 + 3) * 2
    keys = {tuple(sorted(c.items())) for c in cases}
    assert len(keys) == len(cases)


def test_a_small_sweep_on_dask_resumes_and_reports(dask_client: Any, tmp_path: Path) -> None:
    cases = rank_cases(max_width=2, max_depth=1, max_inputs=3)
    store = tmp_path / "ranks.sqlite"
    first = sweep(rank_case, cases, executor=dask_client, store=store, progress=False)
    assert first.failures == () and first.n_computed == len(cases)
    again = sweep(rank_case, cases, executor=dask_client, store=store, progress=False)
    assert again.n_loaded == len(cases) and again.values() == first.values()
    rows = rank_table(first.to_records())
    assert all(r["theorem3_verdict"] in ("consistent", "not_applicable") for r in rows)
    paths = write_rank_report(first.to_records(), tmp_path / "out")
    assert [p.name for p in paths] == ["d2w_ranks.csv", "d2w_ranks.md", "d2w_ranks.png"]
    assert len(paths[0].read_text().splitlines()) == len(cases) + 1
