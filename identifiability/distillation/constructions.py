r"""Propositions 9 and 10: one attention layer plus an MLP solving (d, k)-sparse parity.

004 §4.2.7.2.1.  A block is :math:`f_{\rm mlp}\circ f_{\rm attn}` with
:math:`f_{\rm attn}(X) = \mathrm{CausalAttn}(XW_QW_K^\top X^\top)XW_V` (no residual, no layer
norm) read at the last position d; the input is :math:`z\in\{0,1\}^d` (token 1 means
:math:`x_j = -1`), the label :math:`\chi_S(x) = (-1)^{\#\{j\in S: z_j = 1\}}`.

* **Proposition 9** (attention selects the support): scores :math:`c\,\mathbb 1[i\in S]`, value
  :math:`\mathbb 1[z_i = 1]`, so the attention output is
  :math:`(e^c n_S + n_{S^c})/(ke^c + d - k)\to n_S/k`; a 2-layer MLP (Lemma 10 on
  :math:`\{0, 1/k, \dots, 1\}`, :math:`\Delta = 1/k`) maps it to the parity: hidden width
  4(k+1), weights at most :math:`4/\Delta = 4k`, biases at most :math:`4B_x/\Delta + 2 = 4k+2`
  (the statement: :math:`L_\infty` norm :math:`\le 4k(k+1)`).  Any finite
  :math:`c > \log((d-k)(4k-1)/k)` keeps the output within Lemma 10's :math:`\Delta/4`.
  The proof's concrete embedding sets :math:`p_i = p_d = e_3` for i in S, i.e. the *last
  position is scored as in-support*: for :math:`d\notin S` the attention averages
  :math:`n_S + z_d`, from which no readout recovers the parity (``embedding='printed'``).
  ``embedding='query'`` gives position d its own query coordinate :math:`e_5` and scores
  :math:`c\,(x_i)_3(x_d)_5`.
* **Proposition 10** (uniform attention :math:`\alpha_{i,d} = 1/d`): the tokens are copied into
  a length-d vector, which needs a position-and-token (one-hot) embedding
  :math:`e_{2i+z_i}`; with an *additive* embedding :math:`v_{z_i} + p_i` the uniform average
  depends on :math:`\sum_iz_i` only (``embedding='additive'``, a caveat measured here).  The
  value matrix multiplies by d (so Δ = 1); a 3-layer MLP (Lemma 11 on the k support
  coordinates) computes the parity: widths 8k and :math:`2^k`.  Lemma 11's proof gives the
  second layer bias :math:`-d_{\rm in}`, which makes every unit :math:`\sigma(\sum\psi -
  d_{\rm in}) = 0`; the indicator of a point needs :math:`-(d_{\rm in}-1)`
  (``second_bias='printed'`` / ``'corrected'``).

References
----------
004 §4.2.7.2.1 Propositions 9 and 10; §3 (Chapter 3) Lemmas 10 and 11.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from seprank.core.display import RichDisplay
from seprank.core.types import FloatArray
from seprank.core.validation import (
    check_array,
    check_choice,
    check_float,
    check_indices,
    check_instance,
    check_int,
)

__all__ = [
    "MAX_VERIFY_DIMENSION",
    "ConstructionCheck",
    "ParityTransformer",
    "ReluMLP",
    "best_readout_accuracy",
    "interpolation_mlp",
    "interpolation_mlp_1d",
    "prop9_min_scale",
    "proposition9_network",
    "proposition10_network",
    "verify_on_all_inputs",
]

#: Largest d for which :func:`verify_on_all_inputs` enumerates {0,1}^d.
MAX_VERIFY_DIMENSION = 16
SecondBias = Literal["corrected", "printed"]


@dataclass(frozen=True, repr=False)
class ReluMLP(RichDisplay):
    """:math:`x\\mapsto W_L\\sigma(\\cdots\\sigma(W_1x + b_1)\\cdots) + b_L` (σ = ReLU).

    Parameters
    ----------
    weights : tuple of numpy.ndarray
        :math:`W_1, \\dots, W_L`.
    biases : tuple of numpy.ndarray
        :math:`b_1, \\dots, b_L`.
    """

    weights: tuple[FloatArray, ...]
    biases: tuple[FloatArray, ...]

    def __post_init__(self) -> None:
        for name in ("weights", "biases"):
            value = getattr(self, name)
            if isinstance(value, str | bytes) or not isinstance(value, tuple | list) or not value:
                raise TypeError(f"{name} must be a non-empty tuple of arrays (one per layer), "
                                f"got {value!r}")
        if len(self.weights) != len(self.biases):
            raise ValueError(f"weights and biases must have one entry per layer, got "
                             f"{len(self.weights)} and {len(self.biases)}")
        ws = tuple(check_array(f"weights[{i}]", w, ndim=2) for i, w in enumerate(self.weights))
        bs = tuple(check_array(f"biases[{i}]", b, shape=(w.shape[0],))
                   for i, (w, b) in enumerate(zip(ws, self.biases, strict=True)))
        for i in range(1, len(ws)):
            if ws[i].shape[1] != ws[i - 1].shape[0]:
                raise ValueError(f"weights[{i}] has {ws[i].shape[1]} columns, the layer below "
                                 f"gives {ws[i - 1].shape[0]} units")
        object.__setattr__(self, "weights", ws)
        object.__setattr__(self, "biases", bs)

    def __call__(self, x: npt.ArrayLike) -> FloatArray:
        h = np.atleast_2d(check_array("x", x, ndim=(1, 2)))
        if h.shape[1] != self.weights[0].shape[1]:
            raise ValueError(f"x must have {self.weights[0].shape[1]} columns, got shape "
                             f"{h.shape}")
        for layer, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w.T + b
            if layer < len(self.weights) - 1:
                h = np.maximum(h, 0.0)
        return h

    @property
    def hidden_widths(self) -> tuple[int, ...]:
        return tuple(int(w.shape[0]) for w in self.weights[:-1])

    @property
    def max_abs_entry(self) -> float:
        """The entrywise :math:`L_\\infty` norm over all weights and biases."""
        return max(float(np.max(np.abs(a), initial=0.0)) for a in (*self.weights, *self.biases))

    @property
    def max_row_sum(self) -> float:
        """The largest operator :math:`\\infty`-norm (max absolute row sum) of a weight matrix."""
        return max(float(np.abs(w).sum(axis=1).max()) for w in self.weights)


def _indicator_units(values: Sequence[float] | FloatArray,
                     delta: float) -> tuple[FloatArray, FloatArray]:
    """Lemma 10's four ReLU units per value x0 (slope 1/Δ', Δ' = Δ/4): weights, biases."""
    dp = delta / 4
    offsets = np.array([2 * dp, dp, -dp, -2 * dp])
    biases = np.concatenate([(-float(v) + offsets) / dp for v in values])
    return np.full(biases.shape, 1 / dp), biases


_PATTERN = np.array([1.0, -1.0, -1.0, 1.0])


def _min_gap(values: Sequence[float] | FloatArray) -> float:
    v = np.sort(np.asarray(values, dtype=np.float64))
    if v.size < 1 or np.any(np.diff(v) <= 0):
        raise ValueError("the interpolation points must be distinct")
    return float(np.min(np.diff(v))) if v.size > 1 else 1.0


def interpolation_mlp_1d(points: Sequence[float], values: Sequence[float]) -> ReluMLP:
    r"""Lemma 10: a 2-layer ReLU MLP with :math:`f(x + \xi) = \text{values}[x]` for
    :math:`|\xi|\le\Delta/4`; width :math:`4|\mathcal X|`.

    Parameters
    ----------
    points : sequence of float
        The points :math:`\mathcal X`.
    values : sequence of float
        The value at each point.

    Returns
    -------
    ReluMLP
        The 2-layer network.

    Examples
    --------
    >>> mlp = interpolation_mlp_1d([0, 0.5, 1], [1, -1, 1])
    >>> mlp([[0.0], [0.6], [1.1]]).ravel().tolist()
    [1.0, -1.0, 1.0]
    """
    pts = check_array("points", points, ndim=1)
    vals = check_array("values", values, ndim=1)
    if len(pts) != len(vals):
        raise ValueError(f"points and values differ in length ({len(pts)}, {len(vals)})")
    delta = _min_gap(pts)
    w1, b1 = _indicator_units(pts, delta)
    w2 = np.concatenate([float(f) * _PATTERN for f in vals])[None, :]
    return ReluMLP((w1[:, None], w2), (b1, np.zeros(1)))


def interpolation_mlp(points: npt.ArrayLike, values: Sequence[float], *,
                      second_bias: SecondBias = "corrected") -> ReluMLP:
    r"""Lemma 11: a 3-layer ReLU MLP with :math:`f(x) = \text{values}[x]` on a finite set of
    points in :math:`\mathbb R^{d_{\rm in}}`.

    Layer 1: Lemma 10's indicators of every value of every coordinate (width
    :math:`4\sum_i|\mathcal X_i|`); layer 2: one unit per point, summing its coordinates'
    indicators with bias :math:`-(d_{\rm in}-1)` (``'corrected'``) or the printed
    :math:`-d_{\rm in}` (``'printed'``: every unit is then identically 0); layer 3: the values.

    Parameters
    ----------
    points : array_like
        The points, shape (n, d_in).
    values : sequence of float
        The value at each point.
    second_bias : {'corrected', 'printed'}, keyword-only
        The second layer's bias (default ``'corrected'``).

    Returns
    -------
    ReluMLP
        The 3-layer network.

    Examples
    --------
    >>> pts = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> interpolation_mlp(pts, [1, -1, -1, 1])(pts).ravel().tolist()
    [1.0, -1.0, -1.0, 1.0]
    >>> interpolation_mlp(pts, [1, -1, -1, 1], second_bias="printed")(pts).ravel().tolist()
    [0.0, 0.0, 0.0, 0.0]
    """
    p = check_array("points", points, ndim=2)
    n, d_in = p.shape
    vals = check_array("values", values, ndim=1)
    if len(vals) != n:
        raise ValueError(f"{n} points but {len(vals)} values")
    check_choice("second_bias", second_bias, ("corrected", "printed"))
    _, first, counts = np.unique(p, axis=0, return_index=True, return_counts=True)
    if np.any(counts > 1):
        dup = int(first[np.argmax(counts > 1)])
        again = [i for i in range(n) if np.array_equal(p[i], p[dup])]
        raise ValueError(f"points repeats the point {p[dup].tolist()} (rows {again}): the "
                         "interpolation points must be distinct, as in the 1-D Lemma 10 (the "
                         "indicator of a repeated point would be summed once per copy)")
    deltas = [_min_gap(np.unique(p[:, i])) for i in range(d_in)]
    delta = min(deltas)
    w1_rows: list[FloatArray] = []
    b1_parts: list[FloatArray] = []
    unit_of: dict[tuple[int, float], int] = {}
    for i in range(d_in):
        for v in np.unique(p[:, i]):
            w, b = _indicator_units([float(v)], delta)
            row = np.zeros((4, d_in))
            row[:, i] = w
            unit_of[(i, float(v))] = len(b1_parts) * 4
            w1_rows.append(row)
            b1_parts.append(b)
    w1, b1 = np.vstack(w1_rows), np.concatenate(b1_parts)
    w2 = np.zeros((n, w1.shape[0]))
    for r, point in enumerate(p):
        for i, v in enumerate(point):
            start = unit_of[(i, float(v))]
            w2[r, start:start + 4] = _PATTERN
    b2 = np.full(n, -(d_in - 1.0) if second_bias == "corrected" else -float(d_in))
    w3 = vals[None, :]
    return ReluMLP((w1, w2, w3), (b1, b2, np.zeros(1)))


@dataclass(frozen=True, repr=False)
class ParityTransformer(RichDisplay):
    """One attention layer read at the last position, then an MLP.

    ``embedding[z, i]`` is the D-vector of token z at position i (additive embeddings are the
    special case ``token[z] + position[i]``); scores :math:`\\langle W_Qx_d, W_Kx_i\\rangle`.

    Parameters
    ----------
    support : tuple of int
        S, the parity's support.
    embedding : numpy.ndarray
        ``embedding[z, i]``, shape (2, d, D).
    w_q, w_k, w_v : numpy.ndarray
        Query, key and value matrices.
    mlp : ReluMLP
        The readout.
    """

    support: tuple[int, ...]
    embedding: FloatArray           # (2, d, D)
    w_q: FloatArray                 # (D_h, D)
    w_k: FloatArray                 # (D_h, D)
    w_v: FloatArray                 # (D_v, D)
    mlp: ReluMLP

    @property
    def d(self) -> int:
        return int(self.embedding.shape[1])

    def attention_output(self, z: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """(attention weights (n, d), output (n, D_v)) at the last position.

        Parameters
        ----------
        z : array_like
            Bit strings in {0, 1}, shape (n, d).

        Returns
        -------
        weights : numpy.ndarray
            Attention weights, shape (n, d).
        output : numpy.ndarray
            The attention output, shape (n, D_v).
        """
        tokens = check_array("z", z, ndim=2, dtype=np.int64, min_size=0)
        if tokens.shape[1] != self.d or (tokens.size and not np.all((tokens == 0)
                                                                    | (tokens == 1))):
            raise ValueError(f"z must be inputs in {{0, 1}}^{self.d}, shape (n, {self.d}), got "
                             f"shape {tokens.shape}")
        x = self.embedding[tokens, np.arange(self.d)[None, :]]            # (n, d, D)
        scores = np.einsum("nh,nih->ni", x[:, -1] @ self.w_q.T, x @ self.w_k.T)
        scores -= scores.max(axis=1, keepdims=True)
        alpha = np.exp(scores)
        alpha /= alpha.sum(axis=1, keepdims=True)
        return alpha, np.einsum("ni,niv->nv", alpha, x @ self.w_v.T)

    def predict(self, z: npt.ArrayLike) -> FloatArray:
        """The MLP's scalar output (its sign is the predicted :math:`\\chi_S`).

        Parameters
        ----------
        z : array_like
            Bit strings in {0, 1}, shape (n, d).

        Returns
        -------
        numpy.ndarray
            The output, shape (n,).
        """
        return np.asarray(self.mlp(self.attention_output(z)[1])[:, 0])


def prop9_min_scale(d: int, k: int) -> float:
    """Smallest score scale c with :math:`\\max|{\\rm attn} - n_S/k| < \\Delta/4 = 1/(4k)`:
    :math:`\\log((d-k)(4k-1)/k)`.

    Parameters
    ----------
    d : int
        The input length.
    k : int
        The support size.

    Returns
    -------
    float
        The smallest scale c.

    Examples
    --------
    >>> import math
    >>> d, support = 6, (0, 2, 3)                          # k = 3: Delta/4 = 1/12
    >>> c = prop9_min_scale(d, len(support))               # log(3 * 11 / 3) = log 11
    >>> bool(abs(c - math.log(11)) < 1e-15)
    True
    >>> [round(verify_on_all_inputs(proposition9_network(d, support, scale=c + eps))
    ...        .max_attention_error - 1 / 12, 4) for eps in (-0.01, 0.0, 0.01)]  # tight
    [0.0008, 0.0, -0.0008]
    """
    d = check_int("d", d, minimum=2)
    k = check_int("k", k, minimum=1, maximum=d - 1)
    return math.log((d - k) * (4 * k - 1) / k)


def _check_parity_args(d: int, support: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    d = check_int("d", d, minimum=2, maximum=MAX_VERIFY_DIMENSION + 48)
    s = tuple(sorted(check_indices("support", support, size=d)))
    if not s or len(s) >= d:
        raise ValueError(f"support must be 1 <= k < d distinct positions in 0..{d - 1}, got "
                         f"{tuple(support)}")
    return d, s


def proposition9_network(d: int, support: Sequence[int], *, scale: float | None = None,
                         embedding: Literal["query", "printed"] = "query") -> ParityTransformer:
    r"""Proposition 9's network: scores :math:`c\,\mathbb 1[i\in S]` and Lemma 10's MLP.

    ``scale`` is c (default :func:`prop9_min_scale` + 1); ``embedding='printed'`` is the
    proof's concrete example (:math:`p_d = e_3`, so position d always scores c).

    Parameters
    ----------
    d : int
        The input length.
    support : sequence of int
        S.
    scale : float, optional, keyword-only
        c (default :func:`prop9_min_scale` + 1).
    embedding : {'query', 'printed'}, keyword-only
        The embedding (default ``'query'``).

    Returns
    -------
    ParityTransformer
        The network.

    Examples
    --------
    >>> net = proposition9_network(6, (0, 2, 3))
    >>> verify_on_all_inputs(net).accuracy
    1.0
    >>> verify_on_all_inputs(proposition9_network(6, (0, 2, 3), embedding="printed")).accuracy < 1
    True
    """
    d, s = _check_parity_args(d, support)
    k = len(s)
    c = prop9_min_scale(d, k) + 1.0 if scale is None else check_float(
        "scale", scale, positive=True, hint=" (the score scale c of Proposition 9)")
    dim = 5
    emb = np.zeros((2, d, dim))
    emb[1, :, 0] = 1.0                                         # v_1 = e_1
    emb[0, :, 1] = 1.0                                         # v_0 = e_2
    in_s = np.isin(np.arange(d), s)
    emb[:, in_s, 2] = 1.0                                      # p_i = e_3 on S
    emb[:, ~in_s, 3] = 1.0                                     # p_i = e_4 off S
    w_k = np.zeros((1, dim))
    w_k[0, 2] = 1.0
    w_q = np.zeros((1, dim))
    if embedding == "printed":
        emb[:, d - 1, 2], emb[:, d - 1, 3] = 1.0, 0.0          # p_d = e_3
        w_q[0, 2] = c
    elif embedding == "query":
        emb[:, d - 1, 4] = 1.0                                 # query coordinate e_5
        w_q[0, 4] = c
    else:
        raise ValueError(f"embedding must be 'query' or 'printed', got {embedding!r}")
    w_v = np.zeros((1, dim))
    w_v[0, 0] = 1.0
    grid = [n / k for n in range(k + 1)]
    mlp = interpolation_mlp_1d(grid, [(-1.0) ** n for n in range(k + 1)])
    return ParityTransformer(s, emb, w_q, w_k, w_v, mlp)


def proposition10_network(d: int, support: Sequence[int], *,
                          embedding: Literal["one_hot", "additive"] = "one_hot",
                          second_bias: SecondBias = "corrected") -> ParityTransformer:
    r"""Proposition 10's network: uniform attention (:math:`W_Q = W_K = 0`), value d·(token
    bit of each position), Lemma 11's MLP on the k support coordinates.

    Parameters
    ----------
    d : int
        The input length.
    support : sequence of int
        S.
    embedding : {'one_hot', 'additive'}, keyword-only
        The token-position embedding (default ``'one_hot'``).
    second_bias : {'corrected', 'printed'}, keyword-only
        Lemma 11's second-layer bias (default ``'corrected'``).

    Returns
    -------
    ParityTransformer
        The network.

    Examples
    --------
    >>> verify_on_all_inputs(proposition10_network(6, (1, 4))).accuracy
    1.0
    >>> verify_on_all_inputs(proposition10_network(6, (1, 4), second_bias="printed")).accuracy
    0.0
    """
    d, s = _check_parity_args(d, support)
    k = len(s)
    if embedding == "one_hot":
        dim = 2 * d
        emb = np.zeros((2, d, dim))
        for i in range(d):
            emb[0, i, 2 * i], emb[1, i, 2 * i + 1] = 1.0, 1.0
        w_v = np.zeros((d, dim))
        w_v[np.arange(d), 2 * np.arange(d) + 1] = float(d)      # d * z_i e_i, averaged: z
    elif embedding == "additive":
        dim = 2 + d
        emb = np.zeros((2, d, dim))
        emb[0, :, 0], emb[1, :, 1] = 1.0, 1.0
        emb[:, np.arange(d), 2 + np.arange(d)] = 1.0
        w_v = np.zeros((d, dim))
        w_v[:, 1] = float(d)                 # any value matrix: the average sees sum(z) only
    else:
        raise ValueError(f"embedding must be 'one_hot' or 'additive', got {embedding!r}")
    cube = ((np.arange(2**k)[:, None] >> np.arange(k)) & 1).astype(np.float64)
    inner = interpolation_mlp(cube, [(-1.0) ** int(r.sum()) for r in cube],
                              second_bias=second_bias)
    w1 = np.zeros((inner.weights[0].shape[0], d))
    w1[:, list(s)] = inner.weights[0]                           # read the support coordinates
    mlp = ReluMLP((w1, *inner.weights[1:]), inner.biases)
    zeros = np.zeros((1, dim))
    return ParityTransformer(s, emb, zeros, zeros, w_v, mlp)


def best_readout_accuracy(features: npt.ArrayLike, labels: npt.ArrayLike, *,
                          decimals: int = 9) -> float:
    """The accuracy of the best possible function of ``features`` (rows rounded to
    ``decimals``): the majority label of every group of equal rows -- an upper bound for any
    MLP reading these features.

    Parameters
    ----------
    features : array_like
        One row per input.
    labels : array_like
        One label per input.
    decimals : int, keyword-only
        Rounding of the rows before grouping (default 9).

    Returns
    -------
    float
        The accuracy in [0, 1].

    Examples
    --------
    >>> best_readout_accuracy([[0], [0], [1], [1]], [1, -1, 1, 1])   # row 0 is ambiguous
    0.75
    """
    f = np.atleast_2d(check_array("features", features, ndim=(1, 2)))
    decimals = check_int("decimals", decimals, minimum=0, maximum=15)
    if f.size and float(np.max(np.abs(f))) * 10.0**decimals >= 2.0**62:
        raise ValueError(f"features up to {float(np.max(np.abs(f))):.3g} rounded to {decimals} "
                         "decimals overflow int64 keys; lower decimals or rescale features")
    keys = np.round(f * 10.0**decimals).astype(np.int64)
    y = check_array("labels", labels, ndim=1, dtype=None)
    if y.dtype.kind not in "iufb":
        raise TypeError(f"labels must be numbers, got dtype {y.dtype}")
    if keys.shape[0] != y.shape[0]:
        raise ValueError(f"{keys.shape[0]} feature rows but {y.shape[0]} labels")
    order = np.lexsort(keys.T[::-1])
    new_group = np.concatenate([[True], np.any(np.diff(keys[order], axis=0) != 0, axis=1)])
    group = np.empty(len(y), dtype=np.int64)
    group[order] = np.cumsum(new_group) - 1
    _, label = np.unique(y, return_inverse=True)
    n_labels = int(label.max()) + 1
    counts = np.bincount(group.ravel() * n_labels + label.ravel(),
                         minlength=(int(group.max()) + 1) * n_labels)
    best = int(counts.reshape(-1, n_labels).max(axis=1).sum())
    return best / len(y)


@dataclass(frozen=True)
class ConstructionCheck:
    """A construction evaluated on all :math:`2^d` inputs.

    Parameters
    ----------
    d : int
        The input length.
    support : tuple of int
        S, the parity's support.
    accuracy : float
        Fraction of the :math:`2^d` inputs classified correctly.
    best_readout_accuracy : float
        The best accuracy any readout of the attention output could reach.
    max_attention_error : float
        :math:`\\max_z|\\mathrm{attn}(z) - n_S(z)/k|` (NaN for a vector attention output).
    hidden_widths : tuple of int
        The MLP's hidden widths.
    mlp_max_abs_entry, mlp_max_row_sum : float
        The largest MLP weight and the largest absolute row sum.
    value_max_abs_entry : float
        The largest value-matrix entry.
    """

    d: int
    support: tuple[int, ...]
    accuracy: float
    best_readout_accuracy: float
    max_attention_error: float
    hidden_widths: tuple[int, ...]
    mlp_max_abs_entry: float
    mlp_max_row_sum: float
    value_max_abs_entry: float


def verify_on_all_inputs(net: ParityTransformer) -> ConstructionCheck:
    """Accuracy of ``net`` on every :math:`z\\in\\{0,1\\}^d` (d <= 16), the best accuracy any
    readout of its attention output could reach, and the norms.

    ``max_attention_error`` is :math:`\\max_z|\\mathrm{attn}(z) - n_S(z)/k|` for a scalar
    attention output (Proposition 9), NaN otherwise.

    Parameters
    ----------
    net : ParityTransformer
        The network (d <= 16).

    Returns
    -------
    ConstructionCheck
        Accuracy, best readout, attention error and norms.

    Examples
    --------
    >>> check = verify_on_all_inputs(proposition10_network(6, (1, 4)))
    >>> check.accuracy, check.best_readout_accuracy, check.hidden_widths
    (1.0, 1.0, (16, 4))
    """
    check_instance("net", net, ParityTransformer, expected="a ParityTransformer",
                   hint="build it with proposition9_network or proposition10_network")
    d = check_int("d", net.d, minimum=2, maximum=MAX_VERIFY_DIMENSION)
    z = ((np.arange(2**d)[:, None] >> np.arange(d)) & 1).astype(np.int64)
    labels = (-1) ** z[:, list(net.support)].sum(axis=1)
    _, out = net.attention_output(z)
    pred = net.mlp(out)[:, 0]
    accuracy = float(np.mean(np.sign(pred) == labels))
    if out.shape[1] == 1:
        err = float(np.max(np.abs(out[:, 0] - z[:, list(net.support)].sum(axis=1)
                                  / len(net.support))))
    else:
        err = math.nan
    return ConstructionCheck(d, net.support, accuracy, best_readout_accuracy(out, labels), err,
                             net.mlp.hidden_widths, net.mlp.max_abs_entry, net.mlp.max_row_sum,
                             float(np.max(np.abs(net.w_v))))
