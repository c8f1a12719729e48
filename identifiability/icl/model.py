r"""002, eq. 2: the one-layer, single-head softmax-attention Transformer with a ReLU MLP, its
hinge loss and the exact gradients that Algorithm 1 (SGD) uses.

.. math::

    F(\Psi; P) = a^\top \mathrm{ReLU}\Big(W_O \sum_{i} W_V p_i\,
        \mathrm{attn}(\Psi; P, i)\Big), \qquad
    \mathrm{attn}(\Psi; P, i) = \mathrm{softmax}_i\big((W_K p_i)^\top W_Q p_{query}\big),

with :math:`W_Q, W_K \in \mathbb R^{m_a\times D}`, :math:`W_V \in \mathbb R^{m_b\times D}`,
:math:`W_O \in \mathbb R^{m\times m_b}`, :math:`a \in \mathbb R^m` fixed, no :math:`1/\sqrt d`
scaling.  The sum runs over all :math:`l+1` columns, the query included, as the proofs write
it (:math:`\sum_{s=1}^{l+1}` in (51), (68)); ``self_attend=False`` is the contexts-only sum
:math:`\sum_{i=1}^{l}` that the main text's OCR shows (notes §5 A1).  Pruning a set
:math:`S` of neurons (§2.4) removes rows of :math:`W_O`, i.e. multiplies :math:`a_i` by a 0/1
``mask``.  Loss: :math:`\ell = \max\{0, 1 - zF\}` (eq. 3).

**Initialization (§2.3, Algorithm 1).** :math:`W_V^{(0)}` has every diagonal entry
:math:`\delta`, :math:`W_Q^{(0)}, W_K^{(0)}` their first :math:`d_X` diagonal entries
:math:`\delta` (:math:`\delta \in (0, 0.2]`), all else 0; :math:`W_O^{(0)}` has i.i.d.
:math:`N(0, \xi^2)` entries, :math:`\xi = 1/\sqrt m`; :math:`a_i` uniform on
:math:`\{\pm 1/m\}` (§2.3; Algorithm 1 prints :math:`\pm1/\sqrt m`, ``a_scale="1/sqrt(m)"``).

**Gradients** (of the batch mean of :math:`\ell`), written out: with
:math:`g_F = -z\,\mathbb 1[1 - zF > 0]/B`, :math:`u = W_O h`, :math:`h = W_V c`,
:math:`c = \sum_i A_i p_i`, :math:`s_i = (W_K p_i)^\top W_Q p_q`, :math:`A = \mathrm{softmax}(s)`:
:math:`\partial u = g_F (a \odot \text{mask}) \odot \mathbb 1[u > 0]`,
:math:`\nabla W_O = \partial u\, h^\top`, :math:`\partial h = W_O^\top \partial u`,
:math:`\nabla W_V = \partial h\, c^\top`, :math:`\partial A_i = p_i^\top W_V^\top \partial h`,
:math:`\partial s = A \odot (\partial A - \langle A, \partial A\rangle)`,
:math:`\nabla W_K = W_Q p_q (\sum_i \partial s_i p_i)^\top`,
:math:`\nabla W_Q = W_K (\sum_i \partial s_i p_i) p_q^\top`, summed over the batch (the
scores are computed as :math:`p_i^\top (W_K^\top W_Q p_q)`, never forming :math:`W_K p_i`).
At the kinks (:math:`1 - zF = 0`, :math:`u_i = 0`) the one-sided derivative with indicator 0
is used (a subgradient).  Everything accepts complex arrays (the kinks are decided on real
parts), so the tests compare with complex-step differentiation.

No deep-learning framework is needed: the model has ~15k parameters, one SGD step on a batch
of 64 prompts of 21 tokens is a handful of (64 x 60 x 60) matrix products (milliseconds in
numpy), and the gradient above is short enough to write out and test exactly -- an autodiff
framework would add a heavy dependency and no accuracy.  Inside :func:`forward`,
:func:`loss_and_gradient` and :func:`~identifiability.icl.training.train` BLAS runs on one
thread (:mod:`threadpoolctl`): at this size threads only add synchronisation.

References
----------
002, eq. 2 (model), eq. 3 (hinge loss), §2.3 and Algorithm 1 (initialization, SGD), §2.4
(pruning), Definition B.8 (the sum over :math:`l+1` columns).  Notes:
docs/notes/seed_icl_nonlinear.md §1.6-1.10.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from identifiability.icl._checks import check_fraction, check_int, check_object
from identifiability.icl._threads import single_blas_threaded
from seprank.core.display import RichDisplay
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import Array
from seprank.core.validation import check_array, check_bool, check_choice

__all__ = [
    "GRADIENT_NAMES",
    "Forward",
    "ICLParams",
    "attention_weights",
    "forward",
    "hinge_loss",
    "initialize",
    "loss_and_gradient",
]

#: The trained weights (``a`` is fixed, Algorithm 1).
GRADIENT_NAMES = ("WQ", "WK", "WV", "WO")


@dataclass(frozen=True, repr=False)
class ICLParams(RichDisplay):
    """The weights :math:`\\Psi = \\{W_Q, W_K, W_V, W_O, a\\}` and the pruning ``mask`` (0/1 per
    neuron; 1 = kept).  Arrays are not copied: use :meth:`copy` before mutating.

    Parameters
    ----------
    WQ, WK : numpy.ndarray
        Query and key weights, :math:`m_a \\times D`.
    WV : numpy.ndarray
        Value weights, :math:`m_b \\times D`.
    WO : numpy.ndarray
        Output weights, :math:`m \\times m_b`.
    a : numpy.ndarray
        The fixed output layer, length m.
    mask : numpy.ndarray
        The pruning mask, length m.
    """

    WQ: Array
    WK: Array
    WV: Array
    WO: Array
    a: Array
    mask: Array

    def __post_init__(self) -> None:
        for name in ("WQ", "WK", "WV", "WO", "a", "mask"):   # finite real (or complex) arrays
            arr = check_array(name, getattr(self, name), ndim=1 if name in ("a", "mask") else 2,
                              dtype=None)
            if arr.dtype.kind not in "iufc":
                raise TypeError(f"{name} must be an array of numbers, got dtype {arr.dtype}")
        m_a, D = np.shape(self.WQ)
        m_b = np.shape(self.WV)[0]
        m = np.shape(self.WO)[0]
        want = {"WK": (m_a, D), "WV": (m_b, D), "WO": (m, m_b), "a": (m,), "mask": (m,)}
        for name, shape in want.items():
            if np.shape(getattr(self, name)) != shape:
                raise ValueError(f"{name} must have shape {shape} (from W_Q {np.shape(self.WQ)},"
                                 f" W_V rows {m_b}, W_O rows {m}), got "
                                 f"{np.shape(getattr(self, name))}")
        if not np.all(np.isin(np.asarray(self.mask), (0.0, 1.0))):
            raise ValueError("mask must hold only 0 (pruned) and 1 (kept)")

    @property
    def m(self) -> int:
        """Number of MLP neurons."""
        return int(np.shape(self.WO)[0])

    @property
    def D(self) -> int:
        return int(np.shape(self.WQ)[1])

    def copy(self) -> ICLParams:
        """A deep copy (every array copied).

        Returns
        -------
        ICLParams
            The copy.
        """
        return ICLParams(*(np.array(getattr(self, k)) for k in
                           ("WQ", "WK", "WV", "WO", "a", "mask")))

    def with_mask(self, mask: Array) -> ICLParams:
        """The same weights with another pruning mask (a new 0/1 array of length m).

        Parameters
        ----------
        mask : numpy.ndarray
            0/1 array of length m.

        Returns
        -------
        ICLParams
            The weights with that mask.
        """
        return replace(self, mask=check_array("mask", mask, ndim=1))

    def neuron_magnitudes(self) -> npt.NDArray[np.float64]:
        """:math:`\\|r_i\\|`, :math:`r_i` the i-th row of :math:`W_O W_V` (Theorem 3.7).

        Returns
        -------
        numpy.ndarray
            One norm per neuron, length m.
        """
        return np.asarray(np.linalg.norm(np.real(self.WO @ self.WV), axis=1))


def initialize(d_x: int, d_y: int, *, m: int = 64, m_a: int = 60, m_b: int = 60,
               delta: float = 0.2, a_scale: Literal["1/m", "1/sqrt(m)"] = "1/m",
               seed: SeedLike = None) -> ICLParams:
    """The paper's initialization (§2.3, Algorithm 1).

    Parameters
    ----------
    d_x, d_y : int
        Feature and label dimensions (:math:`D = d_X + d_Y`).
    m, m_a, m_b : int, keyword-only
        Neurons, rows of :math:`W_Q, W_K` (:math:`\\ge d_X`) and of :math:`W_V`.
    delta : float, keyword-only
        The diagonal value :math:`\\delta \\in (0, 0.2]`.
    a_scale : {'1/m', '1/sqrt(m)'}, keyword-only
        :math:`|a_i|` (§2.3 prints :math:`1/m`, Algorithm 1 :math:`1/\\sqrt m`).
    seed : seed-like, keyword-only
        Stream for :math:`W_O` and :math:`a` (the algorithm's stream, not the data's).

    Returns
    -------
    ICLParams
        The initial weights.

    Examples
    --------
    >>> p = initialize(30, 30, seed=0)
    >>> p.WQ.shape, float(p.WQ[29, 29]), float(p.WQ[30, 30]), float(p.WV[59, 59]), p.m
    ((60, 60), 0.2, 0.0, 0.2, 64)
    >>> sorted(set(np.abs(p.a).tolist()))
    [0.015625]
    """
    d_x = check_int("d_x", d_x, 1)
    d_y = check_int("d_y", d_y, 1)
    m = check_int("m", m, 1)
    m_a = check_int("m_a", m_a, 1)
    m_b = check_int("m_b", m_b, 1)
    if m_a < d_x:
        raise ValueError(f"m_a = {m_a} rows of W_Q, W_K are fewer than d_x = {d_x} features "
                         "(002 §2.3 puts delta on the first d_x diagonal entries): raise m_a "
                         "to at least d_x, or lower d_x")
    delta = check_fraction("delta", delta)
    if delta > 0.2:
        raise ValueError(f"delta must lie in (0, 0.2] (002 §2.3), got {delta}")
    check_choice("a_scale", a_scale, ("1/m", "1/sqrt(m)"))
    D = d_x + d_y
    rng = as_generator(seed)
    guard_memory(array_bytes(2 * m_a * D + m_b * D + m * m_b + 3 * m),
                 what=f"the weights of a model with D = {D}, m = {m}, m_a = {m_a}, m_b = {m_b}",
                 fix="lower d_x, d_y, m, m_a or m_b")
    WQ = np.zeros((m_a, D))
    WQ[np.arange(d_x), np.arange(d_x)] = delta
    WV = np.zeros((m_b, D))
    k = min(m_b, D)
    WV[np.arange(k), np.arange(k)] = delta
    WO = rng.normal(0.0, 1 / np.sqrt(m), size=(m, m_b))
    scale = 1 / m if a_scale == "1/m" else 1 / np.sqrt(m)
    a = rng.choice(np.array([1.0, -1.0]), size=m) * scale
    return ICLParams(WQ, WQ.copy(), WV, WO, a, np.ones(m))


@dataclass(frozen=True)
class Forward:
    """Intermediate values of one forward pass (used by the gradient and the mechanism
    measurements).  ``A`` has one column per attended token (``l+1``, or ``l`` contexts only).

    Parameters
    ----------
    F : numpy.ndarray
        The network outputs, shape (n,).
    A : numpy.ndarray
        The attention weights, shape (n, L).
    scores : numpy.ndarray
        The attention scores :math:`p_i^\\top W_K^\\top W_Q p_{query}`.
    Qv : numpy.ndarray
        :math:`W_Q p_{query}`.
    kq : numpy.ndarray
        :math:`W_K^\\top W_Q p_{query}`.
    c : numpy.ndarray
        The attended prompt :math:`\\sum_i A_i p_i`, shape (n, D).
    h : numpy.ndarray
        :math:`W_V c`.
    u : numpy.ndarray
        :math:`W_O W_V c`, the pre-activations.
    attended : numpy.ndarray
        The attended tokens.
    """

    F: Array
    A: Array
    scores: Array
    Qv: Array
    kq: Array
    c: Array
    h: Array
    u: Array
    attended: Array


def _check_prompts(P: Any, D: int) -> Array:
    """``P`` as a finite (n, D, l+1) array (complex allowed: complex-step tests)."""
    arr = check_array("P", P, dtype=None, min_size=0)
    if arr.dtype.kind not in "iufc":
        raise TypeError(f"P: prompts must be numbers, got dtype {arr.dtype}")
    if arr.ndim != 3 or arr.shape[1] != D or arr.shape[2] < 1:
        raise ValueError(f"P: prompts must have shape (n, D={D}, l+1), got {arr.shape}")
    return arr


def _checked(params: Any, P: Any, self_attend: Any) -> tuple[ICLParams, Array, bool]:
    params = check_object("params", params, ICLParams, "build it with initialize()")
    return params, _check_prompts(P, params.D), check_bool("self_attend", self_attend)


@single_blas_threaded
def forward(params: ICLParams, P: Any, *, self_attend: bool = True) -> Forward:
    """Evaluate eq. 2 on a batch of prompts ``P`` of shape ``(n, D, l+1)``.

    Parameters
    ----------
    self_attend : bool, keyword-only
        True (default): attention over all :math:`l+1` columns, query included; False: over the
        :math:`l` contexts only (needs :math:`l \\ge 1`).
    params : ICLParams
        The weights.
    P : array_like
        Prompts, shape ``(n, D, l+1)``.

    Returns
    -------
    Forward
        The outputs and intermediates.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns, sample_prompts
    >>> b = sample_prompts(in_domain_patterns(), [(0, 1)], 3, 5, 0.8, seed=0)
    >>> out = forward(initialize(30, 30, seed=1), b.P)
    >>> out.F.shape, np.allclose(out.A.sum(axis=1), 1)
    ((3,), True)
    """
    return _forward(*_checked(params, P, self_attend))


def _forward(params: ICLParams, P: Array, self_attend: bool) -> Forward:
    if not self_attend and P.shape[2] < 2:
        raise ValueError("self_attend=False needs at least one context (l >= 1)")
    pq = P[:, :, -1]
    attended = P if self_attend else P[:, :, :-1]
    Qv = pq @ params.WQ.T                                   # (n, m_a): W_Q p_q
    kq = Qv @ params.WK                                     # (n, D): W_K^T W_Q p_q
    scores = np.matmul(kq[:, None, :], attended)[:, 0, :]   # (n, L): p_i^T W_K^T W_Q p_q
    shifted = scores - np.max(np.real(scores), axis=1, keepdims=True)
    E = np.exp(shifted)
    A = E / E.sum(axis=1, keepdims=True)
    c = np.matmul(attended, A[:, :, None])[:, :, 0]         # (n, D)
    h = c @ params.WV.T
    u = h @ params.WO.T
    act = np.where(np.real(u) > 0, u, 0)
    F = (act * params.mask) @ params.a
    return Forward(F, A, scores, Qv, kq, c, h, u, attended)


def attention_weights(params: ICLParams, P: Any, *, self_attend: bool = True) -> Array:
    """The attention map :math:`\\mathrm{attn}(\\Psi; P, i)`, shape ``(n, l+1)`` (last column:
    the query) or ``(n, l)`` with ``self_attend=False``.

    Parameters
    ----------
    params : ICLParams
        The weights.
    P : array_like
        Prompts, shape ``(n, D, l+1)``.
    self_attend : bool, keyword-only
        The query attends to itself (default True).

    Returns
    -------
    numpy.ndarray
        The attention map.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns, sample_prompts
    >>> b = sample_prompts(in_domain_patterns(), [(0, 1)], 3, 5, 0.8, seed=0)
    >>> p = initialize(30, 30, seed=1)
    >>> A = attention_weights(p, b.P)                   # 5 contexts + the query itself
    >>> A.shape, bool(np.allclose(A.sum(axis=1), 1)), attention_weights(p, b.P,
    ...                                                               self_attend=False).shape
    ((3, 6), True, (3, 5))
    """
    return forward(params, P, self_attend=self_attend).A


def hinge_loss(F: Any, z: Any) -> Array:
    """:math:`\\max\\{0, 1 - zF\\}` elementwise (real part decides the branch).

    Parameters
    ----------
    F : array_like
        Outputs.
    z : array_like
        Labels (+-1).

    Returns
    -------
    numpy.ndarray
        The hinge losses, broadcast.

    Examples
    --------
    >>> hinge_loss(np.array([2.0, 0.5, -1.0]), np.array([1.0, 1.0, 1.0])).tolist()
    [0.0, 0.5, 2.0]
    """
    Fa = check_array("F", F, dtype=None, min_size=0)
    za = check_array("z", z, dtype=None, min_size=0)
    for name, arr in (("F", Fa), ("z", za)):
        if arr.dtype.kind not in "iufc":
            raise TypeError(f"{name} must be numbers, got dtype {arr.dtype}")
    if Fa.shape != za.shape:
        raise ValueError(f"F and z must have one shape, got {Fa.shape} and {za.shape}")
    margin = 1 - za * Fa
    return np.asarray(np.where(np.real(margin) > 0, margin, 0))


@single_blas_threaded
def loss_and_gradient(params: ICLParams, P: Any, z: Any, *, self_attend: bool = True
                      ) -> tuple[Any, dict[str, Array]]:
    """Batch-mean hinge loss and its gradient with respect to W_Q, W_K, W_V, W_O (see the module
    docstring for the formulas).

    Parameters
    ----------
    params : ICLParams
        The weights.
    P : array_like
        Prompts, shape ``(n, D, l+1)``.
    z : array_like
        Labels (+-1), shape (n,).
    self_attend : bool, keyword-only
        The query attends to itself (default True).

    Returns
    -------
    loss : float
        The batch-mean hinge loss.
    gradient : dict of str to numpy.ndarray
        The gradients of ``'WQ'``, ``'WK'``, ``'WV'``, ``'WO'``.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns, sample_prompts
    >>> b = sample_prompts(in_domain_patterns(), [(0, 1)], 8, 5, 0.8, seed=0)
    >>> loss, g = loss_and_gradient(initialize(30, 30, seed=1), b.P, b.z)
    >>> sorted(g), g["WQ"].shape
    (['WK', 'WO', 'WQ', 'WV'], (60, 60))
    """
    params, P, self_attend = _checked(params, P, self_attend)
    za = check_array("z", z, dtype=None, min_size=0)
    if za.dtype.kind not in "iufc":
        raise TypeError(f"z must be numbers, got dtype {za.dtype}")
    return _loss_and_gradient(params, P, za, self_attend)


def _loss_and_gradient(params: ICLParams, P: Array, z: Array, self_attend: bool
                       ) -> tuple[Any, dict[str, Array]]:
    fw = _forward(params, P, self_attend)
    if z.shape != fw.F.shape:
        raise ValueError(f"z must have shape {fw.F.shape}, got {z.shape}")
    n = z.shape[0]
    margin = 1 - z * fw.F
    active = np.real(margin) > 0
    loss = np.where(active, margin, 0).mean()
    gF = np.where(active, -z, 0) / n
    du = gF[:, None] * (params.a * params.mask) * (np.real(fw.u) > 0)   # (n, m)
    gWO = du.T @ fw.h
    dh = du @ params.WO                                     # (n, m_b)
    gWV = dh.T @ fw.c
    dc = dh @ params.WV                                     # (n, D)
    dA = np.matmul(dc[:, None, :], fw.attended)[:, 0, :]    # (n, L)
    ds = fw.A * (dA - (fw.A * dA).sum(axis=1, keepdims=True))
    Pds = np.matmul(fw.attended, ds[:, :, None])[:, :, 0]   # (n, D): sum_i ds_i p_i
    gWK = fw.Qv.T @ Pds
    gWQ = params.WK @ (Pds.T @ P[:, :, -1])                 # sum_n W_K (sum_i ds_i p_i) p_q^T
    return loss, {"WQ": gWQ, "WK": gWK, "WV": gWV, "WO": gWO}
