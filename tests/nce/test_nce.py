"""NCE / eNCE population landscape for 1-D Gaussian mean estimation (seed 004 §4.1)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.optimize import minimize
from scipy.special import expit
from scipy.stats import norm

from identifiability.nce import GaussianMeanNCE, bhattacharyya_coefficient, run_gradient_method

FD_STEP = 1e-5
FD_RTOL = 1e-6
QUAD_RTOL = 1e-9

taus = st.tuples(st.floats(-3, 10), st.floats(-5, 40))


def _direct_nce_loss(prob: GaussianMeanNCE, tau: np.ndarray) -> float:
    """Definition 19 integrated by scipy.quad, straight from the densities."""
    b, c = tau

    def logp(x: float) -> float:
        return -x * x / 2 + b * x - c

    def f_star(x: float) -> float:
        return norm.pdf(x, prob.theta_star) * float(np.logaddexp(0, norm.logpdf(x, prob.theta_q)
                                                                 - logp(x)))

    def f_q(x: float) -> float:
        return norm.pdf(x, prob.theta_q) * float(np.logaddexp(0, logp(x)
                                                              - norm.logpdf(x, prob.theta_q)))

    lo, hi = min(prob.theta_q, prob.theta_star) - 30, max(prob.theta_q, prob.theta_star) + 30
    pts = [prob.theta_q, prob.theta_star]
    return 0.5 * (integrate.quad(f_star, lo, hi, points=pts, limit=400, epsrel=1e-12)[0]
                  + integrate.quad(f_q, lo, hi, points=pts, limit=400, epsrel=1e-12)[0])


@settings(max_examples=25, deadline=None)
@given(R=st.floats(0.5, 8.0), tau=taus)
def test_nce_loss_matches_direct_quadrature(R: float, tau: tuple[float, float]) -> None:
    prob = GaussianMeanNCE(R)
    t = np.array(tau)
    assert prob.loss(t) == pytest.approx(_direct_nce_loss(prob, t), rel=1e-8, abs=1e-13)


@settings(max_examples=25, deadline=None)
@given(R=st.floats(0.5, 8.0), tau=taus, kind=st.sampled_from(["nce", "ence"]))
def test_gradient_and_hessian_match_finite_differences(R: float, tau: tuple[float, float],
                                                       kind: str) -> None:
    prob = GaussianMeanNCE(R, theta_q=0.3)
    t = np.array(tau)
    g = prob.gradient(t, kind=kind)  # type: ignore[arg-type]
    H = prob.hessian(t, kind=kind)  # type: ignore[arg-type]
    scale_g = max(float(np.max(np.abs(g))), 1e-300)
    scale_h = max(float(np.max(np.abs(H))), 1e-300)
    for i in range(2):
        e = np.zeros(2)
        e[i] = FD_STEP
        fd = (prob.loss(t + e, kind=kind) - prob.loss(t - e, kind=kind)) / (2 * FD_STEP)  # type: ignore[arg-type]
        fdg = (prob.gradient(t + e, kind=kind) - prob.gradient(t - e, kind=kind)) / (2 * FD_STEP)  # type: ignore[arg-type]
        assert abs(fd - g[i]) <= FD_RTOL * max(scale_g, abs(prob.loss(t, kind=kind)))  # type: ignore[arg-type]
        assert np.max(np.abs(fdg - H[:, i])) <= FD_RTOL * max(scale_h, scale_g)
    assert np.linalg.eigvalsh(H)[0] >= -1e-14 * scale_h      # convex (Lemma 45, eq. 4.12)


@settings(max_examples=30, deadline=None)
@given(R=st.floats(0.1, 30.0), tau=taus, s=st.floats(0, 50))
def test_ence_quadrature_equals_closed_form(R: float, tau: tuple[float, float], s: float) -> None:
    prob = GaussianMeanNCE(R)
    t = np.array(tau)
    for q in ("loss", "gradient", "hessian"):
        f = getattr(prob, q)
        try:
            closed = np.asarray(f(t, kind="ence", method="closed_form", scale_exponent=s))
        except OverflowError:
            continue
        quad = np.asarray(f(t, kind="ence", scale_exponent=s))
        np.testing.assert_allclose(quad, closed, rtol=QUAD_RTOL,
                                   atol=1e-12 * np.max(np.abs(closed)))


@pytest.mark.parametrize("R", [0.5, 2.0, 6.0, 16.0, 40.0])
@pytest.mark.parametrize("kind", ["nce", "ence"])
def test_minimiser_is_the_truth(R: float, kind: str) -> None:
    """Lemma 44 / Definition 20: the population loss is minimised at tau_* (gradient 0, PD
    Hessian), and a numerical minimisation from tau_q lands there."""
    prob = GaussianMeanNCE(R)
    s = R * R / 8
    g = prob.gradient(prob.tau_star, kind=kind, scale_exponent=s)  # type: ignore[arg-type]
    H = prob.hessian(prob.tau_star, kind=kind, scale_exponent=s)  # type: ignore[arg-type]
    assert np.max(np.abs(g)) < 1e-10 * np.max(np.abs(H))
    assert np.linalg.eigvalsh(H)[0] > 0
    if R <= 16:
        res = minimize(lambda t: prob.loss(t, kind=kind, scale_exponent=s),  # type: ignore[arg-type]
                       prob.tau_q, jac=lambda t: prob.gradient(t, kind=kind, scale_exponent=s),  # type: ignore[arg-type]
                       method="BFGS", options={"gtol": 1e-12, "maxiter": 500})
        assert np.linalg.norm(res.x - prob.tau_star) < 1e-3 * (1 + R)


@pytest.mark.parametrize("theta_star,theta_q", [(4.0, 0.0), (-1.0, 2.5), (10.0, 3.0)])
def test_values_at_tau_q(theta_star: float, theta_q: float) -> None:
    """P = Q: L = log 2 (Proposition 7) and H = (E_*[TT^T] + E_Q[TT^T]) / 8 (exactly)."""
    prob = GaussianMeanNCE(theta_star, theta_q)
    assert prob.loss(prob.tau_q) == pytest.approx(math.log(2), rel=1e-13)
    ET = np.array([[2 + theta_star**2 + theta_q**2, -(theta_star + theta_q)],
                   [-(theta_star + theta_q), 2.0]])
    np.testing.assert_allclose(prob.hessian(prob.tau_q), ET / 8, rtol=1e-11, atol=1e-13)


@settings(max_examples=20, deadline=None)
@given(R=st.floats(0.5, 6.0), a=st.floats(-5, 5), tau=taus)
def test_translation_and_reflection_invariance(R: float, a: float, tau: tuple[float, float]
                                               ) -> None:
    """Shifting x by a maps tau = [b, c] to [b + a, c + a b + a^2/2]; reflecting x maps it to
    [-b, c]; the loss is unchanged."""
    b, c = tau
    base = GaussianMeanNCE(R, 0.0)
    shifted = GaussianMeanNCE(R + a, a)
    reflected = GaussianMeanNCE(-R, 0.0)
    L = base.loss([b, c])
    assert shifted.loss([b + a, c + a * b + a * a / 2]) == pytest.approx(L, rel=1e-9, abs=1e-14)
    assert reflected.loss([-b, c]) == pytest.approx(L, rel=1e-9, abs=1e-14)


def test_large_R_is_stable_with_scaling_and_refuses_silent_underflow() -> None:
    prob = GaussianMeanNCE(100.0)
    H = prob.hessian(prob.tau_star, scale_exponent=100.0**2 / 8)
    ev = np.linalg.eigvalsh(H)
    assert np.all(np.isfinite(H)) and ev[0] > 0
    assert ev[0] * 100.0**5 == pytest.approx(24.7, rel=0.02)     # sigma_min ~ 24.7 R^-5 e^{-R^2/8}
    with pytest.raises(FloatingPointError, match="underflow"):
        prob.hessian(prob.tau_star)
    with pytest.raises(OverflowError):
        GaussianMeanNCE(2.0).loss([2.0, 3.0], scale_exponent=2000.0)


def test_nce_hessian_weight_is_the_printed_one() -> None:
    """Lemma 45: the Hessian weight (p_*+q) p q/(p+q)^2 equals (p_*+q) sigma(psi) sigma(-psi)."""
    prob = GaussianMeanNCE(3.0)
    tau = np.array([1.0, 2.0])
    x = np.linspace(-12, 15, 200_001)
    p = np.exp(-x**2 / 2 + tau[0] * x - tau[1])
    ps, q = norm.pdf(x, 3.0), norm.pdf(x, 0.0)
    w = (ps + q) * p * q / (p + q) ** 2
    T = np.stack([x, -np.ones_like(x)])
    H_direct = 0.5 * np.array([[np.trapezoid(w * T[i] * T[j], x) for j in range(2)]
                               for i in range(2)])
    np.testing.assert_allclose(prob.hessian(tau), H_direct, rtol=1e-8)
    psi = np.log(p) - np.log(q)
    np.testing.assert_allclose(w, (ps + q) * expit(psi) * expit(-psi), rtol=1e-10)


def test_bhattacharyya_closed_form() -> None:
    for t1, t2 in [(0.0, 1.0), (2.0, -3.0)]:
        num = integrate.quad(lambda x, t1=t1, t2=t2: math.sqrt(norm.pdf(x, t1) * norm.pdf(x, t2)),
                             -40, 40, limit=400)[0]
        assert bhattacharyya_coefficient(t1, t2) == pytest.approx(num, rel=1e-10)


def test_gd_stalls_and_ngd_moves_by_exactly_the_step() -> None:
    prob = GaussianMeanNCE(6.0)
    ngd = run_gradient_method(prob, method="ngd", step=0.5, n_steps=1000)
    steps = np.linalg.norm(np.diff(ngd.taus, axis=0), axis=1)
    np.testing.assert_allclose(steps, 0.5, rtol=1e-12)
    assert ngd.best_distance() < 0.5 < ngd.distances[0]
    best = [ngd.best_distance(t) for t in range(0, 1001, 100)]
    assert all(b1 >= b2 for b1, b2 in itertools.pairwise(best))
    lam = float(np.linalg.eigvalsh(prob.hessian(prob.tau_q))[-1])
    gd = run_gradient_method(prob, method="gd", step=1 / lam, n_steps=400)
    assert gd.best_distance() > 0.5 * gd.distances[0]


def test_refusals() -> None:
    prob = GaussianMeanNCE(2.0)
    with pytest.raises(ValueError, match="kind"):
        prob.loss(prob.tau_q, kind="bogus")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tau"):
        prob.loss([1.0, np.nan])
    with pytest.raises(ValueError, match="closed forms"):
        prob.loss(prob.tau_q, method="closed_form")
    with pytest.raises(ValueError, match="step"):
        run_gradient_method(prob, step=0.0, n_steps=3)
    with pytest.raises(ValueError, match="finite"):
        GaussianMeanNCE(float("inf"))


def test_a_negligible_underflowing_half_does_not_raise() -> None:
    """At tau = [0, 2000] the noise half is e^{-1999} (underflows) and the data half is ~1000:
    psi = -2000 + log sqrt(2 pi) is constant, so L = softplus(-psi)/2 + softplus(psi)/2."""
    prob = GaussianMeanNCE(80.0)
    psi = -2000.0 + 0.5 * math.log(2 * math.pi)
    assert prob.loss([0.0, 2000.0]) == pytest.approx(0.5 * -psi, rel=1e-12)
