"""ReLU gadgets of 004 ch. 3 (:mod:`seprank.automata.gadgets`): each against its defining
property computed by hand (closed forms, brute force over the lemma's hypotheses)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from seprank.automata import (
    MLP,
    lemma11_mlp,
    lemma12_mlp,
    lemma12_required_slope,
    lemma38_mlp,
    lemma39_basis,
    lemma40_mlp,
    lemma41_mlp,
    lemma42_mlp,
    ramp_mlp,
)


def test_ramp_is_zero_left_one_right_and_linear_between() -> None:
    h = 0.3
    x = np.array([-5.0, -h, -h / 2, 0.0, h / 2, h, 5.0])
    expected = np.clip((x + h) / (2 * h), 0, 1)
    assert np.allclose(ramp_mlp(h)(x[:, None]).ravel(), expected, atol=1e-12)
    (W1, b1), (W2, b2) = ramp_mlp(h).layers
    assert np.isclose(np.abs(W1).max(), 1 / (2 * h)) and np.abs(b1).max() == 0.5
    assert np.abs(W2).max() == 1 and not b2.any()


@pytest.mark.parametrize("delta", [0.05, 1.0, 9.0])
def test_lemma12_threshold_exact_on_the_whole_tolerance_band(delta: float) -> None:
    x = np.array([-40, -2, -1, 1, 2, 40], dtype=float) * delta
    xi = np.linspace(-delta / 4, delta / 4, 21)
    pts = (x[:, None] + xi[None, :]).reshape(-1, 1)
    target = np.repeat(x > 0, xi.size).astype(float)
    assert np.abs(lemma12_mlp(delta)(pts).ravel() - target).max() < 1e-12
    (W1, b1), _ = lemma12_mlp(delta).layers
    assert np.isclose(np.abs(W1).max(), 1 / delta) and np.abs(b1).max() == 0.5
    # the printed psi (ramp over [-Delta, Delta]) gives 7/8 at x = Delta, xi = -Delta/4
    assert np.isclose(lemma12_mlp(delta, printed=True)(np.array([[0.75 * delta]]))[0, 0],
                      7 / 8)


def test_lemma12_required_slope_closed_form() -> None:
    assert np.isclose(lemma12_required_slope(3.0), 2 / 9)
    assert np.isclose(lemma12_required_slope(1.0, Fraction(1, 2)), 1.0)
    with pytest.raises(ValueError, match="tolerance"):
        lemma12_required_slope(1.0, 1.0)
    with pytest.raises(ValueError, match="delta"):
        lemma12_mlp(0.0)


def test_lemma11_memorises_a_random_table_under_perturbation() -> None:
    rng = np.random.default_rng(11)
    grid = np.array([[a, b, c] for a in range(3) for b in range(2) for c in range(2)], float)
    values = rng.normal(size=(len(grid), 2))
    f = lemma11_mlp(grid, values, 1.0)
    xi = rng.uniform(-0.25, 0.25, grid.shape)
    assert np.allclose(f(grid + xi), values, atol=1e-9)
    # widths: 4 per (coordinate, value) and one AND unit per point
    assert f.widths == (4 * (3 + 2 + 2), len(grid))


def test_lemma11_channels_and_validation() -> None:
    f = lemma11_mlp([[0], [1]], [[5], [7]], 1.0, in_channels=[2], in_dim=3,
                    out_channels=[0], out_dim=2)
    out = f(np.array([[9.0, 9.0, 1.1]]))
    assert out.tolist() == [[7.0, 0.0]]
    with pytest.raises(ValueError, match="distinct"):
        lemma11_mlp([[0], [0]], [1, 2], 1.0)
    with pytest.raises(ValueError, match="closer than delta"):
        lemma11_mlp([[0], [0.5]], [1, 2], 1.0)
    with pytest.raises(ValueError, match="rows"):
        lemma11_mlp([[0], [1]], [1, 2, 3], 1.0)


def test_lemma38_interpolates_with_width_2n() -> None:
    rng = np.random.default_rng(380)
    for n, d in [(1, 1), (5, 2), (9, 4)]:
        X, y = rng.normal(size=(n, d)), rng.normal(size=n)
        f, w, gamma = lemma38_mlp(X, y)
        assert np.allclose(f(X).ravel(), y, atol=1e-9) and f.widths == (2 * n,)
        proj = np.sort(X @ w)
        assert np.all(np.diff(proj) >= 2 * gamma - 1e-12)
    with pytest.raises(ValueError, match="distinct"):
        lemma38_mlp([[1.0, 2.0], [1.0, 2.0]], [0.0, 1.0])


def test_lemma39_basis_is_orthonormal_in_ones_perp_and_moves_every_vector() -> None:
    rng = np.random.default_rng(390)
    X = rng.normal(size=(4, 6))
    X[0] = [1, -1, 0, 0, 0, 0]
    U = lemma39_basis(X, 4)
    assert np.allclose(U @ U.T, np.eye(4)) and np.allclose(U @ np.ones(6), 0)
    assert np.all(np.abs(X @ U.T @ U - X).max(axis=1) > 1e-9)
    # n - 1 vectors span 1^perp: a difference of one-hot vectors is then its own projection
    V = lemma39_basis(X, 5)
    assert np.allclose(X[0] @ V.T @ V, X[0])
    with pytest.raises(ValueError, match="nonzero"):
        lemma39_basis(np.zeros((1, 4)), 2)


def test_lemma40_indexes_every_coordinate() -> None:
    rng = np.random.default_rng(400)
    for n, M in [(1, 1.0), (4, 3.0), (7, 0.5)]:
        f = lemma40_mlp(n, M)
        x = rng.uniform(0, M, (200, n))
        y = rng.integers(1, n + 1, 200)
        assert np.allclose(f(np.column_stack([x, y])).ravel(), x[np.arange(200), y - 1],
                           atol=1e-9)
        assert f.widths == (2 * n,)


def test_lemma41_decodes_the_active_index_and_the_printed_offset() -> None:
    for n in (1, 3, 6):
        x = np.zeros((n, n))
        x[np.arange(n), np.arange(n)] = 2.5
        assert np.allclose(lemma41_mlp(n, 2.0)(x).ravel(), np.arange(1, n + 1))
        printed = lemma41_mlp(n, 2.0, printed=True)(x).ravel()
        assert np.allclose(printed - np.arange(1, n + 1), n * (n + 1) / 2)


def _net(rng: np.random.Generator, n: int, m: int) -> MLP:
    return MLP(((rng.normal(size=(n, m)) * 2, rng.normal(size=m)),
                (rng.normal(size=(m, 1)), rng.normal(size=1))))


@pytest.mark.parametrize(("K", "m", "n"), [(1, 2, 1), (2, 3, 2), (5, 1, 3)])
def test_lemma42_selects_the_indexed_network(K: int, m: int, n: int) -> None:
    rng = np.random.default_rng(42 + K)
    nets = [_net(rng, n, m) for _ in range(K)]
    M = 2.0
    f = lemma42_mlp(nets, M)
    x = rng.uniform(0, M, (50, n))
    for k in range(1, K + 1):
        got = f(np.column_stack([np.full(50, float(k)), x])).ravel()
        assert np.allclose(got, nets[k - 1](x).ravel(), atol=1e-9)
    assert f.widths == (2 * K * m - m + K - 1,)


def test_lemma42_validation() -> None:
    with pytest.raises(ValueError, match="at least one"):
        lemma42_mlp([], 1.0)
    three = MLP(((np.ones((1, 1)), np.zeros(1)),) * 3)
    with pytest.raises(ValueError, match="2-layer"):
        lemma42_mlp([three], 1.0)
