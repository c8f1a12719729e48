"""The subpackages added since the core's fuzz -- in-context learning (002), distillation
(004 §4.2), automata (004 ch. 3) and the certificate builder -- meet bad input as the core does
(issue 24).

The same harness as :mod:`tests.fuzz.test_bad_inputs`: one valid call per public callable
(:mod:`tests.fuzz.catalog_icl`, ``catalog_distillation``, ``catalog_automata``,
``catalog_certificates``), every argument's bad variants (type, range, bools and numpy bools
as counts, truthy strings as flags, strings and NaN in arrays, wrong objects) refused with a
ValueError / TypeError naming the argument, and every catalogued count at 10**12 and 10**30
answered or refused within seconds in a child process under a 3.5 GiB address-space limit --
no silent answer to a bad value, no hang, no allocation attempted.  ``python -m
tests.fuzz.census icl distillation automata certificates`` prints the counts.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import pathlib
import subprocess
import sys

import pytest

from tests.deadlines import HANG_GUARD_SECONDS
from tests.fuzz.harness import Entry, bad_variants, catalogue, probe, run_valid

ROOT = pathlib.Path(__file__).resolve().parents[2]
CATALOGUES = ("icl", "distillation", "automata", "certificates", "circuits")
#: The address-space limit of the child that runs the huge probes (bytes): 3.5 GiB.
HUGE_PROBE_LIMIT = int(3.5 * 2**30)
#: Seconds per probe before it counts as a hang.
PROBE_SECONDS = 10
ENTRIES = [entry for name in CATALOGUES for entry in catalogue(name)]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_bad_arguments_are_refused_by_name(entry: Entry) -> None:
    run_valid(entry)  # the catalogue's call itself is valid
    failures = [o for o in (probe(entry, a, v, seconds=PROBE_SECONDS)
                            for a, v in bad_variants(entry)) if o.verdict != "clear"]
    assert not failures, "\n".join(f"{o.verdict}: {o.entry}({o.argument}={o.value}) -> "
                                   f"{o.detail}" for o in failures)


@pytest.mark.parametrize("name", CATALOGUES)
def test_huge_counts_answer_quickly_or_are_refused_before_allocating(name: str) -> None:
    code = "from tests.fuzz.harness import main_huge; main_huge()"
    proc = subprocess.run([sys.executable, "-c", code, str(HUGE_PROBE_LIMIT), name, "0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS,
                          check=False)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    started = [d["started"] for d in lines if "started" in d]
    outcomes = [d for d in lines if "verdict" in d]
    assert proc.returncode == 0, (f"the child died (code {proc.returncode}) during "
                                  f"{started[-1] if started else '?'}: {proc.stderr[-2000:]}")
    assert len(outcomes) == len(started) == 2 * sum(len(e.huge) for e in catalogue(name)) > 0
    bad = [d for d in outcomes if d["verdict"] not in ("clear", "answer")]
    assert not bad, "\n".join(f"{d['verdict']}: {d['entry']}({d['argument']}={d['value']}) -> "
                              f"{d['detail']}" for d in bad)


#: Public names that are not entry points: constants, type aliases, records built by the
#: library (results, checks, networks of a construction) and the checker's names (its own
#: forgery corpus fuzzes it, issue 22).
NOT_ENTRY_POINTS = {
    "Task", "Token", "Verification", "evaluate_function", "main", "verify",
}


def _is_record(obj: type) -> bool:
    from seprank.core import Result

    return issubclass(obj, BaseException | Result) or (
        dataclasses.is_dataclass(obj) and not _has_checked_init(obj))


def _has_checked_init(cls: type) -> bool:
    """Dataclasses users build themselves validate in ``__post_init__`` (and are catalogued)."""
    return "__post_init__" in vars(cls)


def test_the_catalogues_cover_every_public_name() -> None:
    import identifiability.distillation
    import identifiability.icl
    import seprank.automata
    import seprank.certificates
    import seprank.circuits

    covered = set()
    for entry in ENTRIES:
        parts = entry.name.split("(")[0].split(".")[1:]
        covered |= {parts[0], ".".join(parts[:2])}
    missing = []
    for mod in (identifiability.icl, identifiability.distillation, seprank.automata,
                seprank.certificates, seprank.circuits):
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.ismodule(obj) or not callable(obj) or name in NOT_ENTRY_POINTS:
                continue
            if inspect.isclass(obj) and _is_record(obj) and name not in covered:
                continue
            if name not in covered:
                missing.append(f"{mod.__name__}.{name}")
    assert not missing, f"no fuzz catalogue entry for: {sorted(missing)}"


@pytest.fixture(autouse=True)
def _relative_paths_land_in_a_temporary_folder(tmp_path: pathlib.Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe that writes to a relative path (a valid path is a valid value) writes there."""
    monkeypatch.chdir(tmp_path)


@pytest.mark.slow
def test_the_census_in_probing_children_is_clean() -> None:
    """The heavier route of ``python -m tests.fuzz.census``: every bad variant in a child
    process under the address-space limit (restarted after a probe that kills it), so an
    abort inside a C library counts too (``--profile full``)."""
    from tests.fuzz.census import census

    result = census(list(CATALOGUES))
    for name, counts in result.items():
        assert set(counts["bad"]) <= {"valid", "clear"}, (name, counts["bad"])
        assert set(counts["huge"]) <= {"clear", "answer"}, (name, counts["huge"])
