"""Ledger pages for any paper: a Sphinx extension rendering ``paper-checks`` verdicts.

Add it to any project's ``conf.py``::

    extensions = ["paper_checks.sphinx"]
    paper_ledger_json = "paper_checks.json"   # optional: a ``paper-checks --json`` report

and write, in reStructuredText or MyST::

    .. paper-ledger:: KEY

    ```{paper-ledger} KEY
    ```

The directive renders the verdicts on the printed statements of paper ``KEY``, grouped as the
``paper-checks`` report groups them -- what is wrong first, by kind (false statements, wrong
constants, missing hypotheses, invalid proofs, typos), then what holds, then the notes -- each
group a section with a one-line-per-claim summary table and a card per claim (printed and
corrected statement, measurement, independent recomputation, margin, perturbed statement;
the defence and the raw record collapsed).  Consistency checks (true by construction) come
last, apart.  Every claim card is labelled ``ledger-<id>`` (link to it with
``:ref:`ledger-<id>```).

Options of ``paper-ledger`` (all optional):

``:ids: GLOB ...``
    Only the claims whose id matches one of these :mod:`fnmatch` patterns (``MP-* CL-*``),
    e.g. to split a long paper into one page per chapter.
``:reference: REGEX``
    Only the claims whose ``reference`` field matches this regular expression
    (``^§3\\b``).
``:tables-only:``
    The summary tables alone (rows link to the cards rendered elsewhere).

The argument may be left out (every paper) when ``:ids:`` selects the claims.  A second
directive, ``.. paper-ledger-overview::``, renders one row per paper -- what is wrong by kind,
how many hold -- linked to the label ``ledger-paper-<key>`` (put it above the page that holds
that paper's ledger).

Configuration values:

``paper_ledger_json``
    A ``paper-checks --json`` report, relative to the folder of ``conf.py``.  Empty (the
    default): the claims of each paper a directive names are run while the page is read
    (:func:`paper_checks.run_claims`, profile ``paper_ledger_profile``).
``paper_ledger_profile``
    ``quick`` (default) or ``full``: the profile of those runs.

Claims registered but absent from the report appear as ``not run``.  Papers and claims are
those registered with :mod:`paper_checks` (the built-in papers, and any other registered by
import -- list the claims' module in ``conf.py`` before the build, or through an entry point).

Examples
--------
A two-file documentation folder::

    docs/conf.py     extensions = ["paper_checks.sphinx"]; paper_ledger_json = "pc.json"
    docs/index.md    # My paper's ledger  ```{paper-ledger} KEY```

built with ``python -m sphinx -b html docs out``.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from paper_checks.sphinx import entries as ledger
from paper_checks.sphinx.entries import Entry
from paper_checks.sphinx.render import (
    card_title,
    claim_card,
    compact_table,
    overview_table,
    summary_tables,
)

__all__ = ["CSS", "PaperLedger", "PaperLedgerOverview", "ledger_entries", "load_ledger",
           "page_intro", "select_entries", "setup"]

logger = logging.getLogger(__name__)

#: Loaded entries by claim id, for the directives (filled once per build).
_LEDGER: dict[str, Entry] = {}
#: Paper keys whose claims were run in this process (no report given).
_RUN: set[str] = set()


def _papers() -> Mapping[str, Any]:
    from paper_checks.registry import PAPERS

    return PAPERS


def _registered() -> list[Any]:
    from paper_checks.registry import all_claims

    return all_claims()


def load_ledger(path: Path) -> list[Entry]:
    """The entries of a ``paper-checks --json`` report, plus the registered claims it lacks
    (as ``not run``).

    Parameters
    ----------
    path : pathlib.Path
        The report (figures are looked up relative to its folder).

    Returns
    -------
    list of Entry
        One entry per claim.
    """
    return ledger.load(path, papers=_papers(), registered=_registered())


def _run_paper(key: str, profile: str) -> list[Entry]:
    """Run the claims of paper ``key`` now (no report was given) -> their entries."""
    from paper_checks.registry import select
    from paper_checks.report import json_report
    from paper_checks.runner import run_claims

    chosen = select(profile=profile, paper=key)  # type: ignore[arg-type]
    logger.info("paper_checks.sphinx: running the %d %s-profile claims of paper %s",
                len(chosen), profile, key)
    records = json.loads(json_report(run_claims(chosen, progress=False)))
    registered = [c for c in _registered() if c.paper == key]
    return ledger.entries_from_json(records, base=Path.cwd(), papers=_papers(),
                                    registered=registered)


def ledger_entries(app: Sphinx, keys: Iterable[str] = ()) -> dict[str, Entry]:
    """The entries the directives read: the configured report, or runs of papers ``keys``.

    Parameters
    ----------
    app : sphinx.application.Sphinx
        The running Sphinx application (for its configuration).
    keys : iterable of str
        Papers a directive asks for; run now when no report is configured.

    Returns
    -------
    dict of str to Entry
        Claim id -> entry.
    """
    if app.config.paper_ledger_json:
        return _LEDGER
    for key in keys:
        if key not in _RUN:
            _RUN.add(key)
            _LEDGER.update({e.id: e for e in _run_paper(key, app.config.paper_ledger_profile)})
    return _LEDGER


def _load_configured(app: Sphinx) -> None:
    """``builder-inited``: read ``paper_ledger_json`` once (relative to ``conf.py``)."""
    _LEDGER.clear()
    _RUN.clear()
    given = app.config.paper_ledger_json
    if given:
        path = (Path(app.confdir) / given).resolve()
        if not path.is_file():
            raise FileNotFoundError(f"paper_ledger_json = {given!r}: no such file ({path}); "
                                    "write it with `paper-checks --json PATH` or leave the "
                                    "value empty to run the claims during the build")
        _LEDGER.update({e.id: e for e in load_ledger(path)})


def select_entries(chosen: Iterable[Entry], *, key: str | None = None,
                   ids: Iterable[str] = (), reference: str | None = None) -> list[Entry]:
    """The entries of paper ``key`` (any when None) whose id matches a glob of ``ids`` (any
    when empty) and whose reference matches the regular expression ``reference``.

    Parameters
    ----------
    chosen : iterable of Entry
        Candidate entries.
    key : str or None
        Paper key.
    ids : iterable of str
        :mod:`fnmatch` patterns on claim ids.
    reference : str or None
        Regular expression searched in the ``reference`` field.

    Returns
    -------
    list of Entry
        The matching entries, in their input order.
    """
    globs = list(ids)
    pattern = re.compile(reference) if reference else None
    return [e for e in chosen
            if (key is None or e.paper == key)
            and (not globs or any(fnmatch.fnmatchcase(e.id, g) for g in globs))
            and (pattern is None or pattern.search(e.reference))]


def page_intro(verdicts: list[Entry]) -> str:
    """The opening sentence of a ledger: how many of each group, in page order.

    Parameters
    ----------
    verdicts : list of Entry
        The paper verdicts shown (consistency checks apart).

    Returns
    -------
    str
        E.g. ``Verdicts on the printed statements: 1 false statement, 40 hold. ...``
    """
    counts = ledger.group_counts(verdicts)
    if not counts:
        return "No verdict on a printed statement in this selection yet."
    return ("Verdicts on the printed statements: "
            + ", ".join(ledger.count_words(k, n) for k, n in counts.items()) + ".  What is "
            "wrong comes first, by kind, the largest violation first; a summary row says what "
            "is wrong and what holds instead, the card under it says how it was measured.")


def _globs(text: str) -> list[str]:
    return text.split()


class PaperLedger(SphinxDirective):
    """``.. paper-ledger:: KEY`` -- a paper's verdicts, grouped, with tables and cards.

    See the module docstring for the options.
    """

    optional_arguments = 1
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {"ids": _globs, "reference": directives.unchanged,
                                             "tables-only": directives.flag}

    def run(self) -> list[nodes.Node]:
        """Render the selected claims.

        Returns
        -------
        list of docutils.nodes.Node
            The intro paragraph, then one section per group (or the tables alone).
        """
        _note_use(self.env, self.env.docname)
        key = self.arguments[0] if self.arguments else None
        papers = _papers()
        if key is not None and key not in papers and not self.config.paper_ledger_json:
            raise self.error(f"paper-ledger: unknown paper {key!r}; registered: "
                             f"{sorted(papers)}")
        if key is None and "ids" not in self.options:
            raise self.error("paper-ledger: give a paper key, or select claims with :ids:")
        try:
            re.compile(self.options.get("reference") or "")
        except re.error as exc:
            raise self.error(f"paper-ledger: :reference: is not a regular expression: "
                             f"{exc}") from exc
        keys = [key] if key is not None else sorted({c.paper for c in _registered()})
        chosen = select_entries(ledger_entries(self.env.app, keys).values(), key=key,
                                ids=self.options.get("ids", ()),
                                reference=self.options.get("reference"))
        if not chosen:
            return [nodes.paragraph("", "No claim of this selection is registered.")]
        verdicts = [e for e in chosen if e.category != "consistency"]
        consistency = [e for e in chosen if e.category == "consistency"]
        if "tables-only" in self.options:
            out: list[nodes.Node] = summary_tables(verdicts) if verdicts else []
            if consistency:
                out += [nodes.rubric("", f"Consistency checks ({len(consistency)})"),
                        *summary_tables(consistency, headings=False)]
            return [nodes.container("", *out, classes=["ledger-summaries"])]
        out = [nodes.paragraph("", page_intro(verdicts))]
        for group_key, title, group in ledger.grouped(verdicts):
            out.append(self._section(f"{title} ({len(group)})", group, group_key))
        if consistency:
            section = self._section(f"Consistency checks ({len(consistency)})", consistency,
                                    "consistency")
            section.insert(1, nodes.paragraph(
                "", "These hold by construction (the library compared with itself, or a "
                "family that satisfies the statement automatically): not verdicts on the "
                "paper."))
            out.append(section)
        return out

    def _label(self, node: nodes.Element, entry: Entry) -> None:
        """Make ``node`` the target of the links to ``entry`` (label ``ledger-<id>``)."""
        node["names"].append(entry.anchor.lower())
        self.state.document.note_explicit_target(node, node)

    def _section(self, title: str, group: list[Entry], group_key: str) -> nodes.section:
        """A group: its title, then a table -- of one-line summaries followed by a card per
        claim when the group is wrong (or notes); of the claims themselves when they hold,
        were not run, or hold by construction."""
        section = nodes.section("", nodes.title(title, title),
                                names=[nodes.fully_normalize_name(title)])
        self.state.document.note_implicit_target(section, section)
        docdir = str(Path(self.env.doc2path(self.env.docname)).parent)
        if group_key in ("holds", "skipped", "not run", "consistency"):
            for _key, _title, part in ledger.grouped(group):
                section += compact_table(part, docdir, self._label)
            return section
        section += summary_tables(group, headings=False)
        for e in group:
            rubric = nodes.rubric("", "", *card_title(e), classes=["ledger-card-title"])
            self._label(rubric, e)
            section += rubric
            section += claim_card(e, docdir)
        return section


class PaperLedgerOverview(SphinxDirective):
    """``.. paper-ledger-overview::`` -- per paper, what is wrong by kind, linked to its
    ledger (the label ``ledger-paper-<key>``)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        """Render the table.

        Returns
        -------
        list of docutils.nodes.Node
            One table, a row per paper with a verdict.
        """
        _note_use(self.env, self.env.docname)
        papers = _papers()
        by_key = ledger.by_paper(ledger_entries(self.env.app).values())
        order = [k for k in papers if k in by_key] + sorted(set(by_key) - set(papers))
        titles = {k: str(getattr(papers.get(k), "title", k)) for k in order}
        return [overview_table({k: by_key[k] for k in order}, titles)]


#: The ledger's stylesheet (verdict colours, tables that fit their column, compact cards).
CSS = """/* paper_checks.sphinx: verdict badges, tables and cards of a paper ledger. */
.ledger-verdict { display: inline-block; padding: 0 0.45em; border-radius: 0.3em;
  font-weight: 600; font-size: 0.9em; color: #fff; background: #6c757d; white-space: nowrap; }
.ledger-holds { background: #1a7f37; }
.ledger-erratum { background: #bf8700; }
.ledger-fails, .ledger-error { background: #cf222e; }
.ledger-unproven { background: #8250df; }
.ledger-note { background: #0969da; }
.ledger-skipped, .ledger-not-run { background: #6c757d; }
table.ledger-table { width: 100%; table-layout: fixed; }
table.ledger-table td, table.ledger-table th { vertical-align: top; font-size: 0.92em;
  overflow-wrap: anywhere; }
table.ledger-table td p { margin-bottom: 0.2em; }
.ledger-summaries p.rubric { margin: 1.1em 0 0.3em; font-size: 1.05em; }
p.rubric.ledger-card-title { display: block; margin: 0.9em 0 0.15em; font-size: 1em;
  font-weight: 600; border-top: 1px solid rgba(128, 128, 128, 0.3); padding-top: 0.4em; }
.ledger-card-reference { font-weight: normal; }
table.ledger-compact div.ledger-entry p { margin-bottom: 0.1em; }
table.ledger-compact details.ledger-more { margin: 0; font-size: 0.95em; }
div.ledger-entry { font-size: 0.95em; }
dl.ledger-claim { grid-template-columns: 10em minmax(0, 1fr); margin-bottom: 0.2em; }
dl.ledger-claim > dd { min-width: 0; overflow-wrap: anywhere; }
dl.ledger-claim > dd p { margin-bottom: 0.25em; }
dl.ledger-claim pre, div.ledger-entry pre { white-space: pre-wrap; overflow-wrap: anywhere; }
div.ledger-entry code, table.ledger-table code { white-space: normal; overflow-wrap: anywhere; }
details.ledger-more { margin: 0.2em 0 0.6em; }
details.ledger-more > summary { cursor: pointer; color: var(--pst-color-link, #0a7d91); }
details.ledger-more pre { max-height: 28em; overflow: auto; }
figure.ledger-figure img { max-width: 100%; height: auto; }
mjx-container[jax="CHTML"] { max-width: 100%; overflow-x: auto; overflow-y: hidden; }
"""
_CSS_NAME = "paper_ledger.css"


def _write_css(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: the stylesheet into the HTML output's ``_static``."""
    if exception is None and app.builder.format == "html":
        static = Path(app.outdir) / "_static"
        static.mkdir(parents=True, exist_ok=True)
        (static / _CSS_NAME).write_text(CSS, encoding="utf-8")


def _note_use(env: Any, docname: str) -> None:
    docs: set[str] = getattr(env, "paper_ledger_docs", set())
    docs.add(docname)
    env.paper_ledger_docs = docs


def _purge(app: Sphinx, env: Any, docname: str) -> None:
    getattr(env, "paper_ledger_docs", set()).discard(docname)


def _merge(app: Sphinx, env: Any, docnames: Iterable[str], other: Any) -> None:
    env.paper_ledger_docs = (getattr(env, "paper_ledger_docs", set())
                             | getattr(other, "paper_ledger_docs", set()))


def _outdated(app: Sphinx, env: Any, added: set[str], changed: set[str],
              removed: set[str]) -> list[str]:
    """Pages with a ledger directive are re-read on every build: the verdicts they show come
    from a report (or a run), not from the page's source."""
    return sorted(getattr(env, "paper_ledger_docs", set()) - removed)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives, the configuration values and the stylesheet.

    Parameters
    ----------
    app : sphinx.application.Sphinx
        The application.

    Returns
    -------
    dict
        Sphinx's extension metadata.
    """
    app.setup_extension("sphinx.ext.mathjax")
    app.add_config_value("paper_ledger_json", "", "env", types=[str])
    app.add_config_value("paper_ledger_profile", "quick", "env", types=[str])
    app.add_directive("paper-ledger", PaperLedger)
    app.add_directive("paper-ledger-overview", PaperLedgerOverview)
    app.connect("builder-inited", _load_configured, priority=800)
    app.connect("build-finished", _write_css)
    app.connect("env-get-outdated", _outdated)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.add_css_file(_CSS_NAME)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
