r"""Degree structure: split a separation rank into the ranks of its bihomogeneous blocks.

If :math:`f(t\,x_A, s\,x_B) = \sum_k t^{j_k} s^{k_k} f_k(x_A, x_B)` with the A-degrees
:math:`j_k` pairwise distinct and the B-degrees :math:`k_k` pairwise distinct (e.g. f homogeneous
of total degree D: :math:`k_k = D - j_k`), then the coefficient matrix of f between A-monomials
and B-monomials is block-diagonal (block k: the A-monomials of degree :math:`j_k` against the
B-monomials of degree :math:`k_k`), so

.. math::  \operatorname{sep}_{(A,B)}(f) = \sum_k \operatorname{sep}_{(A,B)}(f_k),
   \qquad \operatorname{sep}(f_k) \le \min\Big(\binom{j_k + n_A - 1}{n_A - 1},
   \binom{k_k + n_B - 1}{n_B - 1}\Big)

(:math:`n_A = |A|\cdot\dim` variables on the A side; the bound is the size of the block).  The
block values at a grid point come from evaluations of f at a few scalings :math:`t_i` of the
A-inputs: :math:`f(t_i x_A, x_B) = \sum_k t_i^{j_k} f_k(x_A, x_B)`, a (generalised) Vandermonde
system solved mod p with :func:`interpolation_nodes`.  A certified GF(p) rank of each block's
grid is a lower bound on :math:`\operatorname{sep}(f_k)`; their sum is a lower bound on
:math:`\operatorname{sep}(f)`, and when every block reaches its size bound the sum *is* sep.

**Declared, then tested.**  The split is only valid for functions of the declared form, which
is a theorem about the function (e.g. 003, eq. 12: a network without residual connections is
homogeneous of degree :math:`3^L`), declared by :class:`DegreeStructure`.  A wrong declaration
must never give a silently wrong rank, so :func:`check_structure` compares
:math:`f(t^* x_A, s^* x_B)` with the interpolated :math:`\sum_k t^{*j_k} s^{*k_k} f_k(x_A, x_B)`
at independent random points and scalings mod p and refuses the function
(:class:`DegreeStructureError`) on any nonzero residual.  For a polynomial f of total degree
:math:`D_f` the residual is a polynomial of degree at most :math:`2\max(D_f, \max_k(j_k+k_k))`
in the random values, so a mis-declared f passes one check with probability at most that over
p (Schwartz-Zippel) and all :data:`CHECK_POINTS` checks with at most its power.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import flint
import numpy as np

from seprank.certificates.build import (
    bind_subject,
    certificate_header,
    exact_json,
    function_spec,
    json_array,
)
from seprank.core.domains import ModularDomain
from seprank.core.errors import DegreeStructureError
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.rank import RankResult
from seprank.core.types import Array
from seprank.core.validation import check_int
from seprank.separation.result import (
    SATURATED_STOPS,
    GridEvidence,
    RoundRecord,
    SeparationRankResult,
    StopReason,
)

#: How a block's stop reads in the whole result's status.
STOP_WORDS = {"saturated": "saturated", "upper_bound": "reached their size bound"}

__all__ = ["CHECK_POINTS", "BlockSeparationRankResult", "DegreeBlock", "DegreeStructure",
           "DegreeStructureError"]


#: Independent random checks of a declared degree structure (module docstring).
CHECK_POINTS = 8


@dataclass(frozen=True, repr=False)
class DegreeStructure:
    r"""The bidegrees :math:`(j_k, k_k)` in :math:`(x_A, x_B)` a function may have.

    Attributes
    ----------
    bidegrees : tuple of (int, int)
        Sorted by A-degree; A-degrees pairwise distinct and B-degrees pairwise distinct (else
        the coefficient matrix is not block-diagonal and the split would be wrong).  Listing a
        bidegree the function does not have is harmless (its block has rank 0).
    source : str
        Why the function has this structure (the theorem), for the report.

    Examples
    --------
    >>> s = DegreeStructure.homogeneous(9, a_parity=1, source="003, eq. 12")
    >>> s.bidegrees
    ((1, 8), (3, 6), (5, 4), (7, 2), (9, 0))
    >>> DegreeStructure(((1, 2), (3, 2)))
    Traceback (most recent call last):
    ...
    ValueError: bidegrees must have pairwise distinct A-degrees and pairwise distinct B-degrees ...
    """

    bidegrees: tuple[tuple[int, int], ...]
    source: str = ""

    def __post_init__(self) -> None:
        try:
            pairs = tuple(sorted((check_int("A-degree", j, 0), check_int("B-degree", k, 0))
                                 for j, k in self.bidegrees))
        except (TypeError, ValueError) as err:
            raise ValueError(f"bidegrees must be pairs (j, k) of integers >= 0, got "
                             f"{self.bidegrees!r}: {err}") from err
        if not pairs:
            raise ValueError("bidegrees must list at least one bidegree (j, k)")
        if len({j for j, _ in pairs}) < len(pairs) or len({k for _, k in pairs}) < len(pairs):
            raise ValueError(
                "bidegrees must have pairwise distinct A-degrees and pairwise distinct B-degrees "
                f"(got {pairs}): otherwise the coefficient matrix is not block-diagonal and "
                "sep is not the sum of the block ranks; use structure='dense'")
        object.__setattr__(self, "bidegrees", pairs)

    @classmethod
    def homogeneous(cls, total_degree: int, *, a_parity: int | None = None,
                    source: str = "") -> DegreeStructure:
        """f homogeneous of ``total_degree``; A-degrees of one parity if ``a_parity`` is 0/1.

        Parameters
        ----------
        total_degree : int
            D, the total degree of f.
        a_parity : {0, 1}, optional, keyword-only
            Keep only the A-degrees of this parity (None: every A-degree 0..D).
        source : str, keyword-only
            Why f has this structure (the theorem), for the report.

        Returns
        -------
        DegreeStructure
            The bidegrees ``(j, D - j)``.
        """
        D = check_int("total_degree", total_degree, 0)
        if a_parity is not None and (isinstance(a_parity, bool | np.bool_)
                                     or a_parity not in (0, 1)):
            raise ValueError(f"a_parity must be None, 0 or 1, got {a_parity!r}")
        guard_memory(array_bytes((D + 1, 2), object), what=f"the {D + 1:,} bidegrees of a "
                     f"degree-{D:,} form", fix="use a smaller total_degree")
        return cls(tuple((j, D - j) for j in range(D + 1)
                         if a_parity is None or j % 2 == a_parity), source)

    def __repr__(self) -> str:
        """At most the first and last three bidegrees, and how many there are (a degree-10^6
        structure has a million of them)."""
        pairs = self.bidegrees
        shown = ", ".join(map(str, pairs)) if len(pairs) <= 6 else (
            ", ".join(map(str, pairs[:3])) + f", … ({len(pairs) - 6:,} more), "
            + ", ".join(map(str, pairs[-3:])))
        source = self.source if len(self.source) <= 60 else self.source[:59] + "…"
        return f"DegreeStructure(bidegrees=({shown}), source={source!r})"

    @property
    def a_degrees(self) -> tuple[int, ...]:
        return tuple(j for j, _ in self.bidegrees)

    def block_bound(self, index: int, n_a_vars: int, n_b_vars: int) -> int:
        """Size bound of block ``index``: min(#A-monomials of degree j, #B-monomials of
        degree k) in ``n_a_vars`` / ``n_b_vars`` variables.

        Parameters
        ----------
        index : int
            The block's index in :attr:`bidegrees`.
        n_a_vars, n_b_vars : int
            Number of scalar variables on the A side and on the B side.

        Returns
        -------
        int
            ``min(C(n_a_vars + j - 1, j), C(n_b_vars + k - 1, k))`` for the block's bidegree (j, k):
            a proven upper bound on the block's separation rank.
        """
        j, k = self.bidegrees[index]
        return min(math.comb(j + n_a_vars - 1, j), math.comb(k + n_b_vars - 1, k))


def interpolation_nodes(structure: DegreeStructure, domain: ModularDomain,
                        rng: np.random.Generator) -> tuple[tuple[int, ...], Array]:
    r"""Scalings :math:`t_i` and the inverse of :math:`V_{ik} = t_i^{j_k}` mod p.

    Nodes 1, 2, ..., n are tried first (for A-degrees of one parity V is
    :math:`t^{j_0}` times a Vandermonde matrix in :math:`t^2`, invertible when
    :math:`2n < p`); if V is singular mod p random nodes are drawn from ``rng``.

    Returns
    -------
    nodes : tuple of int
    inverse : numpy.ndarray, int64, shape (n, n)
        ``inverse[k, i]``: the weight of :math:`f(t_i x_A, x_B)` in block k.

    Examples
    --------
    >>> F = ModularDomain(101)
    >>> nodes, W = interpolation_nodes(DegreeStructure(((1, 2), (3, 0))), F,
    ...                                np.random.default_rng(0))
    >>> nodes, [int(x) for x in (W @ [2 + 3, 2 * 2 + 3 * 8]) % 101]   # f = 2t + 3t^3
    ((1, 2), [2, 3])
    """
    p, degrees = domain.p, structure.a_degrees
    n = len(degrees)
    if n >= p - 1:
        raise ValueError(f"{n} blocks need {n} distinct nonzero scalings mod p = {p}")
    for attempt in range(17):
        nodes = (tuple(range(1, n + 1)) if attempt == 0
                 else tuple(int(x) for x in rng.integers(1, p, n)))
        if len(set(nodes)) < n:
            continue
        V = flint.nmod_mat([[pow(t, j, p) for j in degrees] for t in nodes], p)
        if V.rank() == n:
            inv = V.inv()
            return nodes, np.array([[int(inv[k, i]) for i in range(n)] for k in range(n)],
                                   dtype=np.int64)
    raise RuntimeError(f"no invertible interpolation system found mod p = {p}")


def check_structure(evaluate: Callable[[Array, Array], Array], structure: DegreeStructure,
                    domain: ModularDomain, nodes: Sequence[int], inverse: Array,
                    n_a: int, n_b: int, dim: int, rng: np.random.Generator,
                    n_checks: int = CHECK_POINTS, deadline: float | None = None
                    ) -> dict[str, Any]:
    r"""Refuse a function that is not of the declared structure (module docstring).

    ``evaluate(a_points, b_points)`` returns the rectangular grid
    :math:`[f(a_r, b_s)] \bmod p` for ``a_points`` of shape (R, n_a, dim) and ``b_points`` of
    shape (S, n_b, dim).  At ``n_checks`` random points and random nonzero scalings
    :math:`(t^*, s^*)` the interpolated blocks must predict :math:`f(t^* x_A, s^* x_B)`.

    Past ``deadline`` (a :func:`time.perf_counter` value) the remaining checks are skipped and
    the result says ``'stopped': 'time_limit'`` (the block engine then starts no block).

    Raises
    ------
    DegreeStructureError
        With the residual, the point and the scalings, when a check fails.

    Examples
    --------
    >>> F = ModularDomain(16777259)
    >>> def grid(a, b):        # f = <a, b> (a + b)_0: bidegrees (2, 1) and (1, 2)
    ...     inner = np.einsum("rd,sd->rs", a[:, 0], b[:, 0]) % F.p
    ...     return inner * ((a[:, 0, :1] + b[None, :, 0, 0]) % F.p) % F.p
    >>> s = DegreeStructure(((1, 2), (2, 1)))
    >>> nodes, W = interpolation_nodes(s, F, np.random.default_rng(0))
    >>> check_structure(grid, s, F, nodes, W, 1, 1, 2, np.random.default_rng(1))["passed"]
    8
    >>> wrong = DegreeStructure.homogeneous(3, a_parity=1)   # claims odd A-degrees
    >>> nodes, W = interpolation_nodes(wrong, F, np.random.default_rng(0))
    >>> check_structure(grid, wrong, F, nodes, W, 1, 1, 2, np.random.default_rng(1))
    Traceback (most recent call last):
    ...
    seprank.core.errors.DegreeStructureError: f is not of the declared degree ...
    """
    p = domain.p
    n = len(nodes)
    for trial in range(n_checks):
        if deadline is not None and time.perf_counter() > deadline:
            # the blocks see the same deadline and do not start: nothing rests on this
            return {"passed": trial, "prime": p, "stopped": "time_limit"}
        a = rng.integers(0, p, (1, n_a, dim))
        b = rng.integers(0, p, (1, n_b, dim))
        t_star, s_star = (int(x) for x in rng.integers(1, p, 2))
        scaled = np.concatenate([np.mod(a * t, p) for t in nodes] + [np.mod(a * t_star, p)])
        values = np.asarray(evaluate(scaled, np.concatenate([b, np.mod(b * s_star, p)])))
        values = np.mod(values.astype(np.int64), p)  # int64 or balanced float64 residues
        at_nodes, actual = values[:n, 0], int(values[n, 1])
        blocks = [sum(int(inverse[k, i]) * int(at_nodes[i]) for i in range(n)) % p
                  for k in range(n)]
        predicted = sum(pow(t_star, j, p) * pow(s_star, kk, p) * v
                        for (j, kk), v in zip(structure.bidegrees, blocks, strict=True)) % p
        if predicted != actual:
            raise DegreeStructureError(
                f"f is not of the declared degree structure {structure.bidegrees} "
                f"({structure.source or 'no source given'}): at a random point, "
                f"f(t* x_A, s* x_B) = {actual} but the interpolated blocks give {predicted} "
                f"mod p = {p} (t* = {t_star}, s* = {s_star}, check {trial + 1}). The "
                "coefficient matrix is then not block-diagonal by these degrees; declare the "
                "right bidegrees or use structure='dense'")
    return {"passed": n_checks, "prime": p}


@dataclass(frozen=True)
class DegreeBlock:
    """One bihomogeneous block: its bidegree, size bound and certified rank.

    Attributes
    ----------
    a_degree, b_degree : int
        The bidegree :math:`(j_k, k_k)`.
    bound : int
        min(#A-monomials, #B-monomials): a proven upper bound on sep of the block.
    rank : int
        The certified GF(p) rank of the block's grid: a lower bound on sep of the block.
    stop_reason : str
        How the block's growth loop stopped.
    n_templates : int
        Templates of the last round (the first ``n_templates`` of the shared template stream).
    matrix_shape : (int, int)
        Shape of the block's last grid matrix (after de-duplication).
    history : tuple of RoundRecord
        The block's rounds.
    rank_result : RankResult
        The last round's rank (prime, shape): what a certificate of the block starts from.
    templates : numpy.ndarray
        The last round's templates (residues mod p); rows and columns are their tuples.
    evidence : GridEvidence or None
        The block's last grid (f, its templates, p) and a non-zero minor of it -- kept with
        ``keep_witness=True``, else found by re-evaluating the block's grid on demand
        (``evidence.minor()``): what :meth:`BlockSeparationRankResult.certificate` needs.
    """

    a_degree: int
    b_degree: int
    bound: int
    rank: int
    stop_reason: StopReason
    n_templates: int
    matrix_shape: tuple[int, int]
    history: tuple[RoundRecord, ...]
    rank_result: RankResult
    templates: Array = field(repr=False, compare=False)
    evidence: GridEvidence | None = field(default=None, repr=False, compare=False)

    @property
    def certifies(self) -> str:
        """'exact' when the rank reached the block's size bound, else 'lower_bound'."""
        return "exact" if self.rank == self.bound else "lower_bound"

    def row(self) -> dict[str, Any]:
        """The block as a report row (degree, bound, certified rank).

        Returns
        -------
        dict
            Keys for the degree, the bound and the certified rank.
        """
        return {"bidegree": (self.a_degree, self.b_degree), "bound": self.bound,
                "rank": self.rank, "certifies": self.certifies, "stop": self.stop_reason,
                "matrix": self.matrix_shape}


@dataclass(frozen=True, repr=False)
class BlockSeparationRankResult(SeparationRankResult):
    """A separation rank computed block by block (:mod:`seprank.separation.degree`).

    ``rank`` is the sum of the block ranks; ``blocks`` lists each block; ``structure`` is the
    declared degree structure, ``nodes`` the scalings :math:`t_i` and ``inverse`` the
    interpolation weights mod ``details['prime']`` (what a certificate of a block needs).

    Attributes
    ----------
    blocks : tuple of DegreeBlock
        Each block: bidegree, bound, certified rank.
    structure : DegreeStructure or None
        The declared degree structure.
    nodes : tuple of int
        The scalings t_i of the interpolation.
    inverse : numpy.ndarray or None
        The interpolation weights mod ``details['prime']``.
    """

    blocks: tuple[DegreeBlock, ...] = ()
    structure: DegreeStructure | None = None
    nodes: tuple[int, ...] = ()
    inverse: Array | None = field(default=None, repr=False, compare=False)

    @property
    def block_bound(self) -> int:
        """The sum of the block size bounds: sep(f) when every block reaches its bound."""
        return sum(b.bound for b in self.blocks)

    @property
    def status(self) -> str:
        """The whole result in words: how many blocks saturated (or reached their size bound),
        which did not and why, the sum of block ranks and the largest grid."""
        if not self.blocks:
            return super().status
        stops: dict[str, int] = {}
        for b in self.blocks:
            stops[b.stop_reason] = stops.get(b.stop_reason, 0) + 1
        unsaturated = [b for b in self.blocks if b.stop_reason not in SATURATED_STOPS]
        head = ("saturated" if not unsaturated else
                "not saturated: block(s) " + ", ".join(
                    f"({b.a_degree}, {b.b_degree}) stopped by {b.stop_reason}"
                    for b in unsaturated))
        counts = ", ".join(f"{n} {STOP_WORDS.get(stop, stop)}" for stop, n in stops.items())
        ranks = " + ".join(str(b.rank) for b in self.blocks)
        rows, cols = max(b.matrix_shape for b in self.blocks)
        return (f"{head}; {len(self.blocks)} blocks ({counts}), rank {ranks} = {self.rank} "
                f"of at most {self.block_bound}, up to {max(b.n_templates for b in self.blocks)}"
                f" templates, largest matrix {rows}x{cols}")

    def table(self) -> list[dict[str, Any]]:
        """One row per block: bidegree, bound, certified rank.

        Returns
        -------
        list of dict
            One row per block (:meth:`DegreeBlock.row`).
        """
        return [b.row() for b in self.blocks]

    def certificate(self, *, function: Mapping[str, Any] | None = None,
                    statement: str | None = None) -> dict[str, Any]:
        r"""The certificate of this block-by-block rank (kind ``grid_rank_blocks``):
        :math:`\operatorname{sep}_{(A,B)}(f) \ge \sum_k r_k`.

        When f is homogeneous of total degree D, its A-degree-j part :math:`f_j` has bidegree
        :math:`(j, D - j)`, the coefficient matrix of f is block-diagonal by j, so
        :math:`\operatorname{sep}(f) = \sum_j \operatorname{sep}(f_j)`, and a non-zero
        :math:`r_j \times r_j` minor of a grid of :math:`f_j` proves
        :math:`\operatorname{sep}(f_j) \ge r_j` (003, Claim 1).  The certificate carries, per
        block of positive rank, its bidegree, templates and the template tuples of the minor's
        rows and columns, plus the declared structure (total degree D and the theorem it comes
        from); the checker (:mod:`seprank.certificates.verify`) recomputes the block values
        :math:`f_j(x_A, x_B)` itself, by interpolating :math:`t \mapsto f(t\,x_A, x_B)` at its
        own D + 1 nodes mod p, and checks the homogeneity the split rests on.

        Parameters
        ----------
        function : Mapping, optional, keyword-only
            Describe f yourself (e.g. :func:`~seprank.certificates.polynomial_function`) when it
            is opaque code.
        statement : str, optional, keyword-only
            What the bound means for the caller (default: the generic sentence).

        Returns
        -------
        dict
            The ``grid_rank_blocks`` certificate (JSON-serialisable), checked by
            :func:`seprank.certificates.verify`.

        Raises
        ------
        ValueError
            When the blocks kept no grid evidence, or the declared structure is not
            homogeneous (the certificate rests on :math:`j_k + k_k = D` for every block).

        References
        ----------
        .. [1] 003, App. B.1, Claim 1; 003, eq. 12 (a network without residual connections is
           homogeneous of degree :math:`3^L`).

        Examples
        --------
        >>> from seprank import LinearAttention
        >>> from seprank.certificates import verify
        >>> net = LinearAttention.random(depth=1, width=2, seed=0)
        >>> b = net.separation_rank(position=0, coordinate=0, partition=([0], [1]),
        ...                         n_inputs=2, seed=0)
        >>> cert = b.certificate()
        >>> cert["kind"], [blk["bidegree"] for blk in cert["blocks"]]
        ('grid_rank_blocks', [[1, 2], [3, 0]])
        >>> verify(cert).ok
        True
        """
        structure = self.structure
        if structure is None or any(b.evidence is None for b in self.blocks):
            raise ValueError("this block result kept no grid evidence of its blocks (it was not "
                             "computed by seprank.separation_rank with method='modular')")
        totals = {j + k for j, k in structure.bidegrees}
        if len(totals) != 1:
            raise ValueError(
                f"the declared structure {structure.bidegrees} is not homogeneous (j + k "
                f"takes the values {sorted(totals)}): a block certificate rests on f being "
                "homogeneous of one total degree D, so that the blocks are the bidegrees "
                "(j, D - j); certify this function with structure='dense'")
        D = totals.pop()
        p = int(self.details["prime"])
        A, B = self.partition
        blocks: list[dict[str, Any]] = []
        seconds, kept, ev_any = 0.0, True, None
        for blk in self.blocks:
            ev = blk.evidence
            assert ev is not None
            ev_any = ev
            if blk.rank == 0:
                continue
            minor = ev.minor()
            if len(minor.rows) != blk.rank or minor.prime != p:
                raise AssertionError(
                    f"block ({blk.a_degree}, {blk.b_degree}): its minor is {len(minor.rows)} x "
                    f"{len(minor.rows)} mod {minor.prime}, not of the certified rank {blk.rank} "
                    f"mod {p}; please report this")
            seconds += minor.seconds
            kept = kept and ev.kept_minor is not None
            blocks.append({"bidegree": [blk.a_degree, blk.b_degree], "rank": blk.rank,
                           "templates": json_array(ev.templates),
                           "rows": [list(t) for t in minor.rows],
                           "cols": [list(t) for t in minor.cols],
                           "entries": [[exact_json(v) for v in row] for row in minor.entries]})
        assert ev_any is not None
        ranks = " + ".join(str(b["rank"]) for b in blocks) or "0"
        claim = {"quantity": "sep_(A,B)(f)", "relation": ">=", "value": self.rank,
                 "statement": statement or (
                     f"sep_({A},{B})(f) >= {ranks} = {self.rank}: f is homogeneous of degree "
                     f"{D} ({structure.source or 'declared'}), so its coefficient matrix is "
                     "block-diagonal by A-degree and sep is the sum of the blocks' separation "
                     "ranks; each block's grid has a non-zero minor of its size (003, Claim 1)")}
        cert = certificate_header("grid_rank_blocks", claim, method=self.method,
                                  stop_reason=self.stop_reason, seconds=self.seconds,
                                  witness_seconds=seconds, witness_kept=kept)
        cert.update({
            "function": (dict(function) if function is not None
                         else function_spec(ev_any.function)),
            "n_inputs": ev_any.n_inputs, "dim": ev_any.dim, "partition": [list(A), list(B)],
            "arithmetic": "GF(p)", "prime": p,
            "structure": {"total_degree": D,
                          "bidegrees": [list(b) for b in structure.bidegrees],
                          "source": structure.source},
            "blocks": blocks,
        })
        return bind_subject(cert)

    def _repr_info(self) -> dict[str, Any]:
        return {**super()._repr_info(), "blocks": len(self.blocks),
                "block_bound": self.block_bound}

    def _display_table(self) -> tuple[tuple[str, ...], list[tuple[Any, ...]]] | None:
        if not self.blocks:
            return super()._display_table()
        return (("bidegree", "bound", "rank", "stop", "matrix"),
                [(f"({b.a_degree}, {b.b_degree})", b.bound, b.rank, b.stop_reason,
                  f"{b.matrix_shape[0]}x{b.matrix_shape[1]}") for b in self.blocks])
