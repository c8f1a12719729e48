"""The architecture holds: each paper subpackage's index resolves, every claim prefix has its
subpackage, the core knows no paper, the claims have the library's shape and no claim imports
another."""

from __future__ import annotations

import ast
import importlib
import pathlib
import re

import pytest

from paper_checks.registry import all_claims, load_all
from seprank.core.index import PaperIndex

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAPER_PACKAGES = ["seprank.d2w", "seprank.incontext", "seprank.automata", "identifiability.masked",
                  "identifiability.contrastive", "identifiability.nce",
                  "identifiability.distillation", "identifiability.icl"]
#: Claims about the toolkit itself (numerical-rank pitfalls) live on the paper-free floor.
CORE_PREFIXES = {"FND": "seprank.core"}


@pytest.mark.parametrize("name", PAPER_PACKAGES)
def test_every_statement_in_the_index_is_exported_by_its_face(name: str) -> None:
    package = importlib.import_module(name)
    index = package.INDEX
    assert isinstance(index, PaperIndex)
    for _, obj in index.statements:     # the face exports what its index cites
        target = obj.fget if isinstance(obj, property) else obj
        owner = target.__qualname__.split(".")[0]
        assert getattr(package, owner, None) is not None, f"{name} does not export {owner}"
    assert index.render() in (package.__doc__ or "")
    assert not index.notes or (ROOT / index.notes).is_file()


@pytest.mark.parametrize("name", PAPER_PACKAGES)
def test_every_paper_symbol_is_tex_that_an_independent_parser_accepts(name: str) -> None:
    """The notation's paper column is TeX (typeset on the site): matplotlib's mathtext, a TeX
    parser independent of :mod:`seprank.core.tex`, parses every entry; the site's rendering has
    one math node per entry, holding the TeX as written."""
    from docutils import nodes
    from docutils.core import publish_doctree
    from matplotlib.mathtext import MathTextParser

    index = importlib.import_module(name).INDEX
    parser = MathTextParser("path")
    for symbol, code in index.notation:
        try:
            parser.parse(f"${symbol}$")
        except ValueError as error:
            pytest.fail(f"{name}: {symbol!r} ({code}) is not TeX: {error}")
    doctree = publish_doctree(index.render(math=True).replace(":obj:`", ":literal:`"),
                              settings_overrides={"report_level": 5, "halt_level": 5})
    assert [m.astext() for m in doctree.findall(nodes.math)] == [s for s, _ in index.notation]


def test_every_claim_prefix_has_a_reachable_subpackage() -> None:
    load_all()
    by_prefix = {importlib.import_module(n).INDEX.claims: n for n in PAPER_PACKAGES}
    by_prefix.update(CORE_PREFIXES)
    prefixes = {c.id.split("-")[0] for c in all_claims()}
    assert prefixes <= set(by_prefix), prefixes - set(by_prefix)
    for prefix in prefixes:
        importlib.import_module(by_prefix[prefix])


def _imports(path: pathlib.Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


#: Paper-free modules outside ``seprank.core`` that the core may import: the dependency-group
#: table (standard library only; outside the core because importing ``seprank.core`` loads numpy,
#: and ``python -m seprank.extras core`` must run before numpy is installed).
CORE_MAY_IMPORT = ("seprank.extras",)


def test_the_core_knows_no_paper() -> None:
    for path in (ROOT / "seprank" / "core").glob("*.py"):
        above = {m for m in _imports(path)
                 if m.startswith(("seprank.", "identifiability", "paper_checks"))
                 and not m.startswith("seprank.core") and m not in CORE_MAY_IMPORT}
        assert not above, f"{path.name} imports {above}"


def test_no_docstring_points_at_a_seed_file_or_outside_the_repository() -> None:
    for package in ("seprank", "identifiability"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            assert "_780437e4ec8fa9c6" not in text and ".txt`" not in text, path
            for cited in re.findall(r"docs/notes/[\w.]+\.md", text):
                assert (ROOT / cited).is_file(), f"{path} cites {cited}"


#: What the light floors must not load: the automata (sympy's combinatorics), numba, dask.
HEAVY = ("seprank.automata", "sympy.combinatorics", "numba", "dask", "distributed")


@pytest.mark.parametrize("statement", ["import seprank.core", "import identifiability",
                                       "import seprank.certificates", "import seprank"])
def test_light_imports_load_no_heavy_module(statement: str) -> None:
    """``seprank``'s face loads its names on demand, so the paper-free core, the certificates
    and ``identifiability`` do not pay for the automata, numba or dask (checked in a fresh
    interpreter, through ``sys.modules``)."""
    import subprocess
    import sys

    code = (f"{statement}\nimport sys\n"
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout.strip() == "", f"{statement!r} loaded {done.stdout.strip()}"


def test_identifiability_builds_only_on_the_paper_free_floors() -> None:
    """``identifiability`` imports from ``seprank.core`` and ``seprank.certificates`` only (and
    the paper-free dependency-group table, :data:`CORE_MAY_IMPORT`)."""
    allowed = ("seprank.core", "seprank.certificates", *CORE_MAY_IMPORT)
    for path in (ROOT / "identifiability").rglob("*.py"):
        used = {m for m in _imports(path) if m == "seprank" or m.startswith("seprank.")}
        bad = {m for m in used if not m.startswith(allowed)}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


CLAIMS = ROOT / "paper_checks" / "claims"


def _claim_imports(source: str, package: str) -> set[str]:
    """The modules of ``paper_checks.claims`` that ``source`` (a module of ``package``) imports:
    relative imports resolved, ``from paper_checks.claims.d2w import common`` counted as the
    module it names."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        found.update(n for n in names if n.startswith("paper_checks.claims.")
                     and CLAIMS.joinpath(*n.split(".")[2:]).with_suffix(".py").is_file())
    return found


def _package_of(path: pathlib.Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])


def test_the_claims_are_one_folder_per_library_subpackage() -> None:
    folders = {p.name for p in CLAIMS.iterdir() if p.is_dir() and p.name != "__pycache__"}
    keys = {name.rsplit(".", 1)[-1] for name in PAPER_PACKAGES} | {"foundation"}
    assert folders == keys
    assert not [p.name for p in CLAIMS.glob("*.py") if p.name != "__init__.py"]
    for folder in folders:
        for path in (CLAIMS / folder).glob("*.py"):
            assert not path.name.startswith(f"{folder}_"), f"{path}: drop the prefix"


def test_no_claim_module_imports_another_claim_module() -> None:
    """Shared measurements live in a folder's ``common`` module; a claim module imports no other
    claim module, and a common module imports no claim module."""
    bad = []
    for path in sorted(CLAIMS.rglob("*.py")):
        for target in _claim_imports(path.read_text(), _package_of(path)):
            if target.rsplit(".", 1)[-1] != "common":
                bad.append(f"{path.relative_to(ROOT)} imports {target}")
    assert not bad, "\n".join(bad)


def test_the_claim_import_check_sees_absolute_and_relative_imports() -> None:
    source = ("from paper_checks.claims.nce.landscape import R_GRID\n"
              "from . import ngd\nfrom .common import phi\n"
              "from paper_checks.claims.d2w import witness\n"
              "import paper_checks.claims.automata.dyck\n"
              "from paper_checks.registry import claim\n")
    assert _claim_imports(source, "paper_checks.claims.nce") == {
        "paper_checks.claims.nce.landscape", "paper_checks.claims.nce.ngd",
        "paper_checks.claims.nce.common", "paper_checks.claims.d2w.witness",
        "paper_checks.claims.automata.dyck"}
