"""Exact GF(p) arithmetic in float64: against Python-integer arithmetic and flint's rank."""

from __future__ import annotations

import flint
import numpy as np
import pytest

from seprank.core.modfloat import (
    float_rank_mod_p,
    from_balanced,
    matmul_mod,
    max_terms,
    reduce_balanced,
    residue_bound,
    to_balanced,
)

#: Primes at both ends of the engine's range [2**24, 2**25) and a small one.
PRIMES = (16777259, 33554393, 101)


@pytest.mark.parametrize("p", PRIMES)
def test_reduce_is_exact_up_to_the_bound(p: int) -> None:
    edge = 2**53 - p
    xs = np.array([edge, -edge, edge - 1, 0, p, -p, p // 2, p // 2 + 1, 12345.0 * p + 7])
    r = reduce_balanced(xs.astype(np.float64), p)
    assert np.all(np.abs(r) <= residue_bound(p))
    assert [int(a) % p for a in r] == [int(x) % p for x in xs]


@pytest.mark.parametrize("p", PRIMES)
def test_max_terms_keeps_every_partial_sum_exact(p: int) -> None:
    h, K = residue_bound(p), max_terms(p)
    assert K * h * h + h <= 2**53 - p < (K + 1) * h * h + h
    if K <= 10**4:  # K products of the largest residues, plus one residue: no rounding
        worst = np.full(K, float(h))
        assert float(h) + worst @ worst == h + K * h * h


@pytest.mark.parametrize("p", PRIMES)
@pytest.mark.parametrize("inner", [1, 31, 32, 200])
def test_matmul_mod_equals_integer_arithmetic(p: int, inner: int) -> None:
    rng = np.random.default_rng(inner)
    A, B = rng.integers(0, p, (7, inner)), rng.integers(0, p, (inner, 5))
    A[0] = p - 1    # extreme residues: p - 1 = -1 balanced; p // 2 the largest
    B[:, 0] = p // 2
    want = (A.astype(object) @ B.astype(object)) % p
    got = from_balanced(matmul_mod(to_balanced(A, p), to_balanced(B, p), p), p)
    assert np.array_equal(got, want.astype(np.int64))


@pytest.mark.parametrize("seed", range(12))
def test_float_rank_equals_flint_with_a_witness_minor(seed: int) -> None:
    rng = np.random.default_rng(seed)
    p = PRIMES[seed % 3]
    m, n, r = (int(x) for x in rng.integers(1, 120, 3))
    M = (rng.integers(0, p, (m, r)) @ rng.integers(0, 30, (r, n))) % p
    if seed % 2:
        M[:, rng.integers(0, n, 3)] = 0
        M[rng.integers(0, m, 2)] = 0
    want = flint.nmod_mat(M.tolist(), p).rank()
    got = float_rank_mod_p(M, p)
    assert got.rank == want
    rows, cols = got.details["pivot_rows"], got.details["pivot_cols"]
    assert len(rows) == len(cols) == want
    if want:
        assert flint.nmod_mat(M[np.ix_(rows, cols)].tolist(), p).rank() == want


def test_float_rank_refuses_large_primes_and_unbalanced_floats() -> None:
    with pytest.raises(ValueError, match="p < 2"):
        float_rank_mod_p([[1]], 2**31 - 1)
    with pytest.raises(ValueError, match="balanced"):
        float_rank_mod_p(np.array([[0.5]]), 7)
    with pytest.raises(ValueError, match="not prime"):
        float_rank_mod_p([[1]], 9)
