r"""Hadamard powers of Gram matrices: the rank argument of paper 003, App. B.2, and Lemma 7.

With :math:`d = (d_x - H)/2` and :math:`\lambda = 3^{L-2}`, the lower bounds of Theorems 1-2
come from a :math:`V \in \mathbb R^{R \times d}`, :math:`R = (\!(d\ \lambda)\!)`, with unit rows
and :math:`\operatorname{rank} (VV^T)^{\odot\lambda} = R` (the Amini et al. bound
:math:`(\!(d\ \lambda)\!)` is attained).  The paper's V has rows
:math:`v^{(\alpha)}_r = \Omega^{q^\alpha_r} / \sqrt{\sum_{r'} \Omega^{2 q^\alpha_{r'}}}`, one per
composition :math:`q^\alpha` of λ into d parts (:func:`paper_witness_V`); the normalisation is a
diagonal scaling, so the rank is that of the integer matrix :math:`(WW^T)^{\odot\lambda}`,
:math:`W_{\alpha r} = \Omega^{q^\alpha_r}`, which :func:`hadamard_power_rank` certifies exactly.
:func:`rational_sphere_V` gives exactly normalised rational rows (inverse stereographic
projection), which the network witness needs for exact / GF(p) evaluation.

The same objects drive the lower bound of Theorem 2 of paper 000/001 (App. C.2,
:mod:`seprank.incontext.lower`): :func:`hadamard_power_gram` forms :math:`(BB^T)^{\odot\lambda}`
exactly or in floats (for its spectrum), and ``hadamard_power_rank(...)`` (GF(p) by default)
certifies its rank for sizes where exact rational Gram matrices are too slow (e.g.
:math:`n = (\!(5\ 9)\!) = 715` rows).

References
----------
.. [1] 003, App. B.2 (eqs. 24-27), Lemma 7 (from Levine et al. 2018a);
   Amini, Karbasi, Marvasti (2012).
.. [2] 001, App. C.2 (Theorem 2: rank of :math:`(BB^T)^{\odot\lambda}`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.domains import Domain, domain_for, matrix_rank
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.rank import RankResult
from seprank.core.results import Certificate, Method, RankValued
from seprank.core.validation import validated
from seprank.d2w.bounds import multiset_coefficient

__all__ = [
    "HadamardRankResult",
    "Lemma7Result",
    "compositions",
    "hadamard_power_gram",
    "hadamard_power_rank",
    "lemma7_determinant",
    "paper_witness_V",
    "rational_sphere_V",
]


@validated(d="count", total="count0")
def compositions(d: int, total: int) -> list[tuple[int, ...]]:
    """All :math:`q \\in \\mathbb Z_{\\ge 0}^d` with :math:`\\sum_r q_r =` ``total``, in
    lexicographic order; there are :math:`(\\!(d\\ \\text{total})\\!)` of them.

    Stars and bars: the d - 1 bars of each choice of positions among total + d - 1 cut the
    total stars into the parts (lexicographic because the bar positions are).  Also the index
    set of the counting lemmas of paper 000/001, App. B.1 (:mod:`seprank.incontext.lemmas`,
    compositions of K into M parts = ``compositions(M, K)``).

    Parameters
    ----------
    d : int
        Number of parts (>= 1).
    total : int
        Their sum (>= 0).

    Returns
    -------
    list of tuple of int
        The compositions, in lexicographic order.

    References
    ----------
    .. [1] 003, App. B.2 (rows of V indexed by compositions);
       001, App. B.1.

    Examples
    --------
    >>> compositions(2, 3)
    [(0, 3), (1, 2), (2, 1), (3, 0)]
    """
    count = math.comb(total + d - 1, d - 1)
    guard_memory(count * (72 + 8 * d), what=f"the {count:,} compositions of {total} into {d} "
                 "parts", fix="use a smaller total or fewer parts")
    out = []
    for bars in itertools.combinations(range(total + d - 1), d - 1):
        prev, parts = -1, []
        for b in bars:
            parts.append(b - prev - 1)
            prev = b
        parts.append(total + d - 2 - prev)
        out.append(tuple(parts))
    return out


@validated(d="count", lam="count0", normalized="bool")
def paper_witness_V(d: int, lam: int, *, omega: int = 2,
                    normalized: bool = True) -> npt.NDArray[Any]:
    r"""The V of App. B.2: rows :math:`\Omega^{q^\alpha}` over the compositions of λ into d
    parts, divided by their Euclidean norms (``normalized=True``, float64) or not (exact
    integers, ``normalized=False``; same Hadamard-power rank).

    Parameters
    ----------
    d : int
        Number of columns (parts of the compositions).
    lam : int
        λ, the sum of each composition.
    omega : int, keyword-only
        Ω, the base of the rows :math:`\Omega^{q}` (default 2).
    normalized : bool, keyword-only
        Divide each row by its Euclidean norm (float64); False: exact integers.

    Returns
    -------
    numpy.ndarray
        V, one row per composition, shape :math:`((\!(d\ \lambda)\!), d)`.

    References
    ----------
    .. [1] 003, App. B.2 (the V with rows Omega^q / norm).

    Examples
    --------
    >>> paper_witness_V(2, 1, normalized=False)
    array([[1, 2],
           [2, 1]], dtype=object)
    """
    if isinstance(omega, bool) or not isinstance(omega, int) or omega < 2:
        raise ValueError(f"omega must be an integer >= 2 (Lemma 7 excludes -1, 0, 1 for "
                         f"d = 2, lambda = 3), got {omega!r}")
    rows = compositions(d, lam)
    W = np.array([[omega**q for q in row] for row in rows], dtype=object)
    if not normalized:
        return W
    Wf = W.astype(float)
    return Wf / np.linalg.norm(Wf, axis=1, keepdims=True)


@validated(n_rows="count", d="count", seed="seed", spread="count")
def rational_sphere_V(n_rows: int, d: int, *, seed: SeedLike = None,
                      spread: int = 1000) -> npt.NDArray[Any]:
    r"""``n_rows`` random points of the unit sphere in :math:`\mathbb Q^d` (exact Fractions):
    inverse stereographic projection :math:`v = (2 m u,\ \|u\|^2 - m^2) / (\|u\|^2 + m^2)` of
    random integers :math:`u \in [-\text{spread}, \text{spread}]^{d-1}`, :math:`m \ge 1`.

    Rows are pairwise distinct up to sign (a repeated row, or a row and its negative, would make
    two rows of :math:`(VV^T)^{\odot\lambda}` proportional); for d = 1 the sphere is
    :math:`\{\pm 1\}` and at most one row exists.

    Parameters
    ----------
    n_rows : int
        Number of points.
    d : int
        Dimension.
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the integers u and m.
    spread : int, keyword-only
        Range of the integers u (default 1000).

    Returns
    -------
    numpy.ndarray
        Object array of Fractions, shape ``(n_rows, d)``, rows of unit norm.

    Examples
    --------
    >>> V = rational_sphere_V(3, 4, seed=0)
    >>> [sum(x * x for x in row) for row in V]
    [Fraction(1, 1), Fraction(1, 1), Fraction(1, 1)]
    """
    if n_rows < 1 or d < 1:
        raise ValueError(f"need n_rows >= 1 and d >= 1, got {n_rows}, {d}")
    if d == 1 and n_rows > 1:
        raise ValueError("the unit sphere of Q^1 is {-1, 1}: only one row up to sign")
    guard_memory(2 * array_bytes((n_rows, d), object),
                 what=f"{n_rows:,} rational rows of dimension {d:,}", fix="use fewer rows")
    rng = as_generator(seed)
    V = np.empty((n_rows, d), dtype=object)
    seen: set[tuple[Fraction, ...]] = set()
    a, draws = 0, 0
    while a < n_rows:
        draws += 1
        if draws > 100 * n_rows + 1000:
            raise ValueError(f"could not draw {n_rows} rows distinct up to sign with spread "
                             f"{spread}; increase spread")
        if d == 1:
            row: tuple[Fraction, ...] = (Fraction(1),)
        else:
            u = [int(x) for x in rng.integers(-spread, spread + 1, d - 1)]
            m = int(rng.integers(1, spread + 1))
            norm2 = sum(x * x for x in u)
            den = norm2 + m * m
            row = (*(Fraction(2 * m * x, den) for x in u), Fraction(norm2 - m * m, den))
        if row in seen or tuple(-x for x in row) in seen:
            continue
        seen.add(row)
        V[a] = row
        a += 1
    return V


@dataclass(frozen=True, repr=False)
class HadamardRankResult(RankValued):
    """Rank of the Hadamard power :math:`(VV^T)^{\\odot\\,\\mathrm{power}}` with the Amini bound
    :math:`(\\!(r\\ \\mathrm{power})\\!)`.

    Attributes
    ----------
    rank : int
        The rank of the Hadamard power.
    amini_bound : int
        :math:`(\\!(\\operatorname{rank} G\\ \\ \\mathrm{power})\\!)`, which the rank can never
        exceed.
    gram_rank : int
        :math:`\\operatorname{rank} G` (certified from below, modulo primes).
    rank_result : RankResult
        The rank of the Hadamard power in its domain: GF(p) for ``method='modular'`` (the
        prime is in ``rank_result.details['primes']``), Q for ``'exact'``.
    certifies : {'exact', 'lower_bound'}
        ``rank_result.certifies``: ``'exact'`` if the rank is proven (exact method or full rank
        mod p).
    details : Mapping
        The method, the prime and the shape.
    """

    rank: int
    amini_bound: int
    gram_rank: int
    rank_result: RankResult
    details: Mapping[str, Any] = field(default_factory=dict)
    certifies: Certificate = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "certifies", self.rank_result.certifies)
        super().__post_init__()

    @property
    def method(self) -> Method:
        return self.rank_result.method

    @property
    def attains_bound(self) -> bool:
        return self.rank == self.amini_bound

    def _repr_info(self) -> dict[str, Any]:
        return {"rank": self.rank, "amini_bound": self.amini_bound,
                "gram_rank": self.gram_rank, "method": self.method,
                "certifies": self.certifies}

    def summary(self) -> str:
        """One line in words: the value, what it certifies, the key evidence.

        Returns
        -------
        str
            One line: the rank, what it certifies and the Amini bound.
        """
        return (f"rank {self.rank} of the Hadamard power ({self.method}, certifies "
                f"{self.certifies}); Amini bound (({self.gram_rank} p)) = {self.amini_bound}")


_MAX_PRIME_ATTEMPTS = 64


def _matrix(V: npt.ArrayLike) -> npt.NDArray[Any]:
    arr = np.asarray(V)
    if arr.ndim != 2:
        raise ValueError(f"V must be a 2-D matrix, got shape {arr.shape}")
    return arr


def _exact_matrix(V: npt.ArrayLike, caller: str) -> npt.NDArray[Any]:
    """V as a 2-D integer (int64 when small) or object (int / Fraction) array; floats refused."""
    arr = _matrix(V)
    if arr.dtype.kind in "fc":
        raise TypeError(f"{caller} needs exact V (integers or Fractions); floats would certify "
                        "nothing -- use paper_witness_V(..., normalized=False) or "
                        "rational_sphere_V")
    if arr.dtype == object and all(isinstance(x, int | np.integer) for x in arr.ravel()):
        biggest = max((abs(int(x)) for x in arr.ravel()), default=0)
        if biggest < 2**62:
            arr = arr.astype(np.int64)
    return arr


def _exact_gram(arr: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """:math:`VV^T` exactly: int64 when no entry can overflow, else Python ints / Fractions."""
    small = arr.size and float(np.max(np.abs(arr))) ** 2 * arr.shape[1] < 2**62
    if arr.dtype.kind in "iu" and small:
        return arr.astype(np.int64) @ arr.astype(np.int64).T
    obj = arr.astype(object)
    return obj.dot(obj.T)


def _hadamard_power(G: npt.NDArray[Any], power: int) -> npt.NDArray[Any]:
    if G.dtype != object:
        bound = float(np.max(np.abs(G))) if G.size else 0.0
        if bound == 0 or power * math.log2(bound) < 62:
            return G.astype(np.int64) ** power
        G = G.astype(object)
    return np.vectorize(lambda x: x**power, otypes=[object])(G)


def _check_power(power: int) -> int:
    if isinstance(power, bool) or not isinstance(power, int | np.integer) or power < 1:
        raise ValueError(f"power must be a positive integer, got {power!r}")
    return int(power)


def hadamard_power_gram(V: npt.ArrayLike, power: int) -> npt.NDArray[Any]:
    r"""The Hadamard power :math:`(VV^T)^{\odot\,\mathrm{power}}` of the Gram matrix of the rows
    of V.

    Exact for integer or rational V (int64 while no entry can overflow, else Python ints /
    Fractions in an object array); float64 for float V -- certifies nothing, meant for spectra
    and norms (Lemmas 10, 11 and 15 of paper 001, App. C.2).

    Parameters
    ----------
    V : array_like
        A 2-D matrix (integers, Fractions, or floats).
    power : int
        The Hadamard exponent (>= 1).

    Returns
    -------
    numpy.ndarray
        :math:`(VV^T)^{\odot\,\mathrm{power}}`, square of side the number of rows of V.

    References
    ----------
    .. [1] 003, App. B.2 (eqs. 25-27); 001,
       App. C.2 (Theorem 2, Lemmas 10-11, 15).

    Examples
    --------
    >>> hadamard_power_gram([[1, 0], [1, 1]], 2)
    array([[1, 1],
           [1, 4]])
    >>> hadamard_power_gram([[Fraction(3, 5), Fraction(4, 5)]], 3)[0, 0]
    Fraction(1, 1)
    """
    power = _check_power(power)
    arr = _matrix(V)
    if arr.dtype.kind in "fc":
        if not np.all(np.isfinite(arr)):
            raise ValueError("V contains NaN or infinite entries")
        return (arr @ arr.T) ** power
    return _hadamard_power(_exact_gram(_exact_matrix(arr, "hadamard_power_gram")), power)


def _hadamard_power_rank_in(domain: Domain, arr: npt.NDArray[Any], power: int,
                            rng: np.random.Generator) -> RankResult:
    """V read into ``domain``, G and its Hadamard power formed there, ranked there.  A GF(p)
    domain whose prime divides a denominator of V is redrawn (from ``rng``, same size)."""
    for _ in range(_MAX_PRIME_ATTEMPTS):
        try:
            Vq = domain.asarray(arr)
        except ZeroDivisionError:
            domain = domain_for(domain.method, rng)
            continue
        G = domain.matmul(Vq, Vq.T)
        P, base, e = np.ones_like(G), G, power
        while e:
            if e & 1:
                P = domain.mul(P, base)
            base, e = domain.mul(base, base), e >> 1
        return domain.rank(P)
    raise RuntimeError(f"{_MAX_PRIME_ATTEMPTS} random primes all divided a denominator of V; "
                       "use method='exact'")


def hadamard_power_rank(V: npt.ArrayLike, power: int, *, method: Method = "modular",
                        seed: SeedLike = 0) -> HadamardRankResult:
    r"""Certified rank of the Hadamard power :math:`(VV^T)^{\odot\,\mathrm{power}}` of an exact V.

    Also reports the Amini bound :math:`(\!(\operatorname{rank} G\ \ \mathrm{power})\!)`
    (App. B.2), which
    the rank can never exceed, with :math:`\operatorname{rank} G = \operatorname{rank} V`
    (rational V) certified from below by :func:`~seprank.matrix_rank` (``'modular'``).

    Parameters
    ----------
    V : array_like
        Integers or Fractions (object arrays); floats are refused.
    power : int
        The Hadamard exponent, >= 1.
    method : {'modular', 'exact'}, keyword-only
        * ``'modular'`` (default) -- V is reduced modulo one random prime
          :math:`p \in [2^{24}, 2^{25})` and G, :math:`G^{\odot\,\mathrm{power}}` are formed
          in GF(p) on int64 residues (:class:`~seprank.ModularDomain`), then ranked mod p.
          Reduction commutes with the products, so this is the GF(p) rank of the rational
          matrix: a certified lower bound, exact when full -- fast even where rational entries
          become huge (e.g. 715 rows, power = 9).
        * ``'exact'`` -- G and :math:`G^{\odot\,\mathrm{power}}` over Q, exact rank.
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the choice of primes.

    Returns
    -------
    HadamardRankResult
        The certified rank and the Amini bound.

    References
    ----------
    .. [1] 003, App. B.2 (eqs. 25-27); Amini et al. (2012);
       001, App. C.2 (Theorem 2: rank of :math:`(BB^T)^{\odot\lambda}`).

    Examples
    --------
    >>> r = hadamard_power_rank(paper_witness_V(3, 3, normalized=False), 3)
    >>> r.rank, r.amini_bound, r.certifies
    (10, 10, 'exact')
    >>> hadamard_power_rank(rational_sphere_V(10, 2, seed=0), 9).rank
    10
    """
    arr = _exact_matrix(V, "hadamard_power_rank")
    power = _check_power(power)
    if method not in ("modular", "exact"):
        raise ValueError(f"method must be 'modular' or 'exact', got {method!r}")
    rng = as_generator(seed)
    result = _hadamard_power_rank_in(domain_for(method, rng), arr, power, rng)
    gram_rank = matrix_rank(arr, method="modular", seed=rng).rank
    return HadamardRankResult(result.rank, multiset_coefficient(gram_rank, power), gram_rank,
                              result)


@dataclass(frozen=True)
class Lemma7Result:
    r"""The determinant of :math:`\hat A = [\Omega^{\langle q^\alpha, k\rangle}]` as a
    polynomial in Ω (App. B.2 with Lemmas 7-8).

    Attributes
    ----------
    degree : int
        Degree of det :math:`\hat A` in Ω.
    expected_degree : int
        :math:`\sum_\alpha \|q^\alpha\|^2`, the degree Lemma 8 predicts.
    leading_coefficient : int
        The coefficient of the top-degree term (+-1 for a unique top permutation).
    real_roots : tuple
        The real Ω where the determinant vanishes.
    unique_top_permutation : bool
        Whether the identity is the only permutation reaching the top degree.
    """

    degree: int
    expected_degree: int
    leading_coefficient: int
    real_roots: tuple[Any, ...]
    unique_top_permutation: bool


@validated(d="count", lam="count0")
def lemma7_determinant(d: int, lam: int) -> Lemma7Result:
    r"""Check Lemmas 7-8 on :math:`\hat A_{\alpha k} = \Omega^{\langle q^\alpha, k\rangle}`
    (rows and columns indexed by the compositions of λ into d parts), with sympy.

    Lemma 8 makes the identity permutation the unique top-degree term of the determinant, of
    degree :math:`\sum_\alpha \|q^\alpha\|^2`, so det is a nonzero polynomial (Lemma 7) and
    vanishes only at finitely many Ω (its real roots are returned).

    Parameters
    ----------
    d : int
        Number of parts of the compositions (the dimension d of App. B.2).
    lam : int
        λ, their sum.

    Returns
    -------
    Lemma7Result
        Degree, leading coefficient and real roots of the determinant.

    References
    ----------
    .. [1] 003, Lemmas 7-8 (App. B.3), App. B.2.

    Examples
    --------
    >>> r = lemma7_determinant(2, 3)
    >>> r.degree, r.expected_degree, abs(r.leading_coefficient), r.real_roots
    (28, 28, 1, (-1, 0, 1))
    """
    import sympy

    comps = compositions(d, lam)
    if len(comps) > 12:
        raise ValueError(f"{len(comps)} x {len(comps)} symbolic determinant is too large "
                         "(at most 12 x 12)")
    omega = sympy.Symbol("Omega")
    A = sympy.Matrix([[omega ** sum(a * b for a, b in zip(q, k, strict=True)) for k in comps]
                      for q in comps])
    poly = sympy.Poly(sympy.expand(A.det(method="berkowitz")), omega)
    expected = sum(sum(x * x for x in q) for q in comps)
    exps = [[sum(a * b for a, b in zip(q, k, strict=True)) for k in comps] for q in comps]
    n = len(comps)
    diag = sum(exps[i][i] for i in range(n))
    # Lemma 8 via the assignment problem: the identity is the unique maximiser iff the best
    # non-identity permutation (brute force for n <= 8, else skipped) scores less
    unique = True
    if n <= 8:
        unique = all(sum(exps[i][s[i]] for i in range(n)) < diag
                     for s in itertools.permutations(range(n)) if list(s) != list(range(n)))
    roots = tuple(sorted(set(sympy.real_roots(poly))))
    return Lemma7Result(int(poly.degree()), expected, int(poly.LC()), roots, unique)
