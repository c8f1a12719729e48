"""Paper 003 bound-consistency sweeps (closed forms only) and Corollaries 1-2.

Every comparison is exact or in 60-digit logarithms (:mod:`seprank.core.log3`); a tie is never a
violation.  Margins are the tightest case of each sweep; the perturbed statements change a
printed constant or drop a printed hypothesis (Theorem 1's a raised by 1, the + 1 of Theorem 2's
b_1 dropped, eq. 20 without its hypothesis 3^L > d_x), fixed at registration.  Reading notes
§6 (PC10-PC12, PC22, PC23), §7 (items 1, 12, 13).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from paper_checks.claims.d2w.common import DEFENCES, GAPS, unproven_if_proof_refuted
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Margin, claim, claim_quick_full, judge
from seprank import d2w
from seprank.d2w.corollaries import corollary1_min_widening, corollary2_shallow

PAPER = "003"
FULL_HEADS = (1, 2, 3, 4, 5, 8, 16)
FULL_ODD_HEAD_DIMS = tuple(range(3, 200, 2))
QUICK_HEADS = (1, 3)
QUICK_ODD_HEAD_DIMS = tuple(range(3, 52, 2))
DEPTHS = tuple(range(2, 40))
LOG10_3 = math.log10(3)


def _lower_sweep(which: str, heads: tuple[int, ...], head_dims: tuple[int, ...],
                 raise_log3: tuple[int, int]) -> ClaimResult:
    """``raise_log3 = (per unit of 3^(L-2), per layer)``: the perturbed expression is the printed
    one plus ``raise_log3[0] * 3^(L-2) + raise_log3[1] * L`` in log_3 (Theorem 1's a + 1 adds
    3^(L-2); dropping the + 1 of Theorem 2's b_1 = -L(H/2 + 1) adds L)."""
    cases: list[tuple[float, int, int, int, bool]] = []
    for H, d_a, L in itertools.product(heads, head_dims, DEPTHS):
        d_x = H * d_a
        expr = (d2w.theorem1_lower(width=d_x, depth=L, heads=H) if which == "T1" else
                d2w.theorem2_lower(width=d_x, depth=L, heads=H))
        cert = d2w.lemma6_lower_bound(width=d_x, depth=L, heads=H)
        extra = raise_log3[0] * 3 ** (L - 2) + raise_log3[1] * L
        if extra == 0:
            c = expr.as_log3value().compare(cert.as_log3value())
            gap = 0.0 if c is None else float(cert.log3 - expr.log3)
            bad = c is not None and c > 0
        else:                               # an integer added to an exact log: compare in logs
            gap = float(cert.log3 - expr.log3) - extra
            bad = gap < 0
        cases.append((gap, L, d_x, H, bad))
    tightest = min(g for g, *_ in cases)
    violations = [(L, d_x, H) for _, L, d_x, H, bad in cases if bad]
    ties = sum(g == 0.0 for g, *_ in cases)
    return ClaimResult(
        measured=len(violations), reference_value=0, verdict=judge(not violations),
        margin=Margin(tightest * LOG10_3, "min ((d lambda)) / 3^{expression} over the grid"),
        details={"cases": len(cases), "exact ties (no room)": ties, "violations": violations[:5],
                 "grid": f"H in {heads}, odd d_a in {head_dims[0]}..{head_dims[-1]}, "
                         f"L = 2..39 (every regime)",
                 "certified value": "((d lambda)) of Lemma 6, d = (d_x - H)/2, "
                                    "lambda = 3^(L-2)"})


T1_STATEMENT = ("((d lambda)) >= ((d-1)/lambda + 1)^lambda, whose log bounds the Theorem 1 lower "
                "bound 3^{L-2}(log_3(d_x - H) + a)")
T2_STATEMENT = ("((d lambda)) >= (lambda/(d-1) + 1)^{d-1}, whose log bounds the Theorem 2 lower "
                "bound d_x L/2 + b_1 + b_2")
SMALL = {"heads": QUICK_HEADS, "head_dims": QUICK_ODD_HEAD_DIMS}
LARGE = {"heads": FULL_HEADS, "head_dims": FULL_ODD_HEAD_DIMS}


@claim_quick_full(id="D2W-T1LB-sweep", quick=SMALL, full=LARGE, paper=PAPER,
                  basis="not_refuted", universal=True,
                  reference="Theorem 1 lower bound via App. B.2", statement=T1_STATEMENT,
                  perturbation=Perturbed("a = -L + 2 - log_3 2 raised by 1 (the next integer "
                                         "constant): 3^{L-2}(log_3(d_x - H) + a + 1)",
                                         a_shift=1))
def d2w_t1lb_sweep(heads: tuple[int, ...], head_dims: tuple[int, ...],
                   a_shift: int = 0) -> ClaimResult:
    return _lower_sweep("T1", heads, head_dims, (a_shift, 0))


@claim_quick_full(id="D2W-T2LB-sweep", quick=SMALL, full=LARGE, paper=PAPER,
                  basis="not_refuted", universal=True,
                  reference="Theorem 2 lower bound via App. B.2", statement=T2_STATEMENT,
                  perturbation=Perturbed("the + 1 of b_1 = -L(H/2 + 1) dropped: b_1 = -L H/2",
                                         b1_drop_one=True))
def d2w_t2lb_sweep(heads: tuple[int, ...], head_dims: tuple[int, ...],
                   b1_drop_one: bool = False) -> ClaimResult:
    return _lower_sweep("T2", heads, head_dims, (0, int(b1_drop_one)))


@claim_quick_full(id="D2W-T2UB-sweep", quick={"max_width": 60, "max_depth": 12},
                  basis="not_refuted", universal=True,
                  full={"max_width": 399, "max_depth": 29}, paper=PAPER,
                  reference="Theorem 2 upper bound, eq. 20",
                  statement="for L > log_3 d_x, eq. 20 turns Theorem 4 into log_3 sep <= 2 d_x L "
                  "+ c_1 + c_2",
                  perturbation=Perturbed("the hypothesis 3^L > d_x (L > log_3 d_x) dropped: eq. "
                                         "20's relaxation claimed at every depth",
                                         require_hypothesis=False))
def d2w_t2ub_sweep(max_width: int, max_depth: int, require_hypothesis: bool = True
                   ) -> ClaimResult:
    cases, outside_negative = [], []
    for d_x, L in itertools.product(range(2, max_width + 1), range(1, max_depth + 1)):
        t2 = d2w.theorem2_upper(width=d_x, depth=L)
        if not t2.in_hypotheses:
            if L <= 5 and t2.log3 < 0:
                outside_negative.append((L, d_x))
            if require_hypothesis:
                continue
        t4 = d2w.theorem4_upper(width=d_x, depth=L)
        c = t4.as_log3value().compare(t2.as_log3value())
        cases.append((0.0 if c is None else float(t2.log3 - t4.log3), L, d_x,
                      c is not None and c > 0))
    tightest = min(g for g, *_ in cases)
    violations = [(L, d) for g, L, d, bad in cases if bad]
    return ClaimResult(
        measured=len(violations), reference_value=0, verdict=judge(not violations),
        margin=Margin(tightest * LOG10_3, "min Theorem 2 expression / Theorem 4 bound, 3^L > d_x",
                      "eq. 20 relaxes Theorem 4 by Lemma 4 ((n k)) <= (2e(n+k)/n)^n and by "
                      "3^L - 1 -> 2 3^L, each costing a factor exponential in d_x: the chain "
                      "cannot be tight, its tightest case (small d_x, L) still loses > 100x"),
        details={"cases (3^L > d_x)" if require_hypothesis else "cases (every depth)":
                 len(cases), "violations": violations[:5],
                 "grid": f"2 <= d_x <= {max_width}, 1 <= L <= {max_depth}",
                 "outside the hypothesis": f"{len(outside_negative)} cases with 3^L < d_x where "
                                           f"the expression is even negative, e.g. "
                                           f"{outside_negative[:3]}"})


@claim(
    id="D2W-Thm1-positivity", basis="not_refuted", universal=True,
    paper=PAPER,
    reference="Theorem 1 (remark after eq. 7)",
    statement="log_3(d_x - H) + a > 0 in this regime of L < log_3(d_x)",
    perturbation=Perturbed("a lowered by 1 (a = -L + 1 - log_3 2)", a_shift=-1),
)
def d2w_thm1_positivity(a_shift: int = 0) -> ClaimResult:
    # 3^{log3(d_x - H) + a} = 3^{2-L} (d_x - H)/2 > 1, i.e. 9 (d_x - H) > 2 3^L (exact);
    # a shifted by a_shift multiplies the left side by 3^{a_shift}
    factor = Fraction(9) * Fraction(3) ** a_shift
    ratios, failing, outside = [], [], []
    for d_x in range(2, 401):
        for H in (h for h in range(1, d_x + 1) if d_x % h == 0):
            for L in range(1, 7):
                if d_x <= 3**L:
                    break
                if d_x == H:        # d_a = 1: log_3 0 = -inf, the bound itself is undefined
                    outside.append((L, d_x, H))
                    continue
                ratio = Fraction(factor * (d_x - H), 2 * 3**L)
                ratios.append(ratio)
                if ratio <= 1:
                    failing.append((L, d_x, H))
    worst = min(ratios)
    return ClaimResult(
        measured=len(failing), reference_value=0, verdict=judge(not failing),
        margin=Margin(math.log10(worst), "min 3^{log_3(d_x - H) + a}: the factor by which "
                      "d_x - H could shrink before the expression reaches 0"),
        details={"cases (H < d_x, 3^L < d_x <= 400)": len(ratios), "failing": failing[:5],
                 "reading": "the expression is undefined when H = d_x (log_3 0): those "
                            f"{len(outside)} settings (d_a = 1, e.g. {outside[:2]}) are outside "
                            "the statement's domain, not counterexamples; the lower-bound "
                            "construction needs odd d_a >= 3 anyway",
                 "tightest": f"3^(log_3(d_x-H)+a) >= {float(worst):.4g}"})


@claim(
    id="D2W-Cor1", basis="not_refuted", universal=True,
    paper=PAPER,
    reference="Corollary 1 (§4.1)",
    statement="a network of depth L/d and width w d_x can realize a random deep network "
    "(d_x > 3^L) only if w ∝ exp(exp(d))",
    perturbation=Perturbed("log w grows like 2^{d L_shallow} (growth ratio 2^{L_s} per unit d "
                           "instead of 3^{L_s})", growth_base=2),
)
def d2w_cor1(growth_base: int = 3) -> ClaimResult:
    examples = {}
    for L, d_x, d in [(6, 1000, 2), (8, 7000, 2), (8, 7000, 4)]:
        r = corollary1_min_widening(width_deep=d_x, depth_deep=L, depth_ratio=d)
        examples[f"(L={L}, d_x={d_x}, d={d})"] = {"log3 w_min": round(float(r.log3_widening), 2),
                                                 "w_min": f"{r.widening:.3g}"}
    # at fixed shallow depth L_s the deep depth is L = d L_s (d_x = 3^(L+1) > 3^L): the
    # required log-width T1LB / C(L_s) should grow like 3^{d L_s}, i.e. by 3^{L_s} per unit d
    growth, deviations, growing = {}, [], True
    base = growth_base
    for L_s, ds in ((1, (2, 3, 4, 5)), (2, (2, 3, 4))):
        need, logw = [], []
        for d in ds:
            r = corollary1_min_widening(width_deep=3 ** (d * L_s + 1), depth_deep=d * L_s,
                                        depth_ratio=d)
            need.append(float(r.log3_required_width))
            logw.append(float(r.log3_widening))
        ratios = [need[i + 1] / need[i] for i in range(len(need) - 1)]
        deviations.append(ratios[-1] / base**L_s)
        growing &= logw[-1] > logw[-2] > 0
        growth[f"L_shallow = {L_s}, d = {ds}"] = {
            "log3 required width": [round(x, 1) for x in need],
            f"ratios (expect -> {base}^L_shallow)": [round(x, 2) for x in ratios],
            "log3 w_min": [round(x, 1) for x in logw]}
    margin = Margin.tightest(Margin.tolerance(x, 1.0, 0.2, what=f"last growth ratio / "
                                              f"{base}^L_s within 20 %") for x in deviations)
    ok = growing and all(abs(x - 1) < 0.2 for x in deviations)
    return ClaimResult(measured=examples, reference_value="double-exponential widening",
                       verdict=judge(ok), margin=margin,
                       details={"growth in d at fixed shallow depth": growth,
                                "reading": "log w grows like 3^{d L_shallow}, i.e. w ~ "
                                           "exp(exp(d)) as printed; 'w d_x^shallow' in the "
                                           "statement is read as w d_x^deep"})


@claim(
    id="D2W-Cor2", basis="exact", universal=True,
    paper=PAPER,
    expected_verdict="unproven", defence=DEFENCES["corollary2"],
    reference="Corollary 2 (eq. 9)",
    statement="for L > log_3 d_x there is beta_2 such that depth beta_1 L + beta_2 and width "
    "3^{beta_2} d_x give sep(shallow) > sep(deep)",
    perturbation=Perturbed("the same shallow depth without the widening (width d_x instead of "
                           "3^{beta_2} d_x)", widen=False),
)
def d2w_cor2(widen: bool = True) -> ClaimResult:
    rows, gaps = {}, []
    for L, d_x, H in [(12, 512, 2), (24, 1024, 2), (48, 1024, 2)]:
        r = corollary2_shallow(width_deep=d_x, depth_deep=L, heads=H)
        width = r.shallow_width
        if not widen:                   # narrowest valid width >= d_x (odd d_a, as the witness)
            width = d_x + H if (d_x // H) % 2 == 0 else d_x
        cert = d2w.lemma6_lower_bound(width=width, depth=r.shallow_depth, heads=H).log3
        gaps.append(float(cert - r.log3_deep_upper) if r.shallow_depth < L else -1.0)
        rows[f"(L={L}, d_x={d_x}, H={H})"] = {
            "beta2": float(r.beta2), "shallow depth": r.shallow_depth, "shallow width": width,
            "log3 certified shallow": round(float(cert), 1),
            "log3 deep upper (Thm 2)": round(float(r.log3_deep_upper), 1)}
    gap = min(gaps)
    held = ClaimResult(measured=rows, reference_value="beta_2 exists", verdict=judge(gap > 0),
                       margin=Margin(gap * LOG10_3 if gap > 0 else -1.0,
                                     "min certified shallow sep / deep Theorem 2 bound",
                                     "an existence statement: beta_2 is the smallest on a grid "
                                     "of step 1/2, and one half-step multiplies the shallow "
                                     "width by sqrt 3 and its certified rank ((d lambda)) by a "
                                     "power of order 3^{d/2}, so any beta_2 that works "
                                     "overshoots; the perturbation (no widening) falls short "
                                     "by as much"),
                       details={"rounding": "depth rounded up; width rounded up to a multiple "
                                            "of H with odd d_a (the witness needs it); beta_2 "
                                            "searched in steps of 1/2",
                                "note": "the paper gives beta_2 = O(log H log d_x log L) only"})
    # the deep network's side is Theorem 2's upper bound, unproven through eq. 19
    return unproven_if_proof_refuted(held, GAPS["corollary2"]())

