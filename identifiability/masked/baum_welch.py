r"""Baum-Welch (hmmlearn's EM) on the thesis' model class, from a given start (004 §2.2).

One concept: EM iterations of hmmlearn (``CategoricalHMM`` / spherical ``GaussianHMM``) started
at a model of the class, with the start law kept uniform (A5) and the G-HMM covariance kept the
identity (§2.2.1.1), and the result projected back onto the class (T onto the doubly
stochastic matrices, the means onto unit vectors, A9).  Two callers share it:
:func:`~identifiability.masked.em.refine_em` (EM run to convergence from a moment estimate)
and the estimators of :mod:`~identifiability.masked.estimation` with ``em_steps`` (a few EM
iterations after the moment fit).  :func:`hmmlearn_data` puts the estimators' inputs into
hmmlearn's ``(X, lengths)`` layout.

Simplest interface::

    X, lengths = hmmlearn_data(x, "hmm", d, k=k)
    step = baum_welch(start_model, X, lengths, n_iter=3)   # step.model: an HMM of the class
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from identifiability.masked.hmm import HMM, GaussianHMM
from identifiability.masked.spectral import birkhoff_projection
from seprank.core import check_int, guard_memory

__all__ = ["hmmlearn_data"]


def hmmlearn_data(sequences: Any, kind: str, d: int, *, k: int = 8
                  ) -> tuple[npt.NDArray[Any], list[int]]:
    """``(X, lengths)`` in hmmlearn's format from the inputs the estimators accept.

    HMM: X is ``(n, 1)`` integer tokens; G-HMM: ``(n, d)``.  The whole sample is materialised
    (EM needs it): the total, with EM's forward-backward lattices for ``k`` states, is
    guarded batch by batch before each copy.

    Parameters
    ----------
    sequences : array_like or iterable
        The sequences, as the estimators accept them.
    kind : {'hmm', 'ghmm'}
        The model class.
    d : int
        Vocabulary size (HMM) or dimension (G-HMM).
    k : int, keyword-only
        Number of hidden states EM will use (for the memory guard; default 8).

    Returns
    -------
    X : numpy.ndarray
        The concatenated observations.
    lengths : list of int
        The length of each sequence.

    Examples
    --------
    >>> X, lengths = hmmlearn_data(np.array([[0, 1, 2], [2, 1, 0]]), "hmm", 3)
    >>> X.ravel().tolist(), lengths
    ([0, 1, 2, 2, 1, 0], [3, 3])
    """
    from identifiability.masked.moments import _as_stream, _check_batch

    if kind not in ("hmm", "ghmm"):
        raise ValueError(f"kind must be 'hmm' or 'ghmm', got {kind!r}")
    d, k = check_int("d", d), check_int("k", k)
    stream, single = _as_stream(sequences, kind)
    parts: list[npt.NDArray[Any]] = []
    lengths: list[int] = []
    total = 0
    per_obs = 8 * (d if kind == "ghmm" else 1) * 2 + 8 * 5 * k  # X + copy, EM lattices
    for index, batch in enumerate(stream):
        arr = _check_batch(batch, kind, d, -1 if single else index)
        total += arr.shape[0] * arr.shape[1]
        guard_memory(total * per_obs, what=f"the EM data ({total:,} observations so far)",
                     fix="fit EM on fewer sequences (the moment estimator streams any number)")
        parts.append(arr.reshape(-1, 1) if kind == "hmm" else arr.reshape(-1, d))
        lengths += [arr.shape[1]] * arr.shape[0]
    if not parts:
        raise ValueError("sequences: no observation")
    return np.concatenate(parts), lengths


@dataclass(frozen=True)
class BaumWelch:
    """EM iterations from a start: the projected model and what the run did.

    ``converged``: the last log-likelihood gain fell below ``tol`` (hmmlearn's own monitor
    also calls a run that used up ``n_iter`` converged; this flag does not).
    ``history``: the last log-likelihoods hmmlearn's monitor keeps (two), under the
    unprojected parameters.
    """

    model: HMM | GaussianHMM
    fitted: Any
    n_iter: int
    converged: bool
    log_likelihood: float
    projection_distance: Mapping[str, float]
    history: tuple[float, ...]


def baum_welch(start: HMM | GaussianHMM, X: npt.NDArray[Any], lengths: list[int], *,
               n_iter: int, tol: float = 1e-2, smoothing: float = 1e-3,
               random_state: int = 0) -> BaumWelch:
    r"""At most ``n_iter`` EM iterations of hmmlearn from ``start``, projected onto the class.

    EM never leaves an exact zero, and a projected moment estimate has zeros: the start is
    :math:`(1-\epsilon)O + \epsilon/d`, :math:`(1-\epsilon)T + \epsilon/k` with
    :math:`\epsilon` = ``smoothing``.  The start law stays uniform and is not learned (A5),
    nor the G-HMM covariance (the identity).  Arguments are validated by the callers.
    """
    if smoothing > 0:
        eps, k = smoothing, start.k
        T0 = (1 - eps) * start.T + eps / k
        start = (HMM((1 - eps) * start.O + eps / start.d, T0) if isinstance(start, HMM)
                 else GaussianHMM(start.M, T0))
    h = start.to_hmmlearn()
    h.params = "te" if start.kind == "hmm" else "tm"
    h.init_params = ""
    h.n_iter, h.tol = n_iter, tol
    h.monitor_.n_iter, h.monitor_.tol = n_iter, tol  # the monitor keeps its own copies
    h.implementation = "scaling"
    h.random_state = random_state
    h.fit(X, lengths)
    T_em = np.asarray(h.transmat_, dtype=float).T
    T, _, ok = birkhoff_projection(T_em)
    if not ok:
        raise ValueError("EM's transition matrix could not be projected onto the doubly "
                         "stochastic matrices (Dykstra did not converge)")
    dist = {"T": float(np.max(np.abs(T - T_em)))}
    if start.kind == "hmm":
        O = np.asarray(h.emissionprob_, dtype=float).T
        out: HMM | GaussianHMM = HMM(O / O.sum(axis=0), T)
        dist["emission"] = float(np.max(np.abs(O.sum(axis=0) - 1)))
    else:
        M_em = np.asarray(h.means_, dtype=float).T
        M = M_em / np.linalg.norm(M_em, axis=0)
        dist["emission"] = float(np.max(np.abs(M - M_em)))
        out = GaussianHMM(M, T)
    mon = h.monitor_
    hist = tuple(float(v) for v in mon.history)
    converged = len(hist) >= 2 and hist[-1] - hist[-2] < tol
    return BaumWelch(out, h, int(mon.iter), converged,
                     hist[-1] if hist else float("nan"), dist, hist)
