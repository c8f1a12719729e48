"""matrix_rank (exact, modular) vs sympy DomainMatrix.rank vs numpy SVD vs raw python-flint.

Inputs: random integer n x n matrices of rank n - 1 (a product of n x (n-1) and (n-1) x n
factors with entries in [-99, 99]), n in {100, 200, 400, 800}.  Every method runs on the same
matrix in one process; medians over ``repeat`` runs (sympy: one run, it is slow), ratios
against the baselines printed.  Targets (issue 2): modular >= 100x faster than sympy at
n = 400, and within 2x of calling flint directly.

Usage: ``python -m benchmarks matrix_rank [--quick]`` (``--quick``: n <= 200, fewer repeats).
"""

from __future__ import annotations

import sys

import flint
import numpy as np
import sympy
from sympy.polys.domains import ZZ
from sympy.polys.matrices import DomainMatrix

from benchmarks._util import fmt_seconds, machine_line, markdown_table, median_time, write_result
from seprank import matrix_rank, random_prime

SIZES = (100, 200, 400, 800)
SYMPY_MAX_N = 400  # sympy at n = 800 would take many minutes; it is skipped and said so


def rank_deficient(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(-99, 100, (n, n - 1)) @ rng.integers(-99, 100, (n - 1, n))


def measure(M: np.ndarray, p: int, repeat: int) -> list[object]:
    """One table row: every method on the same matrix M (rank n - 1)."""
    n = M.shape[0]
    t_mod, r_mod = median_time(lambda: matrix_rank(M, method="modular", seed=1), repeat)
    t_mod1, r_mod1 = median_time(
        lambda: matrix_rank(M, method="modular", n_primes=1, seed=1), repeat)
    t_exact, r_exact = median_time(lambda: matrix_rank(M, method="exact"), repeat)
    t_raw_nmod, r_raw_nmod = median_time(lambda: flint.nmod_mat(M.tolist(), p).rank(), repeat)
    t_raw_fmpz, r_raw_fmpz = median_time(lambda: flint.fmpz_mat(M.tolist()).rank(), repeat)
    t_svd, r_svd = median_time(lambda: int(np.linalg.matrix_rank(M.astype(float))), repeat)
    ranks = {r_mod.rank, r_mod1.rank, r_exact.rank, int(r_raw_nmod), int(r_raw_fmpz)}
    t_sympy: float | None = None
    if n <= SYMPY_MAX_N:
        t_sympy, r_sympy = median_time(
            lambda: DomainMatrix([[ZZ(int(x)) for x in row] for row in M.tolist()],
                                 (n, n), ZZ).rank(), 1)
        ranks.add(int(r_sympy))
    assert ranks == {n - 1}, f"rank disagreement at n={n}: {ranks}"
    return [
        n, fmt_seconds(t_mod), fmt_seconds(t_mod1), fmt_seconds(t_exact),
        fmt_seconds(t_raw_nmod), fmt_seconds(t_raw_fmpz), fmt_seconds(t_sympy),
        fmt_seconds(t_svd), f"{r_svd}",
        "—" if t_sympy is None else f"{t_sympy / t_mod:.0f}x",
        f"{t_mod1 / t_raw_nmod:.2f}", f"{t_mod / t_raw_nmod:.2f}",
        f"{t_exact / t_raw_fmpz:.2f}",
        "—" if t_sympy is None else f"{t_sympy / t_exact:.0f}x",
    ]


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    sizes = tuple(n for n in SIZES if not quick or n <= 200)
    repeat = 3 if quick else 5
    p = random_prime(np.random.default_rng(0))
    rows = []
    for n in sizes:
        rows.append(measure(rank_deficient(n, seed=n), p, repeat))
        print(f"n={n} done", file=sys.stderr, flush=True)
    header = ["n", "modular (2 primes)", "modular (1 prime)", "exact", "raw flint nmod_mat",
              "raw flint fmpz_mat", "sympy DomainMatrix", "numpy SVD", "SVD rank",
              "sympy / modular", "modular(1) / raw nmod", "modular(2) / raw nmod",
              "exact / raw fmpz", "sympy / exact"]
    text = "\n".join([
        "# matrix_rank benchmark",
        "",
        f"{machine_line()}; python-flint {flint.__version__}, sympy {sympy.__version__} "
        f"(ground types {sympy.external.gmpy.GROUND_TYPES}), numpy {np.__version__}.",
        f"Random integer n x n matrices of rank n - 1; median of {repeat} runs (sympy: 1 run, "
        f"skipped above n = {SYMPY_MAX_N}). All exact/modular methods returned n - 1.",
        "Raw flint timings include building the flint matrix from M.tolist(); the modular rank "
        "with 2 primes computes two ranks because rank n - 1 is not full (full rank stops "
        "after one prime).",
        "",
        markdown_table(header, rows),
    ])
    print(text)
    print(f"written to {write_result('matrix_rank', text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
