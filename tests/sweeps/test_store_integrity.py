"""The store refuses what it cannot trust (issue 24): truncated files, edited values, unknown
layouts, undecodable rows and values that would not come back as they went in."""

from __future__ import annotations

import collections
import enum
import sqlite3
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from seprank.sweeps.measure import TaskOutcome
from seprank.sweeps.run import sweep
from seprank.sweeps.store import SCHEMA_VERSION, ResultStore, TaskKey
from tests.sweeps import sweep_tasks

#: The table of seprank 0.3 (schema 1, no version recorded): what an old file holds.
LAYOUT_1 = """
CREATE TABLE results (
    fn TEXT NOT NULL, params TEXT NOT NULL, seed TEXT NOT NULL, version TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
    codec TEXT NOT NULL CHECK (codec IN ('json', 'pickle', 'none')),
    value BLOB, error TEXT, traceback TEXT, seconds REAL, cpu_seconds REAL,
    peak_rss_bytes INTEGER, peak_increase_bytes INTEGER, memory_method TEXT, worker TEXT,
    written REAL NOT NULL, PRIMARY KEY (fn, params, seed, version))
"""


class Colour(enum.IntEnum):
    RED = 1
    GREEN = 2


class Disguised:
    """Pickles as a plain dict: it would not come back as itself."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, ((("a", 1),),))


def _key(n: int = 0, fn: str = "f") -> TaskKey:
    return TaskKey.of(fn, {"n": n}, version="v")


def _filled(path: Path, values: dict[int, Any]) -> None:
    with ResultStore(path) as store:
        for n, value in values.items():
            store.put(_key(n), TaskOutcome("ok", value))


# -- truncation ------------------------------------------------------------------------------

def test_a_store_truncated_to_zero_bytes_is_refused_not_reinitialised(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    _filled(path, {0: {"rank": 6}})
    path.write_bytes(b"")
    with pytest.raises(ValueError, match=r"empty file \(0 bytes\).*not re-initialised"):
        ResultStore(path).count()
    assert path.stat().st_size == 0                       # still the user's file, untouched
    with pytest.raises(ValueError, match="empty file"):   # a sweep refuses it before any task
        sweep(sweep_tasks.square, [{"n": 1}], executor="serial", store=path, progress=False)


@pytest.mark.parametrize("content", [b"SQLite format 3\x00" + b"\x00" * 20, b"not a database",
                                     b"\x00" * 4096])
def test_a_truncated_or_foreign_file_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "s.sqlite"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="SQLite header"):
        ResultStore(path).count()
    assert path.read_bytes() == content


def test_a_store_cut_mid_file_is_refused_with_sqlites_reason(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    _filled(path, {n: "x" * 3000 for n in range(20)})
    data = path.read_bytes()
    assert len(data) > 3 * 4096
    path.write_bytes(data[:4096 + 100])                   # header intact, pages missing
    with pytest.raises(ValueError, match=r"not a readable ResultStore|restore it"):
        ResultStore(path).count()


# -- checksums -------------------------------------------------------------------------------

def test_one_digit_edited_on_disk_is_reported_and_not_served(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    _filled(path, {0: {"rank": 6}, 1: {"rank": 8}})
    data = path.read_bytes()
    assert data.count(b'{"rank": 6}') == 1
    path.write_bytes(data.replace(b'{"rank": 6}', b'{"rank": 7}'))
    store = ResultStore(path)
    with pytest.warns(RuntimeWarning, match=r'params \{"n":0\}.*checksum does not match'):
        assert store.get(_key(0)) is None                 # never served
    assert [r["value"] for r in store.records()] == [{"rank": 8}]
    assert store.corrupt == 1 and store.skipped[0].key == _key(0)


def test_a_sweep_recomputes_and_replaces_an_edited_value(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    params = [{"n": n} for n in range(3)]
    sweep(sweep_tasks.square, params, executor="serial", store=path, progress=False,
          version="v")
    with sqlite3.connect(path) as conn:                   # an edit that keeps valid JSON
        conn.execute("""UPDATE results SET value = '{"square": 5}' WHERE params = '{"n":2}'""")
    with pytest.warns(RuntimeWarning, match="checksum"):
        again = sweep(sweep_tasks.square, params, executor="serial", store=path,
                      progress=False, version="v")
    assert (again.n_loaded, again.n_computed) == (2, 1)
    assert again.values() == [{"square": 0}, {"square": 1}, {"square": 4}]
    assert ResultStore(path).get(TaskKey.of(again.fn, {"n": 2}, version="v")).value == {
        "square": 4}                                      # the bad row was replaced


def test_a_value_without_a_checksum_is_not_served(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    _filled(path, {0: 1})
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM checksums")
    with pytest.warns(RuntimeWarning, match="no checksum"):
        assert ResultStore(path).count() == 0


# -- schema ----------------------------------------------------------------------------------

def test_a_store_of_the_unversioned_layout_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute(LAYOUT_1)
        conn.execute("INSERT INTO results (fn, params, seed, version, status, codec, value, "
                     "written) VALUES ('f', '{\"n\":0}', 'null', 'v', 'ok', 'json', ?, 0.0)",
                     (b'{"rank": 6}',))
    store = ResultStore(path)
    assert store.get(_key(0)).value == {"rank": 6}        # read back after the migration
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        conn.execute("UPDATE results SET value = ?", (b'{"rank": 7}',))
    with pytest.warns(RuntimeWarning, match="checksum"):  # protected from now on
        assert ResultStore(path).get(_key(0)) is None


def test_an_unknown_older_layout_is_refused_by_what_it_holds(tmp_path: Path) -> None:
    path = tmp_path / "older.sqlite"
    with sqlite3.connect(path) as conn:                   # no codec column: not a layout we wrote
        conn.execute("CREATE TABLE results (fn TEXT, params TEXT, seed TEXT, version TEXT, "
                     "status TEXT, value BLOB, written REAL)")
    with pytest.raises(ValueError, match=r"not a ResultStore this version can read.*results"):
        ResultStore(path).count()


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    _filled(path, {0: 1})
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(ValueError, match="newer seprank"):
        ResultStore(path).count()


# -- undecodable rows ------------------------------------------------------------------------

def test_a_value_whose_class_no_longer_imports_is_skipped_not_fatal(tmp_path: Path,
                                                                   monkeypatch: Any) -> None:
    module_dir = tmp_path / "mods"
    module_dir.mkdir()
    (module_dir / "gone_module.py").write_text(textwrap.dedent("""
        class Result:
            def __init__(self, rank):
                self.rank = rank
    """))
    monkeypatch.syspath_prepend(str(module_dir))
    import gone_module  # type: ignore[import-not-found]

    path = tmp_path / "s.sqlite"
    _filled(path, {0: gone_module.Result(6), 1: {"rank": 8}})
    del sys.modules["gone_module"]
    (module_dir / "gone_module.py").unlink()
    store = ResultStore(path)
    with pytest.warns(RuntimeWarning, match=r'params \{"n":0\}.*cannot be decoded.*'
                                            "ModuleNotFoundError"):
        rows = store.results(fn="f")
    assert [r.value for r in rows] == [{"rank": 8}]       # the other rows of f still read
    assert store.lookup("f", "v") == {_key(1): rows[0]}
    assert store.corrupt == 1


def test_a_damaged_pickle_with_a_matching_checksum_is_skipped(tmp_path: Path) -> None:
    import hashlib

    path = tmp_path / "s.sqlite"
    _filled(path, {0: Fraction(1, 3), 1: Fraction(2, 3)})
    blob = b"\x80\x05garbage"
    digest = hashlib.sha256(b"ok\x00pickle\x00" + blob).hexdigest()
    with sqlite3.connect(path) as conn:                   # a buggy writer: consistent but broken
        conn.execute("UPDATE results SET value = ? WHERE params = '{\"n\":0}'", (blob,))
        conn.execute("UPDATE checksums SET sha256 = ? WHERE params = '{\"n\":0}'", (digest,))
    with pytest.warns(RuntimeWarning, match="cannot be decoded"):
        assert [r.value for r in ResultStore(path).results()] == [Fraction(2, 3)]


# -- values ----------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [
    collections.Counter("abracadabra"), Colour.GREEN, np.float64(1.5), np.int64(7),
    np.bool_(True), {"b": 1, "a": [1, (2, 3)]}, collections.OrderedDict(z=1, a=2),
    [1, True, 2.5, None, "x"], {"n": Colour.RED}, Fraction(-3, 4), -0.0, 10**40,
])
def test_values_come_back_with_their_exact_types(tmp_path: Path, value: Any) -> None:
    path = tmp_path / "s.sqlite"
    _filled(path, {0: value})
    got = ResultStore(path).get(_key(0))
    assert got is not None
    assert type(got.value) is type(value) and got.value == value
    assert repr(got.value) == repr(value)                 # nested types and key order too


@pytest.mark.parametrize("value,kind,match", [
    (lambda x: x, TypeError, "type builtins.function cannot be stored: it does not pickle"),
    (Disguised(), TypeError, "comes back from pickle as dict"),
    (np.zeros(1000), ValueError, "above the store's max_value_bytes = 100"),
])
def test_values_that_would_not_come_back_are_refused_when_written(value: Any, kind: type,
                                                                  match: str) -> None:
    store = ResultStore(":memory:", max_value_bytes=100)
    with pytest.raises(kind, match=match):
        store.put(_key(0), TaskOutcome("ok", value))
    assert store.count() == 0


def test_filters_are_validated() -> None:
    store = ResultStore(":memory:")
    store.put(_key(0), TaskOutcome("ok", 1))
    with pytest.raises(ValueError, match="status must be one of 'ok', 'error'; got 'done'"):
        store.results(status="done")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="fn must be a string"):
        store.results(fn=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_value_bytes"):
        ResultStore(":memory:", max_value_bytes=True)  # type: ignore[arg-type]


# -- a result that cannot be stored ------------------------------------------------------------

def test_an_unpicklable_result_is_that_tasks_failure_and_the_sweep_goes_on(tmp_path: Path
                                                                           ) -> None:
    path = tmp_path / "s.sqlite"
    params = [{"n": n, "bad": 1} for n in range(3)]
    result = sweep(sweep_tasks.unpicklable_at, params, executor="serial", store=path,
                   progress=False, version="v")
    assert [r.status for r in result] == ["ok", "error", "ok"]
    assert result.values() == [0, None, 4]
    error = result.failures[0].outcome.error
    assert error is not None and "could not be stored" in error and "does not pickle" in error
    store = ResultStore(path)
    assert [(r["n"], r["status"]) for r in store.records()] == [(0, "ok"), (1, "error"),
                                                                 (2, "ok")]
