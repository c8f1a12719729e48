"""Every public function of seprank and identifiability refuses bad input clearly.

For each catalogued valid call (:mod:`tests.fuzz.catalog_seprank`,
:mod:`tests.fuzz.catalog_identifiability`) the harness derives bad variants of every argument
(0, -1, 2.5, "3" and True for counts; NaN, inf and strings for numbers; -1 and NaN for
tolerances; -1, 1.5, "abc" and True for seeds; unknown strings for choices; strings and NaN
entries for arrays; wrong objects for models, kernels and callables) and requires a
ValueError or TypeError whose message names the argument -- never a numpy internal, an
AttributeError, a silently accepted value or a hang.  Huge counts (10**12, 10**30) run in a
child process under an address-space limit: each must answer quickly or be refused before
anything large is allocated.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from tests.deadlines import HANG_GUARD_SECONDS
from tests.fuzz import catalog_identifiability, catalog_seprank
from tests.fuzz.harness import Entry, bad_variants, probe, run_valid

ENTRIES = catalog_seprank.ENTRIES + catalog_identifiability.ENTRIES
ROOT = pathlib.Path(__file__).resolve().parents[2]
#: Address-space limit of the child that runs the huge probes (bytes).
HUGE_PROBE_LIMIT = 4 * 2**30
#: Seconds per probe before it counts as a hang.
PROBE_SECONDS = 10


def test_the_catalogue_covers_every_public_function() -> None:
    """Every public callable of both packages has a catalogue entry (or is a result type)."""
    import inspect

    import identifiability
    import seprank
    import seprank.core
    import seprank.separation

    names = {e.name.split("(")[0].split(".")[-1] for e in ENTRIES}
    names |= {e.name.split("(")[0].split(".")[0] for e in ENTRIES}  # a class via its methods
    missing = []
    for mod in (seprank, seprank.core, seprank.separation, seprank.d2w, seprank.incontext,
                identifiability):
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.ismodule(obj) or not callable(obj) or name in names:
                continue
            if inspect.isclass(obj) and (issubclass(obj, BaseException) or _is_result(obj)):
                continue
            if name in _NOT_ENTRY_POINTS:
                continue
            missing.append(f"{mod.__name__}.{name}")
    assert not missing, f"no fuzz catalogue entry for: {sorted(set(missing))}"


def _is_result(cls: type) -> bool:
    """Result and record types (built by the library, not by users) need no entry."""
    import dataclasses

    from seprank.core import Result
    return issubclass(cls, Result) or (
        dataclasses.is_dataclass(cls) and cls.__name__.endswith(_RESULT_SUFFIXES))


_RESULT_SUFFIXES = ("Result", "Record", "Outcome", "Chain", "Bounds", "Bound", "Row", "Point",
                    "Trace", "Check", "Report", "Spectrum", "Regime", "Epsilon", "Twin",
                    "Construction", "Weights", "Packing", "Corpus", "Matching", "Fit", "Tensor",
                    "Architecture", "Deficiency", "Condition", "Inequality", "Plan",
                    "Budget", "Task", "Kernel", "Predictor", "Corollary1Bounds", "Evidence",
                    "Minor", "Block")
#: Protocols, type aliases and plotting functions: nothing to validate.
_NOT_ENTRY_POINTS = {
    "Sample", "RichDisplay",  # a returned named pair; a display mixin for result classes
    "Domain", "Method", "Certificate", "SeparationMethod", "SeedLike", "StopReason",
    "LastLayer", "Regime", "PairRepresentation", "ConditionalDensity", "PairConstruction",
    "Result", "CertifiedResult", "RankValued", "Log3Value", "GaussianRational", "ExactMatrix",
    "ContrastiveFit", "ImpliedKernel", "compare", "log3_e", "to_mpf", "plot_figure3",
    "plot_figure4", "load_table1", "load_table2", "load_table4", "table1",
    "get_memory_limit", "memory_limit", "get_work_limit", "work_limit",
    "accepts_domain", "level_by_minors", "level_by_subsets", "ExactDomain", "array_bytes",
    "SpectralFactors", "Strategy", "Streams",
    # the validation helpers are the checks themselves (tested in seprank/core/validation.py)
    "check_array", "check_bool", "check_callable", "check_choice", "check_float",
    "check_index", "check_indices", "check_instance", "check_int", "check_tolerance",
    "validated",
    # a bar is built by progress_bar (catalogued); the memory estimators and the shape reader
    # take any object by design (they price what the guarded rank would convert) and are
    # exercised through rank_mod_p, matrix_rank and eps_rank; the in-place rank takes the
    # engine's own widened grid (through rank_mod_p's validation upstream)
    "ProgressBar", "flint_rank_bytes", "exact_rank_bytes", "float_rank_bytes", "matrix_shape",
    "rank_mod_p_in_place",
}


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_bad_arguments_are_refused_by_name(entry: Entry) -> None:
    run_valid(entry)  # the catalogue's call itself is valid
    failures = [o for o in (probe(entry, a, v, seconds=PROBE_SECONDS)
                            for a, v in bad_variants(entry)) if o.verdict != "clear"]
    assert not failures, "\n".join(f"{o.verdict}: {o.entry}({o.argument}={o.value}) -> "
                                   f"{o.detail}" for o in failures)


def test_huge_counts_answer_quickly_or_are_refused_before_allocating() -> None:
    code = "from tests.fuzz.harness import main_huge; main_huge()"
    proc = subprocess.run([sys.executable, "-c", code, str(HUGE_PROBE_LIMIT)], cwd=ROOT,
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, check=False)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    started = [d["started"] for d in lines if "started" in d]
    outcomes = [d for d in lines if "verdict" in d]
    assert proc.returncode == 0, (f"the child died (code {proc.returncode}) during "
                                  f"{started[-1] if started else '?'}: {proc.stderr[-2000:]}")
    assert len(outcomes) == len(started) > 100
    bad = [d for d in outcomes if d["verdict"] not in ("clear", "answer")]
    assert not bad, "\n".join(f"{d['verdict']}: {d['entry']}({d['argument']}={d['value']}) -> "
                              f"{d['detail']}" for d in bad)
