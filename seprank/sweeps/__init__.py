"""Sweeps of the papers' objects at scale, on :func:`seprank.core.sweep.sweep`.

* :mod:`seprank.sweeps.d2w_ranks` -- certified generic separation ranks of 003's network over
  (d_x, H, L, N, partition, residual) against Theorems 2, 3, 5 and Lemma 6;
* :mod:`seprank.sweeps.incontext_eta` -- ε-ranks of the sequential representation of 000/001
  vs the learning rate η, next to the in-context one.

Run them from the command line: ``python -m seprank.sweeps d2w-ranks --help``.
"""
