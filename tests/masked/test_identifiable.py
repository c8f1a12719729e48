"""identifiable(): always an answer (True / False / None) for any HMM or G-HMM, bounded in time
and memory, raising only for bad arguments.

Expected verdicts come from the hypotheses of 004 §2.2 checked here by hand (column and row sums,
ranks), never from the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from identifiability.masked import HMM, GaussianHMM, optimal_predictor
from identifiability.masked.identifiable import identifiable
from seprank.core import MemoryBudgetError, memory_limit

BASE = HMM.random(5, 3, seed=0)
#: column-stochastic, row sums 1.2 / 0.85 / 0.95: an ordinary HMM, not doubly stochastic
ORDINARY_T = np.array([[0.9, 0.2, 0.1], [0.05, 0.7, 0.1], [0.05, 0.1, 0.8]])


def test_a5_is_tested_not_looked_up_in_require() -> None:
    """require=() only skips the construction check; A5 holds for these parameters."""
    free = HMM(BASE.O, BASE.T, require=())
    assert np.allclose(free.T.sum(axis=0), 1) and np.allclose(free.T.sum(axis=1), 1)
    assert optimal_predictor(free, "x2*x3|x1").table().shape == (5, 5, 5)
    r = identifiable(free, "x2*x3|x1", seed=1)
    assert r.identifiable is True and r.theorem == "Theorem 7"


def test_an_ordinary_hmm_is_undecided_with_the_failing_hypothesis() -> None:
    assert np.allclose(ORDINARY_T.sum(axis=0), 1) and not np.allclose(ORDINARY_T.sum(axis=1), 1)
    ordinary = HMM(BASE.O, ORDINARY_T, require=())
    for task in ("x2*x3|x1", "x2|x1", ["x2|x1", "x1|x2"]):
        r = identifiable(ordinary, task)
        assert r.identifiable is None and r.theorem is None
        assert r.details["failed"] == ("A5",) and "A5" in r.reason
        assert "A5" in r.details["to_decide"]
        assert r.jacobian is None and "Jacobian" in r.details["skipped"]


def test_a_non_uniform_start_fails_a5() -> None:
    m = HMM(BASE.O, BASE.T, require=(), start=[0.5, 0.3, 0.2])
    r = identifiable(m, "x2*x3|x1")
    assert r.identifiable is None and r.details["failed"] == ("A5",)


def test_a6_and_a7_violations_are_undecided_not_errors() -> None:
    O6 = np.vstack([BASE.O, np.zeros((1, 3))])              # token 5 is never emitted
    r = identifiable(HMM(O6, BASE.T, require=()), "x2*x3|x1")
    assert r.identifiable is None and r.details["failed"] == ("A6",)
    O7 = np.array([[0.5, 0.5, 0.2], [0.3, 0.3, 0.3], [0.2, 0.2, 0.5]])   # rank 2 < k = 3
    assert np.linalg.matrix_rank(O7) == 2
    r = identifiable(HMM(O7, BASE.T, require=()), "x2*x3|x1")
    assert r.identifiable is None and r.details["failed"] == ("A7",)
    assert r.jacobian is not None and r.jacobian.deficiency > 0   # two equal columns: flat
    assert "A7" in r.details["to_decide"] and r.evidence()


def test_a_gaussian_model_violating_a5_is_undecided() -> None:
    g = GaussianHMM(np.eye(3), ORDINARY_T, require=())
    r = identifiable(g, "x2*x3|x1")
    assert r.identifiable is None and r.details["failed"] == ("A5",)


def test_a_large_model_answers_within_its_budget() -> None:
    """HMM.random(40, 30): the Jacobian (64,000 x 2,011) is over the default budget; the
    theorem answers and the skipped evidence is named."""
    r = identifiable(HMM.random(40, 30, seed=0), "x5|x1")
    assert r.identifiable is False and r.theorem == "Theorem 4"
    assert "max_work" in r.details["skipped"]["Jacobian"]


def test_the_d_cubed_evidence_is_refused_before_allocation() -> None:
    """d = 300: the Jacobian of the d^3 predictor values would need ~1e3 GiB; under a 64 MiB
    limit every d^3 step is refused by the memory policy before it starts."""
    with memory_limit(64 * 2**20):
        r = identifiable(HMM.random(300, 4, seed=0), "x2*x3|x1", max_work=1e15)
    assert r.identifiable is True and r.theorem == "Theorem 7"
    skipped = r.details["skipped"]
    assert "memory limit" in skipped["Jacobian"] and "memory limit" in skipped[
        "recovery (Jennrich)"]
    with memory_limit(64 * 2**20), pytest.raises(MemoryBudgetError):
        optimal_predictor(HMM.random(300, 4, seed=0), "x2*x3|x1").table()


def test_bad_arguments_raise_what_the_docstring_lists() -> None:
    with pytest.raises(TypeError):
        identifiable("not a model", "x2|x1")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        identifiable(BASE, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        identifiable(BASE, "x2 given x1")
    with pytest.raises(ValueError):
        identifiable(BASE, [])
    with pytest.raises(ValueError):
        identifiable(BASE, "x2|x1", max_work=0)
