"""Paper 002, sweeps that train several models or fit a classifier per prompt (profile
``full``): the number of training tasks (Figure 7, Condition 3.2), iterations against the
training fraction alpha (Figure 6, eq. 10) and ICL against classifiers fitted on the contexts
(Figure 4) -- notes PC-14, PC-15, PC-16.
"""

from __future__ import annotations

import dataclasses
import math
from functools import cache
from typing import Any

import numpy as np

from identifiability.icl import (
    all_tasks,
    cyclic_tasks,
    evaluate,
    in_domain_patterns,
    knn_predict,
    sample_prompts,
    sklearn_predict,
    train,
    unseen_tasks,
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
    UNSEEN,
    active_seed,
    prompts,
    rounded,
    seeds,
    trained,
)
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Margin, claim, judge
from paper_checks.seeds import setting_seed, setting_stream

TASK_M1 = (4, 6, 8)
SIGNIFICANT = 0.05
ABOUT_ZERO = 0.01
#: Figure 7's training alpha (§A.2 'We choose alpha = 0.6') and the shorter run of the sweep.
TASK_ALPHA = PARAMETERS.value("alpha_appendix")
TASK_STEPS, TASK_STEPS_DEVIATION = PARAMETERS.deviate(
    "T", 1000, why="12 training runs per seed (3 values of M1, 4 task sets); the unseen error "
    "of the shared model is 0 after about 300 steps, and T is not printed")


def _task_sets(M1: int, seed: int) -> dict[str, list[tuple[int, int]]]:
    cyc = cyclic_tasks(M1)
    extra = [t for t in all_tasks(M1) if t not in cyc]
    pick = np.random.default_rng(setting_stream(seed, 1400, M1)).choice(len(extra), M1 // 2 + 1,
                                                                 replace=False)
    return {f"cyclic prefix {M1 // 2}": cyc[:M1 // 2], f"cyclic prefix {M1 - 1}": cyc[:M1 - 1],
            "cyclic": cyc, "cyclic + extra": cyc + [extra[i] for i in sorted(pick)]}


@cache
def task_count(seed: int) -> dict[int, dict[str, dict[str, float]]]:
    out: dict[int, dict[str, dict[str, float]]] = {}
    for M1 in TASK_M1:
        pats = in_domain_patterns(M1=M1, M2=PARAMETERS.value("M2"))
        out[M1] = {}
        for name, tasks in _task_sets(M1, seed).items():
            run = train(pats, dataclasses.replace(CONFIG, n_steps=TASK_STEPS, alpha=TASK_ALPHA,
                                                  tasks=tuple(tasks)), seed=seed)
            b = sample_prompts(pats, unseen_tasks(M1, tasks), 2000, L_TEST, ALPHA_TEST,
                               seed=setting_stream(seed, 1410, M1))
            ev = evaluate(run.params, b)
            out[M1][name] = {"|T_tr|": len(tasks), "hinge": ev.hinge, "hinge SE": ev.hinge_se,
                             "error": ev.error}
    return out


@claim(id="ICL-FigA2-task-count", paper=PAPER, reference="§A.2, Figure 7, Condition 3.2",
       statement="the generalization error on unseen tasks is significant as long as |T_tr| < "
       "M1 and reaches about 0 once |T_tr| >= M1 and T_tr covers all patterns and labels",
       profile="full",
       perturbation=Perturbed("the threshold lowered by one: |T_tr| >= M1 - 1 tasks already "
                              "give an error of about 0 (the next constant)", threshold_offset=-1),
       basis="statistical")
def icl_figa2_task_count(threshold_offset: int = 0) -> ClaimResult:
    res = task_count(active_seed())
    pairs: list[tuple[float, float]] = []
    for M1, rows in res.items():
        for r in rows.values():
            short = r["|T_tr|"] < M1 + threshold_offset
            upper = r["hinge"] + 2 * r["hinge SE"]
            lower = r["hinge"] - 2 * r["hinge SE"]
            pairs.append((lower, SIGNIFICANT) if short else (ABOUT_ZERO, max(upper, 1e-12)))
    return ClaimResult(
        measured={M1: {n: {k: rounded(v) for k, v in r.items()} for n, r in rows.items()}
                  for M1, rows in res.items()},
        reference_value=f"hinge (-2SE) >= {SIGNIFICANT} for |T_tr| < M1 + {threshold_offset}; "
        f"hinge (+2SE) <= {ABOUT_ZERO} for the larger sets",
        verdict=judge(all(v >= t for v, t in pairs)),
        margin=Margin(min(math.log10(max(v, 1e-12) / t) for v, t in pairs), "min log10 ratio"),
        details={"reading": "generalization error = the hinge loss of eq. 4 (Theorem 3.3's "
                 "quantity); for M1 = 6, 8 the classification error at |T_tr| = M1 - 1 is "
                 "already about 0.01 (see 'error'): a classification curve shows the deficit "
                 "clearly only for the shorter prefixes",
                 "setting": f"M2 = {PARAMETERS.value('M2')}, training alpha = {TASK_ALPHA} "
                 f"(§A.2), T = {TASK_STEPS}, testing on the unseen tasks with alpha' = "
                 f"{ALPHA_TEST}, l = {L_TEST}, 2000 prompts",
                 "parameters": TASK_STEPS_DEVIATION,
                 "seeds": seeds(active_seed(), *((1410, M1) for M1 in TASK_M1))})


ITER_ALPHAS = (0.3, 0.4, 0.6, 0.8, 1.0)
ITER_SEEDS = (0, 1)
ITER_TARGET = 0.02
ITER_BUDGET = 3000
ITER_ETA, ITER_ETA_DEVIATION = PARAMETERS.deviate(
    "eta", 0.1, why="Theorem 3.3 allows any eta <= 1 and eq. 10 scales T by 1/eta; at eta = 1 "
    "the unseen error falls below the target within a few checks of 5 steps, too coarse to "
    "resolve the alpha^(-2/3) scaling")


def run_seed(seed: int, s: int) -> int:
    """The training seed of the iteration count's run ``s`` (:data:`ITER_SEEDS`)."""
    return setting_seed(seed, "iterations run", s)


@cache
def iterations(seed: int) -> dict[float, list[int]]:
    out: dict[float, list[int]] = {}
    for alpha in ITER_ALPHAS:
        out[alpha] = []
        for s in ITER_SEEDS:
            batch = prompts(PATTERNS, UNSEEN, 1000, L_TEST, ALPHA_TEST, seed, 1500, s)

            def reached(step: int, params: Any, batch: Any = batch) -> bool:
                return evaluate(params, batch).error <= ITER_TARGET

            run = train(PATTERNS, dataclasses.replace(CONFIG, n_steps=ITER_BUDGET,
                                                      step_size=ITER_ETA, alpha=alpha),
                        seed=run_seed(seed, s),
                        callback=reached, callback_every=5)
            out[alpha].append(run.steps if run.stopped_early else ITER_BUDGET + 1)
    return out


@claim(id="ICL-Thm33-iterations-alpha", paper=PAPER,
       reference="Theorem 3.3 (eq. 10), insight 3, Figure 6", profile="full",
       statement="the required number of iterations is proportional to alpha^(-2/3)",
       perturbation=Perturbed("proportional to alpha^(-2) (a wrong exponent)", exponent=-2.0),
       basis="statistical")
def icl_thm33_iterations_alpha(exponent: float = -2 / 3) -> ClaimResult:
    its = iterations(active_seed())
    mean = np.array([np.mean(its[a]) for a in ITER_ALPHAS])
    slope = float(np.polyfit(np.log(ITER_ALPHAS), np.log(mean), 1)[0])
    decreasing = bool(np.all(np.diff(mean) < 0))
    budget_ok = all(s <= ITER_BUDGET for v in its.values() for s in v)
    ok = decreasing and budget_ok and abs(slope - exponent) <= 0.2
    return ClaimResult(
        measured={"iterations to unseen error <= 0.02 (per seed)": its,
                  "log-log slope": round(slope, 3)},
        reference_value=f"slope {exponent:.3f} +- 0.2, decreasing in alpha",
        verdict=judge(ok), margin=Margin(math.log10(0.2 / max(abs(slope - exponent), 1e-6)),
                                         "log10(0.2 / |slope - exponent|)"),
        details={"setting": f"eta = {ITER_ETA}, a_i = +-1/m, B = {CONFIG.batch_size}, l_tr = "
                 f"{CONFIG.length}; unseen-task error on 1000 prompts (alpha' = {ALPHA_TEST}, "
                 f"l = {L_TEST}) checked every 5 steps",
                 "parameters": ITER_ETA_DEVIATION,
                 "note": "a linear fit against alpha^(-1) fits about as well; the "
                 "slope is the discriminating statistic (notes PC-15)",
                 "seeds": {"training seeds": [run_seed(active_seed(), s) for s in ITER_SEEDS],
                           "prompt streams": [f"setting_stream({active_seed()}, 1500, {s})"
                                              for s in ITER_SEEDS]}})


FIG4_LENGTHS = (4, 8)
FIG4_METHODS = ("logistic", "svm-linear", "svm-gaussian")
FIG4_ALPHA = PARAMETERS.value("alpha_prime_fig4")[1]          # Figure 4(B): alpha' = 0.6


@cache
def baselines(seed: int) -> dict[int, Any]:
    params = trained(seed).params
    out: dict[int, Any] = {}
    for l in FIG4_LENGTHS:
        b = prompts(OOD, OOD_TASKS, 600, l, FIG4_ALPHA, seed, 1600, l, noise=K_PRIME)
        wrong = {"ICL": (b.z * evaluate(params, b).F <= 0).astype(float)}
        wrong["1-NN"] = (knn_predict(b, 1) != b.z).astype(float)
        wrong["3-NN"] = (knn_predict(b, 3) != b.z).astype(float)
        for m in FIG4_METHODS:
            wrong[m] = (sklearn_predict(b, m) != b.z).astype(float)  # type: ignore[arg-type]
        ind = prompts(PATTERNS, UNSEEN, 2000, l, FIG4_ALPHA, seed, 1650, l)
        out[l] = {"wrong": wrong, "in-domain K=0.5": {
            "ICL": evaluate(params, ind).error,
            "1-NN": float((knn_predict(ind, 1) != ind.z).mean())}}
    return out


@claim(id="ICL-Fig4-sample-efficiency", paper=PAPER, reference="§5.1, Figure 4(B)",
       statement="at alpha' = 0.6 ICL is the most sample-efficient for a small generalization "
       "error among logistic regression, SVMs (linear, Gaussian), 1-NN and 3-NN fitted on the "
       "contexts", profile="full",
       perturbation=Perturbed("ICL's error at most half of the best baseline's (the "
                              "comparison's factor 1 replaced by 1/2)", factor=0.5),
       basis="statistical")
def icl_fig4_sample_efficiency(factor: float = 1.0) -> ClaimResult:
    res = baselines(active_seed())
    rows, ok, slack = {}, True, math.inf
    for l in FIG4_LENGTHS:
        w = res[l]["wrong"]
        icl = w["ICL"]
        best = min((m for m in w if m != "ICL"), key=lambda m: w[m].mean())
        diff = factor * w[best] - icl
        z = diff.mean() / (diff.std(ddof=1) / math.sqrt(diff.size))
        ok &= bool(z >= 2)
        slack = min(slack, math.log10(factor * w[best].mean() / max(icl.mean(), 1e-12)))
        rows[l] = {m: rounded(float(v.mean())) for m, v in w.items()}
        rows[l]["paired z (best baseline vs ICL)"] = round(float(z), 2)
    return ClaimResult(
        measured={f"error at l = {l}": r for l, r in rows.items()},
        reference_value="ICL below every baseline by >= 2 paired SE at l = 4 and 8",
        verdict=judge(ok), margin=Margin(slack, "log10(best baseline error / ICL error)"),
        details={"setting": "out of domain with the printed K' = 5 (§5), alpha' = 0.6, 600 "
                 "prompts per l; baselines fitted on each prompt's own l contexts "
                 "(scikit-learn, default C = 1)",
                 "in domain (K = 0.5)": {l: {k: rounded(v) for k, v in
                                            res[l]["in-domain K=0.5"].items()}
                                        for l in FIG4_LENGTHS},
                 "reading": "sample efficiency = error at short contexts; with K = 0.5 the "
                 "nearest same-pattern context is also the nearest neighbour, so 1-NN comes "
                 "close to ICL (notes PC-16); at l = 20 and alpha' = 0.8 a linear SVM can "
                 "overtake ICL (measured on seed 0: 0.03 vs 0.09), consistent with 'the advance "
                 "of ICL is not significant' there",
                 "seeds": seeds(active_seed(),
                                *((t, l) for t in (1600, 1650) for l in FIG4_LENGTHS))})
