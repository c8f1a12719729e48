r"""Proposition 1, the technical lemmas and the two corollaries of paper 003.

* :func:`proposition1` -- separation ranks over all balanced partitions (Prop. 1 / Claim 3);
* :func:`lemma2_layer_upper`, :func:`lemma2_summed_terms` -- Lemma 2 (App. A.4);
* :func:`lemma3_multiset_product`, :func:`lemma3_equality_case` -- Lemma 3 (App. A.5);
* :func:`lemma4_multiset_upper` -- Lemma 4 (App. A.5);
* :func:`multiset_lower_bounds` -- the closing inequalities of App. B.2;
* :func:`lemma8_rearrangement` -- Lemma 8 (App. B.3);
* :func:`hadamard_power_rank_bound` -- Amini et al.'s bound used in App. B.2.

Corollaries 1 and 2 are in :mod:`seprank.d2w.corollaries`.

Inequalities are returned as :class:`Inequality` objects (both sides as
:class:`~seprank.core.log3.Log3Value`, decided exactly or in 60-digit logarithms).

References
----------
.. [1] 003 (Levine et al. 2020): Proposition 1 (eq. 6) and Claim 3 (App. C); Lemmas 2-4
   (App. A.4-A.5); App. B.2; Lemma 8.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.attention import LinearAttention
from seprank.core.log3 import (
    EXACT_BITS_LIMIT,
    Log3Value,
    compare,
    log3,
    log3_e,
    log3_multiset_coefficient,
)
from seprank.core.memory import guard_memory
from seprank.core.validation import check_instance, check_int
from seprank.d2w.bounds import Bound, keyword_only, multiset_coefficient, network_shape
from seprank.separation.result import SeparationRankResult

__all__ = [
    "Inequality",
    "Proposition1Result",
    "balanced_partitions",
    "hadamard_power_rank_bound",
    "lemma2_layer_upper",
    "lemma2_summed_terms",
    "lemma3_equality_case",
    "lemma3_multiset_product",
    "lemma4_multiset_upper",
    "lemma8_rearrangement",
    "multiset_lower_bounds",
    "proposition1",
]


@dataclass(frozen=True)
class Inequality:
    """``lhs <= rhs`` as printed in a statement, with both sides measured.

    ``holds`` is ``True``/``False`` when decided (exactly or by logarithms differing by more
    than the tie tolerance) and ``None`` for an undecidable tie.

    Parameters
    ----------
    statement : str
        The inequality as printed.
    lhs, rhs : Log3Value
        Its two sides, measured.
    """

    statement: str
    lhs: Log3Value
    rhs: Log3Value

    @property
    def comparison(self) -> int | None:
        return compare(self.lhs, self.rhs)

    @property
    def holds(self) -> bool | None:
        c = self.comparison
        return None if c is None else c <= 0

    @property
    def is_equality(self) -> bool | None:
        c = self.comparison
        return None if c is None else c == 0


# --- Proposition 1 --------------------------------------------------------------------------


def balanced_partitions(
    n_inputs: int, *, containing: int | None = 0
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """All balanced partitions (A, B), :math:`|A| = |B| = N/2`, of the positions 0..N-1.

    With ``containing=j`` (default 0) each partition is listed once, with j in A (sep is
    symmetric in (A, B)); with ``containing=None`` both orders are listed.

    Parameters
    ----------
    n_inputs : int
        N, even.
    containing : int or None, keyword-only
        The position listed in A (default 0); None lists both orders.

    Returns
    -------
    list of (tuple of int, tuple of int)
        The partitions (A, B).

    References
    ----------
    .. [1] 003, Proposition 1 (eq. 6), Claim 3 (App. C).

    Examples
    --------
    >>> balanced_partitions(4)
    [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    >>> len(balanced_partitions(6)), len(balanced_partitions(6, containing=None))
    (10, 20)
    """
    N = check_int("n_inputs N", n_inputs, 2)
    if N % 2:
        raise ValueError(f"balanced partitions need an even number of positions, got N = {N}")
    if containing is not None:
        containing = check_int("containing", containing, 0, N - 1)
    # ~C(N, N/2) partitions, estimated in log space (the binomial itself is astronomical)
    log_count = math.lgamma(N + 1) - 2 * math.lgamma(N // 2 + 1)
    guard_memory(math.exp(min(log_count, 700.0)) * (120 + 16 * N),
                 what=f"the balanced partitions of {N} positions", fix="use fewer positions")
    out = []
    for A in itertools.combinations(range(N), N // 2):
        if containing is not None and containing not in A:
            continue
        out.append((A, tuple(j for j in range(N) if j not in A)))
    return out


@dataclass(frozen=True)
class Proposition1Result:
    """Separation ranks of one output entry over several partitions (Proposition 1).

    Parameters
    ----------
    ranks : dict
        The separation-rank result of each partition (A, B).
    """

    ranks: dict[tuple[tuple[int, ...], tuple[int, ...]], SeparationRankResult]

    @property
    def values(self) -> dict[tuple[tuple[int, ...], tuple[int, ...]], int]:
        return {part: r.rank for part, r in self.ranks.items()}

    @property
    def all_equal(self) -> bool:
        return len(set(self.values.values())) == 1


def proposition1(
    net: LinearAttention, *, n_inputs: int, position: int = 0, coordinate: int = 0,
    partitions: Sequence[tuple[Sequence[int], Sequence[int]]] | None = None,
    method: str = "modular", seed: int | None = 0, **kwargs: Any,
) -> Proposition1Result:
    r"""Proposition 1 (eq. 6) / Claim 3: for every Θ, the separation rank of
    :math:`y_p^{i,L,d_x,H,\Theta}` is the same for all balanced partitions of [N].

    Computes :meth:`~seprank.LinearAttention.separation_rank` (certified lower bounds, same
    ``seed`` -- hence the same prime and templates -- for every partition) on
    ``partitions`` (default: every balanced partition, listed once with the output
    ``position`` i in A; ``coordinate`` is p).

    Parameters
    ----------
    net : LinearAttention
        The network.
    n_inputs : int, keyword-only
        N, even.
    position : int, keyword-only
        The output position i (default 0).
    coordinate : int, keyword-only
        The output coordinate p (default 0).
    partitions : sequence of (A, B), optional, keyword-only
        The partitions (default: every balanced partition with ``position`` in A).
    method : str, keyword-only
        The method of :meth:`~seprank.LinearAttention.separation_rank` (default ``'modular'``).
    seed : int or None, keyword-only
        One seed for every partition (default 0).
    **kwargs
        Passed to :meth:`~seprank.LinearAttention.separation_rank`.

    Returns
    -------
    Proposition1Result
        The separation rank of each partition.

    References
    ----------
    .. [1] 003, Proposition 1 (eq. 6), Claim 3 (App. C).

    Examples
    --------
    >>> from seprank import LinearAttention
    >>> net = LinearAttention.random(depth=1, width=2, seed=0)
    >>> proposition1(net, n_inputs=4).values
    {((0, 1), (2, 3)): 3, ((0, 2), (1, 3)): 3, ((0, 3), (1, 2)): 3}
    """
    check_instance("net", net, LinearAttention, expected="a seprank.LinearAttention",
                   hint="build one with LinearAttention.random(depth=..., width=...)")
    n_inputs = check_int("n_inputs", n_inputs, 2)
    position = check_int("output position", position, 0, n_inputs - 1)
    coordinate = check_int("output coordinate", coordinate, 0, net.width - 1)
    parts = (balanced_partitions(n_inputs, containing=position) if partitions is None
             else [(tuple(A), tuple(B)) for A, B in partitions])
    ranks = {}
    for A, B in parts:
        ranks[(tuple(A), tuple(B))] = net.separation_rank(
            position=position, coordinate=coordinate, partition=(A, B), n_inputs=n_inputs,
            method=method, seed=seed, **kwargs)
    return Proposition1Result(ranks)


# --- Lemma 2 ---------------------------------------------------------------------------------


@keyword_only
def lemma2_layer_upper(*, width: int, heads: int, n_inputs: int, input_sep: int = 1) -> Bound:
    r"""Lemma 2 (App. A.4): if every entry of every input :math:`g^j` of one eq.-3 layer has
    separation rank at most K, then :math:`\operatorname{Sep}(y_p^i) \le \frac{N d_x^4}{H} K^3`
    (every Θ).

    Parameters
    ----------
    width : int
        :math:`d_x`.
    heads : int
        H.
    n_inputs : int
        N.
    input_sep : int, default 1
        K, the bound on the separation rank of every input entry.

    Returns
    -------
    Bound
        :math:`N d_x^4 K^3 / H`.

    References
    ----------
    .. [1] 003, Lemma 2 (App. A.4).

    Examples
    --------
    >>> lemma2_layer_upper(width=4, heads=2, n_inputs=3).value
    384
    """
    d_x, _, H = network_shape(width, 1, heads)
    N = check_int("n_inputs N", n_inputs, 1)
    K = check_int("input_sep K", input_sep)
    X = Fraction(N * d_x**4, H) * K**3
    return Bound("Lemma 2 (App. A.4)", "upper", log3(X), (X, 1), "every weight assignment",
                 ("entries of the layer inputs have sep <= K",))


def lemma2_summed_terms(width: int, heads: int, n_inputs: int) -> int:
    r"""Number of summed index tuples in eq. 21 (h, α1, α2, j, α4, α5, α6), counted from the
    printed summation ranges: :math:`H \cdot \frac{d_x}{H} d_x N d_x \frac{d_x}{H} d_x =
    N d_x^5 / H` -- not the :math:`N d_x^4 / H` the proof multiplies by :math:`K^3`.

    Parameters
    ----------
    width : int
        :math:`d_x`.
    heads : int
        H.
    n_inputs : int
        N.

    Returns
    -------
    int
        :math:`N d_x^5 / H`.

    References
    ----------
    .. [1] 003, Lemma 2, eq. 21 (App. A.4).

    Examples
    --------
    >>> lemma2_summed_terms(4, 2, 3)
    1536
    """
    d_x, _, H = network_shape(width, 1, heads)
    N = check_int("n_inputs N", n_inputs, 1)
    d_a = d_x // H
    ranges = {"h": H, "alpha1": d_a, "alpha2": d_x, "j": N, "alpha4": d_x, "alpha5": d_a,
              "alpha6": d_x}
    return math.prod(ranges.values())


# --- Lemmas 3 and 4, closing inequalities ---------------------------------------------------


def lemma3_multiset_product(n: int, rs: Sequence[int]) -> Inequality:
    r"""Lemma 3 (App. A.5): :math:`\varphi(r) = \prod_{j=1}^k (\!(n\ r_j)\!) \le
    \frac{\left(\prod_{t=1}^{n-1} (M/k + t)\right)^k}{((n-1)!)^k}`, :math:`M = \sum_j r_j`
    (both sides exact).

    Parameters
    ----------
    n : int
        The multiset parameter n.
    rs : sequence of int
        :math:`r_1..r_k`.

    Returns
    -------
    Inequality
        :math:`\varphi(r) \le` the corrected right-hand side, both sides exact.

    References
    ----------
    .. [1] 003, Lemma 3 (App. A.5).

    Examples
    --------
    >>> ineq = lemma3_multiset_product(3, [1, 2, 6])
    >>> ineq.holds, int(ineq.lhs.exact[0]), int(ineq.rhs.exact[0])   # 3 * 6 * 28 <= 20^3 / 2^3
    (True, 504, 1000)
    """
    n = check_int("n", n)
    if isinstance(rs, str | bytes) or not hasattr(rs, "__iter__"):
        raise TypeError(f"rs must be a sequence of non-negative integers, got {rs!r}")
    rs = [check_int("rs entry", x, 0) for x in rs]
    r = [int(x) for x in rs]
    if not r or any(x < 0 for x in r):
        raise ValueError(f"rs must be a non-empty sequence of non-negative integers, got {rs!r}")
    k, M = len(r), sum(r)
    lhs = math.prod(multiset_coefficient(n, x) for x in r)
    mean = Fraction(M, k)
    rhs = math.prod(mean + t for t in range(1, n)) ** k / Fraction(math.factorial(n - 1)) ** k
    return Inequality("Lemma 3", Log3Value.of(lhs), Log3Value.of(rhs))


def lemma3_equality_case(n: int, k: int, m: int) -> tuple[int, Fraction, Fraction]:
    r"""Lemma 3's equality case with all :math:`r_j = m = M/k`: returns
    :math:`(\varphi(m, .., m),\ \text{printed},\ \text{corrected})` where the printed
    right-hand side is :math:`\left(\prod_{t=1}^{n-1}(m+t)\right)^k` and the corrected one
    divides it by :math:`((n-1)!)^k` (notes §7.10).

    Parameters
    ----------
    n : int
        The multiset parameter n.
    k : int
        Number of factors.
    m : int
        The common value of the :math:`r_j`.

    Returns
    -------
    (int, fractions.Fraction, fractions.Fraction)
        :math:`\varphi(m, .., m)`, the printed and the corrected right-hand sides.

    References
    ----------
    .. [1] 003, Lemma 3 and its proof (App. A.5).

    Examples
    --------
    >>> lemma3_equality_case(3, 2, 4)
    (225, Fraction(900, 1), Fraction(225, 1))
    """
    n, k = check_int("n", n), check_int("k", k)
    m = check_int("m", m, 0)
    phi = multiset_coefficient(n, m) ** k
    printed = Fraction(math.prod(m + t for t in range(1, n))) ** k
    return phi, printed, printed / Fraction(math.factorial(n - 1)) ** k


def lemma4_multiset_upper(n: int, k: int) -> Inequality:
    r"""Lemma 4 (App. A.5): :math:`(\!(n\ k)\!) \le \left(\frac{2e(n+k)}{n}\right)^n`.

    Parameters
    ----------
    n : int
        Number of parts.
    k : int
        Their sum.

    Returns
    -------
    Inequality
        Lemma 4's inequality, both sides measured.

    References
    ----------
    .. [1] 003, Lemma 4 (App. A.5).

    Examples
    --------
    >>> lemma4_multiset_upper(14, 26).holds
    True
    """
    n, k = check_int("n", n), check_int("k", k, 0)
    lhs = Log3Value(log3_multiset_coefficient(n, k),
                    (Fraction(multiset_coefficient(n, k)), 1)
                    if min(n - 1, k) * math.log2(n + k) <= EXACT_BITS_LIMIT else None)
    rhs = Log3Value(n * (log3(2) + log3_e() + log3(Fraction(n + k, n))))
    return Inequality("Lemma 4", lhs, rhs)


def multiset_lower_bounds(n: int, k: int) -> tuple[Inequality, Inequality]:
    r"""The closing inequalities of App. B.2:
    :math:`(\!(n\ k)\!) \ge \left(\frac{n-1}{k}+1\right)^k` and
    :math:`(\!(n\ k)\!) \ge \left(\frac{k}{n-1}+1\right)^{n-1}` (n >= 2, k >= 1), returned as
    two :class:`Inequality` with the multiset coefficient on the right.

    Parameters
    ----------
    n : int
        Number of parts (>= 2).
    k : int
        Their sum (>= 1).

    Returns
    -------
    (Inequality, Inequality)
        The two lower bounds.

    References
    ----------
    .. [1] 003, App. B.2 (after eq. 24).

    Examples
    --------
    >>> [ineq.holds for ineq in multiset_lower_bounds(14, 3)]
    [True, True]
    """
    n, k = check_int("n", n, 2), check_int("k", k)
    exact_ok = min(n - 1, k) * math.log2(n + k) <= EXACT_BITS_LIMIT
    mc = Log3Value(log3_multiset_coefficient(n, k),
                   (Fraction(multiset_coefficient(n, k)), 1) if exact_ok else None)
    first_base, second_base = Fraction(n - 1, k) + 1, Fraction(k, n - 1) + 1

    def power(base: Fraction, e: int) -> Log3Value:
        size = max(base.numerator.bit_length(), base.denominator.bit_length()) * e
        return Log3Value(e * log3(base), (base**e, 1) if size <= EXACT_BITS_LIMIT else None)

    return (Inequality("App. B.2: ((n k)) >= ((n-1)/k + 1)^k", power(first_base, k), mc),
            Inequality("App. B.2: ((n k)) >= (k/(n-1) + 1)^(n-1)", power(second_base, n - 1),
                       mc))


def hadamard_power_rank_bound(rank: int, power: int) -> int:
    r"""Amini et al. (2012), used in App. B.2: a rank-r matrix has
    :math:`\operatorname{rank}(A^{\odot\,\mathrm{power}}) \le (\!(r\ \mathrm{power})\!)`.

    Parameters
    ----------
    rank : int
        r, the rank of the matrix.
    power : int
        The Hadamard exponent.

    Returns
    -------
    int
        :math:`(\!(r\ \mathrm{power})\!)`.

    References
    ----------
    .. [1] 003, App. B.2; Amini, Karbasi, Marvasti (2012).

    Examples
    --------
    >>> hadamard_power_rank_bound(14, 3)
    560
    """
    return multiset_coefficient(check_int("rank", rank, 0), check_int("power", power))


# --- Lemma 8 ---------------------------------------------------------------------------------


def lemma8_rearrangement(vectors: npt.ArrayLike) -> tuple[bool, int | Fraction | float]:
    r"""Lemma 8 (App. B.3): for distinct non-negative vectors :math:`v^{(1..N)}`, every
    permutation σ ≠ id has :math:`\sum_i \langle v^{(i)}, v^{(\sigma(i))}\rangle <
    \sum_i \|v^{(i)}\|^2`.  Brute force over all N! permutations (N <= 8).

    Returns ``(holds, smallest gap)``.

    Parameters
    ----------
    vectors : array_like
        N <= 8 distinct non-negative vectors, one per row.

    Returns
    -------
    (bool, number)
        Whether every permutation other than the identity is strictly below, and the smallest
        gap.

    References
    ----------
    .. [1] 003, Lemma 8 (App. B.3).

    Examples
    --------
    >>> lemma8_rearrangement([[0, 1], [2, 0], [1, 1]])
    (True, 1)
    """
    V = np.asarray(vectors)
    if V.ndim != 2 or V.shape[0] < 2 or V.shape[0] > 8:
        raise ValueError(f"need an (N, R) array of 2 <= N <= 8 vectors, got shape {V.shape}")
    if V.dtype.kind in "fc" and not np.all(np.isfinite(V)):
        raise ValueError("vectors contain NaN or infinite entries")
    if np.any(V < 0):
        raise ValueError("Lemma 8 needs non-negative vectors")
    if len({tuple(row) for row in V.tolist()}) != V.shape[0]:
        raise ValueError("Lemma 8 needs distinct vectors")
    rows = [[Fraction(x) if V.dtype.kind in "iu" else x for x in row] for row in V.tolist()]
    G = [[sum(a * b for a, b in zip(u, w, strict=True)) for w in rows] for u in rows]
    total = sum(G[i][i] for i in range(len(rows)))
    gap = min(total - sum(G[i][s[i]] for i in range(len(rows)))
              for s in itertools.permutations(range(len(rows))) if list(s) != sorted(s))
    if isinstance(gap, Fraction) and gap.denominator == 1:
        gap = int(gap)
    return bool(gap > 0), gap


# --- Corollaries ------------------------------------------------------------------------------
