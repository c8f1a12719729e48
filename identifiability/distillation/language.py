r"""The masked-prediction plumbing of 004 §4.2.3: Definition 24 (masking) and Definition 25
(n-gram neighbouring context), with the total-variation measures (4.94)-(4.95).

* **Definition 24** (mask rate p): every position enters :math:`\mathcal M` independently with
  probability p; a masked token is replaced by the special token C (80 %), a random token of the
  vocabulary (10 %) or kept (10 %).  A "random token" drawn uniformly from the vocabulary equals
  the original with probability :math:`1/|v|`, so a masked position is *unchanged* with
  probability :math:`0.1 + 0.1/|v|` (13.3 % for the PCFGs' :math:`|v| = 3`) --
  :func:`mask_sequence` reports both
  the action drawn and whether the token changed.
* **Definition 25**: :math:`n\text{-gram}(i) = \{j: \max(i - \lceil\frac{n-1}2\rceil, 0)\le j
  \le\min(i + \lfloor\frac{n-1}2\rfloor, h)\}`.  The clip bounds 0 and h cannot both be
  positions of a length-h sentence: with 0-based positions the upper clip should be h - 1,
  with 1-based positions (:math:`i\in[h]`) the lower one should be 1.  Intersected with the
  actual positions both readings give the same windows (``indexing=``), which is what the
  worked example (“The cat ran away”) needs.  For even n the window extends one further to the
  left than to the right.
* :func:`total_variation` for :math:`L_{\rm robust}` (4.94) and :math:`L_{\rm close}` (4.95).

References
----------
004 §4.2.3: Definition 24, Definition 25 and its example (Figure 4.6), eqs. (4.94)-(4.95).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from seprank.core.random import SeedLike, as_generator
from seprank.core.validation import check_array, check_bool, check_choice, check_float, check_int

__all__ = [
    "ACTION_KEEP",
    "ACTION_MASK",
    "ACTION_RANDOM",
    "REPLACEMENT_PROBABILITIES",
    "MaskedSequence",
    "mask_sequence",
    "ngram_context",
    "total_variation",
]

ACTION_MASK, ACTION_RANDOM, ACTION_KEEP = 0, 1, 2
#: Definition 24's split of masked positions: special token, random token, unchanged.
REPLACEMENT_PROBABILITIES = (0.8, 0.1, 0.1)


def ngram_context(i: int, n: int, h: int, *, indexing: Literal[0, 1] = 0,
                  include_center: bool = False) -> tuple[int, ...]:
    """The positions of Definition 25's n-gram window around position i of a length-h sentence,
    clipped to the sentence (``include_center=False`` drops i itself: the *context*).

    Parameters
    ----------
    i : int
        The position.
    n : int
        The n of the n-gram.
    h : int
        The sentence length.
    indexing : {0, 1}, keyword-only
        0- or 1-based positions (default 0).
    include_center : bool, keyword-only
        Keep i itself (default False).

    Returns
    -------
    tuple of int
        The positions.

    Examples
    --------
    >>> words = ["The", "cat", "ran", "away"]
    >>> [words[j] for j in ngram_context(1, 3, 4)]          # 3-gram context of "cat"
    ['The', 'ran']
    >>> [words[j] for j in ngram_context(1, 5, 4)]          # 5-gram adds "away"
    ['The', 'ran', 'away']
    >>> [words[j - 1] for j in ngram_context(2, 5, 4, indexing=1)]   # 1-based: the same words
    ['The', 'ran', 'away']
    """
    h = check_int("h", h, minimum=1)
    n = check_int("n", n, minimum=1)
    check_choice("indexing", indexing, (0, 1))
    include_center = check_bool("include_center", include_center)
    first, last = (0, h - 1) if indexing == 0 else (1, h)
    i = check_int("i", i, minimum=first, maximum=last)
    left, right = (n - 1 + 1) // 2, (n - 1) // 2                      # ceil, floor of (n-1)/2
    lo, hi = max(i - left, 0), min(i + right, h)                      # Definition 25 as printed
    return tuple(j for j in range(max(lo, first), min(hi, last) + 1)
                 if include_center or j != i)


@dataclass(frozen=True)
class MaskedSequence:
    """One draw of Definition 24: the corrupted sequence and what happened where.

    Attributes
    ----------
    tokens : (h,) the corrupted input :math:`x_{\\setminus\\mathcal M}`.
    masked : (h,) bool, :math:`i\\in\\mathcal M`.
    action : (h,) int, ACTION_MASK / ACTION_RANDOM / ACTION_KEEP on masked positions, -1 else.
    changed : (h,) bool, whether the token differs from the original.
    """

    tokens: npt.NDArray[np.int64]
    masked: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int64]
    changed: npt.NDArray[np.bool_]


def mask_sequence(tokens: npt.ArrayLike, p: float, vocab_size: int, mask_token: int, *,
                  seed: SeedLike) -> MaskedSequence:
    """Definition 24 applied to one sequence of token ids in ``range(vocab_size)``.

    ``mask_token`` (C) must lie outside the vocabulary; the random replacement is uniform on
    the vocabulary (so it may equal the original token).

    Parameters
    ----------
    tokens : array_like
        Token ids.
    p : float
        The masking probability.
    vocab_size : int
        The vocabulary size.
    mask_token : int
        C, outside the vocabulary.
    seed : int or numpy.random.Generator, keyword-only
        Seeds the masking.

    Returns
    -------
    MaskedSequence
        The masked tokens and what was masked.

    Examples
    --------
    >>> out = mask_sequence([0, 1, 2, 1], 1.0, 3, 3, seed=0)
    >>> out.masked.tolist(), sorted(set(out.action.tolist())) <= [0, 1, 2]
    ([True, True, True, True], True)
    """
    v = check_int("vocab_size", vocab_size, minimum=1)
    x = check_array("tokens", tokens, ndim=1, dtype=np.int64)
    if x.min() < 0 or x.max() >= v:
        raise ValueError(f"tokens must be a non-empty 1-D sequence of ids in 0..{v - 1}")
    p = check_float("mask rate p", p, minimum=0, maximum=1)
    mask_token = check_int("mask_token", mask_token, minimum=0)
    if mask_token < v:
        raise ValueError(f"mask_token {mask_token} must lie outside the vocabulary 0..{v - 1} "
                         f"(a token id >= {v})")
    rng = as_generator(seed)
    masked = rng.random(x.size) < float(p)
    action = np.where(masked, rng.choice(3, size=x.size, p=REPLACEMENT_PROBABILITIES), -1)
    random_tokens = rng.integers(0, v, size=x.size)
    out = x.copy()
    out[action == ACTION_MASK] = int(mask_token)
    out[action == ACTION_RANDOM] = random_tokens[action == ACTION_RANDOM]
    return MaskedSequence(out, masked, action.astype(np.int64), out != x)


def total_variation(p: npt.ArrayLike, q: npt.ArrayLike) -> float:
    """:math:`\\mathrm{TV}(p, q) = \\tfrac12\\sum|p - q|` of two distributions on one support.

    Parameters
    ----------
    p, q : array_like
        Probability vectors on one support.

    Returns
    -------
    float
        TV(p, q).

    Examples
    --------
    >>> total_variation([0.5, 0.5, 0.0], [0.25, 0.25, 0.5])
    0.5
    """
    a, b = check_array("p", p, ndim=1), check_array("q", q, ndim=1)
    for name, arr in (("p", a), ("q", b)):
        if np.any(arr < 0) or not np.isclose(arr.sum(), 1.0, atol=1e-9):
            raise ValueError(f"{name} must be a probability vector (non-negative, sums to 1)")
    if a.shape != b.shape:
        raise ValueError(f"p and q have different supports: {a.shape} vs {b.shape}")
    return float(0.5 * np.abs(a - b).sum())
