"""Non-identifiability constructions and local (Jacobian) identifiability."""

from __future__ import annotations

import numpy as np
import pytest

from identifiability import (
    HMM,
    THEOREM6_PRINTED,
    AssumptionError,
    GaussianHMM,
    claim3_pair,
    gaussian_posterior,
    householder_twin,
    jacobian_deficiency,
    lemma7_translation,
    match_permutation,
    optimal_predictor,
    pairwise_twin,
    rotation_about_ones,
    rotation_twin,
    theorem6_printed,
    theorem6_regenerated,
)

EQUAL_TOL = 1e-13        # "same predictor" in floating point
DIFFERENT_TOL = 1e-6     # three-token predictors of the twins must differ by more
PAIRWISE = [f"x{t}|x1" for t in range(2, 6)] + [f"x1|x{t}" for t in range(2, 6)]


def _max_diff(a: HMM, b: HMM, task: str) -> float:
    return float(np.max(np.abs(optimal_predictor(a, task).table()
                               - optimal_predictor(b, task).table())))


@pytest.mark.parametrize(("d", "k", "theta"), [(4, 3, 0.05), (5, 3, 0.1), (6, 4, 0.05)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rotation_family_matches_every_pairwise_task(d, k, theta, seed) -> None:
    m = HMM.random(d, k, seed=seed, concentration=5.0, transition_scale=0.5)
    R = rotation_about_ones(theta, k, seed=seed)
    assert np.allclose(R.T @ R, np.eye(k)) and np.allclose(R @ np.ones(k), 1)
    twin = rotation_twin(m, R)
    for task in PAIRWISE:
        assert _max_diff(m, twin, task) < EQUAL_TOL, task
    assert _max_diff(m, twin, "x2*x3|x1") > DIFFERENT_TOL
    assert match_permutation(twin.O, m.O).max_abs_error > DIFFERENT_TOL  # not a relabelling


def test_rotation_twin_refuses_leaving_the_model_class() -> None:
    m = HMM.random(4, 3, seed=0)
    with pytest.raises(AssumptionError):
        rotation_twin(m, rotation_about_ones(2.0))      # large angle: negative entries
    with pytest.raises(ValueError, match="orthogonal"):
        rotation_twin(m, 2 * np.eye(3))
    with pytest.raises(ValueError, match="k < 3"):
        rotation_about_ones(0.1, 2)


def test_k2_single_task_twin() -> None:
    m = HMM([[0.6, 0.2], [0.3, 0.3], [0.1, 0.5]], [[0.7, 0.3], [0.3, 0.7]])
    twin = pairwise_twin(m, np.array([[1.05, -0.05], [-0.05, 1.05]]))
    assert _max_diff(m, twin, "x2|x1") < EQUAL_TOL
    assert _max_diff(m, twin, "x3|x1") > DIFFERENT_TOL  # k = 2: the pair of tasks tells apart
    with pytest.raises(ValueError, match="R 1 = 1"):
        pairwise_twin(m, np.array([[1.0, 0.1], [0.0, 1.0]]))


def test_theorem6_regeneration_reproduces_the_printed_matrices() -> None:
    m, twin, _ = theorem6_regenerated(0.1)
    assert np.max(np.abs(twin.O - THEOREM6_PRINTED["O_tilde"])) < 1e-8   # 8 printed decimals
    assert np.max(np.abs(twin.T - THEOREM6_PRINTED["T_tilde"])) < 1e-8
    a, b = theorem6_printed()
    for task in ("x2|x1", "x1|x2", "x3|x1", "x1|x3"):
        assert _max_diff(m, twin, task) < EQUAL_TOL
        assert _max_diff(a, b, task) < 1e-8
    with pytest.raises(AssumptionError, match="A5"):
        HMM(THEOREM6_PRINTED["O"], THEOREM6_PRINTED["T"])  # 8 decimals fail the default atol


@pytest.mark.parametrize("t", [2, 3, 4, 7, 10, 50, 333])
def test_claim3_matrix_powers(t) -> None:
    T, Tt, M = claim3_pair(t)
    assert np.max(np.abs(np.linalg.matrix_power(Tt, t) - np.linalg.matrix_power(T, t))) < 1e-12
    assert np.max(np.abs(Tt - T)) > 1e-3
    assert np.allclose(Tt.sum(0), 1) and np.allclose(Tt.sum(1), 1) and Tt.min() > -1e-15
    assert np.allclose(np.linalg.inv(M), np.array([[2, 0, np.sqrt(2)],
                                                   [-1, -np.sqrt(3), np.sqrt(2)],
                                                   [-1, np.sqrt(3), np.sqrt(2)]]) / 3)
    g, gt = GaussianHMM(M / np.sqrt(1.5), T), GaussianHMM(M / np.sqrt(1.5), Tt, atol=1e-12)
    f, ft = optimal_predictor(g, f"x{t + 1}|x1"), optimal_predictor(gt, f"x{t + 1}|x1")
    x = np.random.default_rng(t).standard_normal((5, 3))
    assert np.max(np.abs(f(x) - ft(x))) < 1e-12


def test_claim3_needs_a_careful_a() -> None:
    assert any(claim3_pair(t, 0.3)[1].min() < -1e-3 for t in range(2, 11))
    assert any(claim3_pair(t, 0.8)[1].min() < -1e-3 for t in range(2, 11))
    with pytest.raises(ValueError, match="t must be an integer >= 1"):
        claim3_pair(0)


@pytest.mark.parametrize(("d", "k"), [(3, 3), (5, 3), (6, 4)])
def test_householder_twin(d, k) -> None:
    g = GaussianHMM.random(d, k, seed=d + k)
    tw = householder_twin(g.M, g.T)
    assert np.allclose(np.linalg.norm(tw.M_twin, axis=0), 1)
    assert np.ptp(tw.v_hat @ g.M) < 1e-12                        # v^T mu_i constant
    x = np.random.default_rng(0).standard_normal((30, d))
    assert np.max(np.abs(gaussian_posterior(g.M, x) - gaussian_posterior(tw.M_twin, x))) < 1e-13
    assert np.allclose(np.ones(k) @ np.linalg.pinv(tw.M_twin) @ g.M, -1)   # (2.58)
    assert np.allclose(tw.T_twin.sum(0), -1)
    f = g.M @ g.T @ gaussian_posterior(g.M, x).T
    f_twin = tw.M_twin @ tw.T_twin @ gaussian_posterior(tw.M_twin, x).T
    assert np.max(np.abs(f - f_twin)) < 1e-13


def test_lemma7_translation_family_for_d_greater_than_k() -> None:
    g = GaussianHMM.random(5, 3, seed=0)
    W = np.linalg.svd(g.M)[0][:, 3:]              # orthogonal complement of col(M)
    x = np.random.default_rng(1).standard_normal((40, 5))
    c = 1 / np.linalg.norm(np.linalg.pinv(g.M).T @ np.ones(3))
    for scale in (0.0, 0.3, 0.9):
        for branch in (1, -1):
            Mt = lemma7_translation(g.M, scale * c * W[:, 0], branch=branch)
            assert np.allclose(np.linalg.norm(Mt, axis=0), 1)
            assert np.max(np.abs(gaussian_posterior(Mt, x) - gaussian_posterior(g.M, x))) < 1e-12
            if scale > 0:  # neither M nor HM: the column space moved
                assert np.linalg.matrix_rank(np.hstack([g.M, Mt]), tol=1e-9) == 4
    HM = householder_twin(g.M, g.T).M_twin
    assert np.allclose(lemma7_translation(g.M, np.zeros(5), branch=1), HM)
    assert np.allclose(lemma7_translation(g.M, np.zeros(5), branch=-1), g.M)
    with pytest.raises(ValueError, match="orthogonal"):
        lemma7_translation(g.M, g.M[:, 0])
    with pytest.raises(ValueError, match="exceeds"):
        lemma7_translation(g.M, 2 * c * W[:, 0])


PAIR4 = ["x2|x1", "x1|x2", "x3|x1", "x1|x3"]


@pytest.mark.parametrize(
    ("kind", "d", "k", "tasks", "expected"),
    [
        ("hmm", 4, 3, ["x2|x1"], 4), ("hmm", 5, 3, ["x2|x1"], 4),       # (k - 1)^2
        ("hmm", 4, 3, PAIR4, 1), ("hmm", 5, 3, PAIR4, 1),               # (k-1)(k-2)/2
        ("hmm", 5, 4, ["x2|x1"], 9), ("hmm", 5, 4, PAIR4, 3),
        ("hmm", 6, 2, ["x2|x1"], 1), ("hmm", 6, 2, PAIR4, 0),
        ("hmm", 4, 3, ["x2*x3|x1"], 0), ("hmm", 5, 4, ["x1*x3|x2"], 0),
        ("ghmm", 3, 3, ["x2|x1"], 0), ("ghmm", 4, 3, ["x3|x1"], 0), ("ghmm", 5, 4, ["x4|x1"], 0),
    ],
)
def test_jacobian_deficiency_table(kind, d, k, tasks, expected) -> None:
    """Notes §A.4 item 4; the HMM values follow from the mathematics: x2|x1 fixes O T O^T D^-1,
    invariant under R with R1 = 1, 1^T R = 1^T ((k-1)^2 dims); adding x3|x1 and the reverse
    tasks forces R orthogonal (dim SO(k-1) = (k-1)(k-2)/2)."""
    model = HMM.random(d, k, seed=1) if kind == "hmm" else GaussianHMM.random(d, k, seed=1)
    res = jacobian_deficiency(model, tasks, seed=0)
    assert res.deficiency == expected
    assert res.gap is not None and res.gap > 1e8  # a clean numerical gap
