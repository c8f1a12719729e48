"""Degree blocks: block and dense separation ranks agree; a wrong declaration is refused.

Expected values are the dense engine's independent computation (one grid, no interpolation),
closed-form block bounds (monomial counts), and PB by hand (the claims' tables).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seprank import Budget, LinearAttention, separation_rank
from seprank.core.domains import ModularDomain
from seprank.incontext.representation import InContextRepresentation
from seprank.incontext.seq_sep import incontext_seq_sep
from seprank.separation import (
    BlockSeparationRankResult,
    DegreeStructure,
    DegreeStructureError,
)
from seprank.separation.degree import interpolation_nodes

#: (d_x, H, L, N, PB by hand): the ICB-PB-attained quick settings (paper_checks/claims).
INCONTEXT = ((2, 1, 1, 1, 3), (2, 1, 1, 2, 3), (3, 1, 1, 2, 4), (2, 1, 2, 1, 15),
             (2, 1, 2, 3, 15), (3, 1, 2, 2, 35), (4, 1, 2, 2, 70), (4, 2, 2, 1, 70),
             (4, 4, 2, 2, 70), (5, 1, 2, 1, 126), (6, 3, 2, 2, 210), (2, 1, 3, 2, 105))
#: (L, d_x, H, N): the D2W quick configurations (paper_checks/claims/d2w/common.py).
D2W = ((1, 2, 1, 2), (1, 3, 1, 2), (1, 4, 1, 2), (1, 5, 1, 2), (1, 6, 1, 2),
       (1, 4, 2, 2), (1, 4, 4, 2), (1, 6, 2, 2), (1, 6, 3, 2), (1, 6, 3, 4),
       (2, 2, 1, 2), (2, 2, 1, 4), (2, 2, 1, 6), (2, 2, 2, 2), (2, 3, 1, 2), (2, 3, 1, 4),
       (2, 3, 3, 2), (2, 4, 1, 2), (2, 4, 2, 2), (2, 5, 1, 2), (2, 5, 5, 2), (2, 6, 2, 2),
       (2, 6, 3, 2), (3, 2, 1, 2), (3, 2, 2, 2))
WEIGHT_SEED, TEMPLATE_SEED = 2020, 3


@pytest.mark.parametrize(("d_x", "H", "L", "N", "pb"), INCONTEXT)
@pytest.mark.parametrize("i_in_first", [True, False])
def test_incontext_blocks_equal_dense_and_pb(d_x: int, H: int, L: int, N: int, pb: int,
                                             i_in_first: bool) -> None:
    rep = InContextRepresentation.random(depth=L, width=d_x, heads=H, n_tokens=N,
                                         position=0 if i_in_first else N,
                                         seed=1000 * d_x + 100 * H + 10 * L + N)
    blocks = incontext_seq_sep(rep, seed=7, structure="degree")
    dense = incontext_seq_sep(rep, seed=7, structure="dense")
    assert isinstance(blocks.engine, BlockSeparationRankResult)
    assert blocks.rank == dense.rank
    assert blocks.engine.block_bound == pb == rep.bound()
    if d_x > H:
        assert blocks.rank == pb and blocks.certifies == "exact"
    C = (3**L - 1) // 2
    parity = 1 if i_in_first else 0
    want = [(j, 3**L - j) for j in range(3**L + 1) if j % 2 == parity]
    assert [(b.a_degree, b.b_degree) for b in blocks.engine.blocks] == want
    assert len(want) == C + 1
    for b in blocks.engine.blocks:   # block bound = min(m(j), m(k)), m = monomial count
        assert b.bound == min(math.comb(b.a_degree + d_x - 1, d_x - 1),
                              math.comb(b.b_degree + d_x - 1, d_x - 1))
        assert 0 <= b.rank <= b.bound


@pytest.mark.slow
def test_incontext_4_3_blocks_equal_dense_2380() -> None:
    rep = InContextRepresentation.random(depth=3, width=4, heads=1, n_tokens=1, seed=4131)
    blocks = incontext_seq_sep(rep, seed=7, structure="degree")
    dense = incontext_seq_sep(rep, seed=7, structure="dense")
    assert blocks.rank == dense.rank == 2380
    assert max(b.bound for b in blocks.engine.blocks) == 560


def _d2w_net(L: int, d_x: int, H: int, residual: bool = False) -> LinearAttention:
    return LinearAttention.random(depth=L, width=d_x, heads=H, residual=residual,
                                  seed=WEIGHT_SEED + 97 * L + 13 * d_x + H)


@pytest.mark.parametrize(("L", "d_x", "H", "N"), D2W)
def test_position_blocks_equal_dense(L: int, d_x: int, H: int, N: int) -> None:
    net = _d2w_net(L, d_x, H)
    part = (tuple(range(N // 2)), tuple(range(N // 2, N)))
    blocks = net.separation_rank(position=0, coordinate=0,
                                 partition=part, n_inputs=N, seed=TEMPLATE_SEED,
                                 structure="degree")
    dense = net.separation_rank(position=0, coordinate=0,
                                partition=part, n_inputs=N, seed=TEMPLATE_SEED,
                                structure="dense")
    assert isinstance(blocks, BlockSeparationRankResult)
    assert blocks.rank == dense.rank
    assert blocks.saturated and dense.saturated
    assert all(b.a_degree % 2 == 1 for b in blocks.blocks)  # i = 0 is in A: odd A-degrees


def test_auto_picks_blocks_for_declared_functions_and_dense_otherwise() -> None:
    net = _d2w_net(2, 2, 1)
    auto = net.separation_rank(position=0, coordinate=0, partition=([0], [1]), n_inputs=2, seed=0)
    assert isinstance(auto, BlockSeparationRankResult)
    fixed = net.separation_rank(position=0, coordinate=0, partition=([0], [1]), n_inputs=2, seed=0,
                                n_templates=8)
    assert not isinstance(fixed, BlockSeparationRankResult)
    svd = net.separation_rank(position=0, coordinate=0, partition=([0], [1]), n_inputs=2, seed=0,
                              method="svd")
    assert not isinstance(svd, BlockSeparationRankResult)
    res = _d2w_net(2, 2, 1, residual=True)
    assert res.entry(0, 0).degree_structure((0,), (1,)) is None
    assert not isinstance(res.separation_rank(position=0, coordinate=0,
                                              partition=([0], [1]), n_inputs=2,
                                              seed=0), BlockSeparationRankResult)
    with pytest.raises(ValueError, match="declares no degree structure"):
        res.separation_rank(position=0, coordinate=0, partition=([0], [1]), n_inputs=2, seed=0,
                            structure="degree")
    with pytest.raises(ValueError, match="needs method='modular'"):
        net.separation_rank(position=0, coordinate=0,
                            partition=([0], [1]), n_inputs=2, method="exact",
                            structure="degree")


def test_a_residual_network_declared_homogeneous_is_refused() -> None:
    """Residual networks mix degrees 1, 3, ..., 3^L: declaring them homogeneous must fail."""
    res = _d2w_net(2, 2, 1, residual=True)
    wrong = DegreeStructure.homogeneous(9, a_parity=1)
    with pytest.raises(DegreeStructureError, match="not of the declared degree structure"):
        res.separation_rank(position=0, coordinate=0, partition=([0], [1]), n_inputs=2, seed=0,
                            structure=wrong)


@pytest.mark.parametrize("seed", range(4))
def test_wrong_bidegrees_are_refused_not_mis_split(seed: int) -> None:
    """f = <x,y>^2 + <x,y>: bidegrees (2,2) and (1,1).  Declaring homogeneity of degree 4
    (or the right A-degrees with wrong B-degrees) would split wrongly: refused every time."""
    def f(X: np.ndarray) -> np.ndarray:
        s = np.einsum("bi,bi->b", X[:, 0], X[:, 1])
        return s * s + s

    for wrong in (DegreeStructure.homogeneous(4), DegreeStructure(((1, 3), (2, 2)))):
        with pytest.raises(DegreeStructureError):
            separation_rank(f, n_inputs=2, dim=2, partition=([0], [1]), seed=seed,
                            structure=wrong)
    right = separation_rank(f, n_inputs=2, dim=2, partition=([0], [1]), seed=seed,
                            structure=DegreeStructure(((1, 1), (2, 2))))
    dense = separation_rank(f, n_inputs=2, dim=2, partition=([0], [1]), seed=seed)
    assert right.rank == dense.rank == 2 + 3   # rank of <x,y> is 2, of <x,y>^2 is 3


def test_a_superset_declaration_is_harmless() -> None:
    def f(X: np.ndarray) -> np.ndarray:   # <x, y>^3: only bidegree (3, 3)
        return np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** 3

    r = separation_rank(f, n_inputs=2, dim=2, partition=([0], [1]), seed=1,
                        structure=DegreeStructure.homogeneous(6))
    assert r.rank == 4 and [b.rank for b in r.blocks] == [0, 0, 0, 4, 0, 0, 0]
    assert r.certifies == "lower_bound"   # the zero blocks stay below their size bounds


def test_interpolation_nodes_invert_the_vandermonde_system() -> None:
    F = ModularDomain(16777259)
    s = DegreeStructure.homogeneous(27, a_parity=1)
    nodes, W = interpolation_nodes(s, F, np.random.default_rng(0))
    V = np.array([[pow(t, j, F.p) for j in s.a_degrees] for t in nodes], dtype=object)
    assert np.all((W.astype(object) @ V) % F.p == np.eye(len(nodes), dtype=int))


def test_structure_validation_names_the_problem() -> None:
    with pytest.raises(ValueError, match="pairwise distinct"):
        DegreeStructure(((1, 1), (1, 2)))
    with pytest.raises(ValueError, match="at least one"):
        DegreeStructure(())
    with pytest.raises(ValueError, match="a_parity"):
        DegreeStructure.homogeneous(3, a_parity=2)


def test_blocks_respect_the_memory_limit() -> None:
    rep = InContextRepresentation.random(depth=2, width=3, n_tokens=1, seed=5)
    r = incontext_seq_sep(rep, seed=0, structure="degree", budget=Budget(max_bytes=2 * 2**20))
    assert r.rank == 35   # small blocks still fit one at a time
    with pytest.raises(MemoryError):
        incontext_seq_sep(rep, seed=0, structure="degree", budget=Budget(max_bytes=2**12))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(depth=st.integers(1, 2), width=st.sampled_from([1, 2, 3]), heads=st.integers(1, 3),
       n_inputs=st.sampled_from([2, 3, 4]), i=st.integers(0, 3), p=st.integers(0, 2),
       split=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_property_blocks_equal_dense_on_random_networks(depth: int, width: int, heads: int,
                                                        n_inputs: int, i: int, p: int,
                                                        split: int, seed: int) -> None:
    if width % heads or depth * n_inputs * width > 12:
        heads = 1
    if depth == 2 and n_inputs * width > 6:
        n_inputs = 2
    i, p, split = i % n_inputs, p % width, min(split, n_inputs - 1)
    order = np.random.default_rng(seed).permutation(n_inputs)
    A, B = sorted(order[:split].tolist()), sorted(order[split:].tolist())
    net = LinearAttention.random(depth=depth, width=width, heads=heads, seed=seed,
                                 low=-9, high=9)
    blocks = net.separation_rank(position=i, coordinate=p,
                                 partition=(A, B), n_inputs=n_inputs, seed=seed,
                                 structure="degree")
    dense = net.separation_rank(position=i, coordinate=p,
                                partition=(A, B), n_inputs=n_inputs, seed=seed,
                                structure="dense")
    assert blocks.rank == dense.rank


def test_serial_blocks_rank_their_grids_in_place_with_the_same_ranks() -> None:
    """Issue 36, item 4: without a kept witness the serial blocks widen each grid in its own
    allocation and eliminate it in place; the ranks equal those of the int32 path (the one a
    kept witness takes), block by block."""
    rep = InContextRepresentation.random(depth=2, width=3, n_tokens=1, seed=5)
    fast = incontext_seq_sep(rep, seed=0, structure="degree")
    kept = incontext_seq_sep(rep, seed=0, structure="degree", keep_witness=True)
    assert fast.rank == kept.rank
    fe: Any = fast.engine
    ke: Any = kept.engine
    ways = set()
    for a, b in zip(fe.blocks, ke.blocks, strict=True):
        assert a.rank == b.rank
        ways.add(a.rank_result.details.get("computed_by", ""))
        assert "in place" not in b.rank_result.details.get("computed_by", "")
    assert any("in place" in w for w in ways), ways
    fe.blocks[-1].evidence.minor()  # a witness found later re-evaluates int32


def _monomials(d: int, k: int) -> int:
    return math.comb(d + k - 1, k)


def test_a_generic_representation_does_the_benchmarks_work_with_the_same_kernel() -> None:
    """Issue 36, item 3: the public call on a representation built as a user builds one
    (a random network, a random integer embedding, distinct tokens for the two sentences)
    does exactly the work of the benchmark's (one sentence token): the same blocks and
    shapes, one shared sweep of (C + 1) m_max^2 evaluations of Z_in (C + 1 scalings of the
    largest block's bound + 8 templates: no block's grid evaluated twice), on the same
    kernel, and PB certified by both."""
    from seprank.incontext.representation import random_embedding

    d, L = 3, 3
    C = (3**L - 1) // 2
    bounds = [min(_monomials(d, 2 * k + 1), _monomials(d, 2 * C - 2 * k)) for k in range(C + 1)]
    m_max = max(bounds) + 8
    bench = InContextRepresentation.random(depth=L, width=d, n_tokens=1, seed=4)
    net = LinearAttention.random(depth=L, width=d, heads=1, seed=11)
    generic = InContextRepresentation(net, random_embedding(d, 2, seed=12), [0], [1])
    work = []
    for rep in (bench, generic):
        r = incontext_seq_sep(rep, seed=0, structure="degree")
        e: Any = r.engine
        assert r.rank == r.upper_bound == sum(bounds) and r.certifies == "exact"
        assert e.details["sweep_pairs"] == (C + 1) * m_max**2
        assert e.details["sweep_runs"] == (m_max,)
        work.append((sorted((h.rows, h.cols) for h in e.history),
                     r.details["grid_kernel_pairs"]))
    assert work[0] == work[1]
    assert sorted(work[0][0]) == sorted((b + 8, b + 8) for b in bounds)


def test_blocks_that_do_not_fit_together_share_sweeps_and_keep_their_ranks() -> None:
    """Issue 36, item 3: when every block's first round does not fit the memory limit at
    once, the blocks used to be evaluated one sweep each (the sum of every block's
    evaluations: 2.3x at (5, 3), 6.5x at (4, 4) under the default 2 GiB); they now share as
    few sweeps as the limit allows (:func:`seprank.separation.blocks.sweep_groups`), with
    the same ranks, block by block."""
    from seprank.separation.blocks import CHUNK_BYTES, rank_step_bytes

    rep = InContextRepresentation.random(depth=3, width=3, n_tokens=1, seed=4)
    free = incontext_seq_sep(rep, seed=0, structure="degree")
    fe: Any = free.engine
    sides = [b.matrix_shape[0] for b in fe.blocks]
    n_nodes, n = len(fe.nodes), max(sides)
    store = sum(4 * s * s for s in sides)
    # the largest block's rank step and sweep temporaries: all blocks together exceed it
    biggest = rank_step_bytes(n, n, in_place=True) + min(CHUNK_BYTES, 32 * n_nodes * n * n)
    every = sum(n_nodes * s * s for s in sides)
    for limit in (store + biggest - 1, biggest + 64 * n):
        tight = incontext_seq_sep(rep, seed=0, structure="degree",
                                  budget=Budget(max_bytes=limit))
        te: Any = tight.engine
        assert [b.rank for b in te.blocks] == [b.rank for b in fe.blocks]
        assert tight.rank == free.rank == free.upper_bound
        assert "exceed the memory limit" in te.details["sweep"]
        assert fe.details["sweep_pairs"] <= te.details["sweep_pairs"] < every
        assert len(te.details["sweep_runs"]) < len(sides)


def test_sweep_groups_take_the_largest_blocks_together_within_the_limit() -> None:
    """The grouping against brute force over every contiguous split: each group's peak
    (its cached matrices with the sweep temporaries; each block's rank step beside the
    matrices still cached) within the limit, and no group could take the next smaller
    block."""
    from seprank.separation.blocks import sweep_groups

    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 8))
        sides = np.sort(rng.integers(1, 40, n))
        store = [4 * int(s) ** 2 for s in sides]
        step = [8 * int(s) ** 2 + 100 for s in sides]
        temp = [50 + int(s) for s in sides]
        limit = int(rng.integers(100, 20000))

        def peak(g: list[int], store: list[int] = store, step: list[int] = step,
                 temp: list[int] = temp) -> int:
            return max(sum(store[j] for j in g) + temp[g[-1]],
                       max(step[j] + sum(store[t] for t in g[i + 1:])
                           for i, j in enumerate(g)))

        groups = sweep_groups(store, step, temp, limit)
        flat = [i for g in groups for i in g]
        assert flat == sorted(flat) and all(g == list(range(g[0], g[-1] + 1)) for g in groups)
        assert set(flat) == {i for i in range(n) if step[i] + temp[i] <= limit}
        for g in groups:
            assert peak(g) <= limit
            if g[0] - 1 in flat:  # the block below joined another group: it did not fit here
                assert peak([g[0] - 1, *g]) > limit


def test_the_in_place_rank_step_is_estimated_without_the_int32_grid() -> None:
    """Issue 36, item 4: the serial blocks widen their int32 grid in its own allocation
    (no int32 grid beside the float64 copy, measured in tests/core/test_gfp_elimination.py);
    the memory estimate of that rank step counts the float64 matrix and its strips, not both
    matrices -- so the largest block of (7, 3), 27140 x 27140, fits an 8 GiB budget by the
    engine's own estimate (it did not: 12 bytes an entry)."""
    from seprank.core.gfp_elimination import elimination_bytes
    from seprank.separation.blocks import REALLOC_COPY_BYTES, rank_step_bytes

    n = 27140
    both = rank_step_bytes(n, n)
    alone = rank_step_bytes(n, n, in_place=True)
    assert both == 4 * n * n + elimination_bytes(n, n)
    assert alone == elimination_bytes(n, n) + REALLOC_COPY_BYTES
    assert alone < 8 * 2**30 < both
    assert rank_step_bytes(50, 50, in_place=True) == rank_step_bytes(50, 50)  # may be copied
