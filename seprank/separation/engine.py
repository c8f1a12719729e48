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
from fractions import Fraction
from typing import Any, Literal

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
from seprank.core.grid import GridTooLargeError, grid_tensor, matricize
from seprank.core.inputs import to_rational
from seprank.core.memory import RANK_STEP_FACTOR, resolve_limit
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
from seprank.separation.growth import (
    DEFAULT_MAX_SECONDS,
    GrowthBudget,
    grow_until_stable,
    plan_templates,
)
from seprank.separation.result import SeparationRankResult, accepts_domain, validate_partition
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
        form of it; :func:`seprank.core.minors.nonzero_minor`), so that
        :func:`seprank.certificates.grid_certificate` needs no re-evaluation.  Without it a
        certificate re-evaluates the last round's grid.  With ``structure='auto'`` it selects
        the dense grid; with a degree split it is refused (blocks have no certificate yet).
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
    if keep_witness and isinstance(structure, str) and structure == "auto":
        structure = "dense"       # a certificate is a minor of one dense grid
    declared = resolve_structure(structure, f, (A, B), method, fixed=templates is not None
                                 or n_templates is not None, rectangular=grid_matrix is None
                                 or hasattr(grid_matrix, "rectangular"))
    prime_rng, template_rng, witness_rng = spawn(seed, 3)  # the first two as spawn(seed, 2)
    domain = domain_for(method, prime_rng, rtol=rtol)
    if declared is not None:
        if keep_witness:
            raise ValueError("keep_witness=True keeps a minor of one dense grid for a "
                             "certificate; degree blocks have no certificate yet: pass "
                             "structure='dense' (or keep_witness=False)")
        assert isinstance(domain, ModularDomain)
        rect = (rect_from_batch(_domain_evaluator(f, domain), n_inputs, A, B, limit)
                if grid_matrix is None or max(len(A), len(B)) > 1
                else rect_from_grid_matrix(grid_matrix, domain))
        return block_separation_rank(
            rect, declared, domain=domain, template_rng=template_rng, partition=(A, B), dim=dim,
            method=method, upper_bound=upper_bound, patience=patience,
            max_templates=max_templates, budget=budget, limit=limit, progress=progress,
            dedupe=_dedupe_matrix, start=start)
    plan = plan_templates(domain, template_rng, dim=dim, smaller_side=min(len(A), len(B)),
                          templates=templates, n_templates=n_templates, upper_bound=upper_bound,
                          max_templates=max_templates)
    matrix_of: _GenericGrid | _CallerGrid
    if grid_matrix is None:
        matrix_of = _GenericGrid(f, domain, n_inputs, A, B, limit, progress)
    else:
        matrix_of = _CallerGrid(grid_matrix, domain, len(A), len(B), limit)
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


def _entry_bytes(domain: Domain, bits: int = 64) -> int:
    """Bytes per grid entry in ``domain``: int64 residues, floats, or exact objects of about
    ``bits`` bits (a Python int, its flint copy and the elimination's copies all grow with
    the size of the numbers: ~64 + bits/2 bytes, measured with getrusage on 150-bit entries)."""
    if isinstance(domain, ExactDomain):
        return 64 + bits // 2
    if isinstance(domain, FloatDomain) and domain.complex_:
        return 16
    return 8


def _bits(values: Array) -> int:
    """The largest bit size of the exact numbers in ``values`` (numerator plus denominator)."""
    best = 0
    for v in np.asarray(values, dtype=object).ravel():
        q = to_rational(v)
        best = max(best, abs(q.numerator).bit_length() + q.denominator.bit_length()
                   if isinstance(q, Fraction) else abs(q).bit_length())
    return best


def _round_bytes(n_rows: int, n_cols: int, domain: Domain, *, copies: float,
                 extra: int = 0, bits: int = 64) -> int:
    """Peak of one round: ``copies`` grid-sized arrays while the matrix is built, or the
    matrix plus its rank step (:data:`~seprank.core.memory.RANK_STEP_FACTOR`), whichever is
    larger, plus the evaluator's own temporaries ``extra``."""
    grid = n_rows * n_cols * _entry_bytes(domain, bits)
    return int(grid * max(copies, 1 + RANK_STEP_FACTOR[domain.method])) + extra


def _too_large(what: str, need: int, limit: int) -> GridTooLargeError:
    return GridTooLargeError(
        f"{what} needs about {need / 2**30:.3g} GiB with its rank step, above the limit of "
        f"{limit / 2**30:.3g} GiB. Use fewer templates, or raise the limit with max_bytes= or "
        "seprank.set_memory_limit(n_bytes) if the machine has the memory.",
        needed=need, limit=limit, what=what)


class _GenericGrid:
    """The grid matrix of any batch function: grid tensor, matricization, de-duplication."""

    def __init__(self, f: Callable[..., Any], domain: Domain, n_inputs: int,
                 A: tuple[int, ...], B: tuple[int, ...], limit: int,
                 progress: bool | None) -> None:
        self.evaluate = _domain_evaluator(f, domain)
        self.domain, self.n_inputs, self.A, self.B = domain, n_inputs, A, B
        self.limit, self.progress = limit, progress
        #: Bit size of the exact values seen so far (ExactDomain: entries grow with it).
        self.bits = 64
        #: Rows and columns of the last matrix in the full matricization (after de-duplication).
        self.kept: tuple[Array, Array] | None = None

    def peak_bytes(self, m: int) -> int:
        dedupe = max(len(self.A), len(self.B)) > 1
        return _round_bytes(m ** len(self.A), m ** len(self.B), self.domain,
                            copies=4 if dedupe else 2, bits=self.bits)

    def _probe_bits(self, templates: Array) -> None:
        """Exact values can be large (a degree-3^L polynomial): measure a few before sizing."""
        m = len(templates)
        idx = np.arange(_PROBE_POINTS)[:, None] * (1 + np.arange(self.n_inputs)) % m
        self.bits = max(self.bits, _bits(self.evaluate(np.asarray(templates)[idx])))

    def fits(self, m: int) -> bool:
        return self.peak_bytes(m) <= self.limit

    def __call__(self, templates: Array) -> Array:
        m = len(templates)
        exact = isinstance(self.domain, ExactDomain)
        if exact:
            self._probe_bits(templates)
        need = self.peak_bytes(m)
        if need > self.limit:
            raise _too_large(f"the {m ** len(self.A):,} x {m ** len(self.B):,} grid matrix of "
                             f"{m} templates", need, self.limit)
        tensor = grid_tensor(self.evaluate, templates, self.n_inputs, max_bytes=self.limit,
                             progress=self.progress)
        E = matricize(tensor, self.A, self.B)
        del tensor
        self.kept = None
        if max(len(self.A), len(self.B)) > 1:  # symmetric positions repeat rows/columns
            E, self.kept = _dedupe(E)
        if exact:  # the real sizes, before the rank step allocates its copies
            self.bits = max(self.bits, _bits(E))
            need = _round_bytes(E.shape[0], E.shape[1], self.domain, copies=1, bits=self.bits)
            if need > self.limit:
                raise _too_large(f"the exact rank of a {E.shape[0]:,} x {E.shape[1]:,} matrix "
                                 f"of {self.bits}-bit numbers", need, self.limit)
        return E


class _CallerGrid:
    """A caller's faster grid evaluator, memory-checked and shape-checked."""

    def __init__(self, grid_matrix: Callable[[Array, Domain], Array], domain: Domain,
                 n_a: int, n_b: int, limit: int) -> None:
        self.grid_matrix, self.domain, self.n_a, self.n_b = grid_matrix, domain, n_a, n_b
        self.limit = limit

    def peak_bytes(self, m: int) -> int:
        own = getattr(self.grid_matrix, "peak_bytes", None)
        extra = int(own(m)) if own is not None else 0
        return _round_bytes(m ** self.n_a, m ** self.n_b, self.domain, copies=1, extra=extra)

    def fits(self, m: int) -> bool:
        return self.peak_bytes(m) <= self.limit

    def __call__(self, templates: Array) -> Array:
        m = len(templates)
        need = self.peak_bytes(m)
        if need > self.limit:
            raise _too_large(f"the {m ** self.n_a:,} x {m ** self.n_b:,} grid matrix", need,
                             self.limit)
        E = np.asarray(self.grid_matrix(templates, self.domain))
        if E.shape != (m ** self.n_a, m ** self.n_b):
            raise ValueError(f"grid_matrix returned shape {E.shape}, expected "
                             f"{(m ** self.n_a, m ** self.n_b)} for {m} templates")
        return E


def _dedupe(E: Array) -> tuple[Array, tuple[Array, Array]]:
    """Drop repeated rows and columns (exact equality; the rank is unchanged); also return the
    indices of the kept rows and columns."""
    if E.dtype == object:
        first_row: dict[tuple[Any, ...], int] = {}
        for k, r in enumerate(E):
            first_row.setdefault(tuple(r), k)
        rows = np.fromiter(first_row.values(), dtype=np.int64, count=len(first_row))
        first_col: dict[tuple[Any, ...], int] = {}
        for k, c in enumerate(E[rows].T):
            first_col.setdefault(tuple(c), k)
        cols = np.fromiter(first_col.values(), dtype=np.int64, count=len(first_col))
    else:
        rows = np.unique(E, axis=0, return_index=True)[1]
        cols = np.unique(E[rows].T, axis=0, return_index=True)[1]
    return E[np.ix_(rows, cols)], (rows, cols)


def _dedupe_matrix(E: Array) -> Array:
    """:func:`_dedupe` without the kept indices (what the degree blocks need)."""
    return _dedupe(E)[0]


#: Template tuples evaluated to measure the size of exact values before a round is sized.
_PROBE_POINTS = 8


#: What a modular / exact evaluation may return: exact rationals only.
_EXACT_HINT = (
    "Evaluate f safely: compute with the Python ints it receives (no astype(np.int64) / "
    "np.int32 casts, which wrap around silently on overflow), or with fractions.Fraction, or "
    "let f accept domain= and compute with the domain's operations (domain.mul, domain.add, "
    "domain.matmul), as seprank.LinearAttention.entry does; otherwise use method='svd' (a "
    "float estimate that certifies nothing)")


def _refuse_inexact(values: Array, how: str) -> None:
    """Refuse results that are not exact rationals: fixed-width integers may have wrapped."""
    if values.dtype.kind in "iub":
        raise TypeError(
            f"f returned fixed-width {values.dtype} values {how}: they may have overflowed and "
            f"wrapped around, so no rank computed from them can be certified. {_EXACT_HINT}")
    if values.dtype.kind in "fc":
        raise TypeError(f"f returned floats ({values.dtype}) {how}; the modular and exact "
                        f"methods need exact values. {_EXACT_HINT}")
    for v in values.ravel():
        if isinstance(v, np.generic):
            kind = "floats" if isinstance(v, np.inexact) else f"numpy {type(v).__name__} scalars"
            raise TypeError(f"f returned {kind} {how} (fixed-width numbers may have overflowed "
                            f"and wrapped around, floats are not exact). {_EXACT_HINT}")
        if isinstance(v, float | complex):
            raise TypeError(f"f returned floats {how}; the modular and exact methods need "
                            f"exact values. {_EXACT_HINT}")


def _domain_evaluator(f: Callable[..., Any], domain: Domain) -> Callable[[Array], Array]:
    if accepts_domain(f):
        if isinstance(domain, ModularDomain):
            def evaluate_mod(X: Array) -> Array:
                values = np.asarray(f(X, domain=domain))
                if values.dtype == object:
                    _refuse_inexact(values, "with domain=ModularDomain")
                elif values.dtype.kind not in "iu":
                    raise TypeError(f"f returned {values.dtype} values in GF(p); a domain-aware "
                                    "f must return integer residues")
                elif values.size and (values.min() < 0 or values.max() >= domain.p):
                    raise ValueError(
                        f"f(X, domain=ModularDomain(p={domain.p})) returned values outside "
                        "[0, p): it did not compute in GF(p) (int64 arithmetic outside the "
                        f"domain can overflow silently). {_EXACT_HINT}")
                return domain.asarray(values)
            return evaluate_mod
        if isinstance(domain, ExactDomain):
            def evaluate_exact(X: Array) -> Array:
                values = np.asarray(f(X, domain=domain))
                _refuse_inexact(values, "with domain=ExactDomain()")
                return values
            return evaluate_exact
        return lambda X: np.asarray(f(X, domain=domain))
    if isinstance(domain, FloatDomain):
        return lambda X: np.asarray(f(X))
    exact = ExactDomain()

    def evaluate(X: Array) -> Array:
        values = np.asarray(f(exact.asarray(X)))
        _refuse_inexact(values, "on exact integer inputs")
        return domain.asarray(values)

    return evaluate
