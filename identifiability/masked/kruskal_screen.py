r"""Engines of :func:`identifiability.kruskal_rank` for exact and modular k-ranks.

``level_by_minors(N, r, ...)`` decides whether every r columns of the integer matrix N are
independent: it screens all r x r minors of a random projection :math:`PN \bmod p` at once
(after a row reduction to :math:`[I \mid B]`, the maximal minors are the square minors of B,
computed by Laplace expansion) and confirms every vanishing minor with
:func:`seprank.matrix_rank`.  ``level_by_subsets`` is the definition: one
:func:`seprank.matrix_rank` call per column subset.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from typing import Any

import flint
import numpy as np
import numpy.typing as npt

from seprank.core import Method, guard_memory, matrix_rank, random_prime

__all__ = ["MAX_MINOR_COLUMNS", "level_by_minors", "level_by_subsets"]


def _subset_rank(N: npt.NDArray[Any], S: Sequence[int], method: Method,
                 rng: np.random.Generator) -> int:
    """Rank of the columns S (modulo two primes of ``rng`` for ``'modular'``)."""
    return matrix_rank(N[:, list(S)], method=method, n_primes=2, seed=rng).rank


def level_by_subsets(N: npt.NDArray[Any], r: int, method: Method,
                      rng: np.random.Generator) -> tuple[int, ...] | None:
    """Find a dependent set of ``r`` columns of ``N``, one rank per column subset.

    Parameters
    ----------
    N : numpy.ndarray
        The matrix (exact entries).
    r : int
        The level: the size of the column sets.
    method : {'exact', 'modular'}
        How a rank is computed.
    rng : numpy.random.Generator
        The stream of primes.

    Returns
    -------
    tuple of int or None
        The columns of a dependent r-set, or None when every r-set is independent.
    """
    for S in itertools.combinations(range(N.shape[1]), r):
        if _subset_rank(N, S, method, rng) < r:
            return S
    return None


#: The minors engine indexes column subsets by 64-bit colex ranks: at most this many columns.
MAX_MINOR_COLUMNS = 64


def minors_peak_bytes(r: int, n: int) -> int:
    """Peak bytes of :func:`level_by_minors` at level r with n columns: the int64 tables of all
    j x j minors of the r x (n - r) block, two sizes at a time, plus the temporaries of one
    Laplace step (estimated before anything is allocated).

    Examples
    --------
    >>> minors_peak_bytes(2, 4)      # 2 x 2 block: j = 1 tables, 8 (5 * 2 * 2 + 1 * (2 + 2))
    192
    >>> minors_peak_bytes(0, 4), minors_peak_bytes(4, 4)          # nothing to screen
    (0, 0)
    """
    a, b = r, n - r
    if a <= 0 or b <= 0:
        return 0
    return max(8 * 5 * math.comb(a, j) * math.comb(b, j) + 8 * j * (math.comb(a, j)
               + math.comb(b, j)) for j in range(1, min(a, b) + 1))


def level_by_minors(N: npt.NDArray[Any], r: int, method: Method, rng: np.random.Generator,
                     details: dict[str, Any]) -> tuple[int, ...] | None:
    """Find a dependent set of ``r`` columns of ``N`` by a random projection and minors mod p.

    Parameters
    ----------
    N : numpy.ndarray
        The matrix (exact entries).
    r : int
        The level: the size of the column sets screened.
    method : {'exact', 'modular'}
        How a candidate set is confirmed.
    rng : numpy.random.Generator
        The stream of primes and projections.
    details : dict
        Receives diagnostics.

    Returns
    -------
    tuple of int or None
        The columns of a dependent r-set, or None when every r-set is independent.
    """
    m, n = N.shape
    if max(r, n - r) > MAX_MINOR_COLUMNS:
        raise ValueError(
            f"kruskal_rank's engine='minors' handles at most {MAX_MINOR_COLUMNS} columns per "
            f"level (column subsets are indexed by 64-bit colex ranks); this level needs "
            f"{max(r, n - r)}: pass engine='subsets' (one exact rank per column subset, slower "
            "but unlimited)")
    guard_memory(minors_peak_bytes(r, n),
                 what=f"the minors screen of level r = {r} with {n} columns",
                 fix="use engine='subsets' (no tables, one rank per subset) or a lower "
                     "max_subsets")
    for _attempt in range(8):
        p = random_prime(rng, 31)
        Np = flint.nmod_mat([[int(v) % p for v in row] for row in N.tolist()], p)
        if r == m:
            G = Np
        else:
            P = flint.nmod_mat(rng.integers(0, p, (r, m)).tolist(), p)
            G = P * Np
        R, rank = G.rref()
        if rank == r:
            break
    else:  # the projection kept failing: fall back to the definition
        return level_by_subsets(N, r, method, rng)
    Rarr = np.array([[int(v) for v in row] for row in R.tolist()], dtype=np.int64)
    pivots = [int(np.flatnonzero(Rarr[i])[0]) for i in range(r)]
    others = [j for j in range(n) if j not in set(pivots)]
    B = Rarr[:, others]
    for R_rows, C_cols in _zero_square_minors(B, p):
        keep = [pivots[i] for i in range(r) if i not in set(R_rows)]
        S = tuple(sorted(keep + [others[c] for c in C_cols]))
        if _subset_rank(N, S, method, rng) < r:
            return S
        details["false_alarms"] += 1
    return None


def _colex_combinations(n: int, j: int) -> npt.NDArray[np.int64]:
    """All j-subsets of range(n) as rows, ordered by colex rank sum_i C(c_i, i + 1)."""
    if j == 0:
        return np.zeros((1, 0), dtype=np.int64)
    combos = np.array(list(itertools.combinations(range(n), j)), dtype=np.int64)
    return combos[np.argsort(_colex_rank(combos), kind="stable")]


_BINOM = np.array([[math.comb(a, b) for b in range(65)] for a in range(65)], dtype=np.int64)


def _colex_rank(combos: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    if combos.shape[1] == 0:
        return np.zeros(combos.shape[0], dtype=np.int64)
    return _BINOM[combos, np.arange(1, combos.shape[1] + 1)].sum(axis=1)


def _zero_square_minors(
    B: npt.NDArray[np.int64], p: int,
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Yield (rows, cols) of every square submatrix of B that is singular mod p.

    Laplace expansion along the first selected row, all minors of one size at a time, stored by
    colex rank of the row and column subsets.
    """
    a, b = B.shape
    prev = np.ones((1, 1), dtype=np.int64)
    for j in range(1, min(a, b) + 1):
        rows = _colex_combinations(a, j)
        cols = _colex_combinations(b, j)
        first = rows[:, 0]
        rest_rank = _colex_rank(rows[:, 1:]) if j > 1 else np.zeros(len(rows), dtype=np.int64)
        acc = np.zeros((len(rows), len(cols)), dtype=np.int64)
        for t in range(j):
            deleted = np.delete(cols, t, axis=1)
            term = B[first[:, None], cols[None, :, t]] * prev[rest_rank[:, None],
                                                             _colex_rank(deleted)[None, :]]
            term %= p
            acc = (acc + term) % p if t % 2 == 0 else (acc - term) % p
        zr, zc = np.nonzero(acc == 0)
        for i, c in zip(zr.tolist(), zc.tolist(), strict=True):
            yield tuple(rows[i].tolist()), tuple(cols[c].tolist())
        prev = acc
