r"""Vectorised evaluation of a circuit in every number domain, derived from its nodes.

One interpreter (:func:`run`) walks the nodes once per batch and hands each operation to a
*backend*; the backends are the number domains:

* **exact** (:class:`~seprank.core.domains.ExactDomain`): object arrays of Python ints /
  Fractions, ``numpy.einsum`` on them (no overflow, no rounding);
* **GF(p)** (:class:`~seprank.core.domains.ModularDomain`): for :math:`p < 2^{26}` balanced
  float64 residues (:mod:`seprank.core.modfloat`): every contraction runs on BLAS with at most
  :func:`~seprank.core.modfloat.max_terms` products per exact float64 sum (a longer
  contraction is cut into chunks along its summed letters, each reduced), every product of two
  residues is reduced before the next; for larger p int64 residues with
  :attr:`ModularDomain.chunk` products per sum;
* **float** (:class:`~seprank.core.domains.FloatDomain`): float64 / complex128 einsums.

Nodes that do not depend on the input (products of weights) are computed once per domain and
cached on the circuit.  Every node that depends on the input carries a leading batch axis
(letter ``Z`` in the einsums: the language's specs use lowercase letters only).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from seprank.circuits.program import Node
from seprank.core.domains import Domain, ExactDomain, FloatDomain, ModularDomain
from seprank.core.memory import OBJECT_ENTRY_BYTES, array_bytes, guard_memory
from seprank.core.modfloat import (
    MAX_PRIME,
    from_balanced,
    max_terms,
    reduce_balanced,
    to_balanced,
)
from seprank.core.types import Array

__all__: list[str] = []   # the machinery of Circuit.__call__ (imported by name)

_BATCH = "Z"


class Backend:
    """The operations of one number domain on (batched) arrays (module docstring)."""

    #: Products that one sum may hold before it must be reduced (None: no limit).
    terms: int | None = None
    key: Any = None
    #: Bytes of one entry (None: object entries, priced by their magnitude).
    entry: int | None = 8

    def check(self, x: Array) -> Array:
        """The output node's values, checked (float: finite)."""
        return x

    def const(self, value: Array) -> Array:
        raise NotImplementedError

    def inputs(self, X: Array) -> Array:
        raise NotImplementedError

    def reduce(self, x: Array) -> Array:
        return x

    def result(self, x: Array) -> Array:
        return x

    def einsum(self, spec: str, *arrays: Array) -> Array:
        """The contraction as one batched matrix product (:func:`_contract`), its inner
        dimension cut so no sum holds more than :attr:`terms` products."""
        if len(arrays) == 1:
            return self.reduce(np.asarray(np.einsum(spec, arrays[0])))
        return _contract(spec, arrays[0], arrays[1], self.terms, self.reduce)

    def power(self, x: Array, e: int) -> Array:
        result: Array | None = None
        base = x
        while True:
            if e & 1:
                result = base if result is None else self.reduce(result * base)
            e >>= 1
            if not e:
                break
            base = self.reduce(base * base)
        assert result is not None
        return result

    def add(self, xs: Sequence[Array]) -> Array:
        total = xs[0]
        for x in xs[1:]:
            total = self.reduce(total + x)
        return total

    def prod(self, x: Array, axis: int) -> Array:
        moved = np.moveaxis(x, axis, 0)
        total = moved[0]
        for k in range(1, moved.shape[0]):
            total = self.reduce(total * moved[k])
        return total


def _contract(spec: str, a: Array, b: Array, terms: int | None,
              reduce: Callable[[Array], Array]) -> Array:
    """``einsum(spec, a, b)`` as ``(batch, left, K) @ (batch, K, right)``: letters of both
    operands and the output are batch axes, of both operands only summed (K), of one operand
    and the output left / right; a letter of one operand only is summed first."""
    lhs, out = spec.split("->")
    wa, wb = lhs.split(",")
    for word, arr, other in ((wa, a, wb), (wb, b, wa)):
        lonely = [c for c in word if c not in other and c not in out]
        if lonely:
            arr = np.einsum(f"{word}->{''.join(c for c in word if c not in lonely)}", arr)
            if word == wa:
                a, wa = arr, "".join(c for c in word if c not in lonely)
            else:
                b, wb = arr, "".join(c for c in word if c not in lonely)
    batch = [c for c in wa if c in wb and c in out]
    summed = [c for c in wa if c in wb and c not in out]
    left = [c for c in wa if c not in wb]
    right = [c for c in wb if c not in wa]
    size = dict(zip(wa, a.shape, strict=True)) | dict(zip(wb, b.shape, strict=True))

    def n(letters: list[str]) -> int:
        return math.prod(size[c] for c in letters)

    A = np.transpose(a, [wa.index(c) for c in batch + left + summed]).reshape(
        n(batch), n(left), n(summed))
    B = np.transpose(b, [wb.index(c) for c in batch + summed + right]).reshape(
        n(batch), n(summed), n(right))
    if n(batch) == 1:                     # one matrix product: BLAS gemm, not a stack
        A, B = A[0], B[0]
    K = n(summed)
    if K == 1:
        C = A * B if n(left) == 1 or n(right) == 1 else A @ B
        C = reduce(np.ascontiguousarray(C))
    else:
        step = K if terms is None else max(1, terms)
        C = reduce(A[..., :step] @ B[..., :step, :])
        for start in range(step, K, step):
            C = reduce(C + A[..., start:start + step] @ B[..., start:start + step, :])
    shaped = C.reshape([size[c] for c in batch + left + right])
    order = batch + left + right
    return np.transpose(shaped, [order.index(c) for c in out])


class _Float(Backend):
    def __init__(self, domain: FloatDomain) -> None:
        self.dtype = np.complex128 if domain.complex_ else np.float64
        self.key = ("float", self.dtype)
        self.entry = 16 if domain.complex_ else 8

    def check(self, x: Array) -> Array:
        if not np.all(np.isfinite(x)):
            bad = int(np.size(x) - np.count_nonzero(np.isfinite(x)))
            raise OverflowError(f"the float evaluation overflowed: {bad:,} of {np.size(x):,} "
                                f"outputs are infinite or NaN (the inputs were finite); "
                                "evaluate in ExactDomain() or ModularDomain(p), or scale the "
                                "inputs down")
        return x

    def const(self, value: Array) -> Array:
        return value.astype(self.dtype)

    def inputs(self, X: Array) -> Array:
        return np.asarray(X, dtype=self.dtype)


class _Exact(Backend):
    key = ("exact",)
    entry = None

    def __init__(self, domain: ExactDomain) -> None:
        self.domain = domain

    def const(self, value: Array) -> Array:
        return value

    def inputs(self, X: Array) -> Array:
        return self.domain.asarray(X)


class _BalancedModular(Backend):
    """GF(p), p < 2**26: balanced float64 residues (:mod:`seprank.core.modfloat`)."""

    def __init__(self, domain: ModularDomain) -> None:
        self.domain, self.p = domain, domain.p
        self.terms = max_terms(domain.p)
        self.inverse = 1.0 / domain.p
        self.key = ("modular-float", domain.p)

    def const(self, value: Array) -> Array:   # a 0-d constant as 1-d (to_balanced writes)
        flat = np.asarray(self.domain.asarray(value.reshape(-1)))
        return to_balanced(flat, self.p).reshape(value.shape)

    def inputs(self, X: Array) -> Array:
        return to_balanced(self.domain.asarray(X), self.p)

    def reduce(self, x: Array) -> Array:
        if not x.flags.writeable or not x.flags.c_contiguous:
            return reduce_balanced(x, self.p)
        q = np.multiply(x, self.inverse)          # reduce_balanced, one temporary
        np.rint(q, out=q)
        q *= self.p
        return np.subtract(x, q, out=x)

    def result(self, x: Array) -> Array:
        return from_balanced(x, self.p)


class _IntModular(Backend):
    """GF(p), p = 2 or 2**26 <= p < 2**31: int64 residues in [0, p)."""

    def __init__(self, domain: ModularDomain) -> None:
        self.domain, self.p = domain, domain.p
        domain.mul(np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))  # p < 2**31
        self.terms = domain.chunk
        self.key = ("modular-int", domain.p)

    def const(self, value: Array) -> Array:
        return np.asarray(self.domain.asarray(value.reshape(-1))).reshape(value.shape)

    def inputs(self, X: Array) -> Array:
        return self.domain.asarray(X)

    def reduce(self, x: Array) -> Array:
        return np.mod(x, self.p)


def backend_for(domain: Domain) -> Backend:
    """The backend of a number domain.

    Examples
    --------
    >>> type(backend_for(ModularDomain(101))).__name__
    '_BalancedModular'
    """
    if isinstance(domain, ModularDomain):
        return (_BalancedModular(domain) if 3 <= domain.p < MAX_PRIME   # balanced needs p odd
                else _IntModular(domain))
    if isinstance(domain, ExactDomain):
        return _Exact(domain)
    if isinstance(domain, FloatDomain):
        return _Float(domain)
    raise TypeError(f"domain must be FloatDomain(), ModularDomain(p) or ExactDomain(), got "
                    f"{domain!r}")


def run(nodes: Sequence[Node], output: int, X: Array, backend: Backend,
        cache: dict[Any, dict[int, Array]] | None = None) -> Array:
    """Evaluate the nodes on the batch ``X`` (batch, N, dim) with ``backend``; the output
    node's values, shape (batch,).  Unbatched nodes are taken from (and stored in)
    ``cache[backend.key]``; a batched node is released as soon as its last reader has run, and
    the peak of the whole evaluation (:func:`evaluation_bytes`) is guarded before it starts."""
    nodes = nodes[:output + 1]
    guard_memory(evaluation_bytes(nodes, X, backend),
                 what=f"the evaluation of a circuit of {len(nodes):,} nodes on "
                      f"{X.shape[0]:,} inputs (its largest live nodes together)",
                 fix="evaluate fewer inputs at once")
    with np.errstate(over="ignore", invalid="ignore"):   # an overflow is refused by check()
        values = run_all(nodes, X, backend, cache, release=True)
    return backend.result(backend.check(values[output]))


def _last_uses(nodes: Sequence[Node]) -> list[list[int]]:
    """Per node i, the nodes whose last reader is i (released after i is computed)."""
    last = {a: i for i, node in enumerate(nodes) for a in node.args}
    freed: list[list[int]] = [[] for _ in nodes]
    for a, i in last.items():
        freed[i].append(a)
    return freed


def _magnitude_bits(nodes: Sequence[Node], X: Array) -> list[int]:
    """Per node, a bound on the bit length of its entries' magnitudes (numerator and
    denominator together for fractions), from the inputs' and constants' sizes."""
    def bits_of(v: Any) -> int:
        if isinstance(v, Fraction):
            return abs(v.numerator).bit_length() + v.denominator.bit_length()
        try:
            return abs(int(v)).bit_length()
        except (TypeError, ValueError, OverflowError):
            return 64
    x_bits = max((bits_of(v) for v in X.reshape(-1)), default=1) if X.dtype == object \
        else 64
    out: list[int] = []
    for node in nodes:
        args = [out[a] for a in node.args]
        if node.op == "input":
            b = x_bits
        elif node.op == "const":
            assert node.value is not None
            b = max((bits_of(v) for v in node.value.reshape(-1)), default=1)
        elif node.op == "einsum":
            lhs = node.spec.split("->")[0].split(",")
            sizes: dict[str, int] = {}
            for letters, a in zip(lhs, node.args, strict=True):
                sizes.update(zip(letters, nodes[a].shape, strict=True))
            terms = math.prod(n for c, n in sizes.items() if c not in node.spec.split("->")[1])
            b = sum(args) + terms.bit_length()
        elif node.op == "power":
            b = args[0] * node.exponent
        elif node.op == "prod":
            b = args[0] * nodes[node.args[0]].shape[node.axis]
        elif node.op == "add":
            b = max(args) + len(args).bit_length()
        else:
            b = args[0]
        out.append(b)
    return out


def entry_bytes(backend: Backend, bits: int) -> int:
    """Bytes of one entry of a node whose magnitudes have at most ``bits`` bits: the dtype's
    width, or for object entries the pointer and the Python int (or Fraction) it points to.

    Parameters
    ----------
    backend : Backend
        The number domain's backend.
    bits : int
        A bound on the bit length of the entries' magnitudes.

    Returns
    -------
    int
        Bytes per entry.

    Examples
    --------
    >>> entry_bytes(_Float(FloatDomain()), 10**6)
    8
    >>> entry_bytes(_Exact(ExactDomain()), 3000) > 3000 // 8
    True
    """
    if backend.entry is not None:
        return backend.entry
    return 8 + OBJECT_ENTRY_BYTES + 4 * math.ceil(bits / 30)


def evaluation_bytes(nodes: Sequence[Node], X: Array, backend: Backend) -> int:
    """The estimated peak bytes of :func:`run`: at every node, the values alive then (the
    input, cached constants, batched nodes still to be read), the node's value and its
    operation's temporaries (operand copies of a contraction, the squarings of a power).

    Parameters
    ----------
    nodes : sequence of Node
        The nodes evaluated, in order.
    X : numpy.ndarray
        The batch of inputs, shape (batch, N, dim).
    backend : Backend
        The number domain's backend (its entry width).

    Returns
    -------
    int
        Bytes.
    """
    batch = X.shape[0]
    bits = _magnitude_bits(nodes, X) if backend.entry is None else [0] * len(nodes)
    size = [(batch if node.batched else 1) * math.prod(node.shape) * entry_bytes(backend, b)
            for node, b in zip(nodes, bits, strict=True)]
    freed = _last_uses(nodes)
    live, peak = array_bytes(X.shape, X.dtype), 0
    for i, node in enumerate(nodes):
        temp = (sum(size[a] for a in node.args) if node.op in ("einsum", "add")
                else 2 * size[i] if node.op in ("power", "prod") else 0)
        peak = max(peak, live + size[i] + temp)
        live += size[i]
        live -= sum(size[a] for a in freed[i] if nodes[a].batched)
    return peak


def run_all(nodes: Sequence[Node], X: Array, backend: Backend,
            cache: dict[Any, dict[int, Array]] | None = None, *,
            release: bool = False) -> dict[int, Array]:
    """Every node's value on the batch ``X`` (:func:`run`); with ``release`` a batched node is
    dropped once its last reader has run (only the last node's value is then certain to be
    kept)."""
    fixed = {} if cache is None else cache.setdefault(backend.key, {})
    freed = _last_uses(nodes) if release else [[] for _ in nodes]
    values: dict[int, Array] = {}
    for i, node in enumerate(nodes):
        if not node.batched and i in fixed:
            values[i] = fixed[i]
            continue
        values[i] = _apply(node, [values[a] for a in node.args], [nodes[a] for a in node.args],
                           X, backend)
        if not node.batched:
            fixed[i] = values[i]
        for a in freed[i]:
            if a != len(nodes) - 1:
                values.pop(a, None)
    return values


def _apply(node: Node, args: list[Array], arg_nodes: list[Node], X: Array,
           backend: Backend) -> Array:
    b = int(node.batched)
    if node.op == "input":
        return backend.inputs(X)
    if node.op == "const":
        assert node.value is not None
        return backend.const(node.value)
    if node.op == "einsum":
        lhs, out = node.spec.split("->")
        ops = [(_BATCH if n.batched else "") + letters
               for letters, n in zip(lhs.split(","), arg_nodes, strict=True)]
        return backend.einsum(",".join(ops) + "->" + (_BATCH if b else "") + out, *args)
    if node.op == "power":
        return backend.power(args[0], node.exponent)
    if node.op == "add":
        if b:
            batch = max(a.shape[0] for a, n in zip(args, arg_nodes, strict=True) if n.batched)
            args = [a if n.batched else np.broadcast_to(a, (batch, *a.shape))
                    for a, n in zip(args, arg_nodes, strict=True)]
        return backend.add(args)
    if node.op == "prod":
        return backend.prod(args[0], node.axis + b)
    if node.op == "take":
        return np.take(args[0], list(node.indices), axis=node.axis + b)
    if node.op == "reshape":
        return args[0].reshape((args[0].shape[0], *node.shape) if b else node.shape)
    raise ValueError(f"unknown node kind {node.op!r}")
