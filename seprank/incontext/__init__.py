r"""000/001 -- the inductive bias of in-context learning (claims ``ICB-*``).

Two sentences :math:`S_1, S_2` seen *in context* (one training example, eq. 4) or
*sequentially* (one SGD step on :math:`S_1`, then :math:`S_2`, eq. 5); the sentence-association
layer (eq. 8) multiplies :math:`S_1`'s embeddings by a and :math:`S_2`'s by b, and
:math:`\operatorname{seq-sep}(y) = \operatorname{sep}_{(a,b)}(Z_y)` (eq. 9) measures how much
the representation can couple them.  Implemented: both representations (batched, over floats,
GF(p) or exactly; the language model with its exact gradient), certified seq-sep with the
bidegree and ceiling bounds we derived, ε-ranks in both papers' conventions, the bounded-gradient
regime check, every closed form and lemma of the appendices, and the kNN pretraining design of
000 §3.  000 is the ICLR 2022 camera-ready, 001 the earlier version; where they differ the
docstrings say which is meant.

"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seprank.core.index import PaperIndex, reexport
from seprank.incontext.bounds import *
from seprank.incontext.gradient import *
from seprank.incontext.lemmas import *
from seprank.incontext.lower import *
from seprank.incontext.modular import *
from seprank.incontext.pretraining import *
from seprank.incontext.representation import *
from seprank.incontext.seq_sep import *
from seprank.incontext.sequential import *
from seprank.incontext.theorems import *

INDEX = PaperIndex(
    key="000/001",
    claims="ICB",
    citation=("Y. Levine, N. Wies, D. Jannai, D. Navon, Y. Hoshen, A. Shashua, \"The Inductive "
              "Bias of In-Context Learning: Rethinking Pretraining Example Design\", ICLR 2022 "
              "(000: camera-ready; 001: earlier version)"),
    notes="docs/notes/seed_incontext_bias.md",
    notation=(
        (r"S_1, S_2", "first, second (token indices of the two sentences)"),
        (r"M^V \in \mathbb{R}^{d_x \times V}", "embedding"),
        (r"\mathbf{a}, \mathbf{b} \text{ (sentence association, eq. 8)}",
         "a_templates, b_templates / a, b"),
        (r"\mathcal{Z}_{y_{\text{in-context}}}(\mathbf{a}, \mathbf{b}) \text{ (eqs. 4, 8)}",
         "InContextRepresentation(...)(a, b)"),
        (r"\mathcal{Z}_{y_{\text{sequential}}}(\mathbf{a}, \mathbf{b}) \text{ (eqs. 5, 8)}",
         "SequentialRepresentation(...)(a, b)"),
        (r"i, p \text{ (output position, coordinate)}", "position, coordinate"),
        (r"\eta \text{ (learning rate)}", "eta"),
        (r"\varepsilon \text{ (tolerance of the } \varepsilon\text{-seq-sep)}",
         "eps; mode='absolute' (000) / 'relative' (001)"),
        (r"\text{seq-sep}(y)", "incontext_seq_sep / sequential_seq_sep"),
        (r"m(k) = \binom{k + d_x - 1}{d_x - 1}", "monomial_count(width, k)"),
        (r"\mathrm{PB}(d_x, L) \text{ (our derivation)}", "bidegree_bound(width, depth)"),
        (r"m(3^L) \text{ (our derivation)}", "sequential_ceiling(width, depth)"),
        (r"\Lambda_{\min}, \Lambda_{\max}", "GradientRegime.min/max_abs_gradient, _parameter"),
    ),
    statements=(
        ("eq. 4, in-context representation", InContextRepresentation),
        ("eq. 5, sequential representation", SequentialRepresentation),
        ("eq. 5, loss and its gradient", lm_loss_and_gradient),
        ("eq. 9, seq-sep of y_in, certified", incontext_seq_sep),
        ("eq. 9, seq-sep of y_seq, certified", sequential_seq_sep),
        ("Proposition 1 (App. A)", positional_sep),
        ("Corollary 1 (eq. 10)", corollary1_bounds),
        ("Theorem 1, the exponent", theorem1_exponent),
        ("Theorem 1, \"shallower by 0.5 log3(1/eta)\"", depth_deficit),
        ("Theorem 1, bounded gradients", gradient_regime),
        ("Theorem 3 (App. B), hypotheses", theorem3_hypotheses),
        ("Theorem 3, explicit bound", theorem3_bound),
        ("Theorem 3, explicit bound (log3 only, any width)", theorem3_log3_bound),
        ("Theorem 2 (App. C.2), epsilon", theorem2_epsilon),
        ("Theorem 2, the construction", hadamard_construction),
        ("Lemma 2 (eq. 16)", lemma2_closed_form),
        ("Lemma 3", lemma3_formula_n),
        ("Lemma 4", lemma4_bounds),
        ("Lemma 5", lemma5_inclusions),
        ("Lemma 6", lemma6_bounds),
        ("Lemma 7", lemma7_bound),
        ("Lemma 8", lemma8_bound),
        ("Lemma 9", lemma9_bound),
        ("Lemma 11", lemma11_count),
        ("Lemma 13, grid epsilon-ranks", grid_spectrum),
        ("Lemma 15", lemma15_exact_bound),
        ("Lemma 16", lemma16_moment),
        ("Lemma 17", lemma17_maximum),
        ("bidegree bound PB (ours)", bidegree_bound),
        ("ceiling m(3^L) (ours)", sequential_ceiling),
        ("§3 / App. D, kNN pretraining", knn_examples),
    ),
)
__doc__ = (__doc__ or "") + INDEX.render()

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, [
        "bounds",
        "gradient",
        "lemmas",
        "lower",
        "modular",
        "pretraining",
        "representation",
        "seq_sep",
        "sequential",
        "theorems",
    ], extra=["INDEX"])
