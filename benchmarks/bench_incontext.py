"""Certified in-context seq-sep for (d_x = 4, H = 1, L = 3, N = 1): PB = 2380 (issue 4).

Variants, each in a fresh subprocess (so peak memory is per variant), on the same network:

* ``fast``   -- :func:`seprank.incontext_seq_sep` (method ``'modular'``): one GF(p)
  round with PB + 8 templates per side through the structure-of-arrays grid evaluator
  (:mod:`seprank.incontext.modular`), then the flint rank.  Target: <= 20 s end to end.
* ``engine`` -- the baseline: :func:`seprank.separation_rank` with ``upper_bound=PB`` on the
  generic :class:`~seprank.LinearAttention` evaluation over GF(p) (the foundation's path).
* ``svd``    -- the float answer beside it: float64 grid of the same size, SVD rank with numpy's
  default tolerance (certifies nothing).

Usage: ``python -m benchmarks incontext [--quick]`` (``--quick``: d_x = 3, PB = 560).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import numpy as np

from benchmarks._util import fmt_seconds, machine_line, markdown_table, peak_rss_mib, write_result

FULL = {"width": 4, "depth": 3, "heads": 1, "n_tokens": 1, "seed": 7}
QUICK = {"width": 3, "depth": 3, "heads": 1, "n_tokens": 1, "seed": 7}
TARGET_SECONDS = 20.0


def run_variant(name: str, setting: dict[str, int]) -> dict[str, object]:
    from seprank import separation_rank
    from seprank.core.domains import matrix_rank
    from seprank.incontext.representation import InContextRepresentation
    from seprank.incontext.seq_sep import incontext_seq_sep

    rep = InContextRepresentation.random(depth=setting["depth"], width=setting["width"],
                                         heads=setting["heads"], n_tokens=setting["n_tokens"],
                                         seed=setting["seed"])
    pb = rep.bound()
    start = time.perf_counter()
    if name == "fast":
        r = incontext_seq_sep(rep, seed=1)
        out = {"rank": r.rank, "certifies": r.certifies, "shape": r.details.get("matrix_shape"),
               "grid_s": r.details.get("grid_seconds"), "rank_s": r.details.get("rank_seconds")}
    elif name == "engine":
        def generic(X: np.ndarray, *, domain: object = None) -> np.ndarray:
            return rep(X[:, 0], X[:, 1], domain=domain)  # type: ignore[arg-type]

        e = separation_rank(generic, n_inputs=2, dim=rep.width, partition=([0], [1]),
                            upper_bound=pb, seed=1)
        out = {"rank": e.rank, "certifies": "lower_bound (= PB: exact)" if e.rank == pb
               else e.certifies, "shape": e.matrix_shape}
    elif name == "svd":
        z = pb + 8
        A, B = np.random.default_rng(1).standard_normal((2, z, rep.width))
        G = rep.grid(A.astype(float), B.astype(float), domain=None)
        svd = matrix_rank(np.asarray(G, dtype=float), method="svd")
        out = {"rank": svd.rank, "certifies": "none", "shape": (z, z),
               "tolerance": float(svd.details["tolerance"])}
    else:
        raise ValueError(name)
    out.update({"seconds": time.perf_counter() - start, "peak_mib": peak_rss_mib(), "PB": pb})
    return out


def main(argv: list[str]) -> int:
    if "--variant" in argv:
        name = argv[argv.index("--variant") + 1]
        setting = QUICK if "--quick" in argv else FULL
        print(json.dumps(run_variant(name, setting)))
        return 0
    quick = "--quick" in argv
    setting = QUICK if quick else FULL
    results = {}
    for name in ("fast", "engine", "svd"):
        cmd = [sys.executable, "-m", "benchmarks.bench_incontext", "--variant", name]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd + (["--quick"] if quick else []), capture_output=True,
                              text=True, check=True)
        results[name] = json.loads(proc.stdout.strip().splitlines()[-1])
        results[name]["process_s"] = time.perf_counter() - t0
        print(f"{name}: {results[name]}", file=sys.stderr, flush=True)
    base = float(results["engine"]["seconds"])
    rows = [[name, r["rank"], r["PB"], r["certifies"], f"{r['shape']}",
             fmt_seconds(float(r["seconds"])), fmt_seconds(float(r["process_s"])),
             f"{base / float(r['seconds']):.2f}x",
             f"{float(r['peak_mib']):.0f}"] for name, r in results.items()]
    fast_s = float(results["fast"]["process_s"])
    text = "\n".join([
        "# In-context seq-sep benchmark",
        "",
        f"{machine_line()}. Setting (d_x, H, L, N) = ({setting['width']}, {setting['heads']}, "
        f"{setting['depth']}, {setting['n_tokens']}), random integer weights in [-50, 50], "
        "nonzero integer embedding; each variant in its own process (peak RSS per process).",
        f"Target: certified seq-sep = PB in <= {TARGET_SECONDS:.0f} s end to end "
        f"({'met' if fast_s <= TARGET_SECONDS else 'NOT met'}: {fast_s:.1f} s including "
        "interpreter start-up and imports; fast path grid "
        f"{results['fast'].get('grid_s', 0):.1f} s + rank {results['fast'].get('rank_s', 0):.1f}"
        " s). Speed-up column: engine time / variant time.",
        "",
        markdown_table(["variant", "rank", "PB", "certifies", "matrix", "time",
                        "process (incl. start-up)",
                        "speed-up vs engine", "peak MiB"], rows),
        "",
        "The float SVD rank (numpy default tolerance) of a degree-3^L polynomial grid is not "
        "a separation rank: it certifies nothing and typically falls far below PB.",
    ])
    print(text)
    print(f"written to {write_result('incontext' + ('_quick' if quick else ''), text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
