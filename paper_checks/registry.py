"""The claim registry: one registered check per checkable statement of a seed paper.

A check is a function ``check(perturbed: bool = False) -> ClaimResult`` registered with the
:func:`claim` decorator, which records what the paper printed and which verdict we expect::

    @claim(
        id="D2W-Thm1-upper",
        paper="003",
        reference="Theorem 1, eq. 7",
        statement="sep(y) <= (3^L - 1)/2 * log3(d_x) ... (printed form)",
        perturbation="the bound divided by 1.01 (just below the measured rank)",
    )
    def d2w_thm1_upper(perturbed: bool = False) -> ClaimResult:
        rank = measured_rank()                       # cache expensive measurements
        bound = printed_bound() / (1.01 if perturbed else 1)
        return ClaimResult(measured=rank, reference_value=bound,
                           verdict="holds" if rank <= bound else "fails", kind=...,
                           margin=Margin.ratio(rank, bound, what="rank / bound"))

Verdicts
--------
``holds``
    The printed statement was measured and holds.  Its :class:`Margin` says how much room it
    leaves; a check in the ``paper`` category must name a ``perturbation`` and return a
    non-``holds`` verdict when called with ``perturbed=True`` (its *power*, tested).
``erratum``
    The printed statement fails *and* a corrected statement holds; ``details`` must contain
    ``"printed"`` and ``"corrected"`` entries showing what was measured for each.
``fails``
    The printed statement fails and no corrected statement is offered.
``unproven``
    The statement is not refuted, but a step of its proof is (``kind='proof'``).
``skipped``
    Not evaluated; ``details["reason"]`` says why.

Every verdict other than ``holds`` and ``skipped`` carries a :data:`Kind` (how the statement is
wrong) and an :class:`Independent` recomputation -- a second route to the measurement that does
not call the library function under test -- which must agree with it.

Categories
----------
``paper``
    A verdict on a printed statement.
``consistency``
    A check that holds by construction (it compares the library with itself, or the family tested
    satisfies the statement automatically).  Reported separately, never counted as a verdict on
    a paper.
"""

from __future__ import annotations

import fnmatch
import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, get_args

__all__ = [
    "KINDS",
    "PAPERS",
    "Category",
    "Claim",
    "ClaimResult",
    "Independent",
    "Kind",
    "Margin",
    "Paper",
    "Profile",
    "Verdict",
    "all_claims",
    "claim",
    "get_claim",
    "judge",
    "load_all",
    "select",
]

Verdict = Literal["holds", "erratum", "fails", "unproven", "skipped"]
#: How a statement is wrong: a slip whose intended statement holds (``typo``); a wrong constant
#: or rate (``constant``); true only under an added hypothesis or outside its stated domain
#: (``hypothesis``); false, the correction being a different statement (``statement``); not
#: refuted but its proof is invalid (``proof``, verdict ``unproven``); only a different but
#: legitimate reading (``convention``).
Kind = Literal["typo", "constant", "hypothesis", "statement", "proof", "convention"]
Category = Literal["paper", "consistency"]
Profile = Literal["quick", "full"]
VERDICTS: tuple[str, ...] = get_args(Verdict)
KINDS: tuple[str, ...] = get_args(Kind)
CATEGORIES: tuple[str, ...] = get_args(Category)
PROFILES: tuple[str, ...] = get_args(Profile)
#: While the claims written before the truth ledger are being graded, a non-``holds`` verdict
#: without ``kind`` / ``independent`` is tolerated; once every claim is graded this is True.
STRICT_LEDGER = False
#: A ``holds`` whose printed statement leaves more than this factor of room is flagged weak.
WEAK_SLACK_LOG10 = 2.0


@dataclass(frozen=True)
class Paper:
    """A seed document: ``stem`` is its file name without ``.txt``."""

    key: str
    stem: str
    title: str


PAPERS: Mapping[str, Paper] = MappingProxyType(
    {
        p.key: p
        for p in (
            Paper("foundation", "foundation", "Numerical-rank pitfalls (toolkit foundation)"),
            Paper(
                "000",
                "000_602443402cfc1c64",
                "The Inductive Bias of In-Context Learning "
                "(Levine et al., ICLR 2022, camera-ready)",
            ),
            Paper(
                "001",
                "001_b50bb8acc03b85f7",
                "The Inductive Bias of In-Context Learning (earlier version)",
            ),
            Paper(
                "002",
                "002_be762d4d3faf4811",
                "How Do Nonlinear Transformers Learn and Generalize in In-Context Learning? "
                "(Li, Wang, Lu, Cui, Chen, ICML 2024)",
            ),
            Paper(
                "003",
                "003_780437e4ec8fa9c6",
                "The Depth-to-Width Interplay in Self-Attention (Levine et al., NeurIPS 2020)",
            ),
            Paper(
                "004",
                "004_6a230b9a9faf2198",
                "B. Liu, PhD thesis: contrastive kernels, masked prediction (ch. 2), automata "
                "(ch. 3), NCE, progressive distillation (ch. 4)",
            ),
        )
    }
)


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
    above :data:`WEAK_SLACK_LOG10` (100x) for a weak check.  ``what`` says what was compared.
    """

    log10_slack: float
    what: str

    @property
    def weak(self) -> bool:
        """More than 100x of room: the check could hardly have failed."""
        return self.log10_slack > WEAK_SLACK_LOG10

    @classmethod
    def ratio(cls, measured: float, bound: float, *, what: str, upper: bool = True) -> Margin:
        """Margin of ``measured <= bound`` (``upper``) or ``measured >= bound``, both > 0."""
        import math

        m, b = float(measured), float(bound)
        if m <= 0 or b <= 0:
            raise ValueError(f"Margin.ratio needs positive values, got {measured!r}, {bound!r}")
        slack = math.log10(b / m) if upper else math.log10(m / b)
        return cls(slack, what)

    @classmethod
    def log_ratio(cls, log10_measured: float, log10_bound: float, *, what: str,
                  upper: bool = True) -> Margin:
        """The same from base-10 logarithms (for numbers beyond float range)."""
        slack = log10_bound - log10_measured if upper else log10_measured - log10_bound
        return cls(float(slack), what)

    @classmethod
    def exact(cls, what: str) -> Margin:
        """An identity checked exactly: no room at all."""
        return cls(0.0, what)


@dataclass(frozen=True)
class ClaimResult:
    """What a check measured and its verdict.

    Attributes
    ----------
    measured : Any
        The measured quantity (a number, a tuple, a small dict).
    reference_value : Any
        What the paper (or the mathematics) says it should be.
    verdict : {'holds', 'erratum', 'fails', 'unproven', 'skipped'}
        See the module docstring.
    details : Mapping
        Supporting evidence.  Required keys: ``printed`` and ``corrected`` for ``erratum``,
        ``reason`` for ``skipped``.
    figures : Mapping[str, matplotlib.figure.Figure]
        Optional figures; the runner saves them when asked for plots and closes them.
    kind : {'typo', 'constant', 'hypothesis', 'statement', 'proof', 'convention'}, optional
        How the statement is wrong; required for ``erratum``, ``fails`` and ``unproven``
        (``'proof'`` exactly for ``unproven``), absent for ``holds``.
    margin : Margin, optional
        How close the measurement comes to the printed statement.
    independent : Independent, optional
        Required (and agreeing) for ``erratum``, ``fails`` and ``unproven``.
    """

    measured: Any
    reference_value: Any
    verdict: Verdict
    details: Mapping[str, Any] = field(default_factory=dict)
    figures: Mapping[str, Any] = field(default_factory=dict, repr=False)
    kind: Kind | None = None
    margin: Margin | None = None
    independent: Independent | None = None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.verdict == "erratum":
            missing = {"printed", "corrected"} - set(self.details)
            if missing:
                raise ValueError(
                    "an 'erratum' verdict must show both measurements: details lacks "
                    f"{sorted(missing)} (what the printed statement gave, and the corrected one)"
                )
        if self.verdict == "skipped" and "reason" not in self.details:
            raise ValueError("a 'skipped' verdict needs details['reason']")
        if self.kind is not None and self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if self.verdict in ("erratum", "fails", "unproven") and STRICT_LEDGER:
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
        if self.verdict == "holds" and self.kind is not None:
            raise ValueError("a 'holds' verdict has no kind")


def judge(printed_holds: bool, corrected_holds: bool | None = None) -> Verdict:
    """The honest verdict from the two measurements.

    ``printed_holds`` -> ``'holds'``; otherwise ``'erratum'`` if a corrected statement was
    measured and holds, else ``'fails'``.

    Examples
    --------
    >>> judge(True), judge(False, True), judge(False, False), judge(False)
    ('holds', 'erratum', 'fails', 'fails')
    """
    if printed_holds:
        return "holds"
    return "erratum" if corrected_holds else "fails"


@dataclass(frozen=True)
class Claim:
    """A registered check of one printed statement."""

    id: str
    paper: str
    reference: str
    statement: str
    expected_verdict: Verdict
    profile: Profile
    func: Callable[..., ClaimResult] = field(repr=False, compare=False)
    module: str = ""
    category: Category = "paper"
    perturbation: str | None = None

    @property
    def paper_info(self) -> Paper:
        return PAPERS[self.paper]

    @property
    def perturbable(self) -> bool:
        """Whether the check accepts ``perturbed=True`` (a perturbed statement)."""
        return self.perturbation is not None

    def run(self, *, perturbed: bool = False) -> ClaimResult:
        """Run the check; ``perturbed=True`` checks the registered perturbed statement."""
        if perturbed and not self.perturbable:
            raise ValueError(f"claim {self.id} registers no perturbation")
        result = self.func(perturbed=True) if perturbed else self.func()
        if not isinstance(result, ClaimResult):
            raise TypeError(f"check {self.id} returned {type(result).__name__}, not ClaimResult")
        return result


_REGISTRY: dict[str, Claim] = {}


def claim(
    *,
    id: str,
    paper: str,
    reference: str,
    statement: str,
    expected_verdict: Verdict = "holds",
    profile: Profile = "quick",
    category: Category = "paper",
    perturbation: str | None = None,
) -> Callable[[Callable[..., ClaimResult]], Callable[..., ClaimResult]]:
    """Register a check (decorator).

    Parameters
    ----------
    id : str
        Unique, e.g. ``"D2W-Thm1-lower"``; prefixes group claims by paper/topic.
    paper : str
        A key of :data:`PAPERS` (``"003"``, ``"004"``, ``"foundation"``, ...).
    reference : str
        Theorem/equation/section in the seed.
    statement : str
        The printed claim, one line, as printed (not as corrected).
    expected_verdict : {'holds', 'fails', 'erratum', 'skipped'}
        The verdict our reading expects; a different verdict makes ``paper-checks`` exit
        non-zero and the pytest item fail.
    profile : {'quick', 'full'}
        ``quick`` runs by default (and in pytest); ``full`` only with ``--profile full``.
    category : {'paper', 'consistency'}
        ``'consistency'`` for a check that holds by construction (not a verdict on the paper).
    perturbation : str, optional
        What the perturbed statement is (e.g. "the bound tightened to 0.99 x the measured
        rank"); the check must then accept ``perturbed: bool = False`` and return a
        non-``holds`` verdict for ``perturbed=True``.  Every ``paper`` claim expected to hold
        needs one (its power is tested).
    """
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; known: {sorted(PAPERS)}")
    if expected_verdict not in VERDICTS:
        raise ValueError(f"expected_verdict must be one of {VERDICTS}")
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}")
    if category not in CATEGORIES:
        raise ValueError(f"category must be one of {CATEGORIES}")
    if perturbation is not None and not perturbation.strip():
        raise ValueError(f"claim {id}: an empty perturbation describes nothing")
    if not statement or "\n" in statement.strip():
        raise ValueError(f"claim {id}: the statement must be one non-empty line")

    def register(func: Callable[..., ClaimResult]) -> Callable[..., ClaimResult]:
        if perturbation is not None and "perturbed" not in inspect.signature(func).parameters:
            raise ValueError(f"claim {id} registers a perturbation, so its check must accept "
                             "perturbed: bool = False")
        existing = _REGISTRY.get(id)
        if existing is not None and existing.module != func.__module__:
            raise ValueError(
                f"claim id {id!r} registered twice ({existing.module}, {func.__module__})"
            )
        _REGISTRY[id] = Claim(
            id, paper, reference, statement.strip(), expected_verdict, profile, func,
            func.__module__, category, perturbation,
        )
        return func

    return register


def load_all() -> None:
    """Import every module of :mod:`paper_checks.claims` so that all claims are registered."""
    import paper_checks.claims as claims_pkg

    for info in sorted(pkgutil.iter_modules(claims_pkg.__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{claims_pkg.__name__}.{info.name}")


def all_claims() -> list[Claim]:
    """Every registered claim, in registration order (loads the claim modules first)."""
    load_all()
    return list(_REGISTRY.values())


def get_claim(claim_id: str) -> Claim:
    load_all()
    try:
        return _REGISTRY[claim_id]
    except KeyError:
        raise KeyError(f"no claim with id {claim_id!r}") from None


def _paper_matches(claim: Claim, paper: str) -> bool:
    info = claim.paper_info
    needle = paper.lower()
    return needle in (info.key.lower(), info.stem.lower()) or needle in info.title.lower()


def select(
    *,
    profile: Profile = "quick",
    paper: str | Iterable[str] | None = None,
    id_glob: str | Iterable[str] | None = None,
) -> list[Claim]:
    """Claims of a profile (``full`` includes ``quick``), filtered by paper and id glob.

    ``paper`` matches a key (``"003"``), a seed stem, or a substring of the title;
    ``id_glob`` is an :mod:`fnmatch` pattern such as ``"D2W-Thm*"``.
    """
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    papers = [paper] if isinstance(paper, str) else list(paper or [])
    globs = [id_glob] if isinstance(id_glob, str) else list(id_glob or [])
    chosen = []
    for c in all_claims():
        if profile == "quick" and c.profile != "quick":
            continue
        if papers and not any(_paper_matches(c, p) for p in papers):
            continue
        if globs and not any(fnmatch.fnmatchcase(c.id, g) for g in globs):
            continue
        chosen.append(c)
    return chosen
