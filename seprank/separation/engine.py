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

import inspect
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from seprank.core.domains import Domain, ExactDomain, FloatDomain, ModularDomain, random_small_prime
from seprank.core.grid import GridTooLargeError, grid_tensor, matricize
from seprank.core.rank import Certificate, RankResult, matrix_rank, rank_mod_p
from seprank.core.results import RankValued

__all__ = ["RoundRecord", "SeparationRankResult", "separation_rank", "validate_partition"]

Array = npt.NDArray[Any]
SepMethod = Literal["modular", "exact", "svd", "symbolic"]
StopReason = Literal["saturated", "upper_bound", "fixed", "memory_limit", "max_templates",
                     "symbolic"]

#: Exact-method templates are uniform integers in [-EXACT_TEMPLATE_RANGE, EXACT_TEMPLATE_RANGE].
EXACT_TEMPLATE_RANGE = 50
#: Automatic schedule: the first round has about this many rows/columns.
INITIAL_SIDE = 16


@dataclass(frozen=True)
class RoundRecord:
    """One round of template growth: templates used, matrix shape after de-duplication, rank."""

    n_templates: int
    rows: int
    cols: int
    rank: int
    seconds: float


@dataclass(frozen=True)
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
        ``'memory_limit'`` / ``'max_templates'`` (growth stopped by a limit; the rank is still a
        certified lower bound), ``'symbolic'``.
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
    """

    rank: int
    certifies: Certificate
    method: SepMethod
    partition: tuple[tuple[int, ...], tuple[int, ...]]
    stop_reason: StopReason
    n_templates: int
    matrix_shape: tuple[int, int]
    history: tuple[RoundRecord, ...]
    seconds: float
    upper_bound: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)


    @property
    def reached_upper_bound(self) -> bool:
        """True when ``rank == upper_bound``: if that bound is proven, sep equals ``rank``."""
        return self.upper_bound is not None and self.rank == self.upper_bound

    def summary(self) -> str:
        what = {"lower_bound": "certified lower bound on sep",
                "exact": "exact separation rank", "none": "float estimate, certifies nothing"}
        return (f"sep_(A,B) {'>=' if self.certifies == 'lower_bound' else '='} {self.rank} "
                f"({what[self.certifies]}; method {self.method}, stop: {self.stop_reason}, "
                f"{self.n_templates} templates, matrix {self.matrix_shape[0]}x"
                f"{self.matrix_shape[1]}, {self.seconds:.2f} s)")

    def __repr__(self) -> str:
        return (f"SeparationRankResult(rank={self.rank}, certifies={self.certifies!r}, "
                f"method={self.method!r}, stop_reason={self.stop_reason!r}, "
                f"n_templates={self.n_templates}, partition={self.partition})")

    def _repr_markdown_(self) -> str:
        rows = "\n".join(f"| {r.n_templates} | {r.rows}x{r.cols} | {r.rank} | {r.seconds:.2f} |"
                         for r in self.history)
        return (f"**{self.summary()}**\n\n| templates | matrix | rank | seconds |\n"
                f"|---|---|---|---|\n{rows}")


def validate_partition(
    partition: tuple[Sequence[int], Sequence[int]], n_inputs: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Check that ``partition`` = (A, B) splits ``range(n_inputs)`` into two non-empty parts.

    Examples
    --------
    >>> validate_partition(([0, 2], [1, 3]), 4)
    ((0, 2), (1, 3))
    >>> validate_partition(([0], [0, 1]), 2)
    Traceback (most recent call last):
    ...
    ValueError: partition ([0], [0, 1]) is not a partition of the positions 0..1: ...
    """
    try:
        A_raw, B_raw = partition
        A = tuple(int(a) for a in A_raw)
        B = tuple(int(b) for b in B_raw)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"partition must be a pair (A, B) of sequences of positions, got {partition!r}"
        ) from err
    problems = []
    if not A or not B:
        problems.append("both parts must be non-empty")
    if len(set(A)) != len(A) or len(set(B)) != len(B):
        problems.append("a part repeats a position")
    if set(A) & set(B):
        problems.append(f"positions {sorted(set(A) & set(B))} are in both parts")
    if set(A) | set(B) != set(range(n_inputs)):
        missing = sorted(set(range(n_inputs)) - set(A) - set(B))
        extra = sorted((set(A) | set(B)) - set(range(n_inputs)))
        problems.append(f"missing positions {missing}, unknown positions {extra}"
                        " (positions are 0-based)")
    if problems:
        raise ValueError(
            f"partition {partition!r} is not a partition of the positions 0..{n_inputs - 1}: "
            + "; ".join(problems)
        )
    return A, B


def _accepts_domain(f: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "domain" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def _dedupe(E: Array) -> Array:
    """Drop repeated rows and columns (exact equality); the rank is unchanged."""
    if E.dtype == object:
        rows = list(dict.fromkeys(tuple(r) for r in E))
        E = np.array(rows, dtype=object)
        cols = list(dict.fromkeys(tuple(c) for c in E.T))
        return np.array(cols, dtype=object).T
    return np.unique(np.unique(E, axis=0).T, axis=0).T


def _domain_evaluator(f: Callable[..., Any], domain: Domain) -> Callable[[Array], Array]:
    if _accepts_domain(f):
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


def separation_rank(
    f: Callable[..., Any],
    *,
    n_inputs: int,
    dim: int,
    partition: tuple[Sequence[int], Sequence[int]],
    method: SepMethod = "modular",
    n_templates: int | None = None,
    seed: int | np.random.Generator | None = None,
    upper_bound: int | None = None,
    templates: npt.ArrayLike | None = None,
    patience: int = 2,
    max_templates: int | None = None,
    rtol: float | None = None,
    max_bytes: int | None = None,
    progress: bool | None = None,
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
    .. [1] Seed 003_780437e4ec8fa9c6, eq. 5 (separation rank), App. B.1 (grid tensors,
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
    if patience < 1:
        raise ValueError(f"patience must be >= 1, got {patience}")
    if method == "symbolic":
        from seprank.separation.symbolic import symbolic_separation_rank

        return symbolic_separation_rank(f, n_inputs=int(n_inputs), dim=int(dim),
                                        partition=(A, B), start=start, upper_bound=upper_bound)

    parent = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    prime_rng, template_rng = (np.random.default_rng(s)
                               for s in np.random.SeedSequence(
                                   int(parent.integers(2**63))).spawn(2))
    details: dict[str, Any] = {}
    domain: Domain
    if method == "modular":
        p = random_small_prime(prime_rng)
        domain = ModularDomain(p)
        details["prime"] = p

        def sample(m: int) -> Array:
            return template_rng.integers(0, p, (m, dim))
    elif method == "exact":
        domain = ExactDomain()
        details["template_range"] = EXACT_TEMPLATE_RANGE

        def sample(m: int) -> Array:
            return template_rng.integers(-EXACT_TEMPLATE_RANGE, EXACT_TEMPLATE_RANGE + 1,
                                         (m, dim)).astype(object)
    else:
        domain = FloatDomain()

        def sample(m: int) -> Array:
            return template_rng.standard_normal((m, dim))
    details["domain"] = repr(domain)
    evaluate = _domain_evaluator(f, domain)
    small = min(len(A), len(B))

    if templates is not None:
        given = np.asarray(templates)
        if given.ndim != 2 or given.shape[1] != dim or given.shape[0] < 1:
            raise ValueError(f"templates must have shape (M, dim={dim}), got {given.shape}")
        current, fixed = domain.asarray(given), True
    elif n_templates is not None:
        if n_templates < 1:
            raise ValueError(f"n_templates must be >= 1, got {n_templates}")
        current, fixed = sample(int(n_templates)), True
    else:
        target_side = (INITIAL_SIDE if upper_bound is None
                       else upper_bound + max(8, upper_bound // 20))
        m0 = max(2, math.ceil(target_side ** (1 / small) - 1e-9))
        if max_templates is not None:
            m0 = min(m0, max_templates)
        current, fixed = sample(m0), False
    default_m0 = max(2, math.ceil(INITIAL_SIDE ** (1 / small) - 1e-9))

    history: list[RoundRecord] = []
    last: RankResult | None = None
    shape = (0, 0)
    stop: StopReason = "fixed"
    while True:
        t0 = time.perf_counter()
        try:
            tensor = grid_tensor(evaluate, current, int(n_inputs), max_bytes=max_bytes,
                                 progress=progress)
        except GridTooLargeError:
            if not history and not fixed and upper_bound is not None and len(current) > default_m0:
                # a loose upper bound sized a first grid beyond the memory limit: grow from the
                # default size instead (the bound still stops the growth if it is reached)
                details["upper_bound_sizing_skipped"] = (
                    f"{len(current)} templates to reach upper_bound={upper_bound} exceed the "
                    "memory limit; grew from the default size instead")
                current = current[:default_m0]
                continue
            if not history:
                raise
            stop = "memory_limit"
            break
        E = matricize(tensor, A, B)
        if max(len(A), len(B)) > 1:  # symmetric positions within a side repeat rows/columns
            E = _dedupe(E)
        if method == "modular":
            last = rank_mod_p(E, details["prime"])
        elif method == "exact":
            last = matrix_rank(E, method="exact")
        else:
            last = matrix_rank(E, method="svd", rtol=rtol)
        shape = (int(E.shape[0]), int(E.shape[1]))
        history.append(RoundRecord(len(current), shape[0], shape[1], last.rank,
                                   time.perf_counter() - t0))
        if fixed:
            stop = "fixed"
            break
        if upper_bound is not None and last.rank >= upper_bound:
            stop = "upper_bound"
            break
        recent = [r.rank for r in history[-patience:]]
        if len(recent) == patience and len(set(recent)) == 1 and last.rank < min(shape):
            stop = "saturated"
            break
        m = len(current)
        m_next = max(m + 1, math.ceil(m * 2 ** (1 / small)))
        if max_templates is not None and m_next > max_templates:
            stop = "max_templates"
            break
        current = np.concatenate([current, sample(m_next - m)])

    assert last is not None
    if upper_bound is not None and last.rank > upper_bound:
        details["exceeds_upper_bound"] = True
    details["last_matrix_rank"] = last.summary()
    certifies: Certificate = "none" if method == "svd" else "lower_bound"
    return SeparationRankResult(
        rank=last.rank, certifies=certifies, method=method, partition=(A, B),
        stop_reason=stop, n_templates=history[-1].n_templates, matrix_shape=shape,
        history=tuple(history), seconds=time.perf_counter() - start,
        upper_bound=upper_bound, details=details,
    )
