"""separation_rank: closed forms, grid vs symbolic agreement, stopping rules, refusals."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import Budget, LinearAttention, separation_rank
from seprank.core.grid import GridTooLargeError

GRID_METHODS = ("modular", "exact")


def inner_power(k: int):  # type: ignore[no-untyped-def]
    def f(X: np.ndarray) -> np.ndarray:
        return np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** k
    return f


@pytest.mark.parametrize("dim,k", [(2, 1), (2, 3), (3, 2), (3, 3), (4, 2)])
@pytest.mark.parametrize("method", [*GRID_METHODS, "symbolic"])
def test_inner_product_powers_have_the_symmetric_tensor_rank(dim: int, k: int,
                                                            method: str) -> None:
    """<x, y>^k = sum over multi-indices: sep = number of degree-k monomials in dim variables."""
    r = separation_rank(inner_power(k), n_inputs=2, dim=dim, partition=([0], [1]),
                        method=method, seed=k)  # type: ignore[arg-type]
    assert r.rank == comb(dim + k - 1, k)
    assert r.certifies == ("exact" if method == "symbolic" else "lower_bound")


def test_separable_and_sum_of_two_products() -> None:
    def product(X: np.ndarray) -> np.ndarray:
        return (X[:, 0, 0] ** 2 + X[:, 0, 1]) * (X[:, 1, 1] - 3 * X[:, 1, 0])

    def two(X: np.ndarray) -> np.ndarray:
        return product(X) + X[:, 0, 0] * X[:, 1, 0] ** 3

    for method in ("modular", "exact", "symbolic", "svd"):
        assert separation_rank(product, n_inputs=2, dim=2, partition=([0], [1]),
                               method=method, seed=1).rank == 1  # type: ignore[arg-type]
        assert separation_rank(two, n_inputs=2, dim=2, partition=([0], [1]),
                               method=method, seed=1).rank == 2  # type: ignore[arg-type]


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 4), st.integers(0, 2**31))
def test_grid_rank_never_exceeds_symbolic_rank_and_symbolic_respects_construction(
    R: int, seed: int
) -> None:
    """f = sum_r <u_r, x1>^2 <v_r, x2 + x3>: sep({1}, {2, 3}) <= R; grid <= symbolic."""
    rng = np.random.default_rng(seed)
    U, V = rng.integers(-3, 4, (R, 2)), rng.integers(-3, 4, (R, 2))

    def f(X: np.ndarray) -> np.ndarray:
        a = X[:, 0] @ U.T.astype(object) if X.dtype == object else X[:, 0] @ U.T
        b = (X[:, 1] + X[:, 2]) @ (V.T.astype(object) if X.dtype == object else V.T)
        return np.sum(a**2 * b, axis=1)

    sym = separation_rank(f, n_inputs=3, dim=2, partition=([0], [1, 2]), method="symbolic")
    grid = separation_rank(f, n_inputs=3, dim=2, partition=([0], [1, 2]), method="exact",
                           seed=seed)
    assert sym.rank <= R
    assert grid.rank <= sym.rank


@pytest.mark.parametrize("depth,width,n,partition", [
    (1, 2, 3, ([0], [1, 2])), (1, 2, 3, ([0, 1], [2])), (2, 2, 2, ([0], [1])),
    (1, 3, 2, ([1], [0])),
])
def test_network_grid_ranks_agree_with_exact_symbolic_rank(
    depth: int, width: int, n: int, partition: tuple[list[int], list[int]]
) -> None:
    net = LinearAttention.random(depth=depth, width=width, seed=7)
    sym = net.separation_rank(position=0, coordinate=0,
                              partition=partition, n_inputs=n, method="symbolic")
    for method in GRID_METHODS:
        grid = net.separation_rank(position=0, coordinate=0,
                                   partition=partition, n_inputs=n, method=method,
                                   seed=3)
        assert grid.rank == sym.rank, (method, grid, sym)


@pytest.mark.parametrize("width", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1])
def test_one_layer_single_head_rank_is_width_plus_one(width: int, seed: int) -> None:
    """L = 1, H = 1, N = 2, A = {i}: y = <Qx_i,Kx_i>(OVx_i)_p + (x_i^T Q^T K x_j)(OVx_j)_p, a
    sum of 1 + rank(Q^T K) = 1 + d_x separable terms, linearly independent for generic weights
    (seed 003, Theorem 3 is tight at L = 1, H = 1: (H(d_a + 1))^1 = d_x + 1)."""
    net = LinearAttention.random(depth=1, width=width, heads=1, seed=seed)
    assert net.separation_rank(position=0, coordinate=0, partition=([0], [1]), n_inputs=2,
                               seed=seed).rank == width + 1


def test_separation_rank_is_symmetric_in_the_partition() -> None:
    net = LinearAttention.random(depth=2, width=2, seed=11)
    a = net.separation_rank(position=0, coordinate=1,
                            partition=([0, 1], [2, 3]), n_inputs=4, seed=1)
    b = net.separation_rank(position=0, coordinate=1,
                            partition=([2, 3], [0, 1]), n_inputs=4, seed=2)
    assert a.rank == b.rank


def test_stopping_rules_and_result_fields() -> None:
    f = inner_power(3)  # sep = 10 in dim 3
    r = separation_rank(f, n_inputs=2, dim=3, partition=([0], [1]), seed=0, upper_bound=10)
    assert (r.rank, r.stop_reason, r.reached_upper_bound) == (10, "upper_bound", True)
    assert len(r.history) == 1
    r = separation_rank(f, n_inputs=2, dim=3, partition=([0], [1]), seed=0, n_templates=4)
    assert (r.rank, r.stop_reason, r.n_templates) == (4, "fixed", 4)  # 4 x 4 matrix
    r = separation_rank(f, n_inputs=2, dim=3, partition=([0], [1]), seed=0,
                        budget=Budget(max_templates=6))
    assert r.stop_reason == "max_templates" and r.rank <= 6
    r = separation_rank(f, n_inputs=2, dim=3, partition=([0], [1]), seed=0, upper_bound=7)
    assert r.details["exceeds_upper_bound"] and r.rank >= 8
    r = separation_rank(f, n_inputs=2, dim=3, partition=([0], [1]), seed=0,
                        templates=np.eye(3, dtype=int))
    assert (r.rank, r.stop_reason) == (3, "fixed")
    ranks = [h.rank for h in separation_rank(f, n_inputs=2, dim=3, partition=([0], [1]),
                                             seed=5).history]
    assert ranks == sorted(ranks)  # nested templates: ranks never decrease
    assert "certified lower bound" in separation_rank(
        f, n_inputs=2, dim=3, partition=([0], [1]), seed=0).summary()


def test_svd_certifies_nothing_and_reports_tolerance() -> None:
    r = separation_rank(inner_power(2), n_inputs=2, dim=3, partition=([0], [1]), method="svd",
                        seed=0)
    assert r.rank == 6 and r.certifies == "none"
    assert "tolerance" in r.details["last_matrix_rank"]


def test_memory_limit_stops_growth_but_refuses_a_first_grid_too_large() -> None:
    net = LinearAttention.random(depth=2, width=2, seed=0)
    r = net.separation_rank(position=0, coordinate=0,
                            partition=([0, 1], [2, 3]), n_inputs=4, seed=0,
                            budget=Budget(max_bytes=200_000))
    assert r.stop_reason == "memory_limit" and r.rank >= 1
    with pytest.raises(GridTooLargeError):
        net.separation_rank(position=0, coordinate=0,
                            partition=([0, 1], [2, 3]), n_inputs=4, seed=0,
                            n_templates=100, budget=Budget(max_bytes=200_000))


def test_refusals() -> None:
    f = inner_power(1)
    for bad in [([0], [0, 1]), ([0], []), ([0], [2]), ([0, 1],), "ab"]:
        with pytest.raises(ValueError, match="partition"):
            separation_rank(f, n_inputs=2, dim=2, partition=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="templates must have shape"):
        separation_rank(f, n_inputs=2, dim=2, partition=([0], [1]), templates=np.ones((3, 3)))
    with pytest.raises(ValueError, match="unknown method"):
        separation_rank(f, n_inputs=2, dim=2, partition=([0], [1]), method="qr")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n_inputs"):
        separation_rank(f, n_inputs=1, dim=2, partition=([0], []))

    def floaty(X: np.ndarray) -> np.ndarray:
        return np.sqrt(np.abs(X[:, 0, 0].astype(float))) * X[:, 1, 0].astype(float)

    with pytest.raises(TypeError, match="floats"):
        separation_rank(floaty, n_inputs=2, dim=1, partition=([0], [1]))
    with pytest.raises(ValueError, match="not a polynomial"):
        separation_rank(lambda X: X[:, 0, 0] / X[:, 1, 0], n_inputs=2, dim=1,
                        partition=([0], [1]), method="symbolic")
    net = LinearAttention.random(depth=1, width=2, weights="float", seed=0)
    with pytest.raises(TypeError, match="float weights"):
        net.separation_rank(position=0, coordinate=0, partition=([0], [1]), n_inputs=2)
    with pytest.raises(ValueError, match="output position"):
        net.separation_rank(position=2, coordinate=0, partition=([0], [1]), n_inputs=2)


def test_loose_upper_bound_does_not_size_an_impossible_first_grid() -> None:
    """Theorem 3's bound 4**13 for (L, d_x) = (3, 3) is far too loose to size a grid; the
    engine must fall back to normal growth instead of refusing."""
    f = inner_power(2)  # sep = 6 in dim 3
    r = separation_rank(f, n_inputs=2, dim=3, partition=([0], [1]), seed=0,
                        upper_bound=4**13, budget=Budget(max_bytes=50_000_000))
    assert r.rank == 6 and r.stop_reason == "saturated"
    assert "upper_bound_sizing_skipped" in r.details
