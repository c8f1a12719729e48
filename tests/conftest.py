"""Fixtures shared by the test packages."""

from __future__ import annotations

import pytest

from seprank.core import Domain, ExactDomain, FloatDomain, ModularDomain

#: A 25-bit prime (2**24 + 43), the size the toolkit evaluates networks in.
TEST_PRIME = 16777259


@pytest.fixture(params=["svd", "modular", "exact"])
def domain(request: pytest.FixtureRequest) -> Domain:
    """Every number domain in turn: the 'one code path' promise is tested once per domain."""
    return {"svd": FloatDomain(), "modular": ModularDomain(TEST_PRIME),
            "exact": ExactDomain()}[request.param]
