"""seprank: certified separation ranks of linearized self-attention, and the bounds around them.

The foundation is a rank engine that says what it certifies (:func:`matrix_rank`,
:func:`rank_mod_p`, :func:`eps_rank`) and vectorized, memory-guarded grid tensors
(:func:`grid_tensor`, :func:`matricize`).  On top of it: the linearized self-attention network
(:class:`LinearAttention`), evaluated by one code path over floats, GF(p) or exact numbers
(:class:`FloatDomain`, :class:`ModularDomain`, :class:`ExactDomain`), and certified separation
ranks of any batch function (:func:`separation_rank`).  Every bound of the depth-to-width
paper (seed 003) is in :mod:`seprank.bounds` / :mod:`seprank.bounds_lemmas`, its lower-bound
witness in :mod:`seprank.witness`, and its empirical depth-to-width law in :mod:`seprank.scaling`.
The in-context bias of seeds 000/001:
the in-context and sequential representations with their sentence-association functions
(:class:`InContextRepresentation`, :class:`SequentialRepresentation`, exact backprop in
:class:`LanguageModel`), certified sequential separation ranks (:func:`incontext_seq_sep`,
:func:`sequential_seq_sep`), the bounded-gradient regime check (:func:`gradient_regime`), and kNN
pretraining example design (:func:`knn_examples`, :func:`in_context_coverage`).
"""

from __future__ import annotations

from seprank import bounds, bounds_lemmas, scaling, witness
from seprank.arithmetic import ExactDomain, FloatDomain, ModularDomain
from seprank.attention import LinearAttention
from seprank.bounds import Bound, mixing_units, multiset_coefficient, regime
from seprank.eps_rank import EpsRankResult, eps_rank
from seprank.grid import (
    GridTooLargeError,
    get_grid_memory_limit,
    grid_tensor,
    matricize,
    set_grid_memory_limit,
)
from seprank.incontext import InContextRepresentation
from seprank.incontext_bounds import bidegree_bound, sequential_ceiling
from seprank.incontext_gradient import LanguageModel, UnboundedGradientError
from seprank.incontext_rank import GridSpectrum, SeqSepResult, grid_spectrum, incontext_seq_sep
from seprank.incontext_sequential import (
    GradientRegime,
    SequentialRepresentation,
    gradient_regime,
    sequential_seq_sep,
)
from seprank.pretraining import (
    ExamplePacking,
    contiguous_examples,
    in_context_coverage,
    knn_examples,
)
from seprank.rank import RankResult, matrix_rank, random_prime, rank_mod_p
from seprank.scaling import fit_transition_widths, optimal_depth, transition_size
from seprank.separation import SeparationRankResult, separation_rank
from seprank.witness import WitnessResult, lemma6_witness

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
