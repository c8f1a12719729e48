"""The η sweep of 000/001: brackets, monotonicity in ε, and Weyl's bound for small η."""

from __future__ import annotations

import numpy as np
import pytest

from seprank.core.random import spawn
from seprank.incontext.gradient import LanguageModel
from seprank.incontext.sequential import SequentialRepresentation
from seprank.sweeps.incontext_eta import N_TEMPLATES, eta_case, eta_cases

TAUS = (1e-3, 1e-6, 1e-9)


@pytest.mark.parametrize("eta,depth", [(1e-2, 1), (1e-6, 1), (1e-4, 2)])
def test_brackets_are_ordered_and_monotone_in_eps(eta: float, depth: int) -> None:
    r = eta_case(eta=eta, depth=depth, width=2, seed=0, taus=TAUS)
    lows = [lo for lo, _ in r["eps_rank"]]
    assert all(lo <= hi for lo, hi in r["eps_rank"])
    assert lows == sorted(lows)                   # smaller tau (smaller eps): not fewer
    assert all(1 <= c <= N_TEMPLATES for c in r["count_above"])


def test_small_eta_leaves_one_singular_value_above_the_perturbation() -> None:
    """M(0) has rank one, so by Weyl sigma_2(M(eta)) <= ||M(eta) - M(0)||_2: when that norm is
    below tau sigma_1(M(0)), at most one singular value is counted."""
    eta, tau = 1e-7, 1e-3
    r = eta_case(eta=eta, depth=1, width=2, seed=4, taus=(tau,))
    model_rng, template_rng = spawn(4, 2)
    lm = LanguageModel.random(depth=1, width=2, vocab=5, seed=model_rng)
    A, B = template_rng.uniform(0.5, 1.5, (2, N_TEMPLATES, 2))
    seq = SequentialRepresentation(lm, (0, 1), (2, 3), eta=eta)
    M0 = seq.frozen_grid(A, B)
    assert np.linalg.matrix_rank(M0) == 1
    gap = np.linalg.norm(seq.grid(A, B) - M0, 2)
    assert gap < tau * r["sigma1_frozen"]
    assert r["count_above"] == [1]


def test_the_case_list() -> None:
    cases = eta_cases(etas=(0.1, 0.01), depths=(1,), seeds=(0, 1))
    assert [(c["eta"], c["seed"]) for c in cases] == [(0.1, 0), (0.1, 1), (0.01, 0), (0.01, 1)]
    with pytest.raises(ValueError, match="eta"):
        eta_case(eta=0.0, depth=1, width=2, seed=0)
