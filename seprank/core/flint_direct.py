r"""GF(p) ranks of numpy residue arrays by FLINT's elimination, without per-entry conversion.

python-flint builds an ``nmod_mat`` entry by entry from Python ints, about 100 ns per entry:
on a 2400-square matrix that is 0.6 s beside a 0.9 s rank, and it is why the degree blocks'
rank step ran at 9 G multiply-adds/s where the rank itself runs at 13-15 (issue 28).  The
python-flint wheel ships the FLINT library it wraps; this module calls the same library's
``nmod_mat_init``, ``nmod_mat_entry_ptr``, ``nmod_mat_lu`` and ``nmod_mat_clear`` through
:mod:`ctypes`, and copies each row of residues into the row FLINT allocated (one ``memmove``
per row).  The rank is the one ``flint.nmod_mat.rank`` computes (``nmod_mat_rank`` is
``nmod_mat_lu`` on a copy; here the LU runs in place, saving that copy's 8 bytes per entry),
large matrices are eliminated with one FLINT thread per core, and the GIL is released while
FLINT works.

What is assumed and how it is checked:

* the library is the one python-flint loaded (found in the process' memory map, else next to
  the package), and its ``flint_version`` equals ``flint.__FLINT_VERSION__``;
* no struct layout: FLINT allocates and owns the matrix in a zeroed buffer four times larger
  than any FLINT 3 ``nmod_mat_struct``; the only layout fact used is that one row's entries
  are consecutive 64-bit words, checked for every matrix on its first and last row
  (``entry_ptr(i, n-1) - entry_ptr(i, 0) = 8 (n-1)``) -- a mismatch refuses the matrix;
* a self-test (:func:`status`) compares entries read back through ``nmod_mat_get_entry`` and
  ranks against python-flint on random matrices of every rank at three primes; any mismatch,
  a missing symbol or a different version disables this path for the process, with the reason.

:func:`seprank.core.rank.rank_mod_p` uses :func:`rank_mod_p_int64` for int64 residues of
:data:`MIN_ENTRIES` entries or more and falls back to python-flint when it is unavailable.

Examples
--------
>>> import numpy as np
>>> M = np.array([[1, 2], [2, 4]], dtype=np.int64)
>>> rank_mod_p_int64(M, 7) if status().available else 1
1
"""

from __future__ import annotations

import ctypes
import glob
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

import flint
import numpy as np

from seprank.core.cluster import available_cores
from seprank.core.types import Array

__all__ = ["MIN_ENTRIES", "THREADED_ENTRIES", "DirectStatus", "default_threads",
           "rank_mod_p_int64", "status"]

#: Matrices with at least this many entries take the direct path (smaller ones are built by
#: python-flint from one list, which costs nothing at that size).
MIN_ENTRIES = 1 << 16
#: Matrices with at least this many entries are eliminated on every available core.
THREADED_ENTRIES = 1 << 20
#: Bytes given to FLINT for its ``nmod_mat_struct`` (FLINT 3: under 64).
_STRUCT_BYTES = 256
#: Rows reduced mod p per numpy call while copying (bounds the temporary to one chunk).
_CHUNK_ROWS = 256


@dataclass(frozen=True)
class DirectStatus:
    """Whether the direct path is in use, and why not.

    Attributes
    ----------
    available : bool
        The library was found, its version matches python-flint's and the self-test passed.
    library : str or None
        Path of the FLINT library called.
    reason : str
        What was checked, or why the path is off.
    """

    available: bool
    library: str | None
    reason: str


def _candidates() -> list[str]:
    """FLINT libraries this process has loaded (Linux memory map), then those next to the
    python-flint package (its wheels' ``python_flint.libs`` / ``flint/.dylibs``)."""
    found: list[str] = []
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                path = line.rsplit(None, 1)[-1] if "/" in line else ""
                if "libflint" in os.path.basename(path) and path not in found:
                    found.append(path)
    except OSError:
        pass
    root = os.path.dirname(os.path.dirname(os.path.abspath(flint.__file__)))
    for pattern in ("python_flint.libs/libflint*", "flint/.dylibs/libflint*",
                    "python_flint.libs/flint*.dll"):
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            if path not in found:
                found.append(path)
    return found


class _Lib:
    """The FLINT functions used, with their C signatures."""

    def __init__(self, path: str) -> None:
        lib = ctypes.CDLL(path)
        vp, sl, ul = ctypes.c_void_p, ctypes.c_long, ctypes.c_ulong
        self.init = lib.nmod_mat_init
        self.init.argtypes, self.init.restype = [vp, sl, sl, ul], None
        self.clear = lib.nmod_mat_clear
        self.clear.argtypes, self.clear.restype = [vp], None
        self.rank = lib.nmod_mat_rank
        self.rank.argtypes, self.rank.restype = [vp], sl
        self.lu = lib.nmod_mat_lu
        self.lu.argtypes, self.lu.restype = [vp, vp, ctypes.c_int], sl
        self.get_threads = lib.flint_get_num_threads
        self.get_threads.argtypes, self.get_threads.restype = [], ctypes.c_int
        self.set_threads = lib.flint_set_num_threads
        self.set_threads.argtypes, self.set_threads.restype = [ctypes.c_int], None
        self.entry_ptr = lib.nmod_mat_entry_ptr
        self.entry_ptr.argtypes, self.entry_ptr.restype = [vp, sl, sl], vp
        self.get_entry = lib.nmod_mat_get_entry
        self.get_entry.argtypes, self.get_entry.restype = [vp, sl, sl], ul
        self.version = (ctypes.c_char * 32).in_dll(lib, "flint_version").value  # char[]
        self.path = path


def _rank(lib: _Lib, residues: Array, p: int, readback: Array | None = None,
          threads: int = 1) -> int:
    """FLINT's rank of the integer matrix ``residues`` mod p (any representatives), by an LU
    decomposition in place (``nmod_mat_lu``, what ``nmod_mat_rank`` runs on its copy) with
    ``threads`` FLINT threads.  With ``readback`` (an int64 array of the same shape), the
    entries are read back through ``nmod_mat_get_entry`` first, and the rank is also taken by
    ``nmod_mat_rank`` and must agree (self-test only)."""
    m, n = residues.shape
    mat = ctypes.create_string_buffer(_STRUCT_BYTES)
    lib.init(mat, m, n, p)
    try:
        for i in {0, m - 1}:
            first, last = lib.entry_ptr(mat, i, 0), lib.entry_ptr(mat, i, n - 1)
            if first is None or last - first != 8 * (n - 1):
                raise RuntimeError("FLINT's nmod_mat rows are not consecutive 64-bit words")
        for r0 in range(0, m, _CHUNK_ROWS):
            chunk = np.ascontiguousarray(np.mod(residues[r0:r0 + _CHUNK_ROWS], np.int64(p)),
                                         dtype=np.int64)
            for i in range(chunk.shape[0]):
                ctypes.memmove(lib.entry_ptr(mat, r0 + i, 0), chunk[i].ctypes.data, 8 * n)
        checked = None
        if readback is not None:
            for i in range(m):
                for j in range(n):
                    readback[i, j] = lib.get_entry(mat, i, j)
            checked = int(lib.rank(mat))
        perm = (ctypes.c_long * m)()
        before = lib.get_threads()
        lib.set_threads(threads)
        try:
            rank = int(lib.lu(perm, mat, 0))
        finally:
            lib.set_threads(before)
        if checked is not None and checked != rank:
            raise RuntimeError(f"nmod_mat_lu gave rank {rank}, nmod_mat_rank {checked}")
        return rank
    finally:
        lib.clear(mat)


def _self_test(lib: _Lib) -> str | None:
    """None when entries and ranks agree with python-flint on random matrices of every rank
    at three primes (small, 2**24-ish, 2**62-ish), else what disagreed."""
    rng = np.random.default_rng(20261126)
    for p in (7, 16777259, 4611686018427388039):
        for r in range(0, 13, 3):
            A = np.zeros((12, 9), dtype=np.int64)
            if r:  # a random rank-r product, computed by python-flint
                M, N = (rng.integers(0, min(p, 2**62), shape).tolist()
                        for shape in ((12, r), (r, 9)))
                P = flint.nmod_mat(M, p) * flint.nmod_mat(N, p)
                A = np.array([[int(x) for x in row] for row in P.tolist()], dtype=np.int64)
            A[0, 0] -= p  # representatives outside [0, p) must be reduced
            back = np.empty_like(A)
            got = _rank(lib, A, p, readback=back, threads=1 + r % 2)
            want = flint.nmod_mat(np.mod(A, p).tolist(), p).rank()
            if not np.array_equal(back, np.mod(A, p)):
                return f"entries read back differ from those written (p = {p})"
            if got != want:
                return f"rank {got} against python-flint's {want} (p = {p}, rank {r})"
    return None


@lru_cache(maxsize=1)
def _load() -> tuple[_Lib | None, DirectStatus]:
    want = str(flint.__FLINT_VERSION__)
    reasons = []
    for path in _candidates():
        try:
            lib = _Lib(path)
        except (OSError, AttributeError, ValueError) as exc:
            reasons.append(f"{path}: {exc}")
            continue
        version = (lib.version or b"").decode("ascii", "replace")
        if version != want:
            reasons.append(f"{path}: FLINT {version}, python-flint wraps {want}")
            continue
        try:
            failed = _self_test(lib)
        except (RuntimeError, OSError, ValueError) as exc:
            failed = str(exc)
        if failed is not None:
            reasons.append(f"{path}: self-test failed: {failed}")
            continue
        return lib, DirectStatus(True, path, f"FLINT {version}: versions match, self-test "
                                             "passed (entries and ranks against python-flint)")
    reason = "; ".join(reasons) or "no FLINT library found beside python-flint"
    return None, DirectStatus(False, None, reason)


def status() -> DirectStatus:
    """Whether the direct path is available in this process (loaded and self-tested once).

    Returns
    -------
    DirectStatus
        ``available``, the library's path, and what was checked or why the path is off.

    Examples
    --------
    >>> isinstance(status().reason, str)
    True
    """
    return _load()[1]


def rank_mod_p_int64(residues: Array, p: int, *, threads: int | None = None) -> int | None:
    """The rank over GF(p) of an int32 or int64 matrix (any representatives), by FLINT's
    LU decomposition; None when the direct path is unavailable (:func:`status`).

    The caller validates p (a prime below ``2**63``); here the array is only checked to be a
    two-dimensional int32/int64 array.  Peak memory beyond the array: FLINT's matrix (8 bytes
    per entry) and one chunk of reduced rows.

    Parameters
    ----------
    residues : numpy.ndarray
        Two-dimensional int32 or int64 array.
    p : int
        A prime below ``2**63``.
    threads : int, optional, keyword-only
        FLINT threads for the elimination (restored afterwards).  Default: every available
        core for matrices of :data:`THREADED_ENTRIES` entries or more (FLINT's blocked
        elimination runs about 1.5x faster on two cores at 4000 x 4000; :func:`default_threads`
        changes it), one below.  A dask
        worker of a cluster with one worker process per core passes 1.

    Returns
    -------
    int or None
        The rank, or None when the direct path is off (use python-flint).

    Examples
    --------
    >>> M = np.arange(12, dtype=np.int64).reshape(3, 4)
    >>> rank_mod_p_int64(M, 5) in (2, None)
    True
    """
    if not (isinstance(residues, np.ndarray) and residues.dtype in (np.int32, np.int64)
            and residues.ndim == 2):
        raise TypeError("residues must be a two-dimensional int32 or int64 numpy array")
    if not 2 <= p < 2**63:
        raise ValueError(f"p = {p} must be a prime below 2**63")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or not 1 <= threads <= 1024):
        raise ValueError(f"threads={threads!r}: give a number of threads from 1 to 1024, or "
                         "None for the default")
    lib = _load()[0]
    if lib is None:
        return None
    m, n = residues.shape
    if m == 0 or n == 0:
        return 0
    if threads is None:
        threads = (1 if m * n < THREADED_ENTRIES
                   else _DEFAULT_THREADS[-1] if _DEFAULT_THREADS else available_cores())
    return _rank(lib, residues, p, threads=threads)


#: Stack of :func:`default_threads` settings (empty: every available core).
_DEFAULT_THREADS: list[int] = []


@contextmanager
def default_threads(threads: int) -> Iterator[None]:
    """Within the block, large ranks run on ``threads`` FLINT threads instead of every core
    (e.g. 1 to measure the one-thread cost, or beside other work).

    Parameters
    ----------
    threads : int
        FLINT threads for the large ranks of the block (1 to 1024).

    Yields
    ------
    None

    Examples
    --------
    >>> with default_threads(1):
    ...     rank_mod_p_int64(np.eye(3, dtype=np.int64), 7) in (3, None)
    True
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 1024:
        raise ValueError(f"threads={threads!r}: give a number of threads from 1 to 1024")
    _DEFAULT_THREADS.append(threads)
    try:
        yield
    finally:
        _DEFAULT_THREADS.pop()
