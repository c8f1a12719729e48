"""Paper 002, generalization of the trained model: ICL-* for Theorem 3.3 (unseen in-domain
tasks), Theorem 3.4 with its two hypotheses (eq. 12's S_j >= 1, Figure 3A, and the ODI span),
and the testing context length of eq. 9 / Remark 3.5 (Figure 3B) -- notes PC-04, PC-05, PC-06,
PC-17.

All use the shared model of :mod:`paper_checks.claims.icl.common` (training seed 0) and fresh
prompts; errors are Pr(zF <= 0) with a 97.5% Clopper-Pearson upper bound, hinge losses with
their standard errors.  Theorems 3.3-3.4 bound the hinge loss by O(epsilon) without constants:
the checks use 0.05 for the hinge (mean + 2 SE) and 0.01 for the error (the "< 0.01" of §5.1).

**K'.** Theorem 3.4 assumes K' <= O(1); its checks use ``THEOREM_K_PRIME`` (K' = 1, the
hypothesis with constant 1), a departure from the printed experimental K' = 5 recorded through
``PARAMETERS.deviate`` in each claim's details with the reason.  Figure 3 was measured on GPT-2,
which this toolkit cannot run: ``ICL-Fig3A-S1-necessity`` is skipped, and what the one-layer
model does is a separate observation (``ICL-Fig3A-one-layer``), at K' = 1 and at the printed
K' = 5.
"""

from __future__ import annotations

import dataclasses
import math
from functools import cache
from typing import Any

import numpy as np

from identifiability.icl import (
    evaluate,
    min_context_length,
    ood_patterns_from_coefficients,
    theorem34_conditions,
    train,
)
from paper_checks.claims.icl.common import (
    ALPHA_TEST,
    CONFIG,
    K_PRIME,
    L_TEST,
    OOD,
    OOD_TASKS,
    PAPER,
    PARAMETERS,
    PATTERNS,
    THEOREM_K_PRIME,
    THEOREM_K_PRIME_DEVIATION,
    UNSEEN,
    active_seed,
    prompts,
    rounded,
    s1_patterns,
    seeds,
    trained,
)
from paper_checks.compare import ratio_result
from paper_checks.defence import Attack, Defence
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Margin, claim, judge
from paper_checks.seeds import setting_stream

HINGE_MAX = 0.05
ERROR_MAX = 0.01
N_EVAL = 4000
ALPHAS = (1.0, 0.8, 0.6, 0.4)
LENGTHS = tuple(range(1, 21))
S1_SUFFICIENT = (1.28, 1.1)
S1_BELOW = (0.9, 0.7, 0.5)
S1_SWEEP = (0.9, 0.7, 0.5, 0.0, -0.5, -1.0, -1.28)
MU1_TASKS = [(0, 1), (0, 2), (1, 0), (2, 0)]      # every OOD task with mu'_1 decisive


def _summary(ev: Any) -> dict[str, float]:
    return {"error": rounded(ev.error), "error upper (97.5%)": rounded(ev.error_upper),
            "hinge": rounded(ev.hinge), "hinge SE": rounded(ev.hinge_se)}


def _generalizes(ev: Any) -> tuple[bool, float]:
    upper = ev.hinge + 2 * ev.hinge_se
    ok = upper <= HINGE_MAX and ev.error_upper <= ERROR_MAX
    return ok, min(math.log10(HINGE_MAX / max(upper, 1e-12)),
                   math.log10(ERROR_MAX / ev.error_upper))


@cache
def in_domain(seed: int) -> dict[str, Any]:
    model = trained(seed)
    batch = prompts(PATTERNS, UNSEEN, N_EVAL, L_TEST, ALPHA_TEST, seed, 4)
    return {"trained": evaluate(model.params, batch), "init": evaluate(model.initial, batch)}


@claim(id="ICL-Thm33-in-domain", paper=PAPER, reference="Theorem 3.3 (eq. 11), §5",
       statement="under Condition 3.2 and (i)-(iv) the trained model reaches an in-domain "
       "generalization error O(epsilon), unseen tasks included",
       perturbation=Perturbed("the same bound for the model after T = 0 iterations "
                              "(condition (iv) dropped)", trained_model=False),
       basis="statistical")
def icl_thm33_in_domain(trained_model: bool = True) -> ClaimResult:
    m = in_domain(active_seed())
    ev = m["trained" if trained_model else "init"]
    ok, slack = _generalizes(ev)
    return ClaimResult(
        measured=_summary(ev), reference_value={"hinge + 2SE": HINGE_MAX, "error": ERROR_MAX},
        verdict=judge(ok), margin=Margin(slack, "min log10(threshold / measured) of hinge "
                                         "(+2SE) and error upper bound"),
        details={"setting": f"24 unseen tasks (6 cyclic training tasks), alpha' = {ALPHA_TEST}"
                 f", l_ts = {L_TEST}, K = {PARAMETERS.value('K')}, {N_EVAL} prompts",
                 "untrained model": _summary(m["init"]),
                 "seeds": seeds(active_seed(), 4)})


S1_PRINTED = PARAMETERS.value("ood_a") + PARAMETERS.value("ood_b")     # 1.28


@cache
def out_of_domain(seed: int, s1: float, noise: float) -> Any:
    pats = OOD if s1 == S1_PRINTED else s1_patterns(s1)
    return evaluate(trained(seed).params, prompts(pats, OOD_TASKS, N_EVAL, L_TEST, ALPHA_TEST,
                                                  seed, 5, noise=noise))


@claim(id="ICL-Thm34-out-of-domain", paper=PAPER, reference="Theorem 3.4 (eqs. 12-13), §5",
       statement="if the ODR patterns are combinations of IDR patterns with coefficient sums "
       "S_j >= 1 (and ODI in span IDI), the out-of-domain generalization error is O(epsilon)",
       perturbation=Perturbed("the same for ODR patterns with S_1 = -1.28 (eq. 12 violated)",
                              s1=-1.28), basis="statistical")
def icl_thm34_out_of_domain(s1: float = S1_PRINTED) -> ClaimResult:
    ev = out_of_domain(active_seed(), s1, THEOREM_K_PRIME)
    ok, slack = _generalizes(ev)
    at_printed = out_of_domain(active_seed(), s1, K_PRIME)
    return ClaimResult(
        measured=_summary(ev), reference_value={"hinge + 2SE": HINGE_MAX, "error": ERROR_MAX},
        verdict=judge(ok), margin=Margin(slack, "min log10(threshold / measured)"),
        details={"setting": f"§5's mu'_1..3 with S_1 = {s1} (a = b = 0.64 gives 1.28; S_2 = S_3 "
                 f"= sqrt2), nu' = nu, K' = {THEOREM_K_PRIME}, all 6 OOD tasks, alpha' = "
                 f"{ALPHA_TEST}, l_ts = {L_TEST}, {N_EVAL} prompts",
                 "parameters": THEOREM_K_PRIME_DEVIATION,
                 f"at the printed K' = {K_PRIME} (not a verdict)": _summary(at_printed),
                 "seeds": seeds(active_seed(), 5)})


@cache
def context_length(seed: int) -> dict[str, dict[float, list[float]]]:
    params = trained(seed).params
    out: dict[str, dict[float, list[float]]] = {}
    for dom, pats, tasks, noise in (("in-domain", PATTERNS, UNSEEN, PARAMETERS.value("K")),
                                    ("out-of-domain", OOD, OOD_TASKS, THEOREM_K_PRIME)):
        for a in ALPHAS:
            full = prompts(pats, tasks, 1000, LENGTHS[-1], a, seed, 600, round(10 * a),
                           noise=noise)
            out.setdefault(dom, {})[a] = [evaluate(params, full.prefix(l)).error
                                          for l in LENGTHS]
    return out


@claim(id="ICL-Rem35-context-length", paper=PAPER,
       reference="Theorem 3.3 (eq. 9), insight 2, Remark 3.5, Figure 3B",
       statement="the required testing context length grows in the order of 1/alpha' "
       "(l_ts >= 1/alpha'), in and out of domain",
       perturbation=Perturbed("growth in the order of 1/alpha'^2 (a wrong exponent)", power=2),
       basis="statistical")
def icl_rem35_context_length(power: int = 1) -> ClaimResult:
    curves = context_length(active_seed())
    rows, ok, worst = {}, True, math.inf
    for dom, by_alpha in curves.items():
        lstar = {a: next((l for l, e in zip(LENGTHS, errs, strict=True) if e <= 0.05), math.inf)
                 for a, errs in by_alpha.items()}
        scaled = [a**power * lstar[a] for a in ALPHAS]
        spread = max(scaled) / min(scaled)
        rises = max(errs[i + 1] - errs[i] for errs in by_alpha.values()
                    for i in range(len(LENGTHS) - 1))
        monotone_alpha = all(lstar[ALPHAS[i]] <= lstar[ALPHAS[i + 1]]
                             for i in range(len(ALPHAS) - 1))
        lower_bound = all(lstar[a] >= 1 / a for a in ALPHAS)
        ok &= spread <= 1.6 and monotone_alpha and lower_bound and rises <= 0.03
        worst = min(worst, math.log10(1.6 / spread))
        rows[dom] = {"l*(alpha') (first l with error <= 0.05)": lstar,
                     f"max/min alpha'^{power} l*": round(spread, 3),
                     "largest rise of error in l": round(rises, 4),
                     "closed form ceil(log 0.1 / log(1 - alpha'/2))":
                     {a: min_context_length(a, 0.1) for a in ALPHAS}}
    return ClaimResult(
        measured=rows, reference_value=f"alpha'^{power} l* constant within a factor 1.6, "
        "l* non-increasing in alpha', l* >= 1/alpha'", verdict=judge(ok),
        margin=Margin(worst, f"log10(1.6 / spread of alpha'^{power} l*)"),
        details={"setting": "error on 1000 prompts per alpha', cut to their first l = 1..20 "
                 "contexts (i.i.d. contexts: each cut is a length-l prompt); in domain: unseen "
                 f"tasks; out of domain: §5's patterns, K' = {THEOREM_K_PRIME} (Theorem 3.4's "
                 "regime; Figure 3B itself is GPT-2)",
                 "parameters": THEOREM_K_PRIME_DEVIATION,
                 "reading": "l* tracks the length at which half the chance of having no "
                 "same-pattern context, (1 - alpha'/2)^l / 2, falls to 0.05",
                 "seeds": seeds(active_seed(), *((600, round(10 * a)) for a in ALPHAS))})


@cache
def s1_sweep(seed: int, noise: float) -> dict[float, dict[str, float]]:
    params = trained(seed).params
    out = {}
    for S1 in (*S1_SUFFICIENT, *S1_SWEEP):
        b = prompts(s1_patterns(S1), MU1_TASKS, N_EVAL, L_TEST, ALPHA_TEST, seed, 17,
                    noise=noise)
        F = evaluate(params, b).F
        sel = b.query_patterns == 0
        margin = b.z[sel] * F[sel]
        h = np.maximum(0.0, 1 - margin)
        out[S1] = {"error": float((margin <= 0).mean()), "hinge": float(h.mean()),
                   "hinge SE": float(h.std(ddof=1) / math.sqrt(h.size)), "n": int(sel.sum())}
    return out


@claim(id="ICL-Thm34-S1-sufficient", paper=PAPER, reference="Theorem 3.4 (eq. 12), Figure 3A",
       statement="ODR patterns with S_1 >= 1 generalize: on queries with pattern mu'_1 the "
       "out-of-domain error is below 0.01 (and the hinge loss O(epsilon))",
       perturbation=Perturbed("the hypothesis relaxed to S_1 >= -1.28 (eq. 12 dropped)",
                              s1_min=-1.28), basis="statistical")
def icl_thm34_s1_sufficient(s1_min: float = 1.0) -> ClaimResult:
    sweep = s1_sweep(active_seed(), THEOREM_K_PRIME)
    tested = tuple(s for s in (*S1_SUFFICIENT, *S1_SWEEP) if s >= s1_min)
    worst = max(sweep[s]["hinge"] + 2 * sweep[s]["hinge SE"] for s in tested)
    err = max(sweep[s]["error"] for s in tested)
    return ratio_result(
        max(worst, 1e-12), HINGE_MAX, what="worst hinge (+2SE) / 0.05",
        holds=worst <= HINGE_MAX and err <= ERROR_MAX,
        measured={s: {k: rounded(v) for k, v in sweep[s].items()} for s in tested},
        reference_value={"hinge + 2SE": HINGE_MAX, "error": ERROR_MAX,
                         "S_1 tested": f">= {s1_min}"},
        details={"setting": "mu'_1 = 0.3(mu_1 - mu_2) + a mu_5 + b mu_6, a^2 + b^2 = 0.82 "
                 "(a = b = 0.64 at S_1 = 1.28); tasks with mu'_1 decisive, alpha' = "
                 f"{ALPHA_TEST}, l = {L_TEST}, K' = {THEOREM_K_PRIME}",
                 "parameters": THEOREM_K_PRIME_DEVIATION,
                 "seeds": seeds(active_seed(), 17)})


FIG3A_DEFENCE = Defence(
    version="002 exists in one version among the seeds; Figure 3A and its sentence in §5.1 are "
    "the only statement of the necessity of eq. 12 (Theorem 3.4 states sufficiency only).",
    regime="Not an asymptotic statement: an empirical curve of one trained GPT-2 model. The "
    "verdict is 'skipped', not an accusation: nothing in the sentence is called wrong.",
    convention="No convention involved ('classification error' is §5's E[Pr(y F < 0)]).",
    definitions="The figure's model is named in its caption ('Out-of-domain ICL classification "
    "error on GPT-2') and §5 (a 3-layer, 2-head GPT-2 following Bai et al. 2023, U = 4, "
    "|T_tr| = 24). The one-layer model of eq. 2 is what the theory analyses, not what the "
    "figure measured; the earlier 'erratum' (kind hypothesis) judged the sentence on the wrong "
    "model, which is why it is withdrawn.",
    parameters="The earlier check also ran at K' = 0.5 where §5 prints K' = 5; at the printed "
    "K' = 5 the one-layer model's error is 0.07-0.09 for every S_1 in [0.5, 1.28] (observation "
    "ICL-Fig3A-one-layer), so neither half of the figure is reproduced by that model at the "
    "printed parameters -- a fact about the toolkit's model, not about GPT-2.",
    extraction="Not the basis of anything: the sentence ('the out-of-domain classification "
    "error deviates from 0 when S_1 < 1') and the legends (S_1 = 1.3, 1.1, 0.9, 0.7, 0.5) are "
    "read as printed; the legend's 1.3 is §5's a = b = 0.64, S_1 = 1.28.",
    attack=Attack(
        reviewer="independent reviewer (document and verdict only)", date="2026-11-26",
        outcome="upheld",
        summary="The caption says the figure is GPT-2 and §5 describes that model (3 layers, 2 "
        "heads, U = 4, |T_tr| = 24): one-layer results can neither confirm nor refute it, so "
        "'skipped' is right, and withdrawing the earlier erratum is right too (it ran at "
        "K' = 0.5, while §5 prints K' = 5 and K = 0.5 is the in-domain range). Two remarks, "
        "not accusations: 'justifies the necessity of condition (12)' is empirical wording "
        "(Theorem 3.4 proves sufficiency only), not checkable at this scale; and the one-layer "
        "observation must stay out of the verdict (at K' = 5 its error is flat, 0.07-0.09, "
        "so even the '< 0.01 when S_1 >= 1' half does not carry over) -- it is filed apart as "
        "the consistency entry ICL-Fig3A-one-layer."))


@claim(id="ICL-Fig3A-S1-necessity", paper=PAPER, reference="§5.1, Figure 3A (GPT-2), eq. 12",
       statement="the out-of-domain classification error deviates from 0 when S_1 < 1, which "
       "justifies the necessity of condition (12)", expected_verdict="skipped",
       defence=FIG3A_DEFENCE, basis="statistical")
def icl_fig3a_s1_necessity() -> ClaimResult:
    return ClaimResult(
        measured=None, reference_value="Figure 3A: error < 0.01 for S_1 >= 1, deviating from 0 "
        "for S_1 = 0.9, 0.7, 0.5", verdict="skipped",
        details={"reason": "Figure 3A is a GPT-2 experiment (its caption: 'Out-of-domain ICL "
                 "classification error on GPT-2'; §5: a 3-layer 2-head GPT-2 following Bai et "
                 "al. 2023, U = 4, |T_tr| = 24), with a tokenization and width 002 does not "
                 "give; this toolkit runs only the one-layer model of eq. 2. A measurement on "
                 "another model is not a statement about the figure: not reproducible at this "
                 "scale, no verdict",
                 "observation": "what the one-layer model does is recorded apart, as the "
                 "consistency entry ICL-Fig3A-one-layer (neither half of the figure appears "
                 "there at the printed K' = 5)",
                 "history": "the 2026-11 audit: this claim was an 'erratum' (kind hypothesis) "
                            "measured "
                 "on the one-layer model at K' = 0.5 -- not the figure's model, nor its K'"})


@claim(id="ICL-Fig3A-one-layer", paper=PAPER, reference="Figure 3A's setting, one-layer model",
       statement="observation (the toolkit's one-layer model, not a statement of 002): at "
       "K' = 1 the mu'_1 error stays below 0.01 for S_1 in {0.9, 0.7, 0.5} while the hinge "
       "loss grows as S_1 falls; at the printed K' = 5 the error is above 0.01 for every S_1 "
       "in [0.5, 1.28], roughly flat", category="consistency", basis="statistical")
def icl_fig3a_one_layer() -> ClaimResult:
    regime = s1_sweep(active_seed(), THEOREM_K_PRIME)
    printed = s1_sweep(active_seed(), K_PRIME)
    below = all(regime[s]["error"] < ERROR_MAX for s in S1_BELOW)
    hinges = [regime[s]["hinge"] for s in S1_SWEEP]
    ses = [regime[s]["hinge SE"] for s in S1_SWEEP]
    monotone = all(hinges[i + 1] >= hinges[i] - 2 * (ses[i] + ses[i + 1])
                   for i in range(len(hinges) - 1)) and hinges[-1] > hinges[0]
    figure = (*S1_SUFFICIENT, *S1_BELOW)
    errs = [printed[s]["error"] for s in figure]
    flat = min(errs) >= ERROR_MAX and max(errs) <= 2 * min(errs)
    return ClaimResult(
        measured={f"K' = {THEOREM_K_PRIME}": {s: {"error": rounded(regime[s]["error"]),
                                                 "hinge": rounded(regime[s]["hinge"])}
                                             for s in (*S1_SUFFICIENT, *S1_SWEEP)},
                  f"K' = {K_PRIME} (printed)": {s: {"error": rounded(printed[s]["error"]),
                                                   "hinge": rounded(printed[s]["hinge"])}
                                               for s in figure}},
        reference_value="K' = 1: error < 0.01 below S_1 = 1, hinge non-increasing in S_1 "
        "(2 SE); K' = 5: error >= 0.01 for every S_1, max <= 2 min",
        verdict=judge(below and monotone and flat),
        margin=Margin.ratio(max(errs), 2 * min(errs), what="K' = 5: max / (2 min) of the error"),
        details={"what it says": "in the one-layer model S_1 >= 1 is sufficient, not necessary, "
                 "for a small error at K' = 1 (the sign of F is carried by the label part of "
                 "the attention output, so only sign-reversed patterns flip it); at the printed "
                 "K' = 5 the ODI noise dominates and the error does not depend on S_1. Neither "
                 "is evidence about Figure 3A, a GPT-2 experiment (ICL-Fig3A-S1-necessity)",
                 "parameters": [THEOREM_K_PRIME_DEVIATION, "and the printed K' = 5"],
                 "seeds": seeds(active_seed(), 17)})


@cache
def odi_span(seed: int) -> dict[str, Any]:
    """Out-of-domain evaluation with §5's ODR patterns and three kinds of ODI patterns."""
    mu = PATTERNS.relevant
    a, c = PARAMETERS.value("ood_a"), PARAMETERS.value("odr_coefficient")
    r = math.sqrt(2) / 2
    # IDR directions orthogonal to mu'_1..3 (a = b): span(mu) minus span(mu') is 3-dimensional
    outside = np.stack([(mu[4] - mu[5]) * r, (mu[2] - mu[3]) * r,
                        a * (mu[0] - mu[1]) - c * (mu[4] + mu[5])])
    outside *= PATTERNS.beta / np.linalg.norm(outside, axis=1, keepdims=True)
    rotation, _ = np.linalg.qr(np.random.default_rng(setting_stream(seed, 21)).normal(
        size=(PATTERNS.M2, PATTERNS.M2)))
    k = OOD.relevant @ PATTERNS.relevant.T / PATTERNS.beta**2
    out = {}
    for name, irr in (("rotated", rotation @ PATTERNS.irrelevant), ("outside", outside)):
        ood = ood_patterns_from_coefficients(PATTERNS, k, irr)
        cond = theorem34_conditions(PATTERNS, ood, atol=1e-9)
        ev = evaluate(trained(seed).params, prompts(ood, OOD_TASKS, N_EVAL, L_TEST, ALPHA_TEST,
                                                    seed, 21, noise=THEOREM_K_PRIME))
        out[name] = {"eval": ev, "ODI residual outside span(IDI)": cond.irrelevant_residual,
                     "eq. 12 holds": cond.holds}
    return out


@claim(id="ICL-Thm34-ODI-span", paper=PAPER, reference="Theorem 3.4 (the ODI hypothesis), "
       "Remark 3.5 (1)",
       statement="for ODI patterns nu'_k in span{nu_1..nu_M2} (with eq. 12), the learned model "
       "achieves an out-of-domain generalization error O(epsilon)",
       perturbation=Perturbed("the same for ODI patterns outside span(IDI): the three IDR "
                              "directions orthogonal to the ODR patterns (the hypothesis "
                              "nu'_k in span(IDI) dropped)", odi="outside"), basis="statistical")
def icl_thm34_odi_span(odi: str = "rotated") -> ClaimResult:
    m = odi_span(active_seed())
    ev = m[odi]["eval"]
    ok, slack = _generalizes(ev)
    return ClaimResult(
        measured={"ODI patterns": odi, **_summary(ev),
                  "largest ODI norm outside span(IDI) / beta":
                  rounded(m[odi]["ODI residual outside span(IDI)"]),
                  "eq. 12 (with the ODI span) holds": m[odi]["eq. 12 holds"]},
        reference_value={"hinge + 2SE": HINGE_MAX, "error": ERROR_MAX},
        verdict=judge(ok), margin=Margin(slack, "min log10(threshold / measured)"),
        details={"ODI patterns": "'rotated': nu' = Q nu for a random 24 x 24 orthogonal Q "
                 "(in span(IDI), a more general instance than §5's nu' = nu); 'outside': "
                 "(mu_5 - mu_6)/sqrt2, (mu_3 - mu_4)/sqrt2 and the unit vector along "
                 "a(mu_1 - mu_2) - 0.3(mu_5 + mu_6), scaled to norm beta -- pairwise "
                 "orthogonal and orthogonal to mu'_1..3, as the theorem requires, but in "
                 "span(IDR)",
                 "other side": {k: _summary(v["eval"]) for k, v in m.items() if k != odi},
                 "setting": f"§5's ODR patterns (a = b = 0.64), K' = {THEOREM_K_PRIME}, all 6 "
                 f"OOD tasks, alpha' = {ALPHA_TEST}, l = {L_TEST}, {N_EVAL} prompts",
                 "parameters": THEOREM_K_PRIME_DEVIATION,
                 "seeds": {**seeds(active_seed(), 21),
                           "rotation": f"setting_stream({active_seed()}, 21)"}})


#: Training fractions of the training-length check (Figure 6's axis; §A.1 trains at alpha = 0.6).
TRAIN_ALPHAS = (0.3, 0.4, 0.6, 0.8, 1.0)


def eq9_train_length(alpha: float) -> int:
    """Theorem 3.3 (iii), eq. 9, with the Omega constants 1: l_tr = ceil(max(log M1 / alpha,
    1 / (beta^2 alpha))) (natural logarithm).

    Examples
    --------
    >>> [eq9_train_length(a) for a in (0.3, 0.6, 1.0)]
    [6, 3, 2]
    """
    M1, beta = PARAMETERS.value("M1"), PARAMETERS.value("beta")
    return math.ceil(max(math.log(M1) / alpha, 1 / (beta**2 * alpha)))


@cache
def train_length(seed: int, length: int | None) -> dict[float, Any]:
    """Unseen-task evaluation of Algorithm 1 trained at each alpha with contexts of ``length``
    (None: eq. 9's length at that alpha); the other constants are the shared model's."""
    batch = prompts(PATTERNS, UNSEEN, N_EVAL, L_TEST, ALPHA_TEST, seed, 40)
    out = {}
    for alpha in TRAIN_ALPHAS:
        l_tr = eq9_train_length(alpha) if length is None else length
        run = train(PATTERNS, dataclasses.replace(CONFIG, length=l_tr, alpha=alpha), seed=seed)
        out[alpha] = {"l_tr": l_tr, "eval": evaluate(run.params, batch)}
    return out


@claim(id="ICL-Thm33-train-length", paper=PAPER, reference="Theorem 3.3 (iii), eq. 9; §A.1, "
       "Figure 6",
       statement="with training contexts of length l_tr >= max{Omega(log M1 / alpha), "
       "Omega(1/(beta^2 alpha))} (and (i), (ii), (iv)) the trained model reaches an in-domain "
       "generalization error O(epsilon), for every training fraction alpha",
       perturbation=Perturbed("the same with l_tr = 1 for every alpha (hypothesis (iii) "
                              "dropped)", length=1), basis="statistical")
def icl_thm33_train_length(length: int | None = None) -> ClaimResult:
    runs = train_length(active_seed(), length)
    rows, slack, ok = {}, math.inf, True
    for alpha, r in runs.items():
        good, s = _generalizes(r["eval"])
        ok &= good
        slack = min(slack, s)
        rows[alpha] = {"l_tr": r["l_tr"], **_summary(r["eval"])}
    at_two = train_length(active_seed(), 2)
    return ClaimResult(
        measured={"unseen-task evaluation by training alpha": rows},
        reference_value={"hinge + 2SE": HINGE_MAX, "error": ERROR_MAX,
                         "l_tr": "eq. 9 with constants 1" if length is None else length},
        verdict=judge(ok), margin=Margin(slack, "min log10(threshold / measured) over alpha"),
        details={"reading": "eq. 9 is a sufficient condition: Omega(.) read with constant 1 "
                 "(natural log), so l_tr = ceil(max(log 6 / alpha, 1/(9 alpha))) = "
                 f"{ {a: eq9_train_length(a) for a in TRAIN_ALPHAS} }; the other training "
                 "constants are the shared model's (PARAMETERS: m, eta, B, T not printed)",
                 "Figure 6 (not asserted)": "§A.1 says the required training length is linear "
                 "in 1/alpha. With these constants the required length does not grow: l_tr = 2 "
                 "already generalizes at every alpha (hinge "
                 f"{ {a: rounded(r['eval'].hinge) for a, r in at_two.items()} })."
                 " In an exploration outside this check, a growth of the required length as "
                 "alpha falls appeared only under a budget of about 100 steps: the figure's "
                 "curve depends on its unprinted T, eta, m and is not reproduced at the "
                 "table's constants",
                 "setting": f"training on the 6 cyclic tasks, K = {PARAMETERS.value('K')}, T = "
                 f"{CONFIG.n_steps}; testing on the 24 unseen tasks, alpha' = {ALPHA_TEST}, l = "
                 f"{L_TEST}, {N_EVAL} prompts",
                 "seeds": {**seeds(active_seed(), 40),
                           "training": f"seed {active_seed()} for every alpha"}})
