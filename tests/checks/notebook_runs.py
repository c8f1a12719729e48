"""Execute each notebook of ``notebooks/`` at most once per test session, keeping the outputs.

``tests/checks/test_notebooks.py`` asserts that a notebook runs top to bottom; the docs build
(``tests/checks/test_docs.py``) renders the same executed copies with execution off.  Both ask
:class:`NotebookRuns` (the session fixture ``notebook_runs``) for a notebook, so whichever test
comes first executes it and the other reuses the copy: no notebook is executed twice in CI.

A notebook whose metadata holds ``{"seprank": {"slow": true}}`` runs only with
``--profile full``.  Notebooks are executed in their own folder; the source files are never
written back (they are committed without outputs).
"""

from __future__ import annotations

import json
import os
import traceback
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CELL_TIMEOUT_SECONDS = 900


def is_slow(path: Path) -> bool:
    meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    return bool(meta.get("seprank", {}).get("slow", False))


def kernel_environment() -> dict[str, str]:
    """The kernel's environment: this one without ``MPLBACKEND`` (the test session sets Agg,
    which would leave the notebooks' figures undisplayed; the kernel's inline backend keeps them
    as outputs, as when a person runs the notebook)."""
    return {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}


@dataclass(frozen=True)
class NotebookRun:
    """One execution: the executed copy (outputs kept) and what went wrong, if anything."""

    source: Path
    executed: Path
    error: str | None

    @property
    def ok(self) -> bool:
        return self.error is None


class NotebookRuns:
    """Executes notebooks into ``out_dir`` (same file names), each at most once."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self._runs: dict[Path, NotebookRun] = {}

    def run(self, notebook: Path) -> NotebookRun:
        notebook = notebook.resolve()
        if notebook not in self._runs:
            self._runs[notebook] = self._execute(notebook)
        return self._runs[notebook]

    def _execute(self, notebook: Path) -> NotebookRun:
        import nbclient
        import nbformat

        nb = nbformat.read(notebook, as_version=4)
        client = nbclient.NotebookClient(
            nb, timeout=CELL_TIMEOUT_SECONDS, kernel_name="python3",
            resources={"metadata": {"path": str(notebook.parent)}})
        error = None
        try:
            client.execute(env=kernel_environment())
        except Exception:  # a failing cell is reported by the test, with its traceback
            error = traceback.format_exc(limit=3)
        outputs_with_errors = [
            out for cell in nb.cells if cell.cell_type == "code"
            for out in cell.get("outputs", []) if out.get("output_type") == "error"]
        if error is None and outputs_with_errors:
            first = outputs_with_errors[0]
            error = f"{first.get('ename')}: {first.get('evalue')}"
        self.out_dir.mkdir(parents=True, exist_ok=True)
        executed = self.out_dir / notebook.name
        nbformat.write(nb, executed)
        return NotebookRun(notebook, executed, error)
