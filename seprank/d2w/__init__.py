r"""003 -- the depth-to-width interplay in self-attention (claims ``D2W-*``).

What the linearized self-attention network of 003 can represent as a function of its depth L
and width :math:`d_x`: every bound on the separation rank of its output (Theorems 1-6), the
lemmas and corollaries behind them, Lemma 6's lower-bound witness built and certified, the
Hadamard-power rank argument of App. B.2, and the empirical depth-to-width law of §5 with the
paper's tables.

Convention: a network is given as ``(width, depth, heads)`` -- :math:`(d_x, L, H)` -- in that
order, everywhere.  Bounds are :class:`~seprank.d2w.bounds.Bound` objects (60-digit base-3
logarithms, exact values when small); calls outside a statement's hypotheses are evaluated and
flagged in ``violated`` (or refused with ``strict=True``), constructions refuse.

"""

from __future__ import annotations

from seprank.core.index import PaperIndex
from seprank.d2w.bounds import (
    Bound,
    OutsideHypothesesError,
    Regime,
    mixing_units,
    multiset_coefficient,
    regime,
)
from seprank.d2w.corollaries import (
    Corollary1Result,
    Corollary2Result,
    corollary1_min_widening,
    corollary2_shallow,
)
from seprank.d2w.hadamard import (
    HadamardRankResult,
    Lemma7Result,
    compositions,
    hadamard_power_gram,
    hadamard_power_rank,
    lemma7_determinant,
    paper_witness_V,
    rational_sphere_V,
)
from seprank.d2w.lemma6_construction import (
    LastLayer,
    WitnessWeights,
    lemma6_templates,
    lemma6_weights,
    validate_witness_shape,
    witness_constant,
)
from seprank.d2w.lemmas import (
    Inequality,
    Proposition1Result,
    balanced_partitions,
    hadamard_power_rank_bound,
    lemma2_layer_upper,
    lemma2_summed_terms,
    lemma3_equality_case,
    lemma3_multiset_product,
    lemma4_multiset_upper,
    lemma8_rearrangement,
    multiset_lower_bounds,
    proposition1,
)
from seprank.d2w.scaling import (
    FitResult,
    OptimalArchitecture,
    Table1Row,
    TransitionPoint,
    fit_transition_widths,
    load_table1,
    load_table2,
    load_table4,
    optimal_depth,
    plot_figure3,
    plot_figure4,
    table1,
    transition_size,
)
from seprank.d2w.theorems import (
    lemma6_lower_bound,
    theorem1_lower,
    theorem1_upper,
    theorem2_lower,
    theorem2_upper,
    theorem3_upper,
    theorem4_upper,
    theorem5_residual_upper,
    theorem6_residual_upper,
)
from seprank.d2w.witness import (
    WitnessResult,
    lemma6_witness,
)

INDEX = PaperIndex(
    key="003",
    claims="D2W",
    citation=("Y. Levine, N. Wies, O. Sharir, H. Bata, A. Shashua, \"The Depth-to-Width "
              "Interplay in Self-Attention\", NeurIPS 2020"),
    notes="docs/notes/seed_depth_to_width.md",
    notation=(
        ("d_x", "width"),
        ("L", "depth"),
        ("H", "heads"),
        ("d_a = d_x / H", "head dimension"),
        ("N", "n_inputs (input positions)"),
        ("C(L) = (3^L - 1)/2", "mixing_units(depth)"),
        ("((n k)) = binom(n+k-1, k)", "multiset_coefficient(n, k)"),
        ("L < log3 d_x / L > log3 d_x", "regime(width, depth)"),
        ("y_p^{i,L,d_x,H,Theta}", "LinearAttention(...).entry(position=i, coordinate=p)"),
        ("(VV^T)^{odot power} (Hadamard power)", "hadamard_power_gram(V, power)"),
        ("sep_(A,B)(y)", "seprank.separation_rank(..., partition=(A, B))"),
        ("d = (d_x - H)/2, lambda = 3^{L-2}", "Lemma 6's d and lambda (witness details)"),
        ("V (R x d), R = ((d lambda))", "V= of lemma6_witness"),
    ),
    statements=(
        ("Theorem 1 (eq. 7), lower bound", "theorem1_lower"),
        ("Theorem 1 (eq. 7), upper bound", "theorem1_upper"),
        ("Theorem 2 (eq. 8), lower bound", "theorem2_lower"),
        ("Theorem 2 (eq. 8), upper bound", "theorem2_upper"),
        ("Theorem 3 (App. A.2, eqs. 17-18)", "theorem3_upper"),
        ("Theorem 4 (App. A.3, eq. 19)", "theorem4_upper"),
        ("Theorem 5 (App. A.4), residual network", "theorem5_residual_upper"),
        ("Theorem 6 (App. A.4), residual network", "theorem6_residual_upper"),
        ("Proposition 1 (eq. 6) / Claim 3", "proposition1"),
        ("Lemma 2 (App. A.4)", "lemma2_layer_upper"),
        ("Lemma 3 (App. A.5)", "lemma3_multiset_product"),
        ("Lemma 4 (App. A.5)", "lemma4_multiset_upper"),
        ("Lemma 6 (App. B.3), the count", "lemma6_lower_bound"),
        ("Lemma 6 (App. B.3), the witness", "lemma6_witness"),
        ("Lemma 6, the weights", "lemma6_weights"),
        ("Lemma 6, the constant c", "witness_constant"),
        ("Lemma 7 (Levine et al. 2018a)", "lemma7_determinant"),
        ("Lemma 8 (App. B.3)", "lemma8_rearrangement"),
        ("App. B.2, rank of (VV^T)^{odot lambda}", "hadamard_power_rank"),
        ("App. B.2, Amini et al. bound", "hadamard_power_rank_bound"),
        ("App. B.2, closing inequalities", "multiset_lower_bounds"),
        ("Corollary 1 (§4.1)", "corollary1_min_widening"),
        ("Corollary 2 (eq. 9)", "corollary2_shallow"),
        ("eq. 10, optimal depth", "optimal_depth"),
        ("eq. 11 / App. D.1, the fit", "fit_transition_widths"),
        ("Table 1", "table1"),
        ("Figures 3-4", "plot_figure3"),
    ),
)
__doc__ = (__doc__ or "") + INDEX.render()

__all__ = [
    "Bound",
    "Corollary1Result",
    "Corollary2Result",
    "FitResult",
    "HadamardRankResult",
    "Inequality",
    "LastLayer",
    "Lemma7Result",
    "OptimalArchitecture",
    "OutsideHypothesesError",
    "Proposition1Result",
    "Regime",
    "Table1Row",
    "TransitionPoint",
    "WitnessResult",
    "WitnessWeights",
    "balanced_partitions",
    "compositions",
    "corollary1_min_widening",
    "corollary2_shallow",
    "fit_transition_widths",
    "hadamard_power_gram",
    "hadamard_power_rank",
    "hadamard_power_rank_bound",
    "lemma2_layer_upper",
    "lemma2_summed_terms",
    "lemma3_equality_case",
    "lemma3_multiset_product",
    "lemma4_multiset_upper",
    "lemma6_lower_bound",
    "lemma6_templates",
    "lemma6_weights",
    "lemma6_witness",
    "lemma7_determinant",
    "lemma8_rearrangement",
    "load_table1",
    "load_table2",
    "load_table4",
    "mixing_units",
    "multiset_coefficient",
    "multiset_lower_bounds",
    "optimal_depth",
    "paper_witness_V",
    "plot_figure3",
    "plot_figure4",
    "proposition1",
    "rational_sphere_V",
    "regime",
    "table1",
    "theorem1_lower",
    "theorem1_upper",
    "theorem2_lower",
    "theorem2_upper",
    "theorem3_upper",
    "theorem4_upper",
    "theorem5_residual_upper",
    "theorem6_residual_upper",
    "transition_size",
    "validate_witness_shape",
    "witness_constant",
]
