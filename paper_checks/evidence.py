"""Evidence: what kind of evidence a verdict rests on, and what a claim's certificates must prove.

A verdict says *what* was found (:mod:`paper_checks.ledger`); its :data:`Basis` says *how much
that finding is worth*.  Every claim declares its basis at registration
(``claim(..., basis=...)``), and the CLI table, the report, the JSON and the site show it and
count it ("188 holds: 20 certified, 61 exact, ...").  The vocabulary:

``certified``
    A certificate proves it, and the independent checker (:mod:`seprank.certificates.verify`,
    standard library only) re-checks that certificate.  A run that did not re-check the
    certificates reports the basis as ``exact`` (the computation behind the certificate) --
    never as ``certified``.
``exact``
    An exact computation of the stated quantity at the stated sizes (integers, rationals,
    exact GF(p) ranks, exhaustive enumeration).  Only for a statement *about those instances*:
    a universal statement (``universal=True``) checked on instances is ``not_refuted``.
``symbolic``
    An identity or inequality proved for all parameters (a computer-algebra proof, e.g. sympy
    simplifying a difference to zero, or a closed form checked symbolically).
``not_refuted``
    A universal statement tested on finitely many instances by a test that could have refuted
    it: evidence, not proof.  An upper bound tested against certified *lower* bounds is this.
``numeric``
    Floating point within a stated tolerance.
``statistical``
    Sampled (simulation, training runs, Monte Carlo), with the confidence the check states.

For a verdict other than ``holds`` the basis describes the evidence of the refutation (an
``erratum`` whose counterexample is computed exactly has basis ``exact``).

A certifying claim also declares what its certificates must prove (:class:`Proves`): the
certificate kind, the relation and value, and the subject's parameters.  ``paper-checks
--certificates`` and ``--verify`` compare every certificate's *proven* statement -- derived from
the file by the checker, never from the index or the label -- with the requirement of the
*installed* claim; a certificate that proves something true but not what the claim requires is
a mismatch.

Registration refuses the combinations that cannot be true (:func:`check_evidence`): a
``certified`` basis without certificates, a universal ``holds`` with basis ``exact``, an upper
bound ``certified`` by certificates that prove lower bounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any, Literal, get_args

__all__ = ["BASES", "BASIS_MEANING", "RELATIONS", "Basis", "Proves", "check_evidence",
           "requirement_problems"]

Basis = Literal["certified", "exact", "symbolic", "not_refuted", "numeric", "statistical"]
BASES: tuple[str, ...] = get_args(Basis)
#: One line per basis, as the report's legend prints it.
BASIS_MEANING: Mapping[str, str] = {
    "certified": "a certificate proves it and the independent checker re-checked it",
    "exact": "exact computation of the stated quantity at the stated sizes",
    "symbolic": "an identity or inequality proved for all parameters",
    "not_refuted": "a universal statement tested on finitely many instances (could have "
                   "refuted it; does not prove it)",
    "numeric": "floating point within a stated tolerance",
    "statistical": "sampled, with the stated confidence",
}
Relation = Literal[">=", "=", "<="]
RELATIONS: tuple[str, ...] = get_args(Relation)


@dataclass(frozen=True)
class Proves:
    """What a claim's certificate must prove, declared at registration.

    A certificate of the claim meets the requirement when the independent checker's reading of
    the file (:attr:`seprank.certificates.verify.Verification.proves`) has this ``kind``, a
    relation at least as strong as ``relation`` with a value on the right side of ``value``
    (a proven ``rank >= 12`` meets ``>= 10``; a proven ``= 12`` meets ``>= 12``, ``<= 12`` and
    ``= 12``), and a subject that contains ``subject`` (a nested mapping compared
    type-strictly: ``0`` is not ``False``).

    Parameters
    ----------
    kind : str
        The certificate kind (``'matrix_rank'``, ``'grid_rank'``, ``'grid_rank_blocks'``,
        ``'kruskal_rank'``, ...).
    relation : {'>=', '=', '<='}
        What the certificate must establish about the quantity.
    value : int
        The bound (or the value, for ``'='``).
    subject : Mapping, optional
        Parameters the certificate's subject must carry (e.g. ``{"function": {"depth": 2,
        "width": 5}, "n_inputs": 2}``).
    name : str, optional
        An :mod:`fnmatch` pattern of the certificate names it applies to (default: all).
    required : bool, optional
        A certificate must meet it (default).  ``False`` for a certificate the claim ships only
        at some sizes (e.g. below a rank limit): it is then checked when present.  Either way a
        claim's certificates must meet at least one of its requirements.

    Examples
    --------
    >>> need = Proves("grid_rank", ">=", 10, subject={"function": {"depth": 3}})
    >>> need.problems({"kind": "grid_rank", "relation": ">=", "value": 12,
    ...                "subject": {"function": {"depth": 3, "width": 5}}})
    []
    >>> need.problems({"kind": "grid_rank", "relation": ">=", "value": 4,
    ...                "subject": {"function": {"depth": 2, "width": 5}}})
    ['it proves grid_rank >= 4, the claim needs grid_rank >= 10',
     'its subject has function.depth = 2, the claim needs 3']
    """

    kind: str
    relation: Relation
    value: int
    subject: Mapping[str, Any] = field(default_factory=dict)
    name: str = "*"
    required: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not self.kind:
            raise TypeError(f"Proves.kind must be a certificate kind (a non-empty str), got "
                            f"{self.kind!r}")
        if self.relation not in RELATIONS:
            raise ValueError(f"Proves.relation must be one of {RELATIONS}, got "
                             f"{self.relation!r}")
        if type(self.value) is not int:
            raise TypeError(f"Proves.value must be an int, got {self.value!r}")
        if not isinstance(self.subject, Mapping):
            raise TypeError(f"Proves.subject must be a mapping of the subject's parameters, "
                            f"got {type(self.subject).__name__}")
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"Proves.name must be a glob of certificate names, got "
                            f"{self.name!r}")

    def applies_to(self, name: str) -> bool:
        """Whether this requirement covers the certificate called ``name``."""
        return fnmatchcase(name, self.name)

    def text(self) -> str:
        """The requirement in one line, e.g. ``'grid_rank >= 10 (function.depth=3)'``."""
        where = ", ".join(f"{k}={v!r}" for k, v in _flatten(self.subject))
        return f"{self.kind} {self.relation} {self.value}" + (f" ({where})" if where else "")

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"kind": self.kind, "relation": self.relation, "value": self.value,
                "subject": _plain(self.subject), "name": self.name, "required": self.required}

    def problems(self, proven: Mapping[str, Any] | None) -> list[str]:
        """Why the checker's reading ``proven`` does not meet this requirement ([] if it does)."""
        if not isinstance(proven, Mapping):
            return ["the checker derived no statement from the file"]
        out = []
        kind, relation, value = proven.get("kind"), proven.get("relation"), proven.get("value")
        if kind != self.kind or not _implies(relation, value, self.relation, self.value):
            out.append(f"it proves {kind} {relation} {_short(value)}, the claim needs "
                       f"{self.kind} {self.relation} {self.value}")
        subject = proven.get("subject")
        for path, want in _flatten(self.subject):
            got = _lookup(subject, path)
            if got is _MISSING:
                out.append(f"its subject has no {path}, the claim needs {path} = {want!r}")
            elif not _same(got, want):
                out.append(f"its subject has {path} = {_short(got)}, the claim needs {want!r}")
        return out


def _implies(relation: Any, value: Any, need_relation: str, need_value: int) -> bool:
    if type(value) is not int:
        return False
    if relation == "=":
        return {">=": value >= need_value, "<=": value <= need_value,
                "=": value == need_value}[need_relation]
    if relation == ">=":
        return need_relation == ">=" and value >= need_value
    if relation == "<=":
        return need_relation == "<=" and value <= need_value
    return False


_MISSING = object()


def _flatten(subject: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for key, value in subject.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.extend(_flatten(value, path + "."))
        else:
            out.append((path, value))
    return out


def _lookup(subject: Any, path: str) -> Any:
    node = subject
    for key in path.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return _MISSING
        node = node[key]
    return node


def _same(got: Any, want: Any) -> bool:
    """Type-strict equality of JSON values (``0`` is not ``False``; tuples read as lists)."""
    if isinstance(want, tuple | list):
        return (isinstance(got, tuple | list) and len(got) == len(want)
                and all(_same(g, w) for g, w in zip(got, want, strict=True)))
    if type(got) is not type(want):
        return False
    return bool(got == want)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _short(value: Any, width: int = 60) -> str:
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**50 else "a huge int"
    return text if len(text) <= width else text[:width - 3] + "..."


def requirement_problems(requirements: Sequence[Proves],
                         certificates: Mapping[str, Mapping[str, Any] | None],
                         ) -> dict[str, list[str]]:
    """Compare the checker's readings of a claim's certificates with its requirements.

    Parameters
    ----------
    requirements : sequence of Proves
        What the installed claim declares.
    certificates : Mapping[str, Mapping or None]
        Certificate name -> what the checker says the file proves.

    Returns
    -------
    dict
        Certificate name -> its problems (empty when it meets a requirement that applies to
        it); the key ``""`` lists requirements no certificate met.

    Examples
    --------
    >>> need = [Proves("matrix_rank", "=", 3, name="H_3*")]
    >>> requirement_problems(need, {"H_3 exact": {"kind": "matrix_rank", "relation": "=",
    ...                                           "value": 3, "subject": {}}})
    {'H_3 exact': [], '': []}
    >>> requirement_problems(need, {"other": {"kind": "matrix_rank", "relation": "=",
    ...                                       "value": 3, "subject": {}}})["other"]
    ['no requirement of the claim covers a certificate named other']
    """
    out: dict[str, list[str]] = {}
    met = [False] * len(requirements)
    for name, proven in certificates.items():
        applicable = [(i, r) for i, r in enumerate(requirements) if r.applies_to(name)]
        if not applicable:
            out[name] = [f"no requirement of the claim covers a certificate named {name}"]
            continue
        found: list[str] = []
        for i, req in applicable:
            problems = req.problems(proven)
            if not problems:
                met[i] = True
                found = []
                break
            found.extend(problems)
        out[name] = found
    out[""] = [f"no certificate proves {r.text()} (certificates named {r.name!r})"
               for r, ok in zip(requirements, met, strict=True) if not ok and r.required]
    if requirements and not any(met) and not out[""]:
        out[""] = ["no certificate meets any requirement of the claim"]
    return out


def check_evidence(claim_id: str, *, basis: str | None, expected_verdict: str,
                   universal: bool, upper_bound: bool, certifies: bool,
                   proves: Sequence[Proves]) -> None:
    """Refuse, at registration, evidence that cannot support the claimed verdict.

    Raises
    ------
    ValueError
        An unknown basis; ``certified`` without certificates or without a declared
        requirement; a universal statement expected to ``hold`` on an ``exact`` basis; an upper
        bound expected to ``hold`` on certificates that prove only lower bounds.
    TypeError
        ``proves`` is not a sequence of :class:`Proves`.

    Examples
    --------
    >>> check_evidence("EX-1", basis="exact", expected_verdict="holds", universal=True,
    ...                upper_bound=False, certifies=False, proves=())
    Traceback (most recent call last):
    ...
    ValueError: claim EX-1: a universal statement checked on instances is not established ...
    """
    if basis is not None and basis not in BASES:
        raise ValueError(f"claim {claim_id}: basis must be one of {BASES}, got {basis!r}")
    if not all(isinstance(p, Proves) for p in proves):
        raise TypeError(f"claim {claim_id}: proves= takes Proves(...) requirements")
    if proves and not certifies:
        raise ValueError(f"claim {claim_id}: proves= declares certificates, so the claim must "
                         "ship them (certifies=True)")
    if basis == "certified" and not (certifies and proves):
        raise ValueError(f"claim {claim_id}: basis 'certified' needs certificates "
                         "(certifies=True) and what they must prove (proves=[Proves(...)])")
    if expected_verdict != "holds":
        return
    if universal and basis == "exact":
        raise ValueError(f"claim {claim_id}: a universal statement checked on instances is not "
                         "established by an exact computation at those instances: its basis "
                         "is 'not_refuted' (or 'symbolic' / 'certified' with a proof for all "
                         "parameters)")
    if upper_bound and basis == "certified" and any(p.relation == ">=" for p in proves):
        raise ValueError(f"claim {claim_id}: an upper bound cannot be certified by "
                         "certificates of lower bounds (Proves(..., '>=', ...)); its basis is "
                         "'not_refuted' unless a certificate proves the bound from above")
