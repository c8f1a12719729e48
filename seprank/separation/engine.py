r"""Certified separation ranks: ranks of grid-tensor matricizations, and exact symbolic ranks.

For a function :math:`f` of N vectors and a partition (A, B) of the positions, the separation
rank is the least R with :math:`f = \sum_{r=1}^R g_r(x^A)\, g'_r(x^B)`.  For any template
vectors, the rank of the matricization :math:`[\![\mathcal A(f)]\!]_{A,B}` of the grid tensor
is at most :math:`\operatorname{sep}_{(A,B)}(f)` (003, Claim 1), so every rank computed
here is a certified lower bound -- exactly so when the matrix rank itself is exact (integer
arithmetic) or a lower bound on it (GF(p)).  For a polynomial, the separation rank equals the
rank of its coefficient matrix between A-monomials and B-monomials, which
``method="symbolic"`` computes exactly.

:func:`separation_rank` = validate (a :class:`~seprank.separation.request.SeparationRequest`,
a :class:`~seprank.separation.budget.Budget`) -> choose a strategy from the table
(:mod:`seprank.separation.strategies`: ``'symbolic'``, ``'degree'``, ``'dense'``) -> draw the
prime and the template streams -> run the strategy's driver.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy.typing as npt

from seprank.core.domains import Domain, domain_for
from seprank.core.random import SeedLike, spawn
from seprank.core.results import SeparationMethod
from seprank.core.types import Array

# the built-in strategies register themselves in the table when their modules load
from seprank.separation.blocks import block_separation_rank
from seprank.separation.budget import Budget, check_budget, refuses_budget_keywords
from seprank.separation.degree import DegreeStructure
from seprank.separation.dense import dense_separation_rank
from seprank.separation.request import SeparationRequest
from seprank.separation.result import SeparationRankResult
from seprank.separation.strategies import Streams, choose_strategy
from seprank.separation.symbolic import symbolic_strategy

__all__ = ["separation_rank"]

#: The built-in drivers (imported for their registration; see the strategy table).
BUILT_IN = (symbolic_strategy, block_separation_rank, dense_separation_rank)


@refuses_budget_keywords
def separation_rank(
    f: Callable[..., Any],
    *,
    n_inputs: int,
    dim: int,
    partition: tuple[Sequence[int], Sequence[int]],
    method: SeparationMethod = "modular",
    seed: SeedLike = None,
    upper_bound: int | None = None,
    n_templates: int | None = None,
    templates: npt.ArrayLike | None = None,
    rtol: float | None = None,
    grid_matrix: Callable[[Array, Domain], Array] | None = None,
    structure: DegreeStructure | str = "auto",
    keep_witness: bool = False,
    budget: Budget | None = None,
    progress: bool | None = None,
    executor: Any = "serial",
) -> SeparationRankResult:
    r"""Separation rank of ``f`` w.r.t. the partition (A, B), with its certificate.

    Parameters
    ----------
    f : callable
        Batch-evaluable: ``f(X)`` with ``X`` of shape ``(batch, n_inputs, dim)`` returns
        ``(batch,)``.  If it accepts a ``domain=`` keyword (as network entries do, see
        :meth:`seprank.LinearAttention.entry`) it is evaluated natively in GF(p) / exactly and
        must compute with the domain's operations (a modular result outside ``[0, p)`` is
        refused); otherwise modular and exact methods evaluate it on an object array of Python
        integers, and ``f`` must keep them exact: a result of fixed-width integers (e.g. after
        ``X.astype(np.int64)``, which can wrap around silently), of floats or of numpy scalars
        is refused with a ``TypeError`` -- a certificate is never built on values that may
        have overflowed.
    n_inputs, dim : int, keyword-only
        N and the dimension of each input vector.
    partition : (sequence of int, sequence of int), keyword-only
        (A, B), 0-based positions; any partition (balanced or not).
    method : {'modular', 'exact', 'svd', 'symbolic'}, keyword-only
        * ``'modular'`` -- evaluate over GF(p) (random prime in :math:`[2^{24}, 2^{25})`),
          uniform random templates in GF(p); rank with flint.  Certified lower bound on sep.
        * ``'exact'`` -- integer templates in ``[-50, 50]``, exact evaluation and exact rank.
          Certified lower bound on sep (exact rank of that grid matrix).
        * ``'svd'`` -- Gaussian templates, float evaluation, SVD rank (``rtol``).  Certifies
          nothing.
        * ``'symbolic'`` -- expand ``f`` with sympy and take the exact rank of the coefficient
          matrix between A-monomials and B-monomials: the exact separation rank of a
          polynomial (tiny cases only).
    seed : int or Generator, optional, keyword-only
        Seeds the prime and the templates (independent streams).
    upper_bound : int, optional, keyword-only
        A known upper bound: the first round is sized to reach it (unless that grid would exceed
        the memory limit -- then growth starts from the default size) and growth stops when the
        rank reaches it (then, if the bound is proven, sep equals the rank).  A rank above it
        is reported in ``details['exceeds_upper_bound']``.
    n_templates : int, optional, keyword-only
        Use exactly this many templates in one round (no growth).
    templates : array_like, optional, keyword-only
        Your own ``(M, dim)`` templates (one round).  Integers for modular/exact.
    rtol : float, optional, keyword-only
        SVD tolerance for ``'svd'``.
    grid_matrix : callable, optional, keyword-only
        A faster evaluator of the grid matrix: ``grid_matrix(templates, domain)`` must return
        what ``matricize(grid_tensor(f, templates, n_inputs), A, B)`` returns in ``domain``
        (e.g. the in-context GF(p) grid of :func:`seprank.incontext_seq_sep`).  The engine
        checks its memory estimate before calling it: the grid (8 bytes per entry), the rank
        step, and ``grid_matrix.peak_bytes(m)`` when the callable has that attribute (its own
        temporaries for ``m`` templates).
    structure : {'auto', 'dense', 'degree'}, a registered strategy's name, or DegreeStructure
        The strategy (:mod:`seprank.separation.strategies`; ``method='symbolic'`` always runs
        ``'symbolic'``).  ``'dense'``: one grid, grown.  ``'degree'`` (``method='modular'``;
        :mod:`seprank.separation.degree`): when
        :math:`f(t x_A, s x_B) = \sum_k t^{j_k} s^{k_k} f_k` with distinct A- and B-degrees,
        sep(f) is the sum of the blocks' ranks, each certified on its own grid (values by
        interpolation mod p, sized to its bound, its own growth loop); the
        :class:`~seprank.separation.degree.BlockSeparationRankResult` lists every block.  It
        splits by the structure ``f.degree_structure(A, B)`` declares (network entries, the
        in-context representation), or by the ``DegreeStructure`` given.  ``'auto'``
        (default): ``'degree'`` when ``f`` declares one (modular, no fixed templates), else
        ``'dense'``.  A declared structure is tested at random points first: a function
        without it is refused (``DegreeStructureError``).
    keep_witness : bool, keyword-only
        Find a non-zero minor of the last grid matrix before it is released (one more echelon
        form of it; :func:`seprank.core.minors.nonzero_minor`), so that the result's
        :meth:`~seprank.separation.result.SeparationRankResult.certificate` needs no
        re-evaluation.  Without it a
        certificate re-evaluates the last round's grid.  It does not change the structure:
        with a degree split each block keeps a minor of its own last grid (one more echelon
        form per block, ``block.evidence``), and the certificate is one of the sum
        (kind ``grid_rank_blocks``).
    budget : Budget, optional, keyword-only
        What may stop the growth early (:class:`~seprank.separation.budget.Budget`; None: the
        defaults): ``max_seconds`` (300 s; a round predicted to end after it is not started:
        ``'time_limit'``), ``max_rounds``, ``max_templates``, ``max_bytes`` (memory limit of
        one round -- grid, matricization and rank step, estimated before anything is
        allocated; None: :func:`seprank.get_memory_limit`, 2 GiB; growth that would exceed it
        stops with ``'memory_limit'``, a first round above it raises
        :class:`~seprank.core.errors.GridTooLargeError`) and ``patience`` (stop when the last 2
        rounds gave the same rank).  The 0.2 keywords ``max_seconds=`` ... raise a
        ``TypeError`` naming ``budget=``.
    progress : bool, optional, keyword-only
        Progress bars (rounds, and large grids); default: on terminals, after two seconds.
    executor : 'serial', None, int, str or distributed.Client, keyword-only
        Where the degree blocks' ranks run (:mod:`seprank.separation.distributed`):
        ``'serial'`` (default) in this process; None an embedded dask ``LocalCluster`` with
        one single-threaded worker process per core, an int that many workers, a str a
        scheduler address, or a ``distributed.Client``.  The certified result is the same;
        ``details['executor']`` says where the ranks ran and
        ``details['block_ranks_on_workers']`` what each cost there.  Other strategies compute
        one matrix and take only ``'serial'``.

    Returns
    -------
    SeparationRankResult

    Notes
    -----
    Only the stops ``'saturated'`` and ``'upper_bound'`` mean that the rank stopped growing
    (:attr:`SeparationRankResult.saturated`); after any other stop the rank is still a
    certified lower bound, and :attr:`SeparationRankResult.status` says what was reached.
    A function that is not a polynomial (``exp(<x, y>)``) has infinite separation rank: its
    rank grows until the budget (time, memory, rounds or templates) ends the loop.

    Templates are shared by all positions and nested across rounds (each round adds new
    templates), so the matrices grow and the rank never decreases.  Each round multiplies the
    number of templates by :math:`2^{1/\min(|A|,|B|)}`, doubling the smaller matrix side.
    When a side holds several positions, duplicate rows and columns (from symmetries of ``f``)
    are removed before the rank.

    References
    ----------
    .. [1] 003, eq. 5 (separation rank), App. B.1 (grid tensors,
       Claim 1: rank of any grid matricization <= sep; Claim 2: genericity).

    Examples
    --------
    >>> def inner_squared(X):            # <x1, x2>^2 in dimension 3: sep = 6
    ...     return np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** 2
    >>> r = separation_rank(inner_squared, n_inputs=2, dim=3, partition=([0], [1]), seed=0)
    >>> r.rank, r.certifies, r.stop_reason
    (6, 'lower_bound', 'saturated')
    >>> separation_rank(inner_squared, n_inputs=2, dim=3, partition=([0], [1]),
    ...                 method="symbolic").rank
    6

    A function that is not a polynomial never saturates; the budget ends it, and says so:

    >>> def exp_inner(X):
    ...     return np.exp(np.einsum("bi,bi->b", X[:, 0], X[:, 1]) / 3)
    >>> r = separation_rank(exp_inner, n_inputs=2, dim=2, partition=([0], [1]), method="svd",
    ...                     seed=0, budget=Budget(max_rounds=3))
    >>> r.stop_reason, r.status.startswith("not saturated")
    ('max_rounds', True)
    """
    request = SeparationRequest(  # validates; partition and templates are normalised there
        f, n_inputs=n_inputs, dim=dim,
        partition=partition,  # type: ignore[arg-type]
        method=method, upper_bound=upper_bound,
        templates=templates,  # type: ignore[arg-type]
        n_templates=n_templates, rtol=rtol, grid_matrix=grid_matrix, structure=structure,
        keep_witness=keep_witness, progress=progress, executor=executor)
    budget = check_budget(budget)
    strategy, request = choose_strategy(request)
    if request.executor != "serial" and strategy.name != "degree":
        raise ValueError(f"executor={executor!r} runs the blocks of structure='degree' on dask; "
                         f"the strategy {strategy.name!r} ranks one matrix: leave "
                         "executor='serial'")
    if not strategy.grid:
        return _checked(strategy.name, strategy.driver(request, None, None, budget))
    if request.method == "symbolic":  # pragma: no cover - a grid strategy registered for it
        raise ValueError(f"strategy {strategy.name!r} is a grid strategy: it cannot compute "
                         "method='symbolic'")
    prime_rng, template_rng, witness_rng = spawn(seed, 3)  # the first two as spawn(seed, 2)
    domain = domain_for(request.method, prime_rng, rtol=request.rtol)
    return _checked(strategy.name,
                    strategy.driver(request, domain, Streams(template_rng, witness_rng), budget))


def _checked(name: str, result: Any) -> SeparationRankResult:
    """A strategy driver's result, refused unless it is a :class:`SeparationRankResult`."""
    if not isinstance(result, SeparationRankResult):
        raise TypeError(f"the strategy {name!r} returned {type(result).__name__}, not a "
                        "SeparationRankResult; its driver must return the result it computed "
                        "(register_strategy)")
    return result
