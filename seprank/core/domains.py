"""Number domains for computations written once and run over floats, GF(p) or exact rationals.

A *domain* converts inputs and provides the few operations the networks need (``add``,
``mul``, ``matmul``, ``scale``).  The same network code (e.g. :class:`seprank.LinearAttention`)
then runs

* over ``float64`` / ``complex128`` (:class:`FloatDomain`) -- fast, certifies nothing;
* over GF(p) (:class:`ModularDomain`) -- int64 residues, matrix products chunked along the inner
  dimension so that no intermediate sum can overflow; ranks of the results are certified lower
  bounds on the ranks of the rational objects they reduce;
* over exact Python numbers (:class:`ExactDomain`) -- object arrays of ``int``,
  :class:`fractions.Fraction` or sympy expressions (tiny cases: explicit polynomials).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import flint
import numpy as np
import numpy.typing as npt

from seprank.core.inputs import _to_rational

__all__ = ["Domain", "ExactDomain", "FloatDomain", "ModularDomain", "random_small_prime"]

Array = npt.NDArray[Any]

#: Primes for network evaluation modulo p lie in [2**24, 2**25): a product of two residues is
#: below 2**50, so int64 sums of up to 2**13 such products cannot overflow.
SMALL_PRIME_LOW = 2**24
SMALL_PRIME_HIGH = 2**25


class Domain(Protocol):
    """The operations a domain provides (all elementwise ops broadcast like numpy)."""

    @property
    def name(self) -> str: ...

    def asarray(self, x: Any) -> Array: ...

    def add(self, a: Array, b: Array) -> Array: ...

    def mul(self, a: Array, b: Array) -> Array: ...

    def matmul(self, a: Array, b: Array) -> Array: ...

    def scale(self, a: Array, c: Any) -> Array: ...


@dataclass(frozen=True)
class FloatDomain:
    """IEEE floating point (``float64``, or ``complex128`` with ``complex_=True``)."""

    complex_: bool = False
    name: str = "float"

    @property
    def dtype(self) -> type:
        return np.complex128 if self.complex_ else np.float64

    def asarray(self, x: Any) -> Array:
        arr = np.asarray(x)
        if arr.dtype == object:
            arr = np.vectorize(complex if self.complex_ else float, otypes=[self.dtype])(arr)
        if arr.dtype.kind == "c" and not self.complex_:
            raise TypeError("complex input to FloatDomain(); use FloatDomain(complex_=True)")
        arr = arr.astype(self.dtype, copy=False)
        if not np.all(np.isfinite(arr)):
            raise ValueError("input contains NaN or infinite entries")
        return arr

    def add(self, a: Array, b: Array) -> Array:
        return a + b

    def mul(self, a: Array, b: Array) -> Array:
        return a * b

    def matmul(self, a: Array, b: Array) -> Array:
        return a @ b

    def scale(self, a: Array, c: Any) -> Array:
        return a * self.dtype(c)


@dataclass(frozen=True)
class ModularDomain:
    """Arithmetic in GF(p) on int64 residues in ``[0, p)``.

    ``p`` must be a prime below ``2**31``.  Matrix products split the inner dimension into
    chunks of at most ``(2**63 - 1) // (p - 1)**2`` terms and reduce after each chunk, so no
    int64 overflow can occur for any shape.

    Examples
    --------
    >>> F = ModularDomain(7)
    >>> F.asarray([[3, -1], [10, 0]])
    array([[3, 6],
           [3, 0]])
    >>> from fractions import Fraction
    >>> int(F.asarray([Fraction(1, 2)])[0])   # 1/2 = 4 mod 7
    4
    """

    p: int
    name: str = "modular"

    def __post_init__(self) -> None:
        p = int(self.p)
        if not (2 <= p < 2**31) or not flint.fmpz(p).is_prime():
            raise ValueError(f"ModularDomain needs a prime p < 2**31, got {self.p!r}")
        object.__setattr__(self, "p", p)

    @property
    def chunk(self) -> int:
        return max(1, (2**63 - 1) // max(1, (self.p - 1) ** 2))

    def asarray(self, x: Any) -> Array:
        """Residues of integer or rational input; floats are refused (they are not exact)."""
        arr = np.asarray(x)
        p = self.p
        if arr.dtype.kind in "iub":
            if arr.dtype.kind == "u" and arr.size and int(arr.max()) >= 2**63:
                arr = arr.astype(object)
            else:
                return np.mod(arr.astype(np.int64), p)
        if arr.dtype.kind in "fc":
            raise TypeError(
                "floats cannot be reduced modulo a prime; pass integers or Fractions "
                "(or evaluate in FloatDomain())"
            )
        flat = [self._residue(v) for v in arr.ravel()]
        return np.array(flat, dtype=np.int64).reshape(arr.shape)

    def _residue(self, v: Any) -> int:
        q = _to_rational(v)
        if isinstance(q, Fraction):
            if q.denominator % self.p == 0:
                raise ZeroDivisionError(
                    f"the denominator of {q} is divisible by p = {self.p}; choose another prime"
                )
            return q.numerator % self.p * pow(q.denominator, -1, self.p) % self.p
        return q % self.p

    def add(self, a: Array, b: Array) -> Array:
        return np.mod(a + b, self.p)

    def mul(self, a: Array, b: Array) -> Array:
        return np.mod(a * b, self.p)

    def matmul(self, a: Array, b: Array) -> Array:
        k = a.shape[-1]
        if b.shape[-2] != k:
            raise ValueError(f"matmul shapes {a.shape} and {b.shape} do not align")
        step = self.chunk
        if k <= step:
            return np.mod(a @ b, self.p)
        out = np.mod(a[..., :, :step] @ b[..., :step, :], self.p)
        for start in range(step, k, step):
            part = a[..., :, start:start + step] @ b[..., start:start + step, :]
            out = np.mod(out + np.mod(part, self.p), self.p)
        return out

    def scale(self, a: Array, c: Any) -> Array:
        return np.mod(a * self._residue(c), self.p)


@dataclass(frozen=True)
class ExactDomain:
    """Exact arithmetic on object arrays (Python ``int``, ``Fraction`` or sympy expressions)."""

    name: str = "exact"

    def asarray(self, x: Any) -> Array:
        arr = np.asarray(x)
        if arr.dtype.kind in "fc":
            raise TypeError(
                "ExactDomain refuses floats; pass ints, Fractions or sympy expressions"
            )
        if arr.dtype.kind in "iub":
            return np.vectorize(int, otypes=[object])(arr) if arr.size else arr.astype(object)
        out = np.empty(arr.shape, dtype=object)
        for idx, v in np.ndenumerate(arr):
            if isinstance(v, float | complex | np.floating | np.complexfloating):
                raise TypeError(f"ExactDomain refuses the float {v!r}")
            out[idx] = int(v) if isinstance(v, np.integer | bool) else v
        return out

    def add(self, a: Array, b: Array) -> Array:
        return a + b

    def mul(self, a: Array, b: Array) -> Array:
        return a * b

    def matmul(self, a: Array, b: Array) -> Array:
        return np.matmul(a, b)

    def scale(self, a: Array, c: Any) -> Array:
        return a * c


def random_small_prime(rng: np.random.Generator) -> int:
    """A random prime in ``[2**24, 2**25)`` for :class:`ModularDomain` network evaluation.

    Examples
    --------
    >>> p = random_small_prime(np.random.default_rng(0))
    >>> 2**24 <= p < 2**25 and bool(flint.fmpz(p).is_prime())
    True
    """
    while True:
        candidate = int(rng.integers(SMALL_PRIME_LOW, SMALL_PRIME_HIGH)) | 1
        while candidate < SMALL_PRIME_HIGH:
            if flint.fmpz(candidate).is_prime():
                return candidate
            candidate += 2
