"""The public Sphinx extension ``paper_checks.sphinx`` in a project that is not this one: a
two-file docs folder (``conf.py`` naming the extension and a report, ``index.md`` with the
MyST directive) built by Sphinx in a temporary folder from a small ``paper-checks --json``
report, and the HTML read back as a reader gets it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.checks.html_pages import read_page

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")


def _record(cid: str, verdict: str, **extra: Any) -> dict[str, Any]:
    return {"id": cid, "paper": "mine", "reference": "Theorem 1", "category": "paper",
            "statement": "rank(M) <= 2^k for all k >= 1", "verdict": verdict,
            "expected_verdict": verdict, "as_expected": True, **extra}


REPORT = [
    _record("MINE-holds", "holds", reference="Lemma 2",
            margin={"log10_slack": 0.3, "what": "bound / rank"}, measured=4),
    _record("MINE-constant", "erratum", kind="constant", reference="Theorem 1",
            details={"printed": "rank(M) <= 2^k", "corrected": "rank(M) <= 3^k"},
            independent={"method": "exact rank over Q", "value": 9, "agrees": True},
            margin={"log10_slack": -0.65, "what": "bound / rank"}, measured=9),
    _record("MINE-selfcheck", "holds", category="consistency", reference="Definition 1"),
]
CONF = 'extensions = ["myst_parser", "paper_checks.sphinx"]\npaper_ledger_json = "pc.json"\n'
INDEX = "# My paper\n\n```{paper-ledger} mine\n```\n"


def _build(tmp_path: Path, conf: str, index: str) -> tuple[subprocess.CompletedProcess[str],
                                                             Path]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(conf, encoding="utf-8")
    (docs / "index.md").write_text(index, encoding="utf-8")
    (docs / "pc.json").write_text(json.dumps(REPORT), encoding="utf-8")
    out = tmp_path / "html"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                           "html", str(docs), str(out)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)
    return done, out


def test_a_two_file_project_renders_the_grouped_tables_and_cards(tmp_path: Path) -> None:
    done, out = _build(tmp_path, CONF, INDEX)
    assert done.returncode == 0, done.stderr[-3000:]
    html = (out / "index.html").read_text(encoding="utf-8")
    page = read_page(out / "index.html")
    # what is wrong first, then what holds, then the consistency checks apart
    order = [html.index(t) for t in ("Wrong constants or rates (1)",
                                     "Statements that hold (1)", "Consistency checks (1)")]
    assert order == sorted(order)
    # every claim is a link target; the summary row of the erratum links to its card
    assert {"ledger-mine-constant", "ledger-mine-holds", "ledger-mine-selfcheck"} <= page.ids
    assert "#ledger-mine-constant" in page.links
    # the printed and corrected statements are math for MathJax, not ASCII TeX
    assert r"3^k" in html and 'class="math' in html
    assert "exact rank over Q" in html and "violated by a factor of" in html
    # the stylesheet ships with the extension
    assert (out / "_static" / "paper_ledger.css").is_file()
    assert any(link.endswith("paper_ledger.css") for link in page.links)


def test_selection_options_and_bad_arguments(tmp_path: Path) -> None:
    index = ("# Part\n\n```{paper-ledger} mine\n:reference: ^Theorem\n```\n\n"
             "```{paper-ledger} mine\n:ids: MINE-c*\n:tables-only:\n```\n")
    done, out = _build(tmp_path, CONF, index)
    assert done.returncode == 0, done.stderr[-3000:]
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "MINE-constant" in html and "MINE-selfcheck" not in html
    ids = read_page(out / "index.html").ids
    assert "ledger-mine-constant" in ids and "ledger-mine-holds" not in ids
    assert html.count('href="#ledger-mine-constant"') == 2  # both tables link to the card
    (tmp_path / "html").rename(tmp_path / "first")
    (tmp_path / "docs").rename(tmp_path / "docs-first")
    done, _ = _build(tmp_path, CONF.replace("pc.json", "missing.json"), INDEX)
    assert done.returncode != 0 and "missing.json" in done.stderr
