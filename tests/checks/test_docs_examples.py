"""The examples of the site's hand-written pages run (doctest), wherever they moved from the
README, and the landing page gives the README's two commands."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: Hand-written pages with examples: the landing page, the guides and the subpackage tours.
PAGES = sorted([*DOCS.glob("*.md"), *(DOCS / "tours").glob("*.md")])
_BLOCK = re.compile(r"```(?:pycon|python)\n(.*?)```", flags=re.S)


def _examples(path: Path) -> str:
    blocks = _BLOCK.findall(path.read_text(encoding="utf-8"))
    return "\n".join(b for b in blocks if b.lstrip().startswith(">>>"))


@pytest.mark.parametrize("page", [p for p in PAGES if _examples(p)],
                         ids=lambda p: str(p.relative_to(DOCS)))
def test_page_examples_run(page: Path) -> None:
    name = str(page.relative_to(ROOT))
    test = doctest.DocTestParser().get_doctest(_examples(page), {}, name, name, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.tries > 0 and runner.failures == 0


def test_every_tour_is_for_an_existing_module() -> None:
    import importlib

    for tour in (DOCS / "tours").glob("*.md"):
        importlib.import_module(tour.stem)


def _commands(text: str, heading: str) -> list[str]:
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.+?)\n```", section, flags=re.S)


def test_landing_page_gives_the_readmes_two_commands() -> None:
    """The landing page includes the README's text from the papers to "## Where next": the
    set-up section (exactly two commands) lies inside what it includes."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    readme = _commands(text, "## Set-up: two commands")
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    start = re.search(r':start-after: "(.+)"', index)
    end = re.search(r':end-before: "(.+)"', index)
    assert start and end and "{include} ../README.md" in index
    included = text.split(start.group(1), 1)[1].split(end.group(1), 1)[0]
    assert len(readme) == 2 and _commands(included, "## Set-up: two commands") == readme
