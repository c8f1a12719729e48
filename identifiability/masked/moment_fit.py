r"""Least-squares refinement of a moment estimate on the moments themselves (004 §2.2).

The spectral read-out (:mod:`~identifiability.masked.spectral`) inverts the whitening pair
matrix, which amplifies the noise by :math:`1/\sigma_k(P_{ab})` (large for a poorly conditioned
model).  Refinement fits the model's moments to the empirical ones directly,

.. math::

    \min_{E, T}\ \|\hat P_{123} - \tfrac1k\textstyle\sum_i (ET^\top)_i\otimes E_i\otimes (ET)_i\|^2
        + \sum_{(s,u)} \|\hat P_{su} - P_{su}(E, T)\|^2 ,

with :math:`P_{12} = \frac1k ET^\top E^\top`, :math:`P_{13} = \frac1k ET^\top (ET)^\top`,
:math:`P_{23} = \frac1k E(ET)^\top` (004 (2.36), (2.70) with the stationary uniform law of A5),
by Levenberg-Marquardt (damped normal equations, one BLAS product per Jacobian) started at
the spectral estimate, with an evaluation budget.  For the HMM the moments are window
frequencies, whose variance grows with the frequency (multinomial: :math:`\approx m/n`), so
each residual is divided by :math:`\sqrt{\max(\hat m, 1/n)}` (:func:`moment_weights`, a
diagonal generalised least squares, Neyman's minimum chi-square): on the family of random
well-conditioned models of benchmark ``estimation`` it lowers the median error by ~10 %
against the unweighted fit, at the same few Jacobians.  The result is projected onto the model
class and kept only if the projected model fits the moments better than the projected
spectral estimate.

:func:`fit_spectral` is one pass of the estimator of
:mod:`~identifiability.masked.estimation` (spectral read-out, projection, refinement) on the
moments of all groups or all but one; :func:`jackknife` repeats the spectral step leaving each
group out, and linearises the refinement at the full-sample optimum (a one-step jackknife).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from identifiability.masked.matching import match_permutation
from identifiability.masked.moments import PAIRS, TripleMoments
from identifiability.masked.spectral import (
    SpectralFactors,
    simplex_projection,
    spectral_factors,
)
from seprank.core import array_bytes, guard_memory
from seprank.core.types import FloatArray
from seprank.extras import optional

__all__: list[str] = []
#: Levenberg-Marquardt iterations (Jacobian evaluations, analytic) of the refinement, at most.
REFINE_ITERATIONS = 30
#: At least this many (the well-conditioned models of benchmark ``estimation`` converge within
#: 10; the poorly conditioned ones keep descending slowly).  On its family of random
#: well-conditioned HMMs at n = 1e5 the fit stops by ``REFINE_FTOL`` after 4-6 Jacobians, and
#: 200 Jacobians or a start at the true parameters reach the same optimum: neither the budget
#: nor the start limits its error there (issue 36; a gap to EM is the three-token windows'
#: efficiency, closed by the estimators' ``em_steps``).
REFINE_MIN_ITERATIONS = 10
#: Multiply-adds of the products :math:`J^\top J` the refinement may spend: 30 iterations
#: where they are cheap, down to ``REFINE_MIN_ITERATIONS`` at (d, k) = (20, 8), where one
#: costs 9200 x 224^2 and 30 of them (0.5 s) would take the estimator's time from ~0.2 s to
#: ~0.6 s for an error gain only on poorly conditioned models whose status is
#: ``'too_few_samples'`` anyway (benchmark ``estimation``).
REFINE_WORK = 5e9
#: Stop the refinement when a step lowers the squared moment residual by less than this
#: fraction (the moments' sampling noise is many orders larger).
REFINE_FTOL = 1e-8
#: Damping increases (x10 each) tried before a Levenberg-Marquardt step is given up.
_MAX_DAMPING_TRIALS = 30



def model_moments(E: FloatArray, T: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``(P123, pairs)`` of the model (E, T): pairs stacked as offsets (0,1), (0,2), (1,2)."""
    k = E.shape[1]
    A, C = E @ T.T, E @ T
    P3 = np.einsum("ih,jh,lh->ijl", A, E, C) / k
    return P3, np.stack([A @ E.T, A @ C.T, E @ C.T]) / k


def moment_residual(E: FloatArray, T: FloatArray, P3: FloatArray, Pp: FloatArray,
                    weights: FloatArray | None = None) -> float:
    """Root of the summed squared (weighted) moment residuals."""
    M3, Mp = model_moments(E, T)
    r = np.concatenate([(M3 - P3).ravel(), (Mp - Pp).ravel()])
    if weights is not None:
        r = r * weights
    return float(np.sqrt(r @ r))


def moment_weights(mom: TripleMoments) -> FloatArray | None:
    """Residual weights of the refinement: ``1/sqrt(max(m, 1/n))`` for the HMM's window
    frequencies m from n windows (their variance is about m/n); None (unweighted) for the
    G-HMM, whose moments are not frequencies."""
    if mom.kind != "hmm":
        return None
    P3, Pp = mom.moments()
    m = np.concatenate([P3.ravel(), Pp.ravel()])
    return np.asarray(1.0 / np.sqrt(np.maximum(m, 1.0 / max(mom.n_windows, 1))))


@dataclass(frozen=True)
class MomentFit:
    E: FloatArray
    T: FloatArray
    n_evaluations: int
    budget_exhausted: bool


def moment_jacobian(E: FloatArray, T: FloatArray) -> FloatArray:
    r"""Jacobian of the stacked moments ``[P123, P12, P13, P23]`` (raveled) in ``[E, T]``.

    With :math:`A = ET^\top`, :math:`C = ET` and :math:`P_{123} = \frac1k\sum_h A_{ih}E_{jh}
    C_{lh}`: :math:`\partial A_{ih}/\partial E_{pm} = \delta_{ip}T_{hm}`,
    :math:`\partial C_{lh}/\partial E_{pm} = \delta_{lp}T_{mh}`,
    :math:`\partial A_{ih}/\partial T_{ab} = \delta_{ha}E_{ib}`,
    :math:`\partial C_{lh}/\partial T_{ab} = \delta_{hb}E_{la}`; the product rule does the
    rest (checked against finite differences in the tests).
    """
    d, k = E.shape
    A, C = E @ T.T, E @ T
    eye = np.eye(d)
    X1 = np.einsum("hm,jh,lh->jlm", T, E, C)       # sum_h T[h,m] E[j,h] C[l,h]
    X3 = np.einsum("ih,jh,mh->ijm", A, E, T)       # sum_h A[i,h] E[j,h] T[m,h]
    AC = A[:, None, :] * C[None, :, :]             # A[i,m] C[l,m] -> (i, l, m)
    J = np.zeros((d ** 3 + 3 * d * d, d * k + k * k))
    # P123 in E, axes (i, j, l, p, m): delta_ip X1[j,l,m] + delta_jp AC[i,l,m] + delta_lp X3[i,j,m]
    # written on its diagonals only (a dense delta product is 3 d^4 k multiply-adds)
    JE3 = J[:d ** 3, :d * k].reshape(d, d, d, d, k)
    for p in range(d):
        JE3[p, :, :, p, :] += X1
        JE3[:, p, :, p, :] += AC
        JE3[:, :, p, p, :] += X3
    EC = E[:, None, :] * C[None, :, :]             # E[j,a] C[l,a] -> (j, l, a)
    AE = A[:, None, :] * E[None, :, :]             # A[i,b] E[j,b] -> (i, j, b)
    # axes (i, j, l, a, b)
    J[:d ** 3, d * k:].reshape(d, d, d, k, k)[...] = (
        E[:, None, None, None, :] * EC[None, :, :, :, None]
        + AE[:, :, None, None, :] * E[None, None, :, :, None])
    JE12 = np.einsum("ip,jm->ijpm", eye, C) + np.einsum("jp,im->ijpm", eye, A)
    JT12 = np.einsum("ib,ja->ijab", E, E)
    JE13 = np.einsum("ip,lm->ilpm", eye, C @ T) + np.einsum("lp,im->ilpm", eye, A @ T.T)
    JT13 = np.einsum("ib,la->ilab", E, C) + np.einsum("ib,la->ilab", A, E)
    JE23 = np.einsum("jp,lm->jlpm", eye, C) + np.einsum("lp,jm->jlpm", eye, A)
    JT23 = np.einsum("jb,la->jlab", E, E)
    for q, (JE, JT) in enumerate(((JE12, JT12), (JE13, JT13), (JE23, JT23))):
        rows = slice(d ** 3 + q * d * d, d ** 3 + (q + 1) * d * d)
        J[rows, :d * k] = JE.reshape(-1, d * k)
        J[rows, d * k:] = JT.reshape(-1, k * k)
    J /= k
    return J


def refine_budget(d: int, k: int) -> int:
    """Jacobian evaluations allowed to the refinement at (d, k): ``REFINE_WORK`` multiply-adds
    of :math:`J^\top J` products, between ``REFINE_MIN_ITERATIONS`` and ``REFINE_ITERATIONS``.

    Examples
    --------
    >>> refine_budget(5, 3), refine_budget(20, 8)
    (30, 10)
    """
    per = (d ** 3 + 3 * d * d) * (d * k + k * k) ** 2
    return int(min(REFINE_ITERATIONS, max(REFINE_MIN_ITERATIONS, REFINE_WORK // per)))


def fit_moments(E0: FloatArray, T0: FloatArray, P3: FloatArray, Pp: FloatArray, *,
                max_iterations: int = REFINE_ITERATIONS, ftol: float = REFINE_FTOL,
                weights: FloatArray | None = None) -> MomentFit:
    r"""Levenberg-Marquardt on the moment residuals from (E0, T0), unconstrained.

    ``max_iterations`` bounds the Jacobian evaluations (analytic, :func:`moment_jacobian`);
    ``budget_exhausted`` says when it stopped short.  Each step solves the damped normal
    equations :math:`(J^\top J + \lambda\,\mathrm{diag}(J^\top J))\,\delta = -J^\top r`
    (Marquardt's scaling): one BLAS product :math:`J^\top J` of the
    :math:`(d^3 + 3d^2) \times (dk + k^2)` Jacobian per Jacobian and k x k-sized solves per
    trial step, instead of MINPACK's unblocked QR of the whole Jacobian (6-8x the time at
    (d, k) = (20, 8), benchmark ``estimation``).  It stops when an accepted step lowers the
    squared residual by less than ``ftol`` relatively (far below the sampling noise of the
    moments), or when no damping lowers it.
    """
    d, k = E0.shape
    n_par = d * k + k * k
    n_res = d ** 3 + 3 * d * d
    guard_memory(array_bytes((n_res, n_par)) * 3,
                 what=f"the least-squares refinement's Jacobian ({n_res:,} moments x {n_par:,} "
                      "parameters)",
                 fix="pass refine=False (the spectral estimate is consistent without it)")

    def split(p: FloatArray) -> tuple[FloatArray, FloatArray]:
        return p[:d * k].reshape(d, k), p[d * k:].reshape(k, k)

    w = np.ones(n_res) if weights is None else weights

    def residual(p: FloatArray) -> FloatArray:
        M3, Mp = model_moments(*split(p))
        return w * np.concatenate([(M3 - P3).ravel(), (Mp - Pp).ravel()])

    p = np.concatenate([E0.ravel(), T0.ravel()])
    with np.errstate(all="ignore"):
        r = residual(p)
        cost = float(r @ r)
        if not np.isfinite(cost):
            return MomentFit(*split(p), 0, False)
        lam, n_jac, exhausted = 1e-3, 0, True
        while n_jac < max_iterations:
            J = moment_jacobian(*split(p))
            if weights is not None:
                J *= w[:, None]
            n_jac += 1
            H, g = J.T @ J, J.T @ r
            D = np.diag(np.maximum(np.diag(H), 1e-12 * max(float(np.max(np.diag(H))), 1e-300)))
            step, accepted = p, False
            for _ in range(_MAX_DAMPING_TRIALS):
                try:
                    step = np.linalg.solve(H + lam * D, -g)
                except np.linalg.LinAlgError:
                    lam *= 10
                    continue
                r_new = residual(p + step)
                cost_new = float(r_new @ r_new)
                if np.isfinite(cost_new) and cost_new < cost:
                    accepted = True
                    break
                lam *= 10
            if not accepted:
                exhausted = False
                break
            gain = (cost - cost_new) / max(cost, 1e-300)
            p, r, cost = p + step, r_new, cost_new
            lam = max(lam / 10, 1e-12)
            if gain <= ftol:
                exhausted = False
                break
    return MomentFit(*split(p), n_jac, exhausted)


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
    weights: FloatArray | None = None


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
    T, _, converged = _birkhoff(T_raw)
    return E, T, converged


#: Dykstra iterations run in Python before the compiled loop takes over: the estimator's
#: projections at (20, 8) take <= 600 but for a few of a poorly conditioned model's jackknife
#: replicates (10^5, not converging); loading the compiled loop costs ~0.3 s of CPU once.
_PYTHON_DYKSTRA = 2000


def _birkhoff(X: FloatArray, tol: float = 1e-13, max_iter: int = 100_000
              ) -> tuple[FloatArray, int, bool]:
    """:func:`~identifiability.masked.spectral.birkhoff_projection` (Dykstra): the same
    iterates, the first ``_PYTHON_DYKSTRA`` in Python (identical), the rest compiled (sums in
    another order: equal to rounding).  A jackknife replicate of a poorly conditioned model
    can take 10^4-10^5 iterations: seconds in Python at k = 8, milliseconds compiled.  Without
    the kernels group (numba) every iterate runs in Python: the reference's own iterates."""
    P = np.array(X, dtype=float)
    k = P.shape[0]
    incr = np.zeros_like(P)
    in_python = max_iter if optional("numba") is None else min(max_iter, _PYTHON_DYKSTRA)
    for it in range(1, in_python + 1):
        r = P.sum(axis=1, keepdims=True) - 1
        c = P.sum(axis=0, keepdims=True) - 1
        A = P - r / k - c / k + (P.sum() - k) / k**2
        P = np.maximum(A - incr, 0.0)
        incr = P - (A - incr)
        dev = max(float(np.max(np.abs(P.sum(0) - 1))), float(np.max(np.abs(P.sum(1) - 1))))
        if dev <= tol:
            return P, it, True
    if max_iter <= in_python:
        return P, max_iter, False
    from identifiability.masked._dykstra import dykstra  # numba: loaded on first need
    P, incr, extra = dykstra(np.ascontiguousarray(P), np.ascontiguousarray(incr),
                                         tol, max_iter - _PYTHON_DYKSTRA)
    if extra < 0:
        return P, max_iter, False
    return P, _PYTHON_DYKSTRA + extra, True


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
    w = moment_weights(mom) if refine else None
    if refine and start is not None:
        budget = refine_budget(*start[0].shape) if warm is None else 3
        mf = fit_moments(start[0], start[1], P3, Pp, max_iterations=budget, weights=w)
        E_r, T_r, ok_r = _project(mf.E, mf.T, mom.kind)
        info = {"used": False, "evaluations": mf.n_evaluations, "budget": budget,
                "budget_exhausted": mf.budget_exhausted}
        if ok_r:
            res_r = moment_residual(E_r, T_r, P3, Pp, w)
            res_s = moment_residual(E, T, P3, Pp, w) if ok else np.inf
            info.update(residual_spectral=res_s, residual_refined=res_r)
            if warm is not None or res_r <= res_s:
                E, T, ok, E_raw, T_raw = E_r, T_r, True, mf.E, mf.T
                info["used"] = True
                new_warm = (mf.E, mf.T)
    return SpectralFit(E, T, E_raw, T_raw, f, ok, E_s, info, new_warm, w)


def jackknife(mom: TripleMoments, fit: SpectralFit, k: int, a: int, n_contractions: int,
              refine: bool) -> dict[str, Any]:
    r"""Delete-a-group jackknife standard errors of the parameters, the chosen contraction's
    eigenvalues and sigma_k of the whitening matrices.

    The spectral step is repeated on each replicate along the same contraction.  When the
    refinement was used, a replicate's refined parameters are its one-step (Gauss-Newton)
    update from the full-sample optimum, :math:`\hat\theta + (WJ)^+W(\hat m_{-g} - \hat m)`
    with the fit's residual weights W (the linearised jackknife), then projected like the
    full-sample estimate.
    """
    groups = [g for g in range(len(mom.counts)) if mom.counts[g] > 0]
    reps: list[tuple[FloatArray, FloatArray, FloatArray, FloatArray]] = []
    linear = refine and fit.warm is not None
    if linear and fit.warm is not None:
        E0, T0 = fit.warm
        J = moment_jacobian(E0, T0)
        P3, Pp = mom.moments()
        dm = np.column_stack([np.concatenate([(Q3 - P3).ravel(), (Qp - Pp).ravel()])
                              for Q3, Qp in (mom.moments(g) for g in groups)])
        if fit.weights is not None:          # the same weighted objective as the fit
            J, dm = J * fit.weights[:, None], dm * fit.weights[:, None]
        steps = np.linalg.lstsq(J, dm, rcond=None)[0]
        theta0 = np.concatenate([E0.ravel(), T0.ravel()])
    if len(groups) >= 2 and len(groups) == len(mom.counts):
        rng = np.random.default_rng(0)  # unused: the direction is fixed
        for i, g in enumerate(groups):
            try:
                r = fit_spectral(mom, k, a, rng, n_contractions, fit.factors.direction, g,
                                 refine=False)
            except (ValueError, np.linalg.LinAlgError):
                break
            q = match_permutation(r.E_spectral, fit.E_spectral).perm  # spectral components
            if linear:
                th = theta0 + steps[:, i]
                d = E0.shape[0]
                E, T, ok = _project(th[:d * k].reshape(d, k), th[d * k:].reshape(k, k),
                                    mom.kind)
                p = np.arange(k)
            else:
                E, T, ok, p = r.E, r.T, r.projected, q
            if not (ok and np.all(np.isfinite(E)) and np.all(np.isfinite(T))):
                break
            reps.append((E[:, p], T[np.ix_(p, p)], r.factors.eigenvalues[q],
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
