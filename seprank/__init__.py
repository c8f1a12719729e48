"""seprank: what linearized self-attention can represent -- certified separation ranks and the
bounds of the papers around them.

The floors, bottom up (each imports only the ones below it):

==========================  ===================================================================
:mod:`seprank.core`         paper-free certified arithmetic: domains (float / GF(p) / exact),
                            ranks that say what they certify, grid tensors, ε-ranks, seeds and
                            primes, the result base class
:mod:`seprank.separation`   certified separation ranks of any batch function (grid growth,
                            symbolic coefficient matrices)
:mod:`seprank.attention`    the linearized self-attention network both papers analyse
:mod:`seprank.d2w`          003, Levine et al. 2020, "The Depth-to-Width Interplay in
                            Self-Attention" (claims ``D2W-*``)
:mod:`seprank.incontext`    000/001, Levine et al. 2022, "The Inductive Bias of In-Context
                            Learning" (claims ``ICB-*``)
:mod:`seprank.automata`     004 Chapter 3, B. Liu's thesis: Transformers and automata --
                            semigroups, shortcut constructions, flip-flops, Dyck (``AUT-*``)
==========================  ===================================================================

Each paper subpackage's ``__init__`` is its index: the paper, its notation and a statement ->
function table.  The names below are re-exported for convenience.
"""

from __future__ import annotations

from seprank import automata, core, d2w, incontext, separation
from seprank.attention import LinearAttention
from seprank.core.domains import ExactDomain, FloatDomain, ModularDomain, domain_for
from seprank.core.eps_rank import EpsRankResult, eps_rank
from seprank.core.grid import (
    GridTooLargeError,
    grid_tensor,
    matricize,
)
from seprank.core.memory import MemoryBudgetError, get_memory_limit, memory_limit, set_memory_limit
from seprank.core.random import random_prime
from seprank.core.rank import RankResult, matrix_rank, rank_mod_p
from seprank.d2w.bounds import Bound, mixing_units, multiset_coefficient, regime
from seprank.d2w.scaling import fit_transition_widths, optimal_depth, transition_size
from seprank.d2w.witness import WitnessResult, lemma6_witness
from seprank.incontext.bounds import bidegree_bound, sequential_ceiling
from seprank.incontext.gradient import LanguageModel, UnboundedGradientError
from seprank.incontext.pretraining import (
    ExamplePacking,
    contiguous_examples,
    in_context_coverage,
    knn_examples,
)
from seprank.incontext.representation import InContextRepresentation
from seprank.incontext.seq_sep import GridSpectrum, SeqSepResult, grid_spectrum, incontext_seq_sep
from seprank.incontext.sequential import (
    GradientRegime,
    SequentialRepresentation,
    gradient_regime,
    sequential_seq_sep,
)
from seprank.separation import SeparationRankResult, separation_rank

__all__ = [
    "Bound",
    "EpsRankResult",
    "ExactDomain",
    "ExamplePacking",
    "FloatDomain",
    "GradientRegime",
    "GridSpectrum",
    "GridTooLargeError",
    "InContextRepresentation",
    "LanguageModel",
    "LinearAttention",
    "MemoryBudgetError",
    "ModularDomain",
    "RankResult",
    "SeparationRankResult",
    "SeqSepResult",
    "SequentialRepresentation",
    "UnboundedGradientError",
    "WitnessResult",
    "automata",
    "bidegree_bound",
    "contiguous_examples",
    "core",
    "d2w",
    "domain_for",
    "eps_rank",
    "fit_transition_widths",
    "get_memory_limit",
    "gradient_regime",
    "grid_spectrum",
    "grid_tensor",
    "in_context_coverage",
    "incontext",
    "incontext_seq_sep",
    "knn_examples",
    "lemma6_witness",
    "matricize",
    "matrix_rank",
    "memory_limit",
    "mixing_units",
    "multiset_coefficient",
    "optimal_depth",
    "random_prime",
    "rank_mod_p",
    "regime",
    "separation",
    "separation_rank",
    "sequential_ceiling",
    "sequential_seq_sep",
    "set_memory_limit",
    "transition_size",
]
