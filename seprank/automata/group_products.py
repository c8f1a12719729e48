r"""Theorem 11's group constructions (004 §3.4.4.3.3-3.4.4.3.4) as explicit weights: direct,
semidirect and wreath products of group simulators (Lemmas 17-19), the composition-series
recursion of Theorem 16, and the permutation-reset unit of Lemma 20.

**Simulating a group** (Definition 9).  The canonical semiautomaton of G has
:math:`Q = \Sigma = G` and :math:`\delta(g, h) = h\cdot g`; from :math:`q_0 = e` the state at t
is the prefix product :math:`g_{\le t} = \sigma_t\cdots\sigma_1`.  A :class:`GroupSimulator`
is ``sim(G, T)``: Transformer blocks acting on a stream of ``2 + repDim`` channels -- a shared
⊥ flag and position code :math:`\gamma_t = \log(2T - t)` (Lemma 15's, read by every counter)
and a *workspace* of integer encodings (the identity encodes as 0; ``W = E^{-1}``, the
canonical encodings).  A ⊥ pad at position 0 carries the identity's encoding, so every block
maps it to itself.

**Blocks.**  A block is one Transformer layer: heads
:math:`(W_Q, W_K, W_V, W_C)` added to ``keep_attn * x`` and a ReLU MLP added to
``keep_mlp * y`` (``keep`` is the residual connection restricted to some channels, as the
chapter's "residual connections in the H channel").  Sizes are measured on the weights:
depth (blocks), dim, heads, head dimension, MLP width (largest hidden width), norm (largest
absolute weight or bias), repDim, repSize.

**Constructions.**  :func:`cyclic_simulator` (Lemma 15, :math:`C_n`),
:func:`direct_product_simulator` (Lemma 17: blocks side by side, workspaces concatenated),
:func:`semidirect_simulator` (Lemma 18: H's layers, a Lemma 11 MLP for
:math:`(g, h)\mapsto\phi_h^{-1}(g)`, N's layers, the inverse map), :func:`wreath_simulator`
(Lemma 19 for :math:`N\wr C_p`: p parallel copies of N, the concise re-indexing MLP that
permutes the copies by h), :func:`solvable_group_simulator`
(Theorem 16: a prime-order composition series, one wreath step per factor, each
:math:`H_{i+1}` embedded in :math:`H_i\wr C_p` by a homomorphism found by search) and
:func:`permutation_reset_simulator` (Lemma 20: group simulator, a Lemma 16 memory head that
also copies the prefix product at the latest reset, a Lemma 11 MLP for
:math:`(g, h, q)\mapsto\Phi(gh^{-1})(q)`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.automata.gadgets import lemma11_mlp
from seprank.automata.layers import MLP, attention, bump_mlp
from seprank.core.memory import OBJECT_ENTRY_BYTES, array_bytes, guard_memory
from seprank.core.types import FloatArray, IntArray
from seprank.core.validation import (
    check_array,
    check_bool,
    check_callable,
    check_instance,
    check_int,
    check_work,
)

__all__ = [
    "Block",
    "FiniteGroup",
    "GroupSimulator",
    "PermutationResetSimulator",
    "cyclic_simulator",
    "direct_product_simulator",
    "find_embedding",
    "permutation_reset_simulator",
    "semidirect_simulator",
    "solvable_group_simulator",
    "wreath_simulator",
]

#: A group element: any hashable label (ints, tuples, permutation tuples).
Element = Any
Heads = tuple[tuple[FloatArray, FloatArray, FloatArray, FloatArray], ...]
#: Largest group the brute-force embedding search and the tables accept.
MAX_GROUP_ORDER = 5000


# -- finite groups ------------------------------------------------------------------------------

@dataclass(frozen=True)
class FiniteGroup:
    """A finite group by its multiplication table; ``elements[0]`` is the identity.

    ``product(a, b)`` is :math:`a\\cdot b`; for permutations (tuples) :math:`(a\\cdot b)[x] =
    a[b[x]]` (b first).

    Examples
    --------
    >>> C3 = FiniteGroup.cyclic(3)
    >>> C3.product(2, 2), C3.inverse(1), C3.order
    (1, 2, 3)
    """

    elements: tuple[Element, ...]
    table: Mapping[tuple[Element, Element], Element] = field(repr=False)
    name: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.elements, str | bytes) or not isinstance(self.elements, tuple | list):
            raise TypeError(f"elements must be a tuple of group elements (the identity first), "
                            f"got {self.elements!r:.60} ({type(self.elements).__name__})")
        if not self.elements:
            raise ValueError("a group has at least one element: elements is empty")
        if len(self.elements) > MAX_GROUP_ORDER:
            raise ValueError(f"groups above order {MAX_GROUP_ORDER} are refused: elements has "
                             f"{len(self.elements)}")
        object.__setattr__(self, "elements", tuple(self.elements))
        try:
            members = set(self.elements)
        except TypeError as err:
            raise TypeError(f"elements must be hashable ({err})") from None
        if len(members) != len(self.elements):
            raise ValueError("elements must be distinct")
        if not isinstance(self.table, Mapping):
            raise TypeError(f"table must be a mapping (a, b) -> a*b, got {self.table!r:.60} "
                            f"({type(self.table).__name__})")
        for a in self.elements:
            for b in self.elements:
                if (a, b) not in self.table:
                    raise ValueError(f"table has no product for ({a!r}, {b!r})")
                if self.table[(a, b)] not in members:
                    raise ValueError(f"table is not closed: {a!r} * {b!r} = "
                                     f"{self.table[(a, b)]!r} is not in elements")
        e = self.elements[0]
        if any(self.table[(e, g)] != g or self.table[(g, e)] != g for g in self.elements):
            raise ValueError("elements[0] must be the identity of table")

    @property
    def order(self) -> int:
        return len(self.elements)

    @property
    def identity(self) -> Element:
        return self.elements[0]

    def product(self, a: Element, b: Element) -> Element:
        return self.table[(a, b)]

    def inverse(self, a: Element) -> Element:
        for b in self.elements:
            if self.table[(a, b)] == self.identity:
                return b
        raise ValueError(f"{a!r} has no inverse: not a group")

    @classmethod
    def from_product(cls, elements: Iterable[Element], product: Callable[[Any, Any], Any],
                     identity: Element, *, name: str = "") -> FiniteGroup:
        """The group on ``elements`` under ``product`` (identity moved first)."""
        if isinstance(elements, str | bytes) or not isinstance(elements, Iterable):
            raise TypeError(f"elements must be an iterable of group elements, got "
                            f"{elements!r:.60} ({type(elements).__name__})")
        check_callable("product", product, "a function (a, b) -> a*b")
        els = [identity]
        for g in elements:
            if g != identity:
                els.append(g)
            if len(els) > MAX_GROUP_ORDER:
                raise ValueError(f"groups above order {MAX_GROUP_ORDER} are refused: elements "
                                 f"has more")
        try:
            table = {(a, b): product(a, b) for a in els for b in els}
        except (TypeError, ValueError, KeyError, IndexError) as err:
            raise TypeError(f"product could not multiply the elements "
                            f"({type(err).__name__}: {err})") from None
        members = set(els)
        if any(v not in members for v in table.values()):
            raise ValueError("the elements are not closed under the product")
        return cls(tuple(els), table, name)

    @classmethod
    def cyclic(cls, n: int) -> FiniteGroup:
        """:math:`C_n` as 0..n-1 under addition mod n."""
        m = check_int("n", n, maximum=MAX_GROUP_ORDER)
        return cls.from_product(range(m), lambda a, b: (a + b) % m, 0, name=f"C_{m}")

    @classmethod
    def from_permutations(cls, generators: Sequence[Sequence[int]], *, name: str = ""
                          ) -> FiniteGroup:
        """The permutation group generated by ``generators`` (tuples of images)."""
        if isinstance(generators, str | bytes) or not isinstance(generators, Iterable):
            raise TypeError(f"generators must be a sequence of permutation tuples, got "
                            f"{generators!r:.60} ({type(generators).__name__})")
        gens = [tuple(int(v) for v in check_array("generators", g, ndim=1, dtype=np.int64))
                for g in generators]
        if not gens:
            raise ValueError("give at least one generator: generators is empty")
        n = len(gens[0])
        if any(sorted(g) != list(range(n)) for g in gens):
            raise ValueError(f"generators must be permutations of 0..{n - 1} (tuples of "
                             f"images, all of the same length)")
        ident = tuple(range(n))
        seen, frontier = {ident}, [ident]
        while frontier:
            nxt = []
            for g in frontier:
                for s in gens:
                    h = tuple(s[g[x]] for x in range(n))            # s . g
                    if h not in seen:
                        seen.add(h)
                        nxt.append(h)
            frontier = nxt
            if len(seen) > MAX_GROUP_ORDER:
                raise ValueError(f"the group exceeds order {MAX_GROUP_ORDER}")
        return cls.from_product(sorted(seen), lambda a, b: tuple(a[b[x]] for x in range(n)),
                                ident, name=name)

    def run(self, words: npt.ArrayLike) -> IntArray:
        """Prefix products :math:`\\sigma_t\\cdots\\sigma_1` as element indices, for words of
        element indices (the canonical semiautomaton from :math:`q_0 = e`)."""
        W = _check_words(words, self.order)
        index = {g: i for i, g in enumerate(self.elements)}
        mult = np.array([[index[self.table[(a, b)]] for b in self.elements]
                         for a in self.elements])
        out = np.empty_like(W)
        q = np.zeros(W.shape[0], dtype=np.int64)
        for t in range(W.shape[1]):
            q = mult[W[:, t], q]
            out[:, t] = q
        return out

    def all_words(self, length: int) -> IntArray:
        """Every word of ``length`` element indices, shape ``(|G|^length, length)``."""
        n = check_int("length", length)
        if n * math.log(max(self.order, 1)) > math.log(2_000_000):
            raise ValueError(f"{self.order}^{n} words are too many: lower length")
        return np.array(list(itertools.product(range(self.order), repeat=n)),
                        dtype=np.int64).reshape(-1, n)


def _check_words(words: npt.ArrayLike, order: int) -> IntArray:
    """Words of element indices: a 2-D integer array with entries in ``0..order-1``."""
    W = check_array("words", words, ndim=2, dtype=np.int64, min_size=0,
                    what="(batch, t) element indices")
    if W.size and (W.min() < 0 or W.max() >= order):
        raise ValueError(f"words must hold element indices 0..{order - 1}, got entries in "
                         f"{W.min()}..{W.max()}")
    return W


def find_embedding(source: FiniteGroup, target: FiniteGroup,
                   generators: Sequence[Element] | None = None) -> dict[Element, Element]:
    """An injective homomorphism ``source -> target``, by search over the images of a
    generating set (the first found in the targets' order); ValueError if none exists.

    Examples
    --------
    >>> emb = find_embedding(FiniteGroup.cyclic(2), FiniteGroup.cyclic(4))
    >>> emb[1]
    2
    """
    _check_group("source", source)
    _check_group("target", target)
    if generators is None:
        gens = _generators(source)
    else:
        if isinstance(generators, str | bytes) or not isinstance(generators, Iterable):
            raise TypeError(f"generators must be a sequence of elements of source, got "
                            f"{generators!r:.60} ({type(generators).__name__})")
        gens = list(generators)
        members = set(source.elements)
        if any(g not in members for g in gens) or len(_closure(source, gens)) != source.order:
            raise ValueError("generators must be elements of source that generate it")
    check_work(target.order ** len(gens) * source.order * (len(gens) + 1),
               what=f"a search over {target.order}^{len(gens)} images of {len(gens)} "
               f"generators", fix="give fewer generators= or a smaller target")
    for images in itertools.product(target.elements, repeat=len(gens)):
        hom = _extend(source, target, gens, images)
        if hom is not None and len(set(hom.values())) == source.order:
            return hom
    raise ValueError(f"{source.name or 'the group'} does not embed in {target.name or 'it'}")


def _check_group(name: str, value: Any) -> FiniteGroup:
    return check_instance(name, value, FiniteGroup, expected="a FiniteGroup",
                          hint="build one with FiniteGroup.cyclic(n), .from_permutations(...) "
                          "or .from_product(...)")


def _check_simulator(name: str, value: Any) -> GroupSimulator:
    return check_instance(name, value, GroupSimulator, expected="a GroupSimulator",
                          hint="build one with cyclic_simulator(n, T) and the product "
                          "constructions")


def _generators(group: FiniteGroup) -> list[Element]:
    """A small generating set (greedy: add the element that grows the subgroup most)."""
    gens: list[Element] = []
    span = {group.identity}
    while len(span) < group.order:
        best, best_span = None, span
        for g in group.elements:
            if g in span:
                continue
            s = _closure(group, [*gens, g])
            if len(s) > len(best_span):
                best, best_span = g, s
        gens.append(best)
        span = best_span
    return gens


def _closure(group: FiniteGroup, gens: Sequence[Element]) -> set[Element]:
    span, frontier = {group.identity}, [group.identity]
    while frontier:
        nxt = []
        for g in frontier:
            for s in gens:
                h = group.product(s, g)
                if h not in span:
                    span.add(h)
                    nxt.append(h)
        frontier = nxt
    return span


def _extend(source: FiniteGroup, target: FiniteGroup, gens: Sequence[Element],
            images: Sequence[Element]) -> dict[Element, Element] | None:
    hom = {source.identity: target.identity}
    frontier = [source.identity]
    while frontier:
        nxt = []
        for g in frontier:
            for s, t in zip(gens, images, strict=True):
                h, img = source.product(s, g), target.product(t, hom[g])
                if h in hom:
                    if hom[h] != img:
                        return None
                else:
                    hom[h] = img
                    nxt.append(h)
        frontier = nxt
    return hom


# -- blocks and simulators --------------------------------------------------------------------

@dataclass(frozen=True)
class Block:
    """One Transformer layer on a stream of ``d`` channels:
    ``y = keep_attn * x + sum_h attention_h(x)``, ``z = keep_mlp * y + mlp(y)``."""

    heads: Heads
    mlp: MLP | None
    keep_attn: FloatArray
    keep_mlp: FloatArray

    @classmethod
    def identity(cls, d: int) -> Block:
        """A layer that changes nothing (residual connections, no heads, no MLP)."""
        return cls((), None, np.ones(d), np.ones(d))

    def __call__(self, X: FloatArray) -> FloatArray:
        Y = X * self.keep_attn
        for head in self.heads:
            Y = Y + attention(X, *head)
        if self.mlp is None:
            return Y * self.keep_mlp if not np.all(self.keep_mlp == 1) else Y
        return Y * self.keep_mlp + self.mlp(Y)

    def relocate(self, index: Sequence[int], d: int) -> Block:
        """The same layer on channels ``index`` of a ``d``-channel stream (identity on the
        other channels)."""
        idx = list(index)
        heads = []
        for W_Q, W_K, W_V, W_C in self.heads:
            Q, K, V = (np.zeros((d, W.shape[1])) for W in (W_Q, W_K, W_V))
            Q[idx], K[idx], V[idx] = W_Q, W_K, W_V
            C = np.zeros((W_C.shape[0], d))
            C[:, idx] = W_C
            heads.append((Q, K, V, C))
        mlp = None
        if self.mlp is not None:
            layers = list(self.mlp.layers)
            W1 = np.zeros((d, layers[0][0].shape[1]))
            W1[idx] = layers[0][0]
            WL = np.zeros((layers[-1][0].shape[0], d))
            WL[:, idx] = layers[-1][0]
            bL = np.zeros(d)
            bL[idx] = layers[-1][1]
            if len(layers) == 1:
                raise ValueError("an MLP block needs at least one hidden layer")
            mlp = MLP(((W1, layers[0][1]), *layers[1:-1], (WL, bL)))
        ka, km = np.ones(d), np.ones(d)
        ka[idx], km[idx] = self.keep_attn, self.keep_mlp
        return Block(tuple(heads), mlp, ka, km)

    @staticmethod
    def parallel(blocks: Sequence[Block]) -> Block:
        """Layers on disjoint channels of the same stream, run side by side (Lemma 17)."""
        heads = tuple(h for b in blocks for h in b.heads)
        mlps = [b.mlp for b in blocks if b.mlp is not None]
        keep_a = np.prod([b.keep_attn for b in blocks], axis=0)
        keep_m = np.prod([b.keep_mlp for b in blocks], axis=0)
        return Block(heads, _block_diagonal(mlps) if mlps else None, keep_a, keep_m)

    @property
    def max_abs_weight(self) -> float:
        vals = [float(np.abs(W).max(initial=0)) for head in self.heads for W in head]
        if self.mlp is not None:
            vals.append(self.mlp.max_abs_weight)
        return max(vals, default=0.0)


def _deepen(mlp: MLP, n_layers: int) -> MLP:
    """The same function with ``n_layers`` layers: identity layers on the (non-negative)
    hidden units of the first layer."""
    layers = list(mlp.layers)
    while len(layers) < n_layers:
        width = layers[0][0].shape[1]
        layers.insert(1, (np.eye(width), np.zeros(width)))
    return MLP(tuple(layers))


def _block_diagonal(mlps: Sequence[MLP]) -> MLP:
    """The sum of MLPs reading and writing the same stream, with hidden units side by side."""
    depth = max(len(m.layers) for m in mlps)
    deep = [_deepen(m, depth) for m in mlps]
    layers = []
    for i in range(depth):
        Ws = [m.layers[i][0] for m in deep]
        bs = [m.layers[i][1] for m in deep]
        if i == 0:
            W = np.hstack(Ws)
            b = np.concatenate(bs)
        elif i == depth - 1:
            W = np.vstack(Ws)
            b = np.sum(bs, axis=0)
        else:
            W = _blockdiag(Ws)
            b = np.concatenate(bs)
        layers.append((W, b))
    return MLP(tuple(layers))


def _blockdiag(Ws: Sequence[FloatArray]) -> FloatArray:
    rows = sum(W.shape[0] for W in Ws)
    cols = sum(W.shape[1] for W in Ws)
    out = np.zeros((rows, cols))
    r = c = 0
    for W in Ws:
        out[r:r + W.shape[0], c:c + W.shape[1]] = W
        r, c = r + W.shape[0], c + W.shape[1]
    return out


@dataclass(frozen=True)
class GroupSimulator:
    """``sim(G, T)``: blocks on a stream ``[⊥, gamma_t, workspace (repDim channels)]`` and the
    canonical encodings of G's elements (identity -> 0, integer vectors)."""

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
        """Every size the chapter tracks, measured on the weights."""
        return {"depth": self.depth, "dim": self.dim, "heads": self.heads,
                "headDim": self.head_dim, "mlpWidth": self.mlp_width,
                "normBound": round(self.norm_bound, 6), "repDim": self.rep_dim,
                "repSize": self.rep_size}

    def embed(self, words: npt.ArrayLike) -> FloatArray:
        """The stream at the input: the ⊥ pad, then each element's encoding and gamma_t."""
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
        """The workspace at every real position after the last block, ``(B, t, repDim)``."""
        X = self.embed(words)
        for block in self.blocks:
            X = block(X)
        return X[:, 1:, 2:]

    def simulate(self, words: npt.ArrayLike) -> IntArray:
        """Decoded element indices (``W = E^{-1}`` of the rounded workspace; -1 where the
        workspace is not within 1/4 of an encoding)."""
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
        into ``self.group`` (only the encodings change: 'throw away the excess elements')."""
        _check_group("group", group)
        if not isinstance(embedding, Mapping) or any(
                g not in embedding or embedding[g] not in self.encoding for g in group.elements):
            raise ValueError("embedding must map every element of group to an element of "
                             "this simulator's group (see find_embedding)")
        return GroupSimulator(group, self.T,
                              {g: self.encoding[embedding[g]] for g in group.elements},
                              self.blocks)


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


def _subgroup(group: FiniteGroup, elements: Sequence[Element]) -> FiniteGroup:
    members = set(elements)
    return FiniteGroup.from_product([g for g in group.elements if g in members],
                                    group.product, group.identity,
                                    name=f"subgroup of order {len(members)}")


# -- Lemma 20: permutation-reset semiautomata --------------------------------------------------

@dataclass(frozen=True)
class PermutationResetSimulator:
    """Lemma 20's network: a group simulator's blocks, a memory layer, the state MLP."""

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
        heads = max(len(b.heads) for b in self.blocks)
        head_dim = max((h[0].shape[1] for b in self.blocks for h in b.heads), default=0)
        width = max(max(b.mlp.widths) for b in self.blocks if b.mlp is not None)
        norm = max(b.max_abs_weight for b in self.blocks)
        return {"depth": self.depth, "dim": self.dim, "heads": heads, "headDim": head_dim,
                "mlpWidth": width, "normBound": round(norm, 6)}

    def embed(self, words: npt.ArrayLike) -> FloatArray:
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
        """State values (1 to n_states) at every position, rounded from the output channel."""
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

    Examples
    --------
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
