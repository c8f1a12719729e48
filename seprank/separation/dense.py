r"""The dense strategy: one grid matricization of f, grown until its rank is stable.

For templates :math:`t_1, \dots, t_m` the grid matrix
:math:`[f(t_{i_1}, \dots, t_{i_N})]` between the A-tuples and the B-tuples of template indices
has rank at most :math:`\operatorname{sep}_{(A,B)}(f)` (003, Claim 1).  The driver

1. sizes the first round (:func:`~seprank.separation.growth.plan_templates`: the caller's
   templates, ``n_templates`` of them, or enough to reach ``upper_bound``);
2. evaluates the grid with :class:`~seprank.separation.grids.GenericGrid` (any batch function)
   or :class:`~seprank.separation.grids.CallerGrid` (the caller's ``grid_matrix``);
3. grows it (:func:`~seprank.separation.growth.grow_until_stable`) within the
   :class:`~seprank.separation.budget.Budget`, and keeps the evidence of the last grid for a
   certificate (:class:`~seprank.separation.witness.GridWitness`).

It computes every grid method (``'modular'``, ``'exact'``, ``'svd'``) and is what
``structure='auto'`` falls back to.
"""

from __future__ import annotations

import time
from typing import Any

from seprank.core.domains import EXACT_TEMPLATE_RANGE, Domain, ExactDomain, ModularDomain
from seprank.separation.budget import Budget
from seprank.separation.grids import CallerGrid, GenericGrid
from seprank.separation.growth import grow_until_stable, plan_templates
from seprank.separation.request import SeparationRequest
from seprank.separation.result import SeparationRankResult
from seprank.separation.strategies import Streams, register_strategy
from seprank.separation.witness import GridWitness

__all__ = ["dense_separation_rank"]


@register_strategy("dense", methods=("modular", "exact", "svd"), auto=0,
                   description="one grid matrix, grown until its rank is stable")
def dense_separation_rank(request: SeparationRequest, domain: Domain | None,
                          streams: Streams | None, budget: Budget) -> SeparationRankResult:
    """Run the dense strategy (module docstring); the driver of ``structure='dense'``.

    Parameters
    ----------
    request : SeparationRequest
        The validated arguments of :func:`seprank.separation_rank`.
    domain : Domain or None
        The number domain of the grid.
    streams : Streams or None
        The template and witness streams.
    budget : Budget
        Patience, templates, time, rounds and memory.

    Returns
    -------
    SeparationRankResult
        The rank of the last grid matricization and what it certifies.

    Examples
    --------
    >>> from seprank import separation_rank
    >>> def inner(X):                    # <x1, x2> in dimension 3: sep = 3
    ...     return np.einsum("bi,bi->b", X[:, 0], X[:, 1])
    >>> r = separation_rank(inner, n_inputs=2, dim=3, partition=([0], [1]), seed=0,
    ...                     structure="dense")
    >>> r.rank, [h.n_templates for h in r.history]
    (3, [16, 32])
    """
    if domain is None or streams is None:
        raise TypeError("the dense strategy needs a number domain and template streams")
    A, B = request.partition
    limit = budget.memory_limit()
    plan = plan_templates(domain, streams.templates, dim=request.dim,
                          smaller_side=min(request.sides), templates=request.templates,
                          n_templates=request.n_templates, upper_bound=request.upper_bound,
                          max_templates=budget.max_templates)
    matrix_of: GenericGrid | CallerGrid
    if request.grid_matrix is None:
        matrix_of = GenericGrid(request.f, domain, request.n_inputs, A, B, limit,
                                request.progress)
    else:
        matrix_of = CallerGrid(request.grid_matrix, domain, len(A), len(B), limit)
    witness = GridWitness(request.f, request.n_inputs, request.dim, domain, matrix_of,
                          request.sides, streams.witness)
    outcome = grow_until_stable(
        matrix_of, plan, upper_bound=request.upper_bound, budget=budget,
        progress=request.progress,
        on_final=witness.on_final if request.keep_witness and witness.certified else None)
    details: dict[str, Any] = {"domain": repr(domain), **outcome.notes}
    if isinstance(domain, ModularDomain):
        details["prime"] = domain.p
    elif isinstance(domain, ExactDomain):
        details["template_range"] = EXACT_TEMPLATE_RANGE
    if request.upper_bound is not None and outcome.last.rank > request.upper_bound:
        details["exceeds_upper_bound"] = True
    details["last_matrix_rank"] = outcome.last.summary()
    return SeparationRankResult(
        rank=outcome.last.rank, certifies="none" if request.method == "svd" else "lower_bound",
        method=request.method, partition=(A, B), stop_reason=outcome.stop,
        n_templates=outcome.n_templates, matrix_shape=outcome.matrix_shape,
        history=outcome.history, seconds=time.perf_counter() - request.started,
        upper_bound=request.upper_bound, details=details, evidence=witness.evidence(outcome),
    )
