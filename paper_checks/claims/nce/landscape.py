"""Seed 004 §4.1 (NCE landscape, NGD, eNCE): checks NCE-*.

Setting of §4.1.3: :math:`P_* = \\mathcal N(R, 1)`, :math:`Q = \\mathcal N(0, 1)`, model
:math:`p_\\tau = e^{-x^2/2 + bx - c}`, :math:`\\tau_* = [R, R^2/2 + \\log\\sqrt{2\\pi}]`.
Population quantities come from :class:`identifiability.nce.GaussianMeanNCE` (log-space
quadrature); the Hessian at the optimum is cross-checked against an independent scipy
quadrature of the substituted integrand :math:`x = R/2 + y`,
:math:`e^{R^2/8}\\,p_*q/(p_*+q) = \\phi(y)/(2\\cosh(Ry/2))`, and eNCE against its closed form.
Expected verdicts and corrected statements come from the mathematics (reading notes
``docs/notes/seed_thesis_ch3_ch4.md`` items F4–F8, re-derived where noted).
"""

from __future__ import annotations

import math
from functools import cache

import mpmath
import numpy as np
from scipy import integrate

from identifiability.nce import GaussianMeanNCE, bhattacharyya_coefficient
from paper_checks.claims.nce.common import (
    SQRT_2PI,
    annulus_kappas,
    hessian_star_independent,
    kappa_at_worst_point,
    phi,
    theta_lambdas,
)
from paper_checks.compare import exact_result, ratio_result
from paper_checks.registry import ClaimResult, Independent, Margin, claim, judge

PAPER = "004"
R_GRID = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)


def _hessian_star(R: float) -> np.ndarray:
    prob = GaussianMeanNCE(R)
    return prob.hessian(prob.tau_star, scale_exponent=R * R / 8)


@claim(id="NCE-Lem45-formulas", paper=PAPER, reference="§4.1.1.2 Lemma 45",
       statement="grad L = 1/2 int q/(p+q) (p - p_*) T dx and Hessian = 1/2 int (p_*+q) p q/"
       "(p+q)^2 T T^T dx, which is PSD (NCE is convex in tau)",
       expected_verdict="holds", perturbation="the gradient formula with 1/2 replaced by 0.501")
def nce_lem45_formulas(perturbed: bool = False) -> ClaimResult:
    rng = np.random.default_rng(45)
    worst_g = worst_h = worst_e = 0.0
    min_eig = math.inf
    for R in (2.0, 4.0, 8.0):
        prob = GaussianMeanNCE(R)
        for _ in range(4):
            tau = prob.tau_star + rng.normal(0, [0.5 * R, 0.5 * R * R / 2 + 1])
            h = 1e-5
            g = prob.gradient(tau) * (1.002 if perturbed else 1.0)
            H = prob.hessian(tau)
            for i in range(2):
                e = np.zeros(2)
                e[i] = h
                fd_g = (prob.loss(tau + e) - prob.loss(tau - e)) / (2 * h)
                fd_h = (prob.gradient(tau + e) - prob.gradient(tau - e)) / (2 * h)
                worst_g = max(worst_g, abs(fd_g - g[i]) / max(abs(g[i]), 1e-12))
                worst_h = max(worst_h, float(np.max(np.abs(fd_h - H[:, i]))
                                             / np.max(np.abs(H))))
            min_eig = min(min_eig, float(np.linalg.eigvalsh(H)[0]))
            for q in ("loss", "gradient", "hessian"):
                f = getattr(prob, q)
                a = np.asarray(f(tau, kind="ence"))
                b = np.asarray(f(tau, kind="ence", method="closed_form"))
                worst_e = max(worst_e, float(np.max(np.abs(a - b)) / np.max(np.abs(b))))
    holds = worst_g < 1e-5 and worst_h < 1e-5 and min_eig > 0 and worst_e < 1e-10
    return exact_result(
        measured={"rel err grad vs FD": float(f"{worst_g:.2e}"),
                  "rel err Hessian vs FD": float(f"{worst_h:.2e}"),
                  "min Hessian eigenvalue": float(f"{min_eig:.3e}"),
                  "eNCE quadrature vs closed form": float(f"{worst_e:.2e}")},
        reference_value="agreement to ~1e-8; PSD",
        what=f"formulas to 1e-5 relative (measured {max(worst_g, worst_h):.1e})", holds=holds,
        details={"setting": "R in {2, 4, 8}, 4 random tau each; central differences h = 1e-5 of "
                 "the quadrature loss/gradient"})


@cache
def _c_independent(R: float) -> float:
    """c(R) = L_* e^{R^2/8} = int phi(y) e^{Ry/2} log(1 + e^{-Ry}) dy (x = R/2 + y)."""
    def f(y: float) -> float:
        return math.exp(-0.5 * y * y + R * y / 2) / SQRT_2PI * float(np.logaddexp(0, -R * y))

    return integrate.quad(f, -40, 40, points=[0.0], limit=500, epsrel=1e-12)[0]


@claim(id="NCE-Prop7-range", paper=PAPER, reference="§4.1.3.1 Proposition 7 (F4)",
       statement="For R >> 1 the loss at theta = theta_q is log 2, while the minimal loss is "
       "L_*(R) = c exp(-R^2/8) for some c in [1/2, 2]",
       expected_verdict="erratum")
def nce_prop7_range() -> ClaimResult:
    Rs = (2.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 64.0)
    rows = {}
    lib_agrees = True
    log2_ok = True
    for R in Rs:
        prob = GaussianMeanNCE(R)
        c_lib = prob.loss(prob.tau_star, scale_exponent=R * R / 8)
        c_ind = _c_independent(R)
        lib_agrees &= abs(c_lib - c_ind) <= 1e-8 * c_ind
        log2_ok &= abs(prob.loss(prob.tau_q) - math.log(2)) < 1e-12
        rows[R] = {"c(R)": round(c_ind, 4), "c R / sqrt(2 pi)": round(c_ind * R / SQRT_2PI, 4)}
    # the asymptotic regime: c(R) R / sqrt(2 pi) at R = 1e4 in mpmath (float64 overflows there)
    with mpmath.workdps(30):
        R4 = mpmath.mpf(10**4)

        def f(y: mpmath.mpf) -> mpmath.mpf:
            sp = mpmath.log1p(mpmath.exp(-R4 * y)) if y > 0 else (
                -R4 * y + mpmath.log1p(mpmath.exp(R4 * y)))
            return mpmath.exp(-y * y / 2 + R4 * y / 2) * sp / mpmath.sqrt(2 * mpmath.pi)

        far = float(mpmath.quad(f, [-40, -1, -50 / R4, 0, 50 / R4, 1, 40]) * R4 / SQRT_2PI)
    rows[1e4] = {"c(R)": round(far * SQRT_2PI / 1e4, 8), "c R / sqrt(2 pi)": round(far, 4)}
    big = [R for R in rows if R >= 4]
    printed_ok = log2_ok and all(0.5 <= rows[R]["c(R)"] <= 2 for R in big)
    corrected_ok = log2_ok and all(0.5 <= rows[R]["c R / sqrt(2 pi)"] <= 2 for R in big) and \
        abs(far - 1) < 0.01
    return ClaimResult(
        measured=rows, reference_value="c in [1/2, 2]",
        verdict=judge(printed_ok, corrected_ok), kind="constant",
        independent=Independent("c(R) = int phi(y) e^{Ry/2} log(1 + e^{-Ry}) dy by scipy quad "
                                "(R <= 64) and mpmath (R = 1e4), written here",
                                {"c(4)": rows[4.0]["c(R)"], "c(64)": rows[64.0]["c(R)"],
                                 "c R/sqrt(2 pi) at 1e4": rows[1e4]["c R / sqrt(2 pi)"]},
                                lib_agrees),
        details={"printed": f"L(tau_q) = log 2 holds ({log2_ok}); c(R) = L_* e^(R^2/8) leaves "
                 f"[1/2, 2] from R = 4 on (c(4) = {rows[4.0]['c(R)']}, c(64) = "
                 f"{rows[64.0]['c(R)']}) and tends to 0",
                 "corrected": "L_* = c' (sqrt(2 pi)/R) e^(-R^2/8) with c' in [1/2, 2] for R >= 4 "
                 f"and c' -> 1 (c'(64) = {rows[64.0]['c R / sqrt(2 pi)']}, c'(1e4) = {far:.4f}): "
                 "the printed form misses the factor 1/R",
                 "library_vs_independent_quad": lib_agrees})


@claim(id="NCE-Lem46-smooth-opt", paper=PAPER, reference="§4.1.3.1 Lemma 46, §4.1.8",
       statement="sigma_max(Hessian of L at tau_*) <= R/sqrt(2 pi) exp(-R^2/8)",
       expected_verdict="holds", perturbation="the constant 1/sqrt(2 pi) lowered to 1/(2 pi)")
def nce_lem46_smooth_opt(perturbed: bool = False) -> ClaimResult:
    rows = {}
    holds = agree = True
    const = 1 / (2 * math.pi) if perturbed else 1 / SQRT_2PI
    ratios = []
    for R in R_GRID:
        H = _hessian_star(R)
        Hi = hessian_star_independent(R)
        agree &= bool(np.max(np.abs(H - Hi)) <= 1e-8 * np.max(np.abs(Hi)))
        smax = float(np.linalg.eigvalsh(H)[-1])
        rows[R] = {"sigma_max e^(R^2/8)": round(smax, 4),
                   "bound R/sqrt(2pi)": round(R / SQRT_2PI, 4)}
        holds &= smax <= R * const
        ratios.append(R * const / smax)
    small = float(np.linalg.eigvalsh(_hessian_star(0.5))[-1])
    return ClaimResult(
        measured=rows, reference_value="sigma_max e^(R^2/8) <= R/sqrt(2 pi)",
        verdict=judge(holds and agree),
        margin=Margin(math.log10(min(ratios)), "min over R of the bound / sigma_max"),
        details={"slack": "sigma_max e^(R^2/8) / R -> ~0.157 (bound 0.399)",
                 "outside_R_much_greater_than_1": f"at R = 0.5: {small:.4f} > "
                 f"{0.5 / SQRT_2PI:.4f}, so the bound needs R >= 1 (R >> 1 is assumed)",
                 "library_vs_independent_quad": agree})


@claim(id="NCE-Lem47-strong-convexity", paper=PAPER, reference="§4.1.3.1 Lemma 47, §4.1.8 (F5)",
       statement="sigma_min(Hessian of L at tau_*) = Theta((1/R) exp(-R^2/8))",
       expected_verdict="erratum")
def nce_lem47_strong_convexity() -> ClaimResult:
    Rs = (2.0, 4.0, 8.0, 16.0, 24.0, 32.0, 48.0, 64.0)
    smin = {}
    kappa = {}
    for R in Rs:
        ev = np.linalg.eigvalsh(_hessian_star(R))
        smin[R] = float(ev[0])
        kappa[R] = float(ev[-1] / ev[0])
    tail = [R for R in Rs if R >= 16]
    slope = float(np.polyfit(np.log(tail), np.log([smin[R] for R in tail]), 1)[0])
    r5 = {R: round(smin[R] * R**5, 3) for R in Rs}
    printed_ok = abs(slope + 1) < 0.5
    corrected_ok = abs(slope + 5) < 0.25 and max(r5[R] for R in tail) / min(
        r5[R] for R in tail) < 1.5
    own = {R: float(np.linalg.eigvalsh(hessian_star_independent(R))[0]) for R in (16.0, 64.0)}
    return ClaimResult(
        measured={"log-log slope of sigma_min e^(R^2/8), R >= 16": round(slope, 3),
                  "R^5 sigma_min e^(R^2/8)": r5,
                  "kappa_NCE": {R: float(f"{k:.3g}") for R, k in kappa.items()}},
        reference_value="slope -1", verdict=judge(printed_ok, corrected_ok), kind="constant",
        independent=Independent("the Hessian at tau_* by scipy quad of phi(y)/(2 cosh(Ry/2)) "
                                "moments (written here)", {R: f"{v * R**5:.4g}" for R, v in
                                                           own.items()},
                                all(abs(own[R] / smin[R] - 1) < 1e-6 for R in own)),
        details={"printed": f"sigma_min e^(R^2/8) decays like R^{slope:.2f}, not R^-1 "
                 f"(R sigma_min e^(R^2/8) = {smin[64.0] * 64:.2e} at R = 64 -> 0); the proof "
                 "uses upper bounds of T_0..T_2 inside a minimum",
                 "corrected": "sigma_min = Theta(R^-5 e^(-R^2/8)): R^5 sigma_min e^(R^2/8) "
                 f"-> ~24.7 ({r5[64.0]} at R = 64). Consequence: kappa_NCE ~ R^6/158 "
                 f"({kappa[16.0]:.3g} at R = 16), and Theorem 19 then gives Corollary 2's NGD "
                 "rate as O(R^10/delta^2), not O(R^6/delta^2)"})


@claim(id="NCE-Lem48-smooth-q", paper=PAPER, reference="§4.1.3.1 Lemma 48, §4.1.9 (F6)",
       statement="sigma_max(Hessian of L at tau_q) >= R^2/2",
       expected_verdict="erratum")
def nce_lem48_smooth_q() -> ClaimResult:
    rows = {}
    printed_ok = corrected_ok = closed_ok = True
    for R in (2.0, 4.0, 8.0, 16.0, 32.0):
        prob = GaussianMeanNCE(R)
        H = prob.hessian(prob.tau_q)
        exact = np.array([[R * R + 2, -R], [-R, 2]]) / 8
        closed_ok &= bool(np.allclose(H, exact, rtol=1e-10, atol=1e-12))
        smax = float(np.linalg.eigvalsh(H)[-1])
        rows[R] = {"sigma_max": round(smax, 4), "printed R^2/2": R * R / 2,
                   "(R^2+2)/8": (R * R + 2) / 8}
        printed_ok &= smax >= R * R / 2
        corrected_ok &= smax >= (R * R + 2) / 8
    own = {R: float(np.linalg.eigvalsh(np.array([[R * R + 2, -R], [-R, 2]]) / 8)[-1])
           for R in (2.0, 16.0)}
    return ClaimResult(
        measured=rows, reference_value="sigma_max >= R^2/2",
        verdict=judge(printed_ok, corrected_ok and closed_ok), kind="constant",
        independent=Independent("the Hessian at tau_q by hand, (1/8)(E_* + E_Q)[TT^T] = "
                                "[[R^2+2, -R], [-R, 2]]/8, and its top eigenvalue",
                                {R: round(v, 4) for R, v in own.items()},
                                closed_ok and all(abs(own[R] - rows[R]["sigma_max"]) < 1e-3
                                                  for R in own)),
        details={"printed": f"fails: at R = 16 sigma_max = {rows[16.0]['sigma_max']} < 128",
                 "corrected": "the proof's own (4.58) gives e_1^T H e_1 = (R^2+2)/8, and its last "
                 "line drops the factor 1/8 ((R^2+2)/8 >= R^2/2 is false for R > 1.16): "
                 "sigma_max >= (R^2+2)/8 (~ (R^2+3)/8 exactly) holds, still Omega(R^2)",
                 "also": "(4.58) sets the off-diagonal to 0 where it is -R/8 (E_*[x] = R); that "
                 "slip does not change e_1^T H e_1 and is not what breaks the bound",
                 "quadrature = closed form": closed_ok})


@claim(id="NCE-Lem49-annulus", paper=PAPER, reference="§4.1.3.2 Lemma 49, §4.1.7.1 (F8)",
       statement="On the annulus (c - R^2/2)^2 + (b - R)^2 in [(0.1R)^2, (0.2R)^2]: "
       "|<grad L, (tau_*-tau)/||tau_*-tau||>| = O(1) exp(-kappa R^2/8) with kappa in [3/4, 5/4]",
       expected_verdict="erratum")
def nce_lem49_annulus() -> ClaimResult:
    rows = {}
    for R in (8.0, 16.0, 24.0, 32.0, 48.0):
        kmin, kmed, c6 = annulus_kappas(R)
        rows[R] = {"min kappa_eff": round(kmin, 4), "median kappa_eff": round(kmed, 4),
                   "max ||grad||/(32 max(R,|b|))": float(f"{c6:.2e}")}
    kmins = [v["min kappa_eff"] for v in rows.values()]
    printed_ok = min(kmins) >= 0.75
    corrected_ok = min(kmins) >= 0.5 and abs(rows[48.0]["min kappa_eff"] - 9 / 16) < 0.02
    own = kappa_at_worst_point(32.0)
    return ClaimResult(
        measured=rows, reference_value="kappa >= 3/4", verdict=judge(printed_ok, corrected_ok),
        kind="constant",
        independent=Independent("the projected gradient at (b, c) = (0.8R, R^2/2), R = 32, by "
                                "scipy quad of the NCE gradient formula (written here)",
                                round(own, 4), abs(own - rows[32.0]["min kappa_eff"]) < 0.01),
        details={"kappa_eff": "-8 log|<grad L, u>| / R^2 over 3 radii x 72 angles (the O(1) "
                 "prefactor is absorbed; it contributes O(1/R^2))",
                 "printed": f"the smallest effective exponent is below 3/4 at every R: {kmins}",
                 "corrected": "the projected gradient is still exponentially small, with "
                 "exponent kappa >= 1/2 everywhere and min kappa -> 9/16 (the P_* tail beyond "
                 "x = c/b at b = 0.8R, c = R^2/2 is exp(-(0.375 R)^2/2) = exp(-(9/16) R^2/8)), "
                 "so Theorem 17 survives with exp(9R^2/128) in place of exp(3R^2/32)",
                 "claim_6": "||grad L|| <= 32 max{R, |b|} holds with huge slack (last column)"})


@claim(id="NCE-Lem52-BC", paper=PAPER, reference="§4.1.4.2 Lemma 52, §4.1.10",
       statement="If ||theta_1 - theta_2||^2 <= 4/lambda_max then BC(P_1, P_2) >= 1/2",
       expected_verdict="holds", perturbation="the condition relaxed to ||theta_1 - theta_2||^2 "
       "<= 40 lambda_max")
def nce_lem52_bc(perturbed: bool = False) -> ClaimResult:
    worst = math.inf
    quad_ok = True
    for theta_max in (1.0, 4.0, 16.0):
        lam_max = ((theta_max**2 + 2) + math.sqrt((theta_max**2 + 2) ** 2 - 4)) / 2
        for t1 in np.linspace(0, theta_max, 9):
            for t2 in np.linspace(0, theta_max, 9):
                if (t1 - t2) ** 2 <= (40 * lam_max if perturbed else 4 / lam_max):
                    bc = bhattacharyya_coefficient(t1, t2)
                    worst = min(worst, bc)
        bq = integrate.quad(lambda x, t=theta_max: math.sqrt(phi(x) * phi(x - t)), -40,
                            theta_max + 40, limit=400)[0]
        quad_ok &= abs(bq - bhattacharyya_coefficient(0.0, theta_max)) < 1e-9
    return ratio_result(
        worst, 0.5, what="min BC / 1/2", upper=False, holds=worst >= 0.5 and quad_ok,
        measured={"min BC on the allowed pairs": round(worst, 4)},
        details={"setting": "unit-variance Gaussians, Theta = [0, theta_max], lambda_max of "
                 "E_theta[T T^T], T = [x, -1]; BC = e^{-(theta_1-theta_2)^2/8} (checked by "
                 f"quadrature: {quad_ok})"})


@claim(id="NCE-Lem60-kappa-BC", paper=PAPER, reference="§4.1.10 Lemma 60 (F7)",
       statement="The NCE Hessian at the optimum has kappa_* <= lambda_max/(2 lambda_min) * "
       "1/BC(P_*, Q)",
       expected_verdict="erratum")
def nce_lem60_kappa_bc() -> ClaimResult:
    rows = {}
    printed_ok = corrected_ok = True
    for R in (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0):
        kappa = GaussianMeanNCE(R).condition_number(GaussianMeanNCE(R).tau_star)
        lmax, lmin = theta_lambdas(R)
        bc = bhattacharyya_coefficient(0.0, R)
        printed = lmax / (2 * lmin) / bc
        corrected = 4 * lmax**2 / (lmin**2 * bc)
        rows[R] = {"kappa_*": float(f"{kappa:.4g}"), "printed bound": float(f"{printed:.4g}"),
                   "corrected bound": float(f"{corrected:.4g}")}
        printed_ok &= kappa <= printed
        corrected_ok &= kappa <= corrected
    H01 = hessian_star_independent(0.1)
    ev = np.linalg.eigvalsh(H01)
    own = float(ev[-1] / ev[0])
    return ClaimResult(
        measured=rows, reference_value="kappa_* <= lambda_max/(2 lambda_min BC)",
        verdict=judge(printed_ok, corrected_ok), kind="constant",
        independent=Independent("kappa_* at R = 0.1 from the Hessian by scipy quad (written "
                                "here)", round(own, 4),
                                abs(own - rows[0.1]["kappa_*"]) < 1e-3 * own),
        details={"printed": "fails for small R: kappa_* >= 1 always but the bound tends to 1/2 "
                 f"(R = 0.1: {rows[0.1]['kappa_*']} > {rows[0.1]['printed bound']})",
                 "corrected": "the proof's own steps give kappa(M) <= 2 lambda_max^2/"
                 "(lambda_min^2 BC) (eqs. 4.69-4.72: upper BC lambda_max, lower "
                 "BC^2 lambda_min^2/(2 lambda_max)), and M/2 <= H_* <= M doubles it: "
                 "kappa_* <= 4 lambda_max^2/(lambda_min^2 BC), which holds at every R",
                 "Theta": "Theta = [0, R] (the segment between the two means)"})


@claim(id="NCE-eNCE-condition", paper=PAPER, reference="§4.1.5 Lemma 53, eq. 4.13",
       statement="The eNCE Hessian at the optimum is H_* = BC(P_*,Q)/4 E_{(theta_*+theta_q)/2}"
       "[T T^T], so kappa_* <= lambda_max/lambda_min (polynomial)",
       expected_verdict="holds", perturbation="H_* = BC/2 E[T T^T] (the 1/4 doubled)")
def nce_ence_condition(perturbed: bool = False) -> ClaimResult:
    rows = {}
    holds = True
    ratios = []
    for R in (2.0, 4.0, 8.0, 16.0, 32.0):
        prob = GaussianMeanNCE(R)
        H = prob.hessian(prob.tau_star, kind="ence", scale_exponent=R * R / 8)
        mid = np.array([[R * R / 4 + 1, -R / 2], [-R / 2, 1.0]])
        formula_ok = bool(np.allclose(H, mid / (2 if perturbed else 4), rtol=1e-9,
                                      atol=0))   # BC e^{R^2/8} = 1
        k_ence = float(np.linalg.cond(H))
        lmax, lmin = theta_lambdas(R)
        holds &= formula_ok and k_ence <= lmax / lmin
        ratios.append(lmax / lmin / k_ence)
        rows[R] = {"kappa_eNCE": float(f"{k_ence:.4g}"),
                   "(R^2/4+2)^2": float(f"{(R * R / 4 + 2) ** 2:.4g}"),
                   "lambda_max/lambda_min": float(f"{lmax / lmin:.4g}"),
                   "kappa_NCE": float(f"{prob.condition_number(prob.tau_star):.4g}"),
                   "eq_4_13_matches": formula_ok}
    return ClaimResult(
        measured=rows, reference_value="kappa_* <= lambda_max/lambda_min", verdict=judge(holds),
        margin=Margin(math.log10(min(ratios)), "min over R of (lambda_max/lambda_min) / kappa; "
                      "eq. 4.13 to 1e-9"),
        details={"comparison": "kappa_eNCE ~ (R^2/4+2)^2 (polynomial) vs kappa_NCE ~ R^6/158",
                 "Theta": "Theta = [0, R]"})


