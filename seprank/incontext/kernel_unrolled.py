r"""The :math:`Z_{in}` grid kernel written out for one network shape: one pair per lane.

:func:`seprank.incontext.kernel.zin_grid_kernel` keeps every intermediate of a tile of pairs
in memory and makes one pass over the tile per multiply-add, so each multiply-add costs a
load and a store beside its arithmetic (it runs about 9x below the machine's multiply-add
rate).  Here the network's loops over widths, heads, layers and positions are written out
once per shape -- (N, d, H, L, the layer form, the output position and coordinate, K) -- into
straight-line code for **one** pair, inside a loop over the columns that the compiler
vectorises: intermediates stay in registers, the weights are read once per call.  The source
is generated, compiled with numba once per shape and process (:func:`unrolled_kernel`), and
computes exactly what the generic kernel computes: the same sums, the same reduction after
at most K(p) products (:func:`seprank.core.modfloat.max_terms`), on balanced float64 residues
(exact: :mod:`seprank.core.modfloat`).  Tested equal to it and to the numpy path.

:func:`seprank.incontext.modular.modular_grid_balanced` uses it for work of
:data:`UNROLLED_MIN_PAIRS` pairs or more: one grid that large, or a sweep of the degree blocks
announced that large (:func:`seprank.incontext.incontext_seq_sep`; compiling a shape takes
seconds).  At (5, 3), (6, 3) and (4, 4) it runs at 1.6-2.9x the machine's multiply-add limit
(one-thread dgemm rate), against 5.4-7.0x for the generic kernel (``python -m benchmarks
degree_blocks``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from seprank.extras import require

__all__ = ["UNROLLED_MIN_PAIRS", "KernelShape", "kernel_source", "unrolled_kernel"]

#: Work (pairs) from which the unrolled kernel pays for its compilation: compiling one shape
#: takes 4-6 s, which the generic kernel spends on about 10**8 pairs at (5, 3)-(6, 3).
UNROLLED_MIN_PAIRS = 1 << 27

#: (N, d, H, L, use_heads, out_position, out_coordinate, K)
KernelShape = tuple[int, int, int, int, bool, int, int, int]


class _Writer:
    """Lines of the loop body; sums reduced after every K products and at the end."""

    def __init__(self, K: int) -> None:
        self.K, self.lines = K, []  # type: ignore[var-annotated]

    def add(self, line: str, indent: int = 3) -> None:
        self.lines.append("    " * indent + line)

    def sum_into(self, name: str, init: str | None, terms: list[tuple[str, str]]) -> None:
        """name = reduce(init + sum a*b), reduced after every K products."""
        expr = init if init is not None else "0.0"
        for i, (a, b) in enumerate(terms):
            expr = f"{expr} + {a} * {b}"
            if (i + 1) % self.K == 0 and i + 1 < len(terms):
                self.add(f"{name} = {expr}")
                self.add(f"{name} = {name} - p * np.rint({name} * pinv)")
                expr = name
        self.add(f"{name} = {expr}")
        self.add(f"{name} = {name} - p * np.rint({name} * pinv)")


def kernel_source(shape: KernelShape) -> str:
    """The Python source of the unrolled kernel for one network shape (module docstring).

    Parameters
    ----------
    shape : tuple
        ``(N, d, H, L, use_heads, out_position, out_coordinate, K)``: tokens per sentence,
        width, heads, depth (>= 2), whether layers 2..L run head by head (else through the
        maps T), the output position and coordinate, and K(p).

    Returns
    -------
    str
        The source of ``kernel(U, uMa, Ma, VT, vMbT, MbT, maps, kq, vo, p, out)`` (the
        arguments of :func:`seprank.incontext.kernel.zin_grid_kernel` without the index
        arrays, which are written into the code).

    Examples
    --------
    >>> src = kernel_source((1, 2, 1, 2, True, 0, 1, 31))
    >>> src.count("np.rint") > 0 and "def kernel(" in src
    True
    """
    N, d, H, L, use_heads, out_position, out_coordinate, K = shape
    if L < 2:
        raise ValueError("the unrolled kernel computes depth >= 2 (depth 1 is the numpy path)")
    n2, nl = 2 * N, L - 1
    iu, ju = np.triu_indices(d)
    tri = len(iu)
    gidx = np.zeros((d, d), dtype=np.int64)
    gidx[iu, ju] = gidx[ju, iu] = np.arange(tri)
    w = _Writer(K)
    head = ["def kernel(U, uMa, Ma, VT, vMbT, MbT, maps, kq, vo, p, out):",
            "    Ra = U.shape[0]", "    Sb = VT.shape[2]", "    pinv = 1.0 / p"]
    # the network's weights, read once
    for layer in range(nl):
        last = layer == nl - 1
        if use_heads:
            for h in range(H):
                for k in range(d):
                    for c in range(d):
                        head.append(f"    kq_{layer}_{h}_{k}_{c} = kq[{layer}, {h}, {k}, {c}]")
                    for c in (range(d) if not last else [out_coordinate]):
                        head.append(f"    vo_{layer}_{h}_{k}_{c} = vo[{layer}, {h}, {k}, {c}]")
        else:
            rows = [o * d + out_coordinate for o in range(d)] if last else range(d * d)
            for row in rows:
                for q in range(tri):
                    head.append(f"    t_{layer}_{row}_{q} = maps[{layer}, {row}, {q}]")
    head.append("    for r in nb.prange(Ra):")
    for j in range(N):
        for k in range(d):
            head.append(f"        u_{j}_{k} = U[r, {j}, {k}]")
            head.append(f"        uma_{j}_{k} = uMa[r, {j}, {k}]")
    for k in range(d):
        for c in range(d):
            head.append(f"        ma_{k}_{c} = Ma[r, {k}, {c}]")
    head.append("        for s in range(Sb):")
    # layer 1: x_j = u_j Ma_r + u_j Mb_s (S1), x_{N+j} = v_j Mb_s + v_j Ma_r (S2)
    for j in range(N):
        for c in range(d):
            w.sum_into(f"x_{j}_{c}", f"uma_{j}_{c}",
                       [(f"u_{j}_{k}", f"MbT[{k}, {c}, s]") for k in range(d)])
            w.sum_into(f"x_{N + j}_{c}", f"vMbT[{j}, {c}, s]",
                       [(f"ma_{k}_{c}", f"VT[{j}, {k}, s]") for k in range(d)])
    for layer in range(nl):
        last = layer == nl - 1
        for q in range(tri):
            a, b = int(iu[q]), int(ju[q])
            w.sum_into(f"g_{q}", None, [(f"x_{t}_{a}", f"x_{t}_{b}") for t in range(n2)])
        if use_heads:
            rows = [out_position] if last else list(range(n2))
            cols = [out_coordinate] if last else list(range(d))
            for t in rows:
                for c in cols:
                    w.add(f"y_{t}_{c} = 0.0")
                for h in range(H):
                    for c in range(d):  # P = x_t KQ_h
                        w.sum_into(f"pp_{c}", None,
                                   [(f"x_{t}_{k}", f"kq_{layer}_{h}_{k}_{c}") for k in range(d)])
                    for c in range(d):  # Q = P G
                        w.sum_into(f"qq_{c}", None,
                                   [(f"pp_{k}", f"g_{int(gidx[k, c])}") for k in range(d)])
                    for c in cols:  # y_t += Q VO_h
                        w.sum_into(f"y_{t}_{c}", f"y_{t}_{c}",
                                   [(f"qq_{k}", f"vo_{layer}_{h}_{k}_{c}") for k in range(d)])
            if last:
                w.add(f"out[r, s] = y_{out_position}_{out_coordinate}")
            else:
                for t in rows:
                    for c in cols:
                        w.add(f"x_{t}_{c} = y_{t}_{c}")
            continue
        outs = [o * d + out_coordinate for o in range(d)] if last else list(range(d * d))
        for row in outs:
            w.sum_into(f"m_{row}", None, [(f"t_{layer}_{row}_{q}", f"g_{q}")
                                          for q in range(tri)])
        if last:  # y^i_p = x_i . mix[:, p]
            w.sum_into("z", None, [(f"x_{out_position}_{k}", f"m_{k * d + out_coordinate}")
                                   for k in range(d)])
            w.add("out[r, s] = z")
        else:  # Y = X mix
            for t in range(n2):
                for c in range(d):
                    w.sum_into(f"y_{t}_{c}", None,
                               [(f"x_{t}_{k}", f"m_{k * d + c}") for k in range(d)])
            for t in range(n2):
                for c in range(d):
                    w.add(f"x_{t}_{c} = y_{t}_{c}")
    return "\n".join(head + w.lines) + "\n"


@lru_cache(maxsize=16)
def unrolled_kernel(shape: KernelShape) -> Callable[..., Any]:
    """The compiled unrolled kernel of one network shape (compiled on first use, kept for the
    process).

    Parameters
    ----------
    shape : tuple
        ``(N, d, H, L, use_heads, out_position, out_coordinate, K)`` (:func:`kernel_source`).

    Returns
    -------
    callable
        ``kernel(U, uMa, Ma, VT, vMbT, MbT, maps, kq, vo, p, out)`` filling ``out``.

    Examples
    --------
    >>> kernel = unrolled_kernel((1, 2, 1, 2, True, 0, 1, 31))
    >>> callable(kernel)
    True
    """
    nb = require("numba", feature="the unrolled in-context kernel")

    namespace: dict[str, Any] = {"np": np, "nb": nb}
    exec(compile(kernel_source(shape), f"<zin kernel {shape}>", "exec"), namespace)
    return nb.njit(parallel=True, fastmath={"contract"})(namespace["kernel"])
