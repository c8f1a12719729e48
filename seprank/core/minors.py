r"""Witnesses of matrix ranks: a nonzero minor for the lower side, a kernel basis for the upper.

A rank has two sides, and each has a short proof that anyone can check:

* **lower side** -- :math:`\operatorname{rank}_{\mathbb Q}(M) \ge r` because the r x r minor
  :math:`\det M_{I,J}` is non-zero modulo a prime p (a minor that vanishes over Q vanishes mod
  p).  :func:`nonzero_minor` finds I and J from two reduced row echelon forms over GF(p):
  the pivot columns J of :math:`M \bmod p` (one rank computation), then the pivot columns of
  :math:`(M_{:,J})^T` (an r x m echelon form, cheaper) give r independent rows I.
* **upper side** -- :math:`\operatorname{rank}(M) \le n - k` because k independent vectors
  satisfy :math:`M v = 0` (rank-nullity).  :func:`kernel_basis` returns an integer basis of
  the right kernel over Q (python-flint's ``fmpz_mat.nullspace``).

Both are used by :mod:`seprank.certificates` to turn a certified rank into a certificate that
an independent checker (:mod:`seprank.certificates.verify`) re-checks with Python integers.
"""

from __future__ import annotations

import math
from typing import Any

import flint
import numpy as np

from seprank.core.inputs import as_exact_matrix
from seprank.core.memory import RANK_STEP_FACTOR, array_bytes, guard_memory
from seprank.core.rank import ELIMINATION_MIN_ENTRIES
from seprank.core.validation import check_int

__all__ = ["kernel_basis", "nonzero_minor"]


def _pivots(R: Any, rank: int) -> list[int]:
    """Pivot columns of a reduced row echelon form (flint matrix) of the given rank: at most
    ``rank + ncols`` entry reads."""
    piv: list[int] = []
    j = 0
    for i in range(rank):
        while int(R[i, j]) == 0:
            j += 1
        piv.append(j)
        j += 1
    return piv


def _residues(M: Any, p: int) -> Any:
    """``M`` reduced modulo ``p`` as a numpy array (int64 for p < 2**62).  Rows of a rational
    matrix are scaled by their denominators, units mod p: no minor changes from zero to
    non-zero."""
    arr = np.asarray(M)
    if arr.dtype.kind in "iu" and arr.ndim == 2 and p < 2**62:
        return np.mod(arr.astype(np.int64), p)
    exact = as_exact_matrix(M, "M")
    if exact.denominators_divisible_by(p):
        raise ZeroDivisionError(f"p = {p} divides a denominator of M; choose another prime")
    nums = exact.numerators
    if nums.dtype != object and p < 2**62:
        return np.mod(nums, p)
    reduced = np.vectorize(lambda v: int(v) % p, otypes=[object])(nums) if nums.size else nums
    return reduced.astype(np.int64) if p < 2**63 else reduced


def nonzero_minor(M: Any, p: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    r"""Rows I and columns J of an r x r minor of ``M`` that is non-zero modulo ``p``, where
    :math:`r = \operatorname{rank}_{GF(p)}(M \bmod p)`.

    The pivot columns J of the reduced row echelon form of :math:`M \bmod p` are independent,
    so :math:`M_{:,J}` has rank r; the pivot columns of the echelon form of
    :math:`(M_{:,J})^T` are r independent rows I of it, and :math:`\det M_{I,J} \ne 0 \pmod p`.
    Cost: one echelon form of M (the price of one rank computation) and one of an r x m matrix;
    a large integer array with a prime below :math:`2^{26}` takes one float64 BLAS elimination
    instead (:func:`seprank.core.gfp_elimination.eliminate`: its pivot rows and columns, a
    PLUQ's non-zero leading minor).

    Parameters
    ----------
    M : array_like
        Integer residues (any representatives) or an exact rational matrix (its row
        denominators must not be divisible by ``p``).
    p : int
        A prime (checked).

    Returns
    -------
    (tuple of int, tuple of int)
        I and J, increasing, of equal length r.

    Examples
    --------
    >>> nonzero_minor([[1, 2, 3], [2, 4, 6], [1, 0, 1]], 7)
    ((0, 2), (0, 1))
    >>> nonzero_minor([[1, 2], [3, 4]], 2)     # det = -2 vanishes mod 2: rank 1 there
    ((0,), (0,))
    """
    from seprank.core.gfp_elimination import MAX_PRIME as ELIMINATION_MAX_PRIME
    from seprank.core.gfp_elimination import eliminate  # numba: loaded when first used

    p = check_int("p", p, 2)
    if not flint.fmpz(p).is_prime() or p >= 2**64:
        raise ValueError(f"p = {p} is not a prime below 2**64")
    if (isinstance(M, np.ndarray) and M.ndim == 2 and M.dtype.kind in "iu"
            and M.size >= ELIMINATION_MIN_ENTRIES and 3 <= p < ELIMINATION_MAX_PRIME):
        # one float64 BLAS elimination (memory guarded there) gives both sides at once
        e = eliminate(M, p)
        return tuple(sorted(e.pivot_rows)), tuple(sorted(e.pivot_cols))
    E = _residues(M, p)
    m, n = E.shape
    if m == 0 or n == 0:
        return (), ()
    guard_memory(array_bytes((m, n), np.int64) * (1 + RANK_STEP_FACTOR["modular"]),
                 what=f"the echelon forms of a {m:,} x {n:,} matrix mod p",
                 fix="certify a smaller matrix")
    R, rank = _nmod(E, p).rref()
    cols = _pivots(R, rank)
    del R
    if rank == 0:
        return (), ()
    Rt, rank_t = _nmod(np.ascontiguousarray(E[:, cols].T), p).rref()
    if rank_t != rank:  # pragma: no cover - linear algebra
        raise AssertionError("the pivot columns are dependent; please report this")
    rows = _pivots(Rt, rank)
    return tuple(rows), tuple(cols)


def _nmod(E: Any, p: int) -> Any:
    m, n = E.shape
    if m * n <= 1 << 16:
        return flint.nmod_mat(m, n, [int(v) for v in E.ravel().tolist()], p)
    out = flint.nmod_mat(m, n, p)
    for i in range(m):
        for j, v in enumerate(E[i].tolist()):
            if v:
                out[i, j] = int(v)
    return out


def kernel_basis(M: Any) -> list[list[int]]:
    r"""An integer basis of the right kernel :math:`\{v \in \mathbb Q^n : Mv = 0\}` of an exact
    matrix (python-flint ``fmpz_mat.nullspace`` of the row-scaled integer matrix).

    Together with a non-zero r x r minor it proves :math:`\operatorname{rank} M = r`
    (rank-nullity: ``len(basis) = n - r``).

    Parameters
    ----------
    M : array_like
        An exact matrix.

    Returns
    -------
    list of list of int
        The basis vectors.

    Examples
    --------
    >>> kernel_basis([[1, 2, 3], [2, 4, 6]])
    [[2, -1, 0], [3, 0, -1]]
    >>> kernel_basis([[1, 0], [0, 1]])
    []
    """
    exact = as_exact_matrix(M, "M")
    m, n = exact.shape
    if n == 0:
        return []
    guard_memory(array_bytes((max(m, n), n), object) * 3,
                 what=f"the kernel of a {m:,} x {n:,} exact matrix", fix="use a smaller matrix")
    if m == 0:
        return [[int(i == j) for i in range(n)] for j in range(n)]
    X, nullity = exact.integer_matrix.nullspace()
    basis = [[int(X[i, j]) for i in range(n)] for j in range(int(nullity))]
    out = []
    for v in basis:  # divide out the content: smaller certificates
        g = math.gcd(*v)
        out.append([x // g for x in v] if g > 1 else v)
    return out
