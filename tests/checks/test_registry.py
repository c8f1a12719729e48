"""The claim registry, runner, reports and the paper-checks command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from paper_checks import cli, papers, registry
from paper_checks.ledger import perturbed_run
from paper_checks.registry import (
    ClaimResult,
    Independent,
    Margin,
    all_claims,
    claim,
    claim_quick_full,
    function_name,
    judge,
    register_check,
    select,
)
from paper_checks.report import json_report, kind_counts, markdown_report, summary_table
from paper_checks.runner import run_claims

AGREEING = Independent("by hand", 1, True)


@pytest.fixture
def empty_registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, registry.Claim]:
    registry.load_all()     # every installed paper registered first: none loads into `fresh`
    fresh: dict[str, registry.Claim] = {}
    monkeypatch.setattr(registry, "_REGISTRY", fresh)
    monkeypatch.setattr(papers, "CLAIMS", fresh)      # the one table both modules read
    monkeypatch.setattr(registry, "load_all", lambda: None)
    monkeypatch.setattr(cli, "load_all", lambda: None)           # the CLI loads the installed
    monkeypatch.setattr(cli, "load_papers", lambda *a, **k: [])  # papers itself otherwise
    return fresh


def test_claim_result_requires_evidence_for_erratum_and_skip() -> None:
    with pytest.raises(ValueError, match="printed"):
        ClaimResult(1, 2, "erratum", {"corrected": "ok"})
    with pytest.raises(ValueError, match="reason"):
        ClaimResult(1, 2, "skipped")
    with pytest.raises(ValueError, match="verdict"):
        ClaimResult(1, 2, "passes")  # type: ignore[arg-type]
    ClaimResult(1, 2, "erratum", {"printed": "x fails", "corrected": "y holds"}, kind="typo",
                independent=AGREEING)


@pytest.mark.parametrize("verdict", ["erratum", "fails", "unproven"])
def test_every_non_holds_verdict_says_how_and_carries_an_agreeing_recomputation(
        verdict: str) -> None:
    details = {"printed": "p", "corrected": "c"}
    kind = "proof" if verdict == "unproven" else "constant"
    with pytest.raises(ValueError, match="kind"):
        ClaimResult(1, 2, verdict, details, independent=AGREEING)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="independent"):
        ClaimResult(1, 2, verdict, details, kind=kind)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="disagrees"):
        ClaimResult(1, 2, verdict, details, kind=kind,  # type: ignore[arg-type]
                    independent=Independent("by hand", 3, False))
    ClaimResult(1, 2, verdict, details, kind=kind, independent=AGREEING)  # type: ignore[arg-type]


def test_kind_rules() -> None:
    with pytest.raises(ValueError, match="proof"):      # unproven is exactly kind 'proof'
        ClaimResult(1, 2, "unproven", kind="typo", independent=AGREEING)
    with pytest.raises(ValueError, match="proof"):
        ClaimResult(1, 2, "fails", kind="proof", independent=AGREEING)
    with pytest.raises(ValueError, match="no kind"):
        ClaimResult(1, 1, "holds", kind="typo")
    with pytest.raises(ValueError, match="kind must be"):
        ClaimResult(1, 2, "fails", kind="sloppy", independent=AGREEING)  # type: ignore[arg-type]


def test_a_perturbed_statement_needs_no_kind() -> None:
    with perturbed_run():
        assert ClaimResult(1, 2, "fails").verdict == "fails"
    with pytest.raises(ValueError, match="kind"):
        ClaimResult(1, 2, "fails")


def test_margins() -> None:
    assert Margin.ratio(1, 1000, what="x").weak and not Margin.ratio(1, 99, what="x").weak
    assert Margin.ratio(2, 1, what="x").log10_slack < 0              # violated upper bound
    assert Margin.tolerance(1.0, 1.0, 0.1, what="x").log10_slack == pytest.approx(
        math.log10(1.1))
    assert Margin.tolerance(1.3, 1.0, 0.1, what="x").log10_slack < 0  # outside the window
    assert Margin.exact("x").log10_slack == 0 and not Margin.exact("x").weak
    with pytest.raises(ValueError, match="positive"):
        Margin.ratio(0, 1, what="x")
    with pytest.raises(ValueError, match="at least one"):
        Margin.tightest([])


def test_judge_truth_table() -> None:
    assert judge(True, False) == "holds"
    assert judge(False, True) == "erratum"
    assert judge(False, False) == "fails"


def test_register_select_and_duplicate(empty_registry: dict[str, registry.Claim]) -> None:
    @claim(id="T-a", paper="003", reference="Thm 1", statement="a", profile="quick")
    def _a() -> ClaimResult:
        return ClaimResult(1, 1, "holds")

    @claim(id="T-b", paper="004", reference="Lemma 2", statement="b", profile="full")
    def _b() -> ClaimResult:
        return ClaimResult(1, 1, "holds")

    assert [c.id for c in select()] == ["T-a"]
    assert [c.id for c in select(profile="full")] == ["T-a", "T-b"]
    assert [c.id for c in select(profile="full", paper="thesis")] == ["T-b"]
    assert [c.id for c in select(profile="full", id="T-[b]")] == ["T-b"]
    assert select(paper="003")[0].id == "T-a"

    def other() -> ClaimResult:
        return ClaimResult(1, 1, "holds")

    other.__module__ = "somewhere.else"
    with pytest.raises(ValueError, match="registered twice"):
        claim(id="T-a", paper="003", reference="r", statement="s")(other)
    with pytest.raises(ValueError, match="unknown paper"):
        claim(id="T-c", paper="999", reference="r", statement="s")
    with pytest.raises(ValueError, match="one non-empty line"):
        claim(id="T-d", paper="003", reference="r", statement="two\nlines")


def test_runner_catches_errors_and_checks_return_type(
    empty_registry: dict[str, registry.Claim],
) -> None:
    @claim(id="T-raise", paper="003", reference="r", statement="s")
    def _r() -> ClaimResult:
        raise ZeroDivisionError("boom")

    @claim(id="T-type", paper="003", reference="r", statement="s")
    def _t() -> ClaimResult:
        return 42  # type: ignore[return-value]

    outcomes = run_claims(select(), progress=False)
    assert [o.verdict for o in outcomes] == ["error", "error"]
    assert "ZeroDivisionError" in (outcomes[0].error or "")
    assert "not ClaimResult" in (outcomes[1].error or "")
    assert not any(o.as_expected for o in outcomes)


def test_cli_reports_and_exit_codes(
    empty_registry: dict[str, registry.Claim], tmp_path: Path
) -> None:
    import matplotlib.pyplot as plt

    @claim(id="T-ok", paper="003", reference="Thm 1", statement="holds", expected_verdict="holds")
    def _ok() -> ClaimResult:
        fig, ax = plt.subplots()
        ax.plot([0, 1], [0, 1])
        return ClaimResult(3, 3, "holds", figures={"line": fig})

    @claim(id="T-err", paper="004", reference="Eq 2.2", statement="printed",
           expected_verdict="erratum")
    def _err() -> ClaimResult:
        return ClaimResult(0.5, 0.25, "erratum",
                           {"printed": "0.25 (fails)", "corrected": "0.5 (holds)"},
                           kind="constant", independent=AGREEING)

    report, js, plots = tmp_path / "r.md", tmp_path / "r.json", tmp_path / "plots"
    code = cli.main(["--report", str(report), "--json", str(js), "--plots", str(plots),
                     "--no-progress"])
    assert code == 0
    text = report.read_text()
    assert "`T-err` — erratum" in text and "0.25 (fails)" in text
    assert "plots/T-ok__line.png" in text
    assert (plots / "T-ok__line.png").exists()
    records = json.loads(js.read_text())
    assert [r["verdict"] for r in records] == ["holds", "erratum"]

    @claim(id="T-bad", paper="003", reference="r", statement="s", expected_verdict="holds")
    def _bad() -> ClaimResult:
        return ClaimResult(1, 2, "fails", kind="statement", independent=AGREEING)

    assert cli.main(["--report", str(report), "--no-progress", "--no-plots"]) == 1
    assert cli.main(["--report", str(report), "--no-progress", "--no-plots", "--id", "T-ok"]) == 0
    assert cli.main(["--report", str(report), "--id", "nothing*"]) == 2
    monkeypatch_cwd = tmp_path / "cwd"
    monkeypatch_cwd.mkdir()
    import os

    old = os.getcwd()
    os.chdir(monkeypatch_cwd)
    try:  # by default figures go to ./paper_checks_plots and are linked from the report
        assert cli.main(["--no-progress", "--id", "T-ok"]) == 0
        assert (monkeypatch_cwd / "paper_checks_plots" / "T-ok__line.png").exists()
        assert "paper_checks_plots/T-ok__line.png" in (
            monkeypatch_cwd / "paper_checks_report.md").read_text()
    finally:
        os.chdir(old)


def test_quick_full_pairs_and_settings_register_functions_named_after_their_ids(
    empty_registry: dict[str, registry.Claim],
) -> None:
    @claim_quick_full(id="T-Sweep", quick={"n": 2}, full={"n": 5}, paper="003", reference="r",
                      statement="s", perturbation="n + 1")
    def t_sweep(n: int, perturbed: bool = False) -> ClaimResult:
        return ClaimResult(n, n, "fails" if perturbed else "holds",
                           margin=Margin.exact("integers"))

    def setting(k: int) -> ClaimResult:
        return ClaimResult(k, k, "holds")

    register_check(setting, id="T-Setting-3", args={"k": 3}, paper="004", reference="r",
                   statement="s", category="consistency")
    quick, full = registry.get_claim("T-Sweep"), registry.get_claim("T-Sweep-full")
    assert (quick.profile, full.profile) == ("quick", "full")
    assert quick.func.__name__ == "t_sweep" and full.func.__name__ == "t_sweep_full"
    assert quick.run().measured == 2 and full.run().measured == 5
    with perturbed_run():
        assert full.run(perturbed=True).verdict == "fails"
    assert registry.get_claim("T-Setting-3").run().measured == 3
    with pytest.raises(ValueError, match="perturbed"):
        register_check(setting, id="T-bad-setting", args={"k": 1}, paper="004",
                       reference="r", statement="s", perturbation="k + 1")
    with pytest.raises(ValueError, match="sets the profiles"):
        claim_quick_full(id="T-x", quick={}, full={}, paper="003", reference="r",
                         statement="s", profile="full")


def test_every_registered_check_is_named_after_its_claim_id() -> None:
    wrong = {c.id: c.func.__name__ for c in all_claims()
             if c.func.__name__ != function_name(c.id)}
    assert not wrong, f"rename these checks after their ids (function_name(id)): {wrong}"


def test_reports_group_verdicts_by_kind_and_show_margins_and_consistency_apart(
    empty_registry: dict[str, registry.Claim],
) -> None:
    @claim(id="T-typo", paper="003", reference="r", statement="s", expected_verdict="erratum")
    def t_typo() -> ClaimResult:
        return ClaimResult(1, 2, "erratum", {"printed": "p", "corrected": "c"}, kind="typo",
                           independent=AGREEING)

    @claim(id="T-false", paper="003", reference="r", statement="s", expected_verdict="fails")
    def t_false() -> ClaimResult:
        return ClaimResult(1, 2, "fails", kind="statement", independent=AGREEING)

    @claim(id="T-weak", paper="004", reference="r", statement="s", perturbation="p")
    def t_weak(perturbed: bool = False) -> ClaimResult:
        return ClaimResult(1, 1000, "holds",
                           margin=Margin.ratio(1, 1000, what="rank / bound", note="worst case"))

    @claim(id="T-cons", paper="004", reference="r", statement="s", category="consistency")
    def t_cons() -> ClaimResult:
        return ClaimResult(1, 1, "holds")

    outcomes = run_claims(select(), progress=False)
    counts = kind_counts(outcomes)
    assert counts["erratum"]["typo"] == 1 and counts["fails"]["statement"] == 1
    assert counts["holds"]["weak"] == 1 and counts["consistency"]["holds"] == 1
    text = markdown_report(outcomes)
    assert "## False statements" in text and "## Typos" in text
    assert text.index("## False statements") < text.index("## Typos")
    assert "## Weak holds" in text and "worst case" in text
    assert "## Consistency checks" in text and "`T-cons`" in text.split("## Consistency")[1]
    assert "independent recomputation" in text and "10^3 weak" in text
    records = {r["id"]: r for r in json.loads(json_report(outcomes))}
    assert set(records["T-typo"]) >= {"kind", "margin", "independent", "category"}
    assert records["T-typo"]["kind"] == "typo" and records["T-cons"]["category"] == "consistency"
    assert records["T-weak"]["margin"]["weak"] and records["T-weak"]["margin"]["note"]
    assert records["T-false"]["independent"]["agrees"] is True
    table = summary_table(outcomes)
    assert "1 erratum (1 typo)" in table and "1 fails (1 statement)" in table
    assert "consistency checks: 1" in table


def test_terminal_table_fits_100_columns_without_markdown_escapes(
    empty_registry: dict[str, registry.Claim],
) -> None:
    @claim(id="T-a-very-long-claim-identifier-that-goes-on-and-on", paper="003", reference="r",
           statement="s")
    def t_a_very_long_claim_identifier_that_goes_on_and_on() -> ClaimResult:
        return ClaimResult({"|T| = 2^d": list(range(60)), "q": "a | b"}, 1, "holds")

    @claim(id="T-ok", paper="003", reference="r", statement="s", expected_verdict="erratum")
    def t_ok() -> ClaimResult:
        return ClaimResult(1, 1, "holds")

    table = summary_table(run_claims(select(), progress=False))
    assert max(len(line) for line in table.splitlines()) <= 100
    assert "\\|" not in table and "{'|T|" in table and "T-a-very-long-claim-ide…" in table
    assert "T-ok gave holds, expected erratum" in table


def test_reports_carry_no_absolute_path_of_the_machine(
    empty_registry: dict[str, registry.Claim],
) -> None:
    @claim(id="T-raises", paper="003", reference="r", statement="s", category="consistency")
    def t_raises() -> ClaimResult:
        raise RuntimeError(f"failed reading {Path(__file__).resolve()}")

    outcomes = run_claims(select(), progress=False)
    assert outcomes[0].error and str(Path(__file__).resolve().parent) in outcomes[0].error
    here = str(Path(__file__).resolve().parents[2])
    for text in (json_report(outcomes), markdown_report(outcomes)):
        assert here not in text and "test_registry.py" in text
