"""Shared records of the masked-prediction claims (seed 004 §2.2): the printed examples and
definitions the checks use, and the independent attack on the non-``holds`` verdicts."""

from __future__ import annotations

from fractions import Fraction

from paper_checks.defence import Attack, AttackOutcome
from paper_checks.parameters import Printed, PrintedParameters

#: The printed examples and definitions of §2.2 the MP claims use (issue 23: one table per
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
REVIEW_DATE = "2026-11-25"
#: The outcome of the independent attack on each accusation: claim id -> (outcome, summary).
ATTACKS: dict[str, tuple[AttackOutcome, str]] = {}


def attack(claim_id: str) -> Attack | None:
    """The recorded independent attack on ``claim_id``'s verdict (None until it is recorded)."""
    found = ATTACKS.get(claim_id)
    return None if found is None else Attack(REVIEWER, REVIEW_DATE, *found)
