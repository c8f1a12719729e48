"""Directives that render ledger entries as docutils nodes (no text is re-parsed as markup).

Statements, measurements and details come from checks and may contain ``*``, ``|``, ``$`` or
backticks; building the nodes directly (and turning smart quotes off inside them) shows them
exactly as the checks wrote them.  Statements and the printed / corrected texts are shown as
prose with inline math (:mod:`seprank_docs.texmath`); the raw record stays one click away.

A paper's page reads top-down: per group (false statements, wrong constants, missing
hypotheses, invalid proofs, typos, then what holds, then the notes), a summary table with one
line per claim -- *what is wrong -> what holds instead* -- then the cards.  Each card opens
with the printed statement and the corrected one, then the measurement and the independent
recomputation, then the defence; the other details and the raw JSON are collapsed.
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

from seprank_docs import ledger, texmath
from seprank_docs.ledger import Entry

#: Filled by the extension before Sphinx reads the sources.
LEDGER: dict[str, Entry] = {}
#: Where ledger figures were copied (srcdir-relative folder) -> file names by source path.
FIGURES: dict[str, str] = {}
FIGURE_DIR = "generated/ledger/figures"
_INLINE_LIMIT = 100
#: Characters of each side of a summary line ("what is wrong -> what holds instead").
SUMMARY_SIDE = 90


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def value_node(value: Any) -> nodes.Element:
    """Text as text, a number inline, a structure inline when short, else as a JSON block."""
    if isinstance(value, str):
        if "\n" in value:
            return _block(value)
        return nodes.paragraph(value, value)
    text = _text(value)
    if len(text) > _INLINE_LIMIT:
        block = json.dumps(value, indent=2, ensure_ascii=False)
        return _block(block)
    return nodes.paragraph("", "", nodes.literal(text, text))


def _block(raw: str, text: str | None = None) -> nodes.literal_block:
    """A preformatted block shown as plain text (no syntax colouring splitting it up)."""
    return nodes.literal_block(raw, raw if text is None else text, language="text")


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


def math_text(text: str) -> list[nodes.Node]:
    """A statement as prose and inline math nodes (math only where it is well formed)."""
    return [nodes.math(seg.tex, seg.tex) if seg.math else nodes.Text(seg.source)
            for seg in texmath.segments(text)]


def _short(value: Any, limit: int = SUMMARY_SIDE) -> str:
    """One line of at most ``limit`` characters, cut at a word (a mapping as ``k: v; ...``)."""
    if isinstance(value, Mapping):
        value = "; ".join(f"{k}: {_text(v)}" for k, v in value.items())
    text = " ".join(_text(value).split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return (cut if len(cut) > limit // 2 else text[:limit]).rstrip(",;:") + " …"


def summary_line(entry: Entry) -> str:
    """What is wrong -> what holds instead, in one line (the card has the full text)."""
    d = entry.details or {}
    if entry.error:
        return "the check raised: " + _short(entry.error.strip().splitlines()[-1])
    if entry.verdict in ("erratum", "fails", "unproven"):
        wrong = d.get("printed") or d.get("why") or entry.statement
        right = d.get("corrected")
        return _short(wrong) + (f" → {_short(right)}" if right else "")
    if entry.verdict == "note":
        reading = d.get("reading") or d.get("corrected")
        return _short(d.get("printed", entry.statement)) + (
            f" → reading: {_short(reading)}" if reading else "")
    if entry.verdict == "holds":
        words = ledger.margin_text(entry)
        return _short(words) if words else "holds (no margin reported)"
    return _short(d.get("reason", entry.verdict))


def _table(header: Sequence[str], rows: Iterable[Sequence[nodes.Node | str]],
           widths: Sequence[int], classes: Sequence[str] = ()) -> nodes.table:
    table = nodes.table(classes=["ledger-table", "colwidths-given", *classes],
                        support_smartquotes=False)
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


def _details_block(summary: str, *children: nodes.Node) -> list[nodes.Node]:
    """``<details><summary>summary</summary> children </details>`` (HTML; collapsed)."""
    return [nodes.raw("", f"<details class=\"ledger-more\"><summary>{summary}</summary>",
                      format="html"),
            *children, nodes.raw("", "</details>", format="html")]


def summary_tables(chosen: list[Entry], *, headings: bool = True) -> list[nodes.Node]:
    """One table per group (false statements first, notes apart), each row one line."""
    out: list[nodes.Node] = []
    for _key, title, group in ledger.grouped(chosen):
        rows = []
        for e in group:
            claim_cell = _para(claim_ref(e))
            if e.category == "consistency":
                claim_cell += nodes.Text(" (consistency)")
            verdict = _para(_badge(e.verdict))
            if e.kind:
                verdict += nodes.Text(f" {e.kind}")
            if e.as_expected is False:
                verdict += nodes.Text(f" (registered: {e.expected_verdict})")
            rows.append((claim_cell, verdict, e.reference, summary_line(e)))
        if headings:
            out.append(nodes.rubric("", f"{title} ({len(group)})"))
        out.append(_table(("claim", "verdict, kind", "reference",
                           "what is wrong → what holds instead" if _key not in
                           ("holds", "skipped", "not run") else "margin, or why not run"),
                          rows, (22, 13, 17, 48), classes=["ledger-summary"]))
    return out


class LedgerSummary(SphinxDirective):
    """``.. ledger-summary::`` with ``:paper: KEY`` or ``:prefix: D2W`` -- one row per claim,
    grouped by kind (``:category:`` restricts to ``paper`` or ``consistency``)."""

    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {"paper": directives.unchanged,
                                             "prefix": directives.unchanged,
                                             "category": directives.unchanged,
                                             "group": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        paper, prefix = self.options.get("paper"), self.options.get("prefix")
        category, group = self.options.get("category"), self.options.get("group")
        chosen = [e for e in LEDGER.values()
                  if (paper is None or e.paper == paper)
                  and (prefix is None or e.id.startswith(prefix + "-"))
                  and (category is None or e.category == category)
                  and (group is None or ledger.group_of(e) == group)]
        if not chosen:
            return [_para("No claim of this selection is registered yet.")]
        if category is None:  # a paper subpackage's page: paper verdicts, then consistency
            paper_part = [e for e in chosen if e.category != "consistency"]
            cons = [e for e in chosen if e.category == "consistency"]
            out = summary_tables(paper_part) if paper_part else []
            if cons:
                out += [nodes.rubric("", f"Consistency checks ({len(cons)})"),
                        *summary_tables(cons, headings=False)]
            return [nodes.container("", *out, classes=["ledger-summaries"])]
        return [nodes.container("", *summary_tables(chosen, headings=group is None),
                                classes=["ledger-summaries"])]


class LedgerOverview(SphinxDirective):
    """``.. ledger-overview::`` -- per paper, what is wrong by kind, linked to its page."""

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
            title = str(getattr(PAPERS.get(key), "title", key))
            ref += nodes.inline(title, title)
            counts = ledger.group_counts(verdicts)
            errors = [(k, counts[k]) for k in ("error", *ledger.KIND_ORDER[:5], "ungraded")
                      if k in counts]
            wrong = ", ".join(ledger.count_words(k, n) for k, n in errors) or "nothing found"
            rows.append((_para(ref, f" ({key})"), wrong, str(counts.get("holds", 0)),
                         str(counts.get("note", 0)),
                         str(counts.get("not run", 0) + counts.get("skipped", 0)),
                         str(len(consistency))))
        return [_table(("paper (key)", "what is wrong, by kind", "holds",
                        "notes (not errors)", "not run", "consistency checks"), rows,
                       (30, 34, 8, 10, 8, 10), classes=["ledger-overview"])]


#: Accusation verdicts: the card shows their defence (or says it is not recorded yet).
_ACCUSED = ("erratum", "fails", "unproven", "note")


def _raw_record(entry: Entry) -> dict[str, Any]:
    """The check's record as JSON (figure paths left out: they are the build's files)."""
    return {"id": entry.id, "paper": entry.paper, "reference": entry.reference,
            "statement": entry.statement, "verdict": entry.verdict, "kind": entry.kind,
            "expected_verdict": entry.expected_verdict, "category": entry.category,
            "measured": entry.measured, "reference_value": entry.reference_value,
            "independent": entry.independent, "margin": entry.margin,
            "perturbation": entry.perturbation, "perturbed": entry.perturbed,
            "details": entry.details, "certificates": entry.certificates,
            "error": entry.error, "profile": entry.profile}


class LedgerClaim(SphinxDirective):
    """``.. ledger-claim:: ID`` -- everything the check reported about one claim: printed vs
    corrected first, then the measurement and the independent recomputation, then the defence,
    the rest collapsed."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        entry = LEDGER[self.arguments[0]]
        d = dict(entry.details or {})
        head = _para(_badge(entry.verdict))
        if entry.kind:
            head += nodes.Text(f" {entry.kind}")
        head += nodes.Text(f" · {entry.reference}")
        if entry.expected_verdict is not None:
            agrees = {True: "as registered", False: "DIFFERS from the registered",
                      None: "registered"}[entry.as_expected]
            head += nodes.Text(f" · {agrees} {entry.expected_verdict!r}")
        if entry.category == "consistency":
            head += nodes.Text(" · consistency check: holds by construction, not a verdict "
                               "on the paper")
        fields = nodes.field_list(classes=["ledger-claim"])
        fields += _field("Printed", _para(*math_text(entry.statement)))
        labels = (("printed", "Found for it"), ("corrected", "Corrected (holds)"),
                  ("reading", "The paper's reading"),
                  ("why", "Why the proof fails" if entry.verdict == "unproven" else "Why"))
        if entry.verdict == "note":
            labels = (("printed", "Found for it"), ("reading", "The paper's reading"),
                      ("corrected", "Precisely"), ("why", "Why"))
        for key, label in labels:
            if key in d:
                fields += _field(label, _prose(d.pop(key)))
        if entry.ran and entry.error is None:
            fields += _field("Measured", _value(entry.measured, "measured"))
            if entry.reference_value is not None:
                fields += _field("Paper's value", _value(entry.reference_value, "value"))
        if entry.margin is not None:
            fields += _field("Margin", _para(ledger.margin_text(entry)))
        if entry.independent or entry.verdict not in ("holds", "skipped", "not run"):
            fields += _field("Independent check", *self._independent(entry))
        if entry.perturbation:
            power = entry.perturbation
            if entry.perturbed:
                slack = entry.perturbed.get("log10_slack")
                power += (f" — its verdict: {entry.perturbed.get('verdict')}"
                          + ("" if slack is None else f" (log10 margin {float(slack):+.3g})"))
            fields += _field("Perturbed statement (power)", _para(power))
        if entry.error:
            fields += _field("The check raised",
                             _block(entry.error, ledger.scrub_paths(entry.error)))
        out: list[nodes.Node] = [head, fields]
        if entry.defence:
            out += self._defence(entry.defence)
        elif entry.verdict in _ACCUSED:
            out.append(_para(nodes.strong("Defence", "Defence"),
                             " — not recorded yet for this claim (the readings under which "
                             "the printed statement would be right, and the independent "
                             "attack, come with the claim's registration)."))
        more: list[nodes.Node] = []
        if d:
            rows = [(_para(nodes.strong(str(k), str(k))), value_node(v)) for k, v in d.items()]
            more.append(_table(("detail", "value"), rows, (20, 80)))
        if entry.certificates is not None:
            more += [_para(nodes.strong("Certificates", "Certificates")),
                     value_node(entry.certificates)]
        if entry.seconds is not None:
            more.append(_para(f"Time: {entry.seconds:.2f} s ({entry.profile} profile)."))
        more += [_para(nodes.strong("Statement as printed (ASCII TeX)",
                                    "Statement as printed (ASCII TeX)")),
                 _block(entry.statement)]
        raw = json.dumps(_raw_record(entry), indent=1, ensure_ascii=False, default=str)
        more += [_para(nodes.strong("Raw record", "Raw record")),
                 _block(raw, ledger.scrub_paths(raw))]
        out += _details_block("Details, statement source and raw record", *more)
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
            return [_para(nodes.emphasis("missing", "missing"),
                          " — this non-holds verdict reports no independent recomputation")]
        agrees = ind.get("agrees")
        return [_para(*math_text(str(ind.get("method", "?"))), " — ",
                      "agrees" if agrees else "DISAGREES" if agrees is False else "agreement ?",
                      " with the measurement:"),
                _value(ind.get("value"), "value")]


def _prose(value: Any) -> nodes.Element:
    """A printed / corrected text: prose with inline math (a structure as JSON)."""
    if isinstance(value, str) and "\n" not in value:
        return _para(*math_text(value))
    return value_node(value)


def _value(value: Any, what: str) -> nodes.Element:
    """A measurement: inline when short, else collapsed JSON."""
    text = _text(value)
    if len(text) <= _INLINE_LIMIT or isinstance(value, str):
        return value_node(value)
    block = json.dumps(value, indent=2, ensure_ascii=False)
    return nodes.container("", *_details_block(f"the {what} ({len(text)} characters of JSON)",
                                               _block(block)))
