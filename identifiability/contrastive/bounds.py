"""The quantities in the proofs of paper 004 §2.1, computed exactly where possible.

* :func:`r_function`, :func:`r_second_derivative` — the per-point excess loss
  :math:`r(\\delta) = \\big(p_* q\\delta / ((p_*(1+\\delta)+q)(p_*+q))\\big)^2` of eq. 2.23 as a
  function of :math:`u = p_*/q` and δ, and its closed-form second derivative
  :math:`r''(\\delta) = 2u^2(1 + u - 2u\\delta)/((1+u)(1+u+u\\delta)^4)` (bounded below by
  :math:`2/(1+c_q)^5` in eqs. 2.24–2.26).
* :func:`theorem2_chain`, :func:`theorem3_chain` — every side of the inequalities of
  Theorems 2 and 3 (eqs. 2.14, 2.22, 2.27, 2.30, 2.32) for **finite-state** kernels, where
  integrals are exact sums (the proofs use only pointwise algebra and normalisation).
* :func:`pair_sequence_beta` — the exact β-mixing coefficient of the pair sequence
  :math:`S_X` of a finite chain (Lemma 4).
* :func:`theorem3_factor_gaussian` — :math:`\\mathbb E_{\\pi,p_*}(p_* + q)^4/q^2`, the key factor
  of eqs. 2.32–2.33 at :math:`p = p_*`, in closed form for Gaussian kernels (or +inf).
* :func:`expected_norm_bounds` — eq. 2.2 as printed and corrected.

References
----------
004: eq. 2.2; Lemma 4 (eqs. 2.18–2.19); Theorem 2 and its proof
(eqs. 2.14, 2.22–2.28); Theorem 3 and its proof (eqs. 2.15, 2.30–2.34).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product

import numpy as np
import numpy.typing as npt
from scipy.special import logsumexp

from identifiability.contrastive.kernels import (
    FloatArray,
    GaussianKernel,
    _check_kernel,
    gaussian_exponential_integral,
)
from identifiability.contrastive.processes import FiniteStateChain, OrnsteinUhlenbeck
from seprank.core import check_array, check_instance, check_int, validated
from seprank.core.display import RichDisplay

__all__ = [
    "Theorem2Chain",
    "Theorem3Chain",
    "expected_norm_bounds",
    "pair_sequence_beta",
    "r_function",
    "r_second_derivative",
    "theorem2_chain",
    "theorem3_chain",
    "theorem3_factor_gaussian",
]


def r_function(u: npt.ArrayLike, delta: npt.ArrayLike) -> FloatArray:
    """:math:`r(\\delta) = (u\\delta/((u(1+\\delta)+1)(u+1)))^2`, :math:`u = p_*/q` (eq. 2.23).

    Parameters
    ----------
    u : array_like
        :math:`p_*/q`.
    delta : array_like
        δ.

    Returns
    -------
    numpy.ndarray
        r(δ), broadcast.
    """
    uu = check_array("u", u, min_size=0)
    dd = check_array("delta", delta, min_size=0)
    return np.asarray((uu * dd / ((uu * (1 + dd) + 1) * (uu + 1))) ** 2, dtype=float)


def r_second_derivative(u: npt.ArrayLike, delta: npt.ArrayLike) -> FloatArray:
    """:math:`r''(\\delta) = 2u^2(1 + u - 2u\\delta) / ((1+u)(1 + u + u\\delta)^4)`.

    Derived by differentiating :func:`r_function` twice (the claims re-derive it with sympy).
    Positive iff :math:`\\delta < (1+u)/(2u)`.

    Parameters
    ----------
    u : array_like
        :math:`p_*/q`.
    delta : array_like
        δ.

    Returns
    -------
    numpy.ndarray
        r''(δ), broadcast.

    Examples
    --------
    >>> float(r_second_derivative(1.0, 0.0))       # 2u^2/(1+u)^4 at u = 1
    0.125
    """
    uu = check_array("u", u, min_size=0)
    dd = check_array("delta", delta, min_size=0)
    return np.asarray(2 * uu**2 * (1 + uu - 2 * uu * dd) / ((1 + uu) * (1 + uu + uu * dd) ** 4),
                      dtype=float)


def _chain(name: str, P: npt.ArrayLike) -> FiniteStateChain:
    try:
        return FiniteStateChain(check_array(name, P, ndim=2))
    except ValueError as err:
        raise ValueError(f"{name}: {err}") from err


def _finite_inputs(P_star: npt.ArrayLike, P_hat: npt.ArrayLike, q: npt.ArrayLike
                   ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    chain = _chain("P_star", P_star)
    Ph = _chain("P_hat", P_hat).P
    n = chain.n_states
    qq = check_array("q", q, finite=False)
    if qq.shape == (n,):
        Q = np.broadcast_to(qq, (n, n)).copy()
    elif qq.shape == (n, n):
        Q = qq.copy()
    else:
        raise ValueError(f"q must have shape ({n},) (global) or ({n}, {n}) (conditional rows)")
    if np.any(~np.isfinite(Q)) or np.any(Q < 0) or np.max(np.abs(Q.sum(axis=1) - 1)) > 1e-10:
        raise ValueError("q must be a probability vector (or row-stochastic matrix)")
    if np.any((Q == 0) & (chain.P > 0)):
        raise ValueError("q has zero probability where P_* has mass; Lemma 1 and eq. 2.12 need "
                         "q > 0 on the support of p_* (eq. 2.4)")
    return chain.P, Ph, Q, chain.stationary


@dataclass(frozen=True, repr=False)
class Theorem2Chain(RichDisplay):
    """Both sides of Theorem 2 and of its intermediate steps, for finite-state kernels.

    ``excess`` is
    :math:`\\sum_z\\pi(z)\\sum_{z'}\\tfrac{p_*+q}2(r_q(p)-r_q(p_*))^2 = 2\\epsilon_{tr}`
    (eq. 2.27's left side), ``bound`` the right side of eq. 2.14,
    :math:`2(1+c_q)^5\\epsilon_{tr}/\\Delta_{\\min}^2`.

    Parameters
    ----------
    kl : float
        :math:`\\mathbb E_\\pi \\mathrm{KL}(p_*\\|p)`, the left side of eq. 2.14.
    excess : float
        :math:`2\\epsilon_{tr}` (eq. 2.27's left side).
    c_q : float
        The constant :math:`c_q` (the largest ratio :math:`p_*/q`).
    delta_min, delta_max : float
        The extreme ratios :math:`\\Delta = p/p_*` over the support.
    mean_delta_sq : float
        The mean squared deviation of the ratio.
    bound : float
        The right side of eq. 2.14.
    kl_step_bound, excess_step_bound : float
        The intermediate steps of the proof.
    """

    kl: float
    excess: float
    c_q: float
    delta_min: float
    delta_max: float
    mean_delta_sq: float          # E_{pi, p_*} delta^2
    bound: float                  # eq. 2.14 right side
    kl_step_bound: float          # eq. 2.22: E delta^2 / (2 Delta_min^2)
    excess_step_bound: float      # eq. 2.27: (r_min / 4) E delta^2  (must be <= excess)

    @property
    def holds(self) -> bool:
        return self.kl <= self.bound * (1 + 1e-12)


def theorem2_chain(P_star: npt.ArrayLike, P_hat: npt.ArrayLike, q: npt.ArrayLike
                   ) -> Theorem2Chain:
    """Evaluate Theorem 2 exactly on finite-state kernels (all entries of P_* positive).

    Parameters
    ----------
    P_star : array_like
        The true kernel (row-stochastic, positive entries).
    P_hat : array_like
        The estimate (row-stochastic).
    q : array_like
        The contrast law or kernel.

    Returns
    -------
    Theorem2Chain
        Both sides and the intermediate steps.

    Examples
    --------
    >>> P = np.array([[0.6, 0.4], [0.3, 0.7]]); Ph = np.array([[0.62, 0.38], [0.3, 0.7]])
    >>> t = theorem2_chain(P, Ph, [0.5, 0.5])
    >>> t.holds and t.kl <= t.kl_step_bound and t.excess_step_bound <= t.excess
    True
    """
    P, Ph, Q, pi = _finite_inputs(P_star, P_hat, q)
    if np.any(P <= 0) or np.any(Ph <= 0):
        raise ValueError("Theorem 2 needs p_* and p positive everywhere (finite c_q, Delta_min)")
    ratio = Ph / P
    delta = ratio - 1
    u = P / Q
    c_q = float(max(u.max(), (1 / u).max()))
    kl = float(pi @ np.sum(P * np.log(P / Ph), axis=1))
    dr = Ph / (Ph + Q) - P / (P + Q)
    excess = float(pi @ np.sum(0.5 * (P + Q) * dr**2, axis=1))
    e_d2 = float(pi @ np.sum(P * delta**2, axis=1))
    dmin, dmax = float(ratio.min()), float(ratio.max())
    r_min = 2 / (1 + c_q) ** 5
    return Theorem2Chain(kl, excess, c_q, dmin, dmax, e_d2,
                         bound=(1 + c_q) ** 5 * excess / dmin**2,
                         kl_step_bound=e_d2 / (2 * dmin**2),
                         excess_step_bound=r_min / 4 * e_d2)


@dataclass(frozen=True, repr=False)
class Theorem3Chain(RichDisplay):
    """Sides of Theorem 3's chain (eqs. 2.30–2.32) for finite-state kernels.

    ``abs_error`` = :math:`\\mathbb E_{\\pi,p_*}|p - p_*|`; ``mean_dr_sq`` =
    :math:`\\mathbb E_{\\pi,p_*}(r_q(p) - r_q(p_*))^2` (≤ 2·excess by eq. 2.30);
    ``factor`` = :math:`\\mathbb E_{\\pi,p_*}(\\max\\{p,p_*\\}+q)^4/q^2`;
    ``cauchy_schwarz_bound`` = :math:`\\sqrt{\\text{mean\\_dr\\_sq}\\cdot\\text{factor}}`
    (eq. 2.32); ``printed_bound`` = :math:`\\sqrt{2\\epsilon_{tr}}\\sqrt{\\text{factor}}` with
    :math:`2\\epsilon_{tr}` = excess (eq. 2.15 without its O(·));
    ``proof_bound`` = :math:`2\\sqrt{\\epsilon_{tr}}\\sqrt{\\text{factor}}` (what eq. 2.30
    actually supports).

    Parameters
    ----------
    abs_error : float
        :math:`\\mathbb E_{\\pi,p_*}|p - p_*|`.
    excess : float
        :math:`2\\epsilon_{tr}`.
    mean_dr_sq : float
        :math:`\\mathbb E_{\\pi,p_*}(r_q(p) - r_q(p_*))^2`.
    factor : float
        :math:`\\mathbb E_{\\pi,p_*}(\\max\\{p,p_*\\}+q)^4/q^2`.
    cauchy_schwarz_bound : float
        Eq. 2.32.
    printed_bound : float
        Eq. 2.15 without its O(·).
    proof_bound : float
        What eq. 2.30 supports.
    """

    abs_error: float
    excess: float
    mean_dr_sq: float
    factor: float
    cauchy_schwarz_bound: float
    printed_bound: float
    proof_bound: float


def theorem3_chain(P_star: npt.ArrayLike, P_hat: npt.ArrayLike, q: npt.ArrayLike
                   ) -> Theorem3Chain:
    """Evaluate Theorem 3's inequality chain exactly on finite-state kernels.

    Parameters
    ----------
    P_star : array_like
        The true kernel (row-stochastic).
    P_hat : array_like
        The estimate (row-stochastic).
    q : array_like
        The contrast law or kernel.

    Returns
    -------
    Theorem3Chain
        The sides of the chain.

    Examples
    --------
    >>> P = np.array([[0.6, 0.4], [0.3, 0.7]]); Ph = np.array([[0.9, 0.1], [0.5, 0.5]])
    >>> t = theorem3_chain(P, Ph, [0.5, 0.5])
    >>> t.abs_error <= t.cauchy_schwarz_bound <= t.proof_bound
    True
    """
    P, Ph, Q, pi = _finite_inputs(P_star, P_hat, q)
    abs_err = float(pi @ np.sum(P * np.abs(Ph - P), axis=1))
    dr = Ph / (Ph + Q) - P / (P + Q)
    excess = float(pi @ np.sum(0.5 * (P + Q) * dr**2, axis=1))
    e_dr2 = float(pi @ np.sum(P * dr**2, axis=1))
    factor = float(pi @ np.sum(P * (np.maximum(P, Ph) + Q) ** 4 / Q**2, axis=1))
    return Theorem3Chain(abs_err, excess, e_dr2, factor,
                         cauchy_schwarz_bound=math.sqrt(e_dr2 * factor),
                         printed_bound=math.sqrt(excess * factor),
                         proof_bound=2 * math.sqrt(excess / 2 * factor))


def pair_sequence_beta(P: npt.ArrayLike, q: npt.ArrayLike, k: int) -> float:
    """Exact β-mixing coefficient at lag k (pairs) of the pair sequence :math:`S_X` of §2.1.1.2.

    The pair sequence is Markov on :math:`(z, z')`.  Given the pair, the hidden label is
    positive with probability :math:`w = p(z,z')/(p(z,z') + q(z'))`, in which case the next
    first coordinate, 2η later, is one step after :math:`z'`.  So the first coordinate k pairs
    later has law :math:`w P^{2k-1}(z',\\cdot) + (1-w) P^{2k}(z,\\cdot)`, the second coordinate's
    conditional law is the same as under stationarity, and

    .. math::

        \\beta_{S_X}(k) = \\sum_{z,z'} \\pi(z)\\tfrac{p(z,z')+q(z')}{2}
        \\mathrm{TV}\\big(wP^{2k-1}(z',\\cdot) + (1-w)P^{2k}(z,\\cdot),\\,\\pi\\big).

    (Lemma 4's proof, eq. 2.18, drops the dependence on z' and so claims
    :math:`\\beta_{S_X}(k) = \\beta_{L_{\\tilde X}}(2k)`.)  Averaging the mixture over z' given z
    gives back :math:`P^{2k}(z,\\cdot)`, so by convexity of TV
    :math:`\\beta_{L}(2k) \\le \\beta_{S_X}(k) \\le \\tfrac12(\\beta_L(2k-1) + \\beta_L(2k))`; the
    left inequality can be an equality (e.g. for some two-state chains) but is strict in general.

    Parameters
    ----------
    P : array_like
        The row-stochastic transition matrix of the chain.
    q : array_like
        The contrast law (a probability vector).
    k : int
        The lag in pairs (>= 1).

    Returns
    -------
    float
        :math:`\\beta_{S_X}(k)`.

    Examples
    --------
    >>> P = np.array([[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.3, 0.3, 0.4]])
    >>> b_pairs = pair_sequence_beta(P, [1 / 3, 1 / 3, 1 / 3], 1)
    >>> b_points = FiniteStateChain(P).beta_mixing(2)
    >>> bool(b_pairs > b_points)                  # Lemma 4's identity fails
    True
    """
    chain = _chain("P", P)
    Pm, pi, n = chain.P, chain.stationary, chain.n_states
    qq = check_array("q", q)
    k = check_int("k", k)
    if qq.shape != (n,) or np.any(qq < 0) or abs(qq.sum() - 1) > 1e-10:
        raise ValueError("q must be a probability vector over the states")
    if np.any((qq[None, :] == 0) & (Pm > 0)):
        raise ValueError("q has zero probability where P has mass")
    P_odd = chain.kernel(2 * k - 1)
    P_even = chain.kernel(2 * k)
    beta = 0.0
    for z, zp in product(range(n), range(n)):
        mass = pi[z] * 0.5 * (Pm[z, zp] + qq[zp])
        if mass == 0:
            continue
        w = Pm[z, zp] / (Pm[z, zp] + qq[zp])
        law = w * P_odd[zp] + (1 - w) * P_even[z]
        beta += mass * 0.5 * float(np.abs(law - pi).sum())
    return beta


def _log_gaussian_factor_term(p_star: GaussianKernel, q: GaussianKernel,
                              stationary: GaussianKernel, a: float, b: float) -> float:
    """log ∫∫ π(z) p_*(z'|z)^a q(z'|z)^b dz dz' (closed form or +inf), x = (z, z')."""
    d = p_star.dim
    Qm = np.zeros((2 * d, 2 * d))
    lin = np.zeros(2 * d)
    const = 0.0
    E = np.hstack([np.eye(d), np.zeros((d, d))])
    terms = [(1.0, E, stationary), (a, np.hstack([-p_star.M, np.eye(d)]), p_star),
             (b, np.hstack([-q.M, np.eye(d)]), q)]
    for power, G, k in terms:
        if power == 0:
            continue
        Pk = k.precision
        Qm += power * G.T @ Pk @ G
        lin += power * G.T @ Pk @ k.c
        const += power * (-0.5 * float(k.c @ Pk @ k.c) - k.log_norm_const)
    return gaussian_exponential_integral(Qm, lin, const)


@validated(p_star=_check_kernel, q=_check_kernel, stationary=_check_kernel)
def theorem3_factor_gaussian(p_star: GaussianKernel, q: GaussianKernel,
                             stationary: GaussianKernel) -> float:
    """:math:`\\mathbb E_{z\\sim\\pi,z'\\sim p_*(\\cdot|z)}(p_*+q)^4/q^2` in closed form (+inf if
    it diverges).

    This is the factor :math:`\\mathbb E(\\max\\{p,p_*\\}+q)^4/q^2` of eqs. 2.32–2.33 evaluated
    at the population optimum :math:`p = p_*` (for any other p it can only be larger).
    Expanding, it is :math:`\\sum_{k=0}^4\\binom4k\\iint\\pi(z)p_*^{k+1}q^{2-k}`, a sum of
    Gaussian-exponential integrals over :math:`(z,z')\\in\\mathbb R^{2d}`.

    Parameters
    ----------
    p_star : GaussianKernel
        The true kernel.
    q : GaussianKernel
        The contrast.
    stationary : GaussianKernel
        The stationary law π (a global Gaussian).

    Returns
    -------
    float
        The factor, or ``inf``.

    Examples
    --------
    >>> from identifiability.contrastive.processes import OrnsteinUhlenbeck
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> theorem3_factor_gaussian(ou.kernel(0.1), ou.stationary, ou.stationary)   # q = pi
    inf
    >>> math.isfinite(theorem3_factor_gaussian(ou.kernel(0.1), GaussianKernel.local(1, 0.1),
    ...                                        ou.stationary))
    True
    """
    logs = [math.log(math.comb(4, k)) + _log_gaussian_factor_term(p_star, q, stationary,
                                                                   k + 1.0, 2.0 - k)
            for k in range(5)]
    if any(math.isinf(v) for v in logs):
        return math.inf
    return float(np.exp(logsumexp(logs)))


def expected_norm_bounds(process: OrnsteinUhlenbeck) -> dict[str, float]:
    """:math:`B = \\mathbb E_\\pi\\|x\\|` and eq. 2.2's bound as printed and corrected.

    Printed: :math:`B \\le \\pi(z_*)\\sqrt{d/\\rho}`.  Corrected (the Gaussian integral
    :math:`\\int e^{-\\rho\\|z\\|^2/2}dz = (2\\pi/\\rho)^{d/2}` restored):
    :math:`B \\le \\pi(z_*)(2\\pi/\\rho)^{d/2}\\sqrt{d/\\rho}`.

    Parameters
    ----------
    process : OrnsteinUhlenbeck
        The process.

    Returns
    -------
    dict of str to float
        B, and the printed and corrected bounds of eq. 2.2.

    Examples
    --------
    >>> b = expected_norm_bounds(OrnsteinUhlenbeck(1.0))
    >>> round(b["B"], 3), round(b["printed"], 3), round(b["corrected"], 3)
    (0.798, 0.399, 1.0)
    """
    check_instance("process", process, OrnsteinUhlenbeck, expected="an OrnsteinUhlenbeck",
                   hint="B = E|x| is in closed form for the OU process only")
    d, rho = process.dim, process.rho
    pi0 = process.stationary_density_at_mode()
    printed = pi0 * math.sqrt(d / rho)
    return {"B": process.expected_norm(), "printed": printed,
            "corrected": printed * (2 * math.pi / rho) ** (d / 2)}
