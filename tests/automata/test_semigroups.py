"""Semiautomata and transformation semigroups: matrix identities, brute-force closures, the
field library (libsemigroups) as a cross-check, group facts with known values."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.automata import (
    Semiautomaton,
    SemigroupTooLargeError,
    abab_star,
    alternating_group,
    composition_length,
    derived_series_orders,
    dihedral,
    dihedral_group,
    flip_flop,
    footnote17,
    gridworld,
    libsemigroups_summary,
    modular_counter,
    monoid_census,
    parity,
    permutation_group,
    quaternion_group,
    rubik,
    rubik_wreath_bound,
    split_extensions,
    subgroups,
    symmetric_group,
)


def random_automaton(n_states: int, n_symbols: int, seed: int) -> Semiautomaton:
    table = np.random.default_rng(seed).integers(0, n_states, (n_symbols, n_states))
    return Semiautomaton(range(n_states), range(n_symbols), table, name="random")


automata = st.builds(random_automaton, st.integers(1, 4), st.integers(1, 3),
                     st.integers(0, 10**6))


def test_arguments_are_validated_with_their_names() -> None:
    with pytest.raises(ValueError, match="not total"):
        Semiautomaton([0, 1], ["a"], {(0, "a"): 1})
    with pytest.raises(ValueError, match="is not a state"):
        Semiautomaton([0, 1], ["a"], lambda q, s: 7)
    with pytest.raises(ValueError, match="repeats"):
        Semiautomaton([0, 0], ["a"], lambda q, s: q)
    with pytest.raises(ValueError, match="not an input symbol"):
        parity().run([2], 0)
    with pytest.raises(ValueError, match="exceed MAX_WORDS"):
        parity().all_words(30)
    with pytest.raises(SemigroupTooLargeError, match="max_size=1000"):
        rubik().transformation_semigroup(max_size=1000)


@settings(max_examples=40, deadline=None)
@given(automata, st.lists(st.integers(0, 2), min_size=1, max_size=8))
def test_runs_are_products_of_transition_matrices(A: Semiautomaton, word: list[int]) -> None:
    word = [w % A.n_symbols for w in word]
    v = np.zeros(A.n_states, dtype=np.int64)
    v[0] = 1
    for a, q in zip(word, A.run(word, 0), strict=True):
        v = A.transition_matrix(a) @ v                  # e_{delta(q, sigma)} = M_sigma e_q
        assert v[A.state_index(q)] == 1 and v.sum() == 1
    assert tuple(A.run_indices(np.array([word]), 0)[0]) == A.run(word, 0)
    f = A.transformation(word)
    assert f[0] == A.state_index(A.final_state(word, 0))


@settings(max_examples=40, deadline=None)
@given(automata)
def test_closure_equals_all_word_maps_and_libsemigroups(A: Semiautomaton) -> None:
    S = A.transformation_semigroup()
    # brute force: maps of all words up to length |T| (a longer word repeats a prefix map)
    maps, layer = set(), {tuple(int(v) for v in row) for row in A.table}
    for _ in range(S.size):
        maps |= layer
        layer = {tuple(g[v] for v in f) for f in layer for g in A.table.tolist()}
    assert maps == set(S.elements)
    assert libsemigroups_summary(A) == (S.size, len(S.idempotents()))
    assert S.is_aperiodic() == (S.largest_group_order() == 1)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(1, 3), st.integers(0, 10**6))
def test_every_semiautomaton_on_at_most_four_states_is_solvable(n: int, s: int,
                                                                seed: int) -> None:
    assert random_automaton(n, s, seed).transformation_semigroup().is_solvable()


@pytest.mark.parametrize("S,without_identity", [(2, 7), (3, 17), (4, 34), (8, 212)])
def test_gridworld_semigroup_sizes(S: int, without_identity: int) -> None:
    T = gridworld(S).transformation_semigroup()       # the ⊥ input adds the identity
    assert T.size == without_identity + 1 and T.is_aperiodic()


def test_known_group_orders_and_solvability() -> None:
    assert [int(permutation_group(symmetric_group(n)).order()) for n in (2, 3, 4, 5)] == \
        [2, 6, 24, 120]
    assert int(permutation_group(alternating_group(5)).order()) == 60
    assert derived_series_orders(permutation_group(symmetric_group(4))) == (24, 12, 4, 1)
    assert not permutation_group(symmetric_group(5)).is_solvable
    assert quaternion_group().transformation_semigroup().size == 8
    assert dihedral(5).transformation_semigroup().size == 10
    r = footnote17()
    assert (r.min_states, r.semigroup_order) == (5, 60)
    assert abab_star().transformation_semigroup().largest_group_order() == 2


@pytest.mark.parametrize("make,n_factors", [(lambda: symmetric_group(4), 4),
                                            (lambda: modular_counter(12, alphabet="generator"),
                                             3), (quaternion_group, 3)])
def test_composition_length_of_a_solvable_group_counts_its_prime_factors(
        make: object, n_factors: int) -> None:
    G = permutation_group(make())  # type: ignore[operator]
    order, omega, p = int(G.order()), 0, 2
    while order > 1:                  # Omega(|G|), prime factors with multiplicity
        while order % p == 0:
            order, omega = order // p, omega + 1
        p += 1
    assert composition_length(G) == omega == n_factors


def test_composition_length_refuses_a_non_solvable_group() -> None:
    with pytest.raises(ValueError, match="solvable"):
        composition_length(permutation_group(alternating_group(5)))


def _group_table(A: Semiautomaton) -> tuple[tuple, tuple, dict]:
    G = A.transformation_semigroup()
    els = G.elements
    return els, G.identity, {(a, b): G.product(a, b) for a in els for b in els}


@pytest.mark.parametrize("make,n_subgroups", [(quaternion_group, 6), (lambda: dihedral_group(4),
                                              10), (lambda: symmetric_group(3), 6),
                                             (lambda: modular_counter(6, alphabet="generator"),
                                              4)])
def test_subgroup_counts(make: object, n_subgroups: int) -> None:
    assert len(subgroups(*_group_table(make()))) == n_subgroups  # type: ignore[operator]


def test_split_extensions_of_small_groups() -> None:
    def split(A: Semiautomaton) -> set:
        return set(split_extensions(A.transformation_semigroup()))

    assert split(quaternion_group()) == set()
    assert split(modular_counter(4, alphabet="generator")) == set()
    assert split(symmetric_group(3)) == {(3, 2)}
    assert split(modular_counter(6, alphabet="generator")) == {(2, 3), (3, 2)}
    klein = Semiautomaton(range(4), ["a", "b"], [[1, 0, 3, 2], [2, 3, 0, 1]])
    assert split(klein) == {(2, 2)}
    with pytest.raises(ValueError, match="needs a group"):
        split_extensions(flip_flop().transformation_semigroup())


def test_monoid_census_isomorphism_classes_are_the_known_counts() -> None:
    # monoids up to isomorphism: 1, 2, 7 of orders 1, 2, 3
    for order, classes in ((1, 1), (2, 2), (3, 7)):
        tables = monoid_census(order).tables
        reps: list = []
        for t in tables:
            images = {tuple(tuple(p[t[a][b]] for b in _inv(p)) for a in _inv(p))
                      for p in ((0, *q) for q in itertools.permutations(range(1, order)))}
            if not any(r in images for r in reps):
                reps.append(t)
        assert len(reps) == classes


def _inv(p: tuple[int, ...]) -> list[int]:
    out = [0] * len(p)
    for i, v in enumerate(p):
        out[v] = i
    return out


def test_rubik_ratio_is_the_known_factor_twelve() -> None:
    order, bound, ratio = rubik_wreath_bound()
    assert order == math.factorial(8) * 3**7 * math.factorial(12) * 2**10
    assert ratio == 12 and bound == order * 12


def test_subgroup_enumeration_refuses_large_groups() -> None:
    from seprank.automata import alternating_group as alt

    with pytest.raises(ValueError, match="MAX_GROUP_ORDER"):
        split_extensions(alt(6).transformation_semigroup())


def test_cascade_of_c2_and_c3_is_the_dihedral_group_of_order_6() -> None:
    from seprank.automata import cascade_product

    S3 = cascade_product(modular_counter(2), modular_counter(3),
                         lambda q, s: 0 if s == 1 else (1 if q == 0 else 2))
    G = permutation_group(S3)
    assert int(G.order()) == 6 and not G.is_abelian          # the only such group is S_3
    assert derived_series_orders(G) == (6, 3, 1)
