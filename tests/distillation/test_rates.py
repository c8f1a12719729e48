"""The sample-complexity formulas of 004 §4.2.6 and the experiments' arithmetic."""

from __future__ import annotations

import math

import pytest

from identifiability.distillation import (
    lemma65_first_stage_batch,
    lemma65_second_stage_steps,
    lemma65_stated_total,
    lemma66_step_bound,
    majority_coefficient,
    samples_for_steps,
    theorem22_progressive,
    theorem23_one_shot,
    theorem23_progressive,
)

REL = 1e-9


@pytest.mark.parametrize("d,k", [(21, 2), (101, 4), (1001, 6)])
def test_first_stage_batch_is_zeta_power_times_k2_log(d: int, k: int) -> None:
    eps = 0.05
    z = abs(float(majority_coefficient(d, k - 1, method="closed_form")))
    base = k**2 * math.log(k * d / eps)
    assert lemma65_first_stage_batch(d, k, eps) == pytest.approx(base / z**2, rel=REL)
    assert lemma65_first_stage_batch(d, k, eps, exponent=2) == pytest.approx(base * z**2,
                                                                             rel=REL)
    cor5 = lemma65_first_stage_batch(d, k, eps, extra_d_power=10 / 3)
    assert cor5 == pytest.approx(base / z**2 * d ** (10 / 3), rel=REL)


def test_corrected_batch_scales_like_d_to_the_k_minus_1() -> None:
    # zeta_1^-2 ~ (pi/2) d and zeta_3 = -zeta_1/(d-2): both give pi/2 in the limit
    for k in (2, 4):
        r = lemma65_first_stage_batch(100001, k, 0.1) / (100001 ** (k - 1) * k**2
                                                          * math.log(k * 100001 / 0.1))
        assert r == pytest.approx(math.pi / 2, rel=1e-3)


def test_second_stage_and_stated_total() -> None:
    d, k, eps, delta = 101, 4, 0.2, 0.05
    m = 2**k * math.log(k / delta)
    assert lemma65_second_stage_steps(d, k, eps, delta) == pytest.approx(m * d**2 * k**3
                                                                         / eps**2, rel=REL)
    stated = lemma65_stated_total(d, k, eps, delta)
    second = 2**k * d**2 * k**4 * math.log(k / delta) / eps**2
    assert stated == pytest.approx(d**3 * k**2 * math.log(d * k / eps) + second, rel=REL)


def test_formal_over_informal_tends_to_k4_log() -> None:
    d, eps, delta = 50, 0.1, 0.1
    for k in (30, 40):
        ratio = theorem23_progressive(d, k, eps, delta) / theorem22_progressive(d, k, eps)
        assert ratio / (k**4 * math.log(k / delta)) == pytest.approx(1, rel=0.01)


def test_one_shot_and_lemma66_closed_forms() -> None:
    assert theorem23_one_shot(100, 6, 1.0) == 100.0**2
    assert theorem23_one_shot(100, 3, 5.0, per_width=True) == 100.0**2 / 24
    assert lemma66_step_bound(10, 3, 0.5, 0.2, 2) == pytest.approx(0.5 * 120 * 0.5 * 0.04 / 2)
    assert samples_for_steps(16000, 512) == 8_192_000


def test_arguments_are_validated() -> None:
    with pytest.raises(ValueError, match="eps"):
        lemma65_first_stage_batch(101, 4, 1.5)
    with pytest.raises(ValueError, match="d must be odd"):
        lemma65_first_stage_batch(100, 4, 0.1)
    with pytest.raises(ValueError, match="exponent"):
        lemma65_first_stage_batch(101, 4, 0.1, exponent=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="delta"):
        theorem23_progressive(100, 4, 0.1, 0.0)
