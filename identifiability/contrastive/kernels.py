"""Gaussian transition kernels, Gauss–Hermite expectations and exact Gaussian integrals.

A *Gaussian (affine) kernel* is the conditional law

.. math::

    k(z' \\mid z) = \\mathcal N(z';\\, M z + c,\\, S), \\qquad z, z' \\in \\mathbb R^d,

with ``M`` a d x d matrix, ``c`` a d-vector and ``S`` a symmetric positive-definite covariance.
It covers the three objects of paper 004 §2.1 that matter for the Ornstein–Uhlenbeck checks:

* the true η-transition kernel of an OU process, :math:`M = e^{-A\\eta}`, :math:`c = 0`,
  :math:`S = A^{-1}(I - e^{-2A\\eta})`;
* a global contrast distribution q (``M = 0``: q does not depend on z), e.g. q = π;
* a *conditional* contrast :math:`q(\\cdot\\mid z) = \\mathcal N(z, \\sigma^2 I)` (``M = I``),
  the one the proof of Theorem 3 actually uses (eq. 2.34).

References
----------
004 (B. Liu, PhD thesis), §2.1.1.2 (contrast distribution q,
eq. 2.4), §2.1.3.3 (eqs. 2.33–2.34).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from numpy.polynomial.hermite_e import hermegauss
from scipy.special import ndtr

from seprank.core import (
    array_bytes,
    as_generator,
    check_array,
    check_float,
    check_instance,
    check_int,
    guard_memory,
)
from seprank.core.display import RichDisplay
from seprank.core.types import FloatArray

__all__ = [
    "ConditionalDensity",
    "GaussianKernel",
    "gauss_hermite_rule",
    "gaussian_exponential_integral",
    "gaussian_tv_1d",
]



@runtime_checkable
class ConditionalDensity(Protocol):
    """What the contrastive code needs from a (possibly conditional) contrast distribution q.

    ``logpdf(z, z_prime)`` is :math:`\\log q(z'\\mid z)` (a global q ignores ``z``) for arrays
    of shape ``(..., d)``; ``sample(z, rng)`` draws one :math:`z'` per row of ``z``.
    """

    @property
    def dim(self) -> int: ...

    def logpdf(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray: ...

    def sample(self, z: npt.ArrayLike, rng: np.random.Generator) -> FloatArray: ...


def _as_points(x: npt.ArrayLike, d: int, what: str) -> FloatArray:
    arr = check_array(what, x, min_size=0, finite=False)
    if arr.ndim == 0 or arr.shape[-1] != d:
        raise ValueError(
            f"{what} must have shape (..., {d}) (one point per row, dimension {d}); got shape "
            f"{arr.shape}. For a 1-D process pass an array of shape (n, 1), e.g. x[:, None]."
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{what} contains NaN or infinite values")
    return arr


def _spd(S_in: npt.ArrayLike, what: str, *, rtol: float = 1e-10) -> FloatArray:
    S: FloatArray = np.atleast_2d(check_array(what, S_in, finite=False))
    if S.ndim != 2 or S.shape[0] != S.shape[1]:
        raise ValueError(f"{what} must be a square matrix, got shape {S.shape}")
    if not np.all(np.isfinite(S)):
        raise ValueError(f"{what} contains NaN or infinite entries")
    scale = max(1.0, float(np.max(np.abs(S))))
    if np.max(np.abs(S - S.T)) > rtol * scale:
        raise ValueError(f"{what} must be symmetric (max |S - S^T| = "
                         f"{np.max(np.abs(S - S.T)):.3g})")
    S = (S + S.T) / 2
    eig = np.linalg.eigvalsh(S)
    if eig[0] <= 0:
        raise ValueError(f"{what} must be positive definite; its smallest eigenvalue is "
                         f"{eig[0]:.6g}")
    return S


@dataclass(frozen=True, init=False, repr=False)
class GaussianKernel(RichDisplay):
    """The conditional Gaussian law :math:`k(z'\\mid z) = \\mathcal N(Mz + c, S)`.

    Parameters
    ----------
    M : array_like, shape (d, d)
        Linear part of the conditional mean (``0`` for a global, z-independent law).
    c : array_like, shape (d,)
        Offset of the conditional mean.
    S : array_like, shape (d, d)
        Conditional covariance, symmetric positive definite (refused otherwise).

    Notes
    -----
    :math:`\\log k(z'\\mid z) = -\\tfrac12 r^\\top S^{-1} r - \\tfrac12\\log\\det(2\\pi S)` with
    :math:`r = z' - Mz - c`.  Arrays of points have shape ``(..., d)``.

    Examples
    --------
    >>> k = GaussianKernel.global_gaussian(mean=[0.0], cov=[[1.0]])
    >>> round(float(k.logpdf([[3.0]], [[0.0]])[0]), 6)   # log N(0; 0, 1), z is ignored
    -0.918939
    >>> GaussianKernel.local(dim=1, variance=0.5).is_conditional
    True
    """

    M: FloatArray
    c: FloatArray
    S: FloatArray
    dim: int

    def __init__(self, M: npt.ArrayLike, c: npt.ArrayLike, S: npt.ArrayLike) -> None:
        S = _spd(S, "S (the kernel covariance)")
        d = S.shape[0]
        M = np.atleast_2d(check_array("M", M, finite=False))
        c = np.atleast_1d(check_array("c", c, finite=False))
        if M.shape != (d, d) or c.shape != (d,):
            raise ValueError(f"M must be ({d}, {d}) and c ({d},); got {M.shape} and {c.shape}")
        if not (np.all(np.isfinite(M)) and np.all(np.isfinite(c))):
            raise ValueError("M and c must be finite")
        object.__setattr__(self, "M", M)
        object.__setattr__(self, "c", c)
        object.__setattr__(self, "S", S)
        object.__setattr__(self, "dim", d)

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def global_gaussian(cls, mean: npt.ArrayLike, cov: npt.ArrayLike) -> GaussianKernel:
        """A z-independent law q = N(mean, cov) (``M = 0``).

        Parameters
        ----------
        mean : array_like
            The mean, shape (d,).
        cov : array_like
            The covariance, shape (d, d).

        Returns
        -------
        GaussianKernel
            The kernel with M = 0.
        """
        c = np.atleast_1d(check_array("mean", mean))
        return cls(np.zeros((c.size, c.size)), c, _spd(cov, "cov"))

    @classmethod
    def local(cls, dim: int, variance: float) -> GaussianKernel:
        """The conditional contrast ``q(·|z) = N(z, variance·I)`` of the Theorem 3 proof
        (eq. 2.34).

        Parameters
        ----------
        dim : int
            d.
        variance : float
            The variance of the contrast around z.

        Returns
        -------
        GaussianKernel
            The kernel with M = I, c = 0.
        """
        dim = check_int("dim", dim)
        variance = check_float("variance", variance, positive=True)
        return cls(np.eye(dim), np.zeros(dim), variance * np.eye(dim))

    # -- derived quantities -------------------------------------------------------------------
    @property
    def is_conditional(self) -> bool:
        """False when the law does not depend on z (M = 0)."""
        return bool(np.any(self.M != 0))

    @cached_property
    def chol(self) -> FloatArray:
        return np.asarray(np.linalg.cholesky(self.S), dtype=np.float64)

    @cached_property
    def precision(self) -> FloatArray:
        P = np.linalg.inv(self.S)
        return (P + P.T) / 2

    @cached_property
    def log_norm_const(self) -> float:
        """:math:`\\tfrac12\\log\\det(2\\pi S)`."""
        return float(np.sum(np.log(np.diag(self.chol))) + 0.5 * self.dim * math.log(2 * math.pi))

    def mean(self, z: npt.ArrayLike) -> FloatArray:
        """Conditional mean :math:`Mz + c` for points of shape ``(..., d)``.

        Parameters
        ----------
        z : array_like
            Points of shape ``(..., d)``.

        Returns
        -------
        numpy.ndarray
            :math:`Mz + c`.
        """
        zz = _as_points(z, self.dim, "z")
        return zz @ self.M.T + self.c

    def logpdf(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray:
        """:math:`\\log k(z'\\mid z)`; ``z`` and ``z_prime`` broadcast over leading axes.

        Parameters
        ----------
        z, z_prime : array_like
            Points of shape ``(..., d)``.

        Returns
        -------
        numpy.ndarray
            :math:`\\log k(z'|z)`.
        """
        zp = _as_points(z_prime, self.dim, "z_prime")
        r = zp - self.mean(z)
        u = np.linalg.solve(self.chol, np.moveaxis(r, -1, 0).reshape(self.dim, -1))
        quad = np.sum(u * u, axis=0).reshape(r.shape[:-1])
        return np.asarray(-0.5 * quad - self.log_norm_const, dtype=float)

    def pdf(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray:
        """The density :math:`k(z'\\mid z)` (the exponential of :meth:`logpdf`).

        Parameters
        ----------
        z, z_prime : array_like
            Points of shape ``(..., d)``.

        Returns
        -------
        numpy.ndarray
            :math:`k(z'|z)`.
        """
        return np.exp(self.logpdf(z, z_prime))

    def sample(self, z: npt.ArrayLike, rng: np.random.Generator | int | None) -> FloatArray:
        """One draw :math:`z' \\sim k(\\cdot\\mid z)` per row of ``z`` (shape ``(n, d)``).

        Parameters
        ----------
        z : array_like
            Points of shape ``(n, d)``.
        rng : numpy.random.Generator, int or None
            The random stream (or its seed).

        Returns
        -------
        numpy.ndarray
            One draw per row, shape ``(n, d)``.
        """
        gen = as_generator(rng, name="rng")
        mu = self.mean(z)
        xi = gen.standard_normal(mu.shape)
        return np.asarray(mu + xi @ self.chol.T, dtype=float)

    def kl_from(self, other: GaussianKernel, z: npt.ArrayLike) -> FloatArray:
        """:math:`\\mathrm{KL}(\\text{other}(\\cdot\\mid z)\\,\\|\\,\\text{self}(\\cdot\\mid z))`
        in closed form, for points ``z`` of shape ``(..., d)``.

        Parameters
        ----------
        other : GaussianKernel
            The kernel the KL is measured from.
        z : array_like
            Points of shape ``(..., d)``.

        Returns
        -------
        numpy.ndarray
            The KL at each point.
        """
        d = self.dim
        P = self.precision
        dm = other.mean(z) - self.mean(z)
        quad = np.einsum("...i,ij,...j->...", dm, P, dm)
        logdet_ratio = 2 * (np.sum(np.log(np.diag(self.chol)))
                            - np.sum(np.log(np.diag(other.chol))))
        return np.asarray(0.5 * (np.trace(P @ other.S) - d + logdet_ratio + quad), dtype=float)

    def expected_kl_from(self, other: GaussianKernel, mean: npt.ArrayLike,
                         cov: npt.ArrayLike) -> float:
        """:math:`\\mathbb E_{z\\sim\\mathcal N(m,\\Sigma)}\\,\\mathrm{KL}(\\text{other}(\\cdot|z)
        \\|\\text{self}(\\cdot|z))` in closed form.

        With :math:`\\Delta = M_o - M_s`, :math:`\\delta = c_o - c_s`:
        :math:`\\tfrac12[\\operatorname{tr}(S_s^{-1}S_o) - d + \\log\\tfrac{\\det S_s}{\\det S_o}
        + \\operatorname{tr}(\\Delta^\\top S_s^{-1}\\Delta(\\Sigma + mm^\\top))
        + 2\\delta^\\top S_s^{-1}\\Delta m + \\delta^\\top S_s^{-1}\\delta]`.

        Parameters
        ----------
        other : GaussianKernel
            The kernel the KL is measured from.
        mean : array_like
            m, the mean of z.
        cov : array_like
            Σ, the covariance of z.

        Returns
        -------
        float
            The expected KL.
        """
        d = self.dim
        m = np.atleast_1d(np.asarray(mean, dtype=float))
        Sig = np.atleast_2d(np.asarray(cov, dtype=float))
        P = self.precision
        D = other.M - self.M
        dc = other.c - self.c
        logdet_ratio = 2 * (np.sum(np.log(np.diag(self.chol)))
                            - np.sum(np.log(np.diag(other.chol))))
        quad = (np.trace(D.T @ P @ D @ (Sig + np.outer(m, m))) + 2 * dc @ P @ D @ m
                + dc @ P @ dc)
        return float(0.5 * (np.trace(P @ other.S) - d + logdet_ratio + quad))


def _check_kernel(name: str, value: Any) -> GaussianKernel:
    """``value`` if it is a :class:`GaussianKernel` (a TypeError naming ``name`` otherwise)."""
    return check_instance(name, value, GaussianKernel, expected="a GaussianKernel",
                          hint="e.g. OrnsteinUhlenbeck(A).kernel(eta), .stationary, or "
                               "GaussianKernel.global_gaussian(mean, cov)")


def _check_density(name: str, value: Any, *, sample: bool = True) -> Any:
    """``value`` if it has a callable ``logpdf`` (and ``sample`` when ``sample``): a
    :class:`ConditionalDensity` such as a :class:`GaussianKernel`."""
    needs = ("logpdf", "sample") if sample else ("logpdf",)
    if not all(callable(getattr(value, a, None)) for a in needs):
        raise TypeError(f"{name} must be a conditional density with "
                        f"{' and '.join(n + '(z, z_prime)' for n in needs)} (e.g. a "
                        f"GaussianKernel), got {value!r} ({type(value).__name__})")
    return value


def gauss_hermite_rule(
    mean: npt.ArrayLike,
    cov: npt.ArrayLike,
    *,
    n_nodes: int = 40,
) -> tuple[FloatArray, FloatArray]:
    """Nodes and weights of a tensor Gauss–Hermite rule for :math:`x\\sim\\mathcal N(m, \\Sigma)`.

    Returns ``(nodes, weights)`` with ``nodes`` of shape ``(n_nodes**d, d)``; then
    :math:`\\mathbb E g(x) \\approx \\sum_i w_i g(x_i)`.

    The rule is exact for polynomials of degree :math:`\\le 2 n - 1` in each coordinate.

    Parameters
    ----------
    mean : array_like
        m, shape (d,).
    cov : array_like
        Σ, shape (d, d).
    n_nodes : int, keyword-only
        Nodes per dimension (default 40).

    Returns
    -------
    nodes : numpy.ndarray
        Shape ``(n_nodes**d, d)``.
    weights : numpy.ndarray
        Shape ``(n_nodes**d,)``.

    Examples
    --------
    >>> x, w = gauss_hermite_rule([1.0], [[4.0]], n_nodes=5)
    >>> round(float(w @ x[:, 0] ** 2), 12)     # E x^2 = 1 + 4
    5.0
    """
    m = np.atleast_1d(check_array("mean", mean, ndim=(0, 1)))
    n_nodes = check_int("n_nodes", n_nodes)
    cov_m = _spd(cov, "cov")
    if cov_m.shape != (m.size, m.size):
        raise ValueError(f"cov must be ({m.size}, {m.size}) for a mean of dimension {m.size}, "
                         f"got {cov_m.shape}")
    guard_memory(4 * array_bytes((n_nodes ** m.size, m.size + 1)),
                 what=f"a tensor Gauss–Hermite rule with {n_nodes}^{m.size} nodes",
                 fix="use fewer n_nodes (the rule is exact to degree 2 n_nodes - 1)")
    L = np.linalg.cholesky(cov_m)
    t, w1 = hermegauss(n_nodes)
    w1 = w1 / math.sqrt(2 * math.pi)
    d = m.size
    grids = np.meshgrid(*([t] * d), indexing="ij")
    std = np.stack([g.ravel() for g in grids], axis=-1)
    wgrids = np.meshgrid(*([w1] * d), indexing="ij")
    w = np.prod(np.stack([g.ravel() for g in wgrids], axis=-1), axis=-1)
    return std @ L.T + m, w


def gaussian_exponential_integral(Q: npt.ArrayLike, b: npt.ArrayLike, c: float) -> float:
    """:math:`\\log\\int_{\\mathbb R^n} \\exp(-\\tfrac12 x^\\top Q x + b^\\top x + c)\\,dx`.

    Finite iff Q is positive definite, in which case it equals
    :math:`\\tfrac n2\\log 2\\pi - \\tfrac12\\log\\det Q + \\tfrac12 b^\\top Q^{-1} b + c`;
    otherwise the integral diverges and ``+inf`` is returned (a degenerate direction with
    :math:`b \\ne 0` or a zero eigenvalue also diverges).

    Parameters
    ----------
    Q : array_like
        A symmetric n x n matrix.
    b : array_like
        A vector of length n.
    c : float
        The constant.

    Returns
    -------
    float
        The log-integral, or ``inf``.

    Examples
    --------
    >>> bool(np.isclose(gaussian_exponential_integral([[1.0]], [0.0], 0.0),
    ...                 0.5 * np.log(2 * np.pi)))
    True
    >>> gaussian_exponential_integral([[-1.0]], [0.0], 0.0)
    inf
    """
    Qm = np.atleast_2d(check_array("Q", Q))
    if Qm.ndim != 2 or Qm.shape[0] != Qm.shape[1]:
        raise ValueError(f"Q must be a square matrix, got shape {Qm.shape}")
    Qm = (Qm + Qm.T) / 2
    bv = np.atleast_1d(check_array("b", b))
    if bv.shape != (Qm.shape[0],):
        raise ValueError(f"b must have shape ({Qm.shape[0]},), got {bv.shape}")
    c = check_float("c", c)
    eig = np.linalg.eigvalsh(Qm)
    if eig[0] <= 1e-14 * max(1.0, float(np.max(np.abs(eig)))):
        return math.inf
    n = bv.size
    _sign, logdet = np.linalg.slogdet(Qm)
    return float(0.5 * n * math.log(2 * math.pi) - 0.5 * logdet
                 + 0.5 * bv @ np.linalg.solve(Qm, bv) + c)


def gaussian_tv_1d(m1: float, s1: float, m2: float, s2: float) -> float:
    """Exact total-variation distance between :math:`\\mathcal N(m_1, s_1^2)` and
    :math:`\\mathcal N(m_2, s_2^2)` (``s`` are standard deviations).

    The log-density difference is a quadratic with at most two roots; between consecutive
    roots one density dominates, so :math:`\\mathrm{TV} = \\sum_{\\text{intervals}}
    \\max(P_1 - P_2, 0)` with Gaussian CDFs.

    Parameters
    ----------
    m1, s1 : float
        Mean and standard deviation of the first Gaussian.
    m2, s2 : float
        Mean and standard deviation of the second.

    Returns
    -------
    float
        The total-variation distance.

    Examples
    --------
    >>> from scipy.stats import norm
    >>> bool(np.isclose(gaussian_tv_1d(0, 1, 1, 1), 2 * norm.cdf(0.5) - 1))
    True
    """
    m1, m2 = check_float("m1", m1), check_float("m2", m2)
    s1 = check_float("s1 (a standard deviation)", s1, positive=True)
    s2 = check_float("s2 (a standard deviation)", s2, positive=True)
    # log p1 - log p2 = a x^2 + b x + c
    a = -0.5 / s1**2 + 0.5 / s2**2
    b = m1 / s1**2 - m2 / s2**2
    c = -0.5 * m1**2 / s1**2 + 0.5 * m2**2 / s2**2 - math.log(s1) + math.log(s2)
    roots: list[float]
    if abs(a) < 1e-14 * (1 / s1**2 + 1 / s2**2):
        roots = [] if b == 0 else [-c / b]
    else:
        disc = b * b - 4 * a * c
        if disc <= 0:
            roots = []
        else:
            sq = math.sqrt(disc)
            roots = sorted([(-b - sq) / (2 * a), (-b + sq) / (2 * a)])
    edges = [-math.inf, *roots, math.inf]
    tv = 0.0
    for lo, hi in itertools.pairwise(edges):
        mid = (lo + hi) / 2 if math.isfinite(lo) and math.isfinite(hi) else (
            (hi - 1.0) if math.isfinite(hi) else (lo + 1.0) if math.isfinite(lo) else 0.0)
        if a * mid * mid + b * mid + c > 0:
            p1 = float(ndtr((hi - m1) / s1) - ndtr((lo - m1) / s1))
            p2 = float(ndtr((hi - m2) / s2) - ndtr((lo - m2) / s2))
            tv += p1 - p2
    return max(tv, 0.0)
