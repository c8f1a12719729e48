r"""002 §5.1, Figure 4: classifiers trained on each prompt's own contexts, the baselines ICL is
compared with.

For every prompt the :math:`l` context pairs :math:`(x_i, \pm1)` are a training set and the
query is classified; the paper uses logistic regression, SVMs (Gaussian and linear kernels),
1-NN and 3-NN.  k-NN is computed here for all prompts at once (Euclidean distance on the
feature part, majority vote; ties and the empty context go to the label of the nearest
neighbour); the others call scikit-learn, the field's library, one fit per prompt.  A prompt
whose contexts carry a single label is answered with that label (no classifier can be fitted).

References
----------
002, §5.1 and Figure 4.  Notes: docs/notes/seed_icl_nonlinear.md PC-16.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from identifiability.icl._checks import check_int, check_object, check_positive
from identifiability.icl._threads import single_blas_thread
from identifiability.icl.prompts import PromptBatch
from seprank.core.display import RichDisplay
from seprank.core.types import FloatArray
from seprank.extras import require

__all__ = ["BASELINES", "BaselineResult", "baseline_error", "knn_predict", "sklearn_predict"]

Baseline = Literal["1-NN", "3-NN", "logistic", "svm-linear", "svm-gaussian"]
BASELINES: tuple[Baseline, ...] = ("1-NN", "3-NN", "logistic", "svm-linear", "svm-gaussian")


def knn_predict(prompts: PromptBatch, k: int = 1) -> FloatArray:
    """k-nearest-neighbour prediction of every query from its own contexts.

    Parameters
    ----------
    k : int
        Neighbours (odd k avoids ties; a tie goes to the nearest neighbour's label).
    prompts : PromptBatch
        The prompts.

    Returns
    -------
    numpy.ndarray
        The predicted labels (+-1), one per prompt.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns, sample_prompts
    >>> b = sample_prompts(in_domain_patterns(), [(0, 1)], 200, 20, 1.0, noise=0.0, seed=0)
    >>> float((knn_predict(b, 1) == b.z).mean())   # noiseless, all contexts decisive
    1.0
    """
    check_object("prompts", prompts, PromptBatch, "sample them with sample_prompts()")
    k = check_int("k", k, 1, max(prompts.length, 1))
    X, labels, xq = _split(prompts)
    dist = ((X - xq[:, None, :]) ** 2).sum(axis=2)          # (n, l)
    order = np.argsort(dist, axis=1, kind="stable")[:, :k]
    votes = np.take_along_axis(labels, order, axis=1)
    s = votes.sum(axis=1)
    return np.asarray(np.where(s != 0, np.sign(s), votes[:, 0]))


def _split(prompts: PromptBatch) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Context features (n, l, d_X), context labels (n, l) and query features (n, d_X)."""
    check_object("prompts", prompts, PromptBatch, "sample them with sample_prompts()")
    if prompts.length < 1:
        raise ValueError("baselines need at least one context (l >= 1)")
    P, d_x = prompts.P, prompts.d_x
    X = P[:, :d_x, :-1].transpose(0, 2, 1)
    return X, prompts.context_labels, P[:, :d_x, -1]


def sklearn_predict(prompts: PromptBatch, method: Baseline,
                    C: float = 1.0) -> FloatArray:
    """Fit scikit-learn's classifier on each prompt's contexts and predict its query.

    Parameters
    ----------
    method : {'logistic', 'svm-linear', 'svm-gaussian', '1-NN', '3-NN'}
    C : float, keyword-only
        Inverse regularisation strength of the logistic regression and SVMs (sklearn's
        default 1).
    prompts : PromptBatch
        The prompts.

    Returns
    -------
    numpy.ndarray
        The predicted labels (+-1), one per prompt.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns, sample_prompts
    >>> b = sample_prompts(in_domain_patterns(), [(0, 1)], 50, 20, 1.0, noise=0.0, seed=0)
    >>> bool(np.array_equal(sklearn_predict(b, "1-NN"), knn_predict(b, 1)))   # two routes
    True
    >>> float((sklearn_predict(b, "logistic") == b.z).mean())   # noiseless, decisive contexts
    1.0
    """
    feature = "the scikit-learn baselines (sklearn_predict)"
    LogisticRegression = require("sklearn.linear_model", feature=feature).LogisticRegression
    KNeighborsClassifier = require("sklearn.neighbors", feature=feature).KNeighborsClassifier
    SVC = require("sklearn.svm", feature=feature).SVC

    C = check_positive("C", C)
    factories = {
        "logistic": lambda: LogisticRegression(C=C),
        "svm-linear": lambda: SVC(kernel="linear", C=C),
        "svm-gaussian": lambda: SVC(kernel="rbf", C=C, gamma="scale"),
        "1-NN": lambda: KNeighborsClassifier(1),
        "3-NN": lambda: KNeighborsClassifier(3),
    }
    if method not in factories:
        raise ValueError(f"method must be one of {BASELINES}, got {method!r}")
    X, labels, xq = _split(prompts)
    out = np.empty(prompts.n)
    with single_blas_thread(openmp=True):       # tiny fits: threads only add overhead
        for i in range(prompts.n):
            classes = np.unique(labels[i])
            if classes.size == 1:
                out[i] = classes[0]
                continue
            clf = factories[method]()
            clf.fit(X[i], labels[i])
            out[i] = clf.predict(xq[i][None, :])[0]
    return out


@dataclass(frozen=True, repr=False)
class BaselineResult(RichDisplay):
    """Error of a baseline on a batch: ``error`` with standard error ``error_se``.

    Parameters
    ----------
    method : str
        The baseline.
    error : float
        Classification error on the batch.
    error_se : float
        Its standard error.
    n : int
        Number of prompts.
    """

    method: str
    error: float
    error_se: float
    n: int


def baseline_error(prompts: PromptBatch, method: Baseline
                   ) -> BaselineResult:
    """Classification error of ``method`` (k-NN vectorised, the rest via scikit-learn).

    Parameters
    ----------
    prompts : PromptBatch
        The prompts (each classified from its own contexts).
    method : {'1-NN', '3-NN', 'logistic', 'svm-linear', 'svm-gaussian'}
        The baseline.

    Returns
    -------
    BaselineResult
        The error and its standard error.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns, sample_prompts
    >>> b = sample_prompts(in_domain_patterns(), [(0, 1)], 100, 20, 1.0, noise=0.0, seed=0)
    >>> baseline_error(b, "1-NN").error
    0.0
    """
    check_object("prompts", prompts, PromptBatch, "sample them with sample_prompts()")
    if method not in BASELINES:
        raise ValueError(f"method must be one of {BASELINES}, got {method!r}")
    if method in ("1-NN", "3-NN"):
        pred = knn_predict(prompts, 1 if method == "1-NN" else 3)
    else:
        pred = sklearn_predict(prompts, method)
    p = float((pred != prompts.z).mean())
    return BaselineResult(method, p, math.sqrt(p * (1 - p) / prompts.n), prompts.n)
