r"""Build a circuit node by node (:class:`CircuitBuilder`), or read one back from its JSON form
(:func:`from_json`); the node kinds are those of :mod:`seprank.circuits.program`."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.certificates.verify.circuit import parse_program
from seprank.certificates.verify.limits import Refuse
from seprank.circuits.circuit import Circuit
from seprank.circuits.program import OPS, Node, Ref, int_tensor, parse_spec
from seprank.core.validation import check_int

__all__ = ["CircuitBuilder", "from_json"]


class CircuitBuilder:
    """Emit the nodes of a circuit one by one; :meth:`build` returns the :class:`Circuit`.

    Parameters
    ----------
    n_inputs, dim : int
        N positions, ``dim`` features per position (keyword-only, each at least 1): the shape
        ``(n_inputs, dim)`` of the input node.

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
        """The input X, shape ``(n_inputs, dim)`` (one node however often it is asked for).

        Returns
        -------
        Ref
            The handle on the input node.
        """
        if self._input is None:
            self._input = self._emit(Node("input", (), (self.n_inputs, self.dim), True))
        return self._input

    def const(self, value: npt.ArrayLike) -> Ref:
        """An integer constant tensor.

        Parameters
        ----------
        value : array_like of int
            The constant, any shape (weights, embeddings, 0/1 selectors); integer entries only
            (scale rational weights to integers).

        Returns
        -------
        Ref
            The handle on the new ``const`` node, of the shape of ``value``.
        """
        arr = int_tensor(value, "value (a constant)")
        return self._emit(Node("const", (), tuple(arr.shape), False, value=arr))

    def einsum(self, spec: str, *operands: Ref) -> Ref:
        """A contraction of one or two operands (explicit ``spec``).

        Parameters
        ----------
        spec : str
            The contraction in explicit form, e.g. ``"nk,nl->kl"``: lowercase letters, one
            letter string per operand, no letter twice in one operand, then ``->`` and the
            output letters.
        *operands : Ref
            One or two nodes of this builder, one per letter string of ``spec``.

        Returns
        -------
        Ref
            The handle on the new ``einsum`` node, of the shape the output letters give.
        """
        nodes = [self._ref(x) for x in operands]
        ops, out, sizes = parse_spec(spec, [n.shape for n in nodes])
        spec = ",".join(ops) + "->" + out
        shape = tuple(sizes[c] for c in out)
        return self._emit(Node("einsum", tuple(x.index for x in operands), shape,
                               any(n.batched for n in nodes), spec=spec))

    def mul(self, a: Ref, b: Ref) -> Ref:
        """Elementwise product of two nodes of one shape (an einsum).

        Parameters
        ----------
        a, b : Ref
            Two nodes of this builder of the same shape.

        Returns
        -------
        Ref
            The handle on their elementwise product, of that shape.
        """
        na, nb = self._ref(a, "a"), self._ref(b, "b")
        if na.shape != nb.shape:
            raise ValueError(f"mul needs operands of one shape, got {na.shape} and {nb.shape}")
        letters = "abcdefghijklmnopqrstuvwxyz"[:len(na.shape)]
        return self.einsum(f"{letters},{letters}->{letters}", a, b)

    def power(self, x: Ref, exponent: int) -> Ref:
        """Elementwise ``x ** exponent``.

        Parameters
        ----------
        x : Ref
            A node of this builder.
        exponent : int
            The power, at least 1 (a polynomial activation).

        Returns
        -------
        Ref
            The handle on the new ``power`` node, of the shape of ``x``.
        """
        node = self._ref(x)
        e = check_int("exponent", exponent, 1)
        return self._emit(Node("power", (x.index,), node.shape, node.batched, exponent=e))

    def add(self, *operands: Ref) -> Ref:
        """Elementwise sum of nodes of one shape.

        Parameters
        ----------
        *operands : Ref
            At least one node of this builder, all of the same shape.

        Returns
        -------
        Ref
            The handle on the new ``add`` node, of that shape.
        """
        nodes = [self._ref(x) for x in operands]
        if not nodes:
            raise ValueError("add needs at least one operand")
        if len({n.shape for n in nodes}) != 1:
            raise ValueError(f"add needs operands of one shape, got {[n.shape for n in nodes]}")
        return self._emit(Node("add", tuple(x.index for x in operands), nodes[0].shape,
                               any(n.batched for n in nodes)))

    def prod(self, x: Ref, axis: int) -> Ref:
        """Product pooling along ``axis``.

        Parameters
        ----------
        x : Ref
            A node of this builder with at least one axis.
        axis : int
            The axis whose entries are multiplied together (it disappears).

        Returns
        -------
        Ref
            The handle on the new ``prod`` node, of the shape of ``x`` without ``axis``.
        """
        node = self._ref(x)
        axis = check_int("axis", axis, 0, max(0, len(node.shape) - 1))
        if not node.shape:
            raise ValueError("prod needs a node with at least one axis")
        shape = node.shape[:axis] + node.shape[axis + 1:]
        return self._emit(Node("prod", (x.index,), shape, node.batched, axis=axis))

    def take(self, x: Ref, axis: int, indices: Sequence[int]) -> Ref:
        """Entries ``indices`` of ``x`` along ``axis`` (repeats allowed).

        Parameters
        ----------
        x : Ref
            A node of this builder with at least one axis.
        axis : int
            The axis the entries are taken along.
        indices : sequence of int
            At least one index in ``[0, x.shape[axis])``, in the order wanted; an index may
            repeat.

        Returns
        -------
        Ref
            The handle on the new ``take`` node: the shape of ``x`` with ``len(indices)`` at
            ``axis``.
        """
        node = self._ref(x)
        if not node.shape:
            raise ValueError("take needs a node with at least one axis")
        axis = check_int("axis", axis, 0, len(node.shape) - 1)
        if isinstance(indices, str | bytes | Mapping) or not isinstance(
                indices, Sequence | np.ndarray):
            raise TypeError(f"indices must be a sequence of integers (a list, tuple or 1-d "
                            f"array: ordered), got {type(indices).__name__}")
        idx = tuple(check_int("indices entry", i, 0, node.shape[axis] - 1) for i in indices)
        if not idx:
            raise ValueError("take needs at least one index")
        shape = (*node.shape[:axis], len(idx), *node.shape[axis + 1:])
        return self._emit(Node("take", (x.index,), shape, node.batched, axis=axis,
                               indices=idx))

    def entry(self, x: Ref, *index: int) -> Ref:
        """The scalar ``x[index]`` (one take per axis).

        Parameters
        ----------
        x : Ref
            A node of this builder.
        *index : int
            One index per axis of ``x``.

        Returns
        -------
        Ref
            The handle on a scalar node (shape ``()``) holding that entry.
        """
        node = self._ref(x)
        if len(index) != len(node.shape):
            raise ValueError(f"entry needs {len(node.shape)} indices, got {len(index)}")
        for i in index:
            x = self.reshape(self.take(x, 0, [i]), self._ref(x).shape[1:])
        return x

    def reshape(self, x: Ref, shape: Sequence[int]) -> Ref:
        """The entries of ``x`` (row-major) in ``shape``.

        Parameters
        ----------
        x : Ref
            A node of this builder.
        shape : sequence of int
            The new shape: positive sizes with the same number of entries as ``x``.

        Returns
        -------
        Ref
            The handle on the new ``reshape`` node.
        """
        node = self._ref(x)
        new = tuple(check_int("shape entry", s, 1) for s in shape)
        if math.prod(new) != math.prod(node.shape):
            raise ValueError(f"cannot reshape {node.shape} into {new}")
        return self._emit(Node("reshape", (x.index,), new, node.batched))

    def build(self, output: Ref, *, name: str, source: str = "",
              parameters: int | None = None) -> Circuit:
        """The circuit with this scalar ``output`` (nodes not needed by it are dropped).

        Parameters
        ----------
        output : Ref
            A scalar node (shape ``()``) of this builder that depends on the input.
        name : str
            What the circuit is, for reports (keyword-only).
        source : str, default ""
            Where the architecture comes from (paper, equation); empty if not given.
        parameters : int, optional
            Its number of trainable parameters; None (the default) counts the entries of the
            constants the output needs.

        Returns
        -------
        Circuit
            The circuit of ``output``.
        """
        node = self._ref(output, "output")
        if not isinstance(name, str):
            raise TypeError(f"name must be a str saying what the circuit is, got {name!r}")
        if not isinstance(source, str):
            raise TypeError(f"source must be a str (where the architecture comes from), got "
                            f"{source!r}")
        if node.shape != ():
            raise ValueError(f"the output must be a scalar node (shape ()), got {node.shape}; "
                             "use entry() or an einsum to '->'")
        if not node.batched:
            raise ValueError("the output does not depend on the input")
        return Circuit.from_nodes(self.nodes, output.index, n_inputs=self.n_inputs,
                                  dim=self.dim, name=name, source=source,
                                  parameters=parameters)


def from_json(program: Mapping[str, Any], *, name: str = "circuit",
              source: str = "") -> Circuit:
    """Rebuild a circuit from :meth:`Circuit.to_json` (every node checked again).

    Parameters
    ----------
    program : Mapping
        The JSON form: exactly the keys ``n_inputs``, ``dim``, ``nodes`` (one mapping per node,
        with its ``op`` and fields) and ``output`` (the index of the scalar output node).
    name : str, default "circuit"
        What the circuit is, for reports (the JSON form does not carry it).
    source : str, default ""
        Where the architecture comes from; empty if not given.

    Returns
    -------
    Circuit
        The circuit the program describes, rebuilt node by node through a
        :class:`CircuitBuilder`.

    Examples
    --------
    >>> from seprank.circuits import shallow_cac
    >>> f = shallow_cac(n_inputs=2, dim=2, channels=2, seed=0)
    >>> X = np.ones((1, 2, 2), dtype=int)
    >>> from_json(f.to_json())(X).tolist() == f(X).tolist()
    True
    """
    if not isinstance(program, Mapping) or set(program) != {"n_inputs", "dim", "nodes",
                                                           "output"}:
        raise ValueError("program must be a mapping with n_inputs, dim, nodes and output")
    n_inputs = check_int("program['n_inputs']", program["n_inputs"], 1)
    dim = check_int("program['dim']", program["dim"], 1)
    try:   # one language, one reader: what the independent checker refuses is refused here
        parse_program(_as_json(program), n_inputs, dim)
    except Refuse as err:
        raise ValueError(f"program refused by the certificate checker's reader: {err}") from None
    b = CircuitBuilder(n_inputs=program["n_inputs"], dim=program["dim"])
    refs: list[Any] = []
    for k, raw in enumerate(program["nodes"]):
        op = raw.get("op") if isinstance(raw, Mapping) else None
        if op not in OPS:
            raise ValueError(f"nodes[{k}]: unknown op {op!r}; known: {OPS}")
        if op == "input":
            refs.append(b.input())
        elif op == "const":
            refs.append(b.const(np.array(raw["value"], dtype=object).reshape(
                tuple(raw["shape"]))))
        elif op == "einsum":
            refs.append(b.einsum(raw["spec"], *(refs[a] for a in raw["args"])))
        elif op == "power":
            refs.append(b.power(refs[raw["arg"]], raw["exponent"]))
        elif op == "add":
            refs.append(b.add(*(refs[a] for a in raw["args"])))
        elif op == "prod":
            refs.append(b.prod(refs[raw["arg"]], raw["axis"]))
        elif op == "take":
            refs.append(b.take(refs[raw["arg"]], raw["axis"], raw["indices"]))
        else:
            refs.append(b.reshape(refs[raw["arg"]], raw["shape"]))
    return b.build(refs[program["output"]], name=name, source=source)


def _as_json(value: Any) -> Any:
    """``value`` with mappings as dicts and sequences as lists (what JSON decodes to), so the
    checker's reader, which takes decoded JSON only, reads a program built in Python too."""
    if isinstance(value, Mapping):
        return {k: _as_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_as_json(v) for v in value]
    if isinstance(value, np.ndarray):
        return _as_json(value.tolist())
    if isinstance(value, np.integer) and not isinstance(value, np.bool_):
        return int(value)
    return value
