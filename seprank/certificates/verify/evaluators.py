"""The checker's own evaluators: the linearized attention network by the sums of 003 eq. 3,
the in-context representation of 000/001 eqs. 4 and 8, and polynomials by their monomials
(standard library only).

A certificate's function is read once, strictly (:func:`parse_function`: exact types, every
shape consistent with the others and with the grid's ``n_inputs`` and ``dim``), before any
evaluation; the parsed :class:`Function` then says what one evaluation costs
(:meth:`Function.cost`), names itself for a claim's subject (:meth:`Function.subject`) and
evaluates in Q or GF(p) (:meth:`Function.evaluator`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .circuit import Program, parse_program
from .cost import Sizes, attention_cost, polynomial_cost
from .exact import Number, Reject, Ring, integer, keys_of, num, show, tensor
from .limits import Refuse, capped, tick
from .schema import digest

__all__ = ["Function", "evaluate_function", "homogeneous_degree", "parse_function"]

#: The function types a certificate may name; ``'opaque'`` is code the checker cannot run.
FUNCTION_TYPES = ("linear_attention", "incontext", "polynomial", "circuit", "opaque")
_EXACT = Ring(None)


@dataclass(frozen=True)
class Network:
    """A network's exact weights (query, key, value: (L, H, d_a, d_x); output: (L, H, d_x,
    d_a)) and whether it has residual connections."""

    weights: Mapping[str, Any] = field(repr=False)
    residual: bool
    depth: int
    heads: int
    key_dim: int
    width: int
    sizes: Sizes


def parse_network(raw: Any, where: str = "function.network") -> Network:
    """Read a network strictly: four weight tensors of consistent shapes, ``residual`` a
    bool."""
    keys_of(raw, where, ("query", "key", "value", "output", "residual"))
    q = raw["query"]
    if not (type(q) is list and q and type(q[0]) is list and q[0] and type(q[0][0]) is list
            and q[0][0] and type(q[0][0][0]) is list and q[0][0][0]):
        raise Refuse(f"{where}.query must be a non-empty (L, H, d_a, d_x) nested list")
    L, H, d_a, d_x = len(q), len(q[0]), len(q[0][0]), len(q[0][0][0])
    shapes = {"query": (L, H, d_a, d_x), "key": (L, H, d_a, d_x),
              "value": (L, H, d_a, d_x), "output": (L, H, d_x, d_a)}
    weights = {k: tensor(raw[k], s, _EXACT, f"{where}.{k}") for k, s in shapes.items()}
    if type(raw["residual"]) is not bool:
        raise Refuse(f"{where}.residual must be true or false, got {raw['residual']!r}")
    return Network(weights, raw["residual"], L, H, d_a, d_x,
                   Sizes.of(list(weights.values())))


@dataclass(frozen=True)
class Function:
    """A certificate's function, read strictly (:func:`parse_function`).

    Parameters
    ----------
    type : {'linear_attention', 'incontext', 'polynomial', 'circuit', 'opaque'}
        The function type.
    raw : Mapping
        The certificate's ``function`` as read.
    n_inputs : int
        N, the number of input vectors.
    dim : int
        Their length.
    network : Network, optional
        The network (attention and in-context types).
    position, coordinate : int
        The output entry :math:`y^i_p`.
    embedding : list of list, optional
        The in-context embedding E.
    first, second : tuple of int
        The in-context token positions.
    terms : tuple
        The polynomial's terms.
    program : Program, optional
        The circuit's program (type ``'circuit'``).
    """

    type: str
    raw: Mapping[str, Any] = field(repr=False)
    n_inputs: int
    dim: int
    network: Network | None = None
    position: int = 0
    coordinate: int = 0
    embedding: list[list[Number]] | None = field(default=None, repr=False)
    first: tuple[int, ...] = ()
    second: tuple[int, ...] = ()
    terms: tuple[tuple[Number, tuple[tuple[int, int, int], ...]], ...] = field(
        default=(), repr=False)
    program: Program | None = field(default=None, repr=False)

    @property
    def opaque(self) -> bool:
        """Arbitrary code: the checker cannot evaluate it."""
        return self.type == "opaque"

    def subject(self) -> dict[str, Any]:
        """What a claim about this function names: its type, the digest of its description
        and its shape parameters.

        Returns
        -------
        dict
            Type, digest and shape parameters.
        """
        out: dict[str, Any] = {"type": self.type, "sha256": digest(self.raw)}
        net = self.network
        if net is not None:
            out.update({"depth": net.depth, "heads": net.heads, "key_dim": net.key_dim,
                        "width": net.width, "residual": net.residual,
                        "position": self.position, "coordinate": self.coordinate})
        if self.type == "incontext":
            assert self.embedding is not None
            out.update({"vocab": len(self.embedding[0]), "first": list(self.first),
                        "second": list(self.second)})
        if self.type == "polynomial":
            out["terms"] = len(self.terms)
        if self.program is not None:
            out["nodes"] = len(self.program.nodes)
        return out

    def cost(self, prime: int | None, inputs: Sizes) -> int:
        """Estimated operations (:mod:`~seprank.certificates.verify.limits`) of one
        evaluation over GF(prime), or over Q (``prime`` None) at inputs of the given sizes.

        Parameters
        ----------
        prime : int or None
            The modulus (None: over Q).
        inputs : Sizes
            Sizes of the input numbers.

        Returns
        -------
        int
            Estimated operations.
        """
        if self.network is not None:
            n = self.n_inputs
            if self.type == "incontext":
                assert self.embedding is not None
                emb = Sizes.of(self.embedding)
                n = 2 * len(self.first)
                inputs = Sizes(inputs.bits + emb.bits, inputs.den_bits + emb.den_bits)
            return capped(attention_cost(self.network, n, prime, inputs) + n * self.dim)
        if self.type == "polynomial":
            return capped(polynomial_cost(self.terms, prime, inputs))
        if self.program is not None:
            return self.program.cost(prime, inputs)
        return 0

    def setup_cost(self) -> int:
        """Estimated operations of preparing the evaluator once per check (a circuit's index
        plans; nothing for the other types).

        Returns
        -------
        int
            Estimated operations.
        """
        return self.program.setup_cost() if self.program is not None else 0

    def memory(self, prime: int | None, inputs: Sizes) -> int:
        """Estimated bytes of the evaluator's own data (a circuit's plans and node values;
        the other types hold a few vectors beyond the certificate's own numbers: 0).

        Parameters
        ----------
        prime : int or None
            The modulus (None: over Q).
        inputs : Sizes
            Sizes of the input numbers.

        Returns
        -------
        int
            Estimated bytes.
        """
        return self.program.memory(prime, inputs) if self.program is not None else 0

    def evaluator(self, ring: Ring) -> Callable[[list[list[Number]]], Number]:
        """f as a function of the N input vectors (lists of ring elements).

        Parameters
        ----------
        ring : Ring
            Q or GF(p).

        Returns
        -------
        callable
            ``f(X)`` of the N input vectors.
        """
        if self.type == "linear_attention":
            assert self.network is not None
            net = _Attention(self.network, ring)
            position, coordinate = self.position, self.coordinate
            return lambda X: net(X, position, coordinate)
        if self.type == "incontext":
            return _incontext(self, ring)
        if self.type == "polynomial":
            return _polynomial(self.terms, ring)
        if self.program is not None:
            return self.program.evaluator(ring)
        raise Reject("an opaque function cannot be evaluated")


def parse_function(raw: Any, n_inputs: int, dim: int) -> Function:
    """Read a certificate's ``function`` strictly, for a grid of ``n_inputs`` vectors of
    length ``dim``: exact numbers, every shape consistent (a network's width is ``dim``; an
    in-context representation has ``n_inputs = 2``), indices in range.

    Parameters
    ----------
    raw : object
        The certificate's ``function``.
    n_inputs : int
        N.
    dim : int
        Length of an input vector.

    Returns
    -------
    Function
        The function, validated.

    Examples
    --------
    >>> fn = parse_function({"type": "polynomial", "terms": [["1/3", [[0, 0, 2]]]]}, 1, 1)
    >>> fn.type, fn.evaluator(Ring(None))([[4]])
    ('polynomial', Fraction(16, 3))
    >>> parse_function({"type": "polynomial", "terms": [[1, [[0, 3, 1]]]]}, 1, 1)
    Traceback (most recent call last):
    ...
    seprank.certificates.verify.limits.Refuse: function.terms[0]: bad factor [0, 3, 1] ...
    """
    if type(raw) is not dict:
        raise Refuse("function must be a JSON object")
    kind = raw.get("type")
    if kind not in FUNCTION_TYPES:
        raise Refuse(f"unknown function type {kind!r}; known: {list(FUNCTION_TYPES)}")
    if kind == "opaque":
        keys_of(raw, "function", ("type",), ("description",))
        if type(raw.get("description", "")) is not str:
            raise Refuse("function.description must be a string")
        return Function("opaque", raw, n_inputs, dim)
    if kind == "polynomial":
        keys_of(raw, "function", ("type", "terms"))
        return Function("polynomial", raw, n_inputs, dim,
                        terms=_terms(raw["terms"], n_inputs, dim))
    if kind == "circuit":
        keys_of(raw, "function", ("type", "program"), ("name",))
        if type(raw.get("name", "")) is not str:
            raise Refuse("function.name must be a string")
        return Function(kind, raw, n_inputs, dim, program=parse_program(raw["program"],
                                                                         n_inputs, dim))
    if kind == "linear_attention":
        keys_of(raw, "function", ("type", "network", "position", "coordinate"))
        net = parse_network(raw["network"])
        _width(net, dim)
        return Function(kind, raw, n_inputs, dim, net,
                        integer(raw["position"], "function.position", 0, n_inputs - 1),
                        integer(raw["coordinate"], "function.coordinate", 0, net.width - 1))
    keys_of(raw, "function", ("type", "network", "embedding", "first", "second", "position",
                              "coordinate"))
    if n_inputs != 2:
        raise Refuse("an in-context representation is a function of two vectors (a, b): "
                     f"n_inputs must be 2, got {n_inputs}")
    net = parse_network(raw["network"])
    _width(net, dim)
    emb = raw["embedding"]
    if type(emb) is not list or len(emb) != net.width or type(emb[0]) is not list \
            or not emb[0]:
        raise Refuse(f"function.embedding must be a (d_x = {net.width}, V) nested list")
    E = tensor(emb, (net.width, len(emb[0])), _EXACT, "function.embedding")
    V = len(emb[0])
    sentences = []
    for name in ("first", "second"):
        s = raw[name]
        if type(s) is not list or not all(type(w) is int and 0 <= w < V for w in s):
            raise Refuse(f"function.{name} must be a list of token ids in 0..{V - 1}")
        sentences.append(tuple(s))
    first, second = sentences
    if len(first) != len(second) or not first:
        raise Refuse("function: the sentences must be non-empty and of one length")
    return Function(kind, raw, n_inputs, dim, net,
                    integer(raw["position"], "function.position", 0, 2 * len(first) - 1),
                    integer(raw["coordinate"], "function.coordinate", 0, net.width - 1),
                    E, first, second)


def _width(net: Network, dim: int) -> None:
    if net.width != dim:
        raise Refuse(f"dim = {dim} but the network has width d_x = {net.width}: the grid's "
                     "input vectors must have the network's width")


def _terms(terms: Any, n_inputs: int,
           dim: int) -> tuple[tuple[Number, tuple[tuple[int, int, int], ...]], ...]:
    if type(terms) is not list:
        raise Refuse("function.terms must be a list of [coefficient, [[pos, coord, exp], ...]]")
    parsed = []
    for k, term in enumerate(terms):
        if type(term) is not list or len(term) != 2 or type(term[1]) is not list:
            raise Refuse(f"function.terms[{k}] must be [coefficient, factors]")
        coef = num(term[0], f"function.terms[{k}][0]")
        factors = []
        for fac in term[1]:
            if (type(fac) is not list or len(fac) != 3
                    or not all(type(v) is int for v in fac)
                    or not (0 <= fac[0] < n_inputs and 0 <= fac[1] < dim and fac[2] >= 0)):
                raise Refuse(f"function.terms[{k}]: bad factor {str(fac)[:60]} (position in "
                             f"0..{n_inputs - 1}, coordinate in 0..{dim - 1}, exponent >= 0)")
            factors.append((fac[0], fac[1], fac[2]))
        parsed.append((coef, tuple(factors)))
    return tuple(parsed)


# --- the evaluators ----------------------------------------------------------------------------


class _Attention:
    r"""y^i_p (output position i, coordinate p) of the linearized attention network by eq. 3
    of 003:
    :math:`y^t = \sum_j \sum_h \langle W^{Q,h} z^t, W^{K,h} z^j\rangle W^{O,h} W^{V,h} z^j`
    (plus :math:`z^t` with the residual connection), layer after layer."""

    def __init__(self, spec: Network, ring: Ring) -> None:
        self.width, self.ring = spec.width, ring
        w = {k: tensor(v, _shape(v), ring, k) for k, v in spec.weights.items()}
        self.layers = [[(w["query"][layer][h], w["key"][layer][h], w["value"][layer][h],
                         w["output"][layer][h]) for h in range(spec.heads)]
                       for layer in range(spec.depth)]
        self.residual = spec.residual

    def __call__(self, Z: list[list[Number]], position: int, coordinate: int) -> Number:
        ring = self.ring
        mv = ring.matvec
        n = len(Z)
        for depth, heads in enumerate(self.layers):
            last = depth == len(self.layers) - 1
            targets = [position] if last else list(range(n))
            Y: dict[int, list[Number]] = {t: [0] * self.width for t in targets}
            for Wq, Wk, Wv, Wo in heads:
                tick()
                keys = [mv(Wk, z) for z in Z]
                outs = [mv(Wo, mv(Wv, z)) for z in Z]
                for t in targets:
                    scores = mv(keys, mv(Wq, Z[t]))  # <W^Q z_t, W^K z_j> for every j
                    acc = Y[t]
                    for s, out in zip(scores, outs, strict=True):
                        if s:
                            acc = [a + s * o for a, o in zip(acc, out, strict=True)]
                    Y[t] = [ring.red(a) for a in acc]
            if self.residual:
                Y = {t: [ring.red(a + b) for a, b in zip(Y[t], Z[t], strict=True)]
                     for t in targets}
            if last:
                return Y[position][coordinate]
            Z = [Y[t] for t in range(n)]
        raise Reject("network: no layers")  # pragma: no cover - L >= 1 is checked


def _shape(value: Any) -> tuple[int, ...]:
    shape = []
    while type(value) is list:
        shape.append(len(value))
        value = value[0]
    return tuple(shape)


def _incontext(fn: Function, ring: Ring) -> Callable[[list[list[Number]]], Number]:
    r""":math:`Z_{in}(a, b) = y^i_p` of the network on the 2N inputs :math:`E(w_1^j)\odot a`,
    then :math:`E(w_2^j)\odot b` (000/001, eqs. 4 and 8)."""
    assert fn.network is not None and fn.embedding is not None
    net = _Attention(fn.network, ring)
    d = fn.network.width
    E = [[ring.of(v, "function.embedding") for v in row] for row in fn.embedding]
    cols1 = [[E[k][w] for k in range(d)] for w in fn.first]
    cols2 = [[E[k][w] for k in range(d)] for w in fn.second]
    position, coordinate = fn.position, fn.coordinate

    def f(X: list[list[Number]]) -> Number:
        a, b = X
        Z = ([[ring.red(e * x) for e, x in zip(col, a, strict=True)] for col in cols1]
             + [[ring.red(e * x) for e, x in zip(col, b, strict=True)] for col in cols2])
        return net(Z, position, coordinate)

    return f


def _polynomial(terms: Sequence[tuple[Number, Sequence[tuple[int, int, int]]]],
                ring: Ring) -> Callable[[list[list[Number]]], Number]:
    """sum over terms of coef * prod x[position][coordinate] ** exponent."""
    parsed = [(ring.of(coef, "function.terms coefficient"), factors) for coef, factors in terms]

    def f(X: list[list[Number]]) -> Number:
        total: Number = 0
        for count, (coef, factors) in enumerate(parsed):
            if count & 1023 == 0:
                tick()
            value = coef
            for pos, coord, exp in factors:
                value = ring.red(value * _power(X[pos][coord], exp, ring))
            total += value
        return ring.red(total)

    return f


def _power(x: Number, e: int, ring: Ring) -> Number:
    if ring.p is not None:
        return pow(int(x), e, ring.p)
    return x ** e


def evaluate_function(spec: Mapping[str, Any], X: Sequence[Sequence[Any]], *,
                      prime: int | None = None) -> Number:
    r"""Evaluate a certificate's function at one input ``X`` (N rows of length d), exactly
    (``prime=None``) or over GF(prime), with this module's own evaluators.

    Function types: ``'linear_attention'`` (``network``: query/key/value/output weights,
    ``residual``; the output ``position`` i and ``coordinate`` p of :math:`y^i_p`),
    ``'incontext'`` (``network``, ``embedding``, ``first``, ``second``, ``position``,
    ``coordinate``; X = (a, b)) and ``'polynomial'`` (``terms``).

    Parameters
    ----------
    spec : Mapping
        The certificate's ``function``.
    X : sequence of sequences
        The N input vectors of length d.
    prime : int, optional, keyword-only
        Evaluate over GF(prime) (None: exactly over Q).

    Returns
    -------
    int or fractions.Fraction
        f(X).

    Raises
    ------
    ValueError
        For a malformed function or input.

    Examples
    --------
    >>> net = {"query": [[[[1, 0]]]], "key": [[[[1, 0]]]], "value": [[[[0, 1]]]],
    ...        "output": [[[[1], [0]]]], "residual": False}
    >>> spec = {"type": "linear_attention", "network": net, "position": 0, "coordinate": 0}
    >>> evaluate_function(spec, [[2, 3], [5, 7]])   # sum_j x1_0 xj_0 xj_1 = 2*(2*3 + 5*7)
    82
    >>> evaluate_function({"type": "polynomial", "terms": [[3, [[0, 0, 2]]]]}, [[5]], prime=7)
    5
    """
    try:
        rows = [list(r) for r in X]
        n, d = len(rows), len(rows[0]) if rows else 0
        ring = Ring(prime)
        f = parse_function(spec, n, d).evaluator(ring)
        return f([[ring.of(v, "X") for v in r] for r in rows])
    except (Reject, Refuse) as err:
        raise ValueError(str(err)) from None


def function_of(spec: Any, ring: Ring, n_inputs: int,
                dim: int) -> Callable[[list[list[Number]]], Number]:
    """The evaluator of a certificate's function over ``ring`` (parsed strictly first)."""
    return parse_function(spec, n_inputs, dim).evaluator(ring)


def homogeneous_degree(spec: Any) -> tuple[int | None, str]:
    r"""The total degree D of a function the checker can *prove* homogeneous from its
    parameters, and the reason (``None``: the zero polynomial, homogeneous of every degree).

    * ``'linear_attention'`` / ``'incontext'`` without residual connections: every layer
      :math:`y^t = \sum_j \sum_h \langle W^Q z^t, W^K z^j\rangle W^O W^V z^j` is a homogeneous
      cubic in the previous layer's outputs, so L layers give degree :math:`3^L` (003, eq.
      12); the in-context inputs :math:`E(w)\odot a`, :math:`E(w)\odot b` are linear in
      (a, b).  With residual connections f mixes degrees 1, 3, ..., :math:`3^L`: rejected.
    * ``'polynomial'``: every term with a non-zero coefficient has the same total degree.
    * ``'circuit'``: proved node by node from the program
      (:meth:`~seprank.certificates.verify.circuit.Program.total_degree`).

    Raises :class:`Reject` for a function that is not homogeneous (or of an unknown type).

    Parameters
    ----------
    spec : Mapping
        The certificate's ``function``.

    Returns
    -------
    degree : int or None
        D (None for the zero polynomial).
    reason : str
        Why f is homogeneous of that degree.

    Examples
    --------
    >>> homogeneous_degree({"type": "polynomial", "terms": [[2, [[0, 0, 1], [1, 0, 2]]]]})
    (3, 'every term of the polynomial has total degree 3')
    >>> net = {"query": [[[[1]]]] * 2, "residual": False}
    >>> homogeneous_degree({"type": "linear_attention", "network": net})[0]
    9
    """
    kind = spec.get("type") if isinstance(spec, Mapping) else None
    if kind in ("linear_attention", "incontext"):
        net = spec.get("network")
        if not isinstance(net, Mapping) or type(net.get("query")) is not list:
            raise Reject("function.network must hold the weights")
        if net.get("residual", False) is not False:
            raise Reject(
                "function.network has residual connections (residual = "
                f"{net.get('residual')!r}): x + y(x) mixes degrees 1, 3, ..., 3^L, so f is not "
                "homogeneous and its coefficient matrix need not be block-diagonal by degree; "
                "only a network without residual connections is homogeneous (003, eq. 12)")
        L = len(net["query"])
        D = 3 ** L
        why = (f"003, eq. 12: a network without residual connections is a composition of {L} "
               f"homogeneous cubic layer(s), homogeneous of degree 3^L = {D}")
        if kind == "incontext":
            why += " (its inputs E(w) * a, E(w) * b are linear in (a, b): 000/001, eqs. 4, 8)"
        return D, why
    if kind == "polynomial":
        terms = spec.get("terms")
        if type(terms) is not list:
            raise Reject("function.terms must be a list")
        degrees = {sum(int(e) for _, _, e in term[1]) for term in terms
                   if num(term[0], "function.terms coefficient") != 0}
        if len(degrees) > 1:
            raise Reject(f"the polynomial has terms of total degrees "
                         f"{show(sorted(degrees)[:8])}: it is not homogeneous, so its "
                         "coefficient matrix need not be block-diagonal by degree")
        if not degrees:
            return None, "the zero polynomial is homogeneous of every degree"
        D = degrees.pop()
        return D, f"every term of the polynomial has total degree {show(D)}"
    if kind == "circuit":
        program = spec.get("program")
        if not isinstance(program, Mapping):
            raise Reject("function.program must be the circuit's program")
        n, d = program.get("n_inputs"), program.get("dim")
        if type(n) is not int or type(d) is not int:
            raise Reject("function.program must give n_inputs and dim as integers")
        return parse_program(program, n, d).total_degree()
    raise Reject(f"the checker cannot establish homogeneity of a function of type {kind!r}")
