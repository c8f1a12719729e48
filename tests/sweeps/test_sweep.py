"""sweep(): order, failures, measurements, resuming from the store, and faults on dask."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from seprank.sweeps.run import code_version, sweep
from seprank.sweeps.store import ResultStore
from tests.deadlines import HANG_GUARD_SECONDS
from tests.sweeps import sweep_tasks

MIB = 2**20
ALLOCATED_MIB = 200
ROOT = Path(__file__).resolve().parents[2]


def _executions(log_dir: Path) -> list[int]:
    return sorted(int(p.name.split("-")[0]) for p in log_dir.iterdir()
                  if not p.name.startswith("killed"))


def test_serial_sweep_keeps_the_order_and_lists_failures() -> None:
    params = [{"n": n, "bad": 2} for n in range(5)]
    result = sweep(sweep_tasks.square_or_raise, params, executor="serial", progress=False)
    assert result.values() == [0, 1, None, 9, 16]
    assert [dict(r.params) for r in result.failures] == [{"n": 2, "bad": 2}]
    failure = result.failures[0]
    assert failure.outcome.error == "ValueError: task 2 refuses"
    trace = failure.outcome.traceback
    assert trace is not None and "square_or_raise" in trace
    assert "1 failed" in result.summary()


@pytest.mark.parametrize("params,match", [
    ([{"n": 1}, {"n": 1}], "repeats #0"),
    ({"n": 1}, "not a single dict"),
    ([{"n": object()}], "JSON data"),
])
def test_bad_parameter_sets_are_refused(params: Any, match: str) -> None:
    with pytest.raises((TypeError, ValueError), match=match):
        sweep(sweep_tasks.square, params, executor="serial", progress=False)


def test_bad_executor_and_store_are_refused() -> None:
    with pytest.raises(TypeError, match="executor"):
        sweep(sweep_tasks.square, [{"n": 1}], executor=3.5, progress=False)
    with pytest.raises(TypeError, match="store"):
        sweep(sweep_tasks.square, [{"n": 1}], executor="serial", store=42,  # type: ignore[arg-type]
              progress=False)


def test_a_rerun_computes_only_what_is_missing(tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.mkdir()
    store = ResultStore(tmp_path / "s.sqlite")
    first = sweep(sweep_tasks.logged_square, [{"n": n, "log_dir": str(log)} for n in range(3)],
                  executor="serial", store=store, progress=False)
    assert first.n_computed == 3
    params = [{"n": n, "log_dir": str(log)} for n in range(5)]
    second = sweep(sweep_tasks.logged_square, params, executor="serial", store=store,
                   progress=False)
    assert (second.n_loaded, second.n_computed) == (3, 2)
    assert second.values() == [0, 1, 4, 9, 16]
    assert _executions(log) == [0, 1, 2, 3, 4]           # nothing ran twice
    third = sweep(sweep_tasks.logged_square, params, executor="serial", store=store,
                  progress=False, version="other code")
    assert third.n_computed == 5                          # another version is not reused


def test_code_version_tracks_the_package_source() -> None:
    v = code_version(sweep_tasks.square)
    assert v.startswith("tests-") and v == code_version(sweep_tasks.square_or_raise)

    def local(x: int) -> int:
        return x

    assert code_version(local).startswith("tests-")


def test_dask_sweep_matches_the_serial_one_and_measures_each_task(dask_client: Any) -> None:
    params = [{"n": n, "seed": n % 2} for n in range(8)]
    serial = sweep(sweep_tasks.square, params, executor="serial", progress=False)
    parallel = sweep(sweep_tasks.square, params, executor=dask_client, progress=False)
    assert parallel.values() == serial.values() == [{"square": n * n} for n in range(8)]
    pids = dask_client.run(sweep_tasks.worker_pid)
    for r in parallel:
        out = r.outcome
        assert r.source == "computed" and out.seconds is not None and out.seconds >= 0
        assert out.worker is not None and int(out.worker.rsplit(":", 1)[1]) in pids.values()
        assert out.peak_rss_bytes is not None and out.peak_rss_bytes > 10 * MIB


def test_peak_memory_is_the_tasks_own(dask_client: Any) -> None:
    """A task that touches 200 MiB shows a peak increase of about that; a small one does not."""
    result = sweep(sweep_tasks.allocate, [{"n_bytes": ALLOCATED_MIB * MIB}, {"n_bytes": 8}],
                   executor=dask_client, progress=False)
    big, small = (r.outcome for r in result.records)
    if big.memory_method != "vmhwm":
        pytest.skip("per-task peak memory needs Linux /proc/self/clear_refs")
    assert big.peak_increase_bytes is not None and small.peak_increase_bytes is not None
    assert 0.9 * ALLOCATED_MIB * MIB <= big.peak_increase_bytes <= 1.5 * ALLOCATED_MIB * MIB
    assert small.peak_increase_bytes < 0.25 * ALLOCATED_MIB * MIB


def test_a_raising_task_does_not_stop_the_others_on_dask(dask_client: Any) -> None:
    params = [{"n": n, "bad": 3} for n in range(8)]
    result = sweep(sweep_tasks.square_or_raise, params, executor=dask_client, progress=False)
    assert [r.params["n"] for r in result.failures] == [3]
    assert [v for v in result.values() if v is not None] == [n * n for n in range(8) if n != 3]


def test_a_killed_worker_does_not_lose_or_duplicate_results(dask_client: Any,
                                                          tmp_path: Path) -> None:
    """Task 4 kills its worker process on its first run; the nanny restarts the worker, the
    scheduler reruns the task; every result is stored exactly once."""
    log = tmp_path / "log"
    log.mkdir()
    store = ResultStore(tmp_path / "s.sqlite")
    params = [{"n": n, "victim": 4, "log_dir": str(log)} for n in range(10)]
    result = sweep(sweep_tasks.kill_worker_once, params, executor=dask_client, store=store,
                   progress=False)
    assert (log / "killed-4").exists()                    # the worker really died
    assert result.failures == () and result.values() == [n * n for n in range(10)]
    assert _executions(log).count(4) == 2                 # run again after the death
    assert sorted(r["n"] for r in store.records()) == list(range(10))   # stored exactly once
    dask_client.wait_for_workers(2, timeout=HANG_GUARD_SECONDS)  # the nanny's restart


def test_an_interrupted_client_resumes_from_the_store(dask_client: Any, tmp_path: Path) -> None:
    """A client process is interrupted (SIGINT) mid-sweep; a rerun computes only the rest."""
    log = tmp_path / "log"
    log.mkdir()
    db = tmp_path / "s.sqlite"
    n_tasks = 24
    script = textwrap.dedent(f"""
        from seprank.sweeps.run import sweep
        from tests.sweeps import sweep_tasks
        if __name__ == "__main__":
            sweep(sweep_tasks.logged_square,
                  [{{"n": n, "log_dir": {str(log)!r}, "delay": 0.25}} for n in range({n_tasks})],
                  executor={dask_client.scheduler.address!r}, store={str(db)!r},
                  progress=False)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    try:
        deadline = time.monotonic() + HANG_GUARD_SECONDS   # a hang guard, not a speed bound
        while time.monotonic() < deadline:
            if db.exists() and ResultStore(db).count() >= 4:
                break
            assert proc.poll() is None, "the sweep ended before it could be interrupted"
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=HANG_GUARD_SECONDS)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    before = {r["n"] for r in ResultStore(db).records()}
    assert 4 <= len(before) < n_tasks
    params = [{"n": n, "log_dir": str(log), "delay": 0.25} for n in range(n_tasks)]
    rerun = sweep(sweep_tasks.logged_square, params, executor=dask_client, store=db,
                  progress=False)
    assert rerun.n_loaded == len(before) and rerun.n_computed == n_tasks - len(before)
    assert {r.params["n"] for r in rerun if r.source == "computed"}.isdisjoint(before)
    assert rerun.values() == [n * n for n in range(n_tasks)]
    assert sorted(r["n"] for r in ResultStore(db).records()) == list(range(n_tasks))
