r"""Empirical masked-prediction statistics from samples, streamed (004 §2.2, Theorems 7-8).

The population tensor of Theorems 7 and 8 is :math:`W = \sum_x x\otimes
\mathbb E[x_{t_2}\otimes x_{t_3}\mid x_{t_1}=x]`.  With the inputs drawn from the data
(weights :math:`P(x_{t_1} = x)`), it becomes the third cross-moment of three consecutive tokens

.. math::

    P_{123} = \mathbb E[x_t\otimes x_{t+1}\otimes x_{t+2}]
            = \tfrac1k\sum_{i\in[k]} (ET^\top)_i\otimes E_i\otimes (ET)_i ,

(:math:`E = O` with one-hot tokens: the joint law of three tokens; :math:`E = M` for the G-HMM,
where the Gaussian noise is independent across times, so no noise correction enters a
*cross*-time moment).  For the HMM, :math:`W = \operatorname{diag}(p_1)^{-1}P_{123}` along the
conditioning mode: the conditional tensor of the task and the joint have the same CP factors
in the target modes, and the joint weighs rare tokens by their frequency instead of amplifying
their noise.  Under A5 the chain is stationary, so every window :math:`(t, t+1, t+2)` of every
sequence is a draw of :math:`(x_1, x_2, x_3)`.

:func:`empirical_moments` accumulates the window sums of :math:`x_t\otimes x_{t+1}\otimes
x_{t+2}` and of the three pair products in ``n_groups`` groups (sequences round-robin; one
sequence in contiguous blocks), batch by batch: memory is :math:`O(n_{groups} d^3)` plus one
batch, whatever the number of sequences.  The groups give jackknife error bars that account
for the dependence between overlapping windows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core import (
    Result,
    array_bytes,
    check_array,
    check_choice,
    check_int,
    guard_memory,
)
from seprank.core.types import FloatArray

__all__ = ["TripleMoments", "empirical_moments"]

#: Pair products accumulated per window: (t, t+1), (t, t+2), (t+1, t+2).
PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (0, 2), (1, 2))
#: Windows processed at once (bounds the temporaries, whatever the input size).
CHUNK_BYTES = 32 * 2**20


@dataclass(frozen=True, repr=False)
class TripleMoments(Result):
    """Window sums of three consecutive observations, in jackknife groups.

    Attributes
    ----------
    kind : {'hmm', 'ghmm'}
    d : int
        Observation dimension (number of tokens for the HMM).
    triples : numpy.ndarray
        ``(n_groups, d, d, d)``: per group, :math:`\\sum_t x_t\\otimes x_{t+1}\\otimes x_{t+2}`.
    pairs : numpy.ndarray
        ``(n_groups, 3, d, d)``: per group, the sums of :math:`x_s x_u^\\top` for
        ``(s, u)`` in :data:`PAIRS` (offsets within the window).
    counts : numpy.ndarray
        Windows per group.
    n_sequences, n_observations : int
    details : Mapping
        Settings of the accumulation.
    """

    kind: str
    d: int
    triples: FloatArray
    pairs: FloatArray
    counts: npt.NDArray[np.int64]
    n_sequences: int
    n_observations: int
    details: Any = field(default_factory=dict)

    @property
    def n_windows(self) -> int:
        return int(self.counts.sum())

    def _repr_info(self) -> dict[str, Any]:
        return {"kind": self.kind, "d": self.d, "n_windows": self.n_windows,
                "n_sequences": self.n_sequences, "n_groups": len(self.counts)}

    def summary(self) -> str:
        """One line in words: the kind, the dimension and the sample the moments come from.

        Returns
        -------
        str
            One line.
        """
        return (f"{self.n_windows:,} windows of 3 from {self.n_sequences:,} sequences "
                f"({self.kind}, d = {self.d}) in {len(self.counts)} groups")

    def moments(self, leave_out: int | None = None) -> tuple[FloatArray, FloatArray]:
        """``(P123, P_pairs)``: the averages over all groups, or all but ``leave_out``.

        Parameters
        ----------
        leave_out : int, optional
            A jackknife group to leave out (None: every group).

        Returns
        -------
        P123 : numpy.ndarray
            The triple moment.
        P_pairs : numpy.ndarray
            The pair moments.
        """
        keep = np.ones(len(self.counts), dtype=bool)
        if leave_out is not None:
            keep[check_int("leave_out", leave_out, 0, len(self.counts) - 1)] = False
        n = float(self.counts[keep].sum())
        if n == 0:
            raise ValueError("no window in the chosen groups")
        return self.triples[keep].sum(axis=0) / n, self.pairs[keep].sum(axis=0) / n


def _as_stream(sequences: Any, kind: str) -> tuple[Iterator[npt.NDArray[Any]], bool]:
    """An iterator of arrays, and whether the input was one array."""
    single_ndims = {"hmm": (1, 2), "ghmm": (2, 3)}[kind]
    if isinstance(sequences, np.ndarray) or (
            isinstance(sequences, list | tuple) and sequences
            and not isinstance(sequences[0], np.ndarray)):
        try:
            arr = np.asarray(sequences)
        except ValueError:  # ragged: a list of sequences of different lengths
            return iter(sequences), False
        if arr.ndim in single_ndims and arr.dtype != object:
            return iter([arr]), True
    if isinstance(sequences, str | bytes) or not isinstance(sequences, Iterable):
        raise TypeError(f"sequences must be an array of observations or an iterable of them, "
                        f"got {type(sequences).__name__}")
    return iter(sequences), False


def _check_batch(batch: Any, kind: str, d: int | None, index: int) -> npt.NDArray[Any]:
    """A batch as (n_sequences, length) ints (HMM) or (n_sequences, length, d) floats."""
    name = f"sequences[{index}]" if index >= 0 else "sequences"
    if kind == "hmm":
        arr = np.asarray(batch)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"{name} must hold integer token indices (HMM), got dtype "
                            f"{arr.dtype}; for Gaussian observations use estimate_ghmm")
        if arr.ndim not in (1, 2) or arr.size == 0:
            raise ValueError(f"{name} must be a non-empty 1-D sequence or a 2-D array "
                             f"(n_sequences, length), got shape {arr.shape}")
        arr = arr.reshape(1, -1) if arr.ndim == 1 else arr
        if d is not None and (arr.min() < 0 or arr.max() >= d):
            raise ValueError(f"{name}: token indices must lie in [0, d) = [0, {d}), got "
                             f"{int(arr.min())}..{int(arr.max())}")
        return arr.astype(np.int64, copy=False)
    if np.asarray(batch).dtype.kind in "iub":
        raise TypeError(f"{name} holds integer tokens (dtype {np.asarray(batch).dtype}): a "
                        "G-HMM's observations are real vectors (length, d); for the tokens of "
                        "an HMM use estimate_hmm")
    arr = check_array(name, batch, ndim=(2, 3), what="(length, d) or (n_sequences, length, d) "
                                                     "Gaussian observations")
    arr = arr[None] if arr.ndim == 2 else arr
    if d is not None and arr.shape[-1] != d:
        raise ValueError(f"{name}: observations must have dimension d = {d}, got "
                         f"{arr.shape[-1]}")
    return arr


def empirical_moments(
    sequences: Any, d: int, *, kind: str = "hmm", n_groups: int = 10,
) -> TripleMoments:
    r"""Stream the window statistics of three consecutive observations.

    Parameters
    ----------
    sequences : array_like or iterable of array_like
        HMM: integer tokens in ``[0, d)``, one sequence (1-D) or a batch of equal-length
        sequences (2-D, one per row).  G-HMM: float vectors, one sequence ``(length, d)`` or a
        batch ``(n_sequences, length, d)``.  An iterable (list, generator) of such arrays is
        streamed batch by batch: memory does not grow with the number of batches.
    d : int
        Observation dimension (tokens 0..d-1 for the HMM).
    kind : {'hmm', 'ghmm'}, keyword-only
    n_groups : int, keyword-only
        Jackknife groups (>= 2): sequences go to groups round-robin; a batch that is a single
        sequence is cut into ``n_groups`` contiguous blocks.

    Returns
    -------
    TripleMoments

    Raises
    ------
    ValueError
        No window of three observations (every sequence shorter than 3), tokens outside
        ``[0, d)``, or observations of the wrong dimension.
    MemoryBudgetError
        If the ``n_groups x d^3`` accumulators exceed the memory limit.

    References
    ----------
    .. [1] 004, proofs of Theorems 7 and 8, (2.36) and (2.70): the tensor
       :math:`\sum_x x\otimes f(x)`, here with the inputs drawn from the data.

    Examples
    --------
    >>> seq = np.array([0, 1, 1, 0, 1])
    >>> mom = empirical_moments(seq, 2, n_groups=2)
    >>> mom.n_windows, float(mom.moments()[0][0, 1, 1])  # windows (0,1,1), (1,1,0), (1,0,1)
    (3, 0.3333333333333333)
    """
    d = check_int("d", d)
    check_choice("kind", kind, ("hmm", "ghmm"))
    n_groups = check_int("n_groups", n_groups, 2)
    acc_bytes = array_bytes((n_groups, d, d, d)) + array_bytes((n_groups, 3, d, d))
    guard_memory(2 * acc_bytes, what=f"the window statistics ({n_groups} groups of d^3, "
                                     f"d = {d})", fix="lower d or n_groups")
    triples = np.zeros((n_groups, d, d, d))
    pairs = np.zeros((n_groups, 3, d, d))
    counts = np.zeros(n_groups, dtype=np.int64)
    n_seq = n_obs = 0
    stream, single = _as_stream(sequences, kind)
    for index, batch in enumerate(stream):
        arr = _check_batch(batch, kind, d, -1 if single else index)
        one_sequence = arr.shape[0] == 1
        groups = (np.arange(n_seq, n_seq + arr.shape[0]) % n_groups)
        n_seq += arr.shape[0]
        n_obs += arr.shape[0] * arr.shape[1]
        if arr.shape[1] < 3:
            continue
        if one_sequence:
            # the blocks start at this sequence's round-robin group: a stream of short
            # sequences fills every group, not only the first blocks' ones
            _accumulate_blocks(arr[0], kind, d, triples, pairs, counts, int(groups[0]))
        else:
            for g in range(n_groups):
                rows = arr[groups == g]
                if rows.shape[0]:
                    _accumulate(rows, kind, d, triples[g], pairs[g], counts, g)
    if counts.sum() == 0:
        raise ValueError("sequences: no window of three consecutive observations (every "
                         "sequence is shorter than 3); the estimators need x_t, x_t+1, x_t+2")
    return TripleMoments(kind, d, triples, pairs, counts, n_seq, n_obs,
                         {"pairs": "offsets (0,1), (0,2), (1,2) within a window",
                          "grouping": "sequences round-robin; a single sequence in blocks"})


def _accumulate_blocks(seq: npt.NDArray[Any], kind: str, d: int, triples: FloatArray,
                       pairs: FloatArray, counts: npt.NDArray[np.int64], offset: int = 0
                       ) -> None:
    """One sequence: windows cut into len(counts) contiguous blocks, block b -> group
    (b + offset) mod n_groups."""
    n_windows = seq.shape[0] - 2
    edges = np.linspace(0, n_windows, len(counts) + 1).round().astype(int)
    for g in range(len(counts)):
        lo, hi = int(edges[g]), int(edges[g + 1])
        if hi > lo:  # windows lo..hi-1 use observations lo..hi+1
            h = (g + offset) % len(counts)
            _accumulate(seq[None, lo:hi + 2], kind, d, triples[h], pairs[h], counts, h)


def _accumulate(rows: npt.NDArray[Any], kind: str, d: int, triple: FloatArray,
                pair: FloatArray, counts: npt.NDArray[np.int64], g: int) -> None:
    """Add the windows of ``rows`` (n, length[, d]) to one group's sums, chunk by chunk."""
    n, length = rows.shape[0], rows.shape[1]
    per_window = 8 * (4 + (d * d if kind == "ghmm" else 0) + 3 * d)
    chunk_rows = max(1, CHUNK_BYTES // max(1, per_window * (length - 2)))
    if chunk_rows == 1 and length - 2 > CHUNK_BYTES // per_window:  # long sequences
        if n > 1:
            for r in range(n):
                _accumulate(rows[r:r + 1], kind, d, triple, pair, counts, g)
            return
        step = max(1, CHUNK_BYTES // per_window)
        for lo in range(0, length - 2, step):
            _accumulate(rows[:, lo:min(length, lo + step + 2)], kind, d, triple, pair,
                        counts, g)
        return
    for lo in range(0, n, chunk_rows):
        part = rows[lo:lo + chunk_rows]
        w = (part[:, :-2], part[:, 1:-1], part[:, 2:])
        m = w[0].shape[0] * w[0].shape[1]
        counts[g] += m
        if kind == "hmm":
            a, b, c = (x.reshape(-1) for x in w)
            triple += np.bincount((a * d + b) * d + c, minlength=d ** 3).reshape(d, d, d)
            for p, (s, u) in enumerate(PAIRS):
                x, y = (a, b, c)[s], (a, b, c)[u]
                pair[p] += np.bincount(x * d + y, minlength=d * d).reshape(d, d)
        else:
            a, b, c = (np.reshape(x, (m, d)) for x in w)
            triple += ((a[:, :, None] * b[:, None, :]).reshape(m, d * d).T @ c).reshape(d, d, d)
            for p, (s, u) in enumerate(PAIRS):
                pair[p] += (a, b, c)[s].T @ (a, b, c)[u]
