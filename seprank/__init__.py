"""seprank: certified separation ranks of linearized self-attention, and the bounds around them.

The foundation is a rank engine that says what it certifies (:func:`matrix_rank`,
:func:`rank_mod_p`, :func:`eps_rank`) and vectorized, memory-guarded grid tensors
(:func:`grid_tensor`, :func:`matricize`).  On top of it: the linearized self-attention network
(:class:`LinearAttention`), evaluated by one code path over floats, GF(p) or exact numbers
(:class:`FloatDomain`, :class:`ModularDomain`, :class:`ExactDomain`), and certified separation
ranks of any batch function (:func:`separation_rank`).  Every bound of the depth-to-width
paper (seed 003) is in :mod:`seprank.d2w.bounds` / :mod:`seprank.d2w.lemmas`, its lower-bound
witness in :mod:`seprank.d2w.witness`, and its empirical depth-to-width law in
:mod:`seprank.d2w.scaling`.
The in-context bias of seeds 000/001:
the in-context and sequential representations with their sentence-association functions
(:class:`InContextRepresentation`, :class:`SequentialRepresentation`, exact backprop in
:class:`LanguageModel`), certified sequential separation ranks (:func:`incontext_seq_sep`,
:func:`sequential_seq_sep`), the bounded-gradient regime check (:func:`gradient_regime`), and kNN
pretraining example design (:func:`knn_examples`, :func:`in_context_coverage`).
"""

from __future__ import annotations

from seprank.attention import LinearAttention
from seprank.core.domains import ExactDomain, FloatDomain, ModularDomain
from seprank.core.eps_rank import EpsRankResult, eps_rank
from seprank.core.grid import (
    GridTooLargeError,
    get_grid_memory_limit,
    grid_tensor,
    matricize,
    set_grid_memory_limit,
)
from seprank.core.random import random_prime
from seprank.core.rank import RankResult, matrix_rank, rank_mod_p
from seprank.d2w import bounds, scaling, witness
from seprank.d2w import lemmas as bounds_lemmas
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
    "ModularDomain",
    "RankResult",
    "SeparationRankResult",
    "SeqSepResult",
    "SequentialRepresentation",
    "UnboundedGradientError",
    "WitnessResult",
    "bidegree_bound",
    "bounds",
    "bounds_lemmas",
    "contiguous_examples",
    "eps_rank",
    "fit_transition_widths",
    "get_grid_memory_limit",
    "gradient_regime",
    "grid_spectrum",
    "grid_tensor",
    "in_context_coverage",
    "incontext_seq_sep",
    "knn_examples",
    "lemma6_witness",
    "matricize",
    "matrix_rank",
    "mixing_units",
    "multiset_coefficient",
    "optimal_depth",
    "random_prime",
    "rank_mod_p",
    "regime",
    "scaling",
    "separation_rank",
    "sequential_ceiling",
    "sequential_seq_sep",
    "set_grid_memory_limit",
    "transition_size",
    "witness",
]
