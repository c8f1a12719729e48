"""Domains own the method decision: templates, rank and certificate per domain, and the same
network code evaluated in each agrees with exact arithmetic."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from seprank import LinearAttention, grid_tensor, matricize, separation_rank
from seprank.core import Domain, ExactDomain, FloatDomain, ModularDomain, domain_for, is_prime
from seprank.core.random import random_prime, spawn

FLOAT_RTOL = 1e-9
EXACT = ExactDomain()


def test_domain_for_translates_every_method_and_refuses_the_rest() -> None:
    rng = np.random.default_rng(0)
    assert isinstance(domain_for("svd"), FloatDomain)
    assert isinstance(domain_for("exact"), ExactDomain)
    F = domain_for("modular", rng)
    assert isinstance(F, ModularDomain) and is_prime(F.p) and 2**24 <= F.p < 2**25
    G = domain_for("modular", rng, residue=(1, 4))
    assert isinstance(G, ModularDomain) and G.p % 4 == 1
    for bad in ("float", "rational", "symbolic", ""):
        with pytest.raises(ValueError, match="unknown method"):
            domain_for(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rng"):
        domain_for("modular")
    with pytest.raises(ValueError, match="rtol"):
        domain_for("exact", rtol=1e-3)


def test_random_prime_reproduces_the_legacy_draws() -> None:
    """random_prime(rng, 25) is the old random_small_prime draw for draw (fixed-seed numbers of
    the README and the claims depend on it); residue classes are redraws of the same stream."""
    def legacy(rng: np.random.Generator) -> int:
        while True:
            c = int(rng.integers(2**24, 2**25)) | 1
            while c < 2**25:
                if is_prime(c):
                    return c
                c += 2
    for seed in range(20):
        assert random_prime(np.random.default_rng(seed), 25) == legacy(
            np.random.default_rng(seed))
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        want = legacy(b)
        while want % 4 != 1:
            want = legacy(b)
        assert random_prime(a, 25, residue=(1, 4)) == want


def test_spawn_reproduces_the_legacy_stream_split() -> None:
    for seed in (0, 1, 12345):
        parent = np.random.default_rng(seed)
        legacy = [np.random.default_rng(s) for s in
                  np.random.SeedSequence(int(parent.integers(2**63))).spawn(2)]
        new = spawn(seed, 2)
        for x, y in zip(legacy, new, strict=True):
            assert np.array_equal(x.integers(0, 2**40, 8), y.integers(0, 2**40, 8))


@pytest.mark.parametrize("bad", [-1, 1.5, "abc", True, [1, 2]])
def test_seeds_are_validated_with_a_message_naming_seed(bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="seed"):
        spawn(bad, 2)


def test_templates_rank_and_certificate_per_domain(domain: Domain) -> None:
    T = domain.templates(np.random.default_rng(1), 5, 3)
    assert T.shape == (5, 3)
    M = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]])
    r = domain.rank(domain.asarray(M))
    assert r.rank == 2 and r.method == domain.method
    assert domain.certifies == {"svd": "none", "modular": "lower_bound",
                                "exact": "exact"}[domain.method]


def test_the_same_network_code_agrees_with_exact_arithmetic_in_every_domain(
        domain: Domain) -> None:
    """LinearAttention over this domain == the exact evaluation (reduced mod p / as floats)."""
    net = LinearAttention.random(depth=2, width=3, heads=1, seed=0)
    X = np.random.default_rng(2).integers(-3, 4, (4, 2, 3))
    exact = net(ExactDomain().asarray(X), domain=ExactDomain())
    value = net(domain.asarray(X), domain=domain)
    if isinstance(domain, ModularDomain):
        assert np.array_equal(value, ModularDomain(domain.p).asarray(exact))
    elif isinstance(domain, FloatDomain):
        want = np.vectorize(float)(exact)
        assert np.allclose(value, want, rtol=FLOAT_RTOL, atol=0)
    else:
        assert all(Fraction(a) == Fraction(b) for a, b in zip(value.ravel(), exact.ravel(),
                                                                strict=True))


def test_grid_and_separation_rank_agree_in_every_domain(domain: Domain) -> None:
    """<x1, x2>^2 in dimension 3 has sep 6 = m(2) (binom(4, 2)); every domain's grid sees 6."""
    def inner_squared(X: np.ndarray, *, domain: Domain = EXACT) -> np.ndarray:
        s = domain.add(domain.add(domain.mul(X[:, 0, 0], X[:, 1, 0]),
                                  domain.mul(X[:, 0, 1], X[:, 1, 1])),
                       domain.mul(X[:, 0, 2], X[:, 1, 2]))
        return domain.mul(s, s)

    T = domain.templates(np.random.default_rng(3), 12, 3)
    E = matricize(grid_tensor(lambda X: inner_squared(X, domain=domain), T, 2), [0])
    assert domain.rank(E).rank == 6
    r = separation_rank(inner_squared, n_inputs=2, dim=3, partition=([0], [1]),
                        method=domain.method, seed=0)
    assert r.rank == 6


def test_a_complex_domain_holds_a_square_root_of_minus_one(domain: Domain) -> None:
    """domain_for(..., complex_=True) is a field with i: i * i + 1 == 0 in its own arithmetic."""
    field = domain_for(domain.method, np.random.default_rng(4), complex_=True)
    i = field.sqrt_minus_one()
    one = field.asarray(np.array([1], dtype=object))
    unit = field.scale(one, i)
    assert np.all(field.add(field.mul(unit, unit), one) == 0)
    if isinstance(field, ModularDomain):
        assert field.p % 4 == 1
    with pytest.raises(ValueError, match="square root of -1"):
        FloatDomain().sqrt_minus_one()


def test_matrix_rank_draws_its_primes_as_domain_for_does() -> None:
    """matrix_rank(method='modular') is domain_for('modular', bits=62).rank: the same primes
    from the same stream, [2**61, 2**62), the second only when the first is not full rank."""
    from seprank.core import matrix_rank, rank_mod_p

    M = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]])          # rank 2 < 3: two primes
    for seed in range(5):
        stream = np.random.default_rng(seed)
        primes = (random_prime(stream, 62), random_prime(stream, 62))
        r = matrix_rank(M, method="modular", seed=seed)
        assert r.details["primes"] == primes and all(2**61 <= p < 2**62 for p in primes)
        assert (r.rank, r.certifies) == (2, "lower_bound")
        assert r.details["ranks_per_prime"] == tuple(rank_mod_p(M, p).rank for p in primes)
    full = matrix_rank(np.eye(3, dtype=int), method="modular", seed=0)
    assert len(full.details["primes"]) == 1 and full.certifies == "exact"


def test_a_large_prime_domain_ranks_but_refuses_int64_arithmetic() -> None:
    p = random_prime(np.random.default_rng(0), 62)
    F = ModularDomain(p)
    # [[1/2, 1], [1, 2]] has determinant 0: rank 1 over Q, hence over GF(p)
    assert F.rank([[Fraction(1, 2), 1], [1, 2]]).rank == 1
    with pytest.raises(ValueError, match="overflow int64"):
        F.mul(F.asarray([2]), F.asarray([3]))
    with pytest.raises(ZeroDivisionError, match="divides a denominator"):
        ModularDomain(5).rank([[Fraction(1, 5), 1], [1, 2]])


def test_the_exact_domain_ranks_gaussian_rationals_over_q_i() -> None:
    from seprank.core import GaussianRational

    i = GaussianRational(0, 1)
    # second row = i * first row: rank 1 over Q(i) (rank 2 over Q of the real embedding / 2)
    M = np.array([[GaussianRational(1), i], [i, GaussianRational(-1)]], dtype=object)
    r = ExactDomain().rank(M)
    assert (r.rank, r.certifies, r.details["field"]) == (1, "exact", "Q(i)")
    assert ExactDomain().rank(np.array([[1, i], [0, 1]], dtype=object)).rank == 2
    assert ExactDomain().dtype is object and ModularDomain(7).dtype is np.int64
