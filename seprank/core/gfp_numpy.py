r"""The GF(p) float64 kernels of :mod:`seprank.core.gfp_elimination` in numpy, for installs
without the kernels group (numba, :mod:`seprank.extras`).

Each function does what the compiled kernel of the same name (without ``_numpy``) does, with
the same float64 operations on every entry in the same order -- a product, a difference,
:math:`x - p\,\mathrm{rint}(x/p)` (the compiled kernels use no fast-math, so no fused
multiply-add either) -- hence bit for bit the same arrays, pivots and ranks (tested against
the compiled kernels).  Loops over entries become array operations on row chunks of at most
:data:`CHUNK_ENTRIES` entries, so the temporaries stay small beside the matrix the memory
policy already counted; the panel's and the triangle's loops over pivots stay in Python.

Examples
--------
>>> import numpy as np
>>> def pivots(p):   # of [[2, 1], [3, -2]], determinant -7
...     A = np.array([[2.0, 1.0], [3.0, -2.0]])
...     return panel_numpy(A, np.arange(2), np.arange(2), 0, 0, 2, p)
>>> pivots(5), pivots(7)
(2, 1)
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from seprank.core.types import Array

__all__ = [
    "CHUNK_ENTRIES",
    "fill_signed_numpy",
    "is_balanced_numpy",
    "panel_numpy",
    "rotate_numpy",
    "split_numpy",
    "sub_reduce_numpy",
    "sub_reduce_split_numpy",
    "trsm_small_numpy",
    "widen_numpy",
]

#: Entries per chunk of the element-wise kernels (4 MiB of float64 temporaries).
CHUNK_ENTRIES = 2**19


def _row_chunks(rows: int, cols: int) -> Iterator[slice]:
    step = max(1, CHUNK_ENTRIES // max(1, cols))
    for i0 in range(0, rows, step):
        yield slice(i0, min(rows, i0 + step))


def _reduce(y: Array, fp: float, pinv: float) -> Array:
    """``y - p rint(y / p)`` (balanced), as the compiled kernels compute it."""
    return y - fp * np.rint(y * pinv)


def panel_numpy(A: Array, rows: Array, cols: Array, r: int, c0: int, c1: int, p: int) -> int:
    """Eliminate columns ``c0:c1`` with rows ``r:`` in place; the number of pivots.

    Parameters
    ----------
    A : numpy.ndarray
        Balanced float64 residues (changed in place).
    rows, cols : numpy.ndarray
        The row and column permutations (updated).
    r, c0, c1 : int
        First active row; the panel's columns.
    p : int
        The prime.

    Returns
    -------
    int

    Examples
    --------
    >>> A = np.array([[0.0, 1.0], [0.0, 2.0]])
    >>> panel_numpy(A, np.arange(2), np.arange(2), 0, 0, 2, 5), float(A[1, 0])
    (1, 2.0)
    """
    m = A.shape[0]
    fp = float(p)
    pinv = 1.0 / fp
    half = p // 2
    k = 0
    for c in range(c0, c1):
        row = r + k
        if row >= m:
            break
        nz = np.flatnonzero(A[row:, c])
        if nz.size == 0:
            continue
        piv = row + int(nz[0])
        dst = c0 + k
        if piv != row:
            A[[row, piv]] = A[[piv, row]]
            rows[[row, piv]] = rows[[piv, row]]
        if c != dst:
            A[r:, [c, dst]] = A[r:, [dst, c]]
            cols[[c, dst]] = cols[[dst, c]]
        inv = pow(int(A[row, dst]) % p, -1, p)
        if inv > half:
            inv -= p
        finv = float(inv)
        below = A[row + 1:]
        hit = np.flatnonzero(below[:, dst])  # the compiled loop skips rows with a zero here
        if hit.size:
            x = _reduce(below[hit, dst] * finv, fp, pinv)
            below[hit, dst] = x
            if dst + 1 < c1:
                y = below[hit, dst + 1:c1] - x[:, None] * A[row, dst + 1:c1]
                below[hit, dst + 1:c1] = _reduce(y, fp, pinv)
        k += 1
    return k


def trsm_small_numpy(L: Array, B: Array, p: int) -> None:
    """``B <- L^{-1} B`` mod p for the unit lower triangle of ``L`` (k x k), in place.

    Parameters
    ----------
    L, B : numpy.ndarray
        The triangle (its strict lower part is read) and the right-hand sides.
    p : int
        The prime.

    Examples
    --------
    >>> B = np.array([[1.0], [0.0]])
    >>> trsm_small_numpy(np.array([[1.0, 0.0], [2.0, 1.0]]), B, 7); B.ravel().tolist()
    [1.0, -2.0]
    """
    fp = float(p)
    pinv = 1.0 / fp
    for t in range(1, L.shape[0]):
        for s in range(t):
            x = L[t, s]
            if x == 0.0:
                continue
            B[t] = _reduce(B[t] - x * B[s], fp, pinv)


def sub_reduce_numpy(out: Array, T: Array, p: int) -> None:
    """``out <- reduce(out - T)`` in place.

    Parameters
    ----------
    out, T : numpy.ndarray
        Balanced residues and an exact product (two-dimensional, one shape).
    p : int
        The prime.

    Examples
    --------
    >>> out = np.array([[3.0]]); sub_reduce_numpy(out, np.array([[-1.0]]), 7); out
    array([[-3.]])
    """
    fp = float(p)
    pinv = 1.0 / fp
    for rs in _row_chunks(*out.shape):
        out[rs] = _reduce(out[rs] - T[rs], fp, pinv)


def sub_reduce_split_numpy(out: Array, T_hi: Array, T_lo: Array, s: float, p: int) -> None:
    """``out <- reduce(out - s reduce(T_hi) - reduce(T_lo))`` in place.

    Parameters
    ----------
    out, T_hi, T_lo : numpy.ndarray
        Balanced residues and the two exact products.
    s : float
        The split (a power of two).
    p : int
        The prime.

    Examples
    --------
    >>> out = np.array([[0.0]])
    >>> sub_reduce_split_numpy(out, np.array([[1.0]]), np.array([[1.0]]), 4.0, 7); out
    array([[2.]])
    """
    fp = float(p)
    pinv = 1.0 / fp
    for rs in _row_chunks(*out.shape):
        a = _reduce(T_hi[rs], fp, pinv)
        b = _reduce(T_lo[rs], fp, pinv)
        out[rs] = _reduce(out[rs] - s * a - b, fp, pinv)


def split_numpy(U: Array, s: float, hi: Array, lo: Array) -> None:
    """``U = s hi + lo`` with ``|lo| <= s/2``, into ``hi`` and ``lo``.

    Parameters
    ----------
    U : numpy.ndarray
        Balanced residues.
    s : float
        A power of two.
    hi, lo : numpy.ndarray
        Outputs of ``U``'s shape.

    Examples
    --------
    >>> hi, lo = np.empty((1, 1)), np.empty((1, 1))
    >>> split_numpy(np.array([[11.0]]), 4.0, hi, lo); float(hi[0, 0]), float(lo[0, 0])
    (3.0, -1.0)
    """
    sinv = 1.0 / s
    for rs in _row_chunks(*U.shape):
        q = np.rint(U[rs] * sinv)
        hi[rs] = q
        lo[rs] = U[rs] - s * q


def rotate_numpy(A: Array, cols: Array, r: int, a: int, mid: int, b: int) -> None:
    """Columns ``a:b`` of rows ``r:`` (and ``cols[a:b]``) rotated so that ``mid:b`` come first.

    Parameters
    ----------
    A : numpy.ndarray
        The working matrix.
    cols : numpy.ndarray
        The column permutation.
    r, a, mid, b : int
        First row; the column range and where its second part starts.

    Examples
    --------
    >>> A, cols = np.arange(3.0)[None], np.arange(3)
    >>> rotate_numpy(A, cols, 0, 0, 1, 3); A.tolist(), cols.tolist()
    ([[1.0, 2.0, 0.0]], [1, 2, 0])
    """
    tail = b - mid
    for rs in _row_chunks(A.shape[0] - r, b - a):
        block = A[r + rs.start:r + rs.stop, a:b]
        buf = block.copy()
        block[:, :tail] = buf[:, mid - a:]
        block[:, tail:] = buf[:, :mid - a]
    cbuf = cols[a:b].copy()
    cols[a:a + tail] = cbuf[mid - a:]
    cols[a + tail:b] = cbuf[:mid - a]


def _balanced_ints(v: Array, p: int) -> Array:
    v = np.mod(v.astype(np.int64), np.int64(p))
    v[v > p // 2] -= p
    return v


def fill_signed_numpy(A: Array, X: Array, p: int) -> None:
    """``A <- X mod p`` as balanced residues (``X`` a signed integer array of ``A``'s shape).

    Parameters
    ----------
    A : numpy.ndarray
        float64 output.
    X : numpy.ndarray
        Signed integers.
    p : int
        The prime.

    Examples
    --------
    >>> A = np.empty((1, 3)); fill_signed_numpy(A, np.array([[-1, 6, 7]]), 7); A
    array([[-1., -1.,  0.]])
    """
    for rs in _row_chunks(*X.shape):
        A[rs] = _balanced_ints(X[rs], p)


def is_balanced_numpy(x: Array, p: int) -> bool:
    """Whether every entry of the one-dimensional ``x`` is an integer of magnitude at most
    ``p // 2 + 2``.

    Parameters
    ----------
    x : numpy.ndarray
        One-dimensional float64.
    p : int
        The prime.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_balanced_numpy(np.array([3.0, -5.0]), 7), is_balanced_numpy(np.array([0.5]), 7)
    (True, False)
    """
    h = float(p // 2 + 2)
    for i0 in range(0, x.size, CHUNK_ENTRIES):
        c = x[i0:i0 + CHUNK_ENTRIES]
        if not (np.all(np.abs(c) <= h) and np.all(c == np.rint(c))):
            return False
    return True


def widen_numpy(ints: Array, floats: Array, count: int, p: int) -> None:
    """``floats[i] <- balanced(ints[i])`` for ``i < count``, where ``floats`` is the same memory
    as ``ints`` (2 int32 slots per float64): chunks from the last to the first, each read
    before it is written over int32 slots ``2 i0 .. 2 i1 - 1`` -- all at or above ``i0``, so
    read already (this chunk or a later one).

    Parameters
    ----------
    ints : numpy.ndarray
        One-dimensional int32 (the first ``count`` entries are read).
    floats : numpy.ndarray
        The same memory viewed as float64.
    count : int
        Entries.
    p : int
        The prime.

    Examples
    --------
    >>> g = np.array([1, 6, 0, 0], dtype=np.int32)
    >>> widen_numpy(g, g.view(np.float64), 2, 7); g.view(np.float64).tolist()
    [1.0, -1.0]
    """
    i1 = count
    while i1 > 0:
        i0 = max(0, i1 - CHUNK_ENTRIES)
        floats[i0:i1] = _balanced_ints(ints[i0:i1], p)  # read (a copy), then written
        i1 = i0
