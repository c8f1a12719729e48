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

It always answers for an HMM or a G-HMM.  When a hypothesis of the deciding theorem fails (an
ordinary HMM whose T is not doubly stochastic violates A5; a rank-deficient O violates A7) the
verdict is ``None`` with the failing hypothesis and what would decide it
(``details['to_decide']``).  Without A5 the closed-form predictors do not apply, so no evidence is
computed; otherwise each piece of evidence (Kruskal, recovery, Jacobian) is estimated first --
memory under :mod:`seprank.core.memory`, arithmetic against ``max_work`` -- and skipped, with the
reason in ``details['skipped']``, when it would not fit: the Jacobian of the :math:`d^3`
predictor values has :math:`d^3 \times (k(d-1)+(k-1)^2)` entries (181 GiB at d = 300).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from identifiability.errors import AssumptionError
from identifiability.masked.assumptions import AssumptionReport
from identifiability.masked.hmm import HMM, GaussianHMM
from identifiability.masked.kruskal import KruskalCondition, kruskal_condition
from identifiability.masked.local import JacobianDeficiency, jacobian_deficiency
from identifiability.masked.recovery import RecoveredModel, recover_ghmm, recover_hmm
from identifiability.masked.tasks import Task, optimal_predictor
from identifiability.masked.tensors import hmm_tensor_factors, masked_prediction_tensor
from seprank.core import SeedLike, array_bytes, as_generator, check_float, guard_memory
from seprank.core.errors import MemoryBudgetError
from seprank.core.results import Result

__all__ = ["Identifiability", "identifiable"]

#: Largest d x k for which the HMM's Kruskal ranks are taken in exact rational arithmetic.
EXACT_KRUSKAL_MAX_ENTRIES = 400
#: Recovery errors below this (max abs, after relabelling) count as "recovered".
RECOVERY_TOL = 1e-6
#: Default arithmetic budget (multiply-adds) of each piece of evidence: seconds on one core.
DEFAULT_MAX_WORK = 1e10


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
    jacobian : JacobianDeficiency or None
        First-order flat directions (deficiency 0: locally identifiable); None when it was
        not computed (A5 fails, or over the budget: ``details['skipped']`` says why).
    recovery : RecoveredModel or None
        Jennrich's recovery from the optimal predictor (two-token tasks only).
    recovery_errors : dict or None
        ``errors_against(model)``: max abs errors of emission and T after relabelling.
    details : Mapping
        ``hypotheses`` and ``failed`` (the deciding theorem's hypotheses and those that fail),
        ``to_decide`` (what would decide when the verdict is None), ``skipped`` (evidence
        not computed, with the reason), ``max_work`` and the tolerances used.
    """

    identifiable: bool | None
    theorem: str | None
    reason: str
    kind: str
    tasks: tuple[Task, ...]
    assumptions: AssumptionReport
    kruskal: KruskalCondition | None
    jacobian: JacobianDeficiency | None
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
        if j is not None:
            rows.append(("Jacobian", f"rank {j.rank} of {j.n_params} parameters, "
                                     f"deficiency {j.deficiency}"))
        for name, why in dict(self.details.get("skipped", {})).items():
            rows.append((name, f"not computed: {why}"))
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
                 seed: SeedLike = None, max_work: float = DEFAULT_MAX_WORK) -> Identifiability:
    r"""Is ``model`` identifiable from the optimal predictor of ``task``?  Which theorem says so?

    Runs the assumption checks, the Theorem 7/8 tensor with Kruskal's condition on its factors
    (two-token tasks; exact ranks for a discrete HMM), the Jacobian check
    (:func:`jacobian_deficiency`) and the recovery from the optimal predictor
    (:func:`recover_hmm` / :func:`recover_ghmm`), and names the statement of 004 §2.2 that
    decides (module docstring).  It answers for every HMM and G-HMM: ``True``, ``False``, or
    ``None`` (no theorem covers the task, or a hypothesis fails) with the failing hypothesis
    and what would decide (``details['to_decide']``).

    Parameters
    ----------
    model : HMM or GaussianHMM
        Any model of either class, also one built with ``require=()`` that violates A5-A9.
    task : Task, str or sequence of them
        E.g. ``'x2*x3|x1'`` (Theorems 7-8), ``'x2|x1'`` (Theorems 4-5), or the four pairwise
        tasks of Theorem 6.
    seed : keyword-only
        For the recovery's random contractions and the G-HMM's Jacobian points.
    max_work : float, keyword-only
        Multiply-adds each piece of evidence may cost (estimated before it starts; default
        :data:`DEFAULT_MAX_WORK`, seconds).  Evidence over it, or over the memory limit
        (:func:`seprank.core.memory.get_memory_limit`), is skipped and listed in
        ``details['skipped']``; the theorem's verdict does not depend on it.

    Returns
    -------
    Identifiability
        ``identifiable`` (True / False / None), ``theorem``, ``reason`` and the evidence.

    Raises
    ------
    TypeError
        When ``model`` is not an HMM or a GaussianHMM, or ``task`` is not a Task, a task
        string or a sequence of them.
    ValueError
        When a task string cannot be parsed or names an impossible task, the sequence of
        tasks is empty, or ``max_work`` is not a positive number.

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
    >>> ordinary = HMM(m.O, [[0.9, 0.2, 0.1], [0.05, 0.7, 0.1], [0.05, 0.1, 0.8]], require=())
    >>> r = identifiable(ordinary, "x2*x3|x1")
    >>> r.identifiable, r.details["failed"]
    (None, ('A5',))
    """
    if not isinstance(model, HMM | GaussianHMM):
        raise TypeError(f"model must be an HMM or a GaussianHMM, got {type(model).__name__}")
    tasks = _as_tasks(task)
    max_work = check_float("max_work", max_work, positive=True)
    rng = as_generator(seed)
    report = model.check_assumptions()
    verdict, theorem, statement, hypotheses = _theorem(model, tasks)
    failed = tuple(h for h in hypotheses if not report[h].holds
                   or (h == "A5" and not model.uniform_start))
    skipped: dict[str, str] = {}
    kruskal = recovery = errors = jacobian = None
    two_token = next((t for t in tasks if t.case is not None), None)
    if "A5" in failed or "A6" in failed:
        why = ("the closed-form predictors use the uniform stationary law of A5, which fails "
               "for this model" if "A5" in failed else "A6 fails: the predictor is undefined "
               "at a token that is never emitted (a zero row of O)")
        skipped.update({"Kruskal (Proposition 1)": why, "recovery (Jennrich)": why,
                        "Jacobian": why})
    else:
        if two_token is not None:
            kruskal = _run(skipped, "Kruskal (Proposition 1)", _kruskal_cost(model), max_work,
                           lambda: _kruskal(model, two_token, rng))
            if model.k <= model.d:   # recovery needs k <= d (A7 / A8)
                recovery = _run(skipped, "recovery (Jennrich)", _recovery_cost(model),
                                max_work, lambda: _recover(model, two_token, rng))
                if recovery is not None:
                    errors = recovery.errors_against(model)
            else:
                skipped["recovery (Jennrich)"] = f"k = {model.k} > d = {model.d}"
        jacobian = _run(skipped, "Jacobian", _jacobian_cost(model, tasks), max_work,
                        lambda: jacobian_deficiency(model, tasks, seed=rng))
    flat = ("" if jacobian is None else
            f"; the Jacobian has {jacobian.deficiency} flat direction(s)")
    to_decide = None
    if failed:
        reason = (f"{theorem or 'the theorems'} need {', '.join(hypotheses)}, and "
                  f"{', '.join(failed)} fail(s) for this model "
                  f"({'; '.join(_measured(model, report, h) for h in failed)}): no theorem "
                  f"decides{flat}")
        to_decide = _to_decide(failed, model)
        verdict, theorem = None, None
    elif theorem is None:
        reason = f"{statement}; first-order evidence only{flat or ': none computed'}"
        to_decide = ("no theorem of 004 §2.2 covers these tasks: a Jacobian deficiency > 0 "
                     "shows local non-identifiability; deficiency 0 shows local "
                     "identifiability only (a global proof would decide)")
    else:
        reason = statement
        if recovery is not None and errors is not None:
            worst = max(errors["emission"], errors["T"])
            reason += (f"; recovered to {worst:.1g}" if recovery.valid and worst < RECOVERY_TOL
                       else "; the recovery did not reproduce the model (see recovery)")
        if verdict is False and jacobian is not None:
            reason += f"; this model has {jacobian.deficiency} first-order flat direction(s)"
    return Identifiability(verdict, theorem, reason, model.kind, tasks, report, kruskal,
                           jacobian, recovery, errors,
                           {"hypotheses": hypotheses, "failed": failed, "to_decide": to_decide,
                            "skipped": skipped, "max_work": max_work,
                            "recovery_tol": RECOVERY_TOL})


def _measured(model: HMM | GaussianHMM, report: AssumptionReport, name: str) -> str:
    if name == "A5" and report[name].holds:
        return f"A5: the start law {model.start} is not uniform"
    return f"{name}: {report[name].measured}"


def _to_decide(failed: tuple[str, ...], model: HMM | GaussianHMM) -> str:
    """What would decide when a hypothesis fails."""
    parts = []
    if "A5" in failed:
        parts.append("A5: the theorems of 004 §2.2 assume a doubly stochastic T with a uniform "
                     "start; a model balanced to satisfy it (sinkhorn(T), uniform start) is "
                     "decided by them, this one is outside their scope")
    rank = {"A7", "A8"} & set(failed)
    if rank:
        parts.append(f"{'/'.join(sorted(rank))}: with rank T or rank of the emission "
                     f"below k = {model.k} the model has fewer effective states; decide the "
                     "reduced model, or check Kruskal's condition on the factors "
                     "(kruskal_condition) as sufficient evidence")
    if "A6" in failed:
        parts.append("A6: drop the tokens that are never emitted (zero rows of O) and ask "
                     "again for the reduced model")
    if "A9" in failed:
        parts.append("A9: rescale the means to unit vectors (a different model class)")
    return "; ".join(parts)


def _run(skipped: dict[str, str], name: str, cost: tuple[float, float], max_work: float,
         compute: Any) -> Any:
    """``compute()`` when its estimated (bytes, multiply-adds) fit the memory limit and
    ``max_work``; else None with the reason in ``skipped``.  A step that fails on this
    model (a degenerate factor, a refused subset search) is skipped with its message."""
    n_bytes, work = cost
    try:
        guard_memory(n_bytes, what=f"the {name} evidence", fix="")
    except MemoryBudgetError as err:
        skipped[name] = str(err).split(";")[0]
        return None
    if work > max_work:
        skipped[name] = (f"about {work:.2g} multiply-adds > max_work = {max_work:.2g} "
                         "(raise max_work to compute it)")
        return None
    try:
        return compute()
    except (AssumptionError, ValueError, ArithmeticError, np.linalg.LinAlgError,
            MemoryError) as err:
        skipped[name] = f"{type(err).__name__}: {err}"
        return None


def _kruskal(model: HMM | GaussianHMM, task: Task, rng: np.random.Generator
             ) -> KruskalCondition:
    if isinstance(model, HMM):
        exact = _exact_factors(model, task)
        if exact is not None:
            return kruskal_condition(exact, method="exact", seed=rng)
        # the closed-form factors, without the d^3 tensor they reconstruct
        return kruskal_condition(hmm_tensor_factors(model.O, model.T, task), method="svd",
                                 seed=rng)
    return kruskal_condition(masked_prediction_tensor(model, task).factors, method="svd",
                             seed=rng)


def _recover(model: HMM | GaussianHMM, task: Task, rng: np.random.Generator
             ) -> RecoveredModel:
    recover = recover_hmm if isinstance(model, HMM) else recover_ghmm
    return recover(optimal_predictor(model, task), model.k, seed=rng, check="report")


def _kruskal_cost(model: HMM | GaussianHMM) -> tuple[float, float]:
    """The tensor's factors (d x k, three of them) and their ranks; float SVDs of subsets."""
    d, k = model.d, model.k
    if isinstance(model, HMM):        # the three d x k factors (object arrays when exact)
        return 64.0 * array_bytes((d, k)), 10.0 * d * k ** 3
    return 8.0 * array_bytes((k, d, d)), 10.0 * d * k ** 3 + 4.0 * k * d * d * k


def _recovery_cost(model: HMM | GaussianHMM) -> tuple[float, float]:
    """The predictor's d^3 table (with copies); Jennrich's two d x d^2 Gram matrices (d^4
    each, with their subspace step) and its d^3 k contractions and reconstruction."""
    d, k = model.d, model.k
    return 6.0 * array_bytes((d, d, d)), 4.0 * float(d) ** 4 + 20.0 * float(d) ** 3 * k


def _jacobian_cost(model: HMM | GaussianHMM, tasks: tuple[Task, ...]) -> tuple[float, float]:
    """The complex-step Jacobian: rows x n_params floats (and its SVD), one complex predictor
    evaluation per parameter."""
    d, k = model.d, model.k
    n_params = k * (d - 1) + (k - 1) ** 2
    per_input = sum(float(d) ** len(t.targets) for t in tasks)
    n_inputs = d if isinstance(model, HMM) else 2 * max(40, 2 * -(-n_params // max(
        1, int(per_input))))
    rows = n_inputs * per_input
    n_bytes = 3.0 * 8 * rows * n_params + 4.0 * 16 * rows * k
    work = n_params * rows * k * 2 + rows * float(n_params) ** 2 * 4
    return n_bytes, work
