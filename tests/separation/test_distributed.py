"""The degree blocks' ranks on dask.distributed (seprank.separation.distributed)."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.core.cluster import MAX_WORKERS_PER_CORE, available_cores
from seprank.core.domains import ModularDomain
from seprank.incontext.representation import InContextRepresentation
from seprank.incontext.seq_sep import incontext_seq_sep
from seprank.separation import separation_rank
from seprank.separation.distributed import (
    BlockRanks,
    assign_blocks,
    check_executor,
    rank_block,
)

P = 16777259


def _makespan(shapes: dict[int, tuple[int, int]], assignment: dict[int, str]) -> float:
    load: dict[str, float] = {}
    for k, w in assignment.items():
        r, c = shapes[k]
        load[w] = load.get(w, 0.0) + float(r) * c * min(r, c)
    return max(load.values())


@settings(max_examples=60, deadline=None)
@given(sides=st.lists(st.integers(1, 40), min_size=1, max_size=7),
       n_workers=st.integers(1, 3))
def test_lpt_within_grahams_bound_of_the_best_schedule(sides: list[int], n_workers: int) -> None:
    """LPT's makespan is at most (4/3 - 1/(3m)) times the optimum (Graham 1969); the optimum
    by brute force over every assignment."""
    shapes = {k: (s, s) for k, s in enumerate(sides)}
    workers = [f"w{i}" for i in range(n_workers)]
    got = assign_blocks(shapes, workers)
    assert sorted(got) == sorted(shapes) and set(got.values()) <= set(workers)
    best = min(_makespan(shapes, dict(zip(shapes, choice, strict=True)))
               for choice in itertools.product(workers, repeat=len(shapes)))
    assert _makespan(shapes, got) <= (4 / 3 - 1 / (3 * n_workers)) * best + 1e-9


def test_lpt_puts_the_largest_block_first_and_alone_when_it_dominates() -> None:
    got = assign_blocks({0: (100, 100), 1: (10, 10), 2: (20, 20), 3: (30, 30)}, ["a", "b"])
    assert next(iter(got)) == 0
    assert [k for k, w in got.items() if w == got[0]] == [0]


def test_executor_is_validated_where_it_enters() -> None:
    assert check_executor("serial") == "serial"
    assert check_executor(None) is None
    assert check_executor("tcp://127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    with pytest.raises(ValueError, match="1 to"):
        check_executor(0)
    with pytest.raises(ValueError, match="scheduler address"):
        check_executor(MAX_WORKERS_PER_CORE * available_cores() + 1)
    with pytest.raises(ValueError, match="scheduler address"):
        check_executor("dask please")
    for bad in (1.5, True, [2]):
        with pytest.raises(TypeError, match="executor must be"):
            check_executor(bad)


def test_only_the_degree_strategy_takes_an_executor() -> None:
    def f(X: np.ndarray) -> np.ndarray:
        return X[:, 0, 0] * X[:, 1, 0]

    with pytest.raises(ValueError, match="structure='degree'"):
        separation_rank(f, n_inputs=2, dim=1, partition=([0], [1]), structure="dense",
                        executor=2)


def test_rank_block_is_the_domains_rank() -> None:
    rng = np.random.default_rng(0)
    M = (rng.integers(0, 50, (30, 4)) @ rng.integers(0, 50, (4, 20))).astype(np.int32)
    result, wall, cpu = rank_block(M, P)
    assert result.rank == ModularDomain(P).rank(M.astype(np.int64)).rank == 4
    assert wall >= 0 and cpu >= 0


def test_a_worker_rank_is_used_only_for_the_matrix_that_was_sent() -> None:
    from distributed import Client, LocalCluster

    rng = np.random.default_rng(1)
    sent = (rng.integers(0, 50, (12, 3)) @ rng.integers(0, 50, (3, 12))).astype(np.int32)
    other = rng.integers(0, P, (12, 12))
    with LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        pool = BlockRanks(client, ModularDomain(P), {0: sent})
        rank = pool.rank_of(0)
        assert rank(other).rank == 12          # not the sent matrix: ranked here
        assert 0 not in pool.costs
        assert rank(sent.astype(np.int64)).rank == 3   # the sent one: the worker's rank
        assert pool.costs[0]["shape"] == (12, 12)
        pool.release()


def _without_timings(cert: dict) -> dict:
    cert = json.loads(json.dumps(cert, default=str))
    cert.get("provenance", {}).pop("seconds", None)
    cert.get("provenance", {}).pop("witness_seconds", None)
    return cert


def test_blocks_on_a_local_cluster_certify_what_the_serial_path_certifies() -> None:
    """Same rank, block ranks, stops and certificate (timings aside) on one or two worker
    processes; the result says where the ranks ran."""
    rep = InContextRepresentation.random(depth=3, width=3, heads=1, n_tokens=1, seed=7)
    serial = incontext_seq_sep(rep, seed=1, keep_witness=True)
    on_dask = incontext_seq_sep(rep, seed=1, keep_witness=True, executor=2)
    assert serial.rank == on_dask.rank == serial.upper_bound == 560
    a, b = serial.engine, on_dask.engine
    assert [(x.rank, x.stop_reason, x.matrix_shape) for x in a.blocks] == \
        [(x.rank, x.stop_reason, x.matrix_shape) for x in b.blocks]
    assert _without_timings(serial.certificate()) == _without_timings(on_dask.certificate())
    assert b.details["executor"].startswith("local dask cluster, 2 worker")
    ran = b.details["block_ranks_on_workers"]
    assert len(ran) == len(a.blocks)
    assert len({c["worker"] for c in ran.values()}) == 2
    assert a.details["executor"] == "serial (this process)"
