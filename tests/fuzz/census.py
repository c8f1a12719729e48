"""Count the fuzz verdicts of whole catalogues (the numbers an issue's closing note quotes).

``python -m tests.fuzz.census icl distillation automata certificates`` runs, for each
catalogue, every derived bad variant (:func:`tests.fuzz.harness.bad_variants`) and every huge
count (10**12 and 10**30) in a child process under an address-space limit, restarting the child
after a probe that killed it, and prints one line of counts per catalogue:

* bad variants: ``clear`` (ValueError / TypeError naming the argument), ``raw`` (obscure),
  ``accepted`` (a bad value silently answered: a possible wrong answer), ``hang``,
  ``allocation`` (a MemoryError from numpy: an allocation attempted, not refused), ``died``;
* huge counts: ``answer`` (returned in time), ``clear`` (refused: MemoryBudgetError or a named
  ValueError / TypeError), ``raw``, ``hang``, ``allocation``, ``died``.

``--json FILE`` also writes every outcome.  The default test suite does not run this (the pytest
tests in ``test_bad_inputs.py`` and ``test_new_subpackages.py`` assert the same classes).
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

#: The address-space limit of a probing child (bytes): 3.5 GiB, as the issue's fuzz.
LIMIT = int(3.5 * 2**30)
ROOT = Path(__file__).resolve().parents[2]


def _child_bad(name: str, skip: int, seconds: int) -> None:  # pragma: no cover - a child
    import resource

    from tests.fuzz.harness import bad_variants, catalogue, probe, run_valid

    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))
    n = 0
    for entry in catalogue(name):
        n += 1
        if n > skip:
            print(json.dumps({"started": f"{entry.name} (valid call)"}), flush=True)
            try:
                run_valid(entry)
                print(json.dumps({"entry": entry.name, "argument": "", "value": "",
                                  "verdict": "valid", "detail": ""}), flush=True)
            except BaseException as err:  # the catalogue's call itself fails
                print(json.dumps({"entry": entry.name, "argument": "", "value": "",
                                  "verdict": "invalid-catalogue",
                                  "detail": f"{type(err).__name__}: {err}"[:300]}), flush=True)
        for argument, value in bad_variants(entry):
            n += 1
            if n <= skip:
                continue
            print(json.dumps({"started": f"{entry.name}({argument}={value!r})"[:300]}),
                  flush=True)
            out = probe(entry, argument, value, seconds=seconds)
            verdict = out.verdict
            if verdict == "raw" and out.detail.startswith("MemoryError"):
                verdict = "allocation"
            print(json.dumps({**out.__dict__, "verdict": verdict}), flush=True)


def _run(args: list[str]) -> list[dict[str, Any]]:
    """Run a child until it has reported every probe; a probe that kills it counts as died."""
    rows: list[dict[str, Any]] = []
    done = 0
    while True:
        proc = subprocess.run([sys.executable, "-m", "tests.fuzz.census", *args, str(done)],
                              cwd=ROOT, capture_output=True, text=True, check=False)
        lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
        started = [d["started"] for d in lines if "started" in d]
        finished = [d for d in lines if "verdict" in d]
        rows += finished
        done += len(finished)
        if proc.returncode == 0:
            return rows
        what = started[-1] if started else "?"
        rows.append({"entry": what, "argument": "", "value": "", "verdict": "died",
                     "detail": f"exit code {proc.returncode}: {proc.stderr[-300:]}"})
        done += 1


def census(names: list[str], *, seconds: int = 10) -> dict[str, dict[str, Any]]:
    """Counts per catalogue: ``{'bad': Counter, 'huge': Counter, 'rows': [...]}``."""
    out = {}
    for name in names:
        bad = _run(["--child-bad", name, str(seconds)])
        huge = _run(["--child-huge", name])
        for row in huge:
            if row["verdict"] == "raw" and row["detail"].startswith("MemoryError"):
                row["verdict"] = "allocation"
        out[name] = {"bad": collections.Counter(r["verdict"] for r in bad),
                     "huge": collections.Counter(r["verdict"] for r in huge),
                     "rows": bad + huge}
    return out


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - command line
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--child-bad":
        _child_bad(argv[1], int(argv[3]), int(argv[2]))
        return 0
    if argv and argv[0] == "--child-huge":
        sys.argv = [sys.argv[0], str(LIMIT), argv[1], argv[2]]
        from tests.fuzz.harness import main_huge

        main_huge()
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalogues", nargs="+")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--seconds", type=int, default=10)
    ns = parser.parse_args(argv)
    result = census(ns.catalogues, seconds=ns.seconds)
    total: dict[str, collections.Counter[str]] = {"bad": collections.Counter(),
                                                  "huge": collections.Counter()}
    for name, counts in result.items():
        for part in ("bad", "huge"):
            total[part].update(counts[part])
            print(f"{name:14s} {part:4s} {sum(counts[part].values()):5d} "
                  + " ".join(f"{k}={v}" for k, v in sorted(counts[part].items())))
    for part in ("bad", "huge"):
        print(f"{'TOTAL':14s} {part:4s} {sum(total[part].values()):5d} "
              + " ".join(f"{k}={v}" for k, v in sorted(total[part].items())))
    for counts in result.values():
        for row in counts["rows"]:
            if row["verdict"] not in ("valid", "clear", "answer"):
                print(f"  {row['verdict']:10s} {row['entry']}({row['argument']}="
                      f"{row['value']}) -> {row['detail'][:160]}")
    if ns.json:
        ns.json.write_text(json.dumps({k: v["rows"] for k, v in result.items()}, indent=1))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
