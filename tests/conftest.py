"""Fixtures shared by the test packages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from seprank.core import Domain, ExactDomain, FloatDomain, ModularDomain

#: A 25-bit prime (2**24 + 43), the size the toolkit evaluates networks in.
TEST_PRIME = 16777259


@pytest.fixture(params=["svd", "modular", "exact"])
def domain(request: pytest.FixtureRequest) -> Domain:
    """Every number domain in turn: the 'one code path' promise is tested once per domain."""
    return {"svd": FloatDomain(), "modular": ModularDomain(TEST_PRIME),
            "exact": ExactDomain()}[request.param]


@pytest.fixture(scope="session")
def dask_client():  # type: ignore[no-untyped-def]
    """One local dask cluster (2 single-threaded worker processes) for every test that needs
    one: starting a cluster costs seconds, so the tests share it.  It is the toolkit's own
    embedded cluster (:func:`seprank.core.cluster.local_cluster`), whose nannies' restarts
    are waited for however loaded the machine is (dask's default gave up after 15 s and lost
    the restarted worker for the rest of the session)."""
    distributed = pytest.importorskip("distributed")
    from seprank.core.cluster import local_cluster

    with local_cluster(2) as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(autouse=True)
def _global_numeric_state_is_restored() -> Iterator[None]:
    """A test (or a claim it runs) that changes mpmath's process-wide precision leaks it into
    every later computation (a claim once set ``mp.dps = 40``; later claims' last digits
    depended on the test order). Fail the test that does it."""
    import mpmath

    before = mpmath.mp.prec
    yield
    after = mpmath.mp.prec
    mpmath.mp.prec = before
    assert after == before, f"mpmath.mp.prec changed from {before} to {after}; use workdps()"
