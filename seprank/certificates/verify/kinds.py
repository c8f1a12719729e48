"""The certificate kinds: matrix_rank, grid_rank, grid_rank_blocks (in
:mod:`seprank.certificates.verify.blocks`), kruskal_rank -- each reads its certificate strictly
and estimates the work (``prepare``), then checks its proof and says what it verified
(standard library only)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from typing import Any

from .blocks import prepare_blocks
from .cost import Sizes
from .evaluators import parse_function
from .exact import (
    Number,
    Prepared,
    Reject,
    Ring,
    claim_of,
    entries_of,
    first_difference,
    grid_frame,
    independent,
    indices,
    integer,
    keys_of,
    matrix_of,
    minor_nonzero,
    num,
    prime_of,
    rank_mod,
    shape_of,
    template_indices,
    templates_of,
)
from .limits import Refuse, capped, log_comb, product_cost, tick
from .packed import read_matrix

__all__ = ["FIELDS", "KINDS"]

#: The top-level fields of each kind, required and optional (``schema``, ``version``,
#: ``kind``, ``claim`` and ``provenance`` are every kind's).
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "matrix_rank": (("shape",), ("matrix", "matrix_packed", "lower", "upper")),
    "grid_rank": (("function", "n_inputs", "dim", "partition", "arithmetic", "prime",
                   "templates", "rows", "cols", "entries"), ()),
    "grid_rank_blocks": (("function", "n_inputs", "dim", "partition", "arithmetic", "prime",
                          "structure", "blocks"), ()),
    "kruskal_rank": (("shape",), ("matrix", "matrix_packed", "lower", "upper")),
}


def _ticking(items: Any) -> Any:
    """The items, polling the deadline before each."""
    for item in items:
        tick()
        yield item


def set_ops(k: int) -> int:
    """Interpreter operations of one Kruskal column set of size ``k`` beyond its arithmetic
    (the combination, the k x k list, the elimination's Python loops and the deadline poll):
    measured ~12 microseconds for k = 3, i.e. up to ~200 operations at the checker's rate.

    Parameters
    ----------
    k : int
        The set size.

    Returns
    -------
    int
        Operations.
    """
    return 50 + 20 * k + 4 * k * k


def _matrix_sizes(M: list[list[Number]]) -> Sizes:
    return Sizes.of(M)


# --- matrix_rank -------------------------------------------------------------------------------


def _matrix_rank(cert: Mapping[str, Any]) -> Prepared:
    m, n = shape_of(cert)
    relation, r = claim_of(cert, (">=", "="))
    if r > min(m, n):
        raise Reject(f"a {m} x {n} matrix cannot have rank {r}")
    M, sha = read_matrix(cert, (m, n))
    lower: Any = None
    if r > 0:
        lower = keys_of(cert.get("lower"), "lower", ("prime", "rows", "cols", "entries"))
        p = prime_of(lower["prime"], "lower.prime")
        rows = indices(lower["rows"], m, "lower.rows")
        cols = indices(lower["cols"], n, "lower.cols")
        if len(rows) != r or len(cols) != r:
            raise Refuse(f"the minor must be {r} x {r}, got {len(rows)} rows, {len(cols)} cols")
        entries = matrix_of(lower["entries"], (r, r), "lower.entries")
    elif cert.get("lower") is not None:
        raise Refuse("a rank-0 claim has no 'lower' side")
    exact = relation == "=" and r < min(m, n)
    V: list[list[Number]] = []
    side = "right"
    if exact:
        if M is None:
            raise Reject("an exact rank below min(m, n) needs the whole matrix")
        upper = keys_of(cert.get("upper"), "upper", ("side", "vectors"))
        side = upper["side"]
        if side not in ("right", "left"):
            raise Refuse("upper.side must be 'right' or 'left'")
        length = n if side == "right" else m
        vectors = upper["vectors"]
        if type(vectors) is not list or len(vectors) != length - r:
            raise Reject(f"rank-nullity: a rank-{r} matrix needs {length - r} kernel vectors "
                         f"on the {side}, got "
                         f"{len(vectors) if type(vectors) is list else 0}")
        V = matrix_of(vectors, (length - r, length), "upper.vectors")
    elif cert.get("upper") is not None:
        raise Refuse("only an exact rank below min(m, n) has an 'upper' side")
    m_sizes = _matrix_sizes(M) if M is not None else Sizes()
    v_sizes = Sizes.of(V)
    rational = 8 if (m_sizes.den_bits or v_sizes.den_bits) else 1
    p_cost = product_cost(2 * (lower["prime"].bit_length() if lower else 1))
    minor = r * r * r * p_cost + r * r * product_cost(m_sizes.bits)
    kernel = len(V) * m * n * product_cost(m_sizes.bits + v_sizes.bits) * rational
    span = len(V) * len(V) * (n if side == "right" else m) * product_cost(122)
    estimate = capped(m * n * (m_sizes.bits // 64 + 2) + minor + kernel + span)
    what = (f"the {m} x {n} matrix read and digested, a {r} x {r} minor mod p, "
            f"{len(V)} kernel vector(s) multiplied by the matrix exactly")

    def run(log: list[str]) -> list[str]:
        missing: list[str] = []
        if r > 0:
            if M is not None:
                first_difference(entries, lambda k, j: M[rows[k]][cols[j]], rows, cols)
                log.append(f"the {r} x {r} minor's entries are those of the matrix")
            else:
                missing.append("that the minor's entries are entries of M: the certificate "
                               "ships no matrix, so its minor is checked against nothing")
            if not minor_nonzero(entries, p):
                raise Reject(f"the {r} x {r} minor vanishes modulo p = {p}")
            log.append(f"det M[I, J] != 0 mod p = {p} (Gaussian elimination over GF(p)), so "
                       f"it is non-zero over Q: rank >= {r}")
        if relation == "=":
            if r == min(m, n):
                log.append(f"rank <= min(m, n) = {r} trivially")
            else:
                assert M is not None
                _kernel(side, V, M, m, n, r, log)
        return missing

    return Prepared(f"rank(M) {relation} {r}",
                    {"matrix": {"shape": [m, n], "sha256": sha}}, estimate, what, run)


def _kernel(side: str, V: list[list[Number]], M: list[list[Number]], m: int, n: int, r: int,
            log: list[str]) -> None:
    length = n if side == "right" else m
    for k, v in enumerate(V):
        tick()
        if side == "right":
            bad = next((i for i in range(m) if sum(M[i][j] * v[j] for j in range(n)) != 0),
                       None)
        else:
            bad = next((j for j in range(n) if sum(v[i] * M[i][j] for i in range(m)) != 0),
                       None)
        if bad is not None:
            raise Reject(f"kernel vector {k} is not in the {side} kernel (coordinate {bad} of "
                         f"{'M v' if side == 'right' else 'v^T M'} is not 0)")
    if V and not independent(V):
        raise Reject("the kernel vectors are linearly dependent")
    log.append(f"{len(V)} independent vectors v with {'M v' if side == 'right' else 'v^T M'} "
               f"= 0 (exact): rank <= {length} - {len(V)} = {r} (rank-nullity)")


# --- grid_rank ---------------------------------------------------------------------------------


def _grid_rank(cert: Mapping[str, Any]) -> Prepared:
    relation, r = claim_of(cert, (">=",))
    N, d, A, B = grid_frame(cert)
    arithmetic = cert.get("arithmetic")
    if arithmetic not in ("GF(p)", "Q"):
        raise Refuse(f"arithmetic must be 'GF(p)' or 'Q', got {arithmetic!r}")
    p = prime_of(cert.get("prime"), "prime")
    ring = Ring(p if arithmetic == "GF(p)" else None)
    T = templates_of(cert.get("templates"), d, ring, "templates")
    rows: Any = cert.get("rows")
    cols: Any = cert.get("cols")
    for name, idx, part_ in (("rows", rows, A), ("cols", cols, B)):
        if type(idx) is not list or len(idx) != r:
            raise Refuse(f"{name} must list the {r} template tuples of the minor")
        for k, t in enumerate(idx):
            template_indices(t, len(T), len(part_), f"{name}[{k}]")
    entries = entries_of(cert.get("entries"), r, ring, "entries")
    fn = parse_function(cert.get("function"), N, d)
    each = fn.cost(ring.p, Sizes.of(T))
    p_cost = product_cost(2 * p.bit_length())
    estimate = capped(r * r * each + fn.setup_cost() + r * r * r * p_cost
                      + r * r * product_cost(Sizes.of(entries).bits))
    what = (f"{r * r} evaluations of the {fn.type} function over {arithmetic} at about "
            f"{each:.3g} operations each, and a {r} x {r} minor mod p")
    subject = {"function": fn.subject(), "n_inputs": N, "dim": d, "partition": [A, B]}

    def run(log: list[str]) -> list[str]:
        missing: list[str] = []
        if not fn.opaque:
            f = fn.evaluator(ring)

            def value(k: int, j: int) -> Number:
                X: list[list[Number]] = [[]] * N
                for pos, t in zip(A, rows[k], strict=True):
                    X[pos] = T[t]
                for pos, t in zip(B, cols[j], strict=True):
                    X[pos] = T[t]
                return f(X)

            first_difference(entries, value, rows, cols)
            log.append(f"recomputed the {r * r} entries of the {r} x {r} minor from the "
                       f"{fn.type} function's parameters over {arithmetic} with this checker's "
                       "own evaluator")
        else:
            log.append("the function is opaque code: its values were NOT recomputed; only the "
                       "minor of the engine's values is checked")
            missing.append("the minor's entries: the function is opaque code, so they are the "
                           "engine's values, not recomputed")
        if r and not minor_nonzero(entries, p):
            raise Reject(f"the {r} x {r} minor vanishes modulo p = {p}")
        field_ = f"GF({p})" if arithmetic == "GF(p)" else "Q"
        log.append(f"det != 0 mod p = {p}: the grid matricization over {field_} has rank >= "
                   f"{r}, and every grid matricization has rank <= sep_(A,B) (003, Claim 1)")
        return missing

    return Prepared(f"sep_({tuple(A)},{tuple(B)})(f) {relation} {r}", subject, estimate, what,
                    run, fn.memory(ring.p, Sizes.of(T)),
                    "the circuit's index plans and node values")


# --- kruskal_rank ------------------------------------------------------------------------------


def _kruskal_rank(cert: Mapping[str, Any]) -> Prepared:
    m, n = shape_of(cert)
    relation, k = claim_of(cert, (">=", "="))
    M, sha = read_matrix(cert, (m, n))
    if M is None:
        raise Refuse("a Kruskal certificate needs its matrix ('matrix' or 'matrix_packed')")
    if k > min(m, n):
        raise Reject(f"a {m} x {n} matrix cannot have k-rank {k}")
    m_sizes = _matrix_sizes(M)
    subsets = log_comb(n, k)
    estimate: float = 0.0
    lower: Any = None
    exceptions: dict[tuple[int, ...], tuple[int, list[int]]] = {}
    if k > 0:
        lower = keys_of(cert.get("lower"), "lower", ("prime", "projection", "exceptions"))
        p = prime_of(lower["prime"], "lower.prime")
        P = matrix_of(lower["projection"], (k, m), "lower.projection")
        raw_exceptions = lower["exceptions"]
        if type(raw_exceptions) is not list:
            raise Refuse("lower.exceptions must be a list")
        for e in raw_exceptions:
            keys_of(e, "an exception", ("cols", "rows", "prime"))
            S = tuple(indices(e["cols"], n, "exception cols"))
            if len(S) != k or list(S) != sorted(S):
                raise Refuse(f"an exception lists {k} increasing columns, got {list(S)}")
            q = integer(e["prime"], "exception prime", 2)
            exceptions[S] = (q, indices(e["rows"], m, "exception rows"))
        p_cost = product_cost(2 * p.bit_length())
        if subsets > 69:       # more than 1e30 column sets
            estimate = math.inf
        else:
            estimate = (math.comb(n, k) * ((k * k * k + k) * p_cost + set_ops(k))
                        + k * m * n * p_cost
                        + len(exceptions) * k * k * (k + m_sizes.bits // 64 + 1) * p_cost)
    elif cert.get("lower") is not None:
        raise Refuse("a k-rank of 0 has no 'lower' side")
    upper: Any = None
    if relation == "=" and k < n:
        upper = keys_of(cert.get("upper"), "upper", ("cols", "kernel"))
        kernel = upper["kernel"]
        if type(kernel) is not list or len(kernel) > n:
            raise Refuse("upper.kernel must be a list of at most n numbers")
        estimate += m * (k + 1) * product_cost(m_sizes.bits + Sizes.of(
            [num(v, "upper.kernel") for v in kernel]).bits) * 8
    elif cert.get("upper") is not None:
        raise Refuse("only an exact k-rank below n has an 'upper' side")
    what = (f"C({n}, {k}) = e^{subsets:.1f} column sets of the projected matrix, each a "
            f"{k} x {k} elimination mod p")

    def run(log: list[str]) -> list[str]:
        if k > 0:
            ring = Ring(p)
            Mp = [[ring.of(v, "matrix") for v in row] for row in _ticking(M)]
            Pp = [[ring.of(v, "projection") for v in row] for row in P]
            columns = [[Mp[i][j] for i in range(m)] for j in _ticking(range(n))]
            G = [[ring.dot(Pp[a], column) for column in _ticking(columns)] for a in range(k)]
            count = 0
            for S in itertools.combinations(range(n), k):
                tick()
                count += 1
                if S in exceptions:
                    q, rows = exceptions[S]
                    q = prime_of(q, "exception prime")
                    if len(rows) != k or not minor_nonzero([[M[i][j] for j in S] for i in rows],
                                                           q):
                        raise Reject(f"columns {S}: the exception's minor vanishes mod {q}")
                elif rank_mod([[G[a][j] for j in S] for a in range(k)], p) < k:
                    raise Reject(f"columns {S}: the projected minor vanishes mod p = {p} and no "
                                 "exception proves them independent")
            log.append(f"all {count} sets of {k} columns are independent (a non-zero k x k "
                       f"minor of P M mod p = {p}, or of M itself for {len(exceptions)} "
                       "exception(s))")
        if relation == "=":
            if k == n:
                log.append(f"k-rank <= n = {n} trivially")
            else:
                W = indices(upper["cols"], n, "upper.cols")
                c = [num(v, "upper.kernel") for v in upper["kernel"]]
                if len(W) != k + 1 or len(c) != k + 1 or not any(c):
                    raise Reject(f"the upper side needs {k + 1} columns and a non-zero kernel "
                                 "vector")
                bad = next((i for i in range(m)
                            if sum(cv * M[i][j] for cv, j in zip(c, W, strict=True)) != 0), None)
                if bad is not None:
                    raise Reject(f"the kernel vector does not annihilate columns {W} (row "
                                 f"{bad})")
                log.append(f"columns {W} are dependent (a non-zero c with M[:, W] c = 0, "
                           f"exact): k-rank <= {k}")
        return []

    return Prepared(f"k-rank(M) {relation} {k}", {"matrix": {"shape": [m, n], "sha256": sha}},
                    capped(estimate), what, run)


KINDS: dict[str, Callable[[Mapping[str, Any]], Prepared]] = {
    "matrix_rank": _matrix_rank, "grid_rank": _grid_rank, "grid_rank_blocks": prepare_blocks,
    "kruskal_rank": _kruskal_rank}

