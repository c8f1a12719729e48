"""seprank.d2w bounds and lemmas, seprank.core.log3: closed forms, brute force, exact compares."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import LinearAttention, d2w, mixing_units, multiset_coefficient, regime
from seprank.core.log3 import Log3Value, compare, log3, log3_multiset_coefficient
from seprank.d2w.bounds import OutsideHypothesesError
from seprank.d2w.corollaries import corollary1_min_widening, corollary2_shallow
from seprank.d2w.lemmas import (
    balanced_partitions,
    lemma2_layer_upper,
    lemma2_summed_terms,
    lemma3_equality_case,
    lemma3_multiset_product,
    lemma4_multiset_upper,
    lemma8_rearrangement,
    multiset_lower_bounds,
    proposition1,
)

TABLE_DIGITS = 3  # the notes' table (§6) is printed to 3 decimals
LOG_RTOL = mpmath.mpf("1e-45")


def test_mixing_units_closed_form_and_recursion() -> None:
    assert [mixing_units(L) for L in range(1, 6)] == [1, 4, 13, 40, 121]
    for L in range(1, 40):
        assert mixing_units(L + 1) == 3 * mixing_units(L) + 1
        assert 2 * mixing_units(L) + 1 == 3**L


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 5), st.integers(0, 7))
def test_multiset_coefficient_counts_compositions(n: int, k: int) -> None:
    brute = sum(1 for a in itertools.product(range(k + 1), repeat=n) if sum(a) == k)
    assert multiset_coefficient(n, k) == brute


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 300), st.integers(0, 400))
def test_log3_multiset_matches_exact_big_integer_log(n: int, k: int) -> None:
    exact = multiset_coefficient(n, k)
    ctx = mpmath.mp.clone()
    ctx.dps = 70
    reference = ctx.log(ctx.mpf(exact)) / ctx.log(3)
    assert abs(log3_multiset_coefficient(n, k) - reference) <= LOG_RTOL * max(1, abs(reference))


@pytest.mark.parametrize("n,k", [(14, 3**30), (200, 3**37), (2, 3**39), (1584, 3**20)])
def test_log3_multiset_huge_k_matches_sum_of_logs(n: int, k: int) -> None:
    """loggamma at 60 digits vs the exact-product sum sum_t log((k + t)/t) at 70 digits."""
    ctx = mpmath.mp.clone()
    ctx.dps = 70
    reference = sum(ctx.log(ctx.mpf(k + t) / t) for t in range(1, n)) / ctx.log(3)
    value = log3_multiset_coefficient(n, k)
    assert abs(value - reference) <= mpmath.mpf("1e-30") * reference


def test_float_lgamma_would_give_false_violations_but_log3_does_not() -> None:
    """At L = 2, T1LB == log3 ((d 1)) exactly: the comparison must say 'equal', never '>'."""
    for d_a in range(3, 200, 2):
        t1 = d2w.theorem1_lower(width=d_a, depth=2)
        cert = d2w.lemma6_lower_bound(width=d_a, depth=2)
        assert compare(t1.as_log3value(), cert.as_log3value()) == 0
    lam = 3**35
    n = 50
    lg = math.lgamma(n + lam) - math.lgamma(lam + 1) - math.lgamma(n)  # float64: all lost
    accurate = float(log3_multiset_coefficient(n, lam)) * math.log(3)
    assert abs(lg - accurate) > 1.0 and accurate > 0


def test_regime_is_exact_including_the_boundary() -> None:
    assert regime(3**30, 30) == "boundary"
    assert regime(3**30 + 1, 30) == "depth_efficient"
    assert regime(3**30 - 1, 30) == "depth_inefficient"
    assert [regime(9, L) for L in (1, 2, 3)] == ["depth_efficient", "boundary",
                                                  "depth_inefficient"]


NOTES_TABLE = [  # (L, d_x, H, T1LB, T1UB, T2LB, T2UB, log3 Thm4), notes §6 (independent code)
    (1, 5, 1, 0.544, 1.631, -5.577, 11.830, 6.092),
    (2, 5, 1, 0.631, 6.524, -4.577, 22.830, 12.926),
    (3, 7, 1, 0.000, 24.606, -4.500, 41.595, 26.539),
    (4, 7, 1, -9.000, 75.712, -2.500, 56.595, 39.384),
    (3, 9, 3, 0.000, 29.404, -7.500, 48.227, 30.742),
    (3, 15, 5, 1.395, 35.449, -13.987, 63.561, 40.321),
    (3, 29, 1, 4.207, 40.247, -24.832, 83.580, 54.374),
    (3, 243, 3, 10.073, 65.145, -415.468, -282.864, 105.300),
    (12, 512, 2, -292654.199, 1509798.846, 1244.768, 7926.180, 6947.115),
]


@pytest.mark.parametrize("row", NOTES_TABLE, ids=[str(r[:3]) for r in NOTES_TABLE])
def test_bound_values_match_the_notes_table(row: tuple[float, ...]) -> None:
    L, d, H = (int(x) for x in row[:3])
    got = [d2w.theorem1_lower(width=d, depth=L, heads=H), d2w.theorem1_upper(width=d, depth=L,
                                                                             heads=H),
           d2w.theorem2_lower(width=d, depth=L, heads=H), d2w.theorem2_upper(width=d, depth=L,
                                                                             heads=H),
           d2w.theorem4_upper(width=d, depth=L, heads=H)]
    for b, expected in zip(got, row[3:], strict=True):
        assert round(float(b.log3), TABLE_DIGITS) == pytest.approx(expected, abs=1e-3)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(1, 8), st.integers(1, 6))
def test_theorem3_exact_and_equal_to_theorem1_upper(d_a: int, H: int, L: int) -> None:
    d_x = d_a * H
    t3 = d2w.theorem3_upper(width=d_x, depth=L, heads=H)
    assert t3.value == (H * (d_a + 1)) ** mixing_units(L)
    assert t3.exact == d2w.theorem1_upper(width=d_x, depth=L, heads=H).exact
    assert abs(t3.log3 - mixing_units(L) * log3(d_x + H)) < 1e-50


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 20), st.integers(1, 4))
def test_theorem4_and_6_exact_values(d_x: int, L: int) -> None:
    C = mixing_units(L)
    expected = Fraction(d_x * (C + 1) * math.comb(d_x + 2 * C - 1, 2 * C)
                        * (2 * C + d_x) ** d_x, d_x**d_x)
    assert d2w.theorem4_upper(width=d_x, depth=L).value == expected
    assert d2w.theorem6_residual_upper(width=d_x, depth=L).value == (C + 1) * expected
    assert abs(d2w.theorem4_upper(width=d_x, depth=L).log3 - log3(expected)) < 1e-45


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5), st.integers(1, 4), st.integers(1, 3), st.integers(2, 6))
def test_theorem5_forms(L: int, d_a: int, H: int, N: int) -> None:
    d_x = d_a * H
    c = Fraction(N * d_x**4, H)
    S = c
    for l in range(2, L + 1):           # the proof's recursion, iterated literally
        S = c * (l * S) ** 3
    rec = d2w.theorem5_residual_upper(width=d_x, depth=L, heads=H, n_inputs=N, form="recursion")
    assert rec.exact is not None and rec.exact[0] == (L + 1) * S
    product = math.prod(Fraction(l + 1) * c ** (3 ** (l - 1)) for l in range(1, L + 1))
    assert d2w.theorem5_residual_upper(width=d_x, depth=L, heads=H, n_inputs=N,
                                       form="proof_product").value == product
    stated = d2w.theorem5_residual_upper(width=d_x, depth=L, heads=H, n_inputs=N).value
    assert stated == Fraction(L) ** L * c ** mixing_units(L)


def test_theorem5_notes_example() -> None:
    vals = [round(float(d2w.theorem5_residual_upper(width=4, depth=4, heads=1, n_inputs=4,
                                                    form=f).log3), 1)
            for f in ("stated", "proof_product", "recursion")]
    assert vals == [257.4, 256.7, 283.7]


def test_theorem1_lower_closed_form_and_theorem2_square() -> None:
    b = d2w.theorem1_lower(width=29, depth=3)
    assert b.exact == (Fraction(28, 2 * 3) ** 3, 1)          # ((d_x - H)/(2 * 3^(L-2)))^lambda
    b1 = d2w.theorem1_lower(width=5, depth=1)
    assert b1.exact == (Fraction(3 * 4, 2), 3)                # L = 1: lambda = 1/3, cube
    t2 = d2w.theorem2_lower(width=7, depth=3)
    X, q = t2.exact  # type: ignore[misc]
    assert q == 2 and abs(float(log3(X)) / 2 - float(t2.log3)) < 1e-12


def test_hypotheses_are_flagged_or_refused_consistently() -> None:
    inside = d2w.theorem1_lower(width=29, depth=3)
    assert inside.in_hypotheses and not inside.violated
    outside = d2w.theorem1_lower(width=9, depth=2)
    assert not outside.in_hypotheses and "3^L = 9 = d_x = 9" in outside.violated[0]
    assert not d2w.theorem2_upper(width=243, depth=3, heads=3).in_hypotheses
    assert float(d2w.theorem2_upper(width=243, depth=3,
                                    heads=3).log3) < 0     # why the hypothesis matters
    with pytest.raises(OutsideHypothesesError, match="L > log3"):
        d2w.theorem2_lower(width=29, depth=3, strict=True)
    with pytest.raises(OutsideHypothesesError, match="L >= 2"):
        d2w.lemma6_lower_bound(width=29, depth=1, strict=True)
    assert d2w.lemma6_lower_bound(width=29, depth=1).value == 1
    assert "padded" in d2w.lemma6_lower_bound(width=8, depth=3, heads=2).notes[0]   # d_a = 4 -> 3
    assert d2w.lemma6_lower_bound(width=8, depth=3, heads=2).value == multiset_coefficient(2, 3)
    d_a1 = d2w.theorem1_lower(width=27, depth=2, heads=27)
    assert d_a1.log3 == -mpmath.inf and not d_a1.in_hypotheses


@pytest.mark.parametrize("func", [d2w.theorem1_lower, d2w.theorem1_upper,
                                  d2w.theorem2_lower, d2w.theorem2_upper,
                                  d2w.theorem3_upper, d2w.theorem4_upper,
                                  d2w.theorem6_residual_upper, d2w.lemma6_lower_bound])
def test_bad_input_is_refused(func) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="not divisible"):
        func(width=10, depth=2, heads=3)
    with pytest.raises(ValueError, match="depth L"):
        func(width=10, depth=0, heads=1)
    with pytest.raises(ValueError, match="width d_x"):
        func(width=2.5, depth=2, heads=1)
    with pytest.raises(ValueError, match="heads H"):
        func(width=10, depth=2, heads=True)


def test_admits_and_ties() -> None:
    t3 = d2w.theorem3_upper(width=2, depth=2)          # 81
    assert t3.admits(81) is True and t3.admits(82) is False
    cert = d2w.lemma6_lower_bound(width=29, depth=3)   # 560
    assert cert.admits(560) is True and cert.admits(559) is False
    tie = Log3Value(log3(4) / 2)              # sqrt(4) without an exact form
    assert compare(Log3Value.of(2), tie) is None
    assert compare(Log3Value.of(2), Log3Value(log3(4) / 2, (Fraction(4), 2))) == 0
    huge = d2w.theorem3_upper(width=1024, depth=48, heads=2)
    assert huge.exact is None and huge.admits(10**100) is True


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.lists(st.integers(0, 25), min_size=1, max_size=7))
def test_lemma3_holds_and_is_tight_at_equal_parts(n: int, rs: list[int]) -> None:
    assert lemma3_multiset_product(n, rs).holds is True
    k = len(rs)
    equal = lemma3_multiset_product(n, [rs[0]] * k)
    assert equal.is_equality is True
    phi, printed, corrected = lemma3_equality_case(n, k, rs[0])
    assert phi == corrected and (printed == phi) == (n <= 2)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 80), st.integers(0, 10**6))
def test_lemma4_and_closing_inequalities(n: int, k: int) -> None:
    assert lemma4_multiset_upper(n, k).holds is True
    if n >= 2 and k >= 1:
        a, b = multiset_lower_bounds(n, k)
        assert a.holds is True and b.holds is True


def test_lemma2_counts() -> None:
    for d, H, N in [(2, 1, 2), (6, 3, 5), (8, 4, 3)]:
        brute = sum(1 for _ in itertools.product(range(H), range(d // H), range(d), range(N),
                                                 range(d), range(d // H), range(d)))
        assert lemma2_summed_terms(d, H, N) == brute == N * d**5 // H
        assert lemma2_layer_upper(width=d, heads=H, n_inputs=N,
                                  input_sep=2).value == Fraction(N * d**4, H) * 8


def test_lemma8_brute_force_and_refusals() -> None:
    assert lemma8_rearrangement([[0, 1], [1, 0], [1, 1], [2, 2]])[0] is True
    with pytest.raises(ValueError, match="distinct"):
        lemma8_rearrangement([[1, 2], [1, 2]])
    with pytest.raises(ValueError, match="non-negative"):
        lemma8_rearrangement([[1, -2], [1, 2]])


def test_balanced_partitions_and_proposition1() -> None:
    for N in (2, 4, 6, 8):
        parts = balanced_partitions(N)
        assert len(parts) == math.comb(N, N // 2) // 2
        assert all(0 in A and len(A) == len(B) == N // 2 for A, B in parts)
    with pytest.raises(ValueError, match="even"):
        balanced_partitions(5)
    net = LinearAttention.random(depth=2, width=2, seed=4)
    res = proposition1(net, n_inputs=4, seed=0)
    assert res.all_equal and set(res.values.values()) == {18}     # notes §4.4: 18
    unbalanced = net.separation_rank(position=0, coordinate=0,
                                     partition=([0], [1, 2, 3]), n_inputs=4, seed=0)
    assert unbalanced.rank == 16                                    # notes PC5: P = {1} -> 16


def test_corollaries_match_the_notes() -> None:
    assert math.ceil(corollary1_min_widening(width_deep=1000, depth_deep=6,
                                             depth_ratio=2).widening) == 84
    assert corollary1_min_widening(width_deep=7000, depth_deep=8,
                                   depth_ratio=2).widening == pytest.approx(3.7e8, rel=0.02)
    assert float(corollary1_min_widening(width_deep=7000, depth_deep=8,
                                         depth_ratio=4).log3_widening) == pytest.approx(
        math.log(2e120, 3), rel=1e-3)
    assert corollary1_min_widening(width_deep=700, depth_deep=6,
                                   depth_ratio=2).violated          # 700 < 3^6: outside
    r = corollary2_shallow(width_deep=512, depth_deep=12, heads=2)
    assert (float(r.beta2), r.shallow_depth, r.shallow_width) == (3.5, 10, 23946)
    assert round(float(r.log3_shallow_certified)) == 10958
    assert (float(corollary2_shallow(width_deep=1024, depth_deep=24, heads=2).beta2),
            corollary2_shallow(width_deep=1024, depth_deep=24, heads=2).shallow_depth) == (4.5, 11)
    assert corollary2_shallow(width_deep=1024, depth_deep=48, heads=2).shallow_depth == 12
    with pytest.raises(ValueError, match="depth_ratio"):
        corollary1_min_widening(width_deep=1000, depth_deep=6, depth_ratio=1)


def test_proposition1_refuses_non_partitions() -> None:
    net = LinearAttention.random(depth=1, width=2, seed=0)
    with pytest.raises(ValueError, match="not a partition"):
        proposition1(net, n_inputs=4, partitions=[([0, 1], [1, 2, 3])])
    with pytest.raises(ValueError, match="not a partition"):
        proposition1(net, n_inputs=4, partitions=[([0, 1], [2])])
