"""The checker's own evaluators: the linearized attention network by the sums of 003 eq. 3,
the in-context representation of 000/001 eqs. 4 and 8, and polynomials by their monomials
(standard library only)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .exact import Number, Reject, Ring, num, tensor

__all__ = ["evaluate_function", "homogeneous_degree"]

# --- the evaluators ----------------------------------------------------------------------------


class _Attention:
    r"""y^i_p (output position i, coordinate p) of the linearized attention network by eq. 3
    of 003:
    :math:`y^t = \sum_j \sum_h \langle W^{Q,h} z^t, W^{K,h} z^j\rangle W^{O,h} W^{V,h} z^j`
    (plus :math:`z^t` with the residual connection), layer after layer."""

    def __init__(self, spec: Mapping[str, Any], ring: Ring) -> None:
        q = spec.get("query")
        if not isinstance(q, list) or not q or not isinstance(q[0], list) or not q[0]:
            raise Reject("network: 'query' must be a non-empty (L, H, d_a, d_x) nested list")
        L, H = len(q), len(q[0])
        d_a = len(q[0][0])
        d_x = len(q[0][0][0]) if d_a else 0
        if not d_a or not d_x:
            raise Reject("network: empty weight matrices")
        self.width, self.ring = d_x, ring
        shapes = {"query": (L, H, d_a, d_x), "key": (L, H, d_a, d_x),
                  "value": (L, H, d_a, d_x), "output": (L, H, d_x, d_a)}
        w = {k: tensor(spec.get(k), s, ring, f"network.{k}") for k, s in shapes.items()}
        self.layers = [[(w["query"][layer][h], w["key"][layer][h], w["value"][layer][h],
                         w["output"][layer][h]) for h in range(H)] for layer in range(L)]
        self.residual = bool(spec.get("residual", False))

    def __call__(self, Z: list[list[Number]], position: int, coordinate: int) -> Number:
        ring = self.ring
        mv = ring.matvec
        n = len(Z)
        for depth, heads in enumerate(self.layers):
            last = depth == len(self.layers) - 1
            targets = [position] if last else list(range(n))
            Y: dict[int, list[Number]] = {t: [0] * self.width for t in targets}
            for Wq, Wk, Wv, Wo in heads:
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


def _index(spec: Mapping[str, Any], key: str, bound: int) -> int:
    v = spec.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < bound:
        raise Reject(f"function: {key} = {v!r} must be an integer in 0..{bound - 1}")
    return v


def _linear_attention(spec: Mapping[str, Any], ring: Ring,
                      n_inputs: int) -> Callable[[list[list[Number]]], Number]:
    net = _Attention(spec["network"], ring)
    position = _index(spec, "position", n_inputs)
    coordinate = _index(spec, "coordinate", net.width)

    def f(X: list[list[Number]]) -> Number:
        return net(X, position, coordinate)

    return f


def _incontext(spec: Mapping[str, Any], ring: Ring,
               n_inputs: int) -> Callable[[list[list[Number]]], Number]:
    r""":math:`Z_{in}(a, b) = y^i_p` of the network on the 2N inputs :math:`E(w_1^j)\odot a`,
    then :math:`E(w_2^j)\odot b` (000/001, eqs. 4 and 8)."""
    if n_inputs != 2:
        raise Reject("an in-context representation is a function of two vectors (a, b)")
    net = _Attention(spec["network"], ring)
    d = net.width
    emb = spec.get("embedding")
    if not isinstance(emb, list) or len(emb) != d or not emb or not isinstance(emb[0], list):
        raise Reject(f"function.embedding must be a (d_x = {d}, V) nested list")
    E = tensor(emb, (d, len(emb[0])), ring, "function.embedding")
    V = len(emb[0])
    sentences = []
    for name in ("first", "second"):
        s = spec.get(name)
        if not isinstance(s, list) or not all(isinstance(w, int) and not isinstance(w, bool)
                                              and 0 <= w < V for w in s):
            raise Reject(f"function.{name} must be a list of token ids in 0..{V - 1}")
        sentences.append(s)
    first, second = sentences
    if len(first) != len(second) or not first:
        raise Reject("function: the sentences must be non-empty and of one length")
    position = _index(spec, "position", 2 * len(first))
    coordinate = _index(spec, "coordinate", d)
    cols1 = [[E[k][w] for k in range(d)] for w in first]
    cols2 = [[E[k][w] for k in range(d)] for w in second]

    def f(X: list[list[Number]]) -> Number:
        a, b = X
        Z = ([[ring.red(e * x) for e, x in zip(col, a, strict=True)] for col in cols1]
             + [[ring.red(e * x) for e, x in zip(col, b, strict=True)] for col in cols2])
        return net(Z, position, coordinate)

    return f


def _polynomial(spec: Mapping[str, Any], ring: Ring, n_inputs: int,
                dim: int) -> Callable[[list[list[Number]]], Number]:
    """sum over terms of coef * prod x[position][coordinate] ** exponent."""
    terms = spec.get("terms")
    if not isinstance(terms, list):
        raise Reject("function.terms must be a list of [coefficient, [[pos, coord, exp], ...]]")
    parsed = []
    for k, term in enumerate(terms):
        if not isinstance(term, list) or len(term) != 2 or not isinstance(term[1], list):
            raise Reject(f"function.terms[{k}] must be [coefficient, factors]")
        coef = ring.of(term[0], f"function.terms[{k}][0]")
        factors = []
        for fac in term[1]:
            if (not isinstance(fac, list) or len(fac) != 3
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in fac)
                    or not (0 <= fac[0] < n_inputs and 0 <= fac[1] < dim and fac[2] >= 0)):
                raise Reject(f"function.terms[{k}]: bad factor {fac!r}")
            factors.append(tuple(fac))
        parsed.append((coef, factors))

    def f(X: list[list[Number]]) -> Number:
        total: Number = 0
        for coef, factors in parsed:
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

    Examples
    --------
    >>> net = {"query": [[[[1, 0]]]], "key": [[[[1, 0]]]], "value": [[[[0, 1]]]],
    ...        "output": [[[[1], [0]]]]}
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
        f = function_of(spec, ring, n, d)
        return f([[ring.of(v, "X") for v in r] for r in rows])
    except Reject as err:
        raise ValueError(str(err)) from None


def function_of(spec: Any, ring: Ring, n_inputs: int,
              dim: int) -> Callable[[list[list[Number]]], Number]:
    kind = spec.get("type") if isinstance(spec, Mapping) else None
    if kind == "linear_attention":
        return _linear_attention(spec, ring, n_inputs)
    if kind == "incontext":
        return _incontext(spec, ring, n_inputs)
    if kind == "polynomial":
        return _polynomial(spec, ring, n_inputs, dim)
    raise Reject(f"unknown function type {kind!r}")




def homogeneous_degree(spec: Any) -> tuple[int | None, str]:
    r"""The total degree D of a function the checker can *prove* homogeneous from its
    parameters, and the reason (``None``: the zero polynomial, homogeneous of every degree).

    * ``'linear_attention'`` / ``'incontext'`` without residual connections: every layer
      :math:`y^t = \sum_j \sum_h \langle W^Q z^t, W^K z^j\rangle W^O W^V z^j` is a homogeneous
      cubic in the previous layer's outputs, so L layers give degree :math:`3^L` (003, eq.
      12); the in-context inputs :math:`E(w)\odot a`, :math:`E(w)\odot b` are linear in
      (a, b).  With residual connections f mixes degrees 1, 3, ..., :math:`3^L`: rejected.
    * ``'polynomial'``: every term with a non-zero coefficient has the same total degree.

    Raises :class:`Reject` for a function that is not homogeneous (or of an unknown type).

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
        if not isinstance(net, Mapping) or not isinstance(net.get("query"), list):
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
        if not isinstance(terms, list):
            raise Reject("function.terms must be a list")
        degrees = {sum(int(e) for _, _, e in term[1]) for term in terms
                   if num(term[0], "function.terms coefficient") != 0}
        if len(degrees) > 1:
            raise Reject(f"the polynomial has terms of total degrees {sorted(degrees)}: it is "
                         "not homogeneous, so its coefficient matrix need not be "
                         "block-diagonal by degree")
        if not degrees:
            return None, "the zero polynomial is homogeneous of every degree"
        D = degrees.pop()
        return D, f"every term of the polynomial has total degree {D}"
    raise Reject(f"the checker cannot establish homogeneity of a function of type {kind!r}")
