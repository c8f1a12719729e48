"""identifiability.masked (face; index to be written)."""

from __future__ import annotations

from identifiability.masked.assumptions import (
    ASSUMPTIONS,
    DEFAULT_ATOL,
    DEFAULT_RANK_RTOL,
    AssumptionCheck,
    AssumptionError,
    AssumptionReport,
    check_assumptions,
    sinkhorn,
)
from identifiability.masked.counterexamples import (
    THEOREM6_PRINTED,
    HouseholderTwin,
    claim3_pair,
    claim3_rotation_factor,
    householder_twin,
    lemma7_translation,
    pairwise_twin,
    rotation_about_ones,
    rotation_twin,
    theorem6_printed,
    theorem6_regenerated,
)
from identifiability.masked.cp import (
    CPResult,
    als_parafac,
    cp_reconstruct,
    jennrich,
)
from identifiability.masked.hmm import (
    HMM,
    GaussianHMM,
    gaussian_posterior,
)
from identifiability.masked.kruskal import (
    KruskalCondition,
    KruskalRankResult,
    kruskal_condition,
    kruskal_rank,
)
from identifiability.masked.kruskal_screen import (
    level_by_minors,
    level_by_subsets,
)
from identifiability.masked.local import (
    JacobianDeficiency,
    jacobian_deficiency,
)
from identifiability.masked.recovery import (
    Matching,
    RecoveredModel,
    match_permutation,
    recover_ghmm,
    recover_hmm,
)
from identifiability.masked.tasks import (
    Predictor,
    Task,
    optimal_predictor,
    predict_raw,
)
from identifiability.masked.tensors import (
    MaskedTensor,
    hmm_tensor_factors,
    masked_prediction_tensor,
    tensor_factors,
)

__all__ = [
    "ASSUMPTIONS",
    "DEFAULT_ATOL",
    "DEFAULT_RANK_RTOL",
    "HMM",
    "THEOREM6_PRINTED",
    "AssumptionCheck",
    "AssumptionError",
    "AssumptionReport",
    "CPResult",
    "GaussianHMM",
    "HouseholderTwin",
    "JacobianDeficiency",
    "KruskalCondition",
    "KruskalRankResult",
    "MaskedTensor",
    "Matching",
    "Predictor",
    "RecoveredModel",
    "Task",
    "als_parafac",
    "check_assumptions",
    "claim3_pair",
    "claim3_rotation_factor",
    "cp_reconstruct",
    "gaussian_posterior",
    "hmm_tensor_factors",
    "householder_twin",
    "jacobian_deficiency",
    "jennrich",
    "kruskal_condition",
    "kruskal_rank",
    "lemma7_translation",
    "level_by_minors",
    "level_by_subsets",
    "masked_prediction_tensor",
    "match_permutation",
    "optimal_predictor",
    "pairwise_twin",
    "predict_raw",
    "recover_ghmm",
    "recover_hmm",
    "rotation_about_ones",
    "rotation_twin",
    "sinkhorn",
    "tensor_factors",
    "theorem6_printed",
    "theorem6_regenerated",
]
