r"""A one-hidden-layer ReLU network trained by online SGD on sparse parity, with or without a
teacher (004 §4.2.1, §4.2.7.1 at toy scale).

:math:`f(x) = \sum_{i\le m}a_i\sigma(\langle w_i,x\rangle + b_i)` is the logit difference of
the two classes of Definition 23 (label :math:`y = \chi_S(x)\in\{\pm1\}`, class 1 iff
:math:`y = 1`), so the 2-class softmax is :math:`p(x) = \mathrm{sigmoid}(f(x))`.  Losses
(eqs. 4.90-4.91): :math:`\ell = \mathrm{KL}(e_y\|p_S)` against the label and
:math:`\ell_D = \mathrm{KL}(p_T(x;\tau)\|p_S)` against the teacher at temperature τ,
:math:`p_T(x;\tau) = \mathrm{sigmoid}(f_T(x)/\tau)` (τ = 1e-4: nearly hard labels).  Both have
gradient :math:`(p_S - t)\nabla f` with target t = (1 + y)/2 or :math:`p_T(x;\tau)`.

Initialisation as PyTorch's default linear layers: :math:`w_{ij}, b_i\sim U(\pm d^{-1/2})`,
:math:`a_i\sim U(\pm m^{-1/2})`.  Every step draws ``batch_size`` fresh uniform inputs (online
SGD: steps x batch = samples).

References
----------
004 §4.2.1 (eqs. 4.90-4.91, temperature), Definition 23, §4.2.7.1 (MLP experiments).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from seprank.core.display import RichDisplay
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import FloatArray
from seprank.core.validation import (
    check_array,
    check_callable,
    check_float,
    check_indices,
    check_instance,
    check_int,
    check_work,
)

__all__ = [
    "ParityStream",
    "Segment",
    "TwoLayerReLU",
    "sigmoid",
    "train_online",
]

#: Fresh inputs drawn per call of the data stream (amortises the generator's overhead).
CHUNK = 2048
#: Elementary operations one SGD step costs beyond its matrix products (Python and numpy
#: overhead, about 20 microseconds), for the work budget of :func:`train_online`.
STEP_OVERHEAD_OPS = 2 * 10**4


def sigmoid(t: npt.ArrayLike) -> FloatArray:
    """The logistic function, overflow-free (via tanh).

    Parameters
    ----------
    t : array_like
        Any real values.

    Returns
    -------
    numpy.ndarray
        :math:`1/(1 + e^{-t})`.

    Examples
    --------
    >>> t = np.array([0.0, 2.0, -2.0, 1000.0, -1000.0])
    >>> sigmoid(t)                                        # no overflow at +-1000
    array([0.5       , 0.88079708, 0.11920292, 1.        , 0.        ])
    >>> bool(np.allclose(sigmoid(t) + sigmoid(-t), 1.0)), bool(np.isclose(sigmoid(2.0),
    ...                                                              1 / (1 + np.exp(-2.0))))
    (True, True)
    """
    arr = check_array("t", t, finite=False, min_size=0)
    if np.isnan(arr).any():
        raise ValueError("t contains NaN (sigmoid(NaN) is no probability)")
    return _sigmoid(arr)


def _sigmoid(t: FloatArray) -> FloatArray:
    """:func:`sigmoid` without the checks (the training loop's own values)."""
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * t)))


@dataclass(repr=False)
class TwoLayerReLU(RichDisplay):
    """:math:`f(x) = a^\\top\\sigma(Wx + b)` with mutable parameters (trained in place).

    Parameters
    ----------
    w : numpy.ndarray
        W, shape (m, d).
    b : numpy.ndarray
        b, length m.
    a : numpy.ndarray
        a, length m.

    Examples
    --------
    >>> net = TwoLayerReLU.init(5, 3, seed=0)
    >>> net(np.ones((2, 5))).shape
    (2,)
    """

    w: FloatArray
    b: FloatArray
    a: FloatArray

    def __post_init__(self) -> None:
        self.w = check_array("w", self.w, ndim=2, what="(width, d) first-layer weights")
        m = self.w.shape[0]
        self.b = check_array("b", self.b, shape=(m,), what="first-layer biases")
        self.a = check_array("a", self.a, shape=(m,), what="output weights")

    @classmethod
    def init(cls, d: int, width: int, *, seed: SeedLike) -> TwoLayerReLU:
        """The network's random initialisation.

        Parameters
        ----------
        d : int
            Input dimension.
        width : int
            m, the number of neurons.
        seed : int or numpy.random.Generator, keyword-only
            Seeds the weights.

        Returns
        -------
        TwoLayerReLU
            The network.
        """
        d = check_int("d", d, minimum=1)
        m = check_int("width", width, minimum=1)
        rng = as_generator(seed)
        guard_memory(array_bytes((m, d + 2)), what=f"a width-{m} network on {d} inputs",
                     fix="lower width or d")
        s_in, s_out = 1 / np.sqrt(d), 1 / np.sqrt(m)
        return cls(rng.uniform(-s_in, s_in, (m, d)), rng.uniform(-s_in, s_in, m),
                   rng.uniform(-s_out, s_out, m))

    def __call__(self, x: npt.ArrayLike) -> FloatArray:
        return self._f(self._inputs(x))

    def _f(self, x: FloatArray) -> FloatArray:
        h = x @ self.w.T + self.b
        return np.asarray(np.maximum(h, 0.0) @ self.a)

    def _inputs(self, x: npt.ArrayLike) -> FloatArray:
        d = self.w.shape[1]
        arr = check_array("x", x, ndim=(1, 2), min_size=0)
        if arr.shape[-1] != d:
            raise ValueError(f"x must have {d} columns (one per input coordinate), got shape "
                             f"{arr.shape}")
        return arr

    def copy(self) -> TwoLayerReLU:
        """A copy with its own arrays.

        Returns
        -------
        TwoLayerReLU
            The copy.
        """
        return TwoLayerReLU(self.w.copy(), self.b.copy(), self.a.copy())

    def sgd_step(self, x: FloatArray, target: FloatArray, lr: float) -> None:
        """One step on the mean cross-entropy of ``sigmoid(f(x))`` against ``target``.

        Parameters
        ----------
        x : numpy.ndarray
            Inputs, shape (n, d).
        target : numpy.ndarray
            Targets in [0, 1], length n.
        lr : float
            The learning rate.
        """
        x = self._inputs(x)
        if x.ndim != 2:
            raise ValueError(f"x must be a batch (n, d), got shape {x.shape}")
        target = check_array("target", target, shape=(x.shape[0],), min_size=0)
        if np.any((target < 0) | (target > 1)):
            raise ValueError("target must hold probabilities in [0, 1]")
        self._sgd_step(x, target, check_float("lr", lr, positive=True))

    def _sgd_step(self, x: FloatArray, target: FloatArray, lr: float) -> None:
        h = x @ self.w.T + self.b
        r = np.maximum(h, 0.0)
        g = (_sigmoid(r @ self.a) - target) / x.shape[0]           # d loss / d f
        grad_h = np.outer(g, self.a) * (h > 0)
        self.a -= lr * (r.T @ g)
        self.w -= lr * (grad_h.T @ x)
        self.b -= lr * grad_h.sum(axis=0)


class ParityStream:
    """Fresh uniform inputs of :math:`\\{\\pm1\\}^d` from one generator, in chunks.

    Parameters
    ----------
    d : int
        The dimension.
    seed : int or numpy.random.Generator
        The stream.
    """

    def __init__(self, d: int, seed: SeedLike) -> None:
        self.d = check_int("d", d, minimum=1)
        self.rng = as_generator(seed)
        self._buffer = np.empty((0, self.d))

    def take(self, n: int) -> FloatArray:
        """The next ``n`` inputs, shape ``(n, d)``.

        Parameters
        ----------
        n : int
            Number of inputs.

        Returns
        -------
        numpy.ndarray
            Shape (n, d).
        """
        n = check_int("n", n, minimum=0)
        guard_memory(array_bytes((max(CHUNK, n) + self._buffer.shape[0], self.d)) * 2,
                     what=f"{n} inputs of {{-1, 1}}^{self.d}", fix="take fewer inputs (lower n)")
        while self._buffer.shape[0] < n:
            fresh = self.rng.choice(np.array([-1.0, 1.0]), size=(max(CHUNK, n), self.d))
            self._buffer = np.vstack([self._buffer, fresh])
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out


@dataclass(frozen=True)
class Segment:
    """Train on ``teacher`` (None: the true labels) at temperature ``tau`` until step
    ``until`` (inclusive; None: to the end).

    Parameters
    ----------
    teacher : TwoLayerReLU or None
        The teacher (None: the true labels).
    until : int, optional
        Last step of the segment (None: the end).
    tau : float, default 1e-4
        The temperature.
    """

    teacher: TwoLayerReLU | None
    until: int | None = None
    tau: float = 1e-4

    def __post_init__(self) -> None:
        if self.teacher is not None:
            check_instance("teacher", self.teacher, TwoLayerReLU,
                           expected="a TwoLayerReLU or None (the true labels)",
                           hint="e.g. a checkpoint of train_teacher()")
        if self.until is not None:
            check_int("until", self.until, minimum=1)
        check_float("tau", self.tau, positive=True, hint=" (a temperature)")


def train_online(model: TwoLayerReLU, support: Sequence[int], schedule: Sequence[Segment], *,
                 lr: float, max_steps: int, data_seed: SeedLike, batch_size: int = 1,
                 eval_every: int = 100, stop: Callable[[TwoLayerReLU], bool] | None = None,
                 on_eval: Callable[[int, TwoLayerReLU], None] | None = None) -> int | None:
    """Online SGD of ``model`` (in place) following ``schedule``.

    Every ``eval_every`` steps ``on_eval(step, model)`` is called, then ``stop(model)``; the
    first step at which ``stop`` is true is returned, or None if ``max_steps`` passed first
    (the run stopped short).  Raises if a parameter becomes non-finite (lower ``lr``).

    Parameters
    ----------
    model : TwoLayerReLU
        Trained in place.
    support : sequence of int
        S of the parity labels.
    schedule : sequence of Segment
        What to train on, when.
    lr : float, keyword-only
        The learning rate.
    max_steps : int, keyword-only
        The step budget.
    data_seed : int or numpy.random.Generator, keyword-only
        The data stream.
    batch_size : int, keyword-only
        Inputs per step (default 1).
    eval_every : int, keyword-only
        Evaluation interval (default 100).
    stop : callable, optional, keyword-only
        ``stop(model)`` -> True ends the run.
    on_eval : callable, optional, keyword-only
        ``on_eval(step, model)`` at every evaluation.

    Returns
    -------
    int or None
        The stopping step, or None when the run stopped short.

    Examples
    --------
    >>> net = TwoLayerReLU.init(4, 16, seed=0)
    >>> x = np.array([[a, b, c, d] for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)
    ...               for d in (-1, 1)], dtype=float)          # all of {-1, 1}^4
    >>> perfect = lambda m: bool(np.all(np.sign(m(x)) == x[:, 0] * x[:, 1]))
    >>> step = train_online(net, (0, 1), [Segment(None)], lr=0.05, max_steps=20_000,
    ...                     data_seed=1, stop=perfect)
    >>> step is not None and step % 100 == 0 and perfect(net)   # checked every eval_every steps
    True
    >>> train_online(TwoLayerReLU.init(4, 16, seed=0), (0, 1), [Segment(None)], lr=0.05,
    ...              max_steps=50, data_seed=1, eval_every=10, stop=lambda m: False) is None
    True
    """
    check_instance("model", model, TwoLayerReLU, expected="a TwoLayerReLU",
                   hint="build it with TwoLayerReLU.init(d, width, seed=...)")
    width, d = model.w.shape
    idx = list(check_indices("support", support, size=d, min_length=1))
    if isinstance(schedule, str | bytes) or not isinstance(schedule, Sequence) or not all(
            isinstance(s, Segment) for s in schedule):
        raise TypeError(f"schedule must be a list of Segment, got {schedule!r}")
    if not schedule:
        raise ValueError("schedule needs at least one Segment, with until >= 1 (or None)")
    max_steps = check_int("max_steps", max_steps, minimum=1)
    eval_every = check_int("eval_every", eval_every, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    lr = check_float("lr", lr, positive=True)
    for name, fn in (("stop", stop), ("on_eval", on_eval)):
        if fn is not None:
            check_callable(name, fn)
    teacher_width = max((s.teacher.w.shape[0] for s in schedule if s.teacher is not None),
                        default=0)
    check_work(max_steps * (3 * batch_size * (width + teacher_width) * (d + 1)
                            + STEP_OVERHEAD_OPS),
               what=f"{max_steps} SGD steps of a width-{width} network on batches of "
                    f"{batch_size}", fix="lower max_steps or batch_size")
    guard_memory(array_bytes((max(CHUNK, batch_size), d)) * 3
                 + array_bytes((batch_size, width + teacher_width)) * 4,
                 what=f"batches of {batch_size} inputs and their activations",
                 fix="lower batch_size")
    stream = ParityStream(d, as_generator(data_seed, name="data_seed"))
    ends = [s.until for s in schedule]                            # None: open-ended
    segment = 0
    for step in range(1, max_steps + 1):
        while segment < len(schedule) - 1 and (end := ends[segment]) is not None and step > end:
            segment += 1
        seg = schedule[segment]
        x = stream.take(batch_size)
        if seg.teacher is None:
            target = (1.0 + np.prod(x[:, idx], axis=1)) / 2
        else:
            target = _sigmoid(seg.teacher._f(x) / seg.tau)
        model._sgd_step(x, target, lr)
        if step % eval_every == 0:
            if not np.isfinite(model.a).all() or not np.isfinite(model.w).all():
                raise FloatingPointError(f"training diverged at step {step}; lower lr={lr}")
            if on_eval is not None:
                on_eval(step, model)
            if stop is not None and stop(model):
                return step
    return None
