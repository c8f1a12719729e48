"""The documentation site: it builds with warnings as errors, its internal links resolve, every
public function and class is in the API reference with its example, every paper subpackage has
its page, every registered claim has a ledger entry (in the ledger's order), and every notebook
of the profile is in the gallery with its figures.

The site is built once per session (the ``docs_site`` fixture, ``tests/checks/conftest.py``)
from the notebooks the session executed and a ``paper-checks --json`` report; the browser check
is ``test_docs_browser.py``.
"""

from __future__ import annotations

import html
import importlib
import inspect
import json
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest
from docutils.nodes import make_id

from tests.checks.docs_site import DocsSite
from tests.checks.html_pages import broken_links, inventory, read_page, read_site
from tests.checks.notebook_runs import NOTEBOOKS, is_slow, outputs_committed
from tests.checks.test_layout import PAPER_PACKAGES

TOP_PACKAGES = ("seprank", "identifiability", "paper_checks")
ROOT = Path(__file__).resolve().parents[2]
#: Public functions whose docstrings have no ``Examples`` section yet.  New public functions
#: need one (numpydoc, runnable); remove a name here when its example is written.
#: The Sphinx extension's helpers build docutils nodes for a running Sphinx: its example is
#: the directive in its module docstring, run by test_docs_extension.py's two-file build
#: (documentation debt: an Examples section per helper).
SPHINX_EXTENSION = "paper_checks.sphinx."
WITHOUT_EXAMPLES = frozenset({
    "identifiability.contrastive.bounds.r_function",
    "identifiability.contrastive.implied_kernel.kernel_from_logit",
    "identifiability.contrastive.processes.check_eta",
    "identifiability.masked.kruskal_screen.level_by_minors",
    "identifiability.masked.kruskal_screen.level_by_subsets",
    "identifiability.masked.tensors.tensor_factors",
    "paper_checks.cli.main",
    "paper_checks.registry.all_claims",
    "paper_checks.registry.claim",
    "paper_checks.registry.get_claim",
    "paper_checks.registry.load_all",
    "paper_checks.registry.select",
    "paper_checks.report.format_value",
    "paper_checks.report.json_report",
    "paper_checks.report.markdown_report",
    "paper_checks.report.summary_table",
    "paper_checks.report.to_jsonable",
    "paper_checks.runner.run_claim",
    "paper_checks.runner.run_claims",
    "seprank.core.inputs.as_exact_matrix",
    "seprank.core.inputs.as_float_matrix",
    "seprank.core.inputs.to_rational",
    "seprank.core.log3.log3_e",
    "seprank.core.log3.to_mpf",
    "seprank.core.random.is_prime",
    "seprank.d2w.lemma6_construction.validate_witness_shape",
    "seprank.d2w.scaling.plot_figure3",
    "seprank.d2w.scaling.plot_figure4",
    "seprank.separation.growth.grow_until_stable",
    "seprank.separation.growth.plan_templates",
    "seprank.separation.result.accepts_domain",
    "seprank.separation.symbolic.symbolic_separation_rank",
})
#: Verdict order on a ledger page: what is wrong first (the order a reader is promised).
VERDICT_ORDER = ("error", "fails", "erratum", "unproven", "holds", "note", "skipped", "not run")
#: The groups of a ledger page: the errors by kind, as the ``paper-checks`` report splits them
#: (a false statement before a wrong constant, a missing hypothesis, a broken proof, a typo),
#: then what holds, then the notes (conventions, notation), apart from the errors.
KIND_ORDER = ("statement", "constant", "hypothesis", "proof", "typo", "convention", "notation")
ERROR_VERDICTS = ("fails", "erratum", "unproven")


def _public_modules() -> list[ModuleType]:
    found = []
    for top in TOP_PACKAGES:
        package = importlib.import_module(top)
        found.append(package)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{top}."):
            if any(p.startswith("_") for p in info.name.split(".")) or \
                    info.name.startswith("paper_checks.claims"):
                continue
            found.append(importlib.import_module(info.name))
    return found


def _public_callables() -> dict[str, object]:
    """Canonical dotted name -> every public function and class (from every ``__all__``)."""
    found: dict[str, object] = {}
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


@pytest.fixture(scope="module")
def site(docs_site: DocsSite) -> DocsSite:
    if not docs_site.ok:
        pytest.fail("the docs build failed; see test_site_builds_without_warnings")
    return docs_site


def test_site_builds_without_warnings(docs_site: DocsSite) -> None:
    problems = [line for line in docs_site.log.splitlines()
                if "WARNING" in line or "ERROR" in line or "CRITICAL" in line]
    assert docs_site.ok, ("sphinx -W failed:\n" + "\n".join(problems[:40])
                          + "\n" + docs_site.log[-3000:])
    assert (docs_site.html / "index.html").is_file()


def test_every_internal_link_and_image_resolves(site: DocsSite) -> None:
    pages = read_site(site.html)
    assert len(pages) > 20
    problems = broken_links(pages, site.html)
    assert not problems, f"{len(problems)} broken internal links:\n" + "\n".join(problems[:30])


def test_every_public_function_and_class_is_in_the_api_reference(site: DocsSite) -> None:
    inv = inventory(site.html / "objects.inv")
    def role(obj: object) -> set[str]:
        if inspect.isclass(obj):
            return {"py:exception"} if issubclass(obj, BaseException) else {"py:class"}
        return {"py:function"}

    missing = [name for name, obj in _public_callables().items()
               if inv.get(name, ("",))[0] not in role(obj)]
    assert not missing, f"not in the API reference: {missing}"


def test_every_example_in_a_docstring_is_rendered(site: DocsSite) -> None:
    inv = inventory(site.html / "objects.inv")
    pages: dict[str, str] = {}
    not_shown = []
    for name, obj in _public_callables().items():
        if "Examples\n" not in inspect.cleandoc(obj.__doc__ or ""):
            continue
        uri = inv[name][1]
        file, _, anchor = uri.partition("#")
        text = pages.setdefault(file, (site.html / file).read_text(encoding="utf-8"))
        start = text.index(f'id="{anchor}"')
        nxt = text.find('<dt class="sig sig-object py"', start + 1)
        entry = text[start: nxt if nxt > 0 else len(text)]
        if ">Examples<" not in entry or "&gt;&gt;&gt;" not in entry:
            not_shown.append(name)
    assert not not_shown, f"examples not rendered: {not_shown}"


def test_public_functions_have_examples() -> None:
    without = {name for name, obj in _public_callables().items()
               if inspect.isfunction(obj)
               and "Examples\n" not in inspect.cleandoc(obj.__doc__ or "")
               and not name.startswith(SPHINX_EXTENSION)}
    assert not without - WITHOUT_EXAMPLES, (
        f"public functions without an Examples section: {sorted(without - WITHOUT_EXAMPLES)}")


def test_every_paper_subpackage_has_its_page_with_a_linked_index(site: DocsSite) -> None:
    pages = {p.stem for p in (site.html / "generated" / "papers").glob("*.html")} - {"index"}
    assert pages == set(PAPER_PACKAGES), (
        "paper pages (modules defining INDEX) and PAPER_PACKAGES disagree: "
        f"{sorted(pages ^ set(PAPER_PACKAGES))}")
    for name in PAPER_PACKAGES:
        package = importlib.import_module(name)
        text = (site.html / "generated" / "papers" / f"{name}.html").read_text(encoding="utf-8")
        assert "Statement -&gt; function" in text and "Notation" in text, name
        for _statement, function in package.INDEX.statements:
            obj = function.fget if isinstance(function, property) else function
            canonical = f"{obj.__module__}.{obj.__qualname__}"
            assert f'#{canonical}"' in text, f"{name}: {_statement} does not link to {canonical}"
        # the notation is typeset: each paper symbol a math node holding its TeX (MathJax
        # reads \( ... \)), not the docstring's plain-text block meant for help()
        maths = [html.unescape(m) for m in re.findall(
            r'<span class="math[^"]*">\\\((.*?)\\\)</span>', text, re.S)]
        for symbol, code in package.INDEX.notation:
            assert symbol in maths, f"{name}: the notation {symbol!r} ({code}) is not typeset"
        assert "The paper&#8217;s symbols" not in text and "The paper's symbols" not in text, (
            f"{name}: the page shows the docstring's plain-text notation block")


def _ledger_anchor(claim_id: str) -> str:
    return make_id(f"ledger-{claim_id}")


def test_every_registered_claim_has_a_ledger_entry_in_order(site: DocsSite) -> None:
    from paper_checks.registry import all_claims

    ledger_dir = site.html / "generated" / "ledger"
    ids: dict[str, Path] = {}
    for path in ledger_dir.glob("*.html"):
        for anchor in read_page(path).ids:
            ids[anchor] = path
    missing = [c.id for c in all_claims() if _ledger_anchor(c.id) not in ids]
    assert not missing, f"claims without a ledger entry: {missing}"
    records = {r["id"]: r for r in json.loads(site.ledger_json.read_text(encoding="utf-8"))}
    for path in ledger_dir.glob("*.html"):
        if path.stem == "index":
            continue
        text = path.read_text(encoding="utf-8")
        # the paper verdicts' summary tables, in page order (consistency checks come apart)
        end = text.find('<section id="consistency-checks')
        tables = re.findall(r'<table[^>]*ledger-(?:summary|compact).*?</table>',
                            text[: end if end > 0 else len(text)], flags=re.S)
        if not tables:  # a page of consistency checks only (the toolkit's foundation)
            tables = re.findall(r'<table[^>]*ledger-(?:summary|compact).*?</table>', text,
                                flags=re.S)
        if not tables and "ledger-entry" not in text:
            continue  # a long paper's page listing its chapter pages
        summary = "".join(tables)
        cells = re.findall(r'class="ledger-verdict[^"]*">([^<]+)</span>([^<]*)<', summary)
        ranks = []
        for verdict, after in cells:
            words = html.unescape(after).split()
            kind = words[0] if words and words[0] in KIND_ORDER else None
            verdict = html.unescape(verdict)
            # errors by kind first (checks that raised before them), then the verdict order
            group = (-1 if verdict == "error" else
                     KIND_ORDER.index(kind) if verdict in ERROR_VERDICTS and kind else
                     len(KIND_ORDER) + VERDICT_ORDER.index(verdict))
            ranks.append((group, VERDICT_ORDER.index(verdict)))
        # (a table of claims that hold shows no badge: its section says they hold)
        assert ranks or "ledger-compact" in summary, f"{path.name}: no ledger table"
        assert ranks == sorted(ranks), f"{path.name}: not what-is-wrong-first: {cells}"
        for claim_id, record in records.items():
            if ids.get(_ledger_anchor(claim_id)) == path:
                assert record["verdict"] in text and record["statement"][:40] in \
                    html.unescape(text), claim_id


def test_gallery_shows_every_notebook_of_the_profile_with_its_figures(
        site: DocsSite, pytestconfig: pytest.Config) -> None:
    full = pytestconfig.getoption("--profile") == "full"
    gallery = site.html / "generated" / "gallery"
    index = read_page(gallery / "index.html")
    for notebook in NOTEBOOKS:
        page = gallery / f"{notebook.stem}.html"
        assert page.is_file(), notebook.name
        if is_slow(notebook) and not full:
            continue
        images = [src for src in read_page(page).images if not src.startswith("data:")]
        assert images, f"{notebook.name}: no figure in the gallery page"
        for src in images:
            assert (page.parent / src).stat().st_size > 1000, f"{notebook.name}: {src}"
        assert any(notebook.stem in src for src in index.images), f"{notebook.name}: no thumbnail"


def test_the_gallery_shows_the_committed_notebooks_as_committed(site: DocsSite) -> None:
    """A notebook committed with its outputs is rendered from its committed outputs: the
    build was handed no run of it (and a from-scratch build runs none:
    ``test_docs_build_steps.py``), and its page shows what it printed."""
    committed = [p for p in NOTEBOOKS if outputs_committed(p)]
    assert committed
    for notebook in committed:
        assert not (site.notebooks / notebook.name).exists(), notebook.name
        nb = json.loads(notebook.read_text(encoding="utf-8"))
        rendered = json.loads((ROOT / "docs" / "generated" / "gallery" / notebook.name)
                              .read_text(encoding="utf-8"))
        assert [c.get("outputs") for c in rendered["cells"]] == \
            [c.get("outputs") for c in nb["cells"]], notebook.name
        page = html.unescape(re.sub(r"<[^>]+>", " ", (
            site.html / "generated" / "gallery" / f"{notebook.stem}.html").read_text(
                encoding="utf-8")))
        shown = " ".join(page.split())
        printed = [line for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]
                   if o["output_type"] == "stream" for line in "".join(o["text"]).splitlines()
                   if line.strip()]
        assert printed, notebook.name
        missing = [line for line in printed if " ".join(line.split()) not in shown]
        assert not missing, f"{notebook.name}: printed lines not on its page: {missing[:3]}"
        images = [src for src in read_page(site.html / "generated" / "gallery" /
                                           f"{notebook.stem}.html").images
                  if not src.startswith("data:")]
        assert len(images) == sum("image/png" in o.get("data", {}) for c in nb["cells"]
                                  for o in c.get("outputs", [])), notebook.name


def _readme_table(readme: str, header: str) -> list[list[str]]:
    """The rows of the README's Markdown table under ``header`` (its first line), as plain
    cell texts (emphasis and code marks dropped)."""
    lines = readme[readme.index(header):].splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([" ".join(c.replace("*", "").replace("`", "").split())
                     for c in line.strip().strip("|").split("|")])
    return rows


def _plain(text: str) -> str:
    """Text as a reader compares it: straight quotes and dashes, single spaces."""
    for fancy, plain in (("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"'),
                         ("\u2013", "--"), ("\u2014", "---")):
        text = text.replace(fancy, plain)
    text = " ".join(text.split())
    return re.sub(r"\(\s+", "(", re.sub(r"\s+([,.:;)])", r"\1", text))


def test_the_landing_page_states_the_readme_papers_and_timings(site: DocsSite) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    papers = _readme_table(readme, "| paper | key |")
    timings = _readme_table(readme, "| step | time |")
    assert len(papers) >= 4 and len(timings) >= 4, (papers, timings)
    page = (site.html / "index.html").read_text(encoding="utf-8")
    body = page[page.index("<article"):page.index("</article>")]
    landing = _plain(html.unescape(re.sub(r"<[^>]+>", " ", body)))
    for row in papers + timings:
        for cell in row:
            assert _plain(cell) in landing, f"the landing page lacks the README's {cell!r}"


def test_any_fork_can_host_the_site_with_the_same_build() -> None:
    """``.readthedocs.yaml`` builds ``docs/conf.py`` with warnings as errors, on the Python the
    README asks for, with an extra that brings Sphinx and the notebook runner."""
    yaml = pytest.importorskip("yaml")
    import tomllib

    config = yaml.safe_load((ROOT / ".readthedocs.yaml").read_text(encoding="utf-8"))
    assert config["version"] == 2
    assert config["sphinx"] == {"configuration": "docs/conf.py", "fail_on_warning": True}
    assert str(config["build"]["tools"]["python"]) == "3.11"
    (install,) = config["python"]["install"]
    assert install["method"] == "pip" and install["path"] == "."
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    wanted: set[str] = set()
    todo = list(install["extra_requirements"])
    while todo:  # an extra may name others ("seprank-identifiability[docs]")
        for requirement in extras[todo.pop()]:
            name = re.split(r"[<>=\[ ;]", requirement, maxsplit=1)[0].lower()
            wanted.add(name)
            todo += re.findall(r"\[(\w+)\]", requirement) if name.startswith("seprank") else []
    assert {"sphinx", "myst-nb", "nbclient", "ipykernel", "pydata-sphinx-theme"} <= wanted
