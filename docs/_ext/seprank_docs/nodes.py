"""Directives that render ledger entries as docutils nodes (no text is re-parsed as markup).

Statements, measurements and details come from checks and may contain ``*``, ``|``, ``$`` or
backticks; building the nodes directly (and turning smart quotes off inside them) shows them
exactly as the checks wrote them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

from seprank_docs import ledger
from seprank_docs.ledger import Entry

#: Filled by the extension before Sphinx reads the sources.
LEDGER: dict[str, Entry] = {}
#: Where ledger figures were copied (srcdir-relative folder) -> file names by source path.
FIGURES: dict[str, str] = {}
FIGURE_DIR = "generated/ledger/figures"
_INLINE_LIMIT = 100


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def value_node(value: Any) -> nodes.Element:
    """Text as text, a number inline, a structure inline when short, else as a JSON block."""
    if isinstance(value, str):
        if "\n" in value:
            return nodes.literal_block(value, value)
        return nodes.paragraph(value, value)
    text = _text(value)
    if len(text) > _INLINE_LIMIT:
        block = json.dumps(value, indent=2, ensure_ascii=False)
        return nodes.literal_block(block, block)
    return nodes.paragraph("", "", nodes.literal(text, text))


def _badge(verdict: str) -> nodes.inline:
    return nodes.inline(verdict, verdict, classes=["ledger-verdict",
                                                  f"ledger-{verdict.replace(' ', '-')}"])


def _field(name: str, *body: nodes.Node) -> nodes.field:
    return nodes.field("", nodes.field_name(name, name), nodes.field_body("", *body))


def _para(*children: nodes.Node | str) -> nodes.paragraph:
    return nodes.paragraph("", "", *(nodes.Text(c) if isinstance(c, str) else c
                                      for c in children))


def claim_ref(entry: Entry, text: str | None = None) -> addnodes.pending_xref:
    """A link to the entry's section on its ledger page (a ``std:ref`` to ``ledger-<id>``)."""
    ref = addnodes.pending_xref("", refdomain="std", reftype="ref",
                                reftarget=entry.anchor.lower(), refexplicit=True,
                                refwarn=True)
    label = text or entry.id
    ref += nodes.literal(label, label)
    return ref


def _table(header: Sequence[str], rows: Iterable[Sequence[nodes.Node | str]],
           widths: Sequence[int]) -> nodes.table:
    table = nodes.table(classes=["ledger-table", "colwidths-given"], support_smartquotes=False)
    group = nodes.tgroup(cols=len(header))
    table += group
    for w in widths:
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    group += head
    head += nodes.row("", *(nodes.entry("", _para(h)) for h in header))
    body = nodes.tbody()
    group += body
    for cells in rows:
        body += nodes.row("", *(nodes.entry("", c if isinstance(c, nodes.Element) and not
                                            isinstance(c, nodes.Inline) else _para(c))
                                for c in cells))
    return table


class LedgerSummary(SphinxDirective):
    """``.. ledger-summary::`` with ``:paper: KEY`` or ``:prefix: D2W`` -- one row per claim."""

    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {"paper": directives.unchanged,
                                             "prefix": directives.unchanged,
                                             "category": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        paper, prefix = self.options.get("paper"), self.options.get("prefix")
        category = self.options.get("category")
        chosen = [e for e in LEDGER.values()
                  if (paper is None or e.paper == paper)
                  and (prefix is None or e.id.startswith(prefix + "-"))
                  and (category is None or e.category == category)]
        if not chosen:
            return [_para("No claim of this selection is registered yet.")]
        chosen.sort(key=lambda e: (e.category == "consistency", ledger.severity_key(e)))
        rows = []
        for e in chosen:
            claim_cell = _para(claim_ref(e))
            if e.category == "consistency":
                claim_cell += nodes.Text(" (consistency)")
            verdict = _para(_badge(e.verdict))
            if e.kind:
                verdict += nodes.Text(f" {e.kind}")
            if e.as_expected is False:
                verdict += nodes.Text(f" (registered: {e.expected_verdict})")
            rows.append((claim_cell, verdict, "" if e.slack is None else f"{e.slack:+.3g}",
                         e.reference, e.statement))
        return [_table(("claim", "verdict, kind", "log10 margin", "reference",
                        "printed statement"), rows, (17, 13, 8, 18, 44))]


class LedgerOverview(SphinxDirective):
    """``.. ledger-overview::`` -- verdict counts per paper, linked to the paper's page."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from paper_checks.registry import PAPERS

        grouped = ledger.by_paper(LEDGER.values())
        rows = []
        for key in [k for k in PAPERS if k in grouped] + sorted(set(grouped) - set(PAPERS)):
            verdicts, consistency = grouped[key]
            ref = addnodes.pending_xref("", refdomain="std", reftype="doc",
                                        reftarget=f"/generated/ledger/{key}", refexplicit=True,
                                        refwarn=True)
            ref += nodes.inline(key, key)
            counts = ledger.verdict_counts(verdicts)
            title = getattr(PAPERS.get(key), "title", key)
            rows.append((_para(ref), title,
                         ", ".join(f"{n} {v}" for v, n in counts.items()),
                         str(len(consistency))))
        return [_table(("paper", "title", "verdicts on printed statements",
                        "consistency checks"), rows, (8, 40, 30, 10))]


class LedgerClaim(SphinxDirective):
    """``.. ledger-claim:: ID`` -- everything the check reported about one claim."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        entry = LEDGER[self.arguments[0]]
        fields = nodes.field_list(classes=["ledger-claim"])
        quote = nodes.block_quote("", _para(entry.statement))
        fields += _field("Printed statement", quote)
        fields += _field("Reference", _para(entry.reference))
        verdict = _para(_badge(entry.verdict))
        if entry.kind:
            verdict += nodes.Text(f" — kind: {entry.kind}")
        if entry.expected_verdict is not None:
            agrees = {True: "as registered", False: "DIFFERS from the registered",
                      None: "registered"}[entry.as_expected]
            verdict += nodes.Text(f" ({agrees} {entry.expected_verdict!r})")
        fields += _field("Verdict", verdict)
        fields += _field("Category", _para(
            entry.category + (" — holds by construction, not a verdict on the paper"
                              if entry.category == "consistency" else "")))
        if entry.ran and entry.error is None:
            fields += _field("Measured", value_node(entry.measured))
            fields += _field("Paper's value", value_node(entry.reference_value))
        fields += _field("Independent recomputation", *self._independent(entry))
        if entry.margin is not None:
            fields += _field("Margin", _para(ledger.margin_text(entry)))
        if entry.perturbation:
            power = entry.perturbation
            if entry.perturbed:
                slack = entry.perturbed.get("log10_slack")
                power += (f" — its verdict: {entry.perturbed.get('verdict')}"
                          + ("" if slack is None else f" (log10 margin {float(slack):+.3g})"))
            fields += _field("Perturbed statement (power)", _para(power))
        if entry.certificates is not None:
            fields += _field("Certificates", value_node(entry.certificates))
        if entry.seconds is not None:
            fields += _field("Time", _para(f"{entry.seconds:.2f} s ({entry.profile} profile)"))
        out: list[nodes.Node] = [fields]
        if entry.defence:
            out += self._defence(entry.defence)
        if entry.details:
            rows = [(_para(nodes.strong(str(k), str(k))), value_node(v))
                    for k, v in entry.details.items()]
            out.append(_table(("detail", "value"), rows, (20, 80)))
        if entry.error:
            out.append(_para(nodes.strong("The check raised:", "The check raised:")))
            out.append(nodes.literal_block(entry.error, entry.error))
        for path in entry.figures:
            uri = os.path.relpath(os.path.join(FIGURE_DIR, FIGURES[path]),
                                  os.path.dirname(self.env.docname))
            figure = nodes.figure("", nodes.image(uri=uri, alt=f"{entry.id}: {FIGURES[path]}"),
                                  classes=["ledger-figure"])
            figure += nodes.caption("", f"{entry.id}: {FIGURES[path]}")
            out.append(figure)
        # shown exactly as the check reported it: no smart quotes, dashes or ellipses
        return [nodes.container("", *out, classes=["ledger-entry"], support_smartquotes=False)]

    @staticmethod
    def _defence(defence: Mapping[str, Any]) -> list[nodes.Node]:
        """The readings under which the printed statement would be right, and the attack."""
        from paper_checks.defence import ASPECT_TITLES

        rows = [(_para(nodes.strong(title, title)), _para(str(defence.get(aspect, ""))))
                for aspect, title in ASPECT_TITLES.items()]
        attack = defence.get("attack")
        text = ("not recorded" if not attack else
                f"{attack.get('outcome')} — {attack.get('summary')} "
                f"({attack.get('reviewer')}, {attack.get('date')})")
        rows.append((_para(nodes.strong("independent attack", "independent attack")),
                     _para(text)))
        head = _para(nodes.strong("Defence", "Defence"),
                     " — the readings under which the printed statement would be right:")
        return [head, _table(("reading", "why it does not save the statement"), rows,
                             (25, 75))]

    @staticmethod
    def _independent(entry: Entry) -> list[nodes.Node]:
        ind = entry.independent
        if not ind:
            if entry.verdict in ("holds", "skipped", "not run"):
                return [_para("none reported")]
            return [_para(nodes.emphasis("missing", "missing"),
                          " — this non-holds verdict reports no independent recomputation")]
        agrees = ind.get("agrees")
        return [_para(f"{ind.get('method', '?')} — ",
                      "agrees" if agrees else "DISAGREES" if agrees is False else "agreement ?",
                      " with the measurement:"),
                value_node(ind.get("value"))]
