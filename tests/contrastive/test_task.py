"""The contrastive task (§2.1.1.2), eq. 2.12, the estimators, metrics, proof quantities, MLE."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.optimize import minimize

from identifiability.contrastive.bounds import (
    expected_norm_bounds,
    pair_sequence_beta,
    r_function,
    r_second_derivative,
    theorem2_chain,
    theorem3_chain,
    theorem3_factor_gaussian,
)
from identifiability.contrastive.fit import _gaussian_family_objective, _pack, fit_gaussian_kernel
from identifiability.contrastive.kernels import GaussianKernel, gauss_hermite_rule
from identifiability.contrastive.logistic import fit_quadratic_logistic
from identifiability.contrastive.metrics import (
    excess_risk,
    expected_abs_error,
    expected_kl,
    population_risk,
    theorem3_factor,
)
from identifiability.contrastive.mle import fit_gaussian_ar, fit_ou_mle
from identifiability.contrastive.processes import FiniteStateChain, OrnsteinUhlenbeck
from identifiability.contrastive.task import (
    UniformBoxContrast,
    bayes_classifier,
    contrastive_task_from_process,
    kernel_from_classifier,
    kernel_from_logit,
    make_contrastive_task,
)
from paper_checks.claims.contrastive.finite_state import _pair_beta_brute_force

FD_RTOL = 1e-5          # finite-difference gradient checks
QUAD_RTOL = 1e-6        # Gauss–Hermite vs closed form


@pytest.fixture(scope="module")
def ou() -> OrnsteinUhlenbeck:
    return OrnsteinUhlenbeck(1.0)


# -- the task ---------------------------------------------------------------------------------
def test_task_pairs_are_disjoint_and_positives_are_lag_eta(ou: OrnsteinUhlenbeck) -> None:
    x = ou.simulate(2001, 0.5, seed=1)          # odd: the last observation is dropped
    task = make_contrastive_task(x, 0.5, ou.stationary, seed=2)
    assert task.n_pairs == 1000
    np.testing.assert_array_equal(task.z, x[0:2000:2])
    pos = task.label == 1
    np.testing.assert_array_equal(task.z_prime[pos], x[1:2000:2][pos])
    assert not np.any(np.isin(task.z_prime[~pos], x))
    # labels are fair coins: |#pos - m/2| within 5 binomial standard deviations
    assert abs(task.n_positive - 500) < 5 * math.sqrt(250)
    again = make_contrastive_task(x, 0.5, ou.stationary, seed=2)
    np.testing.assert_array_equal(again.z_prime, task.z_prime)


def test_conditional_negatives_have_the_contrast_law(ou: OrnsteinUhlenbeck) -> None:
    q = GaussianKernel.local(1, 0.3)
    task = make_contrastive_task(ou.simulate(40_000, 0.2, seed=3), 0.2, q, seed=4)
    steps = (task.z_prime - task.z)[task.label == 0, 0]
    n = steps.size
    assert abs(steps.mean()) < 5 * math.sqrt(0.3 / n)
    assert abs(steps.var() - 0.3) < 5 * 0.3 * math.sqrt(2 / n)


def test_task_refusals(ou: OrnsteinUhlenbeck) -> None:
    x = ou.simulate(100, 0.5, seed=0)
    bad = x.copy()
    bad[7] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        make_contrastive_task(bad, 0.5, ou.stationary, seed=0)
    with pytest.raises(ValueError, match="eta"):
        make_contrastive_task(x, -0.5, ou.stationary, seed=0)
    with pytest.raises(ValueError, match="at least 2"):
        make_contrastive_task(x[:1], 0.5, ou.stationary, seed=0)
    with pytest.raises(ValueError, match="zero density"):
        make_contrastive_task(x, 0.5, UniformBoxContrast([-0.1], [0.1]), seed=0)
    with pytest.raises(ValueError, match="shape"):
        make_contrastive_task(x[:, 0], 0.5, ou.stationary, seed=0)


# -- Lemma 1 and eq. 2.12 ---------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 6))
def test_bayes_classifier_round_trip(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.ones(n), size=n)
    q = rng.dirichlet(np.ones(n))
    h = bayes_classifier(P, q)
    np.testing.assert_allclose(kernel_from_classifier(h, q), P, rtol=1e-12)
    # a scaled classifier odds (h/(1-h) * 2) gives 2P, which only 'rows' normalises back
    h2 = 2 * P / (2 * P + q)
    np.testing.assert_allclose(kernel_from_classifier(h2, q), 2 * P, rtol=1e-12)
    np.testing.assert_allclose(kernel_from_classifier(h2, q, normalize="rows"), P, rtol=1e-12)


def test_kernel_from_classifier_refusals() -> None:
    with pytest.raises(ValueError, match="zero density"):
        kernel_from_classifier(np.array([0.5, 0.5]), np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="infinite"):
        kernel_from_classifier(np.array([1.0, 0.5]), np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match="probabilities"):
        kernel_from_classifier(np.array([1.5, 0.5]), np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match="zero density"):
        bayes_classifier(np.array([0.5, 0.5]), np.array([0.0, 1.0]))
    # both zero: never sampled, h* = 0, and (2.12) returns 0 there
    assert bayes_classifier([0.0], [0.0])[0] == 0.0


def test_implied_kernel_normalisation(ou: OrnsteinUhlenbeck) -> None:
    pk, q = ou.kernel(0.5), ou.stationary
    bayes = kernel_from_logit(lambda z, zp: pk.logpdf(z, zp) - q.logpdf(z, zp), q)
    z = np.array([[-1.0], [0.3], [2.0]])
    np.testing.assert_allclose(bayes.log_normalizer(z), 0.0, atol=1e-10)
    np.testing.assert_allclose(bayes.log_normalizer(z, method="quad"), 0.0, atol=1e-8)
    # an offset logit: eq. 2.12 integrates to e^{0.3}; 'per_z' removes exactly that
    off = kernel_from_logit(lambda z, zp: pk.logpdf(z, zp) - q.logpdf(z, zp) + 0.3, q)
    np.testing.assert_allclose(off.log_normalizer(z), 0.3, atol=1e-10)
    per_z = kernel_from_logit(off.logit, q, normalize="per_z")
    zp = np.array([[0.1], [0.2], [1.5]])
    np.testing.assert_allclose(per_z.logpdf(z, zp), pk.logpdf(z, zp), atol=1e-10)
    # a callable classifier works as well
    h = kernel_from_classifier(lambda a, b: 1 / (1 + np.exp(-(pk.logpdf(a, b) - q.logpdf(a, b)))),
                               q)
    np.testing.assert_allclose(h.logpdf_unnormalized(z, zp), pk.logpdf(z, zp), atol=1e-10)
    with pytest.raises(ValueError, match="normalised"):
        expected_kl(pk, off, ou.stationary)


def test_zero_density_contrast_is_refused_at_evaluation(ou: OrnsteinUhlenbeck) -> None:
    box = UniformBoxContrast([-1.0], [1.0])
    k = kernel_from_logit(lambda z, zp: np.zeros(np.shape(zp)[:-1]), box)
    with pytest.raises(ValueError, match="zero density"):
        k.logpdf_unnormalized(np.array([[0.0]]), np.array([[3.0]]))


# -- estimators -------------------------------------------------------------------------------
@pytest.mark.parametrize("loss", ["cross_entropy", "l2"])
@pytest.mark.parametrize("d", [1, 2])
def test_gaussian_family_gradient_matches_finite_differences(loss: str, d: int) -> None:
    rng = np.random.default_rng(d)
    ou = OrnsteinUhlenbeck(np.eye(d) + 0.2 * (d > 1) * (np.ones((d, d)) - np.eye(d)))
    q = GaussianKernel.local(d, 0.7)
    task = contrastive_task_from_process(ou, 100, 0.5, q, seed=5)
    lq = q.logpdf(task.z, task.z_prime)
    y = task.label.astype(float)
    theta = _pack(GaussianKernel(0.3 * rng.standard_normal((d, d)), rng.standard_normal(d),
                                 0.5 * np.eye(d) + 0.1 * np.ones((d, d))))
    _val, grad = _gaussian_family_objective(theta, task, lq, y, loss)  # type: ignore[arg-type]
    h = 1e-6
    for i in range(theta.size):
        e = np.zeros_like(theta)
        e[i] = h
        fd = (_gaussian_family_objective(theta + e, task, lq, y, loss)[0]  # type: ignore[arg-type]
              - _gaussian_family_objective(theta - e, task, lq, y, loss)[0]) / (2 * h)  # type: ignore[arg-type]
        assert fd == pytest.approx(grad[i], rel=FD_RTOL, abs=1e-9)


def test_population_optimum_of_gaussian_family_is_the_true_kernel() -> None:
    """Lemma 1 in the parametric family: the population risk is minimised at p_theta = p_*."""
    ou = OrnsteinUhlenbeck(0.8)
    pk = ou.kernel(0.4)
    q = GaussianKernel.local(1, 0.8)

    def risk(th: np.ndarray, loss: str) -> float:
        k = GaussianKernel([[th[0]]], [th[1]], [[math.exp(2 * th[2])]])
        return population_risk(lambda z, zp: k.logpdf(z, zp) - q.logpdf(z, zp), pk, q,
                               ou.stationary, loss=loss, n_nodes=24)  # type: ignore[arg-type]

    for loss in ("cross_entropy", "l2"):
        res = minimize(risk, np.zeros(3), args=(loss,), method="Nelder-Mead",
                       options={"xatol": 1e-9, "fatol": 1e-15, "maxiter": 3000})
        assert res.x[0] == pytest.approx(float(pk.M[0, 0]), abs=1e-4)
        assert abs(res.x[1]) < 1e-4
        assert math.exp(2 * res.x[2]) == pytest.approx(float(pk.S[0, 0]), rel=1e-4)


@pytest.mark.parametrize("model", ["affine", "ou", "quadratic"])
@pytest.mark.parametrize("q_kind", ["pi", "local"])
def test_estimators_are_consistent(model: str, q_kind: str) -> None:
    ou = OrnsteinUhlenbeck([[1.0, 0.3], [0.3, 1.5]])
    q = ou.stationary if q_kind == "pi" else GaussianKernel.local(2, 1.0)
    task = contrastive_task_from_process(ou, 8000, 0.5, q, seed=11)
    if model == "quadratic":
        fit = fit_quadratic_logistic(task, q)
    else:
        fit = fit_gaussian_kernel(task, q, family=model)  # type: ignore[arg-type]
    assert fit.converged
    assert expected_kl(ou.kernel(0.5), fit.kernel, ou.stationary) < 5e-3


def test_quadratic_logistic_normaliser_matches_quadrature(ou: OrnsteinUhlenbeck) -> None:
    q = ou.stationary
    fit = fit_quadratic_logistic(contrastive_task_from_process(ou, 500, 0.5, q, seed=2), q)
    for z in (-1.5, 0.0, 0.8):
        num = integrate.quad(lambda t, z=z: float(np.exp(fit.raw_kernel.logpdf_unnormalized(
            np.array([[z]]), np.array([[t]]))[0])), -30, 30, limit=400)[0]
        assert fit.log_normalizer([[z]])[0] == pytest.approx(math.log(num), abs=1e-8)
    # the normalised Gaussian kernel is eq. 2.12 minus its log normaliser
    z, zp = np.array([[0.4], [-1.0]]), np.array([[0.1], [0.7]])
    np.testing.assert_allclose(fit.kernel.logpdf(z, zp),
                               fit.raw_kernel.logpdf_unnormalized(z, zp) - fit.log_normalizer(z),
                               atol=1e-9)


def test_fits_are_deterministic_and_restarts_use_their_own_stream(ou: OrnsteinUhlenbeck) -> None:
    task = contrastive_task_from_process(ou, 1000, 0.5, ou.stationary, seed=3)
    a = fit_gaussian_kernel(task, ou.stationary)
    b = fit_gaussian_kernel(task, ou.stationary)
    np.testing.assert_array_equal(a.kernel.M, b.kernel.M)
    c = fit_gaussian_kernel(task, ou.stationary, n_restarts=3, seed=9)
    assert c.objective <= a.objective + 1e-12


# -- metrics ----------------------------------------------------------------------------------
class _Wrapped:
    """Hide the GaussianKernel type so that the metrics take the quadrature path."""

    def __init__(self, k: GaussianKernel) -> None:
        self.k = k

    def logpdf(self, z: np.ndarray, zp: np.ndarray) -> np.ndarray:
        return self.k.logpdf(z, zp)


@pytest.mark.parametrize("d", [1, 2])
def test_expected_kl_closed_form_equals_quadrature(d: int) -> None:
    rng = np.random.default_rng(d)
    ou = OrnsteinUhlenbeck(np.eye(d) * 1.2)
    pk = ou.kernel(0.6)
    other = GaussianKernel(pk.M + 0.1 * rng.standard_normal((d, d)), 0.1 * rng.standard_normal(d),
                           pk.S * 1.3)
    closed = expected_kl(pk, other, ou.stationary)
    quad = expected_kl(pk, _Wrapped(other), ou.stationary, n_nodes=20)
    assert closed == pytest.approx(quad, rel=QUAD_RTOL)
    assert closed > 0


def test_metrics_vanish_at_the_truth_and_are_positive_elsewhere(ou: OrnsteinUhlenbeck) -> None:
    pk, q = ou.kernel(0.5), GaussianKernel.local(1, 1.0)
    assert expected_abs_error(pk, pk, ou.stationary) == 0.0
    bayes = lambda z, zp: pk.logpdf(z, zp) - q.logpdf(z, zp)  # noqa: E731
    assert excess_risk(pk, bayes, q, ou.stationary) == pytest.approx(0.0, abs=1e-15)
    worse = lambda z, zp: bayes(z, zp) + 0.2  # noqa: E731
    ex_l2 = excess_risk(pk, worse, q, ou.stationary)
    ex_ce = excess_risk(pk, worse, q, ou.stationary, loss="cross_entropy")
    r_l2 = population_risk(worse, pk, q, ou.stationary, loss="l2") - population_risk(
        bayes, pk, q, ou.stationary, loss="l2")
    r_ce = population_risk(worse, pk, q, ou.stationary) - population_risk(bayes, pk, q,
                                                                          ou.stationary)
    assert ex_l2 == pytest.approx(r_l2, rel=1e-8)     # eq. 2.10: excess = E(h - h*)^2
    assert ex_ce == pytest.approx(r_ce, rel=1e-8)
    assert ex_l2 > 0 and ex_ce > 0


def test_abs_error_against_monte_carlo(ou: OrnsteinUhlenbeck) -> None:
    pk = ou.kernel(0.5)
    other = GaussianKernel([[0.55]], [0.05], [[0.7]])
    rng = np.random.default_rng(0)
    z = ou.sample_stationary(200_000, rng)
    zp = pk.sample(z, rng)
    vals = np.abs(other.pdf(z, zp) - pk.pdf(z, zp))
    mc, se = vals.mean(), vals.std() / math.sqrt(vals.size)
    assert abs(expected_abs_error(pk, other, ou.stationary) - mc) < 5 * se


# -- proof quantities -------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(u=st.floats(0.05, 20), d=st.floats(-0.95, 0.9))
def test_r_second_derivative_matches_finite_differences(u: float, d: float) -> None:
    h = 1e-4
    fd = (r_function(u, d + h) - 2 * r_function(u, d) + r_function(u, d - h)) / h**2
    assert float(r_second_derivative(u, d)) == pytest.approx(float(fd), rel=1e-5, abs=1e-8)


def test_theorem_chains_at_and_near_the_truth() -> None:
    P = np.array([[0.5, 0.3, 0.2], [0.2, 0.6, 0.2], [0.3, 0.3, 0.4]])
    q = np.array([0.3, 0.4, 0.3])
    t = theorem2_chain(P, P, q)
    assert t.kl == 0 and t.excess == 0 and t.delta_min == t.delta_max == 1
    t3 = theorem3_chain(P, P, q)
    assert t3.abs_error == 0 and t3.factor > 0
    with pytest.raises(ValueError, match="zero probability"):
        theorem2_chain(P, P, np.array([0.0, 0.5, 0.5]))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pair_sequence_beta_equals_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.ones(3), size=3)
    q = rng.dirichlet(np.ones(3))
    ch = FiniteStateChain(P)
    for k in (1, 2):
        b = pair_sequence_beta(P, q, k)
        assert b == pytest.approx(_pair_beta_brute_force(P, q, k), abs=1e-12)
        assert ch.beta_mixing(2 * k) - 1e-12 <= b <= 0.5 * (ch.beta_mixing(2 * k - 1)
                                                             + ch.beta_mixing(2 * k)) + 1e-12


def test_theorem3_factor_closed_form_vs_quadrature_and_divergence() -> None:
    ou = OrnsteinUhlenbeck(1.0)
    for eta in (0.05, 0.1):
        pk, q = ou.kernel(eta), GaussianKernel.local(1, eta)
        exact = theorem3_factor_gaussian(pk, q, ou.stationary)
        assert theorem3_factor(pk, pk, q, ou.stationary, n_nodes=80) == pytest.approx(exact,
                                                                                      rel=1e-6)
    # q = pi: infinite iff rho*eta < ln(8/3)/2 (derivation in CL-8)
    assert math.isinf(theorem3_factor_gaussian(ou.kernel(0.48), ou.stationary, ou.stationary))
    assert math.isfinite(theorem3_factor_gaussian(ou.kernel(0.5), ou.stationary, ou.stationary))


def test_expected_norm_bounds_values() -> None:
    b = expected_norm_bounds(OrnsteinUhlenbeck(2.0 * np.eye(2)))
    assert b["corrected"] == pytest.approx(math.sqrt(2 / 2.0), rel=1e-12)    # = sqrt(d/rho)
    assert b["printed"] == pytest.approx(2.0 / (2 * math.pi) * 1.0, rel=1e-12)


# -- maximum likelihood -----------------------------------------------------------------------
def test_ou_mle_maximises_the_likelihood() -> None:
    ou = OrnsteinUhlenbeck([[1.5, 0.4], [0.4, 0.8]])
    x = ou.simulate(5000, 0.3, seed=8)
    fit = fit_ou_mle(x, 0.3)
    a, b = x[:-1], x[1:]

    def ll(A: np.ndarray) -> float:
        return float(np.sum(OrnsteinUhlenbeck(A).kernel(0.3).logpdf(a, b)))

    assert fit.log_likelihood >= ll(ou.A) - 1e-6
    rng = np.random.default_rng(0)
    for _ in range(5):
        E = 0.02 * rng.standard_normal((2, 2))
        assert fit.log_likelihood >= ll(fit.process.A + E + E.T) - 1e-6
    assert np.max(np.abs(fit.process.A - ou.A)) < 0.25


def test_gaussian_ar_is_least_squares() -> None:
    ou = OrnsteinUhlenbeck(0.7)
    x = ou.simulate(3000, 0.5, seed=1)
    k = fit_gaussian_ar(x, 0.5)
    slope, intercept = np.polyfit(x[:-1, 0], x[1:, 0], 1)
    assert float(k.M[0, 0]) == pytest.approx(slope, rel=1e-10)
    assert float(k.c[0]) == pytest.approx(intercept, rel=1e-8, abs=1e-12)
    res = x[1:, 0] - slope * x[:-1, 0] - intercept
    assert float(k.S[0, 0]) == pytest.approx(np.mean(res**2), rel=1e-10)
    kd = fit_gaussian_ar(x, 0.5, transitions="disjoint")
    slope_d = np.polyfit(x[0:3000:2, 0], x[1:3000:2, 0], 1)[0]
    assert float(kd.M[0, 0]) == pytest.approx(slope_d, rel=1e-10)
    bad = x.copy()
    bad[3] = np.inf
    with pytest.raises(ValueError, match="NaN or infinite"):
        fit_ou_mle(bad, 0.5)


def test_gauss_hermite_rule_is_exact_for_polynomials() -> None:
    x, w = gauss_hermite_rule([1.0, -1.0], [[2.0, 0.5], [0.5, 1.0]], n_nodes=6)
    assert w.sum() == pytest.approx(1.0, rel=1e-13)
    assert w @ (x[:, 0] * x[:, 1]) == pytest.approx(0.5 - 1.0, rel=1e-12)
    assert w @ x[:, 0] ** 4 == pytest.approx(1 + 6 * 2 + 3 * 4, rel=1e-12)
