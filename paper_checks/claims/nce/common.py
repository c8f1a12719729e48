"""Shared measurements of the NCE claims (004 §4.1.3, :math:`P_* = \\mathcal N(R, 1)`,
:math:`Q = \\mathcal N(0, 1)`): the Hessian at the optimum by an independent quadrature, the
gradient's decay on the annulus of Lemma 49 and at its worst point, and the extreme eigenvalues of
:math:`E_\\theta[T T^T]` over :math:`\\Theta = [0, R]`.  Used by the landscape checks and by the
gradient-method checks (:mod:`paper_checks.claims.nce.landscape`,
:mod:`paper_checks.claims.nce.ngd`).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any, Literal

import numpy as np
from scipy import integrate

from identifiability.nce import GaussianMeanNCE, run_gradient_method
from paper_checks.defence import Attack, AttackOutcome
from paper_checks.parameters import Printed, PrintedParameters

SQRT_2PI = math.sqrt(2 * math.pi)
LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


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


@cache
def assumption15_constants(R: float, kind: Literal["nce", "ence"]) -> tuple[float, float, float]:
    """(beta_u, beta_l, kappa_*) of Assumption 15 measured on the ball of radius 1/beta_Z = 1/R
    around tau_* (16 directions x radii 1/(2R), 1/R); Hessians scaled by e^{R^2/8}."""
    prob = GaussianMeanNCE(R)
    s8 = R * R / 8
    ev = np.linalg.eigvalsh(np.asarray(prob.hessian(prob.tau_star, kind=kind,
                                                    scale_exponent=s8), dtype=float))
    up, low = 0.0, math.inf
    for a in np.linspace(0, 2 * np.pi, 16, endpoint=False):
        for r in (0.5 / R, 1.0 / R):
            H = prob.hessian(prob.tau_star + r * np.array([np.cos(a), np.sin(a)]), kind=kind,
                             scale_exponent=s8)
            e = np.linalg.eigvalsh(np.asarray(H, dtype=float))
            up, low = max(up, e[-1] / ev[-1]), min(low, e[0] / ev[0])
    return up, low, float(ev[-1] / ev[0])


def steps_to(R: float, method: Literal["gd", "ngd"], step: float, target: float, cap: int,
             kind: Literal["nce", "ence"] = "nce", chunk: int = 5_000) -> int | None:
    """The first t <= cap with ||tau_t - tau_*|| <= target for (normalised) gradient descent
    with a fixed step from tau_q on the population (e)NCE loss, run in chunks so that a long run
    stops when it arrives; None when it does not arrive within ``cap`` steps (the caller must
    not read a count into it)."""
    prob = GaussianMeanNCE(R)
    tau, done = prob.tau_q, 0
    while done < cap:
        n = min(chunk, cap - done)
        trace = run_gradient_method(prob, kind=kind, method=method, step=step, n_steps=n,
                                    tau0=tau)
        hit = np.nonzero(trace.distances <= target)[0]
        if hit.size:
            return done + int(hit[0])
        tau, done = trace.taus[-1], done + n
    return None


def lambda_M(R: float, n: int = 41) -> float:
    """max over theta in Theta = [0, R] of sigma_max(Hessian at tau(theta)) (Theorem 17's note)."""
    prob = GaussianMeanNCE(R)
    return max(float(np.linalg.eigvalsh(prob.hessian(GaussianMeanNCE.tau(th)))[-1])
               for th in np.linspace(0.0, R, n))


def sigma_max_fisher(theta: float) -> float:
    """sigma_max(E_theta[T T^T]) with T = [x, -1]: E_theta[T T^T] = [[theta^2+1, -theta],
    [-theta, 1]] (unit-variance Gaussian of mean theta)."""
    s = theta * theta + 2
    return (s + math.sqrt(s * s - 4)) / 2


#: The printed experimental parameters and definitions of §4.1 that the NCE claims use (one
#: table per paper folder; claims read it, or deviate from it with a reason).
PARAMETERS = PrintedParameters(
    "004 §4.1",
    theta_q=Printed(0.0, "§4.1.3: 'we will assume theta_q = 0, and theta_* > 0'"),
    tau_of_theta=Printed("[theta, theta^2/2 + log sqrt(2 pi)]",
                         "§4.1.3 setup: tau(theta) := [theta, theta^2/2 + log sqrt(2 pi)], "
                         "T(x) = [x, -1], h(x) = exp(-x^2/2)"),
    beta_Z=Printed("R", "Assumption 12 on Theta = [0, R]: log Z(theta) = theta^2/2 + "
                        "log sqrt(2 pi) is R-Lipschitz (the segment between the means is the "
                        "smallest convex Theta holding theta_q and theta_*)"),
    fig42_mu_star=Printed(16.0, "§4.1.6 implementation details: 'mu_* = 16, mu_q = 0, and unit "
                                "variance' (1-d)", names=("mu_star_1d",)),
    fig42_updates=Printed(100, "§4.1.6: 'a fixed computation budget (100 update steps)'",
                          names=("n_updates",)),
    fig42_runs=Printed(5, "Figure 4.2 caption: 'The results are averaged over 5 runs'",
                       names=("n_runs",)),
    fig42_dim=Printed(16, "§4.1.6: 'For the 16-dimensional Gaussian'"),
    fig42_cov_range=Printed((6.0, 12.0), "§4.1.6: 'Cov_p = diag([s_1, ..., s_d]), where s_i = "
                                         "Uniform[8 x 0.75, 8 x 1.5]', Cov_q = I_d, "
                                         "mu_* = mu_q = 0", names=("s_range",)),
    fig42_parametrisation=Printed(
        "tau = [1/sigma_i^2, mu_i/sigma_i^2, mu^T Sigma^-1 mu/2 + log((2 pi)^d det Sigma)/2]",
        "footnote 7 (d-dimensional Gaussian with diagonal covariance): 2d + 1 coordinates"),
    fig42_best_run=Printed("the run with the lowest loss on fresh samples",
                           "§4.1.6: 'where \"best\" is defined to be the run with the lowest "
                           "loss on fresh samples'", names=("best_run",)),
    fig42_metric=Printed("min over steps so far of ||tau_* - tau||_2",
                         "§4.1.6: 'The plots show the minimum parameter distance "
                         "||tau_* - tau||_2 up to each step'"),
    fig42_protocol=Printed(None, "§4.1.6 prints no step sizes, schedule, batch or sample sizes, "
                                 "initialisation or clipping threshold (only that per-sample "
                                 "clipping 'is sometimes helpful')"),
)

#: Who attacked the non-``holds`` verdicts of this folder, and when (2026-11 audit).
REVIEWER = "independent reviewer (document and verdict only)"
REVIEW_DATE = "2026-11-26"
_PROP8 = (
    'As an equality it cannot hold (the excess loss depends on the direction, '
    'sigma_min/sigma_max ~ R^-4); the only useful reading is an upper bound, and it fails at '
    'fixed delta for large R: own max over 180 directions 0.121 (R = 4, delta = 0.9), 0.246 '
    '(16), 2.31 (32), growing like e^{R delta/4} (the p/q crossing moves by delta/2). With '
    "delta = 1/R: 0.0791 (16), 0.0788 (32) -> pi/(16 sqrt(2 pi)). The proof's Taylor step "
    'ignores the remainder. Correction (<=, delta <= 1/R, the range Corollary 2 and Theorem '
    '20 use) and kind hypothesis stand.')
#: The outcome of the independent attack on each accusation: claim id -> (outcome, summary).
ATTACKS: dict[str, tuple[AttackOutcome, str]] = {
    "NCE-tau-star": (
        "upheld", "Normalisation forces c = theta^2/2 + log sqrt(2 pi); the printed tau_q in the "
        "same sentence and (4.24)-(4.25) ('c - R^2/2 - log sqrt(2 pi)') use the plus sign, and "
        "extraction loses minus signs, it does not add two. Own quadrature: loss at the printed "
        "tau_* 1.969 (R = 2), 4.93 (R = 4) against L_* = 0.356, 0.0604. Typo stands."),
    "NCE-Prop7-range": (
        "upheld", "L(tau_q) = log 2 confirmed; own c(R) = L_* e^{R^2/8} = 0.5875, 0.4465, "
        "0.2788, 0.1516, 0.0777 (R = 2..32); an independent asymptotic (a sech bump at R/2, "
        "integral 2 pi) gives L_* ~ (sqrt(2 pi)/R) e^{-R^2/8}. Footnote 4 forbids hiding an "
        "R-dependence in O(.), so no regime saves it; kind constant stands."),
    "NCE-Prop8-quadratic": ("upheld", _PROP8),
    "NCE-Prop8-quadratic-full": ("upheld", _PROP8),
    "NCE-Lem47-strong-convexity": (
        "upheld", "Own quadrature: R^5 sigma_min e^{R^2/8} = 1.50, 7.79, 16.9, 22.2, 24.1 "
        "(R = 2..32), R sigma_min e^{R^2/8} -> 0; asymptotically the null direction v orthogonal "
        "to [R/2, -1] gives v^T H v ~ phi(R/2) (4/R^2) R^-3. The proof of Lemma 57 minimises a "
        "quadratic that is not sign-definite. kappa_* ~ R^6/158 confirmed; Lemma 46 holds."),
    "NCE-Lem48-smooth-q": (
        "upheld", "H(tau_q) = (1/8)[[R^2+2, -R], [-R, 2]] reproduced by quadrature; sigma_max = "
        "0.854, 2.368, 8.373, 32.37 (R = 2..16) against the printed 2, 8, 32, 128; the proof's "
        "(4.58) prints the 1/8 (and a zero off-diagonal, itself a slip). (R^2+2)/8 = Omega(R^2) "
        "stands, so the text's later use survives."),
    "NCE-Lem49-annulus": (
        "upheld", "Own scan (3 radii x 144 angles): kappa_min 0.730, 0.598, 0.578, 0.571 "
        "(R = 8..32), worst point b ~ 0.8R, c ~ R^2/2; analytically the p/q crossing is at "
        "0.625R, p_* there ~ e^{-(9/16) R^2/8}, so kappa -> 9/16 < 3/4. The gradient stays "
        "exponentially small, so Theorem 17 survives with the smaller exponent."),
    "NCE-Thm18-count": (
        "revised", "Upheld as unproven (a step refuted, Theorem 18 not): the count sets kappa = 1 "
        "while (4.62)(iii) has e^{-kappa R^2/8} and even the printed Lemma 49 only gives "
        "kappa >= 3/4. The reviewer showed the power of R in our correction unreliable ((4.62) "
        "prints 1/R^3, the count uses 2/R^2, the corrected Lemma 48 gives 8/(R^2+2)); the "
        "correction now keeps the printed R^3: Omega(R^3 e^{kappa_min R^2/8}), not R^4."),
    "NCE-Cor2-rate": (
        "upheld", "Lemmas 46-47 as printed give kappa_* = O(R^2), hence R^6/delta^2; with the "
        "true kappa_* (~R^6/158) Theorem 19 gives O(R^10/delta^2). Own product at R = 8: "
        "2425 x 1088 = 2.64e6 (x beta_u/beta_l 1.14 = 3.0e6). The step size is existential, so "
        "the smaller measured counts do not refute it: unproven (proof) is right."),
    "NCE-Cor2-regime": (
        "upheld", "The section is set in R >> 1 (Proposition 7, Theorem 17) and delta <= 1/R "
        "only restricts for large R; extraction does not turn >> into <<. Literally (R << 1, "
        "delta = R/2) at least one step is needed while R^6/delta^2 = 4R^4 -> 0. Typo stands."),
    "NCE-Lem51": (
        "upheld", "The printed point adds a scalar to a vector; Theorem 19's proof and (4.7), "
        "(4.9) use gamma g/||g||, and the lemma's own proof covers it. The reviewer re-derived "
        "the corrected form from Assumption 15 and convexity, and raised that g -> delta could "
        "be a mis-recognised glyph (the passage prints g_l for g_t); our defence records that "
        "reading and already uses the mildest kind (typo), which the reviewer kept."),
    "NCE-Thm20": (
        "revised", "The accusation is confirmed (gamma_min >= 1 from d sigma_min/d theta = -1 "
        "at 0; lambda_min - 1/R = -0.618, -0.328 at R = 1, 2, so C < 0; min{a1,a2}/max{b1,b2} "
        "splits only when b2 > 0). But our first correction (the first entry when b2 <= 0, "
        "with the printed 18 (lambda_max/lambda_min)^3) kept Lemma 60's false kappa_* bound. "
        "Now C = 2 e^{7/2} e^{2/beta_Z} (lambda_max/lambda_min)^4 min{a1,a2}/max{b1,b2} (Lemma "
        "61 times the corrected Lemma 60, sympy-checked); it covers the measured beta_u "
        "kappa_*/beta_l and the NGD counts. Kind constant stands."),
    "NCE-Lem60-kappa-BC": (
        "upheld", "Re-derived (4.69)-(4.73) from the thesis's steps: kappa(M) <= 2 "
        "lambda_max^2/(lambda_min^2 BC) and H_* in [M/2, M] give 4 lambda_max^2/(lambda_min^2 "
        "BC); (4.73) mixes B and 1/B. Same numbers (1.105 vs 0.611 at R = 0.1, 1.286 vs 0.830, "
        "1.664 vs 1.388; holds from R = 1), and kappa_* >= 1 while the printed side -> 1/2."),
}


def attack(claim_id: str) -> Attack | None:
    """The recorded independent attack on ``claim_id``'s verdict (None until it is recorded)."""
    found = ATTACKS.get(claim_id)
    return None if found is None else Attack(REVIEWER, REVIEW_DATE, *found)


STEP_CAP = 400_000


def dist2_q_star(R: float) -> float:
    """||tau_q - tau_*||^2 = R^2 + (R^2/2)^2."""
    return R * R + (R * R / 2) ** 2


@cache
def thm19_row(kind: Literal["nce", "ence"], R: float, delta: float) -> dict[str, Any]:
    """Theorem 19's step, bound and the measured NGD count at (kind, R, delta)."""
    b_u, b_l, kappa = assumption15_constants(R, kind)
    gamma = math.sqrt(b_l / (b_u * kappa)) * delta
    bound = b_u * kappa / b_l * dist2_q_star(R) / delta**2
    steps = steps_to(R, "ngd", gamma, delta, min(math.ceil(bound) + 1, STEP_CAP), kind=kind)
    return {"beta_u": b_u, "beta_l": b_l, "kappa": kappa, "gamma": gamma, "steps": steps,
            "bound19": bound}
