r"""The kind ``grid_rank_blocks``: a separation rank certified as a sum of degree blocks
(standard library only).

Claim: :math:`\operatorname{sep}_{(A,B)}(f) \ge \sum_k r_k`.  The argument, and what this
checker checks of it:

1. **f is homogeneous of total degree D** -- proven from the function's parameters
   (:func:`.evaluators.homogeneous_degree`: a network without residual connections is
   homogeneous of degree :math:`3^L`, 003 eq. 12; a polynomial whose terms all have degree
   D), and tested at :data:`HOMOGENEITY_CHECKS` random points of this checker's own choosing:
   :math:`f(t\,x) = t^D f(x)` mod p.  The certificate's declared D must be that degree.
2. Then the A-degree-j part :math:`f_j` of f has bidegree (j, D - j); distinct j give
   disjoint rows *and* columns of the coefficient matrix between A- and B-monomials, which is
   therefore block-diagonal, and :math:`\operatorname{sep}(f) = \sum_j \operatorname{sep}
   (f_j)`.  Checked: every block's bidegree is (j, D - j) with :math:`0 \le j \le D`, and the
   A-degrees of the blocks are distinct.
3. **Block values, recomputed**: :math:`t \mapsto f(t\,x_A, x_B)` is a polynomial of degree
   at most D whose coefficient of :math:`t^j` is :math:`f_j(x_A, x_B)`; this checker
   evaluates f with its own evaluator at the D + 1 nodes t = 0, 1, ..., D (its own, not the
   engine's; distinct mod p because p > D) and takes the coefficient from the Lagrange basis
   polynomials of those nodes mod p (O(D^2) operations).  An entry that differs from the
   certificate's rejects it.
4. Each block's :math:`r_k \times r_k` minor is non-zero mod p, so the integer grid matrix of
   :math:`f_j` has rank :math:`\ge r_k` and :math:`\operatorname{sep}(f_j) \ge r_k` (003,
   Claim 1); the claimed value must not exceed :math:`\sum_k r_k`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from .circuit import DEGREE_CAP
from .cost import Sizes
from .evaluators import Function, homogeneous_degree, parse_function
from .exact import (
    MAX_SIZE,
    Number,
    Prepared,
    Reject,
    Ring,
    claim_of,
    entries_of,
    first_difference,
    grid_frame,
    keys_of,
    minor_nonzero,
    prime_of,
    show,
    template_indices,
    templates_of,
)
from .limits import Refuse, capped, product_cost, tick

__all__ = ["HOMOGENEITY_CHECKS", "grid_rank_blocks", "prepare_blocks"]

#: Random points at which f(t x) = t^D f(x) mod p is tested (on top of the structural proof).
HOMOGENEITY_CHECKS = 4


def interpolation_rows(D: int, degrees: set[int], p: int) -> dict[int, list[int]]:
    """Row j of the inverse of the Vandermonde matrix V[i][k] = i^k mod p of the nodes
    0, 1, ..., D, for each j in ``degrees``: the coefficient of t^j of a polynomial of degree
    <= D is sum_i row[i] * value(i).  Lagrange: row[i] is the coefficient of t^j of
    prod_{k != i} (t - k) / (i - k); O(D^2) operations (p > D).

    Examples
    --------
    >>> rows = interpolation_rows(2, {0, 1, 2}, 101)   # g(t) = 3 + 5 t + 7 t^2
    >>> values = [3 + 5 * t + 7 * t * t for t in range(3)]
    >>> [sum(w * v for w, v in zip(rows[j], values)) % 101 for j in range(3)]
    [3, 5, 7]
    """
    n = D + 1
    master = [1]                       # prod_k (t - k), lowest degree first
    for k in range(n):
        tick()
        master = [((master[i - 1] if i else 0) - k * (master[i] if i < len(master) else 0))
                  % p for i in range(len(master) + 1)]
    low = min(degrees)
    out = {j: [0] * n for j in degrees}
    factorial = [1] * n
    for i in range(1, n):
        factorial[i] = factorial[i - 1] * i % p
    for i in range(n):
        if i % 256 == 0:
            tick()
        # prod_{k != i} (i - k) = i! (-1)^(D - i) (D - i)!
        denominator = factorial[i] * factorial[D - i] % p
        scale = pow(denominator if (D - i) % 2 == 0 else p - denominator, -1, p)
        q = 1                          # the quotient master / (t - i), from the top down
        for j in range(D, low - 1, -1):
            if j in out:
                out[j][i] = q * scale % p
            q = (master[j] + i * q) % p
    return out


def _structure(cert: Mapping[str, Any], p: int) -> tuple[int, list[Any]]:
    structure = keys_of(cert.get("structure"), "structure", ("total_degree",),
                        ("bidegrees", "source"))
    D = structure["total_degree"]
    if type(D) is not int or D < 0:
        raise Refuse(f"structure.total_degree = {show(D)} must be an integer >= 0")
    if structure.get("source") is not None and type(structure["source"]) is not str:
        raise Refuse("structure.source must be a string")
    if p <= D:
        raise Reject(f"p = {p} must exceed the total degree D = {show(D)} (D + 1 distinct "
                     "interpolation nodes mod p)")
    blocks = cert.get("blocks")
    if type(blocks) is not list:
        raise Refuse("blocks must be a list")
    seen: dict[int, int] = {}
    for idx, blk in enumerate(blocks):
        keys_of(blk, f"blocks[{idx}]", ("bidegree", "rank", "templates", "rows", "cols",
                                        "entries"))
        bideg = blk["bidegree"]
        if (type(bideg) is not list or len(bideg) != 2
                or not all(type(v) is int and v >= 0 for v in bideg)):
            raise Refuse(f"blocks[{idx}].bidegree must be [j, k], integers >= 0")
        j, k = bideg
        r = blk["rank"]
        if type(r) is not int or r < 1 or r > MAX_SIZE:
            raise Refuse(f"blocks[{idx}].rank = {show(r)} must be an integer >= 1 (blocks of "
                         "rank 0 are left out) and at most 10^18")
        if j + k != D:
            raise Reject(f"blocks[{idx}] has bidegree ({show(j)}, {show(k)}) but a homogeneous "
                         f"f of degree D = {D} has only the bidegrees (j, D - j): "
                         f"{show(j)} + {show(k)} != {D}")
        if j in seen:
            raise Reject(f"blocks[{seen[j]}] and blocks[{idx}] both have A-degree {j}: the "
                         "blocks of the sum must be distinct bidegrees")
        seen[j] = idx
    return D, blocks


def _check_homogeneous(fn: Function, f: Callable[[list[list[Number]]], Number], D: int,
                       p: int, log: list[str]) -> None:
    degree, why = homogeneous_degree(fn.raw)
    if degree is not None and degree != D:
        shown = "above 2^90" if degree > DEGREE_CAP else show(degree)
        raise Reject(f"the function is homogeneous of degree {shown} ({why}), not of the "
                     f"declared total degree D = {D}")
    rng = random.SystemRandom()   # points the certificate's author cannot have chosen
    N, d = fn.n_inputs, fn.dim
    for trial in range(HOMOGENEITY_CHECKS):
        tick()
        X: list[list[Number]] = [[rng.randrange(p) for _ in range(d)] for _ in range(N)]
        t = rng.randrange(1, p)
        scaled = f([[t * int(v) % p for v in x] for x in X])
        expected = pow(t, D, p) * f(X) % p
        if scaled != expected:
            raise Reject(f"f is not homogeneous of degree {D}: at a random point (check "
                         f"{trial + 1}) f(t x) = {scaled} but t^D f(x) = {expected} mod p = "
                         f"{p} (t = {t})")
    log.append(f"f is homogeneous of degree D = {D}: {why}; tested f(t x) = t^D f(x) mod p at "
               f"{HOMOGENEITY_CHECKS} random points of this checker's choosing")


def prepare_blocks(cert: Mapping[str, Any]) -> Prepared:
    """Read a ``grid_rank_blocks`` certificate strictly and estimate its check (module
    docstring); ``run`` does the check.

    Parameters
    ----------
    cert : Mapping
        The ``grid_rank_blocks`` certificate.

    Returns
    -------
    Prepared
        The claim, its subject, the cost estimate and the check to run.

    Examples
    --------
    >>> cert = {"claim": {"relation": ">=", "value": 1}, "n_inputs": 2, "dim": 1,
    ...         "partition": [[0], [1]], "arithmetic": "GF(p)", "prime": 101,
    ...         "function": {"type": "polynomial", "terms": [[1, [[0, 0, 1], [1, 0, 1]]]]},
    ...         "structure": {"total_degree": 2},
    ...         "blocks": [{"bidegree": [1, 1], "rank": 1, "templates": [[3], [5]],
    ...                     "rows": [[0]], "cols": [[1]], "entries": [[15]]}]}
    >>> prepared = prepare_blocks(cert)
    >>> prepared.claim, prepared.subject["partition"], prepared.estimate < 10**4
    ('sep_((0,),(1,))(f) >= 1', [[0], [1]], True)
    >>> prepared.run([])       # nothing left unchecked
    []
    """
    relation, value = claim_of(cert, (">=",))
    N, d, A, B = grid_frame(cert)
    if cert.get("arithmetic") != "GF(p)":
        raise Refuse(f"arithmetic must be 'GF(p)' for a block certificate, got "
                     f"{cert.get('arithmetic')!r}")
    p = prime_of(cert.get("prime"), "prime")
    ring = Ring(p)
    D, blocks = _structure(cert, p)
    total = sum(int(blk["rank"]) for blk in blocks)
    if value > total:
        raise Reject(f"the claim sep >= {value} exceeds the sum of the block ranks, {total}")
    parsed = []
    for idx, blk in enumerate(blocks):
        j, k = blk["bidegree"]
        r = blk["rank"]
        name = f"block ({j}, {k})"
        T = templates_of(blk["templates"], d, ring, f"blocks[{idx}].templates")
        rows, cols = blk["rows"], blk["cols"]
        for side, ids, part in (("rows", rows, A), ("cols", cols, B)):
            if type(ids) is not list or len(ids) != r:
                raise Refuse(f"{name}: {side} must list the {r} template tuples of its minor")
            for t_idx, t in enumerate(ids):
                template_indices(t, len(T), len(part), f"{name}: {side}[{t_idx}]")
        parsed.append((name, j, r, T, rows, cols,
                       entries_of(blk["entries"], r, ring, f"{name}: entries")))
    fn = parse_function(cert.get("function"), N, d)
    p_cost = product_cost(2 * p.bit_length())
    each = fn.cost(p, Sizes(p.bit_length()))
    evaluations = 2 * HOMOGENEITY_CHECKS + sum(r * r * (D + 1) for _, _, r, *_ in parsed)
    estimate = capped(evaluations * each + fn.setup_cost() + 3 * (D + 1) * (D + 1) * p_cost
                      + sum(r * r * r for _, _, r, *_ in parsed) * p_cost)
    what = (f"{evaluations} evaluations of the {fn.type} function over GF(p) at about "
            f"{each:.3g} operations each (D + 1 = {D + 1} per block value), the interpolation "
            f"weights of {D + 1} nodes and {len(parsed)} minors mod p")
    subject = {"function": fn.subject(), "n_inputs": N, "dim": d, "partition": [A, B]}

    def run(log: list[str]) -> list[str]:
        return _run(fn, ring, D, A, B, N, parsed, total, value, log)

    return Prepared(f"sep_({tuple(A)},{tuple(B)})(f) {relation} {value}", subject, estimate,
                    what, run, fn.memory(p, Sizes(p.bit_length()))
                    + len(parsed) * (D + 1) * (36 + p.bit_length() // 8),
                    ("the circuit's index plans and node values, and " if fn.program else "")
                    + f"{len(parsed)} row(s) of {D + 1} interpolation weights")


def _run(fn: Function, ring: Ring, D: int, A: list[int], B: list[int], N: int,
         parsed: list[Any], total: int, value: int, log: list[str]) -> list[str]:
    p = ring.p
    assert p is not None
    missing: list[str] = []
    nodes = list(range(D + 1))
    weights: dict[int, list[int]] = {}
    if not fn.opaque:
        f = fn.evaluator(ring)
        _check_homogeneous(fn, f, D, p, log)
        if parsed:
            weights = interpolation_rows(D, {j for _, j, *_ in parsed}, p)
    else:
        log.append("the function is opaque code: its values were NOT recomputed and its "
                   "homogeneity NOT checked (the split rests on the engine's structure check); "
                   "only the blocks' minors of the engine's values are checked")
        missing.append("the blocks' values: the function is opaque code, so they are the "
                       "engine's values, not recomputed")
        missing.append("the homogeneity of f that the sum over blocks rests on")
    log.append(f"the {len(parsed)} blocks have distinct bidegrees (j, D - j): the coefficient "
               "matrix of f is block-diagonal by A-degree, so sep(f) = sum_j sep(f_j)")
    n_values = 0
    for name, j, r, T, rows, cols, entries in parsed:
        if not fn.opaque:
            row_w = weights[j]

            def block_value(a: int, b: int, T: Any = T, rows: Any = rows, cols: Any = cols,
                            row_w: list[int] = row_w) -> Number:
                acc = 0
                for t, w in zip(nodes, row_w, strict=True):
                    if not w:
                        continue
                    X: list[list[Number]] = [[]] * N
                    for pos, tt in zip(A, rows[a], strict=True):
                        X[pos] = [t * v % p for v in T[tt]]
                    for pos, tt in zip(B, cols[b], strict=True):
                        X[pos] = T[tt]
                    acc += w * int(f(X))
                return acc % p

            try:
                first_difference(entries, block_value, rows, cols)
            except Reject as err:
                raise Reject(f"{name}: {err}") from None
            n_values += r * r
        if not minor_nonzero(entries, p):
            raise Reject(f"{name}: its {r} x {r} minor vanishes modulo p = {p}")
    if not fn.opaque:
        log.append(f"recomputed the {n_values} block values f_j(x_A, x_B) of the minors from "
                   f"the {fn.type} function's parameters over GF({p}) with this checker's own "
                   f"evaluator: the coefficient of t^j of f(t x_A, x_B), interpolated at this "
                   f"checker's nodes t = 0..{D} (Lagrange basis mod p)")
    ranks = " + ".join(str(r) for _, _, r, *_ in parsed) or "0"
    log.append(f"every block's minor is non-zero mod p = {p}: sep(f_j) >= r_j (003, Claim 1), "
               f"so sep_(A,B)(f) >= {ranks} = {total} >= {value}")
    return missing


def grid_rank_blocks(cert: Mapping[str, Any], log: list[str]) -> tuple[str, bool]:
    """Check a ``grid_rank_blocks`` certificate (module docstring) without a budget; returns
    the claim and whether every value was recomputed, and appends what was verified to
    ``log`` (:func:`~seprank.certificates.verify.verify` is the bounded entry point).

    Parameters
    ----------
    cert : Mapping
        The ``grid_rank_blocks`` certificate.
    log : list of str
        Receives a line per verified fact.

    Returns
    -------
    claim : str
        The verified claim in words.
    recomputed : bool
        Whether every value was recomputed (False: some were taken from the certificate).

    Examples
    --------
    f = x y (one position on each side, dim 1) is homogeneous of degree 2 with the one block
    (1, 1); at the templates 3 (row) and 5 (column) its block value is 15:

    >>> cert = {"claim": {"relation": ">=", "value": 1}, "n_inputs": 2, "dim": 1,
    ...         "partition": [[0], [1]], "arithmetic": "GF(p)", "prime": 101,
    ...         "function": {"type": "polynomial", "terms": [[1, [[0, 0, 1], [1, 0, 1]]]]},
    ...         "structure": {"total_degree": 2, "bidegrees": [[1, 1]], "source": "x y"},
    ...         "blocks": [{"bidegree": [1, 1], "rank": 1, "templates": [[3], [5]],
    ...                     "rows": [[0]], "cols": [[1]], "entries": [[15]]}]}
    >>> log = []
    >>> grid_rank_blocks(cert, log)
    ('sep_((0,),(1,))(f) >= 1', True)
    >>> cert["blocks"][0]["bidegree"] = [2, 0]
    >>> grid_rank_blocks(cert, log)
    Traceback (most recent call last):
    ...
    seprank.certificates.verify.exact.Reject: block (2, 0): entry (0, 0) of the minor ...
    """
    prepared = prepare_blocks(cert)
    missing = prepared.run(log)
    return prepared.claim, not missing
