"""The pytest plugin: every registered claim in a test module is a test item.

Shipped with the package (entry point ``pytest11``), so in *any* repository where
``seprank-identifiability`` is installed, a test module such as::

    # tests/test_kruskal.py
    from paper_checks import ClaimResult, Perturbed, claim, register_paper
    from paper_checks.compare import exact_result

    register_paper(key="kruskal77", title="Three-way arrays", authors=["J. B. Kruskal"],
                   year=1977, identifier="Linear Algebra Appl. 18(2)")

    @claim(id="K-Thm4a", paper="kruskal77", reference="Theorem 4a", basis="exact",
           statement="...", perturbation=Perturbed("...", bound=7))
    def k_thm4a(bound: int = 6) -> ClaimResult: ...

    def test_ordinary():             # collected as usual, untouched
        ...

gives one item ``K-Thm4a`` beside ``test_ordinary``.  A claim item passes when the verdict
equals the registered expectation **and**, for a paper claim that holds with a registered
perturbation, the perturbed statement (fixed before the measurement) is rejected; a failing item
shows the verdict, kind, basis, margin, measurement and the perturbed run.

Options: ``--profile quick|full`` (``full`` also runs the claims registered with
``profile="full"``; in ``quick`` they are skipped with that reason), ``--paper-report
PATH.md|PATH.json`` (the ledger report ``paper-checks`` writes, for the claims run), and
``--ref "Theorem 7"`` (only the claim items whose reference names it; ordinary tests are
deselected too).  ``-k`` matches the claim id, its paper key and its reference words; ``-m
paper_claim`` selects the claim items (``-m "not paper_claim"`` the ordinary tests).

The plugin costs nothing where no test module registers a claim: it imports nothing of the
toolkit until a collected module holds a registered claim function (a function carrying
``__paper_claims__``, set by :func:`paper_checks.registry.claim`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from paper_checks.registry import Claim
    from paper_checks.runner import ClaimOutcome

__all__ = ["ClaimItem", "ClaimMismatch"]

_OUTCOMES = pytest.StashKey[list[Any]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register ``--profile``, ``--paper-report`` and ``--ref`` (once, for every project).

    Parameters
    ----------
    parser : pytest.Parser

    Returns
    -------
    None
    """
    group = parser.getgroup("paper_checks", "paper claims (paper_checks)")
    group.addoption("--profile", action="store", default="quick", choices=("quick", "full"),
                    help="quick (default): skip claims registered with profile='full' (and, in "
                         "projects that say so, tests marked slow); full: run everything")
    group.addoption("--paper-report", action="store", default=None, metavar="PATH.md|PATH.json",
                    help="write the ledger report of the claims run (as paper-checks does): "
                         "Markdown, or JSON for a .json path")
    group.addoption("--ref", action="append", default=None, metavar="REFERENCE",
                    help="only the claim items whose reference names this, e.g. 'Theorem 7' "
                         "(repeatable)")


def pytest_configure(config: pytest.Config) -> None:
    """Declare the ``paper_claim`` marker and the list of outcomes for the report.

    Parameters
    ----------
    config : pytest.Config

    Returns
    -------
    None
    """
    config.addinivalue_line("markers", "paper_claim: a registered paper claim (paper_checks)")
    config.stash[_OUTCOMES] = []


class ClaimMismatch(AssertionError):
    """A claim item's verdict differs from its registration, or its perturbed statement was
    not rejected."""


class ClaimItem(pytest.Item):
    """One registered claim as a test item (its name is the claim id)."""

    def __init__(self, *, claim_id: str, lineno: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim_id = claim_id
        self.lineno = lineno
        self.outcome: ClaimOutcome | None = None

    @property
    def claim(self) -> Claim:
        """The registered claim.

        Returns
        -------
        Claim
        """
        from paper_checks.registry import _REGISTRY

        return _REGISTRY[self.claim_id]

    def runtest(self) -> None:
        """Run the check (and its perturbed statement); raise :class:`ClaimMismatch` unless
        the verdict is the registered one and the perturbed statement is rejected.

        Returns
        -------
        None
        """
        from paper_checks.runner import run_claim

        claim = self.claim
        self.outcome = outcome = run_claim(claim, power=True)
        self.config.stash[_OUTCOMES].append(outcome)
        if outcome.error is not None:
            raise ClaimMismatch(f"the check raised:\n{outcome.error}")
        if outcome.missing_group is not None and outcome.result is not None:
            pytest.skip(str(outcome.result.details["reason"]))
        problems = []
        if not outcome.as_expected:
            problems.append(f"verdict {outcome.verdict!r}, registered expectation "
                            f"{claim.expected_verdict!r}")
        if outcome.has_power is False:
            problems.append("the perturbed statement was not rejected (a check that cannot "
                            "fail proves nothing)")
        if problems:
            raise ClaimMismatch("; ".join(problems))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        """The verdict, kind, basis, margin, measurement and perturbed run of the claim.

        Parameters
        ----------
        excinfo : pytest.ExceptionInfo
        style : optional

        Returns
        -------
        str
        """
        if not isinstance(excinfo.value, ClaimMismatch):
            return str(super().repr_failure(excinfo))
        return _explain(self.claim, self.outcome, str(excinfo.value))

    def reportinfo(self) -> tuple[Path, int, str]:
        """Where the claim is defined, and its one-line summary.

        Returns
        -------
        tuple
        """
        claim = self.claim
        return self.path, self.lineno, f"claim {claim.id} ({claim.paper}, {claim.reference})"


def _explain(claim: Claim, outcome: ClaimOutcome | None, problem: str) -> str:
    from paper_checks.report import format_margin, format_value

    lines = [f"claim {claim.id} ({claim.paper}, {claim.reference}): {problem}",
             f"  statement : {claim.statement}",
             f"  expected  : {claim.expected_verdict}"]
    if outcome is not None and outcome.result is not None:
        r = outcome.result
        lines += [f"  verdict   : {r.verdict}", f"  kind      : {r.kind or '-'}",
                  f"  basis     : {outcome.basis or '-'}",
                  f"  margin    : {format_margin(r.margin)}",
                  f"  measured  : {format_value(r.measured)}",
                  f"  reference : {format_value(r.reference_value)}"]
        if claim.perturbable:
            p = outcome.perturbed_result
            ran = ("not run (the printed statement did not hold)" if outcome.power is None
                   else "error: " + str(outcome.power.error) if p is None
                   else f"{p.verdict}, measured {format_value(p.measured)}, margin "
                        f"{format_margin(p.margin)}")
            lines.append(f"  perturbed : {claim.perturbation_text} -> {ran}")
    return "\n".join(lines)


def _wanted_by_ref(config: pytest.Config, claim: Claim) -> bool:
    refs = config.getoption("--ref")
    if not refs:
        return True
    from paper_checks.registry import ref_matches

    return any(ref_matches(claim.reference, r) for r in refs)


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str,
                              obj: object) -> list[pytest.Item] | None:
    """A module-level function carrying registered claims becomes one item per claim.

    Parameters
    ----------
    collector : pytest.Collector
    name : str
    obj : object

    Returns
    -------
    list of pytest.Item or None
        None for everything else (ordinary collection continues).
    """
    ids = getattr(obj, "__paper_claims__", None)
    if not isinstance(ids, tuple) or not ids or not isinstance(collector, pytest.Module):
        return None
    from paper_checks.registry import _REGISTRY

    items: list[pytest.Item] = []
    profile = collector.config.getoption("--profile")
    for claim_id in ids:
        claim = _REGISTRY.get(claim_id)
        if claim is None:
            continue
        code = getattr(obj, "__code__", None)
        lineno = max(getattr(code, "co_firstlineno", 1) - 1, 0)
        item = ClaimItem.from_parent(collector, name=claim_id, claim_id=claim_id, lineno=lineno)
        item.add_marker(pytest.mark.paper_claim)
        item.extra_keyword_matches.update({claim.paper, *claim.reference.split()})
        if claim.profile == "full" and profile != "full":
            item.add_marker(pytest.mark.skip(reason="profile full: run with --profile full"))
        items.append(item)
    return items


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """``--ref``: keep only the claim items whose reference names it.

    Parameters
    ----------
    session : pytest.Session
    config : pytest.Config
    items : list of pytest.Item

    Returns
    -------
    None
    """
    if not config.getoption("--ref"):
        return
    keep = [i for i in items if isinstance(i, ClaimItem) and _wanted_by_ref(config, i.claim)]
    dropped = [i for i in items if i not in keep]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def pytest_sessionfinish(session: pytest.Session) -> None:
    """``--paper-report``: write the ledger report of the claims run; a paper plugin that
    failed to import makes the exit status non-zero.

    Parameters
    ----------
    session : pytest.Session

    Returns
    -------
    None
    """
    import sys

    papers = sys.modules.get("paper_checks.papers")
    if papers is not None and papers.plugin_failures() and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED   # a paper plugin was skipped
    target = session.config.getoption("--paper-report")
    outcomes = session.config.stash.get(_OUTCOMES, [])
    if not target:
        return
    from paper_checks.report import json_report, markdown_report

    path = Path(target)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".json":
        path.write_text(json_report(outcomes), encoding="utf-8")
    else:
        path.write_text(markdown_report(outcomes, base_dir=str(path.parent)), encoding="utf-8")


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int,
                            config: pytest.Config) -> None:
    """Name the paper plugins that failed to import (if any were loaded) and the report.

    Parameters
    ----------
    terminalreporter : TerminalReporter
    exitstatus : int
    config : pytest.Config

    Returns
    -------
    None
    """
    import sys

    papers = sys.modules.get("paper_checks.papers")
    if papers is not None:
        for failure in papers.plugin_failures():
            terminalreporter.write_line(failure.summary(), red=True)
    target = config.getoption("--paper-report")
    if target:
        terminalreporter.write_line(f"paper report written to {target}")
