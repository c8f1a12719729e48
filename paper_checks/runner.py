"""Run registered claims and collect outcomes (verdict, timing, errors, figures)."""

from __future__ import annotations

import re
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from paper_checks.registry import Claim, ClaimResult

__all__ = ["ClaimOutcome", "run_claim", "run_claims", "run_claims_parallel"]


@dataclass(frozen=True)
class ClaimOutcome:
    """A claim, what its check returned (or the error it raised), and how long it took."""

    claim: Claim
    result: ClaimResult | None
    error: str | None
    seconds: float
    figure_paths: tuple[str, ...] = ()
    #: The verification records of the certificates the claim ships
    #: (:class:`paper_checks.certificates.CertificateRecord`), once they were checked.
    certificates: tuple[Any, ...] = ()

    @property
    def certificate_names(self) -> tuple[str, ...]:
        """Names of the certificates the check returned."""
        return () if self.result is None else tuple(self.result.certificates)

    @property
    def rests_on_verified_certificates(self) -> bool:
        """The claim ships certificates and the independent checker verified all of them."""
        return bool(self.certificates) and all(r.verified for r in self.certificates) and \
            len(self.certificates) == len(self.certificate_names)

    @property
    def verdict(self) -> str:
        return "error" if self.result is None else self.result.verdict

    @property
    def kind(self) -> str | None:
        """How the statement is wrong (None for holds, skipped and errors)."""
        return None if self.result is None else self.result.kind

    @property
    def is_paper_verdict(self) -> bool:
        """A verdict on a printed statement (not a consistency check of the toolkit)."""
        return self.claim.category == "paper"

    @property
    def as_expected(self) -> bool:
        return self.result is not None and self.result.verdict == self.claim.expected_verdict


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


def run_claim(claim: Claim, *, plots_dir: str | Path | None = None) -> ClaimOutcome:
    """Run one check; exceptions are caught and reported, figures saved (if asked) and closed."""
    start = time.perf_counter()
    try:
        result: ClaimResult | None = claim.run()
        error = None
    except Exception:  # a check that raises is reported, never hidden
        result, error = None, traceback.format_exc()
    seconds = time.perf_counter() - start
    paths: list[str] = []
    if result is not None and result.figures:
        import matplotlib.pyplot as plt

        for name, fig in result.figures.items():
            if plots_dir is not None:
                out = Path(plots_dir)
                out.mkdir(parents=True, exist_ok=True)
                path = out / f"{_safe_name(claim.id)}__{_safe_name(name)}.png"
                fig.savefig(path, dpi=110, bbox_inches="tight")
                paths.append(str(path))
            plt.close(fig)
    return ClaimOutcome(claim, result, error, seconds, tuple(paths))


def run_claims(
    claims: Iterable[Claim], *, plots_dir: str | Path | None = None, progress: bool = True
) -> list[ClaimOutcome]:
    """Run claims in order with a progress bar; returns one outcome per claim."""
    claims = list(claims)
    outcomes = []
    bar = tqdm(claims, desc="paper checks", unit="claim", disable=not progress)
    for claim in bar:
        bar.set_postfix_str(claim.id, refresh=False)
        outcomes.append(run_claim(claim, plots_dir=plots_dir))
    return outcomes


def _run_claim_on_worker(claim_id: str, plots_dir: str | None) -> ClaimOutcome:
    """Run one claim by id in a worker; the figures are saved there and dropped (the report
    only links their files), the claim is re-attached by the caller."""
    import dataclasses

    import matplotlib

    matplotlib.use("Agg")
    from paper_checks.registry import get_claim

    outcome = run_claim(get_claim(claim_id), plots_dir=plots_dir)
    if outcome.result is not None and outcome.result.figures:
        outcome = dataclasses.replace(
            outcome, result=dataclasses.replace(outcome.result, figures={}))
    return outcome


def run_claims_parallel(
    claims: Iterable[Claim], *, executor: object = None, plots_dir: str | Path | None = None,
    progress: bool = True,
) -> list[ClaimOutcome]:
    """:func:`run_claims` on dask workers (:func:`seprank.sweeps.run.sweep`), same order.

    ``executor``: None (a local cluster, one worker per core), a number of workers, a
    scheduler address or a ``distributed.Client``.  Outcomes come back in the order of
    ``claims`` whatever the order of completion, so the report is the serial run's; a check
    that raises is reported as in :func:`run_claim`; a claim whose worker died repeatedly is
    reported as an error with the scheduler's message.

    Examples
    --------
    ``executor="serial"`` runs the same tasks in this process (the baseline of a speed-up):

    >>> from paper_checks.registry import select
    >>> claims = select(profile="quick", id_glob=["FND-Hilbert-8", "D2W-Table1-1T"])
    >>> [(o.claim.id, o.result.verdict) for o in run_claims_parallel(
    ...     claims, executor="serial", progress=False)]
    [('D2W-Table1-1T', 'erratum'), ('FND-Hilbert-8', 'holds')]
    """
    from seprank.sweeps.run import sweep

    claims = list(claims)
    plots = None if plots_dir is None else str(plots_dir)  # as run_claim writes it
    result = sweep(_run_claim_on_worker, [{"claim_id": c.id, "plots_dir": plots} for c in claims],
                   executor=executor, progress=progress)
    outcomes = []
    for claim, record in zip(claims, result.records, strict=True):
        if record.status == "ok":
            got: ClaimOutcome = record.value
            outcomes.append(ClaimOutcome(claim, got.result, got.error, got.seconds,
                                         got.figure_paths))
        else:  # the worker itself failed (run_claim catches the check's own exceptions)
            outcomes.append(ClaimOutcome(claim, None, record.traceback or record.error,
                                         record.seconds or 0.0))
    return outcomes
