r"""Least-squares refinement of a moment estimate on the moments themselves (004 §2.2).

The spectral read-out (:mod:`~identifiability.masked.spectral`) inverts the whitening pair
matrix, which amplifies the noise by :math:`1/\sigma_k(P_{ab})` (large for a poorly conditioned
model).  Refinement fits the model's moments to the empirical ones directly,

.. math::

    \min_{E, T}\ \|\hat P_{123} - \tfrac1k\textstyle\sum_i (ET^\top)_i\otimes E_i\otimes (ET)_i\|^2
        + \sum_{(s,u)} \|\hat P_{su} - P_{su}(E, T)\|^2 ,

with :math:`P_{12} = \frac1k ET^\top E^\top`, :math:`P_{13} = \frac1k ET^\top (ET)^\top`,
:math:`P_{23} = \frac1k E(ET)^\top` (004 (2.36), (2.70) with the stationary uniform law of A5),
by Levenberg-Marquardt (:func:`scipy.optimize.least_squares`) started at the spectral estimate,
with an evaluation budget.  The result is projected onto the model class and kept only if the
projected model fits the moments better than the projected spectral estimate.

:func:`fit_spectral` is one pass of the estimator of
:mod:`~identifiability.masked.estimation` (spectral read-out, projection, refinement) on the
moments of all groups or all but one; :func:`jackknife` repeats it leaving each group out (the
refinement of a replicate starts at the full-sample one: a one-step jackknife).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import least_squares

from identifiability.masked.moments import PAIRS, TripleMoments
from identifiability.masked.recovery import match_permutation
from identifiability.masked.spectral import (
    SpectralFactors,
    birkhoff_projection,
    simplex_projection,
    spectral_factors,
)
from seprank.core import array_bytes, guard_memory

__all__: list[str] = []
#: Levenberg-Marquardt iterations of the refinement (finite-difference Jacobians).
REFINE_ITERATIONS = 30

FloatArray = npt.NDArray[np.float64]


def model_moments(E: FloatArray, T: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``(P123, pairs)`` of the model (E, T): pairs stacked as offsets (0,1), (0,2), (1,2)."""
    k = E.shape[1]
    A, C = E @ T.T, E @ T
    P3 = np.einsum("ih,jh,lh->ijl", A, E, C) / k
    return P3, np.stack([A @ E.T, A @ C.T, E @ C.T]) / k


def moment_residual(E: FloatArray, T: FloatArray, P3: FloatArray, Pp: FloatArray) -> float:
    """Root of the summed squared moment residuals."""
    M3, Mp = model_moments(E, T)
    return float(np.sqrt(np.sum((M3 - P3) ** 2) + np.sum((Mp - Pp) ** 2)))


@dataclass(frozen=True)
class MomentFit:
    E: FloatArray
    T: FloatArray
    n_evaluations: int
    budget_exhausted: bool


def fit_moments(E0: FloatArray, T0: FloatArray, P3: FloatArray, Pp: FloatArray, *,
                max_iterations: int = 30) -> MomentFit:
    """Levenberg-Marquardt on the moment residuals from (E0, T0), unconstrained.

    ``max_iterations`` bounds the Jacobian evaluations (finite differences: each costs one
    residual evaluation per parameter); ``budget_exhausted`` says when it stopped short.
    """
    d, k = E0.shape
    n_par = d * k + k * k
    def residual(p: FloatArray) -> FloatArray:
        M3, Mp = model_moments(p[:d * k].reshape(d, k), p[d * k:].reshape(k, k))
        return np.concatenate([(M3 - P3).ravel(), (Mp - Pp).ravel()])

    n_res = d ** 3 + 3 * d * d
    guard_memory(array_bytes((n_res, n_par + 4)),
                 what=f"the least-squares refinement's Jacobian ({n_res:,} moments x {n_par:,} "
                      "parameters)",
                 fix="pass refine=False (the spectral estimate is consistent without it)")
    x0 = np.concatenate([E0.ravel(), T0.ravel()])
    budget = max_iterations * (n_par + 1)
    sol = least_squares(residual, x0, method="lm", max_nfev=budget, xtol=1e-12, ftol=1e-12)
    return MomentFit(sol.x[:d * k].reshape(d, k), sol.x[d * k:].reshape(k, k), int(sol.nfev),
                     bool(sol.status == 0))


@dataclass(frozen=True)
class SpectralFit:
    E: FloatArray
    T: FloatArray
    E_raw: FloatArray
    T_raw: FloatArray
    factors: SpectralFactors
    projected: bool
    E_spectral: FloatArray
    refinement: dict[str, Any]
    warm: tuple[FloatArray, FloatArray] | None


def _pair(Pp: FloatArray, s: int, u: int) -> FloatArray:
    """E[x_s x_u^T] for window offsets s != u."""
    p = PAIRS.index((min(s, u), max(s, u)))
    return np.asarray(Pp[p] if s < u else Pp[p].T)


def _project(E_raw: FloatArray, T_raw: FloatArray, kind: str
             ) -> tuple[FloatArray, FloatArray, bool]:
    """Emission onto the class (simplex columns / unit columns), T onto the doubly stochastic
    matrices; False when something is not finite or Dykstra did not converge."""
    with np.errstate(all="ignore"):
        if not (np.all(np.isfinite(E_raw)) and np.all(np.isfinite(T_raw))):
            return E_raw, T_raw, False
        E = simplex_projection(E_raw) if kind == "hmm" else E_raw / np.linalg.norm(E_raw,
                                                                                  axis=0)
    if not np.all(np.isfinite(E)):
        return E, T_raw, False
    T, _, converged = birkhoff_projection(T_raw)
    return E, T, converged


def fit_spectral(mom: TripleMoments, k: int, a: int, rng: np.random.Generator, n_contractions: int,
         direction: tuple[int, Any] | None = None, leave_out: int | None = None,
         refine: bool = True, warm: tuple[FloatArray, FloatArray] | None = None) -> SpectralFit:
    P3, Pp = mom.moments(leave_out)
    b, c = (m for m in (0, 1, 2) if m != a)
    Q = np.moveaxis(P3, (a, b, c), (0, 1, 2))
    f = spectral_factors(Q, _pair(Pp, a, b), _pair(Pp, a, c), k, seed=rng,
                         n_contractions=n_contractions, direction=direction)
    read = {b: f.B, c: f.C}  # offsets 0, 1, 2: E T^T, E, E T
    with np.errstate(all="ignore"):
        E_raw = read[1] if 1 in read else k * _pair(Pp, 1, 2) @ np.linalg.pinv(read[2].T)
        E_s, _, _ = _project(E_raw, np.eye(k), mom.kind)
        Ts = []
        if np.all(np.isfinite(E_s)):
            if 2 in read:
                Ts.append(np.linalg.lstsq(E_s, read[2], rcond=None)[0])
            if 0 in read:
                Ts.append(np.linalg.lstsq(E_s, read[0], rcond=None)[0].T)
    T_raw = np.mean(Ts, axis=0) if Ts else np.full((k, k), np.nan)
    E, T, ok = _project(E_raw, T_raw, mom.kind)
    info: dict[str, Any] = {"used": False}
    start = warm if warm is not None else ((E, T) if ok else None)
    new_warm = None
    if refine and start is not None:
        mf = fit_moments(start[0], start[1], P3, Pp,
                         max_iterations=REFINE_ITERATIONS if warm is None else 3)
        E_r, T_r, ok_r = _project(mf.E, mf.T, mom.kind)
        info = {"used": False, "evaluations": mf.n_evaluations,
                "budget_exhausted": mf.budget_exhausted}
        if ok_r:
            res_r = moment_residual(E_r, T_r, P3, Pp)
            res_s = moment_residual(E, T, P3, Pp) if ok else np.inf
            info.update(residual_spectral=res_s, residual_refined=res_r)
            if warm is not None or res_r <= res_s:
                E, T, ok, E_raw, T_raw = E_r, T_r, True, mf.E, mf.T
                info["used"] = True
                new_warm = (mf.E, mf.T)
    return SpectralFit(E, T, E_raw, T_raw, f, ok, E_s, info, new_warm)


def jackknife(mom: TripleMoments, fit: SpectralFit, k: int, a: int, n_contractions: int,
               refine: bool) -> dict[str, Any]:
    groups = [g for g in range(len(mom.counts)) if mom.counts[g] > 0]
    reps: list[tuple[FloatArray, FloatArray, FloatArray, FloatArray]] = []
    if len(groups) >= 2 and len(groups) == len(mom.counts):
        rng = np.random.default_rng(0)  # unused: the direction is fixed
        for g in groups:
            try:
                r = fit_spectral(mom, k, a, rng, n_contractions, fit.factors.direction, g,
                         refine=refine and fit.warm is not None, warm=fit.warm)
            except (ValueError, np.linalg.LinAlgError):
                break
            if not (np.all(np.isfinite(r.E)) and np.all(np.isfinite(r.T))):
                break
            q = match_permutation(r.E_spectral, fit.E_spectral).perm  # spectral components
            p = q if fit.warm is None else np.arange(k)  # a warm start keeps the order
            reps.append((r.E[:, p], r.T[np.ix_(p, p)], r.factors.eigenvalues[q],
                         np.array(r.factors.sigma_k)))
    if len(reps) < max(2, len(groups)) or len(groups) < len(mom.counts):
        inf = np.inf
        return {"E": np.full(fit.E.shape, inf), "T": np.full(fit.T.shape, inf),
                "eig": np.full(k, inf), "sigma_k": np.full(2, inf), "groups": len(reps)}
    n = len(reps)

    def se(i: int) -> FloatArray:
        X = np.array([r[i] for r in reps])
        return np.asarray(np.sqrt((n - 1) / n * ((X - X.mean(axis=0)) ** 2).sum(axis=0)))

    return {"E": se(0), "T": se(1), "eig": se(2), "sigma_k": se(3), "groups": n}
