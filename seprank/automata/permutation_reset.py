r"""Lemma 20 (004 §3.4.4.3.4): a permutation-reset semiautomaton simulated by a group
simulator (:mod:`seprank.automata.group_products`), a Lemma 16 memory head that also copies the
prefix product at the latest reset, and a Lemma 11 MLP for
:math:`(g, h, q)\mapsto\Phi(gh^{-1})(q)` (:func:`permutation_reset_simulator`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.automata.blocks import Block
from seprank.automata.finite_groups import Element
from seprank.automata.gadgets import lemma11_mlp
from seprank.automata.group_products import GroupSimulator, _check_simulator
from seprank.automata.layers import bump_mlp
from seprank.core.memory import OBJECT_ENTRY_BYTES, array_bytes, guard_memory
from seprank.core.types import FloatArray, IntArray
from seprank.core.validation import check_bool, check_int

__all__ = ["PermutationResetSimulator", "permutation_reset_simulator"]


@dataclass(frozen=True)
class PermutationResetSimulator:
    """Lemma 20's network: a group simulator's blocks, a memory layer, the state MLP.

    Parameters
    ----------
    n_states : int
        n, with :math:`Q = \\{1..n\\}`.
    symbols : tuple of (str, object)
        Each input: ``('perm', group element)`` or ``('reset', q)``.
    q0 : int
        The start state.
    sim_G : GroupSimulator
        The group simulator.
    blocks : tuple of Block
        The layers.
    dim : int, default 0
        The number of channels.
    """

    n_states: int
    symbols: tuple[tuple[str, Any], ...]          # ('perm', group element) or ('reset', q)
    q0: int
    sim_G: GroupSimulator = field(repr=False)
    blocks: tuple[Block, ...] = field(repr=False)
    dim: int = 0

    @property
    def depth(self) -> int:
        return len(self.blocks)

    def sizes(self) -> dict[str, float]:
        """Every size the chapter tracks, measured on the weights.

        Returns
        -------
        dict of str to float
            Depth, dimension, heads, head dimension, MLP width and weight norm.
        """
        heads = max(len(b.heads) for b in self.blocks)
        head_dim = max((h[0].shape[1] for b in self.blocks for h in b.heads), default=0)
        width = max(max(b.mlp.widths) for b in self.blocks if b.mlp is not None)
        norm = max(b.max_abs_weight for b in self.blocks)
        return {"depth": self.depth, "dim": self.dim, "heads": heads, "headDim": head_dim,
                "mlpWidth": width, "normBound": round(norm, 6)}

    def embed(self, words: npt.ArrayLike) -> FloatArray:
        """The stream at the input: the ⊥ pad (read as a reset to q0), then each symbol's channels.

        Parameters
        ----------
        words : array_like
            Symbol indices, shape (B, t).

        Returns
        -------
        numpy.ndarray
            Shape (B, t + 1, dim).
        """
        W = np.asarray(words, dtype=np.int64)
        T = self.sim_G.T
        rG = self.sim_G.rep_dim
        X = np.zeros((W.shape[0], W.shape[1] + 1, self.dim))
        X[:, 0, 0] = 1.0                                   # the ⊥ pad of the counters
        X[:, 0, 2 + rG] = self.q0                          # ... a reset to q0 for the memory
        X[:, 0, 2 + rG + 3] = 1.0
        X[:, 1:, 1] = np.log(2 * T - np.arange(1, W.shape[1] + 1))
        X[:, 1:, 2 + rG + 2] = np.arange(1, W.shape[1] + 1) / T
        X[:, 1:, 2 + rG + 3] = 1.0
        for a, (kind, val) in enumerate(self.symbols):
            mask = a == W
            if kind == "perm":
                X[:, 1:][mask, 2:2 + rG] = self.sim_G.encoding[val]
                X[:, 1:][mask, 2 + rG] = self.q0           # E_M(⊥): the state coordinate q0
                X[:, 1:][mask, 2 + rG + 1] = 1.0
            else:
                X[:, 1:][mask, 2 + rG] = val
        return X

    def simulate(self, words: npt.ArrayLike) -> IntArray:
        """State values (1 to n_states) at every position, rounded from the output channel.

        Parameters
        ----------
        words : array_like
            Symbol indices, shape (B, t).

        Returns
        -------
        numpy.ndarray
            States (1..n_states), shape (B, t).
        """
        X = self.embed(words)
        for block in self.blocks:
            X = block(X)
        return np.rint(X[:, 1:, 2 + self.sim_G.rep_dim]).astype(np.int64)


def permutation_reset_simulator(sim_G: GroupSimulator, n_states: int,
                                action: Mapping[Element, Sequence[int]],
                                symbols: Sequence[tuple[str, Any]], q0: int, *,
                                copy_prefix: bool = True) -> PermutationResetSimulator:
    r"""Lemma 20: simulate a permutation-reset semiautomaton on :math:`Q = \{1..n\}` whose
    permutation inputs act through ``action`` (:math:`\Phi`: element -> permutation tuple of
    0-based images) and whose resets set the state.

    Layout ``[⊥, gamma, G channel (repDim), M channel (state, ⊥ flag, t/T, 1), I channel
    (repDim)]``.  Layers: sim_G's (M, I kept); one memory layer (Lemma 16's head with
    :math:`c = T\log(16|Q|T)`, whose value also copies the G channel into I -- the prefix
    product at the latest reset -- and a Lemma 10 MLP rounding the state); one Lemma 11 MLP
    :math:`(g, h, q)\mapsto\Phi(gh^{-1})(q)` into the state coordinate.  The ⊥ pad at
    position 0 is read as a reset to q0 with the identity ('We treat q0 like a reset symbol
    at the beginning').  ``copy_prefix=False`` leaves the I channel at the identity (the
    memory copies the state only).

    Parameters
    ----------
    sim_G : GroupSimulator
        The simulator of the permutation group G.
    n_states : int
        n.
    action : Mapping
        Φ: element of G -> permutation tuple of Q.
    symbols : sequence of (str, object)
        Each input: ``('perm', element)`` or ``('reset', q)``.
    q0 : int
        The start state.
    copy_prefix : bool, keyword-only
        The memory also copies the prefix product (default True).

    Returns
    -------
    PermutationResetSimulator
        The network.

    Examples
    --------
    >>> from seprank.automata import cyclic_simulator, semidirect_simulator
    >>> G = semidirect_simulator(cyclic_simulator(3, 3), cyclic_simulator(2, 3),
    ...                        lambda h, g: g if h == 0 else (-g) % 3)
    >>> act = {(a, b): tuple(((-1) ** b * x + a) % 3 for x in range(3)) for a, b in
    ...        G.group.elements}
    >>> syms = [("perm", ((1, 0))), ("perm", (0, 1)), ("reset", 1), ("reset", 3)]
    >>> net = permutation_reset_simulator(G, 3, act, syms, q0=2)
    >>> net.simulate(np.array([[0, 2, 1, 0]]))
    array([[3, 1, 1, 2]])
    """
    _check_simulator("sim_G", sim_G)
    n = check_int("n_states", n_states)
    q = check_int("q0", q0, minimum=1, maximum=n)
    copy_prefix = check_bool("copy_prefix", copy_prefix)
    G = sim_G.group
    n_points = G.order ** 2 * n
    guard_memory(n_points * (2 * sim_G.rep_dim + 2) * OBJECT_ENTRY_BYTES
                 + array_bytes((2 * sim_G.rep_dim + 6, 4 * n + n_points)) * 2,
                 what=f"a Lemma 20 network on {n} states ({n_points} interpolation points)",
                 fix="use fewer n_states or a smaller group")
    if not isinstance(action, Mapping):
        raise TypeError(f"action must be a mapping element -> permutation tuple, got "
                        f"{action!r:.60} ({type(action).__name__})")
    for g in G.elements:
        perm = action.get(g)
        if perm is None or isinstance(perm, str | bytes) or sorted(
                int(v) if isinstance(v, int | np.integer) and not isinstance(v, bool) else -1
                for v in perm) != list(range(n)):
            raise ValueError(f"action must map every element of sim_G's group to a "
                             f"permutation of 0..{n - 1}; got {perm!r:.60} for {g!r}")
    if isinstance(symbols, str | bytes) or not isinstance(symbols, Sequence):
        raise TypeError(f"symbols must be a sequence of ('perm', element) / ('reset', q) "
                        f"pairs, got {symbols!r:.60} ({type(symbols).__name__})")
    for i, sym in enumerate(symbols):
        ok = isinstance(sym, tuple | list) and len(sym) == 2 and (
            (sym[0] == "perm" and sym[1] in G.elements) or (
                sym[0] == "reset" and isinstance(sym[1], int | np.integer)
                and not isinstance(sym[1], bool | np.bool_) and 1 <= sym[1] <= n))
        if not ok:
            raise ValueError(f"symbols[{i}] must be ('perm', an element of sim_G's group) or "
                             f"('reset', a state 1..{n}), got {sym!r:.60}")
    T = sim_G.T
    rG = sim_G.rep_dim
    d = 2 + rG + 4 + rG
    G_ch = list(range(2, 2 + rG))
    M0 = 2 + rG
    I_ch = list(range(M0 + 4, M0 + 4 + rG))
    blocks = []
    for b in sim_G.blocks:
        blocks.append(b.relocate([0, 1, *G_ch], d))
    # memory layer: score c(j/T - 2 1[⊥_j]) from query padding; value copies (state, g)
    c = T * math.log(16 * n * T)
    e = np.eye(d)
    W_Q = np.stack([-2 * e[M0 + 3], e[M0 + 3]], axis=1)
    W_K = np.stack([c * e[M0 + 1], c * e[M0 + 2]], axis=1)
    k = 1 + rG
    W_V = np.zeros((d, k))
    W_V[M0, 0] = 1.0
    for i, ch in enumerate(G_ch):
        W_V[ch, 1 + i] = 1.0 if copy_prefix else 0.0
    W_C = np.zeros((k, d))
    W_C[0, M0] = 1.0
    for i, ch in enumerate(I_ch):
        W_C[1 + i, ch] = 1.0
    W_Q = np.hstack([W_Q, np.zeros((d, k - 2))]) if k > 2 else W_Q[:, :k]
    W_K = np.hstack([W_K, np.zeros((d, k - 2))]) if k > 2 else W_K[:, :k]
    keep_a = np.ones(d)
    keep_a[M0] = 0.0
    keep_a[I_ch] = 0.0
    rounding = bump_mlp(np.arange(1, n + 1, dtype=np.float64),
                        np.outer(np.arange(1, n + 1), e[M0]), 0.5, in_dim=d, channel=M0)
    keep_m = np.ones(d)
    keep_m[M0] = 0.0
    blocks.append(Block(((W_Q, W_K, W_V, W_C),), rounding, keep_a, keep_m))
    # state MLP: (g, h, q) -> Phi(g h^{-1})(q), into the state coordinate
    pts, vals = [], []
    for g in G.elements:
        for h in G.elements:
            perm = action[G.product(g, G.inverse(h))]
            for s in range(1, n + 1):
                pts.append(sim_G.encoding[g] + sim_G.encoding[h] + (s,))
                vals.append((perm[s - 1] + 1,))
    mlp = lemma11_mlp(pts, vals, 1.0, in_channels=[*G_ch, *I_ch, M0], in_dim=d,
                      out_channels=[M0], out_dim=d)
    keep = np.ones(d)
    keep[M0] = 0.0
    blocks.append(Block((), mlp, np.ones(d), keep))
    return PermutationResetSimulator(n, tuple(symbols), q, sim_G, tuple(blocks), d)
