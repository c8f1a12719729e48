"""Build the documentation site once per test session, from what the session already computed.

:func:`build_site` takes the notebooks executed by :class:`~tests.checks.notebook_runs.
NotebookRuns` (rendered with execution off) and a ``paper-checks --json`` report, and runs
``python -m sphinx -j auto -W --keep-going`` in a subprocess -- the same command as a local
build (pages read and written by one process per core), with the two inputs given by ``-D``.
Its CPU time is measured from the child's resource usage (the wall time on a shared machine
says little).
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@dataclass(frozen=True)
class DocsSite:
    """A finished build: where the HTML is, the log, and how long it took."""

    html: Path
    returncode: int
    log: str
    wall_seconds: float
    cpu_seconds: float
    ledger_json: Path
    notebooks: Path

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def write_ledger(out: Path, profile: str) -> Path:
    """``paper-checks --profile PROFILE --json`` run in this process (shared caches)."""
    from paper_checks.cli import main

    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "paper_checks.json"
    code = main(["--profile", profile, "--json", str(json_path), "--plots", str(out / "plots"),
                 "--report", str(out / "report.md"), "--no-progress"])
    # 1 = some verdict differs from its registration: test_paper_claims reports that; the
    # ledger shows it.  2 = bad arguments or nothing selected.
    if code not in (0, 1) or not json_path.is_file():
        raise RuntimeError(f"paper-checks exited {code} without a JSON report")
    return json_path


def build_site(out: Path, *, notebooks: Path, ledger_json: Path) -> DocsSite:
    html = out / "html"
    shutil.rmtree(html, ignore_errors=True)
    cmd = [sys.executable, "-m", "sphinx", "-j", "auto", "-W", "--keep-going", "-b", "html",
           "-d", str(out / "doctrees"),
           "-D", f"seprank_ledger_json={ledger_json}",
           "-D", f"seprank_executed_notebooks={notebooks}",
           str(DOCS), str(html)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    log = f"$ {' '.join(cmd)}\n{done.stdout}\n{done.stderr}"
    (out / "build.log").write_text(log, encoding="utf-8")
    return DocsSite(html, done.returncode, log, wall, cpu, ledger_json, notebooks)
