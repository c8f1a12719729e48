"""Certificates: the extra cost of finding the witness, and verification vs the computation.

For each case, side by side in one process:

* **compute** -- the certified rank as the library computes it (no witness);
* **+ witness (kept)** -- the same with ``keep_witness=True``: the non-zero minor is found from
  the last grid matrix (one echelon form of it plus one of an r x m matrix); the ratio to the
  rank step of the last round is the "at most one extra rank computation" of issue 18;
* **+ witness (later)** -- a certificate of a result computed without it: the last grid is
  re-evaluated once and the minor found;
* **verify** -- :func:`seprank.certificates.verify`, the independent pure-Python checker
  (recomputes the r^2 entries with its own evaluator and the determinant mod p).

Grid ranks run with the default structure -- degree blocks for network entries and the
in-context representation (certificate kind ``grid_rank_blocks``: one minor per block, whose
r_k^2 values the checker recomputes from 3^L + 1 evaluations each, its own interpolation) --
and, for comparison, a few with ``structure='dense'`` (kind ``grid_rank``: one r x r minor).

Cases: in-context seq-sep (000/001), generic separation ranks of linear attention (003), the
Lemma 6 witness, exact matrix ranks (Hilbert, rank-deficient), a modular rank of a matrix of
250,500 entries (shipped packed), Kruskal ranks (004): every certificate kind.

Usage: ``python -m benchmarks certificates [--quick]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from benchmarks._util import fmt_seconds, machine_line, markdown_table, write_result
from identifiability.masked import kruskal_certificate, kruskal_rank
from seprank import (
    InContextRepresentation,
    LinearAttention,
    incontext_seq_sep,
    lemma6_witness,
    matrix_rank,
)
from seprank.certificates import certify, verify


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def _witness_times(res: Any) -> tuple[float, float]:
    """(last round, kept witness) seconds: of the one grid, or summed over the blocks."""
    blocks = getattr(res, "blocks", ())
    if not blocks:
        return res.history[-1].seconds, res.evidence.kept_minor.seconds
    return (sum(b.history[-1].seconds for b in blocks),
            sum(b.evidence.kept_minor.seconds for b in blocks))


def _grid_row(name: str, run: Callable[[bool], Any],
              engine: Callable[[Any], Any]) -> list[Any]:
    t_plain, plain = _timed(lambda: run(False))
    t_kept, kept = _timed(lambda: run(True))
    res = engine(kept)
    last_round, witness = _witness_times(res)
    t_later, _ = _timed(lambda: engine(plain).certificate())
    cert = res.certificate()
    v = verify(cert)
    assert v.ok, v.reason
    kind = f"{len(res.blocks)} blocks" if getattr(res, "blocks", ()) else "dense"
    return [name, kind, res.rank, f"{res.matrix_shape[0]}x{res.matrix_shape[1]}",
            fmt_seconds(t_plain), fmt_seconds(last_round), fmt_seconds(witness),
            f"{witness / last_round:.2f}", fmt_seconds(t_kept - t_plain), fmt_seconds(t_later),
            fmt_seconds(v.seconds), f"{v.seconds / t_plain:.1f}"]


def _engine_of(r: Any) -> Any:
    return r.engine


def _itself(r: Any) -> Any:
    return r


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    rows = []
    incontext = [(2, 1, 2, 2, "auto"), (4, 1, 2, 2, "auto"), (4, 1, 2, 2, "dense"),
                 (5, 1, 2, 1, "auto"), (5, 1, 2, 1, "dense"), (2, 1, 3, 2, "auto")] + (
                     [] if quick else [(6, 3, 2, 2, "auto"), (6, 3, 2, 2, "dense")])
    for d, H, L, N, structure in incontext:
        rep = InContextRepresentation.random(depth=L, width=d, heads=H, n_tokens=N, seed=d)
        def seq(keep: bool, rep: InContextRepresentation = rep, structure: Any = structure
                ) -> Any:
            return incontext_seq_sep(rep, seed=7, keep_witness=keep, structure=structure)

        rows.append(_grid_row(f"seq-sep d_x={d} H={H} L={L} N={N}", seq, _engine_of))
        print(rows[-1][0], "done", file=sys.stderr, flush=True)
    generic = [(2, 3, 1, 4), (2, 4, 1, 2), (3, 2, 1, 2)] + ([] if quick else [(2, 6, 2, 2)])
    for L, d, H, N in generic:
        net = LinearAttention.random(depth=L, width=d, heads=H, seed=L + d)
        part = (tuple(range(N // 2)), tuple(range(N // 2, N)))
        def sep(keep: bool, net: LinearAttention = net, N: int = N,
                part: tuple[tuple[int, ...], tuple[int, ...]] = part) -> Any:
            return net.separation_rank(position=0, coordinate=0,
                                       partition=part, n_inputs=N, seed=3,
                                       keep_witness=keep)

        rows.append(_grid_row(f"sep L={L} d_x={d} H={H} N={N}", sep, _itself))
        print(rows[-1][0], "done", file=sys.stderr, flush=True)
    header = ["case", "structure", "rank", "largest grid", "compute", "last round",
              "witness (kept)",
              "witness / last round", "extra wall time", "certificate later", "verify",
              "verify / compute"]
    other = []
    for L, d, H, N in [(3, 7, 1, 2), (3, 9, 3, 4)] + ([] if quick else [(3, 11, 1, 2)]):
        t_c, w = _timed(partial(lemma6_witness, d, L, H, N, seed=1))
        t_cert, cert = _timed(w.certificate)
        v = verify(cert)
        assert v.ok, v.reason
        other.append([f"Lemma 6 witness L={L} d_x={d} H={H} N={N}", w.rank, fmt_seconds(t_c),
                      fmt_seconds(t_cert), fmt_seconds(v.seconds), f"{v.seconds / t_c:.1f}"])
    for n in (12, 40) + (() if quick else (80,)):
        hilbert = [[Fraction(1, i + j + 1) for j in range(n)] for i in range(n)]
        rng = np.random.default_rng(n)
        D = rng.integers(-9, 10, (n, n - 3)) @ rng.integers(-9, 10, (n - 3, n))
        cases: tuple[tuple[str, Any], ...] = ((f"Hilbert {n}", hilbert),
                                              (f"rank {n - 3} of {n}x{n}", D))
        for name, M in cases:
            t_c, r = _timed(partial(matrix_rank, M, method="exact"))
            t_cert, cert = _timed(partial(certify, r, matrix=M, seed=0))
            v = verify(cert)
            assert v.ok, v.reason
            other.append([f"exact matrix rank, {name}", r.rank, fmt_seconds(t_c),
                          fmt_seconds(t_cert), fmt_seconds(v.seconds),
                          f"{v.seconds / t_c:.1f}"])
    rng = np.random.default_rng(0)
    big = rng.integers(-9, 10, (501, 3)) @ rng.integers(-9, 10, (3, 500))
    t_c, r = _timed(partial(matrix_rank, big, method="modular", seed=0))
    t_cert, cert = _timed(partial(certify, r, matrix=big))
    v = verify(cert)
    assert v.ok and "matrix_packed" in cert, v.reason
    other.append(["modular matrix rank, rank 3 of 501x500 (packed)", r.rank, fmt_seconds(t_c),
                  fmt_seconds(t_cert), fmt_seconds(v.seconds), f"{v.seconds / t_c:.1f}"])
    for m, n, seed in ((6, 12, 0), (8, 16, 1), (10, 14, 2)):
        A = np.random.default_rng(seed).integers(-5, 6, (m, n))
        t_c, k = _timed(partial(kruskal_rank, A, method="exact"))
        t_cert, cert = _timed(partial(kruskal_certificate, A, k, seed=0))
        v = verify(cert)
        assert v.ok, v.reason
        other.append([f"Kruskal rank of {m}x{n}", k.rank, fmt_seconds(t_c),
                      fmt_seconds(t_cert), fmt_seconds(v.seconds), f"{v.seconds / t_c:.1f}"])
    text = "\n".join([
        "# certificates benchmark", "", machine_line() + ".",
        "Grid ranks: 'compute' without a witness; 'witness (kept)' is the time of finding the "
        "non-zero minor from the last grid matrix (keep_witness=True), compared with that "
        "round's own time (grid + rank); 'extra wall time' is the whole difference between the "
        "two runs (noisy); 'certificate later' re-evaluates the last grid for a result computed "
        "without the witness; 'verify' is the independent pure-Python checker. For degree "
        "blocks (the default) 'last round' and 'witness' are summed over the blocks, and "
        "verification recomputes each block value from 3^L + 1 evaluations.", "",
        markdown_table(header, rows), "",
        "Other certified ranks (witness: the minor; exact matrix ranks add a flint kernel "
        "basis):", "",
        markdown_table(["case", "rank", "compute", "certificate", "verify", "verify / compute"],
                       other)])
    print(text)
    print(f"written to {write_result('certificates', text)}")
    return 0
