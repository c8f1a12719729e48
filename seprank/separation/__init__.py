"""seprank.separation (face; index to be written)."""

from __future__ import annotations

from seprank.separation.engine import (
    RoundRecord,
    SeparationRankResult,
    separation_rank,
    validate_partition,
)
from seprank.separation.symbolic import (
    coefficient_matrix,
    symbolic_separation_rank,
)

__all__ = [
    "RoundRecord",
    "SeparationRankResult",
    "coefficient_matrix",
    "separation_rank",
    "symbolic_separation_rank",
    "validate_partition",
]
