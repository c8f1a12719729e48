r"""004 §2.1 -- contrastive learning of transition kernels (claims ``CL-*``).

B. Liu's thesis, §2.1: a classifier trained to tell true transitions :math:`(z, z')` of a
Markov process (observed every η) from contrast pairs :math:`(z, z' \sim q)` implies a
transition kernel (eq. 2.12), with error bounds (Theorems 2-3).  Implemented: the processes
(Langevin, Ornstein-Uhlenbeck, finite chains) with exact kernels, the contrastive task of
§2.1.1.2 (and our sliding-pair variant), Lemma 1's Bayes classifier, eq. 2.12, the Gaussian and
quadratic-logistic estimators, the error metrics, both theorems' inequality chains evaluated
exactly, and the MLE baselines.

"""

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
from seprank.core.index import PaperIndex

INDEX = PaperIndex(
    key="004 §2.1",
    claims="CL",
    citation="B. Liu, PhD thesis, chapter 2.1: contrastive estimation of transition kernels",
    notes="docs/notes/seed_thesis_ch2.md",
    notation=(
        ("eta (observation lag)", "eta"),
        ("T (time horizon)", "horizon"),
        ("p_*(z' | z) (true kernel)", "process.kernel(eta)"),
        ("q (contrast distribution)", "contrast (a ConditionalDensity)"),
        ("pi (stationary law)", "process.stationary"),
        ("h = p / (p + q) (classifier)", "bayes_classifier / ContrastiveFit"),
        ("p^eta = h q / (1 - h) (eq. 2.12)", "kernel_from_classifier"),
        ("B = E_pi ||x|| (eq. 2.2)", "expected_norm_bounds"),
        ("r(delta) (eq. 2.23)", "r_function"),
    ),
    statements=(
        ("eq. 2.1, Langevin diffusion", "LangevinDiffusion"),
        ("eq. 2.1, Ornstein-Uhlenbeck case", "OrnsteinUhlenbeck"),
        ("eq. 2.2, E_pi ||x||", "expected_norm_bounds"),
        ("§2.1.1.2, the task (2.3)-(2.5)", "make_contrastive_task"),
        ("§2.1.1.2, task from a simulated process", "contrastive_task_from_process"),
        ("Lemma 1, Bayes classifier", "bayes_classifier"),
        ("eq. 2.12, implied kernel", "kernel_from_classifier"),
        ("loss (2.5), Gaussian-kernel estimator", "fit_gaussian_kernel"),
        ("Lemma 4, beta-mixing of pairs", "pair_sequence_beta"),
        ("Theorem 2 (eq. 2.14)", "theorem2_chain"),
        ("Theorem 3 (eqs. 2.15, 2.30-2.32)", "theorem3_chain"),
        ("Theorem 3, factor E(p_*+q)^4/q^2, Gaussian", "theorem3_factor_gaussian"),
        ("eq. 2.15, expected absolute error", "expected_abs_error"),
        ("MLE baseline (ours)", "fit_ou_mle"),
    ),
)
__doc__ = (__doc__ or "") + INDEX.render()

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
