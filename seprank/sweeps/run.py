r"""Parameter sweeps on dask.distributed, resumable through a result store.

:func:`sweep` runs ``fn(**p)`` for every parameter set ``p``:

* on **dask.distributed** -- by default an embedded ``LocalCluster`` of worker *processes*
  (one per core, one thread each), or an existing cluster given by its scheduler address (or a
  ``distributed.Client``); both go through the same code: submit one task per parameter set,
  collect them with ``distributed.as_completed``.  A worker that dies mid-task is replaced by
  its nanny and the scheduler runs the task again elsewhere (after
  ``distributed.scheduler.allowed-failures`` deaths it gives up with ``KilledWorker``, which is
  recorded as that task's failure);
* each task through :func:`seprank.sweeps.measure.run_task`: wall and CPU time and peak memory are
  recorded, and an exception becomes that task's recorded failure -- the sweep completes and
  lists its failures;
* with a :class:`~seprank.sweeps.store.ResultStore` (or a path to one), every result is written
  as it arrives, keyed by function, parameters, seed and code version, so a rerun of an
  interrupted sweep computes only what is missing (and starts no cluster when nothing is).

``executor='serial'`` runs the same tasks in this process, one after the other: the baseline
for speed-ups and the easiest way to debug a task.

``timeout=`` limits each task's wall time; a task that overruns it is stopped and recorded as
its failure (``TimeBudgetExceeded``), and the sweep goes on.  Serially the task is interrupted
by ``SIGALRM`` in the main thread (POSIX only; a task blocked inside one long C call is stopped
when that call returns, and one that catches ``BaseException`` cannot be stopped); on dask the
client watches how long each task has been *running* on its worker, cancels an overrunning
task and restarts that worker (the only way to stop a thread), so the other tasks of that
worker are rerun elsewhere.  A result the store cannot keep (it does not pickle, or is larger
than the store's ``max_value_bytes``) is likewise that task's failure, not the sweep's.

An embedded ``LocalCluster`` starts its workers by importing the caller's ``__main__``
module: a script must call :func:`sweep` under ``if __name__ == "__main__":``.  A script that
does not is refused before any worker starts, with that fix (dask itself only says "Nanny
failed to start").

Examples
--------
>>> def power(base, exponent, seed=None):
...     return base ** exponent
>>> result = sweep(power, [{"base": b, "exponent": 2} for b in range(4)],
...                executor="serial", progress=False, version="example")
>>> result.values()
[0, 1, 4, 9]
>>> result.n_computed, result.failures
(4, ())

On a cluster (an embedded one here; ``executor="tcp://host:8786"`` reaches an existing one):

>>> result = sweep(pow, [{"base": 3, "exp": e} for e in range(5)],
...                executor=2, progress=False)          # doctest: +SKIP
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import inspect
import logging
import os
import signal
import sqlite3
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, Literal

from tqdm import tqdm

from seprank.core.validation import check_bool, check_float
from seprank.sweeps.measure import Status, TaskOutcome, run_task
from seprank.sweeps.store import ResultStore, SkippedRow, TaskKey

__all__ = ["SweepRecord", "SweepResult", "available_cores", "code_version", "sweep"]

Source = Literal["computed", "store"]


def available_cores() -> int:
    """The CPU cores this process may use (its affinity mask where the OS has one).

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


def qualified_name(fn: Callable[..., Any]) -> str:
    """``module.qualname`` of a function (what a store records as the function)."""
    qual = getattr(fn, "__qualname__", None)
    if qual is None:
        raise TypeError(f"{fn!r} has no __qualname__ (a functools.partial?); pass name=")
    return f"{getattr(fn, '__module__', None) or '__main__'}.{qual}"


def code_version(fn: Callable[..., Any]) -> str:
    """A version of the code behind ``fn``: a digest of its whole top-level package.

    For a function of an installed or importable package (e.g. ``seprank``) this hashes every
    ``.py`` file of that package, so that *any* change of the code invalidates stored results;
    for a function defined in a script or notebook, its own source.  Pass ``version=`` to
    :func:`sweep` to pin a version by hand instead.

    Examples
    --------
    A function of this package is versioned by the whole package (stable between calls):

    >>> v = code_version(sweep)
    >>> v.startswith("seprank-") and v == code_version(available_cores)
    True
    """
    module = inspect.getmodule(fn)
    top = (module.__name__ if module else "__main__").split(".")[0]
    package = sys.modules.get(top)
    paths = list(getattr(package, "__path__", [])) if top != "__main__" else []
    digest = hashlib.sha256()
    if paths:
        for root in paths:
            for path in sorted(Path(root).rglob("*.py")):
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    elif module is not None and top != "__main__" and getattr(module, "__file__", None):
        digest.update(Path(str(module.__file__)).read_bytes())
    else:
        try:
            digest.update(inspect.getsource(fn).encode())
        except (OSError, TypeError) as exc:
            raise ValueError(f"cannot read the source of {fn!r} to version its results; pass "
                             "version='...' to sweep()") from exc
    return f"{top}-{digest.hexdigest()[:16]}"


@dataclass(frozen=True)
class SweepRecord:
    """One parameter set of a sweep, its key, its outcome (value or error, timings, memory,
    worker: a :class:`~seprank.sweeps.measure.TaskOutcome`) and whether it was computed now or
    loaded from the store."""

    params: Mapping[str, Any]
    key: TaskKey
    outcome: TaskOutcome
    source: Source

    @property
    def status(self) -> Status:
        return self.outcome.status

    @property
    def value(self) -> Any:
        return self.outcome.value

    def as_dict(self) -> dict[str, Any]:
        """The parameters, then the outcome's status, value, error and measurements
        (:meth:`~seprank.sweeps.measure.TaskOutcome.measurements`) and the source, flat."""
        return {**self.params, **self.outcome.measurements(), "source": self.source}


@dataclass(frozen=True)
class SweepResult:
    """Every parameter set's record, in the order the parameter sets were given."""

    fn: str
    version: str
    records: tuple[SweepRecord, ...]
    wall_seconds: float
    executor: str
    skipped: tuple[SkippedRow, ...] = ()

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[SweepRecord]:
        return iter(self.records)

    @property
    def failures(self) -> tuple[SweepRecord, ...]:
        """The records whose task raised (or whose worker kept dying)."""
        return tuple(r for r in self.records if r.status == "error")

    @property
    def n_computed(self) -> int:
        return sum(r.source == "computed" for r in self.records)

    @property
    def n_loaded(self) -> int:
        return sum(r.source == "store" for r in self.records)

    def values(self) -> list[Any]:
        """The values in parameter order (None where the task failed)."""
        return [r.value for r in self.records]

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per parameter set (see :meth:`SweepRecord.as_dict`), with the
        function's name and the code version that produced it."""
        return [{**r.as_dict(), "fn": self.fn, "version": self.version} for r in self.records]

    def to_dataframe(self) -> Any:
        """The records as a pandas DataFrame (needs pandas, which is optional)."""
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError("to_dataframe() needs pandas (pip install pandas); "
                              "to_records() gives the same rows as dicts") from exc
        return pd.DataFrame.from_records(self.to_records())

    def summary(self) -> str:
        task_time = sum(r.outcome.seconds or 0.0 for r in self.records if r.source == "computed")
        text = (f"{self.fn}: {len(self)} tasks ({self.n_computed} computed, {self.n_loaded} "
                f"from the store), {len(self.failures)} failed; {self.wall_seconds:.2f} s wall "
                f"on {self.executor}, {task_time:.2f} s in tasks")
        for r in self.failures:
            text += f"\n  FAILED {dict(r.params)}: {r.outcome.error}"
        for row in self.skipped:
            text += (f"\n  SKIPPED stored {row.key.params} (seed {row.key.seed}): "
                     f"{row.reason}; recomputed")
        return text


def _validated_params(params: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    if isinstance(params, Mapping | str | bytes):
        raise TypeError("params must be an iterable of dicts (one per task), not a single "
                        "dict; wrap it in a list")
    out = []
    for i, p in enumerate(params):
        if not isinstance(p, Mapping) or not all(isinstance(k, str) for k in p):
            raise TypeError(f"parameter set #{i} must be a dict of keyword arguments, got {p!r}")
        out.append(dict(p))
    return out


#: What a missing ``if __name__ == "__main__":`` guard does to an embedded cluster, and the fix.
MAIN_GUARD_MESSAGE = (
    "sweep() would start a LocalCluster whose worker processes import this script's "
    "__main__ module, and this script calls sweep() at import time (not under "
    "'if __name__ == \"__main__\":'): every worker would run the sweep again and dask "
    "would only report 'Nanny failed to start'. Put the call under "
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


def _check_main_guard() -> None:
    """Refuse to start worker processes from a script that calls sweep() unguarded.

    In a worker being spawned (the script re-imported as ``__mp_main__``) the call is refused
    at once; in the script itself, the top-level statement that is running is located in the
    script's source and must lie inside an ``if __name__ == "__main__":`` block.  Nothing is
    refused where workers do not import ``__main__`` (interactive sessions, notebooks,
    ``python -c``, the 'fork' start method) or where the source cannot be read.
    """
    import multiprocessing

    main = sys.modules.get("__main__")
    if multiprocessing.parent_process() is not None and main is sys.modules.get("__mp_main__"):
        raise RuntimeError(MAIN_GUARD_MESSAGE)
    path = getattr(main, "__file__", None)
    if main is None or not path:
        return
    try:
        import dask

        method = dask.config.get("distributed.worker.multiprocessing-method", "spawn")
    except Exception:  # pragma: no cover - dask missing: sweep fails later anyway
        return
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


class _TaskDeadline(BaseException):
    """Raised in a serial task by SIGALRM at its timeout (a BaseException, so the task's own
    ``except Exception`` does not swallow it)."""


def _check_timeout(timeout: Any, executor: Any) -> float | None:
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


def _timeout_outcome(timeout: float, seconds: float | None = None) -> TaskOutcome:
    return TaskOutcome("error", error=f"TimeBudgetExceeded: the task ran longer than its "
                                      f"timeout of {timeout:g} s and was stopped",
                       seconds=seconds)


def _run_serial(fn: Callable[..., Any], params: Mapping[str, Any],
                timeout: float | None) -> TaskOutcome:
    """:func:`run_task` in this process, stopped by SIGALRM after ``timeout`` seconds (an
    enclosing alarm, e.g. a test's, is re-armed afterwards)."""
    if timeout is None:
        return run_task(fn, params)
    state = {"armed": True}

    def alarm(signum: int, frame: Any) -> None:
        if state["armed"]:
            raise _TaskDeadline

    start = time.perf_counter()
    old_handler = signal.signal(signal.SIGALRM, alarm)
    old_delay, _ = signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return run_task(fn, params)
    except _TaskDeadline:
        return _timeout_outcome(timeout, time.perf_counter() - start)
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
    from distributed import get_worker

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



@contextmanager
def _dask_client(executor: Any) -> Iterator[tuple[Any, str]]:
    """A ``distributed.Client`` for ``executor``, and a description; owned ones are closed."""
    if not (executor is None or isinstance(executor, int | str)
            or hasattr(executor, "scheduler_address") or hasattr(executor, "submit")):
        raise TypeError(f"executor must be None, a number of workers, 'serial', a scheduler "
                        f"address or a distributed.Client, got {executor!r}")
    import dask
    from distributed import Client, LocalCluster

    if isinstance(executor, Client):
        yield executor, f"dask cluster at {executor.scheduler_info().get('address')}"
        return
    if executor is None or (isinstance(executor, int) and not isinstance(executor, bool)):
        n_workers = available_cores() if executor is None else executor
        if n_workers < 1:
            raise ValueError(f"executor={executor!r}: need at least one worker")
        _check_main_guard()
        # loopback only; the scheduler's HTTP server on a free port (8787 may be taken); no
        # statistical profiler in the workers (it samples the task's thread every 10 ms: CPU
        # the tasks would lose, and a process CPU time that is not the task's)
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=":0",
                                   silence_logs=logging.ERROR)
        description = f"local dask cluster, {n_workers} worker processes"
    elif isinstance(executor, str):
        cluster, description = None, f"dask cluster at {executor}"
    elif hasattr(executor, "scheduler_address"):
        cluster, description = None, f"dask cluster at {executor.scheduler_address}"
    else:
        raise TypeError(f"executor must be None, a number of workers, 'serial', a scheduler "
                        f"address or a distributed.Client, got {executor!r}")
    client = Client(cluster if cluster is not None else executor)
    try:
        yield client, description
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _run_on_dask(client: Any, fn: Callable[..., Any], params: Sequence[dict[str, Any]],
                 keys: Sequence[TaskKey], order: Sequence[int],
                 deliver: Callable[[int, TaskOutcome], None],
                 timeout: float | None = None) -> None:
    from distributed import as_completed, wait

    token = uuid.uuid4().hex[:8]
    futures = {}
    task = run_task if timeout is None else _clocked_run_task
    for rank, i in enumerate(order):
        digest = hashlib.sha256(repr(keys[i].as_tuple()).encode()).hexdigest()[:16]
        future = client.submit(task, fn, params[i], key=f"sweep-{token}-{digest}",
                               priority=len(order) - rank)
        futures[future] = i

    def collect(future: Any) -> None:
        try:
            outcome = future.result()
        except Exception as exc:  # KilledWorker, a lost or unpicklable result
            outcome = TaskOutcome.lost(exc)
        deliver(futures[future], outcome)
        future.release()

    pending = set(futures)
    try:
        if timeout is None:
            for future in as_completed(list(futures)):
                pending.discard(future)
                collect(future)
            return
        by_key = {f.key: f for f in futures}
        poll = min(1.0, max(0.05, timeout / 4))
        while pending:
            try:
                done = wait(list(pending), timeout=poll, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                done = set()
            for future in done:
                pending.discard(future)
                collect(future)
            if pending:
                _stop_overrunning(client, by_key, pending, timeout,
                                  lambda f: deliver(futures[f], _timeout_outcome(timeout)))
    finally:
        if pending:
            client.cancel(list(pending))


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


def sweep(
    fn: Callable[..., Any],
    params: Iterable[Mapping[str, Any]],
    *,
    executor: Any = None,
    store: ResultStore | str | os.PathLike[str] | None = None,
    progress: bool = True,
    name: str | None = None,
    version: str | None = None,
    priority: Callable[[Mapping[str, Any]], float] | None = None,
    retry_failed: bool = True,
    timeout: float | None = None,
) -> SweepResult:
    """Run ``fn(**p)`` for every parameter set ``p``, in parallel, resumably.

    Parameters
    ----------
    fn : callable
        The task, called with each parameter set as keyword arguments.  On a cluster it must be
        importable by the workers (a module-level function) or picklable by cloudpickle.  A
        ``seed`` parameter is stored as the task's seed.
    params : iterable of dict
        The parameter sets (JSON data: numbers, strings, lists); each must be distinct.
    executor : None, int, str or distributed.Client, keyword-only
        ``None``: an embedded ``LocalCluster`` with one single-threaded worker process per
        available core; an int: that many worker processes; a scheduler address
        (``"tcp://host:8786"``) or a ``distributed.Client``: an existing cluster (its workers
        need this package installed); ``"serial"``: this process, one task after the other.
    store : ResultStore or path, optional, keyword-only
        Where results are written as they arrive and looked up first (a path opens or creates
        an SQLite file).  Without one nothing is kept.
    progress : bool, keyword-only
        Show a progress bar (tqdm).
    name, version : str, optional, keyword-only
        The function's name and code version in the store (default:
        :func:`qualified_name` and :func:`code_version`).
    priority : callable, optional, keyword-only
        ``priority(p)`` -> number; higher starts first.  Give an estimated cost so that the
        longest tasks do not start last (they would leave workers idle at the end).
    retry_failed : bool, keyword-only
        Whether a failure stored by an earlier run is computed again (default True).
    timeout : float, optional, keyword-only
        Seconds of wall time each task may run; one that overruns is stopped and recorded as
        its failure (``TimeBudgetExceeded``), the others go on (module notes for how).

    Returns
    -------
    SweepResult
        One :class:`SweepRecord` per parameter set, in the given order; ``failures`` lists
        the tasks that raised, overran ``timeout`` or returned a value the store cannot keep;
        ``skipped`` the stored rows that were unusable (failed their checksum, could not be
        decoded) and were recomputed.

    Raises
    ------
    RuntimeError
        An embedded cluster would be started from a script that calls ``sweep`` outside
        ``if __name__ == "__main__":`` (module notes).

    Examples
    --------
    A failing task is recorded, not raised; a store makes the rerun a lookup:

    >>> def inverse(x):
    ...     return 1 / x
    >>> store = ResultStore(":memory:")
    >>> first = sweep(inverse, [{"x": 2}, {"x": 0}], executor="serial", store=store,
    ...               progress=False, version="example")
    >>> first.values()[0], first.failures[0].outcome.error
    (0.5, 'ZeroDivisionError: division by zero')
    >>> again = sweep(inverse, [{"x": 2}], executor="serial", store=store, progress=False,
    ...               version="example")
    >>> again.n_loaded, again.n_computed
    (1, 0)

    References
    ----------
    .. [1] dask.distributed documentation: ``LocalCluster``, ``Client.submit``,
       ``as_completed``, and "Resilience" (tasks of a dead worker are rerun).
    """
    if not callable(fn):
        raise TypeError(f"fn must be callable, got {fn!r}")
    progress = check_bool("progress", progress)
    retry_failed = check_bool("retry_failed", retry_failed)
    limit = _check_timeout(timeout, executor)
    param_sets = _validated_params(params)
    fname = name if name is not None else qualified_name(fn)
    ver = version if version is not None else code_version(fn)
    keys = [TaskKey.of(fname, p, version=ver) for p in param_sets]
    first: dict[TaskKey, int] = {}
    for i, key in enumerate(keys):
        if key in first:
            raise ValueError(f"parameter set #{i} {param_sets[i]} repeats #{first[key]}; "
                             "give each task once")
        first[key] = i
    if isinstance(store, str | os.PathLike):
        store = ResultStore(store)
    elif store is not None and not isinstance(store, ResultStore):
        raise TypeError(f"store must be a ResultStore, a path or None, got {store!r}")
    start = time.perf_counter()
    skipped_before = store.corrupt if store is not None else 0
    stored = store.lookup(fname, ver) if store is not None else {}
    records: list[SweepRecord | None] = [None] * len(keys)
    todo = []
    for i, key in enumerate(keys):
        hit = stored.get(key)
        if hit is not None and (hit.status == "ok" or not retry_failed):
            records[i] = SweepRecord(param_sets[i], key, hit.outcome, "store")
        else:
            todo.append(i)
    if priority is not None:
        todo.sort(key=lambda i: -float(priority(param_sets[i])))
    bar = tqdm(total=len(keys), initial=len(keys) - len(todo), unit="task",
               desc=fname.rsplit(".", 1)[-1], disable=not progress)

    def deliver(i: int, outcome: TaskOutcome) -> None:
        if store is not None:
            try:
                store.put(keys[i], outcome)
            except (TypeError, ValueError, OverflowError, MemoryError, sqlite3.Error) as exc:
                # the value cannot be kept (it does not pickle, is too large, ...): this task
                # failed, the sweep goes on; its measurements are kept
                outcome = dataclasses.replace(
                    outcome, status="error", value=None,
                    error=f"the result could not be stored: {type(exc).__name__}: {exc}")
                store.put(keys[i], outcome)
        records[i] = SweepRecord(param_sets[i], keys[i], outcome, "computed")
        if outcome.status == "error":
            n_failed = sum(r is not None and r.status == "error" for r in records)
            bar.set_postfix_str(f"{n_failed} failed", refresh=False)
        bar.update(1)

    try:
        if not todo:
            description = "nothing to compute"
        elif executor == "serial":
            description = "this process, serially"
            for i in todo:
                deliver(i, _run_serial(fn, param_sets[i], limit))
        else:
            with _dask_client(executor) as (client, description):
                _run_on_dask(client, fn, param_sets, keys, todo, deliver, limit)
    finally:
        bar.close()
    missing = [i for i, r in enumerate(records) if r is None]
    if missing:  # pragma: no cover - as_completed returns every future
        raise RuntimeError(f"sweep lost the results of parameter sets {missing}")
    skipped = tuple(store.skipped[skipped_before:]) if store is not None else ()
    return SweepResult(fname, ver, tuple(r for r in records if r is not None),
                       time.perf_counter() - start, description,
                       tuple(r for r in skipped if r.key.fn == fname))
