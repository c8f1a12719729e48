"""identifiability: parameter identifiability of masked prediction (HMM, Gaussian HMM) and
contrastive estimation of transition kernels (seed 004, chapters 2 and 4)."""

from __future__ import annotations

# --- masked prediction (seed 004 §2.2) -------------------------------------------------------
from identifiability.counterexamples import (
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
from identifiability.cp_decomposition import CPResult, als_parafac, cp_reconstruct, jennrich
from identifiability.hmm import (
    HMM,
    AssumptionError,
    AssumptionReport,
    GaussianHMM,
    check_assumptions,
    gaussian_posterior,
    sinkhorn,
)
from identifiability.kruskal import (
    KruskalCondition,
    KruskalRankResult,
    kruskal_condition,
    kruskal_rank,
)
from identifiability.local_identifiability import JacobianDeficiency, jacobian_deficiency
from identifiability.masked_tensors import (
    MaskedTensor,
    hmm_tensor_factors,
    masked_prediction_tensor,
    tensor_factors,
)
from identifiability.recovery import (
    Matching,
    RecoveredModel,
    match_permutation,
    recover_ghmm,
    recover_hmm,
)
from identifiability.tasks import Predictor, Task, optimal_predictor, predict_raw

# --- contrastive kernels and NCE (seed 004 §2.1, §4.1) ---------------------------------------

__all__: list[str] = [
    "HMM",
    "THEOREM6_PRINTED",
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
