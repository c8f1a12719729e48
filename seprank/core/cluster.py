r"""Where parallel work runs: a dask.distributed client for an ``executor`` argument.

One vocabulary for every function that can run on dask (:func:`seprank.sweeps.sweep`, the
degree blocks of :func:`seprank.separation_rank`): ``executor`` is None (an embedded
``LocalCluster``, one single-threaded worker process per available core), a number of worker
processes, a scheduler address, or a ``distributed.Client``.  dask is imported only when a
client is asked for.  An embedded cluster spawns worker processes that import the caller's
``__main__``: :func:`check_main_guard` refuses a script that would start it again in every
worker, with the fix.
"""

from __future__ import annotations

import ast
import inspect
import logging
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from seprank.extras import optional, require

__all__ = [
    "MAIN_GUARD_MESSAGE",
    "MAX_WORKERS_PER_CORE",
    "available_cores",
    "check_local_workers",
    "check_main_guard",
    "check_scheduler_address",
    "dask_client",
    "local_cluster",
]

#: An embedded cluster may have at most this many worker processes per available core.
MAX_WORKERS_PER_CORE = 4

#: How long an embedded cluster waits for a worker its nanny is restarting before it closes
#: that nanny for good (dask's ``distributed.deploy.lost-worker-timeout``, 15 s by default).
#: A restart (a task past its ``timeout``, a worker that died) spawns a fresh interpreter that
#: imports dask: on a 2-core machine at load 15 that took 31-37 s, so with dask's default the
#: cluster closed the nanny -- and the worker it had just restarted -- and lost that worker for
#: the rest of its life.  The nanny alone restarts workers here; nothing else needs the timeout.
RESTART_GRACE = "1h"


#: What a missing ``if __name__ == "__main__":`` guard does to an embedded cluster, and the fix.
MAIN_GUARD_MESSAGE = (
    "sweep() (or a separation rank with executor=...) would start a LocalCluster whose "
    "worker processes import this script's __main__ module, and this script makes the call "
    "at import time (not under 'if __name__ == \"__main__\":'): every worker would run it "
    "again and dask would only report 'Nanny failed to start'. Put the call under "
    "'if __name__ == \"__main__\":' (or run it with executor='serial')")


def _is_main_guard(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":`` (either order of the comparison)."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    texts = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and texts == ["__main__"]


def check_main_guard() -> None:
    """Refuse to start worker processes from a script that starts them unguarded.

    In a worker being spawned (the script re-imported as ``__mp_main__``) the call is refused
    at once; in the script itself, the top-level statement that is running is located in the
    script's source and must lie inside an ``if __name__ == "__main__":`` block.  Nothing is
    refused where workers do not import ``__main__`` (interactive sessions, notebooks,
    ``python -c``, the 'fork' start method) or where the source cannot be read.

    Examples
    --------
    >>> check_main_guard()      # this session's __main__ calls it under its guard (or has none)
    """
    import multiprocessing

    main = sys.modules.get("__main__")
    if multiprocessing.parent_process() is not None and main is sys.modules.get("__mp_main__"):
        raise RuntimeError(MAIN_GUARD_MESSAGE)
    path = getattr(main, "__file__", None)
    if main is None or not path:
        return
    dask = optional("dask")
    if dask is None:  # the distributed group is missing: dask_client refuses with its line
        return
    method = dask.config.get("distributed.worker.multiprocessing-method", "spawn")
    if method == "fork":
        return
    frame: FrameType | None = inspect.currentframe()
    top: FrameType | None = None
    while frame is not None:
        if frame.f_globals is vars(main) and frame.f_code.co_name == "<module>":
            top = frame
        frame = frame.f_back
    if top is None:
        return
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return
    line = top.f_lineno
    for node in tree.body:
        if _is_main_guard(node) and node.lineno <= line <= (node.end_lineno or node.lineno):
            return
    raise RuntimeError(MAIN_GUARD_MESSAGE)



def available_cores() -> int:
    """The CPU cores this process may use (its affinity mask where the OS has one).

    Returns
    -------
    int
        The number of cores.

    Examples
    --------
    >>> import os
    >>> 1 <= available_cores() <= (os.cpu_count() or 1)
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1



def check_local_workers(n_workers: int) -> int:
    """The number of worker processes of an embedded cluster, refused below 1 or above
    :data:`MAX_WORKERS_PER_CORE` per available core (each is a process of a few hundred MB).

    Parameters
    ----------
    n_workers : int
        The requested number of worker processes.

    Returns
    -------
    int
        ``n_workers``.

    Examples
    --------
    >>> check_local_workers(1)
    1
    """
    cap = MAX_WORKERS_PER_CORE * available_cores()
    if not 1 <= n_workers <= cap:
        raise ValueError(f"executor={n_workers}: an embedded dask cluster takes 1 to {cap} "
                         f"worker processes on this machine ({available_cores()} cores); for "
                         "more, start a cluster and pass its scheduler address")
    return n_workers


#: A dask scheduler address: a protocol and anything, or host:port.
_ADDRESS = re.compile(r"[a-z][a-z0-9+.-]*://\S+|(?:\[[0-9a-fA-F:]+\]|[^\s/:\[\]]+):\d+")


def check_scheduler_address(address: Any, *, name: str = "executor") -> str:
    """A dask scheduler address (``'tcp://10.0.0.5:8786'``, ``'10.0.0.5:8786'``), refused with
    a message naming the port when the port is not in 1..65535 (a client would wait 30 s and
    fail without saying why).

    Parameters
    ----------
    address : str
        The address.
    name : str, default "executor"
        The argument's name, for the message.

    Returns
    -------
    str
        ``address``, unchanged.

    Examples
    --------
    >>> check_scheduler_address("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    >>> check_scheduler_address("10.0.0.5:99999")
    Traceback (most recent call last):
    ...
    ValueError: executor='10.0.0.5:99999': port 99999 is not a TCP port (1 to 65535); ...
    """
    if not isinstance(address, str):
        raise TypeError(f"{name} must be a scheduler address string, got "
                        f"{type(address).__name__}")
    if not _ADDRESS.fullmatch(address):
        raise ValueError(f"{name}={address!r} is not a scheduler address such as "
                         "'tcp://10.0.0.5:8786' or '10.0.0.5:8786'")
    port = re.search(r"(?<=[^:]):(\d+)/?$", address.split("://", 1)[-1])
    if port is not None and not 1 <= int(port.group(1)) <= 65535:
        raise ValueError(f"{name}={address!r}: port {int(port.group(1))} is not a TCP port (1 "
                         "to 65535); give the port the scheduler listens on (dask's default: "
                         "8786)")
    return address


@contextmanager
def dask_client(executor: Any) -> Iterator[tuple[Any, str]]:
    """A ``distributed.Client`` for ``executor``, and a description of where it runs.

    A cluster (and client) this function starts is closed on exit; a given client is not.

    Parameters
    ----------
    executor : None, int, str or distributed.Client
        None: an embedded ``LocalCluster`` with one single-threaded worker process per
        available core; an int: that many worker processes; a str: the address of a running
        scheduler (``'tcp://host:8786'``); a ``distributed.Client`` (or anything with a
        ``scheduler_address``): that cluster.

    Yields
    ------
    tuple of (distributed.Client, str)
        The client and a description ("local dask cluster, 2 worker processes").

    Examples
    --------
    >>> with dask_client(1) as (client, where):  # doctest: +SKIP
    ...     client.submit(sum, [1, 2]).result(), where
    (3, 'local dask cluster, 1 worker processes')
    """
    if not (executor is None or isinstance(executor, int | str)
            or hasattr(executor, "scheduler_address") or hasattr(executor, "submit")):
        raise TypeError(f"executor must be None, a number of workers, 'serial', a scheduler "
                        f"address or a distributed.Client, got {executor!r}")
    Client = require("distributed", feature="a dask cluster (executor=)").Client

    if isinstance(executor, Client):
        yield executor, f"dask cluster at {executor.scheduler_info().get('address')}"
        return
    if executor is None or (isinstance(executor, int) and not isinstance(executor, bool)):
        n_workers = available_cores() if executor is None else executor
        check_local_workers(n_workers)
        check_main_guard()
        with local_cluster(n_workers) as cluster, Client(cluster) as client:
            yield client, f"local dask cluster, {n_workers} worker processes"
        return
    if isinstance(executor, str):
        check_scheduler_address(executor)
        description = f"dask cluster at {executor}"
    elif hasattr(executor, "scheduler_address"):
        description = f"dask cluster at {executor.scheduler_address}"
    else:
        raise TypeError(f"executor must be None, a number of workers, 'serial', a scheduler "
                        f"address or a distributed.Client, got {executor!r}")
    with Client(executor) as client:
        yield client, description


@contextmanager
def local_cluster(n_workers: int) -> Iterator[Any]:
    """An embedded ``distributed.LocalCluster`` of ``n_workers`` single-threaded worker
    processes, each under a nanny that restarts it, closed on exit.

    Loopback only; the scheduler's HTTP server on a free port (8787 may be taken); no
    statistical profiler in the workers (it samples the task's thread every 10 ms: CPU the
    tasks would lose, and a process CPU time that is not the task's); and, while the cluster
    is open, a worker being restarted by its nanny is waited for (:data:`RESTART_GRACE`)
    instead of being given up after dask's 15 s -- which, on a loaded machine, lost the
    restarted worker for good.

    Parameters
    ----------
    n_workers : int
        Worker processes (:func:`check_local_workers`); the caller checks the ``__main__``
        guard (:func:`check_main_guard`) where a script may be running.

    Yields
    ------
    distributed.LocalCluster
        The cluster (pass it to ``distributed.Client``).

    Examples
    --------
    >>> from distributed import Client                        # doctest: +SKIP
    >>> with local_cluster(2) as cluster, Client(cluster) as client:  # doctest: +SKIP
    ...     client.submit(sum, [1, 2]).result()
    3
    """
    if isinstance(n_workers, bool) or not isinstance(n_workers, int):
        raise TypeError(f"n_workers must be an int (worker processes), got {n_workers!r}")
    n_workers = check_local_workers(n_workers)
    dask = require("dask", feature="a dask cluster (executor=)")
    LocalCluster = require("distributed", feature="a dask cluster (executor=)").LocalCluster

    # the grace is read when a worker leaves, so it stays in force while the cluster runs
    settings = {"distributed.worker.profile.enabled": False,
                "distributed.deploy.lost-worker-timeout": RESTART_GRACE}
    with dask.config.set(settings), LocalCluster(
            n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=":0", silence_logs=logging.ERROR) as cluster:
        yield cluster
