"""Shared pytest configuration: the quick/full profile switch and the doctest namespace."""

from __future__ import annotations

import os

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
os.environ.setdefault("MPLBACKEND", "Agg")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--profile",
        action="store",
        default="quick",
        choices=("quick", "full"),
        help="quick (default): skip tests marked slow and full-profile paper claims; "
        "full: run everything",
    )


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
