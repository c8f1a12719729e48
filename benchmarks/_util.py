"""Timing, peak-memory and table helpers shared by the benchmarks."""

from __future__ import annotations

import platform
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).parent / "results"


def median_time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median wall time of ``repeat`` calls (after one untimed warm-up for repeat > 1)."""
    if repeat > 1:
        fn()
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def peak_rss_mib() -> float:
    """Peak resident set size of this process so far, in MiB (Linux ru_maxrss is KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def machine_line() -> str:
    import os

    return f"{platform.python_implementation()} {platform.python_version()}, " \
           f"{platform.machine()}, {os.cpu_count()} CPU(s)"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def write_result(name: str, text: str) -> Path:
    RESULTS_DIR.mkdir(exist_ok=True)
    path = RESULTS_DIR / f"{name}.md"
    path.write_text(text + "\n", encoding="utf-8")
    return path


def fmt_seconds(t: float | None) -> str:
    if t is None:
        return "—"
    return f"{t * 1e3:.2f} ms" if t < 1 else f"{t:.2f} s"
