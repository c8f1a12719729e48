"""004 §4.2.2.1 (R1)-(R3), Figure 4.4: the toy progressive-distillation experiment (PD-Toy-*).

A width-1000 teacher and width-50 students (one-hidden-layer ReLU, online SGD with batch 1,
cross-entropy on the 2-class softmax) on (30, 4)-sparse parity,
:func:`identifiability.distillation.run_progressive_distillation`.  Students of every method
share initialisation and input stream per seed (paired comparison).  A few minutes of CPU:
profile ``full``.  The expected verdict is the paper's (progressive accelerates the student;
one-shot does not beat learning from labels).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from identifiability.distillation import (
    DistillationConfig,
    SeedResult,
    run_progressive_distillation,
    summarize,
)
from paper_checks.compare import ratio_result
from paper_checks.registry import ClaimResult, claim

PAPER = "004"
SEEDS = (0, 1, 2, 3, 4, 5)
CONFIG = DistillationConfig()


@cache
def _results() -> tuple[SeedResult, ...]:
    return tuple(run_progressive_distillation(CONFIG, SEEDS))


@claim(id="PD-Toy-progressive", paper=PAPER, reference="§4.2.2.1 (R1)-(R3), Figure 4.4, (C4-P5)",
       statement="progressive distillation accelerates the student: steps to 100 % accuracy "
       "progressive <= one-shot ~ direct", profile="full",
       perturbation="progressive at least 3x faster than the best one-shot")
def pd_toy_progressive(perturbed: bool = False) -> ClaimResult:
    res = _results()
    summ = summarize(res, CONFIG.max_steps)
    prog, one, direct = summ["progressive"], summ["one_shot_best"], summ["direct"]
    cap = CONFIG.max_steps

    def steps(v: int | None) -> float:
        return float(cap if v is None else v)

    diff = np.array([steps(r.best_one_shot) - steps(r.progressive) for r in res])
    diff_se = float(diff.std(ddof=1) / math.sqrt(len(diff)))
    factor = 3.0 if perturbed else 1.0
    faster = prog.mean * factor <= one.mean and float(diff.mean()) > 2 * diff_se
    similar = 2 / 3 <= one.mean / direct.mean <= 3 / 2
    stopped = sum(s.stopped_short for s in summ.values())
    return ratio_result(
        prog.mean, one.mean, what="progressive / best one-shot steps",
        holds=faster and similar and stopped == 0,
        measured={name: {"mean": round(s.mean), "SE": round(s.standard_error),
                         "stopped short": s.stopped_short}
                  for name, s in summ.items()},
        reference_value="progressive <= one-shot ~ direct",
        details={
            "speedup": f"best one-shot - progressive = {diff.mean():.0f} +- {diff_se:.0f} steps "
                       f"(paired over {len(res)} seeds); one-shot / progressive = "
                       f"{one.mean / prog.mean:.2f}; one-shot / direct = "
                       f"{one.mean / direct.mean:.2f}; the width-50 progressive student "
                       f"learns about as fast as the width-1000 teacher "
                       f"({summ['teacher'].mean:.0f} steps)",
            "per_seed": [{"seed": r.seed, "teacher": r.teacher_steps, "exit": r.exit_step,
                          "exit acc": round(r.exit_accuracy, 3), "direct": r.direct,
                          "one-shot": r.one_shot, "progressive": r.progressive} for r in res],
            "curriculum": "degree-1 correlations |E p_T(x) x_j| of the exit checkpoint: "
                          "in-support mean vs largest off-support "
                          + str([tuple(round(v, 3) for v in r.exit_degree_one) for r in res])
                          + " -- no in-support degree-1 signal at this toy scale, so the "
                            "acceleration here is not the degree-1 curriculum of (R1)",
            "one-shot at tau = 1e-4": "identical to direct: the final teacher is perfect, so its "
                                      "hard labels are the labels",
            "setting": f"{CONFIG}", "seeds": SEEDS})
