r"""Certified separation ranks: ranks of grid-tensor matricizations, and exact symbolic ranks.

For a function :math:`f` of N vectors and a partition (A, B) of the positions, the separation
rank is the least R with :math:`f = \sum_{r=1}^R g_r(x^A)\, g'_r(x^B)`.  For any template
vectors, the rank of the matricization :math:`[\![\mathcal A(f)]\!]_{A,B}` of the grid tensor
is at most :math:`\operatorname{sep}_{(A,B)}(f)` (seed 003, Claim 1), so every rank computed
here is a certified lower bound -- exactly so when the matrix rank itself is exact (integer
arithmetic) or a lower bound on it (GF(p)).  For a polynomial, the separation rank equals the
rank of its coefficient matrix between A-monomials and B-monomials, which
``method="symbolic"`` computes exactly.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy.typing as npt

from seprank.core.domains import (
    EXACT_TEMPLATE_RANGE,
    Domain,
    ExactDomain,
    ModularDomain,
    domain_for,
)
from seprank.core.memory import resolve_limit
from seprank.core.random import SeedLike, spawn
from seprank.core.results import SeparationMethod
from seprank.core.validation import check_bool, check_callable, check_int, check_tolerance
from seprank.separation.blocks import (
    block_separation_rank,
    rect_from_batch,
    rect_from_grid_matrix,
    resolve_structure,
)
from seprank.separation.degree import DegreeStructure
from seprank.separation.grids import (
    CallerGrid,
    GenericGrid,
    dedupe,
    domain_evaluator,
)
from seprank.separation.growth import (
    DEFAULT_MAX_SECONDS,
    GrowthBudget,
    grow_until_stable,
    plan_templates,
)
from seprank.separation.result import SeparationRankResult, validate_partition
from seprank.separation.symbolic import symbolic_separation_rank
from seprank.separation.witness import GridWitness

__all__ = ["separation_rank"]

Array = npt.NDArray[Any]


def separation_rank(
    f: Callable[..., Any],
    *,
    n_inputs: int,
    dim: int,
    partition: tuple[Sequence[int], Sequence[int]],
    method: SeparationMethod = "modular",
    n_templates: int | None = None,
    seed: SeedLike = None,
    upper_bound: int | None = None,
    templates: npt.ArrayLike | None = None,
    patience: int = 2,
    max_templates: int | None = None,
    rtol: float | None = None,
    max_bytes: int | None = None,
    progress: bool | None = None,
    grid_matrix: Callable[[Array, Domain], Array] | None = None,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    max_rounds: int | None = None,
    keep_witness: bool = False,
    structure: DegreeStructure | Literal["auto", "dense", "degree"] = "auto",
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
    n_templates : int, optional, keyword-only
        Use exactly this many templates in one round (no growth).
    seed : int or Generator, optional, keyword-only
        Seeds the prime and the templates (two independent streams).
    upper_bound : int, optional, keyword-only
        A known upper bound: the first round is sized to reach it (unless that grid would exceed
        the memory limit -- then growth starts from the default size) and growth stops when the
        rank reaches it (then, if the bound is proven, sep equals the rank).  A rank above it
        is reported in ``details['exceeds_upper_bound']``.
    templates : array_like, optional, keyword-only
        Your own ``(M, dim)`` templates (one round).  Integers for modular/exact.
    patience : int, keyword-only
        Growth stops when the last ``patience`` rounds give the same rank (default 2).
    max_templates : int, optional, keyword-only
        Cap on the number of templates (stop reason ``'max_templates'``).
    rtol : float, optional, keyword-only
        SVD tolerance for ``'svd'``.
    max_bytes : int, optional, keyword-only
        Memory limit of one round -- the grid, its matricization and the rank step, estimated
        before anything is allocated (default: :func:`seprank.get_memory_limit`, 2 GiB).
        When growth would exceed it, the last rank is returned with stop reason
        ``'memory_limit'``; a first round above it raises
        :class:`~seprank.core.grid.GridTooLargeError`.
    progress : bool, optional, keyword-only
        Progress bars (rounds, and large grids); default: on terminals, after two seconds.
    grid_matrix : callable, optional, keyword-only
        A faster evaluator of the grid matrix: ``grid_matrix(templates, domain)`` must return
        what ``matricize(grid_tensor(f, templates, n_inputs), A, B)`` returns in ``domain``
        (e.g. the in-context GF(p) grid of :func:`seprank.incontext_seq_sep`).  The engine
        checks its memory estimate before calling it: the grid (8 bytes per entry), the rank
        step, and ``grid_matrix.peak_bytes(m)`` when the callable has that attribute (its own
        temporaries for ``m`` templates).
    max_seconds : float or None, keyword-only
        Time budget of the growth (default 300 s; None: unlimited): a round predicted to end
        after it is not started, and the result says ``'time_limit'`` (not saturated).
    max_rounds : int or None, keyword-only
        Most growth rounds (stop reason ``'max_rounds'``).
    keep_witness : bool, keyword-only
        Find a non-zero minor of the last grid matrix before it is released (one more echelon
        form of it; :func:`seprank.core.minors.nonzero_minor`), so that the result's
        :meth:`~seprank.separation.result.SeparationRankResult.certificate` needs no
        re-evaluation.  Without it a
        certificate re-evaluates the last round's grid.  It does not change the structure:
        with a degree split each block keeps a minor of its own last grid (one more echelon
        form per block, ``block.evidence``), and the certificate is one of the sum
        (kind ``grid_rank_blocks``).
    structure : {'auto', 'dense', 'degree'} or DegreeStructure, keyword-only
        Split by degree (``method='modular'``; :mod:`seprank.separation.degree`): when
        :math:`f(t x_A, s x_B) = \sum_k t^{j_k} s^{k_k} f_k` with distinct A- and B-degrees,
        sep(f) is the sum of the blocks' ranks, each certified on its own grid (values by
        interpolation mod p, sized to its bound, its own growth loop); the
        :class:`~seprank.separation.degree.BlockSeparationRankResult` lists every block.
        ``'degree'``: the structure ``f.degree_structure(A, B)`` declares (network entries,
        the in-context representation); a ``DegreeStructure``: that one; ``'auto'``
        (default): ``'degree'`` when ``f`` declares one (modular, no fixed templates), else
        ``'dense'`` (one grid).  A declared structure is tested at random points first: a
        function without it is refused (``DegreeStructureError``).

    Returns
    -------
    SeparationRankResult

    Notes
    -----
    Only the stops ``'saturated'`` and ``'upper_bound'`` mean that the rank stopped growing
    (:attr:`SeparationRankResult.saturated`); after any other stop the rank is still a
    certified lower bound, and :attr:`SeparationRankResult.status` says what was reached.
    A function that is not a polynomial (``exp(<x, y>)``) has infinite separation rank: its
    rank grows until the time budget, the memory limit or ``max_templates`` ends the loop.

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
    """
    start = time.perf_counter()
    A, B = _validate(f, n_inputs, dim, partition, method, rtol)
    n_inputs, dim = int(n_inputs), int(dim)
    if upper_bound is not None:
        upper_bound = check_int("upper_bound", upper_bound, minimum=0)
    if method == "symbolic":
        return symbolic_separation_rank(f, n_inputs=n_inputs, dim=dim,
                                        partition=(A, B), start=start, upper_bound=upper_bound)
    limit = resolve_limit(max_bytes)
    budget = GrowthBudget(max_seconds=max_seconds, max_rounds=max_rounds)
    if grid_matrix is not None:
        check_callable("grid_matrix", grid_matrix, "a function (templates, domain) -> matrix")
    keep_witness = check_bool("keep_witness", keep_witness)
    declared = resolve_structure(structure, f, (A, B), method, fixed=templates is not None
                                 or n_templates is not None, rectangular=grid_matrix is None
                                 or hasattr(grid_matrix, "rectangular"))
    prime_rng, template_rng, witness_rng = spawn(seed, 3)  # the first two as spawn(seed, 2)
    domain = domain_for(method, prime_rng, rtol=rtol)
    if declared is not None:
        assert isinstance(domain, ModularDomain)
        rect = (rect_from_batch(domain_evaluator(f, domain), n_inputs, A, B, limit)
                if grid_matrix is None or max(len(A), len(B)) > 1
                else rect_from_grid_matrix(grid_matrix, domain))
        return block_separation_rank(
            rect, declared, domain=domain, template_rng=template_rng, partition=(A, B), dim=dim,
            method=method, upper_bound=upper_bound, patience=patience,
            max_templates=max_templates, budget=budget, limit=limit, progress=progress,
            dedupe=dedupe, start=start, function=f, n_inputs=n_inputs,
            keep_witness=keep_witness)
    plan = plan_templates(domain, template_rng, dim=dim, smaller_side=min(len(A), len(B)),
                          templates=templates, n_templates=n_templates, upper_bound=upper_bound,
                          max_templates=max_templates)
    matrix_of: GenericGrid | CallerGrid
    if grid_matrix is None:
        matrix_of = GenericGrid(f, domain, n_inputs, A, B, limit, progress)
    else:
        matrix_of = CallerGrid(grid_matrix, domain, len(A), len(B), limit)
    witness = GridWitness(f, n_inputs, dim, domain, matrix_of, (len(A), len(B)), witness_rng)
    outcome = grow_until_stable(
        matrix_of, plan, upper_bound=upper_bound, patience=patience,
        max_templates=max_templates, budget=budget, progress=progress,
        on_final=witness.on_final if keep_witness and witness.certified else None)
    details: dict[str, Any] = {"domain": repr(domain), **outcome.notes}
    if isinstance(domain, ModularDomain):
        details["prime"] = domain.p
    elif isinstance(domain, ExactDomain):
        details["template_range"] = EXACT_TEMPLATE_RANGE
    if upper_bound is not None and outcome.last.rank > upper_bound:
        details["exceeds_upper_bound"] = True
    details["last_matrix_rank"] = outcome.last.summary()
    return SeparationRankResult(
        rank=outcome.last.rank, certifies="none" if method == "svd" else "lower_bound",
        method=method, partition=(A, B), stop_reason=outcome.stop,
        n_templates=outcome.n_templates, matrix_shape=outcome.matrix_shape,
        history=outcome.history, seconds=time.perf_counter() - start,
        upper_bound=upper_bound, details=details, evidence=witness.evidence(outcome),
    )


def _validate(f: Any, n_inputs: Any, dim: Any, partition: Any, method: Any,
              rtol: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    check_callable("f", f, "a batch function f(X) of X with shape (batch, n_inputs, dim)")
    n_inputs = check_int("n_inputs (two non-empty parts)", n_inputs, minimum=2)
    check_int("dim", dim)
    A, B = validate_partition(partition, n_inputs)
    if method not in ("modular", "exact", "svd", "symbolic"):
        raise ValueError(f"unknown method {method!r}: 'modular', 'exact', 'svd' or 'symbolic'")
    if rtol is not None and method != "svd":
        raise ValueError("rtol is the tolerance of method='svd'")
    check_tolerance("rtol", rtol)
    return A, B
