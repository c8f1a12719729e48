r"""Constant-depth gridworld simulation (004 §3.4.4.4): Algorithm 1 and Theorem 12's network.

**Algorithm 1.**  Map L, ⊥, R to -1, 0, +1, pad in front with L's (the pad count is lost in
the text extraction; S + 1 pads -- or S pads and :math:`z_0 = 0` -- make S + 1 distinct prefix
sums available), take prefix sums z, let :math:`t_{\rm uniq}` start the shortest suffix with
S + 1 distinct values, :math:`t_{\min}, t_{\max}` the last positions of its min and max; the
boundary is 0 if :math:`t_{\min} > t_{\max}` else S, and
:math:`y_T = z_T - z_{t_{\rm final}} + \text{boundary}`, :math:`t_{\rm final} =
\max\{t_{\min}, t_{\max}\}` (Lemma 22 proves the boundary detection).

**Theorem 12's network** (two attention layers, hard attention as footnote 24 assumes):
layer 1 is Lemma 15's prefix sum :math:`x^{(1)}_t = z_t/(2\tilde T)` (⊥ pad at position 0,
:math:`\gamma_t = \log(2\tilde T - t)`, :math:`\tilde T` = padded length); MLP 1 (explicit Lemma
10 weights, width :math:`4(2\tilde T+1)`) adds the circle embedding
:math:`(\cos\pi x, \sin\pi x)`; layer 2 has 2S + 1 heads, head s scoring key i by
:math:`\cos\big((x_t + \tfrac{s-S}{2\tilde T} - x_i)\pi\big) - c\log(2\tilde T - i)`,
:math:`c = \pi^2/(16\log 2\,\tilde T^2)`: the last position whose prefix sum is
:math:`z_t + s - S`.  The second MLP is given here as the *function* it must compute (Steps 1-3
of the proof, which Lemma 11 then memorises): among the windows of S + 1 consecutive heads that
all matched, the one whose oldest position is newest; the state is S minus the window's first
head index.

Two details of the printed construction are options here (claim ``AUT-Thm12-*``):
``bot_code`` -- the printed :math:`P_\bot = 0` gives the pad the *largest* recency score in
layer 2 (:math:`-c\cdot 0`), :math:`P_\bot = \log(2\tilde T) = \gamma_0` makes it the position
:math:`z_0 = 0` of Algorithm 1; ``readout`` -- the proof's MLP sees only positions and takes a
head whose position is t as unmatched (Lemma 23), ``"values"`` also reads the selected prefix
sum (which each head outputs) to tell unmatched heads apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from seprank.automata.layers import MLP, attention, bump_mlp
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.types import FloatArray, IntArray
from seprank.core.validation import check_array, check_bool, check_choice, check_float, check_int

__all__ = ["GridworldNetwork", "algorithm1", "theorem12_network"]



def algorithm1(actions: npt.ArrayLike, S: int, *, n_pads: int | None = None,
               include_z0: bool = False) -> IntArray:
    r"""Algorithm 1 on a batch of action sequences (values in {-1, 0, +1}), start state 0.

    Parameters
    ----------
    actions : array_like
        Shape ``(B, T)``.
    S : int
        States are 0..S.
    n_pads : int, optional, keyword-only
        Leading -1 pads (default S + 1).
    include_z0 : bool, keyword-only
        Include the empty prefix :math:`z_0 = 0` among the prefix sums.

    Returns
    -------
    ndarray of int
        :math:`y_T` per sequence, or -1 where :math:`t_{\rm uniq}` is undefined (fewer than
        S + 1 distinct prefix sums).

    References
    ----------
    .. [1] 004 §3.4.4.4, Algorithm 1 and Lemma 22.

    Examples
    --------
    >>> algorithm1([[1, 1, 1, -1], [1, 1, 1, 1]], 2)       # states 1 2 2 1 and 1 2 2 2
    array([1, 2])
    """
    A = check_array("actions", actions, ndim=2, dtype=np.int64, min_size=0)
    if A.size and (A.min() < -1 or A.max() > 1):
        raise ValueError("actions must have shape (B, T) with values in {-1, 0, 1}")
    s = check_int("S", S)
    pads = s + 1 if n_pads is None else check_int("n_pads", n_pads, minimum=0)
    include_z0 = check_bool("include_z0", include_z0)
    N = pads + A.shape[1] + int(include_z0)
    # the (B, N, N) counts dominate; then the (B, 2N + 1) tables
    guard_memory(array_bytes((A.shape[0], N, N + 6), np.int64) * 2,
                 what=f"Algorithm 1 on {A.shape[0]} sequences of {N} prefix sums",
                 fix="lower S or n_pads, or pass fewer or shorter sequences")
    padded = np.concatenate([-np.ones((A.shape[0], pads), dtype=np.int64), A], axis=1)
    Z = np.cumsum(padded, axis=1)
    if include_z0:
        Z = np.concatenate([np.zeros((A.shape[0], 1), dtype=np.int64), Z], axis=1)
    B, N = Z.shape
    if N == 0:
        return np.full(B, -1, dtype=np.int64)
    rows = np.arange(B)
    last = np.full((B, 2 * N + 1), -1, dtype=np.int64)
    for t in range(N):
        last[rows, Z[:, t] + N] = t
    counts = (last[:, :, None] >= np.arange(N)[None, None, :]).sum(axis=1)     # (B, N)
    defined = counts[:, 0] >= s + 1
    t_uniq = np.where(counts >= s + 1, np.arange(N), -1).max(axis=1)
    values = np.arange(2 * N + 1) - N
    in_suffix = last >= t_uniq[:, None]
    vmin = np.where(in_suffix, values, np.iinfo(np.int64).max).min(axis=1)
    vmax = np.where(in_suffix, values, np.iinfo(np.int64).min).max(axis=1)
    t_min = last[rows, np.clip(vmin + N, 0, 2 * N)]
    t_max = last[rows, np.clip(vmax + N, 0, 2 * N)]
    boundary = np.where(t_min > t_max, 0, s)
    t_final = np.maximum(t_min, t_max)
    y = Z[:, -1] - Z[rows, t_final] + boundary
    return np.where(defined, y, -1)


@dataclass(frozen=True)
class GridworldNetwork:
    """Theorem 12's two-layer network (module docstring) for Grid with states 0..S.

    Attributes
    ----------
    S, T : int
        Grid size and input length; ``T_pad = T + n_pads`` real positions after the ⊥ pad.
    n_pads : int
        Leading L inputs (S + 1).
    layer1 : tuple
        ``(W_Q, W_K, W_V, W_C)`` of the prefix-sum head (d = 4).
    mlp1 : MLP
        4 -> 5: ``[x, gamma, 1, cos(pi x), sin(pi x)]``.
    layer2 : tuple
        Per head s = 0..2S: ``(W_Q, W_K)`` (5 x 5); values are ``[x, gamma]``.
    c : float
        The recency weight :math:`\\pi^2/(16\\log 2\\,\\tilde T^2)`.
    bot_code : float
        Position code of the ⊥ pad.
    """

    S: int
    T: int
    n_pads: int
    layer1: tuple[FloatArray, FloatArray, FloatArray, FloatArray]
    mlp1: MLP
    layer2: tuple[tuple[FloatArray, FloatArray], ...]
    c: float
    bot_code: float

    @property
    def T_pad(self) -> int:
        return self.T + self.n_pads

    def heads(self, words: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Layer-2 outputs for inputs (symbol indices of L, ⊥, R = 0, 1, 2), shape (B, T):
        the selected prefix sums ``x`` and codes ``gamma`` per head, shape (B, T, 2S + 1), and
        the query's own ``[x_t, gamma_t]``, shape (B, T, 2).

        Parameters
        ----------
        words : array_like
            Symbol indices, shape (B, T).

        Returns
        -------
        (numpy.ndarray, numpy.ndarray, numpy.ndarray)
            The prefix sums, the codes and the query's own values.
        """
        W = check_array("words", words, ndim=2, dtype=np.int64, min_size=0)
        if W.shape[1] != self.T or (W.size and (W.min() < 0 or W.max() > 2)):
            raise ValueError(f"words must have shape (B, {self.T}) with symbol indices 0..2")
        B, Tp = W.shape[0], self.T_pad
        guard_memory(array_bytes((B, Tp + 1, Tp + 1)) * 4 * (2 * self.S + 2),
                     what=f"the attention of {2 * self.S + 2} heads on {B} inputs of length "
                          f"{Tp + 1}", fix="pass fewer words")
        act = np.concatenate([np.zeros((B, self.n_pads), dtype=np.int64), W], axis=1) - 1
        X = np.zeros((B, Tp + 1, 4))
        X[:, 1:, 0] = act
        X[:, 0, 1] = 1.0
        X[:, 0, 2] = self.bot_code
        X[:, 1:, 2] = np.log(2 * Tp - np.arange(1, Tp + 1))
        X1 = X + attention(X, *self.layer1)                       # residual
        H = self.mlp1(X1)                                         # (B, Tp + 1, 5)
        xs, gs = [], []
        V = np.zeros((5, 2))
        V[0, 0] = V[1, 1] = 1.0
        for W_Q, W_K in self.layer2:
            out = attention(H, W_Q, W_K, V, np.eye(2), hard=True)
            xs.append(out[:, :, 0])
            gs.append(out[:, :, 1])
        sl = slice(self.n_pads + 1, None)
        x = np.stack(xs, axis=2)[:, sl]
        g = np.stack(gs, axis=2)[:, sl]
        return x, g, H[:, sl, :2]

    def simulate(self, words: npt.ArrayLike, *, readout: str = "values") -> IntArray:
        """States at every real position (-1 where no window of S + 1 matched heads exists).

        ``readout="values"`` detects unmatched heads from the prefix sum they return;
        ``"positions"`` trusts Lemma 23 (a head is unmatched iff it selected t itself).

        Parameters
        ----------
        words : array_like
            Symbol indices, shape (B, T).
        readout : {'values', 'positions'}, keyword-only
            How unmatched heads are detected.

        Returns
        -------
        numpy.ndarray
            States, shape (B, T).
        """
        check_choice("readout", readout, ("values", "positions"))
        x, g, own = self.heads(words)
        S, Tp = self.S, self.T_pad
        offsets = (np.arange(2 * S + 1) - S) / (2 * Tp)
        pos = np.rint(2 * Tp - np.exp(g)).astype(np.int64)
        own_pos = np.rint(2 * Tp - np.exp(own[..., 1])).astype(np.int64)
        if readout == "values":
            matched = np.abs(x - own[..., :1] - offsets) < 1 / (8 * Tp)
        else:
            matched = pos != own_pos[..., None]
            matched[..., S] = True
        best = np.full(pos.shape[:2], -1, dtype=np.int64)
        best_key = np.full(pos.shape[:2], -1, dtype=np.int64)
        for a in range(S + 1):
            window = slice(a, a + S + 1)
            ok = matched[..., window].all(axis=2)
            key = np.where(ok, pos[..., window].min(axis=2), -1)
            better = key > best_key
            best = np.where(better, S - a, best)
            best_key = np.where(better, key, best_key)
        return best

    def lemma23_violations(self, words: npt.ArrayLike) -> int:
        """How many (position, head) pairs have no matching position yet did not select t
        (Lemma 23 says every unmatched head returns :math:`\\log(2\\tilde T - t)`).

        Parameters
        ----------
        words : array_like
            Symbol indices, shape (B, T).

        Returns
        -------
        int
            The count.
        """
        x, g, own = self.heads(words)
        offsets = (np.arange(2 * self.S + 1) - self.S) / (2 * self.T_pad)
        matched = np.abs(x - own[..., :1] - offsets) < 1 / (8 * self.T_pad)
        selects_t = np.abs(g - own[..., 1:]) < 1e-9
        return int(np.sum(~matched & ~selects_t))


def theorem12_network(S: int, T: int, *, bot_code: str = "gamma0",
                      recency: float = 1.0) -> GridworldNetwork:
    r"""Build Theorem 12's network for Grid with states 0..S at input length T.

    Parameters
    ----------
    S, T : int
    bot_code : {'gamma0', 'printed'}, keyword-only
        Position code of the ⊥ pad: :math:`\gamma_0 = \log(2\tilde T)` (it then plays
        :math:`z_0 = 0`) or the printed 0 (module docstring).
    recency : float, keyword-only
        Multiplies c (0 removes the preference for the latest matching position: a
        perturbation).

    Returns
    -------
    GridworldNetwork
        The network.

    References
    ----------
    .. [1] 004 §3.4.4.4, Theorem 12 (formal), Table 3.1, Lemmas 22-23, footnote 24.

    Examples
    --------
    >>> from seprank.automata.examples import gridworld
    >>> A, net = gridworld(2), theorem12_network(2, 5)
    >>> W = A.all_words(5)
    >>> bool((net.simulate(W) == A.run_indices(W, 0)).all())
    True
    """
    s, Tn = check_int("S", S), check_int("T", T)
    check_choice("bot_code", bot_code, ("gamma0", "printed"))
    recency = check_float("recency", recency, minimum=0)
    n_pads = s + 1
    guard_memory(array_bytes((4 * (2 * (Tn + n_pads) + 1) + 3, 12)) + array_bytes(
        (2 * s + 1, 50)), what=f"the weights for S = {s}, T = {Tn}", fix="lower S or T")
    Tp = Tn + n_pads
    e4 = np.eye(4)
    layer1 = (e4[:, [2]], e4[:, [1]], e4[:, [0]], e4[[3], :])
    k = np.arange(-Tp, Tp + 1)
    circle = bump_mlp(k / (2 * Tp), np.stack([np.cos(np.pi * k / (2 * Tp)),
                                              np.sin(np.pi * k / (2 * Tp))], axis=1),
                      1 / (2 * Tp), in_dim=4, channel=3)
    (cw1, cb1), (cw2, _) = circle.layers
    # pass-through units: x = relu(x) - relu(-x), gamma = relu(gamma) (gamma >= 0)
    W1 = np.concatenate([cw1, np.zeros((4, 3))], axis=1)
    W1[3, -3], W1[3, -2], W1[2, -1] = 1.0, -1.0, 1.0
    b1 = np.concatenate([cb1, np.zeros(3)])
    W2 = np.zeros((W1.shape[1], 5))
    W2[:cw2.shape[0], 3:] = cw2
    W2[-3, 0], W2[-2, 0], W2[-1, 1] = 1.0, -1.0, 1.0
    b2 = np.array([0.0, 0.0, 1.0, 0.0, 0.0])
    mlp1 = MLP(((W1, b1), (W2, b2)))
    c = float(recency) * math.pi**2 / (16 * math.log(2) * Tp**2)
    heads = []
    for head in range(2 * s + 1):
        theta = (head - s) * math.pi / (2 * Tp)
        W_Q = np.zeros((5, 5))
        W_Q[2, 1] = -c
        W_Q[3:, 3:] = [[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]]
        heads.append((W_Q, np.eye(5)))
    code = math.log(2 * Tp) if bot_code == "gamma0" else 0.0
    return GridworldNetwork(s, Tn, n_pads, layer1, mlp1, tuple(heads), c, code)
