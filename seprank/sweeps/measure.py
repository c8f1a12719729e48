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
from dataclasses import dataclass, fields
from typing import Any, Literal

__all__ = ["MemoryMethod", "Status", "TaskOutcome", "peak_memory_reset", "run_task"]

MemoryMethod = Literal["vmhwm", "process_peak"]
Status = Literal["ok", "error"]
_STATUS = "/proc/self/status"
_CLEAR_REFS = "/proc/self/clear_refs"


@dataclass(frozen=True)
class TaskOutcome:
    """What running one task gave, and what it cost: the one record of a run.

    A sweep's :class:`~seprank.sweeps.run.SweepRecord`, a stored row
    (:class:`~seprank.sweeps.store.StoredResult`) and a claim's outcome
    (:class:`paper_checks.runner.ClaimOutcome`) each hold one of these instead of copying its
    fields.  Only ``status`` is required: a row written by hand, or a task that never came back,
    has no measurements (None).

    Attributes
    ----------
    status : {'ok', 'error'}
    value : Any
        ``fn(**params)`` (None on error).
    error : str or None
        ``"ExceptionType: message"`` on error.
    traceback : str or None
        The formatted traceback on error (None when the task never came back).
    seconds, cpu_seconds : float or None
        Wall time and CPU time (user + system of the process) of the call.  CPU / wall well
        below 1 for a CPU-bound task means the machine was busy with something else.
    peak_rss_bytes, peak_increase_bytes : int or None
        Peak resident memory during the task, and its increase over the start (see the
        module notes and ``memory_method``).
    memory_method : {'vmhwm', 'process_peak'} or None
    worker : str or None
        ``host:pid`` of the process that ran it.

    Examples
    --------
    >>> TaskOutcome("ok", 49).measurements()["value"]
    49
    >>> TaskOutcome("done")
    Traceback (most recent call last):
    ...
    ValueError: status must be 'ok' or 'error', got 'done'
    """

    status: Status
    value: Any = None
    error: str | None = None
    traceback: str | None = None
    seconds: float | None = None
    cpu_seconds: float | None = None
    peak_rss_bytes: int | None = None
    peak_increase_bytes: int | None = None
    memory_method: MemoryMethod | None = None
    worker: str | None = None

    def __post_init__(self) -> None:
        if self.status not in ("ok", "error"):
            raise ValueError(f"status must be 'ok' or 'error', got {self.status!r}")

    @property
    def ok(self) -> bool:
        """The task returned (``status == 'ok'``)."""
        return self.status == "ok"

    @classmethod
    def lost(cls, exc: BaseException) -> TaskOutcome:
        """The outcome of a task that did not come back (its worker kept dying, or its result
        was lost): the error, no traceback and no measurements.

        Parameters
        ----------
        exc : BaseException
            Why the task did not come back.

        Returns
        -------
        TaskOutcome
            The failure.

        Examples
        --------
        >>> TaskOutcome.lost(RuntimeError("worker died")).error
        'RuntimeError: worker died'
        """
        return cls("error", error=_describe(exc))

    def measurements(self) -> dict[str, Any]:
        """Every field but the traceback, flat and in order (the columns of the sweep and store
        tables: status, value, error, then the timings, the memory and the worker).

        Returns
        -------
        dict
            The fields, flat and in order.
        """
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "traceback"}


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


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

    Returns
    -------
    bool
        Whether the counter was reset.

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
    status: Status = "ok"
    try:
        value = fn(**params)
    except Exception as exc:  # a failing task is reported, never allowed to stop the sweep
        status, error, trace = "error", _describe(exc), traceback.format_exc()
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
