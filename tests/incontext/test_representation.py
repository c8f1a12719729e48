"""Z_in(a, b), its certified seq-sep, the fast GF(p) evaluator, spectra, refusals (seed 000/001)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import LinearAttention, eps_rank
from seprank.core.domains import ExactDomain, FloatDomain, ModularDomain
from seprank.incontext.bounds import bidegree_bound
from seprank.incontext.modular import modular_grid, modular_pair_values
from seprank.incontext.representation import (
    InContextRepresentation,
    random_embedding,
    validate_sentences,
)
from seprank.incontext.seq_sep import grid_spectrum, incontext_seq_sep

PRIME = 16777259  # a prime in [2**24, 2**25)
FLOAT_RTOL = 1e-12


def test_Z11_equals_network_output_exactly() -> None:
    rep = InContextRepresentation.random(depth=2, width=4, heads=2, n_tokens=3, seed=0,
                                         position=4, coordinate=1)
    X = np.concatenate([rep.embedding[:, list(rep.first)].T,
                        rep.embedding[:, list(rep.second)].T])
    assert rep.value() == rep.net(X)[4, 1]
    # and against the explicit sums of eq. 3 (float reference of the foundation)
    ref = rep.net.loop_form(X)[4, 1]
    assert float(rep.value()) == pytest.approx(ref, rel=FLOAT_RTOL)


@settings(max_examples=25, deadline=None)
@given(t=st.integers(-5, 5), s=st.integers(1, 4), seed=st.integers(0, 10**6))
def test_homogeneity_degree_3L(t: int, s: int, seed: int) -> None:
    rep = InContextRepresentation.random(depth=2, width=2, n_tokens=2, seed=seed)
    rng = np.random.default_rng(seed)
    a, b = rng.integers(-9, 10, (2, 2))
    assert rep(t * a, t * b) == t**9 * rep(a, b)
    # scaling only a multiplies each bidegree part by s^(odd): Z(s a, b) != s^k Z in general,
    # but Z(-a, b) = -Z(a, b) because every a-degree is odd (i in S1)
    assert rep(-a, b) == -rep(a, b)


@pytest.mark.parametrize("i", [0, 1, 2, 3])
def test_a_degree_parity(i: int) -> None:
    """Our derivation: odd a-degrees when i is in S1, even when i is in S2 (notes §1.7)."""
    rep = InContextRepresentation.random(depth=2, width=3, n_tokens=2, seed=5, position=i)
    a, b = np.array([2, -1, 3]), np.array([1, 2, -2])
    profile = rep.a_degree_profile(a, b)
    assert sum(profile) == rep(a, b)
    nonzero = [m for m, c in enumerate(profile) if c != 0]
    assert nonzero and all(m % 2 == (1 if i < 2 else 0) for m in nonzero)


def test_grid_matches_pointwise() -> None:
    rep = InContextRepresentation.random(depth=1, width=3, n_tokens=2, seed=2)
    A, B = np.random.default_rng(0).integers(-5, 6, (2, 4, 3))
    G = rep.grid(A, B)
    assert all(G[r, s] == rep(A[r], B[s]) for r in range(4) for s in range(4))


@pytest.mark.parametrize("L,d,H,N,i", [(1, 3, 1, 2, 0), (1, 3, 3, 1, 1), (2, 4, 2, 2, 3),
                                        (3, 2, 1, 1, 0), (2, 6, 3, 1, 1), (3, 2, 2, 2, 2)])
def test_fast_modular_paths_equal_generic(L: int, d: int, H: int, N: int, i: int) -> None:
    rep = InContextRepresentation.random(depth=L, width=d, heads=H, n_tokens=N, seed=L + d,
                                         position=i, coordinate=d - 1)
    F = ModularDomain(PRIME)
    A, B = np.random.default_rng(1).integers(0, PRIME, (2, 6, d))
    generic = rep.grid(A, B, domain=F)
    assert np.array_equal(modular_grid(rep, A, B, F), generic)
    assert np.array_equal(modular_pair_values(rep, A, B, F), np.diagonal(generic))


def test_modular_values_reduce_exact_values() -> None:
    rep = InContextRepresentation.random(depth=2, width=3, n_tokens=2, seed=3)
    A, B = np.random.default_rng(2).integers(-30, 31, (2, 5, 3))
    exact = rep.grid(A, B, domain=ExactDomain())
    mod = modular_grid(rep, A, B, ModularDomain(PRIME))
    assert np.array_equal(np.vectorize(lambda x: int(x) % PRIME)(exact), mod)


@pytest.mark.parametrize("d,H,L,N", [(2, 1, 1, 2), (2, 1, 2, 1), (3, 1, 2, 2), (4, 2, 2, 1),
                                     (2, 1, 3, 1)])
def test_seq_sep_reaches_hand_computed_PB(d: int, H: int, L: int, N: int) -> None:
    hand = {(2, 1): 3, (2, 2): 15, (3, 2): 35, (4, 2): 70, (2, 3): 105}[(d, L)]
    rep = InContextRepresentation.random(depth=L, width=d, heads=H, n_tokens=N, seed=d + 7 * L)
    r = incontext_seq_sep(rep, seed=0)
    assert r.upper_bound == hand and r.rank == hand and r.certifies == "exact"


def test_exact_and_modular_agree_and_symbolic_is_exact() -> None:
    rep = InContextRepresentation.random(depth=2, width=2, n_tokens=1, seed=4)
    modular = incontext_seq_sep(rep, seed=1)
    exact = incontext_seq_sep(rep, method="exact", seed=1)
    symbolic = incontext_seq_sep(rep, method="symbolic")
    assert modular.rank == exact.rank == symbolic.rank == 15
    assert symbolic.certifies == "exact" and exact.engine is not None


def test_d_a_one_stays_below_PB_and_is_only_a_lower_bound() -> None:
    rep = InContextRepresentation.random(depth=2, width=4, heads=4, n_tokens=2, seed=9)
    r = incontext_seq_sep(rep, seed=2)
    assert r.rank <= bidegree_bound(4, 2) and r.certifies in ("lower_bound", "exact")
    if r.rank < 70:
        assert r.certifies == "lower_bound" and ">=" in r.statement


def test_svd_method_certifies_nothing() -> None:
    rep = InContextRepresentation.random(depth=1, width=2, n_tokens=1, seed=1)
    r = incontext_seq_sep(rep, method="svd", seed=0)
    assert r.certifies == "none" and r.rank <= 3


def test_separable_when_one_side_is_absent() -> None:
    """Depth 1 with i in S1 and N = 1: Z = <Qu, Ku> Wu + <Qu, Kv> Wv -- rank PB(d, 1) = d + 1."""
    rep = InContextRepresentation.random(depth=1, width=3, n_tokens=1, seed=6)
    assert incontext_seq_sep(rep, seed=3).rank == 4 == bidegree_bound(3, 1)


def test_grid_spectrum_brackets_are_ordered() -> None:
    rep = InContextRepresentation(LinearAttention.random(depth=2, width=2, weights="float",
                                                         seed=0),
                                  np.random.default_rng(0).standard_normal((2, 3)), [0, 1],
                                  [2, 0])
    A, B = np.random.default_rng(1).uniform(0.5, 1.5, (2, 20, 2))
    G = rep.grid(A, B)
    spec = grid_spectrum(G, [1e-3, 1e-8])
    for mode, eps, lo, hi in spec.table():
        assert lo <= hi
        assert (lo, hi) == eps_rank(G, eps, mode=mode).bracket
    # seq-sep <= PB(2, 2) = 15 bounds every grid rank: the rest is float rounding
    assert spec.count_above(1e-10 * spec.singular_values[0]) <= 15


# --- refusals ------------------------------------------------------------------------------

def test_out_of_vocabulary_token_is_refused() -> None:
    with pytest.raises(ValueError, match="out of vocabulary"):
        validate_sentences(np.ones((2, 3), dtype=int), [0, 1], [1, -1])


def test_unequal_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="same length"):
        validate_sentences(np.ones((2, 3), dtype=int), [0, 1, 2], [1, 1])


def test_non_integer_token_is_refused() -> None:
    with pytest.raises(ValueError, match="not an integer"):
        validate_sentences(np.ones((2, 3), dtype=int), [0, 1.0], [1, 1])  # type: ignore[list-item]


def test_bad_positions_and_shapes_are_refused() -> None:
    net = LinearAttention.random(depth=1, width=2, seed=0)
    E = random_embedding(2, 3, seed=0)
    with pytest.raises(ValueError, match=r"outside 0\.\.3"):
        InContextRepresentation(net, E, [0, 1], [1, 2], position=4)
    with pytest.raises(ValueError, match="d_x = 3 rows"):
        InContextRepresentation(net, random_embedding(3, 3, seed=0), [0], [1])
    with pytest.raises(ValueError, match="residual"):
        InContextRepresentation(LinearAttention.random(depth=1, width=2, residual=True, seed=0),
                                E, [0], [1])
    rep = InContextRepresentation(net, E, [0], [1])
    with pytest.raises(ValueError, match="shape"):
        rep(np.ones(3, dtype=int), np.ones(2, dtype=int))


def test_nan_embedding_is_refused() -> None:
    with pytest.raises(ValueError, match="NaN"):
        validate_sentences(np.array([[1.0, np.nan]]), [0], [1])


def test_float_embedding_cannot_be_certified() -> None:
    net = LinearAttention.random(depth=1, width=2, seed=0)
    rep = InContextRepresentation(net, np.ones((2, 2)) * 0.5, [0], [1])
    assert isinstance(rep._domain(np.ones(2)), FloatDomain)
    with pytest.raises(TypeError, match="floats"):
        incontext_seq_sep(rep, seed=0)


def test_exact_fraction_embeddings_work() -> None:
    net = LinearAttention.random(depth=1, width=2, seed=0)
    E = np.array([[Fraction(1, 2), Fraction(3)], [Fraction(-2, 3), Fraction(1)]], dtype=object)
    rep = InContextRepresentation(net, E, [0], [1])
    assert incontext_seq_sep(rep, seed=0).rank == 3
