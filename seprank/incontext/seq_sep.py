r"""Certified sequential separation ranks of the in-context representation, and grid spectra.

:math:`\operatorname{seq-sep}(y) = \operatorname{sep}_{(a,b)}(Z_y)` (000/001, eq. 9).  For any
templates the a x b grid matrix :math:`[Z(a^{(r)}, b^{(s)})]` has rank at most seq-sep (Lemma 13
with ε = 0; paper 003 Claim 1), so its GF(p) or exact rank is a certified lower bound; the
bidegree bound PB (our derivation) is an all-weights upper bound for :math:`Z_{in}`.  The
ε-versions are bracketed with :func:`seprank.core.eps_rank` in both conventions (absolute: 000,
relative: 001).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from seprank.core.domains import Domain, ModularDomain
from seprank.core.eps_rank import EpsRankResult, eps_rank
from seprank.core.random import SeedLike
from seprank.core.results import Certificate, RankValued, SeparationMethod
from seprank.core.types import Array
from seprank.core.validation import check_array, check_float
from seprank.incontext.kernel_unrolled import UNROLLED_MIN_PAIRS
from seprank.incontext.modular import modular_grid, modular_grid_balanced, modular_grid_bytes
from seprank.incontext.representation import InContextRepresentation
from seprank.separation.budget import Budget, refuses_budget_keywords
from seprank.separation.engine import separation_rank
from seprank.separation.result import SeparationRankResult

__all__ = ["GridSpectrum", "SeqSepResult", "grid_spectrum", "incontext_seq_sep", "positional_sep"]


@dataclass(frozen=True, repr=False)
class SeqSepResult(RankValued):
    """A sequential separation rank and exactly what it certifies.

    Attributes
    ----------
    rank : int
        The rank of the a x b grid matrix (or of the coefficient matrix for ``'symbolic'``).
    certifies : {'exact', 'lower_bound', 'none'}
        What ``rank`` says about :math:`\\operatorname{seq-sep}` of the stated function.
    statement : str
        The certified statement in words (which function, which inequality, why).
    upper_bound : int
        The all-weights ceiling used (PB for Z_in, :math:`m(3^L)` for Z_seq; our derivations).
    engine : SeparationRankResult or None
        The engine's result (grid methods).
    details : Mapping
        Prime, grid shape, timings, flags.
    """

    rank: int
    certifies: Certificate
    statement: str
    upper_bound: int
    engine: SeparationRankResult | None = None
    details: Any = field(default_factory=dict, compare=False)

    @property
    def reaches_bound(self) -> bool:
        return self.rank == self.upper_bound

    def _repr_info(self) -> dict[str, Any]:
        return {"rank": self.rank, "certifies": self.certifies, "upper_bound": self.upper_bound}

    def certificate(self) -> dict[str, Any]:
        r"""The certificate of the certified lower bound :math:`\operatorname{seq-sep} \ge r`
        (the engine's result's ``certificate()``: the network,
        embedding, sentences, output position and coordinate, templates and a non-zero minor
        of the a x b grid -- or,
        for a rank computed block by block (the default), a minor of every bidegree block's
        grid, kind ``grid_rank_blocks``, whose checker recomputes the block values by its own
        interpolation and checks that Z_in is homogeneous of degree :math:`3^L`).  An
        ``'exact'`` verdict adds the all-weights bound PB, a derivation the certificate does
        not check (it is stated in the claim).

        Returns
        -------
        dict
            The certificate, checked by :func:`seprank.certificates.verify`.

        Examples
        --------
        >>> from seprank.certificates import verify
        >>> rep = InContextRepresentation.random(depth=1, width=2, seed=0)
        >>> cert = incontext_seq_sep(rep, seed=0, keep_witness=True).certificate()
        >>> cert["kind"], cert["function"]["type"], verify(cert).ok
        ('grid_rank_blocks', 'incontext', True)
        >>> dense = incontext_seq_sep(rep, seed=0, structure="dense").certificate()
        >>> dense["kind"], dense["claim"]["value"] == cert["claim"]["value"], verify(dense).ok
        ('grid_rank', True, True)
        """
        blocks = getattr(self.engine, "blocks", ())
        if self.engine is None or (not blocks and self.engine.evidence is None):
            raise ValueError(f"a {self.certifies!r} result of this method has no grid minor to "
                             "certify (use method='modular' or 'exact')")
        note = (f"; with the all-weights bidegree bound PB = {self.upper_bound} (our "
                "derivation, not checked by this certificate) seq-sep is exactly that"
                if self.rank == self.upper_bound else "")
        how = (f"the sum of the ranks of the {len(blocks)} bidegree blocks of Z_in, each with "
               "a non-zero minor of its a x b grid (Z_in is homogeneous of degree 3^L, notes "
               "§1.7, so its coefficient matrix is block-diagonal by a-degree)" if blocks else
               "a non-zero minor of the a x b grid of Z_in")
        return self.engine.certificate(
            statement=f"seq-sep(y_in) = sep_(a,b)(Z_in) >= {self.rank}: {how} "
            f"(001, Lemma 13; 003, Claim 1){note}")

    def summary(self) -> str:
        """One line in words: the value, what it certifies, the key evidence.

        Returns
        -------
        str
            One line.
        """
        return self.statement


@refuses_budget_keywords
def incontext_seq_sep(
    rep: InContextRepresentation,
    *,
    method: SeparationMethod = "modular",
    seed: SeedLike = None,
    n_templates: int | None = None,
    progress: bool | None = None,
    budget: Budget | None = None,
    keep_witness: bool = False,
    structure: Literal["auto", "dense", "degree"] = "auto",
    executor: Any = "serial",
) -> SeqSepResult:
    r"""Certified :math:`\operatorname{seq-sep}(y_{in\text{-}context}) = \operatorname{sep}_{(a,b)}
    (Z_{in})`.

    The grid matrix :math:`[Z_{in}(a^{(r)}, b^{(s)})]` has rank at most seq-sep for any
    templates (001, Lemma 13 with ε = 0 / paper 003 Claim 1), so a GF(p) or exact rank is a
    certified lower bound.  :math:`Z_{in}` is a polynomial whose coefficient matrix is
    block-diagonal over the bidegrees :math:`(2k+1, 2C(L)-2k)`, so
    :math:`\operatorname{seq-sep} \le PB(d_x, L)` for **all** weights (our derivation, notes
    §3.2); when the certified rank reaches PB, seq-sep = PB exactly for these weights and
    embeddings, and (Claim 2 of paper 003) for almost all weights.

    Parameters
    ----------
    rep : InContextRepresentation
        Integer (or Fraction) weights and embeddings for ``'modular'``/``'exact'``/``'symbolic'``.
    method : {'modular', 'exact', 'svd', 'symbolic'}, keyword-only
        Passed to :func:`seprank.separation_rank` (``'symbolic'``: sympy coefficient matrix,
        exact, tiny cases only; ``'svd'``: float, certifies nothing).
    seed : int or Generator, optional, keyword-only
        Seeds the prime and the templates.
    n_templates : int, optional, keyword-only
        Fixed number of templates per side (default: sized to PB by the engine).
    progress : bool, optional, keyword-only
        Progress bars (default: on terminals, after two seconds).
    budget : Budget, optional, keyword-only
        Passed to the engine (:class:`seprank.Budget`; None: the defaults): e.g. the memory
        limit of one round (``max_bytes``: grid, the structured evaluator's temporaries and the
        rank step, estimated before allocating) and the time budget (``max_seconds``, default
        300 s).  A growth stopped by the budget says "not saturated" in the statement.
    keep_witness : bool, keyword-only
        Keep a non-zero minor of the last grid (of every block, with the degree split) for
        :meth:`SeqSepResult.certificate` (one echelon form more per grid; see
        :func:`seprank.separation_rank`); without it the certificate re-evaluates the grids.
    structure : {'auto', 'dense', 'degree'}, keyword-only
        ``'degree'`` (what ``'auto'`` picks for ``'modular'`` without ``n_templates``): split
        :math:`Z_{in}` into its bidegree blocks :math:`(2k+1, 2C-2k)` (mirrored when i is in
        :math:`S_2`), certify each block's rank on its own grid (sized to its own bound
        :math:`\min(m(2k+1), m(2C-2k))`, values from interpolation mod p over C(L)+1 scalings
        of a) and sum; the block ranks are in ``engine.blocks``.  ``'dense'``: one PB-sized
        grid.  Both certify the same thing; the blocks cost :math:`\sum_k n_k^3` instead of
        :math:`PB^3` in the rank step (:func:`seprank.separation_rank`, ``structure=``).
    executor : 'serial', None, int, str or distributed.Client, keyword-only
        Where the blocks' ranks run (``'degree'`` only; :func:`seprank.separation_rank`):
        ``'serial'`` (default), None for an embedded dask ``LocalCluster`` (one worker
        process per core), an int for that many workers, a scheduler address or a
        ``distributed.Client``.  Same certified result.

    Returns
    -------
    SeqSepResult

    References
    ----------
    .. [1] 001, eq. 9, Lemma 13, Corollary 1; paper 003, Claims 1-2.
       Notes: docs/notes/seed_incontext_bias.md §3.2 (PB), §4.3 (algorithm).

    Examples
    --------
    >>> from seprank import LinearAttention
    >>> from seprank.incontext.representation import random_embedding
    >>> net = LinearAttention.random(depth=2, width=2, seed=1)
    >>> rep = InContextRepresentation(net, random_embedding(2, 3, seed=2), [0, 1], [2, 0])
    >>> r = incontext_seq_sep(rep, seed=0)
    >>> r.rank, r.upper_bound, r.certifies
    (15, 15, 'exact')
    """
    start = time.perf_counter()
    if not isinstance(rep, InContextRepresentation):
        raise TypeError(f"rep must be an InContextRepresentation (build one with "
                        f"InContextRepresentation(net, embedding, first, second) or "
                        f"InContextRepresentation.random(...)), got {type(rep).__name__}")
    pb = rep.bound()
    grid = _StructuredGrid(rep, progress) if method == "modular" else None
    engine = separation_rank(
        rep.grid_function, n_inputs=2, dim=rep.width, partition=([0], [1]), method=method,
        seed=seed, upper_bound=None if n_templates is not None else pb,
        n_templates=n_templates, progress=progress, budget=budget, keep_witness=keep_witness,
        grid_matrix=grid, structure=structure, executor=executor,
    )
    rank = engine.rank
    blocks = getattr(engine, "blocks", ())
    details: dict[str, Any] = {"engine": engine.summary(), **dict(engine.details)}
    if grid is not None and grid.pairs:  # the rectangular grids' evaluations, per kernel
        details["grid_kernel_pairs"] = dict(sorted(grid.pairs.items()))
    if rank > pb and method != "svd":
        raise AssertionError(  # a certified rank above a proven bound is a bug, never an answer
            f"certified rank {rank} exceeds the bidegree bound PB = {pb}; please report this"
        )
    certifies: Certificate
    if method == "svd":
        certifies = "none"
        statement = (f"float SVD rank {rank} of a {engine.matrix_shape[0]}x"
                     f"{engine.matrix_shape[1]} grid: an estimate, certifies nothing")
    elif method == "symbolic":
        certifies = "exact"
        statement = f"seq-sep(y_in) = {rank} exactly (rank of the coefficient matrix of Z_in)"
    elif rank == pb:
        certifies = "exact"
        how = (f"the sum of the certified {method} ranks of the {len(blocks)} bidegree blocks"
               if blocks else f"the {method} grid rank")
        statement = (f"seq-sep(y_in) = {rank} exactly for these weights and embeddings: {how} "
                     "is a certified lower bound and equals the all-weights bidegree bound PB "
                     "(our derivation, notes §3.2)")
    else:
        certifies = "lower_bound"
        statement = (f"seq-sep(y_in) >= {rank} (certified {method} grid rank); the all-weights "
                     f"upper bound is PB = {pb}")
        if not engine.saturated:
            statement += f"; growth {engine.status}"
    details["seconds"] = time.perf_counter() - start
    return SeqSepResult(rank=rank, certifies=certifies, statement=statement, upper_bound=pb,
                        engine=engine, details=details)


def positional_sep(rep: InContextRepresentation, *,
                   method: SeparationMethod = "modular",
                   seed: SeedLike = None,
                   **kwargs: Any) -> SeparationRankResult:
    r"""The classical :math:`\operatorname{sep}_{([N],[2N]\setminus[N])}(g^{i,L,d_x}_W)` of
    Proposition 1: the network on 2N free inputs, S1's positions against S2's.

    Proposition 1 states :math:`\operatorname{seq-sep}(y_{in}) \le` this for all weights (the
    substitution :math:`x^j = E(w_1^j)\odot a`, :math:`x^{N+j} = E(w_2^j)\odot b`).  Grid
    methods return a certified lower bound (engine keywords are passed on).

    Parameters
    ----------
    rep : InContextRepresentation
        The representation.
    method : {'modular', 'exact', 'svd', 'symbolic'}, keyword-only
        The method of :func:`seprank.separation_rank` (default ``'modular'``).
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds primes and templates.
    **kwargs
        Passed to :func:`seprank.separation_rank`.

    Returns
    -------
    SeparationRankResult
        The separation rank of the network over the partition (S1, S2).

    References
    ----------
    .. [1] 001, eq. 9, Lemma 13, Proposition 1 (App. A);
       000, eq. 7 (absolute ε).

    Examples
    --------
    >>> rep = InContextRepresentation.random(depth=2, width=2, n_tokens=2, seed=1)
    >>> positional_sep(rep, seed=0).rank >= incontext_seq_sep(rep, seed=0).rank
    True
    """
    if not isinstance(rep, InContextRepresentation):
        raise TypeError(f"rep must be an InContextRepresentation, got {type(rep).__name__}")
    n = rep.n_tokens
    return rep.net.separation_rank(position=rep.position, coordinate=rep.coordinate,
                                   partition=(range(n), range(n, 2 * n)),
                                   n_inputs=2 * n, method=method, seed=seed, **kwargs)


class _StructuredGrid:
    """The GF(p) grid of :func:`seprank.incontext.modular.modular_grid` (layer 1 factorised
    over the grid) as the engine's ``grid_matrix``: same matrix, fewer operations.  Its
    temporaries for m templates are estimated by :meth:`peak_bytes`."""

    def __init__(self, rep: InContextRepresentation, progress: bool | None) -> None:
        self.rep, self.progress = rep, progress
        #: The kernel of :meth:`rectangular` (None: decided per call by its size).
        self.unrolled: bool | None = None
        #: Evaluations of Z_in by :meth:`rectangular`, per kernel ('unrolled': written out
        #: for the network's shape; 'compiled': the generic numba kernel; 'numpy': depth 1).
        self.pairs: dict[str, int] = {}

    def expect_pairs(self, pairs: int) -> None:
        """The degree blocks' sweep announces its work: the kernel written out for this
        network's shape when it pays for its compilation
        (:data:`~seprank.incontext.kernel_unrolled.UNROLLED_MIN_PAIRS`)."""
        self.unrolled = pairs >= UNROLLED_MIN_PAIRS

    def peak_bytes(self, m: int) -> int:
        return modular_grid_bytes(self.rep, m, m)

    def __call__(self, templates: Array, domain: Domain) -> Array:
        assert isinstance(domain, ModularDomain)
        show = len(templates) >= 1000 if self.progress is None else self.progress
        return modular_grid(self.rep, templates, templates, domain, progress=show)

    def rectangular(self, a_templates: Array, b_templates: Array, domain: Domain) -> Array:
        """The rectangular grid [Z_in(a_r, b_s)] as balanced float64 residues (the degree
        blocks' scaled grids), by the compiled kernel."""
        assert isinstance(domain, ModularDomain)
        pairs = len(a_templates) * len(b_templates)
        kernel = ("numpy" if self.rep.net.depth == 1 else "unrolled"
                  if (self.unrolled if self.unrolled is not None
                      else pairs >= UNROLLED_MIN_PAIRS) else "compiled")
        self.pairs[kernel] = self.pairs.get(kernel, 0) + pairs
        return modular_grid_balanced(self.rep, a_templates, b_templates, domain,
                                     unrolled=self.unrolled)


@dataclass(frozen=True)
class GridSpectrum:
    """Singular values of a grid matrix with certified ε-rank brackets.

    Attributes
    ----------
    singular_values : numpy.ndarray
        Descending.
    brackets : Mapping[(mode, eps), EpsRankResult]
        :func:`seprank.core.eps_rank` for every requested ε and mode (``'absolute'``: paper 000,
        ``'relative'``: paper 001).
    """

    singular_values: npt.NDArray[np.float64]
    brackets: Any

    def count_above(self, threshold: float) -> int:
        """Number of singular values strictly above ``threshold`` (a float estimate).

        Parameters
        ----------
        threshold : float
            The cut.

        Returns
        -------
        int
            The count.
        """
        return int(np.count_nonzero(self.singular_values > threshold))

    def table(self) -> list[tuple[str, float, int, int]]:
        """Rows ``(mode, eps, lower, upper)``.

        Returns
        -------
        list of (str, float, int, int)
            One row per mode and ε.
        """
        return [(m, e, r.lower, r.upper) for (m, e), r in self.brackets.items()]


def grid_spectrum(
    matrix: npt.ArrayLike, eps: Sequence[float] | float, *,
    modes: Sequence[Literal["absolute", "relative"]] = ("absolute", "relative"),
) -> GridSpectrum:
    """Spectrum and ε-rank brackets (both ε conventions) of a grid matrix.

    By paper 000 Lemma 13 (absolute ε) / paper 001 Lemma 13 (relative; entries in [-1, 1], then
    the (2ε)-rank), the ε-rank of any grid sub-matrix lower-bounds the ε-seq-sep; the
    ``lower`` side of each bracket is therefore the certified statement about the function,
    the ``upper`` side only describes this grid.

    Parameters
    ----------
    matrix : array_like
        The grid matrix (2-D, finite).
    eps : float or sequence of float
        The ε of the ε-ranks.
    modes : sequence of {'absolute', 'relative'}, keyword-only
        The ε conventions (default both).

    Returns
    -------
    GridSpectrum
        The singular values and the brackets.

    References
    ----------
    .. [1] 001, eq. 9, Lemma 13, Proposition 1 (App. A);
       000, eq. 7 (absolute ε).

    Examples
    --------
    >>> s = grid_spectrum(np.diag([1.0, 1e-3, 1e-9]), [1e-6])
    >>> s.table()     # relative ε must keep the 1e-9 entry to 1e-15: bracket [2, 3]
    [('absolute', 1e-06, 2, 2), ('relative', 1e-06, 2, 3)]
    """
    M = check_array("matrix", matrix, ndim=2)
    if isinstance(eps, str) or not hasattr(eps, "__iter__"):
        eps_list = [check_float("eps", eps, positive=True)]
    else:
        eps_list = [check_float("eps", e, positive=True) for e in eps]
    brackets: dict[tuple[str, float], EpsRankResult] = {}
    for mode in modes:
        for e in eps_list:
            brackets[(mode, e)] = eps_rank(M, e, mode=mode)
    sv = np.linalg.svd(M, compute_uv=False)
    return GridSpectrum(singular_values=sv, brackets=MappingProxyType(brackets))
