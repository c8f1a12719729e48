r"""Masked prediction tasks as values, and their optimal (squared-loss) predictors.

A task :math:`\otimes_{\tau\in\mathcal T} x_\tau \mid x_t` (004, eq. 2.35) is written
``Task("x2|x1")``, ``Task("x2⊗x3|x1")`` or, in ASCII, ``Task("x2*x3|x1")``; gaps
(``"x5|x1"``) and reverse tasks (``"x1|x3"``) are tasks like any other.  Its optimal predictor
is the conditional expectation

.. math::

    f(x) = \mathbb E\big[\otimes_{\tau\in\mathcal T} x_\tau \,\big|\, x_t = x\big]
         = \sum_{h} P(h_{\mathcal T} \mid x_t = x)\, \otimes_{\tau} E_{:, h_\tau},

with :math:`E = O` (HMM, one-hot tokens) or :math:`E = M` (G-HMM).  Under A5 the chain is
stationary with uniform marginals, so for sorted times :math:`s_1 < \dots < s_L` (the targets and
:math:`t`)

.. math::

    P(h_{s_1},\dots,h_{s_L} \mid x_t) = \phi(x_t)_{h_t}
        \prod_{l} \big(T^{s_{l+1}-s_l}\big)_{h_{s_{l+1}}, h_{s_l}},

with the posterior :math:`\phi` of footnote 8 (:meth:`HMM.posterior`,
:meth:`GaussianHMM.posterior`).  This one formula gives every closed form of the seed:
:math:`f^{2|1} = OT\phi`, :math:`f^{t|1} = OT^{t-1}\phi`, :math:`f^{1|2} = OT^\top\phi`,
:math:`f^{2\otimes 3|1} = O\,\mathrm{diag}(T\phi)(OT)^\top` (2.36) and
:math:`f^{1\otimes 3|2} = (OT^\top)\mathrm{diag}(\phi)(OT)^\top` (2.39).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from identifiability.errors import AssumptionError
from identifiability.markov import stochastic_power
from identifiability.masked.assumptions import ASSUMPTIONS
from identifiability.masked.hmm import HMM, GaussianHMM, _tokens_to_onehot
from seprank.core import check_array, check_int, guard_memory

__all__ = ["Predictor", "Task", "optimal_predictor", "predict_raw"]

_TOKEN = re.compile(r"^\s*x_?\{?(\d+)\}?\s*$")
_MAX_OUTPUT_ENTRIES = 50_000_000
#: Gaps up to this use numpy's matrix power (error ~ gap * 1e-16); beyond, the stationary
#: decomposition of :func:`identifiability.markov.stochastic_power`.
_DIRECT_GAP = 64


@dataclass(frozen=True, init=False)
class Task:
    r"""A masked prediction task :math:`\otimes_{\tau \in \mathcal T} x_\tau \mid x_t`.

    Parameters
    ----------
    spec : str or Task, optional
        ``"x2|x1"``, ``"x2⊗x3|x1"``, ``"x2*x3|x1"``, ``"x_3 | x_1"``.  Time indices are positive
        integers; targets are distinct and differ from the conditioning index.
    targets, given : keyword-only
        The same as tuples: ``Task(targets=(2, 3), given=1)``.  The order of the targets is the
        order of the predictor's output axes.

    References
    ----------
    .. [1] 004, §2.2.1.2, eq. (2.35).

    Examples
    --------
    >>> Task("x2*x3|x1")
    Task('x2⊗x3|x1')
    >>> Task("x2⊗x3|x1") == Task(targets=(2, 3), given=1)
    True
    >>> Task("x2|x1").reverse(), Task("x5|x1").gap
    (Task('x1|x2'), 4)
    >>> Task("x2⊗x3|x1").case, Task("x1*x3|x2").case, Task("x1*x2|x3").case
    (1, 2, 3)
    >>> Task("x1|x1")
    Traceback (most recent call last):
    ...
    ValueError: task 'x1|x1': the conditioning token x1 is also a target
    """

    targets: tuple[int, ...]
    given: int

    def __init__(self, spec: str | Task | None = None, *, targets: Any = None,
                 given: int | None = None) -> None:
        if isinstance(spec, Task):
            tg, gv = spec.targets, spec.given
        elif spec is not None:
            if targets is not None or given is not None:
                raise TypeError("give either a string or targets=/given=, not both")
            if not isinstance(spec, str):
                raise TypeError(f"spec must be a task string such as 'x2*x3|x1' (or a Task), "
                                f"got {spec!r} ({type(spec).__name__})")
            tg, gv = _parse(spec)
        else:
            if targets is None or given is None:
                raise TypeError("Task needs a string like 'x2|x1' or targets= and given=")
            if isinstance(targets, str | bytes):
                raise TypeError(f"targets must be integer time indices, got the string "
                                f"{targets!r} (use Task({targets!r}) for a task string)")
            # nothing is truncated: targets=(2.7,) is refused, not read as x2
            tg = tuple(check_int("targets (time indices)", t) for t in np.atleast_1d(targets))
            gv = check_int("given (the conditioning time index)", given)
        text = _format(tg, gv)
        if any(t < 1 for t in (*tg, gv)):
            raise ValueError(f"task {text!r}: time indices must be positive integers")
        if not tg:
            raise ValueError(f"task {text!r}: no target token")
        if len(set(tg)) != len(tg):
            raise ValueError(f"task {text!r}: a target appears twice")
        if gv in tg:
            raise ValueError(f"task {text!r}: the conditioning token x{gv} is also a target")
        object.__setattr__(self, "targets", tg)
        object.__setattr__(self, "given", gv)

    def __str__(self) -> str:
        return _format(self.targets, self.given)

    def __repr__(self) -> str:
        return f"Task({str(self)!r})"

    @property
    def ascii(self) -> str:
        """The ASCII spelling, with ``*`` for ``⊗``."""
        return str(self).replace("⊗", "*")

    @property
    def times(self) -> tuple[int, ...]:
        """All time indices involved, sorted."""
        return tuple(sorted({*self.targets, self.given}))

    @property
    def gap(self) -> int | None:
        """For a single-target task, ``target - given`` (negative for reverse tasks)."""
        return self.targets[0] - self.given if len(self.targets) == 1 else None

    def reverse(self) -> Task:
        """The time-reversed task: times :math:`s \\mapsto s_{min} + s_{max} - s`.

        Returns
        -------
        Task
            The reversed task.
        """
        lo, hi = min(self.times), max(self.times)
        return Task(targets=tuple(lo + hi - t for t in self.targets), given=lo + hi - self.given)

    @property
    def case(self) -> int | None:
        """Theorem 7/8 case for two targets on three adjacent times, else ``None``.

        1: the conditioning token is first (``x2⊗x3|x1``), 2: in the middle (``x1⊗x3|x2``),
        3: last (``x1⊗x2|x3``).  Shifts such as ``x3⊗x4|x2`` are the same case.
        """
        times = self.times
        if len(self.targets) != 2 or times != tuple(range(times[0], times[0] + 3)):
            return None
        return times.index(self.given) + 1


def _parse(spec: str) -> tuple[tuple[int, ...], int]:
    if spec.count("|") != 1:
        raise ValueError(f"cannot parse the task spec {spec!r}: expected one '|', e.g. "
                         "'x2⊗x3|x1'")
    left, right = spec.split("|")
    parts = re.split(r"⊗|\*", left)
    idx = []
    for part in (*parts, right):
        m = _TOKEN.match(part)
        if m is None:
            raise ValueError(f"cannot parse the task spec {spec!r}: {part.strip()!r} is not a "
                             "token like 'x2' or 'x_2'; targets are joined by '⊗' or '*'")
        idx.append(int(m.group(1)))
    return tuple(idx[:-1]), idx[-1]


def _format(targets: tuple[int, ...], given: int) -> str:
    return "⊗".join(f"x{t}" for t in targets) + f"|x{given}"


def _power(T: npt.NDArray[Any], n: int) -> npt.NDArray[Any]:
    """T^n: numpy's product for small gaps (and for complex or non-stochastic T, as the
    complex-step derivatives use), the stationary decomposition beyond (any gap, e.g.
    10**16, stays column-stochastic; :func:`identifiability.markov.stochastic_power`)."""
    if n <= _DIRECT_GAP or np.iscomplexobj(T):
        return np.linalg.matrix_power(T, n)
    return stochastic_power(T, n, convention="columns", atol=1e-6)


def _hidden_posterior(T: npt.NDArray[Any], phi: npt.NDArray[Any], task: Task
                      ) -> npt.NDArray[Any]:
    """P(h at target times | x_given), shape (n, k, ..., k), target axes in task order."""
    times = task.times
    letters = "abcdefghijklmnopqrstuvw"
    if len(times) > len(letters):
        raise ValueError(f"task {task} involves too many tokens")
    sym = {s: letters[i] for i, s in enumerate(times)}
    operands: list[Any] = [phi]
    subs = ["z" + sym[task.given]]
    for s0, s1 in itertools.pairwise(times):
        operands.append(_power(T, s1 - s0))
        subs.append(sym[s1] + sym[s0])
    out = "z" + "".join(sym[t] for t in task.targets)
    return np.einsum(",".join(subs) + "->" + out, *operands, optimize=True)


def predict_raw(emission: Any, T: Any, phi: Any, task: Task | str) -> npt.NDArray[Any]:
    r"""The predictor from raw parameters: posterior rows ``phi`` (n x k) at the inputs.

    Returns :math:`\sum_h P(h_{\mathcal T} \mid x)\otimes_\tau E_{:,h_\tau}` with shape
    ``(n,) + (d,) * len(task.targets)``.  No validation: :func:`optimal_predictor` is the
    checked entry point; this one serves derivatives (complex input stays complex) and
    counterexamples whose parameters leave the model class.

    Parameters
    ----------
    emission : array_like
        O (d x k) or M.
    T : array_like
        k x k transition matrix.
    phi : array_like
        Posterior rows, n x k.
    task : Task or str
        The task.

    Returns
    -------
    numpy.ndarray
        Shape ``(n,) + (d,) * len(task.targets)``.

    Examples
    --------
    >>> O = np.array([[0.6, 0.1], [0.4, 0.9]])
    >>> T = np.array([[0.7, 0.3], [0.3, 0.7]])
    >>> phi = O / O.sum(axis=1, keepdims=True)           # posteriors at both tokens
    >>> bool(np.allclose(predict_raw(O, T, phi, "x2|x1"), (O @ T @ phi.T).T))
    True
    """
    E, Tm, ph = (check_array(name, a, dtype=None) for name, a in
                 (("emission", emission), ("T", T), ("phi", phi)))
    if E.ndim != 2 or Tm.ndim != 2 or Tm.shape[0] != Tm.shape[1] or E.shape[1] != Tm.shape[0]:
        raise ValueError(f"emission must be d x k and T k x k, got {E.shape} and {Tm.shape}")
    dtype = np.result_type(E, Tm, ph, np.float64)  # complex input (complex-step) stays complex
    t = Task(task)
    n_out = float(np.atleast_2d(ph).shape[0]) * float(E.shape[0]) ** len(t.targets)
    guard_memory(3 * n_out * np.dtype(dtype).itemsize,
                 what=f"the predictor values of {t} at {np.atleast_2d(ph).shape[0]:,} inputs "
                      f"(d = {E.shape[0]})", fix="evaluate fewer inputs at once or use a "
                      "task with fewer targets")
    E, Tm, ph = E.astype(dtype), Tm.astype(dtype), ph.astype(dtype)
    P = _hidden_posterior(Tm, np.atleast_2d(ph), t)
    out = P
    for axis in range(1, P.ndim):
        out = np.moveaxis(np.tensordot(out, E, axes=([axis], [1])), -1, axis)
    return np.asarray(out)


@dataclass(frozen=True)
class Predictor:
    r"""The optimal predictor :math:`f(x) = \mathbb E[\otimes_\tau x_\tau \mid x_t = x]`.

    Call it on token indices or one-hot rows (HMM) or on points of :math:`\mathbb R^d`
    (G-HMM); a batch gives a leading batch axis.  ``table()`` (HMM) evaluates all d tokens.

    Parameters
    ----------
    model : HMM or GaussianHMM
        The model.
    task : Task
        The masked-prediction task.
    """

    model: HMM | GaussianHMM
    task: Task

    @property
    def d(self) -> int:
        return self.model.d

    @property
    def output_shape(self) -> tuple[int, ...]:
        return (self.d,) * len(self.task.targets)

    def __call__(self, x: Any) -> npt.NDArray[np.float64]:
        single = _is_single(x, self.model)
        phi = self.model.posterior(x)
        out = predict_raw(self.model.emission, self.model.T, np.atleast_2d(phi), self.task)
        return out[0] if single else out

    def table(self) -> npt.NDArray[np.float64]:
        """HMM only: ``f(e_j)`` for every token j, shape ``(d,) + output_shape``.

        Returns
        -------
        numpy.ndarray
            Shape ``(d,) + output_shape``.
        """
        if not isinstance(self.model, HMM):
            raise TypeError("table() enumerates the tokens of a discrete HMM")
        return self(np.arange(self.d))


def _is_single(x: Any, model: HMM | GaussianHMM) -> bool:
    arr = np.asarray(x)
    if isinstance(model, HMM):
        return arr.ndim == 0 or (arr.dtype.kind == "f" and arr.ndim == 1)
    return arr.ndim == 1


def optimal_predictor(model: HMM | GaussianHMM, task: Task | str) -> Predictor:
    r"""The closed-form optimal predictor of ``task`` under ``model`` (see the module docstring).

    Parameters
    ----------
    model : HMM or GaussianHMM
        Must satisfy A5 (the formulas use the uniform stationary law): checked here when
        the model was built without requiring it.
    task : Task or str

    Returns
    -------
    Predictor

    Raises
    ------
    AssumptionError
        When A5 fails for ``model`` (T not doubly stochastic, or a non-uniform start).

    References
    ----------
    .. [1] 004, §2.2.1.2 (2.35), §2.2.2 (before Theorem 4), (2.36),
       (2.39), (2.57), (2.70), (2.75).

    Examples
    --------
    >>> m = HMM([[0.6, 0.1], [0.4, 0.9]], [[0.7, 0.3], [0.3, 0.7]])
    >>> f = optimal_predictor(m, "x2|x1")
    >>> phi = m.posterior(0)
    >>> bool(np.allclose(f(0), m.O @ m.T @ phi))
    True
    >>> optimal_predictor(m, "x2*x3|x1")(0).shape
    (2, 2)
    """
    task = Task(task)
    if not isinstance(model, HMM | GaussianHMM):
        raise TypeError(f"model must be an HMM or GaussianHMM, got {type(model).__name__}")
    if "A5" not in model.require:      # A5 not checked on construction: check it now
        a5 = model.check_assumptions()["A5"]
        if not (a5.holds and model.uniform_start):
            why = a5.measured if not a5.holds else f"start = {model.start} is not uniform"
            raise AssumptionError("A5", f"{why}. The closed-form optimal predictors use the "
                                  "uniform stationary law of A5; balance T (sinkhorn) and "
                                  "start from the uniform law", description=ASSUMPTIONS["A5"])
    size = model.d ** len(task.targets) * model.k ** len(task.targets)
    if size > _MAX_OUTPUT_ENTRIES:
        raise ValueError(f"task {task} on d = {model.d}, k = {model.k} needs {size:.3g} entries "
                         "per input; use fewer targets")
    if isinstance(model, HMM):
        _tokens_to_onehot(0, model.d)  # d >= 1 sanity
    return Predictor(model, task)
