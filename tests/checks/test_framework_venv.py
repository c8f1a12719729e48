"""Bring your own paper, as a stranger would (issue 32): ``paper-checks init`` a claims package,
install it beside this toolkit in a fresh virtual environment, and run it through the entry
point, the CLI (with certificates) and pytest.

The fresh venv is honest about what it reuses: this toolkit is installed into it by pip from a
copy of the local checkout (built with the current pip, ``--no-deps``); the third-party
libraries it needs (numpy, flint, pytest, ...) are the running interpreter's, made visible by a
``.pth`` line -- the way ``--system-site-packages`` would, without rebuilding them.  Nothing of
the checkout is importable in the venv except through what pip installed (``PYTHONPATH`` is
cleared).  The steps that need the toolkit (the entry points, the plugin, the CLI) therefore test
the installed package, not the working tree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], *, cwd: Path, env: dict[str, str],
         timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.mark.slow
def test_a_scaffolded_paper_runs_from_a_fresh_venv(tmp_path: Path) -> None:
    """Slow (full profile): two pip installs, one of them a build of this toolkit in an
    isolated build environment (it needs setuptools >= 77, newer than the shared venv's), and
    five fresh interpreters importing the toolkit -- about 60-90 s on a loaded 2-core machine.
    The same steps run in process in test_framework.py (scaffold, CLI with certificates and
    --verify, plugin items), which the default suite runs."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     cwd=tmp_path, env=dict(os.environ)).stdout.strip())
    parent = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_parent_libraries.pth").write_text("\n".join(sorted(parent)) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["MPLBACKEND"] = "Agg"

    # this toolkit, by pip, from a copy of the checkout (its build writes build/ in the tree)
    source = tmp_path / "checkout"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", ".*")
    for name in ("seprank", "identifiability", "paper_checks"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps"]
    done = _run([*pip, str(source)], cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr[-3000:]

    # paper-checks init, installed beside it
    done = _run([str(env_dir / "bin" / "paper-checks"), "init", "demo-claims"], cwd=tmp_path,
                env=env)
    assert done.returncode == 0, done.stderr
    pkg = tmp_path / "demo-claims"
    done = _run([*pip, str(pkg)], cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr[-3000:]

    # the CLI: the paper found through its entry point, certificates written and verified
    cli = str(env_dir / "bin" / "paper-checks")
    done = _run([cli, "--paper", "demo_claims", "--no-plots", "--no-progress", "--report",
                 "r.md", "--json", "r.json", "--certificates", "certs"], cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    verdicts = {r["id"]: r["verdict"] for r in json.loads((tmp_path / "r.json").read_text())}
    assert verdicts == {"DEMO-CLAIMS-Ex1-rank": "holds", "DEMO-CLAIMS-Lemma2-sum": "erratum",
                        "DEMO-CLAIMS-Thm3-proof": "unproven"}
    done = _run([cli, "--verify", "certs"], cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    installed = _run([str(py), "-c", "import paper_checks; print(paper_checks.__file__)"],
                     cwd=tmp_path, env=env).stdout
    assert str(env_dir) in installed       # the installed toolkit, not the working tree

    # pytest inside the package: the claims are items, no conftest.py; then a wrong expectation
    done = _run([str(py), "-m", "pytest", "-p", "no:cacheprovider", "-q"], cwd=pkg, env=env)
    assert done.returncode == 0 and "4 passed" in done.stdout, done.stdout[-3000:]
    (pkg / "tests" / "test_wrong.py").write_text(textwrap.dedent('''
        from paper_checks import ClaimResult, Independent, claim
        from paper_checks.compare import exact_result

        @claim(id="DEMO-wrong", paper="demo_claims", reference="Example 9",
               statement="2 + 2 = 5", basis="exact")
        def demo_wrong(total: int = 5) -> ClaimResult:
            return exact_result(2 + 2, total, what="integers", kind="constant",
                                independent=Independent("by hand", 4, agrees=True))
        '''))
    done = _run([str(py), "-m", "pytest", "-p", "no:cacheprovider", "-q", "tests/test_wrong.py"],
                cwd=pkg, env=env)
    assert done.returncode == 1, done.stdout[-3000:]
    assert "verdict 'fails', registered expectation 'holds'" in done.stdout
    assert "measured  : 4" in done.stdout

    # the Sphinx directive in a two-file docs folder
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text('extensions = ["paper_checks.sphinx"]\n')
    (docs / "index.rst").write_text("Ledger\n======\n\n.. paper-ledger:: demo_claims\n")
    done = _run([str(py), "-m", "sphinx", "-q", "-b", "html", str(docs), str(tmp_path / "html")],
                cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    html = (tmp_path / "html" / "index.html").read_text()
    assert "DEMO-CLAIMS-Lemma2-sum" in html
