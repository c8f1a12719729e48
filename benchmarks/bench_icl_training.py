"""One training run of paper 002's model (Algorithm 1 at the paper's sizes): time and peak
memory, against the reading notes' prototype run side by side.

Setting: M1 = 6, M2 = 24, d_X = d_Y = 30, m = 64, m_a = m_b = 60, B = 64, l_tr = 20, eta = 1,
T = 2000 steps (``--quick``: 500), cyclic training tasks, seed 0.  Three runs per repeat, in
one process:

* ``identifiability.icl.train`` -- the library (scores as p^T (W_K^T W_Q p_q), one BLAS
  thread inside the loop);
* ``train(..., limit_blas_threads=False)`` -- the same loop without the thread limit;
* ``notes prototype`` -- the reading notes' §1.10 numpy code (forms W_K p_i for every token,
  its own sampler), transcribed here as the baseline.

Reported: median wall time per run, steps per second, the ratio to the prototype, and the peak
of traced allocations (``tracemalloc``, numpy arrays included) of one run.  Both end with an
unseen-task error below 1% (checked).

Usage: ``python -m benchmarks icl_training [--quick]``.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks._util import fmt_seconds, machine_line, markdown_table, median_time, write_result
from identifiability.icl import (
    ICLParams,
    TrainingConfig,
    cyclic_tasks,
    in_domain_patterns,
    sample_and_evaluate,
    train,
    unseen_tasks,
)

PATTERNS = in_domain_patterns()
TASKS = cyclic_tasks(6)


def _prototype(steps: int) -> Any:
    """The notes' §1.10 reference implementation (patterns, prompts, init, forward, step)."""
    rng = np.random.default_rng(0)
    mu, nu = 3.0 * np.eye(30)[:6], 3.0 * np.eye(30)[6:]
    q = np.eye(30)[0]
    tr = [(j, (j + 1) % 6) for j in range(6)]
    D = 60
    p: dict[str, Any] = {"WQ": np.zeros((60, D)), "WK": np.zeros((60, D)),
                         "WV": np.zeros((60, D))}
    for k in ("WQ", "WK"):
        p[k][range(30), range(30)] = 0.2
    p["WV"][range(60), range(60)] = 0.2
    p["WO"] = rng.normal(0, 1 / 8, (64, 60))
    p["a"] = rng.choice([1, -1], size=64) / 64
    for _ in range(steps):
        B, l = 64, 20
        t = rng.integers(6, size=B)
        pos, neg = np.array(tr)[t].T
        z = rng.choice([1, -1], size=B)
        qpat = np.where(z == 1, pos, neg)
        pr = np.full((B, 6), 0.2 / 4)
        pr[np.arange(B), pos] = pr[np.arange(B), neg] = 0.4
        cpat = (rng.random((B, l, 1)) > pr.cumsum(1)[:, None, :]).sum(-1).clip(max=5)
        lab = np.where(cpat == pos[:, None], 1,
                       np.where(cpat == neg[:, None], -1, rng.choice([1, -1], size=(B, l))))
        pat = np.concatenate([cpat, qpat[:, None]], 1)
        X = mu[pat] + rng.uniform(-0.5, 0.5, (B, l + 1, 1)) * nu[rng.integers(24, size=(B, l + 1))]
        Y = np.zeros((B, l + 1, 30))
        Y[:, :l] = lab[..., None] * q
        P = np.concatenate([X, Y], -1).transpose(0, 2, 1)
        pq = P[:, :, -1]
        Qv = pq @ p["WQ"].T
        Km = np.einsum("ad,bdl->bal", p["WK"], P)
        s = np.einsum("bal,ba->bl", Km, Qv)
        A = np.exp(s - s.max(1, keepdims=True))
        A /= A.sum(1, keepdims=True)
        c = np.einsum("bdl,bl->bd", P, A)
        h = c @ p["WV"].T
        u = h @ p["WO"].T
        F = np.maximum(u, 0) @ p["a"]
        dF = -z * ((1 - z * F) > 0) / B
        du = dF[:, None] * p["a"] * (u > 0)
        g = {"WO": du.T @ h}
        dh = du @ p["WO"]
        g["WV"] = dh.T @ c
        dA = np.einsum("ed,bdl,be->bl", p["WV"], P, dh)
        ds = A * (dA - (A * dA).sum(1, keepdims=True))
        g["WK"] = Qv.T @ np.einsum("bdl,bl->bd", P, ds)
        g["WQ"] = np.einsum("bal,bl->ba", Km, ds).T @ pq
        for k in g:
            p[k] -= g[k]
    return p


def _peak_mib(fn: Callable[[], Any]) -> float:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def _unseen_error(params: Any) -> float:
    if isinstance(params, dict):
        params = ICLParams(params["WQ"], params["WK"], params["WV"], params["WO"], params["a"],
                           np.ones(64))
    return sample_and_evaluate(params, PATTERNS, unseen_tasks(6, TASKS), n=2000, length=20,
                               alpha=0.8, seed=1).error


def main(argv: list[str]) -> int:
    steps = 500 if "--quick" in argv else 2000
    repeat = 1 if "--quick" in argv else 3
    runs: dict[str, Callable[[], Any]] = {
        "identifiability.icl.train": lambda: train(PATTERNS, TrainingConfig(n_steps=steps),
                                                   seed=0).params,
        "train(..., limit_blas_threads=False)": lambda: train(
            PATTERNS, TrainingConfig(n_steps=steps), seed=0, limit_blas_threads=False).params,
        "notes prototype (§1.10)": lambda: _prototype(steps),
    }
    rows, times = [], {}
    for name, fn in runs.items():
        t, params = median_time(fn, repeat)
        times[name] = t
        err = _unseen_error(params)
        assert err < 0.01, f"{name}: unseen-task error {err} after {steps} steps"
        rows.append([name, fmt_seconds(t), f"{steps / t:.0f}", f"{_peak_mib(fn):.1f}",
                     f"{err:.4f}"])
    base = times["notes prototype (§1.10)"]
    for row, name in zip(rows, runs, strict=True):
        row.insert(2, f"{times[name] / base:.2f}")
    text = "\n".join([
        "# One training run of paper 002's model (Algorithm 1)",
        "",
        f"T = {steps} steps, B = 64, l = 20, m = 64, paper sizes; median of {repeat} run(s); "
        f"{machine_line()}.",
        "",
        markdown_table(["run", "time", "time / prototype", "steps/s",
                        "peak traced MiB", "unseen error"], rows),
        "",
        "The ratio column is the comparison (same process, side by side); absolute times depend "
        "on the machine's load. Peak memory is that of the Python/numpy allocations of one run.",
    ])
    print(text)
    print(f"\nwritten to {write_result('icl_training', text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
