"""Error metrics of an estimated transition kernel (004 §2.1, Theorems 2 and 3).

For a stationary law π, the true kernel :math:`p_*` (Gaussian, e.g. an OU η-kernel), an
estimate :math:`\\hat p` and the contrast q:

* :func:`expected_kl` — :math:`\\mathbb E_{z\\sim\\pi}\\mathrm{KL}(p_*(\\cdot|z)\\,\\|\\,\\hat p
  (\\cdot|z))` (the left side of Theorem 2, eq. 2.14);
* :func:`expected_abs_error` — :math:`\\mathbb E_{z\\sim\\pi, z'\\sim p_*(\\cdot|z)}
  |\\hat p(z,z') - p_*(z,z')|` (the left side of Theorem 3, eq. 2.15: an expectation of the
  absolute density difference under :math:`p_*`, *not* an L1 distance);
* :func:`excess_risk` — the population risk of a classifier h minus that of
  :math:`h^* = p_*/(p_*+q)` on the task distribution :math:`z\\sim\\pi`,
  :math:`z'\\sim\\tfrac12(p_*(\\cdot|z) + q(\\cdot|z))`; for the ℓ2 loss (2.5) it is
  :math:`\\mathbb E(h - h^*)^2` (eq. 2.10), which Theorem 2 calls :math:`2\\epsilon_{tr}`.

Expectations over Gaussians use tensor Gauss–Hermite rules (deterministic); a Gaussian
estimate gets the closed-form KL.  Finite-state analogues are in
:mod:`identifiability.contrastive.bounds`.

References
----------
004, Theorem 2 (eq. 2.14), Theorem 3 (eq. 2.15), eqs. 2.10, 2.27.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt
from scipy.special import expit

from identifiability.contrastive.implied_kernel import ZERO_DENSITY_MESSAGE
from identifiability.contrastive.kernels import (
    ConditionalDensity,
    FloatArray,
    GaussianKernel,
    _check_density,
    _check_kernel,
    gauss_hermite_rule,
)
from seprank.core import validated

__all__ = [
    "excess_risk",
    "expected_abs_error",
    "expected_kl",
    "population_risk",
    "theorem3_factor",
]


class _HasLogpdf(Protocol):
    def logpdf(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray: ...


def _check_estimate(name: str, value: Any) -> Any:
    return _check_density(name, value, sample=False)


def _check_stationary(stationary: GaussianKernel) -> None:
    if stationary.is_conditional:
        raise ValueError("stationary must be a z-independent law (GaussianKernel with M = 0)")


def _pair_nodes(stationary: GaussianKernel, inner: GaussianKernel, n_nodes: int
                ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Nodes (z, z') and weights for E_{z~π} E_{z'~inner(.|z)}."""
    _check_stationary(stationary)
    zs, wz = gauss_hermite_rule(stationary.c, stationary.S, n_nodes=n_nodes)
    zp_std, w1 = gauss_hermite_rule(np.zeros(inner.dim), inner.S, n_nodes=n_nodes)
    means = inner.mean(zs)                                     # (nz, d)
    Z = np.repeat(zs, zp_std.shape[0], axis=0)
    ZP = (means[:, None, :] + zp_std[None, :, :]).reshape(-1, inner.dim)
    W = (wz[:, None] * w1[None, :]).ravel()
    return Z, ZP, W


@validated(p_star=_check_kernel, p_hat=_check_estimate, stationary=_check_kernel, n_nodes="count")
def expected_kl(p_star: GaussianKernel, p_hat: Any, stationary: GaussianKernel, *,
                n_nodes: int = 40) -> float:
    """:math:`\\mathbb E_{z\\sim\\pi}\\mathrm{KL}(p_*(\\cdot|z)\\|\\hat p(\\cdot|z))`.

    Closed form when ``p_hat`` is a :class:`GaussianKernel`; otherwise Gauss–Hermite over
    :math:`z\\sim\\pi`, :math:`z'\\sim p_*(\\cdot|z)` of :math:`\\log p_* - \\log\\hat p`
    (``p_hat.logpdf`` must be a normalised log-density — e.g. an
    :class:`~identifiability.contrastive.task.ImpliedKernel` with ``normalize='per_z'``).

    Parameters
    ----------
    p_star : GaussianKernel
        The true kernel.
    p_hat : GaussianKernel or object with ``logpdf``
        The estimate.
    stationary : GaussianKernel
        The stationary law π.
    n_nodes : int, keyword-only
        Gauss–Hermite nodes per dimension (default 40).

    Returns
    -------
    float
        The expected KL.

    Examples
    --------
    >>> from identifiability.contrastive.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> expected_kl(ou.kernel(0.5), ou.kernel(0.5), ou.stationary)
    0.0
    """
    if isinstance(p_hat, GaussianKernel):
        _check_stationary(stationary)
        return max(p_hat.expected_kl_from(p_star, stationary.c, stationary.S), 0.0)
    if getattr(p_hat, "normalize", "per_z") == "none":
        raise ValueError("the KL needs a normalised estimate; eq. 2.12 as printed is not "
                         "normalised — pass kernel_from_classifier(..., normalize='per_z')")
    Z, ZP, W = _pair_nodes(stationary, p_star, n_nodes)
    diff = p_star.logpdf(Z, ZP) - np.asarray(p_hat.logpdf(Z, ZP), dtype=float)
    return float(W @ diff)


@validated(p_star=_check_kernel, p_hat=_check_estimate, stationary=_check_kernel, n_nodes="count")
def expected_abs_error(p_star: GaussianKernel, p_hat: _HasLogpdf, stationary: GaussianKernel,
                       *, n_nodes: int = 60) -> float:
    """:math:`\\mathbb E_{z\\sim\\pi, z'\\sim p_*(\\cdot|z)}|\\hat p(z,z') - p_*(z,z')|` (eq. 2.15).

    Gauss–Hermite with ``n_nodes`` per dimension (the integrand has kinks where
    :math:`\\hat p = p_*`, so convergence is algebraic; 60 nodes give ~1e-3 relative accuracy
    on OU examples).

    Parameters
    ----------
    p_star : GaussianKernel
        The true kernel.
    p_hat : object with ``logpdf``
        The estimate.
    stationary : GaussianKernel
        The stationary law π.
    n_nodes : int, keyword-only
        Gauss–Hermite nodes per dimension (default 60).

    Returns
    -------
    float
        The expected absolute error.

    Examples
    --------
    >>> from identifiability.contrastive.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> expected_abs_error(ou.kernel(0.5), ou.kernel(0.5), ou.stationary)
    0.0
    """
    Z, ZP, W = _pair_nodes(stationary, p_star, n_nodes)
    return float(W @ np.abs(np.exp(np.asarray(p_hat.logpdf(Z, ZP), dtype=float))
                            - p_star.pdf(Z, ZP)))


@validated(p_star=_check_kernel, logit_fn="callable", contrast=_check_density,
           stationary=_check_kernel, n_nodes="count")
def excess_risk(p_star: GaussianKernel, logit_fn: Callable[[FloatArray, FloatArray], Any],
                contrast: ConditionalDensity, stationary: GaussianKernel, *,
                loss: Literal["l2", "cross_entropy"] = "l2", n_nodes: int = 40) -> float:
    """Population excess risk of the classifier :math:`h = \\sigma(\\text{logit})` over
    :math:`h^*` on the task distribution.

    ``loss='l2'``: :math:`\\mathbb E(h-h^*)^2` (eq. 2.10; Theorem 2's :math:`2\\epsilon_{tr}`).
    ``loss='cross_entropy'``: :math:`\\mathbb E\\,\\mathrm{KL}(\\mathrm{Bern}(h^*)\\|
    \\mathrm{Bern}(h))`.  The expectation is :math:`\\tfrac12\\mathbb E_{\\pi,p_*} +
    \\tfrac12\\mathbb E_{\\pi,q}`, each by Gauss–Hermite (q must be a :class:`GaussianKernel`).

    Parameters
    ----------
    p_star : GaussianKernel
        The true kernel.
    logit_fn : callable
        The classifier's logit ``logit_fn(z, z_prime)``.
    contrast : ConditionalDensity
        q (a GaussianKernel).
    stationary : GaussianKernel
        The stationary law π.
    loss : {'l2', 'cross_entropy'}, keyword-only
        Default ``'l2'``.
    n_nodes : int, keyword-only
        Gauss–Hermite nodes per dimension.

    Returns
    -------
    float
        The excess risk.

    Examples
    --------
    >>> from identifiability.contrastive.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0); pk = ou.kernel(0.5); q = ou.stationary
    >>> bayes_logit = lambda z, zp: pk.logpdf(z, zp) - q.logpdf(z, zp)
    >>> excess_risk(pk, bayes_logit, q, ou.stationary)
    0.0
    """
    if not isinstance(contrast, GaussianKernel):
        raise NotImplementedError("excess_risk integrates over q by Gauss–Hermite: pass a "
                                  "Gaussian contrast (GaussianKernel)")
    total = 0.0
    for inner in (p_star, contrast):
        Z, ZP, W = _pair_nodes(stationary, inner, n_nodes)
        lq = contrast.logpdf(Z, ZP)
        if np.any(~np.isfinite(lq)):
            raise ValueError(ZERO_DENSITY_MESSAGE.format(where="a quadrature node"))
        s_star = p_star.logpdf(Z, ZP) - lq
        s = np.asarray(logit_fn(Z, ZP), dtype=float)
        if loss == "l2":
            vals = (expit(s) - expit(s_star)) ** 2
        elif loss == "cross_entropy":
            hs = expit(s_star)
            # KL(Bern(h*) || Bern(h)) with logits: h*(s*-s) + softplus(s) - softplus(s*)
            vals = hs * (s_star - s) + np.logaddexp(0, s) - np.logaddexp(0, s_star)
        else:
            raise ValueError("loss must be 'l2' or 'cross_entropy'")
        total += 0.5 * float(W @ vals)
    return max(total, 0.0)


@validated(logit_fn="callable", p_star=_check_kernel, contrast=_check_kernel,
           stationary=_check_kernel, n_nodes="count")
def population_risk(logit_fn: Callable[[FloatArray, FloatArray], Any], p_star: GaussianKernel,
                    contrast: GaussianKernel, stationary: GaussianKernel, *,
                    loss: Literal["l2", "cross_entropy"] = "cross_entropy",
                    n_nodes: int = 40) -> float:
    """The population risk :math:`R(h) = \\mathbb E\\,\\ell(h)` of
    :math:`h = \\sigma(\\text{logit})` on the task distribution (z ~ π, label 1/2,
    z' from :math:`p_*` or q), by Gauss–Hermite.

    ``loss='l2'`` is eq. 2.5–2.6; ``'cross_entropy'`` the log loss.

    Parameters
    ----------
    logit_fn : callable
        The classifier's logit ``logit_fn(z, z_prime)``.
    p_star : GaussianKernel
        The true kernel.
    contrast : GaussianKernel
        q.
    stationary : GaussianKernel
        The stationary law π.
    loss : {'l2', 'cross_entropy'}, keyword-only
        Default ``'cross_entropy'``.
    n_nodes : int, keyword-only
        Gauss–Hermite nodes per dimension.

    Returns
    -------
    float
        R(h).

    Examples
    --------
    >>> from identifiability.contrastive.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> r = population_risk(lambda z, zp: 0.0 * zp[..., 0], ou.kernel(1.0), ou.stationary,
    ...                     ou.stationary)
    >>> bool(np.isclose(r, np.log(2)))        # h = 1/2 everywhere
    True
    """
    total = 0.0
    for inner, y in ((p_star, 1.0), (contrast, 0.0)):
        Z, ZP, W = _pair_nodes(stationary, inner, n_nodes)
        s = np.broadcast_to(np.asarray(logit_fn(Z, ZP), dtype=float), W.shape)
        if loss == "cross_entropy":
            vals = np.logaddexp(0.0, s) - y * s
        elif loss == "l2":
            vals = (expit(s) - y) ** 2
        else:
            raise ValueError("loss must be 'l2' or 'cross_entropy'")
        total += 0.5 * float(W @ vals)
    return total


@validated(p_star=_check_kernel, p_hat=_check_estimate, contrast=_check_kernel,
           stationary=_check_kernel, n_nodes="count")
def theorem3_factor(p_star: GaussianKernel, p_hat: _HasLogpdf, contrast: GaussianKernel,
                    stationary: GaussianKernel, *, n_nodes: int = 60) -> float:
    """:math:`\\mathbb E_{z\\sim\\pi,z'\\sim p_*}(\\max\\{\\hat p, p_*\\} + q)^4/q^2` (eq. 2.32's
    second factor) for an estimate :math:`\\hat p`, by Gauss–Hermite in log space.

    For :math:`\\hat p = p_*` and Gaussian kernels the exact value (or +inf) is
    :func:`identifiability.contrastive.bounds.theorem3_factor_gaussian`; quadrature cannot
    detect divergence, so use that function to decide finiteness first.

    Parameters
    ----------
    p_star : GaussianKernel
        The true kernel.
    p_hat : object with ``logpdf``
        The estimate.
    contrast : GaussianKernel
        q.
    stationary : GaussianKernel
        The stationary law π.
    n_nodes : int, keyword-only
        Gauss–Hermite nodes per dimension (default 60).

    Returns
    -------
    float
        The factor.

    Examples
    --------
    >>> from identifiability.contrastive.processes import OrnsteinUhlenbeck
    >>> from identifiability.contrastive.bounds import theorem3_factor_gaussian
    >>> ou = OrnsteinUhlenbeck(1.0); pk = ou.kernel(0.1); q = GaussianKernel.local(1, 0.1)
    >>> bool(np.isclose(theorem3_factor(pk, pk, q, ou.stationary),
    ...                 theorem3_factor_gaussian(pk, q, ou.stationary), rtol=1e-6))
    True
    """
    Z, ZP, W = _pair_nodes(stationary, p_star, n_nodes)
    lq = contrast.logpdf(Z, ZP)
    lmax = np.maximum(p_star.logpdf(Z, ZP), np.asarray(p_hat.logpdf(Z, ZP), dtype=float))
    log_terms = 4 * np.logaddexp(lmax, lq) - 2 * lq
    mx = float(np.max(log_terms))
    return float(np.exp(mx) * (W @ np.exp(log_terms - mx)))
