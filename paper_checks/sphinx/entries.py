"""The truth ledger's data: ``paper-checks --json`` records, normalised and ordered.

Each record of ``paper-checks --json`` becomes a :class:`Entry`.  The fields ``kind``,
``margin``, ``independent``, ``category``, ``perturbation`` and ``certificates`` are read when
present and left empty when a report predates them (``category`` and ``perturbation`` then come
from the registry).  Registered claims that the run did not include (full-profile claims in a
quick run) get an entry with verdict ``not run``, so every claim has its place on the site.

Order within a paper (:func:`severity_key`): what is wrong first, grouped by kind as the
``paper-checks`` report groups it (:func:`group_of`) -- checks that raised, then false
statements, wrong constants, missing hypotheses, invalid proofs (``unproven``), typos -- and
within a group ``fails`` before ``erratum`` before ``unproven``, then by how far the measurement
is from the printed statement (most negative margin first); then ``holds`` from the tightest
margin to the loosest; then the notes (conventions and notation: not errors, apart from the
errata); then ``skipped`` and ``not run``.  Consistency checks (true by construction) are
listed apart.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paper_checks.report import portable_paths

__all__ = ["GROUPS", "KIND_ORDER", "VERDICT_ORDER", "Entry", "by_paper", "count_words",
           "entries_from_json", "group_counts", "group_of", "grouped", "load", "margin_text",
           "paper_key", "severity_key", "verdict_counts"]

#: Verdict order on a page: what is wrong first.
#: Notes (conventions, notation) are not errors: they come after the holds, apart from errata.
VERDICT_ORDER = ("error", "fails", "erratum", "unproven", "holds", "note", "skipped", "not run")
#: Kind order of the errors, as the ``paper-checks`` report groups them: the most serious first.
KIND_ORDER = ("statement", "constant", "hypothesis", "proof", "typo", "convention", "notation")
#: The groups of a ledger page, in order: (key, title).  Error kinds first, notes apart.
GROUPS = (
    ("error", "Checks that raised"),
    ("statement", "False statements"),
    ("constant", "Wrong constants or rates"),
    ("hypothesis", "Missing hypotheses"),
    ("proof", "Invalid proofs (statement not refuted)"),
    ("typo", "Typos (the intended statement holds)"),
    ("ungraded", "Wrong, kind not given"),
    ("holds", "Statements that hold"),
    ("note", "Notes: conventions and notation (not errors)"),
    ("skipped", "Skipped"),
    ("not run", "Not run in this build"),
)
_GROUP_KEYS = tuple(key for key, _ in GROUPS)
#: Above this many decades of room a ``holds`` is weak (the registry's WEAK_SLACK_LOG10).
WEAK_SLACK_LOG10 = 2.0
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
def _scrubbed(value: Any) -> Any:
    """``value`` with :func:`~paper_checks.report.portable_paths` applied to every string."""
    if isinstance(value, str):
        return portable_paths(value)
    if isinstance(value, Mapping):
        return {k: _scrubbed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrubbed(v) for v in value]
    return value


@dataclass(frozen=True)
class Entry:
    """One claim on a ledger page."""

    id: str
    paper: str
    reference: str
    statement: str
    verdict: str
    expected_verdict: str | None = None
    as_expected: bool | None = None
    category: str = "paper"
    kind: str | None = None
    basis: str | None = None
    measured: Any = None
    reference_value: Any = None
    independent: Mapping[str, Any] | None = None
    margin: Mapping[str, Any] | None = None
    perturbation: str | None = None
    perturbed: Mapping[str, Any] | None = None
    defence: Mapping[str, Any] | None = None
    certificates: Any = None
    details: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None
    figures: tuple[str, ...] = ()
    profile: str | None = None
    seconds: float | None = None

    @property
    def ran(self) -> bool:
        return self.verdict != "not run"

    @property
    def slack(self) -> float | None:
        """log10 of the room the printed statement leaves (negative: violated)."""
        if not self.margin:
            return None
        value = self.margin.get("log10_slack")
        try:
            slack = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None
        return slack if math.isfinite(slack) else None

    @property
    def weak(self) -> bool:
        return self.slack is not None and self.slack > WEAK_SLACK_LOG10

    @property
    def anchor(self) -> str:
        """The label of the claim's section (``ledger-<id>``)."""
        return f"ledger-{self.id}"


def _rank(value: str | None, order: tuple[str, ...]) -> int:
    return order.index(value) if value in order else len(order)


def group_of(entry: Entry) -> str:
    """The page group of an entry: its error kind, or its verdict (``holds``, ``note``, ...)."""
    if entry.verdict in ("fails", "erratum", "unproven"):
        return entry.kind if entry.kind in KIND_ORDER[:5] else "ungraded"
    if entry.verdict == "note" or entry.kind in ("convention", "notation"):
        return "note"
    return entry.verdict if entry.verdict in _GROUP_KEYS else "error"


def severity_key(entry: Entry) -> tuple[int, int, float, str]:
    """Sort key: what is wrong first, by kind, and how wrong (see the module docstring)."""
    group = _GROUP_KEYS.index(group_of(entry))
    verdict = _rank(entry.verdict, VERDICT_ORDER)
    slack = entry.slack
    return group, verdict, math.inf if slack is None else slack, entry.id


#: How a count of each group reads: (one, many).
GROUP_WORDS = {
    "error": ("check that raised", "checks that raised"),
    "statement": ("false statement", "false statements"),
    "constant": ("wrong constant", "wrong constants"),
    "hypothesis": ("missing hypothesis", "missing hypotheses"),
    "proof": ("invalid proof", "invalid proofs"),
    "typo": ("typo", "typos"),
    "ungraded": ("ungraded error", "ungraded errors"),
    "holds": ("holds", "hold"),
    "note": ("note (not an error)", "notes (not errors)"),
    "skipped": ("skipped", "skipped"),
    "not run": ("not run", "not run"),
}


def count_words(key: str, n: int) -> str:
    """``1 typo``, ``3 typos``, ``2 missing hypotheses``."""
    one, many = GROUP_WORDS.get(key, (key, key))
    return f"{n} {one if n == 1 else many}"


def grouped(entries: Iterable[Entry]) -> list[tuple[str, str, list[Entry]]]:
    """``(key, title, entries)`` of each non-empty group, in page order (each sorted)."""
    chosen = sorted(entries, key=severity_key)
    return [(key, title, [e for e in chosen if group_of(e) == key]) for key, title in GROUPS
            if any(group_of(e) == key for e in chosen)]


def group_counts(entries: Iterable[Entry]) -> dict[str, int]:
    """How many entries each group has, in page order (empty groups left out)."""
    return {key: len(group) for key, _, group in grouped(entries)}


def paper_key(name: str, papers: Mapping[str, Any]) -> str:
    """A JSON ``paper`` field (a key such as ``"003"``, or the stem of the paper's source
    document) -> the paper key."""
    if name in papers:
        return name
    for key, info in papers.items():
        if getattr(info, "stem", None) == name:
            return key
    return name


def _figures(paths: Iterable[str], base: Path) -> tuple[str, ...]:
    found = []
    for raw in paths or ():
        path = Path(raw)
        for candidate in (path, base / path, Path.cwd() / path):
            if candidate.is_file():
                found.append(str(candidate.resolve()))
                break
        else:
            raise FileNotFoundError(f"the ledger names figure {raw!r}, found neither as given "
                                    f"nor under {base}")
    return tuple(found)


def entries_from_json(records: Sequence[Mapping[str, Any]], *, base: Path,
                      papers: Mapping[str, Any],
                      registered: Iterable[Any] = ()) -> list[Entry]:
    """Entries from ``paper-checks --json`` records plus the registered claims it lacks.

    ``registered`` are :class:`paper_checks.registry.Claim` objects (for categories,
    perturbations and the claims not run); ``base`` is where relative figure paths live.
    """
    claims = {c.id: c for c in registered}
    entries = []
    for r in records:
        cid = str(r["id"])
        if not _SAFE_ID.match(cid):
            raise ValueError(f"claim id {cid!r} cannot name a page section")
        registered_claim = claims.get(cid)
        entries.append(Entry(
            id=cid,
            paper=paper_key(str(r["paper"]), papers),
            reference=str(r.get("reference", "")),
            statement=str(r.get("statement", "")),
            verdict=str(r.get("verdict", "error")),
            expected_verdict=r.get("expected_verdict"),
            as_expected=r.get("as_expected"),
            category=str(r.get("category") or getattr(registered_claim, "category", "paper")),
            kind=r.get("kind"),
            basis=r.get("basis"),
            measured=_scrubbed(r.get("measured")),
            reference_value=r.get("reference_value"),
            independent=r.get("independent"),
            margin=r.get("margin"),
            perturbation=r.get("perturbation", _perturbation_text(registered_claim)),
            perturbed=r.get("perturbed"),
            defence=r.get("defence"),
            certificates=r.get("certificates"),
            details=_scrubbed(r.get("details") or {}),
            error=None if r.get("error") is None else portable_paths(str(r["error"])),
            figures=_figures(r.get("figures") or (), base),
            profile=r.get("profile"),
            seconds=r.get("seconds"),
        ))
    ran = {e.id for e in entries}
    for c in claims.values():
        if c.id not in ran:
            entries.append(Entry(
                id=c.id, paper=c.paper, reference=c.reference, statement=c.statement,
                verdict="not run", expected_verdict=c.expected_verdict, category=c.category,
                perturbation=_perturbation_text(c), profile=c.profile,
                defence=_defence(c),
                details={"reason": f"a {c.profile}-profile claim; this build ran the others "
                                   f"(a build from a {c.profile}-profile run shows it)"},
            ))
    return entries


def _perturbation_text(c: Any) -> str | None:
    """What a registered claim's perturbed statement says (None without one)."""
    text = getattr(c, "perturbation_text", None)
    return text if text is not None else getattr(c, "perturbation", None)


def _defence(c: Any) -> Mapping[str, Any] | None:
    defence = getattr(c, "defence", None)
    return None if defence is None else defence.as_dict()


def load(path: Path, *, papers: Mapping[str, Any], registered: Iterable[Any] = ()) -> list[Entry]:
    """Read a ``paper-checks --json`` file (figures relative to its folder or the cwd)."""
    records = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(records, list):
        raise ValueError(f"{path} is not a paper-checks --json report (a list of records)")
    return entries_from_json(records, base=path.parent, papers=papers, registered=registered)


def by_paper(entries: Iterable[Entry]) -> dict[str, tuple[list[Entry], list[Entry]]]:
    """paper key -> (paper verdicts, consistency checks), each in :func:`severity_key` order."""
    grouped: dict[str, tuple[list[Entry], list[Entry]]] = {}
    for e in entries:
        verdicts, consistency = grouped.setdefault(e.paper, ([], []))
        (consistency if e.category == "consistency" else verdicts).append(e)
    for verdicts, consistency in grouped.values():
        verdicts.sort(key=severity_key)
        consistency.sort(key=severity_key)
    return grouped


def verdict_counts(entries: Iterable[Entry]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for e in entries:
        counts[e.verdict] = counts.get(e.verdict, 0) + 1
    return {v: counts[v] for v in (*VERDICT_ORDER, *sorted(set(counts) - set(VERDICT_ORDER)))
            if v in counts}


def _factor(log10: float) -> str:
    """``10 ** log10`` in words, also beyond float range (a margin of 10^1446 is reported)."""
    return f"{10 ** log10:.3g}" if log10 < 300 else f"10^{log10:.0f}"


def margin_text(entry: Entry) -> str:
    """The margin in words: how far the measurement is from flipping the statement."""
    if entry.margin is None:
        return ""
    what = entry.margin.get("what", "")
    slack = entry.slack
    if slack is None:
        return f"{entry.margin.get('log10_slack')} ({what})" if what else ""
    if slack == 0:
        words = "tight: an identity or an attained bound"
    elif slack < 0:
        words = f"violated by a factor of {_factor(-slack)}"
    else:
        words = f"{_factor(slack)}x of room" + (" — weak (over 100x)" if entry.weak else "")
    return f"log10 slack {slack:+.3g}: {words}" + (f" ({what})" if what else "")
