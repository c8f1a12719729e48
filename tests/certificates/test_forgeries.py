"""The forgery corpus of issue 22: every attack a stranger could hand the checker, as a test.

Each attack that once made ``verify`` say ``ok=True`` about a false claim must come back not
ok (an opaque function or a matrix without its matrix: ``'unchecked'``); each that made it
hang must end inside its budget in seconds; each that raised must return a
:class:`Verification` that says why.  ``paper-checks --verify DIR`` must report what each file
proves from the file, compare it with the index, stay inside ``DIR`` and write nothing.  The
report must list under "Verdicts resting on certificates" only verdicts a certificate can
support.  Then a hypothesis test mutates genuine certificates of every kind at random and
asserts that ``verify`` never raises, never hangs, and never says ``ok`` about a claim it did
not recompute.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from identifiability.masked import kruskal_certificate, kruskal_rank
from paper_checks.certificates import verify_directory, write_certificates
from paper_checks.cli import main as paper_checks
from paper_checks.registry import ClaimResult, get_claim
from paper_checks.report import markdown_report
from paper_checks.runner import ClaimOutcome
from seprank import (
    InContextRepresentation,
    LinearAttention,
    incontext_seq_sep,
    lemma6_witness,
    matrix_rank,
    separation_rank,
)
from seprank.certificates import (
    STATUSES,
    Verification,
    VerifyBudget,
    bind_subject,
    load_certificate,
    matrix_certificate,
    polynomial_function,
    save_certificate,
    verify,
)
from seprank.certificates.verify import SCHEMA
from seprank.certificates.verify import kinds as verify_kinds
from seprank.certificates.verify.exact import parse_decimal
from seprank.sweeps.measure import TaskOutcome
from tests.deadlines import HANG_GUARD_SECONDS, child_cpu_seconds, cpu_deadline, cpu_seconds

VERIFY_DIR = Path(__file__).resolve().parents[2] / "seprank" / "certificates" / "verify"
#: Every hostile certificate must be answered within this many seconds of CPU time (a hang
#: guard that a load cannot trip: tests/deadlines.py).
SECONDS = 10.0


def alarm(seconds: float = SECONDS) -> AbstractContextManager[None]:
    """Fail (raise :class:`~tests.deadlines.Overran`) if the block uses more than ``seconds``
    of CPU time, or is blocked for far longer in wall time."""
    return cpu_deadline(seconds)


def checked(cert: Any, **kwargs: Any) -> Verification:
    """verify() under the alarm, asserting it returns a Verification."""
    start = cpu_seconds()
    with alarm():
        v = verify(cert, **kwargs)
    assert isinstance(v, Verification) and v.status in STATUSES
    assert cpu_seconds() - start < SECONDS
    assert v.ok == (v.status == "verified") == bool(v)
    return v


def refused(cert: Any, *words: str, **kwargs: Any) -> Verification:
    v = checked(cert, **kwargs)
    assert v.status == "refused" and not v.ok, v
    for w in words:
        assert w in (v.reason or ""), (w, v.reason)
    return v


def not_ok(cert: Any) -> Verification:
    v = checked(cert)
    assert not v.ok and v.status != "verified", v
    return v


# --- genuine certificates of every kind ----------------------------------------------------------


@cache
def _genuine() -> dict[str, tuple[dict[str, Any], bool]]:
    """name -> (certificate, whether its value is the exact rank)."""
    net = LinearAttention.random(depth=1, width=2, seed=0)
    kw: dict[str, Any] = {"position": 0, "coordinate": 0, "partition": ([0], [1]),
                          "n_inputs": 2, "seed": 0, "keep_witness": True}
    rep = InContextRepresentation.random(depth=1, width=2, n_tokens=1, seed=0)
    deficient = [[1, 2, 3], [2, 4, 6], [Fraction(1, 2), 0, 1], [3, 6, 9]]
    hmm = [[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 1]]
    x = [[sympy.Symbol(f"x{j}_{k}") for k in range(2)] for j in range(2)]
    poly = (x[0][0] * x[1][0] + x[0][1] * x[1][1]) ** 2

    def inner_squared(X: np.ndarray) -> np.ndarray:
        return np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** 2

    poly_result = separation_rank(inner_squared, n_inputs=2, dim=2, partition=([0], [1]),
                                  seed=0, keep_witness=True)
    out = {
        "matrix exact": (matrix_certificate(deficient, matrix_rank(deficient, method="exact"),
                                            seed=0), True),
        "matrix modular": (matrix_certificate(deficient, matrix_rank(deficient,
                                                                     method="modular")), False),
        "matrix packed": (matrix_certificate(deficient, matrix_rank(deficient, method="exact"),
                                             seed=1, packed=True), True),
        "grid GF(p)": (net.separation_rank(structure="dense", **kw).certificate(), True),
        "grid Q": (net.separation_rank(structure="dense", method="exact", **kw).certificate(),
                   True),
        "grid polynomial": (poly_result.certificate(function=polynomial_function(
            poly, n_inputs=2, dim=2)), True),
        "grid in-context": (incontext_seq_sep(rep, seed=0, keep_witness=True,
                                              structure="dense").certificate(), True),
        "blocks network": (net.separation_rank(**kw).certificate(), True),
        "blocks in-context": (incontext_seq_sep(rep, seed=0, keep_witness=True).certificate(),
                              True),
        "witness": (lemma6_witness(5, 2, seed=0).certificate(), False),
        "kruskal": (kruskal_certificate(hmm, kruskal_rank(hmm), seed=0), True),
    }
    for name, (cert, _) in out.items():
        assert verify(cert).ok, name
    return out


def genuine(name: str) -> dict[str, Any]:
    return copy.deepcopy(_genuine()[name][0])


GENUINE = ("matrix exact", "matrix modular", "matrix packed", "grid GF(p)", "grid Q",
           "grid polynomial", "grid in-context", "blocks network", "blocks in-context",
           "witness", "kruskal")


def test_every_genuine_kind_verifies_and_says_what_it_proves() -> None:
    for name in GENUINE:
        v = checked(genuine(name))
        assert v.status == "verified" and v.recomputed and not v.not_checked, name
        assert v.proves is not None and v.proves["subject"] == genuine(name)["claim"]["subject"]
        assert v.estimate is not None and v.estimate > 0


# --- 1. opaque functions switch nothing off ------------------------------------------------------


def _identity_grid(cert: dict[str, Any], r: int) -> dict[str, Any]:
    """The forger's grid certificate: r templates more, an r x r identity minor."""
    T = cert["templates"]
    start = len(T)
    T += [[start + k + 1] + [7] * (cert["dim"] - 1) for k in range(r)]
    cert["rows"] = [[start + k] for k in range(r)]
    cert["cols"] = [[start + k] for k in range(r)]
    cert["entries"] = [[int(a == b) for b in range(r)] for a in range(r)]
    cert["claim"]["value"] = r
    return cert


def test_opaque_with_the_weights_left_in_place_is_refused() -> None:
    """The attack of the issue: function.type set to 'opaque', weights left in place, an
    identity minor: sep >= 4 for a network of separation rank 3."""
    cert = genuine("grid GF(p)")
    assert cert["claim"]["value"] == 3
    cert = _identity_grid(cert, 4)
    cert["function"]["type"] = "opaque"
    refused(cert, "unknown field")


@pytest.mark.parametrize("base,value", [("grid GF(p)", 4), ("grid GF(p)", 32),
                                        ("grid in-context", 40)])
def test_an_opaque_function_is_unchecked_never_ok(base: str, value: int) -> None:
    """The same forgery done cleanly (an opaque function, the subject re-bound by the forger)
    checks the identity minor and says so -- 'unchecked', ok False."""
    true_value = genuine(base)["claim"]["value"]
    assert true_value < value
    cert = _identity_grid(genuine(base), value)
    cert["function"] = {"type": "opaque", "description": "trust me"}
    v = checked(bind_subject(cert))
    assert v.status == "unchecked" and not v.ok and not bool(v) and not v.recomputed
    assert "opaque" in v.reason and v.not_checked


def test_an_opaque_block_certificate_is_unchecked_with_its_homogeneity() -> None:
    cert = genuine("blocks network")
    cert["function"] = {"type": "opaque"}
    blk = cert["blocks"][0]
    r = 40
    blk["templates"] = [[k + 1, 3] for k in range(r)]
    blk["rows"] = [[k] for k in range(r)]
    blk["cols"] = [[k] for k in range(r)]
    blk["entries"] = [[int(a == b) for b in range(r)] for a in range(r)]
    blk["rank"] = r
    cert["claim"]["value"] = sum(b["rank"] for b in cert["blocks"])
    v = checked(bind_subject(cert))
    assert v.status == "unchecked" and not v.ok
    assert any("homogeneity" in m for m in v.not_checked)


def _copied_checker(tmp_path: Path) -> Path:
    shutil.copytree(VERIFY_DIR, tmp_path / "verify")
    return tmp_path


#: CPU seconds a checker run may use (RLIMIT_CPU in the child; its wall time is a hang guard).
CHECKER_CPU_SECONDS = 60


def _run_checker(where: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -S -m verify ARGS`` in a copied folder, under a memory and a CPU limit."""

    def limit() -> None:  # pragma: no cover - runs in the child
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        resource.setrlimit(resource.RLIMIT_CPU, (CHECKER_CPU_SECONDS, CHECKER_CPU_SECONDS))

    return subprocess.run([sys.executable, "-S", "-E", "-m", "verify", *args], cwd=where,
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS,
                          preexec_fn=limit)


def test_the_checkers_command_line_exits_non_zero_on_unchecked(tmp_path: Path) -> None:
    where = _copied_checker(tmp_path)
    cert = _identity_grid(genuine("grid GF(p)"), 4)
    cert["function"] = {"type": "opaque"}
    (where / "opaque.json").write_text(json.dumps(bind_subject(cert)))
    run = _run_checker(where, "opaque.json")
    assert run.returncode == 1 and "UNCHECKED" in run.stdout, run.stdout + run.stderr
    run = _run_checker(where, "--allow-unchecked", "opaque.json")
    assert run.returncode == 0 and "UNCHECKED" in run.stdout


# --- 2. a matrix certificate without its matrix --------------------------------------------------


def test_a_matrix_certificate_without_its_matrix_is_unchecked() -> None:
    """A rank-2 matrix 'verified' as rank(M) >= 3 / = 3 by a minor of nothing."""
    M = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
    assert matrix_rank(M, method="exact").rank == 2
    for relation in (">=", "="):
        cert = matrix_certificate(M, matrix_rank(M, method="exact"), seed=0)
        del cert["matrix"]
        cert.pop("upper", None)
        cert["claim"].update(relation=relation, value=3)
        cert["lower"] = {"prime": 7, "rows": [0, 1, 2], "cols": [0, 1, 2],
                         "entries": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}
        v = checked(bind_subject(cert))
        assert v.status == "unchecked" and not v.ok and "no matrix" in v.reason
        cert["matrix"] = M                               # with it: rejected
        v = checked(bind_subject(cert))
        assert v.status == "rejected" and "of the minor" in v.reason


def test_large_matrix_certificates_ship_their_matrix_packed() -> None:
    rng = np.random.default_rng(0)
    M = rng.integers(-9, 10, (501, 3)) @ rng.integers(-9, 10, (3, 500))    # 250,500 entries
    cert = matrix_certificate(M, matrix_rank(M, method="modular", seed=0))
    assert "matrix" not in cert and cert["matrix_packed"]["entries"] == M.size
    v = checked(cert)
    assert v.ok and "minor's entries are those of the matrix" in v.verified
    forged = copy.deepcopy(cert)                         # the data of another matrix
    other = matrix_certificate(M + 1, matrix_rank(M + 1, method="modular", seed=0))
    for field in ("data", "raw_bytes"):
        forged["matrix_packed"][field] = other["matrix_packed"][field]
    refused(forged, "SHA-256")


def test_a_zip_bomb_stops_at_its_declared_length() -> None:
    cert = genuine("matrix packed")
    bomb = zlib.compress(b"0," * (50 << 20), 9)          # 100 MB of zeros, 100 kB packed
    cert["matrix_packed"]["data"] = base64.b64encode(bomb).decode()
    refused(cert, "does not unpack to its declared")
    cert["matrix_packed"]["raw_bytes"] = 10**12          # declared too large: not inflated
    refused(cert, "above the budget")


# --- 3. --verify DIR: the index is a table of contents -------------------------------------------


@cache
def _seq_certs() -> dict[str, dict[str, Any]]:
    out = {}
    # two settings ICB-PB-attained registers (a certificate counts only for a requirement of
    # its claim: paper_checks.evidence.Proves)
    for d, n in ((2, 1), (3, 2)):
        rep = InContextRepresentation.random(depth=1, width=d, n_tokens=n, seed=d)
        out[f"seq-sep d_x={d} H=1 L=1 N={n}"] = incontext_seq_sep(rep, seed=0).certificate()
    return out


def _outcome(claim_id: str, certificates: dict[str, Any]) -> ClaimOutcome:
    result = ClaimResult(1, 1, "holds", certificates=certificates)
    return ClaimOutcome(get_claim(claim_id), TaskOutcome("ok", result))


def _directory(tmp_path: Path, certificates: dict[str, Any] | None = None) -> Path:
    root = tmp_path / "certs"
    records = write_certificates([_outcome("ICB-PB-attained",
                                           certificates or copy.deepcopy(_seq_certs()))], root)
    assert all(r.verified for recs in records.values() for r in recs)
    return root


def _index(root: Path) -> dict[str, Any]:
    return json.loads((root / "index.json").read_text())


def _verify_dir(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with alarm(60):
        code = paper_checks(["--verify", str(root), *args])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out + out.err


def test_a_genuine_directory_verifies_and_says_what_each_file_proves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _directory(tmp_path)
    code, out = _verify_dir(root, capsys)
    assert code == 0 and "2 certificates: 2 verified" in out
    assert "incontext L=1 d_x=2" in out and "incontext L=1 d_x=3" in out


@pytest.mark.parametrize("how", ["files", "entries"])
def test_swapped_index_entries_are_a_mismatch(
        how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The attack: two genuine entries swapped printed 'ok seq-sep d_x=2 ...: sep >= 126'."""
    root = _directory(tmp_path)
    index = _index(root)
    files = index["claims"]["ICB-PB-attained"]
    a, b = sorted(files)
    if how == "files":
        files[a]["file"], files[b]["file"] = files[b]["file"], files[a]["file"]
    else:
        files[a], files[b] = files[b], files[a]
    (root / "index.json").write_text(json.dumps(index))
    code, out = _verify_dir(root, capsys)
    assert code == 1 and "MISMATCH" in out and "0 verified" in out
    assert "labelled" in out or "the index files it as" in out


def test_a_relabelled_file_still_shows_what_it_proves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A forger who rewrites the index *and* the labels can move a file under another name,
    but not what the line says it proves (that comes from the file), and the installed claim's
    requirement for that name makes it a mismatch."""
    root = _directory(tmp_path)
    index = _index(root)
    files = index["claims"]["ICB-PB-attained"]
    a, b = sorted(files)
    for name, other in ((a, b), (b, a)):
        cert = json.loads((root / files[other]["file"]).read_text())
        cert["claim"]["label"]["name"] = name
        (root / files[other]["file"]).write_text(json.dumps(cert))
    files[a], files[b] = files[b], files[a]
    for name in (a, b):
        files[name]["proves"]["label"]["name"] = name
        files[name]["sha256"] = "sha256:" + hashlib.sha256(
            (root / files[name]["file"]).read_bytes()).hexdigest()
    (root / "index.json").write_text(json.dumps(index))
    code, out = _verify_dir(root, capsys)
    assert code == 1 and "MISMATCH" in out            # index and labels agree, the claim not
    line = next(ln for ln in out.splitlines() if a in ln and "about" in ln)
    assert "d_x=3" in line and "d_x=2" in a            # the name says 2, the file says 3
    assert "function.width = 3, the claim needs 2" in out


def test_an_empty_or_malformed_index_is_an_error_with_a_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _directory(tmp_path)
    index = _index(root)
    for text, words in ((json.dumps({**index, "claims": {}}), "lists no certificates"),
                        ("{}", "is not a certificate index"),
                        ("[1, 2]", "is not a certificate index"),
                        ("{not json", "not JSON"),
                        ('{"schema": 1, "schema": 2}', "appears twice"),
                        (json.dumps({**index, "claims": {"X": [1]}}), "not an object")):
        (root / "index.json").write_text(text)
        code, out = _verify_dir(root, capsys)
        assert code == 2 and words in out, (text, out)
    (root / "index.json").unlink()
    os.mkfifo(root / "index.json")                       # never waited on
    code, out = _verify_dir(root, capsys)
    assert code == 2 and "not a regular file" in out
    (root / "index.json").unlink()
    code, out = _verify_dir(root, capsys)
    assert code == 2 and "has no index.json" in out


def _point_entry(root: Path, target: str) -> None:
    index = _index(root)
    entry = next(iter(index["claims"]["ICB-PB-attained"].values()))
    entry["file"] = target
    (root / "index.json").write_text(json.dumps(index))


@pytest.mark.parametrize("target,words", [
    ("/dev/zero", "only relative paths"), ("/etc/hostname", "only relative paths"),
    ("../outside.json", "without '..'"), ("ICB-PB-attained/../../outside.json", "'..'"),
    ("missing.json", "no such file"), ("ICB-PB-attained", "is a directory"),
    ("C:\\\\x.json", "not a relative path")])
def test_verify_dir_reads_only_regular_files_inside_the_directory(
        target: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _directory(tmp_path)
    (tmp_path / "outside.json").write_text(json.dumps(genuine("matrix exact")))
    _point_entry(root, target)
    code, out = _verify_dir(root, capsys)
    assert code == 1 and "REFUSED" in out and words in out, out


@pytest.mark.parametrize("kind", ["symlink out", "symlink to a device", "fifo", "oversize"])
def test_verify_dir_refuses_links_out_fifos_and_oversize_files(
        kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _directory(tmp_path)
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(genuine("matrix exact")))
    name = root / "ICB-PB-attained" / "trap.json"
    if kind == "symlink out":
        name.symlink_to(outside)
    elif kind == "symlink to a device":
        name.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(name)
    else:
        name.write_text(" " * 200_000 + json.dumps(genuine("matrix exact")))
    _point_entry(root, "ICB-PB-attained/trap.json")
    if kind == "oversize":
        with alarm():
            records = verify_directory(root, budget=VerifyBudget(max_bytes=100_000))
        reasons = [r.reason for recs in records.values() for r in recs if r.status == "refused"]
        assert any("above the budget" in (x or "") for x in reasons), reasons
        return
    code, out = _verify_dir(root, capsys)
    assert code == 1 and "REFUSED" in out
    assert ("leads outside" in out) if kind != "fifo" else ("not a regular file" in out)


def test_paper_checks_budget_option_refuses_with_the_estimate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _directory(tmp_path)
    code, out = _verify_dir(root, capsys, "--max-operations", "10")
    assert code == 1 and "REFUSED" in out and "above the budget of 10" in out
    code, out = _verify_dir(root, capsys, "--max-operations", "0")
    assert code == 2


def test_verify_dir_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root = _directory(tmp_path)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)

    def tree() -> dict[str, tuple[int, float]]:
        return {str(p): (p.stat().st_size, p.stat().st_mtime)
                for p in tmp_path.rglob("*") if p.is_file()}

    before = tree()
    code, _ = _verify_dir(root, capsys)
    assert code == 0 and tree() == before and not any(cwd.iterdir())


def test_paper_checks_verify_reports_unchecked_and_exits_non_zero(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert = _identity_grid(genuine("grid GF(p)"), 4)
    cert["function"] = {"type": "opaque"}
    root = tmp_path / "certs"
    write_certificates([_outcome("ICB-PB-attained", {"opaque": bind_subject(cert)})], root)
    code, out = _verify_dir(root, capsys)
    assert code == 1 and "UNCHECKED" in out and "1 unchecked" in out
    code, out = _verify_dir(root, capsys, "--allow-unchecked")
    assert code == 0 and "UNCHECKED" in out and "prove nothing" in out


# --- 4. denial of service ------------------------------------------------------------------------


HUGE_EXPONENT = (
    '{"schema":"seprank.certificate","version":2,"kind":"matrix_rank","shape":[1,1],'
    '"claim":{"relation":">=","value":1,"subject":{}},"matrix":[["1e99999999999999999'
    '999"]],"lower":{"prime":5,"rows":[0],"cols":[0],"entries":[[1]]}}')


def test_a_number_with_a_huge_exponent_is_never_expanded() -> None:
    """The 218-byte certificate that hung the checker."""
    text = HUGE_EXPONENT
    assert len(text) < 260
    refused(text, "not an exact number")
    refused(text.replace('"1e99999999999999999999"', "1e99999999999999999999"),
            "not an exact number")
    refused(text.replace('"1e99999999999999999999"', "NaN"), "NaN")
    refused(text.replace('"1e99999999999999999999"', '"1' + "0" * 30000 + '"'), "digits")
    refused(text.replace('"1e99999999999999999999"', "1" + "0" * 30000), "digits")


def _polynomial_blocks(D: int, j: int, p: int = 2**61 - 1) -> dict[str, Any]:
    """f = x^j y^(D - j): one block (j, D - j) whose value at (3, 5) is 3^j 5^(D - j)."""
    cert = {"schema": SCHEMA, "version": 2, "kind": "grid_rank_blocks",
            "claim": {"relation": ">=", "value": 1}, "n_inputs": 2, "dim": 1,
            "partition": [[0], [1]], "arithmetic": "GF(p)", "prime": p,
            "function": {"type": "polynomial", "terms": [[1, [[0, 0, j], [1, 0, D - j]]]]},
            "structure": {"total_degree": D, "bidegrees": [[j, D - j]], "source": "monomial"},
            "blocks": [{"bidegree": [j, D - j], "rank": 1, "templates": [[3], [5]],
                        "rows": [[0]], "cols": [[1]],
                        "entries": [[pow(3, j, p) * pow(5, D - j, p) % p]]}]}
    return bind_subject(cert)


def test_a_block_certificate_of_high_degree_finishes_or_is_refused_in_seconds() -> None:
    """Degree 3000 (a 3001 x 6002 Gauss-Jordan in pure Python before) now interpolates in
    O(D^2); degree 10^7 is refused by its estimate."""
    v = checked(_polynomial_blocks(3000, 1500))
    assert v.ok, v.reason
    refused(_polynomial_blocks(10**7, 5 * 10**6), "operations", "max_operations")


def test_a_kruskal_claim_over_too_many_column_sets_is_refused() -> None:
    """A 20 x 40 matrix claiming k-rank 20: C(40, 20) = 1.4e11 column sets."""
    rng = np.random.default_rng(0)
    A = rng.integers(-5, 6, (20, 40)).tolist()
    cert = {"schema": SCHEMA, "version": 2, "kind": "kruskal_rank", "shape": [20, 40],
            "claim": {"relation": ">=", "value": 20}, "matrix": A,
            "lower": {"prime": 2**61 - 1, "projection": np.eye(20, dtype=int).tolist(),
                      "exceptions": []}}
    v = refused(bind_subject(cert), "C(40, 20)", "max_operations")
    assert v.estimate is not None and v.estimate > math.comb(40, 20)


def test_a_deep_network_in_exact_arithmetic_is_refused() -> None:
    cert = genuine("grid Q")
    net = LinearAttention.random(depth=9, width=2, seed=0)
    cert["function"] = net.entry(0, 0).certificate_function()
    v = refused(bind_subject(cert), "operations")
    assert v.estimate is not None and v.estimate > VerifyBudget().max_operations


@pytest.mark.parametrize("mutate", [
    lambda c: c["function"]["terms"].__setitem__(0, [1, [[0, 0, 10**15], [1, 0, 1]]]),
    lambda c: c["function"]["terms"].__setitem__(0, [1, [[0, 0, 10**300], [1, 0, 1]]]),
    lambda c: c.__setitem__("templates", [["9" * 19000 + "/7"] * 2] * 3),
])
def test_cheap_certificates_that_exhausted_memory_are_refused(
        mutate: Callable[[dict[str, Any]], None]) -> None:
    cert = genuine("grid polynomial")
    cert["arithmetic"] = "Q"
    mutate(cert)
    v = checked(bind_subject(cert))
    assert v.status in ("refused", "rejected") and not v.ok


def test_huge_shapes_and_degrees_are_refused_before_any_allocation() -> None:
    cert = genuine("matrix modular")
    del cert["matrix"]
    cert["shape"] = [10**15, 10**15]
    refused(bind_subject(cert), "operations")
    cert = _polynomial_blocks(3, 1)
    cert["structure"]["total_degree"] = 10**18
    cert["blocks"][0]["bidegree"] = [1, 10**18 - 1]
    cert["function"]["terms"][0][1][1][2] = 10**18 - 1
    refused(bind_subject(cert), "operations")


@pytest.mark.parametrize("error", [MemoryError, OverflowError, RecursionError, KeyError,
                                   ZeroDivisionError])
def test_nothing_escapes_verify(error: type[BaseException],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(cert: Any) -> Any:
        raise error("boom")

    monkeypatch.setitem(verify_kinds.KINDS, "matrix_rank", explode)
    v = checked(genuine("matrix exact"))
    assert v.status == "refused" and v.reason


def test_files_paths_and_odd_inputs_never_raise(tmp_path: Path) -> None:
    good = tmp_path / "cert.json"
    save_certificate(genuine("matrix exact"), good)
    assert checked(good).ok and checked(str(good)).ok      # a str path is a path
    assert checked(good.read_bytes()).ok and checked(good.read_text()).ok
    refused(tmp_path / "missing.json", "no such file")
    refused(str(tmp_path / "missing.json"), "no such file")
    refused(tmp_path, "is a directory")
    refused(Path("/dev/zero"), "not a regular file")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused(fifo, "not a regular file")
    refused(good, "bytes", budget=VerifyBudget(max_bytes=100))
    for odd in (None, 3, 2.5, [], [1, 2], {}, {"schema": SCHEMA}, "{not json", b"\xff\xfe",
                "", object(), {1: 2}, {"a": object()}):
        v = checked(odd)
        assert v.status == "refused", (odd, v)
    refused(genuine("matrix exact"), "VerifyBudget", budget="lots")


def test_a_claim_that_does_not_name_its_subject_is_refused() -> None:
    cert = genuine("grid GF(p)")
    del cert["claim"]["subject"]
    refused(cert, "lacks 'subject'", "bind_subject")
    cert["claim"]["subject"] = {"function": "something else"}
    v = checked(cert)
    assert v.status == "rejected" and "not about the certificate's data" in v.reason


# --- 5. looseness --------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["true", "1.0", "2.0", '"2"', "1", "3", "null", "2e0"])
def test_only_the_integer_version_2_is_read(version: str) -> None:
    text = json.dumps(genuine("matrix exact")).replace('"version": 2', f'"version": {version}')
    refused(text, "version")


@pytest.mark.parametrize("where", ["top", "claim", "lower"])
def test_duplicate_keys_are_refused(where: str) -> None:
    text = json.dumps(genuine("matrix exact"))
    anchor = {"top": '"kind": ', "claim": '"relation": ', "lower": '"prime": '}[where]
    key = anchor.partition(": ")[0]
    text = text.replace(anchor, f"{key}: 0, {anchor}", 1)
    refused(text, "appears twice")


def test_dim_must_be_the_networks_width_and_fields_must_be_known() -> None:
    cert = genuine("grid GF(p)")
    cert["dim"] = 1
    cert["templates"] = [t[:1] for t in cert["templates"]]
    refused(cert, "width")
    cert = genuine("grid GF(p)")
    cert["opaque_values"] = True
    refused(cert, "unknown field")
    cert = genuine("grid GF(p)")
    cert["function"]["network"]["residual"] = "no"
    refused(cert, "residual must be true or false")
    cert = genuine("grid GF(p)")
    cert["prime"] = True
    refused(cert, "prime")
    cert = genuine("grid GF(p)")
    cert["claim"]["value"] = 3.0
    refused(cert, "claim.value")


def test_integers_beyond_4300_digits_are_saved_read_and_verified(tmp_path: Path) -> None:
    big = 10**5000 + 7
    M = [[big, 1], [1, 0]]
    cert = matrix_certificate(M, matrix_rank(M, method="exact"), seed=0)
    path = save_certificate(cert, tmp_path / "big.json")
    assert parse_decimal(load_certificate(path)["matrix"][0][0]) == big
    assert checked(path).ok
    refused(path, "digits", budget=VerifyBudget(max_digits=4000))


# --- 6. the report -------------------------------------------------------------------------------


def test_upper_bound_verdicts_are_not_listed_as_resting_on_certificates(
        tmp_path: Path) -> None:
    certs = {"sep": genuine("grid GF(p)")}
    outcomes = [_outcome(cid, certs) for cid in ("D2W-Thm5", "D2W-Thm6", "D2W-Thm3",
                                                  "ICB-PB-attained")]
    from paper_checks.certificates import attach_records

    shown = attach_records(outcomes, write_certificates(outcomes, tmp_path))
    report = markdown_report(shown, base_dir=str(tmp_path))
    resting, _, beside = report.partition("### Certified ranks beside verdicts they cannot "
                                          "support")
    resting = resting.split("## Verdicts resting on certificates")[1]
    assert "`ICB-PB-attained`" in resting
    for cid in ("D2W-Thm5", "D2W-Thm6", "D2W-Thm3"):
        assert f"`{cid}`" not in resting and f"`{cid}`" in beside
    assert "listed with the other verdicts of their paper" in beside


# --- 7. random mutations of genuine certificates -------------------------------------------------


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for k, v in enumerate(value[:6]):         # the first few entries of long lists
            yield from _paths(v, (*prefix, k))


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        value = value[k]
    return value


JSON_VALUES = st.one_of(
    st.integers(-3, 3), st.integers(-(2**70), 2**70), st.just(2**61 - 1), st.just(10**400),
    st.booleans(), st.none(), st.floats(allow_nan=True), st.just(1.0),
    st.sampled_from(["1e99999", "1/0", "0/5", "-0", "2/4", "x", "", "٣", "1_000", " 1",
                     "opaque", "GF(p)", "Q", "=", ">=", "right", "polynomial", "incontext"]),
    st.lists(st.integers(-2, 5), max_size=4), st.just([[0]]), st.just({}),
    st.just({"type": "opaque"}))
OPERATIONS = ("replace", "tweak", "delete", "add")


def _mutate(cert: dict[str, Any], where: int, op: str, new: Any) -> None:
    """Mutate one node: replace it, tweak it, delete it, or add a field or an element."""
    paths = list(_paths(cert))[1:]
    path = paths[where % len(paths)]
    parent, key = _at(cert, path[:-1]), path[-1]
    old = parent[key]
    if op == "replace":
        parent[key] = new
    elif op == "tweak":
        if type(old) is int:
            parent[key] = old + (1 if new is None or new is True else -1)
        elif type(old) is str:
            parent[key] = old + "1"
        elif isinstance(old, list):
            parent[key] = old[::-1] if len(old) > 1 else [*old, *old]
        else:
            parent[key] = new
    elif op == "delete":
        del parent[key]
    else:
        target = old if isinstance(old, dict | list) else parent
        if isinstance(target, dict):
            target[f"extra{where % 3}" if where % 2 else "matrix"] = new
        else:
            target.append(copy.deepcopy(target[0]) if target and where % 2 else new)


def _assert_sound(name: str, mutated: dict[str, Any], v: Verification) -> None:
    if not v.ok:
        return
    original, exact = _genuine()[name]
    assert v.recomputed and not v.not_checked and v.status == "verified"
    assert v.proves is not None
    claim = original["claim"]
    assert v.proves["subject"] == claim["subject"], "verified a claim about another subject"
    assert v.proves["kind"] == original["kind"]
    if v.proves["relation"] == "=":
        assert claim["relation"] == "=" and v.proves["value"] == claim["value"]
    elif exact:
        assert v.proves["value"] <= claim["value"]


def _check_mutation(name: str, where: int, op: str, new: Any, as_text: bool) -> None:
    cert = genuine(name)
    _mutate(cert, where, op, new)
    source: Any = cert
    if as_text:
        try:
            source = json.dumps(cert)
        except (TypeError, ValueError):
            source = cert
    v = checked(source)
    _assert_sound(name, cert, v)


MUTATION = dict(name=st.sampled_from(GENUINE), where=st.integers(0, 10**6),
                op=st.sampled_from(OPERATIONS), new=JSON_VALUES, as_text=st.booleans())


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(**MUTATION)
def test_random_mutations_never_raise_hang_or_verify_what_was_not_recomputed(
        name: str, where: int, op: str, new: Any, as_text: bool) -> None:
    _check_mutation(name, where, op, new, as_text)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**MUTATION)
def test_many_random_mutations(name: str, where: int, op: str, new: Any,
                               as_text: bool) -> None:
    _check_mutation(name, where, op, new, as_text)


def test_every_attack_in_a_copied_checker_under_a_memory_limit(tmp_path: Path) -> None:
    """The hostile certificates above, each through ``python -S -m verify`` in a copied folder
    with 2 GB of address space: no traceback, an answer in seconds, never verified."""
    where = _copied_checker(tmp_path)
    attacks: dict[str, str] = {
        "exponent": HUGE_EXPONENT,
        "degree": json.dumps(_polynomial_blocks(10**7, 5 * 10**6)),
        "bomb": "",
        "deep": "[" * 100_000 + "]" * 100_000,
        "duplicate": json.dumps(genuine("matrix exact")).replace('"kind": ',
                                                                 '"kind": 0, "kind": '),
    }
    bomb = genuine("matrix packed")
    bomb["matrix_packed"]["data"] = base64.b64encode(zlib.compress(b"0," * (50 << 20), 9)
                                                     ).decode()
    attacks["bomb"] = json.dumps(bomb)
    names = []
    for name, text in attacks.items():
        (where / f"{name}.json").write_text(text)
        names.append(f"{name}.json")
    os.mkfifo(where / "fifo.json")
    names += ["fifo.json", "missing.json", "/dev/zero", "."]
    start = child_cpu_seconds()
    run = _run_checker(where, "--json", *names)
    assert child_cpu_seconds() - start < CHECKER_CPU_SECONDS   # CPU: a load cannot trip it
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    results = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(results) == len(names)
    assert all(r["status"] == "refused" for r in results), results
