r"""The architecture zoo, each a circuit: attention, convolutional, recurrent, state-space, MLP.

Every constructor takes keyword-only sizes and ``seed`` (random non-zero integer weights in
``[low, high]``, default [-5, 5]: generic with high probability -- use a few seeds -- and small
enough that exact evaluation stays cheap), and returns a :class:`~seprank.circuits.Circuit`.

* :func:`linear_attention` / :func:`from_linear_attention` -- 003, eq. 3 / eq. 12: the entry
  :math:`y^i_p` of linearized self-attention, layer by layer in the Gram form
  :math:`Y = Z \sum_h (W^{Q,h\,T} W^{K,h}) (Z^T Z) (W^{V,h\,T} W^{O,h\,T})`.
* :func:`incontext` / :func:`from_incontext` -- 000/001, eqs. 4 and 8: :math:`Z_{in}(a, b)`.
* :func:`shallow_cac`, :func:`deep_cac` -- convolutional arithmetic circuits (Cohen, Sharir &
  Shashua 2016, "On the expressive power of deep learning: a tensor analysis"; Cohen & Shashua
  2017, "Inductive bias of deep convolutional networks through pooling geometry"): 1x1
  convolutions (linear maps per position) and product pooling; ``pooling`` orders the positions
  before size-2 windows (``'contiguous'``: (0,1), (2,3), ...; ``'interleaved'``: the evens
  pooled together, then the odds).
* :func:`rac` -- recurrent arithmetic circuits (Levine, Sharir & Shashua 2018, "On the long-term
  memory of deep recurrent networks"): multiplicative integration
  :math:`h^l_t = (W^{H,l} h^l_{t-1}) \odot (W^{I,l} h^{l-1}_t)`, :math:`h^0_t = x_t`,
  :math:`h^l_0 = \mathbf 1`, output :math:`\langle W^O, h^L_T\rangle`; depth L unrolled.
* :func:`linear_ssm` -- linear state-space / linear recurrent models: ``'selective'``
  :math:`h_t = (\sum_k x_{t,k} A_k) h_{t-1}` (a state recurrence linear in the state with
  input-dependent transitions; a tensor train of bond dimension S), or ``'lti'``
  :math:`h_t = A h_{t-1} + B x_t`; output :math:`\langle c, h_T\rangle`.
* :func:`polynomial_mlp` -- :math:`a^T \sigma(W_L \cdots \sigma(W_1 \operatorname{vec} X))`
  with :math:`\sigma(z) = z^k`.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from seprank.attention import LinearAttention
from seprank.circuits.builder import CircuitBuilder
from seprank.circuits.circuit import Circuit
from seprank.circuits.program import Ref
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import Array
from seprank.core.validation import check_bool, check_choice, check_int
from seprank.incontext.representation import InContextRepresentation

__all__ = ["deep_cac", "from_incontext", "from_linear_attention", "incontext",
           "linear_attention", "linear_ssm", "polynomial_mlp", "rac", "shallow_cac"]


def _draw(rng: np.random.Generator, low: int, high: int, shape: tuple[int, ...]) -> Array:
    """Uniform non-zero integers in [low, high] (zero weights are not generic: they remove
    terms and lower ranks)."""
    if low <= 0 <= high and (low, high) != (0, 0):
        values = rng.integers(low, high, shape)   # high - low values, 0 skipped below
        values[values >= 0] += 1
        return values
    return rng.integers(low, high + 1, shape)


#: Nodes one constructor may emit (unrolled recurrences grow with n_inputs x depth).
MAX_NODES = 200_000


#: Bytes of one emitted node with its handle and its re-indexed copy in the circuit (measured:
#: about 700; a RAC over 6,000 steps, 30,000 nodes, takes 21 MiB).
NODE_BYTES = 2048
#: Bytes of one index of a ``take`` node (an int in the caller's list and in the node's tuple).
INDEX_BYTES = 80


def _guard(weights: int, nodes: int, what: str, fix: str, indices: int = 0) -> None:
    """Refuse before drawing: the weights (drawn as int64, kept as object entries), the
    unrolled nodes and the entries of ``take`` index lists."""
    if nodes > MAX_NODES:
        raise ValueError(f"{what} would unroll into about {nodes:,} nodes, above {MAX_NODES:,}; "
                         f"{fix}")
    guard_memory(array_bytes((weights,), object) + array_bytes((weights,), np.int64)
                 + NODE_BYTES * nodes + INDEX_BYTES * indices, what=what, fix=fix)


def _range(low: int, high: int) -> tuple[int, int]:
    low, high = check_int("low", low, None), check_int("high", high, None)
    if high < low:
        raise ValueError(f"need low <= high, got low={low}, high={high}")
    if low == high == 0:
        raise ValueError("low = high = 0 leaves no non-zero weight to draw; give a range "
                         "containing a non-zero integer, e.g. low=-5, high=5")
    return low, high


# --- attention (003) and the in-context representation (000/001) -------------------------------


def _attention_layers(b: CircuitBuilder, Z: Ref, net: LinearAttention, position: int,
                      coordinate: int) -> Ref:
    r"""The layers of ``net`` on Z (N, d); the entry (position, coordinate) of the last.

    Each layer is associated as :meth:`LinearAttention.cheaper_order` says for N positions
    (the value is the same): ``'gram'`` -- :math:`Z \sum_h KQ_h (Z^T Z) VO_h` -- or
    ``'scores'`` -- :math:`\sum_h [(Z\,KQ_h) Z^T] (Z\,VO_h)`; the last layer computes only
    the entry it returns."""
    d, N = net.width, Z.shape[0]
    order = net.cheaper_order(N)
    weights = {name: getattr(net, name) for name in ("query", "key", "value", "output")}
    for layer in range(net.depth):
        q, k, v, o = (b.const(weights[n][layer]) for n in ("query", "key", "value", "output"))
        kq = b.einsum("hak,hal->hkl", q, k)              # W^{Q T} W^K per head
        vo = b.einsum("ham,hoa->hmo", v, o)              # W^{V T} W^{O T} per head
        last = layer == net.depth - 1
        if order == "gram":
            mix_map = b.einsum("hkl,hmo->klmo", kq, vo)  # sum over heads (weights only)
            gram = b.einsum("nk,nl->kl", Z, Z)           # Z^T Z
            if not last:
                Y = b.einsum("nk,ko->no", Z, b.einsum("klmo,lm->ko", mix_map, gram))
            else:
                column = b.reshape(b.take(mix_map, 3, [coordinate]), (d, d, d))
                row = b.reshape(b.take(Z, 0, [position]), (d,))
                y = b.einsum("k,k->", row, b.einsum("klm,lm->k", column, gram))
        elif not last:
            scores = b.einsum("hnl,ml->hnm", b.einsum("nk,hkl->hnl", Z, kq), Z)
            Y = b.einsum("hnm,hmo->no", scores, b.einsum("mk,hko->hmo", Z, vo))
        else:
            row = b.reshape(b.take(Z, 0, [position]), (d,))
            scores = b.einsum("hl,ml->hm", b.einsum("k,hkl->hl", row, kq), Z)
            vo_p = b.reshape(b.take(vo, 2, [coordinate]), (net.heads, d))
            y = b.einsum("hm,hm->", scores, b.einsum("mk,hk->hm", Z, vo_p))
        if not last:
            Z = b.add(Z, Y) if net.residual else Y
            continue
        if net.residual:
            y = b.add(y, b.entry(Z, position, coordinate))
        return y
    raise ValueError("no layers")  # pragma: no cover - LinearAttention has L >= 1


def from_linear_attention(net: LinearAttention, *, n_inputs: int, position: int = 0,
                          coordinate: int = 0) -> Circuit:
    r"""The entry :math:`y^i_p` of a :class:`~seprank.LinearAttention` (integer weights) on
    ``n_inputs`` positions, as a circuit (003, eq. 3 / eq. 12).

    Parameters
    ----------
    net : LinearAttention
        One network (no batch axes) with integer (``'exact'``) weights.
    n_inputs : int
        N, the number of input positions (keyword-only, at least 1).
    position : int, default 0
        The output position p, in ``[0, n_inputs)``.
    coordinate : int, default 0
        The output coordinate i, in ``[0, net.width)``.

    Returns
    -------
    Circuit
        The entry y^i_p as a function of the inputs X of shape (N, d_x); its
        ``parameters`` count the entries of the four weight tensors of ``net``.

    Examples
    --------
    >>> net = LinearAttention.random(depth=2, width=2, seed=0, low=-3, high=3)
    >>> f = from_linear_attention(net, n_inputs=3, position=1, coordinate=0)
    >>> X = np.arange(6).reshape(1, 3, 2)
    >>> bool(f(X)[0] == net(X)[0, 1, 0])
    True
    """
    if not isinstance(net, LinearAttention):
        raise TypeError(f"net must be a seprank.LinearAttention, got {type(net).__name__}")
    if net.batch_shape or net.weight_kind != "exact":
        raise ValueError("a circuit needs one network (no batch axes) with integer weights")
    n_inputs = check_int("n_inputs", n_inputs, 1)
    position = check_int("position", position, 0, n_inputs - 1)
    coordinate = check_int("coordinate", coordinate, 0, net.width - 1)
    b = CircuitBuilder(n_inputs=n_inputs, dim=net.width)
    y = _attention_layers(b, b.input(), net, position, coordinate)
    return b.build(y, name=f"linear attention L={net.depth}, d_x={net.width}, H={net.heads}"
                            f"{', residual' if net.residual else ''}",
                   source="003, eq. 3 / eq. 12", parameters=4 * net.query.size)


def linear_attention(*, depth: int, width: int, n_inputs: int, heads: int = 1,
                     residual: bool = False, position: int = 0, coordinate: int = 0,
                     low: int = -50, high: int = 50, seed: SeedLike = None) -> Circuit:
    """003's network with :meth:`LinearAttention.random` weights (same seed, same weights), as
    the circuit of its entry (``position``, ``coordinate``).

    Parameters
    ----------
    depth : int
        L, the number of layers (keyword-only).
    width : int
        d_x, the width of every layer (and the input dimension).
    n_inputs : int
        N, the number of input positions.
    heads : int, default 1
        H, the attention heads per layer.
    residual : bool, default False
        Whether every layer adds its input (a residual connection).
    position : int, default 0
        The output position p, in ``[0, n_inputs)``.
    coordinate : int, default 0
        The output coordinate i, in ``[0, width)``.
    low, high : int, default -50, 50
        The range of the random integer weights, as in :meth:`LinearAttention.random`.
    seed : int, SeedSequence, Generator or None, default None
        The weights' seed (None: fresh entropy, a different circuit each call).

    Returns
    -------
    Circuit
        The entry y^i_p of the network, as :func:`from_linear_attention` builds it.

    Examples
    --------
    >>> f = linear_attention(depth=1, width=2, n_inputs=2, seed=0)
    >>> f.degree_structure((0,), (1,)).bidegrees
    ((1, 2), (3, 0))
    """
    residual = check_bool("residual", residual)
    net = LinearAttention.random(depth=depth, width=width, heads=heads, residual=residual,
                                 low=low, high=high, seed=seed)
    return from_linear_attention(net, n_inputs=n_inputs, position=position,
                                 coordinate=coordinate)


def from_incontext(rep: InContextRepresentation) -> Circuit:
    r""":math:`Z_{in}(a, b)` of an :class:`~seprank.incontext.InContextRepresentation` as a
    circuit of the two vectors (X[0] = a, X[1] = b): the 2N inputs
    :math:`E(w_1^j)\odot a`, :math:`E(w_2^j)\odot b` (000/001, eqs. 4 and 8), then the network.

    Parameters
    ----------
    rep : InContextRepresentation
        The representation; its network and its embedding must have integer entries.

    Returns
    -------
    Circuit
        f(X) = Z_in(X[0], X[1]) on inputs of shape (2, d_x); its ``parameters`` count the
        entries of the network's weights and of the embedding.

    Examples
    --------
    >>> rep = InContextRepresentation.random(depth=1, width=2, n_tokens=2, seed=0)
    >>> f = from_incontext(rep)
    >>> a, b = np.array([1, 2]), np.array([3, -1])
    >>> bool(f(np.array([[a, b]]))[0] == rep(a, b))
    True
    """
    if not isinstance(rep, InContextRepresentation):
        raise TypeError(f"rep must be an InContextRepresentation, got {type(rep).__name__}")
    net = rep.net
    if net.weight_kind != "exact" or np.asarray(rep.embedding).dtype.kind not in "iuO":
        raise ValueError("a circuit needs integer weights and an integer embedding")
    n = rep.n_tokens
    E = np.asarray(rep.embedding)
    rows = np.concatenate([E[:, list(rep.first)].T, E[:, list(rep.second)].T])  # (2N, d)
    b = CircuitBuilder(n_inputs=2, dim=net.width)
    sides = b.take(b.input(), 0, [0] * n + [1] * n)       # a for S1, b for S2
    Z = b.mul(sides, b.const(rows))
    y = _attention_layers(b, Z, net, rep.position, rep.coordinate)
    return b.build(y, name=f"in-context representation L={net.depth}, d_x={net.width}, N={n}",
                   source="000/001, eqs. 4 and 8", parameters=4 * net.query.size + E.size)


def incontext(*, depth: int, width: int, n_tokens: int = 1, heads: int = 1,
              position: int = 0, coordinate: int = 0, seed: SeedLike = None) -> Circuit:
    """:meth:`InContextRepresentation.random` (same seed, same weights) as a circuit.

    Parameters
    ----------
    depth : int
        L, the number of attention layers (keyword-only).
    width : int
        d_x, the width of every layer (and the length of a and b).
    n_tokens : int, default 1
        N, the tokens of each of the two sequences (2N positions in all).
    heads : int, default 1
        H, the attention heads per layer.
    position : int, default 0
        The output position of the representation.
    coordinate : int, default 0
        The output coordinate of the representation.
    seed : int, SeedSequence, Generator or None, default None
        The weights' and embedding's seed (None: fresh entropy).

    Returns
    -------
    Circuit
        Z_in(a, b) as :func:`from_incontext` builds it.

    Examples
    --------
    >>> f = incontext(depth=1, width=2, n_tokens=1, seed=0)
    >>> rep = InContextRepresentation.random(depth=1, width=2, n_tokens=1, seed=0)
    >>> a, b = np.array([1, 2]), np.array([3, -1])
    >>> bool(f(np.array([[a, b]]))[0] == rep(a, b))
    True
    """
    return from_incontext(InContextRepresentation.random(
        depth=depth, width=width, heads=heads, n_tokens=n_tokens, position=position,
        coordinate=coordinate, seed=seed))


# --- convolutional arithmetic circuits ---------------------------------------------------------


def shallow_cac(*, n_inputs: int, dim: int, channels: int, shared: bool = True,
                low: int = -5, high: int = 5, seed: SeedLike = None) -> Circuit:
    r"""Shallow convolutional arithmetic circuit (Cohen, Sharir & Shashua 2016, the CP model):
    :math:`f(X) = \sum_{z=1}^{Z} a_z \prod_{n=1}^{N} \langle w_{z(,n)}, x_n\rangle`, a 1x1
    convolution with Z = ``channels`` (weights ``shared`` across positions or not), global
    product pooling and a linear output.

    Parameters
    ----------
    n_inputs : int
        N, the number of input positions (keyword-only).
    dim : int
        The features per position.
    channels : int
        Z, the channels of the 1x1 convolution.
    shared : bool, default True
        Whether the convolution's weights are shared across positions (False: one weight
        matrix per position).
    low, high : int, default -5, 5
        The range of the random integer weights: uniform non-zero integers in
        ``[low, high]`` (zero is skipped when the range contains it); ``low <= high``.
    seed : int, SeedSequence, Generator or None, default None
        The random weights' seed (None: fresh entropy, a different circuit each call).

    Returns
    -------
    Circuit
        f, multilinear in the N positions (homogeneous of degree N).

    Examples
    --------
    >>> f = shallow_cac(n_inputs=3, dim=2, channels=2, seed=0)
    >>> f.total_degrees()
    (3,)
    """
    N, d, Z = (check_int(k, v) for k, v in (("n_inputs", n_inputs), ("dim", dim),
                                            ("channels", channels)))
    shared = check_bool("shared", shared)
    low, high = _range(low, high)
    _guard(Z * d * (1 if shared else N) + Z, 8, f"a shallow CAC with {Z:,} channels, dim {d:,}",
           "use fewer channels, a smaller dim or fewer inputs")
    rng = as_generator(seed)
    b = CircuitBuilder(n_inputs=N, dim=d)
    if shared:
        W = _draw(rng, low, high, (Z, d))
        H = b.einsum("nd,cd->nc", b.input(), b.const(W))
    else:
        W = _draw(rng, low, high, (N, Z, d))
        H = b.einsum("nd,ncd->nc", b.input(), b.const(W))
    a = _draw(rng, low, high, (Z,))
    y = b.einsum("c,c->", b.const(a), b.prod(H, 0))
    return b.build(y, name=f"shallow CAC, Z={Z}", source="Cohen, Sharir & Shashua 2016",
                   parameters=int(W.size + a.size))


def _pool_order(N: int, pooling: str) -> list[int]:
    if pooling == "contiguous":
        return list(range(N))
    return [n for n in range(N) if n % 2 == 0] + [n for n in range(N) if n % 2 == 1]


def deep_cac(*, n_inputs: int, dim: int, channels: int | tuple[int, ...],
             pooling: Literal["contiguous", "interleaved"] = "contiguous",
             low: int = -5, high: int = 5, seed: SeedLike = None) -> Circuit:
    r"""Deep convolutional arithmetic circuit (the hierarchical Tucker model of Cohen, Sharir &
    Shashua 2016) on N = 2^L positions: a 1x1 convolution to :math:`r_0` channels, then L
    times product pooling over windows of 2 and a 1x1 convolution to :math:`r_l` channels
    (the last pooling feeds the linear output).  ``channels`` = :math:`(r_0, ..., r_{L-1})`
    (an int: every layer).  ``pooling`` (Cohen & Shashua 2017): ``'contiguous'`` windows
    (0,1), (2,3), ... -- the last pooling joins the two halves; ``'interleaved'`` -- the
    positions ordered evens first, so the last pooling joins the evens and the odds.

    Parameters
    ----------
    n_inputs : int
        N, the number of input positions: a power of 2, at least 2 (keyword-only).
    dim : int
        The features per position.
    channels : int or tuple of int
        :math:`(r_0, ..., r_{L-1})`, the channels after each convolution, L = log2 N of
        them; an int gives every layer that many.
    pooling : {'contiguous', 'interleaved'}, default 'contiguous'
        The pooling geometry (above).
    low, high : int, default -5, 5
        The range of the random integer weights: uniform non-zero integers in
        ``[low, high]`` (zero is skipped when the range contains it); ``low <= high``.
    seed : int, SeedSequence, Generator or None, default None
        The random weights' seed (None: fresh entropy, a different circuit each call).

    Returns
    -------
    Circuit
        f, multilinear in the N positions (homogeneous of degree N).

    Examples
    --------
    >>> f = deep_cac(n_inputs=4, dim=2, channels=2, seed=0)
    >>> f.total_degrees(), f.parameters
    ((4,), 10)
    """
    N, d = check_int("n_inputs", n_inputs, 2), check_int("dim", dim)
    L = N.bit_length() - 1
    if 2**L != N:
        raise ValueError(f"n_inputs must be a power of 2 (windows of 2), got {N}")
    check_choice("pooling", pooling, ("contiguous", "interleaved"))
    if isinstance(channels, bool | np.bool_) or not isinstance(channels, int | tuple | list):
        raise TypeError(f"channels must be an int or a tuple of ints (r_0, ..., r_{{L-1}}), got "
                        f"{channels!r}")
    ranks = (channels,) * L if isinstance(channels, int) else tuple(channels)
    if len(ranks) != L:
        raise ValueError(f"channels must give r_0..r_{L - 1} ({L} numbers for N = {N}), got "
                         f"{channels!r}")
    ranks = tuple(check_int("channels", r) for r in ranks)
    low, high = _range(low, high)
    _guard(ranks[0] * d + sum(a * b for a, b in zip(ranks[1:], ranks, strict=False)) + ranks[-1],
           4 * L + 4, f"a deep CAC over {N:,} inputs with channels {ranks}, dim {d:,}",
           "use fewer inputs, fewer channels or a smaller dim", indices=N)
    rng = as_generator(seed)
    b = CircuitBuilder(n_inputs=N, dim=d)
    W0 = _draw(rng, low, high, (ranks[0], d))
    H = b.einsum("nd,cd->nc", b.take(b.input(), 0, _pool_order(N, pooling)), b.const(W0))
    n_params = W0.size
    width, size = ranks[0], N
    for level in range(1, L + 1):
        size //= 2
        pooled = b.prod(b.reshape(H, (size, 2, width)), 1)             # windows of 2
        if level == L:
            a = _draw(rng, low, high, (width,))
            y = b.einsum("c,jc->", b.const(a), pooled)
            n_params += a.size
            break
        W = _draw(rng, low, high, (ranks[level], width))
        H = b.einsum("jc,ec->je", pooled, b.const(W))
        n_params += W.size
        width = ranks[level]
    return b.build(y, name=f"deep CAC, r={ranks}, {pooling} pooling",
                   source="Cohen, Sharir & Shashua 2016; Cohen & Shashua 2017",
                   parameters=int(n_params))


# --- recurrent and state-space models ----------------------------------------------------------


def rac(*, n_inputs: int, dim: int, hidden: int, depth: int = 1, low: int = -5, high: int = 5,
        seed: SeedLike = None) -> Circuit:
    r"""Recurrent arithmetic circuit with multiplicative integration (Levine, Sharir & Shashua
    2018), ``depth`` layers of R = ``hidden`` channels unrolled over T = ``n_inputs`` steps:
    :math:`h^l_t = (W^{H,l} h^l_{t-1}) \odot (W^{I,l} h^{l-1}_t)`, :math:`h^0_t = x_t`,
    :math:`h^l_0 = \mathbf 1`; output :math:`\langle W^O, h^L_T\rangle`.

    Parameters
    ----------
    n_inputs : int
        T, the number of steps (input positions) (keyword-only).
    dim : int
        The features per step.
    hidden : int
        R, the channels of every layer.
    depth : int, default 1
        L, the number of recurrent layers.
    low, high : int, default -5, 5
        The range of the random integer weights: uniform non-zero integers in
        ``[low, high]`` (zero is skipped when the range contains it); ``low <= high``.
    seed : int, SeedSequence, Generator or None, default None
        The random weights' seed (None: fresh entropy, a different circuit each call).

    Returns
    -------
    Circuit
        f, the recurrence unrolled over T steps.

    Examples
    --------
    >>> rac(n_inputs=3, dim=2, hidden=2, seed=0).total_degrees()   # multilinear
    (3,)
    >>> rac(n_inputs=3, dim=2, hidden=2, depth=2, seed=0).total_degrees()   # 1 + 2 + 3
    (6,)
    """
    T, d, R = (check_int(k, v) for k, v in (("n_inputs", n_inputs), ("dim", dim),
                                            ("hidden", hidden)))
    L = check_int("depth", depth)
    low, high = _range(low, high)
    _guard(L * (R * R + R * max(R, d)) + R, 5 * T * L + 4, f"a depth-{L:,} RAC over {T:,} steps "
           f"with {R:,} channels", "use fewer steps (n_inputs), layers (depth) or channels")
    rng = as_generator(seed)
    b = CircuitBuilder(n_inputs=T, dim=d)
    X = b.input()
    seq = [b.reshape(b.take(X, 0, [t]), (d,)) for t in range(T)]
    n_params, width = 0, d
    for _ in range(L):
        WH, WI = _draw(rng, low, high, (R, R)), _draw(rng, low, high, (R, width))
        n_params += WH.size + WI.size
        wh, wi = b.const(WH), b.const(WI)
        h = b.const(np.ones(R, dtype=np.int64))
        out = []
        for x in seq:
            h = b.mul(b.einsum("rs,s->r", wh, h), b.einsum("rk,k->r", wi, x))
            out.append(h)
        seq, width = out, R
    WO = _draw(rng, low, high, (R,))
    y = b.einsum("r,r->", b.const(WO), seq[-1])
    return b.build(y, name=f"RAC depth {L}, R={R}", source="Levine, Sharir & Shashua 2018",
                   parameters=int(n_params + WO.size))


def linear_ssm(*, n_inputs: int, dim: int, state: int,
               kind: Literal["selective", "lti"] = "selective", low: int = -5, high: int = 5,
               seed: SeedLike = None) -> Circuit:
    r"""A linear state-space / linear recurrent model with S = ``state`` over T = ``n_inputs``
    steps, output :math:`\langle c, h_T\rangle`:

    * ``'selective'``: :math:`h_t = (\sum_k x_{t,k} A_k)\, h_{t-1}`, :math:`h_0` fixed --
      linear in the state, the transition chosen by the input (a linear recurrent network /
      weighted automaton; f is a tensor train of bond dimension S);
    * ``'lti'``: :math:`h_t = A h_{t-1} + B x_t`, :math:`h_0 = 0` (time-invariant: f is
      linear in the inputs).

    Parameters
    ----------
    n_inputs : int
        T, the number of steps (input positions) (keyword-only).
    dim : int
        The features per step.
    state : int
        S, the dimension of the state.
    kind : {'selective', 'lti'}, default 'selective'
        The recurrence (above).
    low, high : int, default -5, 5
        The range of the random integer weights: uniform non-zero integers in
        ``[low, high]`` (zero is skipped when the range contains it); ``low <= high``.
    seed : int, SeedSequence, Generator or None, default None
        The random weights' seed (None: fresh entropy, a different circuit each call).

    Returns
    -------
    Circuit
        f, the recurrence unrolled over T steps.

    Examples
    --------
    >>> linear_ssm(n_inputs=4, dim=2, state=2, seed=0).total_degrees()
    (4,)
    >>> linear_ssm(n_inputs=4, dim=2, state=2, kind="lti", seed=0).total_degrees()
    (1,)
    """
    T, d, S = (check_int(k, v) for k, v in (("n_inputs", n_inputs), ("dim", dim),
                                            ("state", state)))
    check_choice("kind", kind, ("selective", "lti"))
    low, high = _range(low, high)
    _guard(S * S * (d + 1) + S * d + 2 * S, 5 * T + 4, f"a linear SSM over {T:,} steps with "
           f"state {S:,}", "use fewer steps (n_inputs), a smaller state or dim")
    rng = as_generator(seed)
    b = CircuitBuilder(n_inputs=T, dim=d)
    X = b.input()
    c = _draw(rng, low, high, (S,))
    if kind == "selective":
        A, h0 = _draw(rng, low, high, (d, S, S)), _draw(rng, low, high, (S,))
        a, h = b.const(A), b.const(h0)
        for t in range(T):
            x = b.reshape(b.take(X, 0, [t]), (d,))
            transition = b.einsum("k,kst->st", x, a)
            h = b.einsum("st,t->s", transition, h)
        n_params = A.size + h0.size + c.size
    else:
        A, B = _draw(rng, low, high, (S, S)), _draw(rng, low, high, (S, d))
        a, bb = b.const(A), b.const(B)
        h = b.einsum("sk,k->s", bb, b.reshape(b.take(X, 0, [0]), (d,)))
        for t in range(1, T):
            x = b.reshape(b.take(X, 0, [t]), (d,))
            h = b.add(b.einsum("st,t->s", a, h), b.einsum("sk,k->s", bb, x))
        n_params = A.size + B.size + c.size
    y = b.einsum("s,s->", b.const(c), h)
    return b.build(y, name=f"{kind} linear SSM, S={S}", source="linear state-space model",
                   parameters=int(n_params))


def polynomial_mlp(*, n_inputs: int, dim: int, widths: tuple[int, ...] | int,
                   exponent: int = 2, low: int = -5, high: int = 5,
                   seed: SeedLike = None) -> Circuit:
    r"""An MLP on :math:`\operatorname{vec} X` with activation :math:`\sigma(z) = z^k`
    (k = ``exponent``) after every hidden layer of the given ``widths``, and a linear output:
    :math:`a^T \sigma(W_L \cdots \sigma(W_1 \operatorname{vec} X))`, homogeneous of degree
    :math:`k^L`.

    Parameters
    ----------
    n_inputs : int
        N, the number of input positions (keyword-only).
    dim : int
        The features per position (the MLP reads all N * dim of them).
    widths : int or tuple of int
        The widths of the hidden layers, at least one (an int: one hidden layer).
    exponent : int, default 2
        k, the power of the activation, at least 1.
    low, high : int, default -5, 5
        The range of the random integer weights: uniform non-zero integers in
        ``[low, high]`` (zero is skipped when the range contains it); ``low <= high``.
    seed : int, SeedSequence, Generator or None, default None
        The random weights' seed (None: fresh entropy, a different circuit each call).

    Returns
    -------
    Circuit
        f, homogeneous of degree k^L.

    Examples
    --------
    >>> polynomial_mlp(n_inputs=2, dim=2, widths=(3, 2), seed=0).total_degrees()
    (4,)
    """
    N, d = check_int("n_inputs", n_inputs), check_int("dim", dim)
    k = check_int("exponent", exponent, 1)
    sizes = (widths,) if isinstance(widths, int) else tuple(widths)
    sizes = tuple(check_int("widths", w) for w in sizes)
    if not sizes:
        raise ValueError("widths must list at least one hidden layer")
    low, high = _range(low, high)
    _guard(sum(a * b for a, b in zip(sizes, (N * d, *sizes), strict=False)) + sizes[-1],
           3 * len(sizes) + 4, f"a polynomial MLP on {N * d:,} inputs with widths {sizes}",
           "use fewer inputs (n_inputs, dim) or smaller widths")
    rng = as_generator(seed)
    b = CircuitBuilder(n_inputs=N, dim=d)
    h: Any = b.reshape(b.input(), (N * d,))
    width, n_params = N * d, 0
    for w in sizes:
        W = _draw(rng, low, high, (w, width))
        h = b.power(b.einsum("ij,j->i", b.const(W), h), k)
        n_params += W.size
        width = w
    a = _draw(rng, low, high, (width,))
    y = b.einsum("i,i->", b.const(a), h)
    return b.build(y, name=f"polynomial MLP, widths={sizes}, sigma=z^{k}",
                   source="polynomial activation", parameters=int(n_params + a.size))
