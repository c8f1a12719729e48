"""Estimation at the issue-28 targets, in one command: ``python -m benchmarks estimation``.

Part 1, the targets at (d, k) = (20, 8), n = 1e5 (sequences of length 100), for the HMM and
the G-HMM of :mod:`benchmarks.bench_hmm_estimation` (a well- and a poorly conditioned model
each), from one run:

* ``moment``: ``estimate_hmm`` / ``estimate_ghmm`` with the refinement (the default) and
  without it (``refine=False``): wall and process-CPU time, max-abs error, status, and the
  refinement's Jacobian evaluations -- its cost against its gain;
* ``EM 1 run``: one default hmmlearn EM run (``random_state = 0``, ``n_iter`` <= 100, ``tol``
  1e-2, 'scaling'), wall and CPU -- the time baseline;
* ``EM best-of-R``: the smallest error of R default restarts (R = 10) -- the error baseline;
* ``EM from moment``: :func:`identifiability.masked.refine_em` from the moment estimate, with
  ``improves_on_start`` (False when the start's status is not ``'ok'``: not an improvement).

Ratios printed: EM time / moment time (wall; CPU) and moment error / best-of-R EM error;
targets >= 10 and <= 3.

Part 2, the error slope in n of the moment estimator (refined and spectral only) for every
model of the benchmark ((5,3), (10,5), (20,8); HMM and G-HMM; well and poorly conditioned),
n in {1e3, 1e4, 1e5, 1e6}: the least-squares slope of log error against log n over
n >= 1e4 (-0.5 is the parametric rate).  EM is not run there (minutes per run at 1e6).

Part 3, a family of random well-conditioned HMMs so that no single model hides a regression:
``--family-seeds`` seeds (default 3) per size in ``FAMILY_SIZES`` ((5,3), (8,4), (10,5), (15,6),
(20,8)), each model built like the benchmark's well-conditioned one (a dedicated block of
tokens per state mixed 0.6/0.4 with a Dirichlet column, T = 0.7 I + 0.3 (a random doubly
stochastic matrix)) from its own seed, n = ``--family-n`` (default 1e5).  Per model: the
refined moment error / best-of-R EM error and one EM run's time / the moment estimator's
time; then their distribution (min, median, max, the fraction of models with error ratio <= 1
and with time ratio >= 10) -- the targets of the estimation issue: error <= best-of-10 EM on
>= 90 % of the well-conditioned models, >= 10x faster than one EM run on all of them.

Both EM and the moment estimator run under the same thread setting, ``--threads=N`` (default
1: BLAS through threadpoolctl; the moment estimators use one BLAS thread in any case).  The
machine's load average, the BLAS libraries with their thread counts, the thread environment
variables and the process' niceness are printed with the results.

Usage: ``python -m benchmarks estimation [--quick] [--restarts=R] [--threads=N]
[--no-slopes] [--no-family | --family-only] [--family-seeds=S] [--family-n=N]
[--family-max-d=D]`` (``--quick``: (5, 3), n = 1e4, 2 restarts, slopes on n <= 1e4 only, the
family at (5, 3) and (8, 4) with 2 seeds and n = 1e4).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from benchmarks._util import machine_line, markdown_table, write_result
from benchmarks.bench_hmm_estimation import LENGTH, N_ITER, SIZES, _em_default, _err, _timed, models
from identifiability.masked import HMM, estimate_ghmm, estimate_hmm, hmmlearn_data, refine_em

ALGO_SEED = 4242
SLOPE_NS = (10**3, 10**4, 10**5, 10**6)
FAMILY_SIZES = ((5, 3), (8, 4), (10, 5), (15, 6), (20, 8))


def family_model(d: int, k: int, seed: int) -> HMM:
    """A random well-conditioned HMM of the family (module docstring, part 3)."""
    rng = np.random.default_rng([d, k, seed])
    T = 0.7 * np.eye(k) + 0.3 * HMM.random(d, k, seed=rng).T
    S = (np.arange(d)[:, None] % k == np.arange(k)[None, :]).astype(float)[rng.permutation(d)]
    O = 0.6 * S / S.sum(axis=0) + 0.4 * rng.dirichlet(np.ones(d), size=k).T
    return HMM(O, T)


def family_rows(sizes: tuple[tuple[int, int], ...], seeds: int, n: int,
                restarts: int) -> list[dict[str, Any]]:
    """Moment estimate and R default EM runs on every model of the family."""
    rows = []
    for d, k in sizes:
        for seed in range(seeds):
            truth = family_model(d, k, seed)
            x = truth.sample(LENGTH, n_sequences=max(1, n // LENGTH), seed=10_000 + seed)[0]
            wall, cpu, est = _moment("hmm", x, d, k, True)
            X, lengths = hmmlearn_data(x, "hmm", d, k=k)
            runs = [_em_default("hmm", X, lengths, truth, r, N_ITER) for r in range(restarts)]
            rows.append({"d": d, "k": k, "seed": seed, "status": est.status,
                         "err": _err(est.model.emission, est.model.T, truth),
                         "wall": wall, "cpu": cpu,
                         "jacobians": est.details["refinement"].get("evaluations"),
                         "em_best": min(r[2] for r in runs), "em_wall": runs[0][0],
                         "em_cpu": runs[0][1], "load": os.getloadavg()[0]})
            print(f"family ({d},{k}) seed {seed} done ({load_line()})", file=sys.stderr,
                  flush=True)
    return rows


def family_table(rows: list[dict[str, Any]], restarts: int) -> str:
    """Per model, then the distribution of the two ratios."""
    out = []
    for r in rows:
        out.append([f"({r['d']},{r['k']}) seed {r['seed']}", r["status"],
                    f"{r['err']:.3g} ({r['jacobians']})", f"{r['em_best']:.3g}",
                    f"{r['err'] / r['em_best']:.2f}",
                    f"{r['em_wall'] / r['wall']:.1f}; {r['em_cpu'] / r['cpu']:.1f}",
                    f"{r['load']:.1f}"])
    table = markdown_table(["model", "status", "moment err (Jacobians)",
                            f"best-of-{restarts} EM err", "moment / best-EM err",
                            "1 EM / moment time (wall; cpu)", "load"], out)
    if not rows:
        return table
    err = np.array([r["err"] / r["em_best"] for r in rows])
    cpu = np.array([r["em_cpu"] / r["cpu"] for r in rows])
    ok = np.array([r["status"] == "ok" for r in rows])
    summary = (f"\n\n{len(rows)} models ({int(ok.sum())} with status 'ok'): error ratio min "
               f"{err.min():.2f}, median {np.median(err):.2f}, max {err.max():.2f}; "
               f"error <= best-of-{restarts} EM on {np.mean(err <= 1):.0%} of the models "
               f"(target >= 90 %); CPU-time ratio min {cpu.min():.1f}, median "
               f"{np.median(cpu):.1f}; >= 10x faster than one EM run on {np.mean(cpu >= 10):.0%} "
               "(target 100 %).")
    return table + summary


def thread_line(threads: int | None, who: str = "both EM and the moment estimator") -> str:
    """The thread settings in force: BLAS libraries and their threads, env variables, nice
    (``threads`` None: not limited)."""
    libs = ", ".join(f"{i['internal_api']} {i.get('version', '?')} ({i['num_threads']} "
                     f"thread(s))" for i in threadpool_info() if i["user_api"] == "blas")
    env = ", ".join(f"{v}={os.environ[v]}" for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                                      "MKL_NUM_THREADS") if v in os.environ)
    limit = "not limited" if threads is None else f"limited to {threads} for {who}"
    return (f"threads: BLAS {limit} (in force: {libs or 'no BLAS found'}); env "
            f"{env or 'unset'}; nice {os.nice(0)}")


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} CPU(s)"


def _sample(truth: Any, n: int, d: int, k: int) -> Any:
    return truth.sample(LENGTH, n_sequences=max(1, n // LENGTH), seed=n + 7 * d + k)[0]


def _moment(kind: str, x: Any, d: int, k: int, refine: bool) -> tuple[float, float, Any]:
    if kind == "hmm":
        return _timed(lambda: estimate_hmm(x, k, d=d, seed=ALGO_SEED, check="report",
                                           refine=refine))
    return _timed(lambda: estimate_ghmm(x, k, seed=ALGO_SEED, check="report", refine=refine))


def target_case(kind: str, cond: str, truth: Any, d: int, k: int, n: int,
                restarts: int) -> dict[str, Any]:
    """One model at the target size: moment (with and without refinement) and EM."""
    x = _sample(truth, n, d, k)
    row: dict[str, Any] = {"model": f"{kind} ({d},{k}) {cond}", "n": n,
                           "load_start": os.getloadavg()[0]}
    for refine in (True, False):
        wall, cpu, est = _moment(kind, x, d, k, refine)
        key = "moment" if refine else "spectral"
        row[key] = {"wall": wall, "cpu": cpu, "status": est.status,
                    "err": _err(est.model.emission, est.model.T, truth),
                    "jacobians": est.details["refinement"].get("evaluations"),
                    "refinement_used": est.details["refinement"].get("used")}
        if refine:
            start = est
    X, lengths = hmmlearn_data(x, kind, d, k=k)
    runs = [_em_default(kind, X, lengths, truth, r, N_ITER) for r in range(restarts)]
    row["em"] = {"wall": runs[0][0], "cpu": runs[0][1], "err_run0": runs[0][2],
                 "err_best": min(r[2] for r in runs), "err_worst": max(r[2] for r in runs),
                 "restarts": restarts}
    wall, cpu, ref = _timed(lambda: refine_em(start, x, n_iter=N_ITER, seed=ALGO_SEED))
    row["em_from_moment"] = {"wall": wall, "cpu": cpu, "iterations": ref.n_iter,
                             "err": _err(ref.model.emission, ref.model.T, truth),
                             "improves_on_start": ref.improves_on_start}
    row["load_end"] = os.getloadavg()[0]
    return row


def target_table(rows: list[dict[str, Any]]) -> str:
    header = ["model (n)", "moment: time wall / cpu, err (status, Jacobians)",
              "no refinement: time, err", "EM 1 run: wall / cpu", "EM best / worst err (R)",
              "EM / moment time (wall; cpu)", "moment / best-EM err",
              "EM from moment: err (improves?)", "load"]
    out = []
    for r in rows:
        m, s, e, f = r["moment"], r["spectral"], r["em"], r["em_from_moment"]
        imp = {True: "yes", False: "**no: start not determined**", None: "—"}[
            f["improves_on_start"]]
        out.append([
            f"{r['model']} ({r['n']:.0e})",
            f"{m['wall']:.3f} / {m['cpu']:.3f} s, {m['err']:.3g} ({m['status']}, "
            f"{m['jacobians']})",
            f"{s['wall']:.3f} / {s['cpu']:.3f} s, {s['err']:.3g}",
            f"{e['wall']:.2f} / {e['cpu']:.2f} s",
            f"{e['err_best']:.3g} / {e['err_worst']:.3g} ({e['restarts']})",
            f"{e['wall'] / m['wall']:.1f}; {e['cpu'] / m['cpu']:.1f}",
            f"{m['err'] / e['err_best']:.2f}",
            f"{f['err']:.3g} ({imp})",
            f"{r['load_start']:.1f}/{r['load_end']:.1f}"])
    return markdown_table(header, out)


def slope(ns: list[int], errs: list[float]) -> float | None:
    """Least-squares slope of log error against log n over n >= 1e4 (None below 2 points)."""
    pts = [(np.log(n), np.log(e)) for n, e in zip(ns, errs, strict=True) if n >= 10**4 and e > 0]
    if len(pts) < 2:
        return None
    x, y = np.array(pts).T
    return float(np.polyfit(x, y, 1)[0])


def slopes_table(sizes: tuple[tuple[int, int], ...], ns: tuple[int, ...]) -> str:
    out = []
    for d, k in sizes:
        for kind in ("hmm", "ghmm"):
            for cond, truth in models(kind, d, k).items():
                errs: dict[bool, list[float]] = {True: [], False: []}
                status = []
                for n in ns:
                    x = _sample(truth, n, d, k)
                    for refine in (True, False):
                        est = _moment(kind, x, d, k, refine)[2]
                        errs[refine].append(_err(est.model.emission, est.model.T, truth))
                        if refine:
                            status.append("ok" if est.status == "ok" else "tfs")
                s_ref, s_sp = slope(list(ns), errs[True]), slope(list(ns), errs[False])
                out.append([f"{kind} ({d},{k}) {cond}",
                            " ".join(f"{e:.3g}" for e in errs[True]),
                            " ".join(status),
                            "—" if s_ref is None else f"{s_ref:.2f}",
                            " ".join(f"{e:.3g}" for e in errs[False]),
                            "—" if s_sp is None else f"{s_sp:.2f}"])
                print(f"slopes: {out[-1][0]} done ({load_line()})", file=sys.stderr,
                      flush=True)
    ns_txt = ", ".join(f"{n:.0e}" for n in ns)
    return markdown_table(["model", f"moment err at n = {ns_txt}", "status (tfs = too few)",
                           "slope (n >= 1e4)", "no refinement: err", "slope"], out)


def main(argv: list[str]) -> int:
    quick = "--quick" in argv

    def opt(name: str, default: int) -> int:
        vals = [a.split("=", 1)[1] for a in argv if a.startswith(f"--{name}=")]
        return int(vals[0]) if vals else default

    threads = opt("threads", 1)
    restarts = opt("restarts", 2 if quick else 10)
    (d, k), n = ((5, 3), 10**4) if quick else ((20, 8), 10**5)
    name = "estimation" + ("_quick" if quick else "")
    if "--family-only" in argv:
        return _family_main(argv, quick, threads, restarts, opt)
    with threadpool_limits(limits=threads, user_api="blas"):
        head = [f"# Estimation at (d, k) = ({d}, {k}), n = {n:.0e}: moment estimator vs "
                "hmmlearn EM", "", f"{machine_line()}; numpy {np.__version__}", "",
                f"At start: {load_line()}; {thread_line(threads)}.", ""]
        print("\n".join(head), flush=True)
        rows = []
        for kind in ("hmm", "ghmm"):
            for cond, truth in models(kind, d, k).items():
                rows.append(target_case(kind, cond, truth, d, k, n, restarts))
                print(f"{rows[-1]['model']} done ({load_line()})", file=sys.stderr, flush=True)
        parts = [*head, "## Targets (one run each)", "", target_table(rows), ""]
        write_result(name, "\n".join(parts))
        if "--no-slopes" not in argv:
            sizes = ((5, 3),) if quick else SIZES
            ns = SLOPE_NS[:2] if quick else SLOPE_NS
            parts += ["## Error slopes in n (moment estimator)", "", slopes_table(sizes, ns),
                      ""]
        if "--no-family" not in argv:
            parts += _family_part(argv, quick, restarts, opt)
    parts += [f"At the end: {load_line()}."]
    text = "\n".join(parts)
    print(text)
    print(f"written to {write_result(name, text)}")
    return 0


def _family_part(argv: list[str], quick: bool, restarts: int, opt: Any) -> list[str]:
    seeds = opt("family-seeds", 2 if quick else 3)
    n = opt("family-n", 10**4 if quick else 10**5)
    max_d = opt("family-max-d", 8 if quick else 20)
    sizes = tuple((d, k) for d, k in FAMILY_SIZES if d <= max_d)
    rows = family_rows(sizes, seeds, n, restarts)
    return [f"## A family of random well-conditioned HMMs (n = {n:.0e}, {seeds} seed(s) per "
            "size)", "", family_table(rows, restarts), ""]


def _family_main(argv: list[str], quick: bool, threads: int, restarts: int, opt: Any) -> int:
    name = "estimation_family" + ("_quick" if quick else "")
    with threadpool_limits(limits=threads, user_api="blas"):
        head = ["# Estimation on a family of random HMMs: moment estimator vs hmmlearn EM", "",
                f"{machine_line()}; numpy {np.__version__}", "",
                f"At start: {load_line()}; {thread_line(threads)}.", ""]
        parts = [*head, *_family_part(argv, quick, restarts, opt),
                 f"At the end: {load_line()}."]
    text = "\n".join(parts)
    print(text)
    print(f"written to {write_result(name, text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
