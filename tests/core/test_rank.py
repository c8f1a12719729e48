"""Tests of the certified rank engine: closed forms, cross-checks with sympy, invariances."""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import RankResult, matrix_rank, random_prime, rank_mod_p

SMALL_INT = st.integers(min_value=-6, max_value=6)


def sympy_rank(M: list[list[int | Fraction]]) -> int:
    """Independent exact rank: sympy's DomainMatrix over QQ."""
    return int(sympy.Matrix(M).to_DM().rank())


def low_rank_int(rng: np.random.Generator, m: int, n: int, r: int, bound: int = 50) -> np.ndarray:
    A = rng.integers(-bound, bound + 1, (m, r))
    B = rng.integers(-bound, bound + 1, (r, n))
    return A @ B


@st.composite
def int_matrices(draw: st.DrawFn, max_side: int = 7) -> np.ndarray:
    m = draw(st.integers(1, max_side))
    n = draw(st.integers(1, max_side))
    r = draw(st.integers(0, min(m, n)))
    A = np.array(draw(st.lists(st.lists(SMALL_INT, min_size=r, max_size=r), min_size=m,
                               max_size=m)), dtype=np.int64).reshape(m, r)
    B = np.array(draw(st.lists(st.lists(SMALL_INT, min_size=n, max_size=n), min_size=r,
                               max_size=r)), dtype=np.int64).reshape(r, n)
    return A @ B


# --- closed forms and cross-checks -------------------------------------------------------

@pytest.mark.parametrize("n", [8, 12, 14, 16])
def test_hilbert_exact_rank_is_n_and_svd_reports_its_tolerance(n: int) -> None:
    H = [[Fraction(1, i + j + 1) for j in range(n)] for i in range(n)]
    exact = matrix_rank(H, method="exact")
    assert (exact.rank, exact.certifies) == (n, "exact")
    svd = matrix_rank(np.array(H, dtype=float), method="svd")
    assert svd.certifies == "none"
    s = svd.details["singular_values"]
    assert svd.details["tolerance"] == pytest.approx(s[0] * n * np.finfo(float).eps)
    assert svd.rank == int(np.linalg.matrix_rank(np.array(H, dtype=float)))
    if n >= 12:  # the pitfall: floats lose rank (anchors §4.1: 12 -> 11, 14 -> 11, 16 -> 12)
        assert svd.rank < n


@pytest.mark.parametrize("m,n,r", [(5, 5, 0), (6, 4, 2), (10, 10, 9), (30, 20, 13), (40, 60, 25)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_product_of_random_factors_has_inner_rank(m: int, n: int, r: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    M = low_rank_int(rng, m, n, r)
    expected = sympy_rank(M.tolist())  # independent: generic factors give r
    assert expected == r
    assert matrix_rank(M, method="exact").rank == r
    modular = matrix_rank(M, method="modular", seed=100 + seed)
    assert modular.rank == r
    assert modular.certifies == ("exact" if r == min(m, n) else "lower_bound")


@settings(max_examples=60, deadline=None)
@given(int_matrices(), st.integers(0, 2**32 - 1))
def test_modular_never_exceeds_exact_and_exact_matches_sympy(M: np.ndarray, seed: int) -> None:
    exact = matrix_rank(M, method="exact").rank
    assert exact == sympy_rank(M.tolist())
    assert matrix_rank(M, method="modular", seed=seed, n_primes=1).rank <= exact


@settings(max_examples=40, deadline=None)
@given(int_matrices(max_side=5), st.integers(1, 9), st.integers(1, 9))
def test_rank_invariant_under_transpose_and_nonzero_scaling(M: np.ndarray, a: int, b: int) -> None:
    r = matrix_rank(M, method="exact").rank
    assert matrix_rank(M.T, method="exact").rank == r
    assert matrix_rank(-a * M, method="exact").rank == r
    scaled = [[Fraction(int(x), b) * a for x in row] for row in M.tolist()]
    assert matrix_rank(scaled, method="exact").rank == r
    assert matrix_rank(scaled, method="modular", seed=a).rank == r


def test_small_prime_can_lose_rank_and_is_reported_as_lower_bound() -> None:
    M = [[1, 2], [3, 4]]  # det = -2
    assert rank_mod_p(M, 2).rank == 1
    assert rank_mod_p(M, 2).certifies == "lower_bound"
    assert rank_mod_p(M, 3).rank == 2
    with pytest.raises(ValueError, match="not a prime"):
        rank_mod_p(M, 4)



@given(st.integers(4, 10**12))
@settings(max_examples=60, deadline=None)
def test_refused_modulus_names_a_factorization_sympy_agrees_with(n: int) -> None:
    from seprank.core.gfp_elimination import check_prime
    from seprank.core.random import factorization
    from seprank.core.rank import check_modulus
    expected = " * ".join(f"{q}" + (f"**{e}" if e > 1 else "")
                          for q, e in sorted(sympy.factorint(n).items()))
    if sympy.isprime(n):
        assert check_modulus(n) == n
        return
    assert factorization(n) == expected
    with pytest.raises(ValueError, match=rf"\({n} = {expected.replace('*', '[*]')}\)"):
        check_modulus(n)
    if n < 2**26:
        with pytest.raises(ValueError, match=rf"\({n} = {expected.replace('*', '[*]')}\)"):
            check_prime(n)

# --- accepted input types ------------------------------------------------------------------

def test_big_integers_and_fractions() -> None:
    big = 2**200
    M = np.array([[big, 1], [big * 3, 3]], dtype=object)  # rank 1
    assert matrix_rank(M, method="exact").rank == 1
    assert matrix_rank(M, method="modular", seed=0).rank == 1
    M2 = np.array([[big + 1, 1], [big * 3, 3]], dtype=object)  # det = 3 != 0
    assert matrix_rank(M2, method="exact").rank == 2
    F = [[Fraction(1, 3), Fraction(2, 7)], [Fraction(2, 3), Fraction(4, 7)]]
    assert matrix_rank(F, method="exact").rank == 1


def test_sympy_and_flint_matrices() -> None:
    S = sympy.Matrix([[sympy.Rational(1, 2), 1], [1, 2]])
    assert matrix_rank(S, method="exact").rank == 1
    assert matrix_rank(flint.fmpz_mat([[1, 2], [2, 5]]), method="exact").rank == 2
    assert matrix_rank(flint.fmpq_mat(2, 2, [1, 2, 2, 4]), method="modular").rank == 1
    with pytest.raises(TypeError, match=r"symbol|exact rational"):
        matrix_rank(sympy.Matrix([[sympy.Symbol("x"), 1], [1, 1]]), method="exact")
    with pytest.raises(TypeError, match="exact rational"):
        matrix_rank(sympy.Matrix([[sympy.sqrt(2), 1], [1, 1]]), method="exact")


def test_prime_dividing_a_denominator_is_skipped() -> None:
    p = random_prime(np.random.default_rng(7))
    M = [[Fraction(1, p), 1], [0, 1]]
    result = matrix_rank(M, method="modular", seed=7, n_primes=1)
    assert result.details["skipped_primes"] == (p,)
    assert p not in result.details["primes"]
    assert result.rank == 2 and result.certifies == "exact"


# --- edge cases and refusals -------------------------------------------------------------

@pytest.mark.parametrize("method", ["exact", "modular", "svd"])
def test_degenerate_shapes(method: str) -> None:
    assert matrix_rank(np.zeros((0, 5), dtype=np.int64), method=method).rank == 0
    assert matrix_rank(np.zeros((5, 0), dtype=np.int64), method=method).rank == 0
    assert matrix_rank(np.zeros((4, 3), dtype=np.int64), method=method).rank == 0
    assert matrix_rank([[0]], method=method).rank == 0
    assert matrix_rank([[3]], method=method).rank == 1


@pytest.mark.parametrize("method", ["exact", "modular", "svd"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 2, 2)])
def test_non_2d_input_is_refused(method: str, shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="2-D"):
        matrix_rank(np.ones(shape, dtype=np.int64), method=method)


@pytest.mark.parametrize("method", ["exact", "modular"])
def test_floats_are_refused_by_exact_methods(method: str) -> None:
    with pytest.raises(TypeError, match="method='svd'"):
        matrix_rank(np.eye(3), method=method)
    with pytest.raises(TypeError, match="Fraction"):
        matrix_rank([[1, 0.5], [2, 3]], method=method)
    with pytest.raises(TypeError, match="NaN or inf"):
        matrix_rank(np.array([[1.0, np.nan]]), method=method)


def test_nan_and_inf_are_refused_by_svd() -> None:
    for bad in (np.nan, np.inf, -np.inf):
        with pytest.raises(ValueError, match="NaN or infinite"):
            matrix_rank(np.array([[1.0, bad], [0.0, 1.0]]), method="svd")


def test_argument_errors() -> None:
    with pytest.raises(ValueError, match="unknown method"):
        matrix_rank([[1]], method="qr")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tolerances of method='svd'"):
        matrix_rank([[1]], method="exact", rtol=1e-3)
    with pytest.raises(ValueError, match="n_primes"):
        matrix_rank([[1, 2], [2, 4]], method="modular", n_primes=0)
    with pytest.raises(ValueError, match="rtol"):
        matrix_rank([[1.0]], method="svd", rtol=-1.0)


# --- svd details and the result object -----------------------------------------------------

def test_svd_tolerances_and_gap() -> None:
    M = np.diag([1.0, 1e-3, 1e-9])
    assert matrix_rank(M, method="svd").rank == 3
    r = matrix_rank(M, method="svd", rtol=1e-6)
    assert r.rank == 2
    assert r.details["gap"] == pytest.approx(1e6)
    assert r.details["tolerance"] == pytest.approx(1e-6)
    assert matrix_rank(M, method="svd", atol=0.5).rank == 1
    assert matrix_rank(M, method="svd", atol=0.5, rtol=1e-12).details["tolerance"] == 0.5
    assert matrix_rank(np.eye(3), method="svd").details["gap"] == float("inf")


def test_rank_result_protocol() -> None:
    r = matrix_rank([[1, 2], [3, 4]], method="exact")
    assert isinstance(r, RankResult)
    assert int(r) == 2
    assert "rank=2" in repr(r) and "certifies='exact'" in repr(r)
    assert "exact over Q" in r._repr_markdown_()
    with pytest.raises(AttributeError):
        r.rank = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.details["x"] = 1  # type: ignore[index]
    assert hash(r) == hash(matrix_rank([[1, 2], [3, 5]], method="exact"))


def test_negative_and_big_entries_reduce_correctly_mod_p() -> None:
    """rank over GF(p) of [[a, b], [c, d]] is 2 iff ad - bc != 0 mod p (negatives, bigints)."""
    p = 1_000_003
    for a, b, c, d in [(-1, 2, 3, -6), (-1, 2, 3, -5), (2**80, 1, 2**80 + p, 1), (-p, 1, 2, 3)]:
        det = a * d - b * c
        expected = 2 if det % p else (1 if any(x % p for x in (a, b, c, d)) else 0)
        M = np.array([[a, b], [c, d]], dtype=object)
        assert rank_mod_p(M, p).rank == expected
