"""The built site speaks of papers by title and key, never of how the project was built: no
"seed 004" (a paper is "paper 004"), no "issue 23" (a change is described, not numbered) and
no hash-named source documents (``004_6a230b9a9faf2198``).

The site is read as a reader gets it: the text of every HTML page (tags dropped), except the
theme's files (``_static``) and the highlighted source listings (``_modules``: code, not prose).
Pages written from ``docs/`` and pages generated from the packages' docstrings (the API
reference, the paper pages), the claims' texts and verdicts (the truth ledger) and the executed
notebooks (the gallery) are all read.  The same patterns are looked for, without a site build,
in every docstring and claim text of the three packages and in what ``paper-checks`` prints and
writes (its table, Markdown report and JSON).
"""

from __future__ import annotations

import html
import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest

from tests.checks.docs_site import DocsSite


@pytest.fixture(scope="module")
def site(docs_site: DocsSite) -> DocsSite:
    if not docs_site.ok:
        pytest.fail("the docs build failed; see test_docs.py")
    return docs_site


#: What a reader must not meet: (pattern, what it is).
JARGON = (
    (re.compile(r"\bseeds? 00\d\b", re.IGNORECASE), "a paper called a seed"),
    (re.compile(r"\bissues? #?\d+\b", re.IGNORECASE), "an issue number"),
    (re.compile(r"\b\d{3}_[0-9a-f]{16}\b"), "a hash-named document"),
)
_TAG = re.compile(r"<[^>]+>")
_SKIP = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.IGNORECASE)


def page_text(path: Path) -> str:
    """The text of an HTML page: scripts and styles dropped, tags dropped, entities read."""
    raw = _SKIP.sub(" ", path.read_text(encoding="utf-8"))
    return " ".join(html.unescape(_TAG.sub(" ", raw)).split())


def jargon(text: str) -> list[str]:
    """Each occurrence of :data:`JARGON` in ``text``, with a little context.

    >>> jargon("the bound of seed 003 (issue 23) holds; see 004_6a230b9a9faf2198.txt")
    ['of seed 003 (issue 23', '03 (issue 23) holds; s', 'see 004_6a230b9a9faf2198.txt']
    """
    found = []
    for pattern, _what in JARGON:
        for m in pattern.finditer(text):
            found.append((m.start(), text[max(0, m.start() - 4): m.end() + 10].strip()))
    return [snippet for _, snippet in sorted(found)]


def _offenders(html_root: Path, generated: bool) -> dict[str, list[str]]:
    out = {}
    for path in sorted(html_root.rglob("*.html")):
        relative = path.relative_to(html_root)
        if relative.parts[0] in ("_static", "_modules"):
            continue
        if (relative.parts[0] == "generated") != generated:
            continue
        found = jargon(page_text(path))
        if found:
            out[str(relative)] = found
    return out


def test_the_jargon_patterns_find_what_they_should() -> None:
    assert jargon("Paper 004, chapter 2; the thesis; 12 issues remain; seed=0") == []
    assert len(jargon("Seed 004 and seeds 002; issue #28; 001_b50bb8acc03b85f7")) == 4


def test_the_pages_written_from_docs_speak_of_papers_not_seeds_or_issues(site: DocsSite) -> None:
    offenders = _offenders(site.html, generated=False)
    assert not offenders, "\n".join(f"{p}: {v[:5]}" for p, v in offenders.items())


def test_the_generated_pages_speak_of_papers_not_seeds_or_issues(site: DocsSite) -> None:
    offenders = _offenders(site.html, generated=True)
    assert not offenders, (f"{sum(map(len, offenders.values()))} on {len(offenders)} pages:\n"
                           + "\n".join(f"{p}: {v[:5]}" for p, v in offenders.items()))


def _docstrings(obj: Any, module: str) -> list[str]:
    """The docstring of ``obj`` and, for a class, of every member it defines."""
    out = [inspect.getdoc(obj) or ""]
    if inspect.isclass(obj):
        for member in vars(obj).values():
            target = member.fget if isinstance(member, property) else getattr(
                member, "__func__", member)
            if callable(target) or isinstance(member, property):
                out.append(inspect.getdoc(target) or "")
    return out


def test_the_docstrings_and_claim_texts_speak_of_papers_not_seeds_or_issues() -> None:
    """Every module of the three packages (claims included), every function, class and method
    they define, and every registered claim's reference, statement and perturbation."""
    from paper_checks.registry import all_claims, load_all

    found: dict[str, list[str]] = {}
    for top in ("seprank", "identifiability", "paper_checks"):
        package = importlib.import_module(top)
        names = [top] + [i.name for i in pkgutil.walk_packages(package.__path__, f"{top}.")
                         if not i.name.endswith(".__main__")]  # a command, run on import
        for name in names:
            module = importlib.import_module(name)
            texts = [module.__doc__ or ""]
            for obj in vars(module).values():
                if getattr(obj, "__module__", None) == name and (
                        inspect.isfunction(obj) or inspect.isclass(obj)):
                    texts += _docstrings(obj, name)
            hits = [j for t in texts for j in jargon(" ".join(t.split()))]  # as a page reads
            if hits:
                found[name] = hits
    load_all()
    for claim in all_claims():
        hits = jargon(" ".join([claim.reference, claim.statement, str(claim.perturbation or "")]))
        if hits:
            found[claim.id] = hits
    assert not found, "\n".join(f"{k}: {v[:5]}" for k, v in found.items())


def test_the_cli_speaks_of_papers_not_seeds_or_issues(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``paper-checks``: its paper list, and a run's table, Markdown report and JSON."""
    from paper_checks.cli import main

    assert main(["--list-papers"]) == 0
    listed = capsys.readouterr().out
    assert "003" in listed and "Depth-to-Width" in listed
    code = main(["--paper", "003", "--id", "D2W-Thm1*", "--report", str(tmp_path / "r.md"),
                 "--json", str(tmp_path / "r.json"), "--no-plots", "--no-progress"])
    assert code == 0
    printed = capsys.readouterr()
    report = (tmp_path / "r.md").read_text(encoding="utf-8")
    records = (tmp_path / "r.json").read_text(encoding="utf-8")
    assert "D2W-Thm1-positivity" in printed.out and "Paper `003`" in report
    offenders = {what: jargon(text) for what, text in (
        ("--list-papers", listed), ("stdout", printed.out), ("stderr", printed.err),
        ("report", report), ("json", records))}
    assert not any(offenders.values()), offenders
