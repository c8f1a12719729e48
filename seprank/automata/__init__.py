r"""004 Chapter 3 -- Transformers and automata (claims ``AUT-*``).

What a Transformer can represent about a finite-state computation: semiautomata and their
transformation semigroups (group and aperiodic parts, solvability), the shortcut constructions
of §3.4 as explicit attention + MLP weights verified on every input up to a stated length
(Theorem 10's parallel prefix, Lemmas 14-16, Algorithm 1 and Theorem 12's gridworld network),
flip-flop languages (Propositions 3-4), Dyck languages and the balance condition (Theorem 1
(Dyck), Corollary 1) -- and, ours, the bridge to the toolkit's core: the separation rank of an
automaton's final state across a cut of the input sequence.

Conventions: states and symbols keep their labels in :class:`Semiautomaton`; arrays use their
indices (``table[a, q]``).  A transformation is a tuple ``f`` with ``f[q]`` the image of ``q``
and a word acts left to right.  Networks take words as symbol-index arrays of shape
``(batch, T)``; rows of an embedding are positions.  Where a printed construction has a slip,
the builder takes ``printed=`` / ``gamma=`` / ``bot_code=`` ... to rebuild the printed version
and measure it; the default is the corrected one.

"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seprank.automata.algebra import *
from seprank.automata.blocks import *
from seprank.automata.bridge import *
from seprank.automata.counters import *
from seprank.automata.dyck_balance import *
from seprank.automata.examples import *
from seprank.automata.finite_groups import *
from seprank.automata.flipflop import *
from seprank.automata.gadgets import *
from seprank.automata.gridworld_network import *
from seprank.automata.group_products import *
from seprank.automata.layers import *
from seprank.automata.permutation_reset import *
from seprank.automata.semiautomaton import *
from seprank.automata.semigroup import *
from seprank.automata.shortcuts import *
from seprank.core.index import PaperIndex, reexport

INDEX = PaperIndex(
    key="004 §3",
    claims="AUT",
    citation=("B. Liu, \"Guiding machine learning design with insights from simple sandboxes\", "
              "PhD thesis, Carnegie Mellon University, 2024, Chapter 3 (Liu et al., "
              "\"Transformers learn shortcuts to automata\", ICLR 2023; \"Exposing attention "
              "glitches with flip-flop language modeling\", NeurIPS 2023; Wen et al., "
              "\"Transformers are uninterpretable with myopic methods: a case study with "
              "bounded Dyck grammars\", NeurIPS 2023)"),
    notes="docs/notes/seed_thesis_ch3_ch4.md",
    notation=(
        (r"\mathcal{A} = (Q, \Sigma, \delta)", "Semiautomaton(states, alphabet, delta)"),
        (r"[\delta(\cdot, \sigma)]_{q', q}", "Semiautomaton.transition_matrix(sigma)"),
        (r"\mathcal{T}(\mathcal{A})", "transformation_semigroup(A) (TransformationSemigroup)"),
        (r"T, q_0", "length T (padded to a power of 2 in Theorem 10), start state q0"),
        (r"(q, L), (q, R), P_1, P_2", "Theorem 10's slots: X[..., :n], X[..., n:2n], X[..., 2n:]"),
        (r"\gamma_t", "position code (Lemma 15: log(2T - t))"),
        (r"S \text{ (gridworld)}", "states 0..S; Grid_n has n = S + 1 states"),
        (r"x_{attn}^{(1)}, j_{\max}^{(s)}", "GridworldNetwork.heads(...)"),
        (r"w, r, i, 0, 1", "FFL token indices 0..4 (FFL_TOKENS)"),
        (r"Dyck_{n,k} \text{ (§3.4.5) / } Dyck_{k,D} \text{ (§3.6)}",
         "dyck(types=k, depth=n or D)"),
        (r"\tau_{t,d}, \mathcal{I}, r(t, d)", "(t, d) tuples, index_set(k, D) in r-order"),
        (r"M = (W_K^{(2)})^\top W_Q^{(2)}", "BalancedConstruction.M"),
        (r"\mathrm{sep}_{(A,B)}(f)", "seprank.separation_rank; cut_separation_rank (ours)"),
    ),
    statements=(
        ("§3.3.1 semiautomata, transition matrices", Semiautomaton),
        ("§3.3.1 transformation semigroup (footnote 35)", transformation_semigroup),
        ("§3.3.1 Examples 1-6", gridworld),
        ("Example 7 (Rubik's cube, factor 12)", rubik_wreath_bound),
        ("§3.3.1 group extensions (Q_8 non-split)", split_extensions),
        ("Definition 8 (solvable), via maximal subgroups", TransformationSemigroup.is_solvable),
        ("§3.7.1 aperiodicity", TransformationSemigroup.is_aperiodic),
        ("Footnote 17 (smallest non-solvable)", footnote17),
        ("§3.5.1.1 flip-flop monoid is the smallest", monoid_census),
        ("Theorem 14 / Theorem 16 (composition length)", composition_length),
        ("Definition 9 (canonical group automaton)", canonical_group_automaton),
        ("Definition 6 (cascade product)", cascade_product),
        ("Proposition 2 (circular embeddings)", proposition2_bound),
        ("Lemma 10 (1-D interpolation MLP)", bump_mlp),
        ("Lemma 11 (multi-dimensional interpolation MLP)", lemma11_mlp),
        ("Lemma 12 (threshold MLP)", lemma12_mlp),
        ("Lemma 13 (softmax approximates hard max)", lemma13_bound),
        ("Lemma 14 (composition gadget)", lemma14_mlp),
        ("Theorem 10 (log-depth parallel prefix)", theorem10_network),
        ("Lemma 15 (modular counter)", modular_counter_network),
        ("Lemma 16 (memory unit)", memory_network),
        ("Definition 9 / sim(G, T) (group simulators)", GroupSimulator),
        ("Lemma 17 (direct product)", direct_product_simulator),
        ("Lemma 18 (semidirect product, 4-stage cascade)", semidirect_simulator),
        ("Lemma 19 (wreath product)", wreath_simulator),
        ("Theorem 16 (solvable groups by a composition series)", solvable_group_simulator),
        ("Lemma 20 (permutation-reset semiautomata)", permutation_reset_simulator),
        ("Algorithm 1 / Lemma 22 (gridworld)", algorithm1),
        ("Theorem 12 (depth-2 gridworld)", theorem12_network),
        ("Lemma 23 (head monotonicity)", GridworldNetwork.lemma23_violations),
        ("§3.5.1.2 FFL(T, p), read counts", sample_ffl),
        ("Proposition 3 (2-layer flip-flop)", proposition3_network),
        ("Proposition 4 (attention dilution)", dilution_bound),
        ("§3.4.5 / footnote 29 (Dyck stack states)", reachable_stacks),
        ("Definition 14 (balance condition)", balance_solution_space),
        ("Theorem 1 (Dyck), sufficiency", balanced_construction),
        ("Corollary 1 (Dyck), uniform attention", uniform_first_layer),
        ("Eq. (3.37) embedding", printed_embedding_collisions),
        ("Footnote 61 (random attention baseline)", random_attention_variation),
        ("Lemma 24 (§3.6.4.2, normalised sums)", lemma24_gap),
        ("Lemma 38 (width-2n interpolation)", lemma38_mlp),
        ("Lemma 39 (orthonormal vectors avoiding given ones)", lemma39_basis),
        ("Lemma 40 (indexing x_y)", lemma40_mlp),
        ("Lemma 41 (decoding a one-hot position)", lemma41_mlp),
        ("Lemma 42 (selecting one of K networks)", lemma42_mlp),
        ("ours: final-state separation rank", cut_separation_rank),
        ("ours: proven cut bounds", cut_rank_bound),
        ("ours: score-kernel separation rank", score_kernel_rank),
    ),
)
__doc__ = (__doc__ or "") + INDEX.render()

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, [
        "algebra",
        "blocks",
        "bridge",
        "counters",
        "dyck_balance",
        "examples",
        "finite_groups",
        "flipflop",
        "gadgets",
        "gridworld_network",
        "group_products",
        "layers",
        "permutation_reset",
        "semiautomaton",
        "semigroup",
        "shortcuts",
    ], extra=["INDEX"])
