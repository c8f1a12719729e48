"""The ratio arithmetic of ``python -m benchmarks estimation`` / ``frontier`` (no timing)."""

from __future__ import annotations

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
