"""Kruskal ranks: anchor cases, brute-force cross-checks, invariances, Kruskal's condition."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from identifiability import kruskal_condition, kruskal_rank


def brute_force_k_rank(A: np.ndarray) -> int:
    """The definition, with sympy's exact rank (independent of the code under test)."""
    M = sympy.Matrix(A.tolist())
    n = M.shape[1]
    k = 0
    for r in range(1, n + 1):
        if all(M[:, list(S)].rank() == r for S in itertools.combinations(range(n), r)):
            k = r
        else:
            break
    return k


# --- anchor cases (anchors report §1, §6) ---------------------------------------------------

ANCHORS = [
    ("generic 3x4", [[1, 2, 3, 5], [2, 7, 1, 1], [4, 1, 8, 3]], 3),
    ("[e1, e2, e1+e2, e3]", [[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 1]], 2),
    ("[e1, e1, e2]", [[1, 1, 0], [0, 0, 1]], 1),
    ("zero column", [[1, 0, 2], [0, 0, 3]], 0),
    ("identity", np.eye(4, dtype=int), 4),
    ("single column", [[0], [3]], 1),
]


@pytest.mark.parametrize(("name", "A", "expected"), ANCHORS, ids=[a[0] for a in ANCHORS])
@pytest.mark.parametrize("engine", ["minors", "subsets"])
def test_anchor_cases(name, A, expected, engine) -> None:
    res = kruskal_rank(A, engine=engine, seed=0)
    assert res.rank == expected and res.certifies == "exact"
    mod = kruskal_rank(A, method="modular", engine=engine, seed=0)
    assert mod.rank == expected
    svd = kruskal_rank(np.asarray(A, dtype=float), method="svd", engine=engine)
    assert svd.rank == expected and svd.certifies == "none"


def test_svd_rank_impostor() -> None:
    """[e1, e1, e2]: rank 2 (an SVD rank named kruskal_rank says 2), k-rank 1."""
    A = np.array([[1, 1, 0], [0, 0, 1]])
    res = kruskal_rank(A)
    assert np.linalg.matrix_rank(A) == 2 and res.details["rank"] == 2
    assert res.rank == 1 and res.witness == (0, 1) and res.spark == 2


def test_witness_is_dependent_and_all_smaller_sets_independent() -> None:
    A = np.array([[1, 0, 0, 1, 2], [0, 1, 0, 1, 0], [0, 0, 1, 0, 3], [0, 0, 0, 0, 0]])
    res = kruskal_rank(A, seed=3)
    M = sympy.Matrix(A.tolist())
    assert len(res.witness) == res.rank + 1
    assert M[:, list(res.witness)].rank() < len(res.witness)
    assert res.rank == brute_force_k_rank(A) == 2


def test_exact_inputs_and_float_refusal() -> None:
    A = [[Fraction(1, 3), Fraction(2, 3), 1], [Fraction(1, 2), 1, Fraction(3, 2)]]
    assert kruskal_rank(A).rank == 1  # column 2 = 2 x column 1 (after scaling)
    with pytest.raises(TypeError, match="float"):
        kruskal_rank(np.eye(3))
    with pytest.raises(ValueError, match="rtol"):
        kruskal_rank([[1, 0], [0, 1]], rtol=1e-3)
    with pytest.raises(ValueError, match="method"):
        kruskal_rank([[1]], method="qr")  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 7), st.integers(0, 10_000))
def test_matches_brute_force_on_structured_integer_matrices(m, n, seed) -> None:
    rng = np.random.default_rng(seed)
    A = rng.integers(-2, 3, (m, n))
    if n > 2 and seed % 2:  # plant a dependency among a few columns
        A[:, n - 1] = A[:, 0] - A[:, 1]
    expected = brute_force_k_rank(A)
    for engine in ("minors", "subsets"):
        res = kruskal_rank(A, engine=engine, seed=seed)
        assert res.rank == expected, (A, engine)
        if res.witness is not None:
            assert sympy.Matrix(A[:, list(res.witness)].tolist()).rank() < len(res.witness)
    assert kruskal_rank(A.astype(float), method="svd").rank == expected
    assert kruskal_rank(A, method="modular", seed=seed).rank <= expected


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_invariance_under_scaling_row_operations_and_permutations(seed) -> None:
    rng = np.random.default_rng(seed)
    A = rng.integers(-3, 4, (4, 7))
    A[:, 6] = A[:, 2] + A[:, 3]
    k = kruskal_rank(A, seed=1).rank
    scales = rng.choice([-3, -2, -1, 1, 2, 5], size=7)
    G = np.triu(rng.integers(-2, 3, (4, 4)), 1) + np.eye(4, dtype=np.int64)  # unimodular
    perm = rng.permutation(7)
    assert kruskal_rank(A * scales, seed=2).rank == k
    assert kruskal_rank(G @ A, seed=3).rank == k
    assert kruskal_rank(A[:, perm], seed=4).rank == k


@pytest.mark.parametrize(("m", "n"), [(3, 7), (6, 12), (8, 11)])
def test_generic_matrices_have_full_k_rank(m, n) -> None:
    A = np.random.default_rng(m * n).integers(-99, 100, (m, n))
    res = kruskal_rank(A, seed=0)
    assert res.rank == m and res.certifies == "exact"
    assert res.details["levels_checked"] == [m]  # no dependent m-subset: one level suffices


def test_big_integers_and_early_exit() -> None:
    big = 2**70
    A = np.array([[big, 1, big + 1, 3], [1, big, big + 1, 5]], dtype=object)
    assert kruskal_rank(A).rank == 2
    A2 = np.random.default_rng(0).integers(-9, 10, (6, 14))
    A2[:, 5] = 0
    assert kruskal_rank(A2).rank == 0


def test_float_tolerance_is_relative_and_reported() -> None:
    A = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1e-9]])  # columns 1 and 3 nearly parallel
    assert kruskal_rank(A, method="svd").rank == 2
    assert kruskal_rank(A, method="svd", rtol=1e-6).rank == 1
    assert kruskal_rank(1e-8 * A, method="svd", rtol=1e-6).rank == 1  # scale-invariant


def test_max_subsets_guard() -> None:
    with pytest.raises(ValueError, match="max_subsets"):
        kruskal_rank(np.random.default_rng(0).integers(-9, 10, (6, 20)), max_subsets=1000)


# --- Kruskal's condition -----------------------------------------------------------------


def test_condition_three_way_and_n_way() -> None:
    I3 = np.eye(3, dtype=int)
    c = kruskal_condition([I3, I3, I3])
    assert c.k_ranks == (3, 3, 3) and (c.lhs, c.rhs) == (9, 8) and c.holds and c.verdict_certified
    c4 = kruskal_condition([I3, I3, I3, I3])
    assert (c4.lhs, c4.rhs, c4.N) == (12, 9, 4) and c4.holds
    c1 = kruskal_condition([[[1]], [[2]], [[3]]])
    assert not c1.holds and "R = 1" in c1.note


def test_condition_fails_on_a_truly_non_unique_221_example() -> None:
    """k-ranks (2, 2, 1), 5 >= 6 false, and a non-monomial second decomposition exists."""
    A = B = np.eye(2, dtype=int)
    C = np.array([[1, 1], [2, 2]])
    c = kruskal_condition([A, B, C])
    assert c.k_ranks == (2, 2, 1) and (c.lhs, c.rhs) == (5, 6) and not c.holds
    W = np.einsum("ir,jr,kr->ijk", A, B, C)
    R = np.array([[1.0, 1.0], [0.0, 1.0]])  # W = (A R)(B R^-T)^T ⊗ c: not a permutation
    W2 = np.einsum("ir,jr,kr->ijk", A @ R, B @ np.linalg.inv(R).T, C)
    assert np.allclose(W, W2)


def test_condition_input_errors() -> None:
    with pytest.raises(ValueError, match="same number of columns"):
        kruskal_condition([np.eye(2, dtype=int), np.eye(3, dtype=int)])
    with pytest.raises(ValueError, match="at least two"):
        kruskal_condition([np.eye(2, dtype=int)])


def test_svd_condition_is_not_certified() -> None:
    c = kruskal_condition([np.eye(3)] * 3, method="svd")
    assert c.holds and not c.verdict_certified


@pytest.mark.parametrize(("a", "b", "seed"), [(3, 4, 0), (4, 4, 1), (2, 6, 2), (5, 3, 3)])
def test_square_minor_screen_matches_determinants_mod_p(a, b, seed) -> None:
    """The Laplace-expansion screen lists exactly the singular square submatrices mod p."""
    from identifiability.masked.kruskal_screen import _zero_square_minors

    p = 7  # a small prime, so that many minors vanish
    B = np.random.default_rng(seed).integers(0, p, (a, b))
    got = set(_zero_square_minors(B, p))
    expected = set()
    for j in range(1, min(a, b) + 1):
        for R in itertools.combinations(range(a), j):
            for C in itertools.combinations(range(b), j):
                if int(sympy.Matrix(B[np.ix_(R, C)].tolist()).det()) % p == 0:
                    expected.add((R, C))
    assert got == expected and len(expected) > 0


def test_the_level_search_finds_every_k_rank_in_logarithmically_many_levels() -> None:
    """One search for both engines: with level(r) dependent exactly for r > k (monotone), the
    search returns k and a dependent (k + 1)-set, asking the top level and then bisecting."""
    from identifiability.masked.kruskal import _search_levels

    for n in range(1, 9):
        for rho in range(1, n + 1):
            for k in range(1, rho + 1):
                asked: list[int] = []

                def level(r: int, k: int = k, asked: list[int] = asked) -> tuple[int, ...] | None:
                    asked.append(r)
                    return None if r <= k else tuple(range(r))

                got, witness = _search_levels(level, rho, n)
                if rho == n:
                    assert (got, witness, asked) == (n, None, [])
                    continue
                assert got == k and witness is not None and len(witness) == k + 1
                assert asked[0] == rho and len(asked) <= 1 + max(1, rho - 1).bit_length()
