r"""Bounds on the (ε-)sequential separation ranks of paper 000/001, evaluated exactly.

Integers are exact Python ints (any size).  Notation: :math:`C(L) = (3^L - 1)/2`
(:func:`seprank.d2w.bounds.mixing_units`; paper 003 defines it, 000/001 never do), so
:math:`2C(L)+1 = 3^L`; :math:`m(k) = \binom{k+d_x-1}{d_x-1} = (\!(d_x\ k)\!)` is the number of
degree-k monomials in :math:`d_x` variables (:func:`seprank.d2w.bounds.multiset_coefficient`).

Two bounds here are **our derivations** (reading notes §3.2, tagged [INF]), not the paper's:

* :func:`bidegree_bound` PB(d_x, L) for the in-context representation, and
* :func:`sequential_ceiling` :math:`m(3^L)` for the sequential one.

Everything else is printed in paper 000/001 (Corollary 1, Theorem 1) or is paper 003's
(Theorems 2-4 of Levine et al. 2020), taken from :mod:`seprank.d2w.bounds` as
:class:`~seprank.d2w.bounds.Bound` objects: 60-digit base-3 logarithms, exact values when rational,
hypotheses flagged, compared exactly or through :mod:`seprank.core.log3` (never in float logs, which
can report false violations).  Theorems 2 and 3 of paper 000/001 are in
:mod:`seprank.incontext.theorems`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from seprank.core.log3 import Log3Value, compare
from seprank.core.validation import check_float, check_int
from seprank.d2w.bounds import Bound, check_depth, mixing_units, multiset_coefficient
from seprank.d2w.theorems import theorem2_upper, theorem3_upper, theorem4_upper

__all__ = [
    "Corollary1Bounds",
    "bidegree_bound",
    "corollary1_bounds",
    "depth_deficit",
    "monomial_count",
    "sequential_ceiling",
    "theorem1_exponent",
]

Version = Literal["000", "001"]


def monomial_count(width: int, degree: int) -> int:
    """:math:`m(k) = \\binom{k + d_x - 1}{d_x - 1}`: degree-k monomials in :math:`d_x` variables.

    Parameters
    ----------
    width : int
        :math:`d_x`, the number of variables.
    degree : int
        k.

    Returns
    -------
    int
        m(k).

    References
    ----------
    .. [1] 001, Corollary 1 (the count m(k) of degree-k monomials).

    Examples
    --------
    >>> monomial_count(2, 9), monomial_count(3, 9)
    (10, 55)
    """
    return multiset_coefficient(check_int("width d_x", width), check_int("degree", degree, 0))


def bidegree_bound(width: int, depth: int) -> int:
    r"""PB(d_x, L): the bidegree bound on seq-sep of the in-context representation. **Our
    derivation** (reading notes §3.2, [INF]), not a statement of the paper.

    .. math::

        \operatorname{seq-sep}(y_{in\text{-}context}) \le PB(d_x, L)
            = \sum_{k=0}^{C(L)} \min\big(m(2k+1),\, m(2C(L)-2k)\big)

    for **all** weights, embeddings, sentences and output positions.  Reason: in eq. 13 every
    summed position enters twice and the output position once, so when i is in :math:`S_1`
    every monomial of :math:`Z_{in}` has bidegree :math:`(2k+1, 2C-2k)` in (a, b) (the mirror
    image when i is in :math:`S_2`, same sum); the separation rank of a polynomial is the rank of
    its (a-monomial x b-monomial) coefficient matrix, which is block-diagonal over bidegrees.

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension.
    depth : int
        L, the number of layers.

    Returns
    -------
    int
        PB(d_x, L).

    References
    ----------
    .. [1] Our derivation from the bidegree structure of 001, eq. 13 (notes §3.2); compare
       001, Corollary 1.

    Examples
    --------
    >>> [bidegree_bound(2, 1), bidegree_bound(2, 2), bidegree_bound(3, 2), bidegree_bound(4, 3)]
    [3, 15, 35, 2380]
    """
    C = mixing_units(depth)
    d = check_int("width d_x", width)
    if C <= 64:  # direct sum (also the reference for the closed form in the tests)
        return sum(min(monomial_count(d, 2 * k + 1), monomial_count(d, 2 * C - 2 * k))
                   for k in range(C + 1))
    # m is increasing in the degree, so the min is m(2k+1) while 2k+1 <= 2C-2k, i.e. for
    # k <= k0 = floor((2C-1)/4), and m(2C-2k) after: two sums over degrees of one parity
    k0 = (2 * C - 1) // 4
    return _parity_sum(d, 1, k0 + 1) + _parity_sum(d, 0, C - k0)


def _parity_sum(width: int, start: int, terms: int) -> int:
    r""":math:`\sum_{t=0}^{n-1} m(start + 2t)`, exactly, in O(d^2) operations: the sum is a
    polynomial of degree d in n (m is a polynomial of degree d-1 in the degree), so it is
    interpolated (Lagrange, exact rationals) from its values at n = 0..d."""
    d = width
    values, acc = [], 0
    for n in range(d + 1):
        values.append(acc)
        acc += monomial_count(d, start + 2 * n)
    if terms <= d:
        return values[terms]
    total = Fraction(0)
    for j, v in enumerate(values):
        weight = Fraction(1)
        for m in range(d + 1):
            if m != j:
                weight *= Fraction(terms - m, j - m)
        total += v * weight
    assert total.denominator == 1
    return int(total)


def sequential_ceiling(width: int, depth: int) -> int:
    r""":math:`m(3^L) = \binom{3^L + d_x - 1}{d_x - 1}`: the exact all-weights ceiling on
    seq-sep of the sequential representation. **Our derivation** (reading notes §3.2, [INF]).

    :math:`Z_{seq}(a, b)` is homogeneous of degree :math:`3^L` in b for every a (the updated
    weights depend on a, the inputs of step t+1 are :math:`M'^V(a)_{w_2^j}\odot b`), so
    :math:`Z_{seq}(a, \cdot)` lies in the :math:`m(3^L)`-dimensional space of degree-:math:`3^L`
    forms, for all weights and all η.

    Parameters
    ----------
    width : int
        :math:`d_x`.
    depth : int
        L.

    Returns
    -------
    int
        :math:`m(3^L)`.

    References
    ----------
    .. [1] Our derivation (notes §3.2): Z_seq is a degree-3^L form in b; compare 001,
       Theorem 1.

    Examples
    --------
    >>> sequential_ceiling(2, 2), sequential_ceiling(3, 3)
    (10, 406)
    """
    return monomial_count(width, 3 ** check_depth(depth))


@dataclass(frozen=True)
class Corollary1Bounds:
    r"""Upper bounds on seq-sep of the in-context representation (Corollary 1 + Proposition 1).

    By Proposition 1, :math:`\operatorname{seq-sep}(y_{in}) \le
    \operatorname{sep}_{([N],[2N]\setminus[N])}(g)`, so every upper bound of paper 003 on sep
    bounds it, for every weight assignment.

    Attributes
    ----------
    width, heads, depth : int
        :math:`d_x`, H, L.
    thm2_upper : Bound
        Paper 003, Theorem 2's upper bound (eq. 8); valid only for :math:`L > \log_3 d_x`
        (Corollary 1's hypothesis, :attr:`applies`), else flagged in ``violated``.
    thm3, thm4 : Bound
        Paper 003, Theorems 3 (:math:`(H(d_a+1))^{C(L)}`) and 4 (eq. 19), valid at every depth.
    bidegree : int
        PB(d_x, L) (:func:`bidegree_bound`, our derivation), valid at every depth.
    """

    width: int
    heads: int
    depth: int
    thm2_upper: Bound
    thm3: Bound
    thm4: Bound
    bidegree: int

    @property
    def applies(self) -> bool:
        r"""Corollary 1's hypothesis :math:`L > \log_3 d_x` (i.e. :math:`3^L > d_x`), which is
        also Theorem 2's."""
        return self.thm2_upper.in_hypotheses

    def valid_bounds(self) -> dict[str, Log3Value]:
        """Every bound whose hypotheses hold at this (d_x, H, L), by statement.

        Returns
        -------
        dict of str to Log3Value
            Statement -> its bound, for the bounds whose hypotheses hold.
        """
        out = {b.statement: b.as_log3value()
               for b in (self.thm2_upper, self.thm3, self.thm4) if b.in_hypotheses}
        out["PB (our derivation, notes §3.2)"] = Log3Value.of(self.bidegree)
        return out

    @property
    def best(self) -> tuple[str, Log3Value]:
        """The tightest valid bound and its statement, compared exactly or in 60-digit logs by
        :func:`seprank.core.log3.compare` (an undecidable tie keeps the earlier one)."""
        items = list(self.valid_bounds().items())
        best = items[0]
        for item in items[1:]:
            if compare(item[1], best[1]) == -1:
                best = item
        return best

    @property
    def log3_best(self) -> Any:
        """:math:`\\log_3` of :attr:`best` (an mpmath number, 60 digits)."""
        return self.best[1].log3


def corollary1_bounds(width: int, *, heads: int, depth: int) -> Corollary1Bounds:
    r"""Corollary 1 (eq. 10): :math:`\log \operatorname{seq-sep}(y_{in}) = \tilde O(L d_x)`.

    Made explicit through Proposition 1 and paper 003's Theorems 2-4
    (:func:`seprank.d2w.bounds.theorem2_upper`, :func:`~seprank.d2w.bounds.theorem3_upper`,
    :func:`~seprank.d2w.bounds.theorem4_upper`); PB is our bound.  ``heads`` and ``depth`` are
    keyword-only (the positional order of :mod:`seprank.d2w.bounds` is (width, depth, heads)).

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension.
    heads : int, keyword-only
        H, the number of heads.
    depth : int, keyword-only
        L, the number of layers.

    Returns
    -------
    Corollary1Bounds
        The bounds of paper 003 through Proposition 1, and PB.

    References
    ----------
    .. [1] 001, Corollary 1 (eq. 10) and Proposition 1; 003, Theorems 2-4.

    Examples
    --------
    >>> b = corollary1_bounds(2, heads=1, depth=2)
    >>> b.applies, b.thm3.value, b.thm4.value, b.bidegree
    (True, 81, 2250, 15)
    >>> b.best[0], round(float(b.log3_best), 3)
    ('PB (our derivation, notes §3.2)', 2.465)
    """
    return Corollary1Bounds(
        width=width, heads=heads, depth=depth,
        thm2_upper=theorem2_upper(width=width, depth=depth, heads=heads),
        thm3=theorem3_upper(width=width, depth=depth,
                            heads=heads), thm4=theorem4_upper(width=width, depth=depth,
                                                              heads=heads),
        bidegree=bidegree_bound(width, depth),
    )


def depth_deficit(eta: float) -> float:
    """:math:`0.5 \\log_3(1/\\eta)`: the paper's "network shallower by" this many layers.

    Parameters
    ----------
    eta : float
        The learning rate η, in (0, 1].

    Returns
    -------
    float
        :math:`0.5 \\log_3(1/\\eta)` layers.

    References
    ----------
    .. [1] 001, Theorem 1 and the discussion after it ("shallower by 0.5 log3(1/eta)").

    Examples
    --------
    >>> round(depth_deficit(1e-4), 3), round(depth_deficit(1e-6), 3)
    (4.192, 6.288)
    """
    eta = check_float("eta (the learning rate)", eta, positive=True)
    return 0.5 * math.log(1 / eta, 3)


def theorem1_exponent(width: int, depth: int, eta: float) -> float:
    """The argument of Theorem 1's :math:`\\tilde O`: :math:`(L + 0.5\\log_3 \\eta)\\, d_x`.

    Negative values make eq. 11 meaningless (a log of a rank is >= 0); the appendix hypothesis
    :math:`3^L > 2(1+\\eta)d_x/\\eta` forces it above :math:`L d_x / 2`.

    Parameters
    ----------
    width : int
        :math:`d_x`.
    depth : int
        L.
    eta : float
        The learning rate η > 0.

    Returns
    -------
    float
        :math:`(L + 0.5\\log_3 \\eta)\\, d_x`.

    References
    ----------
    .. [1] 001, Theorem 1.

    Examples
    --------
    >>> round(theorem1_exponent(4, 2, 1e-6), 2)   # L = 2 < 0.5 log_3(1e6)
    -17.15
    """
    width, depth = check_int("width d_x", width), check_depth(depth)
    return (depth - depth_deficit(eta)) * width
