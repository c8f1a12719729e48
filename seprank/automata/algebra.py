r"""Group and monoid facts of 004 §3.3.1 and §3.4.5, computed (sympy and exhaustive search).

* :func:`footnote17` -- the smallest non-solvable semiautomaton has 5 states (printed: 60);
* :func:`split_extensions` -- all (N, H) with N normal, :math:`N\cap H=1`, :math:`NH=G`
  (none for :math:`Q_8`: "cannot be realized as a semidirect product of smaller groups");
* :func:`rubik_wreath_bound` -- Example 7's :math:`|G|` against
  :math:`|C_3\wr S_8|\,|C_2\wr S_{12}|` ("off by a factor of 12");
* :func:`monoid_census` -- every monoid of order <= 3 (the flip-flop monoid is the smallest
  non-commutative one, §3.5.1.1);
* :func:`composition_length` -- the number of composition factors (Theorem 16's iteration
  count).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations, product

from sympy.combinatorics import Permutation, PermutationGroup
from sympy.combinatorics.named_groups import SymmetricGroup

from seprank.automata.examples import rubik, smallest_nonsolvable
from seprank.automata.semiautomaton import Semiautomaton
from seprank.automata.semigroup import TransformationSemigroup, permutation_group
from seprank.core.memory import OBJECT_ENTRY_BYTES, guard_memory
from seprank.core.validation import check_bool, check_instance, check_int, check_work

__all__ = [
    "Footnote17Result",
    "MonoidCensus",
    "composition_length",
    "cycle_generators",
    "derived_series_orders",
    "footnote17",
    "isomorphic_tables",
    "monoid_census",
    "monoid_table",
    "rubik_wreath_bound",
    "split_extensions",
    "subgroups",
]

Element = tuple[int, ...]
#: Largest group order whose subgroups :func:`split_extensions` enumerates.
MAX_GROUP_ORDER = 200


def derived_series_orders(group: PermutationGroup) -> tuple[int, ...]:
    """Orders along the derived series :math:`G \\ge G' \\ge G'' \\ge \\dots` until it is
    stable (ends at 1 iff G is solvable).

    Parameters
    ----------
    group : sympy.combinatorics.PermutationGroup
        A finite group.

    Returns
    -------
    tuple of int
        The orders, from :math:`|G|` down.

    Examples
    --------
    >>> from sympy.combinatorics.named_groups import AlternatingGroup
    >>> derived_series_orders(AlternatingGroup(4))     # A4 > V4 > 1
    (12, 4, 1)
    """
    _check_group(group)
    return tuple(int(H.order()) for H in group.derived_series())


def _check_group(group: object) -> PermutationGroup:
    return check_instance("group", group, PermutationGroup,
                          expected="a sympy PermutationGroup",
                          hint="e.g. permutation_group(automaton) or "
                               "sympy.combinatorics.named_groups.SymmetricGroup(4)")


def _check_semigroup(name: str, value: object) -> TransformationSemigroup:
    return check_instance(name, value, TransformationSemigroup,
                          expected="a TransformationSemigroup",
                          hint="e.g. automaton.transformation_semigroup()")


def composition_length(group: PermutationGroup) -> int:
    """The number of composition factors of a finite solvable group (Jordan-Hölder, Theorem 14).

    sympy computes composition series of solvable groups only: a non-solvable group is refused
    with a ValueError.

    Parameters
    ----------
    group : sympy.combinatorics.PermutationGroup
        A finite solvable group.

    Returns
    -------
    int
        The number of composition factors.

    Examples
    --------
    >>> from sympy.combinatorics.named_groups import CyclicGroup, SymmetricGroup
    >>> composition_length(SymmetricGroup(4))     # S4 > A4 > V4 > C2 > 1
    4
    >>> composition_length(CyclicGroup(12))       # solvable: prime factors of 12 = 2 * 2 * 3
    3
    """
    _check_group(group)
    if not group.is_solvable:
        raise ValueError(f"composition_length needs a solvable group (sympy's composition "
                         f"series); got a non-solvable group of order {group.order()}")
    return len(group.composition_series()) - 1


@dataclass(frozen=True)
class Footnote17Result:
    """The smallest non-solvable semiautomaton.

    Attributes
    ----------
    min_states : int
        5.
    example : Semiautomaton
        Five states with inputs (1 2 3), (1 2 3 4 5).
    semigroup_order : int
        :math:`|\\mathcal T|` of the example (60, :math:`A_5`).
    example_solvable : bool
        False.
    derived_series : dict
        n -> orders of the derived series of :math:`S_n`, n = 1..5: it reaches 1 for n <= 4.
    """

    min_states: int
    example: Semiautomaton
    semigroup_order: int
    example_solvable: bool
    derived_series: dict[int, tuple[int, ...]]


def footnote17() -> Footnote17Result:
    r"""The least :math:`|Q|` of a non-solvable semiautomaton: 5 (footnote 17 prints 60).

    Proof computed here: a maximal subgroup of a semigroup of transformations of :math:`|Q|`
    points permutes the image of an idempotent, so it is a subgroup of :math:`S_r`,
    :math:`r \le |Q|`; the derived series of :math:`S_1..S_4` reaches the trivial group, so
    every such group is solvable when :math:`|Q| \le 4`.  With 5 states the inputs
    :math:`(1\,2\,3)`, :math:`(1\,2\,3\,4\,5)` generate :math:`A_5` (order 60, perfect).

    Returns
    -------
    Footnote17Result
        The least number of states, the order of the group found and the solvability checks.

    References
    ----------
    .. [1] 004 §3.4.1.2, footnote 17; Definition 8.

    Examples
    --------
    >>> r = footnote17()
    >>> r.min_states, r.semigroup_order, r.example_solvable
    (5, 60, False)
    """
    series = {n: derived_series_orders(SymmetricGroup(n)) for n in range(1, 6)}
    small_all_solvable = all(series[n][-1] == 1 for n in range(1, 5))
    example = smallest_nonsolvable()
    S = example.transformation_semigroup()
    solvable = S.is_solvable()
    if not small_all_solvable or solvable:  # pragma: no cover - would contradict group theory
        raise AssertionError("S_4 must be solvable and A_5 not")
    return Footnote17Result(5, example, S.size, solvable, series)


def subgroups(elements: tuple[Element, ...], identity: Element,
              mul: dict[tuple[Element, Element], Element]) -> tuple[frozenset[Element], ...]:
    """Every subgroup of a finite group given by its multiplication table (joins of cyclic
    subgroups until nothing new appears; fine for orders up to a few dozen).

    Parameters
    ----------
    elements : tuple
        The group's elements.
    identity : object
        Its identity.
    mul : dict
        ``mul[(x, y)]`` = xy.

    Returns
    -------
    tuple of frozenset
        Every subgroup.

    Examples
    --------
    >>> Z4 = (0, 1, 2, 3)
    >>> table = {(a, b): (a + b) % 4 for a in Z4 for b in Z4}
    >>> sorted(sorted(H) for H in subgroups(Z4, 0, table))    # one subgroup per divisor of 4
    [[0], [0, 1, 2, 3], [0, 2]]
    """
    if isinstance(elements, str | bytes) or not isinstance(elements, tuple | list | frozenset
                                                            | set):
        raise TypeError(f"elements must be a tuple of the group's elements, got {elements!r}")
    els = tuple(elements)
    check_work(len(els) ** 3 * 10, what=f"the subgroups of a group of order {len(els)}",
               fix="use a smaller group")
    if not isinstance(mul, Mapping):
        raise TypeError(f"mul must be a mapping (a, b) -> a * b, got {mul!r}"[:200])
    try:
        missing = next(((a, b) for a in els for b in els if (a, b) not in mul), None)
    except TypeError:
        raise TypeError("elements must be hashable (they index mul)") from None
    if missing is not None:
        raise ValueError(f"mul lacks the product of {missing!r}: give the full table of "
                         "elements x elements")
    if any(mul[(a, b)] not in set(els) for a in els for b in els):
        raise ValueError("mul is not closed: a product lies outside elements")
    if identity not in set(els) or any(mul[(identity, g)] != g or mul[(g, identity)] != g
                                       for g in els):
        raise ValueError(f"identity = {identity!r} is not the identity of mul (e * g = g * e "
                         "= g for every g of elements)")
    elements = els

    def closure(gens: set[Element]) -> frozenset[Element]:
        group = {identity} | gens
        frontier = list(group)
        while frontier:
            new = {mul[(a, b)] for a in frontier for b in gens | {identity}} - group
            new |= {mul[(b, a)] for a in frontier for b in gens} - group
            group |= new
            frontier = list(new)
        return frozenset(group)

    found = {closure(set())}
    frontier = list(found)
    while frontier:
        nxt = []
        for H in frontier:
            for g in elements:
                if g not in H:
                    K = closure(set(H) | {g})
                    if K not in found:
                        found.add(K)
                        nxt.append(K)
        frontier = nxt
    return tuple(sorted(found, key=len))


def split_extensions(group: TransformationSemigroup) -> tuple[tuple[int, int], ...]:
    r"""All ways to write a finite group as :math:`N \rtimes H` with smaller groups: pairs
    :math:`(|N|, |H|)` with N normal, :math:`1 < |N| < |G|`, :math:`N\cap H = 1`,
    :math:`|N||H|=|G|`.

    Raises ValueError when ``group`` is not a group.  Empty for :math:`Q_8` (004 §3.3.1).

    Parameters
    ----------
    group : TransformationSemigroup
        A group (every element a permutation).

    Returns
    -------
    tuple of (int, int)
        The pairs :math:`(|N|, |H|)`.

    Examples
    --------
    >>> from seprank.automata.examples import quaternion_group, dihedral_group
    >>> split_extensions(quaternion_group().transformation_semigroup())
    ()
    >>> sorted(set(split_extensions(dihedral_group(4).transformation_semigroup())))
    [(4, 2)]
    """
    _check_semigroup("group", group)
    if not group.is_group():
        raise ValueError("split_extensions needs a group (all elements permutations)")
    if group.size > MAX_GROUP_ORDER:
        raise ValueError(f"split_extensions enumerates subgroups by brute force; order "
                         f"{group.size} is above MAX_GROUP_ORDER = {MAX_GROUP_ORDER}")
    els = group.elements
    e = group.identity
    if e not in group:
        raise ValueError("the group's elements do not contain the identity")
    mul = {(a, b): group.product(a, b) for a in els for b in els}
    inv = {a: next(b for b in els if mul[(a, b)] == e) for a in els}
    subs = subgroups(els, e, mul)
    normal = [N for N in subs if all(mul[(mul[(g, n)], inv[g])] in N for g in els for n in N)]
    out = []
    for N in normal:
        if not 1 < len(N) < len(els):
            continue
        for H in subs:
            if len(N) * len(H) == len(els) and {e} == N & H:
                out.append((len(N), len(H)))
    return tuple(out)


def rubik_wreath_bound() -> tuple[int, int, Fraction]:
    r"""Example 7: (:math:`|G|`, :math:`|C_3\wr S_8|\cdot|C_2\wr S_{12}| = 3^8 8!\, 2^{12}
    12!`, bound / :math:`|G|`) with :math:`|G|` by Schreier-Sims (sympy) on the 48 moving
    stickers.

    Returns
    -------
    (int, int, fractions.Fraction)
        :math:`|G|`, the wreath-product bound and their ratio.

    Examples
    --------
    >>> rubik_wreath_bound()[2]
    Fraction(12, 1)
    """
    order = int(permutation_group(rubik()).order())
    bound = 3**8 * math.factorial(8) * 2**12 * math.factorial(12)
    return order, bound, Fraction(bound, order)


@dataclass(frozen=True)
class MonoidCensus:
    """All monoids on ``{0..n-1}`` with identity 0 (labelled), for one order n.

    Attributes
    ----------
    order : int
    tables : tuple
        The associative multiplication tables (``table[a][b]`` = a * b).
    non_commutative : tuple
        The non-commutative ones.
    non_invertible : tuple
        Those that are not groups (some element has no inverse).
    classes : tuple
        One representative table per isomorphism class of the non-commutative, non-invertible
        ones (permutations fixing the identity).
    """

    order: int
    tables: tuple[tuple[tuple[int, ...], ...], ...]
    non_commutative: tuple[tuple[tuple[int, ...], ...], ...]
    non_invertible: tuple[tuple[tuple[int, ...], ...], ...]
    classes: tuple[tuple[tuple[int, ...], ...], ...]


def _relabel(table: tuple[tuple[int, ...], ...], perm: tuple[int, ...]) -> tuple[tuple[int, ...],
                                                                                 ...]:
    n = len(table)
    out = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            out[perm[a]][perm[b]] = perm[table[a][b]]
    return tuple(tuple(r) for r in out)


def monoid_census(order: int) -> MonoidCensus:
    """Enumerate every monoid of the given order (1..4) by brute force over tables.

    Parameters
    ----------
    order : int
        1..4.

    Returns
    -------
    MonoidCensus
        The monoids found, up to isomorphism and anti-isomorphism.

    Examples
    --------
    >>> [len(monoid_census(n).non_commutative) for n in (1, 2, 3)]
    [0, 0, 2]
    """
    n = check_int("order", order, maximum=4)
    free = [(a, b) for a in range(1, n) for b in range(1, n)]
    tables = []
    for values in product(range(n), repeat=len(free)):
        T = [[b if a == 0 else (a if b == 0 else 0) for b in range(n)] for a in range(n)]
        for (a, b), v in zip(free, values, strict=True):
            T[a][b] = v
        if all(T[T[a][b]][c] == T[a][T[b][c]] for a in range(n) for b in range(n)
               for c in range(n)):
            tables.append(tuple(tuple(r) for r in T))
    noncomm = tuple(t for t in tables if any(t[a][b] != t[b][a] for a in range(n)
                                             for b in range(n)))
    nongroup = tuple(t for t in tables if any(all(t[a][b] != 0 for b in range(n))
                                              for a in range(n)))
    classes: list[tuple[tuple[int, ...], ...]] = []
    for t in noncomm:
        if t not in nongroup:
            continue
        images = {_relabel(t, (0, *p)) for p in permutations(range(1, n))}
        if not any(c in images for c in classes):
            classes.append(t)
    return MonoidCensus(n, tuple(tables), noncomm, nongroup, tuple(classes))


def monoid_table(semigroup: TransformationSemigroup) -> tuple[tuple[int, ...], ...]:
    """The multiplication table of :math:`\\mathcal T^1` with the identity as element 0 and the
    product "apply the row, then the column" (word order).

    Parameters
    ----------
    semigroup : TransformationSemigroup
        The transformation semigroup.

    Returns
    -------
    tuple of tuple of int
        The multiplication table of :math:`\\mathcal T^1`.

    Examples
    --------
    >>> from seprank.automata import flip_flop
    >>> F = monoid_table(flip_flop("definition11").transformation_semigroup())
    >>> F                                  # identity, "set 0", "set 1": the later write wins
    ((0, 1, 2), (1, 1, 2), (2, 1, 2))
    """
    _check_semigroup("semigroup", semigroup)
    guard_memory((semigroup.size + 1) ** 2 * OBJECT_ENTRY_BYTES,
                 what=f"the {semigroup.size + 1}^2 multiplication table", fix="use a smaller "
                 "semigroup")
    els = [semigroup.identity] + [f for f in semigroup.elements if f != semigroup.identity]
    index = {f: i for i, f in enumerate(els)}
    return tuple(tuple(index[semigroup.product(a, b)] for b in els) for a in els)


def isomorphic_tables(a: tuple[tuple[int, ...], ...], b: tuple[tuple[int, ...], ...],
                      *, anti: bool = False) -> bool:
    """Whether two monoid tables (identity 0) are isomorphic (``anti=True``:
    anti-isomorphic, :math:`\\phi(xy) = \\phi(y)\\phi(x)`).

    Parameters
    ----------
    a, b : tuple of tuple of int
        Multiplication tables, identity at 0.
    anti : bool, keyword-only
        Test anti-isomorphism instead (default False).

    Returns
    -------
    bool
        Whether an (anti-)isomorphism exists.

    Examples
    --------
    >>> from seprank.automata import flip_flop
    >>> F = monoid_table(flip_flop("definition11").transformation_semigroup())
    >>> opposite = tuple(zip(*F))          # x*y -> y*x: the left-zero monoid
    >>> isomorphic_tables(F, opposite), isomorphic_tables(F, opposite, anti=True)
    (False, True)
    """
    a, b = _check_table("a", a), _check_table("b", b)
    anti = check_bool("anti", anti)
    if len(a) != len(b):
        return False
    check_work(math.factorial(max(len(a) - 1, 0)) * len(a) ** 2,
               what=f"every relabelling of {len(a)} elements", fix="compare smaller tables")
    target = tuple(tuple(b[j][i] for j in range(len(b))) for i in range(len(b))) if anti else b
    return any(_relabel(a, (0, *p)) == target for p in permutations(range(1, len(a))))


def _check_table(name: str, table: object) -> tuple[tuple[int, ...], ...]:
    """A square multiplication table of a monoid on ``0..n-1`` with identity 0."""
    if isinstance(table, str | bytes) or not isinstance(table, Sequence) or not table:
        raise TypeError(f"{name} must be a square table (rows of ints), got {table!r}"[:200])
    n = len(table)
    rows = []
    for row in table:
        if isinstance(row, str | bytes) or not isinstance(row, Sequence) or len(row) != n:
            raise ValueError(f"{name} must be a square table of {n} rows of {n} entries, got "
                             f"the row {row!r}")
        rows.append(tuple(check_int(f"{name}: entry", v, 0, n - 1) for v in row))
    return tuple(rows)


def cycle_generators(n: int) -> list[Permutation]:
    """The 3-cycles :math:`(1\\,2\\,i)`, i = 3..n (0-based points), of §3.4.5.

    Parameters
    ----------
    n : int
        Number of points (>= 3).

    Returns
    -------
    list of sympy.combinatorics.Permutation
        The n - 2 three-cycles.

    Examples
    --------
    >>> from sympy.combinatorics import PermutationGroup
    >>> gens = cycle_generators(5)
    >>> len(gens), PermutationGroup(gens).order()   # (1 2 3), (1 2 4), (1 2 5) generate A_5
    (3, 60)
    """
    m = check_int("n", n, minimum=3)
    guard_memory((m - 2) * m * 2 * OBJECT_ENTRY_BYTES, what=f"{m - 2} permutations of {m} "
                 "points", fix="lower n")
    return [Permutation(0, 1, i, size=m) for i in range(2, m)]
