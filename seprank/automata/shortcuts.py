r"""Logarithmic-depth shortcuts (004 §3.4.4.1-3.4.4.2): Proposition 2, Lemmas 13-14, Theorem 10.

Theorem 10: every semiautomaton is simulated at length T by a depth-:math:`\lceil\log_2T\rceil`
Transformer (Hillis-Steele parallel scan): position t holds a transition map; layer l attends,
with two heads, to itself and to :math:`t - 2^{l-1}` and the Lemma 14 MLP composes the two maps.

Notation (the proof's): d = 2|Q| + 2 named dimensions -- the left slot ``(q, L)``, the right
slot ``(q, R)`` (a transition map f is encoded as :math:`\sum_q f(q)\,e_{(q,\cdot)}` with
states numbered 1..|Q|) and the positional pair ``P1, P2``
:math:`= (\cos\frac{\pi t}{T}, \sin\frac{\pi t}{T})` for :math:`t \in \{-T+1, \dots, T\}`
(T padding positions encode the constant map "go to :math:`q_0`").  Per layer
:math:`\gamma = 100T^2(\log|Q|+\log T)`, :math:`\theta = -\pi 2^{l-1}/T`,
:math:`W_Q = W_K^{[R]} = \sqrt\gamma(e_{P_1}e_1^\top + e_{P_2}e_2^\top)`,
:math:`W_K^{[L]} = \sqrt\gamma(e_{P_1}e_1^\top + e_{P_2}e_2^\top)\rho_\theta`.

Three slips of the printed proof (measured by :func:`theorem10_network` with
``printed=...``; claim ``AUT-Thm10-as-printed``):

* ``"value_slot"``: :math:`W_V = \sum_q e_{(q,L)}e_q^\top` reads the left slot, which is empty at
  every layer input; the value must read the right slot :math:`e_{(q,R)}`.
* ``"rotation"``: with the chapter's score :math:`\langle W_Q^\top x_t, W_K^\top x_{t'}\rangle`,
  :math:`W_K^{[L]} = \sqrt\gamma E\rho_\theta` peaks at :math:`t' = t + 2^{l-1}` (the future,
  masked); :math:`E\rho_\theta^\top` (equivalently :math:`\theta = +\pi 2^{l-1}/T`) looks back.
* ``"readout"``: "read :math:`e_{(q,R)}^\top z` for an arbitrary q" is right only for t < T: after
  :math:`\log_2 T` layers position T holds :math:`\delta(\cdot,\sigma_{1:T})` without the
  padding's reset, so the readout must take :math:`q = q_0`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from seprank.automata.layers import MLP, attention, bump_mlp
from seprank.automata.semiautomaton import Semiautomaton
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.types import FloatArray, IntArray
from seprank.core.validation import check_array, check_bool, check_float, check_instance, check_int

__all__ = [
    "ParallelPrefixNetwork",
    "circle_gram_max",
    "lemma13_bound",
    "lemma14_mlp",
    "proposition2_bound",
    "theorem10_network",
]

THEOREM10_SLIPS = ("value_slot", "rotation", "readout")
#: Up to this T :func:`circle_gram_max` lists the T - 1 inner products; beyond, the closed form.
CIRCLE_POINTS_LISTED = 10**6


def proposition2_bound(T: int, *, corrected: bool = False) -> float:
    r"""Proposition 2's bound on :math:`|\langle p_t, p_{t'}\rangle|`: printed
    :math:`1 - 2\pi^2/T^2`; ``corrected=True`` gives :math:`1 - 8/T^2`, a bound on
    :math:`\langle p_t,p_{t'}\rangle \le \cos(2\pi/T)` (no absolute value: antipodal points of
    even T give -1), from :math:`1-\cos x \ge 2x^2/\pi^2` on :math:`[0,\pi]`.

    Parameters
    ----------
    T : int
        Number of points.
    corrected : bool, keyword-only
        The corrected bound (default: the printed one).

    Returns
    -------
    float
        The bound.

    Examples
    --------
    >>> round(proposition2_bound(10), 5), round(circle_gram_max(10), 5)    # printed < actual
    (0.80261, 0.80902)
    """
    n = check_int("T", T, minimum=2)
    corrected = check_bool("corrected", corrected)
    return 1 - 8 / n**2 if corrected else 1 - 2 * math.pi**2 / n**2


def circle_gram_max(T: int, *, absolute: bool = False) -> float:
    r""":math:`\max_{t\ne t'}\langle p_t, p_{t'}\rangle` (or of its absolute value) over the T
    equally spaced points :math:`p_t = (\cos\frac{2\pi t}{T}, \sin\frac{2\pi t}{T})`; the
    inner product is :math:`\cos\frac{2\pi(t-t')}{T}`, so the maximum runs over the T - 1
    differences.

    Parameters
    ----------
    T : int
        Number of points.
    absolute : bool, keyword-only
        Maximise the absolute value (default False).

    Returns
    -------
    float
        The maximum.

    Examples
    --------
    >>> import math
    >>> circle_gram_max(10) == math.cos(2 * math.pi / 10)       # nearest neighbours
    True
    >>> round(circle_gram_max(4), 12), circle_gram_max(4, absolute=True)  # antipodes give -1
    (0.0, 1.0)
    """
    n = check_int("T", T, minimum=2)
    absolute = check_bool("absolute", absolute)
    if n > CIRCLE_POINTS_LISTED:     # the maxima in closed form: nearest and most opposite
        if not absolute:
            return math.cos(2 * math.pi / n)
        return 1.0 if n % 2 == 0 else math.cos(math.pi / n)
    values = np.cos(2 * np.pi * np.arange(1, n) / n)
    return float((np.abs(values) if absolute else values).max())


def lemma13_bound(T: int, gamma: float) -> float:
    r"""Lemma 13: :math:`\|\mathrm{softmax}(z) - e_{t^*}\|_1 \le 2Te^{-\gamma}` when every other
    score is at least :math:`\gamma` below the maximum.

    Parameters
    ----------
    T : int
        The number of scores.
    gamma : float
        The score gap.

    Returns
    -------
    float
        :math:`2Te^{-\gamma}`.

    Examples
    --------
    >>> import numpy as np
    >>> z = np.array([5.0, 0.0, 0.0, -1.0])                     # gap gamma = 5, T = 4
    >>> w = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    >>> l1 = float(np.abs(w - np.eye(4)[0]).sum())
    >>> bool(l1 <= lemma13_bound(4, 5.0)), round(lemma13_bound(4, 5.0), 6)
    (True, 0.053904)
    """
    n = check_int("T", T)
    gamma = check_float("gamma", gamma, minimum=0, hint=" (the score gap)")
    return 2 * n * math.exp(-gamma)


def lemma14_mlp(n_states: int, *, bias_shift: float = 0.0) -> MLP:
    r"""Lemma 14's 3-layer composition gadget on the slots ``[(q, L)]_q ++ [(q, R)]_q``.

    For maps g (left slot) and f (right slot) with values in :math:`1..|Q|`, the output's right
    slot is :math:`f\circ g`.  Layer 1: the Lemma 10 indicators :math:`\mathbf 1[g(q) = q']` (4
    ReLUs each, :math:`\Delta = 1`) and :math:`|Q|` pass-through units for f -- width
    :math:`4|Q|^2 + |Q|` (the statement says :math:`|Q|^2+|Q|`, the width of
    :math:`W_2'`'s output); layer 2 (width :math:`|Q|^2`):
    :math:`[W_2''W_2'z - |Q|]_+ = \mathbf 1[g(q)=q']\,f(q')`; layer 3 sums over q'.
    ``bias_shift`` adds to the layer-2 bias (a perturbation).

    Parameters
    ----------
    n_states : int
        :math:`|Q|`.
    bias_shift : float, keyword-only
        Added to the layer-2 bias (default 0).

    Returns
    -------
    MLP
        The gadget.

    Examples
    --------
    >>> mlp = lemma14_mlp(3)
    >>> g, f = [2, 3, 1], [3, 3, 1]                  # values in 1..3
    >>> mlp(np.array(g + f, dtype=float))[3:]        # f o g = (f(2), f(3), f(1))
    array([3., 1., 3.])
    >>> mlp.widths
    (39, 9)
    """
    n = check_int("n_states", n_states)
    bias_shift = check_float("bias_shift", bias_shift)
    hidden = 4 * n * n + n
    guard_memory(array_bytes(2 * n * hidden + hidden * (n * n + n) + (n * n + n) * n * n
                             + 2 * hidden * n * n + 2 * n * n * n), what=f"Lemma 14's "
                 f"gadget for {n} states (widths {hidden}, {n * n})", fix="lower n_states")
    bump = bump_mlp(range(1, n + 1), np.eye(n), 1.0)      # 1[x = q'] for q' = 1..n
    (w1, b1), (w2, _) = bump.layers                       # (1, 4n), (4n, n)
    W1 = np.zeros((2 * n, hidden))
    B1 = np.zeros(hidden)
    W2p = np.zeros((hidden, n * n + n))
    for q in range(n):
        cols = slice(4 * n * q, 4 * n * (q + 1))
        W1[q, cols] = w1[0]
        B1[cols] = b1
        W2p[cols, n * q:n * (q + 1)] = w2                  # indicator (q, q')
        W1[n + q, 4 * n * n + q] = 1.0                     # pass-through f(q)
        W2p[4 * n * n + q, n * n + q] = 1.0
    W2pp = np.zeros((n * n + n, n * n))
    for q in range(n):
        for qp in range(n):
            W2pp[n * q + qp, n * q + qp] = n
            W2pp[n * n + qp, n * q + qp] = 1.0
    W2 = W2p @ W2pp
    B2 = np.full(n * n, -float(n) + bias_shift)
    W3 = np.zeros((n * n, 2 * n))
    for q in range(n):
        W3[n * q:n * (q + 1), n + q] = 1.0
    return MLP(((W1, B1), (W2, B2), (W3, np.zeros(2 * n))))


@dataclass(frozen=True)
class ParallelPrefixNetwork:
    """The Theorem 10 network for one automaton, start state and padded length.

    Attributes
    ----------
    automaton : Semiautomaton
    q0 : int
        Start-state index.
    T : int
        Padded length :math:`2^{\\text{depth}}` (inputs shorter than T are padded at the end).
    depth : int
        :math:`\\lceil\\log_2 T\\rceil` layers.
    gamma : float
        :math:`100T^2(\\log|Q|+\\log T)`.
    heads : tuple
        Per layer, ``((W_Q, W_K, W_V, W_C) for the L head, ... for the R head)``.
    mlp : MLP
        The Lemma 14 gadget (the same at every layer).
    readout_state : int
        The index q whose right-slot coordinate is read.
    """

    automaton: Semiautomaton
    q0: int
    T: int
    depth: int
    gamma: float
    heads: tuple[tuple[tuple[FloatArray, ...], tuple[FloatArray, ...]], ...]
    mlp: MLP
    readout_state: int

    @property
    def dim(self) -> int:
        return 2 * self.automaton.n_states + 2

    @property
    def max_abs_weight(self) -> float:
        """∞-norm over attention and MLP weights (Theorem 10: <= max{4|Q|+2, 10T sqrt(log|Q|
        + log T)})."""
        att = max((float(np.abs(W).max()) for layer in self.heads for head in layer
                   for W in head), default=0.0)
        return max(att, self.mlp.max_abs_weight)

    def positions(self) -> FloatArray:
        r"""The 2T positional encodings: points of the unit circle at angles :math:`\pi p / T`,
        p = -T+1..T.

        Returns
        -------
        numpy.ndarray
            Shape (2T, 2).
        """
        p = np.arange(-self.T + 1, self.T + 1)
        return np.stack([np.cos(np.pi * p / self.T), np.sin(np.pi * p / self.T)], axis=1)

    def embed(self, words: IntArray) -> FloatArray:
        """Embeddings of a batch of words (symbol indices, shape (B, T)), padding included.

        Parameters
        ----------
        words : numpy.ndarray
            Symbol indices, shape (B, T).

        Returns
        -------
        numpy.ndarray
            Shape (B, 2T, dim).
        """
        A, n, T = self.automaton, self.automaton.n_states, self.T
        B = words.shape[0]
        X = np.zeros((B, 2 * T, self.dim))
        X[:, :T, n:2 * n] = self.q0 + 1                     # "go to q0"
        X[:, T:, n:2 * n] = A.table[words] + 1             # transition maps, values 1..|Q|
        X[:, :, 2 * n:] = self.positions()
        return X

    def forward(self, words: npt.ArrayLike, *, return_attention: bool = False) -> FloatArray:
        """The right slot after the last layer, shape ``(B, T, |Q|)`` (real positions).

        Parameters
        ----------
        words : array_like
            Symbol indices, shape (B, len) with len <= T.
        return_attention : bool, keyword-only
            Validated, but the output is the same either way (the attention weights are measured
            by :meth:`attention_errors`).

        Returns
        -------
        numpy.ndarray
            Shape ``(B, T, |Q|)``.
        """
        check_bool("return_attention", return_attention)
        W = self._pad(words)
        X = self.embed(W)
        n, P = self.automaton.n_states, self.positions()
        for layer in self.heads:
            att = sum(attention(X, *head) for head in layer)
            Y = self.mlp(att[:, :, :2 * n])
            X = np.concatenate([Y, np.broadcast_to(P, (*Y.shape[:2], 2))], axis=2)
        return X[:, self.T:, n:2 * n]

    def attention_errors(self) -> float:
        r"""Largest :math:`\|\alpha^{[R]}-e_t\|_1`, :math:`\|\alpha^{[L]}-e_{t-2^{l-1}}\|_1` over
        real positions and layers (the proof needs :math:`\le 0.1/(|Q|T)`).

        Returns
        -------
        float
            The largest error.
        """
        self._guard(1)
        X = self.embed(np.zeros((1, self.T), dtype=np.int64))
        worst = 0.0
        for l, layer in enumerate(self.heads, start=1):
            for head, shift in zip(layer, (2 ** (l - 1), 0), strict=True):
                _, a = attention(X, *head, return_weights=True)
                for t in range(self.T, 2 * self.T):
                    target = np.zeros(2 * self.T)
                    target[t - shift] = 1.0
                    worst = max(worst, float(np.abs(a[0, t] - target).sum()))
        return worst

    def simulate(self, words: npt.ArrayLike) -> IntArray:
        """Decoded state indices, shape ``(B, len)``: the rounded readout coordinate minus 1.

        Parameters
        ----------
        words : array_like
            Symbol indices, shape (B, len).

        Returns
        -------
        numpy.ndarray
            State indices, shape (B, len).
        """
        W = self._pad(words)
        T = np.asarray(words).shape[1]
        out = self.forward(W[:, :T])[:, :T, self.readout_state]
        return np.rint(out).astype(np.int64) - 1

    def _pad(self, words: npt.ArrayLike) -> IntArray:
        W = check_array("words", words, ndim=2, dtype=np.int64, min_size=0)
        if W.shape[1] < 1 or W.shape[1] > self.T:
            raise ValueError(f"words must have shape (B, T') with 1 <= T' <= {self.T}, got "
                             f"{W.shape}")
        if W.size and (W.min() < 0 or W.max() >= self.automaton.n_symbols):
            raise ValueError(f"words must hold symbol indices 0..{self.automaton.n_symbols - 1}")
        self._guard(W.shape[0])
        return np.pad(W, ((0, 0), (0, self.T - W.shape[1])))

    def _guard(self, batch: int) -> None:
        """Refuse a forward pass whose embeddings and (2T)^2 attention maps exceed memory."""
        guard_memory(array_bytes((batch, 2 * self.T, 2 * self.T + 4 * self.dim)) * 4,
                     what=f"attention over {2 * self.T} positions for {batch} words",
                     fix="build the network for a shorter T, or pass fewer words")


def theorem10_network(automaton: Semiautomaton, q0: object, T: int, *,
                      printed: Iterable[str] = (),
                      depth: int | None = None) -> ParallelPrefixNetwork:
    r"""Build Theorem 10's depth-:math:`\lceil\log_2T\rceil` network with explicit weights.

    Parameters
    ----------
    automaton : Semiautomaton
        Any; a 1-state automaton gets a dummy state as in the proof (:math:`|Q| \ge 2` needed
        for the 2-dimensional heads).
    q0 : state
    T : int
        Length; the network is built for :math:`2^{\lceil\log_2T\rceil}`.
    printed : iterable of {'value_slot', 'rotation', 'readout'}, keyword-only
        Keep these slips of the printed proof (module docstring); default: all corrected.
    depth : int, optional, keyword-only
        Override the number of layers (fewer than :math:`\lceil\log_2T\rceil` is a
        perturbation: positions t > 2^depth then miss early inputs).

    Returns
    -------
    ParallelPrefixNetwork
        The network.

    References
    ----------
    .. [1] 004 §3.4.4.2, Theorem 10 and Lemma 14; Proposition 2 (positions); Hillis & Steele.

    Examples
    --------
    >>> from seprank.automata.examples import flip_flop
    >>> A = flip_flop()
    >>> net = theorem10_network(A, 1, 4)
    >>> words = A.all_words(4)
    >>> bool((net.simulate(words) == A.run_indices(words, 0)).all()), net.depth
    (True, 2)
    """
    check_instance("automaton", automaton, Semiautomaton, expected="a Semiautomaton",
                   hint="e.g. flip_flop()")
    if isinstance(printed, str | bytes) or not isinstance(printed, Iterable):
        raise TypeError(f"printed must be an iterable of slip names {THEOREM10_SLIPS}, got "
                        f"{printed!r}")
    slips = set(printed)
    if not slips <= set(THEOREM10_SLIPS):
        raise ValueError(f"printed must name slips among {THEOREM10_SLIPS}, got {sorted(slips)}")
    n_req = check_int("T", T)
    if automaton.n_states < 2:
        raise ValueError("Theorem 10's construction assumes |Q| >= 2 (add a dummy state)")
    L = math.ceil(math.log2(n_req)) if n_req > 1 else 0
    Tp = 2 ** L
    layers = L if depth is None else check_int("depth", depth, minimum=0)
    n = automaton.n_states
    q0i = automaton.state_index(q0, name="q0")
    guard_memory(array_bytes((layers, 8, 2 * n + 2, n)), what=f"the attention weights of "
                 f"{layers} layers", fix="lower T or depth")
    d, k = 2 * n + 2, n
    gamma = 100 * Tp**2 * (math.log(n) + math.log(Tp)) if Tp > 1 else 100 * math.log(n)
    E2 = np.zeros((d, k))
    E2[2 * n, 0] = E2[2 * n + 1, 1] = 1.0
    slot = 0 if "value_slot" in slips else n
    W_V = np.zeros((d, k))
    W_V[slot + np.arange(n), np.arange(n)] = 1.0
    W_C_L = np.zeros((k, d))
    W_C_L[np.arange(n), np.arange(n)] = 1.0
    W_C_R = np.zeros((k, d))
    W_C_R[np.arange(n), n + np.arange(n)] = 1.0
    heads = []
    for l in range(1, layers + 1):
        theta = -math.pi * 2 ** (l - 1) / Tp
        rho = np.eye(k)
        rho[:2, :2] = [[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]]
        W_Q = math.sqrt(gamma) * E2
        W_K_L = math.sqrt(gamma) * E2 @ (rho if "rotation" in slips else rho.T)
        heads.append(((W_Q, W_K_L, W_V, W_C_L), (W_Q, W_Q.copy(), W_V, W_C_R)))
    readout = (q0i + 1) % n if "readout" in slips else q0i
    return ParallelPrefixNetwork(automaton, q0i, Tp, layers, gamma, tuple(heads),
                                 lemma14_mlp(n), readout)
