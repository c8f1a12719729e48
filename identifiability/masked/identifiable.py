r"""One question, one call: is this model identifiable from this masked prediction task?

:func:`identifiable` runs what 004 §2.2 uses to answer it -- the assumptions (A5-A9), the
3-tensor of Theorems 7-8 with Kruskal's condition on its factors (Proposition 1), the first-order
(Jacobian) check and the recovery by Jennrich's algorithm -- and says which of the document's
theorems decides:

==========================================  =========  ==========================================
task                                        model      decided by
==========================================  =========  ==========================================
:math:`x_{t_2}\otimes x_{t_3}\mid x_{t_1}`  HMM        Theorem 7: identifiable (A5-A7)
(three adjacent times)                      G-HMM      Theorem 8: identifiable (A5, A8, A9)
:math:`x_2\mid x_1` (one step)              G-HMM      Theorem 5: identifiable (A5, A8, A9)
:math:`x_t\mid x_1` / :math:`x_1\mid x_t`   HMM        Theorem 4: not identifiable in general
pairwise tasks on three adjacent tokens     HMM        Theorem 6: not identifiable in general
anything else                               either     no theorem; the Jacobian is evidence only
==========================================  =========  ==========================================

The Kruskal condition is certified (exact ranks) for a discrete HMM: its float parameters are
exact binary rationals, and the factors :math:`D^{-1}OG^\top, O, OT` are computed from them in
rational arithmetic.  For a G-HMM the factors involve exponentials, and the ranks are SVD ranks
(not certified).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from identifiability.masked.assumptions import AssumptionReport
from identifiability.masked.hmm import HMM, GaussianHMM
from identifiability.masked.kruskal import KruskalCondition, kruskal_condition
from identifiability.masked.local import JacobianDeficiency, jacobian_deficiency
from identifiability.masked.recovery import RecoveredModel, recover_ghmm, recover_hmm
from identifiability.masked.tasks import Task, optimal_predictor
from identifiability.masked.tensors import hmm_tensor_factors, masked_prediction_tensor
from seprank.core import SeedLike, as_generator
from seprank.core.results import Result

__all__ = ["Identifiability", "identifiable"]

#: Largest d x k for which the HMM's Kruskal ranks are taken in exact rational arithmetic.
EXACT_KRUSKAL_MAX_ENTRIES = 400
#: Recovery errors below this (max abs, after relabelling) count as "recovered".
RECOVERY_TOL = 1e-6


@dataclass(frozen=True, repr=False)
class Identifiability(Result):
    """What :func:`identifiable` found.

    Attributes
    ----------
    identifiable : bool or None
        The verdict of the deciding theorem (up to relabelling the hidden states); ``None``
        when no theorem of the document covers the task, or its hypotheses fail.
    theorem : str or None
        The statement that decides (e.g. ``'Theorem 7'``).
    reason : str
        One sentence: the theorem, its hypotheses, and what the evidence says.
    kind : {'hmm', 'ghmm'}
    tasks : tuple of Task
    assumptions : AssumptionReport
        A5-A9 on this model.
    kruskal : KruskalCondition or None
        Proposition 1 on the CP factors of the Theorem 7/8 tensor (two-token tasks only).
    jacobian : JacobianDeficiency
        First-order flat directions (deficiency 0: locally identifiable).
    recovery : RecoveredModel or None
        Jennrich's recovery from the optimal predictor (two-token tasks only).
    recovery_errors : dict or None
        ``errors_against(model)``: max abs errors of emission and T after relabelling.
    details : Mapping
        Timing and the tolerances used.
    """

    identifiable: bool | None
    theorem: str | None
    reason: str
    kind: str
    tasks: tuple[Task, ...]
    assumptions: AssumptionReport
    kruskal: KruskalCondition | None
    jacobian: JacobianDeficiency
    recovery: RecoveredModel | None
    recovery_errors: dict[str, Any] | None
    details: Mapping[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.identifiable)

    def _repr_info(self) -> dict[str, Any]:
        return {"identifiable": self.identifiable, "theorem": self.theorem,
                "tasks": ", ".join(map(str, self.tasks)), "kind": self.kind}

    def summary(self) -> str:
        verdict = {True: "identifiable", False: "not identifiable",
                   None: "not decided by a theorem"}[self.identifiable]
        by = f" ({self.theorem})" if self.theorem else ""
        return f"{verdict}{by}: {self.reason}"

    def evidence(self) -> list[tuple[str, str]]:
        """The checks run, one line each: ``(check, outcome)``.

        Returns
        -------
        list of (str, str)
            The assumptions, then Kruskal's condition (when it was checked), the Jacobian
            rank and the recovery (when it was run), each with its outcome in words.
        """
        violated = [c.name for c in self.assumptions.checks if not c.holds]
        rows = [("assumptions", "violated: " + ", ".join(violated) if violated else "all hold")]
        if self.kruskal is not None:
            k = self.kruskal
            how = "certified" if k.verdict_certified else "float ranks, not certified"
            rows.append(("Kruskal (Proposition 1)",
                         f"k-ranks {k.k_ranks}: {k.lhs} >= {k.rhs} is {k.holds} ({how})"))
        j = self.jacobian
        rows.append(("Jacobian", f"rank {j.rank} of {j.n_params} parameters, "
                                 f"deficiency {j.deficiency}"))
        if self.recovery is not None:
            err = self.recovery_errors or {}
            rows.append(("recovery (Jennrich)",
                         ("valid" if self.recovery.valid else "invalid: "
                          + "; ".join(self.recovery.problems))
                         + (f", errors O/M {err['emission']:.2g}, T {err['T']:.2g}"
                            if err else "")))
        return rows

    def _repr_markdown_(self) -> str:
        lines = [f"**{self.summary()}**", "", "| check | outcome |", "|---|---|"]
        lines += [f"| {name} | {text.replace('|', '&#124;')} |"
                  for name, text in self.evidence()]
        return "\n".join(lines)


def _as_tasks(task: Task | str | Sequence[Task | str]) -> tuple[Task, ...]:
    if isinstance(task, str | Task):
        return (Task(task),)
    if isinstance(task, bytes) or not hasattr(task, "__iter__"):
        raise TypeError(f"task must be a Task, a task string such as 'x2*x3|x1', or a sequence "
                        f"of them, got {task!r}")
    tasks = tuple(Task(t) for t in task)
    if not tasks:
        raise ValueError("task: give at least one task")
    return tasks


def _theorem(model: HMM | GaussianHMM, tasks: tuple[Task, ...]
             ) -> tuple[bool | None, str | None, str, tuple[str, ...]]:
    """(verdict, theorem, statement, hypotheses) of the statement covering the tasks."""
    hmm = isinstance(model, HMM)
    hyp = ("A5", "A6", "A7") if hmm else ("A5", "A8", "A9")
    two_token = [t for t in tasks if t.case is not None]
    if two_token:
        name = "Theorem 7" if hmm else "Theorem 8"
        return (True, name, f"{two_token[0]} determines the parameters up to relabelling "
                f"({name}, 004 §2.2)", hyp)
    singles = [t for t in tasks if len(t.targets) == 1]
    if len(singles) != len(tasks):
        return None, None, "no theorem of 004 §2.2 covers these tasks", hyp
    if not hmm:
        if any(abs(t.gap or 0) == 1 for t in singles):
            return (True, "Theorem 5", "x_2|x_1 determines (M, T) up to relabelling "
                    "(Theorem 5, 004 §2.2)", hyp)
        return None, None, "no theorem of 004 §2.2 covers these tasks for a G-HMM", hyp
    span = {tm for t in singles for tm in t.times}
    if len(singles) == 1:
        return (False, "Theorem 4", f"{singles[0]} alone does not identify an HMM: rotated "
                "twins (OR, R^T T R) give the same predictor (Theorem 4, 004 §2.2)", hyp)
    if max(span) - min(span) <= 2:
        return (False, "Theorem 6", "pairwise tasks on three adjacent tokens do not identify "
                "an HMM: a rotated twin has the same predictors (Theorem 6, 004 §2.2)", hyp)
    return None, None, "no theorem of 004 §2.2 covers these tasks", hyp


def _exact_factors(model: HMM, task: Task) -> tuple[Any, Any, Any] | None:
    if model.d * model.k > EXACT_KRUSKAL_MAX_ENTRIES:
        return None
    O = np.array([[Fraction(float(v)) for v in row] for row in model.O], dtype=object)
    T = np.array([[Fraction(float(v)) for v in row] for row in model.T], dtype=object)
    return hmm_tensor_factors(O, T, task)


def identifiable(model: HMM | GaussianHMM, task: Task | str | Sequence[Task | str], *,
                 seed: SeedLike = None) -> Identifiability:
    r"""Is ``model`` identifiable from the optimal predictor of ``task``?  Which theorem says so?

    Runs the assumption checks, the Theorem 7/8 tensor with Kruskal's condition on its factors
    (two-token tasks; exact ranks for a discrete HMM), the Jacobian check
    (:func:`jacobian_deficiency`) and the recovery from the optimal predictor
    (:func:`recover_hmm` / :func:`recover_ghmm`), and names the statement of 004 §2.2 that
    decides (module docstring).

    Parameters
    ----------
    model : HMM or GaussianHMM
    task : Task, str or sequence of them
        E.g. ``'x2*x3|x1'`` (Theorems 7-8), ``'x2|x1'`` (Theorems 4-5), or the four pairwise
        tasks of Theorem 6.
    seed : keyword-only
        For the recovery's random contractions and the G-HMM's Jacobian points.

    Returns
    -------
    Identifiability
        ``identifiable`` (True / False / None), ``theorem``, ``reason`` and the evidence.

    Raises
    ------
    TypeError
        When ``model`` is not an HMM or a GaussianHMM, or ``task`` is not a task.

    References
    ----------
    .. [1] 004, §2.2: Theorems 4-8 and Proposition 1.

    Examples
    --------
    >>> m = HMM.random(5, 3, seed=0)
    >>> r = identifiable(m, "x2*x3|x1", seed=1)
    >>> r.identifiable, r.theorem, r.kruskal.verdict_certified, r.jacobian.deficiency
    (True, 'Theorem 7', True, 0)
    >>> r = identifiable(m, "x2|x1")
    >>> r.identifiable, r.theorem, r.jacobian.deficiency          # (k - 1)^2 flat directions
    (False, 'Theorem 4', 4)
    """
    if not isinstance(model, HMM | GaussianHMM):
        raise TypeError(f"model must be an HMM or a GaussianHMM, got {type(model).__name__}")
    tasks = _as_tasks(task)
    rng = as_generator(seed)
    report = model.check_assumptions()
    verdict, theorem, statement, hypotheses = _theorem(model, tasks)
    failed = [h for h in hypotheses if not report[h].holds]
    kruskal = recovery = errors = None
    two_token = next((t for t in tasks if t.case is not None), None)
    if two_token is not None:
        exact = _exact_factors(model, two_token) if isinstance(model, HMM) else None
        if exact is not None:
            kruskal = kruskal_condition(exact, method="exact", seed=rng)
        else:
            kruskal = kruskal_condition(masked_prediction_tensor(model, two_token).factors,
                                        method="svd", seed=rng)
        if model.k <= model.d:   # recovery needs k <= d (A7 / A8)
            recover = recover_hmm if isinstance(model, HMM) else recover_ghmm
            recovery = recover(optimal_predictor(model, two_token), model.k, seed=rng,
                               check="report")
            errors = recovery.errors_against(model)
    jacobian = jacobian_deficiency(model, tasks, seed=rng)
    if failed:
        reason = (f"{theorem or 'the theorems'} need {', '.join(hypotheses)}, and "
                  f"{', '.join(failed)} fail(s) for this model: no theorem decides; "
                  f"the Jacobian has {jacobian.deficiency} flat direction(s)")
        verdict, theorem = None, None
    elif theorem is None:
        reason = (f"{statement}; first-order evidence only: the Jacobian has "
                  f"{jacobian.deficiency} flat direction(s)")
    else:
        reason = statement
        if recovery is not None and errors is not None:
            worst = max(errors["emission"], errors["T"])
            reason += (f"; recovered to {worst:.1g}" if recovery.valid and worst < RECOVERY_TOL
                       else "; the recovery did not reproduce the model (see recovery)")
        if verdict is False:
            reason += f"; this model has {jacobian.deficiency} first-order flat direction(s)"
    return Identifiability(verdict, theorem, reason, model.kind, tasks, report, kruskal,
                           jacobian, recovery, errors,
                           {"hypotheses": hypotheses, "recovery_tol": RECOVERY_TOL})
