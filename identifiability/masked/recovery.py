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

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment

from identifiability.masked.cp import CPResult, als_parafac, jennrich
from identifiability.masked.hmm import HMM, GaussianHMM, gaussian_posterior
from identifiability.masked.tasks import Predictor, predict_raw
from seprank.core import CertifiedResult, SeedLike, as_generator

__all__ = ["Matching", "RecoveredModel", "match_permutation", "recover_ghmm", "recover_hmm"]

FloatArray = npt.NDArray[np.float64]
CPMethod = Literal["jennrich", "als"]
_MAX_SIGN_COMPONENTS = 12
_AMBIGUITY_FLOOR = 1e-8  # a second candidate this close to the predictor is not excluded


@dataclass(frozen=True)
class Matching:
    """``estimate[:, perm] ≈ truth``; ``Pi`` is the permutation matrix with
    ``estimate @ Pi == estimate[:, perm]``."""

    perm: npt.NDArray[np.int64]
    cost: float
    max_abs_error: float

    @property
    def Pi(self) -> FloatArray:
        k = len(self.perm)
        P = np.zeros((k, k))
        P[self.perm, np.arange(k)] = 1
        return P


def match_permutation(estimate: Any, truth: Any) -> Matching:
    r"""Hungarian matching of the columns of ``estimate`` to those of ``truth``.

    Minimises :math:`\sum_j \|\hat e_{\pi(j)} - e_j\|^2` with
    :func:`scipy.optimize.linear_sum_assignment`.

    Examples
    --------
    >>> m = match_permutation([[0.0, 1.0], [1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]])
    >>> m.perm.tolist(), m.max_abs_error
    ([1, 0], 0.0)
    """
    E = np.asarray(estimate, dtype=float)
    Tr = np.asarray(truth, dtype=float)
    if E.ndim != 2 or E.shape != Tr.shape:
        raise ValueError(f"estimate and truth must have the same 2-D shape, got {E.shape} and "
                         f"{Tr.shape}")
    cost = ((E[:, :, None] - Tr[:, None, :]) ** 2).sum(axis=0)
    rows, cols = linear_sum_assignment(cost)
    perm = np.empty(E.shape[1], dtype=np.int64)
    perm[cols] = rows
    return Matching(perm, float(cost[rows, cols].sum()),
                    float(np.max(np.abs(E[:, perm] - Tr))))


@dataclass(frozen=True)
class RecoveredModel(CertifiedResult):
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
    """

    emission: FloatArray
    T: FloatArray
    kind: str
    cp: CPResult
    details: Mapping[str, Any] = field(default_factory=dict)


    def errors_against(self, truth: HMM | GaussianHMM) -> dict[str, Any]:
        """Max-abs errors after relabelling: ``emission[:, perm]`` vs truth, and
        ``T[perm][:, perm]`` (i.e. :math:`\\Pi^\\top \\hat T \\Pi`) vs ``truth.T``."""
        m = match_permutation(self.emission, truth.emission)
        p = m.perm
        return {"perm": p.tolist(), "emission": m.max_abs_error,
                "T": float(np.max(np.abs(self.T[np.ix_(p, p)] - truth.T)))}


def _decompose(W: FloatArray, k: int, method: CPMethod, rng: np.random.Generator,
               n_restarts: int) -> CPResult:
    if method == "jennrich":
        return jennrich(W, k, seed=rng)
    if method == "als":
        return als_parafac(W, k, n_restarts=n_restarts, seed=rng)
    raise ValueError(f"method must be 'jennrich' or 'als', got {method!r}")


def _roles(predictor: Predictor) -> tuple[int, list[str]]:
    task = predictor.task
    if task.case is None:
        raise ValueError(f"task {task} is not one of the two-token tasks of Theorems 7/8 "
                         "(x_t2 ⊗ x_t3 | x_t1 on three adjacent times)")
    lo = min(task.times)
    return task.case, [("first", "middle", "last")[t - lo] for t in task.targets]


def recover_hmm(
    predictor: Predictor, k: int, *, method: CPMethod = "jennrich",
    seed: SeedLike = None, n_restarts: int = 5,
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
    details = {"task": str(predictor.task), "case": case,
               "predictor_residual": float(np.max(np.abs(
                   predict_raw(O, T, _hmm_phi(O), predictor.task) - W)))}
    return RecoveredModel(O, T, "hmm", cp, details)


def _hmm_phi(O: FloatArray) -> FloatArray:
    return np.asarray(O / O.sum(axis=1, keepdims=True))


def _ghmm_residual(M: FloatArray, T: FloatArray, predictor: Predictor, X: FloatArray,
                   F: FloatArray) -> float:
    return float(np.max(np.abs(predict_raw(M, T, gaussian_posterior(M, X.T), predictor.task)
                               - F)))


def recover_ghmm(
    predictor: Predictor, k: int, *, method: CPMethod = "jennrich",
    seed: SeedLike = None, n_restarts: int = 5,
    n_check_points: int = 20,
) -> RecoveredModel:
    r"""Recover :math:`(M, T)` of a G-HMM from the predictor of a Theorem-8 task.

    Inputs: k standard normal points :math:`X` (d x k) and ``n_check_points`` fresh points, all
    drawn from ``seed`` (the algorithm's stream).  See the module docstring for the steps,
    including the sign resolution (cases 1, 3) and the Householder twin (case 2).

    Raises
    ------
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
    case, roles = _roles(predictor)
    rng = as_generator(seed)
    d = predictor.d
    if k > d:
        raise ValueError(f"A8 needs k <= d, got k = {k}, d = {d}")
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
        candidates = _sign_candidates(U, T0)
        details["sign_candidates"] = len(candidates)
    else:
        candidates = _case2_candidates(K, A_true, X, roles)
        details["translation_candidates"] = len(candidates)
    scored = [(_ghmm_residual(M, T, predictor, Xc, Fc), M, T) for M, T in candidates]
    scored.sort(key=lambda s: s[0])
    details["candidate_residuals"] = [s[0] for s in scored]
    if not scored:
        raise ValueError("no candidate (M, T) is consistent with the CP factors")
    res, M, T = scored[0]
    if len(scored) > 1 and scored[1][0] <= max(_AMBIGUITY_FLOOR, 100 * res):
        raise ValueError(
            "two candidate G-HMMs reproduce the predictor equally well (residuals "
            f"{res:.3g} and {scored[1][0]:.3g}); the recovery is ambiguous here, e.g. because "
            "T is reducible or the CP decomposition is inaccurate")
    details["predictor_residual"] = res
    return RecoveredModel(M, T, "ghmm", cp, details)


def _sign_candidates(U: FloatArray, T0: FloatArray) -> list[tuple[FloatArray, FloatArray]]:
    """Signs s with S T0 S >= 0 (BFS on the significant entries), times per-component flips."""
    k = T0.shape[0]
    thresh = 1e-8 * float(np.max(np.abs(T0)))
    s = np.zeros(k)
    comps = []
    for root in range(k):
        if s[root]:
            continue
        s[root] = 1
        comps.append(root)
        stack = [root]
        while stack:
            i = stack.pop()
            for j in range(k):
                if j != i and max(abs(T0[i, j]), abs(T0[j, i])) > thresh:
                    val = T0[i, j] if abs(T0[i, j]) >= abs(T0[j, i]) else T0[j, i]
                    sj = s[i] * np.sign(val)
                    if not s[j]:
                        s[j] = sj
                        stack.append(j)
    if len(comps) > _MAX_SIGN_COMPONENTS:
        raise ValueError(f"T splits into {len(comps)} blocks; too many sign patterns")
    comp_of = np.zeros(k, dtype=int)
    for c, root in enumerate(comps):  # label components by a second BFS over the same graph
        comp_of[_reach(T0, root, thresh)] = c
    out = []
    for flips in itertools.product((1.0, -1.0), repeat=len(comps)):
        sv = s * np.array(flips)[comp_of]
        out.append((U * sv, sv[:, None] * T0 * sv[None, :]))
    return out


def _reach(T0: FloatArray, root: int, thresh: float) -> list[int]:
    seen, stack = {root}, [root]
    while stack:
        i = stack.pop()
        for j in range(T0.shape[0]):
            if j not in seen and max(abs(T0[i, j]), abs(T0[j, i])) > thresh:
                seen.add(j)
                stack.append(j)
    return sorted(seen)


def _case2_candidates(K: list[FloatArray], A_true: FloatArray, X: FloatArray,
                      roles: list[str]) -> list[tuple[FloatArray, FloatArray]]:
    """Lemma 7 made constructive: M in col(MT) up to translation, two unit-norm solutions."""
    k = len(K)
    last = roles.index("last")
    Qh = np.column_stack([np.linalg.svd(Ki if last == 1 else Ki.T)[2][0] for Ki in K])
    Phi = (np.linalg.pinv(X) @ A_true).T  # k x n posteriors at the points
    if np.any(Phi <= 0):
        raise ValueError("recovered posteriors are not positive; the CP did not converge")
    L = np.log(Phi)
    delta = (L - L[0]) @ np.linalg.pinv(Qh.T @ X)  # rows: delta_i^T (Qh^T X) = L_i - L_0
    G = Qh.T @ Qh
    lin = np.array([2 * G @ delta[i] for i in range(1, k)])
    rhs = -np.array([delta[i] @ G @ delta[i] for i in range(1, k)])
    omega_p = np.linalg.lstsq(lin, rhs, rcond=None)[0]
    nu = np.linalg.svd(lin)[2][-1]
    a, b, c = nu @ G @ nu, 2 * omega_p @ G @ nu, omega_p @ G @ omega_p - 1
    disc = b * b - 4 * a * c
    if disc < -1e-8 * max(1.0, b * b):
        raise ValueError("no unit-norm translation exists; the CP did not converge")
    out = []
    for t in ((-b + np.sqrt(max(disc, 0))) / (2 * a), (-b - np.sqrt(max(disc, 0))) / (2 * a)):
        omega = omega_p + t * nu
        M = Qh @ (delta + omega).T
        TD = np.linalg.pinv(M) @ Qh
        out.append((M, TD / TD.sum(axis=0)))
    return out
