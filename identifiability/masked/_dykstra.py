"""Dykstra's loop for the Birkhoff projection, compiled by numba (imported only when a
projection needs more than a few hundred iterations; see ``moment_fit._birkhoff``)."""

from __future__ import annotations

import numpy as np

from seprank.core.types import FloatArray
from seprank.extras import require

nb = require("numba", feature="the compiled Dykstra loop")

__all__ = ["dykstra"]


@nb.njit(cache=True)
def dykstra(P: FloatArray, incr: FloatArray, tol: float, max_iter: int
            ) -> tuple[FloatArray, FloatArray, int]:  # pragma: no cover (compiled)
    """Continue Dykstra's iteration from ``(P, incr)`` in place: the affine projection onto
    {row and column sums 1}, then the non-negative orthant with Dykstra's correction, until
    every sum is within ``tol`` of 1; returns ``(P, incr, iterations)``, -1 for a budget that
    ran out.

    Examples
    --------
    >>> P, _, it = dykstra(np.array([[1.2, -0.1], [0.0, 0.9]]), np.zeros((2, 2)), 1e-13, 100)
    >>> P.round(6).tolist(), it > 0
    ([[1.0, 0.0], [0.0, 1.0]], True)
    """
    k = P.shape[0]
    A = np.empty_like(P)
    for it in range(1, max_iter + 1):
        r = P.sum(axis=1) - 1.0
        c = P.sum(axis=0) - 1.0
        s = P.sum() - k
        for i in range(k):
            for j in range(k):
                A[i, j] = P[i, j] - r[i] / k - c[j] / k + s / k**2
                q = A[i, j] - incr[i, j]
                P[i, j] = q if q > 0.0 else 0.0
                incr[i, j] = P[i, j] - q
        rs, cs = P.sum(axis=1), P.sum(axis=0)
        dev = 0.0
        for i in range(k):
            dev = max(dev, abs(rs[i] - 1.0), abs(cs[i] - 1.0))
        if dev <= tol:
            return P, incr, it
    return P, incr, -1
