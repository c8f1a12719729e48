r"""The teacher's first stage: one big-batch gradient step from the symmetric initialisation.

004 §4.2.6 (Algorithm 2, Setup, Claim 7, Lemma 63), after Barak et al. (2022).  The teacher is
:math:`f(x) = \sum_{i=1}^m a_i\sigma(\langle w_i, x\rangle + b_i)` (σ = ReLU) on
:math:`x\sim U(\{\pm1\}^d)`, label :math:`y = \chi_S(x)`, hinge loss
:math:`\ell = \max(0, 1 - f(x)y)`.  Symmetric initialisation, for :math:`i\le m/2`:
:math:`w_i\sim U(\{\pm1\}^d)`, :math:`b_i\sim U\{-1+\tfrac1k, -1+\tfrac2k, \dots,
1-\tfrac1k\}` (step 1/k, as in Barak et al.), :math:`a_i\sim U\{\pm\tfrac1m\}`, and
:math:`w_{i+m/2} = w_i`, :math:`b_{i+m/2} = b_i`, :math:`a_{i+m/2} = -a_i` -- so
:math:`f^{(0)}\equiv0` and the hinge is active everywhere.

**Claim 7** (population gradient at initialisation).  For odd d, :math:`|b_i| < 1` makes
:math:`\mathbb 1[\langle w,x\rangle + b\ge0] = (1 + \mathrm{Maj}(w\odot x))/2`, hence

.. math:: \mathbb E\,\nabla_{w_{ij}}f\,y = \tfrac12 a_i\bigl(\mathbb 1[S=\{j\}]
   + \zeta_{|S\triangle\{j\}|}\,\chi_{S\triangle\{j\}}(w_i)\bigr),

i.e. :math:`+\tfrac12a_i\zeta_{k-1}\chi_{S\setminus\{j\}}(w_i)` on S and
:math:`+\tfrac12a_i\zeta_{k+1}\chi_{S\cup\{j\}}(w_i)` off S (k >= 2).  The thesis prints a minus
sign (:data:`CLAIM7_PRINTED_SIGN`); its own Lemma 63 follows the plus.

**One step** (Algorithm 2 with :math:`T_1 = 1`): :math:`w^{(1)} = w^{(0)} - \eta_1(\hat g +
2\lambda_1w^{(0)})` (the gradient of :math:`\lambda_1\|w\|^2` is :math:`2\lambda_1w`), with
:math:`\eta_1 = m/(k|\zeta_{k-1}|)` and :math:`\hat g` the batch gradient of the loss.
Lemma 63's targets have no :math:`w^{(0)}` term, so the decay must cancel the initialisation:
:math:`2\eta_1\lambda_1 = 1` (Barak et al.'s :math:`\eta_1\lambda_1 = 1` for a decay written
:math:`\lambda w`); the printed :math:`\lambda_1 = 1` leaves :math:`(1-2\eta_1)w^{(0)}`.
``decay='cancel'`` uses :math:`\lambda_1 = 1/(2\eta_1)`, ``decay='printed'`` uses 1.

:math:`\tau_g` is measured per unit output weight, :math:`\max_{ij}|\hat g_{ij} -
g_{ij}|/|a_i|` (the gradient of :math:`\mathbb 1[\cdot]x_jy`), the normalisation under which
Lemma 63's bounds :math:`\tau_g/|\zeta_{k-1}|` and :math:`\tau_g/(k|\zeta_{k-1}|)` are stated.

References
----------
004 §4.2.6: Algorithm 2, Setup, Claim 7, Claim 8, Lemma 63.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np
import numpy.typing as npt

from identifiability.distillation.fourier import (
    check_odd_dimension,
    hypercube,
    majority_coefficient,
)
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.validation import (
    check_array,
    check_choice,
    check_float,
    check_indices,
    check_instance,
    check_int,
)

__all__ = [
    "CLAIM7_PRINTED_SIGN",
    "OneStep",
    "SymmetricInit",
    "claim7_gradient",
    "enumerate_activation_correlations",
    "first_stage_step",
    "lemma63_targets",
]

#: The sign in front of :math:`\tfrac12a_i\zeta\chi` in Claim 7 as printed (the truth is +1).
CLAIM7_PRINTED_SIGN = -1
#: Largest batch_size x m product (one boolean activation matrix) a batch gradient may build.
MAX_BATCH_ENTRIES = 60_000_000
Decay = Literal["cancel", "printed"]


@dataclass(frozen=True)
class SymmetricInit:
    """Algorithm 2's symmetric initialisation; ``b = bias_num / k`` and ``a = a_sign / m``.

    Parameters
    ----------
    w : numpy.ndarray
        Signs of the first-layer weights, shape (m, d).
    bias_num : numpy.ndarray
        Numerators of the biases (b = bias_num / k).
    a_sign : numpy.ndarray
        Signs of the second layer (a = a_sign / m).
    k : int
        The support size.

    Examples
    --------
    >>> init = SymmetricInit.draw(11, 4, 6, seed=0)
    >>> init.m, init.d, bool(np.all(init.w[:3] == init.w[3:]))
    (6, 11, True)
    >>> bool(np.all(init.a[:3] == -init.a[3:]))               # a_{i+m/2} = -a_i: f^(0) = 0
    True
    """

    w: npt.NDArray[np.int8]
    bias_num: npt.NDArray[np.int64]
    a_sign: npt.NDArray[np.int8]
    k: int

    def __post_init__(self) -> None:
        k = check_int("k", self.k, minimum=1)
        w = check_array("w", self.w, ndim=2, dtype=np.int64, what="(m, d) signs")
        m = w.shape[0]
        bias = check_array("bias_num", self.bias_num, shape=(m,), dtype=np.int64)
        a = check_array("a_sign", self.a_sign, shape=(m,), dtype=np.int64)
        if not (np.all(np.abs(w) == 1) and np.all(np.abs(a) == 1)):
            raise ValueError("w and a_sign must hold signs (+1 or -1)")
        if np.any(np.abs(bias) > k - 1):
            raise ValueError(f"bias_num must lie in -(k-1)..k-1 = {-(k - 1)}..{k - 1} (b = "
                             "bias_num / k on Algorithm 2's grid)")
        half = m // 2
        if m % 2 or not (np.array_equal(w[:half], w[half:]) and np.array_equal(
                bias[:half], bias[half:]) and np.array_equal(a[:half], -a[half:])):
            raise ValueError("w, bias_num, a_sign must be symmetric (neuron i + m/2 mirrors "
                             "neuron i with the opposite output sign, so f^(0) = 0); use "
                             "SymmetricInit.draw")
        object.__setattr__(self, "w", w.astype(np.int8))
        object.__setattr__(self, "bias_num", bias)
        object.__setattr__(self, "a_sign", a.astype(np.int8))
        object.__setattr__(self, "k", k)

    @property
    def m(self) -> int:
        return int(self.w.shape[0])

    @property
    def d(self) -> int:
        return int(self.w.shape[1])

    @property
    def b(self) -> npt.NDArray[np.float64]:
        return self.bias_num / self.k

    @property
    def a(self) -> npt.NDArray[np.float64]:
        return self.a_sign / self.m

    @classmethod
    def draw(cls, d: int, k: int, m: int, *, seed: SeedLike) -> SymmetricInit:
        """Draw the first m/2 neurons from ``seed`` and mirror them (d odd, m even).

        Parameters
        ----------
        d : int
            Odd d.
        k : int
            The support size.
        m : int
            Even number of neurons.
        seed : int or numpy.random.Generator, keyword-only
            Seeds the draw.

        Returns
        -------
        SymmetricInit
            The initialisation.
        """
        d = check_odd_dimension(d)
        k = check_int("k", k, minimum=1, maximum=d - 1)
        m = check_int("m", m, minimum=2)
        if m % 2:
            raise ValueError(f"m must be even (neuron i + m/2 mirrors neuron i), got {m}")
        guard_memory(array_bytes((m, d + 2), np.int64) * 2,
                     what=f"a symmetric initialisation of {m} neurons on {d} inputs",
                     fix="lower m or d")
        rng = as_generator(seed)
        half = m // 2
        w = rng.choice(np.array([-1, 1], dtype=np.int8), size=(half, d))
        bias = rng.integers(-(k - 1), k, size=half)
        a = rng.choice(np.array([-1, 1], dtype=np.int8), size=half)
        return cls(np.vstack([w, w]), np.concatenate([bias, bias]).astype(np.int64),
                   np.concatenate([a, -a]).astype(np.int8), k)


def _check_support(init: SymmetricInit, support: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    check_instance("init", init, SymmetricInit, expected="a SymmetricInit",
                   hint="draw one with SymmetricInit.draw(d, k, m, seed=...)")
    s = tuple(sorted(check_indices("support", support, size=init.d, what="coordinates")))
    if len(s) != init.k:
        raise ValueError(f"support must be {init.k} distinct coordinates in 0..{init.d - 1} "
                         f"(k = {init.k} fixed the bias grid), got {tuple(support)}")
    return s


def _zetas(d: int) -> dict[int, Fraction]:
    return {i: majority_coefficient(d, i, method="closed_form") for i in range(d + 1)}


def claim7_gradient(init: SymmetricInit, support: tuple[int, ...] | list[int], *,
                    sign: int = 1) -> npt.NDArray[np.float64]:
    r""":math:`\mathbb E_x\nabla_{w_{ij}}f^{(0)}(x)\,y` for every neuron i and coordinate j,
    from Claim 7's formula (``sign=+1``, the truth; ``sign=-1`` reproduces the printed minus).

    The loss gradient is its negative (the hinge is active because :math:`f^{(0)}\equiv0`).

    Parameters
    ----------
    init : SymmetricInit
        The initialisation.
    support : sequence of int
        S.
    sign : {1, -1}, keyword-only
        +1 for the truth, -1 for the printed sign.

    Returns
    -------
    numpy.ndarray
        Shape (m, d).

    Examples
    --------
    >>> init = SymmetricInit.draw(11, 4, 4, seed=1)
    >>> g = claim7_gradient(init, (0, 1, 2, 3))
    >>> zeta3 = float(majority_coefficient(11, 3))
    >>> bool(np.isclose(abs(g[0, 0]), abs(zeta3) / (2 * init.m)))
    True
    """
    s = _check_support(init, support)
    check_choice("sign", sign, (1, -1))
    zeta = _zetas(init.d)
    in_s = np.zeros(init.d, dtype=bool)
    in_s[list(s)] = True
    chi_s = np.prod(init.w[:, list(s)].astype(np.int64), axis=1)          # (m,)
    # chi_{S delta {j}}(w) = chi_S(w) * w_j for every j (w_j^2 = 1)
    chi = chi_s[:, None] * init.w.astype(np.int64)
    level = np.where(in_s, len(s) - 1, len(s) + 1)
    z = np.array([float(zeta[int(v)]) for v in level])
    singleton = np.where(in_s, 1.0 if len(s) == 1 else 0.0, 0.0)
    return sign * 0.5 * init.a[:, None] * (singleton[None, :] + z[None, :] * chi)


def enumerate_activation_correlations(init: SymmetricInit, support: tuple[int, ...] | list[int],
                                      neurons: list[int] | None = None) -> list[list[Fraction]]:
    r""":math:`\mathbb E_x\mathbb 1[\langle w_i,x\rangle + b_i\ge0]\,x_j\chi_S(x)` exactly, by
    enumerating all :math:`2^d` inputs in integer arithmetic (:math:`k\langle w,x\rangle +
    kb \ge 0`); multiply by :math:`a_i` for :math:`\mathbb E\nabla_{w_{ij}}f\,y`.

    Parameters
    ----------
    init : SymmetricInit
        The initialisation.
    support : sequence of int
        S.
    neurons : list of int, optional
        The neurons i (default all).

    Returns
    -------
    list of list of fractions.Fraction
        One row per neuron, one entry per coordinate j.

    Examples
    --------
    >>> init = SymmetricInit.draw(5, 2, 2, seed=0)
    >>> exact = enumerate_activation_correlations(init, (0, 1), [0])[0]
    >>> [str(v) for v in exact]
    ['3/16', '3/16', '-1/16', '1/16', '1/16']
    >>> [float(v) for v in exact] == (claim7_gradient(init, (0, 1))[0] / init.a[0]).tolist()
    True
    """
    s = _check_support(init, support)
    chosen = range(init.m) if neurons is None else check_indices(
        "neurons", neurons, size=init.m, distinct=False, what="neurons")
    x = hypercube(init.d).astype(np.int64)
    y = np.prod(x[:, list(s)], axis=1)
    rows = []
    for i in chosen:
        active = (init.k * (x @ init.w[i].astype(np.int64)) + init.bias_num[i]) >= 0
        sums = (x[active] * y[active, None]).sum(axis=0)
        rows.append([Fraction(int(v), 2**init.d) for v in sums])
    return rows


def lemma63_targets(init: SymmetricInit, support: tuple[int, ...] | list[int]
                    ) -> npt.NDArray[np.float64]:
    r"""Lemma 63's :math:`w^{(1)}` as printed: :math:`\operatorname{sign}(a_i\zeta_{k-1})
    \operatorname{sign}\chi_{S\setminus\{j\}}(w_i^{(0)})/(2k)` on S and
    :math:`\frac{\zeta_{k+1}}{|\zeta_{k-1}|}\operatorname{sign}(a_i)
    \operatorname{sign}\chi_{S\cup\{j\}}(w_i^{(0)})/(2k)` off S.

    Parameters
    ----------
    init : SymmetricInit
        The initialisation.
    support : sequence of int
        S.

    Returns
    -------
    numpy.ndarray
        Shape (m, d).

    Examples
    --------
    >>> init = SymmetricInit.draw(11, 2, 4, seed=0)       # d = 11, m = 4 neurons
    >>> t = lemma63_targets(init, (0, 1))                 # k = 2
    >>> bool(np.all(np.abs(t[:, :2]) == 1 / 4))          # 1/(2k) on S
    True
    >>> bool(np.allclose(np.abs(t[:, 2:]), 1 / 36))       # |zeta_3/zeta_1|/(2k) = (7/63)/4 off S
    True
    >>> first_stage_step(init, (0, 1)).deviation_from_targets()   # the cancelling decay hits them
    (0.0, 0.0)
    """
    s = _check_support(init, support)
    k = len(s)
    if k < 2:
        raise ValueError("Lemma 63 needs k >= 2")
    z_lo = majority_coefficient(init.d, k - 1, method="closed_form")
    z_hi = majority_coefficient(init.d, k + 1, method="closed_form")
    chi_s = np.prod(init.w[:, list(s)].astype(np.int64), axis=1)
    chi = (chi_s[:, None] * init.w).astype(np.float64)
    sign_a = np.sign(init.a)[:, None]
    out = sign_a * float(z_hi / abs(z_lo)) * chi / (2 * k)
    out[:, list(s)] = (sign_a * np.sign(float(z_lo)) * chi)[:, list(s)] / (2 * k)
    return np.asarray(out)


@dataclass(frozen=True)
class OneStep:
    """The teacher after Algorithm 2's first stage (:math:`T_1 = 1`).

    Attributes
    ----------
    init, support : the initialisation and S.
    eta, decay : :math:`\\eta_1` and :math:`\\lambda_1`.
    w1 : (m, d) first-layer weights after the step (b, a unchanged).
    loss_gradient : the gradient :math:`\\hat g` used (population if ``batch_size`` is None).
    population_gradient : :math:`g = -\\mathbb E\\nabla f\\,y` (Claim 7, true sign).
    batch_size : B_1, or None for the population gradient.
    tau_g : :math:`\\max_{ij}|\\hat g_{ij}-g_{ij}|/|a_i|` (0 for the population step).
    """

    init: SymmetricInit
    support: tuple[int, ...]
    eta: float
    decay: float
    w1: npt.NDArray[np.float64]
    loss_gradient: npt.NDArray[np.float64]
    population_gradient: npt.NDArray[np.float64]
    batch_size: int | None
    tau_g: float

    @property
    def zeta_lo(self) -> Fraction:
        """:math:`\\zeta_{k-1}`."""
        return majority_coefficient(self.init.d, len(self.support) - 1, method="closed_form")

    def deviation_from_targets(self) -> tuple[float, float]:
        """The largest deviation ``max |w1 - target|`` from the Lemma 63 targets, on S and off
        S.

        Returns
        -------
        (float, float)
            On S and off S.
        """
        dev = np.abs(self.w1 - lemma63_targets(self.init, self.support))
        mask = np.zeros(self.init.d, dtype=bool)
        mask[list(self.support)] = True
        return float(dev[:, mask].max()), float(dev[:, ~mask].max())


def first_stage_step(init: SymmetricInit, support: tuple[int, ...] | list[int], *,
                     batch_size: int | None = None, decay: Decay | float = "cancel",
                     eta: float | None = None, seed: SeedLike = None) -> OneStep:
    r"""One step of Algorithm 2's first stage.

    Parameters
    ----------
    init : SymmetricInit
    support : sequence of int
        S (0-based), of size ``init.k``.
    batch_size : int or None, keyword-only
        :math:`B_1` fresh samples for :math:`\hat g`; None uses the population gradient.
    decay : {'cancel', 'printed'} or float, keyword-only
        :math:`\lambda_1`: ``'cancel'`` = :math:`1/(2\eta_1)`, ``'printed'`` = 1.
    eta : float, keyword-only
        :math:`\eta_1`; default :math:`m/(k|\zeta_{k-1}|)` (Lemma 63).
    seed : keyword-only
        Data stream for the batch (unused for the population step).

    Returns
    -------
    OneStep
        The weights after the step.

    Examples
    --------
    >>> init = SymmetricInit.draw(13, 4, 8, seed=0)
    >>> step = first_stage_step(init, (0, 1, 2, 3))
    >>> step.deviation_from_targets()                   # exact up to rounding
    (0.0, 0.0)
    >>> bad = first_stage_step(init, (0, 1, 2, 3), decay="printed")
    >>> bool(np.isclose(bad.deviation_from_targets()[0], 2 * bad.eta - 1))  # (1 - 2 eta_1) w^(0)
    True
    """
    s = _check_support(init, support)
    k = len(s)
    if k < 2:
        raise ValueError("the first-stage analysis needs k >= 2")
    z_lo = majority_coefficient(init.d, k - 1, method="closed_form")
    eta1 = (float(init.m / (k * abs(z_lo))) if eta is None
            else check_float("eta", eta, positive=True))
    if decay == "cancel":
        lam = 1 / (2 * eta1)
    elif decay == "printed":
        lam = 1.0
    elif isinstance(decay, str):
        raise ValueError(f"decay must be 'cancel', 'printed' or a number in [0, 1/(2 eta)], "
                         f"got {decay!r}")
    else:
        lam = check_float("decay", decay, minimum=0, hint=" ('cancel', 'printed' or a "
                          "number lambda_1 in [0, 1/(2 eta)])")
        if 2 * eta1 * lam > 1 + 1e-12:
            raise ValueError(
                f"decay = {decay!r} with eta = {eta1:.6g} gives 1 - 2 eta decay = "
                f"{1 - 2 * eta1 * lam:.6g} < 0: the step would reverse and amplify w^(0) "
                f"instead of shrinking it; a number decay must lie in [0, 1/(2 eta)] = "
                f"[0, {1 / (2 * eta1):.6g}] ('cancel' is its upper end; 'printed' reproduces "
                "the thesis' lambda_1 = 1)")
    g_pop = -claim7_gradient(init, s)
    if batch_size is None:
        g_hat, tau = g_pop, 0.0
    else:
        bsz = check_int("batch_size", batch_size, minimum=1)
        if bsz * init.m > MAX_BATCH_ENTRIES:
            raise ValueError(f"batch_size * m = {bsz * init.m} exceeds {MAX_BATCH_ENTRIES} "
                             "activation entries; use a smaller batch or m")
        guard_memory(array_bytes((bsz, 3 * init.d + 2 * init.m)),
                     what=f"a batch of {bsz} inputs and their activations",
                     fix="use a smaller batch_size")
        rng = as_generator(seed)
        x = rng.choice(np.array([-1, 1], dtype=np.int8), size=(bsz, init.d)).astype(np.float64)
        y = np.prod(x[:, list(s)], axis=1)
        active = ((init.k * (x @ init.w.T.astype(np.float64)) + init.bias_num) >= 0)
        corr = active.T.astype(np.float64) @ (x * y[:, None]) / bsz      # E_B 1[.] x_j y
        g_hat = -init.a[:, None] * corr
        tau = float(np.max(np.abs(g_hat - g_pop) / np.abs(init.a)[:, None]))
    w1 = (1 - 2 * eta1 * lam) * init.w.astype(np.float64) - eta1 * g_hat
    return OneStep(init=init, support=s, eta=eta1, decay=lam, w1=w1, loss_gradient=g_hat,
                   population_gradient=g_pop, batch_size=batch_size, tau_g=tau)
