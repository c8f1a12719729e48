"""``paper-checks --certificates DIR`` / ``--verify DIR``: the quick claims that certify ranks
write their certificates, the independent checker re-checks them, and the reports say which
verdicts rest on verified certificates."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from paper_checks.certificates import attach_records, verify_directory, write_certificates
from paper_checks.cli import main
from paper_checks.registry import ClaimResult, claim, select
from paper_checks.report import json_report, markdown_report
from paper_checks.runner import ClaimOutcome, run_claims


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[ClaimOutcome]]:
    claims = [c for c in select(profile="quick") if c.certifies]
    outcomes = run_claims(claims, progress=False)
    directory = tmp_path_factory.mktemp("certificates")
    write_certificates(outcomes, directory, check=False)
    return directory, outcomes


def test_the_certifying_quick_claims_ship_certificates(
        written: tuple[Path, list[ClaimOutcome]]) -> None:
    _, outcomes = written
    ids = {o.claim.id for o in outcomes}
    assert {"D2W-Thm3", "D2W-Lemma6-witness", "ICB-PB-attained", "ICB-Prop1", "MP-4",
            "FND-Hilbert-12"} <= ids
    for o in outcomes:
        assert o.error is None and o.as_expected, o.claim.id
        assert o.certificate_names, o.claim.id


def test_the_independent_checker_verifies_every_certificate(
        written: tuple[Path, list[ClaimOutcome]]) -> None:
    directory, outcomes = written
    records = verify_directory(directory)     # what paper-checks --verify DIR runs
    n = sum(len(o.certificate_names) for o in outcomes)
    assert sum(len(r) for r in records.values()) == n
    rejected = [(r.claim_id, r.name, r.reason) for recs in records.values() for r in recs
                if not r.verified]
    assert not rejected
    shown = attach_records(outcomes, records)
    assert all(o.rests_on_verified_certificates for o in shown)
    report = markdown_report(shown, base_dir=str(directory))
    assert "## Verdicts resting on certificates" in report and "| all |" in report
    data = {r["id"]: r for r in json.loads(json_report(shown))}
    assert all(c["verified"] is True for c in data["MP-4"]["certificates"])
    assert all(c["recomputed"] for c in data["ICB-PB-attained"]["certificates"])


def test_paper_checks_verify_passes_and_rejects_a_corrupted_certificate(
        written: tuple[Path, list[ClaimOutcome]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    directory, _ = written
    copy = tmp_path / "copy"          # the small claims only: the full set is checked above
    index = json.loads((directory / "index.json").read_text())
    small = {k: index["claims"][k] for k in ("ICB-Prop1", "MP-4", "FND-Hilbert-12")}
    for files in small.values():
        for entry in files.values():
            (copy / entry["file"]).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(directory / entry["file"], copy / entry["file"])
    (copy / "index.json").write_text(json.dumps({**index, "claims": small}))
    assert main(["--verify", str(copy)]) == 0
    n = sum(len(f) for f in small.values())
    assert f"{n} certificates: {n} verified, 0 rejected" in capsys.readouterr().out
    target = copy / small["ICB-Prop1"][next(iter(small["ICB-Prop1"]))]["file"]
    cert = json.loads(target.read_text())
    minor = cert["blocks"][0] if cert["kind"] == "grid_rank_blocks" else cert  # degree split
    minor["entries"][0][0] = (minor["entries"][0][0] + 1) % cert["prime"]
    target.write_text(json.dumps(cert))
    assert main(["--verify", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "REJECTED" in out and "entry (0, 0) of the minor" in out and "1 rejected" in out


def test_verify_without_certificates_is_an_argument_error(tmp_path: Path) -> None:
    assert main(["--verify", str(tmp_path)]) == 2


def test_a_claim_must_declare_that_it_ships_certificates() -> None:
    from seprank import matrix_rank
    from seprank.certificates import certify

    def check() -> ClaimResult:
        M = [[1, 2], [3, 4]]
        return ClaimResult(2, 2, "holds", certificates={"M": certify(matrix_rank(M), matrix=M)})

    from paper_checks.registry import _REGISTRY

    claim(id="TEST-undeclared-certificates", paper="foundation", reference="test",
          statement="a test", category="consistency")(check)
    try:
        with pytest.raises(ValueError, match="certifies=True"):
            _REGISTRY["TEST-undeclared-certificates"].run()
    finally:
        _REGISTRY.pop("TEST-undeclared-certificates")


def test_a_claim_result_refuses_what_is_not_a_certificate() -> None:
    bad: dict[str, Any] = {"M": {"kind": "matrix_rank"}}
    with pytest.raises(ValueError, match="not a certificate"):
        ClaimResult(1, 1, "holds", certificates=bad)
