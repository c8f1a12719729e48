"""Issue 11's examples, each ending in a correct answer (checked independently) or a clear error.

Tolerances and sizes are named at the top; every expected value is computed here without the
code under test (closed forms, exact arithmetic, numpy on small cases).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import identifiability as ID
import seprank
from seprank.core import MemoryBudgetError

#: Agreement of float results with their closed forms.
FLOAT_TOL = 1e-12
#: A memory limit small enough to refuse the issue's allocations on any machine.
SMALL_LIMIT = 10**8


# -- 1. a certified result cannot be false -------------------------------------------------------

def _wrapping(X: np.ndarray) -> np.ndarray:
    """The issue's f: (x * y)**5 after an int64 cast -- separation rank 1, but it wraps."""
    return (X.astype(np.int64)[:, 0, 0] * X.astype(np.int64)[:, 1, 0]) ** 5


def _exact(X: np.ndarray) -> np.ndarray:
    """The same function on the Python ints it receives: exact."""
    return (X[:, 0, 0] * X[:, 1, 0]) ** 5


@pytest.mark.parametrize("kwargs", [{"n_templates": 12}, {}])
def test_int64_overflow_is_refused_not_certified(kwargs: dict[str, int]) -> None:
    with pytest.raises(TypeError, match="wrapped around"):
        seprank.separation_rank(_wrapping, n_inputs=2, dim=1, partition=([0], [1]), seed=0,
                                **kwargs)


def test_the_exact_version_is_certified_rank_one() -> None:
    r = seprank.separation_rank(_exact, n_inputs=2, dim=1, partition=([0], [1]), seed=0,
                                n_templates=12)
    assert (r.rank, r.certifies) == (1, "lower_bound")  # (xy)^5 = x^5 y^5: sep = 1


def test_a_domain_aware_f_outside_gf_p_is_refused() -> None:
    def raw(X: np.ndarray, domain: object = None) -> np.ndarray:
        return X[:, 0, 0] * X[:, 1, 0] * 2**30  # not reduced: not a computation in GF(p)

    with pytest.raises(ValueError, match=r"outside \[0, p\)"):
        seprank.separation_rank(raw, n_inputs=2, dim=1, partition=([0], [1]), seed=0,
                                n_templates=4)


# -- 2. memory guards cover the whole computation, before it starts ----------------------------

def test_incontext_structured_grid_honours_max_bytes() -> None:
    rep = seprank.InContextRepresentation.random(depth=3, width=6, n_tokens=2, seed=0)
    r = seprank.incontext_seq_sep(rep, seed=0, budget=seprank.Budget(max_bytes=SMALL_LIMIT))
    assert r.engine is not None and r.engine.stop_reason == "memory_limit"
    assert not r.engine.saturated and "not saturated" in r.statement
    assert r.rank <= r.upper_bound


def test_a_loose_upper_bound_does_not_sample_a_huge_first_round() -> None:
    f = _exact
    r = seprank.separation_rank(f, n_inputs=2, dim=1, partition=([0], [1]), seed=0,
                                upper_bound=10**9)
    assert r.rank == 1 and "upper_bound_sizing_skipped" in r.details


@pytest.mark.parametrize("call", [
    lambda: seprank.LinearAttention.random(depth=1, width=10**4),
    lambda: ID.HMM.random(3, 2, seed=0).sample(10**9),
    lambda: ID.OrnsteinUhlenbeck(1.0).simulate(10**10, 0.5),
    lambda: ID.contrastive_task_from_process(ID.OrnsteinUhlenbeck(1.0), 1e12, 0.5,
                                             ID.OrnsteinUhlenbeck(1.0).stationary),
    lambda: ID.kruskal_rank(np.random.default_rng(1).integers(-99, 99, (30, 70)),
                            max_subsets=10**30),
], ids=["LinearAttention.random", "HMM.sample", "OU.simulate", "contrastive_task",
        "kruskal_rank"])
def test_large_allocations_are_refused_before_they_happen(call: object) -> None:
    with pytest.raises(MemoryBudgetError, match="memory limit"):
        call()  # type: ignore[operator]


def test_langevin_sub_steps_are_budgeted() -> None:
    lang = ID.LangevinDiffusion(lambda x: x, dim=1)
    with pytest.raises(ValueError, match="sub-steps"):
        lang.simulate(3, 1e6, x0=[0.0])


def test_set_memory_limit_true_is_refused() -> None:
    with pytest.raises(ValueError, match="n_bytes"):
        seprank.set_memory_limit(True)  # type: ignore[arg-type]


# -- 3. growth loops stop and say so --------------------------------------------------------------

def _exp_inner(X: np.ndarray) -> np.ndarray:
    return np.exp(np.einsum("bi,bi->b", X[:, 0], X[:, 1]) / 3)


@pytest.mark.parametrize("budget", [{"max_rounds": 3}, {"max_seconds": 1.0}])
def test_a_non_polynomial_growth_stops_not_saturated(budget: dict[str, float]) -> None:
    r = seprank.separation_rank(_exp_inner, n_inputs=2, dim=2, partition=([0], [1]),
                                method="svd", seed=0, budget=seprank.Budget(**budget))
    assert r.stop_reason in ("max_rounds", "time_limit") and not r.saturated
    assert r.status.startswith("not saturated") and "not saturated" in r.summary()


# -- 4. recovered models are checked --------------------------------------------------------------

@pytest.mark.parametrize("k", [2, 4])
def test_recover_hmm_with_a_wrong_k_raises(k: int) -> None:
    f = ID.optimal_predictor(ID.HMM.random(5, 3, seed=0), "x2*x3|x1")
    with pytest.raises(ID.InvalidRecoveryError, match="is k = 3"):
        ID.recover_hmm(f, k, seed=0)
    rec = ID.recover_hmm(f, k, seed=0, check="report")
    assert not rec.valid and rec.problems


def test_recover_ghmm_with_a_wrong_k_raises() -> None:
    f = ID.optimal_predictor(ID.GaussianHMM.random(4, 3, seed=2), "x2*x3|x1")
    with pytest.raises(ID.InvalidRecoveryError):
        ID.recover_ghmm(f, 4, seed=5)


# -- 5. no false non-identifiability ------------------------------------------------------------

def test_jacobian_deficiency_refuses_too_few_points() -> None:
    g = ID.GaussianHMM.random(3, 2, seed=0)
    for n in (0, 1):
        with pytest.raises(ValueError, match="n_points"):
            ID.jacobian_deficiency(g, "x2|x1", n_points=n)
    many = ID.jacobian_deficiency(g, "x2|x1", n_points=400, seed=1)
    for n in (2, None):  # the minimum is grown until the rank is stable
        assert ID.jacobian_deficiency(g, "x2|x1", n_points=n, seed=0).deficiency == \
            many.deficiency


# -- 6. numerical ranges are honest -------------------------------------------------------------

def test_ngd_works_far_from_the_noise() -> None:
    tr = ID.run_gradient_method(ID.GaussianMeanNCE(theta_star=100.0), method="ngd", step=2.0,
                                n_steps=5)
    assert np.all(np.diff(tr.distances) < 0)


def test_svd_rank_at_1e308() -> None:
    r = seprank.matrix_rank([[1e308, 1e308], [1e308, -1e308]], method="svd")
    assert r.rank == 2 == seprank.matrix_rank([[1, 1], [1, -1]], method="exact").rank


def test_predictor_at_a_huge_gap_is_the_stationary_limit() -> None:
    m = ID.HMM.random(5, 3, seed=0)
    f = ID.optimal_predictor(m, "x10000000000000001|x1")(0)
    # T doubly stochastic and primitive: T^n -> J/k, so f(x) -> O 1/k for every x
    assert abs(f.sum() - 1) < FLOAT_TOL
    assert np.max(np.abs(f - m.O.mean(axis=1))) < FLOAT_TOL


def test_finite_chain_kernel() -> None:
    ch = ID.FiniteStateChain([[0.9, 0.1], [0.2, 0.8]])
    with pytest.raises(ValueError, match="k"):
        ch.kernel(-1)
    limit = ch.kernel(10**16)
    assert np.max(np.abs(limit - np.array([[2 / 3, 1 / 3]] * 2))) < FLOAT_TOL


def test_fit_ou_mle_at_the_edge_is_not_converged() -> None:
    rng = np.random.default_rng(0)
    # steps of variance 4 > 2 eta: no OU transition is that wide (its variance tends to 2 eta
    # as rho -> 0), so the likelihood increases towards rho = 0
    walk = np.cumsum(2.0 * rng.standard_normal((500, 1)), axis=0)
    fit = ID.fit_ou_mle(walk, 0.5)
    assert not fit.converged and "random walk" in fit.message
    # independent draws of variance 1e-4: the stationary variance 1/rho wants rho ~ 1e4, far
    # beyond the interval's end rho * eta = 50
    iid = 0.01 * rng.standard_normal((500, 1))
    fit = ID.fit_ou_mle(iid, 0.5)
    assert not fit.converged and "independent" in fit.message
    ok = ID.fit_ou_mle(ID.OrnsteinUhlenbeck(1.0).simulate(2000, 0.5, seed=0), 0.5)
    assert ok.converged and ok.message == ""


def test_posterior_of_a_zero_vector_is_refused() -> None:
    with pytest.raises(ValueError, match="zero probability"):
        ID.HMM.random(5, 3, seed=0).posterior(np.zeros(5))


# -- 7. every argument is validated where it enters --------------------------------------------

@pytest.mark.parametrize("seed", [-1, 1.5, "abc", True])
def test_bad_seeds_name_the_seed(seed: object) -> None:
    with pytest.raises((ValueError, TypeError), match="seed"):
        ID.HMM.random(3, 2, seed=seed)  # type: ignore[arg-type]


def test_counts_tolerances_and_truncation() -> None:
    with pytest.raises(ValueError, match="n_steps"):
        ID.HMM.random(3, 2, seed=0).sample(2.5)  # type: ignore[arg-type]
    for atol in (-1, math.nan):
        with pytest.raises(ValueError, match="atol"):
            ID.HMM([[0.5, 0.2], [0.5, 0.8]], [[0.9, 0.1], [0.1, 0.9]], atol=atol)
    with pytest.raises(ValueError, match="targets"):
        ID.Task(targets=(2.7,), given=1)


def test_wrong_objects_say_what_to_use() -> None:
    with pytest.raises(TypeError, match="HMM or GaussianHMM"):
        ID.optimal_predictor("abc", "x2|x1")  # type: ignore[arg-type]
    f = ID.optimal_predictor(ID.GaussianHMM.random(4, 3, seed=1), "x2*x3|x1")
    with pytest.raises(TypeError, match="recover_ghmm"):
        ID.recover_hmm(f, 3)


def test_kruskal_limits_and_shortcuts() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="engine='subsets'"):
        ID.kruskal_rank(rng.integers(-9, 9, (3, 70)))
    dup = np.hstack([np.eye(3, dtype=int)] * 30)          # columns 0 and 3 are equal
    r = ID.kruskal_rank(dup)
    assert (r.rank, r.certifies) == (1, "exact")
    i, j = r.witness  # type: ignore[misc]
    assert np.array_equal(dup[:, i], dup[:, j])
