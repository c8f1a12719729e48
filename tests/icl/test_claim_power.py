"""The ICL-* checks of what training does cannot be passed by the untrained model, and the
lucky-neuron check is evaluated where the model has learned (issue 33's audit)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paper_checks.claims.icl import lemmas
from paper_checks.claims.icl.common import untrained_model
from paper_checks.ledger import perturbed_run
from paper_checks.registry import get_claim

#: Checks whose statement is about the trained model: each must not hold (nor be a note) for
#: Psi^(0).  (ICL-Prop41-projections and ICL-Thm37-eq15-prune-small held for it before.)
TRAINING_CHECKS = ("ICL-Prop41-projections", "ICL-Thm37-eq15-prune-small", "ICL-Cor43-attention")


@pytest.mark.parametrize("claim_id", TRAINING_CHECKS)
def test_the_untrained_model_does_not_pass(claim_id: str) -> None:
    c = get_claim(claim_id)
    with untrained_model(), perturbed_run():
        result = c.func()
    assert result.verdict not in ("holds", "note"), (claim_id, result.measured)
    assert c.run().verdict == c.expected_verdict          # and the trained model still does


def test_prop41_initial_component_is_delta_beta_squared() -> None:
    """The initialization alone gives ||[mu^T, 0] W^(0) p|| = delta beta^2 = 1.8 > sqrt(log 6):
    the reason (17) alone cannot tell a trained model from an untrained one."""
    result = get_claim("ICL-Prop41-projections").run()
    rows = next(iter(result.measured.values()))
    for row in rows.values():
        assert row["at initialization"] == pytest.approx(0.2 * 3.0 ** 2, rel=1e-3)
        assert row["at initialization"] > math.sqrt(math.log(6))


def test_cor43_measures_the_corollarys_own_set() -> None:
    """Corollary 4.3's N holds context inputs only; counted so, the out-of-domain mass is below
    1 - 1/M1, and only (54)'s set (the query column included) clears it."""
    result = get_claim("ICL-Cor43-attention").run()
    rows = result.measured["attention mass on N"]
    assert rows["OOD, N = context inputs"]["mean mass"] < 1 - 1 / 6
    assert rows["OOD, N = (54)"]["mean mass"] >= 1 - 1 / 6
    assert result.verdict == "note" and result.kind == "convention"


def test_lemb10_is_evaluated_where_every_width_has_learned() -> None:
    """The horizon is one at which Theorem 3.3's conclusion holds (unseen error <= 0.01 at every
    width); at eq. 10's T with constant 1 (the old horizon) the model is at chance."""
    t = lemmas.learned_horizon(0)
    assert all(lemmas.unseen_error(0, m, t) <= lemmas.LEARNED for m in lemmas.WIDTHS)
    assert all(lemmas.unseen_error(0, m, lemmas.EQ10_STEPS) > 0.3 for m in lemmas.WIDTHS)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(1, 8))
def test_inactive_share_is_the_pair_ratio(seed: int, n: int, m: int) -> None:
    """The share is (inactive lucky pairs) / (lucky pairs) by brute force, and the clustered
    standard error is zero when every neuron has the same share."""
    rng = np.random.default_rng(seed)
    lucky, active = rng.random((n, m)) < 0.6, rng.random((n, m)) < 0.7
    share, se, pairs = lemmas.inactive_share(lucky, active)
    bad = sum(1 for i in range(n) for j in range(m) if lucky[i, j] and not active[i, j])
    total = sum(1 for i in range(n) for j in range(m) if lucky[i, j])
    assert pairs == total
    assert share == (bad / total if total else 0.0)
    assert se >= 0
    same = np.ones((n, m), dtype=bool)
    assert lemmas.inactive_share(same, same)[1] == 0.0
