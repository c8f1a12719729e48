"""Shared records of the masked-prediction claims (004 §2.2): the printed examples and
definitions the checks use, and the independent attack on the non-``holds`` verdicts."""

from __future__ import annotations

from fractions import Fraction

from paper_checks.defence import Attack, AttackOutcome
from paper_checks.parameters import Printed, PrintedParameters

#: The printed examples and definitions of §2.2 the MP claims use (2026-11 audit: one table per
#: paper folder; the matrices of (2.47) themselves are ``identifiability.THEOREM6_PRINTED``).
PARAMETERS = PrintedParameters(
    "004 §2.2",
    example_247_size=Printed((4, 3), "Theorem 6 example before (2.47): 'Let d = 4, k = 3'"),
    example_247_decimals=Printed(8, "(2.47) prints every entry of O, Õ, T, T̃ to 8 decimals"),
    claim3_a=Printed(Fraction(1, 2), "Claim 3 proof (~l.1029): 'a concrete example where T is "
                                     "defined with a = 1/2'"),
    claim3_t_values=Printed(tuple(range(2, 11)), "Claim 3 proof: 'non-negative entries for "
                                                 "t in {2, 3, 4, ..., 10}'"),
    claim3_matrices=Printed("T = aI + (1-a)P (P cyclic), M = [[1, -1/2, -1/2], [0, -sqrt3/2, "
                            "sqrt3/2], [1/sqrt2]*3], T~ := (M^-1 R(theta)^-1 M) T",
                            "Claim 3 proof, before (2.48) and (2.48)"),
    mean_norm=Printed(1.0, "Assumption 9: each mu_i is a unit vector (footnote 9: any fixed c)"),
    stationary=Printed("uniform (T doubly stochastic)", "Assumption 5"),
)

REVIEWER = "independent reviewer (document and verdict only)"
REVIEW_DATE = "2026-11-26"
#: The outcome of the independent attack on each accusation: claim id -> (outcome, summary).
ATTACKS: dict[str, tuple[AttackOutcome, str]] = {
    "MP-8-det": (
        "upheld", "Agrees with the note: the 3 x 3 minors of the 4 x 3 O are 0.00105, -0.00831, "
        "-0.00266, 0.00669, none 0.0110; the 3-volume sqrt(det(O^T O)) is 0.0110449 for both "
        "O and O~ (equal to 9e-10), det T = det T~ = -0.161066. Notation, not an error."),
    "MP-10": (
        "upheld", "t = 1 forces T = T~ (theta = 2 pi, R(2 pi) = I, own computation gives T~ = T "
        "exactly); Claim 1, which Claim 3 restates, says t >= 2. For t = 2..10 the construction "
        "gives T~ != T (max |T~ - T| 0.667 ... 0.202) and T~^t = T^t to 3e-16. Typo stands."),
    "MP-10-nonneg": (
        "upheld", "Agrees with the note: M^-1 R(2 pi/t)^-1 M alone has negative entries (-0.333 "
        "at t = 2, -0.244 at t = 4); with the trailing T of (2.48) the minimum is >= 0 for "
        "t = 2..10 (exact zeros at t = 3), and the next display substitutes with the T present."),
    "MP-Claim3-Taylor": (
        "revised", "Both findings are literally right (the printed (1,2) entry -0.16 theta^2 < "
        "0; '<=' cannot give non-negativity), but the reviewer showed the step repairable in "
        "place: the printed matrix is, to two decimals, an entry-wise lower bound with '>=' "
        "meant and +0.16 at (1,2), except (2,1) (-0.09 against the exact minimum -0.110, on an "
        "entry >= 1/2, harmless). Recomputed here (exact coefficient minima -0.083, 0.161, "
        "-0.110); verdict changed from unproven (proof) to erratum (typo) of the step, with the "
        "corrected bound ('>=', +0.16, -0.12 at (2,1)) holding and >= 0 on (0, 2 pi/10]."),
    "MP-12": (
        "upheld", "Kruskal fixes each rank-one term up to scalars with product 1; unit norms fix "
        "|scale| but not the sign, and the proof never addresses it. The sign can be pinned "
        "with the thesis's material (T~ >= 0 stochastic forces a global sign; -M changes the "
        "posterior), so Theorem 8 stands and the step is incomplete: unproven (proof), 'if "
        "minor'."),
    "MP-16": (
        "upheld", "From (2.59), phi = phi~ iff mu~_i = mu_i - v with (2 mu_i - v)^T v = 0; for "
        "d > k, v = alpha v^ + w (w orthogonal to col(M)) solves 2 alpha beta = alpha^2 + "
        "||w||^2 for every ||w|| <= beta: a continuum. Own instance (d = 5, k = 3, ||w|| = "
        "0.05): max |phi - phi~| = 2.3e-15, unit columns, rank [M, M~] = 4. The d > k paragraph "
        "uses the predictor (Theorem 5's setting), not a hypothesis of Lemma 7."),
}


def attack(claim_id: str) -> Attack | None:
    """The recorded independent attack on ``claim_id``'s verdict (None until it is recorded)."""
    found = ATTACKS.get(claim_id)
    return None if found is None else Attack(REVIEWER, REVIEW_DATE, *found)
