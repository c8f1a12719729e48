"""Tables (CSV + Markdown) and figures of the shipped sweeps, from their records."""

from __future__ import annotations

import csv
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from seprank.sweeps.d2w_ranks import iter_rows

__all__ = ["plot_rank_vs_bound", "rank_table", "write_eta_report", "write_rank_report"]

BOUND_NAMES = ("theorem3", "theorem2_upper", "theorem2_lower", "lemma6", "theorem5_stated",
               "theorem5_proof_product", "theorem5_recursion")


def rank_table(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per case, sorted by (residual, d_x, H, L, N, a).

    Parameters
    ----------
    records : sequence of dict
        The records of a rank sweep (:meth:`SweepResult.to_records`).

    Returns
    -------
    list of dict
        One row per case.

    Examples
    --------
    A two-case sweep run here (seconds), then tabulated:

    >>> from seprank.sweeps import sweep
    >>> from seprank.sweeps.d2w_ranks import rank_case, rank_cases
    >>> cases = rank_cases(max_width=1, max_depth=1, max_inputs=2, residual=(False,))
    >>> records = sweep(rank_case, cases, executor="serial", progress=False).to_records()
    >>> [(r["width"], r["n_inputs"], r["rank"], r["theorem3_verdict"]) for r in rank_table(records)]
    [(1, 2, 2, 'consistent')]
    """
    rows = list(iter_rows(list(records)))
    rows.sort(key=lambda r: (r["residual"], r["width"], r["heads"], r["depth"], r["n_inputs"],
                             r["part_with_output"], r["seed"]))
    return rows


def _markdown(rows: list[dict[str, Any]]) -> str:
    head = ["res", "d_x", "H", "L", "N", "a", "status", "sep >=", "log3 sep", "Thm 3",
            "Thm 2 up", "Thm 2 low", "Lemma 6", "Thm 5 stated", "time s"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def cell(row: dict[str, Any], name: str) -> str:
        verdict = row.get(f"{name}_verdict")
        if verdict in (None, "not_applicable"):
            return ""
        mark = {"consistent": "", "VIOLATED": " **VIOLATED**", "not_confirmed": " (above)",
                "no_rank": ""}.get(verdict, f" {verdict}")
        return f"{row[f'{name}_log3']:.2f}{mark}"

    for r in rows:
        rank = r["rank"]
        lines.append("| " + " | ".join([
            "y" if r["residual"] else "", str(r["width"]), str(r["heads"]), str(r["depth"]),
            str(r["n_inputs"]), str(r["part_with_output"]),
            str(r["status"]) + (f" ({r['budget']})" if r.get("budget") else ""),
            "" if rank is None else str(rank),
            "" if rank is None else f"{math.log(rank, 3):.2f}",
            cell(r, "theorem3"), cell(r, "theorem2_upper"), cell(r, "theorem2_lower"),
            cell(r, "lemma6"), cell(r, "theorem5_stated"),
            "" if r["seconds"] is None else f"{r['seconds']:.1f}"]) + " |")
    return "\n".join(lines)


def plot_rank_vs_bound(rows: list[dict[str, Any]]) -> Any:
    """log3 of the certified rank against log3 of Theorem 3 (plain) / Theorem 5 (residual).

    Parameters
    ----------
    rows : list of dict
        The rows of :func:`rank_table`.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels: plain and residual networks.

    Examples
    --------
    A two-case sweep run here (seconds), then tabulated:

    >>> from seprank.sweeps import sweep
    >>> from seprank.sweeps.d2w_ranks import rank_case, rank_cases
    >>> cases = rank_cases(max_width=1, max_depth=1, max_inputs=2, residual=(False,))
    >>> records = sweep(rank_case, cases, executor="serial", progress=False).to_records()
    >>> fig = plot_rank_vs_bound(rank_table(records))
    >>> [ax.get_xlabel() for ax in fig.axes]
    ['log3 theorem3 bound', 'log3 theorem5 stated bound']
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    for ax, residual, bound in ((axes[0], False, "theorem3"),
                                (axes[1], True, "theorem5_stated")):
        sel = [r for r in rows if r["residual"] == residual and r["rank"]]
        for L, marker in ((1, "o"), (2, "s"), (3, "^")):
            pts = [(r[f"{bound}_log3"], math.log(r["rank"], 3)) for r in sel if r["depth"] == L]
            if pts:
                ax.scatter(*zip(*pts, strict=True), marker=marker, label=f"L = {L}", alpha=0.7)
        over = [r for r in rows if r["residual"] == residual and r["status"] == "over_budget"]
        for r in over:
            ax.axvline(r[f"{bound}_log3"], color="lightgray", lw=0.5, zorder=0)
        top = max([r[f"{bound}_log3"] for r in sel] + [1.0])
        ax.plot([0, top], [0, top], "k--", lw=0.8, label="rank = bound")
        ax.set_xlabel(f"log3 {bound.replace('_', ' ')} bound")
        ax.set_ylabel("log3 certified sep (lower bound)")
        ax.set_title(("residual network vs Theorem 5 (stated)" if residual
                      else "plain network vs Theorem 3") + f"; {len(over)} over budget (grey)",
                     fontsize=9)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _write_csv(rows: list[dict[str, Any]], path: Path) -> None:
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)


def write_rank_report(records: Sequence[dict[str, Any]], out: str | Path) -> list[Path]:
    """``d2w_ranks.csv``, ``d2w_ranks.md`` and ``d2w_ranks.png`` in ``out``.

    Parameters
    ----------
    records : sequence of dict
        The records of the rank sweep.
    out : str or pathlib.Path
        The output folder.

    Returns
    -------
    list of pathlib.Path
        The files written.

    Examples
    --------
    A two-case sweep run here (seconds), then tabulated:

    >>> from seprank.sweeps import sweep
    >>> from seprank.sweeps.d2w_ranks import rank_case, rank_cases
    >>> cases = rank_cases(max_width=1, max_depth=1, max_inputs=2, residual=(False,))
    >>> records = sweep(rank_case, cases, executor="serial", progress=False).to_records()
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as out:
    ...     paths = write_rank_report(records, out)
    ...     [p.name for p in paths], len(paths[0].read_text().splitlines())
    (['d2w_ranks.csv', 'd2w_ranks.md', 'd2w_ranks.png'], 2)
    """
    import matplotlib.pyplot as plt

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = rank_table(records)
    verdicts: Counter[str] = Counter()
    for r in rows:
        for name in BOUND_NAMES:
            verdicts[f"{name}: {r.get(f'{name}_verdict')}"] += 1
    status = Counter(str(r["status"]) for r in rows)
    summary = [f"{len(rows)} cases: " + ", ".join(f"{n} {s}" for s, n in sorted(status.items())),
               "", "Verdicts per statement (case counts):", ""]
    summary += [f"- {k}: {v}" for k, v in sorted(verdicts.items()) if "not_applicable" not in k]
    csv_path, md_path, png_path = (out / "d2w_ranks.csv", out / "d2w_ranks.md",
                                   out / "d2w_ranks.png")
    _write_csv(rows, csv_path)
    md_path.write_text("# Certified separation ranks of 003's network vs its bounds\n\n"
                       + "\n".join(summary) + "\n\nBounds in log3; 'sep >=' is a certified "
                       "lower bound (GF(p) grid rank).\n\n" + _markdown(rows) + "\n",
                       encoding="utf-8")
    fig = plot_rank_vs_bound(rows)
    fig.savefig(png_path, dpi=110)
    plt.close(fig)
    return [csv_path, md_path, png_path]


def eta_rows(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (η, L, seed, τ)."""
    rows = []
    for rec in records:
        value = rec.get("value") or {}
        for k, tau in enumerate(value.get("taus", [])):
            rows.append({"eta": rec["eta"], "depth": rec["depth"], "width": rec["width"],
                         "seed": rec["seed"], "tau": tau,
                         "eps_rank_lower": value["eps_rank"][k][0],
                         "eps_rank_upper": value["eps_rank"][k][1],
                         "sequential_count": value["count_above"][k],
                         "incontext_count": value["incontext_count_above"][k],
                         "first_order": value["first_order"]})
    rows.sort(key=lambda r: (r["depth"], r["tau"], -r["eta"], r["seed"]))
    return rows


def write_eta_report(records: Sequence[dict[str, Any]], out: str | Path) -> list[Path]:
    """``incontext_eta.csv`` and ``incontext_eta.png`` in ``out``.

    Parameters
    ----------
    records : sequence of dict
        The records of the η sweep.
    out : str or pathlib.Path
        The output folder.

    Returns
    -------
    list of pathlib.Path
        The files written.

    Examples
    --------
    One η, one depth, one seed, two thresholds τ: one CSV row per τ:

    >>> import tempfile
    >>> from seprank.sweeps import sweep
    >>> from seprank.sweeps.incontext_eta import eta_case, eta_cases
    >>> cases = eta_cases(etas=(1e-3,), depths=(1,), width=2, seeds=(0,))
    >>> records = sweep(eta_case, [{**c, "taus": [1e-3, 1e-6]} for c in cases],
    ...                 executor="serial", progress=False).to_records()
    >>> with tempfile.TemporaryDirectory() as out:
    ...     paths = write_eta_report(records, out)
    ...     [p.name for p in paths], len(paths[0].read_text().splitlines())
    (['incontext_eta.csv', 'incontext_eta.png'], 3)
    """
    import matplotlib.pyplot as plt

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = eta_rows(records)
    csv_path, png_path = out / "incontext_eta.csv", out / "incontext_eta.png"
    _write_csv(rows, csv_path)
    depths = sorted({r["depth"] for r in rows})
    fig, axes = plt.subplots(1, max(1, len(depths)), figsize=(5.2 * max(1, len(depths)), 3.8),
                             squeeze=False)
    for ax, L in zip(axes[0], depths, strict=False):
        for k, tau in enumerate(sorted({r["tau"] for r in rows if r["depth"] == L})):
            sel = [r for r in rows if r["depth"] == L and r["tau"] == tau and r["seed"] == 0]
            etas = [r["eta"] for r in sel]
            ax.semilogx(etas, [r["eps_rank_lower"] for r in sel], "o-", color=f"C{k}",
                        label=f"sequential, tau={tau:g} (certified lower)")
            ax.axhline(sel[0]["incontext_count"], color=f"C{k}", ls=":")
            ax.scatter([r["eta"] for r in sel if not r["first_order"]],
                       [r["eps_rank_lower"] for r in sel if not r["first_order"]],
                       marker="x", color="k", zorder=3)
        ax.set_xlabel("learning rate eta (x: not first-order)")
        ax.set_ylabel("eps-rank")
        ax.set_title(f"L = {L}: sequential (solid) vs in-context (dotted)", fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)
    plt.close(fig)
    return [csv_path, png_path]
