r"""One home for randomness: seeds, independent streams and random primes.

Every random choice in :mod:`seprank` and :mod:`identifiability` takes a ``seed``, turned into a
:class:`numpy.random.Generator` here and nowhere else:

* :func:`as_generator` -- validates ``seed`` (None, a non-negative int, a
  :class:`~numpy.random.SeedSequence` or a :class:`~numpy.random.Generator`, returned as is) and
  names it in the error otherwise;
* :func:`spawn` -- ``n`` independent child streams, so that data (templates, samples) and
  algorithm (primes, initialisations) never share one stream;
* :func:`split_seed` -- the same for the estimation code of :mod:`identifiability`, which
  spawns from the seed's :class:`~numpy.random.SeedSequence` (a different, equally valid
  scheme; both are kept so that every published fixed-seed number stays what it was);
* :func:`random_prime` -- a random prime of a given bit length, optionally in a residue class
  (e.g. :math:`p \equiv 1 \pmod 4`, where :math:`\sqrt{-1}` exists in GF(p)).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import flint
import numpy as np

from seprank.core.memory import guard_memory

__all__ = ["SeedLike", "as_generator", "factorization", "is_prime", "random_prime", "spawn",
           "split_seed"]

#: What every ``seed=`` argument accepts.
SeedLike = int | np.integer | np.random.SeedSequence | np.random.Generator | None

#: Redraws allowed when a prime must avoid a residue class or a divisor before giving up.
MAX_PRIME_DRAWS = 10_000
#: Bytes one child stream holds (a Generator, its PCG64 state and SeedSequence; ~1 KB
#: measured with tracemalloc): :func:`spawn` and :func:`split_seed` guard ``n`` of them.
GENERATOR_BYTES = 1024


def _check_streams(n: Any) -> int:
    """``n`` streams: a positive int (bools refused) whose generators fit the memory limit."""
    if isinstance(n, bool | np.bool_) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    guard_memory(int(n) * GENERATOR_BYTES, what=f"{n} random streams (about 1 KB each)",
                 fix="ask for fewer streams (lower n)")
    return int(n)


def as_generator(seed: Any, *, name: str = "seed") -> np.random.Generator:
    """A :class:`numpy.random.Generator` from ``seed``, validated.

    Parameters
    ----------
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        None gives fresh OS entropy; a non-negative integer or a SeedSequence seeds a new
        generator; a Generator is returned unchanged (its state advances as it is used).
    name : str, keyword-only
        The argument's name in the caller, used in the error message.

    Returns
    -------
    numpy.random.Generator
        The generator (``seed`` itself when it is one).

    Raises
    ------
    TypeError
        ``seed`` is a bool, float, string or another object.
    ValueError
        ``seed`` is a negative integer.

    Examples
    --------
    >>> int(as_generator(0).integers(10))
    8
    >>> as_generator(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a non-negative integer (or None, a SeedSequence or a Generator), got -1
    """
    if seed is None or isinstance(seed, np.random.Generator):
        return seed if seed is not None else np.random.default_rng()
    if isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"{name} must be None, a non-negative integer, a numpy SeedSequence or a numpy "
            f"Generator, got {seed!r} of type {type(seed).__name__}"
        )
    if int(seed) < 0:
        raise ValueError(
            f"{name} must be a non-negative integer (or None, a SeedSequence or a Generator), "
            f"got {seed!r}"
        )
    return np.random.default_rng(int(seed))


def spawn(seed: Any, n: int, *, name: str = "seed") -> list[np.random.Generator]:
    """``n`` independent generators derived from ``seed`` (the :mod:`seprank` scheme).

    One 63-bit integer is drawn from ``as_generator(seed)`` and its
    :class:`~numpy.random.SeedSequence` is spawned ``n`` times, so a Generator passed as
    ``seed`` advances by exactly one draw.

    Parameters
    ----------
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The seed.
    n : int
        Number of generators.
    name : str, keyword-only
        The argument's name in messages (default ``'seed'``).

    Returns
    -------
    list of numpy.random.Generator
        n independent generators.

    Examples
    --------
    >>> a, b = spawn(0, 2)
    >>> bool(a.integers(2**32) != b.integers(2**32))
    True
    """
    n = _check_streams(n)
    parent = as_generator(seed, name=name)
    children = np.random.SeedSequence(int(parent.integers(2**63))).spawn(n)
    return [np.random.default_rng(s) for s in children]


def split_seed(seed: Any, n: int, *, name: str = "seed") -> list[np.random.Generator]:
    """``n`` independent generators (the :mod:`identifiability` scheme).

    A Generator is split with :meth:`numpy.random.Generator.spawn`; anything else is turned
    into a :class:`~numpy.random.SeedSequence` and spawned.

    Parameters
    ----------
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The seed.
    n : int
        Number of generators.
    name : str, keyword-only
        The argument's name in messages (default ``'seed'``).

    Returns
    -------
    list of numpy.random.Generator
        n independent generators.

    Examples
    --------
    >>> traj, task = split_seed(0, 2)
    >>> bool(traj.random() != task.random())
    True
    """
    n = _check_streams(n)
    if isinstance(seed, np.random.Generator):
        return list(seed.spawn(n))
    if not isinstance(seed, np.random.SeedSequence):
        as_generator(seed, name=name)  # validation only
        seed = np.random.SeedSequence(None if seed is None else int(seed))
    return [np.random.default_rng(s) for s in seed.spawn(n)]


def is_prime(n: int) -> bool:
    """Primality (python-flint; deterministic below 2**64 and BPSW-certain beyond).

    Parameters
    ----------
    n : int
        The number.

    Returns
    -------
    bool
        Whether n is prime.
    """
    if isinstance(n, bool | np.bool_) or not isinstance(n, numbers.Integral):
        raise ValueError(f"n must be an integer, got {n!r} ({type(n).__name__})")
    return bool(flint.fmpz(int(n)).is_prime())


def factorization(n: int) -> str:
    """``n``'s prime factorization as text, for the message that refuses a composite modulus.

    Parameters
    ----------
    n : int
        An integer from 2 to 2**64 (a larger one could take unbounded time to factor).

    Returns
    -------
    str
        The factors in increasing order, a power written ``q**e``, joined by ``" * "``.

    Examples
    --------
    >>> factorization(15), factorization(24)
    ('3 * 5', '2**3 * 3')
    """
    if isinstance(n, bool | np.bool_) or not isinstance(n, numbers.Integral) or n < 2:
        raise ValueError(f"n must be an integer of at least 2, got {n!r:.40}")
    n = int(n)
    if n > 2**64:
        raise ValueError(f"n must be at most 2**64 to be factored here, got a {n.bit_length()}-"
                         "bit integer")
    return " * ".join(f"{int(q)}" + (f"**{e}" if e > 1 else "")
                      for q, e in flint.fmpz(n).factor())


def random_prime(rng: np.random.Generator, bits: int = 62, *,
                 residue: tuple[int, int] | None = None) -> int:
    r"""A random prime in :math:`[2^{bits-1}, 2^{bits})`.

    A uniform odd start is drawn and the next prime at or after it is returned (redrawing if
    none is left below :math:`2^{bits}`).  With ``residue=(r, m)`` primes are redrawn until
    :math:`p \equiv r \pmod m`.

    Parameters
    ----------
    rng : numpy.random.Generator
        The stream to draw from (see :func:`spawn`).
    bits : int
        Bit length, 3 <= bits <= 64.  The toolkit uses 62 (:func:`seprank.matrix_rank`), 25
        (network evaluation in :class:`~seprank.core.domains.ModularDomain`: products of two
        residues stay below :math:`2^{50}`) and 31 (the Kruskal screen).
    residue : (int, int), optional, keyword-only
        ``(r, m)``: only primes with ``p % m == r``.

    Returns
    -------
    int
        The prime.

    Examples
    --------
    >>> p = random_prime(np.random.default_rng(0), 25, residue=(1, 4))
    >>> 2**24 <= p < 2**25, p % 4, is_prime(p)
    (True, 1, True)
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator (use seprank.core.as_generator(seed)), "
                        f"got {type(rng).__name__}")
    if isinstance(bits, bool) or not isinstance(bits, numbers.Integral) or not 3 <= bits <= 64:
        raise ValueError(f"bits must be an integer in [3, 64], got {bits!r}")
    low, high = 2 ** (int(bits) - 1), 2 ** int(bits)
    if residue is not None:
        r, m = (int(x) for x in residue)
        if m < 1 or math.gcd(r, m) != 1:
            raise ValueError(f"residue (r, m) = {residue!r} must have m >= 1 and gcd(r, m) = 1")
    for _ in range(MAX_PRIME_DRAWS):
        candidate = int(rng.integers(low, high)) | 1
        while candidate < high:
            if is_prime(candidate):
                break
            candidate += 2
        else:
            continue
        if residue is None or candidate % m == r % m:
            return candidate
    raise RuntimeError(f"no prime in [2**{bits - 1}, 2**{bits}) with residue {residue} found "
                       f"in {MAX_PRIME_DRAWS} draws")

