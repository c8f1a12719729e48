r"""Exact Fourier analysis on the hypercube :math:`\{\pm1\}^d` (004 §4.2.6, notation).

The thesis' sparse-parity analysis rests on the Fourier coefficients of the majority function
:math:`\mathrm{Maj}(x) = \operatorname{sign}(\sum_i x_i)` on :math:`\{\pm1\}^d`:

.. math:: \zeta_i = \widehat{\mathrm{Maj}}(S) = \mathbb E_x\,\mathrm{Maj}(x)\chi_S(x),
   \qquad \chi_S(x) = \prod_{j\in S} x_j,\ |S| = i,

which by symmetry depend on :math:`i = |S|` only.  Majority needs **d odd** (for even d the
sum can vanish and sign(0) is undefined; the thesis never says so, and Claim 7 needs it).

Everything here is exact (Python integers and :class:`fractions.Fraction`):

* :func:`majority_coefficient` / :func:`majority_spectrum` -- by **Krawtchouk sums**,
  :math:`2^d\zeta_i = \sum_{w=0}^{d}\operatorname{sign}(d-2w)\,K_w(i)` with
  :math:`K_w(i) = [u^w](1-u)^i(1+u)^{d-i}` (python-flint polynomials), or by O'Donnell's closed
  form (``method='closed_form'``, *Analysis of Boolean Functions*, §5.3): for odd i,
  :math:`\zeta_i = (-1)^{(i-1)/2}\binom{(d-1)/2}{(i-1)/2}\binom{d-1}{i-1}^{-1}\,
  2^{1-d}\binom{d-1}{(d-1)/2}`, and :math:`\zeta_i = 0` for even i.
* :func:`majority_rate_table` -- the printed rate :math:`\Theta(i^{-1/3}/\binom di)` against
  the standard :math:`(2/\pi)^{3/4}i^{-3/4}\binom di^{-1/2}`, as base-10 logarithms of exact
  numbers (so d in the hundred thousands is fine).
* :func:`majority_l1_norm` -- :math:`\sum_S|\widehat{\mathrm{Maj}}(S)|` (used in the proof of
  Corollary 3).
* :func:`barak_gap` -- :math:`|\zeta_{k-1}| - |\zeta_{k+1}| \ge 0.03(d-1)^{-(k-1)/2}`
  (Lemma 2 of Barak et al. 2022, quoted after Claim 7), decided exactly.
* :func:`hypercube`, :func:`fourier_coefficient` -- brute force over all :math:`2^d` points.

References
----------
004 §4.2.6 (Notations: :math:`\zeta_i`), Claim 7 (the gap), Corollary 3 (its proof's sum).
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import flint
import numpy as np
import numpy.typing as npt

from seprank.core.validation import (
    check_array,
    check_choice,
    check_float,
    check_indices,
    check_int,
)

__all__ = [
    "BARAK_CONSTANT",
    "BarakGap",
    "MajorityRate",
    "barak_gap",
    "fourier_coefficient",
    "hypercube",
    "krawtchouk",
    "log10_fraction",
    "majority_coefficient",
    "majority_l1_norm",
    "majority_rate_table",
    "majority_spectrum",
    "parity",
]

MajorityMethod = Literal["krawtchouk", "closed_form"]
#: The constant of Lemma 2 of Barak et al. (2022) as quoted after Claim 7.
BARAK_CONSTANT = Fraction(3, 100)
#: Largest d for which :func:`hypercube` materialises all 2^d points (2^22 x 22 bytes ~ 92 MB).
MAX_CUBE_DIMENSION = 22
#: Largest d for which the Krawtchouk route builds d + 1 polynomials of degree d.
MAX_KRAWTCHOUK_DIMENSION = 4001


def check_odd_dimension(d: object, *, name: str = "d") -> int:
    """``d`` as an odd integer >= 1 (majority is undefined on ties for even d)."""
    value = check_int(name, d, minimum=1)
    if value % 2 == 0:
        raise ValueError(f"{name} must be odd: Maj(x) = sign(sum x) is undefined when the sum is "
                         f"0, which happens for even {name} (got {value}); use d + 1")
    return value


def hypercube(d: int) -> npt.NDArray[np.int8]:
    """All :math:`2^d` points of :math:`\\{\\pm1\\}^d` as rows; row n has
    :math:`x_j = 1 - 2\\,\\mathrm{bit}_j(n)`.

    Raises ``ValueError`` for d > 22 (the array would exceed ~92 MB); sample instead.

    Parameters
    ----------
    d : int
        The dimension (<= 22).

    Returns
    -------
    numpy.ndarray
        int8, shape :math:`(2^d, d)`.

    Examples
    --------
    >>> hypercube(2).tolist()
    [[1, 1], [-1, 1], [1, -1], [-1, -1]]
    """
    d = check_int("d", d, minimum=1, maximum=MAX_CUBE_DIMENSION)
    bits = (np.arange(2**d, dtype=np.int64)[:, None] >> np.arange(d)) & 1
    return (1 - 2 * bits).astype(np.int8)


def parity(x: npt.ArrayLike, support: Iterable[int]) -> npt.NDArray[np.int64]:
    """:math:`\\chi_S(x) = \\prod_{j\\in S}x_j` for each row of ``x`` (0-based indices).

    Parameters
    ----------
    x : array_like
        Points of :math:`\\{\\pm1\\}^d`, one per row.
    support : iterable of int
        S (0-based).

    Returns
    -------
    numpy.ndarray
        :math:`\\chi_S(x)` per row.

    Examples
    --------
    >>> parity([[1, -1, -1], [-1, 1, 1]], (0, 1)).tolist()
    [-1, -1]
    """
    arr = check_array("x", x, ndim=2, dtype=np.int64, min_size=0)
    if arr.size and not np.all(np.abs(arr) == 1):
        bad = tuple(int(i) for i in np.argwhere(np.abs(arr) != 1)[0])
        raise ValueError(f"x must hold points of {{-1, 1}}^d, got {arr[bad]} at index {bad} "
                         "(a character chi_S is defined on the hypercube only)")
    idx = list(check_indices("support", support, size=arr.shape[1],
                             what="coordinates (0-based)"))
    return np.prod(arr[:, idx], axis=1) if idx else np.ones(arr.shape[0], dtype=np.int64)


def fourier_coefficient(d: int, support: Iterable[int], values: npt.ArrayLike) -> Fraction:
    """:math:`\\hat f(S) = 2^{-d}\\sum_x f(x)\\chi_S(x)` exactly, from the integer values of f
    on :func:`hypercube` (d) in its row order.

    The arguments come in the order of :func:`majority_coefficient` ``(d, i)``: the dimension,
    which coefficient, then the function's values.

    Parameters
    ----------
    d : int
        The dimension of the hypercube :math:`\\{-1, 1\\}^d`.
    support : iterable of int
        The set S (0-based coordinates).
    values : array_like of int, shape (2**d,)
        f on ``hypercube(d)``, row by row -- values, not the function: pass
        ``f(hypercube(d))``.

    Raises
    ------
    TypeError
        When ``values`` is a function, or the arguments come in the old order
        ``(values, support, d)``.

    Returns
    -------
    fractions.Fraction
        :math:`\\hat f(S)`.

    Examples
    --------
    >>> x = hypercube(3)
    >>> maj = np.sign(x.astype(int).sum(axis=1))
    >>> fourier_coefficient(3, (0,), maj), fourier_coefficient(3, (0, 1, 2), maj)
    (Fraction(1, 2), Fraction(-1, 2))
    """
    if np.ndim(d) > 0 and np.ndim(values) == 0 and not callable(values):
        raise TypeError("fourier_coefficient takes (d, support, values) -- the order of "
                        "majority_coefficient(d, i) -- but got the values first and an "
                        f"integer last; call fourier_coefficient({values!r}, support, values)")
    d = check_int("d", d, minimum=1, maximum=MAX_CUBE_DIMENSION)
    if callable(values):
        raise TypeError(f"values must be the {2**d} integer values of f on hypercube({d}), not "
                        f"the function itself; pass values = f(hypercube({d}))")
    v = check_array("values", values, ndim=1, dtype=np.int64, shape=(2**d,), min_size=0,
                    what=f"the integer values of f on hypercube({d})")
    chi = parity(hypercube(d), support)
    return Fraction(int(np.dot(v.astype(object), chi.astype(object))), 2**d)


def krawtchouk(d: int, i: int) -> list[int]:
    """:math:`K_w(i) = \\sum_t(-1)^t\\binom it\\binom{d-i}{w-t}` for w = 0..d: the sum of
    :math:`\\chi_S(x)` (:math:`|S| = i`) over the points with w coordinates equal to -1.

    Parameters
    ----------
    d : int
        The dimension.
    i : int
        The level.

    Returns
    -------
    list of int
        :math:`K_0(i), \\dots, K_d(i)`.

    Examples
    --------
    >>> krawtchouk(3, 1)
    [1, 1, -1, -1]
    """
    d = check_int("d", d, minimum=1, maximum=MAX_KRAWTCHOUK_DIMENSION)
    i = check_int("i", i, minimum=0, maximum=d)
    poly = flint.fmpz_poly([1, -1]) ** i * flint.fmpz_poly([1, 1]) ** (d - i)
    coeffs = [int(c) for c in poly.coeffs()]
    return coeffs + [0] * (d + 1 - len(coeffs))


@functools.lru_cache(maxsize=64)
def _central_factor(d: int) -> Fraction:
    r""":math:`2^{1-d}\binom{d-1}{(d-1)/2} = \zeta_1` (cached: a 30 000-digit integer at
    d = 100001)."""
    return Fraction(2 * math.comb(d - 1, (d - 1) // 2), 2**d)


def _closed_form(d: int, i: int) -> Fraction:
    if i % 2 == 0:
        return Fraction(0)
    h = (d - 1) // 2
    sign = -1 if ((i - 1) // 2) % 2 else 1
    return sign * Fraction(math.comb(h, (i - 1) // 2), math.comb(d - 1, i - 1)) * _central_factor(d)


def majority_coefficient(d: int, i: int, *, method: MajorityMethod = "krawtchouk") -> Fraction:
    """:math:`\\zeta_i`, the Fourier coefficient of :math:`\\mathrm{Maj}_d` on any set of size i.

    Parameters
    ----------
    d : int
        Odd dimension.
    i : int
        Level, 0 <= i <= d.
    method : {'krawtchouk', 'closed_form'}, keyword-only
        ``'krawtchouk'`` sums :math:`\\operatorname{sign}(d-2w)K_w(i)` (d <= 4001);
        ``'closed_form'`` uses O'Donnell's product formula (any d).

    Returns
    -------
    fractions.Fraction
        :math:`\\zeta_i` (0 for even i).

    Examples
    --------
    >>> majority_coefficient(3, 1), majority_coefficient(3, 3, method="closed_form")
    (Fraction(1, 2), Fraction(-1, 2))
    >>> float(majority_coefficient(101, 5))       # the d = 101, i = 5 value of the notes
    2.486386672514...e-05
    """
    d = check_odd_dimension(d)
    i = check_int("i", i, minimum=0, maximum=d)
    check_choice("method", method, ("krawtchouk", "closed_form"))
    if method == "closed_form":
        return _closed_form(d, i)
    k = krawtchouk(d, i)
    total = sum(k[w] if d - 2 * w > 0 else -k[w] for w in range(d + 1))
    return Fraction(total, 2**d)


def majority_spectrum(d: int, *, method: MajorityMethod = "krawtchouk") -> tuple[Fraction, ...]:
    """:math:`(\\zeta_0, \\dots, \\zeta_d)`: Majority's coefficient at every level.

    Parameters
    ----------
    d : int
        Odd d.
    method : {'krawtchouk', 'closed_form'}, keyword-only
        How :math:`\\zeta_i` is computed.

    Returns
    -------
    tuple of fractions.Fraction
        :math:`\\zeta_0, \\dots, \\zeta_d`.

    Examples
    --------
    >>> [str(z) for z in majority_spectrum(5)]
    ['0', '3/8', '0', '-1/8', '0', '3/8']
    """
    d = check_odd_dimension(d)
    return tuple(majority_coefficient(d, i, method=method) for i in range(d + 1))


def log10_fraction(q: Fraction) -> float:
    """:math:`\\log_{10}|q|` of a non-zero rational of any size (no float overflow).

    Parameters
    ----------
    q : fractions.Fraction
        Non-zero.

    Returns
    -------
    float
        :math:`\\log_{10}|q|`.

    Examples
    --------
    >>> round(log10_fraction(Fraction(1, 10**400)), 6)
    -400.0
    """
    if isinstance(q, bool | np.bool_) or not isinstance(q, numbers.Rational):
        raise TypeError(f"q must be an exact rational (a Fraction or an int), got {q!r} "
                        f"({type(q).__name__})")
    if q == 0:
        raise ValueError("log10_fraction needs a non-zero rational q")
    return math.log10(abs(q.numerator)) - math.log10(q.denominator)


@dataclass(frozen=True)
class MajorityRate:
    r"""One level i of :math:`\mathrm{Maj}_d` against the two rates (base-10 logarithms).

    ``log10_printed_ratio`` is :math:`\log_{10}(|\zeta_i| / (i^{-1/3}/\binom di))` (004 §4.2.6
    as printed) and ``corrected_ratio`` is :math:`|\zeta_i| / ((2/\pi)^{3/4}i^{-3/4}
    \binom di^{-1/2})` (O'Donnell §5.3); a Θ statement holds iff its ratio stays in a fixed
    interval (0, C].

    Parameters
    ----------
    d : int
        The number of inputs (odd).
    i : int
        The level.
    log10_zeta : float
        :math:`\log_{10}|\zeta_i|`.
    log10_printed : float
        :math:`\log_{10}` of the printed rate's ratio.
    log10_corrected : float
        :math:`\log_{10}` of the corrected rate's ratio.
    """

    d: int
    i: int
    log10_zeta: float
    log10_printed: float
    log10_corrected: float

    @property
    def log10_printed_ratio(self) -> float:
        return self.log10_zeta - self.log10_printed

    @property
    def corrected_ratio(self) -> float:
        return float(10 ** (self.log10_zeta - self.log10_corrected))


def majority_rate_table(ds: Sequence[int], levels: Sequence[int], *,
                        method: MajorityMethod = "closed_form") -> list[MajorityRate]:
    """:class:`MajorityRate` rows for every odd level ``i <= d`` of ``levels`` and d in ``ds``.

    Parameters
    ----------
    ds : sequence of int
        Odd dimensions.
    levels : sequence of int
        Levels i.
    method : {'closed_form', 'krawtchouk'}, keyword-only
        How :math:`\\zeta_i` is computed.

    Returns
    -------
    list of MajorityRate
        One row per (d, i).

    Examples
    --------
    >>> row = majority_rate_table([101], [5])[0]
    >>> round(row.corrected_ratio, 3), round(row.log10_printed_ratio, 2)
    (1.038, 3.53)
    """
    check_choice("method", method, ("krawtchouk", "closed_form"))
    dims = [check_odd_dimension(d, name="ds: d") for d in _sequence("ds", ds)]
    lvls = [check_int("levels: level i", i, minimum=1) for i in _sequence("levels", levels)]
    rows = []
    for d in dims:
        for i in lvls:
            if i > d or i % 2 == 0:
                continue
            zeta = majority_coefficient(d, i, method=method)
            log_binom = math.log10(math.comb(d, i))
            rows.append(MajorityRate(
                d=d, i=i, log10_zeta=log10_fraction(zeta),
                log10_printed=-math.log10(i) / 3 - log_binom,
                log10_corrected=0.75 * math.log10(2 / math.pi) - 0.75 * math.log10(i)
                - 0.5 * log_binom))
    return rows


def _sequence(name: str, value: object) -> list[object]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray | range):
        raise TypeError(f"{name} must be a sequence of integers, got {value!r} "
                        f"({type(value).__name__})")
    return list(value)


def majority_l1_norm(d: int, *, method: MajorityMethod = "closed_form") -> Fraction:
    """:math:`\\sum_{S\\subseteq[d]}|\\widehat{\\mathrm{Maj}}(S)| = \\sum_i\\binom di|\\zeta_i|`.

    Parameters
    ----------
    d : int
        Odd d.
    method : {'closed_form', 'krawtchouk'}, keyword-only
        How :math:`\\zeta_i` is computed.

    Returns
    -------
    fractions.Fraction
        The Fourier :math:`\\ell_1` norm.

    Examples
    --------
    >>> majority_l1_norm(3)                     # Maj_3 = (x1 + x2 + x3 - x1x2x3)/2
    Fraction(2, 1)
    """
    d = check_odd_dimension(d)
    return sum((math.comb(d, i) * abs(majority_coefficient(d, i, method=method))
                for i in range(1, d + 1, 2)), Fraction(0))


@dataclass(frozen=True)
class BarakGap:
    """The gap :math:`|\\zeta_{k-1}| - |\\zeta_{k+1}|` against :math:`c(d-1)^{-(k-1)/2}`.

    ``holds`` is decided exactly: gap > 0 and :math:`(\\text{gap}/c)^2(d-1)^{k-1} \\ge 1`;
    ``ratio`` = gap / bound (a float, for margins).

    Parameters
    ----------
    d, k : int
        The parameters (odd d, even k).
    gap : fractions.Fraction
        :math:`|\\zeta_{k-1}| - |\\zeta_{k+1}|`.
    holds : bool
        Whether the gap reaches the bound.
    ratio : float
        gap / bound.
    """

    d: int
    k: int
    gap: Fraction
    holds: bool
    ratio: float


def barak_gap(d: int, k: int, *, constant: Fraction = BARAK_CONSTANT) -> BarakGap:
    """Claim 7's gap (Barak et al. 2022, Lemma 2) for odd d and even k, exactly.

    ``constant`` is the printed 0.03 (keyword-only; a perturbed check may change it).

    Parameters
    ----------
    d : int
        Odd d.
    k : int
        Even k.
    constant : fractions.Fraction, keyword-only
        c (default 3/100).

    Returns
    -------
    BarakGap
        The gap and the verdict.

    Examples
    --------
    >>> g = barak_gap(11, 6)                   # |zeta_5| = |zeta_7|: a tie, d >> k fails
    >>> g.gap, g.holds
    (Fraction(0, 1), False)
    >>> barak_gap(101, 4).holds
    True
    """
    d = check_odd_dimension(d)
    k = check_int("k", k, minimum=2, maximum=d - 1)
    if k % 2:
        raise ValueError(f"k must be even (Claim 7's k-1 and k+1 are then odd), got {k}")
    check_float("constant", constant, positive=True)
    if not isinstance(constant, numbers.Rational):
        constant = Fraction(constant)                 # a finite float, exactly
    lo = abs(majority_coefficient(d, k - 1, method="closed_form"))
    hi = abs(majority_coefficient(d, k + 1, method="closed_form"))
    gap = lo - hi
    holds = gap > 0 and (gap / constant) ** 2 * (d - 1) ** (k - 1) >= 1
    ratio = (10 ** (log10_fraction(gap / constant) + (k - 1) / 2 * math.log10(d - 1))
             if gap > 0 else 0.0)
    return BarakGap(d=d, k=k, gap=gap, holds=bool(holds), ratio=ratio)
