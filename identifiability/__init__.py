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
are re-exported for convenience.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from identifiability import contrastive, distillation, icl, masked, nce
from identifiability.contrastive import *
from identifiability.masked import *
from identifiability.nce import *
from seprank.core import split_seed

# Papers added after 0.2 are reached through their subpackage (identifiability.icl.X,
# identifiability.distillation.X): their names (Task, train, parity, ...) are too generic here.
# Type checkers follow the star imports; __all__ is built at run time.
if not TYPE_CHECKING:
    __all__ = ["contrastive", "distillation", "icl", "masked", "nce", "split_seed",
               *contrastive.__all__, *masked.__all__, *nce.__all__]

