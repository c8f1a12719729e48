"""Moment estimator (x2⊗x3|x1) vs hmmlearn's EM on the same samples (issue 17).

For (d, k) in {(5, 3), (10, 5), (20, 8)}, a well-conditioned and a poorly conditioned model
(sigma_min(O or M), sigma_min(T) reported), n in {1e3, 1e4, 1e5, 1e6} observations (sequences
of length 100, data seed per case and n), three estimators side by side in one process:

* ``moment``: :func:`identifiability.masked.estimate_hmm` / ``estimate_ghmm`` (status shown);
* ``EM default``: hmmlearn ``CategoricalHMM`` / ``GaussianHMM`` from its default
  initialisation (random_state = restart), best and worst error of R restarts and the error of
  the restart with the highest log-likelihood (what a user would keep);
* ``EM from moment``: :func:`identifiability.masked.refine_em` started at the moment estimate.

EM: ``n_iter`` iterations at most, ``tol`` = 1e-2 (hmmlearn's default), implementation
'scaling' (hmmlearn's faster one).  G-HMM EM learns start, transitions and means with the
covariance fixed at the identity (the model class of 004 §2.2.1.1), ``covariance_type =
'spherical'``.  Error = max(|Ê Π − E|, |Π^T T̂ Π − T|) (max-abs, Hungarian matching on the
emission columns).  Slope = least-squares slope of log error vs log n over n >= 1e4.
Wall and CPU (process) times; the load average is printed with every case (shared machine).

Targets at n = 1e5: moment >= 10x faster than one EM run, error <= 3x the best-of-R EM error;
EM from the moment estimate never worse than the worst default restart when the estimate's
status is 'ok' (from a 'too_few_samples' start ``refine_em`` says it is no improvement: "—").
The issue-28 targets at (20, 8) in one command: ``python -m benchmarks estimation``.

Usage: ``python -m benchmarks hmm_estimation [--quick] [--kind=hmm|ghmm] [--ns=1e3,1e4]
[--restarts-1e6=R]`` (``--quick``: (5, 3), n <= 1e4, 3 restarts; default EM at 1e6 is skipped
unless ``--restarts-1e6`` > 0, and EM at all only for n <= ``--em-max-n`` (default 1e5): on
this shared machine one EM run at n = 1e6, (d, k) = (20, 8) costs minutes of CPU).  Time
ratios are given on wall time and on process CPU time (the fair one under load).
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks._util import RESULTS_DIR, machine_line, markdown_table, write_result
from identifiability.masked import (
    HMM,
    GaussianHMM,
    estimate_ghmm,
    estimate_hmm,
    hmmlearn_data,
    match_permutation,
    refine_em,
)

SIZES = ((5, 3), (10, 5), (20, 8))
NS = (10**3, 10**4, 10**5, 10**6)
LENGTH = 100
ALGO_SEED = 4242
N_ITER, TOL = 100, 1e-2


def models(kind: str, d: int, k: int) -> dict[str, HMM | GaussianHMM]:
    """The well- and the poorly conditioned model for (d, k)."""
    rng = np.random.default_rng(1000 * d + k)
    base = HMM.random(d, k, seed=d * k)  # its Sinkhorn T: sigma_min ~ 0.1-0.2
    T_well = 0.7 * np.eye(k) + 0.3 * base.T
    if kind == "hmm":
        S = (np.arange(d)[:, None] % k == np.arange(k)[None, :]).astype(float)
        O_well = 0.6 * S / S.sum(0) + 0.4 * rng.dirichlet(np.ones(d), size=k).T
        return {"well": HMM(O_well, T_well), "poor": base}
    Q = np.linalg.qr(rng.standard_normal((d, d)))[0][:, :k]
    return {"well": GaussianHMM(Q, T_well), "poor": GaussianHMM.random(d, k, seed=d * k)}


def _err(E: np.ndarray, T: np.ndarray, truth: HMM | GaussianHMM) -> float:
    m = match_permutation(E, truth.emission)
    p = m.perm
    return max(m.max_abs_error, float(np.max(np.abs(T[np.ix_(p, p)] - truth.T))))


def _timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - w, time.process_time() - c, out


def _em_default(kind: str, X: np.ndarray, lengths: list[int], truth: HMM | GaussianHMM,
                restart: int, n_iter: int) -> tuple[float, float, float, float]:
    from hmmlearn.hmm import CategoricalHMM
    from hmmlearn.hmm import GaussianHMM as HLGaussian

    k = truth.k
    h: Any
    if kind == "hmm":
        h = CategoricalHMM(k, n_features=truth.d, n_iter=n_iter, tol=TOL, random_state=restart,
                           implementation="scaling")
    else:
        h = HLGaussian(k, covariance_type="spherical", n_iter=n_iter, tol=TOL,
                       random_state=restart, params="stm", init_params="stm",
                       implementation="scaling")
        h.covars_ = np.ones(k)
    wall, cpu, _ = _timed(lambda: h.fit(X, lengths))
    E = h.emissionprob_.T if kind == "hmm" else h.means_.T
    return wall, cpu, _err(E, h.transmat_.T, truth), float(h.monitor_.history[-1])


def run_case(kind: str, d: int, k: int, cond: str, truth: HMM | GaussianHMM, n: int,
             restarts: int, n_iter: int, em: bool = True) -> dict[str, Any]:
    load0 = os.getloadavg()[0]
    x, _ = truth.sample(LENGTH, n_sequences=max(1, n // LENGTH), seed=n + 7 * d + k)

    def estimate() -> Any:
        if kind == "hmm":
            return estimate_hmm(x, k, d=d, seed=ALGO_SEED, check="report")
        return estimate_ghmm(x, k, seed=ALGO_SEED, check="report")

    tm, cm, est = _timed(estimate)
    err_m = _err(est.model.emission, est.model.T, truth)
    row: dict[str, Any] = {"kind": kind, "d": d, "k": k, "cond": cond, "n": n,
                           "status": est.status, "err_moment": err_m, "t_moment": tm,
                           "cpu_moment": cm, "stderr": max(est.stderr["emission"],
                                                           est.stderr["T"])}
    if em:
        te, ce, ref = _timed(lambda: refine_em(est, x, n_iter=n_iter, seed=ALGO_SEED))
        row.update(err_em_moment=_err(ref.model.emission, ref.model.T, truth), t_em_moment=te,
                   cpu_em_moment=ce, iters_em_moment=ref.n_iter)
    if em and restarts:
        X, lengths = hmmlearn_data(x, kind, d, k=k)
        runs = [_em_default(kind, X, lengths, truth, r, n_iter) for r in range(restarts)]
        errs = [r[2] for r in runs]
        row.update(err_em_best=min(errs), err_em_worst=max(errs),
                   err_em_maxll=runs[int(np.argmax([r[3] for r in runs]))][2],
                   t_em=float(np.mean([r[0] for r in runs])),
                   cpu_em=float(np.mean([r[1] for r in runs])), restarts=restarts)
    row["load"] = (load0, os.getloadavg()[0])
    return row


def _fmt(v: Any, spec: str = ".3g") -> str:
    return "—" if v is None else format(v, spec)


def _slope(rows: list[dict[str, Any]], key: str) -> float | None:
    pts = [(np.log(r["n"]), np.log(r[key])) for r in rows if r["n"] >= 10**4 and r.get(key)]
    if len(pts) < 2:
        return None
    x, y = np.array(pts).T
    return float(np.polyfit(x, y, 1)[0])


def table(rows: list[dict[str, Any]]) -> str:
    header = ["model", "n", "moment err (status)", "jackknife se", "EM best", "EM worst",
              "EM max-LL", "EM from moment", "t moment", "t EM (1 run)", "t EM-from-moment",
              "EM / moment time (wall; cpu)", "moment / best EM err", "EM-mom <= worst",
              "load"]
    out = []
    for r in rows:
        t_ratio = (f"{r['t_em'] / r['t_moment']:.0f}; {r['cpu_em'] / r['cpu_moment']:.0f}"
                   if "t_em" in r else "—")
        e_ratio = r["err_moment"] / r["err_em_best"] if "err_em_best" in r else None
        ok = (r["err_em_moment"] <= r["err_em_worst"] + 1e-12) if "err_em_worst" in r else None
        if ok is not None and r["status"] != "ok":
            ok = None     # EM from an undetermined start is no improvement (refine_em says so)
        em_mom = (f"{r['t_em_moment']:.2f} s (cpu {r['cpu_em_moment']:.2f}, "
                  f"{r['iters_em_moment']} it)" if "t_em_moment" in r else "—")
        out.append([f"{r['kind']} ({r['d']},{r['k']}) {r['cond']}", f"{r['n']:.0e}",
                    f"{r['err_moment']:.3g} ({r['status']})", _fmt(r["stderr"]),
                    _fmt(r.get("err_em_best")), _fmt(r.get("err_em_worst")),
                    _fmt(r.get("err_em_maxll")), _fmt(r.get("err_em_moment")),
                    f"{r['t_moment']:.3f} s (cpu {r['cpu_moment']:.3f})",
                    (f"{r['t_em']:.2f} s (cpu {r['cpu_em']:.2f})" if "t_em" in r else "—"),
                    em_mom, t_ratio, _fmt(e_ratio, ".2f"),
                    "—" if ok is None else ("yes" if ok else "**no**"),
                    f"{r['load'][0]:.1f}/{r['load'][1]:.1f}"])
    return markdown_table(header, out)


def slopes(rows: list[dict[str, Any]]) -> str:
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["kind"], r["d"], r["k"], r["cond"]), []).append(r)
    out = []
    for (kind, d, k, cond), rs in groups.items():
        out.append([f"{kind} ({d},{k}) {cond}", _fmt(_slope(rs, "err_moment"), ".2f"),
                    _fmt(_slope(rs, "err_em_moment"), ".2f"),
                    _fmt(_slope(rs, "err_em_best"), ".2f")])
    return markdown_table(["model", "slope moment", "slope EM from moment",
                           "slope EM best"], out)


def conditioning(kinds: tuple[str, ...], sizes: tuple[tuple[int, int], ...]) -> str:
    out = []
    for kind in kinds:
        for d, k in sizes:
            for cond, m in models(kind, d, k).items():
                sv = [float(np.linalg.svd(A, compute_uv=False)[-1]) for A in (m.emission, m.T)]
                out.append([f"{kind} ({d},{k}) {cond}", f"{sv[0]:.3f}", f"{sv[1]:.3f}"])
    return markdown_table(["model", "sigma_min(O or M)", "sigma_min(T)"], out)


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    kinds = tuple(a.split("=")[1] for a in argv if a.startswith("--kind=")) or ("hmm", "ghmm")
    r6 = [int(a.split("=")[1]) for a in argv if a.startswith("--restarts-1e6=")]
    em_max = [int(float(a.split("=")[1])) for a in argv if a.startswith("--em-max-n=")]
    em_max_n = em_max[0] if em_max else 10**5
    sizes = SIZES[:1] if quick else SIZES
    ns_arg = [a.split("=")[1] for a in argv if a.startswith("--ns=")]
    ns = (tuple(int(float(v)) for v in ns_arg[0].split(",")) if ns_arg
          else NS[:2] if quick else NS)
    restarts, n_iter = (3, 50) if quick else (10, N_ITER)
    name = "hmm_estimation" + ("_quick" if quick else "") + (
        f"_{kinds[0]}" if len(kinds) == 1 else "")
    rows: list[dict[str, Any]] = []
    head = [f"# Moment estimator vs hmmlearn EM ({', '.join(kinds)})", "",
            f"{machine_line()}; numpy {np.__version__}; sequences of length {LENGTH}; EM "
            f"n_iter <= {n_iter}, tol {TOL}; restarts {restarts}; EM (default and from the "
            f"moment estimate) for n <= {em_max_n:.0e} only"
            + (f", {r6[0]} default restarts at n = 1e6" if r6 else "") + ".", "",
            conditioning(kinds, sizes), ""]
    # cheap first (1e6 is moment-only by default), then 1e5 (the targets) by size: a run stopped
    # early (a shared, loaded machine) keeps the slopes and the small cases
    cases = sorted(itertools.product(ns, sizes, kinds), key=lambda c: (c[0] == 10**5, c[1], -c[0]))
    for n, (d, k), kind in cases:
        for cond, truth in models(kind, d, k).items():
            rr = (r6[0] if r6 else 0) if n >= 10**6 else restarts
            rows.append(run_case(kind, d, k, cond, truth, n, rr, n_iter,
                                 em=n <= em_max_n or bool(r6)))
            rows.sort(key=lambda r: (r["kind"], r["d"], r["cond"] != "well", r["n"]))
            print(f"{kind} ({d},{k}) {cond} n={n:.0e} done (load {os.getloadavg()[0]:.1f})",
                  file=sys.stderr, flush=True)
            write_result(name, "\n".join([*head, table(rows), "", slopes(rows)]))
            (RESULTS_DIR / f"{name}.json").write_text(json.dumps(rows, indent=1))
    text = "\n".join([*head, table(rows), "", slopes(rows)])
    print(text)
    print(f"written to {write_result(name, text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
