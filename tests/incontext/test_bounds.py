"""Bounds of seed 000/001 (and ours) against hand-computed values and closed forms."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from seprank.d2w.bounds import mixing_units
from seprank.d2w.theorems import theorem2_lower, theorem2_upper, theorem3_upper, theorem4_upper
from seprank.incontext.bounds import (
    bidegree_bound,
    corollary1_bounds,
    depth_deficit,
    monomial_count,
    sequential_ceiling,
    theorem1_exponent,
)
from seprank.incontext.theorems import (
    minimal_depth_theorem3,
    theorem2_epsilon,
    theorem3_bound,
    theorem3_hypotheses,
    theorem3_log_y,
    trivial_sequential_count,
)

LOG_TOL = 0.01


@pytest.mark.parametrize("d,L,hand", [(2, 1, 3), (2, 2, 15), (3, 2, 35), (4, 2, 70), (6, 2, 210),
                                      (8, 2, 495), (10, 2, 1001), (2, 3, 105), (3, 3, 560),
                                      (4, 3, 2380)])
def test_PB_hand_values(d: int, L: int, hand: int) -> None:
    assert bidegree_bound(d, L) == hand


@given(d=st.integers(1, 7), L=st.integers(1, 4))
def test_PB_is_the_same_for_an_output_in_S2(d: int, L: int) -> None:
    """Mirror bidegrees (2k, 2C - 2k + 1) give the same sum (notes §3.2)."""
    C = mixing_units(L)
    mirror = sum(min(monomial_count(d, 2 * k), monomial_count(d, 2 * C - 2 * k + 1))
                 for k in range(C + 1))
    assert mirror == bidegree_bound(d, L)


@given(d=st.integers(1, 7), L=st.integers(1, 4))
def test_PB_below_the_total_monomial_counts(d: int, L: int) -> None:
    C = mixing_units(L)
    odd = sum(monomial_count(d, 2 * k + 1) for k in range(C + 1))
    even = sum(monomial_count(d, 2 * k) for k in range(C + 1))
    assert bidegree_bound(d, L) <= min(odd, even)


@given(d=st.integers(1, 9), L=st.integers(1, 7))
def test_PB_closed_form_equals_the_direct_sum(d: int, L: int) -> None:
    from seprank.incontext.bounds import _parity_sum

    C = mixing_units(L)
    direct = sum(min(monomial_count(d, 2 * k + 1), monomial_count(d, 2 * C - 2 * k))
                 for k in range(C + 1))
    k0 = (2 * C - 1) // 4
    assert _parity_sum(d, 1, k0 + 1) + _parity_sum(d, 0, C - k0) == direct
    assert bidegree_bound(d, L) == direct


def test_c_and_ceiling() -> None:
    assert [mixing_units(L) for L in (1, 2, 3, 4)] == [1, 4, 13, 40]
    assert all(2 * mixing_units(L) + 1 == 3**L for L in range(1, 8))
    assert [sequential_ceiling(2, 2), sequential_ceiling(3, 2), sequential_ceiling(4, 2),
            sequential_ceiling(3, 3)] == [10, 55, 220, 406]


def test_levine_bounds_hand_values() -> None:
    """Seed 003's Theorems 2-4 (seprank.d2w.bounds; arguments width, depth, heads) by hand."""
    assert [theorem3_upper(width=2, depth=2, heads=1).value, theorem3_upper(width=3, depth=2,
                                                                            heads=1).value,
            theorem3_upper(width=4, depth=2, heads=2).value, theorem3_upper(width=6, depth=2,
                                                                            heads=1).value,
            theorem3_upper(width=10, depth=2, heads=1).value] == [81, 256, 1296, 2401, 14641]
    assert theorem4_upper(width=2, depth=2).value == 2250
    assert float(theorem4_upper(width=3, depth=2).value) == pytest.approx(15 * 45 * (11 / 3) ** 3)
    lo, hi = theorem2_lower(width=2, depth=2, heads=1).log3, theorem2_upper(width=2, depth=2,
                                                                            heads=1).log3
    c2 = -4 * math.log(2 / (2 * math.sqrt(2 * math.e)), 3) + math.log(2, 3)
    assert float(hi) == pytest.approx(8 + 2 + c2)
    assert lo < hi


def test_corollary1_hypothesis() -> None:
    assert corollary1_bounds(4, heads=1, depth=1).applies is False  # 3 < 4
    assert corollary1_bounds(4, heads=1, depth=2).applies is True


def test_corollary1_best_bound_is_exact_and_respects_hypotheses() -> None:
    """At (2, 1, 2): PB = 15 < Thm3 = 81 < Thm4 = 2250 < 3^13.7 (Thm 2). At (243, 1, 3),
    3^3 < 243, Theorem 2's formula is negative (3^-282.9, notes): outside its hypothesis it
    must not be taken as the best bound (a rank >= 1 has log3 >= 0)."""
    b = corollary1_bounds(2, heads=1, depth=2)
    assert b.best[0].startswith("PB") and b.best[1].exact == (Fraction(15), 1)
    assert len(b.valid_bounds()) == 4
    outside = corollary1_bounds(243, heads=1, depth=3)
    assert not outside.applies and float(outside.thm2_upper.log3) < -280
    assert "Theorem 2 upper bound (eq. 8)" not in outside.valid_bounds()
    assert outside.log3_best >= 0
    smallest = min(Fraction(outside.bidegree), Fraction(outside.thm3.value),
                   Fraction(outside.thm4.value))
    assert outside.best[1].exact == (smallest, 1)


def test_depth_deficit_arithmetic() -> None:
    assert depth_deficit(1e-4) == pytest.approx(4.192, abs=1e-3)
    assert depth_deficit(1e-5) == pytest.approx(5.240, abs=1e-3)
    assert depth_deficit(1e-6) == pytest.approx(6.288, abs=1e-3)
    assert theorem1_exponent(4, 2, 1e-6) < 0 < theorem1_exponent(4, 7, 1e-6)
    with pytest.raises(ValueError):
        depth_deficit(0.0)


NOTES_MIN_DEPTH = {4: (4, 5, 7, 11, 15), 8: (5, 5, 7, 11, 16), 16: (7, 6, 8, 12, 16),
                   64: (9, 9, 9, 13, 17), 768: (14, 13, 13, 16, 20)}


@pytest.mark.parametrize("d", sorted(NOTES_MIN_DEPTH))
def test_minimal_depth_table(d: int) -> None:
    etas = ("0.5", "0.1", "1e-2", "1e-4", "1e-6")
    assert tuple(minimal_depth_theorem3(d, e) for e in etas) == NOTES_MIN_DEPTH[d]


def test_theorem3_hypotheses_exact_arithmetic() -> None:
    h = theorem3_hypotheses(4, 4, 2, Fraction(1, 2))
    assert h["all"]
    # 2(1+eta)d/eta = 24 < 27 = 3^3 holds, 2(1+eta)d^2 = 48 < 27 does not
    h3 = theorem3_hypotheses(4, 3, 2, "0.5")
    assert h3["depth_vs_eta"] and not h3["depth_vs_width"]
    assert not theorem3_hypotheses(4, 4, 4, "0.5")["tokens_below_width"]
    assert not theorem3_hypotheses(4, 9, 2, "1.5")["eta_in_unit_interval"]


@pytest.mark.parametrize("key,hand", [((2, 3, 1, 0.5), 37.90), ((3, 4, 2, 0.5), 64.83),
                                      ((4, 4, 2, 0.5), 81.10), ((4, 5, 2, 0.1), 95.00),
                                      ((8, 7, 2, 0.01), 224.37)])
def test_theorem3_explicit_bound_matches_notes(key: tuple[int, int, int, float],
                                               hand: float) -> None:
    b = theorem3_bound(*key)
    assert b.log3_bound == pytest.approx(hand, abs=LOG_TOL)
    assert b.vacuous and b.log3_bound > b.log3_trivial_count > b.log3_sequential_ceiling


def test_theorem3_trivial_counts_match_notes() -> None:
    for (d, L, N), hand in (((2, 3, 1), 8.19), ((3, 4, 2), 17.07), ((8, 7, 2), 80.92)):
        assert math.log(trivial_sequential_count(d, L, N), 3) == pytest.approx(hand, abs=LOG_TOL)


def test_theorem3_y_lowers_the_bound_and_is_at_most_one() -> None:
    log_y = theorem3_log_y(2, 3, 1, lambda_ratio=0.5, eps=0.25)
    assert log_y < -100  # Y is astronomically small: the bound barely moves
    base = theorem3_bound(2, 3, 1, 0.5).log3_bound
    assert theorem3_bound(2, 3, 1, 0.5, log_y=log_y).log3_bound <= base
    # Y = 1 (log Y = 0) divides the bound by (1 + Y)^2 = 4
    assert theorem3_bound(2, 3, 1, 0.5, log_y=0.0).log3_bound == pytest.approx(
        base - 2 * math.log(2, 3))
    assert theorem3_log_y(2, 3, 1, lambda_ratio=1.0, eps=0.5) <= 0  # Y <= 1 for eps <= 1/2
    with pytest.raises(ValueError):
        theorem3_log_y(2, 3, 1, lambda_ratio=0.5, eps=1.0)
    with pytest.raises(ValueError, match="d_x >= 2"):
        theorem3_bound(1, 3, 1, 0.5)


def test_theorem2_quantities() -> None:
    t = theorem2_epsilon(7, 1, 4)
    assert (t.d, t.lam, t.n) == (3, 9, 55)
    assert t.eps_001 == Fraction(1, 4 * 55**2) and t.eps_000 == 2 * t.eps_001
    assert t.guaranteed_rank == pytest.approx(55**0.25 / 4)
    with pytest.raises(ValueError, match="odd"):
        theorem2_epsilon(4, 1, 3)
    with pytest.raises(ValueError, match="H < d_x"):
        theorem2_epsilon(3, 3, 3)
