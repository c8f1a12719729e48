"""Paper 004 §4.1.3.2 and §4.1.7: the lower bounds for gradient descent and Newton's method --
Theorem 17 across R, GD against NGD, Claim 6, Lemma 50 and Theorem 18's count.

Setting of §4.1.3 (1-D, unit variance, theta_q = 0, theta_* = R, population losses from
:class:`identifiability.nce.GaussianMeanNCE`).  Gradient descent uses the standard step the note
after Theorem 17 names, eta = 1/lambda_M with lambda_M = max over Theta = [0, R] of
sigma_max(Hessian at tau(theta)) (Omega(R^2), so eta = o(1)); "O(1) close" is read as
||tau - tau_*|| <= 1.  Theorem 17 says "exponential": the number of steps T(R) is measured for
several R and log T is fitted both linearly in R (exponential growth) and linearly in log R
(polynomial growth); the statement holds when the exponential model fits better.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from identifiability.nce import GaussianMeanNCE
from paper_checks.claims.nce.common import (
    annulus_kappas,
    attack,
    kappa_at_worst_point,
    lambda_M,
    steps_to,
)
from paper_checks.defence import Defence
from paper_checks.perturbation import Perturbed
from paper_checks.registry import (
    ClaimResult,
    Independent,
    Margin,
    claim,
    claim_quick_full,
    judge,
)

PAPER = "004"
#: "O(1) close to tau_*" (Theorem 17) read as within distance 1
CLOSE = 1.0
#: NGD's fixed step in the GD-versus-NGD comparison (any fixed step reaches distance CLOSE)
NGD_STEP = 0.5
QUICK_R = (2.0, 3.0, 4.0, 5.0)
FULL_R = (2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5)
#: NGD is polynomial: its growth needs a wider range of R to tell from an exponential
QUICK_R_NGD = (2.0, 4.0, 8.0)
FULL_R_NGD = (2.0, 4.0, 8.0, 16.0)
GD_CAP = 400_000


@cache
def gd_count(R: float) -> int | None:
    """Steps of GD (eta = 1/lambda_M) from tau_q to reach ||tau - tau_*|| <= CLOSE."""
    return steps_to(R, "gd", 1 / lambda_M(R), CLOSE, GD_CAP)


@cache
def ngd_count(R: float) -> int | None:
    """Steps of NGD (fixed step NGD_STEP) from tau_q to reach ||tau - tau_*|| <= CLOSE."""
    return steps_to(R, "ngd", NGD_STEP, CLOSE, GD_CAP)


def growth_fits(sizes: tuple[float, ...], counts: list[int]) -> dict[str, float]:
    """RMS residuals of log T fitted linearly in R ('exponential') and in log R ('polynomial'),
    and the two slopes."""
    y = np.log(np.asarray(counts, dtype=float))
    out: dict[str, float] = {}
    for name, x in (("exponential", np.asarray(sizes)), ("polynomial", np.log(sizes))):
        coef = np.polyfit(x, y, 1)
        out[name] = float(np.sqrt(np.mean((np.polyval(coef, x) - y) ** 2)))
        out[f"{name} slope"] = float(coef[0])
    return out


def _growth_margin(fits: dict[str, float], growth: str, what: str) -> tuple[bool, Margin]:
    other = "polynomial" if growth == "exponential" else "exponential"
    ok = fits[growth] < fits[other] and fits[f"{growth} slope"] > 0
    slack = math.log10(max(fits[other], 1e-12) / max(fits[growth], 1e-12))
    return ok, Margin(slack, f"{what}: RMS of the {other} fit / RMS of the {growth} fit")


@claim_quick_full(
    id="NCE-Thm17-exponential", quick={"sizes": QUICK_R}, full={"sizes": FULL_R},
    paper=PAPER, reference="§4.1.3.2 Theorem 17 (and the note after it: eta <= 1/lambda_M)",
    statement="Gradient descent with any step size eta = o(1) from tau = tau_q will need an "
    "exponential number of steps to reach some tau' that is O(1) close to tau_*",
    perturbation=Perturbed("a polynomial number of steps (the growth NGD has, Theorem 19)",
                           growth="polynomial"), basis="not_refuted", universal=True)
def nce_thm17_exponential(sizes: tuple[float, ...], growth: str = "exponential") -> ClaimResult:
    counts = {R: gd_count(R) for R in sizes}
    if any(v is None for v in counts.values()):
        return ClaimResult(counts, "all runs arrive", "skipped",
                           details={"reason": f"a GD run did not arrive within {GD_CAP} steps"})
    steps = [int(v) for v in counts.values()]  # type: ignore[arg-type]
    fits = growth_fits(sizes, steps)
    ok, margin = _growth_margin(fits, growth, "log T(R)")
    rates = np.diff(np.log(steps)) / np.diff(sizes)
    powers = np.diff(np.log(steps)) / np.diff(np.log(sizes))
    return ClaimResult(
        measured={"steps to distance <= 1": counts,
                  "RMS of log T: linear in R / linear in log R":
                      (round(fits["exponential"], 4), round(fits["polynomial"], 4)),
                  "d log T / dR": [round(float(r), 3) for r in rates],
                  "local power d log T / d log R": [round(float(p), 2) for p in powers]},
        reference_value=f"{growth} growth of T(R)", verdict=judge(ok), margin=margin,
        details={"setting": "population NCE gradients, eta = 1/lambda_M (lambda_M = max over "
                            "Theta = [0, R] of sigma_max(H(tau(theta))), Omega(R^2) by Lemma "
                            "48, so eta = o(1)), tau_0 = tau_q, 'O(1) close' = distance <= 1",
                 "reading": "'exponential' tested against its alternative: log T is linear in R "
                            "(constant d log T/dR) while the local power d log T/d log R keeps "
                            "growing -- no polynomial R^k fits; T ~ e^{2.5 R} here, above the "
                            "proof's lower bound omega(R) e^{9R^2/128} (NCE-Lem49's exponent) at "
                            "these R",
                 "fit": f"exponential slope {fits['exponential slope']:.3f}, polynomial slope "
                        f"{fits['polynomial slope']:.2f}"})


@claim_quick_full(
    id="NCE-Thm17-GD-vs-NGD", quick={"sizes": QUICK_R, "sizes_ngd": QUICK_R_NGD},
    full={"sizes": FULL_R, "sizes_ngd": FULL_R_NGD},
    paper=PAPER, reference="§4.1.3.2 Theorem 17, §4.1.4 Theorem 19",
    statement="From tau_q, gradient descent with a standard step needs exponentially many "
    "steps, while normalized gradient descent converges in polynomially many",
    perturbation=Perturbed("GD and NGD swapped: GD polynomial, NGD exponential",
                           gd_growth="polynomial", ngd_growth="exponential"),
    basis="not_refuted", universal=True)
def nce_thm17_gd_vs_ngd(sizes: tuple[float, ...], sizes_ngd: tuple[float, ...],
                        gd_growth: str = "exponential", ngd_growth: str = "polynomial"
                        ) -> ClaimResult:
    gd = {R: gd_count(R) for R in sizes}
    ngd = {R: ngd_count(R) for R in sizes_ngd}
    if any(v is None for v in (*gd.values(), *ngd.values())):
        return ClaimResult({"GD": gd, "NGD": ngd}, "all runs arrive", "skipped",
                           details={"reason": "a run did not arrive within its cap"})
    gd_fit = growth_fits(sizes, [int(v) for v in gd.values()])  # type: ignore[arg-type]
    ngd_fit = growth_fits(sizes_ngd, [int(v) for v in ngd.values()])  # type: ignore[arg-type]
    ok_gd, m_gd = _growth_margin(gd_fit, gd_growth, "GD")
    ok_ngd, m_ngd = _growth_margin(ngd_fit, ngd_growth, "NGD")
    return ClaimResult(
        measured={"GD steps to distance <= 1": gd, "NGD steps to distance <= 1": ngd},
        reference_value=f"GD {gd_growth}, NGD {ngd_growth}", verdict=judge(ok_gd and ok_ngd),
        margin=Margin.tightest([m_gd, m_ngd]),
        details={"setting": f"population gradients, tau_0 = tau_q; GD eta = 1/lambda_M; NGD fixed "
                            f"step {NGD_STEP}; 'converges' read as distance <= {CLOSE}; NGD "
                            f"over R in {sizes_ngd} (a polynomial needs a wider range of R to "
                            "be told from an exponential; GD cannot be run that far)",
                 "fits (RMS exp, RMS poly)": {
                     "GD": (round(gd_fit["exponential"], 4), round(gd_fit["polynomial"], 4)),
                     "NGD": (round(ngd_fit["exponential"], 4), round(ngd_fit["polynomial"], 4))},
                 "note": "the O(.) constants of Theorems 17 and 19 are not specified: the check "
                         "tests the growth laws over R, not a count"})


@cache
def _claim6_norms(R: float) -> tuple[tuple[float, float, float], ...]:
    """(b, c, ||grad L(b, c)||) on the grid b in [-2R, 2R] (13 points), c in [-2R^2 - 50,
    2R^2 + 50] (21 points); a gradient below double precision counts as 0."""
    prob = GaussianMeanNCE(R)
    out = []
    for b in np.linspace(-2 * R, 2 * R, 13):
        for c in np.linspace(-2 * R * R - 50, 2 * R * R + 50, 21):
            try:
                g = float(np.linalg.norm(prob.gradient([b, c])))
            except FloatingPointError:      # below 1e-300: exponentially flat there
                g = 0.0
            out.append((float(b), float(c), g))
    return tuple(out)


@claim(id="NCE-Claim6", paper=PAPER, reference="§4.1.7.1.2 Claim 6 (used by Lemma 50)",
       statement="For any tau = [b, c] in R^2, the gradient norm at tau is ||grad L(tau)||_2 <= "
       "32 max{R, |b|}",
       perturbation=Perturbed("the factor max{R, |b|} dropped (its exponent 1 -> 0): "
                              "||grad L|| <= 32", exponent=0.0),
       basis="not_refuted", universal=True)
def nce_claim6(constant: float = 32.0, exponent: float = 1.0) -> ClaimResult:
    rows = {}
    for R in (1.0, 4.0, 16.0, 64.0, 128.0):
        b, c, g = max(_claim6_norms(R), key=lambda t: t[2] / max(R, abs(t[0])) ** exponent)
        rows[R] = (g / max(R, abs(b)) ** exponent, (round(b, 2), round(c, 2)))
    worst = max(v[0] for v in rows.values())
    return ClaimResult(
        measured={R: {"max ||grad|| / max{R,|b|}^e": round(v[0], 4), "at (b, c)": v[1]}
                  for R, v in rows.items()},
        reference_value=f"<= {constant:g}", verdict=judge(worst <= constant),
        margin=Margin.ratio(worst, constant, what="max over tau of ||grad L|| / max{R,|b|}^e "
                                                  "against the constant"),
        details={"grid": "b in [-2R, 2R] (13 points), c in [-2R^2 - 50, 2R^2 + 50] (21 points), "
                         "R in {1, 4, 16, 64, 128}",
                 "why": "||grad L|| <= (1/2)(E_Q||T|| + E_*||T||) since q p/(p+q), q p_*/(p+q) "
                        "are at most q and p_*: the supremum ~ R/2 is met where p << q (large c), "
                        "so the ratio tends to 1/2 and the printed 32 has a factor ~64 of room"})


@cache
def _lemma50_rows(sizes: tuple[float, ...]) -> dict[float, dict[str, float]]:
    """min over tau (||tau - tau_*|| >= 0.2R) of ||tau' - tau_*|| / R after one GD step."""
    rows = {}
    for R in sizes:
        prob = GaussianMeanNCE(R)
        lm = lambda_M(R)
        etas = {"eta = 1/lambda_M": 1 / lm, "eta = 1/R": 1 / R}
        worst = dict.fromkeys(etas, math.inf)
        for rad in (0.2 * R, 0.3 * R, R, R * R / 2):
            for a in np.linspace(0, 2 * np.pi, 72, endpoint=False):
                tau = prob.tau_star + rad * np.array([math.cos(a), math.sin(a)])
                g = prob.gradient(tau)
                for name, eta in etas.items():
                    after = float(np.linalg.norm(tau - eta * g - prob.tau_star)) / R
                    worst[name] = min(worst[name], after)
        rows[R] = {"lambda_M": round(lm, 3), **worst}
    return rows


@claim(id="NCE-Lem50", paper=PAPER, reference="§4.1.3.2 Lemma 50 (Lemma 55, §4.1.7.1.2)",
       statement="Let eta = o(1). For any tau s.t. ||tau - tau_*|| >= 0.2R, let tau' denote the "
       "point after one step of gradient descent from tau, then ||tau' - tau_*|| > 0.15R",
       perturbation=Perturbed("the constant 0.15 raised to 0.2 (one step from the 0.2R circle "
                              "never gets closer)", after=0.2),
       basis="not_refuted", universal=True)
def nce_lem50(after: float = 0.15) -> ClaimResult:
    sizes = (8.0, 16.0)
    rows = _lemma50_rows(sizes)
    worst = min(v for row in rows.values() for k, v in row.items() if k.startswith("eta"))
    return ClaimResult(
        measured={R: {k: (round(v, 5) if k.startswith("eta") else v) for k, v in row.items()}
                  for R, row in rows.items()},
        reference_value=f"min ||tau' - tau_*|| / R > {after}", verdict=judge(worst > after),
        margin=Margin.ratio(worst, after, what="min over tau and R of ||tau' - tau_*|| / R "
                                               "against the constant", upper=False),
        details={"grid": "tau on circles of radius 0.2R, 0.3R, R and R^2/2 around tau_* (72 "
                         "angles each), R in {8, 16}; two o(1) steps: the standard 1/lambda_M "
                         "and 1/R",
                 "room": "near the 0.2R circle the gradient is exponentially small (Lemma 49), "
                         "so one step barely moves: the minimum stays at ~0.2R, i.e. 4/3 of the "
                         "printed 0.15R"})


def _thm18_defence() -> Defence:
    return Defence(
        version="004 is a single document (B. Liu's thesis); Theorem 18 and its proof (§4.1.9.1) "
                "appear once. The conference paper this section comes from is not among the "
                "seeds, so no other version can be compared.",
        regime="The count is asymptotic in R (R >> 1, footnote 4: O and Omega never hide a "
               "dominating dependency on R). Measured at R = 16, 32, 48 the effective exponent "
               "kappa of the annulus tends to 9/16, so the gap between the printed e^{R^2/8} and "
               "the supported e^{kappa R^2/8} grows with R: the regime makes the step worse, not "
               "better.",
        convention="(4.62) divides the annulus width 0.05R by the per-step progress; no sign or "
                   "normalisation convention changes the exponent of that progress.",
        definitions="The proof's own per-step progress is Lemma 49's e^{-kappa(b,c) R^2/8} (times "
                    "Newton's step factors); the final count sets kappa = 1. Read with the "
                    "thesis's kappa in [3/4, 5/4] the printed count still needs kappa >= 1 "
                    "everywhere on the annulus, which Lemma 49 itself does not give (its kappa "
                    "can be 3/4).",
        parameters="No experimental parameter: a proof step. The step size eta = "
                   "O(lambda_rho/lambda_M) is the theorem's.",
        extraction="The accusation rests on the exponent R^2/8 in the final count against "
                   "kappa R^2/8 in (4.62). If extraction had dropped a kappa from the final "
                   "count, the printed Omega(R^3 e^{kappa R^2/8}) would still need kappa's "
                   "minimum; with kappa_min -> 9/16 (measured) the count the proof supports is "
                   "Omega(R^3 e^{9R^2/128}), so the verdict (an unproven step, Theorem 18 itself "
                   "still exponential) does not rest on a symbol extraction could drop.",
        attack=attack("NCE-Thm18-count"))


@claim(id="NCE-Thm18-count", paper=PAPER, reference="§4.1.9.1 proof of Theorem 18, (4.62)",
       statement="the number of Newton steps to cross the annulus is at least 0.05R / "
       "O((2/R^2) exp(-R^2/8)) = Omega(R^3 exp(R^2/8))", expected_verdict="unproven",
       defence=_thm18_defence(), basis="numeric", universal=True)
def nce_thm18_count() -> ClaimResult:
    rows = {}
    for R in (16.0, 32.0, 48.0):
        kmin = annulus_kappas(R)[0]
        # log of the count the proof supports against the printed one, both with the printed
        # polynomial factor R^3 (0.05 R / (2/R^2)): they differ only in the exponent kappa
        supported = math.log(R**3) + kmin * R * R / 8
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
        details={"finding": "(4.62) bounds the progress per step by e^{-kappa(b,c) R^2/8} "
                            "(Lemma 49) but the final count uses kappa = 1: the proof supports "
                            "Omega(R^3 e^{kappa_min R^2/8}) with kappa_min -> 9/16 (NCE-Lem49), "
                            "i.e. Omega(R^3 e^{9R^2/128}) -- still exponential, so Theorem 18 "
                            "itself stands",
                 "power of R": "not reliable and not what the verdict rests on: (4.62) prints "
                               "1/R^3 per step, the count uses 2/R^2, and with the corrected "
                               "Lemma 48 1/lambda_M <= 8/(R^2 + 2); the count above keeps the "
                               "printed R^3 (the independent attack pointed out that the first "
                               "version's R^4 mixed the two)"})
