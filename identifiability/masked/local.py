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
from seprank.core import SeedLike, as_generator, matrix_rank

__all__ = ["JacobianDeficiency", "jacobian_deficiency"]

_STEP = 1e-30


@dataclass(frozen=True)
class JacobianDeficiency:
    """Result of :func:`jacobian_deficiency`.

    Attributes
    ----------
    n_params, rank, deficiency : int
    singular_values : numpy.ndarray
    gap : float or None
        :math:`\\sigma_r/\\sigma_{r+1}` at the rank found.
    rtol : float
    tasks : tuple of Task
    """

    n_params: int
    rank: int
    deficiency: int
    singular_values: npt.NDArray[np.float64]
    gap: float | None
    rtol: float
    tasks: tuple[Task, ...]


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
    n_points: int = 40, seed: SeedLike = None, rtol: float = 1e-8,
) -> JacobianDeficiency:
    r"""Dimension of the first-order flat directions of ``model`` for a set of tasks.

    Parameters
    ----------
    model : HMM or GaussianHMM
    tasks : Task, str or sequence of them
    n_points : int, keyword-only
        G-HMM inputs (standard normal, drawn from ``seed``).
    seed : keyword-only
    rtol : float, keyword-only
        Relative SVD tolerance for the Jacobian rank.

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
    task_list = (Task(tasks),) if isinstance(tasks, str | Task) else tuple(Task(t) for t in tasks)
    if not task_list:
        raise ValueError("give at least one task")
    d, k = model.d, model.k
    E0, T0 = model.emission.astype(complex), model.T.astype(complex)
    Uk = _orth_complement(np.ones(k) / np.sqrt(k))  # k x (k-1) basis of 1-perp
    if isinstance(model, HMM):
        col_bases = [_orth_complement(np.ones(d) / np.sqrt(d))] * k
        X = None
    else:
        col_bases = [_orth_complement(model.M[:, i]) for i in range(k)]
        rng = as_generator(seed)
        X = rng.standard_normal((n_points, d))
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
    res = matrix_rank(J, method="svd", rtol=rtol)
    return JacobianDeficiency(n_params, res.rank, n_params - res.rank,
                              np.asarray(res.details["singular_values"]), res.details["gap"],
                              rtol, task_list)
