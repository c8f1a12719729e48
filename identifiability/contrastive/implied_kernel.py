"""The kernel implied by a contrastive classifier: Lemma 1 and eq. 2.12 of paper 004 §2.1.

**Lemma 1.** The population minimiser of the ℓ2 loss (2.5) — and of the cross-entropy — is
:math:`h^* = p_*^\\eta/(p_*^\\eta + q)`.

**Eq. 2.12.** A classifier h implies :math:`p^\\eta(z,z') = h\\,q/(1-h)`, i.e.
:math:`\\log p^\\eta = \\log q + \\operatorname{logit} h`.

**Normalisation.** (2.12) integrates to one in z' exactly when h is the Bayes classifier of
*some* normalised kernel; a fitted h in general gives an unnormalised :math:`p^\\eta`, whereas
the KL of Theorem 2 needs a density (its proof uses :math:`\\int p^\\eta = 1`).  This module
therefore never normalises silently: :func:`kernel_from_classifier` returns eq. 2.12 as printed
by default (``normalize="none"``), and normalises per z only on request
(``normalize="per_z"``, numerically) — or use the parametric family of
:mod:`identifiability.contrastive.fit` (:math:`h_\\theta = p_\\theta/(p_\\theta + q)`,
normalised by construction).

**Support.** Eq. 2.4 asks :math:`p_*/q \\in [1/c_q, c_q]`; at the very least q must be positive
wherever :math:`p_*` has mass, otherwise :math:`h^* = 1` there and (2.12) is 0/0.  Such inputs
raise ``ValueError``.

References
----------
004, §2.1.1.3 (Lemma 1, eqs. 2.10–2.11), §2.1.1.4.2 (eq. 2.12),
eq. 2.4 (support of q).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from scipy import integrate
from scipy.special import logit

from identifiability.contrastive.kernels import (
    ConditionalDensity,
    FloatArray,
    GaussianKernel,
    _check_density,
    gauss_hermite_rule,
)
from seprank.core import check_array, check_callable, check_choice
from seprank.core.display import RichDisplay

__all__ = [
    "ZERO_DENSITY_MESSAGE",
    "ImpliedKernel",
    "bayes_classifier",
    "kernel_from_classifier",
    "kernel_from_logit",
]

ZERO_DENSITY_MESSAGE = (
    "the contrast q has zero density at {where} where p_* (the positive pairs) has mass; "
    "Lemma 1 then gives h* = 1 and eq. 2.12 is 0/0 there. Choose a q whose support covers "
    "that of the transition kernel (eq. 2.4 even asks p_*/q to be bounded), e.g. q = pi or "
    "a Gaussian q(.|z) = N(z, sigma^2 I)."
)


def bayes_classifier(p_star: npt.ArrayLike, q: npt.ArrayLike) -> FloatArray:
    """Lemma 1: :math:`h^* = p_*/(p_* + q)` from density values (arrays broadcast).

    Where both densities vanish the task never samples the point and h* is set to 0 (which
    makes eq. 2.12 return :math:`p = 0`, the right value).  Where q = 0 < p_*, raises.

    Parameters
    ----------
    p_star : array_like
        Values of the true kernel :math:`p_*`.
    q : array_like
        Values of the contrast q at the same points.

    Returns
    -------
    numpy.ndarray
        :math:`h^*`, broadcast.

    Examples
    --------
    >>> bayes_classifier([0.2, 0.5], [0.2, 0.25])
    array([0.5       , 0.66666667])
    """
    p = check_array("p_star", p_star, ndim=None, min_size=0)
    qq = check_array("q", q, min_size=0)
    for name, arr in (("p_star", p), ("q", qq)):
        if np.any(arr < 0):
            raise ValueError(f"{name} must hold non-negative density values")
    if np.any((qq == 0) & (p > 0)):
        raise ValueError(ZERO_DENSITY_MESSAGE.format(where="some points"))
    tot = p + qq
    return np.asarray(np.divide(p, tot, out=np.zeros(np.broadcast(p, qq).shape),
                                where=tot > 0), dtype=float)


@dataclass(frozen=True, repr=False)
class ImpliedKernel(RichDisplay):
    """The kernel (2.12) implied by a classifier, :math:`\\log p^\\eta = \\log q + \\operatorname
    {logit} h`, optionally normalised per z.

    Attributes
    ----------
    logit : callable
        ``logit(z, z_prime)`` → :math:`\\log h - \\log(1-h)`, arrays of shape ``(..., d)``.
    contrast : ConditionalDensity
        q.
    normalize : {'none', 'per_z'}
        ``'none'``: :meth:`logpdf` is eq. 2.12 as printed (not a density in general);
        ``'per_z'``: :meth:`logpdf` subtracts :meth:`log_normalizer` (numerical).
    n_nodes : int
        Gauss–Hermite nodes per dimension for the normaliser (against a Gaussian q).
    """

    logit: Callable[[FloatArray, FloatArray], Any]
    contrast: ConditionalDensity
    normalize: Literal["none", "per_z"] = "none"
    n_nodes: int = 64

    def logpdf_unnormalized(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray:
        """:math:`\\log q(z'|z) + \\operatorname{logit} h(z,z')` (eq. 2.12 in log form).

        Parameters
        ----------
        z, z_prime : array_like
            Points of shape ``(..., d)``.

        Returns
        -------
        numpy.ndarray
            The log of eq. 2.12.
        """
        lq = np.asarray(self.contrast.logpdf(z, z_prime), dtype=float)
        lg = np.asarray(self.logit(np.asarray(z, dtype=float), np.asarray(z_prime, dtype=float)),
                        dtype=float)
        if np.any(np.isposinf(lg) & np.isfinite(lq)):
            raise ValueError("h = 1 where q > 0: eq. 2.12 gives an infinite density there")
        if np.any(np.isneginf(lq) & ~np.isneginf(lg)):
            raise ValueError(ZERO_DENSITY_MESSAGE.format(where="a query point"))
        return np.asarray(lq + lg, dtype=float)

    def log_normalizer(self, z: npt.ArrayLike, *, method: Literal["gauss_hermite", "quad"]
                       = "gauss_hermite") -> FloatArray:
        """:math:`\\log\\int p^\\eta(z,z')dz' = \\log\\mathbb E_{z'\\sim q(\\cdot|z)}
        e^{\\operatorname{logit} h(z,z')}` for each row of ``z``.

        ``'gauss_hermite'`` integrates against a Gaussian q (a :class:`GaussianKernel`) with
        ``n_nodes`` nodes per dimension — accurate when :math:`e^{\\operatorname{logit}}` is
        smooth on the scale of q; ``'quad'`` (1-D only) integrates the unnormalised density
        adaptively with scipy and is robust to a peaked ratio.  Exact at the Bayes
        classifier (the value is 0).

        Parameters
        ----------
        z : array_like
            Points of shape ``(n, d)``.
        method : {'gauss_hermite', 'quad'}, keyword-only
            The integration rule (default ``'gauss_hermite'``).

        Returns
        -------
        numpy.ndarray
            The log-normaliser per row.
        """
        zz = np.atleast_2d(np.asarray(z, dtype=float))
        d = zz.shape[1]
        out = np.empty(zz.shape[0])
        if method == "quad":
            if d != 1:
                raise NotImplementedError("method='quad' is 1-D only; use 'gauss_hermite'")
            for i, zi in enumerate(zz):
                def f(t: float, zi: FloatArray = zi) -> float:
                    return float(np.exp(self.logpdf_unnormalized(zi[None, :],
                                                                 np.array([[t]]))[0]))
                centre = float(zi[0])
                pieces = [integrate.quad(f, lo, hi, limit=400)[0] for lo, hi in
                          ((-np.inf, centre - 10), (centre - 10, centre + 10),
                           (centre + 10, np.inf))]
                out[i] = math.log(sum(pieces))
            return out
        if not isinstance(self.contrast, GaussianKernel):
            raise NotImplementedError(
                "Gauss–Hermite normalisation needs a Gaussian q (GaussianKernel); use "
                "method='quad' in 1-D")
        q = self.contrast
        for i, zi in enumerate(zz):
            nodes, w = gauss_hermite_rule(q.mean(zi), q.S, n_nodes=self.n_nodes)
            lg = np.asarray(self.logit(np.broadcast_to(zi, nodes.shape), nodes), dtype=float)
            mx = float(np.max(lg))
            out[i] = mx + math.log(float(w @ np.exp(lg - mx)))
        return out

    def logpdf(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray:
        """Eq. 2.12 (``normalize='none'``) or its per-z normalisation (``'per_z'``).

        Parameters
        ----------
        z, z_prime : array_like
            Points of shape ``(..., d)``.

        Returns
        -------
        numpy.ndarray
            :math:`\\log p(z'|z)`.
        """
        raw = self.logpdf_unnormalized(z, z_prime)
        if self.normalize == "none":
            return raw
        zz = np.asarray(z, dtype=float)
        flat = np.broadcast_to(zz, np.broadcast_shapes(zz.shape, np.shape(z_prime)))
        flat2 = flat.reshape(-1, flat.shape[-1])
        uniq, inv = np.unique(flat2, axis=0, return_inverse=True)
        lz = self.log_normalizer(uniq)[np.ravel(inv)].reshape(raw.shape)
        return np.asarray(raw - lz, dtype=float)


def kernel_from_logit(logit_fn: Callable[[FloatArray, FloatArray], Any],
                      contrast: ConditionalDensity, *,
                      normalize: Literal["none", "per_z"] = "none") -> ImpliedKernel:
    """Eq. 2.12 from a logit function (numerically safer than from h when h is near 1).

    Parameters
    ----------
    logit_fn : callable
        ``logit_fn(z, z_prime)`` -> the classifier's logit.
    contrast : ConditionalDensity
        q.
    normalize : {'none', 'per_z'}, keyword-only
        Normalise per z (default ``'none'``: eq. 2.12 as printed).

    Returns
    -------
    ImpliedKernel
        The implied kernel.
    """
    check_callable("logit_fn", logit_fn, "a function logit(z, z_prime)")
    _check_density("contrast", contrast, sample=False)
    check_choice("normalize", normalize, ("none", "per_z"))
    return ImpliedKernel(logit_fn, contrast, normalize)


def kernel_from_classifier(h: Any, q: Any, *, normalize: Literal["none", "per_z", "rows"]
                           = "none") -> Any:
    """The transition kernel implied by a classifier, eq. 2.12: :math:`p = h\\,q/(1-h)`.

    Two forms:

    * **arrays** — ``h`` holds probabilities and ``q`` the contrast densities at the same
      points (broadcast); returns the array :math:`hq/(1-h)`.  ``normalize='rows'``
      divides by the sum over the last axis (a finite-state kernel ``(n_states, n_states)``);
      the default ``'none'`` returns (2.12) as printed.
    * **a callable** ``h(z, z_prime)`` and a :class:`~identifiability.contrastive.kernels.
      ConditionalDensity` q — returns an :class:`ImpliedKernel` (``normalize`` 'none' or
      'per_z').

    Parameters
    ----------
    h : array_like or callable
        Classifier probabilities, or ``h(z, z_prime)``.
    q : array_like or ConditionalDensity
        Contrast densities at the same points, or the contrast.
    normalize : {'none', 'per_z', 'rows'}, keyword-only
        Normalisation (see above); default ``'none'``.

    Returns
    -------
    numpy.ndarray or ImpliedKernel
        The kernel values, or the implied kernel.

    Raises
    ------
    ValueError
        h outside [0, 1]; h = 1 where q > 0 (infinite density); q = 0 where h > 0 (q does
        not cover the mass the classifier — and p_* — puts there).

    Examples
    --------
    Lemma 1 then (2.12) gives back p_* exactly:

    >>> P = np.array([[0.7, 0.3], [0.4, 0.6]]); q = np.array([0.5, 0.5])
    >>> h = bayes_classifier(P, q)
    >>> np.allclose(kernel_from_classifier(h, q), P)
    True
    """
    if callable(h):
        if normalize == "rows":
            raise ValueError("normalize='rows' is for finite-state arrays")

        def lg(z: FloatArray, zp: FloatArray) -> FloatArray:
            hv = np.asarray(h(z, zp), dtype=float)
            if np.any((hv < 0) | (hv > 1) | ~np.isfinite(hv)):
                raise ValueError("the classifier must return probabilities in [0, 1]")
            with np.errstate(divide="ignore"):
                return np.asarray(logit(hv), dtype=float)

        return kernel_from_logit(lg, q, normalize=normalize)
    check_choice("normalize", normalize, ("none", "per_z", "rows"))
    hv = check_array("h", h, min_size=0)
    qv = check_array("q", q, min_size=0)
    if np.any((hv < 0) | (hv > 1)):
        raise ValueError("h must hold probabilities in [0, 1]")
    if np.any(qv < 0):
        raise ValueError("q must hold finite non-negative densities")
    hb, qb = np.broadcast_arrays(hv, qv)
    if np.any((qb == 0) & (hb > 0)):
        raise ValueError(ZERO_DENSITY_MESSAGE.format(where="some points"))
    if np.any((hb == 1) & (qb > 0)):
        raise ValueError("h = 1 where q > 0: eq. 2.12 gives an infinite density there")
    p = np.divide(hb * qb, 1 - hb, out=np.zeros(hb.shape), where=hb < 1)
    if normalize == "none":
        return p
    if normalize == "rows":
        s = p.sum(axis=-1, keepdims=True)
        if np.any(s <= 0):
            raise ValueError("a row of the implied kernel is identically zero; cannot normalise")
        return p / s
    raise ValueError("for arrays, normalize must be 'none' or 'rows'")

