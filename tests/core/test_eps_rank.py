"""ε-rank brackets: validity against constructed witnesses, closed forms, refusals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import eps_rank


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 4), st.floats(1e-4, 0.3),
       st.integers(0, 2**32 - 1))
def test_absolute_lower_bound_never_exceeds_a_known_admissible_rank(
    m: int, n: int, r: int, eps: float, seed: int
) -> None:
    """M = B + E with rank(B) = r and |E| <= eps: the eps-rank is <= r, so lower <= r."""
    rng = np.random.default_rng(seed)
    r = min(r, m, n)
    B = rng.standard_normal((m, r)) @ rng.standard_normal((r, n))
    E = rng.uniform(-eps, eps, (m, n))
    res = eps_rank(B + E, eps)
    assert 0 <= res.lower <= r
    assert res.lower <= res.upper <= min(m, n)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 8), st.integers(0, 3), st.floats(1e-3, 0.5), st.integers(0, 2**32 - 1))
def test_relative_lower_bound_never_exceeds_a_known_admissible_rank(
    n: int, r: int, eps: float, seed: int
) -> None:
    """M = B / (1 - t), |t| <= eps/(1+eps): then |M - B| = |t||M| <= eps|M| entrywise."""
    rng = np.random.default_rng(seed)
    r = min(r, n)
    B = rng.standard_normal((n, r)) @ rng.standard_normal((r, n))
    t = rng.uniform(-1, 1, (n, n)) * eps / (1 + eps)
    M = B / (1 - t)
    assert np.all(np.abs(M - B) <= eps * np.abs(M) + 1e-12)
    res = eps_rank(M, eps, mode="relative")
    assert res.lower <= r


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_upper_bound_is_witnessed_by_truncated_svd(seed: int) -> None:
    tol_slack = 1e-12
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((12, 9)) @ np.diag(np.logspace(0, -6, 9)) @ rng.standard_normal((9, 9))
    eps = 1e-3
    res = eps_rank(M, eps)
    U, s, Vt = np.linalg.svd(M, full_matrices=False)
    k = res.upper
    Bk = (U[:, :k] * s[:k]) @ Vt[:k]
    assert np.abs(M - Bk).max() <= eps + tol_slack
    assert res.lower <= res.upper


def test_diagonal_closed_form() -> None:
    """For diag(s), B = diag(s with entries <= eps zeroed) is admissible, so the ε-rank is
    at most #{s_i > eps}; the lower bound counts s_i > eps * n."""
    s = np.array([5.0, 1.0, 0.2, 0.01, 1e-5])
    res = eps_rank(np.diag(s), 0.02)
    assert res.upper == 3
    assert res.lower == int(np.sum(s > 0.02 * 5))
    zero = eps_rank(np.full((3, 3), 1e-4), 1e-3)
    assert zero.bracket == (0, 0)
    one = eps_rank(np.array([[1.0, 0.0], [0.0, 0.0]]), 0.9)
    assert one.bracket == (1, 1)


def test_refusals() -> None:
    with pytest.raises(ValueError, match="eps"):
        eps_rank(np.eye(2), 0.0)
    with pytest.raises(ValueError, match="eps"):
        eps_rank(np.eye(2), float("nan"))
    with pytest.raises(ValueError, match="NaN or infinite"):
        eps_rank(np.array([[np.inf, 0.0], [0.0, 1.0]]), 0.1)
    with pytest.raises(ValueError, match="mode"):
        eps_rank(np.eye(2), 0.1, mode="rel")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2-D"):
        eps_rank(np.ones(3), 0.1)
