r"""The independent checker of rank certificates: Python integers and fractions, nothing else.

This module imports **only the standard library** (tested: no seprank, numpy or flint), so a
reader can check a certificate without trusting the engine that produced it -- copy this one
file and run ``python verify.py certificate.json``.  It

1. reads a certificate (JSON, schema ``seprank.certificate`` version 1);
2. **recomputes** every matrix entry the certificate uses from the function's integer
   parameters with its own evaluators, written for this purpose: the linearized attention
   network by the explicit sums of 003 eq. 3 (scores first, head by head -- not the Gram form
   the engine uses), the in-context representation of 000/001 eqs. 4 and 8 on top of it, and
   polynomials given by their monomials; a recomputed entry that differs from the engine's
   rejects the certificate with the first differing entry;
3. checks the proof: an r x r minor that is non-zero modulo the prime (Gaussian elimination
   over GF(p) on Python ints) for the lower side; for the upper side a kernel basis
   (``M v = 0`` exactly with :class:`fractions.Fraction`, and the basis independent), or a
   dependent column set with its kernel vector (Kruskal rank);
4. says what it verified and how long it took (:class:`Verification`).

Certificate kinds
-----------------
``matrix_rank``
    ``rank(M) >= r`` (a non-zero minor mod p, its entries given) or ``rank(M) = r`` (adds the
    whole matrix and a kernel basis of dimension ``n - r``, or nothing when r = min(m, n)).
``grid_rank``
    ``sep_(A,B)(f) >= r``: the r x r minor of a grid matricization of f at the given templates
    is non-zero mod p, so the grid matrix has rank >= r, and (003, Claim 1) every grid
    matricization has rank at most the separation rank.  ``arithmetic`` says whether f was
    evaluated over GF(p) (templates are residues) or exactly over Q.
``kruskal_rank``
    ``k_A = k``: every k columns independent (all k x k minors of P A mod p are non-zero for
    the given projection P, a listed exception by its own minor of A) and, unless k = n, k + 1
    columns with a kernel vector.

A certificate of an *opaque* function (arbitrary Python code) cannot be recomputed here: the
verification then says so (``recomputed=False``) and checks only the minor of the values the
engine reported.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import mul
from pathlib import Path
from typing import Any

__all__ = ["SCHEMA", "SCHEMA_VERSION", "Verification", "evaluate_function", "main", "verify"]

#: The schema name every certificate carries in ``"schema"``.
SCHEMA = "seprank.certificate"
#: The schema version this checker reads (``"version"``).
SCHEMA_VERSION = 1

Number = int | Fraction


class _Reject(Exception):
    """The certificate does not prove its claim (the message says why)."""


@dataclass(frozen=True)
class Verification:
    """The outcome of :func:`verify`.

    Attributes
    ----------
    ok : bool
        The certificate proves its claim.
    kind : str
        ``'matrix_rank'``, ``'grid_rank'`` or ``'kruskal_rank'`` (or ``'unknown'``).
    claim : str
        What the certificate claims, e.g. ``'rank(M) >= 12'``.
    verified : str
        What was checked, in words (empty when rejected).
    seconds : float
        Time the verification took.
    recomputed : bool
        Every entry used was recomputed from the function's or matrix's parameters (False for
        an opaque function: only the engine's values were checked).
    checks : tuple of str
        The steps, in order.
    reason : str or None
        Why the certificate was rejected (the first differing entry, a zero minor, ...).

    Examples
    --------
    >>> cert = {"schema": SCHEMA, "version": 1, "kind": "matrix_rank", "shape": [2, 2],
    ...         "claim": {"relation": ">=", "value": 2},
    ...         "lower": {"prime": 5, "rows": [0, 1], "cols": [0, 1],
    ...                   "entries": [[1, 2], [3, 4]]}}
    >>> v = verify(cert)
    >>> v.ok, v.claim
    (True, 'rank(M) >= 2')
    """

    ok: bool
    kind: str
    claim: str
    verified: str
    seconds: float
    recomputed: bool
    checks: tuple[str, ...] = ()
    reason: str | None = None

    def __bool__(self) -> bool:
        return self.ok

    def summary(self) -> str:
        """One line: verified or rejected, the claim, and the time."""
        if self.ok:
            return f"VERIFIED {self.claim} ({self.seconds:.3g} s): {self.verified}"
        return f"REJECTED {self.claim} ({self.seconds:.3g} s): {self.reason}"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"ok": self.ok, "kind": self.kind, "claim": self.claim,
                "verified": self.verified, "seconds": self.seconds,
                "recomputed": self.recomputed, "checks": list(self.checks),
                "reason": self.reason}


# --- numbers ---------------------------------------------------------------------------------


def _num(x: Any, where: str) -> Number:
    """An exact number from JSON: an int, or a string ``"a"`` / ``"a/b"``."""
    if isinstance(x, bool) or not isinstance(x, int | str):
        raise _Reject(f"{where}: {x!r} is not an exact number (an int or a string 'a/b')")
    if isinstance(x, int):
        return x
    try:
        q = Fraction(x)
    except (ValueError, ZeroDivisionError) as err:
        raise _Reject(f"{where}: {x!r} is not an exact rational ({err})") from None
    return q.numerator if q.denominator == 1 else q


class _Ring:
    """Q (``p`` None: exact ints and Fractions) or GF(p) (ints in [0, p))."""

    def __init__(self, p: int | None) -> None:
        self.p = p

    def of(self, x: Any, where: str) -> Number:
        q = _num(x, where)
        if self.p is None:
            return q
        if isinstance(q, Fraction):
            if q.denominator % self.p == 0:
                raise _Reject(f"{where}: the denominator of {q} is divisible by p = {self.p}")
            return q.numerator * pow(q.denominator, -1, self.p) % self.p
        return q % self.p

    def red(self, x: Number) -> Number:
        return x if self.p is None else x % self.p  # type: ignore[operator]

    def dot(self, a: Sequence[Number], b: Sequence[Number]) -> Number:
        return self.red(sum(map(mul, a, b)))

    def matvec(self, W: Sequence[Sequence[Number]], x: Sequence[Number]) -> list[Number]:
        """W x (W given by rows; the caller checked the lengths)."""
        if self.p is None:
            return [sum(map(mul, row, x)) for row in W]
        p = self.p
        return [sum(map(mul, row, x)) % p for row in W]


def _tensor(value: Any, shape: tuple[int, ...], ring: _Ring, where: str) -> Any:
    """Nested lists of the given shape with every entry converted by ``ring``."""
    if not shape:
        return ring.of(value, where)
    if not isinstance(value, list) or len(value) != shape[0]:
        raise _Reject(f"{where}: expected a list of length {shape[0]}")
    return [_tensor(v, shape[1:], ring, f"{where}[{k}]") for k, v in enumerate(value)]


# --- the evaluators ----------------------------------------------------------------------------


class _Attention:
    r"""y^i_p of the linearized attention network by eq. 3 of 003:
    :math:`y^t = \sum_j \sum_h \langle W^{Q,h} z^t, W^{K,h} z^j\rangle W^{O,h} W^{V,h} z^j`
    (plus :math:`z^t` with the residual connection), layer after layer."""

    def __init__(self, spec: Mapping[str, Any], ring: _Ring) -> None:
        q = spec.get("query")
        if not isinstance(q, list) or not q or not isinstance(q[0], list) or not q[0]:
            raise _Reject("network: 'query' must be a non-empty (L, H, d_a, d_x) nested list")
        L, H = len(q), len(q[0])
        d_a = len(q[0][0])
        d_x = len(q[0][0][0]) if d_a else 0
        if not d_a or not d_x:
            raise _Reject("network: empty weight matrices")
        self.width, self.ring = d_x, ring
        shapes = {"query": (L, H, d_a, d_x), "key": (L, H, d_a, d_x),
                  "value": (L, H, d_a, d_x), "output": (L, H, d_x, d_a)}
        w = {k: _tensor(spec.get(k), s, ring, f"network.{k}") for k, s in shapes.items()}
        self.layers = [[(w["query"][layer][h], w["key"][layer][h], w["value"][layer][h],
                         w["output"][layer][h]) for h in range(H)] for layer in range(L)]
        self.residual = bool(spec.get("residual", False))

    def __call__(self, Z: list[list[Number]], i: int, p: int) -> Number:
        ring = self.ring
        mv = ring.matvec
        n = len(Z)
        for depth, heads in enumerate(self.layers):
            last = depth == len(self.layers) - 1
            targets = [i] if last else list(range(n))
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
                return Y[i][p]
            Z = [Y[t] for t in range(n)]
        raise _Reject("network: no layers")  # pragma: no cover - L >= 1 is checked


def _index(spec: Mapping[str, Any], key: str, bound: int) -> int:
    v = spec.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < bound:
        raise _Reject(f"function: {key} = {v!r} must be an integer in 0..{bound - 1}")
    return v


def _linear_attention(spec: Mapping[str, Any], ring: _Ring,
                      n_inputs: int) -> Callable[[list[list[Number]]], Number]:
    net = _Attention(spec["network"], ring)
    i, p = _index(spec, "i", n_inputs), _index(spec, "p", net.width)

    def f(X: list[list[Number]]) -> Number:
        return net(X, i, p)

    return f


def _incontext(spec: Mapping[str, Any], ring: _Ring,
               n_inputs: int) -> Callable[[list[list[Number]]], Number]:
    r""":math:`Z_{in}(a, b) = y^i_p` of the network on the 2N inputs :math:`E(w_1^j)\odot a`,
    then :math:`E(w_2^j)\odot b` (000/001, eqs. 4 and 8)."""
    if n_inputs != 2:
        raise _Reject("an in-context representation is a function of two vectors (a, b)")
    net = _Attention(spec["network"], ring)
    d = net.width
    emb = spec.get("embedding")
    if not isinstance(emb, list) or len(emb) != d or not emb or not isinstance(emb[0], list):
        raise _Reject(f"function.embedding must be a (d_x = {d}, V) nested list")
    E = _tensor(emb, (d, len(emb[0])), ring, "function.embedding")
    V = len(emb[0])
    sentences = []
    for name in ("first", "second"):
        s = spec.get(name)
        if not isinstance(s, list) or not all(isinstance(w, int) and not isinstance(w, bool)
                                              and 0 <= w < V for w in s):
            raise _Reject(f"function.{name} must be a list of token ids in 0..{V - 1}")
        sentences.append(s)
    first, second = sentences
    if len(first) != len(second) or not first:
        raise _Reject("function: the sentences must be non-empty and of one length")
    i, p = _index(spec, "i", 2 * len(first)), _index(spec, "p", d)
    cols1 = [[E[k][w] for k in range(d)] for w in first]
    cols2 = [[E[k][w] for k in range(d)] for w in second]

    def f(X: list[list[Number]]) -> Number:
        a, b = X
        Z = ([[ring.red(e * x) for e, x in zip(col, a, strict=True)] for col in cols1]
             + [[ring.red(e * x) for e, x in zip(col, b, strict=True)] for col in cols2])
        return net(Z, i, p)

    return f


def _polynomial(spec: Mapping[str, Any], ring: _Ring, n_inputs: int,
                dim: int) -> Callable[[list[list[Number]]], Number]:
    """sum over terms of coef * prod x[position][coordinate] ** exponent."""
    terms = spec.get("terms")
    if not isinstance(terms, list):
        raise _Reject("function.terms must be a list of [coefficient, [[pos, coord, exp], ...]]")
    parsed = []
    for k, term in enumerate(terms):
        if not isinstance(term, list) or len(term) != 2 or not isinstance(term[1], list):
            raise _Reject(f"function.terms[{k}] must be [coefficient, factors]")
        coef = ring.of(term[0], f"function.terms[{k}][0]")
        factors = []
        for fac in term[1]:
            if (not isinstance(fac, list) or len(fac) != 3
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in fac)
                    or not (0 <= fac[0] < n_inputs and 0 <= fac[1] < dim and fac[2] >= 0)):
                raise _Reject(f"function.terms[{k}]: bad factor {fac!r}")
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


def _power(x: Number, e: int, ring: _Ring) -> Number:
    if ring.p is not None:
        return pow(int(x), e, ring.p)
    return x ** e


def evaluate_function(spec: Mapping[str, Any], X: Sequence[Sequence[Any]], *,
                      prime: int | None = None) -> Number:
    r"""Evaluate a certificate's function at one input ``X`` (N rows of length d), exactly
    (``prime=None``) or over GF(prime), with this module's own evaluators.

    Function types: ``'linear_attention'`` (``network``: query/key/value/output weights,
    ``residual``; ``i``, ``p``), ``'incontext'`` (``network``, ``embedding``, ``first``,
    ``second``, ``i``, ``p``; X = (a, b)) and ``'polynomial'`` (``terms``).

    Examples
    --------
    >>> net = {"query": [[[[1, 0]]]], "key": [[[[1, 0]]]], "value": [[[[0, 1]]]],
    ...        "output": [[[[1], [0]]]]}
    >>> spec = {"type": "linear_attention", "network": net, "i": 0, "p": 0}
    >>> evaluate_function(spec, [[2, 3], [5, 7]])   # sum_j x1_0 xj_0 xj_1 = 2*(2*3 + 5*7)
    82
    >>> evaluate_function({"type": "polynomial", "terms": [[3, [[0, 0, 2]]]]}, [[5]], prime=7)
    5
    """
    try:
        rows = [list(r) for r in X]
        n, d = len(rows), len(rows[0]) if rows else 0
        ring = _Ring(prime)
        f = _function(spec, ring, n, d)
        return f([[ring.of(v, "X") for v in r] for r in rows])
    except _Reject as err:
        raise ValueError(str(err)) from None


def _function(spec: Any, ring: _Ring, n_inputs: int,
              dim: int) -> Callable[[list[list[Number]]], Number]:
    kind = spec.get("type") if isinstance(spec, Mapping) else None
    if kind == "linear_attention":
        return _linear_attention(spec, ring, n_inputs)
    if kind == "incontext":
        return _incontext(spec, ring, n_inputs)
    if kind == "polynomial":
        return _polynomial(spec, ring, n_inputs, dim)
    raise _Reject(f"unknown function type {kind!r}")


# --- linear algebra on Python ints -------------------------------------------------------------


def _rank_mod(rows: list[list[int]], p: int) -> int:
    """Rank over GF(p) by Gaussian elimination (the rows are consumed)."""
    rank, n_cols = 0, len(rows[0]) if rows else 0
    for c in range(n_cols):
        pivot = next((k for k in range(rank, len(rows)) if rows[k][c] % p), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        inv = pow(rows[rank][c], -1, p)
        prow = [v * inv % p for v in rows[rank]]
        rows[rank] = prow
        for k in range(rank + 1, len(rows)):
            factor = rows[k][c] % p
            if factor:
                rows[k] = [(a - factor * b) % p for a, b in zip(rows[k], prow, strict=True)]
        rank += 1
    return rank


def _minor_nonzero(entries: list[list[Number]], p: int) -> bool:
    """det(entries) != 0 mod p (entries exact or residues)."""
    ring = _Ring(p)
    mat = [[ring.of(v if isinstance(v, int) else str(v), "minor") for v in row]
           for row in entries]
    return _rank_mod(mat, p) == len(mat)


def _rank_exact(rows: list[list[Number]]) -> int:
    """Rank over Q with Fractions."""
    mat = [[Fraction(v) for v in r] for r in rows]
    rank, n_cols = 0, len(mat[0]) if mat else 0
    for c in range(n_cols):
        pivot = next((k for k in range(rank, len(mat)) if mat[k][c] != 0), None)
        if pivot is None:
            continue
        mat[rank], mat[pivot] = mat[pivot], mat[rank]
        for k in range(rank + 1, len(mat)):
            if mat[k][c] != 0:
                f = mat[k][c] / mat[rank][c]
                mat[k] = [a - f * b for a, b in zip(mat[k], mat[rank], strict=True)]
        rank += 1
    return rank


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3.3e24 (the first 13 prime bases)."""
    if n < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    for b in bases:
        if n % b == 0:
            return n == b
    if n >= 3317044064679887385961981:
        raise _Reject(f"the prime {n} is too large for this checker's primality test")
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for b in bases:
        x = pow(b, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not _is_prime(value):
        raise _Reject(f"{where} = {value!r} is not a prime")
    return value


def _indices(value: Any, bound: int, where: str) -> list[int]:
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < bound for v in value):
        raise _Reject(f"{where} must be a list of indices in 0..{bound - 1}")
    if len(set(value)) != len(value):
        raise _Reject(f"{where} repeats an index")
    return value


def _matrix(value: Any, shape: tuple[int, int], where: str) -> list[list[Number]]:
    if not isinstance(value, list) or len(value) != shape[0] or not all(
            isinstance(r, list) and len(r) == shape[1] for r in value):
        raise _Reject(f"{where} must be a {shape[0]} x {shape[1]} nested list")
    return [[_num(v, f"{where}[{i}][{j}]") for j, v in enumerate(r)] for i, r in enumerate(value)]


def _claim(cert: Mapping[str, Any], relations: tuple[str, ...]) -> tuple[str, int]:
    claim = cert.get("claim")
    if not isinstance(claim, Mapping):
        raise _Reject("the certificate has no 'claim'")
    relation, value = claim.get("relation"), claim.get("value")
    if relation not in relations:
        raise _Reject(f"claim.relation must be one of {relations}, got {relation!r}")
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Reject(f"claim.value must be a non-negative integer, got {value!r}")
    return relation, value


def _shape(cert: Mapping[str, Any]) -> tuple[int, int]:
    shape = cert.get("shape")
    if (not isinstance(shape, list) or len(shape) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                       for s in shape)):
        raise _Reject("shape must be [m, n]")
    return shape[0], shape[1]


def _first_difference(stated: list[list[Number]], recomputed: Callable[[int, int], Number],
                      rows: Sequence[Any], cols: Sequence[Any]) -> None:
    for k, row in enumerate(stated):
        for j, value in enumerate(row):
            again = recomputed(k, j)
            if again != value:
                raise _Reject(f"entry ({k}, {j}) of the minor (row {rows[k]}, column "
                              f"{cols[j]}): the certificate says {value}, recomputed {again}")


# --- the kinds ---------------------------------------------------------------------------------


def _matrix_rank(cert: Mapping[str, Any], log: list[str]) -> tuple[str, bool]:
    m, n = _shape(cert)
    relation, r = _claim(cert, (">=", "="))
    if r > min(m, n):
        raise _Reject(f"a {m} x {n} matrix cannot have rank {r}")
    M = _matrix(cert["matrix"], (m, n), "matrix") if cert.get("matrix") is not None else None
    if r > 0:
        lower = cert.get("lower")
        if not isinstance(lower, Mapping):
            raise _Reject("a rank >= 1 needs 'lower' (prime, rows, cols, entries)")
        p = _prime(lower.get("prime"), "lower.prime")
        rows = _indices(lower.get("rows"), m, "lower.rows")
        cols = _indices(lower.get("cols"), n, "lower.cols")
        if len(rows) != r or len(cols) != r:
            raise _Reject(f"the minor must be {r} x {r}, got {len(rows)} rows, {len(cols)} cols")
        entries = _matrix(lower.get("entries"), (r, r), "lower.entries")
        if M is not None:
            _first_difference(entries, lambda k, j: M[rows[k]][cols[j]], rows, cols)
            log.append(f"the {r} x {r} minor's entries are those of the matrix")
        if not _minor_nonzero(entries, p):
            raise _Reject(f"the {r} x {r} minor vanishes modulo p = {p}")
        log.append(f"det M[I, J] != 0 mod p = {p} (Gaussian elimination over GF(p)), so it "
                   f"is non-zero over Q: rank >= {r}")
    if relation == "=":
        if r == min(m, n):
            log.append(f"rank <= min(m, n) = {r} trivially")
        else:
            if M is None:
                raise _Reject("an exact rank below min(m, n) needs the whole matrix")
            _kernel(cert.get("upper"), M, m, n, r, log)
    return f"rank(M) {relation} {r}", M is not None


def _kernel(upper: Any, M: list[list[Number]], m: int, n: int, r: int, log: list[str]) -> None:
    if not isinstance(upper, Mapping) or upper.get("side") not in ("right", "left"):
        raise _Reject("an exact rank needs 'upper': {'side': 'right' | 'left', 'vectors': ...}")
    side = upper["side"]
    length = n if side == "right" else m
    vectors = upper.get("vectors")
    if not isinstance(vectors, list) or len(vectors) != length - r:
        raise _Reject(f"rank-nullity: a rank-{r} matrix needs {length - r} kernel vectors on "
                      f"the {side}, got {len(vectors) if isinstance(vectors, list) else 0}")
    V = _matrix(vectors, (length - r, length), "upper.vectors")
    for k, v in enumerate(V):
        if side == "right":
            bad = next((i for i in range(m) if sum(M[i][j] * v[j] for j in range(n)) != 0),
                       None)
        else:
            bad = next((j for j in range(n) if sum(v[i] * M[i][j] for i in range(m)) != 0),
                       None)
        if bad is not None:
            raise _Reject(f"kernel vector {k} is not in the {side} kernel (coordinate {bad} of "
                          f"{'M v' if side == 'right' else 'v^T M'} is not 0)")
    if V and _rank_exact(V) != len(V):
        raise _Reject("the kernel vectors are linearly dependent")
    log.append(f"{len(V)} independent vectors v with {'M v' if side == 'right' else 'v^T M'} "
               f"= 0 (exact): rank <= {length} - {len(V)} = {r} (rank-nullity)")


def _grid_rank(cert: Mapping[str, Any], log: list[str]) -> tuple[str, bool]:
    relation, r = _claim(cert, (">=",))
    N, d = cert.get("n_inputs"), cert.get("dim")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in (N, d)):
        raise _Reject("n_inputs and dim must be positive integers")
    part = cert.get("partition")
    if not isinstance(part, list) or len(part) != 2:
        raise _Reject("partition must be [A, B]")
    A, B = (_indices(part[0], N, "partition[0]"), _indices(part[1], N, "partition[1]"))
    if not A or not B or set(A) & set(B) or set(A) | set(B) != set(range(N)):
        raise _Reject(f"partition {part} does not split the positions 0..{N - 1} in two")
    arithmetic = cert.get("arithmetic")
    if arithmetic not in ("GF(p)", "Q"):
        raise _Reject(f"arithmetic must be 'GF(p)' or 'Q', got {arithmetic!r}")
    p = _prime(cert.get("prime"), "prime")
    ring = _Ring(p if arithmetic == "GF(p)" else None)
    raw = cert.get("templates")
    if not isinstance(raw, list) or not raw:
        raise _Reject("templates must be a non-empty list of vectors")
    T = [[ring.of(v, f"templates[{k}]") for v in t] if isinstance(t, list) and len(t) == d
         else _bad(f"templates[{k}] must have length dim = {d}") for k, t in enumerate(raw)]
    rows, cols = cert.get("rows"), cert.get("cols")
    for name, idx, part_ in (("rows", rows, A), ("cols", cols, B)):
        if not isinstance(idx, list) or len(idx) != r:
            raise _Reject(f"{name} must list the {r} template tuples of the minor")
        for k, t in enumerate(idx):
            _indices_any(t, len(T), len(part_), f"{name}[{k}]")
    entries = [[ring.of(v, f"entries[{k}][{j}]") for j, v in enumerate(row)]
               if isinstance(row, list) and len(row) == r else _bad(f"entries[{k}] length")
               for k, row in enumerate(cert.get("entries") or [])]
    if len(entries) != r:
        raise _Reject(f"entries must be the {r} x {r} minor")
    fn = cert.get("function")
    name = fn.get("type") if isinstance(fn, Mapping) else None
    recomputed = name != "opaque"
    if recomputed:
        f = _function(fn, ring, N, d)

        def value(k: int, j: int) -> Number:
            X: list[list[Number]] = [[]] * N
            for pos, t in zip(A, rows[k], strict=True):
                X[pos] = T[t]
            for pos, t in zip(B, cols[j], strict=True):
                X[pos] = T[t]
            return f(X)

        _first_difference(entries, value, rows, cols)
        log.append(f"recomputed the {r * r} entries of the {r} x {r} minor from the {name} "
                   f"function's parameters over {arithmetic} with this checker's own evaluator")
    else:
        log.append("the function is opaque code: its values were NOT recomputed; only the "
                   "minor of the engine's values is checked")
    if r and not _minor_nonzero(entries, p):
        raise _Reject(f"the {r} x {r} minor vanishes modulo p = {p}")
    field_ = f"GF({p})" if arithmetic == "GF(p)" else "Q"
    log.append(f"det != 0 mod p = {p}: the grid matricization over {field_} has rank >= {r}, "
               f"and every grid matricization has rank <= sep_(A,B) (003, Claim 1)")
    return f"sep_({tuple(A)},{tuple(B)})(f) {relation} {r}", recomputed


def _bad(message: str) -> Any:
    raise _Reject(message)


def _indices_any(value: Any, bound: int, length: int, where: str) -> None:
    if (not isinstance(value, list) or len(value) != length or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < bound for v in value)):
        raise _Reject(f"{where} must be {length} template indices in 0..{bound - 1}")


def _kruskal_rank(cert: Mapping[str, Any], log: list[str]) -> tuple[str, bool]:
    m, n = _shape(cert)
    relation, k = _claim(cert, (">=", "="))
    M = _matrix(cert.get("matrix"), (m, n), "matrix")
    if k > min(m, n):
        raise _Reject(f"a {m} x {n} matrix cannot have k-rank {k}")
    if k > 0:
        lower = cert.get("lower")
        if not isinstance(lower, Mapping):
            raise _Reject("a k-rank >= 1 needs 'lower' (prime, projection, exceptions)")
        p = _prime(lower.get("prime"), "lower.prime")
        P = _matrix(lower.get("projection"), (k, m), "lower.projection")
        ring = _Ring(p)
        Mp = [[ring.of(v if isinstance(v, int) else str(v), "matrix") for v in row] for row in M]
        Pp = [[ring.of(v if isinstance(v, int) else str(v), "projection") for v in row]
              for row in P]
        G = [[ring.dot(Pp[a], [Mp[i][j] for i in range(m)]) for j in range(n)]
             for a in range(k)]
        exceptions: dict[tuple[int, ...], Mapping[str, Any]] = {}
        for e in lower.get("exceptions") or []:
            exceptions[tuple(_indices(e.get("cols"), n, "exception cols"))] = e
        count = 0
        for S in itertools.combinations(range(n), k):
            count += 1
            if S in exceptions:
                e = exceptions[S]
                q = _prime(e.get("prime"), "exception prime")
                rows = _indices(e.get("rows"), m, "exception rows")
                if len(rows) != k or not _minor_nonzero([[M[i][j] for j in S] for i in rows], q):
                    raise _Reject(f"columns {S}: the exception's minor vanishes mod {q}")
            elif _rank_mod([[G[a][j] for j in S] for a in range(k)], p) < k:
                raise _Reject(f"columns {S}: the projected minor vanishes mod p = {p} and no "
                              "exception proves them independent")
        log.append(f"all {count} sets of {k} columns are independent (a non-zero k x k minor "
                   f"of P M mod p = {p}, or of M itself for {len(exceptions)} exception(s))")
    if relation == "=":
        upper = cert.get("upper")
        if k == n:
            log.append(f"k-rank <= n = {n} trivially")
        else:
            if not isinstance(upper, Mapping):
                raise _Reject("an exact k-rank below n needs 'upper' (cols, kernel)")
            W = _indices(upper.get("cols"), n, "upper.cols")
            c = [_num(v, "upper.kernel") for v in upper.get("kernel") or []]
            if len(W) != k + 1 or len(c) != k + 1 or not any(c):
                raise _Reject(f"the upper side needs {k + 1} columns and a non-zero kernel vector")
            bad = next((i for i in range(m)
                        if sum(cv * M[i][j] for cv, j in zip(c, W, strict=True)) != 0), None)
            if bad is not None:
                raise _Reject(f"the kernel vector does not annihilate columns {W} (row {bad})")
            log.append(f"columns {W} are dependent (a non-zero c with M[:, W] c = 0, exact): "
                       f"k-rank <= {k}")
    return f"k-rank(M) {relation} {k}", True


_KINDS: dict[str, Callable[[Mapping[str, Any], list[str]], tuple[str, bool]]] = {
    "matrix_rank": _matrix_rank, "grid_rank": _grid_rank, "kruskal_rank": _kruskal_rank}


def _load(certificate: Any) -> Any:
    if isinstance(certificate, Path):
        return json.loads(certificate.read_text(encoding="utf-8"))
    if isinstance(certificate, str):
        return json.loads(certificate)
    return certificate


def verify(certificate: Mapping[str, Any] | str | Path) -> Verification:
    """Check a certificate independently (module docstring): recompute its entries, check the
    minor (and the kernel for an upper side), and say what was verified and how long it took.

    Parameters
    ----------
    certificate : Mapping, str or pathlib.Path
        The certificate as a dict, as JSON text, or the path of a JSON file.

    Returns
    -------
    Verification
        ``ok`` is False -- with the ``reason`` -- for a certificate that does not prove its
        claim, a malformed one, or one of another schema version; ``verify`` never raises on
        bad certificates.

    Examples
    --------
    >>> cert = {"schema": SCHEMA, "version": 1, "kind": "matrix_rank", "shape": [2, 2],
    ...         "claim": {"relation": "=", "value": 1}, "matrix": [[1, 2], [2, 4]],
    ...         "lower": {"prime": 7, "rows": [0], "cols": [0], "entries": [[1]]},
    ...         "upper": {"side": "right", "vectors": [[2, -1]]}}
    >>> verify(cert).ok
    True
    >>> cert["lower"]["entries"] = [[2]]       # not the matrix's entry
    >>> verify(cert).reason
    'entry (0, 0) of the minor (row 0, column 0): the certificate says 2, recomputed 1'
    """
    start = time.perf_counter()
    log: list[str] = []
    kind, claim = "unknown", "?"
    try:
        cert = _load(certificate)
        if not isinstance(cert, Mapping):
            raise _Reject("a certificate is a JSON object")
        kind = str(cert.get("kind"))
        if cert.get("schema") != SCHEMA:
            raise _Reject(f"schema {cert.get('schema')!r} is not {SCHEMA!r}")
        if cert.get("version") != SCHEMA_VERSION:
            raise _Reject(f"schema version {cert.get('version')!r}; this checker reads "
                          f"version {SCHEMA_VERSION}")
        check = _KINDS.get(kind)
        if check is None:
            raise _Reject(f"unknown certificate kind {kind!r}; known: {sorted(_KINDS)}")
        try:
            relation, value = _claim(cert, (">=", "="))
            claim = f"{kind} {relation} {value}"
        except _Reject:
            pass
        claim, recomputed = check(cert, log)
    except _Reject as err:
        return Verification(False, kind, claim, "", time.perf_counter() - start, False,
                            tuple(log), str(err))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError,
            RecursionError) as err:
        return Verification(False, kind, claim, "", time.perf_counter() - start, False,
                            tuple(log), f"malformed certificate: {type(err).__name__}: {err}")
    return Verification(True, kind, claim, "; ".join(log), time.perf_counter() - start,
                        recomputed, tuple(log))


def main(argv: Sequence[str] | None = None) -> int:
    """``python verify.py CERT.json ...``: verify each file; exit status 0 when all verify.

    Examples
    --------
    >>> main([])
    usage: python verify.py CERTIFICATE.json ...
    2
    """
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python verify.py CERTIFICATE.json ...")
        return 2
    failed = 0
    for path in paths:
        v = verify(Path(path))
        failed += not v.ok
        print(f"{path}: {v.summary()}")
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
