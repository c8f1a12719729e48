"""Algorithm 1 and the evaluation statistics."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import beta

from identifiability.icl import (
    TrainingConfig,
    cyclic_tasks,
    evaluate,
    in_domain_patterns,
    initialize,
    sample_prompts,
    train,
)
from seprank.core import split_seed

PAT = in_domain_patterns(M1=4, M2=6, beta=3.0, d_y=4)
SHORT = TrainingConfig(n_steps=150, batch_size=32, length=8, m=16, m_a=10, m_b=14)


def test_training_is_reproducible_and_learns() -> None:
    a = train(PAT, SHORT, seed=7)
    b = train(PAT, SHORT, seed=7)
    assert np.array_equal(a.params.WQ, b.params.WQ) and a.steps == 150
    assert a.batch_loss[-20:].mean() < 0.5 * a.batch_loss[:5].mean()
    assert np.array_equal(a.params.a, a.initial.a)                       # a is fixed
    batch = sample_prompts(PAT, [(0, 2), (2, 0), (1, 3)], 2000, 8, 0.8, seed=1)   # unseen
    assert evaluate(a.params, batch).error < 0.1 < evaluate(a.initial, batch).error


def test_initialization_uses_its_own_stream() -> None:
    init_rng, _ = split_seed(11, 2)
    run = train(PAT, TrainingConfig(n_steps=0, m=16, m_a=10, m_b=14), seed=11)
    want = initialize(PAT.d_x, PAT.d_y, m=16, m_a=10, m_b=14, seed=init_rng)
    assert np.array_equal(run.params.WO, want.WO) and np.array_equal(run.params.a, want.a)


def test_callback_stops_training() -> None:
    seen: list[int] = []

    def stop(step: int, params: object) -> bool:
        seen.append(step)
        return step >= 20

    run = train(PAT, SHORT, seed=0, callback=stop, callback_every=10)
    assert run.stopped_early and run.steps == 20 and seen == [10, 20]
    assert run.batch_loss.shape == (20,)


def test_evaluation_statistics() -> None:
    params = initialize(PAT.d_x, PAT.d_y, m=16, m_a=10, m_b=14, seed=3)
    b = sample_prompts(PAT, cyclic_tasks(4), 400, 8, 0.8, seed=4)
    ev = evaluate(params, b)
    wrong = b.z * ev.F <= 0
    k = int(wrong.sum())
    assert ev.error == k / 400
    assert ev.error_se == pytest.approx(math.sqrt(ev.error * (1 - ev.error) / 400))
    assert ev.error_upper == pytest.approx(beta.ppf(0.975, k + 1, 400 - k))
    h = np.maximum(0, 1 - b.z * ev.F)
    assert ev.hinge == pytest.approx(h.mean()) and ev.hinge_se == pytest.approx(
        h.std(ddof=1) / 20)


@pytest.mark.parametrize("kwargs,match", [
    ({"step_size": 2.0}, "step_size"), ({"alpha": 0.0}, "alpha"), ({"noise": 0.7}, "noise K"),
    ({"n_steps": -1}, "n_steps"), ({"batch_size": 0}, "batch_size")])
def test_config_validation(kwargs: dict[str, float], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        TrainingConfig(**kwargs)  # type: ignore[arg-type]
