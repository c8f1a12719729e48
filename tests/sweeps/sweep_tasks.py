"""Task functions for the sweep tests (module-level, so dask workers can import them)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from pathlib import Path

import numpy as np


def square(n: int, seed: int | None = None) -> dict[str, int]:
    return {"square": n * n}


def square_or_raise(n: int, bad: int) -> int:
    if n == bad:
        raise ValueError(f"task {n} refuses")
    return n * n


def logged_square(n: int, log_dir: str, delay: float = 0.0) -> int:
    """n^2, leaving one file per execution in log_dir (to count executions)."""
    time.sleep(delay)
    Path(log_dir, f"{n}-{uuid.uuid4().hex}").touch()
    return n * n


def kill_worker_once(n: int, victim: int, log_dir: str) -> int:
    """n^2; task ``victim`` kills its own worker process the first time it runs."""
    marker = Path(log_dir, f"killed-{victim}")
    Path(log_dir, f"{n}-{uuid.uuid4().hex}").touch()
    if n == victim and not marker.exists():
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.05)
    return n * n


def allocate(n_bytes: int) -> int:
    """Touch ``n_bytes`` of memory (resident), return a checksum."""
    block = np.ones(n_bytes // 8, dtype=np.float64)
    return int(block.sum())


def worker_pid() -> int:
    return os.getpid()



def unpicklable_at(n: int, bad: int) -> object:
    """n^2, except task ``bad`` returns a lock (a value no store can keep)."""
    import threading

    return threading.Lock() if n == bad else n * n


def sleep_for(n: int, seconds: float) -> int:
    """n^2 after ``seconds`` of sleep (a task that overruns its timeout)."""
    time.sleep(seconds)
    return n * n


def sleep_and_log(n: int, seconds: float, log_dir: str) -> int:
    """n^2 after ``seconds`` of sleep, leaving ``started-n`` (holding this process's pid)
    before and ``finished-n`` after: a task stopped midway leaves only the first."""
    Path(log_dir, f"started-{n}").write_text(str(os.getpid()))
    time.sleep(seconds)
    Path(log_dir, f"finished-{n}").touch()
    return n * n


def spin_for(n: int, seconds: float) -> int:
    """n^2 after ``seconds`` of pure-Python busy work (holds the interpreter)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass
    return n * n


def swallow_everything(n: int, seconds: float) -> int:
    """A task that catches every Exception while it works (the timeout must still stop it)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        with contextlib.suppress(Exception):      # the point of the test
            time.sleep(0.01)
    return n
