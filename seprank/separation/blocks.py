r"""The block engine: a separation rank as the sum of its degree blocks' certified ranks.

:func:`block_separation_rank` is the driver of the ``'degree'`` strategy
(:mod:`seprank.separation.strategies`): what :func:`seprank.separation_rank` runs with
``structure='degree'``, a :class:`~seprank.separation.degree.DegreeStructure`, or
``structure='auto'`` when f declares its degree structure and the method is ``'modular'``
(:func:`select_degree`):

1. interpolation nodes :math:`t_i` and weights mod p
   (:func:`~seprank.separation.degree.interpolation_nodes`);
2. the declared structure is tested at random points
   (:func:`~seprank.separation.degree.check_structure`; a wrong one is refused);
3. one **sweep** evaluates f at the scaled grids :math:`f(t_i\,a_r, b_s)` once for all blocks --
   every block uses a prefix of one shared template stream, block k the first :math:`m_k`
   templates, sized to its own bound -- and extracts each block's grid (a GF(p) product of the
   interpolation weights with the values, per chunk of rows only for the blocks that use one
   of its rows and over the columns they use, :func:`seprank.core.modfloat.matmul_mod`);
   when every block's grid does not fit the memory limit at once, the serial blocks share as
   few sweeps as fit, the largest together (:func:`sweep_groups`), each run when its first
   block is ranked -- not one sweep per block, which would evaluate every smaller block's
   grid again (with ``executor=`` the workers take every first round at once: one sweep
   when they fit, else one per block);
4. each block, smallest first, runs the ordinary growth loop
   :func:`~seprank.separation.growth.grow_until_stable` with its own plan (same template
   stream), memory guard and what is left of the
   :class:`~seprank.separation.budget.Budget`'s time: its
   first round is served from the sweep, later rounds (rare: a block that did not reach its
   bound) evaluate the scaled grids again for that block only.  With ``executor=`` the first
   rounds' ranks run on dask workers (:mod:`seprank.separation.distributed`).

The result's rank is the sum of the block ranks, a certified lower bound on sep under the
declared structure; when every block reaches its size bound it is sep exactly.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from seprank.core.cluster import available_cores
from seprank.core.domains import Domain, ModularDomain
from seprank.core.gfp_elimination import MAX_PRIME as ELIMINATION_MAX_PRIME
from seprank.core.gfp_elimination import elimination_bytes, widen_in_place
from seprank.core.grid import GridTooLargeError
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.modfloat import from_balanced, matmul_mod, to_balanced
from seprank.core.progress import track
from seprank.core.rank import RankResult, rank_mod_p_in_place
from seprank.core.types import Array
from seprank.separation.budget import Budget
from seprank.separation.degree import (
    BlockSeparationRankResult,
    DegreeBlock,
    DegreeStructure,
    check_structure,
    interpolation_nodes,
)
from seprank.separation.distributed import block_ranks
from seprank.separation.grids import dedupe, domain_evaluator
from seprank.separation.growth import grow_until_stable, plan_templates
from seprank.separation.request import SeparationRequest
from seprank.separation.result import (
    SATURATED_STOPS,
    GridEvidence,
    GridMinor,
    StopReason,
)
from seprank.separation.strategies import Streams, register_strategy
from seprank.separation.witness import find_grid_minor

__all__ = ["block_separation_rank", "rank_step_bytes", "rect_from_batch",
           "rect_from_grid_matrix", "select_degree", "sweep_groups"]

#: ``evaluate(a_points, b_points)`` -> the grid [f(a_r, b_s)] mod p (int64 or balanced float64)
#: for a_points of shape (R, |A|, dim) and b_points of shape (S, |B|, dim).
RectEvaluator = Callable[[Array, Array], Array]
#: Rows and columns of a de-duplicated block matrix in the full matricization.
Kept = tuple[Array, Array]
#: ``dedupe(E) -> (E without repeated rows and columns, kept)``
#: (:func:`seprank.separation.grids.dedupe`).
Dedupe = Callable[[Array], tuple[Array, Kept]]

#: Extra rows and columns over a block's bound in its first round.  A GF(p) grid of a
#: bound-rank block with 8 spare rows/columns falls short of the bound only if all its
#: bound-size minors vanish mod p; when it does, the block's growth loop adds a round.
BLOCK_MARGIN = 8
#: Bytes of one sweep chunk's temporaries (scaled grids and their block values).
CHUNK_BYTES = 96 * 2**20
#: Bytes per entry of the n x n interpolation system of n blocks while it is built and inverted:
#: Python ints in lists (V and its inverse), FLINT's matrices and the int64 inverse.
INTERPOLATION_ENTRY_BYTES = 2 * (8 + 32) + 2 * 8 + 8
#: Resident bytes of one local dask worker process with seprank, numpy and flint imported.
WORKER_PROCESS_BYTES = 300 * 2**20
#: Largest int32 grid a ``realloc`` to twice its size may copy instead of remap: glibc
#: serves an allocation from its heap below its mmap threshold (dynamic, at most 32 MiB on
#: 64-bit systems) and may move it by copying; above, ``mremap`` moves pages, not bytes.
REALLOC_COPY_BYTES = 32 * 2**20


def _tuples(m: int, k: int) -> Array:
    """All k-tuples over range(m) in lexicographic order, shape (m**k, k)."""
    if k == 1:
        return np.arange(m)[:, None]
    return np.array(list(itertools.product(range(m), repeat=k)), dtype=np.int64).reshape(-1, k)


def select_degree(request: SeparationRequest, named: bool) -> SeparationRequest | None:
    """The degree strategy's ``select`` hook: the request with its degree structure resolved
    (the given :class:`~seprank.separation.degree.DegreeStructure`, or the one
    ``f.degree_structure(A, B)`` declares), or None when ``structure='auto'`` should not split
    (f declares none, or the caller's ``grid_matrix`` has no rectangular evaluator).

    Parameters
    ----------
    request : SeparationRequest
        The validated arguments of :func:`seprank.separation_rank`.
    named : bool
        The caller named the strategy (``structure='degree'`` or a structure object): refuse with
        a ``ValueError`` instead of returning None.

    Returns
    -------
    SeparationRequest or None
        The request with its degree structure resolved, or None when ``'auto'`` should not split.

    Examples
    --------
    >>> from seprank.separation.request import SeparationRequest
    >>> request = SeparationRequest(len, n_inputs=2, dim=1, partition=([0], [1]))
    >>> select_degree(request, named=False) is None
    True
    >>> select_degree(request, named=True)
    Traceback (most recent call last):
    ...
    ValueError: structure='degree': f declares no degree structure ... use structure='dense'
    """
    declared: Any = request.structure
    if not isinstance(declared, DegreeStructure):
        declare = getattr(request.f, "degree_structure", None)
        declared = declare(*request.partition) if callable(declare) else None
        if declared is None:
            if named:
                raise ValueError("structure='degree': f declares no degree structure (no "
                                 "f.degree_structure(A, B)); pass a DegreeStructure(...) or use "
                                 "structure='dense'")
            return None
        if not isinstance(declared, DegreeStructure):
            raise TypeError(f"f.degree_structure(A, B) must return a DegreeStructure or None, "
                            f"got {type(declared).__name__}")
    if not named and not _rectangular(request):
        return None
    return replace(request, structure=declared)


def _rectangular(request: SeparationRequest) -> bool:
    """Whether the blocks can evaluate f on rectangular grids: the generic evaluator, or the
    caller's ``grid_matrix.rectangular``."""
    return request.grid_matrix is None or hasattr(request.grid_matrix, "rectangular")


def rect_from_batch(evaluate: Callable[[Array], Array], n_inputs: int, A: tuple[int, ...],
                    B: tuple[int, ...], limit: int) -> RectEvaluator:
    """A rectangular grid evaluator from a batch evaluator ``X (batch, N, dim) -> (batch,)``
    (residues): rows are the A-points, columns the B-points, evaluated in memory-bounded
    batches.

    Parameters
    ----------
    evaluate : callable
        Batch evaluator ``X (batch, N, dim) -> (batch,)`` of residues.
    n_inputs : int
        N, the number of positions.
    A, B : tuple of int
        The two parts of the partition.
    limit : int
        Memory limit in bytes of one evaluation batch.

    Returns
    -------
    callable
        ``rect(a_points, b_points)`` -> the matrix of values, rows the A-points, columns the
        B-points.

    Examples
    --------
    >>> rect = rect_from_batch(lambda X: X[:, 0, 0] * X[:, 1, 0], 2, (0,), (1,), 2**20)
    >>> rect(np.array([[[2]], [[3]]]), np.array([[[5]], [[7]]])).tolist()
    [[10, 14], [15, 21]]
    """
    def rect(a_pts: Array, b_pts: Array) -> Array:
        R, S, dim = len(a_pts), len(b_pts), a_pts.shape[-1]
        guard_memory(array_bytes((R, S), np.int64), what=f"a {R:,} x {S:,} scaled grid",
                     fix="use fewer templates", max_bytes=limit)
        out = np.empty((R, S), dtype=np.int64)
        rows = max(1, CHUNK_BYTES // max(1, 3 * 8 * S * n_inputs * dim))
        for r0 in range(0, R, rows):
            r1 = min(R, r0 + rows)
            X = np.empty((r1 - r0, S, n_inputs, dim), dtype=np.int64)
            X[:, :, list(A)] = a_pts[r0:r1, None]
            X[:, :, list(B)] = b_pts[None]
            out[r0:r1] = np.asarray(evaluate(X.reshape(-1, n_inputs, dim))).reshape(r1 - r0, S)
        return out

    return rect


def rect_from_grid_matrix(grid_matrix: Any, domain: ModularDomain) -> RectEvaluator:
    """The caller's structured evaluator ``grid_matrix.rectangular(a, b, domain)`` (one
    position per side) as a rectangular grid evaluator; a ``grid_matrix.expect_pairs(n)``
    method is kept as the evaluator's, and each sweep calls it with the number of pairs it will
    evaluate (e.g. to choose a kernel that pays for its compilation).

    Parameters
    ----------
    grid_matrix : object
        The caller's structured evaluator, with a ``rectangular(a, b, domain)`` method.
    domain : ModularDomain
        The GF(p) domain of the blocks.

    Returns
    -------
    callable
        ``rect(a_points, b_points)`` -> the matrix of values.

    Examples
    --------
    >>> class G:
    ...     def rectangular(self, a, b, domain):
    ...         return np.mod(a @ b.T, domain.p)
    >>> rect_from_grid_matrix(G(), ModularDomain(7))(np.ones((2, 1, 3), int),
    ...                                             np.ones((1, 1, 3), int)).tolist()
    [[3], [3]]
    """
    def rect(a_pts: Array, b_pts: Array) -> Array:
        return np.asarray(grid_matrix.rectangular(a_pts[:, 0], b_pts[:, 0], domain))

    announce = getattr(grid_matrix, "expect_pairs", None)
    if callable(announce):  # the sweep says how many pairs it will evaluate
        rect.expect_pairs = announce  # type: ignore[attr-defined]
    return rect


class _Sweep:
    """Evaluates the scaled grids of f and extracts block matrices (int32 residues)."""

    def __init__(self, evaluate: RectEvaluator, domain: ModularDomain, nodes: tuple[int, ...],
                 inverse: Array, n_a: int, n_b: int,
                 dedupe: Dedupe | None) -> None:
        self.evaluate, self.p, self.nodes = evaluate, domain.p, nodes
        self.weights = to_balanced(inverse, domain.p)
        self.n_a, self.n_b, self.dedupe = n_a, n_b, dedupe
        # block -> (templates, matrix, kept rows/columns of the matricization or None)
        self.cache: dict[int, tuple[Array, Array, Kept | None]] = {}
        self.seconds = 0.0
        #: Evaluations of f made so far (pairs of points, every scaling counted) and the
        #: templates of each run: the sweep's work in counts, robust under load.
        self.pairs = 0
        self.runs: list[int] = []
        #: Pairs the driver plans to evaluate in all its shared sweeps (announced to the
        #: evaluator with each run, so that a kernel worth compiling for the whole plan is
        #: compiled even when the plan is split into several sweeps).
        self.planned_pairs = 0

    def pairs_of(self, m: int) -> int:
        """Evaluations of f by one run over ``m`` templates (every scaling)."""
        rows, cols = self.shape(m)
        return len(self.nodes) * rows * cols

    def shape(self, m: int) -> tuple[int, int]:
        return m ** self.n_a, m ** self.n_b

    def temp_bytes(self, m: int) -> int:
        rows, cols = self.shape(m)
        return min(CHUNK_BYTES, 4 * 8 * len(self.nodes) * rows * cols) + 32 * (rows + cols)

    def cached_bytes(self, exclude: int | None = None) -> int:
        return sum(M.nbytes for k, (_, M, _) in self.cache.items() if k != exclude)

    def run(self, templates: Array, sizes: dict[int, int], deadline: float | None = None
            ) -> dict[int, tuple[Array, Kept | None]]:
        """Block matrices over the first ``sizes[k]`` templates, for every requested k, with
        the rows and columns they kept of the full matricization (None: nothing removed).
        Past ``deadline`` (a :func:`time.perf_counter` value) it stops between chunks with
        :class:`_OutOfTime`."""
        start = time.perf_counter()
        p, blocks = self.p, sorted(sizes)
        m_max = max(sizes.values())
        rows_all, cols_all = _tuples(m_max, self.n_a), _tuples(m_max, self.n_b)
        a_pts, b_pts = templates[rows_all], templates[cols_all]
        sel_rows = {k: np.flatnonzero(rows_all.max(1) < sizes[k]) for k in blocks}
        sel_cols = {k: np.flatnonzero(cols_all.max(1) < sizes[k]) for k in blocks}
        out = {k: np.empty((len(sel_rows[k]), len(sel_cols[k])), dtype=np.int32)
               for k in blocks}
        W = self.weights[blocks]
        n_nodes, S = len(self.nodes), len(cols_all)
        prefix = {k: bool(np.array_equal(sel_cols[k], np.arange(sel_cols[k].size)))
                  for k in blocks}
        announce = getattr(self.evaluate, "expect_pairs", None)
        if callable(announce):
            announce(max(n_nodes * len(rows_all) * S, self.planned_pairs))
        self.runs.append(m_max)
        chunk = max(1, CHUNK_BYTES // (4 * 8 * n_nodes * S))
        for r0 in range(0, len(rows_all), chunk):
            if deadline is not None and time.perf_counter() > deadline:
                self.seconds += time.perf_counter() - start
                raise _OutOfTime(f"the scaled grids stopped at row {r0:,} of "
                                 f"{len(rows_all):,}: the time budget ran out")
            r1 = min(len(rows_all), r0 + chunk)
            pts = np.concatenate([np.mod(a_pts[r0:r1] * t, p) for t in self.nodes])
            F = np.asarray(self.evaluate(pts, b_pts))
            self.pairs += len(pts) * S
            F = (F if F.dtype == np.float64 else to_balanced(F, p)).reshape(n_nodes, r1 - r0, S)
            # only the blocks that use a row of this chunk, over the columns they use (a
            # prefix when each side holds one position): one product with their weights
            need = [i for i, k in enumerate(blocks)
                    if np.any((sel_rows[k] >= r0) & (sel_rows[k] < r1))]
            if not need:
                continue
            width = (max(sel_cols[blocks[i]].size for i in need)
                     if all(prefix[blocks[i]] for i in need) else S)
            used = F if width == S else F[:, :, :width]
            values = matmul_mod(W[need], used.reshape(n_nodes, -1), p).reshape(
                len(need), r1 - r0, width)
            for row, i in enumerate(need):
                k = blocks[i]
                rows = sel_rows[k]
                local = rows[(rows >= r0) & (rows < r1)]
                part = values[row][local - r0][:, sel_cols[k]]
                out[k][np.searchsorted(rows, local)] = from_balanced(part, p)
        kept: dict[int, tuple[Array, Kept | None]] = {k: (M, None) for k, M in out.items()}
        if self.dedupe is not None and max(self.n_a, self.n_b) > 1:
            kept = {k: self.dedupe(M) for k, M in out.items()}
        self.seconds += time.perf_counter() - start
        return kept


class _OutOfTime(Exception):
    """The time budget ran out inside a sweep (before a block's first round was complete)."""


class _BlockMatrix:
    """Block k's grid evaluator for the growth loop: served from the sweep when its templates
    are the sweep's prefix, else evaluated for this block alone; memory-checked.  Its first
    round stops at ``deadline`` (later rounds are started only when the growth loop predicts
    they end in time)."""

    def __init__(self, sweep: _Sweep, k: int, limit: int, deadline: float | None = None,
                 in_place: bool = False) -> None:
        self.sweep, self.k, self.limit, self.deadline = sweep, k, limit, deadline
        #: Hand the growth loop the grid widened to float64 in its own allocation (ranked in
        #: place by :func:`_rank_in_place`; the int32 grid is not held beside a float64 copy).
        #: Only where nothing needs the matrix after its rank (serial, no kept witness).
        self.in_place = in_place
        #: The templates of the last round (what a certificate of the block needs).
        self.last: Array | None = None
        #: Rows and columns of the last matrix in the full matricization (after de-duplication).
        self.kept: Kept | None = None
        self.evaluated = False

    def peak_bytes(self, m: int) -> int:
        rows, cols = self.sweep.shape(m)
        held = self.sweep.cached_bytes(exclude=self.k)
        return int(held + rank_step_bytes(rows, cols, in_place=self.in_place)
                   + self.sweep.temp_bytes(m))

    def fits(self, m: int) -> bool:
        return self.peak_bytes(m) <= self.limit

    def __call__(self, templates: Array) -> Array:
        m = len(templates)
        self.last = templates
        first, self.evaluated = not self.evaluated, True
        hit = self.sweep.cache.pop(self.k, None)
        if hit is not None and len(hit[0]) == m and np.array_equal(hit[0], templates):
            self.kept, box = hit[2], [hit[1]]
            del hit
            return self._widened(box)  # int32 residues: ranked without an int64 copy
        need = self.peak_bytes(m)
        if need > self.limit:
            rows, cols = self.sweep.shape(m)
            raise GridTooLargeError(
                f"block grid {rows:,} x {cols:,} ({m} templates) needs about "
                f"{need / 2**30:.3g} GiB with its rank step, above the limit of "
                f"{self.limit / 2**30:.3g} GiB. Raise it with budget=Budget(max_bytes=...) if "
                "the machine has the memory", needed=need, limit=self.limit,
                what="a degree block's grid")
        M, self.kept = self.sweep.run(templates, {self.k: m},
                                      self.deadline if first else None)[self.k]
        box = [M]
        del M
        return self._widened(box)

    def _widened(self, box: list[Array]) -> Array:
        """The matrix in ``box`` (its only reference, taken out), or -- in place mode --
        that matrix widened to balanced float64 residues in its own allocation
        (:func:`widen_in_place`)."""
        M = box.pop()
        if not (self.in_place and 3 <= self.sweep.p < ELIMINATION_MAX_PRIME
                and M.dtype == np.int32 and M.ndim == 2 and M.size
                and M.flags.owndata and M.flags.c_contiguous):
            return M
        shape = (int(M.shape[0]), int(M.shape[1]))
        try:
            M.resize((2 * M.size,), refcheck=True)  # realloc: large blocks are remapped
        except ValueError:  # referenced elsewhere: rank the int32 grid as it is
            return M
        return widen_in_place(M, shape, self.sweep.p)


def _rank_in_place(domain: ModularDomain) -> Callable[[Array], RankResult]:
    """The serial blocks' ``rank_of``: a widened grid (float64) is eliminated in place
    (:func:`~seprank.core.rank.rank_mod_p_in_place`), any other by the domain."""
    def rank_of(E: Array) -> RankResult:
        if E.dtype == np.float64:
            return rank_mod_p_in_place(E, domain.p)
        return domain.rank(E)

    return rank_of


@register_strategy("degree", methods=("modular",), auto=1, fixed_templates=False,
                   structure_type=DegreeStructure, select=select_degree,
                   description="split by degree: the sum of the bidegree blocks' ranks, "
                               "interpolation mod p")
def block_separation_rank(request: SeparationRequest, domain: Domain | None,
                          streams: Streams | None, budget: Budget) -> BlockSeparationRankResult:
    """Run the block engine (module docstring): the driver of ``structure='degree'``.

    ``request.structure`` is the :class:`~seprank.separation.degree.DegreeStructure` the
    strategy's selection resolved (:func:`select_degree`).  Every block draws its templates
    from one stream seeded from ``streams.templates`` (so block k's are the first ones of every
    other block's); the structure check uses another stream.  With ``upper_bound`` given, each
    block's first round is sized to its own bound (+8).  The blocks share the budget's time
    (each gets what the earlier ones left; the smallest run first).

    Every block keeps a :class:`~seprank.separation.result.GridEvidence` of its last grid
    (f on ``n_inputs`` positions, the block's templates, p): with
    ``keep_witness=True`` a non-zero minor of the block's last matrix is found before it is
    released (one more echelon form per block), otherwise ``block.evidence.minor()``
    re-evaluates that block's grid once.
    :meth:`~seprank.separation.degree.BlockSeparationRankResult.certificate` turns them into
    one certificate of the sum.

    Parameters
    ----------
    request : SeparationRequest
        The validated arguments of :func:`seprank.separation_rank`, its degree structure resolved.
    domain : ModularDomain or None
        The GF(p) domain the blocks compute in (the prime drawn from the seed's first stream).
    streams : Streams or None
        The template and witness streams.
    budget : Budget
        Patience, templates, time, rounds and memory, shared by the blocks.

    Returns
    -------
    BlockSeparationRankResult
        The sum of the certified block ranks, with one :class:`DegreeBlock` per block.

    Examples
    --------
    >>> from seprank import separation_rank
    >>> def f(X):                       # <x1, x2>^3 in dimension 2: homogeneous of degree 6
    ...     return np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** 3
    >>> r = separation_rank(f, n_inputs=2, dim=2, partition=([0], [1]), seed=0,
    ...                     structure=DegreeStructure.homogeneous(6))
    >>> r.rank, [(b.a_degree, b.rank) for b in r.blocks if b.rank]
    (4, [(3, 4)])
    """
    structure = request.structure
    if not isinstance(domain, ModularDomain) or streams is None:
        raise TypeError("the degree strategy needs a ModularDomain and template streams")
    if not isinstance(structure, DegreeStructure):
        raise TypeError("the degree strategy runs a request whose structure is resolved "
                        "(choose_strategy / select_degree)")
    start, dim, upper_bound = request.started, request.dim, request.upper_bound
    limit = budget.memory_limit()
    evaluate = _rect_evaluator(request, domain, limit)
    template_rng = streams.templates
    A, B = request.partition
    n_a, n_b = len(A), len(B)
    size_to_bounds = upper_bound is not None
    template_seed = np.random.SeedSequence(template_rng.integers(0, 2**63, 4).tolist())
    check_rng = template_rng.spawn(1)[0]
    node_rng = np.random.default_rng(template_seed.spawn(1)[0])
    n_blocks = len(structure.bidegrees)
    guard_memory(n_blocks * n_blocks * INTERPOLATION_ENTRY_BYTES,
                 what=f"the interpolation system of {n_blocks:,} degree blocks (an n x n "
                      "matrix mod p, its inverse, and their Python copies)",
                 fix="use structure='dense', or a DegreeStructure with fewer blocks",
                 max_bytes=limit)
    nodes, inverse = interpolation_nodes(structure, domain, node_rng)
    deadline = None if budget.max_seconds is None else start + budget.max_seconds
    checked = check_structure(evaluate, structure, domain, nodes, inverse, n_a, n_b, dim,
                              check_rng, deadline=deadline)
    sweep = _Sweep(evaluate, domain, nodes, inverse, n_a, n_b, dedupe)
    bounds = [structure.block_bound(k, n_a * dim, n_b * dim)
              for k in range(len(structure.bidegrees))]

    def plan(k: int) -> Any:
        return plan_templates(domain, np.random.default_rng(template_seed), dim=dim,
                              smaller_side=min(n_a, n_b),
                              upper_bound=bounds[k] if size_to_bounds else None,
                              max_templates=budget.max_templates, margin=BLOCK_MARGIN)

    plans = [plan(k) for k in range(len(bounds))]
    sizes = {k: pl.first_size for k, pl in enumerate(plans) if bounds[k] > 0}
    # the blocks are ranked smallest first: the largest rank step runs when the other blocks'
    # cached matrices are released (the peak is the largest block's, not that plus the cache)
    order = sorted(range(len(bounds)), key=lambda k: (bounds[k], k))
    ranked = [k for k in order if k in sizes]
    serial = isinstance(request.executor, str) and request.executor == "serial"
    in_place = serial and not request.keep_witness
    shapes = [sweep.shape(sizes[k]) for k in ranked]
    store = sum(4 * r * c for r, c in shapes)
    biggest = max((_BlockMatrix(sweep, k, limit, in_place=in_place).peak_bytes(sizes[k])
                   for k in ranked), default=0)
    notes: dict[str, Any] = {"structure_check": checked}
    groups: list[list[int]] = []
    if sizes and store + biggest <= limit:  # one sweep for every block's first round
        groups = [ranked]
    elif sizes and serial:  # shared sweeps of as many blocks as fit (sweep_groups)
        found = sweep_groups([4 * r * c for r, c in shapes],
                             [rank_step_bytes(r, c, in_place=in_place) for r, c in shapes],
                             [sweep.temp_bytes(sizes[k]) for k in ranked], limit)
        groups = [[ranked[i] for i in g] for g in found]
        alone = len(ranked) - sum(len(g) for g in groups)
        notes["sweep"] = (f"the blocks' first rounds together ({store / 2**30:.3g} GiB) exceed "
                          f"the memory limit: {len(groups)} shared sweeps of "
                          f"{', '.join(str(len(g)) for g in groups)} blocks"
                          + (f", {alone} too large for any" if alone else ""))
    elif sizes:
        notes["sweep"] = (f"the blocks' first rounds together ({store / 2**30:.3g} GiB) exceed "
                          "the memory limit: blocks evaluated one at a time")
    sweep.planned_pairs = sum(sweep.pairs_of(max(sizes[k] for k in g)) for g in groups)

    def sweep_group(group: list[int]) -> None:
        """One shared sweep: the first rounds of ``group``'s blocks, cached."""
        shared = plan(0).sample(max(sizes[k] for k in group))  # a copy of the shared stream
        try:
            for k, (M, kept) in sweep.run(shared, {k: sizes[k] for k in group},
                                          deadline).items():
                sweep.cache[k] = (shared[:sizes[k]], M, kept)
        except _OutOfTime as out_of_time:
            notes["sweep"] = f"the shared sweep of the first rounds stopped: {out_of_time}"

    if not serial:  # the workers take every first round at once: one sweep, before them
        for group in groups:
            sweep_group(group)
    starts = {g[0]: g for g in groups} if serial else {}
    done: dict[int, DegreeBlock] = {}
    first_rounds = {k: M for k, (_, M, _) in sweep.cache.items()}
    _guard_workers(request.executor, first_rounds, store, limit)
    with block_ranks(request.executor, domain, first_rounds) as (pool, where):
        del first_rounds
        for k in track(order, desc="degree blocks", unit="block", progress=request.progress):
            if bounds[k] == 0:
                continue
            j, kk = structure.bidegrees[k]
            if k in starts and (deadline is None or time.perf_counter() <= deadline):
                sweep_group(starts[k])  # the first (smallest) block of a shared sweep
            if deadline is not None and time.perf_counter() > deadline:  # polled per block
                done[k] = _not_run(j, kk, bounds[k], request, domain.p)
                sweep.cache.pop(k, None)
                continue
            remaining = (None if budget.max_seconds is None
                         else max(1e-3, budget.max_seconds - (time.perf_counter() - start)))
            matrix_of = _BlockMatrix(sweep, k, limit, deadline,
                                     in_place=pool is None and not request.keep_witness)
            witness = _BlockWitness(matrix_of, domain.p, n_a, n_b)
            try:
                out = grow_until_stable(
                    matrix_of, plans[k], upper_bound=bounds[k],
                    budget=replace(budget, max_seconds=remaining), progress=request.progress,
                    description=f"block ({j}, {kk})",
                    on_final=witness.on_final if request.keep_witness else None,
                    rank_of=(_rank_in_place(domain) if pool is None else pool.rank_of(k)))
            except _OutOfTime:
                done[k] = _not_run(j, kk, bounds[k], request, domain.p)
                sweep.cache.pop(k, None)
                continue
            matrix_of.in_place = False  # a later re-evaluation (a witness) keeps its int32 grid
            templates = (out.templates if out.templates is not None
                         else matrix_of.last if matrix_of.last is not None
                         else np.empty((0, dim)))
            evidence = GridEvidence(request.f, request.n_inputs, dim, templates, domain.p,
                                    kept_minor=out.witness,
                                    finder=witness.finder(templates, out.last))
            done[k] = DegreeBlock(j, kk, bounds[k], out.last.rank, out.stop, out.n_templates,
                                  out.matrix_shape, out.history, out.last, templates, evidence)
            sweep.cache.pop(k, None)
        notes["executor"] = where
        if pool is not None:
            notes["block_ranks_on_workers"] = dict(sorted(pool.costs.items()))
    blocks = [done[k] for k in sorted(done)]  # in the structure's order
    history = [r for b in blocks for r in b.history]
    rank = sum(b.rank for b in blocks)
    stop = _combined_stop(blocks)
    pinned = all(b.rank == b.bound for b in blocks)
    largest = max(blocks, key=lambda b: b.matrix_shape[0] * b.matrix_shape[1])
    details: dict[str, Any] = {
        "domain": repr(domain), "prime": domain.p, "structure": structure.bidegrees,
        "structure_source": structure.source, "nodes": nodes, "sweep_seconds": sweep.seconds,
        "sweep_pairs": sweep.pairs, "sweep_runs": tuple(sweep.runs),
        "block_table": [b.row() for b in blocks], "pinned_by_block_bounds": pinned, **notes}
    if upper_bound is not None and rank > upper_bound:
        details["exceeds_upper_bound"] = True
    return BlockSeparationRankResult(
        rank=rank, certifies="exact" if pinned else "lower_bound", method=request.method,
        partition=request.partition, stop_reason=stop,
        n_templates=max(b.n_templates for b in blocks),
        matrix_shape=largest.matrix_shape, history=tuple(history),
        seconds=time.perf_counter() - start, upper_bound=upper_bound, details=details,
        blocks=tuple(blocks), structure=structure, nodes=nodes, inverse=inverse)


def _not_run(j: int, k: int, bound: int, request: SeparationRequest, p: int) -> DegreeBlock:
    """A block the time budget left unstarted: rank 0 (a lower bound that claims nothing),
    stop ``'time_limit'``, no templates."""
    empty = np.empty((0, request.dim), dtype=np.int64)
    last = RankResult(0, "modular", "lower_bound",
                      {"prime": p, "shape": (0, 0), "not_run": "the time budget ran out"})
    return DegreeBlock(j, k, bound, 0, "time_limit", 0, (0, 0), (), last, empty,
                       GridEvidence(request.f, request.n_inputs, request.dim, empty, p))


def rank_step_bytes(rows: int, cols: int, *, in_place: bool = False) -> int:
    """Peak bytes of one block's rank step: its int32 matrix and the float64 elimination's
    copy with its strips (:func:`seprank.core.gfp_elimination.elimination_bytes`) -- or, for
    a grid widened in its own allocation and eliminated in place (``in_place=True``, the
    serial blocks without a kept witness), the float64 matrix and its strips only, plus
    what a ``realloc`` that copies instead of remapping may hold for a moment (at most
    :data:`REALLOC_COPY_BYTES` of int32 grid: allocations above glibc's largest mmap
    threshold are remapped, not copied).

    Parameters
    ----------
    rows, cols : int
        The block matrix's shape.
    in_place : bool, keyword-only
        The int32 grid is widened in place (:func:`~seprank.core.gfp_elimination.widen_in_place`)
        instead of copied beside it.

    Returns
    -------
    int
        Estimated peak bytes.

    Examples
    --------
    >>> rank_step_bytes(1000, 1000) >= 12 * 10**6
    True
    >>> rank_step_bytes(10**4, 10**4, in_place=True) < 10**9 < rank_step_bytes(10**4, 10**4)
    True
    """
    held = min(4 * rows * cols, REALLOC_COPY_BYTES) if in_place else 4 * rows * cols
    return held + elimination_bytes(rows, cols)


def sweep_groups(store: list[int], step: list[int], temp: list[int],
                 limit: int) -> list[list[int]]:
    """Blocks (in the order they are ranked, smallest first) grouped into shared sweeps
    within a memory limit, so that no block's grid is evaluated twice.

    A sweep over the largest block's templates evaluates every smaller block's grid as well,
    for the cost of the largest alone; all blocks in one sweep is the cheapest (what the
    driver does when it fits), one sweep per block the dearest (the sum of every block's
    evaluations: 2.3x at (d_x, L) = (5, 3), 6.5x at (4, 4), 25x at (3, 5)).  Between the two,
    the blocks are grouped greedily from the largest down: a group takes the next smaller
    block while its peak stays within ``limit`` -- the larger of the group's cached matrices
    with the sweep's temporaries, and, for each block ranked (smallest first), the matrices
    still cached after it beside its own rank step.  A block whose rank step and temporaries
    alone exceed the limit joins no group (its own evaluation refuses it by name).

    Parameters
    ----------
    store : list of int
        Bytes of each block's cached matrix, in ranking order (ascending size).
    step : list of int
        Peak bytes of each block's rank step (:func:`rank_step_bytes`).
    temp : list of int
        Bytes of a sweep's temporaries when that block is the largest of its sweep.
    limit : int
        The memory limit in bytes.

    Returns
    -------
    list of list of int
        Positions into the lists, each group ascending; groups are contiguous and ordered as
        the blocks are ranked.

    Examples
    --------
    >>> sweep_groups([2, 3, 4], [4, 6, 8], [0, 0, 0], 100)        # everything fits: one sweep
    [[0, 1, 2]]
    >>> sweep_groups([2, 3, 4], [4, 6, 8], [0, 0, 0], 10)         # the two largest together
    [[0], [1, 2]]
    >>> sweep_groups([2, 3, 40], [4, 6, 80], [0, 0, 0], 10)       # the largest fits nowhere
    [[0, 1]]
    """
    groups: list[list[int]] = []
    current: list[int] = []
    for i in range(len(store) - 1, -1, -1):
        if step[i] + temp[i] > limit:
            if current:
                groups.append(current)
            current = []
            continue
        trial = [i, *current]
        cached = sum(store[j] for j in trial)
        peak = max(cached + temp[trial[-1]],
                   max(step[j] + sum(store[t] for t in trial[n + 1:])
                       for n, j in enumerate(trial)))
        if current and peak > limit:
            groups.append(current)
            trial = [i]
        current = trial
    if current:
        groups.append(current)
    return groups[::-1]


def _guard_workers(executor: Any, matrices: dict[int, Array], store: int, limit: int) -> None:
    """Before an embedded cluster starts: the cached matrices, plus on each of its workers one
    of the largest blocks' rank steps (its copy and the elimination's float64 copy) and the
    worker process itself, within the memory limit."""
    if not (executor is None or isinstance(executor, int)) or not matrices:
        return
    workers = available_cores() if executor is None else int(executor)
    largest = sorted((M.shape for M in matrices.values()), key=lambda s: -s[0] * s[1])[:workers]
    need = store + sum(rank_step_bytes(*s) for s in largest) + workers * WORKER_PROCESS_BYTES
    guard_memory(need, what=f"the block ranks on {workers} local dask workers",
                 fix="use fewer workers (executor=1), executor='serial', or raise "
                     "budget=Budget(max_bytes=...) if the machine has the memory",
                 max_bytes=limit)


def _rect_evaluator(request: SeparationRequest, domain: ModularDomain,
                    limit: int) -> RectEvaluator:
    """The blocks' rectangular grid evaluator: the caller's ``grid_matrix.rectangular`` for one
    position per side, else f's batch evaluator on memory-bounded batches."""
    A, B = request.partition
    if (request.grid_matrix is not None and hasattr(request.grid_matrix, "rectangular")
            and max(len(A), len(B)) == 1):
        return rect_from_grid_matrix(request.grid_matrix, domain)
    return rect_from_batch(domain_evaluator(request.f, domain), request.n_inputs, A, B, limit)


class _BlockWitness:
    """A non-zero minor of one block's grid matrix, found from the matrix the growth loop
    ranked (``on_final``) or by evaluating the block's grid again (``finder``)."""

    def __init__(self, matrix_of: _BlockMatrix, p: int, n_a: int, n_b: int) -> None:
        self.matrix_of, self.p, self.n_a, self.n_b = matrix_of, p, n_a, n_b

    def on_final(self, E: Array, templates: Array, last: RankResult) -> GridMinor:
        return find_grid_minor(E, len(templates), n_a=self.n_a, n_b=self.n_b, rank=last.rank,
                               prime=self.p, kept=self.matrix_of.kept)

    def finder(self, templates: Array, last: RankResult) -> Callable[[], GridMinor]:
        def refind() -> GridMinor:
            start = time.perf_counter()
            minor = self.on_final(self.matrix_of(templates), templates, last)
            return GridMinor(minor.rows, minor.cols, minor.entries, minor.prime,
                             time.perf_counter() - start)

        return refind


def _combined_stop(blocks: list[DegreeBlock]) -> StopReason:
    """'upper_bound' when every block reached its bound, 'saturated' when every block stopped
    growing, else the first limit that stopped a block (the sum is then not saturated)."""
    if all(b.stop_reason == "upper_bound" for b in blocks):
        return "upper_bound"
    for b in blocks:
        if b.stop_reason not in SATURATED_STOPS:
            return b.stop_reason
    return "saturated"
