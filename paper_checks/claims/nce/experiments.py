"""Paper 004 §4.1.6, Figure 4.2: NCE/eNCE with GD and NGD on 1-d and 16-d Gaussians.

The thesis prints the settings (1-d: mu_* = 16, mu_q = 0, unit variances; 16-d: equal means,
Cov_q = I, Cov_p = diag(s_i), s_i ~ U[6, 12]; footnote 7's parametrisation), the budget (100
updates), 5 runs, the metric (the minimum parameter distance so far) and what "best" means (the
run with the lowest loss on fresh samples) -- all read from
:data:`paper_checks.claims.nce.common.PARAMETERS`.  It prints no step sizes, schedule, sample or
batch sizes, initialisation or clipping threshold: those are chosen here and recorded as
departures.  So a reproduction that disagrees with the figure does not refute it (the full
16-d profile is ``skipped`` for that reason); the half that reproduces under the printed parts of
the protocol -- NGD beats GD -- is checked on its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np

from identifiability.nce import GaussianMeanNCE, run_gradient_method
from paper_checks.claims.nce.common import PARAMETERS, lambda_M
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Margin, claim, judge

PAPER = "004"
#: step grids (the thesis prints none): per method, the step sizes tried
STEPS_1D = {"NCE, GD": (1.0, 4.0, 16.0), "NCE, NGD": (0.5, 1.0, 2.0, 4.0),
            "eNCE, NGD": (0.5, 1.0, 2.0, 4.0)}
STEPS_16D = {"NCE, GD": (1.0, 3.0, 10.0, 20.0, 30.0), "NCE, NGD": (0.5, 1.0, 2.0, 3.0, 5.0),
             "eNCE, NGD": (0.5, 1.0, 1.5, 2.0, 3.0)}
SAMPLES_16D = 20_000
METHODS = {"NCE, GD": ("nce", "gd"), "NCE, NGD": ("nce", "ngd"), "eNCE, NGD": ("ence", "ngd")}


def _protocol(steps: Mapping[str, tuple[float, ...]], extra: str) -> dict[str, Any]:
    return PARAMETERS.deviate(
        "fig42_protocol", {"steps": steps, "schedule": "constant", "start": "tau_q", **(
            {"samples": f"{SAMPLES_16D} of P_* and of Q per run (full batch), {SAMPLES_16D} "
                        "fresh ones for the selection"} if extra == "16d" else
            {"gradients": "population (the 1-d losses are closed-form quadratures)"})},
        why="the thesis prints no step size, schedule, sample or batch size, initialisation or "
            "clipping threshold; these are this check's choices")[1]


# -- 1-d --------------------------------------------------------------------------------------

@cache
def _fig42_1d() -> dict[str, dict[str, float]]:
    """Per method: the step with the lowest final population loss (the limit of fresh samples),
    its best distance after the printed number of updates, and the best distance over steps."""
    R = PARAMETERS.value("fig42_mu_star")
    n = PARAMETERS.value("fig42_updates")
    prob = GaussianMeanNCE(R)
    lm = lambda_M(R)
    out = {}
    for label, (kind, method) in METHODS.items():
        runs = {}
        for s in STEPS_1D[label]:
            step = s / lm if method == "gd" else s
            tr = run_gradient_method(prob, kind=kind, method=method, step=step,  # type: ignore[arg-type]
                                     n_steps=n)
            loss = float(prob.loss(tr.taus[-1], kind=kind, scale_exponent=R * R / 8))  # type: ignore[arg-type]
            runs[s] = (loss, float(tr.best_distance()))
        chosen = min(runs, key=lambda s: runs[s][0])
        out[label] = {"step": chosen, "best distance": runs[chosen][1],
                      "best distance over all steps": min(v[1] for v in runs.values())}
    return out


@claim(id="NCE-Fig4.2-1d", paper=PAPER, reference="§4.1.6, Figure 4.2 (left: 1-d, mu_* = 16)",
       statement="NCE with NGD largely outperforms NCE with GD, and eNCE with NGD decays faster "
       "than NCE with NGD (best runs, 100 updates)",
       perturbation=Perturbed("the orderings reversed: NCE-GD no worse than NCE-NGD, NCE-NGD no "
                              "worse than eNCE-NGD", reversed_order=True), basis="statistical")
def nce_fig4_2_1d(reversed_order: bool = False) -> ClaimResult:
    best = _fig42_1d()
    gd, ngd, ence = (best[k]["best distance"] for k in ("NCE, GD", "NCE, NGD", "eNCE, NGD"))
    ok = (ngd < gd and ence < ngd) if not reversed_order else (gd <= ngd and ngd <= ence)
    margins = ([Margin.ratio(ngd, gd, what="NCE NGD vs NCE GD"),
                Margin.ratio(ence, ngd, what="eNCE NGD vs NCE NGD")] if not reversed_order else
               [Margin.ratio(gd, ngd, what="NCE GD vs NCE NGD"),
                Margin.ratio(ngd, ence, what="NCE NGD vs eNCE NGD")])
    return ClaimResult(
        measured={k: {"best distance": round(v["best distance"], 3), "step": v["step"]}
                  for k, v in best.items()},
        reference_value="NCE-NGD < NCE-GD, eNCE-NGD < NCE-NGD", verdict=judge(ok),
        margin=Margin.tightest(margins),
        details={"setting": f"population gradients, R = mu_* = "
                            f"{PARAMETERS.value('fig42_mu_star')}, tau_0 = tau_q, "
                            f"{PARAMETERS.value('fig42_updates')} updates, best distance "
                            "min_t ||tau_* - tau_t|| (printed metric)",
                 "selection": f"per method the step with the lowest final loss "
                              f"({PARAMETERS.value('fig42_best_run')}; with population "
                              "gradients the fresh-sample loss is the population loss); GD steps "
                              "are multiples of 1/lambda_M",
                 "protocol": _protocol(STEPS_1D, "1d")})


# -- 16-d --------------------------------------------------------------------------------------

class _Gauss16:
    """The 16-d problem of one run: P_* = N(0, diag(s)), Q = N(0, I), the model
    log p_tau = -sum a_i x_i^2/2 + sum m_i x_i - c with footnote 7's tau = (a, m, c) =
    (1/sigma_i^2, mu_i/sigma_i^2, mu^T Sigma^-1 mu/2 + log((2 pi)^d det Sigma)/2)."""

    def __init__(self, seed: int) -> None:
        d = PARAMETERS.value("fig42_dim")
        lo, hi = PARAMETERS.value("fig42_cov_range")
        rng = np.random.default_rng([seed, 42])
        s_var = rng.uniform(lo, hi, d)
        self.d = d
        self.tau_star = np.concatenate([1 / s_var, np.zeros(d),
                                        [0.5 * float(np.sum(np.log(2 * np.pi * s_var)))]])
        self.tau_q = np.concatenate([np.ones(d), np.zeros(d), [0.5 * d * math.log(2 * math.pi)]])
        draws = {}
        for name, scale in (("p", np.sqrt(s_var)), ("q", np.ones(d)),
                            ("p_fresh", np.sqrt(s_var)), ("q_fresh", np.ones(d))):
            x = rng.standard_normal((SAMPLES_16D, d)) * scale
            feats = np.column_stack([-x**2 / 2, x, -np.ones(len(x))])
            log_q = -0.5 * np.sum(x**2, axis=1) - 0.5 * d * math.log(2 * math.pi)
            draws[name] = (feats, log_q)
        self.draws = draws

    def _psi(self, tau: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
        feats, log_q = self.draws[name]
        return feats, feats @ tau - log_q                    # log p_tau - log q

    def loss(self, tau: np.ndarray, kind: str, fresh: bool = False) -> float:
        _, psi_p = self._psi(tau, "p_fresh" if fresh else "p")
        _, psi_q = self._psi(tau, "q_fresh" if fresh else "q")
        with np.errstate(over="ignore"):
            if kind == "nce":
                value = 0.5 * (np.mean(np.logaddexp(0, -psi_p)) + np.mean(np.logaddexp(0, psi_q)))
            else:
                value = 0.5 * (np.mean(np.exp(-psi_p / 2)) + np.mean(np.exp(psi_q / 2)))
        return float(value) if math.isfinite(value) else math.inf

    def gradient(self, tau: np.ndarray, kind: str) -> np.ndarray:
        fp, psi_p = self._psi(tau, "p")
        fq, psi_q = self._psi(tau, "q")
        if kind == "nce":
            wp = -1 / (1 + np.exp(np.clip(psi_p, -700, 700)))         # -sigma(-psi)
            wq = 1 / (1 + np.exp(-np.clip(psi_q, -700, 700)))         # sigma(psi)
        else:
            wp = -0.5 * np.exp(np.clip(-psi_p / 2, -700, 700))
            wq = 0.5 * np.exp(np.clip(psi_q / 2, -700, 700))
        return 0.5 * (fp.T @ wp + fq.T @ wq) / len(wp)


@cache
def _problem(seed: int) -> _Gauss16:
    return _Gauss16(seed)


@cache
def _run16(seed: int, kind: str, method: str, step: float) -> tuple[float, float]:
    """(final loss on fresh samples, best distance) of one run of the printed budget."""
    prob = _problem(seed)
    tau = prob.tau_q.copy()
    best = float(np.linalg.norm(tau - prob.tau_star))
    for _ in range(PARAMETERS.value("fig42_updates")):
        g = prob.gradient(tau, kind)
        norm = float(np.linalg.norm(g))
        if not math.isfinite(norm) or norm == 0:
            return math.inf, best
        tau = tau - step * (g / norm if method == "ngd" else g)
        best = min(best, float(np.linalg.norm(tau - prob.tau_star)))
    return prob.loss(tau, kind, fresh=True), best


#: The step search's resolution: golden-section search on the mean fresh loss (the printed
#: "best") in log step, from the bracket of the coarse grid's best step, until the bracket's
#: ends are within this factor of each other.
STEP_RESOLUTION = 1.03
_GOLDEN = (math.sqrt(5) - 1) / 2


def _mean_run(kind: str, method: str, step: float) -> tuple[float, float]:
    res = [_run16(seed, kind, method, step) for seed in range(PARAMETERS.value("fig42_runs"))]
    return float(np.mean([r[0] for r in res])), float(np.mean([r[1] for r in res]))


def refine_step(objective: Any, grid: tuple[float, ...], resolution: float = STEP_RESOLUTION
                ) -> tuple[float, tuple[float, float], dict[float, Any]]:
    """Minimise ``objective(step)[0]`` over step > 0: the best of ``grid``, then golden-section
    search in log step inside the bracket of its grid neighbours until the bracket's ends are
    within ``resolution`` of each other.

    Parameters
    ----------
    objective : callable
        step -> (value to minimise, anything); called once per step tried.
    grid : tuple of float
        The coarse steps, increasing.
    resolution : float
        Stop when bracket high / low <= resolution (> 1).

    Returns
    -------
    tuple
        The best step tried, the final bracket (low, high) and every step tried with its
        objective.

    Examples
    --------
    >>> best, (lo, hi), tried = refine_step(lambda s: ((math.log(s) - 1.0) ** 2, None),
    ...                                     (1.0, 3.0, 10.0))
    >>> abs(math.log(best) - 1.0) < 0.02, hi / lo <= 1.03
    (True, True)
    """
    tried: dict[float, Any] = {s: objective(s) for s in grid}
    i = min(range(len(grid)), key=lambda j: tried[grid[j]][0])
    lo = math.log(grid[max(i - 1, 0)] if i > 0 else grid[0] / 3)
    hi = math.log(grid[i + 1] if i + 1 < len(grid) else grid[-1] * 3)

    def f(x: float) -> float:
        step = float(math.exp(x))
        if step not in tried:
            tried[step] = objective(step)
        return float(tried[step][0])

    a, b = lo + (1 - _GOLDEN) * (hi - lo), lo + _GOLDEN * (hi - lo)
    fa, fb = f(a), f(b)
    while hi - lo > math.log(resolution):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = lo + (1 - _GOLDEN) * (hi - lo)
            fa = f(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + _GOLDEN * (hi - lo)
            fb = f(b)
    best = min(tried, key=lambda s: tried[s][0])
    return best, (float(math.exp(lo)), float(math.exp(hi))), tried


@cache
def _fig42_16d() -> dict[str, dict[str, Any]]:
    out = {}
    for label, (kind, method) in METHODS.items():
        best, (lo, hi), table = refine_step(
            lambda step, kind=kind, method=method: _mean_run(kind, method, step),
            STEPS_16D[label], STEP_RESOLUTION if kind == "nce" else math.inf)
        near = {s: v for s, v in table.items() if lo / STEP_RESOLUTION <= s <=
                hi * STEP_RESOLUTION}
        coarse = min(STEPS_16D[label], key=lambda s: table[s][0])
        out[label] = {"step": round(best, 4), "mean best distance": table[best][1],
                      "distance range near the best step": (min(v[1] for v in near.values()),
                                                            max(v[1] for v in near.values())),
                      "coarse grid's choice": (coarse, round(table[coarse][1], 3)),
                      "per step (fresh loss, best distance)":
                          {round(s, 4): (round(v[0], 5), round(v[1], 3))
                           for s, v in sorted(table.items())}}
    return out


@claim(id="NCE-Fig4.2-16d", paper=PAPER, reference="§4.1.6, Figure 4.2 (right: 16-d Gaussians)",
       statement="16-d Gaussians (equal means, Cov_q = I, Cov_p = diag(s_i), s_i in [6, 12]): NCE "
       "with NGD largely outperforms NCE with GD, and eNCE with NGD decays faster than NCE with "
       "NGD (best runs, 100 updates, 5 runs)", profile="full", expected_verdict="skipped",
       basis="statistical")
def nce_fig4_2_16d() -> ClaimResult:
    best = _fig42_16d()
    gd, ngd, ence = (best[k]["mean best distance"] for k in METHODS)
    return ClaimResult(
        measured={k: {"mean best distance": round(v["mean best distance"], 3), "step": v["step"]}
                  for k, v in best.items()},
        reference_value="NCE-NGD < NCE-GD, eNCE-NGD < NCE-NGD", verdict="skipped",
        details={"reason": "not reproducible from the thesis: it gives the 16-d setting, 100 "
                           "updates, 5 runs and 'best = lowest loss on fresh samples', but no "
                           "step sizes, schedule, sample or batch sizes, initialisation or "
                           "clipping; a reproduction under a protocol the thesis never gave "
                           "does not refute the report",
                 "observation (this project's protocol)": f"NCE-NGD beats NCE-GD: {ngd < gd} "
                 f"(NCE-Fig4.2-16d-NGD-vs-GD); eNCE-NGD beats NCE-NGD: {ence < ngd} "
                 f"(distances {ence:.3g} vs {ngd:.3g})",
                 "per step": {k: v["per step (fresh loss, best distance)"]
                              for k, v in best.items()},
                 "protocol": _protocol(STEPS_16D, "16d"),
                 "independent attack": "upheld the skip (2026-11-26): §4.1.6 also lists "
                                       "per-sample gradient clipping with an unspecified K, "
                                       "log-ratio clipping and log-space computation; the "
                                       "eNCE vs NCE ordering in 16-d depends on exactly these "
                                       "choices, so one non-reproduction is no evidence "
                                       "against the figure"})


@claim(id="NCE-Fig4.2-16d-NGD-vs-GD", paper=PAPER,
       reference="§4.1.6, Figure 4.2 (right: 16-d Gaussians), its first half", profile="full",
       statement="16-d Gaussians: when using NCE, normalized gradient descent largely "
       "outperforms gradient descent (best runs, 100 updates, averaged over 5 runs)",
       perturbation=Perturbed("the ordering reversed: NCE with GD no worse than with NGD",
                              reversed_order=True), expected_verdict="skipped",
       basis="statistical")
def nce_fig4_2_16d_ngd_vs_gd(reversed_order: bool = False) -> ClaimResult:
    best = _fig42_16d()
    gd_lo, gd_hi = best["NCE, GD"]["distance range near the best step"]
    ngd_lo, ngd_hi = best["NCE, NGD"]["distance range near the best step"]
    gd, ngd = best["NCE, GD"]["mean best distance"], best["NCE, NGD"]["mean best distance"]
    ok = ngd_hi < gd_lo if not reversed_order else gd <= ngd
    if not ok and not reversed_order:         # NGD not ahead at every step near the best ones
        return ClaimResult(
            measured={k: {"mean best distance": round(best[k]["mean best distance"], 3),
                          "step": best[k]["step"],
                          "distance range near the best step": tuple(
                              round(v, 3) for v in best[k]["distance range near the best step"])}
                      for k in ("NCE, GD", "NCE, NGD")},
            reference_value="NCE-NGD < NCE-GD", verdict="skipped",
            details={"reason": "not reproducible from the thesis: with the step of each method "
                     "searched to a resolution of 3 % on the printed 'best' criterion (lowest "
                     "fresh loss), NGD is not ahead of GD at every step the criterion cannot "
                     "tell apart from the best (mean best distance near the best steps: GD "
                     f"{gd_lo:.3g}..{gd_hi:.3g}, NGD {ngd_lo:.3g}..{ngd_hi:.3g}), so which "
                     "method is ahead depends on a step the thesis never prints. One protocol's "
                     "order is no evidence for or against the figure (as for NCE-Fig4.2-16d)",
                     "previous grading": "holds with margin 10^0.94 until the 2026-12 audit: "
                                         "GD's step "
                     "was the best of {1, 3, 10, 20, 30}, which missed GD's steps 5-9 (0.81 vs "
                     "NGD 0.47, 1.7x, found by the audit)",
                     "per step": {k: best[k]["per step (fresh loss, best distance)"]
                                  for k in ("NCE, GD", "NCE, NGD")},
                     "protocol": _protocol(STEPS_16D, "16d")})
    return ClaimResult(
        measured={k: {"mean best distance": round(best[k]["mean best distance"], 3),
                      "step": best[k]["step"],
                      "distance range near the best step": tuple(
                          round(v, 3) for v in best[k]["distance range near the best step"]),
                      "coarse grid's choice (step, distance)": best[k]["coarse grid's choice"]}
                  for k in ("NCE, GD", "NCE, NGD")},
        reference_value="NCE-NGD < NCE-GD for every step within the search's resolution of "
        "each method's best", verdict=judge(ok),
        margin=(Margin.ratio(ngd_hi, gd_lo, what="NCE NGD's largest vs NCE GD's smallest mean "
                             "best distance near the best steps")
                if not reversed_order else
                Margin.ratio(gd, ngd, what="NCE GD vs NCE NGD mean best distance")),
        details={"setting": f"d = {PARAMETERS.value('fig42_dim')}, s_i ~ U"
                            f"{list(PARAMETERS.value('fig42_cov_range'))}, tau with footnote 7's "
                            f"2d + 1 coordinates, {PARAMETERS.value('fig42_updates')} updates, "
                            f"{PARAMETERS.value('fig42_runs')} runs (seeds 0..4), metric "
                            "min_t ||tau_* - tau_t||",
                 "selection": "per method the step with the lowest mean final loss on fresh "
                              "samples (the printed definition of 'best'), searched on the "
                              "coarse grid and refined by golden-section search in log step to "
                              f"a resolution of {STEP_RESOLUTION}x; the distance near the best "
                              "step is very sensitive to the step (GD: 3.7 at 6.3, 0.8 at 8.2, "
                              "6.0 at 10.7), so the comparison takes GD's smallest and NGD's "
                              "largest distance over the steps within that resolution of the "
                              "best (the reading least favourable to the statement)",
                 "previous grading": "until the 2026-12 audit GD's step was the best of {1, 3, "
                                     "10, 20, "
                                     "30}, which missed GD's good steps 5-9 and gave a margin "
                                     "of 10^0.94; the audit found 0.81 vs 0.47 (1.7x)",
                 "per step": {k: best[k]["per step (fresh loss, best distance)"]
                              for k in ("NCE, GD", "NCE, NGD")},
                 "protocol": _protocol(STEPS_16D, "16d")})
