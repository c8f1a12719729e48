"""kNN pretraining example design: graphs, packings, coverage, refusals."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.incontext.pretraining import (
    contiguous_examples,
    in_context_coverage,
    knn_examples,
    knn_graph,
    synthetic_corpus,
)


def _brute_knn(X: np.ndarray, k: int) -> dict[int, set[int]]:
    U = X / np.linalg.norm(X, axis=1, keepdims=True)
    out = {}
    for i in range(len(U)):
        sims = sorted((-(U[i] @ U[j]), j) for j in range(len(U)) if j != i)
        out[i] = {j for _, j in sims[:k]}
    return out


@pytest.mark.parametrize("method", ["exact", "kdtree"])
def test_knn_graph_matches_brute_force(method: str) -> None:
    X = np.random.default_rng(0).standard_normal((60, 5))
    k = 4
    G = knn_graph(X, k=k, method=method)
    brute = _brute_knn(X, k)
    expected = {frozenset((i, j)) for i, nb in brute.items() for j in nb}
    assert {frozenset(e) for e in G.edges()} == expected
    for i, j, data in G.edges(data=True):
        cos = X[i] @ X[j] / np.linalg.norm(X[i]) / np.linalg.norm(X[j])
        assert data["weight"] == pytest.approx(cos, rel=1e-12)


def test_min_similarity_drops_weak_edges() -> None:
    X = np.random.default_rng(1).standard_normal((40, 3))
    G = knn_graph(X, k=5, min_similarity=0.8)
    assert all(d["weight"] >= 0.8 for *_, d in G.edges(data=True))
    assert G.number_of_edges() < knn_graph(X, k=5).number_of_edges()


@settings(max_examples=30, deadline=None)
@given(n=st.integers(5, 60), k=st.integers(1, 4), budget=st.integers(40, 120),
       seed=st.integers(0, 10**6))
def test_partition_uses_every_sentence_once_within_budget(n: int, k: int, budget: int,
                                                          seed: int) -> None:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 4))
    lengths = [int(x) for x in rng.integers(5, 40, n)]
    packing = knn_examples(X, k=k, example_length=budget, seed=seed, lengths=lengths,
                           separator_length=1)
    assert sorted(s for e in packing for s in e) == list(range(n))
    assert all(packing.tokens(e) <= budget for e in packing)


def test_per_sentence_examples_start_with_their_seed_and_follow_neighbours() -> None:
    X = np.random.default_rng(2).standard_normal((30, 4))
    packing = knn_examples(X, k=3, example_length=4, seed=0, mode="per_sentence")
    G = packing.graph
    assert G is not None and len(packing) == 30
    for s, ex in enumerate(packing):
        assert ex[0] == s and set(ex[1:]) <= set(G[s]) and len(ex) <= 4


def test_contiguous_packing_in_order() -> None:
    packing = contiguous_examples(7, example_length=10, lengths=[4, 4, 4, 9, 1, 1, 1],
                                  separator_length=1)
    assert packing.examples == ((0, 1), (2,), (3,), (4, 5, 6))


def test_coverage_definition() -> None:
    assert in_context_coverage([(0, 1, 2), (3,)], [(0, 2), (2, 3), (1, 0)]) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="itself"):
        in_context_coverage([(0, 1)], [(1, 1)])
    with pytest.raises(ValueError, match="no related pairs"):
        in_context_coverage([(0, 1)], [])


def test_knn_beats_contiguous_on_interleaved_topics() -> None:
    corpus = synthetic_corpus(30, 12, 16, seed=3)
    n = corpus.embeddings.shape[0]
    cont = contiguous_examples(n, example_length=128, lengths=corpus.lengths,
                               separator_length=1)
    knn = knn_examples(corpus.embeddings, k=6, example_length=128, seed=0,
                       lengths=corpus.lengths, separator_length=1)
    # 30 interleaved topics, at most ~15 sentences per example: no two related ones meet
    assert in_context_coverage(cont, corpus.related_pairs) == 0.0
    assert in_context_coverage(knn, corpus.related_pairs) > 0.3
    shuffled = synthetic_corpus(30, 12, 16, layout="shuffled", seed=3)
    assert sorted(shuffled.topics.tolist()) == sorted(corpus.topics.tolist())


def test_synthetic_pairs_are_all_same_topic_pairs() -> None:
    c = synthetic_corpus(3, 4, 5, seed=0)
    expected = {(i, j) for i, j in itertools.combinations(range(12), 2)
                if c.topics[i] == c.topics[j]}
    assert set(c.related_pairs) == expected


def test_refusals() -> None:
    X = np.random.default_rng(0).standard_normal((5, 3))
    with pytest.raises(ValueError, match="k must be"):
        knn_graph(X, k=5)
    with pytest.raises(ValueError, match="zero embeddings"):
        knn_graph(np.vstack([X, np.zeros(3)]), k=2)
    with pytest.raises(ValueError, match="NaN"):
        knn_graph(np.vstack([X, [np.nan, 0, 1]]), k=2)
    with pytest.raises(ValueError, match="longest sentence"):
        knn_examples(X, k=2, example_length=3, seed=0, lengths=[1, 2, 5, 1, 1])
    with pytest.raises(ValueError, match="lengths has"):
        knn_examples(X, k=2, example_length=3, seed=0, lengths=[1, 2])
    with pytest.raises(ValueError, match="mode"):
        knn_examples(X, k=2, example_length=3, seed=0, mode="batch")  # type: ignore[arg-type]
