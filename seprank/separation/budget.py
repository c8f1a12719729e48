r"""The budget of a separation-rank computation: time, rounds, templates, memory, patience.

Every grid strategy of :func:`seprank.separation_rank` runs growth loops
(:func:`~seprank.separation.growth.grow_until_stable`) that add templates round after round
until the rank stops growing.  What may stop them early is one object, :class:`Budget`, passed
as ``budget=`` (``None``: the defaults):

=================  ==========  ============================================================
field              default     stop reason when reached
=================  ==========  ============================================================
``max_seconds``    300 s       ``'time_limit'`` (a round predicted to end after it is not
                               started)
``max_rounds``     None        ``'max_rounds'``
``max_templates``  None        ``'max_templates'`` (also caps the first round)
``max_bytes``      None        ``'memory_limit'`` (None: :func:`seprank.get_memory_limit`,
                               read when the computation starts)
``patience``       2           ``'saturated'``: the last ``patience`` rounds gave one rank
=================  ==========  ============================================================

Only ``'saturated'`` (and ``'upper_bound'``) say that the rank stopped growing; the other stops
leave a certified lower bound that is **not saturated**, and the result's ``status`` says so.

The keywords ``max_seconds=``, ``max_rounds=``, ``max_templates=``, ``max_bytes=`` and
``patience=`` of the 0.2 functions are gone (version 0.3): :func:`refuses_budget_keywords`
turns them into a ``TypeError`` that names ``budget=``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ParamSpec, TypeVar

from seprank.core.memory import get_memory_limit, resolve_limit
from seprank.core.validation import check_float, check_int

__all__ = ["DEFAULT_MAX_SECONDS", "Budget"]

#: Default time budget of a computation (seconds); ``Budget(max_seconds=None)`` lifts it.
DEFAULT_MAX_SECONDS = 300.0
#: The fields of :class:`Budget` (the keywords 0.2 took one by one).
BUDGET_FIELDS = ("max_seconds", "max_rounds", "max_templates", "max_bytes", "patience")

_P = ParamSpec("_P")
_R = TypeVar("_R")

#: The fix named by each field's error message.
_FIXES = {
    "max_seconds": "give seconds > 0, or None for no time limit",
    "max_rounds": "give a number of rounds >= 1, or None for no limit",
    "max_templates": "give a number of templates >= 1, or None for no cap",
    "max_bytes": "or None for the process limit (seprank.set_memory_limit)",
    "patience": "give a number of equal rounds >= 1 (default 2)",
}


@dataclass(frozen=True, repr=False)
class Budget:
    """What may stop a separation-rank computation early (module docstring).

    Attributes
    ----------
    max_seconds : float or None
        Wall-time budget of the whole computation (default :data:`DEFAULT_MAX_SECONDS` = 300 s;
        None: unlimited).  Checked *before* a round starts: the next round's cost is predicted
        from the last two (their ratio, clamped to [8, 32]: the rank step is cubic), and the loop
        stops with ``'time_limit'`` when it would not finish in time.  Degree blocks share it.
    max_rounds : int or None
        Most growth rounds of one loop (None: unlimited).
    max_templates : int or None
        Cap on the number of templates (None: no cap).
    max_bytes : int or None
        Memory limit of one round -- the grid, its matricization and the rank step, estimated
        before anything is allocated (None: the process limit,
        :func:`seprank.get_memory_limit`, 2 GiB by default).  A round above it is not run:
        the growth stops with ``'memory_limit'``, or raises
        :class:`~seprank.core.errors.GridTooLargeError` when it is the first round.
    patience : int
        Growth stops (``'saturated'``) when the last ``patience`` rounds give the same rank.

    Examples
    --------
    >>> Budget()
    Budget()
    >>> Budget(max_seconds=None, max_bytes=8 * 2**30)     # the repr shows what differs
    Budget(max_seconds=None, max_bytes=8 * 2**30)
    >>> Budget(max_rounds=3).max_seconds, Budget(max_rounds=3).patience
    (300.0, 2)
    >>> Budget(max_seconds=-1)
    Traceback (most recent call last):
    ...
    ValueError: Budget(max_seconds=-1): max_seconds must be a positive ... for no time limit
    """

    max_seconds: float | None = DEFAULT_MAX_SECONDS
    max_rounds: int | None = None
    max_templates: int | None = None
    max_bytes: int | None = None
    patience: int = 2

    def __post_init__(self) -> None:
        checks: dict[str, Callable[[Any], Any]] = {
            "max_seconds": lambda v: check_float("max_seconds", v, positive=True,
                                                 hint=" (or None)"),
            "max_rounds": lambda v: check_int("max_rounds", v),
            "max_templates": lambda v: check_int("max_templates", v),
            "max_bytes": lambda v: resolve_limit(v, "max_bytes"),
            "patience": lambda v: check_int("patience", v),
        }
        for name, check in checks.items():
            value = getattr(self, name)
            if value is None and name != "patience":
                continue
            try:
                object.__setattr__(self, name, check(value))
            except (TypeError, ValueError) as err:
                raise type(err)(f"Budget({name}={value!r}): {err}; {_FIXES[name]}") from None

    def __repr__(self) -> str:
        shown = [f"{f.name}={_shown(f.name, getattr(self, f.name))}" for f in fields(self)
                 if getattr(self, f.name) != f.default]
        return f"Budget({', '.join(shown)})"

    def memory_limit(self) -> int:
        """``max_bytes``, or the process limit when it is None (read now).

        Returns
        -------
        int
            The byte limit a computation may allocate.

        Examples
        --------
        >>> Budget(max_bytes=2**20).memory_limit()
        1048576
        >>> from seprank.core.memory import get_memory_limit
        >>> Budget().memory_limit() == get_memory_limit()
        True
        """
        return get_memory_limit() if self.max_bytes is None else self.max_bytes


def _shown(name: str, value: Any) -> str:
    """A field's value as it would be typed: bytes as a multiple of a GiB or MiB."""
    if name == "max_bytes" and isinstance(value, int):
        for power, unit in ((30, "2**30"), (20, "2**20")):
            if value >= 2**power and value % 2**power == 0:
                k = value // 2**power
                return unit if k == 1 else f"{k} * {unit}"
    return repr(value)


def check_budget(budget: Any) -> Budget:
    """``budget`` itself, or the default :class:`Budget` for None; anything else is refused.

    Examples
    --------
    >>> check_budget(None)
    Budget()
    >>> check_budget({"max_seconds": 60})
    Traceback (most recent call last):
    ...
    TypeError: budget must be a seprank.Budget(max_seconds=..., ...) or None, got dict
    """
    if budget is None:
        return Budget()
    if not isinstance(budget, Budget):
        wanted = ", ".join(f"{name}=..." for name in BUDGET_FIELDS)
        raise TypeError(f"budget must be a seprank.Budget({wanted}) or None, got "
                        f"{type(budget).__name__}")
    return budget


def refuses_budget_keywords(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """Turn a 0.2 budget keyword (``max_seconds=`` ...) into a ``TypeError`` naming ``budget=``.

    The decorated function keeps its signature (for ``inspect`` and the type checker, which
    already rejects the old keywords); at run time the message says what replaced them.

    Examples
    --------
    >>> @refuses_budget_keywords
    ... def rank(*, budget: Budget | None = None) -> Budget:
    ...     return check_budget(budget)
    >>> rank(max_seconds=60)
    Traceback (most recent call last):
    ...
    TypeError: rank() takes budget=Budget(max_seconds=60) since version 0.3; max_seconds= is ...
    """
    @functools.wraps(func)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        moved = [name for name in BUDGET_FIELDS if name in kwargs]
        if moved:
            given = ", ".join(f"{name}={kwargs[name]!r}" for name in moved)
            raise TypeError(f"{func.__name__}() takes budget=Budget({given}) since version "
                            f"0.3; {', '.join(n + '=' for n in moved)} "
                            f"{'is' if len(moved) == 1 else 'are'} no longer "
                            f"{'a keyword' if len(moved) == 1 else 'keywords'}")
        return func(*args, **kwargs)

    return wrapper
