"""Paper 004 §2.2, Claim 1/3 (non-identifiability of matrix powers): MP-10 and its proof steps.

T = aI + (1-a)P (P the cyclic permutation), M as printed, R(theta) the rotation of the first two
coordinates and T~ = M^{-1} R(2 pi/t)^{-1} M T, so that T~^t = T^t.  The independent routes build
T, M and R here with numpy / sympy (not the library's ``claim3_pair``).  Reading notes
``docs/notes/seed_thesis_ch2.md`` §A.3, D.7.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

from identifiability import claim3_pair, claim3_rotation_factor
from paper_checks.claims.masked.common import PARAMETERS, attack
from paper_checks.compare import exact_result
from paper_checks.defence import Defence
from paper_checks.ledger import judge_reading
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Independent, claim, judge

PAPER = "004"
CYCLE = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]], dtype=float)
M_PRINTED = np.array([[1, -0.5, -0.5], [0, -math.sqrt(3) / 2, math.sqrt(3) / 2],
                      [1 / math.sqrt(2)] * 3])


def _by_hand(t: int, a: float = 0.5, with_T: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(T, T~) built here: T~ = M^{-1} R(2 pi/t)^{-1} M T (without T if ``with_T`` is False)."""
    th = 2 * math.pi / t
    R = np.array([[math.cos(th), -math.sin(th), 0], [math.sin(th), math.cos(th), 0], [0, 0, 1]])
    T = a * np.eye(3) + (1 - a) * CYCLE
    Q = np.linalg.solve(M_PRINTED, R.T @ M_PRINTED)
    return T, (Q @ T if with_T else Q)


@claim(id="MP-10", paper=PAPER, reference="Claim 3 (Claim 1 restated), (2.48)-(2.51)",
       statement="For any positive integer t, there exist stochastic matrices T, T̃ satisfying "
                 "A5, A7 such that T != T̃ and T^t = T̃^t", expected_verdict="erratum",
       defence=Defence(
           version="The same claim is printed twice: Claim 1 (§2.2.3.3) says 'For any t in Z, "
                   "t >= 2', which is right; Claim 3, its restatement in the proofs, says 'For "
                   "any positive integer t'. The other printing confirms the intended statement "
                   "and makes this a slip of the restatement (kind typo).",
           regime="t = 1 is the only failing value; no regime of t saves it (the claim is 'for "
                  "any').",
           convention="'Positive integer' includes 1 under every convention.",
           definitions="T^1 = T̃^1 means T = T̃, contradicting T != T̃; the construction (2.49) "
                       "sets theta = 2 pi/t = 2 pi at t = 1, giving T̃ = T.",
           parameters="a = " + str(PARAMETERS.value("claim3_a")) + " (the printed example); "
                      "t from 2 to 1000.",
           extraction="The accusation rests on the words 'positive integer', not on a symbol; "
                      "Claim 1's 't >= 2' came through extraction intact.",
           attack=attack("MP-10")), basis="exact", universal=True)
def mp_10() -> ClaimResult:
    worst_pow, worst_id, min_entry, min_gap = 0.0, 0.0, np.inf, np.inf
    for t in range(2, 1001):
        T, Tt, _ = claim3_pair(t)
        Rt = np.linalg.matrix_power(claim3_rotation_factor(t), t)
        worst_id = max(worst_id, float(np.max(np.abs(Rt - np.eye(3)))))
        if t <= 20:
            worst_pow = max(worst_pow, float(np.max(np.abs(
                np.linalg.matrix_power(Tt, t) - np.linalg.matrix_power(T, t)))))
        min_entry = min(min_entry, float(Tt.min()))
        min_gap = min(min_gap, float(np.max(np.abs(Tt - T))))
        if abs(np.linalg.det(Tt) - 0.25) > 1e-12:  # rank 3 (A7): det T̃ = det T = 1/4
            min_gap = -1.0
    T1, Tt1, _ = claim3_pair(1)
    t1_same = bool(np.allclose(T1, Tt1))  # theta = 2π: the construction collapses to T̃ = T
    corrected = worst_pow < 1e-12 and worst_id < 1e-9 and min_entry > -1e-12 and min_gap > 1e-3
    controls = {a: [t for t in range(2, 11) if claim3_pair(t, a)[1].min() < -1e-12]
                for a in (0.3, 0.8)}
    own = {t: _by_hand(t) for t in (1, 2, 5)}
    own_ok = (np.allclose(own[1][0], own[1][1])
              and all(np.allclose(np.linalg.matrix_power(Tt, t), np.linalg.matrix_power(T, t))
                      and not np.allclose(T, Tt) for t, (T, Tt) in own.items() if t > 1))
    return ClaimResult(
        measured={"t=1": "impossible", "min_entry_t=2..1000": min_entry},
        reference_value="T^t = T̃^t, T != T̃", verdict=judge(False, corrected), kind="typo",
        independent=Independent("T, M, R(2 pi/t) built with numpy here: t = 1 gives T~ = T, "
                                "t = 2, 5 give T~ != T with equal t-th powers", own_ok, own_ok),
        details={"printed": "t = 1 is a positive integer, but T^1 = T̃^1 forces T = T̃ (the "
                            f"construction gives θ = 2π and T̃ = T: {t1_same})",
                 "corrected": f"t >= 2 (as Claim 1 states), a = 1/2: min_t |T̃ - T| = "
                              f"{min_gap:.3g}, |T̃^t - T^t| <= {worst_pow:.2g} (t <= 20), "
                              f"|(M^-1 R^-1 M)^t - I| <= {worst_id:.2g} (t <= 1000), "
                              f"min entry {min_entry:.2g} (exact zeros at t = 3)",
                 "negative_controls_with_negative_entries": controls})


@claim(id="MP-10-nonneg", paper=PAPER, reference="Claim 3 proof, after (2.51)",
       statement="It can be checked that T̃ := M^{-1}(R(2π/t))^{-1}M has non-negative entries "
                 "for t ∈ {2, 3, 4, ..., 10} (a = 1/2)", expected_verdict="note",
       defence=Defence(
           version="004 is a single document. Within it T̃ is defined in (2.48) as "
                   "(M^{-1} R(theta)^{-1} M) T, and (2.49)-(2.50) carry the T; the inline "
                   "re-definitions after (2.51) and before (2.53) omit it, while the computation "
                   "in (2.53) multiplies by T's matrix explicitly.",
           regime="A finite check over t in {2, ..., 10}; no regime.",
           convention="The inline ':=' is read as naming the T̃ already defined in (2.48) "
                      "(a shorthand), not as a new definition; under that reading every printed "
                      "claim holds.",
           definitions="T̃ of (2.48) with a = 1/2 (" + PARAMETERS["claim3_a"].where + "); its "
                       "entries are >= 0 for every t in {2, ..., 10} (exact zeros at t = 3). "
                       "M^{-1} R^{-1} M alone is not stochastic-valued (negative entries) and "
                       "is never what the proof uses.",
           parameters="a = 1/2 and t in {2, ..., 10} as printed.",
           extraction="The difference is one trailing symbol (the factor T after M) in inline "
                      "math; extraction can drop such a symbol, so the literal reading cannot be "
                      "charged to the authors. Hence a note (notation), not an erratum.",
           attack=attack("MP-10-nonneg")), basis="numeric")
def mp_10_nonneg() -> ClaimResult:
    ts = PARAMETERS.value("claim3_t_values")
    printed = {t: float(claim3_rotation_factor(t).min()) for t in ts}
    corrected = {t: float(claim3_pair(t)[1].min()) for t in ts}
    own = {t: (float(_by_hand(t, with_T=False)[1].min()), float(_by_hand(t)[1].min()))
           for t in ts}
    agree = all(abs(own[t][0] - printed[t]) < 1e-12 and abs(own[t][1] - corrected[t]) < 1e-12
                for t in own)
    return ClaimResult(
        measured=min(corrected.values()), reference_value=">= 0",
        verdict=judge_reading(min(printed.values()) >= -1e-12,
                              min(corrected.values()) >= -1e-12),
        kind="notation",
        independent=Independent("M^{-1} R^{-1} M with and without T, numpy written here",
                                {t: tuple(round(v, 4) for v in own[t]) for t in (2, 3, 4)},
                                agree),
        details={"printed": f"the inline formula without the factor T: min entries {printed}",
                 "reading": f"T̃ as defined in (2.48), M^-1 R^-1 M T: min entries {corrected} "
                            "(>= 0 up to rounding; exact zeros at t = 3)"})


@claim(id="MP-10-algebra", paper=PAPER, reference="Claim 3 proof (2.48), (2.50), (2.51)",
       statement="M^{-1} = (1/3)[[2,0,√2],[−1,−√3,√2],[−1,√3,√2]]; M^{-1}R(θ)^{-1}M commutes with "
                 "T = aI + (1−a)P for every θ; rows and columns of T̃ sum to 1",
       perturbation=Perturbed("M^{-1} with the sign of its (2,2) entry flipped",
                              inverse_22_sign=1), basis="symbolic", universal=True)
def mp_10_algebra(inverse_22_sign: int = -1) -> ClaimResult:
    th, a = sp.symbols("theta a", real=True)
    M = sp.Matrix([[1, -sp.Rational(1, 2), -sp.Rational(1, 2)],
                   [0, -sp.sqrt(3) / 2, sp.sqrt(3) / 2], [1 / sp.sqrt(2)] * 3])
    sign = inverse_22_sign
    printed_inv = sp.Matrix([[2, 0, sp.sqrt(2)], [-1, sign * sp.sqrt(3), sp.sqrt(2)],
                             [-1, sp.sqrt(3), sp.sqrt(2)]]) / 3
    R = sp.Matrix([[sp.cos(th), -sp.sin(th), 0], [sp.sin(th), sp.cos(th), 0], [0, 0, 1]])
    T = a * sp.eye(3) + (1 - a) * sp.Matrix([[0, 0, 1], [1, 0, 0], [0, 1, 0]])
    Q = printed_inv * R.T * M
    checks = {"M^-1 as printed": sp.simplify(M.inv() - printed_inv) == sp.zeros(3, 3)}
    if checks["M^-1 as printed"]:       # the rest only matters for the M^-1 as printed
        checks |= {
            "commutator [Q, T] = 0": sp.simplify(Q * T - T * Q) == sp.zeros(3, 3),
            "column sums 1": sp.simplify(sp.ones(1, 3) * Q * T) == sp.ones(1, 3),
            "row sums 1": sp.simplify(Q * T * sp.ones(3, 1)) == sp.ones(3, 1),
        }
    return exact_result(measured=checks, reference_value=True, what="symbolic identities",
                        holds=all(checks.values()), details={"method": "sympy, symbolic θ and a"})


#: the matrix of (2.53) that the proof calls an entry-wise bound, times theta^2
TAYLOR_PRINTED = ((-0.25, -0.16, -0.25), (-0.09, -0.25, 0.01), (0.01, -0.25, -0.09))
#: The corrected second-order matrix of (i): '>=' for '<=', +0.16 for -0.16 at (1,2), and -0.12
#: for -0.09 at (2,1) (the exact coefficient reaches -0.110 there on (0, 2 pi/10]).
TAYLOR_CORRECTED = ((-0.25, 0.16, -0.25), (-0.12, -0.25, 0.01), (0.01, -0.25, -0.09))
TAYLOR_RANGE = 2 * math.pi / 10


def _taylor_first(theta: np.ndarray) -> np.ndarray:
    """(2.53)'s first-order part (1/2)[[1 - θ/√3, 0, 1 + θ/√3], ...], one 3 x 3 per θ."""
    u = theta[:, None, None] / math.sqrt(3)
    lo, hi = 1 - u[:, 0, 0], 1 + u[:, 0, 0]
    z = np.zeros_like(lo)
    return 0.5 * np.stack([np.stack([lo, z, hi], -1), np.stack([hi, lo, z], -1),
                           np.stack([z, hi, lo], -1)], -2)


@claim(id="MP-Claim3-Taylor", paper=PAPER, reference="Claim 3 proof, (2.52)-(2.53)",
       statement="T̃ <= (1/2)[[1-θ/√3, 0, 1+θ/√3], ...] + θ^2 [[-0.25, -0.16, -0.25], [-0.09, "
       "-0.25, 0.01], [0.01, -0.25, -0.09]] entry-wise, and all entries are non-negative for "
       "θ <= 2π/10", expected_verdict="erratum", defence=Defence(
           version="004 is a single document; (2.53) is printed once. Claim 3 itself holds "
                   "(MP-10) by the exact T̃(theta), so only this step is charged.",
           regime="The step is for t > 10, theta = 2 pi/t <= 2 pi/10; the (1,2) entry 0 - 0.16 "
                  "theta^2 is negative for every theta > 0, small or not.",
           convention="'Entry-wise' inequality between matrices, as (i) says; non-negativity of "
                      "T̃ needs T̃ >= (bound) >= 0, a lower bound, while (i) is printed '<='. "
                      "Read as '>=' (the direction the argument needs) with +0.16, the bound is "
                      "what the proof means: hence a typo in the step, not a gap in the proof.",
           definitions="T̃(theta) = M^{-1} R(theta)^{-1} M T of (2.48); its exact second-order "
                       "coefficient (T̃ - first order)/theta^2 is the circulant with minimum "
                       "(-0.083, 0.161, -0.110) over (0, 2 pi/10]: every printed entry is a valid "
                       "lower coefficient except the (1,2) sign and the (2,1) -0.09 (exact "
                       "-0.110), which sits on an entry >= 1/2 and does not affect the "
                       "conclusion.",
           parameters="a = " + str(PARAMETERS.value("claim3_a")) + ", theta up to 2 pi/10 as "
                      "printed.",
           extraction="The accusation rests on the sign of -0.16 and on '<='. Extraction drops "
                      "minus signs, it does not add them, so the printed -0.16 is the "
                      "original's; '<=' for '>=' is an inverted relation, not a lost symbol. "
                      "The mildest kind that fits (typo: the intended lower bound holds and "
                      "proves the claim) is used.",
           attack=attack("MP-Claim3-Taylor")), basis="exact")
def mp_claim3_taylor() -> ClaimResult:
    th = sp.symbols("theta", positive=True)
    r3 = sp.sqrt(3)
    first = sp.Matrix([[1 - th / r3, 0, 1 + th / r3], [1 + th / r3, 1 - th / r3, 0],
                       [0, 1 + th / r3, 1 - th / r3]]) / 2
    bound = first + th**2 * sp.Matrix(TAYLOR_PRINTED).applyfunc(sp.nsimplify)
    at = sp.pi / 5                                   # theta = 2 pi / 10
    entries = [float(bound[i, j].subs(th, at)) for i in range(3) for j in range(3)]
    negative = [(i, j, round(float(bound[i, j].subs(th, at)), 4)) for i in range(3)
                for j in range(3) if float(bound[i, j].subs(th, at)) < 0]
    # the exact T~(theta) = M^-1 R(theta)^-1 M T (a = 1/2) on a grid of (0, 2 pi/10]
    thetas = np.linspace(1e-4, TAYLOR_RANGE, 2001)
    exact = np.stack([np.linalg.solve(M_PRINTED, _rot(t_).T @ M_PRINTED)
                      @ (0.5 * np.eye(3) + 0.5 * CYCLE) for t_ in thetas])
    first_np = _taylor_first(thetas)
    th2 = thetas[:, None, None] ** 2
    printed_np = first_np + th2 * np.array(TAYLOR_PRINTED)
    corrected_np = first_np + th2 * np.array(TAYLOR_CORRECTED)
    coef = (exact - first_np) / th2
    printed_upper = bool(np.all(exact <= printed_np + 1e-12))
    printed_lower = bool(np.all(exact >= printed_np - 1e-12))
    printed_ok = (printed_upper or printed_lower) and not negative
    corrected_lower = bool(np.all(exact >= corrected_np - 1e-12))
    corrected_min = float(corrected_np.min())
    corrected_ok = corrected_lower and corrected_min >= 0
    # independent: sympy's series of the exact T~ at theta = 0 (second-order coefficients) and
    # the grid's coefficients at the smallest theta
    Ms = sp.Matrix([[1, -sp.Rational(1, 2), -sp.Rational(1, 2)], [0, -r3 / 2, r3 / 2],
                    [1 / sp.sqrt(2)] * 3])
    Rs = sp.Matrix([[sp.cos(th), -sp.sin(th), 0], [sp.sin(th), sp.cos(th), 0], [0, 0, 1]])
    Ts = (sp.eye(3) + sp.Matrix(CYCLE.astype(int))) / 2
    exact_s = Ms.inv() * Rs.T * Ms * Ts
    c2 = (exact_s - first).applyfunc(lambda e: sp.nsimplify(sp.limit(sp.simplify(e) / th**2,
                                                                      th, 0)))
    c2_f = np.array(c2.tolist(), dtype=float)
    agree = bool(np.allclose(c2_f, coef[0], atol=1e-3))
    return ClaimResult(
        measured={"negative entries of the printed bound at θ = 2π/10": negative,
                  "min entry of the printed bound": round(min(entries), 4),
                  "exact second-order coefficient, min over (0, 2π/10]":
                      np.round(coef.min(0), 4).tolist(),
                  "min entry of the corrected bound": round(corrected_min, 6)},
        reference_value="T̃ bounded entry-wise by a matrix with all entries >= 0",
        verdict=judge(printed_ok, corrected_ok), kind="typo",
        independent=Independent("sympy: the exact T̃(θ)'s second-order coefficients at θ -> 0 "
                                "against the numpy grid's at θ = 1e-4",
                                [[str(v) for v in row] for row in c2.tolist()], agree),
        details={"printed": "the (1,2) entry of the printed bound is 0 - 0.16 θ^2 < 0 for every "
                            f"θ > 0 ({negative[0][2] if negative else 'none'} at 2π/10), so 'all "
                            "entries are non-negative' is false for the printed matrix; and the "
                            f"exact T̃ is neither below it (upper bound holds: {printed_upper}) "
                            f"nor above it (lower bound holds: {printed_lower})",
                 "corrected": "T̃ >= (1/2)[[1-θ/√3, 0, 1+θ/√3], ...] + θ^2 [[-0.25, +0.16, "
                              "-0.25], [-0.12, -0.25, 0.01], [0.01, -0.25, -0.09]] entry-wise on "
                              f"(0, 2π/10] (holds: {corrected_lower}), and every entry of that "
                              f"bound is >= 0 there (min {corrected_min:.3g}): the step proves "
                              "the claim. Besides the two slips ('<=' for '>=', -0.16 for "
                              "+0.16) the (2,1) coefficient -0.09 is not a valid lower one "
                              "(exact minimum -0.110); it sits on an entry >= 1/2, so the "
                              "conclusion is unaffected",
                 "attack": "first registered as unproven (proof); the independent attack showed "
                           "the step repairable in place by the sign and direction slips, so it "
                           "is an erratum (typo) of the step"})


def _rot(theta: float) -> np.ndarray:
    return np.array([[math.cos(theta), -math.sin(theta), 0],
                     [math.sin(theta), math.cos(theta), 0], [0, 0, 1]])
