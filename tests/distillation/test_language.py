"""Definition 24 (masking) and Definition 25 (n-gram windows) of 004 §4.2.3."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from identifiability.distillation import mask_sequence, ngram_context, total_variation

Z_MAX = 4.5


@given(st.integers(1, 40), st.integers(1, 9), st.data())
def test_window_has_n_positions_inside_and_is_clipped(h: int, n: int, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, h - 1))
    win = ngram_context(i, n, h, include_center=True)
    left, right = math.ceil((n - 1) / 2), (n - 1) // 2
    assert win == tuple(range(max(i - left, 0), min(i + right, h - 1) + 1))
    if left <= i <= h - 1 - right:
        assert len(win) == n
    one_based = ngram_context(i + 1, n, h, indexing=1, include_center=True)
    assert tuple(j - 1 for j in one_based) == win


def test_context_excludes_the_centre() -> None:
    assert ngram_context(2, 3, 5) == (1, 3)
    assert ngram_context(0, 5, 3) == (1, 2)


@pytest.mark.parametrize("p", [0.15, 0.3])
def test_masking_rates(p: float) -> None:
    x = np.random.default_rng(0).integers(0, 5, 20_000)
    out = mask_sequence(x, p, 5, 5, seed=1)
    n, nm = x.size, int(out.masked.sum())
    assert abs(out.masked.mean() - p) < Z_MAX * math.sqrt(p * (1 - p) / n)
    for action, prob in enumerate((0.8, 0.1, 0.1)):
        frac = np.mean(out.action[out.masked] == action)
        assert abs(frac - prob) < Z_MAX * math.sqrt(prob * (1 - prob) / nm)
    assert np.all(out.action[~out.masked] == -1)
    assert np.all(out.tokens[out.action == 0] == 5) and not np.any(out.changed[out.action == 2])
    assert np.array_equal(out.changed, out.tokens != x)


def test_masking_extremes_and_validation() -> None:
    x = np.arange(4)
    none = mask_sequence(x, 0.0, 4, 9, seed=0)
    assert not none.masked.any() and np.array_equal(none.tokens, x)
    assert mask_sequence(x, 1.0, 4, 9, seed=0).masked.all()
    with pytest.raises(ValueError, match="outside the vocabulary"):
        mask_sequence(x, 0.5, 4, 2, seed=0)
    with pytest.raises(ValueError, match="mask rate"):
        mask_sequence(x, 1.5, 4, 9, seed=0)


prob = st.lists(st.floats(0, 1), min_size=3, max_size=3).filter(lambda v: sum(v) > 0).map(
    lambda v: [a / sum(v) for a in v])


@given(prob, prob, prob)
def test_total_variation_is_a_metric(p: list[float], q: list[float], r: list[float]) -> None:
    assert total_variation(p, q) == pytest.approx(total_variation(q, p))
    assert 0 <= total_variation(p, q) <= 1 + 1e-12
    assert total_variation(p, r) <= total_variation(p, q) + total_variation(q, r) + 1e-12
