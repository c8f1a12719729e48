"""The truth ledger: what a verdict says, how a statement is wrong, how much room a ``holds`` has.

A check returns a :class:`ClaimResult`.  Its ``verdict`` is one of

``holds``
    The printed statement was measured and holds.  Its :class:`Margin` says how much room it
    leaves; a check in the ``paper`` category must be able to fail (a registered perturbation of
    the statement returns a non-``holds`` verdict, tested).
``erratum``
    The printed statement fails *and* a corrected statement holds; ``details`` must contain
    ``"printed"`` and ``"corrected"`` entries showing what was measured for each.
``note``
    Not an error: the printed statement holds under its own convention or notation, which
    differs from another legitimate one (the field's, the toolkit's, the other version's);
    ``kind`` is ``'convention'`` or ``'notation'`` and ``details`` must contain ``"printed"``
    and ``"reading"`` (what was measured under the paper's reading).  Notes are listed and
    counted apart from errata everywhere.
``fails``
    The printed statement fails and no corrected statement is offered.
``unproven``
    The statement is not refuted, but a step of its proof is (``kind='proof'``).
``skipped``
    Not evaluated; ``details["reason"]`` says why.

Every ``erratum``, ``fails``, ``unproven`` and ``note`` carries a :data:`Kind` (how the
statement is wrong, or which reading a note records) and an :class:`Independent`
recomputation -- a second route to the measurement that does not call the library function
under test (a closed form, mpmath/sympy, a brute-force enumeration or a quadrature written in
the check) -- which must agree with the measurement.

The extraction rule (glyph errata)
----------------------------------
The documents are read as extracted text (PDF to text/LaTeX), not as typeset pages; what the
thesis's or paper's reader sees is the typeset page.  So when an accusation rests on a *glyph*
-- one sign, sub- or superscript, prime, relation symbol, bar or letter, where the intended
statement differs from the extracted one by that glyph alone -- the verdict accuses (an
``erratum`` or ``fails`` of any kind, ``typo`` included) **only if the extracted reading is
corroborated**, by either

1. the same formula printed the same way elsewhere in the document (an independent statement
   of it: a restatement, a later use, another section -- not copies the author pasted inside
   one display), or
2. the slip is not a plausible extraction loss given how this extraction treats that symbol
   class elsewhere, *counted* in the extracted document (e.g. 004's extraction keeps 187
   negative superscripts ``^{-...}``, 20 ``\\beta_u`` against one ``\\beta_{\\mu}``, and the 10
   ``\\ll`` / ``\\gg`` besides Corollary 2's all in their meaningful sense; a glyph the
   extraction would have to add or mirror is not a loss).

A corroborated glyph is the author's.  It is still not accused when the *same statement*
prints the intended value beside it (an equality whose other side is right, so the printed
conclusion holds as printed): the slip is recorded, attributed to the author, and not counted
as an error.

Otherwise the glyph is not accused: the verdict is a **non-accusing record** -- ``holds`` of the
intended statement, with ``details["extraction"]`` giving the extracted reading, the count or
occurrence that leaves it uncorroborated, and (for the same-statement case) the author's slip;
the extracted reading is the claim's registered *perturbation*, so the check shows it refuted
(a ``holds`` must be able to fail) without accusing the document of it.  We use ``holds`` and
not a ``note``: a note says the printed statement is right under another *legitimate* reading
(a convention or notation of the field), and an extraction artefact is not a reading of the
document at all; the intended statement is what the typeset page most probably states and is
what is measured.  An accusation that rests on something other than a glyph (a digit, a word,
a missing term, an equation's LaTeX source carried into the text) is outside this rule, and
each such defence says so in its ``extraction`` paragraph (:mod:`paper_checks.defence`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from seprank.core.display import html_table, markdown_table, summarize
from seprank.core.validation import check_bool

__all__ = [
    "ERROR_VERDICTS",
    "KINDS",
    "STRICT_LEDGER",
    "VERDICTS",
    "WEAK_SLACK_LOG10",
    "ClaimResult",
    "Independent",
    "Kind",
    "Margin",
    "Verdict",
    "judge",
    "judge_reading",
    "perturbed_run",
]

Verdict = Literal["holds", "erratum", "note", "fails", "unproven", "skipped"]
#: How a statement is wrong: a slip whose intended statement holds (``typo``); a wrong constant
#: or rate (``constant``); true only under an added hypothesis or outside its stated domain
#: (``hypothesis``); false, the correction being a different statement (``statement``); not
#: refuted but its proof is invalid (``proof``, verdict ``unproven``).  A ``note`` records a
#: different but legitimate reading: a ``convention`` (what a symbol or quantity means) or a
#: ``notation`` (how it is written); neither is an error.
Kind = Literal["typo", "constant", "hypothesis", "statement", "proof", "convention", "notation"]
VERDICTS: tuple[str, ...] = get_args(Verdict)
KINDS: tuple[str, ...] = get_args(Kind)
#: Kinds of a ``note`` (a reading, not an error) -- and only of a note.
NOTE_KINDS: tuple[str, ...] = ("convention", "notation")
#: Verdicts that say the printed statement is wrong (a note is not one of them).
ERROR_VERDICTS: tuple[str, ...] = ("erratum", "fails", "unproven")
#: Every ``erratum`` / ``fails`` / ``unproven`` must carry ``kind`` and ``independent``.  (False
#: only while the claims written before the ledger were being graded.)
STRICT_LEDGER = True
#: A ``holds`` whose printed statement leaves more than this factor of room (log10) is weak.
WEAK_SLACK_LOG10 = 2.0
_PERTURBED: ContextVar[bool] = ContextVar("perturbed_run", default=False)
#: The ``schema`` of a certificate (:data:`seprank.certificates.verify.SCHEMA`).
CERTIFICATE_SCHEMA = "seprank.certificate"


@contextmanager
def perturbed_run() -> Iterator[None]:
    """While a check evaluates its registered *perturbed* statement: the non-``holds`` verdict it
    returns then describes a statement we made up to test the check's power, so it needs no kind
    and no independent recomputation.

    Examples
    --------
    >>> ClaimResult(1, 2, "fails")                  # a verdict on a paper must say how it is wrong
    Traceback (most recent call last):
    ValueError: ...kind...
    >>> with perturbed_run():                       # a made-up statement needs no kind
    ...     ClaimResult(1, 2, "fails").verdict
    'fails'
    """
    token = _PERTURBED.set(True)
    try:
        yield
    finally:
        _PERTURBED.reset(token)


@dataclass(frozen=True)
class Independent:
    """A second route to the measured quantity that does not call the code under test.

    Attributes
    ----------
    method : str
        How it was computed (e.g. "exact Fractions written in the check", "scipy.integrate.quad",
        "brute-force enumeration of all 2^10 inputs", "mpmath at 50 digits").
    value : Any
        What it gave.
    agrees : bool
        Whether it agrees with the measurement (the check decides, with its stated tolerance).
    """

    method: str
    value: Any
    agrees: bool


@dataclass(frozen=True)
class Margin:
    """How much room the printed statement leaves the measurement.

    ``log10_slack`` is :math:`\\log_{10}` of the factor by which the measurement could move
    before the statement flips: 0 for an identity or a tight bound, negative when violated,
    above :data:`WEAK_SLACK_LOG10` (100x) for a weak check.  ``what`` says what was compared;
    ``note`` says why a weak margin is what it is (required for a weak ``holds`` on a paper).

    Examples
    --------
    >>> Margin.ratio(3, 3000, what="rank / bound").weak
    True
    >>> round(Margin.ratio(2, 1, what="x >= 1", upper=False).log10_slack, 3)
    0.301
    >>> Margin.tolerance(0.85493, 0.854, 0.001, what="chi2").log10_slack > 0
    True
    >>> Margin.tightest([Margin(1.0, "a"), Margin(0.5, "b")]).what
    'b'
    """

    log10_slack: float
    what: str
    note: str = ""

    @property
    def weak(self) -> bool:
        """More than 100x of room: the check could hardly have failed."""
        return self.log10_slack > WEAK_SLACK_LOG10

    @classmethod
    def ratio(cls, measured: float, bound: float, *, what: str, upper: bool = True,
              note: str = "") -> Margin:
        """Margin of ``measured <= bound`` (``upper``) or ``measured >= bound``, both > 0."""
        m, b = float(measured), float(bound)
        if not (m > 0 and b > 0):
            raise ValueError(f"Margin.ratio needs positive values, got {measured!r}, {bound!r}")
        slack = math.log10(b / m) if upper else math.log10(m / b)
        return cls(slack, what, note)

    @classmethod
    def log_ratio(cls, log10_measured: float, log10_bound: float, *, what: str,
                  upper: bool = True, note: str = "") -> Margin:
        """The same from base-10 logarithms (for numbers beyond float range)."""
        slack = log10_bound - log10_measured if upper else log10_measured - log10_bound
        return cls(float(slack), what, note)

    @classmethod
    def tolerance(cls, measured: float, target: float, tol: float, *, what: str,
                  note: str = "") -> Margin:
        """Margin of ``|measured - target| <= tol`` (a printed number to its last digit, an
        identity to a tolerance): the factor by which ``measured`` may move before it leaves
        the window, ``log10(1 + (tol - |m - t|)/|m|)``; negative outside the window."""
        m, t, tol = float(measured), float(target), float(tol)
        scale = abs(m) if m != 0 else max(abs(t), tol)
        gap = tol - abs(m - t)
        slack = math.log10(1 + gap / scale) if gap >= 0 else -math.log10(1 - gap / scale)
        return cls(slack, what, note)

    @classmethod
    def exact(cls, what: str, note: str = "") -> Margin:
        """An identity or an integer equality checked exactly: no room at all."""
        return cls(0.0, what, note)

    @classmethod
    def tightest(cls, margins: Iterable[Margin]) -> Margin:
        """The margin with the least room (a claim checking several inequalities)."""
        found = list(margins)
        if not found:
            raise ValueError("Margin.tightest needs at least one margin")
        return min(found, key=lambda m: m.log10_slack)


@dataclass(frozen=True, repr=False)
class ClaimResult:
    """What a check measured and its verdict.

    Attributes
    ----------
    measured : Any
        The measured quantity (a number, a tuple, a small dict).
    reference_value : Any
        What the paper (or the mathematics) says it should be.
    verdict : {'holds', 'erratum', 'note', 'fails', 'unproven', 'skipped'}
        See the module docstring.
    details : Mapping
        Supporting evidence.  Required keys: ``printed`` and ``corrected`` for ``erratum``,
        ``printed`` and ``reading`` for ``note``, ``reason`` for ``skipped``.
    figures : Mapping[str, matplotlib.figure.Figure]
        Optional figures; the runner saves them when asked for plots and closes them (its
        outcome's result then maps each name to the file it was saved to).
    kind : {'typo', 'constant', 'hypothesis', 'statement', 'proof', 'convention', 'notation'}
        How the statement is wrong; required for ``erratum``, ``fails`` and ``unproven``
        (``'proof'`` exactly for ``unproven``); ``'convention'`` or ``'notation'`` exactly for
        ``note``; absent for ``holds`` and ``skipped``.
    margin : Margin, optional
        How close the measurement comes to the printed statement.
    independent : Independent, optional
        Required (and agreeing) for ``erratum``, ``fails`` and ``unproven``.
    certificates : Mapping[str, Mapping], optional
        The certificates of the certified ranks the verdict rests on, by name
        (:func:`seprank.certificates.certify`); ``paper-checks --certificates DIR`` writes
        them and re-checks them with the independent checker, ``--verify DIR`` re-checks a
        directory.
    """

    measured: Any
    reference_value: Any
    verdict: Verdict
    details: Mapping[str, Any] = field(default_factory=dict)
    figures: Mapping[str, Any] = field(default_factory=dict, repr=False)
    kind: Kind | None = None
    margin: Margin | None = None
    independent: Independent | None = None
    certificates: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for name, cert in self.certificates.items():
            if not isinstance(cert, Mapping) or cert.get("schema") != CERTIFICATE_SCHEMA:
                raise ValueError(f"certificates[{name!r}] is not a certificate (a mapping with "
                                 f"schema {CERTIFICATE_SCHEMA!r}; build it with "
                                 "seprank.certificates.certify)")
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.verdict == "erratum":
            missing = {"printed", "corrected"} - set(self.details)
            if missing:
                raise ValueError(
                    "an 'erratum' verdict must show both measurements: details lacks "
                    f"{sorted(missing)} (what the printed statement gave, and the corrected one)"
                )
        if self.verdict == "note":
            missing = {"printed", "reading"} - set(self.details)
            if missing:
                raise ValueError(
                    "a 'note' verdict must show the statement under the paper's reading: "
                    f"details lacks {sorted(missing)}")
        if self.verdict == "skipped" and "reason" not in self.details:
            raise ValueError("a 'skipped' verdict needs details['reason']")
        if (self.kind in NOTE_KINDS) != (self.verdict == "note") and self.kind is not None:
            raise ValueError(
                f"kind={self.kind!r} goes with verdict 'note' and only with it: a convention or "
                "notation is a different legitimate reading, not an erratum; an error needs "
                "one of " + ", ".join(k for k in KINDS if k not in NOTE_KINDS))
        if self.kind is not None and self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if (self.verdict in (*ERROR_VERDICTS, "note") and STRICT_LEDGER
                and not _PERTURBED.get()):
            if self.kind is None:
                raise ValueError(f"a {self.verdict!r} verdict must say how the statement is "
                                 f"wrong: kind= one of {KINDS}")
            if self.independent is None:
                raise ValueError(f"a {self.verdict!r} verdict needs an independent "
                                 "recomputation (independent=Independent(...)) that does not "
                                 "call the code under test")
        if (self.independent is not None and self.verdict != "holds"
                and not self.independent.agrees):
            raise ValueError(f"the independent recomputation ({self.independent.method}: "
                             f"{self.independent.value!r}) disagrees with the measurement "
                             f"{self.measured!r}; resolve that before issuing a verdict")
        if (self.verdict == "unproven") != (self.kind == "proof"):
            raise ValueError("kind='proof' goes with verdict 'unproven' and only with it (a "
                             "refuted proof step does not make the statement false)")
        if self.verdict in ("holds", "skipped") and self.kind is not None:
            raise ValueError(f"a {self.verdict!r} verdict has no kind")

    def __repr__(self) -> str:
        kind = f", kind={self.kind!r}" if self.kind else ""
        return (f"ClaimResult(verdict={self.verdict!r}{kind}, "
                f"measured={summarize(self.measured, 50)}, "
                f"reference_value={summarize(self.reference_value, 50)})")

    def summary(self) -> str:
        """One line: the verdict and kind, then printed -> corrected (errata) or the margin."""
        head = self.verdict + (f" ({self.kind})" if self.kind else "")
        if "printed" in self.details and ("corrected" in self.details
                                          or "reading" in self.details):
            fixed = self.details.get("corrected", self.details.get("reading"))
            return (f"{head}: printed {summarize(self.details['printed'], 60)} -> "
                    f"{summarize(fixed, 60)}")
        if self.margin is not None:
            return f"{head}: {self.margin.what}, log10 slack {self.margin.log10_slack:.3g}"
        if self.verdict == "skipped":
            return f"{head}: {summarize(self.details.get('reason'), 100)}"
        return f"{head}: measured {summarize(self.measured, 60)}"

    def _display_fields(self) -> list[tuple[str, Any]]:
        first = [k for k in ("printed", "corrected", "reading", "reason") if k in self.details]
        rows: list[tuple[str, Any]] = [(k, self.details[k]) for k in first]
        rows += [("measured", self.measured), ("reference", self.reference_value)]
        if self.margin is not None:
            rows.append(("margin", f"{self.margin.what}: log10 slack "
                                   f"{self.margin.log10_slack:.3g}"
                                   f"{' (weak)' if self.margin.weak else ''} {self.margin.note}"))
        if self.independent is not None:
            agrees = "agrees" if self.independent.agrees else "DISAGREES"
            rows.append(("independent", f"{self.independent.method}: "
                                        f"{summarize(self.independent.value, 60)} ({agrees})"))
        rows += [(k, v) for k, v in self.details.items() if k not in first]
        if self.certificates:
            rows.append(("certificates", f"{len(self.certificates)}: "
                                         + ", ".join(list(self.certificates)[:5])
                                         + (", …" if len(self.certificates) > 5 else "")))
        return rows

    def _repr_markdown_(self) -> str:
        return markdown_table(self.summary(), self._display_fields())

    def _repr_html_(self) -> str:
        return html_table(self.summary(), self._display_fields())


def judge(printed_holds: bool, corrected_holds: bool | None = None) -> Verdict:
    """The honest verdict from the two measurements.

    ``printed_holds`` -> ``'holds'``; otherwise ``'erratum'`` if a corrected statement was
    measured and holds, else ``'fails'``.

    Examples
    --------
    >>> judge(True), judge(False, True), judge(False, False), judge(False)
    ('holds', 'erratum', 'fails', 'fails')
    >>> judge("yes")
    Traceback (most recent call last):
    ...
    ValueError: printed_holds must be True or False, got 'yes' (str)
    """
    printed_holds = check_bool("printed_holds", printed_holds)
    if corrected_holds is not None:
        corrected_holds = check_bool("corrected_holds", corrected_holds)
    if printed_holds:
        return "holds"
    return "erratum" if corrected_holds else "fails"


def judge_reading(printed_holds: bool, reading_holds: bool) -> Verdict:
    """The verdict when the printed statement is measured under two legitimate readings: the
    toolkit's (or the field's) and the paper's own convention or notation.

    ``'holds'`` under the first; otherwise ``'note'`` when it holds under the paper's reading
    (not an error: say which reading in ``details['reading']``); else ``'fails'``.

    Examples
    --------
    >>> judge_reading(True, True), judge_reading(False, True), judge_reading(False, False)
    ('holds', 'note', 'fails')
    """
    if printed_holds:
        return "holds"
    return "note" if reading_holds else "fails"
