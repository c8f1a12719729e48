r"""Degrees derived from a circuit: evaluate it over semirings of degree supports.

A polynomial's *support* is the set of exponent vectors of its monomials with non-zero
coefficients.  Replace every input entry :math:`x_{n,k}` by the support of the monomial
:math:`x_{n,k}` (one position n, degree 1), every constant by :math:`\{0\}` (non-zero) or
:math:`\emptyset` (zero), a sum by the union of supports and a product by their Minkowski sum:
then each node's abstract value *contains* the support of the node's polynomial, because a sum
can only cancel monomials (never create them) and the monomials of a product are sums of the
factors' monomials.  This is the usual support bound :math:`\operatorname{supp}(f+g)\subseteq
\operatorname{supp} f \cup \operatorname{supp} g`, :math:`\operatorname{supp}(fg)\subseteq
\operatorname{supp} f + \operatorname{supp} g`, applied node by node -- a proof by induction
over the program, computed by the very interpreter that evaluates the circuit (object arrays
with these two operations).

Two abstractions are used:

* :class:`Bidegrees` -- for a partition (A, B) the set of bidegrees :math:`(j, k)` (degree in
  the A-inputs, degree in the B-inputs): a superset of the bidegrees of f, from which
  :meth:`seprank.circuits.Circuit.degree_structure` builds the degree blocks of the separation
  engine (listing a bidegree f does not have is harmless: its block has rank 0);
* :class:`DegreeBox` -- per input position the least and largest degree of every entry of every
  node (the multi-degree per position, :meth:`seprank.circuits.Circuit.multidegree`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from seprank.circuits.evaluate import Backend
from seprank.core.types import Array

__all__: list[str] = []   # the machinery of Circuit.bidegrees / multidegree


class Bidegrees:
    """A set of bidegrees (j, k); ``+`` is union, ``*`` is the Minkowski sum.

    Examples
    --------
    >>> a, b = Bidegrees({(1, 0)}), Bidegrees({(0, 1)})
    >>> sorted((a * a + a * b).pairs)
    [(1, 1), (2, 0)]
    >>> sorted(((a + b) ** 2).pairs)
    [(0, 2), (1, 1), (2, 0)]
    """

    __slots__ = ("pairs",)

    def __init__(self, pairs: Iterable[tuple[int, int]]) -> None:
        self.pairs = frozenset(pairs)

    def __add__(self, other: Any) -> Bidegrees:
        if isinstance(other, int) and other == 0:      # numpy's einsum starts sums at 0
            return self
        if not isinstance(other, Bidegrees):
            return NotImplemented
        return Bidegrees(self.pairs | other.pairs)

    __radd__ = __add__

    def __mul__(self, other: Any) -> Bidegrees:
        if not isinstance(other, Bidegrees):
            return NotImplemented
        return Bidegrees({(a + c, b + d) for a, b in self.pairs for c, d in other.pairs})

    def __pow__(self, e: int) -> Bidegrees:
        result, base = Bidegrees({(0, 0)}), self
        while e:
            if e & 1:
                result = result * base
            e >>= 1
            if e:
                base = base * base
        return result

    def __repr__(self) -> str:
        return f"Bidegrees({sorted(self.pairs)})"


class DegreeBox:
    """Per position, the least and largest degree (``None``: the zero polynomial); ``+`` takes
    the hull, ``*`` adds the bounds.

    Examples
    --------
    >>> x0, x1 = DegreeBox(((1, 1), (0, 0))), DegreeBox(((0, 0), (1, 1)))
    >>> (x0 * x0 + x0 * x1).box
    ((1, 2), (0, 1))
    """

    __slots__ = ("box",)

    def __init__(self, box: tuple[tuple[int, int], ...] | None) -> None:
        self.box = box

    def __add__(self, other: Any) -> DegreeBox:
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, DegreeBox):
            return NotImplemented
        if self.box is None:
            return other
        if other.box is None:
            return self
        return DegreeBox(tuple((min(a, c), max(b, d))
                               for (a, b), (c, d) in zip(self.box, other.box, strict=True)))

    __radd__ = __add__

    def __mul__(self, other: Any) -> DegreeBox:
        if not isinstance(other, DegreeBox):
            return NotImplemented
        if self.box is None or other.box is None:
            return DegreeBox(None)
        return DegreeBox(tuple((a + c, b + d)
                               for (a, b), (c, d) in zip(self.box, other.box, strict=True)))

    def __pow__(self, e: int) -> DegreeBox:
        if self.box is None:
            return self
        return DegreeBox(tuple((a * e, b * e) for a, b in self.box))

    def __repr__(self) -> str:
        return f"DegreeBox({self.box})"


class AbstractBackend(Backend):
    """Evaluate a circuit over a semiring of supports: the input is an object array of
    abstract entries (one batch row), a constant maps to ``one`` (non-zero) or ``zero``."""

    def __init__(self, one: Any, zero: Any) -> None:
        self.one, self.zero = one, zero

    def const(self, value: Array) -> Array:
        out = np.empty(value.shape, dtype=object)
        flat = out.reshape(-1)
        for k, v in enumerate(value.reshape(-1)):
            flat[k] = self.one if v != 0 else self.zero
        return out

    def inputs(self, X: Array) -> Array:
        return X


def abstract_inputs(n_inputs: int, dim: int, entry: Callable[[int], Any]) -> Array:
    """One batch row of abstract inputs: ``entry(n)`` at every feature of position n."""
    X = np.empty((1, n_inputs, dim), dtype=object)
    for n in range(n_inputs):
        for k in range(dim):
            X[0, n, k] = entry(n)
    return X
