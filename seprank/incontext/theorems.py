r"""Theorems 2 and 3 of paper 000/001 made explicit: hypotheses, thresholds, the final bound.

Theorem 3 (App. B) is the appendix version of Theorem 1 with stronger hypotheses and an explicit
final bound; Theorem 2 (App. C.2) the lower bound with its ε.  Non-integers are returned as
base-3 logarithms; integers exactly.  See :mod:`seprank.incontext.bounds` for the notation.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from seprank.core.log3 import log3
from seprank.core.validation import check_choice, check_float, check_int
from seprank.d2w.bounds import check_depth, mixing_units, multiset_coefficient
from seprank.d2w.theorems import theorem4_upper
from seprank.incontext.bounds import bidegree_bound, sequential_ceiling

__all__ = [
    "Theorem2Epsilon",
    "Theorem3Bound",
    "minimal_depth_theorem3",
    "theorem2_epsilon",
    "theorem3_bound",
    "theorem3_hypotheses",
    "theorem3_log3_bound",
    "theorem3_log_y",
    "trivial_sequential_count",
]

Version = Literal["000", "001"]
LOG3 = math.log(3.0)


def exact_eta(eta: Any, name: str = "eta") -> Fraction:
    """``eta`` as an exact Fraction: strings (``"1e-4"``) and Fractions exactly, floats through
    their shortest decimal (``0.1`` -> 1/10); NaN, infinity, bools and garbage are refused."""
    if isinstance(eta, bool) or not isinstance(eta, numbers.Real | str):
        raise ValueError(f"{name} must be a number or a decimal string such as '1e-4', got "
                         f"{eta!r}")
    try:
        if isinstance(eta, str):
            e = Fraction(eta)
        elif isinstance(eta, numbers.Rational):
            e = Fraction(int(eta.numerator), int(eta.denominator))
        else:  # a float: its shortest decimal
            e = Fraction(str(float(eta)))
    except (ValueError, ZeroDivisionError, OverflowError) as err:
        raise ValueError(f"{name} must be a finite number or a decimal string such as '1e-4', "
                         f"got {eta!r}") from err
    return e


def theorem3_hypotheses(width: int, depth: int, n_tokens: int, eta: float | Fraction | str
                        ) -> dict[str, bool]:
    r"""The hypotheses of Theorem 3 (appendix version of Theorem 1), checked exactly.

    :math:`N < d_x`, :math:`\eta \in (0, 1]`, :math:`2(1+\eta)d_x/\eta < 3^L`,
    :math:`2(1+\eta)d_x^2 < 3^L` (powers from 001; 000's OCR is garbled), plus main-text
    Theorem 1's :math:`L > \log_3 d_x`.  The weight/gradient bounds Λ are checked on a concrete
    network by :func:`seprank.incontext.sequential.gradient_regime`.  ``eta`` is converted to an
    exact Fraction (pass a string such as ``"1e-4"`` to avoid binary rounding).

    Parameters
    ----------
    width : int
        :math:`d_x`.
    depth : int
        L.
    n_tokens : int
        N.
    eta : float, fractions.Fraction or str
        η.

    Returns
    -------
    dict of str to bool
        Each hypothesis and whether it holds.

    References
    ----------
    .. [1] 001, Theorem 3 (App. B), its hypotheses.

    Examples
    --------
    >>> theorem3_hypotheses(4, 4, 2, "0.5")["all"]
    True
    >>> theorem3_hypotheses(4, 3, 2, "0.5")["depth_vs_width"]   # 2*1.5*16 = 48 > 27
    False
    """
    e = exact_eta(eta)
    d_x, L = check_int("width d_x", width), check_depth(depth)
    N = check_int("n_tokens N", n_tokens, 0)
    h = {
        "tokens_below_width": d_x > N,
        "eta_in_unit_interval": 0 < e <= 1,
        "depth_vs_eta": e > 0 and 2 * (1 + e) * d_x / e < 3**L,
        "depth_vs_width": 2 * (1 + e) * d_x**2 < 3**L,
        "depth_above_log3_width": d_x < 3**L,
    }
    h["all"] = all(h.values())
    return h


def minimal_depth_theorem3(width: int, eta: float | Fraction | str) -> int:
    """Smallest L satisfying every depth hypothesis of Theorem 3 (notes PC-6).

    Parameters
    ----------
    width : int
        :math:`d_x`.
    eta : float, fractions.Fraction or str
        η (a string is read exactly).

    Returns
    -------
    int
        The smallest L.

    References
    ----------
    .. [1] 001, Theorem 3 (App. B); notes PC-6.

    Examples
    --------
    >>> minimal_depth_theorem3(4, "0.5"), minimal_depth_theorem3(768, "1e-4")
    (4, 16)
    """
    width, e = check_int("width d_x", width), exact_eta(eta)
    if not 0 < e <= 1:
        raise ValueError(f"Theorem 3 needs eta in (0, 1], got {eta!r}")
    L = 1
    while True:
        h = theorem3_hypotheses(width, L, 0, e)
        if h["depth_vs_eta"] and h["depth_vs_width"] and h["depth_above_log3_width"]:
            return L
        if not h["eta_in_unit_interval"]:
            raise ValueError(f"Theorem 3 needs eta in (0, 1], got {eta!r}")
        L += 1


def trivial_sequential_count(width: int, depth: int, n_tokens: int) -> int:
    r""":math:`2^N |\tilde D|` with :math:`|\tilde D| = \binom{3^L + 2d_x - 1}{2d_x - 1}`: the
    number of index tuples of the proof of Theorem 3 before any η-pruning (App. B, eq. for
    :math:`\tilde D`); ``|G(T)| <= 2^N |G~(T)| <= 2^N |D~|``.

    Parameters
    ----------
    width : int
        :math:`d_x`.
    depth : int
        L.
    n_tokens : int
        N.

    Returns
    -------
    int
        :math:`2^N |\tilde D|`.

    References
    ----------
    .. [1] 001, Theorem 3 (App. B), the count it is compared with.

    Examples
    --------
    >>> trivial_sequential_count(2, 1, 1)   # 2 * binom(3 + 3, 3)
    40
    """
    K = 3 ** check_depth(depth)
    width, n_tokens = check_int("width d_x", width), check_int("n_tokens N", n_tokens)
    return 2 ** n_tokens * multiset_coefficient(2 * width, K)


@dataclass(frozen=True)
class Theorem3Bound:
    """Theorem 3's explicit final bound (base-3 log) and what it is compared with: the trivial
    count, m(3^L), PB and paper 003's Theorem 4 (:func:`seprank.d2w.bounds.theorem4_upper`), all as
    base-3 logs (floats).

    Parameters
    ----------
    log3_bound : float
        :math:`\\log_3` of the bound.
    log3_one_plus_y : float
        :math:`\\log_3(1 + Y)`.
    hypotheses : dict of str to bool
        :func:`theorem3_hypotheses`.
    log3_trivial_count, log3_sequential_ceiling, log3_in_context_pb, log3_levine_thm4 : float
        :math:`\\log_3` of the comparison counts.
    """

    log3_bound: float
    log3_one_plus_y: float
    hypotheses: dict[str, bool]
    log3_trivial_count: float
    log3_sequential_ceiling: float
    log3_in_context_pb: float
    log3_levine_thm4: float

    @property
    def vacuous(self) -> bool:
        """True when the bound is above the trivial count :math:`2^N|\\tilde D|` or above the
        exact ceiling :math:`m(3^L)` (our derivation): it then certifies nothing new."""
        return (self.log3_bound >= self.log3_trivial_count
                or self.log3_bound >= self.log3_sequential_ceiling)


def theorem3_bound(
    width: int, depth: int, n_tokens: int, eta: float, *,
    log_y: float = -math.inf,
) -> Theorem3Bound:
    r"""The explicit bound at the end of the proof of Theorem 3 (001; 000 agrees up to OCR):

    .. math::

        \varepsilon\text{-seq-sep} \le \frac{2(2C+1)}{(d_x-1)^2}
            \Big(\frac{25\sqrt\eta}{d_x-1}\Big)^{d_x-1}
            \frac{2^{3N} (e(2d_x+2C+1))^{4d_x}}{(1+Y)^2\, d_x^{2d_x}},

    with :math:`Y = (d_xN/(e(2d_xN+2C+1)))^{2d_xN}(\Lambda_{min}/\Lambda_{max})^{(L+2)(2C+2)}
    \cdot \varepsilon/(1-\varepsilon)` (001; ε/M in 000).  ``log_y`` is the natural log of Y;
    the default Y = 0 is the bound's most favourable case.  000's OCR prints
    :math:`d_x^{d_x}`; we use :math:`d_x^{2d_x}`, which the derivation supports (notes §3.4).

    Parameters
    ----------
    width : int
        :math:`d_x`.
    depth : int
        L.
    n_tokens : int
        N.
    eta : float
        η.
    log_y : float, keyword-only
        Natural log of Y (default :math:`-\infty`: Y = 0).

    Returns
    -------
    Theorem3Bound
        The bound and the comparison counts.

    References
    ----------
    .. [1] 001, Theorem 3 (App. B), the explicit final bound; 000 (the ε/M variant).

    Examples
    --------
    >>> b = theorem3_bound(2, 3, 1, 0.5)
    >>> round(b.log3_bound, 2), b.vacuous
    (37.9, True)
    """
    d_x, L = check_int("width d_x", width), check_depth(depth)
    N = check_int("n_tokens N", n_tokens)
    if d_x < 2:
        raise ValueError("Theorem 3's explicit bound divides by d_x - 1; it needs width d_x >= 2")
    eta = check_float("eta", eta, positive=True)
    log_y = check_float("log_y", log_y, finite=False)
    log_one_plus_y = math.log1p(math.exp(log_y)) if log_y < 700 else log_y
    return Theorem3Bound(
        log3_bound=theorem3_log3_bound(d_x, L, N, eta, log_y=log_y),
        log3_one_plus_y=log_one_plus_y / LOG3,
        hypotheses=theorem3_hypotheses(d_x, L, N, eta),
        log3_trivial_count=float(log3(trivial_sequential_count(d_x, L, N))),
        log3_sequential_ceiling=float(log3(sequential_ceiling(d_x, L))),
        log3_in_context_pb=float(log3(bidegree_bound(d_x, L))),
        log3_levine_thm4=float(theorem4_upper(width=d_x, depth=L).log3),
    )


def theorem3_log3_bound(width: int, depth: int, n_tokens: int, eta: float, *,
                        log_y: float = -math.inf) -> float:
    r""":math:`\log_3` of Theorem 3's explicit bound alone (see :func:`theorem3_bound`, which
    also computes the comparison counts -- among them the in-context bound PB, a sum over
    :math:`C(L)` terms that is out of reach for :math:`d_x` in the hundreds).

    Parameters
    ----------
    width : int
        :math:`d_x`.
    depth : int
        L.
    n_tokens : int
        N.
    eta : float
        η.
    log_y : float, keyword-only
        Natural log of Y (default :math:`-\infty`).

    Returns
    -------
    float
        :math:`\log_3` of the bound.

    References
    ----------
    .. [1] 001, Theorem 3 (App. B), the explicit final bound.

    Examples
    --------
    >>> round(theorem3_log3_bound(2, 3, 1, 0.5), 2), round(theorem3_log3_bound(768, 16, 1, 1e-4))
    (37.9, 37061)
    """
    d_x = check_int("width d_x", width)
    if d_x < 2:
        raise ValueError(f"Theorem 3's explicit bound divides by d_x - 1; it needs d_x >= 2, "
                         f"got width d_x = {d_x}")
    L = check_int("depth L", depth, 1)
    N = check_int("n_tokens N", n_tokens)
    eta = check_float("eta", eta, positive=True)
    log_y = check_float("log_y", log_y, finite=False)
    C = mixing_units(L)
    log_one_plus_y = math.log1p(math.exp(log_y)) if log_y < 700 else log_y
    ln = (math.log(2 * (2 * C + 1)) - 2 * math.log(d_x - 1)
          + (d_x - 1) * (math.log(25) + 0.5 * math.log(eta) - math.log(d_x - 1))
          + 3 * N * math.log(2) + 4 * d_x * (1 + math.log(2 * d_x + 2 * C + 1))
          - 2 * log_one_plus_y - 2 * d_x * math.log(d_x))
    return ln / LOG3


def theorem3_log_y(width: int, depth: int, n_tokens: int, *, lambda_ratio: float,
                   eps: float, version: Version = "001", m_bound: float = 1.0) -> float:
    """Natural log of Theorem 3's Y (``version='000'`` uses ε/M with ``m_bound`` = M).

    Parameters
    ----------
    width : int
        :math:`d_x`.
    depth : int
        L.
    n_tokens : int
        N.
    lambda_ratio : float, keyword-only
        :math:`\\Lambda_{min}/\\Lambda_{max}` in (0, 1].
    eps : float, keyword-only
        ε (relative, in (0, 1), for 001).
    version : {'001', '000'}, keyword-only
        Which paper's Y.
    m_bound : float, keyword-only
        M of 000 (default 1).

    Returns
    -------
    float
        ln Y.

    References
    ----------
    .. [1] 001, Theorem 3 (App. B), the quantity Y; 000 (the ε/M variant).

    Examples
    --------
    >>> round(theorem3_log_y(2, 3, 1, lambda_ratio=0.5, eps=0.25), 1)
    -113.1
    """
    d_x, N = check_int("width d_x", width), check_int("n_tokens N", n_tokens)
    C = mixing_units(depth)
    lambda_ratio = check_float("lambda_ratio", lambda_ratio, positive=True, maximum=1)
    m_bound = check_float("m_bound", m_bound, positive=True)
    check_choice("version", version, ("000", "001"))
    if version == "001":
        eps = check_float("eps (the relative ε of 001)", eps, positive=True, maximum=1)
        if eps == 1:
            raise ValueError("eps (the relative ε of 001) must lie in (0, 1), got 1")
        last = math.log(eps / (1 - eps))
    else:
        eps = check_float("eps", eps, positive=True)
        last = math.log(eps / m_bound)
    return (2 * d_x * N * (math.log(d_x * N) - 1 - math.log(2 * d_x * N + 2 * C + 1))
            + (depth + 2) * (2 * C + 2) * math.log(lambda_ratio) + last)


@dataclass(frozen=True)
class Theorem2Epsilon:
    r"""Theorem 2's quantities (App. C.2): :math:`d = (d_x-H)/2`, :math:`\lambda = 3^{L-2}`,
    :math:`n = ((d\ \lambda))`, the appendix thresholds ε <= 1/(2n²) [000] / 1/(4n²) [001], the
    guaranteed :math:`n^{1/4}/(2\sqrt{d+1})`, and the main-text ε reconstructed as
    :math:`1/m(3^L)` (garbled in both extractions; notes §3.5).

    Parameters
    ----------
    d : int
        :math:`(d_x - H)/2`.
    lam : int
        :math:`\lambda = 3^{L-2}`.
    n : int
        :math:`((d\ \lambda))`.
    eps_000, eps_001 : fractions.Fraction
        The appendix thresholds of 000 and 001.
    guaranteed_rank : float
        :math:`n^{1/4}/(2\sqrt{d+1})`.
    eps_main_text : fractions.Fraction
        The main-text ε as reconstructed.
    """

    d: int
    lam: int
    n: int
    eps_000: Fraction
    eps_001: Fraction
    guaranteed_rank: float
    eps_main_text: Fraction


def theorem2_epsilon(width: int, heads: int, depth: int) -> Theorem2Epsilon:
    """Theorem 2's ε and guaranteed ε-seq-sep for (d_x, H, L).

    Requires :math:`H < d_x`, d_a = d_x/H odd (so (d_a - 1)/2 is an integer) and L >= 2.

    Parameters
    ----------
    width : int
        :math:`d_x`.
    heads : int
        H.
    depth : int
        L >= 2.

    Returns
    -------
    Theorem2Epsilon
        The quantities.

    References
    ----------
    .. [1] 001, Theorem 2 (App. C.2).

    Examples
    --------
    >>> t = theorem2_epsilon(5, 1, 3)
    >>> t.d, t.lam, t.n, t.eps_001
    (2, 3, 4, Fraction(1, 64))
    """
    d_x, H = check_int("width d_x", width), check_int("heads H", heads)
    L = check_depth(depth)
    if d_x % H or d_x <= H:
        raise ValueError(f"Theorem 2 needs H < d_x with H | d_x, got d_x={d_x}, H={H}")
    if (d_x // H) % 2 == 0:
        raise ValueError(f"the construction of Theorem 2 needs d_a = d_x/H odd, got {d_x // H}")
    if L < 2:
        raise ValueError("Theorem 2's construction uses lambda = 3^(L-2): it needs L >= 2")
    d, lam = (d_x - H) // 2, 3 ** (L - 2)
    n = multiset_coefficient(d, lam)
    return Theorem2Epsilon(
        d=d, lam=lam, n=n, eps_000=Fraction(1, 2 * n * n), eps_001=Fraction(1, 4 * n * n),
        guaranteed_rank=n**0.25 / (2 * math.sqrt(d + 1)),
        eps_main_text=Fraction(1, sequential_ceiling(d_x, L)),
    )
