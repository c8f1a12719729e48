"""paper_checks: one registered, executable check per checkable claim of the seed papers.

Run them with the ``paper-checks`` command or from Python::

    from paper_checks import select, run_claims
    outcomes = run_claims(select(paper="003"))
"""

from __future__ import annotations

from paper_checks.registry import (
    PAPERS,
    Claim,
    ClaimResult,
    Independent,
    Margin,
    Paper,
    all_claims,
    claim,
    claim_quick_full,
    get_claim,
    judge,
    load_all,
    register_check,
    select,
)
from paper_checks.runner import ClaimOutcome, run_claim, run_claims

__all__ = [
    "PAPERS",
    "Claim",
    "ClaimOutcome",
    "ClaimResult",
    "Independent",
    "Margin",
    "Paper",
    "all_claims",
    "claim",
    "claim_quick_full",
    "get_claim",
    "judge",
    "load_all",
    "register_check",
    "run_claim",
    "run_claims",
    "select",
]
