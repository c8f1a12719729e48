r"""002 §4: what the trained model does -- attention concentration (Corollary 4.3), the
projections of :math:`W_Q, W_K` (Proposition 4.1), the alignment of the MLP neurons
(Proposition 4.5) and the rank and support of the weight updates (Lemmas B.5-B.7).

* **Corollary 4.3.** With :math:`\mathcal N` the contexts sharing the query's relevant pattern,
  :math:`\sum_{s\in\mathcal N}\mathrm{attn}(\Psi; P, s) \ge 1 - \Theta(M_1^{-C})` (the rate is
  OCR-damaged, notes §5 A9).  :func:`attention_concentration` measures that mass, the mass on
  the query column itself (``self_attend=True``) and the rest.
* **Proposition 4.1.** For :math:`(p, W) \in \{(p_{query}, W_Q), (p_s, W_K)\}`:
  :math:`\|[\mathrm{XDR}(p)^\top, 0^\top] W p\| \ge \Omega(\sqrt{\log M_1})` (17), while the
  components along any other relevant pattern (18) and any irrelevant pattern (19) are
  :math:`O(\sqrt{\log M_1}(1/M_1 + 1/M_2))`; :math:`0 \in \mathbb R^{m_a - d_X}`.
  :func:`attention_projections` reports them divided by :math:`\beta` (Figure 2A's
  normalisation: :math:`\delta\beta` at initialization) and the blocks
  :math:`G = \mu W_{[:d_X,:d_X]}\mu^\top/\beta^2` on relevant and irrelevant patterns.
* **Proposition 4.5.** For :math:`i \in \mathcal L`, :math:`r_i = (W_O W_V)_i =
  (r_{i,X}, r_{i,Y})`: :math:`\cos(r_{i,X}, \bar\mu) \ge 1 - \Theta(1)/M_1` (21) and
  :math:`\cos(r_{i,Y}, \mathrm{sign}(a_i) q) \ge 1 - \Theta(1)/M_1` (22).  The proposition's
  third block of :math:`r_i` is the :math:`W_O`-row view of the proof; :math:`W_OW_V` has only
  :math:`D` columns (notes §5 A11).
* **Updates.** :math:`\Delta W = W^{(T)} - W^{(0)}`: singular values, the float rank at a
  relative tolerance (:func:`seprank.core.matrix_rank`, ``method='svd'``, which certifies
  nothing) and a certified bracket of the absolute ε-rank (:func:`seprank.core.eps_rank`: the
  update is within ε entrywise of a matrix of rank ``upper``), and the fraction of
  :math:`\|\Delta W\|_F^2` whose input side lies in a given subspace (e.g. span of
  :math:`[\mu_j; 0]` and :math:`[0; q]`).

References
----------
002, Proposition 4.1 (eqs. 17-19), Remark 4.2, Corollary 4.3 (eq. 20), Proposition 4.5
(eqs. 21-22), Remark 4.6, Lemmas B.5-B.7, Figure 2.  Notes: docs/notes/seed_icl_nonlinear.md
§2 C4-C7, PC-07..PC-10.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from identifiability.icl._checks import check_fraction, check_matrix, check_object, check_positive
from identifiability.icl.data import Patterns
from identifiability.icl.model import ICLParams, forward
from identifiability.icl.prompts import PromptBatch
from seprank.core import EpsRankResult, RankResult, eps_rank, matrix_rank
from seprank.core.display import RichDisplay
from seprank.core.types import FloatArray
from seprank.core.validation import check_bool

__all__ = [
    "AttentionConcentration",
    "AttentionProjections",
    "NeuronAlignment",
    "UpdateSpectrum",
    "attention_concentration",
    "attention_projections",
    "label_feature_basis",
    "neuron_alignment",
    "update_spectrum",
]



def _mean_se(x: FloatArray) -> tuple[float, float]:
    n = x.size
    return float(x.mean()), (float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf)


@dataclass(frozen=True)
class AttentionConcentration:
    """Attention mass per prompt on :math:`\\mathcal N` (same-pattern contexts), on the query
    column and on the other contexts; means with standard errors.

    Attributes
    ----------
    same, self_, other : ndarray (n,)
        Per-prompt masses (``self_`` is 0 with ``self_attend=False``); they sum to 1.
    n_same : ndarray (n,)
        :math:`|\\mathcal N|` per prompt.
    """

    same: FloatArray = field(repr=False)
    self_: FloatArray = field(repr=False)
    other: FloatArray = field(repr=False)
    n_same: npt.NDArray[np.int64] = field(repr=False)

    @property
    def mean_same(self) -> tuple[float, float]:
        """(mean, SE) of the mass on :math:`\\mathcal N`."""
        return _mean_se(self.same)

    @property
    def mean_same_or_self(self) -> tuple[float, float]:
        """(mean, SE) of the mass on :math:`\\mathcal N` plus the query column."""
        return _mean_se(self.same + self.self_)

    @property
    def mean_self(self) -> tuple[float, float]:
        return _mean_se(self.self_)


def attention_concentration(params: ICLParams, prompts: PromptBatch, *,
                            self_attend: bool = True) -> AttentionConcentration:
    """Corollary 4.3's attention mass on the contexts sharing the query's relevant pattern.

    Parameters
    ----------
    params : ICLParams
        The trained weights.
    prompts : PromptBatch
        The prompts.
    self_attend : bool, keyword-only
        The query attends to itself (default True, eq. 2).

    Returns
    -------
    AttentionConcentration
        The attention mass per prompt and its summary.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns, sample_prompts
    >>> from identifiability.icl.model import initialize
    >>> b = sample_prompts(in_domain_patterns(), [(0, 1)], 200, 20, 0.8, seed=0)
    >>> c = attention_concentration(initialize(30, 30, seed=0), b)
    >>> bool(np.allclose(c.same + c.self_ + c.other, 1)), 0.3 < c.mean_same[0] < 0.6
    (True, True)
    """
    check_object("prompts", prompts, PromptBatch, "sample them with sample_prompts()")
    self_attend = check_bool("self_attend", self_attend)
    A = np.real(forward(params, prompts.P, self_attend=self_attend).A)
    l = prompts.length
    same_mask = prompts.same_pattern
    ctx = A[:, :l]
    same = (ctx * same_mask).sum(axis=1)
    self_ = A[:, l] if self_attend else np.zeros(prompts.n)
    other = (ctx * ~same_mask).sum(axis=1)
    return AttentionConcentration(same, self_, other, same_mask.sum(axis=1))


@dataclass(frozen=True)
class AttentionProjections:
    """Proposition 4.1 measured on prompts, for :math:`W_Q p_{query}` (``query_*``) and
    :math:`W_K p_s` over all contexts (``key_*``); all divided by :math:`\\beta`.

    Attributes
    ----------
    query_own, key_own : float
        Mean :math:`|\\langle[\\mathrm{XDR}(p)/\\beta; 0], Wp\\rangle|` (eq. 17).
    query_other_relevant, key_other_relevant : float
        Mean over prompts of the largest component along another relevant pattern (eq. 18).
    query_irrelevant, key_irrelevant : float
        Mean of the largest component along an irrelevant pattern (eq. 19).
    query_norm, key_norm : float
        Mean :math:`\\|Wp\\|` (Figure 2A compares it with the own component).
    G_query, G_key : ndarray (M1, M1)
        :math:`\\mu W_{[:d_X, :d_X]} \\mu^\\top / \\beta^2` for :math:`W_Q` and :math:`W_K`.
    I_query, I_key : ndarray (M2, M2)
        The same on the irrelevant patterns.
    """

    query_own: float
    query_other_relevant: float
    query_irrelevant: float
    query_norm: float
    key_own: float
    key_other_relevant: float
    key_irrelevant: float
    key_norm: float
    G_query: FloatArray = field(repr=False)
    G_key: FloatArray = field(repr=False)
    I_query: FloatArray = field(repr=False)
    I_key: FloatArray = field(repr=False)


def _components(Wp: FloatArray, own: npt.NDArray[np.int64], patterns: Patterns
                ) -> tuple[float, float, float, float]:
    feat = Wp[:, :patterns.d_x]
    rel = np.abs(feat @ patterns.relevant.T) / patterns.beta        # (k, M1)
    irr = np.abs(feat @ patterns.irrelevant.T) / patterns.beta      # (k, M2)
    rows = np.arange(len(own))
    own_c = rel[rows, own]
    rel[rows, own] = -np.inf
    return (float(own_c.mean()), float(rel.max(axis=1).mean()), float(irr.max(axis=1).mean()),
            float(np.linalg.norm(Wp, axis=1).mean()))


def attention_projections(params: ICLParams, patterns: Patterns, prompts: PromptBatch
                          ) -> AttentionProjections:
    """Proposition 4.1's components of :math:`W_Q p_{query}` and :math:`W_K p_s`, with the
    pattern blocks of :math:`W_Q, W_K`.  ``patterns`` must be the ones that generated
    ``prompts`` (IDR for in-domain prompts, ODR for out-of-domain ones).

    Parameters
    ----------
    params : ICLParams
        The trained weights.
    patterns : Patterns
        The patterns that generated ``prompts``.
    prompts : PromptBatch
        The prompts.

    Returns
    -------
    AttentionProjections
        The components.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns, sample_prompts
    >>> from identifiability.icl.model import initialize
    >>> pat = in_domain_patterns()
    >>> b = sample_prompts(pat, [(0, 1)], 20, 5, 0.8, noise=0.0, seed=0)
    >>> pr = attention_projections(initialize(30, 30, seed=0), pat, b)
    >>> round(pr.query_own, 6), round(pr.key_other_relevant, 6)     # delta * beta, 0
    (0.6, 0.0)
    """
    check_object("params", params, ICLParams, "build it with initialize() or train()")
    check_object("patterns", patterns, Patterns, "build them with in_domain_patterns()")
    check_object("prompts", prompts, PromptBatch, "sample them with sample_prompts()")
    if prompts.P.shape[1] != patterns.D:
        raise ValueError(f"prompts have tokens of dimension {prompts.P.shape[1]}, patterns "
                         f"need D = {patterns.D}: pass the patterns that generated them")
    if patterns.d_x > np.shape(params.WQ)[0]:
        raise ValueError("m_a must be >= d_X (002 §2.3): the feature rows of W_Q are needed")
    WQ = np.real(params.WQ)
    WK = np.real(params.WK)
    pq = prompts.P[:, :, -1]
    ctx = prompts.P[:, :, :-1].transpose(0, 2, 1).reshape(-1, patterns.D)
    q = _components(pq @ WQ.T, prompts.query_patterns, patterns)
    k = _components(ctx @ WK.T, prompts.context_patterns.reshape(-1), patterns)
    dx = patterns.d_x
    b2 = patterns.beta**2

    def block(W: FloatArray, basis: FloatArray) -> FloatArray:
        return np.asarray(basis @ W[:dx, :dx] @ basis.T / b2)

    return AttentionProjections(*q, *k, block(WQ, patterns.relevant),
                                block(WK, patterns.relevant), block(WQ, patterns.irrelevant),
                                block(WK, patterns.irrelevant))


@dataclass(frozen=True, repr=False)
class NeuronAlignment(RichDisplay):
    """Proposition 4.5 per neuron.

    Attributes
    ----------
    magnitude : ndarray (m,)
        :math:`\\|r_i\\|`.
    cos_feature : ndarray (m,)
        :math:`\\cos(r_{i,X}, \\bar\\mu)` (eq. 21).
    cos_label : ndarray (m,)
        :math:`\\cos(r_{i,Y}, \\mathrm{sign}(a_i) q)` (eq. 22).
    """

    magnitude: FloatArray
    cos_feature: FloatArray
    cos_label: FloatArray

    def top(self, fraction: float = 0.5) -> npt.NDArray[np.int64]:
        """Indices of the ``fraction`` of neurons with the largest :math:`\\|r_i\\|`.

        Parameters
        ----------
        fraction : float, default 0.5
            The fraction of neurons, in (0, 1].

        Returns
        -------
        numpy.ndarray
            Their indices.
        """
        k = max(1, round(check_fraction("fraction", fraction) * self.magnitude.size))
        return np.argsort(-self.magnitude, kind="stable")[:k]


def _cos(X: FloatArray, v: FloatArray) -> FloatArray:
    nx = np.linalg.norm(X, axis=1)
    nv = np.linalg.norm(v, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        c = (X * v).sum(axis=1) / (nx * nv)
    return np.asarray(np.where(nx * nv > 0, c, 0.0))


def neuron_alignment(params: ICLParams, patterns: Patterns) -> NeuronAlignment:
    """Proposition 4.5's cosines of the rows of :math:`W_O W_V` with :math:`\\bar\\mu` and
    :math:`\\mathrm{sign}(a_i) q`.

    Parameters
    ----------
    params : ICLParams
        The trained weights.
    patterns : Patterns
        The patterns.

    Returns
    -------
    NeuronAlignment
        The cosines per neuron.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns
    >>> from identifiability.icl.model import initialize
    >>> al = neuron_alignment(initialize(30, 30, seed=0), in_domain_patterns())
    >>> al.magnitude.shape, bool(np.all(np.abs(al.cos_label) <= 1 + 1e-12))
    ((64,), True)
    """
    check_object("params", params, ICLParams, "build it with initialize() or train()")
    check_object("patterns", patterns, Patterns, "build them with in_domain_patterns()")
    r = np.real(params.WO @ params.WV)
    dx = patterns.d_x
    if r.shape[1] != patterns.D:
        raise ValueError(f"W_V has {r.shape[1]} columns, patterns need D = {patterns.D}")
    signs = np.sign(np.real(params.a))[:, None]
    return NeuronAlignment(np.linalg.norm(r, axis=1),
                           _cos(r[:, :dx], patterns.mean_relevant[None, :]),
                           _cos(r[:, dx:], signs * patterns.q[None, :]))


def label_feature_basis(patterns: Patterns) -> FloatArray:
    """Orthonormal rows spanning :math:`\\{[\\mu_j; 0]\\} \\cup \\{[0; q]\\}` in
    :math:`\\mathbb R^D` (the directions Lemmas B.5-B.7 confine the updates to).

    Parameters
    ----------
    patterns : Patterns
        The patterns.

    Returns
    -------
    numpy.ndarray
        Orthonormal rows, shape :math:`(M_1 + 1, D)`.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns
    >>> pat = in_domain_patterns()
    >>> B = label_feature_basis(pat)                    # M1 + 1 = 7 directions in R^D, D = 60
    >>> B.shape, bool(np.allclose(B @ B.T, np.eye(7)))
    ((7, 60), True)
    >>> row = np.concatenate([pat.relevant[2], np.zeros(pat.D - pat.d_x)])
    >>> bool(np.allclose(B.T @ (B @ row), row))         # [mu_3; 0] lies in the span
    True
    """
    check_object("patterns", patterns, Patterns, "build them with in_domain_patterns()")
    rows = np.zeros((patterns.M1 + 1, patterns.D))
    rows[:patterns.M1, :patterns.d_x] = patterns.relevant
    rows[patterns.M1, patterns.d_x:] = patterns.q
    Q, _ = np.linalg.qr(rows.T)
    return np.asarray(Q.T)


@dataclass(frozen=True, repr=False)
class UpdateSpectrum(RichDisplay):
    """Rank and support of an update :math:`\\Delta W`.

    Attributes
    ----------
    singular_values : ndarray
    float_rank : RankResult
        :func:`seprank.core.matrix_rank` with ``method='svd'`` at relative tolerance ``rtol``
        (certifies nothing; ``details['gap']`` is :math:`\\sigma_r/\\sigma_{r+1}`).
    eps_rank : EpsRankResult
        Certified bracket of the absolute ε-rank at ``eps`` (``upper``: a matrix of that rank
        lies within ε of :math:`\\Delta W` in every entry).
    input_energy : float or None
        :math:`\\|\\Delta W\\,\\Pi\\|_F^2/\\|\\Delta W\\|_F^2`, :math:`\\Pi` the projection onto the
        row span of ``basis``.
    details : dict
        The tolerance, the basis and the shapes.
    """

    singular_values: FloatArray
    float_rank: RankResult
    eps_rank: EpsRankResult
    input_energy: float | None
    details: dict[str, Any] = field(default_factory=dict, repr=False)


def update_spectrum(delta: Any, *, rtol: float = 0.05, eps: float | None = None,
                    basis: Any = None) -> UpdateSpectrum:
    """Rank and support of a weight update.

    Parameters
    ----------
    delta : array_like (rows, D)
        :math:`W^{(T)} - W^{(0)}`.
    rtol : float, keyword-only
        Relative singular-value tolerance of the float rank.
    eps : float, keyword-only
        Absolute entrywise tolerance of the ε-rank; default ``rtol * max|delta|``.
    basis : array_like (k, D), optional, keyword-only
        Rows spanning the input subspace whose energy share is reported.

    Returns
    -------
    UpdateSpectrum
        Singular values, float and ε ranks, and the energy in ``basis``.

    Examples
    --------
    >>> u = np.outer([1.0, 2.0, 0.0], [0.0, 1.0, 1.0])
    >>> s = update_spectrum(u + 1e-6, basis=[[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    >>> int(s.float_rank), s.eps_rank.bracket, round(s.input_energy, 6)
    (1, (1, 1), 1.0)
    """
    D = check_matrix("delta", delta)
    rtol = check_positive("rtol", rtol)
    scale = float(np.abs(D).max())
    if scale == 0:
        raise ValueError("delta is zero: the weights did not move")
    eps = rtol * scale if eps is None else check_positive("eps", eps)
    fr = matrix_rank(D, method="svd", rtol=rtol)
    er = eps_rank(D, eps)
    energy = None
    if basis is not None:
        B = check_matrix("basis", basis, shape=(None, D.shape[1]))
        Q, _ = np.linalg.qr(B.T)
        energy = float(np.linalg.norm(D @ Q) ** 2 / np.linalg.norm(D) ** 2)
    return UpdateSpectrum(np.asarray(np.linalg.svd(D, compute_uv=False), dtype=np.float64),
                          fr, er, energy,
                          {"rtol": rtol, "eps": eps, "max_abs": scale})
