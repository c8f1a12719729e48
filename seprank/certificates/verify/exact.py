"""The checker's exact arithmetic: JSON numbers, Q and GF(p), Gaussian elimination on Python
ints, primality, and the shape checks every certificate kind shares (standard library only)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from operator import mul
from typing import Any

__all__ = ["Number", "Reject", "Ring"]

Number = int | Fraction


class Reject(Exception):
    """The certificate does not prove its claim (the message says why)."""

# --- numbers ---------------------------------------------------------------------------------


def num(x: Any, where: str) -> Number:
    """An exact number from JSON: an int, or a string ``"a"`` / ``"a/b"``."""
    if isinstance(x, bool) or not isinstance(x, int | str):
        raise Reject(f"{where}: {x!r} is not an exact number (an int or a string 'a/b')")
    if isinstance(x, int):
        return x
    try:
        q = Fraction(x)
    except (ValueError, ZeroDivisionError) as err:
        raise Reject(f"{where}: {x!r} is not an exact rational ({err})") from None
    return q.numerator if q.denominator == 1 else q


class Ring:
    """Q (``p`` None: exact ints and Fractions) or GF(p) (ints in [0, p))."""

    def __init__(self, p: int | None) -> None:
        self.p = p

    def of(self, x: Any, where: str) -> Number:
        q = num(x, where)
        if self.p is None:
            return q
        if isinstance(q, Fraction):
            if q.denominator % self.p == 0:
                raise Reject(f"{where}: the denominator of {q} is divisible by p = {self.p}")
            return q.numerator * pow(q.denominator, -1, self.p) % self.p
        return q % self.p

    def red(self, x: Number) -> Number:
        return x if self.p is None else x % self.p

    def dot(self, a: Sequence[Number], b: Sequence[Number]) -> Number:
        return self.red(sum(map(mul, a, b)))

    def matvec(self, W: Sequence[Sequence[Number]], x: Sequence[Number]) -> list[Number]:
        """W x (W given by rows; the caller checked the lengths)."""
        if self.p is None:
            return [sum(map(mul, row, x)) for row in W]
        p = self.p
        return [sum(map(mul, row, x)) % p for row in W]


def tensor(value: Any, shape: tuple[int, ...], ring: Ring, where: str) -> Any:
    """Nested lists of the given shape with every entry converted by ``ring``."""
    if not shape:
        return ring.of(value, where)
    if not isinstance(value, list) or len(value) != shape[0]:
        raise Reject(f"{where}: expected a list of length {shape[0]}")
    return [tensor(v, shape[1:], ring, f"{where}[{k}]") for k, v in enumerate(value)]


# --- linear algebra on Python ints -------------------------------------------------------------


def rank_mod(rows: list[list[Any]], p: int) -> int:
    """Rank over GF(p) by Gaussian elimination (the rows are consumed)."""
    rank, n_cols = 0, len(rows[0]) if rows else 0
    for c in range(n_cols):
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
    mat = [[ring.of(v if isinstance(v, int) else str(v), "minor") for v in row]
           for row in entries]
    return rank_mod(mat, p) == len(mat)


def rank_exact(rows: list[list[Number]]) -> int:
    """Rank over Q with Fractions."""
    mat = [[Fraction(v) for v in r] for r in rows]
    rank, n_cols = 0, len(mat[0]) if mat else 0
    for c in range(n_cols):
        pivot = next((k for k in range(rank, len(mat)) if mat[k][c] != 0), None)
        if pivot is None:
            continue
        mat[rank], mat[pivot] = mat[pivot], mat[rank]
        for k in range(rank + 1, len(mat)):
            if mat[k][c] != 0:
                f = mat[k][c] / mat[rank][c]
                mat[k] = [a - f * b for a, b in zip(mat[k], mat[rank], strict=True)]
        rank += 1
    return rank


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3.3e24 (the first 13 prime bases)."""
    if n < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    for b in bases:
        if n % b == 0:
            return n == b
    if n >= 3317044064679887385961981:
        raise Reject(f"the prime {n} is too large for this checker's primality test")
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
    if isinstance(value, bool) or not isinstance(value, int) or not is_prime(value):
        raise Reject(f"{where} = {value!r} is not a prime")
    return value


def indices(value: Any, bound: int, where: str) -> list[int]:
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < bound for v in value):
        raise Reject(f"{where} must be a list of indices in 0..{bound - 1}")
    if len(set(value)) != len(value):
        raise Reject(f"{where} repeats an index")
    return value


def matrix_of(value: Any, shape: tuple[int, int], where: str) -> list[list[Number]]:
    if not isinstance(value, list) or len(value) != shape[0] or not all(
            isinstance(r, list) and len(r) == shape[1] for r in value):
        raise Reject(f"{where} must be a {shape[0]} x {shape[1]} nested list")
    return [[num(v, f"{where}[{i}][{j}]") for j, v in enumerate(r)] for i, r in enumerate(value)]


def claim_of(cert: Mapping[str, Any], relations: tuple[str, ...]) -> tuple[str, int]:
    claim = cert.get("claim")
    if not isinstance(claim, Mapping):
        raise Reject("the certificate has no 'claim'")
    relation, value = claim.get("relation"), claim.get("value")
    if relation not in relations:
        raise Reject(f"claim.relation must be one of {relations}, got {relation!r}")
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Reject(f"claim.value must be a non-negative integer, got {value!r}")
    return relation, value


def shape_of(cert: Mapping[str, Any]) -> tuple[int, int]:
    shape = cert.get("shape")
    if (not isinstance(shape, list) or len(shape) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                       for s in shape)):
        raise Reject("shape must be [m, n]")
    return shape[0], shape[1]


def first_difference(stated: list[list[Number]], recomputed: Callable[[int, int], Number],
                      rows: Sequence[Any], cols: Sequence[Any]) -> None:
    for k, row in enumerate(stated):
        for j, value in enumerate(row):
            again = recomputed(k, j)
            if again != value:
                raise Reject(f"entry ({k}, {j}) of the minor (row {rows[k]}, column "
                              f"{cols[j]}): the certificate says {value}, recomputed {again}")


def bad(message: str) -> Any:
    raise Reject(message)


def template_indices(value: Any, bound: int, length: int, where: str) -> None:
    if (not isinstance(value, list) or len(value) != length or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < bound for v in value)):
        raise Reject(f"{where} must be {length} template indices in 0..{bound - 1}")




def grid_frame(cert: Mapping[str, Any]) -> tuple[int, int, list[int], list[int]]:
    """n_inputs N, dim d and the partition (A, B) of a grid certificate, checked."""
    N_raw: Any = cert.get("n_inputs")
    d_raw: Any = cert.get("dim")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1
               for v in (N_raw, d_raw)):
        raise Reject("n_inputs and dim must be positive integers")
    N, d = int(N_raw), int(d_raw)
    part = cert.get("partition")
    if not isinstance(part, list) or len(part) != 2:
        raise Reject("partition must be [A, B]")
    A, B = (indices(part[0], N, "partition[0]"), indices(part[1], N, "partition[1]"))
    if not A or not B or set(A) & set(B) or set(A) | set(B) != set(range(N)):
        raise Reject(f"partition {part} does not split the positions 0..{N - 1} in two")
    return N, d, A, B


def templates_of(raw: Any, d: int, ring: Ring, where: str) -> list[list[Number]]:
    """A non-empty list of template vectors of length d, converted by ``ring``."""
    if not isinstance(raw, list) or not raw:
        raise Reject(f"{where} must be a non-empty list of vectors")
    return [[ring.of(v, f"{where}[{k}]") for v in t] if isinstance(t, list) and len(t) == d
            else bad(f"{where}[{k}] must have length dim = {d}") for k, t in enumerate(raw)]
