"""Paper 003 proof steps: Theorem 4's grouping, Theorem 5's recursion, Lemma 2's count,
Claim 2 over the complex numbers and Lemma 6's index maps.

A refuted proof step of a statement that still stands is reported ``unproven`` (kind
``proof``); a slip whose intended statement holds is an ``erratum`` of kind ``typo``.  Every
verdict carries an independent recomputation written here (sympy, exact integers, plain index
arithmetic), not the library function under test.  Reading notes §7 (items 3, 4, 8, 9).
"""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import sympy as sp

from paper_checks.claims.d2w.common import ATTACK_DATE, REVIEWER, V003, generic_rank
from paper_checks.compare import exact_result
from paper_checks.defence import Attack, Defence
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Independent, Margin, claim
from seprank import d2w
from seprank.d2w.lemmas import lemma2_summed_terms

PAPER = "003"


def _gram_q(positions: int) -> tuple[sp.Expr, sp.Expr]:
    """S^Q_11 S^Q_22 and (S^Q_12)^2 for S^Q = sum_{j in Q} x^j x^jT with |Q| = positions."""
    xs = [sp.symbols(f"x{j}_1 x{j}_2") for j in range(positions)]
    S11 = sum(a * a for a, _ in xs)
    S22 = sum(b * b for _, b in xs)
    S12 = sum(a * b for a, b in xs)
    return sp.expand(S11 * S22), sp.expand(S12 * S12)


def _pairing_classes(positions: int, d_x: int = 2, C: int = 2) -> tuple[int, int]:
    """Group the C-unit pairings (alpha_c, beta_c) by their coordinate powers (n_1..n_dx) and
    count the classes on which prod_c S^Q_{alpha_c beta_c} is not one polynomial (the step
    claims it always is), by exact evaluation at random integer points."""
    rng = np.random.default_rng(positions)
    X = [[int(v) for v in rng.integers(-9, 10, d_x)] for _ in range(positions)]
    S = [[sum(x[a] * x[b] for x in X) for b in range(d_x)] for a in range(d_x)]
    classes: dict[tuple[int, ...], set[int]] = {}
    for pairs in itertools.product(itertools.product(range(d_x), repeat=2), repeat=C):
        powers = tuple(sum((a == m) + (b == m) for a, b in pairs) for m in range(d_x))
        classes.setdefault(powers, set()).add(math.prod(S[a][b] for a, b in pairs))
    return len(classes), sum(len(v) > 1 for v in classes.values())


@claim(
    id="D2W-Thm4-proof", basis="symbolic", universal=True,
    paper=PAPER,
    reference="Theorem 4 proof (App. A.3), grouping by coordinate powers (chi)",
    statement="sum_{j_1..j_C} prod_c x_{alpha_c}^{(j_c)} x_{beta_c}^{(j_c)} can be grouped by the "
    "powers n_1..n_{d_x} of each coordinate (one chi per power vector), giving the N-independent "
    "bound of eq. 19",
    expected_verdict="unproven",
    defence=Defence(
        version=V003 + " Theorem 2's proof sketch (§4.2) rests on the same step ('a careful "
                "analysis that exploits the sums over j_1..j_C removes the dependence on N').",
        regime="Theorem 4 is an exact bound for every N > 1 and every partition; the step "
               "fails at finite N >= 4 (balanced partitions), not in a limit. For N = 2 (|Q| = "
               "1) the step holds and so does the bound's proof.",
        convention="'Grouping by powers' is valid for a single position: x_alpha x_beta of one "
                   "vector is fixed by the powers. Across a sum over j in Q (|Q| >= 2) it is not "
                   "(S^Q_11 S^Q_22 != (S^Q_12)^2); no convention of the field makes a rank-two "
                   "Gram matrix behave as rank one.",
        definitions="chi is the coefficient of a power vector n_1..n_{d_x} after summing over "
                    "j_1..j_C (App. A.3); the step needs each chi to be one polynomial per "
                    "power vector, which our counterexample contradicts.",
        parameters="No experimental parameter; the counterexample is symbolic (sympy) and by "
                   "hand on integer vectors (3, -2), (1, 4). The theorem itself holds on every "
                   "measured rank (18 <= 2250, 49 <= 33280), hence 'unproven', not 'fails'.",
        extraction="The argument is in words and in eq. 16's LaTeX source (sums over j_1..j_C "
                   "of products x^{(j_c)}_{alpha_c} x^{(j_c)}_{beta_c}); the accusation rests on "
                   "that structure, not on a sign or index extraction could drop.",
        attack=Attack(
            reviewer=REVIEWER, date=ATTACK_DATE, outcome='revised',
            summary=('Upheld, with sharper wording that we adopted: the proof groups the full S = '
                     'XX^T before splitting P and Q, so the printed identity already fails at N = '
                     '2 whenever C >= 2 (S11 S22 - S12^2 = 196 at (3,-2), (1,4)); a per-side count '
                     'rescues the bound only when each side is one position (N = 2); for L = 1 the '
                     'grouping is correct. The gap is not cosmetic: the natural repair gives about '
                     "C^{d_x(d_x+1)/2}, not eq. 19's C^{~2 d_x}; Theorem 6 inherits it. The "
                     'details now say so; the verdict (unproven, proof) is unchanged.')),
    ),
)
def d2w_thm4_proof() -> ClaimResult:
    one = _gram_q(1)
    two = _gram_q(2)
    diff_one, diff_two = sp.expand(one[0] - one[1]), sp.factor(two[0] - two[1])
    classes = {q: _pairing_classes(q) for q in (1, 2, 3)}
    # independent: the same two products from explicit integer vectors, no sympy
    x, y = (3, -2), (1, 4)
    s11, s22, s12 = x[0] ** 2 + y[0] ** 2, x[1] ** 2 + y[1] ** 2, x[0] * x[1] + y[0] * y[1]
    by_hand = s11 * s22 - s12**2
    rows, slacks = {}, []
    for L, d, H, N in ((2, 2, 1, 4), (2, 2, 1, 6), (2, 3, 1, 4)):
        rank = generic_rank(L, d, H, N).rank
        t2 = d2w.theorem2_upper(width=d, depth=L, heads=H)
        t4 = d2w.theorem4_upper(width=d, depth=L, heads=H)
        slacks.append(float(t4.log3) - math.log(rank, 3))
        rows[f"(L={L}, d_x={d}, N={N})"] = {"certified rank": rank,
                                             "Theorem 4": f"{float(t4.value):.4g}",
                                             "Theorem 2": f"3^{float(t2.log3):.3g}",
                                             "admitted": (t4.admits(rank), t2.admits(rank))}
    step_fails = diff_one == 0 and diff_two != 0 and classes[2][1] > 0
    return ClaimResult(
        measured={"S11 S22 - S12^2, one position": str(diff_one),
                  "two positions (the full S at N = 2, or |Q| = 2)": str(diff_two),
                  "power classes with several products (C = 2, d_x = 2), 1, 2, 3 positions":
                      [classes[q][1] for q in (1, 2, 3)]},
        reference_value="one product per power vector",
        verdict="unproven" if step_fails else "holds", kind="proof" if step_fails else None,
        independent=Independent(
            "S11 S22 - S12^2 from the integer vectors (3,-2), (1,4) (two positions of Q)",
            by_hand, agrees=by_hand == (x[0] * y[1] - x[1] * y[0]) ** 2 != 0),
        margin=Margin(min(slacks) * math.log10(3), "Theorem 4 bound / certified rank, N >= 4"),
        details={
            "step": "the inner sum is prod_c S_{alpha_c beta_c} with S = sum_{j in [N]} x^j x^jT, "
                    "and the proof groups it by the coordinate powers before splitting P and Q; "
                    "a product of entries of S depends on the powers alone only if S has rank "
                    "one (a single position), so the printed grouping identity already fails at "
                    "N = 2 whenever C >= 2 (L >= 2): S11 S22 - S12^2 = (x1_1 x2_2 - x1_2 "
                    "x2_1)^2 != 0 (the same computation as for two positions of Q). A per-side "
                    "count (each side a single position, rank-one S^P and S^Q) rescues the bound "
                    "at N = 2; for N >= 4 (|Q| >= 2) the paper has no rescue. For L = 1 (C = 1) "
                    "the grouping is correct. Theorem 6 (residual) adapts this proof and "
                    "inherits the gap",
            "the theorem where computable": rows,
            "verdict": "the step is false, so eq. 19 (and Theorem 2's upper bound built on it) "
                       "is unproven for N >= 4 (the natural repair, a polynomial of degree C in "
                       "the d_x(d_x+1)/2 entries of S^Q, gives about C^{d_x(d_x+1)/2}, not "
                       "eq. 19's C^{~2 d_x}); no measured rank violates it. An N-free bound "
                       "does follow otherwise (y = F(S) x^i, sep <= binom(D + C, C), D = "
                       "d_x(d_x+1)/2, see D2W-N-independence), but it grows like "
                       "3^{L d_x^2/2}, not 3^{2 d_x L}: Theorem 2's exponent is unproven for "
                       "d_x >= 4",
        })


def _thm5_rows() -> dict[str, dict[str, float]]:
    rows = {}
    for d, H, N in ((2, 1, 2), (4, 2, 4), (8, 1, 2)):
        c = N * d**4 // H
        for L in range(1, 7):
            S = c
            for l in range(2, L + 1):     # iterate the proof's recursion literally, exactly
                S = c * (l * S) ** 3
            recursion = (L + 1) * S
            stated = mpmath.mpf(L) * mpmath.log(L, 3) + mpmath.log(c, 3) * (3**L - 1) / 2
            closed = d2w.theorem5_residual_upper(width=d, depth=L, heads=H, n_inputs=N,
                                                 form="recursion")
            rows[f"(L={L}, d_x={d}, H={H}, N={N})"] = {
                "log3 recursion (exact iteration)": float(mpmath.log(recursion, 3)),
                "log3 library recursion": float(closed.log3),
                "log3 stated": float(stated),
                "log3 library stated": float(d2w.theorem5_residual_upper(width=d, depth=L, heads=H,
                                                                         n_inputs=N).log3)}
    return rows


@claim(
    id="D2W-Thm5-proof", basis="exact", universal=True,
    paper=PAPER,
    reference="Theorem 5 proof (App. A.4)",
    statement="Sep(branch(L)) <= (N d_x^4/H)(L Sep(branch(L-1)))^3 with Sep(branch(1)) = "
    "N d_x^4/H gives Sep(y_p^{L,i}) <= prod_{l=1}^L (l+1)(N d_x^4/H)^{3^{l-1}}, satisfying the "
    "theorem",
    expected_verdict="unproven",
    defence=Defence(
        version=V003,
        regime="Theorem 5 is stated exactly (log_3 Sep <= L log_3 L + ...), not up to "
               "constants; read up to a constant in the base of c = N d_x^4/H, the recursion's "
               "extra factor prod_l l^{3^{L-l+1}} (of order 2^{3^{L-1}}) would be absorbed and "
               "the paper's conclusion ('the effect of residual connections is insignificant') "
               "survives. The exact statement's proof does not.",
        convention="None: the recursion Sep(branch(L)) <= c (L Sep(branch(L-1)))^3 is iterated "
                   "by plain arithmetic.",
        definitions="Sep(branch(1)) = c and the recursion are the proof's own; iterating them "
                    "exactly gives (L+1) c^{C(L)} prod_{l=2}^L l^{3^{L-l+1}}, above the printed "
                    "product (L+1)! c^{C(L)}, which is itself above L^L c^{C(L)} for L = 1, 2.",
        parameters="No experimental parameter; iterated in exact integers for (d_x, H, N) = "
                   "(2,1,2), (4,2,4), (8,1,2), L = 1..6. The theorem holds on every measured "
                   "residual rank (D2W-Thm5), hence 'unproven', not 'fails'.",
        extraction="The LaTeX source of the proof's last display reads 'Sep(y_p^{L,i})\\leq"
                   "\\prod_{l=1}^{L}(l+1)(\\frac{Nd_x^4}{H})^{3^{l-1}}', and of the "
                   "theorem 'L\\log_3 L + (4\\log_3 d_x + \\log_3 N - \\log_3 H) "
                   "\\frac{3^L-1}{2}': no exponent or sign the accusation rests on is missing.",
        attack=Attack(
            reviewer=REVIEWER, date=ATTACK_DATE, outcome='upheld',
            summary=('Iterated the recursion exactly (c = N d_x^4/H = 32): (L+1) c^{C(L)} prod_l '
                     'l^{3^{L-l+1}}; log3(recursion / theorem) = 0.63, 1.63, 6.94, 26.24, 88.16, '
                     '278.45 for L = 1..6, and the printed product (L+1)! c^{C(L)} is above the '
                     'theorem for L = 1, 2. The theorem is plausible (at L = 1 a direct count '
                     'gives sep <= 1 + d_x(d_x+1)/2), so unproven (proof) stands.')),
    ),
)
def d2w_thm5_proof() -> ClaimResult:
    rows = _thm5_rows()
    excess = {k: r["log3 recursion (exact iteration)"] - r["log3 stated"] for k, r in rows.items()}
    step_fails = all(v > 0 for v in excess.values())
    agree = all(abs(r["log3 recursion (exact iteration)"] - r["log3 library recursion"]) < 1e-9
                and abs(r["log3 stated"] - r["log3 library stated"]) < 1e-9 for r in rows.values())
    return ClaimResult(
        measured={"min log3(recursion / stated bound)": round(min(excess.values()), 4)},
        reference_value="recursion <= stated bound",
        verdict="unproven" if step_fails else "holds", kind="proof" if step_fails else None,
        independent=Independent("the recursion iterated in exact integers and the stated bound "
                                "in mpmath, written here, against the library's closed forms",
                                {k: round(v, 3) for k, v in list(excess.items())[:6]}, agree),
        details={"finding": "the recursion the proof describes iterates to (L+1) c^{C(L)} "
                            "prod_{l=2}^L l^{3^{L-l+1}}, c = N d_x^4/H, which exceeds the stated "
                            "L^L c^{C(L)} for every L (L = 1: 2c > c; the l = 2 factor alone "
                            "is 2^{3^{L-1}}); the printed product (L+1)! c^{C(L)} drops the cubing "
                            "of the l factors. So the stated theorem has no valid proof",
                 "not refuted": "every measured residual rank is below the stated bound "
                                "(D2W-Thm5 holds)",
                 "rows": rows})


def _eq21_absorbed(d: int, H: int, N: int, seed: int) -> tuple[int, int, int]:
    """eq. 21 summed over all seven indices, and over (alpha1, alpha2, j, alpha4, alpha6)
    with h and alpha5 absorbed into one coefficient each, for random integer weights and
    inputs G (exact integers): (full sum, absorbed sum, number of absorbed terms)."""
    rng = np.random.default_rng(seed)
    da, i, p = d // H, 0, 0
    WO, WV, WK, WQ = (rng.integers(-3, 4, shape) for shape in
                      ((H, d, da), (H, da, d), (H, da, d), (H, da, d)))
    G = rng.integers(-3, 4, (d, N))
    full = sum(int(WO[h, p, a1] * WV[h, a1, a2] * G[a2, j] * G[a4, j] * WK[h, a5, a4]
                   * WQ[h, a5, a6] * G[a6, i])
               for h, a1, a2, j, a4, a5, a6 in itertools.product(
                   range(H), range(da), range(d), range(N), range(d), range(da), range(d)))
    absorbed, terms = 0, 0
    for a1, a2, j, a4, a6 in itertools.product(range(da), range(d), range(N), range(d),
                                               range(d)):
        coefficient = sum(int(WO[h, p, a1] * WV[h, a1, a2] * WK[h, a5, a4] * WQ[h, a5, a6])
                          for h in range(H) for a5 in range(da))
        absorbed += coefficient * int(G[a2, j] * G[a4, j] * G[a6, i])
        terms += 1
    return full, absorbed, terms


@claim(
    id="D2W-Lemma2-count",
    paper=PAPER,
    reference="Lemma 2 proof (App. A.4, eq. 21)",
    statement="Sep(y_p^i) <= (N d_x^4/H) K^3, by multiplying the number of summed terms in "
    "eq. 21 by K^3",
    perturbation=Perturbed("the count N d_x^3/H in place of N d_x^4/H", count_exponent=3),
    universal=True,
    basis="symbolic",
)
def d2w_lemma2_count(count_exponent: int = 4) -> ClaimResult:
    """The proof's count is that of the (alpha1, alpha2, j, alpha4, alpha6) terms of eq. 21
    once h and alpha5 are absorbed into the coefficients -- as the paper itself absorbs the h
    summation in Theorem 6's proof ('similarly to the h summation, the summation over alpha
    has no influence on the separation rank, since it collapses into a single coefficient').
    Each term is a coefficient times G_{alpha2 j} G_{j alpha4} G_{alpha6 i}, of separation
    rank <= K^3."""
    d, H, N = sp.symbols("d_x H N", positive=True)
    ranges = {"alpha1": d / H, "alpha2": d, "j": N, "alpha4": d, "alpha6": d}
    printed = N * d**count_exponent / H
    identity = sp.simplify(sp.prod(ranges.values()) - printed) == 0
    rows, ok = {}, identity
    for dx, heads, n in [(2, 1, 2), (4, 2, 2), (6, 3, 2)]:
        full, absorbed, terms = _eq21_absorbed(dx, heads, n, seed=dx * 10 + heads)
        stated = n * dx**count_exponent // heads
        ok &= full == absorbed and terms == stated
        rows[f"(d_x={dx}, H={heads}, N={n})"] = {
            "eq. 21, all seven sums": full, "absorbed form": absorbed,
            "terms after absorbing h, alpha5": terms, "printed count": stated,
            "index tuples before absorbing": lemma2_summed_terms(dx, heads, n)}
    return exact_result(
        measured=rows, reference_value=f"terms = N d_x^{count_exponent}/H",
        what="sympy identity (d_x/H) d_x N d_x d_x = N d_x^4/H; exact integer sums", holds=ok,
        details={"count": "the (alpha1, alpha2, j, alpha4, alpha6) ranges of eq. 21 multiply to "
                          f"N d_x^4/H for all d_x, H, N (sympy: {identity}); summing h and "
                          "alpha5 into each term's coefficient leaves eq. 21 unchanged (exact "
                          "integers, random weights and inputs, above)",
                 "why it is the proof's count": "the paper absorbs the h summation into a "
                          "coefficient itself (Theorem 6's proof, App. A.4); the proof is terse "
                          "(it does not say which sums it absorbs), not invalid. Counting all "
                          "seven index tuples gives N d_x^5/H, a looser but also valid bound",
                 "was": "erratum (typo) until the 2026-11 audit, then unproven (proof) until "
                        "the 2026-12 audit's "
                        "audit: the printed N d_x^4/H is exactly the number of (alpha1, alpha2, "
                        "j, alpha4, alpha6) terms once h and alpha5 are absorbed, as the paper "
                        "does for h in Theorem 6's proof -- terse, not invalid"})


@claim(
    id="D2W-Claim2-complex", basis="exact", universal=True,
    paper=PAPER,
    reference="Claim 2 and its proof (App. B.1.3)",
    statement="with f = sum_i f_i(theta)^2 over the r x r minors, f(theta) = 0 iff rank A(theta) "
    "< r, for theta in F^K with F = R or C",
    expected_verdict="unproven",
    defence=Defence(
        version=V003 + " The claim adapts Sharir et al. (2016), whose argument is over R^K, "
                "where the step is valid.",
        regime="An exact algebraic step; no asymptotic regime.",
        convention="For complex numbers 'f_i(theta)^2' is sometimes meant as |f_i(theta)|^2; "
                   "with that reading the equivalence holds over C and the proof goes through "
                   "unchanged. The printed f = sum f_i^2 is called 'a new polynomial function' "
                   "in theta, which |f_i|^2 is not over C, so the text does not support that "
                   "reading; the repair is one line, recorded in the details.",
        definitions="Claim 2's theta ranges over F^K with F = R or C (printed); the proof then "
                    "applies 'f(theta) = 0 iff rank < r' at the assumed theta in F^K, i.e. at a "
                    "complex point for the Lemma 6 witness.",
        parameters="No experimental parameter; counterexample A(t) = [1, t] (real "
                   "coefficients, as the grid tensor's), r = 1: f = 1 + t^2 vanishes at the "
                   "complex point t = i where rank A = 1. The claim itself holds (a minor "
                   "non-zero at a complex point is a non-zero polynomial), hence 'unproven'.",
        extraction="The LaTeX source reads 'f(\\theta)=\\sum_{i=1}^{c}f_{i}(\\theta)^{2}' "
                   "and '\\mathbb{F} is either \\mathbb{R} or \\mathbb{C}': no modulus bars "
                   "were lost (they would be in the source).",
        attack=Attack(
            reviewer=REVIEWER, date=ATTACK_DATE, outcome='revised',
            summary=('The point stands (f = sum f_i^2 = 0 iff rank < r is false at complex theta, '
                     'and the Lemma 6 witness is complex), but the old counterexample A(t) = [1, i '
                     "t] at t = 1 is a real point with complex coefficients; the paper's situation "
                     '(real templates) calls for A(t) = [1, t] at t = i: f(i) = 1 + i^2 = 0 while '
                     'rank A(i) = 1. We replaced the counterexample and recorded the one-line '
                     'repair for real-coefficient entries (f zero on R^K forces every f_i to be '
                     'the zero polynomial, contradicting the complex witness). Verdict unchanged: '
                     'unproven (proof), a minor gap.')),
    ),
)
def d2w_claim2_complex() -> ClaimResult:
    t = sp.symbols("t")
    # polynomial entries with real coefficients, as the grid tensor's are (real templates),
    # evaluated at the complex point t = i (the Lemma 6 witness is complex)
    A = sp.Matrix([[1, t]])                   # 1 x 2, r = 1: minors 1 and t
    minors = [A[0, 0], A[0, 1]]
    f = sp.expand(sum(m**2 for m in minors))
    at_i = f.subs(t, sp.I)
    rank_at_i = A.subs(t, sp.I).rank()
    # independent: plain complex arithmetic
    by_hand = 1**2 + (1j) ** 2
    square = sp.Matrix([[1, 2], [3, 4 + sp.I]])   # the paper's use: one square minor, f = det^2
    step_fails = at_i == 0 and rank_at_i == 1
    return ClaimResult(
        measured={"f(t) for A = [[1, t]]": str(f), "f(i)": str(at_i),
                  "rank A(i)": int(rank_at_i)},
        reference_value="f(theta) = 0 iff rank < r",
        verdict="unproven" if step_fails else "holds", kind="proof" if step_fails else None,
        independent=Independent("1^2 + (1j)^2 in Python complex arithmetic", by_hand,
                                agrees=by_hand == 0),
        details={"finding": "over C a sum of squares of non-zero minors can vanish, so the "
                            "proof's equivalence fails at complex theta (the witness of Lemma 6 "
                            "is complex): A = [1, t] at t = i has f = 0 and rank 1; the claim "
                            "itself holds by the standard argument: a minor non-zero at some "
                            "complex theta is a non-zero polynomial, so it vanishes only on a "
                            "null set of R^K",
                 "repair": "for real-coefficient entries (the paper's case: real templates) one "
                           "line closes the gap: if f were the zero polynomial, every f_i would "
                           "vanish on R^K, hence be the zero polynomial, hence vanish at the "
                           "complex witness -- a contradiction; for complex-coefficient entries, "
                           "which the claim's wording allows, take real and imaginary parts of "
                           "one non-zero minor",
                 "the paper's use": "a square sub-matrix with r its size has one minor, f = "
                                    f"det^2 (e.g. det = {square.det()}), and there the step is "
                                    "valid over C: the lower bounds are unaffected"})


def _printed_maps(d_x: int, H: int, R: int) -> dict[str, list[int]]:
    """The 1-based indices the printed Lemma 6 formulas address, for every case they cover."""
    d_a = d_x // H
    s = (d_a - 1) // 2
    first_half = [j for j in range(1, d_x + 1) if (j - 1) % d_a < s]
    return {
        "template rows (b)": [i - R + 1 for i in range(R + 1, 2 * R + 1)],   # V_{i-M/2+1}
        "V columns phi (c)": [(j - 1) // d_a * (d_a - 1) + (j - 1) % d_a + 1 for j in first_half],
        "eq. 36 u index (d)": [d_a * h + a - 1 for h in range(1, H + 1) for a in range(1, s + 1)],
    }


def _corrected_maps(d_x: int, H: int, R: int) -> dict[str, list[int]]:
    d_a = d_x // H
    s = (d_a - 1) // 2
    first_half = [j for j in range(1, d_x + 1) if (j - 1) % d_a < s]
    return {
        "template rows (b)": [i - R for i in range(R + 1, 2 * R + 1)],
        "V columns phi (c)": [(j - 1) // d_a * s + (j - 1) % d_a + 1 for j in first_half],
        "eq. 36 u index (d)": [d_a * (h - 1) + a for h in range(1, H + 1) for a in range(1, s + 1)],
    }


@claim(
    id="D2W-Lemma6-index-slips",
    paper=PAPER,
    reference="Lemma 6 templates (phi, V_{i-M/2+1}), eqs. 36, 51",
    statement="templates x^{(i)}_j = V_{i-M/2+1, phi(j-(d_a-1)/2)} for M/2 < i <= M with "
    "phi(j) = floor((j-1)/d_a)(d_a-1) + ((j-1) mod d_a) + 1; eq. 36 reads u_{d_a h + alpha - 1}",
    expected_verdict="erratum",
    defence=Defence(
        version=V003,
        regime="Exact index maps; no asymptotic regime.",
        convention="0- vs 1-based indexing: (b) V_{i-M/2+1} is right if i is 0-based and V "
                   "1-based, (d) u_{d_a h + alpha - 1} if h and u are 0-based. The proof mixes "
                   "conventions (eq. 37 and the definition of v^(h) use the 0-based range "
                   "d_a(h-1) <= k < d_a h), so (d) read alone is consistent with a 0-based h; "
                   "but the templates are 1-based (I~: 1 <= i_1 <= M/2; J~: M/2 < j_1 <= M) and "
                   "so are the heads of W^{V,1,h} whose product eq. 36 computes ('d_a(h-1) < j "
                   "<= ...'), and relative to those (d) addresses head h+1: still a slip. No "
                   "single convention makes (b), (c) and (d) all bijections. (c) has no "
                   "indexing reading: a stride d_a - 1 per head needs H(d_a - 1) columns, V has "
                   "(d_x - H)/2 = H(d_a - 1)/2.",
        definitions="Lemma 6 takes V in R^{M/2 x (d_x - H)/2} (printed); phi must map each "
                    "head's first (d_a - 1)/2 coordinates onto V's columns, the template rows "
                    "M/2 < i <= M onto V's rows 1..M/2.",
        parameters="No experimental parameter; the maps are enumerated at (d_x, H, M/2) = "
                   "(5,1,3), (9,3,10), (15,5,35), (21,3,20), and with the corrected maps the "
                   "witness certifies full rank ((d lambda)) (D2W-Lemma6-witness).",
        extraction="Each index is printed with its LaTeX source ('V_{i-\\nicefrac{M}{2}+1,"
                   "\\phi(j-\\frac{d_a-1}{2})}', 'u_{d_a h+\\alpha-1}', eq. 51's "
                   "'V_{i_1,(d_a-1)\\cdot(h-1)+k}'): the offsets and strides are in the source, "
                   "not artefacts of extraction.",
        attack=Attack(
            reviewer=REVIEWER, date=ATTACK_DATE, outcome='revised',
            summary=("(b) and (c) upheld as unambiguous (own construction: 'index out of range' "
                     'with the printed indices in every setting, H = 1 included through (b)). (d) '
                     'is weaker: eq. 37 and the definition of v^(h) use the 0-based range d_a(h-1) '
                     '<= k < d_a h, so citing eq. 37 for 1-based indexing was wrong; relative to '
                     'the 1-based W^{V,1,h} (d_a(h-1) < j <= ...) it is still a slip. The defence '
                     "now argues from W^{V,1,h}. The reviewer also noted that eq. 36's second case "
                     'repeats the value-rows slip (recorded there). With the corrected indices the '
                     'sub-matrix is proportional and full rank: 2, 4, 3, 10, 35, 165 at (d_x, H, '
                     'L) = (5,1,2), (5,1,3), (9,3,2), (9,3,3), (15,5,3), (21,3,3). Kind typo '
                     'stands.')),
    ),
    basis="exact", universal=True,
)
def d2w_lemma6_index_slips() -> ClaimResult:
    printed, corrected, lib_agrees = {}, {}, True
    for d_x, H, R in ((5, 1, 3), (9, 3, 10), (15, 5, 35), (21, 3, 20)):
        d_a = d_x // H
        s = (d_a - 1) // 2
        sizes = {"template rows (b)": R, "V columns phi (c)": H * s,
                 "eq. 36 u index (d)": d_x}
        wanted = {"template rows (b)": list(range(1, R + 1)),
                  "V columns phi (c)": list(range(1, H * s + 1)),
                  "eq. 36 u index (d)": [d_a * h + a for h in range(H) for a in range(1, s + 1)]}
        key = f"(d_x={d_x}, H={H}, M/2={R})"
        printed[key] = {n: (max(m) <= sizes[n] and m == wanted[n])
                        for n, m in _printed_maps(d_x, H, R).items()}
        corrected[key] = {n: m == wanted[n] for n, m in _corrected_maps(d_x, H, R).items()}
        # the library's templates must place row t of V at the corrected slots
        V = np.arange(1, R * H * s + 1, dtype=object).reshape(R, H * s)
        T = d2w.lemma6_templates(V, d_x, H)
        cols = _corrected_maps(d_x, H, R)["V columns phi (c)"]
        first_half = [j for j in range(1, d_x + 1) if (j - 1) % d_a < s]
        lib_agrees &= all(T[t, j - 1] == V[t, c - 1] and T[R + t, j - 1 + s] == V[t, c - 1]
                          for t in range(R) for j, c in zip(first_half, cols, strict=True))
    printed_ok = all(all(v.values()) for v in printed.values())
    corrected_ok = all(all(v.values()) for v in corrected.values())
    return exact_result(
        measured=printed, reference_value="each map is the bijection it is meant to be",
        what="integer index maps", holds=printed_ok, corrected=corrected_ok, kind="typo",
        independent=Independent("the library's templates (lemma6_templates) place V at the "
                                "corrected slots", lib_agrees, lib_agrees),
        details={"printed": "(b) V_{i-M/2+1} addresses rows 2..M/2+1 (row M/2+1 does not exist, "
                            "row 1 is never used); (c) phi's stride d_a - 1 per head needs "
                            "H(d_a-1) columns, V has (d_x-H)/2 (out of range for H >= 2, also "
                            "eq. 51); (d) u_{d_a h+alpha-1} addresses head h+1's segment and "
                            f"leaves d_x for h = H: {printed}",
                 "corrected": "V_{i-M/2}, stride (d_a-1)/2, u_{d_a(h-1)+alpha} are the intended "
                              f"bijections: {corrected}; with them the witness certifies "
                              "((d lambda)) (D2W-Lemma6-witness); (e), (f), (h) change only the "
                              "constant or the name of an exponent (checked by the constant of "
                              "D2W-Lemma6-witness)",
                 "reading": "the paper indexes positions, templates and heads from 1 (eq. 37: "
                            "d_a(h-1) <= k < d_a h); (d) is right only if h and u are read "
                            "0-based there, (b) only if i is read 0-based against a 1-based V"})
