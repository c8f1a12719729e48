"""Run benchmarks: ``python -m benchmarks`` (all), ``python -m benchmarks matrix_rank``,
``python -m benchmarks gfp_rank`` (an alias: ``matrix_rank --gfp``, the dense GF(p) rank
against one dgemm).

Extra arguments after the names (e.g. ``--quick``) are passed to every benchmark.
Results are printed and written to ``benchmarks/results/<name>.md``.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

#: Names that run a benchmark module with extra flags: name -> (module name, flags).
ALIASES = {"gfp_rank": ("matrix_rank", ["--gfp"])}


def available() -> list[str]:
    here = Path(__file__).parent
    return sorted(m.name[len("bench_"):] for m in pkgutil.iter_modules([str(here)])
                  if m.name.startswith("bench_"))


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("-")]
    flags = [a for a in argv if a.startswith("-")]
    unknown = sorted(set(names) - set(available()) - set(ALIASES))
    if unknown:
        print(f"unknown benchmark(s) {unknown}; available: {available()}", file=sys.stderr)
        return 2
    status = 0
    for name in names or available():
        print(f"\n=== benchmark: {name} ===", flush=True)
        target, extra = ALIASES.get(name, (name, []))
        module = importlib.import_module(f"benchmarks.bench_{target}")
        status |= int(module.main(flags + extra) or 0)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
