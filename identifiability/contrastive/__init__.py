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

from typing import TYPE_CHECKING

from identifiability.contrastive.bounds import *
from identifiability.contrastive.fit import *
from identifiability.contrastive.implied_kernel import *
from identifiability.contrastive.kernels import *
from identifiability.contrastive.logistic import *
from identifiability.contrastive.metrics import *
from identifiability.contrastive.mle import *
from identifiability.contrastive.processes import *
from identifiability.contrastive.task import *
from seprank.core.index import PaperIndex, reexport

INDEX = PaperIndex(
    key="004 §2.1",
    claims="CL",
    citation="B. Liu, PhD thesis, chapter 2.1: contrastive estimation of transition kernels",
    notes="docs/notes/seed_thesis_ch2.md",
    notation=(
        (r"\eta \text{ (observation lag)}", "eta"),
        (r"T \text{ (time horizon)}", "horizon"),
        (r"p_*^{\eta}(z, z') \text{ (true transition kernel)}", "process.kernel(eta)"),
        (r"q \text{ (contrast distribution)}", "contrast (a ConditionalDensity)"),
        (r"\pi \text{ (stationary law)}", "process.stationary"),
        (r"h^* = \frac{p_*^{\eta}}{q + p_*^{\eta}} \text{ (classifier, Lemma 1)}",
         "bayes_classifier / ContrastiveFit"),
        (r"p^{\eta} = \frac{hq}{1 - h} \text{ (eq. 2.12)}", "kernel_from_classifier"),
        (r"B = \mathbb{E}_{\pi} \|x\| \text{ (eq. 2.2)}", "expected_norm_bounds"),
        (r"r(\delta) \text{ (eq. 2.23)}", "r_function"),
    ),
    statements=(
        ("eq. 2.1, Langevin diffusion", LangevinDiffusion),
        ("eq. 2.1, Ornstein-Uhlenbeck case", OrnsteinUhlenbeck),
        ("eq. 2.2, E_pi ||x||", expected_norm_bounds),
        ("§2.1.1.2, the task (2.3)-(2.5)", make_contrastive_task),
        ("§2.1.1.2, task from a simulated process", contrastive_task_from_process),
        ("Lemma 1, Bayes classifier", bayes_classifier),
        ("eq. 2.12, implied kernel", kernel_from_classifier),
        ("loss (2.5), Gaussian-kernel estimator", fit_gaussian_kernel),
        ("Lemma 4, beta-mixing of pairs", pair_sequence_beta),
        ("Theorem 2 (eq. 2.14)", theorem2_chain),
        ("Theorem 3 (eqs. 2.15, 2.30-2.32)", theorem3_chain),
        ("Theorem 3, factor E(p_*+q)^4/q^2, Gaussian", theorem3_factor_gaussian),
        ("eq. 2.15, expected absolute error", expected_abs_error),
        ("MLE baseline (ours)", fit_ou_mle),
    ),
)
__doc__ = (__doc__ or "") + INDEX.render()

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, [
        "bounds",
        "fit",
        "implied_kernel",
        "kernels",
        "logistic",
        "metrics",
        "mle",
        "processes",
        "task",
    ], extra=["INDEX"])
