"""Execute the notebooks for a local docs build (the test suite hands over its own runs instead).

Each notebook runs once in its own folder, like ``tests/checks/test_notebooks.py`` runs it,
and the executed copy is kept in ``out_dir`` with the SHA-256 of its source in its metadata: a
later build re-executes only notebooks whose source changed.  A failing cell fails the build.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

CELL_TIMEOUT_SECONDS = 900


def _kernel_environment() -> dict[str, str]:
    """Without ``MPLBACKEND``: the kernel's inline backend keeps the figures as outputs."""
    return {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}


def execute_notebooks(sources: list[Path], out_dir: Path) -> Path:
    import nbclient
    import nbformat

    out_dir.mkdir(parents=True, exist_ok=True)
    for number, source in enumerate(sources, 1):
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        target = out_dir / source.name
        if target.is_file():
            done = nbformat.read(target, as_version=4)
            if done.metadata.get("seprank_docs", {}).get("source_sha256") == digest:
                continue
        nb = nbformat.read(source, as_version=4)
        logger.info("seprank_docs: executing notebook %d/%d %s (%d cells; -D "
                    "seprank_executed_notebooks=DIR reuses executed copies)", number,
                    len(sources), source.name, len(nb.cells))
        start = time.monotonic()
        nbclient.NotebookClient(
            nb, timeout=CELL_TIMEOUT_SECONDS, kernel_name="python3",
            resources={"metadata": {"path": str(source.parent)}},
        ).execute(env=_kernel_environment())
        nb.metadata["seprank_docs"] = {"source_sha256": digest}
        nbformat.write(nb, target)
        logger.info("seprank_docs: notebook %s executed in %.0f s", source.name,
                    time.monotonic() - start)
    return out_dir
