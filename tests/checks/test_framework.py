"""The claims framework as a public toolkit (issue 32): papers registered through one door,
refusals that name both origins, plugins that fail alone, --ref, the CLI for any paper, the
pytest plugin and the scaffold -- in process (the fresh-venv run is test_framework_venv.py)."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from paper_checks import papers as papers_mod
from paper_checks import registry
from paper_checks.cli import main
from paper_checks.ledger import ClaimResult, judge
from paper_checks.papers import Paper, load_papers, register_paper
from paper_checks.registry import claim, ref_matches, scratch_registry, select
from paper_checks.scaffold import scaffold

pytest_plugins = ["pytester"]

GOOD: dict[str, Any] = {"key": "sylv1884", "title": "On the law of nullity",
                        "authors": ("J. J. Sylvester",), "year": 1884,
                        "identifier": "Johns Hopkins University Circulars 3"}


@pytest.fixture
def clean(tmp_path: Path) -> Iterator[Path]:
    """A scratch registry (claims and papers restored at exit), the entry point loader's state
    restored, and every module imported from ``tmp_path`` forgotten."""
    failures, loaded = dict(papers_mod._FAILURES), set(papers_mod._LOADED)
    path = list(sys.path)
    with scratch_registry():
        yield tmp_path
    papers_mod._FAILURES.clear()
    papers_mod._FAILURES.update(failures)
    papers_mod._LOADED.clear()
    papers_mod._LOADED.update(loaded)
    sys.path[:] = path
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", None) or "").startswith(str(tmp_path)):
            del sys.modules[name]


def _write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _plugin(key: str, prefix: str, *, raises: bool = False) -> str:
    """The source of a claims module registering paper ``key`` with one holding claim."""
    return f'''
        from paper_checks import ClaimResult, Perturbed, claim, judge, register_paper
        register_paper(key={key!r}, title="T", authors=["A"], year=2020, identifier="x")

        @claim(id="{prefix}-1", paper={key!r}, reference="Theorem 7", statement="2 + 2 = 4",
               basis="exact", perturbation=Perturbed("2 + 2 = 5", total=5))
        def {prefix.lower()}_1(total: int = 4) -> ClaimResult:
            return ClaimResult(2 + 2, total, judge(2 + 2 == total))
        {"raise RuntimeError('boom in ' + __name__)" if raises else ""}
        '''


# -- papers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("field, value, message", [
    ("title", "", "title is missing"), ("authors", (), "authors is missing"),
    ("authors", ("",), "authors is missing"), ("year", "1884", "year must be"),
    ("identifier", " ", "identifier is missing"), ("key", "two words", "one word"),
    ("source", "/nonexistent/paper.txt", "not a readable file")])
def test_a_paper_with_a_missing_or_malformed_field_is_refused(field: str, value: object,
                                                              message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Paper(**{**GOOD, field: value})


def test_a_paper_cannot_be_created_without_its_fields() -> None:
    with pytest.raises(TypeError, match="authors"):
        Paper(key="k", title="t")  # type: ignore[call-arg]


def test_a_source_text_gives_quotes_and_line_numbers(clean: Path) -> None:
    src = _write(clean, "paper.txt", "Title\nTheorem 1. rank(AB) <= rank(A)\n  rank(AB)   <=\n")
    p = register_paper(Paper(**{**GOOD, "source": str(src)}))
    assert p.line(2) == "Theorem 1. rank(AB) <= rank(A)"
    assert p.find("rank(AB) <=") == [2, 3]          # whitespace-normalized
    with pytest.raises(ValueError, match=r"1\.\.3"):
        p.line(4)


def test_a_duplicate_key_is_refused_naming_both_origins(clean: Path) -> None:
    register_paper(**GOOD)
    register_paper(**GOOD)               # the same record from the same module: a re-import
    _write(clean, "other_pkg.py", """
        from paper_checks import register_paper
        register_paper(key="sylv1884", title="X", authors=["B"], year=1999, identifier="y")
        """)
    sys.path.insert(0, str(clean))
    with pytest.raises(ValueError, match=r"already registered by module tests\.checks"
                                         r"\.test_framework; refused from module other_pkg"):
        __import__("other_pkg")


def test_a_claim_of_an_unknown_paper_lists_the_known_keys(clean: Path) -> None:
    with pytest.raises(ValueError, match=r"unknown paper 'mine'.*known: \[.*'003'"):
        claim(id="X-1", paper="mine", reference="r", statement="s")


def test_a_duplicate_claim_id_is_refused_naming_both_origins(clean: Path) -> None:
    _write(clean, "first_claims.py", _plugin("first", "DUP"))
    _write(clean, "second_claims.py", _plugin("second", "DUP"))
    sys.path.insert(0, str(clean))
    __import__("first_claims")
    with pytest.raises(ValueError, match="'DUP-1' registered twice: already by module "
                                         "first_claims; refused from module second_claims"):
        __import__("second_claims")


def test_a_check_that_needs_arguments_is_refused_at_registration(clean: Path) -> None:
    register_paper(**GOOD)
    with pytest.raises(TypeError, match=r"parameters without a default \(n\)"):
        @claim(id="S-1", paper="sylv1884", reference="r", statement="s", basis="exact")
        def s_1(n: int) -> ClaimResult:
            return ClaimResult(n, n, judge(True))


def test_a_check_returning_something_else_is_reported_as_an_error(clean: Path) -> None:
    from paper_checks.runner import run_claim

    register_paper(**GOOD)

    @claim(id="S-2", paper="sylv1884", reference="r", statement="s", basis="exact",
           category="consistency")
    def s_2() -> ClaimResult:
        return 42  # type: ignore[return-value]

    outcome = run_claim(registry.get_claim("S-2"))
    assert outcome.verdict == "error" and "returned int, not ClaimResult" in (outcome.error or "")


# -- entry points -------------------------------------------------------------------------------

def _entry_points(monkeypatch: pytest.MonkeyPatch, eps: list[EntryPoint]) -> None:
    real = papers_mod._entry_points()
    monkeypatch.setattr(papers_mod, "_entry_points",
                        lambda: sorted([*real, *eps], key=lambda ep: (ep.value, ep.name)))


def test_a_plugin_that_raises_is_reported_and_skipped_the_others_load(
        clean: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(clean, "good_claims.py", _plugin("goodpaper", "GOOD"))
    _write(clean, "bad_claims.py", _plugin("badpaper", "BAD", raises=True))
    sys.path.insert(0, str(clean))
    _entry_points(monkeypatch, [
        EntryPoint("badpaper", "bad_claims", papers_mod.ENTRY_POINT_GROUP),
        EntryPoint("goodpaper", "good_claims", papers_mod.ENTRY_POINT_GROUP)])
    failures = load_papers(["badpaper", "goodpaper"])
    assert [f.name for f in failures] == ["badpaper"]
    assert "RuntimeError: boom in bad_claims" in failures[0].summary()
    # what the failing module registered before raising is taken back
    assert "badpaper" not in papers_mod.REGISTERED and "BAD-1" not in registry._REGISTRY
    assert [c.id for c in select(paper="goodpaper")] == ["GOOD-1"]


def test_the_cli_reports_a_failed_plugin_and_exits_non_zero(
        clean: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _write(clean, "good_claims.py", _plugin("goodpaper", "GOOD"))
    _write(clean, "bad_claims.py", _plugin("badpaper", "BAD", raises=True))
    sys.path.insert(0, str(clean))
    _entry_points(monkeypatch, [
        EntryPoint("badpaper", "bad_claims", papers_mod.ENTRY_POINT_GROUP),
        EntryPoint("goodpaper", "good_claims", papers_mod.ENTRY_POINT_GROUP)])
    status = main(["--paper", "goodpaper", "--paper", "badpaper", "--no-plots",
                   "--no-progress", "--report", str(clean / "r.md")])
    err = capsys.readouterr().err
    assert "paper plugin 'badpaper' (bad_claims" in err and "was skipped" in err
    assert status == 2     # the paper asked for is not there (its plugin failed)
    status = main(["--paper", "goodpaper", "--no-plots", "--no-progress",
                   "--report", str(clean / "r.md")])
    assert status == 1 and "GOOD-1" in (clean / "r.md").read_text()
    assert "PLUGIN: paper plugin 'badpaper'" in capsys.readouterr().err


def test_two_packages_claiming_one_key_collide_loudly(
        clean: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(clean, "pkg_a.py", _plugin("shared", "AAA"))
    _write(clean, "pkg_b.py", _plugin("shared", "BBB"))
    sys.path.insert(0, str(clean))
    _entry_points(monkeypatch, [EntryPoint("shared", "pkg_a", papers_mod.ENTRY_POINT_GROUP),
                                EntryPoint("shared", "pkg_b", papers_mod.ENTRY_POINT_GROUP)])
    (failure,) = load_papers(["shared"])
    assert failure.value == "pkg_b"
    assert "already registered by module pkg_a (entry point 'shared'" in failure.error
    assert "refused from module pkg_b (entry point 'shared'" in failure.error
    assert [c.id for c in select(paper="shared")] == ["AAA-1"]


def test_the_built_in_papers_come_through_the_entry_point_group() -> None:
    values = {ep.value for ep in papers_mod._entry_points()}
    folders = {f"paper_checks.claims.{p.name}" for p in
               (Path(registry.__file__).parent / "claims").iterdir()
               if (p / "__init__.py").is_file()}
    assert folders <= values
    registry.load_all()
    modules = {c.module.rsplit(".", 1)[0] for c in registry.all_claims()}
    assert modules <= folders      # every registered claim lives below an entry point
    for key in ("foundation", "000", "001", "002", "003", "004"):
        # registered by the claims package every folder (entry point) imports first
        assert papers_mod.paper_origin(key).startswith("module paper_checks.claims"), key


# -- --ref ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("reference, ref, expected", [
    ("Theorem 7", "theorem 7", True), ("§3.4 Theorem 7 (formal)", "Theorem  7", True),
    ("Theorem 71", "Theorem 7", False), ("Theorem 7.2", "Theorem 7", False),
    ("Theorem 7, eq. 19", "Theorem 7", True), ("Lemma 2.3", "lemma 2.3", True),
    ("Corollary 4.3 (OOD)", "Cor*4.3*", True), ("Theorem 17", "Theorem 7", False)])
def test_ref_matches_what_the_paper_calls_the_statement(reference: str, ref: str,
                                                         expected: bool) -> None:
    assert ref_matches(reference, ref) is expected


def test_select_by_ref_finds_exactly_the_claims_naming_it() -> None:
    chosen = select(ref="Theorem 6")
    assert chosen and all(ref_matches(c.reference, "Theorem 6") for c in chosen)
    missed = [c.id for c in registry.all_claims() if c.profile == "quick"
              and ref_matches(c.reference, "Theorem 6") and c not in chosen]
    assert not missed


# -- the CLI -------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, says", [
    (["--paper", "nosuchpaper"], "matches no registered paper"),
    (["--id", "NO-SUCH-*"], "no claim matches the selection (--id 'NO-SUCH-*')"),
    (["--ref", "Theorem 999"], "no claim matches the selection (--ref 'Theorem 999')"),
    (["--module", "no_such_module_xyz"], "--module no_such_module_xyz: importing")])
def test_an_unknown_key_id_or_module_is_one_line_and_exit_2(
        args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*args, "--list"]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


# -- the scaffold --------------------------------------------------------------------------------

def test_the_scaffold_runs_from_a_path_with_the_expected_verdicts_and_certificates(
        clean: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = scaffold("demo-claims", directory=clean)
    text = (root / "pyproject.toml").read_text()
    assert '[project.entry-points."paper_checks.papers"]' in text
    assert 'demo_claims = "demo_claims.claims"' in text
    readme = (root / "README.md").read_text()
    assert readme.count("\npip install") + readme.count("\npaper-checks") \
        + readme.count("\npytest") == 3
    assert not (root / "conftest.py").exists() and not (root / "tests/conftest.py").exists()
    out = clean / "run"
    status = main(["--module", str(root / "demo_claims" / "claims.py"), "--paper",
                   "demo_claims", "--no-plots", "--no-progress", "--report", str(out / "r.md"),
                   "--json", str(clean / "r.json"), "--certificates", str(out / "certs")])
    assert status == 0, capsys.readouterr()
    records = {r["id"]: r for r in json.loads((clean / "r.json").read_text())}
    assert {i: r["verdict"] for i, r in records.items()} == {
        "DEMO-CLAIMS-Ex1-rank": "holds", "DEMO-CLAIMS-Lemma2-sum": "erratum",
        "DEMO-CLAIMS-Thm3-proof": "unproven"}
    assert records["DEMO-CLAIMS-Ex1-rank"]["perturbed"]["verdict"] == "fails"
    assert all(r["basis"] for r in records.values())
    assert main(["--verify", str(out / "certs")]) == 0
    for rec in registry.all_claims():
        if rec.id.startswith("DEMO-CLAIMS-"):
            assert rec.basis is not None


def test_the_scaffold_refuses_a_bad_name_or_an_occupied_folder(clean: Path) -> None:
    with pytest.raises(ValueError, match="NAME must"):
        scaffold("1bad", directory=clean)
    _write(clean, "taken/file.txt", "x")
    with pytest.raises(ValueError, match="not empty"):
        scaffold("taken", directory=clean)


# -- the pytest plugin ---------------------------------------------------------------------------

# (hypothesis' plugin spends seconds in its terminal summary; these runs need none of it)
PLUGIN = ["-p", "paper_checks.pytest_plugin", "-p", "no:cacheprovider",
          "-p", "no:hypothesispytest"]
MODULE = '''
    from paper_checks import ClaimResult, Perturbed, claim, judge, register_paper
    from paper_checks.compare import exact_result

    register_paper(key="plugdemo", title="T", authors=["A"], year=2020, identifier="x")

    @claim(id="PD-Thm7", paper="plugdemo", reference="Theorem 7", statement="2 + 2 = 4",
           basis="exact", perturbation=Perturbed("2 + 2 = 5", total=5))
    def pd_thm7(total: int = 4) -> ClaimResult:
        return exact_result(2 + 2, total, what="integers")

    @claim(id="PD-Lemma1", paper="plugdemo", reference="Lemma 1", statement="3 > 2",
           basis="exact", category="consistency")
    def pd_lemma1() -> ClaimResult:
        return exact_result(3 > 2, True, what="bool")

    @claim(id="PD-Big", paper="plugdemo", reference="Theorem 8", statement="1 = 1",
           basis="exact", category="consistency", profile="full")
    def pd_big() -> ClaimResult:
        return exact_result(1, 1, what="integers")

    def test_ordinary():
        assert True
    '''


def test_the_plugin_collects_claims_beside_ordinary_tests(clean: Path,
                                                          pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_paper=MODULE)
    result = pytester.runpytest(*PLUGIN, "-v", "--paper-report", "ledger.json")
    result.assert_outcomes(passed=3, skipped=1)
    result.stdout.fnmatch_lines(["*::PD-Thm7 PASSED*", "*::PD-Big SKIPPED*profile full*",
                                 "*::test_ordinary PASSED*"])
    ledger = json.loads((pytester.path / "ledger.json").read_text())
    assert sorted(r["id"] for r in ledger) == ["PD-Lemma1", "PD-Thm7"]
    assert next(r for r in ledger if r["id"] == "PD-Thm7")["perturbed"]["verdict"] == "fails"


def test_the_plugin_selects_by_k_m_ref_and_profile(clean: Path,
                                                   pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_paper=MODULE)
    pytester.runpytest(*PLUGIN, "-k", "Thm7").assert_outcomes(passed=1)
    pytester.runpytest(*PLUGIN, "-m", "not paper_claim").assert_outcomes(passed=1)
    pytester.runpytest(*PLUGIN, "--ref", "lemma 1").assert_outcomes(passed=1)
    pytester.runpytest(*PLUGIN, "--profile", "full").assert_outcomes(passed=4)


def test_a_wrong_expectation_or_a_powerless_check_fails_showing_the_run(
        clean: Path, pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_wrong='''
        from paper_checks import ClaimResult, Independent, Perturbed, claim, register_paper
        from paper_checks.compare import exact_result

        register_paper(key="wrongdemo", title="T", authors=["A"], year=2020, identifier="x")

        @claim(id="WD-1", paper="wrongdemo", reference="Theorem 1", statement="2 + 2 = 5",
               basis="exact", perturbation=Perturbed("2 + 2 = 6", total=6))
        def wd_1(total: int = 5) -> ClaimResult:
            wrong = 2 + 2 != total
            return exact_result(2 + 2, total, what="integers",
                                kind="constant" if wrong else None,
                                independent=Independent("by hand", 4, agrees=True))

        @claim(id="WD-2", paper="wrongdemo", reference="Theorem 2", statement="x = x",
               basis="exact", perturbation=Perturbed("x = x + 0", shift=0))
        def wd_2(shift: int = 0) -> ClaimResult:
            return exact_result(1, 1 + shift, what="integers")
        ''')
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*claim WD-1 (wrongdemo, Theorem 1): verdict 'fails', registered expectation 'holds'",
        "*verdict   : fails", "*basis     : exact", "*margin    : *", "*measured  : 4",
        "*claim WD-2*perturbed statement was not rejected*",
        "*perturbed : x = x + 0 -> holds*"])


# -- the face ------------------------------------------------------------------------------------

def test_the_lazy_face_lists_every_public_name_of_its_modules() -> None:
    """paper_checks loads its names on first use from __init__.pyi: the stub must list each
    module's __all__ (else a public name is missing from ``from paper_checks import ...``)."""
    import importlib

    import paper_checks

    for module in ("defence", "evidence", "papers", "parameters", "perturbation", "registry",
                   "runner"):
        names = importlib.import_module(f"paper_checks.{module}").__all__
        missing = sorted(set(names) - set(vars(paper_checks)["__all__"]))
        assert not missing, f"paper_checks/__init__.pyi lacks {module}'s {missing}"
        for name in names:
            assert getattr(paper_checks, name) is getattr(
                importlib.import_module(f"paper_checks.{module}"), name)


def test_the_pytest_plugin_imports_nothing_heavy() -> None:
    """Every pytest run where this toolkit is installed loads the plugin: it must not import
    the toolkit (numpy, seprank, the claims) until a test module registers a claim."""
    import subprocess

    code = ("import sys, paper_checks.pytest_plugin; "
            "print(sorted(m for m in ('numpy', 'seprank', 'paper_checks.registry') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2]).stdout
    assert out.strip() == "[]"
