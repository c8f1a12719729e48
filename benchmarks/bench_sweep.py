"""The shipped rank sweep (``python -m seprank.sweeps d2w-ranks``): serial vs dask, side by side.

Three runs of the same command, each in a fresh process with a fresh store, one after the
other: ``--workers 0`` (serially, in one process: the baseline), ``--workers 2`` (an embedded
dask cluster of 2 worker processes, its start-up and shutdown included), and the ``--workers 2``
command again on the completed store (the rerun: nothing to compute).  Reported: wall times,
the speed-up serial / dask, the rerun as a fraction of the first run, and how busy the machine
was (load averages before and after each run, and the CPU time the tasks got per second of
their wall time -- below 1 means they waited for a core).

Usage: ``python -m benchmarks sweep [--quick] [--keep=DIR]``; ``--quick`` sweeps d_x <= 3 only;
``--keep=DIR`` keeps the stores and tables there (default: a temporary folder).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._util import machine_line, markdown_table, write_result

FULL_ARGS: list[str] = []                       # the shipped defaults
QUICK_ARGS = ["--max-width", "3"]


def _run(args: list[str], store: Path, out: Path) -> dict[str, Any]:
    from seprank.sweeps.store import ResultStore

    cmd = [sys.executable, "-m", "seprank.sweeps", "d2w-ranks", "--store", str(store),
           "--out", str(out), "--no-progress", *args]
    load_before = os.getloadavg()
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    load_after = os.getloadavg()
    rows = ResultStore(store).results()
    wall = sum(r.outcome.seconds or 0.0 for r in rows)
    cpu = sum(r.outcome.cpu_seconds or 0.0 for r in rows)
    statuses = [(r.value or {}).get("status") for r in rows]
    return {"seconds": seconds, "load": (load_before[0], load_after[0]),
            "cpu_per_wall": cpu / wall if wall else float("nan"), "cases": len(rows),
            "over_budget": statuses.count("over_budget")}


def main(argv: list[str]) -> int:
    args = QUICK_ARGS if "--quick" in argv else FULL_ARGS
    keep = [a.split("=", 1)[1] for a in argv if a.startswith("--keep=")]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(keep[0] if keep else tmp)
        root.mkdir(parents=True, exist_ok=True)
        serial = _run([*args, "--workers", "0"], root / "serial.sqlite", root / "serial")
        print(f"serial: {serial['seconds']:.1f} s", file=sys.stderr, flush=True)
        dask = _run([*args, "--workers", "2"], root / "dask.sqlite", root / "dask")
        print(f"dask: {dask['seconds']:.1f} s", file=sys.stderr, flush=True)
        rerun = _run([*args, "--workers", "2"], root / "dask.sqlite", root / "dask")
    speedup = serial["seconds"] / dask["seconds"]
    rows = [[name, f"{r['seconds']:.1f}", r["cases"], r["over_budget"],
             f"{r['load'][0]:.1f} -> {r['load'][1]:.1f}", f"{r['cpu_per_wall']:.2f}"]
            for name, r in (("serial (--workers 0)", serial), ("dask, 2 workers", dask),
                            ("rerun on the full store", rerun))]
    text = "\n".join([
        "# Rank sweep: serial vs dask (2 workers)",
        "",
        f"{machine_line()}; `python -m seprank.sweeps d2w-ranks {' '.join(args)}`, one run "
        "each, fresh process and store per run.",
        "",
        markdown_table(["run", "wall s", "cases", "over budget", "load avg (1 min)",
                        "task CPU / wall"], rows),
        "",
        f"- speed-up serial / dask: **{speedup:.2f}x** (target >= 1.7x on 2 cores)",
        f"- rerun / first dask run: **{100 * rerun['seconds'] / dask['seconds']:.1f} %** "
        "(target < 5 %)",
        "- the machine is shared: a load average above the 2 cores means other processes "
        "took CPU from both runs; task CPU / wall below 1 measures how much.",
    ])
    print(text)
    print(f"written to {write_result('sweep', text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
