r"""Flip-flop languages and attention glitches (004 §3.5): FFL(T, p), Propositions 3 and 4.

**FFL(T, p)** (§3.5.1.2): length-T strings over {w, r, i, 0, 1} (token indices 0..4 here) of
alternating instruction/data pairs; the first instruction is w, the last (:math:`x_{T-1}`) is r,
the others are i.i.d. :math:`(p_w, p_r, p_i)`; data after w or i is a fair bit, data after r
repeats the last written bit.  Deterministic mode scores only :math:`x_{t+1}` after
:math:`x_t = r`, so a sequence has :math:`1 + \mathrm{Bin}(T/2 - 2, p_r)` reads.

**Proposition 3** (§3.5.7.1): a 2-layer, 1-head Transformer with residual connections, d = 7,
:math:`E(x_t) = \mathbb 1[w]e_1 + \mathbb 1[r\lor i]e_2 + \mathbb 1[0]e_3 + \mathbb 1[1]e_4
+ e_5 + (t/T)e_6`.  Layer 1 (:math:`W_Q = [e_5\ e_5]`, :math:`W_K = [\frac{3c}{2T}e_1\ ce_6]`,
:math:`W_V = [e_1\ 0]`, :math:`W_C^\top = [e_7\ 0]`) flags
:math:`\mathbb 1[x_{t-1}=w \lor x_t = w]` in :math:`e_7` (an MLP rounds it); layer 2
(:math:`W_K = [ce_7\ ce_6]`, :math:`W_V = [e_4\ 0]`, :math:`W_C^\top = [e_1\ 0]`) attends to the
position after the latest w and copies its bit.  The proof takes :math:`c = O(T\log T)`; the
default :math:`c = 2T\log(8T)` is the smallest for which Lemma 13 bounds the layer-1 error by
1/4 (layer 1's score gap is :math:`c/(2T)`).

**Proposition 4** (§3.5.7.2): with latent norms <= 1 and :math:`\sigma_{\max}` the top singular
value of :math:`W_K^\top W_Q`, every softmax weight is at most
:math:`1 - \frac{T-1}{T-1+\exp(2\sigma_{\max})}`; the bound is attained when the target key
scores :math:`+\sigma_{\max}` and all others :math:`-\sigma_{\max}`
(:func:`dilution_extremal_case`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product

import numpy as np
import numpy.typing as npt

from seprank.automata.layers import MLP, attention, threshold_mlp
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import FloatArray, IntArray
from seprank.core.validation import check_array, check_float, check_int, check_work

__all__ = [
    "FFL_TOKENS",
    "FlipFlopNetwork",
    "all_ffl_strings",
    "dilution_bound",
    "dilution_extremal_case",
    "ffl_read_count_law",
    "max_attention_weight",
    "proposition3_network",
    "read_targets",
    "sample_ffl",
]

FFL_TOKENS = ("w", "r", "i", "0", "1")
#: Largest number of strings :func:`all_ffl_strings` enumerates (there are 2 * 5^(T/2 - 2)).
MAX_FFL_STRINGS = 2_000_000
W, R, I, ZERO, ONE = range(5)


def _check_T(T: int) -> int:
    n = check_int("T", T, minimum=4)
    if n % 2:
        raise ValueError(f"T must be even (instruction/data pairs), got {T}")
    return n


def _check_p(p: tuple[float, float, float]) -> npt.NDArray[np.float64]:
    q = check_array("p", p, ndim=1)
    if q.shape != (3,) or np.any(q < 0) or abs(q.sum() - 1) > 1e-12:
        raise ValueError(f"p must be (p_w, p_r, p_i), non-negative, summing to 1; got {p!r}")
    return q


def sample_ffl(T: int, p: tuple[float, float, float], n: int, *,
               seed: SeedLike = None) -> IntArray:
    r"""``n`` strings from FFL(T, p) as token indices (:data:`FFL_TOKENS`), shape (n, T).

    Parameters
    ----------
    T : int
        The length.
    p : (float, float, float)
        :math:`(p_w, p_r, p_i)`, non-negative, summing to 1.
    n : int
        Number of strings.
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the draw.

    Returns
    -------
    numpy.ndarray
        Shape (n, T).

    Examples
    --------
    >>> x = sample_ffl(8, (0.1, 0.1, 0.8), 2, seed=0)
    >>> [''.join(FFL_TOKENS[v] for v in row) for row in x]     # w first, r at T-1
    ['w1i1w1r1', 'w0i1i1r0']
    """
    Tn, m = _check_T(T), check_int("n", n)
    q = _check_p(p)
    rng = as_generator(seed)
    guard_memory(array_bytes((m, Tn), np.int64) * 3, what=f"{m} strings of length {Tn}",
                 fix="sample fewer strings (lower n) or shorter ones (lower T)")
    check_work(m * Tn * 10 + Tn * 1000, what=f"{m} strings of length {Tn}",
               fix="lower n or T")
    X = np.empty((m, Tn), dtype=np.int64)
    instr = rng.choice(3, size=(m, Tn // 2), p=q)
    instr[:, 0], instr[:, -1] = W, R
    bits = rng.integers(0, 2, size=(m, Tn // 2))
    memory = np.zeros(m, dtype=np.int64)
    for k in range(Tn // 2):
        ins = instr[:, k]
        bit = np.where(ins == R, memory, bits[:, k])
        memory = np.where(ins == W, bit, memory)
        X[:, 2 * k], X[:, 2 * k + 1] = ins, ZERO + bit
    return X


def all_ffl_strings(T: int) -> IntArray:
    """Every valid flip-flop string of length T (first w, last instruction r; deterministic
    data after r), shape (N, T) -- the support of FFL(T, p) for any p with all p > 0.

    Parameters
    ----------
    T : int
        The length.

    Returns
    -------
    numpy.ndarray
        Shape (N, T).

    Examples
    --------
    >>> [len(all_ffl_strings(T)) for T in (4, 6, 8)]      # 2 * 5^(T/2 - 2)
    [2, 10, 50]
    >>> all_ffl_strings(4)                 # tokens w, r, i, 0, 1 = 0..4: "w b r b"
    array([[0, 3, 1, 3],
           [0, 4, 1, 4]])
    """
    Tn = _check_T(T)
    pairs = Tn // 2
    if (pairs - 2) * math.log(5) > math.log(MAX_FFL_STRINGS):   # no huge power formed
        raise ValueError(f"there are 2 * 5^(T/2 - 2) = 2 * 5^{pairs - 2} flip-flop strings of "
                         f"length {Tn}, above MAX_FFL_STRINGS = {MAX_FFL_STRINGS}; sample_ffl()"
                         " draws from FFL(T, p) instead")
    count = 2 * 5 ** (pairs - 2)
    if count > MAX_FFL_STRINGS:
        raise ValueError(f"there are 2 * 5^(T/2 - 2) = {count} flip-flop strings of length "
                         f"{Tn}, above MAX_FFL_STRINGS = {MAX_FFL_STRINGS}; sample_ffl() "
                         "draws from FFL(T, p) instead")
    rows = []
    for middle in product((W, R, I), repeat=pairs - 2):
        instr = (W, *middle, R)
        free = [k for k, ins in enumerate(instr) if ins != R]
        for bits in product((0, 1), repeat=len(free)):
            value = dict(zip(free, bits, strict=True))
            row, memory = [], 0
            for k, ins in enumerate(instr):
                bit = memory if ins == R else value[k]
                memory = bit if ins == W else memory
                row += [ins, ZERO + bit]
            rows.append(row)
    return np.array(rows, dtype=np.int64)


def read_targets(strings: npt.ArrayLike) -> tuple[IntArray, IntArray, IntArray]:
    """``(sequence, position, bit)`` of every read: positions t (0-based) with x_t = r and the
    bit :math:`x_{t+1}` a correct model must predict there.

    Parameters
    ----------
    strings : array_like
        Token indices, shape (B, T).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        Sequence, position and bit of every read.

    Examples
    --------
    >>> read_targets(all_ffl_strings(4))   # each string reads once, at position 2, its written bit
    (array([0, 1]), array([2, 2]), array([0, 1]))
    """
    X = _check_strings(strings)
    seq, pos = np.nonzero(X[:, :-1] == R)
    return seq, pos, X[seq, pos + 1] - ZERO


def _check_strings(strings: npt.ArrayLike, name: str = "strings") -> IntArray:
    """A batch (B, T) of flip-flop token indices 0..4."""
    X = check_array(name, strings, ndim=2, dtype=np.int64, min_size=0,
                    what="(B, T) token indices")
    if X.size and (X.min() < 0 or X.max() > ONE):
        raise ValueError(f"{name} must hold token indices 0..4 ({', '.join(FFL_TOKENS)})")
    return X


def ffl_read_count_law(T: int, p_r: float, n_sequences: int) -> tuple[float, float]:
    r"""Mean and standard deviation of the number of r instructions in ``n_sequences`` strings
    of FFL(T, p): :math:`n(1 + (T/2-2)p_r)` and :math:`\sqrt{n(T/2-2)p_r(1-p_r)}`.

    Parameters
    ----------
    T : int
        The length.
    p_r : float
        The probability of r.
    n_sequences : int
        Number of strings.

    Returns
    -------
    (float, float)
        Mean and standard deviation.

    Examples
    --------
    >>> mean, sd = ffl_read_count_law(512, 0.1, 100)   # 100 (1 + 254 * 0.1), sqrt(100*254*.09)
    >>> mean, round(sd, 4)
    (2640.0, 47.8121)
    """
    Tn, n = _check_T(T), check_int("n_sequences", n_sequences)
    p_r = check_float("p_r", p_r, minimum=0, maximum=1)
    k = Tn // 2 - 2
    return n * (1 + k * p_r), math.sqrt(n * k * p_r * (1 - p_r))


@dataclass(frozen=True)
class FlipFlopNetwork:
    """Proposition 3's two-layer network (module docstring); ``c`` is the attention scale.

    Parameters
    ----------
    T : int
        The string length.
    c : float
        The attention scale.
    layer1, layer2 : tuple of 4 numpy.ndarray
        The attention weights of each layer.
    round7, round1 : MLP
        The rounding MLPs.
    """

    T: int
    c: float
    layer1: tuple[FloatArray, FloatArray, FloatArray, FloatArray]
    layer2: tuple[FloatArray, FloatArray, FloatArray, FloatArray]
    round7: MLP
    round1: MLP

    def embed(self, strings: IntArray) -> FloatArray:
        """The 7-dimensional embeddings of token strings (indicators, a constant, the position).

        Parameters
        ----------
        strings : numpy.ndarray
            Token indices, shape (B, T).

        Returns
        -------
        numpy.ndarray
            Shape (B, T, 7).
        """
        X = np.zeros((*strings.shape, 7))
        X[..., 0] = strings == W
        X[..., 1] = (strings == R) | (strings == I)
        X[..., 2] = strings == ZERO
        X[..., 3] = strings == ONE
        X[..., 4] = 1.0
        X[..., 5] = np.arange(1, strings.shape[1] + 1) / self.T
        return X

    def forward(self, strings: npt.ArrayLike) -> FloatArray:
        """The rounded layer-2 output coordinate :math:`e_1` at every position, shape (B, T).

        Parameters
        ----------
        strings : array_like
            Token indices, shape (B, T).

        Returns
        -------
        numpy.ndarray
            Shape (B, T).
        """
        S = _check_strings(strings)
        if S.shape[1] > self.T:
            raise ValueError(f"strings must have shape (B, <= {self.T})")
        X = self.embed(S)
        a1 = attention(X, *self.layer1)
        f1 = X.copy()
        f1[..., 6] += self.round7(a1[..., 6:7] - 0.5)[..., 0]
        a2 = attention(f1, *self.layer2)
        return self.round1(a2[..., 0:1] - 0.5)[..., 0]

    def errors(self, strings: npt.ArrayLike) -> tuple[int, int, float]:
        """(wrong reads, reads, largest ``|output - bit|`` over reads) on deterministic FFL.

        Parameters
        ----------
        strings : array_like
            Token indices, shape (B, T).

        Returns
        -------
        (int, int, float)
            Wrong reads, reads, and the largest ``|output - bit|``.
        """
        S = _check_strings(strings)
        seq, pos, bit = read_targets(S)
        out = self.forward(S)[seq, pos]
        return int(np.sum(np.rint(out) != bit)), int(bit.size), float(np.max(
            np.abs(out - bit), initial=0.0))


def proposition3_network(T: int, *, c: float | None = None) -> FlipFlopNetwork:
    r"""Proposition 3's weights for length T (default :math:`c = 2T\log(8T)`).

    Parameters
    ----------
    T : int
        The string length.
    c : float, optional, keyword-only
        The attention scale.

    Returns
    -------
    FlipFlopNetwork
        The network.

    References
    ----------
    .. [1] 004 §3.5.7.1, Proposition 3; Lemma 13 (soft attention approximates hard).

    Examples
    --------
    >>> net = proposition3_network(12)
    >>> X = all_ffl_strings(12)
    >>> net.errors(X)[:2]
    (0, 2250)
    """
    Tn = _check_T(T)
    scale = (2 * Tn * math.log(8 * Tn) if c is None
             else check_float("c", c, positive=True, hint=" (the attention scale)"))
    e = np.eye(7)
    zero = np.zeros(7)
    W_Q = np.stack([e[4], e[4]], axis=1)
    layer1 = (W_Q, np.stack([3 * scale / (2 * Tn) * e[0], scale * e[5]], axis=1),
              np.stack([e[0], zero], axis=1), np.stack([e[6], zero]))
    layer2 = (W_Q.copy(), np.stack([scale * e[6], scale * e[5]], axis=1),
              np.stack([e[3], zero], axis=1), np.stack([e[0], zero]))
    rounding = threshold_mlp(0.25)          # 1[v > 1/2] for |v - 1/2| >= 1/4
    return FlipFlopNetwork(Tn, scale, layer1, layer2, rounding, rounding)


def dilution_bound(T: int, sigma_max: float, *, exponent: float = 2.0) -> float:
    r"""Proposition 4: :math:`1 - \frac{T-1}{T-1+\exp(2\sigma_{\max})}` (``exponent`` replaces
    the 2, for perturbations).

    Parameters
    ----------
    T : int
        The number of keys.
    sigma_max : float
        The largest score magnitude.
    exponent : float, keyword-only
        Replaces the 2 (default 2).

    Returns
    -------
    float
        The bound on the largest attention weight.

    Examples
    --------
    >>> dilution_bound(2, 0.0), round(dilution_bound(10, 0.0), 12)   # sigma = 0: uniform, 1/T
    (0.5, 0.1)
    """
    n = check_int("T", T)
    sigma = check_float("sigma_max", sigma_max, minimum=0, hint=" (a top singular value)")
    x = check_float("exponent", exponent, positive=True) * sigma
    if x > 700:                                       # e^x overflows; the same, stably
        return 1 / (1 + (n - 1) * math.exp(-x))
    return 1 - (n - 1) / (n - 1 + math.exp(x))


def max_attention_weight(M: npt.ArrayLike, keys: npt.ArrayLike, query: npt.ArrayLike) -> float:
    r"""The largest softmax weight :math:`\max_t \mathrm{softmax}_t(v_t^\top M v_T)` of one
    query over T keys (the query's own key included as the last row of ``keys``).

    Parameters
    ----------
    M : array_like
        The attention matrix.
    keys : array_like
        The keys, one per row (the query's last).
    query : array_like
        The query.

    Returns
    -------
    float
        The largest weight.

    Examples
    --------
    >>> M, keys, query = dilution_extremal_case(1.5, 8)
    >>> bool(abs(max_attention_weight(M, keys, query) - dilution_bound(8, 1.5)) < 1e-15)
    True
    """
    Ma = check_array("M", M, ndim=2)
    K = check_array("keys", keys, ndim=2)
    q = check_array("query", query, ndim=1)
    if Ma.shape != (K.shape[1], q.shape[0]):
        raise ValueError(f"M must be ({K.shape[1]}, {q.shape[0]}) for keys {K.shape} and query "
                         f"{q.shape}, got {Ma.shape}")
    s = K @ Ma @ q
    w = np.exp(s - s.max())
    return float(w.max() / w.sum())


def dilution_extremal_case(sigma: float, T: int, dim: int = 3) -> tuple[FloatArray, FloatArray,
                                                                          FloatArray]:
    r"""``(M, keys, query)`` attaining Proposition 4's bound: :math:`M = -\sigma vv^\top`,
    query v, target key -v (score :math:`+\sigma`), the other T - 1 keys (the query among them)
    v (score :math:`-\sigma`).

    Parameters
    ----------
    sigma : float
        The score magnitude.
    T : int
        The number of keys.
    dim : int, default 3
        The dimension.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        M, the keys and the query.

    Examples
    --------
    >>> import numpy as np
    >>> M, keys, query = dilution_extremal_case(1.5, 8)
    >>> float(np.linalg.svd(M, compute_uv=False)[0]), keys @ M @ query   # sigma_max, scores
    (1.5, array([ 1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5]))
    >>> round(max_attention_weight(M, keys, query), 6) == round(dilution_bound(8, 1.5), 6)
    True
    """
    n, d = check_int("T", T, minimum=2), check_int("dim", dim)
    sigma = check_float("sigma", sigma, minimum=0, hint=" (the top singular value)")
    guard_memory(array_bytes((n + d, d)) * 2, what=f"{n} keys in R^{d}", fix="lower T or dim")
    v = np.zeros(d)
    v[0] = 1.0
    keys = np.tile(v, (n, 1))
    keys[0] = -v
    return -sigma * np.outer(v, v), keys, v
