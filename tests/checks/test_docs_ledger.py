"""The ledger pages' data layer (``paper_checks/sphinx/entries.py``): reports with or
without the graded fields, every registered claim placed, and the order a reader is promised
-- what is wrong first, by kind as the ``paper-checks`` report splits it, and how wrong; the
notes apart; no machine path from a traceback; summary lines that never cut a formula or a
structure; the thesis split by chapter."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from docutils import nodes

from paper_checks.sphinx import entries as ledger
from paper_checks.sphinx import render
from paper_checks.sphinx.texmath import well_formed

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))
from seprank_docs import pages

PAPERS = {"003": SimpleNamespace(key="003", stem="003", title="Depth to width"),
          "002": SimpleNamespace(key="002", stem="002_abc", title="ICL")}


def _record(cid: str, verdict: str, **extra: Any) -> dict[str, Any]:
    return {"id": cid, "paper": "003", "reference": "Thm 1", "statement": f"{cid} as printed",
            "verdict": verdict, "expected_verdict": verdict, "as_expected": True, **extra}


def _claim(cid: str, **extra: Any) -> SimpleNamespace:
    fields = {"id": cid, "paper": "003", "reference": "Lemma 2", "statement": "printed",
              "expected_verdict": "holds", "category": "paper", "perturbation": None,
              "profile": "full", **extra}
    return SimpleNamespace(**fields)


def test_a_report_without_the_graded_fields_is_read_with_them_empty() -> None:
    (entry,) = ledger.entries_from_json([_record("D2W-a", "erratum")], base=Path("."),
                                        papers=PAPERS)
    assert (entry.kind, entry.margin, entry.independent, entry.slack) == (None, None, None, None)
    assert entry.category == "paper" and entry.figures == ()


def test_graded_fields_are_read_and_the_registry_fills_category_and_perturbation() -> None:
    rec = _record("D2W-a", "fails", kind="constant",
                  margin={"log10_slack": -0.5, "what": "rank / bound"},
                  independent={"method": "Fractions", "value": 3, "agrees": True})
    claim = _claim("D2W-a", category="consistency", perturbation="bound / 1.01")
    (entry,) = ledger.entries_from_json([rec], base=Path("."), papers=PAPERS,
                                        registered=[claim])
    assert entry.kind == "constant" and entry.slack == -0.5
    assert entry.independent == {"method": "Fractions", "value": 3, "agrees": True}
    assert entry.category == "consistency" and entry.perturbation == "bound / 1.01"


def test_seed_stems_map_to_paper_keys() -> None:
    rec = dict(_record("ICL-a", "holds"), paper="002_abc")
    (entry,) = ledger.entries_from_json([rec], base=Path("."), papers=PAPERS)
    assert entry.paper == "002"


def test_registered_claims_not_in_the_report_are_placed_as_not_run() -> None:
    entries = ledger.entries_from_json([_record("D2W-a", "holds")], base=Path("."),
                                       papers=PAPERS,
                                       registered=[_claim("D2W-a"), _claim("D2W-slow")])
    slow = {e.id: e for e in entries}["D2W-slow"]
    assert slow.verdict == "not run" and not slow.ran and "full" in slow.details["reason"]


def test_order_is_what_is_wrong_first_and_how_wrong() -> None:
    def rec(cid: str, verdict: str, kind: str | None = None,
            slack: float | None = None) -> dict[str, Any]:
        margin = None if slack is None else {"log10_slack": slack, "what": "x"}
        return _record(cid, verdict, kind=kind, margin=margin)

    records = [
        rec("h-loose", "holds", slack=1.5), rec("h-tight", "holds", slack=0.0),
        rec("h-none", "holds"), rec("skip", "skipped"),
        rec("typo", "erratum", "typo", -0.1), rec("const-far", "erratum", "constant", -2.0),
        rec("const-near", "erratum", "constant", -0.3), rec("stmt", "fails", "statement", -0.2),
        rec("hyp", "fails", "hypothesis", -5.0), rec("proof", "unproven", "proof"),
        {**rec("boom", "holds"), "verdict": "error"},
    ]
    entries = ledger.entries_from_json(records, base=Path("."), papers=PAPERS,
                                       registered=[_claim("never")])
    verdicts, consistency = ledger.by_paper(entries)["003"]
    assert consistency == []
    # by kind (false statements, constants, hypotheses, proofs, typos), then how wrong
    assert [e.id for e in verdicts] == [
        "boom", "stmt", "const-far", "const-near", "hyp", "proof", "typo",
        "h-tight", "h-loose", "h-none", "skip", "never"]
    assert [key for key, _, _ in ledger.grouped(verdicts)] == [
        "error", "statement", "constant", "hypothesis", "proof", "typo", "holds", "skipped",
        "not run"]


def test_the_kinds_are_grouped_as_the_paper_checks_report_groups_them() -> None:
    from paper_checks.ledger import KINDS, NOTE_KINDS
    from paper_checks.report import REPORT_ORDER

    assert (*REPORT_ORDER, *NOTE_KINDS) == ledger.KIND_ORDER
    assert set(ledger.KIND_ORDER) == set(KINDS)


def test_notes_are_apart_from_the_errata_after_what_holds() -> None:
    records = [_record("n", "note", kind="convention"), _record("h", "holds"),
               _record("t", "erratum", kind="typo")]
    verdicts, _ = ledger.by_paper(ledger.entries_from_json(records, base=Path("."),
                                                           papers=PAPERS))["003"]
    assert [(key, [e.id for e in group]) for key, _, group in ledger.grouped(verdicts)] == [
        ("typo", ["t"]), ("holds", ["h"]), ("note", ["n"])]
    assert ledger.group_counts(verdicts) == {"typo": 1, "holds": 1, "note": 1}


def test_machine_paths_leave_tracebacks_and_details() -> None:
    trace = ('Traceback (most recent call last):\n  File "/home/u/venv/lib/python3.11/'
             'site-packages/numpy/core.py", line 3\n  File "/srv/build/x/paper_checks/ledger.py"'
             ', line 9\nValueError: 1/2 of x/y')
    (entry,) = ledger.entries_from_json(
        [_record("D2W-a", "error", error=trace, details={"log": "saved /tmp/a/b.png"})],
        base=Path("."), papers=PAPERS)
    assert entry.error is not None and "/home/" not in entry.error
    assert "/srv/" not in entry.error and "site-packages/numpy/core.py" in entry.error
    assert "ledger.py" in entry.error and "1/2 of x/y" in entry.error
    assert entry.details == {"log": "saved b.png"}


def test_consistency_checks_are_listed_apart() -> None:
    records = [_record("D2W-a", "holds", category="consistency"), _record("D2W-b", "fails")]
    verdicts, consistency = ledger.by_paper(
        ledger.entries_from_json(records, base=Path("."), papers=PAPERS))["003"]
    assert [e.id for e in verdicts] == ["D2W-b"] and [e.id for e in consistency] == ["D2W-a"]


@pytest.mark.parametrize("slack,words", [(0.0, "tight"), (-1.0, "violated by a factor of 10"),
                                         (0.5, "3.16x of room"), (2.5, "weak"),
                                         (1446.7, "10^1447x of room"),
                                         (-400.0, "violated by a factor of 10^400")])
def test_margin_in_words(slack: float, words: str) -> None:
    entry = ledger.Entry("a", "003", "r", "s", "holds",
                         margin={"log10_slack": slack, "what": "m / b"})
    assert words in ledger.margin_text(entry) and "(m / b)" in ledger.margin_text(entry)


def test_figures_are_found_or_refused(tmp_path: Path) -> None:
    (tmp_path / "plots").mkdir()
    (tmp_path / "plots" / "f.png").write_bytes(b"png")
    (entry,) = ledger.entries_from_json([_record("D2W-a", "holds", figures=["plots/f.png"])],
                                        base=tmp_path, papers=PAPERS)
    assert entry.figures == (str((tmp_path / "plots" / "f.png").resolve()),)
    with pytest.raises(FileNotFoundError, match=r"missing\.png"):
        ledger.entries_from_json([_record("D2W-a", "holds", figures=["missing.png"])],
                                 base=tmp_path, papers=PAPERS)


def test_a_claim_id_that_cannot_name_a_section_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot name a page section"):
        ledger.entries_from_json([_record("bad id`", "holds")], base=Path("."), papers=PAPERS)


def test_a_ledger_page_is_its_title_and_the_public_directive() -> None:
    text = pages.ledger_page("003", "Depth *to* width")
    assert text.index(".. _ledger-paper-003:") < text.index("Depth \\*to\\* width (003)") \
        < text.index(".. paper-ledger:: 003")


def test_the_summary_line_says_what_is_wrong_and_what_holds_instead() -> None:
    long = "the bound " + "x " * 200 + "fails"
    (entry,) = ledger.entries_from_json(
        [_record("D2W-a", "erratum", kind="constant",
                 details={"printed": long, "corrected": "rank <= 3^L holds"})],
        base=Path("."), papers=PAPERS)
    line = render.summary_line(entry)
    assert line.startswith("the bound") and " … → " in line
    assert "\n" not in line and len(line) < 2 * render.SUMMARY_SIDE + 10
    # the corrected side is rendered: its formula is a math node, not ASCII TeX
    maths = [n for n in render.summary_nodes(entry) if isinstance(n, nodes.math)]
    assert [m.astext() for m in maths][-1] == r"\le 3^L" or any(
        "3^L" in m.astext() and r"\le" in m.astext() for m in maths)
    (note,) = ledger.entries_from_json(
        [_record("D2W-n", "note", kind="convention",
                 details={"printed": "degree 2C", "reading": "the summed positions"})],
        base=Path("."), papers=PAPERS)
    assert render.summary_line(note) == "degree 2C → reading: the summed positions"


def test_a_summary_never_cuts_a_structure_or_a_formula() -> None:
    measured = {f"(d_x={d}, L={L})": d ** L for d in range(2, 9) for L in range(1, 4)}
    cell = render._short_nodes(measured)
    items = [n.astext() for n in cell if isinstance(n, nodes.literal)]
    assert items and all(item in {f"{k}: {v}" for k, v in measured.items()} for item in items)
    assert cell[-1].astext() == f" … and {len(measured) - len(items)} more (in the card)"
    formula = "sum_{j=1}^{n} binom(d, j) * |zeta_{k-1}|^2 <= tau_g"
    text = "the printed bound " + formula + " fails at " + "every size " * 20
    segs = render._short_segments(text, 40)
    assert formula.split()[0] in "".join(s.source for s in segs)  # kept whole though long
    for seg in segs:
        assert not seg.math or well_formed(seg.tex)
    assert "".join(s.source for s in segs).endswith(" …")
    joined = "".join(s.source for s in segs if s.math)
    assert joined.replace(" ", "") in formula.replace(" ", "")


def test_the_thesis_chapters_come_from_the_references_and_cover_every_claim() -> None:
    from paper_checks.registry import all_claims

    claims = [c for c in all_claims() if c.paper == "004"]
    entries = [ledger.Entry(id=c.id, paper="004", reference=c.reference, statement="",
                            verdict="holds") for c in claims]
    prefixes = pages.chapter_prefixes(entries)
    # each id prefix goes where most of its references' sections say
    for prefix, chapter in prefixes.items():
        named = [int(m.group(1)) for e in entries if e.id.startswith(prefix + "-")
                 for m in [re.match(r"\s*§\s*(\d+)", e.reference)] if m]
        assert named.count(chapter) == max(named.count(n) for n in set(named))
    written = pages.chapter_pages("004", "Thesis", entries, pages.CHAPTERS["004"])
    chapter_stems = [k for k in written if k != "004"]
    assert chapter_stems == ["004-ch2", "004-ch3", "004-ch4"]
    selected = [p for stem in chapter_stems for line in written[stem].splitlines()
                if line.strip().startswith(":ids:") for p in line.split()[1:]]
    assert sorted(p[:-2] for p in selected) == sorted({c.id.split("-", 1)[0] for c in claims})
    assert all(f":doc:`Chapter {n} <004-ch{n}>`" in written["004"] for n in (2, 3, 4))
    # a claim whose prefix names no listed chapter is refused, not dropped
    stray = [*entries, ledger.Entry(id="ZZ-1", paper="004", reference="§9.1", statement="",
                                    verdict="holds")]
    with pytest.raises(ValueError, match="ZZ-"):
        pages.chapter_pages("004", "Thesis", stray, pages.CHAPTERS["004"])


def test_the_gallery_drops_progress_bar_widgets_and_their_state() -> None:
    bar = {"output_type": "display_data",
           "data": {pages.WIDGET_VIEW: {"model_id": "m"}, "text/plain": ["50%|#####"]}}
    figure = {"output_type": "display_data", "data": {"image/png": "AAAA"}}
    nb = {"metadata": {"widgets": {"state": {}}},
          "cells": [{"cell_type": "code", "outputs": [bar, figure]},
                    {"cell_type": "markdown", "source": ["# t"]}]}
    out = pages.without_progress_bars(nb)
    assert out["cells"][0]["outputs"] == [figure] and "widgets" not in out["metadata"]


def test_counts_read_in_the_singular_and_the_plural() -> None:
    assert ledger.count_words("typo", 1) == "1 typo"
    assert ledger.count_words("hypothesis", 2) == "2 missing hypotheses"
    assert ledger.count_words("holds", 40) == "40 hold"
    assert set(ledger.GROUP_WORDS) == {key for key, _ in ledger.GROUPS}
