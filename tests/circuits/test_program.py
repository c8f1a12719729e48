"""The circuit language: building, JSON, evaluation in every domain, derived degrees.

Expected values are independent: exact integer arithmetic by hand or with numpy object arrays,
sympy expansions of the circuit's polynomial (for the degree supports), and the exact value
reduced mod p (for the GF(p) backends).
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from seprank.circuits import (
    Circuit,
    CircuitBuilder,
    deep_cac,
    from_json,
    linear_attention,
    linear_ssm,
    polynomial_mlp,
    rac,
    shallow_cac,
)
from seprank.core.domains import ExactDomain, FloatDomain, ModularDomain

P_SMALL, P_LARGE = 16_777_259, 2_147_483_647   # balanced float64 / int64 backends


def _zoo() -> list[Circuit]:
    return [shallow_cac(n_inputs=3, dim=2, channels=2, seed=1),
            shallow_cac(n_inputs=3, dim=2, channels=2, shared=False, seed=1),
            deep_cac(n_inputs=4, dim=2, channels=(2, 3), pooling="interleaved", seed=1),
            rac(n_inputs=3, dim=2, hidden=2, depth=2, seed=1),
            linear_ssm(n_inputs=3, dim=2, state=2, seed=2),
            linear_ssm(n_inputs=3, dim=2, state=2, kind="lti", seed=2),
            polynomial_mlp(n_inputs=2, dim=2, widths=(3, 2), exponent=3, seed=1),
            linear_attention(depth=2, width=2, n_inputs=3, heads=2, residual=True, seed=1)]


def _symbols(f: Circuit) -> np.ndarray:
    return np.array([[sympy.Symbol(f"x{n}_{k}") for k in range(f.dim)]
                     for n in range(f.n_inputs)], dtype=object)


def test_a_hand_written_circuit_is_its_polynomial() -> None:
    """f(x) = sum_c a_c prod_n <w_c, x_n> with W = [[1, 2], [0, 1]], a = (1, -1), by hand."""
    b = CircuitBuilder(n_inputs=2, dim=2)
    H = b.einsum("nd,cd->nc", b.input(), b.const([[1, 2], [0, 1]]))
    f = b.build(b.einsum("c,c->", b.const([1, -1]), b.prod(H, 0)), name="hand")
    X = np.array([[[1, 3], [2, 5]]])
    assert f(X).tolist() == [(1 + 6) * (2 + 10) - 3 * 5]
    assert f.parameters == 6


@pytest.mark.parametrize("index", range(8))
def test_every_domain_computes_the_same_polynomial(index: int) -> None:
    f = _zoo()[index]
    rng = np.random.default_rng(index)
    X = rng.integers(-4, 5, (6, f.n_inputs, f.dim))
    exact = f(X, domain=ExactDomain())
    assert exact.dtype == object
    for p in (P_SMALL, P_LARGE, 10_007):
        got = f(X, domain=ModularDomain(p))
        assert got.tolist() == [int(v) % p for v in exact]
    approx = f(X.astype(float), domain=FloatDomain())
    assert np.allclose(approx, exact.astype(float), rtol=1e-9)


def test_long_contractions_are_cut_below_the_exact_float_bound() -> None:
    """A 200-term inner product mod p: exact integers reduced, not a float64 sum."""
    b = CircuitBuilder(n_inputs=2, dim=200)
    X = b.input()
    x0 = b.reshape(b.take(X, 0, [0]), (200,))
    x1 = b.reshape(b.take(X, 0, [1]), (200,))
    f = b.build(b.einsum("k,k->", x0, x1), name="inner")
    rng = np.random.default_rng(0)
    X = rng.integers(0, P_SMALL, (3, 2, 200))
    want = [int(np.dot(x[0].astype(object), x[1].astype(object))) % P_SMALL for x in X]
    assert f(X, domain=ModularDomain(P_SMALL)).tolist() == want


@pytest.mark.parametrize("index", range(8))
def test_json_round_trip_keeps_the_function(index: int) -> None:
    f = _zoo()[index]
    g = from_json(f.to_json())
    X = np.random.default_rng(1).integers(-3, 4, (4, f.n_inputs, f.dim))
    assert g(X).tolist() == f(X).tolist()


@pytest.mark.parametrize("index", range(8))
def test_derived_bidegrees_contain_the_true_ones(index: int) -> None:
    """The support bound is a superset of the bidegrees of the expanded polynomial (sympy),
    and equal to it for these generic weights."""
    f = _zoo()[index]
    S = _symbols(f)
    poly = sympy.Poly(sympy.expand(f(S[None], domain=ExactDomain())[0]), *S.ravel())
    A = tuple(range((f.n_inputs + 1) // 2))
    B = tuple(range((f.n_inputs + 1) // 2, f.n_inputs))
    a_vars = len(A) * f.dim
    assert not poly.is_zero
    true = {(sum(m[:a_vars]), sum(m[a_vars:])) for m in poly.monoms()}
    derived = f.bidegrees(A, B)
    assert true <= derived
    assert true == derived


def test_degree_structure_is_none_unless_homogeneous() -> None:
    residual = _zoo()[7]     # z1 = x + cubic(x): degrees {1, 3}; z2 = z1 + cubic(z1)
    assert residual.total_degrees() == (1, 3, 5, 7, 9)
    assert residual.degree_structure((0,), (1, 2)) is None
    cac = _zoo()[0]
    assert cac.degree_structure((0,), (1, 2)).bidegrees == ((1, 2),)


def test_multidegree_of_a_multilinear_circuit() -> None:
    """A CAC is multilinear: degree exactly 1 in every position at the output; the first
    convolution's entry (n, c) has degree 1 in position n and 0 elsewhere."""
    f = shallow_cac(n_inputs=3, dim=2, channels=2, seed=0)
    boxes = f.multidegree()
    assert boxes[f.output].tolist() == [[1, 1]] * 3
    conv = next(k for k, n in enumerate(f.nodes) if n.op == "einsum" and n.shape == (3, 2))
    for n in range(3):
        want = [[1, 1] if m == n else [0, 0] for m in range(3)]
        assert boxes[conv][n, 0].tolist() == want


def test_zero_weights_drop_monomials_from_the_support() -> None:
    """Zero weights prove terms absent: an all-zero readout is the zero function."""
    z = CircuitBuilder(n_inputs=2, dim=2)
    zero = z.build(z.einsum("nk,nk->", z.const([[0, 0], [0, 0]]), z.input()), name="0")
    assert zero.bidegrees((0,), (1,)) == set()
    assert zero.degree_structure((0,), (1,)) is None
    b = CircuitBuilder(n_inputs=2, dim=1)
    x = b.reshape(b.input(), (2,))
    f = b.build(b.einsum("n,n->", b.const([0, 1]), b.power(x, 2)), name="x1^2")
    assert f.bidegrees((0,), (1,)) == {(0, 2)}


@pytest.mark.parametrize(("call", "message"), [
    (lambda b: b.einsum("nk,nl->kl", b.input()), "names 2 operand"),
    (lambda b: b.einsum("nk,kl->nl", b.input(), b.const([[1, 2]])), "letter 'k' has sizes"),
    (lambda b: b.einsum("nk", b.input()), "explicit form"),
    (lambda b: b.const([0.5, 1.0]), "integer tensor"),
    (lambda b: b.add(b.input(), b.const([1, 2])), "one shape"),
    (lambda b: b.take(b.input(), 0, [7]), "indices"),
    (lambda b: b.reshape(b.input(), (5,)), "cannot reshape"),
    (lambda b: b.build(b.input(), name="x"), "scalar"),
    (lambda b: b.build(b.einsum("k->", b.const([1, 2])), name="c"), "does not depend"),
])
def test_bad_programs_are_refused_by_name(call, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises((ValueError, TypeError), match=message):
        call(CircuitBuilder(n_inputs=2, dim=2))


def test_bad_inputs_are_refused() -> None:
    f = _zoo()[0]
    with pytest.raises(ValueError, match="shape"):
        f(np.ones((2, 4, 2), dtype=int))
    with pytest.raises(ValueError, match="NaN"):
        f(np.full((1, 3, 2), np.nan))
