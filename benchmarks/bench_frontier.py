"""The in-context frontier in one command: ``python -m benchmarks frontier``.

Certified in-context seq-sep (H = 1, N = 1, the networks of ``bench_degree_blocks``) by degree
blocks at each size of ``--sizes`` (default (5, 3) and (3, 4)), and the dense engine's round
(one PB-sized grid, then its GF(p) rank) at each size of ``--dense`` (default (5, 3); about
3 minutes and 4.5 GiB there), each in a fresh subprocess (peak memory per variant), one run
each, with the load average and the thread settings.  Printed ratios, at the sizes measured
both ways:

* rank step, dense / blocks (wall and CPU are the subprocess' own), against the arithmetic
  prediction :math:`PB^3 / \\sum_{\\text{rounds}} r\\,c\\,\\min(r, c)` over every growth round
  of every block (the cost of a rank of an r x c matrix is r c min(r, c));
* the per-block overhead: measured block rank time over predicted (the dense rank step's rate
  per multiply-add applied to the blocks' rounds), with the number of blocks and rounds, and
  the time of the blocks whose rounds are below 1% of the largest (small blocks' fixed cost).

With ``--dask=6x3`` (default none) the blocks at that size run three ways, each in a fresh
subprocess: serially on one FLINT thread (the blocks one after another on one core), serially
with the default (one FLINT thread per core), and with ``executor=2`` (two local dask worker
processes, one thread each); the speed-ups of the rank step and end to end are printed, and
the measured one-thread cost per multiply-add of the block ranks and per evaluation of the
sweep are projected to a cluster of 16 and 64 workers at (4, 4), (7, 3) and (3, 5)
(:func:`project`: longest-processing-time-first makespan of the block ranks; the sweep as run
here, in the calling process on this machine's cores, and as it would take split over the
workers -- not implemented).

With ``--representation=generic`` (or ``both``) the blocks also run through the public call
``incontext_seq_sep(rep, structure='degree')`` on a representation built as a user builds one
(:func:`benchmarks.bench_degree_blocks.generic_rep`: ``LinearAttention.random``, a random
nonzero integer embedding, distinct tokens for the two sentences), each size in its own
subprocess, and the two are printed side by side: wall / CPU / peak / load, and the work in
counts (blocks, rounds, evaluations of Z_in by kernel, shared sweeps, the eliminations' LU
multiply-adds and the entries ranked), which do not depend on the load.

Usage: ``python -m benchmarks frontier [--sizes=5x3,3x4] [--dense=5x3] [--dask=6x3]
[--representation=bench|generic|both]`` (``--dense=`` for none).  Larger sizes:
``--sizes=6x3,4x4`` (minutes to an hour on 2 cores).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from benchmarks._util import machine_line, markdown_table, write_result
from benchmarks.bench_degree_blocks import _fma_count, _run, _s, block_sides
from benchmarks.bench_estimation import load_line, thread_line


def _sizes(argv: list[str], name: str, default: str) -> list[tuple[int, int]]:
    vals = [a.split("=", 1)[1] for a in argv if a.startswith(f"--{name}=")]
    text = vals[0] if vals else default
    return [(int(a), int(b)) for a, b in (t.split("x") for t in text.split(",") if t)]


def _round_cost(blocks: list[Any]) -> float:
    return float(sum(r * c * min(r, c) for _, _, rounds in blocks for r, c, _ in rounds))


def overhead(block: dict[str, Any], dense: dict[str, Any]) -> dict[str, Any]:
    """Block rank time against the dense rank's rate per multiply-add (see the module doc)."""
    pb = block["PB"]
    rounds = [rc for _, _, rs in block["blocks"] for rc in rs]
    rate = dense["rank_step"]["wall"] / float(pb) ** 3          # seconds per multiply-add
    predicted = rate * _round_cost(block["blocks"])
    biggest = max(r * c * min(r, c) for r, c, _ in rounds)
    small = sum(t for r, c, t in rounds if r * c * min(r, c) < 0.01 * biggest)
    multi = sum(t for _, _, rs in block["blocks"] if len(rs) > 1 for _, _, t in rs[:-1])
    return {"predicted_ratio": float(pb) ** 3 / _round_cost(block["blocks"]),
            "measured_ratio": dense["rank_step"]["wall"] / block["rank_wall"],
            "predicted_block_rank": predicted, "measured_block_rank": block["rank_wall"],
            "n_blocks": len(block["blocks"]), "n_rounds": len(rounds),
            "small_rounds_seconds": small, "earlier_rounds_seconds": multi}


#: Sizes and cluster widths of the projection.
PROJECT_SIZES = ((4, 4), (7, 3), (3, 5))
PROJECT_WORKERS = (2, 16, 64)


def lpt_makespan(sides: list[int], workers: int) -> float:
    """Multiply-adds n^3 on the busiest of ``workers`` identical workers when square blocks of
    these sides are placed by :func:`seprank.separation.distributed.assign_blocks` (longest
    processing time first)."""
    from seprank.separation.distributed import assign_blocks

    names = [f"w{i}" for i in range(workers)]
    where = assign_blocks({k: (n, n) for k, n in enumerate(sides)}, names)
    return max(sum(float(sides[k]) ** 3 for k, w in where.items() if w == name)
               for name in names)


def project(d_x: int, L: int, per_madd: float, per_fma_eval: float,
            cores_here: int) -> dict[str, Any]:
    """Wall time of the blocks at (d_x, L) from measured one-thread rates: the block ranks
    (``per_madd`` seconds per multiply-add n^3) as an LPT makespan on k workers, and the
    sweep ((C + 1) m_max^2 evaluations of ``_fma_count`` multiply-adds at ``per_fma_eval``
    seconds each) on this machine's cores, or split over k workers."""
    sides = block_sides(d_x, L)
    costs = [per_madd * float(n) ** 3 for n in sides]
    sweep_cpu = len(sides) * max(sides) ** 2 * _fma_count(d_x, L) * per_fma_eval
    return {"size": (d_x, L), "blocks": len(sides), "largest": max(sides) - 8,
            "rank_cpu": sum(costs), "largest_rank": max(costs), "sweep_cpu": sweep_cpu,
            "sweep_here": sweep_cpu / cores_here,
            "ranks_on": {k: per_madd * lpt_makespan(sides, k) for k in PROJECT_WORKERS},
            "store_gib": 4 * sum(n * n for n in sides) / 2**30,
            "largest_worker_gib": 12 * max(sides) ** 2 / 2**30}


def projected_peak_bytes(sides: list[int]) -> int:
    """Peak bytes of the serial blocks (square grids of these sides, one shared sweep, ranked
    smallest first and widened in place) by the engine's own estimators: the larger of the
    sweep (every int32 grid and its temporaries) and, for each block ranked, the grids still
    cached beside its rank step (:func:`seprank.separation.blocks.rank_step_bytes`).  The
    interpreter's own memory is not counted."""
    from seprank.separation.blocks import CHUNK_BYTES, rank_step_bytes

    order = sorted(sides)
    store = [4 * n * n for n in order]
    sweep = sum(store) + min(CHUNK_BYTES, 32 * len(order) * order[-1] ** 2)
    ranks = [rank_step_bytes(n, n, in_place=True) + sum(store[i + 1:])
             for i, n in enumerate(order)]
    return max(sweep, *ranks)


def _dask_lines(s: tuple[int, int]) -> list[str]:
    one = _run("blocks", *s, "serial", 1)
    default = _run("blocks", *s, "serial", os.cpu_count() or 1)
    dk = _run("blocks", *s, 2, 1)
    rows = [[name, r["executor"], r.get("blas_threads", r.get("flint_threads")),
             _s(r["total"]), f"{r['grid_wall']:.1f} s",
             f"{r['rank_wall']:.1f} s", f"{r['peak_mib'] / 1024:.2f} GiB",
             f"{r['load'][0]:.1f}-{r['load'][1]:.1f}"]
            for name, r in (("serial, 1 thread", one), ("serial, default", default),
                            ("dask, 2 workers", dk))]
    lines = [f"### Blocks of one rank on dask at ({s[0]}, {s[1]}) (PB = {one['PB']}, certified "
             f"{one['rank']} / {default['rank']} / {dk['rank']})", "", markdown_table(
                 ["variant", "executor", "BLAS threads", "end to end", "sweep (wall)",
                  "rank step (wall)", "peak (calling process)", "load"], rows), ""]
    for name, base in (("serial on 1 thread", one), ("serial, default threads", default)):
        lines.append(f"**dask on 2 workers against {name}: rank step "
                     f"{base['rank_wall'] / dk['rank_wall']:.2f}x, end to end "
                     f"{base['total']['wall'] / dk['total']['wall']:.2f}x.**")
    madds = sum(float(r) * c * min(r, c) for _, _, rs in one["blocks"] for r, c, _ in rs)
    per_madd = one["rank_wall"] / madds
    sides = [rs[-1][0] for _, _, rs in one["blocks"]]
    ceiling = sum(float(n) ** 3 for n in sides) / lpt_makespan(sides, 2)
    lines += ["", f"The ceiling of whole blocks on 2 workers here: total / LPT makespan of "
              f"n^3 = {ceiling:.2f}x (the largest block is "
              f"{max(sides) ** 3 / sum(n**3 for n in sides):.0%} of the arithmetic). Per-block "
              "worker seconds (dask): " + ", ".join(
                  f"{v['shape'][0]}: {v['wall']:.1f} s" for v in sorted(
                      dk["on_workers"].values(), key=lambda v: -v["shape"][0])[:6]) + ".", ""]
    C = (3**s[1] - 1) // 2
    evals = (C + 1) * max(sides) ** 2
    cores = os.cpu_count() or 1
    per_fma_eval = one["grid_wall"] * cores / (evals * _fma_count(*s))
    lines += [f"Measured one-thread rates (serial, 1 FLINT thread): rank {per_madd * 1e12:.1f} "
              f"ps per multiply-add ({1e-9 / per_madd:.1f} G/s); sweep "
              f"{per_fma_eval * 1e12:.1f} ps per evaluation multiply-add per core "
              f"({one['grid_wall']:.1f} s on {cores} cores for {evals:,} evaluations).", "",
              "Projection (wall; ranks as the LPT makespan of n^3 at the measured rate; the "
              "sweep as implemented runs in the calling process):", ""]
    prow = []
    for d_x, L in PROJECT_SIZES:
        pr = project(d_x, L, per_madd, per_fma_eval, cores)
        for k in PROJECT_WORKERS:
            prow.append([f"({d_x}, {L})", pr["blocks"], pr["largest"], k,
                         f"{pr['ranks_on'][k] / 60:.1f} min",
                         f"{pr['sweep_here'] / 60:.1f} min",
                         f"{(pr['sweep_here'] + pr['ranks_on'][k]) / 60:.1f} min",
                         f"{(pr['sweep_cpu'] / k + pr['ranks_on'][k]) / 60:.1f} min",
                         f"{pr['largest_rank'] / 60:.1f} min",
                         f"{pr['store_gib']:.1f} GiB", f"{pr['largest_worker_gib']:.1f} GiB"])
    lines += [markdown_table(
        ["size", "blocks", "largest block", "workers", "ranks", "sweep here",
         "total (sweep here)", "total (sweep split, not implemented)",
         "largest block alone", "cache (calling process)", "largest block on its worker"],
        prow), ""]
    return lines


#: Representations of ``--representation=``: the benchmark's own, the public call's generic.
REPRESENTATIONS = {"bench": ("bench",), "generic": ("generic",), "both": ("bench", "generic")}


def representation_lines(runs: dict[tuple[str, tuple[int, int]], dict[str, Any]]) -> list[str]:
    """The table of ``--representation``: one row per (representation, size), time and
    counts side by side."""
    rows = []
    for (kind, (d, L)), b in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        c = b["counts"]
        rows.append([f"({d}, {L})", kind, f"S1={b['sentences'][0]}, S2={b['sentences'][1]}",
                     b["PB"], b["rank"], b["certifies"], _s(b["total"]),
                     f"{b['peak_mib'] / 1024:.2f} GiB",
                     f"{b['load'][0]:.1f}-{b['load'][1]:.1f}", c["n_blocks"], c["n_rounds"],
                     f"{c['sweep_pairs']:,} in {len(c['sweep_runs'])} sweep(s)",
                     ", ".join(f"{k} {v:,}" for k, v in c["kernel_pairs"].items()),
                     f"{c['lu_madds']:.4g}", f"{c['entries_ranked']:,}"])
    return ["### The benchmark's representation against a generic one (public call)", "",
            markdown_table(["size", "representation", "sentences", "PB", "certified rank",
                            "certifies", "end to end", "peak", "load", "blocks", "rounds",
                            "Z_in evaluations (sweeps)", "evaluations by kernel",
                            "LU multiply-adds", "entries ranked"], rows), ""]


def main(argv: list[str]) -> int:
    sizes = _sizes(argv, "sizes", "5x3,3x4")
    kinds_arg = [a.split("=", 1)[1] for a in argv if a.startswith("--representation=")]
    kinds = REPRESENTATIONS.get(kinds_arg[0] if kinds_arg else "bench")
    if kinds is None:
        print(f"--representation= takes one of {sorted(REPRESENTATIONS)}", file=sys.stderr)
        return 2
    dense_sizes = _sizes(argv, "dense", "5x3")
    head = ["# Frontier: certified in-context seq-sep by degree blocks", "",
            f"{machine_line()}.", "", f"At start: {load_line()}; "
            f"{thread_line(None)}.", ""]
    runs = {(kind, s): _run("blocks", *s, "serial", os.cpu_count() or 1, kind)
            for s in sizes for kind in kinds}
    blocks = {s: r for (kind, s), r in runs.items() if kind == kinds[0]}
    dense = {s: _run("dense", *s) for s in dense_sizes}
    dask_sizes = _sizes(argv, "dask", "")
    rows = [[f"({d}, {L})", b["PB"], b["rank"], "yes" if b["rank"] == b["PB"] else "**no**",
             b["certifies"], _s(b["total"]), f"{b['grid_wall']:.1f} s",
             f"{b['rank_wall']:.1f} s", f"{b['peak_mib'] / 1024:.2f} GiB",
             len(b["blocks"]), b["largest_block"], f"{b['load'][0]:.1f}-{b['load'][1]:.1f}"]
            for (d, L), b in blocks.items()]
    lines = [*head, *representation_lines(runs), markdown_table(
        ["(d_x, L)", "PB", "certified rank", "= PB", "certifies", "end to end", "grids (wall)",
         "rank step (wall)", "peak", "blocks", "largest block", "load"], rows), ""]
    for s, dn in dense.items():
        lines += [f"Dense round at ({s[0]}, {s[1]}): grid {_s(dn['grid'])}, rank step "
                  f"{_s(dn['rank_step'])}, peak {dn['peak_mib'] / 1024:.2f} GiB, load "
                  f"{dn['load'][0]:.1f}-{dn['load'][1]:.1f}."]
        if s in blocks:
            o = overhead(blocks[s], dn)
            end = (dn["grid"]["wall"] + dn["rank_step"]["wall"]) / blocks[s]["total"]["wall"]
            lines += [
                f"**Rank step dense / blocks at ({s[0]}, {s[1]}): {o['measured_ratio']:.1f}x** "
                f"(wall; predicted by the rounds' multiply-adds {o['predicted_ratio']:.1f}x). "
                f"Block ranks {o['measured_block_rank']:.1f} s against "
                f"{o['predicted_block_rank']:.1f} s at the dense rank's rate per multiply-add "
                f"(overhead x{o['measured_block_rank'] / o['predicted_block_rank']:.1f}); "
                f"{o['n_blocks']} blocks, {o['n_rounds']} rounds; rounds below 1% of the "
                f"largest: {o['small_rounds_seconds']:.1f} s; growth rounds before each "
                f"block's last: {o['earlier_rounds_seconds']:.1f} s. End to end dense / "
                f"blocks: {end:.1f}x."]
        lines += [""]
    for (d, L), b in blocks.items():
        lines += [f"Blocks at ({d}, {L}): block bound, rank, rounds as rows x cols in seconds "
                  "(G multiply-adds/s of the rank, r c min(r, c) / time)", "", markdown_table(
                      ["bound", "rank", "rounds"],
                      [[bound, rank, "; ".join(
                          f"{r} x {c} in {t:.3f} s"
                          + (f" ({r * c * min(r, c) / t / 1e9:.1f})" if t > 0.01 else "")
                          for r, c, t in rounds)] for bound, rank, rounds in b["blocks"]]),
                  ""]
    for s in dask_sizes:
        lines += _dask_lines(s)
    lines += ["Projected peak of the serial blocks from their sizes (the engine's estimators; "
              "the interpreter, about 0.3 GiB, not counted): " + ", ".join(
                  f"({d}, {L}) {projected_peak_bytes(block_sides(d, L)) / 2**30:.2f} GiB"
                  for d, L in sorted(set(sizes) | set(PROJECT_SIZES))) + ".", ""]
    lines += [f"At the end: {load_line()}."]
    text = "\n".join(lines)
    print(text)
    print(f"written to {write_result('frontier', text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
