"""Issue 35 for circuits: degree derivation in closed form / by squaring on degree sets, honest
memory estimates, one reader with the checker, validation of every way a circuit is made."""

from __future__ import annotations

import math
import tracemalloc
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import seprank
from seprank.circuits import (
    Circuit,
    CircuitBuilder,
    deep_cac,
    from_json,
    incontext,
    linear_ssm,
    polynomial_mlp,
    rac,
    shallow_cac,
)
from seprank.circuits.degrees import Bidegrees, _minkowski, degree_bounds
from seprank.circuits.program import Node
from seprank.core.domains import ExactDomain, ModularDomain
from seprank.core.errors import MemoryBudgetError


def _sum_power(e: int, n_inputs: int = 2) -> Circuit:
    b = CircuitBuilder(n_inputs=n_inputs, dim=1)
    s = b.einsum("n->", b.reshape(b.input(), (n_inputs,)))
    return b.build(b.power(s, e), name=f"(x0 + ... )^{e}")


# --- degrees -------------------------------------------------------------------------------


def test_huge_power_degrees_are_derived_by_squaring() -> None:
    e = 10**5                    # (x0 + x1)^e has every bidegree (j, e - j): binomials != 0
    f = _sum_power(e)
    assert f.total_degrees() == (e,)
    structure = f.degree_structure((0,), (1,))
    assert structure is not None
    assert structure.bidegrees == tuple((j, e - j) for j in range(e + 1))


def test_astronomic_degree_in_closed_form_or_refused() -> None:
    f = _sum_power(10**100)
    assert f.total_degrees() == (10**100,)           # one node-level bound: homogeneous
    with pytest.raises(ValueError, match="structure='dense'"):
        f.degree_structure((0,), (1,))


def test_polynomial_mlp_and_deep_incontext_do_not_hang() -> None:
    k = 10**5
    f = polynomial_mlp(n_inputs=2, dim=1, widths=2, exponent=k, seed=0)
    assert f.total_degrees() == (k,)                 # (W x)^k, then a linear read-out
    g = incontext(depth=50, width=2, seed=0)
    with pytest.raises(ValueError, match="degree may reach"):
        g.bidegrees((0,), (1,))


def test_non_homogeneous_high_degree_is_refused_up_front() -> None:
    b = CircuitBuilder(n_inputs=2, dim=1)
    x = b.reshape(b.input(), (2,))
    s = b.add(b.einsum("n->", x), b.einsum("n,n->", x, x))      # degrees 1 and 2 mixed
    f = b.build(b.power(s, 5 * 10**5), name="mixed")
    with pytest.raises(ValueError, match="products of degree classes"):
        f.bidegrees((0,), (1,))


def test_degree_bounds_are_bounds_of_small_circuits() -> None:
    f = rac(n_inputs=3, dim=2, hidden=2, depth=2, seed=0)
    bound = degree_bounds(f.nodes)[f.output]
    assert bound is not None
    lo, hi = bound
    assert lo <= min(f.total_degrees()) and max(f.total_degrees()) <= hi


masks = st.sets(st.integers(0, 300), min_size=1, max_size=300)


@settings(max_examples=60, deadline=None)
@given(masks, masks, st.booleans())
def test_minkowski_of_masks_is_the_minkowski_sum(a: set[int], b: set[int], fill: bool) -> None:
    if fill:                     # dense sets reach the convolution path
        a, b = a | set(range(0, 600, 2)), b | set(range(1, 500, 3))
    m1, m2 = sum(1 << x for x in a), sum(1 << x for x in b)
    want = {x + y for x in a for y in b}
    got = _minkowski(m1, m2)
    assert {j for j in range(got.bit_length()) if got >> j & 1} == want


def test_bidegrees_product_matches_brute_force() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        p = {(int(j), int(k)) for j, k in rng.integers(0, 6, (5, 2))}
        q = {(int(j), int(k)) for j, k in rng.integers(0, 6, (4, 2))}
        assert (Bidegrees(p) * Bidegrees(q)).pairs == {(a + c, b + d) for a, b in p
                                                       for c, d in q}
        assert (Bidegrees(p) + Bidegrees(q)).pairs == p | q


# --- one language, one reader --------------------------------------------------------------


def _program() -> dict:
    return shallow_cac(n_inputs=2, dim=2, channels=2, seed=0).to_json()


def test_from_json_refuses_negative_indices_like_the_checker() -> None:
    prog = _program()
    last = prog["nodes"][-1]
    last["args"] = [-1 if a == len(prog["nodes"]) - 2 else a for a in last["args"]]
    with pytest.raises(ValueError, match=r"must be in 0\.\."):
        from_json(prog)
    prog = _program()
    prog["output"] = -1
    with pytest.raises(ValueError, match="output"):
        from_json(prog)


def test_from_json_refuses_unknown_node_fields() -> None:
    prog = _program()
    prog["nodes"][0]["weight"] = 3
    with pytest.raises(ValueError, match="unknown field"):
        from_json(prog)


def test_from_json_reads_back_what_to_json_wrote() -> None:
    f = rac(n_inputs=3, dim=2, hidden=2, seed=1)
    X = np.arange(12).reshape(2, 3, 2)
    assert from_json(f.to_json())(X).tolist() == f(X).tolist()


# --- every way a circuit is made is validated ----------------------------------------------


def test_circuit_built_directly_is_validated() -> None:
    nodes = (Node("input", (), (2, 1), True),)
    with pytest.raises(ValueError, match="scalar"):
        Circuit(nodes, 0, 2, 1)
    with pytest.raises(ValueError, match="scalar"):
        Circuit.from_nodes(nodes, 0, n_inputs=2, dim=1, name="x")
    bad = (Node("input", (), (2, 1), True), Node("reshape", (0,), (3,), True))
    with pytest.raises(ValueError, match="reshape"):
        Circuit(bad, 1, 2, 1)
    with pytest.raises(ValueError, match="earlier nodes"):
        Circuit((Node("input", (), (2, 1), True), Node("einsum", (5,), (), True, "nd->")),
                1, 2, 1)


def test_build_name_and_take_indices_are_checked() -> None:
    b = CircuitBuilder(n_inputs=2, dim=1)
    x = b.input()
    y = b.einsum("nd->", x)
    with pytest.raises(TypeError, match="name"):
        b.build(y, name=None)  # type: ignore[arg-type]
    for indices in ({0: 1}, {0, 1}):
        with pytest.raises(TypeError, match="indices"):
            b.take(x, 0, indices)  # type: ignore[arg-type]


@pytest.mark.parametrize("make", [
    lambda: shallow_cac(n_inputs=2, dim=1, channels=1, low=0, high=0),
    lambda: deep_cac(n_inputs=2, dim=1, channels=1, low=0, high=0),
    lambda: rac(n_inputs=2, dim=1, hidden=1, low=0, high=0),
    lambda: linear_ssm(n_inputs=2, dim=1, state=1, low=0, high=0),
    lambda: polynomial_mlp(n_inputs=2, dim=1, widths=1, low=0, high=0),
])
def test_zoo_refuses_an_all_zero_weight_range(make: Callable[[], Circuit]) -> None:
    with pytest.raises(ValueError, match="non-zero"):
        make()


# --- evaluation ----------------------------------------------------------------------------


def _with_scalar_constant() -> Circuit:
    b = CircuitBuilder(n_inputs=2, dim=1)
    x = b.reshape(b.input(), (2,))
    return b.build(b.einsum("n,->", b.power(x, 3), b.const(5)), name="5 (x0^3 + x1^3)")


@pytest.mark.parametrize("p", [2, 3, 7, 101, 2**31 - 1])
def test_gf_p_evaluation_with_a_scalar_constant_agrees_with_exact(p: int) -> None:
    f = _with_scalar_constant()
    X = np.array([[[2], [3]], [[-1], [4]]])
    exact = [5 * (a**3 + b**3) for (a,), (b,) in X.tolist()]
    assert f(X, domain=ModularDomain(p)).tolist() == [v % p for v in exact]
    assert f(X, domain=ExactDomain()).tolist() == exact


def test_float_overflow_is_refused() -> None:
    f = _with_scalar_constant()
    with pytest.raises(OverflowError, match="overflowed"):
        f(np.array([[[1e150], [1.0]]]))
    assert f(np.array([[[1.0], [2.0]]])).tolist() == [45.0]


def test_evaluation_guards_the_whole_peak_not_each_node() -> None:
    b = CircuitBuilder(n_inputs=1, dim=64)
    x = b.reshape(b.input(), (64,))
    layers = [b.einsum("i,i->i", x, x) for _ in range(16)]    # all alive until the sum
    f = b.build(b.einsum("i->", b.add(*layers)), name="16 squares")
    X = np.ones((4096, 1, 64))
    one_node = 4096 * 64 * 8                                  # 2 MiB
    with seprank.memory_limit(4 * one_node), pytest.raises(MemoryBudgetError):
        f(X)
    assert f(X[:8]).tolist() == [16.0 * 64] * 8


def test_exact_entries_are_priced_by_their_size() -> None:
    f = _sum_power(2**16)          # entries of 2**16 * 2 bits: 16 KiB each, not 8 bytes
    X = np.full((64, 2, 1), 3, dtype=object)
    with seprank.memory_limit(2**20), pytest.raises(MemoryBudgetError):
        f(X)


# --- constructors' memory ------------------------------------------------------------------


def test_deep_cac_of_a_billion_inputs_is_refused_before_allocating() -> None:
    with pytest.raises(MemoryBudgetError, match="inputs"):
        deep_cac(n_inputs=2**30, dim=1, channels=1, seed=0)


def test_rac_estimate_bounds_what_it_allocates_and_is_not_100x_over() -> None:
    limit = 2**26                    # the old estimate (1000 object entries per node) is 320 MB
    tracemalloc.start()
    try:
        with seprank.memory_limit(limit):
            f = rac(n_inputs=1000, dim=2, hidden=2, seed=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(f.nodes) > 4000 and peak < limit
    assert math.isfinite(peak)


def test_separation_rank_of_a_huge_power_is_refused_not_hung() -> None:
    f = _sum_power(10**5)    # 100,001 degree blocks: an n x n interpolation system of ~1 TB
    with pytest.raises(MemoryBudgetError, match="interpolation system"):
        f.separation_rank(partition=([0], [1]), seed=0, budget=seprank.Budget(max_seconds=5))
