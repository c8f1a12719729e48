"""Shortcut constructions with explicit weights: each is run on every word of small lengths and
compared with the automaton's own run; the printed slips must break them; closed forms for
the lemmas' bounds."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.automata import (
    Semiautomaton,
    algorithm1,
    all_ffl_strings,
    bump_mlp,
    circle_gram_max,
    dilution_bound,
    dilution_extremal_case,
    ffl_read_count_law,
    gridworld,
    lemma13_bound,
    lemma14_mlp,
    max_attention_weight,
    memory,
    memory_network,
    modular_counter,
    modular_counter_network,
    proposition2_bound,
    proposition3_network,
    read_targets,
    sample_ffl,
    symmetric_group,
    theorem10_network,
    theorem12_network,
    threshold_mlp,
)

EXACT = 1e-9          # tolerance for "exact" float interpolation


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-20, 20), min_size=1, max_size=8, unique=True),
       st.floats(0.05, 2.0), st.integers(0, 10**6))
def test_bump_mlp_interpolates_under_quarter_delta_noise(xs: list[float], delta: float,
                                                         seed: int) -> None:
    x = np.sort(np.array(xs))
    x = x[0] + np.concatenate([[0.0], np.cumsum(np.maximum(np.diff(x), delta))])
    y = np.random.default_rng(seed).normal(0, 5, x.size)
    f = bump_mlp(x, y, delta)
    xi = np.random.default_rng(seed + 1).uniform(-delta / 4, delta / 4, (50, x.size))
    out = f((x + xi).reshape(-1, 1)).reshape(xi.shape)
    assert np.abs(out - y).max() < EXACT * max(1, np.abs(y).max())
    assert f.widths == (4 * x.size,)


def test_threshold_and_softmax_bounds() -> None:
    v = np.array([[-3.0], [-0.25], [0.25], [4.0]])
    assert threshold_mlp(0.25)(v).ravel().tolist() == [0, 0, 1, 1]
    for T, gamma in ((2, 1.0), (10, 3.0), (50, 7.0)):      # extremal case of Lemma 13
        z = np.full(T, -gamma)
        z[0] = 0
        w = np.exp(z) / np.exp(z).sum()
        err = np.abs(w - np.eye(T)[0]).sum()
        assert err == pytest.approx(2 * (T - 1) * math.exp(-gamma)
                                    / (1 + (T - 1) * math.exp(-gamma)))
        assert err <= lemma13_bound(T, gamma)


@pytest.mark.parametrize("T", [2, 3, 7, 10, 64])
def test_proposition2_printed_fails_and_corrected_holds(T: int) -> None:
    assert circle_gram_max(T) == pytest.approx(math.cos(2 * math.pi / T))
    assert circle_gram_max(T, absolute=True) > proposition2_bound(T)
    assert circle_gram_max(T) <= proposition2_bound(T, corrected=True) + 1e-15


@pytest.mark.parametrize("n", [2, 3])
def test_lemma14_composes_every_pair_robust_in_the_left_slot(n: int) -> None:
    mlp = lemma14_mlp(n)
    maps = np.array(list(itertools.product(range(1, n + 1), repeat=n)))
    G, F = np.repeat(maps, len(maps), axis=0), np.tile(maps, (len(maps), 1))
    exact = np.take_along_axis(F, G - 1, axis=1)
    rng = np.random.default_rng(n)
    left = rng.uniform(-0.24, 0.24, G.shape)            # indicators: robust to < 1/4
    out = mlp(np.concatenate([G + left, F], axis=1))
    np.testing.assert_allclose(out[:, n:], exact, atol=EXACT)
    np.testing.assert_allclose(out[:, :n], 0, atol=EXACT)
    # f is not rounded: its noise passes through, and relu(f(q') + xi - |Q|) leaks xi > 0 from
    # every q' with f(q') = |Q|, so the error is at most |Q| times the noise (not rounded away)
    right = rng.uniform(-0.1, 0.1, F.shape)
    out = mlp(np.concatenate([G, F + right], axis=1))
    err = np.abs(out[:, n:] - exact).max()
    assert 0.1 < err <= n * 0.1 + EXACT
    assert mlp.max_abs_weight == 4 * n + 2


def random_automaton(n_states: int, n_symbols: int, seed: int) -> Semiautomaton:
    table = np.random.default_rng(seed).integers(0, n_states, (n_symbols, n_states))
    return Semiautomaton(range(n_states), range(n_symbols), table)


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 4), st.integers(1, 3), st.integers(1, 8), st.integers(0, 10**6))
def test_theorem10_network_simulates_random_automata(n: int, s: int, T: int, seed: int) -> None:
    A = random_automaton(n, s, seed)
    q0 = seed % n
    W = np.random.default_rng(seed).integers(0, s, (64, T))
    net = theorem10_network(A, q0, T)
    assert net.depth == (math.ceil(math.log2(T)) if T > 1 else 0)
    assert (net.simulate(W) == A.run_indices(W, q0)).all()


@pytest.mark.parametrize("slip", ["value_slot", "rotation", "readout"])
def test_each_printed_slip_of_theorem10_breaks_it(slip: str) -> None:
    A = symmetric_group(3)
    W = A.all_words(4)
    assert (theorem10_network(A, 0, 4, printed=[slip]).simulate(W)
            != A.run_indices(W, 0)).any()
    assert (theorem10_network(A, 0, 4, depth=1).simulate(W) != A.run_indices(W, 0)).any()


@pytest.mark.parametrize("n,T", [(2, 6), (3, 4), (5, 3)])
def test_modular_counter_network_and_its_printed_variants(n: int, T: int) -> None:
    A = modular_counter(n)
    W = A.all_words(T)
    for q0 in range(n):
        ref = A.run_indices(W, q0)
        assert (modular_counter_network(n, q0, T).simulate(W) == ref).all()
        assert (modular_counter_network(n, q0, T, gamma="printed").simulate(W) != ref).any()
        assert (modular_counter_network(n, q0, T, target="printed").simulate(W) != ref).any()
    out = modular_counter_network(n, 0, T).attention_output(W)[..., 0]
    np.testing.assert_allclose(out, np.cumsum(W, axis=1) / (2 * T), atol=1e-15)


@pytest.mark.parametrize("n,T", [(2, 5), (4, 3)])
def test_memory_network_both_score_coefficients(n: int, T: int) -> None:
    A = memory(n)
    W = A.all_words(T)
    for q0 in range(1, n + 1):
        ref = A.run_indices(W, q0 - 1)
        for b in (1.0, 2.0):
            assert (memory_network(n, q0, T, bot_coefficient=b).simulate(W) == ref).all()
    net = memory_network(n, 1, T)
    assert net.max_abs_weight == pytest.approx(max(T * math.log(16 * n * T), 8 * n + 2))


@pytest.mark.parametrize("S", [1, 2, 3])
def test_algorithm1_against_gridworld_runs(S: int) -> None:
    A = gridworld(S)
    for T in range(1, 8):
        W = A.all_words(T)
        ref = A.run_indices(W, 0)[:, -1]
        assert (algorithm1(W - 1, S) == ref).all()
        assert (algorithm1(W - 1, S, n_pads=S, include_z0=True) == ref).all()
        y = algorithm1(W - 1, S, n_pads=S)
        assert ((y == ref) | (y == -1)).all()          # undefined, never wrong


@pytest.mark.parametrize("S,T", [(1, 4), (2, 4), (3, 3)])
def test_theorem12_network_exact_and_the_printed_pad_breaks_it(S: int, T: int) -> None:
    A = gridworld(S)
    W = A.all_words(T)
    ref = A.run_indices(W, 0)
    assert (theorem12_network(S, T).simulate(W) == ref).all()
    assert (theorem12_network(S, T, bot_code="printed").simulate(W) != ref).any()


def test_ffl_strings_are_valid_and_counted() -> None:
    for T in (4, 6, 8, 10):
        X = all_ffl_strings(T)
        assert len(X) == 2 * 5 ** (T // 2 - 2)           # w: 2 bits, then w/i: 2, r: 1
        assert len({tuple(r) for r in X}) == len(X)
    X = sample_ffl(64, (0.3, 0.3, 0.4), 200, seed=1)
    for row in X:                                        # plain-Python validity check
        assert row[0] == 0 and row[-2] == 1
        memory_bit = None
        for k in range(0, 64, 2):
            ins, bit = row[k], row[k + 1] - 3
            assert ins in (0, 1, 2) and bit in (0, 1)
            if ins == 1:
                assert bit == memory_bit
            if ins == 0:
                memory_bit = bit
    mean, sd = ffl_read_count_law(64, 0.3, 200)
    assert abs(len(read_targets(X)[0]) - mean) < 4 * sd


def test_proposition3_exhaustive_and_long() -> None:
    for T in (4, 8, 10):
        assert proposition3_network(T).errors(all_ffl_strings(T))[0] == 0
    X = sample_ffl(128, (0.2, 0.2, 0.6), 20, seed=3)
    assert proposition3_network(128).errors(X)[0] == 0
    assert proposition3_network(128, c=64.0).errors(X)[0] > 0


def test_dilution_bound_is_attained_and_never_exceeded() -> None:
    rng = np.random.default_rng(0)
    for _ in range(100):
        d, T = int(rng.integers(2, 6)), int(rng.integers(2, 80))
        M = rng.normal(0, 2, (d, d))
        keys = rng.normal(size=(T, d))
        keys /= np.maximum(1, np.linalg.norm(keys, axis=1, keepdims=True))
        sigma = np.linalg.svd(M, compute_uv=False)[0]
        assert max_attention_weight(M, keys, keys[-1]) <= dilution_bound(T, sigma) + 1e-12
    M, keys, q = dilution_extremal_case(1.5, 30)
    assert max_attention_weight(M, keys, q) == pytest.approx(dilution_bound(30, 1.5), rel=1e-12)


def test_enumerations_refuse_before_allocating() -> None:
    with pytest.raises(ValueError, match="MAX_FFL_STRINGS"):
        all_ffl_strings(40)
    with pytest.raises(ValueError, match="must be even"):
        sample_ffl(9, (0.1, 0.1, 0.8), 1)
    with pytest.raises(ValueError, match="summing to 1"):
        sample_ffl(8, (0.5, 0.5, 0.5), 1)
    with pytest.raises(ValueError, match="recency"):
        theorem12_network(2, 3, recency=float("nan"))
