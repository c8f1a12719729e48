r"""A compiled GF(p) kernel for grids of :math:`Z_{in}(a, b)`: float64, fused, both cores.

The same arithmetic as :func:`seprank.incontext.modular.modular_grid` (tested equal to it and to
:meth:`seprank.LinearAttention.__call__` over GF(p); registered, through ``modular_grid(...,
kernel='compiled')``, as the evaluator ``'incontext-grid-compiled'`` of
:mod:`seprank.evaluators`), compiled with numba: for one row ``r``
(an a-template) and a tile of columns ``s`` (b-templates) every intermediate of the network --
the layer-1 outputs :math:`x_j = u_j(M_a + M_b)`, each layer's Gram entries, mixing matrix and
outputs -- lives in a small tile buffer whose last axis runs over the tile, so each step is a
vectorised multiply-add over the tile and nothing but the output goes back to memory.  Rows
are shared among the threads (``prange``: both cores).

Exactness (proved in :mod:`seprank.core.modfloat`): all values are balanced residues
:math:`|r| \le h = \lfloor p/2 \rfloor + 2` stored as float64; a sum is reduced
(:math:`x - p\,\mathrm{rint}(x/p)`) after at most :math:`K(p)` products
(:func:`seprank.core.modfloat.max_terms`, 31 for the engine's primes below :math:`2^{25}`), so
every intermediate is an integer of magnitude below :math:`2^{53} - p` and float64 computes it
exactly.  Only the ``contract`` fast-math flag is used (fused multiply-adds: exact on integers
in this range); no reassociation the bounds do not cover.
"""

from __future__ import annotations

import numpy as np

from seprank.core.types import Array
from seprank.extras import require

nb = require("numba", feature="the compiled in-context kernel")

__all__ = ["zin_grid_kernel"]


#: Columns per tile: the tile buffers (2N d + d^2 + tri values per column) stay in L1/L2.
TILE = 128


@nb.njit(cache=True, fastmath={"contract"}, inline="always")
def _reduce(buf: Array, n: int, p: float, pinv: float) -> None:  # pragma: no cover - compiled
    for s in range(n):
        buf[s] = buf[s] - p * np.rint(buf[s] * pinv)


@nb.njit(parallel=True, cache=True, fastmath={"contract"})
def zin_grid_kernel(U: Array, uMa: Array, Ma: Array, VT: Array, vMbT: Array, MbT: Array,
                    maps: Array, kq: Array, vo: Array, iu: Array, ju: Array, gidx: Array,
                    use_heads: bool, out_position: int, out_coordinate: int, p: float, K: int,
                    out: Array) -> None:  # pragma: no cover - compiled
    r"""Fill ``out[r, s]`` with :math:`Z_{in}(a_r, b_s)` (balanced residues), depth >= 2.

    ``U, uMa``: (Ra, N, d), ``Ma``: (Ra, d, d) -- the a-side layer-1 arrays; ``VT, vMbT``:
    (N, d, Sb), ``MbT``: (d, d, Sb) with ``MbT[k, c, s] = M_b[s][k, c]``; layers 2..L either
    through ``maps`` (L - 1, d*d, tri), :math:`\mathrm{mix} = T\,\mathrm{gram}`, or, with
    ``use_heads``, head by head through ``kq, vo`` (L - 1, H, d, d):
    :math:`y_t = \sum_h ((x_t\,KQ_h)\,G)\,VO_h` (``gidx[k, c]``: the Gram entry of (k, c)),
    whichever needs fewer multiply-adds; all balanced float64 residues.  ``K`` is
    :func:`seprank.core.modfloat.max_terms` of ``p``.
    """
    Ra, N, d = U.shape
    Sb = VT.shape[2]
    tri = iu.shape[0]
    nl = maps.shape[0]
    n2 = 2 * N
    pinv = 1.0 / p
    for r in nb.prange(Ra):
        X = np.empty((n2, d, TILE))
        Y = np.empty((n2, d, TILE))
        gram = np.empty((tri, TILE))
        mix = np.empty((d * d, TILE))
        P = np.empty((d, TILE))
        Q = np.empty((d, TILE))
        acc = np.empty(TILE)
        H = kq.shape[1]
        for s0 in range(0, Sb, TILE):
            ts = min(TILE, Sb - s0)
            # layer 1: x_j = u_j Ma_r + u_j Mb_s (S1), x_{N+j} = v_j Mb_s + v_j Ma_r (S2)
            for j in range(N):
                for c in range(d):
                    for s in range(ts):
                        acc[s] = uMa[r, j, c]
                    for k in range(d):
                        w = U[r, j, k]
                        for s in range(ts):
                            acc[s] += w * MbT[k, c, s0 + s]
                        if (k + 1) % K == 0:
                            _reduce(acc, ts, p, pinv)
                    for s in range(ts):
                        X[j, c, s] = acc[s] - p * np.rint(acc[s] * pinv)
                    for s in range(ts):
                        acc[s] = vMbT[j, c, s0 + s]
                    for k in range(d):
                        w = Ma[r, k, c]
                        for s in range(ts):
                            acc[s] += w * VT[j, k, s0 + s]
                        if (k + 1) % K == 0:
                            _reduce(acc, ts, p, pinv)
                    for s in range(ts):
                        X[N + j, c, s] = acc[s] - p * np.rint(acc[s] * pinv)
            for layer in range(nl):
                # Gram entries (upper triangle) of the current layer input
                for q in range(tri):
                    a, b = iu[q], ju[q]
                    for s in range(ts):
                        acc[s] = 0.0
                    for t in range(n2):
                        for s in range(ts):
                            acc[s] += X[t, a, s] * X[t, b, s]
                        if (t + 1) % K == 0:
                            _reduce(acc, ts, p, pinv)
                    for s in range(ts):
                        gram[q, s] = acc[s] - p * np.rint(acc[s] * pinv)
                last = layer == nl - 1
                if use_heads:
                    rows = 1 if last else n2
                    for t0 in range(rows):
                        t = out_position if last else t0
                        for c in range(d if not last else 1):
                            for s in range(ts):
                                Y[t, c, s] = 0.0
                        for h in range(H):
                            for c in range(d):  # P = x_t KQ_h
                                for s in range(ts):
                                    acc[s] = 0.0
                                for k in range(d):
                                    w = kq[layer, h, k, c]
                                    for s in range(ts):
                                        acc[s] += X[t, k, s] * w
                                    if (k + 1) % K == 0:
                                        _reduce(acc, ts, p, pinv)
                                for s in range(ts):
                                    P[c, s] = acc[s] - p * np.rint(acc[s] * pinv)
                            for c in range(d):  # Q = P G
                                for s in range(ts):
                                    acc[s] = 0.0
                                for k in range(d):
                                    g = gidx[k, c]
                                    for s in range(ts):
                                        acc[s] += P[k, s] * gram[g, s]
                                    if (k + 1) % K == 0:
                                        _reduce(acc, ts, p, pinv)
                                for s in range(ts):
                                    Q[c, s] = acc[s] - p * np.rint(acc[s] * pinv)
                            for c in range(1 if last else d):  # y_t += Q VO_h
                                cc = out_coordinate if last else c
                                for s in range(ts):
                                    acc[s] = Y[t, c, s]
                                for k in range(d):
                                    w = vo[layer, h, k, cc]
                                    for s in range(ts):
                                        acc[s] += Q[k, s] * w
                                    if (k + 1) % K == 0:
                                        _reduce(acc, ts, p, pinv)
                                for s in range(ts):
                                    Y[t, c, s] = acc[s] - p * np.rint(acc[s] * pinv)
                    if last:
                        for s in range(ts):
                            out[r, s0 + s] = Y[out_position, 0, s]
                    else:
                        X, Y = Y, X
                    continue
                n_out = d if last else d * d
                for o in range(n_out):
                    row = o * d + out_coordinate if last else o
                    for s in range(ts):
                        acc[s] = 0.0
                    for q in range(tri):
                        w = maps[layer, row, q]
                        for s in range(ts):
                            acc[s] += w * gram[q, s]
                        if (q + 1) % K == 0:
                            _reduce(acc, ts, p, pinv)
                    for s in range(ts):
                        mix[o, s] = acc[s] - p * np.rint(acc[s] * pinv)
                if last:  # y^i_p = x_i . mix[:, p]
                    for s in range(ts):
                        acc[s] = 0.0
                    for k in range(d):
                        for s in range(ts):
                            acc[s] += X[out_position, k, s] * mix[k, s]
                        if (k + 1) % K == 0:
                            _reduce(acc, ts, p, pinv)
                    for s in range(ts):
                        out[r, s0 + s] = acc[s] - p * np.rint(acc[s] * pinv)
                else:  # Y = X mix
                    for t in range(n2):
                        for c in range(d):
                            for s in range(ts):
                                acc[s] = 0.0
                            for k in range(d):
                                for s in range(ts):
                                    acc[s] += X[t, k, s] * mix[k * d + c, s]
                                if (k + 1) % K == 0:
                                    _reduce(acc, ts, p, pinv)
                            for s in range(ts):
                                Y[t, c, s] = acc[s] - p * np.rint(acc[s] * pinv)
                    X, Y = Y, X
