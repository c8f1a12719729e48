"""Sweeps at scale: the run machinery (dask.distributed, a resumable SQLite store, per-task
measurement) and the papers' sweeps built on it.

The machinery (paper-free; :mod:`paper_checks` runs its claims on it too):

* :mod:`seprank.sweeps.run` -- :func:`sweep` on dask.distributed (an embedded ``LocalCluster``
  by default, a scheduler address for a cluster) or serially, one :class:`SweepRecord` per
  parameter set;
* :mod:`seprank.sweeps.store` -- :class:`ResultStore`, results in SQLite keyed by function,
  parameters, seed and code version;
* :mod:`seprank.sweeps.measure` -- :func:`run_task`: one task's value or error, its wall and
  CPU time and peak memory (:class:`TaskOutcome`);
* :mod:`seprank.sweeps.limits` -- what stops a task (``sweep(timeout=...)``) and what stops
  a sweep before it starts (a script without the ``__main__`` guard).

The papers' sweeps (imported on demand, they load the paper subpackages):

* :mod:`seprank.sweeps.d2w_ranks` -- certified generic separation ranks of 003's network over
  (d_x, H, L, N, partition, residual) against Theorems 2, 3, 5 and Lemma 6;
* :mod:`seprank.sweeps.incontext_eta` -- ε-ranks of the sequential representation of 000/001
  vs the learning rate η, next to the in-context one.

Run them from the command line: ``python -m seprank.sweeps d2w-ranks --help``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seprank.core.index import reexport
from seprank.sweeps.measure import *
from seprank.sweeps.run import *
from seprank.sweeps.store import *

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, ["measure", "run", "store"])
