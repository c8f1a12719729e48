r"""A circuit as a batch function of the separation engine: evaluation in every domain, derived
degree blocks, a certificate the independent checker recomputes.

:class:`Circuit` is what :class:`~seprank.circuits.builder.CircuitBuilder` builds.  It is the
batch function ``f(X, *, domain=None)`` of :func:`seprank.separation_rank` (``X`` of shape
``(batch, N, dim)``), with

* ``degree_structure(A, B)``: the bidegrees of f in :math:`(x_A, x_B)`, *derived* from the
  program (:mod:`seprank.circuits.degrees`: a proven superset of f's bidegrees) -- the degree
  blocks of the engine for a homogeneous circuit;
* ``certificate_function()``: the program as JSON (function kind ``"circuit"``), which the
  stdlib checker (:mod:`seprank.certificates.verify`) evaluates with its own interpreter, so
  a circuit's certificate is recomputed entry by entry (``recomputed``), never opaque.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.circuits.degrees import (
    AbstractBackend,
    Bidegrees,
    DegreeBox,
    abstract_inputs,
    check_degree_work,
    degree_bounds,
)
from seprank.circuits.evaluate import backend_for, run, run_all
from seprank.circuits.program import Node, check_program
from seprank.core.domains import Domain, ExactDomain, FloatDomain
from seprank.core.memory import OBJECT_ENTRY_BYTES, guard_memory
from seprank.core.types import Array
from seprank.core.validation import check_int
from seprank.separation.degree import DegreeStructure
from seprank.separation.engine import separation_rank
from seprank.separation.result import SeparationRankResult, validate_partition

__all__ = ["Circuit"]


@dataclass(frozen=True, eq=False)
class Circuit:
    """A polynomial architecture as a program (:mod:`seprank.circuits.program`).

    Attributes
    ----------
    nodes : tuple of Node
        In topological order; only nodes the output needs.
    output : int
        The scalar output node.
    n_inputs, dim : int
        N positions and ``dim`` features.
    name : str
        What the circuit is (for reports).
    source : str
        Where the architecture comes from (paper, equation).
    parameters : int
        Its number of trainable parameters (for comparisons at matched size).

    Examples
    --------
    >>> from seprank.circuits import CircuitBuilder
    >>> b = CircuitBuilder(n_inputs=2, dim=1)
    >>> X = b.input()
    >>> f = b.build(b.einsum("n->", b.power(b.reshape(X, (2,)), 2)), name="x0^2 + x1^2")
    >>> f(np.array([[[2], [3]]])).tolist()
    [13]
    >>> f.degree_structure((0,), (1,)).bidegrees
    ((0, 2), (2, 0))
    >>> f.separation_rank(partition=([0], [1]), seed=0).rank
    2
    """

    nodes: tuple[Node, ...]
    output: int
    n_inputs: int
    dim: int
    name: str = "circuit"
    source: str = ""
    parameters: int = 0
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "n_inputs", check_int("n_inputs", self.n_inputs, 1))
        object.__setattr__(self, "dim", check_int("dim", self.dim, 1))
        for label in ("name", "source"):
            if not isinstance(getattr(self, label), str):
                raise TypeError(f"{label} must be a str, got {getattr(self, label)!r}")
        if not self.name.strip():
            raise ValueError("name must say what the circuit is (a non-empty str)")
        object.__setattr__(self, "parameters", check_int("parameters", self.parameters, 0))
        object.__setattr__(self, "nodes",
                           check_program(self.nodes, self.output, self.n_inputs, self.dim))
        object.__setattr__(self, "output", int(self.output))

    @classmethod
    def from_nodes(cls, nodes: Sequence[Node], output: int, *, n_inputs: int, dim: int,
                   name: str, source: str = "", parameters: int | None = None) -> Circuit:
        """The circuit of ``nodes[output]``, keeping only the nodes it needs (re-indexed).

        Parameters
        ----------
        nodes : sequence of Node
            The nodes in topological order (every operand index points to an earlier node).
        output : int
            The index in ``nodes`` of the scalar output node.
        n_inputs, dim : int
            N positions and ``dim`` features (keyword-only).
        name : str
            What the circuit is, for reports.
        source : str, default ""
            Where the architecture comes from; empty if not given.
        parameters : int, optional
            Its number of trainable parameters; None (the default) counts the entries of the
            constants kept.

        Returns
        -------
        Circuit
            The circuit of the kept nodes, re-indexed in their original order.
        """
        check_program(nodes, output, check_int("n_inputs", n_inputs, 1),
                      check_int("dim", dim, 1))
        needed, stack = set(), [int(output)]
        while stack:
            i = stack.pop()
            if i not in needed:
                needed.add(i)
                stack.extend(nodes[i].args)
        order = sorted(needed)
        new = {old: k for k, old in enumerate(order)}
        kept = tuple(Node(n.op, tuple(new[a] for a in n.args), n.shape, n.batched, n.spec,
                          n.exponent, n.axis, n.indices, n.value)
                     for n in (nodes[i] for i in order))
        if parameters is None:
            parameters = sum(int(np.prod(n.shape)) for n in kept if n.op == "const")
        return cls(kept, new[int(output)], n_inputs, dim, name, source,
                   check_int("parameters", parameters, 0))

    def __repr__(self) -> str:
        return (f"Circuit({self.name!r}, N={self.n_inputs}, dim={self.dim}, "
                f"nodes={len(self.nodes)}, parameters={self.parameters})")

    # --- evaluation ----------------------------------------------------------------------

    def _inputs(self, X: npt.ArrayLike) -> tuple[Array, bool]:
        arr = np.asarray(X)
        if arr.dtype.kind not in "iufcO":
            raise TypeError(f"X (the inputs) must be an array of numbers, got dtype {arr.dtype}")
        single = arr.ndim == 2
        if single:
            arr = arr[None]
        if arr.ndim != 3 or arr.shape[1:] != (self.n_inputs, self.dim):
            raise ValueError(f"X (the inputs) must have shape (batch, N = {self.n_inputs}, "
                             f"dim = {self.dim}) or (N, dim), got {np.shape(X)}")
        if arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
            raise ValueError("X (the inputs) contains NaN or infinite entries")
        return arr, single

    def __call__(self, X: npt.ArrayLike, *, domain: Domain | None = None) -> Array:
        """f at every input of the batch ``X`` (batch, N, dim): shape (batch,) (or a 0-d
        array for one input of shape (N, dim)).

        ``domain``: :class:`~seprank.core.domains.ExactDomain` (the default for integer or
        object inputs), :class:`~seprank.core.domains.ModularDomain` (residues in [0, p)) or
        :class:`~seprank.core.domains.FloatDomain` (the default for float inputs).
        """
        arr, single = self._inputs(X)
        if domain is None:
            domain = FloatDomain(complex_=arr.dtype.kind == "c") if arr.dtype.kind in "fc" \
                else ExactDomain()
        values = run(self.nodes, self.output, arr, backend_for(domain), self._cache)
        return values[0] if single else values

    # --- degrees -------------------------------------------------------------------------

    def bidegrees(self, A: Sequence[int], B: Sequence[int]) -> frozenset[tuple[int, int]]:
        """A proven superset of the bidegrees (j, k) of f's monomials in (x_A, x_B)
        (:mod:`seprank.circuits.degrees`).

        Parameters
        ----------
        A, B : sequence of int
            The two sides of the partition: disjoint input positions covering
            ``range(n_inputs)``.

        Returns
        -------
        frozenset of tuple of int
            The pairs (j, k): degree j in the positions of ``A``, k in those of ``B``.
        """
        A, B = validate_partition((A, B), self.n_inputs)
        key = ("bidegrees", A, B)
        if key not in self._cache:
            check_degree_work(self.nodes, what=f"the bidegrees of {self.name!r}")
            in_a = set(A)
            X = abstract_inputs(self.n_inputs, self.dim,
                                lambda n: Bidegrees({(1, 0) if n in in_a else (0, 1)}))
            backend = AbstractBackend(Bidegrees({(0, 0)}), Bidegrees(()))
            out = run(self.nodes, self.output, X, backend)
            self._cache[key] = out[0].pairs
        pairs: frozenset[tuple[int, int]] = self._cache[key]
        return pairs

    def total_degrees(self) -> tuple[int, ...]:
        """A proven superset of the total degrees of f's monomials (one: f is homogeneous).

        Returns
        -------
        tuple of int
            The total degrees, ascending (empty for a single input position).
        """
        if self.n_inputs == 1:
            return ()
        bound = degree_bounds(self.nodes)[self.output]
        if bound is not None and bound[0] == bound[1]:   # closed form: one total degree
            return (bound[0],)
        pairs = self.bidegrees(tuple(range(self.n_inputs - 1)), (self.n_inputs - 1,))
        return tuple(sorted({j + k for j, k in pairs}))

    def degree_structure(self, A: Sequence[int], B: Sequence[int]) -> DegreeStructure | None:
        """The degree blocks of f between ``A`` and ``B``, derived from the program: the
        bidegrees :meth:`bidegrees` proves, when f is homogeneous (one total degree D, so the
        blocks are the bidegrees (j, D - j) and a block certificate can rest on it); None for a
        non-homogeneous circuit (the engine then uses its dense strategy).

        Parameters
        ----------
        A, B : sequence of int
            The two sides of the partition: disjoint input positions covering
            ``range(n_inputs)``.

        Returns
        -------
        DegreeStructure or None
            The blocks (j, D - j) with their derivation, or None when f is not shown
            homogeneous.

        Examples
        --------
        >>> from seprank.circuits.zoo import shallow_cac
        >>> shallow_cac(n_inputs=4, dim=2, channels=2, seed=0).degree_structure(
        ...     (0, 1), (2, 3)).bidegrees
        ((2, 2),)
        """
        pairs = self.bidegrees(A, B)
        totals = {j + k for j, k in pairs}
        if len(totals) != 1:
            return None
        return DegreeStructure(tuple(sorted(pairs)), source=(
            f"derived from the circuit {self.name!r}: the support of every node bounded by "
            "unions and Minkowski sums, homogeneous of degree "
            f"{totals.pop()}"))

    def multidegree(self) -> list[Array]:
        """Per node, the least and largest degree of each entry in each input position:
        int arrays of shape ``(*node.shape, N, 2)`` (``-1``: the entry is identically zero).

        Returns
        -------
        list of numpy.ndarray
            One int64 array per node, in node order: entry ``[..., n, 0]`` the least and
            ``[..., n, 1]`` the largest degree in position n.
        """
        def entry(n: int) -> DegreeBox:
            return DegreeBox(tuple((1, 1) if m == n else (0, 0) for m in range(self.n_inputs)))

        entries = sum(math.prod(node.shape) for node in self.nodes)
        guard_memory(entries * self.n_inputs * (16 + 2 * OBJECT_ENTRY_BYTES),
                     what=f"the multidegrees of {self.name!r} ({entries:,} entries x "
                          f"{self.n_inputs:,} positions)", fix="use a smaller circuit")
        X = abstract_inputs(self.n_inputs, self.dim, entry)
        zero_box = tuple((0, 0) for _ in range(self.n_inputs))
        values = run_all(self.nodes, X, AbstractBackend(DegreeBox(zero_box), DegreeBox(None)))
        out = []
        for i, node in enumerate(self.nodes):
            v = values[i][0] if node.batched else values[i]
            arr = np.full((*node.shape, self.n_inputs, 2), -1, dtype=np.int64)
            for idx in np.ndindex(*node.shape):
                cell: Any = v[idx] if isinstance(v, np.ndarray) else v
                box = cell.box
                if box is not None:
                    arr[idx] = box
            out.append(arr)
        return out

    # --- the engine and the checker ----------------------------------------------------------

    def separation_rank(self, *, partition: tuple[Sequence[int], Sequence[int]],
                        **kwargs: Any) -> SeparationRankResult:
        """:func:`seprank.separation_rank` of this circuit (keywords passed on).

        Parameters
        ----------
        partition : tuple of two sequences of int
            (A, B): the two sides, disjoint input positions covering ``range(n_inputs)``
            (keyword-only).
        **kwargs
            Passed on to :func:`seprank.separation_rank` (``seed``, ``domain``, budgets, ...);
            ``n_inputs`` and ``dim`` come from the circuit.

        Returns
        -------
        SeparationRankResult
            The engine's result for this circuit and partition.
        """
        return separation_rank(self, n_inputs=self.n_inputs, dim=self.dim,
                               partition=partition, **kwargs)

    def to_json(self) -> dict[str, Any]:
        """The program as JSON data: ``n_inputs``, ``dim``, ``nodes``, ``output`` (read back by
        :func:`seprank.circuits.builder.from_json`).

        Returns
        -------
        dict
            JSON-serialisable data: integers, lists and the node mappings of
            :meth:`Node.to_json <seprank.circuits.program.Node.to_json>`.
        """
        return {"n_inputs": self.n_inputs, "dim": self.dim,
                "nodes": [n.to_json() for n in self.nodes], "output": self.output}

    def certificate_function(self) -> dict[str, Any]:
        """This circuit as a certificate's function (kind ``"circuit"``): its program, which
        the independent checker interprets itself.

        Returns
        -------
        dict
            The certificate's ``function`` entry (type ``"circuit"``, the program with exact
            constants, the circuit's name), from
            :func:`seprank.certificates.build.circuit_function`.
        """
        from seprank.certificates.build import circuit_function

        return circuit_function(self.to_json(), name=self.name)
