"""Markdown and JSON reports of claim outcomes, and the terminal summary table.

Verdicts on papers are counted by kind (a typo and a false statement are never one number);
notes -- conventions and notation, not errors -- are listed and counted apart from errata;
consistency checks of the toolkit are counted apart; every ``holds`` shows its margin and the
verdict of its perturbed statement (a weak one, more than 100x of room, is listed with the
reason); every accusation shows its defence and the independent attack on it.
"""

from __future__ import annotations

import json
import math
import os
import re
import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from tabulate import tabulate

from paper_checks.certificates import supports_verdict
from paper_checks.defence import ASPECT_TITLES
from paper_checks.evidence import BASES, BASIS_MEANING
from paper_checks.ledger import KINDS, NOTE_KINDS, Margin
from paper_checks.registry import PAPERS
from paper_checks.runner import ClaimOutcome

__all__ = ["format_value", "json_report", "kind_counts", "markdown_report", "plain_value",
           "portable_paths", "summary_table", "to_jsonable"]

#: An absolute directory prefix in a traceback or message (``/home/u/x/`` of ``/home/u/x/f.py``).
_ABSOLUTE_DIR = re.compile(r"(?<![\w.~])/(?:[^\s/\"':,()<>]+/)+")
#: The folder holding this package (a checkout or site-packages).
_ROOT = str(Path(__file__).resolve().parents[1]) + "/"


def portable_paths(text: str | None) -> str | None:
    """A traceback or message without the machine's folders: files of this package's tree
    relative to it, installed packages from ``site-packages/``, any other file by its name.

    Parameters
    ----------
    text : str or None
        A traceback or message.

    Returns
    -------
    str or None
        The same text without absolute directories.

    Examples
    --------
    >>> portable_paths('File "/opt/venv/lib/python3.11/site-packages/tqdm/std.py", line 3')
    'File "site-packages/tqdm/std.py", line 3'
    >>> portable_paths("wrote /tmp/x/y/plot.png")
    'wrote plot.png'
    """
    if text is None:
        return None
    text = text.replace(_ROOT, "")

    def short(m: re.Match[str]) -> str:
        folder = m.group(0)
        if "site-packages/" in folder:
            return "site-packages/" + folder.split("site-packages/", 1)[1]
        return ""

    return _ABSOLUTE_DIR.sub(short, text)

_MAX_CELL = 90
#: How each kind reads in the report: paper errors first, then slips and readings.
KIND_TITLES = {
    "statement": "false statements (the correction is a different statement)",
    "constant": "wrong constants or rates",
    "hypothesis": "missing hypotheses (true only under an added hypothesis / outside the "
                  "stated domain)",
    "proof": "invalid proofs of statements not refuted (unproven)",
    "typo": "typos (the intended statement holds)",
    "convention": "notes: conventions (a different legitimate reading; not errors)",
    "notation": "notes: notation (written differently; not errors)",
}
#: Paper errors first, then proofs that fail, then slips.
REPORT_ORDER = ("statement", "constant", "hypothesis", "proof", "typo")
if set(REPORT_ORDER) | set(NOTE_KINDS) != set(KINDS):  # pragma: no cover - the vocabulary
    raise RuntimeError("REPORT_ORDER and NOTE_KINDS must list every kind once")


def to_jsonable(value: Any) -> Any:
    """Convert measured values (numpy, Fraction, dataclasses, sets) into JSON-friendly data."""
    if isinstance(value, bool | str) or value is None:
        return value
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        x = float(value)
        return x if math.isfinite(x) else str(x)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, np.ndarray):
        return [to_jsonable(v) for v in value.tolist()]
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {k: to_jsonable(getattr(value, k)) for k in value.__dataclass_fields__}
    return str(value)


def plain_value(value: Any, width: int = _MAX_CELL) -> str:
    """A short one-line rendering for a terminal: no Markdown escapes.

    Examples
    --------
    >>> plain_value({"|T|": 8}), plain_value("a long text", width=6)
    ("{'|T|': 8}", 'a lon…')
    """
    if isinstance(value, float | np.floating):
        text = f"{float(value):.6g}"
    elif isinstance(value, np.ndarray):
        text = np.array2string(value, precision=4, threshold=8, separator=", ")
    else:
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def format_value(value: Any, width: int = _MAX_CELL) -> str:
    """A short one-line rendering for Markdown tables (``|`` escaped)."""
    text = plain_value(value, width).replace("|", "\\|")
    return text if len(text) <= width else text[: width - 1] + "…"


def _margin(o: ClaimOutcome) -> Margin | None:
    return None if o.result is None else o.result.margin


def format_margin(margin: Margin | None) -> str:
    """``10^x`` room (``x1.0123`` below a factor 10^0.1), ``weak`` above 100x, ``exact`` for
    identities and integer equalities."""
    if margin is None:
        return ""
    if margin.log10_slack == 0:
        return "exact"
    s = margin.log10_slack
    text = f"10^{s:.2g}" if abs(s) >= 0.1 else f"x{10 ** s:.5g}"   # small room as a factor
    return text + (" weak" if margin.weak else "")


def kind_counts(outcomes: Sequence[ClaimOutcome]) -> dict[str, Counter[str]]:
    """Verdict counts of the paper claims, split by kind: ``{"holds": {"": n, "weak": w},
    "erratum": {"typo": ..}, ...}``; consistency checks under ``"consistency"``.

    Examples
    --------
    >>> from paper_checks.ledger import ClaimResult, Independent, Margin
    >>> from paper_checks.registry import Claim
    >>> from seprank.sweeps.measure import TaskOutcome
    >>> def outcome(cid, result, category="paper"):
    ...     c = Claim(cid, "003", "-", "s", result.verdict, "quick", lambda: result,
    ...               category=category)
    ...     return ClaimOutcome(c, TaskOutcome("ok", result))
    >>> agree = Independent("by hand", 2, True)
    >>> counts = kind_counts([
    ...     outcome("A", ClaimResult(1, 1, "holds", margin=Margin.ratio(1, 1000, what="x"))),
    ...     outcome("B", ClaimResult(1, 1, "holds", margin=Margin.exact("x"))),
    ...     outcome("C", ClaimResult(1, 2, "erratum", {"printed": "p", "corrected": "c"},
    ...                              kind="typo", independent=agree)),
    ...     outcome("D", ClaimResult(1, 1, "holds"), category="consistency")])
    >>> {verdict: dict(c) for verdict, c in counts.items()}
    {'holds': {'weak': 1, '': 1}, 'erratum': {'typo': 1}, 'consistency': {'holds': 1}}
    """
    out: dict[str, Counter[str]] = {}
    for o in outcomes:
        if not o.is_paper_verdict:
            out.setdefault("consistency", Counter())[o.verdict] += 1
            continue
        bucket = out.setdefault(o.verdict, Counter())
        if o.verdict == "holds":
            margin = _margin(o)
            bucket["weak" if margin is not None and margin.weak else ""] += 1
        else:
            bucket[o.kind or ""] += 1
    return out


def _counts_line(outcomes: Sequence[ClaimOutcome]) -> str:
    counts = kind_counts(outcomes)
    parts = []
    for verdict in ("holds", "erratum", "unproven", "fails", "note", "skipped", "error"):
        c = counts.get(verdict)
        if not c:
            continue
        if verdict == "holds":
            bases = Counter(o.basis for o in outcomes
                            if o.is_paper_verdict and o.verdict == "holds")
            split = ", ".join([f"{bases[b]} {b.replace('_', ' ')}" for b in BASES if bases[b]]
                              + ([f"{bases[None]} without a basis"] if bases[None] else []))
            parts.append(f"{sum(c.values())} holds ({c['weak']} weak; {split})")
        elif verdict in ("skipped", "error"):
            parts.append(f"{sum(c.values())} {verdict}")
        else:
            split = ", ".join(f"{n} {k or 'ungraded'}" for k, n in sorted(c.items()))
            label = "notes, not errors" if verdict == "note" else verdict
            parts.append(f"{sum(c.values())} {label} ({split})")
    cons = counts.get("consistency", Counter())
    line = "paper verdicts: " + "; ".join(parts)
    if cons:
        line += f"; consistency checks: {sum(cons.values())} (" + ", ".join(
            f"{n} {v}" for v, n in sorted(cons.items())) + ")"
    return line


#: Width of the terminal table (``paper-checks``' standard output).
TABLE_WIDTH = 100


def summary_table(outcomes: Sequence[ClaimOutcome], *, width: int = TABLE_WIDTH) -> str:
    """Plain-text table that fits ``width`` columns: one line per claim, then verdict counts
    by kind.  Cells are plain text (no Markdown escapes); long ids and measured values are cut
    with an ellipsis, and a claim whose verdict differs from the registered one says which was
    expected."""
    headers = ("id", "verdict", "kind", "basis", "ok", "margin", "time", "measured")
    rows = []
    for o in outcomes:
        verdict = o.verdict if o.is_paper_verdict else f"{o.verdict} (cons.)"
        ok = "yes" if o.as_expected else "NO"
        rows.append([o.claim.id, verdict, o.kind or "", o.basis or "", ok,
                     format_margin(_margin(o)), f"{o.seconds:.2f}s",
                     "" if o.result is None else o.result.measured])
    gaps = 2 * (len(headers) - 1)
    last = len(headers) - 1
    id_width = min(max([len(headers[0]), *(len(r[0]) for r in rows)]), 24)
    fixed = [max([len(headers[i]), *(len(str(r[i])) for r in rows)]) for i in range(1, last)]
    room = max(width - gaps - id_width - sum(fixed), len(headers[-1]))
    while True:   # tabulate pads short headers; shrink the last column until the table fits
        cells = [[plain_value(r[0], id_width), *r[1:last], plain_value(r[last], room)]
                 for r in rows]
        body = tabulate(cells, headers=headers, tablefmt="simple", disable_numparse=True)
        lines = [line.rstrip() for line in body.splitlines()]
        excess = max(len(line) for line in lines) - width
        if excess <= 0 or room <= len(headers[-1]):
            break
        room = max(room - excess, len(headers[-1]))
    unexpected = [o for o in outcomes if not o.as_expected]
    lines += ["", *_pack(f"{len(outcomes)} claims; " + _counts_line(outcomes), width),
              *_pack(f"{len(unexpected)} differ from the registered expectation"
                     + "".join(f"; {o.claim.id} gave {o.verdict}, expected "
                               f"{o.claim.expected_verdict}" for o in unexpected), width)]
    return "\n".join(lines)


def _pack(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken after ``'; '`` where it can."""
    lines: list[str] = []
    for part in text.split("; "):
        if lines and len(lines[-1]) + 2 + len(part) <= width:
            lines[-1] += "; " + part
        else:
            lines.append(part)
    return [piece for line in lines for piece in (textwrap.wrap(line, width) or [""])]


def _kind_table(outcomes: Sequence[ClaimOutcome]) -> list[str]:
    paper = [o for o in outcomes if o.is_paper_verdict]
    out = ["| verdicts on the papers | count | claims |", "|---|---|---|"]
    holds = [o for o in paper if o.verdict == "holds"]
    weak = [o for o in holds if (m := _margin(o)) is not None and m.weak]
    bases = Counter(o.basis for o in holds)
    split = ", ".join(f"{bases[b]} {b.replace('_', ' ')}" for b in BASES if bases[b])
    out.append(f"| holds | {len(holds)} | {split}; {len(weak)} with a weak margin "
               "(> 100x room) |")
    for kind in (*REPORT_ORDER, *NOTE_KINDS):
        group = [o for o in paper if o.kind == kind]
        if group:
            verdicts = Counter(o.verdict for o in group)
            label = ", ".join(f"{n} {v}" for v, n in verdicts.items())
            out.append(f"| {KIND_TITLES[kind]} | {len(group)} ({label}) | "
                       + ", ".join(f"`{o.claim.id}`" for o in group) + " |")
    for verdict in ("skipped", "error"):
        group = [o for o in paper if o.verdict == verdict]
        if group:
            out.append(f"| {verdict} | {len(group)} | "
                       + ", ".join(f"`{o.claim.id}`" for o in group) + " |")
    cons = [o for o in outcomes if not o.is_paper_verdict]
    if cons:
        out.append(f"| *consistency checks of the toolkit (not verdicts on papers)* | "
                   f"{len(cons)} | see the last section |")
    return out


def _details(o: ClaimOutcome, link: Any) -> list[str]:
    out = [f"### `{o.claim.id}` — {o.verdict}"
           + (f" ({o.kind})" if o.kind else "") + f" (expected {o.claim.expected_verdict})",
           "", f"*{o.claim.reference}*: {o.claim.statement}", "",
           f"Basis: {o.basis or '-'}"
           + (f" ({BASIS_MEANING[o.basis]})" if o.basis is not None
              and o.basis in BASIS_MEANING else ""), ""]
    if o.error:
        out += ["```", (portable_paths(o.error) or "").rstrip(), "```", ""]
    elif o.result is not None:
        r = o.result
        if r.independent is not None:
            out.append(f"- **independent recomputation** ({r.independent.method}): "
                       f"{format_value(r.independent.value, 300)} — "
                       f"{'agrees' if r.independent.agrees else 'DISAGREES'}")
        if r.margin is not None:
            out.append(f"- **margin**: {format_margin(r.margin)} ({r.margin.what})")
        power = _power_line(o)
        if power:
            out.append(power)
        line = _certificate_line(o)
        if line:
            out.append(line)
        for key, value in r.details.items():
            out.append(f"- **{key}**: {format_value(value, 400)}")
        out.append("")
    out += _defence_lines(o)
    for path in o.figure_paths:
        out.append(f"![{o.claim.id}]({link(path)})")
    out.append("")
    return out


def _defence_lines(o: ClaimOutcome) -> list[str]:
    d = o.claim.defence
    if d is None:
        return []
    out = ["", "**Defence** (the readings under which the printed statement would be right):", ""]
    out += [f"- *{ASPECT_TITLES[aspect]}*: {answer}" for aspect, answer in d.items()]
    if d.attack is not None:
        a = d.attack
        out.append(f"- **independent attack** ({a.reviewer}, {a.date}): **{a.outcome}** — "
                   f"{a.summary}")
    else:
        out.append("- **independent attack**: not recorded")
    return [*out, ""]


def _power_cell(o: ClaimOutcome) -> str:
    """The perturbed statement's verdict and margin in a table cell."""
    if o.power is None:
        return ""
    r = o.perturbed_result
    if r is None:
        return "raised"
    return r.verdict + ("" if r.margin is None else f" ({format_margin(r.margin)})")


def _power_line(o: ClaimOutcome) -> str | None:
    """The perturbed statement's verdict and margin (a holding paper claim's power)."""
    if o.power is None:
        return None
    what = o.claim.perturbation_text or ""
    r = o.perturbed_result
    if r is None:
        return f"- **perturbed statement** ({what}): raised {portable_paths(o.power.error)}"
    margin = "" if r.margin is None else f", margin {format_margin(r.margin)}"
    return f"- **perturbed statement** ({what}): {r.verdict}{margin}"


def markdown_report(
    outcomes: Sequence[ClaimOutcome], *, title: str = "Paper checks", base_dir: str = "."
) -> str:
    """A Markdown report: counts by kind, one table per paper, the non-holds verdicts grouped
    by kind in full, the weak holds with their reasons, and the consistency checks apart.

    Figure links are written relative to ``base_dir`` (the report's folder).
    """

    def link(path: str) -> str:
        return os.path.relpath(path, base_dir)

    out = [f"# {title}", "",
           f"{len(outcomes)} claims run in {sum(o.seconds for o in outcomes):.1f} s; "
           + _counts_line(outcomes) + ".", ""]
    unexpected = [o for o in outcomes if not o.as_expected]
    out += [f"{len(unexpected)} verdict(s) differ from the registered expectation"
            + (": " + ", ".join(f"`{o.claim.id}`" for o in unexpected) if unexpected else "."),
            "", *_kind_table(outcomes), "",
            "Margin: the factor by which the measurement could move before the printed statement "
            "flips (`exact` for identities and integer equalities; `weak` above 100x).", "",
            "Basis: what kind of evidence a verdict rests on -- "
            + "; ".join(f"*{b.replace('_', ' ')}*: {BASIS_MEANING[b]}" for b in BASES) + ".",
            ""]
    by_paper: dict[str, list[ClaimOutcome]] = {}
    for o in outcomes:
        if o.is_paper_verdict:
            by_paper.setdefault(o.claim.paper, []).append(o)
    for key, group in by_paper.items():
        info = PAPERS[key]
        source = f" (source document `{info.stem}`)" if info.stem != key else ""
        out += [f"## {info.title}", "", f"Paper `{key}`{source}", "",
                "| id | reference | printed statement | verdict | kind | basis | margin | "
                "perturbed statement | measured | time |",
                "|---|---|---|---|---|---|---|---|---|---|"]
        for o in group:
            r = o.result
            out.append(
                f"| `{o.claim.id}` | {format_value(o.claim.reference, 40)} | "
                f"{format_value(o.claim.statement)} | **{o.verdict}** | {o.kind or ''} | "
                f"{(o.basis or '').replace('_', ' ')} | {format_margin(_margin(o))} | "
                f"{_power_cell(o)} | "
                f"{'' if r is None else format_value(r.measured, 50)} | {o.seconds:.2f}s |")
        out.append("")
    paper = [o for o in outcomes if o.is_paper_verdict]
    for kind in (*REPORT_ORDER, *NOTE_KINDS):
        group = [o for o in paper if o.kind == kind]
        if group:
            out += [f"## {KIND_TITLES[kind][0].upper()}{KIND_TITLES[kind][1:]}", ""]
            for o in group:
                out += _details(o, link)
    shown = {o.claim.id for o in paper if o.kind is not None}
    other = [o for o in outcomes if o.claim.id not in shown
             and (o.verdict != "holds" or not o.as_expected)]
    if other:
        out += ["## Skips, errors and unexpected verdicts", ""]
        for o in other:
            out += _details(o, link)
    weak = [o for o in paper if o.verdict == "holds" and (m := _margin(o)) is not None
            and m.weak]
    if weak:
        out += ["## Weak holds (more than 100x of room)", "",
                "| id | margin | compared | why |", "|---|---|---|---|"]
        for o in weak:
            m = _margin(o)
            assert m is not None
            out.append(f"| `{o.claim.id}` | {format_margin(m)} | {format_value(m.what, 120)} "
                       f"| {format_value(m.note, 300)} |")
        out.append("")
    cons = [o for o in outcomes if not o.is_paper_verdict]
    if cons:
        out += ["## Consistency checks (hold by construction; not verdicts on the papers)", "",
                "| id | reference | what is checked | verdict | time |", "|---|---|---|---|---|"]
        for o in cons:
            out.append(f"| `{o.claim.id}` | {format_value(o.claim.reference, 40)} | "
                       f"{format_value(o.claim.statement)} | {o.verdict} | {o.seconds:.2f}s |")
        out.append("")
    out += _certificates_section(outcomes)
    figs = [o for o in outcomes if o.figure_paths and o.verdict == "holds"]
    if figs:
        out += ["## Figures", ""]
        for o in figs:
            for path in o.figure_paths:
                out.append(f"- `{o.claim.id}`: ![{o.claim.id}]({link(path)})")
        out.append("")
    return "\n".join(out)


def _certificates_json(o: ClaimOutcome) -> list[dict[str, Any]] | None:
    """What the claim's certificates claim and whether the independent checker verified them
    (None when the claim ships none)."""
    if o.certificates:
        return [r.as_dict() for r in o.certificates]
    names = o.certificate_names
    if not names:
        return None
    assert o.result is not None
    return [{"name": n, "claim": o.result.certificates[n].get("claim"), "verified": None}
            for n in names]


def _certificate_line(o: ClaimOutcome) -> str | None:
    names = o.certificate_names
    if not names:
        return None
    if not o.certificates:
        return (f"- **certificates**: {len(names)} shipped, not verified in this run "
                "(`paper-checks --certificates DIR`)")
    good = sum(bool(r.verified) for r in o.certificates)
    seconds = sum(r.seconds or 0.0 for r in o.certificates)
    bad = [f"{r.name}: {(r.status or 'not checked').upper()} "
           + "; ".join([*r.problems, *([r.reason] if r.reason else [])])
           for r in o.certificates if not r.verified]
    support = ("" if supports_verdict(o) else
               "; they prove certified lower bounds, which cannot establish this verdict")
    return (f"- **certificates**: {good} of {len(o.certificates)} verified by the independent "
            f"checker ({seconds:.2f} s){support}" + ("; " + "; ".join(bad) if bad else ""))


def _certificate_row(o: ClaimOutcome) -> str:
    n = len(o.certificate_names)
    if o.certificates:
        good = sum(bool(r.verified) for r in o.certificates)
        verified = "all" if o.rests_on_verified_certificates else f"{good} of {n}"
        statuses = Counter(r.status for r in o.certificates if not r.verified)
        if statuses:
            verified += " (" + ", ".join(f"{k} {(s or 'not checked').upper()}"
                                         for s, k in statuses.items()) + ")"
        seconds = f"{sum(r.seconds or 0.0 for r in o.certificates):.2f}s"
    else:
        verified, seconds = "not checked in this run", ""
    return f"| `{o.claim.id}` | {o.verdict} | {n} | {verified} | {seconds} |"


def _certificates_section(outcomes: Sequence[ClaimOutcome]) -> list[str]:
    shipped = [o for o in outcomes if o.certificate_names]
    if not shipped:
        return []
    resting = [o for o in shipped if supports_verdict(o)]
    beside = [o for o in shipped if not supports_verdict(o)]
    head = ["| id | verdict | certificates | verified | checker time |", "|---|---|---|---|---|"]
    out = ["## Verdicts resting on certificates", "",
           "Verdicts a certificate can support -- a certified rank proves a lower bound, so it "
           "establishes a lower-bound or attainment statement, or refutes an upper bound it "
           "exceeds -- each certificate re-checked by `seprank.certificates.verify` (standard "
           "library only: recomputes the entries, checks the minor and the kernel; a "
           "certificate whose values it cannot recompute is UNCHECKED, not verified).", ""]
    out += [*head, *map(_certificate_row, resting)] if resting else ["None in this run."]
    out.append("")
    if beside:
        out += ["### Certified ranks beside verdicts they cannot support", "",
                "These claims bound a certified quantity from above and hold: their "
                "certificates prove the measured ranks from below, which cannot establish an "
                "upper bound (they would refute it if a rank exceeded it).  Their verdicts are "
                "listed with the other verdicts of their paper above; the certificates are "
                "re-checked here all the same.", "", *head, *map(_certificate_row, beside), ""]
    return out


def _perturbed_json(o: ClaimOutcome) -> dict[str, Any] | None:
    """The perturbed statement's run: its verdict and margin (None when not run)."""
    if o.power is None:
        return None
    r = o.perturbed_result
    return {"statement": o.claim.perturbation_text,
            "verdict": None if r is None else r.verdict,
            "log10_slack": None if r is None or r.margin is None
            else to_jsonable(r.margin.log10_slack),
            "error": portable_paths(o.power.error) if r is None else None}


def json_report(outcomes: Sequence[ClaimOutcome]) -> str:
    """All outcomes as JSON: claim, category, verdict, kind, margin, independent recomputation,
    measured values, details, errors."""
    records = []
    for o in outcomes:
        r = o.result
        margin = None if r is None or r.margin is None else {
            "log10_slack": to_jsonable(r.margin.log10_slack), "what": r.margin.what,
            "weak": r.margin.weak, "note": r.margin.note}
        records.append({
            "id": o.claim.id,
            "paper": PAPERS[o.claim.paper].stem,
            "reference": o.claim.reference,
            "statement": o.claim.statement,
            "category": o.claim.category,
            "profile": o.claim.profile,
            "perturbation": o.claim.perturbation_text,
            "perturbed": _perturbed_json(o),
            "defence": None if o.claim.defence is None else o.claim.defence.as_dict(),
            "expected_verdict": o.claim.expected_verdict,
            "verdict": o.verdict,
            "kind": o.kind,
            "basis": o.basis,
            "declared_basis": o.claim.basis,
            "universal": o.claim.universal,
            "upper_bound": o.claim.upper_bound,
            "certificates_must_prove": [p.as_dict() for p in o.claim.proves],
            "as_expected": o.as_expected,
            "seconds": o.seconds,
            "margin": margin,
            "independent": None if r is None else to_jsonable(r.independent),
            "measured": None if r is None else to_jsonable(r.measured),
            "reference_value": None if r is None else to_jsonable(r.reference_value),
            "details": None if r is None else to_jsonable(r.details),
            "error": portable_paths(o.error),
            "figures": list(o.figure_paths),
            "certificates": _certificates_json(o),
        })
    return json.dumps(records, indent=2)
