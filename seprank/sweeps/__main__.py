"""``python -m seprank.sweeps NAME [options]``: run a shipped sweep, resumably.

Sweeps: ``d2w-ranks`` (certified separation ranks of 003's network against its bounds) and
``incontext-eta`` (ε-ranks of 000/001's sequential representation vs the learning rate).
Results go to an SQLite store (``--store``; a rerun computes only what is missing) and a table
(CSV + Markdown) and figure in ``--out``.

Why a module command and not a console script: it needs no reinstall to appear, it runs with
whatever interpreter has the package (``python -m`` is how the benchmarks run too), and the
package keeps one console script (``paper-checks``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m seprank.sweeps", description=__doc__.split("\n")[0])
    p.add_argument("name", choices=["d2w-ranks", "incontext-eta"])
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N",
                       help="an embedded dask cluster of N worker processes (default: one per "
                            "core); 0 runs serially in this process")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="an existing dask cluster, e.g. tcp://127.0.0.1:8786")
    p.add_argument("--store", metavar="PATH.sqlite", default="sweeps.sqlite",
                   help="result store (default: %(default)s)")
    p.add_argument("--out", metavar="DIR", default="sweep_results",
                   help="folder for the table and figure (default: %(default)s)")
    p.add_argument("--max-width", type=int, default=6)
    p.add_argument("--max-depth", type=int, default=3)
    p.add_argument("--max-inputs", type=int, default=4)
    p.add_argument("--no-residual", action="store_true", help="only the plain network")
    p.add_argument("--seeds", type=int, nargs="+", default=[0])
    p.add_argument("--time-budget", type=float, default=2.0, metavar="CPU_SECONDS",
                   help="CPU time per case (default: %(default)s)")
    p.add_argument("--memory-budget", type=float, default=64.0, metavar="MIB",
                   help="largest grid per case, MiB (default: %(default)s)")
    p.add_argument("--no-progress", action="store_true")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    from seprank.sweeps import report
    from seprank.sweeps.run import sweep

    if args.workers is not None and args.workers < 0:
        print("--workers must be >= 0", file=sys.stderr)
        return 2
    executor = ("serial" if args.workers == 0 else args.scheduler if args.scheduler
                else args.workers)
    out = Path(args.out)
    if args.name == "d2w-ranks":
        from seprank.sweeps.d2w_ranks import estimated_cost, rank_case, rank_cases

        cases = rank_cases(max_width=args.max_width, max_depth=args.max_depth,
                           max_inputs=args.max_inputs,
                           residual=(False,) if args.no_residual else (False, True),
                           seeds=tuple(args.seeds), time_budget=args.time_budget,
                           memory_budget=int(args.memory_budget * 2**20))
        result = sweep(rank_case, cases, executor=executor, store=args.store,
                       progress=not args.no_progress, priority=estimated_cost)
        paths = report.write_rank_report(result.to_records(), out)
    else:
        from seprank.sweeps.incontext_eta import eta_case, eta_cases

        result = sweep(eta_case, eta_cases(seeds=tuple(args.seeds)), executor=executor,
                       store=args.store, progress=not args.no_progress)
        paths = report.write_eta_report(result.to_records(), out)
    print(result.summary())
    for path in paths:
        print(f"written: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
