"""Grid tensors and matricization: tensorly convention, brute force, memory guard."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import tensorly as tl
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import GridTooLargeError, grid_tensor, matricize, matrix_rank


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=5), st.data())
def test_matricize_matches_tensorly(shape: list[int], data: st.DataObject) -> None:
    T = np.arange(int(np.prod(shape))).reshape(shape)
    modes = data.draw(st.permutations(range(len(shape))))
    k = data.draw(st.integers(0, len(shape)))
    rows = list(modes[:k])
    np.testing.assert_array_equal(matricize(T, rows), tl.base.matricize(tl.tensor(T), rows))
    cols = list(modes[k:])
    np.testing.assert_array_equal(matricize(T, rows, cols),
                                  tl.base.matricize(tl.tensor(T), rows, cols))


def test_matricize_index_formula_of_seed_001() -> None:
    """Entry A[d] sits at row sum_t d_{p_t} M^{|P|-t}, column likewise (0-based, App. C.1.1)."""
    M, N = 3, 4
    T = np.random.default_rng(0).integers(0, 100, (M,) * N)
    P, Q = [2, 0], [1, 3]
    mat = matricize(T, P)
    for d in itertools.product(range(M), repeat=N):
        row = d[P[0]] * M + d[P[1]]
        col = d[Q[0]] * M + d[Q[1]]
        assert mat[row, col] == T[d]


def test_matricize_rejects_bad_modes() -> None:
    with pytest.raises(ValueError, match="permutation"):
        matricize(np.zeros((2, 2, 2)), [0, 0])
    with pytest.raises(ValueError, match="permutation"):
        matricize(np.zeros((2, 2, 2)), [0], [1])


def _poly(X: np.ndarray) -> np.ndarray:
    # f(x1, x2, x3) = <x1, x2>^2 * x3[0] + x1[1] * x3[1]
    return np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** 2 * X[:, 2, 0] + X[:, 0, 1] * X[:, 2, 1]


@pytest.mark.parametrize("dtype", [np.int64, object, np.float64])
def test_grid_tensor_equals_pointwise_evaluation(dtype: type) -> None:
    templates = np.random.default_rng(1).integers(-3, 4, (4, 2)).astype(dtype)
    A = grid_tensor(_poly, templates, 3, chunk_points=7)
    assert A.shape == (4, 4, 4)
    for d in itertools.product(range(4), repeat=3):
        X = np.stack([templates[i] for i in d])[None]
        assert A[d] == _poly(X)[0]


def test_per_position_templates_and_vector_outputs() -> None:
    t1 = np.array([[1, 0], [0, 1], [1, 1]])
    t2 = np.array([[2, 1], [1, 5]])
    A = grid_tensor(lambda X: X[:, 0] * X[:, 1], [t1, t2], 2)
    assert A.shape == (3, 2, 2)
    np.testing.assert_array_equal(A[2, 1], t1[2] * t2[1])


@pytest.mark.parametrize("dim", [2, 3, 4])
def test_squared_inner_product_has_symmetric_rank(dim: int) -> None:
    """<x, y>^2 = sum over i<=j of (sym. monomials): separation rank dim (dim + 1) / 2."""
    templates = np.random.default_rng(dim).integers(-5, 6, (3 * dim * dim, dim))
    A = grid_tensor(lambda X: np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** 2, templates, 2)
    assert matrix_rank(matricize(A, [0]), method="exact").rank == dim * (dim + 1) // 2


def test_memory_guard_reports_estimate_and_fix() -> None:
    templates = np.zeros((100, 3))
    with pytest.raises(GridTooLargeError, match=r"GiB.*max_bytes=") as info:
        grid_tensor(lambda X: X[:, 0, 0], templates, 6)  # 1e12 points
    assert "1,000,000,000,000 points" in str(info.value)
    with pytest.raises(GridTooLargeError):
        grid_tensor(lambda X: X[:, 0, 0], templates, 2, max_bytes=1000)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="n_inputs"):
        grid_tensor(lambda X: X[:, 0, 0], np.zeros((2, 2)), 0)
    with pytest.raises(ValueError, match=r"\(M, dim\)"):
        grid_tensor(lambda X: X[:, 0, 0], np.zeros(3), 2)
    with pytest.raises(ValueError, match="per-position"):
        grid_tensor(lambda X: X[:, 0, 0], [np.zeros((2, 2))], 2)
    with pytest.raises(ValueError, match="must return"):
        grid_tensor(lambda X: np.zeros(1), np.zeros((2, 2)), 2)
