"""Matrix rank that says what it certifies: exact (python-flint over Q), modular (GF(p)), or SVD.

The rank of a matrix in each number domain -- :func:`exact_rank` over Q, :func:`rank_mod_p`
over GF(p), :func:`svd_rank` in floating point -- with one result type, :class:`RankResult`,
whose ``certifies`` field is the contract.  The domains of :mod:`seprank.core.domains` rank
with these, and :func:`seprank.core.domains.matrix_rank` picks one by its method name:

===========  ===============================================================================
certifies    meaning
===========  ===============================================================================
exact        ``rank`` is the rank over the rationals, proved by exact arithmetic.
lower_bound  ``rank`` is the rank over GF(p) of the reduction; rank_Q(M) >= rank (certified),
             and equality holds unless every prime tried divides one fixed nonzero maximal
             minor D (for one random prime in [2**61, 2**62) the chance is at most
             ``log2|D|`` / 61 divided by the ~5e16 primes there).
none         a floating-point rank; see ``details['tolerance']`` and ``details['gap']``.
===========  ===============================================================================
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import flint
import numpy as np

from seprank.core.inputs import as_exact_matrix, as_float_matrix
from seprank.core.memory import RANK_STEP_FACTOR, array_bytes, guard_memory
from seprank.core.random import factorization
from seprank.core.results import Certificate, Method, RankValued
from seprank.core.validation import check_int, check_tolerance

__all__ = ["ELIMINATION_MIN_ENTRIES", "RankResult", "check_modulus", "exact_rank",
           "exact_rank_bytes", "flint_rank_bytes", "float_rank_bytes", "matrix_shape",
           "rank_mod_p", "rank_mod_p_in_place", "svd_rank"]


@dataclass(frozen=True, repr=False)
class RankResult(RankValued):
    """A matrix rank together with what it certifies.

    Attributes
    ----------
    rank : int
        The rank found.
    method : {'exact', 'modular', 'svd'}
        The method that produced it.
    certifies : {'exact', 'lower_bound', 'none'}
        ``'exact'``: the rank over Q; ``'lower_bound'``: a certified lower bound on the rank
        over Q; ``'none'``: a float rank depending on ``details['tolerance']``.
    details : Mapping
        Method-specific evidence: ``primes`` and ``ranks_per_prime`` (modular), ``tolerance``,
        ``singular_values`` and ``gap`` = sigma_r / sigma_{r+1} (svd), ``field`` and ``via``
        (an exact rank over Q(i), taken through the real embedding), ``shape`` (all).

    Examples
    --------
    >>> r = exact_rank([[1, 2], [2, 4]])
    >>> int(r), r.certifies
    (1, 'exact')
    """

    rank: int
    method: Method
    certifies: Certificate
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def _repr_info(self) -> dict[str, Any]:
        return {"rank": self.rank, "method": self.method, "certifies": self.certifies,
                "shape": self.details.get("shape")}

    def summary(self) -> str:
        """One line: rank, certificate and the key evidence.

        Returns
        -------
        str
            One line: the rank, what it certifies and the key evidence (prime, tolerance or gap).
        """
        d = self.details
        if self.method == "svd":
            gap = d.get("gap")
            gap_s = "n/a" if gap is None else f"{gap:.3g}"
            return (
                f"rank {self.rank} (svd, certifies nothing; tolerance {d['tolerance']:.3g}, "
                f"gap sigma_r/sigma_r+1 = {gap_s})"
            )
        if self.method == "modular":
            primes = d.get("primes", ())
            what = "exact: full rank" if self.certifies == "exact" else "lower bound"
            return f"rank {self.rank} (modular over {len(primes)} prime(s), {what})"
        if "field" in d:
            return f"rank {self.rank} (exact over {d['field']}, via {d['via']})"
        return f"rank {self.rank} (exact over Q)"


def rank_mod_p(residues: Any, p: int, *, threads: int | None = None) -> RankResult:
    r"""Rank over GF(p) of a matrix reduced modulo the prime ``p``.

    Use this when a computation was itself carried out modulo ``p`` (e.g. a network evaluated
    over GF(p)), or to reduce an exact matrix: if the rational matrix ``residues`` stands for
    has rank r over Q then ``r >= rank_GF(p)``, so the result certifies a lower bound
    on that rank; when it equals ``min(m, n)`` it is exact.

    How it is computed: integer arrays of :data:`ELIMINATION_MIN_ENTRIES` entries or more
    with a prime :math:`3 \le p < 2^{26}` (the engines' 25-bit primes) by the float64 BLAS
    elimination of :mod:`seprank.core.gfp_elimination` (``details['computed_by']`` says so);
    everything else by python-flint's ``nmod_mat``.  Both are pure library calls that cannot
    abort the interpreter; the memory of either is estimated and checked against
    :func:`seprank.core.memory.get_memory_limit` *before* any copy is made.

    Parameters
    ----------
    residues : array_like
        Integer residues (any representatives; they are reduced modulo ``p``), exact
        rationals whose denominators ``p`` does not divide, or a python-flint ``nmod_mat``
        with modulus ``p``.
    p : int
        A prime below ``2**64`` (primality is checked).
    threads : int, optional, keyword-only
        BLAS threads for the elimination (1 to the available cores; validated for every
        size); default BLAS's own setting (every core).  python-flint runs on one thread.

    Returns
    -------
    RankResult
        The rank over GF(p): ``certifies='lower_bound'`` on the rank over Q of the rational matrix
        the residues stand for, or ``'exact'`` when it reaches ``min(m, n)``.

    Raises
    ------
    ValueError
        ``p`` is not a prime below ``2**64`` (the message names its factors), or ``threads``
        is out of range.
    MemoryBudgetError
        The rank step's estimated memory is above the limit (nothing was allocated).
    ZeroDivisionError
        ``p`` divides a denominator (the reduction is undefined): choose another prime.

    Examples
    --------
    >>> rank_mod_p([[1, 2], [3, 4]], 2).rank   # det = -2 vanishes mod 2
    1
    >>> rank_mod_p([[1, 2], [3, 4]], 5).certifies
    'exact'
    """
    # the elimination's module compiles numba kernels: imported on the first rank, so that
    # ``import seprank.core`` stays light
    from seprank.core.gfp_elimination import MAX_PRIME as ELIMINATION_MAX_PRIME
    from seprank.core.gfp_elimination import check_threads, eliminate

    p = check_modulus(p)
    threads = check_threads(threads)
    if isinstance(residues, flint.nmod_mat):
        return _rank_nmod_mat(residues, p)
    shape = matrix_shape(residues)
    if (isinstance(residues, np.ndarray) and residues.ndim == 2 and residues.dtype.kind in "iu"
            and residues.size >= ELIMINATION_MIN_ENTRIES and 3 <= p < ELIMINATION_MAX_PRIME):
        m, n = residues.shape
        e = eliminate(residues, p, threads=threads)
        return _modular_result(e.rank, p, (m, n), "float64 BLAS elimination "
                               "(seprank.core.gfp_elimination)")
    if shape is not None:
        _guard_rank_step(flint_rank_bytes, shape, residues, *_FLINT_STEP)
    exact = as_exact_matrix(residues, "residues")
    m, n = exact.shape
    if shape is None:
        _guard_rank_step(flint_rank_bytes, (m, n), exact.numerators, *_FLINT_STEP)
    if exact.denominators_divisible_by(p):
        raise ZeroDivisionError(f"p = {p} divides a denominator of residues: its "
                                "reduction modulo p is undefined; choose another prime")
    if (exact.numerators.dtype == np.int64 and m * n >= ELIMINATION_MIN_ENTRIES
            and 3 <= p < ELIMINATION_MAX_PRIME):
        e = eliminate(exact.numerators, p, threads=threads)
        return _modular_result(e.rank, p, (m, n), "float64 BLAS elimination "
                               "(seprank.core.gfp_elimination)")
    rank = 0 if m == 0 or n == 0 else int(exact.modular_matrix(p).rank())
    return _modular_result(rank, p, (m, n), "python-flint nmod_mat")


def rank_mod_p_in_place(balanced: Any, p: int, *, threads: int | None = None) -> RankResult:
    """Rank over GF(p) of float64 balanced residues, eliminated in place (the array is
    destroyed; no copy): the degree blocks' rank step on a grid widened in its own allocation
    (:func:`seprank.core.gfp_elimination.widen_in_place`).

    Parameters
    ----------
    balanced : numpy.ndarray
        C-contiguous float64 balanced residues (integers of magnitude at most p // 2 + 2;
        checked).
    p : int
        A prime :math:`3 \\le p < 2^{26}`.
    threads : int, optional, keyword-only
        BLAS threads (as for :func:`rank_mod_p`).

    Returns
    -------
    RankResult
        As :func:`rank_mod_p`.

    Examples
    --------
    >>> rank_mod_p_in_place(np.array([[1.0, 2.0], [2.0, -3.0]]), 7).rank   # 2 * 2 = -3 mod 7
    1
    """
    from seprank.core.gfp_elimination import eliminate

    e = eliminate(balanced, p, threads=threads, overwrite=True)
    return _modular_result(e.rank, p, e.shape, "float64 BLAS elimination in place "
                           "(seprank.core.gfp_elimination)")


#: Integer arrays with at least this many entries are ranked by the float64 BLAS elimination
#: (smaller ones by python-flint, which costs nothing at that size).
ELIMINATION_MIN_ENTRIES = 1 << 16


def check_modulus(p: Any) -> int:
    """``p`` as an int when it is a prime below ``2**64``; otherwise a ValueError naming why.

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
        ``p`` is below 2, at least ``2**64``, or composite (its factors are named).

    Examples
    --------
    >>> check_modulus(7)
    7
    >>> check_modulus(15)
    Traceback (most recent call last):
    ...
    ValueError: p = 15 is not a prime (15 = 3 * 5): GF(p) needs a prime modulus below 2**64
    """
    p = check_int("p", p, 2)
    if not p < 2**64:
        raise ValueError(f"p = {p} is not a prime below 2**64: GF(p) ranks here take a "
                         "word-size prime (use seprank.random_prime(rng, 62))")
    if not flint.fmpz(p).is_prime():
        raise ValueError(f"p = {p} is not a prime ({p} = {factorization(p)}): GF(p) needs a prime "
                         "modulus below 2**64")
    return p


def matrix_shape(M: Any) -> tuple[int, int] | None:
    """The shape of a two-dimensional array-like without converting it (None if unknown).

    Parameters
    ----------
    M : array_like
        A numpy array, flint or sympy matrix (anything with a 2-tuple ``shape`` or
        ``nrows``/``ncols``).

    Returns
    -------
    tuple of int or None
        ``(rows, cols)``, or None for nested lists and other inputs.

    Examples
    --------
    >>> matrix_shape(np.broadcast_to(np.int64(1), (10**5, 10**5)))
    (100000, 100000)
    >>> matrix_shape([[1, 2]]) is None
    True
    """
    shape = getattr(M, "shape", None)
    if isinstance(shape, tuple) and len(shape) == 2 and all(
            isinstance(s, int | np.integer) for s in shape):
        return int(shape[0]), int(shape[1])
    if hasattr(M, "nrows") and hasattr(M, "ncols") and callable(M.nrows):
        return int(M.nrows()), int(M.ncols())
    return None


def flint_rank_bytes(shape: tuple[int, int], M: Any = None) -> int:
    """Peak bytes of python-flint's GF(p) rank of a matrix of ``shape``: the int64 numerators
    (unless ``M`` is already an int64 array) and the ``nmod_mat`` with its elimination copy
    (:data:`~seprank.core.memory.RANK_STEP_FACTOR`).

    Parameters
    ----------
    shape : tuple of int
        The matrix's shape.
    M : array_like, optional
        The input (its dtype decides whether a conversion copy is made).

    Returns
    -------
    int
        Bytes.

    Examples
    --------
    >>> flint_rank_bytes((1000, 1000)) > 8 * 10**6
    True
    """
    n_int64 = array_bytes(shape, np.int64)
    dtype = getattr(M, "dtype", None)
    if dtype is None or np.dtype(dtype).kind == "O":
        convert = array_bytes(shape, object)
    else:
        convert = 0 if np.dtype(dtype) == np.int64 else n_int64
    return int(convert + n_int64 * (1 + RANK_STEP_FACTOR["modular"]))


def exact_rank_bytes(shape: tuple[int, int], M: Any = None) -> int:
    """Peak bytes of the exact rank of a matrix of ``shape``: the int64 numerators (unless
    ``M`` already is an int64 array) and the ``fmpz_mat`` with its elimination, counted as
    :data:`~seprank.core.memory.OBJECT_ENTRY_BYTES` per entry times
    ``1 + RANK_STEP_FACTOR['exact']``.

    Parameters
    ----------
    shape : tuple of int
        The matrix's shape.
    M : array_like, optional
        The input (its dtype decides whether a conversion copy is made).

    Returns
    -------
    int
        Bytes.

    Examples
    --------
    >>> exact_rank_bytes((10**5, 10**5)) > 2**40
    True
    """
    dtype = getattr(M, "dtype", None)
    convert = 0 if dtype in (np.int64, object) or dtype is None else array_bytes(shape,
                                                                                np.int64)
    return int(convert + array_bytes(shape, object) * (1 + RANK_STEP_FACTOR["exact"]))


def float_rank_bytes(shape: tuple[int, int], M: Any = None) -> int:
    """Peak bytes of :func:`svd_rank` / :func:`seprank.eps_rank` on a matrix of ``shape``: a
    float64 (complex128) copy, the scaled copy and LAPACK's copy and workspace
    (:data:`~seprank.core.memory.RANK_STEP_FACTOR`), and the factors of a thin SVD.

    Parameters
    ----------
    shape : tuple of int
        The matrix's shape.
    M : array_like, optional
        The input (complex inputs count 16 bytes per entry).

    Returns
    -------
    int
        Bytes.

    Examples
    --------
    >>> float_rank_bytes((1000, 1000)) > 8 * 10**6
    True
    """
    kind = getattr(getattr(M, "dtype", None), "kind", "f")
    dtype = np.complex128 if kind == "c" else np.float64
    m, n = shape
    k = min(m, n)
    entries = array_bytes(shape, dtype)
    return int(entries * (2 + RANK_STEP_FACTOR["svd"]) + array_bytes((m + n) * k + k, dtype))


#: The python-flint GF(p) rank step, as :func:`_guard_rank_step` names it.
_FLINT_STEP = ("the GF(p) rank", "python-flint nmod_mat, with its copies")


def _guard_rank_step(bytes_of: Callable[[tuple[int, int], Any], int], shape: tuple[int, int],
                     M: Any, step: str, held: str, fix: str = "rank a smaller matrix") -> None:
    """Refuse ``step`` on the matrix ``M`` of ``shape`` before anything is converted when its
    estimated peak ``bytes_of(shape, M)`` (``held``: what it counts) is above the memory
    limit (:func:`~seprank.core.memory.guard_memory`)."""
    guard_memory(bytes_of(shape, M), what=f"{step} of a {shape[0]:,} x {shape[1]:,} matrix "
                 f"({held})", fix=fix)


def _rank_nmod_mat(M: Any, p: int) -> RankResult:
    """The rank of a python-flint ``nmod_mat`` whose modulus is ``p``."""
    q = int(M.modulus())
    if q != p:
        raise ValueError(f"residues is an nmod_mat modulo {q}, but p = {p}: pass p={q}, or "
                         f"the integer entries (e.g. numpy.array(M.tolist(), dtype=object))")
    m, n = int(M.nrows()), int(M.ncols())
    guard_memory(array_bytes((m, n), np.int64) * RANK_STEP_FACTOR["modular"],
                 what=f"the GF(p) rank of a {m:,} x {n:,} nmod_mat (its copy)",
                 fix="rank a smaller matrix")
    rank = 0 if m == 0 or n == 0 else int(M.rank())
    return _modular_result(rank, p, (m, n), "python-flint nmod_mat")


def _modular_result(rank: int, p: int, shape: tuple[int, int], computed_by: str) -> RankResult:
    certifies: Certificate = "exact" if rank == min(shape) else "lower_bound"
    return RankResult(rank, "modular", certifies,
                      {"primes": (p,), "ranks_per_prime": (rank,), "shape": shape,
                       "computed_by": computed_by})


def exact_rank(M: Any) -> RankResult:
    """Rank over Q of an exact matrix (python-flint ``fmpz_mat.rank`` after clearing row
    denominators); ``certifies='exact'``.

    Parameters
    ----------
    M : array_like
        Integers or rationals: numpy integer or object arrays, nested lists of ``int`` /
        :class:`fractions.Fraction`, sympy matrices with rational entries, flint matrices.

    Returns
    -------
    RankResult
        The rank over Q, ``certifies='exact'``.

    Examples
    --------
    >>> exact_rank([[1, 2], [2, 4]]).rank
    1
    """
    shape = matrix_shape(M)
    if shape is not None:
        _guard_rank_step(exact_rank_bytes, shape, M, "the exact rank",
                         "fmpz_mat and its elimination",
                         fix="rank a smaller matrix, or use method='modular'")
    exact = as_exact_matrix(M, "M")
    m, n = exact.shape
    if m == 0 or n == 0:
        return RankResult(0, "exact", "exact", {"shape": (m, n), "note": "empty matrix"})
    return RankResult(int(exact.integer_matrix.rank()), "exact", "exact", {"shape": (m, n)})


def svd_rank(M: Any, *, rtol: float | None = None, atol: float | None = None) -> RankResult:
    """Float rank: the number of singular values above ``tol = max(atol, rtol * sigma_max)``
    (numpy's default ``sigma_max * max(m, n) * eps`` with neither); ``certifies='none'``, and
    ``details`` holds the tolerance, the singular values and the gap sigma_r / sigma_{r+1}.

    Parameters
    ----------
    M : array_like
        A 2-D matrix numpy converts to a finite float or complex array.
    rtol : float, optional, keyword-only
        Relative tolerance: singular values at most ``rtol * sigma_max`` count as zero.
    atol : float, optional, keyword-only
        Absolute tolerance: singular values at most ``atol`` count as zero.  With neither
        tolerance, numpy's default ``sigma_max * max(m, n) * eps``.

    Returns
    -------
    RankResult
        The float rank, ``certifies='none'``; ``details`` holds the tolerance, the singular
        values and the gap.

    Examples
    --------
    >>> svd_rank([[1.0, 0.0], [0.0, 1e-9]], rtol=1e-6).rank
    1
    """
    rtol, atol = check_tolerance("rtol", rtol), check_tolerance("atol", atol)
    shape = matrix_shape(M)
    if shape is not None:
        _guard_rank_step(float_rank_bytes, shape, M, "the SVD",
                         "float copies and LAPACK workspace")
    arr = as_float_matrix(M, "M")
    m, n = arr.shape
    if m == 0 or n == 0:
        return RankResult(0, "svd", "none", {"shape": (m, n), "tolerance": 0.0,
                                               "singular_values": np.zeros(0), "gap": None})
    # Rank and relative tolerances are scale-invariant: take the SVD of M / ~max|M| so that
    # neither the singular values (entries near 1e308) nor the tolerance can overflow, and
    # tiny matrices (1e-300) do not lose their singular values to underflow.
    biggest = float(np.max(np.abs(arr)))
    # a power of two: the scaling is exact, so normal-range matrices get bit-identical results
    scale = 2.0 ** math.floor(math.log2(biggest)) if biggest > 0 else 0.0
    s_scaled = (np.linalg.svd(arr / scale, compute_uv=False) if scale else
                np.zeros(min(m, n)))
    with np.errstate(over="ignore"):
        s = s_scaled * scale  # may overflow to inf for the report only; the rank uses s_scaled
    smax = float(s_scaled[0])
    if rtol is None and atol is None:
        tol_scaled = smax * max(m, n) * float(np.finfo(np.float64).eps)
        rule = "numpy default: sigma_max * max(m, n) * eps"
    else:
        tol_scaled = max((atol or 0.0) / scale if scale else math.inf, (rtol or 0.0) * smax)
        rule = "max(atol, rtol * sigma_max)"
    with np.errstate(over="ignore"):
        tol = tol_scaled * scale
    rank = int(np.count_nonzero(s_scaled > tol_scaled))
    if rank == 0:
        gap: float | None = None
    elif rank == s_scaled.size or s_scaled[rank] == 0:
        gap = float("inf")
    else:
        gap = float(s_scaled[rank - 1] / s_scaled[rank])
    return RankResult(
        rank,
        "svd",
        "none",
        {"shape": (m, n), "tolerance": tol, "tolerance_rule": rule,
         "singular_values": s, "gap": gap},
    )
