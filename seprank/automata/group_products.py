r"""Theorem 11's group constructions (004 §3.4.4.3.3-3.4.4.3.4) as explicit weights: direct,
semidirect and wreath products of group simulators (Lemmas 17-19) and the composition-series
recursion of Theorem 16.  The groups themselves are :class:`~seprank.automata.finite_groups.
FiniteGroup` tables (:mod:`seprank.automata.finite_groups`), the layers
:class:`~seprank.automata.blocks.Block` (:mod:`seprank.automata.blocks`), and the
permutation-reset unit of Lemma 20 builds on these simulators in
:mod:`seprank.automata.permutation_reset`.

**Simulating a group** (Definition 9).  The canonical semiautomaton of G has
:math:`Q = \Sigma = G` and :math:`\delta(g, h) = h\cdot g`; from :math:`q_0 = e` the state at t
is the prefix product :math:`g_{\le t} = \sigma_t\cdots\sigma_1`.  A :class:`GroupSimulator`
is ``sim(G, T)``: Transformer blocks acting on a stream of ``2 + repDim`` channels -- a shared
⊥ flag and position code :math:`\gamma_t = \log(2T - t)` (Lemma 15's, read by every counter)
and a *workspace* of integer encodings (the identity encodes as 0; ``W = E^{-1}``, the
canonical encodings).  A ⊥ pad at position 0 carries the identity's encoding, so every block
maps it to itself.

**Sizes** are measured on the weights of the blocks (one Transformer layer each):
depth (blocks), dim, heads, head dimension, MLP width (largest hidden width), norm (largest
absolute weight or bias), repDim, repSize.

**Constructions.**  :func:`cyclic_simulator` (Lemma 15, :math:`C_n`),
:func:`direct_product_simulator` (Lemma 17: blocks side by side, workspaces concatenated),
:func:`semidirect_simulator` (Lemma 18: H's layers, a Lemma 11 MLP for
:math:`(g, h)\mapsto\phi_h^{-1}(g)`, N's layers, the inverse map), :func:`wreath_simulator`
(Lemma 19 for :math:`N\wr C_p`: p parallel copies of N, the concise re-indexing MLP that
permutes the copies by h), :func:`solvable_group_simulator`
(Theorem 16: a prime-order composition series, one wreath step per factor, each
:math:`H_{i+1}` embedded in :math:`H_i\wr C_p` by a homomorphism found by search).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.automata.blocks import Block
from seprank.automata.finite_groups import (
    MAX_GROUP_ORDER,
    Element,
    FiniteGroup,
    _check_group,
    _check_words,
    _subgroup,
    find_embedding,
)
from seprank.automata.gadgets import lemma11_mlp
from seprank.automata.layers import MLP, bump_mlp
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.types import FloatArray, IntArray
from seprank.core.validation import check_callable, check_instance, check_int

__all__ = [
    "GroupSimulator",
    "cyclic_simulator",
    "direct_product_simulator",
    "semidirect_simulator",
    "solvable_group_simulator",
    "wreath_simulator",
]


@dataclass(frozen=True)
class GroupSimulator:
    """``sim(G, T)``: blocks on a stream ``[⊥, gamma_t, workspace (repDim channels)]`` and the
    canonical encodings of G's elements (identity -> 0, integer vectors).

    Parameters
    ----------
    group : FiniteGroup
        G.
    T : int
        The input length.
    encoding : Mapping
        Element -> its integer encoding vector.
    blocks : tuple of Block
        The layers.
    """

    group: FiniteGroup
    T: int
    encoding: Mapping[Element, tuple[int, ...]] = field(repr=False)
    blocks: tuple[Block, ...] = field(repr=False)

    def __post_init__(self) -> None:
        _check_group("group", self.group)
        object.__setattr__(self, "T", check_int("T", self.T))
        if not isinstance(self.encoding, Mapping):
            raise TypeError(f"encoding must be a mapping element -> integer tuple, got "
                            f"{self.encoding!r:.60} ({type(self.encoding).__name__})")
        missing = [g for g in self.group.elements if g not in self.encoding]
        if missing:
            raise ValueError(f"encoding has no code for the element {missing[0]!r}")
        lengths = set()
        for g in self.group.elements:
            code = self.encoding[g]
            if not isinstance(code, tuple) or not all(
                    isinstance(v, int | np.integer) and not isinstance(v, bool | np.bool_)
                    and v >= 0 for v in code):
                raise ValueError(f"encoding must map each element to a tuple of integers >= 0, "
                                 f"got {code!r:.60} for {g!r}")
            lengths.add(len(code))
        if len(lengths) != 1 or 0 in lengths:
            raise ValueError("encoding must give every element a non-empty code of one length")
        if isinstance(self.blocks, str | bytes) or not isinstance(self.blocks, tuple | list):
            raise TypeError(f"blocks must be a tuple of Block layers, got {self.blocks!r:.60} "
                            f"({type(self.blocks).__name__})")
        for i, b in enumerate(self.blocks):
            check_instance(f"blocks[{i}]", b, Block, expected="a Block")
        object.__setattr__(self, "blocks", tuple(self.blocks))
        if any(v != 0 for v in self.encoding[self.group.identity]):
            raise ValueError("the identity must encode as the zero vector")
        if len(set(self.encoding.values())) != self.group.order:
            raise ValueError("the encoding must be injective")

    # sizes (§3.1 / 'sim(G, T).{depth, dim, heads, headDim, mlpWidth, normBound}')
    @property
    def rep_dim(self) -> int:
        return len(self.encoding[self.group.identity])

    @property
    def rep_size(self) -> int:
        return 1 + max(max(v) for v in self.encoding.values())

    @property
    def dim(self) -> int:
        return 2 + self.rep_dim

    @property
    def depth(self) -> int:
        return len(self.blocks)

    @property
    def heads(self) -> int:
        return max((len(b.heads) for b in self.blocks), default=0)

    @property
    def head_dim(self) -> int:
        return max((h[0].shape[1] for b in self.blocks for h in b.heads), default=0)

    @property
    def mlp_width(self) -> int:
        return max((max(b.mlp.widths) for b in self.blocks if b.mlp is not None), default=0)

    @property
    def norm_bound(self) -> float:
        return max((b.max_abs_weight for b in self.blocks), default=0.0)

    def sizes(self) -> dict[str, float]:
        """Every size the chapter tracks, measured on the weights.

        Returns
        -------
        dict of str to float
            Depth, dimension, heads, head dimension, MLP width, weight norm, repDim and repSize.
        """
        return {"depth": self.depth, "dim": self.dim, "heads": self.heads,
                "headDim": self.head_dim, "mlpWidth": self.mlp_width,
                "normBound": round(self.norm_bound, 6), "repDim": self.rep_dim,
                "repSize": self.rep_size}

    def embed(self, words: npt.ArrayLike) -> FloatArray:
        """The stream at the input: the ⊥ pad, then each element's encoding and gamma_t.

        Parameters
        ----------
        words : array_like
            Element indices, shape (B, t).

        Returns
        -------
        numpy.ndarray
            The stream, shape (B, t + 1, d).
        """
        W = _check_words(words, self.group.order)
        if W.shape[1] > self.T:
            raise ValueError(f"words must have shape (B, t <= T = {self.T}), got {W.shape}")
        enc = np.array([self.encoding[g] for g in self.group.elements], dtype=np.float64)
        X = np.zeros((W.shape[0], W.shape[1] + 1, self.dim))
        X[:, 0, 0] = 1.0
        X[:, 1:, 1] = np.log(2 * self.T - np.arange(1, W.shape[1] + 1))
        X[:, 1:, 2:] = enc[W]
        return X

    def forward(self, words: npt.ArrayLike) -> FloatArray:
        """The workspace at every real position after the last block, ``(B, t, repDim)``.

        Parameters
        ----------
        words : array_like
            Element indices, shape (B, t).

        Returns
        -------
        numpy.ndarray
            Shape ``(B, t, repDim)``.
        """
        X = self.embed(words)
        for block in self.blocks:
            X = block(X)
        return X[:, 1:, 2:]

    def simulate(self, words: npt.ArrayLike) -> IntArray:
        """Decoded element indices (``W = E^{-1}`` of the rounded workspace; -1 where the
        workspace is not within 1/4 of an encoding).

        Parameters
        ----------
        words : array_like
            Element indices, shape (B, t).

        Returns
        -------
        numpy.ndarray
            Element indices, shape (B, t).
        """
        Z = self.forward(words)
        R = np.rint(Z)
        ok = np.all(np.abs(Z - R) <= 0.25, axis=-1)
        lookup = {v: i for i, v in enumerate(self.encoding[g] for g in self.group.elements)}
        flat = [lookup.get(tuple(int(x) for x in r), -1) for r in R.reshape(-1, self.rep_dim)]
        out = np.array(flat, dtype=np.int64).reshape(Z.shape[:2])
        return np.where(ok, out, -1)

    def restrict(self, group: FiniteGroup, embedding: Mapping[Element, Element]
                 ) -> GroupSimulator:
        """The same network as a simulator of ``group`` through an injective homomorphism
        into ``self.group`` (only the encodings change: 'throw away the excess elements').

        Parameters
        ----------
        group : FiniteGroup
            The subgroup simulated.
        embedding : Mapping
            An injective homomorphism ``group -> self.group``.

        Returns
        -------
        GroupSimulator
            The same network with new encodings.
        """
        _check_group("group", group)
        if not isinstance(embedding, Mapping) or any(
                g not in embedding or embedding[g] not in self.encoding for g in group.elements):
            raise ValueError("embedding must map every element of group to an element of "
                             "this simulator's group (see find_embedding)")
        return GroupSimulator(group, self.T,
                              {g: self.encoding[embedding[g]] for g in group.elements},
                              self.blocks)


def _check_simulator(name: str, value: Any) -> GroupSimulator:
    return check_instance(name, value, GroupSimulator, expected="a GroupSimulator",
                          hint="build one with cyclic_simulator(n, T) and the product "
                          "constructions")



def _check_order(order: int, what: str, fix: str) -> None:
    """Refuse a product group above :data:`MAX_GROUP_ORDER` before its table is built."""
    if order > MAX_GROUP_ORDER:
        raise ValueError(f"{what} has order {order}, above the {MAX_GROUP_ORDER} the group "
                         f"tables accept; lower {fix}")


def _stream_index(offset: int, width: int) -> list[int]:
    """Local stream ``[⊥, gamma, w_0..w_{width-1}]`` placed at workspace ``offset``."""
    return [0, 1, *range(2 + offset, 2 + offset + width)]


def cyclic_simulator(n: int, T: int) -> GroupSimulator:
    r"""Lemma 15's counter as ``sim(C_n, T)``: one head (:math:`W_Q = e_\gamma`,
    :math:`W_K = e_\bot`, value and output on the workspace channel, no residual there), the
    attention output :math:`s = \frac1{2T}\sum\sigma`, a Lemma 10 MLP
    (:math:`\Delta = 1/(2T)`) to :math:`(2Ts) \bmod n` -- the canonical encoding of the prefix
    sum (q0 = e = 0).

    Parameters
    ----------
    n : int
        The order of :math:`C_n`.
    T : int
        The input length.

    Returns
    -------
    GroupSimulator
        ``sim(C_n, T)``.

    Examples
    --------
    >>> sim = cyclic_simulator(3, 4)
    >>> sim.simulate(np.array([[1, 2, 2, 1]])), sim.group.run(np.array([[1, 2, 2, 1]]))
    (array([[1, 0, 2, 0]]), array([[1, 0, 2, 0]]))
    >>> sim.sizes()["mlpWidth"], sim.sizes()["depth"]
    (36, 1)
    """
    m, Tn = check_int("n", n, maximum=MAX_GROUP_ORDER), check_int("T", T)
    n_points = (m - 1) * Tn + 1
    guard_memory(array_bytes((n_points, 3)) * 4 + array_bytes((5, 4 * n_points)),
                 what=f"a Lemma 15 counter with {n_points} interpolation points (n = {m}, "
                 f"T = {Tn})", fix="use a smaller T or n")
    e = np.eye(3)
    head = (e[:, [1]], e[:, [0]], e[:, [2]], e[[2], :])
    k = np.arange((m - 1) * Tn + 1)
    mlp = bump_mlp(k / (2 * Tn), np.outer(k % m, e[2]), 1 / (2 * Tn), in_dim=3, channel=2)
    keep = np.array([1.0, 1.0, 0.0])
    group = FiniteGroup.cyclic(m)
    return GroupSimulator(group, Tn, {g: (int(g),) for g in group.elements},
                          (Block((head,), mlp, keep, keep.copy()),))


def direct_product_simulator(sims: Sequence[GroupSimulator]) -> GroupSimulator:
    """Lemma 17: the simulators side by side (identity layers pad the shallower ones), the
    workspaces concatenated; elements are tuples.

    Parameters
    ----------
    sims : sequence of GroupSimulator
        The factors' simulators (same T).

    Returns
    -------
    GroupSimulator
        The product's simulator.

    Examples
    --------
    >>> sim = direct_product_simulator([cyclic_simulator(2, 3), cyclic_simulator(3, 3)])
    >>> sim.group.order, sim.sizes()["depth"], sim.sizes()["heads"], sim.rep_dim
    (6, 1, 2, 2)
    """
    if isinstance(sims, str | bytes | GroupSimulator) or not isinstance(sims, Sequence):
        raise TypeError(f"sims must be a sequence of GroupSimulators, got {sims!r:.60} "
                        f"({type(sims).__name__})")
    parts = [_check_simulator(f"sims[{i}]", s) for i, s in enumerate(sims)]
    if not parts:
        raise ValueError("direct_product_simulator needs at least one simulator: sims is empty")
    _check_order(math.prod(s.group.order for s in parts), "the direct product", "sims")
    T = parts[0].T
    if any(s.T != T for s in parts):
        raise ValueError("the simulators must share T")
    width = sum(s.rep_dim for s in parts)
    d = 2 + width
    depth = max(s.depth for s in parts)
    offsets = np.cumsum([0] + [s.rep_dim for s in parts])[:-1]
    blocks = []
    for layer in range(depth):
        placed = [s.blocks[layer].relocate(_stream_index(int(o), s.rep_dim), d)
                  if layer < s.depth else Block.identity(d)
                  for s, o in zip(parts, offsets, strict=True)]
        blocks.append(Block.parallel(placed))
    elements = list(itertools.product(*(s.group.elements for s in parts)))
    group = FiniteGroup.from_product(
        elements, lambda a, b: tuple(s.group.product(x, y) for s, x, y in zip(parts, a, b,
                                                                               strict=True)),
        tuple(s.group.identity for s in parts),
        name=" x ".join(s.group.name for s in parts))
    encoding = {g: tuple(v for s, x in zip(parts, g, strict=True) for v in s.encoding[x])
                for g in group.elements}
    return GroupSimulator(group, T, encoding, tuple(blocks))


def _mixing_block(sim_N: GroupSimulator, sim_H: GroupSimulator,
                  phi: Callable[[Element, Element], Element], *, inverse: bool) -> Block:
    """Lemma 11 MLP on the (N, H) workspace: ``(g, h) -> phi_h^{-1}(g)`` (or ``phi_h(g)``)
    written over the N channels; identity attention."""
    pts, vals = [], []
    for g in sim_N.group.elements:
        for h in sim_H.group.elements:
            target = phi(sim_H.group.inverse(h), g) if inverse else phi(h, g)
            pts.append(sim_N.encoding[g] + sim_H.encoding[h])
            vals.append(sim_N.encoding[target])
    rN, rH = sim_N.rep_dim, sim_H.rep_dim
    d = 2 + rN + rH
    mlp = lemma11_mlp(pts, vals, 1.0, in_channels=range(2, d), in_dim=d,
                      out_channels=range(2, 2 + rN), out_dim=d)
    keep = np.ones(d)
    keep[2:2 + rN] = 0.0
    return Block((), mlp, np.ones(d), keep)


def semidirect_simulator(sim_N: GroupSimulator, sim_H: GroupSimulator,
                       phi: Callable[[Element, Element], Element], *,
                       mixing: Callable[..., Block] | None = None) -> GroupSimulator:
    r"""Lemma 18: :math:`N\rtimes_\phi H` with :math:`(g,h)(g',h') = (g\,\phi_h(g'), hh')`, as the
    4-stage cascade: H's layers (N channel kept), the basis change
    :math:`(g, h)\mapsto\phi_h^{-1}(g)` (a Lemma 11 MLP), N's layers (H kept), the inverse
    change.  ``phi(h, g)`` is :math:`\phi_h(g)`; ``mixing(sim_N, sim_H, phi, inverse=...)``
    replaces the Lemma 11 block (Lemma 19's concise re-indexing).

    Parameters
    ----------
    sim_N, sim_H : GroupSimulator
        Simulators of N and H.
    phi : callable
        ``phi(h, g)`` = :math:`\phi_h(g)`.
    mixing : callable, optional, keyword-only
        Replaces the Lemma 11 block.

    Returns
    -------
    GroupSimulator
        The simulator of :math:`N\rtimes_\phi H`.

    Examples
    --------
    >>> C3, C2 = cyclic_simulator(3, 4), cyclic_simulator(2, 4)
    >>> D6 = semidirect_simulator(C3, C2, lambda h, g: g if h == 0 else (-g) % 3)
    >>> W = D6.group.all_words(3)
    >>> bool(np.all(D6.simulate(W) == D6.group.run(W))), D6.depth
    (True, 4)
    """
    _check_simulator("sim_N", sim_N)
    _check_simulator("sim_H", sim_H)
    check_callable("phi", phi, "a function (h, g) -> phi_h(g)")
    if mixing is not None:
        check_callable("mixing", mixing, "a function (sim_N, sim_H, phi, inverse=...) -> Block")
    if sim_N.T != sim_H.T:
        raise ValueError(f"the simulators must share T: sim_N has T = {sim_N.T}, sim_H has "
                         f"T = {sim_H.T}")
    _check_order(sim_N.group.order * sim_H.group.order, "the semidirect product", "sim_N, sim_H")
    rN, rH = sim_N.rep_dim, sim_H.rep_dim
    d = 2 + rN + rH
    idx_N, idx_H = _stream_index(0, rN), _stream_index(rN, rH)
    build = mixing or _mixing_block
    blocks = [b.relocate(idx_H, d) for b in sim_H.blocks]
    blocks.append(build(sim_N, sim_H, phi, inverse=True))
    blocks += [b.relocate(idx_N, d) for b in sim_N.blocks]
    blocks.append(build(sim_N, sim_H, phi, inverse=False))
    N, H = sim_N.group, sim_H.group
    elements = [(g, h) for g in N.elements for h in H.elements]
    group = FiniteGroup.from_product(
        elements, lambda a, b: (N.product(a[0], phi(a[1], b[0])), H.product(a[1], b[1])),
        (N.identity, H.identity), name=f"{N.name} x| {H.name}")
    encoding = {(g, h): sim_N.encoding[g] + sim_H.encoding[h] for g, h in group.elements}
    return GroupSimulator(group, sim_N.T, encoding, tuple(blocks))


def _shift_block(sim_N: GroupSimulator, sim_H: GroupSimulator,
                 phi: Callable[[Element, Element], Element], *, inverse: bool) -> Block:
    """Lemma 19's concise re-indexing for :math:`N^p\\rtimes C_p`: layer 1 has Lemma 10
    indicators of h (4p units) and the copies passed through (p r units), layer 2 one unit
    per (h, copy, coordinate) gating the source copy by h, layer 3 sums over h."""
    del phi                                   # the shift is built from the copy layout
    p = sim_H.group.order
    r = sim_N.rep_dim // p
    if sim_H.rep_dim != 1 or r * p != sim_N.rep_dim:
        raise ValueError("the concise re-indexing needs H = C_p (repDim 1) and N = p copies")
    d = 2 + p * r + 1
    h_ch = d - 1
    bound = float(max(1, sim_N.rep_size - 1))
    ind = bump_mlp(np.arange(p, dtype=np.float64), np.eye(p), 1.0, in_dim=d, channel=h_ch)
    (Wb, bb), (Wb2, _) = ind.layers                  # Wb2: (4p, p) signs to indicators
    W1 = np.hstack([Wb, np.zeros((d, p * r))])
    b1 = np.concatenate([bb, np.zeros(p * r)])
    W1[2:2 + p * r, 4 * p:] = np.eye(p * r)
    units = [(h, j, c) for h in range(p) for j in range(p) for c in range(r)]
    W2 = np.zeros((4 * p + p * r, len(units)))
    b2 = np.full(len(units), -bound)
    W3 = np.zeros((len(units), d))
    for u, (h, j, c) in enumerate(units):
        src = (j + h) % p if inverse else (j - h) % p      # phi_h^{-1}(f)(j) = f(j + h)
        W2[:4 * p, u] = bound * Wb2[:, h]
        W2[4 * p + src * r + c, u] = 1.0
        W3[u, 2 + j * r + c] = 1.0
    keep = np.ones(d)
    keep[2:2 + p * r] = 0.0
    mlp = MLP(((W1, b1), (W2, b2), (W3, np.zeros(d))))
    return Block((), mlp, np.ones(d), keep)


def wreath_simulator(sim_N: GroupSimulator, p: int) -> GroupSimulator:
    r"""Lemma 19 for :math:`N\wr C_p = N^p\rtimes C_p` (:math:`C_p` shifting the copies:
    :math:`\phi_h(f)(x) = f(x - h)`): p copies of N side by side (Lemma 17), a Lemma 15
    counter for :math:`C_p`, and the concise re-indexing MLP in both mixing layers.  Elements
    are ``(f, h)`` with f a p-tuple of N's elements.

    Parameters
    ----------
    sim_N : GroupSimulator
        Simulator of N.
    p : int
        The prime p.

    Returns
    -------
    GroupSimulator
        The simulator of :math:`N\wr C_p`.

    Examples
    --------
    >>> W = wreath_simulator(cyclic_simulator(2, 3), 2)      # C_2 wr C_2 = D_8
    >>> words = W.group.all_words(3)
    >>> W.group.order, bool(np.all(W.simulate(words) == W.group.run(words)))
    (8, True)
    """
    _check_simulator("sim_N", sim_N)
    pp = check_int("p", p, minimum=2, maximum=MAX_GROUP_ORDER)
    _check_order(sim_N.group.order ** pp * pp, f"the wreath product with C_{pp}", "p")
    copies = direct_product_simulator([sim_N] * pp)
    H = cyclic_simulator(pp, sim_N.T)

    def shift(h: Element, f: Element) -> Element:
        return tuple(f[(x - int(h)) % pp] for x in range(pp))

    sim = semidirect_simulator(copies, H, shift, mixing=_shift_block)
    return sim


def solvable_group_simulator(group: FiniteGroup, series: Sequence[Sequence[Element]], T: int
                             ) -> tuple[GroupSimulator, list[dict[str, Any]]]:
    r"""Theorem 16's recursion: ``series`` = :math:`1 = H_0 < H_1 < \dots < H_\ell = G` as
    element lists with prime indices; :math:`H_1` is simulated by a counter, each
    :math:`H_{i+1}` by :math:`\mathrm{sim}(H_i)\wr C_{p_i}` restricted through an embedding found
    by :func:`find_embedding`.  Returns the simulator and the sizes after every step.

    Parameters
    ----------
    group : FiniteGroup
        G.
    series : sequence of sequences
        The composition series as element lists.
    T : int
        The input length.

    Returns
    -------
    simulator : GroupSimulator
        The simulator of G.
    sizes : list of dict
        The sizes after every step.

    Examples
    --------
    >>> C4 = FiniteGroup.cyclic(4)
    >>> sim, steps = solvable_group_simulator(C4, [[0], [0, 2], [0, 1, 2, 3]], 3)
    >>> [s["depth"] for s in steps], sim.group.order
    ([1, 4], 4)
    """
    _check_group("group", group)
    Tn = check_int("T", T)
    if isinstance(series, str | bytes) or not isinstance(series, Sequence) or any(
            isinstance(h, str | bytes) or not isinstance(h, Iterable) for h in series):
        raise TypeError(f"series must be a sequence of element lists, got {series!r:.60} "
                        f"({type(series).__name__})")
    chain = [list(h) for h in series]
    members = set(group.elements)
    if any(g not in members for h in chain for g in h):
        raise ValueError("series must list elements of group")
    if len(chain) < 2 or len(set(chain[0])) != 1:
        raise ValueError("series must run from the trivial group to the whole group")
    if not chain or set(chain[-1]) != set(group.elements) or len(chain[0]) != 1:
        raise ValueError("series must run from the trivial group to the whole group")
    steps: list[dict[str, Any]] = []
    sub = _subgroup(group, chain[1])
    p0 = sub.order
    sim = cyclic_simulator(p0, Tn).restrict(sub, find_embedding(sub, FiniteGroup.cyclic(p0)))
    steps.append({"order": sub.order, "factor": p0, **sim.sizes()})
    for lower, upper in itertools.pairwise(chain[1:]):
        big = _subgroup(group, upper)
        p = big.order // len(lower)
        if p * len(lower) != big.order:
            raise ValueError("each subgroup of the series must have prime index in the next")
        W = wreath_simulator(sim, p)
        sim = W.restrict(big, find_embedding(big, W.group))
        steps.append({"order": big.order, "factor": p, **sim.sizes()})
    return sim, steps
