"""The checker's exact arithmetic: JSON numbers, Q and GF(p), Gaussian elimination on Python
ints, primality, and the shape checks every certificate kind shares (standard library only).

Numbers are JSON integers or strings ``"a"`` / ``"a/b"`` (ASCII digits only, at most
:attr:`~.limits.VerifyBudget.max_digits` digits each); integers of any size are read and
written in pieces (:func:`parse_decimal`, :func:`decimal`), never through Python's
4300-digit ``int(str)`` limit.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import mul
from typing import Any

from .limits import Refuse, active, tick

__all__ = ["Number", "Prepared", "Reject", "Ring", "decimal", "parse_decimal", "show"]

Number = int | Fraction

#: An exact number written as a string: an integer or a fraction, ASCII digits only.
NUMBER_TEXT = re.compile(r"-?[0-9]+(?:/[0-9]+)?\Z", re.ASCII)
_CHUNK = 4000   # below Python's default int <-> str limit of 4300 digits


class Reject(Exception):
    """The certificate does not prove its claim (the message says why)."""

# --- numbers ---------------------------------------------------------------------------------


def parse_decimal(digits: str) -> int:
    """A decimal integer of any length (``-`` allowed), piece by piece.

    Parameters
    ----------
    digits : str
        A decimal integer.

    Returns
    -------
    int
        Its value.

    Examples
    --------
    >>> parse_decimal("-" + "9" * 9000) == -(10**9000 - 1)
    True
    """
    if len(digits) <= _CHUNK:
        return int(digits)
    negative = digits.startswith("-")
    body = digits[1:] if negative else digits
    half = len(body) // 2
    hi, lo = body[:-half], body[-half:]
    value = parse_decimal(hi) * 10**half + parse_decimal(lo)
    return -value if negative else value


def decimal(n: int) -> str:
    """``str(n)`` for an integer of any length, piece by piece.

    Parameters
    ----------
    n : int
        An integer.

    Returns
    -------
    str
        Its decimal text.

    Examples
    --------
    >>> decimal(-(10**9000)) == "-1" + "0" * 9000
    True
    """
    if n < 0:
        return "-" + decimal(-n)
    if n.bit_length() <= 13_000:       # about 3900 digits
        return str(n)
    half = int(n.bit_length() * 0.30103) // 2
    hi, lo = divmod(n, 10**half)
    return decimal(hi) + decimal(lo).rjust(half, "0")


def bits(x: Number) -> int:
    """Bits of an exact number (numerator plus denominator)."""
    if isinstance(x, Fraction):
        return x.numerator.bit_length() + x.denominator.bit_length()
    return x.bit_length()


def num(x: Any, where: str) -> Number:
    """An exact number from JSON: an int, or a string ``"a"`` / ``"a/b"`` (module docstring)."""
    if type(x) is int:
        return x
    if type(x) is not str:
        raise Refuse(f"{where}: {show(x)} is not an exact number (an int or a string 'a/b')")
    limit = active().max_digits
    if len(x) > 2 * limit + 2 or not NUMBER_TEXT.match(x):
        raise Refuse(f"{where}: {show(x)} is not an exact number: a string must be an "
                     f"integer or a fraction 'a/b' of ASCII digits, at most {limit} digits each")
    head, _, tail = x.partition("/")
    if len(head.lstrip("-")) > limit or len(tail) > limit:
        raise Refuse(f"{where}: a number with more than {limit} digits (raise "
                     "VerifyBudget(max_digits=...) if you trust it)")
    numerator = parse_decimal(head)
    if not tail:
        return numerator
    denominator = parse_decimal(tail)
    if denominator == 0:
        raise Reject(f"{where}: {show(x)} divides by zero")
    q = Fraction(numerator, denominator)
    return q.numerator if q.denominator == 1 else q


#: Integers of at most this many bits are written out in messages (about 60 digits).
SHOWN_BITS = 200


def show(x: Any, width: int = 60) -> str:
    """A value from a certificate (or computed from one) for a message: at most about
    ``width`` characters, never ``str()`` of an integer beyond Python's 4300-digit limit,
    never a hostile object's own ``repr``, lone surrogates and control characters escaped.

    Parameters
    ----------
    x : object
        An int, a Fraction, a string, a list or dict of them, or anything else (then only its
        type is named).
    width : int, default 60
        The most characters of the text (longer text ends in ``...``).

    Returns
    -------
    str
        The short text: small numbers as they are (``15``, ``2/3``), a huge integer by its
        size (``an integer of 16,002 bits (~10^4817)``), strings as their ``repr``.

    Examples
    --------
    >>> show(15), show(-3), show(True)
    ('15', '-3', 'True')
    >>> show(10**5000)
    'an integer of 16,610 bits (~10^5000)'
    >>> show(chr(0xD800) + chr(10)) == repr(chr(0xD800) + chr(10))
    True
    """
    text = _text(x, width, 0)
    return text if len(text) <= width else text[: max(width - 3, 1)] + "..."


def _text(x: Any, width: int, depth: int) -> str:
    kind = type(x)
    if kind is int:
        if x.bit_length() <= SHOWN_BITS:
            return str(x)
        sign = "-" if x < 0 else ""
        return (f"{sign}an integer of {x.bit_length():,} bits "
                f"(~{sign}10^{(x.bit_length() - 0.5) * 0.30102999566398120:.0f})")
    if kind is Fraction:
        if x.numerator.bit_length() + x.denominator.bit_length() <= SHOWN_BITS:
            return str(x)
        return (f"a fraction ({_text(x.numerator, width, depth)}) / "
                f"({_text(x.denominator, width, depth)})")
    if x is None or kind is bool or kind is float:
        return repr(x)
    if kind is str:
        return repr(x[: width + 2])
    if depth > 3:
        return "..."
    if kind is list or kind is tuple:
        inner, used = [], 0
        for item in x:
            if used > width:
                inner.append("...")
                break
            inner.append(_text(item, width, depth + 1))
            used += len(inner[-1]) + 2
        body = ", ".join(inner)
        return f"[{body}]" if kind is list else f"({body}{',' if len(x) == 1 else ''})"
    if kind is dict:
        inner, used = [], 0
        for key, item in x.items():
            if used > width:
                inner.append("...")
                break
            inner.append(f"{_text(key, width, depth + 1)}: {_text(item, width, depth + 1)}")
            used += len(inner[-1]) + 2
        return "{" + ", ".join(inner) + "}"
    if kind.__name__ == "JsonFloat":
        return f"JsonFloat({_text(x.text, width, depth)})"
    return f"a {kind.__name__}"


def integer(x: Any, where: str, low: int = 0, high: int | None = None) -> int:
    """A JSON integer (exactly: not a bool, float or string) in ``low..high``."""
    if type(x) is not int:
        raise Refuse(f"{where} must be an integer, got {show(x)}")
    if x < low or (high is not None and x > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise Refuse(f"{where} = {show(x)} must be in {span}")
    return x


class Ring:
    """Q (``p`` None: exact ints and Fractions) or GF(p) (ints in [0, p)).

    Parameters
    ----------
    p : int or None
        The prime (None: the rationals Q).
    """

    def __init__(self, p: int | None) -> None:
        self.p = p

    def of(self, x: Any, where: str) -> Number:
        """A certificate's number as a ring element.

        Parameters
        ----------
        x : object
            An exact JSON number (int or ``"a/b"``).
        where : str
            Where it was read (for the rejection message).

        Returns
        -------
        int or fractions.Fraction
            The element (reduced modulo p).

        Raises
        ------
        Reject
            For a malformed number or a denominator divisible by p.
        """
        q = x if type(x) is Fraction else num(x, where)
        if self.p is None:
            return q
        if isinstance(q, Fraction):
            if q.denominator % self.p == 0:
                raise Reject(f"{where}: the denominator of {show(q)} is divisible by p = "
                             f"{self.p}")
            return q.numerator * pow(q.denominator, -1, self.p) % self.p
        return q % self.p

    def red(self, x: Number) -> Number:
        """Reduce modulo p (identity over Q).

        Parameters
        ----------
        x : int or fractions.Fraction
            A ring element.

        Returns
        -------
        int or fractions.Fraction
            ``x % p``, or ``x`` over Q.
        """
        return x if self.p is None else x % self.p

    def dot(self, a: Sequence[Number], b: Sequence[Number]) -> Number:
        """Inner product in the ring.

        Parameters
        ----------
        a, b : sequence of numbers
            Vectors of equal length.

        Returns
        -------
        int or fractions.Fraction
            ``sum(a_i * b_i)``, reduced.
        """
        return self.red(sum(map(mul, a, b)))

    def matvec(self, W: Sequence[Sequence[Number]], x: Sequence[Number]) -> list[Number]:
        """W x (W given by rows; the caller checked the lengths).

        Parameters
        ----------
        W : sequence of sequences
            The matrix, by rows.
        x : sequence of numbers
            The vector.

        Returns
        -------
        list
            ``W x``, reduced.
        """
        if self.p is None:
            return [sum(map(mul, row, x)) for row in W]
        p = self.p
        return [sum(map(mul, row, x)) % p for row in W]


def tensor(value: Any, shape: tuple[int, ...], ring: Ring, where: str) -> Any:
    """Nested lists of the given shape with every entry converted by ``ring``."""
    if not shape:
        return ring.of(value, where)
    if type(value) is not list or len(value) != shape[0]:
        raise Refuse(f"{where}: expected a list of length {shape[0]}")
    if len(shape) == 1:              # a row: plain ints at once, the rest one by one
        p = ring.p
        return [(v if p is None else v % p) if type(v) is int
                else ring.of(v, f"{where}[{k}]") for k, v in enumerate(value)]
    return [tensor(v, shape[1:], ring, f"{where}[{k}]") for k, v in enumerate(value)]


# --- linear algebra on Python ints -------------------------------------------------------------


def rank_mod(rows: list[list[Any]], p: int) -> int:
    """Rank over GF(p) by Gaussian elimination (the rows are consumed)."""
    rank, n_cols = 0, len(rows[0]) if rows else 0
    for c in range(n_cols):
        tick()
        pivot = next((k for k in range(rank, len(rows)) if rows[k][c] % p), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        inv = pow(rows[rank][c], -1, p)
        prow = [v * inv % p for v in rows[rank]]
        rows[rank] = prow
        for k in range(rank + 1, len(rows)):
            factor = rows[k][c] % p
            if factor:
                rows[k] = [(a - factor * b) % p for a, b in zip(rows[k], prow, strict=True)]
        rank += 1
    return rank


def minor_nonzero(entries: list[list[Number]], p: int) -> bool:
    """det(entries) != 0 mod p (entries exact or residues)."""
    ring = Ring(p)
    mat = [[ring.of(v, "minor") for v in row] for row in entries]
    return rank_mod(mat, p) == len(mat)


#: A fixed prime for the fast independence test of :func:`independent` (2^61 - 1).
_MERSENNE_61 = 2**61 - 1


def independent(rows: list[list[Number]]) -> bool:
    """The rows are linearly independent over Q: their rank modulo 2^61 - 1, then modulo
    three random primes of 62 bits that the certificate's author cannot have chosen (a full
    rank modulo any prime is a full rank over Q; independent rows lose rank only modulo the
    few primes dividing all their maximal minors), and only then exactly with fractions
    (truly dependent rows: the deadline bounds that elimination)."""
    if not rows:
        return True
    rng = random.SystemRandom()
    primes = [_MERSENNE_61]
    while len(primes) < 4:
        q = rng.randrange(2**61, 2**62) | 1
        if is_prime(q):
            primes.append(q)
    for q in primes:
        ring = Ring(q)
        try:
            residues = [[ring.of(v, "vector") for v in r] for r in rows]
        except Reject:     # a denominator divisible by q: try the next prime
            continue
        if rank_mod(residues, q) == len(rows):
            return True
    return rank_exact(rows) == len(rows)


def rank_exact(rows: list[list[Number]]) -> int:
    """Rank over Q with Fractions."""
    mat = [[Fraction(v) for v in r] for r in rows]
    rank, n_cols = 0, len(mat[0]) if mat else 0
    for c in range(n_cols):
        tick()
        pivot = next((k for k in range(rank, len(mat)) if mat[k][c] != 0), None)
        if pivot is None:
            continue
        mat[rank], mat[pivot] = mat[pivot], mat[rank]
        for k in range(rank + 1, len(mat)):
            tick()
            if mat[k][c] != 0:
                f = mat[k][c] / mat[rank][c]
                mat[k] = [a - f * b for a, b in zip(mat[k], mat[rank], strict=True)]
        rank += 1
    return rank


#: The largest matrix side or claimed rank a certificate may state (larger ones cannot be
#: checked by any budget; messages then never print attacker-sized numbers).
MAX_SIZE = 10**18

#: Primes are tested deterministically below this bound (and refused above it).
PRIME_LIMIT = 3317044064679887385961981


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3.3e24 (the first 13 prime bases)."""
    if n < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    for b in bases:
        if n % b == 0:
            return n == b
    if n >= PRIME_LIMIT:
        raise Reject(f"the prime {show(n)} is too large for this checker's primality test "
                     f"(below {PRIME_LIMIT} only)")
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for b in bases:
        x = pow(b, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def prime_of(value: Any, where: str) -> int:
    if type(value) is not int:
        raise Refuse(f"{where} must be an integer prime, got {show(value)}")
    if not is_prime(value):
        raise Reject(f"{where} = {show(value)} is not a prime")
    return value


def indices(value: Any, bound: int, where: str) -> list[int]:
    if type(value) is not list or not all(type(v) is int and 0 <= v < bound for v in value):
        raise Refuse(f"{where} must be a list of indices in 0..{bound - 1}")
    if len(set(value)) != len(value):
        raise Reject(f"{where} repeats an index")
    return value


def matrix_of(value: Any, shape: tuple[int, int], where: str) -> list[list[Number]]:
    if type(value) is not list or len(value) != shape[0] or not all(
            type(r) is list and len(r) == shape[1] for r in value):
        raise Refuse(f"{where} must be a {shape[0]} x {shape[1]} nested list")
    return [[num(v, f"{where}[{i}][{j}]") for j, v in enumerate(r)] for i, r in enumerate(value)]


def claim_of(cert: Mapping[str, Any], relations: tuple[str, ...]) -> tuple[str, int]:
    claim = cert.get("claim")
    if type(claim) is not dict:
        raise Refuse("the certificate has no 'claim' object")
    relation, value = claim.get("relation"), claim.get("value")
    if relation not in relations:
        raise Refuse(f"claim.relation must be one of {relations}, got {show(relation)}")
    if type(value) is not int or value < 0:
        raise Refuse(f"claim.value must be a non-negative integer, got {show(value)}")
    if value > MAX_SIZE:
        raise Refuse(f"claim.value = {show(value)} is above 10^18: no certificate this "
                     "checker reads can prove a rank that large")
    return relation, value


def shape_of(cert: Mapping[str, Any]) -> tuple[int, int]:
    shape = cert.get("shape")
    if type(shape) is not list or len(shape) != 2 or not all(
            type(s) is int and s >= 0 for s in shape):
        raise Refuse("shape must be [m, n], two integers >= 0")
    if max(shape) > MAX_SIZE:
        raise Refuse(f"shape {show(shape)} has a side above 10^18 (no matrix that large can "
                     "be read or checked)")
    return shape[0], shape[1]


def first_difference(stated: list[list[Number]], recomputed: Callable[[int, int], Number],
                     rows: Sequence[Any], cols: Sequence[Any]) -> None:
    for k, row in enumerate(stated):
        for j, value in enumerate(row):
            tick()
            again = recomputed(k, j)
            if again != value:
                raise Reject(f"entry ({k}, {j}) of the minor (row {rows[k]}, column "
                             f"{cols[j]}): the certificate says {show(value)}, recomputed "
                             f"{show(again)}")


def bad(message: str) -> Any:
    raise Refuse(message)


def template_indices(value: Any, bound: int, length: int, where: str) -> None:
    if type(value) is not list or len(value) != length or not all(
            type(v) is int and 0 <= v < bound for v in value):
        raise Refuse(f"{where} must be {length} template indices in 0..{bound - 1}")


def grid_frame(cert: Mapping[str, Any]) -> tuple[int, int, list[int], list[int]]:
    """n_inputs N, dim d and the partition (A, B) of a grid certificate, checked."""
    N_raw: Any = cert.get("n_inputs")
    d_raw: Any = cert.get("dim")
    if not all(type(v) is int and v >= 1 for v in (N_raw, d_raw)):
        raise Refuse("n_inputs and dim must be positive integers")
    N, d = int(N_raw), int(d_raw)
    part = cert.get("partition")
    if type(part) is not list or len(part) != 2:
        raise Refuse("partition must be [A, B]")
    A, B = (indices(part[0], N, "partition[0]"), indices(part[1], N, "partition[1]"))
    if not A or not B or set(A) & set(B) or set(A) | set(B) != set(range(N)):
        raise Refuse(f"partition {part} does not split the positions 0..{N - 1} in two")
    return N, d, A, B


def templates_of(raw: Any, d: int, ring: Ring, where: str) -> list[list[Number]]:
    """A non-empty list of template vectors of length d, converted by ``ring``."""
    if type(raw) is not list or not raw:
        raise Refuse(f"{where} must be a non-empty list of vectors")
    return [[ring.of(v, f"{where}[{k}]") for v in t] if type(t) is list and len(t) == d
            else bad(f"{where}[{k}] must have length dim = {d}") for k, t in enumerate(raw)]


def entries_of(raw: Any, r: int, ring: Ring, where: str) -> list[list[Number]]:
    """An r x r minor's entries, converted by ``ring``."""
    if type(raw) is not list or len(raw) != r or not all(
            type(row) is list and len(row) == r for row in raw):
        raise Refuse(f"{where} must be the {r} x {r} minor (a nested list)")
    return [[ring.of(v, f"{where}[{a}][{b}]") for b, v in enumerate(row)]
            for a, row in enumerate(raw)]


def keys_of(obj: Any, where: str, required: Sequence[str],
            optional: Sequence[str] = ()) -> Mapping[str, Any]:
    """An object with exactly the ``required`` keys and some of the ``optional`` ones."""
    if type(obj) is not dict:
        raise Refuse(f"{where} must be a JSON object")
    missing = [k for k in required if k not in obj]
    if missing:
        raise Refuse(f"{where} lacks {', '.join(map(repr, missing))}")
    unknown = sorted(set(obj) - set(required) - set(optional))
    if unknown:
        raise Refuse(f"{where} has unknown field(s) {', '.join(map(repr, unknown[:5]))} "
                     f"(known: {', '.join(list(required) + list(optional))})")
    return obj


# --- a prepared check --------------------------------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    """A certificate read and costed, not yet checked.

    ``claim`` says what it claims in words, ``subject`` what the claim is about (derived from
    the certificate's data: the function and its parameters, the partition, the matrix),
    ``estimate`` the operations the check needs (``what``: their breakdown), and ``run(log)``
    does the work, appends what it verified to ``log`` and returns what it could *not*
    recompute (empty: everything was).

    Parameters
    ----------
    claim : str
        The claim in words.
    subject : Mapping
        What the claim is about.
    estimate : int
        Operations the check needs.
    what : str
        Their breakdown.
    run : callable
        ``run(log)`` does the check; returns what it could not recompute.
    memory : int, default 0
        Estimated bytes of the check's own data beyond the certificate (0: negligible).
    memory_what : str, default ""
        What those bytes are.
    """

    claim: str
    subject: Mapping[str, Any]
    estimate: int
    what: str
    run: Callable[[list[str]], list[str]]
    memory: int = 0
    memory_what: str = ""
