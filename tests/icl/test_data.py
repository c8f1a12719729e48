"""Patterns (§3.2), the §5 out-of-domain construction and eq. 12."""

from __future__ import annotations

import math

import numpy as np
import pytest

from identifiability.icl import (
    NORM_RTOL,
    Patterns,
    in_domain_patterns,
    ood_patterns,
    ood_patterns_from_coefficients,
    theorem34_conditions,
)

ATOL = 1e-12


@pytest.mark.parametrize("basis,seed", [("standard", None), ("random", 3)])
def test_patterns_are_orthogonal_with_norm_beta(basis: str, seed: int | None) -> None:
    p = in_domain_patterns(M1=4, M2=5, beta=2.5, d_y=3, basis=basis, seed=seed)  # type: ignore[arg-type]
    allp = np.vstack([p.relevant, p.irrelevant])
    assert np.allclose(allp @ allp.T, 2.5**2 * np.eye(9), atol=1e-9)
    assert p.D == 12 and np.allclose(p.q, [1, 0, 0])
    assert np.allclose(p.mean_relevant, p.relevant.sum(0) / 4)


def test_patterns_refuse_non_orthogonal_or_unequal_norms() -> None:
    with pytest.raises(ValueError, match="orthogonal"):
        Patterns(np.array([[1.0, 1.0]]), np.array([[1.0, 0.0]]), np.ones(1))
    with pytest.raises(ValueError, match="norm"):
        Patterns(np.array([[1.0, 0.0]]), np.array([[0.0, 1.1]]), np.ones(1))
    with pytest.raises(ValueError, match="beta must be >= 1"):
        in_domain_patterns(beta=0.5)


@pytest.mark.parametrize("S1", [1.28, 1.1, 0.5, 0.0, -1.0])
def test_ood_sums_are_a_plus_b_and_sqrt2(S1: float) -> None:
    base = in_domain_patterns()
    if abs(S1) >= 1.28:
        a = b = S1 / 2
    else:
        r = math.sqrt(1.64 - S1 * S1)
        a, b = (S1 + r) / 2, (S1 - r) / 2
    c = theorem34_conditions(base, ood_patterns(base, a, b))
    assert np.allclose(c.sums, [a + b, math.sqrt(2), math.sqrt(2)], atol=1e-12)
    assert c.in_span and c.holds == (S1 >= 1)
    assert c.relevant_residual < ATOL and c.irrelevant_residual < ATOL


def test_ood_norm_condition_is_enforced() -> None:
    base = in_domain_patterns()
    with pytest.raises(ValueError, match="norm"):
        ood_patterns(base, 0.5, 0.5)               # a^2 + b^2 = 0.5, not 0.82
    ood_patterns(base, 0.64, 0.64)                 # 0.8192: within NORM_RTOL
    assert abs(math.sqrt(0.18 + 0.8192) - 1) < NORM_RTOL


def test_conditions_detect_a_pattern_outside_the_span() -> None:
    base = in_domain_patterns(M1=2, M2=2)
    shifted = Patterns(base.irrelevant[:1], base.relevant[:1], base.q)     # roles swapped
    c = theorem34_conditions(base, shifted)
    assert not c.in_span and not c.holds


def test_coefficients_recover_the_construction() -> None:
    base = in_domain_patterns(M1=3, M2=1)
    k = np.array([[0.6, 0.8, 0.0]])
    c = theorem34_conditions(base, ood_patterns_from_coefficients(base, k))
    assert np.allclose(c.coefficients, k, atol=ATOL) and c.sums[0] == pytest.approx(1.4)
