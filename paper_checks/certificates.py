"""The certificates claims ship: written to a directory, re-checked by the independent checker.

A claim whose verdict rests on certified ranks returns them in
``ClaimResult(certificates={name: certificate})`` (:func:`seprank.certificates.certify`).
``paper-checks --certificates DIR`` writes every one to ``DIR/<claim id>/<name>.json`` (and
``DIR/index.json``) and re-checks it with :func:`seprank.certificates.verify.verify`, which
imports only the standard library; ``paper-checks --verify DIR`` re-checks a directory without
running any claim.  The report then says which verdicts rest on verified certificates.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from paper_checks.runner import ClaimOutcome
from seprank.certificates.build import save_certificate
from seprank.certificates.verify import Verification, verify

__all__ = ["CertificateRecord", "attach_records", "format_records", "verify_directory",
           "write_certificates"]

INDEX_FILE = "index.json"


@dataclass(frozen=True)
class CertificateRecord:
    """One certificate of one claim and what the independent checker said about it.

    Attributes
    ----------
    claim_id, name : str
        The claim and the certificate's name within it.
    claim : str
        What the certificate claims (e.g. ``'rank(M) = 12'``).
    file : str or None
        Its path relative to the certificates directory.
    verified : bool or None
        The checker's verdict (None: not checked yet).
    seconds : float or None
        Time the verification took.
    recomputed : bool or None
        Every entry was recomputed from the function's parameters.
    reason : str or None
        Why it was rejected.
    """

    claim_id: str
    name: str
    claim: str
    file: str | None = None
    verified: bool | None = None
    seconds: float | None = None
    recomputed: bool | None = None
    reason: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields (the ``certificates`` entries of ``paper-checks --json``).

        Examples
        --------
        >>> CertificateRecord("X-1", "a", "rank(M) >= 2").as_dict()["verified"] is None
        True
        """
        return {"name": self.name, "claim": self.claim, "file": self.file,
                "verified": self.verified, "seconds": self.seconds,
                "recomputed": self.recomputed, "reason": self.reason}


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=,-]+", "_", text).strip("_") or "certificate"


def _claim_text(cert: Mapping[str, Any]) -> str:
    c = cert.get("claim") or {}
    quantity = c.get("quantity") or cert.get("kind", "?")
    return f"{quantity} {c.get('relation', '?')} {c.get('value', '?')}"


def write_certificates(outcomes: Sequence[ClaimOutcome], directory: str | Path, *,
                       check: bool = True) -> dict[str, list[CertificateRecord]]:
    """Write every certificate the outcomes ship to ``directory/<claim id>/<name>.json`` (and
    an ``index.json``); with ``check`` re-check each with the independent checker.

    Examples
    --------
    >>> import tempfile
    >>> write_certificates([], tempfile.mkdtemp())
    {}
    """
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    records: dict[str, list[CertificateRecord]] = {}
    index: dict[str, dict[str, str]] = {}
    checked: dict[str, Verification] = {}
    for o in outcomes:
        certs = {} if o.result is None else dict(o.result.certificates)
        if not certs:
            continue
        for name, cert in certs.items():
            rel = f"{_safe(o.claim.id)}/{_safe(name)}.json"
            save_certificate(cert, root / rel)
            record = CertificateRecord(o.claim.id, name, _claim_text(cert), rel)
            if check:
                v = _verify_once(cert, checked)
                record = replace(record, verified=v.ok, seconds=v.seconds,
                                 recomputed=v.recomputed, reason=v.reason)
            records.setdefault(o.claim.id, []).append(record)
            index.setdefault(o.claim.id, {})[name] = rel
    (root / INDEX_FILE).write_text(json.dumps(index, indent=1), encoding="utf-8")
    return records


def verify_directory(directory: str | Path) -> dict[str, list[CertificateRecord]]:
    """Re-check every certificate listed in ``directory/index.json`` (written by
    :func:`write_certificates`) with the independent checker; claim id -> records.

    Examples
    --------
    >>> import tempfile
    >>> verify_directory(tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    FileNotFoundError: ... has no index.json: write it with paper-checks --certificates DIR
    """
    root = Path(directory)
    path = root / INDEX_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{root} has no {INDEX_FILE}: write it with paper-checks "
                                "--certificates DIR")
    index = json.loads(path.read_text(encoding="utf-8"))
    records: dict[str, list[CertificateRecord]] = {}
    checked: dict[str, Verification] = {}
    for claim_id, files in index.items():
        for name, rel in files.items():
            v = _verify_once((root / rel).read_text(encoding="utf-8"), checked)
            records.setdefault(claim_id, []).append(CertificateRecord(
                claim_id, name, v.claim, rel, v.ok, v.seconds, v.recomputed, v.reason))
    return records


def _verify_once(cert: Mapping[str, Any] | str, checked: dict[str, Verification]) -> Verification:
    """Verify, once per distinct certificate (several claims may rest on the same ranks)."""
    text = cert if isinstance(cert, str) else json.dumps(cert, sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()
    if digest not in checked:
        checked[digest] = verify(cert)
    return checked[digest]


def attach_records(outcomes: Iterable[ClaimOutcome],
                   records: Mapping[str, Sequence[CertificateRecord]]) -> list[ClaimOutcome]:
    """The outcomes with their certificate records attached (for the reports).

    Examples
    --------
    >>> attach_records([], {})
    []
    """
    return [replace(o, certificates=tuple(records.get(o.claim.id, ()))) for o in outcomes]


def format_records(records: Mapping[str, Sequence[CertificateRecord]]) -> str:
    """A per-claim table of verification results (``paper-checks --verify``).

    Examples
    --------
    >>> print(format_records({"X-1": [CertificateRecord("X-1", "a", "rank(M) >= 2",
    ...                                                 verified=True, seconds=0.01)]}))
    X-1  1/1 verified  0.01 s
        ok        a: rank(M) >= 2
    1 certificates, 1 verified, 0 rejected
    """
    lines, total, good = [], 0, 0
    for claim_id, recs in records.items():
        ok = sum(bool(r.verified) for r in recs)
        seconds = sum(r.seconds or 0.0 for r in recs)
        total, good = total + len(recs), good + ok
        lines.append(f"{claim_id}  {ok}/{len(recs)} verified  {seconds:.2f} s")
        for r in recs:
            flag = "ok      " if r.verified else "REJECTED"
            lines.append(f"    {flag}  {r.name}: {r.claim}"
                         + ("" if r.verified else f" -- {r.reason}"))
    lines.append(f"{total} certificates, {good} verified, {total - good} rejected")
    return "\n".join(lines)
