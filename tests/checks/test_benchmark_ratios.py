"""The ratio arithmetic of ``python -m benchmarks estimation`` / ``frontier`` (no timing)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest


def test_the_error_slope_of_the_parametric_rate_is_minus_one_half() -> None:
    TOL = 1e-12
    from benchmarks.bench_estimation import slope

    ns = [10**3, 10**4, 10**5, 10**6]
    s = slope(ns, [3.0 / np.sqrt(n) for n in ns])
    assert s is not None and abs(s + 0.5) < TOL
    assert slope([10**3, 10**4], [0.1, 0.03]) is None     # one point at n >= 1e4: no slope


def test_blocks_equal_to_the_dense_round_predict_ratio_one_and_no_overhead() -> None:
    TOL = 1e-12
    from benchmarks.bench_frontier import overhead

    pb = 60
    dense = {"rank_step": {"wall": 2.0}}
    # one block of the dense size in one round, at the dense rate
    one = {"PB": pb, "rank_wall": 2.0, "blocks": [[pb, pb, [[pb, pb, 2.0]]]]}
    o = overhead(one, dense)
    assert abs(o["predicted_ratio"] - 1) < TOL and abs(o["measured_ratio"] - 1) < TOL
    # two blocks of half size: (1/2)^3 * 2 = 1/4 of the multiply-adds, ratio 4
    two = {"PB": pb, "rank_wall": 0.5,
           "blocks": [[pb // 2, pb // 2, [[pb // 2, pb // 2, 0.25]]]] * 2}
    o = overhead(two, dense)
    assert o["predicted_ratio"] == pytest.approx(4.0, abs=TOL)
    assert o["measured_block_rank"] == pytest.approx(o["predicted_block_rank"], abs=TOL)
    assert o["n_blocks"] == 2 and o["n_rounds"] == 2


def test_the_gpu_projection_counts_an_lu_and_divides_by_the_stated_rates() -> None:
    """The GPU projection's arithmetic on toy cases: the LU count's closed cases (square full
    rank n^3/3, rank 0, rank 1), its growth in the rank, and the time and bytes of a toy
    device whose rates make every term a whole number."""
    from benchmarks.bench_gpu_projection import (
        GPU,
        SPLIT_PRODUCTS,
        lu_multiply_adds,
        project_gpu,
    )

    assert lu_multiply_adds(30, 30, 30) == pytest.approx(30**3 / 3)
    assert lu_multiply_adds(40, 70, 0) == 0
    # rank 1: one pivot, the (m - 1) x (n - 1) Schur update to leading order m n - (m + n)/2
    assert lu_multiply_adds(40, 70, 1) == pytest.approx(40 * 70 - 110 / 2 + 1 / 3)
    counts = [lu_multiply_adds(100, 100, r) for r in range(0, 101, 10)]
    assert all(a < b for a, b in itertools.pairwise(counts))
    with pytest.raises(ValueError, match="rank"):
        lu_multiply_adds(3, 4, 5)
    # toy device: 2 flops/s (1 multiply-add/s) in the products and the sweep, 1 byte/s links
    toy = GPU("toy", fp64_tensor_flops=2.0, fp64_flops=2.0, memory_bytes=1e6,
              memory_bandwidth=1e30, host_bandwidth=1.0, source="")
    on_host = project_gpu([3, 6], [3, 6], 0, 1, toy, gemm_efficiency=1.0, sweep_on_gpu=False)
    madds = 3**3 / 3 + 6**3 / 3
    assert on_host["lu_madds"] == pytest.approx(madds)
    assert on_host["rank_seconds_bound"] == pytest.approx(SPLIT_PRODUCTS * madds)
    assert on_host["transfer_bytes"] == 4 * (9 + 36) == on_host["transfer_seconds"]
    assert on_host["device_bytes"] == 8 * 36
    on_gpu = project_gpu([3, 6], [3, 6], 10, 7, toy, gemm_efficiency=0.5, sweep_on_gpu=True)
    assert on_gpu["transfer_seconds"] == 0 and on_gpu["sweep_seconds_bound"] == 70
    assert on_gpu["rank_seconds_estimate"] == pytest.approx(
        2 * SPLIT_PRODUCTS * madds + on_gpu["latency_seconds"])
    assert on_gpu["device_bytes"] == max(4 * (9 + 36), 8 * 36)


def test_the_projected_peak_is_the_sweep_or_a_rank_step_beside_the_larger_grids() -> None:
    """One block: the larger of its int32 grid with the sweep's temporaries and its in-place
    rank step; two blocks: the smaller one's rank step is taken beside the larger's int32
    grid (ranked smallest first)."""
    from benchmarks.bench_frontier import projected_peak_bytes
    from seprank.separation.blocks import CHUNK_BYTES, rank_step_bytes

    n = 5000
    one = projected_peak_bytes([n])
    assert one == max(4 * n * n + min(CHUNK_BYTES, 32 * n * n), rank_step_bytes(n, n,
                                                                                 in_place=True))
    m = 4000
    two = projected_peak_bytes([n, m])
    assert two >= rank_step_bytes(m, m, in_place=True) + 4 * n * n
    assert two >= 4 * (n * n + m * m)
    assert two < rank_step_bytes(n, n) + 4 * m * m + CHUNK_BYTES   # no int32 copy counted
