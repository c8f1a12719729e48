r"""Matching the components of two models up to relabelling (004 §2.2: identifiability holds
up to a permutation of the hidden states).

:func:`match_permutation` pairs the columns of an estimate with those of a reference by the
Hungarian algorithm (:func:`scipy.optimize.linear_sum_assignment`); :class:`Matching` carries
the permutation, its cost and the largest entry error after matching.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment

from seprank.core import check_array
from seprank.core.types import FloatArray

__all__ = ["Matching", "match_permutation"]


@dataclass(frozen=True)
class Matching:
    """``estimate[:, perm] ≈ truth``; ``Pi`` is the permutation matrix with
    ``estimate @ Pi == estimate[:, perm]``.

    Parameters
    ----------
    perm : numpy.ndarray
        The permutation of the estimate's columns.
    cost : float
        The minimised sum of squared distances.
    max_abs_error : float
        The largest entry error after matching.
    """

    perm: npt.NDArray[np.int64]
    cost: float
    max_abs_error: float

    @property
    def Pi(self) -> FloatArray:
        k = len(self.perm)
        P = np.zeros((k, k))
        P[self.perm, np.arange(k)] = 1
        return P


def match_permutation(estimate: Any, truth: Any) -> Matching:
    r"""Hungarian matching of the columns of ``estimate`` to those of ``truth``.

    Minimises :math:`\sum_j \|\hat e_{\pi(j)} - e_j\|^2` with
    :func:`scipy.optimize.linear_sum_assignment`.

    Parameters
    ----------
    estimate, truth : array_like
        Matrices with the same shape; their columns are matched.

    Returns
    -------
    Matching
        The permutation, its cost and the largest error.

    Examples
    --------
    >>> m = match_permutation([[0.0, 1.0], [1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]])
    >>> m.perm.tolist(), m.max_abs_error
    ([1, 0], 0.0)
    """
    E = check_array("estimate", estimate, ndim=2)
    Tr = check_array("truth", truth, ndim=2)
    if E.ndim != 2 or E.shape != Tr.shape:
        raise ValueError(f"estimate and truth must have the same 2-D shape, got {E.shape} and "
                         f"{Tr.shape}")
    cost = ((E[:, :, None] - Tr[:, None, :]) ** 2).sum(axis=0)
    rows, cols = linear_sum_assignment(cost)
    perm = np.empty(E.shape[1], dtype=np.int64)
    perm[cols] = rows
    return Matching(perm, float(cost[rows, cols].sum()),
                    float(np.max(np.abs(E[:, perm] - Tr))))
