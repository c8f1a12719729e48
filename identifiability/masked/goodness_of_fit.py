r"""Goodness of fit of a moment estimate: its moment residual against the sampling error.

The estimators of :mod:`~identifiability.masked.estimation` fit the window moments
:math:`\hat m` (:math:`\hat P_{123}` and the pair moments) by a k-state model.  The residual
:math:`r = \hat m - m(\hat\theta)` is compared with the moments' total sampling error
:math:`\sqrt{\operatorname{tr}\Sigma}`, estimated by the delete-a-group jackknife over the
groups of :class:`~identifiability.masked.moments.TripleMoments`.  When the class contains the
truth :math:`\theta^*`, the least-squares fit has :math:`\|r\| \le \|\hat m - m(\theta^*)\|`,
whose mean square is :math:`\operatorname{tr}\Sigma`: the ratio :func:`fit_to_noise` is about
1 or less (above ``FIT_TO_NOISE`` = 3 with probability < 1/9 by Markov's inequality, far less
for a sum of many near-Gaussian terms).  A model with too few states leaves a bias that does
not shrink with the sample, and the ratio grows like :math:`\sqrt n`.

:func:`supported_k` counts the singular values of the pair moment :math:`\hat P_{12}` (rank k
under A7/A8) that stand ``SUPPORT_TO_NOISE`` jackknife standard errors above zero: the number
of states the data resolve (a lower bound: a poorly conditioned model's smallest components
may not be resolved).

Examples
--------
>>> import numpy as np
>>> from identifiability.masked import HMM, empirical_moments
>>> truth = HMM([[0.7, 0.1, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.8]], 0.7 * np.eye(3) + 0.1)
>>> mom = empirical_moments(truth.sample(60, n_sequences=800, seed=0)[0], 3)
>>> bool(fit_to_noise(mom, truth) < FIT_TO_NOISE), supported_k(mom)
(True, 3)
"""

from __future__ import annotations

import numpy as np

from identifiability.masked.hmm import HMM, GaussianHMM
from identifiability.masked.moment_fit import model_moments
from identifiability.masked.moments import TripleMoments

__all__ = ["FIT_TO_NOISE", "SUPPORT_TO_NOISE", "fit_to_noise", "supported_k"]

#: Largest moment residual of an acceptable fit, in units of the moments' total sampling error
#: (jackknife): a correct model's least-squares fit stays near 1 or below (module docstring).
FIT_TO_NOISE = 3.0
#: A singular value of the pair moment counts as resolved when it is this many jackknife
#: standard errors above zero.
SUPPORT_TO_NOISE = 10.0
#: Relative size of rounding in the moments: the noise floor of moments without sampling error.
ROUNDING = 1e-10


def _check_moments(mom: object) -> None:
    if not isinstance(mom, TripleMoments):
        raise TypeError(f"mom must be TripleMoments (from empirical_moments), got "
                        f"{type(mom).__name__}")


def fit_to_noise(mom: TripleMoments, model: HMM | GaussianHMM) -> float:
    """The moment residual of ``model`` in units of the moments' total sampling error.

    Parameters
    ----------
    mom : TripleMoments
        The empirical window moments, in jackknife groups.
    model : HMM or GaussianHMM
        The fitted (or any) model of the same kind and dimension.

    Returns
    -------
    float
        :math:`\\|\\hat m - m(\theta)\\| / \\sqrt{\\operatorname{tr}\\hat\\Sigma}` (module
        docstring); NaN when a group is empty or the model is not finite.

    Examples
    --------
    >>> from identifiability.masked.hmm import HMM
    >>> from identifiability.masked.moments import empirical_moments
    >>> m = HMM.random(4, 2, seed=0)
    >>> mom = empirical_moments(m.sample(20_000, seed=1).observations, 4, n_groups=10)
    >>> bool(fit_to_noise(mom, m) < 3)       # the true model fits within its sampling error
    True
    """
    _check_moments(mom)
    if not isinstance(model, HMM | GaussianHMM):
        raise TypeError(f"model must be an HMM or GaussianHMM, got {type(model).__name__}")
    if model.kind != mom.kind or model.d != mom.d:
        raise ValueError(f"model is a {model.kind} with d = {model.d} but the moments are "
                         f"{mom.kind} with d = {mom.d}: they must agree")
    groups = len(mom.counts)
    if groups < 2 or np.any(mom.counts == 0):
        return float("nan")
    P3, Pp = mom.moments()
    with np.errstate(all="ignore"):
        M3, Mp = model_moments(model.emission, model.T)
        res = float(np.sum((P3 - M3) ** 2) + np.sum((Pp - Mp) ** 2))
        reps = [mom.moments(g) for g in range(groups)]
        mean3 = np.mean([r[0] for r in reps], axis=0)
        meanp = np.mean([r[1] for r in reps], axis=0)
        var = (groups - 1) / groups * sum(float(np.sum((r[0] - mean3) ** 2)
                                                + np.sum((r[1] - meanp) ** 2)) for r in reps)
        # moments without sampling noise (population moments): only rounding can be left
        scale = float(np.sum(P3 ** 2) + np.sum(Pp ** 2))
        noise = max(var, (ROUNDING * ROUNDING) * scale)
        ratio = np.sqrt(res / noise) if noise > 0 else (0.0 if res == 0 else np.inf)
    return float(ratio) if np.isfinite(res) else float("nan")


def supported_k(mom: TripleMoments) -> int:
    """The number of states the data resolve (a lower bound on k).

    Parameters
    ----------
    mom : TripleMoments
        The empirical window moments, in jackknife groups.

    Returns
    -------
    int
        The singular values of the pair moment :math:`\\hat E[x_t x_{t+1}^\top]` (rank k
        under A7/A8) above ``SUPPORT_TO_NOISE`` jackknife standard errors (without a
        jackknife: above rounding).

    Examples
    --------
    >>> from identifiability.masked.hmm import HMM
    >>> from identifiability.masked.moments import empirical_moments
    >>> mom = empirical_moments(HMM.random(4, 2, seed=0).sample(20_000, seed=1).observations,
    ...                         4, n_groups=10)
    >>> supported_k(mom) <= 4
    True
    """
    _check_moments(mom)
    sv = np.linalg.svd(mom.moments()[1][0], compute_uv=False)
    groups = [g for g in range(len(mom.counts)) if mom.counts[g] > 0]
    if len(groups) < 2 or len(groups) < len(mom.counts):
        return int(np.sum(sv > ROUNDING * max(float(sv[0]), 1e-300)))
    reps = np.array([np.linalg.svd(mom.moments(g)[1][0], compute_uv=False) for g in groups])
    n = len(groups)
    se = np.sqrt((n - 1) / n * np.sum((reps - reps.mean(axis=0)) ** 2, axis=0))
    return int(np.sum(sv > SUPPORT_TO_NOISE * np.maximum(se, ROUNDING * float(sv[0]))))
