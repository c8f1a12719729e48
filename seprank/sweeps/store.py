r"""A resumable result store for sweeps: one SQLite file, one row per computed task.

A task is identified by its :class:`TaskKey` -- the function's qualified name, its parameters
(canonical JSON, sorted keys, the seed taken out), the seed and a *code version* -- so that a
rerun of an interrupted sweep finds what is already done and computes only what is missing,
and a result computed by other code (another version) is never taken for the current one.

Concurrency.  Every write is one SQLite transaction (``BEGIN IMMEDIATE``, a busy timeout, the
WAL journal where the file system allows it), so several processes may write to the same file
at once without corrupting it; a key that already holds a successful result keeps it (a second
writer of the same task changes nothing), a stored failure is replaced by a later success.
:func:`seprank.sweeps.run.sweep` itself writes from its client process only (one writer).

Values are stored as JSON when they survive a JSON round trip unchanged (plain dicts, lists,
numbers, strings), otherwise pickled; :meth:`ResultStore.records` returns plain dicts, and
:meth:`ResultStore.to_dataframe` a pandas DataFrame when pandas is installed (it is not a
dependency).

Examples
--------
>>> store = ResultStore(":memory:")
>>> key = TaskKey.of("pkg.f", {"n": 3, "seed": 0}, version="v1")
>>> key.params, key.seed
('{"n":3}', '0')
>>> store.put(key, TaskOutcome("ok", {"rank": 6}, seconds=0.5))
True
>>> store.put(key, TaskOutcome("ok", {"rank": 7}, seconds=0.5))   # done already: kept
False
>>> [(r["n"], r["value"]) for r in store.records()]
[(3, {'rank': 6})]
"""

from __future__ import annotations

import json
import os
import pickle
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from seprank.core.validation import check_float, check_instance
from seprank.sweeps.measure import Status, TaskOutcome

__all__ = ["ResultStore", "StoredResult", "TaskKey", "canonical_params"]

BUSY_TIMEOUT_SECONDS = 120.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    fn TEXT NOT NULL,
    params TEXT NOT NULL,
    seed TEXT NOT NULL,
    version TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
    codec TEXT NOT NULL CHECK (codec IN ('json', 'pickle', 'none')),
    value BLOB,
    error TEXT,
    traceback TEXT,
    seconds REAL,
    cpu_seconds REAL,
    peak_rss_bytes INTEGER,
    peak_increase_bytes INTEGER,
    memory_method TEXT,
    worker TEXT,
    written REAL NOT NULL,
    PRIMARY KEY (fn, params, seed, version)
)
"""
#: The outcome's fields after ``status`` and ``value``: one column each, in the table's order.
_MEASURED = tuple(f.name for f in fields(TaskOutcome))[2:]
_COLUMNS = ("fn", "params", "seed", "version", "status", "codec", "value", *_MEASURED, "written")


def _plain(value: Any, where: str) -> Any:
    """``value`` as JSON-ready data (numpy scalars unwrapped, tuples as lists), or raise."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if hasattr(value, "item") and getattr(value, "shape", None) == ():  # numpy scalar
        return _plain(value.item(), where)
    if isinstance(value, list | tuple):
        return [_plain(v, where) for v in value]
    if isinstance(value, Mapping):
        if not all(isinstance(k, str) for k in value):
            raise TypeError(f"{where}: dictionary keys must be strings, got {list(value)}")
        return {k: _plain(v, where) for k, v in value.items()}
    raise TypeError(f"{where} must be JSON data (numbers, strings, lists, dicts), got "
                    f"{type(value).__name__} {value!r}; pass a number or a string instead")


def canonical_params(params: Mapping[str, Any]) -> str:
    """Canonical JSON of a parameter set: sorted keys, no spaces, tuples as lists.

    Examples
    --------
    Two spellings of one parameter set have one key:

    >>> canonical_params({"b": (1, 2), "a": 0.1}) == canonical_params({"a": 0.1, "b": [1, 2]})
    True
    >>> canonical_params({"b": (1, 2), "a": 0.1})
    '{"a":0.1,"b":[1,2]}'
    """
    if not isinstance(params, Mapping) or not all(isinstance(k, str) for k in params):
        raise TypeError(f"a parameter set must be a dict with string keys, got {params!r}")
    return json.dumps(_plain(dict(params), "a parameter value"), sort_keys=True,
                      separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True)
class TaskKey:
    """What identifies a task in the store: function, parameters, seed, code version."""

    fn: str
    params: str
    seed: str
    version: str

    @classmethod
    def of(cls, fn: str, params: Mapping[str, Any], *, version: str) -> TaskKey:
        """The key of ``fn(**params)``; a ``seed`` entry of ``params`` becomes the seed."""
        rest = {k: v for k, v in params.items() if k != "seed"}
        seed = json.dumps(_plain(params.get("seed"), "the seed"), sort_keys=True,
                          separators=(",", ":"))
        return cls(str(fn), canonical_params(rest), seed, str(version))

    def as_tuple(self) -> tuple[str, str, str, str]:
        return (self.fn, self.params, self.seed, self.version)


@dataclass(frozen=True)
class StoredResult:
    """One row of the store, decoded: the task's key, its outcome and when it was written."""

    key: TaskKey
    outcome: TaskOutcome
    written: float

    @property
    def status(self) -> Status:
        return self.outcome.status

    @property
    def value(self) -> Any:
        return self.outcome.value

    def record(self) -> dict[str, Any]:
        """A flat dict: the parameters, the seed, the function and version, then the outcome's
        status, value, error and measurements (:meth:`TaskOutcome.measurements`)."""
        out: dict[str, Any] = dict(json.loads(self.key.params))
        out["seed"] = json.loads(self.key.seed)
        out.update(fn=self.key.fn, version=self.key.version, **self.outcome.measurements())
        return out


def _encode(value: Any) -> tuple[str, bytes | None]:
    if value is None:
        return "none", None
    try:
        text = json.dumps(value, sort_keys=True, allow_nan=False)
        if json.loads(text) == value:
            return "json", text.encode()
    except (TypeError, ValueError):
        pass
    return "pickle", pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _decode(codec: str, blob: bytes | None) -> Any:
    if codec == "none" or blob is None:
        return None
    if codec == "json":
        return json.loads(bytes(blob).decode())
    return pickle.loads(bytes(blob))


class ResultStore:
    """An SQLite file of task results, safe for concurrent writers.

    Parameters
    ----------
    path : str or os.PathLike
        The database file (created with its folder if missing), or ``":memory:"`` for a
        store that lives as long as this object (tests, one-off sweeps).
    timeout : float, keyword-only
        Seconds a writer waits for another writer's transaction before failing (default 120).

    Notes
    -----
    The object holds no open connection when pickled: each process opens its own on first
    use (an SQLite connection must not cross a fork).
    """

    def __init__(self, path: str | os.PathLike[str], *,
                 timeout: float = BUSY_TIMEOUT_SECONDS) -> None:
        if not isinstance(path, str | os.PathLike):
            raise TypeError(f"path must be a file path or ':memory:', got {path!r}")
        self.path = str(path)
        self.timeout = check_float("timeout", timeout, positive=True,
                                   hint="a number of seconds to wait for a locked database")
        self._conn: sqlite3.Connection | None = None
        self._pid: int | None = None

    def __repr__(self) -> str:
        return f"ResultStore({self.path!r})"

    def __getstate__(self) -> dict[str, Any]:
        if self.path == ":memory:":
            raise TypeError("an in-memory ResultStore cannot be sent to another process; "
                            "give it a file path")
        return {"path": self.path, "timeout": self.timeout}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"], timeout=state["timeout"])  # type: ignore[misc]

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close this process's connection (reopened on the next use)."""
        if self._conn is not None and self._pid == os.getpid():
            self._conn.close()
        self._conn = None

    @property
    def connection(self) -> sqlite3.Connection:
        if self._conn is None or self._pid != os.getpid():
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            if self.path != ":memory:":
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if mode.lower() == "wal":
                    conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute(_SCHEMA)
            self._conn, self._pid = conn, os.getpid()
        return self._conn

    def put(self, key: TaskKey, outcome: TaskOutcome) -> bool:
        """Write one task's outcome in one transaction; returns whether the row was written.

        A key that already holds ``status='ok'`` is left unchanged (False); a stored failure
        is replaced.
        """
        check_instance("key", key, TaskKey, expected="a TaskKey",
                       hint="build it with TaskKey.of(fn, params, version=...)")
        check_instance("outcome", outcome, TaskOutcome, expected="a TaskOutcome",
                       hint="e.g. TaskOutcome('ok', value) or what run_task returned")
        codec, blob = _encode(outcome.value)
        row = (*key.as_tuple(), outcome.status, codec, blob,
               *(getattr(outcome, name) for name in _MEASURED), time.time())
        updates = ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS[4:])
        sql = (f"INSERT INTO results ({', '.join(_COLUMNS)}) VALUES "
               f"({', '.join('?' * len(_COLUMNS))}) "
               f"ON CONFLICT (fn, params, seed, version) DO UPDATE SET {updates} "
               "WHERE results.status != 'ok'")
        conn = self.connection
        conn.execute("BEGIN IMMEDIATE")
        try:
            changed = conn.execute(sql, row).rowcount
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return changed > 0

    def _rows(self, where: str = "", args: Iterable[Any] = ()) -> Iterator[StoredResult]:
        cursor = self.connection.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM results {where} ORDER BY written, rowid",
            tuple(args))
        for fn, params, seed, version, status, codec, blob, *measured, written in cursor:
            yield StoredResult(TaskKey(fn, params, seed, version),
                               TaskOutcome(status, _decode(codec, blob), *measured), written)

    def get(self, key: TaskKey) -> StoredResult | None:
        """The stored result of ``key``, or None."""
        rows = list(self._rows("WHERE fn = ? AND params = ? AND seed = ? AND version = ?",
                               key.as_tuple()))
        return rows[0] if rows else None

    def lookup(self, fn: str, version: str) -> dict[TaskKey, StoredResult]:
        """Every stored result of ``fn`` at ``version``, by key (one query)."""
        return {r.key: r for r in self._rows("WHERE fn = ? AND version = ?", (fn, version))}

    def results(self, *, fn: str | None = None, version: str | None = None,
                status: Status | None = None) -> list[StoredResult]:
        """Stored results, optionally only of one function / version / status."""
        clauses, args = [], []
        for column, value in (("fn", fn), ("version", version), ("status", status)):
            if value is not None:
                clauses.append(f"{column} = ?")
                args.append(value)
        return list(self._rows("WHERE " + " AND ".join(clauses) if clauses else "", args))

    def records(self, **filters: Any) -> list[dict[str, Any]]:
        """Stored results as flat dicts (see :meth:`StoredResult.record`)."""
        return [r.record() for r in self.results(**filters)]

    def to_dataframe(self, **filters: Any) -> Any:
        """The records as a pandas DataFrame (needs pandas, which is optional)."""
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError("to_dataframe() needs pandas (pip install pandas); records() "
                              "returns the same rows as dicts") from exc
        return pd.DataFrame.from_records(self.records(**filters))

    def count(self, **filters: Any) -> int:
        """How many results match (see :meth:`results` for the filters)."""
        return len(self.results(**filters))

    def integrity_check(self) -> str:
        """SQLite's own check of the file: ``'ok'`` when the database is intact."""
        return str(self.connection.execute("PRAGMA integrity_check").fetchone()[0])
