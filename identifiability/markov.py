r"""Powers of stochastic matrices that stay stochastic for any exponent.

Repeated squaring in floating point multiplies the rounding error of a stochastic matrix at
every step: the column sums of :math:`P^{2^j}` drift like :math:`2^j \epsilon`, so
``numpy.linalg.matrix_power(T, 10**16)`` of a 5-state chain has columns summing to 0.64 instead
of 1.  :func:`stochastic_power` avoids that.  With :math:`\pi` the unique stationary law and
:math:`\Pi` the projector onto it (:math:`\Pi = \mathbf 1\pi^T` for a row-stochastic P),

.. math::  P^n = \Pi + (P - \Pi)^n \qquad (n \ge 1),

because :math:`P\Pi = \Pi P = \Pi^2 = \Pi`.  The deviation :math:`D = P - \Pi` has spectral
radius :math:`|\lambda_2| < 1` for an irreducible aperiodic chain, so :math:`D^n` decays to 0
under squaring instead of amplifying errors, and :math:`P^n` converges to the stationary limit
exactly as it should.  For a chain with several eigenvalues of modulus 1 (periodic, or
reducible) :math:`P^n` does not converge; small exponents are computed directly (error about
:math:`n\epsilon`) and large ones are refused rather than returned wrong.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from seprank.core.validation import check_array, check_choice, check_float, check_int

__all__ = ["stochastic_power"]

#: Exponents up to this are computed by numpy's repeated squaring (error <= ~n * 1e-16).
DIRECT_POWER_LIMIT = 64
#: Beyond it, direct squaring is accepted only while n * eps stays below this.
_MAX_DIRECT_ERROR = 1e-9
#: An eigenvalue this close to the unit circle counts as modulus 1.
_UNIT_TOL = 1e-9


def stochastic_power(P: npt.ArrayLike, n: int, *,
                     convention: Literal["rows", "columns"] = "rows",
                     atol: float = 1e-8) -> npt.NDArray[np.float64]:
    r""":math:`P^n` of a stochastic matrix, accurate for any ``n`` (module docstring).

    Parameters
    ----------
    P : array_like, shape (k, k)
        Stochastic: non-negative, rows (``convention='rows'``) or columns (``'columns'``)
        summing to 1 within ``atol``.
    n : int
        The exponent, >= 0.
    convention : {'rows', 'columns'}, keyword-only
        Which sums are 1.
    atol : float, keyword-only
        Tolerance of the stochasticity check.

    Returns
    -------
    numpy.ndarray
        :math:`P^n`, stochastic in the same convention.

    Raises
    ------
    ValueError
        ``P`` is not stochastic, ``n`` is negative (:math:`P^{-1}` is not a kernel), or the
        chain has several eigenvalues of modulus 1 and ``n`` is too large to square directly.

    Examples
    --------
    >>> T = np.array([[0.9, 0.2], [0.1, 0.8]])          # columns sum to 1
    >>> big = stochastic_power(T, 10**16, convention="columns")
    >>> np.round(big, 12).tolist()                       # the stationary limit (2/3, 1/3)
    [[0.666666666667, 0.666666666667], [0.333333333333, 0.333333333333]]
    >>> bool(np.allclose(stochastic_power(T, 3, convention="columns"), T @ T @ T))
    True
    """
    check_choice("convention", convention, ("rows", "columns"))
    atol = check_float("atol", atol, minimum=0, hint=" (a tolerance)")
    A = check_array("P", P, ndim=2)
    n = check_int("n (the exponent; P^-1 is not a transition kernel)", n, 0)
    k = A.shape[0]
    if A.shape != (k, k):
        raise ValueError(f"P must be square, got shape {A.shape}")
    R = A if convention == "rows" else A.T
    dev = float(np.max(np.abs(R.sum(axis=1) - 1)))
    if dev > atol or float(R.min()) < -atol:
        raise ValueError(f"P must be {convention}-stochastic (max |sum - 1| = {dev:.3g}, min "
                         f"entry {float(R.min()):.3g}, atol {atol:g})")
    out = np.linalg.matrix_power(R, n) if n <= DIRECT_POWER_LIMIT else _large_power(R, n)
    return np.asarray(out if convention == "rows" else out.T, dtype=np.float64)


def _large_power(R: npt.NDArray[np.float64], n: int) -> Any:
    moduli = np.abs(np.linalg.eigvals(R))
    on_circle = int(np.count_nonzero(moduli > 1 - _UNIT_TOL))
    if on_circle == 1:
        pi = _stationary(R)
        Pi = np.outer(np.ones(R.shape[0]), pi)
        return Pi + np.linalg.matrix_power(R - Pi, n)
    if n * np.finfo(np.float64).eps <= _MAX_DIRECT_ERROR:
        return np.linalg.matrix_power(R, n)
    raise ValueError(
        f"P has {on_circle} eigenvalues of modulus 1 (a periodic or reducible chain): P^n does "
        f"not converge, and repeated squaring for n = {n} would lose all accuracy in floating "
        "point; use an exponent below ~1e7, or reduce n modulo the period of the chain")


def _stationary(R: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The unique pi with pi R = pi, sum 1 (least squares on [R^T - I; 1^T])."""
    k = R.shape[0]
    system = np.vstack([R.T - np.eye(k), np.ones((1, k))])
    pi = np.linalg.lstsq(system, np.r_[np.zeros(k), 1.0], rcond=None)[0]
    return np.asarray(pi, dtype=np.float64)
