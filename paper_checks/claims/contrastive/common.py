"""Shared records of the contrastive-estimation claims (seed 004 §2.1): the printed definitions
the checks use and the independent attack on the non-``holds`` verdicts.

§2.1 runs no experiment; its printed constants are the statements' own (the hypotheses
Delta_max <= 7/6, the constants 2(1 + c_q)^5 and sqrt(2 eps_tr)), which the checks take as
statement parameters.  The table holds the printed definitions every claim reads the same way.
"""

from __future__ import annotations

from paper_checks.defence import Attack, AttackOutcome
from paper_checks.parameters import Printed, PrintedParameters

#: The printed definitions of §2.1 the CL claims use (issue 23: one table per paper folder).
PARAMETERS = PrintedParameters(
    "004 §2.1",
    B_definition=Printed("B := E_pi ||x||", "§2.1.1.1 before eq. 2.2, and Lemma 5"),
    eps_tr_definition=Printed(
        "training error eps_tr + eps_*, eps_* the l2 error of p_*; the population l2 excess "
        "E (h - y)^2 - eps_* = E (p/(p+q) - p_*/(p_*+q))^2 is eps_tr (footnote 5)",
        "Theorem 2 (~l.469) and footnote 5 (after eq. 2.32)"),
    contrast=Printed("q(z'), a fixed proposal distribution of the next state",
                     "§2.1.1.2 (the contrastive task) and c_q of eq. 2.4"),
    contrast_variance=Printed("sigma^2 = C_l eta / 2", "§2.1.3.3 before eq. 2.33"),
    beta_mixing=Printed("the average over the start z ~ pi of TV(P(z_t | z_0 = z), pi)",
                        "Definition 1 (beta-mixing), §2.1.2"),
    closeness=Printed("p/p_* in [Delta_min, Delta_max] for all z, z'", "eq. 2.13"),
)

REVIEWER = "independent reviewer (document and verdict only)"
REVIEW_DATE = "2026-11-25"
#: The outcome of the independent attack on each accusation: claim id -> (outcome, summary).
ATTACKS: dict[str, tuple[AttackOutcome, str]] = {}


def attack(claim_id: str) -> Attack | None:
    """The recorded independent attack on ``claim_id``'s verdict (None until it is recorded)."""
    found = ATTACKS.get(claim_id)
    return None if found is None else Attack(REVIEWER, REVIEW_DATE, *found)
