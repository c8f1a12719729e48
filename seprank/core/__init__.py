r"""The paper-free certified core: number domains, ranks that say what they certify, grids.

Nothing here knows a paper.  Every other floor of :mod:`seprank` and :mod:`identifiability`
builds on these names:

==============================  ==============================================================
domains                         :class:`FloatDomain`, :class:`ModularDomain`,
                                :class:`ExactDomain`; :func:`domain_for` turns a ``method``
                                into a domain that draws templates, ranks and certifies;
                                :func:`matrix_rank` (exact / modular / svd) ranks through it
rank                            :class:`RankResult`; the rank over Q, over GF(p)
                                (:func:`rank_mod_p`) and in floating point
eps_rank                        :func:`eps_rank`: certified brackets of ε-ranks
grid                            :func:`grid_tensor`, :func:`matricize`
memory                          the one memory policy: :func:`set_memory_limit`,
                                :func:`guard_memory` (estimate, then refuse before allocating),
                                :class:`MemoryBudgetError`
validation                      argument checks that name the argument
random                          :func:`as_generator`, :func:`spawn`, :func:`split_seed`,
                                :func:`random_prime`
results                         :data:`Method`, :data:`Certificate`, :class:`Result` (every
                                result), :class:`CertifiedResult` (one that says what it
                                certifies)
inputs                          :func:`as_exact_matrix`, :func:`as_float_matrix`
log3                            60-digit base-3 logarithms and exact comparisons
minors                          :func:`nonzero_minor`, :func:`kernel_basis`: the witnesses of
                                a rank's two sides (for :mod:`seprank.certificates`)
gaussian_rationals              exact a + bi (:class:`GaussianRational`)
==============================  ==============================================================
"""

from __future__ import annotations

from seprank.core.domains import (
    EXACT_TEMPLATE_RANGE,
    Domain,
    ExactDomain,
    FloatDomain,
    ModularDomain,
    domain_for,
    matrix_rank,
    random_small_prime,
)
from seprank.core.eps_rank import EpsRankResult, eps_rank
from seprank.core.gaussian_rationals import (
    GaussianRational,
    complex_rank_embedding,
    sqrt_minus_one_mod,
)
from seprank.core.grid import (
    GridTooLargeError,
    grid_tensor,
    matricize,
)
from seprank.core.inputs import ExactMatrix, as_exact_matrix, as_float_matrix, to_rational
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
from seprank.core.memory import (
    MemoryBudgetError,
    array_bytes,
    get_memory_limit,
    guard_memory,
    memory_limit,
    set_memory_limit,
)
from seprank.core.minors import kernel_basis, nonzero_minor
from seprank.core.random import (
    SeedLike,
    as_generator,
    is_prime,
    random_prime,
    spawn,
    split_seed,
)
from seprank.core.rank import RankResult, rank_mod_p
from seprank.core.results import (
    CERTIFICATES,
    Certificate,
    CertifiedResult,
    Method,
    RankValued,
    Result,
    SeparationMethod,
)
from seprank.core.validation import (
    check_array,
    check_bool,
    check_callable,
    check_choice,
    check_float,
    check_index,
    check_instance,
    check_int,
    check_tolerance,
    validated,
)

__all__ = [
    "CERTIFICATES",
    "DIGITS",
    "EXACT_BITS_LIMIT",
    "EXACT_TEMPLATE_RANGE",
    "NEG_INF",
    "TIE_TOLERANCE",
    "Certificate",
    "CertifiedResult",
    "Domain",
    "EpsRankResult",
    "ExactDomain",
    "ExactMatrix",
    "FloatDomain",
    "GaussianRational",
    "GridTooLargeError",
    "Log3Value",
    "MemoryBudgetError",
    "Method",
    "ModularDomain",
    "RankResult",
    "RankValued",
    "Result",
    "SeedLike",
    "SeparationMethod",
    "array_bytes",
    "as_exact_matrix",
    "as_float_matrix",
    "as_generator",
    "check_array",
    "check_bool",
    "check_callable",
    "check_choice",
    "check_float",
    "check_index",
    "check_instance",
    "check_int",
    "check_tolerance",
    "compare",
    "complex_rank_embedding",
    "domain_for",
    "eps_rank",
    "get_memory_limit",
    "grid_tensor",
    "guard_memory",
    "is_prime",
    "kernel_basis",
    "log3",
    "log3_e",
    "log3_multiset_coefficient",
    "matricize",
    "matrix_rank",
    "memory_limit",
    "nonzero_minor",
    "random_prime",
    "random_small_prime",
    "rank_mod_p",
    "set_memory_limit",
    "spawn",
    "split_seed",
    "sqrt_minus_one_mod",
    "to_mpf",
    "to_rational",
    "validated",
]
