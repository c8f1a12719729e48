"""Shared measurements of the NCE claims (seed 004 §4.1.3, :math:`P_* = \\mathcal N(R, 1)`,
:math:`Q = \\mathcal N(0, 1)`): the Hessian at the optimum by an independent quadrature, the
gradient's decay on the annulus of Lemma 49 and at its worst point, and the extreme eigenvalues of
:math:`E_\\theta[T T^T]` over :math:`\\Theta = [0, R]`.  Used by the landscape checks and by the
gradient-method checks (:mod:`paper_checks.claims.nce.landscape`,
:mod:`paper_checks.claims.nce.ngd`).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
from scipy import integrate

from identifiability.nce import GaussianMeanNCE

SQRT_2PI = math.sqrt(2 * math.pi)


def phi(y: float) -> float:
    """The standard normal density."""
    return math.exp(-0.5 * y * y) / SQRT_2PI


@cache
def hessian_star_independent(R: float) -> np.ndarray:
    """e^{R^2/8} * Hessian at tau_* by scipy quad of phi(y)/(2cosh(Ry/2)) moments in x."""
    def w(y: float) -> float:
        a = abs(R * y) / 2
        return phi(y) * math.exp(-a) / (1 + math.exp(-2 * a))    # phi / (2 cosh(Ry/2))

    m = [integrate.quad(lambda y, k=k: w(y) * (R / 2 + y) ** k, -40, 40, points=[0.0],
                        limit=500, epsabs=0, epsrel=1e-12)[0] for k in range(3)]
    return 0.5 * np.array([[m[2], -m[1]], [-m[1], m[0]]])


@cache
def annulus_kappas(R: float) -> tuple[float, float, float]:
    prob = GaussianMeanNCE(R)
    centre = np.array([R, R * R / 2])           # the annulus as printed
    kappas = []
    claim6 = 0.0
    for rad in (0.1 * R, 0.15 * R, 0.2 * R):
        for a in np.linspace(0, 2 * np.pi, 72, endpoint=False):
            tau = centre + rad * np.array([np.cos(a), np.sin(a)])
            g = prob.gradient(tau, scale_exponent=R * R / 8)       # e^{R^2/8} grad L
            u = prob.tau_star - tau
            u /= np.linalg.norm(u)
            proj = abs(float(g @ u))
            # |<grad, u>| = proj e^{-R^2/8} = e^{-kappa R^2 / 8}
            kappas.append(1 - 8 * math.log(proj) / (R * R))
            claim6 = max(claim6, float(np.linalg.norm(g)) * math.exp(-R * R / 8)
                         / (32 * max(R, abs(tau[0]))))
    return min(kappas), float(np.median(kappas)), claim6


def theta_lambdas(R: float) -> tuple[float, float]:
    """Extreme eigenvalues of E_theta[T T^T] = [[theta^2+1, -theta], [-theta, 1]] over [0, R]."""
    lp = ((R * R + 2) + math.sqrt((R * R + 2) ** 2 - 4)) / 2
    return lp, 1 / lp


def kappa_at_worst_point(R: float) -> float:
    """-8 log |<grad L, u>| / R^2 at (b, c) = (0.8R, R^2/2), u towards tau_*, with grad L =
    1/2 int q/(p+q) (p - p_*) T dx (Lemma 45) by scipy quad in y = x - R/2, scaled by
    e^{R^2/8} (written here)."""
    b, c = 0.8 * R, R * R / 2 + math.log(SQRT_2PI)
    tau = np.array([b, c])
    u = np.array([R, R * R / 2 + math.log(SQRT_2PI)]) - tau
    u /= np.linalg.norm(u)
    # psi(x) = log p - log q = b x - c + log sqrt(2 pi); p = q e^psi, p_* = q e^{Rx - R^2/2}
    def g(x: float, k: int) -> float:
        psi = b * x - c + math.log(SQRT_2PI)
        lq = -x * x / 2 - math.log(SQRT_2PI) + R * R / 8        # scaled by e^{R^2/8}
        w = math.exp(lq + psi - float(np.logaddexp(0.0, psi)))   # q p/(p+q)
        ws = math.exp(lq + R * x - R * R / 2 - float(np.logaddexp(0.0, psi)))  # q p_*/(p+q)
        return 0.5 * (w - ws) * (x if k == 0 else -1.0)

    grad = np.array([integrate.quad(lambda x, k=k: g(x, k), -40, R + 40, points=[c / b, R / 2],
                                    limit=400)[0] for k in range(2)])
    proj = abs(float(grad @ u))
    return 1 - 8 * math.log(proj) / (R * R)
