r"""The semiautomata of 004 Chapter 3: Examples 1-7, Definitions 4-5, 9-11, §3.4.5's test suite.

=================================  =================================================  ==============
constructor                        semiautomaton                                      where
=================================  =================================================  ==============
:func:`parity`                     :math:`Q=\Sigma=\{0,1\}`                           Example 1
:func:`flip_flop`                  two forms (``"example2"``, ``"definition11"``)     Ex. 2, Def. 11
:func:`gridworld`                  :math:`\{0..S\}`, inputs L, ⊥, R                   Example 3
:func:`modular_counter`            :math:`C_n` (Definition 4)                         Ex. 4, Def. 4
:func:`direct_product`             Definition 10 (identity inputs adjoined)           Ex. 5, Def. 10
:func:`cascade_product`            Definition 6 (feed-forward dependency)             Def. 6
:func:`dihedral`                   :math:`C_S \rtimes C_2` on                         Example 6
                                   :math:`\{0..S-1\}\times\{\pm1\}`
:func:`rubik`                      the cube's 6 face turns on 48 stickers (sympy)     Example 7
:func:`memory`                     memory unit (Definition 5)                         Def. 5
:func:`canonical_group_automaton`  :math:`Q=\Sigma=G`, :math:`\delta(g,h)=hg`         Definition 9
:func:`symmetric_group`,           :math:`S_n` (transposition, n-cycle), :math:`A_n`  §3.4.5
:func:`alternating_group`          (3-cycles :math:`(1\,2\,i)`)
:func:`quaternion_group`           :math:`Q_8` by left multiplication                 §3.3.1, §3.4.5
:func:`dihedral_group`             :math:`D_{2n}` on n points (sympy)                 §3.4.5
:func:`dyck`                       bracket stack of depth <= D, k types, reject sink  §3.4.5
:func:`abab_star`                  the 5-state (abab)* automaton                      §3.4.5
:func:`smallest_nonsolvable`       5 states; (1 2 3), (1 2 3 4 5) give :math:`A_5`    fn. 17 fix
=================================  =================================================  ==============
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Hashable, Sequence
from itertools import product

import numpy as np
from sympy.combinatorics import Permutation, PermutationGroup
from sympy.combinatorics.generators import rubik_cube_generators
from sympy.combinatorics.named_groups import DihedralGroup

from seprank.automata.semiautomaton import Semiautomaton, guard_size
from seprank.core.memory import OBJECT_ENTRY_BYTES, guard_memory
from seprank.core.validation import check_callable, check_choice, check_instance, check_int

__all__ = [
    "BOT",
    "REJECT",
    "abab_star",
    "alternating_group",
    "canonical_group_automaton",
    "cascade_product",
    "dihedral",
    "dihedral_group",
    "direct_product",
    "dyck",
    "flip_flop",
    "gridworld",
    "memory",
    "modular_counter",
    "parity",
    "permutation_automaton",
    "quaternion_group",
    "rubik",
    "smallest_nonsolvable",
    "symmetric_group",
]

#: The no-op input ⊥.
BOT = "⊥"
#: The absorbing reject state of :func:`dyck`.
REJECT = "✗"


def parity() -> Semiautomaton:
    """Example 1: :math:`\\delta(q, 0) = q`, :math:`\\delta(q, 1) = 1 - q`.

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> A = parity()
    >>> A.run([1, 1, 0, 1], 0)                  # the state is the parity of the 1s read so far
    (1, 0, 0, 1)
    >>> A.transformation_semigroup().size     # identity and swap: the group C_2
    2
    """
    return Semiautomaton([0, 1], [0, 1], lambda q, s: (q + s) % 2, name="parity")


def flip_flop(form: str = "example2") -> Semiautomaton:
    r"""The flip-flop: ``"example2"`` -- :math:`Q=\{1,2\}`, :math:`\Sigma=\{\bot,1,2\}`
    (Example 2); ``"definition11"`` -- :math:`Q=\{0,1\}`, :math:`\Sigma=\{\sigma_0,\sigma_1,
    \bot\}` (Definition 11).  Its transformation monoid is the flip-flop monoid.

    Parameters
    ----------
    form : str, default 'example2'
        Which flip-flop (see above).

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> F = flip_flop()
    >>> F.run([1, BOT, 2, BOT, BOT], 1)        # remembers the last non-⊥ input
    (1, 1, 2, 2, 2)
    >>> T = F.transformation_semigroup()      # id, "set 1", "set 2": 3 elements, no group
    >>> T.size, T.is_aperiodic(), T.is_commutative()
    (3, True, False)
    """
    check_choice("form", form, ("example2", "definition11"))
    if form == "example2":
        return Semiautomaton([1, 2], [BOT, 1, 2], lambda q, s: q if s == BOT else s,
                             name="flip-flop")
    if form == "definition11":
        return Semiautomaton([0, 1], ["σ0", "σ1", BOT],
                             lambda q, s: q if s == BOT else int(str(s)[1]), name="flip-flop")
    raise ValueError(f"form must be 'example2' or 'definition11', got {form!r}")


def gridworld(S: int) -> Semiautomaton:
    r"""Example 3: :math:`Q=\{0..S\}`, :math:`\delta(q,L)=\max(q-1,0)`,
    :math:`\delta(q,R)=\min(q+1,S)`, :math:`\delta(q,\bot)=q` (Grid\ :sub:`S+1`).

    Parameters
    ----------
    S : int
        The largest state.

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> G = gridworld(3)                      # Grid_4: positions 0..3
    >>> G.run(["R", "R", "R", "R", "L", BOT], 0)     # moves past the wall are absorbed
    (1, 2, 3, 3, 2, 2)
    >>> G.transformation_semigroup().is_aperiodic()
    True
    """
    n = check_int("S", S)
    moves = {"L": -1, BOT: 0, "R": 1}
    return Semiautomaton(range(n + 1), ["L", BOT, "R"],
                         lambda q, s: min(max(q + moves[s], 0), n), name=f"Grid_{n + 1}")


def modular_counter(n: int, *, alphabet: str = "full") -> Semiautomaton:
    r"""Definition 4: :math:`Q = \{0..n-1\}`, :math:`\delta(q,\sigma) = q+\sigma \bmod n` with
    :math:`\Sigma=\{0..n-1\}` (``alphabet="full"``) or :math:`\{0, 1\}` (``"generator"``,
    Example 4).

    Parameters
    ----------
    n : int
        The modulus.
    alphabet : {'full', 'generator'}, keyword-only
        The inputs.

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> C = modular_counter(5)
    >>> C.final_state([2, 4, 3], 0)           # 2 + 4 + 3 = 9 = 4 (mod 5)
    4
    >>> C.transformation_semigroup().size, modular_counter(5, alphabet="generator").alphabet
    (5, (0, 1))
    """
    m = check_int("n", n)
    check_choice("alphabet", alphabet, ("full", "generator"))
    symbols = range(m) if alphabet == "full" else [0, 1]
    return Semiautomaton(range(m), symbols, lambda q, s: (q + s) % m, name=f"C_{m}")


def memory(n_states: int) -> Semiautomaton:
    r"""Definition 5: :math:`Q=\{1..n\}`, :math:`\Sigma=Q\cup\{\bot\}`,
    :math:`\delta(q,\sigma)=\sigma` for :math:`\sigma\ne\bot`, :math:`\delta(q,\bot)=q`.

    Parameters
    ----------
    n_states : int
        n.

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> M = memory(3)
    >>> M.run([2, BOT, 3, BOT], 1)            # writes on a state, holds on ⊥
    (2, 2, 3, 3)
    >>> M.transformation_semigroup().size     # the identity (⊥) and the 3 constant maps
    4
    """
    n = check_int("n_states", n_states)
    guard_size(n, n + 1)
    states = list(range(1, n + 1))
    return Semiautomaton(states, [*states, BOT], lambda q, s: q if s == BOT else s,
                         name=f"memory_{n}")


def direct_product(a: Semiautomaton, b: Semiautomaton) -> Semiautomaton:
    r"""Definition 10: states :math:`Q\times Q'`, inputs :math:`(\Sigma\cup\{e\})\times
    (\Sigma'\cup\{e\})` (``"e"`` is the identity input), acting coordinatewise.

    Parameters
    ----------
    a, b : Semiautomaton
        The factors.

    Returns
    -------
    Semiautomaton
        The product.

    Examples
    --------
    >>> P = direct_product(parity(), modular_counter(3))
    >>> P.n_states, P.n_symbols               # 2 x 3 states, (2 + 1) x (3 + 1) inputs
    (6, 12)
    >>> P.final_state([(1, "e"), ("e", 2), (1, 2)], (0, 0))
    (0, 1)
    >>> P.transformation_semigroup().size     # C_2 x C_3
    6
    """
    _check_automaton("a", a)
    _check_automaton("b", b)
    guard_size(a.n_states * b.n_states, (a.n_symbols + 1) * (b.n_symbols + 1))
    left, right = [*a.alphabet, "e"], [*b.alphabet, "e"]

    def delta(q: tuple[Hashable, Hashable], s: tuple[Hashable, Hashable]) -> tuple[Hashable, ...]:
        return (q[0] if s[0] == "e" else a.delta(q[0], s[0]),
                q[1] if s[1] == "e" else b.delta(q[1], s[1]))

    return Semiautomaton(list(product(a.states, b.states)), list(product(left, right)), delta,
                         name=f"{a.name} x {b.name}")


def cascade_product(first: Semiautomaton, second: Semiautomaton,
                    dependency: Callable[[Hashable, Hashable], Hashable], *,
                    name: str = "") -> Semiautomaton:
    r"""Definition 6 for two components: states :math:`Q^{(1)}\times Q^{(2)}`, inputs
    :math:`\Sigma^{(1)}`, :math:`\delta((q_1, q_2), \sigma) = (\delta^{(1)}(q_1, \sigma),
    \delta^{(2)}(q_2, \phi(q_1, \sigma)))` with ``dependency`` :math:`\phi` returning an input
    of the second component.

    Parameters
    ----------
    first, second : Semiautomaton
        The components.
    dependency : callable
        ``dependency(q1, sigma)`` -> the input of the second component.
    name : str, keyword-only
        The product's name.

    Returns
    -------
    Semiautomaton
        The cascade.

    Examples
    --------
    >>> C2, C3 = modular_counter(2), modular_counter(3)    # reflect flips C2; rotate adds +-1
    >>> S3 = cascade_product(C2, C3, lambda q, s: 0 if s == 1 else (1 if q == 0 else 2))
    >>> T = S3.transformation_semigroup()
    >>> T.size, T.is_commutative()
    (6, False)
    """
    _check_automaton("first", first)
    _check_automaton("second", second)
    check_callable("dependency", dependency, "a function (q1, sigma) -> an input of second")
    guard_size(first.n_states * second.n_states, first.n_symbols)

    def delta(q: tuple[Hashable, Hashable], s: Hashable) -> tuple[Hashable, Hashable]:
        phi = dependency(q[0], s)
        if phi not in second._symbol_index:
            raise ValueError(f"dependency({q[0]!r}, {s!r}) = {phi!r} is not an input of second "
                             f"(alphabet {second.alphabet})")
        return first.delta(q[0], s), second.delta(q[1], phi)

    return Semiautomaton(list(product(first.states, second.states)), first.alphabet, delta,
                         name=name or f"{first.name} cascade {second.name}")


def dihedral(S: int) -> Semiautomaton:
    r"""Example 6: :math:`Q=\{0..S-1\}\times\{-1,+1\}`,
    :math:`\delta((s,b),\mathrm{advance}) = (s+b \bmod S, b)`,
    :math:`\delta((s,b),\mathrm{reverse}) = (s,-b)`; :math:`\mathcal T = C_S\rtimes C_2`.

    Parameters
    ----------
    S : int
        The number of positions.

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> D = dihedral(4)
    >>> D.run(["advance", "advance", "reverse", "advance"], (0, 1))
    ((1, 1), (2, 1), (2, -1), (1, -1))
    >>> T = D.transformation_semigroup()      # C_4 x| C_2: order 2S, not abelian
    >>> T.size, T.is_commutative()
    (8, False)
    """
    n = check_int("S", S)
    guard_size(2 * n, 2)

    def delta(q: tuple[int, int], s: str) -> tuple[int, int]:
        return ((q[0] + q[1]) % n, q[1]) if s == "advance" else (q[0], -q[1])

    return Semiautomaton(list(product(range(n), (-1, 1))), ["advance", "reverse"], delta,
                         name=f"dihedral_{n}")


def permutation_automaton(generators: Sequence[Permutation | Sequence[int]], *,
                          labels: Sequence[Hashable] | None = None,
                          name: str = "") -> Semiautomaton:
    """Points ``0..n-1`` permuted by the given permutations (one input each).

    Parameters
    ----------
    generators : sequence of Permutation or of sequences of int
        One permutation per input.
    labels : sequence, optional, keyword-only
        The input symbols (default 0, 1, ...).
    name : str, keyword-only
        The automaton's name.

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> A = permutation_automaton([[1, 2, 0], [1, 0, 2]])   # a 3-cycle and a transposition
    >>> A.alphabet, A.is_permutation_automaton()
    (('g0', 'g1'), True)
    >>> A.transformation_semigroup().size     # they generate S_3
    6
    """
    if isinstance(generators, str | bytes) or not isinstance(generators, Sequence):
        raise TypeError(f"generators must be a list of permutations (sympy Permutations or "
                        f"sequences of images), got {generators!r}")
    if not generators:
        raise ValueError("generators must not be empty")
    perms = []
    for i, g in enumerate(generators):
        if isinstance(g, Permutation):
            perms.append(g)
            continue
        if isinstance(g, str | bytes) or not isinstance(g, Sequence) or not all(
                isinstance(v, numbers.Integral) and not isinstance(v, bool | np.bool_)
                for v in g) or sorted(int(v) for v in g) != list(range(len(g))):
            raise ValueError(f"generators[{i}] must be a permutation of 0..n-1 (its images), "
                             f"got {g!r}"[:300])
        perms.append(Permutation([int(v) for v in g]))
    sizes = sorted({p.size for p in perms})
    if len(sizes) > 1:
        raise ValueError(f"generators act on different numbers of points {sizes}: give every "
                         "permutation on the same n points (Permutation(..., size=n)); they "
                         "are not padded")
    n = sizes[0]
    if labels is not None and (isinstance(labels, str | bytes)
                               or not isinstance(labels, Sequence)):
        raise TypeError(f"labels must be a sequence of hashable input names, got {labels!r}")
    names = list(labels) if labels is not None else [f"g{i}" for i in range(len(perms))]
    if len(names) != len(perms):
        raise ValueError(f"labels has {len(names)} entries for {len(perms)} generators")
    guard_size(n, len(perms))
    table = [p.array_form for p in perms]
    return Semiautomaton(range(n), names, table, name=name)


def symmetric_group(n: int) -> Semiautomaton:
    """:math:`S_n` on n points: the transposition (1 2) and the n-cycle (1 2 ... n) (§3.4.5).

    Parameters
    ----------
    n : int
        Number of points.

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> import math
    >>> [symmetric_group(n).transformation_semigroup().size for n in (2, 3, 4, 5)]
    [2, 6, 24, 120]
    >>> all(symmetric_group(n).transformation_semigroup().size == math.factorial(n)
    ...     for n in (2, 3, 4, 5))
    True
    """
    m = check_int("n", n, minimum=2)
    _guard_points(m, 2)
    return permutation_automaton([Permutation(0, 1, size=m), Permutation([*range(1, m), 0])],
                                 labels=["(1 2)", "n-cycle"], name=f"S_{m}")


def alternating_group(n: int) -> Semiautomaton:
    r""":math:`A_n` on n points generated by the 3-cycles :math:`(1\,2\,i)`, i = 3..n
    (§3.4.5; points are 0-based here).

    Parameters
    ----------
    n : int
        Number of points (>= 3).

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> [alternating_group(n).transformation_semigroup().size for n in (3, 4, 5)]   # n!/2
    [3, 12, 60]
    >>> alternating_group(4).transformation_semigroup().is_solvable()
    True
    """
    m = check_int("n", n, minimum=3)
    _guard_points(m, m - 2)
    gens = [Permutation(0, 1, i, size=m) for i in range(2, m)]
    return permutation_automaton(gens, labels=[f"(1 2 {i + 1})" for i in range(2, m)],
                                 name=f"A_{m}")


def smallest_nonsolvable() -> Semiautomaton:
    r"""Five states, inputs :math:`(1\,2\,3)` and :math:`(1\,2\,3\,4\,5)`: they generate
    :math:`A_5` (order 60, not solvable) -- the smallest non-solvable semiautomaton
    (footnote 17 prints 60 states; every semigroup of transformations of at most 4 points is
    solvable, see :func:`seprank.automata.algebra.footnote17`).

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> T = smallest_nonsolvable().transformation_semigroup()
    >>> T.size, T.is_group(), T.is_solvable()
    (60, True, False)
    """
    return permutation_automaton([Permutation(0, 1, 2, size=5), Permutation(0, 1, 2, 3, 4)],
                                 labels=["(1 2 3)", "(1 2 3 4 5)"], name="A_5 on 5 points")


def dihedral_group(n: int) -> Semiautomaton:
    """:math:`D_{2n}` (order 2n) acting on the n vertices of a polygon (sympy generators).

    Parameters
    ----------
    n : int
        The number of vertices.

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> [dihedral_group(n).transformation_semigroup().size for n in (3, 4, 5)]      # 2n
    [6, 8, 10]
    """
    m = check_int("n", n, minimum=3)
    _guard_points(m, 2)
    return permutation_automaton(list(DihedralGroup(m).generators),
                                 labels=["rotation", "reflection"], name=f"D_{2 * m}")


_UNIT_PRODUCT = {  # (a, b) -> (sign, c) with a*b = sign * c, units 0..3 = 1, i, j, k
    (0, 0): (1, 0), (0, 1): (1, 1), (0, 2): (1, 2), (0, 3): (1, 3),
    (1, 0): (1, 1), (1, 1): (-1, 0), (1, 2): (1, 3), (1, 3): (-1, 2),
    (2, 0): (1, 2), (2, 1): (-1, 3), (2, 2): (-1, 0), (2, 3): (1, 1),
    (3, 0): (1, 3), (3, 1): (1, 2), (3, 2): (-1, 1), (3, 3): (-1, 0),
}
QUATERNION_UNITS = ("1", "i", "j", "k", "-1", "-i", "-j", "-k")


def _quaternion_mul(x: int, y: int) -> int:
    sx, ux = (-1 if x >= 4 else 1), x % 4
    sy, uy = (-1 if y >= 4 else 1), y % 4
    s, u = _UNIT_PRODUCT[(ux, uy)]
    return u + (4 if s * sx * sy < 0 else 0)


def quaternion_group() -> Semiautomaton:
    r""":math:`Q_8=\{\pm1,\pm i,\pm j,\pm k\}` acting on itself by left multiplication by
    :math:`i` and :math:`j` (:math:`i^2=j^2=k^2=ijk=-1`).

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> Q = quaternion_group()
    >>> Q.final_state(["i", "i"], "1"), Q.final_state(["i", "j"], "1")   # i^2 = -1, j i = -k
    ('-1', '-k')
    >>> T = Q.transformation_semigroup()
    >>> T.size, T.is_commutative()
    (8, False)
    """
    return Semiautomaton(list(QUATERNION_UNITS), ["i", "j"],
                         lambda q, s: QUATERNION_UNITS[_quaternion_mul(
                             QUATERNION_UNITS.index(s), QUATERNION_UNITS.index(q))],
                         name="Q_8")


def rubik() -> Semiautomaton:
    """Example 7: the Rubik's cube group on its 48 moving stickers (sympy's
    ``rubik_cube_generators``, the six face turns).

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> from seprank.automata import permutation_group
    >>> R = rubik()
    >>> R.n_states, R.n_symbols, R.is_permutation_automaton()
    (48, 6, True)
    >>> permutation_group(R).order() == 2**27 * 3**14 * 5**3 * 7**2 * 11   # 4.3e19
    True
    """
    return permutation_automaton(rubik_cube_generators(), labels=list("UFRLBD"),
                                 name="Rubik's cube")


def canonical_group_automaton(group: PermutationGroup, *, name: str = "") -> Semiautomaton:
    r"""Definition 9: :math:`Q = \Sigma = G`, :math:`\delta(g, h) = h\cdot g` (the left regular
    representation); refuses groups of order above 5040.

    Parameters
    ----------
    group : sympy.combinatorics.PermutationGroup
        G, of order at most 5040.
    name : str, keyword-only
        The automaton's name.

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> from sympy.combinatorics.named_groups import SymmetricGroup
    >>> A = canonical_group_automaton(SymmetricGroup(3))
    >>> A.n_states, A.n_symbols               # Q = Sigma = S_3
    (6, 6)
    >>> A.transformation_semigroup().size     # the left regular representation is faithful
    6
    """
    check_instance("group", group, PermutationGroup, expected="a sympy PermutationGroup",
                   hint="e.g. sympy.combinatorics.named_groups.SymmetricGroup(3)")
    order = int(group.order())
    if order > 5040:
        raise ValueError(f"the canonical automaton of a group of order {order} has {order}^2 "
                         "transitions; use the permutation action instead")
    elements = list(group.generate())
    # sympy's g * h applies g first, so the function h o g is g * h
    return Semiautomaton(elements, elements, lambda g, h: g * h,
                         name=name or f"canonical(order {order})")


def dyck(types: int, depth: int) -> Semiautomaton:
    r"""The stack automaton of Dyck\ :sub:`types,depth` (§3.4.5): states are the stacks (tuples
    of bracket types, top last) of length <= ``depth``, plus the absorbing :data:`REJECT`;
    inputs are :math:`1..2k` with :math:`2t-1` opening and :math:`2t` closing type t (§3.6.1).
    From the empty stack :math:`\sum_{i=0}^{D} k^i` stacks are reachable (footnote 29).

    Parameters
    ----------
    types : int
        k, the number of bracket types.
    depth : int
        D, the maximum stack depth.

    Returns
    -------
    Semiautomaton
        The stack automaton.

    Examples
    --------
    >>> A = dyck(2, 3)                        # 2 bracket types, depth <= 3
    >>> A.run([1, 3, 4, 2], ())               # ( [ ] ) with types 1 = (), 2 = []
    ((1,), (1, 2), (1,), ())
    >>> A.final_state([1, 4], ()) == REJECT   # ( ] is rejected
    True
    >>> len(A.reachable_states(())) - 1 == sum(2**i for i in range(4))   # footnote 29
    True
    """
    k, D = check_int("types", types), check_int("depth", depth)
    # k^D stacks at least: compared through logarithms, so that no huge power is formed
    count = (D + 1 if k == 1 else math.inf if D * math.log(k) > 64 * math.log(2)
             else (k ** (D + 1) - 1) // (k - 1))
    guard_memory(count * (OBJECT_ENTRY_BYTES + 8 * D),
                 what=f"the {'more than 2^64' if count == math.inf else count} stacks of "
                      f"Dyck_{k},{D}",
                 fix="lower types or depth (footnote 29 counts them in closed form: "
                     "reachable_stacks(types, depth, method='closed_form'))")
    guard_size(int(count) + 1, 2 * k)
    stacks: list[Hashable] = [s for n in range(D + 1) for s in product(range(1, k + 1), repeat=n)]

    def delta(q: Hashable, s: int) -> Hashable:
        if q == REJECT:
            return REJECT
        assert isinstance(q, tuple)
        t = (s + 1) // 2
        if s % 2 == 1:                       # open bracket of type t
            return (*q, t) if len(q) < D else REJECT
        return q[:-1] if q and q[-1] == t else REJECT

    return Semiautomaton([*stacks, REJECT], range(1, 2 * k + 1), delta,
                         name=f"Dyck_{k},{D}")


def _guard_points(n: int, n_generators: int) -> None:
    """Refuse ``n_generators`` permutations of ``n`` points (sympy lists every image)."""
    guard_memory(n * n_generators * 2 * OBJECT_ENTRY_BYTES,
                 what=f"{n_generators} permutations of {n} points",
                 fix="use fewer points (lower n)")


def _check_automaton(name: str, value: object) -> Semiautomaton:
    return check_instance(name, value, Semiautomaton,
                          expected="a Semiautomaton", hint="e.g. flip_flop() or Semiautomaton("
                          "states, alphabet, delta)")


def abab_star() -> Semiautomaton:
    """The (abab)* automaton of §3.4.5: states 0-3 cycle on a, b, a, b (start 3), state 4 is
    the absorbing failure state.

    Returns
    -------
    Semiautomaton
        The automaton.

    Examples
    --------
    >>> A = abab_star()
    >>> A.run("abab", 3), A.run("abba", 3)    # back to the start state 3; or stuck in 4
    ((0, 1, 2, 3), (0, 1, 4, 4))
    >>> A.transformation_semigroup().is_aperiodic()   # it contains C_2: not aperiodic
    False
    """
    nxt = {(3, "a"): 0, (0, "b"): 1, (1, "a"): 2, (2, "b"): 3}
    return Semiautomaton(range(5), ["a", "b"], lambda q, s: nxt.get((q, s), 4),
                         name="(abab)*")
