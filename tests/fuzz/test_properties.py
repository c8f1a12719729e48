"""Valid edge inputs, answers checked against an independent computation (hypothesis).

* a certified separation rank never exceeds the true separation rank (sympy's rank of the
  coefficient matrix), even with coefficients to 1e30 -- and a function that evaluates in
  int64 is either refused or still below the truth;
* exact and modular matrix ranks agree with sympy, SVD ranks are invariant under scaling to
  1e300 and 1e-300;
* Kruskal ranks with repeated and zero columns agree with the definition (sympy ranks of every
  column subset);
* powers of stochastic matrices agree with exact Fraction powers and stay stochastic for any
  exponent.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import identifiability as ID
import seprank
from identifiability.markov import stochastic_power

#: Examples per property (the quick CI profile).
EXAMPLES = 25
#: Agreement of a float matrix power with the exact one.
POWER_TOL = 1e-12
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

terms = st.lists(st.tuples(st.integers(-10**30, 10**30).filter(bool),
                           st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
                 min_size=1, max_size=5)


def _true_sep(poly: list[tuple[int, int, int, int]]) -> int:
    """sep of sum c * x^a * y1^b * y2^e between x and (y1, y2): sympy's rank of the
    coefficient matrix (independent of seprank's flint ranks)."""
    x, y1, y2 = sympy.symbols("x y1 y2")
    expr = sympy.expand(sum(c * x**a * y1**b * y2**e for c, a, b, e in poly))
    if expr == 0:
        return 0
    P = sympy.Poly(expr, x, y1, y2)
    rows = sorted({m[0] for m in P.monoms()})
    cols = sorted({m[1:] for m in P.monoms()})
    M = sympy.zeros(len(rows), len(cols))
    for m, c in P.terms():
        M[rows.index(m[0]), cols.index(m[1:])] = c
    return int(M.rank())


def _exact_f(poly: list[tuple[int, int, int, int]]):  # type: ignore[no-untyped-def]
    def f(X: np.ndarray) -> np.ndarray:
        x, y1, y2 = X[:, 0, 0], X[:, 1, 0], X[:, 1, 1]
        return sum(c * x**a * y1**b * y2**e for c, a, b, e in poly)
    return f


def _int64_f(poly: list[tuple[int, int, int, int]]):  # type: ignore[no-untyped-def]
    def f(X: np.ndarray) -> np.ndarray:
        Z = X.astype(np.int64)  # wraps silently on overflow
        x, y1, y2 = Z[:, 0, 0], Z[:, 1, 0], Z[:, 1, 1]
        return sum(np.int64(c % 2**62) * x**a * y1**b * y2**e for c, a, b, e in poly)
    return f


@SETTINGS
@given(poly=terms, method=st.sampled_from(["modular", "exact"]), seed=st.integers(0, 2**16))
def test_certified_rank_never_exceeds_the_true_separation_rank(poly, method, seed) -> None:
    truth = _true_sep(poly)
    X0 = np.zeros((1, 2, 2), dtype=object)
    if not np.any(np.asarray(_exact_f(poly)(X0)) != 0) and truth == 0:
        return  # the zero function: nothing to certify
    r = seprank.separation_rank(_exact_f(poly), n_inputs=2, dim=2, partition=([0], [1]),
                                method=method, seed=seed, n_templates=8)
    assert r.certifies == "lower_bound" and r.rank <= truth
    try:
        wrapped = seprank.separation_rank(_int64_f(poly), n_inputs=2, dim=2,
                                          partition=([0], [1]), method=method, seed=seed,
                                          n_templates=8)
    except (TypeError, OverflowError):
        return  # refused (or f itself overflowed): never a certificate built on wrapped values
    pytest.fail(f"an int64-evaluated f was certified: rank {wrapped.rank}")


matrices = st.integers(1, 5).flatmap(lambda m: st.integers(1, 5).flatmap(
    lambda n: st.lists(st.lists(st.integers(-10**45, 10**45), min_size=n, max_size=n),
                       min_size=m, max_size=m)))


@SETTINGS
@given(rows=matrices, rank_drop=st.booleans(), seed=st.integers(0, 2**16))
def test_exact_and_modular_ranks_agree_with_sympy(rows, rank_drop, seed) -> None:
    if rank_drop and len(rows) > 1:
        rows = [*rows[:-1], [a + b for a, b in zip(rows[0], rows[-2], strict=True)]]
    truth = sympy.Matrix(rows).rank()
    assert seprank.matrix_rank(rows, method="exact").rank == truth
    modular = seprank.matrix_rank(rows, method="modular", seed=seed)
    assert modular.rank <= truth  # certified lower bound
    if modular.certifies == "exact":
        assert modular.rank == truth


@SETTINGS
@given(rows=st.integers(1, 4).flatmap(lambda n: st.lists(
    st.lists(st.integers(-3, 3), min_size=n, max_size=n), min_size=1, max_size=4)),
    scale=st.sampled_from([1e300, 1e-300, 2.0**1000, 1.0]))
def test_svd_rank_is_scale_invariant(rows, scale) -> None:
    A = np.array(rows, dtype=float)
    assert seprank.matrix_rank(A * scale, method="svd").rank == \
        seprank.matrix_rank(A, method="svd").rank


@SETTINGS
@given(rows=st.integers(2, 3).flatmap(lambda m: st.lists(
    st.lists(st.integers(-2, 2), min_size=m, max_size=m), min_size=2, max_size=6)),
    duplicate=st.booleans(), zero=st.booleans())
def test_kruskal_rank_agrees_with_the_definition(rows, duplicate, zero) -> None:
    A = np.array(rows, dtype=int).T  # m x n, columns = the drawn vectors
    if duplicate:
        A = np.hstack([A, 3 * A[:, :1]])
    if zero:
        A = np.hstack([A, np.zeros((A.shape[0], 1), dtype=int)])
    n = A.shape[1]
    truth = 0
    for r in range(1, n + 1):  # largest r with every r columns independent
        subsets = itertools.combinations(range(n), r)
        if all(sympy.Matrix(A[:, list(S)]).rank() == r for S in subsets):
            truth = r
        else:
            break
    for engine in ("minors", "subsets"):
        assert ID.kruskal_rank(A, engine=engine).rank == truth


@SETTINGS
@given(k=st.integers(2, 4), n=st.integers(0, 40), seed=st.integers(0, 2**16))
def test_stochastic_power_matches_exact_fraction_powers(k, n, seed) -> None:
    rng = np.random.default_rng(seed)
    W = rng.integers(1, 9, (k, k))
    P_exact = [[Fraction(int(w), int(row.sum())) for w in row] for row in W]
    P = np.array([[float(v) for v in row] for row in P_exact])
    E = sympy.Matrix(P_exact) ** n  # exact rational power
    got = stochastic_power(P, n)
    assert np.max(np.abs(got - np.array(E.tolist(), dtype=float))) < POWER_TOL
    big = stochastic_power(P, 10**18)  # the stationary limit, exactly stochastic
    pi = (sympy.Matrix(P_exact).T - sympy.eye(k)).nullspace()[0]  # pi P = pi
    pi = np.array([float(v) for v in pi / sum(pi)])
    assert np.max(np.abs(big - pi[None, :])) < POWER_TOL
