"""Read a built HTML site: the links, images and ids of each page, and Sphinx's object inventory.

Written against HTML and the ``objects.inv`` format, not against the docs extension, so that
the docs tests check the site as a reader (or another Sphinx project) sees it.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

_INVENTORY_LINE = re.compile(r"(.+?)\s+(\S+)\s+(-?\d+)\s+?(\S*)\s+(.*)")


@dataclass
class Page:
    """What one HTML file links to and which fragment ids it defines."""

    path: Path
    links: list[str] = field(default_factory=list)     # a[href], link[href]
    sources: list[str] = field(default_factory=list)   # img[src], script[src]
    ids: set[str] = field(default_factory=set)
    images: list[str] = field(default_factory=list)    # img[src] only
    tables: int = 0


class _Collector(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v for k, v in attrs if v is not None}
        if "id" in a:
            self.page.ids.add(a["id"])
        if tag == "a" and "name" in a:
            self.page.ids.add(a["name"])
        if tag in ("a", "link") and "href" in a:
            self.page.links.append(a["href"])
        if tag in ("img", "script") and "src" in a:
            self.page.sources.append(a["src"])
            if tag == "img":
                self.page.images.append(a["src"])
        if tag == "table":
            self.page.tables += 1


def read_page(path: Path) -> Page:
    page = Page(path)
    _Collector(page).feed(path.read_text(encoding="utf-8"))
    return page


def read_site(root: Path) -> dict[Path, Page]:
    return {p: read_page(p) for p in sorted(root.rglob("*.html"))}


def is_external(url: str) -> bool:
    parts = urlsplit(url)
    return bool(parts.scheme or parts.netloc) or url.startswith(("mailto:", "javascript:"))


def broken_links(site: dict[Path, Page], root: Path) -> list[str]:
    """Every internal link or source whose file, or whose ``#fragment`` id, does not exist."""
    problems = []
    for path, page in site.items():
        if path.relative_to(root).parts[0] == "_static":
            continue  # theme assets, e.g. Jinja macro files shipped as static files
        for url in page.links + page.sources:
            if not url or is_external(url):
                continue
            parts = urlsplit(url)
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not target.is_relative_to(root.resolve()) or not target.exists():
                problems.append(f"{path.relative_to(root)} -> {url} (no such file)")
                continue
            if target.is_dir():
                target = target / "index.html"
            frag = unquote(parts.fragment)
            if frag and target.suffix == ".html":
                ids = site[target].ids if target in site else read_page(target).ids
                if frag not in ids:
                    problems.append(f"{path.relative_to(root)} -> {url} (no id {frag!r})")
    return problems


def inventory(path: Path) -> dict[str, tuple[str, str]]:
    """``objects.inv`` (Sphinx inventory v2) -> {name: (domain:role, uri)}."""
    data = path.read_bytes()
    lines = data.split(b"\n", 4)
    if not lines[0].startswith(b"# Sphinx inventory version 2"):
        raise ValueError(f"{path} is not a Sphinx v2 inventory")
    body = zlib.decompress(lines[4]).decode("utf-8")
    found = {}
    for line in body.splitlines():
        match = _INVENTORY_LINE.match(line.rstrip())
        if match is None:
            raise ValueError(f"{path}: unreadable inventory line {line!r}")
        name, role, uri = match.group(1, 2, 4)
        if uri.endswith("$"):
            uri = uri[:-1] + name
        found[name] = (role, uri)
    return found
