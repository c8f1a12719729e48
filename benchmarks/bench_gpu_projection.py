r"""The in-context frontier on one H200-class GPU, projected from counted CPU arithmetic:
``python -m benchmarks gpu_projection [--sizes=7x3,8x3]``.

Nothing runs on a GPU here (none is installed, and no GPU code is written): the projection
counts the work of the degree blocks at (d_x, L) exactly from their shapes and divides it by
a GPU's published peak rates, so it is a *lower bound* on the GPU's time (a roofline), with
an estimate beside it at stated efficiencies.  The work, per size:

* **ranks** -- block k is an :math:`n_k \times n_k` grid (its bound + 8 rows and columns,
  :func:`benchmarks.bench_degree_blocks.block_sides`) of rank :math:`r_k` = its bound (every
  block of the frontier reached it).  An LU of an :math:`m \times n` matrix of rank r costs
  :func:`lu_multiply_adds` :math:`= m n r - (m + n) r^2 / 2 + r^3 / 3` multiply-adds; the
  GF(p) elimination (:mod:`seprank.core.gfp_elimination`) does its trailing updates as
  float64 products whose right operand is split in two for the engines' 25-bit primes
  (:func:`seprank.core.gfp_elimination.product_terms`: 127 direct terms, fewer than any
  update's inner dimension above the panels), so the float64 products cost **twice** the
  LU's multiply-adds (:data:`SPLIT_PRODUCTS`);
* **memory traffic** -- each level of the recursion reads and writes the trailing matrix
  once per product (8 bytes per entry): :math:`\approx 8 \cdot n^2 \cdot (2 + 2 \cdot 2)
  \cdot \log_2(n / 32) / 2` bytes for an n x n block (:func:`elimination_traffic_bytes`; the
  trailing block halves in width at each level);
* **transfer** -- the block grids are computed by the sweep; if it stays on the host, each
  block's int32 grid crosses PCIe (4 bytes per entry, widened to float64 on the device);
  if the sweep runs on the GPU too, only the templates do;
* **sweep** -- :math:`(C + 1)\, m_{max}^2` evaluations of Z_in of
  :func:`benchmarks.bench_degree_blocks._fma_count` multiply-adds each, at the CPU's
  measured overhead over its own multiply-add limit (:data:`SWEEP_OVERHEAD`, the unrolled
  kernel's measured 1.6-3.1x), applied to the GPU's FP64 vector rate.

GPU figures (:data:`H200`): NVIDIA H200 SXM product page and datasheet,
https://www.nvidia.com/en-us/data-center/h200/ -- FP64 34 TFLOPS, FP64 Tensor Core 67
TFLOPS, FP32 67 TFLOPS, 141 GB HBM3e at 4.8 TB/s, NVLink 900 GB/s, PCIe Gen5 128 GB/s (both
directions, i.e. 64 GB/s host to device; the host link of an HGX H200 board is "PCIe Gen5
x16", MLCommons inference v4.1 system description ``H200-SXM-141GBx8``).  A multiply-add is
two flops.

References
----------
.. [1] J.-G. Dumas, P. Giorgi, C. Pernet, "Dense linear algebra over word-size prime fields:
   the FFLAS and FFPACK packages", ACM TOMS 35 (2008) (the LU's operation count, the
   delayed reduction).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any

from benchmarks._util import markdown_table, write_result
from benchmarks.bench_estimation import load_line

__all__ = ["GPU", "H200", "LAUNCH_SECONDS", "SPLIT_PRODUCTS", "SWEEP_OVERHEAD",
           "elimination_traffic_bytes", "lu_multiply_adds", "project_gpu"]

#: Float64 products per trailing update of the GF(p) elimination for 25-bit primes (the
#: right operand split in two, :mod:`seprank.core.gfp_elimination`).
SPLIT_PRODUCTS = 2
#: Measured time of the unrolled Z_in kernel over its multiply-add limit on the CPU (1.6-3.1x
#: at (5, 3) ... (3, 5), ``python -m benchmarks degree_blocks``); the upper end is used.
SWEEP_OVERHEAD = 3.1
#: Panel width of the elimination (its leaves), for the traffic count.
PANEL = 32
#: Seconds of one kernel launch and its synchronisation (an assumption, the usual few
#: microseconds of CUDA): the panels eliminate their columns one after another, each column
#: a pivot search, a swap and a rank-one update (:data:`LAUNCHES_PER_COLUMN` launches).
LAUNCH_SECONDS = 5e-6
LAUNCHES_PER_COLUMN = 3


@dataclass(frozen=True)
class GPU:
    """Published peak rates of one GPU (flops per second, bytes, bytes per second)."""

    name: str
    fp64_tensor_flops: float
    fp64_flops: float
    memory_bytes: float
    memory_bandwidth: float
    host_bandwidth: float
    source: str


#: NVIDIA H200 SXM (module docstring: the product page's figures).
H200 = GPU("NVIDIA H200 SXM", fp64_tensor_flops=67e12, fp64_flops=34e12,
           memory_bytes=141e9, memory_bandwidth=4.8e12, host_bandwidth=64e9,
           source="https://www.nvidia.com/en-us/data-center/h200/ (FP64 34 / FP64 Tensor Core "
                  "67 TFLOPS, 141 GB HBM3e, 4.8 TB/s, PCIe Gen5 128 GB/s both ways)")


def lu_multiply_adds(m: int, n: int, r: int) -> float:
    """Multiply-adds of an LU of an ``m x n`` matrix of rank ``r`` (the leading terms):
    :math:`m n r - (m + n) r^2 / 2 + r^3 / 3`.

    Parameters
    ----------
    m, n, r : int
        The shape and the rank (``r <= min(m, n)``).

    Returns
    -------
    float
        Multiply-adds.

    Examples
    --------
    >>> lu_multiply_adds(3000, 3000, 3000) == 3000**3 / 3     # n^3 / 3 for a square full rank
    True
    """
    if not 0 <= r <= min(m, n):
        raise ValueError(f"the rank r = {r} must lie in 0..min(m, n) = {min(m, n)}")
    return float(m) * n * r - (m + n) * float(r) ** 2 / 2 + float(r) ** 3 / 3


def elimination_traffic_bytes(n: int) -> float:
    """Bytes read and written by the recursive elimination of an ``n x n`` float64 block:
    at each of the :math:`\\log_2(n / 32)` levels the trailing updates touch about half the
    matrix, reading and writing it (2) and writing and reading each of the two products'
    results (4), 8 bytes an entry.

    Parameters
    ----------
    n : int
        The side.

    Returns
    -------
    float
        Bytes.

    Examples
    --------
    >>> elimination_traffic_bytes(32)    # one panel: read and written once
    16384.0
    """
    levels = max(1.0, math.log2(max(n, PANEL) / PANEL))
    return 8.0 * n * n * (2 + 2 * SPLIT_PRODUCTS) * levels / 2 if n > PANEL else 16.0 * n * n


def project_gpu(sides: list[int], ranks: list[int], sweep_pairs: float, fma_per_pair: int,
                gpu: GPU = H200, *, gemm_efficiency: float = 0.7,
                sweep_on_gpu: bool = True) -> dict[str, Any]:
    """Time of the degree blocks on one GPU: ranks, traffic, transfer, sweep (module doc).

    Parameters
    ----------
    sides, ranks : list of int
        Every block's side (square grids) and rank.
    sweep_pairs : float
        Evaluations of f by the sweep.
    fma_per_pair : int
        Multiply-adds of one evaluation.
    gpu : GPU
        Its peak rates.
    gemm_efficiency : float, keyword-only
        Fraction of the FP64 tensor peak the elimination's products reach (the estimate;
        the bound uses 1).
    sweep_on_gpu : bool, keyword-only
        The sweep on the GPU (only templates cross the host link) or on the host (every
        block's int32 grid crosses it).

    Returns
    -------
    dict
        Multiply-adds, bytes and seconds (``bound``: peak rates; ``estimate``: at
        ``gemm_efficiency`` plus the panels' launch latency, :data:`LAUNCH_SECONDS`), and
        the device memory at its peak (the sweep's grids, or the
        largest block widened to float64).

    Examples
    --------
    >>> toy = GPU("toy", 2.0, 2.0, 100.0, 1e9, 1e9, "")
    >>> r = project_gpu([3], [3], 0, 1, toy, gemm_efficiency=1.0)
    >>> r["lu_madds"], r["gemm_madds"], r["rank_seconds_bound"]   # 9 madds x 2 / (2 flops/s / 2)
    (9.0, 18.0, 18.0)
    """
    madds = sum(lu_multiply_adds(n, n, r) for n, r in zip(sides, ranks, strict=True))
    gemm = SPLIT_PRODUCTS * madds
    traffic = sum(elimination_traffic_bytes(n) for n in sides)
    rank_compute = gemm / (gpu.fp64_tensor_flops / 2)
    rank_memory = traffic / gpu.memory_bandwidth
    latency = LAUNCHES_PER_COLUMN * LAUNCH_SECONDS * sum(min(n, r) for n, r in
                                                         zip(sides, ranks, strict=True))
    rank_bound = max(rank_compute, rank_memory)
    transfer_bytes = 0.0 if sweep_on_gpu else 4.0 * sum(float(n) * n for n in sides)
    transfer = transfer_bytes / gpu.host_bandwidth
    sweep_bound = sweep_pairs * fma_per_pair / (gpu.fp64_flops / 2) if sweep_on_gpu else 0.0
    sweep_estimate = sweep_bound * SWEEP_OVERHEAD
    largest = max(sides, default=0)
    # on the device: every block's int32 grid while the sweep fills them (sweep on the GPU),
    # then, the smaller blocks ranked and released first, the largest widened in place
    store = 4.0 * sum(float(n) * n for n in sides) if sweep_on_gpu else 0.0
    device = max(store, 8.0 * largest * largest)
    return {"lu_madds": madds, "gemm_madds": gemm, "traffic_bytes": traffic,
            "rank_seconds_bound": rank_bound,
            "rank_seconds_estimate": max(rank_compute / gemm_efficiency, rank_memory) + latency,
            "latency_seconds": latency,
            "transfer_bytes": transfer_bytes, "transfer_seconds": transfer,
            "sweep_seconds_bound": sweep_bound, "sweep_seconds_estimate": sweep_estimate,
            "total_bound": rank_bound + transfer + sweep_bound,
            "total_estimate": (max(rank_compute / gemm_efficiency, rank_memory) + latency
                               + transfer + sweep_estimate),
            "device_bytes": device, "fits": device <= gpu.memory_bytes}


def size_projection(d_x: int, L: int, gpu: GPU = H200, **kwargs: Any) -> dict[str, Any]:
    """:func:`project_gpu` for the in-context blocks at (d_x, L) (H = 1, N = 1)."""
    from benchmarks.bench_degree_blocks import _fma_count, block_sides

    sides = block_sides(d_x, L)
    ranks = [n - 8 for n in sides]
    C = (3**L - 1) // 2
    pairs = float(C + 1) * max(sides) ** 2
    out = project_gpu(sides, ranks, pairs, _fma_count(d_x, L), gpu, **kwargs)
    out.update({"size": (d_x, L), "blocks": len(sides), "largest": max(ranks),
                "sweep_pairs": pairs, "fma_per_pair": _fma_count(d_x, L)})
    return out


#: Side of the dgemm that measures the CPU's rate.
DGEMM_N = 2000


def dgemm_rate() -> float:
    """Multiply-adds per second of one ``DGEMM_N``-square float64 product here (best of 3)."""
    import time

    import numpy as np

    X = np.random.default_rng(0).standard_normal((DGEMM_N, DGEMM_N))
    X @ X
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        X @ X
        best = min(best, time.perf_counter() - t)
    return float(DGEMM_N) ** 3 / best


def main(argv: list[str]) -> int:
    vals = [a.split("=", 1)[1] for a in argv if a.startswith("--sizes=")]
    sizes = [tuple(int(x) for x in t.split("x")) for t in (vals[0] if vals else "7x3,8x3")
             .split(",") if t]
    cpu_rate = dgemm_rate()
    rows = []
    for d_x, L in sizes:
        for on_gpu in (True, False):
            r = size_projection(d_x, L, sweep_on_gpu=on_gpu)
            rows.append([f"({d_x}, {L})", "GPU" if on_gpu else "host", r["blocks"],
                         r["largest"], f"{r['gemm_madds']:.3g}",
                         f"{r['traffic_bytes'] / 1e9:.0f} GB",
                         f"{r['rank_seconds_bound']:.3g} s / {r['rank_seconds_estimate']:.3g} s",
                         f"{r['transfer_bytes'] / 1e9:.3g} GB in {r['transfer_seconds']:.3g} s",
                         f"{r['sweep_pairs']:.3g} x {r['fma_per_pair']}: "
                         f"{r['sweep_seconds_bound']:.3g} s / {r['sweep_seconds_estimate']:.3g} s"
                         if on_gpu else "as on the host",
                         f"{r['total_bound']:.3g} s / {r['total_estimate']:.3g} s",
                         f"{r['gemm_madds'] / cpu_rate:.3g} s",
                         f"{r['device_bytes'] / 2**30:.3g} GiB "
                         f"({'fits' if r['fits'] else 'does not fit'})"])
    text = "\n".join([
        "# The in-context frontier on one GPU: a projection from counted arithmetic", "",
        f"GPU: {H200.name}, {H200.source}. Bound: peak rates; estimate: the products at "
        f"70% of the FP64 tensor peak, the sweep at {SWEEP_OVERHEAD}x its multiply-add limit "
        "(the CPU kernel's measured overhead).", "",
        markdown_table(["size", "sweep on", "blocks", "largest block", "float64 product "
                        "multiply-adds", "elimination traffic", "ranks (bound / estimate)",
                        "host -> device", "sweep (pairs x madds: bound / estimate)",
                        "GPU total (bound / estimate; a host sweep not counted)",
                        "CPU products at one dgemm's rate",
                        "device memory"], rows), "",
        f"CPU: one {DGEMM_N} x {DGEMM_N} dgemm measured here at {cpu_rate / 1e9:.1f} G "
        f"multiply-adds/s ({load_line()}; the machine may be shared): the last but one "
        "column is the float64 products' multiply-adds at that rate, the CPU's floor for "
        "the same ranks.", ""])
    print(text)
    print(f"written to {write_result('gpu_projection', text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
