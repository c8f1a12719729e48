"""Processes of seed 004 §2.1: OU closed forms vs simulation, Euler–Maruyama bias, finite chains."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.special import gamma
from scipy.stats import norm

from identifiability.contrastive.kernels import GaussianKernel, gaussian_tv_1d
from identifiability.contrastive.processes import (
    FiniteStateChain,
    LangevinDiffusion,
    OrnsteinUhlenbeck,
)

N_SE = 5.0            # statistical tolerance: this many standard errors
CLOSED_FORM_RTOL = 1e-10


def random_spd(rng: np.random.Generator, d: int) -> np.ndarray:
    G = rng.standard_normal((d, d))
    return G @ G.T + 0.3 * np.eye(d)


# -- OU closed forms --------------------------------------------------------------------------
@pytest.mark.parametrize("d", [1, 2, 3])
def test_ou_one_step_regression_matches_kernel(d: int) -> None:
    """Least squares of x_{t+eta} on x_t recovers e^{-A eta}; residual covariance the kernel's."""
    rng = np.random.default_rng(d)
    ou = OrnsteinUhlenbeck(random_spd(rng, d))
    eta = 0.3
    x = ou.simulate(200_001, eta, seed=10 + d)
    a, b = x[:-1], x[1:]
    coef, *_ = np.linalg.lstsq(a, b, rcond=None)
    M_hat = coef.T
    S_hat = np.cov((b - a @ coef).T).reshape(d, d)
    M, S = ou.transition_matrix(eta), ou.transition_cov(eta)
    # standard errors of regression coefficients ~ sqrt(S_ii / (n Var x_j)); use a loose bound
    se = math.sqrt(np.max(np.diag(S)) / (len(a) * np.min(np.linalg.eigvalsh(ou.stationary_cov))))
    assert np.max(np.abs(M_hat - M)) < N_SE * se
    assert np.max(np.abs(S_hat - S)) < N_SE * np.max(np.diag(S)) * math.sqrt(2 / len(a)) * d
    # stationarity of the simulated path: its covariance is A^{-1}
    C = np.cov(x.T).reshape(d, d)
    assert np.max(np.abs(C - ou.stationary_cov)) < 0.05 * np.max(np.diag(ou.stationary_cov))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), d=st.integers(1, 3),
       e1=st.floats(0.01, 2.0), e2=st.floats(0.01, 2.0))
def test_ou_kernel_semigroup_and_stationarity(seed: int, d: int, e1: float, e2: float) -> None:
    """Chapman–Kolmogorov: K(e1) then K(e2) is K(e1 + e2); pi is invariant."""
    ou = OrnsteinUhlenbeck(random_spd(np.random.default_rng(seed), d))
    M1, S1 = ou.transition_matrix(e1), ou.transition_cov(e1)
    M2, S2 = ou.transition_matrix(e2), ou.transition_cov(e2)
    M12, S12 = ou.transition_matrix(e1 + e2), ou.transition_cov(e1 + e2)
    np.testing.assert_allclose(M2 @ M1, M12, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(M2 @ S1 @ M2.T + S2, S12, rtol=1e-9, atol=1e-12)
    P = ou.stationary_cov
    np.testing.assert_allclose(M1 @ P @ M1.T + S1, P, rtol=1e-9, atol=1e-12)


def test_ou_small_and_large_eta_limits() -> None:
    ou = OrnsteinUhlenbeck([[2.0, 0.5], [0.5, 1.0]])
    # A^{-1}(I - e^{-2A eta}) = 2 eta (I - A eta + ...): relative error O(eta)
    np.testing.assert_allclose(ou.transition_cov(1e-9) / 2e-9, np.eye(2), atol=1e-8)
    np.testing.assert_allclose(ou.transition_cov(50.0), ou.stationary_cov, rtol=1e-12)


@pytest.mark.parametrize("rho,d", [(0.5, 1), (1.0, 1), (3.0, 1), (1.0, 2), (2.0, 3), (0.7, 5)])
def test_expected_norm_isotropic_closed_form(rho: float, d: int) -> None:
    """E||x|| for N(0, I/rho) is sqrt(2/rho) Gamma((d+1)/2)/Gamma(d/2)."""
    b_norm = OrnsteinUhlenbeck(rho * np.eye(d)).expected_norm()
    assert b_norm == pytest.approx(math.sqrt(2 / rho) * gamma((d + 1) / 2) / gamma(d / 2),
                                   rel=1e-9)


def test_expected_norm_rotation_invariant_and_monte_carlo() -> None:
    rng = np.random.default_rng(3)
    A = random_spd(rng, 3)
    Q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    b1 = OrnsteinUhlenbeck(A).expected_norm()
    b2 = OrnsteinUhlenbeck(Q @ A @ Q.T).expected_norm()
    assert b1 == pytest.approx(b2, rel=1e-9)
    norms = np.linalg.norm(OrnsteinUhlenbeck(A).sample_stationary(200_000, seed=1), axis=1)
    assert abs(norms.mean() - b1) < N_SE * norms.std() / math.sqrt(norms.size)


def test_pi_at_mode() -> None:
    ou = OrnsteinUhlenbeck([[2.0, 0.3], [0.3, 1.0]])
    assert ou.stationary_density_at_mode() == pytest.approx(
        float(np.exp(ou.stationary.logpdf(np.zeros(2), np.zeros(2)))), rel=1e-12)


def test_ou_tv_matches_quadrature_and_beta_decreases() -> None:
    ou = OrnsteinUhlenbeck(1.3)
    sd = math.sqrt(1 / 1.3)
    for z, t in [(0.0, 0.2), (1.5, 0.7), (-3.0, 2.0)]:
        k = ou.kernel(t)
        m, s = float(k.M[0, 0]) * z, math.sqrt(float(k.S[0, 0]))
        num = 0.5 * integrate.quad(
            lambda x, m=m, s=s: abs(norm.pdf(x, m, s) - norm.pdf(x, 0, sd)),
            -15, 15, points=[m], limit=400)[0]
        assert ou.tv_to_stationary(z, t) == pytest.approx(num, abs=1e-8)
    betas = [ou.beta_mixing(t) for t in (0.1, 0.5, 1.0, 3.0)]
    assert all(b1 > b2 for b1, b2 in itertools.pairwise(betas))


@settings(max_examples=15, deadline=None)
@given(m1=st.floats(-3, 3), s1=st.floats(0.2, 3), m2=st.floats(-3, 3), s2=st.floats(0.2, 3))
def test_gaussian_tv_1d_against_quadrature(m1: float, s1: float, m2: float, s2: float) -> None:
    """Brute force: trapezoid on a fine grid (kinks cost O(dx^2) ~ 1e-8)."""
    x = np.linspace(-30, 30, 600_001)
    num = 0.5 * float(np.trapezoid(np.abs(norm.pdf(x, m1, s1) - norm.pdf(x, m2, s2)), x))
    assert gaussian_tv_1d(m1, s1, m2, s2) == pytest.approx(num, abs=1e-7)


def test_simulation_is_seeded() -> None:
    ou = OrnsteinUhlenbeck(1.0)
    np.testing.assert_array_equal(ou.simulate(50, 0.1, seed=4), ou.simulate(50, 0.1, seed=4))
    assert not np.array_equal(ou.simulate(50, 0.1, seed=4), ou.simulate(50, 0.1, seed=5))


@pytest.mark.parametrize("A,match", [
    ([[1.0, 0.5], [0.0, 1.0]], "symmetric"),
    ([[1.0, 0.0], [0.0, -0.1]], "positive definite"),
    ([[0.0]], "positive definite"),
    ([[np.nan]], "NaN"),
])
def test_ou_refuses_bad_A(A: list[list[float]], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        OrnsteinUhlenbeck(A)


@pytest.mark.parametrize("eta", [0.0, -1.0, float("nan"), float("inf")])
def test_refuses_bad_eta(eta: float) -> None:
    with pytest.raises(ValueError, match="eta"):
        OrnsteinUhlenbeck(1.0).simulate(5, eta)
    with pytest.raises(ValueError, match="eta"):
        OrnsteinUhlenbeck(1.0).kernel(eta)


def test_refuses_nan_start() -> None:
    with pytest.raises(ValueError, match="NaN"):
        OrnsteinUhlenbeck(1.0).simulate(5, 0.1, x0=[np.nan])


# -- Langevin diffusion -----------------------------------------------------------------------
def test_euler_maruyama_bias_is_the_documented_one() -> None:
    """For grad f = rho x the EM chain's stationary variance is 1/(rho(1 - rho h/2))."""
    rho, h, n_chains = 1.0, 0.2, 20_000
    lang = LangevinDiffusion(lambda x: rho * x, dim=1, max_substep=h)
    x = lang.simulate(2, eta=h, x0=np.zeros((n_chains, 1)), seed=0, burn_in=10.0)
    v = float(np.var(x[-1]))
    se = v * math.sqrt(2 / n_chains)
    assert abs(v - 1 / (rho * (1 - rho * h / 2))) < N_SE * se
    assert abs(v - 1 / rho) > N_SE * se            # the bias is visible at this step size
    # one-lag correlation is (1 - rho h)^k, not e^{-rho eta}
    lag = np.corrcoef(x[0, :, 0], x[1, :, 0])[0, 1]
    assert abs(lag - (1 - rho * h)) < N_SE / math.sqrt(n_chains)


def test_langevin_fine_step_approaches_ou() -> None:
    lang = LangevinDiffusion(lambda x: 2.0 * x, dim=1, max_substep=1e-3)
    k, h = lang.substeps(0.25)
    assert k == 250 and h == pytest.approx(1e-3)
    x = lang.simulate(3, eta=0.25, x0=np.zeros((4000, 1)), seed=1, burn_in=3.0)
    assert abs(float(np.var(x[-1])) - 0.5 / (1 - 1e-3)) < N_SE * 0.5 * math.sqrt(2 / 4000)


def test_langevin_blow_up_is_reported() -> None:
    lang = LangevinDiffusion(lambda x: 1000.0 * x, dim=1, max_substep=0.01)
    with pytest.raises(ValueError, match="non-finite"):
        lang.simulate(200, eta=0.1, x0=[1.0], seed=0)


# -- finite-state chains ----------------------------------------------------------------------
def test_finite_chain_stationary_and_beta() -> None:
    rng = np.random.default_rng(7)
    P = rng.dirichlet(np.ones(5), size=5)
    ch = FiniteStateChain(P)
    np.testing.assert_allclose(ch.stationary @ P, ch.stationary, atol=1e-13)
    betas = [ch.beta_mixing(k) for k in range(1, 6)]
    assert all(b1 >= b2 for b1, b2 in itertools.pairwise(betas))
    manual = sum(ch.stationary[i] * 0.5 * np.abs(np.linalg.matrix_power(P, 3)[i]
                                                 - ch.stationary).sum() for i in range(5))
    assert ch.beta_mixing(3) == pytest.approx(manual, rel=1e-12)
    x = ch.simulate(100_000, seed=2)
    freq = np.bincount(x, minlength=5) / x.size
    assert np.max(np.abs(freq - ch.stationary)) < 0.01


@pytest.mark.parametrize("P,match", [
    ([[0.5, 0.4], [0.5, 0.5]], "row-stochastic"),
    ([[1.2, -0.2], [0.5, 0.5]], "negative"),
    ([[1.0, 0.0], [0.0, 1.0]], "more than one stationary"),
    ([[0.5, 0.5]], "square"),
])
def test_finite_chain_refusals(P: list[list[float]], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        FiniteStateChain(P).stationary  # noqa: B018


def test_gaussian_kernel_refuses_bad_covariance() -> None:
    with pytest.raises(ValueError, match="positive definite"):
        GaussianKernel([[0.0]], [0.0], [[-1.0]])
    with pytest.raises(ValueError, match="shape"):
        GaussianKernel.local(2, 1.0).logpdf(np.zeros((3, 1)), np.zeros((3, 1)))
