r"""Corollaries 1 and 2 of paper 003: how much wider a shallower network must be.

* :func:`corollary1_min_widening` -- Corollary 1 (§4.1): matching a deep network in the
  depth-efficient regime needs a double-exponential widening;
* :func:`corollary2_shallow` -- Corollary 2 (eq. 9) made concrete: the smallest width factor
  :math:`3^{\beta_2}` whose certified (Lemma 6) separation rank exceeds the deep network's
  Theorem-2 upper bound.

Hypotheses outside which a corollary says nothing are listed in the result's ``violated``.

References
----------
.. [1] 003 (Levine et al. 2020): Corollaries 1-2 (§4, eq. 9), Theorems 1-3, App. B.2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from seprank.core.log3 import log3, log3_real, to_mpf
from seprank.core.validation import check_float, check_int
from seprank.d2w.bounds import keyword_only, mixing_units, network_shape, regime
from seprank.d2w.theorems import lemma6_lower_bound, theorem1_lower, theorem2_upper

__all__ = [
    "Corollary1Result",
    "Corollary2Result",
    "corollary1_min_widening",
    "corollary2_shallow",
]


@dataclass(frozen=True)
class Corollary1Result:
    r"""Minimal widening for a depth-:math:`L/d` network to reach the deep lower bound.

    ``log3_widening`` is :math:`\log_3 w_{\min}` where :math:`w_{\min} d_x` is the smallest
    width whose Theorem-3 upper bound :math:`(w d_x + H)^{C(L/d)}` reaches the deep network's
    Theorem-1 lower bound; ``log3_required_width`` is :math:`\log_3(w_{\min} d_x + H)`.

    Attributes
    ----------
    depth_deep, width_deep : int
        L and :math:`d_x` of the deep network.
    depth_ratio : int
        d: the shallow network has depth L / d.
    shallow_depth : int
        L / d.
    log3_deep_lower : mpmath number
        :math:`\log_3` of the deep network's Theorem-1 lower bound.
    log3_required_width : mpmath number
        :math:`\log_3(w_{\min} d_x + H)`.
    log3_widening : mpmath number
        :math:`\log_3 w_{\min}`.
    violated : tuple of str
        Hypotheses this call does not satisfy.
    """

    depth_deep: int
    width_deep: int
    depth_ratio: int
    shallow_depth: int
    log3_deep_lower: Any
    log3_required_width: Any
    log3_widening: Any
    violated: tuple[str, ...]

    @property
    def widening(self) -> float:
        try:
            return float(3 ** float(self.log3_widening))
        except OverflowError:
            return math.inf


@keyword_only
def corollary1_min_widening(*, width_deep: int, depth_deep: int, depth_ratio: int,
                            heads: int = 1) -> Corollary1Result:
    r"""Corollary 1: a network of depth :math:`L^{deep}/d` and width :math:`w\,d_x^{deep}`
    can match a random deep network (:math:`d_x^{deep} > 3^{L^{deep}}`) only if its Theorem-3
    upper bound reaches the deep Theorem-1 lower bound:

    .. math::  C(L/d)\,\log_3(w d_x + H) \ge 3^{L-2}(\log_3(d_x - H) + a),

    which forces :math:`\log w \sim 3^{L(1-1/d)}` -- double-exponential (printed as
    :math:`w \propto \exp(\exp(d))`; at fixed shallow depth, :math:`L = d L^{shallow}`).
    Outside the hypotheses (regime, integer L/d) the result lists them in ``violated``.

    Parameters
    ----------
    width_deep : int
        :math:`d_x` of the deep network.
    depth_deep : int
        L of the deep network.
    depth_ratio : int
        d: the shallow network has depth L / d.
    heads : int, default 1
        H, heads per layer (both networks).

    Returns
    -------
    Corollary1Result
        The minimal widening and the logarithms it rests on.

    References
    ----------
    .. [1] 003, Corollary 1 (§4.1), Theorems 1 and 3.

    Examples
    --------
    >>> r = corollary1_min_widening(width_deep=1000, depth_deep=6, depth_ratio=2)
    >>> r.shallow_depth, round(float(r.log3_deep_lower), 1), math.ceil(r.widening)
    (3, 134.1, 84)
    """
    d_x, L, H = network_shape(check_int("width_deep d_x", width_deep),
                              check_int("depth_deep L", depth_deep), heads)
    d = check_int("depth_ratio d", depth_ratio, 2)
    violated = []
    if regime(d_x, L) != "depth_efficient":
        violated.append(f"d_x^deep > 3^L^deep fails: {d_x} <= {3**L}")
    if L % d:
        violated.append(f"L^deep / d = {L}/{d} is not an integer (shallow depth rounded down)")
    L_s = max(1, L // d)
    lower = theorem1_lower(width=d_x, depth=L, heads=H).log3
    need = lower / mixing_units(L_s)          # log3(w d_x + H) >= need
    w_times = 3**need - H if need < 10**6 else None
    if w_times is not None and w_times > 0:
        log3_w = log3_real(w_times) - log3(d_x)
    else:  # 3^need is astronomically larger than H
        log3_w = need - log3(d_x)
    return Corollary1Result(L, d_x, d, L_s, lower, need, log3_w, tuple(violated))


@dataclass(frozen=True)
class Corollary2Result:
    """A shallower, wider network whose certified sep exceeds the deep Theorem-2 upper bound.

    Attributes
    ----------
    depth_deep, width_deep, heads : int
        L, :math:`d_x` and H of the deep network.
    beta1 : mpmath number
        :math:`\\beta_1 = \\log_3 d_x / L`.
    beta2 : fractions.Fraction
        The smallest :math:`\\beta_2` found (a multiple of the step).
    shallow_depth, shallow_width : int
        Depth :math:`\\lceil \\beta_1 L + \\beta_2 \\rceil` and width of the shallower network.
    log3_shallow_certified : mpmath number
        :math:`\\log_3` of its certified separation rank (Lemma 6).
    log3_deep_upper : mpmath number
        :math:`\\log_3` of the deep network's Theorem-2 upper bound.
    violated : tuple of str
        Hypotheses this call does not satisfy.
    """

    depth_deep: int
    width_deep: int
    heads: int
    beta1: Any
    beta2: Fraction
    shallow_depth: int
    shallow_width: int
    log3_shallow_certified: Any
    log3_deep_upper: Any
    violated: tuple[str, ...]


@keyword_only
def corollary2_shallow(*, width_deep: int, depth_deep: int, heads: int = 1,
                       step: Fraction | int = Fraction(1, 2),
                       max_beta2: int = 64) -> Corollary2Result:
    r"""Corollary 2 (eq. 9) made concrete: the smallest :math:`\beta_2` (a multiple of
    ``step``) such that the network of depth :math:`\lceil \beta_1 L + \beta_2 \rceil` and width
    :math:`\approx 3^{\beta_2} d_x` (rounded up to a multiple of H with odd :math:`d_a`, as the
    witness needs) has a *certified* separation rank (Lemma 6, :math:`(\!(d\ \lambda)\!)`)
    above the deep network's Theorem-2 upper bound; :math:`\beta_1 = \log_3 d_x / L`.

    The paper only states :math:`\beta_2 = O(\log H \log d_x \log L)`; the rounding choices
    are ours (notes §7.13).

    Parameters
    ----------
    width_deep : int
        :math:`d_x` of the deep network.
    depth_deep : int
        L of the deep network.
    heads : int, default 1
        H, heads per layer.
    step : fractions.Fraction or int, keyword-only
        The grid of :math:`\beta_2` searched (default 1/2).
    max_beta2 : int, keyword-only
        Give up above this :math:`\beta_2` (default 64).

    Returns
    -------
    Corollary2Result
        The shallower, wider network found and the two bounds compared.

    References
    ----------
    .. [1] 003, Corollary 2 (eq. 9), Theorem 2, App. B.2.

    Examples
    --------
    >>> r = corollary2_shallow(width_deep=512, depth_deep=12, heads=2)
    >>> float(r.beta2), r.shallow_depth, r.shallow_width
    (3.5, 10, 23946)
    """
    d_x, L, H = network_shape(check_int("width_deep d_x", width_deep),
                              check_int("depth_deep L", depth_deep), heads)
    check_float("step", step, positive=True)
    step = Fraction(step)
    max_beta2 = check_int("max_beta2", max_beta2)
    violated = []
    if regime(d_x, L) != "depth_inefficient":
        violated.append(f"L^deep > log3(d_x^deep) fails: 3^{L} = {3**L} vs d_x = {d_x}")
    beta1 = log3(d_x) / L
    upper = theorem2_upper(width=d_x, depth=L, heads=H).log3
    beta2 = step
    while beta2 <= max_beta2:
        L_s = math.ceil(beta1 * L + to_mpf(beta2))
        target = 3 ** to_mpf(beta2) * d_x
        width = math.ceil(target / H) * H
        while (width // H) % 2 == 0 or width // H < 3:
            width += H
        cert = lemma6_lower_bound(width=width, depth=L_s, heads=H)
        if cert.in_hypotheses and cert.log3 > upper:
            return Corollary2Result(L, d_x, H, beta1, beta2, L_s, width, cert.log3, upper,
                                    tuple(violated))
        beta2 += step
    raise ValueError(f"no beta2 <= {max_beta2} found (step {step})")
