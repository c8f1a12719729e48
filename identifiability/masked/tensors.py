r"""The 3-tensors of Theorems 7 (HMM) and 8 (G-HMM) built from a two-token predictor.

For a task :math:`x_{t_2}\otimes x_{t_3}\mid x_{t_1}` on three adjacent times with middle hidden
state :math:`h_m`, the seed sums the predictor over conditioning inputs
:math:`\mathcal X = \{x^{(1)},\dots,x^{(n)}\}` with unit weights (2.36, 2.40, 2.70, 2.75):

.. math::

    W = \sum_{x\in\mathcal X} x \otimes \mathbb E[x_{t_2}\otimes x_{t_3} \mid x_{t_1} = x]
      = \sum_{i\in[k]} a_i \otimes b_i \otimes c_i ,

because given :math:`h_m` the three tokens are independent.  With :math:`X = [x^{(1)},\dots]`,
:math:`\Phi_X = [\phi(x^{(1)}),\dots]` and :math:`P(h_m \mid x_{t_1}=x) = G\phi(x)`:

=========================  =====================  =========================================
case (conditioning token)  :math:`G`              target factor for time first / middle / last
=========================  =====================  =========================================
1 (first, ``x2⊗x3|x1``)    :math:`T`              —, :math:`E`, :math:`ET`
2 (middle, ``x1⊗x3|x2``)   :math:`I`              :math:`ET^\top`, —, :math:`ET`
3 (last, ``x1⊗x2|x3``)     :math:`T^\top`         :math:`ET^\top`, :math:`E`, —
=========================  =====================  =========================================

and :math:`A = X\Phi_X^\top G^\top`; :math:`E = O` (HMM, :math:`X = I_d`, so
:math:`\Phi^\top = D^{-1}O` with :math:`D = \operatorname{diag}(O\mathbf 1)`) or :math:`E = M`.
Case 3 is "the same as case 1 by symmetry" in the seed; its factors are written out here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from identifiability.masked.hmm import HMM, GaussianHMM
from identifiability.masked.tasks import Task, optimal_predictor
from seprank.core import check_array
from seprank.core.display import RichDisplay

__all__ = ["MaskedTensor", "hmm_tensor_factors", "masked_prediction_tensor", "tensor_factors"]


@dataclass(frozen=True, repr=False)
class MaskedTensor(RichDisplay):
    """``W`` built from the predictor, and its CP factors from the closed forms.

    Attributes
    ----------
    W : numpy.ndarray
        n_1 x d x d tensor :math:`\\sum_x x \\otimes f(x)`.
    factors : tuple of numpy.ndarray
        ``(A, B, C)`` with ``W = einsum('ir,jr,kr->ijk', A, B, C)``.
    factor_names : tuple of str
        The formulas, e.g. ``('D^-1 O T^T', 'O', 'O T')``.
    task : Task
    case : int
        1, 2 or 3 (position of the conditioning token).
    points : numpy.ndarray
        The conditioning inputs as columns (``I_d`` for the HMM).
    """

    W: npt.NDArray[np.float64]
    factors: tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]
    factor_names: tuple[str, str, str]
    task: Task
    case: int
    points: npt.NDArray[np.float64]

    def summary(self) -> str:
        """One line in words: the tensor, its task and case, its three factors.

        Returns
        -------
        str
            The shape of W, the task and case, and the names of the factors A, B, C.
        """
        shape = "x".join(map(str, self.W.shape))
        return (f"W ({shape}) of task {self.task} (case {self.case}) = [[A, B, C]] with "
                f"A = {self.factor_names[0]}, B = {self.factor_names[1]}, "
                f"C = {self.factor_names[2]}")

    def __repr__(self) -> str:
        return self._short_repr(("W", "factor_names", "task", "case"))

    def reconstruct(self) -> npt.NDArray[np.float64]:
        """``einsum('ir,jr,kr->ijk', A, B, C)`` in floats.

        Returns
        -------
        numpy.ndarray
            The 3-tensor from the factors.
        """
        A, B, C = (np.asarray(F, dtype=float) for F in self.factors)
        return np.asarray(np.einsum("ir,jr,kr->ijk", A, B, C))


def _require_case(task: Task) -> int:
    if task.case is None:
        raise ValueError(f"task {task} is not a two-token task on three adjacent times "
                         "(Theorems 7 and 8 cover x_t2 ⊗ x_t3 | x_t1 for permutations of "
                         "(1, 2, 3) only; nothing is claimed for gapped triples)")
    return task.case


def tensor_factors(
    emission: Any, T: Any, task: Task | str, Phi_X_T: Any, X: Any, *, symbol: str = "E",
) -> tuple[tuple[Any, Any, Any], tuple[str, str, str]]:
    r"""Closed-form factors ``(A, B, C)`` for a case-1/2/3 task.

    Works on float arrays and on object arrays of :class:`fractions.Fraction` (exact factors
    for exact Kruskal ranks).

    Parameters
    ----------
    emission : array_like
        ``O`` or ``M`` (d x k).
    T : array_like
        k x k transition matrix.
    task : Task or str
    Phi_X_T : array_like
        :math:`\Phi_X^\top` (n x k), the posteriors at the inputs as rows.
    X : array_like
        d_1 x n inputs as columns.
    symbol : str
        Name of the emission matrix in ``factor_names``.

    Returns
    -------
    factors : (A, B, C)
        The factors.
    names : (str, str, str)
        Their closed forms, in words.
    """
    task = Task(task)
    case = _require_case(task)
    E = check_array("emission", emission, ndim=2, dtype=None)
    Tm = check_array("T", T, ndim=2, dtype=None)
    G_T = {1: Tm.T, 2: None, 3: Tm}[case]  # G^T
    A = check_array("X", X, ndim=2, dtype=None) @ check_array("Phi_X_T", Phi_X_T, ndim=2,
                                                             dtype=None)
    if G_T is not None:
        A = A @ G_T
    a_name = {1: "X Phi^T T^T", 2: "X Phi^T", 3: "X Phi^T T"}[case]
    lo = min(task.times)
    mats = {lo: (E @ Tm.T, f"{symbol} T^T"), lo + 1: (E, symbol), lo + 2: (E @ Tm, f"{symbol} T")}
    (B, b_name), (C, c_name) = (mats[t] for t in task.targets)
    return (A, B, C), (a_name, b_name, c_name)


def hmm_tensor_factors(O: Any, T: Any, task: Task | str) -> tuple[Any, Any, Any]:
    r"""HMM factors with :math:`X = I_d`: :math:`A = D^{-1}O\,G^\top`, exact for Fractions.

    Parameters
    ----------
    O : array_like
        Emission matrix d x k (floats or Fractions).
    T : array_like
        Transition matrix k x k.
    task : Task or str
        The task.

    Returns
    -------
    (A, B, C)
        The three factors.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> O = np.array([[F(1, 2), F(1, 4)], [F(1, 2), F(3, 4)]], dtype=object)
    >>> T = np.array([[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]], dtype=object)
    >>> A, B, C = hmm_tensor_factors(O, T, "x1*x3|x2")
    >>> A[0, 0], C[0, 0]
    (Fraction(2, 3), Fraction(5, 12))
    """
    Om = check_array("O", O, ndim=2, dtype=None)
    check_array("T", T, ndim=2, dtype=None)
    Phi_T = Om / Om.sum(axis=1, keepdims=True)
    eye = np.eye(Om.shape[0], dtype=int).astype(Om.dtype)
    factors, _ = tensor_factors(Om, T, task, Phi_T, eye, symbol="O")
    return factors


def masked_prediction_tensor(
    model: HMM | GaussianHMM, task: Task | str, *, points: Any = "means",
) -> MaskedTensor:
    r"""The 3-tensor W of Theorem 7 (HMM) or 8 (G-HMM) and its factors.

    ``W`` is computed from :func:`optimal_predictor` evaluated at the inputs; the factors come
    from the closed forms of the module docstring, so ``W == reconstruct()`` is a check.

    Parameters
    ----------
    model : HMM or GaussianHMM
    task : Task or str
        ``x_t2 ⊗ x_t3 | x_t1`` with ``{t1, t2, t3}`` three adjacent times.
    points : 'means' or array_like, keyword-only
        G-HMM only: the inputs :math:`\mathcal X` as columns of a d x n matrix, or ``'means'``
        for the seed's choice :math:`x^{(i)} = \mu_i` (2.71).  The HMM always uses all d
        one-hot tokens.

    Returns
    -------
    MaskedTensor
        W and its factors.

    References
    ----------
    .. [1] 004, proof of Theorem 7 (2.36)–(2.41), proof of Theorem 8
       (2.70)–(2.75).

    Examples
    --------
    >>> m = HMM.random(4, 3, seed=0)
    >>> mt = masked_prediction_tensor(m, "x2⊗x3|x1")
    >>> mt.factor_names, mt.W.shape
    (('D^-1 O T^T', 'O', 'O T'), (4, 4, 4))
    >>> bool(np.allclose(mt.W, mt.reconstruct(), atol=1e-15))
    True
    """
    task = Task(task)
    case = _require_case(task)
    f = optimal_predictor(model, task)
    if isinstance(model, HMM):
        X = np.eye(model.d)
        F = f(np.arange(model.d))
        Phi_T = model.posterior(np.arange(model.d))
        symbol = "O"
    else:
        X = np.array(model.M if isinstance(points, str) and points == "means" else points,
                     dtype=float)
        if isinstance(points, str) and points != "means":
            raise ValueError(f"points must be 'means' or a d x n array, got {points!r}")
        if X.ndim != 2 or X.shape[0] != model.d or not np.all(np.isfinite(X)):
            raise ValueError(f"points must be a finite d x n array with d = {model.d}, got "
                             f"shape {X.shape}")
        F = f(X.T)
        Phi_T = model.posterior(X.T)
        symbol = "M"
    W = np.einsum("in,njk->ijk", X, F)
    factors, names = tensor_factors(model.emission, model.T, task, Phi_T, X, symbol=symbol)
    if symbol == "O":  # X = I_d and Phi^T = D^-1 O
        names = (names[0].replace("X Phi^T", "D^-1 O"), names[1], names[2])
    return MaskedTensor(W, (np.asarray(factors[0]), np.asarray(factors[1]),
                            np.asarray(factors[2])), names, task, case, X)
