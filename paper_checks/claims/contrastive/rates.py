"""Paper 004 §2.1: end-to-end checks CL-9 .. CL-11 on Ornstein–Uhlenbeck data.

A stationary 1-D OU process (ρ = 1) is simulated exactly over a horizon T, the contrastive task
of §2.1.1.2 is built with a global (q = π) or conditional (q(·|z) = N(z, 2η)) contrast, the
Gaussian-kernel family :math:`h_\\theta = p_\\theta/(p_\\theta + q)` is fitted, and the kernel
errors of Theorems 2 and 3 are measured: :math:`\\mathbb E_\\pi\\mathrm{KL}(p_*\\|\\hat p)`,
:math:`\\mathbb E_{\\pi,p_*}|\\hat p - p_*|` and the ℓ2 excess risk :math:`2\\epsilon_{tr}`.
Medians over 20 seeds (trajectory and task seeds are separate streams; the optimiser starts
from a fixed data-free point).  Tolerances are the reading notes' (§B.3): KL and excess-risk
log–log slopes in [−1.4, −0.7], the mean absolute error at 16× T at least 2.5× smaller.

The thesis has no experiments here: the rates are what its theorems predict (a parametric
M-estimator: KL and excess ∝ 1/T; Theorem 3: absolute error ≲ sqrt(excess)).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import numpy as np

from identifiability.contrastive.fit import fit_gaussian_kernel
from identifiability.contrastive.kernels import GaussianKernel
from identifiability.contrastive.metrics import (
    excess_risk,
    expected_abs_error,
    expected_kl,
    theorem3_factor,
)
from identifiability.contrastive.processes import OrnsteinUhlenbeck
from identifiability.contrastive.task import make_contrastive_task
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Margin, claim, claim_quick_full, judge
from seprank.core import split_seed

PAPER = "004"
QUICK_HORIZONS = (250.0, 1000.0, 4000.0)
FULL_HORIZONS = (250.0, 1000.0, 4000.0, 16000.0)
N_SEEDS = 20
KL_SLOPE_RANGE = (-1.4, -0.7)
ABS_RATIO_16X = 2.5


def _contrast(kind: str, eta: float, ou: OrnsteinUhlenbeck) -> GaussianKernel:
    return ou.stationary if kind == "pi" else GaussianKernel.local(1, 2 * eta)


@cache
def fitted_kernels(eta: float, q_kind: str, loss: str, horizons: tuple[float, ...],
                   n_seeds: int = N_SEEDS) -> tuple[tuple[GaussianKernel, ...], ...]:
    """Fitted Gaussian-family kernels per (T, seed) (cached: CL-9..CL-11 share fits)."""
    ou = OrnsteinUhlenbeck(1.0)
    q = _contrast(q_kind, eta, ou)
    rows = []
    for T in horizons:
        n = int(T / eta) // 2 * 2
        row = []
        for s in range(n_seeds):
            traj_rng, task_rng = split_seed(np.random.SeedSequence([s, int(T), 6]), 2)
            x = ou.simulate(n, eta, seed=traj_rng)
            task = make_contrastive_task(x, eta, q, seed=task_rng)
            row.append(fit_gaussian_kernel(task, q, loss=loss).kernel)  # type: ignore[arg-type]
        rows.append(tuple(row))
    return tuple(rows)


def _logit_of(k: GaussianKernel, q: GaussianKernel) -> Callable[[np.ndarray, np.ndarray],
                                                                np.ndarray]:
    def logit(z: np.ndarray, zp: np.ndarray) -> np.ndarray:
        return k.logpdf(z, zp) - q.logpdf(z, zp)

    return logit


@cache
def end_to_end(eta: float, q_kind: str, metrics: tuple[str, ...], loss: str = "cross_entropy",
               horizons: tuple[float, ...] = QUICK_HORIZONS) -> dict[str, np.ndarray]:
    """Per (T, seed) metrics of the fitted kernels: 'kl', 'abs', 'excess', 'factor'."""
    ou = OrnsteinUhlenbeck(1.0)
    pk = ou.kernel(eta)
    q = _contrast(q_kind, eta, ou)
    fits = fitted_kernels(eta, q_kind, loss, horizons)
    out = {m: np.empty((len(fits), len(fits[0]))) for m in metrics}
    for i, row in enumerate(fits):
        for s, k in enumerate(row):
            for m in metrics:
                if m == "kl":
                    v = expected_kl(pk, k, ou.stationary)
                elif m == "abs":
                    v = expected_abs_error(pk, k, ou.stationary)
                elif m == "excess":
                    v = excess_risk(pk, _logit_of(k, q), q, ou.stationary)
                elif m == "factor":
                    v = theorem3_factor(pk, k, q, ou.stationary)
                else:
                    raise ValueError(m)
                out[m][i, s] = v
    return out


def _slope(horizons: tuple[float, ...], values: np.ndarray) -> float:
    return float(np.polyfit(np.log(horizons), np.log(values), 1)[0])


def _fmt(values: np.ndarray) -> list[float]:
    return [float(f"{v:.3g}") for v in values]


def _slope_margin(slope: float, lo: float, hi: float, horizons: tuple[float, ...],
                  what: str) -> Margin:
    """A slope s in [lo, hi] over a horizon range T_max/T_min: moving the slope by Δ moves the
    last value by (T_max/T_min)^Δ, so the room is min(s - lo, hi - s) log10(T_max/T_min)."""
    span = math.log10(horizons[-1] / horizons[0])
    return Margin(min(slope - lo, hi - slope) * span, what)


def _kl_decay(eta: float, loss: str, horizons: tuple[float, ...], shift: float = 0.0
              ) -> tuple[bool, dict[str, object], float]:
    res = end_to_end(eta, "pi", ("kl",), loss, horizons)
    med = np.median(res["kl"], axis=1)
    slope = _slope(horizons, med)
    monotone = bool(np.all(np.diff(med) < 0))
    ok = monotone and KL_SLOPE_RANGE[0] + shift <= slope <= KL_SLOPE_RANGE[1] + shift
    return ok, {"eta": eta, "loss": loss, "T": horizons, "median_KL": _fmt(med),
                "slope": round(slope, 3), "monotone": monotone}, slope


KL_STATEMENT = ("End-to-end consequence of Theorems 1-2 on OU data: the contrastive "
                "classifier's kernel has E_pi KL(p_*||p^eta) decreasing to 0 as T grows (Theorem "
                "2's bound 2(1+c_q)^5 eps_tr/Delta_min^2 itself is infinite here)")


@claim_quick_full(id="CL-9-KL-decay",
                  quick={"cells": ((0.5, "cross_entropy"),), "horizons": QUICK_HORIZONS},
                  full={"cells": tuple((e, loss) for e in (0.1, 0.5, 1.0)
                                       for loss in ("cross_entropy", "l2")),
                        "horizons": FULL_HORIZONS},
                  paper=PAPER, reference="§2.1.1.4 Theorems 1–2 (eq. 2.14)",
                  statement=KL_STATEMENT, category="consistency",
                  perturbation=Perturbed("KL ~ T^-2 (the slope window shifted by -1)",
                                         slope_shift=-1.0), basis="statistical")
def cl_9_kl_decay(cells: tuple[tuple[float, str], ...], horizons: tuple[float, ...],
                  slope_shift: float = 0.0) -> ClaimResult:
    rows, ok_all, margins = [], True, []
    for eta, loss in cells:
        ok, row, slope = _kl_decay(eta, loss, horizons, slope_shift)
        ok_all &= ok
        rows.append(row)
        margins.append(_slope_margin(slope, *KL_SLOPE_RANGE, horizons,
                                     "KL slope within its window, times the T range"))
    return ClaimResult(
        measured=rows if len(rows) > 1 else rows[0],
        reference_value=f"monotone decrease, log-log slope in {KL_SLOPE_RANGE}",
        verdict=judge(ok_all), margin=Margin.tightest(margins),
        details={"setting": f"OU rho=1, q=pi, Gaussian-kernel family, T in {horizons}, "
                 f"{N_SEEDS} seeds, medians, (eta, loss) in {cells}",
                 "why consistency": "the printed bound (2.14) is never evaluated here: on R, c_q "
                 "and Delta_min are infinite for Gaussian kernels, so the bound is vacuous (CL-6 "
                 "checks (2.14) itself on finite-state kernels). The KL decay is this project's "
                 "observation of the end-to-end consequence, not a verdict on a printed "
                 "statement (2026-11 audit: re-filed from paper)"})


@claim(id="CL-10-Thm3-OU", paper=PAPER, reference="§2.1.1.4 Theorem 3 (eq. 2.15), eq. 2.32",
       statement="E_{z~pi, z'~p_*}|p^eta(z,z') - p_*^eta(z,z')| <= sqrt(2 eps_tr) "
       "O(sqrt(pi(z_*)) (1/(rho eta^2))^{d/4})",
       expected_verdict="holds",
       perturbation=Perturbed("the square root dropped: |p - p_*| ~ eps_tr ~ T^-1 (as fast as "
                              "the excess risk)", abs_exponent=1.0), basis="statistical")
def cl_10_thm3_ou(abs_exponent: float = 0.5) -> ClaimResult:
    eta = 0.5
    res = end_to_end(eta, "local", ("abs", "excess", "factor"))
    med_abs = np.median(res["abs"], axis=1)
    med_exc = np.median(res["excess"], axis=1)
    # eq. 2.32 with 2 eps_tr = excess, evaluated per fit with the measured factor
    ratio = res["abs"] / np.sqrt(res["excess"] * res["factor"])
    chain_ok = bool(np.all(ratio <= 1))
    s_abs, s_exc = _slope(QUICK_HORIZONS, med_abs), _slope(QUICK_HORIZONS, med_exc)
    drop = float(med_abs[0] / med_abs[2])
    # |p - p_*| <= sqrt(2 eps_tr) O(1): a decay like excess^abs_exponent, the window scaled
    abs_range = (KL_SLOPE_RANGE[0] * abs_exponent, KL_SLOPE_RANGE[1] * abs_exponent)
    rates_ok = (abs_range[0] <= s_abs <= abs_range[1]
                and KL_SLOPE_RANGE[0] <= s_exc <= KL_SLOPE_RANGE[1] and drop >= ABS_RATIO_16X)
    return ClaimResult(
        measured={"median_abs_error": _fmt(med_abs), "median_excess": _fmt(med_exc),
                  "slope_abs": round(s_abs, 3), "slope_excess": round(s_exc, 3),
                  "abs drop T=250 -> 4000": round(drop, 2),
                  "max abs/(sqrt(2 eps_tr) sqrt(factor))": round(float(ratio.max()), 4)},
        reference_value="abs <= sqrt(2 eps_tr) sqrt(factor); abs ~ T^-1/2, excess ~ T^-1",
        verdict=judge(chain_ok and rates_ok),
        margin=Margin.tightest([
            Margin(-math.log10(float(ratio.max())), "max abs / (sqrt(2 eps_tr) sqrt(factor))"),
            _slope_margin(s_abs, *abs_range, QUICK_HORIZONS, "abs-error slope window"),
            _slope_margin(s_exc, *KL_SLOPE_RANGE, QUICK_HORIZONS, "excess slope window")]),
        details={"setting": f"OU rho=1, eta={eta}, conditional q(.|z) = N(z, 2 eta) (with q = pi "
                 "the factor is infinite, CL-8), Gaussian-kernel family, cross-entropy, "
                 f"T in {QUICK_HORIZONS}, {N_SEEDS} seeds",
                 "chain": "the printed inequality with its O(.) replaced by the measured factor "
                 f"E(max{{p,p_*}}+q)^4/q^2 held for all {ratio.size} fits: {chain_ok}",
                 "rates": f"abs-error slope {s_abs:.2f} (tolerance {abs_range}), excess "
                 f"slope {s_exc:.2f} (tolerance {KL_SLOPE_RANGE}), drop {drop:.2f} >= "
                 f"{ABS_RATIO_16X}"})


@claim(id="CL-11-Thm1-rate", paper=PAPER, reference="§2.1.1.4 Theorem 1, §2.1.3.1",
       statement="If T = Omega(B^2 K_eta^3 (log 1/delta)^{3/2} / (delta^2 Delta_gen^3)) then with "
       "probability 1-delta the generalization gap is at most Delta_gen",
       expected_verdict="holds",
       perturbation=Perturbed("T = Omega(Delta_gen^-1/2), i.e. Delta_gen ~ T^-2 (the exponent 3 "
                              "of 1/Delta_gen replaced by 1/2)", gen_exponent=0.5),
       basis="statistical")
def cl_11_thm1_rate(gen_exponent: float = 3.0) -> ClaimResult:
    res = end_to_end(0.5, "local", ("excess",))
    med_exc = np.median(res["excess"], axis=1)
    slope = _slope(QUICK_HORIZONS, med_exc)
    monotone = bool(np.all(np.diff(med_exc) < 0))
    target = -1 / gen_exponent              # T ~ Delta_gen^-gen_exponent
    ok = monotone and slope <= target
    return ClaimResult(
        measured={"median_excess": _fmt(med_exc), "slope": round(slope, 3)},
        reference_value="decay at least as fast as the bound's shape T^(-1/3)",
        verdict=judge(ok),
        margin=Margin((target - slope) * math.log10(QUICK_HORIZONS[-1] / QUICK_HORIZONS[0]),
                      "slope below -1/exponent, times the T range",
                      "Theorem 1 is a worst-case sample-complexity bound with unspecified "
                      "constants: only its shape T^(-1/3) is testable, and a parametric fit's "
                      "excess risk decays like 1/T, far faster"),
        details={"what_is_testable": "the O(.) constants and K_eta are unspecified, so only the "
                 "shape: Theorem 1 as printed gives Delta_gen ~ T^(-1/3) (T^(-1/6) with the "
                 "exponents the proof actually supports, notes §D.18); the measured excess "
                 "risk decays ~ T^-1, consistent with (much faster than) the bound",
                 "setting": "same fits as CL-10"})
