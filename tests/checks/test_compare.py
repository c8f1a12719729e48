"""The ClaimResult builders (paper_checks.compare) build exactly the hand-written ClaimResult:
the verdict of the comparison they name, its margin, and every other field passed through."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paper_checks.compare import exact_result, identity_result, ratio_result, tolerance_result
from paper_checks.ledger import ClaimResult, Independent, Margin, judge, perturbed_run

positive = st.floats(min_value=1e-6, max_value=1e6, allow_nan=False)
AGREES = Independent("by hand", 1, True)


@given(positive, positive, st.booleans(), st.booleans())
def test_ratio_is_the_inequality_and_its_log_ratio(value: float, bound: float, upper: bool,
                                                   strict: bool) -> None:
    holds = (value < bound if strict else value <= bound) if upper else \
        (value > bound if strict else value >= bound)
    with perturbed_run():                      # a failing verdict needs no kind here
        r = ratio_result(value, bound, what="v / b", upper=upper, strict=strict)
    assert r.verdict == ("holds" if holds else "fails")
    assert r.measured == value and r.reference_value == bound
    want = math.log10(bound / value) if upper else math.log10(value / bound)
    assert r.margin is not None and r.margin.log10_slack == pytest.approx(want, abs=1e-12)
    assert r.margin.what == "v / b"


@given(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.floats(1e-3, 10))
def test_tolerance_is_the_window(value: float, target: float, tol: float) -> None:
    with perturbed_run():
        r = tolerance_result(value, target, tol, what="within tol")
    assert (r.verdict == "holds") == (abs(value - target) <= tol)
    assert r.margin == Margin.tolerance(value, target, tol, what="within tol")


@given(st.integers(-5, 5), st.integers(-5, 5))
def test_exact_is_equality_with_no_room(a: int, b: int) -> None:
    with perturbed_run():
        r = exact_result(measured=a, reference_value=b, what="integers")
    assert (r.verdict == "holds") == (a == b)
    assert r.margin == Margin(0.0, "integers")


@pytest.mark.parametrize(("error", "strict", "verdict"), [
    (1e-12, True, "holds"), (1e-10, True, "fails"), (1e-10, False, "holds"),
    (1e-9, False, "fails")])
def test_identity_is_an_error_below_the_tolerance(error: float, strict: bool, verdict: str) -> None:
    with perturbed_run():
        r = identity_result(error, 1e-10, strict=strict)
    assert r.verdict == verdict and r.measured == error and r.reference_value == 0.0
    assert r.margin == Margin(0.0, f"identity to 1e-10 (measured {error:.1e})")


def test_the_builders_equal_the_hand_written_results() -> None:
    details = {"setting": "x"}
    fig = {"plot": object()}
    cert = {"c": {"schema": "seprank.certificate"}}
    assert ratio_result(12, 15, what="rank / bound", measured={"rank": 12}, reference_value="15",
                        details=details, figures=fig, certificates=cert) == ClaimResult(
        measured={"rank": 12}, reference_value="15", verdict=judge(12 <= 15), details=details,
        figures=fig, certificates=cert, margin=Margin.ratio(12, 15, what="rank / bound"))
    assert exact_result(measured=[1, 2], reference_value="ok", what="w", holds=True) == \
        ClaimResult(measured=[1, 2], reference_value="ok", verdict="holds",
                    margin=Margin.exact("w"))
    assert identity_result(2e-13, 1e-10, what="identities", details=details) == ClaimResult(
        measured=2e-13, reference_value=0.0, verdict=judge(2e-13 < 1e-10), details=details,
        margin=Margin.exact(f"identities to {1e-10:g} (measured {2e-13:.1e})"))
    assert tolerance_result(0.85493, 0.854, 0.001, what="chi2", note="truncated") == \
        ClaimResult(measured=0.85493, reference_value=0.854, verdict="holds",
                    margin=Margin.tolerance(0.85493, 0.854, 0.001, what="chi2",
                                            note="truncated"))


def test_an_erratum_carries_kind_independent_and_both_measurements() -> None:
    details = {"printed": "p", "corrected": "c"}
    r = ratio_result(3, 2, what="rank / bound", corrected=True, kind="constant",
                     independent=AGREES, details=details)
    assert r == ClaimResult(measured=3, reference_value=2, verdict="erratum", kind="constant",
                            independent=AGREES, details=details,
                            margin=Margin.ratio(3, 2, what="rank / bound"))
    with pytest.raises(ValueError, match="kind"):
        exact_result(measured=1, reference_value=2, what="integers", corrected=False)


def test_holds_is_the_combined_verdict_and_never_contradicts_the_margin() -> None:
    with perturbed_run():
        assert ratio_result(1, 2, what="r", holds=False).verdict == "fails"
    assert ratio_result(1, 2, what="r", holds=np.bool_(True)).verdict == "holds"
    with pytest.raises(ValueError, match=r"holds=True but the comparison it reports \(r\)"):
        ratio_result(3, 2, what="r", holds=True)
    with pytest.raises(ValueError, match="holds=True but"):
        tolerance_result(1.0, 2.0, 0.5, what="t", holds=True)
    with pytest.raises(ValueError, match="holds=True but"):
        identity_result(1.0, 1e-10, holds=True)
    with pytest.raises(TypeError, match="holds must be a bool"):
        ratio_result(1, 2, what="r", holds=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive"):
        ratio_result(0, 2, what="r")
