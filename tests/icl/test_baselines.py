"""Figure 4 baselines: vectorised k-NN against scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest

from identifiability.icl import (
    baseline_error,
    in_domain_patterns,
    knn_predict,
    ood_patterns,
    sample_prompts,
    sklearn_predict,
)

PAT = in_domain_patterns()


@pytest.mark.parametrize("k,method", [(1, "1-NN"), (3, "3-NN")])
def test_knn_matches_sklearn(k: int, method: str) -> None:
    b = sample_prompts(ood_patterns(PAT), [(0, 1), (1, 2), (2, 0)], 60, 9, 0.6, noise=5.0,
                       seed=4)
    assert np.array_equal(knn_predict(b, k), sklearn_predict(b, method))  # type: ignore[arg-type]


def test_single_label_contexts_are_answered_with_that_label() -> None:
    b = sample_prompts(PAT, [(0, 1)], 40, 1, 0.8, seed=5)
    pred = sklearn_predict(b, "logistic")
    assert np.array_equal(pred, b.context_labels[:, 0])


def test_noiseless_decisive_contexts_are_easy() -> None:
    b = sample_prompts(PAT, [(0, 1), (1, 0)], 100, 12, 1.0, noise=0.0, seed=6)
    for m in ("1-NN", "logistic", "svm-linear"):
        assert baseline_error(b, m).error == 0.0  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="method"):
        sklearn_predict(b, "forest")  # type: ignore[arg-type]
