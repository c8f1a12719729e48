"""In-context bias (seeds 000/001): Theorems 1-3 and the Theorem 2 lower-bound pipeline.

Notes checks PC-6 (Theorem 3 hypotheses, depth-deficit arithmetic), PC-7 (the explicit Theorem 3
bound at small sizes), PC-8/PC-9 (Hadamard powers, Lemmas 10, 11, 15, the construction).
Reference values are computed from the printed formulas by hand in the notes; the code only
measures.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from paper_checks.registry import ClaimResult, claim, judge
from seprank import eps_rank, matrix_rank
from seprank.d2w.bounds import multiset_coefficient
from seprank.d2w.hadamard import hadamard_power_gram, hadamard_power_rank, rational_sphere_V
from seprank.incontext.bounds import depth_deficit, sequential_ceiling, theorem1_exponent
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
    id="ICB-Thm1-hypotheses",
    paper="000",
    reference="Theorem 1 (main text) vs Theorem 3 (App. B) hypotheses; notes PC-6",
    statement="Theorem 1: if 0 < Lambda_min <= |theta|, |dL/dtheta| <= Lambda_max, N < d_x and "
    "L > log_3 d_x, then log eps-seq-sep(y_seq) = O~([L + 0.5 log_3 eta] d_x) for all eps > 0",
    expected_verdict="erratum",
)
def _() -> ClaimResult:
    printed_bad, corrected_bad, corrected_n = [], [], 0
    for d_x in WIDTHS:
        for eta_s in ETAS:
            eta = float(eta_s)
            for L in range(1, 25):
                h = theorem3_hypotheses(d_x, L, 1, eta_s)
                expo = theorem1_exponent(d_x, L, eta)
                if h["depth_above_log3_width"] and expo <= 0:
                    printed_bad.append((d_x, L, eta_s, round(expo, 2)))
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
        details={
            "printed": f"{len(printed_bad)} settings satisfy L > log_3 d_x (main text) with "
                       f"L + 0.5 log_3 eta <= 0, e.g. {printed_bad[:4]}: there eq. 11 would bound "
                       "the log of a rank >= 1 by a non-positive quantity for every small eps",
            "corrected": f"with Theorem 3's hypotheses (2(1+eta)d_x/eta < 3^L, 2(1+eta)d_x^2 < "
                         f"3^L, eta in (0,1]) the exponent is >= L d_x / 2 in all "
                         f"{corrected_n} settings",
            "minimal depth for Theorem 3 (rows d_x, columns eta)": {str(k): v for k, v in
                                                                   table.items()},
            "BERT-base (d_x=768, L=12)": f"Theorem 3 needs L >= {table[768][3]} at eta=1e-4",
        },
    )


@claim(
    id="ICB-depth-deficit",
    paper="000",
    reference="Sec. 2.3, after Theorem 2 (also the introduction)",
    statement="Common learning rates eta in [1e-6, 1e-4] imply a depth deficit 0.5 log_3(1/eta) "
    "of ~6 layers",
    expected_verdict="erratum",
)
def _() -> ClaimResult:
    lo, hi = depth_deficit(1e-4), depth_deficit(1e-6)
    within = [5 <= depth_deficit(e) <= 7 for e in (1e-4, 1e-5, 1e-6)]
    return ClaimResult(
        measured={"eta=1e-4": round(lo, 3), "eta=1e-5": round(depth_deficit(1e-5), 3),
                  "eta=1e-6": round(hi, 3)},
        reference_value="~6",
        verdict=judge(all(within), abs(hi - 6) < 0.5 and 4 <= lo <= hi <= 7),
        details={"printed": f"'~6 layers' over the whole range: 0.5 log_3(1e4) = {lo:.3f} at "
                            "eta = 1e-4 is not ~6 (read as 5..7)",
                 "corrected": f"4.2-6.3 layers over [1e-6, 1e-4]; ~6 ({hi:.3f}) only at 1e-6",
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
    id="ICB-Thm3-explicit-bound",
    paper="001",
    reference="Theorem 3, final display of App. B; notes PC-7",
    statement="eps-seq-sep(y_seq) <= 2(2C+1)/(d_x-1)^2 (25 sqrt(eta)/(d_x-1))^(d_x-1) "
    "2^(3N) (e(2d_x+2C+1))^(4d_x) / ((1+Y)^2 d_x^(2d_x))",
)
def _() -> ClaimResult:
    rows, ok = [], True
    for (d_x, L, N, eta), hand in PC7.items():
        b = theorem3_bound(d_x, L, N, eta)
        # eps-seq-sep <= seq-sep <= m(3^L) (our derivation) for every weight assignment, so the
        # printed bound holds whenever it is above m(3^L); Y = 0 is its most favourable case
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


@claim(
    id="ICB-Thm3-depth-deficit-explicit",
    paper="001",
    reference="Theorem 3 (App. B) read as in Sec. 2.3; notes §3.4, PC-7",
    statement="The explicit Theorem 3 bound establishes the gap: the sequential representation "
    "is bounded by that of a network shallower by 0.5 log_3(1/eta) layers seen in context",
    expected_verdict="fails",
)
def _() -> ClaimResult:
    rows, gains = [], []
    for d_x, L, N, eta in PC7:
        b = theorem3_bound(d_x, L, N, eta)
        # the in-context bounds at the FULL depth L are already below the explicit bound
        in_context = min(b.log3_in_context_pb, b.log3_levine_thm4)
        gains.append(b.log3_bound < in_context)
        rows.append({"(d_x,L,N,eta)": (d_x, L, N, eta), "log3 explicit (Y=0)":
                     round(b.log3_bound, 2), "log3 in-context bound at depth L":
                     round(in_context, 2), "deficit claimed": round(depth_deficit(eta), 2)})
    sweep = theorem3_sweep()
    return ClaimResult(
        measured=[r["log3 explicit (Y=0)"] for r in rows],
        reference_value=[r["log3 in-context bound at depth L"] for r in rows],
        verdict=judge(any(gains) or sweep["below in-context"] > 0),
        details={"table": rows, "sweep": sweep,
                 "why": "the proof's sufficient condition forces |G| >= |D|/(1+Y) >= |D|/2 "
                        "(Y <= 1 for any non-trivial eps), and log_3 |D~| ~ 2 d_x L has no "
                        "eta-improvement; eq. 11 itself is implied by the trivial O~(L d_x) "
                        "under the hypothesis 3^L > 2(1+eta)d_x/eta (then L + 0.5 log_3 eta "
                        "> L/2)"},
    )


@claim(
    id="ICB-Thm2-eps-consistency",
    paper="001",
    reference="Theorem 2 (main text, eps garbled) vs App. C.2 (eps <= 1/(4n^2))",
    statement="Theorem 2 holds with eps = O~(binom(3^L+d_x-1, 3^L)^-1) [reconstructed]: the "
    "appendix threshold 1/(4n^2), n = ((d 3^(L-2))), is at least that eps",
)
def _() -> ClaimResult:
    rows, ok = [], True
    for d_x in (3, 5, 7, 9, 15, 33):
        for H in (h for h in range(1, d_x) if d_x % h == 0 and (d_x // h) % 2 == 1):
            for L in (2, 3, 4, 5, 6):
                t = theorem2_epsilon(d_x, H, L)
                ok &= t.eps_main_text <= t.eps_001 <= t.eps_000
                rows.append((d_x, H, L, float(t.eps_main_text), float(t.eps_001)))
    return ClaimResult(
        measured=len(rows), reference_value="eps_main <= 1/(4n^2) everywhere",
        verdict=judge(ok),
        details={"rows (d_x, H, L, eps_main, 1/(4n^2))": rows[:12],
                 "note": "a lower bound on the eps-rank at a larger eps implies it at every "
                 "smaller eps, so the appendix statement implies the main-text one"},
    )


def _pipeline(rows_spec: tuple[tuple[int, int], ...]) -> ClaimResult:
    rows, ok = [], True
    for d, lam in rows_spec:
        n = multiset_coefficient(d, lam)
        B = sphere_rows(n, d, seed=d * 100 + lam)
        M = hadamard_power_gram(B, lam)
        r, lemma11_bound = lemma11_count(M)
        lower = eps_rank(M, 1 / (2 * n * n)).lower  # Lemma 10 with eps' = 1/n
        draws = 20 if n <= 300 else 5
        fro = [float(np.linalg.norm(hadamard_power_gram(sphere_rows(n, d, seed=s), lam)))
               for s in range(draws)]
        jensen, printed = lemma15_exact_bound(d, lam)
        # certified rank on exact rational unit rows (GF(p); full rank is exact)
        cert = hadamard_power_rank(rational_sphere_V(n, d, seed=d + lam), lam,
                                   seed=1)
        rank = cert.rank
        float_rank = matrix_rank(M, method="svd").rank
        ok &= (rank == n and r >= lemma11_bound and lower >= r
               and float(np.mean(fro)) <= printed and jensen <= printed)
        rows.append({"d": d, "lambda": lam, "n": n, "rank M": rank, "float SVD rank": float_rank,
                     "r = #ev > 1/n": r,
                     "(n-1)/||M||_F": round(lemma11_bound, 2),
                     "(1/2n^2)-rank >=": lower, f"mean ||M||_F ({draws} draws)":
                         round(float(np.mean(fro)), 2), "sqrt(E||M||^2)": round(jensen, 2),
                     "sqrt(d+1) n^(3/4)": round(printed, 2),
                     "guaranteed n^(1/4)/(2 sqrt(d+1))": round(n**0.25 / (2 * math.sqrt(d + 1)),
                                                               2)})
    return ClaimResult(
        measured=[(r["n"], r["rank M"], r["r = #ev > 1/n"]) for r in rows],
        reference_value="rank = n, r >= (n-1)/||M||_F, (1/2n^2)-rank >= r, E||M||_F <= "
                        "sqrt(d+1) n^(3/4)",
        verdict=judge(ok),
        details={"table": rows, "sphere": "rows uniform on S^(d-1) in R^d (notes §7.2)",
                 "rank certification": "GF(p) rank of (BB^T)^lambda for exact rational unit "
                 "rows (full rank => exact); the float SVD rank is shown beside it"},
    )


@claim(
    id="ICB-Thm2-pipeline",
    paper="001",
    reference="App. C.2: Lemmas 10, 11, 15 and rank (BB^T)^(Hadamard lambda); notes PC-8",
    statement="For B with n = ((d lambda)) unit rows, M = (BB^T)^(Hadamard lambda) has rank n, "
    "#eigenvalues > 1/n >= (n-1)/||M||_F (Lemma 11), (1/(2n^2))-rank(M) >= that (Lemma 10) "
    "and E||M||_F <= sqrt(d+1) n^(3/4) (Lemma 15)",
)
def _() -> ClaimResult:
    return _pipeline(PIPELINE_QUICK)


@claim(
    id="ICB-Thm2-pipeline-large",
    paper="001",
    reference="App. C.2; notes PC-8 (larger rows)",
    statement="As ICB-Thm2-pipeline for (d, lambda) = (5, 9), (3, 27)",
    profile="full",
)
def _() -> ClaimResult:
    return _pipeline(PIPELINE_FULL)


@claim(
    id="ICB-Thm2-construction",
    paper="001",
    reference="Corollary 2 + Lemma 14 (App. C.3); notes §4.2, PC-9",
    statement="There are weights and templates for which a sub-matrix of the in-context grid "
    "[[A(Z_y_in)]]_(a,b) equals a constant times (BB^T)^(Hadamard lambda), so Theorem 2's "
    "eps-seq-sep >= n^(1/4)/(2 sqrt(d+1)) for eps <= 1/(4n^2)",
)
def _() -> ClaimResult:
    rows, ok = [], True
    for d, L, N in ((2, 3, 1), (2, 3, 2), (1, 4, 1), (2, 4, 1)):
        lam = (3 ** (L - 1) - 1) // 2
        n = multiset_coefficient(d, lam)
        A = rational_sphere_V(n, d, seed=10 * d + L)
        c = hadamard_construction(A, depth=L, n_tokens=N)
        G = c.representation.grid(c.a_templates, c.b_templates)
        M = hadamard_power_gram(A, lam)
        equal = bool(np.all(c.constant * M == G))
        Mf = np.array(M, dtype=float)  # unit diagonal: divide the grid by the constant
        r = eps_rank(Mf, 1 / (4 * n * n)).lower
        guaranteed = n**0.25 / (2 * math.sqrt(d + 1))
        ok &= equal and lam >= 3 ** (L - 2) and r >= guaranteed
        rows.append({"d": d, "d_x": 2 * d + 1, "L": L, "N": N, "lambda'": lam,
                     "m(3^L)": sequential_ceiling(2 * d + 1, L),
                     "3^(L-2)": 3 ** (L - 2), "n": n, "grid == c (AA^T)^lambda' (exact)": equal,
                     "(1/4n^2)-rank of grid/c >=": r, "guaranteed": round(guaranteed, 3)})
    return ClaimResult(
        measured=[r["(1/4n^2)-rank of grid/c >="] for r in rows],
        reference_value=[r["guaranteed"] for r in rows],
        verdict=judge(ok),
        details={"table": rows, "construction": "our real variant (asymmetric W^Q/W^K, H = 1, "
                 "d_x = 2d+1) realises lambda' = (3^(L-1)-1)/2 >= 3^(L-2), the paper's complex "
                 "construction of seed 003 realises 3^(L-2)",
                 "constant": "c = 2N (2N^3)^lambda'; eps applies to Z_in / c",
                 "guarantee": "n^(1/4)/(2 sqrt(d+1)) < 2 at every CPU-feasible size: the "
                 "theorem is asymptotic; the measured eps-rank is far above it"},
    )
