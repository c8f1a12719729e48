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

Values come back with their exact types: plain JSON data (dicts with string keys, lists,
strings, ints, finite floats, bools, None -- exactly those types) is stored as JSON, anything
else pickled (a ``Counter`` stays a ``Counter``, an ``IntEnum`` an ``IntEnum``, a numpy scalar a
numpy scalar); a value that does not pickle, does not come back as its own type, or is larger
than ``max_value_bytes`` is refused when it is written, with its type named.
:meth:`ResultStore.records` returns plain dicts, and :meth:`ResultStore.to_dataframe` a pandas
DataFrame when pandas is installed (it is not a dependency).

Integrity.  The file records its schema version (``PRAGMA user_version``,
:data:`SCHEMA_VERSION`); a file of the unversioned layout of seprank 0.3 is migrated in place
(checksums computed for its rows), a newer or unknown layout is refused with what was found.
Every stored value has a SHA-256 checksum (table ``checksums``), verified on every read: a row
whose checksum does not match (the file was edited or damaged), or whose value cannot be
decoded any more (its class no longer imports, a damaged pickle), is not served -- it is
reported by key (a ``RuntimeWarning``, and :attr:`ResultStore.skipped` / ``corrupt``), treated
as missing, and replaced by the next write of that key.  An existing file that is empty
(0 bytes) or does not start with the SQLite header is refused, never re-initialised: a
truncated store would otherwise silently become an empty one and every result be recomputed.
A new file is created complete (schema written to a temporary file, then linked into place),
so no other process ever sees it half made.

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

import hashlib
import json
import math
import os
import pickle
import sqlite3
import time
import uuid
import warnings
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from seprank.core.validation import check_choice, check_float, check_instance, check_int
from seprank.sweeps.measure import Status, TaskOutcome

__all__ = ["SCHEMA_VERSION", "ResultStore", "SkippedRow", "StoredResult", "TaskKey",
           "canonical_params"]

BUSY_TIMEOUT_SECONDS = 120.0
#: The store's schema (``PRAGMA user_version``).  1: the unversioned ``results`` table of
#: seprank 0.3 (user_version 0; migrated on open); 2: plus a SHA-256 checksum per value.
SCHEMA_VERSION = 2
#: Largest encoded value :meth:`ResultStore.put` writes by default (SQLite's own limit is 1e9).
MAX_VALUE_BYTES = 256 * 2**20
#: The first 16 bytes of every SQLite database file.
_SQLITE_HEADER = b"SQLite format 3\x00"

_CHECKSUMS = """
CREATE TABLE checksums (
    fn TEXT NOT NULL,
    params TEXT NOT NULL,
    seed TEXT NOT NULL,
    version TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (fn, params, seed, version)
)
"""
_SCHEMA = """
CREATE TABLE results (
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

    Parameters
    ----------
    params : Mapping
        A parameter set.

    Returns
    -------
    str
        Its canonical JSON.

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
    """What identifies a task in the store: function, parameters, seed, code version.

    Parameters
    ----------
    fn : str
        The task function's name.
    params : str
        The canonical JSON of the parameters (without the seed).
    seed : str
        The seed, as text.
    version : str
        The code version.
    """

    fn: str
    params: str
    seed: str
    version: str

    @classmethod
    def of(cls, fn: str, params: Mapping[str, Any], *, version: str) -> TaskKey:
        """The key of ``fn(**params)``; a ``seed`` entry of ``params`` becomes the seed.

        Parameters
        ----------
        fn : str
            The task function's name.
        params : Mapping
            Its keyword arguments.
        version : str, keyword-only
            The code version.

        Returns
        -------
        TaskKey
            The key.
        """
        for label, value in (("fn", fn), ("version", version)):
            if not isinstance(value, str):
                raise TypeError(f"TaskKey.of: {label} must be a str, got {value!r}")
            if not value.strip():
                raise ValueError(f"TaskKey.of: {label} must be a non-empty str, got {value!r}")
        rest = {k: v for k, v in params.items() if k != "seed"}
        seed = json.dumps(_plain(params.get("seed"), "the seed"), sort_keys=True,
                          separators=(",", ":"))
        return cls(fn, canonical_params(rest), seed, version)

    def as_tuple(self) -> tuple[str, str, str, str]:
        """The key's four fields, in order.

        Returns
        -------
        (str, str, str, str)
            ``(fn, params, seed, version)``.
        """
        return (self.fn, self.params, self.seed, self.version)


@dataclass(frozen=True)
class StoredResult:
    """One row of the store, decoded: the task's key, its outcome and when it was written.

    Parameters
    ----------
    key : TaskKey
        The task's key.
    outcome : TaskOutcome
        Its outcome.
    written : float
        When it was written (Unix time).
    """

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
        status, value, error and measurements (:meth:`TaskOutcome.measurements`).

        Returns
        -------
        dict
            The flat record.
        """
        out: dict[str, Any] = dict(json.loads(self.key.params))
        out["seed"] = json.loads(self.key.seed)
        out.update(fn=self.key.fn, version=self.key.version, **self.outcome.measurements())
        return out


def _exact_json(value: Any) -> bool:
    """Whether ``value`` is plain JSON data of exactly the types JSON gives back (so that a
    JSON round trip returns an equal value of the same type, nested types included)."""
    kind = type(value)
    if value is None or kind in (str, int, bool):
        return True
    if kind is float:
        return math.isfinite(value)
    if kind is list:
        return all(_exact_json(v) for v in value)
    if kind is dict:
        return all(type(k) is str and _exact_json(v) for k, v in value.items())
    return False


def _encode(value: Any, max_bytes: int) -> tuple[str, bytes | None]:
    """``(codec, blob)`` of a value that comes back exactly; refuses anything else."""
    if value is None:
        return "none", None
    shown = type(value).__module__ + "." + type(value).__qualname__
    if _exact_json(value):
        codec, blob = "json", json.dumps(value, allow_nan=False).encode()
    else:
        try:
            blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            back = pickle.loads(blob)
        except Exception as exc:
            raise TypeError(f"a value of type {shown} cannot be stored: it does not pickle "
                            f"({type(exc).__name__}: {exc}); return plain data (numbers, "
                            "strings, lists, dicts) or a picklable object") from exc
        if type(back) is not type(value):
            raise TypeError(f"a value of type {shown} cannot be stored: it comes back from "
                            f"pickle as {type(back).__qualname__}; return plain data instead")
        codec = "pickle"
    if len(blob) > max_bytes:
        raise ValueError(f"a value of type {shown} needs {len(blob)} bytes, above the store's "
                         f"max_value_bytes = {max_bytes}; store a summary, or open the store "
                         "with a larger max_value_bytes")
    return codec, blob


def _decode(codec: str, blob: bytes | None) -> Any:
    if codec == "none":
        if blob is not None:
            raise ValueError("a value is stored under codec 'none'")
        return None
    if blob is None:
        raise ValueError(f"codec {codec!r} without a value")
    if codec == "json":
        return json.loads(bytes(blob).decode())
    if codec == "pickle":
        return pickle.loads(bytes(blob))
    raise ValueError(f"unknown codec {codec!r}")


def _digest(status: str, codec: str, blob: bytes | None) -> str:
    """SHA-256 of what a row's value is: its status, codec and encoded bytes."""
    h = hashlib.sha256(f"{status}\x00{codec}\x00".encode())
    if blob is not None:
        h.update(bytes(blob))
    return h.hexdigest()


@dataclass(frozen=True)
class SkippedRow:
    """A stored row that was not served: its key and why (checksum mismatch, missing
    checksum, undecodable value).

    Parameters
    ----------
    key : TaskKey
        The row's key.
    reason : str
        Why it was not served.
    """

    key: TaskKey
    reason: str


class ResultStore:
    """An SQLite file of task results, safe for concurrent writers.

    Parameters
    ----------
    path : str or os.PathLike
        The database file (created with its folder if missing), or ``":memory:"`` for a
        store that lives as long as this object (tests, one-off sweeps).  An existing file
        must be a ResultStore: an empty (0-byte) or truncated file, another SQLite database
        or a store of a newer schema is refused (module notes).
    timeout : float, keyword-only
        Seconds a writer waits for another writer's transaction before failing (default 120).
    max_value_bytes : int, keyword-only
        Largest encoded value :meth:`put` writes (default :data:`MAX_VALUE_BYTES`).

    Attributes
    ----------
    skipped : list of SkippedRow
        Rows this object found unusable while reading (checksum mismatch, undecodable value),
        each reported once; ``corrupt`` is their number.

    Notes
    -----
    The object holds no open connection when pickled: each process opens its own on first
    use (an SQLite connection must not cross a fork).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "empty.sqlite")
    >>> open(path, "wb").close()                        # a truncated store: 0 bytes
    >>> ResultStore(path).count()
    Traceback (most recent call last):
    ...
    ValueError: path ... is an empty file (0 bytes), not a ResultStore: it was probably truncated...
    """

    def __init__(self, path: str | os.PathLike[str], *,
                 timeout: float = BUSY_TIMEOUT_SECONDS,
                 max_value_bytes: int = MAX_VALUE_BYTES) -> None:
        if not isinstance(path, str | os.PathLike):
            raise TypeError(f"path must be a file path or ':memory:', got {path!r}")
        self.path = str(path)
        self.timeout = check_float("timeout", timeout, positive=True,
                                   hint="a number of seconds to wait for a locked database")
        self.max_value_bytes = check_int("max_value_bytes", max_value_bytes, 1)
        self.skipped: list[SkippedRow] = []
        self._conn: sqlite3.Connection | None = None
        self._pid: int | None = None

    def __repr__(self) -> str:
        return f"ResultStore({self.path!r})"

    def __getstate__(self) -> dict[str, Any]:
        if self.path == ":memory:":
            raise TypeError("an in-memory ResultStore cannot be sent to another process; "
                            "give it a file path")
        return {"path": self.path, "timeout": self.timeout,
                "max_value_bytes": self.max_value_bytes}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"], timeout=state["timeout"],  # type: ignore[misc]
                      max_value_bytes=state.get("max_value_bytes", MAX_VALUE_BYTES))

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
    def corrupt(self) -> int:
        """How many stored rows this object has skipped as unusable (see :attr:`skipped`)."""
        return len(self.skipped)

    # ------------------------------------------------------------------ opening
    def _check_file(self) -> bool:
        """Refuse an existing path that is not a SQLite file; returns whether it exists."""
        path = Path(self.path)
        if not path.exists():
            return False
        if not path.is_file():
            raise ValueError(f"path {self.path!r} is not a regular file; give the path of a "
                             "ResultStore file (it is created if missing)")
        size = path.stat().st_size
        if size == 0:
            raise ValueError(
                f"path {self.path!r} is an empty file (0 bytes), not a ResultStore: it was "
                "probably truncated. It is not re-initialised (every stored result would be "
                "silently recomputed); restore it from a backup, or delete it to start a new "
                "store")
        with open(path, "rb") as fh:
            head = fh.read(len(_SQLITE_HEADER))
        if head != _SQLITE_HEADER or size < 100:
            raise ValueError(
                f"path {self.path!r} ({size} bytes) does not start with the SQLite header: "
                "it is not a ResultStore, or it was truncated or overwritten; restore it from "
                "a backup, or use another path")
        return True

    def _create_file(self) -> None:
        """Create the store file complete: schema in a temporary file, then linked into
        place (a concurrent creator's file wins; nobody sees a half-made store)."""
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp")
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            self._create_tables(conn)
            if mode.lower() == "wal":
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        except OSError:  # no hard links on this file system
            if not path.exists():
                os.replace(tmp, path)
        finally:
            for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                leftover.unlink(missing_ok=True)

    @staticmethod
    def _create_tables(conn: sqlite3.Connection) -> None:
        conn.execute(_SCHEMA)
        conn.execute(_CHECKSUMS)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _tables(self, conn: sqlite3.Connection) -> dict[str, list[str]]:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {n: [r[1] for r in conn.execute(f"PRAGMA table_info({n})")] for n in names}

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Bring the file to :data:`SCHEMA_VERSION` (migrating the unversioned layout) or
        refuse it with what was found."""
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise ValueError(f"{self.path!r} is a ResultStore of schema {version}, written by a "
                             f"newer seprank (this one reads schema <= {SCHEMA_VERSION}); "
                             "upgrade seprank to read it")
        if version == SCHEMA_VERSION and self._tables(conn) == self._expected():
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            tables = self._tables(conn)
            if version == SCHEMA_VERSION and tables == self._expected():
                pass                                          # another process migrated it
            elif version == 0 and not tables:
                self._create_tables(conn)                     # a new, empty database
            elif version == 0 and tables == {"results": list(_COLUMNS)}:
                self._migrate_from_1(conn)
            else:
                raise ValueError(
                    f"{self.path!r} is not a ResultStore this version can read: schema "
                    f"{version}, tables {tables} (expected {self._expected()} at schema "
                    f"{SCHEMA_VERSION}, or the unversioned 'results' table of seprank 0.3); "
                    "use another path")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @staticmethod
    def _expected() -> dict[str, list[str]]:
        return {"results": list(_COLUMNS), "checksums": ["fn", "params", "seed", "version",
                                                         "sha256"]}

    @staticmethod
    def _migrate_from_1(conn: sqlite3.Connection) -> None:
        """Schema 1 -> 2: add the checksums of the values as they are now."""
        conn.execute(_CHECKSUMS)
        rows = conn.execute("SELECT fn, params, seed, version, status, codec, value "
                            "FROM results").fetchall()
        conn.executemany("INSERT INTO checksums VALUES (?, ?, ?, ?, ?)",
                         [(*r[:4], _digest(r[4], r[5], r[6])) for r in rows])
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def connection(self) -> sqlite3.Connection:
        if self._conn is None or self._pid != os.getpid():
            if self.path != ":memory:" and not self._check_file():
                self._create_file()
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            try:
                conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
                if self.path != ":memory:":
                    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                    if mode.lower() == "wal":
                        conn.execute("PRAGMA synchronous = NORMAL")
                self._check_schema(conn)
            except sqlite3.DatabaseError as err:
                conn.close()
                raise ValueError(f"{self.path!r} is not a readable ResultStore ({err}); "
                                 "restore it from a backup, or use another path") from err
            except BaseException:
                conn.close()
                raise
            self._conn, self._pid = conn, os.getpid()
        return self._conn

    # ------------------------------------------------------------------ writing
    def put(self, key: TaskKey, outcome: TaskOutcome) -> bool:
        """Write one task's outcome in one transaction; returns whether the row was written.

        A key that already holds a usable ``status='ok'`` row is left unchanged (False); a
        stored failure, or a row that fails its checksum or cannot be decoded, is replaced.

        Parameters
        ----------
        key : TaskKey
            The task's key.
        outcome : TaskOutcome
            Its outcome.

        Returns
        -------
        bool
            Whether the row was written.

        Raises
        ------
        TypeError
            The value cannot be stored exactly (it does not pickle, or comes back as another
            type): the type is named.
        ValueError
            The encoded value is larger than ``max_value_bytes``.
        """
        check_instance("key", key, TaskKey, expected="a TaskKey",
                       hint="build it with TaskKey.of(fn, params, version=...)")
        check_instance("outcome", outcome, TaskOutcome, expected="a TaskOutcome",
                       hint="e.g. TaskOutcome('ok', value) or what run_task returned")
        codec, blob = _encode(outcome.value, self.max_value_bytes)
        row = (*key.as_tuple(), outcome.status, codec, blob,
               *(getattr(outcome, name) for name in _MEASURED), time.time())
        conn = self.connection
        conn.execute("BEGIN IMMEDIATE")
        try:
            old = conn.execute(
                "SELECT r.status, r.codec, r.value, c.sha256 FROM results r LEFT JOIN checksums"
                " c USING (fn, params, seed, version) WHERE r.fn = ? AND r.params = ? AND "
                "r.seed = ? AND r.version = ?", key.as_tuple()).fetchone()
            if old is not None and old[0] == "ok" and self._decoded(*old)[0] is None:
                conn.execute("COMMIT")
                return False
            conn.execute(f"INSERT OR REPLACE INTO results ({', '.join(_COLUMNS)}) VALUES "
                         f"({', '.join('?' * len(_COLUMNS))})", row)
            conn.execute("INSERT OR REPLACE INTO checksums VALUES (?, ?, ?, ?, ?)",
                         (*key.as_tuple(), _digest(outcome.status, codec, blob)))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return True

    # ------------------------------------------------------------------ reading
    @staticmethod
    def _decoded(status: str, codec: str, blob: bytes | None,
                 sha: str | None) -> tuple[str | None, Any]:
        """``(problem, value)``: why a stored row cannot be served (None if it can), and its
        decoded value."""
        if isinstance(blob, str):                 # text written into the value column by hand
            blob = blob.encode()
        elif blob is not None and not isinstance(blob, bytes | memoryview):
            return f"its value is an SQL {type(blob).__name__}, not a blob", None
        if sha is None and blob is not None:
            return "its value has no checksum (written outside ResultStore?)", None
        if sha is not None and _digest(status, codec, blob) != sha:
            return "its checksum does not match (the file was edited or damaged)", None
        try:
            return None, _decode(codec, blob)
        except Exception as exc:
            return f"its value cannot be decoded ({type(exc).__name__}: {exc})", None

    def _report(self, key: TaskKey, reason: str) -> None:
        row = SkippedRow(key, reason)
        if row in self.skipped:
            return
        self.skipped.append(row)
        warnings.warn(f"ResultStore {self.path!r}: the stored result of {key.fn} with params "
                      f"{key.params}, seed {key.seed}, version {key.version} is skipped: "
                      f"{reason}; it counts as missing (a sweep recomputes it)",
                      RuntimeWarning, stacklevel=4)

    def _rows(self, where: str = "", args: Iterable[Any] = ()) -> Iterator[StoredResult]:
        columns = ", ".join(f"r.{c}" for c in _COLUMNS)
        cursor = self.connection.execute(
            f"SELECT {columns}, c.sha256 FROM results r LEFT JOIN checksums c "
            f"USING (fn, params, seed, version) {where} ORDER BY r.written, r.rowid",
            tuple(args))
        for fn, params, seed, version, status, codec, blob, *rest in cursor.fetchall():
            *measured, written, sha = rest
            key = TaskKey(fn, params, seed, version)
            problem, value = self._decoded(status, codec, blob, sha)
            if problem is not None:
                self._report(key, problem)
                continue
            yield StoredResult(key, TaskOutcome(status, value, *measured), written)

    def get(self, key: TaskKey) -> StoredResult | None:
        """The stored result of ``key``, or None (also when its row is unusable).

        Parameters
        ----------
        key : TaskKey
            The task's key.

        Returns
        -------
        StoredResult or None
            The result.
        """
        check_instance("key", key, TaskKey, expected="a TaskKey",
                       hint="build it with TaskKey.of(fn, params, version=...)")
        rows = list(self._rows("WHERE r.fn = ? AND r.params = ? AND r.seed = ? AND "
                               "r.version = ?", key.as_tuple()))
        return rows[0] if rows else None

    def lookup(self, fn: str, version: str) -> dict[TaskKey, StoredResult]:
        """Every usable stored result of ``fn`` at ``version``, by key (one query).

        Parameters
        ----------
        fn : str
            The task function's name.
        version : str
            The code version.

        Returns
        -------
        dict of TaskKey to StoredResult
            The results.
        """
        _check_text("fn", fn)
        _check_text("version", version)
        return {r.key: r for r in self._rows("WHERE r.fn = ? AND r.version = ?",
                                             (fn, version))}

    def results(self, *, fn: str | None = None, version: str | None = None,
                status: Status | None = None) -> list[StoredResult]:
        """Stored results, optionally only of one function / version / status
        (``'ok'`` or ``'error'``).

        Parameters
        ----------
        fn : str, optional, keyword-only
            Only this function.
        version : str, optional, keyword-only
            Only this code version.
        status : {'ok', 'error'}, optional, keyword-only
            Only this status.

        Returns
        -------
        list of StoredResult
            The results.
        """
        clauses, args = [], []
        if status is not None:
            check_choice("status", status, ("ok", "error"))
        for column, value in (("fn", fn), ("version", version), ("status", status)):
            if value is not None:
                _check_text(column, value)
                clauses.append(f"r.{column} = ?")
                args.append(value)
        return list(self._rows("WHERE " + " AND ".join(clauses) if clauses else "", args))

    def records(self, **filters: Any) -> list[dict[str, Any]]:
        """Stored results as flat dicts (see :meth:`StoredResult.record`).

        Parameters
        ----------
        **filters
            ``fn``, ``version``, ``status`` (see :meth:`results`).

        Returns
        -------
        list of dict
            The flat records.
        """
        return [r.record() for r in self.results(**filters)]

    def to_dataframe(self, **filters: Any) -> Any:
        """The records as a pandas DataFrame (needs pandas, which is optional).

        Parameters
        ----------
        **filters
            ``fn``, ``version``, ``status`` (see :meth:`results`).

        Returns
        -------
        pandas.DataFrame
            One row per result.
        """
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError("to_dataframe() needs pandas (pip install pandas); records() "
                              "returns the same rows as dicts") from exc
        return pd.DataFrame.from_records(self.records(**filters))

    def count(self, **filters: Any) -> int:
        """How many usable results match (see :meth:`results` for the filters).

        Parameters
        ----------
        **filters
            ``fn``, ``version``, ``status`` (see :meth:`results`).

        Returns
        -------
        int
            The count.
        """
        return len(self.results(**filters))

    def integrity_check(self) -> str:
        """SQLite's own check of the file: ``'ok'`` when the database is intact.

        Returns
        -------
        str
            ``'ok'``, or SQLite's report.
        """
        return str(self.connection.execute("PRAGMA integrity_check").fetchone()[0])


def _check_text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {value!r} ({type(value).__name__})")
    return value
