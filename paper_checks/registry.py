"""The claim registry: one registered check per checkable statement of a paper.

A check is a function returning a :class:`ClaimResult`, registered with the :func:`claim`
decorator, which records what the paper printed and which verdict we expect.  Its keyword
arguments with defaults are the *statement's parameters* at their printed values; a
:class:`~paper_checks.perturbation.Perturbed` statement overrides some of them, fixed at
registration -- before anything is measured::

    @claim(
        id="D2W-Thm1-upper",
        paper="003",
        reference="Theorem 1, eq. 7",
        statement="sep(y) <= (3^L - 1)/2 * log3(d_x) ... (printed form)",
        perturbation=Perturbed("the exponent (3^L - 1)/2 lowered by one", exponent_shift=-1),
    )
    def d2w_thm1_upper(exponent_shift: int = 0) -> ClaimResult:
        rank = measured_rank()                       # cache expensive measurements
        bound = printed_bound(exponent_shift)        # the statement, never the measurement
        return ratio_result(rank, bound, what="rank / bound")

(the perturbed run's verdict describes a made-up statement: it needs no kind; every other
``erratum`` / ``fails`` / ``unproven`` / ``note`` does, see :mod:`paper_checks.ledger`).  A
claim whose expected verdict is not ``holds`` or ``skipped`` registers the statement's
:class:`~paper_checks.defence.Defence` (the readings under which it would be right, and the
independent attack on the verdict).

Verdicts (``holds`` / ``erratum`` / ``fails`` / ``unproven`` / ``skipped``), kinds, margins and
independent recomputations are defined in :mod:`paper_checks.ledger` and re-exported here.

A ``quick``/``full`` pair of the same check (a small and a large sweep) is registered through
:func:`claim_quick_full`; one check registered under several ids (one per setting) through
:func:`register_check`.  Either way the registered function is named after its claim id
(:func:`function_name`), so a traceback or a profile names the claim.  Examples and tests
register into a :func:`scratch_registry`.

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
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, get_args

from paper_checks import papers as _papers
from paper_checks.defence import Defence
from paper_checks.evidence import Basis, Proves, check_evidence
from paper_checks.ledger import (
    KINDS,
    STRICT_LEDGER,
    VERDICTS,
    WEAK_SLACK_LOG10,
    ClaimResult,
    Independent,
    Kind,
    Margin,
    Verdict,
    judge,
    perturbed_run,
)
from paper_checks.papers import Paper
from paper_checks.perturbation import Perturbed
from seprank.core.display import html_table, markdown_table
from seprank.extras import MissingExtraError

__all__ = [
    "KINDS",
    "PAPERS",
    "STRICT_LEDGER",
    "VERDICTS",
    "WEAK_SLACK_LOG10",
    "Category",
    "Claim",
    "ClaimResult",
    "Independent",
    "Kind",
    "Margin",
    "Profile",
    "Verdict",
    "all_claims",
    "check_signature",
    "claim",
    "claim_quick_full",
    "function_name",
    "get_claim",
    "import_claim_modules",
    "judge",
    "load_all",
    "ref_matches",
    "register_check",
    "scratch_registry",
    "select",
]

Category = Literal["paper", "consistency"]
Profile = Literal["quick", "full"]
CATEGORIES: tuple[str, ...] = get_args(Category)
PROFILES: tuple[str, ...] = get_args(Profile)


class _InstalledPapers(Mapping[str, Paper]):
    """The registered papers, read-only, after loading the installed ones (:func:`load_all`):
    the compatible face of the retired frozen ``PAPERS`` listing."""

    def __getitem__(self, key: str) -> Paper:
        if key not in _papers.REGISTERED:
            load_all()
        return _papers.REGISTERED[key]

    def __contains__(self, key: object) -> bool:
        if key not in _papers.REGISTERED:
            load_all()
        return key in _papers.REGISTERED

    def __iter__(self) -> Iterator[str]:
        load_all()
        return iter(list(_papers.REGISTERED))

    def __len__(self) -> int:
        load_all()
        return len(_papers.REGISTERED)

    def __repr__(self) -> str:
        return f"PAPERS({sorted(self)})"


#: Every registered paper, key -> :class:`~paper_checks.papers.Paper` (installed papers are
#: loaded on first access); register one with :func:`~paper_checks.papers.register_paper`.
PAPERS: Mapping[str, Paper] = _InstalledPapers()


@dataclass(frozen=True, repr=False)
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
    perturbation: Perturbed | str | None = None
    certifies: bool = False
    upper_bound: bool = False
    defence: Defence | None = None
    basis: Basis | None = None
    universal: bool = False
    proves: tuple[Proves, ...] = ()

    @property
    def paper_info(self) -> Paper:
        """The registered :class:`~paper_checks.papers.Paper` the claim checks."""
        return _papers.REGISTERED[self.paper]

    def __repr__(self) -> str:
        return (f"Claim(id={self.id!r}, paper={self.paper!r}, reference={self.reference!r}, "
                f"expected_verdict={self.expected_verdict!r}, profile={self.profile!r})")

    def summary(self) -> str:
        """One line: the id, where the statement is printed, and what is expected of it."""
        return (f"{self.id} ({self.paper}, {self.reference}): expected {self.expected_verdict}"
                f"{'' if self.category == 'paper' else ' (consistency check)'}")

    def _display_fields(self) -> list[tuple[str, Any]]:
        return [("statement", self.statement), ("paper", self.paper),
                ("reference", self.reference), ("expected verdict", self.expected_verdict),
                ("profile", self.profile), ("category", self.category),
                ("perturbed statement", self.perturbation_text or "none"),
                ("basis", self.basis), ("universal", self.universal),
                ("certifies", self.certifies),
                ("certificates must prove", "; ".join(p.text() for p in self.proves) or "-"),
                ("check", f"{self.module}.{self.func.__name__}")]

    def _repr_markdown_(self) -> str:
        return markdown_table(self.summary(), self._display_fields())

    def _repr_html_(self) -> str:
        return html_table(self.summary(), self._display_fields())

    @property
    def perturbable(self) -> bool:
        """Whether the claim registers a perturbed statement."""
        return self.perturbation is not None

    @property
    def perturbation_text(self) -> str | None:
        """What the perturbed statement says."""
        p = self.perturbation
        return p.description if isinstance(p, Perturbed) else p

    def run(self, *, perturbed: bool = False) -> ClaimResult:
        """Run the check; ``perturbed=True`` checks the registered perturbed statement (the
        check called with the :class:`Perturbed` overrides of its statement parameters).  A
        check that needs an optional dependency group which is not installed
        (:class:`seprank.extras.MissingExtraError`) is ``skipped``, its reason the ``pip
        install`` line of that group (``details['missing group']`` names it)."""
        if perturbed and not self.perturbable:
            raise ValueError(f"claim {self.id} registers no perturbation")
        try:
            if perturbed:
                with perturbed_run():
                    if isinstance(self.perturbation, Perturbed):
                        result = self.func(**self.perturbation.overrides)
                    else:  # a statement written as text with a perturbed= flag (being retired)
                        result = self.func(perturbed=True)
            else:
                result = self.func()
        except MissingExtraError as missing:  # installed without the group the check needs
            return ClaimResult(None, None, "skipped", details={
                "reason": f"needs the optional group {missing.group!r} ({missing.pip}) for "
                          f"{missing.feature}, which is not installed",
                "missing group": missing.group, "install": missing.pip})
        if not isinstance(result, ClaimResult):
            raise TypeError(f"check {self.id} returned {type(result).__name__}, not ClaimResult")
        if bool(result.certificates) != self.certifies and result.verdict != "skipped":
            raise ValueError(
                f"check {self.id} returned {len(result.certificates)} certificate(s) but is "
                f"registered with certifies={self.certifies}: a claim that ships certificates "
                "says so (claim(..., certifies=True)) and ships them on every run")
        return result


_REGISTRY: dict[str, Claim] = _papers.CLAIMS  # one table, read by paper_checks.papers too
_CLAIM_ORIGINS: dict[str, str] = {}


def claim(
    *,
    id: str,
    paper: str,
    reference: str,
    statement: str,
    expected_verdict: Verdict = "holds",
    profile: Profile = "quick",
    category: Category = "paper",
    perturbation: Perturbed | str | None = None,
    certifies: bool = False,
    upper_bound: bool = False,
    defence: Defence | None = None,
    basis: Basis | None = None,
    universal: bool = False,
    proves: Proves | Iterable[Proves] = (),
) -> Callable[[Callable[..., ClaimResult]], Callable[..., ClaimResult]]:
    """Register a check (decorator).

    Parameters
    ----------
    id : str
        Unique, e.g. ``"D2W-Thm1-lower"``; prefixes group claims by paper/topic.
    paper : str
        A key of :data:`PAPERS` (``"003"``, ``"004"``, ``"foundation"``, ...).
    reference : str
        Theorem/equation/section in the paper.
    statement : str
        The printed claim, one line, as printed (not as corrected).
    expected_verdict : {'holds', 'erratum', 'fails', 'unproven', 'skipped'}
        The verdict our reading expects; a different verdict makes ``paper-checks`` exit
        non-zero and the pytest item fail.
    profile : {'quick', 'full'}
        ``quick`` runs by default (and in pytest); ``full`` only with ``--profile full``.
    category : {'paper', 'consistency'}
        ``'consistency'`` for a check that holds by construction (not a verdict on the paper).
    perturbation : Perturbed, optional
        The perturbed statement, fixed before the measurement: the check's statement
        parameters it changes (:class:`~paper_checks.perturbation.Perturbed`); the check must
        return a non-``holds`` verdict when called with them.  Every ``paper`` claim expected
        to hold needs one (its power is tested).  (A plain string with a ``perturbed: bool``
        flag is the retired form.)
    certifies : bool
        The check returns the certificates of the certified ranks its verdict rests on
        (``ClaimResult(certificates=...)``, :func:`seprank.certificates.certify`);
        ``paper-checks --certificates DIR`` writes and re-checks them.
    upper_bound : bool
        The printed statement bounds the certified quantity from above.  A certificate proves
        a rank from below, so it can refute such a statement (a verdict ``fails`` / ``erratum``
        rests on it) but never establish it: the report lists such a ``holds`` apart from the
        verdicts resting on certificates (:func:`paper_checks.certificates.supports_verdict`).
    defence : Defence, optional
        The readings under which the printed statement would be right, each answered, and the
        independent attack on the verdict (:class:`~paper_checks.defence.Defence`); every claim
        expected to be ``erratum``, ``fails``, ``unproven`` or ``note`` has one (tested).
    basis : {'certified', 'exact', 'symbolic', 'not_refuted', 'numeric', 'statistical'}
        What kind of evidence the verdict rests on (:mod:`paper_checks.evidence`); every
        claim declares one (tested), and impossible combinations are refused here.
    universal : bool
        The statement quantifies over all parameters (every depth, width, network, ...), not
        over the stated instances: checked on instances it is at best ``not_refuted``.
    proves : Proves or iterable of Proves
        For a certifying claim: what its certificates must prove (kind, relation, value, the
        subject's parameters); ``--certificates`` / ``--verify`` compare each certificate's
        proven statement with it.

    Returns
    -------
    callable
        The decorator; it registers the check and returns it unchanged.
    """
    _require_paper(id, paper)
    if expected_verdict not in VERDICTS:
        raise ValueError(f"expected_verdict must be one of {VERDICTS}")
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}")
    if category not in CATEGORIES:
        raise ValueError(f"category must be one of {CATEGORIES}")
    if isinstance(perturbation, str) and not perturbation.strip():
        raise ValueError(f"claim {id}: an empty perturbation describes nothing")
    if perturbation is not None and not isinstance(perturbation, str | Perturbed):
        raise TypeError(f"claim {id}: perturbation= is a Perturbed(description, **overrides), "
                        f"got {type(perturbation).__name__}")
    if defence is not None and not isinstance(defence, Defence):
        raise TypeError(f"claim {id}: defence= is a Defence(...), got {type(defence).__name__}")
    if not statement or "\n" in statement.strip():
        raise ValueError(f"claim {id}: the statement must be one non-empty line")
    requirements = (proves,) if isinstance(proves, Proves) else tuple(proves)
    check_evidence(id, basis=basis, expected_verdict=expected_verdict,
                   universal=bool(universal), upper_bound=bool(upper_bound),
                   certifies=bool(certifies), proves=requirements)

    def register(func: Callable[..., ClaimResult]) -> Callable[..., ClaimResult]:
        check_signature(id, func)
        check_perturbation(id, func, perturbation)
        existing = _REGISTRY.get(id)
        origin = _papers.current_origin(func.__module__)
        if existing is not None and existing.module != func.__module__:
            raise ValueError(
                f"claim id {id!r} registered twice: already by "
                f"{_CLAIM_ORIGINS.get(id, existing.module)}; refused from {origin} (claim ids "
                "are unique across installed papers)")
        _CLAIM_ORIGINS[id] = origin
        with suppress(AttributeError, TypeError):  # a callable without __dict__
            func.__paper_claims__ = (*(  # type: ignore[attr-defined]
                i for i in getattr(func, "__paper_claims__", ()) if i != id), id)
        _REGISTRY[id] = Claim(
            id, paper, reference, statement.strip(), expected_verdict, profile, func,
            func.__module__, category, perturbation, bool(certifies), bool(upper_bound),
            defence, basis, bool(universal), requirements,
        )
        return func

    return register


def _require_paper(claim_id: str, paper: str) -> None:
    """Refuse a claim of an unregistered paper (after loading the installed entry points named
    after it), listing the known keys."""
    if not isinstance(paper, str):
        raise TypeError(f"claim {claim_id}: paper= is a paper key (str), got {paper!r}")
    if paper not in _papers.REGISTERED:
        _papers.load_papers([paper])      # the entry points named after it, cheaply
    if paper not in _papers.REGISTERED:
        load_all()                        # a module may register several papers
    if paper not in _papers.REGISTERED:
        raise ValueError(
            f"claim {claim_id}: unknown paper {paper!r}; register it first "
            "(paper_checks.register_paper(...) or an installed package's 'paper_checks.papers' "
            f"entry point); known: {sorted(_papers.REGISTERED)}")


def check_signature(claim_id: str, func: Callable[..., Any]) -> None:
    """Refuse a check that cannot be called without arguments: a claim runs as ``func()``, its
    statement parameters taking their printed values as defaults.

    Parameters
    ----------
    claim_id : str
        The claim being registered (named in the error).
    func : callable
        The check.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        ``func`` is not callable or has a parameter without a default.

    Examples
    --------
    >>> def check(n: int) -> ClaimResult: ...
    >>> check_signature("EX-1", check)
    Traceback (most recent call last):
    ...
    TypeError: claim EX-1: check(n) has parameters without a default (n); a claim runs as ...
    """
    if not callable(func):
        raise TypeError(f"claim {claim_id}: the check must be callable, got {func!r}")
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return
    required = [n for n, prm in params.items() if prm.default is inspect.Parameter.empty
                and prm.kind not in (inspect.Parameter.VAR_POSITIONAL,
                                     inspect.Parameter.VAR_KEYWORD)]
    if required:
        name = getattr(func, "__name__", "check")
        raise TypeError(
            f"claim {claim_id}: {name}({', '.join(params)}) has parameters without a default "
            f"({', '.join(required)}); a claim runs as {name}() -- give its statement "
            "parameters their printed values as defaults, or bind them with "
            "register_check(..., args={...})")


def check_perturbation(claim_id: str, func: Callable[..., Any],
                       perturbation: Perturbed | str | None) -> None:
    """Refuse a perturbation that could depend on the measurement: a :class:`Perturbed` may
    only override statement parameters of the check (keyword parameters with defaults), and a
    check whose statement is perturbed from the inside (a ``perturbed`` flag) must declare the
    retired string form.

    Examples
    --------
    >>> def check(exponent: float = 0.5) -> ClaimResult: ...
    >>> check_perturbation("EX-1", check, Perturbed("exponent 1/3", exponent=1 / 3))
    >>> check_perturbation("EX-1", check, Perturbed("slack", slack=1.01))
    Traceback (most recent call last):
    ...
    ValueError: claim EX-1: Perturbed overrides slack, which is not a statement parameter ...
    """
    params = inspect.signature(func).parameters
    if isinstance(perturbation, Perturbed):
        if "perturbed" in params:
            raise ValueError(f"claim {claim_id}: a check with a Perturbed statement takes its "
                             "statement parameters, not a perturbed= flag that could compute "
                             "the perturbed statement from the measurement")
        known = [n for n, prm in params.items() if prm.default is not inspect.Parameter.empty
                 or prm.kind is inspect.Parameter.VAR_KEYWORD]
        unknown = [k for k in perturbation.overrides if k not in params
                   or params[k].default is inspect.Parameter.empty]
        if unknown and not any(p.kind is inspect.Parameter.VAR_KEYWORD
                               for p in params.values()):
            raise ValueError(f"claim {claim_id}: Perturbed overrides {', '.join(unknown)}, "
                             f"which is not a statement parameter of {func.__name__} (a keyword "
                             f"argument with a printed default): known {known}")
    elif perturbation is not None and "perturbed" not in params:
        raise ValueError(f"claim {claim_id} registers a perturbation, so its check must accept "
                         "perturbed: bool = False")


def function_name(claim_id: str) -> str:
    """The name a check registered as ``claim_id`` carries: lower case, ``_`` for the rest.

    Examples
    --------
    >>> function_name("D2W-Thm1-positivity"), function_name("CL-2-eq2.2-B-bound")
    ('d2w_thm1_positivity', 'cl_2_eq2_2_b_bound')
    """
    return re.sub(r"[^0-9a-z]+", "_", claim_id.lower()).strip("_")


def register_check(check: Callable[..., ClaimResult], *, id: str,
                   args: Mapping[str, Any] | None = None,
                   **claim_kwargs: Any) -> Callable[..., ClaimResult]:
    """Register ``check(**args)`` as claim ``id`` (one check, one setting per id).

    The registered function is a wrapper named ``function_name(id)`` that forwards
    ``perturbed`` when the claim registers a perturbation; ``claim_kwargs`` go to :func:`claim`.

    Examples
    --------
    >>> def at_least(n: int, bound: int, perturbed: bool = False) -> ClaimResult:
    ...     b = bound + 1 if perturbed else bound          # the perturbed statement: n >= bound + 1
    ...     return ClaimResult(n, b, judge(n >= b),
    ...                        margin=Margin.ratio(n, b, what="n / bound", upper=False))
    >>> with scratch_registry():
    ...     f = register_check(at_least, id="EX-Count-3", args={"n": 3, "bound": 3}, paper="003",
    ...                        reference="Lemma 1", statement="n >= 3", perturbation="n >= 4")
    ...     c = get_claim("EX-Count-3")
    ...     f.__name__, c.run().verdict, c.run(perturbed=True).verdict
    ('ex_count_3', 'holds', 'fails')
    """
    bound = dict(args or {})
    perturbation = claim_kwargs.get("perturbation")
    check_perturbation(id, check, perturbation)
    if isinstance(perturbation, Perturbed):
        def wrapper(**statement: Any) -> ClaimResult:
            return check(**{**bound, **statement})
    elif perturbation is not None:
        def wrapper(perturbed: bool = False) -> ClaimResult:  # type: ignore[misc]
            return check(**bound, perturbed=perturbed)
    else:
        def wrapper() -> ClaimResult:  # type: ignore[misc]
            return check(**bound)

    wrapper.__name__ = wrapper.__qualname__ = function_name(id)
    wrapper.__module__ = check.__module__
    wrapper.__doc__ = f"Claim {id}: {check.__name__}({', '.join(map(str, bound))})."
    return claim(id=id, **claim_kwargs)(wrapper)


def claim_quick_full(*, id: str, quick: Mapping[str, Any], full: Mapping[str, Any],
                     **claim_kwargs: Any
                     ) -> Callable[[Callable[..., ClaimResult]], Callable[..., ClaimResult]]:
    """Register one check twice (decorator): ``check(**quick)`` as ``id`` in the quick profile
    and ``check(**full)`` as ``id + "-full"`` in the full profile (a larger sweep).

    The check should be named after ``id`` (``function_name(id)``); ``claim_kwargs`` (paper,
    reference, statement, expected verdict, category, perturbation) are shared.

    Examples
    --------
    >>> with scratch_registry():
    ...     @claim_quick_full(id="EX-Odd-sum", quick={"n": 2}, full={"n": 50}, paper="003",
    ...                       reference="-", statement="1 + 3 + ... + (2n - 1) = n^2",
    ...                       perturbation="n^2 + 1")
    ...     def ex_odd_sum(n: int, perturbed: bool = False) -> ClaimResult:
    ...         total, target = sum(range(1, 2 * n, 2)), n * n + int(perturbed)
    ...         return ClaimResult(total, target, judge(total == target),
    ...                            margin=Margin.exact("integers"))
    ...     [(c.id, c.profile, c.func.__name__, c.run().measured) for c in all_claims()]
    [('EX-Odd-sum', 'quick', 'ex_odd_sum', 4), ('EX-Odd-sum-full', 'full', 'ex_odd_sum_full', 2500)]
    """
    if "profile" in claim_kwargs:
        raise ValueError("claim_quick_full sets the profiles itself")

    def register(check: Callable[..., ClaimResult]) -> Callable[..., ClaimResult]:
        register_check(check, id=id, args=quick, profile="quick", **claim_kwargs)
        register_check(check, id=f"{id}-full", args=full, profile="full", **claim_kwargs)
        check.__paper_claims__ = (id, f"{id}-full")  # type: ignore[attr-defined]
        return check

    return register


@contextmanager
def scratch_registry() -> Iterator[Mapping[str, Claim]]:
    """A temporary, empty registry (examples, tests of the registry): claims registered inside
    the block exist only there (papers registered inside are removed at exit too); at exit the
    registry is back as it was.  Every installed paper is loaded first, so none of them
    registers into the scratch registry.

    Examples
    --------
    >>> before = len(all_claims())
    >>> with scratch_registry() as scratch:
    ...     @claim(id="EX-One", paper="003", reference="-", statement="1 = 1",
    ...            category="consistency")
    ...     def ex_one() -> ClaimResult:
    ...         return ClaimResult(1, 1, judge(True))
    ...     sorted(scratch), [c.id for c in all_claims()]
    (['EX-One'], ['EX-One'])
    >>> len(all_claims()) == before and "EX-One" not in {c.id for c in all_claims()}
    True
    """
    load_all()
    saved, origins = dict(_REGISTRY), dict(_CLAIM_ORIGINS)
    papers = dict(_papers._PAPERS), dict(_papers._ORIGINS)
    _REGISTRY.clear()
    try:
        yield MappingProxyType(_REGISTRY)
    finally:
        _REGISTRY.clear()
        _REGISTRY.update(saved)
        _CLAIM_ORIGINS.clear()
        _CLAIM_ORIGINS.update(origins)
        _papers._PAPERS.clear()
        _papers._PAPERS.update(papers[0])
        _papers._ORIGINS.clear()
        _papers._ORIGINS.update(papers[1])


_ALL_LOADED = False


def load_all() -> None:
    """Load every installed paper: import each entry point of the group ``paper_checks.papers``
    (:func:`paper_checks.papers.load_papers`; this toolkit's own papers register through the
    same group), once per process.  A plugin that raises is recorded and skipped
    (:func:`paper_checks.papers.plugin_failures`)."""
    global _ALL_LOADED
    if _ALL_LOADED:
        return
    _ALL_LOADED = True
    try:
        _papers.load_papers()
    except BaseException:
        _ALL_LOADED = False
        raise


def import_claim_modules(package: str) -> None:
    """Import every module below ``package`` (sorted by name): what a claims package's
    ``__init__`` calls when its paper's claims live in several modules.

    Parameters
    ----------
    package : str
        The dotted name of an imported package (its ``__name__``).

    Returns
    -------
    None

    Examples
    --------
    A claims package's ``__init__.py`` (the module its entry point names)::

        from paper_checks import import_claim_modules

        import_claim_modules(__name__)    # imports mypkg.claims.theorems, mypkg.claims.lemmas

    >>> import_claim_modules("paper_checks.claims.foundation")
    >>> get_claim("FND-Hilbert-8").module
    'paper_checks.claims.foundation.hilbert'
    """
    pkg = importlib.import_module(package)

    def unreadable(name: str) -> None:
        raise ImportError(f"could not import the claim package {name} while loading the claims")

    found = pkgutil.walk_packages(pkg.__path__, prefix=f"{pkg.__name__}.", onerror=unreadable)
    for name in sorted(info.name for info in found):
        importlib.import_module(name)


def all_claims() -> list[Claim]:
    """Every registered claim, in registration order (loads the claim modules first)."""
    load_all()
    return list(_REGISTRY.values())


def get_claim(claim_id: str) -> Claim:
    """The registered claim ``claim_id`` (loads the installed papers first).

    Parameters
    ----------
    claim_id : str

    Returns
    -------
    Claim

    Raises
    ------
    KeyError
        No such claim.
    """
    load_all()
    try:
        return _REGISTRY[claim_id]
    except KeyError:
        raise KeyError(f"no claim with id {claim_id!r}") from None


def _paper_matches(claim: Claim, paper: str) -> bool:
    info = claim.paper_info
    needle = paper.lower()
    return needle in (info.key.lower(), info.stem.lower()) or needle in info.title.lower()


def _strings(name: str, value: str | Iterable[str] | None) -> list[str]:
    """``value`` as a list of strings (one string, an iterable of them, or None)."""
    items = [value] if isinstance(value, str) else [] if value is None else value
    if isinstance(items, bytes) or not isinstance(items, Iterable) or not all(
            isinstance(v, str) for v in items):
        raise TypeError(f"{name} must be a string or an iterable of strings, got {value!r}")
    return list(items)


def ref_matches(reference: str, ref: str) -> bool:
    """Whether a claim's ``reference`` field names ``ref`` (what ``--ref`` and ``select(ref=)``
    match): case and spacing ignored, numbers whole (``"Theorem 7"`` matches ``"Theorem 7,
    eq. 19"`` and ``"§3 Theorem 7 (formal)"``, not ``"Theorem 71"`` nor ``"Theorem 7.2"``); a
    pattern with ``*`` or ``?`` is an :mod:`fnmatch` glob of the whole field.

    Parameters
    ----------
    reference : str
        The registered reference, e.g. ``"Theorem 6, eq. 19"``.
    ref : str
        What the user typed, e.g. ``"theorem 6"``.

    Returns
    -------
    bool

    Examples
    --------
    >>> ref_matches("§3.4.4.2 Theorem 10", "theorem 10"), ref_matches("Theorem 10", "Theorem 1")
    (True, False)
    >>> ref_matches("Lemma 2.3, eq. 4", "Lemma 2"), ref_matches("Lemma 2.3, eq. 4", "lemma 2.3")
    (False, True)
    """
    text = " ".join(reference.split()).lower()
    needle = " ".join(ref.split()).lower()
    if not needle:
        return False
    if any(ch in needle for ch in "*?["):
        return fnmatch.fnmatchcase(text, needle)
    pattern = re.escape(needle).replace(r"\ ", r"\s*")
    return re.search(rf"(?<![0-9a-z]){pattern}(?![0-9a-z]|\.[0-9])", text) is not None


def select(
    *,
    profile: Profile = "quick",
    paper: str | Iterable[str] | None = None,
    id: str | Iterable[str] | None = None,
    ref: str | Iterable[str] | None = None,
) -> list[Claim]:
    """Claims of a profile (``full`` includes ``quick``), filtered by paper, id and reference.

    Parameters
    ----------
    profile : {'quick', 'full'}
        ``full`` includes the ``quick`` claims.
    paper : str or iterable of str, optional
        A key (``"003"``), a source stem, or a substring of the title (or several).
    id : str or iterable of str, optional
        A claim id or an :mod:`fnmatch` pattern such as ``"D2W-Thm*"`` (or several), as the
        CLI's ``--id``.
    ref : str or iterable of str, optional
        What the paper calls the statement, e.g. ``"Theorem 7"`` (:func:`ref_matches`), as
        the CLI's ``--ref``.

    Returns
    -------
    list of Claim
        In registration order.

    Raises
    ------
    ValueError
        A paper that matches no registered paper (the known keys are listed).
    """
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    papers = _strings("paper", paper)
    globs = _strings("id", id)
    refs = _strings("ref", ref)
    if papers and all(p in _papers.REGISTERED for p in papers):
        _papers.load_papers(papers)       # registered keys: only their own entry points
        pool = list(_REGISTRY.values())
    else:
        pool = all_claims()
    unknown = [p for p in papers if not any(_paper_matches(c, p) for c in pool)]
    if unknown:
        load_all()
        keys = sorted(_papers.REGISTERED)
        raise ValueError(f"paper {unknown[0]!r} matches no registered paper (a key, its "
                         f"source file's name or part of a title); known keys: {keys}")
    chosen = []
    for c in pool:
        if profile == "quick" and c.profile != "quick":
            continue
        if papers and not any(_paper_matches(c, p) for p in papers):
            continue
        if globs and not any(fnmatch.fnmatchcase(c.id, g) for g in globs):
            continue
        if refs and not any(ref_matches(c.reference, r) for r in refs):
            continue
        chosen.append(c)
    return chosen
