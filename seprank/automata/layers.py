r"""The two blocks every construction of 004 Chapter 3 is made of, in numpy.

*Attention* (004 §3.1): :math:`f_{\rm attn}(X) = \mathrm{CausalAttn}(X W_Q W_K^\top X^\top)
X W_V W_C` -- row t of the score matrix holds :math:`\langle W_Q^\top x_t, W_K^\top x_{t'}\rangle`
(query t, key t'), the causal mask keeps :math:`t' \le t`; soft (softmax) or hard (uniform
over the maximal scores).

*ReLU MLP*: :math:`x \mapsto W_L\,\sigma(\cdots\sigma(W_1 x + b_1)\cdots) + b_L` applied to each
position (row-vector convention here: ``x @ W + b``).

The interpolation gadgets of §3.4.4.1 build MLPs with explicit weights:
:func:`bump_mlp` (Lemma 10: a 2-layer ReLU network equal to a 1-D function on a finite set,
robust to :math:`|\xi|\le\Delta/4`) and :func:`threshold_mlp` (Lemma 12).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.memory import array_bytes, guard_memory
from seprank.core.types import FloatArray
from seprank.core.validation import check_array, check_bool, check_float, check_int

__all__ = ["MLP", "attention", "bump_mlp", "threshold_mlp"]

#: Batches are processed in chunks whose score tensors hold at most this many entries
#: (2**22 float64 = 32 MiB).
ATTENTION_CHUNK_ENTRIES = 2**22


def attention(X: npt.ArrayLike, W_Q: npt.ArrayLike, W_K: npt.ArrayLike, W_V: npt.ArrayLike,
              W_C: npt.ArrayLike, *, causal: bool = True, hard: bool = False,
              return_weights: bool = False) -> Any:
    r"""One attention head on a batch ``X`` of shape ``(B, N, d)`` (or ``(N, d)``).

    Parameters
    ----------
    X : array_like
        Inputs, rows are positions.
    W_Q, W_K, W_V : array_like
        Shape ``(d, k)``.
    W_C : array_like
        Shape ``(k, d_out)`` (the thesis writes :math:`W_C^\top \in \mathbb R^{d\times k}`,
        i.e. d_out = d).
    causal : bool, keyword-only
        Mask keys after the query (the chapter's default).
    hard : bool, keyword-only
        Hard attention: uniform weights on the maximal scores instead of the softmax.
    return_weights : bool, keyword-only
        Also return the attention weights ``(B, N, N)``.

    Returns
    -------
    ndarray or (ndarray, ndarray)
        The head output :math:`\alpha X W_V W_C`, shape ``(B, N, d_out)``.

    Examples
    --------
    >>> X = np.eye(3)[None]                    # three positions, one-hot
    >>> out, a = attention(X, np.zeros((3, 1)), np.zeros((3, 1)), np.eye(3), np.eye(3),
    ...                    return_weights=True)
    >>> a[0]                                   # uniform causal attention: row t is 1/t
    array([[1.        , 0.        , 0.        ],
           [0.5       , 0.5       , 0.        ],
           [0.33333333, 0.33333333, 0.33333333]])
    """
    Xa = check_array("X", X, ndim=(2, 3), min_size=0)
    squeeze = Xa.ndim == 2
    if squeeze:
        Xa = Xa[None]
    Q, K, V, C = (check_array(name, W, ndim=2) for name, W in
                  (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V), ("W_C", W_C)))
    causal = check_bool("causal", causal)
    hard = check_bool("hard", hard)
    return_weights = check_bool("return_weights", return_weights)
    d = Xa.shape[2]
    if Q.shape[0] != d or K.shape != Q.shape or V.shape[0] != d or C.ndim != 2 \
            or C.shape[0] != V.shape[1]:
        raise ValueError(f"weight shapes W_Q {Q.shape}, W_K {K.shape}, W_V {V.shape}, W_C "
                         f"{C.shape} do not fit d = {d}")
    N = Xa.shape[1]
    guard_memory(array_bytes((min(Xa.shape[0], max(1, ATTENTION_CHUNK_ENTRIES // max(N * N, 1))),
                              N, N)) * 4 + array_bytes((N, N), bool)
                 + (array_bytes((Xa.shape[0], N, N)) if return_weights else 0)
                 + array_bytes((Xa.shape[0], N, C.shape[1])),
                 what=f"attention over {N} positions", fix="use shorter inputs")
    mask = np.tril(np.ones((N, N), dtype=bool)) if causal else np.ones((N, N), dtype=bool)
    outs, weights = [], []
    chunk = max(1, ATTENTION_CHUNK_ENTRIES // (N * N))
    for start in range(0, Xa.shape[0], chunk):
        Xc = Xa[start:start + chunk]
        scores = np.einsum("bik,bjk->bij", Xc @ Q, Xc @ K)
        scores = np.where(mask, scores, -np.inf)
        top = scores.max(axis=2, keepdims=True)
        w = (scores == top).astype(np.float64) if hard else np.exp(scores - top)
        w /= w.sum(axis=2, keepdims=True)
        outs.append(w @ (Xc @ V) @ C)
        if return_weights:
            weights.append(w)
    out = np.concatenate(outs)
    if squeeze:
        out = out[0]
    if not return_weights:
        return out
    W = np.concatenate(weights)
    return (out, W[0] if squeeze else W)


@dataclass(frozen=True)
class MLP:
    """A ReLU MLP with explicit weights: ``layers[i] = (W_i, b_i)``, ReLU between layers.

    Applied to the last axis (row vectors: ``x @ W + b``).

    Parameters
    ----------
    layers : tuple of (numpy.ndarray, numpy.ndarray)
        ``(W_i, b_i)`` per layer.
    """

    layers: tuple[tuple[FloatArray, FloatArray], ...]

    def __post_init__(self) -> None:
        if isinstance(self.layers, str | bytes) or not isinstance(self.layers, tuple | list) \
                or not self.layers:
            raise TypeError(f"layers must be a non-empty tuple of (W, b) pairs, got "
                            f"{self.layers!r}")
        checked: list[tuple[FloatArray, FloatArray]] = []
        for i, layer in enumerate(self.layers):
            if not isinstance(layer, tuple | list) or len(layer) != 2:
                raise TypeError(f"layers[{i}] must be a pair (W, b), got {layer!r}")
            W = check_array(f"layers[{i}] W", layer[0], ndim=2)
            b = check_array(f"layers[{i}] b", layer[1], shape=(W.shape[1],))
            if checked and checked[-1][0].shape[1] != W.shape[0]:
                raise ValueError(f"layers[{i}] takes {W.shape[0]} inputs, the layer below "
                                 f"gives {checked[-1][0].shape[1]}")
            checked.append((W, b))
        object.__setattr__(self, "layers", tuple(checked))

    def __call__(self, x: npt.ArrayLike) -> FloatArray:
        h = check_array("x", x, min_size=0)
        if h.ndim < 1 or h.shape[-1] != self.layers[0][0].shape[0]:
            raise ValueError(f"x must have {self.layers[0][0].shape[0]} entries on its last "
                             f"axis, got shape {h.shape}")
        for i, (W, b) in enumerate(self.layers):
            h = h @ W + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return h

    @property
    def widths(self) -> tuple[int, ...]:
        """Hidden widths (the outputs of every layer but the last)."""
        return tuple(W.shape[1] for W, _ in self.layers[:-1])

    @property
    def max_abs_weight(self) -> float:
        """The largest absolute entry of all weights and biases (the ∞-weight norm, 004 §3.1)."""
        return max(float(max(np.abs(W).max(initial=0), np.abs(b).max(initial=0)))
                   for W, b in self.layers)


def bump_mlp(points: npt.ArrayLike, values: npt.ArrayLike, delta: float, *,
             in_dim: int = 1, channel: int = 0) -> MLP:
    r"""Lemma 10: a 2-layer ReLU network with :math:`f_{\rm mlp}(x+\xi) = f(x)` for
    :math:`x\in\mathcal X`, :math:`|\xi|\le\Delta/4`, and 0 away from :math:`\mathcal X`.

    Each :math:`x_0` gets the flat-top bump (:math:`\Delta'=\Delta/4`)
    :math:`\psi_{x_0}(x)=(\frac{x-x_0+2\Delta'}{\Delta'})_+ - (\frac{x-x_0+\Delta'}{\Delta'})_+
    - (\frac{x-x_0-\Delta'}{\Delta'})_+ + (\frac{x-x_0-2\Delta'}{\Delta'})_+`; inner width
    :math:`4|\mathcal X|`, :math:`\|W_1\|_\infty = 4/\Delta`,
    :math:`\|b_1\|_\infty\le 4B_x/\Delta+2`, :math:`\|W_2\|_\infty\le B_y`.

    Parameters
    ----------
    points : array_like of float
        :math:`\mathcal X`, pairwise at least ``delta`` apart.
    values : array_like
        ``f(x)`` for each point, shape ``(|X|,)`` or ``(|X|, d_out)``.
    delta : float
        :math:`\Delta`.
    in_dim, channel : int, keyword-only
        The MLP reads coordinate ``channel`` of an ``in_dim``-dimensional input.

    Returns
    -------
    MLP
        The network.

    Examples
    --------
    >>> f = bump_mlp([0.0, 1.0, 2.0], [5.0, -1.0, 3.0], 1.0)
    >>> f(np.array([[0.2], [1.0], [1.75], [7.0]])).ravel()
    array([ 5., -1.,  3.,  0.])
    """
    x = check_array("points", points, ndim=1, min_size=0)
    delta = check_float("delta", delta, positive=True)
    if x.size and np.min(np.diff(np.sort(x)), initial=np.inf) < delta * (1 - 1e-12):
        raise ValueError("points must be pairwise at least delta apart (Lemma 10)")
    y = check_array("values", values, ndim=(1, 2), min_size=0)
    y = y[:, None] if y.ndim == 1 else y
    if y.shape[0] != x.size:
        raise ValueError(f"values has {y.shape[0]} rows for {x.size} points")
    in_dim = check_int("in_dim", in_dim, minimum=1)
    channel = check_int("channel", channel, minimum=0, maximum=in_dim - 1)
    guard_memory(array_bytes((in_dim + 2 + y.shape[1], 4 * x.size)),
                 what=f"a Lemma 10 network of width {4 * x.size} on {in_dim} inputs",
                 fix="use fewer points or a smaller in_dim")
    dp = delta / 4
    offsets = np.array([-2.0, -1.0, 1.0, 2.0]) * dp
    signs = np.array([1.0, -1.0, -1.0, 1.0])
    W1 = np.zeros((in_dim, 4 * x.size))
    W1[channel] = 1.0 / dp
    b1 = (-(x[:, None] + offsets[None, :]) / dp).ravel()
    W2 = (signs[None, :, None] * y[:, None, :]).reshape(4 * x.size, -1)
    return MLP(((W1, b1), (W2, np.zeros(W2.shape[1]))))


def threshold_mlp(delta: float) -> MLP:
    r"""Lemma 12: :math:`\psi(x) = (\frac{x+\Delta}{2\Delta})_+ - (\frac{x-\Delta}{2\Delta})_+`
    equals :math:`\mathbf 1[x > 0]` for :math:`|x|\ge\Delta` (inner width 2).

    Parameters
    ----------
    delta : float
        Δ > 0.

    Returns
    -------
    MLP
        The network.

    Examples
    --------
    >>> threshold_mlp(0.5)(np.array([[-1.0], [-0.5], [0.5], [3.0]])).ravel()
    array([0., 0., 1., 1.])
    """
    delta = check_float("delta", delta, positive=True)
    W1 = np.array([[1.0, 1.0]]) / (2 * delta)
    b1 = np.array([delta, -delta]) / (2 * delta)
    return MLP(((W1, b1), (np.array([[1.0], [-1.0]]), np.zeros(1))))
