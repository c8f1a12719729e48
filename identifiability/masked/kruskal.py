r"""Kruskal ranks (k-ranks) and Kruskal's uniqueness condition, exactly.

The Kruskal rank :math:`k_A` of a matrix :math:`A` with n columns is the largest r such that
**every** r columns are linearly independent, i.e. :math:`k_A = \operatorname{spark}(A) - 1`
(spark = size of the smallest dependent column set; :math:`k_A = n` if all columns are
independent).  Kruskal's theorem (004, Proposition 1; Sidiropoulos & Bro 2000 for N-way):
the rank-one terms of :math:`W = \sum_{i\le R} A^{(1)}_i\otimes\dots\otimes A^{(N)}_i` are unique up
to a shared permutation and scaling if :math:`\sum_n k_{A^{(n)}} \ge 2R + N - 1`.  The
condition is sufficient, not necessary (it always fails for R = 1, where uniqueness is trivial).

Two wrong implementations circulate (anchors report §1): a column-removal scheme that returns 1
for a generic 3 x 4 matrix (the k-rank is 3), and an SVD rank named ``kruskal_rank``
(``[e1, e1, e2]`` has rank 2 but k-rank 1).

How the exact k-rank is computed
--------------------------------
"Every r columns independent" is monotone in r, so the levels r are searched (the top level
:math:`r = \operatorname{rank} A` first, then bisection), each level exiting at the first
dependent subset it confirms.  A level is screened by all r x r minors of
:math:`G = PA \bmod p` (P random r x m over GF(p), p a random 31-bit prime): a minor that is
non-zero mod p proves the r columns independent over Q, because
:math:`\operatorname{rank}_{GF(p)}(PA_S) \le \operatorname{rank}_{\mathbb Q}(A_S)`.  After a
row reduction :math:`G \to [I \mid B]` the maximal minors of G are, up to sign, the square minors
of B, all computed at once by Laplace expansion (:math:`\sum_j j\binom{r}{j}\binom{n-r}{j}`
products, vectorised).  A subset whose minor vanishes mod p is rechecked with
:func:`seprank.matrix_rank` (``method='exact'``): confirmed, it is the witness; otherwise it was
a prime accident and the search goes on.  ``engine='subsets'`` instead calls
:func:`seprank.matrix_rank` on every subset (the definition, literally; slow).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from identifiability.masked.kruskal_screen import level_by_minors, level_by_subsets
from seprank.core import (
    Certificate,
    CertifiedResult,
    Method,
    SeedLike,
    as_exact_matrix,
    as_float_matrix,
    as_generator,
    check_int,
    check_tolerance,
    matrix_rank,
)
from seprank.core.display import RichDisplay

__all__ = ["KruskalCondition", "KruskalRankResult", "kruskal_condition", "kruskal_rank"]

Engine = Literal["minors", "subsets"]
DEFAULT_MAX_SUBSETS = 50_000_000
_SVD_CHUNK = 20_000


@dataclass(frozen=True, repr=False)
class KruskalRankResult(CertifiedResult):
    """A Kruskal rank with what it certifies and a dependent witness set.

    Attributes
    ----------
    rank : int
        The Kruskal rank: the largest r such that every r columns are independent (``.rank``
        as on every rank result; ``.k_rank`` is an alias).
    method : {'exact', 'modular', 'svd'}
    certifies : {'exact', 'lower_bound', 'none'}
        ``exact``: proved; ``lower_bound``: every ``rank`` columns are proved independent but
        the witness's dependence is only probable (modular); ``none``: float ranks with the
        tolerance in ``details``.
    witness : tuple of int or None
        A dependent column set of size ``rank + 1`` (None when all columns are independent).
    details : Mapping
        ``rank`` (the ordinary rank), ``levels_checked``, ``subsets_screened``,
        ``false_alarms``, tolerances.
    """

    rank: int
    method: Method
    certifies: Certificate
    witness: tuple[int, ...] | None
    details: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def k_rank(self) -> int:
        """Alias of :attr:`rank` (the name used in 004 and in Kruskal's theorem)."""
        return self.rank

    def __setstate__(self, state: dict[str, Any]) -> None:
        if "k_rank" in state:   # pickled before the field was named ``rank``
            state = {**state, "rank": state.pop("k_rank")}
        super().__setstate__(state)

    def __int__(self) -> int:
        return self.rank

    def __index__(self) -> int:
        return self.rank

    def _repr_info(self) -> dict[str, Any]:
        return {"rank": self.rank, "method": self.method, "certifies": self.certifies,
                "witness": self.witness}

    @property
    def spark(self) -> float:
        """Size of the smallest dependent column set (inf if there is none)."""
        return math.inf if self.witness is None else self.rank + 1

    def certificate(self, *, matrix: Any, seed: SeedLike = None) -> dict[str, Any]:
        """The certificate of this k-rank of ``matrix`` (both sides; see
        :func:`~identifiability.masked.kruskal_certificates.kruskal_certificate`).

        Parameters
        ----------
        matrix : array_like, keyword-only
            The matrix whose Kruskal rank this is.
        seed : int or numpy.random.Generator, optional, keyword-only
            Seeds the primes.

        Returns
        -------
        dict
            The certificate, checked by :func:`seprank.certificates.verify`.
        """
        from identifiability.masked.kruskal_certificates import kruskal_certificate

        return kruskal_certificate(matrix, self, seed=seed)

    def summary(self) -> str:
        """One line in words: the value, what it certifies, the key evidence.

        Returns
        -------
        str
            One line.
        """
        w = "all columns independent" if self.witness is None else f"dependent {self.witness}"
        return f"k-rank {self.rank} ({self.method}, certifies {self.certifies}; {w})"


def kruskal_rank(
    A: Any,
    *,
    method: Method = "exact",
    rtol: float | None = None,
    engine: Engine = "minors",
    seed: SeedLike = None,
    max_subsets: int = DEFAULT_MAX_SUBSETS,
) -> KruskalRankResult:
    r"""Kruskal rank of ``A``: the largest r such that every r columns are independent.

    Parameters
    ----------
    A : array_like
        m x n matrix.  ``'exact'``/``'modular'`` need exact entries (ints, Fractions, sympy
        rationals); floats are refused as in :func:`seprank.matrix_rank`.
    method : {'exact', 'modular', 'svd'}, keyword-only
        ``'exact'`` certifies the k-rank.  ``'modular'`` certifies the independence of every
        ``rank`` columns (a lower bound) and finds the witness modulo primes.  ``'svd'`` uses
        float ranks of column-normalised subsets with the rule of
        :func:`seprank.matrix_rank` (``tol = rtol * sigma_max`` of the subset, numpy's default
        when ``rtol`` is None); it certifies nothing.
    rtol : float, optional, keyword-only
        Relative tolerance for ``'svd'`` (an error with other methods).
    engine : {'minors', 'subsets'}, keyword-only
        ``'minors'`` (default): the vectorised modular minor screen of the module docstring;
        it indexes column subsets by 64-bit colex ranks, so a level may have at most 64
        columns on either side of the pivot block (a ValueError suggests ``'subsets'``), and
        its minor tables are memory-guarded (:mod:`seprank.core.memory`).
        ``'subsets'``: one :func:`seprank.matrix_rank` call per column subset (the
        definition; any number of columns, slow).
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the primes and projections of the screen.
    max_subsets : int, keyword-only
        Refuse a level with more column subsets than this (the problem is NP-hard in general).
        A zero column (k-rank 0) or two parallel columns (k-rank 1) are found first, in
        :math:`O(mn)`, whatever the size.

    Returns
    -------
    KruskalRankResult

    References
    ----------
    .. [1] 004, §2.2.1.4, Proposition 1 (Kruskal 1977).
    .. [2] Anchors report, §1 and §4 (wrong k-rank code in the wild).

    Examples
    --------
    >>> kruskal_rank([[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 1]]).rank     # [e1, e2, e1+e2, e3]
    2
    >>> r = kruskal_rank([[1, 1, 0], [0, 0, 1]])                           # [e1, e1, e2]
    >>> r.rank, r.witness, r.details["rank"]
    (1, (0, 1), 2)
    >>> kruskal_rank([[1, 2, 3, 5], [2, 7, 1, 1], [4, 1, 8, 3]]).rank      # generic 3 x 4
    3
    """
    if method not in ("exact", "modular", "svd"):
        raise ValueError(f"unknown method {method!r}; choose 'exact', 'modular' or 'svd'")
    if engine not in ("minors", "subsets"):
        raise ValueError(f"unknown engine {engine!r}; choose 'minors' or 'subsets'")
    if method != "svd" and rtol is not None:
        raise ValueError("rtol is the tolerance of method='svd'; exact methods use none")
    rtol = check_tolerance("rtol", rtol)
    max_subsets = check_int("max_subsets", max_subsets)
    rng = as_generator(seed)
    if method == "svd":
        return _kruskal_svd(A, rtol=rtol, engine=engine, max_subsets=max_subsets)
    ex = as_exact_matrix(A, "A")
    N = ex.numerators  # row scaling by the denominators keeps every column dependency
    m, n = ex.shape
    details: dict[str, Any] = {"shape": (m, n), "engine": engine, "false_alarms": 0,
                               "subsets_screened": 0, "levels_checked": []}
    if n == 0:
        return KruskalRankResult(0, method, "exact", None, {**details, "rank": 0})
    zero_cols = [j for j in range(n) if not any(int(v) != 0 for v in N[:, j])]
    if zero_cols:
        return KruskalRankResult(0, method, "exact", (zero_cols[0],),
                                 {**details, "rank": None, "note": "zero column"})
    rank_res = matrix_rank(N, method=method, seed=rng)
    rho = rank_res.rank
    details["rank"] = rho
    details["rank_certifies"] = rank_res.certifies
    pair = _parallel_pair(N) if rho < n else None
    if pair is not None:  # no zero column: every single column is independent, a pair is not
        return KruskalRankResult(1, method, "exact", pair, {**details, "note": "parallel columns"})

    def level(r: int) -> tuple[int, ...] | None:
        if math.comb(n, r) > max_subsets:
            raise ValueError(f"level r = {r} has C({n}, {r}) = {math.comb(n, r):.3g} column "
                             f"subsets (> max_subsets = {max_subsets}); the k-rank is NP-hard "
                             "in general. Raise max_subsets if you mean it.")
        details["levels_checked"].append(r)
        details["subsets_screened"] += math.comb(n, r)
        if engine == "subsets":
            return level_by_subsets(N, r, method, rng)
        return level_by_minors(N, r, method, rng, details)

    k, witness = _search_levels(level, rho, n)
    if method == "exact":
        cert: Certificate = "exact"
    else:
        cert = "exact" if k == min(m, n) else "lower_bound"
    return KruskalRankResult(k, method, cert, witness, details)


def _kruskal_svd(A: Any, *, rtol: float | None, engine: Engine,
                 max_subsets: int) -> KruskalRankResult:
    F = np.asarray(as_float_matrix(A, "A"))
    m, n = F.shape
    details: dict[str, Any] = {"shape": (m, n), "engine": engine, "rtol": rtol,
                               "levels_checked": [], "subsets_screened": 0,
                               "tolerance_rule": "per subset of unit-normalised columns: "
                               + ("rtol * sigma_max" if rtol is not None
                                  else "numpy default sigma_max * max(m, r) * eps")}
    if n == 0:
        return KruskalRankResult(0, "svd", "none", None, {**details, "rank": 0})
    norms = np.linalg.norm(F, axis=0)
    if np.any(norms == 0):
        return KruskalRankResult(0, "svd", "none", (int(np.flatnonzero(norms == 0)[0]),),
                                 {**details, "rank": None, "note": "zero column"})
    F = F / norms
    rho = matrix_rank(F, method="svd", rtol=rtol).rank
    pair = _parallel_pair_float(F, rtol) if rho < n else None
    if pair is not None:
        return KruskalRankResult(1, "svd", "none", pair,
                                 {**details, "rank": rho, "note": "parallel columns"})
    details["rank"] = rho
    worst: dict[int, float] = {}

    def level(r: int) -> tuple[int, ...] | None:
        if math.comb(n, r) > max_subsets:
            raise ValueError(f"level r = {r} has C({n}, {r}) = {math.comb(n, r):.3g} subsets "
                             f"(> max_subsets = {max_subsets})")
        details["levels_checked"].append(r)
        details["subsets_screened"] += math.comb(n, r)
        if engine == "subsets":
            for S in itertools.combinations(range(n), r):
                if matrix_rank(F[:, list(S)], method="svd", rtol=rtol).rank < r:
                    return S
            return None
        it = itertools.combinations(range(n), r)
        while True:
            chunk = np.array(list(itertools.islice(it, _SVD_CHUNK)), dtype=np.int64)
            if chunk.size == 0:
                return None
            s = np.linalg.svd(np.moveaxis(F[:, chunk], 1, 0), compute_uv=False)
            tol = (rtol * s[:, 0] if rtol is not None
                   else s[:, 0] * max(m, r) * np.finfo(np.float64).eps)
            ratio = s[:, -1] / s[:, 0]
            worst[r] = min(worst.get(r, np.inf), float(ratio.min()))
            bad = np.flatnonzero(s[:, -1] <= tol) if r <= m else np.arange(len(chunk))
            if bad.size:
                return tuple(int(v) for v in chunk[bad[0]])

    k, witness = _search_levels(level, rho, n)
    details["min_sigma_ratio_per_level"] = dict(sorted(worst.items()))
    return KruskalRankResult(k, "svd", "none", witness, details)


def _search_levels(level: Callable[[int], tuple[int, ...] | None], rho: int,
                   n: int) -> tuple[int, tuple[int, ...] | None]:
    """The k-rank and a dependent witness set (None when all n columns are independent) from
    the level test of a matrix of rank ``rho``: ``level(r)`` is a dependent r-column subset, or
    None when every r columns are independent -- monotone in r.  The top level r = rho first
    (any rho + 1 columns are dependent), then bisection between level lo (all independent) and
    level hi (dependent)."""
    if rho == n:
        return n, None
    dep = level(rho)
    if dep is None:
        return rho, tuple(range(rho + 1))
    lo, hi, witness = 1, rho, dep
    while hi - lo > 1:
        mid = (lo + hi) // 2
        dep = level(mid)
        if dep is None:
            lo = mid
        else:
            hi, witness = mid, dep
    return lo, witness


def _parallel_pair(N: Any) -> tuple[int, int] | None:
    """Two proportional columns of the integer matrix N (no zero column), by hashing each
    column divided by its first nonzero entry (exact Fractions); None if there are none."""
    seen: dict[tuple[Fraction, ...], int] = {}
    for j in range(N.shape[1]):
        col = [int(v) for v in N[:, j]]
        lead = next(v for v in col if v != 0)
        key = tuple(Fraction(v, lead) for v in col)
        if key in seen:
            return (seen[key], j)
        seen[key] = j
    return None


def _parallel_pair_float(F: Any, rtol: float | None) -> tuple[int, int] | None:
    """Two unit columns of F whose 2-column SVD rank is 1 under the rule of
    :func:`seprank.matrix_rank` (sigma_2 <= tol); None if there are none."""
    n = F.shape[1]
    if n < 2:
        return None
    G = np.abs(F.T @ F)
    np.fill_diagonal(G, -1.0)
    i, j = np.unravel_index(int(np.argmax(G)), G.shape)  # the most parallel pair
    S = matrix_rank(F[:, [min(i, j), max(i, j)]], method="svd", rtol=rtol)
    return (int(min(i, j)), int(max(i, j))) if S.rank < 2 else None


@dataclass(frozen=True, repr=False)
class KruskalCondition(RichDisplay):
    r"""Kruskal's condition :math:`\sum_n k_n \ge 2R + N - 1` for an N-way decomposition.

    Attributes
    ----------
    ranks : tuple of KruskalRankResult
    R, N : int
        Number of rank-one terms and of factors.
    lhs, rhs : int
        :math:`\sum_n k_n` and :math:`2R + N - 1`.
    holds : bool
    verdict_certified : bool
        True when the verdict is proved: all ranks exact, or the condition holds with certified
        lower bounds.  Float (svd) ranks certify nothing.
    note : str
    """

    ranks: tuple[KruskalRankResult, ...]
    R: int
    N: int
    lhs: int
    rhs: int
    holds: bool
    verdict_certified: bool
    note: str

    @property
    def k_ranks(self) -> tuple[int, ...]:
        return tuple(r.rank for r in self.ranks)

    def summary(self) -> str:
        """One line in words: whether the condition holds, on which k-ranks, how certain.

        Returns
        -------
        str
            The k-ranks, the inequality ``k_A + k_B + k_C >= 2R + N - 1`` with its two sides,
            and whether the verdict is certified.
        """
        how = ("certified" if self.verdict_certified else
               "not certified: " + ", ".join(sorted({r.certifies for r in self.ranks})))
        return (f"Kruskal's condition {'holds' if self.holds else 'fails'}: k-ranks "
                f"{self.k_ranks}, {self.lhs} {'>=' if self.holds else '<'} 2R + N - 1 = "
                f"{self.rhs} ({how})")

    def _display_fields(self) -> list[tuple[str, Any]]:
        return [*((f"k-rank of factor {i}", r) for i, r in enumerate(self.ranks)),
                ("R, N", (self.R, self.N)), ("lhs >= rhs", f"{self.lhs} >= {self.rhs}"),
                ("holds", self.holds), ("verdict_certified", self.verdict_certified),
                ("note", self.note)]

    def __repr__(self) -> str:
        return (f"KruskalCondition(k_ranks={self.k_ranks}, lhs={self.lhs}, rhs={self.rhs}, "
                f"holds={self.holds}, verdict_certified={self.verdict_certified})")

    def __bool__(self) -> bool:
        return self.holds


def kruskal_condition(
    factors: Sequence[Any], *, method: Method = "exact", rtol: float | None = None,
    seed: SeedLike = None, engine: Engine = "minors",
) -> KruskalCondition:
    r"""Check Kruskal's sufficient condition :math:`\sum_n k_{A^{(n)}} \ge 2R + N - 1`.

    Parameters
    ----------
    factors : sequence of array_like
        The N >= 2 factor matrices, each with R columns.
    method, rtol, seed, engine
        Passed to :func:`kruskal_rank`.

    Returns
    -------
    KruskalCondition
        The three Kruskal ranks, both sides of the inequality and the verdict.

    References
    ----------
    .. [1] 004, Proposition 1 (N = 3: :math:`k_A+k_B+k_C \ge 2R+2`).
    .. [2] Sidiropoulos & Bro (2000), N-way extension; anchors report §1.

    Examples
    --------
    >>> I = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    >>> c = kruskal_condition([I, I, I])
    >>> c.k_ranks, c.lhs, c.rhs, c.holds
    ((3, 3, 3), 9, 8, True)
    >>> kruskal_condition([[[1, 0], [0, 1]], [[1, 1], [0, 0]], [[1, 0], [0, 1]]]).holds
    False
    """
    if isinstance(factors, str | bytes) or not hasattr(factors, "__iter__"):
        raise TypeError(f"factors must be a sequence of factor matrices, got {factors!r}")
    mats = list(factors)
    for i, F in enumerate(mats):
        if np.ndim(np.asarray(F, dtype=object)) != 2:
            raise ValueError(f"factors[{i}] must be a 2-D matrix, got shape "
                             f"{np.shape(np.asarray(F, dtype=object))}")
    if len(mats) < 2:
        raise ValueError("Kruskal's condition needs at least two factor matrices")
    Rs = {np.shape(np.asarray(F, dtype=object))[1] for F in mats}
    if len(Rs) != 1:
        raise ValueError(f"all factors must have the same number of columns R, got {Rs}")
    R = Rs.pop()
    rng = as_generator(seed)
    ranks = tuple(kruskal_rank(F, method=method, rtol=rtol, seed=rng, engine=engine)
                  for F in mats)
    lhs = sum(r.rank for r in ranks)
    rhs = 2 * R + len(mats) - 1
    holds = lhs >= rhs
    certs = {r.certifies for r in ranks}
    certified = certs == {"exact"} or (holds and "none" not in certs)
    note = "sufficient condition only: failing it does not prove non-uniqueness"
    if R == 1:
        note += "; with R = 1 it always fails although a rank-one term is trivially unique"
    return KruskalCondition(ranks, R, len(mats), lhs, rhs, holds, certified, note)
