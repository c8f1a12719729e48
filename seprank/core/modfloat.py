r"""Exact GF(p) arithmetic in float64: balanced residues, BLAS products, provable bounds.

A residue :math:`x \in \mathbb Z/p` is stored as the float64 integer :math:`r \equiv x \pmod p`
with :math:`|r| \le h(p) = \lfloor p/2 \rfloor + 2` (*balanced*).  Every float64 integer of
magnitude at most :math:`2^{53}` is exact, so as long as every intermediate value is an integer
of magnitude at most :math:`2^{53} - p`, float64 (and BLAS ``dgemm``, in *any* order of
summation) computes integer arithmetic exactly.  Two facts make that provable:

* a product of two balanced residues is at most :math:`h^2` in magnitude, so a sum of
  :math:`K \le K(p) = \lfloor (2^{53} - p - h) / h^2 \rfloor` such products added to one balanced
  residue stays below :math:`2^{53} - p` -- for every partial sum, whatever the order
  (:func:`max_terms`; :math:`K \ge 31` for :math:`p < 2^{25}`);
* :func:`reduce_balanced` maps an integer :math:`|x| \le 2^{53} - p` to a balanced residue
  exactly: with :math:`q = \mathrm{rint}(x \cdot \mathrm{fl}(1/p))` the computed quotient is
  within :math:`1/2 + 2.0001/p` of :math:`x/p` (two roundings of relative size
  :math:`2^{-53}` on a number below :math:`2^{53}/p`), so :math:`|x - qp| \le p/2 + 2`; and
  :math:`qp` and :math:`x - qp` are integers below :math:`2^{53}`, hence computed exactly.

This is what lets GF(p) matrix products run on BLAS (:func:`matmul_mod`) and the grid
evaluators use fused float64 kernels.  Primes must be below :data:`MAX_PRIME` = :math:`2^{26}`
(so that :math:`K(p) \ge 7`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flint
import numpy as np
import numpy.typing as npt

from seprank.core.gfp_numpy import sub_reduce_numpy
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.rank import RankResult
from seprank.core.results import Certificate
from seprank.core.types import Array
from seprank.core.validation import check_int
from seprank.extras import optional

__all__ = ["MAX_PRIME", "float_rank_mod_p", "from_balanced", "matmul_mod", "max_terms",
           "reduce_balanced", "residue_bound", "to_balanced"]


#: Largest prime (exclusive) for exact float64 arithmetic here.
MAX_PRIME = 2**26
#: Integers of magnitude up to this are exact in float64.
EXACT_FLOAT_INTEGERS = 2**53


def _check_prime(p: Any) -> int:
    p = check_int("p", p, 3)
    if p >= MAX_PRIME:
        raise ValueError(f"exact float64 arithmetic mod p needs p < 2**26, got p = {p}; use "
                         "the int64 ModularDomain operations for larger primes")
    return p


def residue_bound(p: int) -> int:
    """:math:`h(p) = \\lfloor p/2 \\rfloor + 2`: the largest magnitude of a balanced residue.

    Parameters
    ----------
    p : int
        The prime.

    Returns
    -------
    int
        h(p).

    Examples
    --------
    >>> residue_bound(7)
    5
    """
    return _check_prime(p) // 2 + 2


def max_terms(p: int) -> int:
    """:math:`K(p)`: products of balanced residues that one exact float64 sum may hold (module
    docstring).

    Parameters
    ----------
    p : int
        The prime.

    Returns
    -------
    int
        K(p).

    Examples
    --------
    >>> max_terms(2**25 - 39), max_terms(2**24 + 43)
    (32, 127)
    """
    h = residue_bound(p)
    return (EXACT_FLOAT_INTEGERS - p - h) // (h * h)


def to_balanced(x: npt.ArrayLike, p: int) -> Array:
    """Residues (any integers, int64 or Python ints) as balanced float64 residues.

    Parameters
    ----------
    x : array_like
        Integers.
    p : int
        The prime.

    Returns
    -------
    numpy.ndarray
        Balanced float64 residues.

    Examples
    --------
    >>> to_balanced([0, 1, 6, 13, -1], 7)
    array([ 0.,  1., -1., -1., -1.])
    """
    p = _check_prime(p)
    arr = np.asarray(x)
    if arr.dtype.kind not in "iu" and arr.dtype != object:
        raise TypeError(f"residues must be integers, got dtype {arr.dtype}")
    r = np.mod(arr, p).astype(np.int64)
    r[r > p // 2] -= p
    return r.astype(np.float64)


def reduce_balanced(x: Array, p: int, *, out: Array | None = None) -> Array:
    """``x`` (float64 integers of magnitude at most :math:`2^{53} - p`) reduced to balanced
    residues, exactly (module docstring).  ``out=x`` reduces in place.

    Parameters
    ----------
    x : numpy.ndarray
        float64 integers.
    p : int
        The prime.
    out : numpy.ndarray, optional, keyword-only
        Where to write (``out=x``: in place).

    Returns
    -------
    numpy.ndarray
        Balanced residues.

    Examples
    --------
    >>> reduce_balanced(np.array([2.0**52, -10.0, 3.0]), 7)
    array([ 2., -3.,  3.])
    """
    q = np.rint(x * (1.0 / p))
    q *= p
    return np.subtract(x, q, out=out)


def from_balanced(x: Array, p: int) -> Array:
    """Balanced float64 residues as int64 residues in ``[0, p)``.

    Parameters
    ----------
    x : numpy.ndarray
        Balanced float64 residues.
    p : int
        The prime.

    Returns
    -------
    numpy.ndarray
        int64 residues in ``[0, p)``.

    Examples
    --------
    >>> from_balanced(np.array([-1.0, 3.0, 0.0]), 7)
    array([6, 3, 0])
    """
    r = x.astype(np.int64)
    r[r < 0] += p
    return r


def matmul_mod(a: Array, b: Array, p: int) -> Array:
    """``a @ b`` mod p for balanced float64 residues, on BLAS, exactly: the inner dimension is
    cut into chunks of :func:`max_terms` and the sum reduced after each chunk.

    Parameters
    ----------
    a, b : numpy.ndarray
        Balanced float64 residues with matching inner dimensions.
    p : int
        The prime (< 2**26).

    Returns
    -------
    numpy.ndarray
        ``a @ b`` as balanced residues.

    Examples
    --------
    >>> p = 16777259
    >>> rng = np.random.default_rng(0)
    >>> A, B = rng.integers(0, p, (2, 40, 40))
    >>> exact = (A.astype(object) @ B.astype(object)) % p
    >>> got = from_balanced(matmul_mod(to_balanced(A, p), to_balanced(B, p), p), p)
    >>> bool(np.all(got == exact))
    True
    """
    p = _check_prime(p)
    k = a.shape[-1]
    if b.shape[-2] != k:
        raise ValueError(f"matmul shapes {a.shape} and {b.shape} do not align")
    guard_memory(2 * array_bytes((*a.shape[:-1], b.shape[-1]), np.float64),
                 what=f"a {a.shape} @ {b.shape} product mod p", fix="multiply in blocks")
    step = max_terms(p)
    out = reduce_balanced(a[..., :step] @ b[..., :step, :], p)
    for start in range(step, k, step):
        out += a[..., start:start + step] @ b[..., start:start + step, :]
        reduce_balanced(out, p, out=out)
    return out


def float_rank_mod_p(M: npt.ArrayLike, p: int) -> RankResult:
    r"""Rank over GF(p) (:math:`p < 2^{26}`) by blocked Gaussian elimination on BLAS, exactly.

    Right-looking blocked LU with row pivoting: a panel of :func:`max_terms` columns is
    eliminated column by column (any nonzero pivot; a column without one is dependent and
    skipped), its pivot rows' trailing part is solved against the panel's unit lower triangle,
    and the trailing matrix is updated by one ``dgemm`` whose inner dimension (the panel's
    pivots) is at most :math:`K(p)` -- so every value stays an integer below :math:`2^{53}-p`
    and float64 computes it exactly (module docstring); each step is reduced to balanced
    residues.  Same answer as flint's ``nmod_mat.rank`` (tested), several times faster on large
    matrices (one BLAS product per panel instead of flint's generic elimination, and no
    entry-by-entry conversion to an ``nmod_mat``).

    ``details`` holds ``pivot_rows`` and ``pivot_cols``: the ``rank x rank`` minor on those
    rows and columns of ``M`` is nonzero mod p (a witness of the rank).

    Parameters
    ----------
    M : array_like
        Integer residues (any representatives) or balanced float64 residues.
    p : int
        A prime below :math:`2^{26}`.

    Returns
    -------
    RankResult
        The rank over GF(p), with the pivot rows and columns in ``details``.

    Examples
    --------
    >>> float_rank_mod_p([[1, 2], [2, 1]], 3).rank   # det = -3 vanishes mod 3
    1
    >>> r = float_rank_mod_p(np.outer([1, 2, 3], [4, 5, 6]) + np.eye(3, dtype=int), 7)
    >>> r.rank, r.certifies
    (3, 'exact')
    """
    p = _check_prime(p)
    if not flint.fmpz(p).is_prime():
        raise ValueError(f"p = {p} is not prime")
    arr = np.asarray(M)
    if arr.ndim != 2:
        raise ValueError(f"M must be a 2-D matrix, got shape {arr.shape}")
    guard_memory(2.5 * array_bytes(arr.shape, np.float64),
                 what=f"the {arr.shape[0]:,} x {arr.shape[1]:,} rank step mod p",
                 fix="use a smaller matrix")
    if arr.dtype == np.float64:
        h = residue_bound(p)
        if arr.size and (not np.all(np.abs(arr) <= h) or not np.all(np.rint(arr) == arr)):
            raise ValueError("float input must be balanced residues: integers of magnitude "
                             f"<= {h}")
        A = np.array(arr, dtype=np.float64, order="C")
    else:
        A = to_balanced(arr, p)
    rank, rows, cols = _eliminate(A, p)
    m, n = arr.shape
    certifies: Certificate = "exact" if rank == min(m, n) else "lower_bound"
    return RankResult(rank, "modular", certifies, {
        "primes": (p,), "ranks_per_prime": (rank,), "shape": (m, n), "pivot_rows": rows,
        "pivot_cols": cols, "algorithm": "blocked LU in float64 on BLAS (seprank.core.modfloat)"})


def _subtract_reduce_loop(out: Array, tmp: Array, p: float) -> None:  # pragma: no cover
    """``out <- reduce(out - tmp)`` in one pass (both balanced-bounded as in the docstring)."""
    pinv = 1.0 / p
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            x = out[i, j] - tmp[i, j]
            out[i, j] = x - p * np.rint(x * pinv)


#: numba (the kernels group, :mod:`seprank.extras`) or None.
_nb = optional("numba")
#: The loop compiled, or its numpy twin (the same float64 operations per entry).
_subtract_reduce: Callable[[Array, Array, float], None] = (
    _nb.njit(cache=True)(_subtract_reduce_loop) if _nb is not None
    else lambda out, tmp, p: sub_reduce_numpy(out, tmp, int(p)))


#: Columns eliminated one by one at the leaves of the recursion.
_BASE_COLUMNS = 16
#: Bytes of one column strip of a trailing update.
_STRIP_BYTES = 32 * 2**20


def _sub_product(out: Array, L: Array, U: Array, p: int, K: int) -> None:
    """``out -= L @ U`` mod p in place (balanced), inner dimension in chunks of ``K`` with a
    reduction after each (so every value stays below 2**53 - p), in column strips."""
    if L.shape[1] == 0 or out.size == 0:
        return
    step = max(1, _STRIP_BYTES // max(1, 8 * out.shape[0]))
    for s0 in range(0, out.shape[1], step):
        strip = out[:, s0:s0 + step]
        tmp = np.empty(strip.shape)
        for k0 in range(0, L.shape[1], K):
            np.matmul(L[:, k0:k0 + K], U[k0:k0 + K, s0:s0 + step], out=tmp)
            _subtract_reduce(strip, tmp, float(p))


def _eliminate(A: Array, p: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Recursive LU of A (balanced residues, in place) with full-row swaps, skipping columns
    without a pivot: rank, pivot rows (original indices), pivot columns.  The multipliers are
    stored below each pivot (LAPACK's layout); swaps move whole rows, multipliers included."""
    m, n = A.shape
    perm = np.arange(m)
    K = max_terms(p)
    pivots: list[int] = []

    def base(r: int, c0: int, c1: int) -> int:
        k = 0
        for c in range(c0, c1):
            if r + k >= m:
                break
            nz = np.flatnonzero(A[r + k:, c])
            if nz.size == 0:
                continue
            i = r + k + int(nz[0])
            if i != r + k:
                A[[r + k, i]] = A[[i, r + k]]
                perm[[r + k, i]] = perm[[i, r + k]]
            inv = pow(int(A[r + k, c]) % p, -1, p)
            below = A[r + k + 1:, c]
            reduce_balanced(below * float(inv if inv <= p // 2 else inv - p), p, out=below)
            if c + 1 < c1:
                rest = A[r + k + 1:, c + 1:c1]
                rest -= np.outer(below, A[r + k, c + 1:c1])
                reduce_balanced(rest, p, out=rest)
            pivots.append(c)
            k += 1
        return k

    def solve_unit_lower(L: Array, B: Array) -> None:
        """B <- L^{-1} B for unit lower triangular L (k x k), in place, blocks of K rows."""
        k = L.shape[0]
        for t0 in range(0, k, K):
            t1 = min(k, t0 + K)
            _sub_product(B[t0:t1], L[t0:t1, :t0], B[:t0], p, K)
            for t in range(t0 + 1, t1):
                B[t] -= L[t, t0:t] @ B[t0:t]
                reduce_balanced(B[t], p, out=B[t])

    def rec(r: int, c0: int, c1: int) -> int:
        if r >= m or c0 >= c1:
            return 0
        if c1 - c0 <= _BASE_COLUMNS:
            return base(r, c0, c1)
        mid = (c0 + c1) // 2
        k1 = rec(r, c0, mid)
        if k1:
            cols = pivots[-k1:]
            solve_unit_lower(A[r:r + k1][:, cols], A[r:r + k1, mid:c1])
            _sub_product(A[r + k1:, mid:c1], np.ascontiguousarray(A[r + k1:][:, cols]),
                         A[r:r + k1, mid:c1], p, K)
        return k1 + rec(r + k1, mid, c1)

    rank = rec(0, 0, n)
    return rank, tuple(int(x) for x in perm[:rank]), tuple(pivots)
