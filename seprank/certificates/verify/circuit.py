"""The checker's own circuit interpreter: function kind ``'circuit'`` (standard library only).

A circuit (:mod:`seprank.circuits` writes it) is a program of nodes in topological order over
an input ``X`` of N rows of ``dim`` numbers; every node's value is a tensor, kept here as a
flat row-major list with its shape:

``input``  X (N, dim) -- ``const`` an exact tensor ``value`` of ``shape`` -- ``einsum`` a
contraction ``spec`` (``'ab,bc->ac'``: lowercase letters, one or two operands, explicit
output, no letter twice in one operand) of ``args`` -- ``power`` ``arg ** exponent``
(elementwise, exponent >= 1) -- ``add`` the elementwise sum of ``args`` of one shape --
``prod`` the product along ``axis`` -- ``take`` the entries ``indices`` along ``axis`` --
``reshape`` the same entries in ``shape``; ``output`` names a scalar node that depends on X.

The program is read strictly (:func:`parse_program`: every field, shape and index checked,
shapes inferred node by node), its cost bounded before any work (:meth:`Program.cost`: the
terms of every contraction times the cost of one product at that node's number size, which is
propagated node by node over Q), its homogeneity *proved* from the program
(:meth:`Program.total_degree`: a constant has degree 0, X degree 1, a contraction the sum of
its operands' degrees, a power e times, a product pooling the axis length times, an ``add``
needs equal degrees -- else the circuit is not shown homogeneous and is rejected for a block
certificate), and evaluated over Q or GF(p) (:meth:`Program.evaluator`) by explicit sums.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cost import Sizes
from .exact import Number, Reject, Ring, integer, keys_of, tensor
from .limits import ESTIMATE_CAP, Refuse, capped, product_cost, tick

__all__ = ["Program", "parse_program"]

OPS = ("input", "const", "einsum", "power", "add", "prod", "take", "reshape")
_SPEC = re.compile(r"([a-z]*)(?:,([a-z]*))?->([a-z]*)\Z", re.ASCII)
_EXACT = Ring(None)
#: Nodes of one program, and entries of one node (before any cost estimate).
MAX_NODES = 100_000
MAX_ENTRIES = 10**8


def _numel(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _strides(shape: Sequence[int]) -> list[int]:
    out, acc = [0] * len(shape), 1
    for k in range(len(shape) - 1, -1, -1):
        out[k] = acc
        acc *= shape[k]
    return out


def _flatten(value: Any, depth: int) -> list[Any]:
    if depth == 0:
        return [value]
    out: list[Any] = []
    for v in value:
        out.extend(_flatten(v, depth - 1))
    return out


@dataclass(frozen=True)
class CNode:
    """One node, read strictly."""

    op: str
    args: tuple[int, ...]
    shape: tuple[int, ...]
    batched: bool
    letters: tuple[str, ...] = ()
    out: str = ""
    sizes: tuple[tuple[str, int], ...] = ()
    exponent: int = 0
    axis: int = 0
    indices: tuple[int, ...] = ()
    value: list[Number] = field(default_factory=list, repr=False)

    @property
    def numel(self) -> int:
        return _numel(self.shape)

    def terms(self) -> int:
        """Products of one einsum (every assignment of its letters)."""
        return _numel([n for _, n in self.sizes])


@dataclass(frozen=True)
class Program:
    """A circuit read strictly (:func:`parse_program`).

    Parameters
    ----------
    n_inputs : int
        N, the rows of an input.
    dim : int
        The length of each row.
    nodes : tuple of CNode
        The nodes in topological order, each checked.
    output : int
        The index of the scalar output node.
    """

    n_inputs: int
    dim: int
    nodes: tuple[CNode, ...]
    output: int

    def total_degree(self) -> tuple[int, str]:
        """The total degree D of the output, proved node by node (module docstring).

        Raises :class:`Reject` when an ``add`` joins nodes of different degrees (the program
        does not show f homogeneous).

        Returns
        -------
        D : int
            The total degree of the output.
        reason : str
            The sentence a report quotes for it.
        """
        deg: list[int] = []
        for k, node in enumerate(self.nodes):
            if node.op == "input":
                deg.append(1)
            elif node.op == "const":
                deg.append(0)
            elif node.op == "einsum":
                deg.append(sum(deg[a] for a in node.args))
            elif node.op == "power":
                deg.append(node.exponent * deg[node.args[0]])
            elif node.op == "prod":
                deg.append(self.nodes[node.args[0]].shape[node.axis] * deg[node.args[0]])
            elif node.op == "add":
                ds = {deg[a] for a in node.args}
                if len(ds) != 1:
                    raise Reject(f"circuit node {k} adds terms of degrees {sorted(ds)}: the "
                                 "program does not show f homogeneous, so its coefficient "
                                 "matrix need not be block-diagonal by degree")
                deg.append(ds.pop())
            else:
                deg.append(deg[node.args[0]])
        D = deg[self.output]
        return D, (f"the circuit's program proves f homogeneous of degree {D} node by node "
                   "(constants 0, inputs 1, contractions add degrees, powers and product "
                   "pooling multiply them, sums join equal degrees)")

    def cost(self, prime: int | None, inputs: Sizes) -> int:
        """Operations of one evaluation (constants included) over GF(prime) or Q.

        Parameters
        ----------
        prime : int or None
            The prime p of GF(p), or None for exact evaluation over Q (numbers grow).
        inputs : Sizes
            The bit sizes of the input entries (numerators and denominators).

        Returns
        -------
        int
            The estimated cost: each node's operations weighted by the cost of a product of
            its operands' sizes (capped at ``ESTIMATE_CAP``), compared with the checker's
            budget before any evaluation starts.
        """
        x_bits = inputs.bits + inputs.den_bits
        rational = bool(inputs.den_bits)
        size: list[int] = []
        total = 0
        for node in self.nodes:
            if node.op == "input":
                b, ops = x_bits, node.numel
            elif node.op == "const":
                b = max((v.bit_length() if type(v) is int else
                         v.numerator.bit_length() + v.denominator.bit_length()
                         for v in node.value), default=0)
                rational = rational or any(type(v) is not int for v in node.value)
                ops = node.numel
            elif node.op == "einsum":
                b = sum(size[a] for a in node.args) + node.terms().bit_length()
                ops = node.terms() * (len(node.args) + 2)
            elif node.op == "power":
                b = node.exponent * size[node.args[0]]
                ops = node.numel * 2 * node.exponent.bit_length()
            elif node.op == "prod":
                n = self.nodes[node.args[0]].shape[node.axis]
                b, ops = n * size[node.args[0]], node.numel * n
            elif node.op == "add":
                b = max(size[a] for a in node.args) + len(node.args).bit_length()
                ops = node.numel * len(node.args)
            else:
                b, ops = size[node.args[0]], node.numel
            b = min(b, 2**40)
            size.append(b)
            bits = 2 * prime.bit_length() if prime is not None else b
            total += ops * product_cost(bits) * (8 if rational and prime is None else 1)
            if total >= ESTIMATE_CAP:
                return ESTIMATE_CAP
        return capped(total)

    def evaluator(self, ring: Ring) -> Callable[[list[list[Number]]], Number]:
        """f as a function of the N input rows (ring elements); constants are converted and
        the nodes that do not depend on X evaluated once, here.

        Parameters
        ----------
        ring : Ring
            Where to compute: Q (exact) or GF(p).

        Returns
        -------
        callable
            ``f(X)``: X a list of N rows of ``dim`` ring elements; returns f(X) in the ring.
        """
        plans: dict[int, Any] = {}
        fixed: dict[int, list[Number]] = {}
        for k, node in enumerate(self.nodes):
            plans[k] = _plan(node, self.nodes)
            if not node.batched:
                fixed[k] = _apply(node, k, [fixed[a] for a in node.args], plans[k], ring, [])
        nodes, output = self.nodes, self.output

        def f(X: list[list[Number]]) -> Number:
            tick()
            flat = [v for row in X for v in row]
            values: dict[int, list[Number]] = {}
            for k, node in enumerate(nodes):
                if not node.batched:
                    values[k] = fixed[k]
                else:
                    values[k] = _apply(node, k, [values[a] for a in node.args], plans[k],
                                       ring, flat)
            return values[output][0]

        return f


def _plan(node: CNode, nodes: Sequence[CNode]) -> Any:
    """Index maps of a node: (out, a[, b]) flat indices of every einsum term; the input indices
    of every output entry of a prod; the source index of every taken entry."""
    if node.op == "einsum":
        letters = [c for c, _ in node.sizes]
        ranges = [range(n) for _, n in node.sizes]
        pos = {c: i for i, c in enumerate(letters)}

        def index_of(word: str) -> Callable[[tuple[int, ...]], int]:
            shape = [dict(node.sizes)[c] for c in word]
            st = _strides(shape)
            where = [pos[c] for c in word]
            return lambda a: sum(a[w] * s for w, s in zip(where, st, strict=True))

        idx = [index_of(w) for w in (node.out, *node.letters)]
        return [tuple(g(a) for g in idx) for a in itertools.product(*ranges)]
    if node.op in ("prod", "take"):
        src = nodes[node.args[0]].shape
        st = _strides(src)
        out: list[Any] = []
        for multi in itertools.product(*(range(n) for n in node.shape)):
            if node.op == "take":
                m = list(multi)
                m[node.axis] = node.indices[m[node.axis]]
                out.append(sum(i * s for i, s in zip(m, st, strict=True)))
            else:
                m = list(multi)
                m.insert(node.axis, 0)
                base = sum(i * s for i, s in zip(m, st, strict=True))
                out.append([base + j * st[node.axis] for j in range(src[node.axis])])
        return out
    return None


def _apply(node: CNode, k: int, args: list[list[Number]], plan: Any, ring: Ring,
           flat_x: list[Number]) -> list[Number]:
    red = ring.red
    if node.op == "input":
        return flat_x
    if node.op == "const":
        return [ring.of(v, f"function.program.nodes[{k}].value") for v in node.value]
    if node.op == "einsum":
        acc: list[Number] = [0] * node.numel
        if len(args) == 1:
            (a,) = args
            for o, i in plan:
                acc[o] += a[i]
        else:
            a, b = args
            for o, i, j in plan:
                acc[o] += a[i] * b[j]
        return [red(v) for v in acc]
    if node.op == "power":
        e = node.exponent
        if ring.p is not None:
            return [pow(int(v), e, ring.p) for v in args[0]]
        return [v ** e for v in args[0]]
    if node.op == "add":
        return [red(sum(vs)) for vs in zip(*args, strict=True)]
    if node.op == "prod":
        out = []
        for group in plan:
            v: Number = 1
            for i in group:
                v = red(v * args[0][i])
            out.append(v)
        return out
    if node.op == "take":
        return [args[0][i] for i in plan]
    return args[0]                                   # reshape: the same flat entries


def parse_program(raw: Any, n_inputs: int, dim: int) -> Program:
    """Read a circuit's program strictly for a grid of ``n_inputs`` rows of length ``dim``.

    Parameters
    ----------
    raw : Any
        The certificate's ``function.program`` as decoded from JSON.
    n_inputs : int
        The grid's N; the program's ``n_inputs`` must equal it.
    dim : int
        The grid's row length; the program's ``dim`` must equal it.

    Returns
    -------
    Program
        The program, every node checked (op, operands, shapes, constants, einsum specs).

    Examples
    --------
    >>> prog = {"n_inputs": 2, "dim": 1, "output": 2, "nodes": [
    ...     {"op": "input"}, {"op": "reshape", "arg": 0, "shape": [2]},
    ...     {"op": "einsum", "spec": "n,n->", "args": [1, 1]}]}
    >>> P = parse_program(prog, 2, 1)
    >>> P.evaluator(Ring(None))([[3], [4]]), P.total_degree()[0]
    (25, 2)
    >>> parse_program({**prog, "output": 1}, 2, 1)
    Traceback (most recent call last):
    ...
    seprank.certificates.verify.limits.Refuse: function.program.output must be a scalar node ...
    """
    where = "function.program"
    keys_of(raw, where, ("n_inputs", "dim", "nodes", "output"))
    if raw["n_inputs"] != n_inputs or raw["dim"] != dim or type(raw["n_inputs"]) is not int \
            or type(raw["dim"]) is not int:
        raise Refuse(f"{where}: n_inputs and dim ({raw['n_inputs']!r}, {raw['dim']!r}) must be "
                     f"the grid's ({n_inputs}, {dim})")
    nodes_raw = raw["nodes"]
    if type(nodes_raw) is not list or not nodes_raw or len(nodes_raw) > MAX_NODES:
        raise Refuse(f"{where}.nodes must be a non-empty list of at most {MAX_NODES} nodes")
    nodes: list[CNode] = []
    for k, item in enumerate(nodes_raw):
        nodes.append(_node(item, k, nodes, n_inputs, dim))
    out = integer(raw["output"], f"{where}.output", 0, len(nodes) - 1)
    if nodes[out].shape != () or not nodes[out].batched:
        raise Refuse(f"{where}.output must be a scalar node that depends on the input; node "
                     f"{out} has shape {list(nodes[out].shape)}")
    return Program(n_inputs, dim, tuple(nodes), out)


def _node(item: Any, k: int, nodes: list[CNode], N: int, d: int) -> CNode:
    where = f"function.program.nodes[{k}]"
    op = item.get("op") if type(item) is dict else None
    if op not in OPS:
        raise Refuse(f"{where}.op must be one of {list(OPS)}, got {op!r}")

    def arg(value: Any, name: str) -> CNode:
        return nodes[integer(value, f"{where}.{name}", 0, k - 1)] if k else _no_arg(where)

    def shape_of(value: Any, name: str) -> tuple[int, ...]:
        if type(value) is not list or len(value) > 32:
            raise Refuse(f"{where}.{name} must be a list of at most 32 sizes")
        shape = tuple(integer(s, f"{where}.{name}", 1) for s in value)
        if _numel(shape) > MAX_ENTRIES:
            raise Refuse(f"{where}: {_numel(shape):,} entries, above {MAX_ENTRIES:,}")
        return shape

    if op == "input":
        keys_of(item, where, ("op",))
        return CNode(op, (), (N, d), True)
    if op == "const":
        keys_of(item, where, ("op", "shape", "value"))
        shape = shape_of(item["shape"], "shape")
        value = _flatten(tensor(item["value"], shape, _EXACT, f"{where}.value"), len(shape))
        return CNode(op, (), shape, False, value=value)
    if op == "einsum":
        keys_of(item, where, ("op", "spec", "args"))
        spec, args_raw = item["spec"], item["args"]
        m = _SPEC.match(spec) if type(spec) is str else None
        if m is None or type(args_raw) is not list:
            raise Refuse(f"{where}.spec must be 'ab,bc->ac' or 'ab->b' (lowercase letters) and "
                         "args a list")
        words = [m.group(1)] + ([m.group(2)] if m.group(2) is not None else [])
        if len(words) != len(args_raw):
            raise Refuse(f"{where}: the spec names {len(words)} operand(s), args has "
                         f"{len(args_raw)}")
        ops = [arg(a, "args") for a in args_raw]
        sizes: dict[str, int] = {}
        for word, o in zip(words, ops, strict=True):
            if len(word) != len(o.shape) or len(set(word)) != len(word):
                raise Refuse(f"{where}: operand {word!r} does not match shape {list(o.shape)} "
                             "(one distinct letter per axis)")
            for c, n in zip(word, o.shape, strict=True):
                if sizes.setdefault(c, n) != n:
                    raise Refuse(f"{where}: letter {c!r} has sizes {sizes[c]} and {n}")
        out = m.group(3)
        if len(set(out)) != len(out) or not set(out) <= set(sizes):
            raise Refuse(f"{where}: output {out!r} must be distinct letters of the operands")
        return CNode(op, tuple(args_raw), tuple(sizes[c] for c in out),
                     any(o.batched for o in ops), tuple(words), out, tuple(sizes.items()))
    if op == "add":
        keys_of(item, where, ("op", "args"))
        if type(item["args"]) is not list or not item["args"]:
            raise Refuse(f"{where}.args must be a non-empty list")
        ops = [arg(a, "args") for a in item["args"]]
        if len({o.shape for o in ops}) != 1:
            raise Refuse(f"{where}: add needs operands of one shape")
        return CNode(op, tuple(item["args"]), ops[0].shape, any(o.batched for o in ops))
    if op == "power":
        keys_of(item, where, ("op", "arg", "exponent"))
        a = arg(item["arg"], "arg")
        e = integer(item["exponent"], f"{where}.exponent", 1, 2**20)
        return CNode(op, (item["arg"],), a.shape, a.batched, exponent=e)
    if op in ("prod", "take"):
        keys_of(item, where, ("op", "arg", "axis") + (("indices",) if op == "take" else ()))
        a = arg(item["arg"], "arg")
        if not a.shape:
            raise Refuse(f"{where}: {op} needs an operand with an axis")
        axis = integer(item["axis"], f"{where}.axis", 0, len(a.shape) - 1)
        if op == "prod":
            return CNode(op, (item["arg"],), a.shape[:axis] + a.shape[axis + 1:], a.batched,
                         axis=axis)
        idx = item["indices"]
        if type(idx) is not list or not idx or len(idx) > MAX_ENTRIES:
            raise Refuse(f"{where}.indices must be a non-empty list")
        indices = tuple(integer(i, f"{where}.indices", 0, a.shape[axis] - 1) for i in idx)
        shape = (*a.shape[:axis], len(indices), *a.shape[axis + 1:])
        if _numel(shape) > MAX_ENTRIES:
            raise Refuse(f"{where}: {_numel(shape):,} entries, above {MAX_ENTRIES:,}")
        return CNode(op, (item["arg"],), shape, a.batched, axis=axis, indices=indices)
    keys_of(item, where, ("op", "arg", "shape"))
    a = arg(item["arg"], "arg")
    shape = shape_of(item["shape"], "shape")
    if _numel(shape) != a.numel:
        raise Refuse(f"{where}: cannot reshape {list(a.shape)} into {list(shape)}")
    return CNode(op, (item["arg"],), shape, a.batched)


def _no_arg(where: str) -> CNode:
    raise Refuse(f"{where}: the first node cannot have operands")
