"""The claim registry: one registered check per checkable statement of a seed paper.

A check is a function of no arguments returning a :class:`ClaimResult`.  It is registered with
the :func:`claim` decorator, which records what the paper printed and which verdict we expect::

    @claim(
        id="D2W-Thm1-upper",
        paper="003",
        reference="Theorem 1, eq. 7",
        statement="sep(y) <= (3^L - 1)/2 * log3(d_x) ... (printed form)",
        expected_verdict="holds",
    )
    def _() -> ClaimResult:
        ...
        return ClaimResult(measured=rank, reference_value=bound,
                           verdict="holds" if rank <= bound else "fails")

Verdicts
--------
``holds``
    The printed statement was measured and holds.
``fails``
    The printed statement was measured and fails, and no corrected statement is offered.
``erratum``
    The printed statement fails *and* a corrected statement holds; ``details`` must contain
    ``"printed"`` and ``"corrected"`` entries showing what was measured for each.  Use
    :func:`judge` to derive the verdict from the two measurements.
``skipped``
    Not evaluated; ``details["reason"]`` says why.
"""

from __future__ import annotations

import fnmatch
import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, get_args

__all__ = [
    "PAPERS",
    "Claim",
    "ClaimResult",
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

Verdict = Literal["holds", "fails", "erratum", "skipped"]
Profile = Literal["quick", "full"]
VERDICTS: tuple[str, ...] = get_args(Verdict)
PROFILES: tuple[str, ...] = get_args(Profile)


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
                "000",
                "The Inductive Bias of In-Context Learning "
                "(Levine et al., ICLR 2022, camera-ready)",
            ),
            Paper(
                "001",
                "001",
                "The Inductive Bias of In-Context Learning (earlier version)",
            ),
            Paper(
                "003",
                "003",
                "The Depth-to-Width Interplay in Self-Attention (Levine et al., NeurIPS 2020)",
            ),
            Paper(
                "004",
                "004",
                "B. Liu, PhD thesis: masked prediction, contrastive kernels, NCE landscape",
            ),
        )
    }
)


@dataclass(frozen=True)
class ClaimResult:
    """What a check measured and its verdict.

    Attributes
    ----------
    measured : Any
        The measured quantity (a number, a tuple, a small dict).
    reference_value : Any
        What the paper (or the mathematics) says it should be.
    verdict : {'holds', 'fails', 'erratum', 'skipped'}
        See the module docstring.
    details : Mapping
        Supporting evidence.  Required keys: ``printed`` and ``corrected`` for ``erratum``,
        ``reason`` for ``skipped``.
    figures : Mapping[str, matplotlib.figure.Figure]
        Optional figures; the runner saves them when asked for plots and closes them.
    """

    measured: Any
    reference_value: Any
    verdict: Verdict
    details: Mapping[str, Any] = field(default_factory=dict)
    figures: Mapping[str, Any] = field(default_factory=dict, repr=False)

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
    func: Callable[[], ClaimResult] = field(repr=False, compare=False)
    module: str = ""

    @property
    def paper_info(self) -> Paper:
        return PAPERS[self.paper]

    def run(self) -> ClaimResult:
        result = self.func()
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
) -> Callable[[Callable[[], ClaimResult]], Callable[[], ClaimResult]]:
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
    """
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; known: {sorted(PAPERS)}")
    if expected_verdict not in VERDICTS:
        raise ValueError(f"expected_verdict must be one of {VERDICTS}")
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}")
    if not statement or "\n" in statement.strip():
        raise ValueError(f"claim {id}: the statement must be one non-empty line")

    def register(func: Callable[[], ClaimResult]) -> Callable[[], ClaimResult]:
        existing = _REGISTRY.get(id)
        if existing is not None and existing.module != func.__module__:
            raise ValueError(
                f"claim id {id!r} registered twice ({existing.module}, {func.__module__})"
            )
        _REGISTRY[id] = Claim(
            id, paper, reference, statement.strip(), expected_verdict, profile, func,
            func.__module__,
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
