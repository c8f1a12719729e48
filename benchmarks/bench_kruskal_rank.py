"""Exact Kruskal rank of generic 10 x 20 and 12 x 24 integer matrices.

The k-rank of a generic m x n matrix (n > m) is m, and proving it needs every one of the
C(n, m) maximal minors to be non-zero (184,756 for 10 x 20; 2,704,156 for 12 x 24).  Methods,
run on the same matrix (entries uniform in [-99, 99], seed = m):

* ``exact (minors)``: :func:`identifiability.kruskal_rank`, ``method='exact'`` (vectorised
  modular screen of all minors, exact confirmation of any zero) — certifies the k-rank;
* ``exact (subsets)``: the same with ``engine='subsets'``: one
  :func:`seprank.matrix_rank` (exact) call per subset;
* ``svd (batched)``: ``method='svd'`` (certifies nothing);
* ``naive float``: the all-subsets baseline, ``np.linalg.matrix_rank`` on every m-subset
  (only the decisive top level, which favours the baseline; a truly naive search also scans
  the levels below).

Engines that would take minutes are timed on the first ``SAMPLE`` subsets and extrapolated;
those cells say "extrapolated".  Target (issue 5): exact <= 2 s per matrix.

Usage: ``python -m benchmarks kruskal_rank [--quick]`` (``--quick``: 10 x 20 only, sampled
baselines).
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from typing import Any

import numpy as np

from benchmarks._util import fmt_seconds, machine_line, markdown_table, median_time, write_result
from identifiability import kruskal_rank
from seprank import matrix_rank

SHAPES = ((10, 20), (12, 24))
TARGET_SECONDS = 2.0
SAMPLE = 100_000
FULL_LIMIT = 250_000  # run a per-subset baseline in full up to this many subsets


def _per_subset(A: np.ndarray, r: int, fn: Any, limit: int | None) -> tuple[float, bool, bool]:
    """Time fn on every r-subset (or the first ``limit``); returns (seconds, all_ok, sampled)."""
    n = A.shape[1]
    total = math.comb(n, r)
    count = total if limit is None else min(limit, total)
    start = time.perf_counter()
    ok = True
    for S in itertools.islice(itertools.combinations(range(n), r), count):
        ok &= fn(A[:, list(S)]) == r
    elapsed = time.perf_counter() - start
    return elapsed * total / count, ok, count < total


def measure(m: int, n: int, quick: bool, repeat: int) -> list[object]:
    A = np.random.default_rng(m).integers(-99, 100, (m, n))
    t_exact, res = median_time(lambda: kruskal_rank(A, method="exact", seed=1), repeat)
    assert res.rank == m and res.certifies == "exact"
    t_svd, res_svd = median_time(lambda: kruskal_rank(A.astype(float), method="svd"), 1)
    limit = SAMPLE if quick or math.comb(n, m) > FULL_LIMIT else None
    t_sub, ok_sub, s_sub = _per_subset(A, m, lambda S: matrix_rank(S, method="exact").rank, limit)
    Af = A.astype(float)
    t_naive, ok_naive, s_naive = _per_subset(Af, m, lambda S: int(np.linalg.matrix_rank(S)),
                                             limit)

    def label(t: float, sampled: bool) -> str:
        return fmt_seconds(t) + (" (extrapolated)" if sampled else "")

    return [f"{m} x {n}", f"{math.comb(n, m):,}", res.rank, fmt_seconds(t_exact),
            "yes" if t_exact <= TARGET_SECONDS else "**no**", res.details["false_alarms"],
            fmt_seconds(t_svd), res_svd.rank, label(t_sub, s_sub), label(t_naive, s_naive),
            f"{t_naive / t_exact:.0f}x", f"{t_sub / t_exact:.0f}x",
            "yes" if ok_naive and ok_sub else "(sampled subsets all independent)"
            if s_naive else "no"]


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    shapes = SHAPES[:1] if quick else SHAPES
    repeat = 1 if quick else 3
    rows = []
    for m, n in shapes:
        rows.append(measure(m, n, quick, repeat))
        print(f"{m} x {n} done", file=sys.stderr, flush=True)
    header = ["matrix", "m-subsets", "k-rank (exact)", "exact time", f"<= {TARGET_SECONDS:g} s",
              "false alarms", "svd (batched) time", "svd k-rank", "exact per-subset time",
              "naive float time", "naive / exact", "per-subset / exact", "baselines agree"]
    text = "\n".join([
        "# Kruskal rank benchmark",
        "",
        f"{machine_line()}; numpy {np.__version__}.",
        f"Generic integer matrices (entries in [-99, 99], seed m); exact: median of {repeat} "
        "run(s). Baselines time every m-subset, or the first "
        f"{SAMPLE:,} and extrapolate linearly (marked).",
        "",
        markdown_table(header, rows),
    ])
    print(text)
    print(f"written to {write_result('kruskal_rank', text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
