r"""The counting lemmas of App. B.1 (000/001) by brute-force enumeration.

The proof of Theorem 3 counts index tuples whose coefficient
:math:`F(n, a, b) = \binom{K}{n}\eta^n\binom{n}{a_1..a_M}\binom{K-n}{b_1..b_M}` is within a factor
s of the largest.  Lemmas 4-9 estimate such counts with Stirling-type "≃" steps, so they are
*approximate* statements; here every count is enumerated exactly and set beside the printed
bounds.  Balanced multinomials follow Remark 1: :math:`\binom{K}{K/M, \dots}` means parts
:math:`\lfloor K/M\rfloor` with :math:`K \bmod M` of them increased by one.

Multinomials are exact Python ints; products with :math:`\eta^n` are exact Fractions (Lemmas
2-3) or compared in a log domain computed from exact ints (Lemmas 7-9).  The compositions
:math:`a \in \mathbb N^M`, :math:`\sum a = K` are paper 003's
(:func:`seprank.d2w.hadamard.compositions`, called as ``compositions(M, K)``: parts first).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from seprank.core.memory import array_bytes, guard_memory
from seprank.core.validation import CHECKS, check_int, validated
from seprank.d2w.hadamard import compositions

__all__ = [
    "balanced_multinomial",
    "lattice_points_in_ball",
    "lemma2_closed_form",
    "lemma2_direct",
    "lemma3_formula_n",
    "lemma4_bounds",
    "lemma5_inclusions",
    "lemma6_bounds",
    "lemma6_count",
    "lemma7_bound",
    "lemma7_count",
    "lemma8_bound",
    "lemma9_bound",
    "lemma89_count",
    "multinomial",
]


#: Work budget (array-element updates) of :func:`lattice_points_in_ball`'s exact count.
_MAX_LATTICE_WORK = 10**9


def _at_least_two(name: str, value: object) -> int:
    return check_int(name, value, 2)


def _below_one_over_e(name: str, value: object) -> float:
    v = float(CHECKS["open_unit"](name, value))
    if not v < math.exp(-1):
        raise ValueError(f"{name} must be below 1/e for Lemma 7's bound (it divides by "
                         f"ln(1/s) - 1), got {value!r}")
    return v


def multinomial(parts: tuple[int, ...] | list[int]) -> int:
    """:math:`\\binom{\\sum a}{a_1, \\dots, a_M}`, exact.

    Parameters
    ----------
    parts : sequence of int
        :math:`a_1..a_M`, non-negative.

    Returns
    -------
    int
        The multinomial coefficient.

    References
    ----------
    .. [1] 001, App. B.1 (multinomial coefficients of Remark 1).

    Examples
    --------
    >>> multinomial([2, 1, 1])
    12
    """
    if isinstance(parts, str | bytes) or not hasattr(parts, "__iter__"):
        raise TypeError(f"parts must be a sequence of integers, got {parts!r}")
    total, out = 0, 1
    for pos, a in enumerate(parts):
        a = check_int(f"parts[{pos}]", a, None)
        if a < 0:
            return 0
        total += a
        out *= math.comb(total, a)
    return out


@validated(K="count0", M="count")
def balanced_multinomial(K: int, M: int) -> int:
    """Remark 1's :math:`\\binom{K}{K/M, \\dots, K/M}` (floor parts, ``K mod M`` of them + 1).

    Parameters
    ----------
    K : int
        The total.
    M : int
        Number of parts.

    Returns
    -------
    int
        The multinomial of the balanced composition.

    References
    ----------
    .. [1] 001, App. B.1, Remark 1; notes PC-10.

    Examples
    --------
    >>> balanced_multinomial(10, 3)   # parts (3, 3, 4)
    4200
    """
    q, r = divmod(K, M)
    return multinomial([q] * (M - r) + [q + 1] * r)


@validated(K="count0", M="count", eta="positive", n="count0")
def lemma2_direct(K: int, M: int, eta: Fraction, n: int) -> Fraction:
    """:math:`S(n) = \\binom{K}{n}\\eta^n\\binom{n}{n/M..}\\binom{K-n}{(K-n)/M..}` (Remark 1).

    Parameters
    ----------
    K : int
        The total.
    M : int
        Number of parts.
    eta : fractions.Fraction
        η.
    n : int
        The summation index.

    Returns
    -------
    fractions.Fraction
        S(n), computed directly.

    References
    ----------
    .. [1] 001, App. B.1, Remark 1 and Lemma 2 (the sum it closes).

    Examples
    --------
    >>> lemma2_direct(3, 2, Fraction(2, 3), 1)
    Fraction(4, 1)
    """
    return (math.comb(K, n) * Fraction(eta) ** n * balanced_multinomial(n, M)
            * balanced_multinomial(K - n, M))


@validated(K="count0", M="count", eta="positive", n="count0")
def lemma2_closed_form(K: int, M: int, eta: Fraction, n: int) -> Fraction:
    r"""Lemma 2's printed closed form (eq. 16):

    .. math::

        S(n) = \Big[\prod_{j=0}^{\lfloor n/M\rfloor-1}\Big(\frac{\eta(K-jM)}{(j+1)M}\Big)^M\Big]
        \Big(\frac{\eta(K-\lfloor n/M\rfloor M)}{(\lfloor n/M\rfloor+1)M}\Big)^{n \bmod M}
        \binom{K}{K/M, \dots, K/M}.

    Parameters
    ----------
    K : int
        The total.
    M : int
        Number of parts.
    eta : fractions.Fraction
        η.
    n : int
        The summation index.

    Returns
    -------
    fractions.Fraction
        The printed closed form at n.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 2 (eq. 16); notes PC-10.

    Examples
    --------
    >>> lemma2_closed_form(12, 3, Fraction(1, 3), 4) == lemma2_direct(12, 3, Fraction(1, 3), 4)
    True
    """
    e, q = Fraction(eta), n // M
    out = Fraction(balanced_multinomial(K, M))
    for j in range(q):
        out *= (e * (K - j * M) / ((j + 1) * M)) ** M
    return out * (e * (K - q * M) / ((q + 1) * M)) ** (n % M)


@validated(K="count0", M="count", eta="positive")
def lemma3_formula_n(K: int, M: int, eta: Fraction) -> int:
    """Lemma 3's maximiser :math:`n = (\\lfloor(\\eta K - M)/(M(1+\\eta))\\rfloor + 1) M`.

    Parameters
    ----------
    K : int
        The total.
    M : int
        Number of parts.
    eta : fractions.Fraction
        η.

    Returns
    -------
    int
        The maximiser n of Lemma 3.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 3.

    Examples
    --------
    >>> lemma3_formula_n(3, 2, Fraction(2, 3))   # the maximiser is n = 1 here
    2
    """
    e = Fraction(eta)
    return (math.floor((e * K - M) / (M * (1 + e))) + 1) * M


@validated(d="count", R="nonnegative")
def lattice_points_in_ball(d: int, R: float) -> int:
    """:math:`N(\\mathcal B^d_R)`: integer points with :math:`\\|x\\| \\le R` (exact count).

    Parameters
    ----------
    d : int
        Dimension.
    R : float
        Radius.

    Returns
    -------
    int
        :math:`N(\\mathcal B^d_R)`.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 4 (the count it bounds).

    Examples
    --------
    >>> lattice_points_in_ball(2, 5)
    81
    """
    r = math.floor(R)
    R2 = R * R
    # count by dynamic programming over coordinates: ways[s] = #points with squared norm s
    limit = math.floor(R2 + 1e-9)
    guard_memory(2 * array_bytes(limit + 1, object), what=f"the lattice count for R = {R}",
                 fix="use a smaller radius R")
    work = d * (2 * r + 1) * (limit + 1)
    if work > _MAX_LATTICE_WORK:
        raise ValueError(f"counting lattice points for d = {d}, R = {R} takes ~{work:.2g} "
                         f"updates (> {_MAX_LATTICE_WORK:.0g}); use Lemma 4's bounds "
                         "(lemma4_bounds) at this size")
    ways = np.zeros(limit + 1, dtype=object)
    ways[0] = 1
    for _ in range(d):
        new = np.zeros_like(ways)
        for x in range(-r, r + 1):
            s = x * x
            if s <= limit:
                new[s:] = new[s:] + ways[: limit + 1 - s]
        ways = new
    return int(sum(ways))


@validated(d="count", R="nonnegative")
def lemma4_bounds(d: int, R: float) -> tuple[float, float]:
    """Lemma 4: :math:`\\frac{(\\pi e/2)^{d/2}}{\\sqrt{\\pi d}}(2R/\\sqrt d \\mp 1)^d`.

    Parameters
    ----------
    d : int
        Dimension.
    R : float
        Radius.

    Returns
    -------
    (float, float)
        Lower and upper bound on :math:`N(\\mathcal B^d_R)`.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 4.

    Examples
    --------
    >>> [round(x, 1) for x in lemma4_bounds(2, 5)]   # 81 lattice points
    [62.8, 111.0]
    """
    c = (math.pi * math.e / 2) ** (d / 2) / math.sqrt(math.pi * d)
    return c * (2 * R / math.sqrt(d) - 1) ** d, c * (2 * R / math.sqrt(d) + 1) ** d


def _log_ratio_ok(value: int, reference: int, s: float) -> bool:
    return math.log(value) >= math.log(s) + math.log(reference) - 1e-12


@validated(K="count", M="count", s="open_unit")
def lemma5_inclusions(K: int, M: int, s: float) -> tuple[bool, bool]:
    r"""Lemma 5's two inclusions, checked over all compositions:
    :math:`\{\|a - \tfrac KM 1\|^2 \le \tfrac KM\ln\tfrac1s\} \subseteq T_{K,M} \subseteq
    \{\|a - \tfrac KM 1\|^2 \le 4K\ln\tfrac1s\}`.

    Parameters
    ----------
    K : int
        The total.
    M : int
        Number of parts.
    s : float
        The threshold s in (0, 1).

    Returns
    -------
    (bool, bool)
        Whether each inclusion holds.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 5.

    Examples
    --------
    >>> lemma5_inclusions(30, 3, 0.1)
    (True, True)
    """
    ref = balanced_multinomial(K, M)
    inner_ok = outer_ok = True
    for a in compositions(M, K):
        dist2 = sum((x - K / M) ** 2 for x in a)
        in_t = _log_ratio_ok(multinomial(a), ref, s)
        if dist2 <= K / M * math.log(1 / s) and not in_t:
            inner_ok = False
        if in_t and dist2 > 4 * K * math.log(1 / s):
            outer_ok = False
    return inner_ok, outer_ok


@validated(K="count", M="count", s="open_unit")
def lemma6_count(K: int, M: int, s: float) -> int:
    """:math:`|T_{K,M}|`: compositions with :math:`\\binom{K}{a} \\ge s\\binom{K}{K/M..}`.

    Parameters
    ----------
    K : int
        The total.
    M : int
        Number of parts.
    s : float
        The threshold s in (0, 1).

    Returns
    -------
    int
        :math:`|T_{K,M}|`.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 6 (the set T_{K,M}).

    Examples
    --------
    >>> lemma6_count(30, 3, 0.1)
    85
    """
    ref = balanced_multinomial(K, M)
    return sum(1 for a in compositions(M, K) if _log_ratio_ok(multinomial(a), ref, s))


@validated(K="count", M=_at_least_two, s="open_unit")
def lemma6_bounds(K: int, M: int, s: float) -> tuple[float, float]:
    """Lemma 6's printed (lower, upper) bounds on :math:`|T_{K,M}|`.

    Parameters
    ----------
    K : int
        The total.
    M : int
        Number of parts.
    s : float
        The threshold s in (0, 1).

    Returns
    -------
    (float, float)
        The printed lower and upper bound.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 6.

    Examples
    --------
    >>> [round(x, 1) for x in lemma6_bounds(30, 3, 0.1)]
    [16.6, 723.5]
    """
    ln = math.log(1 / s)
    c = (math.pi * math.e / 2) ** ((M - 1) / 2) / math.sqrt(math.pi)
    upper = c / (M - 1) * (4 * math.sqrt(K * ln / (M - 1)) + 1) ** (M - 1)
    lower = c / M * (2 * math.sqrt(K * ln) / M - 1) ** (M - 1)
    return lower, upper


def _log_binom_real(K: float, x: float) -> float:
    return math.lgamma(K + 1) - math.lgamma(x + 1) - math.lgamma(K - x + 1)


@validated(K="count", eta="positive", s="open_unit")
def lemma7_count(K: int, eta: float, s: float) -> int:
    r"""#{n : :math:`\binom Kn\eta^n \ge s\binom{K}{n_0}\eta^{n_0}`}, :math:`n_0 = \eta K/(1+\eta)`
    (binomial at the real point :math:`n_0` through the Gamma function).

    Parameters
    ----------
    K : int
        The total.
    eta : float
        η.
    s : float
        The threshold s in (0, 1).

    Returns
    -------
    int
        The count.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 7 (the count it bounds).

    Examples
    --------
    >>> lemma7_count(81, 0.5, 0.1)
    19
    """
    n0 = eta * K / (1 + eta)
    ref = _log_binom_real(K, n0) + n0 * math.log(eta) + math.log(s)
    return sum(1 for n in range(K + 1)
               if math.log(math.comb(K, n)) + n * math.log(eta) >= ref - 1e-12)


@validated(K="count", eta="positive", s=_below_one_over_e)
def lemma7_bound(K: int, eta: float, s: float) -> float:
    """Lemma 7: :math:`K\\sqrt{(2\\ln(1/s)-1)^2(1+\\eta)^2-4\\eta}/(2(1+\\eta)(\\ln(1/s)-1))`.

    Parameters
    ----------
    K : int
        The total.
    eta : float
        η.
    s : float
        The threshold s in (0, 1).

    Returns
    -------
    float
        Lemma 7's bound.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 7.

    Examples
    --------
    >>> round(lemma7_bound(81, 0.5, 0.1), 1)
    108.2
    """
    ln = math.log(1 / s)
    return (K * math.sqrt((2 * ln - 1) ** 2 * (1 + eta) ** 2 - 4 * eta)
            / (2 * (1 + eta) * (ln - 1)))


@validated(K="count", M="count", eta="positive", s="open_unit")
def lemma89_count(K: int, M: int, eta: float, s: float) -> tuple[int, int]:
    r"""(count, :math:`|D_{K,M}|`): #{x in :math:`D_{K,M}` : F(x) >= s F(x*)} and :math:`|D_{K,M}|`.

    For each n the compositions of n and K - n are sorted by log-multinomial and the pairs
    above the threshold counted with a binary search (exact ints, compared in logs).

    Parameters
    ----------
    K : int
        The total.
    M : int
        Number of parts.
    eta : float
        η.
    s : float
        The threshold s in (0, 1).

    Returns
    -------
    (int, int)
        The count and :math:`|D_{K,M}|`.

    References
    ----------
    .. [1] 001, App. B.1, Lemmas 8-9 (the set D_{K,M}).

    Examples
    --------
    >>> lemma89_count(27, 2, 0.5, math.exp(-1.5))
    (194, 4060)
    """
    logs = {m: np.sort(np.array([math.log(multinomial(a)) for a in compositions(M, m)]))
            for m in range(K + 1)}
    log_eta = math.log(eta)
    head = [math.log(math.comb(K, n)) + n * log_eta for n in range(K + 1)]
    best = max(head[n] + logs[n][-1] + logs[K - n][-1] for n in range(K + 1))
    threshold = best + math.log(s) - 1e-12
    count = size = 0
    for n in range(K + 1):
        left, right = logs[n], logs[K - n]
        size += left.size * right.size
        need = threshold - head[n] - left  # right must be >= need for each left entry
        count += int(np.sum(right.size - np.searchsorted(right, need, side="left")))
    return count, size


@validated(K="count", M=_at_least_two, eta="positive", s="open_unit")
def lemma8_bound(K: int, M: int, eta: float, s: float) -> tuple[float, bool]:
    """Lemma 8's upper bound and whether its hypothesis :math:`\\eta K/(1+\\eta) \\ge M-1` holds.

    Parameters
    ----------
    K : int
        The total.
    M : int
        Number of parts.
    eta : float
        η.
    s : float
        The threshold s in (0, 1).

    Returns
    -------
    (float, bool)
        The bound and whether its hypothesis holds.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 8.

    Examples
    --------
    >>> round(lemma8_bound(27, 2, 0.5, math.exp(-1.5))[0])
    35031
    """
    ln = math.log(1 / s)
    value = (2 * K / ((M - 1) ** 2 * math.pi)
             * (25 * math.pi * math.e * K * ln * math.sqrt(eta)
                / (2 * (M - 1) * (1 + eta))) ** (M - 1))
    return value, eta * K / (1 + eta) >= M - 1


@validated(K="count", M="count", eta="positive", s="open_unit")
def lemma9_bound(K: int, M: int, eta: float, s: float) -> tuple[float, bool]:
    """Lemma 9's lower bound and whether its hypothesis :math:`K/(1+\\eta) \\ge M^2` holds.

    Parameters
    ----------
    K : int
        The total.
    M : int
        Number of parts.
    eta : float
        η.
    s : float
        The threshold s in (0, 1).

    Returns
    -------
    (float, bool)
        The bound and whether its hypothesis holds.

    References
    ----------
    .. [1] 001, App. B.1, Lemma 9.

    Examples
    --------
    >>> round(lemma9_bound(27, 2, 0.5, math.exp(-1.5))[0], 2)
    1.51
    """
    ln = math.log(1 / s)
    value = (1 / (M * math.sqrt(math.pi))
             * (math.pi * math.e * K * ln / (2 * M**2 * (1 + eta))) ** ((M - 1) / 2))
    return value, K / (1 + eta) >= M**2
