"""The numpy twins of the compiled GF(p) kernels (:mod:`seprank.core.gfp_numpy`, used without
the kernels group) give bit for bit the compiled kernels' arrays, and the elimination through
them the same ranks, pivot rows and columns -- on the direct and the split products."""

from __future__ import annotations

import numpy as np
import pytest

from seprank.core import gfp_elimination as ge
from seprank.core import gfp_numpy as gn

pytest.importorskip("numba")

P_LARGE, P_SMALL = 16777259, 1000003  # 25 bits (split products) and 20 bits


def _balanced(rng: np.random.Generator, shape: tuple[int, ...], p: int) -> np.ndarray:
    return rng.integers(-(p // 2), p // 2 + 1, shape).astype(np.float64)


def _low_rank(rng: np.random.Generator, m: int, n: int, r: int) -> np.ndarray:
    return (rng.integers(-40, 40, (m, r)) @ rng.integers(-40, 40, (r, n))).astype(np.int64)


@pytest.mark.parametrize("p", [P_LARGE, P_SMALL, 7])
def test_each_twin_writes_the_compiled_kernels_bits(p: int) -> None:
    rng = np.random.default_rng(p)
    A = _balanced(rng, (60, 40), p)
    A[rng.random(A.shape) < 0.3] = 0.0  # rows the panel skips
    A[:, 3] = 0.0                        # a column without a pivot
    for c0, c1 in [(0, 32), (5, 40)]:
        a1, a2 = A.copy(), A.copy()
        r1, r2, k1, k2 = (np.arange(n, dtype=np.int64) for n in (60, 60, 40, 40))
        assert ge._panel(a1, r1, k1, 2, c0, c1, p) == gn.panel_numpy(a2, r2, k2, 2, c0, c1, p)
        assert np.array_equal(a1, a2) and np.array_equal(r1, r2) and np.array_equal(k1, k2)
    L, B = _balanced(rng, (20, 20), p), _balanced(rng, (20, 9), p)
    b1, b2 = B.copy(), B.copy()
    ge._trsm_small(L, b1, p)
    gn.trsm_small_numpy(L, b2, p)
    assert np.array_equal(b1, b2)
    out, T = _balanced(rng, (30, 17), p), rng.integers(-2**50, 2**50, (30, 17)).astype(float)
    T2 = rng.integers(-2**50, 2**50, (30, 17)).astype(float)
    o1, o2 = out.copy(), out.copy()
    ge._sub_reduce(o1, T, p)
    gn.sub_reduce_numpy(o2, T, p)
    assert np.array_equal(o1, o2)
    s = float(ge._split_base(p))
    o1, o2 = out.copy(), out.copy()
    ge._sub_reduce_split(o1, T, T2, s, p)
    gn.sub_reduce_split_numpy(o2, T, T2, s, p)
    assert np.array_equal(o1, o2)
    h1, l1, h2, l2 = (np.empty((30, 17)) for _ in range(4))
    ge._split(out, s, h1, l1)
    gn.split_numpy(out, s, h2, l2)
    assert np.array_equal(h1, h2) and np.array_equal(l1, l2)
    assert np.array_equal(h1 * s + l1, out)
    a1, a2, c1_, c2_ = A.copy(), A.copy(), np.arange(40), np.arange(40)
    ge._rotate(a1, c1_, 4, 3, 10, 31)
    gn.rotate_numpy(a2, c2_, 4, 3, 10, 31)
    assert np.array_equal(a1, a2) and np.array_equal(c1_, c2_)
    X = rng.integers(-2**40, 2**40, (13, 11))
    f1, f2 = np.empty((13, 11)), np.empty((13, 11))
    ge._fill_signed(f1, X, p)
    gn.fill_signed_numpy(f2, X, p)
    assert np.array_equal(f1, f2) and np.array_equal(np.mod(f1.astype(np.int64), p), X % p)
    for x in (out.ravel(), np.array([p // 2 + 3.0]), np.array([0.5]), np.array([np.nan])):
        assert ge._is_balanced(x, p) == gn.is_balanced_numpy(x, p)
    g = rng.integers(-2**31, 2**31, 50).astype(np.int32)
    g1, g2 = np.concatenate([g, g]), np.concatenate([g, g])
    ge._widen(g1, g1.view(np.float64), 50, p)
    gn.widen_numpy(g2, g2.view(np.float64), 50, p)
    assert np.array_equal(g1.view(np.float64), g2.view(np.float64))


def test_the_widening_chunks_backwards_over_its_own_memory(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setattr(gn, "CHUNK_ENTRIES", 7)  # many chunks, each overlapping the next
    g = np.arange(-30, 30, dtype=np.int32)
    grid = np.concatenate([g, np.zeros(60, np.int32)])
    gn.widen_numpy(grid, grid.view(np.float64), 60, 11)
    expect = np.mod(g.astype(np.int64), 11)
    expect[expect > 5] -= 11
    assert np.array_equal(grid.view(np.float64), expect.astype(float))


@pytest.mark.parametrize("shape", [(70, 90, 60), (260, 200, 150), (120, 300, 120)])
@pytest.mark.parametrize("p", [P_LARGE, P_SMALL])
def test_the_elimination_through_the_twins_is_the_compiled_one(
        monkeypatch: pytest.MonkeyPatch, shape: tuple[int, int, int], p: int) -> None:
    m, n, r = shape
    X = _low_rank(np.random.default_rng(m * n), m, n, r)
    compiled = ge.eliminate(X, p)
    twins = {"_panel": gn.panel_numpy, "_trsm_small": gn.trsm_small_numpy,
             "_sub_reduce": gn.sub_reduce_numpy, "_sub_reduce_split": gn.sub_reduce_split_numpy,
             "_split": gn.split_numpy, "_rotate": gn.rotate_numpy,
             "_fill_signed": gn.fill_signed_numpy}
    for name, twin in twins.items():
        monkeypatch.setattr(ge, name, twin)
    monkeypatch.setattr(gn, "CHUNK_ENTRIES", 997)  # chunk boundaries inside the strips
    assert ge.eliminate(X, p) == compiled
    assert compiled.rank == r  # a random product of full-rank factors, far from p's multiples
