"""identifiability.contrastive (face; index to be written)."""

from __future__ import annotations

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
from identifiability.contrastive.implied_kernel import (
    ZERO_DENSITY_MESSAGE,
    ImpliedKernel,
    bayes_classifier,
    kernel_from_classifier,
    kernel_from_logit,
)
from identifiability.contrastive.kernels import (
    ConditionalDensity,
    GaussianKernel,
    gauss_hermite_rule,
    gaussian_exponential_integral,
    gaussian_tv_1d,
)
from identifiability.contrastive.logistic import (
    fit_quadratic_logistic,
    quadratic_features,
)
from identifiability.contrastive.metrics import (
    excess_risk,
    expected_abs_error,
    expected_kl,
    population_risk,
    theorem3_factor,
)
from identifiability.contrastive.mle import (
    OUMLEResult,
    fit_gaussian_ar,
    fit_ou_mle,
)
from identifiability.contrastive.processes import (
    FiniteStateChain,
    LangevinDiffusion,
    OrnsteinUhlenbeck,
    check_eta,
)
from identifiability.contrastive.task import (
    PAIR_CONSTRUCTIONS,
    ContrastiveTask,
    PairConstruction,
    UniformBoxContrast,
    contrastive_task_from_process,
    make_contrastive_task,
)

__all__ = [
    "PAIR_CONSTRUCTIONS",
    "ZERO_DENSITY_MESSAGE",
    "ConditionalDensity",
    "ContrastiveFit",
    "ContrastiveTask",
    "FiniteStateChain",
    "GaussianKernel",
    "ImpliedKernel",
    "LangevinDiffusion",
    "NotNormalisableError",
    "OUMLEResult",
    "OrnsteinUhlenbeck",
    "PairConstruction",
    "Theorem2Chain",
    "Theorem3Chain",
    "UniformBoxContrast",
    "bayes_classifier",
    "check_eta",
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
    "theorem2_chain",
    "theorem3_chain",
    "theorem3_factor",
    "theorem3_factor_gaussian",
]
