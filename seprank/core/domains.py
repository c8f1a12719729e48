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

The domain also owns the *certify* step, so that no caller translates a ``method`` string by
hand: :func:`domain_for` turns ``'svd' | 'modular' | 'exact'`` into a domain (drawing the prime
for ``'modular'``), and every domain knows how to draw grid templates
(:meth:`~ModularDomain.templates`), how to take the rank of a matrix computed in it
(:meth:`~ModularDomain.rank`, a :class:`~seprank.core.rank.RankResult`) and what that rank
certifies about the rational matrix it stands for (:attr:`~ModularDomain.certifies`).
:func:`matrix_rank` is that rank by method name (``domain_for(method).rank``, with fresh
primes while a modular rank is only a lower bound):

===========  ===================  ==============================  =====================
method       domain               templates                       rank certifies
===========  ===================  ==============================  =====================
``svd``      FloatDomain          standard normal                 ``none``
``modular``  ModularDomain(p)     uniform residues in [0, p)      ``lower_bound``
``exact``    ExactDomain          integers in [-50, 50]           ``exact``
===========  ===================  ==============================  =====================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

import flint
import numpy as np

from seprank.core.gaussian_rationals import (
    GaussianRational,
    complex_rank_embedding,
    sqrt_minus_one_mod,
)
from seprank.core.inputs import ExactMatrix, as_exact_matrix, to_rational
from seprank.core.memory import OBJECT_ENTRY_BYTES, guard_memory
from seprank.core.random import SeedLike, as_generator, random_prime
from seprank.core.rank import (
    RankResult,
    exact_rank,
    flint_rank_bytes,
    matrix_shape,
    rank_mod_p,
    svd_rank,
)
from seprank.core.results import Certificate, Method
from seprank.core.types import Array
from seprank.core.validation import check_instance, check_int, check_tolerance

__all__ = [
    "EXACT_TEMPLATE_RANGE",
    "MAX_RANK_PRIMES",
    "Domain",
    "ExactDomain",
    "FloatDomain",
    "ModularDomain",
    "domain_for",
    "matrix_rank",
    "random_small_prime",
]


#: Primes for network evaluation modulo p lie in [2**24, 2**25): a product of two residues is
#: below 2**50, so int64 sums of up to 2**13 such products cannot overflow.
SMALL_PRIME_BITS = 25
#: Exact-method templates are uniform integers in [-EXACT_TEMPLATE_RANGE, EXACT_TEMPLATE_RANGE].
EXACT_TEMPLATE_RANGE = 50
#: GF(p) arithmetic on int64 residues needs p < 2**31 (a product of two residues fits); a
#: domain over a larger prime (up to 2**63) reduces and ranks only.
ARITHMETIC_PRIME_LIMIT = 2**31
#: Bit length of the primes of ``matrix_rank(method='modular')``: [2**61, 2**62).
RANK_PRIME_BITS = 62
_MAX_PRIME_ATTEMPTS = 64
#: Most primes :func:`matrix_rank` takes (``n_primes``): a rank-deficient matrix is ranked
#: modulo each, so the cap bounds its time.
MAX_RANK_PRIMES = 64


class Domain(Protocol):
    """The operations a domain provides (all elementwise ops broadcast like numpy)."""

    @property
    def name(self) -> str: ...

    def asarray(self, x: Any) -> Array: ...

    def add(self, a: Array, b: Array) -> Array: ...

    def mul(self, a: Array, b: Array) -> Array: ...

    def matmul(self, a: Array, b: Array) -> Array: ...

    def scale(self, a: Array, c: Any) -> Array: ...

    @property
    def method(self) -> Method: ...

    @property
    def certifies(self) -> Certificate: ...

    @property
    def dtype(self) -> Any: ...

    def templates(self, rng: np.random.Generator, m: int, dim: int) -> Array: ...

    def rank(self, M: Any) -> RankResult: ...

    def sqrt_minus_one(self) -> Any: ...


@dataclass(frozen=True)
class FloatDomain:
    """IEEE floating point (``float64``, or ``complex128`` with ``complex_=True``).

    ``rtol`` / ``atol`` are the tolerances of :meth:`rank` (see
    :func:`seprank.matrix_rank` with ``method='svd'``); a float rank certifies nothing.

    Parameters
    ----------
    complex_ : bool, default False
        Compute in ``complex128`` (needed for :meth:`sqrt_minus_one`) instead of ``float64``.
    name : str, default 'float'
        The domain's name in messages and results.
    rtol, atol : float, optional
        Relative / absolute tolerances of :meth:`rank` (None: numpy's default tolerance).
    """

    complex_: bool = False
    name: str = "float"
    rtol: float | None = None
    atol: float | None = None

    method: Method = field(default="svd", init=False, repr=False)
    certifies: Certificate = field(default="none", init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rtol", check_tolerance("rtol", self.rtol))
        object.__setattr__(self, "atol", check_tolerance("atol", self.atol))

    def templates(self, rng: np.random.Generator, m: int, dim: int) -> Array:
        """``m`` standard-normal template vectors of dimension ``dim``.

        Parameters
        ----------
        rng : numpy.random.Generator
            The random stream the templates are drawn from.
        m : int
            Number of templates.
        dim : int
            Dimension of each template vector.

        Returns
        -------
        numpy.ndarray
            Array of shape ``(m, dim)`` (float64, or complex128 for a complex domain).
        """
        _check_template_args(rng, m, dim, 8)
        return rng.standard_normal((m, dim))

    def rank(self, M: Any) -> RankResult:
        """SVD rank with this domain's tolerances (certifies nothing).

        Parameters
        ----------
        M : array_like
            A 2-D float or complex matrix.

        Returns
        -------
        RankResult
            The SVD rank with this domain's ``rtol`` / ``atol``, ``certifies='none'``.
        """
        return svd_rank(M, rtol=self.rtol, atol=self.atol)

    @property
    def dtype(self) -> type:
        return np.complex128 if self.complex_ else np.float64

    def sqrt_minus_one(self) -> complex:
        """``1j`` (complex128 only).

        Returns
        -------
        complex
            ``1j``.
        """
        if not self.complex_:
            raise ValueError("float64 has no square root of -1: use FloatDomain(complex_=True) "
                             "(domain_for('svd', complex_=True))")
        return 1j

    def asarray(self, x: Any) -> Array:
        """Convert ``x`` into this domain's array representation.

        Parameters
        ----------
        x : array_like
            Numbers numpy converts to float64 (or complex128).

        Returns
        -------
        numpy.ndarray
            A float64 (or complex128) array.
        """
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
        """Elementwise sum.

        Parameters
        ----------
        a, b : numpy.ndarray
            Float arrays, broadcastable against each other.

        Returns
        -------
        numpy.ndarray
            ``a + b``.
        """
        return a + b

    def mul(self, a: Array, b: Array) -> Array:
        """Elementwise product.

        Parameters
        ----------
        a, b : numpy.ndarray
            Float arrays, broadcastable against each other.

        Returns
        -------
        numpy.ndarray
            The elementwise product ``a * b``.
        """
        return a * b

    def matmul(self, a: Array, b: Array) -> Array:
        """Matrix product.

        Parameters
        ----------
        a, b : numpy.ndarray
            Float arrays with matching inner dimensions.

        Returns
        -------
        numpy.ndarray
            The matrix product ``a @ b``.
        """
        return a @ b

    def scale(self, a: Array, c: Any) -> Array:
        """Multiply by a scalar.

        Parameters
        ----------
        a : numpy.ndarray
            A float array.
        c : float or complex
            The scalar.

        Returns
        -------
        numpy.ndarray
            ``c * a``.
        """
        return a * self.dtype(c)


@dataclass(frozen=True)
class ModularDomain:
    """Arithmetic in GF(p) on int64 residues in ``[0, p)``.

    ``p`` must be a prime below ``2**63`` (its residues are int64).  Arithmetic (``add``,
    ``mul``, ``matmul``, ``scale``) needs ``p < 2**31``, so that a product of two residues fits;
    a larger prime reduces and ranks only (:func:`matrix_rank` ranks modulo 62-bit primes).
    Matrix products split the inner dimension into chunks of at most
    ``(2**63 - 1) // (p - 1)**2`` terms and reduce after each chunk, so no int64 overflow can
    occur for any shape.

    Parameters
    ----------
    p : int
        The prime modulus, below ``2**63`` (below ``2**31`` for arithmetic).
    name : str, default 'modular'
        The domain's name in messages and results.

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

    method: Method = field(default="modular", init=False, repr=False)
    certifies: Certificate = field(default="lower_bound", init=False, repr=False)

    def __post_init__(self) -> None:
        p = check_int("p", self.p, 2)
        if not (2 <= p < 2**63) or not flint.fmpz(p).is_prime():
            raise ValueError(f"ModularDomain needs a prime p < 2**63, got {self.p!r}")
        object.__setattr__(self, "p", p)

    @property
    def dtype(self) -> type:
        return np.int64

    @property
    def chunk(self) -> int:
        return max(1, (2**63 - 1) // max(1, (self.p - 1) ** 2))

    def _arithmetic(self) -> int:
        """``p``, once it is known to be small enough for int64 arithmetic."""
        if self.p >= ARITHMETIC_PRIME_LIMIT:
            raise ValueError(f"arithmetic modulo p = {self.p} would overflow int64 (a product of "
                             "two residues must fit): this domain reduces and ranks only; use "
                             "a prime below 2**31 (domain_for's default has 25 bits)")
        return self.p

    def asarray(self, x: Any) -> Array:
        """Residues of integer or rational input; floats are refused (they are not exact).

        Parameters
        ----------
        x : array_like
            Integers or exact rationals (a denominator divisible by ``p`` is refused).

        Returns
        -------
        numpy.ndarray
            int64 residues in ``[0, p)``.
        """
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
        q = to_rational(v)
        if isinstance(q, Fraction):
            if q.denominator % self.p == 0:
                raise ZeroDivisionError(
                    f"the denominator of {q} is divisible by p = {self.p}; choose another prime"
                )
            return q.numerator % self.p * pow(q.denominator, -1, self.p) % self.p
        return q % self.p

    def add(self, a: Array, b: Array) -> Array:
        """Elementwise sum.

        Parameters
        ----------
        a, b : numpy.ndarray
            int64 residues in ``[0, p)``, broadcastable against each other.

        Returns
        -------
        numpy.ndarray
            ``(a + b) mod p`` as int64 residues.
        """
        return np.mod(a + b, self._arithmetic())

    def mul(self, a: Array, b: Array) -> Array:
        """Elementwise product.

        Parameters
        ----------
        a, b : numpy.ndarray
            int64 residues, broadcastable against each other.

        Returns
        -------
        numpy.ndarray
            ``(a * b) mod p``.
        """
        return np.mod(a * b, self._arithmetic())

    def matmul(self, a: Array, b: Array) -> Array:
        """Matrix product.

        Parameters
        ----------
        a, b : numpy.ndarray
            int64 residues with matching inner dimensions.

        Returns
        -------
        numpy.ndarray
            ``(a @ b) mod p``, computed in overflow-free chunks.
        """
        self._arithmetic()
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
        """Multiply by a scalar.

        Parameters
        ----------
        a : numpy.ndarray
            int64 residues.
        c : int or fractions.Fraction
            The scalar, reduced modulo p.

        Returns
        -------
        numpy.ndarray
            ``(c * a) mod p``.
        """
        return np.mod(a * self._residue(c), self._arithmetic())

    def templates(self, rng: np.random.Generator, m: int, dim: int) -> Array:
        """``m`` template vectors with uniform residues in ``[0, p)``.

        Parameters
        ----------
        rng : numpy.random.Generator
            The random stream the templates are drawn from.
        m : int
            Number of templates.
        dim : int
            Dimension of each template vector.

        Returns
        -------
        numpy.ndarray
            int64 array of shape ``(m, dim)`` with uniform residues.
        """
        _check_template_args(rng, m, dim, 8)
        return rng.integers(0, self.p, (m, dim))

    def rank(self, M: Any) -> RankResult:
        """Rank over GF(p) of residues computed in this domain, or of exact rationals reduced
        modulo p (:func:`~seprank.core.rank.rank_mod_p`): a certified lower bound on the rank of
        the rational matrix they reduce (exact when full).

        Parameters
        ----------
        M : array_like
            Residues modulo p, or exact rationals to reduce.

        Returns
        -------
        RankResult
            The rank over GF(p): ``certifies='lower_bound'`` (``'exact'`` when full).
        """
        return rank_mod_p(M, self.p)

    def sqrt_minus_one(self) -> int:
        """A residue ``iota`` with ``iota**2 = -1 (mod p)`` (p = 1 mod 4 only).

        Returns
        -------
        int
            A residue ``iota`` in ``[0, p)`` with ``iota**2 = p - 1``.
        """
        return sqrt_minus_one_mod(self.p)


@dataclass(frozen=True)
class ExactDomain:
    """Exact arithmetic on object arrays (Python ``int``, ``Fraction``,
    :class:`~seprank.core.gaussian_rationals.GaussianRational` or sympy expressions).

    Parameters
    ----------
    name : str, default 'exact'
        The domain's name in messages and results.
    """

    name: str = "exact"

    method: Method = field(default="exact", init=False, repr=False)
    certifies: Certificate = field(default="exact", init=False, repr=False)

    def templates(self, rng: np.random.Generator, m: int, dim: int) -> Array:
        """``m`` integer template vectors, uniform in ``[-50, 50]`` (Python ints).

        Parameters
        ----------
        rng : numpy.random.Generator
            The random stream the templates are drawn from.
        m : int
            Number of templates.
        dim : int
            Dimension of each template vector.

        Returns
        -------
        numpy.ndarray
            Object array of shape ``(m, dim)`` of Python ints.
        """
        _check_template_args(rng, m, dim, 8 + OBJECT_ENTRY_BYTES)
        return rng.integers(-EXACT_TEMPLATE_RANGE, EXACT_TEMPLATE_RANGE + 1,
                            (m, dim)).astype(object)

    def rank(self, M: Any) -> RankResult:
        """Exact rank over Q (python-flint), or over Q(i) when an entry is a Gaussian rational
        (half the rational rank of the real embedding
        :func:`~seprank.core.gaussian_rationals.complex_rank_embedding`).

        Parameters
        ----------
        M : array_like
            A 2-D matrix of integers, rationals or Gaussian rationals.

        Returns
        -------
        RankResult
            The exact rank, ``certifies='exact'``.
        """
        if not (isinstance(M, np.ndarray) and M.dtype == object
                and any(isinstance(v, GaussianRational) for v in M.flat)):
            return exact_rank(M)
        embedded = exact_rank(complex_rank_embedding(M))
        m, n = M.shape
        return RankResult(embedded.rank // 2, "exact", "exact",
                          {"shape": (m, n), "field": "Q(i)",
                           "via": f"the real {2 * m} x {2 * n} embedding"})

    @property
    def dtype(self) -> type:
        return object

    def sqrt_minus_one(self) -> GaussianRational:
        """The Gaussian rational ``i``.

        Returns
        -------
        GaussianRational
            ``i`` (``i * i == -1``).
        """
        return GaussianRational(0, 1)

    def asarray(self, x: Any) -> Array:
        """Convert ``x`` into this domain's array representation.

        Parameters
        ----------
        x : array_like
            Integers, rationals, Gaussian rationals or sympy numbers.

        Returns
        -------
        numpy.ndarray
            An object array of exact numbers.
        """
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
        """Elementwise sum.

        Parameters
        ----------
        a, b : numpy.ndarray
            Object arrays of exact numbers, broadcastable against each other.

        Returns
        -------
        numpy.ndarray
            ``a + b``, exact.
        """
        return a + b

    def mul(self, a: Array, b: Array) -> Array:
        """Elementwise product.

        Parameters
        ----------
        a, b : numpy.ndarray
            Object arrays of exact numbers, broadcastable against each other.

        Returns
        -------
        numpy.ndarray
            The elementwise product ``a * b``, exact.
        """
        return a * b

    def matmul(self, a: Array, b: Array) -> Array:
        """Matrix product.

        Parameters
        ----------
        a, b : numpy.ndarray
            Object arrays with matching inner dimensions.

        Returns
        -------
        numpy.ndarray
            The exact matrix product ``a @ b``.
        """
        return np.matmul(a, b)

    def scale(self, a: Array, c: Any) -> Array:
        """Multiply by a scalar.

        Parameters
        ----------
        a : numpy.ndarray
            An object array of exact numbers.
        c : int, fractions.Fraction or GaussianRational
            The scalar.

        Returns
        -------
        numpy.ndarray
            ``c * a``, exact.
        """
        return a * c


def _check_template_args(rng: Any, m: Any, dim: Any, entry_bytes: int) -> None:
    check_instance("rng", rng, np.random.Generator, expected="a numpy Generator",
                   hint="use seprank.core.as_generator(seed)")
    m, dim = check_int("m", m), check_int("dim", dim)
    guard_memory(m * dim * entry_bytes, what=f"{m:,} template vectors of dimension {dim:,}",
                 fix="use fewer templates")


def random_small_prime(rng: np.random.Generator) -> int:
    """A random prime in ``[2**24, 2**25)`` for :class:`ModularDomain` network evaluation.

    Parameters
    ----------
    rng : numpy.random.Generator
        The random stream the prime is drawn from.

    Returns
    -------
    int
        A prime p with ``2**24 <= p < 2**25``.

    Examples
    --------
    >>> p = random_small_prime(np.random.default_rng(0))
    >>> 2**24 <= p < 2**25 and bool(flint.fmpz(p).is_prime())
    True
    """
    return random_prime(rng, SMALL_PRIME_BITS)


def domain_for(method: Method, rng: np.random.Generator | None = None, *,
               bits: int = SMALL_PRIME_BITS, residue: tuple[int, int] | None = None,
               rtol: float | None = None, atol: float | None = None,
               complex_: bool = False) -> Domain:
    """The domain in which ``method`` computes: the one place a method string is translated.

    Parameters
    ----------
    method : {'svd', 'modular', 'exact'}
        ``'svd'`` -> :class:`FloatDomain`, ``'modular'`` -> :class:`ModularDomain` over a random
        prime drawn from ``rng``, ``'exact'`` -> :class:`ExactDomain`.
    rng : numpy.random.Generator, optional
        The prime stream (``'modular'`` only; required there).
    bits : int, keyword-only
        Bit length of the prime (default 25: products of two residues stay below 2**50; above
        31 the domain reduces and ranks but does no arithmetic).
    residue : (int, int), optional, keyword-only
        Only primes with ``p % m == r`` (e.g. ``(1, 4)`` so that GF(p) has a square root of -1).
    rtol, atol : float, optional, keyword-only
        Tolerances of the float rank (``'svd'`` only).
    complex_ : bool, keyword-only
        A domain holding a square root of -1 (:meth:`~FloatDomain.sqrt_minus_one`): complex128
        for ``'svd'``, a prime p = 1 (mod 4) for ``'modular'`` (``residue=(1, 4)``), Gaussian
        rationals for ``'exact'`` (which always hold one).

    Returns
    -------
    FloatDomain, ModularDomain or ExactDomain
        The domain the method computes in.

    Examples
    --------
    >>> domain_for("modular", np.random.default_rng(0)).certifies
    'lower_bound'
    >>> domain_for("svd", rtol=1e-10)
    FloatDomain(complex_=False, name='float', rtol=1e-10, atol=None)
    >>> F = domain_for("modular", np.random.default_rng(0), complex_=True)
    >>> F.p % 4, F.sqrt_minus_one() ** 2 % F.p == F.p - 1
    (1, True)
    >>> domain_for("float")
    Traceback (most recent call last):
    ...
    ValueError: unknown method 'float': choose 'svd', 'modular' or 'exact'
    """
    if method not in ("svd", "modular", "exact"):
        raise ValueError(f"unknown method {method!r}: choose 'svd', 'modular' or 'exact'")
    if method != "svd" and (rtol is not None or atol is not None):
        raise ValueError(f"rtol/atol are tolerances of method='svd'; method={method!r} uses none")
    if method == "svd":
        return FloatDomain(complex_=complex_, rtol=rtol, atol=atol)
    if method == "exact":
        return ExactDomain()
    if rng is None:
        raise ValueError("method='modular' draws a prime: pass rng (a numpy Generator)")
    check_instance("rng", rng, np.random.Generator, expected="a numpy Generator",
                   hint="use seprank.core.as_generator(seed)")
    if complex_:
        if residue not in (None, (1, 4)):
            raise ValueError(f"complex_=True needs primes p = 1 (mod 4), not residue={residue}")
        residue = (1, 4)
    return ModularDomain(random_prime(rng, bits, residue=residue))


def matrix_rank(
    M: Any,
    *,
    method: Method = "modular",
    rtol: float | None = None,
    atol: float | None = None,
    n_primes: int = 2,
    seed: SeedLike = None,
) -> RankResult:
    r"""Rank of a matrix, with a statement of what is certified: ``domain_for(method).rank``.

    Parameters
    ----------
    M : array_like
        A 2-D matrix.  For ``'exact'`` and ``'modular'``: numpy integer arrays, object arrays or
        nested lists of ``int`` / :class:`fractions.Fraction` (big integers allowed), sympy
        matrices with rational entries, flint ``fmpz_mat``/``fmpq_mat``.  Floats are refused.
        For ``'svd'``: anything numpy converts to a finite float or complex array.
    method : {'modular', 'exact', 'svd'}, keyword-only
        * ``'exact'`` -- rank over Q with python-flint (``fmpz_mat.rank`` after clearing row
          denominators).  ``certifies='exact'``.
        * ``'modular'`` -- rank over GF(p) (flint ``nmod_mat``) for ``n_primes`` random primes
          in :math:`[2^{61}, 2^{62})`; the maximum is returned.  For every prime,
          :math:`\operatorname{rank}_{GF(p)}(M \bmod p) \le \operatorname{rank}_{\mathbb Q}(M)`
          because a minor that vanishes over Q vanishes mod p; so the result is a certified
          **lower bound**, and equal to the rational rank unless every prime divides the same
          nonzero maximal minor.  A prime dividing a row denominator is skipped (another is
          drawn).  When the bound reaches ``min(m, n)`` it is exact and reported as such.
          Computation stops early at full rank.
        * ``'svd'`` -- float rank: the number of singular values above
          ``tol = max(atol, rtol * sigma_max)``; with neither given, numpy's default
          ``sigma_max * max(m, n) * eps``.  ``certifies='none'``; ``details`` holds the
          tolerance, the singular values and the gap :math:`\sigma_r / \sigma_{r+1}`.
    rtol, atol : float, optional, keyword-only
        Relative and absolute tolerances for ``'svd'`` (passing them with another method is an
        error).
    n_primes : int, keyword-only
        Number of random primes for ``'modular'`` (1 to :data:`MAX_RANK_PRIMES`).
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the choice of primes (``'modular'`` only), for reproducibility.

    Returns
    -------
    RankResult

    Raises
    ------
    TypeError
        Float input to ``'exact'``/``'modular'``, or entries that are not rational numbers.
    ValueError
        Non-2-D input, NaN/inf, unknown method, invalid tolerances.

    References
    ----------
    .. [1] Anchors report, §4.1: numpy's float rank of the Hilbert matrix H_12 is 11, its exact
       rank is 12.  Float ranks need a stated tolerance and gap.

    Examples
    --------
    >>> from fractions import Fraction
    >>> H = [[Fraction(1, i + j + 1) for j in range(12)] for i in range(12)]
    >>> matrix_rank(H, method="exact").rank
    12
    >>> matrix_rank(H, method="modular", seed=1).certifies  # full rank mod p proves rank 12
    'exact'
    >>> matrix_rank(np.array(H, dtype=float), method="svd").rank   # floats lose it
    11
    """
    n_primes = check_int("n_primes", n_primes)
    if n_primes > MAX_RANK_PRIMES:
        raise ValueError(
            f"n_primes={n_primes} is above the cap of {MAX_RANK_PRIMES}: each further random "
            "62-bit prime misses the rank with probability below 2**-40 for any matrix that "
            "fits in memory (see seprank.core.rank), so more primes buy nothing; pass at most "
            f"{MAX_RANK_PRIMES}")
    rng = as_generator(seed)
    domain = domain_for(method, rng, bits=RANK_PRIME_BITS, rtol=rtol, atol=atol)
    if not isinstance(domain, ModularDomain):
        return domain.rank(M)
    shape = matrix_shape(M)
    if shape is not None:  # before the conversion copies anything
        guard_memory(flint_rank_bytes(shape, M), what=(
            f"the modular rank of a {shape[0]:,} x {shape[1]:,} matrix (python-flint "
            "nmod_mat, with its copies)"), fix="rank a smaller matrix")
    return _rank_modulo_primes(as_exact_matrix(M, "M"), domain, rng, n_primes)


def _rank_modulo_primes(exact: ExactMatrix, domain: ModularDomain, rng: np.random.Generator,
                        n_primes: int) -> RankResult:
    """The largest GF(p) rank over ``domain`` and up to ``n_primes - 1`` more random primes of
    the same size (a prime dividing a row denominator is skipped), stopping at full rank."""
    m, n = exact.shape
    full = min(m, n)
    if full == 0:
        return RankResult(0, domain.method, "exact", {"shape": (m, n), "note": "empty matrix"})
    primes: list[int] = []
    ranks: list[int] = []
    skipped: list[int] = []
    for attempt in range(1, _MAX_PRIME_ATTEMPTS + n_primes + 1):
        if attempt > 1:
            domain = ModularDomain(random_prime(rng, RANK_PRIME_BITS))
        if exact.denominators_divisible_by(domain.p):
            skipped.append(domain.p)
            continue
        primes.append(domain.p)
        ranks.append(domain.rank(exact).rank)
        if ranks[-1] == full or len(primes) == n_primes:
            break
    else:
        raise RuntimeError(
            f"{len(skipped)} random primes all divided a row denominator; the denominators "
            "are astronomically smooth. Use method='exact'.")
    rank = max(ranks)
    certifies: Certificate = "exact" if rank == full else "lower_bound"
    details: dict[str, Any] = {
        "shape": (m, n),
        "primes": tuple(primes),
        "ranks_per_prime": tuple(ranks),
    }
    if skipped:
        details["skipped_primes"] = tuple(skipped)
    if certifies == "exact":
        details["note"] = "full rank modulo a prime proves full rank over Q"
    return RankResult(rank, "modular", certifies, details)
