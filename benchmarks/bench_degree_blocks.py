"""Degree blocks against one dense grid; the GF(p) evaluator against its arithmetic limit.

Four parts, each variant in a fresh subprocess (so peak memory is per variant), one machine,
one run (the load average is recorded, with CPU time beside wall time: the machine may be
shared):

* ``cost``  -- certified in-context seq-sep (H = 1, N = 1, the networks of ``bench_incontext``)
  for growing PB: the dense engine's round (one PB-sized grid, then its GF(p) rank) against the
  degree blocks (:mod:`seprank.separation.blocks`: one sweep of scaled grids, then one rank per
  block), grid and rank timed separately, and the fitted exponent of each cost in PB;
* ``evaluator`` -- evaluations of Z_in per second at (d_x, L) = (5, 3) for the int64 numpy
  evaluator (the one before the compiled kernel), the compiled float64 kernel and the kernel
  written out for the network's shape (:mod:`seprank.incontext.kernel_unrolled`), against the
  arithmetic limit: multiply-adds per evaluation over the machine's float64 FMA rate
  (measured with a one-thread ``dgemm``);
* ``primes`` -- flint's ``nmod_mat`` rank time against the prime's size (and the float64 BLAS
  rank of :mod:`seprank.core.modfloat` beside it);
* ``frontier`` (``--frontier``) -- certified seq-sep at (5, 3), (3, 4), (6, 3), (4, 4) with
  the blocks (time, CPU time, peak memory, load, whether the generic network attains PB), and
  the position separation ranks of 003's networks with N = 2 at the largest sizes.

Usage: ``python -m benchmarks degree_blocks [--quick] [--frontier]``.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from typing import Any, Literal

import numpy as np

from benchmarks._util import machine_line, markdown_table, peak_rss_mib, write_result

#: (d_x, L) of the cost sweep: dense and blocks, then blocks only.
COST_BOTH = ((3, 3), (4, 3), (5, 3))
COST_BLOCKS = ((3, 4),)
QUICK_COST = ((2, 3), (3, 3), (4, 3))
FRONTIER = ((5, 3), (3, 4), (6, 3), (4, 4))
#: 003 position separation ranks, N = 2: (d_x, H, L).
POSITION = ((4, 1, 3), (4, 2, 3), (4, 4, 3), (5, 1, 3), (3, 1, 4), (3, 3, 4))
PRIME_BITS = (16, 20, 22, 24, 25, 26, 28, 30, 31, 32, 40, 50, 62)
SEED = 7
GIB = 2**30


def _rep(d_x: int, L: int, heads: int = 1) -> Any:
    from seprank.incontext.representation import InContextRepresentation

    return InContextRepresentation.random(depth=L, width=d_x, heads=heads, n_tokens=1,
                                          seed=SEED)


def generic_rep(d_x: int, L: int, seed: int = SEED) -> Any:
    """A representation as a user builds one with the public API: a random network
    (``LinearAttention.random``), a random nonzero integer ``d_x x 2`` embedding and two
    one-token sentences of *distinct* tokens (S1 = (0,), S2 = (1,))."""
    from seprank import LinearAttention
    from seprank.incontext.representation import InContextRepresentation, random_embedding

    net = LinearAttention.random(depth=L, width=d_x, heads=1, seed=seed)
    return InContextRepresentation(net, random_embedding(d_x, 2, seed=seed + 1), [0], [1])


def counts(result: Any) -> dict[str, Any]:
    """The work of a degree-block run in counts (robust under load): blocks and their
    shapes, evaluations of Z_in by kernel, shared sweeps, the entries ranked and the LU
    multiply-adds (:func:`benchmarks.bench_gpu_projection.lu_multiply_adds` of each round's
    shape and rank)."""
    from benchmarks.bench_gpu_projection import lu_multiply_adds

    e = result.engine
    rounds = [(h.rows, h.cols, h.rank) for h in e.history]
    return {"n_blocks": len(e.blocks), "n_rounds": len(rounds),
            "shapes": sorted((r, c) for r, c, _ in rounds),
            "sweep_pairs": int(e.details.get("sweep_pairs", 0)),
            "sweep_runs": list(e.details.get("sweep_runs", ())),
            "kernel_pairs": dict(result.details.get("grid_kernel_pairs", {})),
            "lu_madds": sum(lu_multiply_adds(r, c, min(k, r, c)) for r, c, k in rounds),
            "entries_ranked": sum(r * c for r, c, _ in rounds),
            "sweep_note": e.details.get("sweep", "")}


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(t: tuple[float, float]) -> dict[str, float]:
    return {"wall": time.perf_counter() - t[0], "cpu": time.process_time() - t[1]}


def variant(name: str, args: list[str]) -> dict[str, Any]:
    """One measurement (run in a subprocess by :func:`main`)."""
    from seprank.core.domains import ModularDomain
    from seprank.incontext.seq_sep import incontext_seq_sep
    from seprank.separation import Budget

    load = os.getloadavg()[0]
    out: dict[str, Any]
    if name in ("dense", "blocks", "frontier"):
        d_x, L = int(args[0]), int(args[1])
        # optional 5th argument: 'bench' (the default) or 'generic' (:func:`generic_rep`)
        rep = generic_rep(d_x, L) if len(args) > 4 and args[4] == "generic" else _rep(d_x, L)
        pb = rep.bound()
        if name == "dense":  # the dense engine's round, grid and rank timed apart
            from seprank.incontext.modular import modular_grid

            F = ModularDomain(16777259)
            T = F.templates(np.random.default_rng(1), pb + max(8, pb // 20), d_x)
            t = _clock()
            G = modular_grid(rep, T, T, F)
            grid = _since(t)
            t = _clock()
            rank = F.rank(G).rank
            out = {"grid": grid, "rank_step": _since(t)}
        else:
            from threadpoolctl import threadpool_limits

            # optional: executor ('serial' or a number of local dask workers), BLAS threads
            executor: Any = args[2] if len(args) > 2 else "serial"
            executor = executor if executor == "serial" else int(executor)
            threads = int(args[3]) if len(args) > 3 else os.cpu_count() or 1
            t = _clock()
            with threadpool_limits(limits=threads, user_api="blas"):
                r = incontext_seq_sep(rep, seed=1, structure="degree", executor=executor,
                                      budget=Budget(max_seconds=None, max_bytes=20 * GIB))
            total = _since(t)
            e: Any = r.engine
            rank = r.rank
            out = {"total": total, "grid_wall": e.details["sweep_seconds"],
                   "executor": e.details["executor"], "blas_threads": threads,
                   "on_workers": {str(k): v for k, v in
                                  e.details.get("block_ranks_on_workers", {}).items()},
                   "rank_wall": sum(h.seconds for h in e.history),
                   "largest_block": max(b.bound for b in e.blocks),
                   "certifies": r.certifies, "stop": e.stop_reason, "counts": counts(r),
                   "sentences": [list(rep.first), list(rep.second)],
                   # per block: bound, rank, its rounds (rows, cols, seconds)
                   "blocks": [[b.bound, b.rank, [[h.rows, h.cols, h.seconds]
                                                 for h in b.history]] for b in e.blocks]}
        out.update({"d_x": d_x, "L": L, "PB": pb, "rank": rank})
    elif name == "position":
        from seprank import LinearAttention
        from seprank.d2w.theorems import theorem2_lower, theorem2_upper, theorem3_upper
        from seprank.incontext.representation import InContextRepresentation

        d_x, H, L = (int(a) for a in args)
        # the claims' network (paper_checks/claims/d2w/common.py) on N = 2 free inputs
        # x1 = a, x2 = b: Z_in with an embedding of ones, output y^1_1
        net = LinearAttention.random(depth=L, width=d_x, heads=H, seed=2020 + 97 * L
                                     + 13 * d_x + H)
        rep = InContextRepresentation(net, np.ones((d_x, 1), dtype=int), [0], [0])
        t = _clock()
        r = incontext_seq_sep(rep, seed=1, structure="degree",
                              budget=Budget(max_seconds=None, max_bytes=20 * GIB))
        out = {"time": _since(t), "d_x": d_x, "H": H, "L": L, "rank": r.rank,
               "block_bound": getattr(r.engine, "block_bound", None), "certifies": r.certifies,
               "thm3": str(theorem3_upper(width=d_x, depth=L, heads=H).value),
               "log3_thm2_upper": float(theorem2_upper(width=d_x, depth=L, heads=H).log3),
               "log3_thm2_lower": float(theorem2_lower(width=d_x, depth=L, heads=H).log3)}
    elif name == "project":
        out = _project(int(args[0]), int(args[1]))
    elif name == "evaluator":
        out = _evaluator(int(args[0]), int(args[1]), int(args[2]))
    elif name == "primes":
        out = _primes(int(args[0]))
    else:
        raise ValueError(name)
    out.update({"peak_mib": peak_rss_mib(), "load": [load, os.getloadavg()[0]]})
    return out


def _fma_count(d: int, L: int, heads: int = 1) -> int:
    """Multiply-adds of one Z_in evaluation (N = 1) in the kernel: layer 1's cross terms, each
    later layer's Gram entries, and layers 2..L by the map T or head by head, whichever the
    kernel picks (the cheaper, :func:`seprank.incontext.modular.modular_grid_balanced`)."""
    tri, n2 = d * (d + 1) // 2, 2
    by_map = (L - 2) * (d * d * tri + n2 * d * d) + d * tri
    by_heads = (L - 2) * 3 * n2 * heads * d * d + heads * (2 * d * d + d)
    return 2 * d * d + (L - 1) * n2 * tri + min(by_map, by_heads)


def _evaluator(d_x: int, L: int, z: int) -> dict[str, Any]:
    from threadpoolctl import threadpool_limits

    from seprank.core.domains import ModularDomain
    from seprank.incontext.modular import modular_grid

    rep, F = _rep(d_x, L), ModularDomain(16777259)
    T = F.templates(np.random.default_rng(0), z, d_x)
    modular_grid(rep, T[:8], T[:8], F)  # compile / load the kernel
    out: dict[str, Any] = {"fma_per_eval": _fma_count(d_x, L), "evals": z * z}
    kernels: tuple[Literal["numpy", "compiled"], ...] = ("numpy", "compiled")
    for kernel in kernels:
        t = _clock()
        modular_grid(rep, T, T, F, kernel=kernel)
        out[kernel] = _since(t)
    from seprank.incontext.modular import modular_grid_balanced

    t = _clock()
    modular_grid_balanced(rep, T[:8], T[:8], F, unrolled=True)  # compile this shape
    out["unrolled_compile"] = _since(t)
    t = _clock()
    modular_grid_balanced(rep, T, T, F, unrolled=True)
    out["unrolled"] = _since(t)
    with threadpool_limits(1):
        n = 1500
        X = np.random.default_rng(0).standard_normal((n, n))
        X @ X
        t = _clock()
        for _ in range(3):
            X @ X
        out["fma_per_s_one_core"] = 3 * n**3 / _since(t)["wall"]
    return out


def block_sides(d_x: int, L: int) -> list[int]:
    """The first-round sides of the in-context blocks at (d_x, L): bound + 8 per block."""
    from seprank.incontext.bounds import monomial_count

    C = (3**L - 1) // 2
    return [min(monomial_count(d_x, 2 * k + 1), monomial_count(d_x, 2 * C - 2 * k)) + 8
            for k in range(C + 1)]


def _project(d_x: int, L: int) -> dict[str, Any]:
    """Projected CPU time and memory of the blocks at (d_x, L) from measured rates: the
    compiled kernel's time per evaluation on a (C+1)*300 x 300 scaled grid and flint's rank
    and build times on a 2000-square matrix (rank ~ n^3, build ~ n^2)."""
    from seprank.core.domains import ModularDomain
    from seprank.incontext.modular import modular_grid_balanced

    rep, F = _rep(d_x, L), ModularDomain(16777259)
    C = (3**L - 1) // 2
    sizes = block_sides(d_x, L)
    z = 300
    T = F.templates(np.random.default_rng(0), z, d_x)
    modular_grid_balanced(rep, T[:4], T[:4], F)
    scaled = np.concatenate([np.mod(T * t, F.p) for t in range(1, C + 2)])
    t = _clock()
    modular_grid_balanced(rep, scaled, T, F)
    per_eval = _since(t)["cpu"] / (len(scaled) * z)
    from seprank.core.inputs import as_exact_matrix

    n = 2000
    M = np.random.default_rng(1).integers(0, F.p, (n, n))
    t = _clock()
    A = as_exact_matrix(M).modular_matrix(F.p)
    build = _since(t)["cpu"] / n**2
    t = _clock()
    A.rank()
    rank = _since(t)["cpu"] / n**3
    n_max = max(sizes)
    return {"d_x": d_x, "L": L, "blocks": C + 1, "largest": n_max - 8,
            "evaluations": (C + 1) * n_max**2, "cpu_per_eval_us": per_eval * 1e6,
            "sweep_cpu_s": (C + 1) * n_max**2 * per_eval,
            "rank_cpu_s": sum(m**3 for m in sizes) * rank,
            "build_cpu_s": sum(m**2 for m in sizes) * build,
            "store_GiB": 4 * sum(m**2 for m in sizes) / GIB,
            "largest_rank_step_GiB": n_max**2 * 8 * 3.5 / GIB}


def _primes(n: int) -> dict[str, Any]:
    import flint

    from seprank.core.inputs import as_exact_matrix
    from seprank.core.modfloat import float_rank_mod_p
    from seprank.core.random import random_prime

    rng = np.random.default_rng(0)
    rows = []
    for bits in PRIME_BITS:
        p = random_prime(rng, bits)
        M = rng.integers(0, min(p, 2**62), (n, n))
        t = _clock()
        A = as_exact_matrix(M).modular_matrix(p)
        build = _since(t)
        t = _clock()
        rank = int(A.rank())
        rows.append({"bits": bits, "build": build, "rank": _since(t), "r": rank})
        del A
    p = random_prime(rng, 25)
    M = rng.integers(0, p, (n, n))
    t = _clock()
    float_rank_mod_p(M, p)
    return {"n": n, "rows": rows, "float_blas_25_bits": _since(t), "flint": flint.__version__}


def _run(name: str, *args: Any) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "benchmarks.bench_degree_blocks", "--variant", name,
           *map(str, args)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"{name} {args}: {result}", file=sys.stderr, flush=True)
    return result


def _slope(xs: list[float], ys: list[float]) -> float:
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0]) if len(xs) > 1 else math.nan


def _s(t: dict[str, float]) -> str:
    return f"{t['wall']:.1f} s (CPU {t['cpu']:.1f} s)"


def main(argv: list[str]) -> int:
    if "--variant" in argv:
        i = argv.index("--variant")
        print(json.dumps(variant(argv[i + 1], argv[i + 2:])))
        return 0
    quick = "--quick" in argv
    both = QUICK_COST if quick else COST_BOTH
    lines = ["# Degree blocks against dense grids", "", f"{machine_line()}. Load average "
             "(1 min) at the start and end of each variant in the tables; wall and CPU time.", ""]
    dense = [_run("dense", *c) for c in both]
    blocks = [_run("blocks", *c) for c in (both if quick else both + COST_BLOCKS)]
    rows = []
    for b in blocks:
        d = next((x for x in dense if x["PB"] == b["PB"]), None)
        rows.append([f"({b['d_x']}, {b['L']})", b["PB"], b["largest_block"], b["rank"],
                     _s(d["grid"]) if d else "—", _s(d["rank_step"]) if d else "—",
                     f"{d['peak_mib']:.0f}" if d else "—", f"{b['grid_wall']:.1f} s",
                     f"{b['rank_wall']:.1f} s", _s(b["total"]), f"{b['peak_mib']:.0f}",
                     f"{b['load'][0]:.1f}-{b['load'][1]:.1f}"])
    pbs = [float(d["PB"]) for d in dense]
    fit = {"dense grid": _slope(pbs, [d["grid"]["cpu"] for d in dense]),
           "dense rank": _slope(pbs, [d["rank_step"]["cpu"] for d in dense]),
           "block grid": _slope([float(b["PB"]) for b in blocks if b["L"] == 3],
                                [b["grid_wall"] for b in blocks if b["L"] == 3]),
           "block rank": _slope([float(b["PB"]) for b in blocks if b["L"] == 3],
                                [b["rank_wall"] for b in blocks if b["L"] == 3])}
    big = dense[-1]
    match = next(b for b in blocks if b["PB"] == big["PB"])
    lines += [markdown_table(["(d_x, L)", "PB", "largest block", "certified rank",
                              "dense grid", "dense rank", "dense peak MiB", "block grid",
                              "block ranks", "block end to end", "block peak MiB", "load"],
                             rows), "",
              "Fitted exponents of cost in PB (L = 3): " + ", ".join(
                  f"{k} {v:.2f}" for k, v in fit.items()) + ".",
              f"Rank step at PB = {big['PB']}: dense {big['rank_step']['wall']:.1f} s, blocks "
              f"{match['rank_wall']:.1f} s: {big['rank_step']['wall'] / match['rank_wall']:.1f}x "
              "(wall).", ""]
    ev = _run("evaluator", 5, 3, 600 if quick else 1200)
    limit = ev["fma_per_eval"] / ev["fma_per_s_one_core"]
    lines += ["## Evaluator, (d_x, L) = (5, 3)", "", markdown_table(
        ["kernel", "us per evaluation (wall)", "us per evaluation (CPU, all threads)",
         "x arithmetic limit (CPU)"],
        [[k, f"{ev[k]['wall'] / ev['evals'] * 1e6:.3f}", f"{ev[k]['cpu'] / ev['evals'] * 1e6:.3f}",
          f"{ev[k]['cpu'] / ev['evals'] / limit:.1f}"] for k in ("numpy", "compiled", "unrolled")]),
        "", f"Arithmetic limit: {ev['fma_per_eval']} multiply-adds per evaluation at "
        f"{ev['fma_per_s_one_core'] / 1e9:.1f} G multiply-adds/s (one-thread dgemm) = "
        f"{limit * 1e6:.3f} us per evaluation per core. Compiled / numpy throughput: "
        f"{ev['numpy']['cpu'] / ev['compiled']['cpu']:.1f}x (CPU), "
        f"{ev['numpy']['wall'] / ev['compiled']['wall']:.1f}x (wall); unrolled / compiled: "
        f"{ev['compiled']['cpu'] / ev['unrolled']['cpu']:.1f}x (CPU), compiling the unrolled "
        f"kernel for this shape {ev['unrolled_compile']['wall']:.1f} s.", ""]
    pr = _run("primes", 1000 if quick else 2000)
    lines += [f"## flint nmod_mat rank vs prime size (n = {pr['n']}, python-flint "
              f"{pr['flint']})", "", markdown_table(
                  ["bits", "build (CPU)", "rank (CPU)"],
                  [[r["bits"], f"{r['build']['cpu']:.2f} s", f"{r['rank']['cpu']:.2f} s"]
                   for r in pr["rows"]]),
              "", f"float64 BLAS rank (seprank.core.modfloat), 25-bit prime: "
              f"{_s(pr['float_blas_25_bits'])}.", ""]
    if "--frontier" in argv:
        lines += _frontier()
    text = "\n".join(lines)
    print(text)
    print(f"written to {write_result('degree_blocks' + ('_quick' if quick else ''), text)}")
    return 0


def _frontier() -> list[str]:
    rows = []
    for d_x, L in FRONTIER:
        try:
            f = _run("blocks", d_x, L)
        except subprocess.CalledProcessError as err:
            rows.append([f"({d_x}, {L})", "—", "—", "—", "—", f"failed: {err.stderr[-200:]}",
                         "—", "—"])
            continue
        rows.append([f"({d_x}, {L})", f["PB"], f["largest_block"], f["rank"],
                     "yes" if f["rank"] == f["PB"] else "no", _s(f["total"]),
                     f"{f['peak_mib'] / 1024:.2f} GiB", f"{f['load'][0]:.1f}-{f['load'][1]:.1f}"])
    pos = [_run("position", *c) for c in POSITION]
    return ["## Frontier: certified in-context seq-sep (H = 1, N = 1)", "", markdown_table(
        ["(d_x, L)", "PB", "largest block", "certified rank", "attains PB", "time",
         "peak memory", "load"], rows), "",
        "## 003: position separation ranks, N = 2, partition ({x1}, {x2})", "",
        markdown_table(["(d_x, H, L)", "certified rank", "sum of block bounds", "certifies",
                        "Thm 3 upper", "log3 Thm 2 upper", "log3 Thm 2 lower", "time"],
                       [[f"({p['d_x']}, {p['H']}, {p['L']})", p["rank"], p["block_bound"],
                         p["certifies"], p["thm3"], f"{p['log3_thm2_upper']:.1f}",
                         f"{p['log3_thm2_lower']:.1f}", _s(p["time"])] for p in pos]), ""]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
