"""The certificates claims ship: written to a directory, re-checked by the independent checker.

A claim whose verdict rests on certified ranks returns them in
``ClaimResult(certificates={name: certificate})`` (:func:`seprank.certificates.certify`).
``paper-checks --certificates DIR`` writes every one to ``DIR/<claim id>/<name>.json`` (its
claim labelled with the claim id and name) with a table of contents ``DIR/index.json``, and
re-checks it with :func:`seprank.certificates.verify.verify`, which imports only the standard
library; ``paper-checks --verify DIR`` re-checks a directory without running any claim.

The index is a table of contents, never evidence.  What a certificate proves is derived from
the file by the checker (:attr:`~seprank.certificates.verify.Verification.proves`) and
compared with what the *installed* claim requires (``claim(..., proves=[Proves(...)])``,
:mod:`paper_checks.evidence`): a genuine certificate of some other true statement -- a smaller
network, another claim's matrix, a lower value -- filed under a claim id is a mismatch, and so
is a claim id this installation does not have, a claim that declares no requirement, and a
requirement no certificate meets.  The file is also compared with what the index files it as
(its digest, its statement, its label), so a stale or edited index is reported too.

``--verify DIR`` reads regular files inside ``DIR`` only (no absolute paths, no ``..``, no
symlink leading out, no file with a second hard link -- it may be a name for a file outside
``DIR`` --, a size cap per file), reads and hashes each file once, and writes nothing.
Everything printed that came from the directory (names, statements, reasons) is escaped
(:func:`~seprank.certificates.verify.escape_for_terminal`): a newline or a terminal escape in
a name cannot forge or overwrite a line.
The report then says which verdicts rest on verified certificates (:func:`supports_verdict`).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from paper_checks.evidence import requirement_problems
from paper_checks.registry import Claim, get_claim
from paper_checks.runner import ClaimOutcome
from seprank.certificates.build import save_certificate
from seprank.certificates.verify import (
    DEFAULT_BUDGET,
    Verification,
    VerifyBudget,
    describe_subject,
    escape_for_terminal,
    same_json,
    verify,
)
from seprank.certificates.verify.exact import show
from seprank.certificates.verify.limits import Refuse
from seprank.certificates.verify.schema import parse_text, read_file

__all__ = ["INDEX_FILE", "INDEX_SCHEMA", "CertificateDirectoryError", "CertificateRecord",
           "attach_records", "bind_to_claims", "failed_records", "format_records",
           "supports_verdict", "verify_directory", "write_certificates"]

INDEX_FILE = "index.json"
#: The schema of ``index.json``: ``{"schema", "version", "claims": {claim id: {name:
#: {"file", "sha256", "proves"}}}}``.
INDEX_SCHEMA = "paper_checks.certificate_index"
_INDEX_VERSION = 1


class CertificateDirectoryError(ValueError):
    """The directory cannot be verified at all (no index, a malformed or empty one)."""


@dataclass(frozen=True)
class CertificateRecord:
    """One certificate of one claim and what the independent checker said about it.

    Attributes
    ----------
    claim_id, name : str
        The claim and the certificate's name within it (where the index files it).
    claim : str
        What the certificate claims (e.g. ``'rank(M) = 12'``), from the checker when checked.
    file : str or None
        Its path relative to the certificates directory.
    status : str or None
        The checker's status (``'verified'``, ``'rejected'``, ``'unchecked'``, ``'refused'``;
        None: not checked yet).
    seconds : float or None
        Time the verification took.
    recomputed : bool or None
        Every value was recomputed from the certificate's data.
    reason : str or None
        Why it was rejected, refused or left unchecked.
    proves : Mapping or None
        What the file proves, derived from it by the checker.
    problems : tuple of str
        Mismatches: between what the file proves and what the installed claim requires, and
        between the file and the index (what the index files it as, its digest, its label);
        any one keeps the certificate from counting as verified.  A record with status
        ``'missing'`` stands for a requirement of the claim that no certificate met.
    """

    claim_id: str
    name: str
    claim: str
    file: str | None = None
    status: str | None = None
    seconds: float | None = None
    recomputed: bool | None = None
    reason: str | None = None
    proves: Mapping[str, Any] | None = None
    problems: tuple[str, ...] = ()

    @property
    def verified(self) -> bool | None:
        """The checker verified it and it is what the index files it as (None: not checked)."""
        if self.status is None:
            return None
        return self.status == "verified" and not self.problems

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields (the ``certificates`` entries of ``paper-checks --json``).

        Examples
        --------
        >>> CertificateRecord("X-1", "a", "rank(M) >= 2").as_dict()["verified"] is None
        True
        """
        return {"name": self.name, "claim": self.claim, "file": self.file,
                "status": self.status, "verified": self.verified, "seconds": self.seconds,
                "recomputed": self.recomputed, "reason": self.reason,
                "proves": None if self.proves is None else dict(self.proves),
                "problems": list(self.problems)}


def supports_verdict(outcome: ClaimOutcome) -> bool:
    """Whether the claim's certificates can support its verdict.

    Every certificate a claim ships proves a certified rank from below (a non-zero minor) --
    with, for an exact matrix rank, its kernel.  Such a rank establishes a lower-bound or
    attainment statement (its ``holds``) and refutes an upper bound it exceeds (that bound's
    ``fails`` or ``erratum``), but it cannot establish an upper bound: a claim registered with
    ``upper_bound=True`` (:func:`paper_checks.registry.claim`) rests on its certificates only
    when its verdict says the bound is violated.

    Examples
    --------
    >>> from paper_checks.registry import ClaimResult, get_claim
    >>> from seprank.sweeps.measure import TaskOutcome
    >>> held = TaskOutcome("ok", ClaimResult(1, 2, "holds"))
    >>> supports_verdict(ClaimOutcome(get_claim("D2W-Thm3"), held))
    False
    >>> supports_verdict(ClaimOutcome(get_claim("ICB-PB-attained"), held))
    True
    """
    verdict = outcome.verdict
    if outcome.claim.upper_bound:
        return verdict in ("fails", "erratum")
    return verdict == "holds"


def _line(text: Any, width: int = 200) -> str:
    """What came from the directory, as one escaped line of at most ``width`` characters."""
    return escape_for_terminal(text if isinstance(text, str) else show(text, width), width)


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=,-]+", "_", text).strip("_") or "certificate"


def _claim_text(cert: Mapping[str, Any]) -> str:
    c = cert.get("claim") or {}
    quantity = c.get("quantity") or cert.get("kind", "?")
    return f"{quantity} {c.get('relation', '?')} {c.get('value', '?')}"


def _labelled(cert: Mapping[str, Any], claim_id: str, name: str) -> dict[str, Any]:
    out = copy.deepcopy(dict(cert))
    out["claim"] = {**out["claim"], "label": {"claim_id": claim_id, "name": name}}
    return out


def _filed_as(cert: Mapping[str, Any]) -> dict[str, Any]:
    """What the index files a certificate as (the producer's own words: its claim)."""
    claim = cert["claim"]
    return {"kind": cert.get("kind"), "relation": claim.get("relation"),
            "value": claim.get("value"), "subject": claim.get("subject"),
            "label": claim.get("label")}


def write_certificates(outcomes: Sequence[ClaimOutcome], directory: str | Path, *,
                       check: bool = True, budget: VerifyBudget | None = None
                       ) -> dict[str, list[CertificateRecord]]:
    """Write every certificate the outcomes ship to ``directory/<claim id>/<name>.json``
    (labelled with the claim id and name) and the index; with ``check`` re-check each file
    with the independent checker (within ``budget``, default
    :data:`~seprank.certificates.verify.DEFAULT_BUDGET`) and compare what it proves with what
    its claim requires (:func:`bind_to_claims`).

    Parameters
    ----------
    outcomes : sequence of ClaimOutcome
        The runs whose certificates are written.
    directory : str or Path
        Where (created if missing).
    check : bool
        Re-check every file and bind it to its claim.
    budget : VerifyBudget, optional
        The checker's budget per certificate.

    Returns
    -------
    dict
        Claim id -> its :class:`CertificateRecord` list.

    Examples
    --------
    >>> import tempfile
    >>> write_certificates([], tempfile.mkdtemp())
    {}
    """
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    records: dict[str, list[CertificateRecord]] = {}
    index: dict[str, dict[str, dict[str, Any]]] = {}
    checked: dict[str, Verification] = {}
    for o in outcomes:
        certs = {} if o.result is None else dict(o.result.certificates)
        for name, cert in certs.items():
            rel = f"{_safe(o.claim.id)}/{_safe(name)}.json"
            labelled = _labelled(cert, o.claim.id, name)
            path = save_certificate(labelled, root / rel)
            data = path.read_bytes()
            record = CertificateRecord(o.claim.id, name, _claim_text(cert), rel)
            if check:
                v = _verify_once(data, checked, budget)
                record = _record(record, v, _filed_as(labelled), None)
            records.setdefault(o.claim.id, []).append(record)
            index.setdefault(o.claim.id, {})[name] = {
                "file": rel, "sha256": "sha256:" + hashlib.sha256(data).hexdigest(),
                "proves": _filed_as(labelled)}
    (root / INDEX_FILE).write_text(json.dumps({"schema": INDEX_SCHEMA,
                                               "version": _INDEX_VERSION, "claims": index},
                                              indent=1), encoding="utf-8")
    if check:
        claims = {o.claim.id: o.claim for o in outcomes if o.claim.id in records}
        records = bind_to_claims(records, claims.get)
    return records


def verify_directory(directory: str | Path, *, budget: VerifyBudget | None = None
                     ) -> dict[str, list[CertificateRecord]]:
    """Re-check every certificate listed in ``directory/index.json`` (written by
    :func:`write_certificates`) with the independent checker; claim id -> records.  Each file
    must be a regular file inside the directory (module docstring); what it proves is derived
    from it and compared with what the index files it as.

    Raises
    ------
    FileNotFoundError
        When the directory has no index.
    CertificateDirectoryError
        When the index is not a regular file, malformed, or lists no certificates.

    Examples
    --------
    >>> import tempfile
    >>> verify_directory(tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    FileNotFoundError: ... has no index.json: write it with paper-checks --certificates DIR
    """
    budget = budget or DEFAULT_BUDGET
    root = Path(directory)
    if not root.is_dir():
        raise FileNotFoundError(f"{root} is not a directory of certificates")
    path = root / INDEX_FILE
    if not path.exists() and not path.is_symlink():
        raise FileNotFoundError(f"{root} has no {INDEX_FILE}: write it with paper-checks "
                                "--certificates DIR")
    entries = _read_index(root, budget)
    records: dict[str, list[CertificateRecord]] = {}
    checked: dict[str, Verification] = {}
    base = root.resolve()
    files: dict[Path, bytes | Refuse] = {}
    for claim_id, name, entry in entries:
        record = CertificateRecord(claim_id, name, "?", entry.get("file")
                                   if isinstance(entry.get("file"), str) else None)
        records.setdefault(claim_id, []).append(_check_entry(record, entry, base, budget,
                                                             checked, files))
    return bind_to_claims(records, _installed_claim)


def _installed_claim(claim_id: str) -> Claim | None:
    try:
        return get_claim(claim_id)
    except KeyError:
        return None


def bind_to_claims(records: Mapping[str, Sequence[CertificateRecord]],
                   claim_of: Callable[[str], Claim | None]) -> dict[str, list[CertificateRecord]]:
    """Compare what each checked certificate proves with what its installed claim requires.

    Every record of a claim id that ``claim_of`` does not know, or whose claim declares no
    requirement (``proves=``), gets a problem; so does every certificate whose proven statement
    meets no requirement of the claim that applies to its name; and every requirement no
    certificate met becomes a record of status ``'missing'``.  Only records the checker
    verified are compared (the others already fail).

    Parameters
    ----------
    records : Mapping[str, sequence of CertificateRecord]
        Claim id -> its checked records.
    claim_of : callable
        Claim id -> the installed :class:`~paper_checks.registry.Claim`, or None.

    Returns
    -------
    dict
        The same records with the binding's problems added, and the missing requirements.

    Examples
    --------
    >>> r = CertificateRecord("NOT-A-CLAIM", "a", "rank(M) >= 2", status="verified")
    >>> bind_to_claims({"NOT-A-CLAIM": [r]}, lambda claim_id: None)["NOT-A-CLAIM"][0].problems
    ('no claim NOT-A-CLAIM is installed here: nothing says what it must prove',)
    """
    out: dict[str, list[CertificateRecord]] = {}
    for claim_id, recs in records.items():
        claim = claim_of(claim_id)
        if claim is None:
            out[claim_id] = [_with_problem(r, f"no claim {_line(claim_id, 60)} is installed "
                                              "here: nothing says what it must prove")
                             for r in recs]
            continue
        if not claim.proves:
            out[claim_id] = [_with_problem(r, f"the installed claim {claim_id} declares no "
                                              "requirement (proves=): a certificate filed under "
                                              "it proves nothing about it") for r in recs]
            continue
        proven = {r.name: r.proves for r in recs if r.status == "verified"}
        found = requirement_problems(claim.proves, proven)
        bound = [r if not found.get(r.name) else
                 replace(r, problems=(*r.problems, *(f"not what {claim_id} requires: {p}"
                                                     for p in found[r.name])))
                 for r in recs]
        if all(r.status == "verified" for r in recs):
            bound += [CertificateRecord(claim_id, "(requirement)", "-", status="missing",
                                        reason=problem, problems=(problem,))
                      for problem in found.get("", [])]
        out[claim_id] = bound
    return out


def _with_problem(record: CertificateRecord, problem: str) -> CertificateRecord:
    return replace(record, problems=(*record.problems, problem))


def _read_index(root: Path, budget: VerifyBudget) -> list[tuple[str, str, Mapping[str, Any]]]:
    where = f"{root / INDEX_FILE}"
    try:
        if (root / INDEX_FILE).is_symlink():
            raise Refuse("it is a symlink; the index must be a regular file in DIR")
        index = parse_text(read_file(root / INDEX_FILE, budget), budget)
    except Refuse as err:
        raise CertificateDirectoryError(f"{where}: {err}") from None
    if (type(index) is not dict or index.get("schema") != INDEX_SCHEMA
            or index.get("version") != _INDEX_VERSION or type(index.get("claims")) is not dict):
        raise CertificateDirectoryError(
            f"{where} is not a certificate index ({{'schema': {INDEX_SCHEMA!r}, 'version': "
            f"{_INDEX_VERSION}, 'claims': {{claim id: {{name: {{file, sha256, proves}}}}}}}}); "
            "write it with paper-checks --certificates DIR")
    out: list[tuple[str, str, Mapping[str, Any]]] = []
    for claim_id, files in index["claims"].items():
        if type(files) is not dict:
            raise CertificateDirectoryError(f"{where}: the entry of claim {claim_id!r} is not "
                                            "an object {name: {file, sha256, proves}}")
        for name, entry in files.items():
            if type(entry) is not dict:
                raise CertificateDirectoryError(
                    f"{where}: {claim_id} / {name} is not an object {{file, sha256, proves}}")
            out.append((claim_id, name, entry))
    if not out:
        raise CertificateDirectoryError(f"{where} lists no certificates: nothing to verify")
    return out


def _inside(base: Path, rel: Any) -> Path:
    """The file ``rel`` names inside ``base``, or :class:`Refuse`."""
    if type(rel) is not str or not rel or "\x00" in rel or "\\" in rel:
        raise Refuse(f"the index names the file {str(rel)[:80]!r}, not a relative path")
    posix = PurePosixPath(rel)
    if posix.is_absolute() or PureWindowsPath(rel).drive or ".." in posix.parts:
        raise Refuse(f"the index names {rel!r}: only relative paths inside the directory, "
                     "without '..', are read")
    target = (base / posix).resolve()
    if not target.is_relative_to(base):
        raise Refuse(f"{rel} leads outside the directory (to {target}): not read")
    return target


def _check_entry(record: CertificateRecord, entry: Mapping[str, Any], base: Path,
                 budget: VerifyBudget, checked: dict[str, Verification],
                 files: dict[Path, bytes | Refuse]) -> CertificateRecord:
    unknown = sorted(_line(k, 40) for k in set(entry) - {"file", "sha256", "proves"})
    if unknown or "proves" not in entry or "sha256" not in entry:
        return replace(record, status="refused", reason="the index entry must be {file, "
                       f"sha256, proves}} (unknown: {unknown})")
    try:
        target = _inside(base, entry.get("file"))
        if target not in files:      # each file read and hashed once, however often listed
            files[target] = _read_once(target, budget)
        data = files[target]
        if isinstance(data, Refuse):
            raise data
    except Refuse as err:
        return replace(record, status="refused", reason=str(err))
    v = _verify_once(data, checked, budget)
    problems = []
    sha = "sha256:" + hashlib.sha256(data).hexdigest()
    if entry["sha256"] != sha:
        problems.append(f"the file is not the one the index lists (its SHA-256 is {sha[:19]}.., "
                        f"the index says {show(entry['sha256'], 19)}..)")
    return _record(record, v, entry["proves"], problems)


def _read_once(target: Path, budget: VerifyBudget) -> bytes | Refuse:
    """The file's bytes, or why it is not read: a file with a second hard link may be a name for
    a file outside the directory (a hard link cannot be told from its original), so it is not
    read."""
    try:
        try:
            info = os.stat(target)
        except OSError:
            info = None          # read_file says why (no such file, ...)
        if info is not None and stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
            raise Refuse(f"{target.name} has {info.st_nlink} hard links: it may be a file "
                         "outside the directory; copy it into DIR instead of linking it")
        return read_file(target, budget).encode("utf-8")
    except Refuse as err:
        return err
    except OSError as err:
        return Refuse(f"{target.name} cannot be read ({type(err).__name__})")


def _record(record: CertificateRecord, v: Verification, filed: Any,
            problems: list[str] | None) -> CertificateRecord:
    problems = list(problems or ())
    if v.proves is not None:
        label = v.proves.get("label")
        expected = {"claim_id": record.claim_id, "name": record.name}
        if label != expected:
            problems.append(f"filed under {record.claim_id} / {record.name!r} but the "
                            f"certificate is labelled {show(label, 80)}")
        if isinstance(filed, Mapping) and not same_json(dict(filed), dict(v.proves)):
            problems.append(f"the index files it as {_filed_text(filed)}, but the file proves "
                            f"{_filed_text(v.proves)}")
        elif not isinstance(filed, Mapping):
            problems.append("the index does not say what the file proves")
    return replace(record, claim=v.claim, status=v.status, seconds=v.seconds,
                   recomputed=v.recomputed, reason=v.reason, proves=v.proves,
                   problems=tuple(problems))


def _filed_text(proves: Mapping[str, Any]) -> str:
    return (f"'{show(proves.get('kind'))} {show(proves.get('relation'))} "
            f"{show(proves.get('value'))}' about {describe_subject(proves)}")


def _verify_once(data: bytes, checked: dict[str, Verification],
                 budget: VerifyBudget | None) -> Verification:
    """Verify, once per distinct file content (several claims may ship the same ranks)."""
    digest = hashlib.sha256(data).hexdigest()
    if digest not in checked:
        checked[digest] = verify(data, budget=budget)
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


_FLAGS = {"verified": "ok", "rejected": "REJECTED", "unchecked": "UNCHECKED",
          "refused": "REFUSED", None: "NOT CHECKED"}


def format_records(records: Mapping[str, Sequence[CertificateRecord]]) -> str:
    """A per-claim table of verification results (``paper-checks --verify``): each line says
    what the file proves, derived from the file.

    Examples
    --------
    >>> print(format_records({"X-1": [CertificateRecord("X-1", "a", "rank(M) >= 2",
    ...                                                 status="verified", seconds=0.01)]}))
    X-1  1/1 verified  0.01 s
        ok  a: rank(M) >= 2 about ?
    1 certificates: 1 verified, 0 rejected, 0 unchecked, 0 refused, 0 mismatched, 0 missing
    """
    lines: list[str] = []
    counts = dict.fromkeys(("verified", "rejected", "unchecked", "refused", "mismatched",
                            "missing"), 0)
    for claim_id, recs in records.items():
        ok = sum(bool(r.verified) for r in recs)
        seconds = sum(r.seconds or 0.0 for r in recs)
        lines.append(f"{_line(claim_id, 80)}  {ok}/{len(recs)} verified  {seconds:.2f} s")
        for r in recs:
            mismatch = r.status == "verified" and bool(r.problems)
            flag = "MISMATCH" if mismatch else _FLAGS.get(r.status, str(r.status).upper())
            key = "mismatched" if mismatch else (r.status or "refused")
            counts[key] = counts.get(key, 0) + 1
            if r.status == "missing":
                lines.append(f"    MISSING  {_line(r.reason)}")
                continue
            lines.append(f"    {flag}  {_line(r.name, 80)}: {_line(r.claim, 80)} about "
                         f"{describe_subject(r.proves)}"
                         + ("" if r.status == "verified" or r.reason is None
                            else f" -- {_line(r.reason, 300)}"))
            lines.extend(f"        {_line(p, 300)}" for p in r.problems)
    total = sum(counts.values())
    lines.append(f"{total} certificates: " + ", ".join(f"{n} {k}" for k, n in counts.items()))
    return "\n".join(lines)


def failed_records(records: Mapping[str, Sequence[CertificateRecord]], *,
                   allow_unchecked: bool = False) -> list[CertificateRecord]:
    """The records that keep ``paper-checks`` from exiting 0: anything not verified (an
    unchecked one only without ``allow_unchecked``), and every mismatch.

    Examples
    --------
    >>> r = CertificateRecord("X-1", "a", "sep >= 4", status="unchecked")
    >>> len(failed_records({"X-1": [r]})), len(failed_records({"X-1": [r]},
    ...                                                         allow_unchecked=True))
    (1, 0)
    """
    return [r for recs in records.values() for r in recs
            if r.problems or not (r.status == "verified"
                                  or (allow_unchecked and r.status == "unchecked"))]

