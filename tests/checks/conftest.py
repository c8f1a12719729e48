"""Session fixtures of the checks: notebooks executed once, the docs site built once."""

from __future__ import annotations

import shutil

import pytest

from tests.checks.docs_site import DocsSite, build_site, write_ledger
from tests.checks.notebook_runs import NOTEBOOKS, NotebookRuns, is_slow, outputs_committed


@pytest.fixture(scope="session")
def notebook_runs(tmp_path_factory: pytest.TempPathFactory) -> NotebookRuns:
    """Each notebook executed at most once per session (the executed copies are kept)."""
    return NotebookRuns(tmp_path_factory.mktemp("executed_notebooks"))


@pytest.fixture(scope="session")
def docs_site(tmp_path_factory: pytest.TempPathFactory, notebook_runs: NotebookRuns,
              pytestconfig: pytest.Config) -> DocsSite:
    """The site built with ``-W`` from this session's notebook runs and paper checks.

    Notebooks of the active profile are taken from :func:`notebook_runs` (executing those no
    test has executed yet); only copies that ran cleanly are rendered -- the others appear
    without outputs, and ``test_notebooks.py`` reports why.  Notebooks committed with their
    outputs are not handed over: the gallery shows them as committed.
    """
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_nb")
    out = tmp_path_factory.mktemp("docs")
    profile = str(pytestconfig.getoption("--profile"))
    rendered = out / "notebooks"
    rendered.mkdir()
    for notebook in NOTEBOOKS:
        if (is_slow(notebook) and profile != "full") or outputs_committed(notebook):
            continue
        run = notebook_runs.run(notebook)
        if run.ok:
            shutil.copyfile(run.executed, rendered / notebook.name)
    ledger_json = write_ledger(out / "ledger", profile)
    site = build_site(out, notebooks=rendered, ledger_json=ledger_json)
    _BUILT.append(site)
    return site


_BUILT: list[DocsSite] = []


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how long the docs build took (its own CPU time; wall time depends on the machine)."""
    for site in _BUILT:
        terminalreporter.write_line(
            f"docs build (sphinx -W): {site.cpu_seconds:.1f} s CPU, {site.wall_seconds:.1f} s "
            f"wall, {'ok' if site.ok else 'FAILED'} -> {site.html}")
