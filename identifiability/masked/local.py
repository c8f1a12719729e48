r"""Local identifiability: the rank of the Jacobian of (parameters) -> (predictor values).

Not in the seed; a complement to its theorems (notes §A.4, item 4).  Parameters move in the
tangent space of the model class:

* HMM: each column of O in :math:`\{v: \mathbf 1^\top v = 0\}` (k(d-1) directions) and T in
  :math:`\{\Delta: \Delta\mathbf 1 = 0, \mathbf 1^\top\Delta = 0\}` ((k-1)^2 directions);
* G-HMM: each :math:`\mu_i` on the unit sphere (k(d-1) directions, through
  :math:`\mu_i(\varepsilon) = (\mu_i+\varepsilon v)/\|\mu_i+\varepsilon v\|`) and T as above.

The predictor values of every task (all one-hot tokens for the HMM; ``n_points`` seeded
Gaussian points for the G-HMM) are stacked into one vector F(θ).  Its Jacobian is computed by
the **complex step** :math:`\partial_p F = \operatorname{Im} F(\theta + i h e_p)/h` (h = 1e-30;
no subtractive cancellation, so it is exact to rounding), and the deficiency
``n_params - rank(J)`` is the dimension of the directions that leave every predictor unchanged to
first order.  The rank is a float SVD rank (``rtol``); the singular-value gap is reported.
Deficiency 0 means locally identifiable (up to the discrete relabelling); > 0 means a
first-order flat direction, which the rotation families of Theorems 4 and 6 realise globally.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from identifiability.masked.hmm import HMM, GaussianHMM
from identifiability.masked.tasks import Task, predict_raw
from seprank.core import (
    SeedLike,
    as_generator,
    check_float,
    check_int,
    guard_memory,
    matrix_rank,
)
from seprank.core.display import RichDisplay

__all__ = ["JacobianDeficiency", "jacobian_deficiency"]

_STEP = 1e-30
#: Default number of G-HMM points (at least twice the row-count minimum).
_DEFAULT_POINTS = 40
#: The point set is doubled at most this many times while the rank keeps growing.
_MAX_DOUBLINGS = 4


@dataclass(frozen=True, repr=False)
class JacobianDeficiency(RichDisplay):
    """Result of :func:`jacobian_deficiency`.

    Attributes
    ----------
    n_params, rank, deficiency : int
    singular_values : numpy.ndarray
    gap : float or None
        :math:`\\sigma_r/\\sigma_{r+1}` at the rank found.
    rtol : float
    tasks : tuple of Task
    n_points : int or None
        G-HMM: the number of points whose Jacobian rows were used (after doubling until the
        rank stopped growing); None for the HMM.
    """

    n_params: int
    rank: int
    deficiency: int
    singular_values: npt.NDArray[np.float64]
    gap: float | None
    rtol: float
    tasks: tuple[Task, ...]
    n_points: int | None = None

    def summary(self) -> str:
        """One line in words: the verdict, the Jacobian rank, the tasks, the gap.

        Returns
        -------
        str
            ``locally identifiable`` or the number of first-order flat directions, then the
            rank of the Jacobian of the parameters and the singular-value gap when known.
        """
        tasks = ", ".join(map(str, self.tasks))
        gap = "" if self.gap is None else f", singular-value gap {self.gap:.3g}"
        verdict = ("locally identifiable" if self.deficiency == 0 else
                   f"{self.deficiency} first-order flat direction(s)")
        return (f"{verdict}: Jacobian rank {self.rank} of {self.n_params} parameters for "
                f"{tasks}{gap}")

    def __repr__(self) -> str:
        return self._short_repr(("n_params", "rank", "deficiency", "gap", "tasks"))


def _orth_complement(v: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Orthonormal basis (columns) of the complement of the unit vector direction v."""
    q = np.linalg.qr(np.column_stack([v, np.eye(len(v))]))[0]
    return np.asarray(q[:, 1:len(v)])


def _softmax_posterior(M: Any, X: npt.NDArray[np.float64]) -> Any:
    """Complex-analytic G-HMM posterior (no max-subtraction on complex numbers)."""
    logits = -0.5 * ((X[:, :, None] - M[None]) ** 2).sum(axis=1)
    logits = logits - logits.real.max(axis=1, keepdims=True)
    w = np.exp(logits)
    return w / w.sum(axis=1, keepdims=True)


def jacobian_deficiency(
    model: HMM | GaussianHMM, tasks: Sequence[Task | str] | Task | str, *,
    n_points: int | None = None, seed: SeedLike = None, rtol: float = 1e-8,
) -> JacobianDeficiency:
    r"""Dimension of the first-order flat directions of ``model`` for a set of tasks.

    Parameters
    ----------
    model : HMM or GaussianHMM
    tasks : Task, str or sequence of them
    n_points : int, optional, keyword-only
        G-HMM inputs (standard normal, drawn from ``seed``).  Too few points make the
        Jacobian rank-deficient by construction -- a false non-identifiability -- so a count
        whose rows cannot reach ``n_params`` (``n_points * outputs per point < n_params``) is
        refused, and the point set is doubled (fresh points from ``seed``) until the rank
        stops growing; ``n_points`` of the result says how many were used.  Default:
        ``max(40, 2 * minimum)``.  Ignored for the HMM (all d tokens are used).
    seed : keyword-only
    rtol : float, keyword-only
        Relative SVD tolerance for the Jacobian rank.

    Returns
    -------
    JacobianDeficiency
        The dimension of the flat directions and the singular values it rests on.

    References
    ----------
    .. [1] docs/notes/seed_thesis_ch2.md §A.4 item 4 (the table reproduced by claim MP-15);
       004, Theorems 4–7 for the global statements.

    Examples
    --------
    >>> m = HMM.random(4, 3, seed=0)
    >>> jacobian_deficiency(m, "x2|x1").deficiency           # (k - 1)^2
    4
    >>> jacobian_deficiency(m, ["x2|x1", "x1|x2", "x3|x1", "x1|x3"]).deficiency
    1
    >>> jacobian_deficiency(m, "x2*x3|x1").deficiency
    0
    """
    if not isinstance(model, HMM | GaussianHMM):
        raise TypeError(f"model must be an HMM or a GaussianHMM, got {type(model).__name__}")
    if isinstance(tasks, str | Task):
        try:
            task_list: tuple[Task, ...] = (Task(tasks),)
        except ValueError as err:
            raise ValueError(f"tasks: {err}") from err
    elif isinstance(tasks, bytes) or not hasattr(tasks, "__iter__"):
        raise TypeError(f"tasks must be a Task, a task string or a sequence of them, got "
                        f"{tasks!r}")
    else:
        try:
            task_list = tuple(Task(t) for t in tasks)
        except (TypeError, ValueError) as err:
            raise type(err)(f"tasks: {err}") from err
    if not task_list:
        raise ValueError("tasks: give at least one task")
    rtol = check_float("rtol", rtol, positive=True)
    d, k = model.d, model.k
    n_params = k * (d - 1) + (k - 1) ** 2
    if isinstance(model, HMM):
        rows = d * sum(d ** len(t.targets) for t in task_list)
        guard_memory(3 * 8 * rows * n_params + 4 * 16 * rows * k,
                     what=f"the Jacobian ({rows:,} predictor values x {n_params:,} parameters)",
                     fix="use a smaller model or fewer tasks")
        J = _jacobian(model, task_list, None)
        return _result(J, n_params, rtol, task_list, None)
    per_point = sum(d ** len(t.targets) for t in task_list)
    minimum = -(-n_params // per_point)
    if n_points is None:
        n = max(_DEFAULT_POINTS, 2 * minimum)
    else:
        n = check_int("n_points", n_points)
        if n < minimum:
            raise ValueError(
                f"n_points = {n} gives a Jacobian with {n * per_point} rows for {n_params} "
                f"parameters: its rank cannot reach n_params, so the deficiency would be a "
                f"false non-identifiability; use n_points >= {minimum} (or leave it None)")
    guard_memory(16 * 4 * n * per_point * n_params, what=f"the Jacobian at {4 * n} points",
                 fix="use fewer n_points or tasks")
    rng = as_generator(seed)
    X = rng.standard_normal((n, d))
    result = _result(_jacobian(model, task_list, X), n_params, rtol, task_list, n)
    for _ in range(_MAX_DOUBLINGS):  # more points must not raise the rank any further
        if result.rank == n_params:
            break
        X2 = np.vstack([X, rng.standard_normal(X.shape)])
        bigger = _result(_jacobian(model, task_list, X2), n_params, rtol, task_list, len(X2))
        if bigger.rank == result.rank:
            break
        X, result = X2, bigger
    return result


def _jacobian(model: HMM | GaussianHMM, task_list: tuple[Task, ...],
              X: npt.NDArray[np.float64] | None) -> npt.NDArray[np.float64]:
    d, k = model.d, model.k
    E0, T0 = model.emission.astype(complex), model.T.astype(complex)
    Uk = _orth_complement(np.ones(k) / np.sqrt(k))  # k x (k-1) basis of 1-perp
    if isinstance(model, HMM):
        col_bases = [_orth_complement(np.ones(d) / np.sqrt(d))] * k
    else:
        col_bases = [_orth_complement(model.M[:, i]) for i in range(k)]
    n_e = k * (d - 1)
    n_params = n_e + (k - 1) ** 2

    def outputs(theta: npt.NDArray[np.complex128]) -> npt.NDArray[np.complex128]:
        E = E0.copy()
        for i in range(k):
            E[:, i] = E0[:, i] + col_bases[i] @ theta[i * (d - 1):(i + 1) * (d - 1)]
        if isinstance(model, GaussianHMM):
            E = E / np.sqrt((E * E).sum(axis=0))  # analytic normalisation (no abs)
            phi = _softmax_posterior(E, X)  # type: ignore[arg-type]
        else:
            phi = E / E.sum(axis=1, keepdims=True)  # posterior rows at all one-hot tokens
        T = T0 + Uk @ theta[n_e:].reshape(k - 1, k - 1) @ Uk.T
        return np.concatenate([predict_raw(E, T, phi, t).ravel() for t in task_list])

    J = np.empty((outputs(np.zeros(n_params, dtype=complex)).size, n_params))
    for p in range(n_params):
        step = np.zeros(n_params, dtype=complex)
        step[p] = 1j * _STEP
        J[:, p] = outputs(step).imag / _STEP
    return J


def _result(J: npt.NDArray[np.float64], n_params: int, rtol: float,
            task_list: tuple[Task, ...], n_points: int | None) -> JacobianDeficiency:
    res = matrix_rank(J, method="svd", rtol=rtol)
    return JacobianDeficiency(n_params, res.rank, n_params - res.rank,
                              np.asarray(res.details["singular_values"]), res.details["gap"],
                              rtol, task_list, n_points)
