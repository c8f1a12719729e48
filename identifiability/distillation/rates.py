r"""The sample-complexity statements of 004 §4.2.2.2 / §4.2.6 as formulas, and the experiments'
step/sample arithmetic.

Every O/Θ/Ω is evaluated with constant 1 and natural logarithms, so that two versions of a
statement can be compared as functions of (d, k, ε, δ): their *ratio* is what a Θ̃ statement
constrains (polylogarithmic in d, k, or not).  :math:`\zeta_i` is Majority's Fourier coefficient
(:mod:`identifiability.distillation.fourier`).

* Lemma 65 / Corollary 5 (teacher): first-stage batch :math:`B_1` printed with
  :math:`|\zeta_{k-1}|^{2}`; since :math:`\tau_g = O(|\zeta_{k-1}|/k)` and
  :math:`B_1 = \tilde\Omega(\tau_g^{-2})` the exponent must be -2, which is also what their own
  :math:`= \Theta(d^{k-1}k^2\log)` needs (``exponent=``).  Second stage
  :math:`T_2 = md^2k^3/\varepsilon^2` with :math:`m = 2^k\log(k/\delta)`.
* Theorem 22 (informal) and Theorem 23 (formal), progressive and one-shot.
* Lemma 66 (Edelman et al. 2023, Prop. 3): no learning before
  :math:`T \le \tfrac12\binom dk\delta\tau_g^2/m` steps.
* :func:`samples_for_steps` -- steps x batch, e.g. 8000 x 512 = 4.096e6 ("4 x 10^6").

References
----------
004 §4.2.2.2 Theorem 22; §4.2.6 Lemma 65, Corollary 5, Theorem 23 and its proof, Lemma 66;
§4.2.8.1.1 and §4.2.8.5 (steps and samples).
"""

from __future__ import annotations

import math
from typing import Literal

from identifiability.distillation.fourier import (
    check_odd_dimension,
    log10_fraction,
    majority_coefficient,
)
from seprank.core.validation import check_bool, check_float, check_int

__all__ = [
    "lemma65_first_stage_batch",
    "lemma65_second_stage_steps",
    "lemma65_stated_total",
    "lemma66_step_bound",
    "samples_for_steps",
    "theorem22_progressive",
    "theorem22_student_width",
    "theorem23_one_shot",
    "theorem23_progressive",
    "theorem23_student_width",
]


#: Largest k for which 2^k is a float (2^1024 overflows).
MAX_FLOAT_EXPONENT = 1023


def _check_positive(name: str, value: float, upper: float | None = None) -> float:
    v = check_float(name, value, positive=True)
    if upper is not None and not v < upper:
        raise ValueError(f"{name} must be > 0 and < {upper}, got {value!r}")
    return v


def _pow2(k: int) -> int:
    """:math:`2^k`, refused (naming k) where a rate holding it would overflow a float."""
    if k > MAX_FLOAT_EXPONENT:
        raise ValueError(f"k = {k} makes 2^k overflow a float (k <= {MAX_FLOAT_EXPONENT}); "
                         "compare such rates through their logarithms")
    return int(2**k)


def lemma65_first_stage_batch(d: int, k: int, eps: float, *, exponent: Literal[2, -2] = -2,
                              extra_d_power: float = 0.0) -> float:
    r""":math:`B_1 = |\zeta_{k-1}|^{\text{exponent}}k^2d^{\text{extra}}\log(kd/\varepsilon)`.

    ``exponent=2`` is Lemma 65 as printed, -2 the corrected one; ``extra_d_power=10/3`` gives
    Corollary 5.

    Parameters
    ----------
    d, k : int
        The parity.
    eps : float
        ε.
    exponent : {2, -2}, keyword-only
        Of :math:`|\zeta_{k-1}|` (default -2).
    extra_d_power : float, keyword-only
        Extra power of d (default 0).

    Returns
    -------
    float
        :math:`B_1`.

    Examples
    --------
    >>> lemma65_first_stage_batch(101, 4, 0.1, exponent=2) < 1     # printed: below one sample
    True
    >>> r = lemma65_first_stage_batch(101, 4, 0.1) / (101**3 * 16 * math.log(4040))
    >>> round(r, 2)                     # corrected: zeta_3^-2 ~ (pi/2) d^3, the stated d^(k-1)
    1.5
    """
    d = check_odd_dimension(d)
    k = check_int("k", k, minimum=2, maximum=d - 1)
    eps = _check_positive("eps", eps, 1.0)
    if isinstance(exponent, bool) or exponent not in (2, -2):
        raise ValueError(f"exponent must be 2 (printed) or -2 (corrected), got {exponent!r}")
    extra_d_power = check_float("extra_d_power", extra_d_power)
    zeta = majority_coefficient(d, k - 1, method="closed_form")
    log_b = (exponent * log10_fraction(zeta) + 2 * math.log10(k) + extra_d_power * math.log10(d)
             + math.log10(math.log(k * d / eps)))
    return float(10**log_b)


def lemma65_second_stage_steps(d: int, k: int, eps: float, delta: float, *,
                               width: float | None = None) -> float:
    """:math:`T_2 = md^2k^3/\\varepsilon^2` with :math:`m = 2^k\\log(k/\\delta)` by default.

    Parameters
    ----------
    d, k : int
        The parity.
    eps : float
        ε.
    delta : float
        δ.
    width : float, optional, keyword-only
        m (default :math:`2^k\\log(k/\\delta)`).

    Returns
    -------
    float
        :math:`T_2`.

    Examples
    --------
    >>> lemma65_second_stage_steps(100, 4, 0.5, 0.1) == 16 * math.log(40) * 100**2 * 64 / 0.25
    True
    """
    d = check_int("d", d, minimum=3)
    k = check_int("k", k, minimum=2, maximum=d - 1)
    eps = _check_positive("eps", eps, 1.0)
    delta = _check_positive("delta", delta, 1.0)
    m = _pow2(k) * math.log(k / delta) if width is None else _check_positive("width", width)
    return m * d**2 * k**3 / eps**2


def lemma65_stated_total(d: int, k: int, eps: float, delta: float, *,
                         corollary5: bool = False) -> float:
    r"""Lemma 65's stated :math:`\Theta(d^{k-1}k^2\log(dk/\varepsilon) +
    2^kd^2k^4\varepsilon^{-2}\log(k/\delta))` (Corollary 5: :math:`d^{k+7/3}` first term).

    Parameters
    ----------
    d, k : int
        The parity.
    eps : float
        ε.
    delta : float
        δ.
    corollary5 : bool, keyword-only
        Corollary 5's first term (default False).

    Returns
    -------
    float
        The stated total.

    Examples
    --------
    >>> d, k, eps, delta = 10, 2, 0.5, 0.1
    >>> by_hand = d**(k - 1) * k**2 * math.log(d * k / eps) \
    ...     + 2**k * d**2 * k**4 * math.log(k / delta) / eps**2
    >>> bool(math.isclose(lemma65_stated_total(d, k, eps, delta), by_hand))
    True
    >>> lemma65_stated_total(d, k, eps, delta, corollary5=True) > by_hand   # d^(k + 7/3)
    True
    """
    d = check_int("d", d, minimum=3)
    k = check_int("k", k, minimum=2, maximum=d - 1)
    eps = _check_positive("eps", eps, 1.0)
    delta = _check_positive("delta", delta, 1.0)
    corollary5 = check_bool("corollary5", corollary5)
    first = d ** (k + 7 / 3 if corollary5 else k - 1) * k**2 * math.log(d * k / eps)
    return first + _pow2(k) * d**2 * k**4 * math.log(k / delta) / eps**2


def theorem22_student_width(k: int) -> float:
    """Theorem 22 (informal): student size :math:`2^k` (up to polylog factors).

    Parameters
    ----------
    k : int
        The support size.

    Returns
    -------
    float
        :math:`2^k`.

    Examples
    --------
    >>> theorem22_student_width(6), theorem23_student_width(6)     # 2^k vs 2^k k
    (64.0, 384.0)
    """
    return float(_pow2(check_int("k", k, minimum=1)))


def theorem23_student_width(k: int) -> float:
    """Theorem 23 (formal): student size :math:`2^kk` (up to polylog factors).

    Parameters
    ----------
    k : int
        The support size.

    Returns
    -------
    float
        :math:`2^k k`.

    Examples
    --------
    >>> [theorem23_student_width(k) / theorem22_student_width(k) for k in (1, 2, 6)]   # k
    [1.0, 2.0, 6.0]
    """
    k = check_int("k", k, minimum=1)
    return float(_pow2(k) * k)


def theorem22_progressive(d: int, k: int, eps: float) -> float:
    r"""Theorem 22 (informal): :math:`2^kd^2\varepsilon^{-2} + k^3` samples.

    Parameters
    ----------
    d, k : int
        The parity.
    eps : float
        ε.

    Returns
    -------
    float
        The sample count.

    Examples
    --------
    >>> round(theorem22_progressive(100, 6, 0.1), 6)   # 2^6 100^2 / 0.1^2 + 6^3
    64000216.0
    """
    d = check_int("d", d, minimum=2)
    k = check_int("k", k, minimum=1, maximum=d - 1)
    eps = _check_positive("eps", eps, 1.0)
    return _pow2(k) * d**2 / eps**2 + k**3


def theorem23_progressive(d: int, k: int, eps: float, delta: float) -> float:
    r"""Theorem 23 (formal): :math:`k^2\log(d\tilde m/\delta) +
    2^kd^2k^4\varepsilon^{-2}\log(k/\delta)` with :math:`\tilde m = 2^kk`.

    Parameters
    ----------
    d, k : int
        The parity.
    eps : float
        ε.
    delta : float
        δ.

    Returns
    -------
    float
        The sample count.

    Examples
    --------
    >>> r = theorem23_progressive(100, 6, 0.1, 0.1) / theorem22_progressive(100, 6, 0.1)
    >>> r > 6**4                                  # k^4 log(k/delta): not a polylog factor
    True
    """
    d = check_int("d", d, minimum=2)
    k = check_int("k", k, minimum=1, maximum=d - 1)
    eps = _check_positive("eps", eps, 1.0)
    delta = _check_positive("delta", delta, 1.0)
    width = theorem23_student_width(k)
    return (k**2 * math.log(d * width / delta)
            + _pow2(k) * d**2 * k**4 * math.log(k / delta) / eps**2)


def theorem23_one_shot(d: int, k: int, c: float, *, per_width: bool = False) -> float:
    r"""Theorem 23's one-shot lower bound :math:`d^{\min(2c, k-1)}` (teacher loss
    :math:`d^{-c}`); ``per_width=True`` divides by :math:`\tilde m = 2^kk` as the end of its
    proof does (:math:`\Omega(d^{\min(2c,k-1)}/\tilde m)`).

    Parameters
    ----------
    d, k : int
        The parity.
    c : float
        The teacher loss exponent.
    per_width : bool, keyword-only
        Divide by :math:`\tilde m` (default False).

    Returns
    -------
    float
        The lower bound.

    Examples
    --------
    >>> theorem23_one_shot(100, 6, 1.0), theorem23_one_shot(100, 6, 3.0)   # d^min(2c, k-1)
    (10000.0, 10000000000.0)
    >>> theorem23_one_shot(100, 6, 1.0, per_width=True) == 10000 / (2**6 * 6)
    True
    """
    d = check_int("d", d, minimum=2)
    k = check_int("k", k, minimum=1, maximum=d - 1)
    c = _check_positive("c", c)
    per_width = check_bool("per_width", per_width)
    value = float(d) ** min(2 * c, k - 1)
    return value / theorem23_student_width(k) if per_width else value


def lemma66_step_bound(d: int, k: int, delta: float, tau_g: float, width: int) -> float:
    r"""Lemma 66: for :math:`T \le \tfrac12\binom dk\delta\tau_g^2/m` steps some (d, k)-parity
    keeps loss :math:`\ge 1 - \tau_g` (w.p. :math:`1-\delta`).

    Parameters
    ----------
    d, k : int
        The parity.
    delta : float
        δ.
    tau_g : float
        :math:`\tau_g`.
    width : int
        m.

    Returns
    -------
    float
        The step bound.

    Examples
    --------
    >>> round(lemma66_step_bound(100, 6, 0.1, 0.1, 100))     # the thesis' width-100 student
    5960
    """
    d = check_int("d", d, minimum=2)
    k = check_int("k", k, minimum=1, maximum=d)
    delta = _check_positive("delta", delta, 1.0)
    tau_g = _check_positive("tau_g", tau_g)
    width = check_int("width", width, minimum=1)
    j = min(k, d - k)
    if j > 10**5:   # an exact binomial of that size is costly; its logarithm is enough
        log_value = (math.lgamma(d + 1) - math.lgamma(k + 1) - math.lgamma(d - k + 1)
                     + math.log(0.5 * delta * tau_g**2 / width))
        if log_value > 709:
            raise ValueError(f"the bound for d = {d}, k = {k} is about e^{log_value:.4g}, beyond "
                             "the float range; lower d or k")
        return math.exp(log_value)
    try:
        return 0.5 * math.comb(d, k) * delta * tau_g**2 / width
    except OverflowError:
        raise ValueError(f"the bound for d = {d}, k = {k} (C(d, k) of "
                         f"{math.comb(d, k).bit_length()} bits) is beyond the float range; "
                         "lower d or k") from None


def samples_for_steps(steps: int, batch_size: int) -> int:
    """Samples seen after ``steps`` optimiser steps with fresh batches of ``batch_size``.

    Parameters
    ----------
    steps : int
        Optimiser steps.
    batch_size : int
        Inputs per step.

    Returns
    -------
    int
        ``steps * batch_size``.

    Examples
    --------
    >>> samples_for_steps(8000, 512)                       # the teacher: "4 x 10^6 samples"
    4096000
    """
    return check_int("steps", steps, minimum=0) * check_int("batch_size", batch_size)
