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

Usage: ``python -m benchmarks frontier [--sizes=5x3,3x4] [--dense=5x3]`` (``--dense=`` for
none).  Larger sizes: ``--sizes=6x3,4x4`` (minutes to an hour on 2 cores).
"""

from __future__ import annotations

import sys
from typing import Any

from benchmarks._util import machine_line, markdown_table, write_result
from benchmarks.bench_degree_blocks import _run, _s
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


def main(argv: list[str]) -> int:
    sizes = _sizes(argv, "sizes", "5x3,3x4")
    dense_sizes = _sizes(argv, "dense", "5x3")
    head = ["# Frontier: certified in-context seq-sep by degree blocks", "",
            f"{machine_line()}.", "", f"At start: {load_line()}; "
            f"{thread_line(None)}.", ""]
    blocks = {s: _run("blocks", *s) for s in sizes}
    dense = {s: _run("dense", *s) for s in dense_sizes}
    rows = [[f"({d}, {L})", b["PB"], b["rank"], "yes" if b["rank"] == b["PB"] else "**no**",
             b["certifies"], _s(b["total"]), f"{b['grid_wall']:.1f} s",
             f"{b['rank_wall']:.1f} s", f"{b['peak_mib'] / 1024:.2f} GiB",
             len(b["blocks"]), b["largest_block"], f"{b['load'][0]:.1f}-{b['load'][1]:.1f}"]
            for (d, L), b in blocks.items()]
    lines = [*head, markdown_table(
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
    lines += [f"At the end: {load_line()}."]
    text = "\n".join(lines)
    print(text)
    print(f"written to {write_result('frontier', text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
