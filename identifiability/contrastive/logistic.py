"""Quadratic logistic regression for the contrastive task (004 §2.1).

Logistic regression of the labels on all monomials of degree ≤ 2 of :math:`u = (z, z')`:
:math:`s = \\alpha + \\beta^\\top u + u^\\top\\Gamma u`.  For a Gaussian :math:`p_*` and a
Gaussian q, :math:`\\log p_* - \\log q` is such a quadratic, so the class contains the Bayes
classifier of Lemma 1.  Its implied kernel (eq. 2.12), :math:`q\\,e^{s}`, is normalised only at
the population optimum; :class:`~identifiability.contrastive.fit.ContrastiveFit` returns its
exact per-z normalisation and the log normaliser.

References
----------
004, §2.1.1.2 (loss 2.5), Lemma 1, eq. 2.12; reading notes
``docs/notes/seed_thesis_ch2.md`` §B.3 (the well-specified classifier).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from identifiability.contrastive.fit import (
    ContrastiveFit,
    Loss,
    _loss_and_dlogit,
    _minimise,
    check_task,
)
from identifiability.contrastive.kernels import ConditionalDensity, FloatArray, _check_density
from identifiability.contrastive.task import ContrastiveTask
from seprank.core import check_array, validated

__all__ = ["fit_quadratic_logistic", "quadratic_features"]


# ---------------------------------------------------------------------------------------------
def quadratic_features(u: npt.ArrayLike) -> FloatArray:
    """All monomials of degree ≤ 2 of the rows of u (shape (m, D)): ``[1, u_i, u_i u_j (i<=j)]``.

    Parameters
    ----------
    u : array_like
        Rows of shape (m, D).

    Returns
    -------
    numpy.ndarray
        Shape (m, 1 + D + D(D+1)/2).

    Examples
    --------
    >>> quadratic_features([[2.0, 3.0]])
    array([[1., 2., 3., 4., 6., 9.]])
    """
    U = np.atleast_2d(check_array("u", u, ndim=(1, 2)))
    iu, ju = np.triu_indices(U.shape[1])
    return np.hstack([np.ones((U.shape[0], 1)), U, U[:, iu] * U[:, ju]])


def _quadratic_from_weights(w: FloatArray, D: int) -> tuple[float, FloatArray, FloatArray]:
    iu, ju = np.triu_indices(D)
    Gam = np.zeros((D, D))
    Gam[iu, ju] = w[1 + D:]
    Gam = (Gam + Gam.T) / 2          # off-diagonal monomial u_i u_j = 2 * (1/2) u_i u_j
    return float(w[0]), w[1:1 + D].copy(), Gam


@validated(task=check_task, contrast=_check_density, l2_penalty="nonnegative", max_iter="count",
           gtol="tolerance")
def fit_quadratic_logistic(task: ContrastiveTask, contrast: ConditionalDensity, *,
                           loss: Loss = "cross_entropy", l2_penalty: float = 0.0,
                           max_iter: int = 5000, gtol: float = 1e-10) -> ContrastiveFit:
    """Logistic regression of the labels on :func:`quadratic_features` of :math:`(z, z')`.

    Features are standardised internally (a fixed affine map of u, undone exactly
    afterwards); the start is w = 0 (h = 1/2).  ``l2_penalty`` adds
    :math:`\\lambda\\|w_{\\text{std}}\\|^2/2` (excluding the intercept).  The cross-entropy
    risk is convex (unique optimum); the ℓ2 risk is not.

    The free intercept absorbs any class prior; eq. 2.12 (``raw_kernel``) reads the logit with
    prior 1/2, as both task constructions have, and ``kernel`` normalises per z anyway.

    Parameters
    ----------
    task : ContrastiveTask
        The labelled pairs.
    contrast : ConditionalDensity
        q (for the implied kernel).
    loss : {'cross_entropy', 'l2'}, keyword-only
        The risk minimised (default ``'cross_entropy'``).
    l2_penalty : float, keyword-only
        λ (default 0).
    max_iter : int, keyword-only
        Optimiser iterations (default 5000).
    gtol : float, keyword-only
        Gradient tolerance (default 1e-10).

    Returns
    -------
    ContrastiveFit
        The fitted classifier and its kernel.

    Examples
    --------
    >>> from identifiability.contrastive.processes import OrnsteinUhlenbeck
    >>> from identifiability.contrastive.task import contrastive_task_from_process
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> task = contrastive_task_from_process(ou, horizon=2000, eta=0.5, contrast=ou.stationary,
    ...                                      seed=0)
    >>> fit = fit_quadratic_logistic(task, ou.stationary)
    >>> bool(abs(float(fit.kernel.M[0, 0]) - np.exp(-0.5)) < 0.05)
    True
    """
    U = np.hstack([task.z, task.z_prime])
    D = U.shape[1]
    mu = U.mean(axis=0)
    sd = U.std(axis=0)
    sd[sd == 0] = 1.0
    F = quadratic_features((U - mu) / sd)
    y = task.label.astype(float)

    def fun(w: FloatArray) -> tuple[float, FloatArray]:
        s = F @ w
        val, g = _loss_and_dlogit(s, y, loss)
        grad = F.T @ g
        if l2_penalty:
            val += 0.5 * l2_penalty * float(w[1:] @ w[1:])
            grad[1:] += l2_penalty * w[1:]
        return val, grad

    res = _minimise(fun, np.zeros(F.shape[1]), max_iter, gtol)
    a_s, b_s, G_s = _quadratic_from_weights(res.x, D)
    # s = a_s + b_s·v + v^T G_s v with v = Dg (u - mu), Dg = diag(1/sd):
    Dg = np.diag(1 / sd)
    Gam = Dg @ G_s @ Dg
    beta = Dg @ b_s - 2 * Gam @ mu
    alpha = a_s - float(b_s @ (Dg @ mu)) + float(mu @ Gam @ mu)

    def logit_fn(z: FloatArray, zp: FloatArray) -> FloatArray:
        zb, zpb = np.broadcast_arrays(np.asarray(z, dtype=float), np.asarray(zp, dtype=float))
        uu = np.concatenate([zb, zpb], axis=-1)
        return np.asarray(alpha + uu @ beta + np.einsum("...i,ij,...j->...", uu, Gam, uu),
                          dtype=float)

    return ContrastiveFit(model="quadratic_logistic", loss=loss, contrast=contrast,
                          logit_fn=logit_fn, objective=res.fun, converged=res.converged,
                          n_iter=res.n_iter, message=res.message,
                          quadratic=(alpha, beta, Gam))
