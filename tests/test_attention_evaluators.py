"""Every registered evaluator of LinearAttention.__call__ computes the same values as the call.

The fast paths (the float forward with caches of the backward pass, the GF(p) struct-of-arrays
in-context evaluators, the compiled Z_in kernel) are declared in :mod:`seprank.evaluators`;
each is held here against :meth:`seprank.LinearAttention.__call__` on random integer networks
in every domain it declares: exactly over GF(p) and Q, to 1e-12 relative in floats.  The
in-context inputs E(w) * a, E(w) * b (000/001, eqs. 4 and 8) are built here, independently of
the representation's own code.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import seprank.incontext  # noqa: F401  (imports every module that registers an evaluator)
from seprank import LinearAttention
from seprank.core.domains import Domain, ExactDomain, FloatDomain, ModularDomain
from seprank.evaluators import Evaluator, evaluators, get_evaluator, register_evaluator
from seprank.incontext import InContextRepresentation

FLOAT_RTOL = 1e-12
#: Primes for the modular domains: one in [2**24, 2**25) (the engine's), one small.
PRIMES = (16_777_259, 10_007)
#: (depth, width, heads, N): the network shapes every evaluator is held on.
SHAPES = ((1, 2, 1, 2), (2, 3, 1, 2), (2, 4, 2, 1), (3, 2, 2, 2))
EXPECTED = {"float-forward-with-caches", "incontext-pairs", "incontext-grid-numpy",
            "incontext-grid-compiled"}


def _domains(ev: Evaluator) -> list[Domain]:
    out: list[Domain] = []
    for kind in ev.domains:
        if kind == "float":
            out.append(FloatDomain())
        elif kind == "exact":
            out.append(ExactDomain())
        else:
            out.extend(ModularDomain(p) for p in PRIMES
                       if ev.max_prime is None or p < ev.max_prime)
    return out


CASES = [pytest.param(ev, dom, shape, id=f"{ev.name}-{dom!r}-{shape}")
         for ev in evaluators() for dom in _domains(ev) for shape in SHAPES]


def _draw(dom: Domain, rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    if isinstance(dom, ModularDomain):
        return rng.integers(0, dom.p, shape)
    return rng.integers(-4, 5, shape)


def _same(got: Any, ref: Any, dom: Domain) -> None:
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape
    if isinstance(dom, FloatDomain):
        scale = float(np.max(np.abs(ref))) if ref.size else 0.0
        np.testing.assert_allclose(got, ref, rtol=FLOAT_RTOL, atol=FLOAT_RTOL * scale)
    else:
        assert np.array_equal(got.astype(object), ref.astype(object))


def _incontext_inputs(rep: InContextRepresentation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The 2N rows E(w_1^j) * a then E(w_2^j) * b, in Python integers (no wrap-around)."""
    E = np.asarray(rep.embedding).astype(object)
    first = E[:, list(rep.first)].T[None] * a.astype(object)[:, None, :]
    second = E[:, list(rep.second)].T[None] * b.astype(object)[:, None, :]
    return np.concatenate([first, second], axis=1)


@pytest.mark.parametrize(("ev", "dom", "shape"), CASES)
@pytest.mark.parametrize("seed", [0, 1])
def test_every_registered_evaluator_equals_the_call(ev: Evaluator, dom: Domain,
                                                    shape: tuple[int, int, int, int],
                                                    seed: int) -> None:
    depth, width, heads, n = shape
    rng = np.random.default_rng([seed, depth, width, heads, n])
    if ev.form == "sequence":
        net = LinearAttention.random(depth=depth, width=width, heads=heads, low=-5, high=5,
                                     seed=rng)
        X = _draw(dom, rng, (3, 2 * n, width))
        _same(ev(net, X, domain=dom), net(X, domain=dom), dom)
        return
    position, coordinate = int(rng.integers(0, 2 * n)), int(rng.integers(0, width))
    rep = InContextRepresentation.random(depth=depth, width=width, heads=heads, n_tokens=n,
                                         position=position, coordinate=coordinate, seed=rng)
    if ev.form == "incontext_pairs":
        a, b = _draw(dom, rng, (5, width)), _draw(dom, rng, (5, width))
        ref = rep.net(_incontext_inputs(rep, a, b), domain=dom)[:, position, coordinate]
        _same(ev(rep, a, b, dom), ref, dom)
        return
    assert ev.form == "incontext_grid", ev.form
    A, B = _draw(dom, rng, (4, width)), _draw(dom, rng, (3, width))
    pairs_a, pairs_b = np.repeat(A, len(B), axis=0), np.tile(B, (len(A), 1))
    X = _incontext_inputs(rep, pairs_a, pairs_b)
    ref = rep.net(X, domain=dom)[:, position, coordinate].reshape(len(A), len(B))
    _same(ev(rep, A, B, dom), ref, dom)


def test_the_fast_paths_are_registered_with_their_domains() -> None:
    names = {ev.name for ev in evaluators()}
    assert names >= EXPECTED, EXPECTED - names
    assert get_evaluator("float-forward-with-caches").domains == ("float",)
    for name in EXPECTED - {"float-forward-with-caches"}:
        ev = get_evaluator(name)
        assert ev.domains == ("modular",) and ev.max_prime == 2**25
        assert ev.supports(ModularDomain(16_777_259))
        assert not ev.supports(ModularDomain(2**31 - 1))  # int64 products would overflow
        assert not ev.supports(FloatDomain()) and not ev.supports(ExactDomain())
    assert {e.name for e in evaluators(form="incontext_grid")} >= {
        "incontext-grid-numpy", "incontext-grid-compiled"}
    assert get_evaluator("incontext-grid-numpy").options == {"kernel": "numpy"}


def test_registration_refuses_a_taken_name_and_bad_declarations() -> None:
    def other(net: Any, X: Any, *, domain: Any = None) -> Any:
        return net(X, domain=domain)

    with pytest.raises(ValueError, match="already registered"):
        register_evaluator("incontext-pairs", form="sequence", domains=("float",),
                           accepts="anything")(other)
    with pytest.raises(ValueError, match="form"):
        register_evaluator("x", form="pairs", domains=("float",), accepts="anything")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="domains"):
        register_evaluator("x", form="sequence", domains=("real",), accepts="anything")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="domains"):
        register_evaluator("x", form="sequence", domains="float", accepts="anything")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no evaluator is registered"):
        get_evaluator("x")
    assert "x" not in {e.name for e in evaluators()}


def test_the_incontext_pair_function_dispatches_to_the_registered_evaluator() -> None:
    """Over GF(p) below the declared limit the engine's pair function uses the fast path;
    above it (and in other domains) the generic call -- with the same values."""
    rep = InContextRepresentation.random(depth=2, width=3, n_tokens=2, seed=3,
                                         position=2, coordinate=1)
    rng = np.random.default_rng(4)
    for p in (16_777_259, 2_147_483_647):
        F = ModularDomain(p)
        X = rng.integers(0, p, (6, 2, 3))
        expected = rep.net(_incontext_inputs(rep, X[:, 0], X[:, 1]), domain=F)[:, 2, 1]
        assert np.array_equal(rep.grid_function(X, domain=F).astype(object),
                              expected.astype(object))
