"""Magnitude pruning (§2.4, Theorem 3.7): masks and curves against direct evaluation."""

from __future__ import annotations

import numpy as np
import pytest

from identifiability.icl import (
    cyclic_tasks,
    evaluate,
    in_domain_patterns,
    initialize,
    prune_mask,
    pruned_count,
    pruning_curve,
    sample_prompts,
)

PAT = in_domain_patterns(M1=4, M2=4, d_y=3)
PARAMS = initialize(PAT.d_x, PAT.d_y, m=12, m_a=8, m_b=11, seed=5)
BATCH = sample_prompts(PAT, cyclic_tasks(4), 300, 6, 0.8, seed=6)
RTOL = 1e-12


@pytest.mark.parametrize("order", ["smallest", "largest"])
def test_masks_prune_by_magnitude(order: str) -> None:
    mags = PARAMS.neuron_magnitudes()
    mask = prune_mask(PARAMS, 5, order=order)  # type: ignore[arg-type]
    assert mask.sum() == 7
    gone, kept = mags[mask == 0], mags[mask == 1]
    assert (gone.max() <= kept.min()) if order == "smallest" else (gone.min() >= kept.max())
    assert np.allclose(mags, np.linalg.norm(PARAMS.WO @ PARAMS.WV, axis=1), rtol=RTOL)


def test_curve_equals_direct_evaluation() -> None:
    rates = (0.0, 0.25, 0.5, 1.0)
    c = pruning_curve(PARAMS, BATCH, rates, n_random_masks=4, seed=9)
    assert c.n_pruned == tuple(pruned_count(r, 12) for r in rates) == (0, 3, 6, 12)
    for order in ("smallest", "largest"):
        for k, r in zip(c.n_pruned, rates, strict=True):
            ev = evaluate(PARAMS.with_mask(prune_mask(PARAMS, k, order=order)), BATCH)
            i = rates.index(r)
            assert c.hinge[order][i] == pytest.approx(ev.hinge, rel=RTOL)
            assert c.error[order][i] == pytest.approx(ev.error, rel=RTOL)
    assert c.hinge["random"][-1] == pytest.approx(1.0) and c.hinge["largest"][-1] == 1.0


def test_random_curve_is_the_mean_over_masks() -> None:
    c = pruning_curve(PARAMS, BATCH, [0.5], orders=["random"], n_random_masks=3, seed=2)
    rng = np.random.default_rng(2)
    hs = [evaluate(PARAMS.with_mask(prune_mask(PARAMS, 6, order="random", seed=rng)),
                   BATCH).hinge for _ in range(3)]
    assert c.hinge["random"][0] == pytest.approx(np.mean(hs), rel=RTOL)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="rate"):
        pruning_curve(PARAMS, BATCH, [1.5])
    with pytest.raises(ValueError, match="order"):
        prune_mask(PARAMS, 1, order="middle")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unpruned"):
        pruning_curve(PARAMS.with_mask(prune_mask(PARAMS, 1)), BATCH, [0.0])
