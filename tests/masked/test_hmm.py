"""HMM and G-HMM models: assumption validation, constructors, exact sampling, hmmlearn."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from identifiability import (
    HMM,
    AssumptionError,
    GaussianHMM,
    check_assumptions,
    gaussian_posterior,
    sinkhorn,
)

SUM_TOL = 1e-12          # stochasticity of seeded constructors
SAMPLING_SIGMAS = 5.0    # Monte Carlo tolerance in standard errors


def _good() -> tuple[np.ndarray, np.ndarray]:
    O = np.array([[0.5, 0.1, 0.2], [0.3, 0.6, 0.2], [0.2, 0.3, 0.6]])
    T = np.array([[0.6, 0.3, 0.1], [0.3, 0.4, 0.3], [0.1, 0.3, 0.6]])
    return O, T


# --- validation -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("O", "T", "assumption"),
    [
        (_good()[0], [[0.6, 0.3, 0.2], [0.3, 0.4, 0.3], [0.1, 0.3, 0.5]], "A5"),  # rows != 1
        (_good()[0], [[1.1, -0.1, 0.0], [-0.1, 1.1, 0.0], [0.0, 0.0, 1.0]], "A5"),  # negative
        (_good()[0], np.full((3, 3), 1 / 3), "A7"),                                  # rank 1
        ([[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]], np.eye(3), "A7"),                      # d < k
        ([[0.5, 0.2, 0.2], [0.5, 0.8, 0.8], [0.0, 0.0, 0.0]], np.eye(3), "A6"),     # zero row
        ([[0.5, 0.2], [0.6, 0.8]], np.eye(2), "O"),                                  # not stoch.
        ([[1.2, 0.2], [-0.2, 0.8]], np.eye(2), "O"),                                 # negative
    ],
)
def test_invalid_hmm_names_the_assumption(O, T, assumption) -> None:
    with pytest.raises(AssumptionError) as info:
        HMM(O, T)
    assert info.value.assumption == assumption
    assert assumption in str(info.value)


def test_nothing_is_renormalised() -> None:
    O, T = _good()
    T_off = T.copy()
    T_off[:, 0] *= 1 + 1e-6          # column sum 1 + 1e-6: refused, not fixed
    with pytest.raises(AssumptionError, match="A5"):
        HMM(O, T_off)
    m = HMM(O, T)
    assert np.array_equal(m.O, O) and np.array_equal(m.T, T)
    with pytest.raises(ValueError):
        m.O[0, 0] = 0.0               # stored read-only


@pytest.mark.parametrize(
    ("O", "T", "match"),
    [
        (np.ones((3, 2)) / 3, np.eye(3), "shape mismatch"),
        (np.ones(3) / 3, np.eye(1), "2-D"),
        ([[np.nan, 0.5], [0.5, 0.5]], np.eye(2), "NaN"),
        (_good()[0], np.ones((3, 2)) / 2, "square"),
        (np.zeros((0, 2)), np.eye(2), "empty"),
    ],
)
def test_malformed_input_is_a_value_error(O, T, match) -> None:
    with pytest.raises(ValueError, match=match):
        HMM(O, T)


@pytest.mark.parametrize(
    ("M", "T", "assumption"),
    [
        ([[2.0, 0.0], [0.0, 1.0]], np.eye(2), "A9"),
        ([[1.0, 1.0], [0.0, 0.0]], np.eye(2), "A8"),
        ([[1.0, 0.0], [0.0, 1.0]], [[0.5, 0.6], [0.5, 0.4]], "A5"),
        ([[1.0, 0.0, 0.6], [0.0, 1.0, 0.8]], np.eye(3), "A8"),  # k > d
    ],
)
def test_invalid_ghmm_names_the_assumption(M, T, assumption) -> None:
    with pytest.raises(AssumptionError) as info:
        GaussianHMM(M, T)
    assert info.value.assumption == assumption


def test_explicit_opt_out_allows_exploration_and_report_still_flags() -> None:
    O, _ = _good()
    J = np.full((3, 3), 1 / 3)
    m = HMM(O, J, require=("O", "A5", "A6"))
    report = m.check_assumptions()
    assert not report.holds and not report["A7"].holds and report["A5"].holds
    assert "VIOLATED" in str(report)
    with pytest.raises(ValueError, match="unknown assumption"):
        HMM(O, J, require=("A9",))


def test_check_assumptions_reports_without_raising() -> None:
    rep = check_assumptions([[1.0, 0.0], [0.0, 1.0]], [[0.9, 0.9], [0.1, 0.1]])
    assert not rep["A5"].holds and not rep["A7"].holds and rep["A6"].holds
    rep_g = check_assumptions(np.eye(3), np.eye(3), kind="ghmm")
    assert rep_g.holds


# --- constructors -----------------------------------------------------------------------------

@pytest.mark.parametrize(("d", "k"), [(3, 3), (5, 3), (8, 6)])
@pytest.mark.parametrize("seed", [0, 1])
def test_random_models_satisfy_assumptions_and_are_reproducible(d, k, seed) -> None:
    m = HMM.random(d, k, seed=seed)
    assert np.max(np.abs(m.O.sum(0) - 1)) < SUM_TOL
    assert np.max(np.abs(m.T.sum(0) - 1)) < SUM_TOL and np.max(np.abs(m.T.sum(1) - 1)) < SUM_TOL
    assert np.array_equal(HMM.random(d, k, seed=seed).O, m.O)
    assert not np.array_equal(HMM.random(d, k, seed=seed + 10).O, m.O)
    g = GaussianHMM.random(d, k, seed=seed)
    assert np.allclose(np.linalg.norm(g.M, axis=0), 1, atol=SUM_TOL)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10_000))
def test_sinkhorn_is_invariant_to_diagonal_scaling(k, seed) -> None:
    rng = np.random.default_rng(seed)
    K = np.exp(rng.standard_normal((k, k)))
    D1, D2 = np.diag(rng.uniform(0.5, 2, k)), np.diag(rng.uniform(0.5, 2, k))
    S = sinkhorn(K)
    assert np.allclose(S.sum(0), 1, atol=1e-12) and np.allclose(S.sum(1), 1, atol=1e-12)
    assert np.allclose(sinkhorn(D1 @ K @ D2), S, atol=1e-10)  # Sinkhorn's scaling is unique


def test_sinkhorn_refuses_nonpositive() -> None:
    with pytest.raises(ValueError, match="strictly positive"):
        sinkhorn([[1.0, 0.0], [1.0, 1.0]])


# --- posteriors and sampling ------------------------------------------------------------------

def test_posteriors_match_bayes_rule() -> None:
    O, T = _good()
    m = HMM(O, T)
    # P(h = j | x = i) with uniform prior (A5) = O_ij / sum_l O_il
    assert np.allclose(m.posterior(np.arange(3)), O / O.sum(1, keepdims=True))
    assert np.allclose(m.posterior(np.eye(3)[1]), m.posterior(1))
    g = GaussianHMM.random(3, 3, seed=0)
    x = np.array([0.3, -1.0, 2.0])
    lik = np.exp(-0.5 * ((x[:, None] - g.M) ** 2).sum(0))
    assert np.allclose(gaussian_posterior(g.M, x), lik / lik.sum(), atol=1e-15)


def test_hmm_sampling_pair_frequencies() -> None:
    m = HMM.random(3, 2, seed=4)
    n = 100_000
    x, _ = m.sample(2, n_sequences=n, seed=11)
    counts = np.zeros((3, 3))
    np.add.at(counts, (x[:, 1], x[:, 0]), 1)
    exact = m.O @ m.T @ np.diag(np.full(2, 0.5)) @ m.O.T   # P(x2 = a, x1 = b)
    se = np.sqrt(exact * (1 - exact) / n)
    assert np.all(np.abs(counts / n - exact) <= SAMPLING_SIGMAS * se)


def test_state_sampling_is_a_markov_chain_with_T() -> None:
    m = HMM.random(3, 3, seed=5)
    n = 60_000
    _, h = m.sample(3, n_sequences=n, seed=12)
    trans = np.zeros((3, 3))
    np.add.at(trans, (h[:, 2], h[:, 1]), 1)
    emp = trans / trans.sum(0)
    se = np.sqrt(m.T * (1 - m.T) / trans.sum(0))
    assert np.all(np.abs(emp - m.T) <= SAMPLING_SIGMAS * se)
    assert np.all(np.abs(np.bincount(h[:, 0], minlength=3) / n - 1 / 3)
                  <= SAMPLING_SIGMAS * np.sqrt(2 / 9 / n))


def test_ghmm_sampling_moments() -> None:
    g = GaussianHMM.random(3, 2, seed=6)
    n = 80_000
    x, h = g.sample(1, n_sequences=n, seed=13)
    resid = x[:, 0] - g.M.T[h[:, 0]]
    assert np.all(np.abs(resid.mean(0)) <= SAMPLING_SIGMAS / np.sqrt(n))
    assert np.allclose(np.cov(resid.T), np.eye(3), atol=SAMPLING_SIGMAS * np.sqrt(2 / n))


def test_sampling_is_seeded() -> None:
    m = HMM.random(4, 3, seed=0)
    a, b = m.sample(5, n_sequences=3, seed=1), m.sample(5, n_sequences=3, seed=1)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


# --- hmmlearn -------------------------------------------------------------------------------

def test_hmmlearn_round_trip_and_posterior_cross_check() -> None:
    m = HMM.random(4, 3, seed=2)
    h = m.to_hmmlearn()
    back = HMM.from_hmmlearn(h)
    assert np.allclose(back.O, m.O) and np.allclose(back.T, m.T)
    # hmmlearn's posterior of a length-1 sequence is phi(x): an independent implementation
    for j in range(4):
        assert np.allclose(h.predict_proba(np.array([[j]])), m.posterior(j), atol=1e-12)
    g = GaussianHMM.random(3, 3, seed=3)
    hg = g.to_hmmlearn()
    assert np.allclose(GaussianHMM.from_hmmlearn(hg).M, g.M)
    x = np.array([[0.2, -0.4, 1.0]])
    assert np.allclose(hg.predict_proba(x), g.posterior(x), atol=1e-12)
    hg.startprob_ = np.array([0.5, 0.3, 0.2])
    with pytest.raises(AssumptionError, match="A5"):
        GaussianHMM.from_hmmlearn(hg)


# --- hmmlearn habits ---------------------------------------------------------------------------

def test_row_stochastic_parameters_get_the_from_hmmlearn_hint() -> None:
    m = HMM.random(4, 3, seed=0)
    h = m.to_hmmlearn()
    Tr = np.array([[0.9, 0.1, 0.0], [0.2, 0.7, 0.1], [0.1, 0.1, 0.8]])   # rows sum to 1 only
    with pytest.raises(AssumptionError, match="from_hmmlearn"):
        HMM(m.O, Tr)
    with pytest.raises(ValueError, match="from_hmmlearn"):
        HMM(h.emissionprob_, h.transmat_)                   # k x d emission: transposed
    m3 = HMM.random(3, 3, seed=1)
    with pytest.raises(AssumptionError, match="from_hmmlearn"):
        HMM(m3.O.T.copy(), m3.T)                            # square, but rows sum to 1
    assert HMM.from_hmmlearn(h).errors_against(m)["emission"] < 1e-15


def test_models_compare_up_to_a_permutation_of_states() -> None:
    m = HMM.random(5, 3, seed=2)
    p = np.array([2, 0, 1])
    twin = HMM(m.O[:, p], m.T[np.ix_(p, p)])
    err = twin.errors_against(m)
    assert err["emission"] == err["T"] == err["start"] == 0.0
    assert np.array_equal(twin.O[:, err["perm"]], m.O)
    other = HMM.random(5, 3, seed=3)
    assert other.errors_against(m)["emission"] > 0.01
    with pytest.raises(ValueError, match="sizes must agree"):
        HMM.random(4, 3, seed=0).errors_against(m)
    with pytest.raises(TypeError):
        m.errors_against(m.O)
