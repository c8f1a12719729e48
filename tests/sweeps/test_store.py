"""The result store: keys, values, the ok-is-final rule, and concurrent writers."""

from __future__ import annotations

import multiprocessing as mp
import pickle
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from seprank.sweeps.measure import TaskOutcome
from seprank.sweeps.store import ResultStore, TaskKey, canonical_params
from tests.sweeps import store_writer

N_WRITERS = 4
N_SHARED_KEYS = 60


def test_key_ignores_dict_order_and_takes_the_seed_out() -> None:
    a = TaskKey.of("f", {"x": 1, "y": (2, 3), "seed": 7}, version="v")
    b = TaskKey.of("f", {"seed": 7, "y": [2, 3], "x": np.int64(1)}, version="v")
    assert a == b
    assert a.params == '{"x":1,"y":[2,3]}' and a.seed == "7"
    assert TaskKey.of("f", {"x": 1}, version="v").seed == "null"
    assert TaskKey.of("f", {"x": 1}, version="w") != TaskKey.of("f", {"x": 1}, version="v")


@pytest.mark.parametrize("bad", [{"x": Fraction(1, 2)}, {"x": float("nan")}, {1: 2}])
def test_parameters_that_are_not_json_data_are_refused(bad: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises((TypeError, ValueError)):
        canonical_params(bad)


@pytest.mark.parametrize("value", [{"rank": 6, "bounds": [1.5, None]}, (1, 2), Fraction(3, 4),
                                   np.arange(3), "text", None])
def test_values_round_trip(tmp_path: Path, value: object) -> None:
    store = ResultStore(tmp_path / "s.sqlite")
    key = TaskKey.of("f", {"n": 1}, version="v")
    store.put(key, TaskOutcome("ok", value))
    got = ResultStore(tmp_path / "s.sqlite").get(key)  # a fresh connection reads it back
    assert got is not None
    if isinstance(value, np.ndarray):
        assert np.array_equal(got.value, value)
    else:
        assert got.value == value and type(got.value) is type(value)


def test_a_success_is_final_and_a_failure_is_replaced() -> None:
    store = ResultStore(":memory:")
    key = TaskKey.of("f", {"n": 1}, version="v")
    assert store.put(key, TaskOutcome("error", error="boom"))
    assert store.put(key, TaskOutcome("ok", 1))         # failure replaced
    assert not store.put(key, TaskOutcome("ok", 2))     # success kept
    assert not store.put(key, TaskOutcome("error", error="x"))
    row = store.get(key)
    assert row is not None and (row.status, row.value) == ("ok", 1)
    assert store.count() == 1


def test_records_are_flat_and_filterable() -> None:
    store = ResultStore(":memory:")
    for n in range(3):
        store.put(TaskKey.of("f", {"n": n, "seed": 0}, version="v"),
                  TaskOutcome("ok", n * n, seconds=0.1))
    store.put(TaskKey.of("g", {"n": 0}, version="v"), TaskOutcome("error", error="E: no"))
    assert [(r["n"], r["seed"], r["value"]) for r in store.records(fn="f")] == [
        (0, 0, 0), (1, 0, 1), (2, 0, 4)]
    assert store.count(status="error") == 1 and store.count(fn="g", status="ok") == 0


def test_dataframe_needs_pandas_only_when_asked() -> None:
    store = ResultStore(":memory:")
    store.put(TaskKey.of("f", {"n": 1}, version="v"), TaskOutcome("ok", 1))
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pandas"):
            store.to_dataframe()
    else:
        assert list(store.to_dataframe()["n"]) == [1]


def test_an_in_memory_store_refuses_to_travel_and_a_file_store_reopens(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="file path"):
        pickle.dumps(ResultStore(":memory:"))
    store = ResultStore(tmp_path / "s.sqlite")
    store.put(TaskKey.of("f", {}, version="v"), TaskOutcome("ok", 1))
    copy = pickle.loads(pickle.dumps(store))
    assert copy.count() == 1


def test_concurrent_writers_do_not_corrupt_the_store(tmp_path: Path) -> None:
    """Several processes write the same keys at once: every key exactly once, file intact."""
    path = str(tmp_path / "shared.sqlite")
    ctx = mp.get_context("spawn")
    with ctx.Pool(N_WRITERS) as pool:
        writes = pool.starmap(store_writer.store_writer,
                              [(path, w, N_SHARED_KEYS) for w in range(N_WRITERS)])
    store = ResultStore(path)
    assert store.integrity_check() == "ok"
    shared = store.results(fn="shared")
    assert sorted(r.value["k"] for r in shared) == list(range(N_SHARED_KEYS))
    assert all(r.status == "ok" and r.value["writer"] in range(N_WRITERS) for r in shared)
    # each shared key was written by exactly one writer; each private key by its own
    assert sum(writes) == N_SHARED_KEYS + N_WRITERS
    assert sorted(r.value for r in store.results(fn="private")) == list(range(N_WRITERS))


#: The on-disk table, as every store written so far has it (the format is the contract).
TABLE_COLUMNS = ["fn", "params", "seed", "version", "status", "codec", "value", "error",
                 "traceback", "seconds", "cpu_seconds", "peak_rss_bytes", "peak_increase_bytes",
                 "memory_method", "worker", "written"]


def test_the_table_keeps_its_columns_and_an_existing_file_reads_back(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite"
    ResultStore(path).put(TaskKey.of("f", {"n": 0}, version="v"), TaskOutcome("ok", 0))
    with sqlite3.connect(path) as conn:
        assert [row[1] for row in conn.execute("PRAGMA table_info(results)")] == TABLE_COLUMNS
        # a row written by hand in the table's own terms, as an older writer did
        conn.execute(f"INSERT INTO results ({', '.join(TABLE_COLUMNS)}) VALUES "
                     f"({', '.join('?' * len(TABLE_COLUMNS))})",
                     ("f", '{"n":1}', "null", "v", "error", "none", None, "E: boom", "Trace",
                      1.5, 1.25, 2048, 1024, "vmhwm", "host:1", 0.0))
    row = ResultStore(path).get(TaskKey.of("f", {"n": 1}, version="v"))
    assert row is not None and row.written == 0.0
    assert row.outcome == TaskOutcome("error", None, "E: boom", "Trace", 1.5, 1.25, 2048, 1024,
                                      "vmhwm", "host:1")
    assert ResultStore(path).records(status="error")[0] == {
        "n": 1, "seed": None, "fn": "f", "version": "v", "status": "error", "value": None,
        "error": "E: boom", "seconds": 1.5, "cpu_seconds": 1.25, "peak_rss_bytes": 2048,
        "peak_increase_bytes": 1024, "memory_method": "vmhwm", "worker": "host:1"}


def test_put_takes_a_key_and_an_outcome() -> None:
    store = ResultStore(":memory:")
    with pytest.raises(TypeError, match="outcome must be a TaskOutcome"):
        store.put(TaskKey.of("f", {}, version="v"), {"status": "ok"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="status must be 'ok' or 'error'"):
        TaskOutcome("done")  # type: ignore[arg-type]
