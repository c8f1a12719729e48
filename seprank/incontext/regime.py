r"""Is the learning rate in the bounded-gradient regime the theorems assume? (notes §1.6)

Theorems 1 and 3 of seed 000/001 assume bounded weights and gradients
(:math:`\Lambda_{min} \le |\theta|, |\partial\mathcal L/\partial\theta| \le \Lambda_{max}`),
i.e. an update that acts to first order in η.  With unnormalised polynomial attention the
gradient can be astronomically large, so this is measured: the grid matrix
:math:`M(\eta) = [Z_{seq}(a^{(r)}, b^{(s)})]` is a polynomial in η and
:math:`\|M(\eta) - M(0)\|_F/\eta` must have stabilised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from seprank.incontext.sequential import SequentialRepresentation

__all__ = ["GradientRegime", "gradient_regime"]


@dataclass(frozen=True)
class GradientRegime:
    """Is η in the bounded-gradient (first-order) regime? (notes §1.6, PC-5)

    Attributes
    ----------
    eta : float
        The learning rate examined.
    etas, ratios : tuple of float
        Probe rates :math:`\\eta 10^{-k}` and :math:`\\|M(\\eta') - M(0)\\|_F / \\eta'`.
    first_order : bool
        The ratio at η agrees with the ratio at the smallest resolvable probe within ``rtol``
        and the two smallest probes agree with each other: the update acts to first order in η,
        as the theorems' bounded gradients (Λ_max) presuppose.
    resolvable : bool
        Whether :math:`\\eta\\|M'(0)\\|` is above float rounding of M(0) at all.
    max_abs_gradient, min_abs_gradient, max_abs_parameter, min_abs_parameter : float
        Λ-style ranges over all a-templates (Theorem 1: Λ_min <= |θ|, |∂L/∂θ| <= Λ_max).
    relative_step : float
        :math:`\\eta\\max|\\nabla| / \\max|\\theta|`.
    """

    eta: float
    etas: tuple[float, ...]
    ratios: tuple[float, ...]
    first_order: bool
    resolvable: bool
    rtol: float
    max_abs_gradient: float
    min_abs_gradient: float
    max_abs_parameter: float
    min_abs_parameter: float
    relative_step: float

    def summary(self) -> str:
        state = ("first-order (bounded-gradient) regime" if self.first_order else
                 "NOT in the first-order regime: ||M(eta)-M(0)||/eta has not stabilised")
        ratios = ", ".join(f"{e:.0e}: {r:.4g}" for e, r in zip(self.etas, self.ratios,
                                                                strict=True))
        return (f"eta = {self.eta:.3g}: {state}; ratios {ratios}; max|grad| = "
                f"{self.max_abs_gradient:.3g}, eta*max|grad|/max|theta| = "
                f"{self.relative_step:.3g}")


def gradient_regime(rep: SequentialRepresentation, a_templates: npt.ArrayLike,
                    b_templates: npt.ArrayLike, *, probes: int = 2,
                    rtol: float = 0.05) -> GradientRegime:
    r"""Detect whether η is in the bounded-gradient regime the theorems assume.

    :math:`\theta'(\eta)` is affine in η, so the grid :math:`M(\eta)` is a polynomial in η and
    :math:`r(\eta) = \|M(\eta) - M(0)\|_F/\eta \to \|M'(0)\|_F`.  η is declared first-order when
    :math:`|r(\eta) - r(\eta 10^{-k})| \le` ``rtol`` :math:`\cdot r(\eta 10^{-k})` for the smallest
    resolvable probe k <= ``probes`` and the two smallest probes agree too.  Probes whose change
    is below :math:`10^3` float roundings of M(0) are not used.

    References
    ----------
    .. [1] Seed 000_602443402cfc1c64 / 001_b50bb8acc03b85f7, eqs. 5, 8-9, Theorems 1 and 3; notes
       seed_incontext_bias.md §1.6, PC-5.

    Examples
    --------
    >>> from seprank.incontext.gradient import LanguageModel
    >>> from seprank.incontext.sequential import SequentialRepresentation
    >>> lm = LanguageModel.random(depth=1, width=2, vocab=4, seed=0)
    >>> rep = SequentialRepresentation(lm, [0, 1], [2, 3], eta=1e-3)
    >>> rng = np.random.default_rng(1); A, B = rng.uniform(0.5, 1.5, (2, 6, 2))
    >>> gradient_regime(rep, A, B).first_order
    True
    """
    if probes < 1:
        raise ValueError("probes must be >= 1")
    A = rep._a_batch(a_templates)
    B = np.asarray(b_templates, dtype=float)
    M0 = rep.frozen_grid(A, B)
    norm0 = float(np.linalg.norm(M0))
    floor = 1e3 * np.finfo(float).eps * max(norm0, np.finfo(float).tiny)
    etas, ratios = [], []
    for k in range(probes + 1):
        e = rep.eta * 10.0**-k
        diff = float(np.linalg.norm(rep.grid(A, B, eta=e) - M0))
        if k > 0 and diff < floor:
            break
        etas.append(e)
        ratios.append(diff / e)
    resolvable = len(etas) >= 2 or (len(etas) == 1 and ratios[0] * rep.eta >= floor)
    if len(ratios) >= 3:
        ref = ratios[-1]
        first = (abs(ratios[0] - ref) <= rtol * ref and abs(ratios[-2] - ref) <= rtol * ref)
    elif len(ratios) == 2:
        first = abs(ratios[0] - ratios[1]) <= rtol * ratios[1]
    else:
        first = False
    grads = rep.gradient(A)
    g_abs = np.concatenate([np.abs(g).ravel() for g in grads.arrays])
    lo, hi = rep.model.abs_range()
    return GradientRegime(
        eta=rep.eta, etas=tuple(etas), ratios=tuple(ratios), first_order=bool(first),
        resolvable=bool(resolvable), rtol=rtol, max_abs_gradient=float(g_abs.max()),
        min_abs_gradient=float(g_abs.min()), max_abs_parameter=hi, min_abs_parameter=lo,
        relative_step=float(rep.eta * g_abs.max() / hi),
    )
