"""Seed 003 empirical claims: the fit (eqs. 10-11), its statistics, Tables 1 and 4, GPT-3.

"Agrees with a printed number" means: within one unit of its last printed digit.  Reading
notes §5, §6 (PC19-PC21), §7 (items 5-7).
"""

from __future__ import annotations

import math

from paper_checks.claims._d2w_common import agrees_with_printed
from paper_checks.registry import ClaimResult, claim, judge
from seprank.d2w.scaling import (
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

PAPER = "003"


@claim(
    id="D2W-fit-eq11",
    paper=PAPER,
    reference="eq. 11 (§5.2.2), App. D.1",
    statement="(a, b) = (5.039 ± 0.030, 5.55e-2 ± 1.3e-3), covariance [[9.4e-4, -3.74e-5], "
    "[-3.74e-5, 1.7e-6]]",
)
def _fit() -> ClaimResult:
    f = fit_transition_widths()
    measured = {"a": f.a, "sigma_a": f.sigma_a, "b": f.b, "sigma_b": f.sigma_b,
                "var_a": f.cov[0, 0], "cov_ab": f.cov[0, 1], "var_b": f.cov[1, 1]}
    printed = {"a": "5.039", "sigma_a": "0.030", "b": "5.55e-2", "sigma_b": "1.3e-3",
               "var_a": "9.4e-4", "cov_ab": "-3.74e-5", "var_b": "1.7e-6"}
    agree = {k: agrees_with_printed(measured[k], printed[k]) for k in printed}
    return ClaimResult(measured=measured, reference_value=printed,
                       verdict=judge(all(agree.values())),
                       details={"agreement": agree, "data": "Table 4(a): ln d_x, sigma = "
                                "Delta d_x / d_x; covariance = (X^T W X)^{-1} (unscaled)"},
                       figures={"figure3": plot_figure3(f)})


@claim(
    id="D2W-fit-chi2",
    paper=PAPER,
    reference="§5.2.2, eq. 58",
    statement="chi^2_red = 0.854 (df = n - m = 3)",
)
def _chi2() -> ClaimResult:
    f = fit_transition_widths()
    ok = agrees_with_printed(f.chi2_red, "0.854") and f.dof == 3
    return ClaimResult(measured=f.chi2_red, reference_value=0.854, verdict=judge(ok),
                       details={"chi2": f.chi2, "dof": f.dof,
                                "note": "0.85493: the printed value is truncated, not rounded"})


@claim(
    id="D2W-fit-R2",
    paper=PAPER,
    reference="eq. 59 (App. D.1)",
    statement="R^2 = 1 - sum (1/sigma_i^2)(y_i - yhat_i)^2 / sum (1/sigma_i^2)(y_i - ybar)^2 "
    "with ybar = (1/n) sum (1/sigma_i^2) y_i gives R^2 = 0.998",
    expected_verdict="erratum",
)
def _r2() -> ClaimResult:
    f = fit_transition_widths()
    weights = [1 / s**2 for s in f.sigmas]
    ybar_printed = sum(w * y for w, y in zip(weights, f.log_widths, strict=True)) / len(weights)
    printed_ok = agrees_with_printed(f.r2_printed_formula, "0.998")
    corrected_ok = agrees_with_printed(f.r2_weighted, "0.998")
    return ClaimResult(
        measured={"printed formula": f.r2_printed_formula, "weighted mean": f.r2_weighted,
                  "unweighted": f.r2_unweighted},
        reference_value=0.998, verdict=judge(printed_ok, corrected_ok),
        details={"printed": f"ybar = (1/n) sum y_i/sigma_i^2 = {ybar_printed:.0f} is not a "
                            f"mean; R^2 = {f.r2_printed_formula:.12f}",
                 "corrected": f"weighted mean ybar = sum(y/sigma^2)/sum(1/sigma^2): R^2 = "
                              f"{f.r2_weighted:.5f} (0.998 truncated)"})


@claim(
    id="D2W-eq10",
    paper=PAPER,
    reference="eq. 10, §5.3",
    statement="N_Transition(96) = 1.17 ± 0.23e12, N_Transition(80) = 1.65 ± 0.25e11, "
    "Delta N/N (L = 100) = 0.2",
)
def _eq10() -> ClaimResult:
    f = fit_transition_widths()
    n96, d96 = transition_size(96, f)
    n80, d80 = transition_size(80, f)
    n100, d100 = transition_size(100, f)
    measured = {"N(96)": n96, "dN(96)": d96, "N(80)": n80, "dN(80)": d80,
                "dN/N(100)": d100 / n100}
    printed = {"N(96)": "1.17e12", "dN(96)": "0.23e12", "N(80)": "1.65e11",
               "dN(80)": "0.25e11", "dN/N(100)": "0.2"}
    agree = {k: agrees_with_printed(measured[k], printed[k]) for k in printed}
    no_cov = 2 * math.sqrt(f.cov[0, 0] + 100**2 * f.cov[1, 1])
    return ClaimResult(measured=measured, reference_value=printed,
                       verdict=judge(all(agree.values())),
                       details={"agreement": agree,
                                "dN/N(100) without the covariance term": no_cov,
                                "propagation": "dN/da = 2N, dN/db = 2LN"},
                       figures={"figure4": plot_figure4(f)})


@claim(
    id="D2W-Table1",
    paper=PAPER,
    reference="Table 1, §5.3",
    statement="optimal depth and width by the fit for the GPT-3 sizes (Small, Medium, XL, 2.7B, "
    "6.7B, 13B, 175B)",
)
def _table1() -> ClaimResult:
    rows = table1()
    good = [r for r in rows if r.model not in ("GPT-3 Large", "Optimal 1-Trillion arch")]
    measured = {r.model: (r.depth, round(r.width)) for r in good}
    printed = {r.model: (r.depth_printed, r.width_printed) for r in good}
    return ClaimResult(measured=measured, reference_value=printed,
                       verdict=judge(all(r.reproduces for r in good)),
                       details={"recipe": "S = 12 L d_x^2 of the GPT-3 architecture (not the "
                                          "nominal size); solve 12 L e^{2a + 2bL} = S, round L, "
                                          "d_x = sqrt(S / 12 L); width within 0.5 %"})


@claim(
    id="D2W-Table1-Large",
    paper=PAPER,
    reference="Table 1 (GPT-3 Large row)",
    statement="GPT-3 Large (760M): optimal depth 38, width 1220",
    expected_verdict="fails",
)
def _table1_large() -> ClaimResult:
    r = next(x for x in table1() if x.model == "GPT-3 Large")
    width_38 = math.sqrt(r.size / (12 * 38))
    return ClaimResult(measured=(r.depth, round(r.width)), reference_value=(38, 1220),
                       verdict=judge(r.reproduces),
                       details={"L*": r.depth_real, "fit gives": f"L* = {r.depth_real:.2f} -> "
                                f"{r.depth}, width {r.width:.0f}",
                                "printed width with L = 38": f"sqrt(S/(12*38)) = {width_38:.1f}"})


@claim(
    id="D2W-Table1-1T",
    paper=PAPER,
    reference="Table 1 (1-Trillion row)",
    statement="optimal 1-Trillion architecture: depth 95, width 30100",
    expected_verdict="fails",
)
def _table1_1t() -> ClaimResult:
    f = fit_transition_widths()
    r = next(x for x in table1() if x.model == "Optimal 1-Trillion arch")
    transition_width = math.exp(f.a + f.b * 95)
    return ClaimResult(measured=(r.depth, round(r.width)), reference_value=(95, 30100),
                       verdict=judge(r.reproduces),
                       details={"recipe width": f"sqrt(1e12 / (12 * 95)) = {r.width:.0f}",
                                "e^(a + 95 b)": f"{transition_width:.0f} (what the printed 30100 "
                                                "matches: the transition width, not sqrt(S/12L))"})


@claim(
    id="D2W-GPT3-175B",
    paper=PAPER,
    reference="§5.3, Table 1",
    statement="GPT-3 (96 layers, 175B) is too deep for its size: N_Transition(96) > 1e12 and "
    "the optimal depth for its size is L = 80",
)
def _gpt3() -> ClaimResult:
    n96, _ = transition_size(96)
    size = 12 * 96 * 12288**2
    o = optimal_depth(size)
    nominal = optimal_depth(175e9)
    ok = n96 > 1e12 > size and o.depth == 80
    return ClaimResult(measured={"N_Tr(96)": n96, "optimal depth": o.depth},
                       reference_value={"N_Tr(96)": "> 1e12", "optimal depth": 80},
                       verdict=judge(ok),
                       details={"size": f"12 L d^2 = {size:.4g} (non-embedding)",
                                "L*": o.depth_real,
                                "with the nominal 175e9": nominal.depth_real})


@claim(
    id="D2W-GPT3-shallow",
    paper=PAPER,
    reference="Table 1 caption",
    statement="up to the scale of 10B, the trained GPT-3 architectures were generally too "
    "shallow per their parameter count",
)
def _shallow() -> ClaimResult:
    rows = {}
    for r in load_table1():
        if r.trained_depth is not None and r.trained_width is not None and r.nominal_size <= 13e9:
            size = 12 * r.trained_depth * r.trained_width**2
            rows[r.model] = (r.trained_depth, optimal_depth(size).depth)
    ok = all(trained < opt for trained, opt in rows.values())
    return ClaimResult(measured=rows, reference_value="trained depth < optimal depth",
                       verdict=judge(ok), details={"columns": "(trained L, optimal L)"})


@claim(
    id="D2W-1T-30K",
    paper=PAPER,
    reference="abstract, Table 1 caption",
    statement="a width of 30K is optimal for a 1-Trillion parameter network",
)
def _one_trillion() -> ClaimResult:
    o = optimal_depth(1e12)
    return ClaimResult(measured=round(o.width), reference_value=30000,
                       verdict=judge(round(o.width, -3) == 30000),
                       details={"depth": o.depth, "rounded to thousands": round(o.width, -3)})


@claim(
    id="D2W-Table4b",
    paper=PAPER,
    reference="Table 4(b)",
    statement="log d_x and Delta(log d_x) = Delta d_x / d_x of Table 4(a), in log space",
)
def _table4b() -> ClaimResult:
    rows, ok = {}, True
    for t in load_table4():
        a = agrees_with_printed(math.log(t.width), f"{t.log_width_printed:.2f}")
        b = agrees_with_printed(t.delta_width / t.width, f"{t.delta_log_width_printed:.2e}")
        ok &= a and b
        rows[t.depth] = (round(math.log(t.width), 4), round(t.delta_width / t.width, 5))
    return ClaimResult(measured=rows, reference_value="Table 4(b)", verdict=judge(ok),
                       details={"note": "the fit must use 4(a): the rounded 4(b) values give "
                                        "a = 5.0456, chi2_red = 0.766"})


@claim(
    id="D2W-Table4-delta",
    paper=PAPER,
    reference="§5.2.2 and Table 4(a)",
    statement="the transition width is the average of two trained widths and its error Delta "
    "d_x is the distance between the two points",
    expected_verdict="erratum",
)
def _table4_delta() -> ClaimResult:
    trained = load_table2()
    printed_rows, corrected_rows = {}, {}
    printed_ok, corrected_ok = True, True
    for t in load_table4():
        widths = set(trained[t.depth])
        half = (t.width - t.delta_width / 2, t.width + t.delta_width / 2)
        full = (t.width - t.delta_width, t.width + t.delta_width)
        p_ok = all(w in widths for w in half)
        c_ok = all(w in widths for w in full)
        printed_ok &= p_ok
        corrected_ok &= c_ok
        printed_rows[t.depth] = f"points {half} trained: {p_ok}"
        corrected_rows[t.depth] = f"points {full} trained: {c_ok}"
    return ClaimResult(
        measured={"printed": printed_rows, "corrected": corrected_rows},
        reference_value="both points are trained widths (Table 2)",
        verdict=judge(printed_ok, corrected_ok),
        details={"printed": printed_rows, "corrected": corrected_rows,
                 "reading": "Delta d_x in Table 4(a) is half the distance: d_x +- Delta d_x "
                            "are both trained widths of that depth (e.g. 214 +- 6 -> 208, 220)",
                 "also": "§5.2.2 lists six depth pairs, but the fit uses n = 5 points (L = 6..30)"})
