"""sweep() at its limits (issue 24): a per-task timeout, serially and on dask, and the clear
refusal of a script that would start a LocalCluster without the ``__main__`` guard."""

from __future__ import annotations

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
from tests.sweeps import sweep_tasks

ROOT = Path(__file__).resolve().parents[2]
#: The timeout of the overrunning tasks, and how long they would otherwise run.
TIMEOUT = 0.5
OVERRUN = 30.0
#: On dask the overrunning task sleeps longer: cluster start-up and a worker restart on a
#: loaded 2-core machine took up to 2 minutes, and the claim is only "the sweep did not wait".
DASK_OVERRUN = 600.0


@pytest.mark.parametrize("task", [sweep_tasks.sleep_for, sweep_tasks.spin_for,
                                  sweep_tasks.swallow_everything])
def test_a_serial_task_past_its_timeout_is_stopped_and_recorded(task: Any) -> None:
    params = [{"n": 1, "seconds": 0.0}, {"n": 2, "seconds": OVERRUN}, {"n": 3, "seconds": 0.0}]
    start = time.perf_counter()
    result = sweep(task, params, executor="serial", progress=False, timeout=TIMEOUT)
    assert time.perf_counter() - start < OVERRUN / 3
    assert [r.status for r in result] == ["ok", "error", "ok"]
    error = result.failures[0].outcome.error
    assert error is not None and error.startswith("TimeBudgetExceeded") and "0.5 s" in error
    seconds = result.failures[0].outcome.seconds
    assert seconds is not None and TIMEOUT <= seconds < OVERRUN / 3


def test_an_enclosing_alarm_survives_a_serial_timeout() -> None:
    fired = []
    old = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    try:
        sweep(sweep_tasks.sleep_for, [{"n": 1, "seconds": 0.0}], executor="serial",
              progress=False, timeout=2.0)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 3.0 < left <= 5.0 and not fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), "10", True])
def test_a_bad_timeout_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ValueError, match="timeout must be"):
        sweep(sweep_tasks.square, [{"n": 1}], executor="serial", progress=False,
              timeout=bad)  # type: ignore[arg-type]


def test_a_dask_task_past_its_timeout_is_cancelled_and_its_worker_restarted(
        dask_client: Any) -> None:
    params = [{"n": n, "seconds": DASK_OVERRUN if n == 1 else 0.05} for n in range(4)]
    start = time.perf_counter()
    result = sweep(sweep_tasks.sleep_for, params, executor=dask_client, progress=False,
                   timeout=2.0)
    assert time.perf_counter() - start < DASK_OVERRUN / 2
    assert [r.status for r in result] == ["ok", "error", "ok", "ok"]
    assert result.values() == [0, None, 4, 9]
    error = result.failures[0].outcome.error
    assert error is not None and error.startswith("TimeBudgetExceeded")
    dask_client.wait_for_workers(2, timeout=300)  # the restarted worker is back (slow when loaded)


def _script(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from seprank.sweeps.run import sweep
        from tests.sweeps.sweep_tasks import square
    """) + textwrap.dedent(body))
    return subprocess.run([sys.executable, str(path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=False)


def test_a_script_without_the_main_guard_is_refused_before_any_worker_starts(
        tmp_path: Path) -> None:
    start = time.perf_counter()
    proc = _script(tmp_path, """
        result = sweep(square, [{"n": 2}], executor=1, progress=False, version="x")
        print(result.values())
    """)
    assert proc.returncode != 0
    assert "RuntimeError" in proc.stderr and 'if __name__ == "__main__":' in proc.stderr
    assert MAIN_GUARD_MESSAGE.split(":")[0] in proc.stderr
    assert "nanny.py" not in proc.stderr and "spawn.py" not in proc.stderr  # no worker ran
    assert time.perf_counter() - start < 60


def test_a_function_called_from_the_guard_passes_the_check(tmp_path: Path) -> None:
    proc = _script(tmp_path, """
        def main():
            return sweep(square, [{"n": 2}], executor=1, progress=False, version="x")

        if __name__ == "__main__":
            print(main().values())
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "[{'square': 4}]" in proc.stdout
