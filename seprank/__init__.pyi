"""Type stub of :mod:`seprank`: the names its face loads on demand (``lazy_loader``)."""

from . import automata as automata
from . import certificates as certificates
from . import circuits as circuits
from . import core as core
from . import d2w as d2w
from . import incontext as incontext
from . import separation as separation
from . import sweeps as sweeps
from .attention import (
    LinearAttention as LinearAttention,
)
from .core.domains import (
    ExactDomain as ExactDomain,
)
from .core.domains import (
    FloatDomain as FloatDomain,
)
from .core.domains import (
    ModularDomain as ModularDomain,
)
from .core.domains import (
    domain_for as domain_for,
)
from .core.domains import (
    matrix_rank as matrix_rank,
)
from .core.eps_rank import (
    EpsRankResult as EpsRankResult,
)
from .core.eps_rank import (
    eps_rank as eps_rank,
)
from .core.errors import (
    DegreeStructureError as DegreeStructureError,
)
from .core.errors import (
    GridTooLargeError as GridTooLargeError,
)
from .core.errors import (
    MemoryBudgetError as MemoryBudgetError,
)
from .core.errors import (
    OutsideHypothesesError as OutsideHypothesesError,
)
from .core.errors import (
    SemigroupTooLargeError as SemigroupTooLargeError,
)
from .core.errors import (
    UnboundedGradientError as UnboundedGradientError,
)
from .core.grid import (
    grid_tensor as grid_tensor,
)
from .core.grid import (
    matricize as matricize,
)
from .core.memory import (
    get_memory_limit as get_memory_limit,
)
from .core.memory import (
    memory_limit as memory_limit,
)
from .core.memory import (
    set_memory_limit as set_memory_limit,
)
from .core.progress import (
    set_progress as set_progress,
)
from .core.random import (
    random_prime as random_prime,
)
from .core.rank import (
    RankResult as RankResult,
)
from .core.rank import (
    rank_mod_p as rank_mod_p,
)
from .d2w.bounds import (
    Bound as Bound,
)
from .d2w.bounds import (
    mixing_units as mixing_units,
)
from .d2w.bounds import (
    multiset_coefficient as multiset_coefficient,
)
from .d2w.bounds import (
    regime as regime,
)
from .d2w.scaling import (
    fit_transition_widths as fit_transition_widths,
)
from .d2w.scaling import (
    optimal_depth as optimal_depth,
)
from .d2w.scaling import (
    transition_size as transition_size,
)
from .d2w.witness import (
    WitnessResult as WitnessResult,
)
from .d2w.witness import (
    lemma6_witness as lemma6_witness,
)
from .incontext.bounds import (
    bidegree_bound as bidegree_bound,
)
from .incontext.bounds import (
    sequential_ceiling as sequential_ceiling,
)
from .incontext.gradient import (
    LanguageModel as LanguageModel,
)
from .incontext.pretraining import (
    ExamplePacking as ExamplePacking,
)
from .incontext.pretraining import (
    contiguous_examples as contiguous_examples,
)
from .incontext.pretraining import (
    in_context_coverage as in_context_coverage,
)
from .incontext.pretraining import (
    knn_examples as knn_examples,
)
from .incontext.representation import (
    InContextRepresentation as InContextRepresentation,
)
from .incontext.seq_sep import (
    GridSpectrum as GridSpectrum,
)
from .incontext.seq_sep import (
    SeqSepResult as SeqSepResult,
)
from .incontext.seq_sep import (
    grid_spectrum as grid_spectrum,
)
from .incontext.seq_sep import (
    incontext_seq_sep as incontext_seq_sep,
)
from .incontext.sequential import (
    GradientRegime as GradientRegime,
)
from .incontext.sequential import (
    SequentialRepresentation as SequentialRepresentation,
)
from .incontext.sequential import (
    gradient_regime as gradient_regime,
)
from .incontext.sequential import (
    sequential_seq_sep as sequential_seq_sep,
)
from .separation import (
    Budget as Budget,
)
from .separation import (
    SeparationRankResult as SeparationRankResult,
)
from .separation import (
    separation_rank as separation_rank,
)
