r"""Least-squares refinement of a moment estimate on the moments themselves (004 §2.2).

The spectral read-out (:mod:`~identifiability.masked.spectral`) inverts the whitening pair
matrix, which amplifies the noise by :math:`1/\sigma_k(P_{ab})` (large for a poorly conditioned
model).  Refinement fits the model's moments to the empirical ones directly,

.. math::

    \min_{E, T}\ \|\hat P_{123} - \tfrac1k\textstyle\sum_i (ET^\top)_i\otimes E_i\otimes (ET)_i\|^2
        + \sum_{(s,u)} \|\hat P_{su} - P_{su}(E, T)\|^2 ,

with :math:`P_{12} = \frac1k ET^\top E^\top`, :math:`P_{13} = \frac1k ET^\top (ET)^\top`,
:math:`P_{23} = \frac1k E(ET)^\top` (004 (2.36), (2.70) with the stationary uniform law of A5),
by Levenberg-Marquardt (:func:`scipy.optimize.least_squares`) started at the spectral estimate,
with an evaluation budget.  The caller projects the result onto the model class and keeps it
only if the projected model fits the moments better than the projected spectral estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.optimize import least_squares

__all__: list[str] = []

FloatArray = npt.NDArray[np.float64]


def model_moments(E: FloatArray, T: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``(P123, pairs)`` of the model (E, T): pairs stacked as offsets (0,1), (0,2), (1,2)."""
    k = E.shape[1]
    A, C = E @ T.T, E @ T
    P3 = np.einsum("ih,jh,lh->ijl", A, E, C) / k
    return P3, np.stack([A @ E.T, A @ C.T, E @ C.T]) / k


def moment_residual(E: FloatArray, T: FloatArray, P3: FloatArray, Pp: FloatArray) -> float:
    """Root of the summed squared moment residuals."""
    M3, Mp = model_moments(E, T)
    return float(np.sqrt(np.sum((M3 - P3) ** 2) + np.sum((Mp - Pp) ** 2)))


@dataclass(frozen=True)
class MomentFit:
    E: FloatArray
    T: FloatArray
    n_evaluations: int
    budget_exhausted: bool


def fit_moments(E0: FloatArray, T0: FloatArray, P3: FloatArray, Pp: FloatArray, *,
                max_iterations: int = 30) -> MomentFit:
    """Levenberg-Marquardt on the moment residuals from (E0, T0), unconstrained.

    ``max_iterations`` bounds the Jacobian evaluations (finite differences: each costs one
    residual evaluation per parameter); ``budget_exhausted`` says when it stopped short.
    """
    d, k = E0.shape
    n_par = d * k + k * k
    def residual(p: FloatArray) -> FloatArray:
        M3, Mp = model_moments(p[:d * k].reshape(d, k), p[d * k:].reshape(k, k))
        return np.concatenate([(M3 - P3).ravel(), (Mp - Pp).ravel()])

    x0 = np.concatenate([E0.ravel(), T0.ravel()])
    budget = max_iterations * (n_par + 1)
    sol = least_squares(residual, x0, method="lm", max_nfev=budget, xtol=1e-12, ftol=1e-12)
    return MomentFit(sol.x[:d * k].reshape(d, k), sol.x[d * k:].reshape(k, k), int(sol.nfev),
                     bool(sol.status == 0))
