"""The numpy MLP, online SGD with a teacher schedule, and the toy experiment's bookkeeping."""

from __future__ import annotations

import numpy as np
import pytest

from identifiability.distillation import (
    DistillationConfig,
    SeedResult,
    Segment,
    TeacherRun,
    TwoLayerReLU,
    run_progressive_distillation,
    summarize,
    train_online,
)
from identifiability.distillation.mlp import ParityStream, sigmoid

FD_STEP = 1e-6
FD_RTOL = 1e-5


def _loss(net: TwoLayerReLU, x: np.ndarray, t: np.ndarray) -> float:
    f = net(x)
    return float(np.mean(np.logaddexp(0, f) - t * f))       # cross-entropy of sigmoid(f)


def test_sgd_step_is_the_cross_entropy_gradient() -> None:
    rng = np.random.default_rng(0)
    net = TwoLayerReLU.init(6, 5, seed=1)
    x, t = rng.choice([-1.0, 1.0], (7, 6)), rng.random(7)
    lr = 1e-3
    moved = net.copy()
    moved.sgd_step(x, t, lr)
    for name in ("w", "b", "a"):
        param = getattr(net, name)
        fd = np.zeros_like(param)
        for idx in np.ndindex(param.shape):
            plus, minus = net.copy(), net.copy()
            getattr(plus, name)[idx] += FD_STEP
            getattr(minus, name)[idx] -= FD_STEP
            fd[idx] = (_loss(plus, x, t) - _loss(minus, x, t)) / (2 * FD_STEP)
        step = (param - getattr(moved, name)) / lr
        assert np.allclose(step, fd, rtol=FD_RTOL, atol=1e-8)


def test_parity_stream_is_reproducible_across_chunks() -> None:
    a, b = ParityStream(5, 3), ParityStream(5, 3)
    assert np.array_equal(np.vstack([a.take(3), a.take(4000)]), b.take(4003))


def test_a_perfect_low_temperature_teacher_equals_the_labels() -> None:
    # f_T(x) = 2 relu(x_0) - 2 relu(-x_0) = 2 x_0: sigmoid(2 x_0 / 1e-4) = (1 + x_0)/2 exactly
    teacher = TwoLayerReLU(np.array([[1.0, 0, 0, 0], [-1.0, 0, 0, 0]]), np.zeros(2),
                           np.array([2.0, -2.0]))
    x = np.array([[1.0, 1, 1, 1], [-1.0, 1, 1, 1]])
    assert np.array_equal(sigmoid(teacher(x) / 1e-4), np.array([1.0, 0.0]))
    runs = []
    for schedule in ([Segment(None)], [Segment(teacher, 50, 1e-4), Segment(None)]):
        net = TwoLayerReLU.init(4, 8, seed=0)
        train_online(net, (0,), schedule, lr=0.05, max_steps=100, data_seed=1)
        runs.append(net)
    assert np.array_equal(runs[0].w, runs[1].w) and np.array_equal(runs[0].a, runs[1].a)


def test_stop_and_stopped_short() -> None:
    net = TwoLayerReLU.init(4, 8, seed=0)
    calls: list[int] = []
    got = train_online(net, (0,), [Segment(None)], lr=0.05, max_steps=95, data_seed=1,
                       eval_every=10, on_eval=lambda s, m: calls.append(s),
                       stop=lambda m: False)
    assert got is None and calls == list(range(10, 91, 10))
    assert train_online(net, (0,), [Segment(None)], lr=0.05, max_steps=95, data_seed=1,
                        eval_every=10, stop=lambda m: True) == 10


def test_divergence_is_reported() -> None:
    net = TwoLayerReLU.init(4, 8, seed=0)
    with pytest.raises(FloatingPointError, match="lower lr"), np.errstate(all="ignore"):
        train_online(net, (0,), [Segment(None)], lr=1e200, max_steps=50, data_seed=1,
                     eval_every=10)


def test_small_experiment_is_deterministic_and_complete() -> None:
    cfg = DistillationConfig(d=8, k=2, teacher_width=64, student_width=16, lr=0.05,
                             max_steps=20_000, test_size=256, one_shot_taus=(1e-4,))
    first = run_progressive_distillation(cfg, [3])
    again = run_progressive_distillation(cfg, [3])
    assert first == again
    r = first[0]
    assert r.exit_step <= r.teacher_steps and r.switch_step == r.exit_step
    assert r.one_shot[1e-4] == r.direct            # a perfect teacher at tau = 1e-4 = labels


def test_summary_counts_stopped_short_runs_at_max_steps() -> None:
    rows = [SeedResult(s, 100, 50, 0.7, (0.0, 0.0), 50, d, {1.0: o}, p)
            for s, d, o, p in ((0, 10, 20, None), (1, 30, None, 5))]
    summ = summarize(rows, max_steps=1000)
    assert summ["progressive"].mean == 502.5 and summ["progressive"].stopped_short == 1
    assert summ["one_shot_best"].steps == (20, None)
    assert summ["direct"].standard_error == pytest.approx(10.0)      # sd 20/sqrt 2, / sqrt 2


def test_plateau_exit_and_validation() -> None:
    run = TeacherRun(steps=[10, 20], losses=[0.7, 0.69])
    with pytest.raises(RuntimeError, match="plateau"):
        run.plateau_exit(0.85)
    assert TeacherRun(steps=[10, 20], losses=[0.7, 0.3]).plateau_exit(0.85) == 1
    with pytest.raises(ValueError, match="exit_fraction"):
        DistillationConfig(exit_fraction=1.5)
    with pytest.raises(ValueError, match="lr"):
        train_online(TwoLayerReLU.init(3, 2, seed=0), (0,), [Segment(None)], lr=0.0,
                     max_steps=5, data_seed=0)
