"""identifiability: parameter identifiability of masked prediction (HMM, Gaussian HMM) and
contrastive estimation of transition kernels (seed 004, chapters 2 and 4)."""

from __future__ import annotations

# --- masked prediction (seed 004 §2.2) -------------------------------------------------------
# --- contrastive kernels and NCE (seed 004 §2.1, §4.1) ---------------------------------------
from identifiability.contrastive import (
    ContrastiveTask,
    ImpliedKernel,
    UniformBoxContrast,
    bayes_classifier,
    contrastive_task_from_process,
    kernel_from_classifier,
    kernel_from_logit,
    make_contrastive_task,
)
from identifiability.contrastive_bounds import (
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
from identifiability.contrastive_fit import (
    ContrastiveFit,
    NotNormalisableError,
    fit_gaussian_kernel,
)
from identifiability.contrastive_logistic import fit_quadratic_logistic, quadratic_features
from identifiability.kernel_metrics import (
    excess_risk,
    expected_abs_error,
    expected_kl,
    population_risk,
    theorem3_factor,
)
from identifiability.kernels import (
    ConditionalDensity,
    GaussianKernel,
    gauss_hermite_rule,
    gaussian_exponential_integral,
    gaussian_tv_1d,
    split_seed,
)
from identifiability.nce import (
    GaussianMeanNCE,
    OptimizationTrace,
    bhattacharyya_coefficient,
    run_gradient_method,
)
from identifiability.ou_mle import OUMLEResult, fit_gaussian_ar, fit_ou_mle
from identifiability.processes import FiniteStateChain, LangevinDiffusion, OrnsteinUhlenbeck

__all__: list[str] = [
    "ConditionalDensity",
    "ContrastiveFit",
    "ContrastiveTask",
    "FiniteStateChain",
    "GaussianKernel",
    "GaussianMeanNCE",
    "ImpliedKernel",
    "LangevinDiffusion",
    "NotNormalisableError",
    "OUMLEResult",
    "OptimizationTrace",
    "OrnsteinUhlenbeck",
    "Theorem2Chain",
    "Theorem3Chain",
    "UniformBoxContrast",
    "bayes_classifier",
    "bhattacharyya_coefficient",
    "contrastive_task_from_process",
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
    "gaussian_tv_1d",
    "kernel_from_classifier",
    "kernel_from_logit",
    "make_contrastive_task",
    "pair_sequence_beta",
    "population_risk",
    "quadratic_features",
    "r_function",
    "r_second_derivative",
    "run_gradient_method",
    "split_seed",
    "theorem2_chain",
    "theorem3_chain",
    "theorem3_factor",
    "theorem3_factor_gaussian",
]
