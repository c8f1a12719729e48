r"""002, eq. 1 and §3.2: prompts -- the categorical context construction with fractions
:math:`\alpha` (training) and :math:`\alpha'` (testing) -- and the context-length
probabilities behind eq. 9 and Remark 3.5.

A prompt is :math:`P = \begin{pmatrix} x_1 & \cdots & x_l & x_{query}\\ y_1 & \cdots & y_l
& 0\end{pmatrix} \in \mathbb R^{(d_X+d_Y)\times(l+1)}`, :math:`y_i = \pm q`.  Each
context's relevant pattern is drawn i.i.d.: each decisive pattern of the task with probability
:math:`\alpha/2`, each of the other :math:`M-2` with :math:`(1-\alpha)/(M-2)` (§3.2; §5 prints
the same for testing with :math:`\alpha'`, its ":math:`1-\alpha`" read as :math:`1-\alpha'`).
Context labels come from the task, so non-decisive contexts carry random labels.  The query's
pattern is one of the task's two decisive patterns with probability 1/2 each (Algorithm 1:
"each IDR pattern is sampled equally likely"; notes §5 A14), so :math:`z = \pm1` is balanced
and deterministic.  Each input is :math:`x = \mu_j + \kappa\nu_k`, :math:`\kappa \sim
U(-K, K)`, :math:`k` uniform over the irrelevant patterns (eqs. 6, 8).

Since the query's pattern is decisive, a context shares it with probability :math:`\alpha/2`,
so :math:`\Pr(\mathcal N = \emptyset) = (1-\alpha/2)^l` and the number of such contexts is
Binomial(:math:`l, \alpha/2`); eq. 63 bounds its lower tail by the multiplicative Chernoff
bound :math:`\Pr(|\mathcal N| \le (1-c)\alpha l/2) \le e^{-c^2\alpha l/4}`.

References
----------
002, eq. 1, §3.2 (prompt construction), Algorithm 1, eq. 9, eq. 63 and Lemma B.1, Remark 3.5,
§5.  Notes: docs/notes/seed_icl_nonlinear.md §1.5, PC-03.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from identifiability.icl._checks import check_fraction, check_int, check_object, check_positive
from identifiability.icl.data import Patterns
from identifiability.icl.tasks import _check_tasks
from seprank.core.memory import array_bytes, get_memory_limit, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import FloatArray, IntArray

__all__ = [
    "MAX_PROMPT_BYTES",
    "PromptBatch",
    "chernoff_bound",
    "context_probabilities",
    "min_context_length",
    "no_same_pattern_probability",
    "same_pattern_tail",
    "sample_prompts",
]


#: Largest prompt tensor :func:`sample_prompts` allocates (bytes); sample in chunks beyond it.
MAX_PROMPT_BYTES = 256 * 2**20


def context_probabilities(M: int, alpha: float) -> FloatArray:
    r"""Probabilities of the categorical context distribution for the task ``(0, 1)``:
    :math:`\alpha/2` for each decisive pattern, :math:`(1-\alpha)/(M-2)` for each other one.

    Parameters
    ----------
    M : int
        The number of patterns.
    alpha : float
        α.

    Returns
    -------
    numpy.ndarray
        The probabilities, length M.

    Examples
    --------
    >>> context_probabilities(4, 0.8).round(3).tolist()
    [0.4, 0.4, 0.1, 0.1]
    """
    M = check_int("number of relevant patterns M", M, 2)
    alpha = check_fraction("alpha", alpha)
    if M == 2 and alpha != 1:
        raise ValueError("with M = 2 patterns every context is decisive: alpha must be 1")
    p = np.full(M, (1 - alpha) / max(M - 2, 1))
    p[:2] = alpha / 2
    return p


def no_same_pattern_probability(alpha: float, length: int) -> float:
    r""":math:`\Pr(\text{no context shares the query's pattern}) = (1 - \alpha/2)^l` for the
    categorical construction (the query's pattern is decisive).

    Parameters
    ----------
    alpha : float
        α.
    length : int
        l.

    Returns
    -------
    float
        :math:`(1 - \alpha/2)^l`.

    Examples
    --------
    >>> no_same_pattern_probability(1.0, 3)
    0.125
    """
    return (1 - check_fraction("alpha", alpha) / 2) ** check_int("length", length, 0)


def min_context_length(alpha: float, p: float) -> int:
    r"""Smallest :math:`l` with :math:`(1-\alpha/2)^l \le p`:
    :math:`\lceil \log p / \log(1-\alpha/2) \rceil` (Remark 3.5: linear in :math:`1/\alpha`).

    Parameters
    ----------
    alpha : float
        α.
    p : float
        The target probability.

    Returns
    -------
    int
        The smallest l.

    Examples
    --------
    >>> [min_context_length(a, 0.1) for a in (1.0, 0.8, 0.6, 0.4)]
    [4, 5, 7, 11]
    """
    alpha = check_fraction("alpha", alpha)
    p = check_fraction("p", p)
    if p == 1:
        return 0
    l = math.ceil(math.log(p) / math.log(1 - alpha / 2))
    while l > 0 and (1 - alpha / 2) ** (l - 1) <= p:       # guard the float ceiling
        l -= 1
    while (1 - alpha / 2) ** l > p:
        l += 1
    return l


@dataclass(frozen=True)
class PromptBatch:
    """A batch of prompts (eq. 1) with what generated them.

    Attributes
    ----------
    P : ndarray (n, D, l+1)
        The prompts, columns :math:`p_1..p_l, p_{query}`.
    z : ndarray (n,)
        Query labels :math:`\\pm1`.
    tasks : ndarray (n, 2)
        The task ``(a, b)`` of each prompt.
    context_patterns : ndarray (n, l)
        Relevant-pattern index of each context.
    query_patterns : ndarray (n,)
        Relevant-pattern index of the query.
    context_labels : ndarray (n, l)
        Context labels :math:`\\pm1` (:math:`y_i = \\pm q`).
    d_x : int
        Feature dimension (rows ``:d_x`` of ``P`` are features, the rest labels).
    """

    P: FloatArray
    z: FloatArray
    tasks: IntArray
    context_patterns: IntArray
    query_patterns: IntArray
    context_labels: FloatArray
    d_x: int

    @property
    def n(self) -> int:
        return int(self.P.shape[0])

    @property
    def length(self) -> int:
        """Context length :math:`l`."""
        return int(self.P.shape[2]) - 1

    def prefix(self, length: int) -> PromptBatch:
        """The prompts cut to their first ``length`` contexts (and the query).  Contexts are
        i.i.d., so these are prompts of context length ``length`` from the same construction.

        Parameters
        ----------
        length : int
            The context length kept.

        Returns
        -------
        PromptBatch
            The cut prompts.

        Examples
        --------
        >>> from identifiability.icl import in_domain_patterns
        >>> b = sample_prompts(in_domain_patterns(), [(0, 1)], 3, 5, 0.8, seed=0)
        >>> c = b.prefix(2)
        >>> c.length, bool(np.array_equal(c.P[:, :, -1], b.P[:, :, -1]))
        (2, True)
        """
        length = check_int("length", length, 0, self.length)
        cols = [*range(length), self.length]
        return PromptBatch(np.ascontiguousarray(self.P[:, :, cols]), self.z, self.tasks,
                           self.context_patterns[:, :length], self.query_patterns,
                           self.context_labels[:, :length], self.d_x)

    @property
    def same_pattern(self) -> npt.NDArray[np.bool_]:
        """``(n, l)``: context s shares the query's relevant pattern (the set :math:`N`)."""
        return np.asarray(self.context_patterns == self.query_patterns[:, None])


def sample_prompts(patterns: Patterns, tasks: Iterable[Sequence[int]], n: int, length: int,
                   alpha: float, *, noise: float = 0.5, seed: SeedLike = None) -> PromptBatch:
    r"""``n`` prompts of context length ``length`` for tasks drawn uniformly from ``tasks``.

    Parameters
    ----------
    patterns : Patterns
        In-domain (IDR/IDI) or out-of-domain (ODR/ODI) patterns.
    tasks : iterable of (a, b)
        Task set (indices into ``patterns.relevant``).
    n, length : int
        Number of prompts and context length :math:`l \ge 0`.
    alpha : float
        :math:`\alpha` (training) or :math:`\alpha'` (testing) in (0, 1].
    noise : float, keyword-only
        :math:`K` (or :math:`K'`): irrelevant coefficients are :math:`U(-K, K)`.
    seed : seed-like, keyword-only
        The data stream.

    Returns
    -------
    PromptBatch
        The prompts, their labels and their patterns.

    Examples
    --------
    >>> from identifiability.icl import cyclic_tasks, in_domain_patterns
    >>> b = sample_prompts(in_domain_patterns(), cyclic_tasks(6), 4, 3, 0.8, seed=0)
    >>> b.P.shape, set(b.z.tolist()) <= {-1.0, 1.0}, bool(b.P[0, 30:, -1].any())
    ((4, 60, 4), True, False)
    """
    check_object("patterns", patterns, Patterns, "build them with in_domain_patterns()")
    M = patterns.M1
    task_list = _check_tasks(tasks, M)
    if not task_list:
        raise ValueError("tasks is empty")
    n = check_int("n", n, 1)
    length = check_int("length", length, 0)
    probs = context_probabilities(M, alpha)
    noise = check_positive("noise K", noise, allow_zero=True)
    rng = as_generator(seed)
    # the prompt tensor, its feature and label parts and the index arrays (about 3x P)
    guard_memory(3 * array_bytes((n, patterns.D, length + 1)) + array_bytes((n, M + length)),
                 what=f"{n} prompts of length {length}",
                 fix=f"sample in chunks of fewer prompts (lower n or length; MAX_PROMPT_BYTES "
                     f"= {MAX_PROMPT_BYTES // 2**20} MiB caps one batch)",
                 max_bytes=min(3 * MAX_PROMPT_BYTES, get_memory_limit()))
    T = np.asarray(task_list, dtype=np.int64)[rng.integers(len(task_list), size=n)]
    z = rng.choice(np.array([1.0, -1.0]), size=n)
    query = np.where(z > 0, T[:, 0], T[:, 1])
    # categorical draws: slot 0 -> pos, slot 1 -> neg, slot 2.. -> the other patterns in order
    slot = rng.choice(M, size=(n, length), p=probs)
    cand = np.broadcast_to(np.arange(M), (n, M))
    others = cand[(cand != T[:, :1]) & (cand != T[:, 1:])].reshape(n, M - 2)
    lookup = np.concatenate([T, others], axis=1)              # (n, M): slot -> pattern
    ctx = np.take_along_axis(lookup, slot, axis=1)
    coin = rng.choice(np.array([1.0, -1.0]), size=(n, length))
    labels = np.where(slot == 0, 1.0, np.where(slot == 1, -1.0, coin))
    pat = np.concatenate([ctx, query[:, None]], axis=1)       # (n, l+1)
    kappa = rng.uniform(-noise, noise, size=(n, length + 1, 1))
    irr = rng.integers(patterns.M2, size=(n, length + 1))
    X = patterns.relevant[pat] + kappa * patterns.irrelevant[irr]
    Y = np.zeros((n, length + 1, patterns.d_y))
    Y[:, :length] = labels[..., None] * patterns.q
    P = np.concatenate([X, Y], axis=2).transpose(0, 2, 1)
    return PromptBatch(np.ascontiguousarray(P), z, T, ctx, query, labels, patterns.d_x)


def same_pattern_tail(alpha: float, length: int, c: float) -> float:
    r"""Exact :math:`\Pr(|\mathcal N| \le (1-c)\alpha l/2)` for
    :math:`|\mathcal N| \sim \mathrm{Binomial}(l, \alpha/2)` (scipy).

    Parameters
    ----------
    alpha : float
        α.
    length : int
        l.
    c : float
        The relative deviation c.

    Returns
    -------
    float
        The probability.

    Examples
    --------
    >>> round(same_pattern_tail(1.0, 4, 0.5), 4)       # P(Bin(4, 1/2) <= 1) = 5/16
    0.3125
    """
    from scipy.stats import binom

    alpha = check_fraction("alpha", alpha)
    length = check_int("length", length, 1)
    c = check_fraction("c", c)
    return float(binom.cdf(math.floor((1 - c) * alpha * length / 2 + 1e-12), length,
                           alpha / 2))


def chernoff_bound(alpha: float, length: int, c: float) -> float:
    r"""Eq. 63's bound :math:`e^{-c^2\alpha l/4}` on :func:`same_pattern_tail` (Lemma B.1,
    eq. 25, with mean :math:`\alpha l/2`).

    Parameters
    ----------
    alpha : float
        α, the probability of a decisive pattern.
    length : int
        l, the context length.
    c : float
        The relative deviation c in (0, 1).

    Returns
    -------
    float
        :math:`e^{-c^2\alpha l/4}`.

    Examples
    --------
    >>> chernoff_bound(1.0, 4, 0.5) >= same_pattern_tail(1.0, 4, 0.5)
    True
    """
    alpha = check_fraction("alpha", alpha)
    length = check_int("length", length, 1)
    c = check_fraction("c", c)
    return math.exp(-c * c * alpha * length / 4)
