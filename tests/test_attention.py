"""LinearAttention: loop form = matrix form, homogeneity, equivariance, one code path per domain."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import ExactDomain, FloatDomain, LinearAttention, ModularDomain

RTOL_LOOP = 1e-12
P_MODULAR = 16_777_259  # a prime in [2**24, 2**25)


@pytest.mark.parametrize("depth,width,heads,n", [(1, 2, 1, 3), (2, 4, 2, 3), (3, 6, 2, 4),
                                                 (2, 6, 3, 2)])
@pytest.mark.parametrize("residual", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_loop_form_equals_matrix_form(depth: int, width: int, heads: int, n: int,
                                      residual: bool, seed: int) -> None:
    net = LinearAttention.random(depth=depth, width=width, heads=heads, residual=residual,
                                 weights="float", seed=seed)
    X = np.random.default_rng(100 + seed).standard_normal((n, width))
    np.testing.assert_allclose(net(X), net.loop_form(X), rtol=RTOL_LOOP,
                               atol=RTOL_LOOP * np.abs(net.loop_form(X)).max())


def test_complex_weights_use_bilinear_products() -> None:
    rng = np.random.default_rng(5)
    shape = (2, 1, 3, 3)
    q, k, v = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape) for _ in range(3))
    o = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    net = LinearAttention(q, k, v, o)
    X = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    np.testing.assert_allclose(net(X), net.loop_form(X), rtol=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(-4, 4), st.integers(0, 2**31))
def test_homogeneity_exact(depth: int, n: int, t: int, seed: int) -> None:
    """y(tX) = t^(3^L) y(X) exactly (no residual)."""
    net = LinearAttention.random(depth=depth, width=2, heads=1, seed=seed, low=-3, high=3)
    X = np.random.default_rng(seed + 1).integers(-3, 4, (n, 2))
    assert np.all(net(t * X) == t ** (3**depth) * net(X))


@settings(max_examples=25, deadline=None)
@given(st.permutations(range(4)), st.booleans(), st.integers(0, 2**31))
def test_permutation_equivariance(perm: list[int], residual: bool, seed: int) -> None:
    """Y(X[perm]) = Y(X)[perm]: no positional information enters the network."""
    net = LinearAttention.random(depth=2, width=4, heads=2, residual=residual, seed=seed)
    X = np.random.default_rng(seed).integers(-5, 6, (4, 4))
    assert np.all(net(X[list(perm)]) == net(X)[list(perm)])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_modular_is_the_reduction_of_exact(seed: int) -> None:
    net = LinearAttention.random(depth=3, width=3, heads=1, seed=seed)
    X = np.random.default_rng(seed).integers(-9, 10, (2, 5, 3))  # a batch of 2
    exact = net(X, domain=ExactDomain())
    modular = net(X, domain=ModularDomain(P_MODULAR))
    assert modular.dtype == np.int64
    assert np.all(modular == np.vectorize(lambda v: v % P_MODULAR, otypes=[object])(exact))


def test_fraction_weights_and_float_agree() -> None:
    rng = np.random.default_rng(3)
    shape = (2, 1, 2, 2)
    ws = [np.vectorize(lambda a: Fraction(int(a), 7), otypes=[object])(rng.integers(-9, 10, s))
          for s in (shape, shape, shape, shape)]
    net = LinearAttention(*ws)
    X = np.array([[1, 2], [3, -1]], dtype=object)
    exact = net(X)
    float_net = LinearAttention(*(w.astype(float) for w in ws))
    np.testing.assert_allclose(float_net(X.astype(float)), exact.astype(float), rtol=1e-12)
    assert isinstance(exact[0, 0], Fraction)


def test_polynomial_is_homogeneous_of_degree_3_to_the_L_and_matches_evaluation() -> None:
    net = LinearAttention.random(depth=2, width=2, heads=1, seed=4, low=-2, high=2)
    poly = net.polynomial(2, position=1, coordinate=0)
    syms = sorted(poly.free_symbols, key=str)
    assert sympy.Poly(poly, *syms).is_homogeneous
    assert sympy.Poly(poly, *syms).total_degree() == 9
    X = np.array([[2, -1], [1, 3]])
    value = poly.subs({sympy.Symbol(f"x{j}_{k}"): int(X[j, k]) for j in range(2) for k in range(2)})
    assert value == net(X)[1, 0]


def test_modular_domain_chunks_long_inner_products() -> None:
    p = 2_147_483_647  # 2**31 - 1: chunk = 2 terms, so an inner dimension of 9 needs 5 chunks
    F = ModularDomain(p)
    assert F.chunk == 2
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, p, (3, 9)), rng.integers(0, p, (9, 4))
    expected = np.array(
        [[sum(int(a[i, t]) * int(b[t, j]) for t in range(9)) % p for j in range(4)]
         for i in range(3)])
    assert np.array_equal(F.matmul(a, b), expected)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="not divisible"):
        LinearAttention.random(depth=1, width=5, heads=2)
    with pytest.raises(ValueError, match="depth L"):
        LinearAttention.random(depth=0, width=4)
    net = LinearAttention.random(depth=1, width=4, weights="float", seed=0)
    with pytest.raises(ValueError, match="d_x = 4"):
        net(np.zeros((3, 5)))
    with pytest.raises(TypeError, match="float weights"):
        net(np.zeros((3, 4), dtype=int), domain=ModularDomain(P_MODULAR))
    with pytest.raises(TypeError, match="floats"):
        LinearAttention.random(depth=1, width=2, seed=0)(np.ones((2, 2)),
                                                         domain=ModularDomain(P_MODULAR))
    with pytest.raises(ValueError, match="NaN"):
        LinearAttention(*(np.full((1, 1, 2, 2), np.nan) for _ in range(4)))
    with pytest.raises(ValueError, match="shape"):
        LinearAttention(np.zeros((1, 1, 2, 2)), np.zeros((1, 1, 2, 2)), np.zeros((1, 1, 2, 2)),
                        np.zeros((1, 1, 2, 3)))
    with pytest.raises(ValueError, match="prime"):
        ModularDomain(15)
    assert FloatDomain().asarray([1, 2]).dtype == np.float64


def test_a_batch_of_networks_evaluates_each_network_on_its_inputs() -> None:
    nets = [LinearAttention.random(depth=2, width=4, heads=2, seed=s, low=-5, high=5)
            for s in range(3)]
    batch = LinearAttention(*(np.stack([getattr(n, w) for n in nets])
                              for w in ("query", "key", "value", "output")))
    assert batch.batch_shape == (3,) and nets[0].batch_shape == ()
    assert (batch.depth, batch.heads, batch.head_dim, batch.width) == (2, 2, 2, 4)
    X = np.random.default_rng(0).integers(-5, 6, (3, 5, 4))
    F = ModularDomain(P_MODULAR)
    for domain in (None, F):
        Y, shared = batch(X, domain=domain), batch(X[0], domain=domain)
        assert Y.shape == shared.shape == (3, 5, 4)
        for b, net in enumerate(nets):
            assert np.array_equal(Y[b], net(X[b], domain=domain))
            assert np.array_equal(shared[b], net(X[0], domain=domain))
    with pytest.raises(ValueError, match="do not broadcast"):
        batch(np.ones((2, 5, 4), dtype=int))
    with pytest.raises(ValueError, match="one network"):
        batch.entry(0, 0)
    with pytest.raises(ValueError, match="output weights must have shape"):
        LinearAttention(batch.query, batch.key, batch.value, nets[0].output)
