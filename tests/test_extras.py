"""The dependency groups (:mod:`seprank.extras`): the table and pyproject.toml agree, every
optional import fails with its group's exact pip line, and the core group alone imports the
packages and runs the checks that need nothing more.

A missing package is simulated in a fresh interpreter by ``sys.modules[name] = None`` (the
import then raises ModuleNotFoundError as if it were not installed)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pytest

from seprank.extras import (
    DISTRIBUTION_OF,
    GROUP_OF,
    GROUPS,
    MissingExtraError,
    main,
    pip_line,
    require,
    requirements,
)

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = ("numba", "dask", "distributed", "libsemigroups_pybind11", "automata", "sklearn")


def _without(packages: tuple[str, ...], code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter in which ``packages`` cannot be imported."""
    head = "import sys\n" + "".join(f"sys.modules[{p!r}] = None\n" for p in packages)
    return subprocess.run([sys.executable, "-c", head + textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)


def test_pyproject_declares_the_table() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    for group, reqs in GROUPS.items():
        assert extras[group] == list(reqs), group
    union = [r for reqs in GROUPS.values() for r in reqs]
    assert sorted(project["dependencies"]) == sorted(union)
    assert len(union) == len(set(union))  # no requirement in two groups
    # every optional import name belongs to a group whose requirements name its distribution
    for name, group in GROUP_OF.items():
        assert group != "core"
        assert any(r.startswith(DISTRIBUTION_OF.get(name, name) + ">=") for r in GROUPS[group])


def test_requirements_and_pip_lines() -> None:
    assert requirements("core", "kernels")[-1] == "numba>=0.59"
    assert requirements("all") == [r for reqs in GROUPS.values() for r in reqs]
    assert pip_line("distributed") == 'pip install "dask>=2024.1" "distributed>=2024.1"'
    with pytest.raises(ValueError, match="groups must be among core"):
        requirements("gpu")
    with pytest.raises(ValueError, match="groups must be among"):
        requirements()


def test_the_command_prints_requirement_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["core", "automata"]) == 0
    assert capsys.readouterr().out.split() == [*GROUPS["core"], *GROUPS["automata"]]
    assert main(["nope"]) == 2
    assert "groups must be among core, automata" in capsys.readouterr().err


def test_the_command_runs_with_nothing_installed() -> None:
    """``python -m seprank.extras core`` is the first step after ``pip install --no-deps``:
    it must run without numpy, lazy_loader or anything else."""
    out = _without(("numpy", "lazy_loader", "scipy", "sympy", "flint"),
                   "import runpy; sys.argv = ['x', 'core']\n"
                   "runpy.run_module('seprank.extras', run_name='__main__')")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == list(GROUPS["core"])
    out = _without(("lazy_loader",), "import seprank; seprank.separation_rank")
    assert out.returncode == 1
    assert 'needs the core dependencies' in out.stderr and '"lazy_loader>=0.4"' in out.stderr


def test_require_refuses_unknown_packages_and_passes_installed_ones() -> None:
    with pytest.raises(ValueError, match="package must be an optional package"):
        require("numpy", feature="x")
    err = MissingExtraError("the thing", "sklearn.svm")
    assert isinstance(err, ImportError) and err.package == "sklearn"
    assert str(err) == ("the thing needs scikit-learn (import sklearn), of the optional group "
                        "'baselines', which is not installed; install that group alone with:  "
                        'pip install "scikit-learn>=1.3"')


#: One entry point per group: the missing imports, and the call that needs them.
ENTRY_POINTS = {
    "automata (libsemigroups)": (("libsemigroups_pybind11",), """
        from seprank.automata.semigroup import libsemigroups_summary
        from seprank.automata.examples import flip_flop
        libsemigroups_summary(flip_flop())"""),
    "automata (automata-lib)": (("automata",), """
        from seprank.automata.dyck_balance import minimal_dfa_states
        minimal_dfa_states(2, 2)"""),
    "distributed": (("dask", "distributed"), """
        from seprank.sweeps import sweep
        sweep(abs, [{"x": 1}], executor=1, progress=False, version="1")"""),
    "kernels": (("numba",), """
        from seprank.incontext.kernel_unrolled import unrolled_kernel
        unrolled_kernel((1, 2, 1, 2, True, 0, 1, 31))"""),
    "baselines": (("sklearn",), """
        from identifiability.icl import in_domain_patterns, sample_prompts, sklearn_predict
        b = sample_prompts(in_domain_patterns(), [(0, 1)], 5, 4, 1.0, noise=0.0, seed=0)
        sklearn_predict(b, "logistic")"""),
}


@pytest.fixture(scope="module")
def core_only(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One interpreter without any optional group (each start costs seconds): what each entry
    point raised, the numba-backed computations through their numpy paths, and the CLI on a
    check that needs a missing group."""
    report = tmp_path_factory.mktemp("core") / "report.md"
    calls = "".join(
        f"try:\n{textwrap.indent(textwrap.dedent(code), '    ')}\n"
        f"except MissingExtraError as e:\n    found[{name!r}] = [e.group, str(e)]\n"
        f"else:\n    found[{name!r}] = None\n" for name, (_, code) in ENTRY_POINTS.items())
    out = _without(OPTIONAL, f"""
import json
import seprank, identifiability, paper_checks
import identifiability.masked, identifiability.icl, seprank.automata, seprank.sweeps
import numpy as np
from seprank.extras import MissingExtraError
found = {{}}
{calls}
from seprank.core.gfp_elimination import eliminate
found["rank"] = eliminate(np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]]), 7).rank
from seprank.incontext.representation import InContextRepresentation
from seprank.incontext.modular import modular_grid_balanced
from seprank.core import ModularDomain
from seprank.core.modfloat import from_balanced
rep = InContextRepresentation.random(depth=2, width=3, n_tokens=2, seed=0)
F = ModularDomain(16777259)
A, B = np.random.default_rng(1).integers(0, F.p, (2, 4, 3))
found["grid"] = bool(np.all(from_balanced(modular_grid_balanced(rep, A, B, F), F.p)
                            == rep.grid(A, B, domain=F)))
from paper_checks.cli import main
found["exit"] = main(["--id", "AUT-closure-sizes", "--report", {str(report)!r}, "--no-plots",
                      "--no-progress"])
print("RESULT", json.dumps(found))
""")
    assert out.returncode == 0, out.stderr
    line = [x for x in out.stdout.splitlines() if x.startswith("RESULT ")][-1]
    return {"stderr": out.stderr, **json.loads(line.removeprefix("RESULT "))}


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_a_missing_group_names_the_feature_and_its_pip_line(core_only: dict[str, Any],
                                                           name: str) -> None:
    group = GROUP_OF[ENTRY_POINTS[name][0][0]]
    assert core_only[name] is not None, f"{name}: no error without its group"
    raised_group, message = core_only[name]
    assert raised_group == group
    assert message.endswith("install that group alone with:  " + pip_line(group))
    assert "seprank-identifiability[" not in message


def test_the_core_group_imports_everything_and_runs_the_checks(core_only: dict[str, Any]
                                                               ) -> None:
    """Without any optional group: the three packages import, the numba-backed computations
    give the full install's answers through their numpy paths, and a paper check that needs
    a missing group is skipped with its pip line (the CLI says so and does not fail)."""
    assert core_only["rank"] == 2
    assert core_only["grid"] is True
    assert core_only["exit"] == 0
    assert ("NOT RUN: 1 claim(s) need the optional group 'automata' (AUT-closure-sizes): "
            + pip_line("automata")) in core_only["stderr"]
