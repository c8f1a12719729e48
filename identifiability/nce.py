"""The NCE and eNCE population landscapes for 1-D Gaussian mean estimation (004 §4.1).

Setting (§4.1.3): data :math:`P_* = \\mathcal N(\\theta_*, 1)`, noise :math:`Q = \\mathcal
N(\\theta_q, 1)`, model :math:`p_\\tau(x) = \\exp(-x^2/2 + bx - c)` with the extended parameter
:math:`\\tau = [b, c]` (c plays the log-partition function, sufficient statistics
:math:`T(x) = [x, -1]`).  The normalised member of mean θ is
:math:`\\tau(\\theta) = [\\theta, \\theta^2/2 + \\log\\sqrt{2\\pi}]`; so
:math:`\\tau_* = [\\theta_*, \\theta_*^2/2 + \\log\\sqrt{2\\pi}]` (the seed prints a minus sign
in front of the second entry — a typo, its proofs use the plus) and
:math:`R = |\\theta_*-\\theta_q|`.

With the log-ratio :math:`\\psi = \\log p_\\tau - \\log q = \\beta x + \\gamma` (linear in x):

* **NCE** (Definition 19, eq. 4.1):
  :math:`L = \\tfrac12\\mathbb E_{P_*}\\operatorname{softplus}(-\\psi)
  + \\tfrac12\\mathbb E_Q\\operatorname{softplus}(\\psi)`,
  :math:`\\nabla L = \\tfrac12\\int\\frac{q}{p+q}(p - p_*)T`,
  :math:`\\nabla^2 L = \\tfrac12\\int\\frac{(p_*+q)pq}{(p+q)^2}TT^\\top` (Lemma 45).
* **eNCE** (Definition 20, eq. 4.11):
  :math:`L_{\\exp} = \\tfrac12\\mathbb E_{P_*}e^{-\\psi/2} + \\tfrac12\\mathbb E_Q e^{\\psi/2}`,
  :math:`\\nabla^2 L_{\\exp} = \\tfrac18\\int(p_*e^{-\\psi/2} + qe^{\\psi/2})TT^\\top` (eq. 4.12);
  everything is a Gaussian moment-generating function (``method='closed_form'``).

**Numerics.** All integrals are one-dimensional Gaussian expectations
:math:`\\int\\phi(x-\\mu)w(\\psi(x))x^k dx`.  They are computed in log space: the log-integrand
(``log φ + log w``, with ``logaddexp``-based log-sigmoid/softplus) is shifted by its maximum
before exponentiating and integrated by the trapezoid rule on a uniform grid covering
:math:`[\\mu - |\\beta| - 16, \\mu + |\\beta| + 16]` (the log-integrand is concave-ish with its
mode between μ and μ ± β) with step :math:`\\min(0.05, 1/(8|\\beta|))` (the sigmoid's width is
1/\\|β\\|) — exponentially accurate for these analytic integrands.  At the optimum the values are
:math:`\\propto e^{-R^2/8}`; ``scale_exponent=s`` returns the quantity times :math:`e^{s}`
(use :math:`s = R^2/8`) so that nothing underflows even for R in the hundreds.  A result that
would underflow or overflow double precision raises instead of returning 0 or inf.

References
----------
004 §4.1: Definition 19, Lemma 45, §4.1.3 (setup, Proposition 7,
Lemmas 46–48), Lemma 49, Theorem 19 (NGD), Definition 20 and eqs. 4.12–4.13 (eNCE), Lemma 60.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from identifiability.contrastive.kernels import FloatArray
from seprank.core import (
    check_array,
    check_choice,
    check_float,
    check_instance,
    check_int,
    guard_memory,
)
from seprank.core.display import RichDisplay
from seprank.core.index import PaperIndex

__all__ = [
    "GaussianMeanNCE",
    "OptimizationTrace",
    "bhattacharyya_coefficient",
    "run_gradient_method",
]

Kind = Literal["nce", "ence"]
Quantity = Literal["loss", "gradient", "hessian"]

LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_GRID_HALF_WIDTH = 16.0


def _log_softplus(t: FloatArray) -> FloatArray:
    """log(log(1 + e^t)), accurate for all t (≈ t - e^t/2 for t < -30)."""
    out = np.empty_like(t)
    lo = t < -30
    out[lo] = t[lo] - 0.5 * np.exp(t[lo])
    out[~lo] = np.log(np.logaddexp(0.0, t[~lo]))
    return out


def _log_sigmoid(t: FloatArray) -> FloatArray:
    return np.asarray(-np.logaddexp(0.0, -t), dtype=float)


def bhattacharyya_coefficient(theta1: float, theta2: float) -> float:
    """BC of :math:`\\mathcal N(\\theta_1,1)` and :math:`\\mathcal N(\\theta_2,1)`:
    :math:`\\int\\sqrt{p_1p_2} = e^{-(\\theta_1-\\theta_2)^2/8}`.

    Parameters
    ----------
    theta1, theta2 : float
        The means of two unit-variance Gaussians.

    Returns
    -------
    float
        :math:`e^{-(\\theta_1-\\theta_2)^2/8}`.

    Examples
    --------
    >>> bool(np.isclose(bhattacharyya_coefficient(0.0, 2.0), np.exp(-0.5)))
    True
    """
    theta1, theta2 = check_float("theta1", theta1), check_float("theta2", theta2)
    return math.exp(-((theta1 - theta2) ** 2) / 8)


@dataclass(frozen=True, repr=False)
class GaussianMeanNCE(RichDisplay):
    """NCE/eNCE for estimating the mean of :math:`\\mathcal N(\\theta_*, 1)` against
    :math:`Q = \\mathcal N(\\theta_q, 1)` with :math:`p_\\tau = e^{-x^2/2 + bx - c}`.

    Parameters
    ----------
    theta_star : float
        :math:`\\theta_*`, the mean of the data distribution.
    theta_q : float, default 0.0
        :math:`\\theta_q`, the mean of the noise distribution Q.

    Examples
    --------
    >>> prob = GaussianMeanNCE(theta_star=4.0)
    >>> bool(np.isclose(prob.loss(prob.tau_q), np.log(2), rtol=1e-12))  # Proposition 7, part 1
    True
    >>> H = prob.hessian(prob.tau_q)       # Lemma 48's matrix: [[R^2 + 2, -R], [-R, 2]] / 8
    >>> np.allclose(H, np.array([[18.0, -4.0], [-4.0, 2.0]]) / 8)
    True
    """

    theta_star: float
    theta_q: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "theta_star", check_float("theta_star", self.theta_star))
        object.__setattr__(self, "theta_q", check_float("theta_q", self.theta_q))

    @property
    def R(self) -> float:
        """:math:`R = |\\theta_* - \\theta_q|`."""
        return abs(self.theta_star - self.theta_q)

    @staticmethod
    def tau(theta: float) -> FloatArray:
        """The normalised member
        :math:`\\tau(\\theta) = [\\theta, \\theta^2/2 + \\log\\sqrt{2\\pi}]`.

        Parameters
        ----------
        theta : float
            The mean θ.

        Returns
        -------
        numpy.ndarray
            :math:`\\tau(\\theta)`, shape (2,).
        """
        return np.array([theta, theta**2 / 2 + LOG_SQRT_2PI])

    @property
    def tau_star(self) -> FloatArray:
        return self.tau(self.theta_star)

    @property
    def tau_q(self) -> FloatArray:
        return self.tau(self.theta_q)

    def log_ratio(self, tau: npt.ArrayLike) -> tuple[float, float]:
        """(β, γ) with :math:`\\psi(x) = \\log p_\\tau(x) - \\log q(x) = \\beta x + \\gamma`.

        Parameters
        ----------
        tau : array_like
            The extended parameter :math:`\\tau = [b, c]`.

        Returns
        -------
        (float, float)
            (β, γ).
        """
        b, c = _as_tau(tau)
        return b - self.theta_q, -c + self.theta_q**2 / 2 + LOG_SQRT_2PI

    # -- the engine -------------------------------------------------------------------------
    def _log_scaled_moments(self, tau: npt.ArrayLike, kind: Kind, quantity: Quantity
                            ) -> tuple[FloatArray, float]:
        """``(mantissa, log_scale)`` with [m0, m1, m2] = mantissa * e^log_scale, where m_k are
        the moments ∫φ_*·w_* x^k + ∫φ_q·w_q x^k (the weights carry their signs).  Nothing
        over- or underflows here, for any R: the mantissa has entries of order 1."""
        beta, gamma = self.log_ratio(tau)
        parts: list[tuple[float, FloatArray]] = []      # (log-scale, signed moments)
        for mu, side in ((self.theta_star, -1.0), (self.theta_q, 1.0)):
            # side = -1 for the data term (loss uses -psi), +1 for the noise term.
            lo = mu - abs(beta) - _GRID_HALF_WIDTH
            hi = mu + abs(beta) + _GRID_HALF_WIDTH
            dx = min(0.05, 1.0 / (8.0 * max(abs(beta), 1e-12)))
            n = math.ceil((hi - lo) / dx) + 1
            if n > 5_000_000:
                raise ValueError(f"|beta| = {abs(beta):.3g} needs too fine a grid; "
                                 "parameters this far from the data are not supported")
            x = np.linspace(lo, hi, n)
            psi = beta * x + gamma
            logphi = -0.5 * (x - mu) ** 2 - LOG_SQRT_2PI
            sign = 1.0
            if kind == "nce":
                if quantity == "loss":
                    logw = _log_softplus(side * psi)
                elif quantity == "gradient":
                    # data: -sigma(-psi) T ; noise: sigma(psi) T
                    logw = _log_sigmoid(side * psi)
                    sign = side
                else:
                    logw = _log_sigmoid(psi) + _log_sigmoid(-psi)
            elif kind == "ence":
                logw = side * psi / 2
                if quantity == "gradient":
                    logw = logw + math.log(0.5)
                    sign = side
                elif quantity == "hessian":
                    logw = logw + math.log(0.25)
            else:
                raise ValueError(f"kind must be 'nce' or 'ence', got {kind!r}")
            logf = logphi + logw
            mx = float(np.max(logf))
            f = np.exp(logf - mx)
            parts.append((mx, sign * np.array([np.trapezoid(f * x**k, x) for k in range(3)])))
        top = max(mx for mx, _ in parts)
        # the smaller part is rescaled to the larger one (it may underflow: it is negligible)
        total = sum(mom * math.exp(mx - top) for mx, mom in parts)
        return np.asarray(total, dtype=float), top

    def _weighted_moments(self, tau: npt.ArrayLike, kind: Kind, quantity: Quantity,
                          scale_exponent: float) -> FloatArray:
        """[m0, m1, m2] times e^scale_exponent, refusing what double precision cannot hold."""
        total, top = self._log_scaled_moments(tau, kind, quantity)
        return _unscale(total, top + scale_exponent, kind, quantity, scale_exponent)

    def _closed_form_log_scaled(self, tau: npt.ArrayLike, quantity: Quantity
                                ) -> tuple[FloatArray, float]:
        beta, gamma = self.log_ratio(tau)
        factor = {"loss": 1.0, "gradient": 0.5, "hessian": 0.25}[quantity]
        parts = []
        for mu, t in ((self.theta_star, -0.5), (self.theta_q, 0.5)):
            # E_{N(mu,1)} x^k e^{t psi} = e^{t gamma + t beta mu + t^2 beta^2 / 2} * moments of
            # N(mu + t beta, 1)
            logm = t * gamma + t * beta * mu + 0.5 * (t * beta) ** 2
            m = mu + t * beta
            sign = -1.0 if (quantity == "gradient" and t < 0) else 1.0
            parts.append((logm, sign * factor * np.array([1.0, m, 1.0 + m * m])))
        top = max(lm for lm, _ in parts)
        return np.asarray(sum(v * math.exp(lm - top) for lm, v in parts), dtype=float), top

    def _closed_form_moments(self, tau: npt.ArrayLike, quantity: Quantity,
                             scale_exponent: float) -> FloatArray:
        total, top = self._closed_form_log_scaled(tau, quantity)
        return _unscale(total, top + scale_exponent, "ence", quantity, scale_exponent)

    def gradient_direction(self, tau: npt.ArrayLike, *, kind: Kind = "nce") -> FloatArray:
        r""":math:`\nabla L/\|\nabla L\|` at τ, for any R: the direction is scale-free, so it
        is computed from the log-scaled moments and never over- or underflows (it is what
        normalised gradient descent needs).  A zero gradient gives a zero vector.

        Parameters
        ----------
        tau : array_like
            The extended parameter :math:`\tau = [b, c]`.
        kind : {'nce', 'ence'}, keyword-only
            The NCE loss (eq. 4.1) or the eNCE loss (eq. 4.11); default ``'nce'``.

        Returns
        -------
        numpy.ndarray
            The unit gradient direction, shape (2,) (zero for a zero gradient).

        Examples
        --------
        >>> far = GaussianMeanNCE(theta_star=300.0)          # e^{-R^2/8} = e^{-11250}
        >>> v = far.gradient_direction(far.tau_q)
        >>> bool(np.isclose(np.linalg.norm(v), 1.0))
        True
        """
        check_choice("kind", kind, ("nce", "ence"))
        total, _ = self._log_scaled_moments(tau, kind, "gradient")
        g = 0.5 * np.array([total[1], -total[0]])
        nrm = float(np.linalg.norm(g))
        return g / nrm if nrm > 0 else g

    def _moments(self, tau: npt.ArrayLike, kind: Kind, quantity: Quantity,
                 scale_exponent: float, method: str) -> FloatArray:
        check_choice("kind", kind, ("nce", "ence"))
        scale_exponent = check_float("scale_exponent", scale_exponent)
        if method == "closed_form":
            if kind != "ence":
                raise ValueError("closed forms exist for eNCE only; NCE uses quadrature")
            return self._closed_form_moments(tau, quantity, scale_exponent)
        check_choice("method", method, ("quadrature", "closed_form"))
        return self._weighted_moments(tau, kind, quantity, scale_exponent)

    # -- public quantities ------------------------------------------------------------------
    def loss(self, tau: npt.ArrayLike, *, kind: Kind = "nce", scale_exponent: float = 0.0,
             method: Literal["quadrature", "closed_form"] = "quadrature") -> float:
        """The population loss :math:`L(\\tau)` (times :math:`e^{\\text{scale\\_exponent}}`).

        Parameters
        ----------
        tau : array_like
            The extended parameter :math:`\\tau = [b, c]`.
        kind : {'nce', 'ence'}, keyword-only
            The NCE loss (eq. 4.1) or the eNCE loss (eq. 4.11); default ``'nce'``.
        scale_exponent : float, keyword-only
            Return the quantity times :math:`e^{s}` (use :math:`s = R^2/8` near the optimum);
            default 0.
        method : {'quadrature', 'closed_form'}, keyword-only
            Log-space quadrature, or the closed form (eNCE only).

        Returns
        -------
        float
            :math:`L(\\tau)`, scaled.
        """
        return 0.5 * float(self._moments(tau, kind, "loss", scale_exponent, method)[0])

    def gradient(self, tau: npt.ArrayLike, *, kind: Kind = "nce", scale_exponent: float = 0.0,
                 method: Literal["quadrature", "closed_form"] = "quadrature") -> FloatArray:
        """:math:`\\nabla_\\tau L` (times :math:`e^{\\text{scale\\_exponent}}`), shape (2,).

        Parameters
        ----------
        tau : array_like
            The extended parameter :math:`\\tau = [b, c]`.
        kind : {'nce', 'ence'}, keyword-only
            The NCE loss (eq. 4.1) or the eNCE loss (eq. 4.11); default ``'nce'``.
        scale_exponent : float, keyword-only
            Return the quantity times :math:`e^{s}` (use :math:`s = R^2/8` near the optimum);
            default 0.
        method : {'quadrature', 'closed_form'}, keyword-only
            Log-space quadrature, or the closed form (eNCE only).

        Returns
        -------
        numpy.ndarray
            :math:`\\nabla_\\tau L`, shape (2,), scaled.
        """
        m0, m1, _ = self._moments(tau, kind, "gradient", scale_exponent, method)
        return 0.5 * np.array([m1, -m0])

    def hessian(self, tau: npt.ArrayLike, *, kind: Kind = "nce", scale_exponent: float = 0.0,
                method: Literal["quadrature", "closed_form"] = "quadrature") -> FloatArray:
        """:math:`\\nabla^2_\\tau L` (times :math:`e^{\\text{scale\\_exponent}}`), shape (2, 2).

        Parameters
        ----------
        tau : array_like
            The extended parameter :math:`\\tau = [b, c]`.
        kind : {'nce', 'ence'}, keyword-only
            The NCE loss (eq. 4.1) or the eNCE loss (eq. 4.11); default ``'nce'``.
        scale_exponent : float, keyword-only
            Return the quantity times :math:`e^{s}` (use :math:`s = R^2/8` near the optimum);
            default 0.
        method : {'quadrature', 'closed_form'}, keyword-only
            Log-space quadrature, or the closed form (eNCE only).

        Returns
        -------
        numpy.ndarray
            :math:`\\nabla^2_\\tau L`, shape (2, 2), scaled.
        """
        m0, m1, m2 = self._moments(tau, kind, "hessian", scale_exponent, method)
        return 0.5 * np.array([[m2, -m1], [-m1, m0]])

    def condition_number(self, tau: npt.ArrayLike, *, kind: Kind = "nce") -> float:
        """:math:`\\kappa = \\sigma_{\\max}/\\sigma_{\\min}` of the Hessian at τ (scale-free, so
        computed with :math:`e^{R^2/8}` scaling to avoid underflow).

        Parameters
        ----------
        tau : array_like
            The extended parameter :math:`\\tau = [b, c]`.
        kind : {'nce', 'ence'}, keyword-only
            The NCE loss (eq. 4.1) or the eNCE loss (eq. 4.11); default ``'nce'``.

        Returns
        -------
        float
            :math:`\\kappa` of the Hessian at τ.
        """
        try:
            H = self.hessian(tau, kind=kind, scale_exponent=self.R**2 / 8)
        except OverflowError:
            H = self.hessian(tau, kind=kind)
        ev = np.linalg.eigvalsh(H)
        return float(ev[-1] / ev[0])


def _unscale(total: FloatArray, log_size: float, kind: str, quantity: str,
             scale_exponent: float) -> FloatArray:
    """total * e^log_size, refusing overflow and underflow (never a silent inf or 0)."""
    if log_size > 700:
        raise OverflowError(
            f"the {kind} {quantity} times e^{scale_exponent:g} overflows double precision "
            f"(log-size {log_size:.0f}); lower scale_exponent by about {log_size - 600:.0f}")
    if log_size < -700:
        raise FloatingPointError(
            f"the {kind} {quantity} underflows double precision (log-size {log_size:.0f}); "
            f"pass scale_exponent (e.g. {-log_size:.0f}, or R**2 / 8 near the optimum) to get "
            "it times e^scale_exponent")
    return np.asarray(total * math.exp(log_size), dtype=float)


def _as_tau(tau: npt.ArrayLike, name: str = "tau") -> tuple[float, float]:
    t = check_array(name, tau).ravel()
    if t.shape != (2,):
        raise ValueError(f"{name} must be a finite pair [b, c], got {tau!r}")
    return float(t[0]), float(t[1])


@dataclass(frozen=True, repr=False)
class OptimizationTrace(RichDisplay):
    """Iterates of (normalised) gradient descent on a population loss.

    Attributes
    ----------
    taus : ndarray, shape (n_steps + 1, 2)
    distances : ndarray
        :math:`\\|\\tau_t - \\tau_*\\|`.
    method, kind : str
    step : float
    """

    taus: FloatArray
    distances: FloatArray
    method: str
    kind: str
    step: float

    def best_distance(self, up_to: int | None = None) -> float:
        """:math:`\\min_{t \\le \\text{up\\_to}}\\|\\tau_t - \\tau_*\\|` (Fig. 4.2's metric).

        Parameters
        ----------
        up_to : int, optional
            Last iteration considered (None: all).

        Returns
        -------
        float
            The smallest distance to :math:`\\tau_*`.
        """
        d = self.distances if up_to is None else self.distances[: up_to + 1]
        return float(np.min(d))


def run_gradient_method(problem: GaussianMeanNCE, *, kind: Kind = "nce",
                        method: Literal["gd", "ngd"] = "gd", step: float, n_steps: int,
                        tau0: npt.ArrayLike | None = None,
                        scale_exponent: float = 0.0) -> OptimizationTrace:
    r"""Gradient descent :math:`\tau \leftarrow \tau - \eta\nabla L` or normalised gradient
    descent :math:`\tau \leftarrow \tau - \eta\nabla L/\|\nabla L\|` (Theorem 19) on the
    population loss, from :math:`\tau_0 = \tau_q` by default.  Deterministic.

    NGD's direction is scale-free, so it is computed from log-scaled moments
    (:meth:`GaussianMeanNCE.gradient_direction`): it works for any R (the gradient itself is
    :math:`\propto e^{-R^2/8}` near the optimum and underflows for R ≳ 75).  GD uses the true
    gradient times :math:`e^{\text{scale\_exponent}}` -- the same iteration as GD with step
    :math:`\eta e^{\text{scale\_exponent}}`; for large R the true gradient underflows, and an
    error says which ``scale_exponent`` to pass.

    Parameters
    ----------
    problem : GaussianMeanNCE
    kind : {'nce', 'ence'}, keyword-only
    method : {'gd', 'ngd'}, keyword-only
    step : float, keyword-only
        η > 0.
    n_steps : int, keyword-only
        Iterations (>= 0).
    tau0 : array_like, optional, keyword-only
        Start [b, c] (default :math:`\tau_q`).
    scale_exponent : float, keyword-only
        GD only: multiply the gradient by :math:`e^{s}` (an effective step
        :math:`\eta e^{s}`); ignored by NGD, which needs no scaling.

    Returns
    -------
    OptimizationTrace
        The iterates, their losses and their distances to :math:`\tau_*`.

    Examples
    --------
    >>> prob = GaussianMeanNCE(theta_star=4.0)
    >>> tr = run_gradient_method(prob, method="ngd", step=0.5, n_steps=200)
    >>> bool(tr.best_distance() < 0.5 < tr.distances[0])
    True
    >>> far = GaussianMeanNCE(theta_star=100.0)             # R = 100: e^{-R^2/8} = e^{-1250}
    >>> tr = run_gradient_method(far, method="ngd", step=2.0, n_steps=5)
    >>> bool(tr.distances[-1] < tr.distances[0])
    True
    """
    check_instance("problem", problem, GaussianMeanNCE, expected="a GaussianMeanNCE",
                   hint="build one with GaussianMeanNCE(theta_star=..., theta_q=...)")
    check_choice("kind", kind, ("nce", "ence"))
    check_choice("method", method, ("gd", "ngd"))
    step = check_float("step", step, positive=True)
    n_steps = check_int("n_steps", n_steps, 0)
    scale_exponent = check_float("scale_exponent", scale_exponent)
    guard_memory(16 * (n_steps + 1) * 2, what=f"a trace of {n_steps:,} steps",
                 fix="run fewer steps")
    tau = np.array(problem.tau_q if tau0 is None else _as_tau(tau0, "tau0"), dtype=float)
    taus = np.empty((n_steps + 1, 2))
    taus[0] = tau
    for t in range(n_steps):
        if method == "ngd":
            g = problem.gradient_direction(tau, kind=kind)
            if not np.any(g):
                taus[t + 1:] = tau
                break
        else:
            g = problem.gradient(tau, kind=kind, scale_exponent=scale_exponent)
        tau = tau - step * g
        taus[t + 1] = tau
    dist = np.linalg.norm(taus - problem.tau_star, axis=1)
    return OptimizationTrace(taus, dist, method, kind, float(step))


INDEX = PaperIndex(
    key="004 §4.1",
    claims="NCE",
    citation="B. Liu, PhD thesis, chapter 4.1: the landscape of noise-contrastive estimation",
    notes="docs/notes/seed_thesis_ch3_ch4.md",
    notation=(
        (r"\theta_*, \theta_q", "GaussianMeanNCE(theta_star=, theta_q=)"),
        (r"R = |\theta_* - \theta_q|", "GaussianMeanNCE.R"),
        (r"\tau = [b, c] \text{ (extended parameter)}", "tau (array of 2)"),
        (r"\tau_*, \tau_q", "GaussianMeanNCE.tau_star, .tau_q"),
        (r"L \text{ (NCE, eq. 4.1)}, L_{\exp} \text{ (eNCE, eq. 4.11)}",
         "kind='nce' / kind='ence'"),
        (r"\eta \text{ (step size)}", "step"),
    ),
    statements=(
        ("Definition 19 (eq. 4.1), NCE loss", GaussianMeanNCE.loss),
        ("Lemma 45, gradient", GaussianMeanNCE.gradient),
        ("Lemma 45 / eq. 4.12, Hessian", GaussianMeanNCE.hessian),
        ("Lemmas 46-48, condition number", GaussianMeanNCE.condition_number),
        ("Theorem 19, normalised gradient descent", run_gradient_method),
        ("Bhattacharyya coefficient (Lemma 49)", bhattacharyya_coefficient),
    ),
)
__doc__ = (__doc__ or "") + INDEX.render()
