"""The ICL-* verdicts do not depend on the training seed: every quick claim that uses the
trained model gives its registered verdict (and its perturbed statement does not hold) for
training seeds 0-4 (slow: four more training runs)."""

from __future__ import annotations

import pytest

from paper_checks.claims.icl.common import STABILITY_SEEDS, training_seed
from paper_checks.registry import select

TRAINED_CLAIMS = [c for c in select(profile="quick", id="ICL-*")
                  if c.module.rsplit(".", 1)[-1] in ("generalization", "mechanism", "pruning",
                                                          "lemmas")]


def test_the_trained_claims_are_all_covered() -> None:
    assert len(TRAINED_CLAIMS) == 20


@pytest.mark.slow
@pytest.mark.parametrize("seed", STABILITY_SEEDS[1:])
def test_verdicts_are_stable_across_training_seeds(seed: int) -> None:
    with training_seed(seed):
        for c in TRAINED_CLAIMS:
            result = c.run()
            assert result.verdict == c.expected_verdict, (c.id, seed, result.measured)
            if c.perturbable:
                assert c.run(perturbed=True).verdict != "holds", (c.id, seed)
