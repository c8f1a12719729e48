"""A certificate counts only for the claim it proves (issue 33, item 3).

``paper-checks --verify DIR`` compares what each file proves -- derived by the independent
checker from the file, never from the index or the label, which whoever wrote ``DIR`` controls --
with what the *installed* claim requires (``claim(..., proves=[Proves(...)])``).  Each attack
here files a genuine certificate of another *true* statement under a claim id, rewriting the
label, the index's digest and the index's ``proves`` as an attacker would: every one must be a
MISMATCH with exit status 1.  The CLI also prints nothing from the directory unescaped, reads
each file once and no hard link.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from paper_checks.certificates import verify_directory
from paper_checks.cli import main
from paper_checks.registry import select
from paper_checks.runner import run_claims
from seprank.certificates.verify import escape_for_terminal, verify

#: Small claims whose certificates verify in well under a second each.
SMALL = ("ICB-Prop1", "MP-4", "FND-Hilbert-8", "FND-Hilbert-12", "D2W-Thm5", "D2W-Thm6")


@pytest.fixture(scope="module")
def genuine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory written by ``paper-checks --certificates`` for the small certifying claims."""
    from paper_checks.certificates import write_certificates

    outcomes = run_claims([c for c in select() if c.id in SMALL], progress=False)
    directory = tmp_path_factory.mktemp("genuine")
    records = write_certificates(outcomes, directory)
    assert all(r.verified for recs in records.values() for r in recs)
    return directory


def _copy(src: Path, dst: Path) -> dict[str, Any]:
    shutil.copytree(src, dst)
    return json.loads((dst / "index.json").read_text())


def _file_under(root: Path, index: dict[str, Any], source: tuple[str, str],
                target: tuple[str, str]) -> None:
    """File the certificate ``source`` (claim id, name) as ``target``, as an attacker who
    controls the directory would: the label inside the file, the index's digest and its
    ``proves`` all rewritten to agree."""
    entry = index["claims"][source[0]][source[1]]
    cert = json.loads((root / entry["file"]).read_text())
    cert["claim"]["label"] = {"claim_id": target[0], "name": target[1]}
    rel = f"forged/{hashlib.sha256(repr(target).encode()).hexdigest()[:12]}.json"
    (root / "forged").mkdir(exist_ok=True)
    data = json.dumps(cert).encode()
    (root / rel).write_bytes(data)
    proven = verify(data).proves
    assert proven is not None, "the relabelled certificate must still verify as a certificate"
    index["claims"].setdefault(target[0], {})[target[1]] = {
        "file": rel, "sha256": "sha256:" + hashlib.sha256(data).hexdigest(),
        "proves": dict(proven)}
    (root / "index.json").write_text(json.dumps(index))


def test_the_genuine_directory_verifies(genuine: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    assert main(["--verify", str(genuine)]) == 0
    out = capsys.readouterr().out
    assert "MISMATCH" not in out and "0 mismatched, 0 missing" in out


@pytest.mark.parametrize(("source", "target", "why"), [
    # a smaller Hilbert matrix's true rank, filed as H_12's
    (("FND-Hilbert-8", "H_8 exact rank"), ("FND-Hilbert-12", "H_12 exact rank"),
     "the claim needs matrix_rank >= 12"),
    # a depth-1 residual network's true rank, filed under the depth-2 configuration
    (("D2W-Thm5", "sep L=1 d_x=2 H=1 N=2 residual"),
     ("D2W-Thm5", "sep L=2 d_x=2 H=1 N=2 residual"), "function.depth = 1, the claim needs 2"),
    # a lower classical rank (3, at L = 1) filed where seq-sep <= sep needs >= 15 (L = 2)
    (("ICB-Prop1", "classical sep d_x=2 L=1 N=2"), ("ICB-Prop1", "classical sep d_x=2 L=2 N=2"),
     "the claim needs grid_rank_blocks >= 15"),
    # another claim's certificate (a Kruskal rank) filed under a separation-rank name
    (("MP-4", "k-rank A d=4 k=4 x2*x3|x1"), ("D2W-Thm6", "sep L=2 d_x=2 H=1 N=2 residual"),
     "it proves kruskal_rank = 4"),
    # a 5 x 3 Kruskal matrix filed as a 7 x 5 one
    (("MP-4", "k-rank A d=5 k=3 x2*x3|x1"), ("MP-4", "k-rank A d=7 k=5 x2*x3|x1"),
     "the claim needs kruskal_rank = 5"),
])
def test_a_relabelled_true_certificate_is_a_mismatch(
        genuine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        source: tuple[str, str], target: tuple[str, str], why: str) -> None:
    root = tmp_path / "forged"
    index = _copy(genuine, root)
    _file_under(root, index, source, target)
    assert main(["--verify", str(root)]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out and why in out, out[-3000:]


def test_a_claim_this_installation_lacks_or_that_requires_nothing_is_a_mismatch(
        genuine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "unknown"
    index = _copy(genuine, root)
    _file_under(root, index, ("FND-Hilbert-8", "H_8 exact rank"), ("NOT-A-CLAIM", "H_8"))
    _file_under(root, index, ("FND-Hilbert-8", "H_8 exact rank"), ("D2W-Thm4-proof", "H_8"))
    assert main(["--verify", str(root)]) == 1
    out = capsys.readouterr().out
    assert "no claim NOT-A-CLAIM is installed" in out
    assert "D2W-Thm4-proof declares no requirement" in out


def test_a_requirement_no_certificate_meets_is_missing(
        genuine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "dropped"
    index = _copy(genuine, root)
    index["claims"]["FND-Hilbert-12"].pop("H_12 exact rank")
    index["claims"]["FND-Hilbert-12"].pop("H_12 modular rank")
    index["claims"]["FND-Hilbert-12"]["H_12 exact rank"] = index["claims"]["FND-Hilbert-8"][
        "H_8 exact rank"]
    (root / "index.json").write_text(json.dumps(index))
    assert main(["--verify", str(root)]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out and "MISSING  no certificate proves matrix_rank >= 12" in out


def test_names_from_the_directory_cannot_forge_or_erase_lines(
        genuine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "names"
    index = _copy(genuine, root)
    forged = "x\n    ok  H_12 exact rank: rank(M) >= 12 verified\x1b[2K\r\ud800"
    _file_under(root, index, ("FND-Hilbert-8", "H_8 exact rank"), ("FND-Hilbert-12", forged))
    assert main(["--verify", str(root)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out
    assert not any(line.startswith("    ok  H_12 exact rank: rank(M) >= 12 verified")
                   for line in out.splitlines())
    assert escape_for_terminal(forged).startswith("x\\n    ok")


def test_each_file_is_read_once_and_no_hard_link_is_followed(
        genuine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "links"
    index = _copy(genuine, root)
    # 40 index entries naming one file: read (and hashed) once
    entry = index["claims"]["FND-Hilbert-8"]["H_8 exact rank"]
    index["claims"]["FND-Hilbert-8"] = {f"copy {i}": entry for i in range(40)}
    (root / "index.json").write_text(json.dumps(index))
    import paper_checks.certificates as pc

    reads: list[str] = []
    real = pc.read_file

    def counting(path: Any, budget: Any) -> str:
        reads.append(str(path))
        return real(path, budget)

    monkeypatch.setattr(pc, "read_file", counting)
    verify_directory(root)
    assert reads.count(str((root / entry["file"]).resolve())) == 1
    # a hard link to a file outside the directory is not read
    outside = tmp_path / "outside.json"
    shutil.copy(root / entry["file"], outside)
    (root / entry["file"]).unlink()
    os.link(outside, root / entry["file"])
    records = verify_directory(root)["FND-Hilbert-8"]
    assert all(r.status == "refused" and "hard links" in (r.reason or "") for r in records)


def test_odd_index_shapes_and_huge_numbers_give_clear_lines(
        genuine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "odd"
    index = _copy(genuine, root)
    entry = index["claims"]["FND-Hilbert-8"]["H_8 exact rank"]
    entry["proves"] = {"kind": -424242, "subject": {"matrix": {"shape": 7}}, "value": [1]}
    entry["sha256"] = -424242
    huge = "9" * 5000     # a JSON integer past Python's 4300-digit str conversion limit
    (root / "index.json").write_text(json.dumps(index).replace("-424242", huge))
    assert main(["--verify", str(root)]) == 1
    out = capsys.readouterr().out
    assert "Exceeds the limit" not in out and "MISMATCH" in out
