r"""002, Definition 3.1, Condition 3.2 and Lemma B.11: the binary tasks and which training sets
cover them.

A task is an ordered pair :math:`(a, b)`, :math:`a \ne b`, of relevant patterns: it maps a query
whose relevant pattern is :math:`\mu_a` to +1, :math:`\mu_b` to -1, and any other pattern to a
uniformly random label (Definition 3.1, eq. 7).  There are :math:`M_1(M_1-1)` of them.  Here a
task is the tuple ``(a, b)`` of 0-based pattern indices.

**Condition 3.2.** For every :math:`j \in [M_1]` and each label :math:`\pm1`, the number of
training tasks that map :math:`\mu_j` to that label is :math:`|T_{tr}|/M_1 \;(\ge 1)`.  In
graph terms: the tasks are the arcs of a simple digraph on :math:`M_1` vertices, and the
condition says that digraph is :math:`k`-regular (out- and in-degree :math:`k = |T_{tr}|/M_1`
at every vertex) with :math:`k \ge 1`.  Hence :math:`|T_{tr}| \ge M_1` (Lemma B.11), and the
training sets of size exactly :math:`M_1` are the fixed-point-free permutations (derangements),
e.g. the cyclic family :math:`j \mapsto j+1 \bmod M_1` of Lemma B.11 and §3.3.

**The experiments' family (§5).** With :math:`a_i = a_{i+M_1} = \mu_i`, task number
:math:`(k-1)M_1 + j` maps :math:`a_j \to +1` and :math:`a_{j+k} \to -1`, :math:`j \in [M_1]`,
:math:`k \in [U]` (``shift_tasks(M1, U)``; ``U = 1`` is the cyclic family).

References
----------
002, Definition 3.1 (eq. 7), Condition 3.2, Lemma B.11 and its proof (App. C.1), §5 (training
tasks), §A.2 (Figure 7).  Notes: docs/notes/seed_icl_nonlinear.md §1.4.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass

import numpy as np

from identifiability.icl._checks import check_int
from seprank.core.memory import OBJECT_ENTRY_BYTES, guard_memory

__all__ = [
    "Condition32",
    "Task",
    "all_tasks",
    "condition_32",
    "condition_32_subset_counts",
    "cyclic_tasks",
    "shift_tasks",
    "unseen_tasks",
]

Task = tuple[int, int]

#: Largest number of tasks whose subsets :func:`condition_32_subset_counts` enumerates
#: (2**20 subsets for M1 = 5; M1 = 6 would need 2**30).
MAX_ENUMERATED_TASKS = 20


def _check_tasks(tasks: Iterable[Sequence[int]], M1: int, name: str = "tasks") -> list[Task]:
    """``tasks`` (the argument ``name``) validated as distinct ordered pairs ``(a, b)``,
    ``a != b``, of pattern indices < M1."""
    if isinstance(tasks, str | bytes) or not isinstance(tasks, Iterable):
        raise TypeError(f"{name} must be a list of pairs (a, b) of pattern indices, got "
                        f"{tasks!r} ({type(tasks).__name__})")
    _guard_tasks(len(tasks) if isinstance(tasks, Sized) else 0, name)
    out: list[Task] = []
    for t in tasks:
        if isinstance(t, str | bytes) or not isinstance(t, Sequence | np.ndarray) or len(t) != 2:
            raise ValueError(f"{name}: a task is a pair (a, b) of pattern indices, got {t!r}")
        a = check_int(f"{name}: task index a", t[0], 0, M1 - 1)
        b = check_int(f"{name}: task index b", t[1], 0, M1 - 1)
        if a == b:
            raise ValueError(f"{name}: task {t!r}: the two decisive patterns must differ "
                             "(Def. 3.1)")
        out.append((a, b))
    if len(set(out)) != len(out):
        raise ValueError(f"{name} contain a duplicate; a task set is a set of ordered pairs")
    return out


def _guard_tasks(n_tasks: int, name: str) -> None:
    """Refuse a list of ``n_tasks`` pairs beyond the memory limit (each pair and its two ints
    are Python objects)."""
    guard_memory(n_tasks * 3 * OBJECT_ENTRY_BYTES, what=f"{n_tasks} tasks ({name})",
                 fix="use fewer relevant patterns (lower M1)")


def all_tasks(M1: int) -> list[Task]:
    """The :math:`M_1(M_1-1)` in-domain tasks of Definition 3.1, as ordered pairs ``(a, b)``.

    Parameters
    ----------
    M1 : int
        :math:`M_1`, the number of relevant patterns.

    Returns
    -------
    list of Task
        The tasks ``(a, b)``.

    Examples
    --------
    >>> all_tasks(3)
    [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
    """
    M1 = check_int("M1", M1, 2)
    _guard_tasks(M1 * (M1 - 1), "all tasks of M1 patterns")
    return [(a, b) for a in range(M1) for b in range(M1) if a != b]


def shift_tasks(M1: int, shifts: int = 1) -> list[Task]:
    r"""The experiments' training family (§5): task :math:`(k-1)M_1 + j` is
    :math:`(j, j + k \bmod M_1)` for :math:`k = 1..U` (``shifts``), :math:`j = 0..M_1-1`.

    Parameters
    ----------
    M1 : int
        :math:`M_1`.
    shifts : int, default 1
        U.

    Returns
    -------
    list of Task
        :math:`U M_1` tasks.

    Examples
    --------
    >>> shift_tasks(4, 2)
    [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3), (2, 0), (3, 1)]
    """
    M1 = check_int("M1", M1, 2)
    shifts = check_int("shifts U", shifts, 1, M1 - 1)
    _guard_tasks(M1 * shifts, "the shifted tasks")
    return [(j, (j + k) % M1) for k in range(1, shifts + 1) for j in range(M1)]


def cyclic_tasks(M1: int) -> list[Task]:
    """Lemma B.11's construction: task ``j`` maps :math:`\\mu_j \\to +1` and
    :math:`\\mu_{j+1} \\to -1` (indices mod :math:`M_1`).

    Parameters
    ----------
    M1 : int
        :math:`M_1`.

    Returns
    -------
    list of Task
        :math:`M_1` tasks.

    Examples
    --------
    >>> cyclic_tasks(3)
    [(0, 1), (1, 2), (2, 0)]
    """
    return shift_tasks(M1, 1)


def unseen_tasks(M1: int, training: Iterable[Sequence[int]]) -> list[Task]:
    """The in-domain tasks not in ``training`` (:math:`T \\setminus T_{tr}`).

    Parameters
    ----------
    M1 : int
        :math:`M_1`.
    training : iterable of (int, int)
        The training tasks.

    Returns
    -------
    list of Task
        The other in-domain tasks.

    Examples
    --------
    >>> len(unseen_tasks(6, cyclic_tasks(6))), len(unseen_tasks(6, shift_tasks(6, 4)))
    (24, 6)
    """
    seen = set(_check_tasks(training, check_int("M1", M1, 2), "training"))
    return [t for t in all_tasks(M1) if t not in seen]


@dataclass(frozen=True)
class Condition32:
    """Condition 3.2 evaluated on a training set.

    Attributes
    ----------
    holds : bool
        Every pattern is mapped to +1 by exactly :math:`|T_{tr}|/M_1 \\ge 1` tasks and to -1 by
        as many.
    positive_counts, negative_counts : tuple of int
        For each pattern j, the number of tasks mapping :math:`\\mu_j` to +1 (resp. -1).
    n_tasks, M1 : int
    """

    holds: bool
    positive_counts: tuple[int, ...]
    negative_counts: tuple[int, ...]
    n_tasks: int
    M1: int

    @property
    def fraction_of_all_tasks(self) -> float:
        """:math:`|T_{tr}| / (M_1(M_1-1))`."""
        return self.n_tasks / (self.M1 * (self.M1 - 1))


def condition_32(tasks: Iterable[Sequence[int]], M1: int) -> Condition32:
    """Check Condition 3.2 for the training set ``tasks`` over :math:`M_1` patterns.

    Parameters
    ----------
    tasks : iterable of (int, int)
        The training tasks.
    M1 : int
        :math:`M_1`.

    Returns
    -------
    Condition32
        The verdict and what it rests on.

    Examples
    --------
    >>> condition_32(cyclic_tasks(6), 6).holds, condition_32(cyclic_tasks(6)[:5], 6).holds
    (True, False)
    >>> condition_32([(0, 1), (1, 0)], 3).holds         # pattern 2 is never decisive
    False
    """
    M1 = check_int("M1", M1, 2)
    checked = _check_tasks(tasks, M1)
    guard_memory(16 * M1, what=f"the task counts of {M1} patterns", fix="lower M1")
    pos = np.zeros(M1, dtype=np.int64)
    neg = np.zeros(M1, dtype=np.int64)
    for a, b in checked:
        pos[a] += 1
        neg[b] += 1
    n = len(checked)
    holds = n % M1 == 0 and n >= M1 and bool(np.all(pos == n // M1) and np.all(neg == n // M1))
    return Condition32(holds, tuple(int(x) for x in pos), tuple(int(x) for x in neg), n, M1)


def condition_32_subset_counts(M1: int) -> dict[int, int]:
    """For each size s, how many of the :math:`2^{M_1(M_1-1)}` task subsets satisfy
    Condition 3.2 -- by enumerating every subset (bitmasks, vectorised in chunks).

    Only sizes with at least one satisfying subset appear.  Lemma B.11 says the smallest key
    is :math:`M_1`; the count there is the number of derangements of :math:`M_1` elements.

    Parameters
    ----------
    M1 : int
        :math:`M_1` (small: :math:`2^{M_1(M_1-1)}` subsets).

    Returns
    -------
    dict of int to int
        Size -> number of satisfying subsets.

    Raises
    ------
    ValueError
        :math:`M_1(M_1-1) >` :data:`MAX_ENUMERATED_TASKS` (M1 > 5): too many subsets.

    Examples
    --------
    >>> condition_32_subset_counts(3)
    {3: 2, 6: 1}
    """
    M1 = check_int("M1", M1, 2)
    n = M1 * (M1 - 1)
    if n > MAX_ENUMERATED_TASKS:
        raise ValueError(f"M1 = {M1} has {n} tasks, 2**{n} subsets: more than the 2**"
                         f"{MAX_ENUMERATED_TASKS} this enumeration allows (use M1 <= 5)")
    tasks = all_tasks(M1)
    incidence = np.zeros((n, 2 * M1), dtype=np.int64)      # task -> (+1 count, -1 count)
    for t, (a, b) in enumerate(tasks):
        incidence[t, a] = 1
        incidence[t, M1 + b] = 1
    bits = np.arange(n, dtype=np.int64)
    counts: dict[int, int] = {}
    chunk = 1 << 16
    for start in range(0, 1 << n, chunk):
        masks = np.arange(start, min(start + chunk, 1 << n), dtype=np.int64)
        member = (masks[:, None] >> bits) & 1                 # (chunk, n)
        degree = member @ incidence                           # (chunk, 2 M1)
        size = member.sum(axis=1)
        ok = (size % M1 == 0) & (size >= M1) & np.all(degree == (size // M1)[:, None], axis=1)
        for s, c in zip(*np.unique(size[ok], return_counts=True), strict=True):
            counts[int(s)] = counts.get(int(s), 0) + int(c)
    return dict(sorted(counts.items()))
