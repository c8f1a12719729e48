"""The float64 BLAS elimination over GF(p) (seprank.core.gfp_elimination) against python-flint's
nmod_mat and closed forms: random and rank-deficient, tall and wide, every prime range in use."""

from __future__ import annotations

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.core import gfp_elimination as ge
from seprank.core.memory import MemoryBudgetError, memory_limit
from seprank.core.random import random_prime

#: A prime of every range the engines draw or the elimination takes: tiny (many zero pivots),
#: 16-bit, the engines' 25-bit primes (SMALL_PRIME_BITS), and the largest below 2**26.
PRIMES = (3, 5, 7, 65521, 16777259, 33554393, 67108859)


def flint_rank(A: np.ndarray, p: int) -> int:
    A = np.mod(np.asarray(A, dtype=object), p)
    if A.size == 0:
        return 0
    return int(flint.nmod_mat(A.tolist(), p).rank())


def low_rank(rng: np.random.Generator, m: int, n: int, r: int, p: int) -> np.ndarray:
    if r == 0:
        return np.zeros((m, n), dtype=np.int64)
    L = flint.nmod_mat(rng.integers(0, p, (m, r)).tolist(), p)
    R = flint.nmod_mat(rng.integers(0, p, (r, n)).tolist(), p)
    return np.array([[int(x) for x in row] for row in (L * R).tolist()], dtype=np.int64)


def assert_witness(A: np.ndarray, e: ge.Elimination) -> None:
    """The pivot rows and columns name a rank x rank minor that is non-zero mod p."""
    assert len(e.pivot_rows) == len(e.pivot_cols) == e.rank
    assert len(set(e.pivot_rows)) == len(set(e.pivot_cols)) == e.rank
    if e.rank:
        minor = np.asarray(A)[np.ix_(e.pivot_rows, e.pivot_cols)]
        assert flint_rank(minor, e.p) == e.rank


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PRIMES), st.integers(1, 150), st.integers(1, 150), st.data())
def test_rank_equals_python_flint(p: int, m: int, n: int, data: st.DataObject) -> None:
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    r = data.draw(st.integers(0, min(m, n)))
    A = low_rank(rng, m, n, r, p)
    layout = data.draw(st.sampled_from(["plain", "zero_cols", "repeat_cols", "shift", "int32"]))
    if layout == "zero_cols":  # columns without a pivot in the middle of panels
        A[:, rng.random(n) < 0.3] = 0
    elif layout == "repeat_cols":
        A[:, n // 2:] = A[:, :n - n // 2]
    elif layout == "shift":  # representatives outside [0, p)
        A = A - p * rng.integers(-3, 4, A.shape)
    elif layout == "int32":
        A = A.astype(np.int32)
    e = ge.eliminate(A, p)
    assert e.rank == flint_rank(A, p)
    assert_witness(A, e)


@pytest.mark.parametrize("p", PRIMES)
def test_extreme_residues_stay_exact(p: int) -> None:
    """Entries of the largest balanced magnitude make every delayed sum as large as allowed."""
    rng = np.random.default_rng(p)
    n = 200
    A = rng.choice(np.array([p // 2, p // 2 + 1, p - 1, 1]), (n, n))
    e = ge.eliminate(A, p)
    assert e.rank == flint_rank(A, p)
    assert_witness(A, e)


@pytest.mark.parametrize("shape", [(300, 300), (420, 260), (260, 420)])
def test_vandermonde_products_have_their_closed_form_rank(shape: tuple[int, int]) -> None:
    """V_a (m x r) @ V_b^T (r x n) with distinct nodes has rank exactly r over GF(p);
    a Vandermonde matrix with distinct nodes has rank min(m, n)."""
    p = 16777259
    m, n = shape

    def vandermonde(nodes: np.ndarray, k: int) -> np.ndarray:
        V = np.ones((len(nodes), k), dtype=np.int64)
        for j in range(1, k):  # entries below 2**25: products fit in int64
            V[:, j] = V[:, j - 1] * nodes % p
        return V

    x, y = np.arange(1, m + 1), np.arange(m + 1, m + n + 1)
    assert ge.eliminate(vandermonde(x, n), p).rank == min(m, n)
    for r in (0, 1, 37, 150):
        A = np.zeros((m, n), dtype=np.int64)
        if r:
            P = (flint.nmod_mat(vandermonde(x, r).tolist(), p)
                 * flint.nmod_mat(vandermonde(y, r).T.tolist(), p))
            A = np.array([[int(v) for v in row] for row in P.tolist()], dtype=np.int64)
        e = ge.eliminate(A, p)
        assert e.rank == r
        assert_witness(A, e)


def test_product_terms_bound_the_exact_sums() -> None:
    for p in PRIMES:
        h = p // 2 + 2
        direct, split = ge.product_terms(p)
        s = ge._split_base(p)
        assert direct * h * h + 2 * h <= 2**53 < (direct + 1) * h * h + 2 * h
        assert split * h * max(s // 2, h // s + 1) + 2 * h <= 2**53
        assert split >= 2**16  # a long product needs few chunks
    assert ge.product_terms(random_prime(np.random.default_rng(0), 25))[0] >= 31


@pytest.mark.parametrize("p", [0, 1, 2, 4, 6, 9, 15, 2**26 + 15, 2**62, 2**63 - 1])
def test_moduli_outside_the_range_or_composite_are_refused(p: int) -> None:
    with pytest.raises(ValueError, match=f"p = {p} is "):
        ge.eliminate(np.eye(3, dtype=np.int64), p)


@pytest.mark.parametrize("threads", [0, -1, 1024, True, 1.0, "2"])
def test_threads_validated(threads: object) -> None:
    with pytest.raises(ValueError, match="threads="):
        ge.eliminate(np.eye(3, dtype=np.int64), 7, threads=threads)  # type: ignore[arg-type]


def test_memory_refused_before_the_copy() -> None:
    huge = np.broadcast_to(np.int64(1), (10**5, 10**5))
    with pytest.raises(MemoryBudgetError, match="100,000 x 100,000") as info:
        ge.eliminate(huge, 7)
    assert info.value.needed >= 8 * 10**10  # one float64 copy at least
    with memory_limit(2**20), pytest.raises(MemoryBudgetError):
        ge.eliminate(np.ones((1000, 1000), dtype=np.int64), 7)


def test_release_is_called_after_the_copy_and_broadcast_views_are_read() -> None:
    calls = []
    A = np.broadcast_to(np.arange(5, dtype=np.int64), (400, 5))
    e = ge.eliminate(A, 7, release=lambda: calls.append(1), threads=1)
    assert (e.rank, calls) == (1, [1])
    assert ge.eliminate(np.array([[2**70, 1], [1, 1]], dtype=object), 7).rank == \
        flint_rank(np.array([[2**70, 1], [1, 1]], dtype=object), 7)
    assert ge.eliminate(np.arange(12, dtype=np.uint64).reshape(3, 4), 7).rank == 2
    assert ge.eliminate(np.zeros((0, 4), dtype=np.int64), 7).rank == 0


def test_widen_in_place_holds_no_int32_grid_beside_the_float64_matrix() -> None:
    """Issue 36, item 4: the widened grid is the int32 grid's own allocation grown by realloc
    (remapped, not copied): the peak resident memory grows by the float64 matrix (8 bytes per
    entry), not by an int32 grid beside a float64 copy (12)."""
    import os
    import subprocess
    import sys

    code = """
import resource, numpy as np
from seprank.core import gfp_elimination as ge
p, m, n = 16777259, 4000, 4000
ge.widen_in_place(np.zeros(8, dtype=np.int32), (2, 2), p)  # compiled before measuring
rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
base = rss()
def widened():
    grid = np.full((m, n), -1, dtype=np.int32)
    grid.resize((2 * m * n,), refcheck=True)
    return ge.widen_in_place(grid, (m, n), p)
A = widened()
print((rss() - base) / (m * n), float(A.min()), float(A.max()))
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    per_entry, lo, hi = (float(x) for x in out.stdout.split())
    assert per_entry < 9.5  # 8 bytes per entry and the interpreter's noise; a copy makes 12
    assert lo == hi == -1.0
    rng = np.random.default_rng(3)
    p = 16777259
    want = rng.integers(-3 * p, 3 * p, (60, 50))
    expect = np.mod(want, p)
    expect[expect > p // 2] -= p
    A = ge.widen_in_place(np.resize(want.astype(np.int32), 2 * want.size), want.shape, p)
    assert A.dtype == np.float64 and np.array_equal(A, expect)
    small = low_rank(rng, 90, 70, 23, p)
    e = ge.eliminate(ge.widen_in_place(np.resize(small.astype(np.int32), 2 * small.size),
                                       small.shape, p), p, overwrite=True)
    assert e.rank == flint_rank(small, p) == 23


def test_overwrite_refuses_what_is_not_balanced_residues() -> None:
    with pytest.raises(ValueError, match="balanced residues"):
        ge.eliminate(np.array([[4.0, 0.5]]), 7, overwrite=True)
    with pytest.raises(ValueError, match="balanced residues"):
        ge.eliminate(np.array([[1e9, 1.0]]), 7, overwrite=True)
    with pytest.raises(TypeError, match="C-contiguous"):
        ge.eliminate(np.ones((3, 4))[:, ::2], 7, overwrite=True)


def test_certificate_minor_search_takes_the_elimination_and_its_minor_is_nonzero() -> None:
    from seprank.core.minors import nonzero_minor

    p = 16777259
    rng = np.random.default_rng(11)
    A = low_rank(rng, 320, 260, 97, p)
    rows, cols = nonzero_minor(A, p)
    assert len(rows) == len(cols) == 97 == flint_rank(A, p)
    assert list(rows) == sorted(set(rows)) and list(cols) == sorted(set(cols))
    assert flint_rank(A[np.ix_(rows, cols)], p) == 97
