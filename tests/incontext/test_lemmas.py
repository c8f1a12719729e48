"""App. B.1 counting lemmas and the Theorem 2 pipeline (Lemmas 10-17, the construction)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from seprank import eps_rank, matrix_rank
from seprank.d2w.bounds import multiset_coefficient
from seprank.d2w.hadamard import (
    compositions,
    hadamard_power_gram,
    hadamard_power_rank,
    rational_sphere_V,
)
from seprank.incontext.lemmas import (
    balanced_multinomial,
    lattice_points_in_ball,
    lemma2_closed_form,
    lemma2_direct,
    lemma3_formula_n,
    lemma89_count,
    multinomial,
)
from seprank.incontext.lower import (
    hadamard_construction,
    lemma11_count,
    lemma15_exact_bound,
    lemma16_moment,
    lemma17_maximum,
    sphere_rows,
)

MC_SIGMAS = 5.0


@given(K=st.integers(0, 12), M=st.integers(1, 4))
def test_compositions_count_and_multinomial_sum(K: int, M: int) -> None:
    comps = compositions(M, K)   # seed 003's order: parts, then total
    assert len(comps) == len(set(comps)) == math.comb(K + M - 1, M - 1)
    assert sum(multinomial(a) for a in comps) == M**K  # multinomial theorem


def test_lattice_points_known_values() -> None:
    assert [lattice_points_in_ball(2, r) for r in (0, 1, 2, 5, 10)] == [1, 5, 13, 81, 317]
    brute = sum(1 for x in itertools.product(range(-3, 4), repeat=3)
                if sum(v * v for v in x) <= 9)
    assert lattice_points_in_ball(3, 3) == brute


def test_lemma2_exact_iff_M_divides_K() -> None:
    e = Fraction(1, 3)
    for K, M in ((12, 3), (12, 4), (9, 3)):
        assert all(lemma2_direct(K, M, e, n) == lemma2_closed_form(K, M, e, n)
                   for n in range(K + 1))
    # hand: K=3, M=2, eta=1, n=1: S(1) = 3 * 1 * 2 = 6, the formula (3/2) * 3 = 4.5
    assert lemma2_direct(3, 2, Fraction(1), 1) == 6
    assert lemma2_closed_form(3, 2, Fraction(1), 1) == Fraction(9, 2)


def test_lemma3_counterexample_by_hand() -> None:
    e = Fraction(2, 3)
    S = [lemma2_direct(3, 2, e, n) for n in range(4)]
    assert [3, 4, Fraction(8, 3), Fraction(8, 9)] == S
    assert lemma3_formula_n(3, 2, e) == 2 and max(S) == S[1]


def test_lemma89_count_equals_naive_enumeration() -> None:
    K, M, eta, s = 9, 2, 0.5, math.exp(-1.5)
    values = [math.comb(K, n) * eta**n * multinomial(a) * multinomial(b)
              for n in range(K + 1) for a in compositions(M, n) for b in compositions(M, K - n)]
    top = max(values)
    count, size = lemma89_count(K, M, eta, s)
    assert size == len(values) == math.comb(K + 2 * M - 1, 2 * M - 1)
    assert count == sum(1 for v in values if v >= s * top)


def test_balanced_multinomial_remark1() -> None:
    assert balanced_multinomial(10, 3) == multinomial([3, 3, 4])


# --- Theorem 2 pipeline --------------------------------------------------------------------

def test_rational_sphere_V_rows_are_unit_distinct_and_not_antipodal() -> None:
    U = rational_sphere_V(50, 3, seed=1)
    assert all(sum(x * x for x in row) == 1 for row in U)
    rows = {tuple(r) for r in U}
    assert len(rows) == 50 and not any(tuple(-x for x in r) in rows for r in rows)


@pytest.mark.parametrize("d,lam", [(2, 3), (2, 4), (3, 2), (3, 4)])
def test_hadamard_power_rank_is_the_monomial_count(d: int, lam: int) -> None:
    n = multiset_coefficient(d, lam)
    B = rational_sphere_V(n + 3, d, seed=d * lam)
    exact = matrix_rank(hadamard_power_gram(B, lam), method="exact").rank
    assert exact == n == hadamard_power_rank(B, lam, seed=0).rank


def test_lemmas_10_and_11_on_random_hadamard_powers() -> None:
    for seed in range(5):
        n = multiset_coefficient(3, 4)
        M = hadamard_power_gram(sphere_rows(n, 3, seed=seed), 4)
        r, bound = lemma11_count(M)
        assert r >= bound
        assert eps_rank(M, 1 / (2 * n * n)).lower >= r  # Lemma 10 with eps = 1/n


def test_lemma16_exact_moment_against_monte_carlo() -> None:
    rng = np.random.default_rng(0)
    for k, lam in ((2, 3), (3, 2), (5, 4)):
        u, v = sphere_rows(200000, k, seed=rng), sphere_rows(200000, k, seed=rng)
        x = np.sum(u * v, axis=1) ** (2 * lam)
        assert abs(x.mean() - lemma16_moment(k, lam)) <= MC_SIGMAS * x.std() / np.sqrt(x.size)
    assert lemma16_moment(2, 3) == pytest.approx(0.3125)


def test_lemma15_second_moment_against_monte_carlo() -> None:
    d, lam = 2, 3
    n = multiset_coefficient(d, lam)
    sq = [np.linalg.norm(hadamard_power_gram(sphere_rows(n, d, seed=s), lam)) ** 2
          for s in range(4000)]
    root_second, printed = lemma15_exact_bound(d, lam)
    assert abs(np.mean(sq) - root_second**2) <= MC_SIGMAS * np.std(sq) / np.sqrt(len(sq))
    assert root_second <= printed


def test_lemma17_maximum_by_grid_search() -> None:
    for d, lam in ((2, 3), (4, 9), (7, 20)):
        x = np.linspace(0, 1, 200001)
        grid_max = np.max(x ** (2 * lam) * (1 - x**2) ** (d / 2))
        value, bound = lemma17_maximum(d, lam)
        assert value == pytest.approx(grid_max, rel=1e-6) and value <= bound


@pytest.mark.parametrize("d,L,N,i", [(1, 2, 1, 0), (2, 2, 2, 1), (2, 3, 1, 0), (2, 3, 2, 3),
                                     (3, 2, 1, 1)])
def test_construction_realises_the_hadamard_power_exactly(d: int, L: int, N: int, i: int) -> None:
    A = rational_sphere_V(5 if d > 1 else 1, d, seed=d + L)  # S^0: one point up to sign
    c = hadamard_construction(A, depth=L, n_tokens=N, output_position=i)
    G = c.representation.grid(c.a_templates, c.b_templates)
    assert c.lam == (3 ** (L - 1) - 1) // 2 >= 3 ** (L - 2)
    assert np.array_equal(G, c.constant * hadamard_power_gram(A, c.lam))


def test_construction_layer_one_outputs_N_times_a_plus_b() -> None:
    A = rational_sphere_V(3, 2, seed=0)
    c = hadamard_construction(A, depth=2, n_tokens=2)
    net = c.representation.net
    first = type(net)(net.query[:1], net.key[:1], net.value[:1], net.output[:1])
    X = c.representation.inputs(c.a_templates[0], c.b_templates[1])
    Y = first(X)
    u = 2 * (c.a_templates[0] + c.b_templates[1])  # N (a + b), the same at every position
    assert all(np.array_equal(Y[j], u) for j in range(4))
