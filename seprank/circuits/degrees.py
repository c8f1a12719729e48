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

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from seprank.circuits.evaluate import Backend
from seprank.circuits.program import Node
from seprank.core.memory import OBJECT_ENTRY_BYTES, guard_memory
from seprank.core.types import Array

__all__: list[str] = []   # the machinery of Circuit.bidegrees / multidegree


class Bidegrees:
    """A set of bidegrees (j, k); ``+`` is union, ``*`` is the Minkowski sum.

    Stored per total degree t = j + k as a bit mask of the A-degrees j (bit j set), so a
    Minkowski sum of two homogeneous sets is one product of masks: a shift, a run of ones when
    both masks are runs (the common case, e.g. :math:`(x_0 + x_1)^e`), else one exact
    convolution (:func:`_minkowski`).  Powers square repeatedly.

    Examples
    --------
    >>> a, b = Bidegrees({(1, 0)}), Bidegrees({(0, 1)})
    >>> sorted((a * a + a * b).pairs)
    [(1, 1), (2, 0)]
    >>> sorted(((a + b) ** 2).pairs)
    [(0, 2), (1, 1), (2, 0)]
    >>> len(((a + b) ** 10**5).pairs)
    100001
    """

    __slots__ = ("masks",)

    def __init__(self, pairs: Iterable[tuple[int, int]] = (), *,
                 masks: dict[int, int] | None = None) -> None:
        if masks is None:
            masks = {}
            for j, k in pairs:
                masks[j + k] = masks.get(j + k, 0) | (1 << j)
        self.masks = masks

    @property
    def pairs(self) -> frozenset[tuple[int, int]]:
        """The bidegrees as a set of pairs (j, k)."""
        return frozenset((j, t - j) for t, m in self.masks.items() for j in _bits(m))

    @property
    def totals(self) -> frozenset[int]:
        """The total degrees j + k."""
        return frozenset(t for t, m in self.masks.items() if m)

    def __add__(self, other: Any) -> Bidegrees:
        if isinstance(other, int) and other == 0:      # numpy's einsum starts sums at 0
            return self
        if not isinstance(other, Bidegrees):
            return NotImplemented
        if not other.masks:
            return self
        if not self.masks:
            return other
        out = dict(self.masks)
        for t, m in other.masks.items():
            out[t] = out.get(t, 0) | m
        return Bidegrees(masks=out)

    __radd__ = __add__

    def __mul__(self, other: Any) -> Bidegrees:
        if not isinstance(other, Bidegrees):
            return NotImplemented
        out: dict[int, int] = {}
        for t1, m1 in self.masks.items():
            for t2, m2 in other.masks.items():
                out[t1 + t2] = out.get(t1 + t2, 0) | _minkowski(m1, m2)
        return Bidegrees(masks=out)

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
        pairs = self.pairs
        if len(pairs) > 8:
            return f"Bidegrees({len(pairs):,} pairs, totals {sorted(self.totals)[:4]}...)"
        return f"Bidegrees({sorted(pairs)})"


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, ascending."""
    if mask < 2**64:
        return [j for j in range(mask.bit_length()) if mask >> j & 1]
    flags = _unpack(mask)
    return np.flatnonzero(flags).tolist()


def _unpack(mask: int) -> Array:
    """``mask`` as a 0/1 uint8 array, bit j at index j."""
    n = mask.bit_length()
    raw = np.frombuffer(mask.to_bytes((n + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:n]


def _pack(flags: Array) -> int:
    """The bit mask with bit j set where ``flags[j]`` is true."""
    return int.from_bytes(np.packbits(flags.astype(np.uint8), bitorder="little").tobytes(),
                          "little")


#: Above this many pairs of set bits a Minkowski sum of masks is one convolution.
_DIRECT_PAIRS = 4096


def _minkowski(m1: int, m2: int) -> int:
    """The bit mask of {a + b : bit a of m1, bit b of m2}.

    A single bit is a shift and two runs of ones give a run (closed forms); otherwise the sum
    is the support of the convolution of the two 0/1 sequences.  That convolution is computed
    in float64 by FFT only when it has more than :data:`_DIRECT_PAIRS` terms: its entries are
    integers (the number of ways to write a sum) and the FFT's rounding error for 0/1
    sequences of length n is about ``1e-16 * log2(n) * n``, far below 1/2 for the lengths
    allowed (:data:`MAX_DEGREE`), so "entry > 1/2" is exactly "entry >= 1".
    """
    if not m1 or not m2:
        return 0
    lo1, lo2 = (m1 & -m1).bit_length() - 1, (m2 & -m2).bit_length() - 1
    r1, r2, shift = m1 >> lo1, m2 >> lo2, lo1 + lo2
    if r1 == 1:
        return r2 << shift
    if r2 == 1:
        return r1 << shift
    if r1 & (r1 + 1) == 0 and r2 & (r2 + 1) == 0:          # two runs of ones
        return ((1 << (r1.bit_length() + r2.bit_length() - 1)) - 1) << shift
    c1, c2 = r1.bit_count(), r2.bit_count()
    if min(c1, c2) <= 64 or c1 * c2 <= _DIRECT_PAIRS:
        small, big = (r1, r2) if c1 <= c2 else (r2, r1)
        out = 0
        for j in _bits(small):
            out |= big << j
        return out << shift
    f1, f2 = _unpack(r1).astype(np.float64), _unpack(r2).astype(np.float64)
    n = len(f1) + len(f2) - 1
    size = 1 << (n - 1).bit_length()
    conv = np.fft.irfft(np.fft.rfft(f1, size) * np.fft.rfft(f2, size), size)[:n]
    return _pack(conv > 0.5) << shift


#: Largest total degree whose bidegrees are derived (a bit per degree per entry).
MAX_DEGREE = 10**6
#: Most abstract set operations (products of total-degree classes) one derivation may run.
MAX_DEGREE_WORK = 2 * 10**7


def degree_bounds(nodes: Sequence[Node]) -> list[tuple[int, int] | None]:
    """Per node, bounds (least, largest) on the total degree of its entries' monomials (None:
    every entry is zero), in closed form from the node kinds: one integer pair per node, so an
    exponent of 10**100 costs nothing.

    Parameters
    ----------
    nodes : sequence of Node
        A circuit's nodes in topological order.

    Returns
    -------
    list of (int, int) or None
        One bound per node.

    Examples
    --------
    >>> from seprank.circuits import CircuitBuilder
    >>> b = CircuitBuilder(n_inputs=2, dim=1)
    >>> s = b.einsum("n->", b.reshape(b.input(), (2,)))
    >>> f = b.build(b.power(s, 10**100), name="(x0 + x1)^(10^100)")
    >>> degree_bounds(f.nodes)[-1] == (10**100, 10**100)
    True
    """
    out: list[tuple[int, int] | None] = []
    for node in nodes:
        args = [out[a] for a in node.args]
        bound: tuple[int, int] | None
        if node.op == "input":
            bound = (1, 1)
        elif node.op == "const":
            assert node.value is not None
            bound = (0, 0) if any(v != 0 for v in node.value.reshape(-1)) else None
        elif node.op in ("einsum", "prod", "power"):
            factor = (node.exponent if node.op == "power"
                      else 1 if node.op == "einsum" else None)
            if any(a is None for a in args):
                bound = None
            elif node.op == "einsum":
                bound = (sum(a[0] for a in args if a is not None),
                         sum(a[1] for a in args if a is not None))
            else:
                assert args[0] is not None
                n = factor if factor is not None else _arg_shape(nodes, node)[node.axis]
                bound = (args[0][0] * n, args[0][1] * n)
        elif node.op == "add":
            known = [a for a in args if a is not None]
            bound = (min(a[0] for a in known), max(a[1] for a in known)) if known else None
        else:                                   # take, reshape: the same entries
            bound = args[0]
        out.append(bound)
    return out


def _arg_shape(nodes: Sequence[Node], node: Node) -> tuple[int, ...]:
    return nodes[node.args[0]].shape


def check_degree_work(nodes: Sequence[Node], *, what: str) -> None:
    """Refuse, before any set is built, a degree derivation that would not end in reasonable
    time or memory: a total degree above :data:`MAX_DEGREE`, more than
    :data:`MAX_DEGREE_WORK` products of total-degree classes, or the masks above the memory
    limit.

    Parameters
    ----------
    nodes : sequence of Node
        A circuit's nodes in topological order.
    what : str
        What is being derived, for the message.

    Returns
    -------
    None
    """
    bounds = degree_bounds(nodes)
    top = max((b[1] for b in bounds if b is not None), default=0)
    fix = ("pass structure='dense' (or your own DegreeStructure) to separation_rank, or build "
           "a circuit of lower degree")
    if top > MAX_DEGREE:
        raise ValueError(f"{what}: the circuit's degree may reach {_size(top)}, above the "
                         f"{MAX_DEGREE:,} this derivation handles (a bit per degree per entry); "
                         f"{fix}")
    work, held = 0, 0
    for node, bound in zip(nodes, bounds, strict=True):
        if bound is None:
            continue
        span = bound[1] - bound[0] + 1
        entries = math.prod(node.shape)
        held += entries * span * (80 + bound[1] // 8)
        if node.op == "einsum":
            mults = math.prod(_letter_sizes(nodes, node).values())
        elif node.op == "power":
            mults = entries * 2 * max(1, node.exponent.bit_length())
        elif node.op == "prod":
            mults = entries * _arg_shape(nodes, node)[node.axis]
        else:
            mults = 0
        work += mults * span * span
    if work > MAX_DEGREE_WORK:
        raise ValueError(f"{what}: the circuit's entries mix up to {_size(work)} products of "
                         f"degree classes (not homogeneous, high degree), above "
                         f"{MAX_DEGREE_WORK:,}; {fix}")
    guard_memory(held, what=f"{what} (the degree sets of every node)", fix=fix)


def _letter_sizes(nodes: Sequence[Node], node: Node) -> dict[str, int]:
    lhs = node.spec.split("->")[0].split(",")
    sizes: dict[str, int] = {}
    for letters, a in zip(lhs, node.args, strict=True):
        sizes.update(zip(letters, nodes[a].shape, strict=True))
    return sizes


def _size(n: int) -> str:
    """A possibly huge integer for a message: its digits, or its order of magnitude."""
    return f"{n:,}" if n < 10**15 else f"about 10^{len(str(n)) - 1}" if n < 10**4000 \
        else f"about 2^{n.bit_length()}"


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

    entry = OBJECT_ENTRY_BYTES

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
