"""The checker's budget: what a certificate may cost before any work starts, and a deadline as
the last resort (standard library only).

A certificate is data from a stranger.  Before the checker computes anything it bounds the
input -- file size, nesting depth, number of JSON values, digits per number -- and estimates
the work each kind needs in *operations* (one operation: a multiplication or addition of
one-word (64-bit) integers; a product of a- and b-word integers counts a * b): evaluations x
arithmetic size for grid ranks, C(n, k) column sets for Kruskal ranks, the interpolation system
for degree blocks, eliminations and kernel products for matrix ranks.  A certificate above the
budget is refused with the estimate and the way to raise the budget; below it, a deadline
stops a computation the estimate got wrong.
"""

from __future__ import annotations

import contextvars
import math
import time
from dataclasses import dataclass

__all__ = ["DEFAULT_BUDGET", "Refuse", "VerifyBudget", "over_memory"]


class Refuse(Exception):
    """The checker refuses the input before (or instead of) checking its claim: malformed,
    over the budget, unreadable (the message says why and what to do)."""


@dataclass(frozen=True)
class VerifyBudget:
    """Limits on one verification (:func:`~seprank.certificates.verify.verify` checks them
    before it computes anything).

    (Named apart from :class:`seprank.Budget`, the separation engine's budget of rounds,
    templates and memory: this one bounds what a stranger's certificate may make the checker
    do.)

    Attributes
    ----------
    max_operations : int
        Estimated operations (module docstring) a certificate may need; the checker does
        10^7 to 10^8 of them per second (the estimate errs high).  Default 2 * 10^9: a few
        minutes at most; the largest certificate of ``benchmarks/bench_certificates.py``
        needs 6 * 10^8.
    max_bytes : int
        Size of the certificate's JSON text (a file is measured before it is read), and the
        decompressed size of a packed matrix.  Default 64 MiB.
    max_digits : int
        Decimal digits of one number (an integer, or numerator and denominator each).
    max_depth : int
        Nesting depth of the JSON (a 4-index weight tensor inside a function inside the
        certificate needs about 8).
    max_values : int
        JSON values (numbers, strings, lists, objects) in one certificate.
    seconds : float or None
        Wall time after which a running check stops with status ``'refused'`` (None: no
        deadline; the estimate alone bounds the work).  Default 600.  The deadline is polled
        inside every loop of the check (evaluations, the nodes of one evaluation, the terms
        of one contraction, index plans, degree proofs, eliminations), at least every few
        milliseconds.
    max_memory : int
        Estimated bytes of the checker's own data (a circuit's index plans and node values,
        numbers included) a certificate may need, checked with the operations before any
        work.  Default 1 GiB.

    Examples
    --------
    >>> VerifyBudget(max_operations=10**6).max_operations
    1000000
    >>> VerifyBudget(max_digits=0)
    Traceback (most recent call last):
    ...
    ValueError: VerifyBudget.max_digits must be a positive integer, got 0
    """

    max_operations: int = 2 * 10**9
    max_bytes: int = 64 * 2**20
    max_digits: int = 20_000
    max_depth: int = 32
    max_values: int = 2_000_000
    seconds: float | None = 600.0
    max_memory: int = 2**30

    def __post_init__(self) -> None:
        for name in ("max_operations", "max_bytes", "max_digits", "max_depth", "max_values",
                     "max_memory"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"VerifyBudget.{name} must be a positive integer, got {value!r}")
        if self.seconds is not None and (isinstance(self.seconds, bool) or not isinstance(
                self.seconds, int | float) or not self.seconds > 0):
            raise ValueError(f"VerifyBudget.seconds must be a positive number or None, got "
                             f"{self.seconds!r}")


#: The budget :func:`~seprank.certificates.verify.verify` uses when given none.
DEFAULT_BUDGET = VerifyBudget()

_ACTIVE: contextvars.ContextVar[tuple[VerifyBudget, float | None]] = contextvars.ContextVar(
    "active_budget", default=(DEFAULT_BUDGET, None))


def activate(budget: VerifyBudget) -> contextvars.Token[tuple[VerifyBudget, float | None]]:
    """Make ``budget`` the current verification's (its deadline starts now)."""
    end = None if budget.seconds is None else time.monotonic() + budget.seconds
    return _ACTIVE.set((budget, end))


def deactivate(token: contextvars.Token[tuple[VerifyBudget, float | None]]) -> None:
    _ACTIVE.reset(token)


def active() -> VerifyBudget:
    """The current verification's budget (:data:`DEFAULT_BUDGET` outside one)."""
    return _ACTIVE.get()[0]


def tick() -> None:
    """Refuse when the current verification has run past its deadline (called between
    evaluations, column sets and elimination steps)."""
    end = _ACTIVE.get()[1]
    if end is not None and time.monotonic() > end:
        raise Refuse("the check ran past its time budget (VerifyBudget.seconds) although its "
                     "cost estimate was within budget; raise VerifyBudget(seconds=...) to let "
                     "it finish")


# --- the cost model ---------------------------------------------------------------------------


def words(bits: int) -> int:
    """64-bit words of an integer of ``bits`` bits."""
    return bits // 64 + 1


def product_cost(bits: int) -> int:
    """Operations of one product (with its reduction) of ``bits``-bit integers."""
    w = words(bits)
    return w * w + 1


def log_comb(n: int, k: int) -> float:
    """ln C(n, k) without computing C(n, k) (which may have millions of digits)."""
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


#: Estimates are capped here (a float can print them; any budget is far below).
ESTIMATE_CAP = 10**30


def capped(estimate: int | float) -> int:
    """An estimate as an int, at most :data:`ESTIMATE_CAP`."""
    return ESTIMATE_CAP if estimate >= ESTIMATE_CAP else int(estimate)


def over_memory(estimate: int, budget: VerifyBudget, what: str) -> None:
    """Refuse a check whose data would exceed ``budget.max_memory`` bytes (before any work).

    Parameters
    ----------
    estimate : int
        Estimated bytes.
    budget : VerifyBudget
        The budget.
    what : str
        What the bytes are, for the message.

    Examples
    --------
    >>> over_memory(10, VerifyBudget(max_memory=100), "a plan")       # fits: nothing happens
    >>> over_memory(10**9, VerifyBudget(max_memory=100), "a plan")
    Traceback (most recent call last):
    ...
    seprank.certificates.verify.limits.Refuse: checking this certificate needs about 1e+09 ...
    """
    estimate = capped(estimate)
    if estimate > budget.max_memory:
        raise Refuse(f"checking this certificate needs about {estimate:.3g} bytes of memory "
                     f"({what}), above the budget of {budget.max_memory:.3g}; if you trust it "
                     "and have the memory, raise it: verify(cert, "
                     "budget=VerifyBudget(max_memory=...))")


def over_budget(estimate: int, budget: VerifyBudget, what: str) -> None:
    """Refuse with the estimate and the way to raise the budget."""
    estimate = capped(estimate)
    if estimate > budget.max_operations:
        raise Refuse(f"checking this certificate needs about {estimate:.3g} operations "
                     f"({what}), above the budget of {budget.max_operations:.3g}; if you "
                     "trust its size, raise it: verify(cert, max_operations=...) or "
                     "verify(cert, budget=VerifyBudget(max_operations=...)) "
                     "(command line: --max-operations)")
