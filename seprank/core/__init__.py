"""seprank.core (face; index to be written)."""

from __future__ import annotations

from seprank.core.domains import (
    Domain,
    ExactDomain,
    FloatDomain,
    ModularDomain,
    random_small_prime,
)
from seprank.core.eps_rank import (
    EpsRankResult,
    eps_rank,
)
from seprank.core.gaussian_rationals import (
    GaussianRational,
    complex_rank_embedding,
    sqrt_minus_one_mod,
)
from seprank.core.grid import (
    GridTooLargeError,
    get_grid_memory_limit,
    grid_tensor,
    matricize,
    set_grid_memory_limit,
)
from seprank.core.inputs import (
    ExactMatrix,
    as_exact_matrix,
    as_float_matrix,
)
from seprank.core.log3 import (
    DIGITS,
    EXACT_BITS_LIMIT,
    NEG_INF,
    TIE_TOLERANCE,
    Log3Value,
    compare,
    log3,
    log3_e,
    log3_multiset_coefficient,
    to_mpf,
)
from seprank.core.rank import (
    RankResult,
    matrix_rank,
    random_prime,
    rank_mod_p,
)
from seprank.core.results import (
    FrozenDetails,
    RankValued,
)

__all__ = [
    "DIGITS",
    "EXACT_BITS_LIMIT",
    "NEG_INF",
    "TIE_TOLERANCE",
    "Domain",
    "EpsRankResult",
    "ExactDomain",
    "ExactMatrix",
    "FloatDomain",
    "FrozenDetails",
    "GaussianRational",
    "GridTooLargeError",
    "Log3Value",
    "ModularDomain",
    "RankResult",
    "RankValued",
    "as_exact_matrix",
    "as_float_matrix",
    "compare",
    "complex_rank_embedding",
    "eps_rank",
    "get_grid_memory_limit",
    "grid_tensor",
    "log3",
    "log3_e",
    "log3_multiset_coefficient",
    "matricize",
    "matrix_rank",
    "random_prime",
    "random_small_prime",
    "rank_mod_p",
    "set_grid_memory_limit",
    "sqrt_minus_one_mod",
    "to_mpf",
]
