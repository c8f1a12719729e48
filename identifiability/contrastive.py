"""The contrastive task of seed 004 §2.1.1.2 and the kernel implied by a classifier (eq. 2.12).

**Task.** From observations
:math:`\\tilde x_0, \\tilde x_\\eta, \\dots, \\tilde x_{(2m-1)\\eta}` of a stationary process
(:math:`2m = \\lfloor T/\\eta \\rfloor`), form the *disjoint* pairs
:math:`(x_{2i\\eta}, x'_{2i\\eta})`, :math:`i = 0..m-1`, with :math:`x_{2i\\eta} =
\\tilde x_{2i\\eta}` and, independently with probability 1/2 each,

* :math:`x' = \\tilde x_{(2i+1)\\eta}`, label 1 (positive: a draw from :math:`p_*^\\eta(x,\\cdot)`);
* :math:`x' \\sim q`, label 0 (negative).

q may be global (:math:`q(z')`, as in §2.1.1.2) or conditional (:math:`q(z'\\mid z)`, as the
proof of Theorem 3 uses, eq. 2.34).  Lemma 1 holds for both.

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
:mod:`identifiability.contrastive_fit` (:math:`h_\\theta = p_\\theta/(p_\\theta + q)`,
normalised by construction).

**Support.** Eq. 2.4 asks :math:`p_*/q \\in [1/c_q, c_q]`; at the very least q must be positive
wherever :math:`p_*` has mass, otherwise :math:`h^* = 1` there and (2.12) is 0/0.  Such inputs
raise ``ValueError``.

References
----------
Seed ``004_6a230b9a9faf2198.txt``, §2.1.1.2 (task, eqs. 2.3–2.5), §2.1.1.3 (Lemma 1,
eqs. 2.10–2.11), §2.1.1.4.2 (eq. 2.12), §2.1.3.3 (eq. 2.34, the conditional q).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt
from scipy import integrate
from scipy.special import logit

from identifiability.kernels import (
    ConditionalDensity,
    FloatArray,
    GaussianKernel,
    SeedLike,
    as_generator,
    gauss_hermite_rule,
    split_seed,
)
from identifiability.processes import check_eta

__all__ = [
    "ContrastiveTask",
    "ImpliedKernel",
    "UniformBoxContrast",
    "bayes_classifier",
    "contrastive_task_from_process",
    "kernel_from_classifier",
    "kernel_from_logit",
    "make_contrastive_task",
]

ZERO_DENSITY_MESSAGE = (
    "the contrast q has zero density at {where} where p_* (the positive pairs) has mass; "
    "Lemma 1 then gives h* = 1 and eq. 2.12 is 0/0 there. Choose a q whose support covers "
    "that of the transition kernel (eq. 2.4 even asks p_*/q to be bounded), e.g. q = pi or "
    "a Gaussian q(.|z) = N(z, sigma^2 I)."
)


@dataclass(frozen=True)
class ContrastiveTask:
    """A labelled sample of the contrastive task.

    Attributes
    ----------
    z, z_prime : ndarray, shape (m, d)
        The pairs :math:`(x_{2i\\eta}, x'_{2i\\eta})`.
    label : ndarray of int8, shape (m,)
        1 for positives (:math:`x' = \\tilde x_{(2i+1)\\eta}`), 0 for negatives (:math:`x'\\sim q`).
    eta : float
        The lag η.
    """

    z: FloatArray
    z_prime: FloatArray
    label: npt.NDArray[np.int8]
    eta: float

    @property
    def n_pairs(self) -> int:
        return int(self.label.size)

    @property
    def n_positive(self) -> int:
        return int(self.label.sum())

    @property
    def dim(self) -> int:
        return int(self.z.shape[1])


class UniformBoxContrast:
    """A global uniform contrast on a box ``[low, high]^d`` — full support is *not* guaranteed
    (useful to show the zero-density error; positives outside the box are refused)."""

    def __init__(self, low: npt.ArrayLike, high: npt.ArrayLike) -> None:
        self.low = np.atleast_1d(np.asarray(low, dtype=float))
        self.high = np.atleast_1d(np.asarray(high, dtype=float))
        if self.low.shape != self.high.shape or np.any(self.high <= self.low):
            raise ValueError("need low < high, same shape")
        self.dim = int(self.low.size)
        self._logvol = float(np.sum(np.log(self.high - self.low)))

    def logpdf(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray:
        zp = np.asarray(z_prime, dtype=float)
        inside = np.all((zp >= self.low) & (zp <= self.high), axis=-1)
        return np.where(inside, -self._logvol, -np.inf)

    def sample(self, z: npt.ArrayLike, rng: np.random.Generator | int | None) -> FloatArray:
        n = np.asarray(z).shape[0]
        return as_generator(rng).uniform(self.low, self.high, size=(n, self.dim))


def _points(x: npt.ArrayLike, what: str) -> FloatArray:
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 2:
        raise ValueError(f"{what} must have shape (n, d); got {arr.shape} (use x[:, None] in 1-D)")
    if not np.all(np.isfinite(arr)):
        bad = int(np.argwhere(~np.all(np.isfinite(arr), axis=1))[0, 0])
        raise ValueError(f"{what} contains NaN or infinite values (first at row {bad})")
    return arr


def make_contrastive_task(observations: npt.ArrayLike, eta: float, contrast: ConditionalDensity,
                          *, seed: SeedLike = None) -> ContrastiveTask:
    """Build the contrastive task of §2.1.1.2 from observations at multiples of η.

    Parameters
    ----------
    observations : array_like, shape (2m or 2m+1, d)
        :math:`\\tilde x_{i\\eta}`, consecutive rows η apart (an odd last row is dropped).
    eta : float
        The lag (> 0); stored with the task.
    contrast : ConditionalDensity
        q; global (``GaussianKernel.global_gaussian``, π) or conditional
        (``GaussianKernel.local``).
    seed : int, SeedSequence or Generator
        Randomness of the labels and of the negatives (the *task* stream; simulate the
        trajectory with another stream).

    Raises
    ------
    ValueError
        Non-finite observations, fewer than 2 observations, η ≤ 0, a dimension mismatch, or
        a q with zero density at a positive pair (q must cover the support of :math:`p_*`).

    Examples
    --------
    >>> from identifiability.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> task = make_contrastive_task(ou.simulate(10, 0.5, seed=0), 0.5, ou.stationary, seed=1)
    >>> task.n_pairs, task.z.shape
    (5, (5, 1))
    """
    e = check_eta(eta)
    x = _points(observations, "observations")
    if x.shape[0] < 2:
        raise ValueError("need at least 2 observations to form one pair")
    if getattr(contrast, "dim", x.shape[1]) != x.shape[1]:
        raise ValueError(f"contrast dimension {contrast.dim} != data dimension {x.shape[1]}")
    m = x.shape[0] // 2
    z = np.ascontiguousarray(x[0:2 * m:2])
    nxt = np.ascontiguousarray(x[1:2 * m:2])
    rng = as_generator(seed)
    label = (rng.random(m) < 0.5).astype(np.int8)
    neg = label == 0
    z_prime = nxt.copy()
    if np.any(neg):
        z_prime[neg] = np.asarray(contrast.sample(z[neg], rng), dtype=float)
    pos = ~neg
    if np.any(pos):
        lq = contrast.logpdf(z[pos], z_prime[pos])
        if np.any(~np.isfinite(lq)):
            i = int(np.argwhere(~np.isfinite(lq))[0, 0])
            raise ValueError(ZERO_DENSITY_MESSAGE.format(
                where=f"the positive pair {np.flatnonzero(pos)[i]}"))
    return ContrastiveTask(z, z_prime, label, e)


class _Simulates(Protocol):
    def simulate(self, n_obs: int, eta: float, *, seed: SeedLike = None) -> FloatArray: ...


def contrastive_task_from_process(process: _Simulates, T: float, eta: float,
                                  contrast: ConditionalDensity, *, seed: SeedLike = None
                                  ) -> ContrastiveTask:
    """Simulate :math:`2m = \\lfloor T/\\eta\\rfloor` observations and build the task.

    The seed is split (``SeedSequence.spawn``) into a trajectory stream and a task stream.

    Examples
    --------
    >>> from identifiability.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> contrastive_task_from_process(ou, T=100, eta=0.5, contrast=ou.stationary, seed=0).n_pairs
    100
    """
    e = check_eta(eta)
    if not T > 0:
        raise ValueError(f"T must be positive, got {T}")
    n = math.floor(T / e + 1e-9)
    n -= n % 2
    if n < 2:
        raise ValueError(f"T/eta = {T / e:.3g} gives fewer than 2 observations")
    traj_rng, task_rng = split_seed(seed, 2)
    x = process.simulate(n, e, seed=traj_rng)
    return make_contrastive_task(x, e, contrast, seed=task_rng)


def bayes_classifier(p_star: npt.ArrayLike, q: npt.ArrayLike) -> FloatArray:
    """Lemma 1: :math:`h^* = p_*/(p_* + q)` from density values (arrays broadcast).

    Where both densities vanish the task never samples the point and h* is set to 0 (which
    makes eq. 2.12 return :math:`p = 0`, the right value).  Where q = 0 < p_*, raises.

    Examples
    --------
    >>> bayes_classifier([0.2, 0.5], [0.2, 0.25])
    array([0.5       , 0.66666667])
    """
    p = np.asarray(p_star, dtype=float)
    qq = np.asarray(q, dtype=float)
    if np.any(p < 0) or np.any(qq < 0) or not (np.all(np.isfinite(p))
                                                and np.all(np.isfinite(qq))):
        raise ValueError("densities must be finite and non-negative")
    if np.any((qq == 0) & (p > 0)):
        raise ValueError(ZERO_DENSITY_MESSAGE.format(where="some points"))
    tot = p + qq
    return np.asarray(np.divide(p, tot, out=np.zeros(np.broadcast(p, qq).shape),
                                where=tot > 0), dtype=float)


@dataclass(frozen=True)
class ImpliedKernel:
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
        """:math:`\\log q(z'|z) + \\operatorname{logit} h(z,z')` (eq. 2.12 in log form)."""
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
        """Eq. 2.12 (``normalize='none'``) or its per-z normalisation (``'per_z'``)."""
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
    """Eq. 2.12 from a logit function (numerically safer than from h when h is near 1)."""
    if normalize not in ("none", "per_z"):
        raise ValueError("normalize must be 'none' or 'per_z'")
    return ImpliedKernel(logit_fn, contrast, normalize)


def kernel_from_classifier(h: Any, q: Any, *, normalize: Literal["none", "per_z", "rows"]
                           = "none") -> Any:
    """The transition kernel implied by a classifier, eq. 2.12: :math:`p = h\\,q/(1-h)`.

    Two forms:

    * **arrays** — ``h`` holds probabilities and ``q`` the contrast densities at the same
      points (broadcast); returns the array :math:`hq/(1-h)`.  ``normalize='rows'``
      divides by the sum over the last axis (a finite-state kernel ``(n_states, n_states)``);
      the default ``'none'`` returns (2.12) as printed.
    * **a callable** ``h(z, z_prime)`` and a :class:`~identifiability.kernels.
      ConditionalDensity` q — returns an :class:`ImpliedKernel` (``normalize`` 'none' or
      'per_z').

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
    hv = np.asarray(h, dtype=float)
    qv = np.asarray(q, dtype=float)
    if np.any(~np.isfinite(hv)) or np.any((hv < 0) | (hv > 1)):
        raise ValueError("h must hold probabilities in [0, 1]")
    if np.any(~np.isfinite(qv)) or np.any(qv < 0):
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

