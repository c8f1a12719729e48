"""Maximum-likelihood baselines for the η-transition kernel of an OU process.

The statistical reference for the contrastive estimator: on the *same* observations
:math:`\\tilde x_0, \\tilde x_\\eta, \\dots`, maximise the conditional (transition) likelihood

.. math::

    \\ell = \\sum_i \\log k(\\tilde x_{(i+1)\\eta} \\mid \\tilde x_{i\\eta}),

over either

* ``fit_ou_mle`` — the OU model :math:`k = \\mathcal N(e^{-A\\eta}z, A^{-1}(I - e^{-2A\\eta}))`,
  A symmetric positive definite (the exact discretely-observed OU likelihood; the diffusion
  coefficient √2 is known, eq. 2.1); or
* ``fit_gaussian_ar`` — the unrestricted Gaussian AR(1) kernel :math:`\\mathcal N(Mz + c, S)`,
  the same family as the contrastive :func:`~identifiability.contrastive.fit.fit_gaussian_kernel`
  (closed form: least squares with intercept, MLE residual covariance).

``transitions="all"`` uses every consecutive pair (n − 1 transitions, what an MLE would use);
``"disjoint"`` only the pairs :math:`(\\tilde x_{2i\\eta}, \\tilde x_{(2i+1)\\eta})` the
contrastive task is built from (m transitions), for a like-for-like comparison.

References
----------
004 §2.1.1.1 (eq. 2.1) and §2.1.1.2; the baseline itself is not in
the thesis (reading notes ``docs/notes/seed_thesis_ch2.md`` §B.3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize, minimize_scalar

from identifiability.contrastive.kernels import FloatArray, GaussianKernel
from identifiability.contrastive.processes import OrnsteinUhlenbeck, check_eta
from seprank.core import check_array, check_choice
from seprank.core.display import RichDisplay

__all__ = ["OUMLEResult", "fit_gaussian_ar", "fit_ou_mle"]

Transitions = Literal["all", "disjoint"]
#: The 1-D search interval of rho * eta: from a near-random walk to near-independence.
_RHO_ETA_RANGE = (1e-6, 50.0)
#: A maximiser this close (in log rho) to an end of the interval is at the edge.
_EDGE_TOL = 1e-4


def _transitions(observations: npt.ArrayLike, which: Transitions) -> tuple[FloatArray, FloatArray]:
    x = check_array("observations", observations, ndim=2, what="(n, d) array")
    check_choice("transitions", which, ("all", "disjoint"))
    if which == "all":
        a, b = x[:-1], x[1:]
    elif which == "disjoint":
        m = x.shape[0] // 2
        a, b = x[0:2 * m:2], x[1:2 * m:2]
    if a.shape[0] < x.shape[1] + 2:
        raise ValueError(f"observations give {a.shape[0]} transitions, too few for a "
                         f"maximum-likelihood fit in dimension {x.shape[1]} (need "
                         f"{x.shape[1] + 2})")
    spread = np.linalg.eigvalsh(np.atleast_2d(np.cov(x.T)))
    if spread[0] <= 1e-12 * max(float(spread[-1]), float(np.max(x * x)), 1e-300):
        raise ValueError(f"observations do not vary in every direction (their covariance has "
                         f"eigenvalues from {spread[0]:.3g} to {spread[-1]:.3g}): constant or "
                         "degenerate data identify no Ornstein-Uhlenbeck drift or AR(1) "
                         "kernel; pass a trajectory that moves in all d coordinates")
    return a, b


def fit_gaussian_ar(observations: npt.ArrayLike, eta: float, *,
                    transitions: Transitions = "all") -> GaussianKernel:
    """Closed-form MLE of the Gaussian AR(1) kernel :math:`\\mathcal N(Mz + c, S)`.

    :math:`[M, c]` by least squares of :math:`\\tilde x_{(i+1)\\eta}` on
    :math:`[\\tilde x_{i\\eta}, 1]`; :math:`S` the mean outer product of the residuals.

    Parameters
    ----------
    observations : array_like
        Shape (n, d), consecutive rows η apart.
    eta : float
        The lag.
    transitions : {'all', 'disjoint'}, keyword-only
        Use every consecutive transition, or the disjoint pairs of the contrastive task.

    Returns
    -------
    GaussianKernel
        The fitted kernel.

    Examples
    --------
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> k = fit_gaussian_ar(ou.simulate(20000, 0.5, seed=0), 0.5)
    >>> bool(abs(float(k.M[0, 0]) - np.exp(-0.5)) < 0.02)
    True
    """
    check_eta(eta)
    a, b = _transitions(observations, transitions)
    X = np.hstack([a, np.ones((a.shape[0], 1))])
    coef, *_ = np.linalg.lstsq(X, b, rcond=None)
    d = a.shape[1]
    M = np.asarray(coef[:d].T, dtype=np.float64)
    c = np.asarray(coef[d], dtype=np.float64)
    r = b - X @ coef
    S = np.asarray(r.T @ r / r.shape[0], dtype=np.float64)
    return GaussianKernel(M, c, S)


@dataclass(frozen=True, repr=False)
class OUMLEResult(RichDisplay):
    """The OU maximum-likelihood fit.

    Attributes
    ----------
    process : OrnsteinUhlenbeck
        The fitted process (Â).
    kernel : GaussianKernel
        Its η-transition kernel.
    log_likelihood : float
        Maximised conditional log-likelihood.
    n_transitions : int
    converged : bool
        The optimiser converged **inside** its search region.  False when it did not, or (1-D)
        when the maximiser sits at an edge of the interval
        :math:`\\rho\\eta \\in [10^{-6}, 50]`: the likelihood then increases towards the edge and
        the OU family has no maximiser for these data (``message`` says which edge).
    message : str
        Why ``converged`` is False (empty otherwise).
    """

    process: OrnsteinUhlenbeck
    kernel: GaussianKernel
    log_likelihood: float
    n_transitions: int
    converged: bool
    message: str = ""


def _ou_negloglik(A: FloatArray, a: FloatArray, b: FloatArray, eta: float) -> float:
    try:
        k = OrnsteinUhlenbeck(A).kernel(eta)
    except ValueError:
        return math.inf
    return -float(np.sum(k.logpdf(a, b)))


def fit_ou_mle(observations: npt.ArrayLike, eta: float, *,
               transitions: Transitions = "all") -> OUMLEResult:
    """Exact conditional MLE of the OU drift matrix A from observations η apart.

    In 1-D a bounded scalar search over :math:`\\log\\rho`; in d-D, L-BFGS over a
    log-Cholesky parametrisation :math:`A = LL^\\top`, started from the moment estimator
    :math:`-\\log(\\hat M)/\\eta` of the AR fit (symmetrised, eigenvalues floored) — a
    data-based start, as is standard for MLE.

    Parameters
    ----------
    observations : array_like
        Shape (n, d), consecutive rows η apart.
    eta : float
        The lag.
    transitions : {'all', 'disjoint'}, keyword-only
        Use every consecutive transition, or the disjoint pairs of the contrastive task.

    Returns
    -------
    OUMLEResult
        The fitted drift and the optimiser's outcome.

    Examples
    --------
    >>> ou = OrnsteinUhlenbeck(2.0)
    >>> fit = fit_ou_mle(ou.simulate(20000, 0.2, seed=0), 0.2)
    >>> abs(fit.process.rho - 2.0) < 0.1
    True
    """
    e = check_eta(eta)
    a, b = _transitions(observations, transitions)
    d = a.shape[1]
    message = ""
    if d == 1:
        lo, hi = math.log(_RHO_ETA_RANGE[0] / e), math.log(_RHO_ETA_RANGE[1] / e)
        res = minimize_scalar(lambda lr: _ou_negloglik(np.array([[math.exp(lr)]]), a, b, e),
                              bounds=(lo, hi), method="bounded", options={"xatol": 1e-10})
        A = np.array([[math.exp(float(res.x))]])
        converged = bool(res.success)
        if not converged:
            message = f"the bounded scalar search did not converge: {res.message}"
        elif min(float(res.x) - lo, hi - float(res.x)) < _EDGE_TOL:
            converged = False
            message = (
                "the likelihood is maximised at the edge of the search interval rho * eta in "
                f"[{_RHO_ETA_RANGE[0]:g}, {_RHO_ETA_RANGE[1]:g}]: "
                + ("the observations look independent at lag eta (no detectable dependence)"
                   if hi - float(res.x) < _EDGE_TOL else
                   "the observations look like a random walk (no detectable mean reversion)")
                + "; the OU family has no maximiser for these data, and the returned rho is "
                "the interval's end, not an estimate")
    else:
        ar = fit_gaussian_ar(observations, e, transitions=transitions)
        Ms = (ar.M + ar.M.T) / 2
        lam, U = np.linalg.eigh(Ms)
        lam = np.clip(lam, 1e-3, 1 - 1e-6)
        A0 = (U * (-np.log(lam) / e)) @ U.T
        L0 = np.linalg.cholesky(A0)
        di = np.diag_indices(d)
        L0[di] = np.log(L0[di])
        tri = np.tril_indices(d)

        def unpack(v: FloatArray) -> FloatArray:
            L = np.zeros((d, d))
            L[tri] = v
            L[di] = np.exp(L[di])
            return np.asarray(L @ L.T, dtype=float)

        res = minimize(lambda v: _ou_negloglik(unpack(v), a, b, e), L0[tri], method="L-BFGS-B",
                       options={"maxiter": 2000, "gtol": 1e-9})
        A = unpack(res.x)
        converged = bool(res.success)
        if not converged:
            message = f"L-BFGS-B did not converge: {res.message}"
    proc = OrnsteinUhlenbeck(A)
    kern = proc.kernel(e)
    return OUMLEResult(proc, kern, float(np.sum(kern.logpdf(a, b))), a.shape[0], converged,
                       message)
