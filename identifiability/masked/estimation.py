r"""From identifiability to estimation: (O, T) or (M, T) from samples (004 §2.2, Theorems 7-8).

Theorems 7 and 8 say that the optimal predictor of a task :math:`x_{t_2}\otimes x_{t_3}\mid
x_{t_1}` on three adjacent times determines an HMM's :math:`(O, T)` (or a G-HMM's
:math:`(M, T)`); :mod:`~identifiability.masked.recovery` inverts the *population* predictor
exactly.  Here the same tensor is estimated from samples and inverted robustly:

1. **statistics** -- :func:`~identifiability.masked.moments.empirical_moments`: window sums of
   :math:`x_t\otimes x_{t+1}\otimes x_{t+2}` and the pair products, streamed, in jackknife
   groups (memory independent of the number of sequences);
2. **tensor** -- :math:`\hat P_{123} = \tfrac1k\sum_i (ET^\top)_i\otimes E_i\otimes(ET)_i` + noise;
   the task's conditioning token is the eigenvector mode, its two targets are read out;
3. **Jennrich, noise-robust** -- :func:`~identifiability.masked.spectral.spectral_factors`:
   whitening by the pair moments, the widest-gap contraction among ``n_contractions`` random
   ones, and the eigenvalue read-out of every coordinate (first-order insensitive to the
   eigenvector error);
4. **projection and refinement** -- the emission matrix onto the model class (columns onto the
   simplex for O, unit columns for M, A9), :math:`T` by least squares from the target factors,
   then onto the doubly stochastic matrices (A5); then a least-squares fit of the model's
   moments to the empirical ones started there
   (:mod:`~identifiability.masked.moment_fit`), projected again and kept when it fits the
   moments better.  The distances moved are reported;
5. **noise and status** -- delete-a-group jackknife over the groups (same contraction): standard
   errors of every parameter, of the eigenvalues and of :math:`\sigma_k` of the whitening
   matrices (the refinement of a replicate is its Gauss-Newton step from the full-sample
   optimum: a one-step jackknife).  The status is ``'too_few_samples'`` when the chosen
   contraction's eigenvalue gap is below ``GAP_TO_NOISE`` times its noise (the components are
   then not separated by the data), when two emission columns are closer than
   ``SEPARATION_TO_NOISE`` standard errors, when :math:`\sigma_k` of a whitening matrix is
   below ``SIGMA_TO_NOISE`` times its noise (rank k not resolved), or when no contraction had
   real eigenvalues; ``'invalid'`` when the projected parameters still violate an assumption.
6. **goodness of fit** -- the moment residual :math:`r = \hat m - m(\hat\theta)` of the
   returned model (all of :math:`\hat P_{123}` and the pair moments) against the sampling
   error of :math:`\hat m`, whose total variance :math:`\operatorname{tr}\Sigma` the same
   delete-a-group jackknife estimates: ``details['fit_to_noise']`` is
   :math:`\|r\|/\sqrt{\operatorname{tr}\hat\Sigma}`.  When the model class contains the
   truth :math:`\theta^*`, the least-squares fit has :math:`\|r\|\le\|\hat m -
   m(\theta^*)\|`, whose mean square is :math:`\operatorname{tr}\Sigma`, so the ratio is
   about 1 or less; a model with too few states leaves a bias that does not shrink with the
   sample, and the ratio grows like :math:`\sqrt n`.  Above ``FIT_TO_NOISE`` (and when the
   data separate the states) the status is ``'misfit'``: the data reject a k-state model.
   ``details['supported_k']`` is the number of components the data resolve: the singular
   values of the pair moment :math:`\hat P_{12}` (rank k under A7/A8) that stand
   ``SUPPORT_TO_NOISE`` jackknife standard errors above zero -- a lower bound on the number
   of states (a poorly conditioned model's smallest components may not be resolved).
   Every estimate reports the conditioning it depends on: :math:`\sigma_{\min}(O)` (or M)
   and :math:`\sigma_{\min}(T)`.

7. **EM steps (optional)** -- with ``em_steps = j > 0`` and the data in memory (an array or a
   list, not a stream or :class:`~identifiability.masked.moments.TripleMoments`), at most j
   Baum-Welch iterations of hmmlearn (:mod:`~identifiability.masked.baum_welch`) start at the
   projected moment estimate of status ``'ok'`` and the result is projected onto the class
   again; the goodness of fit (step 6) is then that of the returned model.  EM from a
   consistent start stays consistent and climbs the likelihood, which uses the whole sequences
   rather than their three-token windows: on the benchmark's family of random
   well-conditioned HMMs at n = 1e5 a few steps lower the error below that of the best of 10
   default EM runs at a small fraction of one run's time (benchmark ``estimation``).  The
   jackknife standard errors and the conditioning remain those of the moment estimate (the EM
   steps are not jackknifed).  An estimate whose status is not ``'ok'`` is returned without
   EM steps (EM from a start the data did not determine is no improvement, see
   :func:`~identifiability.masked.em.refine_em`); ``details['em_steps']`` says what ran.

The estimators run on one BLAS thread (the statistics' products and the refinement's
:math:`9200\times 224` Jacobian at (d, k) = (20, 8) are too small for threads to pay; on a
shared machine two OpenBLAS threads made them 30-50x slower, benchmark ``estimation``), which
also makes their results independent of the thread settings.

:func:`~identifiability.masked.em.refine_em` hands the estimate to hmmlearn's EM.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from identifiability.errors import UnreliableEstimateError
from identifiability.masked.baum_welch import baum_welch, hmmlearn_data
from identifiability.masked.goodness_of_fit import FIT_TO_NOISE, fit_to_noise, supported_k
from identifiability.masked.hmm import HMM, AssumptionError, GaussianHMM
from identifiability.masked.matching import match_permutation
from identifiability.masked.moment_fit import fit_spectral, jackknife
from identifiability.masked.moments import (
    TripleMoments,
    _as_stream,
    _check_batch,
    empirical_moments,
)
from identifiability.masked.spectral import MAX_CONTRACTIONS
from identifiability.masked.tasks import Task
from seprank.core import (
    Result,
    SeedLike,
    as_generator,
    check_bool,
    check_choice,
    check_float,
    check_int,
)
from seprank.core.types import FloatArray

__all__ = ["GAP_TO_NOISE", "MAX_EM_STEPS", "MAX_GROUPS", "SIGMA_TO_NOISE", "MomentEstimate",
           "UnreliableEstimateError", "estimate_ghmm", "estimate_hmm"]

#: Smallest eigenvalue gap of the chosen contraction, in jackknife standard errors, for the
#: components to count as separated by the data.
GAP_TO_NOISE = 3.0
#: Smallest k-th singular value of a whitening pair matrix, in jackknife standard errors.
SIGMA_TO_NOISE = 3.0
#: Components whose emission columns are closer (max-abs) than this many jackknife standard
#: errors are not told apart by the data.
SEPARATION_TO_NOISE = 3.0
#: Most jackknife groups: the jackknife refits the model once per group, so its cost is linear
#: in ``n_groups``; error bars need far fewer (10-50).
MAX_GROUPS = 1000
#: Most EM iterations ``em_steps`` may ask for: the option is a short polish of the moment
#: estimate; a full EM run is :func:`~identifiability.masked.em.refine_em`.
MAX_EM_STEPS = 100
STATUSES = ("ok", "too_few_samples", "misfit", "invalid")


@dataclass(frozen=True, repr=False)
class MomentEstimate(Result):
    """A moment estimate of an HMM or G-HMM, with its noise, conditioning and status.

    Attributes
    ----------
    model : HMM or GaussianHMM
        The projected parameters, a valid model of the class when ``status != 'invalid'``
        (after the EM steps when ``details['em_steps']['run'] > 0``).
    status : {'ok', 'too_few_samples', 'misfit', 'invalid'}
        See the module docstring; ``meaningful`` is ``status == 'ok'``.  ``'misfit'``: the
        data reject a k-state model (the moment residual exceeds ``FIT_TO_NOISE`` sampling
        errors); it takes precedence when the data also resolve more than k states
        (``details['supported_k'] > k``).  Otherwise a noisy sample takes precedence (a
        poor estimate also fits the moments poorly), then a misfit, then an invalid
        projection (``valid`` says).
    problems : tuple of str
        Why the status is not ``'ok'``.
    raw_emission, raw_T : numpy.ndarray
        The spectral estimates before the projections.
    stderr : Mapping
        Jackknife standard errors, max over entries: ``'emission'``, ``'T'`` (and the full
        arrays ``'emission_entries'``, ``'T_entries'``).
    conditioning : Mapping
        ``sigma_min_O`` (or ``sigma_min_M``), ``sigma_min_T``, ``sigma_k_whitening``,
        ``eigengap``, ``eigengap_to_noise``, ``sigma_k_to_noise``.
    task : Task
    n_windows, n_sequences : int
    details : Mapping
        Settings and diagnostics of the estimate, among them ``fit_to_noise`` (the moment
        residual in units of its sampling error; NaN when the jackknife failed),
        ``supported_k`` (states resolved by the pair moments), ``refinement`` and
        ``em_steps`` (``requested``, ``run``, ``converged``, ``log_likelihood`` and, when
        none ran, ``skipped``: why; ``fit_to_noise_moment``: the moment estimate's fit).
    """

    model: HMM | GaussianHMM
    status: str
    problems: tuple[str, ...]
    raw_emission: FloatArray
    raw_T: FloatArray
    stderr: Mapping[str, Any]
    conditioning: Mapping[str, float]
    task: Task
    n_windows: int
    n_sequences: int
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        """True when ``model`` satisfies every assumption of its class (even if noisy)."""
        return not self.details.get("invalid", False)

    @property
    def meaningful(self) -> bool:
        """True when the sample determines the parameters (``status == 'ok'``)."""
        return self.status == "ok"

    def _repr_info(self) -> dict[str, Any]:
        name = "O" if self.model.kind == "hmm" else "M"
        return {"kind": self.model.kind, "d": self.model.d, "k": self.model.k,
                "status": self.status, "n_windows": self.n_windows,
                f"stderr_{name}": round(float(self.stderr["emission"]), 6),
                "stderr_T": round(float(self.stderr["T"]), 6),
                f"sigma_min_{name}": round(float(self.conditioning[f"sigma_min_{name}"]), 4),
                "sigma_min_T": round(float(self.conditioning["sigma_min_T"]), 4)}

    def summary(self) -> str:
        """One line in words: the status, the sample size and the noise of the estimate.

        Returns
        -------
        str
            One line.
        """
        info = self._repr_info()
        return (f"{info['kind']} moment estimate from {self.n_windows:,} windows: "
                f"{self.status}; " + ", ".join(f"{k} {v}" for k, v in list(info.items())[5:]))

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

    def plot(self, truth: HMM | GaussianHMM | None = None, *, ax: Any = None) -> Any:
        """Estimated entries of the emission matrix and T with their jackknife standard errors,
        against the true ones when ``truth`` is given (after matching the states), else in
        entry order; returns the matplotlib Axes.

        Parameters
        ----------
        truth : HMM or GaussianHMM, optional
            The model the data came from; the estimate's states are matched to its states
            and each estimated entry is drawn against the true one.  None (the default)
            draws the estimated entries in entry order.
        ax : matplotlib Axes, optional
            Where to draw (keyword-only); None (the default) makes a new figure.

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn on: the entries with error bars of one jackknife standard error.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> truth = HMM.random(4, 2, seed=0)
        >>> x, _ = truth.sample(50, n_sequences=400, seed=1)
        >>> est = estimate_hmm(x, 2, seed=2, check="report")
        >>> est.plot(truth).get_xlabel()
        'true entry'
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(4.5, 4))
        E, T = self.model.emission, self.model.T
        se_E = np.broadcast_to(np.asarray(self.stderr.get("emission_entries",
                                                         self.stderr["emission"])), E.shape)
        se_T = np.broadcast_to(np.asarray(self.stderr.get("T_entries", self.stderr["T"])),
                               T.shape)
        name = "O" if self.model.kind == "hmm" else "M"
        if truth is not None:
            perm = match_permutation(E, truth.emission).perm
            E, se_E = E[:, perm], se_E[:, perm]
            T, se_T = T[np.ix_(perm, perm)], se_T[np.ix_(perm, perm)]
            xs_E, xs_T = truth.emission.ravel(), truth.T.ravel()
            lo = min(xs_E.min(), xs_T.min(), E.min(), T.min())
            hi = max(xs_E.max(), xs_T.max(), E.max(), T.max())
            ax.plot([lo, hi], [lo, hi], color="0.6", lw=0.8)
            ax.set_xlabel("true entry")
        else:
            xs_E = np.arange(E.size, dtype=float)
            xs_T = np.arange(E.size, E.size + T.size, dtype=float)
            ax.set_xlabel("entry")
        ax.errorbar(xs_E, E.ravel(), yerr=se_E.ravel(), fmt="o", ms=3, label=f"{name} ± stderr")
        ax.errorbar(xs_T, T.ravel(), yerr=se_T.ravel(), fmt="s", ms=3, label="T ± stderr")
        ax.set_ylabel("estimated entry")
        ax.set_title(f"{self.n_windows:,} windows: {self.status}", fontsize=9)
        ax.legend(fontsize=8)
        return ax

    @staticmethod
    def plot_errors(estimates: Sequence[MomentEstimate], truth: HMM | GaussianHMM, *,
                    ax: Any = None) -> Any:
        """Max errors against ``truth`` and the reported standard errors, against the number
        of windows, on log-log axes; returns the matplotlib Axes.

        Parameters
        ----------
        estimates : sequence of MomentEstimate
            At least one estimate of the same model, typically from growing numbers of
            windows (drawn in the order of their number of windows).
        truth : HMM or GaussianHMM
            The model the data came from (each estimate's states matched to its states).
        ax : matplotlib Axes, optional
            Where to draw (keyword-only); None (the default) makes a new figure.

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn on: max errors and standard errors of the emission matrix and
            of T.
        """
        import matplotlib.pyplot as plt

        if not estimates:
            raise ValueError("estimates: give at least one MomentEstimate")
        if ax is None:
            _, ax = plt.subplots(figsize=(5, 3.5))
        ordered = sorted(estimates, key=lambda e: e.n_windows)
        n = [e.n_windows for e in ordered]
        errors = [e.errors_against(truth) for e in ordered]
        name = "O" if truth.kind == "hmm" else "M"
        ax.loglog(n, [err["emission"] for err in errors], "o-", label=f"max error {name}")
        ax.loglog(n, [err["T"] for err in errors], "s-", label="max error T")
        ax.loglog(n, [float(e.stderr["emission"]) for e in ordered], "o--", color="C0",
                  alpha=0.6, label=f"stderr {name}")
        ax.loglog(n, [float(e.stderr["T"]) for e in ordered], "s--", color="C1", alpha=0.6,
                  label="stderr T")
        ax.set_xlabel("windows n")
        ax.set_ylabel("max abs error")
        ax.legend(fontsize=8)
        return ax


def _estimate(mom: TripleMoments, k: int, task: Task, seed: SeedLike, n_contractions: int,
              check: str, gap_to_noise: float, refine: bool, em_steps: int = 0,
              data: tuple[Any, list[int]] | None = None) -> MomentEstimate:
    kind = mom.kind
    rng = as_generator(seed)
    a = task.given - min(task.times)
    _check_pair_rank(mom, k)
    with threadpool_limits(limits=1, user_api="blas"):       # see the module docstring
        fit = fit_spectral(mom, k, a, rng, n_contractions, refine=refine)
        jk = jackknife(mom, fit, k, a, n_contractions, refine)
    f = fit.factors
    lam = f.eigenvalues
    order = np.argsort(lam)
    gaps = np.diff(lam[order])
    gap_noise = np.sqrt(jk["eig"][order][1:] ** 2 + jk["eig"][order][:-1] ** 2)
    with np.errstate(all="ignore"):
        gap_ratio = float(np.min(gaps / gap_noise)) if k > 1 else np.inf
        sig_ratio = float(np.min(np.array(f.sigma_k) / jk["sigma_k"]))
    noisy, invalid = [], []
    if not f.real:
        noisy.append(f"no contraction among {n_contractions} had real eigenvalues (the "
                     "real parts of the least complex one were used)")
    if not gap_ratio >= gap_to_noise:
        noisy.append(f"the eigenvalue gap of the chosen contraction is {gap_ratio:.3g} "
                     f"jackknife standard errors (< {gap_to_noise:g}): the data do not "
                     "separate the hidden states")
    if not sig_ratio >= SIGMA_TO_NOISE:
        noisy.append(f"sigma_k of a whitening pair matrix is {sig_ratio:.3g} standard errors "
                     f"(< {SIGMA_TO_NOISE:g}): rank k is not resolved by the data")
    sep = _separation(fit.E) / max(float(np.max(jk["E"])), np.finfo(float).tiny)
    if not sep >= SEPARATION_TO_NOISE:
        noisy.append(f"the closest two emission columns are {sep:.3g} jackknife standard "
                     f"errors apart (< {SEPARATION_TO_NOISE:g}): states not told apart")
    if jk["groups"] < len(mom.counts):
        noisy.append("the jackknife failed (a group is empty or a replicate degenerate): "
                     "no error bar")
    if not fit.projected:
        invalid.append("the projection of T onto the doubly stochastic matrices did not "
                       "converge (or T is not finite)")
    cls = HMM if kind == "hmm" else GaussianHMM
    try:
        model = cls(fit.E, fit.T)
    except (AssumptionError, ValueError) as err:
        invalid.append(f"the projected parameters are not a valid model: {err}")
        model = cls(np.nan_to_num(fit.E), np.nan_to_num(fit.T), require=())
    em_info: dict[str, Any] = {"requested": em_steps, "run": 0}
    if em_steps and (noisy or invalid):
        em_info["skipped"] = ("the moment estimate is not determined by the data (or not "
                              "valid): EM from it would be no improvement")
    elif em_steps and data is not None:
        em_info["fit_to_noise_moment"] = fit_to_noise(mom, model)
        try:
            with threadpool_limits(limits=1, user_api="blas"):
                bw = baum_welch(model, data[0], data[1], n_iter=em_steps,
                                random_state=int(rng.integers(2**31 - 1)))
        except (AssumptionError, ValueError) as err:   # EM left the model class
            em_info["skipped"] = f"EM's parameters are not a valid model of the class: {err}"
        else:
            model = bw.model
            em_info.update(run=bw.n_iter, converged=bw.converged,
                           log_likelihood=bw.log_likelihood,
                           projection_distance=dict(bw.projection_distance))
    fit_ratio = fit_to_noise(mom, model)
    supported = supported_k(mom)
    misfit = []
    if fit_ratio > FIT_TO_NOISE:
        unconverged = (" (or its fit: the refinement stopped at its budget)"
                       if fit.refinement.get("budget_exhausted") else "")
        misfit.append(f"the model{unconverged} does not fit the moments: their residual is "
                      f"{fit_ratio:.3g} times their sampling error (> {FIT_TO_NOISE:g}; a "
                      f"correct model stays near 1): the data reject k = {k}; they resolve "
                      f"{supported} component(s)")
    # a noisy estimate also fits poorly, unless the data resolve more than k states
    too_small = bool(misfit) and supported > k
    status = ("misfit" if too_small else "too_few_samples" if noisy else
              "misfit" if misfit else "invalid" if invalid else "ok")
    name = "O" if kind == "hmm" else "M"
    with np.errstate(all="ignore"):
        sv = {f"sigma_min_{name}": _smin(fit.E), "sigma_min_T": _smin(fit.T)}
    conditioning = {**sv, "sigma_k_whitening": float(min(f.sigma_k)),
                    "eigengap": float(np.min(gaps)) if k > 1 else np.inf,
                    "eigengap_to_noise": gap_ratio, "sigma_k_to_noise": sig_ratio,
                    "separation_to_noise": sep,
                    "condition_eigenvectors": f.condition_G}
    stderr = {"emission": float(np.max(jk["E"])), "T": float(np.max(jk["T"])),
              "emission_entries": jk["E"], "T_entries": jk["T"]}
    with np.errstate(all="ignore"):
        details = {"projection_distance": {
                       "emission": float(np.max(np.abs(fit.E - fit.E_raw))),
                       "T": float(np.max(np.abs(fit.T - fit.T_raw)))},
                   "contraction": {"mode": ("x_t", "x_t+1", "x_t+2")[
                       [m for m in (0, 1, 2) if m != a][f.direction[0] - 1]],
                       "real_candidates": f.n_real, "candidates": n_contractions},
                   "jackknife_groups": jk["groups"], "eigenvalues": lam.tolist(),
                   "gap_to_noise_required": gap_to_noise, "invalid": bool(invalid),
                   "refinement": fit.refinement, "fit_to_noise": fit_ratio,
                   "fit_to_noise_allowed": FIT_TO_NOISE, "supported_k": supported,
                   "em_steps": em_info}
    est = MomentEstimate(model, status, tuple(misfit + invalid + noisy), fit.E_raw, fit.T_raw,
                         stderr, conditioning, task, mom.n_windows, mom.n_sequences, details)
    if status != "ok" and check == "raise":
        fname = "estimate_hmm" if kind == "hmm" else "estimate_ghmm"
        raise UnreliableEstimateError(
            f"{fname}(k={k}) from {mom.n_windows:,} windows: {status}: "
            + "; ".join(est.problems) + f". Conditioning: sigma_min({name}) = "
            f"{sv[f'sigma_min_{name}']:.3g}, sigma_min(T) = {sv['sigma_min_T']:.3g}. "
            + _advice(mom, k) + "; check='report' returns the estimate with its status", est)
    return est


def _advice(mom: TripleMoments, k: int) -> str:
    """What to change when an estimate is unreliable: k, when the pair moments resolve more
    than k components (their (k+1)-th singular value stands well above its jackknife noise),
    else the number of samples (or k)."""
    _, pairs = mom.moments()
    sv = np.linalg.svd(pairs[0], compute_uv=False)
    if k < len(sv) and len(mom.counts) > 1:
        reps = []
        for g in range(len(mom.counts)):
            try:
                reps.append(np.linalg.svd(mom.moments(g)[1][0], compute_uv=False)[k])
            except ValueError:              # an empty group: no replicate
                continue
        if len(reps) > 1:
            n = len(reps)
            se = float(np.sqrt((n - 1) / n * np.sum((np.array(reps) - np.mean(reps)) ** 2)))
            if sv[k] > 10 * max(se, 1e-300):
                return (f"The data resolve more than k = {k} components (sigma_{k + 1} of the "
                        f"pair moments is {sv[k] / max(se, 1e-300):.3g} jackknife standard "
                        f"errors): k is probably too small; try k = {k + 1}")
    return "Use more samples (or check k)"


def _check_pair_rank(mom: TripleMoments, k: int) -> None:
    """Refuse data whose pair moments have rank below k (constant or degenerate sequences)
    before any estimate: a k-state model is then not determined by any amount of such data,
    and the spectral step would only produce NaN."""
    _, pairs = mom.moments()
    sv = np.linalg.svd(pairs[0], compute_uv=False)       # of E[x_t x_t+1^T]
    if not np.all(np.isfinite(sv)) or sv[0] == 0 or sv[min(k, len(sv)) - 1] <= 1e-12 * sv[0]:
        rank = int(np.sum(sv > 1e-12 * sv[0])) if sv[0] > 0 else 0
        raise ValueError(
            f"sequences are degenerate: their pair moments E[x_t x_t+1^T] have rank {rank} < "
            f"k = {k} (constant or repeated observations?); no amount of such data determines "
            f"a {k}-state model: check the data, or lower k")


def _separation(E: FloatArray) -> float:
    """Smallest max-abs distance between two columns."""
    k = E.shape[1]
    if k < 2 or not np.all(np.isfinite(E)):
        return float("inf") if k < 2 else float("nan")
    return float(min(np.max(np.abs(E[:, i] - E[:, j]))
                     for i in range(k) for j in range(i + 1, k)))


def _smin(X: FloatArray) -> float:
    if not np.all(np.isfinite(X)):
        return float("nan")
    return float(np.linalg.svd(X, compute_uv=False)[-1])


def _task(task: Any, kind: str) -> Task:
    t = Task(task)
    if t.case is None:
        why = ("pairwise tasks do not identify an HMM (Theorems 4 and 6: rotation twins share "
               "every x_t|x_1 predictor)" if kind == "hmm" else
               "this estimator implements the three-token tasks of Theorem 8")
        raise ValueError(f"task {t} is not x_t2 ⊗ x_t3 | x_t1 on three adjacent times: {why}; "
                         "use 'x2*x3|x1', 'x1*x3|x2' or 'x1*x2|x3'")
    return t


def _split_lengths(sequences: Any, lengths: Any, kind: str) -> list[np.ndarray]:
    """hmmlearn's layout: X of shape (n_samples, 1) tokens (HMM) or (n_samples, d) vectors
    (G-HMM), cut into consecutive sequences of the given lengths."""
    if isinstance(sequences, TripleMoments):
        raise ValueError("lengths cuts hmmlearn's X into sequences; sequences is already "
                         "TripleMoments: drop lengths")
    X = np.asarray(sequences)
    if kind == "hmm":
        if X.ndim == 2 and X.shape[1] == 1:
            X = X[:, 0]
        if X.ndim != 1:
            raise ValueError(f"with lengths, sequences must be hmmlearn's X of shape "
                             f"(n_samples, 1) (or (n_samples,)), got shape {X.shape}")
    elif X.ndim != 2:
        raise ValueError(f"with lengths, sequences must be hmmlearn's X of shape (n_samples, d), "
                         f"got shape {X.shape}")
    lens = np.asarray(lengths)
    if lens.ndim != 1 or lens.size == 0 or lens.dtype.kind not in "iu" or np.any(lens < 0):
        raise ValueError(f"lengths must be a non-empty 1-D sequence of non-negative integers "
                         f"(hmmlearn's lengths), got {lengths!r:.80}")
    if int(lens.sum()) != X.shape[0]:
        raise ValueError(f"lengths sum to {int(lens.sum()):,} but X has {X.shape[0]:,} samples "
                         "(rows): they must agree, as in hmmlearn's fit(X, lengths)")
    return [X[a:b] for a, b in itertools.pairwise(np.concatenate([[0], np.cumsum(lens)]))]


def _refuse_hmmlearn_column(sequences: Any) -> None:
    """An integer (n_samples, 1) array is hmmlearn's layout, not n sequences of length 1."""
    if (isinstance(sequences, np.ndarray) and sequences.ndim == 2 and sequences.shape[1] == 1
            and sequences.shape[0] >= 3):
        raise ValueError(
            f"sequences has shape {sequences.shape}: one column of tokens is hmmlearn's "
            "layout (X, lengths), which here would read as "
            f"{sequences.shape[0]:,} sequences of length 1.  Pass the lengths: "
            "estimate_hmm(X, k, lengths=lengths); for one sequence: estimate_hmm(X[:, 0], k); "
            "or give a 2-D batch with one sequence per row")


def _moments(sequences: Any, d: int | None, kind: str, n_groups: int) -> TripleMoments:
    if isinstance(sequences, TripleMoments):
        if sequences.kind != kind:
            raise ValueError(f"sequences holds {sequences.kind} statistics; this estimator "
                             f"needs {kind} ones")
        return sequences
    if d is None:
        if kind == "hmm":
            if not isinstance(sequences, np.ndarray | list | tuple):
                raise TypeError("d must be given when sequences is a stream (generator); it "
                                "is the number of tokens")
            arrays = [np.asarray(batch) for batch in _as_stream(sequences, "hmm")[0]]
            if not arrays or any(x.dtype.kind not in "iu" or x.size == 0 for x in arrays):
                raise TypeError("sequences must hold integer token indices (HMM)")
            d = int(max(int(x.max()) for x in arrays)) + 1
        else:
            stream, single = _as_stream(sequences, "ghmm")
            first = next(stream, None)
            if first is None:
                raise ValueError("sequences: no observation")
            d = int(_check_batch(first, "ghmm", None, -1 if single else 0).shape[-1])
            sequences = first if single else itertools.chain([first], stream)
    return empirical_moments(sequences, d, kind=kind, n_groups=n_groups)


def _check_groups(n_groups: Any) -> int:
    """``n_groups`` in [2, MAX_GROUPS]: the jackknife refits the model once per group."""
    n = check_int("n_groups", n_groups, 2)
    if n > MAX_GROUPS:
        raise ValueError(f"n_groups = {n:,} jackknife groups: the estimator refits the model "
                         f"once per group, so its time grows linearly in n_groups; at most "
                         f"{MAX_GROUPS:,} are allowed (10-50 give the error bars)")
    return n


def _check_filled(mom: TripleMoments) -> None:
    """Refuse statistics with an empty jackknife group (more groups than sequences)."""
    empty = int(np.sum(mom.counts == 0))
    if empty:
        raise ValueError(f"n_groups = {len(mom.counts):,} but {empty:,} group(s) got no window "
                         f"(the data hold {mom.n_sequences:,} sequence(s); sequences go to "
                         "groups round-robin): the jackknife needs every group; use n_groups "
                         f"<= {max(2, len(mom.counts) - empty)}")


def _check_em_steps(em_steps: Any, sequences: Any) -> int:
    """``em_steps`` in [0, MAX_EM_STEPS]; EM reads the data again, so a positive value needs
    sequences held in memory (not statistics, not a one-pass stream)."""
    j = check_int("em_steps", em_steps, 0, MAX_EM_STEPS)
    if j and isinstance(sequences, TripleMoments):
        raise ValueError("em_steps > 0 runs EM on the sequences, but sequences is "
                         "TripleMoments (statistics only): pass the sequences themselves, or "
                         "em_steps=0")
    if j and iter(sequences) is sequences:
        raise ValueError("em_steps > 0 runs EM on the sequences, which it must read again, but "
                         "sequences is a one-pass stream (an iterator or generator): pass an "
                         "array or a list of sequences, or em_steps=0 (the moment estimate "
                         "streams any number of sequences)")
    return j


def _common(k: Any, n_contractions: Any, check: Any, gap_to_noise: Any, refine: Any
            ) -> tuple[int, int, float]:
    check_choice("check", check, ("raise", "report"))
    check_bool("refine", refine)
    return (check_int("k", k), check_int("n_contractions", n_contractions, 1, MAX_CONTRACTIONS),
            check_float("gap_to_noise", gap_to_noise, positive=True))


def estimate_hmm(
    sequences: Any, k: int, *, task: Task | str = "x2*x3|x1", d: int | None = None,
    seed: SeedLike = None, n_groups: int = 10, n_contractions: int = 16,
    gap_to_noise: float = GAP_TO_NOISE, refine: bool = True, check: str = "raise",
    lengths: Sequence[int] | None = None, em_steps: int = 0,
) -> MomentEstimate:
    r"""Estimate an HMM's :math:`(O, T)` from token sequences by the x2⊗x3|x1 moments.

    Parameters
    ----------
    sequences : array_like, iterable of array_like, or TripleMoments
        Integer tokens: one sequence (1-D), a batch (2-D, one sequence per row), or an
        iterable of such arrays (streamed; memory independent of their number); or the
        statistics of :func:`~identifiability.masked.moments.empirical_moments`.
    k : int
        Number of hidden states (A7: k <= d).
    task : Task or str, keyword-only
        A Theorem-7 task (``'x2*x3|x1'``, ``'x1*x3|x2'``, ``'x1*x2|x3'``): its conditioning
        token is the eigenvector mode.  Pairwise tasks are refused (Theorems 4, 6).
    d : int, optional, keyword-only
        Number of tokens; default: the largest token + 1 (pass it when a token may be
        unobserved; required for a generator).
    seed : keyword-only
        The algorithm's stream (candidate contractions); keep it apart from the data's seed.
    n_groups : int, keyword-only
        Jackknife groups (see :func:`~identifiability.masked.moments.empirical_moments`),
        2 to :data:`MAX_GROUPS`; every group must receive a window (at most one group per
        sequence of a batch).  The estimate is refitted once per group.
    n_contractions : int, keyword-only
        Random contractions tried; the one with the widest eigenvalue gap is used.
    gap_to_noise : float, keyword-only
        Required eigenvalue gap in jackknife standard errors (default :data:`GAP_TO_NOISE`).
    refine : bool, keyword-only
        Refine the spectral estimate by least squares on the moments
        (:mod:`~identifiability.masked.moment_fit`); kept only when the projected result fits
        the moments better.  ``details['refinement']`` says what happened.
    check : {'raise', 'report'}, keyword-only
        ``'raise'`` (default): a status other than ``'ok'`` raises
        :class:`UnreliableEstimateError`; ``'report'`` returns the estimate with its status.
    lengths : sequence of int, optional, keyword-only
        hmmlearn's layout: ``sequences`` is its ``X`` of shape ``(n_samples, 1)`` and
        ``lengths`` the length of each consecutive sequence, as in ``fit(X, lengths)``.  An
        integer ``(n_samples, 1)`` array without ``lengths`` is refused (it would read as
        sequences of length 1).
    em_steps : int, keyword-only
        At most this many Baum-Welch iterations (hmmlearn) from the moment estimate when its
        status is ``'ok'`` (module docstring, step 7), 0 (the default) to :data:`MAX_EM_STEPS`;
        a positive value needs the sequences in memory (an array or a list, not a stream or
        statistics) and materialises them for hmmlearn.  Three steps lower the error at
        n = 1e5 on the benchmark's family below the best of 10 default EM runs at a small
        fraction of one run's time (benchmark ``estimation``).

    Returns
    -------
    MomentEstimate

    References
    ----------
    .. [1] 004, Theorem 7 and its proof (2.36)-(2.41); Anandkumar, Hsu, Kakade (2012).

    Examples
    --------
    >>> truth = HMM([[0.7, 0.1, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.8]],
    ...             0.7 * np.eye(3) + 0.1)
    >>> x, _ = truth.sample(200, n_sequences=500, seed=0)
    >>> est = estimate_hmm(x, 3, seed=1)
    >>> est.status, est.errors_against(truth)["emission"] < 5 * est.stderr["emission"]
    ('ok', True)
    """
    k, n_contractions, gap_to_noise = _common(k, n_contractions, check, gap_to_noise, refine)
    t = _task(task, "hmm")
    n_groups = _check_groups(n_groups)
    if d is not None:
        d = check_int("d", d)
    if lengths is not None:
        sequences = _split_lengths(sequences, lengths, "hmm")
    else:
        _refuse_hmmlearn_column(sequences)
    em_steps = _check_em_steps(em_steps, sequences)
    with threadpool_limits(limits=1, user_api="blas"):
        mom = _moments(sequences, d, "hmm", n_groups)
    if k > mom.d:
        raise ValueError(f"k = {k} exceeds d = {mom.d}: A7 needs k <= d")
    _check_filled(mom)
    data = hmmlearn_data(sequences, "hmm", mom.d, k=k) if em_steps else None
    return _estimate(mom, k, t, seed, n_contractions, check, gap_to_noise, refine, em_steps,
                     data)


def estimate_ghmm(
    sequences: Any, k: int, *, task: Task | str = "x2*x3|x1", seed: SeedLike = None,
    n_groups: int = 10, n_contractions: int = 16, gap_to_noise: float = GAP_TO_NOISE,
    refine: bool = True, check: str = "raise", lengths: Sequence[int] | None = None,
    em_steps: int = 0,
) -> MomentEstimate:
    r"""Estimate a G-HMM's :math:`(M, T)` (unit means, identity covariance) from samples.

    The cross-time third moment :math:`\mathbb E[x_t\otimes x_{t+1}\otimes x_{t+2}] =
    \frac1k\sum_i (MT^\top)_i\otimes M_i\otimes(MT)_i` needs no noise correction (the noise is
    independent across times); the rest is as for :func:`estimate_hmm`, with the means
    projected onto unit vectors (A9).

    Parameters
    ----------
    sequences : array_like, iterable of array_like, or TripleMoments
        One sequence ``(length, d)``, a batch ``(n_sequences, length, d)``, or an iterable
        of them (streamed).
    k, task, seed, n_groups, n_contractions, gap_to_noise, refine, check, em_steps
        As for :func:`estimate_hmm` (Theorem-8 tasks; EM learns the means and T, the
        covariance stays the identity).
    lengths : sequence of int, optional, keyword-only
        hmmlearn's layout: ``sequences`` is its ``X`` of shape ``(n_samples, d)``, cut into
        consecutive sequences of these lengths.

    Returns
    -------
    MomentEstimate

    References
    ----------
    .. [1] 004, Theorem 8 and its proof (2.70)-(2.77).

    Examples
    --------
    >>> truth = GaussianHMM(np.eye(3), 0.7 * np.eye(3) + 0.1)
    >>> x, _ = truth.sample(100, n_sequences=1000, seed=0)
    >>> est = estimate_ghmm(x, 3, seed=1)
    >>> est.status, est.errors_against(truth)["emission"] < 0.1
    ('ok', True)
    """
    k, n_contractions, gap_to_noise = _common(k, n_contractions, check, gap_to_noise, refine)
    t = _task(task, "ghmm")
    n_groups = _check_groups(n_groups)
    if lengths is not None:
        sequences = _split_lengths(sequences, lengths, "ghmm")
    em_steps = _check_em_steps(em_steps, sequences)
    with threadpool_limits(limits=1, user_api="blas"):
        mom = _moments(sequences, None, "ghmm", n_groups)
    if k > mom.d:
        raise ValueError(f"k = {k} exceeds d = {mom.d}: A8 needs k <= d")
    _check_filled(mom)
    data = hmmlearn_data(sequences, "ghmm", mom.d, k=k) if em_steps else None
    return _estimate(mom, k, t, seed, n_contractions, check, gap_to_noise, refine, em_steps,
                     data)
