r"""004 §4.2 -- progressive distillation and sparse parity (claims ``PD-*``).

B. Liu's thesis, §4.2: distilling a small student from a teacher's *intermediate* checkpoints
(progressive distillation) learns (d, k)-sparse parity with fewer samples than distilling from
the final teacher (one-shot) or learning from labels, through an implicit low-degree curriculum.
Implemented: exact Fourier analysis on the hypercube (Majority's coefficients at every level,
Barak et al.'s gap), the teacher's first stage (Claim 7's population gradient, Lemma 63's step
with its decay, Lemma 64 / Corollary 3's correlations, exact and by Monte Carlo), the
sample-complexity statements as formulas (Lemma 65, Corollary 5, Theorems 22-23, Lemma 66), the
attention constructions of Propositions 9-10 on all inputs, the masking and n-gram windows of
Definitions 24-25, and a toy progressive-distillation experiment (numpy, online SGD).

"""

from __future__ import annotations

from typing import TYPE_CHECKING

from identifiability.distillation.constructions import *
from identifiability.distillation.correlations import *
from identifiability.distillation.experiment import *
from identifiability.distillation.fourier import *
from identifiability.distillation.language import *
from identifiability.distillation.mlp import *
from identifiability.distillation.one_step import *
from identifiability.distillation.rates import *
from seprank.core.index import PaperIndex, reexport

INDEX = PaperIndex(
    key="004 §4.2",
    claims="PD",
    citation="B. Liu, PhD thesis, chapter 4.2: progressive distillation and the implicit "
             "curriculum (sparse parity, PCFGs)",
    notes="docs/notes/seed_thesis_ch3_ch4.md",
    notation=(
        (r"d, k, S \text{ (}|S| = k\text{)}",
         "d, k, support (0-based; S = [k] -> (0, ..., k-1))"),
        (r"x \in \{\pm1\}^d, \chi_S(x)", "hypercube(d), parity(x, support)"),
        (r"\zeta_i \text{ (the } i\text{-th Fourier coefficient of Maj)}",
         "majority_coefficient(d, i)"),
        (r"m, w_i, b_i, a_i \text{ (symmetric initialisation)}",
         "SymmetricInit.draw(d, k, m, seed=)"),
        (r"\eta_1, \lambda_1, B_1, \tau_g", "first_stage_step(eta=, decay=, batch_size=).tau_g"),
        (r"f_{\mathcal{T}}^{(1)} \text{ (teacher after stage 1)}",
         "OneStep.w1, network_output(step, x)"),
        (r"c_j = \mathbb{E}\, f_{\mathcal{T}}^{(1)}(x)\, x_j",
         "exact_degree_one(step), monte_carlo_correlations(...)"),
        (r"\tau \text{ (temperature)}", "Segment(tau=), DistillationConfig.progressive_tau"),
        (r"(2, T)\text{-progressive distillation}", "DistillationConfig(switch_step=T)"),
        (r"n\text{-gram}(i), \mathcal{M} \text{ (masked set)}",
         "ngram_context(i, n, h), mask_sequence(...).masked"),
    ),
    statements=(
        ("§4.2.6 Notations, zeta_i (Krawtchouk sums)", majority_coefficient),
        ("§4.2.6 Notations, every level", majority_spectrum),
        ("§4.2.6 Notations, the rate of zeta_i", majority_rate_table),
        ("Claim 7, the gap (Barak et al. Lemma 2)", barak_gap),
        ("Claim 7, population gradient", claim7_gradient),
        ("Claim 7, by enumeration", enumerate_activation_correlations),
        ("Algorithm 2 / Lemma 63, one big-batch step", first_stage_step),
        ("Lemma 63, the printed targets", lemma63_targets),
        ("Lemma 64 (1)-(2), exact c_j", exact_degree_one),
        ("Lemma 64, per-pair correlation", pair_correlation),
        ("Lemma 64 / Corollary 3, Monte Carlo", monte_carlo_correlations),
        ("Corollary 3, proof (l1 norm of Maj)", majority_l1_norm),
        ("Lemma 65 / Corollary 5, B_1", lemma65_first_stage_batch),
        ("Lemma 65, T_2", lemma65_second_stage_steps),
        ("Theorem 22 (informal)", theorem22_progressive),
        ("Theorem 23 (formal), progressive", theorem23_progressive),
        ("Theorem 23, one-shot", theorem23_one_shot),
        ("Lemma 66 (Edelman et al. Prop. 3)", lemma66_step_bound),
        ("Proposition 9", proposition9_network),
        ("Proposition 10", proposition10_network),
        ("Lemma 10 (Chapter 3)", interpolation_mlp_1d),
        ("Lemma 11 (Chapter 3)", interpolation_mlp),
        ("Propositions 9-10 on all 2^d inputs", verify_on_all_inputs),
        ("Definition 24, masking", mask_sequence),
        ("Definition 25, n-gram context", ngram_context),
        ("(4.94)-(4.95), TV distance", total_variation),
        ("§4.2.8.1.1 / §4.2.8.5, steps x batch", samples_for_steps),
        ("§4.2.2.1 (R1)-(R3), toy experiment", run_progressive_distillation),
    ),
)
__doc__ = (__doc__ or "") + INDEX.render()

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, [
        "constructions",
        "correlations",
        "experiment",
        "fourier",
        "language",
        "mlp",
        "one_step",
        "rates",
    ], extra=["INDEX"])
