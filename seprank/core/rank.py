"""Matrix rank that says what it certifies: exact (python-flint over Q), modular (GF(p)), or SVD.

The three methods share one entry point, :func:`matrix_rank`, and one result type,
:class:`RankResult`, whose ``certifies`` field is the contract:

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

from seprank.core.inputs import ExactMatrix, as_exact_matrix, as_float_matrix
from seprank.core.random import SeedLike, as_generator, random_prime
from seprank.core.results import Certificate, Method, RankValued
from seprank.core.validation import check_int, check_tolerance

__all__ = ["RankResult", "matrix_rank", "rank_mod_p"]

#: Bit length of the primes of ``method='modular'``: [2**61, 2**62).
RANK_PRIME_BITS = 62
_MAX_PRIME_ATTEMPTS = 64


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
        ``singular_values`` and ``gap`` = sigma_r / sigma_{r+1} (svd), ``shape`` (all).

    Examples
    --------
    >>> r = matrix_rank([[1, 2], [2, 4]], method="exact")
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
        """One line: rank, certificate and the key evidence."""
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
        return f"rank {self.rank} (exact over Q)"


def _flint_rank_mod(exact: ExactMatrix, p: int) -> int:
    return int(exact.modular_matrix(p).rank())


def rank_mod_p(residues: Any, p: int) -> RankResult:
    """Rank over GF(p) of a matrix given by its residues modulo the prime ``p``.

    Use this when a computation was itself carried out modulo ``p`` (e.g. a network evaluated
    over GF(p)): if ``residues`` is the reduction of a rational matrix ``M`` then
    ``rank_Q(M) >= rank_GF(p)(residues)``, so the result certifies a lower bound on ``M``'s
    rank; when it equals ``min(m, n)`` it is exact.

    Parameters
    ----------
    residues : array_like of int
        Integer entries (any representatives; they are reduced modulo ``p``).
    p : int
        A prime below ``2**64`` (primality is checked).

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
    exact = as_exact_matrix(residues, "residues")
    if not exact.is_integer:
        raise TypeError("rank_mod_p expects integer residues; use matrix_rank for Fractions")
    m, n = exact.shape
    rank = 0 if m == 0 or n == 0 else _flint_rank_mod(exact, p)
    certifies: Certificate = "exact" if rank == min(m, n) else "lower_bound"
    return RankResult(
        rank, "modular", certifies, {"primes": (p,), "ranks_per_prime": (rank,), "shape": (m, n)}
    )


def matrix_rank(
    M: Any,
    *,
    method: Method = "modular",
    rtol: float | None = None,
    atol: float | None = None,
    n_primes: int = 2,
    seed: SeedLike = None,
) -> RankResult:
    r"""Rank of a matrix, with a statement of what is certified.

    Parameters
    ----------
    M : array_like
        A 2-D matrix.  For ``'exact'`` and ``'modular'``: numpy integer arrays, object arrays or
        nested lists of ``int`` / :class:`fractions.Fraction` (big integers allowed), sympy
        matrices with rational entries, flint ``fmpz_mat``/``fmpq_mat``.  Floats are refused.
        For ``'svd'``: anything numpy converts to a finite float or complex array.
    method : {'modular', 'exact', 'svd'}, keyword-only
        * ``'exact'`` -- rank over Q with python-flint (``fmpz_mat.rank`` after clearing row
          denominators).  ``certifies='exact'``.
        * ``'modular'`` -- rank over GF(p) (flint ``nmod_mat``) for ``n_primes`` random primes
          in :math:`[2^{61}, 2^{62})`; the maximum is returned.  For every prime,
          :math:`\operatorname{rank}_{GF(p)}(M \bmod p) \le \operatorname{rank}_{\mathbb Q}(M)`
          because a minor that vanishes over Q vanishes mod p; so the result is a certified
          **lower bound**, and equal to the rational rank unless every prime divides the same
          nonzero maximal minor.  A prime dividing a row denominator is skipped (another is
          drawn).  When the bound reaches ``min(m, n)`` it is exact and reported as such.
          Computation stops early at full rank.
        * ``'svd'`` -- float rank: the number of singular values above
          ``tol = max(atol, rtol * sigma_max)``; with neither given, numpy's default
          ``sigma_max * max(m, n) * eps``.  ``certifies='none'``; ``details`` holds the
          tolerance, the singular values and the gap :math:`\sigma_r / \sigma_{r+1}`.
    rtol, atol : float, optional, keyword-only
        Relative and absolute tolerances for ``'svd'`` (ignored otherwise; passing them with
        another method is an error).
    n_primes : int, keyword-only
        Number of random primes for ``'modular'`` (at least 1).
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the choice of primes (``'modular'`` only), for reproducibility.

    Returns
    -------
    RankResult

    Raises
    ------
    TypeError
        Float input to ``'exact'``/``'modular'``, or entries that are not rational numbers.
    ValueError
        Non-2-D input, NaN/inf, unknown method, invalid tolerances.

    References
    ----------
    .. [1] Anchors report, §4.1: numpy's float rank of the Hilbert matrix H_12 is 11, its exact
       rank is 12.  Float ranks need a stated tolerance and gap.

    Examples
    --------
    >>> from fractions import Fraction
    >>> H = [[Fraction(1, i + j + 1) for j in range(12)] for i in range(12)]
    >>> matrix_rank(H, method="exact").rank
    12
    >>> matrix_rank(H, method="modular", seed=1).certifies  # full rank mod p proves rank 12
    'exact'
    >>> import numpy as np
    >>> matrix_rank(np.array(H, dtype=float), method="svd").rank   # floats lose it
    11
    """
    if method not in ("exact", "modular", "svd"):
        raise ValueError(f"unknown method {method!r}; choose 'exact', 'modular' or 'svd'")
    if method != "svd" and (rtol is not None or atol is not None):
        raise ValueError(
            f"rtol/atol are tolerances of method='svd'; method={method!r} uses no tolerance"
        )
    rtol, atol = check_tolerance("rtol", rtol), check_tolerance("atol", atol)
    if method == "svd":
        return _svd_rank(M, rtol=rtol, atol=atol)
    exact = as_exact_matrix(M, "M")
    m, n = exact.shape
    if m == 0 or n == 0:
        return RankResult(0, method, "exact", {"shape": (m, n), "note": "empty matrix"})
    if method == "exact":
        rank = int(exact.integer_matrix.rank())
        return RankResult(rank, "exact", "exact", {"shape": (m, n)})
    return _modular_rank(exact, n_primes=n_primes, seed=seed)


def _modular_rank(
    exact: ExactMatrix, *, n_primes: int, seed: SeedLike
) -> RankResult:
    n_primes = check_int("n_primes", n_primes)
    rng = as_generator(seed)
    m, n = exact.shape
    full = min(m, n)
    primes: list[int] = []
    ranks: list[int] = []
    skipped: list[int] = []
    attempts = 0
    while len(primes) < n_primes:
        attempts += 1
        if attempts > _MAX_PRIME_ATTEMPTS + n_primes:
            raise RuntimeError(
                f"{len(skipped)} random primes all divided a row denominator; the denominators "
                "are astronomically smooth. Use method='exact'."
            )
        p = random_prime(rng, RANK_PRIME_BITS)
        if exact.denominators_divisible_by(p):
            skipped.append(p)
            continue
        primes.append(p)
        ranks.append(_flint_rank_mod(exact, p))
        if ranks[-1] == full:
            break
    rank = max(ranks)
    certifies: Certificate = "exact" if rank == full else "lower_bound"
    details: dict[str, Any] = {
        "shape": (m, n),
        "primes": tuple(primes),
        "ranks_per_prime": tuple(ranks),
    }
    if skipped:
        details["skipped_primes"] = tuple(skipped)
    if certifies == "exact":
        details["note"] = "full rank modulo a prime proves full rank over Q"
    return RankResult(rank, "modular", certifies, details)


def _svd_rank(M: Any, *, rtol: float | None, atol: float | None) -> RankResult:
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
