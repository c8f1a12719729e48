"""``paper-checks``: run the registered claims and write a report.

Exit status: 0 when every verdict equals its registered expectation, 1 otherwise (a verdict
changed or a check raised), 2 for bad arguments or an empty selection.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from paper_checks.registry import PAPERS, select
from paper_checks.report import json_report, markdown_report, summary_table
from paper_checks.runner import run_claims, run_claims_parallel

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="paper-checks",
        description="Run the executable checks of the seed papers' claims and report verdicts "
        "(holds / erratum / fails / unproven / skipped), how each non-holds statement is wrong "
        "(kind), each holds' margin, and the consistency checks apart.",
    )
    p.add_argument("--paper", action="append", metavar="KEY",
                   help=f"only claims of this paper (key, seed stem or title words); keys: "
                        f"{', '.join(PAPERS)}. Repeatable.")
    p.add_argument("--id", action="append", dest="ids", metavar="GLOB",
                   help="only claims whose id matches this glob, e.g. 'D2W-Thm*'. Repeatable.")
    p.add_argument("--profile", choices=["quick", "full"], default="quick",
                   help="quick (default): the fast claims; full: also the slow ones")
    p.add_argument("--report", metavar="PATH.md", default="paper_checks_report.md",
                   help="Markdown report path (default: %(default)s)")
    p.add_argument("--json", metavar="PATH", help="also write all outcomes as JSON (verdict, "
                   "kind, margin, independent recomputation and category of every claim)")
    p.add_argument("--plots", metavar="DIR", default="paper_checks_plots",
                   help="save the checks' figures as PNG in DIR, linked from the report "
                        "(default: %(default)s)")
    p.add_argument("--no-plots", action="store_true", help="do not save figures")
    p.add_argument("--list", action="store_true", help="list the selected claims and exit")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N",
                       help="run the claims in parallel on a local dask cluster of N worker "
                            "processes (same report, same order)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run the claims on an existing dask cluster, e.g. "
                            "tcp://127.0.0.1:8786")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    claims = select(profile=args.profile, paper=args.paper, id_glob=args.ids)
    if not claims:
        print("paper-checks: no claim matches the selection", file=sys.stderr)
        return 2
    if args.list:
        for c in claims:
            print(f"{c.id:32s} {c.profile:5s} expected {c.expected_verdict:8s} "
                  f"{c.category:11s} [{c.paper}] {c.reference}")
        return 0
    plots = None if args.no_plots else args.plots
    if args.workers is not None and args.workers < 1:
        print("paper-checks: --workers must be >= 1", file=sys.stderr)
        return 2
    if args.workers is not None or args.scheduler is not None:
        outcomes = run_claims_parallel(
            claims, executor=args.scheduler if args.scheduler else args.workers,
            plots_dir=plots, progress=not args.no_progress)
    else:
        outcomes = run_claims(claims, plots_dir=plots, progress=not args.no_progress)
    print(summary_table(outcomes))
    report = Path(args.report)
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(markdown_report(outcomes, base_dir=str(report.parent)), encoding="utf-8")
    print(f"report written to {report}")
    if args.json:
        Path(args.json).write_text(json_report(outcomes), encoding="utf-8")
        print(f"JSON written to {args.json}")
    bad = [o for o in outcomes if not o.as_expected]
    for o in bad:
        what = "raised an error" if o.error else f"gave {o.verdict}"
        print(f"UNEXPECTED: {o.claim.id} {what} (expected {o.claim.expected_verdict})",
              file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
