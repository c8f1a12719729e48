r"""002 §3.2 and §5: relevant and irrelevant patterns, in- and out-of-domain pattern sets and
the conditions of Theorem 3.4 (eq. 12).

Li, Wang, Lu, Cui, Chen, "How Do Nonlinear Transformers Learn and Generalize in In-Context
Learning?" (ICML 2024).  Notation:

* :math:`M_1` in-domain-relevant (IDR) patterns :math:`\mu_j` and :math:`M_2` in-domain-irrelevant
  (IDI) patterns :math:`\nu_k` in :math:`\mathbb R^{d_X}`, pairwise orthogonal, all of norm
  :math:`\beta \ge 1` (:math:`M_1 + M_2 = d_X`).  Here :math:`\mu_j = \beta e_j`,
  :math:`\nu_k = \beta e_{M_1+k}` by default (``basis="random"`` rotates the feature space).
* In-domain input (eq. 6): :math:`x = \mu_j + \kappa\nu_k`, :math:`\kappa \sim U(-K, K)`,
  :math:`K \le 1/2`; out-of-domain (eq. 8): :math:`x = \mu'_j + \kappa'\nu'_k`,
  :math:`\kappa' \sim U(-K', K')`.  The irrelevant pattern is uniform over its :math:`M_2`
  choices (proof of Lemma B.5, App. C.5).
* Label embedding :math:`\mathrm{Embd}(\pm1) = \pm q`, :math:`q = e_1 \in \mathbb R^{d_Y}`
  (:math:`\|q\| = 1`, as the appendix's factors :math:`\beta^2 + 1` imply; notes §5 A3).
  Prompts are built in :mod:`identifiability.icl.prompts`.
* Out-of-domain patterns of §5: :math:`M_1' = 3`, :math:`\nu'_i = \nu_i`,
  :math:`\mu'_1 = 0.3(\mu_1-\mu_2) + a\mu_5 + b\mu_6`, :math:`\mu'_2 = (\mu_1+\mu_2)/\sqrt2`,
  :math:`\mu'_3 = (\mu_3+\mu_4)/\sqrt2`, with :math:`a^2+b^2 = 0.82` for :math:`\|\mu'_1\| =
  \beta`; :math:`S_1 = a+b`, :math:`S_2 = S_3 = \sqrt2`.

References
----------
002, §3.2 (eqs. 6-8), Theorem 3.4 (eq. 12), §5 (data generation, OOD patterns).  Notes:
docs/notes/seed_icl_nonlinear.md §1.2-1.3, §3.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from identifiability.icl._checks import check_int, check_matrix, check_object, check_positive
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import FloatArray
from seprank.core.validation import check_array, check_choice, check_float

__all__ = [
    "NORM_RTOL",
    "OODConditions",
    "Patterns",
    "in_domain_patterns",
    "ood_patterns",
    "ood_patterns_from_coefficients",
    "theorem34_conditions",
]


#: Relative tolerance on the equal norms of the patterns (a = b = 0.64, the paper's Figure 2
#: choice, gives ||mu'_1|| = 0.99960 beta).
NORM_RTOL = 1e-3


@dataclass(frozen=True)
class Patterns:
    """Relevant and irrelevant patterns (rows) and the label embedding ``q``.

    Validated on construction: all patterns pairwise orthogonal (to ``1e-9 beta^2``) with
    norms within :data:`NORM_RTOL` of the first relevant pattern's norm ``beta``.

    Parameters
    ----------
    relevant : numpy.ndarray
        The relevant patterns :math:`\\mu_j`, one per row (:math:`M_1 \\times d_x`).
    irrelevant : numpy.ndarray
        The irrelevant patterns :math:`\\nu_k`, one per row (:math:`M_2 \\times d_x`).
    q : numpy.ndarray
        The label embedding, length :math:`d_y`.
    """

    relevant: FloatArray
    irrelevant: FloatArray
    q: FloatArray
    beta: float = field(init=False)

    def __post_init__(self) -> None:
        rel = check_matrix("relevant", self.relevant)
        if rel.size == 0:
            raise ValueError("relevant must hold at least one pattern (a row)")
        irr = check_matrix("irrelevant", self.irrelevant, shape=(None, rel.shape[1]))
        q = check_array("q", self.q, ndim=1)
        if not q.any():
            raise ValueError("q must be a finite nonzero 1-D label embedding")
        k = rel.shape[0] + irr.shape[0]
        guard_memory(array_bytes((k, k + rel.shape[1])), what=f"the Gram matrix of {k} patterns",
                     fix="use fewer patterns")
        allp = np.vstack([rel, irr])
        gram = allp @ allp.T
        beta = float(np.sqrt(gram[0, 0]))
        off = np.abs(gram - np.diag(np.diag(gram))).max() if len(allp) > 1 else 0.0
        if off > 1e-9 * beta**2:
            raise ValueError(f"patterns must be pairwise orthogonal (002 §3.2 / eq. 12): max "
                             f"|<p_i, p_j>| = {off:.3g}")
        spread = float(np.abs(np.sqrt(np.diag(gram)) / beta - 1).max())
        if spread > NORM_RTOL:
            raise ValueError(f"patterns must share one norm beta: norms deviate by {spread:.3g} "
                             f"relative (> NORM_RTOL = {NORM_RTOL}); rescale them")
        for name, arr in (("relevant", rel), ("irrelevant", irr), ("q", q)):
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)
        object.__setattr__(self, "beta", beta)

    @property
    def M1(self) -> int:
        """Number of relevant patterns."""
        return int(self.relevant.shape[0])

    @property
    def M2(self) -> int:
        """Number of irrelevant patterns."""
        return int(self.irrelevant.shape[0])

    @property
    def d_x(self) -> int:
        return int(self.relevant.shape[1])

    @property
    def d_y(self) -> int:
        return int(self.q.shape[0])

    @property
    def D(self) -> int:
        """Token dimension :math:`d_X + d_Y`."""
        return self.d_x + self.d_y

    @property
    def mean_relevant(self) -> FloatArray:
        r""":math:`\bar\mu = \sum_j \mu_j / M_1` (Proposition 4.5)."""
        return np.asarray(self.relevant.mean(axis=0))


def in_domain_patterns(M1: int = 6, M2: int = 24, beta: float = 3.0, d_y: int = 30, *,
                       basis: Literal["standard", "random"] = "standard",
                       seed: SeedLike = None) -> Patterns:
    r"""IDR patterns :math:`\mu_j = \beta u_j` and IDI patterns :math:`\nu_k = \beta u_{M_1+k}`
    for an orthonormal basis :math:`u` of :math:`\mathbb R^{M_1+M_2}`; :math:`q = e_1`.

    Parameters
    ----------
    M1, M2 : int
        Numbers of relevant and irrelevant patterns (:math:`d_X = M_1 + M_2`); the paper's
        experiments use 6 and 24.
    beta : float
        Pattern norm, :math:`\beta \ge 1` (experiments: 3).
    d_y : int
        Label-embedding dimension (experiments: 30).
    basis : {'standard', 'random'}, keyword-only
        ``'standard'``: :math:`u_i = e_i`; ``'random'``: a Haar-random orthonormal basis drawn
        from ``seed``.  The initialization (:math:`\delta I` on the feature block, Gaussian
        :math:`W_O`) is invariant in distribution under rotations of the feature space, so
        both give the same results in distribution (notes §1.2).
    seed : seed-like, keyword-only
        Used only with ``basis='random'``.

    Returns
    -------
    Patterns
        The in-domain patterns.

    Examples
    --------
    >>> p = in_domain_patterns()
    >>> p.M1, p.M2, p.d_x, p.D, p.beta
    (6, 24, 30, 60, 3.0)
    """
    M1 = check_int("M1", M1, 2)
    M2 = check_int("M2", M2, 1)
    d_y = check_int("d_y", d_y, 1)
    beta = check_positive("beta", beta)
    if beta < 1:
        raise ValueError(f"beta must be >= 1 (002 §3.2), got {beta}")
    check_choice("basis", basis, ("standard", "random"))
    rng = as_generator(seed)                         # validated even when it is not used
    d_x = M1 + M2
    # the basis, its copies into the patterns, and the patterns' Gram matrix
    guard_memory(array_bytes((4 * d_x, d_x)) + array_bytes(d_y),
                 what=f"{d_x} patterns in R^{d_x} and a label embedding in R^{d_y}",
                 fix="lower M1, M2 or d_y")
    if basis == "standard":
        U = np.eye(d_x)
    else:
        from scipy.stats import ortho_group

        U = ortho_group.rvs(d_x, random_state=rng)
    q = np.zeros(d_y)
    q[0] = 1.0
    return Patterns(beta * U[:M1], beta * U[M1:], q)


def ood_patterns_from_coefficients(base: Patterns, coefficients: Sequence[Sequence[float]] |
                                   FloatArray, irrelevant: FloatArray | None = None) -> Patterns:
    r"""ODR patterns :math:`\mu'_j = \sum_i k_{j,i}\mu_i` (eq. 12) with the given ODI patterns
    (default :math:`\nu' = \nu`).  The result is validated like any :class:`Patterns`
    (orthogonal, norm :math:`\beta`): coefficients that break that raise.

    Parameters
    ----------
    base : Patterns
        The in-domain patterns.
    coefficients : array_like
        :math:`k_{j,i}`, shape :math:`(M'_1, M_1)`.
    irrelevant : numpy.ndarray, optional
        The ODI patterns (default: those of ``base``).

    Returns
    -------
    Patterns
        The out-of-domain patterns.

    Examples
    --------
    >>> base = in_domain_patterns(M1=2, M2=2)
    >>> r = 2 ** -0.5
    >>> ood = ood_patterns_from_coefficients(base, [[r, r]])
    >>> round(float(ood.relevant[0] @ ood.relevant[0]), 12)
    9.0
    """
    check_object("base", base, Patterns, "build it with in_domain_patterns()")
    k = check_matrix("coefficients", coefficients, shape=(None, base.M1))
    irr = base.irrelevant if irrelevant is None else check_matrix(
        "irrelevant", irrelevant, shape=(None, base.d_x))
    return Patterns(k @ base.relevant, irr, base.q)


def ood_patterns(base: Patterns, a: float = 0.64, b: float = 0.64) -> Patterns:
    r"""The out-of-domain patterns of §5: :math:`\mu'_1 = 0.3(\mu_1-\mu_2) + a\mu_5 + b\mu_6`,
    :math:`\mu'_2 = (\mu_1+\mu_2)/\sqrt2`, :math:`\mu'_3 = (\mu_3+\mu_4)/\sqrt2`,
    :math:`\nu' = \nu`.

    The indices 5 and 6 of :math:`\mu'_1` are illegible in the source and forced by
    orthogonality to :math:`\mu'_2, \mu'_3` (notes §5 A5).  :math:`\|\mu'_1\| = \beta` needs
    :math:`a^2 + b^2 = 0.82` (within :data:`NORM_RTOL`); :math:`S_1 = a + b`, at most
    :math:`\sqrt{1.64} \approx 1.2806`.

    Parameters
    ----------
    base : Patterns
        The in-domain patterns.
    a, b : float
        The coefficients of :math:`\mu_5` and :math:`\mu_6` in :math:`\mu'_1` (default 0.64).

    Returns
    -------
    Patterns
        The out-of-domain patterns.

    Examples
    --------
    >>> ood = ood_patterns(in_domain_patterns())
    >>> ood.M1, ood.M2, round(ood.beta, 4)
    (3, 24, 3.0)
    >>> [round(float(s), 4) for s in theorem34_conditions(in_domain_patterns(), ood).sums]
    [1.28, 1.4142, 1.4142]
    """
    check_object("base", base, Patterns, "build it with in_domain_patterns()")
    if base.M1 < 6:
        raise ValueError(f"the §5 construction uses mu_1..mu_6; base has M1 = {base.M1}")
    a = check_float("a", a)
    b = check_float("b", b)
    if abs(1 / math.sqrt(0.18 + a * a + b * b) - 1) > NORM_RTOL:   # as Patterns checks it
        raise ValueError(f"a and b must satisfy a^2 + b^2 = 0.82 (the norm of mu'_1 must be "
                         f"beta, 002 §5), got a = {a}, b = {b} (a^2 + b^2 = "
                         f"{a * a + b * b:.4g})")
    r = math.sqrt(2) / 2
    k = np.zeros((3, base.M1))
    k[0, :6] = [0.3, -0.3, 0, 0, a, b]
    k[1, :2] = r
    k[2, 2:4] = r
    return ood_patterns_from_coefficients(base, k)


@dataclass(frozen=True)
class OODConditions:
    """The hypotheses of Theorem 3.4 (eq. 12) for a pair (in-domain, out-of-domain) of pattern
    sets.

    Attributes
    ----------
    coefficients : ndarray (M1', M1)
        :math:`k_{j,i} = \\langle\\mu'_j, \\mu_i\\rangle / \\beta^2`.
    sums : ndarray (M1',)
        :math:`S_j = \\sum_i k_{j,i}`.
    relevant_residual, irrelevant_residual : float
        Largest norm (relative to :math:`\\beta`) of an ODR pattern outside span(IDR), of an ODI
        pattern outside span(IDI).
    atol : float
        The tolerance the conditions were checked with.
    """

    coefficients: FloatArray
    sums: FloatArray
    relevant_residual: float
    irrelevant_residual: float
    atol: float

    @property
    def in_span(self) -> bool:
        return self.relevant_residual <= self.atol and self.irrelevant_residual <= self.atol

    @property
    def holds(self) -> bool:
        """Eq. 12: ODR in span(IDR) with every :math:`S_j \\ge 1`, ODI in span(IDI)."""
        return self.in_span and bool(np.all(self.sums >= 1 - self.atol))


def _residual(rows: FloatArray, basis: FloatArray) -> float:
    Q, _ = np.linalg.qr(basis.T)
    res = rows.T - Q @ (Q.T @ rows.T)
    return float(np.linalg.norm(res, axis=0).max())


def theorem34_conditions(base: Patterns, ood: Patterns, *, atol: float = 1e-9) -> OODConditions:
    """Evaluate eq. 12 for ``ood`` against ``base`` (pattern orthogonality and norms are already
    guaranteed by :class:`Patterns`).

    Parameters
    ----------
    atol : float, keyword-only
        Tolerance (relative to beta) for the span residuals and for :math:`S_j \\ge 1`.
    base : Patterns
        The in-domain patterns.
    ood : Patterns
        The out-of-domain patterns.

    Returns
    -------
    OODConditions
        The coefficients, their sums and the residuals.

    Examples
    --------
    >>> base = in_domain_patterns()
    >>> c = theorem34_conditions(base, ood_patterns(base))        # the §5 patterns
    >>> c.holds, [round(float(s), 4) for s in c.sums]              # S_j = sum_i k_ji >= 1
    (True, [1.28, 1.4142, 1.4142])
    >>> r = 2 ** -0.5
    >>> theorem34_conditions(base, ood_patterns_from_coefficients(
    ...     base, [[r, -r, 0, 0, 0, 0]])).holds                    # (mu_1 - mu_2)/sqrt 2: S = 0
    False
    """
    check_object("base", base, Patterns, "build it with in_domain_patterns()")
    check_object("ood", ood, Patterns, "build it with ood_patterns(base) or "
                 "ood_patterns_from_coefficients(base, k)")
    atol = check_float("atol", atol, minimum=0, hint=" (a tolerance)")
    if ood.d_x != base.d_x:
        raise ValueError(f"feature dimensions differ: {ood.d_x} vs {base.d_x}")
    k = ood.relevant @ base.relevant.T / base.beta**2
    return OODConditions(
        k, k.sum(axis=1),
        _residual(ood.relevant, base.relevant) / base.beta,
        _residual(ood.irrelevant, base.irrelevant) / base.beta, atol)
