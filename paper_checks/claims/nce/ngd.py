"""Seed 004 §4.1.3-4.1.6: gradient methods on the NCE/eNCE landscape -- Theorem 17 (GD vs NGD),
Theorem 18's count, Theorem 19 and Corollary 2, Lemmas 54 and 61, Theorem 21, Figure 4.2.

Setting of §4.1.3 (1-D, unit variance, theta_q = 0, theta_* = R; Theta = [0, R], so log Z(theta)
= theta^2/2 + log sqrt(2 pi) is R-Lipschitz: beta_Z = R and the ball of Assumption 15 has radius
1/R).  Assumption 15's beta_u, beta_l are measured on that ball (32 points); lambda_min/max of
E_theta[T T^T] over Theta are closed forms.  Figure 4.2's 16-d case is checked with empirical
(Monte Carlo) losses written here, in the full profile.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any, Literal

import numpy as np
import sympy as sp

from identifiability.nce import GaussianMeanNCE, bhattacharyya_coefficient, run_gradient_method
from paper_checks.claims.nce.common import (
    annulus_kappas,
    hessian_star_independent,
    kappa_at_worst_point,
    theta_lambdas,
)
from paper_checks.registry import (
    ClaimResult,
    Independent,
    Margin,
    claim,
    claim_quick_full,
    judge,
)

PAPER = "004"
TIGHTEN = "the bound divided by its measured slack x 1.01"


@cache
def _gd_ngd_runs(R: float) -> tuple[object, object, float]:
    prob = GaussianMeanNCE(R)
    lam_M = float(np.linalg.eigvalsh(prob.hessian(prob.tau_q))[-1])
    gd = run_gradient_method(prob, method="gd", step=1 / lam_M, n_steps=1000)
    ngd = run_gradient_method(prob, method="ngd", step=0.5, n_steps=2000)
    return gd, ngd, lam_M


@claim(id="NCE-Thm17-GD-vs-NGD", paper=PAPER, reference="§4.1.3.2 Theorem 17, §4.1.4 Theorem 19",
       statement="From tau_q, gradient descent with a standard step needs exponentially many "
       "steps, while normalized gradient descent converges in polynomially many",
       expected_verdict="holds", perturbation="gradient descent also gets within 0.8 of its "
       "start (GD and NGD swapped)")
def nce_thm17_gd_vs_ngd(perturbed: bool = False) -> ClaimResult:
    R = 8.0
    gd, ngd, lam_M = _gd_ngd_runs(R)
    d0 = float(gd.distances[0])      # type: ignore[attr-defined]
    gd_ratio = gd.best_distance() / d0      # type: ignore[attr-defined]
    ngd_best = ngd.best_distance()      # type: ignore[attr-defined]
    holds = (gd_ratio < 0.8 if perturbed else gd_ratio > 0.8) and ngd_best < 0.5
    return ClaimResult(
        measured={"initial distance": round(d0, 3),
                  "GD best distance / initial after 1000 steps": round(gd_ratio, 4),
                  "NGD best distance after 2000 steps": round(ngd_best, 4),
                  "NGD best at 100/500/1000": [round(ngd.best_distance(t), 3)  # type: ignore
                                               for t in (100, 500, 1000)]},
        reference_value="GD stalls (> 0.8 of the start), NGD < 0.5", verdict=judge(holds),
        margin=Margin.tightest([Margin.ratio(gd_ratio, 0.8, what="GD best / start vs 0.8",
                                             upper=False),
                                Margin.ratio(ngd_best, 0.5, what="NGD best vs 0.5")]),
        details={"setting": f"R = {R}, population gradients, GD step 1/lambda_M with lambda_M = "
                 f"sigma_max(H(tau_q)) = {lam_M:.3f}; NGD step 0.5",
                 "note": "a qualitative check of Theorems 17 and 19 (their O(.) constants are "
                 "not specified)"})


@cache
def _betas(R: float, kind: Literal["nce", "ence"]) -> tuple[float, float, float]:
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


@claim(id="NCE-Cor2-rate", paper=PAPER, reference="§4.1.4.1 Corollary 2 (via Theorem 19, "
       "Lemmas 46-47)",
       statement="1-d Gaussians, delta <= 1/R, tau_0 = tau_q: NGD finds ||tau - tau_*|| <= delta "
       "within O(R^6 / delta^2) steps", expected_verdict="unproven")
def nce_cor2_rate() -> ClaimResult:
    rows: dict[float, dict[str, Any]] = {}
    logs = []
    Rs = (8.0, 16.0, 32.0)
    for R in Rs:
        b_u, b_l, kappa = _betas(R, "nce")
        dist2 = R * R + (R * R / 2) ** 2                 # ||tau_q - tau_*||^2
        t_delta2 = b_u / b_l * kappa * dist2             # Theorem 19's T times delta^2
        logs.append(math.log(t_delta2))
        rows[R] = {"kappa_*": f"{kappa:.4g}", "beta_u/beta_l": round(b_u / b_l, 3),
                   "Theorem 19 T delta^2": f"{t_delta2:.4g}"}
    slope = float(np.polyfit(np.log(Rs), logs, 1)[0])
    own = {R: float(np.linalg.cond(hessian_star_independent(R))) for R in (16.0, 32.0)}
    step_fails = slope > 8
    return ClaimResult(
        measured={"log-log slope of T delta^2 in R": round(slope, 2), "table": rows},
        reference_value="R^6", verdict="unproven" if step_fails else "holds",
        kind="proof" if step_fails else None,
        independent=Independent("kappa_* from the Hessian by scipy quad (written here)",
                                {R: f"{v:.4g}" for R, v in own.items()},
                                all(abs(own[R] / float(rows[R]["kappa_*"]) - 1) < 1e-3
                                    for R in own)),
        details={"finding": "Corollary 2 follows from Theorem 19 with Lemma 47's sigma_min = "
                            "Theta(e^{-R^2/8}/R), i.e. kappa_* = Theta(R^2); the true sigma_min "
                            "is Theta(R^-5 e^{-R^2/8}) (NCE-Lem47), kappa_* ~ R^6/158, and with "
                            "||tau_q - tau_*||^2 ~ R^4/4 and beta_u/beta_l = O(1) (measured) "
                            "Theorem 19 gives T = O(R^10/delta^2)",
                 "not refuted": "Theorem 19 is an upper bound; NGD may need fewer steps than "
                                "it guarantees, so O(R^6/delta^2) is unproven, not false",
                 "note": "the printed 'R << 1' is a typo for R >> 1"})


@claim(id="NCE-Thm18-count", paper=PAPER, reference="§4.1.9.1 proof of Theorem 18, (4.62)",
       statement="the number of Newton steps to cross the annulus is at least 0.05R / "
       "O((2/R^2) exp(-R^2/8)) = Omega(R^3 exp(R^2/8))", expected_verdict="unproven")
def nce_thm18_count() -> ClaimResult:
    rows = {}
    for R in (16.0, 32.0, 48.0):
        kmin = annulus_kappas(R)[0]
        # log of the count the proof supports, 0.05 R / (e^{-kappa R^2/8} / R^3), vs the printed
        supported = math.log(0.05 * R**4) + kmin * R * R / 8
        printed = math.log(R**3) + R * R / 8
        rows[R] = {"min kappa on the annulus": round(kmin, 4),
                   "log supported count": round(supported, 1), "log printed": round(printed, 1)}
    own = kappa_at_worst_point(32.0)
    short = all(v["log supported count"] < v["log printed"] for v in rows.values())
    return ClaimResult(
        measured=rows, reference_value="Omega(R^3 e^{R^2/8})",
        verdict="unproven" if short else "holds", kind="proof" if short else None,
        independent=Independent("the projected gradient at (0.8R, R^2/2), R = 32, by scipy "
                                "quad (written here)", round(own, 4),
                                abs(own - rows[32.0]["min kappa on the annulus"]) < 0.01),
        details={"finding": "(4.62) bounds the progress per step by e^{-kappa(b,c) R^2/8}/R^3 "
                            "(Lemma 49) but the final count uses kappa = 1 and R^2: the proof "
                            "supports Omega(R^4 e^{kappa_min R^2/8}) with kappa_min -> 9/16 "
                            "(NCE-Lem49), i.e. Omega(R^4 e^{9R^2/128}) -- still exponential, so "
                            "Theorem 18 itself stands"})


def _ngd_steps(R: float, kind: str, step: float, delta: float, cap: int) -> int:
    trace = run_gradient_method(GaussianMeanNCE(R), kind=kind, method="ngd", step=step,  # type: ignore[arg-type]
                                n_steps=cap)
    hit = np.nonzero(trace.distances <= delta)[0]
    return int(hit[0]) if hit.size else cap + 1


@cache
def _thm19_rows(cases: tuple[tuple[Literal["nce", "ence"], float], ...]
                ) -> tuple[tuple[str, float, int, float, float, float], ...]:
    rows = []
    for kind, R in cases:
        b_u, b_l, kappa = _betas(R, kind)
        delta = 1 / R
        gamma = math.sqrt(b_l / (b_u * kappa)) * delta
        dist2 = R * R + (R * R / 2) ** 2
        bound = b_u * kappa / b_l * dist2 / delta**2
        steps = _ngd_steps(R, kind, gamma, delta, min(int(bound) + 1, 3000))
        rows.append((kind, R, steps, bound, gamma, kappa))
    return tuple(rows)


@claim_quick_full(
    id="NCE-Thm19", quick={"cases": (("nce", 2.0), ("ence", 2.0))},
    full={"cases": (("nce", 2.0), ("ence", 2.0), ("nce", 4.0), ("ence", 4.0))},
    paper=PAPER, reference="§4.1.4 Theorem 19, eq. 4.8",
    statement="with step eta <= sqrt(beta_l/(beta_u kappa_*)) delta, NGD reaches "
    "||tau_t - tau_*|| <= delta within T <= (beta_u kappa_*/beta_l) ||tau_0 - tau_*||^2 / "
    "delta^2 steps", perturbation=TIGHTEN)
def nce_thm19(cases: tuple[tuple[Literal["nce", "ence"], float], ...],
              perturbed: bool = False) -> ClaimResult:
    rows = _thm19_rows(cases)
    ratios = [bound / steps for _, _, steps, bound, _, _ in rows]
    need = min(ratios) * 1.01 if perturbed else 1.0
    ok = all(r >= need for r in ratios)
    return ClaimResult(
        measured={f"{k} R={R:g}": {"steps": s, "bound": f"{b:.4g}", "step size": f"{g:.3g}"}
                  for k, R, s, b, g, _ in rows},
        reference_value="steps <= bound", verdict=judge(ok),
        margin=Margin(math.log10(min(ratios)), "min bound / steps to reach delta",
                      "Theorem 19 counts ||tau_0 - tau_*||^2 / gamma^2 steps (each step gains "
                      "gamma^2 in squared distance); NGD moving straight needs about "
                      "||tau_0 - tau_*|| / gamma, the square root of the bound"),
        details={"setting": "1-d Gaussian mean, delta = 1/beta_Z = 1/R, beta's measured on the "
                            "ball of radius 1/R, eta = gamma = sqrt(beta_l/(beta_u kappa_*)) "
                            "delta"})


@claim(id="NCE-Lem54", paper=PAPER, reference="§4.1.5 Lemma 54 (Lemma 62, §4.1.11)",
       statement="for eNCE, within ||tau - tau_*|| <= 1/beta_Z the Hessian satisfies Assumption "
       "15 with beta_u = 2e lambda_max/lambda_min and beta_l = lambda_min/(2e lambda_max)",
       perturbation=TIGHTEN)
def nce_lem54(perturbed: bool = False) -> ClaimResult:
    rows, slacks = {}, []
    for R in (1.0, 2.0, 4.0, 8.0):
        b_u, b_l, _ = _betas(R, "ence")
        lmax, lmin = theta_lambdas(R)
        beta_u, beta_l = 2 * math.e * lmax / lmin, lmin / (2 * math.e * lmax)
        slacks += [math.log10(beta_u / b_u), math.log10(b_l / beta_l)]
        rows[R] = {"measured beta_u, beta_l": (round(b_u, 4), round(b_l, 4)),
                   "Lemma 54": (f"{beta_u:.4g}", f"{beta_l:.4g}")}
    tightest = min(slacks)
    ok = all(x >= (tightest + math.log10(1.01) if perturbed else 0.0) for x in slacks)
    return ClaimResult(measured=rows, reference_value="measured within Lemma 54's constants",
                       verdict=judge(ok),
                       margin=Margin(tightest, "min log10 room of beta_u, beta_l",
                                     "the constants carry lambda_max/lambda_min over all of "
                                     "Theta = [0, R] (~ R^4) while the Hessian changes by a "
                                     "factor O(1) within distance 1/R of tau_*"),
                       details={"setting": "eNCE, 1-d Gaussian mean, beta_Z = R"})


@cache
def _thm21_rows(sizes: tuple[float, ...]) -> dict[float, dict[str, Any]]:
    rows: dict[float, dict[str, Any]] = {}
    for R in sizes:
        lmax, lmin = theta_lambdas(R)
        delta = 1 / R
        gamma = math.sqrt((lmin / (2 * math.e * lmax)) / (2 * math.e * lmax / lmin
                                                          * lmax / lmin)) * delta
        dist2 = R * R + (R * R / 2) ** 2
        bound = 4 * math.e**2 * (lmax / lmin) ** 3 * dist2 / delta**2
        rows[R] = {"steps": _ngd_steps(R, "ence", gamma, delta, 4000), "bound": f"{bound:.6g}",
                   "step size": f"{gamma:.3g}"}
    return rows


@claim_quick_full(
    id="NCE-Thm21", quick={"sizes": (2.0,)}, full={"sizes": (2.0, 4.0)}, paper=PAPER,
    reference="§4.1.5 Theorem 21 (Theorem 19 + Lemmas 53-54)",
    statement="NGD on eNCE reaches ||tau_t - tau_*|| <= delta within T <= 4e^2 "
    "(lambda_max/lambda_min)^3 ||tau_0 - tau_*||^2 / delta^2 steps", perturbation=TIGHTEN)
def nce_thm21(sizes: tuple[float, ...], perturbed: bool = False) -> ClaimResult:
    lmax_s, lmin_s, e = sp.symbols("lambda_max lambda_min e", positive=True)
    beta_u, beta_l, kappa = 2 * e * lmax_s / lmin_s, lmin_s / (2 * e * lmax_s), lmax_s / lmin_s
    algebra = sp.simplify(beta_u * kappa / beta_l - 4 * e**2 * (lmax_s / lmin_s) ** 3) == 0
    rows = _thm21_rows(sizes)
    ratios = [float(r["bound"]) / r["steps"] for r in rows.values()]
    need = min(ratios) * 1.01 if perturbed else 1.0
    ok = algebra and all(r >= need for r in ratios)
    return ClaimResult(measured=rows, reference_value="steps <= bound", verdict=judge(ok),
                       margin=Margin(math.log10(min(ratios)), "min bound / steps",
                                     "the bound is Theorem 19's worst case with Lemma 53-54's "
                                     "Theta-wide constants, (lambda_max/lambda_min)^3 ~ R^12"),
                       details={"algebra": f"beta_u kappa_* / beta_l = 4e^2 (lambda_max/"
                                           f"lambda_min)^3 (sympy): {algebra}",
                                "setting": "step eta = sqrt(beta_l/(beta_u kappa)) delta with "
                                           "Lemmas 53-54's constants, delta = 1/R"})


@claim(id="NCE-Lem61", paper=PAPER, reference="§4.1.10 Lemma 61",
       statement="within ||tau - tau_*|| <= 1/beta_Z: sigma_max(H)/sigma_max(H_*) <= (1/BC) 8 "
       "exp(3/2 + 1/beta_Z) (lambda_max/lambda_min) min{2 lambda_max/lambda_min, 2 + gamma_max "
       "||d||/lambda_min} and sigma_min(H)/sigma_min(H_*) >= BC 16 exp(-2 - 1/beta_Z) "
       "(lambda_min/lambda_max) max{...}", perturbation=TIGHTEN)
def nce_lem61(perturbed: bool = False) -> ClaimResult:
    rows, slacks = {}, []
    for R in (1.0, 2.0, 4.0):
        b_u, b_l, _ = _betas(R, "nce")
        lmax, lmin = theta_lambdas(R)
        bc = bhattacharyya_coefficient(0.0, R)
        upper = 8 * math.exp(1.5 + 1 / R) * lmax / lmin * 2 * lmax / lmin / bc   # min{} <= 1st
        lower = bc * 16 * math.exp(-2 - 1 / R) * lmin / lmax * lmin / lmax       # max{} >= 1st
        slacks += [math.log10(upper / b_u), math.log10(b_l / lower)]
        rows[R] = {"measured ratios": (round(b_u, 4), round(b_l, 4)),
                   "Lemma 61 (first terms)": (f"{upper:.4g}", f"{lower:.4g}")}
    tightest = min(slacks)
    ok = all(x >= (tightest + math.log10(1.01) if perturbed else 0.0) for x in slacks)
    return ClaimResult(measured=rows, reference_value="within Lemma 61's bounds",
                       verdict=judge(ok),
                       margin=Margin(tightest, "min log10 room of the two ratios",
                                     "both bounds carry 1/BC = e^{R^2/8} or BC and Theta-wide "
                                     "lambda ratios, while the Hessian changes by O(1) within "
                                     "1/R of tau_*: the factor Theorem 20 then pays"),
                       details={"reading": "the first term of each min/max is used (the min "
                                           "is at most it, the max at least it), which only "
                                           "makes the check stricter; beta_tau read as beta_Z"})


@claim(id="NCE-Fig4.2-1d", paper=PAPER, reference="§4.1.6, Figure 4.2 (left: 1-d, mu_* = 16)",
       statement="NCE with NGD largely outperforms NCE with GD, and eNCE with NGD decays faster "
       "than NCE with NGD (best runs, 100 updates)",
       perturbation="NCE with NGD no better than NCE with GD")
def nce_fig4_2_1d(perturbed: bool = False) -> ClaimResult:
    best = _fig42_1d()
    gd, ngd, ence = best["NCE, GD"][0], best["NCE, NGD"][0], best["eNCE, NGD"][0]
    ok = (ngd >= gd if perturbed else ngd < 0.9 * gd) and ence < ngd
    return ClaimResult(
        measured={k: {"best distance": round(v[0], 3), "step": v[1]} for k, v in best.items()},
        reference_value="NCE-NGD < NCE-GD, eNCE-NGD < NCE-NGD", verdict=judge(ok),
        margin=Margin.tightest([Margin.ratio(ngd, 0.9 * gd, what="NCE NGD vs 0.9 NCE GD"),
                                Margin.ratio(ence, ngd, what="eNCE NGD vs NCE NGD")]),
        details={"setting": "population gradients, R = 16, tau_0 = tau_q, 100 updates, the best "
                            "step of {1/lambda_M} (GD) and {0.5, 1, 2, 4} (NGD), best parameter "
                            "distance ||tau_* - tau||"})


@cache
def _fig42_1d() -> dict[str, tuple[float, float]]:
    R = 16.0
    prob = GaussianMeanNCE(R)
    lam_M = float(np.linalg.eigvalsh(prob.hessian(prob.tau_q))[-1])
    out: dict[str, tuple[float, float]] = {}
    gd = run_gradient_method(prob, method="gd", step=1 / lam_M, n_steps=100)
    out["NCE, GD"] = (float(gd.best_distance()), 1 / lam_M)
    for kind, label in (("nce", "NCE, NGD"), ("ence", "eNCE, NGD")):
        runs = [(float(run_gradient_method(prob, kind=kind, method="ngd", step=s,  # type: ignore[arg-type]
                                           n_steps=100).best_distance()), s)
                for s in (0.5, 1.0, 2.0, 4.0)]
        out[label] = min(runs)
    return out


def _fig42_16d_run(seed: int, kind: str, method: str, step: float, n: int = 20000
                   ) -> float:
    """Best ||tau_* - tau|| over 100 updates of (N)GD on the empirical (e)NCE loss of a 16-d
    zero-mean Gaussian with diagonal covariance s_i ~ U[6, 12] against Q = N(0, I): tau =
    (a_1..a_16, c), log p_tau = -sum a_i x_i^2/2 - c (written here)."""
    rng = np.random.default_rng([seed, 42])
    d = 16
    s_var = rng.uniform(6, 12, d)
    xp = rng.standard_normal((n, d)) * np.sqrt(s_var)
    xq = rng.standard_normal((n, d))
    tau_star = np.concatenate([1 / s_var, [0.5 * np.sum(np.log(2 * np.pi * s_var))]])
    tau = np.concatenate([np.ones(d), [0.5 * d * np.log(2 * np.pi)]])
    feat_p = np.column_stack([-xp**2 / 2, -np.ones(n)])     # grad of psi w.r.t. tau
    feat_q = np.column_stack([-xq**2 / 2, -np.ones(n)])
    log_q_p = -0.5 * np.sum(xp**2, axis=1) - 0.5 * d * np.log(2 * np.pi)
    log_q_q = -0.5 * np.sum(xq**2, axis=1) - 0.5 * d * np.log(2 * np.pi)

    def grad(t: np.ndarray) -> np.ndarray:
        psi_p, psi_q = feat_p @ t - log_q_p, feat_q @ t - log_q_q     # log p_tau - log q
        if kind == "nce":
            wp = -1 / (1 + np.exp(np.clip(psi_p, -700, 700)))         # -sigma(-psi)
            wq = 1 / (1 + np.exp(-np.clip(psi_q, -700, 700)))         # sigma(psi)
        else:
            wp = -0.5 * np.exp(np.clip(-psi_p / 2, -700, 700))
            wq = 0.5 * np.exp(np.clip(psi_q / 2, -700, 700))
        return 0.5 * (feat_p.T @ wp + feat_q.T @ wq) / n

    best = float(np.linalg.norm(tau - tau_star))
    for _ in range(100):
        g = grad(tau)
        norm = float(np.linalg.norm(g))
        if not math.isfinite(norm) or norm == 0:
            break
        tau = tau - step * (g / norm if method == "ngd" else g)
        best = min(best, float(np.linalg.norm(tau - tau_star)))
    return best


def _fig42_16d_population_ence(seed: int, step: float) -> float:
    """The same eNCE NGD run on the population loss, in closed form (Gaussian integrals):
    E_P*[e^{-psi/2}] = e^{c/2 - (d/4) log 2 pi} prod (1 - (a_i - 1) s_i/2)^{-1/2} and
    E_Q[e^{psi/2}] = e^{-c/2 + (d/4) log 2 pi} prod (1 + (a_i - 1)/2)^{-1/2}."""
    rng = np.random.default_rng([seed, 42])
    d = 16
    s_var = rng.uniform(6, 12, d)
    tau_star = np.concatenate([1 / s_var, [0.5 * np.sum(np.log(2 * np.pi * s_var))]])
    tau = np.concatenate([np.ones(d), [0.5 * d * np.log(2 * np.pi)]])
    k = 0.25 * d * math.log(2 * math.pi)
    best = float(np.linalg.norm(tau - tau_star))
    for _ in range(100):
        a, c = tau[:d], tau[d]
        u, v = 1 - (a - 1) * s_var / 2, 1 + (a - 1) / 2
        if np.any(u <= 0) or np.any(v <= 0):
            break
        A = math.exp(c / 2 - k - 0.5 * float(np.sum(np.log(u))))
        B = math.exp(-c / 2 + k - 0.5 * float(np.sum(np.log(v))))
        g = 0.5 * A * np.concatenate([s_var / (4 * u), [0.5]]) + 0.5 * B * np.concatenate(
            [-1 / (4 * v), [-0.5]])
        tau = tau - step * g / np.linalg.norm(g)
        best = min(best, float(np.linalg.norm(tau - tau_star)))
    return best


@claim(id="NCE-Fig4.2-16d", paper=PAPER, reference="§4.1.6, Figure 4.2 (right: 16-d Gaussians)",
       statement="16-d Gaussians (equal means, Cov_q = I, Cov_p = diag(s_i), s_i in [6, 12]): NCE "
       "with NGD largely outperforms NCE with GD, and eNCE with NGD decays faster than NCE with "
       "NGD (best runs, 100 updates, 5 runs)", profile="full", expected_verdict="fails")
def nce_fig4_2_16d() -> ClaimResult:
    best, table = _fig42_16d()
    gd, ngd, ence = best["NCE, GD"][0], best["NCE, NGD"][0], best["eNCE, NGD"][0]
    ngd_wins = ngd < 0.9 * gd
    ence_wins = ence < ngd
    pop = {st: round(float(np.mean([_fig42_16d_population_ence(sd, st) for sd in range(5)])),
                     3) for st in (0.5, 1.0, 1.5, 2.0, 3.0)}
    ok = ngd_wins and ence_wins
    return ClaimResult(
        measured={k: {"mean best distance (5 runs)": round(v[0], 3), "step": v[1]}
                  for k, v in best.items()},
        reference_value="NCE-NGD < NCE-GD, eNCE-NGD < NCE-NGD", verdict=judge(ok),
        kind=None if ok else "hypothesis",
        independent=Independent("eNCE NGD on the population loss in closed form (Gaussian "
                                "integrals, no sampling) on the same step grid: the ordering "
                                "eNCE vs NCE it implies", pop,
                                (min(pop.values()) < ngd) == ence_wins),
        margin=Margin.tightest([Margin.ratio(ngd, 0.9 * gd, what="NCE NGD vs 0.9 NCE GD"),
                                Margin.ratio(ence, ngd, what="eNCE NGD vs NCE NGD")]),
        details={"NGD vs GD": f"NCE with NGD beats NCE with GD: {ngd_wins}",
                 "eNCE vs NCE": f"eNCE with NGD beats NCE with NGD at their best fixed steps: "
                                f"{ence_wins}; per step: {table}",
                 "reading": "the figure's step sizes, schedules and sample sizes are not given; "
                            "with the best fixed step of each method on a common grid the eNCE "
                            "advantage is not reproduced in 16-d (it is in 1-d, NCE-Fig4.2-1d): "
                            "the ordering holds only for some step choices",
                 "setting": "empirical losses on 20000 samples of P_* and of Q per run, seeds "
                            "0..4, tau = (precisions, log-partition), mean over runs of the best "
                            "distance; steps GD {3, 10, 20}, NGD {1, 2, 3, 5}, eNCE NGD "
                            "{0.5, 1, 1.5, 2, 3}"})


@cache
def _fig42_16d() -> tuple[dict[str, tuple[float, float]], dict[str, dict[float, float]]]:
    out: dict[str, tuple[float, float]] = {}
    table: dict[str, dict[float, float]] = {}
    for label, kind, method, steps in (("NCE, GD", "nce", "gd", (3.0, 10.0, 20.0)),
                                       ("NCE, NGD", "nce", "ngd", (1.0, 2.0, 3.0, 5.0)),
                                       ("eNCE, NGD", "ence", "ngd", (0.5, 1.0, 1.5, 2.0, 3.0))):
        means = {st: float(np.mean([_fig42_16d_run(sd, kind, method, st) for sd in range(5)]))
                 for st in steps}
        table[label] = {st: round(v, 3) for st, v in means.items()}
        out[label] = min((v, st) for st, v in means.items())
    return out, table
