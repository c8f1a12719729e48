r"""kNN pretraining example design (000/001, Sec. 3): put related sentences in context.

The theory (Theorems 1-2) says a self-attention LM models dependencies between sentences seen in
the *same* example far better than between sentences seen in different examples.  The paper's
proposal (kNN-TAPT, kNN-Pretraining) therefore builds training examples from a sentence and its
nearest neighbours in a sentence-embedding space (cosine similarity; FAISS over 100M Wikipedia
sentences there), appended with a separator token up to 256 tokens.

This module is that data logic as a tool:

* :func:`knn_graph` -- the k-nearest-neighbour graph (networkx) under cosine similarity, exact
  (dense products) or through a KD-tree on the normalised vectors (exact as well: Euclidean
  distance on the unit sphere is :math:`\sqrt{2 - 2\cos}`);
* :func:`knn_examples` -- examples that place sentences with their neighbours, either a
  *partition* of the corpus (every sentence exactly once: the same data as contiguous chunking,
  only arranged differently, as the paper's kNN-TAPT variants) or one example *per sentence*
  (each sentence followed by its neighbours, the kNN-TAPT construction);
* :func:`contiguous_examples` -- the standard baseline, consecutive sentences packed in order;
* :func:`in_context_coverage` -- the fraction of related pairs that ever share an example: the
  pairs whose dependency the network can model in context;
* :func:`synthetic_corpus` -- topics whose sentences lie far apart in corpus order.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

import networkx as nx
import numpy as np
import numpy.typing as npt
from scipy.spatial import cKDTree

from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import Array
from seprank.core.validation import check_float, check_int

__all__ = [
    "ExamplePacking",
    "SyntheticCorpus",
    "contiguous_examples",
    "in_context_coverage",
    "knn_examples",
    "knn_graph",
    "synthetic_corpus",
]

NeighbourMethod = Literal["auto", "exact", "kdtree"]


@dataclass(frozen=True)
class ExamplePacking:
    """Training examples as tuples of sentence indices, with the packing parameters.

    Iterating yields the examples; ``len`` is their number.

    Parameters
    ----------
    examples : tuple of tuple of int
        Each example's sentence indices.
    example_length : int
        The token budget of an example.
    lengths : tuple of int
        Each sentence's length in tokens.
    separator_length : int
        Tokens between two sentences of an example.
    strategy : str
        How the examples were packed.
    graph : networkx.Graph, optional
        The neighbour graph the packing followed.
    """

    examples: tuple[tuple[int, ...], ...]
    example_length: int
    lengths: tuple[int, ...]
    separator_length: int
    strategy: str
    graph: nx.Graph | None = field(default=None, repr=False, compare=False)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return iter(self.examples)

    def __len__(self) -> int:
        return len(self.examples)

    def __getitem__(self, k: int) -> tuple[int, ...]:
        return self.examples[k]

    def tokens(self, example: Sequence[int]) -> int:
        """Tokens of an example: sentence lengths plus a separator between sentences.

        Parameters
        ----------
        example : sequence of int
            Sentence indices.

        Returns
        -------
        int
            Its length in tokens.
        """
        return (sum(self.lengths[s] for s in example)
                + self.separator_length * max(0, len(example) - 1))


def _unit_rows(embeddings: npt.ArrayLike) -> Array:
    X = np.asarray(embeddings)
    if X.ndim != 2 or X.shape[0] < 2 or X.shape[1] < 1:
        raise ValueError(f"embeddings must be an (n_sentences >= 2, dim) array, got {X.shape}")
    if X.dtype.kind not in "fiu":
        raise TypeError("embeddings must be real numbers")
    X = X.astype(float)
    if not np.all(np.isfinite(X)):
        raise ValueError("embeddings contain NaN or infinite entries")
    norms = np.linalg.norm(X, axis=1)
    if np.any(norms == 0):
        raise ValueError(f"sentences {np.flatnonzero(norms == 0)[:5].tolist()} have zero "
                         "embeddings: cosine similarity is undefined for them")
    return X / norms[:, None]


def _lengths(lengths: Sequence[int] | None, n: int) -> tuple[int, ...]:
    if lengths is None:
        return (1,) * n
    if isinstance(lengths, str | bytes) or not hasattr(lengths, "__iter__"):
        raise TypeError(f"lengths must be a sequence of token counts, got {lengths!r}")
    out = tuple(check_int("lengths entry", x) for x in lengths)
    if len(out) != n:
        raise ValueError(f"lengths has {len(out)} entries for {n} sentences")
    if any(x < 1 for x in out):
        raise ValueError("sentence lengths must be positive token counts")
    return out


def knn_graph(embeddings: npt.ArrayLike, *, k: int, method: NeighbourMethod = "auto",
              min_similarity: float | None = None) -> nx.Graph:
    """The k-nearest-neighbour graph under cosine similarity (undirected, weight = cosine).

    Node i is joined to its k most similar other sentences (ties broken by index); with
    ``min_similarity`` only neighbours at least that similar are kept (the paper: 0.8).
    ``method='exact'`` uses dense products, ``'kdtree'`` a :class:`scipy.spatial.cKDTree` on the
    unit vectors; ``'auto'`` picks the KD-tree for more than 4096 sentences in dimension <= 16.

    Parameters
    ----------
    embeddings : array_like
        One row per sentence.
    k : int, keyword-only
        Neighbours per node.
    method : {'auto', 'exact', 'kdtree'}, keyword-only
        The search (default ``'auto'``).
    min_similarity : float, optional, keyword-only
        Keep only neighbours at least this similar.

    Returns
    -------
    networkx.Graph
        The graph, edges weighted by cosine similarity.

    References
    ----------
    .. [1] 000, Sec. 3.1-3.2 and App. D (kNN-TAPT, kNN-Pretraining).

    Examples
    --------
    >>> G = knn_graph([[1, 0], [0.9, 0.1], [0, 1], [0.1, 0.9]], k=1)
    >>> sorted(G.edges())
    [(0, 1), (2, 3)]
    """
    U = _unit_rows(embeddings)
    n = U.shape[0]
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k < n:
        raise ValueError(f"k must be an integer in 1..{n - 1} (n_sentences - 1), got {k!r}")
    if method == "auto":
        method = "kdtree" if n > 4096 and U.shape[1] <= 16 else "exact"
    G = nx.Graph()
    G.add_nodes_from(range(n))
    if method == "exact":
        for start in range(0, n, 2048):
            S = U[start:start + 2048] @ U.T
            rows = np.arange(S.shape[0])
            S[rows, start + rows] = -np.inf
            # stable sort on (-similarity, index) breaks ties by index
            order = np.argsort(-S, axis=1, kind="stable")[:, :k]
            for r, nbrs in enumerate(order):
                for j in nbrs:
                    _add_edge(G, start + r, int(j), float(S[r, j]), min_similarity)
    elif method == "kdtree":
        tree = cKDTree(U)
        _, idx = tree.query(U, k=k + 1)
        for i in range(n):
            nbrs = [int(j) for j in np.atleast_1d(idx[i]) if j != i][:k]
            for j in nbrs:
                _add_edge(G, i, j, float(U[i] @ U[j]), min_similarity)
    else:
        raise ValueError(f"method must be 'auto', 'exact' or 'kdtree', got {method!r}")
    return G


def _add_edge(G: nx.Graph, i: int, j: int, sim: float, min_similarity: float | None) -> None:
    if min_similarity is None or sim >= min_similarity:
        G.add_edge(i, j, weight=sim)


def knn_examples(
    embeddings: npt.ArrayLike, *, k: int, example_length: int,
    seed: SeedLike, lengths: Sequence[int] | None = None,
    separator_length: int = 0, min_similarity: float | None = None,
    mode: Literal["partition", "per_sentence"] = "partition",
    method: NeighbourMethod = "auto",
) -> ExamplePacking:
    """Pack pretraining examples that place sentences with their nearest neighbours.

    Parameters
    ----------
    embeddings : array_like, shape (n_sentences, dim)
        Sentence embeddings (nonzero rows).
    k : int, keyword-only
        Neighbours per sentence in the kNN graph.
    example_length : int, keyword-only
        Token budget of an example (the paper: 256).
    seed : int or Generator, keyword-only
        Order in which example seeds are visited (``'partition'``).
    lengths : sequence of int, optional
        Tokens per sentence (default 1 each, so ``example_length`` counts sentences).
    separator_length : int
        Tokens of the separator inserted between two sentences (the paper inserts one).
    min_similarity : float, optional
        Keep only neighbours with at least this cosine (the paper: 0.8).
    mode : {'partition', 'per_sentence'}
        ``'partition'``: visit sentences in a random order; an unused sentence starts an example
        that grows by the most similar unused neighbour of any sentence already in it
        (best-first over the graph) while it fits; every sentence is used exactly once.
        ``'per_sentence'``: one example per sentence, followed by its own neighbours in
        decreasing similarity while they fit (kNN-TAPT); sentences repeat across examples.
    method : {'auto', 'exact', 'kdtree'}
        Neighbour search (:func:`knn_graph`).

    Returns
    -------
    ExamplePacking

    References
    ----------
    .. [1] 000, Sec. 3.1-3.2 and App. D (kNN-TAPT, kNN-Pretraining).

    Examples
    --------
    >>> E = [[1, 0], [0, 1], [0.95, 0.05], [0.05, 0.95]]
    >>> ex = knn_examples(E, k=1, example_length=2, seed=0)
    >>> sorted(tuple(sorted(e)) for e in ex)
    [(0, 2), (1, 3)]
    """
    U = _unit_rows(embeddings)
    n = U.shape[0]
    lens = _lengths(lengths, n)
    _check_budget(example_length, separator_length, lens)
    G = knn_graph(U, k=k, method=method, min_similarity=min_similarity)
    examples: list[tuple[int, ...]] = []
    if mode == "per_sentence":
        for s in range(n):
            ex, used = [s], lens[s]
            nbrs = sorted(G[s].items(), key=lambda kv: (-kv[1]["weight"], kv[0]))
            for j, _ in nbrs:
                extra = lens[j] + separator_length
                if used + extra <= example_length:
                    ex.append(j)
                    used += extra
            examples.append(tuple(ex))
    elif mode == "partition":
        rng = as_generator(seed)
        done = np.zeros(n, dtype=bool)
        for s in (int(x) for x in rng.permutation(n)):
            if done[s]:
                continue
            ex, used = [s], lens[s]
            done[s] = True
            frontier: list[tuple[float, int]] = []
            for j, data in G[s].items():
                heapq.heappush(frontier, (-data["weight"], j))
            while frontier:
                _, j = heapq.heappop(frontier)
                extra = lens[j] + separator_length
                if done[j] or used + extra > example_length:
                    continue
                ex.append(j)
                used += extra
                done[j] = True
                for m, data in G[j].items():
                    if not done[m]:
                        heapq.heappush(frontier, (-data["weight"], m))
            examples.append(tuple(ex))
    else:
        raise ValueError(f"mode must be 'partition' or 'per_sentence', got {mode!r}")
    return ExamplePacking(tuple(examples), example_length, lens, separator_length,
                          f"knn-{mode}(k={k})", G)


def _check_budget(example_length: int, separator_length: int, lens: tuple[int, ...]) -> None:
    check_int("example_length", example_length)
    check_int("separator_length", separator_length, 0)
    if example_length < max(lens):
        raise ValueError(f"example_length = {example_length} is shorter than the longest "
                         f"sentence ({max(lens)} tokens); no packing can place it")


def contiguous_examples(n_sentences: int, *, example_length: int,
                        lengths: Sequence[int] | None = None,
                        separator_length: int = 0) -> ExamplePacking:
    """The baseline: consecutive sentences packed in corpus order up to the token budget.

    Parameters
    ----------
    n_sentences : int
        Corpus size.
    example_length : int, keyword-only
        Token budget of an example.
    lengths : sequence of int, optional, keyword-only
        Sentence lengths (default: 1 token each).
    separator_length : int, keyword-only
        Tokens between sentences (default 0).

    Returns
    -------
    ExamplePacking
        The examples.

    References
    ----------
    .. [1] 000, Sec. 3.1-3.2 and App. D (kNN-TAPT, kNN-Pretraining).

    Examples
    --------
    >>> contiguous_examples(5, example_length=2).examples
    ((0, 1), (2, 3), (4,))
    """
    n_sentences = check_int("n_sentences", n_sentences)
    guard_memory(64 * n_sentences, what=f"the packing of {n_sentences:,} sentences",
                 fix="pack fewer sentences")
    lens = _lengths(lengths, n_sentences)
    _check_budget(example_length, separator_length, lens)
    examples, current, used = [], [0], lens[0]
    for s in range(1, n_sentences):
        extra = lens[s] + separator_length
        if used + extra <= example_length:
            current.append(s)
            used += extra
        else:
            examples.append(tuple(current))
            current, used = [s], lens[s]
    examples.append(tuple(current))
    return ExamplePacking(tuple(examples), example_length, lens, separator_length, "contiguous")


def in_context_coverage(examples: Iterable[Iterable[int]],
                        pairs: Iterable[tuple[int, int]]) -> float:
    """Fraction of related pairs (i, j) that appear together in at least one example.

    Parameters
    ----------
    examples : iterable of iterables of int
        The training examples (sentence indices).
    pairs : iterable of (int, int)
        The related pairs.

    Returns
    -------
    float
        The fraction in [0, 1].

    References
    ----------
    .. [1] 000, Sec. 3.1-3.2 and App. D (kNN-TAPT, kNN-Pretraining).

    Examples
    --------
    >>> in_context_coverage([(0, 1), (2, 3)], [(0, 1), (1, 2)])
    0.5
    """
    where: dict[int, set[int]] = {}
    for name, value in (("examples", examples), ("pairs", pairs)):
        if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
            raise TypeError(f"{name} must be an iterable of sentence-index tuples, got {value!r}")
    for e, ex in enumerate(examples):
        if isinstance(ex, str | bytes) or not hasattr(ex, "__iter__"):
            raise TypeError(f"examples[{e}] must be a tuple of sentence indices, got {ex!r}")
        for s in ex:
            where.setdefault(check_int(f"examples[{e}] entry", s, 0), set()).add(e)
    total = covered = 0
    for pair in pairs:
        if isinstance(pair, str | bytes) or len(pair) != 2:
            raise TypeError(f"pairs must hold (i, j) index pairs, got {pair!r}")
        i, j = (check_int("pairs entry", x, 0) for x in pair)
        if i == j:
            raise ValueError(f"pair ({i}, {j}) relates a sentence to itself")
        total += 1
        if where.get(i, set()) & where.get(j, set()):
            covered += 1
    if total == 0:
        raise ValueError("no related pairs given: coverage is undefined")
    return covered / total


@dataclass(frozen=True)
class SyntheticCorpus:
    """Sentence embeddings with topic labels, corpus order and the related pairs (same topic).

    Parameters
    ----------
    embeddings : numpy.ndarray
        Sentence embeddings, one row per sentence.
    topics : numpy.ndarray
        Each sentence's topic.
    lengths : tuple of int
        Each sentence's length in tokens.
    related_pairs : tuple of (int, int)
        The pairs of sentences with the same topic.
    """

    embeddings: Array
    topics: Array
    lengths: tuple[int, ...]
    related_pairs: tuple[tuple[int, int], ...]


def synthetic_corpus(n_topics: int, per_topic: int, dim: int, *, noise: float = 0.3,
                     min_length: int = 8, max_length: int = 40,
                     layout: Literal["interleaved", "shuffled"] = "interleaved",
                     seed: SeedLike = None) -> SyntheticCorpus:
    """A corpus whose related sentences (same topic) lie far apart in corpus order.

    Topic centres are uniform on the sphere; a sentence is its centre plus ``noise`` times a
    Gaussian of norm ~1.  ``'interleaved'``: sentence s belongs to topic ``s mod n_topics``, so
    related sentences are ``n_topics`` positions apart; ``'shuffled'``: random order.

    Parameters
    ----------
    n_topics : int
        Number of topics.
    per_topic : int
        Sentences per topic.
    dim : int
        Embedding dimension.
    noise : float, keyword-only
        Scale of a sentence's deviation from its topic centre (default 0.3).
    min_length, max_length : int, keyword-only
        Range of the sentence lengths in tokens (default 8..40).
    layout : {'interleaved', 'shuffled'}, keyword-only
        Corpus order.
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the corpus.

    Returns
    -------
    SyntheticCorpus
        The corpus.

    References
    ----------
    .. [1] 000, Sec. 3.1-3.2 and App. D (kNN-TAPT, kNN-Pretraining).

    Examples
    --------
    >>> c = synthetic_corpus(4, 3, 8, seed=0)
    >>> c.embeddings.shape, c.topics[:5].tolist(), len(c.related_pairs)
    ((12, 8), [0, 1, 2, 3, 0], 12)
    """
    rng = as_generator(seed)
    n_topics, per_topic = check_int("n_topics", n_topics), check_int("per_topic", per_topic, 2)
    dim = check_int("dim", dim)
    noise = check_float("noise", noise, minimum=0)
    min_length = check_int("min_length", min_length)
    max_length = check_int("max_length", max_length, min_length)
    guard_memory(4 * array_bytes((n_topics * per_topic, dim)),
                 what=f"{n_topics * per_topic:,} sentence embeddings of dimension {dim:,}",
                 fix="use fewer topics, sentences or dimensions")
    centres = rng.standard_normal((n_topics, dim))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    n = n_topics * per_topic
    topics = np.arange(n) % n_topics
    if layout == "shuffled":
        topics = topics[rng.permutation(n)]
    elif layout != "interleaved":
        raise ValueError(f"layout must be 'interleaved' or 'shuffled', got {layout!r}")
    emb = centres[topics] + noise * rng.standard_normal((n, dim)) / np.sqrt(dim)
    lengths = tuple(int(x) for x in rng.integers(min_length, max_length + 1, n))
    pairs = tuple((int(i), int(j)) for t in range(n_topics)
                  for i, j in _pairs(np.flatnonzero(topics == t)))
    return SyntheticCorpus(emb, topics, lengths, pairs)


def _pairs(idx: Array) -> Iterator[tuple[int, int]]:
    for a in range(len(idx)):
        for b in range(a + 1, len(idx)):
            yield int(idx[a]), int(idx[b])
