r"""Grid tensors and matricizations.

A *grid tensor* of a function :math:`f : (\mathbb R^{d})^N \to \mathbb R` on template vectors
:math:`x^{(1)}, \dots, x^{(M)}` is the order-N tensor

.. math::  \mathcal A(f)_{d_1 \dots d_N} = f(x^{(d_1)}, \dots, x^{(d_N)}),

and for a partition (A, B) of the N positions, the rank of its matricization
:math:`[\![\mathcal A(f)]\!]_{A,B}` is a lower bound on the separation rank
:math:`\operatorname{sep}_{(A,B)}(f)` for *any* choice of templates (003, Claim 1;
001, App. C.1.1).

**Convention.**  :func:`matricize` is exactly :func:`tensorly.base.matricize`: the row modes in
the order given, the remaining modes in ascending order as columns, C-order (row-major)
flattening, so the first row mode is the most significant digit of the row index.  This is the
numbering of paper 001, App. C.1.1, and differs from Kolda & Bader's (Fortran-order) unfolding by
a column permutation, which does not change the rank.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.errors import GridTooLargeError
from seprank.core.memory import (
    OBJECT_ENTRY_BYTES,
    resolve_limit,
)
from seprank.core.progress import progress_bar
from seprank.core.validation import check_indices, check_int

__all__ = [
    "GridTooLargeError",
    "grid_tensor",
    "matricize",
]

#: Input points evaluated per call of ``f``.
_DEFAULT_CHUNK_POINTS = 1 << 15


def matricize(
    T: npt.ArrayLike, row_modes: Sequence[int] | int, column_modes: Sequence[int] | None = None
) -> npt.NDArray[Any]:
    """Matricize a tensor: ``row_modes`` index the rows, the other modes the columns.

    Identical to :func:`tensorly.base.matricize` (and tested against it): the tensor is
    transposed to ``row_modes + column_modes`` and reshaped in C order to
    ``(prod of row sizes, prod of column sizes)``.  ``column_modes`` defaults to the remaining
    modes in ascending order.

    Parameters
    ----------
    T : array_like
        A tensor of order N >= 1 (any dtype, including object).
    row_modes : sequence of int or int
        Modes for the rows, in the order wanted (most significant first); bools are not modes
        (``[True]`` is refused, not read as mode 1).
    column_modes : sequence of int, optional
        Modes for the columns; with ``row_modes`` they must be a permutation of ``range(N)``.

    Returns
    -------
    numpy.ndarray
        The matricization, 2-D.

    Examples
    --------
    >>> import numpy as np
    >>> T = np.arange(8).reshape(2, 2, 2)
    >>> matricize(T, [0, 2])
    array([[0, 2],
           [1, 3],
           [4, 6],
           [5, 7]])
    """
    arr = np.asarray(T)
    if arr.ndim < 1 or arr.dtype.kind in "USV":
        raise ValueError(f"T must be a tensor (an array with at least one mode), got {T!r}")
    order = arr.ndim
    if isinstance(row_modes, int | np.integer) and not isinstance(row_modes, bool | np.bool_):
        rows = [check_int("row_modes", row_modes, 0, order - 1)]
    else:
        rows = list(check_indices("row_modes", row_modes, distinct=False, what="modes"))
    if column_modes is None:
        cols = [i for i in range(order) if i not in rows]
    else:
        cols = list(check_indices("column_modes", column_modes, distinct=False, what="modes"))
    if sorted(rows + cols) != list(range(order)):
        raise ValueError(
            f"row modes {rows} and column modes {cols} must together be a permutation of the "
            f"{order} modes 0..{order - 1} of a tensor of shape {arr.shape}"
        )
    n_rows = math.prod(arr.shape[i] for i in rows)
    n_cols = math.prod(arr.shape[i] for i in cols)
    return arr.transpose(rows + cols).reshape(n_rows, n_cols)


def _templates_per_position(
    templates: npt.ArrayLike | Sequence[npt.ArrayLike], n_inputs: int
) -> list[npt.NDArray[Any]]:
    if isinstance(templates, np.ndarray) or not isinstance(templates, list | tuple):
        shared = np.asarray(templates)
        if shared.ndim != 2:
            raise ValueError(
                f"templates must be an (M, dim) array of M template vectors (or a list of "
                f"n_inputs such arrays), got shape {shared.shape}"
            )
        return [shared] * n_inputs
    per = [np.asarray(t) for t in templates]
    if len(per) != n_inputs:
        raise ValueError(
            f"got {len(per)} per-position template arrays for n_inputs = {n_inputs}; pass one "
            "(M, dim) array to use the same templates everywhere"
        )
    dims = {t.shape[1] if t.ndim == 2 else None for t in per}
    if None in dims or len(dims) != 1:
        raise ValueError(
            "per-position templates must all be 2-D arrays (M_i, dim) with the same dim; got "
            f"shapes {[t.shape for t in per]}"
        )
    return per


def _entry_bytes(dtype: np.dtype[Any]) -> int:
    return OBJECT_ENTRY_BYTES if dtype.kind == "O" else int(dtype.itemsize)


def grid_tensor(
    f: Callable[[npt.NDArray[Any]], npt.ArrayLike],
    templates: npt.ArrayLike | Sequence[npt.ArrayLike],
    n_inputs: int,
    *,
    max_bytes: int | None = None,
    chunk_points: int = _DEFAULT_CHUNK_POINTS,
    progress: bool | None = None,
) -> npt.NDArray[Any]:
    r"""Evaluate ``f`` on every tuple of template vectors: the grid tensor of ``f``.

    Parameters
    ----------
    f : callable
        Batch-evaluable: ``f(X)`` with ``X`` of shape ``(batch, n_inputs, dim)`` returns an
        array of shape ``(batch,)`` or ``(batch, *out_shape)``.  It is called on chunks of
        the grid (never once per grid point).
    templates : array_like or list of array_like
        An ``(M, dim)`` array used at every position, or a list of ``n_inputs`` arrays
        ``(M_i, dim)`` (position i uses its own templates).  Any dtype: float64, integers (e.g.
        residues for arithmetic modulo a prime) or object (exact ints/Fractions).
    n_inputs : int
        N, the number of vector arguments of ``f``.
    max_bytes : int, optional, keyword-only
        Memory limit for the result plus one chunk of inputs; defaults to the process limit
        of :mod:`seprank.core.memory` (2 GiB unless changed with
        :func:`~seprank.core.memory.set_memory_limit`).
    chunk_points : int, keyword-only
        Grid points per call of ``f``.
    progress : bool, optional, keyword-only
        The progress policy's switch (:func:`seprank.core.progress.progress_bar`): None (the
        default) shows a bar once the grid has taken 2 s, unless an outer call shows one;
        False: none, here or below.

    Returns
    -------
    numpy.ndarray
        Shape ``(M_1, ..., M_N, *out_shape)``: entry ``[d_1, ..., d_N]`` is
        ``f(x^{(d_1)}, ..., x^{(d_N)})``.

    Raises
    ------
    GridTooLargeError
        If the estimated memory exceeds the limit; the message gives the estimate and how to
        reduce it.

    References
    ----------
    .. [1] 003 (Levine et al. 2020), Claim 1 and App. B.2;
       001, App. C.1.1 (grid tensors).

    Examples
    --------
    >>> import numpy as np
    >>> templates = np.array([[1, 0], [0, 1], [1, 1]])
    >>> def inner(X):            # f(x1, x2) = <x1, x2>
    ...     return np.einsum("bi,bi->b", X[:, 0], X[:, 1])
    >>> A = grid_tensor(inner, templates, 2)
    >>> A.shape
    (3, 3)
    >>> int(np.linalg.matrix_rank(A))   # <x1, x2> has separation rank dim = 2
    2
    """
    if not callable(f):
        raise TypeError(f"f must be a callable batch function f(X), got {type(f).__name__}")
    n_inputs = check_int("n_inputs", n_inputs)
    chunk_points = check_int("chunk_points", chunk_points)
    limit = resolve_limit(max_bytes)
    if isinstance(templates, np.ndarray) and templates.ndim == 2:
        # the grid has M**n_inputs points and one point has n_inputs vectors: refuse what
        # cannot fit before building anything of size n_inputs
        m, dim0 = templates.shape
        log2_points = n_inputs * math.log2(max(m, 1))
        one_point = n_inputs * max(dim0, 1) * _entry_bytes(templates.dtype)
        if log2_points > 62 or one_point > limit:
            raise GridTooLargeError(
                f"the grid of {m} templates at n_inputs = {n_inputs} positions has "
                f"{m}^{n_inputs} points of {n_inputs} vectors each: far above the limit of "
                f"{limit / 2**30:.2f} GiB. Use fewer templates or inputs.",
                needed=2**63, limit=limit, what="a grid tensor")
    per = _templates_per_position(templates, n_inputs)
    sizes = tuple(int(t.shape[0]) for t in per)
    if min(sizes) == 0:
        raise ValueError("every position needs at least one template vector")
    dim = int(per[0].shape[1])
    n_points = math.prod(sizes)
    in_dtype = np.result_type(*[t.dtype for t in per])
    chunk = max(1, min(int(chunk_points), n_points))
    input_bytes = chunk * n_inputs * dim * _entry_bytes(in_dtype)
    if input_bytes > limit:
        raise GridTooLargeError(
            f"one chunk of {chunk} grid points needs ~{input_bytes / 2**20:.1f} MiB, above the "
            f"limit of {limit / 2**20:.1f} MiB; pass a smaller chunk_points"
        )
    for t in per:
        if t.dtype.kind in "fc" and not np.all(np.isfinite(t)):
            raise ValueError("templates contain NaN or infinite entries")
        if t.dtype.kind in "USV":
            raise TypeError(f"templates must be numbers, got dtype {t.dtype}")
    stacked = [np.asarray(t, dtype=in_dtype) for t in per]

    def batch(flat_indices: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        idx = np.unravel_index(flat_indices, sizes)
        X = np.stack([stacked[i][idx[i]] for i in range(n_inputs)], axis=1)
        out = np.asarray(f(X))
        if out.shape[:1] != (len(flat_indices),):
            raise ValueError(
                f"f returned shape {out.shape} for a batch of {len(flat_indices)} points; it "
                "must return (batch,) or (batch, *out_shape)"
            )
        return out

    probe = batch(np.zeros(1, dtype=np.int64))
    out_shape = probe.shape[1:]
    out_entries = n_points * math.prod(out_shape)
    total = out_entries * _entry_bytes(probe.dtype) + input_bytes
    if total > limit:
        raise GridTooLargeError(
            f"the grid tensor has {n_points:,} points ({' x '.join(map(str, sizes))}) x "
            f"{math.prod(out_shape)} outputs of dtype {probe.dtype}: about "
            f"{total / 2**30:.2f} GiB, above the limit of {limit / 2**30:.2f} GiB. Use fewer "
            "templates or inputs, or raise the limit with max_bytes= or "
            "seprank.set_memory_limit(n_bytes) if the machine has the memory."
        )
    result = np.empty((n_points, *out_shape), dtype=probe.dtype)
    starts = range(0, n_points, chunk)
    with progress_bar(desc="grid tensor", total=len(starts), unit="chunk",
                      progress=progress) as bar:
        for start in starts:
            stop = min(start + chunk, n_points)
            out = batch(np.arange(start, stop, dtype=np.int64))
            if out.dtype != probe.dtype and not np.can_cast(out.dtype, probe.dtype, "safe"):
                raise TypeError(
                    f"f returned dtype {out.dtype} for one chunk but {probe.dtype} for the "
                    "first point; make f return one dtype (nothing is cast silently)"
                )
            result[start:stop] = out
            bar.update()
    return result.reshape(*sizes, *out_shape)
