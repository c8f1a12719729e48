"""The API traps a new user met (issue 26): each is now either well defined or refused loudly."""

from __future__ import annotations

import pytest

from seprank import d2w


@pytest.mark.parametrize("func", [d2w.theorem1_lower, d2w.theorem1_upper, d2w.theorem2_lower,
                                  d2w.theorem2_upper, d2w.theorem3_upper, d2w.theorem4_upper,
                                  d2w.theorem5_residual_upper, d2w.theorem6_residual_upper,
                                  d2w.lemma6_lower_bound])
def test_bounds_refuse_positional_arguments_naming_the_keywords(func) -> None:  # type: ignore[no-untyped-def]
    # theorem3_upper(1, 3) read as (depth 1, width 3) used to give the width-1, depth-3 bound
    with pytest.raises(TypeError, match=r"keyword arguments only \(width, depth, heads"):
        func(1, 3)


def test_keyword_bound_is_the_papers_formula() -> None:
    # Theorem 3 at H = 1 is (d_x + 1)^C(L) with C(L) = (3^L - 1)/2: width 3, depth 1 gives
    # 4^1; the swapped reading (width 1, depth 3) is 2^13 = 8192, the value the trap returned
    assert d2w.theorem3_upper(width=3, depth=1).value == 4
    assert d2w.theorem3_upper(width=1, depth=3).value == 2**13
    assert d2w.theorem3_upper(depth=1, width=3).value == 4


def test_other_bounds_are_keyword_only() -> None:
    for call in (lambda: d2w.lemma2_layer_upper(4, 2, 3),
                 lambda: d2w.corollary1_min_widening(1000, 6, 2),
                 lambda: d2w.corollary2_shallow(512, 12, 2)):
        with pytest.raises(TypeError, match="keyword arguments only"):
            call()
