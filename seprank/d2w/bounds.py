r"""The vocabulary of paper 003's bounds: C(L), multiset coefficients, the regimes, and Bound.

Notation (003): depth L, width :math:`d_x`, H heads, :math:`d_a = d_x / H`, N input
positions, :math:`C(L) = (3^L - 1)/2` (:func:`mixing_units`),
:math:`(\!(n\ k)\!) = \binom{n+k-1}{k}` (:func:`multiset_coefficient`), and the two regimes
:math:`L < \log_3 d_x` / :math:`L > \log_3 d_x` (:func:`regime`).  Every bound of the paper
(:mod:`seprank.d2w.theorems`, :mod:`seprank.d2w.lemmas`) is a :class:`Bound`.

References
----------
.. [1] 003 (Levine et al., "The Depth-to-Width Interplay in Self-Attention", NeurIPS 2020),
   §3 (eq. 5), eqs. 7-8.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, ParamSpec, TypeVar

from seprank.core.display import html_table, markdown_table, summarize
from seprank.core.errors import OutsideHypothesesError
from seprank.core.log3 import (
    EXACT_BITS_LIMIT,
    Log3Value,
    compare,
)
from seprank.core.validation import check_int

__all__ = [
    "Bound",
    "OutsideHypothesesError",
    "Regime",
    "mixing_units",
    "multiset_coefficient",
    "regime",
]

Regime = Literal["depth_efficient", "depth_inefficient", "boundary"]
Kind = Literal["upper", "lower"]
EVERY = "every weight assignment"
ALMOST_EVERY = "almost every weight assignment (all but a Lebesgue-null set)"


_P = ParamSpec("_P")
_R = TypeVar("_R")


def keyword_only(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Refuse positional arguments to a bound with a ``TypeError`` that names its keywords.

    ``(width, depth)`` and ``(depth, width)`` are both natural orders, and a swapped call returns
    a valid bound of *another* network; so the bounds take keywords only, and a positional
    call is told the keywords (Python's own message only counts the arguments).
    """
    names = [name for name, parameter in inspect.signature(function).parameters.items()
             if parameter.kind is inspect.Parameter.KEYWORD_ONLY]

    @functools.wraps(function)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if args:
            shown = ", ".join(f"{name}=..." for name in names[:len(args)] or names)
            raise TypeError(
                f"{function.__name__}() takes keyword arguments only "
                f"({', '.join(names)}); got {len(args)} positional argument(s) "
                f"{', '.join(map(repr, args))} -- write {function.__name__}({shown})")
        return function(*args, **kwargs)

    return call


#: Largest depth the bounds accept: their exponents are :math:`3^L`-sized integers whose base-2
#: logarithms must fit a double (3^645 ~ 1.8e308); 600 leaves a margin.
MAX_DEPTH = 600


def check_depth(depth: Any, minimum: int = 1) -> int:
    """``depth`` as an int in ``[minimum, MAX_DEPTH]`` (named "depth L" in the message)."""
    L = check_int("depth L", depth, minimum)
    if L > MAX_DEPTH:
        raise ValueError(f"depth L = {L} is above {MAX_DEPTH}: the bounds are built from "
                         f"3^L-sized exact integers (3^{L} has ~{int(L * 0.477)} digits), which "
                         "this library does not handle beyond that; work with log3 values of "
                         "the formulas instead")
    return L


def network_shape(width: Any, depth: Any, heads: Any) -> tuple[int, int, int]:
    d_x = check_int("width d_x", width)
    L = check_depth(depth)
    H = check_int("heads H", heads)
    if d_x % H:
        raise ValueError(
            f"the width d_x = {d_x} is not divisible by the number of heads H = {H}; "
            "the head dimension d_a = d_x / H must be an integer"
        )
    return d_x, L, H


def mixing_units(depth: int) -> int:
    r""":math:`C(L) = (3^L - 1)/2`: the positions summed over in eq. 4 and the number of
    :math:`M` units of Lemma 1; :math:`C(L+1) = 3C(L) + 1` and the output has degree
    :math:`2C(L) + 1 = 3^L`.

    Parameters
    ----------
    depth : int
        L, the number of layers (>= 0).

    Returns
    -------
    int
        :math:`C(L) = (3^L - 1)/2`.

    References
    ----------
    .. [1] Paper 003, eq. 4, Lemma 1 (App. A.1), Theorems 3-4.

    Examples
    --------
    >>> [mixing_units(L) for L in range(1, 6)]
    [1, 4, 13, 40, 121]
    """
    L = check_depth(depth)
    return (3**L - 1) // 2


def multiset_coefficient(n: int, k: int) -> int:
    r"""The multiset coefficient :math:`(\!(n\ k)\!) = \binom{n+k-1}{k}`: the number of
    :math:`(a_1..a_n) \in \mathbb Z_{\ge 0}^n` with :math:`\sum a_r = k` (exact integer).

    Parameters
    ----------
    n : int
        Number of parts (>= 0).
    k : int
        Their sum (>= 0).

    Returns
    -------
    int
        :math:`\binom{n+k-1}{k}` (1 for k = 0; 0 for n = 0 < k).

    References
    ----------
    .. [1] Paper 003, App. A.3 (the identity before Theorem 4), App. B.2.

    Examples
    --------
    >>> multiset_coefficient(14, 3), multiset_coefficient(2, 27), multiset_coefficient(0, 0)
    (560, 28, 1)
    """
    n, k = check_int("n", n, None), check_int("k", k, None)
    n, k = int(n), int(k)
    if n < 0 or k < 0:
        raise ValueError(f"((n k)) needs n >= 0 and k >= 0, got n={n}, k={k}")
    if n == 0:
        return 1 if k == 0 else 0
    return math.comb(n + k - 1, k)


def regime(width: int, depth: int) -> Regime:
    r"""Which theorem of paper 003 covers depth L at width :math:`d_x` (decided exactly).

    * ``'depth_efficient'``: :math:`L < \log_3 d_x` (i.e. :math:`3^L < d_x`), Theorem 1;
    * ``'depth_inefficient'``: :math:`L > \log_3 d_x` (:math:`3^L > d_x`), Theorem 2;
    * ``'boundary'``: :math:`3^L = d_x` -- covered by neither theorem (notes §7.1).

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension.
    depth : int
        L, the number of layers.

    Returns
    -------
    {'depth_efficient', 'boundary', 'depth_inefficient'}
        The regime.

    References
    ----------
    .. [1] 003, §4 (the regimes of Theorems 1 and 2); reading notes
       §7.1 (the boundary).

    Examples
    --------
    >>> regime(29, 3), regime(27, 3), regime(5, 2)
    ('depth_efficient', 'boundary', 'depth_inefficient')
    """
    d_x = check_int("width d_x", width)
    L = check_depth(depth)
    power = 3**L
    if power < d_x:
        return "depth_efficient"
    return "boundary" if power == d_x else "depth_inefficient"


@dataclass(frozen=True)
class Bound:
    r"""A bound on :math:`\operatorname{sep}(y^{i,L,d_x,H,\Theta}_p)` and its provenance.

    Attributes
    ----------
    statement : str
        Which statement (e.g. ``'Theorem 3 (App. A.2)'``).
    kind : {'upper', 'lower'}
    log3 : mpmath number
        :math:`\log_3` of the bound, 60 significant digits.
    exact : (Fraction, int) or None
        ``(X, q)`` with bound\ :sup:`q` = X exactly (q = 1 or 2), if rational and not huge.
    holds_for : str
        ``'every weight assignment'`` or ``'almost every weight assignment ...'``.
    hypotheses : tuple of str
        The statement's hypotheses, as printed.
    violated : tuple of str
        Hypotheses this call does not satisfy (empty inside the hypotheses).
    notes : tuple of str
        Caveats (proof scope, known misprints).

    Notes
    -----
    Comparisons: ``rank <= bound`` (a number) is exact; ``result <= bound`` (a rank result
    against an upper bound, ``>=`` against a lower one) is :meth:`admits`: True when the
    measurement is consistent with the bound, False only for a certain violation (a certified
    lower bound above an upper bound).  ``bound == 81`` raises ``TypeError`` (use ``.value``).

    Examples
    --------
    >>> from seprank.d2w import theorem3_upper
    >>> bound = theorem3_upper(width=2, depth=2)
    >>> bound.value, 18 <= bound, 82 <= bound
    (81, True, False)
    """

    statement: str
    kind: Kind
    log3: Any
    exact: tuple[Fraction, int] | None
    holds_for: str
    hypotheses: tuple[str, ...]
    violated: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def in_hypotheses(self) -> bool:
        return not self.violated

    @property
    def value(self) -> int | Fraction | float:
        """The bound itself: exact (int / Fraction) when known, else a float (may be inf)."""
        if self.exact is not None and self.exact[1] == 1:
            X = self.exact[0]
            return int(X) if X.denominator == 1 else X
        try:
            return float(3 ** float(self.log3))
        except OverflowError:
            return math.inf

    def as_log3value(self) -> Log3Value:
        r"""The bound as a :class:`~seprank.core.log3.Log3Value` (for exact comparisons).

        Returns
        -------
        Log3Value
            Its :math:`\log_3` and its exact value when known.
        """
        return Log3Value(self.log3, self.exact)

    def admits(self, rank: int) -> bool | None:
        """Whether a rank is consistent with this bound (``None`` if undecidable: a tie).

        For an upper bound: ``rank <= bound``.  A measured *certified lower bound* on sep that
        exceeds an upper bound is a certain violation.  For a lower bound (an almost-everywhere
        statement): ``rank >= bound``.

        Parameters
        ----------
        rank : int
            A separation rank: for an upper bound, a certified lower bound on sep; for a lower
            bound, the separation rank of a generic network.

        Returns
        -------
        bool or None
            Whether ``rank`` is consistent with the bound; None for an undecidable tie.
        """
        c = compare(Log3Value.of(int(rank)), self.as_log3value())
        if c is None:
            return None
        return c <= 0 if self.kind == "upper" else c >= 0

    # -- comparisons ------------------------------------------------------------------------
    # ``rank <= bound`` compares numbers exactly; ``result <= bound`` (a rank result against an
    # upper bound, ``>=`` against a lower bound) is :meth:`admits`: True when the measurement is
    # consistent with the bound, False only for a certain violation.  ``bound == 81`` refuses.

    def _relate(self, other: Any, op: str) -> bool:
        """``other <op> self`` for a number or a rank result (``op`` as seen by ``other``)."""
        if isinstance(other, Bound):
            raise TypeError(f"comparing two Bounds ({op}) is not defined; compare their "
                            ".value or .as_log3value()")
        if hasattr(other, "certifies") and hasattr(other, "rank"):
            return self._relate_result(other, op)
        if not isinstance(other, numbers.Rational) or isinstance(other, bool):
            return NotImplemented
        c = compare(Log3Value.of(Fraction(int(other.numerator), int(other.denominator))),
                    self.as_log3value())
        if c is None:
            raise ValueError(f"{other} {op} {self!r} is undecidable: the two agree to 60 "
                             "digits in log3 and the bound has no exact form")
        return {"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]

    def _relate_result(self, result: Any, op: str) -> bool:
        name = type(result).__name__
        wanted = "<=" if self.kind == "upper" else ">="
        if op != wanted:
            raise TypeError(
                f"{name} {op} {self.kind} Bound is not defined: a measured rank is compared "
                f"with an {self.kind} bound by '{wanted}' (True when consistent with it); "
                f"compare result.rank {op} bound for the plain numbers")
        if result.certifies == "none":
            raise TypeError(f"{name} certifies nothing (a floating-point estimate), so it "
                            "cannot confirm or refute a bound; compare result.rank "
                            f"{op} bound.value yourself")
        if self.kind == "lower" and result.certifies != "exact":
            raise TypeError(f"{name} certifies a lower bound on sep, which cannot refute a "
                            "lower bound; compare result.rank >= bound for the plain numbers")
        verdict = self.admits(result.rank)
        if verdict is None:
            raise ValueError(f"{name} {op} {self!r} is undecidable: rank {result.rank} ties "
                             "the bound to 60 digits in log3")
        return verdict

    def __ge__(self, other: Any) -> bool:   # other <= self
        return self._relate(other, "<=")

    def __gt__(self, other: Any) -> bool:   # other < self
        return self._relate(other, "<")

    def __le__(self, other: Any) -> bool:   # other >= self
        return self._relate(other, ">=")

    def __lt__(self, other: Any) -> bool:   # other > self
        return self._relate(other, ">")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Bound):
            return (self.statement, self.kind, self.log3, self.exact, self.holds_for,
                    self.hypotheses, self.violated, self.notes) == (
                other.statement, other.kind, other.log3, other.exact, other.holds_for,
                other.hypotheses, other.violated, other.notes)
        if isinstance(other, numbers.Number) or hasattr(other, "certifies"):
            raise TypeError(f"Bound == {other!r} is not defined (a bound is not a number); "
                            "compare bound.value == x, or use <= / >= (exact) or "
                            "bound.admits(rank)")
        return NotImplemented

    def summary(self) -> str:
        """The repr in words: statement, kind, value, and the hypotheses this call violates.

        Returns
        -------
        str
            The repr without its ``Bound(...)`` wrapper.
        """
        return repr(self)[len("Bound("):-1]

    def _repr_markdown_(self) -> str:
        return markdown_table(self.summary(), self._display_fields())

    def _repr_html_(self) -> str:
        return html_table(self.summary(), self._display_fields())

    def _display_fields(self) -> list[tuple[str, Any]]:
        return [("statement", self.statement), ("kind", self.kind), ("value", self.value),
                ("log3", f"{float(self.log3):.6g}"), ("holds for", self.holds_for),
                ("hypotheses", "; ".join(self.hypotheses)),
                ("violated", "; ".join(self.violated) or "none"),
                *((f"note {i + 1}", n) for i, n in enumerate(self.notes))]

    def plot(self, ranks: Any = None, *, ax: Any = None) -> Any:
        """The bound as a horizontal line, with measured ranks (numbers or rank results) as
        points, on a log scale; returns the matplotlib Axes (a new one unless ``ax=``).

        Parameters
        ----------
        ranks : sequence of int or of rank results, optional
            Measured separation ranks (numbers, or results with a ``rank``), drawn as points
            in the given order; None (the default) draws the bound alone.
        ax : matplotlib Axes, optional
            Where to draw (keyword-only); None (the default) makes a new figure.

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn on (log-scaled vertical axis).

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from seprank.d2w import theorem3_upper
        >>> ax = theorem3_upper(width=2, depth=2).plot([18, 40])
        >>> ax.get_yscale()
        'log'
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(5, 3.2))
        values = [] if ranks is None else [int(getattr(r, "rank", r)) for r in ranks]
        log3 = float(self.log3)
        level = 3 ** log3 if log3 < 600 else math.inf
        if math.isfinite(level):
            ax.axhline(level, color="C3", ls="--", label=f"{self.statement} ({self.kind})")
        if values:
            ax.plot(range(len(values)), values, "o", color="C0", label="measured rank")
            ax.set_xticks(range(len(values)))
            ax.set_xlabel("measurement")
        ax.set_yscale("log")
        ax.set_ylabel("separation rank")
        ax.set_title(summarize(self.summary(), 70), fontsize=9)
        ax.legend(fontsize=8)
        return ax

    def __repr__(self) -> str:
        shown = self.value
        if isinstance(shown, int) and shown < 10**15:
            text = str(shown)
        elif isinstance(shown, Fraction) and shown < 10**15:
            text = f"{float(shown):.6g} (exact {shown.numerator.bit_length()}-bit fraction)"
        else:
            text = f"3^{float(self.log3):.6g}"
        flag = "" if self.in_hypotheses else f", OUTSIDE hypotheses: {'; '.join(self.violated)}"
        return f"Bound({self.statement}, {self.kind}: {text}{flag})"


def make_bound(statement: str, kind: Kind, log3_value: Any, exact: tuple[Fraction, int] | None,
          holds_for: str, hypotheses: tuple[str, ...], violated: list[str], notes: list[str],
          strict: bool) -> Bound:
    if not isinstance(strict, bool):
        raise ValueError(f"strict must be True or False, got {strict!r}")
    if violated and strict:
        raise OutsideHypothesesError(f"{statement}: outside its hypotheses: {'; '.join(violated)}")
    return Bound(statement, kind, log3_value, exact, holds_for, hypotheses, tuple(violated),
                 tuple(notes))


def fits_exactly(bits: float) -> bool:
    return bits <= EXACT_BITS_LIMIT


def regime_violations(d_x: int, L: int, want: Regime) -> list[str]:
    got = regime(d_x, L)
    if got == want:
        return []
    need = "L < log3(d_x)" if want == "depth_efficient" else "L > log3(d_x)"
    relation = {"boundary": "=", "depth_efficient": "<", "depth_inefficient": ">"}[got]
    return [f"{need} fails: 3^L = {3**L} {relation} d_x = {d_x}"]
