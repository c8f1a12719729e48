"""In-context bias (000/001): seq-sep block by block (the degree blocks).

Z_in is homogeneous of degree 3^L with odd a-degrees when i is in S1 (our derivation, notes
§1.7; claim ICB-bidegree-structure), so its coefficient matrix is block-diagonal over the
bidegrees (2k+1, 2C-2k) and seq-sep is the sum of the blocks' separation ranks, each at most
min(m(2k+1), m(2C-2k)): the terms of PB.  The degree-block engine
(:mod:`seprank.separation.blocks`) certifies each block on its own grid.  The check here is a
consistency check: two of the library's routes (blocks, one dense grid) must certify the same
rank, and each block's certified rank must be the term of PB it stands for.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from paper_checks.claims.incontext.common import QUICK_SETTINGS, pb_network, pb_result
from paper_checks.compare import exact_result
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Independent, claim
from seprank.incontext.seq_sep import incontext_seq_sep
from seprank.separation import BlockSeparationRankResult


def _block_result(d_x: int, H: int, L: int, N: int) -> BlockSeparationRankResult:
    """The block-by-block certified seq-sep of ICB-PB-attained's network (its own result)."""
    engine = pb_result(d_x, H, L, N).engine
    if not isinstance(engine, BlockSeparationRankResult):
        raise AssertionError(f"ICB-PB-attained's seq-sep was not computed by degree blocks "
                             f"({type(engine).__name__})")
    return engine


@cache
def _dense_rank(d_x: int, H: int, L: int, N: int) -> int:
    return incontext_seq_sep(pb_network(d_x, H, L, N), seed=7, structure="dense").rank


def _term(d_x: int, j: int, k: int) -> int:
    """min(m(j), m(k)) by the binomial formula (independent of the engine's bounds)."""
    return min(math.comb(j + d_x - 1, d_x - 1), math.comb(k + d_x - 1, d_x - 1))


@claim(
    id="ICB-PB-blocks", basis="not_refuted", universal=True,
    paper="001",
    reference="Corollary 1 / notes §3.2 [PB and its blocks: our derivation]",
    statement="Our derivation: seq-sep(y_in) is the sum over the bidegree blocks (2k+1, 2C-2k) "
    "of their separation ranks, each <= min(m(2k+1), m(2C-2k)), and random weights attain "
    "every block's bound when H < d_x",
    category="consistency",
    perturbation=Perturbed("the largest block's bound lowered by one", top_block_offset=-1),
)
def icb_pb_blocks(top_block_offset: int = 0) -> ClaimResult:
    rows, ok = [], True
    for d_x, H, L, N, _pb in QUICK_SETTINGS:
        blocks = _block_result(d_x, H, L, N)
        dense = _dense_rank(d_x, H, L, N)
        terms = [_term(d_x, b.a_degree, b.b_degree) for b in blocks.blocks]
        if top_block_offset:
            top = terms.index(max(terms))
            terms[top] += top_block_offset
        ranks = [b.rank for b in blocks.blocks]
        attained = ranks == terms
        ok &= blocks.rank == dense and all(r <= t for r, t in zip(ranks, terms, strict=True))
        ok &= attained or d_x == H
        rows.append({"d_x": d_x, "H": H, "L": L, "N": N, "dense": dense,
                     "blocks": blocks.rank, "block ranks": ranks, "terms of PB": terms})
    return exact_result(
        measured=[(r["d_x"], r["H"], r["L"], r["N"], r["blocks"]) for r in rows],
        reference_value=[r["dense"] for r in rows], what="integer ranks: equal or not", holds=ok,
        independent=Independent("one dense PB-sized GF(p) grid and its flint rank "
                                "(structure='dense'), and the binomial terms of PB",
                                [r["dense"] for r in rows], ok),
        details={"table": rows, "note": "H = d_x (d_a = 1) may stay below a block's bound"})


def block_table(d_x: int, H: int, L: int, N: int) -> list[dict[str, Any]]:
    """The block table (bidegree, bound, certified rank) of the claims' network at a setting."""
    return _block_result(d_x, H, L, N).table()
