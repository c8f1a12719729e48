r"""A toy progressive-distillation experiment on (d, k)-sparse parity (004 §4.2.2.1, (R1)-(R3)).

A wide teacher is trained on the labels by online SGD, saving checkpoints; a narrow student is
then trained from the same initialisation and the same input stream (paired comparison) by

* **direct** training on the labels;
* **one-shot** distillation from the final teacher, at each temperature of ``one_shot_taus``
  (the thesis reports the better of τ = 1 and 1e-4);
* **(2, T)-progressive** distillation (Definition 22): the teacher's checkpoint at the *exit of
  its loss plateau* for the first T steps, then the final teacher (τ = 1e-4 throughout).

The plateau exit is the first checkpoint whose held-out loss is below ``exit_fraction`` x log 2
(log 2 is the loss of the uninformative predictor f = 0); T defaults to the teacher's step at
that checkpoint.  For every method the result is the number of steps (= samples, batch 1) until
the student classifies a held-out set of ``test_size`` inputs perfectly, checked every
``eval_every`` steps; a run that does not get there within ``max_steps`` is reported as
stopped short (None), never silently dropped.

Streams: per seed, :func:`seprank.core.random.split_seed` gives independent generators for the
teacher's initialisation, the teacher's data, the student's initialisation, the student's data
and the test set; every student method re-creates the student streams from the same seeds.

References
----------
004 §4.2.1 Definitions 21-22, §4.2.2.1 (R1)-(R2), Figure 4.5, §4.2.7.1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from identifiability.distillation.mlp import Segment, TwoLayerReLU, sigmoid, train_online
from seprank.core.display import RichDisplay
from seprank.core.random import as_generator, split_seed
from seprank.core.validation import check_array, check_float, check_instance, check_int

__all__ = [
    "DistillationConfig",
    "MethodSummary",
    "SeedResult",
    "TeacherRun",
    "run_progressive_distillation",
    "summarize",
    "train_teacher",
]


@dataclass(frozen=True)
class DistillationConfig:
    """Settings of the toy experiment (defaults: (30, 4)-parity, widths 1000 -> 50).

    Parameters
    ----------
    d, k : int
        The (d, k)-sparse parity (default (30, 4)).
    teacher_width, student_width : int
        Hidden widths (default 1000 and 50).
    lr : float
        SGD learning rate (default 0.02).
    batch_size : int
        Inputs per step (default 1).
    max_steps : int
        Steps before a run counts as stopped short (default 300000).
    checkpoint_every : int
        Teacher checkpoint interval (default 250).
    eval_every : int
        Evaluation interval of the students (default 100).
    test_size : int
        Held-out inputs (default 4096).
    exit_fraction : float
        The plateau exit: held-out loss below this fraction of log 2 (default 0.85).
    switch_step : int, optional
        T of the progressive schedule (None: the teacher's step at the plateau exit).
    progressive_tau : float
        Temperature of progressive distillation (default 1e-4).
    one_shot_taus : tuple of float
        Temperatures of one-shot distillation (default (1, 1e-4)).
    """

    d: int = 30
    k: int = 4
    teacher_width: int = 1000
    student_width: int = 50
    lr: float = 0.02
    batch_size: int = 1
    max_steps: int = 300_000
    checkpoint_every: int = 250
    eval_every: int = 100
    test_size: int = 4096
    exit_fraction: float = 0.85
    switch_step: int | None = None
    progressive_tau: float = 1e-4
    one_shot_taus: tuple[float, ...] = (1.0, 1e-4)

    def __post_init__(self) -> None:
        check_int("d", self.d, minimum=2)
        check_int("k", self.k, minimum=1, maximum=self.d)
        for name in ("teacher_width", "student_width", "batch_size", "max_steps",
                     "checkpoint_every", "eval_every", "test_size"):
            check_int(name, getattr(self, name), minimum=1)
        check_float("lr", self.lr, positive=True, hint=" (the SGD step size)")
        if not 0 < check_float("exit_fraction", self.exit_fraction) < 1:
            raise ValueError(f"exit_fraction must lie in (0, 1), got {self.exit_fraction}")
        if self.switch_step is not None:
            check_int("switch_step", self.switch_step, minimum=1)
        check_float("progressive_tau", self.progressive_tau, positive=True,
                    hint=" (a temperature)")
        taus = self.one_shot_taus
        if isinstance(taus, str | bytes) or not isinstance(taus, tuple | list) or not taus:
            raise TypeError(f"one_shot_taus must be a non-empty tuple of temperatures, got "
                            f"{taus!r}")
        for tau in taus:
            check_float("one_shot_taus: tau", tau, positive=True, hint=" (a temperature)")

    @property
    def support(self) -> tuple[int, ...]:
        """S = the first k coordinates (as in §4.2.7.1, without loss of generality)."""
        return tuple(range(self.k))


@dataclass
class TeacherRun:
    """The teacher's trajectory: checkpoints with held-out loss and accuracy.

    Parameters
    ----------
    steps : list of int
        The step of each checkpoint.
    checkpoints : list of TwoLayerReLU
        The checkpoints.
    losses, accuracies : list of float
        Held-out loss and accuracy at each checkpoint.
    steps_to_perfect : int or None
        The step at which the teacher became perfect (None: never).
    """

    steps: list[int] = field(default_factory=list)
    checkpoints: list[TwoLayerReLU] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    accuracies: list[float] = field(default_factory=list)
    steps_to_perfect: int | None = None

    def plateau_exit(self, fraction: float) -> int:
        """Index of the first checkpoint with held-out loss < ``fraction`` x log 2.

        Parameters
        ----------
        fraction : float
            Of log 2, in (0, 1).

        Returns
        -------
        int
            The checkpoint index.
        """
        if not 0 < check_float("fraction", fraction) < 1:
            raise ValueError(f"fraction must lie in (0, 1) (of log 2, the loss of f = 0), got "
                             f"{fraction!r}")
        for i, loss in enumerate(self.losses):
            if loss < fraction * math.log(2):
                return i
        raise RuntimeError(f"the teacher never left its loss plateau (loss < {fraction} log 2) "
                           f"in {self.steps[-1] if self.steps else 0} steps; raise max_steps")


def _check_config(cfg: object) -> DistillationConfig:
    return check_instance("cfg", cfg, DistillationConfig,
                          expected="a DistillationConfig", hint="e.g. DistillationConfig(d=8)")


def _check_test(test: object, d: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The held-out set ``(x, y)``: inputs of {-1, 1}^d and labels +-1."""
    if not isinstance(test, tuple | list) or len(test) != 2:
        raise TypeError(f"test must be a pair (x, y) of inputs and labels, got {test!r}"[:200])
    x = check_array("test", test[0], ndim=2, what="inputs x")
    y = check_array("test", test[1], shape=(x.shape[0],), what="labels y")
    if x.shape[1] != d or not np.all(np.abs(x) == 1) or not np.all(np.abs(y) == 1):
        raise ValueError(f"test must be inputs of {{-1, 1}}^{d} and labels +-1, got shapes "
                         f"{x.shape}, {y.shape}")
    return x, y


def _test_set(cfg: DistillationConfig, rng: np.random.Generator
              ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    x = rng.choice(np.array([-1.0, 1.0]), size=(cfg.test_size, cfg.d))
    return x, np.prod(x[:, list(cfg.support)], axis=1)


def _loss_accuracy(model: TwoLayerReLU, x: npt.NDArray[np.float64],
                   y: npt.NDArray[np.float64]) -> tuple[float, float]:
    f = model(x)
    return float(np.mean(np.logaddexp(0.0, -y * f))), float(np.mean(np.sign(f) == y))


def train_teacher(cfg: DistillationConfig, *, init_seed: np.random.Generator,
                  data_seed: np.random.Generator,
                  test: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]) -> TeacherRun:
    """Train the teacher on the labels until it is perfect on the test set with loss < 0.02
    (or ``max_steps``), saving a checkpoint every ``checkpoint_every`` steps.

    Parameters
    ----------
    cfg : DistillationConfig
        The settings.
    init_seed : numpy.random.Generator, keyword-only
        The initialisation stream.
    data_seed : numpy.random.Generator, keyword-only
        The data stream.
    test : (numpy.ndarray, numpy.ndarray), keyword-only
        Held-out inputs and labels.

    Returns
    -------
    TeacherRun
        The trajectory.

    Examples
    --------
    >>> from seprank.core import split_seed
    >>> cfg = DistillationConfig(d=6, k=2, teacher_width=32, student_width=8, lr=0.05,
    ...                          max_steps=20_000, test_size=256)
    >>> init, data, test_stream = split_seed(0, 3)
    >>> x = test_stream.choice([-1.0, 1.0], size=(256, 6))
    >>> run = train_teacher(cfg, init_seed=init, data_seed=data, test=(x, x[:, 0] * x[:, 1]))
    >>> run.accuracies[-1], run.losses[-1] < 0.02, run.steps[-1] == run.steps_to_perfect
    (1.0, True, True)
    """
    _check_config(cfg)
    init_seed = as_generator(init_seed, name="init_seed")
    data_seed = as_generator(data_seed, name="data_seed")
    test = _check_test(test, cfg.d)
    run = TeacherRun()
    model = TwoLayerReLU.init(cfg.d, cfg.teacher_width, seed=init_seed)

    def record(step: int, m: TwoLayerReLU) -> None:
        loss, acc = _loss_accuracy(m, *test)
        run.steps.append(step)
        run.checkpoints.append(m.copy())
        run.losses.append(loss)
        run.accuracies.append(acc)

    def done(_: TwoLayerReLU) -> bool:
        return run.accuracies[-1] == 1.0 and run.losses[-1] < 0.02

    run.steps_to_perfect = train_online(
        model, cfg.support, [Segment(None)], lr=cfg.lr, max_steps=cfg.max_steps,
        data_seed=data_seed, batch_size=cfg.batch_size, eval_every=cfg.checkpoint_every,
        stop=done, on_eval=record)
    if run.steps_to_perfect is None:
        raise RuntimeError(f"the teacher did not learn the parity in {cfg.max_steps} steps; "
                           "raise max_steps or the teacher width")
    return run


@dataclass(frozen=True, repr=False)
class SeedResult(RichDisplay):
    """One seed: the teacher, its plateau exit, and steps to 100 % for each student method.

    Parameters
    ----------
    seed : int
        The seed.
    teacher_steps : int
        The teacher's steps to 100 %.
    exit_step : int
        The plateau-exit checkpoint's step.
    exit_accuracy : float
        Its held-out accuracy.
    exit_degree_one : (float, float)
        Mean degree-one correlation on S and the largest off S, at the exit (Figure 4.5).
    switch_step : int
        T of the progressive schedule.
    direct : int or None
        Steps to 100 % of direct training.
    one_shot : dict of float to int or None
        Per temperature, steps of one-shot distillation.
    progressive : int or None
        Steps of progressive distillation.
    """

    seed: int
    teacher_steps: int
    exit_step: int
    exit_accuracy: float
    exit_degree_one: tuple[float, float]
    switch_step: int
    direct: int | None
    one_shot: dict[float, int | None]
    progressive: int | None

    @property
    def best_one_shot(self) -> int | None:
        """The best one-shot temperature (stopped-short runs count as worst)."""
        done = [v for v in self.one_shot.values() if v is not None]
        return min(done) if done else None


def _degree_one(model: TwoLayerReLU, x: npt.NDArray[np.float64], k: int,
                tau: float) -> tuple[float, float]:
    """Mean |E p_T(x; tau) x_j| on S and the largest off S (the quantity of Figure 4.5)."""
    p = sigmoid(model(x) / tau)
    corr = np.abs((p[:, None] * x).mean(axis=0))
    return float(corr[:k].mean()), float(corr[k:].max()) if x.shape[1] > k else 0.0


def _student_run(cfg: DistillationConfig, seed: int, schedule: list[Segment],
                 test: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]) -> int | None:
    """Steps until the student is perfect on ``test`` (None: stopped short at max_steps)."""
    _, _, init_rng, data_rng, _ = split_seed(seed, 5)       # the same streams for every method
    model = TwoLayerReLU.init(cfg.d, cfg.student_width, seed=init_rng)

    def perfect(m: TwoLayerReLU) -> bool:
        return bool(np.all(np.sign(m(test[0])) == test[1]))

    return train_online(model, cfg.support, schedule, lr=cfg.lr, max_steps=cfg.max_steps,
                        data_seed=data_rng, batch_size=cfg.batch_size,
                        eval_every=cfg.eval_every, stop=perfect)


def run_progressive_distillation(cfg: DistillationConfig, seeds: Sequence[int]
                                 ) -> list[SeedResult]:
    """Run teacher + every student method for each seed (see the module docstring).

    Parameters
    ----------
    cfg : DistillationConfig
        The settings.
    seeds : sequence of int
        One run per seed.

    Returns
    -------
    list of SeedResult
        One per seed.

    Examples
    --------
    >>> cfg = DistillationConfig(d=8, k=2, teacher_width=64, student_width=16, lr=0.05,
    ...                          max_steps=20_000, test_size=256)
    >>> r = run_progressive_distillation(cfg, [0])[0]
    >>> r.direct is not None and r.progressive is not None
    True
    """
    _check_config(cfg)
    if isinstance(seeds, str | bytes) or not isinstance(seeds, Sequence | range):
        raise TypeError(f"seeds must be a sequence of integer seeds, got {seeds!r}")
    checked = [check_int("seeds: seed", seed, minimum=0) for seed in seeds]
    results = []
    for seed in checked:
        t_init, t_data, _, _, test_rng = split_seed(seed, 5)
        test = _test_set(cfg, test_rng)
        teacher = train_teacher(cfg, init_seed=t_init, data_seed=t_data, test=test)
        ex = teacher.plateau_exit(cfg.exit_fraction)
        switch = teacher.steps[ex] if cfg.switch_step is None else cfg.switch_step
        final = teacher.checkpoints[-1]
        results.append(SeedResult(
            seed=seed, teacher_steps=int(teacher.steps_to_perfect or 0),
            exit_step=teacher.steps[ex], exit_accuracy=teacher.accuracies[ex],
            exit_degree_one=_degree_one(teacher.checkpoints[ex], test[0], cfg.k,
                                        cfg.progressive_tau),
            switch_step=switch,
            direct=_student_run(cfg, seed, [Segment(None)], test),
            one_shot={tau: _student_run(cfg, seed, [Segment(final, None, tau)], test)
                      for tau in cfg.one_shot_taus},
            progressive=_student_run(cfg, seed, [
                Segment(teacher.checkpoints[ex], switch, cfg.progressive_tau),
                Segment(final, None, cfg.progressive_tau)], test)))
    return results


@dataclass(frozen=True, repr=False)
class MethodSummary(RichDisplay):
    """Mean and standard error of steps to 100 % over seeds (``stopped_short`` runs counted
    at ``max_steps``, which biases the mean down: the count is reported).

    Parameters
    ----------
    name : str
        The method.
    steps : tuple of int or None
        Steps to 100 % per seed (None: stopped short).
    mean : float
        Their mean.
    standard_error : float
        Its standard error.
    stopped_short : int
        Runs that stopped short.
    """

    name: str
    steps: tuple[int | None, ...]
    mean: float
    standard_error: float
    stopped_short: int


def summarize(results: Sequence[SeedResult], max_steps: int) -> dict[str, MethodSummary]:
    """Per-method summaries: ``'direct'``, ``'one_shot_best'``, ``'one_shot_tau=...'``,
    ``'progressive'`` and ``'teacher'``.

    Parameters
    ----------
    results : sequence of SeedResult
        The runs.
    max_steps : int
        The step count of a run that stopped short.

    Returns
    -------
    dict of str to MethodSummary
        Per method.

    Examples
    --------
    >>> rows = [SeedResult(seed=s, teacher_steps=500, exit_step=100, exit_accuracy=0.5,
    ...                    exit_degree_one=(0.1, 0.0), switch_step=100, direct=d,
    ...                    one_shot={1.0: 300}, progressive=200)
    ...         for s, d in ((0, 100), (1, None))]        # seed 1: direct stopped short
    >>> s = summarize(rows, max_steps=1000)["direct"]
    >>> s.steps, s.mean, s.stopped_short                  # None counted at max_steps
    ((100, None), 550.0, 1)
    >>> round(s.standard_error, 9)              # sd / sqrt(n) = (900 / sqrt 2) / sqrt 2
    450.0
    """
    if isinstance(results, str | bytes) or not isinstance(results, Sequence) or not all(
            isinstance(r, SeedResult) for r in results):
        raise TypeError(f"results must be a list of SeedResult (run_progressive_distillation), "
                        f"got {results!r}"[:200])
    if not results:
        raise ValueError("no results to summarise")
    max_steps = check_int("max_steps", max_steps, minimum=1)
    columns: dict[str, list[int | None]] = {
        "teacher": [r.teacher_steps for r in results],
        "direct": [r.direct for r in results],
        "one_shot_best": [r.best_one_shot for r in results],
        "progressive": [r.progressive for r in results]}
    for tau in results[0].one_shot:
        columns[f"one_shot_tau={tau:g}"] = [r.one_shot[tau] for r in results]
    out = {}
    for name, col in columns.items():
        vals = np.array([max_steps if v is None else v for v in col], dtype=np.float64)
        se = float(vals.std(ddof=1) / np.sqrt(len(vals))) if len(vals) > 1 else math.nan
        out[name] = MethodSummary(name, tuple(col), float(vals.mean()), se,
                                  sum(v is None for v in col))
    return out
