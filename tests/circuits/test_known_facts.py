"""Known facts about the zoo's architectures, each a test with its reference and statement.

Certified ranks are GF(p) grid ranks (lower bounds on sep); where the literature proves an
upper bound, a certified value equal to it certifies sep exactly.  Expected values are closed
forms from the statements (channel counts, state sizes, monomial counts, exact matrix ranks of
the weights), never values produced by the engine.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import sympy

from seprank.circuits import deep_cac, linear_ssm, polynomial_mlp, rac, shallow_cac


def _partitions(n: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    out = []
    for k in range(1, n // 2 + 1):
        for A in itertools.combinations(range(n), k):
            B = tuple(i for i in range(n) if i not in A)
            if k < n - k or A < B:
                out.append((A, B))
    return out


@pytest.mark.parametrize("channels", [2, 5])
@pytest.mark.parametrize("shared", [False, True])
def test_shallow_cac_rank_is_bounded_by_its_channels_for_every_partition(channels: int,
                                                                        shared: bool) -> None:
    """Cohen, Sharir & Shashua 2016 (CP decomposition of the shallow network): f is a sum of
    Z = ``channels`` products of linear forms, one per position, so for every partition
    sep_(A,B)(f) <= Z; f is multilinear, so also sep <= dim^|A|, dim^|B|; for generic weights
    the flattening of a rank-Z CP tensor has rank min(Z, dim^|A|, dim^|B|).  With weights
    shared across positions (a convolution) f is symmetric in its positions, and the flattening
    lives in Sym^|A| x Sym^|B|: sep <= C(dim + |A| - 1, |A|), attained with the rest."""
    N, d = 4, 3
    f = shallow_cac(n_inputs=N, dim=d, channels=channels, shared=shared, seed=11)
    for A, B in _partitions(N):
        r = f.separation_rank(partition=(A, B), seed=0)
        if shared:
            sides = [math.comb(d + len(S) - 1, len(S)) for S in (A, B)]
        else:
            sides = [d ** len(A), d ** len(B)]
        assert r.rank == min(channels, *sides), (A, B)
        assert r.rank <= channels


CONTIGUOUS_HALVES = ((0, 1, 2, 3), (4, 5, 6, 7))
EVENS_ODDS = ((0, 2, 4, 6), (1, 3, 5, 7))


@pytest.mark.parametrize("seed", [0, 1])
def test_deep_cac_pooling_geometry_decides_which_partitions_are_cheap(seed: int) -> None:
    """Cohen & Shashua 2017 (pooling geometry): with N = 8, dim = M = 2 and r = 2 channels
    everywhere,

    * the partition the *last* pooling joins has sep <= r_{L-1} = 2 (the output is
      sum_c a_c g_c(x_A) h_c(x_B));
    * a partition every first-level window crosses has sep <= min(r_0, M)^{N/2} = 16 (each
      window contributes a bilinear form of rank <= min(r_0, M)), attained for generic weights
      (their lower bound);
    * with interleaved pooling the halves are joined at level 2 in two groups: sep <= r_1^2 = 4.

    Contiguous windows favour the halves; interleaved windows the evens/odds."""
    contiguous = deep_cac(n_inputs=8, dim=2, channels=2, pooling="contiguous", seed=seed)
    interleaved = deep_cac(n_inputs=8, dim=2, channels=2, pooling="interleaved", seed=seed)
    assert contiguous.separation_rank(partition=CONTIGUOUS_HALVES, seed=0).rank == 2
    assert contiguous.separation_rank(partition=EVENS_ODDS, seed=0).rank == 2 ** 4
    assert interleaved.separation_rank(partition=EVENS_ODDS, seed=0).rank == 2
    assert interleaved.separation_rank(partition=CONTIGUOUS_HALVES, seed=0).rank == 2 ** 2


@pytest.mark.parametrize("state", [2, 3])
def test_selective_linear_ssm_start_end_rank_is_bounded_by_the_state(state: int) -> None:
    """A state recurrence linear in the state, h_t = A(x_t) h_{t-1}, y = <c, h_T> (a tensor
    train of bond dimension S): for the cut after step t, y = sum_s c^T P_{>t}[:, s] h_t[s]
    with h_t a function of the start and P_{>t} of the end, so sep <= S; the function is
    multilinear, so also sep <= dim^t, dim^{T-t}; generic weights attain the minimum.
    (T = 4: the engine's grids have m^|B| columns, so long sides are kept out of quick tests.)"""
    T, d = 4, 2
    f = linear_ssm(n_inputs=T, dim=d, state=state, seed=5)
    for t in range(1, T):
        part = (tuple(range(t)), tuple(range(t, T)))
        r = f.separation_rank(partition=part, seed=0)
        assert r.rank == min(state, d ** t, d ** (T - t)), t


def test_lti_ssm_is_linear_so_every_partition_has_rank_two() -> None:
    """h_t = A h_{t-1} + B x_t is linear in the inputs: f = g(x_A) + h(x_B) = g * 1 + 1 * h,
    so sep <= 2 for every partition, = 2 when both parts enter (generic weights)."""
    f = linear_ssm(n_inputs=4, dim=2, state=3, kind="lti", seed=3)
    for part in _partitions(4):
        assert f.separation_rank(partition=part, seed=0).rank == 2


@pytest.mark.parametrize(("T", "R"), [(4, 2), (6, 3), (8, 2)])
def test_shallow_rac_start_end_rank_is_bounded_by_its_hidden_channels(T: int, R: int) -> None:
    """Levine, Sharir & Shashua 2018, Theorem 1 (shallow part): a depth-1 RAC with R hidden
    channels has start-end separation rank <= R (the hidden state at T/2 carries the start);
    the function is multilinear (sep <= dim^{T/2}); generic weights attain min(R, dim^{T/2})."""
    d = 2
    f = rac(n_inputs=T, dim=d, hidden=R, seed=2)
    part = (tuple(range(T // 2)), tuple(range(T // 2, T)))
    assert f.separation_rank(partition=part, seed=0).rank == min(R, d ** (T // 2))


@pytest.mark.parametrize(("T", "R"), [(4, 2), (6, 2), (8, 2), (4, 3), (6, 3)])
def test_deep_rac_start_end_rank_exceeds_levine_et_al_lower_bound(T: int, R: int) -> None:
    """Levine, Sharir & Shashua 2018, Theorem 1 (deep part): a depth-2 RAC with R hidden
    channels and M = dim input features has, for generic weights, start-end separation rank
    >= C(T/2 + min(M, R) - 1, T/2) (a multiset coefficient), far above the shallow network's
    R.  The certified values exceed the printed lower bound (it is not tight here); they stay
    within the size bound of the coefficient matrix's single bidegree block."""
    d = 2
    f = rac(n_inputs=T, dim=d, hidden=R, depth=2, seed=2)
    part = (tuple(range(T // 2)), tuple(range(T // 2, T)))
    r = f.separation_rank(partition=part, seed=0)
    assert r.rank >= math.comb(T // 2 + min(d, R) - 1, T // 2)
    assert r.rank > R                                  # deeper than the shallow bound
    assert r.rank <= r.block_bound


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_quadratic_mlp_rank_is_the_rank_of_its_cross_block_plus_two(seed: int) -> None:
    """f = sum_j a_j <w_j, x>^2 = x^T Q x with Q = W^T diag(a) W: its coefficient matrix
    between A and B has the blocks (2, 0) [one row: x_A^T Q_AA x_A], (0, 2) [one column] and
    (1, 1) [2 Q_AB], so sep_(A,B)(f) = rank(Q_AB) + [Q_AA != 0] + [Q_BB != 0] (exact rank over
    Q of the integer weights, computed here with sympy)."""
    N, d, m = 3, 2, 3
    f = polynomial_mlp(n_inputs=N, dim=d, widths=m, exponent=2, seed=seed)
    W, a = (n.value for n in f.nodes if n.op == "const")
    Q = sympy.Matrix(np.asarray(W, dtype=object).T @ np.diag(np.asarray(a, dtype=object))
                     @ np.asarray(W, dtype=object))
    A, B = (0,), (1, 2)
    ia = [n * d + k for n in A for k in range(d)]
    ib = [n * d + k for n in B for k in range(d)]
    want = (Q.extract(ia, ib).rank() + int(not Q.extract(ia, ia).is_zero_matrix)
            + int(not Q.extract(ib, ib).is_zero_matrix))
    r = f.separation_rank(partition=(A, B), seed=0)
    assert r.rank == want
    assert {(b.a_degree, b.b_degree) for b in r.blocks} == {(0, 2), (1, 1), (2, 0)}
