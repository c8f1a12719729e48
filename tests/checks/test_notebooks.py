"""Execute every notebook in ``notebooks/`` from top to bottom (a failing cell fails the test).

A notebook whose metadata holds ``{"seprank": {"slow": true}}`` runs only with
``--profile full``.  Notebooks are executed in their own folder and are not written back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CELL_TIMEOUT_SECONDS = 900


def _is_slow(path: Path) -> bool:
    meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    return bool(meta.get("seprank", {}).get("slow", False))


@pytest.mark.parametrize(
    "notebook",
    [pytest.param(p, id=p.name, marks=[pytest.mark.slow] if _is_slow(p) else [])
     for p in NOTEBOOKS],
)
def test_notebook_executes(notebook: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(notebook, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    client.execute()
    errors = [
        out for cell in nb.cells if cell.cell_type == "code"
        for out in cell.get("outputs", []) if out.get("output_type") == "error"
    ]
    assert not errors, f"{notebook.name}: {errors[0].get('ename')}: {errors[0].get('evalue')}"
