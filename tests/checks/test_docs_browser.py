"""Open the built site in a real headless browser at 1280 px, offline: the landing page, the
ledger's index and every paper's ledger page, the gallery and every gallery page render --
styles applied, tables laid out within their column, every figure decoded, every math node
typeset by the MathJax shipped with the site (none left as raw ``\\( ... \\)``, none in
error), no warning text (``TqdmWarning: ...``) and no machine path (``/home/...``) anywhere.

Chromium is Debian's package (``/usr/bin/chromium``, installed by ``.ci/run``), driven by
Playwright's Python package (no browser download).  The site is served on 127.0.0.1; every
request elsewhere is refused and recorded -- and fails the test: the site must read offline.
Full-page screenshots and each page's height (``heights.json``) go to the test's output folder
(``tmp_path``) and their paths are printed.  Without Chromium the test is skipped, except in
CI (``CI`` set), where it fails.

Waiting survives a loaded machine: a page is ready when what the test reads is there -- the
document parsed and its subresources loaded (``document.readyState``), every image decoded, and
MathJax's own typesetting promise (``MathJax.startup.promise``, then ``typesetPromise()``)
settled -- never after a fixed wall-clock load state or a network-idle heuristic.  The only
time limit is :data:`GUARD_MS`, a hang guard far above any plausible load (a page that loads
in seconds on a quiet machine and in a minute at load 9 is given 30 minutes).
"""

from __future__ import annotations

import functools
import json
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.checks.docs_site import DocsSite

CHROMIUM = Path(os.environ.get("SEPRANK_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic"]
#: A hang guard, not a speed requirement: far above any plausible load (see the docstring).
GUARD_MS = 30 * 60_000
#: The reader's screen: tables must fit their column at this width.
VIEWPORT = {"width": 1280, "height": 900}
#: A ledger page is read in at most about 20 screens of the reader's viewport (the thesis is
#: split into one page per chapter for that); 10 % of room for font metrics.
MAX_LEDGER_SCREENS = 22
#: A warning as Python prints it (``TqdmWarning: IProgress not found``, ``FutureWarning: ...``).
WARNING_TEXT = re.compile(r"\b[A-Z][A-Za-z]*Warning: ")
#: A machine's absolute path in the text of a page.
MACHINE_PATH = re.compile(r"(?<![\w.~/])/(?:home|root|tmp|work|usr|opt|var|srv|mnt|Users)/\S")
#: Verdict badges must carry the ledger's colours (rgb of ledger.css).
BADGE_COLOURS = {"holds": "rgb(26, 127, 55)", "erratum": "rgb(191, 135, 0)",
                 "fails": "rgb(207, 34, 46)"}

_IMAGES = """() => Array.from(document.images).map(i => ({
    src: i.getAttribute('src'), complete: i.complete, width: i.naturalWidth,
    shown: i.getBoundingClientRect().width}))"""
_TABLES = """(selector) => Array.from(document.querySelectorAll(selector)).map(t => ({
    rows: t.querySelectorAll('tbody tr').length,
    width: t.getBoundingClientRect().width, height: t.getBoundingClientRect().height}))"""
#: Math nodes (Sphinx: span/div.math; myst-nb the same), whether MathJax typeset each, errors.
_MATH = """async () => {
    const nodes = Array.from(document.querySelectorAll('.math'));
    if (nodes.length && !window.MathJax) return {nodes: nodes.length, loaded: false};
    if (window.MathJax && window.MathJax.startup) await window.MathJax.startup.promise;
    const raw = nodes.filter(n => !n.querySelector('mjx-container'));
    return {nodes: nodes.length, loaded: !!window.MathJax,
            raw: raw.slice(0, 5).map(n => n.textContent.slice(0, 80)), n_raw: raw.length,
            errors: Array.from(document.querySelectorAll('mjx-merror')).slice(0, 5)
                .map(e => e.closest('.math') ? e.closest('.math').textContent.slice(0, 120)
                                             : e.textContent)};
}"""
#: Tables wider than their column (they would be clipped or scroll sideways).
_OVERFLOWING = """() => Array.from(document.querySelectorAll('article table')).map(t => {
    const box = t.parentElement.getBoundingClientRect();
    const scroller = t.closest('.pst-scrollable-table-container') || t.parentElement;
    return {cls: t.className, width: Math.round(t.getBoundingClientRect().width),
            column: Math.round(box.width),
            overflow: Math.max(t.getBoundingClientRect().right - box.right,
                               scroller.scrollWidth - scroller.clientWidth)};
}).filter(t => t.overflow > 1)"""
#: The text of the page, including collapsed <details>, without scripts and styles.
_TEXT = """() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const parts = [];
    while (walker.nextNode()) {
        const p = walker.currentNode.parentElement;
        if (p && !p.closest('script, style, mjx-container')) parts.push(walker.currentNode.data);
    }
    return parts.join(' ');
}"""
#: The page's own table of contents (right-hand column): its height and what it can show.
_PAGE_TOC = """() => { const t = document.querySelector('.bd-sidebar-secondary');
    if (!t || !t.getBoundingClientRect().height) return null;
    return {scroll: t.scrollHeight, client: t.clientHeight,
            entries: t.querySelectorAll('nav li').length}; }"""
#: A gallery page's column: its width, how many characters of code or output a line can hold
#: (measured with the blocks' own monospace font), and the blocks that scroll sideways with the
#: longest line of each.
_CELLS = """() => {
    const blocks = Array.from(document.querySelectorAll('div.cell_input pre, div.cell_output pre'));
    if (!blocks.length) return {blocks: 0};
    const probe = document.createElement('span');
    probe.textContent = '0'.repeat(100);
    blocks[0].appendChild(probe);
    const char = probe.getBoundingClientRect().width / 100;
    probe.remove();
    const longest = p => p.textContent.split('\\n').reduce((a, b) => a.length >= b.length ? a : b);
    return {column: Math.round(document.querySelector('article').getBoundingClientRect().width),
            blocks: blocks.length,
            capacity: Math.floor(Math.min(...blocks.map(p => p.clientWidth
                - parseFloat(getComputedStyle(p).paddingLeft)
                - parseFloat(getComputedStyle(p).paddingRight))) / char),
            cut: blocks.filter(p => p.scrollWidth > p.clientWidth + 1)
                .map(p => ({chars: longest(p).length, line: longest(p).slice(0, 80)}))};
}"""
#: A gallery page's column at 1280 px: the whole width but the page's margins (656 px with the
#: theme's sidebars, which wrapped the notebooks' aligned tables), and the characters a line of
#: code or output holds in it.
MIN_GALLERY_COLUMN = 1100
MIN_GALLERY_CHARACTERS = 120
_BADGES = """() => Array.from(document.querySelectorAll('table .ledger-verdict')).map(b => ({
    text: b.textContent.trim(), colour: getComputedStyle(b).backgroundColor}))"""


@dataclass
class BrowserSession:
    """The page, the requests refused (not to 127.0.0.1) and the page's script errors."""

    page: Any
    refused: list[str]
    errors: list[str] = field(default_factory=list)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def served(docs_site: DocsSite) -> Iterator[str]:
    if not docs_site.ok:
        pytest.fail("the docs build failed; see test_docs.py")
    handler = functools.partial(_QuietHandler, directory=str(docs_site.html))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserSession]:
    if not CHROMIUM.is_file():
        message = (f"{CHROMIUM} not found: install Debian's chromium package "
                   "(`apt-get install chromium`; .ci/run does)")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")
    profile = tmp_path_factory.mktemp("chromium-profile")  # an empty user-data-dir
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=LAUNCH_FLAGS,
            viewport=VIEWPORT)
        context.set_default_timeout(GUARD_MS)
        context.set_default_navigation_timeout(GUARD_MS)
        refused: list[str] = []

        def local_only(route: Any) -> None:
            url = route.request.url
            if url.startswith("http://127.0.0.1:"):
                route.continue_()
            else:
                refused.append(url)
                route.abort()

        context.route("**/*", local_only)
        page = context.new_page()
        session = BrowserSession(page, refused)
        page.on("pageerror", lambda exc: session.errors.append(str(exc)))
        try:
            yield session
        finally:
            context.close()


#: Resolves when the page is ready to be read: parsed, subresources and images loaded, and
#: MathJax's typesetting settled (its startup promise, then a typeset pass of anything left).
READY = """async () => {
    if (document.readyState !== 'complete')
        await new Promise(done => window.addEventListener('load', done, {once: true}));
    await Promise.all(Array.from(document.images).map(
        i => i.complete ? null : new Promise(done => { i.onload = i.onerror = done; })));
    if (window.MathJax && window.MathJax.startup) {
        await window.MathJax.startup.promise;
        if (window.MathJax.typesetPromise) await window.MathJax.typesetPromise();
    }
    return true;
}"""


def _open(page: Any, url: str, shot: Path) -> None:
    """Open ``url`` and wait until it is ready (:data:`READY`), then take its screenshot.

    ``goto`` returns once the response has arrived (``commit``); the rest is awaited inside
    the page, on the browser's own events and MathJax's promise, under :data:`GUARD_MS` only.
    """
    response = page.goto(url, wait_until="commit", timeout=GUARD_MS)
    assert response is not None and response.ok, f"{url}: HTTP {response and response.status}"
    page.wait_for_load_state("domcontentloaded", timeout=GUARD_MS)
    page.evaluate(READY)
    page.screenshot(path=str(shot), full_page=True, timeout=GUARD_MS)
    print(f"screenshot: {shot}")


def page_problems(page: Any) -> list[str]:
    """What a reader should not see on the open page: math left raw or in error, a table
    wider than its column at 1280 px, a warning's text, a machine path."""
    problems = []
    math = page.evaluate(_MATH)
    if math["nodes"] and not math["loaded"]:
        problems.append(f"{math['nodes']} math nodes and no MathJax loaded")
    elif math.get("n_raw"):
        problems.append(f"{math['n_raw']} of {math['nodes']} math nodes not typeset, e.g. "
                        f"{math['raw']}")
    if math.get("errors"):
        problems.append(f"math in error: {math['errors']}")
    for table in page.evaluate(_OVERFLOWING):
        problems.append(f"table {table['cls']!r} {table['width']} px in a "
                        f"{table['column']} px column (overflow {table['overflow']:.0f} px)")
    text = page.evaluate(_TEXT)
    for pattern, what in ((WARNING_TEXT, "warning text"), (MACHINE_PATH, "machine path")):
        found = sorted({text[max(0, m.start() - 40): m.end() + 60]
                        for m in pattern.finditer(text)})
        if found:
            problems.append(f"{what}: {found[:3]}")
    return problems


def _assert_images_render(page: Any, where: str, minimum: int) -> None:
    images = page.evaluate(_IMAGES)
    assert len(images) >= minimum, f"{where}: {len(images)} images, expected >= {minimum}"
    broken = [i["src"] for i in images if not i["complete"] or i["width"] == 0]
    assert not broken, f"{where}: images that did not decode: {broken}"


def _verdict_page(ledger_json: Path) -> tuple[str, dict[str, int], int]:
    """The paper whose ledger has the most non-holds verdicts and a figure."""
    records = json.loads(ledger_json.read_text(encoding="utf-8"))
    from paper_checks.registry import PAPERS

    stems = {p.stem: p.key for p in PAPERS.values()}
    counts: dict[str, dict[str, int]] = {}
    figures: dict[str, int] = {}
    for r in records:
        key = stems.get(r["paper"], r["paper"])
        counts.setdefault(key, {})
        counts[key][r["verdict"]] = counts[key].get(r["verdict"], 0) + 1
        figures[key] = figures.get(key, 0) + len(r.get("figures") or [])
    with_figures = [k for k in counts if figures.get(k)] or list(counts)
    best = max(with_figures, key=lambda k: sum(n for v, n in counts[k].items() if v != "holds"))
    return best, counts[best], figures.get(best, 0)


def test_landing_page_renders(served: str, browser: BrowserSession, tmp_path: Path) -> None:
    page = browser.page
    _open(page, f"{served}/index.html", tmp_path / "landing.png")
    assert page.title().startswith("seprank + identifiability")
    assert page.locator("h1").first.inner_text().strip() == "seprank + identifiability"
    # the theme's stylesheet applied: the navbar is laid out and links to the sections
    nav = page.locator("nav").first
    assert nav.bounding_box() is not None and nav.bounding_box()["height"] > 20
    for section in ("Papers", "The truth ledger", "Gallery", "API reference"):
        assert page.get_by_role("link", name=section).count() >= 1, section
    code = page.locator("div.highlight pre")
    assert code.count() >= 4 and ">>>" in code.nth(2).inner_text()
    _assert_images_render(page, "landing page", 0)
    assert not browser.errors, browser.errors


def test_verdict_page_renders_tables_badges_and_figures(served: str, browser: BrowserSession,
                                                       docs_site: DocsSite,
                                                       tmp_path: Path) -> None:
    key, counts, n_figures = _verdict_page(docs_site.ledger_json)
    page = browser.page
    _open(page, f"{served}/generated/ledger/{key}.html", tmp_path / f"ledger-{key}.png")
    # what is wrong: summary tables (a row each, linking to the cards); what holds (or was not
    # run): tables whose rows are the claims themselves
    tables = page.evaluate(_TABLES, "table.ledger-summary, table.ledger-compact")
    assert tables, "no ledger summary table"
    assert sum(t["rows"] for t in tables) >= sum(counts.values()), (tables, counts)
    for summary in tables:  # laid out: as wide as the column, a line or more per row
        assert summary["width"] > 400 and summary["height"] > 20 * summary["rows"], summary
    badges = page.evaluate(_BADGES)
    for verdict, colour in BADGE_COLOURS.items():
        shown = {b["colour"] for b in badges if b["text"] == verdict}
        assert shown <= {colour}, f"{verdict} badges coloured {shown}, expected {colour}"
    seen = {b["text"] for b in badges}
    assert set(counts) - {"holds"} <= seen | {"error"}, (set(counts), seen)  # holds: a section
    _assert_images_render(page, f"ledger page {key}", n_figures)
    assert not browser.errors, browser.errors


def test_gallery_page_shows_the_notebook_figures(served: str, browser: BrowserSession,
                                                docs_site: DocsSite, tmp_path: Path) -> None:
    rendered = sorted(docs_site.notebooks.glob("*.ipynb"))
    if not rendered:
        pytest.skip("no notebook was executed in this profile")
    page = browser.page
    _open(page, f"{served}/generated/gallery/index.html", tmp_path / "gallery.png")
    _assert_images_render(page, "gallery", len(rendered))
    _open(page, f"{served}/generated/gallery/{rendered[0].stem}.html",
          tmp_path / f"gallery-{rendered[0].stem}.png")
    _assert_images_render(page, rendered[0].name, 1)
    assert not browser.errors, browser.errors
    print(f"requests refused (not on 127.0.0.1): {sorted(set(browser.refused))}")


def test_a_gallery_page_keeps_its_aligned_output_lines(served: str, browser: BrowserSession,
                                                       tmp_path: Path) -> None:
    """At 1280 px a notebook's code and printed output are shown in a column that holds lines of
    at least :data:`MIN_GALLERY_CHARACTERS` characters, never wrapped: a block scrolls sideways
    only for a line longer than the column holds (a dict printed on one line), so tables printed
    with aligned columns keep their alignment."""
    from tests.checks.notebook_runs import NOTEBOOKS, outputs_committed

    committed = [p for p in NOTEBOOKS if outputs_committed(p)]
    assert committed
    page = browser.page
    for notebook in committed:
        _open(page, f"{served}/generated/gallery/{notebook.stem}.html",
              tmp_path / f"gallery-{notebook.stem}.png")
        cells = page.evaluate(_CELLS)
        assert cells["blocks"] > 0, notebook.name
        assert cells["column"] >= MIN_GALLERY_COLUMN, (notebook.name, cells["column"])
        assert cells["capacity"] >= MIN_GALLERY_CHARACTERS, (notebook.name, cells["capacity"])
        cut = [c for c in cells["cut"] if c["chars"] <= cells["capacity"]]
        assert not cut, (notebook.name, cells["capacity"], cut)
    assert not browser.errors, browser.errors


def _site_pages(html: Path) -> list[str]:
    """The landing page, the ledger (index and every paper) and the gallery (index and every
    notebook), as paths under the site root."""
    ledger = sorted(p.name for p in (html / "generated" / "ledger").glob("*.html"))
    gallery = sorted(p.name for p in (html / "generated" / "gallery").glob("*.html"))
    return (["index.html"] + [f"generated/ledger/{n}" for n in ledger]
            + [f"generated/gallery/{n}" for n in gallery])


def test_every_page_renders_its_math_fits_and_shows_no_warning_or_path(
        served: str, browser: BrowserSession, docs_site: DocsSite, tmp_path: Path) -> None:
    pages = _site_pages(docs_site.html)
    assert len([p for p in pages if "/ledger/" in p]) >= 3, pages
    # the thesis has one ledger page per chapter (each short enough to read: see below)
    assert {"generated/ledger/004-ch2.html", "generated/ledger/004-ch3.html",
            "generated/ledger/004-ch4.html"} <= set(pages), pages
    page = browser.page
    problems: dict[str, list[str]] = {}
    heights: dict[str, int] = {}
    typeset = 0
    for path in pages:
        _open(page, f"{served}/{path}", tmp_path / (path.replace("/", "__") + ".png"))
        heights[path] = page.evaluate("() => document.documentElement.scrollHeight")
        typeset += page.evaluate(_MATH)["nodes"]
        found = page_problems(page)
        if found:
            problems[path] = found
        if "/ledger/" in path:
            toc = page.evaluate(_PAGE_TOC)
            screens = heights[path] / VIEWPORT["height"]
            if screens > MAX_LEDGER_SCREENS:
                problems.setdefault(path, []).append(
                    f"{screens:.1f} screens tall (at most {MAX_LEDGER_SCREENS})")
            if toc and toc["scroll"] > toc["client"] + 1:
                problems.setdefault(path, []).append(
                    f"its table of contents ({toc['entries']} entries) is clipped: "
                    f"{toc['scroll']} px in {toc['client']} px")
    (tmp_path / "heights.json").write_text(json.dumps(heights, indent=1), encoding="utf-8")
    print(f"page heights at {VIEWPORT['width']} px: {heights}")
    assert typeset > 0, "no math node on any page: the check would pass vacuously"
    assert not problems, "\n".join(f"{p}: {'; '.join(v)}" for p, v in problems.items())
    assert not browser.refused, f"requests outside the site: {sorted(set(browser.refused))}"
    assert not browser.errors, browser.errors


def test_the_paper_pages_typeset_their_notation(served: str, browser: BrowserSession,
                                               docs_site: DocsSite, tmp_path: Path) -> None:
    """Each paper page's notation (TeX written once in its ``INDEX``) is typeset by MathJax:
    at least one math node per notation entry, none left raw, none in error."""
    import importlib

    from tests.checks.test_layout import PAPER_PACKAGES

    page = browser.page
    problems = {}
    for name in PAPER_PACKAGES:
        _open(page, f"{served}/generated/papers/{name}.html", tmp_path / f"paper-{name}.png")
        math = page.evaluate(_MATH)
        expected = len(importlib.import_module(name).INDEX.notation)
        found = []
        if not math.get("loaded"):
            found.append("no MathJax loaded")
        if math["nodes"] < expected:
            found.append(f"{math['nodes']} math nodes for {expected} notation entries")
        if math.get("n_raw"):
            found.append(f"{math['n_raw']} math nodes not typeset, e.g. {math['raw']}")
        if math.get("errors"):
            found.append(f"math in error: {math['errors']}")
        if found:
            problems[name] = found
    assert not problems, "\n".join(f"{p}: {'; '.join(v)}" for p, v in problems.items())
    assert not browser.errors, browser.errors
