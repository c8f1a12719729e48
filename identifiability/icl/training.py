r"""002, Algorithm 1: online SGD on the hinge loss, and the generalization errors (eqs. 4-5).

Each iteration draws a fresh batch of :math:`B` training prompts (task uniform over
:math:`T_{tr}`, context fraction :math:`\alpha`, length :math:`l_{tr}`, irrelevant range
:math:`K`) and takes :math:`W \leftarrow W - \eta\,\frac1B\sum_n \nabla_W \ell` for
:math:`W \in \{W_Q, W_K, W_V, W_O\}` (eq. 23); :math:`a` is fixed.  :math:`N = BT` samples in
all.  The paper does not give :math:`m, \eta, B, T, \delta`; the defaults
(:math:`m = 64, \eta = 1, B = 64, T = 2000, \delta = 0.2`, :math:`a_i = \pm1/m`) are the notes'
calibrated choices (notes §1.8, §5 A15).  The initialization uses one seed stream and the
prompts another (``split_seed(seed, 2)``).

Generalization is measured on fresh prompts as the classification error
:math:`\Pr(zF \le 0)` (§5; :math:`F = 0` counts as wrong) and the hinge loss
:math:`\mathbb E\,\ell` (eqs. 4-5, the quantity the theorems bound), each with its standard
error; the error also with a Clopper-Pearson upper confidence bound (its standard error is 0
when no error is seen).

References
----------
002, Algorithm 1 and eq. 23, §2.2 (eqs. 4-5), §5.  Notes: docs/notes/seed_icl_nonlinear.md
§1.7-1.8.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from identifiability.icl._checks import check_fraction, check_int, check_object, check_positive
from identifiability.icl._threads import single_blas_thread
from identifiability.icl.data import Patterns
from identifiability.icl.model import (
    GRADIENT_NAMES,
    ICLParams,
    _loss_and_gradient,
    forward,
    hinge_loss,
    initialize,
)
from identifiability.icl.prompts import PromptBatch, sample_prompts
from identifiability.icl.tasks import Task, _check_tasks, cyclic_tasks
from seprank.core.display import RichDisplay
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, split_seed
from seprank.core.types import FloatArray
from seprank.core.validation import check_bool, check_callable, check_choice, check_work

#: Elementary operations one SGD step costs beyond its matrix products (Python and numpy
#: overhead, measured: about 100 microseconds a step), for the work budget of :func:`train`.
STEP_OVERHEAD_OPS = 10**5

__all__ = ["Evaluation", "TrainedModel", "TrainingConfig", "evaluate", "sample_and_evaluate",
           "train"]



@dataclass(frozen=True)
class TrainingConfig:
    """Hyperparameters of Algorithm 1 and of the model (defaults: notes §1.8).

    Attributes
    ----------
    n_steps, batch_size, step_size : int, int, float
        :math:`T`, :math:`B`, :math:`\\eta \\le 1`.
    alpha : float
        Training context fraction :math:`\\alpha` (0.8 in §5).
    length : int
        :math:`l_{tr}` (20 in §5).
    noise : float
        :math:`K \\le 1/2`.
    m, m_a, m_b, delta, a_scale
        Model sizes and initialization (:func:`~identifiability.icl.model.initialize`).
    self_attend : bool
        Attention over the :math:`l+1` columns (default) or the contexts only.
    tasks : tuple of (a, b), optional
        :math:`T_{tr}`; None means the cyclic family of Lemma B.11.
    """

    n_steps: int = 2000
    batch_size: int = 64
    step_size: float = 1.0
    alpha: float = 0.8
    length: int = 20
    noise: float = 0.5
    m: int = 64
    m_a: int = 60
    m_b: int = 60
    delta: float = 0.2
    a_scale: Literal["1/m", "1/sqrt(m)"] = "1/m"
    self_attend: bool = True
    tasks: tuple[Task, ...] | None = None

    def __post_init__(self) -> None:
        check_int("n_steps", self.n_steps, 0)
        check_int("batch_size", self.batch_size, 1)
        check_fraction("step_size", self.step_size)
        check_fraction("alpha", self.alpha)
        check_bool("self_attend", self.self_attend)
        check_int("length", self.length, 0 if self.self_attend else 1)
        if check_positive("noise K", self.noise, allow_zero=True) > 0.5:
            raise ValueError(f"noise K must be <= 1/2 for training (002 §3.2), got {self.noise}")
        for name in ("m", "m_a", "m_b"):
            check_int(name, getattr(self, name), 1)
        if check_fraction("delta", self.delta) > 0.2:
            raise ValueError(f"delta must lie in (0, 0.2] (002 §2.3), got {self.delta}")
        check_choice("a_scale", self.a_scale, ("1/m", "1/sqrt(m)"))
        if self.tasks is not None:
            # the pairs' form now; their range once the patterns (M1) are known
            pairs = _check_tasks(self.tasks, 2**62)
            object.__setattr__(self, "tasks", tuple(pairs))

    def training_tasks(self, M1: int) -> tuple[Task, ...]:
        """The configured tasks, or Lemma B.11's cyclic tasks when none are given, validated.

        Parameters
        ----------
        M1 : int
            :math:`M_1`.

        Returns
        -------
        tuple of Task
            The training tasks.
        """
        return tuple(_check_tasks(self.tasks if self.tasks is not None else cyclic_tasks(M1),
                                  M1))


@dataclass(frozen=True, repr=False)
class TrainedModel(RichDisplay):
    """The output of :func:`train`.

    Attributes
    ----------
    params, initial : ICLParams
        :math:`\\Psi^{(T)}` and :math:`\\Psi^{(0)}`.
    steps : int
        Iterations run (fewer than ``config.n_steps`` when the callback stopped training).
    stopped_early : bool
        The callback asked to stop.
    batch_loss : ndarray
        Mean hinge loss of each training batch (before its update).
    config : TrainingConfig
        The configuration.
    patterns : Patterns
        The patterns trained on.
    tasks : tuple of Task
        The training tasks.
    """

    params: ICLParams
    initial: ICLParams
    config: TrainingConfig
    patterns: Patterns
    tasks: tuple[Task, ...]
    steps: int
    stopped_early: bool
    batch_loss: FloatArray = field(repr=False)


def train(patterns: Patterns, config: TrainingConfig | None = None, *, seed: SeedLike = None,
          callback: Callable[[int, ICLParams], bool] | None = None,
          callback_every: int = 1, limit_blas_threads: bool = True) -> TrainedModel:
    """Algorithm 1: online SGD from the paper's initialization.

    Parameters
    ----------
    patterns : Patterns
        The in-domain patterns (training data, eq. 6).
    config : TrainingConfig, optional
    seed : seed-like, keyword-only
        Split into an initialization stream and a data stream.
    callback : callable (step, params) -> bool, optional, keyword-only
        Called after every ``callback_every`` completed steps; returning True stops training
        (``stopped_early``).  It must not modify ``params``.
    callback_every : int, keyword-only
    limit_blas_threads : bool, keyword-only
        Run the loop with one BLAS thread (default; faster at these sizes, see
        ``identifiability.icl._threads``); False leaves the BLAS pool as it is.

    Returns
    -------
    TrainedModel
        The trained weights, the initial ones and the loss history.

    Raises
    ------
    FloatingPointError
        A batch loss became non-finite (the step size is too large).

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns
    >>> run = train(in_domain_patterns(), TrainingConfig(n_steps=20), seed=0)
    >>> run.steps, bool(run.batch_loss[-1] < run.batch_loss[0])
    (20, True)
    """
    check_object("patterns", patterns, Patterns, "build them with in_domain_patterns()")
    config = config if config is not None else TrainingConfig()
    check_object("config", config, TrainingConfig, "e.g. TrainingConfig(n_steps=...)")
    callback_every = check_int("callback_every", callback_every, 1)
    if callback is not None:
        check_callable("callback", callback, "a function (step, params) -> bool")
    limit_blas_threads = check_bool("limit_blas_threads", limit_blas_threads)
    tasks = config.training_tasks(patterns.M1)
    D, c = patterns.D, config
    check_work(c.n_steps * (c.batch_size * ((c.length + 1) * D * (c.m_a + c.m_b + 4)
                                            + c.m * c.m_b) + STEP_OVERHEAD_OPS),
               what=f"{c.n_steps} SGD steps on batches of {c.batch_size} prompts",
               fix="lower config.n_steps or config.batch_size")
    guard_memory(array_bytes(c.n_steps), what=f"the losses of {c.n_steps} steps",
                 fix="lower config.n_steps")
    init_rng, data_rng = split_seed(seed, 2)
    initial = initialize(patterns.d_x, patterns.d_y, m=config.m, m_a=config.m_a,
                         m_b=config.m_b, delta=config.delta, a_scale=config.a_scale,
                         seed=init_rng)
    params = initial.copy()
    losses = np.empty(config.n_steps)
    with single_blas_thread() if limit_blas_threads else contextlib.nullcontext():
        step, stopped = _sgd(params, patterns, tasks, config, data_rng, losses, callback,
                             callback_every)
    return TrainedModel(params, initial, config, patterns, tasks, step, stopped,
                        losses[:step])


def _sgd(params: ICLParams, patterns: Patterns, tasks: tuple[Task, ...],
         config: TrainingConfig, data_rng: np.random.Generator, losses: FloatArray,
         callback: Callable[[int, ICLParams], bool] | None, callback_every: int
         ) -> tuple[int, bool]:
    """The loop of Algorithm 1 (updates ``params`` in place); returns (steps, stopped)."""
    step = 0
    while step < config.n_steps:
        batch = sample_prompts(patterns, tasks, config.batch_size, config.length, config.alpha,
                               noise=config.noise, seed=data_rng)
        loss, grad = _loss_and_gradient(params, batch.P, batch.z, config.self_attend)
        if not math.isfinite(float(loss)):
            raise FloatingPointError(f"the batch loss is {loss} at step {step}: step_size = "
                                     f"{config.step_size} is too large for this model")
        losses[step] = loss
        for name in GRADIENT_NAMES:
            getattr(params, name)[...] -= config.step_size * grad[name]
        step += 1
        if callback is not None and step % callback_every == 0 and callback(step, params):
            return step, True
    return step, False


@dataclass(frozen=True, repr=False)
class Evaluation(RichDisplay):
    """Generalization on a batch of prompts.

    Attributes
    ----------
    error, error_se : float
        :math:`\\Pr(zF \\le 0)` and its standard error :math:`\\sqrt{p(1-p)/n}`.
    error_upper : float
        One-sided 97.5% Clopper-Pearson upper bound on the error.
    hinge, hinge_se : float
        Mean hinge loss and its standard error.
    n : int
    F : ndarray
        The outputs (kept for reuse).
    """

    error: float
    error_se: float
    error_upper: float
    hinge: float
    hinge_se: float
    n: int
    F: FloatArray = field(repr=False)


def _clopper_pearson_upper(k: int, n: int, level: float = 0.975) -> float:
    from scipy.stats import beta

    return 1.0 if k >= n else float(beta.ppf(level, k + 1, n - k))


def evaluate(params: ICLParams, prompts: PromptBatch, *, self_attend: bool = True
             ) -> Evaluation:
    """Classification error and hinge loss of ``params`` on ``prompts`` (eqs. 4-5).

    Parameters
    ----------
    params : ICLParams
        The weights.
    prompts : PromptBatch
        The prompts.
    self_attend : bool, keyword-only
        The query attends to itself (default True).

    Returns
    -------
    Evaluation
        Error and hinge loss with their standard errors.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns, sample_prompts
    >>> from identifiability.icl.model import initialize
    >>> b = sample_prompts(in_domain_patterns(), [(0, 1), (1, 0)], 500, 20, 0.8, seed=0)
    >>> ev = evaluate(initialize(30, 30, seed=0), b)       # untrained: about chance
    >>> 0.3 < ev.error < 0.7, ev.n
    (True, 500)
    """
    check_object("prompts", prompts, PromptBatch, "sample them with sample_prompts()")
    F = np.real(forward(params, prompts.P, self_attend=self_attend).F)
    z = prompts.z
    wrong = (z * F <= 0)
    h = hinge_loss(F, z)
    n = prompts.n
    p = float(wrong.mean())
    return Evaluation(p, math.sqrt(p * (1 - p) / n), _clopper_pearson_upper(int(wrong.sum()), n),
                      float(h.mean()), float(h.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf,
                      n, F)


def sample_and_evaluate(params: ICLParams, patterns: Patterns, tasks: Sequence[Task], *,
                        n: int, length: int, alpha: float, noise: float = 0.5,
                        self_attend: bool = True, seed: SeedLike = None) -> Evaluation:
    """:func:`evaluate` on ``n`` fresh prompts from :func:`sample_prompts`.

    Parameters
    ----------
    params : ICLParams
        The weights.
    patterns : Patterns
        The patterns.
    tasks : sequence of Task
        The tasks drawn from.
    n : int, keyword-only
        Number of prompts.
    length : int, keyword-only
        Context length l.
    alpha : float, keyword-only
        α.
    noise : float, keyword-only
        Noise scale (default 0.5).
    self_attend : bool, keyword-only
        The query attends to itself (default True).
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the prompts.

    Returns
    -------
    Evaluation
        Error and hinge loss with their standard errors.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns
    >>> from identifiability.icl.model import initialize
    >>> ev = sample_and_evaluate(initialize(30, 30, seed=0), in_domain_patterns(),
    ...                          [(0, 1), (1, 0)], n=500, length=20, alpha=0.8, seed=0)
    >>> 0.3 < ev.error < 0.7, ev.n                     # untrained: about chance
    (True, 500)
    """
    check_object("params", params, ICLParams, "build it with initialize() or train()")
    self_attend = check_bool("self_attend", self_attend)
    batch = sample_prompts(patterns, tasks, n, length, alpha, noise=noise, seed=seed)
    return evaluate(params, batch, self_attend=self_attend)
