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
    one: starting a cluster costs seconds, so the tests share it."""
    distributed = pytest.importorskip("distributed")
    import logging

    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=":0",
                                       silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


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
