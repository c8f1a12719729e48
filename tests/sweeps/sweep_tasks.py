"""Task functions for the sweep tests (module-level, so dask workers can import them)."""

from __future__ import annotations

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

