"""verify(): read a certificate strictly, estimate its cost, check it, and say what was and
was not checked -- never raising, whatever the input (standard library only)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from .exact import Prepared, Reject, integer, keys_of, show
from .kinds import FIELDS, KINDS
from .limits import (
    DEFAULT_BUDGET,
    Refuse,
    VerifyBudget,
    activate,
    deactivate,
    over_budget,
    over_memory,
)
from .schema import read_certificate
from .text import escape_for_terminal, escape_markdown

__all__ = ["SCHEMA", "SCHEMA_VERSION", "STATUSES", "Verification", "main", "same_json",
           "subject_of", "verify"]

#: The schema name every certificate carries in ``"schema"``.
SCHEMA = "seprank.certificate"
#: The schema version this checker reads (``"version"``).  Version 2 (seprank 0.3) names a
#: network's output entry ``"position"`` / ``"coordinate"`` (version 1: ``"i"`` / ``"p"``)
#: and every claim its ``subject``.
SCHEMA_VERSION = 2

Status = Literal["verified", "rejected", "unchecked", "refused"]
#: The outcomes of :func:`verify`.
STATUSES: tuple[str, ...] = ("verified", "rejected", "unchecked", "refused")

_CLAIM_FIELDS = (("relation", "value", "subject"), ("quantity", "statement", "label"))


@dataclass(frozen=True, repr=False)
class Verification:
    """The outcome of :func:`verify`.

    Attributes
    ----------
    status : {'verified', 'rejected', 'unchecked', 'refused'}
        ``'verified'``: every value the claim rests on was recomputed from the certificate's
        own data and the proof holds.  ``'rejected'``: the proof fails (a recomputed entry
        differs, a minor vanishes, the claim names another subject than the data, ...).
        ``'unchecked'``: the proof holds *on values the checker could not recompute* (an
        opaque function, a matrix certificate without its matrix) -- the claim is not
        established.  ``'refused'``: not examined -- malformed, over the budget, unreadable.
    kind : str
        ``'matrix_rank'``, ``'grid_rank'``, ``'grid_rank_blocks'`` or ``'kruskal_rank'`` (or
        ``'unknown'``).
    claim : str
        What the certificate claims, e.g. ``'rank(M) >= 12'``.
    verified : str
        What was checked, in words.
    seconds : float
        Time the verification took.
    recomputed : bool
        Every value used was recomputed from the function's or matrix's data.
    checks : tuple of str
        The steps, in order.
    reason : str or None
        Why the certificate was rejected, refused or left unchecked.
    not_checked : tuple of str
        What the checker could not recompute (empty unless ``status`` is ``'unchecked'``).
    proves : Mapping or None
        What the certificate is about, derived from its own data (``kind``, ``relation``,
        ``value`` and the ``subject``: the function's type, digest and parameters, the
        partition, or the matrix's shape and digest), with the producer's ``label`` (a name
        the checker cannot check, e.g. the claim a file was written for); None when it could
        not be read.
    estimate : int or None
        The estimated operations of the check (:class:`VerifyBudget`).

    Examples
    --------
    >>> cert = {"schema": SCHEMA, "version": 2, "kind": "matrix_rank", "shape": [2, 2],
    ...         "claim": {"relation": ">=", "value": 2, "subject": {"matrix": {
    ...             "shape": [2, 2], "sha256": None}}},
    ...         "lower": {"prime": 5, "rows": [0, 1], "cols": [0, 1],
    ...                   "entries": [[1, 2], [3, 4]]}}
    >>> v = verify(cert)                        # a minor of which matrix?
    >>> v.status, v.ok, bool(v)
    ('unchecked', False, False)
    >>> v.not_checked[0][:40]
    "that the minor's entries are entries of "
    """

    status: Status
    kind: str
    claim: str
    verified: str
    seconds: float
    recomputed: bool
    checks: tuple[str, ...] = ()
    reason: str | None = None
    not_checked: tuple[str, ...] = ()
    proves: Mapping[str, Any] | None = field(default=None, compare=False)
    estimate: int | None = None

    @property
    def ok(self) -> bool:
        """The certificate proves its claim: ``status == 'verified'``."""
        return self.status == "verified"

    def __bool__(self) -> bool:
        return self.ok

    def summary(self) -> str:
        """One line: the status in capitals, the claim, the time, and what was verified or
        why not.

        Returns
        -------
        str
            One line.
        """
        head = f"{self.status.upper()} {self.claim} ({self.seconds:.3g} s)"
        if self.ok:
            return f"{head}: {self.verified}"
        return f"{head}: {self.reason}"

    def __repr__(self) -> str:
        claim = self.claim if len(self.claim) <= 60 else self.claim[:59] + "…"
        extra = "" if self.ok else f", reason={_cut(str(self.reason), 60)!r}"
        return (f"Verification(status={self.status!r}, kind={self.kind!r}, claim={claim!r}, "
                f"seconds={self.seconds:.3g}, recomputed={self.recomputed}{extra})")

    def _repr_markdown_(self) -> str:
        """The summary, then the steps checked and what was not (standard library only);
        every text is escaped (:func:`~.text.escape_markdown`): a reason may quote a
        stranger's certificate."""
        rows = [("status", self.status), ("kind", self.kind), ("claim", self.claim),
                ("recomputed", str(self.recomputed)), ("seconds", f"{self.seconds:.3g}")]
        rows += [(f"check {i + 1}", step) for i, step in enumerate(self.checks[:12])]
        if len(self.checks) > 12:
            rows.append(("…", f"{len(self.checks) - 12} more checks"))
        rows += [("reason", str(self.reason))] if self.reason else []
        rows += [("not checked", step) for step in self.not_checked[:6]]
        cells = "\n".join(f"| {k} | {escape_markdown(_cut(v, 200))} |" for k, v in rows)
        return (f"**{escape_markdown(_cut(self.summary(), 400))}**\n\n| field | value |\n"
                f"|---|---|\n{cells}")

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields.

        Returns
        -------
        dict
            The fields, ready for ``json.dumps``.
        """
        return {"status": self.status, "ok": self.ok, "kind": self.kind, "claim": self.claim,
                "verified": self.verified, "seconds": self.seconds,
                "recomputed": self.recomputed, "checks": list(self.checks),
                "reason": self.reason, "not_checked": list(self.not_checked),
                "proves": None if self.proves is None else dict(self.proves),
                "estimate": self.estimate}


def _cut(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def verify(certificate: Any, *, budget: VerifyBudget | None = None,
           max_operations: int | None = None) -> Verification:
    """Check a certificate independently (module docstring of
    :mod:`seprank.certificates.verify`): read it strictly, estimate the work against the
    budget, recompute its entries, check the minor (and the kernel for an upper side), and say
    what was verified, what was not, and how long it took.

    Parameters
    ----------
    certificate : dict, str, bytes or pathlib.Path
        The certificate as a dict (of JSON-shaped builtin values only: no object's own code
        runs), as JSON text, or a file.  A ``str`` whose first non-blank character is ``{`` is
        JSON text; any other ``str`` is a file path (as is a :class:`pathlib.Path`).  A file
        must be a regular file within the budget's size; it is measured before it is read
        (:mod:`.schema`).
    budget : VerifyBudget, optional, keyword-only
        Limits on the input and the work (default :data:`.limits.DEFAULT_BUDGET`).
    max_operations : int, optional, keyword-only
        Shorthand for ``budget=VerifyBudget(max_operations=...)`` (on top of ``budget``).

    Returns
    -------
    Verification
        ``status`` 'verified' (``ok``), 'rejected', 'unchecked' or 'refused', with the
        ``reason``.  ``verify`` never raises: anything that goes wrong -- a malformed or
        hostile certificate, a missing file, a budget exceeded, memory exhausted -- is a
        Verification that says so.

    Examples
    --------
    >>> from seprank.certificates.verify.packed import matrix_digest
    >>> M = [[1, 2], [2, 4]]
    >>> cert = {"schema": SCHEMA, "version": 2, "kind": "matrix_rank", "shape": [2, 2],
    ...         "claim": {"relation": "=", "value": 1, "subject": {"matrix": {
    ...             "shape": [2, 2], "sha256": matrix_digest(M)}}}, "matrix": M,
    ...         "lower": {"prime": 7, "rows": [0], "cols": [0], "entries": [[1]]},
    ...         "upper": {"side": "right", "vectors": [[2, -1]]}}
    >>> verify(cert).status
    'verified'
    >>> cert["lower"]["entries"] = [[2]]       # not the matrix's entry
    >>> verify(cert).reason
    'entry (0, 0) of the minor (row 0, column 0): the certificate says 2, recomputed 1'
    >>> verify(cert, max_operations=10).status
    'refused'
    >>> verify("no/such/file.json").reason
    'no/such/file.json: no such file'
    """
    start = time.perf_counter()
    log: list[str] = []
    kind, claim = "unknown", "?"
    proves: dict[str, Any] | None = None
    estimate: int | None = None

    def outcome(status: Status, reason: str | None = None,
                missing: Sequence[str] = ()) -> Verification:
        return Verification(status, kind, claim, "; ".join(log), time.perf_counter() - start,
                            status == "verified", tuple(log), reason, tuple(missing), proves,
                            estimate)

    try:
        if budget is None:
            budget = DEFAULT_BUDGET
        if not isinstance(budget, VerifyBudget):
            return outcome("refused", f"budget must be a VerifyBudget, not "
                                      f"{type(budget).__name__}")
        if max_operations is not None:
            try:
                budget = replace(budget, max_operations=max_operations)
            except ValueError as err:
                return outcome("refused", f"max_operations: {err}")
        token = activate(budget)
        try:
            cert = read_certificate(certificate, budget)
            kind = _header(cert)
            prepared = _prepare(cert, kind)
            claim = prepared.claim
            estimate = prepared.estimate
            stated = cert["claim"]
            proves = {"kind": kind, "relation": stated["relation"], "value": stated["value"],
                      "subject": prepared.subject, "label": stated.get("label")}
            over_budget(prepared.estimate, budget, prepared.what)
            over_memory(prepared.memory, budget, prepared.memory_what)
            missing = prepared.run(log)
            _same_subject(stated["subject"], prepared.subject)
        finally:
            deactivate(token)
    except Reject as err:
        return outcome("rejected", str(err))
    except Refuse as err:
        return outcome("refused", str(err))
    except MemoryError:
        return outcome("refused", "the check ran out of memory (the certificate is larger "
                                  "than this machine can check)")
    except RecursionError:
        return outcome("refused", "the certificate is nested too deeply")
    except ValueError as err:
        if "integer string conversion" in str(err):      # a message that printed a huge int
            return outcome("refused", "the certificate holds numbers too long to print in "
                                      "this checker's message (more than 4300 digits); it "
                                      "was not checked")
        return outcome("refused", f"malformed certificate: ValueError: {_safe(err)}")
    except (Exception, SystemExit, GeneratorExit) as err:  # verify never raises
        return outcome("refused", f"malformed certificate: {type(err).__name__}: "
                                  f"{_safe(err)}")
    if missing:
        return outcome("unchecked", "not everything the claim rests on was recomputed: "
                       + "; ".join(missing), missing)
    return outcome("verified")


def _header(cert: Any) -> str:
    """The certificate's kind, after its schema and version."""
    if type(cert) is not dict:
        raise Refuse("a certificate is a JSON object")
    if cert.get("schema") != SCHEMA:
        raise Refuse(f"schema {show(cert.get('schema'))} is not {SCHEMA!r}")
    version = cert.get("version")
    if type(version) is not int or version != SCHEMA_VERSION:
        raise Refuse(f"schema version {show(version, 20)}; this checker reads exactly version "
                     f"{SCHEMA_VERSION} (an integer): regenerate the certificate with seprank "
                     ">= 0.3 (version 1 named the output entry 'i' / 'p', now "
                     "'position' / 'coordinate')")
    kind = cert.get("kind")
    if type(kind) is not str or kind not in KINDS:
        raise Refuse(f"unknown certificate kind {show(kind, 40)}; known: {sorted(KINDS)}")
    return kind


def _prepare(cert: dict[str, Any], kind: str) -> Prepared:
    """Check the kind's fields and the claim's, then read the kind strictly."""
    required, optional = FIELDS[kind]
    keys_of(cert, "the certificate", ("schema", "version", "kind", "claim", *required),
            ("provenance", *optional))
    if type(cert["claim"]) is dict and "subject" not in cert["claim"]:
        raise Refuse("claim lacks 'subject' (what the claim is about: the function, its "
                     "parameters and the partition, or the matrix): build the certificate "
                     "with seprank >= 0.3 (certify(...), or bind_subject(cert) for one "
                     "written by hand)")
    stated = keys_of(cert["claim"], "claim", *_CLAIM_FIELDS)
    for name in ("quantity", "statement"):
        if type(stated.get(name, "")) is not str:
            raise Refuse(f"claim.{name} must be a string")
    label = stated.get("label")
    if label is not None and not (type(label) is dict and all(
            type(v) is str for v in label.values())):
        raise Refuse("claim.label must be an object of strings")
    integer(stated["value"], "claim.value")
    if "provenance" in cert and type(cert["provenance"]) is not dict:
        raise Refuse("provenance must be a JSON object")
    return KINDS[kind](cert)


def _same_subject(stated: Any, derived: Mapping[str, Any]) -> None:
    """The claim names the subject the certificate's data is about."""
    if same_json(stated, derived):
        return
    where = _difference(stated, derived, "claim.subject")
    raise Reject(f"the claim is not about the certificate's data: {where} (the data is about "
                 f"{_short(derived)})")


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values, type for type: ``0`` is not ``false``, ``1`` not ``1.0``.

    Parameters
    ----------
    a, b : object
        JSON values (dict, list, str, int, bool, None).

    Returns
    -------
    bool
        Whether they are the same JSON value.

    Examples
    --------
    >>> same_json({"residual": False}, {"residual": False}), same_json(0, False)
    (True, False)
    """
    seq = (list, tuple)
    if type(a) in seq and type(b) in seq:
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    return bool(a == b)


def _safe(err: BaseException) -> str:
    """An exception's message, bounded and printable (it may quote the certificate)."""
    try:
        text = str(err)
    except Exception:
        text = "(its message cannot be shown)"
    return repr(text[:300])[1:-1] if text else "(no message)"


def _difference(stated: Any, derived: Any, where: str) -> str:
    if type(stated) is dict and isinstance(derived, Mapping):
        for key in sorted(set(stated) | set(derived)):
            if not same_json(stated.get(key), derived.get(key)):
                return _difference(stated.get(key), derived.get(key), f"{where}.{key}")
    return f"{where} says {_short(stated)}, the data gives {_short(derived)}"


def _short(value: Any) -> str:
    return show(value, 160)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m seprank.certificates.verify CERT.json ...``: verify each file; exit status 0
    when every one is verified, 1 otherwise (an unchecked one too, unless
    ``--allow-unchecked``), 2 for bad arguments.

    Parameters
    ----------
    argv : sequence of str, optional
        The command-line arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status.

    Examples
    --------
    >>> main([])
    usage: python -m seprank.certificates.verify [--allow-unchecked] [--json] [--max-operations N]
           CERTIFICATE.json ...
    2
    """
    args = list(sys.argv[1:] if argv is None else argv)
    usage = ("usage: python -m seprank.certificates.verify [--allow-unchecked] [--json] "
             "[--max-operations N]\n       CERTIFICATE.json ...")
    parser = argparse.ArgumentParser(prog="python -m seprank.certificates.verify",
                                     add_help=True)
    parser.add_argument("paths", nargs="*", metavar="CERTIFICATE.json")
    parser.add_argument("--allow-unchecked", action="store_true",
                        help="exit 0 although some certificates rest on values this checker "
                             "could not recompute (they are still printed as UNCHECKED)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per certificate (Verification.as_dict "
                             "with its 'path') instead of a line of text")
    parser.add_argument("--max-operations", type=int, metavar="N",
                        help="the budget of estimated operations "
                             f"(default {DEFAULT_BUDGET.max_operations:.3g})")
    try:
        ns = parser.parse_args(args)
    except SystemExit:
        return 2
    if not ns.paths:
        print(usage)
        return 2
    budget = DEFAULT_BUDGET
    if ns.max_operations is not None:
        if ns.max_operations < 1:
            print("--max-operations must be a positive integer")
            return 2
        budget = VerifyBudget(max_operations=ns.max_operations)
    failed = 0
    for path in ns.paths:
        v = verify(Path(path), budget=budget)
        failed += not (v.ok or (v.status == "unchecked" and ns.allow_unchecked))
        if ns.json:
            print(json.dumps({"path": path, **v.as_dict()}, default=str))
        else:          # a file name may hold newlines or escape codes: one escaped line
            print(escape_for_terminal(f"{path}: {v.summary()}", ascii_only=_ascii_terminal()))
    return 1 if failed else 0


def _ascii_terminal() -> bool:
    """Standard output cannot encode every character (a non-UTF terminal): escape non-ASCII."""
    encoding = (getattr(sys.stdout, "encoding", None) or "ascii").lower().replace("-", "")
    return encoding not in ("utf8", "utf16", "utf32")


def subject_of(certificate: Mapping[str, Any]) -> dict[str, Any]:
    """What a certificate's claim is about -- the function (type, digest, parameters), the
    partition, or the matrix (shape, digest) -- derived from its data exactly as
    :func:`verify` derives it; the builder files it as ``claim.subject``.

    Parameters
    ----------
    certificate : Mapping
        The certificate.

    Returns
    -------
    dict
        The subject: type, digest and parameters of the function, the partition, or the
        matrix's shape and digest.

    Raises
    ------
    ValueError
        For a certificate the checker cannot read (the reason).

    Examples
    --------
    >>> cert = {"schema": SCHEMA, "version": 2, "kind": "matrix_rank", "shape": [1, 2],
    ...         "claim": {"relation": ">=", "value": 0, "subject": None},
    ...         "matrix": [[0, 0]]}
    >>> subject_of(cert)["matrix"]["shape"]
    [1, 2]
    """
    try:
        cert = read_certificate(certificate, DEFAULT_BUDGET)
        return dict(_prepare(cert, _header(cert)).subject)
    except (Reject, Refuse) as err:
        raise ValueError(f"not a certificate this checker can read: {err}") from None
