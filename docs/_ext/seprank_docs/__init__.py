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
    source changes).  Either way myst-nb renders them with execution off.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
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
from seprank_docs.execute import execute_notebooks

logger = logging.getLogger(__name__)


#: Seconds between two progress lines of the paper-checks run in the build log.
PROGRESS_EVERY = 10.0


def _run_paper_checks(out: Path, profile: str) -> Path:
    """Run ``paper-checks`` into ``out``, its progress bar relayed to the build log (a line
    every :data:`PROGRESS_EVERY` seconds), the report written only when the run finished."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / "paper_checks.json"
    partial = out / "paper_checks.partial.json"
    cmd = [sys.executable, "-m", "paper_checks.cli", "--profile", profile, "--json",
           str(partial), "--plots", str(out / "plots"), "--report", str(out / "report.md")]
    logger.info("seprank_docs: running the %s-profile paper checks for the ledger (minutes; "
                "-D seprank_ledger_json=PATH reuses a report): %s", profile, " ".join(cmd))
    start = last = time.monotonic()
    tail = ""
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True) as child:
        assert child.stderr is not None
        for chunk in iter(lambda: child.stderr.read(256), ""):  # type: ignore[union-attr]
            tail = (tail + chunk)[-8000:]
            lines = [x for x in re.split(r"[\r\n]", tail) if x.strip()]
            if lines and time.monotonic() - last >= PROGRESS_EVERY:
                last = time.monotonic()
                logger.info("seprank_docs: [%4.0f s] %s", last - start, lines[-1].strip())
        code = child.wait()
    logger.info("seprank_docs: paper checks done in %.0f s (exit %d)", time.monotonic() - start,
                code)
    # Exit 1 = a verdict differs from its registration: the ledger shows it, the build goes on.
    if code not in (0, 1) or not partial.is_file():
        raise RuntimeError(f"paper-checks failed ({code}):\n{tail[-4000:]}")
    partial.replace(target)  # a killed build leaves no report that looks finished
    return target


def generate(app: Sphinx) -> None:
    """Write ``docs/generated/`` (see :mod:`seprank_docs.pages`) before the sources are read."""
    from paper_checks.registry import PAPERS, all_claims

    srcdir = Path(app.srcdir)
    root, tours, repo = srcdir / "generated", srcdir / "tours", srcdir.parent
    writer = pages.Writer(root)
    run_dir = root / "ledger" / "_run"
    given = app.config.seprank_ledger_json
    json_path = (Path(given).resolve() if given
                 else _run_paper_checks(run_dir, app.config.seprank_ledger_profile))
    app.config.paper_ledger_json = str(json_path)  # read by paper_checks.sphinx
    entries = ledger.load(json_path, papers=PAPERS, registered=all_claims())
    profile = "full" if any(e.profile == "full" and e.ran for e in entries) else "quick"
    pages.write_ledger(writer, entries, dict(PAPERS), profile)

    modules = public_modules()
    members = documented_members(modules)
    pages.write_papers(writer, modules, members, tours, entries)
    pages.write_api(writer, modules, members, tours)
    notebooks = sorted((repo / "notebooks").glob("*.ipynb"))
    given_notebooks = app.config.seprank_executed_notebooks
    executed = (Path(given_notebooks).resolve() if given_notebooks
                else execute_notebooks(notebooks, root / "_executed"))
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
    app.connect("builder-inited", generate)
    app.connect("missing-reference", resolve_reexports)
    app.connect("autodoc-skip-member", skip_undocumented_class_members)
    # before numpydoc (priority 500) reads the docstring
    app.connect("autodoc-process-docstring", typeset_notation, priority=400)
    app.setup_extension("paper_checks.sphinx")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
