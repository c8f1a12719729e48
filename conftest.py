"""Shared pytest configuration: the quick/full profile switch (the option is the paper_checks
plugin's) and the doctest namespace."""

from __future__ import annotations

import os

import matplotlib
import numpy as np
import pytest
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")
os.environ.setdefault("MPLBACKEND", "Agg")

# Hypothesis times every example against a wall-clock deadline (200 ms) and fails a test whose
# data generation is "too slow" (also wall clock): on a loaded machine both fail correct
# properties.  The suite bounds work, not wall time (tests/deadlines.py); loaded here, before
# the test modules are imported, so that their own @settings(...) inherit it.
settings.register_profile("suite", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


# ``--profile quick|full`` is the option of the paper_checks pytest plugin (entry point pytest11;
# listed here too so that a checkout whose installed metadata predates the entry point still
# has it -- pytest skips a plugin already loaded under this name).  This project adds: quick
# also skips the tests marked slow.
pytest_plugins = ["paper_checks.pytest_plugin"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--profile") == "full":
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --profile full")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict[str, object]) -> None:
    doctest_namespace["np"] = np
