"""seprank.d2w.scaling: the fit of eqs. 10-11 against independent solvers, Table 1, figures."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest

from seprank.d2w.scaling import (
    fit_transition_widths,
    load_table1,
    load_table2,
    load_table4,
    optimal_depth,
    plot_figure3,
    plot_figure4,
    table1,
    transition_size,
)

FIT_RTOL = 1e-10
JACOBIAN_STEP = 1e-6


def test_fit_reproduces_eq11_and_the_notes() -> None:
    f = fit_transition_widths()
    # eq. 11 as printed (to its digits) and the notes' refit (5.03967, 0.0555008, 0.85493)
    assert round(f.a, 3) == 5.040 and abs(f.a - 5.039) < 1e-3
    assert round(f.b, 5) == 0.05550 and round(f.sigma_a, 3) == 0.031
    assert round(f.sigma_b, 4) == 0.0013
    np.testing.assert_allclose(f.cov, [[9.439e-4, -3.742e-5], [-3.742e-5, 1.734e-6]],
                               rtol=1e-3)
    assert f.dof == 3 and round(f.chi2_red, 4) == 0.8549
    assert round(f.r2_weighted, 5) == 0.99856 and round(f.r2_unweighted, 4) == 0.9975
    assert f.r2_printed_formula > 1 - 1e-10          # the printed ybar makes R^2 ~ 1


def test_fit_agrees_with_numpy_polyfit() -> None:
    t4 = load_table4()
    L = np.array([t.depth for t in t4], float)
    d = np.array([t.width for t in t4], float)
    sigma = np.array([t.delta_width for t in t4], float) / d
    coef, cov = np.polyfit(L, np.log(d), 1, w=1 / sigma, cov="unscaled")
    f = fit_transition_widths()
    np.testing.assert_allclose([f.b, f.a], coef, rtol=FIT_RTOL)
    np.testing.assert_allclose(f.cov[::-1, ::-1], cov, rtol=1e-8)


def test_rounded_table4b_gives_a_different_fit() -> None:
    t4 = load_table4()
    L = [t.depth for t in t4]
    widths = [math.exp(t.log_width_printed) for t in t4]
    deltas = [t.delta_log_width_printed * w for t, w in zip(t4, widths, strict=True)]
    g = fit_transition_widths(L, widths, deltas)
    assert round(g.a, 3) == 5.046 and round(g.chi2_red, 2) == 0.77   # notes §5.1


def test_transition_size_formula_and_propagated_error() -> None:
    f = fit_transition_widths()
    for L in (6.0, 30.0, 80.0, 100.0):
        N, dN = transition_size(L, f)
        assert math.isclose(N, 12 * L * math.exp(2 * f.a + 2 * f.b * L), rel_tol=1e-12)
        # Jacobian by central differences, then the full quadratic form with the covariance
        def n_of(a: float, b: float, L: float = L) -> float:
            return 12 * L * math.exp(2 * a + 2 * b * L)
        J = np.array([(n_of(f.a + JACOBIAN_STEP, f.b) - n_of(f.a - JACOBIAN_STEP, f.b)),
                      (n_of(f.a, f.b + JACOBIAN_STEP) - n_of(f.a, f.b - JACOBIAN_STEP))])
        J /= 2 * JACOBIAN_STEP
        assert dN == pytest.approx(math.sqrt(J @ f.cov @ J), rel=1e-6)
    N, dN = transition_size(np.array([80, 96]), f)
    assert N.shape == dN.shape == (2,)


@pytest.mark.parametrize("size", [1e7, 8.5e7, 1.74e11, 1e12, 3e13])
def test_optimal_depth_inverts_eq10(size: float) -> None:
    o = optimal_depth(size)
    assert transition_size(o.depth_real)[0] == pytest.approx(size, rel=1e-9)
    assert o.depth == round(o.depth_real)
    assert o.width == pytest.approx(math.sqrt(size / (12 * o.depth)))


def test_table1_rebuilt() -> None:
    rows = {r.model: r for r in table1()}
    assert sum(r.reproduces for r in rows.values()) == 7
    large, one_t = rows["GPT-3 Large"], rows["Optimal 1-Trillion arch"]
    assert (large.depth, round(large.width)) == (37, 1237) and not large.reproduces
    assert round(one_t.width) == 29617 and one_t.depth == 95 and not one_t.reproduces
    assert rows["GPT-3 175B"].depth == 80 and round(rows["GPT-3 175B"].width) == 13461


def test_tables_shipped() -> None:
    t2 = load_table2()
    assert sum(len(v) for v in t2.values()) == 196          # notes §5.4: 196 entries
    assert len(load_table1()) == 9 and [t.depth for t in load_table4()] == [6, 12, 18, 24, 30]


def test_figures() -> None:
    fig3, fig4 = plot_figure3(), plot_figure4()
    try:
        assert len(fig3.axes) == 2 and len(fig4.axes) == 1
        assert fig4.axes[0].get_yscale() == "log"
    finally:
        plt.close(fig3)
        plt.close(fig4)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="positive"):
        optimal_depth(-5)
    with pytest.raises(ValueError, match="all of"):
        fit_transition_widths([1, 2, 3])
    with pytest.raises(ValueError, match="one length"):
        fit_transition_widths([1, 2, 3], [4, 5], [1, 1, 1])
    with pytest.raises(ValueError, match="positive"):
        fit_transition_widths([1, 2, 3], [4, 5, 6], [1, 0, 1])
    with pytest.raises(ValueError, match="at least 3"):
        fit_transition_widths([1, 2], [4, 5], [1, 1])
    with pytest.raises(ValueError, match="depth"):
        transition_size(-1)
