"""Paper 003 lower-bound machinery: Lemma 6 witness, Hadamard ranks, Lemmas 3, 4, 7, 8.

Reading notes §3 (Lemmas 3-8), §4.1 (witness fixes, verified list), §6 (PC8, PC9, PC14,
PC15), §7 (items 3, 10).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import numpy as np

from paper_checks.claims.d2w.common import ATTACK_DATE, REVIEWER, V003
from paper_checks.compare import exact_result
from paper_checks.defence import Attack, Defence
from paper_checks.evidence import Proves
from paper_checks.perturbation import Perturbed
from paper_checks.registry import (
    ClaimResult,
    Independent,
    Margin,
    claim,
    judge,
    register_check,
)
from paper_checks.seeds import setting_seed
from seprank import WitnessResult, lemma6_witness, matrix_rank, multiset_coefficient
from seprank.core.gaussian_rationals import GaussianRational
from seprank.d2w.hadamard import hadamard_power_rank, lemma7_determinant, paper_witness_V
from seprank.d2w.lemmas import (
    hadamard_power_rank_bound,
    lemma3_equality_case,
    lemma3_multiset_product,
    lemma4_multiset_upper,
    lemma8_rearrangement,
    multiset_lower_bounds,
)

PAPER = "003"
WITNESS_CASES = ((2, 5, 1, 2), (3, 5, 1, 2), (3, 5, 1, 4), (3, 7, 1, 2), (2, 9, 3, 2),
                 (3, 9, 3, 2), (3, 9, 3, 4), (3, 15, 5, 2), (4, 5, 1, 2), (4, 9, 3, 2),
                 (5, 5, 1, 2), (6, 5, 1, 2))
#: the constants c of c (VV^T)^lambda for the fixed weights, computed independently in the
#: reading notes (§4.1, L <= 3)
CONSTANTS = {(2, 5, 1, 2): -1, (3, 5, 1, 2): 8, (3, 5, 1, 4): 2, (3, 7, 1, 2): 18,
             (2, 9, 3, 2): -1, (3, 9, 3, 2): 2, (3, 9, 3, 4): 0.5, (3, 15, 5, 2): 2,
             (3, 29, 1, 2): 392}


def closed_form_constant(L: int, d_x: int, H: int, N: int, sign_flipped: bool = False
                         ) -> Fraction:
    r"""c = (-1)^{(lambda+1)/2} 2^lambda s^{lambda-1} N^{-(lambda+1)/2}, s = (d_a - 1)/2: solved
    by hand from the recurrence of eqs. 45-48 (N exponent alpha_l = (3^{l-1}-1)/2, s exponent
    3^{l-2} - 1) with the fixed last layer and ||v~||^2 = 2i (VV^T)_{ij} / N^2.
    ``sign_flipped`` gives the perturbed (-1)^{(lambda-1)/2}."""
    lam, s = 3 ** (L - 2), (d_x // H - 1) // 2
    sign = (-1) ** ((lam - 1) // 2 if sign_flipped else (lam + 1) // 2)
    return Fraction(sign * 2**lam * s ** (lam - 1), N ** ((lam + 1) // 2))
LEMMA6_STATEMENT = ("for any balanced (I, J), even M and V with l2-normalized rows there are M+1 "
                    "templates and weights with [[A(y)]]_{I~,J~} = Const (V V^T)^{odot 3^{L-2}} "
                    "(eq. 28), of full rank ((d lambda)) for the V of App. B.2")


#: Witnesses up to this size ship certificates (the checker recomputes R^2 entries of a width
#: d_x network in pure Python; the 560 x 560 witness of d_x = 29 would take hours).
CERTIFIED_WITNESS_LIMIT = 130


@cache
def _witness_result(L: int, d: int, H: int, N: int) -> WitnessResult:
    return lemma6_witness(d, L, H, N, seed=setting_seed(0, "lemma6 witness", L, d, H, N))


def _witness(L: int, d: int, H: int, N: int
             ) -> tuple[int, str, bool, bool, GaussianRational | None]:
    r = _witness_result(L, d, H, N)
    return r.rank, r.certifies, r.proportional, bool(r.constant_matches), r.constant


def d2w_lemma6_witness(cases: tuple[tuple[int, int, int, int], ...],
                       constant_sign_flipped: bool = False) -> ClaimResult:
    rows, ok = {}, True
    for L, d, H, N in cases:
        rank, certifies, proportional, matches, constant = _witness(L, d, H, N)
        D = (d - H) // 2
        expected = multiset_coefficient(D, 3 ** (L - 2))
        closed = closed_form_constant(L, d, H, N, sign_flipped=constant_sign_flipped)
        c_ok = (constant is not None and constant == GaussianRational(closed)
                and (constant_sign_flipped
                     or complex(constant) == CONSTANTS.get((L, d, H, N), complex(constant))))
        good = rank == expected and certifies == "exact" and proportional and matches and c_ok
        ok &= good
        rows[f"(L={L}, d_x={d}, H={H}, N={N})"] = (
            f"rank {rank} = (({D} {3 ** (L - 2)})) = {expected}: {rank == expected}, "
            f"proportional {proportional}, c = {constant}")
    certificates = {f"Lemma 6 witness L={L} d_x={d} H={H} N={N}":
                    _witness_result(L, d, H, N).certificate()
                    for L, d, H, N in cases
                    if _witness_result(L, d, H, N).rank <= CERTIFIED_WITNESS_LIMIT}
    return exact_result(measured=rows, reference_value="rank ((d lambda)), c (VV^T)^lambda",
                        what="integer ranks, exact constants", holds=ok, certificates=certificates,
                        details={"certification": "GF(p), p = 1 mod 4, i -> sqrt(-1) mod p, "
                                                  "exactly normalised rational V; full rank mod p "
                                                  "proves sep >= ((d lambda)) almost everywhere",
                                 "constant": "equal to the closed form solved by hand from "
                                             "eqs. 45-48 (and to the notes' values)",
                                 "weights": "with the index fixes of notes §7.3 (a)-(c), (g)"})


def witness_requirements(cases: tuple[tuple[int, int, int, int], ...]) -> tuple[Proves, ...]:
    """What the witnesses' certificates must prove: the grid rank ((d lambda)) of a network of
    each case's shape (those up to :data:`CERTIFIED_WITNESS_LIMIT` ship one)."""
    out = []
    for L, d, H, N in cases:
        expected = multiset_coefficient((d - H) // 2, 3 ** (L - 2))
        if expected <= CERTIFIED_WITNESS_LIMIT:
            out.append(Proves("grid_rank", ">=", expected,
                              subject={"function": {"type": "linear_attention", "depth": L,
                                                    "width": d, "heads": H, "residual": False},
                                       "n_inputs": N},
                              name=f"Lemma 6 witness L={L} d_x={d} H={H} N={N}"))
    return tuple(out)


for _id, _cases in (("D2W-Lemma6-witness", WITNESS_CASES), ("D2W-Lemma6-witness-560",
                                                            ((3, 29, 1, 2),))):
    register_check(d2w_lemma6_witness, id=_id, args={"cases": _cases}, paper=PAPER,
                   proves=witness_requirements(_cases),
                   reference="Lemma 6 (eq. 28), App. B.2", statement=LEMMA6_STATEMENT,
                   perturbation=Perturbed("eq. 28's constant with the sign (-1)^{(lambda-1)/2} "
                                          "in place of the (-1)^{(lambda+1)/2} solved from eqs. "
                                          "45-48", constant_sign_flipped=True),
                   certifies=all(multiset_coefficient((d - H) // 2, 3 ** (L - 2))
                                 <= CERTIFIED_WITNESS_LIMIT for L, d, H, _ in _cases),
                   # for any balanced (I, J) and sizes: exhibited at the listed sizes
                   universal=True,
                   basis="not_refuted")


def _partial_norm_submatrix(V: np.ndarray, head_cols: slice | None) -> np.ndarray:
    """L = 2: entry (i1, j1) of the sub-matrix is proportional to sum_k (V_{i1 k} + i V_{j1 k})^2
    over the columns k the output coordinate sees (one head's with the printed last layer)."""
    W = V if head_cols is None else V[:, head_cols]
    return np.array([[np.sum((a + 1j * b) ** 2) for b in W] for a in W])


@claim(
    id="D2W-Lemma6-last-layer",
    paper=PAPER,
    reference="Lemma 6 weights (W^{V,L,h} = i 1_{j=d_a}), eqs. 49-50",
    statement="with W^{V,L,h}_{i,j} = i 1_{j = d_a} the last layer outputs N^{(3^{L-1}-1)/2} i "
    "||v~||^{2 3^{L-2}}, so the sub-matrix is Const (VV^T)^{odot 3^{L-2}}",
    expected_verdict="erratum",
    defence=Defence(
        version=V003,
        regime="An exact construction for every H with odd d_a >= 3; no asymptotic regime. For "
               "H = 1 the printed weights are right (measured), so the lower bounds of Theorems "
               "1-2 stand at H = 1 as printed and for all H with the corrected last layer.",
        convention="If W^{O,L,h} summed every head into every output segment (a common "
                   "multi-head convention is concatenation, which the paper uses: W^{O,l,h}_{ij} "
                   "= 1_{j = i - d_a(h-1)} for d_a(h-1) < i <= d_a h, printed for all l), eq. "
                   "49's sum over h would reach coordinate k. The printed W^{O} defines it for "
                   "every layer l including L, so output coordinate p sees one head only.",
        definitions="eq. 44 defines ||v~||^2 = sum_h <v~^(h), v~^(h)>; eq. 50 needs that full "
                    "norm at output coordinate p, while the printed last layer delivers "
                    "<v~^(h), v~^(h)> of the head containing p.",
        parameters="No experimental parameter; measured exactly (GF(p)) at (L, d_x, H, N) = "
                   "(2,9,3,2), (3,15,5,2), (3,5,1,2), and by hand in numpy at L = 2, H = 3.",
        extraction="W^{V,L,h} = 'i \\cdot 1_{j=d_a}' and W^{O,l,h} are printed with their "
                   "LaTeX source; the accusation rests on the head segments of W^{O}, whose "
                   "bounds 'd_a(h-1) < i <= d_a h' are in the source.",
        attack=Attack(
            reviewer=REVIEWER, date=ATTACK_DATE, outcome='revised',
            summary=('The failure is confirmed for H > 1 under either reading of 1_{j = d_a} (own '
                     'construction: not proportional at (9,3,2), (9,3,3), (15,5,3), (21,3,3); '
                     'proportional at (5,1,3) and with the corrected last layer everywhere), but '
                     "'hypothesis' was the wrong kind: Lemma 6 is an existence statement that "
                     'holds for every H with corrected weights; what fails is the printed '
                     'construction (eqs. 49-50). We changed the kind to typo, as for the sibling '
                     "Lemma 6 slips. The reviewer's side observation (the printed last layer still "
                     'gives full rank) is measured and recorded: certified full rank 3/3, 35/35 '
                     'with random V.')),
    ),
    basis="numeric", universal=True,
)
def d2w_lemma6_last_layer() -> ClaimResult:
    printed, corrected = {}, {}
    printed_ok, corrected_ok, h1_ok = True, True, True
    for L, d, H, N in ((2, 9, 3, 2), (3, 15, 5, 2), (3, 5, 1, 2)):
        R = multiset_coefficient((d - H) // 2, 3 ** (L - 2))
        lit = lemma6_witness(d, L, H, N, last_layer="printed", seed=1)
        lit_paper = lemma6_witness(d, L, H, N, V="paper", method="svd", last_layer="printed")
        fix = lemma6_witness(d, L, H, N, seed=1)
        if H == 1:
            h1_ok &= lit.proportional
        else:
            printed_ok &= lit.proportional and lit_paper.rank == R
        corrected_ok &= fix.proportional and fix.rank == R and fix.certifies == "exact"
        key = f"(L={L}, d_x={d}, H={H}, N={N})"
        printed[key] = (f"proportional: {lit.proportional} (GF(p), exact); certified rank "
                        f"{lit.rank} of {R} (random V); rank with the paper's V: "
                        f"{lit_paper.rank} of {R} (float SVD, certifies nothing)")
        corrected[key] = f"proportional: {fix.proportional}; certified rank {fix.rank} of {R}"
    # independent (L = 2, d_x = 9, H = 3): the entries as written here, from a unit-row V
    V = np.random.default_rng(4).standard_normal((3, 3))
    V /= np.linalg.norm(V, axis=1, keepdims=True)
    head = _partial_norm_submatrix(V, slice(0, 1))
    full = _partial_norm_submatrix(V, None)
    gram = V @ V.T
    head_prop = bool(np.allclose(head / head[0, 0], gram / gram[0, 0]))
    full_prop = bool(np.allclose(full, 2j * gram))
    return ClaimResult(
        measured={"printed": printed, "fixed": corrected}, reference_value="Const (VV^T)^lambda",
        verdict=judge(printed_ok, corrected_ok), kind="typo",
        independent=Independent(
            "L = 2, H = 3: the sub-matrix entries sum_k (V_i1k + i V_j1k)^2 over one head's "
            "columns (printed) and over all columns (fixed), numpy written here",
            {"one head proportional to VV^T": head_prop, "all heads = 2i VV^T": full_prop},
            not head_prop and full_prop),
        details={"printed": printed, "corrected": corrected,
                 "holds for H = 1": f"the printed last layer is right when H = 1: {h1_ok}",
                 "kind": "typo in the construction (was 'hypothesis' until the independent "
                         "attack of the 2026-11 audit): Lemma 6 is an existence statement and "
                         "holds for "
                         "every H with the corrected weights; what fails is eqs. 49-50 for the "
                         "printed last layer when H > 1",
                 "rank survives": "with the printed last layer the sub-matrix is not "
                                  "proportional to (VV^T)^lambda (eq. 28 fails) but its certified "
                                  "rank is still full in the cases above (random V): the "
                                  "downstream rank conclusion may survive",
                 "fix": "W^{V,L,h} = i e_1 e_{(h, d_a)}^T (head h's own constant slot) and "
                        "W^{O,L,h} = e_p e_1^T (every head writes into output coordinate p)",
                 "why": "with head-wise W^O each output coordinate sees one head's partial norm "
                        "<v~^(h), v~^(h)>, not ||v~||^2 = sum_h <v~^(h), v~^(h)> (H > 1 only)"})


@claim(
    id="D2W-Lemma6-value-rows",
    paper=PAPER,
    reference="Lemma 6 weights W^{V,1,h} (rows (d_a-1)/2 < i <= d_a - 1), eq. 34",
    statement="the first layer outputs v = [u, 1 - u, 1] per head (eq. 34), with W^{V,1,h} as "
    "printed",
    expected_verdict="erratum",
    defence=Defence(
        version=V003,
        regime="An exact construction; no asymptotic regime.",
        convention="Row and column roles swapped (W read as acting on rows) would not help: the "
                   "case pairs rows (d_a-1)/2 < i <= d_a - 1 with columns d_a(h-1) < j <= "
                   "d_a(h-1) + (d_a-1)/2 through 1_{i = j - d_a(h-1)}, which needs i <= "
                   "(d_a-1)/2 under either reading; 0-based indices shift both sides alike.",
        definitions="eq. 34 (the paper's own target) says the second half of each head's output "
                    "is 1 - V_{i1,.} - i V_{j1,.}; with the printed indicator those entries are "
                    "never written, so the second half is the constant 1 alone.",
        parameters="No experimental parameter; the indicator enumerated at (d_x, H) = (5,1), "
                   "(9,3), (15,5) (fires 0 times) and the witness measured exactly at (L, d_x, "
                   "H, N) = (3,5,1,2), (3,9,3,2).",
        extraction="The case's LaTeX source reads '1_{i=j-d_{a}(h-1)}' with the conditions "
                   "'d_a(h-1) < j <= d_a(h-1) + \\frac{d_a-1}{2}' and '\\frac{d_a-1}{2} < i "
                   "<= d_a-1': the missing offset + (d_a-1)/2 is not in the source.",
        attack=Attack(
            reviewer=REVIEWER, date=ATTACK_DATE, outcome='revised',
            summary=('Upheld: cases 3 and 4 of W^{V,1,h} never fire (each needs i <= (d_a-1)/2), '
                     'so the second half of v is 1 instead of 1 - u; the correction reproduces eq. '
                     '34. Qualification adopted: the slip only matters for L >= 3 (at L = 2 the '
                     'second half is never read); measured and recorded (printed rows proportional '
                     "at (L, d_x, H) = (2,5,1), (2,9,3), not at L = 3). Eq. 36's second case "
                     'carries the same slip (recorded).')),
    ),
    basis="exact", universal=True,
)
def d2w_lemma6_value_rows() -> ClaimResult:
    printed, corrected = {}, {}
    printed_ok, corrected_ok = True, True
    for L, d, H, N in ((3, 5, 1, 2), (3, 9, 3, 2)):
        lit = lemma6_witness(d, L, H, N, value_layer="printed", seed=2)
        fix = lemma6_witness(d, L, H, N, seed=2)
        printed_ok &= lit.proportional
        corrected_ok &= fix.proportional and fix.rank == fix.expected_rank
        key = f"(L={L}, d_x={d}, H={H}, N={N})"
        printed[key] = f"sub-matrix proportional to (VV^T)^lambda: {lit.proportional}"
        corrected[key] = f"proportional: {fix.proportional}, rank {fix.rank}"
    # at L = 2 the second half of v is never read (W^{K,2}, W^{Q,2} use the first half, the last
    # layer the constant slot): the printed rows still give eq. 28 there
    at_l2 = {f"(L=2, d_x={d}, H={H}, N=2)": lemma6_witness(d, 2, H, 2, value_layer="printed",
                                                          seed=2).proportional
             for d, H in ((5, 1), (9, 3))}
    # independent: enumerate the printed indicator 1_{i = j - d_a(h-1)} of rows s < i <= d_a - 1
    fired = 0
    for d_x, H in ((5, 1), (9, 3), (15, 5)):
        d_a = d_x // H
        s = (d_a - 1) // 2
        for h, i in itertools.product(range(1, H + 1), range(s + 1, d_a)):
            first_half = range(d_a * (h - 1) + 1, d_a * (h - 1) + s + 1)
            fired += sum(i == j - d_a * (h - 1) for j in first_half)
    return ClaimResult(
        measured={"printed": printed, "fixed": corrected}, reference_value=True,
        verdict=judge(printed_ok, corrected_ok), kind="typo",
        independent=Independent("the printed indicator enumerated over its rows and first-half "
                                "columns (d_x, H) = (5,1), (9,3), (15,5)", f"fires {fired} times",
                                fired == 0),
        details={"printed": printed, "corrected": corrected,
                 "fix": "rows (d_a-1)/2 < i <= d_a-1 must pick -x_o - i x_{s+o} (index "
                        "i = j - d_a(h-1) + (d_a-1)/2 for first-half j, i = j - d_a(h-1) for "
                        "second-half j); as printed the conditions can never hold, so the second "
                        "half is 1 instead of 1 - u and the layer-3 score (sum of the "
                        "non-constant coordinates)^2 keeps u-terms",
                 "only for L >= 3": f"at L = 2 the printed rows still give a proportional "
                                    f"sub-matrix {at_l2}: the slip matters from L = 3 on",
                 "eq. 36": "eq. 36's second case (rows (d_a-1)/2 < alpha <= d_a-1) repeats the "
                           "first case's indices without the -(d_a-1)/2 shift: the same slip"})


@claim(
    id="D2W-Hadamard-rank", basis="not_refuted", universal=True,
    paper=PAPER,
    reference="App. B.2 (eqs. 25-27), Lemmas 7-8",
    statement="for V with rows Omega^{q^alpha}/||.|| the Hadamard power (VV^T)^{odot lambda} has "
    "full rank ((d lambda))",
    perturbation=Perturbed("the same for Omega = 1 (a root of Lemma 7's determinant: outside "
                           "'all but finitely many Omega')", omega=1),
)
def d2w_hadamard_rank(omega: int = 2) -> ClaimResult:
    rows, ok = {}, True
    for d, lam in [(2, 1), (2, 3), (3, 3), (4, 3), (2, 9), (3, 9), (5, 3), (6, 3), (14, 3),
                   (15, 3), (4, 9), (2, 27)]:
        if omega == 1:                  # Omega^{q} = 1 for Omega = 1 (the library refuses it)
            V = np.ones(paper_witness_V(d, lam, normalized=False).shape, dtype=object)
        else:
            V = paper_witness_V(d, lam, normalized=False, omega=omega)
        r = hadamard_power_rank(V, lam, seed=setting_seed(0, "hadamard rank", d, lam))
        ok &= r.rank == multiset_coefficient(d, lam) and r.rank_result.certifies == "exact"
        rows[f"(d={d}, lambda={lam})"] = r.rank
    return exact_result(measured=rows, reference_value="((d lambda))",
                        what="integer ranks, full rank mod a prime", holds=ok,
                        details={"Omega": omega, "method": "(WW^T)^lambda with W = Omega^q (the "
                                 "normalisation is a diagonal scaling), full rank mod a prime"})


@claim(
    id="D2W-Amini-bound", basis="not_refuted", universal=True,
    paper=PAPER,
    reference="App. B.2 (Amini et al. 2012)",
    statement="raising a rank-r matrix to the Hadamard power p gives rank <= ((r p))",
    perturbation=Perturbed("rank <= ((r p-1)) (the power lowered by one)", power_shift=-1),
)
def d2w_amini_bound(power_shift: int = 0) -> ClaimResult:
    rng = np.random.default_rng(4)
    rows, ratios = [], []
    for n, r, p in [(30, 2, 3), (40, 3, 3), (60, 2, 5), (50, 4, 2), (80, 3, 4)]:
        A = rng.integers(-5, 6, (n, r)) @ rng.integers(-5, 6, (r, n))
        rank_p = matrix_rank(A.astype(object) ** p, method="exact").rank
        bound = hadamard_power_rank_bound(r, p + power_shift)
        ratios.append(bound / rank_p)
        rows.append((n, r, p, rank_p, bound))
    return ClaimResult(measured=rows, reference_value="rank <= ((r p))",
                       verdict=judge(min(ratios) >= 1),
                       margin=Margin(math.log10(min(ratios)), "min ((r p)) / rank"),
                       details={"columns": "(n, r, p, rank of A^{odot p}, bound)",
                                "exact": "integer matrices, exact rank; random rank-r matrices "
                                         "attain the bound"})


@claim(
    id="D2W-Lemma7", basis="not_refuted", universal=True,
    paper=PAPER,
    reference="Lemma 7 with Lemma 8 (App. B.2-B.3)",
    statement="det of A^_{alpha,k} = Omega^{<q^alpha, k>} has a unique top-degree term, so it is "
    "full rank for all but finitely many Omega",
    perturbation=Perturbed("full rank at Omega = 1 as well", omega=1),
)
def d2w_lemma7(omega: int = 2) -> ClaimResult:
    r = lemma7_determinant(2, 3)
    ok = (r.degree == r.expected_degree and abs(r.leading_coefficient) == 1
          and r.unique_top_permutation and omega not in r.real_roots)
    return exact_result(measured={"degree": r.degree, "leading": r.leading_coefficient,
                                  "real roots": [str(x) for x in r.real_roots]},
                        reference_value={"degree": r.expected_degree},
                        what="exact polynomial degree and roots", holds=ok,
                        details={"setting": f"d = 2, lambda = 3 (4 x 4), sympy; Omega = {omega} "
                                            "(the Hadamard checks use 2)"})


@claim(
    id="D2W-Lemma8", basis="not_refuted", universal=True,
    paper=PAPER,
    reference="Lemma 8 (App. B.3)",
    statement="for distinct non-negative vectors, sum_i <v_i, v_sigma(i)> < sum_i ||v_i||^2 for "
    "every sigma != identity",
    perturbation=Perturbed("the same without 'distinct' (a repeated vector allowed)",
                           distinct=False),
)
def d2w_lemma8(distinct: bool = True) -> ClaimResult:
    rng = np.random.default_rng(8)
    cases, ok, ratios = 0, True, []
    for N in (2, 3, 4, 5):
        for _ in range(25):
            V = rng.integers(0, 4, (N, 3))
            drawn_distinct = len({tuple(v) for v in V.tolist()}) == N
            if not distinct and drawn_distinct:
                V[-1] = V[0]                       # one repeated vector
            elif distinct and not drawn_distinct:
                continue
            G = V @ V.T
            total = int(np.trace(G))
            worst = max(int(sum(G[i, s[i]] for i in range(N)))
                        for s in itertools.permutations(range(N)) if list(s) != sorted(s))
            if distinct:
                ok &= lemma8_rearrangement(V)[0] and worst < total
            else:
                ok &= worst < total
            ratios.append(total / worst if worst > 0 else math.inf)
            cases += 1
    return ClaimResult(measured=cases, reference_value="strict inequality", verdict=judge(ok),
                       margin=Margin(math.log10(min(ratios)), "min sum ||v||^2 / max_sigma sum "
                                     "<v_i, v_sigma(i)>"),
                       details={"cases": f"{cases} random sets of vectors in {{0..3}}^3, N <= 5, "
                                         "all permutations",
                                "note": "strictness needs only distinctness: sum ||v_i - "
                                        "v_sigma(i)||^2 > 0 (non-negativity is not used)"})


@claim(
    id="D2W-Lemma3", basis="not_refuted", universal=True,
    paper=PAPER,
    reference="Lemma 3 (App. A.5)",
    statement="phi(r_1..r_k) = prod_j ((n r_j)) <= (prod_{t=1}^{n-1} (M/k + t))^k / ((n-1)!)^k",
    perturbation=Perturbed("the exponent k of the bound lowered to k - 1", exponent_shift=-1),
)
def d2w_lemma3(exponent_shift: int = 0) -> ClaimResult:
    rng = np.random.default_rng(3)
    gaps, ok = [], True
    for n in range(1, 6):
        for k in range(1, 8):
            for _ in range(5):
                rs = rng.integers(0, 20, k).tolist()
                ineq = lemma3_multiset_product(n, rs)
                if exponent_shift == 0:
                    ok &= ineq.holds is True
                    gaps.append(float(ineq.rhs.float_log3 - ineq.lhs.float_log3))
                    continue
                # the perturbed right-hand side, exactly: (prod (M/k + t) / (n-1)!)^(k + shift)
                base = (math.prod(Fraction(sum(rs), k) + t for t in range(1, n))
                        / math.factorial(n - 1))
                lhs = math.prod(multiset_coefficient(n, r) for r in rs)
                rhs = base ** (k + exponent_shift)
                ok &= lhs <= rhs
                gaps.append(math.log(rhs, 3) - math.log(lhs, 3))
    tightest = min(gaps)
    return ClaimResult(measured=len(gaps), reference_value="holds", verdict=judge(ok),
                       margin=Margin(tightest * math.log10(3), "min bound / phi"),
                       details={"cases": "n <= 5, k <= 7, r_j uniform in 0..19 (exact)",
                                "tight": "equality when every r_j = M/k (and for n = 1)"})


@claim(
    id="D2W-Lemma3-equality",
    paper=PAPER,
    reference="Lemma 3 proof (App. A.5), equality case",
    statement="when M is divisible by k, phi(M/k, ..., M/k) = (prod_{t=1}^{n-1}(M/k + t))^k",
    expected_verdict="erratum",
    defence=Defence(
        version=V003,
        regime="An exact identity; no asymptotic regime.",
        convention="None: phi(r) = prod_j ((n r_j)) is defined in the lemma.",
        definitions="The display's own middle terms carry 1/((n-1)!)^k ('= \\frac{1}{((n-1)!)^k}"
                    "\\prod_t f_t = ...'); only the last equality drops it. The lemma's "
                    "statement keeps it, so the bound is attained as intended ('hence the name "
                    "of this lemma'); the slip is in the proof's last line.",
        parameters="No experimental parameter; exact integers at (n, k, M/k) = (2,3,4), (3,2,4), "
                   "(4,3,2), (5,2,7) (equal only for n = 2, where (n-1)! = 1).",
        extraction="The LaTeX source of the last display ends '=\\left(\\prod_{t=1}^{n-1}"
                   "\\left(\\frac{M}{k}+t\\right)\\right)^{k}' with no denominator: a "
                   "dropped fraction would still be in the source.",
        attack=Attack(
            reviewer=REVIEWER, date=ATTACK_DATE, outcome='upheld',
            summary=('The last equality drops 1/((n-1)!)^k: at (n, k, M/k) = (3, 2, 4), phi = 15^2 '
                     '= 225, the printed right side (5*6)^2 = 900, the corrected 900/2!^2 = 225. '
                     "The lemma's inequality is unaffected (Theorem 4 uses n = 2, where (n-1)! = "
                     '1). A typo.')),
    ),
    basis="exact", universal=True,
)
def d2w_lemma3_equality() -> ClaimResult:
    rows, printed_ok, corrected_ok, agree = {}, True, True, True
    for n, k, m in [(2, 3, 4), (3, 2, 4), (4, 3, 2), (5, 2, 7)]:
        phi, printed, corrected = lemma3_equality_case(n, k, m)
        own = math.comb(n + m - 1, m) ** k          # ((n m))^k with math.comb, written here
        agree &= own == phi
        printed_ok &= phi == printed
        corrected_ok &= phi == corrected
        rows[f"(n={n}, k={k}, M/k={m})"] = {"phi": phi, "printed": int(printed),
                                           "corrected": int(corrected)}
    return ClaimResult(measured=rows, reference_value="phi = printed",
                       verdict=judge(printed_ok, corrected_ok), kind="typo",
                       independent=Independent("phi = binom(n + M/k - 1, M/k)^k by math.comb",
                                               "equal to the library's phi", agree),
                       details={"printed": "(prod (M/k + t))^k: equal only for n = 2",
                                "corrected": "(prod (M/k + t))^k / ((n-1)!)^k, as in the "
                                             "lemma's own statement: equal for all"})


@claim(
    id="D2W-Lemma4", basis="not_refuted", universal=True,
    paper=PAPER,
    reference="Lemma 4 (App. A.5)",
    statement="((n k)) <= (2e(n+k)/n)^n",
    perturbation=Perturbed("((n k)) <= (2(n+k)/n)^n (the constant 2e lowered to 2)",
                           constant=2.0),
)
def d2w_lemma4(constant: float = 2 * math.e) -> ClaimResult:
    printed = constant == 2 * math.e
    gaps = []
    for n in range(1, 40):
        for k in range(0, 200, 3):
            ineq = lemma4_multiset_upper(n, k)
            gap = float(ineq.rhs.float_log3 - ineq.lhs.float_log3)
            if not printed:                 # (c (n+k)/n)^n = (2e (n+k)/n)^n (c / 2e)^n
                gap += n * math.log(constant / (2 * math.e), 3)
            gaps.append((gap, n, k, ineq.holds))
    fails = [(n, k) for g, n, k, h in gaps if (h is not True if printed else g < 0)]
    tightest = min(g for g, *_ in gaps)
    return ClaimResult(measured=len(fails), reference_value=0, verdict=judge(not fails),
                       margin=Margin(tightest * math.log10(3), "min (2e(n+k)/n)^n / ((n k))"),
                       details={"cases": "1 <= n < 40, k in 0..198 step 3 (60-digit logs)",
                                "failures": fails[:5]})


@claim(
    id="D2W-closing-inequalities", basis="not_refuted", universal=True,
    paper=PAPER,
    reference="App. B.2 (after eq. 24)",
    statement="((n k)) >= max{((n-1)/k + 1)^k, (k/(n-1) + 1)^{n-1}}",
    perturbation=Perturbed("n - 1 read as n: ((n k)) >= max{(n/k + 1)^k, (k/n + 1)^n} (the next "
                           "constant)", n_minus=0),
)
def d2w_closing_inequalities(n_minus: int = 1) -> ClaimResult:
    fails, gaps = [], []
    for n in range(2, 60):
        for k in (1, 2, 3, 9, 27, 81, 243, 3**10, 3**20, 3**35):
            for which, ineq in enumerate(multiset_lower_bounds(n, k)):
                gap = float(ineq.rhs.float_log3 - ineq.lhs.float_log3)   # log3 ((n k)) - rhs
                if n_minus != 1:            # the right-hand side with n - n_minus, in logs
                    m = n - n_minus
                    rhs = k * math.log(m / k + 1, 3) if which == 0 else m * math.log(k / m + 1, 3)
                    gap = float(ineq.rhs.float_log3) - rhs
                gaps.append(gap)
                if (ineq.holds is not True) if n_minus == 1 else gap < 0:
                    fails.append((n, k))
    return ClaimResult(measured=len(fails), reference_value=0, verdict=judge(not fails),
                       margin=Margin((max(min(gaps), 0.0) if n_minus == 1 else min(gaps))
                                     * math.log10(3),
                                     "min ((n k)) / max{...} (equality at k = 1)"),
                       details={"cases": "2 <= n < 60, k in {1, 2, 3^1..3^5, 3^10, 3^20, 3^35} "
                                         "(exact when small, 60-digit logs otherwise)",
                                "failures": fails[:5]})
