"""A writer process for the store concurrency test (imports nothing heavy)."""

from __future__ import annotations


def store_writer(path: str, writer: int, n_keys: int) -> int:
    """Write keys 0..n_keys-1 (shared by every writer) and one private key; returns writes."""
    from seprank.sweeps.measure import TaskOutcome
    from seprank.sweeps.store import ResultStore, TaskKey

    store = ResultStore(path, timeout=60)
    written = 0
    for k in range(n_keys):
        key = TaskKey.of("shared", {"k": k}, version="v")
        written += store.put(key, TaskOutcome("ok", {"writer": writer, "k": k}))
    written += store.put(TaskKey.of("private", {"writer": writer}, version="v"),
                         TaskOutcome("ok", writer))
    store.close()
    return written
