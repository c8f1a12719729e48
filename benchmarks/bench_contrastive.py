"""Contrastive kernel estimation vs maximum likelihood on the same OU trajectories, with the
thesis' disjoint pairs and with our sliding pairs side by side.

Setting: 1-D OU with ρ = 1 (π = N(0, 1)), lag η = 0.5, horizons T ∈ {1e3, 4e3, 1.6e4}
(2m = T/η observations), 20 seeds; each seed simulates one trajectory and every estimator uses
*that* trajectory.  The contrastive task is built from it in two ways (a separate task seed):

* ``pairs="disjoint"`` — the thesis' task (§2.1.1.2): m disjoint pairs, half of them turned
  into negatives, so only ~T/(4η) positive transitions;
* ``pairs="sliding"`` — our variant: all T/η − 1 transitions are positives, each with one
  q-negative on the same conditioning point (not covered by the thesis' analysis).

Reported: median E_π KL(p_* ‖ p̂) and median wall time per fit (task construction included),
and per estimator and construction the ratio to its maximum-likelihood baseline on all
transitions of the same trajectory — the Gaussian AR(1) MLE for the Gaussian-family and
quadratic-logistic fits (same 3-parameter kernel family), the exact OU MLE for the OU-family
fit — with whether the issue's target (KL within 3× of the MLE at T = 1.6e4) is met.
Diagnostics for the disjoint task: the AR MLE restricted to its m pairs and to its ~m/2
positive pairs (the latter isolates the efficiency of the classification itself).

Usage: ``python -m benchmarks contrastive [--quick]`` (``--quick``: 5 seeds, T ≤ 4e3; the
target horizon is then not run).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from tqdm import tqdm

from benchmarks._util import fmt_seconds, machine_line, markdown_table, write_result
from identifiability import (
    GaussianKernel,
    OrnsteinUhlenbeck,
    expected_kl,
    fit_gaussian_ar,
    fit_gaussian_kernel,
    fit_ou_mle,
    fit_quadratic_logistic,
    make_contrastive_task,
    split_seed,
)
from identifiability.contrastive.task import PairConstruction

ETA = 0.5
HORIZONS = (1000.0, 4000.0, 16000.0)
TARGET_T = 16000.0
N_SEEDS = 20
TARGET_RATIO = 3.0
PAIRS: tuple[PairConstruction, ...] = ("disjoint", "sliding")
AR_MLE = "AR(1) MLE, all transitions"
OU_MLE = "OU MLE, all transitions"

Fit = Callable[[np.ndarray, Any], GaussianKernel]


def _contrastive_fit(model: Literal["affine", "ou", "quadratic"], q: GaussianKernel,
                     pairs: PairConstruction) -> Fit:
    """Build the task with ``pairs`` from the trajectory, fit ``model``, return its kernel."""
    def fit(x: np.ndarray, rng: Any) -> GaussianKernel:
        task = make_contrastive_task(x, ETA, q, pairs=pairs, seed=rng)
        if model == "quadratic":
            return fit_quadratic_logistic(task, q).kernel
        return fit_gaussian_kernel(task, q, family=model).kernel

    return fit


def _contrastive_methods(ou: OrnsteinUhlenbeck) -> dict[tuple[str, str], tuple[Fit, str]]:
    """(estimator, pairs) -> (fit, name of its MLE baseline)."""
    pi = ou.stationary
    local = GaussianKernel.local(1, 2 * ETA)
    out: dict[tuple[str, str], tuple[Fit, str]] = {}
    for pairs in PAIRS:
        out[("affine, q=pi", pairs)] = (_contrastive_fit("affine", pi, pairs), AR_MLE)
        out[("affine, q=N(z,2eta)", pairs)] = (_contrastive_fit("affine", local, pairs), AR_MLE)
        out[("quad. logistic, q=pi", pairs)] = (_contrastive_fit("quadratic", pi, pairs), AR_MLE)
        out[("OU family, q=pi", pairs)] = (_contrastive_fit("ou", pi, pairs), OU_MLE)
    return out


def _baselines(ou: OrnsteinUhlenbeck) -> dict[str, Fit]:
    pi = ou.stationary
    return {
        AR_MLE: lambda x, rng: fit_gaussian_ar(x, ETA),
        OU_MLE: lambda x, rng: fit_ou_mle(x, ETA).kernel,
        "AR(1) MLE, disjoint task's m pairs": lambda x, rng: fit_gaussian_ar(
            x, ETA, transitions="disjoint"),
        "AR(1) MLE, disjoint task's positive pairs": lambda x, rng: _positive_pairs_mle(
            x, pi, rng),
    }


def _positive_pairs_mle(x: np.ndarray, q: GaussianKernel, rng: Any) -> GaussianKernel:
    """Least squares on exactly the positive pairs the disjoint task keeps (same task seed)."""
    task = make_contrastive_task(x, ETA, q, seed=rng)
    pos = task.label == 1
    stacked = np.empty((2 * int(pos.sum()), x.shape[1]))
    stacked[0::2], stacked[1::2] = task.z[pos], task.z_prime[pos]
    return fit_gaussian_ar(stacked, ETA, transitions="disjoint")


Result = dict[float, dict[str, tuple[float, float]]]


def run(horizons: tuple[float, ...], n_seeds: int) -> Result:
    ou = OrnsteinUhlenbeck(1.0)
    pk = ou.kernel(ETA)
    methods: dict[str, Fit] = {_label(k): f for k, (f, _) in _contrastive_methods(ou).items()}
    methods.update(_baselines(ou))
    out: Result = {}
    for T in horizons:
        kls: dict[str, list[float]] = {name: [] for name in methods}
        times: dict[str, list[float]] = {name: [] for name in methods}
        for s in tqdm(range(n_seeds), desc=f"T = {T:g}", unit="seed", leave=False):
            traj_rng, task_rng = split_seed(np.random.SeedSequence([s, int(T), 66]), 2)
            x = ou.simulate(int(T / ETA) // 2 * 2, ETA, seed=traj_rng)
            task_state = task_rng.bit_generator.state
            for name, fit in methods.items():
                task_rng.bit_generator.state = task_state     # same task seed for every method
                t0 = time.perf_counter()
                kern = fit(x, task_rng)
                times[name].append(time.perf_counter() - t0)
                kls[name].append(expected_kl(pk, kern, ou.stationary))
        out[T] = {name: (statistics.median(kls[name]), statistics.median(times[name]))
                  for name in methods}
    return out


def _times(ratio: float) -> str:
    return f"{ratio:.1f}x" if ratio < 10 else f"{ratio:.0f}x"


def _label(key: tuple[str, str]) -> str:
    return f"contrastive {key[0]}, {key[1]} pairs"


def _target(res: Result, num: str, den: str, horizons: tuple[float, ...]) -> tuple[str, float]:
    if TARGET_T not in horizons:
        return "not run (quick)", float("nan")
    r = res[TARGET_T][num][0] / res[TARGET_T][den][0]
    return ("met" if r <= TARGET_RATIO else "MISSED"), r


def report(res: Result, horizons: tuple[float, ...], n_seeds: int) -> str:
    ou = OrnsteinUhlenbeck(1.0)
    contrastive = _contrastive_methods(ou)
    names = list(next(iter(res.values())))
    header = ["method", *[f"KL @ T={T:g}" for T in horizons],
              *[f"time @ T={T:g}" for T in horizons]]
    rows = [[name, *[f"{res[T][name][0]:.3g}" for T in horizons],
             *[fmt_seconds(res[T][name][1]) for T in horizons]] for name in names]

    ratio_rows = []
    best: dict[str, float] = {}
    for (est, pairs), (_, base) in contrastive.items():
        num = _label((est, pairs))
        verdict, r = _target(res, num, base, horizons)
        best[pairs] = min(best.get(pairs, float("inf")), r)
        ratio_rows.append([est, pairs, base,
                           *[f"{res[T][num][0] / res[T][base][0]:.2f}" for T in horizons],
                           *[_times(res[T][num][1] / res[T][base][1]) for T in horizons],
                           verdict])
    diag_rows = []
    for label, den in [("vs AR MLE on the task's m disjoint pairs",
                        "AR(1) MLE, disjoint task's m pairs"),
                       ("vs AR MLE on its ~m/2 positive pairs",
                        "AR(1) MLE, disjoint task's positive pairs")]:
        num = _label(("affine, q=pi", "disjoint"))
        diag_rows.append([f"affine q=pi, disjoint pairs, {label}",
                          *[f"{res[T][num][0] / res[T][den][0]:.2f}" for T in horizons]])

    if TARGET_T in horizons:
        summary = (f"Target (issue 6: KL within {TARGET_RATIO:g}x of the MLE at T = "
                   f"{TARGET_T:g}): the thesis' disjoint-pair task "
                   f"{'meets' if best['disjoint'] <= TARGET_RATIO else 'MISSES'} it (best "
                   f"ratio {best['disjoint']:.2f}); our sliding-pair variant "
                   f"{'meets' if best['sliding'] <= TARGET_RATIO else 'MISSES'} it (best "
                   f"ratio {best['sliding']:.2f}).")
    else:
        summary = f"Target (T = {TARGET_T:g}) not evaluated: --quick stops at T = " \
                  f"{horizons[-1]:g}."
    return "\n".join([
        "# Contrastive kernel estimation vs maximum likelihood",
        "",
        f"OU rho = 1, eta = {ETA}, {n_seeds} seeds, medians of E_pi KL(p_* || p_hat) and of the "
        f"wall time per fit (task construction included); every estimator sees the same "
        f"trajectory. {machine_line()}.",
        "",
        markdown_table(header, rows),
        "",
        "Contrastive / MLE on all transitions of the same trajectory (KL ratio per T, time "
        f"ratio per T; target: KL ratio <= {TARGET_RATIO:g} at T = {TARGET_T:g}):",
        "",
        markdown_table(["estimator", "pairs", "MLE baseline",
                        *[f"KL ratio @ {T:g}" for T in horizons],
                        *[f"time ratio @ {T:g}" for T in horizons],
                        f"target @ {TARGET_T:g}"], ratio_rows),
        "",
        "Diagnostics of the thesis' task (KL ratios per T):",
        "",
        markdown_table(["ratio", *[f"KL @ {T:g}" for T in horizons]], diag_rows),
        "",
        summary,
        "",
        "The disjoint task (§2.1.1.2, what the thesis analyses) uses only the ~T/(4 eta) "
        "positive pairs against T/eta - 1 transitions for the MLE; a KL ratio of about 4 is "
        "the price of that design before any loss of efficiency of the classification itself. "
        "The sliding task (our variant) uses every transition; its pairs are dependent, so the "
        "thesis' sample-complexity analysis does not cover it. The MLE is asymptotically "
        "efficient, so a ratio near or below 1 means 'as good as the MLE within the noise of "
        f"{n_seeds}-seed medians', not better. Times include building the task; the AR MLE is "
        "closed form, so the time ratios mostly measure the optimiser.",
    ])


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    horizons = HORIZONS[:2] if quick else HORIZONS
    n_seeds = 5 if quick else N_SEEDS
    text = report(run(horizons, n_seeds), horizons, n_seeds)
    print(text)
    path = write_result("contrastive", text)
    print(f"\nwritten to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
