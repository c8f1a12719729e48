"""Run registered claims and collect outcomes (verdict, timing, errors, figures).

A claim runs as a task of :mod:`seprank.sweeps`: :func:`~seprank.sweeps.measure.run_task`
calls the check (serially here, or on dask workers through :func:`~seprank.sweeps.run.sweep`)
and returns a :class:`~seprank.sweeps.measure.TaskOutcome` -- the check's
:class:`~paper_checks.registry.ClaimResult` as its value, or the error it raised, with the
timings and memory of the run.  A :class:`ClaimOutcome` is that outcome beside its claim.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paper_checks.registry import Claim, ClaimResult
from seprank.core.display import html_table, markdown_table, summarize
from seprank.core.progress import progress_bar
from seprank.sweeps.measure import TaskOutcome, run_task

__all__ = ["ClaimOutcome", "run_claim", "run_claims", "run_claims_parallel"]


@dataclass(frozen=True, repr=False)
class ClaimOutcome:
    """A claim and the outcome of running its check.

    Attributes
    ----------
    claim : Claim
    outcome : seprank.sweeps.measure.TaskOutcome
        ``outcome.value`` is the check's :class:`~paper_checks.registry.ClaimResult` (its
        ``figures`` replaced by the files they were saved to); on error, ``outcome.error`` and
        ``outcome.traceback`` say what the check raised (or why its worker never answered).
    certificates : tuple of CertificateRecord
        What the independent checker said about the certificates the claim ships
        (:class:`paper_checks.certificates.CertificateRecord`), once they were checked.
    power : seprank.sweeps.measure.TaskOutcome or None
        The run of the claim's perturbed statement (fixed before the measurement) when the
        printed one holds on a paper: its verdict must not be ``holds``, and its margin says
        by how much the perturbed statement fails.
    """

    claim: Claim
    outcome: TaskOutcome
    certificates: tuple[Any, ...] = ()
    power: TaskOutcome | None = None

    @property
    def result(self) -> ClaimResult | None:
        """The check's result (None when it raised)."""
        return self.outcome.value if self.outcome.ok else None

    @property
    def error(self) -> str | None:
        """The traceback of a check that raised (the scheduler's message when its worker kept
        dying); None when it returned."""
        return None if self.outcome.ok else self.outcome.traceback or self.outcome.error

    @property
    def seconds(self) -> float:
        """Wall time of the check (with saving its figures)."""
        return self.outcome.seconds or 0.0

    @property
    def figure_paths(self) -> tuple[str, ...]:
        """The files the check's figures were saved to."""
        return () if self.result is None else tuple(self.result.figures.values())

    @property
    def certificate_names(self) -> tuple[str, ...]:
        """Names of the certificates the check returned."""
        return () if self.result is None else tuple(self.result.certificates)

    @property
    def rests_on_verified_certificates(self) -> bool:
        """The claim ships certificates and the independent checker verified all of them."""
        return bool(self.certificates) and all(r.verified for r in self.certificates) and \
            len(self.certificates) == len(self.certificate_names)

    @property
    def verdict(self) -> str:
        return "error" if self.result is None else self.result.verdict

    @property
    def basis(self) -> str | None:
        """What the verdict rests on in *this* run (:mod:`paper_checks.evidence`): the
        registered basis, except that ``certified`` reads ``exact`` until the independent
        checker has verified every certificate of the run against the claim's requirement;
        None for an error or a skipped check."""
        if self.result is None or self.result.verdict == "skipped":
            return None
        declared = self.claim.basis
        if declared == "certified" and not self.rests_on_verified_certificates:
            return "exact"
        return declared

    @property
    def kind(self) -> str | None:
        """How the statement is wrong (None for holds, skipped and errors)."""
        return None if self.result is None else self.result.kind

    @property
    def is_paper_verdict(self) -> bool:
        """A verdict on a printed statement (not a consistency check of the toolkit)."""
        return self.claim.category == "paper"

    @property
    def missing_group(self) -> str | None:
        """The optional dependency group (:mod:`seprank.extras`) whose absence skipped the
        check, or None."""
        r = self.result
        return None if r is None or r.verdict != "skipped" else r.details.get("missing group")

    @property
    def as_expected(self) -> bool:
        return self.result is not None and self.result.verdict == self.claim.expected_verdict

    @property
    def perturbed_result(self) -> ClaimResult | None:
        """The perturbed statement's result (None when it was not run or raised)."""
        return None if self.power is None or not self.power.ok else self.power.value

    def __repr__(self) -> str:
        kind = f", kind={self.kind!r}" if self.kind else ""
        return (f"ClaimOutcome(id={self.claim.id!r}, verdict={self.verdict!r}{kind}, "
                f"as_expected={self.as_expected}, seconds={self.seconds:.2f})")

    def summary(self) -> str:
        """One line: the claim, where it is printed, and what its check found."""
        found = (self.result.summary() if self.result is not None else
                 "error: " + summarize((self.error or "").strip().splitlines()[-1:] or "", 80))
        expected = "" if self.as_expected else f" [expected {self.claim.expected_verdict}]"
        return f"{self.claim.id} ({self.claim.paper}, {self.claim.reference}): {found}{expected}"

    def _display_fields(self) -> list[tuple[str, Any]]:
        rows: list[tuple[str, Any]] = [("statement", self.claim.statement)]
        if self.result is not None:
            rows += self.result._display_fields()
        else:
            rows.append(("error", (self.error or "").strip().splitlines()[-1:]))
        rows += [("basis", self.basis), ("expected verdict", self.claim.expected_verdict),
                 ("seconds", f"{self.seconds:.2f}")]
        if self.power is not None:
            r = self.perturbed_result
            rows.append(("perturbed statement", f"{self.claim.perturbation_text}: "
                         + ("error" if r is None else r.verdict)))
        if self.certificates:
            verified = sum(bool(getattr(rec, "verified", False)) for rec in self.certificates)
            rows.append(("certificates checked", f"{verified} of {len(self.certificates)} "
                                                 "verified by the independent checker"))
        return rows

    def _repr_markdown_(self) -> str:
        return markdown_table(self.summary(), self._display_fields())

    def _repr_html_(self) -> str:
        return html_table(self.summary(), self._display_fields())

    def plot(self, *, ax: Any = None) -> Any:
        """The measurement against the printed bound or value (log scale when both are
        positive), or the margin's log10 slack; returns the matplotlib Axes.

        Raises
        ------
        ValueError
            When the check raised, or measured nothing numeric and has no margin.
        """
        import matplotlib.pyplot as plt

        r = self.result
        if r is None:
            raise ValueError(f"{self.claim.id} raised; there is no measurement to plot")
        series = _numeric_series(r.measured, r.reference_value)
        if not series and r.margin is None:
            raise ValueError(f"{self.claim.id} measured nothing numeric against a number "
                             f"(measured {summarize(r.measured, 60)}) and has no margin")
        if ax is None:
            _, ax = plt.subplots(figsize=(5.5, 3.2))
        if series:
            labels = list(dict.fromkeys(label for points in series.values()
                                        for label, _ in points))
            where = {label: i for i, label in enumerate(labels)}
            styles = iter(["o", "_", "x", "s", "^", "v", "d"])
            values = []
            for i, (name, points) in enumerate(series.items()):
                marker = next(styles, "o")
                ax.plot([where[label] for label, _ in points], [v for _, v in points], marker,
                        ls="none", color=f"C{i}", markersize=14 if marker == "_" else 6,
                        mew=2, label=name)
                values += [v for _, v in points]
            ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=7)
            if values and all(v > 0 for v in values):
                ax.set_yscale("log")
            ax.legend(fontsize=8)
        else:
            assert r.margin is not None
            ax.barh([r.margin.what], [r.margin.log10_slack], color="C2")
            ax.axvline(0, color="k", lw=0.8)
            ax.set_xlabel("log10 slack (room to the printed bound)")
        ax.set_title(summarize(self.summary(), 80), fontsize=8)
        ax.figure.tight_layout()
        return ax

    @property
    def has_power(self) -> bool | None:
        """Whether the check told the perturbed statement from the printed one (its verdict is
        not ``holds``); None when no perturbed statement was run."""
        if self.power is None:
            return None
        r = self.perturbed_result
        return r is not None and r.verdict != "holds"


_COMPARISON = re.compile(r"^\s*([-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?)\s*(?:<=|>=|<|>|==|=)\s*"
                         r"([-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?)\b")


def _number(value: Any) -> float | None:
    value = getattr(value, "value", value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    x = float(value)
    return x if math.isfinite(x) else None


def _numeric_series(measured: Any, reference: Any) -> dict[str, list[tuple[str, float]]]:
    """Named series of (label, number) to draw: the measurement and the reference when both
    are numbers; for a table of settings (a mapping), one series per numeric inner field
    (e.g. the measured value, the printed and the corrected one), or the two sides of rows
    written as ``"3 <= 4: True"``; at most 40 settings."""
    m, b = _number(measured), _number(reference)
    if m is not None:
        return {"measured": [("", m)], **({"printed / reference": [("", b)]}
                                          if b is not None else {})}
    if not isinstance(measured, Mapping):
        return {}
    rows = list(measured.items())[:40]
    series: dict[str, list[tuple[str, float]]] = {}
    for key, row in rows:
        if isinstance(row, str) and (g := _COMPARISON.match(row)):
            series.setdefault("measured", []).append((str(key), float(g[1])))
            series.setdefault("bound", []).append((str(key), float(g[2])))
        elif isinstance(row, Mapping):
            for field, value in row.items():
                x = _number(value)
                if x is not None:
                    series.setdefault(str(field), []).append((str(key), x))
        elif (x := _number(row)) is not None:
            series.setdefault("measured", []).append((str(key), x))
            ref = _number(reference.get(key)) if isinstance(reference, Mapping) else b
            if ref is not None:
                series.setdefault("printed / reference", []).append((str(key), ref))
    return {name: points for name, points in list(series.items())[:6]}


def _wants_power(claim: Claim, result: ClaimResult | None) -> bool:
    """A paper claim whose printed statement holds shows its perturbed statement's run."""
    return (claim.category == "paper" and claim.perturbable and result is not None
            and result.verdict == "holds")


def _run_perturbed(claim: Claim) -> ClaimResult:
    """The claim's perturbed statement (its figures closed, not saved)."""
    result = claim.run(perturbed=True)
    if result.figures:
        import matplotlib.pyplot as plt

        for fig in result.figures.values():
            plt.close(fig)
        result = dataclasses.replace(result, figures={})
    return result


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


def _run_check(claim: Claim, plots_dir: str | None) -> ClaimResult:
    """The check's result, its figures saved to ``plots_dir`` (when given) and closed: the
    result keeps the saved files in their place (nothing when no folder is given)."""
    result = claim.run()
    if not result.figures:
        return result
    import matplotlib.pyplot as plt

    saved: dict[str, str] = {}
    for name, fig in result.figures.items():
        if plots_dir is not None:
            out = Path(plots_dir)
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"{_safe_name(claim.id)}__{_safe_name(name)}.png"
            fig.savefig(path, dpi=110, bbox_inches="tight")
            saved[name] = str(path)
        plt.close(fig)
    return dataclasses.replace(result, figures=saved)


def _run_claim_by_id(claim_id: str, plots_dir: str | None, perturbed: bool = False
                     ) -> ClaimResult:
    """:func:`_run_check` (or :func:`_run_perturbed`) of a claim looked up by id (what a dask
    worker runs)."""
    import matplotlib

    matplotlib.use("Agg")
    from paper_checks.registry import get_claim

    claim = get_claim(claim_id)
    return _run_perturbed(claim) if perturbed else _run_check(claim, plots_dir)


def run_claim(claim: Claim, *, plots_dir: str | Path | None = None,
              power: bool = True) -> ClaimOutcome:
    """Run one check; exceptions are caught and reported, figures saved (if asked) and closed.
    With ``power`` (the default), a paper claim that holds also runs its perturbed statement
    (:attr:`ClaimOutcome.power`)."""
    plots = None if plots_dir is None else str(plots_dir)
    outcome = run_task(_run_check, {"claim": claim, "plots_dir": plots})
    done = ClaimOutcome(claim, outcome)
    if power and _wants_power(claim, done.result):
        done = dataclasses.replace(done, power=run_task(_run_perturbed, {"claim": claim}))
    return done


def run_claims(
    claims: Iterable[Claim], *, plots_dir: str | Path | None = None, progress: bool = True,
    power: bool = True,
) -> list[ClaimOutcome]:
    """Run claims in order with a progress bar; returns one outcome per claim (with the run of
    each holding paper claim's perturbed statement, unless ``power=False``)."""
    claims = list(claims)
    outcomes = []
    with progress_bar(desc="paper checks", total=len(claims), unit="claim",
                      progress=None if progress else False) as bar:
        for claim in claims:
            bar.set_postfix_str(claim.id)
            outcomes.append(run_claim(claim, plots_dir=plots_dir, power=power))
            bar.update()
    return outcomes


def run_claims_parallel(
    claims: Iterable[Claim], *, executor: object = None, plots_dir: str | Path | None = None,
    progress: bool = True, power: bool = True,
) -> list[ClaimOutcome]:
    """:func:`run_claims` on dask workers (:func:`seprank.sweeps.run.sweep`), same order.

    ``executor``: None (a local cluster, one worker per core), a number of workers, a
    scheduler address or a ``distributed.Client``.  Outcomes come back in the order of
    ``claims`` whatever the order of completion, so the report is the serial run's; a check
    that raises is reported as in :func:`run_claim`; a claim whose worker died repeatedly is
    reported as an error with the scheduler's message.

    Examples
    --------
    ``executor="serial"`` runs the same tasks in this process (the baseline of a speed-up):

    >>> from paper_checks.registry import select
    >>> claims = select(profile="quick", id=["FND-Hilbert-8", "D2W-Table1-1T"])
    >>> [(o.claim.id, o.result.verdict, o.has_power) for o in run_claims_parallel(
    ...     claims, executor="serial", progress=False)]
    [('D2W-Table1-1T', 'note', None), ('FND-Hilbert-8', 'holds', None)]
    """
    from seprank.sweeps.run import sweep

    claims = list(claims)
    plots = None if plots_dir is None else str(plots_dir)
    # the perturbed statements of the paper claims expected to hold run in the same sweep
    probes = [c for c in claims if power and c.category == "paper" and c.perturbable
              and c.expected_verdict == "holds"]
    params: list[dict[str, Any]] = [{"claim_id": c.id, "plots_dir": plots} for c in claims]
    params += [{"claim_id": c.id, "plots_dir": None, "perturbed": True} for c in probes]
    records = sweep(_run_claim_by_id, params, executor=executor, progress=progress).records
    perturbed = {c.id: r.outcome for c, r in zip(probes, records[len(claims):], strict=True)}
    out = []
    for claim, record in zip(claims, records[:len(claims)], strict=True):
        done = ClaimOutcome(claim, record.outcome)
        if _wants_power(claim, done.result) and claim.id in perturbed:
            done = dataclasses.replace(done, power=perturbed[claim.id])
        out.append(done)
    return out
