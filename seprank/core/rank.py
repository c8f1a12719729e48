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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import flint
import numpy as np

from seprank.core.flint_direct import MIN_ENTRIES as DIRECT_MIN_ENTRIES
from seprank.core.flint_direct import rank_mod_p_int64
from seprank.core.inputs import as_exact_matrix, as_float_matrix
from seprank.core.results import Certificate, Method, RankValued
from seprank.core.validation import check_int, check_tolerance

__all__ = ["RankResult", "exact_rank", "rank_mod_p", "svd_rank"]


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
    """Rank over GF(p) of a matrix reduced modulo the prime ``p``.

    Use this when a computation was itself carried out modulo ``p`` (e.g. a network evaluated
    over GF(p)), or to reduce an exact matrix: if the rational matrix ``residues`` stands for
    has rank r over Q then ``r >= rank_GF(p)``, so the result certifies a lower bound
    on that rank; when it equals ``min(m, n)`` it is exact.

    Parameters
    ----------
    residues : array_like
        Integer residues (any representatives; they are reduced modulo ``p``), or exact
        rationals whose denominators ``p`` does not divide.
    p : int
        A prime below ``2**64`` (primality is checked).
    threads : int, optional, keyword-only
        FLINT threads for a large int32/int64 array
        (:func:`seprank.core.flint_direct.rank_mod_p_int64`; default: every core from
        :data:`~seprank.core.flint_direct.THREADED_ENTRIES` entries on).

    Returns
    -------
    RankResult
        The rank over GF(p): ``certifies='lower_bound'`` on the rank over Q of the rational matrix
        the residues stand for, or ``'exact'`` when it reaches ``min(m, n)``.

    Raises
    ------
    ZeroDivisionError
        ``p`` divides a denominator (the reduction is undefined): choose another prime.

    Examples
    --------
    >>> rank_mod_p([[1, 2], [3, 4]], 2).rank   # det = -2 vanishes mod 2
    1
    >>> rank_mod_p([[1, 2], [3, 4]], 5).certifies
    'exact'
    """
    p = check_int("p", p, 2)
    if not (p < 2**64) or not flint.fmpz(p).is_prime():
        raise ValueError(f"p = {p} is not a prime below 2**64")
    exact = None
    if isinstance(residues, np.ndarray) and residues.dtype in (np.int32, np.int64) \
            and residues.ndim == 2:
        array = residues  # an int32 grid is not copied to int64
    else:
        exact = as_exact_matrix(residues, "residues")
        if exact.denominators_divisible_by(p):
            raise ZeroDivisionError(f"p = {p} divides a denominator of residues: its "
                                    "reduction modulo p is undefined; choose another prime")
        array = exact.numerators
    m, n = array.shape
    if array.dtype in (np.int32, np.int64) and m * n >= DIRECT_MIN_ENTRIES and p < 2**63:
        rank = rank_mod_p_int64(array, p, threads=threads)  # large: straight to FLINT
        if rank is not None:
            return _modular_result(rank, p, (m, n), "FLINT nmod_mat_lu, rows copied")
    if exact is None:
        exact = as_exact_matrix(residues, "residues")
    rank = 0 if m == 0 or n == 0 else int(exact.modular_matrix(p).rank())
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
