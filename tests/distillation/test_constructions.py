"""Propositions 9-10 and Lemmas 10-11: the attention + MLP constructions on all inputs."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from identifiability.distillation import (
    best_readout_accuracy,
    interpolation_mlp,
    interpolation_mlp_1d,
    prop9_min_scale,
    proposition9_network,
    proposition10_network,
    verify_on_all_inputs,
)


@given(st.lists(st.integers(-50, 50), min_size=2, max_size=8, unique=True),
       st.data())
@settings(max_examples=40, deadline=None)
def test_lemma10_interpolates_robustly(points: list[int], data: st.DataObject) -> None:
    xs = sorted(p / 10 for p in points)
    delta = min(np.diff(xs))
    values = data.draw(st.lists(st.integers(-3, 3), min_size=len(xs), max_size=len(xs)))
    mlp = interpolation_mlp_1d(xs, values)
    xi = data.draw(st.lists(st.floats(-delta / 4, delta / 4), min_size=len(xs),
                            max_size=len(xs)))
    out = mlp((np.array(xs) + np.array(xi))[:, None])[:, 0]
    assert np.allclose(out, values, atol=1e-9)
    b_x, b_y = max(abs(x) for x in xs), max(abs(v) for v in values)
    assert mlp.hidden_widths == (4 * len(xs),)
    assert np.max(np.abs(mlp.weights[0])) == pytest.approx(4 / delta)
    assert np.max(np.abs(mlp.biases[0])) <= 4 * b_x / delta + 2 + 1e-9
    assert np.max(np.abs(mlp.weights[1])) <= b_y


@pytest.mark.parametrize("n_points,d_in,seed", [(6, 3, 0), (10, 4, 1), (16, 4, 2)])
def test_lemma11_with_corrected_bias_is_exact_and_printed_is_zero(n_points: int, d_in: int,
                                                                  seed: int) -> None:
    rng = np.random.default_rng(seed)
    cube = np.array(list(itertools.product([0.0, 0.5, 1.0], repeat=d_in)))
    pts = cube[rng.choice(len(cube), n_points, replace=False)]
    vals = rng.integers(-5, 6, n_points).astype(float)
    assert np.allclose(interpolation_mlp(pts, list(vals))(pts)[:, 0], vals)
    assert np.all(interpolation_mlp(pts, list(vals), second_bias="printed")(pts) == 0)


@pytest.mark.parametrize("d,support", [(6, (0, 1)), (7, (2, 4, 6)), (9, (0, 3, 5, 8)),
                                       (10, (1, 2, 3, 4, 5))])
def test_proposition9_solves_parity_with_finite_scale(d: int, support: tuple[int, ...]) -> None:
    k = len(support)
    net = proposition9_network(d, support, scale=prop9_min_scale(d, k) + 0.01)
    check = verify_on_all_inputs(net)
    assert check.accuracy == 1.0 and check.max_attention_error < 1 / (4 * k)
    assert check.hidden_widths == (4 * (k + 1),)
    assert check.mlp_max_abs_entry == pytest.approx(4 * k + 2)      # |b_1| = (1 + 2 Delta')/Delta'


def test_proposition9_large_scale_attention_is_the_support_average() -> None:
    net = proposition9_network(8, (1, 4, 6), scale=60.0)
    z = ((np.arange(256)[:, None] >> np.arange(8)) & 1)
    _, out = net.attention_output(z)
    assert np.allclose(out[:, 0], z[:, [1, 4, 6]].mean(axis=1), atol=1e-20)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_printed_example_loses_the_parity_when_d_is_off_support(k: int) -> None:
    d = k + 4
    off = verify_on_all_inputs(proposition9_network(d, tuple(range(k)), embedding="printed"))
    on = verify_on_all_inputs(proposition9_network(d, tuple(range(d - k, d)),
                                                   embedding="printed"))
    bound = sum(max(math.comb(k, t), math.comb(k, t - 1) if t else 0)
                for t in range(k + 2)) / 2 ** (k + 1)
    assert off.best_readout_accuracy == pytest.approx(bound)
    assert off.accuracy <= bound and on.accuracy == 1.0


@pytest.mark.parametrize("d,support", [(5, (0,)), (8, (2, 5)), (10, (0, 4, 9))])
def test_proposition10_uniform_attention(d: int, support: tuple[int, ...]) -> None:
    net = proposition10_network(d, support)
    _, out = net.attention_output(np.zeros((1, d), dtype=int))
    check = verify_on_all_inputs(net)
    assert check.accuracy == 1.0 and check.hidden_widths == (8 * len(support),
                                                             2 ** len(support))
    assert check.mlp_max_abs_entry <= 2 ** (len(support) + 2)
    assert np.all(out == 0)


def test_additive_embedding_sees_only_the_count() -> None:
    d, support = 9, (1, 5, 7)
    check = verify_on_all_inputs(proposition10_network(d, support, embedding="additive"))
    z = ((np.arange(2**d)[:, None] >> np.arange(d)) & 1)
    labels = (-1) ** z[:, list(support)].sum(axis=1)
    counts = z.sum(axis=1)
    best = sum(max(np.sum((counts == c) & (labels == 1)), np.sum((counts == c) & (labels == -1)))
               for c in range(d + 1)) / 2**d
    assert check.best_readout_accuracy == pytest.approx(best) and best < 1


def test_best_readout_accuracy_is_the_group_majority() -> None:
    assert best_readout_accuracy([[0], [0], [1], [1], [1]], [1, -1, 1, 1, -1]) == 3 / 5


def test_arguments_are_validated() -> None:
    with pytest.raises(ValueError, match="support"):
        proposition9_network(5, (5,))
    with pytest.raises(ValueError, match="embedding"):
        proposition9_network(5, (0,), embedding="learned")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="distinct"):
        interpolation_mlp_1d([0, 0], [1, 1])
