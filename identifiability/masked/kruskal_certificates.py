r"""Certificates of Kruskal ranks (004, Proposition 1): both sides, checkable by anyone.

:math:`k_A = k` has two sides.  **Lower**: every k columns are independent.  One random
projection P (k x m over GF(p)) proves it for all of them at once: if every k x k minor
:math:`\det (PA)_{:,S}` is non-zero mod p then :math:`\operatorname{rank} A_{:,S} \ge k` for
every k-subset S (a rank over GF(p) never exceeds the rank over Q).  A subset whose projected
minor vanishes by accident is listed as an exception with a non-zero minor of A itself.
**Upper**: the dependent column set W of :class:`~identifiability.masked.kruskal.KruskalRankResult`
(k + 1 columns) with an exact kernel vector c, :math:`A_{:,W} c = 0`.

:func:`seprank.certificates.verify` re-checks both with Python integers (``kind =
'kruskal_rank'``).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import flint
import numpy as np

from seprank.certificates import bind_subject, certificate_header, matrix_fields
from seprank.core import SeedLike, as_exact_matrix, as_generator, random_prime
from seprank.core.minors import kernel_basis, nonzero_minor

__all__ = ["MAX_CERTIFIED_SUBSETS", "kruskal_certificate"]

#: The lower side lists no subsets but the verifier checks all C(n, k); refuse beyond this.
MAX_CERTIFIED_SUBSETS = 1_000_000


def kruskal_certificate(A: Any, result: Any, *, seed: SeedLike = None) -> dict[str, Any]:
    r"""The certificate of an exact or modular Kruskal rank of ``A`` (module docstring).

    Parameters
    ----------
    A : array_like
        The matrix the result was computed from (exact entries).
    result : KruskalRankResult
        From :func:`~identifiability.masked.kruskal.kruskal_rank` with method ``'exact'``
        (claims ``k-rank = k``) or ``'modular'`` (``k-rank >= k``; ``= k`` when its witness
        is dependent over Q, which the certificate then proves).
    seed : int or Generator, optional, keyword-only
        Seeds the prime and the projection.

    Returns
    -------
    dict
        The certificate, checked by :func:`seprank.certificates.verify`.

    References
    ----------
    .. [1] 004, §2.2.1.4, Proposition 1 (Kruskal 1977).

    Examples
    --------
    >>> from identifiability.masked import kruskal_rank
    >>> from seprank.certificates import verify
    >>> A = [[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 1]]          # [e1, e2, e1+e2, e3]
    >>> cert = kruskal_certificate(A, kruskal_rank(A), seed=0)
    >>> cert["claim"]["value"], cert["upper"]["cols"], verify(cert).ok
    (2, [0, 1, 2], True)
    """
    if not all(hasattr(result, a) for a in ("rank", "witness", "certifies", "details")):
        raise TypeError(f"result must be a KruskalRankResult (from kruskal_rank), got "
                        f"{type(result).__name__}")
    if result.certifies == "none":
        raise ValueError("an SVD Kruskal rank certifies nothing: use method='exact'")
    exact = as_exact_matrix(A, "A")
    m, n = exact.shape
    if (m, n) != tuple(result.details.get("shape", (m, n))):
        raise ValueError(f"A has shape {(m, n)}, the result is of a {result.details['shape']} "
                         "matrix")
    k = result.rank
    if math.comb(n, k) > MAX_CERTIFIED_SUBSETS:
        raise ValueError(f"the lower side has C({n}, {k}) = {math.comb(n, k):.3g} column sets "
                         f"for the verifier to check (> {MAX_CERTIFIED_SUBSETS})")
    rng = as_generator(seed)
    values = np.empty((m, n), dtype=object)
    for i in range(m):
        for j in range(n):
            v, den = int(exact.numerators[i, j]), exact.row_denominators[i]
            values[i, j] = v if den == 1 else _fraction(v, den)
    upper = _upper(exact, values, result)
    relation = "=" if upper is not None or k == n else ">="
    cert = certificate_header("kruskal_rank", {"quantity": "k-rank(A)", "relation": relation,
                                               "value": k},
                              method=result.method, summary=result.summary())
    cert["shape"] = [m, n]
    cert.update(matrix_fields(values))
    if k:
        cert["lower"] = _lower(exact, k, rng)
    if upper is not None:
        cert["upper"] = upper
    return bind_subject(cert)


def _fraction(v: int, den: int) -> Any:
    from fractions import Fraction

    return Fraction(v, den)


def _lower(exact: Any, k: int, rng: np.random.Generator) -> dict[str, Any]:
    m, n = exact.shape
    N = exact.numerators  # row scaling keeps every column dependency
    while True:
        p = random_prime(rng, 62)
        if not exact.denominators_divisible_by(p):
            break
    P = (np.eye(k, dtype=np.int64) if k == m
         else rng.integers(0, p, (k, m), dtype=np.int64))
    Np = flint.nmod_mat(m, n, [int(v) % p for v in N.ravel().tolist()], p)
    G = flint.nmod_mat(k, m, [int(v) for v in P.ravel().tolist()], p) * Np
    Gl = [[int(G[a, j]) for j in range(n)] for a in range(k)]
    exceptions = []
    for S in itertools.combinations(range(n), k):
        sub = flint.nmod_mat(k, k, [Gl[a][j] for a in range(k) for j in S], p)
        if int(sub.det()) != 0:
            continue
        for _ in range(8):  # the projection's accident: a minor of A itself
            q = random_prime(rng, 62)
            if exact.denominators_divisible_by(q):
                continue
            rows, _cols = nonzero_minor(N[:, list(S)], q)
            if len(rows) == k:
                exceptions.append({"cols": list(S), "rows": list(rows), "prime": int(q)})
                break
        else:
            raise ValueError(f"columns {S} are dependent: the k-rank is below {k}")
    return {"prime": int(p), "projection": P.tolist(), "exceptions": exceptions}


def _upper(exact: Any, values: Any, result: Any) -> dict[str, Any] | None:
    W = result.witness
    if W is None:
        return None
    basis = kernel_basis(exact.numerators[:, list(W)])
    if not basis:  # a modular witness that is independent over Q: only the lower side
        return None
    return {"cols": [int(j) for j in W], "kernel": basis[0]}
