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
progress                        the one progress policy: :func:`progress_bar` (one quiet bar
                                per user-visible call), :func:`set_progress`
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

from typing import TYPE_CHECKING

from seprank.core.display import *
from seprank.core.domains import *
from seprank.core.eps_rank import *
from seprank.core.gaussian_rationals import *
from seprank.core.grid import *
from seprank.core.index import reexport
from seprank.core.inputs import *
from seprank.core.log3 import *
from seprank.core.memory import *
from seprank.core.minors import *
from seprank.core.progress import *
from seprank.core.random import *
from seprank.core.rank import *
from seprank.core.results import *
from seprank.core.validation import *

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, [
        "display",
        "domains",
        "eps_rank",
        "gaussian_rationals",
        "grid",
        "inputs",
        "log3",
        "memory",
        "minors",
        "progress",
        "random",
        "rank",
        "results",
        "validation",
    ])
