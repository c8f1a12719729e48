r"""The depth-to-width law of paper 003 §5: the fit of eq. 10-11, transition sizes, Table 1.

The paper fits the transition width between its two regimes (Table 4(a)) as
:math:`\ln d_x = a + bL` by weighted least squares (weights :math:`1/\sigma_i^2`,
:math:`\sigma_i = \Delta d_x / d_x`), reports eq. 11 (a, b, covariance), and turns it into the
network size at the transition (eq. 10, with :math:`N = 12 L d_x^2` non-embedding parameters)

.. math::  N_{Tr}(L) = 12 L e^{2a} e^{2bL},\qquad
   \frac{\Delta N_{Tr}}{N_{Tr}} = 2\sqrt{\sigma_a^2 + L^2 \sigma_b^2 + 2L\sigma_{ab}},

(:math:`dN/da = 2N`, :math:`dN/db = 2LN`), then projects optimal depths and widths for the
GPT-3 family (Table 1).  The tables ship with the package (``seprank/d2w/data/d2w_table*.csv``).

References
----------
.. [1] 003 (Levine et al. 2020), §5.2-5.3, eqs. 10-11, Table 1,
   App. D (Tables 2 and 4, eqs. 58-59), Figures 3-4.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from seprank.core.validation import check_array, check_float

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "FitResult",
    "OptimalArchitecture",
    "Table1Row",
    "TransitionPoint",
    "fit_transition_widths",
    "load_table1",
    "load_table2",
    "load_table4",
    "optimal_depth",
    "plot_figure3",
    "plot_figure4",
    "table1",
    "transition_size",
]

#: Table 1: a row reproduces when the depth matches and the width is within this fraction.
TABLE1_WIDTH_RTOL = 0.005


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files("seprank.d2w.data").joinpath(name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


@dataclass(frozen=True)
class TransitionPoint:
    """One row of Table 4: depth, transition width and its printed error (and 4(b)).

    Parameters
    ----------
    depth : int
        L.
    width : int
        The transition width :math:`d_x`.
    delta_width : int
        Its printed error.
    log_width_printed, delta_log_width_printed : float
        The printed :math:`\\ln d_x` and its error (Table 4(b)).
    """

    depth: int
    width: int
    delta_width: int
    log_width_printed: float
    delta_log_width_printed: float


def load_table4() -> list[TransitionPoint]:
    """Table 4 of paper 003 (App. D.1), as shipped.

    Returns
    -------
    list of TransitionPoint
        The rows of Table 4.

    References
    ----------
    .. [1] 003, App. D.1, Table 4.

    Examples
    --------
    >>> [(t.depth, t.width, t.delta_width) for t in load_table4()][:2]
    [(6, 214, 6), (12, 308, 12)]
    """
    return [TransitionPoint(int(r["depth"]), int(r["width"]), int(r["delta_width"]),
                            float(r["log_width_printed"]), float(r["delta_log_width_printed"]))
            for r in _read_csv("d2w_table4.csv")]


def load_table2() -> dict[int, list[int]]:
    """Table 2 (App. D): trained widths per depth, in the paper's row order (duplicates kept).

    Returns
    -------
    dict of int to list of int
        Depth -> the trained widths.

    References
    ----------
    .. [1] 003, App. D, Table 2.

    Examples
    --------
    >>> t = load_table2()
    >>> sorted(t), len(t[6]), t[48][:3]
    ([6, 12, 18, 24, 30, 36, 48], 26, [44, 60, 72])
    """
    rows = _read_csv("d2w_table2.csv")
    out: dict[int, list[int]] = {}
    for key in rows[0]:
        out[int(key[1:])] = [int(r[key]) for r in rows if r[key]]
    return out


@dataclass(frozen=True)
class GPT3Row:
    model: str
    nominal_size: float
    trained_depth: int | None
    trained_width: int | None
    optimal_depth_printed: int
    optimal_width_printed: int


def load_table1() -> list[GPT3Row]:
    """Table 1 as printed (GPT-3 architectures and the paper's projections).

    Returns
    -------
    list of GPT3Row
        The rows of Table 1.

    References
    ----------
    .. [1] 003, Table 1.

    Examples
    --------
    >>> row = load_table1()[-1]
    >>> row.model, row.nominal_size, row.trained_depth, row.optimal_width_printed
    ('Optimal 1-Trillion arch', 1000000000000.0, None, 30100)
    """
    def opt(x: str) -> int | None:
        return int(x) if x else None

    return [GPT3Row(r["model"], float(r["nominal_size"]), opt(r["trained_depth"]),
                    opt(r["trained_width"]), int(r["optimal_depth_printed"]),
                    int(r["optimal_width_printed"])) for r in _read_csv("d2w_table1.csv")]


@dataclass(frozen=True)
class FitResult:
    r"""Weighted least-squares fit :math:`\ln d_x = a + bL` (App. D.1).

    Attributes
    ----------
    a, b : float
    cov : numpy.ndarray
        The unscaled covariance :math:`(X^T W X)^{-1}`, :math:`W = \mathrm{diag}(1/\sigma^2)`
        (what eq. 11 reports).
    chi2, chi2_red : float
        eq. 58: :math:`\chi^2 = \sum (y_i - \hat y_i)^2 / \sigma_i^2`, divided by ``dof``.
    r2_weighted : float
        eq. 59 with the weighted mean :math:`\bar y = \sum w_i y_i / \sum w_i`.
    r2_printed_formula : float
        eq. 59 with the printed :math:`\bar y = \frac1n \sum w_i y_i` (not a mean; gives ~1).
    r2_unweighted : float
        Ordinary :math:`R^2` of the same line.
    dof : int
        Degrees of freedom, n - 2.
    depths, log_widths, sigmas : numpy.ndarray
        The data fitted: L, :math:`\ln d_x` and :math:`\sigma`.
    """

    a: float
    b: float
    cov: npt.NDArray[np.float64]
    chi2: float
    dof: int
    r2_weighted: float
    r2_printed_formula: float
    r2_unweighted: float
    depths: tuple[int, ...]
    log_widths: tuple[float, ...]
    sigmas: tuple[float, ...]

    @property
    def chi2_red(self) -> float:
        return self.chi2 / self.dof

    @property
    def sigma_a(self) -> float:
        return math.sqrt(self.cov[0, 0])

    @property
    def sigma_b(self) -> float:
        return math.sqrt(self.cov[1, 1])

    @property
    def sigma_ab(self) -> float:
        return float(self.cov[0, 1])


def fit_transition_widths(
    depths: npt.ArrayLike | None = None, widths: npt.ArrayLike | None = None,
    delta_widths: npt.ArrayLike | None = None,
) -> FitResult:
    r"""The weighted fit of §5.2.2 / App. D.1 (default data: Table 4(a)).

    :math:`y_i = \ln d_{x,i}`, :math:`\sigma_i = \Delta d_{x,i} / d_{x,i}`; solves the normal
    equations of :math:`\sum_i (y_i - a - bL_i)^2/\sigma_i^2`.

    Parameters
    ----------
    depths : array_like, optional
        L (default: Table 4(a)).
    widths : array_like, optional
        The transition widths :math:`d_x`.
    delta_widths : array_like, optional
        Their errors :math:`\Delta d_x`.

    Returns
    -------
    FitResult
        a, b, their covariance and the goodness of fit.

    References
    ----------
    .. [1] 003, §5.2.2, eq. 11, App. D.1 (eqs. 58-59).

    Examples
    --------
    >>> f = fit_transition_widths()
    >>> round(f.a, 4), round(f.b, 5), round(f.chi2_red, 4), round(f.r2_weighted, 4)
    (5.0397, 0.0555, 0.8549, 0.9986)
    """
    if depths is None and widths is None and delta_widths is None:
        t4 = load_table4()
        L = np.array([t.depth for t in t4], dtype=float)
        d = np.array([t.width for t in t4], dtype=float)
        dd = np.array([t.delta_width for t in t4], dtype=float)
    elif depths is None or widths is None or delta_widths is None:
        raise ValueError("give all of depths, widths and delta_widths (or none for Table 4(a))")
    else:
        L, d, dd = (check_array(name, x, ndim=1) for name, x in
                    (("depths", depths), ("widths", widths), ("delta_widths", delta_widths)))
        if np.any(np.round(L) != L):
            raise ValueError(f"depths must be integers (numbers of layers), got {depths!r}")
    if not (L.ndim == d.ndim == dd.ndim == 1 and L.shape == d.shape == dd.shape):
        raise ValueError(f"depths, widths, delta_widths must be 1-D of one length, got "
                         f"{L.shape}, {d.shape}, {dd.shape}")
    if L.size < 3:
        raise ValueError(f"need at least 3 points for a 2-parameter fit with dof > 0, got "
                         f"{L.size}")
    if not (np.all(np.isfinite(L)) and np.all(np.isfinite(d)) and np.all(np.isfinite(dd))):
        raise ValueError("depths, widths and delta_widths must be finite")
    if np.any(d <= 0) or np.any(dd <= 0):
        raise ValueError("widths and their errors must be positive")
    y, sigma = np.log(d), dd / d
    w = 1 / sigma**2
    X = np.column_stack([np.ones_like(L), L])
    A = X.T @ (w[:, None] * X)
    cov = np.linalg.inv(A)
    a, b = cov @ (X.T @ (w * y))
    resid = y - (a + b * L)
    chi2 = float(np.sum(w * resid**2))
    ybar_w = float(np.sum(w * y) / np.sum(w))
    ybar_printed = float(np.sum(w * y) / len(y))
    r2_w = 1 - chi2 / float(np.sum(w * (y - ybar_w) ** 2))
    r2_p = 1 - chi2 / float(np.sum(w * (y - ybar_printed) ** 2))
    r2_u = 1 - float(np.sum(resid**2)) / float(np.sum((y - y.mean()) ** 2))
    return FitResult(float(a), float(b), cov, chi2, len(y) - 2, r2_w, r2_p, r2_u,
                     tuple(int(x) for x in L), tuple(float(v) for v in y),
                     tuple(float(s) for s in sigma))


def _params(fit: FitResult | None) -> FitResult:
    return fit_transition_widths() if fit is None else fit


def transition_size(depth: float | npt.ArrayLike, fit: FitResult | None = None
                    ) -> tuple[Any, Any]:
    r"""eq. 10: :math:`N_{Tr}(L) = 12 L e^{2a + 2bL}` and its propagated error
    :math:`\Delta N_{Tr} = 2 N_{Tr} \sqrt{\sigma_a^2 + L^2\sigma_b^2 + 2L\sigma_{ab}}`.

    Parameters
    ----------
    depth : float or array_like
        L.
    fit : FitResult, optional
        The fit (default: :func:`fit_transition_widths` on Table 4).

    Returns
    -------
    (float or numpy.ndarray, float or numpy.ndarray)
        :math:`N_{Tr}(L)` and :math:`\Delta N_{Tr}`.

    References
    ----------
    .. [1] 003, eq. 10.

    Examples
    --------
    >>> N, dN = transition_size(96)
    >>> f"{N:.3e} +- {dN:.2e}"
    '1.166e+12 +- 2.30e+11'
    """
    f = _params(fit)
    if isinstance(depth, bool):
        raise ValueError(f"depth must be a positive number, got {depth!r}")
    L = check_array("depth", depth, ndim=(0, 1))
    if np.any(~np.isfinite(L)) or np.any(L <= 0):
        raise ValueError(f"depth must be positive and finite, got {depth!r}")
    N = 12 * L * np.exp(2 * f.a + 2 * f.b * L)
    var = f.cov[0, 0] + L**2 * f.cov[1, 1] + 2 * L * f.cov[0, 1]
    dN = 2 * N * np.sqrt(var)
    if N.ndim == 0:
        return float(N), float(dN)
    return N, dN


@dataclass(frozen=True)
class OptimalArchitecture:
    """Optimal depth for a size: real root, rounded depth and the width ``sqrt(S / 12L)``.

    Parameters
    ----------
    n_params : float
        S, the non-embedding size :math:`12 L d_x^2`.
    depth_real : float
        The real root L*.
    depth : int
        L* rounded.
    width : float
        :math:`\\sqrt{S / 12L}`.
    """

    n_params: float
    depth_real: float
    depth: int
    width: float


def optimal_depth(n_params: float, fit: FitResult | None = None) -> OptimalArchitecture:
    r"""The depth whose transition size (eq. 10) equals ``n_params`` -- solve
    :math:`12 L e^{2a+2bL} = S` for real L, round to the nearest integer and set the width
    :math:`\sqrt{S / (12 L)}` (the recipe that reproduces 7 of Table 1's 9 rows).

    ``n_params`` is the **non-embedding** size :math:`12 L d_x^2` (the paper's convention).

    Parameters
    ----------
    n_params : float
        S, the non-embedding size.
    fit : FitResult, optional
        The fit (default: :func:`fit_transition_widths` on Table 4).

    Returns
    -------
    OptimalArchitecture
        The real and rounded depth, and the width.

    References
    ----------
    .. [1] 003, eq. 10, Table 1 (§5.3).

    Examples
    --------
    >>> o = optimal_depth(12 * 96 * 12288**2)     # GPT-3 175B
    >>> round(o.depth_real, 2), o.depth, round(o.width)
    (80.45, 80, 13461)
    """
    from scipy.optimize import brentq

    f = _params(fit)
    S = check_float("n_params", n_params, positive=True)

    def g(L: float) -> float:
        return math.log(12 * L) + 2 * f.a + 2 * f.b * L - math.log(S)

    lo, hi = 1e-12, 1.0
    while g(hi) < 0:
        hi *= 2
    if g(lo) > 0:
        raise ValueError(f"n_params = {S:g} is below the transition size of any depth")
    L_star = float(brentq(g, lo, hi, xtol=1e-12))
    L_int = max(1, round(L_star))
    return OptimalArchitecture(S, L_star, L_int, math.sqrt(S / (12 * L_int)))


@dataclass(frozen=True)
class Table1Row:
    """A rebuilt Table 1 row next to the printed one.

    Parameters
    ----------
    model : str
        The row's name.
    size : float
        S, the non-embedding size.
    depth_real : float
        The real optimal depth.
    depth : int
        It rounded.
    width : float
        The rebuilt width.
    depth_printed, width_printed : int
        The printed depth and width.
    """

    model: str
    size: float
    depth_real: float
    depth: int
    width: float
    depth_printed: int
    width_printed: int

    @property
    def reproduces(self) -> bool:
        return (self.depth == self.depth_printed
                and abs(self.width - self.width_printed) <= TABLE1_WIDTH_RTOL * self.width_printed)


def table1(fit: FitResult | None = None) -> list[Table1Row]:
    r"""Table 1 rebuilt from the fit: size :math:`S = 12 L d_x^2` of each trained GPT-3
    architecture (1e12 for the 1-trillion row), then :func:`optimal_depth`.

    Two rows do not reproduce: GPT-3 Large (L* = 37.4 -> 37, printed 38; the printed width
    1220 is :math:`\sqrt{S/(12\cdot 38)}`) and the 1-trillion row (29617, printed 30100 =
    :math:`e^{a + 95b}`, the transition width instead of :math:`\sqrt{S/12L}`).

    Parameters
    ----------
    fit : FitResult, optional
        The fit (default: :func:`fit_transition_widths` on Table 4).

    Returns
    -------
    list of Table1Row
        Each rebuilt row next to the printed one.

    References
    ----------
    .. [1] 003, Table 1 (§5.3).

    Examples
    --------
    >>> [(r.model, r.reproduces) for r in table1() if not r.reproduces]
    [('GPT-3 Large', False), ('Optimal 1-Trillion arch', False)]
    """
    f = _params(fit)
    rows = []
    for r in load_table1():
        if r.trained_depth is not None and r.trained_width is not None:
            S = 12.0 * r.trained_depth * r.trained_width**2
        else:
            S = r.nominal_size
        o = optimal_depth(S, f)
        rows.append(Table1Row(r.model, S, o.depth_real, o.depth, o.width,
                              r.optimal_depth_printed, r.optimal_width_printed))
    return rows


def plot_figure3(fit: FitResult | None = None) -> Figure:
    r"""Figure 3 (a)-(b): the fit :math:`\ln d_x = a + bL` over Table 4 with error bars, and
    :math:`N_{Tr}(L)` with the :math:`\pm\Delta N_{Tr}` band and the empirical transition sizes
    :math:`12 L d_x^2`.  (Panel (c) is qualitative, without data in the paper.)

    Parameters
    ----------
    fit : FitResult, optional
        The fit (default: :func:`fit_transition_widths` on Table 4).

    Returns
    -------
    matplotlib.figure.Figure
        Panels (a) and (b).

    References
    ----------
    .. [1] 003, Figure 3.
    """
    import matplotlib.pyplot as plt

    f = _params(fit)
    t4 = load_table4()
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(10, 4))
    L = np.array([t.depth for t in t4], dtype=float)
    grid = np.linspace(0, 40, 200)
    ax_a.errorbar(L, f.log_widths, yerr=f.sigmas, fmt="kx", ecolor="red", capsize=3,
                  label="Table 4 transitions")
    ax_a.plot(grid, f.a + f.b * grid, "b-", label=f"fit: a = {f.a:.3f}, b = {f.b:.4f}")
    ax_a.set_xlabel("depth L")
    ax_a.set_ylabel(r"$\ln d_x$ at the transition")
    ax_a.set_title(rf"(a) $\chi^2_{{red}}$ = {f.chi2_red:.3f}, $R^2_w$ = {f.r2_weighted:.4f}")
    ax_a.legend()
    grid_b = np.linspace(1, 40, 200)
    N, dN = transition_size(grid_b, f)
    ax_b.fill_between(grid_b, N - dN, N + dN, color="green", alpha=0.3, label=r"$\pm\Delta N$")
    ax_b.plot(grid_b, N, "g-", label=r"$N_{Tr}(L)$, eq. 10")
    d = np.array([t.width for t in t4], dtype=float)
    dd = np.array([t.delta_width for t in t4], dtype=float)
    ax_b.errorbar(L, 12 * L * d**2, yerr=24 * L * d * dd, fmt="kx", capsize=3,
                  label=r"empirical $12 L d_x^2$")
    ax_b.set_yscale("log")
    ax_b.set_xlabel("depth L")
    ax_b.set_ylabel("network size at the transition")
    ax_b.set_title("(b) too shallow above-left, too deep below-right")
    ax_b.legend()
    fig.tight_layout()
    return fig


def plot_figure4(fit: FitResult | None = None) -> Figure:
    r"""Figure 4: :math:`N_{Tr}(L)` and its band extrapolated to L = 100, with the GPT-3
    architectures of Table 1 (trained depth, non-embedding size :math:`12 L d_x^2`).

    Parameters
    ----------
    fit : FitResult, optional
        The fit (default: :func:`fit_transition_widths` on Table 4).

    Returns
    -------
    matplotlib.figure.Figure
        The extrapolation with the GPT-3 points.

    References
    ----------
    .. [1] 003, Figure 4.
    """
    import matplotlib.pyplot as plt

    f = _params(fit)
    fig, ax = plt.subplots(figsize=(6, 4.5))
    grid = np.linspace(1, 100, 300)
    N, dN = transition_size(grid, f)
    ax.fill_between(grid, N - dN, N + dN, color="green", alpha=0.3, label=r"$\pm\Delta N_{Tr}$")
    ax.plot(grid, N, "g-", label="eq. 10")
    for r in load_table1():
        if r.trained_depth is not None and r.trained_width is not None:
            S = 12 * r.trained_depth * r.trained_width**2
            ax.plot(r.trained_depth, S, "o", color="purple")
            ax.annotate(r.model.replace("GPT-3 ", ""), (r.trained_depth, S), fontsize=7,
                        xytext=(3, 3), textcoords="offset points")
    ax.set_yscale("log")
    ax.set_xlabel("depth L")
    ax.set_ylabel("network size (non-embedding parameters)")
    ax.set_title("Figure 4: optimal size per depth; GPT-3 models (purple)")
    ax.legend()
    fig.tight_layout()
    return fig
