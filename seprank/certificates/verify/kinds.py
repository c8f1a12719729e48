"""The certificate kinds: matrix_rank, grid_rank, grid_rank_blocks (in
:mod:`seprank.certificates.verify.blocks`), kruskal_rank -- each checks its proof and says
what it verified (standard library only)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Any

from .blocks import grid_rank_blocks
from .evaluators import function_of
from .exact import (
    Number,
    Reject,
    Ring,
    bad,
    claim_of,
    first_difference,
    grid_frame,
    indices,
    matrix_of,
    minor_nonzero,
    num,
    prime_of,
    rank_exact,
    rank_mod,
    shape_of,
    template_indices,
    templates_of,
)

__all__ = ["KINDS"]

# --- the kinds ---------------------------------------------------------------------------------


def _matrix_rank(cert: Mapping[str, Any], log: list[str]) -> tuple[str, bool]:
    m, n = shape_of(cert)
    relation, r = claim_of(cert, (">=", "="))
    if r > min(m, n):
        raise Reject(f"a {m} x {n} matrix cannot have rank {r}")
    M = matrix_of(cert["matrix"], (m, n), "matrix") if cert.get("matrix") is not None else None
    if r > 0:
        lower = cert.get("lower")
        if not isinstance(lower, Mapping):
            raise Reject("a rank >= 1 needs 'lower' (prime, rows, cols, entries)")
        p = prime_of(lower.get("prime"), "lower.prime")
        rows = indices(lower.get("rows"), m, "lower.rows")
        cols = indices(lower.get("cols"), n, "lower.cols")
        if len(rows) != r or len(cols) != r:
            raise Reject(f"the minor must be {r} x {r}, got {len(rows)} rows, {len(cols)} cols")
        entries = matrix_of(lower.get("entries"), (r, r), "lower.entries")
        if M is not None:
            first_difference(entries, lambda k, j: M[rows[k]][cols[j]], rows, cols)
            log.append(f"the {r} x {r} minor's entries are those of the matrix")
        if not minor_nonzero(entries, p):
            raise Reject(f"the {r} x {r} minor vanishes modulo p = {p}")
        log.append(f"det M[I, J] != 0 mod p = {p} (Gaussian elimination over GF(p)), so it "
                   f"is non-zero over Q: rank >= {r}")
    if relation == "=":
        if r == min(m, n):
            log.append(f"rank <= min(m, n) = {r} trivially")
        else:
            if M is None:
                raise Reject("an exact rank below min(m, n) needs the whole matrix")
            _kernel(cert.get("upper"), M, m, n, r, log)
    return f"rank(M) {relation} {r}", M is not None


def _kernel(upper: Any, M: list[list[Number]], m: int, n: int, r: int, log: list[str]) -> None:
    if not isinstance(upper, Mapping) or upper.get("side") not in ("right", "left"):
        raise Reject("an exact rank needs 'upper': {'side': 'right' | 'left', 'vectors': ...}")
    side = upper["side"]
    length = n if side == "right" else m
    vectors = upper.get("vectors")
    if not isinstance(vectors, list) or len(vectors) != length - r:
        raise Reject(f"rank-nullity: a rank-{r} matrix needs {length - r} kernel vectors on "
                      f"the {side}, got {len(vectors) if isinstance(vectors, list) else 0}")
    V = matrix_of(vectors, (length - r, length), "upper.vectors")
    for k, v in enumerate(V):
        if side == "right":
            bad = next((i for i in range(m) if sum(M[i][j] * v[j] for j in range(n)) != 0),
                       None)
        else:
            bad = next((j for j in range(n) if sum(v[i] * M[i][j] for i in range(m)) != 0),
                       None)
        if bad is not None:
            raise Reject(f"kernel vector {k} is not in the {side} kernel (coordinate {bad} of "
                          f"{'M v' if side == 'right' else 'v^T M'} is not 0)")
    if V and rank_exact(V) != len(V):
        raise Reject("the kernel vectors are linearly dependent")
    log.append(f"{len(V)} independent vectors v with {'M v' if side == 'right' else 'v^T M'} "
               f"= 0 (exact): rank <= {length} - {len(V)} = {r} (rank-nullity)")


def _grid_rank(cert: Mapping[str, Any], log: list[str]) -> tuple[str, bool]:
    relation, r = claim_of(cert, (">=",))
    N, d, A, B = grid_frame(cert)
    arithmetic = cert.get("arithmetic")
    if arithmetic not in ("GF(p)", "Q"):
        raise Reject(f"arithmetic must be 'GF(p)' or 'Q', got {arithmetic!r}")
    p = prime_of(cert.get("prime"), "prime")
    ring = Ring(p if arithmetic == "GF(p)" else None)
    T = templates_of(cert.get("templates"), d, ring, "templates")
    rows: Any = cert.get("rows")
    cols: Any = cert.get("cols")
    for name, idx, part_ in (("rows", rows, A), ("cols", cols, B)):
        if not isinstance(idx, list) or len(idx) != r:
            raise Reject(f"{name} must list the {r} template tuples of the minor")
        for k, t in enumerate(idx):
            template_indices(t, len(T), len(part_), f"{name}[{k}]")
    entries = [[ring.of(v, f"entries[{k}][{j}]") for j, v in enumerate(row)]
               if isinstance(row, list) and len(row) == r else bad(f"entries[{k}] length")
               for k, row in enumerate(cert.get("entries") or [])]
    if len(entries) != r:
        raise Reject(f"entries must be the {r} x {r} minor")
    fn = cert.get("function")
    fn_type = str(fn.get("type")) if isinstance(fn, Mapping) else None
    recomputed = fn_type != "opaque"
    if recomputed:
        f = function_of(fn, ring, N, d)

        def value(k: int, j: int) -> Number:
            X: list[list[Number]] = [[]] * N
            for pos, t in zip(A, rows[k], strict=True):
                X[pos] = T[t]
            for pos, t in zip(B, cols[j], strict=True):
                X[pos] = T[t]
            return f(X)

        first_difference(entries, value, rows, cols)
        log.append(f"recomputed the {r * r} entries of the {r} x {r} minor from the {fn_type} "
                   f"function's parameters over {arithmetic} with this checker's own evaluator")
    else:
        log.append("the function is opaque code: its values were NOT recomputed; only the "
                   "minor of the engine's values is checked")
    if r and not minor_nonzero(entries, p):
        raise Reject(f"the {r} x {r} minor vanishes modulo p = {p}")
    field_ = f"GF({p})" if arithmetic == "GF(p)" else "Q"
    log.append(f"det != 0 mod p = {p}: the grid matricization over {field_} has rank >= {r}, "
               f"and every grid matricization has rank <= sep_(A,B) (003, Claim 1)")
    return f"sep_({tuple(A)},{tuple(B)})(f) {relation} {r}", recomputed



def _kruskal_rank(cert: Mapping[str, Any], log: list[str]) -> tuple[str, bool]:
    m, n = shape_of(cert)
    relation, k = claim_of(cert, (">=", "="))
    M = matrix_of(cert.get("matrix"), (m, n), "matrix")
    if k > min(m, n):
        raise Reject(f"a {m} x {n} matrix cannot have k-rank {k}")
    if k > 0:
        lower = cert.get("lower")
        if not isinstance(lower, Mapping):
            raise Reject("a k-rank >= 1 needs 'lower' (prime, projection, exceptions)")
        p = prime_of(lower.get("prime"), "lower.prime")
        P = matrix_of(lower.get("projection"), (k, m), "lower.projection")
        ring = Ring(p)
        Mp = [[ring.of(v if isinstance(v, int) else str(v), "matrix") for v in row] for row in M]
        Pp = [[ring.of(v if isinstance(v, int) else str(v), "projection") for v in row]
              for row in P]
        G = [[ring.dot(Pp[a], [Mp[i][j] for i in range(m)]) for j in range(n)]
             for a in range(k)]
        exceptions: dict[tuple[int, ...], Mapping[str, Any]] = {}
        for e in lower.get("exceptions") or []:
            exceptions[tuple(indices(e.get("cols"), n, "exception cols"))] = e
        count = 0
        for S in itertools.combinations(range(n), k):
            count += 1
            if S in exceptions:
                e = exceptions[S]
                q = prime_of(e.get("prime"), "exception prime")
                rows = indices(e.get("rows"), m, "exception rows")
                if len(rows) != k or not minor_nonzero([[M[i][j] for j in S] for i in rows], q):
                    raise Reject(f"columns {S}: the exception's minor vanishes mod {q}")
            elif rank_mod([[G[a][j] for j in S] for a in range(k)], p) < k:
                raise Reject(f"columns {S}: the projected minor vanishes mod p = {p} and no "
                              "exception proves them independent")
        log.append(f"all {count} sets of {k} columns are independent (a non-zero k x k minor "
                   f"of P M mod p = {p}, or of M itself for {len(exceptions)} exception(s))")
    if relation == "=":
        upper = cert.get("upper")
        if k == n:
            log.append(f"k-rank <= n = {n} trivially")
        else:
            if not isinstance(upper, Mapping):
                raise Reject("an exact k-rank below n needs 'upper' (cols, kernel)")
            W = indices(upper.get("cols"), n, "upper.cols")
            c = [num(v, "upper.kernel") for v in upper.get("kernel") or []]
            if len(W) != k + 1 or len(c) != k + 1 or not any(c):
                raise Reject(f"the upper side needs {k + 1} columns and a non-zero kernel vector")
            bad = next((i for i in range(m)
                        if sum(cv * M[i][j] for cv, j in zip(c, W, strict=True)) != 0), None)
            if bad is not None:
                raise Reject(f"the kernel vector does not annihilate columns {W} (row {bad})")
            log.append(f"columns {W} are dependent (a non-zero c with M[:, W] c = 0, exact): "
                       f"k-rank <= {k}")
    return f"k-rank(M) {relation} {k}", True


KINDS: dict[str, Callable[[Mapping[str, Any], list[str]], tuple[str, bool]]] = {
    "matrix_rank": _matrix_rank, "grid_rank": _grid_rank, "grid_rank_blocks": grid_rank_blocks,
    "kruskal_rank": _kruskal_rank}


