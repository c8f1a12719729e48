"""seprank: certified separation ranks of linearized self-attention, and the bounds around them.

The foundation is a rank engine that says what it certifies (:func:`matrix_rank`,
:func:`rank_mod_p`, :func:`eps_rank`) and vectorized, memory-guarded grid tensors
(:func:`grid_tensor`, :func:`matricize`).
"""

from __future__ import annotations

# --- foundation --------------------------------------------------------------------------------
from seprank.eps_rank import EpsRankResult, eps_rank
from seprank.grid import (
    GridTooLargeError,
    get_grid_memory_limit,
    grid_tensor,
    matricize,
    set_grid_memory_limit,
)
from seprank.rank import RankResult, matrix_rank, random_prime, rank_mod_p

# --- linear attention and separation ranks (seed 003) ------------------------------------------

# --- in-context bias (seeds 000/001) -----------------------------------------------------------

__all__ = [
    "EpsRankResult",
    "GridTooLargeError",
    "RankResult",
    "eps_rank",
    "get_grid_memory_limit",
    "grid_tensor",
    "matricize",
    "matrix_rank",
    "random_prime",
    "rank_mod_p",
    "set_grid_memory_limit",
]
