r"""Assumptions A5–A9 of paper 004 §2.2.1.3: checks, reports and the errors that name them.

* **A5** :math:`T` is doubly stochastic and :math:`h_1` is stationary, hence uniform;
* **A6** (HMM) every row of :math:`O` is non-zero;
* **A7** (HMM) :math:`\operatorname{rank} T = \operatorname{rank} O = k \le d`;
* **A8** (G-HMM) :math:`\operatorname{rank} T = \operatorname{rank} M = k \le d`;
* **A9** (G-HMM) every :math:`\mu_i` is a unit vector;

plus the definition of the emission matrix (``'O'``: column-stochastic).  Ranks are float SVD
ranks with a stated relative tolerance (:func:`seprank.matrix_rank`, ``method='svd'``).
Also the Sinkhorn balancing used by the random constructors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from identifiability.errors import AssumptionError
from seprank.core import (
    check_array,
    check_choice,
    check_float,
    check_int,
    matrix_rank,
)
from seprank.core.display import html_table, markdown_table
from seprank.core.types import FloatArray

__all__ = [
    "ASSUMPTIONS",
    "DEFAULT_ATOL",
    "DEFAULT_RANK_RTOL",
    "AssumptionCheck",
    "AssumptionError",
    "AssumptionReport",
    "check_assumptions",
    "sinkhorn",
]


#: Short names of the assumptions of paper 004 §2.2.1.3.
ASSUMPTIONS = {
    "A5": "A5 (doubly stochastic transitions, stationary uniform h_1)",
    "A6": "A6 (non-redundancy: every row of O is non-zero)",
    "A7": "A7 (non-degeneracy: rank(T) = rank(O) = k <= d)",
    "A8": "A8 (non-degeneracy: rank(T) = rank(M) = k <= d)",
    "A9": "A9 (equal norms: every mean mu_i is a unit vector)",
    "O": "O column-stochastic (definition O_ij = P(x = i | h = j))",
}
DEFAULT_ATOL = 1e-10
DEFAULT_RANK_RTOL = 1e-10


@dataclass(frozen=True)
class AssumptionCheck:
    """One assumption: whether it holds, and the measured quantity behind the verdict.

    Parameters
    ----------
    name : str
        The assumption (``'A5'``, ``'O'``, ...).
    holds : bool
        Whether it holds.
    measured : str
        The measured quantity behind the verdict.
    """

    name: str
    holds: bool
    measured: str


@dataclass(frozen=True, repr=False)
class AssumptionReport:
    """The outcome of every assumption check (see :func:`check_assumptions`).

    Parameters
    ----------
    kind : {'hmm', 'ghmm'}
        The model class checked.
    checks : tuple of AssumptionCheck
        One per assumption.
    """

    kind: str
    checks: tuple[AssumptionCheck, ...]

    @property
    def holds(self) -> bool:
        return all(c.holds for c in self.checks)

    def __getitem__(self, name: str) -> AssumptionCheck:
        for c in self.checks:
            if c.name == name:
                return c
        raise KeyError(name)

    def summary(self) -> str:
        """One line: which assumptions fail (or that all hold).

        Returns
        -------
        str
            The kind of model, then ``all assumptions hold`` or ``VIOLATED`` and the names
            of the failing assumptions.
        """
        bad = [c.name for c in self.checks if not c.holds]
        return f"{self.kind}: " + ("all assumptions hold" if not bad else
                                   "VIOLATED " + ", ".join(bad))

    def __repr__(self) -> str:
        shown = ", ".join(f"{c.name}={'ok' if c.holds else 'NO'}" for c in self.checks)
        return f"AssumptionReport(kind={self.kind!r}, {shown})"

    def _rows(self) -> list[tuple[str, str]]:
        return [(f"{c.name} {'ok' if c.holds else 'NO'}", f"{ASSUMPTIONS[c.name]}: {c.measured}")
                for c in self.checks]

    def _repr_markdown_(self) -> str:
        return markdown_table(self.summary(), self._rows(), header=("assumption", "measured"))

    def _repr_html_(self) -> str:
        return html_table(self.summary(), self._rows(), header=("assumption", "measured"))

    def __str__(self) -> str:
        lines = [f"{self.kind}: {'all assumptions hold' if self.holds else 'VIOLATED'}"]
        lines += [f"  {'ok ' if c.holds else 'NO '} {ASSUMPTIONS[c.name]}: {c.measured}"
                  for c in self.checks]
        return "\n".join(lines)


def _as_real_matrix(M: Any, name: str) -> FloatArray:
    arr = np.array(check_array(name, M, min_size=0), dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D matrix, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape})")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite entries; fix the input")
    arr.setflags(write=False)
    return arr


def _check_T(T: FloatArray, atol: float, rank_rtol: float) -> tuple[AssumptionCheck, int, str]:
    k = T.shape[0]
    if T.shape != (k, k):
        raise ValueError(f"T must be square k x k, got shape {T.shape}")
    col = float(np.max(np.abs(T.sum(axis=0) - 1)))
    row = float(np.max(np.abs(T.sum(axis=1) - 1)))
    neg = float(T.min())
    a5 = col <= atol and row <= atol and neg >= -atol
    rank = matrix_rank(T, method="svd", rtol=rank_rtol)
    sv = np.array2string(rank.details["singular_values"], precision=3)
    hint = ("; its ROWS sum to 1: this is the row convention of hmmlearn's transmat_ "
            "(P(h_t+1 = j | h_t = i) in row i), the transpose of T here: pass transmat_.T, "
            "or convert a fitted model with HMM.from_hmmlearn / GaussianHMM.from_hmmlearn"
            if col > atol and row <= atol and neg >= -atol else "")
    return (
        AssumptionCheck("A5", a5, f"T: max |column sum - 1| = {col:.3g}, max |row sum - 1| = "
                        f"{row:.3g}, min entry = {neg:.3g} (atol {atol:g}){hint}"),
        rank.rank,
        f"singular values of T {sv}",
    )


def check_assumptions(
    emission: Any, T: Any, *, kind: str = "hmm", atol: float = DEFAULT_ATOL,
    rank_rtol: float = DEFAULT_RANK_RTOL,
) -> AssumptionReport:
    r"""Check A5–A7 (``kind='hmm'``, ``emission = O``) or A5, A8, A9 (``kind='ghmm'``, ``M``).

    For the HMM the report also has the entry ``'O'``: the emission matrix must be
    column-stochastic (the definition :math:`O_{ij} = P(x=i \mid h=j)`, not an assumption).
    Raises only for malformed input (shapes, NaN); assumption violations are reported.

    Parameters
    ----------
    emission : array_like
        :math:`O` (d x k, column-stochastic) or :math:`M` (d x k, unit columns).
    T : array_like
        k x k transition matrix, column convention.
    kind : {'hmm', 'ghmm'}
    atol : float
        Tolerance on row/column sums, on non-negativity and on unit norms.
    rank_rtol : float
        Relative tolerance of the SVD ranks in A7/A8.

    Returns
    -------
    AssumptionReport
        Every assumption with its verdict and measurement.

    References
    ----------
    .. [1] 004, §2.2.1.3, Assumptions 5–9.

    Examples
    --------
    >>> rep = check_assumptions([[1, 0], [0, 1]], [[1/3] * 2, [2/3] * 2])
    >>> rep.holds, rep["A5"].holds, rep["A7"].holds
    (False, False, False)
    """
    check_choice("kind", kind, ("hmm", "ghmm"))
    atol = check_float("atol", atol, minimum=0, hint=" (a tolerance)")
    rank_rtol = check_float("rank_rtol", rank_rtol, minimum=0, hint=" (a tolerance)")
    E = _as_real_matrix(emission, "emission (O)" if kind == "hmm" else "emission (M)")
    Tm = _as_real_matrix(T, "T")
    a5, rank_T, sv_text = _check_T(Tm, atol, rank_rtol)
    d, k = E.shape
    if Tm.shape[0] != k:
        hint = (f"; an emission matrix with k = {Tm.shape[0]} rows is hmmlearn's layout "
                "(emissionprob_ / means_ are k x d): pass its transpose, or convert a fitted "
                "model with HMM.from_hmmlearn / GaussianHMM.from_hmmlearn"
                if E.shape[0] == Tm.shape[0] else "")
        raise ValueError(f"shape mismatch: the emission matrix is {E.shape} (k = {k} columns) "
                         f"but T is {Tm.shape}{hint}")
    rank_E = matrix_rank(E, method="svd", rtol=rank_rtol).rank
    non_degen = rank_T == k and rank_E == k and k <= d
    name = "O" if kind == "hmm" else "M"
    nd_text = (f"rank(T) = {rank_T}, rank({name}) = {rank_E}, k = {k}, d = {d} "
               f"(svd, rtol {rank_rtol:g}; {sv_text})")
    checks = [a5]
    if kind == "hmm":
        col = float(np.max(np.abs(E.sum(axis=0) - 1)))
        neg = float(E.min())
        rows_ok = float(np.max(np.abs(E.sum(axis=1) - 1))) <= atol
        o_hint = ("; its ROWS sum to 1: a row-stochastic matrix (hmmlearn's emissionprob_ is "
                  "k x d with rows P(x | h)): pass its transpose, or use HMM.from_hmmlearn"
                  if col > atol and rows_ok and neg >= -atol else "")
        checks.append(AssumptionCheck("O", col <= atol and neg >= -atol,
                                      f"O: max |column sum - 1| = {col:.3g}, min entry = "
                                      f"{neg:.3g} (atol {atol:g}){o_hint}"))
        zero_rows = int(np.sum(np.abs(E).sum(axis=1) <= atol))
        checks.append(AssumptionCheck("A6", zero_rows == 0, f"{zero_rows} zero row(s) of O"))
        checks.append(AssumptionCheck("A7", non_degen, nd_text))
    else:
        norms = np.linalg.norm(E, axis=0)
        dev = float(np.max(np.abs(norms - 1)))
        checks.append(AssumptionCheck("A8", non_degen, nd_text))
        checks.append(AssumptionCheck("A9", dev <= atol, f"max | ||mu_i|| - 1 | = {dev:.3g} "
                                      f"(atol {atol:g})"))
    return AssumptionReport(kind, tuple(checks))


def sinkhorn(
    K: Any, *, tol: float = 1e-14, max_iter: int = 10_000
) -> FloatArray:
    r"""Sinkhorn–Knopp balancing of a positive matrix to a doubly stochastic one.

    Alternately rescales rows and columns of :math:`K > 0` until all row and column sums are
    within ``tol`` of 1; the result is :math:`D_1 K D_2`.

    Parameters
    ----------
    K : array_like
        A square matrix with positive entries.
    tol : float, keyword-only
        Tolerance on the row and column sums (default 1e-14).
    max_iter : int, keyword-only
        Maximum number of rescalings (default 10000).

    Returns
    -------
    numpy.ndarray
        The doubly stochastic :math:`D_1 K D_2`.

    Raises
    ------
    ValueError
        If ``K`` is not square and strictly positive, or does not converge in ``max_iter``.

    Examples
    --------
    >>> S = sinkhorn([[1.0, 2.0], [3.0, 4.0]])
    >>> np.allclose(S.sum(0), 1) and np.allclose(S.sum(1), 1)
    True
    """
    A = np.array(check_array("K", K, ndim=2), dtype=np.float64)
    tol = check_float("tol", tol, positive=True)
    max_iter = check_int("max_iter", max_iter)
    if A.shape[0] != A.shape[1] or A.min() <= 0:
        raise ValueError(f"sinkhorn needs a square, strictly positive matrix K, got shape "
                         f"{A.shape} with min entry {A.min():.3g}")
    for _ in range(max_iter):
        A /= A.sum(axis=1, keepdims=True)
        A /= A.sum(axis=0, keepdims=True)
        if np.max(np.abs(A.sum(axis=1) - 1)) <= tol:
            return A
    raise ValueError(f"Sinkhorn did not reach tolerance tol = {tol:g} in max_iter = {max_iter} "
                     "iterations; raise max_iter or tol")


def _random_doubly_stochastic(k: int, rng: np.random.Generator, scale: float) -> FloatArray:
    return sinkhorn(np.exp(scale * rng.standard_normal((k, k))))

