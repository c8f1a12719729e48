"""Exact Fourier facts of Majority on the hypercube (004 §4.2.6): Krawtchouk sums against
brute force, O'Donnell's closed form, Parseval, symmetries and the Barak et al. gap."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from identifiability.distillation import (
    barak_gap,
    fourier_coefficient,
    hypercube,
    krawtchouk,
    log10_fraction,
    majority_coefficient,
    majority_l1_norm,
    majority_rate_table,
    majority_spectrum,
    parity,
)

ASYMPTOTIC_TOL = 0.01        # |zeta_i / corrected form - 1| in the asymptotic regime


def _brute_majority(d: int) -> np.ndarray:
    return np.sign(hypercube(d).astype(np.int64).sum(axis=1))


@pytest.mark.parametrize("d", [1, 3, 5, 7, 9, 11])
def test_every_level_matches_brute_force_enumeration(d: int) -> None:
    maj = _brute_majority(d)
    spectrum = majority_spectrum(d)
    for i in range(d + 1):
        for s in itertools.islice(itertools.combinations(range(d), i), 3):
            assert fourier_coefficient(d, s, maj) == spectrum[i]


@pytest.mark.parametrize("d", [11, 51, 101, 201])
def test_parseval_sum_of_squared_coefficients_is_one(d: int) -> None:
    spectrum = majority_spectrum(d, method="closed_form")
    assert sum(math.comb(d, i) * z * z for i, z in enumerate(spectrum)) == 1


@given(st.integers(0, 20).map(lambda n: 2 * n + 1), st.data())
@settings(max_examples=40, deadline=None)
def test_krawtchouk_route_equals_the_closed_form(d: int, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, d))
    assert majority_coefficient(d, i) == majority_coefficient(d, i, method="closed_form")


@pytest.mark.parametrize("d", [3, 9, 21, 101])
def test_level_one_symmetry_and_signs(d: int) -> None:
    z = majority_spectrum(d, method="closed_form")
    assert z[1] == Fraction(math.comb(d - 1, (d - 1) // 2), 2 ** (d - 1))   # the textbook value
    for i in range(1, d + 1, 2):
        assert abs(z[i]) == abs(z[d + 1 - i])                             # i <-> d + 1 - i
        assert (z[i] > 0) == ((i - 1) // 2 % 2 == 0)                      # signs alternate
    assert all(z[i] == 0 for i in range(0, d + 1, 2))


def test_majority_of_three_is_known() -> None:
    assert majority_spectrum(3) == (0, Fraction(1, 2), 0, Fraction(-1, 2))


def test_krawtchouk_is_the_weight_w_sum_of_chi() -> None:
    d, i = 6, 2
    x = hypercube(d)
    weights = (x == -1).sum(axis=1)
    chi = parity(x, range(i))
    assert krawtchouk(d, i) == [int(chi[weights == w].sum()) for w in range(d + 1)]


def _fwht_l1(d: int) -> Fraction:
    v = _brute_majority(d).astype(np.int64)
    h = 1
    while h < v.size:
        v = v.reshape(-1, 2, h)
        v = np.stack([v[:, 0] + v[:, 1], v[:, 0] - v[:, 1]], axis=1).reshape(-1)
        h *= 2
    return Fraction(int(np.abs(v).sum()), 2**d)


@pytest.mark.parametrize("d", [3, 5, 9])
def test_l1_norm_equals_the_walsh_hadamard_sum(d: int) -> None:
    assert majority_l1_norm(d) == _fwht_l1(d)


def test_l1_norm_grows_exponentially() -> None:
    # sum_S |hat Maj(S)| >= (sum_S hat Maj(S)^2) / max_S |hat Maj(S)| = 1/zeta_1 ~ sqrt(d),
    # and in fact ~ 2^(d/2): log10 grows linearly in d
    logs = [log10_fraction(majority_l1_norm(d)) for d in (51, 101, 201)]
    slopes = [(logs[1] - logs[0]) / 50, (logs[2] - logs[1]) / 100]
    assert all(0.12 < s < math.log10(2) / 2 + 0.01 for s in slopes)


def test_the_corrected_rate_is_asymptotically_exact() -> None:
    rows = majority_rate_table([100001], [21, 51, 101, 201])
    assert all(abs(r.corrected_ratio - 1) < ASYMPTOTIC_TOL for r in rows)
    row = majority_rate_table([101], [5])[0]
    expected = (log10_fraction(majority_coefficient(101, 5)) + math.log10(math.comb(101, 5))
                + math.log10(5) / 3)
    assert row.log10_printed_ratio == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("k", range(2, 12, 2))
def test_barak_gap_ties_at_d_equal_2k_minus_1(k: int) -> None:
    g = barak_gap(2 * k - 1, k)
    assert g.gap == 0 and not g.holds


@pytest.mark.parametrize("d", [21, 41, 61])
def test_coefficient_ratio_is_k_minus_1_over_d_minus_k(d: int) -> None:
    for k in range(2, d - 1, 2):
        r = majority_coefficient(d, k + 1, method="closed_form") / majority_coefficient(
            d, k - 1, method="closed_form")
        assert r == Fraction(-(k - 1), d - k)
        assert barak_gap(d, k).gap > 0 if d > 2 * k - 1 else True


def test_barak_gap_constant_is_decided_exactly() -> None:
    g = barak_gap(9, 4)
    exact_ratio = float(g.gap / Fraction(3, 100)) * 8**1.5
    assert g.ratio == pytest.approx(exact_ratio, rel=1e-12)
    assert not barak_gap(9, 4, constant=Fraction(3, 100) * Fraction(12)).holds


@pytest.mark.parametrize("bad", [4, 0, -3, 2.0, True])
def test_majority_refuses_even_or_invalid_dimensions(bad: object) -> None:
    with pytest.raises(ValueError, match="d"):
        majority_coefficient(bad, 1)  # type: ignore[arg-type]


def test_arguments_are_validated() -> None:
    with pytest.raises(ValueError, match="i must"):
        majority_coefficient(5, 6)
    with pytest.raises(ValueError, match="method"):
        majority_coefficient(5, 1, method="fft")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="k must be even"):
        barak_gap(11, 3)
    with pytest.raises(ValueError, match="d must be an integer"):
        hypercube(23)
    with pytest.raises(ValueError, match="support"):
        parity(hypercube(3), (3,))
