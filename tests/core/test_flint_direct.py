"""The direct FLINT rank (seprank.core.flint_direct) against python-flint and closed forms."""

from __future__ import annotations

import sys

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.core import flint_direct
from seprank.core.rank import rank_mod_p

P = 16777259  # a prime of the engine's size


def _python_flint_rank(A: np.ndarray, p: int) -> int:
    """Independent: python-flint's own conversion from Python ints."""
    return int(flint.nmod_mat(np.mod(A, p).tolist(), p).rank())


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="the wheel layout is checked on Linux (CI)")
def test_available_with_python_flints_library() -> None:
    s = flint_direct.status()
    assert s.available, s.reason
    assert s.library is not None and "flint" in s.library
    assert str(flint.__FLINT_VERSION__) in s.reason


@settings(max_examples=40, deadline=None)
@given(m=st.integers(1, 40), n=st.integers(1, 40), r=st.integers(0, 40),
       p=st.sampled_from([2, 3, 7, 65521, P, 2**31 - 1, 4611686018427388039]),
       seed=st.integers(0, 2**32 - 1), shift=st.integers(-3, 3))
def test_rank_equals_python_flint_on_low_rank_products(m: int, n: int, r: int, p: int,
                                                       seed: int, shift: int) -> None:
    """A random product of rank <= r, with representatives moved by multiples of p."""
    if not flint_direct.status().available:
        pytest.skip(flint_direct.status().reason)
    rng = np.random.default_rng(seed)
    r = min(r, m, n)
    hi = min(p, 2**20)
    A = np.mod(rng.integers(0, hi, (m, r)) @ rng.integers(0, hi, (r, n)), p).astype(np.int64)
    if p < 2**60:
        A = A + shift * p
    assert flint_direct.rank_mod_p_int64(A, p) == _python_flint_rank(A, p)


def test_closed_forms() -> None:
    if not flint_direct.status().available:
        pytest.skip(flint_direct.status().reason)
    n = 300
    nodes = np.arange(1, n + 1, dtype=np.int64)
    V = np.ones((n, n), dtype=np.int64)
    for j in range(1, n):                      # Vandermonde on distinct nodes mod p: full rank
        V[:, j] = V[:, j - 1] * nodes % P
    assert flint_direct.rank_mod_p_int64(V, P) == n
    V[:, -1] = (2 * V[:, 0] + 5 * V[:, 7]) % P  # one dependent column
    assert flint_direct.rank_mod_p_int64(V, P) == n - 1
    assert flint_direct.rank_mod_p_int64(np.zeros((5, 0), dtype=np.int64), P) == 0
    assert flint_direct.rank_mod_p_int64(np.full((400, 300), P, dtype=np.int64), P) == 0


def test_rank_mod_p_takes_the_direct_path_for_large_int64_and_agrees() -> None:
    rng = np.random.default_rng(3)
    A = rng.integers(-P, P, (400, 30)) @ rng.integers(-5, 5, (30, 300))
    r = rank_mod_p(A, P)
    assert r.rank == _python_flint_rank(A, P) == 30
    want = ("FLINT nmod_mat_lu" if flint_direct.status().available
            else "python-flint nmod_mat")
    assert r.details["computed_by"].startswith(want)
    assert rank_mod_p(A[:5, :5], P).details["computed_by"] == "python-flint nmod_mat"


def test_int32_grids_threads_and_int64_agree() -> None:
    """An int32 grid is ranked as it is (no int64 copy); one or two FLINT threads, int32 or
    int64, and python-flint give one rank."""
    if not flint_direct.status().available:
        pytest.skip(flint_direct.status().reason)
    rng = np.random.default_rng(5)
    A = np.mod(rng.integers(0, 2**20, (1100, 40)) @ rng.integers(0, 2**20, (40, 1000)), P)
    A[:, 3] = (A[:, 1] + 7 * A[:, 2]) % P          # rank 40 regardless (column in the span)
    want = _python_flint_rank(A, P)
    assert want == 40
    for threads in (1, 2):
        assert flint_direct.rank_mod_p_int64(A.astype(np.int32), P, threads=threads) == want
        assert flint_direct.rank_mod_p_int64(A, P, threads=threads) == want
    r = rank_mod_p(A.astype(np.int32), P)
    assert r.rank == want and r.details["computed_by"].startswith("FLINT")
    for bad in (0, 1.5, True, 10**6):
        with pytest.raises(ValueError, match="threads"):
            flint_direct.rank_mod_p_int64(A, P, threads=bad)  # type: ignore[arg-type]


def test_fallback_when_the_direct_path_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    off = flint_direct.DirectStatus(False, None, "switched off by the test")
    monkeypatch.setattr(flint_direct, "_load", lambda: (None, off))
    rng = np.random.default_rng(4)
    A = rng.integers(0, P, (300, 12)) @ rng.integers(0, P, (12, 300))
    assert flint_direct.rank_mod_p_int64(A, P) is None
    r = rank_mod_p(A, P)
    assert r.rank == 12 and r.details["computed_by"] == "python-flint nmod_mat"


def test_bad_arguments_are_named() -> None:
    with pytest.raises(TypeError, match="int64"):
        flint_direct.rank_mod_p_int64(np.zeros((3, 3)), P)
    with pytest.raises(TypeError, match="int32 or int64"):
        flint_direct.rank_mod_p_int64(np.zeros((3, 3), dtype=np.int16), P)
    with pytest.raises(TypeError, match="two-dimensional"):
        flint_direct.rank_mod_p_int64(np.zeros(3, dtype=np.int64), P)
    with pytest.raises(ValueError, match="2\\*\\*63"):
        flint_direct.rank_mod_p_int64(np.zeros((3, 3), dtype=np.int64), 2**63 + 1)
