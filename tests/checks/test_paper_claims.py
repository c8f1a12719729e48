"""Every registered paper claim of the active profile is one pytest item.

The item fails when the check raises or its verdict differs from the registered expectation;
``pytest --profile full`` adds the full-profile claims.
"""

from __future__ import annotations

import pytest

from paper_checks.ledger import STRICT_LEDGER
from paper_checks.registry import Claim, select


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "holds_claim" in metafunc.fixturenames:
        profile = metafunc.config.getoption("--profile")
        claims = [c for c in select(profile=profile)
                  if c.category == "paper" and c.expected_verdict == "holds"]
        metafunc.parametrize("holds_claim", claims, ids=[c.id for c in claims])
    if "paper_claim" in metafunc.fixturenames:
        profile = metafunc.config.getoption("--profile")
        claims = select(profile=profile)
        metafunc.parametrize("paper_claim", claims, ids=[c.id for c in claims])


def test_claim_verdict(paper_claim: Claim) -> None:
    """The verdict is the registered one; a ``holds`` on a paper reports its margin, and a weak
    margin (more than 100x of room) says why.  (Kinds and independent recomputations of the
    other verdicts are enforced by ClaimResult itself.)"""
    result = paper_claim.run()
    assert result.verdict == paper_claim.expected_verdict, (
        f"{paper_claim.id} ({paper_claim.reference}): verdict {result.verdict!r}, expected "
        f"{paper_claim.expected_verdict!r}; measured {result.measured!r} vs reference "
        f"{result.reference_value!r}; details {dict(result.details)!r}"
    )
    if paper_claim.category == "paper" and result.verdict == "holds":
        assert result.margin is not None, f"{paper_claim.id}: a holds verdict reports its margin"
        assert not result.margin.weak or result.margin.note, (
            f"{paper_claim.id}: weak margin (10^{result.margin.log10_slack:.1f}) without a note "
            "saying why")
    if result.figures:
        import matplotlib.pyplot as plt

        for fig in result.figures.values():
            plt.close(fig)


def test_holds_claim_fails_on_its_perturbed_statement(holds_claim: Claim) -> None:
    """Power: a ``holds`` verdict on a paper must be able to fail.  The registered perturbed
    statement (a bound tightened below the measurement, a constant changed, an identity broken
    by a small term) must not hold."""
    if not holds_claim.perturbable:
        if STRICT_LEDGER:
            pytest.fail(f"{holds_claim.id} registers no perturbation: make it able to fail or "
                        "re-register it with category='consistency'")
        pytest.skip("not yet graded by the truth ledger (no perturbation registered)")
    result = holds_claim.run(perturbed=True)
    assert result.verdict != "holds", (
        f"{holds_claim.id}: the perturbed statement ({holds_claim.perturbation}) still holds; "
        f"measured {result.measured!r} vs {result.reference_value!r}")
    if result.figures:
        import matplotlib.pyplot as plt

        for fig in result.figures.values():
            plt.close(fig)
