r"""Noise-robust Jennrich for a multi-view tensor, and projections onto the model class.

A third moment :math:`Q = \sum_i w_i\,a_i\otimes b_i\otimes c_i` (views a, b, c conditionally
independent given the hidden state, 004 (2.36)/(2.70)) with pair moments
:math:`P_{ab} = A\,\mathrm{diag}(w)B^\top`, :math:`P_{ac} = A\,\mathrm{diag}(w)C^\top`.  With
:math:`U_a, U_b, U_c` the leading k singular vectors of the three unfoldings of Q, the
*whitened* slices

.. math::

    Y_c(\eta) = U_a^\top Q(\cdot,\cdot,\eta)U_b\,(U_a^\top P_{ab}U_b)^{-1}
              = G\,\mathrm{diag}(C^\top\eta)\,G^{-1}, \qquad G = U_a^\top A,

(and :math:`Y_b(\eta)` likewise with :math:`P_{ac}`) are simultaneously diagonalised by the
*same* G.  Following Anandkumar, Hsu and Kakade (2012, "A method of moments for mixture models
and hidden Markov models", Algorithm B), G is taken from the eigenvectors of one contraction
:math:`\eta = U\theta` chosen among ``n_contractions`` random unit :math:`\theta` as the one with
the widest eigenvalue gap (real eigenvalues required); a second pass re-diagonalises along the
direction that maximises the smallest gap of the first read-out (among 256 random ones).
*Every* coordinate of B and C is read as :math:`\mathrm{diag}(G^{-1}Y(e_j)G)`.  The read-out
is insensitive to first order to an error in G
(:math:`\mathrm{diag}((I-\Delta)D(I+\Delta)) = \mathrm{diag}(D) + O(\Delta^2)`), it carries no
scaling ambiguity (no normalisation of columns), and :math:`\sum_j C_{j,:} = \mathbf
1^\top` exactly when :math:`Q(\cdot,\cdot,\mathbf 1) = P_{ab}` (token counts).

Projections (the estimate's distance to the model class is reported, never hidden):
:func:`simplex_projection` (Euclidean projection of each column onto the probability simplex,
Duchi et al. 2008) and :func:`birkhoff_projection` (Dykstra's alternating projections onto the
doubly stochastic matrices).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from seprank.core import SeedLike, as_generator, check_array, check_float, check_int
from seprank.core.types import FloatArray

__all__ = ["SpectralFactors", "birkhoff_projection", "simplex_projection", "spectral_factors"]

#: An eigenvalue with |imag| above this fraction of the largest one is not real.
IMAG_RTOL = 1e-9
#: Directions probed (on the first read-out) for the widest-gap second contraction.
PROBE_DIRECTIONS = 256
#: Most candidate contractions (each costs one k x k eigendecomposition).
MAX_CONTRACTIONS = 4096


@dataclass(frozen=True)
class SpectralFactors:
    """Factors read from the whitened slices, in one (arbitrary) component order.

    ``B``, ``C`` are the d x k factors of modes 2 and 3; ``eigenvalues`` those of the chosen
    contraction (``direction`` = (mode, theta)); ``sigma_k`` the k-th singular values of the
    two whitening pair matrices (``direction`` = (mode, eta), eta in observation
    coordinates); ``real`` says whether the chosen contraction had real
    eigenvalues (else the real parts of the least complex one were used); ``condition_G`` is
    the condition number of the eigenvector matrix.

    Parameters
    ----------
    B, C : numpy.ndarray
        The d x k factors of modes 2 and 3.
    eigenvalues : numpy.ndarray
        Of the chosen contraction.
    direction : (int, numpy.ndarray)
        Its mode and direction.
    sigma_k : (float, float)
        The k-th singular values of the two whitening pair matrices.
    real : bool
        Whether the contraction had real eigenvalues.
    condition_G : float
        Condition number of the eigenvector matrix.
    n_real : int
        Number of real-spectrum contractions tried.
    """

    B: FloatArray
    C: FloatArray
    eigenvalues: FloatArray
    direction: tuple[int, FloatArray]
    sigma_k: tuple[float, float]
    real: bool
    condition_G: float
    n_real: int


def _top(M: FloatArray, k: int) -> FloatArray:
    return np.asarray(np.linalg.svd(M, full_matrices=False)[0][:, :k])


def spectral_factors(
    Q: Any, P_ab: Any, P_ac: Any, k: int, *, seed: SeedLike = None,
    n_contractions: int = 16, direction: tuple[int, Any] | None = None,
) -> SpectralFactors:
    r"""Whitened simultaneous diagonalisation of a d x d x d multi-view tensor.

    Parameters
    ----------
    Q : array_like
        :math:`\sum_i w_i a_i\otimes b_i\otimes c_i` (d x d x d), possibly noisy.
    P_ab, P_ac : array_like
        The pair moments :math:`A\,\mathrm{diag}(w)B^\top` and :math:`A\,\mathrm{diag}(w)C^\top`.
    k : int
        Number of components (<= d).
    seed : int or numpy.random.Generator, keyword-only
        Draws the candidate contraction directions (the algorithm's stream).
    n_contractions : int, keyword-only
        Candidate directions, half in the column space of C, half in that of B (at most
        :data:`MAX_CONTRACTIONS`).
    direction : (mode, eta), keyword-only
        Use the contraction along ``eta`` (a d-vector, in the observation coordinates, of mode
        1 = B or 2 = C) instead of choosing one (the jackknife reuses the choice).

    Returns
    -------
    SpectralFactors

    References
    ----------
    .. [1] 004, after Proposition 1 (Jennrich / Harshman); Anandkumar, Hsu, Kakade (2012),
       Algorithm B.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> A, B, C = rng.random((5, 3)), rng.random((5, 3)), rng.random((5, 3))
    >>> Q = np.einsum("ir,jr,kr->ijk", A, B, C)
    >>> f = spectral_factors(Q, A @ B.T, A @ C.T, 3, seed=1)
    >>> from identifiability.masked.matching import match_permutation
    >>> match_permutation(f.C, C).max_abs_error < 1e-10
    True
    """
    Qm = check_array("Q", Q, ndim=3)
    d = Qm.shape[0]
    k = check_int("k", k, 1, d)
    Pab, Pac = check_array("P_ab", P_ab, shape=(d, d)), check_array("P_ac", P_ac, shape=(d, d))
    n_contractions = check_int("n_contractions", n_contractions, 1, MAX_CONTRACTIONS)
    rng = as_generator(seed)
    Ua = _top(Qm.reshape(d, d * d), k)
    Ub = _top(np.moveaxis(Qm, 1, 0).reshape(d, d * d), k)
    Uc = _top(np.moveaxis(Qm, 2, 0).reshape(d, d * d), k)
    Mc, Mb = Ua.T @ Pab @ Ub, Ua.T @ Pac @ Uc
    sig = (float(np.linalg.svd(Mb, compute_uv=False)[-1]),
           float(np.linalg.svd(Mc, compute_uv=False)[-1]))
    with np.errstate(all="ignore"):
        Yc = np.einsum("ir,ijl,js->lrs", Ua, Qm, Ub) @ np.linalg.pinv(Mc)  # (d, k, k)
        Yb = np.einsum("ir,ijl,ls->jrs", Ua, Qm, Uc) @ np.linalg.pinv(Mb)
    slices, spans = {1: Yb, 2: Yc}, {1: Ub, 2: Uc}
    if direction is None:
        candidates = [(m, spans[m] @ _unit(rng.standard_normal(k)))
                      for m in (2 if i % 2 == 0 else 1 for i in range(n_contractions))]
    else:
        candidates = [(int(direction[0]), np.asarray(direction[1], dtype=float))]
    found = _best_contraction(candidates, slices)
    if found is None:
        raise ValueError("every contraction of the whitened tensor is non-finite: the pair "
                         "moments are singular (is k larger than the number of states?)")
    idx, vals, vecs, n_real = found
    chosen = candidates[idx]
    read = _read(vecs, slices)
    if direction is None and k > 1 and n_real:  # second pass: widest gap of the first read-out
        thetas = rng.standard_normal((PROBE_DIRECTIONS, k))
        thetas /= np.linalg.norm(thetas, axis=1, keepdims=True)
        best_gap, best = -np.inf, chosen
        for m in (1, 2):
            proj = np.sort(thetas @ (spans[m].T @ read[m]), axis=1)  # rows: C^T U theta
            gaps = np.min(np.diff(proj, axis=1), axis=1)
            i = int(np.argmax(gaps))
            if gaps[i] > best_gap:
                best_gap, best = float(gaps[i]), (m, spans[m] @ thetas[i])
        again = _best_contraction([best], slices)
        if again is not None and again[3]:
            _, vals, vecs, _ = again
            chosen = best
            read = _read(vecs, slices)
    G = np.real(vecs)
    cond = float(np.linalg.cond(G)) if np.all(np.isfinite(G)) else np.inf
    return SpectralFactors(read[1], read[2], np.real(vals), chosen, sig, n_real > 0, cond,
                           n_real)


def _best_contraction(candidates: list[tuple[int, FloatArray]], slices: dict[int, FloatArray]
                      ) -> tuple[int, Any, Any, int] | None:
    """The candidate with real eigenvalues and the widest gap (else the least complex)."""
    best: tuple[float, int, Any, Any] | None = None
    n_real = 0
    for idx, (mode, eta) in enumerate(candidates):
        X = np.tensordot(eta, slices[mode], axes=(0, 0))
        if not np.all(np.isfinite(X)):
            continue
        vals, vecs = np.linalg.eig(X)
        scale = max(float(np.max(np.abs(vals))), np.finfo(float).tiny)
        imag = float(np.max(np.abs(vals.imag))) / scale
        real = imag <= IMAG_RTOL
        n_real += real
        gap = float(np.min(np.diff(np.sort(vals.real)))) if len(vals) > 1 else scale
        score = gap if real else -imag  # any real candidate beats every complex one
        if best is None or score > best[0]:
            best = (score, idx, vals, vecs)
    if best is None:
        return None
    return best[1], best[2], best[3], n_real


def _read(vecs: Any, slices: dict[int, FloatArray]) -> dict[int, FloatArray]:
    """diag(G^-1 Y(e_j) G) for every coordinate j of both read-out modes."""
    G = np.real(vecs)
    with np.errstate(all="ignore"):
        Ginv = np.linalg.pinv(G)
        return {m: np.asarray(np.einsum("rs,jst,tr->jr", Ginv, slices[m], G)) for m in (1, 2)}


def _unit(v: FloatArray) -> FloatArray:
    return np.asarray(v / np.linalg.norm(v))


def simplex_projection(V: Any) -> FloatArray:
    r"""Euclidean projection of each column of V onto the probability simplex.

    :math:`\hat v = \max(v - \tau, 0)` with :math:`\tau` chosen so that
    :math:`\sum\hat v = 1` (Duchi, Shalev-Shwartz, Singer, Chandra 2008, Fig. 1).

    Parameters
    ----------
    V : array_like
        A matrix; each column is projected.

    Returns
    -------
    numpy.ndarray
        Columns on the simplex.

    Examples
    --------
    >>> simplex_projection(np.array([[0.7], [0.5], [-0.1]])).ravel().tolist()
    [0.6, 0.4, 0.0]
    """
    X = check_array("V", V, ndim=2)
    U = -np.sort(-X, axis=0)
    css = np.cumsum(U, axis=0) - 1
    idx = np.arange(1, X.shape[0] + 1)[:, None]
    rho = np.sum(U - css / idx > 0, axis=0)  # >= 1 always
    tau = css[rho - 1, np.arange(X.shape[1])] / rho
    return np.asarray(np.maximum(X - tau, 0.0))


def birkhoff_projection(
    X: Any, *, tol: float = 1e-13, max_iter: int = 100_000,
) -> tuple[FloatArray, int, bool]:
    r"""Frobenius projection onto the doubly stochastic matrices, by Dykstra's algorithm.

    Alternates the exact projections onto the affine set {row and column sums 1} and the
    non-negative orthant, with Dykstra's corrections (so the limit is the projection, not just
    a feasible point).

    Parameters
    ----------
    X : array_like
        k x k.
    tol : float, keyword-only
        Stop when the row and column sums are within ``tol`` of 1 (the iterate is
        non-negative by construction).
    max_iter : int, keyword-only
        Iteration budget.

    Returns
    -------
    (P, n_iter, converged)
        ``converged`` is False when the budget ran out (P then misses the sums by more than
        ``tol``; callers report it).

    Examples
    --------
    >>> P, n, ok = birkhoff_projection(np.array([[1.2, -0.1], [0.0, 0.9]]))
    >>> ok, P.round(6).tolist()
    (True, [[1.0, 0.0], [0.0, 1.0]])
    """
    Y = check_array("X", X, ndim=2)
    if Y.shape[0] != Y.shape[1]:
        raise ValueError(f"X must be square, got shape {Y.shape}")
    tol = check_float("tol", tol, positive=True)
    max_iter = check_int("max_iter", max_iter)
    P = Y.copy()
    incr = np.zeros_like(Y)
    for it in range(1, max_iter + 1):
        A = _affine(P)
        P = np.maximum(A - incr, 0.0)
        incr = P - (A - incr)
        dev = max(float(np.max(np.abs(P.sum(0) - 1))), float(np.max(np.abs(P.sum(1) - 1))))
        if dev <= tol:
            return P, it, True
    return P, max_iter, False


def _affine(X: FloatArray) -> FloatArray:
    """Projection onto {X : X 1 = 1, 1^T X = 1^T} (closed form)."""
    k = X.shape[0]
    r = X.sum(axis=1, keepdims=True) - 1
    c = X.sum(axis=0, keepdims=True) - 1
    s = X.sum() - k
    return np.asarray(X - r / k - c / k + s / k**2)
