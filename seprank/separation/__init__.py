r"""Separation ranks: certified ranks of grid-tensor matricizations, and exact symbolic ranks.

For a function :math:`f` of N vectors and a partition (A, B) of its positions,
:math:`\operatorname{sep}_{(A,B)}(f)` is the least R with
:math:`f = \sum_{r=1}^R g_r(x^A)\, g'_r(x^B)` (003, eq. 5).  Any grid matricization has
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

from typing import TYPE_CHECKING

from seprank.core.index import reexport
from seprank.separation.budget import *
from seprank.separation.degree import *
from seprank.separation.engine import *
from seprank.separation.growth import *
from seprank.separation.request import *
from seprank.separation.result import *
from seprank.separation.strategies import *
from seprank.separation.symbolic import *

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, ["budget", "degree", "engine", "growth", "request", "result",
                                  "strategies", "symbolic"])
