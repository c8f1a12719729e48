"""Theorem 11's group constructions (:mod:`seprank.automata.group_products`): every network
against the group's prefix products computed by a plain loop over permutation compositions
(never the network's own encoding), and the sizes against the lemmas' formulas."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from seprank.automata import (
    FiniteGroup,
    cyclic_simulator,
    direct_product_simulator,
    find_embedding,
    permutation_reset_simulator,
    semidirect_simulator,
    solvable_group_simulator,
    wreath_simulator,
)


def _compose(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(a[b[x]] for x in range(len(a)))          # b first


def _loop_products(group: FiniteGroup, words: np.ndarray) -> np.ndarray:
    """Prefix products sigma_t ... sigma_1 by a loop over the elements' own product."""
    out = np.empty_like(words)
    index = {g: i for i, g in enumerate(group.elements)}
    for b, word in enumerate(words):
        q = group.identity
        for t, a in enumerate(word):
            q = group.product(group.elements[a], q)
            out[b, t] = index[q]
    return out


def test_finite_group_tables() -> None:
    S3 = FiniteGroup.from_permutations([(1, 0, 2), (1, 2, 0)])
    assert S3.order == 6 and S3.identity == (0, 1, 2)
    for a, b in itertools.product(S3.elements, repeat=2):
        assert S3.product(a, b) == _compose(a, b)
    assert all(S3.product(g, S3.inverse(g)) == S3.identity for g in S3.elements)
    assert FiniteGroup.from_permutations([(1, 0, 2, 3), (1, 2, 3, 0)]).order == 24
    C5 = FiniteGroup.cyclic(5)
    assert C5.product(3, 4) == 2
    words = np.array([[1, 2, 4], [0, 0, 3]])
    assert C5.run(words).tolist() == [[1, 3, 2], [0, 0, 3]]
    with pytest.raises(ValueError, match="closed"):
        FiniteGroup.from_product([0, 1], lambda a, b: a + b, 0)
    with pytest.raises(ValueError, match="too many"):
        C5.all_words(10)


def test_find_embedding_is_an_injective_homomorphism() -> None:
    S3 = FiniteGroup.from_permutations([(1, 0, 2), (1, 2, 0)])
    S4 = FiniteGroup.from_permutations([(1, 0, 2, 3), (1, 2, 3, 0)])
    emb = find_embedding(S3, S4)
    assert len(set(emb.values())) == 6
    for a, b in itertools.product(S3.elements, repeat=2):
        assert emb[S3.product(a, b)] == S4.product(emb[a], emb[b])
    V4 = FiniteGroup.from_product(list(itertools.product(range(2), repeat=2)),
                                  lambda a, b: ((a[0] + b[0]) % 2, (a[1] + b[1]) % 2), (0, 0))
    with pytest.raises(ValueError, match="does not embed"):
        find_embedding(FiniteGroup.cyclic(4), V4)              # V4 has no element of order 4


@pytest.mark.parametrize(("n", "T"), [(2, 5), (3, 4), (5, 3)])
def test_cyclic_simulator_counts_mod_n(n: int, T: int) -> None:
    sim = cyclic_simulator(n, T)
    W = sim.group.all_words(T)
    assert np.array_equal(sim.simulate(W), np.cumsum(W, axis=1) % n)
    assert sim.depth == 1 and sim.rep_dim == 1


def test_direct_product_is_componentwise() -> None:
    sim = direct_product_simulator([cyclic_simulator(2, 3), cyclic_simulator(3, 3)])
    W = sim.group.all_words(3)
    assert np.array_equal(sim.simulate(W), _loop_products(sim.group, W))
    pairs = [sim.group.elements[i] for i in sim.simulate(W)[7]]
    sums = np.cumsum([sim.group.elements[a] for a in W[7]], axis=0)
    assert [tuple(p) for p in pairs] == [(int(s[0]) % 2, int(s[1]) % 3) for s in sums]


def test_semidirect_simulates_s3_as_permutations() -> None:
    D6 = semidirect_simulator(cyclic_simulator(3, 4), cyclic_simulator(2, 4),
                              lambda h, g: g if h == 0 else (-g) % 3)
    S3 = FiniteGroup.from_permutations([(1, 0, 2), (1, 2, 0)])
    sim = D6.restrict(S3, find_embedding(S3, D6.group))
    W = sim.group.all_words(4)
    assert np.array_equal(sim.simulate(W), _loop_products(S3, W))
    assert sim.depth == 1 + 1 + 2                        # depth_N + depth_H + 2 (Lemma 18)


def test_wreath_product_order_and_simulation() -> None:
    W = wreath_simulator(cyclic_simulator(2, 3), 2)       # C_2 wr C_2 = D_8
    assert W.group.order == 2 ** 2 * 2
    assert any(W.group.product(a, b) != W.group.product(b, a)
               for a, b in itertools.product(W.group.elements, repeat=2))
    words = W.group.all_words(3)
    assert np.array_equal(W.simulate(words), _loop_products(W.group, words))
    assert W.rep_dim == 2 * 1 + 1 and W.depth == 1 + 1 + 2
    with pytest.raises(ValueError):
        wreath_simulator(cyclic_simulator(2, 3), 1)


def test_theorem16_recursion_on_s4() -> None:
    S4 = FiniteGroup.from_permutations([(1, 0, 2, 3), (1, 2, 3, 0)])
    chain_gens = [[(1, 0, 3, 2)], [(1, 0, 3, 2), (2, 3, 0, 1)], [(1, 0, 3, 2), (1, 2, 0, 3)],
                  [(1, 0, 2, 3), (1, 2, 3, 0)]]
    series = [[S4.identity]] + [list(FiniteGroup.from_permutations(g).elements)
                                for g in chain_gens]
    sim, steps = solvable_group_simulator(S4, series, 2)
    assert [s["factor"] for s in steps] == [2, 2, 3, 2]
    assert [s["depth"] for s in steps] == [1, 4, 7, 10]          # 1 + 3 (l - 1)
    assert sim.depth <= 3 * math.log2(24)
    rng = np.random.default_rng(16)
    W = rng.integers(0, 24, (400, 2))
    assert np.array_equal(sim.simulate(W), _loop_products(S4, W))
    with pytest.raises(ValueError, match="series"):
        solvable_group_simulator(S4, [[S4.identity]], 2)


def test_permutation_reset_matches_a_loop() -> None:
    D6 = semidirect_simulator(cyclic_simulator(3, 3), cyclic_simulator(2, 3),
                              lambda h, g: g if h == 0 else (-g) % 3)
    act = {(a, b): tuple(((-1) ** b * x + a) % 3 for x in range(3))
           for a, b in D6.group.elements}
    syms = [("perm", (1, 0)), ("perm", (0, 1)), ("reset", 1), ("reset", 3)]
    words = np.array(list(itertools.product(range(4), repeat=3)))
    for q0 in (1, 2, 3):
        net = permutation_reset_simulator(D6, 3, act, syms, q0=q0)
        expected = np.empty_like(words)
        for b, word in enumerate(words):
            q = q0
            for t, a in enumerate(word):
                kind, val = syms[a]
                q = val if kind == "reset" else act[val][q - 1] + 1
                expected[b, t] = q
        assert np.array_equal(net.simulate(words), expected)
    assert net.depth == D6.depth + 2
    with pytest.raises(ValueError, match="q0"):
        permutation_reset_simulator(D6, 3, act, syms, q0=4)


def test_bad_words_tables_and_sizes_are_refused_by_name() -> None:
    """Issue 24: what used to pass silently or be attempted is refused, naming the argument."""
    C3 = FiniteGroup.cyclic(3)
    sim = cyclic_simulator(3, 3)
    with pytest.raises(ValueError, match="words"):
        C3.run(np.array([[1, -1]]))                  # numpy would read -1 as element 2
    with pytest.raises(ValueError, match="words"):
        sim.simulate(np.array([[3, 0]]))
    with pytest.raises(ValueError, match="table"):
        FiniteGroup((0, 1), {(0, 0): 0, (0, 1): 1, (1, 0): 1})          # (1, 1) missing
    with pytest.raises(ValueError, match="table"):
        FiniteGroup((0, 1), {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 2})  # not closed
    with pytest.raises(ValueError, match="length"):
        C3.all_words(10**30)                         # refused before 3**(10**30) is formed
    with pytest.raises(ValueError, match="p"):
        wreath_simulator(sim, 10**12)                # refused before 10**12 copies are listed
    with pytest.raises(ValueError, match="symbols"):
        permutation_reset_simulator(sim, 3, {g: (0, 1, 2) for g in C3.elements},
                                    [("reset", 4)], q0=1)
