r"""Bounds on the (ε-)sequential separation ranks of seed 000/001, evaluated exactly.

Integers are exact Python ints (any size); quantities that are not integers are returned as
base-3 logarithms computed from exact integers (``math.log`` of an int is correctly rounded even
for huge ints) or from ``math.lgamma``/``math.log`` of the printed factors, so nothing overflows.
Notation: :math:`C(L) = (3^L - 1)/2` (taken from seed 003; 000/001 never define it), so
:math:`2C(L)+1 = 3^L`; :math:`m(k) = \binom{k+d_x-1}{d_x-1}` is the number of degree-k monomials
in :math:`d_x` variables; :math:`((n\ k)) = \binom{n+k-1}{k}`.

Two bounds here are **our derivations** (reading notes §3.2, tagged [INF]), not the paper's:

* :func:`bidegree_bound` PB(d_x, L) for the in-context representation, and
* :func:`sequential_ceiling` :math:`m(3^L)` for the sequential one.

Everything else is printed in seed 000/001 (Corollary 1, Theorem 1) or imported from seed 003
(Theorems 2-4 of Levine et al. 2020); Theorems 2 and 3 are in :mod:`seprank.incontext_theorems`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

__all__ = [
    "Corollary1Bounds",
    "bidegree_bound",
    "c_of_depth",
    "corollary1_bounds",
    "depth_deficit",
    "levine_thm2_log3_bounds",
    "levine_thm3_bound",
    "levine_thm4_bound",
    "monomial_count",
    "multichoose",
    "sequential_ceiling",
    "theorem1_exponent",
]

Version = Literal["000", "001"]
LOG3 = math.log(3.0)


def _positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value


def _log3(x: int | float | Fraction) -> float:
    if isinstance(x, Fraction):
        return (math.log(x.numerator) - math.log(x.denominator)) / LOG3
    return math.log(x) / LOG3


def c_of_depth(depth: int) -> int:
    """:math:`C(L) = (3^L - 1)/2` (seed 003; the number of summed positions in eq. 13).

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> [c_of_depth(L) for L in range(1, 6)]
    [1, 4, 13, 40, 121]
    """
    L = _positive_int("depth L", depth)
    return (3**L - 1) // 2


def multichoose(n: int, k: int) -> int:
    """:math:`((n\\ k)) = \\binom{n+k-1}{k}`, the number of degree-k monomials in n variables.

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> multichoose(2, 4), multichoose(3, 2)
    (5, 6)
    """
    if n < 0 or k < 0:
        raise ValueError(f"need n, k >= 0, got {n}, {k}")
    if n == 0:
        return 1 if k == 0 else 0
    return math.comb(n + k - 1, k)


def monomial_count(width: int, degree: int) -> int:
    """:math:`m(k) = \\binom{k + d_x - 1}{d_x - 1}`: degree-k monomials in :math:`d_x` variables.

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> monomial_count(2, 9), monomial_count(3, 9)
    (10, 55)
    """
    return multichoose(_positive_int("width d_x", width), degree)


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

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> [bidegree_bound(2, 1), bidegree_bound(2, 2), bidegree_bound(3, 2), bidegree_bound(4, 3)]
    [3, 15, 35, 2380]
    """
    C = c_of_depth(depth)
    d = _positive_int("width d_x", width)
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

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> sequential_ceiling(2, 2), sequential_ceiling(3, 3)
    (10, 406)
    """
    return monomial_count(width, 3 ** _positive_int("depth L", depth))


def levine_thm3_bound(width: int, heads: int, depth: int) -> int:
    """Seed 003 Theorem 3 (App. A.2): :math:`\\operatorname{sep} \\le (H(d_a+1))^{C(L)}`.

    Bounds :math:`\\operatorname{sep}_{([N],[2N]\\setminus[N])}(g)` for every weight assignment,
    hence seq-sep of the in-context representation by Proposition 1.

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> levine_thm3_bound(2, 1, 2), levine_thm3_bound(4, 2, 2)
    (81, 1296)
    """
    d_x, H = _positive_int("width d_x", width), _positive_int("heads H", heads)
    if d_x % H:
        raise ValueError(f"H = {H} must divide d_x = {d_x}")
    return (H * (d_x // H + 1)) ** c_of_depth(depth)


def levine_thm4_bound(width: int, depth: int) -> Fraction:
    """Seed 003 Theorem 4 (App. A.3): :math:`d_x (C+1) ((d_x\\ 2C)) (2C/d_x + 1)^{d_x}`, exact.

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> levine_thm4_bound(2, 2)
    Fraction(2250, 1)
    """
    d_x, C = _positive_int("width d_x", width), c_of_depth(depth)
    return d_x * (C + 1) * multichoose(d_x, 2 * C) * (Fraction(2 * C, d_x) + 1) ** d_x


def levine_thm2_log3_bounds(width: int, heads: int, depth: int) -> tuple[float, float]:
    r"""Seed 003 Theorem 2 (regime :math:`L > \log_3 d_x`), base-3 logs of sep:

    .. math::

        \tfrac12 d_x L + b_1 + b_2 \le \log_3 \operatorname{sep} \le 2 d_x L + c_1 + c_2,\quad
        b_1 = -L(H/2+1),\ b_2 = -d_x(1 + \tfrac12\log_3\tfrac{d_x-H}{2}),\
        c_1 = L,\ c_2 = -2d_x\log_3\tfrac{d_x}{2\sqrt{2e}} + \log_3 d_x .

    The lower side holds almost everywhere and needs :math:`H < d_x` (``-inf`` otherwise).

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> round(levine_thm2_log3_bounds(2, 1, 2)[1], 2)
    13.71
    """
    d_x, H, L = (_positive_int(n, v) for n, v in
                 (("width d_x", width), ("heads H", heads), ("depth L", depth)))
    c1 = L
    c2 = -2 * d_x * _log3(d_x / (2 * math.sqrt(2 * math.e))) + _log3(d_x)
    upper = 2 * d_x * L + c1 + c2
    if d_x <= H:
        return (-math.inf, upper)
    b1 = -L * (H / 2 + 1)
    b2 = -d_x * (1 + 0.5 * _log3((d_x - H) / 2))
    return (0.5 * d_x * L + b1 + b2, upper)


@dataclass(frozen=True)
class Corollary1Bounds:
    """Upper bounds on seq-sep of the in-context representation (Corollary 1 + Proposition 1).

    ``applies`` is Corollary 1's hypothesis :math:`L > \\log_3 d_x`; the explicit seed-003
    bounds (Theorems 3 and 4) and PB hold for every depth.
    """

    width: int
    heads: int
    depth: int
    applies: bool
    log3_thm2_upper: float
    thm3: int
    thm4: Fraction
    bidegree: int

    @property
    def log3_best(self) -> float:
        return min(self.log3_thm2_upper, _log3(self.thm3), _log3(self.thm4), _log3(self.bidegree))


def corollary1_bounds(width: int, heads: int, depth: int) -> Corollary1Bounds:
    r"""Corollary 1 (eq. 10): :math:`\log \operatorname{seq-sep}(y_{in}) = \tilde O(L d_x)`.

    Made explicit through Proposition 1 and seed 003's Theorems 2-4; PB is our bound.

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> b = corollary1_bounds(2, 1, 2)
    >>> b.applies, b.thm3, b.bidegree
    (True, 81, 15)
    """
    return Corollary1Bounds(
        width=width, heads=heads, depth=depth, applies=3**depth > width,
        log3_thm2_upper=levine_thm2_log3_bounds(width, heads, depth)[1],
        thm3=levine_thm3_bound(width, heads, depth), thm4=levine_thm4_bound(width, depth),
        bidegree=bidegree_bound(width, depth),
    )


def depth_deficit(eta: float) -> float:
    """:math:`0.5 \\log_3(1/\\eta)`: the paper's "network shallower by" this many layers.

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> round(depth_deficit(1e-4), 3), round(depth_deficit(1e-6), 3)
    (4.192, 6.288)
    """
    if not eta > 0:
        raise ValueError(f"the learning rate must be positive, got {eta!r}")
    return 0.5 * _log3(1 / eta)


def theorem1_exponent(width: int, depth: int, eta: float) -> float:
    """The argument of Theorem 1's :math:`\\tilde O`: :math:`(L + 0.5\\log_3 \\eta)\\, d_x`.

    Negative values make eq. 11 meaningless (a log of a rank is >= 0); the appendix hypothesis
    :math:`3^L > 2(1+\\eta)d_x/\\eta` forces it above :math:`L d_x / 2`.

    References
    ----------
    .. [1] Seed 001_b50bb8acc03b85f7, Corollary 1 and Theorem 1; seed 003_780437e4ec8fa9c6, Theorems
       2-4; notes seed_incontext_bias.md §3.2 (PB and m(3^L) are our derivations).

    Examples
    --------
    >>> round(theorem1_exponent(4, 2, 1e-6), 2)   # L = 2 < 0.5 log_3(1e6)
    -17.15
    """
    return (depth - depth_deficit(eta)) * width
