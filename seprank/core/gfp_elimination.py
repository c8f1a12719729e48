r"""GF(p) rank by recursive elimination on float64 BLAS with delayed modular reduction.

The rank step of the separation-rank engines: the rank over :math:`GF(p)`,
:math:`3 \le p < 2^{26}`, of an integer matrix, by a recursive LU decomposition with row and
column pivoting (a PLUQ, Dumas--Giorgi--Pernet) whose block products are float64 matrix
products (``@``, i.e. BLAS ``dgemm`` on every core) on residues held exactly as float64
integers.  Simplest interface: :func:`eliminate` (rank and a witness minor) and
:func:`elimination_bytes` (its peak memory, for the memory policy).

Notation and exactness.  A residue is stored *balanced*: the float64 integer
:math:`r \equiv x \pmod p` with :math:`|r| \le h = \lfloor p/2 \rfloor + 2`
(:mod:`seprank.core.modfloat`, which proves that :math:`x - p\,\mathrm{rint}(x/p)` reduces any
integer :math:`|x| \le 2^{53} - p` exactly).  Every float64 integer of magnitude below
:math:`2^{53}` is exact, so a product ``L @ U`` of balanced residues with inner dimension
:math:`k` is computed exactly by BLAS, in *any* summation order, while :math:`k h^2 + h <
2^{53}` -- the reduction is *delayed* to the end of the product.  For the engines' 25-bit
primes that allows only :math:`k \le 31` to :math:`127`; a longer product splits the right
operand,
:math:`U = s\,U_{hi} + U_{lo}` with :math:`s = 2^{\lceil \log_2 h / 2\rceil}`, so each of the
two products has terms below :math:`h (h/s + 1)` and :math:`k` up to :math:`2^{17}` or more
(:func:`product_terms`).  Two ``dgemm`` of the inner dimension cost less than :math:`k/32`
memory-bound rank-32 updates each followed by a reduction pass.

Algorithm.  ``rec(r, c0, c1)`` eliminates columns ``c0:c1`` using rows ``r:``: it halves the
columns, eliminates the left half, solves the pivot rows' right part against the left half's
unit lower triangle (recursive ``trsm``), subtracts ``L21 @ U12`` from the trailing block
(column strips of bounded size, one fused reduction per strip), and eliminates the right
half; a column without a pivot is dependent and moves behind the pivots.  Panels of at most
:data:`PANEL_COLUMNS` columns are eliminated by a compiled kernel.  Everything happens in
place on ONE float64 copy of the matrix (8 bytes per entry) plus strips of at most
:data:`STRIP_BYTES`; the input is converted to it in row chunks, so an int32 grid can be
released by the caller as soon as :func:`eliminate` has made its copy (``release=``).

Choice of prime.  The engines draw a random 25-bit prime,
:math:`2^{24} \le p < 2^{25}` (:data:`seprank.core.domains.SMALL_PRIME_BITS`), unchanged by
this module: their fused GF(p) kernels (:mod:`seprank.core.modfloat`, the in-context kernels)
need :math:`p < 2^{26}`, and every certified value and engine fingerprint stays as it was.
What a smaller or larger prime would trade, quantified by Schwartz--Zippel: an :math:`r \times
r` minor of a grid whose entries are polynomials of degree at most :math:`d` in the random
template coordinates is a polynomial of degree :math:`D \le r d`; if it is not identically zero
mod p it vanishes at a uniformly random point with probability at most :math:`D / p`.  For the
largest frontier block, :math:`r = 27{,}132` ((7, 3)), that is :math:`\le 1.6\,d \cdot
10^{-3}` for one fixed minor at :math:`p \ge 2^{24}`; a grid with the engine's
``BLOCK_MARGIN`` spare rows and columns falls short only if *every* :math:`r \times r` minor
vanishes, and then the growth loop adds a round.  A 20-bit prime would let the products run
without the split (about half the multiply-adds: :func:`product_terms` gives :math:`2^{15}`
direct terms) at 16x the bound; a 62-bit prime would make the bound negligible
(:math:`r d / 2^{61}`) but has no float64 elimination here (python-flint, 3.7--4x one dgemm
measured).  Whatever the prime, a GF(p) rank never exceeds the rank it bounds, so a
shortfall can only lower the certified value, never raise it: the value stays a certified
lower bound in every case.

Safety.  Pure numpy and numba (or numpy alone without the kernels group:
:mod:`seprank.core.gfp_numpy`, the same results): nothing can abort the interpreter.  The prime is
validated (a prime :math:`3 \le p < 2^{26}`), the memory is estimated and refused by
:func:`seprank.core.memory.guard_memory` *before* the copy, and concurrent calls from several
threads are serialised by one lock (each call already uses every core through BLAS, so
nothing is lost; the lock also keeps a call's ``threads=`` BLAS setting from leaking into
another's).

Backend seam.  The elimination touches its arrays only through :class:`NumpyBackend`
(``empty``, ``matmul``, the fused ``sub_reduce`` / ``sub_reduce_split`` / ``split``, the
panel, ``trsm`` and column-rotation kernels).  An accelerator backend (cupy) is one more class
with these methods; no GPU code is written here.

The result is the rank over GF(p); :func:`seprank.core.rank.rank_mod_p` turns it into a
certified lower bound on the rank over Q of the matrix the residues reduce.

References
----------
.. [1] J.-G. Dumas, P. Giorgi, C. Pernet, "Dense linear algebra over word-size prime fields:
   the FFLAS and FFPACK packages", ACM TOMS 35 (2008).
.. [2] J.-G. Dumas, C. Pernet, Z. Sultan, "Simultaneous computation of the row and column rank
   profiles", ISSAC 2013 (the recursive PLUQ).

Examples
--------
>>> import numpy as np
>>> e = eliminate(np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]]), 7)
>>> e.rank, sorted(e.pivot_rows), sorted(e.pivot_cols)
(2, [0, 2], [0, 1])
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

import flint
import numpy as np

from seprank.core import gfp_numpy
from seprank.core.cluster import available_cores
from seprank.core.memory import guard_memory
from seprank.core.random import factorization
from seprank.core.types import Array
from seprank.extras import optional

__all__ = [
    "MAX_PRIME",
    "PANEL_COLUMNS",
    "STRIP_BYTES",
    "Elimination",
    "NumpyBackend",
    "check_prime",
    "check_threads",
    "eliminate",
    "elimination_bytes",
    "product_terms",
    "widen_in_place",
]

#: Largest prime (exclusive): balanced products :math:`h^2 < 2^{50}` stay exact in float64.
MAX_PRIME = 2**26
#: Columns eliminated by the compiled panel kernel at the leaves of the recursion.
PANEL_COLUMNS = 32
#: Bytes of one strip temporary of a trailing update (the elimination holds at most four).
STRIP_BYTES = 32 * 2**20
#: Float64 integers of magnitude up to this are exact.
_EXACT = 2**53
#: Rows converted from the input per chunk (bounds the conversion's temporaries).
_CHUNK_ENTRIES = 1 << 20

#: One elimination at a time in this process (module docstring, "Safety").
_LOCK = threading.Lock()


def check_prime(p: Any) -> int:
    """``p`` as an int when it is a prime with :math:`3 \\le p <` :data:`MAX_PRIME`.

    Parameters
    ----------
    p : int
        The modulus.

    Returns
    -------
    int
        ``p``.

    Raises
    ------
    TypeError
        ``p`` is not an integer.
    ValueError
        ``p`` is out of range or composite (the message names it).

    Examples
    --------
    >>> check_prime(16777259)
    16777259
    >>> check_prime(15)
    Traceback (most recent call last):
    ...
    ValueError: p = 15 is not prime (15 = 3 * 5); GF(p) needs a prime modulus
    """
    if isinstance(p, bool) or not isinstance(p, int | np.integer):
        raise TypeError(f"p must be an integer prime, got {p!r} ({type(p).__name__})")
    p = int(p)
    if not 3 <= p < MAX_PRIME:
        raise ValueError(f"p = {p} is out of range: the float64 elimination needs a prime "
                         f"3 <= p < 2**26; use seprank.rank_mod_p for other primes")
    if not flint.fmpz(p).is_prime():
        raise ValueError(f"p = {p} is not prime ({p} = {factorization(p)}); GF(p) needs a "
                         "prime modulus")
    return p


def check_threads(threads: Any) -> int | None:
    """``threads=`` validated: None (BLAS's own setting) or 1 to the available cores.

    Parameters
    ----------
    threads : int or None
        BLAS threads for the elimination.

    Returns
    -------
    int or None
        ``threads``.

    Raises
    ------
    ValueError
        Not an integer from 1 to :func:`seprank.core.cluster.available_cores`.

    Examples
    --------
    >>> check_threads(None) is None, check_threads(1)
    (True, 1)
    """
    if threads is None:
        return None
    cores = available_cores()
    if isinstance(threads, bool) or not isinstance(threads, int | np.integer) \
            or not 1 <= int(threads) <= cores:
        raise ValueError(f"threads={threads!r}: give a number of BLAS threads from 1 to the "
                         f"{cores} available core(s), or None for BLAS's own setting")
    return int(threads)


def _bound(p: int) -> int:
    return p // 2 + 2


def _split_base(p: int) -> int:
    """The split :math:`s = 2^{\\lceil \\log_2 h / 2 \\rceil}` of the right operand."""
    return 1 << ((_bound(p).bit_length() + 1) // 2)


def product_terms(p: int) -> tuple[int, int]:
    """How many products one exact float64 sum may hold: ``(direct, split)``.

    ``direct``: terms :math:`|l u| \\le h^2` (balanced operands), so that ``direct * h**2 + h``
    stays below :math:`2^{53}`; ``split``: terms :math:`|l u| \\le h (h/s + 1)` with the right
    operand split at :math:`s` (module docstring).

    Parameters
    ----------
    p : int
        A prime :math:`3 \\le p < 2^{26}`.

    Returns
    -------
    tuple of int
        ``(direct, split)``.

    Examples
    --------
    >>> product_terms(16777259)    # a 25-bit prime of the engines, near 2**24
    (127, 524030)
    >>> product_terms(7)[0] > 10**14
    True
    """
    p = check_prime(p)
    h = _bound(p)
    s = _split_base(p)
    term = h * max(s // 2, h // s + 1)
    return (_EXACT - 2 * h) // (h * h), (_EXACT - 2 * h) // term


def elimination_bytes(m: int, n: int) -> int:
    """Peak bytes :func:`eliminate` allocates for an ``m x n`` matrix (beyond the input).

    The float64 copy (8 bytes per entry), four strip buffers (two products, the split right
    operand; each at most :data:`STRIP_BYTES`, a panel-wide strip, or the matrix's size) and
    the permutations.

    Parameters
    ----------
    m, n : int
        The shape.

    Returns
    -------
    int
        Bytes.

    Examples
    --------
    >>> elimination_bytes(1000, 1000) >= 8 * 10**6
    True
    """
    m, n = max(0, int(m)), max(0, int(n))
    return 8 * m * n + (4 * _strip_bytes(m, n) if m and n else 0) + 16 * (m + n)


def _strip_bytes(m: int, n: int) -> int:
    """Bytes of one work buffer: a strip of a trailing update (rows x width, width at least
    :data:`PANEL_COLUMNS`) or of the split right operand -- never more than the matrix."""
    return min(max(STRIP_BYTES, 8 * max(m, n) * PANEL_COLUMNS), 8 * m * n)


@dataclass(frozen=True)
class Elimination:
    """The rank over GF(p) and a witness: the ``rank x rank`` minor of the input on
    ``pivot_rows`` and ``pivot_cols`` is non-zero modulo p.

    Attributes
    ----------
    rank : int
        The rank over GF(p).
    pivot_rows, pivot_cols : tuple of int
        Rows and columns of a non-zero minor (in pivot order, not sorted).
    p : int
        The prime.
    shape : tuple of int
        The input's shape.
    """

    rank: int
    pivot_rows: tuple[int, ...]
    pivot_cols: tuple[int, ...]
    p: int
    shape: tuple[int, int]


# ----------------------------------------------------------------------------- kernels

#: numba, or None without the kernels group: then each kernel below is its numpy twin in
#: :mod:`seprank.core.gfp_numpy` (the same float64 operations per entry: the same results).
nb = optional("numba")


def _compiled(numpy_twin: Callable[..., Any] | None) -> Callable[[Callable[..., Any]],
                                                                 Callable[..., Any]]:
    """The kernel compiled by numba, or ``numpy_twin`` (the kernel itself, uncompiled, for
    None) without the kernels group."""
    def wrap(kernel: Callable[..., Any]) -> Callable[..., Any]:
        if nb is None:
            return numpy_twin if numpy_twin is not None else kernel
        return nb.njit(cache=True, nogil=True)(kernel)
    return wrap


@_compiled(None)
def _inverse(a: int, p: int) -> int:  # pragma: no cover - compiled
    """The inverse of ``a`` (not divisible by p) modulo the prime p (extended Euclid)."""
    t, new_t, r, new_r = 0, 1, p, a % p
    while new_r != 0:
        q = r // new_r
        t, new_t = new_t, t - q * new_t
        r, new_r = new_r, r - q * new_r
    return t % p


@_compiled(gfp_numpy.panel_numpy)
def _panel(A: Array, rows: Array, cols: Array, r: int, c0: int, c1: int,
           p: int) -> int:  # pragma: no cover - compiled
    """Eliminate columns c0:c1 of A with rows r: (balanced residues, in place): pivots moved to
    columns c0, c0+1, ... and rows r, r+1, ...; multipliers stored below each pivot.  Row
    swaps move whole rows; column swaps rows r: (the rows above are finished).  Returns the
    number of pivots."""
    m, n = A.shape
    fp = float(p)
    pinv = 1.0 / fp
    half = p // 2
    k = 0
    for c in range(c0, c1):
        row = r + k
        if row >= m:
            break
        piv = -1
        for i in range(row, m):
            if A[i, c] != 0.0:
                piv = i
                break
        if piv < 0:
            continue
        dst = c0 + k
        if piv != row:
            for j in range(n):
                A[row, j], A[piv, j] = A[piv, j], A[row, j]
            rows[row], rows[piv] = rows[piv], rows[row]
        if c != dst:
            for i in range(r, m):
                A[i, c], A[i, dst] = A[i, dst], A[i, c]
            cols[c], cols[dst] = cols[dst], cols[c]
        a = int(A[row, dst])
        inv = _inverse(a % p, p)
        if inv > half:
            inv -= p
        finv = float(inv)
        for i in range(row + 1, m):
            x = A[i, dst]
            if x == 0.0:
                continue
            x = x * finv
            x -= fp * np.rint(x * pinv)
            A[i, dst] = x
            for j in range(dst + 1, c1):
                y = A[i, j] - x * A[row, j]
                A[i, j] = y - fp * np.rint(y * pinv)
        k += 1
    return k


@_compiled(gfp_numpy.trsm_small_numpy)
def _trsm_small(L: Array, B: Array, p: int) -> None:  # pragma: no cover - compiled
    """B <- L^{-1} B mod p for the unit lower triangle of L (k x k), in place."""
    fp = float(p)
    pinv = 1.0 / fp
    k = L.shape[0]
    for t in range(1, k):
        for s in range(t):
            x = L[t, s]
            if x == 0.0:
                continue
            for j in range(B.shape[1]):
                y = B[t, j] - x * B[s, j]
                B[t, j] = y - fp * np.rint(y * pinv)


@_compiled(gfp_numpy.sub_reduce_numpy)
def _sub_reduce(out: Array, T: Array, p: int) -> None:  # pragma: no cover - compiled
    """out <- reduce(out - T); |T| <= 2**53 - 2h."""
    fp = float(p)
    pinv = 1.0 / fp
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            y = out[i, j] - T[i, j]
            out[i, j] = y - fp * np.rint(y * pinv)


@_compiled(gfp_numpy.sub_reduce_split_numpy)
def _sub_reduce_split(out: Array, T_hi: Array, T_lo: Array, s: float,
                      p: int) -> None:  # pragma: no cover - compiled
    """out <- reduce(out - s * reduce(T_hi) - reduce(T_lo)); every value below 2**53."""
    fp = float(p)
    pinv = 1.0 / fp
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            a = T_hi[i, j]
            a -= fp * np.rint(a * pinv)
            b = T_lo[i, j]
            b -= fp * np.rint(b * pinv)
            y = out[i, j] - s * a - b
            out[i, j] = y - fp * np.rint(y * pinv)


@_compiled(gfp_numpy.split_numpy)
def _split(U: Array, s: float, hi: Array, lo: Array) -> None:  # pragma: no cover - compiled
    """U = s * hi + lo with |lo| <= s/2 (exact: s is a power of two)."""
    sinv = 1.0 / s
    for i in range(U.shape[0]):
        for j in range(U.shape[1]):
            q = np.rint(U[i, j] * sinv)
            hi[i, j] = q
            lo[i, j] = U[i, j] - s * q


@_compiled(gfp_numpy.rotate_numpy)
def _rotate(A: Array, cols: Array, r: int, a: int, mid: int,
            b: int) -> None:  # pragma: no cover - compiled
    """Columns a:b of rows r: (and ``cols[a:b]``) rotated so that mid:b come first."""
    width = b - a
    head = mid - a
    buf = np.empty(width)
    for i in range(r, A.shape[0]):
        for j in range(width):
            buf[j] = A[i, a + j]
        for j in range(b - mid):
            A[i, a + j] = buf[head + j]
        for j in range(head):
            A[i, a + (b - mid) + j] = buf[j]
    cbuf = cols[a:b].copy()
    for j in range(b - mid):
        cols[a + j] = cbuf[head + j]
    for j in range(head):
        cols[a + (b - mid) + j] = cbuf[j]


@_compiled(gfp_numpy.fill_signed_numpy)
def _fill_signed(A: Array, X: Array, p: int) -> None:  # pragma: no cover - compiled
    """A <- X mod p as balanced residues (X a signed integer array of A's shape)."""
    half = p // 2
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            v = np.int64(X[i, j]) % p
            if v > half:
                v -= p
            A[i, j] = v


class NumpyBackend:
    """The array operations of the elimination, on numpy (BLAS) and numba (module docstring:
    the seam for an accelerator backend).

    Examples
    --------
    >>> NumpyBackend().empty((2, 3)).shape
    (2, 3)
    """

    name = "numpy"

    def empty(self, shape: tuple[int, ...]) -> Array:
        """An uninitialised float64 array.

        Parameters
        ----------
        shape : tuple of int
            The shape.

        Returns
        -------
        numpy.ndarray
            The array.
        """
        return np.empty(shape, dtype=np.float64)

    def matmul(self, a: Array, b: Array, out: Array) -> Array:
        """``out <- a @ b`` in float64 (BLAS).

        Parameters
        ----------
        a, b : numpy.ndarray
            The factors.
        out : numpy.ndarray
            Where to write (C-contiguous).

        Returns
        -------
        numpy.ndarray
            ``out``.
        """
        return np.matmul(a, b, out=out)

    def sub_reduce(self, out: Array, T: Array, p: int) -> None:
        """``out <- (out - T) mod p`` (balanced), in place.

        Parameters
        ----------
        out, T : numpy.ndarray
            Balanced residues and an exact product.
        p : int
            The prime.
        """
        _sub_reduce(out, T, p)

    def sub_reduce_split(self, out: Array, T_hi: Array, T_lo: Array, s: int, p: int) -> None:
        """``out <- (out - s T_hi - T_lo) mod p`` (balanced), in place.

        Parameters
        ----------
        out, T_hi, T_lo : numpy.ndarray
            Balanced residues and the two exact products.
        s : int
            The split.
        p : int
            The prime.
        """
        _sub_reduce_split(out, T_hi, T_lo, float(s), p)

    def split(self, U: Array, s: int, hi: Array, lo: Array) -> None:
        """``U = s * hi + lo`` with ``|lo| <= s/2``, into ``hi`` and ``lo``.

        Parameters
        ----------
        U : numpy.ndarray
            Balanced residues.
        s : int
            A power of two.
        hi, lo : numpy.ndarray
            Outputs of U's shape.
        """
        _split(U, float(s), hi, lo)

    def panel(self, A: Array, rows: Array, cols: Array, r: int, c0: int, c1: int,
              p: int) -> int:
        """Eliminate a panel of columns in place (compiled); returns its pivots.

        Parameters
        ----------
        A : numpy.ndarray
            The working matrix.
        rows, cols : numpy.ndarray
            The row and column permutations (updated).
        r, c0, c1 : int
            First active row; the panel's columns ``c0:c1``.
        p : int
            The prime.

        Returns
        -------
        int
            The number of pivots found.
        """
        return int(_panel(A, rows, cols, r, c0, c1, p))

    def trsm_small(self, L: Array, B: Array, p: int) -> None:
        """``B <- L^{-1} B`` mod p for a small unit lower triangle, in place.

        Parameters
        ----------
        L, B : numpy.ndarray
            The triangle (its strict lower part is read) and the right-hand sides.
        p : int
            The prime.
        """
        _trsm_small(L, B, p)

    def rotate(self, A: Array, cols: Array, r: int, a: int, mid: int, b: int) -> None:
        """Rotate columns ``a:b`` of rows ``r:`` so that ``mid:b`` come first.

        Parameters
        ----------
        A : numpy.ndarray
            The working matrix.
        cols : numpy.ndarray
            The column permutation (rotated alike).
        r, a, mid, b : int
            First row; the column range and where its second part starts.
        """
        _rotate(A, cols, r, a, mid, b)


# ----------------------------------------------------------------------------- elimination

class _Eliminator:
    def __init__(self, A: Array, p: int, backend: NumpyBackend) -> None:
        self.A, self.p, self.be = A, p, backend
        m, n = A.shape
        self.rows = np.arange(m, dtype=np.int64)
        self.cols = np.arange(n, dtype=np.int64)
        self.direct, self.split_terms = product_terms(p)
        self.s = _split_base(p)
        self.capacity = _strip_bytes(m, n) // 8
        self.buffers: list[Array | None] = [None] * 4

    def buffer(self, i: int, rows: int, cols: int) -> Array:
        """Work buffer ``i`` (0..3) as a C-contiguous ``rows x cols`` array: allocated once per
        elimination at the largest size a strip needs, so the strips touch warm pages."""
        if self.buffers[i] is None:
            self.buffers[i] = self.be.empty((self.capacity,))
        flat = self.buffers[i]
        assert flat is not None and rows * cols <= self.capacity
        return flat[:rows * cols].reshape(rows, cols)

    def sub_product(self, out: Array, L: Array, U: Array) -> None:
        """out <- (out - L @ U) mod p, exactly, in column strips."""
        k = L.shape[1]
        if k == 0 or out.size == 0:
            return
        be, p = self.be, self.p
        rows, ncols = out.shape
        width = min(ncols, max(PANEL_COLUMNS, STRIP_BYTES // (8 * max(rows, k))))
        if k <= self.direct:
            for j0 in range(0, ncols, width):
                j1 = min(ncols, j0 + width)
                t = self.buffer(0, rows, j1 - j0)
                be.matmul(L, U[:, j0:j1], out=t)
                be.sub_reduce(out[:, j0:j1], t, p)
            return
        for j0 in range(0, ncols, width):
            j1 = min(ncols, j0 + width)
            for k0 in range(0, k, self.split_terms):
                k1 = min(k, k0 + self.split_terms)
                h, lw = self.buffer(2, k1 - k0, j1 - j0), self.buffer(3, k1 - k0, j1 - j0)
                be.split(U[k0:k1, j0:j1], self.s, h, lw)
                t, t2 = self.buffer(0, rows, j1 - j0), self.buffer(1, rows, j1 - j0)
                be.matmul(L[:, k0:k1], h, out=t)
                be.matmul(L[:, k0:k1], lw, out=t2)
                be.sub_reduce_split(out[:, j0:j1], t, t2, self.s, p)

    def trsm(self, r: int, c0: int, k: int, B: Array) -> None:
        """B <- L^{-1} B for L the unit lower triangle A[r:r+k, c0:c0+k]."""
        if k <= PANEL_COLUMNS:
            self.be.trsm_small(self.A[r:r + k, c0:c0 + k], B, self.p)
            return
        ka = k // 2
        self.trsm(r, c0, ka, B[:ka])
        self.sub_product(B[ka:], self.A[r + ka:r + k, c0:c0 + ka], B[:ka])
        self.trsm(r + ka, c0 + ka, k - ka, B[ka:])

    def rec(self, r: int, c0: int, c1: int) -> int:
        A = self.A
        m = A.shape[0]
        if r >= m or c0 >= c1:
            return 0
        if c1 - c0 <= PANEL_COLUMNS:
            return self.be.panel(A, self.rows, self.cols, r, c0, c1, self.p)
        half = (c1 - c0) // 2
        mid = c0 + max(PANEL_COLUMNS, half - half % PANEL_COLUMNS)
        k1 = self.rec(r, c0, mid)
        if k1:
            U12 = A[r:r + k1, mid:c1]
            self.trsm(r, c0, k1, U12)
            self.sub_product(A[r + k1:, mid:c1], A[r + k1:, c0:c0 + k1], U12)
        k2 = self.rec(r + k1, mid, c1)
        if k2 and c0 + k1 < mid:  # pivots contiguous: the left half's dependent columns last
            self.be.rotate(A, self.cols, r, c0 + k1, mid, mid + k2)
        return k1 + k2


@contextmanager
def _blas_threads(threads: int | None) -> Iterator[None]:
    if threads is None:
        yield
        return
    from threadpoolctl import threadpool_limits
    with threadpool_limits(limits=threads, user_api="blas"):
        yield


def _fill(A: Array, residues: Any, p: int) -> None:
    """A <- residues as balanced float64, in row chunks (bounded temporaries)."""
    if residues.dtype.kind == "i":
        _fill_signed(A, residues, p)
        return
    m, n = A.shape
    step = max(1, _CHUNK_ENTRIES // max(1, n))
    half = p // 2
    for i0 in range(0, m, step):
        block = np.asarray(residues[i0:i0 + step])
        if block.dtype == object:
            chunk = np.mod(block, p).astype(np.int64)
        elif block.dtype.kind == "u":
            chunk = np.mod(block.astype(np.uint64), np.uint64(p)).astype(np.int64)
        else:
            chunk = np.mod(block.astype(np.int64), np.int64(p))
        chunk[chunk > half] -= p
        A[i0:i0 + step] = chunk


def eliminate(residues: Any, p: int, *, threads: int | None = None,
              max_bytes: int | None = None, release: Any = None, overwrite: bool = False,
              backend: NumpyBackend | None = None) -> Elimination:
    """Rank over GF(p) of an integer matrix and a non-zero minor, on float64 BLAS.

    Parameters
    ----------
    residues : numpy.ndarray
        A two-dimensional integer array (any representatives; any layout, broadcast views
        included) or an object array of Python ints; with ``overwrite=True``, a C-contiguous
        float64 array of balanced residues (:func:`widen_in_place`), eliminated in place
        (destroyed; no copy is made).
    p : int
        A prime :math:`3 \\le p < 2^{26}` (:func:`check_prime`).
    threads : int, optional, keyword-only
        BLAS threads for the products (1 to the available cores); default BLAS's own setting
        (every core).
    max_bytes : int, optional, keyword-only
        Memory limit for the elimination's own arrays; default the process limit
        (:func:`seprank.core.memory.get_memory_limit`).  Checked before anything is allocated.
    overwrite : bool, keyword-only
        Eliminate a float64 array of balanced residues in place (checked to be balanced
        integers first).
    release : callable, optional, keyword-only
        Called once the float64 copy is made (the caller drops its own reference to the
        input there, e.g. an int32 grid, so that the two are not held at once).
    backend : NumpyBackend, optional, keyword-only
        The array backend (default numpy).

    Returns
    -------
    Elimination
        The rank and the pivot rows and columns of a non-zero minor.

    Raises
    ------
    MemoryBudgetError
        The float64 copy and the strips would exceed the memory limit.

    Examples
    --------
    >>> import numpy as np
    >>> eliminate(np.arange(12).reshape(3, 4), 5).rank
    2
    """
    p = check_prime(p)
    threads = check_threads(threads)
    arr = residues
    if overwrite:
        return _eliminate_in_place(arr, p, threads, max_bytes,
                                   backend if backend is not None else NumpyBackend())
    if not (isinstance(arr, np.ndarray) and arr.ndim == 2
            and (arr.dtype.kind in "iu" or arr.dtype == object)):
        raise TypeError("residues must be a two-dimensional integer numpy array, got "
                        f"{type(arr).__name__} {getattr(arr, 'dtype', '')}"
                        f"{getattr(arr, 'shape', '')}")
    m, n = (int(x) for x in arr.shape)
    guard_memory(elimination_bytes(m, n),
                 what=f"the GF(p) elimination of a {m:,} x {n:,} matrix (one float64 copy)",
                 fix="rank a smaller matrix", max_bytes=max_bytes,
                 takes_max_bytes=max_bytes is not None)
    if m == 0 or n == 0:
        if release is not None:
            release()
        return Elimination(0, (), (), p, (m, n))
    be = backend if backend is not None else NumpyBackend()
    with _LOCK:
        A = be.empty((m, n))
        _fill(A, arr, p)
        del arr, residues
        if release is not None:
            release()
        return _eliminate_locked(A, p, threads, be)


def _eliminate_in_place(A: Any, p: int, threads: int | None, max_bytes: int | None,
                        be: NumpyBackend) -> Elimination:
    if not (isinstance(A, np.ndarray) and A.ndim == 2 and A.dtype == np.float64
            and A.flags.c_contiguous and A.flags.writeable):
        raise TypeError("overwrite=True takes a writeable C-contiguous two-dimensional float64 "
                        "array of balanced residues")
    m, n = (int(x) for x in A.shape)
    guard_memory(elimination_bytes(m, n) - 8 * m * n,
                 what=f"the in-place GF(p) elimination of a {m:,} x {n:,} matrix (its strips)",
                 fix="rank a smaller matrix", max_bytes=max_bytes,
                 takes_max_bytes=max_bytes is not None)
    if m and n and not _is_balanced(A.reshape(-1), p):
        raise ValueError(f"overwrite=True needs balanced residues: integers of magnitude at most "
                         f"{_bound(p)} (p = {p})")
    if m == 0 or n == 0:
        return Elimination(0, (), (), p, (m, n))
    with _LOCK:
        return _eliminate_locked(A, p, threads, be)


def _eliminate_locked(A: Array, p: int, threads: int | None, be: NumpyBackend) -> Elimination:
    """Eliminate the float64 balanced residues ``A`` in place (the caller holds ``_LOCK``):
    the one elimination step of :func:`eliminate`, with or without ``overwrite``."""
    m, n = (int(x) for x in A.shape)
    work = _Eliminator(A, p, be)
    with _blas_threads(threads) if threads is not None else nullcontext():
        rank = work.rec(0, 0, n)
    rows = tuple(int(i) for i in work.rows[:rank])
    cols = tuple(int(j) for j in work.cols[:rank])
    return Elimination(rank, rows, cols, p, (m, n))


@_compiled(gfp_numpy.is_balanced_numpy)
def _is_balanced(x: Array, p: int) -> bool:  # pragma: no cover - compiled
    h = float(p // 2 + 2)
    for i in range(x.size):
        v = x[i]
        if not (abs(v) <= h and v == np.rint(v)):
            return False
    return True


@_compiled(gfp_numpy.widen_numpy)
def _widen(ints: Array, floats: Array, count: int, p: int) -> None:  # pragma: no cover
    """floats[i] <- balanced(ints[i]) for i = count-1 .. 0, where ``floats`` is the same memory
    as ``ints`` (2 int32 slots per float64): backwards, entry i is written over int32 slots
    2i and 2i+1, which were read before (they are >= i)."""
    half = p // 2
    for i in range(count - 1, -1, -1):
        v = np.int64(ints[i]) % p
        if v > half:
            v -= p
        floats[i] = float(v)


def widen_in_place(grid: Array, shape: tuple[int, int], p: int) -> Array:
    """An int32 grid turned into balanced float64 residues in its own allocation.

    The caller first grows its (sole-owner, C-contiguous) int32 array to twice its entries with
    ``grid.resize((2 * m * n,), refcheck=True)`` -- a ``realloc``, which for a large block
    remaps the pages instead of copying -- so the peak is the float64 matrix alone, not an
    int32 grid beside a float64 copy.  The entries are widened from the
    last to the first, each float64 written over int32 slots already read.

    Parameters
    ----------
    grid : numpy.ndarray
        One-dimensional int32 array of ``2 * m * n`` entries whose first ``m * n`` hold the
        grid row by row (any representatives).
    shape : tuple of int
        ``(m, n)``.
    p : int
        A prime :math:`3 \\le p < 2^{26}`.

    Returns
    -------
    numpy.ndarray
        The ``m x n`` float64 balanced residues, a view of ``grid``'s memory (for
        ``eliminate(..., overwrite=True)``).

    Examples
    --------
    >>> g = np.array([[1, 6], [13, -1]], dtype=np.int32)
    >>> g.resize((8,), refcheck=False)
    >>> widen_in_place(g, (2, 2), 7)
    array([[ 1., -1.],
           [-1., -1.]])
    """
    p = check_prime(p)
    m, n = (int(x) for x in shape)
    if not (isinstance(grid, np.ndarray) and grid.dtype == np.int32 and grid.ndim == 1
            and grid.flags.c_contiguous and grid.size == 2 * m * n):
        raise ValueError("grid must be a contiguous one-dimensional int32 array of 2 * m * n "
                         "entries (resized by its owner)")
    floats = grid.view(np.float64)
    _widen(grid, floats, m * n, p)
    return floats.reshape(m, n)
