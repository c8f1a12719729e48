r"""Certificates anyone can check: every certified rank ships the witness that proves it.

A certified rank is the output of a flint call on a matrix the reader never sees.  A
certificate makes it checkable: what is claimed (``rank(M) >= r``, ``rank(M) = r``,
``sep_(A,B)(f) >= r``, ``k-rank = k``) and the data that proves it -- a prime and the rows
and columns of a non-zero r x r minor, the integer templates and the function's integer
parameters or the whole matrix (so the entries can be recomputed), kernel vectors for upper
sides, and the subject the claim is about -- as JSON with a schema version.  :func:`verify`
re-checks it with Python integers and fractions only, with its own evaluator of the
attention network: :mod:`seprank.certificates.verify` imports
nothing but the standard library (tested), so it can be copied out and run alone.

* :func:`certify` -- any certified result -> its certificate;
* :func:`matrix_certificate` -- ``matrix_rank`` / ``rank_mod_p`` (a minor; a kernel basis for an
  exact rank below full);
* :meth:`~seprank.separation.result.SeparationRankResult.certificate` -- ``separation_rank``
  (a minor of the last grid matrix; for a rank computed block by block, the default for
  network entries and the in-context representation, one minor per degree block and the
  homogeneity the sum rests on);
* :meth:`seprank.SeqSepResult.certificate` -- in-context seq-sep;
  :meth:`seprank.WitnessResult.certificate` -- the Lemma 6 witness of 003;
  ``identifiability.masked.kruskal_certificates`` -- Kruskal ranks, both sides;
* :func:`verify` -- the independent checker -> :class:`Verification`, whose ``status`` is
  ``'verified'`` (the only ``ok``: every value recomputed, the proof holds), ``'rejected'``,
  ``'unchecked'`` (values it could not recompute: an opaque function) or ``'refused'``
  (malformed or over its :class:`VerifyBudget`); it never raises, whatever it is handed.

This floor is paper-free: it imports only :mod:`seprank.core`, so both libraries build on it
(``identifiability`` certifies Kruskal ranks with it).

Finding the witness costs one echelon form of the matrix mod p (the price of the rank) plus
one of an r x m matrix (per block for a block result); a separation rank computed with
``keep_witness=True`` finds it from its last grid matrix (of each block), otherwise the
certificate re-evaluates that grid once
(``benchmarks/bench_certificates.py`` measures both and the verification time).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seprank.certificates.build import *
from seprank.certificates.verify import *
from seprank.core.index import reexport

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, ["build", "verify"])
