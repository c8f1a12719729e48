"""Estimators for the contrastive task: a Gaussian-kernel family and quadratic logistic regression.

Both minimise an empirical risk over the pairs of a :class:`~identifiability.contrastive.task.
ContrastiveTask` with labels :math:`y \\in \\{0, 1\\}` and a classifier
:math:`h = \\sigma(s)`, :math:`\\sigma` the logistic function:

* ``loss="l2"`` — the thesis's loss (2.5), :math:`\\frac1m\\sum_i (h_i - y_i)^2`;
* ``loss="cross_entropy"`` — :math:`\\frac1m\\sum_i \\operatorname{softplus}(s_i) - y_i s_i`.

Both have the same population minimiser :math:`h^* = p_*/(p_* + q)` (Lemma 1).

Models
------
:func:`fit_gaussian_kernel`
    The parametric family :math:`h_\\theta = p_\\theta/(p_\\theta + q)`,
    :math:`p_\\theta(z'\\mid z) = \\mathcal N(Mz + c, S)`, i.e. the logit
    :math:`s = \\log p_\\theta - \\log q`.  The implied kernel (2.12) *is* :math:`p_\\theta`, a
    normalised density by construction.  Well specified for an OU process with a Gaussian q.
:func:`fit_quadratic_logistic`
    Logistic regression on all monomials of degree ≤ 2 of :math:`u = (z, z')`:
    :math:`s = \\alpha + \\beta^\\top u + u^\\top\\Gamma u`.  For Gaussian :math:`p_*` and
    Gaussian q, :math:`\\log p_* - \\log q` is such a quadratic, so the class contains
    :math:`h^*`.  The implied kernel :math:`q\\,e^{s}` is Gaussian in z' when its quadratic
    coefficient is negative definite; :meth:`ContrastiveFit.kernel` returns its per-z
    normalisation (exact, closed form) and :meth:`ContrastiveFit.log_normalizer` how far
    eq. 2.12 itself is from integrating to one.

Optimisation is deterministic (L-BFGS from a fixed, data-free initial point); the optional
``seed`` only draws *extra* random restarts (the algorithm's own stream, never the data's).

References
----------
004, §2.1.1.2 (loss 2.5), Lemma 1, eq. 2.12; reading notes
``docs/notes/seed_thesis_ch2.md`` §B.3 (the well-specified classifier) and §D.15 (normalisation).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize
from scipy.special import expit

from identifiability.contrastive.kernels import (
    ConditionalDensity,
    FloatArray,
    GaussianKernel,
    _check_density,
    gaussian_exponential_integral,
)
from identifiability.contrastive.task import ContrastiveTask, ImpliedKernel, kernel_from_logit
from identifiability.errors import NotNormalisableError
from seprank.core import SeedLike, as_generator, check_instance, validated

__all__ = [
    "ContrastiveFit",
    "NotNormalisableError",
    "fit_gaussian_kernel",
]

Loss = Literal["cross_entropy", "l2"]


def _loss_and_dlogit(s: FloatArray, y: FloatArray, loss: Loss) -> tuple[float, FloatArray]:
    """Mean loss and its derivative with respect to each logit s_i (already divided by m)."""
    m = s.size
    h = expit(s)
    if loss == "cross_entropy":
        val = float(np.mean(np.logaddexp(0.0, s) - y * s))
        return val, (h - y) / m
    if loss == "l2":
        val = float(np.mean((h - y) ** 2))
        return val, 2 * (h - y) * h * (1 - h) / m
    raise ValueError(f"loss must be 'cross_entropy' or 'l2', got {loss!r}")


# ---------------------------------------------------------------------------------------------
# Gaussian-kernel family
# ---------------------------------------------------------------------------------------------
def _unpack(theta: FloatArray, d: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    M = theta[: d * d].reshape(d, d)
    c = theta[d * d: d * d + d]
    L = np.zeros((d, d))
    L[np.tril_indices(d)] = theta[d * d + d:]
    di = np.diag_indices(d)
    L[di] = np.exp(L[di])
    return M, c, L


def _pack(k: GaussianKernel) -> FloatArray:
    L = np.linalg.cholesky(k.S).copy()
    di = np.diag_indices(k.dim)
    L[di] = np.log(L[di])
    return np.concatenate([k.M.ravel(), k.c, L[np.tril_indices(k.dim)]])


def _gaussian_family_objective(theta: FloatArray, task: ContrastiveTask, log_q: FloatArray,
                               y: FloatArray, loss: Loss) -> tuple[float, FloatArray]:
    d = task.dim
    M, c, L = _unpack(theta, d)
    r = task.z_prime - task.z @ M.T - c                      # (m, d)
    u = np.linalg.solve(L, r.T).T                            # L^{-1} r
    w = np.linalg.solve(L.T, u.T).T                          # S^{-1} r
    logp = -0.5 * np.sum(u * u, axis=1) - np.sum(np.log(np.diag(L))) \
        - 0.5 * d * math.log(2 * math.pi)
    s = logp - log_q
    val, g = _loss_and_dlogit(s, y, loss)
    grad_c = g @ w
    grad_M = (g[:, None] * w).T @ task.z
    P = np.linalg.inv(L @ L.T)
    G = (w.T * g) @ w - g.sum() * P                          # sum_i g_i (w_i w_i^T - P)
    dL = G @ L
    dL = np.tril(dL)
    di = np.diag_indices(d)
    dL[di] = dL[di] * L[di]                                  # chain rule for log-diagonal
    grad = np.concatenate([grad_M.ravel(), grad_c, dL[np.tril_indices(d)]])
    return val, grad


@dataclass(frozen=True)
class _Optim:
    x: FloatArray
    fun: float
    converged: bool
    n_iter: int
    message: str


def _minimise(fun: Callable[[FloatArray], tuple[float, FloatArray]], x0: FloatArray,
              max_iter: int, gtol: float) -> _Optim:
    res = minimize(fun, x0, jac=True, method="L-BFGS-B",
                   options={"maxiter": max_iter, "gtol": gtol, "ftol": 1e-15, "maxcor": 30})
    return _Optim(np.asarray(res.x, dtype=float), float(res.fun), bool(res.success),
                  int(res.nit), str(res.message))


class ContrastiveFit:
    """A fitted contrastive classifier and the transition kernel it implies.

    Attributes
    ----------
    model : {'gaussian_kernel', 'quadratic_logistic'}
    loss : {'cross_entropy', 'l2'}
    contrast : ConditionalDensity
        The q used by the task.
    objective : float
        Final empirical risk.
    converged : bool
        Whether the optimiser reported convergence (``message`` says why not).
    logit_fn : callable
        ``logit_fn(z, z_prime)`` -> s(z, z') (used by :meth:`logit`).
    n_iter : int
        Optimiser iterations.
    message : str
        The optimiser's message.
    gaussian : GaussianKernel, optional
        The fitted kernel (``model='gaussian_kernel'``).
    quadratic : (float, numpy.ndarray, numpy.ndarray), optional
        (α, β, Γ) of the quadratic logit in u = (z, z') coordinates.
    """

    def __init__(self, *, model: str, loss: Loss, contrast: ConditionalDensity,
                 logit_fn: Callable[[FloatArray, FloatArray], FloatArray],
                 objective: float, converged: bool, n_iter: int, message: str,
                 gaussian: GaussianKernel | None = None,
                 quadratic: tuple[float, FloatArray, FloatArray] | None = None) -> None:
        self.model = model
        self.loss = loss
        self.contrast = contrast
        self._logit_fn = logit_fn
        self.objective = objective
        self.converged = converged
        self.n_iter = n_iter
        self.message = message
        self._gaussian = gaussian
        self.quadratic = quadratic  # (alpha, beta, Gamma) in u = (z, z') coordinates

    def __repr__(self) -> str:
        return (f"ContrastiveFit(model={self.model!r}, loss={self.loss!r}, "
                f"objective={self.objective:.6g}, converged={self.converged})")

    def logit(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray:
        """The fitted logit s(z, z') (points of shape ``(..., d)``).

        Parameters
        ----------
        z, z_prime : array_like
            Points of shape ``(..., d)``.

        Returns
        -------
        numpy.ndarray
            s(z, z').
        """
        return self._logit_fn(np.asarray(z, dtype=float), np.asarray(z_prime, dtype=float))

    def classifier(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray:
        """h(z, z') = σ(s(z, z')).

        Parameters
        ----------
        z, z_prime : array_like
            Points of shape ``(..., d)``.

        Returns
        -------
        numpy.ndarray
            h(z, z') in (0, 1).
        """
        return np.asarray(expit(self.logit(z, z_prime)), dtype=float)

    @property
    def raw_kernel(self) -> ImpliedKernel:
        """Eq. 2.12 as printed (not normalised for the quadratic-logistic model)."""
        return kernel_from_logit(self._logit_fn, self.contrast)

    @cached_property
    def kernel(self) -> GaussianKernel:
        """The estimated transition kernel as a normalised :class:`GaussianKernel`.

        For the Gaussian family this is :math:`p_\\theta`.  For quadratic logistic regression
        with a Gaussian q it is the per-z normalisation of :math:`q\\,e^s`: writing
        :math:`\\log q + s = -\\tfrac12 z'^\\top\\Lambda z' + z'^\\top(Kz + k) + (\\text{z only})`,
        the kernel is :math:`\\mathcal N(\\Lambda^{-1}(Kz+k), \\Lambda^{-1})`.

        Raises
        ------
        NotNormalisableError
            :math:`\\Lambda` is not positive definite (eq. 2.12 does not integrate in z').
        """
        if self._gaussian is not None:
            return self._gaussian
        Lam, K, k = self._zprime_quadratic()
        eig = np.linalg.eigvalsh(Lam)
        if eig[0] <= 0:
            raise NotNormalisableError(
                "the kernel implied by the fitted classifier, q·exp(logit), is not normalisable "
                f"in z' (its precision has eigenvalue {eig[0]:.3g} <= 0); eq. 2.12 defines no "
                "density here — use more data, the Gaussian-kernel family, or a closer q")
        S = np.linalg.inv(Lam)
        S = (S + S.T) / 2
        return GaussianKernel(S @ K, S @ k, S)

    def _zprime_quadratic(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        if self.quadratic is None or not isinstance(self.contrast, GaussianKernel):
            raise NotImplementedError("closed-form normalisation needs the quadratic-logistic "
                                      "model and a Gaussian q")
        q = self.contrast
        d = q.dim
        _, beta, Gam = self.quadratic
        Pq = q.precision
        Lam = Pq - 2 * Gam[d:, d:]
        K = Pq @ q.M + 2 * Gam[d:, :d]
        k = Pq @ q.c + beta[d:]
        return (Lam + Lam.T) / 2, K, k

    def log_normalizer(self, z: npt.ArrayLike) -> FloatArray:
        """:math:`\\log\\int q(z'|z)e^{s(z,z')}dz'` per row of z — zero iff eq. 2.12 is
        normalised at z (closed form for quadratic logistic + Gaussian q; 0 for the family).

        Parameters
        ----------
        z : array_like
            Points of shape ``(n, d)``.

        Returns
        -------
        numpy.ndarray
            The log-normaliser per row.
        """
        zz = np.atleast_2d(np.asarray(z, dtype=float))
        if self._gaussian is not None:
            return np.zeros(zz.shape[0])
        q = self.contrast
        if not isinstance(q, GaussianKernel) or self.quadratic is None:
            raise NotImplementedError("the closed-form normaliser needs the quadratic-logistic "
                                      "model and a Gaussian q")
        d = q.dim
        alpha, beta, Gam = self.quadratic
        Lam, K, k = self._zprime_quadratic()
        out = np.empty(zz.shape[0])
        for i, zi in enumerate(zz):
            mq = q.mean(zi)
            const = (alpha + beta[:d] @ zi + zi @ Gam[:d, :d] @ zi
                     - 0.5 * mq @ q.precision @ mq - q.log_norm_const)
            out[i] = gaussian_exponential_integral(Lam, K @ zi + k, const)
        return out


def _ou_family_objective(v: FloatArray, task: ContrastiveTask, log_q: FloatArray,
                         y: FloatArray, loss: Loss) -> float:
    from identifiability.contrastive.processes import OrnsteinUhlenbeck

    kern = OrnsteinUhlenbeck(_spd_from_logchol(v, task.dim)).kernel(task.eta)
    return _loss_and_dlogit(kern.logpdf(task.z, task.z_prime) - log_q, y, loss)[0]


def _spd_from_logchol(v: FloatArray, d: int) -> FloatArray:
    L = np.zeros((d, d))
    L[np.tril_indices(d)] = v
    di = np.diag_indices(d)
    L[di] = np.exp(L[di])
    return np.asarray(L @ L.T, dtype=float)


def check_task(name: str, value: object) -> ContrastiveTask:
    """``value`` if it is a :class:`ContrastiveTask` (TypeError naming ``name`` otherwise)."""
    return check_instance(name, value, ContrastiveTask, expected="a ContrastiveTask",
                          hint="build one with make_contrastive_task(observations, eta, q) or "
                               "contrastive_task_from_process(process, horizon, eta, q)")


@validated(task=check_task, contrast=_check_density, n_restarts="count0", seed="seed",
           max_iter="count", gtol="tolerance")
def fit_gaussian_kernel(task: ContrastiveTask, contrast: ConditionalDensity, *,
                        loss: Loss = "cross_entropy", family: Literal["affine", "ou"] = "affine",
                        init: GaussianKernel | None = None, n_restarts: int = 0,
                        seed: SeedLike = None, max_iter: int = 2000,
                        gtol: float = 1e-9) -> ContrastiveFit:
    """Fit :math:`h_\\theta = p_\\theta/(p_\\theta + q)` by minimising the empirical ℓ2 (2.5) or
    cross-entropy risk over a Gaussian kernel family.

    The logit :math:`\\log p_\\theta - \\log q` has no intercept: it is the Bayes logit of
    Lemma 1 for a class prior of 1/2, which both task constructions have (the thesis' fair
    coins for ``pairs="disjoint"``, exact balance for ``pairs="sliding"``).

    Parameters
    ----------
    task : ContrastiveTask
    contrast : ConditionalDensity
        The q that generated the negatives (its log-density enters the logit).
    loss : {'cross_entropy', 'l2'}
    family : {'affine', 'ou'}
        ``'affine'``: :math:`p_\\theta = \\mathcal N(Mz + c, S)` with free M, c and S
        (:math:`d^2 + d + d(d+1)/2` parameters, analytic gradient).  ``'ou'``: the OU
        η-kernels :math:`\\mathcal N(e^{-A\\eta}z, A^{-1}(I - e^{-2A\\eta}))`, A symmetric
        positive definite (:math:`d(d+1)/2` parameters, finite-difference gradient) — the
        model of the OU maximum-likelihood baseline.
    init : GaussianKernel, optional
        Starting point for ``'affine'``; default :math:`p_\\theta = q` when q is Gaussian
        (the classifier h = 1/2, a data-free start), else :math:`M = 0, c = 0, S = I`.
        (``'ou'`` starts at A = I.)
    n_restarts : int
        Extra random starting points (perturbations of the start) drawn from ``seed`` — the
        algorithm's stream, separate from the data's; the best objective is kept.
    max_iter, gtol : int, float
        L-BFGS-B limits; ``converged`` reports the optimiser's verdict.
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the extra starting points.

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
    >>> fit = fit_gaussian_kernel(task, ou.stationary)
    >>> bool(abs(float(fit.kernel.M[0, 0]) - np.exp(-0.5)) < 0.05)
    True
    """
    d = task.dim
    log_q = np.asarray(contrast.logpdf(task.z, task.z_prime), dtype=float)
    if not np.all(np.isfinite(log_q)):
        raise ValueError("the contrast has zero density at some pair of the task; "
                         "q must cover the support of the data")
    y = task.label.astype(float)
    rng = as_generator(seed)
    if family == "affine":
        if init is not None:
            start = init
        elif isinstance(contrast, GaussianKernel):
            start = contrast          # p_theta = q: h = 1/2 everywhere, a data-free start
        else:
            start = GaussianKernel(np.zeros((d, d)), np.zeros(d), np.eye(d))

        def fun(theta: FloatArray) -> tuple[float, FloatArray]:
            return _gaussian_family_objective(theta, task, log_q, y, loss)

        x0 = _pack(start)
        best = _minimise(fun, x0, max_iter, gtol)
        for _ in range(n_restarts):
            cand = _minimise(fun, x0 + 0.5 * rng.standard_normal(x0.shape), max_iter, gtol)
            if cand.fun < best.fun:
                best = cand
        M, c, L = _unpack(best.x, d)
        kern = GaussianKernel(M, c, L @ L.T)
    elif family == "ou":
        from identifiability.contrastive.processes import OrnsteinUhlenbeck

        v0 = np.zeros(d * (d + 1) // 2)
        starts = [v0] + [v0 + 0.5 * rng.standard_normal(v0.shape) for _ in range(n_restarts)]
        best_ou: _Optim | None = None
        for v in starts:
            res = minimize(_ou_family_objective, v, args=(task, log_q, y, loss),
                           method="L-BFGS-B", options={"maxiter": max_iter, "gtol": gtol,
                                                       "ftol": 1e-15})
            cand = _Optim(np.asarray(res.x, dtype=float), float(res.fun), bool(res.success),
                          int(res.nit), str(res.message))
            if best_ou is None or cand.fun < best_ou.fun:
                best_ou = cand
        assert best_ou is not None
        best = best_ou
        kern = OrnsteinUhlenbeck(_spd_from_logchol(best.x, d)).kernel(task.eta)
    else:
        raise ValueError("family must be 'affine' or 'ou'")

    def logit_fn(z: FloatArray, zp: FloatArray) -> FloatArray:
        return np.asarray(kern.logpdf(z, zp) - contrast.logpdf(z, zp), dtype=float)

    return ContrastiveFit(model="gaussian_kernel" if family == "affine" else "ou_kernel",
                          loss=loss, contrast=contrast, logit_fn=logit_fn,
                          objective=best.fun, converged=best.converged, n_iter=best.n_iter,
                          message=best.message, gaussian=kern)
