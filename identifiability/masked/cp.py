r"""CP decompositions of 3-tensors: Jennrich's algorithm and ALS (tensorly) with restarts.

Jennrich's algorithm (Harshman 1970; the "algorithmic" route the seed mentions after
Proposition 1) is exact for :math:`W = \sum_{r\le R} a_r\otimes b_r\otimes c_r` when A and B have
full column rank R and C has Kruskal rank at least 2: with
:math:`W_u = \sum_k u_k W_{::k} = A\,\mathrm{diag}(C^\top u)B^\top`,

.. math::

    W_u W_v^{+} = A\,\mathrm{diag}\big(C^\top u / C^\top v\big)A^{+},

so the eigenvectors of :math:`W_u W_v^+` (after projecting modes 1 and 2 onto their leading R
singular vectors) are the columns of A; then each :math:`b_r c_r^\top = W\times_1 (A^+)_{r,:}`
is rank one.  ALS (:func:`tensorly.decomposition.parafac`) is iterative: it reaches ~1e-4 to
1e-7 parameter accuracy and can converge to a wrong solution (notes MP-6), so
:func:`als_parafac` restarts from random initialisations drawn from its own seed stream and keeps
the lowest reconstruction error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from seprank.core import (
    Result,
    SeedLike,
    array_bytes,
    as_generator,
    check_array,
    check_float,
    check_int,
    check_work,
    guard_memory,
)
from seprank.core.types import FloatArray

__all__ = ["CPResult", "als_parafac", "cp_reconstruct", "jennrich"]



@dataclass(frozen=True, repr=False)
class CPResult(Result):
    """Factors ``(A, B, C)`` with ``W ≈ einsum('ir,jr,kr->ijk', A, B, C)``.

    Attributes
    ----------
    factors : tuple of numpy.ndarray
    rel_error : float
        :math:`\\|W - \\hat W\\|_F / \\|W\\|_F`.
    method : str
        ``'jennrich'`` or ``'als'``.
    details : Mapping
        Jennrich: ``max_imag_eigenvalue``, ``eigenvalue_separation``; ALS: ``restart_errors``,
        ``seeds``, ``n_iter_max``, ``tol``.
    """

    factors: tuple[FloatArray, FloatArray, FloatArray]
    rel_error: float
    method: str
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)


    @property
    def rank(self) -> int:
        return int(self.factors[0].shape[1])

    def _repr_info(self) -> dict[str, Any]:
        return {"rank": self.rank, "method": self.method, "rel_error": self.rel_error,
                "shapes": tuple(F.shape for F in self.factors)}

    def summary(self) -> str:
        return (f"rank-{self.rank} CP decomposition ({self.method}), relative error "
                f"{self.rel_error:.2g}")


def cp_reconstruct(factors: tuple[Any, Any, Any]) -> FloatArray:
    """``einsum('ir,jr,kr->ijk', A, B, C)``.

    Parameters
    ----------
    factors : (array_like, array_like, array_like)
        A, B, C with R columns each.

    Returns
    -------
    numpy.ndarray
        The 3-tensor.

    Examples
    --------
    >>> cp_reconstruct((np.ones((2, 1)), np.ones((3, 1)), np.ones((4, 1)))).shape
    (2, 3, 4)
    """
    if isinstance(factors, str | bytes) or not hasattr(factors, "__len__") or len(factors) != 3:
        raise TypeError(f"factors must be three matrices (A, B, C), got {factors!r}")
    A, B, C = (check_array(f"factors[{i}]", F, ndim=2) for i, F in enumerate(factors))
    if not A.shape[1] == B.shape[1] == C.shape[1]:
        raise ValueError(f"factors must have one rank R (as many columns each), got "
                         f"{A.shape[1]}, {B.shape[1]} and {C.shape[1]} columns")
    guard_memory(array_bytes((A.shape[0], B.shape[0], C.shape[0])) * 2,
                 what=f"a {A.shape[0]} x {B.shape[0]} x {C.shape[0]} tensor",
                 fix="use smaller factors")
    return np.asarray(np.einsum("ir,jr,kr->ijk", A, B, C))


def _check_tensor(W: Any, rank: int) -> FloatArray:
    arr = check_array("W", W, ndim=3, what="a 3-tensor")
    r = check_int("rank", rank)
    I, J, K = arr.shape
    if r > min(I * J, I * K, J * K):
        raise ValueError(f"rank = {r} exceeds min(IJ, IK, JK) = {min(I * J, I * K, J * K)}, the "
                         f"largest rank a tensor of shape {I} x {J} x {K} can have; lower rank")
    return arr


def _rel_error(W: FloatArray, factors: tuple[FloatArray, FloatArray, FloatArray]) -> float:
    return float(np.linalg.norm(W - cp_reconstruct(factors)) / np.linalg.norm(W))


def _leading_subspace(X: FloatArray, rank: int) -> FloatArray:
    """Orthonormal basis of the leading ``rank``-dimensional column space of a wide ``X``:
    eigenvectors of the m x m Gram matrix (one BLAS product; an SVD of the m x n unfolding is
    40x slower at d = 120), then one subspace-iteration step X X^T U with a QR, which
    removes the Gram matrix's squared rounding from an exact low-rank X's column space."""
    G = X @ X.T
    U = np.linalg.eigh(G)[1][:, ::-1][:, :rank]
    return np.asarray(np.linalg.qr(X @ (X.T @ U))[0])


def jennrich(
    W: Any, rank: int, *, seed: SeedLike = None,
) -> CPResult:
    r"""Jennrich's simultaneous diagonalisation for an exact rank-``rank`` 3-tensor.

    Parameters
    ----------
    W : array_like
        I x J x K tensor with I, J >= rank.
    rank : int
        Number of rank-one terms R.
    seed : int or numpy.random.Generator, optional, keyword-only
        Draws the two random contraction vectors (the algorithm's own stream).

    Returns
    -------
    CPResult
        Columns in an arbitrary order and scaling (A's columns have unit norm).

    Raises
    ------
    ValueError
        If ``rank`` exceeds I or J, or the eigenvalues are not real and separated (the
        generic-position assumption fails).

    References
    ----------
    .. [1] Harshman (1970), cited in 004 after Proposition 1.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> A, B, C = rng.random((4, 3)), rng.random((5, 3)), rng.random((6, 3))
    >>> W = np.einsum("ir,jr,kr->ijk", A, B, C)
    >>> res = jennrich(W, 3, seed=1)
    >>> res.rel_error < 1e-12
    True
    """
    T = _check_tensor(W, rank)
    I, J, K = T.shape
    if rank > min(I, J):
        raise ValueError(f"Jennrich needs rank <= min(I, J) = {min(I, J)}, got {rank}")
    if not np.any(T):
        raise ValueError(f"W is the zero tensor (rank 0): it has no rank-{rank} decomposition "
                         "for Jennrich's algorithm to find")
    rng = as_generator(seed)
    U = _leading_subspace(T.reshape(I, J * K), rank)
    V = _leading_subspace(np.moveaxis(T, 1, 0).reshape(J, I * K), rank)
    Tc = np.einsum("ir,ijk,js->rsk", U, T, V)
    u, v = rng.standard_normal(K), rng.standard_normal(K)
    Mu, Mv = Tc @ u, Tc @ v
    try:
        evals, evecs = np.linalg.eig(Mu @ np.linalg.inv(Mv))
        scale = float(np.max(np.abs(evals)))
        with np.errstate(all="ignore"):
            max_imag = float(np.max(np.abs(evals.imag))) / scale
            re = np.sort(evals.real)
            separation = float(np.min(np.diff(re))) / scale if rank > 1 else np.inf
    except np.linalg.LinAlgError:          # a singular contraction: W has rank < rank
        max_imag, separation = np.inf, 0.0
    if not (max_imag <= 1e-6 and separation >= 1e-10):
        raise ValueError(
            "Jennrich's eigenvalues are not real and distinct (max |imag| / scale = "
            f"{max_imag:.3g}, min separation = {separation:.3g}): the tensor is not an exact "
            "rank-R tensor with full-column-rank A, B and k-rank(C) >= 2. Use als_parafac.")
    A = U @ evecs.real
    A /= np.linalg.norm(A, axis=0)
    Apinv = np.linalg.pinv(A)
    B = np.empty((J, rank))
    C = np.empty((K, rank))
    for r in range(rank):
        slab = np.tensordot(Apinv[r], T, axes=(0, 0))  # = b_r c_r^T
        uu, ss, vvt = np.linalg.svd(slab)
        B[:, r] = uu[:, 0] * ss[0]
        C[:, r] = vvt[0]
    factors = (A, B, C)
    return CPResult(factors, _rel_error(T, factors), "jennrich",
                    {"max_imag_eigenvalue": max_imag, "eigenvalue_separation": separation})


def als_parafac(
    W: Any, rank: int, *, n_restarts: int = 5, seed: SeedLike = None,
    n_iter_max: int = 5000, tol: float = 1e-14, init: str = "random",
) -> CPResult:
    r"""ALS through :func:`tensorly.decomposition.parafac`, best of ``n_restarts`` starts.

    Parameters
    ----------
    W : array_like
        3-tensor.
    rank : int
    n_restarts : int, keyword-only
        Number of random initialisations (``init='svd'`` runs once: it is deterministic).
    seed : int or numpy.random.Generator, optional, keyword-only
        The algorithm's seed stream; each restart's ``random_state`` is drawn from it.  Keep it
        separate from the data's seed: an ALS seeded like the data can start at the answer.
    n_iter_max, tol : keyword-only
        Passed to ``parafac`` (``tol`` on the decrease of the reconstruction error).
    init : {'random', 'svd'}, keyword-only

    Returns
    -------
    CPResult
        The weights are multiplied into A.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> W = np.einsum("ir,jr,kr->ijk", rng.random((4, 2)), rng.random((4, 2)), rng.random((4, 2)))
    >>> als_parafac(W, 2, n_restarts=2, seed=7).rel_error < 1e-6
    True
    """
    from tensorly.decomposition import parafac

    T = _check_tensor(W, rank)
    n_restarts = check_int("n_restarts", n_restarts)
    n_iter_max = check_int("n_iter_max", n_iter_max)
    tol = check_float("tol", tol, minimum=0, hint=" (a tolerance)")
    if init not in ("random", "svd"):
        raise ValueError(f"init must be 'random' or 'svd', got {init!r}")
    I, J, K = T.shape
    guard_memory(array_bytes((I + J + K + max(I * J, I * K, J * K), rank)) * 4
                 + array_bytes((I, J, K)) * 4,
                 what=f"ALS for rank {rank} on a {I} x {J} x {K} tensor",
                 fix="lower rank")
    check_work((n_restarts if init == "random" else 1) * n_iter_max * rank * I * J * K * 6,
               what=f"{n_restarts} ALS runs of up to {n_iter_max} iterations at rank {rank}",
               fix="lower n_restarts, n_iter_max or rank")
    rng = as_generator(seed)
    seeds = [int(s) for s in rng.integers(0, 2**31 - 1, n_restarts if init == "random" else 1)]
    best: tuple[float, tuple[FloatArray, FloatArray, FloatArray]] | None = None
    errors = []
    for s in seeds:
        cp = parafac(T, rank=rank, init=init, n_iter_max=n_iter_max, tol=tol, random_state=s)
        weights, (A, B, C) = cp
        factors = (np.asarray(A) * np.asarray(weights), np.asarray(B), np.asarray(C))
        err = _rel_error(T, factors)
        errors.append(err)
        if best is None or err < best[0]:
            best = (err, factors)
    assert best is not None
    return CPResult(best[1], best[0], "als", {"restart_errors": tuple(errors), "seeds":
                                              tuple(seeds), "n_iter_max": n_iter_max,
                                              "tol": tol, "init": init})
