r"""The bridge to the toolkit's core (ours, not in the thesis): separation ranks of automata.

**The final state as a function of T vectors.**  For a semiautomaton with transition matrices
:math:`A_\sigma` (004 §3.3.1) and one-hot inputs :math:`x_t\in\mathbb R^{|\Sigma|}`,
:math:`f_q(x_1,\dots,x_T) = e_q^\top A(x_T)\cdots A(x_1)e_{q_0}`, :math:`A(x) =
\sum_\sigma x_\sigma A_\sigma`, is the multilinear extension of :math:`\mathbf 1[q_T = q]`.
Being multilinear, its separation rank across a partition (A, B) of the positions (003, eq. 5)
*equals* the rank of its coefficient matrix -- the 0/1 matrix
:math:`[\mathbf 1\{q_T(a \sqcup b) = q\}]` over all words a on A and b on B
(:func:`coefficient_rank`, exact with python-flint).  :func:`cut_separation_rank` also runs
:func:`seprank.separation_rank` on :math:`f_q` in GF(p) (a certified lower bound) and compares
both with the proven upper bounds of :func:`cut_rank_bound`:

* *bond dimension*: the positions split into m maximal blocks of one part; inserting
  :math:`I = \sum_r e_re_r^\top` between blocks gives rank :math:`\le |Q|^{m-1}` -- at most
  :math:`|Q|` for a contiguous cut (a matrix-product state of bond dimension :math:`|Q|`);
* *semigroup*: f depends on the B part only through the maps of its blocks, so rank
  :math:`\le \prod_{\beta\subset B}|\mathcal T_{|\beta|}|` (maps realised by words of that length;
  the first block counts reachable states, not maps), and the same for A;
* *commutative*: if :math:`\mathcal T(\mathcal A)` is commutative f depends on each part only
  through the product of its letters, so rank :math:`\le |\mathcal T^1|` for *every* cut (a
  modular counter: at most n, the DFT of :math:`\mathbf 1[\sum\sigma \equiv q - q_0]`).

Interleaved cuts therefore grow with the number of alternations for non-commutative automata
(flip-flop, :math:`S_3`, gridworld) and stay flat for counters.

:func:`score_kernel_rank` gives the separation rank of an attention score kernel
:math:`(x, y) \mapsto x^\top W_QW_K^\top y` across (query | key): the exact rank of
:math:`W_QW_K^\top`; and :func:`realized_kernel_rank` the rank of the softmax kernel
:math:`e^{x^\top Wy}` on the token/position vectors a construction actually uses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.automata.semiautomaton import Semiautomaton
from seprank.core.domains import Domain, FloatDomain, matrix_rank
from seprank.core.grid import GridTooLargeError, matricize
from seprank.core.memory import array_bytes, get_memory_limit, guard_memory
from seprank.core.random import SeedLike
from seprank.core.rank import RankResult
from seprank.core.results import Certificate, CertifiedResult, Method
from seprank.core.types import Array
from seprank.core.validation import (
    check_array,
    check_choice,
    check_float,
    check_instance,
    check_int,
)
from seprank.separation import separation_rank, validate_partition

__all__ = [
    "CutRankResult",
    "coefficient_rank",
    "cut_rank_bound",
    "cut_separation_rank",
    "final_state_function",
    "final_state_grid",
    "realized_kernel_rank",
    "score_kernel_rank",
]

#: Largest coefficient matrix (rows x columns) :func:`coefficient_rank` builds.
MAX_COEFFICIENT_ENTRIES = 4_000_000
#: Largest grid (templates^T points) :func:`cut_separation_rank` evaluates.
MAX_GRID_POINTS = 1 << 20


def final_state_function(automaton: Semiautomaton, q0: object, q: object) -> Any:
    r""":math:`f_q(X) = e_q^\top A(x_T)\cdots A(x_1) e_{q_0}` for a batch ``X`` of shape
    ``(batch, T, |Sigma|)``, evaluated in any number domain (``domain=``; integer arithmetic
    in GF(p) or exactly, floats otherwise).

    Parameters
    ----------
    automaton : Semiautomaton
        The automaton.
    q0 : state
        The start state.
    q : state
        The final state of the indicator.

    Returns
    -------
    callable
        ``f(X, domain=None)`` -> values, shape ``(batch,)``.

    Examples
    --------
    >>> import numpy as np
    >>> from seprank.automata.examples import BOT, flip_flop
    >>> A = flip_flop()
    >>> f = final_state_function(A, 1, 2)          # 1 when the run from state 1 ends in 2
    >>> onehot = lambda words: np.eye(A.n_symbols)[[A.encode(w) for w in words]]
    >>> f(onehot([[1, BOT, 2], [2, BOT, 1], [2, BOT, BOT]]))
    array([1., 0., 1.])
    >>> mixed = 0.25 * onehot([[1, BOT, BOT]]) + 0.75 * onehot([[2, BOT, BOT]])
    >>> f(mixed)                                   # multilinear: linear in each position
    array([0.75])
    """
    _check_automaton(automaton)
    i0, iq = automaton.state_index(q0, name="q0"), automaton.state_index(q, name="q")
    mats = automaton.transition_matrices()          # [sigma][q', q]

    def f(X: Array, domain: Domain | None = None) -> Array:
        dom: Domain = FloatDomain() if domain is None else domain
        if domain is None:
            X = check_array("X", X, ndim=3, what="(batch, T, |Sigma|) inputs")
        Xd = dom.asarray(X)
        if Xd.ndim != 3 or Xd.shape[2] != automaton.n_symbols:
            raise ValueError(f"X must have shape (batch, T, |Sigma| = {automaton.n_symbols}), "
                             f"got {Xd.shape}")
        B, T = Xd.shape[0], Xd.shape[1]
        v = np.zeros((B, automaton.n_states), dtype=np.int64)
        v[:, i0] = 1
        v = dom.asarray(v)
        for t in range(T):
            acc = dom.mul(dom.matmul(v, dom.asarray(mats[0].T)), Xd[:, t, 0:1])
            for a in range(1, automaton.n_symbols):
                moved = dom.matmul(v, dom.asarray(mats[a].T))
                acc = dom.add(acc, dom.mul(moved, Xd[:, t, a:a + 1]))
            v = acc
        return v[:, iq]

    return f


def coefficient_rank(automaton: Semiautomaton, q0: object, q: object, T: int,
                     partition: tuple[Sequence[int], Sequence[int]]) -> int:
    r"""Exact rank (python-flint) of :math:`[\mathbf 1\{q_T(a\sqcup b) = q\}]_{a,b}` over all
    words a on the positions of A and b on those of B: the separation rank of :math:`f_q`.

    Parameters
    ----------
    automaton : Semiautomaton
        The automaton.
    q0 : state
        The start state.
    q : state
        The final state of the indicator.
    T : int
        The word length.
    partition : (sequence of int, sequence of int)
        The positions (A, B).

    Returns
    -------
    int
        The separation rank of :math:`f_q`.

    Examples
    --------
    >>> from seprank.automata.examples import flip_flop, modular_counter
    >>> coefficient_rank(modular_counter(3), 0, 0, 4, ([0, 1], [2, 3]))   # contiguous: |Q|
    3
    >>> coefficient_rank(flip_flop(), 1, 1, 4, ([0, 1], [2, 3])), \
    ...     coefficient_rank(flip_flop(), 1, 1, 4, ([0, 2], [1, 3]))      # interleaved: more
    (2, 4)
    """
    _check_automaton(automaton)
    n = check_int("T", T, minimum=2)
    A, B = validate_partition(partition, n)
    i0, iq = automaton.state_index(q0, name="q0"), automaton.state_index(q, name="q")
    _check_coefficient_size(automaton.n_symbols, len(A), len(B))
    s = automaton.n_symbols
    words = automaton.all_words(n)
    finals = automaton.run_indices(words, i0)[:, -1]
    values = (finals == iq).astype(np.int64)
    grid = values.reshape((s,) * n)
    E = np.transpose(grid, (*A, *B)).reshape(s ** len(A), s ** len(B))
    return matrix_rank(E, method="exact").rank


def _check_automaton(automaton: Any) -> None:
    check_instance("automaton", automaton, Semiautomaton, expected="a Semiautomaton",
                   hint="e.g. flip_flop() or modular_counter(3)")


def _check_coefficient_size(s: int, a: int, b: int) -> None:
    """Refuse a coefficient matrix of s^a x s^b entries above the limit, comparing through
    logarithms (no power with thousands of digits is formed or printed)."""
    if s > 1 and (a + b) * math.log(s) > math.log(MAX_COEFFICIENT_ENTRIES):
        raise ValueError(f"the coefficient matrix has {s}^{a} x {s}^{b} entries (about "
                         f"10^{(a + b) * math.log10(s):.4g}), above MAX_COEFFICIENT_ENTRIES = "
                         f"{MAX_COEFFICIENT_ENTRIES}; the exact separation rank is computed "
                         f"for T with |Sigma|^T <= {MAX_COEFFICIENT_ENTRIES} only (lower T)")


def _eventually_periodic(step: Any, start: Any, lengths: Sequence[int]) -> dict[int, Any]:
    """``x_1 = start``, ``x_{t+1} = step(x_t)`` read at every length of ``lengths``, the
    sequence being followed until a value repeats (then it is periodic): finite-state
    iterations at any length, such as the reachable sets of :func:`cut_rank_bound`."""
    wanted = sorted(set(lengths))
    seen: dict[Any, int] = {start: 1}
    values = [start]
    out: dict[int, Any] = {}
    x, t = start, 1
    for ell in wanted:
        while t < ell:
            x = step(x)
            t += 1
            if x in seen:                            # periodic: x_t = x_{first}
                first = seen[x]
                period = t - first
                for e in wanted:
                    out[e] = values[e - 1] if e < t else values[first - 1 + (e - first) % period]
                return out
            seen[x] = t
            values.append(x)
        out[ell] = x
    return out


def _blocks(A: Sequence[int], B: Sequence[int], T: int) -> list[tuple[str, int, int]]:
    part = {p: "A" for p in A} | {p: "B" for p in B}
    blocks: list[tuple[str, int, int]] = []
    for t in range(T):
        if blocks and blocks[-1][0] == part[t]:
            side, start, _ = blocks[-1]
            blocks[-1] = (side, start, t + 1)
        else:
            blocks.append((part[t], t, t + 1))
    return blocks


def cut_rank_bound(automaton: Semiautomaton, q0: object, T: int,
                   partition: tuple[Sequence[int], Sequence[int]]) -> dict[str, int]:
    """The proven upper bounds of the module docstring, by name, and their minimum
    (``"bound"``).

    Parameters
    ----------
    automaton : Semiautomaton
        The automaton.
    q0 : state
        The start state.
    T : int
        The word length.
    partition : (sequence of int, sequence of int)
        The positions (A, B).

    Returns
    -------
    dict of str to int
        Each bound by name and ``"bound"``, their minimum.

    Examples
    --------
    >>> from seprank.automata.examples import flip_flop
    >>> b = cut_rank_bound(flip_flop(), 1, 4, ([0, 1], [2, 3]))
    >>> b["blocks"], b["bond"], b["bound"]         # 2 blocks: bond dimension |Q|^1
    (2, 2, 2)
    >>> b = cut_rank_bound(flip_flop(), 1, 4, ([0, 2], [1, 3]))
    >>> b["blocks"], b["bond"], b["bound"]         # 4 blocks: |Q|^3 = 8, semigroup bound 6
    (4, 8, 6)
    """
    _check_automaton(automaton)
    n = check_int("T", T, minimum=2)
    A, B = validate_partition(partition, n)
    i0 = automaton.state_index(q0, name="q0")
    blocks = _blocks(A, B, n)
    S = automaton.transformation_semigroup()
    nq, s = automaton.n_states, automaton.n_symbols
    table = automaton.table

    def reach_step(reach: frozenset[int]) -> frozenset[int]:
        return frozenset(int(table[a, r]) for r in reach for a in range(s))

    lengths = [stop - start for _, start, stop in blocks]
    # reach_ell: the states after ell inputs from q0 (reach_1 is one step from {q0})
    reach = _eventually_periodic(reach_step, reach_step(frozenset([i0])), lengths)
    per_side = {"A": 1, "B": 1}
    for side, start, stop in blocks:
        ell = stop - start
        per_side[side] *= len(reach[ell]) if start == 0 else len(S.words_of_length(ell))
    out = {"bond": nq ** (len(blocks) - 1), "semigroup_A": per_side["A"],
           "semigroup_B": per_side["B"], "words_A": s ** len(A), "words_B": s ** len(B)}
    if S.is_commutative():
        out["commutative"] = S.monoid_size
    out["bound"] = min(out.values())
    out["blocks"] = len(blocks)
    return out


@dataclass(frozen=True, repr=False)
class CutRankResult(CertifiedResult):
    """The separation rank of :math:`f_q` across one cut, from three routes.

    Attributes
    ----------
    rank : int
        The exact separation rank: the rank over Q of the coefficient matrix of the
        multilinear :math:`f_q` (``certifies='exact'``).
    certified_lower : int
        :func:`seprank.separation_rank` in GF(p) on random templates: a certified lower bound
        reached by an independent route (grid tensors, 003 Claim 1).
    bound : int
        The smallest proven upper bound (:func:`cut_rank_bound`).
    certifies : {'exact'}
        What ``rank`` is.
    blocks : int
        Number of blocks of the cut (2 for a contiguous cut).
    details : Mapping
        Every bound by name, the engine's summary.
    """

    rank: int
    certified_lower: int
    bound: int
    certifies: Certificate
    blocks: int
    details: Any = field(default_factory=dict)

    def _repr_info(self) -> dict[str, Any]:
        return {"rank": self.rank, "certified_lower": self.certified_lower,
                "bound": self.bound, "certifies": self.certifies, "blocks": self.blocks}


def cut_separation_rank(automaton: Semiautomaton, q0: object, q: object, T: int,
                        partition: tuple[Sequence[int], Sequence[int]], *,
                        seed: SeedLike = None) -> CutRankResult:
    r"""The separation rank of an automaton's final-state indicator across a cut.

    Parameters
    ----------
    automaton : Semiautomaton
        The automaton.
    q0 : state
        The start state.
    q : state
        The final state of the indicator.
    T : int
        The word length.
    partition : (sequence of int, sequence of int)
        The positions (A, B).
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the grid computation.

    Returns
    -------
    CutRankResult
        The certified rank, the exact coefficient rank and the bounds.

    References
    ----------
    .. [1] 003 eq. 5 (separation rank) and Claim 1 (grid ranks bound it); 004 §3.3.1
       (transition matrices).  The bounds are ours (module docstring).

    Examples
    --------
    >>> from seprank.automata.examples import flip_flop, modular_counter
    >>> r = cut_separation_rank(flip_flop(), 1, 1, 6, ([0, 1, 2], [3, 4, 5]), seed=0)
    >>> r.rank, r.certified_lower, r.bound          # contiguous cut: <= |Q| = 2
    (2, 2, 2)
    >>> alt = ([0, 2, 4], [1, 3, 5])
    >>> cut_separation_rank(flip_flop(), 1, 1, 6, alt, seed=0).rank    # grows: 6 blocks
    6
    >>> cut_separation_rank(modular_counter(3), 0, 0, 6, alt, seed=0).rank   # flat (DFT)
    3
    """
    _check_automaton(automaton)
    A, B = validate_partition(partition, check_int("T", T, minimum=2))
    automaton.state_index(q0, name="q0")
    automaton.state_index(q, name="q")
    _check_coefficient_size(automaton.n_symbols, len(A), len(B))   # before any bound is formed
    bounds = cut_rank_bound(automaton, q0, T, partition)
    exact = coefficient_rank(automaton, q0, q, T, partition)
    small = min(len(A), len(B))
    m = max(2, math.ceil((bounds["bound"] + 1) ** (1 / small) - 1e-9))
    m = min(m, int(MAX_GRID_POINTS ** (1 / T)))
    engine = separation_rank(final_state_function(automaton, q0, q), n_inputs=T,
                             dim=automaton.n_symbols, partition=partition, method="modular",
                             seed=seed, n_templates=m,
                             grid_matrix=final_state_grid(automaton, q0, q, T, (A, B)))
    lower = int(engine.rank)
    if lower > exact or exact > bounds["bound"]:  # pragma: no cover - contradiction: a bug
        raise AssertionError(f"certified lower {lower} <= exact {exact} <= bound "
                             f"{bounds['bound']} violated")
    return CutRankResult(exact, lower, bounds["bound"], "exact", bounds["blocks"],
                         {"bounds": bounds, "engine": engine.summary()})


def final_state_grid(automaton: Semiautomaton, q0: object, q: object, T: int,
                     partition: tuple[Sequence[int], Sequence[int]]) -> Any:
    r"""The grid matricization of :math:`f_q` by tensor-train contraction: with
    :math:`M_i = A(x^{(i)})` per template, the grid tensor is
    :math:`e_q^\top M_{i_T}\cdots M_{i_1}e_{q_0}`, built one position at a time (cost
    :math:`T m^T |Q|^2` instead of :math:`m^T` separate evaluations).  Returns
    ``grid_matrix(templates, domain)`` for :func:`seprank.separation_rank`'s ``grid_matrix=``;
    it equals ``matricize(grid_tensor(final_state_function(...), templates, T), A, B)``.

    Parameters
    ----------
    automaton : Semiautomaton
        The automaton.
    q0 : state
        The start state.
    q : state
        The final state of the indicator.
    T : int
        The word length.
    partition : (sequence of int, sequence of int)
        The positions (A, B).

    Returns
    -------
    callable
        ``grid_matrix(templates, domain)``.

    Examples
    --------
    >>> import numpy as np
    >>> from seprank.automata.examples import flip_flop
    >>> from seprank.core import FloatDomain, grid_tensor, matricize
    >>> A, cut = flip_flop(), ([0, 1], [2, 3])
    >>> templates = np.random.default_rng(0).integers(-3, 4, (3, A.n_symbols))
    >>> G = final_state_grid(A, 1, 2, 4, cut)(templates, FloatDomain())
    >>> direct = grid_tensor(final_state_function(A, 1, 2), templates.astype(float), 4)
    >>> G.shape, np.array_equal(G, matricize(direct, *cut))
    ((9, 9), True)
    """
    _check_automaton(automaton)
    A, B = validate_partition(partition, check_int("T", T, minimum=2))
    i0, iq = automaton.state_index(q0, name="q0"), automaton.state_index(q, name="q")
    mats = automaton.transition_matrices()

    def grid_matrix(templates: Array, domain: Domain) -> Array:
        X = domain.asarray(templates)
        m, n = X.shape[0], automaton.n_states
        log_need = T * math.log(max(m, 1)) + math.log(n * 8)
        if log_need > math.log(get_memory_limit()):
            raise GridTooLargeError(f"the tensor-train grid needs {m}^{T} x {n} entries (about "
                                    f"2^{log_need / math.log(2):.4g} bytes), above the grid "
                                    "memory limit")
        Ms = domain.asarray(np.zeros((m, n, n), dtype=np.int64))
        for a in range(automaton.n_symbols):
            Ms = domain.add(Ms, domain.mul(domain.asarray(mats[a])[None], X[:, a, None, None]))
        v = np.zeros((1, n), dtype=np.int64)
        v[0, i0] = 1
        V = domain.asarray(v)                                  # (m^t, n), t positions so far
        for _ in range(T):
            # V'[(i_1..i_t, i), :] = M_i V[(i_1..i_t), :] ; new position is the last mode
            W = domain.matmul(V[:, None, None, :], np.swapaxes(Ms, 1, 2)[None])
            V = W.reshape(-1, n)
        tensor = V[:, iq].reshape((m,) * T)
        return matricize(tensor, list(A), list(B))

    return grid_matrix


def score_kernel_rank(W_Q: Any, W_K: Any, *, method: Method = "exact",
                      rtol: float | None = None) -> RankResult:
    r"""Separation rank across (query | key) of :math:`s(x, y) = x^\top W_QW_K^\top y`: the rank
    of :math:`W_QW_K^\top`, with what it certifies.

    Parameters
    ----------
    W_Q, W_K : array_like
        Shape ``(d, k)``.  For ``'exact'`` / ``'modular'`` the entries must be exact (ints,
        Fractions; floats are refused -- scale a construction's irrational constant out first,
        which does not change the rank).
    method : {'exact', 'modular', 'svd'}, keyword-only
        As :func:`seprank.matrix_rank`; ``'svd'`` certifies nothing.
    rtol : float, optional, keyword-only
        Tolerance of ``'svd'``.

    Returns
    -------
    RankResult
        The rank of :math:`W_QW_K^\top` and what it certifies.

    Examples
    --------
    >>> score_kernel_rank([[1, 0], [0, 1], [1, 1]], [[1, 2], [2, 4], [0, 0]]).rank
    1
    """
    check_choice("method", method, ("exact", "modular", "svd"))
    if method == "svd":
        Qf = check_array("W_Q", W_Q, ndim=2, min_size=0)
        Kf = check_array("W_K", W_K, ndim=2, min_size=0)
        _check_widths(Qf.shape, Kf.shape)
        return matrix_rank(Qf @ Kf.T, method="svd", rtol=rtol)
    Qe = check_array("W_Q", W_Q, ndim=2, dtype=None, min_size=0)
    Ke = check_array("W_K", W_K, ndim=2, dtype=None, min_size=0)
    _check_widths(Qe.shape, Ke.shape)
    for name, arr in (("W_Q", Qe), ("W_K", Ke)):
        if arr.dtype.kind == "f" or any(isinstance(v, float | np.floating)
                                        for v in np.asarray(arr, dtype=object).ravel()):
            raise TypeError(f"score_kernel_rank(method='exact'/'modular') needs exact entries "
                            f"(ints or Fractions) in {name}; use method='svd' for floats "
                            "(certifies nothing)")
    return matrix_rank(np.asarray(Qe, dtype=object) @ np.asarray(Ke, dtype=object).T,
                       method=method)


def _check_widths(q: tuple[int, ...], k: tuple[int, ...]) -> None:
    if q[1] != k[1]:
        raise ValueError(f"W_Q and W_K must have the same number of columns (the head "
                         f"dimension), got shapes {q} and {k}")


def realized_kernel_rank(queries: npt.ArrayLike, keys: npt.ArrayLike, W_Q: npt.ArrayLike,
                         W_K: npt.ArrayLike, *, rtol: float = 1e-9) -> int:
    r"""SVD rank (certifies nothing; ``rtol`` relative to the top singular value) of the
    softmax kernel :math:`[e^{q_i^\top W_QW_K^\top k_j - \max}]_{ij}` on the given query and key
    vectors (each row rescaled by its maximum, which leaves the rank unchanged).

    Parameters
    ----------
    queries, keys : array_like
        Query and key vectors, one per row.
    W_Q, W_K : array_like
        The query and key matrices.
    rtol : float, keyword-only
        Relative SVD tolerance (default 1e-9).

    Returns
    -------
    int
        The float rank.

    Examples
    --------
    >>> q = [[0.0], [1.0], [2.0]]
    >>> realized_kernel_rank(q, q, [[1.0]], [[1.0]])   # score rank 1, [e^{ij}] Vandermonde: 3
    3
    >>> realized_kernel_rank(q, q, [[0.0]], [[0.0]])   # zero scores: the all-ones kernel
    1
    """
    Qr, Kr = check_array("queries", queries, ndim=2), check_array("keys", keys, ndim=2)
    WQ, WK = check_array("W_Q", W_Q, ndim=2), check_array("W_K", W_K, ndim=2)
    rtol = check_float("rtol", rtol, minimum=0, hint=" (a tolerance)")
    if Qr.shape[1] != WQ.shape[0] or Kr.shape[1] != WK.shape[0]:
        raise ValueError(f"queries {Qr.shape} and keys {Kr.shape} must have as many columns as "
                         f"W_Q {WQ.shape} and W_K {WK.shape} have rows")
    _check_widths(WQ.shape, WK.shape)
    guard_memory(array_bytes((Qr.shape[0], Kr.shape[0])) * 4,
                 what=f"a {Qr.shape[0]} x {Kr.shape[0]} kernel", fix="pass fewer vectors")
    with np.errstate(over="ignore", invalid="ignore"):
        S = (Qr @ WQ) @ (Kr @ WK).T
    if not np.all(np.isfinite(S)):
        raise ValueError("the scores q^T W_Q W_K^T k overflow: rescale queries, keys or the "
                         "weights")
    K = np.exp(S - S.max(axis=1, keepdims=True))
    return matrix_rank(K, method="svd", rtol=rtol).rank
