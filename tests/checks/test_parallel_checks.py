"""paper-checks on dask workers: the same outcomes, in the same order, as the serial run."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from paper_checks.cli import _parser
from paper_checks.registry import select
from paper_checks.report import json_report, markdown_report
from paper_checks.runner import ClaimOutcome, run_claims, run_claims_parallel

#: quick claims of several papers, with errata and figures among them
CLAIM_GLOBS = ["D2W-Table*", "D2W-fit-R2", "D2W-fit-eq11", "D2W-Lemma3-equality",
               "D2W-Thm5-proof", "D2W-degree", "FND-*"]


def _without_times(outcomes: list[ClaimOutcome]) -> list[ClaimOutcome]:
    """Wall times differ between runs; everything else of the report must not."""
    return [dataclasses.replace(o, outcome=dataclasses.replace(o.outcome, seconds=0.0))
            for o in outcomes]


def test_parallel_report_is_the_serial_report(dask_client: Any, tmp_path: Path) -> None:
    claims = select(profile="quick", id=CLAIM_GLOBS)
    assert len(claims) >= 6
    plots = str(tmp_path / "plots")
    serial = run_claims(claims, plots_dir=plots, progress=False)
    parallel = run_claims_parallel(claims, executor=dask_client, plots_dir=plots,
                                   progress=False)
    assert [o.claim.id for o in parallel] == [c.id for c in claims]
    assert markdown_report(_without_times(parallel)) == markdown_report(_without_times(serial))
    assert json_report(_without_times(parallel)) == json_report(_without_times(serial))
    figures = [p for o in parallel for p in o.figure_paths]
    assert figures and all(Path(p).is_file() for p in figures)    # saved by the workers


def test_the_cli_takes_workers_or_a_scheduler_not_both() -> None:
    args = _parser().parse_args(["--workers", "2"])
    assert args.workers == 2 and args.scheduler is None
    args = _parser().parse_args(["--scheduler", "tcp://127.0.0.1:8786"])
    assert args.scheduler == "tcp://127.0.0.1:8786"
    with pytest.raises(SystemExit):
        _parser().parse_args(["--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"])
