"""Paper 002, magnitude pruning: ICL-* for Theorem 3.7 (eqs. 15-16) on the hinge loss it
bounds, Figure 5A's two sentences, and Figure 5B / the (alpha' M1)^-1 term -- notes PC-12,
PC-13.

Setting of Figure 5, read from :data:`~paper_checks.claims.icl.common.PARAMETERS`:
out-of-domain prompts (§5's patterns with the printed K' = 5), alpha' = 0.6 (§5.1 'Let
alpha = 0.6'), l = 20, 4000 prompts; neurons ranked by ||r_i||, r_i = (W_O W_V)_i (Theorem
3.7); rates R are fractions of the m = 64 neurons (round(R m) pruned); random pruning averages
10 masks.  "Generalization error" is 002's own term, the hinge loss of eqs. 4-5; Figure 5A's
curves plot the classification error of §5, which every check reports next to it.

Theorem 3.7's Omega(R) has no constant: :func:`icl_thm37_pruning_hinge` reads it as a rise of
at least 0.25 R (stated in its reference value).  The checks of Figure 5A's sentences need no
such constant: "increases" is a rise beyond the sampling error at every step of the rate, and
"does not hurt" a change within it.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np

from identifiability.icl import evaluate, pruning_curve
from paper_checks.claims.icl.common import (
    ALPHA_TEST,
    K_PRIME,
    L_TEST,
    M1,
    OOD,
    OOD_TASKS,
    PAPER,
    PARAMETERS,
    PATTERNS,
    UNSEEN,
    active_seed,
    model_state,
    prompts,
    rounded,
    seeds,
    small_neurons,
    trained,
)
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Margin, claim, judge
from paper_checks.seeds import setting_stream

RATES = (0.0, 0.2, 0.4)
FIG5_RATES = (0.0, 0.1, 0.2, 0.3, 0.4)
SLOPE = 0.25                  # Omega(R) read as >= 0.25 R (Theorem 3.7 prints no constant)
SMALL_SLACK = 0.02            # "does not hurt" in Theorem 3.7's check: within 0.02
ALPHAS = (0.4, 0.6, 0.8, 1.0)
N_EVAL = 4000
ALPHA_FIG5 = PARAMETERS.value("alpha_prime_fig5")
SETTING = (f"out of domain (§5's patterns, printed K' = {K_PRIME}), alpha' = {ALPHA_FIG5}, "
           f"l = {L_TEST}, {N_EVAL} prompts")


@cache
def pruning(seed: int) -> dict[str, Any]:
    params = trained(seed).params
    batch = prompts(OOD, OOD_TASKS, N_EVAL, L_TEST, ALPHA_FIG5, seed, 12, noise=K_PRIME)
    curve = pruning_curve(params, batch, FIG5_RATES, n_random_masks=10,
                          seed=setting_stream(seed, 120))
    every = tuple(k / params.m for k in range(round(0.5 * params.m) + 1))
    fine = pruning_curve(params, batch, every, orders=("smallest", "largest"))
    return {"curve": curve, "fine": fine, "batch": batch, "m": params.m,
            "small": small_neurons(params.neuron_magnitudes())}


def _table(curve: Any, what: str, rates: tuple[float, ...] = FIG5_RATES,
           keep: tuple[float, ...] = FIG5_RATES) -> dict[str, list[float]]:
    idx = [rates.index(r) for r in keep]
    return {o: [rounded(getattr(curve, what)[o][i]) for i in idx] for o in getattr(curve, what)}


@claim(id="ICL-Thm37-pruning-hinge", paper=PAPER,
       reference="Theorem 3.7 (eqs. 15-16), Remark 3.8, Figure 5A",
       statement="pruning the small-magnitude neurons leaves the generalization (hinge) loss "
       "almost unchanged, while pruning a fraction R of the large ones costs Omega(R)",
       perturbation=Perturbed("the roles swapped: pruning the smallest neurons costs Omega(R) "
                              "and pruning the largest does not hurt", harmless="largest"),
       basis="statistical")
def icl_thm37_pruning_hinge(harmless: str = "smallest") -> ClaimResult:
    m = pruning(active_seed())
    c = m["curve"]
    h = {o: [float(c.hinge[o][FIG5_RATES.index(r)]) for r in RATES] for o in c.hinge}
    costly = "largest" if harmless == "smallest" else "smallest"
    rises = [(h[costly][k] - h[costly][0], SLOPE * RATES[k]) for k in (1, 2)]
    keeps = h[harmless][1] <= h[harmless][0] + SMALL_SLACK
    order = all(h["smallest"][k] < h["random"][k] < h["largest"][k] for k in (1, 2))
    ok = keeps and all(r >= t for r, t in rises) and order
    slack = min([math.log10(max(r, 1e-12) / t) for r, t in rises]
                + [math.log10((h[harmless][0] + SMALL_SLACK) / max(h[harmless][1], 1e-12))])
    return ClaimResult(
        measured={"hinge by order (R = 0, 0.2, 0.4)": _table(c, "hinge", keep=RATES),
                  "neurons pruned": [round(r * m["m"]) for r in RATES]},
        reference_value=f"{harmless}-first: h(0.2) <= h(0) + {SMALL_SLACK}; {costly}-first: "
        f"h(R) - h(0) >= {SLOPE} R; smallest < random < largest",
        verdict=judge(ok), margin=Margin(slack, "min log10 of the room in each inequality"),
        details={"hinge SE": _table(c, "hinge_se", keep=RATES),
                 "classification error": _table(c, "error", keep=RATES),
                 "setting": SETTING + ", 10 random masks",
                 "eq. 15": "asserted by ICL-Thm37-eq15-prune-small",
                 "eq. 16 with constant 1 (not asserted)": _eq16_constant_one(),
                 "seeds": seeds(active_seed(), 12, 120)})


def _eq16_constant_one() -> dict[str, Any]:
    """Largest-first hinge against eq. 16's R + (alpha' M1)^-1 read with constant 1, over the
    alpha' sweep of Figure 5B: a reading of Omega(.) reported, not asserted (no constant)."""
    curves = pruning_alpha(active_seed())
    rows = {}
    for a in ALPHAS:
        h = curves[a].hinge["largest"]
        rows[f"alpha' = {a}"] = {f"R = {r}": f"{h[k]:.3f} vs {r + 1 / (a * M1):.3f}"
                                 for k, r in enumerate(RATES) if r > 0}
    return {"largest-first hinge vs R + 1/(alpha' M1)": rows,
            "why not asserted": "Omega has no constant; with constant 1 the bound exceeds the "
            "measured hinge at alpha' = 0.4, R = 0.4 on every training seed 0-4 (and at R = 0.2 "
            "on seeds 0, 2, 4), while it holds at the printed alpha' = 0.6 on all five "
            "(closely at R = 0.4: 0.685 vs 0.678 on seed 0)"}


@claim(id="ICL-Fig5A-pruning-error", paper=PAPER, reference="§5.1, Figure 5A, Remark 3.8",
       statement="The generalization error increases as the pruning rate increases when "
       "pruning neurons with large weights",
       perturbation=Perturbed("the same for pruning the neurons with small weights (a wrong "
                              "domain: magnitude-based pruning, smallest first)",
                              order="smallest"), basis="statistical")
def icl_fig5a_pruning_error(order: str = "largest") -> ClaimResult:
    c = pruning(active_seed())["curve"]
    h, se = c.hinge[order], c.hinge_se[order]
    steps = [(float(h[k + 1] - h[k]), float(2 * se[k + 1])) for k in range(len(FIG5_RATES) - 1)]
    ok = all(d > t for d, t in steps)
    slack = min(math.log10(max(d, 1e-12) / t) for d, t in steps)
    err = c.error[order]
    return ClaimResult(
        measured={f"hinge, {order} first, R = {list(FIG5_RATES)}": [rounded(v) for v in h],
                  "rise at each step": [rounded(d) for d, _ in steps]},
        reference_value="each step of R raises the hinge loss by more than 2 SE",
        verdict=judge(ok), margin=Margin(slack, "min log10(rise / 2 SE) over the steps of R"),
        details={"reading": "'generalization error' is 002's term for the expected hinge loss "
                 f"(eqs. 4-5; {PARAMETERS['generalization_error'].where}), the quantity "
                 "Theorem 3.7 (16) bounds and the sentence cites ('consistent with Theorem 3.7 "
                 "and Remark 3.8')",
                 "classification error (what Figure 5A's curves plot)": {
                     "values": [rounded(v) for v in err],
                     "SE": [rounded(v) for v in c.error_se[order]],
                     "rises from R = 0 to 0.4 by more than 2 SE": bool(
                         err[-1] - err[0] > 2 * c.error_se[order][-1]),
                     "note": "on training seeds 0-4 it rises on some and stays within 2 SE on "
                     "others (2 and 4): removing neurons of both signs of a_i shrinks F but "
                     "rarely flips its sign; no verdict rests on it"},
                 "all orders": {"hinge": _table(c, "hinge"), "error": _table(c, "error")},
                 "independent attack (2026-11-26, document and verdict only)": "upheld. The "
                 "reviewer's own numpy re-implementation of eq. 2 (cruder training) finds the "
                 "largest-first hinge rising at every step on both well-trained seeds (0.507 -> "
                 "0.925, 0.638 -> 0.980 for R = 0..0.6), and reads §2.2 (eqs. 4-5) and Remark "
                 "3.8 as we do. Caveats recorded: Figure 5A's caption shows baseline, random and "
                 "magnitude-based (smallest-first) curves only, so the sentence speaks of the "
                 "theory or of the magnitude-based curve past ~15%, where large neurons start "
                 "to go -- the largest-first order checked here is the direct instance of "
                 "'pruning neurons with large weights' (Theorem 3.7's S in L); a reader of the "
                 "figure's y-axis would read the classification error, under which the sentence "
                 "is a trend (0.110 -> 0.172 here, with a dip) -- at most a terminology note, "
                 "not an erratum",
                 "parameters": "K' = 5, alpha' = 0.6 as printed (§5, §5.1); an earlier version "
                 "of this check used K' = 0.5 and a 0.25 R threshold of its own, and read the "
                 "sentence as the classification error",
                 "setting": SETTING, "seeds": seeds(active_seed(), 12, 120)})


@claim(id="ICL-Fig5A-small-neurons", paper=PAPER, reference="§5.1, Figure 5A (bars and curves)",
       statement="magnitude-based pruning does not hurt out-of-domain generalization if the "
       "pruning rate is lower than around 15%, which is the ratio of W_O neurons with a small "
       "magnitude",
       perturbation=Perturbed("the same below 40% (the rate 15% replaced by 40%)", rate=0.4),
       basis="statistical")
def icl_fig5a_small_neurons(rate: float = 0.15) -> ClaimResult:
    m = pruning(active_seed())
    fine, n = m["fine"], m["m"]
    h, e = fine.hinge["smallest"], fine.error["smallest"]
    h_tol = 2 * float(fine.hinge_se["smallest"][0])
    e_tol = 2 * float(fine.error_se["smallest"][0])
    upto = round(rate * n)
    rise_h = float(max(h[: upto + 1] - h[0]))
    rise_e = float(max(e[: upto + 1] - e[0]))
    knee = max(k for k in range(len(h)) if all(h[j] - h[0] <= h_tol for j in range(k + 1)))
    n_small = int(m["small"].sum())
    frac = n_small / n
    flat = rise_h <= h_tol and rise_e <= e_tol
    linked = knee >= n_small                     # pruning every small neuron does not hurt
    around = 0.15 / 2 <= frac <= 0.15 * 2
    margins = [Margin.ratio(max(rise_h, 1e-12), h_tol, what="hinge rise below the rate / 2 SE"),
               Margin.ratio(max(rise_e, 1e-12), e_tol, what="error rise below the rate / 2 SE"),
               Margin(math.log10((knee + 1) / (n_small + 1)), "(flat range + 1) / (|L^c| + 1)"),
               Margin(math.log10(min(frac / 0.075, 0.30 / frac)), "small fraction in [7.5%, 30%]")]
    return ClaimResult(
        measured={f"largest rise of the hinge up to R = {rate} ({upto} neurons)": rounded(rise_h),
                  "largest rise of the classification error": rounded(rise_e),
                  "flat range (neurons pruned smallest-first within 2 SE of unpruned hinge)":
                  f"{knee} of {n} ({knee / n:.1%})",
                  "small-magnitude neurons (two-means split of log ||r_i||)":
                  f"{n_small} of {n} ({frac:.1%})"},
        reference_value=f"hinge and error within 2 SE ({h_tol:.4f}, {e_tol:.4f}) of the "
        f"unpruned model for every rate <= {rate}; the flat range covers all small neurons; "
        "their fraction 'around 15%' (within a factor 2)",
        verdict=judge(flat and linked and around), margin=Margin.tightest(margins),
        details={"reading": "'does not hurt' = no change beyond the sampling error (2 SE of the "
                 "unpruned estimate on the same 4000 prompts), for the hinge loss (002's "
                 "generalization error, eqs. 4-5) and for the classification error Figure 5A "
                 "plots; 'the ratio of W_O neurons with a small magnitude' = the small side of "
                 "Theorem 3.7's dichotomy (eq. 14), found without a threshold by splitting "
                 "log ||r_i|| in two; 'around 15%' read as within a factor 2, since the "
                 "fraction depends on m, eta, T, which 002 does not print",
                 "sorted ||r_i|| (smallest 20)":
                 np.sort(trained().params.neuron_magnitudes())[:20].round(2).tolist(),
                 "hinge, smallest first, k = 0..20 neurons": [rounded(v) for v in h[:21]],
                 "setting": SETTING, "seeds": seeds(active_seed(), 12)})


@cache
def eq15(seed: int, state: str = "trained") -> dict[str, Any]:
    params = trained(seed).params
    small = small_neurons(params.neuron_magnitudes())
    out = {}
    for dom, pats, tasks, alpha, noise in (
            ("in-domain (unseen tasks)", PATTERNS, UNSEEN, ALPHA_TEST, PARAMETERS.value("K")),
            ("out-of-domain (Figure 5's setting)", OOD, OOD_TASKS, ALPHA_FIG5, K_PRIME)):
        batch = prompts(pats, tasks, N_EVAL, L_TEST, alpha, seed, 15, noise=noise)
        out[dom] = {"unpruned": evaluate(params, batch),
                    "L^c": evaluate(params.with_mask(np.where(small, 0.0, 1.0)), batch),
                    "L": evaluate(params.with_mask(np.where(small, 1.0, 0.0)), batch)}
    return {"by domain": out, "n_small": int(small.sum()), "m": params.m}


#: The hinge loss of the zero predictor F = 0 (max{0, 1 - z 0} = 1): a bound at or above it says
#: nothing a model that predicts nothing does not already satisfy.
ZERO_PREDICTOR_HINGE = 1.0


@claim(id="ICL-Thm37-eq15-prune-small", paper=PAPER, reference="Theorem 3.7, eq. 15; (128)",
       statement="pruning all neurons i in L^c leads to a generalization error "
       "E[l(Psi_{L^c}; P, z)] <= O(epsilon + M1^(-1/2)), in or out of domain",
       perturbation=Perturbed("the same after pruning all of L, the large neurons (a wrong "
                              "domain)", pruned="L"), basis="statistical")
def icl_thm37_eq15_prune_small(pruned: str = "L^c") -> ClaimResult:
    m = eq15(active_seed(), model_state())
    rows, margins, ok = {}, [], True
    for dom, ev in m["by domain"].items():
        eps = ev["unpruned"].hinge
        bound = eps + M1 ** -0.5
        after = ev[pruned].hinge + 2 * ev[pruned].hinge_se
        ok &= after <= bound < ZERO_PREDICTOR_HINGE
        margins.append(Margin.ratio(max(after, 1e-12), bound,
                                    what=f"{dom}: pruned hinge (+2 SE) / (epsilon + M1^-1/2)"))
        margins.append(Margin.ratio(bound, ZERO_PREDICTOR_HINGE,
                                    what=f"{dom}: (epsilon + M1^-1/2) / the zero predictor's "
                                    "hinge 1"))
        rows[dom] = {"epsilon (unpruned hinge)": rounded(eps),
                     f"hinge after pruning {pruned}": rounded(ev[pruned].hinge),
                     "bound epsilon + M1^-1/2": rounded(bound),
                     "classification error after pruning": rounded(ev[pruned].error)}
    return ClaimResult(
        measured=rows, reference_value="pruned hinge + 2 SE <= epsilon + M1^(-1/2) "
        f"(= epsilon + {M1 ** -0.5:.3f}) < 1 (the zero predictor's hinge) in both domains",
        verdict=judge(ok), margin=Margin.tightest(margins),
        details={"reading": "O(.) with constant 1; epsilon is the unpruned model's own loss, "
                 "which Theorems 3.3-3.4 bound by O(epsilon); L^c = the small side of eq. 14's "
                 f"dichotomy, found without a threshold (two-means split of log ||r_i||: "
                 f"{m['n_small']} of {m['m']} neurons)",
                 "premise": "Theorem 3.7 prunes the model Theorems 3.3-3.4 return, whose loss "
                 "is O(epsilon) with epsilon small; with epsilon the model's own loss an "
                 "untrained model (hinge 1.0, the zero predictor's) meets 'pruned <= epsilon + "
                 "M1^-1/2' trivially. The check therefore also asks the bound to say something: "
                 "epsilon + M1^-1/2 < 1, the hinge of F = 0. The untrained model fails it "
                 "(tested)",
                 "setting": f"in domain: unseen tasks, alpha' = {ALPHA_TEST}, K = "
                 f"{PARAMETERS.value('K')}; out of domain: {SETTING}",
                 "confidence": f"{N_EVAL} prompts per domain, 2 standard errors of the pruned "
                 "hinge added to it",
                 "seeds": seeds(active_seed(), 15)})


@cache
def pruning_alpha(seed: int) -> dict[float, Any]:
    params = trained(seed).params
    return {a: pruning_curve(params, prompts(OOD, OOD_TASKS, N_EVAL, L_TEST, a, seed,
                                             1300, round(10 * a), noise=K_PRIME), RATES,
                             orders=("smallest", "largest"))
            for a in ALPHAS}


@claim(id="ICL-Thm37-alpha-prime", paper=PAPER, reference="Theorem 3.7 (eq. 16), Figure 5B",
       statement="a larger alpha' improves the pruned model (the (alpha' M1)^-1 term of eq. 16)",
       perturbation=Perturbed("the reverse: a larger alpha' worsens the pruned model",
                              direction=-1), basis="statistical")
def icl_thm37_alpha_prime(direction: int = 1) -> ClaimResult:
    curves = pruning_alpha(active_seed())
    rows, ok, slack = {}, True, math.inf
    for order in ("smallest", "largest"):
        for k in (1, 2):
            h = [float(curves[a].hinge[order][k]) for a in ALPHAS]
            se = [float(curves[a].hinge_se[order][k]) for a in ALPHAS]
            steps = [direction * (h[i] - h[i + 1]) + 2 * (se[i] + se[i + 1])
                     for i in range(len(ALPHAS) - 1)]
            total = direction * (h[0] - h[-1])
            ok &= min(steps) >= 0 and total >= 0.02
            slack = min(slack, math.log10(max(total, 1e-12) / 0.02))
            rows[f"{order}, R = {RATES[k]}"] = [rounded(v) for v in h]
    return ClaimResult(
        measured={"hinge at alpha' = 0.4, 0.6, 0.8, 1.0": rows},
        reference_value="non-increasing in alpha' (within 2 SE) and h(0.4) - h(1.0) >= 0.02",
        verdict=judge(ok), margin=Margin(slack, "min log10((h(0.4) - h(1.0)) / 0.02)"),
        details={"setting": f"out of domain, printed K' = {K_PRIME}, l = {L_TEST}, {N_EVAL} "
                 "prompts per alpha'",
                 "seeds": seeds(active_seed(), *((1300, round(10 * a)) for a in ALPHAS))})
