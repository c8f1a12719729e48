r"""Recover (O, T) or (M, T) from a two-token predictor, as in the proofs of Theorems 7 and 8.

The predictor is used as a black box: its task, its output dimension d, and its values at
chosen inputs (all one-hot tokens for the HMM; seeded random points for the G-HMM).  The tensor
:math:`W = \sum_x x\otimes f(x)` (:mod:`identifiability.masked.tensors`) is decomposed with
:func:`~identifiability.masked.cp.jennrich` or
:func:`~identifiability.masked.cp.als_parafac`, then the CP scaling is removed:

* HMM (Theorem 7): every target factor (:math:`OT^\top`, :math:`O`, :math:`OT`) is
  column-stochastic, so columns are normalised to sum 1; :math:`T = O^+(OT)`.  In case 2,
  :math:`A \propto D^{-1}O` column-wise and :math:`D = \mathrm{diag}(OT\mathbf 1)`.
* G-HMM (Theorem 8): the rows of :math:`X^+A = \Phi_X^\top G^\top` sum to one, which fixes A's
  column scales, hence every :math:`b_i c_i^\top` exactly.  Cases 1 and 3 (the middle token is
  a target): unit norms (A9) give :math:`\mu_i` up to a sign :math:`s_i`; the signs are fixed
  by :math:`T = S\,M_0^+ Q_0\,S \ge 0` (notes D.10) and the global sign by the predictor at fresh
  points.  Case 2: :math:`\log\Phi_X = M^\top X + \mathbf 1c^\top` with :math:`M` in the known
  column space of :math:`MT` gives M up to a common translation, and unit norms leave exactly
  the two solutions of Lemma 7 (M and HM); column sums of T fix the scales of MT, and the
  predictor at fresh points rejects HM (whose :math:`\tilde T` has column sums -1, (2.58)).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from identifiability.errors import InvalidRecoveryError
from identifiability.masked.cp import CPResult, als_parafac, jennrich
from identifiability.masked.ghmm_candidates import sign_candidates, translation_candidates
from identifiability.masked.hmm import HMM, GaussianHMM, gaussian_posterior
from identifiability.masked.matching import match_permutation
from identifiability.masked.tasks import Predictor, predict_raw
from seprank.core import (
    Result,
    SeedLike,
    as_generator,
    check_choice,
    check_float,
    check_int,
    matrix_rank,
)
from seprank.core.types import FloatArray

__all__ = ["InvalidRecoveryError", "RecoveredModel", "recover_ghmm", "recover_hmm"]

CPMethod = Literal["jennrich", "als"]
_AMBIGUITY_FLOOR = 1e-8  # a second candidate this close to the predictor is not excluded
#: Default tolerance of the checks of a recovered model (stochasticity, signs, unit norms,
#: relative reconstruction error of the predictor) per CP method: Jennrich is exact to
#: rounding (~1e-12); ALS stops at ~1e-4..1e-7 (and sometimes at a wrong solution, error ~1).
RECOVERY_CHECK_TOL = {"jennrich": 1e-6, "als": 1e-3}
Check = Literal["raise", "report"]


@dataclass(frozen=True, repr=False)
class RecoveredModel(Result):
    """Parameters recovered from a predictor, in the CP's arbitrary state order.

    Attributes
    ----------
    emission : numpy.ndarray
        ``O`` (HMM) or ``M`` (G-HMM), d x k.
    T : numpy.ndarray
    kind : {'hmm', 'ghmm'}
    cp : CPResult
    details : Mapping
        ``predictor_residual`` (max abs difference between the given predictor and the one of
        the recovered parameters at fresh inputs), and method-specific evidence.
    problems : tuple of str
        What makes the model invalid (empty when it passed every check: stochastic,
        non-negative, doubly stochastic T (A5), unit means (A9), and a predictor that
        reproduces the given one).  ``recover_*(..., check='raise')`` (the default) raises
        :class:`InvalidRecoveryError` instead of returning a model with problems.
    """

    emission: FloatArray
    T: FloatArray
    kind: str
    cp: CPResult
    details: Mapping[str, Any] = field(default_factory=dict)
    problems: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        """True when the recovered model passed every check (``problems`` is empty)."""
        return not self.problems

    def _repr_info(self) -> dict[str, Any]:
        name = "O" if self.kind == "hmm" else "M"
        return {"kind": self.kind, "valid": self.valid, name: self.emission, "T": self.T,
                "problems": self.problems, "cp": self.cp}

    def summary(self) -> str:
        d, k = self.emission.shape
        what = "valid" if self.valid else f"INVALID ({'; '.join(self.problems)})"
        residual = self.details.get("predictor_residual")
        tail = "" if residual is None else f", predictor residual {residual:.2g}"
        return f"recovered {self.kind.upper()} with d = {d}, k = {k}: {what}{tail}"


    def errors_against(self, truth: HMM | GaussianHMM) -> dict[str, Any]:
        """Max-abs errors after relabelling: ``emission[:, perm]`` vs truth, and
        ``T[perm][:, perm]`` (i.e. :math:`\\Pi^\\top \\hat T \\Pi`) vs ``truth.T``.

        Parameters
        ----------
        truth : HMM, GaussianHMM, or a result with a ``model``
            The true model (or an estimate or fit to compare with), of the same kind and
            sizes.

        Returns
        -------
        dict
            Max-abs errors of the emission and transition parameters, and the matching
            (the same keys as :meth:`HMM.errors_against`, but ``start``: a recovery has none).
        """
        ref = getattr(truth, "model", truth)
        if not isinstance(ref, HMM | GaussianHMM):
            raise TypeError(f"truth must be an HMM or GaussianHMM (or a result with a model), "
                            f"got {type(truth).__name__}")
        if ref.emission.shape != self.emission.shape:
            raise ValueError(f"cannot compare a recovery with emission {self.emission.shape} "
                             f"to a model with emission {ref.emission.shape}")
        m = match_permutation(self.emission, ref.emission)
        p = m.perm
        return {"perm": p.tolist(), "emission": m.max_abs_error,
                "T": float(np.max(np.abs(self.T[np.ix_(p, p)] - ref.T)))}


def _decompose(W: FloatArray, k: int, method: CPMethod, rng: np.random.Generator,
               n_restarts: int) -> CPResult:
    if method == "jennrich":
        return jennrich(W, k, seed=rng)
    if method == "als":
        return als_parafac(W, k, n_restarts=n_restarts, seed=rng)
    raise ValueError(f"method must be 'jennrich' or 'als', got {method!r}")


def _check_inputs(predictor: Any, k: Any, kind: str, method: Any, tol: Any, check: Any,
                  n_restarts: Any) -> tuple[int, float]:
    """Validate the common arguments; returns k (1 <= k <= d: A7 / A8 need k <= d) and tol."""
    other = {"hmm": ("recover_ghmm", GaussianHMM), "ghmm": ("recover_hmm", HMM)}[kind]
    if not isinstance(predictor, Predictor):
        raise TypeError(f"predictor must be a Predictor (build one with "
                        f"optimal_predictor(model, 'x2*x3|x1')), got {type(predictor).__name__}")
    if isinstance(predictor.model, other[1]):
        raise TypeError(f"predictor belongs to a {type(predictor.model).__name__}: use "
                        f"{other[0]} for it")
    check_choice("method", method, ("jennrich", "als"))
    check_int("n_restarts", n_restarts)
    tol = RECOVERY_CHECK_TOL[method] if tol is None else check_float("tol", tol, positive=True)
    check_choice("check", check, ("raise", "report"))
    return (check_int("k (the number of hidden states; A7/A8 need k <= d)", k, 1, predictor.d),
            tol)


def _stochastic_problems(T: FloatArray, tol: float) -> list[str]:
    out = []
    if not np.all(np.isfinite(T)):
        return ["T has NaN or infinite entries"]
    if T.min() < -tol:
        out.append(f"T has a negative entry {T.min():.4g}")
    for axis, what in ((0, "column"), (1, "row")):
        dev = float(np.max(np.abs(T.sum(axis=axis) - 1)))
        if dev > tol:
            out.append(f"T's {what} sums are off 1 by {dev:.3g} (A5: T doubly stochastic)")
    return out


def _residual_problem(residual: float, scale: float, tol: float) -> list[str]:
    rel = residual / max(scale, np.finfo(float).tiny)
    if not rel <= tol:
        return [f"the recovered model reproduces the predictor only to a relative error of "
                f"{rel:.3g}"]
    return []


def _finish(model: RecoveredModel, check: Check, k: int, W_rank: int) -> RecoveredModel:
    if model.valid or check == "report":
        return model
    name = "recover_hmm" if model.kind == "hmm" else "recover_ghmm"
    hint = (f"the predictor's tensor has numerical rank {W_rank}: is k = {W_rank}?"
            if W_rank != k else "is the predictor an exact optimal predictor of this task?")
    raise InvalidRecoveryError(
        f"{name}(k={k}) recovered parameters that are not a valid model: "
        + "; ".join(model.problems) + f". Likely cause: a wrong k ({hint}) or a predictor "
        "that is not the optimal predictor of a model of this kind; check='report' returns "
        "the model with its problems instead", model)


def _unfolding_rank(W: FloatArray) -> int:
    """Numerical rank of the mode-1 unfolding of W (generically the CP rank k)."""
    M = np.asarray(W).reshape(W.shape[0], -1)
    return int(matrix_rank(M, method="svd", rtol=1e-9).rank)


def _roles(predictor: Predictor) -> tuple[int, list[str]]:
    task = predictor.task
    if task.case is None:
        raise ValueError(f"task {task} is not one of the two-token tasks of Theorems 7/8 "
                         "(x_t2 ⊗ x_t3 | x_t1 on three adjacent times)")
    lo = min(task.times)
    return task.case, [("first", "middle", "last")[t - lo] for t in task.targets]


def recover_hmm(
    predictor: Predictor, k: int, *, method: CPMethod = "jennrich",
    seed: SeedLike = None, n_restarts: int = 5, tol: float | None = None,
    check: Check = "raise",
) -> RecoveredModel:
    r"""Recover :math:`(O, T)` of an HMM from the predictor of a Theorem-7 task.

    Parameters
    ----------
    predictor : Predictor
        For ``x_t2 ⊗ x_t3 | x_t1``, (t1, t2, t3) a permutation of three adjacent times.  Only
        ``predictor.task``, ``predictor.d`` and its values at the d one-hot tokens are used.
    k : int
        Number of hidden states.
    method : {'jennrich', 'als'}, keyword-only
    seed : keyword-only
        The algorithm's seed stream (contractions or ALS initialisations).
    n_restarts : int, keyword-only
        ALS restarts.
    tol : float, optional, keyword-only
        Tolerance of the checks of the result: O and T non-negative and stochastic, T doubly
        stochastic (A5), and the recovered parameters reproducing the predictor's tensor to
        a relative error ``tol``.  Default: 1e-6 for ``'jennrich'`` (exact to rounding),
        1e-3 for ``'als'`` (iterative).
    check : {'raise', 'report'}, keyword-only
        ``'raise'`` (default): an invalid result raises :class:`InvalidRecoveryError` (with
        the model and its ``problems``); ``'report'``: it is returned with ``valid = False``.

    Returns
    -------
    RecoveredModel
        The recovered model and the checks.

    Raises
    ------
    InvalidRecoveryError
        The recovered (O, T) is not an HMM reproducing the predictor: e.g. k is not the
        number of hidden states (a negative entry of T for k too large, a large
        reconstruction error for k too small).

    References
    ----------
    .. [1] 004, proof of Theorem 7, (2.36)–(2.41).

    Examples
    --------
    >>> from identifiability.masked.tasks import optimal_predictor
    >>> truth = HMM.random(5, 3, seed=0)
    >>> rec = recover_hmm(optimal_predictor(truth, "x1*x3|x2"), 3, seed=1)
    >>> err = rec.errors_against(truth)
    >>> err["emission"] < 1e-10 and err["T"] < 1e-10
    True
    """
    k, tol = _check_inputs(predictor, k, "hmm", method, tol, check, n_restarts)
    case, roles = _roles(predictor)
    rng = as_generator(seed)
    d = predictor.d
    W = np.asarray(predictor(np.arange(d)))  # = sum_j e_j ⊗ f(e_j)
    cp = _decompose(W, k, method, rng, n_restarts)
    A, B, C = cp.factors
    fac = {roles[0]: B / B.sum(axis=0), roles[1]: C / C.sum(axis=0)}
    if case == 2:  # A ∝ D^-1 O, D = diag(O T 1) = diag(row sums of the 'last' factor)
        O = fac["last"].sum(axis=1)[:, None] * A
        O = O / O.sum(axis=0)
    else:
        O = fac["middle"]
    Opinv = np.linalg.pinv(O)
    T = Opinv @ fac["last"] if "last" in fac else (Opinv @ fac["first"]).T
    with np.errstate(all="ignore"):  # a failed recovery is reported below, not warned about
        residual = float(np.max(np.abs(predict_raw(O, T, _hmm_phi(O), predictor.task) - W)))
    details = {"task": str(predictor.task), "case": case, "predictor_residual": residual}
    problems = _stochastic_problems(T, tol)
    if not np.all(np.isfinite(O)) or O.min() < -tol:
        problems.append(f"O has a negative (or non-finite) entry {np.nanmin(O):.4g}")
    problems += _residual_problem(residual, float(np.max(np.abs(W))), tol)
    model = RecoveredModel(O, T, "hmm", cp, details, tuple(problems))
    return _finish(model, check, k, _unfolding_rank(W) if problems else k)


def _hmm_phi(O: FloatArray) -> FloatArray:
    return np.asarray(O / O.sum(axis=1, keepdims=True))


def _ghmm_residual(M: FloatArray, T: FloatArray, predictor: Predictor, X: FloatArray,
                   F: FloatArray) -> float:
    return float(np.max(np.abs(predict_raw(M, T, gaussian_posterior(M, X.T), predictor.task)
                               - F)))


def recover_ghmm(
    predictor: Predictor, k: int, *, method: CPMethod = "jennrich",
    seed: SeedLike = None, n_restarts: int = 5,
    n_check_points: int = 20, tol: float | None = None, check: Check = "raise",
) -> RecoveredModel:
    r"""Recover :math:`(M, T)` of a G-HMM from the predictor of a Theorem-8 task.

    Inputs: k standard normal points :math:`X` (d x k) and ``n_check_points`` fresh points, all
    drawn from ``seed`` (the algorithm's stream).  See the module docstring for the steps,
    including the sign resolution (cases 1, 3) and the Householder twin (case 2).

    ``tol`` and ``check`` are as for :func:`recover_hmm`; the checks are: T non-negative and
    doubly stochastic (A5), unit means (A9), and the predictor reproduced at the check
    points to a relative error ``tol``.

    Parameters
    ----------
    predictor : Predictor
        The optimal predictor of a Theorem-8 task.
    k : int
        Number of hidden states.
    method : {'jennrich', 'als'}, keyword-only
        The CP decomposition (default ``'jennrich'``).
    seed : int or numpy.random.Generator, optional, keyword-only
        The algorithm's stream (points and restarts).
    n_restarts : int, keyword-only
        ALS restarts (default 5).
    n_check_points : int, keyword-only
        Fresh points at which the predictor is checked (default 20).
    tol : float, optional, keyword-only
        Tolerance of the checks.
    check : {'raise', 'report'}, keyword-only
        Raise :class:`InvalidRecoveryError` when a check fails, or report it in the result.

    Returns
    -------
    RecoveredModel
        The recovered model and the checks.

    Raises
    ------
    InvalidRecoveryError
        The recovered (M, T) fails a check (e.g. a wrong k).
    ValueError
        If no sign pattern or translation gives a valid model (e.g. a CP that failed), or if
        two candidates reproduce the predictor equally well (reducible T: the sign of each
        block is then not determined by W and the predictor at the chosen points).

    References
    ----------
    .. [1] 004, Theorem 8 (2.70)–(2.77), Lemma 7, (2.58).

    Examples
    --------
    >>> from identifiability.masked.tasks import optimal_predictor
    >>> truth = GaussianHMM.random(4, 3, seed=2)
    >>> rec = recover_ghmm(optimal_predictor(truth, "x2*x3|x1"), 3, seed=5)
    >>> err = rec.errors_against(truth)
    >>> err["emission"] < 1e-8 and err["T"] < 1e-8
    True
    """
    k, tol = _check_inputs(predictor, k, "ghmm", method, tol, check, n_restarts)
    n_check_points = check_int("n_check_points", n_check_points)
    case, roles = _roles(predictor)
    rng = as_generator(seed)
    d = predictor.d
    X = rng.standard_normal((d, k))
    Xc = rng.standard_normal((d, n_check_points))
    F = np.asarray(predictor(X.T))
    Fc = np.asarray(predictor(Xc.T))
    W = np.einsum("in,njk->ijk", X, F)
    cp = _decompose(W, k, method, rng, n_restarts)
    A, B, C = cp.factors
    lam = np.linalg.lstsq(np.linalg.pinv(X) @ A, np.ones(k), rcond=None)[0]  # rows sum to 1
    K = [np.outer(B[:, i], C[:, i]) / lam[i] for i in range(k)]  # exact b_i c_i^T
    A_true = A * lam
    details: dict[str, Any] = {"task": str(predictor.task), "case": case}
    if case in (1, 3):
        mid = roles.index("middle")
        U = (B if mid == 0 else C).copy()
        U /= np.linalg.norm(U, axis=0)
        Q0 = np.column_stack([(K[i] if mid == 0 else K[i].T).T @ U[:, i] for i in range(k)])
        T0 = np.linalg.pinv(U) @ Q0
        if case == 3:
            T0 = T0.T
        candidates = sign_candidates(U, T0)
        details["sign_candidates"] = len(candidates)
    else:
        candidates = translation_candidates(K, A_true, X, roles)
        details["translation_candidates"] = len(candidates)
    scored = [(_ghmm_residual(M, T, predictor, Xc, Fc), M, T) for M, T in candidates]
    scored.sort(key=lambda s: s[0])
    details["candidate_residuals"] = [s[0] for s in scored]
    if not scored:
        raise ValueError("no candidate (M, T) is consistent with the CP factors")
    res, M, T = scored[0]
    details["predictor_residual"] = res
    problems = _stochastic_problems(T, tol)
    norm_dev = float(np.max(np.abs(np.linalg.norm(M, axis=0) - 1)))
    if not norm_dev <= tol:
        problems.append(f"the means are not unit vectors (A9): max | ||mu_i|| - 1 | = "
                        f"{norm_dev:.3g}")
    problems += _residual_problem(res, float(np.max(np.abs(Fc))), tol)
    if (not problems and len(scored) > 1
            and scored[1][0] <= max(_AMBIGUITY_FLOOR, 100 * res)):
        raise ValueError(
            "two candidate G-HMMs reproduce the predictor equally well (residuals "
            f"{res:.3g} and {scored[1][0]:.3g}); the recovery is ambiguous here, e.g. because "
            "T is reducible or the CP decomposition is inaccurate")
    model = RecoveredModel(M, T, "ghmm", cp, details, tuple(problems))
    return _finish(model, check, k, _unfolding_rank(W) if problems else k)
