"""Write the generated sources: paper pages, API pages, ledger pages, the gallery.

Everything goes under ``docs/generated/`` (ignored by git); a file is rewritten only when its
text changes (so incremental builds stay incremental) and files no longer generated are removed.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

from paper_checks.sphinx import entries as ledger
from paper_checks.sphinx.entries import Entry
from seprank_docs.api_tasks import task_sections
from seprank_docs.discover import PublicModule, owner
from seprank_docs.execute import outputs_committed

_RST_SPECIAL = re.compile(r"([\\`*_|:<>\[\]])")


def rst_escape(text: str) -> str:
    """Backslash-escape reStructuredText inline markup characters."""
    return _RST_SPECIAL.sub(r"\\\1", text)


def heading(text: str, char: str) -> str:
    return f"{text}\n{char * max(len(text), 3)}\n"


class Writer:
    """Writes files under ``root`` and remembers them, to delete what was not written."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.written: set[Path] = set()

    def text(self, relative: str, text: str) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        self.written.add(path)

    def text_bytes(self, relative: str, data: bytes) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
        self.written.add(path)

    def copy(self, source: Path, relative: str) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_bytes() != source.read_bytes():
            shutil.copyfile(source, path)
        self.written.add(path)

    def prune(self, keep: Iterable[Path] = ()) -> None:
        kept = set(keep)
        for path in sorted(self.root.rglob("*"), reverse=True):
            if path.is_file() and path not in self.written and not any(
                    path.is_relative_to(k) for k in kept):
                path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()


# -- API reference --------------------------------------------------------------------------

def _automodule(name: str, members: list[str] | None) -> list[str]:
    """An ``automodule`` directive documenting exactly ``members`` (the module's own names)."""
    out = [f".. automodule:: {name}"]
    if members:
        out.append(f"   :members: {', '.join(members)}")
    return [*out, ""]


def _tour(name: str, tours: Path) -> list[str]:
    """A link to the hand-written tour ``docs/tours/<name>.md``, when there is one."""
    if not (tours / f"{name}.md").is_file():
        return []
    return [".. toctree::", "   :maxdepth: 1", "", f"   Tour of {name} </tours/{name}>", ""]


def _summary(module: PublicModule) -> str:
    """The first sentence of a module's docstring, escaped for reST."""
    doc = (module.module.__doc__ or "").strip().split("\n\n")[0]
    line = " ".join(doc.split())
    line = re.sub(r":[\w:]+:`~?([^`<]+?)(?: <[^`]*>)?`", r"\1", line).replace("``", "")
    cut = line.find(". ")
    return rst_escape(line[: cut + 1] if 0 < cut < 160 else line[:160])


def api_page(module: PublicModule, members: list[str], tours: Path,
             children: Sequence[PublicModule] = ()) -> str:
    """A module's page; a package's also lists its modules (the sidebar nests them)."""
    out = [heading(f"``{module.name}``", "="), *_tour(module.name, tours),
           *_automodule(module.name, members)]
    if children:
        out += [heading("Modules", "-"), ".. list-table::", "   :widths: 30 70", ""]
        for c in children:
            target = (f"../papers/{c.name}" if c.is_paper else c.name)
            out += [f"   * - :doc:`{c.name} <{target}>`",
                    f"     - {_summary(c) or ' '}"]
        own = [c for c in children if not c.is_paper]
        out += ["", ".. toctree::", "   :hidden:", "", *(f"   {c.name}" for c in own), ""]
    return "\n".join(out)


def _children(module: PublicModule, modules: list[PublicModule]) -> list[PublicModule]:
    prefix = module.name + "."
    return [m for m in modules if m.name.startswith(prefix)]


def write_api(w: Writer, modules: list[PublicModule], members: dict[str, list[str]],
              tours: Path) -> None:
    """One page per public module (a paper subpackage's own page is its paper page)."""
    papers = [m for m in modules if m.is_paper]
    rows, own = [], []
    for m in modules:
        paper = owner(m.name, papers)
        if paper is not None and paper.name == m.name:
            rows.append(f"* :doc:`{m.name} <../papers/{m.name}>` -- its paper page (index, "
                        "tour, verdicts, modules)")
            continue
        # a package outside the paper subpackages lists (and nests) its direct modules
        children = [c for c in modules if paper is None and m.is_package
                    and c.name != m.name and c.name.rsplit(".", 1)[0] == m.name
                    and (c.is_paper or owner(c.name, papers) is None)]
        w.text(f"api/{m.name}.rst", api_page(m, members[m.name], tours, children))
        if paper is None:
            if "." not in m.name:
                own.append(m.name)  # the sidebar: the top packages, their modules nested
            rows.append(f"* :doc:`{m.name}`")
        else:
            rows.append(f"* :doc:`{m.name}` (paper subpackage :doc:`{paper.name} "
                        f"<../papers/{paper.name}>`)")
    w.text("api/index.rst", "\n".join([
        heading("API reference", "="),
        "The entry points by task first, each linking to its reference; every public module "
        "below (:ref:`api-modules`).", "",
        *task_sections(rst_escape, heading),
        ".. _api-modules:", "", heading("Every public module", "-"),
        "Every public module, one page each, generated from its docstrings (numpydoc).  Each "
        "function and class is documented once, in the module that defines it; the names a "
        "package re-exports (``seprank.matrix_rank``) link there.  A paper subpackage's own "
        "page carries its index; its modules are listed there too.  The sidebar nests each "
        "module under its package.", "",
        *rows, "", ".. toctree::", "   :hidden:", "", *(f"   {n}" for n in own), ""]))


# -- paper pages ----------------------------------------------------------------------------

def paper_page(module: PublicModule, modules: list[PublicModule], members: list[str],
               tours: Path, ledger_entries: list[Entry]) -> str:
    index = module.index
    key, prefix = getattr(index, "key", ""), getattr(index, "claims", "")
    mine = [e for e in ledger_entries if e.id.startswith(prefix + "-")]
    counts = ledger.verdict_counts(e for e in mine if e.category != "consistency")
    children = _children(module, modules)
    out = [heading(f"``{module.name}`` — paper {rst_escape(key)}", "="),
           *_tour(module.name, tours), *_automodule(module.name, members),
           heading("Verdicts", "-"),
           f"The claims ``{prefix}-*`` checked against this paper ("
           + (", ".join(f"{n} {v}" for v, n in counts.items()) or "none yet")
           + "), what is wrong first; each links to its entry in the :ref:`truth ledger "
           "<ledger>`.", "", ".. paper-ledger::", f"   :ids: {prefix}-*", "   :tables-only:",
           ""]
    if children:
        out += [heading("Modules", "-"), ".. toctree::", "   :maxdepth: 1", "",
                *(f"   ../api/{c.name}" for c in children), ""]
    return "\n".join(out)


def write_papers(w: Writer, modules: list[PublicModule], members: dict[str, list[str]],
                 tours: Path, entries: list[Entry]) -> None:
    papers = [m for m in modules if m.is_paper]
    for m in papers:
        w.text(f"papers/{m.name}.rst", paper_page(m, modules, members[m.name], tours, entries))
    rows = []
    for m in papers:
        rows += [f"   * - :doc:`{m.name}`", f"     - {rst_escape(getattr(m.index, 'key', ''))}",
                 f"     - {rst_escape(getattr(m.index, 'citation', ''))}",
                 f"     - ``{getattr(m.index, 'claims', '')}-*``"]
    w.text("papers/index.rst", "\n".join([
        heading("Papers", "="),
        "One page per paper subpackage, generated from its index (the ``INDEX`` object of its "
        "``__init__``): the paper, its notation, the statement -> function table, a tour, the "
        "verdicts on its printed statements and its modules.", "",
        ".. list-table::", "   :header-rows: 1", "   :widths: 20 8 52 10", "",
        "   * - subpackage", "     - paper", "     - citation", "     - claims", *rows, "",
        ".. toctree::", "   :hidden:", "", *(f"   {m.name}" for m in papers), ""]))


# -- truth ledger ---------------------------------------------------------------------------

#: Papers whose ledger is split into one page per chapter: key -> (chapter, title) in order.
#: A claim's chapter is the ``§N`` its reference starts with; claims of an id prefix whose
#: references name no section (``MP-12``: "Theorem 8 proof") go with the chapter most of
#: their prefix's claims name.
CHAPTERS: dict[str, tuple[tuple[int, str], ...]] = {
    "004": ((2, "Illuminating task designs of self-supervised learning: contrastive "
                "learning of transition kernels, masked prediction"),
            (3, "Understanding model classes: Transformers and automata"),
            (4, "Understanding and improving the learning process: NCE, progressive "
                "distillation")),
}
_SECTION = re.compile(r"^\s*§\s*(\d+)")


def chapter_prefixes(entries: Iterable[Entry]) -> dict[str, int]:
    """Claim id prefix (``AUT`` of ``AUT-Lemma10-bump``) -> the chapter most of its claims'
    references name (``§3.4.4.1 Lemma 10`` -> 3)."""
    votes: dict[str, dict[int, int]] = {}
    for e in entries:
        prefix = e.id.split("-", 1)[0]
        votes.setdefault(prefix, {})
        found = _SECTION.match(e.reference)
        if found:
            chapter = int(found.group(1))
            votes[prefix][chapter] = votes[prefix].get(chapter, 0) + 1
    return {p: max(v, key=lambda c: (v[c], -c)) for p, v in votes.items() if v}


def ledger_page(key: str, title: str) -> str:
    """A paper's ledger page: its title (labelled ``ledger-paper-<key>``) and the
    ``paper-ledger`` directive of :mod:`paper_checks.sphinx` (groups, tables, cards)."""
    return "\n".join([f".. _ledger-paper-{key}:", "", heading(f"{rst_escape(title)} ({key})", "="),
                      f".. paper-ledger:: {key}", ""])


def chapter_pages(key: str, title: str, entries: list[Entry],
                  chapters: tuple[tuple[int, str], ...]) -> dict[str, str]:
    """A long paper's ledger as an index page and one page per chapter: file stem -> text."""
    prefixes = chapter_prefixes(e for e in entries if e.paper == key)
    pages, rows = {}, []
    for number, chapter_title in chapters:
        mine = sorted(p for p, c in prefixes.items() if c == number)
        if not mine:
            continue
        stem = f"{key}-ch{number}"
        chosen = [e for e in entries if e.paper == key and e.id.split("-", 1)[0] in mine]
        counts = ledger.group_counts(e for e in chosen if e.category != "consistency")
        rows += [f"   * - :doc:`Chapter {number} <{stem}>`",
                 f"     - {rst_escape(chapter_title)}",
                 f"     - {', '.join(f'``{p}-*``' for p in mine)}",
                 f"     - {', '.join(ledger.count_words(k, n) for k, n in counts.items())}"]
        pages[stem] = "\n".join([
            f".. _ledger-paper-{key}-ch{number}:", "",
            heading(f"Chapter {number}: {rst_escape(chapter_title)}", "="),
            f"Paper {key}, {rst_escape(title)} -- the claims of chapter {number} "
            f"(ids {', '.join(f'``{p}-*``' for p in mine)}).  The other chapters: "
            f":ref:`ledger-paper-{key}`.", "",
            f".. paper-ledger:: {key}", f"   :ids: {' '.join(p + '-*' for p in mine)}", ""])
    listed = {n for n, _ in chapters}
    every = {e.id.split("-", 1)[0] for e in entries if e.paper == key}
    left = sorted(p for p in every if prefixes.get(p) not in listed)
    if left:
        raise ValueError(f"paper {key}: the claims {[p + '-*' for p in left]} fall in no "
                         f"listed chapter {sorted(listed)}; add their chapter to CHAPTERS")
    pages[key] = "\n".join([
        f".. _ledger-paper-{key}:", "", heading(f"{rst_escape(title)} ({key})", "="),
        "The ledger of this paper, one page per chapter (a claim's chapter is the section its "
        "reference names).", "",
        ".. list-table::", "   :header-rows: 1", "   :widths: 12 43 15 30", "",
        "   * - chapter", "     - title", "     - claims", "     - verdicts", *rows, "",
        ".. toctree::", "   :hidden:", "", *(f"   {stem}" for stem in pages), ""])
    return pages


def write_ledger(w: Writer, entries: list[Entry], papers_info: dict[str, object],
                 profile: str) -> None:
    """The ledger: an index (overview table) and a page per paper -- or, for the papers of
    :data:`CHAPTERS`, a page per chapter under the paper's page."""
    grouped = ledger.by_paper(entries)
    order = [k for k in papers_info if k in grouped] + sorted(set(grouped) - set(papers_info))
    for key in order:
        title = str(getattr(papers_info.get(key), "title", key))
        if key in CHAPTERS:
            for stem, text in chapter_pages(key, title, entries, CHAPTERS[key]).items():
                w.text(f"ledger/{stem}.rst", text)
        else:
            w.text(f"ledger/{key}.rst", ledger_page(key, title))
    ran = [e for e in entries if e.ran]
    w.text("ledger/index.rst", "\n".join([
        ".. _ledger:", "", heading("The truth ledger", "="),
        "Every registered claim of every paper, with the verdict of its check on this build "
        f"({len(ran)} of {len(entries)} claims run, profile ``{profile}``): the printed "
        "statement, what was measured, how the statement is wrong (its kind), the independent "
        "recomputation behind any verdict other than ``holds``, the margin, and the figures.  "
        "Generated from ``paper-checks --json`` by the ``paper-ledger`` directive of "
        ":mod:`paper_checks.sphinx` (usable from any project's ``conf.py``).", "",
        "Verdicts: ``holds`` (measured, holds; its margin says by how much), ``erratum`` (the "
        "printed statement fails and a corrected one holds), ``fails``, ``unproven`` (a step "
        "of the proof is refuted, not the statement), ``note`` (a convention or notation: a "
        "different legitimate reading, not an error), ``skipped``, ``not run`` (not in this "
        "build's profile).  What is wrong is split by kind, the most serious first: false "
        "statements, wrong constants or rates, missing hypotheses, invalid proofs, typos.", "",
        ".. paper-ledger-overview::", "",
        ".. toctree::", "   :maxdepth: 1", "", *(f"   {k}" for k in order), ""]))


# -- gallery --------------------------------------------------------------------------------

def _first_image(nb: dict) -> bytes | None:
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = out.get("data", {}).get("image/png")
            if data:
                return base64.b64decode("".join(data) if isinstance(data, list) else data)
    return None


def _title_and_blurb(nb: dict, fallback: str) -> tuple[str, str]:
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = "".join(cell.get("source", []))
        lines = source.strip().splitlines()
        if lines and lines[0].startswith("# "):
            rest = "\n".join(lines[1:]).strip().split("\n\n")[0]
            return lines[0][2:].strip(), rest
        break
    return fallback, ""


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def without_progress_bars(nb: dict) -> dict:
    """The notebook without its progress-bar widgets (tqdm's, shown live in Jupyter) and the
    widget state saved with them: a bar is not a result, and a widget needs a script the
    offline site does not load."""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = [o for o in cell.get("outputs", [])
                               if WIDGET_VIEW not in o.get("data", {})]
    nb.get("metadata", {}).pop("widgets", None)
    return nb


def write_gallery(w: Writer, notebooks: list[Path], executed: Path) -> list[str]:
    """Copy the executed notebooks (the source where none) and write the gallery index.

    A notebook committed with its outputs (:func:`seprank_docs.execute.outputs_committed`) is
    shown as committed, whatever ``executed`` holds: this build does not execute it.  Returns
    the names of notebooks shown without outputs (not executed in this build).
    """
    unexecuted, cards = [], []
    for source in notebooks:
        committed = outputs_committed(json.loads(source.read_text(encoding="utf-8")))
        copy = executed / source.name
        nb_path = source if committed or not copy.is_file() else copy
        nb = without_progress_bars(json.loads(nb_path.read_text(encoding="utf-8")))
        if nb_path is source and not committed:
            unexecuted.append(source.stem)
            nb["cells"].insert(1, {"cell_type": "markdown", "metadata": {}, "source": [
                "```{note}\nThis notebook was not executed in this build: it is marked slow "
                "(`pytest --profile full` and a local docs build run it), or its execution "
                "failed (`tests/checks/test_notebooks.py` says why).\n```"]})
        w.text(f"gallery/{source.name}", json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
        title, blurb = _title_and_blurb(nb, source.stem)
        card = [f"## {{doc}}`{title} <{source.stem}>`", ""]
        image = _first_image(nb)
        if image is not None:
            w.text_bytes(f"gallery/thumbnails/{source.stem}.png", image)
            card += [f"```{{image}} thumbnails/{source.stem}.png", f":alt: {title}",
                     ":width: 360px", "```", ""]
        card += [blurb, "", f"Source: `notebooks/{source.name}`"
                 + (" (committed with its outputs)." if committed else "."), ""]
        cards += card
    w.text("gallery/index.md", "\n".join([
        "# Gallery", "",
        "The notebooks of `notebooks/`, rendered with their outputs.  The test suite executes "
        "each notebook once (`tests/checks/test_notebooks.py`); the docs build renders those "
        "executed copies, except for the notebooks committed with their outputs, which it "
        "shows as committed (the test suite re-executes them too, and fails when their "
        "committed outputs are stale).", "", *cards,
        "```{toctree}", ":hidden:", "", *(p.stem for p in notebooks), "```", ""]))
    return unexecuted
