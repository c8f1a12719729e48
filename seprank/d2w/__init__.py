r"""003 -- the depth-to-width interplay in self-attention (claims ``D2W-*``).

What the linearized self-attention network of 003 can represent as a function of its depth L
and width :math:`d_x`: every bound on the separation rank of its output (Theorems 1-6), the
lemmas and corollaries behind them, Lemma 6's lower-bound witness built and certified, the
Hadamard-power rank argument of App. B.2, and the empirical depth-to-width law of §5 with the
paper's tables.

Convention: a network is given as ``(width, depth, heads)`` -- :math:`(d_x, L, H)` -- in that
order, everywhere; the bounds take them as keywords only (``theorem3_upper(width=2,
depth=2)``: a positional call raises a ``TypeError`` naming the keywords).  Bounds are
:class:`~seprank.d2w.bounds.Bound` objects (60-digit base-3 logarithms, exact values when
small); calls outside a statement's hypotheses are evaluated and flagged in ``violated``
(or refused with ``strict=True``), constructions refuse.

"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seprank.core.index import PaperIndex, reexport
from seprank.d2w.bounds import *
from seprank.d2w.corollaries import *
from seprank.d2w.hadamard import *
from seprank.d2w.lemma6_construction import *
from seprank.d2w.lemmas import *
from seprank.d2w.scaling import *
from seprank.d2w.theorems import *
from seprank.d2w.witness import *

INDEX = PaperIndex(
    key="003",
    claims="D2W",
    citation=("Y. Levine, N. Wies, O. Sharir, H. Bata, A. Shashua, \"The Depth-to-Width "
              "Interplay in Self-Attention\", NeurIPS 2020"),
    notes="docs/notes/seed_depth_to_width.md",
    notation=(
        (r"d_x", "width"),
        (r"L", "depth"),
        (r"H", "heads"),
        (r"d_a = d_x / H", "head dimension"),
        (r"N", "n_inputs (input positions)"),
        (r"C(L) = \frac{3^L - 1}{2}", "mixing_units(depth)"),
        (r"\left(\!\!\binom{n}{k}\!\!\right) = \binom{n+k-1}{k}", "multiset_coefficient(n, k)"),
        (r"L < \log_3 d_x \text{ or } L > \log_3 d_x", "regime(width, depth)"),
        (r"y_p^{i,L,d_x,H,\Theta}", "LinearAttention(...).entry(position=i, coordinate=p)"),
        (r"(VV^\top)^{\odot \lambda} \text{ (Hadamard power)}", "hadamard_power_gram(V, power)"),
        (r"\mathrm{sep}(y; A, B)", "seprank.separation_rank(..., partition=(A, B))"),
        (r"d = (d_x - H)/2,\ \lambda = 3^{L-2}", "Lemma 6's d and lambda (witness details)"),
        (r"V \in \mathbb{R}^{R \times d},\ R = \left(\!\!\binom{d}{\lambda}\!\!\right)",
         "V= of lemma6_witness"),
    ),
    statements=(
        ("Theorem 1 (eq. 7), lower bound", theorem1_lower),
        ("Theorem 1 (eq. 7), upper bound", theorem1_upper),
        ("Theorem 2 (eq. 8), lower bound", theorem2_lower),
        ("Theorem 2 (eq. 8), upper bound", theorem2_upper),
        ("Theorem 3 (App. A.2, eqs. 17-18)", theorem3_upper),
        ("Theorem 4 (App. A.3, eq. 19)", theorem4_upper),
        ("Theorem 5 (App. A.4), residual network", theorem5_residual_upper),
        ("Theorem 6 (App. A.4), residual network", theorem6_residual_upper),
        ("Proposition 1 (eq. 6) / Claim 3", proposition1),
        ("Lemma 2 (App. A.4)", lemma2_layer_upper),
        ("Lemma 3 (App. A.5)", lemma3_multiset_product),
        ("Lemma 4 (App. A.5)", lemma4_multiset_upper),
        ("Lemma 6 (App. B.3), the count", lemma6_lower_bound),
        ("Lemma 6 (App. B.3), the witness", lemma6_witness),
        ("Lemma 6, the weights", lemma6_weights),
        ("Lemma 6, the constant c", witness_constant),
        ("Lemma 7 (Levine et al. 2018a)", lemma7_determinant),
        ("Lemma 8 (App. B.3)", lemma8_rearrangement),
        ("App. B.2, rank of (VV^T)^{odot lambda}", hadamard_power_rank),
        ("App. B.2, Amini et al. bound", hadamard_power_rank_bound),
        ("App. B.2, closing inequalities", multiset_lower_bounds),
        ("Corollary 1 (§4.1)", corollary1_min_widening),
        ("Corollary 2 (eq. 9)", corollary2_shallow),
        ("eq. 10, optimal depth", optimal_depth),
        ("eq. 11 / App. D.1, the fit", fit_transition_widths),
        ("Table 1", table1),
        ("Figures 3-4", plot_figure3),
    ),
)
__doc__ = (__doc__ or "") + INDEX.render()

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, [
        "bounds",
        "corollaries",
        "hadamard",
        "lemma6_construction",
        "lemmas",
        "scaling",
        "theorems",
        "witness",
    ], extra=["INDEX"])
