"""Lemma 6 witness, Hadamard powers, Gaussian rationals: closed forms, cross-checks, refusals."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import lemma6_witness, matrix_rank, multiset_coefficient
from seprank.core import CertifiedResult, RankValued
from seprank.core.gaussian_rationals import (
    GaussianRational,
    complex_rank_embedding,
    sqrt_minus_one_mod,
)
from seprank.d2w.hadamard import (
    compositions,
    hadamard_power_gram,
    hadamard_power_rank,
    lemma7_determinant,
    paper_witness_V,
    rational_sphere_V,
)
from seprank.d2w.lemma6_construction import lemma6_templates, lemma6_weights, witness_constant
from seprank.d2w.lemmas import hadamard_power_rank_bound

FLOAT_RTOL = 1e-9


def closed_form_constant(L: int, d_x: int, H: int, N: int) -> Fraction:
    r"""c = (-1)^{(lambda+1)/2} 2^lambda s^{lambda-1} / N^{(lambda+1)/2} (derived by hand from
    alpha_l = (3^{l-1}-1)/2 and the s-exponents 3^{l-2} - 1 of the recurrence, eqs. 45-48)."""
    lam, s = 3 ** (L - 2), (d_x // H - 1) // 2
    return Fraction((-1) ** ((lam + 1) // 2) * 2**lam * s ** (lam - 1), N ** ((lam + 1) // 2))


CASES = [(2, 5, 1, 2), (3, 5, 1, 2), (3, 5, 1, 4), (3, 7, 1, 2), (2, 9, 3, 2), (3, 9, 3, 2),
         (3, 9, 3, 4), (3, 15, 5, 2), (4, 5, 1, 2), (2, 7, 1, 6), (3, 15, 3, 2), (5, 5, 1, 2),
         (6, 5, 1, 2), (4, 9, 3, 4)]


@pytest.mark.parametrize("L,d_x,H,N", CASES)
def test_witness_reaches_the_multiset_rank_with_the_closed_form_constant(
        L: int, d_x: int, H: int, N: int) -> None:
    r = lemma6_witness(d_x, L, H, N, seed=L * d_x + H + N)
    assert r.expected_rank == multiset_coefficient((d_x - H) // 2, 3 ** (L - 2))
    assert (r.rank, r.certifies, r.proportional, r.constant_matches) == (
        r.expected_rank, "exact", True, True)
    assert r.constant == GaussianRational(closed_form_constant(L, d_x, H, N))


@pytest.mark.slow
def test_witness_560() -> None:
    r = lemma6_witness(29, 3, 1, 2, seed=0)
    assert (r.rank, r.certifies, r.constant) == (560, "exact", GaussianRational(392))


def test_exact_gaussian_modular_and_float_agree() -> None:
    V = rational_sphere_V(4, 2, seed=5)
    exact = lemma6_witness(5, 3, 1, 2, V=V, method="exact")
    modular = lemma6_witness(5, 3, 1, 2, V=V, method="modular", seed=1)
    flt = lemma6_witness(5, 3, 1, 2, V=V, method="svd")
    p, iota = modular.details["prime"], modular.details["iota"]
    assert np.array_equal(np.vectorize(lambda z: z.residue(iota, p), otypes=[np.int64])(
        exact.matrix), modular.matrix)
    as_complex = np.vectorize(complex, otypes=[complex])(exact.matrix)
    np.testing.assert_allclose(flt.matrix, as_complex, rtol=FLOAT_RTOL)
    assert exact.rank == modular.rank == flt.rank == 4 and exact.proportional


def test_entry_equals_c_times_gram_power_exactly() -> None:
    """(2, 5, 1, 2): y = -(2/N) (VV^T)_{ij} as exact Gaussian rationals."""
    V = np.array([[Fraction(3, 5), Fraction(4, 5)], [Fraction(-5, 13), Fraction(12, 13)]],
                 dtype=object)
    r = lemma6_witness(5, 2, 1, 2, V=V, method="exact")
    G = V.dot(V.T)
    assert all(r.matrix[a, b] == GaussianRational(-1) * G[a, b]
               for a in range(2) for b in range(2))


def test_printed_last_layer_is_fine_for_one_head_and_wrong_for_several() -> None:
    assert lemma6_witness(7, 3, 1, 2, last_layer="printed", seed=0).proportional
    for L, d_x, H in [(2, 9, 3), (3, 15, 5)]:
        assert not lemma6_witness(d_x, L, H, 2, last_layer="printed", seed=0).proportional
        assert not lemma6_witness(d_x, L, H, 2, last_layer="printed", method="exact",
                                  seed=0).proportional if L == 2 else True
    # the paper's own V: rank deficit (notes §4.1: 2 < 3 and 32 < 35), float SVD
    assert lemma6_witness(9, 2, 3, 2, V="paper", method="svd", last_layer="printed").rank == 2
    assert lemma6_witness(15, 3, 5, 2, V="paper", method="svd",
                          last_layer="printed").rank == 32


def test_printed_value_rows_break_proportionality_from_depth_3() -> None:
    assert lemma6_witness(5, 2, 1, 2, value_layer="printed", seed=0).proportional  # L = 2 ok
    assert not lemma6_witness(5, 3, 1, 2, value_layer="printed", seed=0).proportional


def test_paper_V_float_witness() -> None:
    r = lemma6_witness(7, 3, 1, 2, V="paper", method="svd")
    assert r.rank == 10 and r.proportional and r.constant_matches and r.certifies == "none"
    assert r.details["relative_error"] < 1e-12


def test_templates_layout() -> None:
    V = np.array([[1, 2], [3, 4]], dtype=object)
    T = lemma6_templates(V, 6, 2)   # d_a = 3, s = 1: head h uses V column h
    assert T.shape == (5, 6)
    assert T[:, [2, 5]].tolist() == [[1, 1]] * 5                    # constant slots
    assert T[0].tolist() == [1, 0, 1, 2, 0, 1] and T[2].tolist() == [0, 1, 1, 0, 2, 1]


def test_weights_shapes_and_layer1_scores() -> None:
    w = lemma6_weights(9, 3, 3, 4)
    Q, K, V, O = w.real
    assert Q.shape == (3, 3, 3, 9) and O.shape == (3, 3, 9, 3)
    assert Q[0, :, 0, 2].tolist() == [1, 1, 1] and K[0, 1].sum() == 1
    assert all(x == Fraction(1, 4) for x in (V[0, 0, 0, 0], w.imag[2][0, 0, 0, 1]))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5), st.integers(0, 6))
def test_compositions_count(d: int, lam: int) -> None:
    comps = compositions(d, lam)
    assert len(comps) == len(set(comps)) == multiset_coefficient(d, lam)
    assert all(sum(q) == lam and min(q) >= 0 for q in comps)
    brute = [q for q in itertools.product(range(lam + 1), repeat=d) if sum(q) == lam]
    assert comps == sorted(brute)   # lexicographic, as documented


@pytest.mark.parametrize("d,lam", [(2, 1), (2, 3), (3, 3), (4, 3), (2, 9), (3, 9), (5, 3),
                                   (2, 27)])
def test_paper_V_hadamard_rank_is_full(d: int, lam: int) -> None:
    r = hadamard_power_rank(paper_witness_V(d, lam, normalized=False), lam)
    assert r.rank == r.amini_bound == multiset_coefficient(d, lam) and r.certifies == "exact"


@settings(max_examples=25, deadline=None)
@given(st.integers(5, 30), st.integers(1, 3), st.integers(1, 4), st.integers(0, 2**31))
def test_amini_bound_on_random_low_rank_matrices(n: int, r: int, p: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    W = rng.integers(-4, 5, (n, r))
    res = hadamard_power_rank(W, p, method="exact")
    assert res.rank <= hadamard_power_rank_bound(res.gram_rank, p)
    assert res.gram_rank <= r


@pytest.mark.parametrize("n,d,power,seed", [(6, 2, 5, 0), (10, 3, 3, 1), (12, 2, 11, 2),
                                             (8, 4, 2, 3)])
def test_modular_and_exact_methods_give_the_same_certified_rank(
        n: int, d: int, power: int, seed: int) -> None:
    """Reducing V mod q first (method='modular') ranks the reduction of the same rational
    matrix: both agree with the exact rank min(n, ((d power)))."""
    V = rational_sphere_V(n, d, seed=seed)
    exact = hadamard_power_rank(V, power, method="exact")
    modular = hadamard_power_rank(V, power, seed=seed)
    assert exact.rank == modular.rank == min(n, multiset_coefficient(d, power))
    assert exact.gram_rank == modular.gram_rank == d
    assert modular.method == "modular" and exact.method == "exact"
    assert modular.rank <= modular.amini_bound
    with pytest.raises(ValueError, match="method must be 'modular' or 'exact'"):
        hadamard_power_rank(V, power, method="svd")  # type: ignore[arg-type]


def test_hadamard_power_gram_is_exact_past_int64() -> None:
    """Entries up to 2**40: the Gram entries (~2**81) and their squares overflow int64; the
    result must still equal the Python-int computation."""
    W = np.array([[2**40, 3], [-(2**40) + 1, 2**39]], dtype=np.int64)
    rows = [[int(x) for x in row] for row in W]
    by_hand = [[sum(a * b for a, b in zip(r, s, strict=True)) ** 2 for s in rows] for r in rows]
    assert hadamard_power_gram(W, 2).tolist() == by_hand
    assert hadamard_power_gram([[1, 2], [3, 4]], 3).tolist() == [[125, 1331], [1331, 15625]]
    floats = hadamard_power_gram(np.array([[0.6, 0.8], [1.0, 0.0]]), 4)
    assert floats.dtype == np.float64 and np.allclose(floats, [[1, 0.6**4], [0.6**4, 1]])
    with pytest.raises(ValueError, match="NaN"):
        hadamard_power_gram(np.array([[np.nan, 1.0]]), 2)
    with pytest.raises(ValueError, match="power"):
        hadamard_power_gram([[1, 2]], 0)


@pytest.mark.parametrize("d", [2, 3, 5])
def test_rational_sphere_rows_are_exact_distinct_unit_vectors(d: int) -> None:
    V = rational_sphere_V(60, d, seed=d, spread=12)   # small spread: duplicates are drawn
    assert all(sum(x * x for x in row) == 1 for row in V)
    assert all(isinstance(x, Fraction) for x in V.ravel())
    rows = {tuple(r) for r in V}
    assert len(rows) == 60 and not any(tuple(-x for x in r) in rows for r in rows)
    with pytest.raises(ValueError, match="only one row"):
        rational_sphere_V(2, 1)
    with pytest.raises(ValueError, match="increase spread"):
        rational_sphere_V(300, 2, spread=3)


def test_lemma7_determinant() -> None:
    r = lemma7_determinant(2, 3)
    assert (r.degree, r.expected_degree, abs(r.leading_coefficient)) == (28, 28, 1)
    assert r.real_roots == (-1, 0, 1) and r.unique_top_permutation
    r2 = lemma7_determinant(3, 2)
    assert r2.degree == r2.expected_degree == sum(sum(x * x for x in q)
                                                 for q in compositions(3, 2))


@pytest.mark.parametrize("p", [5, 13, 17, 16777259, 33554393])
def test_sqrt_minus_one(p: int) -> None:
    if p % 4 != 1:
        with pytest.raises(ValueError, match="1 \\(mod 4\\)"):
            sqrt_minus_one_mod(p)
        return
    assert flint.fmpz(p).is_prime()
    assert sqrt_minus_one_mod(p) ** 2 % p == p - 1


@settings(max_examples=50, deadline=None)
@given(*(st.fractions(min_value=-50, max_value=50, max_denominator=20) for _ in range(4)))
def test_gaussian_rational_arithmetic_matches_complex(a: Fraction, b: Fraction, c: Fraction,
                                                      d: Fraction) -> None:
    x, y = GaussianRational(a, b), GaussianRational(c, d)
    zx, zy = complex(float(a), float(b)), complex(float(c), float(d))
    for got, want in [(x + y, zx + zy), (x * y, zx * zy), (x - y, zx - zy), (x**3, zx**3),
                      (2 * x, 2 * zx), (Fraction(1, 3) + y, 1 / 3 + zy)]:
        assert abs(complex(got) - want) <= 1e-9 * (1 + abs(want))


def test_complex_rank_embedding_doubles_the_rank() -> None:
    i = GaussianRational(0, 1)
    E = np.array([[1, i, 2], [i, -1, 2 * i], [0, 1, 1]], dtype=object)   # rank 2 over C
    assert matrix_rank(complex_rank_embedding(E), method="exact").rank == 4


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="odd head dimension"):
        lemma6_witness(8, 3, 2)                   # d_a = 4
    with pytest.raises(ValueError, match="depth L >= 2"):
        lemma6_witness(5, 1)
    with pytest.raises(ValueError, match="not divisible"):
        lemma6_witness(10, 3, 3)
    with pytest.raises(ValueError, match="must be even"):
        lemma6_witness(5, 3, 1, 3)
    with pytest.raises(ValueError, match="shape"):
        lemma6_witness(5, 3, V=np.ones((4, 3), dtype=object))
    with pytest.raises(ValueError, match="unit rows"):
        lemma6_witness(5, 2, V=np.array([[1, 1], [1, 0]], dtype=object))
    with pytest.raises(TypeError, match="exact V"):
        lemma6_witness(5, 2, V=np.array([[1.0, 0.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="method='svd'"):
        lemma6_witness(5, 2, V="paper")
    with pytest.raises(ValueError, match="method"):
        lemma6_witness(5, 2, method="float")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="output_position"):
        lemma6_witness(5, 2, output_position=2)
    with pytest.raises(ValueError, match="V must have shape"):
        lemma6_templates(np.ones((3, 2)), 9, 3)
    with pytest.raises(TypeError, match="exact V"):
        hadamard_power_rank(np.ones((3, 2)), 2)
    with pytest.raises(ValueError, match="omega"):
        paper_witness_V(2, 3, omega=1)
    assert math.isfinite(witness_constant(5, 4).re)


def test_grid_too_large_is_refused_with_a_clear_error() -> None:
    from seprank import MemoryBudgetError, get_memory_limit, set_memory_limit

    old = set_memory_limit(50_000)
    try:  # the exact weights (~340 kB) are refused before the grid is even reached
        with pytest.raises(MemoryBudgetError, match="above the memory limit"):
            lemma6_witness(15, 3, 5, 2, seed=0)
    finally:
        set_memory_limit(old)
    assert get_memory_limit() == old


def test_the_witness_and_hadamard_ranks_are_certified_results() -> None:
    # (V V^T)^{o2} of V = [[1, 0], [1, 1]] is [[1, 1], [1, 4]], determinant 3: rank 2 over Q
    had = hadamard_power_rank([[1, 0], [1, 1]], 2, method="exact")
    assert isinstance(had, RankValued) and (int(had), had.certifies) == (2, "exact")
    assert had.certifies == had.rank_result.certifies
    w = lemma6_witness(5, 2, seed=0)
    assert isinstance(w, CertifiedResult) and int(w) == w.rank
    with pytest.raises(TypeError):
        w.details["x"] = 1  # type: ignore[index]
