r"""The two Krohn-Rhodes atoms as depth-1 Transformers (004 §3.4.4.3.1, Lemmas 15 and 16).

**Lemma 15 (modular counter).**  d = 3 channels {input, padding ⊥, position}; one head with
:math:`W_Q = e_3`, :math:`W_K = e_2`, :math:`W_V = e_1`, :math:`W_C^\top = e_1`; a padding token
⊥ at position 0 with :math:`E(\bot) = e_2` absorbs attention: with position code
:math:`\gamma_t` the weight of each real token is :math:`1/(e^{\gamma_t}+t)`, which is
:math:`1/(2T)` exactly when :math:`\gamma_t = \log(2T - t)`.  Then the attention output is
:math:`s = \frac1{2T}\sum_{t'\le t}\sigma_{t'}` and a Lemma 10 MLP
(:math:`\Delta = 1/(2T)`) maps it to the state :math:`(2Ts + q_0) \bmod n`.  The printed
:math:`\gamma_t = \log(2Tt)` gives weights :math:`1/(t(2T+1))`, and the printed MLP target
:math:`(Ts \bmod n)` halves the count and drops :math:`q_0` (claims ``AUT-Lemma15-*``).  The
printed :math:`\log(2T\,t)` is probably a minus sign lost in the text extraction: Table 3.1 and
the proof of Theorem 12 print :math:`\log(2T - t)`, and the same loss recurs in that proof.

**Lemma 16 (memory unit).**  d = 4: :math:`E(\sigma) = (\mathbb 1[\sigma=\bot]q_0 +
\mathbb 1[\sigma\ne\bot]\sigma)e_1 + \mathbb 1[\sigma=\bot]e_2 + e_4`,
:math:`P_t = (t/T)e_3`, :math:`W_Q = [-2e_4\ e_4]`, :math:`W_K = [ce_2\ ce_3]`,
:math:`c = T\log(16|Q|T)`: the score of key j is :math:`c(j/T - 2\cdot\mathbb 1[\sigma_j=\bot])`
(the text says :math:`c(j/T - \mathbb 1[\sigma_j=\bot])`, i.e. :math:`W_Q = [-e_4\ e_4]`; both
work), maximal at the latest non-⊥ input; a Lemma 10 MLP (:math:`\Delta = 1/2`) rounds.
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

__all__ = ["DepthOneNetwork", "memory_network", "modular_counter_network"]



@dataclass(frozen=True)
class DepthOneNetwork:
    """One attention head + one ReLU MLP, with the token/position embedding of its lemma.

    Attributes
    ----------
    weights : tuple
        ``(W_Q, W_K, W_V, W_C)``.
    mlp : MLP
    embed_tokens : FloatArray
        Row a = the embedding of input symbol a (alphabet order).
    positions : FloatArray
        Row t = the position code of position t (row 0: the ⊥ pad when ``pad_first``).
    pad : FloatArray or None
        The embedding of the leading ⊥ pad token (Lemma 15), or None.
    out_channel : int
        The coordinate holding the decoded value.
    value_offset : int
        Decoded value minus this = state index.
    """

    weights: tuple[FloatArray, FloatArray, FloatArray, FloatArray]
    mlp: MLP
    embed_tokens: FloatArray
    positions: FloatArray
    pad: FloatArray | None
    out_channel: int
    value_offset: int

    @property
    def max_abs_weight(self) -> float:
        return max(self.mlp.max_abs_weight, *(float(np.abs(W).max()) for W in self.weights))

    def attention_output(self, words: npt.ArrayLike) -> FloatArray:
        """The head's output at the real positions, shape ``(B, T, d)``.

        Parameters
        ----------
        words : array_like
            Input indices, shape (B, T).

        Returns
        -------
        numpy.ndarray
            Shape (B, T, d).
        """
        W = check_array("words", words, ndim=2, dtype=np.int64, min_size=0,
                        what="(B, T) symbol indices")
        n_tokens = self.embed_tokens.shape[0]
        if W.size and (W.min() < 0 or W.max() >= n_tokens):
            raise ValueError(f"words must hold symbol indices 0..{n_tokens - 1}")
        n_pos = self.positions.shape[0] - (1 if self.pad is not None else 0)
        if W.shape[1] > n_pos:
            raise ValueError(f"words must have at most T = {n_pos} positions, got {W.shape[1]}")
        X = self.embed_tokens[W]
        if self.pad is not None:
            X = np.concatenate([np.broadcast_to(self.pad, (W.shape[0], 1, X.shape[2])), X],
                               axis=1)
        X = X + self.positions[:X.shape[1]]
        out = attention(X, *self.weights)
        return out[:, 1:] if self.pad is not None else out

    def simulate(self, words: npt.ArrayLike) -> IntArray:
        """Decoded state indices at every position, shape ``(B, T)``.

        Parameters
        ----------
        words : array_like
            Input indices, shape (B, T).

        Returns
        -------
        numpy.ndarray
            State indices, shape (B, T).
        """
        y = self.mlp(self.attention_output(words))[..., self.out_channel]
        return np.rint(y).astype(np.int64) - self.value_offset


def modular_counter_network(n: int, q0: int, T: int, *, gamma: str = "corrected",
                            target: str = "corrected", pad: bool = True) -> DepthOneNetwork:
    r"""Lemma 15's network for the mod-n counter (Definition 4), inputs :math:`0..n-1`.

    Parameters
    ----------
    n, q0, T : int
        Modulus, start state, length.
    gamma : {'corrected', 'printed'}, keyword-only
        :math:`\gamma_t = \log(2T - t)` or the printed :math:`\log(2Tt)`.
    target : {'corrected', 'printed', 'without_q0'}, keyword-only
        MLP target :math:`(2Ts + q_0) \bmod n`, the printed :math:`(Ts \bmod n)`, or
        :math:`(2Ts) \bmod n`.
    pad : bool, keyword-only
        Include the ⊥ pad (without it attention is uniform over the t real tokens: the
        "subtlety" the proof removes; a perturbation).

    Returns
    -------
    DepthOneNetwork
        The network.

    References
    ----------
    .. [1] 004 §3.4.4.3.1, Lemma 15; Table 3.1 and the proof of Theorem 12 (γ_t = log(2T - t)).

    Examples
    --------
    >>> net = modular_counter_network(3, 1, 4)
    >>> words = np.array([[2, 2, 0, 1]])
    >>> net.simulate(words)                    # 1 -> 0 -> 2 -> 2 -> 0
    array([[0, 2, 2, 0]])
    >>> modular_counter_network(3, 1, 4, gamma="printed").simulate(words)[0].tolist() != \
    ...     [0, 2, 2, 0]
    True
    """
    m, Tn = check_int("n", n, minimum=2), check_int("T", T)
    q = check_int("q0", q0, minimum=0, maximum=m - 1)
    check_choice("gamma", gamma, ("corrected", "printed"))
    check_choice("target", target, ("corrected", "printed", "without_q0"))
    pad = check_bool("pad", pad)
    n_values = (m - 1) * Tn + 1
    guard_memory(array_bytes((n_values, 24)) + array_bytes((Tn + 1 + m, 3)),
                 what=f"Lemma 15's network (an MLP of width {4 * n_values})",
                 fix="lower n or T")
    e = np.eye(3)
    t = np.arange(1, Tn + 1)
    codes = np.log(2 * Tn - t) if gamma == "corrected" else np.log(2 * Tn * t)
    positions = np.zeros((Tn + 1, 3))
    positions[1:, 2] = codes
    if not pad:
        positions = positions[1:]
    embed = np.outer(np.arange(m), e[0])
    k = np.arange((m - 1) * Tn + 1)                  # sum of inputs, 0 .. (n-1)T
    if target == "corrected":
        values = (k + q) % m
    elif target == "without_q0":
        values = k % m
    else:
        values = np.mod(Tn * k / (2 * Tn), m)        # T s mod n with s = k / 2T
    mlp = bump_mlp(k / (2 * Tn), np.outer(values, e[0]), 1 / (2 * Tn), in_dim=3)
    weights = (e[:, [2]], e[:, [1]], e[:, [0]], e[[0], :])
    return DepthOneNetwork(weights, mlp, embed, positions, e[1] if pad else None, 0, 0)


def memory_network(n_states: int, q0: int, T: int, *, bot_coefficient: float = 2.0,
                   c: float | None = None, positional: bool = True) -> DepthOneNetwork:
    r"""Lemma 16's network for the memory semiautomaton on :math:`Q = \{1..n\}` (inputs
    ``1..n`` then ⊥, as :func:`seprank.automata.examples.memory`).

    Parameters
    ----------
    n_states, q0, T : int
        :math:`|Q|`, start state (a value in 1..n), length.
    bot_coefficient : float, keyword-only
        The score is :math:`c(j/T - b\,\mathbb 1[\sigma_j=\bot])`: b = 2 from the printed
        weights :math:`W_Q = [-2e_4\ e_4]`, b = 1 as the proof's text states.
    c : float, optional, keyword-only
        Attention scale; default :math:`T\log(16|Q|T)` (the proof's choice).
    positional : bool, keyword-only
        Keep the position code :math:`P_t = (t/T)e_3` (without it the head averages every
        write: a perturbation).

    Returns
    -------
    DepthOneNetwork
        The network.

    Examples
    --------
    >>> net = memory_network(3, 2, 5)
    >>> net.simulate(np.array([[3, 3, 0, 3, 1]]))       # inputs 1..3 are indices 0..2, ⊥ = 3
    array([[1, 1, 0, 0, 1]])
    """
    n, Tn = check_int("n_states", n_states), check_int("T", T)
    q = check_int("q0", q0, minimum=1, maximum=n)
    bot_coefficient = check_float("bot_coefficient", bot_coefficient)
    positional = check_bool("positional", positional)
    scale = (Tn * math.log(16 * n * Tn) if c is None
             else check_float("c", c, positive=True, hint=" (the attention scale)"))
    guard_memory(array_bytes((n + 1 + Tn, 4)) + array_bytes((n, 24)),
                 what=f"Lemma 16's network for {n} states and length {Tn}",
                 fix="lower n_states or T")
    e = np.eye(4)
    embed = np.zeros((n + 1, 4))
    embed[:n, 0] = np.arange(1, n + 1)
    embed[n, 0], embed[n, 1] = q, 1.0
    embed[:, 3] = 1.0
    positions = np.zeros((Tn, 4))
    if positional:
        positions[:, 2] = np.arange(1, Tn + 1) / Tn
    W_Q = np.stack([-bot_coefficient * e[3], e[3]], axis=1)
    W_K = np.stack([scale * e[1], scale * e[2]], axis=1)
    W_V = np.stack([e[0], np.zeros(4)], axis=1)
    W_C = W_V.T.copy()
    mlp = bump_mlp(np.arange(1, n + 1), np.outer(np.arange(1, n + 1), e[0]), 0.5, in_dim=4)
    return DepthOneNetwork((W_Q, W_K, W_V, W_C), mlp, embed, positions, None, 0, 1)
