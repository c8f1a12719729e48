"""Prompts (eq. 1, §3.2): structure, the categorical context law, and eq. 63."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from identifiability.icl import (
    chernoff_bound,
    context_probabilities,
    cyclic_tasks,
    in_domain_patterns,
    min_context_length,
    no_same_pattern_probability,
    same_pattern_tail,
    sample_prompts,
)

Z_MAX = 4.5          # |z-score| allowed for a frequency over many cells
PAT = in_domain_patterns()


def test_prompt_layout_and_labels_follow_the_task() -> None:
    b = sample_prompts(PAT, cyclic_tasks(6), 500, 7, 0.8, noise=0.5, seed=1)
    assert b.P.shape == (500, 60, 8) and b.d_x == 30
    assert not b.P[:, 30:, -1].any()                          # query label slot is 0
    X = b.P[:, :30, :]
    rel = X[:, :6, :]                                         # mu_j = 3 e_j
    patt = np.concatenate([b.context_patterns, b.query_patterns[:, None]], axis=1)
    assert np.allclose(rel.argmax(axis=1), patt) and np.allclose(rel.max(axis=1), 3.0)
    kappa = X[:, 6:, :]
    assert np.all((np.abs(kappa) > 0).sum(axis=1) <= 1)       # one irrelevant pattern each
    assert np.abs(kappa).max() <= 3 * 0.5
    pos, neg = b.tasks[:, :1], b.tasks[:, 1:]
    lab = b.context_labels
    assert np.all(lab[b.context_patterns == pos] == 1) and np.all(
        lab[b.context_patterns == neg] == -1)
    assert np.allclose(b.P[:, 30, :-1], lab)                  # y_i = label * e_1
    assert np.all(np.where(b.z > 0, pos[:, 0], neg[:, 0]) == b.query_patterns)


@pytest.mark.parametrize("alpha", [0.3, 0.8, 1.0])
def test_context_frequencies_match_the_categorical_law(alpha: float) -> None:
    n, l = 4000, 10
    b = sample_prompts(PAT, [(2, 4)], n, l, alpha, seed=2)
    p = np.zeros(6)
    p[[2, 4]] = alpha / 2
    p[[0, 1, 3, 5]] = (1 - alpha) / 4
    freq = np.bincount(b.context_patterns.ravel(), minlength=6) / (n * l)
    se = np.sqrt(p * (1 - p) / (n * l)) + 1e-15
    assert np.all(np.abs(freq - p) / se <= Z_MAX)
    assert abs(b.z.mean()) <= Z_MAX / math.sqrt(n)
    assert np.allclose(sorted(context_probabilities(6, alpha)), sorted(p))


def test_prefix_is_a_shorter_prompt() -> None:
    b = sample_prompts(PAT, cyclic_tasks(6), 20, 6, 0.8, seed=3)
    c = b.prefix(3)
    assert c.length == 3 and np.array_equal(c.P[:, :, :3], b.P[:, :, :3])
    assert np.array_equal(c.P[:, :, 3], b.P[:, :, 6]) and np.array_equal(c.z, b.z)


@pytest.mark.parametrize("alpha", [0.2, 0.5, 1.0])
@pytest.mark.parametrize("p", [0.5, 0.1, 0.01])
def test_min_context_length_is_the_smallest_such_length(alpha: float, p: float) -> None:
    l = min_context_length(alpha, p)
    assert no_same_pattern_probability(alpha, l) <= p
    assert l == 0 or no_same_pattern_probability(alpha, l - 1) > p


@settings(max_examples=80, deadline=None)
@given(st.floats(0.05, 1.0), st.integers(1, 80), st.floats(0.01, 1.0))
def test_chernoff_bound_dominates_the_exact_tail(alpha: float, l: int, c: float) -> None:
    assert same_pattern_tail(alpha, l, c) <= chernoff_bound(alpha, l, c) * (1 + 1e-12)


@pytest.mark.parametrize("kwargs,match", [
    ({"alpha": 0.0}, "alpha"), ({"alpha": 1.5}, "alpha"), ({"noise": -1.0}, "noise"),
    ({"n": 0}, "n must"), ({"length": -1}, "length")])
def test_bad_arguments_are_named(kwargs: dict[str, float], match: str) -> None:
    args = {"n": 3, "length": 2, "alpha": 0.8, **kwargs}
    noise = args.pop("noise", 0.5)
    with pytest.raises(ValueError, match=match):
        sample_prompts(PAT, [(0, 1)], args["n"], args["length"], args["alpha"],  # type: ignore[arg-type]
                       noise=noise, seed=0)


def test_two_patterns_need_alpha_one() -> None:
    small = in_domain_patterns(M1=2, M2=1)
    with pytest.raises(ValueError, match="alpha must be 1"):
        sample_prompts(small, [(0, 1)], 2, 2, 0.5, seed=0)
    assert sample_prompts(small, [(0, 1)], 2, 2, 1.0, seed=0).n == 2


def test_memory_guard() -> None:
    with pytest.raises(MemoryError, match="MAX_PROMPT_BYTES"):
        sample_prompts(PAT, [(0, 1)], 10**6, 100, 0.8, seed=0)
