"""Estimation from samples: streamed moments, the spectral estimator, projections, EM.

Tolerances are named at the top of each test.  Expected values come from brute force written
here (window counts, sums over hidden paths), closed forms or optimality conditions, never from
the code under test.
"""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from identifiability.masked import (
    HMM,
    GaussianHMM,
    TripleMoments,
    UnreliableEstimateError,
    birkhoff_projection,
    empirical_moments,
    estimate_ghmm,
    estimate_hmm,
    hmmlearn_data,
    refine_em,
    simplex_projection,
)
from identifiability.masked.goodness_of_fit import FIT_TO_NOISE

WELL = HMM([[0.7, 0.1, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.8]], 0.7 * np.eye(3) + 0.1)


# --- streamed statistics -------------------------------------------------------------------

def test_window_counts_match_a_brute_force_count() -> None:
    x, _ = HMM.random(4, 3, seed=0).sample(9, n_sequences=7, seed=1)
    mom = empirical_moments(x, 4, n_groups=3)
    brute = np.zeros((4, 4, 4))
    pairs = np.zeros((3, 4, 4))
    for row in x:
        for t in range(len(row) - 2):
            a, b, c = row[t:t + 3]
            brute[a, b, c] += 1
            pairs[0, a, b] += 1
            pairs[1, a, c] += 1
            pairs[2, b, c] += 1
    assert mom.n_windows == 7 * 7
    assert np.array_equal(mom.triples.sum(axis=0), brute)
    assert np.array_equal(mom.pairs.sum(axis=0), pairs)
    assert mom.counts.tolist() == [21, 14, 14]  # rows 0,3,6 / 1,4 / 2,5 round-robin


def test_streaming_is_invariant_to_batching_and_one_sequence_is_cut_in_blocks() -> None:
    x, _ = HMM.random(5, 3, seed=2).sample(50, n_sequences=40, seed=3)
    whole = empirical_moments(x, 5)
    streamed = empirical_moments((x[i:i + 7] for i in range(0, 40, 7)), 5)
    assert np.array_equal(whole.triples, streamed.triples)
    single = empirical_moments(x[0], 5, n_groups=4)
    assert single.counts.tolist() == [12, 12, 12, 12]           # 48 windows in 4 blocks
    assert single.triples.sum() == 48


def test_ragged_lists_of_sequences_are_streamed_one_by_one() -> None:
    seqs = [[0, 1, 1, 0], [1, 0, 1], np.array([2, 2, 0, 1, 2])]
    mom = empirical_moments(seqs, 3, n_groups=2)
    assert mom.n_windows == 2 + 1 + 3 and mom.n_sequences == 3
    assert estimate_hmm(seqs * 50, 2, seed=0, check="report").model.d == 3  # d inferred


def test_gaussian_window_moments_match_einsum() -> None:
    TOL = 1e-12
    x, _ = GaussianHMM.random(3, 2, seed=0).sample(6, n_sequences=5, seed=1)
    mom = empirical_moments(x, 3, kind="ghmm", n_groups=2)
    w = [x[:, t:t + 3] for t in range(4)]
    brute = sum(np.einsum("ni,nj,nk->ijk", v[:, 0], v[:, 1], v[:, 2]) for v in w)
    assert np.max(np.abs(mom.triples.sum(axis=0) - brute)) < TOL


_STREAMING_PEAKS = """
import tracemalloc
from identifiability.masked import HMM, empirical_moments
batch = HMM.random(6, 3, seed=0).sample(100, n_sequences=50, seed=0).observations
for n_batches in (4, 40):
    tracemalloc.start()
    empirical_moments((batch for _ in range(n_batches)), 6)
    print(tracemalloc.get_traced_memory()[1])
    tracemalloc.stop()
"""


def test_streaming_memory_does_not_grow_with_the_number_of_batches() -> None:
    """Traced peak for 40 batches vs 4, in a fresh interpreter: tracemalloc counts every
    thread's allocations, and in the test process a session dask client's threads keep
    allocating while a longer run lasts."""
    RATIO = 1.5
    out = subprocess.run([sys.executable, "-c", _STREAMING_PEAKS], capture_output=True,
                         text=True, check=True).stdout.split()
    peak4, peak40 = (int(v) for v in out)
    assert peak40 < RATIO * peak4


def test_moments_refuse_short_sequences_and_bad_tokens() -> None:
    with pytest.raises(ValueError, match="shorter than 3"):
        empirical_moments(np.array([[0, 1], [1, 0]]), 2)
    with pytest.raises(ValueError, match=r"\[0, d\)"):
        empirical_moments(np.array([0, 1, 5]), 2)


# --- the estimator at the population: exact -------------------------------------------------

def _population_moments(E: np.ndarray, T: np.ndarray, kind: str, groups: int = 4
                        ) -> TripleMoments:
    """E[x1 x2 x3] by summing over the k^3 hidden paths (uniform h1, column-stochastic T)."""
    d, k = E.shape
    P3 = np.zeros((d, d, d))
    for h1, h2, h3 in itertools.product(range(k), repeat=3):
        p = T[h2, h1] * T[h3, h2] / k
        P3 += p * np.einsum("i,j,l->ijl", E[:, h1], E[:, h2], E[:, h3])
    pairs = np.stack([P3.sum(2), P3.sum(1), P3.sum(0)]) if kind == "hmm" else None
    if pairs is None:  # cross-time pair moments by the same sum
        pairs = np.zeros((3, d, d))
        for h1, h2, h3 in itertools.product(range(k), repeat=3):
            p = T[h2, h1] * T[h3, h2] / k
            e = (E[:, h1], E[:, h2], E[:, h3])
            for q, (s, u) in enumerate(((0, 1), (0, 2), (1, 2))):
                pairs[q] += p * np.outer(e[s], e[u])
    n = 1000
    return TripleMoments(kind, d, np.repeat(n * P3[None], groups, 0),
                         np.repeat(n * pairs[None], groups, 0), np.full(groups, n), groups,
                         groups * n)


@pytest.mark.parametrize("task", ["x2*x3|x1", "x1*x3|x2", "x1*x2|x3"])
@pytest.mark.parametrize("seed", [0, 1])
def test_population_moments_give_the_exact_hmm(task: str, seed: int) -> None:
    TOL = 1e-8
    truth = HMM.random(6, 4, seed=seed)
    est = estimate_hmm(_population_moments(truth.O, truth.T, "hmm"), 4, task=task, seed=9)
    err = est.errors_against(truth)
    assert est.status == "ok"
    assert err["emission"] < TOL and err["T"] < TOL
    assert est.stderr["emission"] == 0.0                 # identical groups: no spread


@pytest.mark.parametrize("task", ["x2*x3|x1", "x1*x3|x2", "x1*x2|x3"])
def test_population_moments_give_the_exact_ghmm(task: str) -> None:
    TOL = 1e-8
    truth = GaussianHMM.random(5, 3, seed=4)
    est = estimate_ghmm(_population_moments(truth.M, truth.T, "ghmm"), 3, task=task, seed=2)
    err = est.errors_against(truth)
    assert err["emission"] < TOL and err["T"] < TOL


# --- the estimator on samples -------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_samples_give_an_estimate_within_its_error_bar(seed: int) -> None:
    Z = 5.0  # errors within 5 jackknife standard errors (max over entries)
    x, _ = WELL.sample(100, n_sequences=1000, seed=seed)
    est = estimate_hmm(x, 3, seed=100 + seed)
    err = est.errors_against(WELL)
    assert est.meaningful and est.valid
    assert err["emission"] < Z * est.stderr["emission"]
    assert err["T"] < Z * est.stderr["T"]
    O, T = est.model.O, est.model.T
    assert np.allclose(O.sum(0), 1) and O.min() >= 0
    assert np.allclose(T.sum(0), 1) and np.allclose(T.sum(1), 1) and T.min() >= 0
    assert est.conditioning["sigma_min_O"] > 0 and est.conditioning["sigma_min_T"] > 0


def test_error_shrinks_like_one_over_root_n() -> None:
    """16x more data: the error shrinks by ~4 (between 2 and 8 over a seeded pair)."""
    errs = []
    for n_seq in (250, 4000):
        x, _ = WELL.sample(100, n_sequences=n_seq, seed=5)
        est = estimate_hmm(x, 3, seed=6, check="report")
        errs.append(max(est.errors_against(WELL)["emission"], est.errors_against(WELL)["T"]))
    assert 2 < errs[0] / errs[1] < 8


def test_a_tiny_sample_is_flagged_and_raises_by_default() -> None:
    x, _ = HMM.random(5, 3, seed=3).sample(20, n_sequences=10, seed=0)
    est = estimate_hmm(x, 3, seed=1, check="report")
    assert est.status == "too_few_samples" and est.problems
    with pytest.raises(UnreliableEstimateError, match="too_few_samples") as info:
        estimate_hmm(x, 3, seed=1)
    assert info.value.estimate.status == "too_few_samples"


def test_pairwise_tasks_are_refused_with_the_theorem() -> None:
    x, _ = WELL.sample(10, n_sequences=5, seed=0)
    with pytest.raises(ValueError, match="Theorems 4 and 6"):
        estimate_hmm(x, 3, task="x2|x1")
    with pytest.raises(ValueError, match="k = 4 exceeds d = 3"):
        estimate_hmm(x, 4, d=3)


def test_the_ghmm_estimator_on_samples() -> None:
    TOL = 0.1
    truth = GaussianHMM(np.eye(3), 0.7 * np.eye(3) + 0.1)
    x, _ = truth.sample(100, n_sequences=2000, seed=0)
    est = estimate_ghmm(x, 3, seed=1)
    assert est.meaningful
    assert np.allclose(np.linalg.norm(est.model.M, axis=0), 1)
    assert est.errors_against(truth)["emission"] < TOL


@pytest.mark.parametrize("d,k", [(4, 3), (6, 2)])
def test_the_refinement_jacobian_matches_finite_differences(d: int, k: int) -> None:
    TOL = 1e-8
    from identifiability.masked.moment_fit import model_moments, moment_jacobian

    rng = np.random.default_rng(d)
    E, T = rng.random((d, k)), rng.random((k, k))
    p = np.concatenate([E.ravel(), T.ravel()])

    def f(q: np.ndarray) -> np.ndarray:
        M3, Mp = model_moments(q[:d * k].reshape(d, k), q[d * k:].reshape(k, k))
        return np.concatenate([M3.ravel(), Mp.ravel()])

    h = 1e-6
    numeric = np.array([(f(p + h * e) - f(p - h * e)) / (2 * h) for e in np.eye(p.size)]).T
    assert np.max(np.abs(moment_jacobian(E, T) - numeric)) < TOL


# --- projections ---------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-2, 2), min_size=4, max_size=4))
def test_simplex_projection_is_the_nearest_point(v: list[float]) -> None:
    TOL = 1e-6
    p = simplex_projection(np.array(v)[:, None]).ravel()
    assert p.min() >= 0 and abs(p.sum() - 1) < 1e-12
    res = minimize(lambda q: np.sum((q - v) ** 2), np.full(4, 0.25), method="SLSQP",
                   bounds=[(0, 1)] * 4, constraints=[{"type": "eq", "fun": lambda q: q.sum() - 1}],
                   options={"ftol": 1e-14})
    assert np.sum((p - v) ** 2) <= res.fun + TOL


@pytest.mark.parametrize("seed", range(4))
def test_birkhoff_projection_is_the_nearest_doubly_stochastic_matrix(seed: int) -> None:
    TOL = 1e-6
    X = np.random.default_rng(seed).normal(0.33, 0.3, (3, 3))
    P, _, ok = birkhoff_projection(X)
    assert ok and P.min() >= 0
    assert np.allclose(P.sum(0), 1, atol=1e-12) and np.allclose(P.sum(1), 1, atol=1e-12)
    cons = [{"type": "eq", "fun": lambda q: q.reshape(3, 3).sum(0) - 1},
            {"type": "eq", "fun": lambda q: q.reshape(3, 3).sum(1)[:2] - 1}]
    res = minimize(lambda q: np.sum((q - X.ravel()) ** 2), np.full(9, 1 / 3), method="SLSQP",
                   bounds=[(0, 1)] * 9, constraints=cons, options={"ftol": 1e-14})
    assert np.sum((P - X) ** 2) <= res.fun + TOL
    D = 0.6 * np.eye(3) + 0.4 / 3
    assert np.allclose(birkhoff_projection(D)[0], D)              # a fixed point


# --- EM ------------------------------------------------------------------------------------

def test_refine_em_increases_the_likelihood_and_returns_the_model_class() -> None:
    x, _ = HMM.random(5, 3, seed=3).sample(100, n_sequences=200, seed=1)
    est = estimate_hmm(x, 3, seed=2, check="report")
    em = refine_em(est, x, n_iter=30, seed=0)
    X, lengths = hmmlearn_data(x, "hmm", 5, k=3)
    start = est.model.to_hmmlearn()
    # EM never decreases the likelihood (the smoothed start is within 1e-3 of est.model)
    assert em.fitted.score(X, lengths) >= start.score(X, lengths) - 1.0
    T = em.model.T
    assert np.allclose(T.sum(0), 1) and np.allclose(T.sum(1), 1)
    back = HMM.from_hmmlearn(em.model.to_hmmlearn())
    assert np.allclose(back.O, em.model.O) and np.allclose(back.T, em.model.T)


def test_refine_em_for_the_gaussian_model_keeps_unit_means() -> None:
    truth = GaussianHMM(np.eye(3), 0.7 * np.eye(3) + 0.1)
    x, _ = truth.sample(50, n_sequences=100, seed=0)
    em = refine_em(truth, x, n_iter=5)
    assert np.allclose(np.linalg.norm(em.model.M, axis=0), 1)
    assert em.n_iter <= 5 and isinstance(em.converged, bool)


# --- refinement speed-ups (issue 28): the same mathematics --------------------------------

def test_the_compiled_birkhoff_projection_follows_dykstra() -> None:
    """The projection used by the estimator (Python, then compiled) lands
    where spectral.birkhoff_projection's Dykstra does, including on a matrix needing
    thousands of iterations, and is doubly stochastic."""
    TOL = 1e-12
    from identifiability.masked.moment_fit import _PYTHON_DYKSTRA, _birkhoff

    rng = np.random.default_rng(1)
    cases = [rng.standard_normal((8, 8)) * rng.choice([0.3, 1, 3]) + 1 / 8 for _ in range(300)]
    slowest = max(cases, key=lambda X: birkhoff_projection(X)[1])
    assert birkhoff_projection(slowest)[1] > _PYTHON_DYKSTRA  # the compiled loop runs
    for X in [*cases[:20], slowest]:
        P_ref, _, ok_ref = birkhoff_projection(X)
        P, _, ok = _birkhoff(X)
        assert ok == ok_ref
        assert np.max(np.abs(P - P_ref)) < TOL
        assert P.min() >= 0 and np.allclose(P.sum(0), 1, atol=TOL) and np.allclose(
            P.sum(1), 1, atol=TOL)


def test_the_moment_fit_recovers_the_model_from_its_population_moments() -> None:
    """Levenberg-Marquardt from a perturbed start on exact moments returns to a zero residual
    and the true parameters (a local identifiability check: no noise, start nearby)."""
    TOL = 1e-6
    from identifiability.masked.moment_fit import fit_moments, model_moments, moment_residual

    truth = HMM.random(6, 3, seed=3)
    P3, Pp = model_moments(truth.O, truth.T)
    rng = np.random.default_rng(0)
    fit = fit_moments(truth.O + 0.02 * rng.standard_normal(truth.O.shape),
                      truth.T + 0.02 * rng.standard_normal(truth.T.shape), P3, Pp)
    assert moment_residual(fit.E, fit.T, P3, Pp) < TOL
    assert np.max(np.abs(fit.E - truth.O)) < TOL and np.max(np.abs(fit.T - truth.T)) < TOL


def test_em_from_an_undetermined_estimate_is_not_an_improvement() -> None:
    truth = HMM.random(6, 3, seed=5)
    x, _ = truth.sample(20, n_sequences=10, seed=0)
    weak = estimate_hmm(x, 3, d=6, seed=1, check="report")
    assert weak.status == "too_few_samples"
    em = refine_em(weak, x, n_iter=3)
    assert em.improves_on_start is False and em.start_status == "too_few_samples"
    assert "more samples" in em.details["advice"] and "restarts" in em.details["advice"]
    assert refine_em(truth, x, n_iter=3).improves_on_start is None


# --- goodness of fit, supported k and bounded jackknife ------------------------------------

def test_a_model_with_too_few_states_is_a_misfit_and_raises() -> None:
    """k = 2 on data from a well-conditioned 3-state HMM: the moments reject it (a 2-state
    model cannot produce a rank-3 pair moment), the correct k = 3 fits within noise."""
    x, _ = WELL.sample(100, n_sequences=2000, seed=21)
    mom = empirical_moments(x, 3)
    small = estimate_hmm(mom, 2, seed=1, check="report")
    assert small.status == "misfit" and not small.meaningful
    assert small.details["supported_k"] == 3 and "reject k = 2" in small.problems[0]
    with pytest.raises(UnreliableEstimateError, match="misfit"):
        estimate_hmm(mom, 2, seed=1)
    right = estimate_hmm(mom, 3, seed=1, check="report")
    assert right.status == "ok" and right.details["supported_k"] == 3
    assert right.details["fit_to_noise"] <= right.details["fit_to_noise_allowed"]


def test_a_gaussian_model_with_too_few_states_is_a_misfit() -> None:
    truth = GaussianHMM(np.eye(3), 0.7 * np.eye(3) + 0.1)
    x, _ = truth.sample(100, n_sequences=1000, seed=22)
    mom = empirical_moments(x, 3, kind="ghmm")
    assert estimate_ghmm(mom, 2, seed=1, check="report").status == "misfit"
    assert estimate_ghmm(mom, 3, seed=1, check="report").status == "ok"


@pytest.mark.parametrize("seed", range(4))
def test_the_fit_statistic_of_the_true_model_is_about_one(seed: int) -> None:
    """The residual of the TRUE parameters is the sampling error itself, so its size in units
    of the jackknife's total standard error has mean square ~1 (Markov: > 3 with prob. < 1/9,
    far less for a sum of many near-Gaussian terms)."""
    from identifiability.masked.goodness_of_fit import fit_to_noise

    x, _ = WELL.sample(60, n_sequences=800, seed=100 + seed)
    ratio = fit_to_noise(empirical_moments(x, 3), WELL)
    assert 0.2 < ratio < 3


def test_n_groups_is_bounded_before_any_work() -> None:
    x, _ = WELL.sample(10, n_sequences=2000, seed=0)
    with pytest.raises(ValueError, match="at most 1,000"):
        estimate_hmm(x, 3, n_groups=10**6)
    with pytest.raises(ValueError, match="n_groups"):
        estimate_ghmm(np.zeros((5, 10, 3)), 2, n_groups=10**6)


def test_more_groups_than_sequences_is_refused_with_the_fix() -> None:
    x, _ = WELL.sample(50, n_sequences=6, seed=0)
    with pytest.raises(ValueError, match="use n_groups <= 6"):
        estimate_hmm(x, 3, n_groups=8)


def test_a_stream_of_short_sequences_fills_every_group() -> None:
    seqs = [np.array([0, 1, 2, 0])] * 30          # two windows each
    mom = empirical_moments(iter(seqs), 3, n_groups=10)
    assert np.all(mom.counts > 0) and mom.counts.sum() == 60


# --- hmmlearn's layout -----------------------------------------------------------------------

def test_hmmlearn_x_and_lengths_give_the_same_moments_as_the_batch() -> None:
    x, _ = WELL.sample(60, n_sequences=300, seed=30)
    X = x.reshape(-1, 1)                                   # hmmlearn: (n_samples, 1)
    lengths = [60] * 300
    a = estimate_hmm(x, 3, seed=1, check="report")
    b = estimate_hmm(X, 3, lengths=lengths, seed=1, check="report")
    assert b.n_windows == a.n_windows == 300 * 58 and b.n_sequences == 300
    assert np.allclose(b.model.O, a.model.O, atol=1e-12)   # the same full-sample moments
    with pytest.raises(ValueError, match=r"lengths=lengths"):
        estimate_hmm(X, 3)
    with pytest.raises(ValueError, match="lengths sum to"):
        estimate_hmm(X, 3, lengths=[60] * 299)


def test_hmmlearn_layout_for_the_gaussian_model() -> None:
    truth = GaussianHMM(np.eye(3), 0.7 * np.eye(3) + 0.1)
    x, _ = truth.sample(40, n_sequences=200, seed=31)
    a = estimate_ghmm(x, 3, seed=1, check="report")
    b = estimate_ghmm(x.reshape(-1, 3), 3, lengths=[40] * 200, seed=1, check="report")
    assert b.n_windows == a.n_windows and np.allclose(b.model.M, a.model.M, atol=1e-12)


def test_the_refinement_minimises_the_frequency_weighted_moment_residual() -> None:
    """HMM moments are window frequencies with variance ~ m/n: the refinement solves the
    weighted least squares with weights 1/sqrt(max(m, 1/n)).  At its optimum the weighted
    gradient J^T W^2 r vanishes (first-order condition), the unweighted one does not."""
    from identifiability.masked.moment_fit import (
        fit_moments,
        model_moments,
        moment_jacobian,
        moment_weights,
    )

    x, _ = WELL.sample(100, n_sequences=300, seed=40)
    mom = empirical_moments(x, 3)
    P3, Pp = mom.moments()
    m = np.concatenate([P3.ravel(), Pp.ravel()])
    w = moment_weights(mom)
    assert w is not None and np.allclose(w, 1 / np.sqrt(np.maximum(m, 1 / mom.n_windows)))
    fit = fit_moments(WELL.O, WELL.T, P3, Pp, max_iterations=50, ftol=1e-15, weights=w)
    M3, Mp = model_moments(fit.E, fit.T)
    r = np.concatenate([M3.ravel(), Mp.ravel()]) - m
    J = moment_jacobian(fit.E, fit.T)
    g_w = J.T @ (w ** 2 * r) / np.linalg.norm(J.T @ (w ** 2 * np.abs(r)))
    g_u = J.T @ r / np.linalg.norm(J.T @ np.abs(r))
    assert np.max(np.abs(g_w)) < 1e-6 < np.max(np.abs(g_u))
    assert moment_weights(empirical_moments(np.zeros((4, 5, 2)), 2, kind="ghmm")) is None


# --- EM steps after the moment fit (issue 36) ----------------------------------------------

def _log_likelihood(O: np.ndarray, T: np.ndarray, x: np.ndarray) -> float:
    """Forward algorithm written here (independent of hmmlearn): sum over the rows of x of
    log P(row), uniform start, column-stochastic O (d x k) and T (T[i, j] = P(j -> i))."""
    k = T.shape[0]
    alpha = O[x[:, 0]] / k                                   # (n, k)
    total = 0.0
    for t in range(1, x.shape[1]):
        c = alpha.sum(axis=1, keepdims=True)
        total += float(np.log(c).sum())
        alpha = (alpha / c) @ T.T * O[x[:, t]]
    return total + float(np.log(alpha.sum(axis=1)).sum())


def test_the_forward_algorithm_of_the_tests_matches_a_sum_over_hidden_paths() -> None:
    TOL = 1e-10
    m = HMM.random(3, 2, seed=0)
    x = m.sample(4, n_sequences=3, seed=1).observations
    brute = 0.0
    for row in x:
        p = sum(np.prod([m.O[row[t], h[t]] for t in range(4)])
                * np.prod([m.T[h[t + 1], h[t]] for t in range(3)]) / 2
                for h in itertools.product(range(2), repeat=4))
        brute += np.log(p)
    assert abs(_log_likelihood(m.O, m.T, x) - brute) < TOL


def test_em_steps_climb_the_likelihood_and_stay_within_the_sampling_error() -> None:
    """EM never lowers the likelihood (Dempster-Laird-Rubin); the projection back onto the
    class moves T by O(1e-3) here, a loss of second order far below EM's gain, so the
    returned model's likelihood (forward algorithm above) exceeds the moment estimate's.
    EM from a consistent start stays consistent: its error is within 5 jackknife standard
    errors of the moment estimate (the sampling error of the less efficient estimator)."""
    SE_MULTIPLE = 5
    x, _ = WELL.sample(100, n_sequences=300, seed=50)
    mom = estimate_hmm(x, 3, seed=2)
    est = estimate_hmm(x, 3, seed=2, em_steps=3)
    info = est.details["em_steps"]
    assert info["requested"] == 3 and 1 <= info["run"] <= 3 and "skipped" not in info
    assert est.status == "ok" and est.details["fit_to_noise"] <= FIT_TO_NOISE
    assert _log_likelihood(est.model.O, est.model.T, x) > _log_likelihood(mom.model.O,
                                                                          mom.model.T, x)
    err = est.errors_against(WELL)
    assert err["emission"] < SE_MULTIPLE * mom.stderr["emission"]
    assert err["T"] < SE_MULTIPLE * mom.stderr["T"]
    T = est.model.T
    assert np.allclose(T.sum(0), 1) and np.allclose(T.sum(1), 1) and T.min() >= 0
    assert np.allclose(est.model.O.sum(0), 1) and est.model.O.min() >= 0


def test_em_steps_are_skipped_from_an_undetermined_estimate_and_say_why() -> None:
    truth = HMM.random(6, 3, seed=5)
    x, _ = truth.sample(20, n_sequences=10, seed=0)
    plain = estimate_hmm(x, 3, d=6, seed=1, check="report")
    est = estimate_hmm(x, 3, d=6, seed=1, check="report", em_steps=3)
    assert est.status == "too_few_samples" and est.details["em_steps"]["run"] == 0
    assert "no improvement" in est.details["em_steps"]["skipped"]
    assert np.array_equal(est.model.O, plain.model.O)


def test_em_steps_need_the_sequences_in_memory_and_a_bounded_count() -> None:
    from identifiability.masked.estimation import MAX_EM_STEPS

    x, _ = WELL.sample(50, n_sequences=40, seed=0)
    with pytest.raises(ValueError, match=r"one-pass stream.*em_steps=0"):
        estimate_hmm(iter(list(x)), 3, d=3, em_steps=2)
    with pytest.raises(ValueError, match=r"TripleMoments.*em_steps=0"):
        estimate_hmm(empirical_moments(x, 3), 3, em_steps=2)
    with pytest.raises(ValueError, match="em_steps"):
        estimate_hmm(x, 3, em_steps=MAX_EM_STEPS + 1)
    with pytest.raises(ValueError, match="em_steps"):
        estimate_ghmm(np.zeros((5, 10, 3)), 2, em_steps=-1)
    # a list of sequences is read twice: moments, then EM
    assert estimate_hmm(list(x), 3, seed=0, check="report",
                        em_steps=1).details["em_steps"]["requested"] == 1


def test_em_steps_for_the_gaussian_model_keep_unit_means() -> None:
    truth = GaussianHMM(np.eye(3), 0.7 * np.eye(3) + 0.1)
    x, _ = truth.sample(50, n_sequences=400, seed=3)
    est = estimate_ghmm(x, 3, seed=1, em_steps=2)
    assert 1 <= est.details["em_steps"]["run"] <= 2
    assert np.allclose(np.linalg.norm(est.model.M, axis=0), 1)
