"""sweep() at its limits (issue 24): a per-task timeout, serially and on dask, and the clear
refusal of a script that would start a LocalCluster without the ``__main__`` guard."""

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

from seprank.sweeps.limits import MAIN_GUARD_MESSAGE
from seprank.sweeps.run import sweep
from tests.deadlines import HANG_GUARD_SECONDS
from tests.sweeps import sweep_tasks

ROOT = Path(__file__).resolve().parents[2]
#: The timeout of the overrunning tasks, and how long they would otherwise run: a sweep or a
#: task that took OVERRUN seconds of wall time ran the task to its end (a logical bound, not a
#: speed one: the stop comes at TIMEOUT, 60 times earlier).
TIMEOUT = 0.5
OVERRUN = 30.0
#: On dask the overrunning task would sleep this long; the test proves it was stopped by what
#: it left behind (it started, never finished, its process is gone), not by the clock.
DASK_OVERRUN = 600.0


@pytest.mark.parametrize("task", [sweep_tasks.sleep_for, sweep_tasks.spin_for,
                                  sweep_tasks.swallow_everything])
def test_a_serial_task_past_its_timeout_is_stopped_and_recorded(task: Any) -> None:
    params = [{"n": 1, "seconds": 0.0}, {"n": 2, "seconds": OVERRUN}, {"n": 3, "seconds": 0.0}]
    start = time.perf_counter()
    result = sweep(task, params, executor="serial", progress=False, timeout=TIMEOUT)
    assert time.perf_counter() - start < OVERRUN   # the task did not run to its end
    assert [r.status for r in result] == ["ok", "error", "ok"]
    error = result.failures[0].outcome.error
    assert error is not None and error.startswith("TimeBudgetExceeded") and "0.5 s" in error
    seconds = result.failures[0].outcome.seconds
    assert seconds is not None and TIMEOUT <= seconds < OVERRUN


def test_an_enclosing_alarm_survives_a_serial_timeout() -> None:
    """The enclosing alarm is re-armed with the time it has left (measured here, so the check
    holds however long the sweep takes on a loaded machine)."""
    fired = []
    enclosing = HANG_GUARD_SECONDS
    old = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    start = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, enclosing)
    try:
        sweep(sweep_tasks.sleep_for, [{"n": 1, "seconds": 0.0}], executor="serial",
              progress=False, timeout=2.0)
        before = time.monotonic() - start
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        after = time.monotonic() - start
        # re-armed with what it had left: enclosing minus the time elapsed when it was read
        assert not fired and enclosing - after - 0.05 <= left <= enclosing - before + 0.05
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), "10", True])
def test_a_bad_timeout_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ValueError, match="timeout must be"):
        sweep(sweep_tasks.square, [{"n": 1}], executor="serial", progress=False,
              timeout=bad)  # type: ignore[arg-type]


def _workers(client: Any, n: int) -> dict[str, tuple[str, int]]:
    """Each worker's address -> (its nanny's address, its process id), once the scheduler
    itself lists ``n`` running workers (waited for, with a hang guard only)."""
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while True:
        info = {address: w for address, w in client.scheduler_info(n_workers=-1)["workers"].items()
                if w["status"] == "running"}
        if len(info) == n:
            break
        assert time.monotonic() < deadline, f"{len(info)} of {n} workers after the hang guard"
        time.sleep(0.2)
    pids = client.run(os.getpid, workers=list(info))
    return {address: (w["nanny"], pids[address]) for address, w in info.items()}


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (killed, not yet reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    except OSError:  # pragma: no cover - no /proc
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state not in ("Z", "X")


def test_a_dask_task_past_its_timeout_is_cancelled_and_its_worker_restarted(
        dask_client: Any, tmp_path: Path) -> None:
    """The overrunning task is recorded as TimeBudgetExceeded, the others succeed; it was
    stopped midway (it started and never finished, and the process running it is gone, so
    the sweep did not wait for it); its worker was restarted (the scheduler's restart event
    names it, and its nanny runs a new process).  Nothing here depends on the clock: waits are
    for events, with a hang guard only."""
    before = _workers(dask_client, 2)
    params = [{"n": n, "seconds": DASK_OVERRUN if n == 1 else 0.05, "log_dir": str(tmp_path)}
              for n in range(4)]
    result = sweep(sweep_tasks.sleep_and_log, params, executor=dask_client, progress=False,
                   timeout=2.0)
    assert [r.status for r in result] == ["ok", "error", "ok", "ok"]
    assert result.values() == [0, None, 4, 9]
    error = result.failures[0].outcome.error
    assert error is not None and error.startswith("TimeBudgetExceeded")
    # stopped midway: it started, never finished, and the process that ran it is gone
    victim = int((tmp_path / "started-1").read_text())
    assert not (tmp_path / "finished-1").exists()
    assert not _running(victim)
    (address, (nanny, _)), = ((a, w) for a, w in before.items() if w[1] == victim)
    # restarted through its nanny: the scheduler's event, then a new process under that nanny
    restarts = [event for _, event in dask_client.get_events("all")
                if isinstance(event, dict) and event.get("action") == "restart-workers"]
    assert any(address in event["workers"] for event in restarts), restarts
    after = _workers(dask_client, 2)
    assert sorted(n for n, _ in after.values()) == sorted(n for n, _ in before.values())
    assert [pid for n, pid in after.values() if n == nanny] != [victim]


def test_a_worker_slow_to_restart_is_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker restarted by its nanny that takes 20 s to start (as on a loaded machine, where
    a fresh interpreter importing dask took 31-37 s) comes back, under the same nanny: dask's
    default (``lost-worker-timeout``, 15 s) closed that nanny for good."""
    import dask
    from distributed import Client

    from seprank.core.cluster import local_cluster
    from tests.sweeps.slow_start import ENV

    with dask.config.set({"distributed.worker.preload": ["tests.sweeps.slow_start"]}), \
            local_cluster(1) as cluster, Client(cluster) as client:
        before = _workers(client, 1)
        monkeypatch.setenv(ENV, "20")           # read by the restarted worker only
        client.restart_workers(list(before), timeout=HANG_GUARD_SECONDS)
        monkeypatch.delenv(ENV)
        assert len(cluster.workers) == 1        # its nanny was kept
        after = _workers(client, 1)
    assert [n for n, _ in after.values()] == [n for n, _ in before.values()]
    assert [p for _, p in after.values()] != [p for _, p in before.values()]


def _script(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from seprank.sweeps.run import sweep
        from tests.sweeps.sweep_tasks import square
    """) + textwrap.dedent(body))
    return subprocess.run([sys.executable, str(path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=HANG_GUARD_SECONDS, check=False)


def test_a_script_without_the_main_guard_is_refused_before_any_worker_starts(
        tmp_path: Path) -> None:
    proc = _script(tmp_path, """
        result = sweep(square, [{"n": 2}], executor=1, progress=False, version="x")
        print(result.values())
    """)
    assert proc.returncode != 0
    assert "RuntimeError" in proc.stderr and 'if __name__ == "__main__":' in proc.stderr
    assert MAIN_GUARD_MESSAGE.split(":")[0] in proc.stderr
    assert "nanny.py" not in proc.stderr and "spawn.py" not in proc.stderr  # no worker ran
    # refused by the guard check before a cluster was built (no frame of dask's deploy code),
    # which the old wall-clock bound (60 s) only suggested
    assert "in check_main_guard" in proc.stderr and "deploy" not in proc.stderr


def test_a_function_called_from_the_guard_passes_the_check(tmp_path: Path) -> None:
    proc = _script(tmp_path, """
        def main():
            return sweep(square, [{"n": 2}], executor=1, progress=False, version="x")

        if __name__ == "__main__":
            print(main().values())
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "[{'square': 4}]" in proc.stdout
