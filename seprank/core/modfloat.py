r"""Exact GF(p) arithmetic in float64: balanced residues, BLAS products, provable bounds.

A residue :math:`x \in \mathbb Z/p` is stored as the float64 integer :math:`r \equiv x \pmod p`
with :math:`|r| \le h(p) = \lfloor p/2 \rfloor + 2` (*balanced*).  Every float64 integer of
magnitude at most :math:`2^{53}` is exact, so as long as every intermediate value is an integer
of magnitude at most :math:`2^{53} - p`, float64 (and BLAS ``dgemm``, in *any* order of
summation) computes integer arithmetic exactly.  Two facts make that provable:

* a product of two balanced residues is at most :math:`h^2` in magnitude, so a sum of
  :math:`K \le K(p) = \lfloor (2^{53} - p - h) / h^2 \rfloor` such products added to one balanced
  residue stays below :math:`2^{53} - p` -- for every partial sum, whatever the order
  (:func:`max_terms`; :math:`K \ge 31` for :math:`p < 2^{25}`);
* :func:`reduce_balanced` maps an integer :math:`|x| \le 2^{53} - p` to a balanced residue
  exactly: with :math:`q = \mathrm{rint}(x \cdot \mathrm{fl}(1/p))` the computed quotient is
  within :math:`1/2 + 2.0001/p` of :math:`x/p` (two roundings of relative size
  :math:`2^{-53}` on a number below :math:`2^{53}/p`), so :math:`|x - qp| \le p/2 + 2`; and
  :math:`qp` and :math:`x - qp` are integers below :math:`2^{53}`, hence computed exactly.

This is what lets GF(p) matrix products run on BLAS (:func:`matmul_mod`) and the grid
evaluators use fused float64 kernels.  Primes must be below :data:`MAX_PRIME` = :math:`2^{26}`
(so that :math:`K(p) \ge 7`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.memory import array_bytes, guard_memory
from seprank.core.validation import check_int

__all__ = ["MAX_PRIME", "from_balanced", "matmul_mod", "max_terms", "reduce_balanced",
           "residue_bound", "to_balanced"]

Array = npt.NDArray[Any]

#: Largest prime (exclusive) for exact float64 arithmetic here.
MAX_PRIME = 2**26
#: Integers of magnitude up to this are exact in float64.
EXACT_FLOAT_INTEGERS = 2**53


def _check_prime(p: Any) -> int:
    p = check_int("p", p, 3)
    if p >= MAX_PRIME:
        raise ValueError(f"exact float64 arithmetic mod p needs p < 2**26, got p = {p}; use "
                         "the int64 ModularDomain operations for larger primes")
    return p


def residue_bound(p: int) -> int:
    """:math:`h(p) = \\lfloor p/2 \\rfloor + 2`: the largest magnitude of a balanced residue.

    Examples
    --------
    >>> residue_bound(7)
    5
    """
    return _check_prime(p) // 2 + 2


def max_terms(p: int) -> int:
    """:math:`K(p)`: products of balanced residues that one exact float64 sum may hold (module
    docstring).

    Examples
    --------
    >>> max_terms(2**25 - 39), max_terms(2**24 + 43)
    (32, 127)
    """
    h = residue_bound(p)
    return (EXACT_FLOAT_INTEGERS - p - h) // (h * h)


def to_balanced(x: npt.ArrayLike, p: int) -> Array:
    """Residues (any integers, int64 or Python ints) as balanced float64 residues.

    Examples
    --------
    >>> to_balanced([0, 1, 6, 13, -1], 7)
    array([ 0.,  1., -1., -1., -1.])
    """
    p = _check_prime(p)
    arr = np.asarray(x)
    if arr.dtype.kind not in "iu" and arr.dtype != object:
        raise TypeError(f"residues must be integers, got dtype {arr.dtype}")
    r = np.mod(arr, p).astype(np.int64)
    r[r > p // 2] -= p
    return r.astype(np.float64)


def reduce_balanced(x: Array, p: int, *, out: Array | None = None) -> Array:
    """``x`` (float64 integers of magnitude at most :math:`2^{53} - p`) reduced to balanced
    residues, exactly (module docstring).  ``out=x`` reduces in place.

    Examples
    --------
    >>> reduce_balanced(np.array([2.0**52, -10.0, 3.0]), 7)
    array([ 2., -3.,  3.])
    """
    q = np.rint(x * (1.0 / p))
    q *= p
    return np.subtract(x, q, out=out)


def from_balanced(x: Array, p: int) -> Array:
    """Balanced float64 residues as int64 residues in ``[0, p)``.

    Examples
    --------
    >>> from_balanced(np.array([-1.0, 3.0, 0.0]), 7)
    array([6, 3, 0])
    """
    r = x.astype(np.int64)
    r[r < 0] += p
    return r


def matmul_mod(a: Array, b: Array, p: int) -> Array:
    """``a @ b`` mod p for balanced float64 residues, on BLAS, exactly: the inner dimension is
    cut into chunks of :func:`max_terms` and the sum reduced after each chunk.

    Examples
    --------
    >>> p = 16777259
    >>> rng = np.random.default_rng(0)
    >>> A, B = rng.integers(0, p, (2, 40, 40))
    >>> exact = (A.astype(object) @ B.astype(object)) % p
    >>> got = from_balanced(matmul_mod(to_balanced(A, p), to_balanced(B, p), p), p)
    >>> bool(np.all(got == exact))
    True
    """
    p = _check_prime(p)
    k = a.shape[-1]
    if b.shape[-2] != k:
        raise ValueError(f"matmul shapes {a.shape} and {b.shape} do not align")
    guard_memory(2 * array_bytes((*a.shape[:-1], b.shape[-1]), np.float64),
                 what=f"a {a.shape} @ {b.shape} product mod p", fix="multiply in blocks")
    step = max_terms(p)
    out = reduce_balanced(a[..., :step] @ b[..., :step, :], p)
    for start in range(step, k, step):
        out += a[..., start:start + step] @ b[..., start:start + step, :]
        reduce_balanced(out, p, out=out)
    return out
