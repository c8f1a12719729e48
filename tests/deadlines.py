"""Time limits in tests that hold on a loaded machine.

The suite must pass beside other work (a load of 6 to 15 on 2 cores): wall time there is
several times what it is on a quiet machine, so no test asserts a wall-clock duration or waits
for one that a slow but correct run could miss.  What a test may bound instead:

* **work** -- the CPU seconds of this process (:func:`cpu_deadline`, :func:`cpu_seconds`) or of
  a child process (:func:`child_cpu_seconds`, or ``RLIMIT_CPU`` in the child).  A load takes
  the CPU from a process, it does not make its work larger: a bound on CPU time says "this did
  not compute for long" on any machine;
* **an event** -- a worker registered, a file written, a process gone -- waited for with
  :data:`HANG_GUARD_SECONDS` only as a guard against waiting for ever.

Every wall-clock limit left is such a hang guard: :data:`HANG_GUARD_SECONDS`, or
:data:`WALL_PER_CPU_SECOND` times a CPU budget (a call blocked without computing -- on a lock, a
FIFO -- uses no CPU, so only a wall clock can stop it).
"""

from __future__ import annotations

import resource
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["HANG_GUARD_SECONDS", "WALL_PER_CPU_SECOND", "Overran", "child_cpu_seconds",
           "cpu_deadline", "cpu_seconds"]

#: The wall time after which a wait for an event counts as hung: far above any load the suite
#: meets (a worker restart took 37 s at a load of 15 on 2 cores), never a speed requirement.
HANG_GUARD_SECONDS = 900.0
#: A CPU budget's wall-clock backstop, per CPU second: a load of 60 on 2 cores.
WALL_PER_CPU_SECOND = 30.0


class Overran(BaseException):
    """Raised by :func:`cpu_deadline` (a BaseException: no library ``except Exception`` of the
    code under test can swallow it)."""


def cpu_seconds() -> float:
    """CPU seconds (user + system) this process has used, all its threads."""
    return time.process_time()


def child_cpu_seconds() -> float:
    """CPU seconds used by this process's children that have been waited for (a
    ``subprocess.run`` adds its child's)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@contextmanager
def cpu_deadline(seconds: float, *, backstop: float | None = None) -> Iterator[None]:
    """Raise :class:`Overran` in the block once this process has used ``seconds`` of CPU time
    (``ITIMER_PROF``: the same limit on a quiet and on a loaded machine), or has been blocked
    for ``backstop`` seconds of wall time (default :data:`WALL_PER_CPU_SECOND` x ``seconds``).

    An enclosing wall-clock alarm (``ITIMER_REAL``) is restored afterwards with the time it has
    left; main thread of a POSIX process only.
    """
    wall = WALL_PER_CPU_SECOND * seconds if backstop is None else backstop

    def over_cpu(signum: int, frame: Any) -> None:
        raise Overran(f"used more than {seconds:g} s of CPU time")

    def over_wall(signum: int, frame: Any) -> None:
        raise Overran(f"still running after {wall:g} s of wall time (blocked?)")

    start = time.monotonic()
    old_prof = signal.signal(signal.SIGPROF, over_cpu)
    old_alarm = signal.signal(signal.SIGALRM, over_wall)
    old_delay, _ = signal.setitimer(signal.ITIMER_REAL, wall)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, old_prof)
        signal.signal(signal.SIGALRM, old_alarm)
        if old_delay:
            left = old_delay - (time.monotonic() - start)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
