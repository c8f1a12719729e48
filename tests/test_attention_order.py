"""LinearAttention(order=...): scores-first and gram-first association agree exactly in exact
and modular arithmetic; floats keep the gram order by default (bit-for-bit unchanged)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import LinearAttention, ModularDomain

P_MODULAR = 16_777_259
FLOAT_RTOL = 1e-11


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 6), st.booleans(),
       st.integers(0, 2**31))
def test_orders_agree_exactly(depth: int, heads: int, n: int, residual: bool, seed: int) -> None:
    net = LinearAttention.random(depth=depth, width=2 * heads, heads=heads, residual=residual,
                                 seed=seed)
    X = np.random.default_rng(seed).integers(-6, 7, (2, n, 2 * heads))
    F = ModularDomain(P_MODULAR)
    assert np.array_equal(net(X, order="gram"), net(X, order="scores"))
    assert np.array_equal(net(X, domain=F, order="gram"), net(X, domain=F, order="scores"))
    assert np.array_equal(net(X, domain=F), net(X, domain=F, order="gram"))


def test_float_default_is_the_gram_order_and_scores_is_close() -> None:
    net = LinearAttention.random(depth=3, width=8, heads=2, weights="float", seed=1)
    X = np.random.default_rng(2).standard_normal((2, 8))
    assert np.array_equal(net(X), net(X, order="gram"))
    np.testing.assert_allclose(net(X, order="scores"), net(X), rtol=FLOAT_RTOL)


def testcheaper_order_choice_and_refusal() -> None:
    net = LinearAttention.random(depth=1, width=29, seed=0)
    assert net.cheaper_order(2) == "scores" and net.cheaper_order(400) == "gram"
    with pytest.raises(ValueError, match="order"):
        net(np.zeros((2, 29), dtype=int), order="fast")  # type: ignore[arg-type]
