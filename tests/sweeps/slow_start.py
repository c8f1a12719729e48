"""A dask worker preload (``distributed.worker.preload``) that delays the worker's start by
``$SEPRANK_TEST_SLOW_START`` seconds, before it registers with the scheduler: a worker
restarted on a loaded machine, on a quiet one."""

from __future__ import annotations

import os
import time
from typing import Any

__all__ = ["ENV", "dask_setup"]

#: The environment variable read by each starting worker (unset: no delay).
ENV = "SEPRANK_TEST_SLOW_START"


def dask_setup(worker: Any) -> None:
    delay = os.environ.get(ENV)
    if delay:
        time.sleep(float(delay))
