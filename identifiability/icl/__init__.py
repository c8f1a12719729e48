r"""002 -- in-context learning of a nonlinear Transformer, and magnitude pruning (claims ``ICL-*``).

Li, Wang, Lu, Cui, Chen (ICML 2024) train a one-layer, single-head softmax-attention
Transformer with a ReLU MLP (eq. 2) by SGD on the hinge loss, on binary tasks decided by two
of :math:`M_1` relevant patterns, and prove in-domain generalization to unseen tasks
(Theorem 3.3), out-of-domain generalization to linear combinations of the patterns
(Theorem 3.4), that attention concentrates on same-pattern contexts (Proposition 4.1,
Corollary 4.3), that large MLP neurons align with the mean pattern and the label embedding
(Proposition 4.5), and that pruning small neurons is harmless while pruning large ones costs
:math:`\Omega(R)` (Theorem 3.7).  Implemented: the data and tasks (Definition 3.1,
Condition 3.2, Lemma B.11, eq. 12), prompts (eq. 1), the model with its written-out gradient,
online SGD (Algorithm 1), pruning, the mechanism measurements and the Figure 4 baselines --
all in numpy (see :mod:`identifiability.icl.model` for why no deep-learning framework).

"""

from __future__ import annotations

from typing import TYPE_CHECKING

from identifiability.icl.baselines import *
from identifiability.icl.data import *
from identifiability.icl.mechanism import *
from identifiability.icl.model import *
from identifiability.icl.prompts import *
from identifiability.icl.pruning import *
from identifiability.icl.tasks import *
from identifiability.icl.training import *
from seprank.core.index import PaperIndex, reexport

INDEX = PaperIndex(
    key="002",
    claims="ICL",
    citation="H. Li, M. Wang, S. Lu, X. Cui, P.-Y. Chen, How Do Nonlinear Transformers Learn "
    "and Generalize in In-Context Learning? (ICML 2024)",
    notes="docs/notes/seed_icl_nonlinear.md",
    notation=(
        (r"M_1, M_2 \text{ (IDR / IDI patterns)}, \beta",
         "in_domain_patterns(M1, M2, beta).relevant/..."),
        (r"\mu_j, \nu_k; \mu'_j, \nu'_k", "Patterns.relevant / .irrelevant (rows)"),
        (r"q = \mathrm{Embd}(+1)", "Patterns.q (e_1, ||q|| = 1)"),
        (r"K, K' \text{ (irrelevant ranges)}", "noise="),
        (r"\alpha, \alpha'", "alpha= (training / testing context fraction)"),
        (r"l_{tr}, l_{ts}", "TrainingConfig.length / length="),
        (r"f_{a,b} \text{ (Definition 3.1)}", "task (a, b), 0-based"),
        (r"P \text{ (eq. 1)}, z", "PromptBatch.P (n, D, l+1), PromptBatch.z"),
        (r"W_Q, W_K, W_V, W_O, a", "ICLParams.WQ, .WK, .WV, .WO, .a"),
        (r"\delta,\ \xi = 1/\sqrt{m}", "initialize(delta=...), W_O ~ N(0, 1/m)"),
        (r"\eta, B, T", "TrainingConfig.step_size, .batch_size, .n_steps"),
        (r"r_i = (W_O W_V)_i", "ICLParams.neuron_magnitudes(), neuron_alignment"),
        (r"S \text{ (pruned neurons)}, R", "prune_mask, pruning_curve(rates=...)"),
        (r"N \text{ (same-pattern contexts)}", "PromptBatch.same_pattern"),
        (r"S_j = \sum_i k_{j,i} \text{ (eq. 12)}", "theorem34_conditions(...).sums"),
    ),
    statements=(
        ("Definition 3.1, in-domain tasks", all_tasks),
        ("Condition 3.2", condition_32),
        ("Lemma B.11, |T_tr| >= M1 (brute force)", condition_32_subset_counts),
        ("Lemma B.11 / §3.3, cyclic construction", cyclic_tasks),
        ("§5, training tasks (U shifts)", shift_tasks),
        ("§3.2, eq. 6, IDR/IDI patterns", in_domain_patterns),
        ("§5, ODR patterns", ood_patterns),
        ("Theorem 3.4, eq. 12", theorem34_conditions),
        ("eq. 1 and §3.2, prompts", sample_prompts),
        ("eq. 63, Chernoff bound", chernoff_bound),
        ("Remark 3.5, context length", min_context_length),
        ("eq. 2, the model", forward),
        ("eq. 3, hinge loss", hinge_loss),
        ("§2.3, initialization", initialize),
        ("Algorithm 1, SGD", train),
        ("eqs. 4-5, generalization", evaluate),
        ("§2.4 / Theorem 3.7, pruning", pruning_curve),
        ("Corollary 4.3", attention_concentration),
        ("Proposition 4.1", attention_projections),
        ("Proposition 4.5", neuron_alignment),
        ("Lemmas B.5-B.7, update support", update_spectrum),
        ("Figure 4, baselines", baseline_error),
    ),
)
__doc__ = (__doc__ or "") + INDEX.render()

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, [
        "baselines",
        "data",
        "mechanism",
        "model",
        "prompts",
        "pruning",
        "tasks",
        "training",
    ], extra=["INDEX"])
