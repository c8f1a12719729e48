"""Validation and conversion of matrix inputs for the exact, modular and float rank engines.

Every public linear-algebra routine of :mod:`seprank` funnels its input through this module, so
that the rules are the same everywhere:

* exact and modular routines accept only *exactly representable* rationals: numpy integer or
  boolean arrays, object arrays (or nested lists) of ``int`` / :class:`fractions.Fraction` /
  sympy rationals / flint ``fmpz`` and ``fmpq``, sympy matrices with rational entries and flint
  ``fmpz_mat`` / ``fmpq_mat``.  A float anywhere is refused, never rounded;
* float routines accept anything numpy can turn into a float or complex array, but refuse
  NaN and infinity;
* everything must be two-dimensional.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import flint
import numpy as np
import numpy.typing as npt

__all__ = [
    "ExactMatrix",
    "as_exact_matrix",
    "as_float_matrix",
    "to_rational",
]

_FLOAT_REFUSAL = (
    "exact and modular ranks need exactly representable entries, but {what}. "
    "Pass integers or fractions.Fraction values (e.g. np.asarray(M, dtype=np.int64), "
    "or Fraction(x).limit_denominator() if you know the exact rationals), "
    "or use method='svd' for a float rank that certifies nothing."
)


@dataclass(frozen=True)
class ExactMatrix:
    """A rational matrix stored as integer numerators with one positive denominator per row.

    ``value[i, j] == numerators[i, j] / row_denominators[i]``.  Row scaling by a nonzero
    constant preserves the rank over Q and over GF(p) for every p not dividing the denominator,
    so both engines work on the integer numerators.

    Attributes
    ----------
    numerators : numpy.ndarray
        ``int64`` array when every numerator fits, otherwise an object array of Python ints.
    row_denominators : tuple of int
        Positive row scale factors (all 1 for integer input).
    """

    numerators: npt.NDArray[Any]
    row_denominators: tuple[int, ...]

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.numerators.shape[0]), int(self.numerators.shape[1]))

    @property
    def is_integer(self) -> bool:
        return all(d == 1 for d in self.row_denominators)

    def denominators_divisible_by(self, p: int) -> bool:
        """True when ``p`` divides some row denominator (the reduction mod p is undefined).

        Parameters
        ----------
        p : int
            A prime.

        Returns
        -------
        bool
            Whether p divides some row denominator.
        """
        return any(d % p == 0 for d in self.row_denominators)

    @cached_property
    def integer_matrix(self) -> flint.fmpz_mat:
        """The numerators as a flint ``fmpz_mat`` (built once, reused for every prime).

        Filled row by row: a list of all m*n Python ints first would cost ~40 bytes per
        entry on top of the matrix (the memory policy, :mod:`seprank.core.memory`)."""
        m, n = self.shape
        if m * n <= _LIST_BUILD_ENTRIES:
            return flint.fmpz_mat(m, n, self.numerators.ravel().tolist())
        M = flint.fmpz_mat(m, n)
        _fill_rows(M, self.numerators)
        return M

    def modular_matrix(self, p: int) -> flint.nmod_mat:
        """The numerators reduced modulo ``p`` (row scaling does not change the rank).

        int64 numerators are reduced with numpy and written row by row straight into the
        ``nmod_mat`` (no ``fmpz_mat`` in between); big ones go through :attr:`integer_matrix`.

        Parameters
        ----------
        p : int
            A prime not dividing any row denominator.

        Returns
        -------
        flint.nmod_mat
            The reduced matrix.
        """
        if self.numerators.dtype == object:
            return flint.nmod_mat(self.integer_matrix, p)
        m, n = self.shape
        if m * n <= _LIST_BUILD_ENTRIES:  # small: one list is fastest and costs nothing
            return flint.nmod_mat(self.integer_matrix, p)
        M = flint.nmod_mat(m, n, p)
        if p < 2**63:
            _fill_rows(M, np.mod(self.numerators, np.int64(p)))
        else:
            _fill_rows(M, self.numerators.astype(object) % p)
        return M


#: Matrices up to this many entries are built from one Python list (fast for the many small
#: ranks of the Kruskal engines); larger ones row by row (a list of every entry would cost
#: ~40 bytes per entry on top of the matrix).
_LIST_BUILD_ENTRIES = 1 << 16


def _fill_rows(M: Any, values: npt.NDArray[Any]) -> None:
    """``M[i, j] = values[i, j]`` one row at a time (peak: one row of Python ints)."""
    for i in range(values.shape[0]):
        for j, v in enumerate(values[i].tolist()):
            if v:
                M[i, j] = v


def _check_2d(shape: tuple[int, ...], name: str = "M") -> None:
    if len(shape) != 2:
        hint = (
            " Use seprank.matricize(T, row_modes) to flatten a tensor first."
            if len(shape) > 2
            else " Reshape it, e.g. M.reshape(1, -1) for a single row."
        )
        raise ValueError(f"{name} must be a 2-D matrix, got an array of shape {shape}.{hint}")


def to_rational(x: Any) -> int | Fraction:
    """Convert one scalar to ``int`` or ``Fraction``; refuse anything inexact.

    Parameters
    ----------
    x : object
        An integer or an exact rational (Fraction, sympy Rational, numpy integer).

    Returns
    -------
    int or fractions.Fraction
        The number.
    """
    if isinstance(x, bool | np.bool_):
        return int(x)
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, Fraction):
        return x
    if isinstance(x, numbers.Rational):  # sympy.Rational is registered as numbers.Rational
        return Fraction(int(x.numerator), int(x.denominator))
    type_name = type(x).__name__
    if type_name == "fmpz":
        return int(x)
    if type_name == "fmpq":
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, float | np.floating | complex | np.complexfloating):
        raise TypeError(_FLOAT_REFUSAL.format(what=f"the input holds the float {x!r}"))
    raise TypeError(
        f"x = {x!r} (type {type_name}) is not an exact rational. "
        "Exact and modular ranks accept int, fractions.Fraction, sympy.Rational and flint "
        "fmpz/fmpq entries; substitute numbers for symbols first, or use method='svd'."
    )


def _object_array(M: Any, name: str = "M") -> npt.NDArray[Any]:
    """Turn nested lists, sympy and flint matrices into a 2-D numpy object array."""
    if hasattr(M, "tolist") and type(M).__name__ in {"fmpz_mat", "fmpq_mat", "nmod_mat"}:
        if type(M).__name__ == "nmod_mat":
            raise TypeError(
                "an nmod_mat is a matrix over GF(p), not over the rationals; "
                "use seprank.rank_mod_p(residues, p) for it."
            )
        rows = M.tolist()
        arr = np.empty((M.nrows(), M.ncols()), dtype=object)
        for i, row in enumerate(rows):
            for j, x in enumerate(row):
                arr[i, j] = x
        return arr
    try:
        import sympy

        if isinstance(M, sympy.MatrixBase):
            arr = np.empty(M.shape, dtype=object)
            for i in range(M.shape[0]):
                for j in range(M.shape[1]):
                    arr[i, j] = M[i, j]
            return arr
    except ImportError:  # pragma: no cover - sympy is a hard dependency
        pass
    try:
        arr = np.array(M, dtype=object)
    except ValueError as err:
        raise ValueError(f"could not read {name} as a rectangular matrix: {err}") from err
    return arr


def as_exact_matrix(M: Any, name: str = "M") -> ExactMatrix:
    """Validate ``M`` as an exact rational matrix and return it as :class:`ExactMatrix`.

    ``name`` is the argument's name in the caller, used in the error messages.

    Parameters
    ----------
    M : array_like
        Integers or rationals (numpy integer or object arrays, nested lists, sympy or flint
        matrices).
    name : str, default 'M'
        The argument's name in the caller.

    Returns
    -------
    ExactMatrix
        The matrix as row-scaled integers.

    Raises
    ------
    TypeError
        If any entry is a float, complex, symbol or other inexact object.
    ValueError
        If the input is not two-dimensional or not rectangular.
    """
    if isinstance(M, ExactMatrix):  # converted already (a rank modulo several primes)
        return M
    if isinstance(M, str | bytes):
        raise TypeError(f"{name} must be a matrix of exact numbers, got the string {M!r}")
    if isinstance(M, np.ndarray) and M.dtype != object:
        _check_2d(M.shape, name)
        if M.dtype.kind == "b":
            return ExactMatrix(M.astype(np.int64), (1,) * M.shape[0])
        if M.dtype.kind == "i":
            return ExactMatrix(M.astype(np.int64, copy=False), (1,) * M.shape[0])
        if M.dtype.kind == "u":
            if M.size and int(M.max()) >= 2**63:
                return ExactMatrix(M.astype(object), (1,) * M.shape[0])
            return ExactMatrix(M.astype(np.int64), (1,) * M.shape[0])
        if M.dtype.kind in "fc":
            bad = " (it also contains NaN or inf)" if not np.all(np.isfinite(M)) else ""
            raise TypeError(
                _FLOAT_REFUSAL.format(what=f"{name} is a {M.dtype} array{bad}")
            )
        raise TypeError(f"{name} has the unsupported dtype {M.dtype} for an exact rank")
    arr = _object_array(M, name)
    _check_2d(arr.shape, name)
    m, n = arr.shape
    conv = np.empty((m, n), dtype=object)
    for i in range(m):
        for j in range(n):
            try:
                conv[i, j] = to_rational(arr[i, j])
            except TypeError as err:
                raise TypeError(f"{name}[{i}, {j}]: {err}") from err
    dens: list[int] = []
    nums = np.empty((m, n), dtype=object)
    for i in range(m):
        row_den = 1
        for x in conv[i]:
            if isinstance(x, Fraction) and x.denominator != 1:
                row_den = row_den * x.denominator // _gcd(row_den, x.denominator)
        dens.append(row_den)
        for j in range(n):
            x = conv[i, j]
            nums[i, j] = int(x * row_den) if isinstance(x, Fraction) else x * row_den
    if nums.size == 0 or all(-(2**62) < int(v) < 2**62 for v in nums.ravel()):
        return ExactMatrix(nums.astype(np.int64).reshape(m, n), tuple(dens))
    return ExactMatrix(nums, tuple(dens))


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def as_float_matrix(M: Any, name: str = "M"
                    ) -> npt.NDArray[np.floating[Any] | np.complexfloating[Any, Any]]:
    """Validate ``M`` as a finite float (or complex) 2-D array (``name``: for the messages).

    Exact inputs (ints, Fractions, sympy rationals) are converted to float64, which is the user's
    explicit request when they ask for a float method.

    Parameters
    ----------
    M : array_like
        A 2-D matrix.
    name : str, default 'M'
        The argument's name in the caller.

    Returns
    -------
    numpy.ndarray
        float64 or complex128, 2-D, finite.

    Raises
    ------
    ValueError
        If the input is not 2-D or contains NaN or infinity.
    """
    if isinstance(M, str | bytes):
        raise TypeError(f"{name} must be a matrix of numbers, got the string {M!r}")
    if isinstance(M, np.ndarray) and M.dtype.kind in "biufc":
        arr = M
    else:
        obj = _object_array(M, name)
        try:
            arr = obj.astype(np.complex128) if any(
                isinstance(x, complex | np.complexfloating) for x in obj.ravel()
            ) else obj.astype(np.float64)
        except (TypeError, ValueError, OverflowError) as err:
            raise TypeError(f"cannot convert {name} to a float matrix: {err}") from err
    _check_2d(arr.shape, name)
    if arr.dtype.kind in "biu":
        arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        n_bad = int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))
        raise ValueError(
            f"{name} contains {n_bad} NaN or infinite entries; a rank of such a matrix is "
            "meaningless. Find where they come from (overflow? a division by zero?) and fix "
            "the input; nothing is silently dropped."
        )
    return arr
