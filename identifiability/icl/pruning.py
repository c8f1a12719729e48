r"""002 §2.4 and Theorem 3.7: magnitude pruning of the MLP neurons.

Pruning a set :math:`S \subseteq [m]` removes the rows :math:`i \in S` of :math:`W_O` (leaving
an :math:`(m-|S|)\times m_b` matrix; the source prints ":math:`(m-|S|)\cdot m`", notes §5 A19),
which is the same as zeroing :math:`a_i` -- here a 0/1 ``mask``.  The magnitude of neuron
:math:`i` is :math:`\|r_i\|`, :math:`r_i` the i-th row of :math:`W_O W_V` (Theorem 3.7; Figure
5A's bars say ":math:`W_O`", notes §5 A13).  Three orders: ``'smallest'`` first (magnitude
pruning, eq. 15), ``'largest'`` first (pruning :math:`S \subseteq \mathcal L`, eq. 16) and
``'random'`` (averaged over masks).  A rate :math:`R` prunes
:math:`\operatorname{round}(Rm)` neurons; the count used is reported.

Theorem 3.7 bounds the **hinge loss** :math:`\mathbb E\,\ell` (eqs. 15-16): pruning all of
:math:`\mathcal L^c` costs :math:`O(\epsilon + M_1^{-1/2})`, pruning a fraction :math:`R` of
:math:`\mathcal L` costs :math:`\Omega(R + (\alpha' M_1)^{-1})`.  Since pruning leaves
:math:`u = W_O h` unchanged, every mask is evaluated from one forward pass.

References
----------
002, §2.4, Theorem 3.7 (eqs. 14-16) and its proof (eqs. 127-130), Remark 3.8, Figure 5.
Notes: docs/notes/seed_icl_nonlinear.md §1.9, PC-11..PC-13.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from identifiability.icl._checks import check_fraction, check_int, check_object
from identifiability.icl.model import ICLParams, forward
from identifiability.icl.prompts import PromptBatch
from seprank.core.display import RichDisplay
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import FloatArray
from seprank.core.validation import check_bool, check_choice, check_work

__all__ = ["PRUNING_ORDERS", "PruningCurve", "prune_mask", "pruned_count", "pruning_curve"]

Order = Literal["smallest", "largest", "random"]
PRUNING_ORDERS: tuple[Order, ...] = ("smallest", "largest", "random")


def pruned_count(rate: float, m: int) -> int:
    """:math:`\\operatorname{round}(R m)` neurons for rate :math:`R \\in [0, 1]`.

    Parameters
    ----------
    rate : float
        R in [0, 1].
    m : int
        Number of neurons.

    Returns
    -------
    int
        round(R m).

    Examples
    --------
    >>> pruned_count(0.2, 64), pruned_count(0.4, 64)
    (13, 26)
    """
    return round(check_fraction("rate R", rate, allow_zero=True) * check_int("m", m, 1))


def prune_mask(params: ICLParams, n_pruned: int, *, order: Order = "smallest",
               seed: SeedLike = None) -> FloatArray:
    """A 0/1 mask with ``n_pruned`` neurons removed in the given ``order`` of
    :math:`\\|r_i\\|` (ties broken by index; ``'random'`` draws from ``seed``).

    Parameters
    ----------
    params : ICLParams
        The weights.
    n_pruned : int
        Neurons removed.
    order : {'smallest', 'largest', 'random'}, keyword-only
        Which neurons (by :math:`\\|r_i\\|`); default ``'smallest'``.
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds ``'random'``.

    Returns
    -------
    numpy.ndarray
        The 0/1 mask, length m.

    Examples
    --------
    >>> from identifiability.icl.model import initialize
    >>> p = initialize(30, 30, m=8, seed=0)
    >>> mask = prune_mask(p, 3, order="smallest")
    >>> int(mask.sum()), bool(p.neuron_magnitudes()[mask == 0].max()
    ...                       <= p.neuron_magnitudes()[mask == 1].min())
    (5, True)
    """
    check_object("params", params, ICLParams, "build it with initialize() or train()")
    n_pruned = check_int("n_pruned", n_pruned, 0, params.m)
    check_choice("order", order, PRUNING_ORDERS)
    rng = as_generator(seed)
    mags = params.neuron_magnitudes()
    if order == "smallest":
        idx = np.argsort(mags, kind="stable")[:n_pruned]
    elif order == "largest":
        idx = np.argsort(-mags, kind="stable")[:n_pruned]
    else:
        idx = rng.permutation(params.m)[:n_pruned]
    mask = np.ones(params.m)
    mask[idx] = 0.0
    return mask


@dataclass(frozen=True, repr=False)
class PruningCurve(RichDisplay):
    """Hinge loss and classification error against the pruning rate, per order.

    Attributes
    ----------
    rates : tuple of float
    n_pruned : tuple of int
        Neurons removed at each rate.
    hinge, hinge_se, error, error_se : dict order -> ndarray over rates
        For ``'random'``: the mean over ``n_random_masks`` masks, with the standard error of
        that mean across masks (the same prompts are used for every mask).
    n_prompts : int
        Prompts evaluated at each rate.
    n_random_masks : int
        Masks averaged for ``'random'``.
    """

    rates: tuple[float, ...]
    n_pruned: tuple[int, ...]
    hinge: dict[str, FloatArray]
    hinge_se: dict[str, FloatArray]
    error: dict[str, FloatArray]
    error_se: dict[str, FloatArray]
    n_prompts: int
    n_random_masks: int


def _stats(F: FloatArray, z: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray,
                                                    FloatArray]:
    """Column-wise (one column per mask) hinge mean/SE and error mean/SE."""
    n = len(z)
    margin = z[:, None] * F
    h = np.maximum(0.0, 1 - margin)
    wrong = (margin <= 0).astype(float)
    p = wrong.mean(axis=0)
    return (h.mean(axis=0), h.std(axis=0, ddof=1) / math.sqrt(n), p,
            np.sqrt(p * (1 - p) / n))


def pruning_curve(params: ICLParams, prompts: PromptBatch, rates: Sequence[float], *,
                  orders: Sequence[Order] = PRUNING_ORDERS, n_random_masks: int = 10,
                  self_attend: bool = True, seed: SeedLike = None) -> PruningCurve:
    """Evaluate pruning at each rate and order on the same ``prompts``.

    Parameters
    ----------
    params : ICLParams
        The trained, unpruned weights (``mask`` all ones).
    prompts : PromptBatch
        Test prompts (e.g. out-of-domain, :math:`\\alpha' = 0.6`, as Figure 5A).
    rates : sequence of float
        Pruning rates :math:`R \\in [0, 1]` (fractions of :math:`m`).
    orders : sequence of {'smallest', 'largest', 'random'}, keyword-only
    n_random_masks : int, keyword-only
        Random masks averaged per rate.
    seed : seed-like, keyword-only
        Stream of the random masks.
    self_attend : bool, keyword-only
        The query attends to itself (default True).

    Returns
    -------
    PruningCurve
        Loss and error per rate and order.

    Examples
    --------
    >>> from identifiability.icl import in_domain_patterns, sample_prompts
    >>> from identifiability.icl.model import initialize
    >>> b = sample_prompts(in_domain_patterns(), [(0, 1)], 50, 5, 0.8, seed=0)
    >>> c = pruning_curve(initialize(30, 30, seed=0), b, [0.0, 1.0], seed=0)
    >>> c.n_pruned, c.hinge["largest"].round(6).tolist()      # all pruned: F = 0, hinge 1
    ((0, 64), [..., 1.0])
    """
    check_object("params", params, ICLParams, "build it with initialize() or train()")
    check_object("prompts", prompts, PromptBatch, "sample them with sample_prompts()")
    self_attend = check_bool("self_attend", self_attend)
    if params.mask.sum() < params.m:
        raise ValueError("pruning_curve starts from an unpruned model (mask all ones)")
    for name, seq in (("rates", rates), ("orders", orders)):
        if isinstance(seq, str | bytes) or not isinstance(seq, Sequence | np.ndarray):
            raise TypeError(f"{name} must be a sequence, got {seq!r} ({type(seq).__name__})")
    rates = tuple(check_fraction("rates: rate R", r, allow_zero=True) for r in rates)
    if not rates:
        raise ValueError("rates is empty")
    for o in orders:
        check_choice("orders: order", o, PRUNING_ORDERS)
    n_random_masks = check_int("n_random_masks", n_random_masks, 1)
    n_masks = max(n_random_masks if "random" in orders else 1, 1)
    check_work(len(orders) * len(rates) * n_masks * (prompts.n + 1) * params.m,
               what=f"{n_masks} masks at {len(rates)} rates",
               fix="lower n_random_masks or use fewer rates")
    guard_memory(array_bytes((n_masks, params.m + prompts.n)) * 3,
                 what=f"{n_masks} pruning masks and their outputs", fix="lower n_random_masks")
    rng = as_generator(seed)
    fw = forward(params, prompts.P, self_attend=self_attend)
    act = np.maximum(np.real(fw.u), 0.0)                    # (n, m): unchanged by pruning
    counts = tuple(pruned_count(r, params.m) for r in rates)
    out: dict[str, dict[str, FloatArray]] = {k: {} for k in ("h", "hs", "e", "es")}
    for order in orders:
        rows = []
        for k in counts:
            n_masks = n_random_masks if order == "random" else 1
            masks = np.stack([prune_mask(params, k, order=order, seed=rng)
                              for _ in range(n_masks)])       # (n_masks, m)
            F = act @ (masks * params.a).T                  # (n, n_masks)
            h, hs, e, es = _stats(F, prompts.z)
            if order == "random":
                sd_h = h.std(ddof=1) / math.sqrt(n_masks) if n_masks > 1 else float(hs[0])
                sd_e = e.std(ddof=1) / math.sqrt(n_masks) if n_masks > 1 else float(es[0])
                rows.append((h.mean(), sd_h, e.mean(), sd_e))
            else:
                rows.append((h[0], hs[0], e[0], es[0]))
        arr = np.array(rows, dtype=float)
        for j, key in enumerate(("h", "hs", "e", "es")):
            out[key][order] = arr[:, j]
    return PruningCurve(rates, counts, out["h"], out["hs"], out["e"], out["es"], prompts.n,
                        n_random_masks)
