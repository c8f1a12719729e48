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
its failure (``TimeBudgetExceeded``), and the sweep goes on (how, and the limits of it:
:mod:`seprank.sweeps.limits`).  A result the store cannot keep (it does not pickle, or is
larger than the store's ``max_value_bytes``) is likewise that task's failure, not the sweep's.

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

import dataclasses
import hashlib
import html
import importlib.metadata
import inspect
import math
import numbers
import os
import sqlite3
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from seprank.core.cluster import available_cores, check_scheduler_address, dask_client
from seprank.core.display import summarize
from seprank.core.progress import progress_bar
from seprank.core.validation import check_bool
from seprank.extras import require
from seprank.sweeps.limits import (
    _clocked_run_task,
    _stop_overrunning,
    check_timeout,
    run_serial,
    timeout_outcome,
)
from seprank.sweeps.measure import Status, TaskOutcome, run_task
from seprank.sweeps.store import ResultStore, SkippedRow, TaskKey

__all__ = ["SweepRecord", "SweepResult", "available_cores", "code_version", "sweep"]

Source = Literal["computed", "store"]


#: The packages of this project: a function calling into them is versioned by their source.
PROJECT_PACKAGES = ("seprank", "identifiability", "paper_checks")


def module_name(fn: Callable[..., Any]) -> str:
    """The name of the module defining ``fn``, with ``__main__`` resolved where it can be.

    A script run as ``python case.py`` or ``python -m pkg.case`` defines its functions in
    ``__main__``; they are named after the script (``case``) or the module (``pkg.case``), the
    names the same functions have when imported, so a store shares their results.  A notebook
    or an interactive session keeps ``__main__``.
    """
    name = getattr(fn, "__module__", None) or "__main__"
    if name != "__main__":
        return str(name)
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and getattr(spec, "name", None) and spec.name != "__main__":
        return str(spec.name)
    file = getattr(main, "__file__", None)
    if file and Path(file).suffix == ".py":
        return Path(file).stem
    return "__main__"


def qualified_name(fn: Callable[..., Any]) -> str:
    """``module.qualname`` of a function (what a store records as the function); a script's
    ``__main__`` is named after the script (:func:`module_name`)."""
    qual = getattr(fn, "__qualname__", None)
    if qual is None:
        raise TypeError(f"{fn!r} has no __qualname__ (a functools.partial?); pass name=")
    return f"{module_name(fn)}.{qual}"


def _package_digest(top: str) -> str | None:
    """SHA-256 of every ``.py`` file of the importable package ``top`` (None if not one)."""
    package = sys.modules.get(top)
    paths = list(getattr(package, "__path__", []))
    if not paths:
        return None
    digest = hashlib.sha256()
    for root in paths:
        for path in sorted(Path(root).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _library_versions(fn: Callable[..., Any], seen: set[int] | None = None) -> dict[str, str]:
    """The libraries a script or notebook function refers to, each with a version: this
    project's packages by a digest of their source, others by their installed version.

    Follows the global names of ``fn``'s code (modules, functions, classes), recursing into
    the other ``__main__`` functions it calls."""
    seen = set() if seen is None else seen
    if id(fn) in seen:
        return {}
    seen.add(id(fn))
    code = getattr(fn, "__code__", None)
    if code is None:
        return {}
    names: set[str] = set()
    stack = [code]
    while stack:   # the global names of fn and of its nested functions and comprehensions
        c = stack.pop()
        names.update(c.co_names)
        stack.extend(k for k in c.co_consts if inspect.iscode(k))
    found: dict[str, str] = {}
    scope = getattr(fn, "__globals__", {})
    for name in sorted(names):
        obj = scope.get(name)
        if obj is None:
            continue
        origin = obj.__name__ if inspect.ismodule(obj) else getattr(obj, "__module__", None)
        if not isinstance(origin, str):
            continue
        top = origin.split(".")[0]
        if top == "__main__":
            if callable(obj) and obj is not fn:
                found.update(_library_versions(obj, seen))
            continue
        if top in found or top in sys.stdlib_module_names or top == "builtins":
            continue
        if top in PROJECT_PACKAGES:
            digest = _package_digest(top)
            found[top] = digest[:16] if digest else "unknown"
            continue
        try:
            found[top] = importlib.metadata.version(top)
        except (importlib.metadata.PackageNotFoundError, ValueError):
            found[top] = str(getattr(sys.modules.get(top), "__version__", "unknown"))
    return found


def code_version(fn: Callable[..., Any]) -> str:
    """A version of the code behind ``fn``: a digest of its whole top-level package.

    For a function of an installed or importable package (e.g. ``seprank``) this hashes every
    ``.py`` file of that package, so that *any* change of the code invalidates stored results.
    A function of a single-file module, or of a script run as ``python case.py`` (the same
    name and version as ``import case``), hashes the file; a function defined in a notebook
    hashes its own source.  For both, the version also covers the libraries the function
    calls: this project's packages (``seprank``, ``identifiability``, ``paper_checks``) by a
    digest of their source, others by their installed version -- so a library update
    invalidates what a notebook stored.  Pass ``version=`` to :func:`sweep` to pin a version
    by hand instead.

    Parameters
    ----------
    fn : callable
        The task function.

    Returns
    -------
    str
        The digest.

    Examples
    --------
    A function of this package is versioned by the whole package (stable between calls):

    >>> v = code_version(sweep)
    >>> v.startswith("seprank-") and v == code_version(available_cores)
    True
    """
    module = inspect.getmodule(fn)
    top = module_name(fn).split(".")[0]
    package = sys.modules.get(top) if top != "__main__" else None
    paths = list(getattr(package, "__path__", []))
    if paths:
        return f"{top}-{(_package_digest(top) or '')[:16]}"
    digest = hashlib.sha256()
    file = getattr(module, "__file__", None) if module is not None else None
    if file and Path(str(file)).suffix == ".py" and Path(str(file)).is_file():
        digest.update(Path(str(file)).read_bytes())
    else:
        try:
            digest.update(inspect.getsource(fn).encode())
        except (OSError, TypeError) as exc:
            raise ValueError(f"cannot read the source of {fn!r} to version its results; pass "
                             "version='...' to sweep()") from exc
    for library, version in sorted(_library_versions(fn).items()):
        digest.update(f"\n{library}=={version}".encode())
    return f"{top}-{digest.hexdigest()[:16]}"


@dataclass(frozen=True)
class SweepRecord:
    """One parameter set of a sweep, its key, its outcome (value or error, timings, memory,
    worker: a :class:`~seprank.sweeps.measure.TaskOutcome`) and whether it was computed now or
    loaded from the store.

    Parameters
    ----------
    params : Mapping
        The parameter set.
    key : TaskKey
        Its key in the store.
    outcome : TaskOutcome
        Value or error, timings, memory, worker.
    source : {'computed', 'store'}
        Computed now, or loaded from the store.
    """

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
        (:meth:`~seprank.sweeps.measure.TaskOutcome.measurements`) and the source, flat.

        Returns
        -------
        dict
            The flat record.
        """
        return {**self.params, **self.outcome.measurements(), "source": self.source}


@dataclass(frozen=True, repr=False)
class SweepResult:
    """Every parameter set's record, in the order the parameter sets were given.

    Parameters
    ----------
    fn : str
        The task function's name.
    version : str
        The code version.
    records : tuple of SweepRecord
        One per parameter set, in order.
    wall_seconds : float
        Wall time of the sweep.
    executor : str
        Where it ran.
    skipped : tuple of SkippedRow
        Stored rows that were not served.
    """

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
        """The values in parameter order (None where the task failed).

        Returns
        -------
        list
            The values.
        """
        return [r.value for r in self.records]

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per parameter set (see :meth:`SweepRecord.as_dict`), with the
        function's name and the code version that produced it.

        Returns
        -------
        list of dict
            The flat records.
        """
        return [{**r.as_dict(), "fn": self.fn, "version": self.version} for r in self.records]

    def to_dataframe(self) -> Any:
        """The records as a pandas DataFrame (needs pandas, which is optional).

        Returns
        -------
        pandas.DataFrame
            One row per parameter set.
        """
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError("to_dataframe() needs pandas (pip install pandas); "
                              "to_records() gives the same rows as dicts") from exc
        return pd.DataFrame.from_records(self.to_records())

    def __repr__(self) -> str:
        return (f"SweepResult(fn={self.fn!r}, tasks={len(self)}, computed={self.n_computed}, "
                f"loaded={self.n_loaded}, failed={len(self.failures)}, "
                f"executor={self.executor!r})")

    def table(self, *, limit: int = 20) -> tuple[list[str], list[list[str]]]:
        """Header and rows (parameters, status, value, seconds, source), values summarised;
        at most ``limit`` rows (the first ones).

        Parameters
        ----------
        limit : int, default 20
            The most rows returned (keyword-only); the first tasks are kept.

        Returns
        -------
        header : list of str
            The parameter names, then ``status``, ``value``, ``seconds``, ``source``.
        rows : list of list of str
            One row of cells per task, in the header's order (an error's message in place of
            the value of a failed task).
        """
        keys = list(dict.fromkeys(k for r in self.records for k in r.params))
        header = [*keys, "status", "value", "seconds", "source"]
        rows = [[summarize(r.params.get(k, ""), 30) for k in keys]
                + [r.status, _cell(r.value) if r.status == "ok" else
                   summarize(r.outcome.error, 60),
                   "" if r.outcome.seconds is None else f"{r.outcome.seconds:.2f}", r.source]
                for r in self.records[:limit]]
        return header, rows

    def _repr_markdown_(self) -> str:
        header, rows = self.table()
        lines = [f"**{self.summary().splitlines()[0]}**", "",
                 "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(c.replace("|", "&#124;") for c in row) + " |"
                  for row in rows]
        if len(self) > len(rows):
            lines.append(f"\n… {len(self) - len(rows)} more tasks")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        header, rows = self.table()
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                       for row in rows)
        more = f"<p>… {len(self) - len(rows)} more tasks</p>" if len(self) > len(rows) else ""
        return (f"<div><p><b>{html.escape(self.summary().splitlines()[0])}</b></p>"
                f"<table><tr>{head}</tr>{body}</table>{more}</div>")

    def plot(self, x: str | None = None, *, y: str | Callable[[Any], Any] | None = None,
             bound: Callable[[Mapping[str, Any]], Any] | None = None, ax: Any = None) -> Any:
        """The values against a parameter, one line per setting of the other parameters,
        and a bound as dashed lines; returns the matplotlib Axes (a new one unless ``ax=``).

        Parameters
        ----------
        x : str, optional
            The parameter on the horizontal axis (default: the first that varies).
        y : str or callable, optional, keyword-only
            What to plot of each value: a key (of a dict value) or attribute name, or a
            function of the value.  Default: the value itself when it is a number, else its
            ``rank``.
        bound : callable, optional, keyword-only
            ``bound(params)`` -> a number or a :class:`seprank.d2w.Bound` (its ``value``),
            drawn dashed -- e.g. ``lambda p: d2w.theorem3_upper(width=p["width"],
            depth=p["depth"])``.
        ax : matplotlib Axes, optional, keyword-only
            Where to draw; None (the default) makes a new figure.

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn on: one line per setting of the other parameters, and the bound.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> def square(n):
        ...     return n * n
        >>> result = sweep(square, [{"n": n} for n in range(1, 5)], executor="serial",
        ...                progress=False)
        >>> ax = result.plot(bound=lambda p: 2 ** p["n"])
        >>> [line.get_label() for line in ax.get_lines()]
        ['square', 'bound']
        """
        import matplotlib.pyplot as plt

        ok = [r for r in self.records if r.status == "ok"]
        keys = list(dict.fromkeys(k for r in ok for k in r.params))
        varying = [k for k in keys if len({repr(r.params.get(k)) for r in ok}) > 1]
        if x is None:
            x = varying[0] if varying else (keys[0] if keys else None)
        if x is None or x not in keys:
            raise ValueError(f"x must name a parameter of this sweep, one of {keys}; got {x!r}")
        others = [k for k in varying if k != x]

        def value_of(v: Any) -> float:
            if callable(y):
                got = y(v)
            elif isinstance(y, str):
                got = v[y] if isinstance(v, Mapping) else getattr(v, y)
            elif isinstance(v, int | float) and not isinstance(v, bool):
                got = v
            elif hasattr(v, "rank"):
                got = v.rank
            else:
                raise TypeError(f"cannot plot a {type(v).__name__} value; pass y= (a key, an "
                                "attribute name or a function of the value)")
            return float(getattr(got, "value", got))

        if ax is None:
            _, ax = plt.subplots(figsize=(5.5, 3.5))
        groups: dict[tuple[Any, ...], list[SweepRecord]] = {}
        for r in ok:
            groups.setdefault(tuple(r.params.get(k) for k in others), []).append(r)
        for i, (setting, records) in enumerate(groups.items()):
            records = sorted(records, key=lambda r: r.params[x])
            xs = [r.params[x] for r in records]
            label = ", ".join(f"{k}={v}" for k, v in zip(others, setting, strict=True))
            ax.plot(xs, [value_of(r.value) for r in records], "o-", color=f"C{i % 10}",
                    label=label or self.fn.rsplit(".", 1)[-1])
            if bound is not None:
                ax.plot(xs, [float(getattr(bound(r.params), "value", bound(r.params)))
                             for r in records], "--",
                        color=f"C{i % 10}", label=f"bound{', ' + label if label else ''}")
        if all(isinstance(r.params[x], int) for r in ok):
            ax.xaxis.get_major_locator().set_params(integer=True)
        if ok and all(value_of(r.value) > 0 for r in ok):
            ax.set_yscale("log")
        ax.set_xlabel(x)
        ax.set_ylabel(y if isinstance(y, str) else "value")
        ax.legend(fontsize=8)
        return ax

    def summary(self) -> str:
        """One line: tasks computed and loaded, failures, wall time, then one line per failure.

        Returns
        -------
        str
            The summary.
        """
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


def _cell(value: Any) -> str:
    """A sweep value in a table cell: a rank result by its rank and what it certifies."""
    if hasattr(value, "rank") and hasattr(value, "certifies"):
        return f"{value.rank} ({value.certifies})"
    return summarize(value, 60)


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


def _run_on_dask(client: Any, fn: Callable[..., Any], params: Sequence[dict[str, Any]],
                 keys: Sequence[TaskKey], order: Sequence[int],
                 deliver: Callable[[int, TaskOutcome], None],
                 timeout: float | None = None) -> None:
    distributed = require("distributed", feature="a sweep on a dask cluster")
    as_completed, wait = distributed.as_completed, distributed.wait

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
                                  lambda f: deliver(futures[f], timeout_outcome(timeout)))
    finally:
        if pending:
            client.cancel(list(pending))


def _priority(priority: Callable[[Mapping[str, Any]], Any], params: Mapping[str, Any]) -> float:
    """``priority(params)`` as a finite float (a NaN would leave the order undefined)."""
    value = priority(params)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not math.isfinite(float(value)):
        raise ValueError(f"priority({dict(params)}) returned {value!r}; it must return a "
                         "finite number (higher starts first)")
    return float(value)


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
        Show a progress bar (the toolkit's policy, :mod:`seprank.core.progress`: one bar, shown
        once the sweep has run 2 s); False silences the tasks' own bars too.
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
    limit = check_timeout(timeout, executor)
    param_sets = _validated_params(params)
    for label, given in (("name", name), ("version", version)):
        if given is not None and not isinstance(given, str):
            raise TypeError(f"{label} must be a str (or None for the default), got {given!r}")
        if given is not None and not given.strip():
            raise ValueError(f"{label} must be a non-empty str (or None for the default), got "
                             f"{given!r}")
    serial = isinstance(executor, str) and executor == "serial"
    if isinstance(executor, str) and not serial:
        check_scheduler_address(executor)
    elif isinstance(executor, np.ndarray):
        raise TypeError(f"executor must be None, a number of workers, 'serial', a scheduler "
                        f"address or a distributed.Client, got an array {executor!r}")
    if priority is not None and not callable(priority):
        raise TypeError(f"priority must be a function of a parameter set, got {priority!r}")
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
        ranks = {i: _priority(priority, param_sets[i]) for i in todo}
        todo.sort(key=lambda i: -ranks[i])
    bar = progress_bar(total=len(keys), initial=len(keys) - len(todo), unit="task",
                       desc=fname.rsplit(".", 1)[-1], progress=None if progress else False)

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
            bar.set_postfix_str(f"{n_failed} failed")
        bar.update(1)

    try:
        if not todo:
            description = "nothing to compute"
        elif serial:
            description = "this process, serially"
            for i in todo:
                deliver(i, run_serial(fn, param_sets[i], limit))
        else:
            with dask_client(executor) as (client, description):
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
