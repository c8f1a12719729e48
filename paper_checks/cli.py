"""``paper-checks``: run the registered claims and write a report.

Exit status: 0 when every verdict equals its registered expectation (and, with
``--certificates`` / ``--verify``, every certificate is verified and is what the index files it
as), 1 otherwise (a verdict changed, a check raised, a certificate was rejected, refused, left
unchecked -- unless ``--allow-unchecked`` -- or does not match the index), 2 for bad arguments,
an empty selection, or a certificates directory that cannot be read (no index, a malformed or
empty one).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from paper_checks.certificates import (
    CertificateDirectoryError,
    attach_records,
    failed_records,
    format_records,
    verify_directory,
    write_certificates,
)
from paper_checks.registry import PAPERS, select
from paper_checks.report import json_report, markdown_report, summary_table
from paper_checks.runner import run_claims, run_claims_parallel
from seprank.certificates.verify import VerifyBudget

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="paper-checks",
        description="Run the executable checks of the papers' claims and report verdicts "
        "(holds / erratum / fails / unproven / skipped), how each non-holds statement is wrong "
        "(kind), each holds' margin, and the consistency checks apart.",
    )
    p.add_argument("--paper", action="append", metavar="KEY",
                   help=f"only claims of this paper (key, source-file stem or title words); keys: "
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
    p.add_argument("--certificates", metavar="DIR",
                   help="write the certificates of every claim that certifies a rank to "
                        "DIR/<claim id>/<name>.json, re-check each with the independent checker "
                        "(seprank.certificates.verify) and say in the report which verdicts "
                        "rest on verified certificates")
    p.add_argument("--verify", metavar="DIR",
                   help="re-check the certificates in DIR (written by --certificates) with the "
                        "independent checker and report per claim what each file proves, "
                        "compared with what DIR/index.json files it as; reads only regular "
                        "files inside DIR, writes nothing, runs no claim")
    p.add_argument("--max-operations", type=int, metavar="N",
                   help="the independent checker's budget of estimated operations per "
                        "certificate (default 2e9, minutes at most); a certificate above it is "
                        "refused with its estimate")
    p.add_argument("--allow-unchecked", action="store_true",
                   help="RISK: exit 0 although some certificates rest on values the checker "
                        "could not recompute (an opaque function, a matrix without its "
                        "entries) and so prove nothing; they are still printed as UNCHECKED")
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
    if args.max_operations is not None and args.max_operations < 1:
        print("paper-checks: --max-operations must be >= 1", file=sys.stderr)
        return 2
    budget = (None if args.max_operations is None
              else VerifyBudget(max_operations=args.max_operations))
    if args.verify and not args.certificates:
        return _verify_only(args.verify, args.allow_unchecked, budget)
    import matplotlib

    matplotlib.use("Agg")
    claims = select(profile=args.profile, paper=args.paper, id=args.ids)
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
    rejected = 0
    if args.certificates:
        records = write_certificates(outcomes, args.certificates, budget=budget)
        outcomes = attach_records(outcomes, records)
        rejected = len(failed_records(records, allow_unchecked=args.allow_unchecked))
        print(format_records(records))
        print(f"certificates written to {args.certificates}")
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
    if rejected:
        print(f"CERTIFICATES: {rejected} certificate(s) not verified by the independent check "
              "(rejected, refused, unchecked or mismatched)", file=sys.stderr)
    return 1 if bad or rejected else 0


def _verify_only(directory: str, allow_unchecked: bool, budget: VerifyBudget | None) -> int:
    try:
        records = verify_directory(directory, budget=budget)
    except (FileNotFoundError, CertificateDirectoryError) as err:
        print(f"paper-checks: {err}", file=sys.stderr)
        return 2
    print(format_records(records))
    failed = failed_records(records, allow_unchecked=allow_unchecked)
    unchecked = [r for recs in records.values() for r in recs if r.status == "unchecked"]
    if unchecked and allow_unchecked:
        print(f"UNCHECKED: {len(unchecked)} certificate(s) rest on values the checker could not "
              "recompute; accepted by --allow-unchecked, they prove nothing", file=sys.stderr)
    if failed:
        print(f"paper-checks: {len(failed)} certificate(s) not verified", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
