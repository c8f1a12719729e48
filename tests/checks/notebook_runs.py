"""Execute each notebook of ``notebooks/`` at most once per test session, keeping the outputs.

``tests/checks/test_notebooks.py`` asserts that a notebook runs top to bottom; the docs build
(``tests/checks/test_docs.py``) renders the same executed copies with execution off.  Both ask
:class:`NotebookRuns` (the session fixture ``notebook_runs``) for a notebook, so whichever test
comes first executes it and the other reuses the copy: no notebook is executed twice in CI.

A notebook whose metadata holds ``{"seprank": {"slow": true}}`` runs only with
``--profile full``.  Notebooks are executed in their own folder; the source files are never
written back by a test.  They are committed without outputs, except the few marked
``{"seprank": {"outputs": "committed"}}``, which are committed *with* their outputs so that the
gallery shows them without executing them; the tests re-execute those too and compare what they
print now with what was committed (:func:`printed_outputs`).  After changing such a notebook (or
what it prints), refresh its outputs with::

    python -m tests.checks.notebook_runs --refresh notebooks/NAME.ipynb
"""

from __future__ import annotations

import argparse
import json
import os
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CELL_TIMEOUT_SECONDS = 900


def is_slow(path: Path) -> bool:
    meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    return bool(meta.get("seprank", {}).get("slow", False))


def outputs_committed(path: Path) -> bool:
    """Whether the notebook at ``path`` is committed with its outputs (shown as is by the
    gallery: ``seprank_docs.execute.outputs_committed``)."""
    meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    return meta.get("seprank", {}).get("outputs") == "committed"


#: What legitimately differs between two runs of the same notebook on the same inputs, and is
#: replaced before committed and fresh outputs are compared:
#:
#: * a timing printed in seconds ("in 0.35 s", "12.0 s");
#: * a memory address ("at 0x7f3a...");
#: * a floating-point residual printed in e-notation at the level of rounding errors (below
#:   1e-11: "3.1e-16" and "8.9e-17" say the same thing, "the error is rounding noise");
#: * a float printed at full precision (12 or more significant digits, Python's ``repr``) is
#:   compared to 9 significant digits: its last digits depend on the CPU's floating-point
#:   kernels (BLAS), not on the notebook.
#:
#: Nothing else is normalised: every other digit printed must be printed again.
VARYING: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"\b\d+(?:\.\d+)?(?:e[+-]?\d+)? ?s\b"), "<seconds>"),
    (re.compile(r"\b0x[0-9a-f]{6,}\b"), "<address>"),
    (re.compile(r"(?<![\w.])-?\d(?:\.\d+)?e-(?:1[2-9]|[2-9]\d|\d{3})\b"), "<rounding>"),
    (re.compile(r"(?<![\w.])\d+\.\d+(?:e[+-]?\d+)?(?![\w.])"),
     lambda m: (f"{float(m[0]):.9g}" if len(m[0].split("e")[0].replace(".", "").lstrip("0"))
                >= 12 else m[0])),
)


#: The output of a Jupyter widget (a progress bar; see :func:`printed_outputs`).
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def normalised(text: str) -> str:
    """``text`` with what legitimately varies from run to run replaced (:data:`VARYING`)."""
    for pattern, replacement in VARYING:
        text = pattern.sub(replacement, text)
    return text


def printed_outputs(nb: dict[str, Any]) -> list[list[str]]:
    """What each code cell printed, as a reader compares it: per output, its kind and its
    text (a stream's text, a result's ``text/plain``; a figure by its ``text/plain`` line
    ``<Figure size 1000x380 with 2 Axes>`` -- its pixels depend on the fonts and the
    Matplotlib version), :func:`normalised`.  Progress bars are left out: a call shows one only
    when it runs longer than 2 s (``seprank.core.progress``), which depends on the machine and
    its load -- and so are the places where it cut a cell's printed text into pieces: what a cell
    prints between two displays is compared as one text."""
    cells = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        shown: list[tuple[str, str]] = []
        for out in cell.get("outputs", []):
            if WIDGET_VIEW in out.get("data", {}):
                continue
            kind = out.get("output_type", "")
            if kind == "stream":
                text = "".join(out.get("text", ""))
                kind = f"stream {out.get('name')}"
                if shown and shown[-1][0] == kind:  # the same stream, cut by a flush
                    shown[-1] = (kind, shown[-1][1] + text)
                    continue
            elif kind == "error":
                text = f"{out.get('ename')}: {out.get('evalue')}"
            else:
                text = "".join(out.get("data", {}).get("text/plain", ""))
            shown.append((kind, text))
        cells.append([f"{kind}: {normalised(text)}" for kind, text in shown])
    return cells


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
        import nbformat

        nb = nbformat.read(notebook, as_version=4)
        client = _client(nb, notebook)
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


def _client(nb: Any, notebook: Path, **options: Any) -> Any:
    """An nbclient client running ``nb`` in ``notebook``'s folder (relative paths, and no
    machine path in what it prints)."""
    import nbclient

    return nbclient.NotebookClient(
        nb, timeout=CELL_TIMEOUT_SECONDS, kernel_name="python3",
        resources={"metadata": {"path": str(notebook.parent)}}, **options)


def refresh_committed_outputs(notebook: Path) -> int:
    """Execute ``notebook`` (marked ``{"seprank": {"outputs": "committed"}}``) in its folder
    and write it back *with* its outputs: no cell timings, no widget state (a progress bar is
    not a result).  Returns the size written, in bytes."""
    import nbformat

    if not outputs_committed(notebook):
        raise ValueError(f"{notebook}: not marked {{'seprank': {{'outputs': 'committed'}}}} in "
                         "its metadata; mark it first (the others are committed without "
                         "outputs)")
    nb = nbformat.read(notebook, as_version=4)
    _client(nb, notebook, record_timing=False).execute(env=kernel_environment())
    errors = [f"{o.get('ename')}: {o.get('evalue')}" for c in nb.cells if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    if errors:
        raise RuntimeError(f"{notebook}: a cell failed, nothing written: {errors[0]}")
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [o for o in cell.outputs
                            if WIDGET_VIEW not in o.get("data", {})]
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, notebook)
    return notebook.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.checks.notebook_runs",
        description="Refresh the outputs of notebooks committed with their outputs.")
    parser.add_argument("--refresh", nargs="+", type=Path, required=True, metavar="NOTEBOOK",
                        help="notebooks to execute and write back with their outputs")
    args = parser.parse_args(argv)
    for notebook in args.refresh:
        size = refresh_committed_outputs(notebook.resolve())
        print(f"{notebook}: outputs refreshed ({size / 1000:.0f} kB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
