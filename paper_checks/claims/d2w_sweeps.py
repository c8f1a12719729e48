"""Seed 003 bound-consistency sweeps (closed forms only) and Corollaries 1-2.

Every comparison is exact or in 60-digit logarithms (:mod:`seprank.core.log3`); a tie is never a
violation.  Reading notes §6 (PC10-PC12, PC22, PC23), §7 (items 1, 12, 13).
"""

from __future__ import annotations

import itertools

from paper_checks.registry import ClaimResult, claim, judge
from seprank import d2w
from seprank.d2w.corollaries import corollary1_min_widening, corollary2_shallow

PAPER = "003"
FULL_HEADS = (1, 2, 3, 4, 5, 8, 16)
FULL_ODD_HEAD_DIMS = tuple(range(3, 200, 2))
DEPTHS = tuple(range(2, 40))


def _lower_sweep(which: str, heads: tuple[int, ...], head_dims: tuple[int, ...]) -> ClaimResult:
    violations, ties, cases = [], 0, 0
    for H, d_a, L in itertools.product(heads, head_dims, DEPTHS):
        d_x = H * d_a
        expr = (d2w.theorem1_lower(d_x, L, H) if which == "T1" else
                d2w.theorem2_lower(d_x, L, H))
        cert = d2w.lemma6_lower_bound(d_x, L, H)
        c = expr.as_log3value().compare(cert.as_log3value())
        cases += 1
        if c is None:
            ties += 1
        elif c > 0:
            violations.append((L, d_x, H))
    return ClaimResult(
        measured=len(violations), reference_value=0, verdict=judge(not violations),
        details={"cases": cases, "undecided ties": ties, "violations": violations[:5],
                 "grid": f"H in {heads}, odd d_a in {head_dims[0]}..{head_dims[-1]}, "
                         f"L = 2..39 (every regime)",
                 "certified value": "((d lambda)) of Lemma 6, d = (d_x - H)/2, "
                                    "lambda = 3^(L-2)"})


T1_STATEMENT = ("((d lambda)) >= ((d-1)/lambda + 1)^lambda, whose log bounds the Theorem 1 lower "
                "bound 3^{L-2}(log_3(d_x - H) + a)")
T2_STATEMENT = ("((d lambda)) >= (lambda/(d-1) + 1)^{d-1}, whose log bounds the Theorem 2 lower "
                "bound d_x L/2 + b_1 + b_2")
for _which, _stmt in (("T1", T1_STATEMENT), ("T2", T2_STATEMENT)):
    _ref = f"Theorem {_which[1]} lower bound via App. B.2"
    claim(id=f"D2W-{_which}LB-sweep", paper=PAPER, reference=_ref, statement=_stmt)(
        (lambda w: lambda: _lower_sweep(w, (1, 3), tuple(range(3, 52, 2))))(_which))
    claim(id=f"D2W-{_which}LB-sweep-full", paper=PAPER, reference=_ref, statement=_stmt,
          profile="full")(
        (lambda w: lambda: _lower_sweep(w, FULL_HEADS, FULL_ODD_HEAD_DIMS))(_which))


def _t2_upper_sweep(max_width: int, max_depth: int) -> ClaimResult:
    violations, ties, cases, outside_negative = [], 0, 0, []
    for d_x, L in itertools.product(range(2, max_width + 1), range(1, max_depth + 1)):
        t2 = d2w.theorem2_upper(d_x, L)
        if not t2.in_hypotheses:
            if L <= 5 and t2.log3 < 0:
                outside_negative.append((L, d_x))
            continue
        t4 = d2w.theorem4_upper(d_x, L)
        c = t4.as_log3value().compare(t2.as_log3value())
        cases += 1
        if c is None:
            ties += 1
        elif c > 0:
            violations.append((L, d_x))
    return ClaimResult(
        measured=len(violations), reference_value=0, verdict=judge(not violations),
        details={"cases (3^L > d_x)": cases, "undecided ties": ties, "violations": violations[:5],
                 "grid": f"2 <= d_x <= {max_width}, 1 <= L <= {max_depth}",
                 "outside the hypothesis": f"{len(outside_negative)} cases with 3^L < d_x where "
                                           f"the expression is even negative, e.g. "
                                           f"{outside_negative[:3]}"})


T2UB_STATEMENT = ("for L > log_3 d_x, eq. 20 turns Theorem 4 into log_3 sep <= 2 d_x L + c_1 + "
                  "c_2")
claim(id="D2W-T2UB-sweep", paper=PAPER, reference="Theorem 2 upper bound, eq. 20",
      statement=T2UB_STATEMENT)(lambda: _t2_upper_sweep(60, 12))
claim(id="D2W-T2UB-sweep-full", paper=PAPER, reference="Theorem 2 upper bound, eq. 20",
      statement=T2UB_STATEMENT, profile="full")(lambda: _t2_upper_sweep(399, 29))


@claim(
    id="D2W-Thm1-positivity",
    paper=PAPER,
    reference="Theorem 1 (remark after eq. 7)",
    statement="log_3(d_x - H) + a > 0 in this regime of L < log_3(d_x)",
    expected_verdict="erratum",
)
def _positivity() -> ClaimResult:
    failing: list[tuple[int, int, int]] = []
    failing_da2: list[tuple[int, int, int]] = []
    for d_x in range(2, 401):
        for H in (h for h in range(1, d_x + 1) if d_x % h == 0):
            for L in range(1, 7):
                if d_x <= 3**L:
                    break
                # 3^{log3(d_x - H) + a} = 3^{2-L} (d_x - H)/2 > 1 ?  (exact)
                positive = (d_x - H) * 3 ** 2 > 2 * 3**L
                if not positive:
                    (failing_da2 if d_x // H >= 2 else failing).append((L, d_x, H))
    return ClaimResult(
        measured=len(failing) + len(failing_da2), reference_value=0,
        verdict=judge(not failing and not failing_da2, not failing_da2),
        details={"printed": f"fails in {len(failing)} cases, all with d_a = d_x/H = 1 "
                            f"(log_3 0 = -inf), e.g. {failing[:3]}",
                 "corrected": "holds for every head dimension d_a >= 2 (d_x <= 400, exact): "
                              "log_3(d_x - H) + a >= log_3(d_x/2) - L + 2 - log_3 2 > 2 - "
                              f"2 log_3 2; failures with d_a >= 2: {len(failing_da2)}"})


@claim(
    id="D2W-Cor1",
    paper=PAPER,
    reference="Corollary 1 (§4.1)",
    statement="a network of depth L/d and width w d_x can realize a random deep network "
    "(d_x > 3^L) only if w ∝ exp(exp(d))",
)
def _cor1() -> ClaimResult:
    examples = {}
    for L, d_x, d in [(6, 1000, 2), (8, 7000, 2), (8, 7000, 4)]:
        r = corollary1_min_widening(d_x, L, d)
        examples[f"(L={L}, d_x={d_x}, d={d})"] = {"log3 w_min": round(float(r.log3_widening), 2),
                                                 "w_min": f"{r.widening:.3g}"}
    # at fixed shallow depth L_s the deep depth is L = d L_s (d_x = 3^(L+1) > 3^L): the
    # required log-width T1LB / C(L_s) should grow like 3^{d L_s}, i.e. by 3^{L_s} per unit d
    growth, doubly = {}, True
    for L_s, ds in ((1, (2, 3, 4, 5)), (2, (2, 3, 4))):
        need, logw = [], []
        for d in ds:
            r = corollary1_min_widening(3 ** (d * L_s + 1), d * L_s, d)
            need.append(float(r.log3_required_width))
            logw.append(float(r.log3_widening))
        ratios = [need[i + 1] / need[i] for i in range(len(need) - 1)]
        doubly &= abs(ratios[-1] / 3**L_s - 1) < 0.2 and logw[-1] > logw[-2] > 0
        growth[f"L_shallow = {L_s}, d = {ds}"] = {
            "log3 required width": [round(x, 1) for x in need],
            "ratios (expect -> 3^L_shallow)": [round(x, 2) for x in ratios],
            "log3 w_min": [round(x, 1) for x in logw]}
    return ClaimResult(measured=examples, reference_value="double-exponential widening",
                       verdict=judge(doubly),
                       details={"growth in d at fixed shallow depth": growth,
                                "reading": "log w grows like 3^{d L_shallow}, i.e. w ~ "
                                           "exp(exp(d)) as printed; 'w d_x^shallow' in the "
                                           "statement is read as w d_x^deep"})


@claim(
    id="D2W-Cor2",
    paper=PAPER,
    reference="Corollary 2 (eq. 9)",
    statement="for L > log_3 d_x there is beta_2 such that depth beta_1 L + beta_2 and width "
    "3^{beta_2} d_x give sep(shallow) > sep(deep)",
)
def _cor2() -> ClaimResult:
    rows, ok = {}, True
    for L, d_x, H in [(12, 512, 2), (24, 1024, 2), (48, 1024, 2)]:
        r = corollary2_shallow(d_x, L, H)
        ok &= r.log3_shallow_certified > r.log3_deep_upper and r.shallow_depth < L
        rows[f"(L={L}, d_x={d_x}, H={H})"] = {
            "beta2": float(r.beta2), "shallow depth": r.shallow_depth,
            "shallow width": r.shallow_width,
            "log3 certified shallow": round(float(r.log3_shallow_certified), 1),
            "log3 deep upper (Thm 2)": round(float(r.log3_deep_upper), 1)}
    return ClaimResult(measured=rows, reference_value="beta_2 exists", verdict=judge(ok),
                       details={"rounding": "depth rounded up; width rounded up to a multiple "
                                            "of H with odd d_a (the witness needs it); beta_2 "
                                            "searched in steps of 1/2",
                                "note": "the paper gives beta_2 = O(log H log d_x log L) only"})
