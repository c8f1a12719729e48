r"""The table of separation-rank strategies, and the rule that picks one for a request.

A strategy is a *driver* -- ``driver(request, domain, streams, budget) -> SeparationRankResult``
-- registered under a name with the flags :func:`choose_strategy` reads (quimb's
``register_split_driver`` pattern: a decorator files the function in one table).  The three
built in:

============  ======================  ========================================================
name          methods                 what it does
============  ======================  ========================================================
symbolic      symbolic                the exact rank of f's coefficient matrix (sympy); runs
                                      for every ``method='symbolic'`` request
degree        modular                 the sum of the certified ranks of f's bidegree blocks
                                      (:mod:`seprank.separation.blocks`); picked by
                                      ``structure='auto'`` when f declares its degree
                                      structure
dense         modular, exact, svd     one grid matricization, grown until its rank is stable
                                      (:mod:`seprank.separation.dense`); the fallback
============  ======================  ========================================================

:func:`seprank.separation_rank` = validate (a
:class:`~seprank.separation.request.SeparationRequest` and a
:class:`~seprank.separation.budget.Budget`) -> :func:`choose_strategy` -> draw the prime and the
template streams (grid strategies) -> call the driver.

**Adding a strategy** is one decorated function (example in :func:`register_strategy`): its
name becomes a value of ``separation_rank(..., structure=name)``, and with ``auto=`` a rank it
is also tried by ``structure='auto'`` (higher first; its ``select`` hook says whether it applies
to a request).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np

from seprank.core.domains import Domain
from seprank.core.validation import check_bool, check_callable, check_int
from seprank.separation.budget import Budget
from seprank.separation.request import METHODS, SeparationRequest
from seprank.separation.result import SeparationRankResult

__all__ = ["STRATEGIES", "Strategy", "Streams", "choose_strategy", "register_strategy"]


class Streams(NamedTuple):
    """The random streams a grid strategy draws from (``spawn(seed, 3)[1:]``; the first stream
    drew the prime): ``templates`` for the templates (and the structure checks of the degree
    blocks), ``witness`` for the primes of an exact witness.

    Parameters
    ----------
    templates : numpy.random.Generator
        The stream of the templates (and of the degree blocks' structure checks).
    witness : numpy.random.Generator
        The stream of the primes of an exact witness.
    """

    templates: np.random.Generator
    witness: np.random.Generator


#: ``driver(request, domain, streams, budget)``; ``domain`` and ``streams`` are None for a
#: strategy registered with ``grid=False``.
Driver = Callable[[SeparationRequest, Domain | None, Streams | None, Budget],
                  SeparationRankResult]
#: ``select(request, named)`` -> the request the driver runs (e.g. with its resolved degree
#: structure), or None when the strategy does not apply; ``named``: the caller asked for this
#: strategy by name, so "does not apply" must raise a ``ValueError`` that says why.
Selector = Callable[[SeparationRequest, bool], SeparationRequest | None]


@dataclass(frozen=True)
class Strategy:
    """One entry of the strategy table (see :func:`register_strategy` for the fields).

    Parameters
    ----------
    name : str
        The strategy's name (``structure=name``).
    driver : callable
        ``driver(request, domain, streams, budget)`` computing the result.
    methods : tuple of str
        The methods it computes with.
    description : str
        A few words for messages and listings.
    grid : bool, default True
        The driver gets a number domain and template streams (False: the symbolic strategy).
    fixed_templates : bool
        It runs ``templates=`` / ``n_templates=``.
    by_method : bool
        It runs every request of its methods, whatever ``structure=`` says.
    auto : int, optional
        Rank among the candidates of ``structure='auto'`` (None: only by name).
    structure_type : type, optional
        A ``structure=`` object of this type selects the strategy.
    select : callable, optional
        ``select(request, named)`` deciding whether it applies.
    """

    name: str
    driver: Driver
    methods: tuple[str, ...]
    description: str
    grid: bool = True
    fixed_templates: bool = True
    by_method: bool = False
    auto: int | None = None
    structure_type: type | None = None
    select: Selector | None = None


_TABLE: dict[str, Strategy] = {}
#: The registered strategies by name (read-only; :func:`register_strategy` adds to it).
STRATEGIES = MappingProxyType(_TABLE)


def register_strategy(
    name: str, *, methods: tuple[str, ...], description: str, grid: bool = True,
    fixed_templates: bool = True, by_method: bool = False, auto: int | None = None,
    structure_type: type | None = None, select: Selector | None = None,
) -> Callable[[Driver], Driver]:
    """Register ``driver(request, domain, streams, budget)`` as strategy ``name`` (a decorator).

    Parameters
    ----------
    name : str
        The strategy's name: ``separation_rank(..., structure=name)`` runs it.
    methods : tuple of str
        The methods it computes with (a request with another method is refused by name, and
        skipped by ``'auto'``).
    description : str
        A few words for messages and listings.
    grid : bool
        The driver gets a number domain (the prime drawn from the seed's first stream) and the
        template :class:`Streams`; False: both are None (the symbolic strategy).
    fixed_templates : bool
        It runs ``templates=`` / ``n_templates=`` (False: it sizes its own templates).
    by_method : bool
        It runs every request of its methods, whatever ``structure=`` says (symbolic).
    auto : int, optional
        Rank among the candidates of ``structure='auto'`` (higher first); None: only by name.
    structure_type : type, optional
        A ``structure=`` object of this type selects the strategy (degree:
        :class:`~seprank.separation.degree.DegreeStructure`).
    select : callable, optional
        ``select(request, named)`` (see :data:`Selector`); default: always applies.

    Returns
    -------
    callable
        A decorator registering the driver and returning it unchanged.

    Examples
    --------
    A strategy that answers from a known formula -- one entry, then ``structure='formula'``:

    >>> from seprank import separation_rank
    >>> from seprank.separation import SeparationRankResult
    >>> @register_strategy("formula", methods=("modular",), description="a known rank",
    ...                    grid=False)
    ... def formula(request, domain, streams, budget):
    ...     return SeparationRankResult(
    ...         rank=request.dim, certifies="none", method=request.method,
    ...         partition=request.partition, stop_reason="fixed", n_templates=0,
    ...         matrix_shape=(0, 0), history=(), seconds=0.0)
    >>> separation_rank(len, n_inputs=2, dim=3, partition=([0], [1]),
    ...                 structure="formula").rank
    3
    >>> unregister_strategy("formula").description
    'a known rank'
    """
    if not isinstance(name, str) or not name or name == "auto":
        raise ValueError(f"name must be a non-empty string other than 'auto', got {name!r}")
    if name in _TABLE:
        raise ValueError(f"a strategy named {name!r} is registered already "
                         f"({_TABLE[name].description}); unregister_strategy({name!r}) first")
    if (not isinstance(methods, tuple) or not methods
            or any(m not in METHODS for m in methods)):
        raise ValueError(f"methods must be a non-empty tuple of {METHODS}, got {methods!r}")
    if not isinstance(description, str) or not description:
        raise ValueError(f"description must be a few words, got {description!r}")
    flags = {key: check_bool(key, value) for key, value in
             (("grid", grid), ("fixed_templates", fixed_templates), ("by_method", by_method))}
    if auto is not None:
        auto = check_int("auto", auto, minimum=None)
    if structure_type is not None and not isinstance(structure_type, type):
        raise ValueError(f"structure_type must be a class, got {structure_type!r}")
    if select is not None:
        check_callable("select", select, "a function (request, named) -> request or None")

    def register(driver: Driver) -> Driver:
        check_callable("driver", driver, "a function (request, domain, streams, budget)")
        _TABLE[name] = Strategy(name, driver, methods, description, auto=auto,
                                structure_type=structure_type, select=select, **flags)
        return driver

    return register


def unregister_strategy(name: str) -> Strategy:
    """Remove strategy ``name`` from the table and return its entry.

    Examples
    --------
    >>> unregister_strategy("nonexistent")
    Traceback (most recent call last):
    ...
    ValueError: no strategy named 'nonexistent'; registered: ...
    """
    if name not in _TABLE:
        raise ValueError(f"no strategy named {name!r}; registered: {sorted(_TABLE)}")
    return _TABLE.pop(name)


def choose_strategy(request: SeparationRequest) -> tuple[Strategy, SeparationRequest]:
    """The strategy for ``request``, and the request its driver runs.

    1. a strategy registered ``by_method`` for ``request.method`` (symbolic) runs it;
    2. ``structure=`` a name (or an object of a strategy's ``structure_type``) names the
       strategy: a method it does not compute, fixed templates it does not run, or its
       ``select`` hook refusing raise a ``ValueError`` that says why;
    3. ``structure='auto'``: the candidates (``auto`` rank, higher first) that compute the
       method, run fixed templates if given and whose ``select`` accepts -- the first one.

    Parameters
    ----------
    request : SeparationRequest
        The validated arguments of :func:`~seprank.separation.separation_rank`.

    Returns
    -------
    strategy : Strategy
        The strategy that runs.
    request : SeparationRequest
        The request its driver runs (``structure`` resolved).

    Examples
    --------
    >>> def f(X):
    ...     return X[:, 0, 0] * X[:, 1, 0]
    >>> def chosen(**kw):
    ...     request = SeparationRequest(f, n_inputs=2, dim=1, partition=([0], [1]), **kw)
    ...     return choose_strategy(request)[0].name
    >>> chosen(), chosen(method="symbolic"), chosen(method="svd", structure="dense")
    ('dense', 'symbolic', 'dense')
    >>> chosen(structure="degree")
    Traceback (most recent call last):
    ...
    ValueError: structure='degree': f declares no degree structure ... use structure='dense'
    """
    if not isinstance(request, SeparationRequest):
        raise TypeError(f"request must be a SeparationRequest(f, n_inputs=..., dim=..., "
                        f"partition=...), got {type(request).__name__}")
    for strategy in _TABLE.values():
        if strategy.by_method and request.method in strategy.methods:
            return strategy, request
    structure = request.structure
    if structure == "auto":
        candidates = sorted((s for s in _TABLE.values() if s.auto is not None),
                            key=lambda s: -(s.auto or 0))
        for strategy in candidates:
            if request.method not in strategy.methods or (
                    request.fixed and not strategy.fixed_templates):
                continue
            runs = request if strategy.select is None else strategy.select(request, False)
            if runs is not None:
                return strategy, runs
        raise ValueError(f"no registered strategy computes method={request.method!r} "
                         f"(registered: {_listing()})")
    strategy = _named(structure)
    if request.method not in strategy.methods:
        raise ValueError(f"structure={_shown(structure)} ({strategy.description}) needs "
                         f"method={' or '.join(map(repr, strategy.methods))}, got "
                         f"method={request.method!r}")
    if request.fixed and not strategy.fixed_templates:
        raise ValueError(f"structure={_shown(structure)} ({strategy.description}) sizes its "
                         "templates itself: drop templates= and n_templates= (or use "
                         "structure='dense')")
    runs = request if strategy.select is None else strategy.select(request, True)
    if runs is None:  # pragma: no cover - a named select must raise, not decline
        raise ValueError(f"structure={_shown(structure)} does not apply to this request")
    return strategy, runs


def _named(structure: Any) -> Strategy:
    """The strategy ``structure`` names: a registered name, or an object of its type."""
    if isinstance(structure, str):
        if structure in _TABLE:
            return _TABLE[structure]
    else:
        for strategy in _TABLE.values():
            if strategy.structure_type is not None and isinstance(structure,
                                                                  strategy.structure_type):
                return strategy
    raise ValueError(f"structure must be 'auto', a registered strategy ({_listing()}) or a "
                     f"DegreeStructure, got {structure!r}")


def _shown(structure: Any) -> str:
    return repr(structure) if isinstance(structure, str) else type(structure).__name__ + "(...)"


def _listing() -> str:
    return ", ".join(f"{name!r}: {s.description}" for name, s in _TABLE.items())
