r"""One memory policy for every large allocation of :mod:`seprank` and :mod:`identifiability`.

Every computation whose memory grows with an argument (a grid tensor, the rank of its
matricization, template sampling, weights of a wide network, samples of a long chain, a
simulated trajectory, the column subsets of a Kruskal level, ...) *estimates* its peak before
it allocates anything and calls :func:`guard_memory`, which raises
:class:`MemoryBudgetError` -- a :class:`MemoryError` carrying the estimate, the limit and the
fix -- when the estimate is above the limit.  Nothing is allocated first and refused later, so
a refused call never swaps the machine or kills a Jupyter kernel.

The limit is one number for the whole process, 2 GiB by default:

* :func:`get_memory_limit` / :func:`set_memory_limit`;
* ``with memory_limit(n_bytes): ...`` sets it for a block;
* functions that allocate take ``max_bytes=`` where a per-call limit is useful (the grid
  engine; the separation-rank engine takes it in its ``budget=``); ``None`` means the process
  limit.

Estimates are of the *peak*, counted in bytes of the arrays held at once.  Measured factors
(see :data:`RANK_STEP_FACTOR`; python-flint 0.6-0.7, numpy 1.26-2.x):

==============  ==========================================================================
rank step       peak bytes beyond the grid matrix itself, per grid entry
==============  ==========================================================================
modular         the GF(p) matrix (``nmod_mat``, 8 bytes), the copy flint's elimination
                makes, row buffers: 2.5 x the int64 grid (it was 7 x while the matrix was
                built from one Python list of every entry; it is now built row by row).
                Large integer grids with a prime below 2**26 go to the float64 BLAS
                elimination (:mod:`seprank.core.gfp_elimination`): one float64 copy,
                eliminated in place, plus strips of at most 4 x 32 MiB
                (:func:`~seprank.core.gfp_elimination.elimination_bytes`); the degree blocks
                count that (:func:`seprank.separation.blocks.rank_step_bytes`), the other
                engines keep the 2.5 of python-flint
exact           ``fmpz_mat`` and its elimination copies: 0.9 x the object grid for small
                entries, 2.5 x for 150-bit ones; the engines count an exact entry as
                64 + bits/2 bytes (measured sizes) and the step as 1.5 x that
svd             LAPACK's copy and workspace: 1.5 x the float grid
==============  ==========================================================================
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from seprank.core.errors import MemoryBudgetError

__all__ = [
    "DEFAULT_MEMORY_LIMIT",
    "OBJECT_ENTRY_BYTES",
    "RANK_STEP_FACTOR",
    "MemoryBudgetError",
    "array_bytes",
    "get_memory_limit",
    "guard_memory",
    "memory_limit",
    "set_memory_limit",
]

#: The process-wide default limit: 2 GiB.
DEFAULT_MEMORY_LIMIT = 2 * 1024**3
#: Bytes per entry assumed for object arrays (a pointer plus a small Python int or Fraction).
OBJECT_ENTRY_BYTES = 64
#: Peak bytes of a rank step beyond the matrix, in units of the matrix's own bytes (measured
#: with ``getrusage`` max-RSS on 1000..3000-square matrices; module docstring).
RANK_STEP_FACTOR = {"modular": 2.5, "exact": 1.5, "svd": 1.5}

_limit = DEFAULT_MEMORY_LIMIT


def _check_limit(n_bytes: Any, name: str) -> int:
    if isinstance(n_bytes, bool) or not isinstance(n_bytes, numbers.Integral) or n_bytes <= 0:
        raise ValueError(f"{name} must be a positive integer number of bytes (e.g. 8 * 2**30 "
                         f"for 8 GiB), got {n_bytes!r} ({type(n_bytes).__name__})")
    return int(n_bytes)


def get_memory_limit() -> int:
    """The process-wide memory limit in bytes (default 2 GiB).

    Returns
    -------
    int
        Bytes.

    Examples
    --------
    >>> get_memory_limit() >= 1
    True
    """
    return _limit


def set_memory_limit(n_bytes: int) -> int:
    """Set the process-wide memory limit (bytes); returns the previous limit.

    ``True``, floats and non-positive numbers are refused (``True`` would otherwise be a limit
    of one byte).

    Parameters
    ----------
    n_bytes : int
        The new limit (> 0).

    Returns
    -------
    int
        The previous limit.

    Examples
    --------
    >>> old = set_memory_limit(10**6)
    >>> get_memory_limit()
    1000000
    >>> _ = set_memory_limit(old)
    >>> set_memory_limit(True)
    Traceback (most recent call last):
    ...
    ValueError: n_bytes must be a positive integer number of bytes (...), got True (bool)
    """
    global _limit
    value = _check_limit(n_bytes, "n_bytes")
    previous, _limit = _limit, value
    return previous


@contextmanager
def memory_limit(n_bytes: int) -> Iterator[int]:
    """Set the memory limit inside a ``with`` block (restored afterwards, also on errors).

    Parameters
    ----------
    n_bytes : int
        The limit inside the block.

    Yields
    ------
    int
        ``n_bytes``, the limit in force inside the block.

    Examples
    --------
    >>> with memory_limit(10**6):
    ...     get_memory_limit()
    1000000
    """
    previous = set_memory_limit(n_bytes)
    try:
        yield n_bytes
    finally:
        set_memory_limit(previous)


def resolve_limit(max_bytes: int | None, name: str = "max_bytes") -> int:
    """``max_bytes`` validated, or the process limit when it is None.

    Examples
    --------
    >>> resolve_limit(None) == get_memory_limit(), resolve_limit(2**20)
    (True, 1048576)
    >>> resolve_limit(0)
    Traceback (most recent call last):
    ValueError: max_bytes must be a positive integer number of bytes ...
    """
    return get_memory_limit() if max_bytes is None else _check_limit(max_bytes, name)


def array_bytes(shape: Sequence[int] | int, dtype: Any = np.float64) -> int:
    """Bytes of an array of ``shape`` and ``dtype`` (object: :data:`OBJECT_ENTRY_BYTES`).

    Exact for any size (Python integers; nothing overflows).

    Parameters
    ----------
    shape : int or sequence of int
        The shape.
    dtype : numpy dtype, default float64
        The dtype.

    Returns
    -------
    int
        Bytes.

    Examples
    --------
    >>> array_bytes((10**6, 3), np.int64)
    24000000
    >>> array_bytes(5, object)
    320
    """
    dims: tuple[int, ...] = ((int(shape),) if isinstance(shape, numbers.Integral)
                             else tuple(shape))  # type: ignore[arg-type]
    dt = np.dtype(dtype)
    per = OBJECT_ENTRY_BYTES if dt.kind == "O" else int(dt.itemsize)
    return math.prod(max(0, int(s)) for s in dims) * per


def _fmt(n_bytes: float) -> str:
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n_bytes >= size:
            return f"{n_bytes / size:.3g} {unit}"
    return f"{int(n_bytes)} bytes"


def guard_memory(n_bytes: float, *, what: str, fix: str, max_bytes: int | None = None,
                 takes_max_bytes: bool = False,
                 error: type[MemoryBudgetError] = MemoryBudgetError) -> int:
    """Refuse an allocation whose estimated peak ``n_bytes`` exceeds the limit.

    Parameters
    ----------
    n_bytes : int or float
        The estimated peak (use :func:`array_bytes`; a float such as ``inf`` is allowed).
    what : str
        What would be allocated, for the message (e.g. ``"the samples (n_sequences x n_steps)"``).
    fix : str
        How to reduce it (e.g. ``"sample in batches of fewer steps"``).
    max_bytes : int, optional
        A per-call limit; default :func:`get_memory_limit`.
    takes_max_bytes : bool, optional
        The caller takes ``max_bytes=`` (the message then mentions it).
    error : type, optional
        The :class:`MemoryBudgetError` subclass to raise.

    Returns
    -------
    int
        The limit used.

    Raises
    ------
    MemoryBudgetError
        With the estimate, the limit and the fix, before anything is allocated.

    Examples
    --------
    >>> guard_memory(10 * 2**30, what="a test array", fix="use less", max_bytes=2**30)
    Traceback (most recent call last):
    ...
    seprank.core.errors.MemoryBudgetError: a test array needs about 10 GiB, above the memory
    limit of 1 GiB; use less, or raise the limit with seprank.set_memory_limit(n_bytes) ...
    """
    limit = resolve_limit(max_bytes)
    if not n_bytes <= limit:  # also catches NaN
        how = ("max_bytes= or seprank.set_memory_limit(n_bytes)" if takes_max_bytes
               else "seprank.set_memory_limit(n_bytes)")
        raise error(
            f"{what} needs about {_fmt(n_bytes)}, above the memory limit of {_fmt(limit)}; "
            f"{fix}, or raise the limit with {how} if the machine has the memory",
            needed=int(n_bytes) if math.isfinite(n_bytes) else 2**63, limit=limit, what=what)
    return limit
