r"""Exact Gaussian rationals :math:`a + b\,\mathbf i` (:math:`a, b \in \mathbb Q`).

The lower-bound witness of paper 003 (Lemma 6) has complex weights with *bilinear* products
(:math:`\langle u, v\rangle = u^T v`, never conjugated).  :class:`GaussianRational` lets the
network code of :class:`seprank.LinearAttention` run on such weights exactly (numpy object
arrays in :class:`~seprank.core.domains.ExactDomain`), for tiny cases; large cases use GF(p) with
an integer square root of -1 instead (:func:`sqrt_minus_one_mod`).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from seprank.core.random import is_prime
from seprank.core.validation import check_int

__all__ = ["GaussianRational", "complex_rank_embedding", "sqrt_minus_one_mod"]


def _q(x: Any) -> Fraction:
    if isinstance(x, float | complex | np.floating | np.complexfloating):
        raise TypeError(f"GaussianRational refuses the float {x!r}")
    if isinstance(x, bool | str | bytes) or not isinstance(x, numbers.Rational):
        raise TypeError(f"GaussianRational needs exact rational parts (int or Fraction), got "
                        f"{x!r} ({type(x).__name__})")
    return Fraction(x)


@dataclass(frozen=True)
class GaussianRational:
    """``re + im * i`` with exact rational parts.

    Parameters
    ----------
    re, im : int, fractions.Fraction or other exact rational
        The real and imaginary parts (default 0).

    Examples
    --------
    >>> i = GaussianRational(0, 1)
    >>> i * i, (1 + i) ** 2, GaussianRational(1, 2) * Fraction(1, 2)
    (GaussianRational(-1), GaussianRational(0+2i), GaussianRational(1/2+1i))
    """

    re: Fraction
    im: Fraction = Fraction(0)

    def __init__(self, re: Any = 0, im: Any = 0) -> None:
        object.__setattr__(self, "re", _q(re))
        object.__setattr__(self, "im", _q(im))

    @staticmethod
    def coerce(x: Any) -> GaussianRational:
        """``x`` as a Gaussian rational (itself when it already is one).

        Parameters
        ----------
        x : GaussianRational, int or fractions.Fraction
            The number.

        Returns
        -------
        GaussianRational
            The number.
        """
        return x if isinstance(x, GaussianRational) else GaussianRational(x)

    def __add__(self, other: Any) -> GaussianRational:
        o = self.coerce(other)
        return GaussianRational(self.re + o.re, self.im + o.im)

    __radd__ = __add__

    def __neg__(self) -> GaussianRational:
        return GaussianRational(-self.re, -self.im)

    def __sub__(self, other: Any) -> GaussianRational:
        return self + (-self.coerce(other))

    def __rsub__(self, other: Any) -> GaussianRational:
        return self.coerce(other) - self

    def __mul__(self, other: Any) -> GaussianRational:
        o = self.coerce(other)
        return GaussianRational(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)

    __rmul__ = __mul__

    def __pow__(self, k: int) -> GaussianRational:
        if k < 0:
            raise ValueError("negative powers are not supported")
        out, base = GaussianRational(1), self
        while k:
            if k & 1:
                out = out * base
            base, k = base * base, k >> 1
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GaussianRational):
            return self.re == other.re and self.im == other.im
        if isinstance(other, int | Fraction):
            return self.im == 0 and self.re == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.re, self.im))

    def __complex__(self) -> complex:
        return complex(float(self.re), float(self.im))

    def residue(self, iota: int, p: int) -> int:
        """The image in GF(p) under i -> iota (iota**2 = -1 mod p).

        Parameters
        ----------
        iota : int
            A square root of -1 modulo p.
        p : int
            The prime (not dividing a denominator).

        Returns
        -------
        int
            The residue in ``[0, p)``.
        """
        def r(q: Fraction) -> int:
            if q.denominator % p == 0:
                raise ZeroDivisionError(f"denominator of {q} divisible by p = {p}")
            return q.numerator * pow(q.denominator, -1, p) % p

        return (r(self.re) + iota * r(self.im)) % p

    def __repr__(self) -> str:
        if self.im == 0:
            return f"GaussianRational({self.re})"
        return f"GaussianRational({self.re}{'+' if self.im >= 0 else ''}{self.im}i)"


def sqrt_minus_one_mod(p: int) -> int:
    """An integer ``iota`` with ``iota**2 = -1 (mod p)``, for a prime ``p = 1 (mod 4)``.

    GF(p) contains a square root of -1 exactly when p = 1 (mod 4); then for any quadratic
    non-residue a, :math:`a^{(p-1)/4}` is one (deterministic search over a = 2, 3, ...).

    Parameters
    ----------
    p : int
        A prime, p = 1 (mod 4).

    Returns
    -------
    int
        iota in ``[0, p)``.

    Examples
    --------
    >>> sqrt_minus_one_mod(13) ** 2 % 13
    12
    """
    p = check_int("p", p, 2)
    if not is_prime(p):
        raise ValueError(f"p = {p} must be a prime")
    if p % 4 != 1:
        raise ValueError(f"GF(p) has a square root of -1 only when p = 1 (mod 4); p = {p} is "
                         f"{p % 4} (mod 4)")
    for a in range(2, p):
        r = pow(a, (p - 1) // 4, p)
        if r * r % p == p - 1:
            return r
    raise ValueError(f"no square root of -1 found modulo {p}: is p prime?")


def complex_rank_embedding(E: np.ndarray) -> np.ndarray:
    r"""The real matrix :math:`\begin{pmatrix} A & -B \\ B & A \end{pmatrix}` of
    :math:`E = A + B\mathbf i` (Gaussian rationals); its rational rank is
    :math:`2\operatorname{rank}_{\mathbb C} E`.

    Parameters
    ----------
    E : numpy.ndarray
        An object array of Gaussian rationals, shape (m, n).

    Returns
    -------
    numpy.ndarray
        Object array of rationals, shape (2m, 2n).

    Examples
    --------
    >>> i = GaussianRational(0, 1)
    >>> E = np.array([[1, i], [i, -1]], dtype=object)   # rank 1 over C (row 2 = i * row 1)
    >>> complex_rank_embedding(E).shape
    (4, 4)
    """
    if isinstance(E, str | bytes):
        raise TypeError(f"E must be a matrix of Gaussian rationals, got the string {E!r}")
    E = np.asarray(E, dtype=object)
    if E.ndim != 2:
        raise ValueError(f"E must be a 2-D matrix, got shape {E.shape}")
    A = np.vectorize(lambda z: GaussianRational.coerce(z).re, otypes=[object])(E)
    B = np.vectorize(lambda z: GaussianRational.coerce(z).im, otypes=[object])(E)
    return np.block([[A, -B], [B, A]])
