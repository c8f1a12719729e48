"""Definition 3.1, Condition 3.2 and Lemma B.11: brute force and closed forms."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from identifiability.icl import (
    all_tasks,
    condition_32,
    condition_32_subset_counts,
    cyclic_tasks,
    shift_tasks,
    unseen_tasks,
)


def _subfactorial(n: int) -> int:
    return round(math.factorial(n) / math.e) if n > 0 else 1


def _regular_digraphs(n: int, k: int) -> int:
    """0/1 n x n matrices with zero diagonal and all row and column sums k (brute force)."""
    off = [(i, j) for i in range(n) for j in range(n) if i != j]
    count = 0
    for bits in itertools.product((0, 1), repeat=len(off)):
        A = np.zeros((n, n), dtype=int)
        for (i, j), b in zip(off, bits, strict=True):
            A[i, j] = b
        count += bool(np.all(A.sum(0) == k) and np.all(A.sum(1) == k))
    return count


@pytest.mark.parametrize("M1", [2, 3, 5, 7])
def test_all_tasks_are_the_ordered_pairs(M1: int) -> None:
    tasks = all_tasks(M1)
    assert len(tasks) == M1 * (M1 - 1) == len(set(tasks))
    assert all(a != b for a, b in tasks)


@pytest.mark.parametrize("M1", [3, 4, 5])
def test_enumeration_minimum_is_M1_with_derangement_count(M1: int) -> None:
    counts = condition_32_subset_counts(M1)
    assert min(counts) == M1                        # Lemma B.11
    assert counts[M1] == _subfactorial(M1)          # 2, 9, 44
    assert counts[M1 * (M1 - 1)] == 1               # the full task set


@pytest.mark.parametrize("M1,k", [(3, 1), (4, 1), (4, 2), (4, 3)])
def test_enumeration_counts_regular_digraphs(M1: int, k: int) -> None:
    assert condition_32_subset_counts(M1)[k * M1] == _regular_digraphs(M1, k)


@pytest.mark.parametrize("M1", range(3, 10))
def test_cyclic_and_shift_families_satisfy_condition_32(M1: int) -> None:
    assert condition_32(cyclic_tasks(M1), M1).holds
    for U in range(1, M1):
        c = condition_32(shift_tasks(M1, U), M1)
        assert c.holds and c.positive_counts == (U,) * M1


def test_experiment_counts_of_section_5() -> None:
    assert len(unseen_tasks(6, shift_tasks(6, 1))) == 24
    assert len(unseen_tasks(6, shift_tasks(6, 4))) == 6
    assert condition_32(cyclic_tasks(6), 6).fraction_of_all_tasks == pytest.approx(1 / 5)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 6), st.data())
def test_condition_32_matches_its_definition(M1: int, data: st.DataObject) -> None:
    tasks = data.draw(st.lists(st.sampled_from(all_tasks(M1)), unique=True, max_size=12))
    n = len(tasks)
    want = (n >= M1 and n % M1 == 0
            and all(sum(a == j for a, _ in tasks) == n // M1 for j in range(M1))
            and all(sum(b == j for _, b in tasks) == n // M1 for j in range(M1)))
    assert condition_32(tasks, M1).holds == want


@pytest.mark.parametrize("bad", [[(0, 0)], [(0, 1), (0, 1)], [(0, 9)], [(0, 1, 2)]])
def test_invalid_task_sets_are_refused(bad: list[tuple[int, ...]]) -> None:
    with pytest.raises(ValueError):
        condition_32(bad, 3)


def test_enumeration_refuses_too_many_tasks() -> None:
    with pytest.raises(ValueError, match="M1 <= 5"):
        condition_32_subset_counts(6)
