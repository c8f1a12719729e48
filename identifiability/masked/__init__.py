r"""004 §2.2 -- masked prediction identifies HMMs and Gaussian HMMs (claims ``MP-*``).

B. Liu's thesis, §2.2: which masked-prediction tasks :math:`\otimes_\tau x_\tau \mid x_t`
determine the parameters of a hidden Markov model (discrete emissions O, or Gaussian means M)
from their optimal predictor.  Implemented: the models with their assumptions (A5-A9), the tasks
and closed-form optimal predictors, the 3-tensor of Theorems 7-8 with its CP factors, certified
Kruskal ranks, exact recovery by Jennrich's algorithm, the non-identifiability twins of
Theorems 4-6 and Lemma 7, and first-order (Jacobian) identifiability.  From samples: streamed
empirical moments, a noise-robust Jennrich with jackknife error bars and a status, projection
onto the model class, and hmmlearn's EM started at the moment estimate.

"""

from __future__ import annotations

from typing import TYPE_CHECKING

from identifiability.masked.assumptions import *
from identifiability.masked.counterexamples import *
from identifiability.masked.cp import *
from identifiability.masked.em import *
from identifiability.masked.estimation import *
from identifiability.masked.goodness_of_fit import *
from identifiability.masked.hmm import *
from identifiability.masked.identifiable import *
from identifiability.masked.kruskal import *
from identifiability.masked.kruskal_certificates import *
from identifiability.masked.kruskal_screen import *
from identifiability.masked.local import *
from identifiability.masked.matching import *
from identifiability.masked.moments import *
from identifiability.masked.recovery import *
from identifiability.masked.spectral import *
from identifiability.masked.tasks import *
from identifiability.masked.tensors import *
from seprank.core.index import PaperIndex, reexport

INDEX = PaperIndex(
    key="004 §2.2",
    claims="MP",
    citation="B. Liu, PhD thesis, chapter 2.2: masked prediction and parameter identifiability",
    notes="docs/notes/seed_thesis_ch2.md",
    notation=(
        (r"k \text{ (hidden states)}, d \text{ (observation dimension)}",
         "HMM.random(d, k), GaussianHMM"),
        (r"O \text{ (}d \times k\text{, column-stochastic)}", "HMM(O, T).O"),
        (r"M \text{ (}d \times k\text{, unit columns)}", "GaussianHMM(M, T).M"),
        (r"T \text{ (}k \times k\text{, doubly stochastic)}", "transition matrix T"),
        (r"x_t, x_\tau", "positions of Task, e.g. Task('x2*x3|x1')"),
        (r"f(x) = \mathbb{E}[x_2 \otimes x_3 \mid x_1 = x]", "optimal_predictor(model, task)"),
        (r"\phi(x) \text{ (posterior of } h_1\text{)}", "gaussian_posterior / HMM.posterior"),
        (r"W = \sum_{i \in [k]} A_i \otimes B_i \otimes C_i \text{ (2.36)-(2.41)}",
         "masked_prediction_tensor(...).W / .factors"),
        (r"k_A \text{ (Kruskal rank)}", "kruskal_rank(A).rank"),
    ),
    statements=(
        ("§2.2.1.1, the HMM", HMM),
        ("§2.2.1.1, the G-HMM", GaussianHMM),
        ("Assumptions 5-9", check_assumptions),
        ("(2.35), masked prediction task", Task),
        ("(2.35), optimal predictor", optimal_predictor),
        ("Theorems 4-8: which task identifies which model", identifiable),
        ("Proposition 1 (Kruskal)", kruskal_condition),
        ("Kruskal rank", kruskal_rank),
        ("Kruskal rank, its certificate", kruskal_certificate),
        ("Theorems 4 and 6, rotation twins", rotation_twin),
        ("Theorem 4, pairwise twin", pairwise_twin),
        ("Theorem 6, example (2.47)", theorem6_printed),
        ("Claims 1 and 3", claim3_pair),
        ("Lemma 7 / Theorem 5, Householder twin", householder_twin),
        ("Lemma 7, translation", lemma7_translation),
        ("Theorem 7, the tensor (2.36)-(2.41)", masked_prediction_tensor),
        ("Theorem 7, recovery of (O, T)", recover_hmm),
        ("Theorem 8, recovery of (M, T)", recover_ghmm),
        ("Jennrich's algorithm (after Proposition 1)", jennrich),
        ("§A.4 of the notes, local identifiability", jacobian_deficiency),
        ("Theorem 7 from samples: the empirical tensor", empirical_moments),
        ("Theorem 7 from samples: (O, T) estimated", estimate_hmm),
        ("Theorem 8 from samples: (M, T) estimated", estimate_ghmm),
        ("Jennrich with noise: whitened simultaneous diagonalisation", spectral_factors),
        ("maximum likelihood started at the moment estimate", refine_em),
    ),
)
__doc__ = (__doc__ or "") + INDEX.render()

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, [
        "assumptions",
        "counterexamples",
        "cp",
        "em",
        "estimation",
        "goodness_of_fit",
        "hmm",
        "identifiable",
        "matching",
        "kruskal",
        "kruskal_certificates",
        "kruskal_screen",
        "local",
        "moments",
        "recovery",
        "spectral",
        "tasks",
        "tensors",
    ], extra=["INDEX"])
