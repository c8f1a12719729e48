r"""Certificates of separation ranks: one dense grid, or the sum of degree blocks.

A dense grid rank (kind ``grid_rank``) is proven by a non-zero r x r minor of one grid
matricization (003, Claim 1).  A rank computed block by block
(:class:`~seprank.separation.degree.BlockSeparationRankResult`, kind ``grid_rank_blocks``)
is proven by one minor per block: when f is homogeneous of total degree D, its A-degree-j part
:math:`f_j` has bidegree :math:`(j, D - j)`, the coefficient matrix of f between A- and
B-monomials is block-diagonal by j, so :math:`\operatorname{sep}(f) = \sum_j
\operatorname{sep}(f_j)`, and a non-zero :math:`r_j \times r_j` minor of a grid of
:math:`f_j` proves :math:`\operatorname{sep}(f_j) \ge r_j`.  The certificate carries, per
block, its bidegree, templates and the template tuples of the minor's rows and columns; the
checker (:mod:`seprank.certificates.verify`) recomputes the block values
:math:`f_j(x_A, x_B)` itself, by interpolating :math:`t \mapsto f(t\,x_A, x_B)` at its own
D + 1 nodes mod p, and checks the homogeneity the split rests on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from seprank.certificates.build import (
    certificate_header,
    exact_json,
    function_spec,
    json_array,
    matrix_certificate,
)
from seprank.core.rank import RankResult
from seprank.separation.degree import BlockSeparationRankResult
from seprank.separation.result import SeparationRankResult

__all__ = ["certify", "grid_certificate"]


def grid_certificate(result: SeparationRankResult, *, function: Mapping[str, Any] | None = None,
                     statement: str | None = None) -> dict[str, Any]:
    r"""The certificate of a certified separation rank (``separation_rank`` with method
    ``'modular'`` or ``'exact'``): :math:`\operatorname{sep}_{(A,B)}(f) \ge r`.

    A dense result (kind ``grid_rank``) carries the function's parameters
    (:func:`~seprank.certificates.function_spec`), the templates, the template tuples of the
    rows and columns of a non-zero r x r minor of the last grid matrix, the engine's values
    of that minor and the prime.  A result computed block by block
    (:class:`~seprank.separation.degree.BlockSeparationRankResult`, the default for network
    entries and the in-context representation; kind ``grid_rank_blocks``) carries the same
    for every block k of rank :math:`r_k > 0` -- its bidegree :math:`(j_k, D - j_k)`, its
    templates and an :math:`r_k \times r_k` minor of its grid -- plus the declared structure
    (total degree D and the theorem it comes from); it claims
    :math:`\operatorname{sep} \ge \sum_k r_k` (module docstring).  Minors were kept during
    the computation (``keep_witness=True``) or are found now by re-evaluating the last grid
    (of each block).

    Parameters
    ----------
    result : SeparationRankResult
        A grid result (``result.evidence`` is set for 'modular' and 'exact'; every block of
        a block result has its ``evidence``).
    function : Mapping, optional, keyword-only
        Describe f yourself (e.g. :func:`~seprank.certificates.polynomial_function`) when it
        is opaque code.
    statement : str, optional, keyword-only
        What the bound means for the caller (default: the generic sentence).

    Raises
    ------
    ValueError
        For a result without grid evidence (``'svd'``, ``'symbolic'``), or a block result
        whose declared structure is not homogeneous (the block certificate rests on
        :math:`j_k + k_k = D` for every block).

    References
    ----------
    .. [1] 003, App. B.1, Claim 1 (grid matricizations bound sep from below); 003, eq. 12 (a
       network without residual connections is homogeneous of degree :math:`3^L`).

    Examples
    --------
    >>> from seprank import LinearAttention
    >>> from seprank.certificates import verify
    >>> net = LinearAttention.random(depth=1, width=2, seed=0)
    >>> r = net.separation_rank(i=0, p=0, partition=([0], [1]), n_inputs=2, seed=0,
    ...                         keep_witness=True, structure="dense")
    >>> cert = grid_certificate(r)
    >>> cert["kind"], cert["claim"]["value"] == r.rank, len(cert["rows"]) == r.rank
    ('grid_rank', True, True)
    >>> v = verify(cert)
    >>> v.ok, v.recomputed
    (True, True)

    The default for a network entry is the degree split; its certificate is one of the sum:

    >>> b = net.separation_rank(i=0, p=0, partition=([0], [1]), n_inputs=2, seed=0)
    >>> cert = grid_certificate(b)
    >>> cert["kind"], [blk["bidegree"] for blk in cert["blocks"]], b.rank == r.rank
    ('grid_rank_blocks', [[1, 2], [3, 0]], True)
    >>> verify(cert).ok
    True
    """
    if not isinstance(result, SeparationRankResult):
        raise TypeError(f"result must be a SeparationRankResult, got {type(result).__name__}")
    if isinstance(result, BlockSeparationRankResult):
        return _block_certificate(result, function, statement)
    ev = result.evidence
    if ev is None:
        raise ValueError(f"a {result.method!r} separation rank has no grid evidence: only the "
                         "grid methods 'modular' and 'exact' certify a rank with a minor")
    minor = ev.minor()
    A, B = result.partition
    claim = {"quantity": "sep_(A,B)(f)", "relation": ">=", "value": result.rank,
             "statement": statement or (f"sep_({A},{B})(f) >= {result.rank}: a non-zero "
                                        f"{result.rank} x {result.rank} minor of a grid "
                                        "matricization (003, Claim 1)")}
    cert = certificate_header("grid_rank", claim, method=result.method,
                              stop_reason=result.stop_reason, seconds=result.seconds,
                              witness_seconds=minor.seconds,
                              witness_kept=ev.kept_minor is not None)
    cert.update({
        "function": dict(function) if function is not None else function_spec(ev.function),
        "n_inputs": ev.n_inputs, "dim": ev.dim, "partition": [list(A), list(B)],
        "arithmetic": ev.arithmetic, "prime": minor.prime,
        "templates": json_array(ev.templates),
        "rows": [list(t) for t in minor.rows], "cols": [list(t) for t in minor.cols],
        "entries": [[exact_json(v) for v in row] for row in minor.entries],
    })
    return cert


def _block_certificate(result: BlockSeparationRankResult, function: Mapping[str, Any] | None,
                       statement: str | None) -> dict[str, Any]:
    """Kind ``grid_rank_blocks``: one minor per block of positive rank (module docstring)."""
    structure = result.structure
    if structure is None or any(b.evidence is None for b in result.blocks):
        raise ValueError("this block result kept no grid evidence of its blocks (it was not "
                         "computed by seprank.separation_rank with method='modular')")
    totals = {j + k for j, k in structure.bidegrees}
    if len(totals) != 1:
        raise ValueError(
            f"the declared structure {structure.bidegrees} is not homogeneous (j + k takes the "
            f"values {sorted(totals)}): a block certificate rests on f being homogeneous of one "
            "total degree D, so that the blocks are the bidegrees (j, D - j); certify this "
            "function with structure='dense'")
    D = totals.pop()
    p = int(result.details["prime"])
    A, B = result.partition
    blocks: list[dict[str, Any]] = []
    seconds, kept, ev_any = 0.0, True, None
    for blk in result.blocks:
        ev = blk.evidence
        assert ev is not None
        ev_any = ev
        if blk.rank == 0:
            continue
        minor = ev.minor()
        if len(minor.rows) != blk.rank or minor.prime != p:
            raise AssertionError(f"block ({blk.a_degree}, {blk.b_degree}): its minor is "
                                 f"{len(minor.rows)} x {len(minor.rows)} mod {minor.prime}, not "
                                 f"of the certified rank {blk.rank} mod {p}; please report this")
        seconds += minor.seconds
        kept = kept and ev.kept_minor is not None
        blocks.append({"bidegree": [blk.a_degree, blk.b_degree], "rank": blk.rank,
                       "templates": json_array(ev.templates),
                       "rows": [list(t) for t in minor.rows],
                       "cols": [list(t) for t in minor.cols],
                       "entries": [[exact_json(v) for v in row] for row in minor.entries]})
    assert ev_any is not None
    ranks = " + ".join(str(b["rank"]) for b in blocks) or "0"
    claim = {"quantity": "sep_(A,B)(f)", "relation": ">=", "value": result.rank,
             "statement": statement or (
                 f"sep_({A},{B})(f) >= {ranks} = {result.rank}: f is homogeneous of degree "
                 f"{D} ({structure.source or 'declared'}), so its coefficient matrix is "
                 "block-diagonal by A-degree and sep is the sum of the blocks' separation "
                 "ranks; each block's grid has a non-zero minor of its size (003, Claim 1)")}
    cert = certificate_header("grid_rank_blocks", claim, method=result.method,
                              stop_reason=result.stop_reason, seconds=result.seconds,
                              witness_seconds=seconds, witness_kept=kept)
    cert.update({
        "function": dict(function) if function is not None else function_spec(ev_any.function),
        "n_inputs": ev_any.n_inputs, "dim": ev_any.dim, "partition": [list(A), list(B)],
        "arithmetic": "GF(p)", "prime": p,
        "structure": {"total_degree": D, "bidegrees": [list(b) for b in structure.bidegrees],
                      "source": structure.source},
        "blocks": blocks,
    })
    return cert


def certify(obj: Any, **kwargs: Any) -> dict[str, Any]:
    """The certificate of any certified result: ``RankResult`` (pass ``matrix=M``),
    ``SeparationRankResult`` (dense or block by block), or a result with a ``certificate()``
    method (:class:`~seprank.SeqSepResult`, :class:`~seprank.WitnessResult`,
    ``identifiability.masked.KruskalRankResult`` with ``matrix=A``).

    Examples
    --------
    >>> from seprank import matrix_rank
    >>> certify(matrix_rank([[1, 2], [3, 4]]), matrix=[[1, 2], [3, 4]])["claim"]["value"]
    2
    """
    if isinstance(obj, RankResult):
        if "matrix" not in kwargs:
            raise TypeError("a RankResult does not keep its matrix: certify(result, matrix=M)")
        return matrix_certificate(kwargs.pop("matrix"), obj, **kwargs)
    if isinstance(obj, SeparationRankResult):
        return grid_certificate(obj, **kwargs)
    method = getattr(obj, "certificate", None)
    if callable(method):
        return dict(method(**kwargs))
    raise TypeError(f"{type(obj).__name__} has no certificate: certify RankResult, "
                    "SeparationRankResult, SeqSepResult, WitnessResult or KruskalRankResult")
