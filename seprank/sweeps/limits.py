r"""What stops a sweep's task, and what stops a sweep before it starts.

* **Per-task time limits** (``sweep(timeout=...)``).  Serially (:func:`run_serial`) the task
  runs in the main thread under ``SIGALRM`` (``signal.setitimer``): at the deadline a
  ``BaseException`` is raised inside it, so the task's own ``except Exception`` does not
  swallow it, and the task is recorded as failed (``TimeBudgetExceeded``).  Limits: POSIX and
  the main thread only; a task blocked inside one long C call is stopped when that call
  returns; a task that catches ``BaseException`` cannot be stopped.  An enclosing alarm (a
  test's) is restored and re-armed.  On dask (:func:`_clocked_run_task`, :func:`_stop_overrunning`)
  each worker notes when each task started; the client polls how long every task has been
  *running* (not queued), cancels a task past its limit, records it, and restarts that worker
  through its nanny -- a running thread cannot be stopped otherwise -- so the worker's other
  tasks are rerun elsewhere.
* **The ``__main__`` guard** (:func:`check_main_guard`).  An embedded ``LocalCluster`` starts
  its workers with the 'spawn' method, which imports the caller's ``__main__`` module: a
  script that calls ``sweep`` at import time would run it again in every worker, and dask only
  reports "Nanny failed to start".  The script's source is read and the running top-level
  statement must lie inside ``if __name__ == "__main__":``; a spawned worker re-running the
  script is refused at once.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from seprank.core.cluster import MAIN_GUARD_MESSAGE, check_main_guard
from seprank.core.validation import check_float
from seprank.extras import require
from seprank.sweeps.measure import TaskOutcome, run_task

__all__ = ["MAIN_GUARD_MESSAGE", "check_main_guard", "check_timeout", "run_serial",
           "timeout_outcome"]

class _TaskDeadline(BaseException):
    """Raised in a serial task by SIGALRM at its timeout (a BaseException, so the task's own
    ``except Exception`` does not swallow it)."""


def check_timeout(timeout: Any, executor: Any) -> float | None:
    """``timeout`` as seconds (None: no limit), refused where a serial sweep cannot enforce it.

    Parameters
    ----------
    timeout : float or None
        Seconds of wall time per task.
    executor : None, int, str or distributed.Client
        Where the sweep runs (the ``executor`` of :func:`~seprank.sweeps.sweep`).

    Returns
    -------
    float or None
        The timeout in seconds.

    Examples
    --------
    >>> check_timeout(2, "serial"), check_timeout(None, 2)
    (2.0, None)
    >>> check_timeout(0, "serial")
    Traceback (most recent call last):
    ...
    ValueError: timeout must be a positive finite number (seconds of wall time per task, ...
    """
    if timeout is None:
        return None
    value = check_float("timeout", timeout, positive=True,
                        hint=" (seconds of wall time per task, or None)")
    if executor == "serial" and (not hasattr(signal, "setitimer")
                                 or threading.current_thread() is not threading.main_thread()):
        raise ValueError("timeout= with executor='serial' stops a task with SIGALRM, which needs "
                         "the main thread of a POSIX process; call sweep() from the main thread "
                         "or use a dask executor")
    return value


def timeout_outcome(timeout: float, seconds: float | None = None) -> TaskOutcome:
    """The failure recorded for a task stopped at its ``timeout``.

    Parameters
    ----------
    timeout : float
        The timeout, in seconds.
    seconds : float, optional
        The time measured.

    Returns
    -------
    TaskOutcome
        The failure.

    Examples
    --------
    >>> timeout_outcome(2.0).error
    'TimeBudgetExceeded: the task ran longer than its timeout of 2 s and was stopped'
    """
    return TaskOutcome("error", error=f"TimeBudgetExceeded: the task ran longer than its "
                                      f"timeout of {timeout:g} s and was stopped",
                       seconds=seconds)


def run_serial(fn: Callable[..., Any], params: Mapping[str, Any],
                timeout: float | None) -> TaskOutcome:
    """:func:`run_task` in this process, stopped by SIGALRM after ``timeout`` seconds (an
    enclosing alarm, e.g. a test's, is re-armed afterwards).

    Parameters
    ----------
    fn : callable
        The task function.
    params : Mapping
        Its keyword arguments.
    timeout : float or None
        Seconds before it is stopped.

    Returns
    -------
    TaskOutcome
        The value or the error, with the measurements.

    Examples
    --------
    >>> import time
    >>> run_serial(pow, {"base": 2, "exp": 10}, 1.0).value
    1024
    >>> def nap(seconds):
    ...     time.sleep(seconds)
    >>> run_serial(nap, {"seconds": 5}, 0.2).error
    'TimeBudgetExceeded: the task ran longer than its timeout of 0.2 s and was stopped'
    """
    if timeout is None:
        return run_task(fn, params)
    state = {"armed": True}

    def alarm(signum: int, frame: Any) -> None:
        if state["armed"]:
            state["armed"] = False          # one stop per task, even from a late signal
            raise _TaskDeadline(f"the task ran longer than its timeout of {timeout:g} s")

    start = time.perf_counter()
    old_handler = signal.signal(signal.SIGALRM, alarm)
    old_delay = 0.0
    try:   # armed inside the try: a timeout that fires at once is this task's stop too
        old_delay, _ = signal.setitimer(signal.ITIMER_REAL, timeout)
        return run_task(fn, params)
    except _TaskDeadline:
        return timeout_outcome(timeout, time.perf_counter() - start)
    finally:
        state["armed"] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if old_delay:
            left = old_delay - (time.perf_counter() - start)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))


#: Start times (``time.monotonic``) of the tasks running in this worker process, by task key.
_STARTED: dict[str, float] = {}


def _clocked_run_task(fn: Callable[..., Any], params: Mapping[str, Any]) -> TaskOutcome:
    """:func:`run_task` on a dask worker, leaving its start time where the client can read it
    (:func:`_running_for`)."""
    get_worker = require("distributed", feature="a sweep on dask workers").get_worker

    key = str(get_worker().get_current_task())
    _STARTED[key] = time.monotonic()
    try:
        return run_task(fn, params)
    finally:
        _STARTED.pop(key, None)


def _running_for() -> dict[str, float]:
    """Seconds each task of this worker has been running (``client.run`` target)."""
    now = time.monotonic()
    return {key: now - start for key, start in list(_STARTED.items())}


def _stop_overrunning(client: Any, by_key: Mapping[str, Any], pending: set[Any],
                      timeout: float, record: Callable[[Any], None]) -> None:
    """Cancel the pending tasks that have run longer than ``timeout`` on their worker, record
    them, and restart those workers (a running thread cannot be stopped otherwise)."""
    try:
        running = client.run(_running_for, on_error="ignore")
    except Exception:  # pragma: no cover - a worker went away between polls
        return
    restart = []
    for address, tasks in running.items():
        for key, seconds in tasks.items():
            future = by_key.get(key)
            if future is not None and future in pending and seconds > timeout:
                client.cancel([future])
                pending.discard(future)
                record(future)
                restart.append(address)
    if restart:
        try:
            client.restart_workers(sorted(set(restart)), raise_for_error=False)
        except Exception as exc:  # pragma: no cover - no nanny (an external cluster)
            logging.getLogger(__name__).warning(
                "could not restart workers %s after a task timeout (%s); the stopped task's "
                "thread may still be running", restart, exc)
