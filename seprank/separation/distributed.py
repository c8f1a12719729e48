r"""The degree blocks' ranks on dask.distributed: one certified rank, its blocks on many workers.

A separation rank computed by degree blocks (:mod:`seprank.separation.blocks`) is a sum of
independent GF(p) ranks, one per block.  With ``executor=`` other than ``'serial'``
(:func:`seprank.separation_rank`, :func:`seprank.incontext_seq_sep`) the blocks' first-round
matrices -- all computed by the one sweep in the calling process -- are ranked on a dask
cluster (:func:`seprank.core.cluster.dask_client`: an embedded ``LocalCluster`` of
single-threaded worker processes, a scheduler address, or a ``Client``):

1. each matrix goes to one worker, chosen longest-processing-time first on the rank's
   multiply-adds :math:`r\,c\,\min(r, c)` (the largest block first, each to the least loaded
   worker): :func:`assign_blocks`;
2. the worker computes :func:`rank_block` -- the GF(p) rank the serial path computes
   (:func:`~seprank.core.rank.rank_mod_p`, on one BLAS thread) -- and returns the
   :class:`~seprank.core.rank.RankResult` with its own wall and CPU seconds;
3. block k's growth loop takes that rank for its first round
   (:meth:`BlockRanks.rank_of`), but only for the matrix that was sent: the round's matrix is
   compared with it entry by entry, and any other matrix (a later growth round, rare) is
   ranked in the calling process.

So the result -- ranks, stops, templates, the witnesses a certificate needs (found in the
calling process from the matrices it kept) -- is the serial path's; only where the ranks ran
differs, and the result says where (``details['executor']``) and what each block cost there
(``details['block_ranks_on_workers']``).  The sweep of scaled grids stays in the calling
process (the compiled evaluator already runs on every core of this machine).

Examples
--------
>>> assign_blocks({0: (10, 10), 1: (30, 30), 2: (20, 20)}, ["w1", "w2"])
{1: 'w1', 2: 'w2', 0: 'w2'}
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from seprank.core.cluster import check_local_workers, check_scheduler_address, dask_client
from seprank.core.domains import ModularDomain
from seprank.core.rank import RankResult, rank_mod_p
from seprank.core.types import Array

__all__ = ["BlockRanks", "assign_blocks", "block_ranks", "check_executor", "rank_block"]


def check_executor(executor: Any) -> Any:
    """``executor`` as given, when it names somewhere the blocks can run.

    Parameters
    ----------
    executor : 'serial', None, int, str or distributed.Client
        ``'serial'`` (default of the engines): in this process.  None: an embedded
        ``LocalCluster`` with one worker process per available core; an int: that many
        worker processes; a str: a scheduler address; a ``distributed.Client``.

    Returns
    -------
    object
        The executor, unchanged.

    Examples
    --------
    >>> check_executor("serial"), check_executor(2)
    ('serial', 2)
    >>> check_executor(0)
    Traceback (most recent call last):
    ...
    ValueError: executor=0: an embedded dask cluster takes 1 to ... worker processes ...
    """
    if executor is None or (isinstance(executor, str) and executor == "serial"):
        return executor
    if isinstance(executor, bool) or not (
            isinstance(executor, int | str) or hasattr(executor, "submit")
            or hasattr(executor, "scheduler_address")):
        raise TypeError(f"executor must be 'serial', None (a local dask cluster), a number of "
                        f"worker processes, a scheduler address or a distributed.Client, got "
                        f"{executor!r}")
    if isinstance(executor, int):
        check_local_workers(executor)
    if isinstance(executor, str):
        check_scheduler_address(executor)
    return executor


def assign_blocks(shapes: Mapping[int, tuple[int, int]],
                  workers: Sequence[str]) -> dict[int, str]:
    """Longest processing time first: blocks by decreasing :math:`r\\,c\\,\\min(r, c)`, each to
    the worker with the least assigned so far (ties: the first such worker).

    Parameters
    ----------
    shapes : mapping of int to (int, int)
        Block index -> its matrix shape.
    workers : sequence of str
        The workers' addresses.

    Returns
    -------
    dict
        Block index -> worker, in the order the blocks were assigned.

    Examples
    --------
    >>> assign_blocks({0: (4, 4), 1: (3, 3)}, ["a"])
    {0: 'a', 1: 'a'}
    """
    if not workers:
        raise ValueError("the cluster has no workers: start some, or use executor='serial'")
    load = dict.fromkeys(workers, 0.0)
    out: dict[int, str] = {}
    for k in sorted(shapes, key=lambda k: (-_cost(shapes[k]), k)):
        worker = min(workers, key=lambda w: load[w])
        out[k] = worker
        load[worker] += _cost(shapes[k])
    return out


def _cost(shape: tuple[int, int]) -> float:
    r, c = shape
    return float(r) * c * min(r, c)


def rank_block(matrix: Array, p: int) -> tuple[RankResult, float, float]:
    """The GF(p) rank of one block's matrix, run on a worker, with the worker's wall and CPU
    seconds.

    Parameters
    ----------
    matrix : numpy.ndarray
        The block's matrix (int32 or int64 residues).
    p : int
        The prime of the engine's domain.

    Returns
    -------
    tuple of (RankResult, float, float)
        :func:`~seprank.core.rank.rank_mod_p` of the matrix (what :meth:`ModularDomain.rank`
        computes, here on one BLAS thread), wall seconds, CPU seconds.

    Examples
    --------
    >>> result, wall, cpu = rank_block(np.array([[1, 2], [2, 4]], dtype=np.int32), 7)
    >>> result.rank
    1
    """
    wall, cpu = time.perf_counter(), time.process_time()
    result = rank_mod_p(np.asarray(matrix), p, threads=1)  # one process per core: one thread
    return result, time.perf_counter() - wall, time.process_time() - cpu


class BlockRanks:
    """The first-round ranks of the blocks, computed on a dask cluster (module docstring).

    Parameters
    ----------
    client : distributed.Client
        The cluster's client.
    domain : ModularDomain
        The engine's GF(p) domain.
    matrices : mapping of int to numpy.ndarray
        Block index -> its first-round matrix (as the sweep cached it).
    """

    def __init__(self, client: Any, domain: ModularDomain, matrices: Mapping[int, Array]) -> None:
        self.domain = domain
        self.matrices = dict(matrices)
        workers = sorted(client.scheduler_info()["workers"])
        self.assignment = assign_blocks({k: M.shape for k, M in self.matrices.items()},
                                        workers)
        self.futures: dict[int, Any] = {}
        self.costs: dict[int, dict[str, Any]] = {}
        token = f"{time.time_ns():x}"
        for order, (k, worker) in enumerate(self.assignment.items()):
            [data] = client.scatter([self.matrices[k]], workers=[worker], hash=False)
            self.futures[k] = client.submit(
                rank_block, data, domain.p, workers=[worker], allow_other_workers=False,
                key=f"block-rank-{token}-{k}", priority=len(self.assignment) - order,
                pure=False)

    def rank_of(self, k: int) -> Callable[[Array], RankResult]:
        """Block k's ``rank_of`` for the growth loop: the worker's rank for the matrix that was
        sent (checked equal entry by entry), the domain's rank for any other.

        Parameters
        ----------
        k : int
            The block's index.

        Returns
        -------
        callable
            ``rank_of(E)`` -> :class:`~seprank.core.rank.RankResult`.
        """
        def rank(E: Array) -> RankResult:
            sent = self.matrices.get(k)
            if sent is not None and k in self.futures and sent.shape == E.shape \
                    and np.array_equal(sent, E):
                del self.matrices[k]
                result, wall, cpu = self.futures.pop(k).result()
                self.costs[k] = {"worker": self.assignment[k], "shape": tuple(E.shape),
                                 "wall": wall, "cpu": cpu}
                return result
            return self.domain.rank(E)

        return rank

    def release(self) -> None:
        """Cancel what was not used (a block whose first round was not the sent matrix)."""
        for future in self.futures.values():
            future.cancel()
        self.futures.clear()
        self.matrices.clear()


@contextmanager
def block_ranks(executor: Any, domain: ModularDomain,
                matrices: Mapping[int, Array]) -> Iterator[tuple[BlockRanks | None, str]]:
    """A :class:`BlockRanks` pool on the cluster ``executor`` names, and where it runs (no
    pool for ``'serial'`` or when no matrix was cached); a cluster started here is closed on
    exit.

    Parameters
    ----------
    executor : 'serial', None, int, str or distributed.Client
        Where the ranks run (:func:`check_executor`).
    domain : ModularDomain
        The engine's GF(p) domain.
    matrices : mapping of int to numpy.ndarray
        Block index -> its first-round matrix.

    Yields
    ------
    tuple of (BlockRanks or None, str)
        The pool (None: serial) and a description of where the ranks run.

    Examples
    --------
    >>> with block_ranks("serial", ModularDomain(7), {}) as (pool, where):
    ...     pool is None, where
    (True, 'serial (this process)')
    """
    # this frame lives as long as the caller's with-block: it must not keep the matrices
    # (the caller releases each block's matrix when the block is done)
    if executor == "serial" or not matrices:
        del matrices
        yield None, "serial (this process)"
        return
    with dask_client(executor) as (client, where):
        pool = BlockRanks(client, domain, matrices)
        del matrices
        try:
            yield pool, where
        finally:
            pool.release()
