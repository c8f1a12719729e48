r"""Huge positive numbers held as base-3 logarithms, compared without false verdicts.

The bounds of paper 003 are astronomically large (:math:`(d_x+H)^{(3^L-1)/2}` at L = 48 has
about :math:`10^{22}` digits), so they are stated and compared in :math:`\log_3`.  Double
precision is not enough: :math:`\log \Gamma(3^{35})` is about :math:`10^{18}`, so float64
``lgamma`` differences lose every significant digit and produce spurious "violations" of true
inequalities (003 notes §4.3).  Here a number is a :class:`Log3Value`:

* ``log3`` -- :math:`\log_3 x` as an :mod:`mpmath` number with :data:`DIGITS` significant
  digits (multiset coefficients through ``loggamma`` at that precision, whose absolute error
  stays below :math:`10^{-30}` even for :math:`k \approx 3^{40}`);
* ``exact`` -- optionally ``(X, q)`` with :math:`x^q = X` an exact rational (``q = 2`` for
  bounds with half-integer powers of 3), used whenever the comparison is small enough
  (:data:`EXACT_BITS_LIMIT`).

:func:`compare` decides exactly when both sides have exact forms of moderate size; otherwise it
decides from the logarithms only when they differ by more than :data:`TIE_TOLERANCE` (relative),
and returns ``None`` ("tie, undecided") in between -- it never turns rounding into a verdict.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from seprank.core.validation import check_int

__all__ = [
    "DIGITS",
    "EXACT_BITS_LIMIT",
    "NEG_INF",
    "TIE_TOLERANCE",
    "Log3Value",
    "compare",
    "log3",
    "log3_e",
    "log3_multiset_coefficient",
    "to_mpf",
]

#: Significant decimal digits of every log_3 value.
DIGITS = 60
#: Two logarithms closer than this (relative to ``max(1, |value|)``) are a tie: undecided.
TIE_TOLERANCE = mpmath.mpf("1e-40")
#: Exact comparisons are attempted only when the integers involved have at most this many bits.
EXACT_BITS_LIMIT = 200_000

_ctx = mpmath.mp.clone()
_ctx.dps = DIGITS
_LN3 = _ctx.log(3)
#: log_3 0.
NEG_INF = _ctx.mpf("-inf")


def _rational(x: Any, name: str = "x") -> Fraction:
    """``x`` as an exact Fraction: ints, Fractions, sympy/flint rationals and finite floats
    (their exact dyadic value); bools, strings, NaN and infinity are refused."""
    if isinstance(x, bool) or not isinstance(x, numbers.Rational | float):
        raise ValueError(f"{name} must be a rational number (int or Fraction), got {x!r} "
                         f"({type(x).__name__})")
    if isinstance(x, float) and not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number, got {x!r}")
    return Fraction(x)


def _ln(x: int | Fraction) -> Any:
    q = _rational(x)
    if q <= 0:
        raise ValueError(f"log of a non-positive number: x = {x} must be > 0")
    return _ctx.log(_ctx.mpf(q.numerator)) - _ctx.log(_ctx.mpf(q.denominator))


def log3(x: int | Fraction) -> Any:
    """:math:`\\log_3 x` of a positive rational, to :data:`DIGITS` digits (mpmath number).

    Parameters
    ----------
    x : int or fractions.Fraction
        A positive rational.

    Returns
    -------
    mpmath.mpf
        :math:`\\log_3 x`.

    Examples
    --------
    >>> float(log3(81)), float(log3(Fraction(1, 3)))
    (4.0, -1.0)
    """
    return _ln(x) / _LN3


def log3_real(x: Any) -> Any:
    """:math:`\\log_3 x` of a positive real given as an mpmath number (or anything mpmath
    converts), to :data:`DIGITS` digits.

    Examples
    --------
    >>> float(log3_real(to_mpf(27) - 18))
    2.0
    """
    value = _ctx.mpf(x)
    if value <= 0:
        raise ValueError(f"log of a non-positive number {x}")
    return _ctx.log(value) / _LN3


def to_mpf(x: int | Fraction) -> Any:
    """An exact rational as a :data:`DIGITS`-digit mpmath number.

    Parameters
    ----------
    x : int or fractions.Fraction
        A rational.

    Returns
    -------
    mpmath.mpf
        The number.
    """
    q = _rational(x)
    return _ctx.mpf(q.numerator) / q.denominator


def log3_e() -> Any:
    """:math:`\\log_3 e = 1 / \\ln 3` to :data:`DIGITS` digits.

    Returns
    -------
    mpmath.mpf
        :math:`\\log_3 e`.
    """
    return 1 / _LN3


def log3_multiset_coefficient(n: int, k: int) -> Any:
    r""":math:`\log_3 \left(\!\binom{n}{k}\!\right) = \log_3 \binom{n+k-1}{k}` to :data:`DIGITS`
    digits, for any size of ``k`` (e.g. :math:`k = 3^{37}`).

    Exact big-integer logarithm when the coefficient has at most :data:`EXACT_BITS_LIMIT`
    bits, else :math:`\ln\Gamma(n+k) - \ln\Gamma(k+1) - \ln\Gamma(n)` at 60-digit precision.

    Parameters
    ----------
    n : int
        Number of parts.
    k : int
        Their sum.

    Returns
    -------
    mpmath.mpf
        The logarithm.

    Examples
    --------
    >>> float(log3_multiset_coefficient(14, 3))   # ((14 3)) = binom(16, 3) = 560
    5.7599...
    """
    n, k = check_int("n", n, 0), check_int("k", k, 0)
    if n < 1 or k < 0:
        if n == 0 and k == 0:
            return _ctx.mpf(0)
        raise ValueError(f"((n k)) needs n >= 1 and k >= 0 (or n = k = 0), got n={n}, k={k}")
    if k == 0 or n == 1:
        return _ctx.mpf(0)
    small = min(n - 1, k)
    bits = small * math.log2(n + k)
    if bits <= EXACT_BITS_LIMIT:
        return log3(math.comb(n + k - 1, k))
    ln = _ctx.loggamma(n + k) - _ctx.loggamma(k + 1) - _ctx.loggamma(n)
    return ln / _LN3


def _exact_bits(X: Fraction) -> float:
    num, den = abs(X.numerator), X.denominator
    return max(num.bit_length(), den.bit_length())


@dataclass(frozen=True)
class Log3Value:
    """A positive number given by :math:`\\log_3` (60 digits) and, when known, exactly.

    Attributes
    ----------
    log3 : mpmath number
        :math:`\\log_3 x` (``-inf`` for x = 0).
    exact : (Fraction, int) or None
        ``(X, q)`` with :math:`x^q = X` exactly, when known and not too large.

    Examples
    --------
    >>> Log3Value.of(560).compare(Log3Value.of(Fraction(1121, 2)))
    -1
    """

    log3: Any
    exact: tuple[Fraction, int] | None = None

    @classmethod
    def of(cls, x: int | Fraction) -> Log3Value:
        """The exact positive rational ``x`` (or 0).

        Parameters
        ----------
        x : int or fractions.Fraction
            A non-negative rational.

        Returns
        -------
        Log3Value
            Its logarithm and exact form.
        """
        q = Fraction(x)
        if q < 0:
            raise ValueError(f"Log3Value holds non-negative numbers, got {x}")
        value = _ctx.mpf("-inf") if q == 0 else log3(q)
        return cls(value, (q, 1))

    @property
    def float_log3(self) -> float:
        return float(self.log3)

    def compare(self, other: Log3Value) -> int | None:
        """-1, 0 or 1 as ``self`` <, =, > ``other``; ``None`` if undecidable (a tie in log3).

        Parameters
        ----------
        other : Log3Value
            The other value.

        Returns
        -------
        int or None
            -1, 0, 1, or None.
        """
        return compare(self, other)


def compare(a: Log3Value, b: Log3Value) -> int | None:
    """Compare two :class:`Log3Value` without ever turning rounding into a verdict.

    Exact when both have exact forms whose cross powers stay below :data:`EXACT_BITS_LIMIT`
    bits; otherwise by the 60-digit logarithms if they differ by more than
    :data:`TIE_TOLERANCE` relative; otherwise ``None``.

    Parameters
    ----------
    a, b : Log3Value
        The two values.

    Returns
    -------
    int or None
        -1, 0, 1 as a <, =, > b, or None for an undecidable tie.

    Examples
    --------
    >>> compare(Log3Value.of(2), Log3Value(log3(4) / 2))   # 2 vs sqrt(4): a tie in logs
    >>> compare(Log3Value.of(2), Log3Value(log3(4) / 2, (Fraction(4), 2)))   # exact: equal
    0
    """
    if a.exact is not None and b.exact is not None:
        (X1, q1), (X2, q2) = a.exact, b.exact
        if X1 == 0 or X2 == 0:
            return (X1 > X2) - (X1 < X2)
        if _exact_bits(X1) * q2 <= EXACT_BITS_LIMIT and _exact_bits(X2) * q1 <= EXACT_BITS_LIMIT:
            left, right = X1**q2, X2**q1
            return (left > right) - (left < right)
    la, lb = a.log3, b.log3
    if _ctx.isinf(la) or _ctx.isinf(lb):
        if la == lb:
            return None
        return 1 if la > lb else -1
    diff = la - lb
    scale = max(_ctx.mpf(1), abs(la), abs(lb))
    if abs(diff) <= TIE_TOLERANCE * scale:
        return None
    return 1 if diff > 0 else -1
