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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.memory import array_bytes, guard_memory
from seprank.core.types import Array

__all__ = ["OPS", "Node", "Ref", "check_program"]

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
        """The node's JSON form (what the checker reads).

        Returns
        -------
        dict
            ``op`` and the fields of its kind (``args`` or ``arg``, ``spec``, ``exponent``,
            ``axis``, ``indices``, ``shape``, ``value``), all JSON data.
        """
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
    """A handle on a node of a :class:`CircuitBuilder`: its index and shape.

    Attributes
    ----------
    index : int
        The node's position in the builder's list of nodes.
    shape : tuple of int
        The shape of the node's value for one input.
    owner : int, default 0
        ``id`` of the builder that returned it (a handle is refused by any other builder).
    """

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


def int_tensor(value: npt.ArrayLike, name: str) -> Array:
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


def check_program(nodes: Any, output: Any, n_inputs: int, dim: int) -> tuple[Node, ...]:
    """Check a node list the way :class:`~seprank.circuits.builder.CircuitBuilder` builds one:
    every entry a :class:`Node` of a known kind whose operands are earlier nodes, whose shape
    and batch flag are what its kind gives, and a scalar ``output`` that depends on the input.

    Parameters
    ----------
    nodes : sequence of Node
        The nodes in topological order.
    output : int
        The index of the output node.
    n_inputs, dim : int
        The input's shape ``(n_inputs, dim)``.

    Returns
    -------
    tuple of Node
        The nodes, unchanged.

    Raises
    ------
    TypeError, ValueError
        Naming the first node that is malformed and what it should be.

    Examples
    --------
    >>> check_program([Node("input", (), (2, 1), True)], 0, 2, 1)
    Traceback (most recent call last):
    ...
    ValueError: output: node 0 has shape (2, 1); the output must be a scalar node (shape ()) ...
    """
    if isinstance(nodes, str | bytes | Mapping) or not isinstance(nodes, Sequence) or not nodes:
        raise TypeError(f"nodes must be a non-empty sequence of Node, got {type(nodes).__name__}")
    for i, node in enumerate(nodes):
        _check_node(i, node, nodes, n_inputs, dim)
    if isinstance(output, bool) or not isinstance(output, int | np.integer) \
            or not 0 <= int(output) < len(nodes):
        raise ValueError(f"output must be the index of a node in 0..{len(nodes) - 1}, got "
                         f"{output!r}")
    out = nodes[int(output)]
    if out.shape != () or not out.batched:
        raise ValueError(f"output: node {int(output)} has shape {out.shape}"
                         f"{'' if out.batched else ' and does not depend on the input'}; the "
                         "output must be a scalar node (shape ()) that depends on the input")
    return tuple(nodes)


def _check_node(i: int, node: Any, nodes: Sequence[Any], n_inputs: int, dim: int) -> None:
    where = f"node {i}"
    if not isinstance(node, Node):
        raise TypeError(f"{where} must be a Node, got {type(node).__name__}")
    if node.op not in OPS:
        raise ValueError(f"{where}: unknown op {node.op!r}; known: {OPS}")
    arity = {"input": 0, "const": 0, "einsum": None, "add": None}.get(node.op, 1)
    args = node.args
    if not isinstance(args, tuple) or any(
            isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < i for a in args):
        raise ValueError(f"{where} ({node.op}): operands {args!r} must be indices of earlier "
                         f"nodes (0..{i - 1})")
    if (arity is not None and len(args) != arity) or (arity is None and not args) or (
            node.op == "einsum" and len(args) > 2):
        raise ValueError(f"{where} ({node.op}): wrong number of operands ({len(args)})")
    shapes = [nodes[a].shape for a in args]
    batched = any(nodes[a].batched for a in args)
    shape: tuple[int, ...]
    if node.op == "input":
        shape, batched = (n_inputs, dim), True
    elif node.op == "const":
        value = node.value
        if not isinstance(value, np.ndarray) or value.dtype != object or any(
                isinstance(v, bool) or not isinstance(v, int) for v in value.reshape(-1)):
            raise TypeError(f"{where} (const): value must be an object array of Python ints "
                            "(build constants with CircuitBuilder.const)")
        shape = tuple(value.shape)
    elif node.op == "einsum":
        ops, out, sizes = parse_spec(node.spec, shapes)
        if ",".join(ops) + "->" + out != node.spec:
            raise ValueError(f"{where} (einsum): spec {node.spec!r} must be written without "
                             "spaces")
        shape = tuple(sizes[c] for c in out)
    elif node.op == "power":
        if isinstance(node.exponent, bool) or not isinstance(node.exponent, int) \
                or node.exponent < 1:
            raise ValueError(f"{where} (power): exponent must be an int >= 1, got "
                             f"{node.exponent!r}")
        shape = shapes[0]
    elif node.op == "add":
        if len(set(shapes)) != 1:
            raise ValueError(f"{where} (add): operands of shapes {shapes} (need one shape)")
        shape = shapes[0]
    elif node.op in ("prod", "take"):
        src = shapes[0]
        if not src or isinstance(node.axis, bool) or not isinstance(node.axis, int) \
                or not 0 <= node.axis < len(src):
            raise ValueError(f"{where} ({node.op}): axis {node.axis!r} is not an axis of "
                             f"shape {src}")
        if node.op == "prod":
            shape = src[:node.axis] + src[node.axis + 1:]
        else:
            idx = node.indices
            if not isinstance(idx, tuple) or not idx or any(
                    isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < src[node.axis]
                    for k in idx):
                raise ValueError(f"{where} (take): indices must be a non-empty tuple of ints "
                                 f"in 0..{src[node.axis] - 1}")
            shape = (*src[:node.axis], len(idx), *src[node.axis + 1:])
    else:
        if not isinstance(node.shape, tuple) or any(
                isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in node.shape) \
                or math.prod(node.shape) != math.prod(shapes[0]):
            raise ValueError(f"{where} (reshape): cannot reshape {shapes[0]} into "
                             f"{node.shape!r}")
        shape = node.shape
    if node.shape != shape or node.batched is not batched:
        raise ValueError(f"{where} ({node.op}): shape {node.shape!r}, batched={node.batched!r} "
                         f"where its operands give shape {shape}, batched={batched}")
