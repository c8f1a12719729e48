"""The contrastive task of seed 004 §2.1.1.2 (pairs, labels, contrast distributions).

**Task.** From observations
:math:`\\tilde x_0, \\tilde x_\\eta, \\dots, \\tilde x_{(2m-1)\\eta}` of a stationary process
(:math:`2m = \\lfloor T/\\eta \\rfloor`), form the *disjoint* pairs
:math:`(x_{2i\\eta}, x'_{2i\\eta})`, :math:`i = 0..m-1`, with :math:`x_{2i\\eta} =
\\tilde x_{2i\\eta}` and, independently with probability 1/2 each,

* :math:`x' = \\tilde x_{(2i+1)\\eta}`, label 1 (positive: a draw from :math:`p_*^\\eta(x,\\cdot)`);
* :math:`x' \\sim q`, label 0 (negative).

q may be global (:math:`q(z')`, as in §2.1.1.2) or conditional (:math:`q(z'\\mid z)`, as the
proof of Theorem 3 uses, eq. 2.34).  Lemma 1 holds for both.

Lemma 1, eq. 2.12 and the normalisation question are in
:mod:`identifiability.implied_kernel` (re-exported here).

References
----------
Seed ``004_6a230b9a9faf2198.txt``, §2.1.1.2 (task, eqs. 2.3–2.5), §2.1.1.3 (Lemma 1,
eqs. 2.10–2.11), §2.1.1.4.2 (eq. 2.12), §2.1.3.3 (eq. 2.34, the conditional q).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from identifiability.implied_kernel import (
    ZERO_DENSITY_MESSAGE,
    ImpliedKernel,
    bayes_classifier,
    kernel_from_classifier,
    kernel_from_logit,
)
from identifiability.kernels import (
    ConditionalDensity,
    FloatArray,
    SeedLike,
    as_generator,
    split_seed,
)
from identifiability.processes import check_eta

__all__ = [
    "ContrastiveTask",
    "ImpliedKernel",
    "UniformBoxContrast",
    "bayes_classifier",
    "contrastive_task_from_process",
    "kernel_from_classifier",
    "kernel_from_logit",
    "make_contrastive_task",
]


@dataclass(frozen=True)
class ContrastiveTask:
    """A labelled sample of the contrastive task.

    Attributes
    ----------
    z, z_prime : ndarray, shape (m, d)
        The pairs :math:`(x_{2i\\eta}, x'_{2i\\eta})`.
    label : ndarray of int8, shape (m,)
        1 for positives (:math:`x' = \\tilde x_{(2i+1)\\eta}`), 0 for negatives (:math:`x'\\sim q`).
    eta : float
        The lag η.
    """

    z: FloatArray
    z_prime: FloatArray
    label: npt.NDArray[np.int8]
    eta: float

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
    (useful to show the zero-density error; positives outside the box are refused)."""

    def __init__(self, low: npt.ArrayLike, high: npt.ArrayLike) -> None:
        self.low = np.atleast_1d(np.asarray(low, dtype=float))
        self.high = np.atleast_1d(np.asarray(high, dtype=float))
        if self.low.shape != self.high.shape or np.any(self.high <= self.low):
            raise ValueError("need low < high, same shape")
        self.dim = int(self.low.size)
        self._logvol = float(np.sum(np.log(self.high - self.low)))

    def logpdf(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> FloatArray:
        zp = np.asarray(z_prime, dtype=float)
        inside = np.all((zp >= self.low) & (zp <= self.high), axis=-1)
        return np.where(inside, -self._logvol, -np.inf)

    def sample(self, z: npt.ArrayLike, rng: np.random.Generator | int | None) -> FloatArray:
        n = np.asarray(z).shape[0]
        return as_generator(rng).uniform(self.low, self.high, size=(n, self.dim))


def _points(x: npt.ArrayLike, what: str) -> FloatArray:
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 2:
        raise ValueError(f"{what} must have shape (n, d); got {arr.shape} (use x[:, None] in 1-D)")
    if not np.all(np.isfinite(arr)):
        bad = int(np.argwhere(~np.all(np.isfinite(arr), axis=1))[0, 0])
        raise ValueError(f"{what} contains NaN or infinite values (first at row {bad})")
    return arr


def make_contrastive_task(observations: npt.ArrayLike, eta: float, contrast: ConditionalDensity,
                          *, seed: SeedLike = None) -> ContrastiveTask:
    """Build the contrastive task of §2.1.1.2 from observations at multiples of η.

    Parameters
    ----------
    observations : array_like, shape (2m or 2m+1, d)
        :math:`\\tilde x_{i\\eta}`, consecutive rows η apart (an odd last row is dropped).
    eta : float
        The lag (> 0); stored with the task.
    contrast : ConditionalDensity
        q; global (``GaussianKernel.global_gaussian``, π) or conditional
        (``GaussianKernel.local``).
    seed : int, SeedSequence or Generator
        Randomness of the labels and of the negatives (the *task* stream; simulate the
        trajectory with another stream).

    Raises
    ------
    ValueError
        Non-finite observations, fewer than 2 observations, η ≤ 0, a dimension mismatch, or
        a q with zero density at a positive pair (q must cover the support of :math:`p_*`).

    Examples
    --------
    >>> from identifiability.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> task = make_contrastive_task(ou.simulate(10, 0.5, seed=0), 0.5, ou.stationary, seed=1)
    >>> task.n_pairs, task.z.shape
    (5, (5, 1))
    """
    e = check_eta(eta)
    x = _points(observations, "observations")
    if x.shape[0] < 2:
        raise ValueError("need at least 2 observations to form one pair")
    if getattr(contrast, "dim", x.shape[1]) != x.shape[1]:
        raise ValueError(f"contrast dimension {contrast.dim} != data dimension {x.shape[1]}")
    m = x.shape[0] // 2
    z = np.ascontiguousarray(x[0:2 * m:2])
    nxt = np.ascontiguousarray(x[1:2 * m:2])
    rng = as_generator(seed)
    label = (rng.random(m) < 0.5).astype(np.int8)
    neg = label == 0
    z_prime = nxt.copy()
    if np.any(neg):
        z_prime[neg] = np.asarray(contrast.sample(z[neg], rng), dtype=float)
    pos = ~neg
    if np.any(pos):
        lq = contrast.logpdf(z[pos], z_prime[pos])
        if np.any(~np.isfinite(lq)):
            i = int(np.argwhere(~np.isfinite(lq))[0, 0])
            raise ValueError(ZERO_DENSITY_MESSAGE.format(
                where=f"the positive pair {np.flatnonzero(pos)[i]}"))
    return ContrastiveTask(z, z_prime, label, e)


class _Simulates(Protocol):
    def simulate(self, n_obs: int, eta: float, *, seed: SeedLike = None) -> FloatArray: ...


def contrastive_task_from_process(process: _Simulates, T: float, eta: float,
                                  contrast: ConditionalDensity, *, seed: SeedLike = None
                                  ) -> ContrastiveTask:
    """Simulate :math:`2m = \\lfloor T/\\eta\\rfloor` observations and build the task.

    The seed is split (``SeedSequence.spawn``) into a trajectory stream and a task stream.

    Examples
    --------
    >>> from identifiability.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> contrastive_task_from_process(ou, T=100, eta=0.5, contrast=ou.stationary, seed=0).n_pairs
    100
    """
    e = check_eta(eta)
    if not T > 0:
        raise ValueError(f"T must be positive, got {T}")
    n = math.floor(T / e + 1e-9)
    n -= n % 2
    if n < 2:
        raise ValueError(f"T/eta = {T / e:.3g} gives fewer than 2 observations")
    traj_rng, task_rng = split_seed(seed, 2)
    x = process.simulate(n, e, seed=traj_rng)
    return make_contrastive_task(x, e, contrast, seed=task_rng)
