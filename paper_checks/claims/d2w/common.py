"""Shared measurements for the seed-003 (depth-to-width) claims: generic separation ranks.

A generic rank is the certified lower bound :func:`seprank.separation_rank` returns for one
random integer network (weights uniform in [-50, 50], seeded) and the balanced partition
A = {0..N/2-1}, output position i = 0, coordinate p = 0.  Growth stops when the rank is stable
over two rounds, so it equals the generic separation rank with high probability; for upper
bounds, any measured rank above a bound is a *certain* violation.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

from paper_checks.seeds import setting_seed
from seprank import LinearAttention, SeparationRankResult

#: (L, d_x, H, N) measured in the quick profile (each well under a second).
QUICK_CONFIGS: tuple[tuple[int, int, int, int], ...] = (
    (1, 2, 1, 2), (1, 3, 1, 2), (1, 4, 1, 2), (1, 5, 1, 2), (1, 6, 1, 2),
    (1, 4, 2, 2), (1, 4, 4, 2), (1, 6, 2, 2), (1, 6, 3, 2), (1, 6, 3, 4),
    (2, 2, 1, 2), (2, 2, 1, 4), (2, 2, 1, 6), (2, 2, 2, 2), (2, 3, 1, 2), (2, 3, 1, 4),
    (2, 3, 3, 2), (2, 4, 1, 2), (2, 4, 2, 2), (2, 5, 1, 2), (2, 5, 5, 2), (2, 6, 2, 2),
    (2, 6, 3, 2), (3, 2, 1, 2), (3, 2, 2, 2),
)
#: Added in the full profile (seconds each).
FULL_CONFIGS: tuple[tuple[int, int, int, int], ...] = (
    (2, 2, 1, 8), (2, 4, 1, 4), (2, 3, 1, 6), (3, 2, 1, 4), (3, 2, 1, 6), (3, 3, 1, 2),
    (2, 10, 1, 2),   # L < log3(d_x): the Theorem 1 regime (15 s)
)
#: Residual networks (Theorems 5-6), quick.
RESIDUAL_CONFIGS: tuple[tuple[int, int, int, int], ...] = (
    (1, 2, 1, 2), (2, 2, 1, 2), (2, 3, 1, 2), (2, 2, 1, 4), (1, 3, 1, 4),
)
WEIGHT_SEED = 2020
TEMPLATE_SEED = 3
#: Ranks up to this ship certificates: the independent checker recomputes the r^2 entries of
#: the minor in pure Python (r = 126: ~3 s; r = 210: ~15-20 s each, too slow for every run).
CERTIFIED_RANK_LIMIT = 130


def network_seed(depth: int, width: int, heads: int) -> int:
    """The weight seed of the claims' random network of a size (with or without residual
    connections): :func:`paper_checks.seeds.setting_seed` from :data:`WEIGHT_SEED`."""
    return setting_seed(WEIGHT_SEED, depth, width, heads)


def balanced_first_half(n_inputs: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    half = n_inputs // 2
    return tuple(range(half)), tuple(range(half, n_inputs))


@cache
def generic_rank(depth: int, width: int, heads: int, n_inputs: int,
                 residual: bool = False) -> SeparationRankResult:
    """Certified generic separation rank (see module docstring), cached across claims."""
    net = LinearAttention.random(depth=depth, width=width, heads=heads, residual=residual,
                                 seed=network_seed(depth, width, heads))
    return net.separation_rank(position=0, coordinate=0,
                               partition=balanced_first_half(n_inputs),
                               n_inputs=n_inputs, seed=TEMPLATE_SEED, keep_witness=True)


def generic_certificates(configs: tuple[tuple[int, int, int, int], ...],
                         residual: bool = False) -> dict[str, dict[str, Any]]:
    """The certificates of the generic ranks of ``configs`` up to
    :data:`CERTIFIED_RANK_LIMIT` (network weights, templates, a non-zero minor)."""
    out = {}
    for L, d, H, N in configs:
        r = generic_rank(L, d, H, N, residual)
        if r.rank <= CERTIFIED_RANK_LIMIT:
            name = f"sep L={L} d_x={d} H={H} N={N}" + (" residual" if residual else "")
            out[name] = r.certificate(statement=f"{name}: sep >= {r.rank} for this "
                                         "random integer network (balanced partition, i = p = 0)")
    return out


def agrees_with_printed(measured: float, printed: str) -> bool:
    """``measured`` is within one unit of the last digit of the printed decimal ``printed``.

    >>> agrees_with_printed(0.85493, "0.854"), agrees_with_printed(0.8565, "0.854")
    (True, False)
    >>> agrees_with_printed(2.56e10, "2.5e10")
    True
    """
    value = Decimal(printed)
    unit = Decimal(1).scaleb(value.as_tuple().exponent)  # type: ignore[arg-type]
    return abs(Decimal(repr(float(measured))) - value) <= unit
