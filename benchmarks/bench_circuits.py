"""Circuits vs the hand-written paths: evaluation speed at (d_x, L) = (5, 3), side by side.

For 003's network (an output entry y^i_p on N = 2 positions) and 000/001's in-context
representation (N = 1 token per sentence), in GF(p) with the engine's 25-bit prime, in one
process, median of a few runs:

* **network entry, batch** -- ``LinearAttention.entry(i, p)(X, domain=F)`` (today's path: int64
  residues, the cheaper association per layer) vs the circuit's evaluator (balanced float64
  residues, :mod:`seprank.circuits.evaluate`) on the same batch;
* **in-context pairs** -- the registered ``'incontext-pairs'`` evaluator (the engine's batch
  function for Z_in) vs the circuit on the same pairs (a, b);
* **in-context rectangular grid** -- the compiled kernel the degree blocks use
  (``modular_grid_balanced``: layer 1 factorised over the grid) vs the circuit on the R x S
  pairs of the same grid (the generic rectangular evaluator of the engine);
* **exact** -- ``LinearAttention`` over Q (object ints) vs the circuit's exact evaluator.

The ratio is circuit / today (below 1: the circuit is faster).  No timed assertion: the table
is the result (``benchmarks/results/circuits.md``).

Usage: ``python -m benchmarks circuits [--quick]``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from benchmarks._util import fmt_seconds, machine_line, markdown_table, median_time, write_result
from seprank import ExactDomain, LinearAttention, ModularDomain
from seprank.circuits import from_incontext, from_linear_attention
from seprank.evaluators import evaluators
from seprank.incontext import InContextRepresentation
from seprank.incontext.modular import modular_grid_balanced

P = 16_777_259
D_X, L = 5, 3


def _row(name: str, batch: str, today: float, circuit: float) -> list[Any]:
    return [name, batch, fmt_seconds(today), fmt_seconds(circuit), f"{circuit / today:.2f}"]


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    repeat = 3 if quick else 7
    F = ModularDomain(P)
    rng = np.random.default_rng(0)
    rows = []

    net = LinearAttention.random(depth=L, width=D_X, seed=1)
    entry = net.entry(0, 0)
    f = from_linear_attention(net, n_inputs=2)
    for batch in ((2048,) if quick else (256, 4096, 32768)):
        X = rng.integers(0, P, (batch, 2, D_X))
        t_today, want = median_time(lambda X=X: entry(X, domain=F), repeat)
        t_circ, got = median_time(lambda X=X: f(X, domain=F), repeat)
        assert np.array_equal(np.asarray(want), got)
        rows.append(_row("003 entry y^0_0, N = 2, GF(p)", f"{batch:,}", t_today, t_circ))

    rep = InContextRepresentation.random(depth=L, width=D_X, n_tokens=1, seed=2)
    g = from_incontext(rep)
    pairs = evaluators(form="incontext_pairs", domain=F)[0]
    for batch in ((2048,) if quick else (256, 4096, 32768)):
        X = rng.integers(0, P, (batch, 2, D_X))
        t_today, want = median_time(lambda X=X: pairs(rep, X[:, 0], X[:, 1], F), repeat)
        t_circ, got = median_time(lambda X=X: g(X, domain=F), repeat)
        assert np.array_equal(np.asarray(want), got)
        rows.append(_row("000/001 Z_in pairs, GF(p)", f"{batch:,}", t_today, t_circ))

    for m in ((48,) if quick else (64, 181)):
        a, b = rng.integers(0, P, (2, m, D_X))
        grid_X = np.stack([np.repeat(a, m, axis=0), np.tile(b, (m, 1))], axis=1)
        t_today, want = median_time(lambda a=a, b=b: modular_grid_balanced(rep, a, b, F),
                                    repeat)
        t_circ, got = median_time(lambda X=grid_X: g(X, domain=F), repeat)
        assert np.array_equal(np.mod(np.asarray(want).astype(np.int64), P).ravel(), got)
        rows.append(_row("000/001 Z_in rectangular grid (compiled kernel), GF(p)",
                         f"{m} x {m}", t_today, t_circ))

    X = rng.integers(-9, 10, (64, 2, D_X))
    exact = ExactDomain()
    t_today, want = median_time(lambda: entry(X, domain=exact), max(1, repeat // 2))
    t_circ, got = median_time(lambda: f(X, domain=exact), max(1, repeat // 2))
    assert list(want) == list(got)
    rows.append(_row("003 entry y^0_0, N = 2, exact", "64", t_today, t_circ))

    text = "\n".join([
        f"# Circuits vs the hand-written paths, (d_x, L) = ({D_X}, {L}), H = 1", "",
        machine_line(), "",
        markdown_table(["evaluation", "batch", "today", "circuit", "ratio circuit/today"], rows),
        "", "ratio < 1: the circuit is faster; every circuit value equals today's."])
    print(text)
    print(f"written to {write_result('circuits' + ('_quick' if quick else ''), text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
