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
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.domains import (
    EXACT_TEMPLATE_RANGE,
    Domain,
    ExactDomain,
    FloatDomain,
    ModularDomain,
    domain_for,
)
from seprank.core.grid import GridTooLargeError, get_grid_memory_limit, grid_tensor, matricize
from seprank.core.random import SeedLike, spawn
from seprank.core.results import SeparationMethod
from seprank.separation.growth import grow_until_stable, plan_templates
from seprank.separation.result import SeparationRankResult, accepts_domain, validate_partition
from seprank.separation.symbolic import symbolic_separation_rank

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
) -> SeparationRankResult:
    r"""Separation rank of ``f`` w.r.t. the partition (A, B), with its certificate.

    Parameters
    ----------
    f : callable
        Batch-evaluable: ``f(X)`` with ``X`` of shape ``(batch, n_inputs, dim)`` returns
        ``(batch,)``.  If it accepts a ``domain=`` keyword (as network entries do, see
        :meth:`seprank.LinearAttention.entry`) it is evaluated natively in GF(p) / exactly;
        otherwise modular and exact methods evaluate it on Python integers (exact, slower).
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
        Memory limit per grid (default: :func:`seprank.get_grid_memory_limit`).  When growth
        would exceed it, the last rank is returned with stop reason ``'memory_limit'``.
    progress : bool, optional, keyword-only
        Progress bars for large grids.
    grid_matrix : callable, optional, keyword-only
        A faster evaluator of the grid matrix: ``grid_matrix(templates, domain)`` must return
        what ``matricize(grid_tensor(f, templates, n_inputs), A, B)`` returns in ``domain``
        (e.g. the in-context GF(p) grid of :func:`seprank.incontext_seq_sep`).  The engine
        checks its memory estimate (one 8-byte entry per grid point) before calling it.

    Returns
    -------
    SeparationRankResult

    Notes
    -----
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
    A, B = _validate(n_inputs, dim, partition, method, rtol)
    if method == "symbolic":
        return symbolic_separation_rank(f, n_inputs=int(n_inputs), dim=int(dim),
                                        partition=(A, B), start=start, upper_bound=upper_bound)
    prime_rng, template_rng = spawn(seed, 2)
    domain = domain_for(method, prime_rng, rtol=rtol)
    plan = plan_templates(domain, template_rng, dim=int(dim), smaller_side=min(len(A), len(B)),
                          templates=templates, n_templates=n_templates, upper_bound=upper_bound,
                          max_templates=max_templates)
    if grid_matrix is None:
        matrix_of = _generic_grid_matrix(f, domain, int(n_inputs), A, B, max_bytes, progress)
    else:
        matrix_of = _guarded_grid_matrix(grid_matrix, domain, len(A), len(B), max_bytes)
    outcome = grow_until_stable(matrix_of, plan, upper_bound=upper_bound, patience=patience,
                                max_templates=max_templates)
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
        upper_bound=upper_bound, details=details,
    )


def _validate(n_inputs: Any, dim: Any, partition: Any, method: Any,
              rtol: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if isinstance(n_inputs, bool) or not isinstance(n_inputs, int | np.integer) or n_inputs < 2:
        raise ValueError(
            f"n_inputs must be an integer >= 2 (two non-empty parts), got {n_inputs!r}"
        )
    if isinstance(dim, bool) or not isinstance(dim, int | np.integer) or dim < 1:
        raise ValueError(f"dim must be a positive integer, got {dim!r}")
    A, B = validate_partition(partition, int(n_inputs))
    if method not in ("modular", "exact", "svd", "symbolic"):
        raise ValueError(f"unknown method {method!r}: 'modular', 'exact', 'svd' or 'symbolic'")
    if rtol is not None and method != "svd":
        raise ValueError("rtol is the tolerance of method='svd'")
    return A, B


def _generic_grid_matrix(f: Callable[..., Any], domain: Domain, n_inputs: int,
                         A: tuple[int, ...], B: tuple[int, ...], max_bytes: int | None,
                         progress: bool | None) -> Callable[[Array], Array]:
    evaluate = _domain_evaluator(f, domain)

    def matrix_of(templates: Array) -> Array:
        tensor = grid_tensor(evaluate, templates, n_inputs, max_bytes=max_bytes,
                             progress=progress)
        E = matricize(tensor, A, B)
        if max(len(A), len(B)) > 1:  # symmetric positions within a side repeat rows/columns
            E = _dedupe(E)
        return E

    return matrix_of


def _guarded_grid_matrix(grid_matrix: Callable[[Array, Domain], Array], domain: Domain,
                         n_a: int, n_b: int,
                         max_bytes: int | None) -> Callable[[Array], Array]:
    limit = get_grid_memory_limit() if max_bytes is None else int(max_bytes)

    def matrix_of(templates: Array) -> Array:
        m = len(templates)
        need = m ** (n_a + n_b) * 8
        if need > limit:
            raise GridTooLargeError(
                f"the {m ** n_a} x {m ** n_b} grid matrix needs about {need / 2**30:.2f} GiB, "
                f"above the limit of {limit / 2**30:.2f} GiB; raise max_bytes= or use fewer "
                "templates")
        E = np.asarray(grid_matrix(templates, domain))
        if E.shape != (m ** n_a, m ** n_b):
            raise ValueError(f"grid_matrix returned shape {E.shape}, expected "
                             f"{(m ** n_a, m ** n_b)} for {m} templates")
        return E

    return matrix_of


def _dedupe(E: Array) -> Array:
    """Drop repeated rows and columns (exact equality); the rank is unchanged."""
    if E.dtype == object:
        rows = list(dict.fromkeys(tuple(r) for r in E))
        E = np.array(rows, dtype=object)
        cols = list(dict.fromkeys(tuple(c) for c in E.T))
        return np.array(cols, dtype=object).T
    return np.unique(np.unique(E, axis=0).T, axis=0).T


def _domain_evaluator(f: Callable[..., Any], domain: Domain) -> Callable[[Array], Array]:
    if accepts_domain(f):
        return lambda X: np.asarray(f(X, domain=domain))
    if isinstance(domain, FloatDomain):
        return lambda X: np.asarray(f(X))
    exact = ExactDomain()

    def evaluate(X: Array) -> Array:
        values = np.asarray(f(exact.asarray(X)))
        if values.dtype.kind in "fc" or any(isinstance(v, float) for v in values.ravel()):
            raise TypeError(
                "f returned floats on integer inputs; the modular and exact methods need f to "
                "compute with exact integers (or to accept domain=), otherwise use method='svd'"
            )
        return domain.asarray(values)

    return evaluate


