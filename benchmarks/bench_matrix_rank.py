"""matrix_rank (exact, modular) vs sympy DomainMatrix.rank vs numpy SVD vs raw python-flint.

Inputs: random integer n x n matrices of rank n - 1 (a product of n x (n-1) and (n-1) x n
factors with entries in [-99, 99]), n in {100, 200, 400, 800}.  Every method runs on the same
matrix in one process; medians over ``repeat`` runs (sympy: one run, it is slow), ratios
against the baselines printed.  Targets (issue 2): modular >= 100x faster than sympy at
n = 400, and within 2x of calling flint directly.

Usage: ``python -m benchmarks matrix_rank [--quick]`` (``--quick``: n <= 200, fewer repeats).

**Dense GF(p) rank against one dgemm** (issue 36): ``python -m benchmarks gfp_rank
[--sizes=3000,4000,8000] [--flint-max=4000] [--threads=N]`` (the same as ``matrix_rank
--gfp``; ``--threads``: BLAS threads for both the dgemm and the rank, default BLAS's own).
For each n, in ONE process and run: one numpy ``dgemm`` of two n x n float64 matrices, the rank over
GF(p) (an engine-range 25-bit prime) of an n x n matrix of rank n - 1 by
:func:`seprank.rank_mod_p` (the float64 BLAS elimination of
:mod:`seprank.core.gfp_elimination`), and python-flint's ``nmod_mat`` rank (built from the
rows, then ranked; up to ``--flint-max``); wall and CPU seconds, the ratio to the dgemm, and
the load average before each.  Target: elimination <= 1.5x dgemm at n = 3000, 4000, 8000.
FFLAS-FFPACK is measured only where installed (``passagemath-linbox``), else skipped with a
note; the retired ctypes FLINT path no longer exists.  No timed assertions anywhere.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

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


def _opt(argv: list[str], name: str, default: str) -> str:
    for a in argv:
        if a.startswith(f"--{name}="):
            return a.split("=", 1)[1]
    return default


def _timed(fn: Any, *args: Any) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu, value


def _flint_rank(A: np.ndarray, p: int) -> int:
    return int(flint.nmod_mat(A.tolist(), p).rank())


def gfp_rank_rows(sizes: tuple[int, ...], flint_max: int) -> tuple[list[list[object]], str]:
    """One row per n: dgemm, the elimination and python-flint, side by side in this process."""
    from threadpoolctl import threadpool_info

    from seprank import rank_mod_p
    from seprank.core.gfp_elimination import elimination_bytes

    rng = np.random.default_rng(36)
    p = random_prime(rng, 25)
    rank_mod_p(rng.integers(0, p, (300, 300)), p)  # compile the kernels once
    blas = ", ".join(f"{i['internal_api']} {i.get('version', '?')} ({i['num_threads']} "
                     f"threads)" for i in threadpool_info() if i["user_api"] == "blas")
    rows: list[list[object]] = []
    for n in sizes:
        A = rng.integers(0, p, (n, n))
        A[-1] = (A[0] + 2 * A[1]) % p  # rank n - 1 (the first n - 1 rows are generic)
        X, Y = rng.random((n, n)), rng.random((n, n))
        X[:64] @ Y  # warm BLAS threads
        load = os.getloadavg()[0]
        t_gemm, c_gemm, _ = _timed(np.matmul, X, Y)
        del X, Y
        load2 = os.getloadavg()[0]
        t_el, c_el, r_el = _timed(rank_mod_p, A, p)
        if n <= flint_max:
            load3 = os.getloadavg()[0]
            t_fl, c_fl, r_fl = _timed(_flint_rank, A, p)
            fl = [f"{t_fl:.2f} s / {c_fl:.2f} s", f"{t_fl / t_gemm:.2f}", f"{load3:.1f}"]
        else:
            r_fl, fl = None, ["skipped", "—", "—"]
        if r_el.rank != n - 1 or r_fl not in (None, n - 1):
            raise AssertionError(f"rank disagreement at n={n}: {r_el.rank}, {r_fl}")
        rows.append([n, f"{load:.1f} / {load2:.1f}", f"{t_gemm:.2f} s / {c_gemm:.2f} s",
                     f"{t_el:.2f} s / {c_el:.2f} s", f"**{t_el / t_gemm:.2f}**",
                     f"{c_el / c_gemm:.2f}", *fl,
                     f"{elimination_bytes(n, n) / 2**30:.2f} GiB"])
        print(f"n={n} done", file=sys.stderr, flush=True)
    try:
        import importlib.util
        fflas = importlib.util.find_spec("sage.libs.linbox") is not None
    except (ImportError, ValueError):
        fflas = False
    note = ("FFLAS-FFPACK: installed but not wired into this benchmark" if fflas else
            "FFLAS-FFPACK (passagemath-linbox) is not installed here: skipped")
    return rows, f"p = {p} (25 bits); BLAS: {blas or 'not found'}; {note}."


def gfp_main(argv: list[str]) -> int:
    from threadpoolctl import threadpool_limits

    sizes = tuple(int(x) for x in _opt(argv, "sizes", "3000,4000,8000").split(","))
    flint_max = int(_opt(argv, "flint-max", "4000"))
    threads = _opt(argv, "threads", "")
    with threadpool_limits(limits=int(threads) if threads else None, user_api="blas"):
        rows, info = gfp_rank_rows(sizes, flint_max)
    header = ["n", "load before dgemm / rank", "dgemm wall / CPU", "GF(p) rank wall / CPU",
              "rank / dgemm (wall)", "rank / dgemm (CPU)", "python-flint nmod_mat wall / CPU",
              "flint / dgemm (wall)", "load before flint", "elimination memory"]
    text = "\n".join([
        "# Dense GF(p) rank against one dgemm (issue 36)", "",
        f"{machine_line()}; numpy {np.__version__}, python-flint {flint.__version__}; {info}",
        "An n x n matrix of rank n - 1 over GF(p); one run each, side by side in one process "
        "(the machine may be shared: the load average is printed before each measurement). "
        "Target: rank / dgemm <= 1.5.", "",
        markdown_table(header, rows)])
    print(text)
    print(f"written to {write_result('gfp_rank', text)}")
    return 0


def main(argv: list[str]) -> int:
    if "--gfp" in argv:
        return gfp_main(argv)
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
