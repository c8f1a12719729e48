"""The claim registry, runner, reports and the paper-checks command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paper_checks import cli, registry
from paper_checks.registry import ClaimResult, claim, judge, select
from paper_checks.runner import run_claims


@pytest.fixture
def empty_registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, registry.Claim]:
    fresh: dict[str, registry.Claim] = {}
    monkeypatch.setattr(registry, "_REGISTRY", fresh)
    monkeypatch.setattr(registry, "load_all", lambda: None)
    return fresh


def test_claim_result_requires_evidence_for_erratum_and_skip() -> None:
    with pytest.raises(ValueError, match="printed"):
        ClaimResult(1, 2, "erratum", {"corrected": "ok"})
    with pytest.raises(ValueError, match="reason"):
        ClaimResult(1, 2, "skipped")
    with pytest.raises(ValueError, match="verdict"):
        ClaimResult(1, 2, "passes")  # type: ignore[arg-type]
    ClaimResult(1, 2, "erratum", {"printed": "x fails", "corrected": "y holds"})


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
    assert [c.id for c in select(profile="full", id_glob="T-[b]")] == ["T-b"]
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
                           {"printed": "0.25 (fails)", "corrected": "0.5 (holds)"})

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
        return ClaimResult(1, 2, "fails")

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
