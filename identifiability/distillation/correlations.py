r"""Correlations of the teacher after its first stage with monomials (Lemma 64, Corollary 3).

004 §4.2.6: after the step of :mod:`identifiability.distillation.one_step` the teacher is
:math:`f^{(1)}(x) = \sum_i a_i\sigma(\langle w^{(1)}_i,x\rangle + b_i)`.  Lemma 64 bounds
:math:`c_j = \mathbb E f^{(1)}(x)x_j` (in and off the support), the even-degree correlations and
:math:`\|f^{(1)}\|_2^2`; Corollary 3 the correlations with :math:`\mathrm{Maj}(x)x_i`.

**Exact route (population step).**  With the decay cancelling :math:`w^{(0)}` and the population
gradient, a mirrored pair contributes :math:`\tfrac1m\varphi_{b_i}(\langle v_i, x\rangle)` with
:math:`\varphi_b(t) = \sigma(t+b) - \sigma(-t+b)` (odd in t) and
:math:`v_{ij} = \varepsilon_i w^{(0)}_{ij} r_j/(2k)`, :math:`\varepsilon_i =
\operatorname{sign}(\zeta_{k-1})\chi_S(w_i^{(0)})`, :math:`r_j = 1` on S and
:math:`\rho = \zeta_{k+1}/\zeta_{k-1} = -(k-1)/(d-k)` off S.  Flipping :math:`x_l\to
\varepsilon_iw^{(0)}_{il}x_l` (measure preserving) gives

.. math:: c_j = \frac1m\sum_{i\le m/2}\varepsilon_i w^{(0)}_{ij}\,J_{\pm}(b_i),\qquad
   J(b) = \mathbb E\,\varphi_b(U)\,x_j,\ U = \tfrac1{2k}\bigl(\textstyle\sum_S x_l
   + \rho\sum_{S^c}x_l\bigr),

with :math:`J` computed exactly (:func:`pair_correlation`, rational arithmetic over the two
binomial sums).  On S the signs :math:`\varepsilon_iw^{(0)}_{ij} = \operatorname{sign}
(\zeta_{k-1})\chi_{S\setminus\{j\}}(w^{(0)}_i)` are fair coins across neurons, so
:math:`\mathbb E_{\rm init}c_j = 0`; the proof of Lemma 64 fixes them "w.l.o.g." per neuron
and then sums over neurons as if they were aligned.

**Monte Carlo route (any step).**  :func:`monte_carlo_correlations` estimates
:math:`\mathbb E f\,x_j`, :math:`\mathbb E f\,x_ix_j`, :math:`\mathbb E f\,\mathrm{Maj}\,x_i`,
:math:`\mathbb E f\,\mathbb 1[\sum x>0]x_i` and :math:`\|f_{\rm even}\|_2^2` from fresh samples,
each with its standard error (sample standard deviation / :math:`\sqrt n`).

References
----------
004 §4.2.6: Lemma 64 (items 1-4), Corollary 3.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from identifiability.distillation.fourier import hypercube, majority_coefficient
from identifiability.distillation.one_step import OneStep
from seprank.core.display import RichDisplay
from seprank.core.random import SeedLike, as_generator
from seprank.core.validation import (
    check_array,
    check_bool,
    check_float,
    check_instance,
    check_int,
    check_work,
)

__all__ = [
    "MonteCarloCorrelations",
    "exact_degree_one",
    "exhaustive_correlations",
    "monte_carlo_correlations",
    "network_output",
    "pair_correlation",
]

#: Largest n_samples x m entries one Monte Carlo chunk evaluates at once.
CHUNK_ENTRIES = 8_000_000


def network_output(step: OneStep, x: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """:math:`f^{(1)}(x) = \\sum_i a_i\\sigma(\\langle w^{(1)}_i, x\\rangle + b_i)` per row of x.

    Parameters
    ----------
    step : OneStep
        The step.
    x : array_like
        Inputs in :math:`\\{\\pm1\\}^d`, shape (n, d).

    Returns
    -------
    numpy.ndarray
        :math:`f^{(1)}(x)`, shape (n,).

    Examples
    --------
    >>> from identifiability.distillation.one_step import SymmetricInit, first_stage_step
    >>> step = first_stage_step(SymmetricInit.draw(11, 2, 4, seed=0), (0, 1))
    >>> x = hypercube(11)[:5].astype(float)
    >>> by_hand = [sum(a * max(w @ row + b, 0.0) for a, w, b in
    ...                zip(step.init.a, step.w1, step.init.b)) for row in x]
    >>> bool(np.allclose(network_output(step, x), by_hand))
    True
    """
    _check_step(step)
    arr = check_array("x", x, ndim=2, min_size=0)
    if arr.shape[1] != step.init.d:
        raise ValueError(f"x must have shape (n, {step.init.d}), got {arr.shape}")
    return _output(step, arr)


def _output(step: OneStep, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """:func:`network_output` without the checks (inputs drawn here)."""
    return np.asarray(np.maximum(x @ step.w1.T + step.init.b, 0.0) @ step.init.a)


def _check_step(step: object) -> OneStep:
    return check_instance("step", step, OneStep, expected="a OneStep",
                          hint="build it with first_stage_step(init, support)")


def _relu(t: Fraction) -> Fraction:
    return t if t > 0 else Fraction(0)


def pair_correlation(d: int, k: int, bias: Fraction, *, in_support: bool = True) -> Fraction:
    r""":math:`J(b) = \mathbb E\,\varphi_b(U)\,x_j` exactly (j in S if ``in_support``).

    :math:`\varphi_b(t) = \sigma(t+b) - \sigma(-t+b)`, :math:`U = (\sum_S x_l + \rho
    \sum_{S^c}x_l)/(2k)`, :math:`\rho = \zeta_{k+1}/\zeta_{k-1}`.  Note :math:`J(b) + J(-b) =
    \mathbb E[2Ux_j]` (since :math:`\sigma(z) - \sigma(-z) = z`), i.e. :math:`1/k` on S.

    Parameters
    ----------
    d : int
        The input length.
    k : int
        The support size.
    bias : fractions.Fraction
        b.
    in_support : bool, keyword-only
        j in S (default True) or not.

    Returns
    -------
    fractions.Fraction
        J(b).

    Examples
    --------
    >>> pair_correlation(13, 4, Fraction(0)) == Fraction(1, 8)       # = 1/(2k) at b = 0
    True
    >>> J = pair_correlation(21, 4, Fraction(1, 4)) + pair_correlation(21, 4, Fraction(-1, 4))
    >>> J == Fraction(1, 4)                                            # 1/k
    True
    """
    d = check_int("d", d, minimum=3)
    k = check_int("k", k, minimum=2, maximum=d - 1)
    check_float("bias", bias, minimum=-1, maximum=1, hint=" (an exact rational in [-1, 1])")
    check_work(2 * k * (d - k), what=f"the binomial sums of d = {d}, k = {k}",
               fix="lower d")
    return _pair_correlation(d, k, Fraction(bias), check_bool("in_support", in_support))


@functools.lru_cache(maxsize=4096)
def _pair_correlation(d: int, k: int, bias: Fraction, in_support: bool) -> Fraction:
    rho = (majority_coefficient(d, k + 1, method="closed_form")
           / majority_coefficient(d, k - 1, method="closed_form"))
    total = Fraction(0)
    n_in, n_out = (k - 1, d - k) if in_support else (k, d - k - 1)
    for xj in (1, -1):
        for minus_in in range(n_in + 1):
            s_in = n_in - 2 * minus_in
            for minus_out in range(n_out + 1):
                s_out = n_out - 2 * minus_out
                s_s, s_r = (s_in + xj, s_out) if in_support else (s_in, s_out + xj)
                u = (s_s + rho * s_r) / (2 * k)
                weight = math.comb(n_in, minus_in) * math.comb(n_out, minus_out)
                total += weight * xj * (_relu(u + bias) - _relu(-u + bias))
    return total / 2 ** (n_in + n_out + 1)


def exact_degree_one(step: OneStep) -> npt.NDArray[np.float64]:
    r""":math:`c_j = \mathbb E f^{(1)}x_j` for all j, exactly, for the population step with the
    cancelling decay (raises otherwise).

    Parameters
    ----------
    step : OneStep
        A population step with the cancelling decay.

    Returns
    -------
    numpy.ndarray
        :math:`c_j`, length d.

    Examples
    --------
    >>> from identifiability.distillation.one_step import SymmetricInit, first_stage_step
    >>> step = first_stage_step(SymmetricInit.draw(11, 2, 4, seed=0), (0, 1))
    >>> x = hypercube(11)
    >>> brute = (network_output(step, x)[:, None] * x).mean(axis=0)
    >>> bool(np.allclose(exact_degree_one(step), brute, atol=1e-15))
    True
    """
    _check_step(step)
    if step.batch_size is not None or not math.isclose(2 * step.eta * step.decay, 1.0):
        raise ValueError("exact_degree_one needs the population step with the cancelling decay "
                         "(batch_size=None, decay='cancel'); use monte_carlo_correlations")
    init, s = step.init, step.support
    k, d, m = len(s), init.d, init.m
    sign_lo = 1 if majority_coefficient(d, k - 1, method="closed_form") > 0 else -1
    in_s = np.zeros(d, dtype=bool)
    in_s[list(s)] = True
    biases = np.arange(-(init.k - 1), init.k)
    table = np.array([[float(pair_correlation(d, k, Fraction(int(bn), init.k), in_support=flag))
                       for bn in biases] for flag in (False, True)])       # (2, 2k - 1)
    half = m // 2
    chi_s = np.prod(init.w[:half, list(s)].astype(np.int64), axis=1)
    signs = sign_lo * chi_s[:, None] * init.w[:half].astype(np.int64)        # (m/2, d)
    j_values = table[in_s.astype(int)[None, :], (init.bias_num[:half] + init.k - 1)[:, None]]
    return np.asarray((signs * j_values).sum(axis=0) / m)


@dataclass(frozen=True, repr=False)
class MonteCarloCorrelations(RichDisplay):
    """Monte Carlo estimates (each with a standard error) of the teacher's correlations.

    Attributes
    ----------
    degree_one, degree_one_se : (d,) :math:`\\mathbb E f x_j`.
    degree_two, degree_two_se : (d, d) :math:`\\mathbb E f x_ix_j` (diagonal: :math:`\\mathbb E f`).
    majority, majority_se : (d,) :math:`\\mathbb E f\\,\\mathrm{Maj}(x)x_i` (Maj = ±1).
    threshold, threshold_se : (d,) :math:`\\mathbb E f\\,\\mathbb 1[\\sum x > 0]x_i`.
    norm2, norm2_se : :math:`\\|f\\|_2^2`.
    even_norm2, even_norm2_se : :math:`\\|f_{\\rm even}\\|_2^2`, f_even(x) = (f(x) + f(-x))/2.
    n_samples : int
    """

    degree_one: npt.NDArray[np.float64]
    degree_one_se: npt.NDArray[np.float64]
    degree_two: npt.NDArray[np.float64]
    degree_two_se: npt.NDArray[np.float64]
    majority: npt.NDArray[np.float64]
    majority_se: npt.NDArray[np.float64]
    threshold: npt.NDArray[np.float64]
    threshold_se: npt.NDArray[np.float64]
    norm2: float
    norm2_se: float
    even_norm2: float
    even_norm2_se: float
    n_samples: int


def _mean_se(total: npt.NDArray[np.float64] | float, total_sq: npt.NDArray[np.float64] | float,
             n: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    mean = np.asarray(total, dtype=float) / n
    var = np.maximum(np.asarray(total_sq, dtype=float) / n - mean**2, 0.0) * n / (n - 1)
    return mean, np.sqrt(var / n)


def monte_carlo_correlations(step: OneStep, n_samples: int, *, seed: SeedLike
                             ) -> MonteCarloCorrelations:
    r"""Estimate the correlations of :class:`MonteCarloCorrelations` from ``n_samples`` fresh
    uniform inputs (``seed``: the data stream), in chunks of bounded memory.

    Every monomial is ±1, so :math:`(f\chi_T)^2 = f^2`: the second moments need only
    :math:`\sum f^2` (and :math:`\sum f^2\mathbb 1[\sum x>0]` for the threshold).

    Parameters
    ----------
    step : OneStep
        The step.
    n_samples : int
        Number of inputs.
    seed : int or numpy.random.Generator, keyword-only
        The data stream.

    Returns
    -------
    MonteCarloCorrelations
        The estimates and their standard errors.

    Examples
    --------
    >>> from identifiability.distillation.one_step import SymmetricInit, first_stage_step
    >>> step = first_stage_step(SymmetricInit.draw(11, 2, 4, seed=0), (0, 1))
    >>> mc = monte_carlo_correlations(step, 20_000, seed=1)
    >>> exact = exhaustive_correlations(step)["degree_one"]
    >>> bool(np.all(np.abs(mc.degree_one - exact) < 4 * mc.degree_one_se))   # within 4 s.e.
    True
    """
    _check_step(step)
    n = check_int("n_samples", n_samples, minimum=2)
    rng = as_generator(seed)
    d = step.init.d
    check_work(n * (4 * d * step.init.m + d * d + 10 * d),
               what=f"{n} samples of a {step.init.m}-neuron teacher on {d} inputs",
               fix="lower n_samples")
    chunk = max(1, min(n, CHUNK_ENTRIES // max(step.init.m, d)))
    one, two, maj, thr = np.zeros(d), np.zeros((d, d)), np.zeros(d), np.zeros(d)
    f2 = f2_thr = f4 = ev = ev2 = 0.0
    done = 0
    while done < n:
        size = min(chunk, n - done)
        x = rng.choice(np.array([-1.0, 1.0]), size=(size, d))
        f = _output(step, x)
        f_even = (f + _output(step, -x)) / 2
        up = x.sum(axis=1) > 0
        one += x.T @ f
        two += x.T @ (f[:, None] * x)
        maj += x.T @ (f * np.where(up, 1.0, -1.0))
        thr += x.T @ (f * up)
        f2 += float(f @ f)
        f2_thr += float((f * up) @ f)
        f4 += float(np.sum(f**4))
        ev += float(f_even @ f_even)
        ev2 += float(np.sum(f_even**4))
        done += size
    one_m, one_se = _mean_se(one, f2, n)
    two_m, two_se = _mean_se(two, f2, n)
    maj_m, maj_se = _mean_se(maj, f2, n)
    thr_m, thr_se = _mean_se(thr, f2_thr, n)
    nrm, nrm_se = _mean_se(f2, f4, n)
    evn, evn_se = _mean_se(ev, ev2, n)
    return MonteCarloCorrelations(one_m, one_se, two_m, two_se, maj_m, maj_se, thr_m, thr_se,
                                  float(nrm), float(nrm_se), float(evn), float(evn_se), n)


def exhaustive_correlations(step: OneStep) -> dict[str, npt.NDArray[np.float64]]:
    """The same correlations by enumerating all 2^d inputs (d <= 22): keys ``'degree_one'``,
    ``'majority'`` (Maj = ±1), ``'threshold'`` (1[Σx > 0]) and ``'even_norm2'``.

    Parameters
    ----------
    step : OneStep
        The step (d <= 22).

    Returns
    -------
    dict of str to numpy.ndarray
        The correlations by name.

    Examples
    --------
    >>> from identifiability.distillation.one_step import SymmetricInit, first_stage_step
    >>> step = first_stage_step(SymmetricInit.draw(11, 2, 4, seed=0), (0, 1))
    >>> c = exhaustive_correlations(step)
    >>> bool(np.allclose(c["degree_one"], exact_degree_one(step), atol=1e-15))
    True
    >>> # this teacher is odd (f_even = 0), and d is odd, so 1[sum x > 0] halves every correlation
    >>> float(c["even_norm2"][0]), bool(np.allclose(c["threshold"], c["degree_one"] / 2))
    (0.0, True)
    """
    _check_step(step)
    x = hypercube(step.init.d).astype(np.float64)
    f = _output(step, x)
    maj = np.sign(x.sum(axis=1))
    f_even = (f + _output(step, -x)) / 2
    return {"degree_one": (f[:, None] * x).mean(axis=0),
            "majority": ((f * maj)[:, None] * x).mean(axis=0),
            "threshold": ((f * (maj > 0))[:, None] * x).mean(axis=0),
            "even_norm2": np.array([np.mean(f_even**2)])}
