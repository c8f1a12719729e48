"""identifiability: learning and identifying models from data.

Subpackages, one per part of the thesis 004 (B. Liu) and one for paper 002, each with its own
index (the paper's notation and a statement -> function table in its ``__init__``):

====================================  ==============================================================
:mod:`identifiability.masked`         §2.2: masked prediction for HMMs and Gaussian HMMs -- Kruskal
                                      ranks, exact recovery, non-identifiability counterexamples
                                      (claims ``MP-*``)
:mod:`identifiability.contrastive`    §2.1: contrastive learning of transition kernels -- processes,
                                      the task, eq. 2.12, estimators, Theorems 2-3 (claims ``CL-*``)
:mod:`identifiability.nce`            §4.1: the NCE / eNCE landscape for a Gaussian mean
                                      (claims ``NCE-*``)
:mod:`identifiability.distillation`   §4.2: progressive distillation and sparse parity -- exact
                                      hypercube Fourier facts, the one-step teacher, Propositions
                                      9-10, a toy experiment (claims ``PD-*``)
:mod:`identifiability.icl`            002: in-context learning of a nonlinear Transformer and
                                      magnitude pruning (claims ``ICL-*``)
====================================  ==============================================================

Everything certified (ranks, primes, seeds) comes from :mod:`seprank.core`.  The names below
are re-exported for convenience; module paths from before 0.2 (``identifiability.hmm``,
``identifiability.contrastive_fit``, ...) still import, with a :class:`FutureWarning`.
"""

from __future__ import annotations

from identifiability import contrastive, distillation, icl, masked, nce
from identifiability.contrastive import *  # noqa: F403  (each subpackage face lists its names)
from identifiability.masked import *  # noqa: F403
from identifiability.nce import *  # noqa: F403
from seprank.core import split_seed
from seprank.core.compat import install_moved_modules

# Papers added after 0.2 are reached through their subpackage (identifiability.icl.X,
# identifiability.distillation.X): their names (Task, train, parity, ...) are too generic here.
__all__ = ["contrastive", "distillation", "icl", "masked", "nce", "split_seed",
           *contrastive.__all__, *masked.__all__, *nce.__all__]

#: Module paths before the 0.2 layout -> where they live now.
MOVED_MODULES = {
    "identifiability.hmm": "identifiability.masked.hmm",
    "identifiability.assumptions": "identifiability.masked.assumptions",
    "identifiability.tasks": "identifiability.masked.tasks",
    "identifiability.masked_tensors": "identifiability.masked.tensors",
    "identifiability.cp_decomposition": "identifiability.masked.cp",
    "identifiability.recovery": "identifiability.masked.recovery",
    "identifiability.kruskal": "identifiability.masked.kruskal",
    "identifiability.counterexamples": "identifiability.masked.counterexamples",
    "identifiability.local_identifiability": "identifiability.masked.local",
    "identifiability.processes": "identifiability.contrastive.processes",
    "identifiability.kernels": "identifiability.contrastive.kernels",
    "identifiability.implied_kernel": "identifiability.contrastive.implied_kernel",
    "identifiability.contrastive_fit": "identifiability.contrastive.fit",
    "identifiability.contrastive_logistic": "identifiability.contrastive.logistic",
    "identifiability.kernel_metrics": "identifiability.contrastive.metrics",
    "identifiability.contrastive_bounds": "identifiability.contrastive.bounds",
    "identifiability.ou_mle": "identifiability.contrastive.mle",
}
install_moved_modules(MOVED_MODULES)
