r"""Run one task of a sweep and measure it: wall and CPU time, peak memory, the error if any.

:func:`run_task` is what a sweep sends to a worker: it calls ``fn(**params)`` and never lets an
``Exception`` escape -- a task that raises comes back as a :class:`TaskOutcome` with
``status='error'``, the exception and its traceback, so that one failing parameter set cannot
stop a sweep.  (``KeyboardInterrupt`` and ``SystemExit`` are not caught.)

Peak memory.  On Linux the process's peak resident set size (``VmHWM``) is reset before the
task (``/proc/self/clear_refs``) and read after it, so ``peak_rss_bytes`` is the largest RSS of
the process *during this task* -- native allocations (numpy, flint) included -- and
``peak_increase_bytes`` that peak minus the RSS at the start (what the task itself needed).
This is ``memory_method='vmhwm'``.  Where the reset is not available the lifetime peak of the
process is reported instead (``'process_peak'``, an upper bound on the task's).  The reset is
per process: with several tasks running at once in one process (threads) the peaks mix, which
is why sweeps run one task per worker process.

Examples
--------
>>> out = run_task(pow, {"base": 7, "exp": 2})
>>> out.status, out.value, out.seconds >= 0
('ok', 49, True)
>>> bad = run_task(pow, {"base": 0.0, "exp": -1})
>>> bad.status, bad.error
('error', 'ZeroDivisionError: 0.0 cannot be raised to a negative power')
"""

from __future__ import annotations

import os
import resource
import socket
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["MemoryMethod", "TaskOutcome", "peak_memory_reset", "run_task"]

MemoryMethod = Literal["vmhwm", "process_peak"]
_STATUS = "/proc/self/status"
_CLEAR_REFS = "/proc/self/clear_refs"


@dataclass(frozen=True)
class TaskOutcome:
    """What running one task gave, and what it cost.

    Attributes
    ----------
    status : {'ok', 'error'}
    value : Any
        ``fn(**params)`` (None on error).
    error : str or None
        ``"ExceptionType: message"`` on error.
    traceback : str or None
        The formatted traceback on error.
    seconds, cpu_seconds : float
        Wall time and CPU time (user + system of the process) of the call.  CPU / wall well
        below 1 for a CPU-bound task means the machine was busy with something else.
    peak_rss_bytes, peak_increase_bytes : int or None
        Peak resident memory during the task, and its increase over the start (see the
        module notes and ``memory_method``).
    memory_method : {'vmhwm', 'process_peak'}
    worker : str
        ``host:pid`` of the process that ran it.
    """

    status: Literal["ok", "error"]
    value: Any
    error: str | None
    traceback: str | None
    seconds: float
    cpu_seconds: float
    peak_rss_bytes: int | None
    peak_increase_bytes: int | None
    memory_method: MemoryMethod
    worker: str


def _status_kib(field: str) -> int | None:
    try:
        with open(_STATUS, encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def peak_memory_reset() -> bool:
    """Reset this process's peak-RSS counter (Linux); returns whether it could.

    Examples
    --------
    >>> peak_memory_reset() in (True, False)     # False where /proc/self/clear_refs is closed
    True
    """
    try:
        with open(_CLEAR_REFS, "w", encoding="ascii") as fh:
            fh.write("5")
    except OSError:
        return False
    return _status_kib("VmHWM") is not None


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_task(fn: Callable[..., Any], params: Mapping[str, Any]) -> TaskOutcome:
    """Call ``fn(**params)``, catching any ``Exception``; time it and measure its memory.

    Parameters
    ----------
    fn : callable
        The task function.
    params : Mapping
        Its keyword arguments.

    Returns
    -------
    TaskOutcome

    Examples
    --------
    >>> def ratio(a, b):
    ...     return a / b
    >>> ok = run_task(ratio, {"a": 3, "b": 4})
    >>> ok.status, ok.value, ok.cpu_seconds >= 0
    ('ok', 0.75, True)
    >>> bad = run_task(ratio, {"a": 3, "b": 0})
    >>> bad.status, bad.error, "ZeroDivisionError" in bad.traceback
    ('error', 'ZeroDivisionError: division by zero', True)
    """
    resettable = peak_memory_reset()
    rss_start = _status_kib("VmRSS") if resettable else None
    cpu_start, start = _cpu_seconds(), time.perf_counter()
    value, error, trace = None, None, None
    try:
        value = fn(**params)
        status: Literal["ok", "error"] = "ok"
    except Exception as exc:  # a failing task is reported, never allowed to stop the sweep
        status = "error"
        error = f"{type(exc).__name__}: {exc}"
        trace = traceback.format_exc()
    seconds = time.perf_counter() - start
    cpu = _cpu_seconds() - cpu_start
    if resettable:
        peak_kib = _status_kib("VmHWM")
        method: MemoryMethod = "vmhwm"
    else:
        peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
        method = "process_peak"
    peak = None if peak_kib is None else peak_kib * 1024
    increase = (None if peak_kib is None or rss_start is None
                else max(0, peak_kib - rss_start) * 1024)
    return TaskOutcome(status, value, error, trace, seconds, cpu, peak, increase, method,
                       f"{socket.gethostname()}:{os.getpid()}")
