r"""One separation-rank problem, validated once: :class:`SeparationRequest`.

:func:`seprank.separation_rank` turns its keywords into a request (every argument checked where
it enters, with a message naming it), chooses a strategy for it
(:func:`~seprank.separation.strategies.choose_strategy`) and hands the request, a number domain,
the random streams and a :class:`~seprank.separation.budget.Budget` to the strategy's driver.
Nothing is handed on keyword by keyword: a driver reads what it needs from the request.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.domains import Domain
from seprank.core.results import SeparationMethod
from seprank.core.types import Array
from seprank.core.validation import (
    check_bool,
    check_callable,
    check_int,
    check_tolerance,
)
from seprank.separation.degree import DegreeStructure
from seprank.separation.distributed import check_executor
from seprank.separation.result import validate_partition

__all__ = ["SeparationRequest"]

#: ``grid_matrix(templates, domain)`` -> the grid matricization of f in ``domain``.
GridMatrix = Callable[[Array, Domain], Array]

#: The methods :func:`seprank.separation_rank` knows (each strategy says which it computes).
METHODS = ("modular", "exact", "svd", "symbolic")


@dataclass(frozen=True, eq=False)
class SeparationRequest:
    r"""A separation rank to compute: the function, the partition, and how (validated).

    Built by :func:`seprank.separation_rank` from its keywords (see there for what each one
    means); a strategy's driver reads it (``request.f``, ``request.partition``, ...).

    Attributes
    ----------
    f : callable
        The batch function ``f(X)``, ``X`` of shape ``(batch, n_inputs, dim)``.
    n_inputs, dim : int
        N and the dimension of each input vector.
    partition : (tuple of int, tuple of int)
        (A, B) in the caller's order, validated: non-empty, disjoint, covering
        ``range(n_inputs)``.
    method : {'modular', 'exact', 'svd', 'symbolic'}
        The arithmetic.
    upper_bound : int or None
        A known upper bound on sep (sizes the first round, stops the growth).
    templates : numpy.ndarray or None
        The caller's ``(M, dim)`` templates (one fixed round).
    n_templates : int or None
        Exactly this many templates (one fixed round).
    rtol : float or None
        SVD tolerance (``method='svd'`` only).
    grid_matrix : callable or None
        The caller's faster grid evaluator ``grid_matrix(templates, domain)``.
    structure : str or DegreeStructure
        ``'auto'``, a registered strategy's name, or a degree structure (the ``'degree'``
        strategy); after :func:`~seprank.separation.strategies.choose_strategy`, the degree
        strategy's request holds the resolved :class:`DegreeStructure`.
    keep_witness : bool
        Keep a non-zero minor of the last grid (for a certificate).
    progress : bool or None
        Progress bars (None: on terminals, after two seconds).
    executor : 'serial', None, int, str or distributed.Client
        Where the degree blocks' ranks run (:mod:`seprank.separation.distributed`); only the
        ``'degree'`` strategy takes anything but ``'serial'``.
    started : float
        ``time.perf_counter()`` when the request was made: the time budget and the result's
        ``seconds`` count from it.

    Examples
    --------
    >>> r = SeparationRequest(lambda X: X[:, 0, 0] * X[:, 1, 0], n_inputs=2, dim=1,
    ...                       partition=([0], [1]))
    >>> r.partition, r.method, r.sides, r.fixed
    (((0,), (1,)), 'modular', (1, 1), False)
    >>> SeparationRequest(len, n_inputs=2, dim=1, partition=([0], [1]), method="float")
    Traceback (most recent call last):
    ...
    ValueError: unknown method 'float': 'modular', 'exact', 'svd' or 'symbolic'
    """

    f: Callable[..., Any]
    _: KW_ONLY
    n_inputs: int
    dim: int
    partition: tuple[tuple[int, ...], tuple[int, ...]]
    method: SeparationMethod = "modular"
    upper_bound: int | None = None
    templates: Array | None = field(default=None, repr=False)
    n_templates: int | None = None
    rtol: float | None = None
    grid_matrix: GridMatrix | None = field(default=None, repr=False)
    structure: DegreeStructure | str = "auto"
    keep_witness: bool = False
    progress: bool | None = None
    executor: Any = "serial"
    started: float = field(default_factory=time.perf_counter, repr=False)

    def __post_init__(self) -> None:
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        check_callable("f", self.f, "a batch function f(X) of X with shape (batch, n_inputs, "
                                    "dim)")
        put("n_inputs", check_int("n_inputs (two non-empty parts)", self.n_inputs, minimum=2))
        put("dim", check_int("dim", self.dim))
        put("partition", validate_partition(self.partition, self.n_inputs))
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}: 'modular', 'exact', 'svd' or "
                             "'symbolic'")
        if self.rtol is not None and self.method != "svd":
            raise ValueError("rtol is the tolerance of method='svd'")
        put("rtol", check_tolerance("rtol", self.rtol))
        if self.upper_bound is not None:
            put("upper_bound", check_int("upper_bound", self.upper_bound, minimum=0))
        if self.templates is not None and self.n_templates is not None:
            raise ValueError("give templates= or n_templates=, not both")
        if self.templates is not None:
            put("templates", _check_templates(self.templates, self.dim))
        if self.n_templates is not None:
            put("n_templates", check_int("n_templates", self.n_templates))
        if self.grid_matrix is not None:
            check_callable("grid_matrix", self.grid_matrix,
                           "a function (templates, domain) -> matrix")
        if not isinstance(self.structure, DegreeStructure | str):
            raise ValueError(f"structure must be 'auto', a strategy's name ('dense', "
                             f"'degree') or a DegreeStructure, got {self.structure!r}")
        put("keep_witness", check_bool("keep_witness", self.keep_witness))
        if self.progress is not None:
            put("progress", check_bool("progress", self.progress))
        put("executor", check_executor(self.executor))

    @property
    def sides(self) -> tuple[int, int]:
        """``(|A|, |B|)``."""
        return len(self.partition[0]), len(self.partition[1])

    @property
    def fixed(self) -> bool:
        """True when the templates are fixed (``templates=`` or ``n_templates=``: one round)."""
        return self.templates is not None or self.n_templates is not None


def _check_templates(templates: npt.ArrayLike | Sequence[Any], dim: int) -> Array:
    given = np.asarray(templates)
    if given.ndim != 2 or given.shape[1] != dim or given.shape[0] < 1:
        raise ValueError(f"templates must have shape (M, dim={dim}) with M >= 1, got "
                         f"{given.shape}")
    return given
