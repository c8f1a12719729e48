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
   engine's; distinct mod p because p > D) and solves the Vandermonde system mod p.  An entry
   that differs from the certificate's rejects it.
4. Each block's :math:`r_k \times r_k` minor is non-zero mod p, so the integer grid matrix of
   :math:`f_j` has rank :math:`\ge r_k` and :math:`\operatorname{sep}(f_j) \ge r_k` (003,
   Claim 1); the claimed value must not exceed :math:`\sum_k r_k`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from .evaluators import function_of, homogeneous_degree
from .exact import (
    Number,
    Reject,
    Ring,
    bad,
    claim_of,
    first_difference,
    grid_frame,
    minor_nonzero,
    prime_of,
    template_indices,
    templates_of,
)

__all__ = ["HOMOGENEITY_CHECKS", "grid_rank_blocks"]

#: Random points at which f(t x) = t^D f(x) mod p is tested (on top of the structural proof).
HOMOGENEITY_CHECKS = 4


def _inverse_vandermonde(nodes: list[int], p: int) -> list[list[int]]:
    """The inverse of V[i][j] = nodes[i] ** j mod p (Gauss-Jordan on Python ints)."""
    n = len(nodes)
    rows = [[pow(t, j, p) for j in range(n)] + [int(i == k) for k in range(n)]
            for i, t in enumerate(nodes)]
    for c in range(n):
        pivot = next(k for k in range(c, n) if rows[k][c] % p)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        inv = pow(rows[c][c], -1, p)
        rows[c] = [v * inv % p for v in rows[c]]
        for k in range(n):
            if k != c and rows[k][c]:
                f = rows[k][c]
                rows[k] = [(a - f * b) % p for a, b in zip(rows[k], rows[c], strict=True)]
    return [row[n:] for row in rows]


def _structure(cert: Mapping[str, Any], p: int) -> tuple[int, list[Any]]:
    structure = cert.get("structure")
    if not isinstance(structure, Mapping):
        raise Reject("a block certificate needs 'structure' (total_degree, bidegrees, source)")
    D = structure.get("total_degree")
    if isinstance(D, bool) or not isinstance(D, int) or D < 0:
        raise Reject(f"structure.total_degree = {D!r} must be an integer >= 0")
    if p <= D:
        raise Reject(f"p = {p} must exceed the total degree D = {D} (D + 1 distinct "
                     "interpolation nodes mod p)")
    blocks = cert.get("blocks")
    if not isinstance(blocks, list):
        raise Reject("blocks must be a list")
    seen: dict[int, int] = {}
    for idx, blk in enumerate(blocks):
        bideg = blk.get("bidegree") if isinstance(blk, Mapping) else None
        if (not isinstance(bideg, list) or len(bideg) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                           for v in bideg)):
            raise Reject(f"blocks[{idx}].bidegree must be [j, k], integers >= 0")
        j, k = bideg
        r = blk.get("rank")
        if isinstance(r, bool) or not isinstance(r, int) or r < 1:
            raise Reject(f"blocks[{idx}].rank = {r!r} must be an integer >= 1 (blocks of rank 0 "
                         "are left out)")
        if j + k != D:
            raise Reject(f"blocks[{idx}] has bidegree ({j}, {k}) but a homogeneous f of degree "
                         f"D = {D} has only the bidegrees (j, D - j): {j} + {k} != {D}")
        if j in seen:
            raise Reject(f"blocks[{seen[j]}] and blocks[{idx}] both have A-degree {j}: the "
                         "blocks of the sum must be distinct bidegrees")
        seen[j] = idx
    return D, blocks


def _check_homogeneous(fn: Any, f: Callable[[list[list[Number]]], Number], D: int, p: int,
                       N: int, d: int, log: list[str]) -> None:
    degree, why = homogeneous_degree(fn)
    if degree is not None and degree != D:
        raise Reject(f"the function is homogeneous of degree {degree} ({why}), not of the "
                     f"declared total degree D = {D}")
    rng = random.SystemRandom()   # points the certificate's author cannot have chosen
    for trial in range(HOMOGENEITY_CHECKS):
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


def grid_rank_blocks(cert: Mapping[str, Any], log: list[str]) -> tuple[str, bool]:
    """Check a ``grid_rank_blocks`` certificate (module docstring); returns the claim and
    whether the entries were recomputed, and appends what was verified to ``log``.

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
    relation, value = claim_of(cert, (">=",))
    N, d, A, B = grid_frame(cert)
    if cert.get("arithmetic") != "GF(p)":
        raise Reject(f"arithmetic must be 'GF(p)' for a block certificate, got "
                     f"{cert.get('arithmetic')!r}")
    p = prime_of(cert.get("prime"), "prime")
    ring = Ring(p)
    D, blocks = _structure(cert, p)
    total = sum(int(blk["rank"]) for blk in blocks)
    if value > total:
        raise Reject(f"the claim sep >= {value} exceeds the sum of the block ranks, {total}")
    fn = cert.get("function")
    fn_type = str(fn.get("type")) if isinstance(fn, Mapping) else None
    recomputed = fn_type != "opaque"
    weights: list[list[int]] = []
    if recomputed:
        f = function_of(fn, ring, N, d)
        _check_homogeneous(fn, f, D, p, N, d, log)
        nodes = list(range(D + 1))
        weights = _inverse_vandermonde(nodes, p)
    else:
        log.append("the function is opaque code: its values were NOT recomputed and its "
                   "homogeneity NOT checked (the split rests on the engine's structure check); "
                   "only the blocks' minors of the engine's values are checked")
    log.append(f"the {len(blocks)} blocks have distinct bidegrees (j, D - j): the coefficient "
               "matrix of f is block-diagonal by A-degree, so sep(f) = sum_j sep(f_j)")
    n_values = 0
    for idx, blk in enumerate(blocks):
        j, k = blk["bidegree"]
        r = blk["rank"]
        name = f"block ({j}, {k})"
        T = templates_of(blk.get("templates"), d, ring, f"blocks[{idx}].templates")
        rows: Any = blk.get("rows")
        cols: Any = blk.get("cols")
        for side, ids, part in (("rows", rows, A), ("cols", cols, B)):
            if not isinstance(ids, list) or len(ids) != r:
                raise Reject(f"{name}: {side} must list the {r} template tuples of its minor")
            for t_idx, t in enumerate(ids):
                template_indices(t, len(T), len(part), f"{name}: {side}[{t_idx}]")
        raw = blk.get("entries")
        entries = [[ring.of(v, f"{name}: entries[{a}][{b}]") for b, v in enumerate(row)]
                   if isinstance(row, list) and len(row) == r
                   else bad(f"{name}: entries[{a}] must have length {r}")
                   for a, row in enumerate(raw if isinstance(raw, list) else [])]
        if len(entries) != r:
            raise Reject(f"{name}: entries must be its {r} x {r} minor")
        if recomputed:
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
    if recomputed:
        log.append(f"recomputed the {n_values} block values f_j(x_A, x_B) of the minors from "
                   f"the {fn_type} function's parameters over GF({p}) with this checker's own "
                   f"evaluator: the coefficient of t^j of f(t x_A, x_B), interpolated at this "
                   f"checker's nodes t = 0..{D} (Vandermonde system solved mod p)")
    ranks = " + ".join(str(blk["rank"]) for blk in blocks) or "0"
    log.append(f"every block's minor is non-zero mod p = {p}: sep(f_j) >= r_j (003, Claim 1), "
               f"so sep_(A,B)(f) >= {ranks} = {total} >= {value}")
    return f"sep_({tuple(A)},{tuple(B)})(f) {relation} {value}", recomputed
