r"""The result of a separation-rank computation, and the checks every entry point shares.

:class:`SeparationRankResult` says what its rank certifies about
:math:`\operatorname{sep}_{(A,B)}(f)` and keeps the history of the template rounds
(:class:`RoundRecord`); :func:`validate_partition` checks a partition (A, B) of the positions;
:func:`accepts_domain` tells whether a function evaluates natively in a number domain.

A certified grid rank ships its certificate (:meth:`SeparationRankResult.certificate`, kind
``grid_rank``): a non-zero r x r minor of one grid matricization proves
:math:`\operatorname{sep}_{(A,B)}(f) \ge r` (003, Claim 1); the checker
(:mod:`seprank.certificates.verify`) recomputes the minor's entries from the function's
parameters and the templates.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from seprank.certificates.build import (
    bind_subject,
    certificate_header,
    exact_json,
    function_spec,
    json_array,
)
from seprank.core.results import Certificate, RankValued, SeparationMethod
from seprank.core.validation import check_int

__all__ = [
    "GridEvidence",
    "GridMinor",
    "RoundRecord",
    "SeparationRankResult",
    "StopReason",
    "accepts_domain",
    "validate_partition",
]

StopReason = Literal["saturated", "upper_bound", "fixed", "memory_limit", "max_templates",
                     "time_limit", "max_rounds", "symbolic"]
#: Stops after which the rank stopped growing (or is exact); every other stop is "not saturated".
SATURATED_STOPS: tuple[str, ...] = ("saturated", "upper_bound", "symbolic")


@dataclass(frozen=True)
class RoundRecord:
    """One round of template growth: templates used, matrix shape after de-duplication, rank.

    Parameters
    ----------
    n_templates : int
        Templates used in the round.
    rows, cols : int
        Shape of the grid matrix after de-duplication.
    rank : int
        Its rank.
    seconds : float
        Wall time of the round.
    """

    n_templates: int
    rows: int
    cols: int
    rank: int
    seconds: float


@dataclass(frozen=True)
class GridMinor:
    """A non-zero minor of a grid matrix: the witness of a certified lower bound.

    Attributes
    ----------
    rows, cols : tuple of tuple of int
        For each row (column) of the minor, the template index at each position of A (of B),
        in the order of the partition.
    entries : tuple of tuple
        The engine's values of the minor (residues mod p, or exact rationals).
    prime : int
        A prime modulo which the minor's determinant is non-zero.
    seconds : float
        Time spent finding it (echelon forms; plus the grid when it was re-evaluated).
    """

    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    entries: tuple[tuple[Any, ...], ...]
    prime: int
    seconds: float


@dataclass(frozen=True, eq=False)
class GridEvidence:
    """What a grid rank rests on: the function, the last round's templates, the arithmetic,
    and a non-zero minor of its matrix (found during the computation with
    ``separation_rank(..., keep_witness=True)``, otherwise on demand by re-evaluating the last
    grid).  :meth:`SeparationRankResult.certificate` turns it into a certificate.

    Attributes
    ----------
    function : callable
        The batch function f.
    n_inputs, dim : int
        N and the dimension of a template.
    templates : numpy.ndarray
        The last round's templates (residues for GF(p), integers for exact).
    prime : int or None
        The prime of the GF(p) evaluation (None: f was evaluated exactly over Q).
    kept_minor : GridMinor or None
        The non-zero minor kept during the computation (None: found on demand).
    finder : callable or None
        Finds a minor by re-evaluating the last grid.
    """

    function: Callable[..., Any]
    n_inputs: int
    dim: int
    templates: Any
    prime: int | None
    kept_minor: GridMinor | None = None
    finder: Callable[[], GridMinor] | None = None
    _cache: dict[str, GridMinor] = field(default_factory=dict, repr=False)

    @property
    def arithmetic(self) -> str:
        """``'GF(p)'`` or ``'Q'``."""
        return "Q" if self.prime is None else "GF(p)"

    def minor(self) -> GridMinor:
        """The kept minor, or one found now (one grid evaluation and one echelon form).

        Returns
        -------
        GridMinor
            A non-zero r x r minor of the last grid matrix.
        """
        if self.kept_minor is not None:
            return self.kept_minor
        if "minor" not in self._cache:
            if self.finder is None:
                raise ValueError("this result kept no way to find its minor")
            self._cache["minor"] = self.finder()
        return self._cache["minor"]


@dataclass(frozen=True, repr=False)
class SeparationRankResult(RankValued):
    """A separation-rank computation and what it certifies.

    Attributes
    ----------
    rank : int
        The rank found (of the last, largest matricization, or of the coefficient matrix).
    certifies : {'exact', 'lower_bound', 'none'}
        What ``rank`` certifies about :math:`\\operatorname{sep}_{(A,B)}(f)`:
        ``'lower_bound'`` for the grid methods ``'modular'`` and ``'exact'`` (Claim 1: any grid
        gives a lower bound), ``'exact'`` for ``'symbolic'``, ``'none'`` for ``'svd'``.
    method : str
        The method used.
    partition : (tuple, tuple)
        The partition (A, B), 0-based positions.
    stop_reason : str
        ``'saturated'`` (the last ``patience`` rounds gave the same rank), ``'upper_bound'``
        (the rank reached ``upper_bound``), ``'fixed'`` (one round with given templates),
        ``'memory_limit'`` / ``'max_templates'`` / ``'time_limit'`` / ``'max_rounds'`` (growth
        stopped by a limit or the budget: the rank is still a certified lower bound, but **not
        saturated** -- see :attr:`status`), ``'symbolic'``.
    n_templates : int
        Template vectors in the last round.
    matrix_shape : (int, int)
        Shape of the last matricization after removing duplicate rows and columns.
    history : tuple of RoundRecord
        Every round.
    seconds : float
        Wall time.
    upper_bound : int or None
        The bound given by the caller.
    details : Mapping
        Prime, domain, templates range, the rank result of the last round, notes.
    evidence : GridEvidence or None
        What a certificate needs (grid methods 'modular' and 'exact'): :meth:`certificate`.
    """

    rank: int
    certifies: Certificate
    method: SeparationMethod
    partition: tuple[tuple[int, ...], tuple[int, ...]]
    stop_reason: StopReason
    n_templates: int
    matrix_shape: tuple[int, int]
    history: tuple[RoundRecord, ...]
    seconds: float
    upper_bound: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)
    evidence: GridEvidence | None = field(default=None, compare=False)

    @property
    def reached_upper_bound(self) -> bool:
        """True when ``rank == upper_bound``: if that bound is proven, sep equals ``rank``."""
        return self.upper_bound is not None and self.rank == self.upper_bound

    @property
    def saturated(self) -> bool:
        """True when the growth stopped because the rank stopped growing (or reached the upper
        bound, or is exact); False when a limit or the budget ended it (:attr:`status`)."""
        return self.stop_reason in SATURATED_STOPS

    @property
    def status(self) -> str:
        """Saturated or not, why the growth stopped, and what was reached."""
        return growth_status(self.stop_reason, self.rank, self.history, self.details)

    def summary(self) -> str:
        """One line in words: the value, what it certifies, the key evidence.

        Returns
        -------
        str
            One line: the value, what it certifies, the key evidence.
        """
        what = {"lower_bound": "certified lower bound on sep",
                "exact": "exact separation rank", "none": "float estimate, certifies nothing"}
        return (f"sep_(A,B) {'>=' if self.certifies == 'lower_bound' else '='} {self.rank} "
                f"({what[self.certifies]}; method {self.method}, {self.status}, "
                f"{self.seconds:.2f} s)")

    def certificate(self, *, function: Mapping[str, Any] | None = None,
                    statement: str | None = None) -> dict[str, Any]:
        r"""The certificate of a certified separation rank (``separation_rank`` with method
        ``'modular'`` or ``'exact'``): :math:`\operatorname{sep}_{(A,B)}(f) \ge r`.

        The certificate (kind ``grid_rank``) carries the function's parameters
        (:func:`~seprank.certificates.function_spec`), the templates, the template tuples of the
        rows and columns of a non-zero r x r minor of the last grid matrix, the engine's values
        of that minor and the prime.  The minor was kept during the computation
        (``keep_witness=True``) or is found now by re-evaluating the last grid.

        Parameters
        ----------
        function : Mapping, optional, keyword-only
            Describe f yourself (e.g. :func:`~seprank.certificates.polynomial_function`) when it
            is opaque code.
        statement : str, optional, keyword-only
            What the bound means for the caller (default: the generic sentence).

        Returns
        -------
        dict
            The ``grid_rank`` certificate (JSON-serialisable), checked by
            :func:`seprank.certificates.verify`.

        Raises
        ------
        ValueError
            For a result without grid evidence (``'svd'``, ``'symbolic'``).

        References
        ----------
        .. [1] 003, App. B.1, Claim 1 (grid matricizations bound sep from below).

        Examples
        --------
        >>> from seprank import LinearAttention
        >>> from seprank.certificates import verify
        >>> net = LinearAttention.random(depth=1, width=2, seed=0)
        >>> r = net.separation_rank(position=0, coordinate=0, partition=([0], [1]),
        ...                         n_inputs=2, seed=0, keep_witness=True, structure="dense")
        >>> cert = r.certificate()
        >>> cert["kind"], cert["claim"]["value"] == r.rank, len(cert["rows"]) == r.rank
        ('grid_rank', True, True)
        >>> v = verify(cert)
        >>> v.ok, v.recomputed
        (True, True)
        """
        ev = self.evidence
        if ev is None:
            raise ValueError(f"a {self.method!r} separation rank has no grid evidence: only the "
                             "grid methods 'modular' and 'exact' certify a rank with a minor")
        minor = ev.minor()
        A, B = self.partition
        claim = {"quantity": "sep_(A,B)(f)", "relation": ">=", "value": self.rank,
                 "statement": statement or (f"sep_({A},{B})(f) >= {self.rank}: a non-zero "
                                            f"{self.rank} x {self.rank} minor of a grid "
                                            "matricization (003, Claim 1)")}
        cert = certificate_header("grid_rank", claim, method=self.method,
                                  stop_reason=self.stop_reason, seconds=self.seconds,
                                  witness_seconds=minor.seconds,
                                  witness_kept=ev.kept_minor is not None)
        cert.update({
            "function": dict(function) if function is not None else function_spec(ev.function),
            "n_inputs": ev.n_inputs, "dim": ev.dim, "partition": [list(A), list(B)],
            "arithmetic": ev.arithmetic, "prime": minor.prime,
            "templates": json_array(ev.templates),
            "rows": [list(t) for t in minor.rows], "cols": [list(t) for t in minor.cols],
            "entries": [[exact_json(v) for v in row] for row in minor.entries],
        })
        return bind_subject(cert)

    def _repr_info(self) -> dict[str, Any]:
        return {"rank": self.rank, "certifies": self.certifies, "method": self.method,
                "stop_reason": self.stop_reason, "saturated": self.saturated,
                "n_templates": self.n_templates, "partition": self.partition}

    def _display_fields(self) -> list[tuple[str, Any]]:
        # what a researcher reads first: the value, what it certifies, whether the growth
        # saturated (in words), the partition, method and time; the engine's internals below
        info = self._repr_info()
        first = [("rank", self.rank), ("certifies", self.certifies), ("status", self.status),
                 ("partition", self.partition), ("method", self.method),
                 ("seconds", round(self.seconds, 2))]
        shown = {k for k, _ in first}
        return [*first, *((k, v) for k, v in info.items() if k not in shown),
                *((k, v) for k, v in self.details.items() if k not in shown and k not in info)]

    def _display_math(self) -> str | None:
        relation = {"lower_bound": r"\ge", "exact": "=", "none": r"\approx"}[self.certifies]
        A, B = self.partition
        return (rf"\operatorname{{sep}}_{{\{{{','.join(map(str, A))}\}},"
                rf"\{{{','.join(map(str, B))}\}}}}(f) {relation} {self.rank}")

    def _display_table(self) -> tuple[tuple[str, ...], list[tuple[Any, ...]]] | None:
        if not self.history:
            return None
        return (("round templates", "matrix", "rank", "seconds"),
                [(r.n_templates, f"{r.rows}x{r.cols}", r.rank, round(r.seconds, 2))
                 for r in self.history])


def growth_status(stop: StopReason, rank: int, history: tuple[RoundRecord, ...],
                  notes: dict[str, Any] | Any = None) -> str:
    """One sentence on a growth loop's stop: ``'saturated'`` / ``'not saturated'`` and why.

    Examples
    --------
    >>> history = (RoundRecord(4, 16, 16, 9, 0.01), RoundRecord(8, 64, 64, 9, 0.02))
    >>> print(growth_status("saturated", 9, history))
    saturated: the last rounds gave the same rank; rank 9 after 2 round(s), 8 templates, matrix
    64x64
    >>> growth_status("memory_limit", 9, history).split(";")[0]
    'not saturated: the next round would exceed the memory limit'
    """
    rounds = len(history)
    last = history[-1] if history else None
    if stop == "symbolic":
        shape = f" of the {last.rows}x{last.cols} coefficient matrix" if last else ""
        return f"exact: rank {rank}{shape}"
    reached = (f"rank {rank} after {rounds} round(s), {last.n_templates} templates, matrix "
               f"{last.rows}x{last.cols}" if last is not None else f"rank {rank}")
    why = {
        "saturated": "saturated: the last rounds gave the same rank",
        "upper_bound": "reached the upper bound",
        "fixed": "not saturated (fixed templates: one round, saturation not tested)",
        "memory_limit": "not saturated: the next round would exceed the memory limit",
        "max_templates": "not saturated: the next round would exceed max_templates",
        "time_limit": "not saturated: the next round would exceed the time budget",
        "max_rounds": "not saturated: the round budget is used up",
    }[stop]
    extra = (notes or {}).get("budget") if stop in ("time_limit", "max_rounds") else None
    return f"{why}; {reached}" + (f" ({extra})" if extra else "")


def validate_partition(
    partition: tuple[Sequence[int], Sequence[int]], n_inputs: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Check that ``partition`` = (A, B) splits ``range(n_inputs)`` into two non-empty parts.

    Parameters
    ----------
    partition : (sequence of int, sequence of int)
        The parts (A, B).
    n_inputs : int
        N, the number of positions.

    Returns
    -------
    (tuple of int, tuple of int)
        A and B as tuples of ints.

    Examples
    --------
    >>> validate_partition(([0, 2], [1, 3]), 4)
    ((0, 2), (1, 3))
    >>> validate_partition(([0], [0, 1]), 2)
    Traceback (most recent call last):
    ...
    ValueError: partition ([0], [0, 1]) is not a partition of the positions 0..1: ...
    """
    n_inputs = check_int("n_inputs", n_inputs, 2)
    try:
        A_raw, B_raw = partition
        for part in (A_raw, B_raw):  # positions, not bools (numpy's included)
            if isinstance(part, str | bytes) or any(isinstance(v, bool | np.bool_)
                                                    or not isinstance(v, numbers.Integral)
                                                    for v in part):
                raise TypeError("not integer positions")
        A = tuple(int(a) for a in A_raw)
        B = tuple(int(b) for b in B_raw)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"partition must be a pair (A, B) of sequences of integer positions (bools are "
            f"not positions), got {partition!r}"
        ) from err
    problems = []
    if not A or not B:
        problems.append("both parts must be non-empty")
    if len(set(A)) != len(A) or len(set(B)) != len(B):
        problems.append("a part repeats a position")
    if set(A) & set(B):
        problems.append(f"positions {sorted(set(A) & set(B))} are in both parts")
    union = set(A) | set(B)
    extra = sorted(p for p in union if not 0 <= p < n_inputs)
    n_missing = n_inputs - (len(union) - len(extra))   # no set of range(n_inputs) built
    if extra or n_missing:
        missing: Any = (sorted(set(range(n_inputs)) - union) if n_inputs <= 10**6
                        else f"{n_missing} of them")
        problems.append(f"missing positions {missing}, unknown positions {extra}"
                        " (positions are 0-based)")
    if problems:
        raise ValueError(
            f"partition {partition!r} is not a partition of the positions 0..{n_inputs - 1}: "
            + "; ".join(problems)
        )
    return A, B


def accepts_domain(f: Callable[..., Any]) -> bool:
    """True when ``f`` takes a ``domain=`` keyword (or ``**kwargs``): it can then compute in
    GF(p) or exactly itself, as :meth:`seprank.LinearAttention.entry` does.

    Parameters
    ----------
    f : callable
        The batch function.

    Returns
    -------
    bool
        Whether f takes a ``domain=`` keyword (or ``**kwargs``).
    """
    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "domain" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)
