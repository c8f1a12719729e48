"""In-context bias (000/001): Theorems 1-3 and the Theorem 2 lower-bound pipeline.

Notes checks PC-6 (Theorem 3 hypotheses, depth-deficit arithmetic), PC-7 (the explicit Theorem 3
bound at small sizes), PC-8/PC-9 (Hadamard powers, Lemmas 10, 11, 15, the construction).
Reference values are computed from the printed formulas by hand in the notes; the code only
measures.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from paper_checks.claims.incontext.common import ATTACK_DATE, PARAMETERS, REVIEWER
from paper_checks.defence import Attack, Defence
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Independent, Margin, claim, claim_quick_full, judge
from paper_checks.seeds import setting_seed
from seprank import eps_rank, matrix_rank
from seprank.core.log3 import log3
from seprank.d2w.bounds import multiset_coefficient
from seprank.d2w.hadamard import hadamard_power_gram, hadamard_power_rank, rational_sphere_V
from seprank.d2w.theorems import theorem4_upper
from seprank.incontext.bounds import (
    bidegree_bound,
    depth_deficit,
    sequential_ceiling,
    theorem1_exponent,
)
from seprank.incontext.lower import (
    hadamard_construction,
    lemma11_count,
    lemma15_exact_bound,
    sphere_rows,
)
from seprank.incontext.theorems import (
    minimal_depth_theorem3,
    theorem2_epsilon,
    theorem3_bound,
    theorem3_hypotheses,
    theorem3_log3_bound,
)

WIDTHS = (4, 8, 16, 64, 768)
ETAS = ("0.5", "0.1", "1e-2", "1e-4", "1e-6")
# notes PC-6, computed by hand from the three depth hypotheses
MIN_DEPTH_NOTES = {4: (4, 5, 7, 11, 15), 8: (5, 5, 7, 11, 16), 16: (7, 6, 8, 12, 16),
                   64: (9, 9, 9, 13, 17), 768: (14, 13, 13, 16, 20)}
# notes PC-7: (d_x, L, N, eta) -> log3 of the explicit Theorem 3 bound at Y = 0
PC7 = {(2, 3, 1, 0.5): 37.90, (3, 4, 2, 0.5): 64.83, (4, 4, 2, 0.5): 81.10,
       (4, 5, 2, 0.1): 95.00, (8, 7, 2, 0.01): 224.37}
# notes PC-8 (d, lambda) rows with the example (d_x, H, L)
PIPELINE_QUICK = ((2, 3), (2, 9), (3, 9), (4, 9))
PIPELINE_FULL = ((5, 9), (3, 27))


@claim(
    id="ICB-Thm1-hypotheses", basis="exact", universal=True,
    paper="000",
    reference="Theorem 1 (main text) vs Theorem 3 (App. B) hypotheses; notes PC-6",
    statement="Theorem 1: if 0 < Lambda_min <= |theta|, |dL/dtheta| <= Lambda_max, N < d_x and "
    "L > log_3 d_x, then log eps-seq-sep(y_seq) = O~([L + 0.5 log_3 eta] d_x) for all eps > 0",
    expected_verdict="erratum",
    defence=Defence(
        version="Both versions state Theorem 1 with the same hypotheses (000 Sec. 2.3: "
                "'0 < Lambda_min <= |theta|, |dL(S1)/dtheta| <= Lambda_max, N < d_x, and that "
                "L > log_3 d_x'; 001 the same in LaTeX); both appendices (000 and 001, App. B) "
                "state Theorem 3 with eta in (0,1], 2(1+eta) d_x/eta < 3^L and 2(1+eta) d_x^2 "
                "< 3^L added. The omission is in both versions.",
        regime="O~ hides constants and log factors, not the sign of the bracket: for fixed L "
               "(> log_3 d_x) and eta -> 0 the right side L + 0.5 log_3 eta -> -infinity while "
               "log eps-seq-sep >= 0 for a non-zero function; and eta -> 0 is exactly the regime "
               "the text draws its conclusion in ('Since the learning rate eta is a small term, "
               "its log is negative'). Read asymptotically in L at fixed eta the bound is fine, "
               "but then it says nothing about small eta. The appendix's 2(1+eta)d_x/eta < 3^L "
               "is what keeps the bracket above L/2.",
        convention="No notational convention makes a non-positive upper bound on the log of a "
                   "rank >= 1 meaningful; 'log' base does not change the sign.",
        definitions="eps-seq-sep as defined in Sec. 2.2 (>= 1 for a non-zero Z, so its log is "
                    ">= 0); eta the single SGD step's learning rate (eq. 5).",
        parameters="Evaluated at d_x in {4, 8, 16, 64, 768}, eta in {0.5, 0.1, 1e-2, 1e-4, "
                   "1e-6} (the paper's common range [1e-6, 1e-4] included), L = 1..24: 28 "
                   "settings meet the printed hypotheses with L + 0.5 log_3 eta <= 0 (e.g. d_x = "
                   "4, L = 2, eta = 1e-2: bracket -0.10); with Theorem 3's hypotheses all 357 "
                   "settings have bracket > L/2.",
        extraction="001 prints the theorem in LaTeX ('L > \\log_3 d_x', '[L+0.5\\log_3("
                   "\\eta)]'); 000's extraction garbles symbols ('Λmaχ,2 N < dχ', where '2' "
                   "is footnote 2) but lists the same hypotheses. No hypothesis of Theorem 3 "
                   "could hide in a dropped symbol: they are whole inequalities.",
        attack=Attack(
            reviewer=REVIEWER, date=ATTACK_DATE, outcome='revised',
            summary=('Upheld: the best defence (O~ asymptotic in L, the bracket eventually '
                     "positive at fixed eta) fails because the paper's variable is eta (the "
                     'deficit at eta in [1e-6, 1e-4]; at fixed L the bracket -> -inf) and Theorem '
                     '1 points to App. B, whose Theorem 3 carries the omitted hypotheses; d_x = 4, '
                     'L = 2, eta = 1e-2 gives bracket -0.096. The analytic bound (3^L > '
                     '2(1+eta)d_x/eta gives a bracket > L/2) is now in the details, and, as the '
                     "reviewer added, 000's Theorem 3 also assumes Z^+ < M on its domain (001's "
                     'does not): the corrected statement carries it.')),
    ),
)
def icb_thm1_hypotheses() -> ClaimResult:
    printed_bad, corrected_bad, corrected_n, own_bad = [], [], 0, 0
    for d_x in WIDTHS:
        for eta_s in ETAS:
            eta = float(eta_s)
            for L in range(1, 25):
                h = theorem3_hypotheses(d_x, L, 1, eta_s)
                expo = theorem1_exponent(d_x, L, eta)
                if h["depth_above_log3_width"] and expo <= 0:
                    printed_bad.append((d_x, L, eta_s, round(expo, 2)))
                # independent: L > log3 d_x and L + 0.5 log3 eta <= 0, by hand
                own_bad += d_x < 3**L and L + 0.5 * math.log(eta, 3) <= 0
                if h["all"]:
                    corrected_n += 1
                    if expo < L * d_x / 2:
                        corrected_bad.append((d_x, L, eta_s))
    table = {d: tuple(minimal_depth_theorem3(d, e) for e in ETAS) for d in WIDTHS}
    return ClaimResult(
        measured={"settings meeting Thm 1's printed hypotheses with exponent <= 0":
                  len(printed_bad), "Thm 3 settings with exponent < L d_x / 2":
                  len(corrected_bad)},
        reference_value=0,
        verdict=judge(not printed_bad, not corrected_bad and table == MIN_DEPTH_NOTES),
        kind="hypothesis",
        independent=Independent("3^L > d_x and L + 0.5 log_3 eta <= 0 counted by hand; the "
                                "minimal depths computed by hand in the notes (PC-6)",
                                own_bad, own_bad == len(printed_bad)),
        details={
            "printed": f"{len(printed_bad)} settings satisfy L > log_3 d_x (main text) with "
                       f"L + 0.5 log_3 eta <= 0, e.g. {printed_bad[:4]}: read literally, eq. 11 "
                       "would bound the log of a rank >= 1 by a non-positive quantity",
            "corrected": f"with Theorem 3's hypotheses (2(1+eta)d_x/eta < 3^L, 2(1+eta)d_x^2 < "
                         f"3^L, eta in (0,1]) the exponent is >= L d_x / 2 in all "
                         f"{corrected_n} settings (analytically: 3^L > 2(1+eta)d_x/eta gives "
                         "L + 0.5 log_3 eta > L/2): the main-text statement omits hypotheses its "
                         "appendix proof needs (incomplete, not false); 000's Theorem 3 also "
                         "assumes Z^+ < M on its domain for some M >= 0, which the corrected "
                         "statement carries too (001's Theorem 3 does not print it)",
            "minimal depth for Theorem 3 (rows d_x, columns eta)": {str(k): v for k, v in
                                                                   table.items()},
            "BERT-base (d_x=768, L=12)": f"Theorem 3 needs L >= {table[768][3]} at eta=1e-4",
        },
    )


@claim(
    id="ICB-depth-deficit", basis="numeric",
    paper="000",
    reference="Sec. 2.3, after Theorem 2 (also the introduction)",
    statement="Common learning rates eta in [1e-6, 1e-4] imply a depth deficit 0.5 log_3(1/eta) "
    "of ~6 layers",
    perturbation=Perturbed("a deficit of ~7 layers (the next integer)", layers=7),
)
def icb_depth_deficit(layers: int = PARAMETERS.value("depth_deficit_layers")) -> ClaimResult:
    small, large = PARAMETERS.value("learning_rates")
    lo, hi = depth_deficit(large), depth_deficit(small)
    claimed = layers
    # '~6' read as: 6 is attained (to rounding) somewhere in the stated range of eta
    attained = round(lo) <= claimed <= round(hi)
    eta_six = 3.0 ** (-2 * claimed)
    return ClaimResult(
        measured={"eta=1e-4": round(lo, 3), "eta=1e-5": round(depth_deficit(1e-5), 3),
                  "eta=1e-6": round(hi, 3)},
        reference_value=f"~{claimed}",
        verdict=judge(attained),
        margin=Margin(math.log10(hi / (claimed - 0.5)), "deficit at eta = 1e-6 / 5.5 (the "
                      "lower edge of what rounds to 6)"),
        details={"reading": f"the deficit runs from {lo:.2f} (eta = 1e-4) to {hi:.2f} (eta = "
                            f"1e-6), {depth_deficit(1e-5):.2f} mid-range; it equals {claimed} at "
                            f"eta = {eta_six:.2g}, inside the range: '~6' is loose wording for "
                            "the small-eta end, not an error",
                 "hand values (notes)": "4.192, 5.240, 6.288"},
    )


@functools.lru_cache(maxsize=1)
def theorem3_sweep() -> dict[str, int]:
    """Every (d_x, L, N, eta) with d_x = 2..12, N < d_x, eta in {1, .5, .1, 1e-2, 1e-4, 1e-6}
    and L from Theorem 3's minimal depth to +3: how often the explicit bound (Y = 0) is below
    the trivial count, the ceiling m(3^L) and the in-context bounds."""
    out = {"settings": 0, "below 2^N|D~|": 0, "below m(3^L)": 0, "below in-context": 0}
    for d_x in range(2, 13):
        for eta in ("1", "0.5", "0.1", "1e-2", "1e-4", "1e-6"):
            first = minimal_depth_theorem3(d_x, eta)
            for L in range(first, first + 4):
                for N in range(1, d_x):
                    b = theorem3_bound(d_x, L, N, float(eta))
                    out["settings"] += 1
                    out["below 2^N|D~|"] += b.log3_bound < b.log3_trivial_count
                    out["below m(3^L)"] += b.log3_bound < b.log3_sequential_ceiling
                    out["below in-context"] += b.log3_bound < min(b.log3_in_context_pb,
                                                                   b.log3_levine_thm4)
    return out


@claim(
    id="ICB-Thm3-explicit-bound", basis="numeric",
    paper="001",
    reference="Theorem 3, final display of App. B; notes PC-7",
    statement="eps-seq-sep(y_seq) <= 2(2C+1)/(d_x-1)^2 (25 sqrt(eta)/(d_x-1))^(d_x-1) "
    "2^(3N) (e(2d_x+2C+1))^(4d_x) / ((1+Y)^2 d_x^(2d_x))",
    category="consistency",
)
def icb_thm3_explicit_bound() -> ClaimResult:
    """Consistency: the explicit bound lies above the exact ceiling m(3^L) on seq-sep (our
    derivation) wherever its hypotheses hold, so it holds automatically; what it fails to
    deliver is ICB-Thm3-depth-deficit-explicit."""
    rows, ok = [], True
    for (d_x, L, N, eta), hand in PC7.items():
        b = theorem3_bound(d_x, L, N, eta)
        holds = b.log3_bound >= b.log3_sequential_ceiling
        ok &= holds and b.hypotheses["all"] and abs(b.log3_bound - hand) < 0.01
        rows.append({"(d_x,L,N,eta)": (d_x, L, N, eta), "hyp": b.hypotheses["all"],
                     "log3 explicit": round(b.log3_bound, 2), "notes": hand,
                     "log3 2^N|D~|": round(b.log3_trivial_count, 2),
                     "log3 m(3^L)": round(b.log3_sequential_ceiling, 2),
                     "log3 [003] Thm4": round(b.log3_levine_thm4, 2),
                     "log3 PB": round(b.log3_in_context_pb, 2), "vacuous": b.vacuous})
    sweep = theorem3_sweep()
    ok &= sweep["below m(3^L)"] == 0
    return ClaimResult(
        measured=[r["log3 explicit"] for r in rows],
        reference_value=[r["log3 m(3^L)"] for r in rows],
        verdict=judge(ok),
        details={"table": rows, "sweep": sweep, "finding": "holds only vacuously: the explicit "
                 "bound is above the trivial count 2^N|D~|, the exact ceiling m(3^L) and even "
                 "the in-context bounds in every setting evaluated where its hypotheses hold"},
    )


def _log3_explicit_by_hand(d_x: int, L: int, N: int, eta: float) -> float:
    """The final display of App. B at Y = 0, in mpmath (written here)."""
    C = (3**L - 1) // 2
    x = (mpmath.log(2 * (2 * C + 1)) - 2 * mpmath.log(d_x - 1)
         + (d_x - 1) * mpmath.log(25 * mpmath.sqrt(eta) / (d_x - 1)) + 3 * N * mpmath.log(2)
         + 4 * d_x * mpmath.log(mpmath.e * (2 * d_x + 2 * C + 1)) - 2 * d_x * mpmath.log(d_x))
    return float(x / mpmath.log(3))


def _log3_levine_thm4_by_hand(d_x: int, L: int) -> float:
    """log_3 of 003's Theorem 4 bound d_x (C+1) binom(d_x + 2C - 1, 2C) (2C/d_x + 1)^{d_x}."""
    C = (3**L - 1) // 2
    lg = mpmath.loggamma
    x = (mpmath.log(d_x * (C + 1)) + lg(d_x + 2 * C) - lg(2 * C + 1) - lg(d_x)
         + d_x * mpmath.log(mpmath.mpf(2 * C) / d_x + 1))
    return float(x / mpmath.log(3))


@functools.lru_cache(maxsize=1)
def _deficit_sweep() -> tuple[tuple[tuple[int, int, int, str], float, float, float, float], ...]:
    """(setting, log3 explicit, log3 in-context bound at depth L, hand explicit, hand Thm 4) for
    d_x up to 768, every eta of the paper's range and L from Theorem 3's minimal depth + 0..2."""
    rows = []
    for d_x in (4, 8, 16, 64, 768):
        for eta in ("0.5", "1e-2", "1e-4", "1e-6"):
            first = minimal_depth_theorem3(d_x, eta)
            for L in range(first, first + 3):
                for N in sorted({1, d_x // 2, d_x - 1}):
                    explicit = theorem3_log3_bound(d_x, L, N, float(eta))
                    thm4 = float(theorem4_upper(width=d_x, depth=L).log3)
                    # PB (our sharper in-context bound) is a sum over C(L) terms: small d_x only
                    ctx = min(thm4, float(log3(bidegree_bound(d_x, L)))) if d_x <= 16 else thm4
                    rows.append(((d_x, L, N, eta), explicit, ctx,
                                 _log3_explicit_by_hand(d_x, L, N, float(eta)),
                                 _log3_levine_thm4_by_hand(d_x, L)))
    return tuple(rows)


@claim(
    id="ICB-Thm3-depth-deficit-explicit", basis="numeric", universal=True,
    paper="001",
    reference="Theorem 3 (App. B) read as in Sec. 2.3; notes §3.4, PC-7",
    statement="The explicit Theorem 3 bound establishes the gap: the sequential representation "
    "is bounded by that of a network shallower by 0.5 log_3(1/eta) layers seen in context",
    expected_verdict="unproven",
    defence=Defence(
        version="Both versions make the claim (000 and 001 Sec. 2.3: 'the established gap "
                "implies that the power of the joint representation ... is upper bounded by that "
                "of a network shallower by 0.5 log_3(eta^-1) layers'; 'a deficit of ~6 layers') "
                "and prove Theorem 3 with the same explicit bound in App. B. Both also say 'a gap "
                "between upper bounds ... is indicated' and 'The weaker upper bound, of the "
                "sequential case, is not guaranteed to be tight'.",
        regime="In O~ form both sides hide constants: under Theorem 3's hypothesis 3^L > "
               "2(1+eta)d_x/eta one has L + 0.5 log_3 eta > L/2, so any O~(L d_x) bound is also "
               "O~([L + 0.5 log_3 eta] d_x) and the O~ comparison carries no depth deficit. A "
               "deficit of 0.5 log_3(1/eta) layers needs the explicit constants, and the proof's "
               "explicit bound (log_3 ~ d_x(4L + 0.5 log_3 eta) + ...) is above even the "
               "in-context bound at the full depth L in every setting evaluated. The gap itself "
               "is not refuted; this proof does not establish it.",
        convention="'Shallower by k layers' compares the two bounds at depths L and L - k on "
                   "the same scale (log_3 of a rank), as the text does.",
        definitions="The explicit bound of Theorem 3's proof (App. B, final display, Y = 0 "
                    "the most favourable), the in-context bound of Corollary 1 as 003's "
                    "Theorem 4 (and our exact PB for d_x <= 16).",
        parameters="1764 settings: d_x = 2..12 with every N < d_x and eta in {1, .5, .1, 1e-2, "
                   "1e-4, 1e-6}, and d_x in {4, 8, 16, 64, 768} with N in {1, d_x/2, d_x - 1} "
                   "and eta in {0.5, 1e-2, 1e-4, 1e-6} (the paper's range included), L from "
                   "Theorem 3's minimal depth + 0..3; min log_3(explicit / in-context) = 68.45.",
        extraction="001's LaTeX carries the whole explicit display and Theorem 3's "
                   "hypotheses, which is what we evaluate; 000's extraction garbles them (e.g. "
                   "'2(I+η...x < 3L') but its words state the same hypotheses. The verdict rests "
                   "on a margin of 3^68 over the whole display, not on one symbol.",
        attack=Attack(
            reviewer=REVIEWER, date=ATTACK_DATE, outcome='upheld',
            summary=('Own evaluation of the final explicit bound at Y = 0 (Y only lowers it, '
                     "negligibly for eps < 1/2) against 003's Theorem 4 at the same depth, d_x in "
                     "{2,3,4,8,12,64,768}, eta in {1, 0.1, 1e-2, 1e-4, 1e-6}, L from Theorem 3's "
                     'minimal depth to +3: the explicit bound is above the full-depth in-context '
                     "bound everywhere, min log3 ratio 27.4 (d_x = 2, eta = 1, L = 3; our grid's "
                     'minimum 68.45, same direction). E.g. d_x = 8, eta = 1e-4, L = 11: 345 '
                     'against 154, and even depth 14 gives only 202. The bound grows like d_x(4L + '
                     '0.5 log3 eta) against about 2 d_x L; in O~ form the bracket lies in (L/2, '
                     'L]. Unproven (proof) is correct.')),
    ),
)
def icb_thm3_depth_deficit_explicit() -> ClaimResult:
    rows = _deficit_sweep()
    gains = [r for r in rows if r[1] < r[2]]
    sweep = theorem3_sweep()
    excess = min(r[1] - r[2] for r in rows)
    agree = all(abs(r[1] - r[3]) < 1e-6 * max(1.0, abs(r[3])) for r in rows) and all(
        abs(r[2] - r[4]) < 1e-6 * max(1.0, abs(r[4])) for r in rows if r[0][0] > 16)
    no_gain = not gains and sweep["below in-context"] == 0
    return ClaimResult(
        measured={"settings": len(rows) + sweep["settings"],
                  "where the explicit bound is below the in-context bound at depth L":
                      len(gains) + sweep["below in-context"],
                  "min log3(explicit / in-context bound)": round(excess, 2)},
        reference_value="below the in-context bound at depth L - 0.5 log_3(1/eta)",
        verdict="unproven" if no_gain else "holds", kind="proof" if no_gain else None,
        independent=Independent("the explicit bound (Y = 0) and 003's Theorem 4 bound in mpmath "
                                "(loggamma), written here", f"min log3 ratio {excess:.2f}", agree),
        details={"sweep": sweep, "large widths": f"d_x in (4, 8, 16, 64, 768), eta in 0.5..1e-6, "
                 "L from Theorem 3's minimal depth + 0..2, N in {1, d_x/2, d_x-1}: "
                 f"{len(rows)} settings, none below",
                 "why": "the proof's sufficient condition forces |G| >= |D|/(1+Y) >= |D|/2 "
                        "(Y <= 1 for any non-trivial eps), and log_3 |D~| ~ 2 d_x L has no "
                        "eta-improvement; the explicit bound is above even the in-context bound "
                        "at the full depth L, so it cannot show a deficit: the gap is not "
                        "established by this proof, which is not the same as false; eq. 11 "
                        "itself is implied by the trivial O~(L d_x) under the hypothesis "
                        "3^L > 2(1+eta)d_x/eta (then L + 0.5 log_3 eta > L/2)"},
    )


@claim(
    id="ICB-Thm2-eps-consistency", basis="not_refuted", universal=True,
    paper="001",
    reference="Theorem 2 (main text, eps garbled) vs App. C.2 (eps <= 1/(4n^2))",
    statement="Theorem 2 holds with eps = O~(binom(3^L+d_x-1, 3^L)^-1) [reconstructed]: the "
    "appendix threshold 1/(4n^2), n = ((d 3^(L-2))), is at least that eps",
    perturbation=Perturbed("the main-text eps with 3^L read as lambda = 3^{L-2}, the "
                           "construction's Hadamard power: eps = binom(3^{L-2} + d_x - 1, "
                           "3^{L-2})^-1", ceiling_depth_offset=-2),
)
def icb_thm2_eps_consistency(ceiling_depth_offset: int = 0) -> ClaimResult:
    rows, ratios = [], []
    for d_x in (3, 5, 7, 9, 15, 33):
        for H in (h for h in range(1, d_x) if d_x % h == 0 and (d_x // h) % 2 == 1):
            for L in (2, 3, 4, 5, 6):
                t = theorem2_epsilon(d_x, H, L)
                eps_main = t.eps_main_text
                if ceiling_depth_offset:    # 1/m(3^(L + offset)), m(k) = binom(k + d_x - 1, k)
                    k = 3 ** (L + ceiling_depth_offset)
                    eps_main = Fraction(1, math.comb(k + d_x - 1, k))
                ratios.append(float(mpmath.log10(mpmath.mpf(t.eps_001.numerator)
                                                 * eps_main.denominator)
                                    - mpmath.log10(mpmath.mpf(t.eps_001.denominator)
                                                   * eps_main.numerator)))
                rows.append((d_x, H, L, float(eps_main), float(t.eps_001)))
    tightest = min(ratios)
    ok = all(r >= 0.0 for r in ratios)
    return ClaimResult(
        measured=len(rows), reference_value="eps_main <= 1/(4n^2) everywhere",
        verdict=judge(ok), margin=Margin(tightest, "min (1/(4n^2)) / eps_main"),
        details={"rows (d_x, H, L, eps_main, 1/(4n^2))": rows[:12],
                 "also": "1/(4n^2) <= 1/(2n^2) (000's threshold) trivially",
                 "note": "a lower bound on the eps-rank at a larger eps implies it at every "
                 "smaller eps, so the appendix statement implies the main-text one"},
    )


@functools.cache
def _pipeline_rows(rows_spec: tuple[tuple[int, int], ...]) -> tuple[dict[str, Any], ...]:
    rows = []
    for d, lam in rows_spec:
        n = multiset_coefficient(d, lam)
        B = sphere_rows(n, d, seed=setting_seed(0, "sphere rows", d, lam))
        M = hadamard_power_gram(B, lam)
        r, lemma11_bound = lemma11_count(M)
        lower = eps_rank(M, 1 / (2 * n * n)).lower  # Lemma 10 with eps' = 1/n
        draws = 20 if n <= 300 else 5
        fro = [float(np.linalg.norm(hadamard_power_gram(sphere_rows(n, d, seed=s), lam)))
               for s in range(draws)]
        jensen, printed = lemma15_exact_bound(d, lam)
        # certified rank on exact rational unit rows (GF(p); full rank is exact)
        V = rational_sphere_V(n, d, seed=setting_seed(0, "rational rows", d, lam))
        cert = hadamard_power_rank(V, lam, seed=1)
        rows.append({"d": d, "lambda": lam, "n": n, "rank M": cert.rank,
                     "float SVD rank": matrix_rank(M, method="svd").rank,
                     "r = #ev > 1/n": r, "(n-1)/||M||_F": lemma11_bound,
                     "(1/2n^2)-rank >=": lower, f"mean ||M||_F ({draws} draws)":
                         float(np.mean(fro)), "sqrt(E||M||^2)": jensen,
                     "sqrt(d+1) n^(3/4)": printed,
                     "guaranteed n^(1/4)/(2 sqrt(d+1))": n**0.25 / (2 * math.sqrt(d + 1))})
    return tuple(rows)


def _pipeline(rows_spec: tuple[tuple[int, int], ...], lemma15_exponent: float) -> ClaimResult:
    rows = _pipeline_rows(rows_spec)
    slacks = []            # log10 room of each printed inequality
    ok = all(r["rank M"] == r["n"] for r in rows)
    for r in rows:
        fro = next(v for k, v in r.items() if k.startswith("mean ||M||_F"))
        lemma15 = math.sqrt(r["d"] + 1) * r["n"] ** lemma15_exponent
        slacks += [math.log10(r["r = #ev > 1/n"] / r["(n-1)/||M||_F"]),     # Lemma 11
                   math.log10(r["(1/2n^2)-rank >="] / r["r = #ev > 1/n"]),  # Lemma 10
                   math.log10(lemma15 / fro),                                 # Lemma 15
                   math.log10(lemma15 / r["sqrt(E||M||^2)"])]
    tightest = min(slacks)
    ok &= all(x >= 0.0 for x in slacks)
    return ClaimResult(
        measured=[(r["n"], r["rank M"], r["r = #ev > 1/n"]) for r in rows],
        reference_value="rank = n, r >= (n-1)/||M||_F, (1/2n^2)-rank >= r, E||M||_F <= "
                        "sqrt(d+1) n^(3/4)",
        verdict=judge(ok), margin=Margin(tightest, "tightest of Lemmas 10, 11, 15 (ratios)"),
        details={"table": [{k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()}
                           for r in rows],
                 "sphere": "rows uniform on S^(d-1) in R^d (notes §7.2)",
                 "rank certification": "GF(p) rank of (BB^T)^lambda for exact rational unit "
                 "rows (full rank => exact); the float SVD rank is shown beside it"},
    )


@claim_quick_full(
    id="ICB-Thm2-pipeline", quick={"rows_spec": PIPELINE_QUICK},
    basis="not_refuted", universal=True,
    full={"rows_spec": PIPELINE_FULL}, paper="001",
    reference="App. C.2: Lemmas 10, 11, 15 and rank (BB^T)^(Hadamard lambda); notes PC-8",
    statement="For B with n = ((d lambda)) unit rows, M = (BB^T)^(Hadamard lambda) has rank n, "
    "#eigenvalues > 1/n >= (n-1)/||M||_F (Lemma 11), (1/(2n^2))-rank(M) >= that (Lemma 10) "
    "and E||M||_F <= sqrt(d+1) n^(3/4) (Lemma 15)",
    perturbation=Perturbed("Lemma 15's exponent 3/4 lowered to 1/2: E||M||_F <= sqrt(d+1) "
                           "n^(1/2)", lemma15_exponent=0.5),
)
def icb_thm2_pipeline(rows_spec: tuple[tuple[int, int], ...],
                      lemma15_exponent: float = 0.75) -> ClaimResult:
    return _pipeline(rows_spec, lemma15_exponent)


@functools.cache
def _construction_rows() -> tuple[tuple[dict[str, Any], Any, Any, Any], ...]:
    out = []
    for d, L, N in ((2, 3, 1), (2, 3, 2), (1, 4, 1), (2, 4, 1)):
        lam = (3 ** (L - 1) - 1) // 2
        n = multiset_coefficient(d, lam)
        A = rational_sphere_V(n, d, seed=setting_seed(0, "construction", d, L))
        c = hadamard_construction(A, depth=L, n_tokens=N)
        G = c.representation.grid(c.a_templates, c.b_templates)
        M = hadamard_power_gram(A, lam)
        Mf = np.array(M, dtype=float)  # unit diagonal: divide the grid by the constant
        r = eps_rank(Mf, 1 / (4 * n * n)).lower
        guaranteed = n**0.25 / (2 * math.sqrt(d + 1))
        out.append(({"d": d, "d_x": 2 * d + 1, "L": L, "N": N, "lambda'": lam,
                     "m(3^L)": sequential_ceiling(2 * d + 1, L), "3^(L-2)": 3 ** (L - 2),
                     "n": n, "(1/4n^2)-rank of grid/c >=": r,
                     "guaranteed": round(guaranteed, 3)}, c.constant, M, G))
    return tuple(out)


@claim(
    id="ICB-Thm2-construction", basis="not_refuted", universal=True,
    paper="001",
    reference="Corollary 2 + Lemma 14 (App. C.3); notes §4.2, PC-9",
    statement="There are weights and templates for which a sub-matrix of the in-context grid "
    "[[A(Z_y_in)]]_(a,b) equals a constant times (BB^T)^(Hadamard lambda), so Theorem 2's "
    "eps-seq-sep >= n^(1/4)/(2 sqrt(d+1)) for eps <= 1/(4n^2)",
    perturbation=Perturbed("the constant c multiplied by 1 + 2^-30",
                           constant_scale=1 + Fraction(1, 2**30)),
)
def icb_thm2_construction(constant_scale: Fraction = Fraction(1)) -> ClaimResult:
    rows, ok, ratios = [], True, []
    for row, constant, M, G in _construction_rows():
        c = constant * constant_scale
        equal = bool(np.all(c * M == G))
        lam, L, n = row["lambda'"], row["L"], row["n"]
        guaranteed = n**0.25 / (2 * math.sqrt(row["d"] + 1))
        ok &= equal and lam >= 3 ** (L - 2) and row["(1/4n^2)-rank of grid/c >="] >= guaranteed
        ratios.append(row["(1/4n^2)-rank of grid/c >="] / guaranteed)
        rows.append(row | {"grid == c (AA^T)^lambda' (exact)": equal})
    return ClaimResult(
        measured=[r["(1/4n^2)-rank of grid/c >="] for r in rows],
        reference_value=[r["guaranteed"] for r in rows],
        verdict=judge(ok),
        margin=Margin(math.log10(min(ratios)), "min eps-rank / n^(1/4)/(2 sqrt(d+1))",
                      "the guarantee n^(1/4)/(2 sqrt(d+1)) is below 2 at every CPU-feasible "
                      "size (the theorem is asymptotic), while the eps-rank of a full-rank "
                      "Hadamard Gram matrix is close to n; the exact equality grid = c "
                      "(AA^T)^lambda' carries the check's power"),
        details={"table": rows, "construction": "our real variant (asymmetric W^Q/W^K, H = 1, "
                 "d_x = 2d+1) realises lambda' = (3^(L-1)-1)/2 >= 3^(L-2), the paper's complex "
                 "construction of paper 003 realises 3^(L-2)",
                 "constant": "c = 2N (2N^3)^lambda'; eps applies to Z_in / c"},
    )
