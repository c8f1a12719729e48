"""Markdown and JSON reports of claim outcomes, and the terminal summary table."""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from paper_checks.registry import PAPERS
from paper_checks.runner import ClaimOutcome

__all__ = ["format_value", "json_report", "markdown_report", "summary_table", "to_jsonable"]

_MAX_CELL = 90


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


def format_value(value: Any, width: int = _MAX_CELL) -> str:
    """A short one-line rendering for tables."""
    if isinstance(value, float | np.floating):
        text = f"{float(value):.6g}"
    elif isinstance(value, np.ndarray):
        text = np.array2string(value, precision=4, threshold=8, separator=", ")
    else:
        text = str(value)
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= width else text[: width - 1] + "…"


def summary_table(outcomes: Sequence[ClaimOutcome]) -> str:
    """Plain-text table: one line per claim plus verdict counts."""
    rows = [("id", "verdict", "expected", "ok", "time", "measured")]
    for o in outcomes:
        measured = "" if o.result is None else format_value(o.result.measured, 40)
        rows.append((o.claim.id, o.verdict, o.claim.expected_verdict,
                     "yes" if o.as_expected else "NO", f"{o.seconds:.2f}s", measured))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    counts = Counter(o.verdict for o in outcomes)
    unexpected = sum(not o.as_expected for o in outcomes)
    lines.append("")
    lines.append(
        f"{len(outcomes)} claims: "
        + ", ".join(f"{counts[v]} {v}" for v in ("holds", "erratum", "fails", "skipped", "error")
                    if counts[v])
        + f"; {unexpected} differ from the registered expectation"
    )
    return "\n".join(lines)


def markdown_report(
    outcomes: Sequence[ClaimOutcome], *, title: str = "Paper checks", base_dir: str = "."
) -> str:
    """A Markdown report: summary, one table per paper, errata and failures in full.

    Figure links are written relative to ``base_dir`` (the report's folder).
    """

    def link(path: str) -> str:
        return os.path.relpath(path, base_dir)

    counts = Counter(o.verdict for o in outcomes)
    out = [f"# {title}", ""]
    out.append(
        f"{len(outcomes)} claims run in {sum(o.seconds for o in outcomes):.1f} s. Verdicts: "
        + ", ".join(f"**{counts[v]} {v}**" for v in ("holds", "erratum", "fails", "skipped",
                                                       "error") if counts[v])
        + "."
    )
    unexpected = [o for o in outcomes if not o.as_expected]
    out.append(
        f"{len(unexpected)} verdict(s) differ from the registered expectation"
        + (": " + ", ".join(f"`{o.claim.id}`" for o in unexpected) if unexpected else ".")
    )
    out.append("")
    by_paper: dict[str, list[ClaimOutcome]] = {}
    for o in outcomes:
        by_paper.setdefault(o.claim.paper, []).append(o)
    for key, group in by_paper.items():
        paper = PAPERS[key]
        out += [f"## {paper.title}", "", f"Seed: `{paper.stem}`", ""]
        out.append("| id | reference | printed statement | verdict | expected | measured "
                   "| reference value | time |")
        out.append("|---|---|---|---|---|---|---|---|")
        for o in group:
            r = o.result
            out.append(
                f"| `{o.claim.id}` | {format_value(o.claim.reference, 40)} | "
                f"{format_value(o.claim.statement)} | **{o.verdict}** | "
                f"{o.claim.expected_verdict} | "
                f"{'' if r is None else format_value(r.measured, 50)} | "
                f"{'' if r is None else format_value(r.reference_value, 50)} | {o.seconds:.2f}s |"
            )
        out.append("")
    noteworthy = [o for o in outcomes if o.verdict in ("erratum", "fails", "error", "skipped")
                  or not o.as_expected]
    if noteworthy:
        out += ["## Errata, failures, errors and skips in full", ""]
        for o in noteworthy:
            out.append(f"### `{o.claim.id}` — {o.verdict} (expected {o.claim.expected_verdict})")
            out.append("")
            out.append(f"*{o.claim.reference}*: {o.claim.statement}")
            out.append("")
            if o.error:
                out += ["```", o.error.rstrip(), "```", ""]
            elif o.result is not None:
                for key, value in o.result.details.items():
                    out.append(f"- **{key}**: {format_value(value, 400)}")
                out.append("")
            for path in o.figure_paths:
                out.append(f"![{o.claim.id}]({link(path)})")
            out.append("")
    figs = [o for o in outcomes if o.figure_paths and o not in noteworthy]
    if figs:
        out += ["## Figures", ""]
        for o in figs:
            for path in o.figure_paths:
                out.append(f"- `{o.claim.id}`: ![{o.claim.id}]({link(path)})")
        out.append("")
    return "\n".join(out)


def json_report(outcomes: Sequence[ClaimOutcome]) -> str:
    """All outcomes as JSON (claims, verdicts, measured values, details, errors)."""
    records = []
    for o in outcomes:
        r = o.result
        records.append({
            "id": o.claim.id,
            "paper": PAPERS[o.claim.paper].stem,
            "reference": o.claim.reference,
            "statement": o.claim.statement,
            "profile": o.claim.profile,
            "expected_verdict": o.claim.expected_verdict,
            "verdict": o.verdict,
            "as_expected": o.as_expected,
            "seconds": o.seconds,
            "measured": None if r is None else to_jsonable(r.measured),
            "reference_value": None if r is None else to_jsonable(r.reference_value),
            "details": None if r is None else to_jsonable(r.details),
            "error": o.error,
            "figures": list(o.figure_paths),
        })
    return json.dumps(records, indent=2)
