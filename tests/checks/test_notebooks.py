"""Execute every notebook in ``notebooks/`` from top to bottom (a failing cell fails the test).

A notebook whose metadata holds ``{"seprank": {"slow": true}}`` runs only with
``--profile full``.  Notebooks are executed in their own folder and are not written back; the
executed copy (outputs kept) goes to the session's output folder, where the docs build
(``test_docs.py``) renders it instead of executing the notebook a second time
(:mod:`tests.checks.notebook_runs`).

Two notebooks are committed *with* their outputs (``{"seprank": {"outputs": "committed"}}``)
and shown as committed in the gallery: they are executed here all the same, and what they print
now must be what was committed (stale outputs fail, with the command that refreshes them).
The others are committed without outputs.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.checks.notebook_runs import (
    NOTEBOOKS,
    WIDGET_VIEW,
    NotebookRuns,
    is_slow,
    normalised,
    outputs_committed,
    printed_outputs,
)
from tests.checks.test_docs_browser import MACHINE_PATH

COMMITTED = [p for p in NOTEBOOKS if outputs_committed(p)]
#: A committed notebook stays small: its text and figures, no widget state (issue 34 measured a
#: 5.6 MB notebook, 4.1 MB of it progress-bar widgets).
MAX_COMMITTED_BYTES = 300_000


def _params(notebooks: list[Path]) -> list[object]:
    return [pytest.param(p, id=p.name, marks=[pytest.mark.slow] if is_slow(p) else [])
            for p in notebooks]


@pytest.mark.parametrize("notebook", _params(NOTEBOOKS))
def test_notebook_executes(notebook: Path, notebook_runs: NotebookRuns) -> None:
    pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    run = notebook_runs.run(notebook)
    assert run.ok, f"{notebook.name}: {run.error}"


@pytest.mark.parametrize("notebook", _params(COMMITTED))
def test_committed_outputs_are_what_the_notebook_prints_now(
        notebook: Path, notebook_runs: NotebookRuns) -> None:
    """The committed outputs are not stale: a fresh run prints the same text, cell by cell
    (timings, addresses and rounding-level residuals aside: ``notebook_runs.VARYING``)."""
    pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    run = notebook_runs.run(notebook)
    assert run.ok, f"{notebook.name}: {run.error}"
    committed = printed_outputs(json.loads(notebook.read_text(encoding="utf-8")))
    fresh = printed_outputs(json.loads(run.executed.read_text(encoding="utf-8")))
    assert len(fresh) == len(committed)
    stale = []
    for number, (old, new) in enumerate(zip(committed, fresh, strict=True), 1):
        if old != new:
            diff = difflib.unified_diff("\n".join(old).splitlines(), "\n".join(new).splitlines(),
                                        "committed", "now", lineterm="", n=1)
            stale.append(f"code cell {number}:\n" + "\n".join(list(diff)[:30]))
    assert not stale, (
        f"{notebook.name}: the committed outputs are stale; refresh them with\n"
        f"    python -m tests.checks.notebook_runs --refresh notebooks/{notebook.name}\n"
        + "\n".join(stale))


def test_two_notebooks_are_committed_with_their_outputs_and_the_others_without() -> None:
    assert len(COMMITTED) == 2, [p.name for p in COMMITTED]
    for path in NOTEBOOKS:
        code = [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
                if c["cell_type"] == "code"]
        if path in COMMITTED:
            # executed once, top to bottom, in one kernel, with a figure
            assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1)), \
                path.name
            assert any("image/png" in o.get("data", {}) for c in code for o in c["outputs"]), \
                path.name
        else:
            assert all(not c["outputs"] and c["execution_count"] is None for c in code), (
                f"{path.name} is committed with outputs but not marked "
                "{'seprank': {'outputs': 'committed'}}: clear them, or mark it")


@pytest.mark.parametrize("notebook", COMMITTED, ids=[p.name for p in COMMITTED])
def test_a_committed_notebook_is_small_without_widgets_timings_or_machine_paths(
        notebook: Path) -> None:
    assert notebook.stat().st_size < MAX_COMMITTED_BYTES, notebook.stat().st_size
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    assert "widgets" not in nb["metadata"]
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert not [o for c in code for o in c["outputs"] if WIDGET_VIEW in o.get("data", {})]
    assert not [c["metadata"]["execution"] for c in code if "execution" in c["metadata"]]
    printed = "\n".join(line for cell in printed_outputs(nb) for line in cell)
    assert not MACHINE_PATH.search(printed), MACHINE_PATH.search(printed)
    assert "Warning: " not in printed and "Traceback" not in printed


def test_a_stream_cut_by_flushes_or_a_progress_bar_compares_as_one_text() -> None:
    def cell(*outputs: dict[str, Any]) -> dict[str, Any]:
        return {"cells": [{"cell_type": "code", "outputs": list(outputs)}]}

    def out(text: str) -> dict[str, Any]:
        return {"output_type": "stream", "name": "stdout", "text": text}

    bar: dict[str, Any] = {"output_type": "display_data",
                           "data": {WIDGET_VIEW: {}, "text/plain": "HBox()"}}
    figure: dict[str, Any] = {"output_type": "display_data", "data": {"text/plain": "<Figure>"}}
    whole = printed_outputs(cell(out("a\nb\n"), figure, out("c\n")))
    assert printed_outputs(cell(out("a\n"), bar, out("b\n"), figure, out("c\n"))) == whole
    # a figure between two texts is not a flush: its place is part of what is compared
    assert printed_outputs(cell(out("a\n"), figure, out("b\nc\n"))) != whole


def test_only_what_legitimately_varies_is_normalised() -> None:
    # timings, addresses and rounding-level residuals
    assert normalised("done in 0.35 s, then 12 s") == "done in <seconds>, then <seconds>"
    assert normalised("<object at 0x7f3a2c1d9e80>") == "<object at <address>>"
    assert normalised("error 3.1e-16, -8.9e-17") == normalised("error 4.4e-16, -1.1e-16")
    assert normalised("{'eigengap': 0.33168573829590686}") == \
        normalised("{'eigengap': 0.33168573829590675}") == "{'eigengap': 0.331685738}"
    # every other number must be printed again
    for printed, now in (("sep >=   18", "sep >=   19"), ("KL 2.3e-04", "KL 2.4e-04"),
                         ("error 1.0e-10", "error 2.0e-10"), ("a = 0.7345", "a = 0.7346"),
                         ("8 seeds", "9 seeds"), ("ratio [1.2 1.1]", "ratio [1.2 1.3]"),
                         ("gap 0.33168573829590686", "gap 0.33168579829590686")):
        assert normalised(printed) != normalised(now), printed
