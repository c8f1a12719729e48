r"""Semiautomata (004 §3.3.1): states, inputs, transition matrices, runs.

A semiautomaton :math:`\mathcal A = (Q, \Sigma, \delta)` maps an input word
:math:`\sigma_{1:T}` and a start state :math:`q_0` to the states
:math:`q_t = \delta(q_{t-1}, \sigma_t)`.  Its transition matrices follow the thesis'
convention :math:`[\delta(\cdot,\sigma)]_{q',q} = \mathbf 1\{\delta(q,\sigma) = q'\}`, so that
:math:`e_{\delta(q,\sigma)} = \delta(\cdot,\sigma)\, e_q` and a run is a product of matrices.

Internally states and symbols are numbered ``0..|Q|-1`` and ``0..|Sigma|-1`` in the order
given; ``table[a, q]`` is the index of :math:`\delta(q, \sigma_a)`.  A transformation (the map
of a word) is a tuple ``f`` with ``f[q]`` the image of state ``q``; the word
:math:`\sigma_1\sigma_2` acts as :math:`\delta(\cdot,\sigma_2)\circ\delta(\cdot,\sigma_1)`.

The transformation semigroup (:meth:`Semiautomaton.transformation_semigroup`) lives in
:mod:`seprank.automata.semigroup`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence, Sized
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.memory import OBJECT_ENTRY_BYTES, array_bytes, guard_memory
from seprank.core.types import IntArray
from seprank.core.validation import check_array, check_int, check_work

__all__ = ["Semiautomaton"]



class Semiautomaton:
    r"""A finite semiautomaton :math:`(Q, \Sigma, \delta)` (004 §3.3.1).

    Parameters
    ----------
    states : sequence of hashable
        :math:`Q`, distinct.
    alphabet : sequence of hashable
        :math:`\Sigma`, distinct.
    delta : callable, mapping or array
        :math:`\delta`: a function ``delta(q, sigma) -> q'``, a mapping ``{(q, sigma): q'}``
        that must be total, or an integer array ``table`` of shape ``(|Sigma|, |Q|)`` of state
        indices.
    name : str, keyword-only
        Shown by ``repr``.

    Raises
    ------
    ValueError
        Empty or repeated states/symbols, a missing transition, or an image outside Q.

    References
    ----------
    .. [1] 004 §3.3.1 (semiautomata, transition matrices, Examples 1-7).

    Examples
    --------
    >>> parity = Semiautomaton([0, 1], [0, 1], lambda q, s: (q + s) % 2, name="parity")
    >>> parity.run([1, 1, 0, 1], 0)
    (1, 0, 0, 1)
    >>> parity.transition_matrix(1)
    array([[0, 1],
           [1, 0]])
    """

    def __init__(self, states: Sequence[Hashable], alphabet: Sequence[Hashable],
                 delta: Callable[[Any, Any], Any] | Mapping[tuple[Any, Any], Any] | Any, *,
                 name: str = "") -> None:
        for arg, items in (("states", states), ("alphabet", alphabet)):
            if isinstance(items, bytes) or not isinstance(items, Iterable):
                raise TypeError(f"{arg} must be a sequence of hashable labels, got {items!r} "
                                f"({type(items).__name__})")
        if isinstance(states, Sized) and isinstance(alphabet, Sized):
            guard_size(len(states), len(alphabet))
        self.states: tuple[Hashable, ...] = _distinct("states", states)
        self.alphabet: tuple[Hashable, ...] = _distinct("alphabet", alphabet)
        guard_size(len(self.states), len(self.alphabet))
        self.name = str(name)
        self._state_index = {q: i for i, q in enumerate(self.states)}
        self._symbol_index = {s: i for i, s in enumerate(self.alphabet)}
        self.table: IntArray = self._build_table(delta)
        self.table.setflags(write=False)

    def _build_table(self, delta: Any) -> IntArray:
        nq, ns = len(self.states), len(self.alphabet)
        if isinstance(delta, np.ndarray) or (isinstance(delta, list | tuple)
                                             and not callable(delta)):
            table = np.asarray(delta)
            if table.shape != (ns, nq) or table.dtype.kind not in "iu":
                raise ValueError(f"delta as a table must be an integer array of shape "
                                 f"(|alphabet|, |states|) = {(ns, nq)}, got {table.shape} "
                                 f"{table.dtype}")
            if table.size and (table.min() < 0 or table.max() >= nq):
                raise ValueError("delta table entries must be state indices in 0..|Q|-1")
            return table.astype(np.int64)
        table = np.empty((ns, nq), dtype=np.int64)
        for a, s in enumerate(self.alphabet):
            for i, q in enumerate(self.states):
                if isinstance(delta, Mapping):
                    if (q, s) not in delta:
                        raise ValueError(f"delta is not total: no transition for ({q!r}, {s!r})")
                    image = delta[(q, s)]
                elif callable(delta):
                    image = delta(q, s)
                else:
                    raise ValueError("delta must be a callable, a mapping or an integer table")
                if image not in self._state_index:
                    raise ValueError(f"delta({q!r}, {s!r}) = {image!r} is not a state")
                table[a, i] = self._state_index[image]
        return table

    # ------------------------------------------------------------------ basic views
    @property
    def n_states(self) -> int:
        """:math:`|Q|`."""
        return len(self.states)

    @property
    def n_symbols(self) -> int:
        r""":math:`|\Sigma|`."""
        return len(self.alphabet)

    def state_index(self, q: Hashable, *, name: str = "q") -> int:
        """Index of state ``q`` (a ValueError naming the argument ``name`` when unknown).

        Parameters
        ----------
        q : state
            A state.
        name : str, keyword-only
            The argument's name in messages.

        Returns
        -------
        int
            Its index.
        """
        try:
            return self._state_index[q]
        except (KeyError, TypeError):
            raise ValueError(f"{name} = {_short(q)} is not a state of {self!r}; states: "
                             f"{_short(self.states)}") from None

    def symbol_index(self, s: Hashable, *, name: str = "s") -> int:
        """Index of input symbol ``s`` (a ValueError naming the argument ``name`` when
        unknown).

        Parameters
        ----------
        s : symbol
            An input symbol.
        name : str, keyword-only
            The argument's name in messages.

        Returns
        -------
        int
            Its index.
        """
        try:
            return self._symbol_index[s]
        except (KeyError, TypeError):
            raise ValueError(f"{name} = {_short(s)} is not an input symbol of {self!r}; "
                             f"alphabet: {_short(self.alphabet)}") from None

    def encode(self, word: Iterable[Hashable], *, name: str = "word") -> IntArray:
        """Symbol indices of ``word`` (a sequence of symbols; ``name`` is the argument's name
        in messages).

        Parameters
        ----------
        word : iterable of symbols
            The word.
        name : str, keyword-only
            The argument's name in messages.

        Returns
        -------
        numpy.ndarray
            Symbol indices.
        """
        if isinstance(word, str | bytes) and not any(isinstance(a, str) and len(a) == 1
                                                     for a in self.alphabet):
            raise TypeError(f"{name} must be a sequence of input symbols, got the string "
                            f"{_short(word)}; alphabet: {_short(self.alphabet)}")
        if not isinstance(word, Iterable):
            raise TypeError(f"{name} must be a sequence of input symbols, got {_short(word)} "
                            f"({type(word).__name__})")
        return np.array([self.symbol_index(s, name=f"{name}: symbol") for s in word],
                        dtype=np.int64)

    def delta(self, q: Hashable, s: Hashable) -> Hashable:
        r""":math:`\delta(q, \sigma)`.

        Parameters
        ----------
        q : state
            A state.
        s : symbol
            An input symbol.

        Returns
        -------
        state
            The next state.
        """
        return self.states[int(self.table[self.symbol_index(s), self.state_index(q)])]

    def transition_matrix(self, s: Hashable) -> IntArray:
        r"""The 0/1 matrix :math:`[\delta(\cdot,\sigma)]_{q',q} = \mathbf 1\{\delta(q,\sigma)=q'\}`
        (columns index the current state).

        Parameters
        ----------
        s : symbol
            An input symbol.

        Returns
        -------
        numpy.ndarray
            Shape ``(|Q|, |Q|)``.
        """
        a = self.symbol_index(s)
        guard_memory(array_bytes((self.n_states, self.n_states), np.int64),
                     what=f"a {self.n_states} x {self.n_states} transition matrix",
                     fix="use the table (Semiautomaton.table) of so many states")
        M = np.zeros((self.n_states, self.n_states), dtype=np.int64)
        M[self.table[a], np.arange(self.n_states)] = 1
        return M

    def transition_matrices(self) -> IntArray:
        """All transition matrices, shape ``(|Sigma|, |Q|, |Q|)`` in alphabet order.

        Returns
        -------
        numpy.ndarray
            Shape ``(|Sigma|, |Q|, |Q|)``.
        """
        guard_memory(2 * array_bytes((self.n_symbols, self.n_states, self.n_states), np.int64),
                     what=f"{self.n_symbols} transition matrices of {self.n_states} states",
                     fix="use the table (Semiautomaton.table) of so many states")
        return np.stack([self.transition_matrix(s) for s in self.alphabet])

    def is_permutation_automaton(self) -> bool:
        """Every input permutes the states (then the transformation semigroup is a group).

        Returns
        -------
        bool
            Whether every input permutes the states.
        """
        return all(len(set(row.tolist())) == self.n_states for row in self.table)

    # ------------------------------------------------------------------ runs
    def run(self, word: Iterable[Hashable], q0: Hashable) -> tuple[Hashable, ...]:
        r"""The state sequence :math:`(q_1, \dots, q_T)` from :math:`q_0` (004 §3.3.1).

        Parameters
        ----------
        word : iterable of symbols
            The word.
        q0 : state
            The start state.

        Returns
        -------
        tuple
            The states.
        """
        q = self.state_index(q0, name="q0")
        out = []
        for a in self.encode(word):
            q = int(self.table[a, q])
            out.append(self.states[q])
        return tuple(out)

    def final_state(self, word: Iterable[Hashable], q0: Hashable) -> Hashable:
        """:math:`q_T` (``q0`` for the empty word).

        Parameters
        ----------
        word : iterable of symbols
            The word.
        q0 : state
            The start state.

        Returns
        -------
        state
            :math:`q_T`.
        """
        states = self.run(word, q0)
        return states[-1] if states else q0

    def run_indices(self, words: npt.ArrayLike, q0: int | npt.ArrayLike) -> IntArray:
        """Vectorised runs: ``words`` of shape ``(n, T)`` (symbol indices), ``q0`` a state index
        or one per word; returns the state indices, shape ``(n, T)``.

        Parameters
        ----------
        words : array_like
            Symbol indices, shape (n, T).
        q0 : int or array_like
            Start state index, or one per word.

        Returns
        -------
        numpy.ndarray
            State indices, shape (n, T).
        """
        W = check_array("words", words, ndim=2, dtype=np.int64, min_size=0,
                        what="(n, T) symbol indices")
        if W.size and (W.min() < 0 or W.max() >= self.n_symbols):
            raise ValueError(f"words must hold symbol indices in 0..{self.n_symbols - 1}")
        q0_arr = check_array("q0", q0, ndim=(0, 1), dtype=np.int64, min_size=0)
        try:
            q = np.broadcast_to(q0_arr, (W.shape[0],)).copy()
        except ValueError:
            raise ValueError(f"q0 must be one state index or one per word ({W.shape[0]}), got "
                             f"shape {q0_arr.shape}") from None
        if q.size and (q.min() < 0 or q.max() >= self.n_states):
            raise ValueError(f"q0 must be state indices in 0..{self.n_states - 1}")
        out = np.empty(W.shape, dtype=np.int64)
        for t in range(W.shape[1]):
            q = self.table[W[:, t], q]
            out[:, t] = q
        return out

    def transformation(self, word: Iterable[Hashable]) -> tuple[int, ...]:
        r"""The map :math:`\delta(\cdot, \sigma_{1:T})` as a tuple of state indices.

        Parameters
        ----------
        word : iterable of symbols
            The word.

        Returns
        -------
        tuple of int
            The image of each state index.
        """
        f = np.arange(self.n_states)
        for a in self.encode(word):
            f = self.table[a][f]
        return tuple(int(v) for v in f)

    def reachable_states(self, q0: Hashable) -> frozenset[Hashable]:
        """States reachable from ``q0`` by some word (breadth-first search).

        Parameters
        ----------
        q0 : state
            The start state.

        Returns
        -------
        frozenset
            The reachable states (q0 included).
        """
        seen = {self.state_index(q0, name="q0")}
        frontier = list(seen)
        while frontier:
            nxt = {int(self.table[a, q]) for q in frontier for a in range(self.n_symbols)}
            frontier = list(nxt - seen)
            seen |= nxt
        return frozenset(self.states[i] for i in seen)

    def transformation_semigroup(self, *, max_size: int = 200_000) -> Any:
        r"""The transformation semigroup :math:`\mathcal T(\mathcal A)` by closure (see
        :func:`seprank.automata.semigroup.transformation_semigroup`).

        Parameters
        ----------
        max_size : int, keyword-only
            Refuse semigroups larger than this (default 200000).

        Returns
        -------
        TransformationSemigroup
            The semigroup.
        """
        from seprank.automata.semigroup import transformation_semigroup

        return transformation_semigroup(self, max_size=max_size)

    def all_words(self, length: int) -> IntArray:
        r"""Every word of ``length`` as symbol indices, shape ``(|\Sigma|^T, T)``, lexicographic
        (refuses more than :data:`MAX_WORDS` words).

        Parameters
        ----------
        length : int
            T.

        Returns
        -------
        numpy.ndarray
            The words.
        """
        T = check_int("length", length, minimum=0)
        if self.n_symbols > 1 and T * math.log(self.n_symbols) > math.log(MAX_WORDS) + 1e-9:
            shown = (self.n_symbols ** T if T < 64
                     else f"about 10^{T * math.log10(self.n_symbols):.4g}")
            raise ValueError(f"{self.n_symbols}^{T} = {shown} words exceed MAX_WORDS = "
                             f"{MAX_WORDS}; choose a shorter length")
        n = self.n_symbols ** T
        if n > MAX_WORDS:
            raise ValueError(f"{self.n_symbols}^{T} = {n} words exceed MAX_WORDS = {MAX_WORDS}; "
                             "choose a shorter length")
        guard_memory(2 * array_bytes((n, T), np.int64), what=f"{n} words of length {T}",
                     fix="choose a shorter length")
        if T == 0:
            return np.zeros((1, 0), dtype=np.int64)
        grids = np.indices((self.n_symbols,) * T).reshape(T, -1).T
        return np.ascontiguousarray(grids, dtype=np.int64)

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        return f"Semiautomaton({label}|Q|={self.n_states}, |Sigma|={self.n_symbols})"


#: Largest number of words :meth:`Semiautomaton.all_words` enumerates.
MAX_WORDS = 2_000_000
#: Bytes one state or symbol costs beyond the table: its label, a tuple slot and an index
#: dictionary entry (Python objects).
LABEL_BYTES = 3 * OBJECT_ENTRY_BYTES
#: Elementary operations one transition costs to build (a call of ``delta`` and a lookup).
TRANSITION_OPS = 100


def guard_size(n_states: int, n_symbols: int) -> None:
    """Refuse a semiautomaton of ``n_states`` states and ``n_symbols`` inputs whose labels and
    table exceed the memory limit, or whose transitions exceed the work budget (callers that
    build the label lists themselves call this first)."""
    guard_memory((n_states + n_symbols) * LABEL_BYTES
                 + array_bytes((n_symbols, n_states), np.int64) * 2,
                 what=f"a semiautomaton of {n_states} states and {n_symbols} inputs",
                 fix="use fewer states or inputs")
    check_work(n_states * n_symbols * TRANSITION_OPS,
               what=f"the {n_states} x {n_symbols} transitions of a semiautomaton",
               fix="use fewer states or inputs")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _distinct(name: str, items: Iterable[Hashable]) -> tuple[Hashable, ...]:
    values = tuple(items)
    if not values:
        raise ValueError(f"{name} must not be empty")
    try:
        unique = len(set(values))
    except TypeError:
        raise ValueError(f"{name} must be hashable") from None
    if unique != len(values):
        raise ValueError(f"{name} repeats an element: {_short(values)}")
    return values
