"""The checker bounds its own resources and says why it stops (issue 35).

The resource corpus (:mod:`tests.certificates.resource_attacks`) runs through a *copied*
checker (standard library only) in one child process under an address-space cap and a CPU-time
limit: every attack must end with its expected status and the real reason -- refused by the
operation or memory estimate before any work, or by the deadline polled inside the loops -- and
no attack may exhaust the memory cap or the CPU limit (before the fixes, R02 and R04b took
3 GB, R30 159 s and R07b ~370 s of CPU).  In-process tests cover messages with attacker-sized
numbers, Python objects that are not JSON, type-strict subjects and the terminal escaping the
command lines use.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from seprank.certificates.verify import (
    SCHEMA,
    VerifyBudget,
    describe_subject,
    escape_for_terminal,
    main,
    subject_of,
    verify,
)
from seprank.certificates.verify.exact import show
from seprank.certificates.verify.schema import canonical_json
from tests.certificates.resource_attacks import (
    ATTACKS,
    degree_powers,
    einsum_plan,
    huge_entry,
    rational_sum,
)

VERIFY_DIR = Path(__file__).resolve().parents[2] / "seprank" / "certificates" / "verify"
#: The child's address space and CPU time: far below what the attacks took before the fixes.
MEMORY_CAP = 1536 << 20
CPU_SECONDS = 60

_CHILD = """
import json, resource, sys, time
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
resource.setrlimit(resource.RLIMIT_CPU, ({cpu}, {cpu}))
sys.path.insert(0, sys.argv[1])
from verify import VerifyBudget, verify
for name, path, budget in json.loads(Path(sys.argv[2]).read_text()):
    start = time.process_time()
    v = verify(Path(path), budget=VerifyBudget(**budget))
    print(json.dumps({{"name": name, "status": v.status, "reason": v.reason,
                      "cpu": time.process_time() - start}}), flush=True)
"""


def test_every_resource_attack_is_answered_within_its_budgets(tmp_path: Path) -> None:
    """Each attack of the corpus, in a copied checker under a 1.5 GiB address-space cap and a
    60 s CPU limit for all of them: the expected status, the real reason, no crash."""
    shutil.copytree(VERIFY_DIR, tmp_path / "verify")
    jobs = []
    for k, attack in enumerate(ATTACKS):
        path = tmp_path / f"attack{k}.json"
        path.write_text(canonical_json(attack.build()))
        jobs.append((attack.name, str(path), attack.budget))
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    script = _CHILD.format(cap=MEMORY_CAP, cpu=CPU_SECONDS)
    run = subprocess.run([sys.executable, "-S", "-E", "-c", script, str(tmp_path),
                          str(tmp_path / "jobs.json")], capture_output=True, text=True,
                         timeout=600)
    results = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 0 and "Traceback" not in run.stderr, (run.returncode,
                                                                   run.stderr[-2000:], results)
    assert [r["name"] for r in results] == [a.name for a in ATTACKS]
    for attack, r in zip(ATTACKS, results, strict=True):
        assert r["status"] in attack.status, (attack.name, r)
        for word in attack.words if r["status"] == attack.status[0] else ():
            assert word in (r["reason"] or ""), (attack.name, word, r)
        assert "ran out of memory" not in (r["reason"] or ""), r
        assert "4300" not in (r["reason"] or ""), r


def test_the_memory_estimate_refuses_before_the_plan_is_built() -> None:
    """R02: 2.5e7 einsum terms need gigabytes of index tuples; the estimate says so, and a
    smaller plan passes the memory check once the budget allows it."""
    v = verify(einsum_plan(5000))
    assert v.status == "refused" and "bytes of memory" in (v.reason or ""), v
    small = verify(einsum_plan(100), budget=VerifyBudget(max_memory=2**22))
    assert small.status != "refused" or "memory" not in (small.reason or ""), small
    tiny = verify(einsum_plan(100), budget=VerifyBudget(max_memory=1000))
    assert tiny.status == "refused" and "max_memory" in (tiny.reason or ""), tiny


def test_degrees_above_every_prime_are_not_kept_exactly() -> None:
    """R04: a chain of powers x^(2^20) has degree 2^(20 k); the proof caps it at 2^90 (above
    every prime the checker accepts) and rejects the declared D = 1 with a readable reason."""
    v = verify(degree_powers(2000))
    assert v.status == "rejected" and "above 2^90" in (v.reason or ""), v


def test_sums_of_fractions_are_priced_by_their_common_denominator() -> None:
    """R03: the sum of 10^4 fractions with distinct 62-bit denominators has a ~6e5-bit
    denominator; the estimate prices it (more than 100 x the old one) and refuses."""
    v = verify(rational_sum(10_000))
    assert v.status == "refused" and v.estimate is not None and v.estimate > 2 * 10**9, v
    # a sum of ten such fractions stays cheap
    estimate = verify(rational_sum(10)).estimate
    assert estimate is not None and estimate < 10**6


def _matrix(value: Any = 1) -> dict[str, Any]:
    cert: dict[str, Any] = {"schema": SCHEMA, "version": 2, "kind": "matrix_rank", "shape": [1, 1],
            "claim": {"relation": ">=", "value": 1, "subject": None}, "matrix": [[value]],
            "lower": {"prime": 101, "rows": [0], "cols": [0], "entries": [[value]]}}
    cert["claim"]["subject"] = subject_of(cert)
    return cert


def test_messages_show_huge_numbers_by_their_size() -> None:
    """R14-R18: the real reason, with a 5000-digit integer shown by its size."""
    v = verify(huge_entry())
    assert v.status == "rejected" and "recomputed an integer of 16,610 bits" in str(v.reason)
    assert show(-(10**5000)) == "-an integer of 16,610 bits (~-10^5000)"
    assert show(123) == "123" and show([1, "a\n"]) == "[1, 'a\\n']"
    cert = _matrix()
    cert["lower"]["prime"] = 10**5000 + 1
    v = verify(cert)
    assert v.status in ("refused", "rejected") and "16,610 bits" in (v.reason or ""), v


class _Explodes(dict[str, Any]):
    def items(self) -> Any:
        raise SystemExit(3)


class _Integral(int):
    def __int__(self) -> int:
        raise GeneratorExit

    def bit_length(self) -> int:
        raise KeyboardInterrupt


@pytest.mark.parametrize("make", [
    lambda: _Explodes(_matrix()),
    lambda: {**_matrix(), "shape": [_Integral(1), 1]},
    lambda: {**_matrix(), "matrix": [[_Integral(1)]]},
    lambda: {**_matrix(), "kind": type("S", (str,), {"__eq__": lambda s, o: 1 / 0})("x")},
    lambda: {**_matrix(), "lower": {1, 2}},
    lambda: type("P", (type(Path()),), {"__fspath__": lambda self: sys.exit(4)})("x.json"),
    lambda: type("S", (str,), {"lstrip": lambda self: sys.exit(5)})("{}"),
])
def test_python_objects_that_are_not_json_never_escape_verify(make: Any) -> None:
    """F7: only JSON-shaped builtin values are read, so a hostile object's methods never run
    (SystemExit, GeneratorExit, KeyboardInterrupt escaped verify before)."""
    v = verify(make())
    reason = v.reason or ""
    assert v.status == "refused" and ("JSON" in reason or "dict" in reason), v


def test_claim_subjects_compare_type_for_type() -> None:
    """S05/S06: ``0`` is not ``false`` and ``true`` is not ``1`` in a claim's subject."""
    cert = _matrix()
    assert verify(cert).ok
    cert["claim"]["subject"]["matrix"]["shape"] = [True, 1]
    v = verify(cert)
    assert v.status == "rejected" and "claim.subject" in (v.reason or ""), v
    v = verify(_matrix(), max_operations=True)
    assert v.status == "refused" and (v.reason or "").startswith("max_operations"), v


@pytest.mark.parametrize(("name", "shown"), [
    ("H_8\n    ok  H_12 exact rank: rank(M) = 12", "H_8\\n    ok  H_12 exact rank: rank(M) = 12"),
    ("\x1b[1A\x1b[2K ok", "\\x1b[1A\\x1b[2K ok"),
    ("a\\nb", "a\\\\nb"),                     # a literal backslash stays distinguishable
    ("\ud800", "\\ud800"),
    ("\u202eevil", "\\u202eevil"),
    ("\u2028x\u0085", "\\u2028x\\x85"),
    ("naïve β", "naïve β"),
])
def test_escape_for_terminal_keeps_one_honest_line(name: str, shown: str) -> None:
    """F2/L01-L03/L38/L39: names from a certificate directory print as one line that always
    encodes and shows every control character."""
    out = escape_for_terminal(name)
    assert out == shown
    assert "\n" not in out and "\x1b" not in out and out.isprintable()
    out.encode("utf-8")
    assert escape_for_terminal(name, ascii_only=True).isascii()


def test_the_checkers_command_line_prints_one_line_per_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """M06: a file name with a newline and a fake VERIFIED line prints escaped."""
    path = tmp_path / "real.json\nfake.json: VERIFIED rank(M) >= 2"
    path.write_text(canonical_json(_matrix()))
    assert main([str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and "\\nfake.json" in lines[0]


@pytest.mark.parametrize("proves", [
    None, [], {"subject": None}, {"subject": {"matrix": {"shape": [1, 2, 3]}}},
    {"subject": {"matrix": {"shape": 5}}}, {"subject": {"matrix": {"shape": [10**5000, 1]}}},
    {"value": 10**5000, "subject": {"function": {"depth": 2}}},
    {"subject": {"function": {"first": 5, "type": "\ud800\n ok"}}},
    {"subject": {"function": {"type": "x"}, "partition": [[10**6000]], "n_inputs": "\x1b[2K"}},
])
def test_describing_what_an_index_says_never_raises(proves: Any) -> None:
    """L04-L08: odd shapes in an index's ``proves`` give a line, never a traceback."""
    line = describe_subject(proves)
    assert isinstance(line, str) and line.isprintable() and len(line) <= 300
    assert "\n" not in line and "\x1b" not in line
    line.encode("utf-8")
