"""The cost model of the checker's evaluations: operations of one evaluation of a network or
a polynomial over Q or GF(p) (:mod:`seprank.certificates.verify.limits` defines the
operation; standard library only)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .exact import Number, bits
from .limits import ESTIMATE_CAP, product_cost, words

__all__ = ["Sizes", "attention_cost", "polynomial_cost"]

#: Interpreter operations per polynomial term per evaluation (the loop, the tuple unpacking;
#: about 1 microsecond), beyond its arithmetic.
TERM_OPS = 10


@dataclass(frozen=True)
class Sizes:
    """Bits of the largest number and of the product of the distinct denominators.

    Parameters
    ----------
    bits : int, default 0
        Bits of the largest number (numerator or integer).
    den_bits : int, default 0
        Bits of the product of the distinct denominators.
    """

    bits: int = 0
    den_bits: int = 0

    @staticmethod
    def of(values: Any) -> Sizes:
        """The sizes of the exact numbers in (nested lists) ``values``.

        Parameters
        ----------
        values : object
            Exact numbers in nested lists.

        Returns
        -------
        Sizes
            Their sizes.
        """
        big, dens = 0, set()
        stack = [values]
        while stack:
            item = stack.pop()
            if type(item) is not list:
                big = max(big, bits(item))
                if isinstance(item, Fraction):
                    dens.add(item.denominator)
            elif item and type(item[0]) is not list:
                try:                      # a row of ints at once
                    big = max(big, max(map(int.bit_length, item)))
                except TypeError:         # Fractions among them
                    stack.extend(item)
            else:
                stack.extend(item)
        return Sizes(big, sum(d.bit_length() for d in dens))


def attention_cost(net: Any, n: int, prime: int | None, inputs: Sizes) -> int:
    """Multiply-adds of the sums of eq. 3, layer by layer, times the cost of one product at
    that layer's number size (over Q: ``bits(y) <= 3 bits(z) + 4 bits(W) + log2(n H d_a^2
    d_x^3)``; fractions counted as integers over the product of their denominators).

    Parameters
    ----------
    net : Network
        The parsed network of the certificate.
    n : int
        N, the number of positions.
    prime : int or None
        The modulus (None: over Q).
    inputs : Sizes
        Sizes of the input numbers.

    Returns
    -------
    int
        Estimated operations of one evaluation.

    Examples
    --------
    >>> from seprank.certificates.verify.evaluators import parse_network
    >>> net = parse_network({"query": [[[[1, 2]]]], "key": [[[[1, 0]]]],
    ...                      "value": [[[[0, 1]]]], "output": [[[[1], [0]]]],
    ...                      "residual": False})
    >>> attention_cost(net, 2, 101, Sizes(7)) < attention_cost(net, 2, None, Sizes(7 * 10**4))
    True
    """
    L, H, d_a, d_x = net.depth, net.heads, net.key_dim, net.width
    rational = bool(inputs.den_bits or net.sizes.den_bits)
    w_bits = net.sizes.bits + net.sizes.den_bits
    z_bits = inputs.bits + inputs.den_bits
    spread = (n * H * d_a * d_a * d_x * d_x * d_x).bit_length() + 2
    total = 0
    for layer in range(L):
        targets = 1 if layer == L - 1 else n
        ops = H * (3 * n * d_a * d_x + targets * (d_a * d_x + n * d_a + n * d_x))
        ops += n * d_x if net.residual else 0
        if prime is not None:
            size = 2 * prime.bit_length()
        else:
            z_bits = 3 * z_bits + 4 * w_bits + spread + int(net.residual)
            size = z_bits
        total += ops * product_cost(size) * (8 if rational and prime is None else 1)
        if total >= ESTIMATE_CAP:      # 3^L growth: stop before the sizes themselves explode
            return ESTIMATE_CAP
    return total


def polynomial_cost(terms: Sequence[tuple[Number, Sequence[tuple[int, int, int]]]],
                    prime: int | None, inputs: Sizes) -> int:
    """Products of a sum of monomials: ``log2(e)`` squarings per power over GF(p); over Q the
    term's final size, ``bits(c) + sum e bits(x)``, per product, and its addition to the
    running sum, whose denominator grows to the product of the distinct denominators.

    Parameters
    ----------
    terms : sequence of (number, sequence of (int, int, int))
        The polynomial's terms: coefficient and factors (position, coordinate, exponent).
    prime : int or None
        The modulus (None: over Q).
    inputs : Sizes
        Sizes of the input numbers.

    Returns
    -------
    int
        Estimated operations of one evaluation.

    Examples
    --------
    >>> terms = [(1, [(0, 0, 10**6)])]                       # x^(10^6)
    >>> polynomial_cost(terms, 101, Sizes(7)) < 100 < polynomial_cost(terms, None, Sizes(7))
    True
    """
    total = 0
    x_bits = inputs.bits + inputs.den_bits
    # over Q the running sum's denominator is the product of the terms' distinct
    # denominators: every addition is priced at that size
    dens = {coef.denominator for coef, _ in terms if isinstance(coef, Fraction)}
    if prime is None:
        den_bits = sum(d.bit_length() for d in dens) + inputs.den_bits * max(
            (sum(e for _, _, e in factors) for _, factors in terms), default=0)
    for coef, factors in terms:
        if prime is not None:
            step = product_cost(2 * prime.bit_length())
            total += step * (1 + sum(e.bit_length() + 1 for _, _, e in factors))
            total += TERM_OPS + 5 * len(factors)
        else:
            size = min(bits(coef) + sum(e * x_bits for _, _, e in factors), 2**40)
            rational = 8 if den_bits else 1
            total += ((1 + 2 * len(factors)) * product_cost(size) * rational
                      + rational * words(min(size + den_bits, 2**40)) * words(size)
                      + TERM_OPS + 5 * len(factors))
        if total >= ESTIMATE_CAP:
            return ESTIMATE_CAP
    return total
