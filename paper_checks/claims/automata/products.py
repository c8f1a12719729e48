"""Paper 004 Chapter 3, §3.4.4.1 and §3.4.4.3.3-3.4.4.3.4: Lemma 12 (threshold), Theorem 11's
group products (Lemmas 17-20) built as explicit networks, Theorem 16's sizes and recursion, and
the norm chain of Lemmas 20-21 into Theorem 11 (AUT-*).

Every network (:mod:`seprank.automata.group_products`) runs on every word of the stated length
over the group's elements; the reference is the group's own multiplication table (permutation
composition, :class:`~seprank.automata.finite_groups.FiniteGroup`), never the network's
encoding.  Sizes are measured on the weights.  Found here (2026-11 audit): Lemma 12's printed
construction misses its tolerance, Theorem 16's printed depth recursion reads sim_{K_i}, and
the inequalities Lemma 20 and Theorem 11 print do not follow from the sizes the proof builds.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from paper_checks.claims.automata.common import (
    NO_REGIME,
    ONE_VERSION,
    PAPER,
    PARAMETERS,
    defence,
)
from paper_checks.compare import exact_result, ratio_result
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Independent, Margin, claim, judge
from seprank.automata import (
    FiniteGroup,
    GroupSimulator,
    cyclic_simulator,
    direct_product_simulator,
    find_embedding,
    lemma12_mlp,
    lemma12_required_slope,
    permutation_reset_simulator,
    ramp_mlp,
    semidirect_simulator,
    solvable_group_simulator,
    wreath_simulator,
)

#: Lemma 12's printed bounds and tolerance.
LEMMA12_W1: Fraction = PARAMETERS.value("lemma12_w1")
LEMMA12_TOLERANCE: Fraction = PARAMETERS.value("lemma12_tolerance")
#: Q_8 = {1, i, j, k, -1, -i, -j, -k} acting on itself: left multiplication by i and by j
#: (the table of seprank.automata.quaternion_group); i^2 = -1 = (4, 5, 6, 7, 0, 1, 2, 3).
Q8_I = (1, 4, 3, 6, 5, 0, 7, 2)
Q8_J = (2, 7, 4, 1, 6, 3, 0, 5)
#: Theorem 16's printed depth factor (sim.depth <= 3 log2|G|).
THM16_DEPTH: int = PARAMETERS.value("thm16_depth")


# -- Lemma 12 -------------------------------------------------------------------------------

def _threshold_error(mlp_of_delta: Any, tolerance: Fraction) -> tuple[float, dict[str, float]]:
    """Largest |f(x + xi) - 1[x > 0]| over |x| >= Delta (the boundary +-Delta and far points)
    and |xi| <= tolerance * Delta (a grid with both ends), for Delta in {0.1, 1, 7}."""
    worst, rows = 0.0, {}
    for delta in (0.1, 1.0, 7.0):
        f = mlp_of_delta(delta)
        x = np.array([-50.0, -3.0, -1.5, -1.0, 1.0, 1.5, 3.0, 50.0]) * delta
        xi = np.linspace(-1.0, 1.0, 41) * float(tolerance) * delta
        pts = (x[:, None] + xi[None, :]).reshape(-1, 1)
        target = np.repeat(x > 0, xi.size).astype(float)
        err = float(np.abs(f(pts).ravel() - target).max())
        rows[f"Delta={delta}"] = round(err, 6)
        worst = max(worst, err)
    return worst, rows


@claim(id="AUT-Lemma12-threshold", paper=PAPER, reference="§3.4.4.1 Lemma 12",
       basis="not_refuted", universal=True,
       statement="for X with |x| >= Delta there is a 2-layer ReLU network with f(x + xi) = "
       "1[x > 0] for |xi| <= Delta/4, inner dimension 2, ||W_1|| <= 1/Delta, ||b_1|| <= 1/2, "
       "||W_2|| <= 1, b_2 = 0",
       perturbation=Perturbed("||W_1|| <= 1/(2 Delta) (the slope of the printed construction)",
                              w1_bound=Fraction(1, 2)))
def aut_lemma12_threshold(w1_bound: Fraction = LEMMA12_W1) -> ClaimResult:
    # the steepest 2-unit ramp the norm bounds allow: slope w1_bound/Delta, b_1 = +-1/2
    half_width = Fraction(1, 2) / w1_bound                     # in units of Delta
    err, rows = _threshold_error(lambda d: ramp_mlp(float(half_width) * d), LEMMA12_TOLERANCE)
    f = ramp_mlp(float(half_width))
    (W1, b1), (W2, b2) = f.layers
    norms_ok = (float(np.abs(W1).max()) <= float(w1_bound) + 1e-12
                and float(np.abs(b1).max()) <= float(PARAMETERS.value("lemma12_b1"))
                and float(np.abs(W2).max()) <= float(PARAMETERS.value("lemma12_w2"))
                and not np.any(b2) and f.widths == (PARAMETERS.value("lemma12_width"),))
    required = lemma12_required_slope(1.0, LEMMA12_TOLERANCE)   # 2/(3 Delta)
    # exact: the ramp of half-width h at x = Delta - Delta/4 is (3/4 / h + 1)/2 (capped at 1)
    exact = {str(h): str(min(Fraction(1), (Fraction(3, 4) / h + 1) / 2))
             for h in (Fraction(1, 2), Fraction(3, 4), Fraction(1))}
    return ratio_result(
        required, float(w1_bound), what="slope 2/(3 Delta) the tolerance needs / the slope "
        "||W_1|| ||W_2|| allows (units 1/Delta)", holds=bool(err < 1e-12 and norms_ok),
        measured={"max |f(x + xi) - 1[x > 0]|": rows, "norms within the printed bounds":
                  norms_ok, "ramp half-width (units of Delta)": str(half_width)},
        reference_value="0 error",
        details={"witness": "psi(x) = (x/(2h) + 1/2)_+ - (x/(2h) - 1/2)_+ with h = Delta/2: "
                 "W_1 = 1/Delta and b_1 = 1/2 exactly the printed bounds",
                 "why the bound is needed": "a 2-unit network bounded on both sides is a ramp "
                 "whose slope is one unit's |W_2||W_1|; it must rise by 1 between -3Delta/4 "
                 "and 3Delta/4, so the slope must be >= 2/(3 Delta): with ||W_1|| <= 1/(2 "
                 "Delta) no network of this shape exists",
                 "ramp at x = 3Delta/4 by half-width (exact)": exact})


@claim(id="AUT-Lemma12-construction", paper=PAPER, reference="§3.4.4.1 proof of Lemma 12",
       basis="exact", universal=True,
       statement="psi(x) := ((x + Delta)/(2 Delta))_+ - ((x - Delta)/(2 Delta))_+ equals "
       "1[x > 0] on x + xi for |x| >= Delta, |xi| <= Delta/4", expected_verdict="erratum",
       defence=defence(
           "AUT-Lemma12-construction", version=ONE_VERSION, regime=NO_REGIME,
           convention="No convention changes a ramp: psi is 0 for x <= -Delta, 1 for x >= "
           "Delta and linear in between, in any reading of (.)_+ as max(., 0).",
           definitions="The lemma's own statement asks f(x + xi) = 1[x > 0] for all |xi| <= "
           "Delta/4 (its whole point, as Lemma 10's); the printed psi meets it only at xi = "
           "0: psi(Delta - Delta/4) = 7/8 and psi(-Delta + Delta/4) = 1/8. The lemma is true "
           "(the ramp of half-width Delta/2, AUT-Lemma12-threshold), and that ramp's weights "
           "are exactly the printed bounds ||W_1|| = 1/Delta, ||b_1|| = 1/2 -- while the "
           "printed psi has ||W_1|| = 1/(2 Delta). Theorem 12's proof uses the lemma with "
           "Delta = 1/(4T) and '∞-norm 4T' = 1/Delta, again the corrected slope: a wrong "
           "constant in the construction, not in the lemma.",
           parameters="Delta in {0.1, 1, 7}, xi on a 41-point grid of [-Delta/4, Delta/4] "
           "with both ends; the uses print Delta = 1/(4T) (Theorem 12).",
           extraction="The corrected ramp is ((2x + Delta)/(2 Delta))_+ - ((2x - Delta)/(2 "
           "Delta))_+, so a '2' before x lost from both fractions would make the printed "
           "display right (the attack's caveat, 2026-11 audit; the earlier answer here -- that two "
           "different symbols would have to be lost -- was wrong). We keep the erratum: the "
           "display is extracted as intact LaTeX (\\frac{x+\\Delta}{2\\Delta}, the '2' of "
           "each denominator kept), the same coefficient would have to vanish twice, and the "
           "symbols this extraction is seen to lose are operators in inline text (the minus "
           "of log(2T - t), AUT-Lemma15-gamma), not coefficients in display math. The "
           "context does not decide it: the printed bound ||W_1|| <= 1/Delta and Theorem 12's "
           "'infinity-norm 4T' at Delta = 1/(4T) fit the corrected slope 1/Delta, but the "
           "printed psi (slope 1/(2 Delta)) satisfies them too. The PDF was not available to "
           "settle it."))
def aut_lemma12_construction() -> ClaimResult:
    printed_err, printed_rows = _threshold_error(lambda d: lemma12_mlp(d, printed=True),
                                                 LEMMA12_TOLERANCE)
    corrected_err, corrected_rows = _threshold_error(lemma12_mlp, LEMMA12_TOLERANCE)
    (W1, b1), _ = lemma12_mlp(1.0).layers
    norms = (float(np.abs(W1).max()), float(np.abs(b1).max()))
    hand = (Fraction(3, 4) + 1) / 2                     # printed psi at x = 3 Delta/4, Delta = 1
    return ClaimResult(
        measured={"printed: max |psi(x + xi) - 1[x > 0]|": printed_rows,
                  "corrected (x/Delta + 1/2)_+ - (x/Delta - 1/2)_+": corrected_rows,
                  "corrected norms (||W_1|| Delta, ||b_1||)": norms},
        reference_value=0.0, kind="constant",
        verdict=judge(printed_err < 1e-12, corrected_err < 1e-12 and norms == (1.0, 0.5)),
        independent=Independent("exact Fractions: psi(3/4) = ((3/4 + 1)/2)_+ - ((3/4 - 1)/2)_+ "
                                "= 7/8 (Delta = 1, x = 1, xi = -1/4)", str(hand),
                                hand == Fraction(7, 8) and abs(printed_err - 0.125) < 1e-9),
        details={"printed": "the ramp rises over [-Delta, Delta]: psi(x + xi) = 7/8 at x = "
                 "Delta, xi = -Delta/4 (and 1/8 at x = -Delta, xi = Delta/4); exact only at "
                 "xi = 0", "corrected": "psi(x) = ((x + Delta/2)/Delta)_+ - ((x - "
                 "Delta/2)/Delta)_+, a ramp over [-Delta/2, Delta/2]: exact for |xi| <= "
                 "Delta/4 (any half-width <= 3Delta/4 works) with ||W_1|| = 1/Delta and "
                 "||b_1|| = 1/2, the printed bounds"})


# -- Lemmas 17-19: group products as networks -----------------------------------------------

def _errors(sim: GroupSimulator, length: int) -> tuple[int, int]:
    W = sim.group.all_words(length)
    return int(np.sum(sim.simulate(W) != sim.group.run(W))), int(W.size)


def _v4_rotation(h: Any, g: Any) -> Any:
    """The order-3 automorphism (a, b) -> (b, a + b) of C_2 x C_2, applied h times."""
    a, b = g
    for _ in range(int(h)):
        a, b = b, (a + b) % 2
    return (a, b)


def _dihedral_phi(n: int) -> Any:
    return lambda h, g: g if h == 0 else (-g) % n


@cache
def _permutation_group(name: str) -> FiniteGroup:
    table: dict[str, list[tuple[int, ...]]] = {
            "S_3": [(1, 0, 2), (1, 2, 0)], "D_10": [(1, 2, 3, 4, 0), (0, 4, 3, 2, 1)],
            "A_4": [(1, 2, 0, 3), (1, 0, 3, 2)], "S_4": [(1, 0, 2, 3), (1, 2, 3, 0)],
            "D_8": [(1, 2, 3, 0), (0, 3, 2, 1)],
            # Q_8 in its regular representation on 8 points (left multiplication by i, j)
            "Q_8": [Q8_I, Q8_J]}
    gens = table[name]
    return FiniteGroup.from_permutations(gens, name=name)


@cache
def _semidirect_cases(T: int) -> dict[str, tuple[GroupSimulator, GroupSimulator,
                                                   GroupSimulator]]:
    """name -> (sim of the real group through an embedding, sim_N, sim_H)."""
    out = {}
    for name, n in (("S_3", 3), ("D_10", 5)):
        N, H = cyclic_simulator(n, T), cyclic_simulator(2, T)
        sim = semidirect_simulator(N, H, _dihedral_phi(n))
        G = _permutation_group(name)
        out[name] = (sim.restrict(G, find_embedding(G, sim.group)), N, H)
    N = direct_product_simulator([cyclic_simulator(2, T), cyclic_simulator(2, T)])
    H = cyclic_simulator(3, T)
    sim = semidirect_simulator(N, H, _v4_rotation)
    G = _permutation_group("A_4")
    out["A_4"] = (sim.restrict(G, find_embedding(G, sim.group)), N, H)
    return out


def _truncated(sim: GroupSimulator, n_blocks: int) -> GroupSimulator:
    return GroupSimulator(sim.group, sim.T, sim.encoding, sim.blocks[:n_blocks])


@claim(id="AUT-Lemma17-direct-product", paper=PAPER, reference="§3.4.4.3.3 Lemma 17",
       basis="not_refuted", universal=True,
       statement="the direct product of simulated groups is simulated with depth = max_i "
       "depth, dim = sum dim, heads = sum heads, headDim = max, mlpWidth = sum, normBound <= "
       "max, repDim = sum, repSize = max",
       perturbation=Perturbed("depth = min_i depth instead of max_i", depth_rule="min"))
def aut_lemma17_direct_product(depth_rule: str = "max") -> ClaimResult:
    T = 3
    s3 = _semidirect_cases(T)["S_3"][0]
    cases = {"C_2 x C_3": [cyclic_simulator(2, T), cyclic_simulator(3, T)],
             "C_2 x C_2 x C_2": [cyclic_simulator(2, T)] * 3,
             "C_2 x S_3 (depths 1, 4)": [cyclic_simulator(2, T), s3]}
    rows, ok, tight = {}, True, []
    for name, parts in cases.items():
        sim = direct_product_simulator(parts)
        depth = (max if depth_rule == "max" else min)(p.depth for p in parts)
        sim = _truncated(sim, depth)
        wrong, total = _errors(sim, T)
        s, ps = sim.sizes(), [p.sizes() for p in parts]
        checks = {"depth": s["depth"] == depth,
                  "dim": s["dim"] <= sum(p["dim"] for p in ps),
                  "heads": s["heads"] <= sum(p["heads"] for p in ps),
                  "headDim": s["headDim"] == max(p["headDim"] for p in ps),
                  "mlpWidth": s["mlpWidth"] <= sum(p["mlpWidth"] for p in ps),
                  "normBound": s["normBound"] <= max(p["normBound"] for p in ps) + 1e-9,
                  "repDim": s["repDim"] == sum(p["repDim"] for p in ps),
                  "repSize": s["repSize"] == max(p["repSize"] for p in ps)}
        tight.append(sum(p["mlpWidth"] for p in ps) / s["mlpWidth"])
        rows[name] = {"(wrong, total)": (wrong, total), "sizes": s,
                      "printed relations hold": all(checks.values())}
        ok &= wrong == 0 and all(checks.values())
    return exact_result(
        measured=rows, reference_value="0 wrong; every printed size relation",
        what="0 errors on every word (T = 3); sizes measured on the weights", holds=ok,
        details={"layout": "the components share the ⊥ and position channels (dim = 2 + "
                 "sum repDim <= sum dim); padding layers are residual-only",
                 "depth rule": depth_rule})


@claim(id="AUT-Lemma18-semidirect", paper=PAPER, reference="§3.4.4.3.3 Lemma 18",
       basis="not_refuted", universal=True,
       statement="G = N x| H is simulated by a 4-stage cascade with depth = depth_N + depth_H "
       "+ 2, dim = dim_N + dim_H, heads = max, mlpWidth = max{mlpWidth_{N,H}, 4|G|}, normBound "
       "<= max{normBound_{N,H}, 6 repSize, repDim_N + repDim_H}",
       perturbation=Perturbed("depth = depth_N + depth_H + 1: one mixing layer (no un-mixing)",
                              mixing_layers=1))
def aut_lemma18_semidirect(mixing_layers: int = PARAMETERS.value("lemma18_extra_depth")
                           ) -> ClaimResult:
    T = 4
    rows, ok, slack = {}, True, []
    for name, (sim, N, H) in _semidirect_cases(T).items():
        depth = N.depth + H.depth + mixing_layers
        sim = _truncated(sim, depth)
        wrong, total = _errors(sim, 3 if name != "S_3" else T)
        s, n, h = sim.sizes(), N.sizes(), H.sizes()
        order = sim.group.order
        norm_bound = max(n["normBound"], h["normBound"],
                         PARAMETERS.value("lemma18_norm") * max(n["repSize"], h["repSize"]),
                         n["repDim"] + h["repDim"])
        width_bound = max(n["mlpWidth"], h["mlpWidth"],
                          PARAMETERS.value("lemma18_mlp_width") * order)
        checks = {"depth": s["depth"] == depth, "dim": s["dim"] <= n["dim"] + h["dim"],
                  "heads": s["heads"] == max(n["heads"], h["heads"]),
                  "mlpWidth": s["mlpWidth"] <= width_bound, "normBound": s["normBound"]
                  <= norm_bound + 1e-9, "repDim": s["repDim"] == n["repDim"] + h["repDim"]}
        slack.append(min(width_bound / s["mlpWidth"], norm_bound / s["normBound"]))
        rows[name] = {"(wrong, total)": (wrong, total), "sizes": s, "checks": checks}
        ok &= wrong == 0 and all(checks.values())
    worst = min(slack)
    return ratio_result(1.0, worst, what="tightest (printed bound / measured) over mlpWidth "
                        "and normBound; 0 errors", holds=ok, measured=rows,
                        reference_value="0 wrong; the printed sizes",
                        details={"groups": "S_3 = C_3 x| C_2 and D_10 = C_5 x| C_2 (phi_1 = "
                                 "negation), A_4 = (C_2 x C_2) x| C_3 (phi_1: (a, b) -> (b, "
                                 "a + b)); each network simulates the permutation group "
                                 "itself through an embedding; every word of length 4 (S_3) "
                                 "or 3", "mixing layers": mixing_layers})


@cache
def _wreath_cases(T: int) -> dict[str, tuple[GroupSimulator, GroupSimulator, int]]:
    """name -> (sim of the group inside N wr C_p, sim_N, p)."""
    out = {}
    C4 = cyclic_simulator(4, T)
    W = wreath_simulator(C4, 2)
    Q8 = _permutation_group("Q_8")
    out["Q_8 in C_4 wr C_2"] = (W.restrict(Q8, find_embedding(Q8, W.group)), C4, 2)
    C2 = cyclic_simulator(2, T)
    W2 = wreath_simulator(C2, 2)
    D8 = _permutation_group("D_8")
    out["D_8 = C_2 wr C_2"] = (W2.restrict(D8, find_embedding(D8, W2.group)), C2, 2)
    C3 = cyclic_simulator(3, T)
    W3 = wreath_simulator(C2, 3)
    out["C_2 wr C_3"] = (W3, C2, 3)
    del C3
    return out


@claim(id="AUT-Lemma19-wreath", paper=PAPER, reference="§3.4.4.3.3 Lemma 19",
       basis="not_refuted", universal=True,
       statement="N wr H (repDim_H = 1) is simulated with depth = depth_N + depth_H + 2, dim = "
       "|H| dim_N + dim_H, heads = max{|H| heads_N, heads_H}, mlpWidth = max{|H| mlpWidth_N, "
       "mlpWidth_H, 5|H|^2|N|}, normBound <= max{normBound_{N,H}, 6|H|}, repDim = |H| repDim_N "
       "+ 1",
       perturbation=Perturbed("depth = depth_N + depth_H + 1: one mixing layer (no un-mixing)",
                              mixing_layers=1))
def aut_lemma19_wreath(mixing_layers: int = PARAMETERS.value("lemma18_extra_depth")
                       ) -> ClaimResult:
    T = 3
    rows, ok, slack = {}, True, []
    for name, (sim, N, p) in _wreath_cases(T).items():
        H = cyclic_simulator(p, T)
        depth = N.depth + H.depth + mixing_layers
        sim = _truncated(sim, depth)
        wrong, total = _errors(sim, T)
        s, n, h = sim.sizes(), N.sizes(), H.sizes()
        width_bound = max(p * n["mlpWidth"], h["mlpWidth"],
                          PARAMETERS.value("lemma19_mlp_width") * p * p * N.group.order)
        norm_bound = max(n["normBound"], h["normBound"], PARAMETERS.value("lemma19_norm") * p)
        checks = {"depth": s["depth"] == depth, "dim": s["dim"] <= p * n["dim"] + h["dim"],
                  "heads": s["heads"] <= max(p * n["heads"], h["heads"]),
                  "mlpWidth": s["mlpWidth"] <= width_bound,
                  "normBound": s["normBound"] <= norm_bound + 1e-9,
                  "repDim": s["repDim"] == p * n["repDim"] + 1}
        slack.append(min(width_bound / s["mlpWidth"], norm_bound / s["normBound"]))
        rows[name] = {"(wrong, total)": (wrong, total), "sizes": s, "checks": checks}
        ok &= wrong == 0 and all(checks.values())
    return ratio_result(1.0, min(slack), what="tightest (printed bound / measured) over "
                        "mlpWidth and normBound; 0 errors", holds=ok, measured=rows,
                        reference_value="0 wrong; the printed sizes",
                        details={"construction": "p copies of N side by side (Lemma 17), a "
                                 "C_p counter, the concise re-indexing MLP (h indicators, "
                                 "copies passed through, one gate per (h, copy, coordinate))",
                                 "groups": "Q_8 (regular representation, 8 points) embedded "
                                 "in C_4 wr C_2 (found by search), D_8 = C_2 wr C_2, C_2 wr "
                                 "C_3; every word of length 3", "mixing layers": mixing_layers})


# -- Theorem 16 ---------------------------------------------------------------------------------

def _series(group: FiniteGroup, chain_gens: list[list[tuple[int, ...]]]) -> list[list[Any]]:
    out = [[group.identity]]
    for gens in chain_gens:
        sub = FiniteGroup.from_permutations(gens)
        out.append(list(sub.elements))
    return out


#: Prime-index chains 1 < H_1 < ... < G (generators of each H_i) for Theorem 16's recursion.
CHAINS: dict[str, list[list[tuple[int, ...]]]] = {
    "S_3": [[(1, 2, 0)], [(1, 2, 0), (1, 0, 2)]],
    "D_8": [[(2, 3, 0, 1)], [(1, 2, 3, 0)], [(1, 2, 3, 0), (0, 3, 2, 1)]],
    "Q_8": [[(4, 5, 6, 7, 0, 1, 2, 3)], [Q8_I], [Q8_I, Q8_J]],
    "A_4": [[(1, 0, 3, 2)], [(1, 0, 3, 2), (2, 3, 0, 1)], [(1, 0, 3, 2), (1, 2, 0, 3)]],
    "S_4": [[(1, 0, 3, 2)], [(1, 0, 3, 2), (2, 3, 0, 1)], [(1, 0, 3, 2), (1, 2, 0, 3)],
            [(1, 0, 2, 3), (1, 2, 3, 0)]],
}


@cache
def _thm16(name: str, T: int) -> tuple[GroupSimulator, tuple[dict[str, Any], ...], int]:
    G = _permutation_group(name)
    sim, steps = solvable_group_simulator(G, _series(G, CHAINS[name]), T)
    return sim, tuple(steps), len(G.elements[0])


def _thm16_bounds(order: int, n: int, T: int, depth_factor: float) -> dict[str, float]:
    return {"depth": depth_factor * math.log2(order),
            "dim": PARAMETERS.value("thm16_dim") * order,
            "heads": PARAMETERS.value("thm16_heads") * order, "headDim": 1,
            "mlpWidth": PARAMETERS.value("thm16_mlp_width") * n * T * order,
            "normBound": PARAMETERS.value("thm16_norm") * n * T,
            "repDim": PARAMETERS.value("thm16_rep_dim") * order, "repSize": n}


def _printed_recursion(primes: tuple[int, ...], n: int, T: int) -> dict[str, float]:
    """Theorem 16's recursion as printed (with sim_{H_i}.depth): start from sim_K of
    H_1 = C_{p_0}, one wreath step per further factor."""
    depth, dim, heads, width, norm, rep = 1, 3, 1, 4 * n * T, 6 * n * T, 1
    order = primes[0]
    for k in primes[1:]:
        depth, dim, heads, rep = depth + 3, k * dim + 1, k * heads + 1, k * rep + 1
        width = max(k * width, 4 * n * T, 5 * k * k * order)
        norm = max(6 * n * T, 6 * k)
        order *= k
    return {"depth": depth, "dim": dim, "heads": heads, "mlpWidth": width, "normBound": norm,
            "repDim": rep, "order": order}


@claim(id="AUT-Thm16-sizes", paper=PAPER, reference="§3.4.4.3.3 Theorem 16",
       basis="not_refuted", universal=True,
       statement="a solvable G on n points is simulated with depth <= 3 log2|G|, dim <= 2|G|, "
       "heads <= 2|G|, headDim = 1, mlpWidth <= 20nT|G|, normBound <= 6nT, repDim <= 2|G|, "
       "repSize <= n",
       perturbation=Perturbed("depth <= 2 log2|G| (the constant 3 lowered to 2)",
                              depth_factor=2))
def aut_thm16_sizes(depth_factor: int = THM16_DEPTH) -> ClaimResult:
    T = 3
    rows, ok, slacks = {}, True, []
    for name in CHAINS:
        sim, steps, n = _thm16(name, T)
        wrong, total = _errors(sim, T)
        s = sim.sizes()
        bounds = _thm16_bounds(sim.group.order, n, T, depth_factor)
        checks = {k: (s[k] == bounds[k] if k == "headDim" else s[k] <= bounds[k] + 1e-9)
                  for k in bounds}
        slacks += [bounds[k] / s[k] for k in bounds if k != "headDim" and s[k]]
        rows[name] = {"(wrong, total)": (wrong, total), "sizes": s,
                      "factors": [st["factor"] for st in steps],
                      "within Theorem 16": all(checks.values())}
        ok &= wrong == 0 and all(checks.values())
    # the printed recursion itself, iterated over every sequence of primes p_i <= n with
    # product <= 2^10, gives the printed final bounds (Lagrange: prod p_i = |G|)
    recursion_ok, worst_depth = True, 0.0
    for n in (2, 3, 5, 7):
        primes = [p for p in (2, 3, 5, 7) if p <= n]
        for length in range(1, 8):
            for seq in itertools.product(primes, repeat=length):
                order = math.prod(seq)
                if order > 1024:
                    continue
                r = _printed_recursion(seq, n, T)
                b = _thm16_bounds(order, n, T, depth_factor)
                recursion_ok &= all(r[k] <= b[k] + 1e-9 for k in ("dim", "heads", "mlpWidth",
                                                                   "normBound", "repDim"))
                recursion_ok &= r["depth"] <= b["depth"] + 1e-9
                worst_depth = max(worst_depth, r["depth"] / max(b["depth"], 1e-9))
    margin = Margin.ratio(1.0, min(slacks), what="tightest (Theorem 16 bound / measured size) "
                          "over the built simulators")
    return ClaimResult(
        measured={"built simulators (T = 3, every word)": rows,
                  "printed recursion within the final bounds (all prime sequences, |G| <= "
                  "1024)": recursion_ok},
        reference_value="0 wrong; every size within Theorem 16",
        verdict=judge(bool(ok and recursion_ok)), margin=margin,
        details={"construction": "the proof's recursion: a counter for H_1, then H_{i+1} "
                 "embedded in sim(H_i) wr C_{p_i} (Lemma 19) at every step of a prime-index "
                 "chain (S_3: 3, 2; D_8, Q_8: 2, 2, 2; A_4: 2, 2, 3; S_4: 2, 2, 3, 2)",
                 "largest depth / bound in the printed recursion": round(worst_depth, 4),
                 "depth factor": depth_factor})


@claim(id="AUT-Thm16-depth-recursion", paper=PAPER,
       reference="§3.4.4.3.3 proof of Theorem 16 (first bullet after 'Lemma 19, with H := K_i, "
       "N := H_i, implies')",
       statement="sim_{H_{i+1}}.depth <= sim_{K_i}.depth + 3 (1 more layer to simulate the "
       "cyclic group K_i, and 2 from the wreath product's mixing operations)",
       expected_verdict="erratum", defence=defence(
           "AUT-Thm16-depth-recursion", version=ONE_VERSION, regime=NO_REGIME,
           convention="No convention makes sim_{K_i}.depth grow: K_i is a cyclic group of "
           "prime order simulated by Lemma 15 in depth 1 (the proof's own list: 'sim_K.depth "
           "= 1'), so the printed right-hand side is 4 at every step.",
           definitions="Lemma 19 (H := K_i, N := H_i) gives depth = sim_{H_i}.depth + "
           "sim_{K_i}.depth + 2 = sim_{H_i}.depth + 3, which is what the parenthesis "
           "describes ('1 more layer ... and 2 from the wreath product's mixing') and what "
           "the stated total 3 log2|G| sums; the printed line bounds every depth by 4, false "
           "for the network the proof builds once l >= 3 (D_8, Q_8: depths 1, 4, 7).",
           parameters="The chains of S_3, D_8, Q_8, A_4, S_4 built with T = 3.",
           extraction="The accusation rests on one glyph, the letter K of sim_{K_i} where "
           "H belongs, so the extraction rule (paper_checks.ledger) asks for corroboration "
           "before accusing; if extraction had swapped the letter, the thesis's reader would "
           "see the right line and there would be no erratum. Corroborated by how this "
           "extraction treats the symbol class here: the line is carried as LaTeX "
           "('$sim_{K_i}$ .depth'), and the LaTeX-rendered bullets of the same list print "
           "sim_{H_{i+1}} four times, sim_{H_i} once and |K_i| six times, every letter and "
           "index in place; the one garbled bullet ('sim_{H_i},.mlpWidth' for sim_{H_{i+1}}) "
           "is rendered through HTML sub-tags and loses an index, not a letter. The "
           "parenthesis ('1 more layer to simulate the cyclic group K_i') shows how the "
           "author came to write K_i. A typo, not a false theorem (the total holds: "
           "AUT-Thm16-sizes)."), basis="exact", universal=True)
def aut_thm16_depth_recursion() -> ClaimResult:
    rows, printed_ok, corrected_ok = {}, True, True
    for name in CHAINS:
        _, steps, _ = _thm16(name, 3)
        depths = [st["depth"] for st in steps]
        rows[name] = depths
        k_depth = cyclic_simulator(2, 3).depth                  # sim_{K_i}.depth = 1
        printed_ok &= all(d <= k_depth + PARAMETERS.value("thm16_step_depth")
                          for d in depths[1:])
        corrected_ok &= all(b == a + PARAMETERS.value("thm16_step_depth")
                            for a, b in itertools.pairwise(depths))
    hand = {len(CHAINS[name]): 1 + 3 * (len(CHAINS[name]) - 1) for name in CHAINS}
    return ClaimResult(
        measured={"depth after each step of the chain": rows},
        reference_value="every step's depth <= sim_{K_i}.depth + 3 = 4",
        verdict=judge(printed_ok, corrected_ok), kind="typo",
        independent=Independent("Lemma 19's printed depth sim_N.depth + sim_H.depth + 2 "
                                "iterated by hand from sim_{H_1}.depth = 1: 1 + 3(l - 1) for "
                                "a chain of length l", hand,
                                all(rows[n][-1] == hand[len(CHAINS[n])] for n in CHAINS)),
        details={"printed": f"sim_{{K_i}}.depth + 3 = 4 for every step; the built depths are "
                 f"{rows}", "corrected": "sim_{H_{i+1}}.depth <= sim_{H_i}.depth + 3 (equality "
                 "in the construction), which sums to 3l - 2 <= 3 log2|G|"})


# -- Lemma 20 and the size chain into Theorem 11 ----------------------------------------------

#: Permutation-reset semiautomata for Lemma 20: the group (acting on its n points, so Phi is
#: the identity), its generators as inputs, and two resets.
RESET_GROUPS = ("S_3", "D_8", "A_4")


def _reset_symbols(name: str) -> list[tuple[str, Any]]:
    table: dict[str, list[tuple[int, ...]]] = {
           "S_3": [(1, 2, 0), (1, 0, 2)], "D_8": [(1, 2, 3, 0), (0, 3, 2, 1)],
            "A_4": [(1, 2, 0, 3), (1, 0, 3, 2)]}
    gens = table[name]
    return [("perm", g) for g in gens] + [("reset", 1), ("reset", 3)]


def _reset_reference(symbols: list[tuple[str, Any]], words: np.ndarray, q0: int) -> np.ndarray:
    """States 1..n by a plain loop over the inputs (no network, no group table)."""
    out = np.empty_like(words)
    for b, word in enumerate(words):
        q = q0
        for t, a in enumerate(word):
            kind, val = symbols[a]
            q = val if kind == "reset" else val[q - 1] + 1
            out[b, t] = q
    return out


@cache
def _lemma20(name: str, T: int, copy_prefix: bool = True) -> dict[str, Any]:
    sim_G, _, n = _thm16(name, T)
    symbols = _reset_symbols(name)
    words = np.array(list(itertools.product(range(len(symbols)), repeat=T)), dtype=np.int64)
    wrong = total = 0
    net = None
    for q0 in range(1, n + 1):
        net = permutation_reset_simulator(sim_G, n, {g: g for g in sim_G.group.elements},
                                          symbols, q0, copy_prefix=copy_prefix)
        wrong += int(np.sum(net.simulate(words) != _reset_reference(symbols, words, q0)))
        total += words.size
    assert net is not None
    return {"wrong": wrong, "total": total, "sizes": net.sizes(), "G": sim_G.sizes(),
            "|G|": sim_G.group.order, "|Q|": n}


@claim(id="AUT-Lemma20-reset", paper=PAPER, reference="§3.4.4.3.4 Lemma 20",
       basis="not_refuted", universal=True,
       statement="a permutation-reset semiautomaton with group G is continuously simulated "
       "with depth = depth_G + depth_M + 1, dim = dim_G + repDim_G + dim_M, heads = heads_G + "
       "heads_M, headDim = headDim_G + headDim_M + repDim_G, mlpWidth = mlpWidth_G + "
       "mlpWidth_M + |G|^2|Q|",
       perturbation=Perturbed("dim = dim_G + dim_M: no I channel, the memory copies the state "
                              "but not the prefix product at the reset", i_channel=False))
def aut_lemma20_reset(i_channel: bool = True) -> ClaimResult:
    T = 4
    rows, ok = {}, True
    for name in RESET_GROUPS:
        r = _lemma20(name, T, i_channel)
        s, g, n = r["sizes"], r["G"], r["|Q|"]
        P = PARAMETERS.value
        checks = {"depth": s["depth"] == g["depth"] + P("simM_depth") + P("lemma20_extra_depth"),
                  "dim": s["dim"] <= g["dim"] + g["repDim"] + P("simM_dim"),
                  "heads": s["heads"] <= g["heads"] + P("simM_heads"),
                  "headDim": s["headDim"] <= g["headDim"] + P("simM_head_dim") + g["repDim"],
                  "mlpWidth": s["mlpWidth"] <= g["mlpWidth"] + P("simM_mlp_width") * n
                  + r["|G|"] ** 2 * n}
        rows[f"{name} on {n} states"] = {"(wrong, total)": (r["wrong"], r["total"]),
                                         "sizes": s, "checks": checks}
        ok &= r["wrong"] == 0 and all(checks.values())
    return exact_result(
        measured=rows, reference_value="0 wrong; the printed sizes",
        what="0 errors on every word (T = 4, every start state); sizes on the weights",
        holds=ok,
        details={"construction": "sim_G = Theorem 16's recursion for the permutation group "
                 "(acting on its own points: Phi = identity); a memory layer (Lemma 16's head, "
                 "c = T log(16|Q|T)) whose value also copies the G channel into I; a Lemma 11 "
                 "MLP (g, h, q) -> Phi(g h^{-1})(q); the ⊥ pad read as a reset to q0 with the "
                 "identity ('We treat q0 like a reset symbol at the beginning')",
                 "inputs": "the group's two generators and resets to states 1 and 3",
                 "I channel": i_channel})


def _bookkeeping(primes: tuple[int, ...]) -> tuple[int, int]:
    """(dim, repDim) of Theorem 16's recursion as the proof counts them (dim 3 and repDim 1
    for H_1, then dim -> |K| dim + 1, repDim -> |K| repDim + 1)."""
    dim, rep = 3, 1
    for k in primes[1:]:
        dim, rep = k * dim + 1, k * rep + 1
    return dim, rep


@claim(id="AUT-Lemma20-sizes", paper=PAPER, reference="§3.4.4.3.4 Lemma 20 (its size list)",
       basis="exact", universal=True,
       statement="sim'_G.dim = dim_G + repDim_G + dim_M <= |G| + |Q| + 4 and sim'_G.headDim = "
       "headDim_G + headDim_M + repDim_G <= |Q| + 3", expected_verdict="unproven",
       defence=defence(
           "AUT-Lemma20-sizes", version=ONE_VERSION, regime=NO_REGIME,
           convention="Whether the ⊥ and position channels are shared between components "
           "changes dim by a constant per component (the built networks share them and are "
           "smaller than the proof's count); it does not change repDim, on which both "
           "inequalities fail.",
           definitions="The inequalities need repDim_G <= |Q| and dim_G <= |G| + |Q| - "
           "repDim_G; the proof justifies them by 'sim_G.repSize ... is at most |Q| by "
           "Theorem 16', but Theorem 16 bounds repSize (<= n), not repDim (<= 2|G|) or dim "
           "(<= 2|G|): from Theorem 16 only dim' <= 4|G| + 4 and headDim' <= 2|G| + 3 "
           "follow. The simulators Theorem 16's recursion builds exceed the printed bounds "
           "(D_8 on 4 points: repDim 7 > |Q| = 4), but a different sim_G (D_8 = C_4 x| C_2 by "
           "Lemma 18, repDim 2) meets them, so the lemma (existence) is not refuted: "
           "'unproven'.",
           parameters="S_3 (3 points), D_8, A_4, S_4 (4 points), Q_8 (8 points, regular); T = "
           "3 for the built networks.",
           extraction="'|G| + |Q| + 4' and '|Q| + 3' are intact and consistent with the "
           "equalities printed before them; the gap is in the bound used for repDim_G, not in "
           "a symbol."))
def aut_lemma20_sizes() -> ClaimResult:
    rows, violations = {}, []
    for name in CHAINS:
        sim, steps, n = _thm16(name, 3)
        order = sim.group.order
        primes = tuple(st["factor"] for st in steps)
        dim_book, rep_book = _bookkeeping(primes)
        built = {"dim'": sim.dim + sim.rep_dim + 4, "headDim'": sim.head_dim + 2 + sim.rep_dim}
        book = {"dim'": dim_book + rep_book + 4, "headDim'": 1 + 2 + rep_book}
        bound = {"dim'": order + n + 4, "headDim'": n + 3}
        rows[f"{name} (|G| = {order}, |Q| = {n})"] = {"built": built, "proof's count": book,
                                                       "printed bound": bound}
        violations += [f"{name} {k}" for k in bound if built[k] > bound[k]]
    # existence not refuted: D_8 = C_4 x| C_2 (Lemma 18) has repDim 2
    witness = semidirect_simulator(cyclic_simulator(4, 3), cyclic_simulator(2, 3),
                                   lambda h, g: g if h == 0 else (-g) % 4)
    D8 = _permutation_group("D_8")
    witness = witness.restrict(D8, find_embedding(D8, witness.group))
    wrong, _ = _errors(witness, 3)
    w = {"dim'": witness.dim + witness.rep_dim + 4, "headDim'": witness.head_dim + 2
         + witness.rep_dim}
    witness_ok = wrong == 0 and w["dim'"] <= 8 + 4 + 4 and w["headDim'"] <= 4 + 3
    hand = {"D_8": _bookkeeping((2, 2, 2)), "A_4": _bookkeeping((2, 2, 3))}
    return ClaimResult(
        measured={"sizes of sim'_G": rows, "printed bounds exceeded": violations,
                  "D_8 via Lemma 18 (wrong words, dim', headDim')": (wrong, w["dim'"],
                                                                       w["headDim'"])},
        reference_value="dim' <= |G| + |Q| + 4, headDim' <= |Q| + 3", verdict="unproven",
        kind="proof",
        independent=Independent("the proof's recursion counted by hand: D_8 (2, 2, 2) gives "
                                "(dim, repDim) = (15, 7), A_4 (2, 2, 3) gives (22, 10)", hand,
                                hand == {"D_8": (15, 7), "A_4": (22, 10)} and bool(violations)
                                and witness_ok),
        details={"why": "the printed bounds need repDim_G <= |Q|, which Theorem 16 does not "
                 "give (repDim <= 2|G|); the networks its recursion builds exceed them "
                 f"({violations}); a Lemma 18 simulator of D_8 meets them (dim', "
                 f"headDim') = {tuple(w.values())}, so the lemma is not refuted"})


def _log(x: float) -> float:
    return math.log(x)


@claim(id="AUT-Thm11-norm-chain", basis="numeric", universal=True, paper=PAPER,
       reference="§3.4.4.3.4 Lemmas 20-21 (normBound lines) and Theorem 11 (formal)",
       statement="max{sim_G.normBound, sim_M.normBound, 6|Q|} <= 6|Q| T log T (Lemma 20), and "
       "Lemma 21's max{6|Q|T log T, 2^|Q|(|T(A)| + 5|Q|)} + 6 max{|Q|, |Sigma|} gives Theorem "
       "11's 'weight norms bounded by 6|Q| T log T + 6 max{|Q|, |Sigma|}'",
       expected_verdict="unproven", defence=defence(
           "AUT-Thm11-norm-chain", version=ONE_VERSION,
           regime="For large T both steps hold: 6|Q|T log T exceeds 6nT (n <= |Q|), 2T "
           "log(|Q|T) and 6|Q| once T >= 3, and exceeds 2^|Q|(|T(A)| + 5|Q|) once T log T >= "
           "2^|Q|(|T(A)| + 5|Q|)/(6|Q|). Theorem 11 is stated for every T >= 1 with an explicit "
           "(not O(.)) norm bound, so the small-T cases are inside the statement; its other "
           "sizes are O(.) and unaffected.",
           convention="Natural logarithm (log 2 = 0.69 makes T = 2 fail; with log base 2, "
           "6|Q|T log2 T = 12|Q| at T = 2 equals 6nT for n = |Q| and T = 1 still fails).",
           definitions="The norm of a network is its largest weight or bias (§3.1). Lemma 21's "
           "wiring MLPs have b_2 = d_in (Lemma 11's AND of d_in indicators) with d_in <= "
           "2^|Q|(|T(A)| + 5|Q|), printed in its proof; Theorem 11 drops that term. Neither "
           "gap refutes Theorem 11 (another construction may meet the bound; at T = 1 a "
           "network with residual connections and arbitrary E, W needs no weights), hence "
           "'unproven'.",
           parameters="Automata: the flip-flop (|Q| = 2, |T(A)| = 3, |Sigma| = 3) and Grid_3 "
           "(sizes measured); |Q| in {2, 3, 4, 8}; T = 1..64; the built Lemma 20 network for "
           "S_3 on 3 states at T = 2, 3.",
           extraction="The three printed bounds are intact and mutually consistent in form; "
           "the missing term 2^|Q|(|T(A)| + 5|Q|) is a whole summand, not a symbol."))
def aut_thm11_norm_chain() -> ClaimResult:
    from seprank.automata import flip_flop, gridworld  # local: only this claim needs them
    lemma20_fail = {}
    for Q in (2, 3, 4, 8):
        fails = [T for T in range(1, 65)
                 if max(6 * Q * T, 2 * T * _log(Q * T), 6 * Q) > 6 * Q * T * _log(T) + 1e-12]
        lemma20_fail[f"|Q|={Q}"] = fails
    automata = {"flip-flop": flip_flop(), "Grid_3": gridworld(2)}
    thm11 = {}
    for name, A in automata.items():
        Q, S = A.n_states, A.n_symbols
        size = A.transformation_semigroup().size
        extra = 2 ** Q * (size + 5 * Q)
        gap_T = [T for T in range(1, 65) if 6 * Q * T * _log(T) < extra]
        thm11[name] = {"|Q|": Q, "|T(A)|": size, "|Sigma|": S,
                       "2^|Q|(|T(A)| + 5|Q|)": extra,
                       "T where Lemma 21 exceeds Theorem 11": (min(gap_T), max(gap_T))}
    # built Lemma 20 networks at T = 2 and 3 against 6|Q|T log T
    built = {}
    for T in (2, 3):
        r = _lemma20("S_3", T)
        built[f"S_3 on 3 states, T={T}"] = (r["sizes"]["normBound"],
                                            round(6 * 3 * T * _log(T), 3))
    hand = {"T = 2, |Q| = 3": (max(6 * 3 * 2, 2 * 2 * math.log(6), 18),
                                round(36 * math.log(2), 4)),
            "flip-flop": (4 * (3 + 10), round(12 * 3 * math.log(3), 4))}
    agrees = (hand["T = 2, |Q| = 3"][0] > hand["T = 2, |Q| = 3"][1]
              and hand["flip-flop"][0] > hand["flip-flop"][1]
              and all(1 in f and 2 in f for f in lemma20_fail.values()))
    return ClaimResult(
        measured={"T with max{6nT, 2T log(|Q|T), 6|Q|} > 6|Q|T log T": lemma20_fail,
                  "Theorem 11 vs Lemma 21": thm11,
                  "built Lemma 20 networks (normBound, 6|Q|T log T)": built},
        reference_value="the chain of bounds", verdict="unproven", kind="proof",
        independent=Independent("closed forms by hand: at T = 2, |Q| = n = 3 the left side is "
                                "6nT = 36 > 36 log 2 = 24.95; the flip-flop's dropped term "
                                "4(3 + 10) = 52 > 12 T log T = 39.55 at T = 3", hand, agrees),
        details={"why": "two steps of the norm chain fail for small T: Lemma 20's '<= 6|Q|T "
                 "log T' (T = 1, 2: 6|Q|T log T is 0 and 8.3|Q|, below sim_G's 6nT bound), "
                 "and Theorem 11's bound drops Lemma 21's 2^|Q|(|T(A)| + 5|Q|) (for the "
                 "flip-flop until T = 4, for Grid_3 longer). The built networks can sit below "
                 "6|Q|T log T (their actual norms are smaller than the proof's bounds), and no "
                 "lower bound on the norm is known, so the theorem is not refuted"})
