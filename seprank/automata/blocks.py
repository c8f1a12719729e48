"""Transformer layers with explicit weights for the group constructions of 004 §3.4.4.3
(:mod:`seprank.automata.group_products`): a :class:`Block` is one layer -- attention heads
:math:`(W_Q, W_K, W_V, W_C)` added to ``keep_attn * x`` and a ReLU MLP added to
``keep_mlp * y`` (``keep`` is the residual connection restricted to some channels, as the
chapter's "residual connections in the H channel").  Blocks are placed on some channels of a
wider stream (:meth:`Block.relocate`) and run side by side on disjoint channels
(:meth:`Block.parallel`, Lemma 17), their MLPs merged block-diagonally.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from seprank.automata.layers import MLP, attention
from seprank.core.types import FloatArray

__all__ = ["Block"]

Heads = tuple[tuple[FloatArray, FloatArray, FloatArray, FloatArray], ...]


@dataclass(frozen=True)
class Block:
    """One Transformer layer on a stream of ``d`` channels:
    ``y = keep_attn * x + sum_h attention_h(x)``, ``z = keep_mlp * y + mlp(y)``.

    Parameters
    ----------
    heads : sequence of head weights
        The attention heads.
    mlp : MLP or None
        The MLP (None: none).
    keep_attn : numpy.ndarray
        Per channel, the residual factor of x around the attention (1: kept, 0: dropped).
    keep_mlp : numpy.ndarray
        Per channel, the residual factor of y around the MLP (1: kept, 0: dropped).
    """

    heads: Heads
    mlp: MLP | None
    keep_attn: FloatArray
    keep_mlp: FloatArray

    @classmethod
    def identity(cls, d: int) -> Block:
        """A layer that changes nothing (residual connections, no heads, no MLP).

        Parameters
        ----------
        d : int
            The number of channels.

        Returns
        -------
        Block
            The identity layer.
        """
        return cls((), None, np.ones(d), np.ones(d))

    def __call__(self, X: FloatArray) -> FloatArray:
        Y = X * self.keep_attn
        for head in self.heads:
            Y = Y + attention(X, *head)
        if self.mlp is None:
            return Y * self.keep_mlp if not np.all(self.keep_mlp == 1) else Y
        return Y * self.keep_mlp + self.mlp(Y)

    def relocate(self, index: Sequence[int], d: int) -> Block:
        """The same layer on channels ``index`` of a ``d``-channel stream (identity on the
        other channels).

        Parameters
        ----------
        index : sequence of int
            The channels of the new stream this layer acts on.
        d : int
            The new stream's number of channels.

        Returns
        -------
        Block
            The relocated layer.
        """
        idx = list(index)
        heads = []
        for W_Q, W_K, W_V, W_C in self.heads:
            Q, K, V = (np.zeros((d, W.shape[1])) for W in (W_Q, W_K, W_V))
            Q[idx], K[idx], V[idx] = W_Q, W_K, W_V
            C = np.zeros((W_C.shape[0], d))
            C[:, idx] = W_C
            heads.append((Q, K, V, C))
        mlp = None
        if self.mlp is not None:
            layers = list(self.mlp.layers)
            W1 = np.zeros((d, layers[0][0].shape[1]))
            W1[idx] = layers[0][0]
            WL = np.zeros((layers[-1][0].shape[0], d))
            WL[:, idx] = layers[-1][0]
            bL = np.zeros(d)
            bL[idx] = layers[-1][1]
            if len(layers) == 1:
                raise ValueError("an MLP block needs at least one hidden layer")
            mlp = MLP(((W1, layers[0][1]), *layers[1:-1], (WL, bL)))
        ka, km = np.ones(d), np.ones(d)
        ka[idx], km[idx] = self.keep_attn, self.keep_mlp
        return Block(tuple(heads), mlp, ka, km)

    @staticmethod
    def parallel(blocks: Sequence[Block]) -> Block:
        """Layers on disjoint channels of the same stream, run side by side (Lemma 17).

        Parameters
        ----------
        blocks : sequence of Block
            Layers on disjoint channels.

        Returns
        -------
        Block
            The combined layer.
        """
        heads = tuple(h for b in blocks for h in b.heads)
        mlps = [b.mlp for b in blocks if b.mlp is not None]
        keep_a = np.prod([b.keep_attn for b in blocks], axis=0)
        keep_m = np.prod([b.keep_mlp for b in blocks], axis=0)
        return Block(heads, _block_diagonal(mlps) if mlps else None, keep_a, keep_m)

    @property
    def max_abs_weight(self) -> float:
        vals = [float(np.abs(W).max(initial=0)) for head in self.heads for W in head]
        if self.mlp is not None:
            vals.append(self.mlp.max_abs_weight)
        return max(vals, default=0.0)


def _deepen(mlp: MLP, n_layers: int) -> MLP:
    """The same function with ``n_layers`` layers: identity layers on the (non-negative)
    hidden units of the first layer."""
    layers = list(mlp.layers)
    while len(layers) < n_layers:
        width = layers[0][0].shape[1]
        layers.insert(1, (np.eye(width), np.zeros(width)))
    return MLP(tuple(layers))


def _block_diagonal(mlps: Sequence[MLP]) -> MLP:
    """The sum of MLPs reading and writing the same stream, with hidden units side by side."""
    depth = max(len(m.layers) for m in mlps)
    deep = [_deepen(m, depth) for m in mlps]
    layers = []
    for i in range(depth):
        Ws = [m.layers[i][0] for m in deep]
        bs = [m.layers[i][1] for m in deep]
        if i == 0:
            W = np.hstack(Ws)
            b = np.concatenate(bs)
        elif i == depth - 1:
            W = np.vstack(Ws)
            b = np.sum(bs, axis=0)
        else:
            W = _blockdiag(Ws)
            b = np.concatenate(bs)
        layers.append((W, b))
    return MLP(tuple(layers))


def _blockdiag(Ws: Sequence[FloatArray]) -> FloatArray:
    rows = sum(W.shape[0] for W in Ws)
    cols = sum(W.shape[1] for W in Ws)
    out = np.zeros((rows, cols))
    r = c = 0
    for W in Ws:
        out[r:r + W.shape[0], c:c + W.shape[1]] = W
        r, c = r + W.shape[0], c + W.shape[1]
    return out
