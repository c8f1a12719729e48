"""verify(): read a certificate, dispatch on its kind, time it, never raise on a bad one
(standard library only)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .exact import Reject, claim_of
from .kinds import KINDS

__all__ = ["SCHEMA", "SCHEMA_VERSION", "Verification", "main", "verify"]

#: The schema name every certificate carries in ``"schema"``.
SCHEMA = "seprank.certificate"
#: The schema version this checker reads (``"version"``).  Version 2 (seprank 0.3) names a
#: network's output entry ``"position"`` / ``"coordinate"`` (version 1: ``"i"`` / ``"p"``).
SCHEMA_VERSION = 2


@dataclass(frozen=True)
class Verification:
    """The outcome of :func:`verify`.

    Attributes
    ----------
    ok : bool
        The certificate proves its claim.
    kind : str
        ``'matrix_rank'``, ``'grid_rank'``, ``'grid_rank_blocks'`` or ``'kruskal_rank'`` (or
        ``'unknown'``).
    claim : str
        What the certificate claims, e.g. ``'rank(M) >= 12'``.
    verified : str
        What was checked, in words (empty when rejected).
    seconds : float
        Time the verification took.
    recomputed : bool
        Every entry used was recomputed from the function's or matrix's parameters (False for
        an opaque function: only the engine's values were checked).
    checks : tuple of str
        The steps, in order.
    reason : str or None
        Why the certificate was rejected (the first differing entry, a zero minor, ...).

    Examples
    --------
    >>> cert = {"schema": SCHEMA, "version": 2, "kind": "matrix_rank", "shape": [2, 2],
    ...         "claim": {"relation": ">=", "value": 2},
    ...         "lower": {"prime": 5, "rows": [0, 1], "cols": [0, 1],
    ...                   "entries": [[1, 2], [3, 4]]}}
    >>> v = verify(cert)
    >>> v.ok, v.claim
    (True, 'rank(M) >= 2')
    """

    ok: bool
    kind: str
    claim: str
    verified: str
    seconds: float
    recomputed: bool
    checks: tuple[str, ...] = ()
    reason: str | None = None

    def __bool__(self) -> bool:
        return self.ok

    def summary(self) -> str:
        """One line: verified or rejected, the claim, and the time."""
        if self.ok:
            return f"VERIFIED {self.claim} ({self.seconds:.3g} s): {self.verified}"
        return f"REJECTED {self.claim} ({self.seconds:.3g} s): {self.reason}"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"ok": self.ok, "kind": self.kind, "claim": self.claim,
                "verified": self.verified, "seconds": self.seconds,
                "recomputed": self.recomputed, "checks": list(self.checks),
                "reason": self.reason}


def _load(certificate: Any) -> Any:
    if isinstance(certificate, Path):
        return json.loads(certificate.read_text(encoding="utf-8"))
    if isinstance(certificate, str):
        return json.loads(certificate)
    return certificate


def verify(certificate: Mapping[str, Any] | str | Path) -> Verification:
    """Check a certificate independently (module docstring): recompute its entries, check the
    minor (and the kernel for an upper side), and say what was verified and how long it took.

    Parameters
    ----------
    certificate : Mapping, str or pathlib.Path
        The certificate as a dict, as JSON text, or the path of a JSON file.

    Returns
    -------
    Verification
        ``ok`` is False -- with the ``reason`` -- for a certificate that does not prove its
        claim, a malformed one, or one of another schema version; ``verify`` never raises on
        bad certificates.

    Examples
    --------
    >>> cert = {"schema": SCHEMA, "version": 2, "kind": "matrix_rank", "shape": [2, 2],
    ...         "claim": {"relation": "=", "value": 1}, "matrix": [[1, 2], [2, 4]],
    ...         "lower": {"prime": 7, "rows": [0], "cols": [0], "entries": [[1]]},
    ...         "upper": {"side": "right", "vectors": [[2, -1]]}}
    >>> verify(cert).ok
    True
    >>> cert["lower"]["entries"] = [[2]]       # not the matrix's entry
    >>> verify(cert).reason
    'entry (0, 0) of the minor (row 0, column 0): the certificate says 2, recomputed 1'
    """
    start = time.perf_counter()
    log: list[str] = []
    kind, claim = "unknown", "?"
    try:
        cert = _load(certificate)
        if not isinstance(cert, Mapping):
            raise Reject("a certificate is a JSON object")
        kind = str(cert.get("kind"))
        if cert.get("schema") != SCHEMA:
            raise Reject(f"schema {cert.get('schema')!r} is not {SCHEMA!r}")
        if cert.get("version") != SCHEMA_VERSION:
            raise Reject(f"schema version {cert.get('version')!r}; this checker reads exactly "
                          f"version {SCHEMA_VERSION}: regenerate the certificate with seprank "
                          ">= 0.3 (version 1 named the output entry 'i' / 'p', now "
                          "'position' / 'coordinate')")
        check = KINDS.get(kind)
        if check is None:
            raise Reject(f"unknown certificate kind {kind!r}; known: {sorted(KINDS)}")
        try:
            relation, value = claim_of(cert, (">=", "="))
            claim = f"{kind} {relation} {value}"
        except Reject:
            pass
        claim, recomputed = check(cert, log)
    except Reject as err:
        return Verification(False, kind, claim, "", time.perf_counter() - start, False,
                            tuple(log), str(err))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError,
            RecursionError) as err:
        return Verification(False, kind, claim, "", time.perf_counter() - start, False,
                            tuple(log), f"malformed certificate: {type(err).__name__}: {err}")
    return Verification(True, kind, claim, "; ".join(log), time.perf_counter() - start,
                        recomputed, tuple(log))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m seprank.certificates.verify CERT.json ...``: verify each file; exit status 0
    when all verify.

    Examples
    --------
    >>> main([])
    usage: python -m seprank.certificates.verify CERTIFICATE.json ...
    2
    """
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python -m seprank.certificates.verify CERTIFICATE.json ...")
        return 2
    failed = 0
    for path in paths:
        v = verify(Path(path))
        failed += not v.ok
        print(f"{path}: {v.summary()}")
    return 1 if failed else 0


