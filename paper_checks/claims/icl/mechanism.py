"""Paper 002, the mechanism of the trained model: ICL-* for Corollary 4.3 (attention
concentration), Proposition 4.1 (projections of W_Q, W_K), Proposition 4.5 (neuron alignment),
the support and rank of the updates (Lemmas B.5-B.7) and the magnitude dichotomy of
Theorem 3.7 -- notes PC-07..PC-11.

Corollary 4.3 and Proposition 4.1 (17) are evaluated at their printed bounds with the Theta/Omega
constant 1 (1 - 1/M1; sqrt(log M1)), in domain and out of domain in Figure 2's setting (a = b =
0.64, the printed K' = 5); each perturbed statement moves the statement to a wrong domain (the
IDI patterns in place of the query's IDR/ODR pattern).  Proposition 4.5 is perturbed by the
wrong sign of the label part, Lemmas B.5-B.7 by the IDI directions.  The magnitude dichotomy
(eq. 14) carries no evaluable bound (its small side's subscript was lost in extraction, and no
rate has a constant): it is recorded as an observation of the toolkit's model, and Theorem
3.7's pruning statements are checked in ``pruning``.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
from scipy.special import softmax

from identifiability.icl import (
    attention_concentration,
    attention_projections,
    forward,
    label_feature_basis,
    neuron_alignment,
    update_spectrum,
)
from paper_checks.claims.icl.common import (
    ALPHA_TEST,
    K_PRIME,
    L_TEST,
    M1,
    OOD,
    OOD_TASKS,
    PAPER,
    PARAMETERS,
    PATTERNS,
    TRAINING_TASKS,
    UNSEEN,
    active_seed,
    model_state,
    prompts,
    rounded,
    seeds,
    small_neurons,
    trained,
)
from paper_checks.defence import Attack, Defence
from paper_checks.ledger import judge_reading
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Independent, Margin, claim, judge


def _margin(pairs: list[tuple[float, float]], what: str) -> Margin:
    """Smallest log10(measured / threshold) over (measured, threshold) pairs (>= statements)."""
    return Margin(min(math.log10(max(m, 1e-12) / t) for m, t in pairs), what)


def _domains(seed: int) -> list[tuple[str, Any, Any, float]]:
    """(name, patterns, tasks, noise): in domain on the unseen tasks (K), out of domain with
    Figure 2's patterns a = b = 0.64 and the printed K' = 5."""
    return [("ID", PATTERNS, UNSEEN, PARAMETERS.value("K")), ("OOD", OOD, OOD_TASKS, K_PRIME)]


def _irrelevant_index(P: np.ndarray, patterns: Any) -> np.ndarray:
    """The IDI/ODI pattern of every token (n, l+1), read off the prompts: the irrelevant
    direction with the largest component (the relevant patterns are orthogonal to it)."""
    comp = np.einsum("kd,ndl->nlk", patterns.irrelevant, P[:, :patterns.d_x, :])
    return np.asarray(np.abs(comp).argmax(axis=-1))


@cache
def attention(seed: int, state: str = "trained") -> dict[str, Any]:
    params = trained(seed).params
    out: dict[str, Any] = {}
    for dom, pats, tasks, noise in _domains(seed):
        b = prompts(pats, tasks, 2000, L_TEST, ALPHA_TEST, seed, 7, noise=noise)
        c = attention_concentration(params, b)
        A = np.real(forward(params, b.P).A)
        idx = _irrelevant_index(b.P, pats)
        out[dom] = {"context inputs": c.same,                   # N of Corollary 4.3: [l]
                    "(54)": c.same + c.self_,                   # N of (54): [l+1], query in
                    "IDI": (A * (idx == idx[:, -1:])).sum(axis=1),   # the sets of (55)
                    "query column": c.self_, "batch": b, "patterns": pats}
    return out


def _independent_context_mass(params: Any, P: np.ndarray, relevant: np.ndarray) -> float:
    """Mean attention of the query on the *context* columns whose relevant pattern is the
    query's, one prompt at a time with scipy's softmax (eq. 2, l+1 columns); a column's pattern
    is the relevant pattern with the largest |<pattern, x>| (the irrelevant ones are orthogonal
    to it)."""
    d_x = relevant.shape[1]
    masses = []
    for Pi in P:
        attn = softmax((params.WK @ Pi).T @ (params.WQ @ Pi[:, -1]))
        pattern = np.abs(relevant @ Pi[:d_x, :]).argmax(axis=0)
        same = pattern[:-1] == pattern[-1]
        masses.append(float(attn[:-1][same].sum()))
    return float(np.mean(masses))


COR43_DEFENCE = Defence(
    version="002 has one version among the seeds; Corollary 4.3 is stated once, in §4.1, and "
    "its proof works with the sets (54)-(55) of Appendix B.",
    regime="1 - Theta(M1^-C) for any C > 1 is read with constant 1 at C -> 1, the weakest "
    "member of the family: 1 - 1/M1 = 0.833. A larger constant in Theta would lower the bar, "
    "but 'for any C > 1' forbids a bar below 1 - c/M1 for a fixed c, and the out-of-domain "
    "context mass 0.46 would need c = 3.2 at M1 = 6 (M1' = 3: c = 1.6).",
    convention="Which positions count as N is the whole question: the corollary's text says "
    "'N in [l] ... the set of indices of context inputs' (the query excluded), while (54) "
    "defines N_n over i in [l+1] as 'example inputs' (the query column included, as eq. 2's "
    "attention over l+1 columns and the proofs' sums (51), (68) over s = 1..l+1 do), and the "
    "corollary's 'by definition in (.)' points to a definition. Under (54)'s set the statement "
    "holds in and out of domain; under the corollary's own words it fails out of domain, where "
    "about half of the query's attention sits on its own column. Both readings are the paper's "
    "own, so this is recorded as a note (convention), not an erratum.",
    definitions="attn_s is eq. 2's softmax over the l + 1 columns; a context's IDR/ODR pattern "
    "is the mu_j (mu'_j) of its x (§3.2, §5); the query's pattern is that of x_query.",
    parameters="Figure 2's out-of-domain setting: a = b = 0.64, the printed K' = 5, alpha' = "
    "0.8, l = 20; m, eta, B, T, delta are not printed (the toolkit's calibrated choices, "
    "PARAMETERS); the untrained model fails both readings (tested), so the check measures "
    "what training does.",
    extraction="The accusation, if any, would rest on '[l]' and 'context inputs'; '[l]' could "
    "be an OCR loss of '[l + 1]' (the main text's eq. 2 shows l where the proofs have l + 1), "
    "which is one more reason not to accuse. 'context inputs' is words, not a glyph.",
    attack=Attack(reviewer="the 2026-12 audit's independent audit (document and verdicts only)",
                  date="2026-12-02", outcome="revised",
                  summary="The audit found that the check passed only because the query "
                  "column is counted among the same-pattern positions; counting context inputs "
                  "only, as Corollary 4.3 reads, gives 0.47 out of domain. Re-filed from holds "
                  "to a note (convention): both sets are the paper's own (Corollary 4.3's "
                  "words vs (54)), the printed reading is measured and shown failing out of "
                  "domain. A fresh re-audit of this verdict is pending."))


@claim(id="ICL-Cor43-attention", paper=PAPER, reference="Corollary 4.3 (eq. 20), (54), "
       "Figure 2B",
       statement="after training, the attention weights concentrate on the contexts that share "
       "the query's IDR/ODR pattern: sum over N of attn >= 1 - Theta(M1^-C) for any constant "
       "C > 1",
       expected_verdict="note", defence=COR43_DEFENCE, basis="statistical")
def icl_cor43_attention(grouping: str = "IDR") -> ClaimResult:
    seed = active_seed()
    m = attention(seed, model_state())
    bound = 1 - 1 / M1
    sets = (("context inputs", "(54)") if grouping == "IDR" else ("IDI", "IDI"))
    rows: dict[str, Any] = {}
    pairs: dict[str, list[tuple[float, float]]] = {s: [] for s in sets}
    for dom, d in m.items():
        for which in dict.fromkeys(sets):
            mass = d[which]
            share = float(np.mean(mass >= bound))
            pairs[which] += [(float(mass.mean()), bound), (share, bound)]
            rows[f"{dom}, N = {which}"] = {
                "mean mass": rounded(float(mass.mean())),
                f"share of prompts with mass >= {bound:.3f}": rounded(share)}
        rows[f"{dom}: mean attention on the query's own column"] = rounded(
            float(d["query column"].mean()))
    printed_ok = all(v >= t for v, t in pairs[sets[0]])
    reading_ok = all(v >= t for v, t in pairs[sets[1]])
    ood = m["OOD"]
    sub = ood["batch"].P[:300]
    own = _independent_context_mass(trained(seed).params, sub, ood["patterns"].relevant)
    lib = float(ood["context inputs"][:300].mean())
    return ClaimResult(
        measured={"attention mass on N": rows},
        reference_value=f"mean mass >= 1 - 1/M1 = {bound:.4f}, and on a share >= 1 - 1/M1 of "
        "the prompts (ID and OOD)",
        verdict=judge_reading(printed_ok, reading_ok),
        kind=None if printed_ok else "convention" if reading_ok else "statement",
        margin=_margin(pairs[sets[1]], "min log10(measured / (1 - 1/M1)) under (54)'s N"),
        independent=Independent("context-only attention mass of the first 300 OOD prompts, "
                                "one prompt at a time with scipy softmax, patterns by the "
                                "largest |<mu'_j, x>| (written here)", round(own, 6),
                                abs(own - lib) < 1e-6),
        details={"printed": "N = the context inputs with the query's pattern (Corollary 4.3: "
                 "'N in [l]', 'indices of context inputs'): in domain mean "
                 f"{rows['ID, N = context inputs']['mean mass'] if grouping == 'IDR' else '-'}"
                 ", out of domain "
                 f"{rows['OOD, N = context inputs']['mean mass'] if grouping == 'IDR' else '-'}"
                 f" against {bound:.3f}: fails out of domain",
                 "reading": "N as (54) defines it: i in [l+1], the query column included (the "
                 "attention runs over l+1 columns, PARAMETERS['attention_columns']): holds in "
                 "and out of domain",
                 "constant": "1 - Theta(M1^-C) read with constant 1 at C -> 1, the weakest "
                 "member of the family 'for any C > 1', and 'with high probability' (1 - "
                 "M1^-C, e.g. (69)) the same way; the bound is the statement's, not fitted",
                 "untrained model": "fails both readings (tests/icl: the check cannot be "
                 "passed by the initialization)",
                 "setting": f"2000 prompts, alpha' = {ALPHA_TEST}, l = {L_TEST}; ID: unseen "
                 f"tasks, K = {PARAMETERS.value('K')}; OOD: Figure 2B's a = b = 0.64 with the "
                 f"printed K' = {K_PRIME}",
                 "confidence": "2000 prompts per domain: the means' standard errors are below "
                 "0.01, and the out-of-domain context mass (0.46) is 37 such errors below the "
                 "bound; training seeds 0-4 agree (tests/icl/test_claim_seeds.py)",
                 "seeds": seeds(seed, 7)})


@cache
def projections(seed: int, state: str = "trained", which: str = "params") -> dict[str, Any]:
    run = trained(seed)
    params = run.params if which == "params" else run.initial
    out: dict[str, Any] = {}
    for dom, pats, tasks, noise in _domains(seed):
        out[dom] = attention_projections(params, pats, prompts(pats, tasks, 1000, L_TEST,
                                                                ALPHA_TEST, seed, 8,
                                                                noise=noise))
    G = out["ID"].G_query
    partners = {(a, b) for a, b in TRAINING_TASKS} | {(b, a) for a, b in TRAINING_TASKS}
    out["non-partner"] = max(abs(G[j, k]) for j in range(M1) for k in range(M1)
                             if j != k and (j, k) not in partners)
    out["partner"] = [float(G[j, k]) for j, k in sorted(partners)]
    out["diag"] = float(np.diag(G).min())
    return out


@claim(id="ICL-Prop41-projections", paper=PAPER,
       reference="Proposition 4.1 (eqs. 17-19), Remark 4.2, Figure 2A",
       statement="||[XDR(p)^T, 0^T] W p|| >= Omega(sqrt(log M1)) for (p, W) = (p_query, "
       "W_Q^(T)) and (p_s, W_K^(T)); the components along other IDR/ODR and along IDI/ODI "
       "patterns are O(sqrt(log M1) (1/M1 + 1/M2))",
       perturbation=Perturbed("(17) for the largest IDI/ODI component in place of the token's "
                              "own XDR pattern (a wrong domain: (19)'s patterns)",
                              component="irrelevant"), basis="statistical")
def icl_prop41_projections(component: str = "own") -> ClaimResult:
    seed, state = active_seed(), model_state()
    m = projections(seed, state, "params")
    m0 = projections(seed, state, "initial")
    beta = PATTERNS.beta
    bound17 = math.sqrt(math.log(M1))
    bound18 = bound17 * (1 / M1 + 1 / PATTERNS.M2)
    rows, pairs, implied = {}, [], {}
    for dom in ("ID", "OOD"):
        p, p0 = m[dom], m0[dom]
        for who in ("query", "key"):
            value = beta * getattr(p, f"{who}_{component}")       # ||[pattern^T, 0^T] W p||
            start = beta * getattr(p0, f"{who}_{component}")      # the same at Psi^(0)
            growth = value / start
            pairs += [(value, bound17), (growth, bound17)]
            rows[f"{dom} {who}"] = {"at T": rounded(value), "at initialization": rounded(start),
                                    "growth factor": rounded(growth)}
            implied[f"{dom} {who}"] = {
                "other IDR/ODR (18)": rounded(beta * getattr(p, f"{who}_other_relevant")
                                              / bound18),
                "IDI/ODI (19)": rounded(beta * getattr(p, f"{who}_irrelevant") / bound18)}
    return ClaimResult(
        measured={f"||[{component} pattern^T, 0^T] W p|| (mean)": rows},
        reference_value=f">= sqrt(log M1) = {bound17:.4f} (constant 1) and grown by a factor "
        ">= sqrt(log M1) from its initial value, W_Q p_query and W_K p_s, ID and OOD",
        verdict=judge(all(v >= t for v, t in pairs)),
        margin=_margin(pairs, "min log10(component / sqrt(log M1)) and log10(growth factor / "
                       "sqrt(log M1))"),
        details={"reading": "(17) with Omega's constant 1 and the pattern of norm beta as "
                 "printed (Figure 2A divides by beta: the components there are these / "
                 f"{beta:g}); natural logarithm",
                 "growth (Remark 4.2)": "the initialization alone clears (17) with constant 1 "
                 "(W^(0) = delta I gives delta beta^2 = 1.80 > sqrt(log 6) = 1.34), so (17) "
                 "alone cannot tell a trained model from an untrained one. Remark 4.2 reads "
                 "Proposition 4.1 as W_Q, W_K 'enlarge the magnitude of the IDR or ODR patterns "
                 "from O(1) to Theta(sqrt(log M))' given the initialization delta = O(1): the "
                 "check also asks the component to grow by a factor sqrt(log M1) over its "
                 "initial value (scale-free: the free delta cancels), which the untrained model "
                 "fails (tested)",
                 "(18)-(19) not asserted": "O(.) without a constant at the one M1 = 6: the "
                 "measured components divided by sqrt(log M1)(1/M1 + 1/M2) = "
                 f"{bound18:.3f} (the constant they would need) are {implied}. The largest "
                 "'other IDR' component is the cyclic training partner's (G = mu W_Q mu^T / "
                 f"beta^2: diagonal >= {m['diag']:.2f}, partners {min(m['partner']):.2f}.."
                 f"{max(m['partner']):.2f}, non-partners <= {m['non-partner']:.3f}): attention "
                 "suppresses the partner pattern, whose contexts carry the opposite label; out "
                 "of domain the printed K' = 5 makes the ODI components large",
                 "setting": f"1000 prompts, alpha' = {ALPHA_TEST}, l = {L_TEST}; ID: unseen "
                 f"tasks, K = {PARAMETERS.value('K')}; OOD: Figure 2A's a = b = 0.64, printed "
                 f"K' = {K_PRIME}", "confidence": "means over 1000 prompts of a deterministic "
                 "linear map (no training noise beyond the one seed; seeds 0-4 agree)",
                 "seeds": seeds(seed, 8)})


@claim(id="ICL-Prop45-alignment", paper=PAPER, reference="Proposition 4.5 (eqs. 21-22), "
       "Remark 4.6, Figure 2C-D",
       statement="for the large neurons i in L, cos(r_i,X, mean IDR pattern) >= 1 - Theta(1)/M1 "
       "and cos(r_i,Y, sign(a_i) q) >= 1 - Theta(1)/M1",
       perturbation=Perturbed("(22) with the opposite sign: cos(r_i,Y, -sign(a_i) q) >= 1 - "
                              "Theta(1)/M1 (P2 reversed)", label_sign=-1), basis="statistical")
def icl_prop45_alignment(label_sign: int = 1) -> ClaimResult:
    al = neuron_alignment(trained().params, PATTERNS)
    top = al.top(0.5)
    bound = 1 - 1 / M1
    cos_y = label_sign * al.cos_label[top]
    frac_x = float(np.mean(al.cos_feature[top] >= bound))
    frac_y = float(np.mean(cos_y >= bound))
    pairs = [(frac_x, 0.9), (frac_y, 0.9)]
    return ClaimResult(
        measured={"fraction of top half with cos_X >= 1 - 1/M1": frac_x,
                  "fraction with cos_Y >= 1 - 1/M1": frac_y,
                  "median cos_X, cos_Y (top half)": (rounded(np.median(al.cos_feature[top])),
                                                     rounded(np.median(cos_y))),
                  "min cos_X, cos_Y (top half)": (rounded(al.cos_feature[top].min()),
                                                  rounded(cos_y.min()))},
        reference_value="at least 90% of the top half above 1 - 1/M1 = 0.833 (Theta(1) = 1)",
        verdict=judge(all(v >= t for v, t in pairs)),
        margin=_margin(pairs, "log10(fraction / 0.9)"),
        details={"L": "the half of the neurons with the largest ||r_i||, r_i = (W_O W_V)_i "
                 "split into its d_X and d_Y parts", "seeds": seeds(active_seed())})


@cache
def updates(seed: int) -> dict[str, Any]:
    model = trained(seed)
    rel = label_feature_basis(PATTERNS)
    irr = np.zeros((PATTERNS.M2, PATTERNS.D))
    irr[:, :PATTERNS.d_x] = PATTERNS.irrelevant / PATTERNS.beta
    out = {}
    for name in ("WQ", "WK", "WV"):
        delta = getattr(model.params, name) - getattr(model.initial, name)
        s = update_spectrum(delta, rtol=0.05, basis=rel)
        s_irr = update_spectrum(delta, rtol=0.05, basis=irr)
        out[name] = {"eps-rank": s.eps_rank.bracket, "float rank": int(s.float_rank),
                     "sv": s.singular_values[:7].round(3).tolist(),
                     "energy": s.input_energy, "energy IDI": s_irr.input_energy,
                     "s3/s1": float(s.singular_values[2] / s.singular_values[0])}
    return out


@claim(id="ICL-LemB5-update-support", paper=PAPER, reference="Lemmas B.5-B.7 (notes C7, PC-10)",
       statement="the SGD updates of W_Q, W_K lie (up to small terms) in the IDR directions and "
       "those of W_V in the IDR and label directions, the IDI directions getting O(1/M2)",
       perturbation=Perturbed("the same with the IDI directions in place of IDR and label "
                              "directions (a wrong domain)", directions="IDI"),
       basis="statistical")
def icl_lemb5_update_support(directions: str = "IDR and label") -> ClaimResult:
    u = updates(active_seed())
    key = "energy IDI" if directions == "IDI" else "energy"
    pairs = [(u[n][key], 0.95) for n in ("WQ", "WK", "WV")]
    ranks_ok = all(u[n]["eps-rank"][1] <= M1 for n in ("WQ", "WK")) and u["WV"]["s3/s1"] <= 0.1
    return ClaimResult(
        measured={n: {k: (rounded(v) if isinstance(v, float) else v) for k, v in d.items()}
                  for n, d in u.items()},
        reference_value="input energy in span{[mu_j;0],[0;q]} >= 0.95; eps-rank of dW_Q, dW_K "
        "<= M1 (eps = 0.05 max|dW|, certified upper end); dW_V: s3/s1 <= 0.1",
        verdict=judge(all(v >= t for v, t in pairs) and ranks_ok),
        margin=_margin(pairs, "min log10(energy share / 0.95)"),
        details={"reading": "Lemmas B.5-B.7 bound the gradient components; stated for the "
                 "accumulated update dW = W^(T) - W^(0) (an inferred consequence, notes C7)",
                 "rank": "eps-rank bracket from seprank.core.eps_rank: dW is within 0.05 max|dW| "
                 "entrywise of a matrix of rank <= the upper end; dW_V is effectively rank 2 "
                 "(mean IDR pattern and q, the matrix form of Proposition 4.5)",
                 "seeds": seeds(active_seed())})


@claim(id="ICL-Thm37-dichotomy", paper=PAPER, reference="Theorem 3.7 (eq. 14), Figure 5A bars",
       statement="observation (the toolkit's trained model, not a verdict on 002): the ||r_i|| "
       "spectrum splits in two, at least half of the neurons with ||r_i|| >= 1 and a small "
       "group below, as eq. 14's dichotomy describes", category="consistency", basis="statistical")
def icl_thm37_dichotomy() -> ClaimResult:
    mags = trained().params.neuron_magnitudes()
    frac = float(np.mean(mags >= 1.0))
    small = small_neurons(mags)
    gap = float(mags[~small].min() / mags[small].max())
    pairs = [(frac, 0.5), (gap, 1.0)]
    return ClaimResult(
        measured={"fraction with ||r_i|| >= 1": rounded(frac),
                  "small group (two-means split of log ||r_i||)": int(small.sum()),
                  "small group: max ||r_i||; large group: min, median": (
                      rounded(float(mags[small].max())), rounded(float(mags[~small].min())),
                      rounded(float(np.median(mags[~small]))))},
        reference_value="fraction >= 0.5 and the two groups separated (min large > max small)",
        verdict=judge(all(v > t if t == 1.0 else v >= t for v, t in pairs)),
        margin=_margin(pairs, "min log10 ratio"),
        details={"why an observation": "eq. 14 prints |L| = Omega(m), ||r_i|| >= Omega(1) on L "
                 "and ||r_i|| <= O(1/sqrt(M)) off L: no constant, and the subscript of M was "
                 "lost in extraction ((127) suggests sqrt(1/M1 + 1/M2)); at one size (m = 64, "
                 "M1 = 6) none of the three can be evaluated, and the small group's "
                 f"||r_i|| ({float(np.median(mags[small])):.2f} median) is a property of the "
                 "toolkit's unprinted m, eta, T. The pruning statements built on eq. 14 are "
                 "verdicts: ICL-Thm37-eq15-prune-small, ICL-Fig5A-small-neurons",
                 "reclassified": "the 2026-11 audit: registered before as a paper claim whose "
                                 "perturbation "
                 "(the untrained weights) showed only that training happened",
                 "seeds": seeds(active_seed())})
