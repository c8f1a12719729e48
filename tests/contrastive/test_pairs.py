"""The two pair constructions of the contrastive task: the thesis' disjoint pairs (§2.1.1.2) and
our sliding variant (every transition a positive, one q-negative per conditioning point).

Kept apart from ``test_contrastive.py`` only to keep both files under the ~400-line limit.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest

from identifiability.contrastive.fit import fit_gaussian_kernel
from identifiability.contrastive.kernels import GaussianKernel
from identifiability.contrastive.logistic import fit_quadratic_logistic
from identifiability.contrastive.metrics import expected_kl, population_risk
from identifiability.contrastive.processes import FiniteStateChain, OrnsteinUhlenbeck
from identifiability.contrastive.task import (
    UniformBoxContrast,
    contrastive_task_from_process,
    kernel_from_classifier,
    make_contrastive_task,
)
from seprank.core import split_seed

N_SIGMA = 5.0             # Monte Carlo tolerances, in standard errors
# A parametric M-estimator has KL ∝ 1/T (log-log slope -1).  The two-point slope of 20-seed
# medians between T = 250 and 4000 has a standard deviation of about 0.11 (resampling 200 and
# 100 fits), and small-T effects pull it to about -0.9: the window is > 2.5 sd on either side.
KL_SLOPE_RANGE = (-1.4, -0.6)
LOG_NORMALISER_ATOL = 0.1  # sampling error on 16000 rows is ~0.01; a 2:1 prior gives log 2


class _FiniteContrast:
    """A conditional contrast q(b | a) = Q[a, b] on states 0..n-1 (floats, shape (., 1))."""

    dim = 1

    def __init__(self, Q: npt.ArrayLike) -> None:
        self.Q = np.asarray(Q, dtype=float)

    def logpdf(self, z: npt.ArrayLike, z_prime: npt.ArrayLike) -> np.ndarray:
        a = np.asarray(z)[..., 0].astype(int)
        b = np.asarray(z_prime)[..., 0].astype(int)
        with np.errstate(divide="ignore"):
            return np.asarray(np.log(self.Q[a, b]), dtype=float)

    def sample(self, z: npt.ArrayLike, rng: np.random.Generator) -> np.ndarray:
        a = np.asarray(z)[:, 0].astype(int)
        u = rng.random(a.size)
        b = np.minimum((u[:, None] > np.cumsum(self.Q[a], axis=1)).sum(axis=1), self.Q.shape[0] - 1)
        return b[:, None].astype(float)


# -- construction -----------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 1001])
@pytest.mark.parametrize("d", [1, 2])
def test_sliding_counts_labels_and_positives_are_the_transitions(n: int, d: int) -> None:
    ou = OrnsteinUhlenbeck(np.eye(d))
    traj_rng, task_rng, other_rng = split_seed(np.random.SeedSequence([n, d]), 3)
    x = ou.simulate(n, 0.5, seed=traj_rng)
    task_state = task_rng.bit_generator.state
    task = make_contrastive_task(x, 0.5, ou.stationary, pairs="sliding", seed=task_rng)
    assert task.pairs == "sliding" and task.n_pairs == 2 * (n - 1)
    assert task.n_positive == n - 1                          # exactly balanced classes
    pos, neg = task.label == 1, task.label == 0
    np.testing.assert_array_equal(task.z[pos], x[:-1])       # every transition, in order
    np.testing.assert_array_equal(task.z_prime[pos], x[1:])
    np.testing.assert_array_equal(task.z[neg], x[:-1])       # same conditioning points
    assert not np.any(np.isin(task.z_prime[neg], x))         # negatives are fresh draws
    task_rng.bit_generator.state = task_state
    again = make_contrastive_task(x, 0.5, ou.stationary, pairs="sliding", seed=task_rng)
    np.testing.assert_array_equal(again.z_prime, task.z_prime)
    other = make_contrastive_task(x, 0.5, ou.stationary, pairs="sliding", seed=other_rng)
    np.testing.assert_array_equal(other.z_prime[pos], task.z_prime[pos])
    assert not np.array_equal(other.z_prime[neg], task.z_prime[neg])


def test_same_seed_same_trajectory_and_disjoint_positives_are_sliding_positives() -> None:
    ou = OrnsteinUhlenbeck(1.0)
    dis = contrastive_task_from_process(ou, 500, 0.5, ou.stationary, seed=7)
    sli = contrastive_task_from_process(ou, 500, 0.5, ou.stationary, pairs="sliding", seed=7)
    assert dis.pairs == "disjoint" and sli.pairs == "sliding"
    traj = np.concatenate([sli.z[sli.label == 1], sli.z_prime[sli.label == 1][-1:]])
    assert traj.shape[0] == 1000                             # 2m = T/eta observations
    np.testing.assert_array_equal(dis.z, traj[0::2])
    keep = dis.label == 1
    np.testing.assert_array_equal(dis.z_prime[keep], traj[1::2][keep])


def test_sliding_negatives_have_the_conditional_contrast_law() -> None:
    ou = OrnsteinUhlenbeck(1.0)
    q = GaussianKernel.local(1, 0.3)
    traj_rng, task_rng = split_seed(3, 2)
    task = make_contrastive_task(ou.simulate(20_000, 0.2, seed=traj_rng), 0.2, q,
                                 pairs="sliding", seed=task_rng)
    steps = (task.z_prime - task.z)[task.label == 0, 0]
    n = steps.size
    assert abs(steps.mean()) < N_SIGMA * math.sqrt(0.3 / n)
    assert abs(steps.var() - 0.3) < N_SIGMA * 0.3 * math.sqrt(2 / n)


# -- Lemma 1 for the sliding construction -----------------------------------------------------
def test_sliding_label_frequencies_are_the_bayes_classifier_on_a_finite_chain() -> None:
    """Lemma 1: P(y = 1 | a, b) = P(a,b) / (P(a,b) + Q(a,b)) — and eq. 2.12 gives P back."""
    P = np.array([[0.5, 0.3, 0.2], [0.25, 0.5, 0.25], [0.3, 0.3, 0.4]])
    Q = np.array([[0.2, 0.4, 0.4], [0.5, 0.25, 0.25], [1 / 3, 1 / 3, 1 / 3]])
    traj_rng, task_rng = split_seed(1, 2)
    x = FiniteStateChain(P).simulate(100_000, seed=traj_rng).astype(float)[:, None]
    task = make_contrastive_task(x, 1.0, _FiniteContrast(Q), pairs="sliding", seed=task_rng)
    a, b = task.z[:, 0].astype(int), task.z_prime[:, 0].astype(int)
    count = np.zeros((3, 3))
    pos = np.zeros((3, 3))
    np.add.at(count, (a, b), 1)
    np.add.at(pos, (a, b), task.label)
    h_emp = pos / count
    h_star = P / (P + Q)
    # the chain's dependence inflates the binomial variance mildly; N_SIGMA covers it
    se = np.sqrt(h_star * (1 - h_star) / count)
    assert np.all(np.abs(h_emp - h_star) < N_SIGMA * se)
    np.testing.assert_allclose(kernel_from_classifier(h_emp, Q, normalize="rows"), P, atol=0.02)


def test_sliding_empirical_risk_is_unbiased_for_the_thesis_population_risk() -> None:
    """Each sliding row has the task's marginal law (z ~ pi, z' ~ p_* or q with prior 1/2), so
    the mean empirical risk equals the population risk R(h) whose minimiser is h* (Lemma 1)."""
    ou = OrnsteinUhlenbeck(1.0)
    eta, q = 0.5, GaussianKernel.local(1, 1.0)
    pk = ou.kernel(eta)
    logits = {
        "bayes": lambda z, zp: pk.logpdf(z, zp) - q.logpdf(z, zp),
        "shifted": lambda z, zp: pk.logpdf(z, zp) - q.logpdf(z, zp) + 0.5 * zp[..., 0],
    }
    n_rep = 60
    risks = {k: np.empty(n_rep) for k in logits}
    for r in range(n_rep):
        traj_rng, task_rng = split_seed(np.random.SeedSequence([r, 17]), 2)
        task = make_contrastive_task(ou.simulate(1000, eta, seed=traj_rng), eta, q,
                                     pairs="sliding", seed=task_rng)
        y = task.label.astype(float)
        for k, lg in logits.items():
            s = lg(task.z, task.z_prime)
            risks[k][r] = np.mean(np.logaddexp(0.0, s) - y * s)
    for k, lg in logits.items():
        pop = population_risk(lg, pk, q, ou.stationary)
        se = risks[k].std(ddof=1) / math.sqrt(n_rep)
        assert abs(risks[k].mean() - pop) < N_SIGMA * se, k
    assert population_risk(logits["bayes"], pk, q, ou.stationary) < population_risk(
        logits["shifted"], pk, q, ou.stationary)


# -- consistency ------------------------------------------------------------------------------
def test_sliding_estimator_is_consistent_on_ou() -> None:
    """The Gaussian-family fit on sliding tasks: median E_pi KL decays like 1/T."""
    ou = OrnsteinUhlenbeck(1.0)
    eta, horizons, n_seeds = 0.5, (250.0, 4000.0), 20
    pk = ou.kernel(eta)
    med = []
    for T in horizons:
        kls = []
        for s in range(n_seeds):
            task = contrastive_task_from_process(ou, T, eta, ou.stationary, pairs="sliding",
                                                 seed=np.random.SeedSequence([s, int(T), 5]))
            fit = fit_gaussian_kernel(task, ou.stationary)
            assert fit.converged
            kls.append(expected_kl(pk, fit.kernel, ou.stationary))
        med.append(float(np.median(kls)))
    slope = math.log(med[1] / med[0]) / math.log(horizons[1] / horizons[0])
    assert KL_SLOPE_RANGE[0] <= slope <= KL_SLOPE_RANGE[1], (med, slope)


def test_eq_2_12_reads_the_sliding_logit_with_prior_one_half() -> None:
    """The quadratic logit has a free intercept, so it learns log(prior odds) + log(p_*/q); eq.
    2.12 (prior 1/2) is then normalised iff the classes are balanced — with a 2:1 prior the
    log normaliser would tend to log 2 instead of 0."""
    ou = OrnsteinUhlenbeck(1.0)
    task = contrastive_task_from_process(ou, 4000, 0.5, ou.stationary, pairs="sliding", seed=8)
    fit = fit_quadratic_logistic(task, ou.stationary)
    log_z = fit.log_normalizer([[-1.0], [0.0], [1.0]])
    assert np.all(np.abs(log_z) < LOG_NORMALISER_ATOL), log_z


# -- refusals ---------------------------------------------------------------------------------
def test_sliding_refusals() -> None:
    ou = OrnsteinUhlenbeck(1.0)
    x = ou.simulate(100, 0.5, seed=0)
    bad = x.copy()
    bad[7] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        make_contrastive_task(bad, 0.5, ou.stationary, pairs="sliding", seed=0)
    for eta in (0.0, -0.5):
        with pytest.raises(ValueError, match="eta"):
            make_contrastive_task(x, eta, ou.stationary, pairs="sliding", seed=0)
        with pytest.raises(ValueError, match="eta"):
            contrastive_task_from_process(ou, 10, eta, ou.stationary, pairs="sliding", seed=0)
    with pytest.raises(ValueError, match="at least 2"):
        make_contrastive_task(x[:1], 0.5, ou.stationary, pairs="sliding", seed=0)
    # the box misses positives; only the *positive* pairs are checked (q's own draws are in it)
    with pytest.raises(ValueError, match="zero density at the positive pair"):
        make_contrastive_task(x, 0.5, UniformBoxContrast([-0.1], [0.1]), pairs="sliding",
                              seed=0)
    with pytest.raises(ValueError, match="shape"):
        make_contrastive_task(x[:, 0], 0.5, ou.stationary, pairs="sliding", seed=0)
    with pytest.raises(ValueError, match="pairs must be"):
        make_contrastive_task(x, 0.5, ou.stationary, pairs="overlapping", seed=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="pairs must be"):
        contrastive_task_from_process(ou, 10, 0.5, ou.stationary, pairs="all", seed=0)  # type: ignore[arg-type]
