"""Run the build's long steps -- the paper checks, the notebook executions -- as child processes,
several at a time, with their progress in the build log.

A from-scratch build spends most of its time in two independent computations: ``paper-checks``
(one process) and the notebooks (one kernel each).  :func:`run_jobs` runs them side by side,
``workers`` child processes at a time (the machine's cores by default), and prints a line every
:data:`PROGRESS_EVERY` seconds naming each running step with the last progress line it wrote
(a bar, ``cell 7/15``) -- also while a step writes nothing, so the log never falls silent.
A step that fails is reported with the end of its error output once the others have finished.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO

#: Seconds between two progress lines in the build log.
PROGRESS_EVERY = 10.0
#: A Jupyter kernel's own log line (``[IPKernelApp] WARNING | Kernel is running over TCP ...``):
#: kept in the step's error output, not shown as its progress.
_KERNEL_LOG = re.compile(r"\[\w+\] [A-Z]+ \| ")
#: At most this many child processes at a time, whatever the machine (memory: a kernel each).
MAX_WORKERS = 4


def default_workers() -> int:
    """The cores this process may use (its CPU affinity), at most :data:`MAX_WORKERS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))


@dataclass
class Job:
    """One long step: a command, and what to do with its exit code and output tail."""

    label: str
    cmd: list[str]
    #: Called in the main thread once the step has finished: ``(exit code, stderr tail)`` ->
    #: ``None`` when it succeeded, else the message to fail the build with.
    check: Callable[[int, str], str | None]
    status: str = ""
    tail: str = ""
    started: float = 0.0
    seconds: float = 0.0
    _process: subprocess.Popen[str] | None = field(default=None, repr=False)
    _reader: threading.Thread | None = field(default=None, repr=False)

    def _read(self, stream: IO[str]) -> None:
        """Keep the last complete progress line (tqdm ends its updates with ``\\r``; a
        kernel's log lines are not progress) and the last 8000 characters of the step's error
        output."""
        for chunk in iter(lambda: stream.read(256), ""):
            self.tail = (self.tail + chunk)[-8000:]
            complete = re.split(r"[\r\n]", self.tail)[:-1]  # the last piece may be cut
            lines = [x.strip() for x in complete
                     if x.strip() and not _KERNEL_LOG.match(x.strip())]
            if lines:
                self.status = lines[-1][:160]

    def start(self) -> None:
        self.started = time.monotonic()
        # its own process group: stopping it stops what it started too (a notebook's kernel)
        self._process = subprocess.Popen(self.cmd, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE, text=True,
                                         start_new_session=os.name == "posix")
        self._reader = threading.Thread(target=self._read, args=(self._process.stderr,),
                                        daemon=True)
        self._reader.start()

    def stop(self) -> None:
        """End the step's process (the build was interrupted or failed)."""
        if self._process is not None and self._process.poll() is None:
            if os.name == "posix":
                os.killpg(self._process.pid, signal.SIGKILL)
            else:
                self._process.kill()
            self._process.wait()

    def poll(self) -> int | None:
        assert self._process is not None
        code = self._process.poll()
        if code is not None:
            assert self._reader is not None
            self._reader.join()
            self.seconds = time.monotonic() - self.started
        return code


def _children_cpu() -> float:
    """CPU seconds of the finished child processes (and theirs: the kernels); NaN off POSIX."""
    try:
        import resource
    except ImportError:
        return float("nan")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_jobs(jobs: Sequence[Job], workers: int, log: Callable[[str], None]) -> None:
    """Run ``jobs`` in their order, ``workers`` at a time, logging progress through ``log``.

    Raises
    ------
    RuntimeError
        When a step failed (its :attr:`Job.check` said why), after the other steps finished.
    """
    if not jobs:
        return
    waiting, running, failures = list(jobs), list[Job](), list[str]()
    start = last = time.monotonic()
    cpu_before = _children_cpu()
    log(f"seprank_docs: {len(jobs)} long steps, {min(workers, len(jobs))} at a time: "
        + ", ".join(j.label for j in jobs))
    try:
        while waiting or running:
            while waiting and len(running) < workers:
                job = waiting.pop(0)
                log(f"seprank_docs: [{time.monotonic() - start:4.0f} s] start {job.label}")
                job.start()
                running.append(job)
            time.sleep(0.2)
            for job in list(running):
                code = job.poll()
                if code is None:
                    continue
                running.remove(job)
                problem = job.check(code, job.tail)
                log(f"seprank_docs: [{time.monotonic() - start:4.0f} s] {job.label}: "
                    f"{'done' if problem is None else 'FAILED'} in {job.seconds:.0f} s")
                if problem is not None:
                    failures.append(f"{job.label}: {problem}")
            if running and time.monotonic() - last >= PROGRESS_EVERY:
                last = time.monotonic()
                now = ", ".join(f"{j.label} ({last - j.started:.0f} s"
                                + (f": {j.status})" if j.status else ")") for j in running)
                log(f"seprank_docs: [{last - start:4.0f} s] running {now}; "
                    f"{len(jobs) - len(waiting) - len(running)}/{len(jobs)} done")
    except BaseException:  # interrupted (Ctrl-C) or broken: leave no step running
        for job in running:
            job.stop()
        raise
    log(f"seprank_docs: long steps done in {time.monotonic() - start:.0f} s "
        f"({_children_cpu() - cpu_before:.0f} s CPU)")
    if failures:
        raise RuntimeError("\n\n".join(failures))
