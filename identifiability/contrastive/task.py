"""The contrastive task of paper 004 §2.1.1.2 (pairs, labels, contrast distributions).

**Task (the thesis', ``pairs="disjoint"``, the default).** From observations
:math:`\\tilde x_0, \\tilde x_\\eta, \\dots, \\tilde x_{(2m-1)\\eta}` of a stationary process
(:math:`2m = \\lfloor T/\\eta \\rfloor`), form the *disjoint* pairs
:math:`(x_{2i\\eta}, x'_{2i\\eta})`, :math:`i = 0..m-1`, with :math:`x_{2i\\eta} =
\\tilde x_{2i\\eta}` and, independently with probability 1/2 each,

* :math:`x' = \\tilde x_{(2i+1)\\eta}`, label 1 (positive: a draw from :math:`p_*^\\eta(x,\\cdot)`);
* :math:`x' \\sim q`, label 0 (negative).

It sees about :math:`m/2 = T/(4\\eta)` positive transitions of the :math:`2m - 1` in the data.

**Our variant (``pairs="sliding"``, not the thesis' task).** Every consecutive transition
:math:`(\\tilde x_{i\\eta}, \\tilde x_{(i+1)\\eta})`, :math:`i = 0..n-2`, is a positive, and
each conditioning point :math:`z = \\tilde x_{i\\eta}` also gets one negative
:math:`x' \\sim q(\\cdot\\mid z)`: :math:`n - 1` positives and :math:`n - 1` negatives, exactly
balanced, each row with the marginal law of the thesis' task (z ~ π, z' from
:math:`p_*^\\eta` or q with prior 1/2).  Lemma 1 therefore still identifies
:math:`h^* = p_*^\\eta/(p_*^\\eta + q)`, but the pairs overlap and are dependent, so the
sample-complexity analysis of §2.1.2 (Lemmas 2–4: the pair sequence of the *disjoint*
construction is Markov with the mixing of the trajectory) does not cover it.

q may be global (:math:`q(z')`, as in §2.1.1.2) or conditional (:math:`q(z'\\mid z)`, as the
proof of Theorem 3 uses, eq. 2.34).  Lemma 1 holds for both.

Lemma 1, eq. 2.12 and the normalisation question are in
:mod:`identifiability.contrastive.implied_kernel` (re-exported here).

References
----------
004, §2.1.1.2 (task, eqs. 2.3–2.5), §2.1.1.3 (Lemma 1,
eqs. 2.10–2.11), §2.1.1.4.2 (eq. 2.12), §2.1.2.1 (Lemma 4, disjoint pairs), §2.1.3.3
(eq. 2.34, the conditional q).  The sliding construction is ours, not the thesis'.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np
import numpy.typing as npt

from identifiability.contrastive.implied_kernel import (
    ZERO_DENSITY_MESSAGE,
    ImpliedKernel,
    bayes_classifier,
    kernel_from_classifier,
    kernel_from_logit,
)
from identifiability.contrastive.kernels import (
    ConditionalDensity,
    FloatArray,
    _check_density,
)
from identifiability.contrastive.processes import check_eta
from seprank.core import (
    SeedLike,
    as_generator,
    check_array,
    check_float,
    guard_memory,
    split_seed,
)

__all__ = [
    "PAIR_CONSTRUCTIONS",
    "ContrastiveTask",
    "ImpliedKernel",
    "PairConstruction",
    "UniformBoxContrast",
    "bayes_classifier",
    "contrastive_task_from_process",
    "kernel_from_classifier",
    "kernel_from_logit",
    "make_contrastive_task",
]

PairConstruction = Literal["disjoint", "sliding"]
PAIR_CONSTRUCTIONS: tuple[str, ...] = ("disjoint", "sliding")


@dataclass(frozen=True)
class ContrastiveTask:
    """A labelled sample of the contrastive task.

    Attributes
    ----------
    z, z_prime : ndarray, shape (n_pairs, d)
        The pairs.  ``pairs="disjoint"``: :math:`(x_{2i\\eta}, x'_{2i\\eta})`, i = 0..m-1.
        ``pairs="sliding"``: rows 0..n-2 are the positives
        :math:`(\\tilde x_{i\\eta}, \\tilde x_{(i+1)\\eta})`, rows n-1..2n-3 the negatives
        :math:`(\\tilde x_{i\\eta}, x'_i)` on the same conditioning points.
    label : ndarray of int8, shape (n_pairs,)
        1 for positives (:math:`x'` the next observation), 0 for negatives (:math:`x'\\sim q`).
        The class prior is 1/2 in both constructions (fair coins; exactly balanced for
        ``"sliding"``), which the estimators and eq. 2.12 assume (Lemma 1).
    eta : float
        The lag η.
    pairs : {'disjoint', 'sliding'}
        How the pairs were formed (see :func:`make_contrastive_task`).
    """

    z: FloatArray
    z_prime: FloatArray
    label: npt.NDArray[np.int8]
    eta: float
    pairs: PairConstruction = "disjoint"

    @property
    def n_pairs(self) -> int:
        return int(self.label.size)

    @property
    def n_positive(self) -> int:
        return int(self.label.sum())

    @property
    def dim(self) -> int:
        return int(self.z.shape[1])


class UniformBoxContrast:
    """A global uniform contrast on a box ``[low, high]^d`` — full support is *not* guaranteed
    (useful to show the zero-density error; positives outside the box are refused).

    Parameters
    ----------
    low, high : array_like
        The corners of the box (scalars or vectors of length d, low < high).
    """

    def __init__(self, low: npt.ArrayLike, high: npt.ArrayLike) -> None:
        self.low = np.atleast_1d(check_array("low", low, ndim=(0, 1)))
        self.high = np.atleast_1d(check_array("high", high, ndim=(0, 1)))
        if self.low.shape != self.high.shape or np.any(self.high <= self.low):
            raise ValueError("need low < high, same shape")
        self.dim = int(self.low.size)
        self._logvol = float(np.sum(np.log(self.high - self.low)))

    def logpdf(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray:
        r"""The log-density of the uniform law on the box (``-inf`` outside), whatever ``z``.

        Parameters
        ----------
        z, z_prime : array_like
            Points of shape ``(..., d)``.

        Returns
        -------
        numpy.ndarray
            :math:`\log q(z'|z)`.
        """
        zp = np.asarray(z_prime, dtype=float)
        inside = np.all((zp >= self.low) & (zp <= self.high), axis=-1)
        return np.where(inside, -self._logvol, -np.inf)

    def sample(self, z: npt.ArrayLike, rng: np.random.Generator | int | None) -> FloatArray:
        """Uniform draws in the box, one per row of ``z``.

        Parameters
        ----------
        z : array_like
            Points of shape ``(n, d)``.
        rng : numpy.random.Generator, int or None
            The random stream (or its seed).

        Returns
        -------
        numpy.ndarray
            Shape ``(n, d)``.
        """
        n = np.asarray(z).shape[0]
        return as_generator(rng).uniform(self.low, self.high, size=(n, self.dim))


def _points(x: npt.ArrayLike, what: str) -> FloatArray:
    arr = check_array(what, x, finite=False, min_size=0)
    if arr.ndim != 2:
        raise ValueError(f"{what} must have shape (n, d); got {arr.shape} (use x[:, None] in 1-D)")
    if not np.all(np.isfinite(arr)):
        bad = int(np.argwhere(~np.all(np.isfinite(arr), axis=1))[0, 0])
        raise ValueError(f"{what} contains NaN or infinite values (first at row {bad})")
    return arr


def make_contrastive_task(observations: npt.ArrayLike, eta: float, contrast: ConditionalDensity,
                          *, pairs: PairConstruction = "disjoint",
                          seed: SeedLike = None) -> ContrastiveTask:
    """Build the contrastive task of §2.1.1.2 (or our sliding-pair variant) from observations
    at multiples of η.

    Parameters
    ----------
    observations : array_like, shape (n, d)
        :math:`\\tilde x_{i\\eta}`, consecutive rows η apart.
    eta : float
        The lag (> 0); stored with the task.
    contrast : ConditionalDensity
        q; global (``GaussianKernel.global_gaussian``, π) or conditional
        (``GaussianKernel.local``).
    pairs : {'disjoint', 'sliding'}
        How the pairs are formed.

        * ``'disjoint'`` (default) — the thesis' task, §2.1.1.2 exactly: the m = ⌊n/2⌋
          disjoint pairs :math:`(\\tilde x_{2i\\eta}, \\cdot)` (an odd last row is dropped);
          each is, by a fair coin, the positive :math:`(\\tilde x_{2i\\eta},
          \\tilde x_{(2i+1)\\eta})` or a negative :math:`(\\tilde x_{2i\\eta}, x')`,
          :math:`x' \\sim q(\\cdot\\mid\\tilde x_{2i\\eta})`.  About :math:`n/4` positives.
        * ``'sliding'`` — **our variant, not the thesis' task**: all n − 1 consecutive
          transitions :math:`(\\tilde x_{i\\eta}, \\tilde x_{(i+1)\\eta})` are positives, and every
          conditioning point :math:`\\tilde x_{i\\eta}` (i = 0..n-2) also gets one negative
          :math:`x'_i \\sim q(\\cdot\\mid\\tilde x_{i\\eta})` — 2(n − 1) pairs, classes exactly
          balanced, so Lemma 1's :math:`h^* = p_*^\\eta/(p_*^\\eta + q)` (prior 1/2) is still
          the population optimum.  The pairs overlap (the second point of one positive is the
          first of the next) and are dependent: the thesis' sample-complexity analysis
          (Theorem 1, via Lemmas 2–4 on the *disjoint* pair sequence) does not cover this
          construction.  It uses every transition, as a maximum-likelihood estimator does.
    seed : int, SeedSequence or Generator
        Randomness of the labels and of the negatives (the *task* stream; simulate the
        trajectory with another stream).  ``'sliding'`` draws only the negatives from it.

    Returns
    -------
    ContrastiveTask
        The labelled pairs.

    Raises
    ------
    ValueError
        Non-finite observations, fewer than 2 observations, η ≤ 0, a dimension mismatch, an
        unknown ``pairs``, or a q with zero density at a positive pair (q must cover the
        support of :math:`p_*`).

    Examples
    --------
    >>> from identifiability.contrastive.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> x = ou.simulate(10, 0.5, seed=0)
    >>> task = make_contrastive_task(x, 0.5, ou.stationary, seed=1)
    >>> task.n_pairs, task.z.shape
    (5, (5, 1))
    >>> sliding = make_contrastive_task(x, 0.5, ou.stationary, pairs="sliding", seed=1)
    >>> sliding.n_pairs, sliding.n_positive       # 9 transitions, each with one negative
    (18, 9)
    """
    if pairs not in PAIR_CONSTRUCTIONS:
        raise ValueError(f"pairs must be 'disjoint' (the thesis' task, §2.1.1.2) or 'sliding' "
                         f"(every transition, our variant); got {pairs!r}")
    e = check_eta(eta)
    _check_density("contrast", contrast)
    x = _points(observations, "observations")
    if x.shape[0] < 2:
        raise ValueError("need at least 2 observations to form one pair")
    if getattr(contrast, "dim", x.shape[1]) != x.shape[1]:
        raise ValueError(f"contrast dimension {contrast.dim} != data dimension {x.shape[1]}")
    rng = as_generator(seed)
    if pairs == "sliding":
        return _sliding_task(x, e, contrast, rng)
    m = x.shape[0] // 2
    z = np.ascontiguousarray(x[0:2 * m:2])
    nxt = np.ascontiguousarray(x[1:2 * m:2])
    label = (rng.random(m) < 0.5).astype(np.int8)
    neg = label == 0
    z_prime = nxt.copy()
    if np.any(neg):
        z_prime[neg] = np.asarray(contrast.sample(z[neg], rng), dtype=float)
    pos = ~neg
    if np.any(pos):
        _check_positive_support(contrast, z[pos], z_prime[pos], np.flatnonzero(pos))
    return ContrastiveTask(z, z_prime, label, e, "disjoint")


def _check_positive_support(contrast: ConditionalDensity, z: FloatArray, z_prime: FloatArray,
                            rows: npt.NDArray[np.intp]) -> None:
    lq = contrast.logpdf(z, z_prime)
    if np.any(~np.isfinite(lq)):
        i = int(np.argwhere(~np.isfinite(lq))[0, 0])
        raise ValueError(ZERO_DENSITY_MESSAGE.format(where=f"the positive pair {rows[i]}"))


def _sliding_task(x: FloatArray, eta: float, contrast: ConditionalDensity,
                  rng: np.random.Generator) -> ContrastiveTask:
    """All n − 1 transitions as positives, one q-negative per conditioning point."""
    start = np.ascontiguousarray(x[:-1])
    nxt = np.ascontiguousarray(x[1:])
    n_tr = start.shape[0]
    _check_positive_support(contrast, start, nxt, np.arange(n_tr))
    negatives = np.asarray(contrast.sample(start, rng), dtype=float)
    z = np.concatenate([start, start])
    z_prime = np.concatenate([nxt, negatives])
    label = np.concatenate([np.ones(n_tr, dtype=np.int8), np.zeros(n_tr, dtype=np.int8)])
    return ContrastiveTask(z, z_prime, label, eta, "sliding")


class _Simulates(Protocol):
    def simulate(self, n_obs: int, eta: float, *, seed: SeedLike = None) -> FloatArray: ...


def contrastive_task_from_process(process: _Simulates, horizon: float, eta: float,
                                  contrast: ConditionalDensity, *,
                                  pairs: PairConstruction = "disjoint",
                                  seed: SeedLike = None) -> ContrastiveTask:
    """Simulate :math:`2m = \\lfloor T/\\eta\\rfloor` observations over the time horizon
    T = ``horizon`` (rounded down to an even count) and build the task; ``pairs`` is passed to
    :func:`make_contrastive_task` (default ``'disjoint'``, the thesis' task; ``'sliding'`` is our
    variant).

    The seed is split (``SeedSequence.spawn``) into a trajectory stream and a task stream, so
    the same seed gives the same trajectory for both constructions.

    Parameters
    ----------
    process : process with ``simulate``
        The process to observe.
    horizon : float
        Total observation time.
    eta : float
        The lag.
    contrast : ConditionalDensity
        q.
    pairs : {'disjoint', 'sliding'}, keyword-only
        How the pairs are formed (:func:`make_contrastive_task`).
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the trajectory and the task (separate streams).

    Returns
    -------
    ContrastiveTask
        The labelled pairs.

    Examples
    --------
    >>> from identifiability.contrastive.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> task = contrastive_task_from_process(ou, horizon=100, eta=0.5, contrast=ou.stationary,
    ...                                      seed=0)
    >>> task.n_pairs
    100
    >>> contrastive_task_from_process(ou, horizon=100, eta=0.5, contrast=ou.stationary,
    ...                               pairs="sliding", seed=0).n_pairs      # 2 x 199 transitions
    398
    """
    e = check_eta(eta)
    horizon = check_float("horizon (the time T)", horizon, positive=True)
    if not callable(getattr(process, "simulate", None)):
        raise TypeError(f"process must have simulate(n_obs, eta, seed=...) (an "
                        f"OrnsteinUhlenbeck, LangevinDiffusion or FiniteStateChain), got "
                        f"{type(process).__name__}")
    _check_density("contrast", contrast)
    dim = int(getattr(process, "dim", 1))
    n_obs = horizon / e
    # trajectory, pairs (z, z'), labels and the negatives: ~6 arrays of n_obs x dim floats
    guard_memory(6 * 8 * n_obs * dim,
                 what=f"a task over horizon T = {horizon:g} at lag eta = {e:g} "
                      f"({n_obs:.3g} observations)",
                 fix="use a shorter horizon or a larger eta")
    n = math.floor(horizon / e + 1e-9)
    n -= n % 2
    if n < 2:
        raise ValueError(f"horizon/eta = {horizon / e:.3g} gives fewer than 2 observations")
    traj_rng, task_rng = split_seed(seed, 2)
    x = process.simulate(n, e, seed=traj_rng)
    return make_contrastive_task(x, e, contrast, pairs=pairs, seed=task_rng)
