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

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.memory import array_bytes, guard_memory
from seprank.core.types import Array

__all__ = ["OPS", "Node", "Ref"]

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
