"""Execute one notebook in its own folder: ``python run_notebook.py SOURCE TARGET``.

The worker of :mod:`seprank_docs.execute` (a child process per notebook, so that several run at
once); it imports only nbclient and nbformat.  The executed copy carries the SHA-256 of its
source (``metadata.seprank_docs.source_sha256``) and is written only when every cell ran.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

CELL_TIMEOUT_SECONDS = 900


def kernel_environment() -> dict[str, str]:
    """Without ``MPLBACKEND``: the kernel's inline backend keeps the figures as outputs."""
    return {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}


def execute_notebook(source: Path, target: Path) -> None:
    """Execute ``source`` in its own folder and write the executed copy to ``target`` (written
    only when every cell ran), its progress (``cell 3/15``) on stderr."""
    import nbclient
    import nbformat

    nb = nbformat.read(source, as_version=4)
    code_cells = sum(c.cell_type == "code" for c in nb.cells)
    done = [0]

    def progress(cell: Any, cell_index: int) -> None:
        if cell.cell_type == "code":
            done[0] += 1
            print(f"cell {done[0]}/{code_cells}", file=sys.stderr, flush=True)

    client = nbclient.NotebookClient(
        nb, timeout=CELL_TIMEOUT_SECONDS, kernel_name="python3",
        resources={"metadata": {"path": str(source.parent)}}, on_cell_execute=progress)
    client.execute(env=kernel_environment())
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    nb.metadata["seprank_docs"] = {"source_sha256": digest}
    partial = target.with_suffix(".partial")
    nbformat.write(nb, partial)
    partial.replace(target)  # a killed build leaves no copy that looks finished


if __name__ == "__main__":
    execute_notebook(Path(sys.argv[1]), Path(sys.argv[2]))
