"""Every registered paper claim of the active profile is one pytest item.

The item fails when the check raises or its verdict differs from the registered expectation;
``pytest --profile full`` adds the full-profile claims.
"""

from __future__ import annotations

import pytest

from paper_checks.registry import Claim, select


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "paper_claim" in metafunc.fixturenames:
        profile = metafunc.config.getoption("--profile")
        claims = select(profile=profile)
        metafunc.parametrize("paper_claim", claims, ids=[c.id for c in claims])


def test_claim_verdict(paper_claim: Claim) -> None:
    result = paper_claim.run()
    assert result.verdict == paper_claim.expected_verdict, (
        f"{paper_claim.id} ({paper_claim.reference}): verdict {result.verdict!r}, expected "
        f"{paper_claim.expected_verdict!r}; measured {result.measured!r} vs reference "
        f"{result.reference_value!r}; details {dict(result.details)!r}"
    )
    if result.figures:
        import matplotlib.pyplot as plt

        for fig in result.figures.values():
            plt.close(fig)
