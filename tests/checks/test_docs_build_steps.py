"""The docs build's long steps (``docs/_ext/seprank_docs``: ``jobs``, ``execute``) and the
gallery's committed notebooks, without building the site.

A from-scratch build runs the paper checks and executes the notebooks side by side, a progress
line every few seconds; a notebook committed with its outputs is never executed by the build
and is shown as committed, whatever executed copy lies around.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))
pytest.importorskip("sphinx")
from seprank_docs import execute, pages
from seprank_docs.jobs import Job, run_jobs


def _notebook(path: Path, printed: str, *, committed: bool) -> Path:
    """A one-cell notebook printing ``printed``; with that output when ``committed``."""
    cell: dict[str, object] = {
        "cell_type": "code", "metadata": {}, "execution_count": 1 if committed else None,
        "source": [f"print({printed!r})"],
        "outputs": [{"output_type": "stream", "name": "stdout", "text": [printed + "\n"]}]
        if committed else []}
    nb = {"nbformat": 4, "nbformat_minor": 5, "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": [f"# {path.stem}\n\nA test."]}, cell],
        "metadata": {"seprank": {"outputs": "committed"}} if committed else {}}
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def test_the_build_executes_no_committed_notebook(tmp_path: Path) -> None:
    source = tmp_path / "notebooks"
    source.mkdir()
    shown = _notebook(source / "shown.ipynb", "committed output", committed=True)
    plain = _notebook(source / "plain.ipynb", "to execute", committed=False)
    jobs, committed = execute.notebook_jobs([plain, shown], tmp_path / "executed")
    assert committed == ["shown.ipynb"]
    assert [job.label for job in jobs] == ["notebook plain.ipynb"]
    assert str(plain) in jobs[0].cmd and str(shown) not in jobs[0].cmd
    # an executed copy whose source hash matches is up to date: nothing to execute
    copy = json.loads(plain.read_text(encoding="utf-8"))
    copy["metadata"]["seprank_docs"] = {"source_sha256": execute._digest(plain)}
    (tmp_path / "executed" / "plain.ipynb").write_text(json.dumps(copy), encoding="utf-8")
    assert execute.notebook_jobs([plain, shown], tmp_path / "executed")[0] == []
    plain.write_text(plain.read_text(encoding="utf-8").replace("to execute", "changed"),
                     encoding="utf-8")
    assert len(execute.notebook_jobs([plain, shown], tmp_path / "executed")[0]) == 1


def test_the_gallery_shows_a_committed_notebook_as_committed(tmp_path: Path) -> None:
    shown = _notebook(tmp_path / "shown.ipynb", "committed output", committed=True)
    plain = _notebook(tmp_path / "plain.ipynb", "to execute", committed=False)
    executed = tmp_path / "executed"
    executed.mkdir()
    # executed copies of both (the test suite hands over its runs of every notebook)
    _notebook(executed / "shown.ipynb", "a fresh run's output", committed=True)
    _notebook(executed / "plain.ipynb", "executed output", committed=True)
    writer = pages.Writer(tmp_path / "generated")
    assert pages.write_gallery(writer, [plain, shown], executed) == []
    gallery = tmp_path / "generated" / "gallery"
    assert "committed output" in (gallery / "shown.ipynb").read_text(encoding="utf-8")
    assert "fresh run" not in (gallery / "shown.ipynb").read_text(encoding="utf-8")
    assert "executed output" in (gallery / "plain.ipynb").read_text(encoding="utf-8")
    index = (gallery / "index.md").read_text(encoding="utf-8")
    assert "`notebooks/shown.ipynb` (committed with its outputs)" in index
    assert "`notebooks/plain.ipynb`." in index
    # without an executed copy a plain notebook is shown without outputs, and said so
    assert pages.write_gallery(writer, [plain, shown], tmp_path / "none") == ["plain"]


def test_a_step_reports_its_last_complete_progress_line() -> None:
    job = Job("bar", ["true"], lambda code, tail: None)
    job._read(io.StringIO("claims:  10%|#\rclaims:  20%|##\rclaims:  3"))
    assert job.status == "claims:  20%|##"           # the last piece may be cut: not shown
    job._read(io.StringIO("cell 1/4\ncell 2/4\n[IPKernelApp] WARNING | Kernel is running\n"))
    assert job.status == "cell 2/4"


def test_steps_run_side_by_side_and_a_failure_fails_after_the_others(tmp_path: Path) -> None:
    checked: list[tuple[str, int]] = []

    def check(label: str) -> Callable[[int, str], str | None]:
        def inner(code: int, tail: str) -> str | None:
            checked.append((label, code))
            return None if code == 0 else f"exit {code}: {tail.strip()}"
        return inner

    script = "import sys; print('step', sys.argv[1], file=sys.stderr); sys.exit(int(sys.argv[1]))"
    jobs = [Job(f"step {n}", [sys.executable, "-c", script, str(n)], check(f"step {n}"))
            for n in (0, 3, 0)]
    lines: list[str] = []
    with pytest.raises(RuntimeError, match=r"step 3: exit 3: step 3"):
        run_jobs(jobs, workers=2, log=lines.append)
    assert sorted(checked) == [("step 0", 0), ("step 0", 0), ("step 3", 3)]
    assert "2 at a time" in lines[0]
    assert sum(" start " in line for line in lines) == 3
    assert "long steps done" in lines[-1]


def test_an_interrupted_build_leaves_no_step_running(monkeypatch: pytest.MonkeyPatch) -> None:
    from seprank_docs import jobs

    forever = Job("forever", [sys.executable, "-c", "import time; time.sleep(3600)"],
                  lambda code, tail: None)

    def interrupted(seconds: float) -> None:  # Ctrl-C while the step runs
        raise KeyboardInterrupt

    monkeypatch.setattr(jobs.time, "sleep", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_jobs([forever], workers=1, log=lambda line: None)
    assert forever._process is not None and forever._process.poll() is not None  # ended
