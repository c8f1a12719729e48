r"""Baum-Welch refinement of a moment estimate with hmmlearn (004 §2.2, Theorems 7-8).

:func:`~identifiability.masked.estimation.estimate_hmm` gives a consistent estimate in one pass
over the data; maximum likelihood is statistically more efficient but EM needs a starting
point and stops at local optima.  :func:`refine_em` starts hmmlearn's EM
(``CategoricalHMM`` / ``GaussianHMM``, converted by :meth:`HMM.to_hmmlearn` and
:meth:`GaussianHMM.to_hmmlearn`) at the moment estimate and returns a model of the thesis'
class:

* the start distribution stays uniform (A5: :math:`h_1` is stationary, hence uniform) -- it is
  not learned;
* the G-HMM covariance stays the identity (the model of §2.2.1.1) -- it is not learned;
* EM's transition matrix is row-stochastic in hmmlearn's convention, not doubly stochastic: it
  is projected onto the doubly stochastic matrices
  (:func:`~identifiability.masked.spectral.birkhoff_projection`), and the G-HMM means onto
  unit vectors (A9).  Both distances are reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from identifiability.masked.baum_welch import baum_welch, hmmlearn_data
from identifiability.masked.estimation import MomentEstimate
from identifiability.masked.hmm import HMM, GaussianHMM
from seprank.core import (
    Result,
    SeedLike,
    as_generator,
    check_float,
    check_int,
)

__all__ = ["EMRefinement", "hmmlearn_data", "refine_em"]

_ADVICE = ("the start is a {status!r} moment estimate: the data did not determine it, and EM "
           "from it is only the local optimum nearest to it, not an improvement. Instead: "
           "collect more samples until estimate_hmm/estimate_ghmm returns status 'ok' and start "
           "EM there; or, with these data, run EM from several default restarts (hmmlearn, "
           "random_state = 0, 1, ...) and keep the highest log-likelihood, comparing it with "
           "this run's")



@dataclass(frozen=True, repr=False)
class EMRefinement(Result):
    """The result of :func:`refine_em`.

    Attributes
    ----------
    model : HMM or GaussianHMM
        EM's parameters projected onto the model class (validated on construction).
    fitted : hmmlearn model
        The fitted hmmlearn object (row convention, before the projection).
    n_iter : int
        EM iterations run.
    converged : bool
        The last log-likelihood gain fell below ``tol`` (hmmlearn's own monitor also calls a
        run that exhausted ``n_iter`` converged; this flag does not).
    log_likelihood : float
        The last log-likelihood of the data under EM's (unprojected) parameters.
    projection_distance : Mapping
        Max-abs distance moved by the projections of T and (G-HMM) the means.
    details : Mapping
        ``start_status``: the status of the :class:`MomentEstimate` EM started from
        (``'model'`` for a model given directly); ``advice``: for a start whose status is not
        ``'ok'``, what to do instead (see :attr:`improves_on_start`).
    """

    model: HMM | GaussianHMM
    fitted: Any
    n_iter: int
    converged: bool
    log_likelihood: float
    projection_distance: Mapping[str, float]
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def start_status(self) -> str:
        """Status of the moment estimate EM started from (``'model'``: a model was given)."""
        return str(self.details.get("start_status", "model"))

    @property
    def improves_on_start(self) -> bool | None:
        """Whether the result may be read as the start's estimate improved by EM.

        None for a model given directly (nothing to improve on), True for a start with status
        ``'ok'`` (EM climbs the likelihood from a consistent estimate), False for a
        ``'too_few_samples'`` or ``'invalid'`` start: the data did not determine that start,
        so EM only finds the local optimum nearest to it -- on poorly conditioned models
        (benchmark ``estimation``, G-HMM (20, 8)) worse than EM's worst default restart.
        ``details['advice']`` says what to do instead.
        """
        status = self.start_status
        return None if status == "model" else status == "ok"

    def _repr_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"kind": self.model.kind, "n_iter": self.n_iter,
                                "converged": self.converged,
                                "log_likelihood": round(self.log_likelihood, 3),
                                "projection_T": float(f"{self.projection_distance['T']:.3g}")}
        if self.improves_on_start is False:
            info["start_status"] = self.start_status
            info["advice"] = self.details["advice"]
        return info

    def errors_against(self, truth: HMM | GaussianHMM) -> dict[str, Any]:
        """Max-abs errors after Hungarian matching of the emission columns.

        Parameters
        ----------
        truth : HMM, GaussianHMM, or a result with a ``model``
            The true model (or another estimate, recovery or fit).

        Returns
        -------
        dict
            Max-abs errors of the emission and transition parameters (and of the start
            law), and the matching: :meth:`HMM.errors_against` of ``model``.
        """
        return self.model.errors_against(truth)


def refine_em(
    model: HMM | GaussianHMM | MomentEstimate, sequences: Any, *, n_iter: int = 100,
    tol: float = 1e-2, smoothing: float = 1e-3, seed: SeedLike = None,
) -> EMRefinement:
    r"""Baum-Welch (hmmlearn) started at ``model``; the result projected onto the model class.

    Parameters
    ----------
    model : HMM, GaussianHMM or MomentEstimate
        The starting point (a :class:`MomentEstimate` contributes its ``model``).
    sequences : array_like or iterable of array_like
        As for :func:`~identifiability.masked.estimation.estimate_hmm` /
        :func:`~identifiability.masked.estimation.estimate_ghmm`.
    n_iter : int, keyword-only
        EM iteration budget (hmmlearn's ``n_iter``); ``converged`` says whether it sufficed.
    tol : float, keyword-only
        hmmlearn's convergence threshold on the log-likelihood gain per iteration.
    smoothing : float, keyword-only
        EM never leaves an exact zero (a zero of O or T stays zero, and a token of zero
        probability makes the forward pass fail), and a projected moment estimate has zeros:
        the start is :math:`(1-\epsilon)O + \epsilon/d`, :math:`(1-\epsilon)T + \epsilon/k`
        with :math:`\epsilon` = ``smoothing`` (in [0, 1); 0 keeps the start as it is).
    seed : keyword-only
        hmmlearn's ``random_state`` (EM itself is deterministic from a given start).

    Returns
    -------
    EMRefinement
        Started from a :class:`MomentEstimate` whose status is not ``'ok'``, the result says so
        (``improves_on_start`` is False, ``details['advice']``): it is not an improved
        estimate, only EM's local optimum near a start the data did not determine.

    References
    ----------
    .. [1] 004, §2.2.1.1 (the model class: A5, A9); Baum-Welch as implemented by hmmlearn.

    Examples
    --------
    >>> import numpy as np
    >>> truth = HMM([[0.7, 0.1, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.8]],
    ...             0.7 * np.eye(3) + 0.1)
    >>> x, _ = truth.sample(100, n_sequences=100, seed=0)
    >>> from identifiability.masked.estimation import estimate_hmm
    >>> em = refine_em(estimate_hmm(x, 3, seed=1, check="report"), x, n_iter=20)
    >>> em.model.k, em.errors_against(truth)["emission"] < 0.1
    (3, True)
    """
    start = model.model if isinstance(model, MomentEstimate) else model
    start_status = model.status if isinstance(model, MomentEstimate) else "model"
    if not isinstance(start, HMM | GaussianHMM):
        raise TypeError(f"model must be an HMM, a GaussianHMM or a MomentEstimate, got "
                        f"{type(model).__name__}")
    n_iter = check_int("n_iter", n_iter)
    tol = check_float("tol", tol, positive=True)
    smoothing = check_float("smoothing", smoothing, minimum=0.0, maximum=1.0)
    if smoothing >= 1:
        raise ValueError(f"smoothing must be below 1, got {smoothing}")
    rng = as_generator(seed)
    X, lengths = hmmlearn_data(sequences, start.kind, start.d, k=start.k)
    bw = baum_welch(start, X, lengths, n_iter=n_iter, tol=tol, smoothing=smoothing,
                    random_state=int(rng.integers(2**31 - 1)))
    details: dict[str, Any] = {"params_learned": bw.fitted.params,
                               "n_observations": int(X.shape[0]),
                               "n_sequences": len(lengths), "implementation": "scaling",
                               "start_status": start_status}
    if start_status not in ("ok", "model"):
        details["advice"] = _ADVICE.format(status=start_status)
    return EMRefinement(bw.model, bw.fitted, bw.n_iter, bw.converged, bw.log_likelihood,
                        bw.projection_distance, details)
