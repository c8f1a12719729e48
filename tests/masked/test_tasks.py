"""Tasks and optimal predictors: brute-force enumeration (HMM), Monte Carlo (G-HMM), closed
forms of the seed, invariances."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from identifiability import HMM, AssumptionError, GaussianHMM, Task, optimal_predictor

ENUM_TOL = 1e-14   # closed form vs exhaustive enumeration of the joint
MC_SIGMAS = 6.0    # Monte Carlo tolerance in standard errors

# --- Task values ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "targets", "given"),
    [("x2|x1", (2,), 1), ("x_2 | x_1", (2,), 1), ("x2⊗x3|x1", (2, 3), 1),
     ("x2*x3|x1", (2, 3), 1), ("x1 * x3 | x2", (1, 3), 2), ("x7|x1", (7,), 1),
     ("x1|x5", (1,), 5), ("x3⊗x1⊗x4|x2", (3, 1, 4), 2), ("x_{2}|x_{1}", (2,), 1)],
)
def test_task_parsing(spec, targets, given) -> None:
    t = Task(spec)
    assert t.targets == targets and t.given == given
    assert Task(str(t)) == t and Task(t.ascii) == t and Task(t) == t
    assert t == Task(targets=targets, given=given)


@pytest.mark.parametrize(
    ("spec", "match"),
    [("x2", "one '|'"), ("x2|x1|x3", "one '|'"), ("y2|x1", "not a token"),
     ("x2+x3|x1", "not a token"), ("x1|x1", "also a target"), ("x2*x2|x1", "twice"),
     ("x0|x1", "positive")],
)
def test_bad_task_strings(spec, match) -> None:
    with pytest.raises(ValueError, match=match):
        Task(spec)


def test_task_properties() -> None:
    assert Task("x2|x1").reverse() == Task("x1|x2")
    assert Task("x2⊗x3|x1").reverse() == Task("x2⊗x1|x3")
    assert Task("x5|x1").gap == 4 and Task("x1|x3").gap == -2 and Task("x2*x3|x1").gap is None
    assert [Task(s).case for s in ("x2*x3|x1", "x3*x2|x1", "x1*x3|x2", "x2*x1|x3",
                                   "x4*x5|x3", "x2*x4|x1", "x2|x1")] == [1, 1, 2, 3, 1, None,
                                                                          None]
    assert str(Task("x2*x3|x1")) == "x2⊗x3|x1" and Task("x2⊗x3|x1").ascii == "x2*x3|x1"
    assert len({Task("x2|x1"), Task("x_2|x_1"), Task("x3|x1")}) == 2


# --- brute force: enumerate the HMM joint ---------------------------------------------------


def _joint_tokens(m: HMM, L: int) -> np.ndarray:
    """P(x_1..x_L) by summing the product formula over every hidden path (h_1 uniform)."""
    d, k = m.d, m.k
    P = np.zeros((d,) * L)
    for path in itertools.product(range(k), repeat=L):
        prob = 1.0 / k
        for a, b in itertools.pairwise(path):
            prob *= m.T[b, a]
        term = np.array(prob)
        for h in path:
            term = np.multiply.outer(term, m.O[:, h])
        P += term
    return P


def _conditional(P: np.ndarray, task: Task) -> np.ndarray:
    """E[⊗ x_targets | x_given = e_j] for every j, from the joint of the tokens."""
    L = P.ndim
    keep = [task.given - 1, *(t - 1 for t in task.targets)]
    marg = P.sum(axis=tuple(i for i in range(L) if i not in keep))
    order = sorted(keep)
    marg = np.transpose(marg, [order.index(i) for i in keep])  # (given, targets...)
    return marg / marg.sum(axis=tuple(range(1, marg.ndim)), keepdims=True)


TASKS_L4 = ["x2|x1", "x3|x1", "x4|x1", "x1|x2", "x1|x3", "x1|x4", "x3|x2", "x2|x4",
            "x2⊗x3|x1", "x3⊗x2|x1", "x1⊗x3|x2", "x1⊗x2|x3", "x2⊗x1|x3", "x2⊗x4|x1",
            "x4⊗x1|x2", "x2⊗x3⊗x4|x1", "x1⊗x4⊗x2|x3"]


@pytest.mark.parametrize(("d", "k", "seed"), [(3, 2, 0), (4, 3, 1), (5, 3, 2)])
def test_predictors_equal_exhaustive_enumeration(d, k, seed) -> None:
    m = HMM.random(d, k, seed=seed)
    P = _joint_tokens(m, 4)
    assert abs(P.sum() - 1) < ENUM_TOL
    for spec in TASKS_L4:
        task = Task(spec)
        got = optimal_predictor(m, task).table()
        assert np.max(np.abs(got - _conditional(P, task))) < ENUM_TOL, spec


def test_seed_closed_forms() -> None:
    """The printed/derived forms of notes §A.2, written out independently."""
    m = HMM.random(5, 3, seed=3)
    O, T = m.O, m.T
    for j in range(5):
        phi = O[j] / O[j].sum()
        cases = {
            "x2|x1": O @ T @ phi,                                            # before Thm 4
            "x4|x1": O @ np.linalg.matrix_power(T, 3) @ phi,                  # gap formula
            "x1|x3": O @ T.T @ T.T @ phi,                                     # reverse chain
            "x2⊗x3|x1": O @ np.diag(T @ phi) @ (O @ T).T,                     # (2.36)
            "x1⊗x3|x2": (O @ T.T) @ np.diag(phi) @ (O @ T).T,                 # (2.39)
            "x1⊗x2|x3": (O @ T.T) @ np.diag(T.T @ phi) @ O.T,                 # by symmetry
        }
        for spec, expected in cases.items():
            assert np.allclose(optimal_predictor(m, spec)(j), expected, atol=1e-15), spec


# --- G-HMM: Monte Carlo by self-normalised importance sampling --------------------------


def _mc_conditional(g: GaussianHMM, task: Task, x: np.ndarray, n: int, seed: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """E[⊗ x_targets | x_given = x]: sample paths and targets from the generative model (own
    sampler), weight by the likelihood of x at the conditioning time."""
    rng = np.random.default_rng(seed)
    L = max(task.times)
    h = np.empty((n, L), dtype=int)
    h[:, 0] = rng.integers(0, g.k, n)
    cdf = np.cumsum(g.T, axis=0)
    for t in range(1, L):
        h[:, t] = (rng.random(n)[:, None] > cdf[:, h[:, t - 1]].T).sum(1)
    w = np.exp(-0.5 * ((x[None] - g.M.T[h[:, task.given - 1]]) ** 2).sum(1))
    vals = np.ones((n,) + (1,) * 0)
    for t in task.targets:
        xt = g.M.T[h[:, t - 1]] + rng.standard_normal((n, g.d))
        vals = np.einsum("n...,nj->n...j", vals, xt) if vals.ndim > 1 else xt
    wn = w / w.sum()
    est = np.tensordot(wn, vals, axes=(0, 0))
    resid = vals - est
    se = np.sqrt(np.tensordot(wn**2, resid**2, axes=(0, 0)))  # delta-method standard error
    return est, se


@pytest.mark.parametrize("spec", ["x2|x1", "x1|x2", "x3|x1", "x2⊗x3|x1", "x1⊗x3|x2"])
def test_ghmm_predictor_matches_monte_carlo(spec) -> None:
    g = GaussianHMM.random(3, 3, seed=7)
    task = Task(spec)
    f = optimal_predictor(g, task)
    for i, x in enumerate(np.random.default_rng(1).standard_normal((2, 3))):
        est, se = _mc_conditional(g, task, x, 150_000, seed=100 + i)
        assert np.all(np.abs(f(x) - est) <= MC_SIGMAS * se + 1e-12), spec


# --- invariances and interface ----------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["x2|x1", "x1|x3", "x2*x3|x1", "x1*x3|x2"]))
def test_relabelling_states_leaves_predictors_unchanged(seed, spec) -> None:
    m = HMM.random(4, 3, seed=seed)
    p = np.random.default_rng(seed).permutation(3)
    relabelled = HMM(m.O[:, p], m.T[np.ix_(p, p)])
    assert np.allclose(optimal_predictor(m, spec).table(),
                       optimal_predictor(relabelled, spec).table(), atol=1e-14)


def test_time_shift_invariance_and_symmetric_T_reverse() -> None:
    m = HMM.random(4, 3, seed=8)
    assert np.allclose(optimal_predictor(m, "x3|x2").table(),
                       optimal_predictor(m, "x2|x1").table(), atol=1e-15)
    assert np.allclose(optimal_predictor(m, "x3*x4|x2").table(),
                       optimal_predictor(m, "x2*x3|x1").table(), atol=1e-15)
    S = 0.5 * (m.T + m.T.T)                       # symmetric: reverse chain = forward chain
    ms = HMM(m.O, S)
    assert np.allclose(optimal_predictor(ms, "x1|x2").table(),
                       optimal_predictor(ms, "x2|x1").table(), atol=1e-15)
    assert not np.allclose(optimal_predictor(m, "x1|x2").table(),
                           optimal_predictor(m, "x2|x1").table(), atol=1e-6)


def test_predictor_interface() -> None:
    m = HMM.random(4, 3, seed=0)
    f = optimal_predictor(m, "x2*x3|x1")
    assert f.output_shape == (4, 4) and f(1).shape == (4, 4) and f([0, 1]).shape == (2, 4, 4)
    assert np.allclose(f(np.eye(4)[2]), f(2)) and np.allclose(f.table()[3], f(3))
    g = GaussianHMM.random(3, 3, seed=0)
    fg = optimal_predictor(g, "x2|x1")
    assert fg(np.zeros(3)).shape == (3,) and fg(np.zeros((5, 3))).shape == (5, 3)
    with pytest.raises(TypeError):
        fg.table()
    with pytest.raises(ValueError, match="token indices"):
        f(7)
    explore = HMM(m.O, m.T, require=("O", "A6", "A7"))      # A5 not required, but it holds
    assert np.allclose(optimal_predictor(explore, "x2|x1").table(),
                       optimal_predictor(m, "x2|x1").table())
    ordinary = HMM(m.O, [[0.9, 0.2, 0.1], [0.05, 0.7, 0.1], [0.05, 0.1, 0.8]], require=())
    with pytest.raises(AssumptionError, match="A5"):                # rows sum to 1.2, ...
        optimal_predictor(ordinary, "x2|x1")
