"""The masked-prediction results in the core's vocabulary: the estimates are Results that
certify nothing; the Kruskal rank is a certified result that travels by pickle."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from identifiability.masked import EMRefinement, MomentEstimate, TripleMoments
from identifiability.masked.cp import CPResult
from identifiability.masked.kruskal import KruskalRankResult, kruskal_rank
from identifiability.masked.recovery import RecoveredModel
from seprank.core import CertifiedResult, Result


@pytest.mark.parametrize("cls", [TripleMoments, EMRefinement, MomentEstimate, CPResult,
                                 RecoveredModel])
def test_estimates_are_results_that_certify_nothing(cls: type) -> None:
    assert issubclass(cls, Result) and not issubclass(cls, CertifiedResult)
    assert "certifies" not in {f.name for f in dataclasses.fields(cls)}


def test_the_kruskal_rank_is_certified_and_pickles() -> None:
    assert issubclass(KruskalRankResult, CertifiedResult)
    r = kruskal_rank([[1, 1, 0], [0, 0, 1]])           # [e1, e1, e2]: k-rank 1, witness (0, 1)
    assert (r.rank, r.witness, r.certifies) == (1, (0, 1), "exact")
    back = pickle.loads(pickle.dumps(r))
    assert back == r and dict(back.details) == dict(r.details)
