"""Paper 002, generalization of the trained model: ICL-* for Theorem 3.3 (unseen in-domain
tasks), Theorem 3.4 and its condition S_j >= 1 (eq. 12, Figure 3A), and the testing context
length of eq. 9 / Remark 3.5 (Figure 3B) -- notes PC-04, PC-05, PC-06, PC-17.

All use the shared model of :mod:`paper_checks.claims.icl.common` (training seed 0) and fresh
prompts; errors are Pr(zF <= 0) with a 97.5% Clopper-Pearson upper bound, hinge losses with
their standard errors.  Theorems 3.3-3.4 bound the hinge loss by O(epsilon) without constants:
the checks use 0.05 for the hinge (mean + 2 SE) and 0.01 for the error (the "< 0.01" of §5.1).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np

from identifiability.icl import evaluate, min_context_length
from paper_checks.claims.icl.common import (
    OOD,
    OOD_TASKS,
    PAPER,
    PATTERNS,
    UNSEEN,
    active_seed,
    independent_outputs,
    independent_patterns,
    independent_prompts,
    prompts,
    rounded,
    s1_patterns,
    seeds,
    trained,
    weights_of,
)
from paper_checks.compare import ratio_result
from paper_checks.registry import ClaimResult, Independent, Margin, claim, judge

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
    batch = prompts(PATTERNS, UNSEEN, N_EVAL, 20, 0.8, seed, 4)
    return {"trained": evaluate(model.params, batch), "init": evaluate(model.initial, batch)}


@claim(id="ICL-Thm33-in-domain", paper=PAPER, reference="Theorem 3.3 (eq. 11), §5",
       statement="under Condition 3.2 and (i)-(iv) the trained model reaches an in-domain "
       "generalization error O(epsilon), unseen tasks included",
       perturbation="the same bound for the model after T = 0 iterations (condition (iv) "
       "dropped)")
def icl_thm33_in_domain(perturbed: bool = False) -> ClaimResult:
    m = in_domain(active_seed())
    ev = m["init" if perturbed else "trained"]
    ok, slack = _generalizes(ev)
    return ClaimResult(
        measured=_summary(ev), reference_value={"hinge + 2SE": HINGE_MAX, "error": ERROR_MAX},
        verdict=judge(ok), margin=Margin(slack, "min log10(threshold / measured) of hinge "
                                         "(+2SE) and error upper bound"),
        details={"setting": "24 unseen tasks (6 cyclic training tasks), alpha' = 0.8, l_ts = "
                 f"20, {N_EVAL} prompts", "untrained model": _summary(m["init"]),
                 "seeds": seeds(active_seed(), 4)})


@cache
def out_of_domain(seed: int) -> dict[str, Any]:
    model = trained(seed)
    out = {"S1=1.28": evaluate(model.params, prompts(OOD, OOD_TASKS, N_EVAL, 20, 0.8, seed, 5))}
    bad = s1_patterns(-1.28)
    out["S1=-1.28"] = evaluate(model.params, prompts(bad, OOD_TASKS, N_EVAL, 20, 0.8, seed, 5))
    return out


@claim(id="ICL-Thm34-out-of-domain", paper=PAPER, reference="Theorem 3.4 (eqs. 12-13), §5",
       statement="if the ODR patterns are combinations of IDR patterns with coefficient sums "
       "S_j >= 1 (and ODI in span IDI), the out-of-domain generalization error is O(epsilon)",
       perturbation="the same for ODR patterns with S_1 = -1.28 (eq. 12 violated)")
def icl_thm34_out_of_domain(perturbed: bool = False) -> ClaimResult:
    ev = out_of_domain(active_seed())["S1=-1.28" if perturbed else "S1=1.28"]
    ok, slack = _generalizes(ev)
    return ClaimResult(
        measured=_summary(ev), reference_value={"hinge + 2SE": HINGE_MAX, "error": ERROR_MAX},
        verdict=judge(ok), margin=Margin(slack, "min log10(threshold / measured)"),
        details={"setting": "§5's mu'_1..3 with a = b = 0.64 (S = 1.28, sqrt2, sqrt2), nu' = nu, "
                 f"K' = 0.5, all 6 OOD tasks, alpha' = 0.8, l_ts = 20, {N_EVAL} prompts",
                 "seeds": seeds(active_seed(), 5)})


@cache
def context_length(seed: int) -> dict[str, dict[float, list[float]]]:
    params = trained(seed).params
    out: dict[str, dict[float, list[float]]] = {}
    for dom, pats, tasks in (("in-domain", PATTERNS, UNSEEN), ("out-of-domain", OOD, OOD_TASKS)):
        for a in ALPHAS:
            full = prompts(pats, tasks, 1000, LENGTHS[-1], a, seed, 600, round(10 * a))
            out.setdefault(dom, {})[a] = [evaluate(params, full.prefix(l)).error
                                          for l in LENGTHS]
    return out


@claim(id="ICL-Rem35-context-length", paper=PAPER,
       reference="Theorem 3.3 (eq. 9), insight 2, Remark 3.5, Figure 3B",
       statement="the required testing context length grows in the order of 1/alpha' "
       "(l_ts >= 1/alpha'), in and out of domain",
       perturbation="growth in the order of 1/alpha'^2 (max/min of alpha'^2 l* <= 1.6)")
def icl_rem35_context_length(perturbed: bool = False) -> ClaimResult:
    curves = context_length(active_seed())
    power = 2 if perturbed else 1
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
        margin=Margin(worst, "log10(1.6 / spread of alpha' l*)"),
        details={"setting": "error on 1000 prompts per alpha', cut to their first l = 1..20 "
                 "contexts (i.i.d. contexts: each cut is a length-l prompt); in domain: unseen "
                 "tasks; out of domain: §5's patterns, K' = 0.5",
                 "reading": "l* tracks the length at which half the chance of having no "
                 "same-pattern context, (1 - alpha'/2)^l / 2, falls to 0.05",
                 "seeds": seeds(active_seed(), *((600, round(10 * a)) for a in ALPHAS))})


@cache
def s1_sweep(seed: int) -> dict[float, dict[str, float]]:
    params = trained(seed).params
    out = {}
    for S1 in (*S1_SUFFICIENT, *S1_SWEEP):
        b = prompts(s1_patterns(S1), MU1_TASKS, N_EVAL, 20, 0.8, seed, 17)
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
       perturbation="the hypothesis relaxed to S_1 >= -1.28")
def icl_thm34_s1_sufficient(perturbed: bool = False) -> ClaimResult:
    sweep = s1_sweep(active_seed())
    tested = (*S1_SUFFICIENT, -1.28) if perturbed else S1_SUFFICIENT
    worst = max(sweep[s]["hinge"] + 2 * sweep[s]["hinge SE"] for s in tested)
    err = max(sweep[s]["error"] for s in tested)
    return ratio_result(
        max(worst, 1e-12), HINGE_MAX, what="worst hinge (+2SE) / 0.05",
        holds=worst <= HINGE_MAX and err <= ERROR_MAX,
        measured={s: {k: rounded(v) for k, v in sweep[s].items()} for s in tested},
        reference_value={"hinge + 2SE": HINGE_MAX, "error": ERROR_MAX},
        details={"setting": "mu'_1 = 0.3(mu_1 - mu_2) + a mu_5 + b mu_6, a^2 + b^2 = 0.82 "
                 "(a = b = 0.64 at S_1 = 1.28); tasks with mu'_1 decisive, alpha' = 0.8, l = 20",
                 "seeds": seeds(active_seed(), 17)})


@cache
def _independent_s1(seed: int) -> dict[float, float]:
    w = weights_of(trained(seed))
    out = {}
    for S1 in (0.7, 0.5):
        r = math.sqrt(1.64 - S1 * S1)
        rel, irr, q = independent_patterns((S1 + r) / 2, (S1 - r) / 2)
        P, z, qpat = independent_prompts(rel, irr, q, MU1_TASKS, 1500, 20, 0.8, 0.5, 1717)
        F = independent_outputs(w, P)
        out[S1] = float((z[qpat == 0] * F[qpat == 0] <= 0).mean())
    return out


@claim(id="ICL-Fig3A-S1-necessity", paper=PAPER, reference="§5.1, Figure 3A (GPT-2), eq. 12",
       statement="the out-of-domain classification error deviates from 0 when S_1 < 1, which "
       "justifies the necessity of condition (12)", expected_verdict="erratum")
def icl_fig3a_s1_necessity() -> ClaimResult:
    sweep = s1_sweep(active_seed())
    below = {s: sweep[s] for s in S1_BELOW}
    printed_ok = all(v["error"] >= ERROR_MAX for v in below.values())
    hinges = [sweep[s]["hinge"] for s in S1_SWEEP]
    ses = [sweep[s]["hinge SE"] for s in S1_SWEEP]
    monotone = all(hinges[i + 1] >= hinges[i] - 2 * (ses[i] + ses[i + 1])
                   for i in range(len(hinges) - 1))
    corrected_ok = monotone and sweep[0.0]["hinge"] >= 0.1
    ind = _independent_s1(active_seed())
    return ClaimResult(
        measured={s: {"error": rounded(sweep[s]["error"]), "hinge": rounded(sweep[s]["hinge"])}
                  for s in S1_SWEEP},
        reference_value=f"error >= {ERROR_MAX} for S_1 in {S1_BELOW}",
        verdict=judge(printed_ok, corrected_ok), kind="hypothesis",
        independent=Independent("loop-and-scipy forward pass on independently sampled prompts "
                                "(1500, mu'_1 queries counted)", ind,
                                all(e < ERROR_MAX for e in ind.values())),
        details={"printed": "in the one-layer model of eq. 2 (the model Theorem 3.4 is about) "
                 "the error on mu'_1 queries stays below 0.01 at S_1 = 0.9, 0.7, 0.5: S_1 >= 1 "
                 "is sufficient, not necessary; Figure 3A's deviation was measured on GPT-2",
                 "corrected": "the hinge loss (eq. 13's quantity) grows monotonically as S_1 "
                 f"falls (non-increasing in S_1 within 2 SE: {monotone}), from "
                 f"{sweep[0.9]['hinge']:.4f} at 0.9 to {sweep[0.0]['hinge']:.3f} at 0 and "
                 f"{sweep[-1.28]['hinge']:.3f} at -1.28; the sign of F, hence the error, is "
                 "carried by the label part of the attention output, so only sign-reversed "
                 "patterns (S_1 near -1.28) can flip it, on some seeds",
                 "seeds": seeds(active_seed(), 17)})
