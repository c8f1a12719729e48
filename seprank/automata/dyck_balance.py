r"""Dyck languages and the balance condition (004 §3.6, Theorem 1 (Dyck), Corollary 1).

Notation of §3.6: k bracket types, tokens :math:`1..2k` (2t - 1 opens and 2t closes type t),
:math:`\tau_{t,d}` = token t at grammar depth d (a closing bracket sits one level below its
opening one).  The index set of the proof is
:math:`\mathcal I = \{(2t, d): 0 \le d \le D-1\} \cup \{(2t-1, d): 1 \le d \le D\}` with the
rank :math:`r(t,d)` of (3.42), a bijection onto :math:`[2kD]`.

* Balance condition (Definition 14, eq. 3.28): with :math:`M = W_K^{(2)\top}W_Q^{(2)}`,
  :math:`u^\top M v = 0` for every :math:`u = e(\tau_{2i-1,d'}) - e(\tau_{2i,d'-1})` and every
  difference v of two closing-bracket embeddings (the queries; a closing bracket has depth
  <= D - 1, so the printed range :math:`d_1, d_2 \in [D]` is read as 1..D - 1, depth 0 being
  the separate case of the proof).  The solutions form the linear space
  :math:`(U\otimes V)^\perp` of dimension :math:`m^2 - \dim U\cdot\dim V`
  (:func:`balance_solution_space`, exact rank with python-flint); M = 0 (uniform attention,
  Corollary 1) is one of them.
* Sufficiency (proof of Theorem 1, eqs. 3.41-3.51): :func:`balanced_construction` builds
  :math:`W_V^{(2)}` from :math:`W_V E = O` with :math:`O_{:,r(2t,d-1)} = -e^{a_{t,d}}b`,
  :math:`O_{:,r(2t-1,d)} = b` for orthonormal :math:`b \perp \mathbf 1`; then the last column of
  the unnormalised attention output depends only on the unmatched brackets (3.51), so inserting
  matched pairs changes nothing (:func:`attention_output`).  The printed index
  :math:`b_{tD+d}` runs over :math:`D+1..(k+1)D`; :math:`b_{(t-1)D+d}` runs over the
  :math:`kD` vectors the proof's :math:`U' = \sum_{j\le Dk} o_j b_j^\top` reads.
* Embedding (3.37) :math:`e(\tau_{t,d}) = o_{(t-1)D+d}` maps :math:`\tau_{2t,0}` and
  :math:`\tau_{2t-1,D}` to the same vector (k collisions); :math:`o_{r(t,d)}` is injective.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from seprank.automata.examples import REJECT, dyck
from seprank.automata.semiautomaton import LABEL_BYTES, TRANSITION_OPS
from seprank.core.domains import matrix_rank
from seprank.core.memory import OBJECT_ENTRY_BYTES, array_bytes, get_memory_limit, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import FloatArray
from seprank.core.validation import (
    check_array,
    check_bool,
    check_choice,
    check_float,
    check_instance,
    check_int,
    check_work,
    get_work_limit,
)
from seprank.extras import require

__all__ = [
    "BalancedConstruction",
    "attention_output",
    "balance_solution_space",
    "balanced_construction",
    "dyck_prefixes",
    "index_set",
    "insert_matched_pairs",
    "lemma24_gap",
    "minimal_dfa_states",
    "printed_embedding_collisions",
    "random_attention_variation",
    "reachable_stacks",
    "uniform_first_layer",
]

Token = tuple[int, int]               # (type t in 1..2k, depth d)
#: Largest number of prefixes :func:`dyck_prefixes` lists.
MAX_PREFIXES = 1_000_000


def index_set(k: int, D: int) -> list[Token]:
    r""":math:`\mathcal I` in the order of the rank :math:`r(t, d)` of (3.42).

    Parameters
    ----------
    k : int
        The number of bracket types.
    D : int
        The maximum depth.

    Returns
    -------
    list of (int, int)
        The tokens (t, d).

    Examples
    --------
    >>> index_set(2, 2)        # openings at depths 1..D, closings at depths 0..D-1: 2kD tokens
    [(1, 1), (1, 2), (2, 0), (2, 1), (3, 1), (3, 2), (4, 0), (4, 1)]
    """
    kk, DD = check_int("k", k), check_int("D", D)
    guard_memory(2 * kk * DD * 3 * OBJECT_ENTRY_BYTES, what=f"the 2kD = {2 * kk * DD} tokens",
                 fix="lower k or D")
    out = []
    for t in range(1, 2 * kk + 1):
        depths = range(0, DD) if t % 2 == 0 else range(1, DD + 1)
        out += [(t, d) for d in depths]
    return out


def printed_embedding_collisions(k: int, D: int) -> tuple[int, int]:
    r"""(distinct vectors, tokens) of the printed (3.37) :math:`o_{(t-1)D+d}` over
    :math:`\mathcal I`; the rank :math:`r(t,d)` gives :math:`2kD` distinct vectors.

    Parameters
    ----------
    k : int
        The number of bracket types.
    D : int
        The maximum depth.

    Returns
    -------
    (int, int)
        Distinct vectors and tokens.

    Examples
    --------
    >>> printed_embedding_collisions(2, 3)     # 12 = 2kD tokens share 10 printed vectors
    (10, 12)
    """
    tokens = index_set(k, D)
    return len({(t - 1) * D + d for t, d in tokens}), len(tokens)


#: Largest number of decimal digits a count of :func:`reachable_stacks` is written with.
MAX_COUNT_DIGITS = 100_000


def reachable_stacks(types: int, depth: int, *,
                     method: Literal["auto", "enumerate", "closed_form"] = "auto"
                     ) -> tuple[int, int]:
    r"""(stacks reachable from the empty stack, :math:`(k+1)^n` classes) for
    Dyck\ :sub:`n,k` of §3.4.5 (n = depth, k = types): :math:`\sum_{i=0}^n k^i` are reachable
    (footnote 29).

    Parameters
    ----------
    types, depth : int
        k and n.
    method : {'auto', 'enumerate', 'closed_form'}, keyword-only
        ``'enumerate'`` counts the states a breadth-first search reaches in :func:`dyck`'s
        automaton (an independent check of footnote 29; refused beyond the memory policy and
        the work budget); ``'closed_form'`` is :math:`(k^{n+1}-1)/(k-1)` (:math:`n+1` for
        k = 1), exact for any size; ``'auto'`` enumerates what fits and uses the closed form
        beyond (the same numbers).

    Returns
    -------
    (int, int)
        Reachable stacks and classes.

    Examples
    --------
    >>> reachable_stacks(2, 3)                 # 1 + 2 + 4 + 8 stacks of 3^3 classes
    (15, 27)
    >>> reach, classes = reachable_stacks(10, 40)          # 10^40 stacks: never enumerated
    >>> reach == (10**41 - 1) // 9, classes == 11**40
    (True, True)
    """
    k, n = check_int("types", types), check_int("depth", depth)
    check_choice("method", method, ("auto", "enumerate", "closed_form"))
    if (n + 1) * math.log10(k + 1) > MAX_COUNT_DIGITS:
        raise ValueError(f"Dyck_{n},{k} has about 10^{n * math.log10(max(k, 2)):.4g} stacks: "
                         f"more than {MAX_COUNT_DIGITS} digits to write; lower depth or types")
    closed = n + 1 if k == 1 else (k ** (n + 1) - 1) // (k - 1)
    per_state = LABEL_BYTES + 8 * n + 2 * k * 8
    fits = (closed * per_state <= get_memory_limit()
            and closed * 2 * k * TRANSITION_OPS <= get_work_limit())
    if method == "closed_form" or (method == "auto" and not fits):
        return closed, (k + 1) ** n
    A = dyck(k, n)                                    # refused beyond the policies
    return len(A.reachable_states(()) - {REJECT}), (k + 1) ** n


def minimal_dfa_states(types: int, depth: int) -> int:
    r"""States of the minimal DFA of the valid prefixes of Dyck\ :sub:`depth,types` (every
    stack accepting, the reject sink not), by automata-lib's minimisation -- an independent
    route to :func:`reachable_stacks` (it should give :math:`\sum_i k^i` + 1 for the sink).

    Parameters
    ----------
    types : int
        k, the number of bracket types.
    depth : int
        The maximum depth.

    Returns
    -------
    int
        The number of states.

    Examples
    --------
    >>> minimal_dfa_states(2, 4)
    32
    """
    DFA = require("automata.fa.dfa", feature="the minimal Dyck automaton (automata-lib)").DFA

    k, n = check_int("types", types), check_int("depth", depth)
    stacks = n + 1 if k == 1 else math.inf if n * math.log(k) > 40 else (
        (k ** (n + 1) - 1) // (k - 1))
    guard_memory(stacks * 2 * k * 4 * OBJECT_ENTRY_BYTES,
                 what=f"automata-lib's DFA of Dyck_{n},{k} ({stacks} states, {2 * k} inputs)",
                 fix="lower types or depth")
    A = dyck(k, n)
    names = {q: str(i) for i, q in enumerate(A.states)}
    transitions = {names[q]: {str(s): names[A.delta(q, s)] for s in A.alphabet}
                   for q in A.states}
    dfa = DFA(states=set(names.values()), input_symbols={str(s) for s in A.alphabet},
              transitions=transitions, initial_state=names[()],
              final_states={names[q] for q in A.states if q != REJECT})
    return len(dfa.minify().states)


def dyck_prefixes(k: int, D: int, N: int) -> list[list[Token]]:
    r"""Every valid prefix of length N of Dyck\ :sub:`k,D` (3.19) as (token, depth) lists.

    Parameters
    ----------
    k : int
        The number of bracket types.
    D : int
        The maximum depth.
    N : int
        The prefix length.

    Returns
    -------
    list of list of (int, int)
        The prefixes.

    Examples
    --------
    >>> dyck_prefixes(1, 2, 2)                 # "((" and "()"
    [[(1, 1), (1, 2)], [(1, 1), (2, 0)]]
    >>> import math
    >>> len(dyck_prefixes(1, 6, 6)) == math.comb(6, 3)   # ballot paths of length 6
    True
    """
    kk, DD, n = check_int("k", k), check_int("D", D), check_int("N", N, minimum=0)
    # one prefix is n tokens; count them first (paths of the depth walk, k choices per
    # opening), in O(n D) steps, and refuse more than MAX_PREFIXES before listing any
    guard_memory(n * 2 * OBJECT_ENTRY_BYTES, what=f"a prefix of length {n}",
                 fix="choose a shorter length N")
    check_work(n * (min(DD, n) + 1) * 10, what=f"counting the prefixes of length {n}",
               fix="choose a shorter length N")
    ways = [1] + [0] * min(DD, n)                          # ways[d]: prefixes at depth d
    for _ in range(n):
        nxt = [0] * len(ways)
        for d, w in enumerate(ways):
            if w:
                if d + 1 < len(ways):
                    nxt[d + 1] += w * kk
                if d:
                    nxt[d - 1] += w
        ways = [min(v, MAX_PREFIXES + 1) for v in nxt]
    if sum(ways) > MAX_PREFIXES:
        raise ValueError(f"Dyck_{kk},{DD} has more than MAX_PREFIXES = {MAX_PREFIXES} valid "
                         f"prefixes of length {n}; choose a shorter length N")
    guard_memory(sum(ways) * n * 2 * OBJECT_ENTRY_BYTES,
                 what=f"{sum(ways)} prefixes of length {n}", fix="choose a shorter length N")
    out: list[list[Token]] = []
    work: list[tuple[list[Token], list[int]]] = [([], [])]
    while work:                                            # depth first, in the same order
        prefix, stack = work.pop()
        if len(prefix) == n:
            out.append(prefix)
            continue
        children = []
        if len(stack) < DD:
            children += [([*prefix, (2 * t - 1, len(stack) + 1)], [*stack, t])
                         for t in range(1, kk + 1)]
        if stack:
            children.append(([*prefix, (2 * stack[-1], len(stack) - 1)], stack[:-1]))
        work.extend(reversed(children))
    return out


def _embeddings(k: int, D: int, m: int) -> tuple[dict[Token, FloatArray], FloatArray]:
    guard_memory(array_bytes((2 * k * D + 1, m)), what=f"{2 * k * D + 1} one-hot embeddings "
                 f"in R^{m}", fix="lower k or D")
    tokens = index_set(k, D)
    if m < len(tokens) + 1:
        raise ValueError(f"one-hot embeddings need m >= 2kD + 1 = {len(tokens) + 1}, got {m}")
    eye = np.eye(m)
    return {tok: eye[i] for i, tok in enumerate(tokens)}, eye[len(tokens)]


def balance_solution_space(k: int, D: int, *, embeddings: str = "one_hot",
                           extra_dims: int = 2) -> tuple[int, int, int, int]:
    r"""Exact dimension of the solution space of the balance condition (3.28).

    Parameters
    ----------
    k, D : int
        Types and maximal depth.
    embeddings : {'one_hot', 'type_depth'}, keyword-only
        ``'one_hot'``: :math:`o_{r(t,d)}` in :math:`m = 2kD + 1 + ` ``extra_dims``
        dimensions; ``'type_depth'``: (3.38) :math:`o_t \oplus o_{d+1}` (m = 2k + D + 1).
    extra_dims : int, keyword-only
        Spare dimensions of the one-hot embedding (the start token takes one more).

    Returns
    -------
    (dim, m, dim U, dim V)
        ``dim`` = :math:`m^2 - \operatorname{rank}` of the constraint matrix (exact, flint), and
        the dimensions whose product that rank must equal.

    Examples
    --------
    >>> balance_solution_space(2, 3)          # m = 15: 225 - 6 * 3
    (207, 15, 6, 3)
    """
    kk, DD = check_int("k", k), check_int("D", D)
    check_choice("embeddings", embeddings, ("one_hot", "type_depth"))
    extra = check_int("extra_dims", extra_dims, minimum=0)
    m_est = 2 * kk * DD + 1 + extra if embeddings == "one_hot" else 2 * kk + DD + 1
    n_rows = kk * DD * max(kk * max(DD - 1, 0) - 1, 0)
    guard_memory(array_bytes((n_rows, m_est * m_est), np.int64) * 4,
                 what=f"the {n_rows} x {m_est}^2 constraint matrix of (3.28) and its rank",
                 fix="lower k or D")
    if embeddings == "one_hot":
        emb, _ = _embeddings(kk, DD, m_est)
    else:
        m = 2 * kk + DD + 1
        eye = np.eye(m)
        emb = {(t, d): eye[t - 1] + eye[2 * kk + d] for t, d in index_set(kk, DD)}
    m = len(next(iter(emb.values())))
    U = [emb[(2 * i - 1, d)] - emb[(2 * i, d - 1)] for i in range(1, kk + 1)
         for d in range(1, DD + 1)]
    queries = [emb[(2 * j, d)] for j in range(1, kk + 1) for d in range(1, DD)]
    V = [q - queries[0] for q in queries[1:]]
    rows = [np.outer(u, v).ravel() for u in U for v in V]
    to_int = np.rint(np.array(rows)).astype(np.int64) if rows else np.zeros((0, m * m), int)
    rank = matrix_rank(to_int, method="exact").rank if rows else 0
    dim_u = matrix_rank(np.rint(np.array(U)).astype(np.int64), method="exact").rank
    dim_v = (matrix_rank(np.rint(np.array(V)).astype(np.int64), method="exact").rank
             if V else 0)
    return m * m - rank, m, dim_u, dim_v


@dataclass(frozen=True)
class BalancedConstruction:
    """The sufficiency construction of Theorem 1 (Dyck): embeddings, M, a, b, W_V.

    Parameters
    ----------
    k : int
        The number of bracket types.
    D : int
        The maximum depth.
    embed : dict
        Token (t, d) -> its embedding.
    start : numpy.ndarray
        The start token's embedding.
    M : numpy.ndarray
        The attention matrix (satisfying 3.28).
    a : dict
        The coefficients :math:`a_{t,d}`.
    b : numpy.ndarray
        The vector b.
    W_V : numpy.ndarray
        The value matrix.
    """

    k: int
    D: int
    embed: dict[Token, FloatArray]
    start: FloatArray
    M: FloatArray
    a: dict[tuple[int, int], float]
    b: FloatArray
    W_V: FloatArray

    def b_index(self, t: int, d: int) -> int:
        """0-based index of :math:`b_{(t-1)D+d}` (the corrected index).

        Parameters
        ----------
        t : int
            The token type.
        d : int
            The depth.

        Returns
        -------
        int
            The index.
        """
        return (t - 1) * self.D + d - 1


def balanced_construction(k: int, D: int, *, seed: SeedLike = None, violation: float = 0.0,
                          extra_dims: int = 2) -> BalancedConstruction:
    r"""Random M satisfying (3.28) and the value matrix of eqs. (3.41)-(3.46).

    M is a random Gaussian matrix with its :math:`U\otimes V` part projected out (so
    :math:`u^\top Mv = 0`), plus ``violation`` times a random matrix (a perturbation).

    Parameters
    ----------
    k : int
        The number of bracket types.
    D : int
        The maximum depth.
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds M.
    violation : float, keyword-only
        Size of the perturbation of (3.28) (default 0).
    extra_dims : int, keyword-only
        Extra embedding dimensions (default 2).

    Returns
    -------
    BalancedConstruction
        The construction.

    Examples
    --------
    >>> C = balanced_construction(2, 3, seed=0)
    >>> p = [(1, 1), (3, 2), (4, 1)]                 # "( [ ]": last token closes at depth 1
    >>> base = attention_output(C, p)
    >>> moved = attention_output(C, insert_matched_pairs(p, [(0, 1, 1), (1, 2, 2)]))
    >>> bool(np.abs(moved - base).max() < 1e-12 * np.abs(base).max())
    True
    """
    kk, DD = check_int("k", k), check_int("D", D)
    violation = check_float("violation", violation)
    rng = as_generator(seed)
    m = 2 * kk * DD + 1 + check_int("extra_dims", extra_dims, minimum=1)
    guard_memory(array_bytes((m, m)) * 12 + array_bytes((m, kk * DD + 1)) * 3,
                 what=f"the {m} x {m} matrices of the construction", fix="lower k or D")
    emb, start = _embeddings(kk, DD, m)
    U = np.array([emb[(2 * i - 1, d)] - emb[(2 * i, d - 1)] for i in range(1, kk + 1)
                  for d in range(1, DD + 1)])
    queries = [emb[(2 * j, d)] for j in range(1, kk + 1) for d in range(1, DD)]
    V = np.array([q - queries[0] for q in queries[1:]]) if len(queries) > 1 else np.zeros((0, m))
    M0 = rng.standard_normal((m, m))
    Pu = _projector(U)
    Pv = _projector(V)
    M = M0 - Pu @ M0 @ Pv + violation * rng.standard_normal((m, m))
    a = {(i, d): float((emb[(2 * i - 1, d)] - emb[(2 * i, d - 1)]) @ M @ queries[0])
         for i in range(1, kk + 1) for d in range(1, DD + 1)}
    ones = np.ones((m, 1)) / math.sqrt(m)
    basis = np.linalg.qr(np.concatenate([ones, rng.standard_normal((m, kk * DD))], axis=1))[0]
    b = basis[:, 1:kk * DD + 1].T                      # kD orthonormal rows, each ⊥ 1
    tokens = index_set(kk, DD)
    E = np.stack([emb[tok] for tok in tokens] + [start], axis=1)
    O = np.zeros_like(E)
    for t in range(1, kk + 1):
        for d in range(1, DD + 1):
            j = (t - 1) * DD + d - 1
            O[:, tokens.index((2 * t, d - 1))] = -math.exp(a[(t, d)]) * b[j]
            O[:, tokens.index((2 * t - 1, d))] = b[j]
    W_V = O @ np.linalg.pinv(E)
    return BalancedConstruction(kk, DD, emb, start, M, a, b, W_V)


def _check_tokens(name: str, prefix: Any, k: int | None) -> list[Token]:
    """``prefix`` as a list of (token, depth) pairs of integers (token in 1..2k when k is
    given); a ValueError / TypeError naming ``name`` otherwise."""
    if isinstance(prefix, str | bytes) or not isinstance(prefix, Sequence):
        raise TypeError(f"{name} must be a list of (token, depth) pairs, got {prefix!r}")
    out = []
    for tok in prefix:
        if isinstance(tok, str | bytes) or not isinstance(tok, Sequence) or len(tok) != 2:
            raise ValueError(f"{name} must hold (token, depth) pairs of integers, got {tok!r}")
        t, d = (check_int(f"{name}: token", tok[0], 1), check_int(f"{name}: depth", tok[1], 0))
        if k is not None and t > 2 * k:
            raise ValueError(f"{name} holds the token {t}, outside 1..2k = 1..{2 * k}")
        out.append((t, d))
    return out


def _projector(rows: FloatArray) -> FloatArray:
    if rows.size == 0:
        return np.zeros((rows.shape[1], rows.shape[1]))
    Q, R = np.linalg.qr(rows.T)
    keep = np.abs(np.diag(R)) > 1e-12
    Q = Q[:, keep]
    return Q @ Q.T


def attention_output(C: BalancedConstruction, prefix: Sequence[Token]) -> FloatArray:
    r"""Last column of the unnormalised second-layer attention output (3.26), with the start
    token: :math:`\sum_s P_\perp e^{x_s^\top M x_n} W_V x_s` (query = the last token).

    Parameters
    ----------
    C : BalancedConstruction
        The construction.
    prefix : sequence of (int, int)
        The prefix as (token, depth) pairs.

    Returns
    -------
    numpy.ndarray
        The output vector.

    Examples
    --------
    >>> C = balanced_construction(2, 3, seed=0)
    >>> out = attention_output(C, [(1, 1), (3, 2), (4, 1)])
    >>> out.shape, bool(abs(out.sum()) < 1e-12)          # P_perp removes the all-ones direction
    ((15,), True)
    """
    check_instance("C", C, BalancedConstruction, expected="a BalancedConstruction",
                   hint="build it with balanced_construction(k, D)")
    tokens = _check_tokens("prefix", prefix, C.k)
    unknown = [tok for tok in tokens if tok not in C.embed]
    if unknown:
        raise ValueError(f"prefix holds tokens outside the index set of Dyck_{C.k},{C.D}: "
                         f"{unknown[:3]} (token types 1..{2 * C.k}, depths 0..{C.D})")
    X = np.stack([C.start] + [C.embed[tok] for tok in tokens])
    q = X[-1]
    w = np.exp(X @ C.M @ q)
    out = (w[:, None] * (X @ C.W_V.T)).sum(axis=0)
    return out - out.mean()


def insert_matched_pairs(prefix: Sequence[Token],
                         pairs: Sequence[tuple[int, int, int]]) -> list[Token]:
    r"""Insert matched pairs :math:`(\tau_{2i-1,d'}, \tau_{2i,d'-1})`: each ``(position, i,
    d')`` inserts before ``prefix[position]`` (applied in order, positions in the growing list),
    where the depth just before that position must be :math:`d' - 1`.

    Parameters
    ----------
    prefix : sequence of (int, int)
        The prefix.
    pairs : sequence of (int, int, int)
        ``(position, i, d')`` per pair.

    Returns
    -------
    list of (int, int)
        The longer prefix.

    Examples
    --------
    >>> insert_matched_pairs([(1, 1), (2, 0)], [(1, 2, 2)])   # "(" then "[]" inside, then ")"
    [(1, 1), (3, 2), (4, 1), (2, 0)]
    >>> insert_matched_pairs([(1, 1), (2, 0)], [(1, 1, 1)])   # depth 1 there, not 0
    Traceback (most recent call last):
    ValueError: cannot insert a depth-1 pair at position 1: the depth there is 1 ...
    """
    out: list[tuple[int, int]] = list(_check_tokens("prefix", prefix, None))
    if isinstance(pairs, str | bytes) or not isinstance(pairs, Sequence):
        raise TypeError(f"pairs must be a list of (position, i, d') triples, got {pairs!r}")
    checked = []
    for pair in pairs:
        if isinstance(pair, str | bytes) or not isinstance(pair, Sequence) or len(pair) != 3:
            raise ValueError(f"pairs must hold (position, i, d') triples of integers, got "
                             f"{pair!r}")
        checked.append(tuple(check_int("pairs: entry", v, None) for v in pair))
    for pos, i, dp in checked:
        depth_before = out[pos - 1][1] if pos > 0 else 0
        if not 0 <= pos < len(out) or depth_before != dp - 1:
            raise ValueError(f"cannot insert a depth-{dp} pair at position {pos}: the depth "
                             f"there is {depth_before} (need {dp - 1}; the last token stays "
                             "last)")
        out[pos:pos] = [(2 * i - 1, dp), (2 * i, dp - 1)]
    return out


def uniform_first_layer(prefix: Sequence[Token], k: int, *,
                        start_token: bool = True) -> FloatArray:
    r"""Corollary 1's first layer at the last position: uniform causal attention over the
    one-hot tokens (:math:`o_{2k+1}` = start), :math:`W_V^{(1)}` = (depth, start) channels,
    LayerNorm with :math:`C_{LN} = 0` (0 maps to 0), plus the residual one-hot token.

    Parameters
    ----------
    prefix : sequence of (int, int)
        The prefix.
    k : int
        The number of bracket types.
    start_token : bool, keyword-only
        Include the start token (default True).

    Returns
    -------
    numpy.ndarray
        The output at the last position.

    Examples
    --------
    >>> import numpy as np
    >>> z = uniform_first_layer([(1, 1), (3, 2)], 2)     # k = 2: 2k + 1 = 5 channels
    >>> last = np.eye(5)[3 - 1]                          # the residual one-hot of token 3
    >>> round(float(np.linalg.norm(z - last)), 12)       # the LayerNorm output has unit norm
    1.0
    """
    kk = check_int("k", k)
    start_token = check_bool("start_token", start_token)
    m = 2 * kk + 1
    tokens = _check_tokens("prefix", prefix, kk)
    if not tokens:
        raise ValueError(f"prefix must be a non-empty list of (token in 1..{2 * kk}, depth)")
    prefix = tokens
    Z = np.zeros((len(prefix) + int(start_token), m))
    if start_token:
        Z[0, 2 * kk] = 1.0
    for row, (t, _) in enumerate(prefix, start=int(start_token)):
        Z[row, t - 1] = 1.0
    avg = Z.mean(axis=0)
    v = np.zeros(m)
    v[0] = sum(avg[2 * i] - avg[2 * i + 1] for i in range(kk))
    v[1] = avg[2 * kk]
    v -= v.mean()
    norm = np.linalg.norm(v)
    ln = v / norm if norm > 0 else v
    return ln + Z[-1]


def lemma24_gap(a: npt.ArrayLike, b: npt.ArrayLike, r: npt.ArrayLike) -> Any:
    r"""Lemma 24's left side :math:`\|\frac{a+r}{\|a+r\|} - \frac{b+r}{\|b+r\|}\|_2`; the lemma
    (§3.6.4.2) bounds it by :math:`\epsilon` once :math:`\|r\| \ge R_\epsilon\max(\|a\|,\|b\|)`.
    :math:`R_\epsilon = 4/\epsilon + 1` suffices; the proof's :math:`4r_0/\epsilon + 1` is not
    scale-free (claim ``AUT-Lemma24-constant``).  Batched over leading axes (vectors on the
    last axis); a float for single vectors.

    Parameters
    ----------
    a, b : array_like
        The two vectors.
    r : array_like
        The common shift.

    Returns
    -------
    float or numpy.ndarray
        The gap.

    Examples
    --------
    >>> round(lemma24_gap([0, 0.1], [0, -0.1], [0.5, 0]), 4)       # 2 sin(atan 0.2)
    0.3922
    """
    av, bv, rv = (check_array(name, v) for name, v in (("a", a), ("b", b), ("r", r)))
    if not (av.shape == bv.shape == rv.shape and av.ndim >= 1):
        raise ValueError("a, b, r must be arrays of one shape (vectors on the last axis)")
    x, y = av + rv, bv + rv
    nx = np.linalg.norm(x, axis=-1, keepdims=True)
    ny = np.linalg.norm(y, axis=-1, keepdims=True)
    if np.any(nx == 0) or np.any(ny == 0):
        raise ValueError("a + r and b + r must be non-zero")
    gap = np.linalg.norm(x / nx - y / ny, axis=-1)
    return float(gap) if gap.ndim == 0 else gap


def random_attention_variation(N: int, *, causal: bool = True, n_patterns: int = 40,
                               seed: SeedLike = None) -> tuple[float, float]:
    r"""(exact mean, one Monte Carlo draw) of :math:`\|A_1 - A_2\|_F^2` for random attention
    patterns with rows uniform on the simplex (footnote 61); exact: causal
    :math:`\sum_{n=1}^N \frac{2(n-1)}{n(n+1)}`, full :math:`N\cdot\frac{2(N-1)}{N(N+1)}`.  The
    draw averages over all pairs of ``n_patterns`` patterns (as the 40 initialisations).

    Parameters
    ----------
    N : int
        The sequence length.
    causal : bool, keyword-only
        Causal (default) or full attention.
    n_patterns : int, keyword-only
        Patterns drawn (default 40).
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the draw.

    Returns
    -------
    (float, float)
        The exact mean and the Monte Carlo estimate.

    Examples
    --------
    >>> exact, draw = random_attention_variation(2, seed=0)
    >>> round(exact, 12)                      # 0 for the first row + 2/(2*3) for the second
    0.333333333333
    >>> exact, draw = random_attention_variation(10, n_patterns=400, seed=0)
    >>> bool(abs(draw - exact) < 0.05 * exact)
    True
    """
    n = check_int("N", N)
    causal = check_bool("causal", causal)
    k = check_int("n_patterns", n_patterns, minimum=2)
    rng = as_generator(seed)
    guard_memory(4 * array_bytes((k, n, n)), what=f"{k} random {n} x {n} attention patterns",
                 fix="lower N or n_patterns")
    exact = (sum(2 * (r - 1) / (r * (r + 1)) for r in range(1, n + 1)) if causal
             else 2 * (n - 1) / (n + 1))
    E = rng.exponential(size=(k, n, n))               # Dirichlet(1) rows = normalised Exp(1)
    if causal:
        E = E * np.tril(np.ones((n, n)))
    P = E / E.sum(axis=2, keepdims=True)
    # mean over pairs i < j of ||P_i - P_j||^2 = 2 sum_i ||P_i - mean||^2 / (k - 1)
    spread = float(np.sum((P - P.mean(axis=0)) ** 2))
    return exact, 2 * spread / (k - 1)
