"""Open the built site in a real headless browser: the landing page, the verdict page of a paper
and a gallery page render -- styles applied, tables laid out, every figure decoded.

Chromium is Debian's package (``/usr/bin/chromium``, installed by ``.ci/run``), driven by
Playwright's Python package (no browser download).  The site is served on 127.0.0.1; every
request elsewhere is refused and recorded.  Full-page screenshots go to the test's output
folder (``tmp_path``) and their paths are printed.  Without Chromium the test is skipped, except
in CI (``CI`` set), where it fails.
"""

from __future__ import annotations

import functools
import json
import os
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
PAGE_TIMEOUT_MS = 60_000
#: Verdict badges must carry the ledger's colours (rgb of ledger.css).
BADGE_COLOURS = {"holds": "rgb(26, 127, 55)", "erratum": "rgb(191, 135, 0)",
                 "fails": "rgb(207, 34, 46)"}

_IMAGES = """() => Array.from(document.images).map(i => ({
    src: i.getAttribute('src'), complete: i.complete, width: i.naturalWidth,
    shown: i.getBoundingClientRect().width}))"""
_TABLES = """(selector) => Array.from(document.querySelectorAll(selector)).map(t => ({
    rows: t.querySelectorAll('tbody tr').length,
    width: t.getBoundingClientRect().width, height: t.getBoundingClientRect().height}))"""
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
            viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(PAGE_TIMEOUT_MS)
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


def _open(page: Any, url: str, shot: Path) -> None:
    response = page.goto(url, wait_until="load")
    assert response is not None and response.ok, f"{url}: HTTP {response and response.status}"
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(shot), full_page=True)
    print(f"screenshot: {shot}")


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
    tables = page.evaluate(_TABLES, "table.ledger-table")
    assert tables, "no ledger table"
    summary = tables[0]
    assert summary["rows"] >= sum(counts.values()), (summary, counts)
    assert summary["width"] > 400 and summary["height"] > 30 * summary["rows"], summary
    badges = page.evaluate(_BADGES)
    for verdict, colour in BADGE_COLOURS.items():
        shown = {b["colour"] for b in badges if b["text"] == verdict}
        assert shown <= {colour}, f"{verdict} badges coloured {shown}, expected {colour}"
    seen = {b["text"] for b in badges}
    assert set(counts) <= seen | {"error"}, (set(counts), seen)
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
