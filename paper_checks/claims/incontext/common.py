"""Shared measurements of the in-context claims (seeds 000/001): the random networks of the PB
claims and their certified seq-sep, computed once per setting and read by ICB-PB-attained
(:mod:`paper_checks.claims.incontext.ranks`) and ICB-PB-blocks
(:mod:`paper_checks.claims.incontext.blocks`).
"""

from __future__ import annotations

from functools import cache

from paper_checks.seeds import setting_seed
from seprank import Budget
from seprank.incontext.bounds import bidegree_bound
from seprank.incontext.representation import InContextRepresentation
from seprank.incontext.seq_sep import SeqSepResult, incontext_seq_sep

#: (d_x, H, L, N, PB by hand from the notes §5 PC-2): the quick settings.
QUICK_SETTINGS = ((2, 1, 1, 1, 3), (2, 1, 1, 2, 3), (3, 1, 1, 2, 4), (2, 1, 2, 1, 15),
                  (2, 1, 2, 3, 15), (3, 1, 2, 2, 35), (4, 1, 2, 2, 70), (4, 2, 2, 1, 70),
                  (4, 4, 2, 2, 70), (5, 1, 2, 1, 126), (6, 3, 2, 2, 210), (2, 1, 3, 2, 105))
#: The full settings.  (5, 3) and (3, 4): beyond the dense frontier, certified by the degree
#: blocks (issue 12); PB by hand: sum_k min(m(2k+1), m(2C-2k)) =
#: 5+35+126+330+715+1365+2380+1820+1001+495+210+70+15+1 = 8568, and for (3, 4)
#: the 41 terms 3+10+...+861+780+...+1 = 12341.
#: (3, 1, 2, 2): PB = 35 <= CERTIFIED_RANK_LIMIT, so the full run ships a certificate too
FULL_SETTINGS = ((3, 1, 2, 2, 35), (6, 6, 2, 2, 210), (8, 1, 2, 1, 495), (3, 1, 3, 1, 560),
                 (4, 1, 3, 1, 2380), (5, 1, 3, 1, 8568), (3, 1, 4, 1, 12341))
#: Seq-sep ranks up to this ship certificates: the checker recomputes, per block of rank r_k,
#: r_k^2 block values of Z_in in pure Python, each from 3^L + 1 evaluations (its own
#: interpolation nodes) -- see benchmarks/bench_certificates.py for the times.
CERTIFIED_RANK_LIMIT = 130


def pb_network(d_x: int, H: int, L: int, N: int) -> InContextRepresentation:
    """The random network of the PB claims at a setting (one seed per setting,
    :func:`paper_checks.seeds.setting_seed`)."""
    return InContextRepresentation.random(depth=L, width=d_x, heads=H, n_tokens=N,
                                          seed=setting_seed(0, "PB network", d_x, H, L, N))


@cache
def pb_result(d_x: int, H: int, L: int, N: int) -> SeqSepResult:
    """Certified seq-sep of a random network by its degree blocks (the default), with every
    block's witness kept for a certificate up to :data:`CERTIFIED_RANK_LIMIT`."""
    rep = pb_network(d_x, H, L, N)
    if certified(d_x, L):
        return incontext_seq_sep(rep, seed=7, keep_witness=True)
    return incontext_seq_sep(rep, seed=7, budget=Budget(max_seconds=None, max_bytes=8 * 2**30))


def certified(d_x: int, L: int) -> bool:
    """Whether the PB claims ship a certificate at depth ``L`` and width ``d_x``."""
    return bidegree_bound(d_x, L) <= CERTIFIED_RANK_LIMIT
