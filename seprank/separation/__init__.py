r"""Separation ranks: certified ranks of grid-tensor matricizations, and exact symbolic ranks.

For a function :math:`f` of N vectors and a partition (A, B) of its positions,
:math:`\operatorname{sep}_{(A,B)}(f)` is the least R with
:math:`f = \sum_{r=1}^R g_r(x^A)\, g'_r(x^B)` (seed 003, eq. 5).  Any grid matricization has
rank at most sep (003, Claim 1), so a certified matrix rank of a grid is a certified lower
bound on sep; for a polynomial, the rank of its coefficient matrix is sep exactly.

=====================================  =============================================
:func:`separation_rank`                validate -> choose a strategy -> run its driver
:class:`Budget`                        what may stop it early: time, rounds,
                                       templates, memory, patience (``budget=``)
:class:`SeparationRequest`             the validated problem a strategy's driver reads
:func:`register_strategy`              the strategy table (``'symbolic'``,
                                       ``'degree'``, ``'dense'``): a new strategy is
                                       one registered driver; :func:`choose_strategy`
:func:`grow_until_stable`              the reusable growth loop (any grid evaluator)
:func:`plan_templates`                 sizes the first round in a domain
:func:`symbolic_separation_rank`       exact rank of the coefficient matrix (sympy)
:class:`DegreeStructure`               declared bidegrees: split sep into degree blocks
                                       (``separation_rank(..., structure='degree')``)
:class:`BlockSeparationRankResult`     the sum of certified block ranks, every block listed
:class:`SeparationRankResult`          the answer and what it certifies
=====================================  =============================================
"""

from __future__ import annotations

from seprank.separation.budget import Budget
from seprank.separation.degree import (
    BlockSeparationRankResult,
    DegreeBlock,
    DegreeStructure,
    DegreeStructureError,
)
from seprank.separation.engine import separation_rank
from seprank.separation.growth import (
    GrowthOutcome,
    TemplatePlan,
    grow_until_stable,
    plan_templates,
)
from seprank.separation.request import SeparationRequest
from seprank.separation.result import (
    GridEvidence,
    GridMinor,
    RoundRecord,
    SeparationRankResult,
    StopReason,
    accepts_domain,
    validate_partition,
)
from seprank.separation.strategies import (
    STRATEGIES,
    choose_strategy,
    register_strategy,
)
from seprank.separation.symbolic import coefficient_matrix, symbolic_separation_rank

__all__ = [
    "STRATEGIES",
    "BlockSeparationRankResult",
    "Budget",
    "DegreeBlock",
    "DegreeStructure",
    "DegreeStructureError",
    "GridEvidence",
    "GridMinor",
    "GrowthOutcome",
    "RoundRecord",
    "SeparationRankResult",
    "SeparationRequest",
    "StopReason",
    "TemplatePlan",
    "accepts_domain",
    "choose_strategy",
    "coefficient_matrix",
    "grow_until_stable",
    "plan_templates",
    "register_strategy",
    "separation_rank",
    "symbolic_separation_rank",
    "validate_partition",
]
