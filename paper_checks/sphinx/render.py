"""Ledger entries as docutils nodes: summary tables, claim cards, the overview table.

No text is re-parsed as markup.

Statements, measurements and details come from checks and may contain ``*``, ``|``, ``$`` or
backticks; building the nodes directly (and turning smart quotes off inside them) shows them
exactly as the checks wrote them.  Statements and the printed / corrected texts are shown as
prose with inline math (:mod:`paper_checks.sphinx.texmath`); the raw record stays one click away.

A paper's page reads top-down: per group (false statements, wrong constants, missing
hypotheses, invalid proofs, typos, then what holds, then the notes), a summary table with one
line per claim -- *what is wrong -> what holds instead* -- then the cards.  Each card opens
with the printed statement and the corrected one, then the measurement and the independent
recomputation; the defence, the other details and the raw JSON are collapsed.  A card of a
claim that holds (or was not run) shows its statement and margin, the rest collapsed: a page
reads as what is wrong, and stays short.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from docutils import nodes
from sphinx import addnodes

from paper_checks.report import portable_paths
from paper_checks.sphinx import entries as ledger
from paper_checks.sphinx import texmath
from paper_checks.sphinx.entries import Entry

__all__ = ["SUMMARY_SIDE", "card_title", "claim_card", "claim_ref", "compact_table",
           "math_text", "overview_table", "summary_line", "summary_nodes", "summary_tables",
           "value_node"]

_INLINE_LIMIT = 100
#: Characters of each side of a summary line ("what is wrong -> what holds instead").
SUMMARY_SIDE = 65


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
    """A statement as prose and inline math nodes (math only where it is well formed).

    Parameters
    ----------
    text : str
        The statement in ASCII TeX, as registered.

    Returns
    -------
    list of docutils.nodes.Node
        Text and :class:`docutils.nodes.math` nodes; their text reads the statement back.
    """
    return [nodes.math(seg.tex, seg.tex) if seg.math else nodes.Text(seg.source)
            for seg in texmath.segments(text)]


def _short_segments(text: str, limit: int) -> list[texmath.Segment]:
    """The first segments of ``text`` up to about ``limit`` characters, cut only in prose at
    a word (a formula is never cut: it is kept whole or left out), ``…`` marking a cut."""
    out: list[texmath.Segment] = []
    used = 0
    for seg in texmath.segments(" ".join(text.split())):
        if used + len(seg.source) <= limit:
            out.append(seg)
            used += len(seg.source)
            continue
        if not seg.math:
            room = seg.source[: max(0, limit - used)].rsplit(" ", 1)[0]
            if room.strip():
                out.append(texmath.Segment(room.rstrip(",;: "), False))
        elif not out:
            out.append(seg)  # a formula longer than the limit: whole, never cut
        out.append(texmath.Segment(" …", False))
        break
    return out


def _short_nodes(value: Any, limit: int = SUMMARY_SIDE) -> list[nodes.Node]:
    """One line of about ``limit`` characters, with its formulas rendered.  A mapping or a
    list is never cut inside an item: the items that fit, then how many more the card has."""
    if isinstance(value, Mapping | list | tuple):
        items = ([f"{k}: {_text(v)}" for k, v in value.items()] if isinstance(value, Mapping)
                 else [_text(v) for v in value])
        shown: list[str] = []
        for item in items:
            if sum(len(s) + 2 for s in shown) + len(item) > limit and shown:
                break
            shown.append(item)
        rest = len(items) - len(shown)
        more = [nodes.Text(f" … and {rest} more (in the card)")] if rest else []
        out: list[nodes.Node] = []
        for i, item in enumerate(shown):
            if i:
                out.append(nodes.Text("; "))
            out.append(nodes.literal(item, item))
        return out + more
    segs = _short_segments(_text(value), limit)
    return [nodes.math(s.tex, s.tex) if s.math else nodes.Text(s.source) for s in segs]


def summary_nodes(entry: Entry) -> list[nodes.Node]:
    """What is wrong -> what holds instead, in about one line with its formulas rendered (the
    card has the full text).

    Parameters
    ----------
    entry : Entry
        The claim.

    Returns
    -------
    list of docutils.nodes.Node
        Inline nodes for one table cell.
    """
    d = entry.details or {}
    if entry.error:
        last = entry.error.strip().splitlines()[-1] if entry.error.strip() else entry.error
        return [nodes.Text("the check raised: "), nodes.literal(last, last)]
    if entry.verdict in ("erratum", "fails", "unproven"):
        wrong = d.get("printed") or d.get("why") or entry.statement
        right = d.get("corrected")
        return _short_nodes(wrong) + ([nodes.Text(" → "), *_short_nodes(right)] if right else [])
    if entry.verdict == "note":
        reading = d.get("reading") or d.get("corrected")
        return _short_nodes(d.get("printed", entry.statement)) + (
            [nodes.Text(" → reading: "), *_short_nodes(reading)] if reading else [])
    if entry.verdict == "holds":
        words = ledger.margin_text(entry)
        return _short_nodes(words) if words else [nodes.Text("holds (no margin reported)")]
    return _short_nodes(d.get("reason", entry.verdict))


def summary_line(entry: Entry) -> str:
    """:func:`summary_nodes` as plain text (formulas as their TeX).

    Parameters
    ----------
    entry : Entry
        The claim.

    Returns
    -------
    str
        The line.
    """
    return "".join(n.astext() for n in summary_nodes(entry))


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


def summary_table(group: Sequence[Entry], group_key: str) -> nodes.table:
    """One group's table: a row per claim (claim, verdict and kind, reference, one line)."""
    rows = []
    for e in group:
        claim_cell = _para(claim_ref(e))
        if e.category == "consistency":
            claim_cell += nodes.Text(" (consistency)")
        verdict = _para(_badge(e.verdict))
        if e.kind:
            verdict += nodes.Text(f" {e.kind}")
        if e.basis:
            verdict += nodes.inline("", f" · {e.basis.replace('_', ' ')}",
                                    classes=["ledger-basis"])
        if e.as_expected is False:
            verdict += nodes.Text(f" (registered: {e.expected_verdict})")
        rows.append((claim_cell, verdict, e.reference, _para(*summary_nodes(e))))
    return _table(("claim", "verdict, kind · basis", "reference",
                   "what is wrong → what holds instead" if group_key not in
                   ("holds", "skipped", "not run") else "margin, or why not run"),
                  rows, (18, 12, 14, 56), classes=["ledger-summary"])


def summary_tables(chosen: list[Entry], *, headings: bool = True) -> list[nodes.Node]:
    """One table per group (false statements first, notes apart), each row one line.

    Parameters
    ----------
    chosen : list of Entry
        The claims to list.
    headings : bool
        Put a rubric with the group's title and count above each table.

    Returns
    -------
    list of docutils.nodes.Node
        Rubrics and tables.
    """
    out: list[nodes.Node] = []
    for key, title, group in ledger.grouped(chosen):
        if headings:
            out.append(nodes.rubric("", f"{title} ({len(group)})"))
        out.append(summary_table(group, key))
    return out


def overview_table(by_key: Mapping[str, tuple[list[Entry], list[Entry]]],
                   titles: Mapping[str, str]) -> nodes.table:
    """Per paper, what is wrong by kind, linked to its ledger page (label
    ``ledger-paper-<key>``).

    Parameters
    ----------
    by_key : mapping of str to (list of Entry, list of Entry)
        Paper key -> (paper verdicts, consistency checks), as :func:`entries.by_paper`.
    titles : mapping of str to str
        Paper key -> its title.

    Returns
    -------
    docutils.nodes.table
        One row per paper.
    """
    rows = []
    for key, (verdicts, consistency) in by_key.items():
        ref = addnodes.pending_xref("", refdomain="std", reftype="ref",
                                    reftarget=f"ledger-paper-{key}".lower(), refexplicit=True,
                                    refwarn=True)
        title = titles.get(key, key)
        ref += nodes.inline(title, title)
        counts = ledger.group_counts(verdicts)
        errors = [(k, counts[k]) for k in ("error", *ledger.KIND_ORDER[:5], "ungraded")
                  if k in counts]
        wrong = ", ".join(ledger.count_words(k, n) for k, n in errors) or "nothing found"
        rows.append((_para(ref, f" ({key})"), wrong, str(counts.get("holds", 0)),
                     str(counts.get("note", 0)),
                     str(counts.get("not run", 0) + counts.get("skipped", 0)),
                     str(len(consistency))))
    return _table(("paper (key)", "what is wrong, by kind", "holds", "notes (not errors)",
                   "not run", "consistency checks"), rows, (30, 34, 8, 10, 8, 10),
                  classes=["ledger-overview"])


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


def card_title(entry: Entry) -> list[nodes.Node]:
    """The line that heads a card: id, verdict badge and kind, reference, registration.

    Parameters
    ----------
    entry : Entry
        The claim.

    Returns
    -------
    list of docutils.nodes.Node
        Inline nodes (for a rubric).
    """
    out: list[nodes.Node] = [nodes.literal(entry.id, entry.id), nodes.Text(" "),
                             _badge(entry.verdict)]
    if entry.kind:
        out.append(nodes.Text(f" {entry.kind}"))
    tail = f" · {entry.reference}"
    if entry.basis:
        tail += f" · basis: {entry.basis.replace('_', ' ')}"
    if entry.expected_verdict is not None and entry.as_expected is not True:
        tail += (" · DIFFERS from the registered " if entry.as_expected is False
                 else " · registered ") + repr(entry.expected_verdict)
    if entry.category == "consistency":
        tail += " · consistency check (holds by construction)"
    out.append(nodes.inline(tail, tail, classes=["ledger-card-reference"]))
    return out


def _measurement_fields(entry: Entry) -> list[nodes.field]:
    out = []
    if entry.ran and entry.error is None:
        out.append(_field("Measured", _value(entry.measured, "measured")))
        if entry.reference_value is not None:
            out.append(_field("Paper's value", _value(entry.reference_value, "value")))
    if entry.independent or entry.verdict not in ("holds", "skipped", "not run"):
        out.append(_field("Independent check", *_independent(entry)))
    return out


def _power_field(entry: Entry) -> list[nodes.field]:
    if not entry.perturbation:
        return []
    power = entry.perturbation
    if entry.perturbed:
        slack = entry.perturbed.get("log10_slack")
        power += (f" — its verdict: {entry.perturbed.get('verdict')}"
                  + ("" if slack is None else f" (log10 margin {float(slack):+.3g})"))
    return [_field("Perturbed statement (power)", _para(power))]


def _collapsed(entry: Entry, details: Mapping[str, Any], head: list[nodes.Node],
               what: str) -> list[nodes.Node]:
    """The collapsed part of a card: ``head`` nodes, the defence, the other details, the
    certificates, the time, the statement's source and the raw record."""
    more = list(head)
    if entry.defence:
        more += _defence(entry.defence)
    if details:
        rows = [(_para(nodes.strong(str(k), str(k))), value_node(v))
                for k, v in details.items()]
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
             _block(raw, portable_paths(raw))]
    return _details_block(what, *more)


def _figures(entry: Entry, docdir: str) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for path in entry.figures:
        uri = os.path.relpath(path, docdir)
        name = os.path.basename(path)
        figure = nodes.figure("", nodes.image(uri=uri, alt=f"{entry.id}: {name}"),
                              classes=["ledger-figure"])
        figure += nodes.caption("", f"{entry.id}: {name}")
        out.append(figure)
    return out


def claim_card(entry: Entry, docdir: str) -> list[nodes.Node]:
    """Everything the check reported about a claim found wrong (or a note): printed vs
    corrected first, then the independent recomputation and the margin; the measurement, the
    perturbed statement, the defence and the rest collapsed.

    Parameters
    ----------
    entry : Entry
        The claim.
    docdir : str
        The folder of the document the card is on (figures are linked relative to it).

    Returns
    -------
    list of docutils.nodes.Node
        One container (class ``ledger-entry``).
    """
    d = dict(entry.details or {})
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
    measurement = _measurement_fields(entry)
    for f in measurement:  # the independent recomputation shown, the measurement collapsed
        if f[0].astext() == "Independent check":
            fields += f
    if entry.margin is not None:
        fields += _field("Margin", _para(ledger.margin_text(entry)))
    if entry.error:
        fields += _field("The check raised",
                         _block(entry.error, portable_paths(entry.error)))
    out: list[nodes.Node] = [fields]
    if not entry.defence and entry.verdict in _ACCUSED:
        out.append(_para(nodes.strong("Defence", "Defence"),
                         " — not recorded yet for this claim (the readings under which "
                         "the printed statement would be right, and the independent "
                         "attack, come with the claim's registration)."))
    power = _power_field(entry)
    hidden = [f for f in measurement if f[0].astext() != "Independent check"] + power
    head: list[nodes.Node] = ([nodes.field_list("", *hidden, classes=["ledger-claim"])]
                              if hidden else [])
    what = ", ".join(w for w, there in (("measurement", len(hidden) > len(power)),
                                        ("perturbed statement", power),
                                        ("defence", entry.defence), ("details", True))
                     if there) + " and raw record"
    out += _collapsed(entry, d, head, what[0].upper() + what[1:])
    out += _figures(entry, docdir)
    # shown exactly as the check reported it: no smart quotes, dashes or ellipses
    return [nodes.container("", *out, classes=["ledger-entry"], support_smartquotes=False)]


def compact_table(group: Sequence[Entry], docdir: str,
                  label: Callable[[nodes.Element, Entry], None]) -> nodes.table:
    """Claims that hold (or were not run, or hold by construction): one row each -- the row
    is the claim's entry (``label`` gives its claim cell the claim's anchor), its statement
    with the measurement and the rest collapsed under it.

    Parameters
    ----------
    group : sequence of Entry
        The claims.
    docdir : str
        The folder of the document (figures are linked relative to it).
    label : callable
        ``label(cell, entry)`` makes the cell the target of the entry's links.

    Returns
    -------
    docutils.nodes.table
        One row per claim.
    """
    rows = []
    for e in group:
        claim_cell = _para(nodes.literal(e.id, e.id))
        label(claim_cell, e)
        if e.as_expected is False:
            claim_cell += nodes.Text(f" ({e.verdict}; registered: {e.expected_verdict})")
        d = dict(e.details or {})
        measurement = [*_measurement_fields(e), *_power_field(e)]
        head: list[nodes.Node] = ([nodes.field_list("", *measurement, classes=["ledger-claim"])]
                                  if measurement else [])
        statement = nodes.container(
            "", _para(*math_text(e.statement)),
            *_collapsed(e, d, head, "Measurement and record"), *_figures(e, docdir),
            classes=["ledger-entry"], support_smartquotes=False)
        if e.error:
            side = _para(*summary_nodes(e))
        elif e.verdict == "holds":
            side = _para(ledger.margin_text(e) or "holds (no margin reported)")
        elif e.verdict == "not run":
            side = _para(_badge(e.verdict), f" a {e.profile}-profile claim")
        else:
            side = _para(_badge(e.verdict), " ",
                         *_short_segments_nodes(str(d.get("reason", ""))))
        rows.append((claim_cell, e.reference, statement, side))
    return _table(("claim", "reference", "statement (measurement and record under it)",
                   "margin, or why not run"), rows, (17, 14, 45, 24),
                  classes=["ledger-compact"])


def _short_segments_nodes(text: str) -> list[nodes.Node]:
    return [nodes.math(s.tex, s.tex) if s.math else nodes.Text(s.source)
            for s in _short_segments(text, SUMMARY_SIDE)]


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
    return [head, _table(("reading", "why it does not save the statement"), rows, (25, 75))]


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
    """A measurement: a text with its formulas rendered, a short value inline, else
    collapsed JSON."""
    if isinstance(value, str) and "\n" not in value:
        return _para(*math_text(value))
    text = _text(value)
    if len(text) <= _INLINE_LIMIT or isinstance(value, str):
        return value_node(value)
    block = json.dumps(value, indent=2, ensure_ascii=False)
    return nodes.container("", *_details_block(f"the {what} ({len(text)} characters of JSON)",
                                               _block(block)))
