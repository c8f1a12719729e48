"""Sphinx extension of the seprank + identifiability site: generated pages and cross-references.

The ledger pages are rendered by the public extension :mod:`paper_checks.sphinx` (its
``paper-ledger`` directive, as in any other project); this one writes the pages that hold the
directives, runs ``paper-checks`` (with its figures) when no report is given, and hands the
report to it (``paper_ledger_json``).

Configuration values (``-D NAME=VALUE`` on the ``sphinx-build`` command line):

``seprank_ledger_json``
    A ``paper-checks --json`` report to build the truth ledger from.  Empty (default): run
    ``paper-checks`` now, into ``docs/generated/ledger/_run``, printing its progress.
``seprank_ledger_profile``
    The profile of that run when the extension runs it (``quick`` or ``full``).
``seprank_executed_notebooks``
    A folder of notebooks already executed (the test suite writes one).  Empty (default): the
    notebooks are executed now, into ``docs/generated/_executed`` (re-executed only when their
    source changes).  Either way myst-nb renders them with execution off.  Notebooks committed
    with their outputs (``{"seprank": {"outputs": "committed"}}`` in their metadata) are shown
    as committed and never executed by the build.
``seprank_docs_workers``
    How many of the build's long steps (the paper checks, each notebook's execution) run at
    once.  0 (default): one per core, at most four (:func:`seprank_docs.jobs.default_workers`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from docutils import nodes as du_nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError
from sphinx.util import logging

from paper_checks.sphinx import entries as ledger
from seprank_docs import pages
from seprank_docs.api_tasks import MISSING, lookup_dotted
from seprank_docs.discover import documented_members, paper_index, public_modules
from seprank_docs.execute import notebook_jobs
from seprank_docs.jobs import Job, default_workers, run_jobs

logger = logging.getLogger(__name__)


def _paper_checks_job(out: Path, profile: str) -> tuple[Job, Path]:
    """``paper-checks`` into ``out`` as a long step of the build (its bar relayed to the build
    log), the report moved into place only when the run finished."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / "paper_checks.json"
    partial = out / "paper_checks.partial.json"
    partial.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "paper_checks.cli", "--profile", profile, "--json",
           str(partial), "--plots", str(out / "plots"), "--report", str(out / "report.md")]

    def check(code: int, tail: str) -> str | None:
        # Exit 1 = a verdict differs from its registration: the ledger shows it, the build
        # goes on.
        if code not in (0, 1) or not partial.is_file():
            return f"paper-checks failed ({code}):\n{tail[-4000:]}"
        partial.replace(target)  # a killed build leaves no report that looks finished
        return None

    return Job(f"{profile}-profile paper checks", cmd, check), target


def generate(app: Sphinx) -> None:
    """Write ``docs/generated/`` (see :mod:`seprank_docs.pages`) before the sources are read."""
    from paper_checks.registry import PAPERS, all_claims

    srcdir = Path(app.srcdir)
    root, tours, repo = srcdir / "generated", srcdir / "tours", srcdir.parent
    writer = pages.Writer(root)
    run_dir = root / "ledger" / "_run"
    notebooks = sorted((repo / "notebooks").glob("*.ipynb"))

    # The long steps, side by side: the paper checks and the notebook executions, unless the
    # build was handed their results (as the test suite does).
    jobs: list[Job] = []
    given = app.config.seprank_ledger_json
    if given:
        json_path = Path(given).resolve()
    else:
        logger.info("seprank_docs: the ledger needs a paper-checks run (minutes; "
                    "-D seprank_ledger_json=PATH reuses a report)")
        job, json_path = _paper_checks_job(run_dir, app.config.seprank_ledger_profile)
        jobs.append(job)
    given_notebooks = app.config.seprank_executed_notebooks
    if given_notebooks:
        executed = Path(given_notebooks).resolve()
    else:
        executed = root / "_executed"
        to_run, committed = notebook_jobs(notebooks, executed)
        logger.info("seprank_docs: notebooks to execute: %d of %d (the others are up to date "
                    "or committed with their outputs: %s; -D seprank_executed_notebooks=DIR "
                    "reuses executed copies)", len(to_run), len(notebooks),
                    ", ".join(committed) or "none")
        jobs += to_run
    run_jobs(jobs, app.config.seprank_docs_workers or default_workers(), logger.info)
    app.config.paper_ledger_json = str(json_path)  # read by paper_checks.sphinx
    entries = ledger.load(json_path, papers=PAPERS, registered=all_claims())
    profile = "full" if any(e.profile == "full" and e.ran for e in entries) else "quick"
    pages.write_ledger(writer, entries, dict(PAPERS), profile)

    modules = public_modules()
    members = documented_members(modules)
    pages.write_papers(writer, modules, members, tours, entries)
    pages.write_api(writer, modules, members, tours)
    unexecuted = pages.write_gallery(writer, notebooks, executed)
    if unexecuted:
        logger.info("seprank_docs: shown without outputs (not executed): %s",
                    ", ".join(unexecuted))
    writer.prune(keep=[run_dir, root / "_executed"])


def _resolve(target: str, context: str | None) -> str | None:
    """``name`` seen from module ``context`` (or a dotted path) -> its canonical dotted name."""
    for base in ([context] if context else []) + [""]:
        dotted = f"{base}.{target}" if base else target
        obj = lookup_dotted(dotted, module_itself=True)
        module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if obj is not MISSING and isinstance(module, str) and isinstance(qualname, str):
            return f"{module}.{qualname}"
    return None


def resolve_reexports(app: Sphinx, env: BuildEnvironment, node: Any,
                      contnode: du_nodes.Element) -> du_nodes.Element | None:
    """Link a re-exported name (``theorem1_lower`` in :mod:`seprank.d2w`'s index, or
    ``seprank.matrix_rank``) to where it is documented: its defining module."""
    if node.get("refdomain") != "py" or node.get("reftype") not in ("obj", "func", "class",
                                                                     "meth", "data", "attr"):
        return None
    canonical = _resolve(node["reftarget"], node.get("py:module"))
    if canonical is None or canonical == node["reftarget"]:
        return None
    domain = env.get_domain("py")
    return domain.resolve_xref(env, node["refdoc"], app.builder, "obj", canonical, node,
                               contnode)


def typeset_notation(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                     lines: list[str]) -> None:
    """A paper subpackage's page shows its notation as math: the docstring's plain-text block
    (``INDEX.render()``, read in a terminal) is replaced by ``INDEX.render(math=True)``, whose
    paper column is ``:math:`` (see :class:`seprank.core.index.PaperIndex`)."""
    index = paper_index(obj) if what == "module" else None
    if index is None:
        return
    plain, typeset = index.render().splitlines(), index.render(math=True).splitlines()
    for start in range(len(lines) - len(plain) + 1):
        if lines[start:start + len(plain)] == plain:
            lines[start:start + len(plain)] = typeset
            return
    raise ExtensionError(f"seprank_docs: the docstring of {name} does not carry its "
                         "INDEX.render() verbatim; append it as the other paper subpackages do")


def skip_undocumented_class_members(app: Sphinx, what: str, name: str, obj: Any, skip: bool,
                                    options: Any) -> bool | None:
    """``undoc-members`` is on so that every public *function* is listed even without a
    docstring; inside a class, undocumented members (dataclass fields, helpers) stay hidden."""
    if what not in ("class", "exception"):
        return None
    doc = getattr(obj, "__doc__", None)
    if not doc or doc == getattr(type(obj), "__doc__", None):  # none, or only its type's
        return True
    return None


def _short_type_aliases() -> None:
    """Show an ``autodoc_type_aliases`` alias by its name also inside a union
    (``ArrayLike | None``): Sphinx 9 writes ``TypeAliasForwardRef('ArrayLike') | None``
    there, because ``typing.Union`` prints its members' ``repr``."""
    from sphinx.util import inspect as sphinx_inspect

    alias = getattr(sphinx_inspect, "TypeAliasForwardRef", None)
    if alias is not None:
        alias.__repr__ = lambda self: str(self.name)


def setup(app: Sphinx) -> dict[str, Any]:
    _short_type_aliases()
    app.add_config_value("seprank_ledger_json", "", "env", types=[str])
    app.add_config_value("seprank_ledger_profile", "quick", "env", types=[str])
    app.add_config_value("seprank_executed_notebooks", "", "env", types=[str])
    app.add_config_value("seprank_docs_workers", 0, "env", types=[int])
    app.connect("builder-inited", generate)
    app.connect("missing-reference", resolve_reexports)
    app.connect("autodoc-skip-member", skip_undocumented_class_members)
    # before numpydoc (priority 500) reads the docstring
    app.connect("autodoc-process-docstring", typeset_notation, priority=400)
    app.setup_extension("paper_checks.sphinx")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
