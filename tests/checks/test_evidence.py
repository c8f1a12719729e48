"""The evidence vocabulary (issue 33): what a verdict rests on, and what registration refuses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paper_checks.evidence import BASES, Proves, check_evidence, requirement_problems
from paper_checks.registry import ClaimResult, claim, judge, scratch_registry


def _register(**kwargs: object) -> None:
    with scratch_registry():
        @claim(id="EV-1", paper="003", reference="r", statement="s", **kwargs)  # type: ignore[arg-type]
        def ev_1() -> ClaimResult:
            return ClaimResult(1, 1, judge(True))


def test_the_vocabulary_separates_the_six_kinds_of_evidence() -> None:
    assert set(BASES) == {"certified", "exact", "symbolic", "not_refuted", "numeric",
                          "statistical"}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"basis": "proved"}, "basis must be one of"),
    ({"basis": "exact", "universal": True, "category": "consistency"}, "universal statement"),
    ({"basis": "certified", "category": "consistency"}, "needs certificates"),
    ({"basis": "certified", "certifies": True, "upper_bound": True, "category": "consistency",
      "proves": Proves("grid_rank", ">=", 3)}, "cannot be certified by certificates of lower"),
    ({"proves": Proves("grid_rank", ">=", 3), "category": "consistency"}, "certifies=True"),
])
def test_registration_refuses_evidence_that_cannot_support_the_verdict(
        kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _register(**kwargs)


def test_registration_accepts_what_can_be_true() -> None:
    _register(basis="not_refuted", universal=True, upper_bound=True, category="consistency")
    _register(basis="certified", certifies=True, upper_bound=True, category="consistency",
              proves=Proves("matrix_rank", "=", 3))     # an exact rank bounds from above too
    # a universal statement refuted exactly: the refutation's basis is exact
    check_evidence("EV-2", basis="exact", expected_verdict="erratum", universal=True,
                   upper_bound=False, certifies=False, proves=())


def test_a_subject_is_compared_type_strictly() -> None:
    need = Proves("grid_rank", ">=", 1, subject={"function": {"residual": False, "depth": 2}})
    proven = {"kind": "grid_rank", "relation": ">=", "value": 5,
              "subject": {"function": {"residual": 0, "depth": 2.0}}}
    problems = need.problems(proven)
    assert len(problems) == 2 and "residual = 0" in problems[0]
    proven["subject"] = {"function": {"residual": False, "depth": 2, "width": 9}}
    assert need.problems(proven) == []
    assert "has no function.depth" in need.problems({**proven, "subject": {}})[1]


@given(proven_rel=st.sampled_from([">=", "=", "<="]), need_rel=st.sampled_from([">=", "=", "<="]),
       proven=st.integers(0, 50), need=st.integers(0, 50))
def test_a_proven_relation_meets_a_requirement_exactly_when_it_implies_it(
        proven_rel: str, need_rel: str, proven: int, need: int) -> None:
    # every rank r the proven statement allows must satisfy the required one
    allowed = [r for r in range(0, 120) if {">=": r >= proven, "=": r == proven,
                                             "<=": r <= proven}[proven_rel]]
    implied = all({">=": r >= need, "=": r == need, "<=": r <= need}[need_rel] for r in allowed)
    if proven_rel == ">=":      # ">=" allows ranks beyond the window: only ">=" can follow
        implied = implied and need_rel == ">="
    met = not Proves("k", need_rel, need).problems(  # type: ignore[arg-type]
        {"kind": "k", "relation": proven_rel, "value": proven, "subject": {}})
    assert implied or not met              # sound: never met by what does not imply it
    if proven_rel in (need_rel, "="):      # and complete for these relations
        assert met == implied


def test_requirements_must_be_met_and_cover_every_certificate() -> None:
    reqs = [Proves("matrix_rank", ">=", 4, name="big *"),
            Proves("matrix_rank", ">=", 1, name="small *", required=False)]
    ok = {"kind": "matrix_rank", "relation": "=", "value": 4, "subject": {}}
    assert requirement_problems(reqs, {"big a": ok}) == {"big a": [], "": []}
    found = requirement_problems(reqs, {"other": ok})
    assert found["other"] and "no certificate proves matrix_rank >= 4" in found[""][0]
    low = {**ok, "value": 3}
    assert "needs matrix_rank >= 4" in requirement_problems(reqs, {"big a": low})["big a"][0]
    assert requirement_problems([reqs[1]], {}) == {
        "": ["no certificate meets any requirement of the claim"]}


def test_every_claim_declares_its_basis_and_every_certifying_claim_its_requirement() -> None:
    from paper_checks.registry import all_claims

    missing = [c.id for c in all_claims() if c.basis is None]
    assert not missing, f"{len(missing)} claims without a basis: {missing[:10]}"
    unbound = [c.id for c in all_claims() if c.certifies and not c.proves]
    assert not unbound, unbound
