r"""The circuit language: a polynomial architecture as a small typed program over integer weights.

A :class:`Circuit` is a DAG of nodes in topological order; every node has a shape (the shape of
its value for *one* input; evaluation adds a leading batch axis to every node that depends on
the input).  The node set (:data:`OPS`):

``input``
    The input ``X``, shape ``(N, dim)`` (positions x features).
``const``
    An integer tensor (weights, embeddings, 0/1 selectors); any shape.
``einsum``
    A multilinear contraction of one or two operands, ``spec`` in explicit form
    (``"nk,nl->kl"``: lowercase letters, no letter twice in one operand): linear maps, Gram
    matrices, sums over positions, elementwise and outer products.
``power``
    Elementwise power ``x ** exponent`` (``exponent >= 1``): polynomial activations.
``add``
    Elementwise sum of operands of one shape: residual connections, biases, mixed activations.
``prod``
    Product pooling: the product of the entries along ``axis`` (the axis disappears).
``take``
    Entries ``indices`` along ``axis`` (pooling windows, output entries, regrouped positions).
``reshape``
    The same entries in another shape (row-major).

Unrolled recurrences are loops of the constructor that emit nodes (:mod:`.zoo`).  The output
node must be a scalar (shape ``()``): the circuit is the batch function ``X -> f(X)``.  From
this one description the package derives the evaluators in every number domain
(:mod:`.evaluate`), the degree structure of any partition (:mod:`.degrees`), and the JSON form
the independent checker interprets (:meth:`Circuit.to_json`; kind ``"circuit"`` of
:mod:`seprank.certificates`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.memory import array_bytes, guard_memory
from seprank.core.types import Array
from seprank.core.validation import check_int

__all__ = ["OPS", "CircuitBuilder", "Node", "Ref"]

#: The node kinds of the language (module docstring).
OPS = ("input", "const", "einsum", "power", "add", "prod", "take", "reshape")

#: Entries of one constant tensor (guarded before the copy).
MAX_CONST_ENTRIES = 10**7

_SPEC = re.compile(r"^([a-z]*)(,([a-z]*))?->([a-z]*)$")


@dataclass(frozen=True)
class Node:
    """One node of a circuit (see the module docstring for the kinds).

    Attributes
    ----------
    op : str
        One of :data:`OPS`.
    args : tuple of int
        Operand node indices (earlier nodes).
    shape : tuple of int
        The shape of the node's value for one input.
    batched : bool
        Whether the node depends on the input (then its value carries a batch axis).
    spec : str
        ``einsum``: the contraction.
    exponent : int
        ``power``: the exponent.
    axis : int
        ``prod`` / ``take``: the axis.
    indices : tuple of int
        ``take``: the entries kept.
    value : numpy.ndarray or None
        ``const``: the integer tensor (object dtype, Python ints; read-only).
    """

    op: str
    args: tuple[int, ...] = ()
    shape: tuple[int, ...] = ()
    batched: bool = False
    spec: str = ""
    exponent: int = 0
    axis: int = 0
    indices: tuple[int, ...] = ()
    value: Array | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The node's JSON form (what the checker reads)."""
        out: dict[str, Any] = {"op": self.op}
        if self.op == "const":
            assert self.value is not None
            out["shape"] = list(self.shape)
            out["value"] = self.value.tolist() if self.shape else int(self.value[()])
        elif self.op == "einsum":
            out.update(spec=self.spec, args=list(self.args))
        elif self.op == "power":
            out.update(arg=self.args[0], exponent=self.exponent)
        elif self.op == "add":
            out["args"] = list(self.args)
        elif self.op == "prod":
            out.update(arg=self.args[0], axis=self.axis)
        elif self.op == "take":
            out.update(arg=self.args[0], axis=self.axis, indices=list(self.indices))
        elif self.op == "reshape":
            out.update(arg=self.args[0], shape=list(self.shape))
        return out


@dataclass(frozen=True)
class Ref:
    """A handle on a node of a :class:`CircuitBuilder`: its index and shape."""

    index: int
    shape: tuple[int, ...]
    owner: int = field(repr=False, compare=False, default=0)


def parse_spec(spec: str, shapes: Sequence[tuple[int, ...]]) -> tuple[list[str], str,
                                                                       dict[str, int]]:
    """Check an explicit einsum ``spec`` against operand ``shapes``; return the operand
    letters, the output letters and the size of every letter.

    Examples
    --------
    >>> parse_spec("nk,nl->kl", [(3, 2), (3, 4)])
    (['nk', 'nl'], 'kl', {'n': 3, 'k': 2, 'l': 4})
    >>> parse_spec("nk->kk", [(3, 2)])
    Traceback (most recent call last):
    ...
    ValueError: einsum spec 'nk->kk': the output repeats a letter
    """
    if not isinstance(spec, str):
        raise TypeError(f"an einsum spec must be a string such as 'nk,nl->kl', got {spec!r}")
    m = _SPEC.match(spec.replace(" ", ""))
    if m is None:
        raise ValueError(f"einsum spec {spec!r} must have the explicit form 'ab,bc->ac' or "
                         "'ab->b' (lowercase letters, one or two operands, '->' and the output)")
    operands = [m.group(1)] + ([m.group(3)] if m.group(2) else [])
    out = m.group(4)
    if len(operands) != len(shapes):
        raise ValueError(f"einsum spec {spec!r} names {len(operands)} operand(s), "
                         f"got {len(shapes)}")
    sizes: dict[str, int] = {}
    for letters, shape in zip(operands, shapes, strict=True):
        if len(letters) != len(shape):
            raise ValueError(f"einsum spec {spec!r}: operand {letters!r} has {len(letters)} "
                             f"letters but its shape is {shape}")
        if len(set(letters)) != len(letters):
            raise ValueError(f"einsum spec {spec!r}: operand {letters!r} repeats a letter "
                             "(diagonals are not part of the language)")
        for c, n in zip(letters, shape, strict=True):
            if sizes.setdefault(c, n) != n:
                raise ValueError(f"einsum spec {spec!r}: letter {c!r} has sizes {sizes[c]} "
                                 f"and {n}")
    if len(set(out)) != len(out):
        raise ValueError(f"einsum spec {spec!r}: the output repeats a letter")
    missing = set(out) - set(sizes)
    if missing:
        raise ValueError(f"einsum spec {spec!r}: output letters {sorted(missing)} are in no "
                         "operand")
    return operands, out, sizes


def _int_tensor(value: npt.ArrayLike, name: str) -> Array:
    arr = np.asarray(value)
    if arr.dtype.kind in "fcUSVmMb" or (arr.dtype == object and not all(
            isinstance(v, int | np.integer) and not isinstance(v, bool | np.bool_)
            for v in arr.ravel())):
        raise TypeError(f"{name} must be an integer tensor (exact weights), got dtype "
                        f"{arr.dtype}; scale rational weights to integers")
    guard_memory(array_bytes(arr.shape, object), what=f"a constant of shape {arr.shape}",
                 fix="use smaller weights")
    if arr.size > MAX_CONST_ENTRIES:
        raise ValueError(f"{name} has {arr.size:,} entries, above {MAX_CONST_ENTRIES:,}")
    flat = np.empty(arr.size, dtype=object)
    flat[:] = [int(v) for v in arr.ravel()]
    out = flat.reshape(arr.shape)
    out.flags.writeable = False
    return out


class CircuitBuilder:
    """Emit the nodes of a circuit one by one; :meth:`build` returns the :class:`Circuit`.

    Parameters
    ----------
    n_inputs, dim : int
        N positions, ``dim`` features per position.

    Examples
    --------
    >>> b = CircuitBuilder(n_inputs=2, dim=2)
    >>> X = b.input()
    >>> W = b.const([[1, 2], [0, 1]])
    >>> H = b.einsum("nd,cd->nc", X, W)      # a linear map at every position
    >>> y = b.einsum("c->", b.prod(H, axis=0))   # product pooling, then sum of channels
    >>> f = b.build(y, name="tiny")
    >>> int(f(np.array([[[1, 1], [2, 0]]]))[0])   # (1+2)*2 + 1*0
    6
    """

    def __init__(self, *, n_inputs: int, dim: int) -> None:
        self.n_inputs = check_int("n_inputs", n_inputs, 1)
        self.dim = check_int("dim", dim, 1)
        self.nodes: list[Node] = []
        self._input: Ref | None = None

    def _ref(self, x: Any, name: str = "operand") -> Node:
        if not isinstance(x, Ref) or x.owner != id(self) or not 0 <= x.index < len(self.nodes):
            raise TypeError(f"{name} must be a node of this builder (a Ref it returned), "
                            f"got {x!r}")
        return self.nodes[x.index]

    def _emit(self, node: Node) -> Ref:
        self.nodes.append(node)
        return Ref(len(self.nodes) - 1, node.shape, id(self))

    def input(self) -> Ref:
        """The input X, shape ``(n_inputs, dim)`` (one node however often it is asked for)."""
        if self._input is None:
            self._input = self._emit(Node("input", (), (self.n_inputs, self.dim), True))
        return self._input

    def const(self, value: npt.ArrayLike) -> Ref:
        """An integer constant tensor."""
        arr = _int_tensor(value, "a constant")
        return self._emit(Node("const", (), tuple(arr.shape), False, value=arr))

    def einsum(self, spec: str, *operands: Ref) -> Ref:
        """A contraction of one or two operands (explicit ``spec``)."""
        nodes = [self._ref(x) for x in operands]
        ops, out, sizes = parse_spec(spec, [n.shape for n in nodes])
        spec = ",".join(ops) + "->" + out
        shape = tuple(sizes[c] for c in out)
        return self._emit(Node("einsum", tuple(x.index for x in operands), shape,
                               any(n.batched for n in nodes), spec=spec))

    def mul(self, a: Ref, b: Ref) -> Ref:
        """Elementwise product of two nodes of one shape (an einsum)."""
        na, nb = self._ref(a, "a"), self._ref(b, "b")
        if na.shape != nb.shape:
            raise ValueError(f"mul needs operands of one shape, got {na.shape} and {nb.shape}")
        letters = "abcdefghijklmnopqrstuvwxyz"[:len(na.shape)]
        return self.einsum(f"{letters},{letters}->{letters}", a, b)

    def power(self, x: Ref, exponent: int) -> Ref:
        """Elementwise ``x ** exponent``."""
        node = self._ref(x)
        e = check_int("exponent", exponent, 1)
        return self._emit(Node("power", (x.index,), node.shape, node.batched, exponent=e))

    def add(self, *operands: Ref) -> Ref:
        """Elementwise sum of nodes of one shape."""
        nodes = [self._ref(x) for x in operands]
        if not nodes:
            raise ValueError("add needs at least one operand")
        if len({n.shape for n in nodes}) != 1:
            raise ValueError(f"add needs operands of one shape, got {[n.shape for n in nodes]}")
        return self._emit(Node("add", tuple(x.index for x in operands), nodes[0].shape,
                               any(n.batched for n in nodes)))

    def prod(self, x: Ref, axis: int) -> Ref:
        """Product pooling along ``axis``."""
        node = self._ref(x)
        axis = check_int("axis", axis, 0, max(0, len(node.shape) - 1))
        if not node.shape:
            raise ValueError("prod needs a node with at least one axis")
        shape = node.shape[:axis] + node.shape[axis + 1:]
        return self._emit(Node("prod", (x.index,), shape, node.batched, axis=axis))

    def take(self, x: Ref, axis: int, indices: Sequence[int]) -> Ref:
        """Entries ``indices`` of ``x`` along ``axis`` (repeats allowed)."""
        node = self._ref(x)
        if not node.shape:
            raise ValueError("take needs a node with at least one axis")
        axis = check_int("axis", axis, 0, len(node.shape) - 1)
        idx = tuple(check_int("index", i, 0, node.shape[axis] - 1) for i in indices)
        if not idx:
            raise ValueError("take needs at least one index")
        shape = (*node.shape[:axis], len(idx), *node.shape[axis + 1:])
        return self._emit(Node("take", (x.index,), shape, node.batched, axis=axis,
                               indices=idx))

    def entry(self, x: Ref, *index: int) -> Ref:
        """The scalar ``x[index]`` (one take per axis)."""
        node = self._ref(x)
        if len(index) != len(node.shape):
            raise ValueError(f"entry needs {len(node.shape)} indices, got {len(index)}")
        for i in index:
            x = self.reshape(self.take(x, 0, [i]), self._ref(x).shape[1:])
        return x

    def reshape(self, x: Ref, shape: Sequence[int]) -> Ref:
        """The entries of ``x`` (row-major) in ``shape``."""
        node = self._ref(x)
        new = tuple(check_int("shape entry", s, 1) for s in shape)
        if math.prod(new) != math.prod(node.shape):
            raise ValueError(f"cannot reshape {node.shape} into {new}")
        return self._emit(Node("reshape", (x.index,), new, node.batched))

    def build(self, output: Ref, *, name: str, source: str = "",
              parameters: int | None = None) -> Any:
        """The circuit with this scalar ``output`` (nodes not needed by it are dropped)."""
        from seprank.circuits.circuit import Circuit

        node = self._ref(output, "output")
        if node.shape != ():
            raise ValueError(f"the output must be a scalar node (shape ()), got {node.shape}; "
                             "use entry() or an einsum to '->'")
        if not node.batched:
            raise ValueError("the output does not depend on the input")
        return Circuit.from_nodes(self.nodes, output.index, n_inputs=self.n_inputs,
                                  dim=self.dim, name=name, source=source,
                                  parameters=parameters)
