"""The result vocabulary: every result is a Result; the certified ones say what they certify
(checked on construction), and every result survives a trip to a worker process (pickle)."""

from __future__ import annotations

import dataclasses
import pickle
from fractions import Fraction

import numpy as np
import pytest

from seprank.core import (
    CertifiedResult,
    EpsRankResult,
    RankResult,
    RankValued,
    Result,
    eps_rank,
    matrix_rank,
)


@pytest.mark.parametrize("cls", [RankResult, EpsRankResult])
def test_core_results_say_what_they_certify(cls: type) -> None:
    assert issubclass(cls, CertifiedResult) and issubclass(cls, Result)
    assert "certifies" in {f.name for f in dataclasses.fields(cls)}


def test_only_certified_results_carry_certifies() -> None:
    assert issubclass(RankValued, CertifiedResult)
    assert "certifies" not in Result.__annotations__
    assert "certifies" in CertifiedResult.__annotations__


def test_a_result_that_certifies_outside_the_vocabulary_is_refused() -> None:
    with pytest.raises(ValueError, match=r"RankResult\.certifies must be one of"):
        RankResult(2, "exact", "proved")  # type: ignore[arg-type]


def test_an_eps_rank_bracket_certifies_what_it_proves() -> None:
    # diag(1, 1/2, 1e-6) at eps = 1e-3: sigma_3 <= eps*sqrt(9) < sigma_2, and the rank-2
    # truncation is within eps entrywise: the bracket closes at 2, the eps-rank is proved
    closed = eps_rank(np.diag([1.0, 0.5, 1e-6]), 1e-3)
    assert closed.bracket == (2, 2) and closed.certifies == "exact"
    # a bracket that stays open proves its lower side (and its upper side) only
    wide = eps_rank(np.random.default_rng(0).standard_normal((12, 12)), 0.3)
    assert wide.lower < wide.upper and wide.certifies == "lower_bound"
    with pytest.raises(TypeError):
        wide.details["x"] = 1  # type: ignore[index]


def test_results_travel_by_pickle_with_read_only_details() -> None:
    H = [[Fraction(1, i + j + 1) for j in range(4)] for i in range(4)]
    for r in (matrix_rank(H, method="exact"), matrix_rank(H, method="modular", seed=0),
              eps_rank(np.diag([1.0, 0.5, 1e-6]), 1e-3)):
        back = pickle.loads(pickle.dumps(r))
        assert back == r and repr(back) == repr(r)
        assert set(back.details) == set(r.details)
        with pytest.raises(TypeError):
            back.details["x"] = 1  # type: ignore[index]
