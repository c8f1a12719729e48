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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import add
from typing import Any

from .cost import Sizes
from .exact import Number, Reject, Ring, integer, keys_of, tensor
from .limits import ESTIMATE_CAP, Refuse, capped, product_cost, tick, words

__all__ = ["Program", "parse_program"]

OPS = ("input", "const", "einsum", "power", "add", "prod", "take", "reshape")
_SPEC = re.compile(r"([a-z]*)(?:,([a-z]*))?->([a-z]*)\Z", re.ASCII)
_EXACT = Ring(None)
#: Nodes of one program, and entries of one node (before any cost estimate).
MAX_NODES = 100_000
MAX_ENTRIES = 10**8
#: Degrees are exact up to here (above every prime the checker accepts, ~2^81.5).
DEGREE_CAP = 2**90
#: Number sizes (bits) are capped here in the estimates (anything near is far over budget).
BITS_CAP = 2**40
#: Interpreter operations per node per evaluation (dispatch, the node's list, the lookups):
#: measured ~1 microsecond, 10-20 operations at the checker's 10^7-2*10^7 operations/s.
NODE_OPS = 20
#: Operations of building one einsum term's index tuple (measured ~4 microseconds at most),
#: and one entry of a take or prod plan.
PLAN_TERM_OPS = 40
PLAN_ENTRY_OPS = 10
#: Bytes of one einsum term's plan (a tuple and its list slot, before its ints), of one plan
#: entry of a take or prod (an int and its slot), and of a Fraction beyond its two ints.
TERM_BYTES = 72
ENTRY_BYTES = 40
FRACTION_BYTES = 100


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

        Degrees are kept exactly up to :data:`DEGREE_CAP` (above every prime this checker
        accepts, so a block certificate of such a degree fails ``p > D`` anyway) and as
        "above the cap" beyond it: no node holds an integer of millions of digits.  Raises
        :class:`Reject` when an ``add`` joins nodes of different degrees, or of degrees above
        the cap (the program does not show f homogeneous of a degree this checker can use).

        Returns
        -------
        D : int
            The total degree of the output (``DEGREE_CAP + 1`` stands for any degree above
            the cap).
        reason : str
            The sentence a report quotes for it.
        """
        deg: list[int] = []
        over = DEGREE_CAP + 1
        for k, node in enumerate(self.nodes):
            if k % 4096 == 0:
                tick()
            if node.op == "input":
                d = 1
            elif node.op == "const":
                d = 0
            elif node.op == "einsum":
                d = sum(deg[a] for a in node.args)
            elif node.op == "power":
                d = node.exponent * deg[node.args[0]]
            elif node.op == "prod":
                d = self.nodes[node.args[0]].shape[node.axis] * deg[node.args[0]]
            elif node.op == "add":
                ds = {deg[a] for a in node.args}
                if len(ds) != 1 or over in ds:
                    shown = ", ".join("above 2^90" if x == over else str(x) for x in sorted(ds))
                    raise Reject(f"circuit node {k} adds terms of degrees [{shown}]: the "
                                 "program does not show f homogeneous (of a degree below "
                                 "2^90), so its coefficient matrix need not be block-diagonal "
                                 "by degree")
                d = ds.pop()
            else:
                d = deg[node.args[0]]
            deg.append(min(d, over))
        D = deg[self.output]
        shown = "above 2^90" if over == D else str(D)
        return D, (f"the circuit's program proves f homogeneous of degree {shown} node by "
                   "node (constants 0, inputs 1, contractions add degrees, powers and product "
                   "pooling multiply them, sums join equal degrees)")

    def _sizes(self, inputs: Sizes) -> Iterator[tuple[CNode, int, int, int, list[int]]]:
        """Each node with bounds over Q on its entries: bits of their common denominator (a
        sum of fractions with distinct denominators has their product as its denominator),
        of the numerators written over it, of its largest single entry (numerator and
        denominator), and the largest single entry of each operand."""
        num: list[int] = []
        den: list[int] = []
        ent: list[int] = []
        for node in self.nodes:
            args = [ent[a] for a in node.args]
            if node.op == "input":
                d = inputs.den_bits
                n, e = inputs.bits + d, inputs.bits
            elif node.op == "const":
                sz = Sizes.of(node.value)
                d = sz.den_bits
                n, e = sz.bits + d, sz.bits
            elif node.op == "einsum":
                d = sum(den[a] for a in node.args)
                n = sum(num[a] for a in node.args) + node.terms().bit_length()
                e = n + d
            elif node.op == "power":
                d = node.exponent * den[node.args[0]]
                n = node.exponent * num[node.args[0]]
                e = node.exponent * args[0]
            elif node.op == "prod":
                length = self.nodes[node.args[0]].shape[node.axis]
                d, n = length * den[node.args[0]], length * num[node.args[0]]
                e = length * args[0]
            elif node.op == "add":
                d = sum(den[a] for a in set(node.args))
                n = max(num[a] for a in node.args) + d + len(node.args).bit_length()
                e = n + d
            else:
                d, n, e = den[node.args[0]], num[node.args[0]], args[0]
            d, n, e = min(d, BITS_CAP), min(n, BITS_CAP), min(e, n + d, BITS_CAP)
            den.append(d)
            num.append(n)
            ent.append(e)
            yield node, n, d, e, args

    def cost(self, prime: int | None, inputs: Sizes) -> int:
        """Operations of one evaluation (constants included) over GF(prime) or Q.

        Each node is charged its arithmetic -- its operations times the cost of one product
        at its number sizes -- plus the interpreter's own work per node
        (:data:`NODE_OPS`).  Over Q the sizes follow :meth:`_sizes`: a contraction's terms
        are products of its operands' entries, accumulated into sums whose size is bounded
        by the common denominator of the operands (denominators multiply through sums), so a
        sum of many fractions with distinct denominators is priced by the product of those
        denominators.  Building the index plans happens once per check:
        :meth:`setup_cost`.

        Parameters
        ----------
        prime : int or None
            The prime p of GF(p), or None for exact evaluation over Q (numbers grow).
        inputs : Sizes
            The bit sizes of the input entries (numerators and denominators).

        Returns
        -------
        int
            The estimated cost (capped at ``ESTIMATE_CAP``), compared with the checker's
            budget before any evaluation starts.
        """
        total = 0
        p_step = product_cost(2 * prime.bit_length()) if prime is not None else 0
        for node, n, d, _, args in self._sizes(inputs):
            out = words(n + d)
            rational = 8 if d else 1
            if node.op == "einsum":
                ops = node.terms()
                if prime is not None:
                    step = p_step * (len(node.args) + 1)
                elif len(args) == 2:
                    step = (words(args[0]) * words(args[1])
                            + rational * out * words(args[0] + args[1]))
                else:
                    step = rational * out * words(args[0])
            elif node.op == "power":
                ops = node.numel * 2 * node.exponent.bit_length()
                step = p_step if prime is not None else product_cost(
                    min(node.exponent * args[0], BITS_CAP)) * rational
            elif node.op == "prod":
                ops = node.numel * self.nodes[node.args[0]].shape[node.axis]
                step = p_step if prime is not None else rational * out * words(args[0])
            elif node.op == "add":
                ops = node.numel * len(node.args)
                step = p_step if prime is not None else rational * out * words(max(args))
            elif node.op == "reshape":
                ops, step = 1, 1
            else:
                ops, step = node.numel, p_step or 1
            total += ops * step + NODE_OPS
            if total >= ESTIMATE_CAP:
                return ESTIMATE_CAP
        return capped(total)

    def setup_cost(self) -> int:
        """Operations of building the index plans, once per check (:data:`PLAN_TERM_OPS` per
        einsum term, :data:`PLAN_ENTRY_OPS` per taken or pooled entry).

        Returns
        -------
        int
            Estimated operations.
        """
        total = 0
        for node in self.nodes:
            if node.op == "einsum":
                total += node.terms() * PLAN_TERM_OPS
            elif node.op == "take":
                total += node.numel * PLAN_ENTRY_OPS
            elif node.op == "prod":
                total += node.numel * self.nodes[node.args[0]].shape[node.axis] * PLAN_ENTRY_OPS
        return capped(total)

    def memory(self, prime: int | None, inputs: Sizes) -> int:
        """Bytes of the checker's data for this program: the index plans (a tuple per einsum
        term, an index per taken entry, a list per pooled entry) and every node's values of
        one evaluation (an int or a Fraction object per entry, at its size).

        Parameters
        ----------
        prime : int or None
            The prime p of GF(p), or None for Q.
        inputs : Sizes
            The bit sizes of the input entries.

        Returns
        -------
        int
            Estimated bytes (capped at ``ESTIMATE_CAP``).
        """
        total = 0
        for node, _, d, e, _ in self._sizes(inputs):
            if node.op == "einsum":
                total += node.terms() * (TERM_BYTES + 28 * len(node.args))
            elif node.op == "take":
                total += node.numel * ENTRY_BYTES
            elif node.op == "prod":
                length = self.nodes[node.args[0]].shape[node.axis]
                total += node.numel * (64 + length * ENTRY_BYTES)
            if node.op == "reshape":
                continue                  # the same list as its operand
            if prime is not None:
                each = 36 + prime.bit_length() // 8
            else:
                each = 36 + e // 8 + (FRACTION_BYTES if d else 0)
            total += node.numel * each
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
            tick()
            plans[k] = _plan(node, self.nodes)
            if not node.batched:
                fixed[k] = _apply(node, k, [fixed[a] for a in node.args], plans[k], ring, [])
        nodes, output = self.nodes, self.output

        def f(X: list[list[Number]]) -> Number:
            tick()
            flat = [v for row in X for v in row]
            values: dict[int, list[Number]] = {}
            for k, node in enumerate(nodes):
                if k & 255 == 0:
                    tick()
                if not node.batched:
                    values[k] = fixed[k]
                else:
                    values[k] = _apply(node, k, [values[a] for a in node.args], plans[k],
                                       ring, flat)
            return values[output][0]

        return f


#: Rows of an index plan or entries of a node between two polls of the deadline.
_CHUNK = 4096


def _plan(node: CNode, nodes: Sequence[CNode]) -> Any:
    """Index maps of a node: (out, a[, b]) flat indices of every einsum term; the input indices
    of every output entry of a prod; the source index of every taken entry (the deadline is
    polled every :data:`_CHUNK` of them)."""
    if node.op == "einsum":
        sizes = dict(node.sizes)
        letters = [c for c, _ in node.sizes]
        strides = []
        for word in (node.out, *node.letters):
            of_word = dict(zip(word, _strides([sizes[c] for c in word]), strict=True))
            strides.append([of_word.get(c, 0) for c in letters])
        rows: list[tuple[int, ...]] = [tuple(0 for _ in strides)]
        for axis, c in enumerate(letters):      # one letter at a time: rows grow by its size
            steps = [tuple(i * ws[axis] for ws in strides) for i in range(sizes[c])]
            grown: list[tuple[int, ...]] = []
            for start in range(0, len(rows), _CHUNK):
                tick()
                for row in rows[start:start + _CHUNK]:
                    grown.extend(tuple(map(add, row, step)) for step in steps)
            rows = grown
        return rows
    if node.op in ("prod", "take"):
        src = nodes[node.args[0]].shape
        st = _strides(src)
        out: list[Any] = []
        for count, multi in enumerate(itertools.product(*(range(n) for n in node.shape))):
            if count % _CHUNK == 0:
                tick()
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
        for start in range(0, len(plan), _CHUNK):
            tick()
            if len(args) == 1:
                (a,) = args
                for o, i in plan[start:start + _CHUNK]:
                    acc[o] += a[i]
            else:
                a, b = args
                for o, i, j in plan[start:start + _CHUNK]:
                    acc[o] += a[i] * b[j]
        return [red(v) for v in acc]
    if node.op == "power":
        e = node.exponent
        if ring.p is not None:
            return [pow(int(v), e, ring.p) for v in _ticking(args[0])]
        return [v ** e for v in _ticking(args[0])]
    if node.op == "add":
        return [red(sum(vs)) for vs in _ticking(list(zip(*args, strict=True)))]
    if node.op == "prod":
        out = []
        for group in _ticking(plan):
            v: Number = 1
            for i in group:
                v = red(v * args[0][i])
            out.append(v)
        return out
    if node.op == "take":
        return [args[0][i] for i in plan]
    return args[0]                                   # reshape: the same flat entries


def _ticking(items: Sequence[Any]) -> Iterator[Any]:
    """The items, polling the deadline every :data:`_CHUNK` of them."""
    for start in range(0, len(items), _CHUNK):
        tick()
        yield from items[start:start + _CHUNK]


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
