"""Dyck (stack states, prefixes, the balance condition, Theorem 1's construction) and the
bridge (ours): separation ranks of an automaton's final state checked against brute force and
against the proven bounds on random automata and cuts."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import separation_rank
from seprank.automata import (
    Semiautomaton,
    attention_output,
    balance_solution_space,
    balanced_construction,
    coefficient_rank,
    cut_rank_bound,
    cut_separation_rank,
    dyck_prefixes,
    final_state_function,
    final_state_grid,
    flip_flop,
    insert_matched_pairs,
    minimal_dfa_states,
    modular_counter,
    parity,
    printed_embedding_collisions,
    random_attention_variation,
    reachable_stacks,
    score_kernel_rank,
    uniform_first_layer,
)
from seprank.core import ModularDomain, grid_tensor, matricize

INVARIANCE_RTOL = 1e-11
TEST_PRIME = 16777259


@pytest.mark.parametrize("k,n", [(1, 3), (2, 4), (3, 3), (8, 2)])
def test_reachable_stacks_closed_form_and_minimal_dfa(k: int, n: int) -> None:
    reach, classes = reachable_stacks(k, n)
    assert reach == sum(k**i for i in range(n + 1)) and classes == (k + 1) ** n
    if k**n <= 64:
        assert minimal_dfa_states(k, n) == reach + 1


@pytest.mark.parametrize("k,D,N", [(1, 2, 6), (2, 2, 5), (2, 3, 6)])
def test_dyck_prefixes_against_brute_force(k: int, D: int, N: int) -> None:
    def valid(word: tuple[int, ...]) -> bool:
        stack: list[int] = []
        for tok in word:
            t = (tok + 1) // 2
            if tok % 2:
                if len(stack) == D:
                    return False
                stack.append(t)
            elif not stack or stack.pop() != t:
                return False
        return True

    brute = {w for w in itertools.product(range(1, 2 * k + 1), repeat=N) if valid(w)}
    ours = {tuple(t for t, _ in p) for p in dyck_prefixes(k, D, N)}
    assert ours == brute


def test_printed_embedding_collides_k_times() -> None:
    for k, D in ((1, 2), (2, 3), (3, 4)):
        assert printed_embedding_collisions(k, D) == (2 * k * D - k, 2 * k * D)


@pytest.mark.parametrize("k,D", [(2, 2), (2, 3), (3, 2)])
def test_balanced_construction_satisfies_the_condition_and_is_invariant(k: int, D: int) -> None:
    dim, m, du, dv = balance_solution_space(k, D)
    assert dim == m * m - du * dv and dim > 0
    C = balanced_construction(k, D, seed=k + D)
    queries = [C.embed[(2 * j, d)] for j in range(1, k + 1) for d in range(1, D)]
    for i in range(1, k + 1):
        for d in range(1, D + 1):
            u = C.embed[(2 * i - 1, d)] - C.embed[(2 * i, d - 1)]
            vals = [u @ C.M @ q for q in queries]
            assert np.ptp(vals) < 1e-12 and vals[0] == pytest.approx(C.a[(i, d)])
    rng = np.random.default_rng(0)
    V = balanced_construction(k, D, seed=k + D, violation=0.3)
    for p in dyck_prefixes(k, D, 6):
        if p[-1][0] % 2 or p[-1][1] == 0:
            continue
        pos = int(rng.integers(len(p)))
        depth = p[pos - 1][1] if pos else 0
        if depth == D:
            continue
        q = insert_matched_pairs(p, [(pos, 1, depth + 1)] * 2)
        base = attention_output(C, p)
        assert np.abs(attention_output(C, q) - base).max() <= INVARIANCE_RTOL * \
            np.abs(base).max()
        vb = attention_output(V, p)
        assert np.abs(attention_output(V, q) - vb).max() > 1e-3 * np.abs(vb).max()


def test_insertion_is_validated() -> None:
    with pytest.raises(ValueError, match="depth"):
        insert_matched_pairs([(1, 1), (2, 0)], [(1, 1, 1)])     # depth 1 before position 1


def test_uniform_first_layer_needs_the_start_token() -> None:
    outs: dict[tuple[int, int], set] = {}
    bare: dict[tuple[int, int], set] = {}
    for N in range(1, 7):
        for p in dyck_prefixes(2, 3, N):
            outs.setdefault(p[-1], set()).add(tuple(np.round(uniform_first_layer(p, 2), 10)))
            bare.setdefault(p[-1], set()).add(
                tuple(np.round(uniform_first_layer(p, 2, start_token=False), 10)))
    assert all(len(v) == 1 for v in outs.values())
    assert len(set().union(*outs.values())) == len(outs)
    assert len(set().union(*bare.values())) < len(bare)


def test_random_attention_variation_closed_form() -> None:
    exact, _ = random_attention_variation(15)
    assert exact == pytest.approx(2.886458, abs=1e-6)
    draws = [random_attention_variation(8, seed=s)[1] for s in range(300)]
    assert np.mean(draws) == pytest.approx(random_attention_variation(8)[0], rel=0.02)
    assert random_attention_variation(15, causal=False)[0] == pytest.approx(1.75)


def random_automaton(n_states: int, n_symbols: int, seed: int) -> Semiautomaton:
    table = np.random.default_rng(seed).integers(0, n_states, (n_symbols, n_states))
    return Semiautomaton(range(n_states), range(n_symbols), table)


def test_final_state_function_is_the_indicator_on_one_hot_words() -> None:
    A = flip_flop()
    W = A.all_words(4)
    X = np.eye(A.n_symbols, dtype=np.int64)[W]
    for q in A.states:
        f = final_state_function(A, 1, q)
        ref = (A.run_indices(W, 0)[:, -1] == A.state_index(q)).astype(int)
        assert (np.asarray(f(X, domain=ModularDomain(TEST_PRIME))) == ref).all()
        assert np.allclose(f(X.astype(float)), ref)


def test_tensor_train_grid_equals_the_generic_grid() -> None:
    A, T, part = random_automaton(3, 2, 5), 4, ([0, 2], [1, 3])
    dom = ModularDomain(TEST_PRIME)
    X = np.random.default_rng(1).integers(0, TEST_PRIME, (3, A.n_symbols))
    f = final_state_function(A, 0, 1)
    generic = matricize(grid_tensor(lambda Y: f(Y, domain=dom), dom.asarray(X), T), *part)
    fast = final_state_grid(A, 0, 1, T, part)(X, dom)
    assert (np.asarray(generic) % TEST_PRIME == np.asarray(fast) % TEST_PRIME).all()


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4), st.integers(1, 3), st.integers(0, 10**6), st.integers(3, 5))
def test_proven_bounds_hold_on_random_automata_and_cuts(n: int, s: int, seed: int,
                                                         T: int) -> None:
    A = random_automaton(n, s, seed)
    rng = np.random.default_rng(seed)
    mask = rng.integers(0, 2, T).astype(bool)
    if mask.all() or not mask.any():
        mask[0] = not mask[0]
    part = (list(np.flatnonzero(mask)), list(np.flatnonzero(~mask)))
    bounds = cut_rank_bound(A, 0, T, part)
    rank = coefficient_rank(A, 0, seed % n, T, part)
    assert rank <= bounds["bound"]
    k = int(rng.integers(1, T))
    assert coefficient_rank(A, 0, seed % n, T, (list(range(k)), list(range(k, T)))) <= n


@pytest.mark.parametrize("make,n", [(parity, 2), (lambda: modular_counter(3), 3)])
def test_commutative_automata_stay_flat_on_every_cut(make: object, n: int) -> None:
    A = make()  # type: ignore[operator]
    for mask in itertools.product([0, 1], repeat=5):
        if 0 < sum(mask) < 5:
            part = ([i for i in range(5) if mask[i]], [i for i in range(5) if not mask[i]])
            assert coefficient_rank(A, 0, 0, 5, part) <= n


def test_cut_separation_rank_routes_agree() -> None:
    r = cut_separation_rank(flip_flop(), 1, 1, 6, ([0, 2, 4], [1, 3, 5]), seed=0)
    assert r.rank == r.certified_lower == 6 and r.bound == 18 and r.blocks == 6
    generic = separation_rank(final_state_function(flip_flop(), 1, 1), n_inputs=6, dim=3,
                              partition=([0, 2, 4], [1, 3, 5]), method="exact", n_templates=3,
                              seed=0)
    assert generic.rank <= r.rank


def test_score_kernel_rank_is_the_rank_of_the_bilinear_form() -> None:
    rng = np.random.default_rng(0)
    for r in (0, 1, 2, 4):
        W_Q, W_K = rng.integers(-3, 4, (6, r)), rng.integers(-3, 4, (6, r))
        expected = np.linalg.matrix_rank(W_Q @ W_K.T) if r else 0
        assert score_kernel_rank(W_Q, W_K).rank == expected
        assert score_kernel_rank(W_Q.astype(float), W_K.astype(float), method="svd").rank == \
            expected
    with pytest.raises(TypeError, match="exact entries"):
        score_kernel_rank(rng.normal(size=(3, 1)), rng.normal(size=(3, 1)))
