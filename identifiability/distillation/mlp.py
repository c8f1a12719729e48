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

from seprank.core.random import SeedLike, as_generator
from seprank.core.types import FloatArray
from seprank.core.validation import check_int

__all__ = [
    "ParityStream",
    "Segment",
    "TwoLayerReLU",
    "sigmoid",
    "train_online",
]

#: Fresh inputs drawn per call of the data stream (amortises the generator's overhead).
CHUNK = 2048


def sigmoid(t: npt.ArrayLike) -> FloatArray:
    """The logistic function, overflow-free (via tanh).

    Examples
    --------
    >>> t = np.array([0.0, 2.0, -2.0, 1000.0, -1000.0])
    >>> sigmoid(t)                                        # no overflow at +-1000
    array([0.5       , 0.88079708, 0.11920292, 1.        , 0.        ])
    >>> bool(np.allclose(sigmoid(t) + sigmoid(-t), 1.0)), bool(np.isclose(sigmoid(2.0),
    ...                                                              1 / (1 + np.exp(-2.0))))
    (True, True)
    """
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * np.asarray(t, dtype=np.float64))))


@dataclass
class TwoLayerReLU:
    """:math:`f(x) = a^\\top\\sigma(Wx + b)` with mutable parameters (trained in place).

    Examples
    --------
    >>> net = TwoLayerReLU.init(5, 3, seed=0)
    >>> net(np.ones((2, 5))).shape
    (2,)
    """

    w: FloatArray
    b: FloatArray
    a: FloatArray

    @classmethod
    def init(cls, d: int, width: int, *, seed: SeedLike) -> TwoLayerReLU:
        d = check_int("d", d, minimum=1)
        m = check_int("width", width, minimum=1)
        rng = as_generator(seed)
        s_in, s_out = 1 / np.sqrt(d), 1 / np.sqrt(m)
        return cls(rng.uniform(-s_in, s_in, (m, d)), rng.uniform(-s_in, s_in, m),
                   rng.uniform(-s_out, s_out, m))

    def __call__(self, x: npt.ArrayLike) -> FloatArray:
        h = np.asarray(x, dtype=np.float64) @ self.w.T + self.b
        return np.asarray(np.maximum(h, 0.0) @ self.a)

    def copy(self) -> TwoLayerReLU:
        return TwoLayerReLU(self.w.copy(), self.b.copy(), self.a.copy())

    def sgd_step(self, x: FloatArray, target: FloatArray, lr: float) -> None:
        """One step on the mean cross-entropy of ``sigmoid(f(x))`` against ``target``."""
        h = x @ self.w.T + self.b
        r = np.maximum(h, 0.0)
        g = (sigmoid(r @ self.a) - target) / x.shape[0]           # d loss / d f
        grad_h = np.outer(g, self.a) * (h > 0)
        self.a -= lr * (r.T @ g)
        self.w -= lr * (grad_h.T @ x)
        self.b -= lr * grad_h.sum(axis=0)


class ParityStream:
    """Fresh uniform inputs of :math:`\\{\\pm1\\}^d` from one generator, in chunks."""

    def __init__(self, d: int, seed: SeedLike) -> None:
        self.d = check_int("d", d, minimum=1)
        self.rng = as_generator(seed)
        self._buffer = np.empty((0, self.d))

    def take(self, n: int) -> FloatArray:
        while self._buffer.shape[0] < n:
            fresh = self.rng.choice(np.array([-1.0, 1.0]), size=(max(CHUNK, n), self.d))
            self._buffer = np.vstack([self._buffer, fresh])
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out


@dataclass(frozen=True)
class Segment:
    """Train on ``teacher`` (None: the true labels) at temperature ``tau`` until step
    ``until`` (inclusive; None: to the end)."""

    teacher: TwoLayerReLU | None
    until: int | None = None
    tau: float = 1e-4


def train_online(model: TwoLayerReLU, support: Sequence[int], schedule: Sequence[Segment], *,
                 lr: float, max_steps: int, data_seed: SeedLike, batch_size: int = 1,
                 eval_every: int = 100, stop: Callable[[TwoLayerReLU], bool] | None = None,
                 on_eval: Callable[[int, TwoLayerReLU], None] | None = None) -> int | None:
    """Online SGD of ``model`` (in place) following ``schedule``.

    Every ``eval_every`` steps ``on_eval(step, model)`` is called, then ``stop(model)``; the
    first step at which ``stop`` is true is returned, or None if ``max_steps`` passed first
    (the run stopped short).  Raises if a parameter becomes non-finite (lower ``lr``).

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
    max_steps = check_int("max_steps", max_steps, minimum=1)
    eval_every = check_int("eval_every", eval_every, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    if not lr > 0:
        raise ValueError(f"lr must be positive, got {lr!r}")
    if not schedule or any(s.until is not None and s.until < 1 for s in schedule):
        raise ValueError("schedule needs at least one Segment, with until >= 1 (or None)")
    idx = list(support)
    stream = ParityStream(model.w.shape[1], data_seed)
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
            target = sigmoid(seg.teacher(x) / seg.tau)
        model.sgd_step(x, target, lr)
        if step % eval_every == 0:
            if not np.isfinite(model.a).all() or not np.isfinite(model.w).all():
                raise FloatingPointError(f"training diverged at step {step}; lower lr={lr}")
            if on_eval is not None:
                on_eval(step, model)
            if stop is not None and stop(model):
                return step
    return None
