"""What discovering the installed papers costs (issue 32): ``paper-checks --list`` and pytest
collection, each in fresh interpreters, side by side with a baseline that does the same work
without the discovery.

Rows (median of ``REPEAT`` fresh interpreters, wall and CPU seconds of the child):

* ``--list, baseline``: ``paper-checks --list`` with ``load_all`` replaced by the walk of
  ``paper_checks.claims`` it did before entry points (same imports, same listing);
* ``--list, entry points``: ``paper-checks --list`` (``load_all`` through the entry point group
  ``paper_checks.papers``);
* ``--list, entry points + scaffolded``: the same with one more installed paper (a
  ``paper-checks init`` package and a ``.dist-info`` declaring its entry point, on
  ``PYTHONPATH``);
* ``pytest --collect-only, plugin off / on``: a repository of ordinary tests, with the plugin
  disabled (``-p no:paper_checks.pytest_plugin``) and enabled -- what every pytest run in an
  environment holding this toolkit pays;
* ``pytest --collect-only, claims``: the scaffolded package's tests (3 claim items and one
  ordinary test): what collecting claims costs (importing the toolkit; no discovery of the other
  papers).

Target: discovery adds <= 0.3 s (the difference of the paired rows).

Usage: ``python -m benchmarks framework [--quick]`` -- run it with the interpreter whose
installed metadata declares the entry points (``pip install -e .`` first).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._util import machine_line, markdown_table, write_result

TARGET_SECONDS = 0.3
REPEAT = 5

_BASELINE = """
import importlib, pkgutil, sys
import paper_checks.registry as registry

def walk():  # the old load_all: import every module below paper_checks.claims
    import paper_checks.claims as pkg
    for info in sorted(pkgutil.walk_packages(pkg.__path__, prefix=pkg.__name__ + "."),
                       key=lambda i: i.name):
        importlib.import_module(info.name)

registry.load_all = walk
import paper_checks.cli as cli
cli.load_all = walk
sys.exit(cli.main(["--list"]))
"""


def _timed(args: list[str], *, cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + sys) seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 5):       # 5: pytest collected nothing
        raise RuntimeError(f"{args} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _median(args: list[str], *, cwd: Path, env: dict[str, str], repeat: int
            ) -> tuple[float, float]:
    _timed(args, cwd=cwd, env=env)          # warm the file cache
    runs = [_timed(args, cwd=cwd, env=env) for _ in range(repeat)]
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def _installed_scaffold(root: Path) -> Path:
    """A scaffolded package and a dist-info declaring its entry point, both under ``root``
    (put ``root`` on PYTHONPATH: importlib.metadata then sees it installed)."""
    from paper_checks.scaffold import scaffold

    scaffold("bench-claims", directory=root / "src")
    site = root / "site"
    info = site / "bench_claims-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bench-claims\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(
        "[paper_checks.papers]\nbench_claims = bench_claims.claims\n")
    return site


def _micro(py: str, env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """In one interpreter: the median time of scanning the entry point group (what discovery
    adds besides importing the claim modules, which the baseline imports too), and the
    self-reported import time of the pytest plugin once pytest is imported (``-X importtime``,
    cumulative)."""
    code = ("import statistics, time\n"
            "from importlib.metadata import entry_points\n"
            "ts = []\n"
            "for _ in range(21):\n"
            "    t = time.perf_counter(); eps = entry_points(group='paper_checks.papers'); "
            "ts.append(time.perf_counter() - t)\n"
            "print(statistics.median(ts), len(eps))\n")
    out = subprocess.run([py, "-c", code], env=env, cwd=cwd, capture_output=True, text=True,
                         check=True).stdout.split()
    done = subprocess.run([py, "-X", "importtime", "-c",
                           "import pytest, paper_checks.pytest_plugin"],
                          env=env, cwd=cwd, capture_output=True, text=True, check=True)
    line = next(ln for ln in done.stderr.splitlines() if ln.rstrip().endswith(
        " paper_checks.pytest_plugin"))
    return float(out[0]), int(line.split("|")[1]) * 1e-6


def main(argv: list[str]) -> int:
    repeat = 2 if "--quick" in argv else REPEAT
    py = sys.executable
    cli = str(Path(py).with_name("paper-checks"))
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    base_env["MPLBACKEND"] = "Agg"
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        site = _installed_scaffold(root)
        pkg = root / "src" / "bench-claims"
        extra_env = {**base_env, "PYTHONPATH": os.pathsep.join([str(site), str(pkg)])}
        plain = root / "plain"
        plain.mkdir()
        for i in range(20):
            (plain / f"test_plain_{i}.py").write_text(
                "".join(f"def test_{j}():\n    assert {j} == {j}\n\n" for j in range(10)))
        (plain / "pytest.ini").write_text("[pytest]\n")

        base = _median([py, "-c", _BASELINE], cwd=root, env=base_env, repeat=repeat)
        ep = _median([cli, "--list"], cwd=root, env=base_env, repeat=repeat)
        ep_extra = _median([cli, "--list"], cwd=root, env=extra_env, repeat=repeat)
        off = _median([py, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                       "-p", "no:paper_checks.pytest_plugin"], cwd=plain, env=base_env,
                      repeat=repeat)
        on = _median([py, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                     cwd=plain, env=base_env, repeat=repeat)
        claims = _median([py, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                         cwd=pkg, env=extra_env, repeat=repeat)

        scan, plugin_import = _micro(py, base_env, root)
        scan_extra, _ = _micro(py, extra_env, root)

    def row(name: str, t: tuple[float, float], ref: tuple[float, float] | None) -> list[object]:
        added = "" if ref is None else f"{t[0] - ref[0]:+.3f} s wall, {t[1] - ref[1]:+.3f} s CPU"
        ok = "" if ref is None else ("yes" if t[1] - ref[1] <= TARGET_SECONDS else "**no**")
        return [name, f"{t[0]:.3f}", f"{t[1]:.3f}", added, ok]

    rows = [row("--list, baseline (walk paper_checks.claims)", base, None),
            row("--list, entry points", ep, base),
            row("--list, entry points + 1 scaffolded package", ep_extra, base),
            row("pytest --collect-only (200 plain tests), plugin off", off, None),
            row("pytest --collect-only (200 plain tests), plugin on", on, off),
            row("pytest --collect-only, scaffolded claims package", claims, None)]
    micro = markdown_table(["step (in process)", "seconds", f"<= {TARGET_SECONDS} s"], [
        ["scan of the entry point group (median of 21)", f"{scan:.4f}",
         "yes" if scan <= TARGET_SECONDS else "**no**"],
        ["the same with the scaffolded package installed", f"{scan_extra:.4f}",
         "yes" if scan_extra <= TARGET_SECONDS else "**no**"],
        ["import of the pytest plugin once pytest is loaded (-X importtime)",
         f"{plugin_import:.4f}",
         "yes" if plugin_import <= TARGET_SECONDS else "**no**"]])
    header = ["run", "wall s (median)", "CPU s (median)", "added vs baseline",
              f"added CPU <= {TARGET_SECONDS} s"]
    text = "\n".join([
        "# Paper discovery: paper-checks --list and pytest collection", "",
        f"{machine_line()}; median of {repeat} fresh interpreters (after one warm-up).", "",
        markdown_table(header, rows), "",
        "What discovery itself costs, measured inside one interpreter (robust to the load):",
        "", micro, "",
        "CPU time is the robust column on a shared machine (wall time includes waiting for "
        "the cores)."])
    print(text)
    print(f"written to {write_result('framework', text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
