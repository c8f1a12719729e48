"""identifiability: learning and identifying models from data.

Subpackages, one per part of the thesis 004 (B. Liu), each with its own index (the paper's
notation and a statement -> function table in its ``__init__``):

=================================  ===============================================================
:mod:`identifiability.masked`      §2.2: masked prediction for HMMs and Gaussian HMMs -- Kruskal
                                   ranks, exact recovery, non-identifiability counterexamples
                                   (claims ``MP-*``)
:mod:`identifiability.contrastive` §2.1: contrastive learning of transition kernels -- processes,
                                   the task, eq. 2.12, estimators, Theorems 2-3 (claims ``CL-*``)
:mod:`identifiability.nce`         §4.1: the NCE / eNCE landscape for a Gaussian mean
                                   (claims ``NCE-*``)
=================================  ===============================================================

Everything certified (ranks, primes, seeds) comes from :mod:`seprank.core`.  The names below
are re-exported for convenience; module paths from before 0.2 (``identifiability.hmm``,
``identifiability.contrastive_fit``, ...) still import, with a :class:`FutureWarning`.
"""

from __future__ import annotations

from identifiability import contrastive, masked, nce
from identifiability.contrastive.bounds import (
    Theorem2Chain,
    Theorem3Chain,
    expected_norm_bounds,
    pair_sequence_beta,
    r_function,
    r_second_derivative,
    theorem2_chain,
    theorem3_chain,
    theorem3_factor_gaussian,
)
from identifiability.contrastive.fit import (
    ContrastiveFit,
    NotNormalisableError,
    fit_gaussian_kernel,
)
from identifiability.contrastive.kernels import (
    ConditionalDensity,
    GaussianKernel,
    gauss_hermite_rule,
    gaussian_exponential_integral,
    gaussian_tv_1d,
)
from identifiability.contrastive.logistic import fit_quadratic_logistic, quadratic_features
from identifiability.contrastive.metrics import (
    excess_risk,
    expected_abs_error,
    expected_kl,
    population_risk,
    theorem3_factor,
)
from identifiability.contrastive.mle import OUMLEResult, fit_gaussian_ar, fit_ou_mle
from identifiability.contrastive.processes import (
    FiniteStateChain,
    LangevinDiffusion,
    OrnsteinUhlenbeck,
)

# --- contrastive kernels and NCE (seed 004 §2.1, §4.1) ---------------------------------------
from identifiability.contrastive.task import (
    ContrastiveTask,
    ImpliedKernel,
    UniformBoxContrast,
    bayes_classifier,
    contrastive_task_from_process,
    kernel_from_classifier,
    kernel_from_logit,
    make_contrastive_task,
)

# --- masked prediction (seed 004 §2.2) -------------------------------------------------------
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
from identifiability.masked.cp import CPResult, als_parafac, cp_reconstruct, jennrich
from identifiability.masked.hmm import (
    HMM,
    AssumptionError,
    AssumptionReport,
    GaussianHMM,
    check_assumptions,
    gaussian_posterior,
    sinkhorn,
)
from identifiability.masked.kruskal import (
    KruskalCondition,
    KruskalRankResult,
    kruskal_condition,
    kruskal_rank,
)
from identifiability.masked.local import JacobianDeficiency, jacobian_deficiency
from identifiability.masked.recovery import (
    Matching,
    RecoveredModel,
    match_permutation,
    recover_ghmm,
    recover_hmm,
)
from identifiability.masked.tasks import Predictor, Task, optimal_predictor, predict_raw
from identifiability.masked.tensors import (
    MaskedTensor,
    hmm_tensor_factors,
    masked_prediction_tensor,
    tensor_factors,
)
from identifiability.nce import (
    GaussianMeanNCE,
    OptimizationTrace,
    bhattacharyya_coefficient,
    run_gradient_method,
)
from seprank.core import split_seed
from seprank.core.compat import install_moved_modules

__all__: list[str] = [
    "HMM",
    "THEOREM6_PRINTED",
    "AssumptionError",
    "AssumptionReport",
    "CPResult",
    "ConditionalDensity",
    "ContrastiveFit",
    "ContrastiveTask",
    "FiniteStateChain",
    "GaussianHMM",
    "GaussianKernel",
    "GaussianMeanNCE",
    "HouseholderTwin",
    "ImpliedKernel",
    "JacobianDeficiency",
    "KruskalCondition",
    "KruskalRankResult",
    "LangevinDiffusion",
    "MaskedTensor",
    "Matching",
    "NotNormalisableError",
    "OUMLEResult",
    "OptimizationTrace",
    "OrnsteinUhlenbeck",
    "Predictor",
    "RecoveredModel",
    "Task",
    "Theorem2Chain",
    "Theorem3Chain",
    "UniformBoxContrast",
    "als_parafac",
    "bayes_classifier",
    "bhattacharyya_coefficient",
    "check_assumptions",
    "claim3_pair",
    "claim3_rotation_factor",
    "contrastive",
    "contrastive_task_from_process",
    "cp_reconstruct",
    "excess_risk",
    "expected_abs_error",
    "expected_kl",
    "expected_norm_bounds",
    "fit_gaussian_ar",
    "fit_gaussian_kernel",
    "fit_ou_mle",
    "fit_quadratic_logistic",
    "gauss_hermite_rule",
    "gaussian_exponential_integral",
    "gaussian_posterior",
    "gaussian_tv_1d",
    "hmm_tensor_factors",
    "householder_twin",
    "jacobian_deficiency",
    "jennrich",
    "kernel_from_classifier",
    "kernel_from_logit",
    "kruskal_condition",
    "kruskal_rank",
    "lemma7_translation",
    "make_contrastive_task",
    "masked",
    "masked_prediction_tensor",
    "match_permutation",
    "nce",
    "optimal_predictor",
    "pair_sequence_beta",
    "pairwise_twin",
    "population_risk",
    "predict_raw",
    "quadratic_features",
    "r_function",
    "r_second_derivative",
    "recover_ghmm",
    "recover_hmm",
    "rotation_about_ones",
    "rotation_twin",
    "run_gradient_method",
    "sinkhorn",
    "split_seed",
    "tensor_factors",
    "theorem2_chain",
    "theorem3_chain",
    "theorem3_factor",
    "theorem3_factor_gaussian",
    "theorem6_printed",
    "theorem6_regenerated",
]

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
