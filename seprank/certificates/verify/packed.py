"""Matrices in certificates: a nested list, or packed -- zlib + base64 of a canonical text --
for large ones (standard library only).

The canonical text of an m x n matrix lists its entries row by row, separated by commas, each
as a decimal integer or a fraction ``a/b`` in lowest terms with ``b > 1`` (no signs but a
leading ``-``, no leading zeros).  A packed matrix (``matrix_packed``) carries that text
compressed with its length and its SHA-256; the checker refuses a declared length above its
budget *before* decompressing (a zip bomb stops at the declared length), and then checks the
length, the digest and that every entry is canonical.  The digest of the canonical text names
the matrix in a claim's subject, whichever way it was shipped.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import zlib
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from .exact import Number, decimal, keys_of, matrix_of, num
from .limits import Refuse, active, tick

__all__ = ["ENCODING", "matrix_digest", "pack_matrix", "read_matrix"]

#: The packing of ``matrix_packed``.
ENCODING = "zlib+base64:decimal-csv"


def number_text(x: Number) -> str:
    """The canonical text of an exact number (module docstring)."""
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return decimal(x.numerator)
        return f"{decimal(x.numerator)}/{decimal(x.denominator)}"
    return decimal(x)


def canonical_text(rows: Iterable[Iterable[Number]]) -> bytes:
    """The canonical text of a matrix given by rows (module docstring)."""
    return ",".join(number_text(v) for row in rows for v in row).encode("ascii")


def matrix_digest(rows: Iterable[Iterable[Number]]) -> str:
    """``sha256:<hex>`` of the canonical text: the name of a matrix in a claim's subject.

    Parameters
    ----------
    rows : iterable of iterables
        The matrix of exact numbers.

    Returns
    -------
    str
        ``sha256:<hex>``.

    Examples
    --------
    >>> matrix_digest([[1, Fraction(1, 2)]]) == matrix_digest([[1, Fraction(2, 4)]])
    True
    """
    return "sha256:" + hashlib.sha256(canonical_text(rows)).hexdigest()


def pack_matrix(rows: Sequence[Sequence[Number]]) -> dict[str, Any]:
    """A matrix as ``matrix_packed`` (module docstring).

    Parameters
    ----------
    rows : sequence of sequences
        The matrix of exact numbers.

    Returns
    -------
    dict
        The ``matrix_packed`` fields.

    Examples
    --------
    >>> packed = pack_matrix([[1, 2], [3, Fraction(-1, 2)]])
    >>> packed["entries"], packed["raw_bytes"]
    (4, 10)
    >>> read_matrix({"matrix_packed": packed}, (2, 2))[0]
    [[1, 2], [3, Fraction(-1, 2)]]
    """
    raw = canonical_text(rows)
    return {"encoding": ENCODING, "entries": sum(len(r) for r in rows),
            "raw_bytes": len(raw), "sha256": "sha256:" + hashlib.sha256(raw).hexdigest(),
            "data": base64.b64encode(zlib.compress(raw, 9)).decode("ascii")}


def read_matrix(cert: Mapping[str, Any], shape: tuple[int, int]
                ) -> tuple[list[list[Number]] | None, str | None]:
    """The certificate's matrix (``matrix`` or ``matrix_packed``) and its digest; ``(None,
    None)`` when it ships neither.

    Parameters
    ----------
    cert : Mapping
        The certificate.
    shape : (int, int)
        The matrix's expected shape.

    Returns
    -------
    matrix : list of list or None
        The rows.
    digest : str or None
        Its digest.

    Examples
    --------
    >>> M, sha = read_matrix({"matrix": [[1, "2/4"]]}, (1, 2))
    >>> M, sha == matrix_digest([[1, Fraction(1, 2)]])
    ([[1, Fraction(1, 2)]], True)
    >>> read_matrix({}, (1, 2))
    (None, None)
    """
    plain, packed = cert.get("matrix"), cert.get("matrix_packed")
    if plain is not None and packed is not None:
        raise Refuse("a certificate ships its matrix once: 'matrix' or 'matrix_packed'")
    if plain is not None:
        M = matrix_of(plain, shape, "matrix")
        return M, matrix_digest(M)
    if packed is None:
        return None, None
    M = _unpack(packed, shape)
    return M, matrix_digest(M)


def _unpack(packed: Any, shape: tuple[int, int]) -> list[list[Number]]:
    budget = active()
    keys_of(packed, "matrix_packed", ("encoding", "entries", "raw_bytes", "sha256", "data"))
    m, n = shape
    if packed["encoding"] != ENCODING:
        raise Refuse(f"matrix_packed.encoding must be {ENCODING!r}")
    if type(packed["entries"]) is not int or packed["entries"] != m * n:
        raise Refuse(f"matrix_packed.entries must be m * n = {m * n}")
    if m * n > budget.max_values:
        raise Refuse(f"the packed matrix has {m * n} entries, above the budget of "
                     f"{budget.max_values} values (raise VerifyBudget(max_values=...))")
    size, data, declared = packed["raw_bytes"], packed["data"], packed["sha256"]
    if type(size) is not int or size < 0:
        raise Refuse("matrix_packed.raw_bytes must be an integer >= 0")
    if size > budget.max_bytes:      # before decompressing anything
        raise Refuse(f"the packed matrix says it is {size} bytes unpacked, above the budget "
                     f"of {budget.max_bytes} (raise VerifyBudget(max_bytes=...) if you trust "
                     "it)")
    if type(data) is not str or type(declared) is not str:
        raise Refuse("matrix_packed.data and .sha256 must be strings")
    try:
        compressed = base64.b64decode(data.encode("ascii"), validate=True)
        inflate = zlib.decompressobj()
        raw = inflate.decompress(compressed, size + 1)
    except (binascii.Error, UnicodeEncodeError, ValueError, zlib.error) as err:
        raise Refuse(f"matrix_packed.data is not zlib + base64 ({err})") from None
    if len(raw) != size or not inflate.eof or inflate.unconsumed_tail or inflate.unused_data:
        raise Refuse(f"matrix_packed.data does not unpack to its declared {size} bytes")
    if "sha256:" + hashlib.sha256(raw).hexdigest() != declared:
        raise Refuse("matrix_packed.data does not have its declared SHA-256")
    try:
        tokens = raw.decode("ascii").split(",") if m * n else []
    except UnicodeDecodeError:
        raise Refuse("matrix_packed.data is not ASCII text") from None
    if len(tokens) != m * n:
        raise Refuse(f"matrix_packed holds {len(tokens)} entries, not m * n = {m * n}")
    values: list[Number] = []
    for k, token in enumerate(tokens):
        if k % 4096 == 0:
            tick()
        value = num(token, f"matrix_packed entry {k}")
        if number_text(value) != token:
            raise Refuse(f"matrix_packed entry {k} ({token[:40]!r}) is not written "
                         "canonically (lowest terms, no leading zeros)")
        values.append(value)
    return [values[i * n:(i + 1) * n] for i in range(m)]

