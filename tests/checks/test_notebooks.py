"""Execute every notebook in ``notebooks/`` from top to bottom (a failing cell fails the test).

A notebook whose metadata holds ``{"seprank": {"slow": true}}`` runs only with
``--profile full``.  Notebooks are executed in their own folder and are not written back; the
executed copy (outputs kept) goes to the session's output folder, where the docs build
(``test_docs.py``) renders it instead of executing the notebook a second time
(:mod:`tests.checks.notebook_runs`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks.notebook_runs import NOTEBOOKS, NotebookRuns, is_slow


@pytest.mark.parametrize(
    "notebook",
    [pytest.param(p, id=p.name, marks=[pytest.mark.slow] if is_slow(p) else [])
     for p in NOTEBOOKS],
)
def test_notebook_executes(notebook: Path, notebook_runs: NotebookRuns) -> None:
    pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    run = notebook_runs.run(notebook)
    assert run.ok, f"{notebook.name}: {run.error}"
