"""The teacher's first stage (004 §4.2.6): symmetric initialisation, Claim 7 by enumeration,
Lemma 63's step and its decay, and the correlations of Lemma 64 / Corollary 3."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from identifiability.distillation import (
    SymmetricInit,
    claim7_gradient,
    enumerate_activation_correlations,
    exact_degree_one,
    exhaustive_correlations,
    first_stage_step,
    hypercube,
    lemma63_targets,
    majority_coefficient,
    monte_carlo_correlations,
    network_output,
    pair_correlation,
)

EXACT_ATOL = 1e-12
MC_Z = 5.0                   # Monte Carlo agreement in standard errors


@pytest.mark.parametrize("d,k,m,seed", [(7, 2, 6, 0), (9, 4, 8, 1), (11, 6, 4, 2)])
def test_symmetric_initialisation_gives_the_zero_network(d: int, k: int, m: int,
                                                         seed: int) -> None:
    init = SymmetricInit.draw(d, k, m, seed=seed)
    x = hypercube(d).astype(float)
    f0 = np.maximum(x @ init.w.T + init.b, 0) @ init.a
    assert np.abs(f0).max() < EXACT_ATOL
    assert np.all(np.abs(init.b) < 1) and set(np.abs(init.a)) == {1 / m}


@pytest.mark.parametrize("d,k,seed", [(7, 1, 0), (9, 2, 1), (9, 4, 2), (11, 6, 3)])
def test_claim7_formula_equals_exhaustive_enumeration(d: int, k: int, seed: int) -> None:
    init = SymmetricInit.draw(d, k, 8, seed=seed)
    support = tuple(range(k))
    exact = enumerate_activation_correlations(init, support)
    formula = claim7_gradient(init, support) / init.a[:, None]
    assert np.array_equal(np.array([[float(v) for v in row] for row in exact]), formula)
    printed = claim7_gradient(init, support, sign=-1) / init.a[:, None]
    assert np.array_equal(printed, -formula)


def test_claim7_magnitudes_are_zeta_k_minus_and_plus_one() -> None:
    d, k = 13, 4
    init = SymmetricInit.draw(d, k, 10, seed=5)
    g = np.abs(claim7_gradient(init, range(k)) * init.m * 2)
    assert np.allclose(g[:, :k], abs(float(majority_coefficient(d, k - 1))))
    assert np.allclose(g[:, k:], abs(float(majority_coefficient(d, k + 1))))


@pytest.mark.parametrize("batch", [None, 5000])
def test_mirrored_neurons_stay_antisymmetric(batch: int | None) -> None:
    init = SymmetricInit.draw(11, 4, 16, seed=3)
    step = first_stage_step(init, range(4), batch_size=batch, seed=4)
    assert np.array_equal(step.w1[8:], -step.w1[:8])


def test_population_step_hits_lemma63_targets_exactly() -> None:
    init = SymmetricInit.draw(13, 4, 12, seed=0)
    step = first_stage_step(init, range(4))
    assert np.allclose(step.w1, lemma63_targets(init, range(4)), atol=EXACT_ATOL, rtol=0)
    assert step.tau_g == 0


def test_printed_decay_leaves_the_initialisation() -> None:
    init = SymmetricInit.draw(13, 4, 12, seed=0)
    step = first_stage_step(init, range(4), decay="printed")
    diff = step.w1 - lemma63_targets(init, range(4))
    assert np.allclose(diff, (1 - 2 * step.eta) * init.w, rtol=1e-12)


def test_batch_step_deviation_is_bounded_by_tau_g_identity() -> None:
    # w1 - target = -eta_1 (g_hat - g) and eta_1 |a_i| = 1/(k |zeta_{k-1}|)
    init = SymmetricInit.draw(15, 4, 20, seed=8)
    step = first_stage_step(init, range(4), batch_size=4000, seed=9)
    zeta = abs(float(step.zeta_lo))
    on, off = step.deviation_from_targets()
    assert max(on, off) == pytest.approx(step.tau_g / (4 * zeta), rel=1e-9)
    delta = 1e-3      # Hoeffding + union bound over the m d coordinates
    assert step.tau_g <= math.sqrt(2 * math.log(2 * init.m * init.d / delta) / 4000)


@pytest.mark.parametrize("d,k", [(13, 4), (21, 4), (15, 6)])
def test_pair_correlation_sums_to_the_linear_part(d: int, k: int) -> None:
    rho = majority_coefficient(d, k + 1) / majority_coefficient(d, k - 1)
    for j in range(-(k - 1), k):
        b = Fraction(j, k)
        assert pair_correlation(d, k, b) + pair_correlation(d, k, -b) == Fraction(1, k)
        assert (pair_correlation(d, k, b, in_support=False)
                + pair_correlation(d, k, -b, in_support=False)) == rho / k
        if b >= 0:
            assert pair_correlation(d, k, b) >= Fraction(1, 4 * k)   # the proof's per-pair bound


@pytest.mark.parametrize("d,k,m,seed", [(9, 2, 10, 0), (11, 4, 16, 1), (13, 4, 64, 2)])
def test_exact_degree_one_equals_enumeration(d: int, k: int, m: int, seed: int) -> None:
    step = first_stage_step(SymmetricInit.draw(d, k, m, seed=seed), range(k))
    brute = exhaustive_correlations(step)["degree_one"]
    assert np.allclose(exact_degree_one(step), brute, atol=EXACT_ATOL, rtol=0)


def test_in_support_correlations_average_to_zero_over_initialisations() -> None:
    # E_init c_j = 0: the signs chi_{S\{j}}(w_i) are fair coins
    cs = np.array([exact_degree_one(first_stage_step(SymmetricInit.draw(21, 4, 64, seed=s),
                                                     range(4)))[:4] for s in range(200)])
    mean, se = cs.mean(), cs.std(ddof=1) / math.sqrt(cs.size)
    assert abs(mean) < 4 * se
    j = [float(pair_correlation(21, 4, Fraction(v, 4))) for v in range(-3, 4)]
    assert cs.std() * math.sqrt(64) == pytest.approx(math.sqrt(np.mean(np.square(j)) / 2),
                                                     rel=0.1)


@pytest.mark.parametrize("batch", [None, 3000])
def test_odd_teacher_has_no_majority_correlation(batch: int | None) -> None:
    step = first_stage_step(SymmetricInit.draw(11, 4, 32, seed=1), range(4), batch_size=batch,
                            seed=2)
    ex = exhaustive_correlations(step)
    assert np.abs(ex["majority"]).max() < EXACT_ATOL
    assert np.allclose(ex["threshold"], ex["degree_one"] / 2, atol=EXACT_ATOL)
    assert ex["even_norm2"][0] < EXACT_ATOL


def test_monte_carlo_agrees_with_enumeration_within_its_errors() -> None:
    step = first_stage_step(SymmetricInit.draw(11, 4, 32, seed=1), range(4), batch_size=2000,
                            seed=2)
    ex = exhaustive_correlations(step)
    mc = monte_carlo_correlations(step, 40_000, seed=3)
    assert np.all(np.abs(mc.degree_one - ex["degree_one"]) <= MC_Z * mc.degree_one_se)
    assert np.all(np.abs(mc.threshold - ex["threshold"]) <= MC_Z * mc.threshold_se)
    x = hypercube(11).astype(float)
    f = network_output(step, x)
    assert abs(mc.norm2 - np.mean(f**2)) <= MC_Z * mc.norm2_se
    assert np.allclose(np.diag(mc.degree_two), np.mean(mc.degree_two.diagonal()))   # E f


def test_arguments_are_validated() -> None:
    with pytest.raises(ValueError, match="m must be even"):
        SymmetricInit.draw(11, 4, 7, seed=0)
    with pytest.raises(ValueError, match="d must be odd"):
        SymmetricInit.draw(10, 4, 8, seed=0)
    init = SymmetricInit.draw(11, 4, 8, seed=0)
    with pytest.raises(ValueError, match="support"):
        first_stage_step(init, (0, 1))
    with pytest.raises(ValueError, match="decay"):
        first_stage_step(init, range(4), decay="none")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="exceeds"):
        first_stage_step(init, range(4), batch_size=10**8)
    with pytest.raises(ValueError, match="population step"):
        exact_degree_one(first_stage_step(init, range(4), batch_size=100, seed=1))
