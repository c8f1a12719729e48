"""MP-5 asserts the printed direction, Assumption 7 => Kruskal rank k of O and OT, on exact
models (it used to test only the converse)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from paper_checks.claims.masked.hmm import MP5_SIZES, _brute_kruskal_rank, _exact_rank, _mp5_model
from paper_checks.registry import get_claim


def test_the_models_satisfy_assumption7_and_the_conclusion_is_asserted() -> None:
    result = get_claim("MP-5").run()
    assert result.verdict == "holds"
    for row in result.details["models"]:
        assert row["rank O"] == row["rank T"] == row["k"] <= row["d"]
        assert row["k-rank O"] == row["k-rank OT"] == row["k"]


def test_dropping_rank_t_breaks_the_conclusion() -> None:
    for d, k, seed in MP5_SIZES:
        O, T = _mp5_model(d, k, seed, t_rank_deficit=1)
        assert _exact_rank(O) == k and _exact_rank(T) == k - 1
        assert all(sum(T[:, j]) == 1 for j in range(k))          # still stochastic
        assert _brute_kruskal_rank(O @ T) < k


def test_exact_ranks_against_closed_forms() -> None:
    eye = np.array([[Fraction(int(i == j)) for j in range(4)] for i in range(4)], dtype=object)
    assert _exact_rank(eye) == 4 and _brute_kruskal_rank(eye) == 4
    twin = eye.copy()
    twin[:, 3] = twin[:, 0]                  # two equal columns: rank 3, Kruskal rank 1
    assert _exact_rank(twin) == 3 and _brute_kruskal_rank(twin) == 1
    vandermonde = np.array([[Fraction(x) ** p for x in (1, 2, 3)] for p in range(2)],
                           dtype=object)     # 2 x 3, every two columns independent
    assert _exact_rank(vandermonde) == 2 and _brute_kruskal_rank(vandermonde) == 2
