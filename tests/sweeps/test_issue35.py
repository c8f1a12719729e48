"""Issue 35 for sweeps: names, versions and priorities are validated where they enter, a tiny
timeout is the task's own recorded stop (never a private exception), scheduler ports are named."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from seprank.sweeps import ResultStore, sweep
from seprank.sweeps.store import TaskKey


def square(n: int) -> int:
    return n * n


def _run(**kwargs: Any) -> Any:
    kwargs.setdefault("executor", "serial")
    kwargs.setdefault("version", "v1")
    return sweep(square, [{"n": 1}, {"n": 2}, {"n": 3}], progress=False, **kwargs)


@pytest.mark.parametrize(("field", "value", "error"), [
    ("version", 3, TypeError), ("version", "", ValueError), ("name", "", ValueError),
    ("name", 7, TypeError), ("version", "  ", ValueError)])
def test_names_and_versions_are_non_empty_strings(field: str, value: Any,
                                                  error: type[Exception]) -> None:
    with pytest.raises(error, match=field):
        _run(**{field: value})


def test_task_key_refuses_a_missing_version() -> None:
    with pytest.raises(TypeError, match="version"):
        TaskKey.of("f", {"n": 1}, version=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="fn"):
        TaskKey.of("", {"n": 1}, version="v1")
    assert TaskKey.of("f", {"n": 1}, version="v1").version == "v1"


@pytest.mark.parametrize("bad", [math.nan, math.inf, "high", None])
def test_a_priority_must_be_a_finite_number(bad: Any) -> None:
    with pytest.raises(ValueError, match="finite number"):
        _run(priority=lambda p: bad if p["n"] == 2 else 1.0)


def test_priority_orders_the_serial_run() -> None:
    order: list[int] = []

    def record(n: int) -> int:
        order.append(n)
        return n

    sweep(record, [{"n": n} for n in (1, 2, 3)], executor="serial", progress=False,
          version="v1", priority=lambda p: p["n"])
    assert order == [3, 2, 1]


def test_a_tiny_timeout_is_recorded_as_the_tasks_timeout() -> None:
    store = ResultStore(":memory:")
    for _ in range(20):              # the alarm may fire before the task starts: never raised
        result = _run(timeout=1e-5, store=store, retry_failed=True)
        for record in result.records:
            assert record.status in ("ok", "error")
            if record.status == "error":
                assert "TimeBudgetExceeded" in (record.outcome.error or "")


@pytest.mark.parametrize("address", ["10.0.0.5:99999", "tcp://10.0.0.5:0"])
def test_a_scheduler_port_out_of_range_is_named_before_connecting(address: str) -> None:
    with pytest.raises(ValueError, match="is not a TCP port"):
        _run(executor=address)


def test_executor_array_is_refused() -> None:
    with pytest.raises(TypeError, match="executor"):
        _run(executor=np.array("serial"))
