r"""Hadamard powers of Gram matrices: the rank argument of seed 003, App. B.2, and Lemma 7.

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

References
----------
.. [1] Seed 003_780437e4ec8fa9c6, App. B.2 (eqs. 24-27), Lemma 7 (from Levine et al. 2018a);
   Amini, Karbasi, Marvasti (2012).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.bounds import multiset_coefficient
from seprank.rank import RankResult, matrix_rank

__all__ = [
    "HadamardRankResult",
    "Lemma7Result",
    "compositions",
    "hadamard_power_rank",
    "lemma7_determinant",
    "paper_witness_V",
    "rational_sphere_V",
]


def compositions(d: int, total: int) -> list[tuple[int, ...]]:
    """All :math:`q \\in \\mathbb Z_{\\ge 0}^d` with :math:`\\sum_r q_r =` ``total``, in
    lexicographic order; there are :math:`(\\!(d\\ \\text{total})\\!)` of them.

    References
    ----------
    .. [1] Seed 003_780437e4ec8fa9c6, App. B.2 (rows of V indexed by compositions).

    Examples
    --------
    >>> compositions(2, 3)
    [(0, 3), (1, 2), (2, 1), (3, 0)]
    """
    if d < 1 or total < 0:
        raise ValueError(f"need d >= 1 and total >= 0, got d={d}, total={total}")
    if d == 1:
        return [(total,)]
    return [(first, *rest) for first in range(total + 1)
            for rest in compositions(d - 1, total - first)]


def paper_witness_V(d: int, lam: int, *, omega: int = 2,
                    normalized: bool = True) -> npt.NDArray[Any]:
    r"""The V of App. B.2: rows :math:`\Omega^{q^\alpha}` over the compositions of λ into d
    parts, divided by their Euclidean norms (``normalized=True``, float64) or not (exact
    integers, ``normalized=False``; same Hadamard-power rank).

    References
    ----------
    .. [1] Seed 003_780437e4ec8fa9c6, App. B.2 (the V with rows Omega^q / norm).

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


def rational_sphere_V(n_rows: int, d: int, *, seed: int | np.random.Generator | None = None,
                      spread: int = 1000) -> npt.NDArray[Any]:
    r"""``n_rows`` random points of the unit sphere in :math:`\mathbb Q^d` (exact Fractions):
    inverse stereographic projection :math:`v = (2 m u,\ \|u\|^2 - m^2) / (\|u\|^2 + m^2)` of
    random integers :math:`u \in [-\text{spread}, \text{spread}]^{d-1}`, :math:`m \ge 1`.

    Rows are pairwise distinct up to sign (a repeated row, or a row and its negative, would make
    two rows of :math:`(VV^T)^{\odot\lambda}` proportional); for d = 1 the sphere is
    :math:`\{\pm 1\}` and at most one row exists.

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
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
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


@dataclass(frozen=True)
class HadamardRankResult:
    """Rank of :math:`(VV^T)^{\\odot p}` with the Amini bound :math:`(\\!(r\\ p)\\!)`."""

    rank: int
    amini_bound: int
    gram_rank: int
    rank_result: RankResult

    @property
    def certifies(self) -> str:
        """``'exact'`` if the rank is proven (exact method or full rank mod p)."""
        return self.rank_result.certifies

    @property
    def attains_bound(self) -> bool:
        return self.rank == self.amini_bound


def _hadamard_power(G: npt.NDArray[Any], power: int) -> npt.NDArray[Any]:
    if G.dtype != object:
        bound = float(np.max(np.abs(G))) if G.size else 0.0
        if bound == 0 or power * math.log2(bound) < 62:
            return G.astype(np.int64) ** power
        G = G.astype(object)
    return np.vectorize(lambda x: x**power, otypes=[object])(G)


def hadamard_power_rank(V: npt.ArrayLike, power: int, *, method: str = "modular",
                        seed: int | None = 0) -> HadamardRankResult:
    r"""Certified rank of the Hadamard power :math:`(VV^T)^{\odot p}` of an exact V.

    Computes :math:`G = VV^T` exactly (integers or Fractions), raises it entrywise to the
    power p and takes :func:`~seprank.matrix_rank` (``'modular'``: certified lower bound, exact
    when full; ``'exact'``).  Also reports the Amini bound :math:`(\!(\operatorname{rank}
    G\ \ p)\!)` (App. B.2), which the rank can never exceed.

    References
    ----------
    .. [1] Seed 003_780437e4ec8fa9c6, App. B.2 (eqs. 25-27); Amini et al. (2012).

    Examples
    --------
    >>> r = hadamard_power_rank(paper_witness_V(3, 3, normalized=False), 3)
    >>> r.rank, r.amini_bound, r.certifies
    (10, 10, 'exact')
    """
    arr = np.asarray(V)
    if arr.ndim != 2:
        raise ValueError(f"V must be a 2-D matrix, got shape {arr.shape}")
    if arr.dtype.kind in "fc":
        raise TypeError("hadamard_power_rank needs exact V (integers or Fractions); floats "
                        "would certify nothing -- use paper_witness_V(..., normalized=False)")
    if isinstance(power, bool) or not isinstance(power, int) or power < 1:
        raise ValueError(f"power must be a positive integer, got {power!r}")
    if arr.dtype == object and all(isinstance(x, int | np.integer) for x in arr.ravel()):
        biggest = max((abs(int(x)) for x in arr.ravel()), default=0)
        if biggest < 2**62:
            arr = arr.astype(np.int64)
    small = arr.size and float(np.max(np.abs(arr))) ** 2 * arr.shape[1] < 2**62
    if arr.dtype.kind in "iu" and small:
        G: npt.NDArray[Any] = arr.astype(np.int64) @ arr.astype(np.int64).T
    else:
        obj = arr.astype(object)
        G = obj.dot(obj.T)
    gram_rank = matrix_rank(G, method="modular", seed=seed).rank
    P = _hadamard_power(G, power)
    result = matrix_rank(P, method=method, seed=seed)  # type: ignore[arg-type]
    return HadamardRankResult(result.rank, multiset_coefficient(gram_rank, power), gram_rank,
                              result)


@dataclass(frozen=True)
class Lemma7Result:
    r"""The determinant of :math:`\hat A = [\Omega^{\langle q^\alpha, k\rangle}]` as a
    polynomial in Ω (App. B.2 with Lemmas 7-8)."""

    degree: int
    expected_degree: int
    leading_coefficient: int
    real_roots: tuple[Any, ...]
    unique_top_permutation: bool


def lemma7_determinant(d: int, lam: int) -> Lemma7Result:
    r"""Check Lemmas 7-8 on :math:`\hat A_{\alpha k} = \Omega^{\langle q^\alpha, k\rangle}`
    (rows and columns indexed by the compositions of λ into d parts), with sympy.

    Lemma 8 makes the identity permutation the unique top-degree term of the determinant, of
    degree :math:`\sum_\alpha \|q^\alpha\|^2`, so det is a nonzero polynomial (Lemma 7) and
    vanishes only at finitely many Ω (its real roots are returned).

    References
    ----------
    .. [1] Seed 003_780437e4ec8fa9c6, Lemmas 7-8 (App. B.3), App. B.2.

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
        import itertools

        unique = all(sum(exps[i][s[i]] for i in range(n)) < diag
                     for s in itertools.permutations(range(n)) if list(s) != list(range(n)))
    roots = tuple(sorted(set(sympy.real_roots(poly))))
    return Lemma7Result(int(poly.degree()), expected, int(poly.LC()), roots, unique)
