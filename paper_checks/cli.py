"""``paper-checks``: run the registered claims and write a report.

``paper-checks init NAME`` scaffolds a claims package (:mod:`paper_checks.scaffold`).

Exit status: 0 when every verdict equals its registered expectation (and, with
``--certificates`` / ``--verify``, every certificate is verified and is what the index files it
as), 1 otherwise (a verdict changed, a check raised, a certificate was rejected, refused, left
unchecked -- unless ``--allow-unchecked`` -- or does not match the index, an installed paper
plugin raised on import and was skipped), 2 for bad arguments (an unknown paper, a selection
that matches nothing, a ``--module`` that cannot be imported),
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
from paper_checks.papers import (
    entry_point_keys,
    load_papers,
    paper_origin,
    plugin_failures,
    registered_papers,
)
from paper_checks.registry import PAPERS, load_all, select
from paper_checks.report import json_report, markdown_report, summary_table
from paper_checks.runner import run_claims, run_claims_parallel
from seprank.certificates.verify import VerifyBudget
from seprank.extras import pip_line

__all__ = ["load_module", "main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="paper-checks",
        description="Run the executable checks of the papers' claims and report verdicts "
        "(holds / erratum / fails / unproven / skipped), how each non-holds statement is wrong "
        "(kind), each holds' margin, and the consistency checks apart.",
    )
    p.add_argument("--paper", action="append", metavar="KEY",
                   help="only claims of this paper (key, source-file stem or title words); "
                        "every installed paper (entry point group paper_checks.papers) is "
                        "known, see --list-papers. Repeatable.")
    p.add_argument("--id", action="append", dest="ids", metavar="GLOB",
                   help="only claims whose id matches this glob, e.g. 'D2W-Thm*'. Repeatable.")
    p.add_argument("--ref", action="append", dest="refs", metavar="REFERENCE",
                   help="only claims whose reference names this, e.g. 'Theorem 7' (case and "
                        "spacing ignored, numbers whole). Repeatable.")
    p.add_argument("--module", action="append", dest="modules", metavar="PKG_OR_PATH",
                   help="also load the claims of this module without installing it: a dotted "
                        "name importable from here, a .py file, or a package folder. "
                        "Repeatable.")
    p.add_argument("--list-papers", action="store_true",
                   help="list the registered papers (key, citation, who registered it) and exit")
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
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["init"]:
        from paper_checks.scaffold import main as init_main

        return init_main(argv[1:])
    args = _parser().parse_args(argv)
    loaded = _load_papers(args.modules or (), args.paper)
    if loaded is not None:
        return loaded
    if args.list_papers:
        for key, info in PAPERS.items():
            print(f"{key:14s} {info.citation()}  [{paper_origin(key)}]")
        return 1 if plugin_failures() else 0
    if args.max_operations is not None and args.max_operations < 1:
        print("paper-checks: --max-operations must be >= 1", file=sys.stderr)
        return 2
    budget = (None if args.max_operations is None
              else VerifyBudget(max_operations=args.max_operations))
    if args.verify and not args.certificates:
        return _verify_only(args.verify, args.allow_unchecked, budget)
    import matplotlib

    matplotlib.use("Agg")
    try:
        claims = select(profile=args.profile, paper=args.paper, id=args.ids, ref=args.refs)
    except ValueError as err:
        print(f"paper-checks: {err}", file=sys.stderr)
        return 2
    if not claims:
        asked = "; ".join(f"{what} {v!r}" for what, vs in (("--id", args.ids),
                                                            ("--ref", args.refs)) for v in vs or ())
        print(f"paper-checks: no claim matches the selection{' (' + asked + ')' if asked else ''}"
              f" in profile {args.profile}; known papers: {', '.join(PAPERS)} (see --list)",
              file=sys.stderr)
        return 2
    if args.list:
        for c in claims:
            print(f"{c.id:32s} {c.profile:5s} expected {c.expected_verdict:8s} "
                  f"{c.category:11s} [{c.paper}] {c.reference}")
        return 1 if plugin_failures() else 0
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
    not_installed = [o for o in outcomes if o.missing_group is not None]
    bad = [o for o in outcomes if not o.as_expected and o.missing_group is None]
    for group in dict.fromkeys(str(o.missing_group) for o in not_installed):
        ids = [o.claim.id for o in not_installed if o.missing_group == group]
        print(f"NOT RUN: {len(ids)} claim(s) need the optional group {group!r} "
              f"({', '.join(ids[:3])}{', ...' if len(ids) > 3 else ''}): {pip_line(group)}",
              file=sys.stderr)
    for o in bad:
        what = "raised an error" if o.error else f"gave {o.verdict}"
        print(f"UNEXPECTED: {o.claim.id} {what} (expected {o.claim.expected_verdict})",
              file=sys.stderr)
    if rejected:
        print(f"CERTIFICATES: {rejected} certificate(s) not verified by the independent check "
              "(rejected, refused, unchecked or mismatched)", file=sys.stderr)
    failures = plugin_failures()
    for failure in failures:
        print(f"PLUGIN: {failure.summary()}", file=sys.stderr)
    return 1 if bad or rejected or failures else 0


def _load_papers(modules: Sequence[str], papers: Sequence[str] | None) -> int | None:
    """Load the ``--module`` papers and the installed ones -- only the entry points named after
    the ``--paper`` keys when each of them is one (``KEY`` / ``KEY.part``), else all -- and
    report the failed plugins (skipped).  Returns an exit status when loading cannot go on
    (2), else None."""
    try:
        for target in modules:
            load_module(target)
        names = entry_point_keys()
        if papers and all(p in names or p in registered_papers() for p in papers):
            load_papers([p for p in papers if p in names])
        else:
            load_all()
    except (ImportError, OSError, ValueError, RuntimeError, TypeError) as err:
        print(f"paper-checks: {err}", file=sys.stderr)
        return 2
    for failure in plugin_failures():
        print(f"paper-checks: {failure.summary()}", file=sys.stderr)
    return None


def load_module(target: str) -> str:
    """Import the claims of ``target`` without installing it (``--module``).

    Parameters
    ----------
    target : str
        A dotted module name importable from the current directory, a ``.py`` file, or a
        package folder (the folder above its outermost package goes on ``sys.path`` and it is
        imported under its dotted name; a package's ``__init__`` should import its claim
        modules, e.g. with :func:`paper_checks.registry.import_claim_modules`).

    Returns
    -------
    str
        The imported module's name.

    Raises
    ------
    ImportError
        The target does not exist or raised on import (the original error chained).

    Examples
    --------
    >>> load_module("paper_checks.claims.foundation")
    'paper_checks.claims.foundation'
    >>> load_module("no/such/claims.py")
    Traceback (most recent call last):
    ...
    ImportError: --module no/such/claims.py: no such file or folder
    """
    import importlib
    import importlib.util

    path = Path(target)
    if path.suffix == ".py" or path.is_dir():
        if not path.exists():
            raise ImportError(f"--module {target}: no such file or folder")
        path = path.resolve()
        if path.is_dir() and not (path / "__init__.py").is_file():
            raise ImportError(f"--module {target}: a folder must be a package "
                              "(with __init__.py)")
        # a module inside packages is imported under its dotted name (relative imports work)
        parts = [path.name if path.is_dir() else path.stem]
        root = path.parent
        while (root / "__init__.py").is_file():
            parts.insert(0, root.name)
            root = root.parent
        name = ".".join(parts)
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
    else:
        name = target
        if "" not in sys.path and "." not in sys.path:
            sys.path.insert(0, "")
    try:
        importlib.import_module(name)
    except Exception as err:
        raise ImportError(f"--module {target}: importing {name} raised "
                          f"{type(err).__name__}: {err}") from err
    return name


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
