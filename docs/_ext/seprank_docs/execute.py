"""Execute the notebooks for a local docs build (the test suite hands over its own runs instead).

Each notebook runs once in its own folder, like ``tests/checks/test_notebooks.py`` runs it, in
a child process of its own (:func:`notebook_jobs`, run by :func:`seprank_docs.jobs.run_jobs`
next to the paper checks), and the executed copy is kept in ``out_dir`` with the SHA-256 of its
source in its metadata: a later build re-executes only notebooks whose source changed.  A
failing cell fails the build.

A notebook whose metadata holds ``{"seprank": {"outputs": "committed"}}`` is committed *with*
its outputs (:func:`outputs_committed`): the gallery shows it as committed and no build executes
it (the test suite re-executes it and fails when the committed outputs are stale).

The child process runs :mod:`seprank_docs.run_notebook` as a script (it imports no Sphinx).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from seprank_docs import run_notebook
from seprank_docs.jobs import Job


def outputs_committed(nb: Mapping[str, Any]) -> bool:
    """Whether notebook ``nb`` (its JSON) is committed with its outputs, to be shown as is."""
    return nb.get("metadata", {}).get("seprank", {}).get("outputs") == "committed"


def _digest(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def notebook_jobs(sources: list[Path], out_dir: Path) -> tuple[list[Job], list[str]]:
    """The executions this build needs: one :class:`~seprank_docs.jobs.Job` per notebook whose
    executed copy in ``out_dir`` is missing or older than its source, and the names of the
    notebooks taken as committed (never executed)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    jobs, committed = [], []
    for source in sources:
        if outputs_committed(json.loads(source.read_text(encoding="utf-8"))):
            committed.append(source.name)
            continue
        target = out_dir / source.name
        if target.is_file():
            done = json.loads(target.read_text(encoding="utf-8"))
            if done.get("metadata", {}).get("seprank_docs", {}).get(
                    "source_sha256") == _digest(source):
                continue

        def check(code: int, tail: str, name: str = source.name) -> str | None:
            return None if code == 0 else f"executing {name} failed:\n{tail[-4000:]}"

        jobs.append(Job(f"notebook {source.name}",
                        [sys.executable, str(Path(run_notebook.__file__).resolve()),
                         str(source), str(target)], check))
    return jobs, committed
