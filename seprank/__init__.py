"""seprank: certified separation ranks of linearized self-attention, and the bounds around them.

The foundation is a rank engine that says what it certifies (:func:`matrix_rank`,
:func:`rank_mod_p`, :func:`eps_rank`) and vectorized, memory-guarded grid tensors
(:func:`grid_tensor`, :func:`matricize`).  On top of it: the linearized self-attention network
(:class:`LinearAttention`), evaluated by one code path over floats, GF(p) or exact numbers
(:class:`FloatDomain`, :class:`ModularDomain`, :class:`ExactDomain`), and certified separation
ranks of any batch function (:func:`separation_rank`).
"""

from __future__ import annotations

from seprank.arithmetic import ExactDomain, FloatDomain, ModularDomain
from seprank.attention import LinearAttention
from seprank.eps_rank import EpsRankResult, eps_rank
from seprank.grid import (
    GridTooLargeError,
    get_grid_memory_limit,
    grid_tensor,
    matricize,
    set_grid_memory_limit,
)
from seprank.rank import RankResult, matrix_rank, random_prime, rank_mod_p
from seprank.separation import SeparationRankResult, separation_rank

__all__ = [
    "EpsRankResult",
    "ExactDomain",
    "FloatDomain",
    "GridTooLargeError",
    "LinearAttention",
    "ModularDomain",
    "RankResult",
    "SeparationRankResult",
    "eps_rank",
    "get_grid_memory_limit",
    "grid_tensor",
    "matricize",
    "matrix_rank",
    "random_prime",
    "rank_mod_p",
    "separation_rank",
    "set_grid_memory_limit",
]
