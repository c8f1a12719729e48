r"""The tied-softmax autoregressive loss of eq. 5 and its exact gradient (hand-written backprop).

Parameters :math:`\theta = (W^{Q}, W^{K}, W^{V}, W^{O}, M^V)`: the attention weights of eq. 1
(per layer l and head h) and the vocabulary embedding :math:`M^V \in \mathbb R^{d_x\times V}`.
For a sentence :math:`S_1 = (w^1..w^N)` and the sentence-association vector a (eq. 8),

.. math::

    X^0_j = M^V_{:, w^j} \odot a, \qquad Y = g_W(X^0) \ \text{(eq. 1, L layers)}, \\
    \mathcal L(S_1; a) = -\sum_{j=1}^{N-1}
        \log \operatorname{softmax}\big((M^V)^T y_j\big)_{w^{j+1}}.

The output projection :math:`(M^V)^T y_j` is tied to the embedding but is *not* an "input
embedding use", so it is not multiplied by a (notes §1.5, decision); the loss runs over
j = 1..N-1 because :math:`w^{N+1}` is undefined in eq. 5 (notes §7.2, decision); attention is
bidirectional as in eq. 1.

Backward pass (notes §1.6), per layer and head with :math:`Q = XW^{Q T}`, :math:`K = XW^{K T}`,
:math:`\hat V = XW^{V T}`, :math:`A = QK^T`, :math:`O = A\hat V`, ``out += O W^{O T}`` and upstream
:math:`G = \partial\mathcal L/\partial\,\mathrm{out}`:

.. math::

    \partial W^O = G^T O,\ \partial O = G W^O,\ \partial A = \partial O\, \hat V^T,\
    \partial \hat V = A^T \partial O,\ \partial Q = \partial A\, K,\ \partial K = \partial A^T Q,\\
    \partial W^Q = \partial Q^T X,\ \partial W^K = \partial K^T X,\
    \partial W^V = \partial\hat V^T X,\
    \partial X \mathrel{+}= \partial Q\, W^Q + \partial K\, W^K + \partial \hat V\, W^V;

logits: with :math:`g_j = \operatorname{softmax}(\ell_j) - e_{w^{j+1}}`,
:math:`\partial y_j = M^V g_j` and :math:`\partial M^V \mathrel{+}= y_j g_j^T`; embedding path:
:math:`\partial M^V_{:, w^j} \mathrel{+}= \partial X^0_j \odot a`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.attention import LinearAttention
from seprank.core.domains import Domain, FloatDomain
from seprank.core.errors import UnboundedGradientError
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import Array
from seprank.core.validation import check_float, check_instance, check_int
from seprank.evaluators import register_evaluator

__all__ = ["LanguageModel", "UnboundedGradientError", "forward_with_caches", "lm_loss",
           "lm_loss_and_gradient"]


def _finite(x: Array, what: str) -> Array:
    if not np.all(np.isfinite(x)):
        raise UnboundedGradientError(
            f"{what} is not finite (overflow): the bounded-gradient regime the theorems assume "
            "(Λ_max) does not hold here; use smaller weights, embeddings or templates"
        )
    return x


@dataclass(frozen=True)
class LanguageModel:
    r"""Parameters :math:`\theta = (W^Q, W^K, W^V, W^O, M^V)`: a network and its vocabulary
    embedding, optionally with leading batch axes.

    Parameters
    ----------
    network : LinearAttention
        The attention weights :math:`W^Q, W^K, W^V, W^O` of eq. 1 (no residual), held as
        float64 (or complex128) -- a network with integer or Fraction weights is copied to
        floats; batch axes (one model per batch entry, e.g. the gradients of a batch of a's)
        are the network's :attr:`~seprank.LinearAttention.batch_shape`.  Depth, heads and
        width are the network's.
    embedding : array_like, shape (..., d_x, V)
        :math:`M^V` (column w embeds token w; also the tied output projection), with the
        network's batch axes.

    References
    ----------
    .. [1] 000 / 001, eq. 5 and Theorem 1's bounded
       gradients; notes docs/notes/seed_incontext_bias.md §1.6.

    Examples
    --------
    >>> lm = LanguageModel.random(depth=1, width=2, vocab=3, seed=0)
    >>> net = lm.network               # depth, heads, width, batch axes: the network's
    >>> net.depth, net.width, net.heads, lm.vocab, net.batch_shape
    (1, 2, 1, 3, ())
    >>> LanguageModel(LinearAttention.random(depth=1, width=2, seed=0), np.ones((2, 3))).network
    LinearAttention(L=1, d_x=2, H=1, d_a=2, residual=False, weights=float)
    """

    network: LinearAttention
    embedding: Array

    def __post_init__(self) -> None:
        net = check_instance("network", self.network, LinearAttention,
                             expected="a seprank.LinearAttention",
                             hint="build one with LinearAttention(query, key, value, output)")
        if net.residual:
            raise ValueError("paper 000/001 analyse eq. 1 without residual connections; build "
                             "the network with residual=False")
        weights = net.query, net.key, net.value, net.output
        if not all(w.dtype in (np.float64, np.complex128) for w in weights):
            for name, w in zip(("query", "key", "value", "output"), weights, strict=True):
                if w.dtype.kind not in "fciuO":
                    raise TypeError(f"the {name} weights must be numeric (got dtype {w.dtype})")
            q, k, v, o = (_floats(w) for w in weights)
            net = LinearAttention(q, k, v, o)
        E = np.asarray(self.embedding)
        if E.shape[:-1] != (*net.batch_shape, net.width):
            raise ValueError(f"embedding must have shape {(*net.batch_shape, net.width)} + (V,), "
                             f"got {E.shape}")
        if E.dtype.kind not in "fciu":
            raise TypeError(f"embedding must be a numeric array (got dtype {E.dtype})")
        E = E.astype(np.complex128 if E.dtype.kind == "c" else np.float64)
        if not np.all(np.isfinite(E)):
            raise ValueError("the parameter embedding contains NaN or infinite entries")
        object.__setattr__(self, "network", net)
        object.__setattr__(self, "embedding", E)

    # --- construction --------------------------------------------------------------------------

    @classmethod
    def from_arrays(cls, query: npt.ArrayLike, key: npt.ArrayLike, value: npt.ArrayLike,
                    output: npt.ArrayLike, embedding: npt.ArrayLike) -> LanguageModel:
        """The model of the five parameter arrays (the inverse of :attr:`arrays`).

        Parameters
        ----------
        query, key, value, output : array_like
            The weights, shape ``(L, H, d_a, d_x)`` (output: ``(L, H, d_x, d_a)``).
        embedding : array_like
            The embedding matrix, shape ``(d_x, V)``.

        Returns
        -------
        LanguageModel
            The model.
        """
        q, k, v, o, E = (np.asarray(w) for w in (query, key, value, output, embedding))
        return cls(LinearAttention(q, k, v, o), E)

    @classmethod
    def random(cls, *, depth: int, width: int, vocab: int, heads: int = 1,
               weight_scale: float = 0.6, embedding_scale: float = 0.8,
               seed: SeedLike = None) -> LanguageModel:
        """Gaussian weights ``weight_scale * N(0, 1)`` and embedding ``embedding_scale * N(0, 1)``
        (the scales of notes PC-5).

        Parameters
        ----------
        depth : int, keyword-only
            L.
        width : int, keyword-only
            :math:`d_x`.
        vocab : int, keyword-only
            V, the vocabulary size.
        heads : int, keyword-only
            H (default 1).
        weight_scale : float, keyword-only
            Standard deviation of the weights (default 0.6).
        embedding_scale : float, keyword-only
            Standard deviation of the embedding entries (default 0.8).
        seed : int or numpy.random.Generator, optional, keyword-only
            Seeds the draw.

        Returns
        -------
        LanguageModel
            The model.
        """
        depth, width = check_int("depth L", depth), check_int("width d_x", width)
        vocab, heads = check_int("vocab V", vocab), check_int("heads H", heads)
        weight_scale = check_float("weight_scale", weight_scale, positive=True)
        embedding_scale = check_float("embedding_scale", embedding_scale, positive=True)
        if width % heads:
            raise ValueError(f"heads H = {heads} must divide width d_x = {width}")
        guard_memory(2 * (4 * array_bytes((depth, heads, width // heads, width))
                          + array_bytes((width, vocab))),
                     what=f"the parameters of a depth-{depth}, width-{width} language model",
                     fix="use a smaller width, depth or vocab")
        rng = as_generator(seed)
        d_a = width // heads
        s = (depth, heads, d_a, width)
        return cls.from_arrays(
            weight_scale * rng.standard_normal(s), weight_scale * rng.standard_normal(s),
            weight_scale * rng.standard_normal(s),
            weight_scale * rng.standard_normal((depth, heads, width, d_a)),
            embedding_scale * rng.standard_normal((width, vocab)))

    # --- shape ---------------------------------------------------------------------------------

    @property
    def vocab(self) -> int:
        return int(self.embedding.shape[-1])

    @property
    def arrays(self) -> tuple[Array, Array, Array, Array, Array]:
        """:math:`(W^Q, W^K, W^V, W^O, M^V)`."""
        net = self.network
        return (net.query, net.key, net.value, net.output, self.embedding)

    def step(self, gradient: LanguageModel, eta: float) -> LanguageModel:
        """One SGD step :math:`\\theta - \\eta\\,\\nabla_\\theta` (all parameters, eq. 5).

        Parameters
        ----------
        gradient : LanguageModel
            The gradient (same shapes, unbatched).
        eta : float
            The learning rate η.

        Returns
        -------
        LanguageModel
            The updated model.
        """
        return LanguageModel.from_arrays(*(w - eta * g for w, g in zip(
            self.arrays, gradient.arrays, strict=True)))

    def flat(self) -> Array:
        """All parameters concatenated (unbatched), for finite-difference checks.

        Returns
        -------
        numpy.ndarray
            1-D array of every parameter.
        """
        return np.concatenate([w.ravel() for w in self.arrays])

    def with_flat(self, theta: Array) -> LanguageModel:
        """The model with parameters replaced by ``theta`` (inverse of :meth:`flat`).

        Parameters
        ----------
        theta : numpy.ndarray
            1-D parameters, as :meth:`flat` returns them.

        Returns
        -------
        LanguageModel
            The model with those parameters.
        """
        parts, start = [], 0
        for w in self.arrays:
            parts.append(np.asarray(theta[start:start + w.size]).reshape(w.shape))
            start += w.size
        return LanguageModel.from_arrays(*parts)

    def abs_range(self) -> tuple[float, float]:
        """(min, max) of :math:`|\\theta|` over all parameters.

        Returns
        -------
        (float, float)
            The smallest and largest :math:`|\\theta|`.
        """
        flat = np.concatenate([np.abs(w).ravel() for w in self.arrays])
        return float(flat.min()), float(flat.max())


def _floats(w: Array) -> Array:
    """Weights as float64 (complex128 when complex); exact objects converted one by one."""
    if w.dtype == object:
        return np.vectorize(float, otypes=[float])(w)
    return w.astype(np.complex128 if w.dtype.kind == "c" else np.float64)


def _check_lm(lm: Any) -> None:
    check_instance("lm", lm, LanguageModel, expected="a LanguageModel",
                   hint="build one with LanguageModel.random(...) or "
                        "LanguageModel(network, embedding)")


def _check_sentence(sentence: Any, vocab: int) -> tuple[int, ...]:
    if isinstance(sentence, str | bytes) or not hasattr(sentence, "__iter__"):
        raise TypeError(f"sentence must be a sequence of integer token ids, got {sentence!r}")
    tokens = tuple(check_int(f"token at position {pos} of the sentence", w, None)
                   for pos, w in enumerate(sentence))
    for pos, w in enumerate(tokens):
        if not 0 <= w < vocab:
            raise ValueError(f"token {w} at position {pos} of the sentence is out of vocabulary "
                             f"(0..{vocab - 1})")
    if len(tokens) < 2:
        raise ValueError("the next-token loss over S1 (j = 1..N-1) needs N >= 2 tokens")
    return tokens


def _embed(lm: LanguageModel, tokens: tuple[int, ...], a: Array) -> Array:
    """X^0 (B, N, d_x) = M^V[:, w^j] * a, for a of shape (B, d_x)."""
    E = lm.embedding[:, list(tokens)].T  # (N, d_x)
    return E[None, :, :] * a[:, None, :]


@register_evaluator(
    "float-forward-with-caches", form="sequence", domains=("float",),
    accepts="an unbatched float or complex network (integer weights are used as floats) "
            "without residual connections; X of shape (B, T, d_x)")
def forward_with_caches(net: LinearAttention, X: npt.ArrayLike, *,
                        domain: Domain | None = None,
                        caches: list[dict[str, Array]] | None = None) -> Array:
    r"""The network output on ``X`` (B, T, d_x) in floating point, head by head through the
    intermediates of eq. 1 (:math:`Q, K, \hat V, A = QK^T, O = A\hat V`), which are appended
    to ``caches`` per layer for the backward pass of :func:`lm_loss_and_gradient`.

    A registered evaluator of :meth:`seprank.LinearAttention.__call__`
    (:mod:`seprank.evaluators`, form ``'sequence'``, float only): the same values as
    ``net(X)`` up to rounding.

    Parameters
    ----------
    net : LinearAttention
        The network.
    X : array_like
        Inputs, shape ``(B, T, d_x)``.
    domain : Domain, optional, keyword-only
        Only float domains are accepted (None: float64).
    caches : list of dict, optional, keyword-only
        Receives the intermediates of every layer.

    Returns
    -------
    numpy.ndarray
        The output, shape ``(B, T, d_x)``.

    Examples
    --------
    >>> net = LinearAttention.random(depth=2, width=2, weights="float", seed=0)
    >>> X = np.random.default_rng(1).standard_normal((3, 4, 2))
    >>> caches = []
    >>> bool(np.allclose(forward_with_caches(net, X, caches=caches), net(X), rtol=1e-12))
    True
    >>> len(caches), caches[0]["A"].shape      # per layer; (B, H, T, T) attention scores
    (2, (3, 1, 4, 4))
    """
    check_instance("net", net, LinearAttention, expected="a seprank.LinearAttention",
                   hint="build one with LinearAttention(query, key, value, output)")
    if domain is not None and not isinstance(domain, FloatDomain):
        raise TypeError(f"the forward pass with caches computes in floats; got domain={domain!r}")
    if net.batch_shape or net.residual:
        raise ValueError("the forward pass with caches needs one network without residual "
                         "connections")
    Z = np.asarray(X)
    if Z.ndim != 3 or Z.shape[-1] != net.width or Z.dtype.kind not in "fciu":
        raise ValueError(f"X must be a numeric array of shape (B, T, d_x = {net.width}), got "
                         f"{Z.shape} ({Z.dtype})")
    if Z.dtype.kind in "fc" and not np.all(np.isfinite(Z)):
        raise ValueError("X contains NaN or infinite entries")
    arrays = (Z, net.query, net.key, net.value, net.output)
    complex_ = Z.dtype.kind == "c" or net.weight_kind == "complex"
    Z, *weights = (_floats(w) if w.dtype == object else
                   w.astype(np.complex128 if complex_ else np.float64, copy=False)
                   for w in arrays)
    for layer in range(net.depth):
        WQ, WK, WV, WO = (w[layer] for w in weights)
        Xh = Z[:, None, :, :]  # (B, 1, T, d_x)
        Q = Xh @ np.swapaxes(WQ, -1, -2)  # (B, H, T, d_a)
        K = Xh @ np.swapaxes(WK, -1, -2)
        Vv = Xh @ np.swapaxes(WV, -1, -2)
        A = Q @ np.swapaxes(K, -1, -2)  # (B, H, T, T)
        O = A @ Vv
        out = np.sum(O @ np.swapaxes(WO, -1, -2), axis=1)  # (B, T, d_x)
        if caches is not None:
            caches.append({"X": Z, "Q": Q, "K": K, "V": Vv, "A": A, "O": O})
        Z = out
    return Z


def _log_softmax(logits: Array) -> Array:
    shift = np.max(logits.real, axis=-1, keepdims=True)
    z = logits - shift
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))


def _as_batch(lm: LanguageModel, a: npt.ArrayLike | None) -> Array:
    d_x = lm.network.width
    if lm.network.batch_shape:
        raise ValueError("the loss is defined for an unbatched LanguageModel")
    if a is None:
        return np.ones((1, d_x))
    arr = np.asarray(a)
    if arr.ndim not in (1, 2) or arr.shape[-1] != d_x:
        raise ValueError(f"a must have shape (d_x,) or (batch, d_x) with d_x = {d_x}, "
                         f"got {arr.shape}")
    arr = arr.reshape(-1, d_x)
    if arr.dtype.kind not in "fciu":
        raise TypeError("a must be numeric")
    return _finite(arr.astype(np.complex128 if arr.dtype.kind == "c" else np.float64), "a")


def lm_loss(lm: LanguageModel, sentence: Any, a: npt.ArrayLike | None = None) -> Array:
    """:math:`\\mathcal L(S_1; a)` for a batch of a's (shape ``(batch,)``; ``a=None``: a = 1).

    Works with complex parameters (complex-step differentiation in the tests).

    Parameters
    ----------
    lm : LanguageModel
        The model (unbatched).
    sentence : sequence of int
        :math:`S_1`, token ids.
    a : array_like, optional
        The vectors a, shape ``(batch, d_x)`` (None: a = 1).

    Returns
    -------
    numpy.ndarray
        The loss for each a, shape ``(batch,)``.

    References
    ----------
    .. [1] 000 / 001, eq. 5 and Theorem 1's bounded
       gradients; notes docs/notes/seed_incontext_bias.md §1.6.

    Examples
    --------
    >>> lm = LanguageModel.random(depth=1, width=2, vocab=3, seed=0)
    >>> float(lm_loss(lm, [0, 1, 2])[0]) > 0
    True
    """
    _check_lm(lm)
    tokens = _check_sentence(sentence, lm.vocab)
    a_b = _as_batch(lm, a)
    Y = forward_with_caches(lm.network, _embed(lm, tokens, a_b))
    logits = Y[:, :-1, :] @ lm.embedding  # (B, N-1, V)
    logp = _log_softmax(logits)
    targets = np.array(tokens[1:])
    picked = np.take_along_axis(logp, targets[None, :, None], axis=-1)[..., 0]
    return -np.sum(picked, axis=-1)


def lm_loss_and_gradient(lm: LanguageModel, sentence: Any,
                         a: npt.ArrayLike | None = None) -> tuple[Array, LanguageModel]:
    r"""Loss and exact gradient :math:`\partial\mathcal L(S_1; a)/\partial\theta`, batched over a.

    Returns ``(loss (B,), gradient)`` with the gradient a :class:`LanguageModel` whose arrays
    carry a leading batch axis B (one gradient per a).  Raises
    :class:`UnboundedGradientError` when anything overflows.

    Parameters
    ----------
    lm : LanguageModel
        The model (unbatched).
    sentence : sequence of int
        :math:`S_1`, token ids.
    a : array_like, optional
        The vectors a, shape ``(batch, d_x)`` (None: a = 1).

    Returns
    -------
    loss : numpy.ndarray
        Shape ``(B,)``.
    gradient : LanguageModel
        Arrays with a leading batch axis B.

    References
    ----------
    .. [1] Paper 000/001, eq. 5 (loss, all parameters updated) and App. B notation
       :math:`f(a)^j = -\partial\mathcal L/\partial M^V_{w_2^j}`.  Notes §1.6.

    Examples
    --------
    >>> lm = LanguageModel.random(depth=2, width=2, vocab=3, seed=0)
    >>> loss, g = lm_loss_and_gradient(lm, [0, 1, 2], np.ones((4, 2)))
    >>> loss.shape, g.network.batch_shape, g.embedding.shape
    ((4,), (4,), (4, 2, 3))
    """
    _check_lm(lm)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported, not warned
        return _loss_and_gradient(lm, _check_sentence(sentence, lm.vocab), _as_batch(lm, a))


def _loss_and_gradient(lm: LanguageModel, tokens: tuple[int, ...],
                       a_b: Array) -> tuple[Array, LanguageModel]:
    B, N = a_b.shape[0], len(tokens)
    X0 = _embed(lm, tokens, a_b)
    caches: list[dict[str, Array]] = []
    Y = forward_with_caches(lm.network, X0, caches=caches)
    _finite(Y, "the network output on S1")
    M = lm.embedding
    logits = Y[:, :-1, :] @ M  # (B, N-1, V)
    logp = _log_softmax(logits)
    targets = np.array(tokens[1:])
    loss = -np.sum(np.take_along_axis(logp, targets[None, :, None], axis=-1)[..., 0], axis=-1)
    G = np.exp(logp)
    G[:, np.arange(N - 1), targets] -= 1.0  # softmax - onehot
    dM = np.einsum("btd,btv->bdv", Y[:, :-1, :], G)
    dX = np.zeros_like(Y)
    dX[:, :-1, :] = G @ M.T
    net = lm.network
    grads = {name: np.zeros((B, *w.shape), dtype=np.result_type(w, a_b))
             for name, w in (("q", net.query), ("k", net.key), ("v", net.value),
                             ("o", net.output))}
    for layer in reversed(range(net.depth)):
        c = caches[layer]
        WQ, WK, WV, WO = (w[layer] for w in (net.query, net.key, net.value, net.output))
        dOut = dX[:, None, :, :]  # (B, 1, T, d_x), the same for every head
        grads["o"][:, layer] = np.swapaxes(dOut, -1, -2) @ c["O"]  # (B, H, d_x, d_a)
        dO = dOut @ WO  # (B, H, T, d_a)
        dA = dO @ np.swapaxes(c["V"], -1, -2)  # (B, H, T, T)
        dV = np.swapaxes(c["A"], -1, -2) @ dO
        dQ = dA @ c["K"]
        dK = np.swapaxes(dA, -1, -2) @ c["Q"]
        Xh = c["X"][:, None, :, :]
        grads["q"][:, layer] = np.swapaxes(dQ, -1, -2) @ Xh  # (B, H, d_a, d_x)
        grads["k"][:, layer] = np.swapaxes(dK, -1, -2) @ Xh
        grads["v"][:, layer] = np.swapaxes(dV, -1, -2) @ Xh
        dX = np.sum(dQ @ WQ + dK @ WK + dV @ WV, axis=1)  # (B, T, d_x)
    # embedding path: X0_j = M[:, w^j] * a
    contrib = dX * a_b[:, None, :]  # (B, N, d_x)
    for j, w in enumerate(tokens):
        dM[:, :, w] += contrib[:, j, :]
    for name, g in (*grads.items(), ("embedding", dM)):
        _finite(g, f"the gradient of the loss w.r.t. {name}")
    gradient = LanguageModel.from_arrays(grads["q"], grads["k"], grads["v"], grads["o"], dM)
    return _finite(loss, "the loss"), gradient
