"""Theorem 7/8 tensors and parameter recovery: Jennrich, ALS, Hungarian matching, signs."""

from __future__ import annotations

import numpy as np
import pytest

from identifiability import (
    HMM,
    GaussianHMM,
    als_parafac,
    cp_reconstruct,
    hmm_tensor_factors,
    jennrich,
    kruskal_condition,
    masked_prediction_tensor,
    match_permutation,
    optimal_predictor,
    recover_ghmm,
    recover_hmm,
    rotation_about_ones,
    rotation_twin,
)

FACTOR_TOL = 1e-14      # closed-form factors vs the predictor-built tensor
JENNRICH_TOL = 1e-7     # parameter error after exact (Jennrich) recovery
ALS_TOL = 1e-2          # parameter error after ALS (iterative, ~1e-4 typical)
THREE_TOKEN = ["x2*x3|x1", "x3*x2|x1", "x1*x3|x2", "x3*x1|x2", "x1*x2|x3", "x2*x1|x3"]
DATA_SEEDS = [0, 1]
ALGO_SEED = 12345        # the algorithms' own stream, never the data seed


# --- tensors ---------------------------------------------------------------------------------

@pytest.mark.parametrize("task", THREE_TOKEN)
@pytest.mark.parametrize("kind", ["hmm", "ghmm"])
def test_tensor_equals_factor_form(task, kind) -> None:
    model = HMM.random(5, 3, seed=0) if kind == "hmm" else GaussianHMM.random(4, 3, seed=0)
    mt = masked_prediction_tensor(model, task)
    assert np.max(np.abs(mt.W - mt.reconstruct())) < FACTOR_TOL
    if kind == "ghmm":
        X = np.random.default_rng(1).standard_normal((4, 5))  # any inputs, here 5 points
        mt2 = masked_prediction_tensor(model, task, points=X)
        assert mt2.W.shape == (4, 4, 4)
        assert np.max(np.abs(mt2.W - mt2.reconstruct())) < FACTOR_TOL


def test_hmm_factors_case_table() -> None:
    m = HMM.random(5, 3, seed=1)
    O, T = m.O, m.T
    Dinv = np.diag(1 / O.sum(1))
    expected = {
        "x2*x3|x1": (Dinv @ O @ T.T, O, O @ T),       # (2.36)-(2.38)
        "x1*x3|x2": (Dinv @ O, O @ T.T, O @ T),       # (2.40)-(2.41)
        "x1*x2|x3": (Dinv @ O @ T, O @ T.T, O),       # case 3
    }
    for task, facs in expected.items():
        got = masked_prediction_tensor(m, task).factors
        for g, e in zip(got, facs, strict=True):
            assert np.allclose(g, e, atol=1e-15)


def test_exact_factors_and_exact_kruskal_ranks() -> None:
    from fractions import Fraction as F

    O = np.array([[F(1, 2), F(1, 6), F(1, 5)], [F(1, 4), F(1, 2), F(1, 5)],
                  [F(1, 8), F(1, 6), F(3, 5)], [F(1, 8), F(1, 6), F(0)]], dtype=object)
    T = np.array([[F(1, 2), F(1, 3), F(1, 6)], [F(1, 3), F(1, 6), F(1, 2)],
                  [F(1, 6), F(1, 2), F(1, 3)]], dtype=object)
    for task in ("x2*x3|x1", "x1*x3|x2", "x1*x2|x3"):
        c = kruskal_condition(hmm_tensor_factors(O, T, task))
        assert c.k_ranks == (3, 3, 3) and c.holds and c.verdict_certified
    J = np.full((3, 3), F(1, 3), dtype=object)  # rank-1 T violates A7: condition fails
    c = kruskal_condition(hmm_tensor_factors(O, J, "x2*x3|x1"))
    assert c.k_ranks == (1, 3, 1) and not c.holds


def test_non_adjacent_tasks_are_refused() -> None:
    with pytest.raises(ValueError, match="adjacent"):
        masked_prediction_tensor(HMM.random(4, 3, seed=0), "x2*x4|x1")
    with pytest.raises(ValueError, match="Theorems 7/8"):
        recover_hmm(optimal_predictor(HMM.random(4, 3, seed=0), "x2|x1"), 3)


# --- CP algorithms ---------------------------------------------------------------------------

@pytest.mark.parametrize(("I", "J", "K", "R"), [(3, 3, 3, 3), (5, 4, 2, 3), (8, 8, 8, 6)])
def test_jennrich_recovers_random_factors(I, J, K, R) -> None:
    rng = np.random.default_rng(I * J * K)
    A, B, C = rng.standard_normal((I, R)), rng.standard_normal((J, R)), rng.standard_normal((K, R))
    W = np.einsum("ir,jr,kr->ijk", A, B, C)
    res = jennrich(W, R, seed=ALGO_SEED)
    assert res.rel_error < 1e-10
    unit = A / np.linalg.norm(A, axis=0)
    signs = np.sign(unit[0])
    est = res.factors[0] * np.sign(res.factors[0][0])
    assert match_permutation(est, unit * signs).max_abs_error < 1e-8


def test_jennrich_input_errors() -> None:
    with pytest.raises(ValueError, match="rank <= min"):
        jennrich(np.ones((2, 2, 5)), 3)
    with pytest.raises(ValueError, match="NaN"):
        jennrich(np.full((2, 2, 2), np.nan), 1)
    with pytest.raises(ValueError, match="3-tensor"):
        jennrich(np.ones((2, 2)), 1)


def test_als_restarts_use_their_own_seed_stream() -> None:
    rng = np.random.default_rng(0)
    W = np.einsum("ir,jr,kr->ijk", *(rng.random((4, 2)) for _ in range(3)))
    a = als_parafac(W, 2, n_restarts=3, seed=ALGO_SEED, n_iter_max=300)
    b = als_parafac(W, 2, n_restarts=3, seed=ALGO_SEED, n_iter_max=300)
    assert a.details["seeds"] == b.details["seeds"] and a.rel_error == b.rel_error
    assert len(a.details["restart_errors"]) == 3 and a.rel_error == min(
        a.details["restart_errors"])
    assert np.allclose(cp_reconstruct(a.factors), W, atol=1e-4)


def test_match_permutation() -> None:
    rng = np.random.default_rng(3)
    truth = rng.random((5, 4))
    perm = rng.permutation(4)
    est = truth[:, np.argsort(perm)] + 1e-12
    m = match_permutation(est, truth)
    assert np.allclose(est[:, m.perm], truth) and np.allclose(est @ m.Pi, truth)
    with pytest.raises(ValueError, match="same 2-D shape"):
        match_permutation(np.ones((2, 2)), np.ones((3, 2)))


# --- recovery from predictors --------------------------------------------------------------

@pytest.mark.parametrize("task", THREE_TOKEN)
@pytest.mark.parametrize(("d", "k"), [(3, 3), (5, 3), (6, 4)])
@pytest.mark.parametrize("seed", DATA_SEEDS)
def test_recover_hmm_all_cases(task, d, k, seed) -> None:
    truth = HMM.random(d, k, seed=seed)
    rec = recover_hmm(optimal_predictor(truth, task), k, seed=ALGO_SEED)
    err = rec.errors_against(truth)
    assert err["emission"] < JENNRICH_TOL and err["T"] < JENNRICH_TOL, err
    assert rec.details["predictor_residual"] < JENNRICH_TOL


@pytest.mark.parametrize("task", THREE_TOKEN)
@pytest.mark.parametrize(("d", "k"), [(3, 3), (5, 3), (6, 4)])
@pytest.mark.parametrize("seed", DATA_SEEDS)
def test_recover_ghmm_all_cases(task, d, k, seed) -> None:
    truth = GaussianHMM.random(d, k, seed=seed)
    rec = recover_ghmm(optimal_predictor(truth, task), k, seed=ALGO_SEED)
    err = rec.errors_against(truth)
    assert err["emission"] < JENNRICH_TOL and err["T"] < JENNRICH_TOL, err
    res = rec.details["candidate_residuals"]
    assert res[0] < JENNRICH_TOL and all(r > 1e-3 for r in res[1:])  # wrong signs / HM rejected


def test_ghmm_with_sparse_transition_still_resolves_signs() -> None:
    """T with exact zeros (the Claim 3 matrix, a = 1/2) keeps the sign graph connected."""
    T = 0.5 * np.eye(3) + 0.5 * np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]])
    M = GaussianHMM.random(4, 3, seed=5).M
    truth = GaussianHMM(M, T)
    rec = recover_ghmm(optimal_predictor(truth, "x2*x3|x1"), 3, seed=ALGO_SEED)
    err = rec.errors_against(truth)
    assert err["emission"] < JENNRICH_TOL and err["T"] < JENNRICH_TOL


def test_three_token_predictor_separates_the_rotation_twins() -> None:
    """Twins with equal pairwise predictors (Theorem 4) are told apart by recovery (Thm 7)."""
    m = HMM.random(5, 3, seed=2, concentration=20.0)
    twin = rotation_twin(m, rotation_about_ones(0.05))
    rec_m = recover_hmm(optimal_predictor(m, "x2*x3|x1"), 3, seed=ALGO_SEED)
    rec_t = recover_hmm(optimal_predictor(twin, "x2*x3|x1"), 3, seed=ALGO_SEED)
    assert rec_m.errors_against(m)["emission"] < JENNRICH_TOL
    assert rec_t.errors_against(twin)["emission"] < JENNRICH_TOL
    assert rec_t.errors_against(m)["emission"] > 1e-3


def test_recover_hmm_with_als() -> None:
    truth = HMM.random(6, 3, seed=3)
    rec = recover_hmm(optimal_predictor(truth, "x2*x3|x1"), 3, method="als", seed=ALGO_SEED,
                      n_restarts=2)
    err = rec.errors_against(truth)
    assert err["emission"] < ALS_TOL and err["T"] < ALS_TOL
    assert rec.cp.method == "als" and rec.cp.rel_error < 1e-4


def test_ghmm_recovery_refuses_an_ambiguous_reducible_chain() -> None:
    """Block-diagonal T: each block's mean signs can flip independently of the other's only if
    the predictor cannot tell, which it can (phi changes); recovery must still be right or say
    it is ambiguous, never silently wrong."""
    T = np.kron(np.eye(2), np.array([[0.7, 0.3], [0.3, 0.7]]))
    M = GaussianHMM.random(5, 4, seed=9).M
    truth = GaussianHMM(M, T)
    try:
        rec = recover_ghmm(optimal_predictor(truth, "x2*x3|x1"), 4, seed=ALGO_SEED)
    except ValueError as err:
        assert "ambiguous" in str(err)
    else:
        err = rec.errors_against(truth)
        assert err["emission"] < JENNRICH_TOL and err["T"] < JENNRICH_TOL
