r"""000/001 swept: ε-ranks of the sequential representation against the learning rate η.

Paper 000/001 compare a self-attention model that sees two sentences :math:`S_1, S_2` *in
context* with one that sees them *sequentially* (an SGD step of size η on :math:`S_1`, then
:math:`S_2`); Theorem 3 (000) says the sequential ε-separation rank is deficient by about
:math:`\tfrac12\log_3(1/\eta)` in the exponent.  :func:`eta_case` measures, for one random
language model and one η, the grid :math:`M(\eta)` of :math:`Z_{seq}(a, b)` on 60 x 60 templates
and certified brackets of its absolute ε-rank (000's convention, :func:`seprank.eps_rank`)
for :math:`\varepsilon = \tau\,\sigma_1(M(0))/60` at several τ, next to the same counts for the
in-context grid, and whether η is in the bounded-gradient (first-order) regime the theorems
assume (:func:`seprank.incontext.sequential.gradient_regime`).

The lower end of a bracket is a certified lower bound on the ε-rank of this grid, hence (000,
Lemma 13) on the ε-separation rank of the function; the upper end describes this grid only.

References
----------
.. [1] 000 (Levine et al., ICLR 2022), eqs. 4-9, Theorem 3, Lemma 13; 001, App. C.1.2.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from seprank.core.eps_rank import eps_rank
from seprank.core.random import spawn
from seprank.core.validation import check_int
from seprank.incontext.gradient import LanguageModel
from seprank.incontext.representation import InContextRepresentation
from seprank.incontext.sequential import SequentialRepresentation, gradient_regime

__all__ = ["DEFAULT_ETAS", "DEFAULT_TAUS", "eta_case", "eta_cases"]

DEFAULT_ETAS = (1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6)
DEFAULT_TAUS = (1e-3, 1e-6, 1e-9)
N_TEMPLATES = 60


def eta_cases(*, etas: tuple[float, ...] = DEFAULT_ETAS, depths: tuple[int, ...] = (1, 2),
              width: int = 3, seeds: tuple[int, ...] = (0, 1, 2)) -> list[dict[str, Any]]:
    """Parameter sets for :func:`eta_case`: every (η, L, seed).

    Parameters
    ----------
    etas : tuple of float, keyword-only
        The learning rates η.
    depths : tuple of int, keyword-only
        The depths L.
    width : int, keyword-only
        :math:`d_x` (default 3).
    seeds : tuple of int, keyword-only
        The seeds.

    Returns
    -------
    list of dict
        One parameter set per (η, L, seed).

    Examples
    --------
    Six learning rates, two depths and three seeds:

    >>> len(eta_cases())
    36
    """
    return [{"eta": float(e), "depth": int(L), "width": int(width), "seed": int(s)}
            for e in etas for L in depths for s in seeds]


def eta_case(*, eta: float, depth: int, width: int, seed: int,
             taus: tuple[float, ...] = DEFAULT_TAUS) -> dict[str, Any]:
    """ε-rank brackets of the sequential grid M(η) and counts of the in-context grid.

    Parameters
    ----------
    eta : float, keyword-only
        The learning rate, > 0.
    depth, width : int, keyword-only
        L and :math:`d_x` of a random language model (vocabulary 5, :math:`S_1 = (0, 1)`,
        :math:`S_2 = (2, 3)`).
    seed : int, keyword-only
        Seeds the model and the templates (separate streams).
    taus : tuple of float, keyword-only
        Relative thresholds τ; ε = τ σ_1(M(0)) / 60.

    Returns
    -------
    dict
        ``eps_rank`` (one ``[lower, upper]`` per τ), ``count_above`` (singular values of M(η)
        above τ σ_1(M(0))), ``incontext_count_above`` (the in-context grid's, relative to its
        own σ_1), ``first_order`` and ``sigma1_frozen``.

    Examples
    --------
    >>> r = eta_case(eta=1e-3, depth=1, width=2, seed=0, taus=(1e-6,))
    >>> r["first_order"], r["eps_rank"][0][0] <= r["eps_rank"][0][1]
    (True, True)
    """
    if not (isinstance(eta, int | float) and np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a finite number > 0, got {eta!r}")
    L = check_int("depth L", depth)
    d_x = check_int("width d_x", width)
    if not taus or any(not (0 < t < 1) for t in taus):
        raise ValueError(f"taus must be thresholds in (0, 1), got {taus!r}")
    model_rng, template_rng = spawn(seed, 2)
    lm = LanguageModel.random(depth=L, width=d_x, vocab=5, seed=model_rng)
    A, B = template_rng.uniform(0.5, 1.5, (2, N_TEMPLATES, d_x))
    seq = SequentialRepresentation(lm, (0, 1), (2, 3), eta=float(eta))
    frozen = np.linalg.svd(seq.frozen_grid(A, B), compute_uv=False)
    sigma0 = float(frozen[0])
    M = seq.grid(A, B)
    spectrum = np.linalg.svd(M, compute_uv=False)
    inc = InContextRepresentation(lm.network, lm.embedding, (0, 1), (2, 3))
    s_in = np.linalg.svd(inc.grid(A, B), compute_uv=False)
    brackets = []
    for tau in taus:
        r = eps_rank(M, tau * sigma0 / N_TEMPLATES)
        brackets.append([int(r.lower), int(r.upper)])
    return {
        "taus": [float(t) for t in taus],
        "eps_rank": brackets,
        "count_above": [int(np.sum(spectrum > t * sigma0)) for t in taus],
        "incontext_count_above": [int(np.sum(s_in > t * s_in[0])) for t in taus],
        "first_order": bool(gradient_regime(seq, A, B).first_order),
        "sigma1_frozen": sigma0,
    }
