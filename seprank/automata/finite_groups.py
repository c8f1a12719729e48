r"""Finite groups by their multiplication tables, for the group constructions of 004
§3.4.4.3 (:mod:`seprank.automata.group_products`): :class:`FiniteGroup` (cyclic groups,
permutation groups from generators, any product on a finite set; prefix products of words and
the enumeration of words) and :func:`find_embedding`, an injective homomorphism found by search
over the images of a generating set (Theorem 16 embeds each :math:`H_{i+1}` in
:math:`H_i\wr C_p` with it).

Tables are refused above :data:`MAX_GROUP_ORDER` elements before they are built.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.types import IntArray
from seprank.core.validation import (
    check_array,
    check_callable,
    check_instance,
    check_int,
    check_work,
)

__all__ = ["FiniteGroup", "find_embedding"]

#: A group element: any hashable label (ints, tuples, permutation tuples).
Element = Any
#: Largest group the brute-force embedding search and the tables accept.
MAX_GROUP_ORDER = 5000


@dataclass(frozen=True)
class FiniteGroup:
    """A finite group by its multiplication table; ``elements[0]`` is the identity.

    ``product(a, b)`` is :math:`a\\cdot b`; for permutations (tuples) :math:`(a\\cdot b)[x] =
    a[b[x]]` (b first).

    Parameters
    ----------
    elements : tuple
        The elements, identity first.
    table : Mapping
        ``table[(a, b)]`` = :math:`a\\cdot b`.
    name : str, default ''
        The group's name.

    Examples
    --------
    >>> C3 = FiniteGroup.cyclic(3)
    >>> C3.product(2, 2), C3.inverse(1), C3.order
    (1, 2, 3)
    """

    elements: tuple[Element, ...]
    table: Mapping[tuple[Element, Element], Element] = field(repr=False)
    name: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.elements, str | bytes) or not isinstance(self.elements, tuple | list):
            raise TypeError(f"elements must be a tuple of group elements (the identity first), "
                            f"got {self.elements!r:.60} ({type(self.elements).__name__})")
        if not self.elements:
            raise ValueError("a group has at least one element: elements is empty")
        if len(self.elements) > MAX_GROUP_ORDER:
            raise ValueError(f"groups above order {MAX_GROUP_ORDER} are refused: elements has "
                             f"{len(self.elements)}")
        object.__setattr__(self, "elements", tuple(self.elements))
        try:
            members = set(self.elements)
        except TypeError as err:
            raise TypeError(f"elements must be hashable ({err})") from None
        if len(members) != len(self.elements):
            raise ValueError("elements must be distinct")
        if not isinstance(self.table, Mapping):
            raise TypeError(f"table must be a mapping (a, b) -> a*b, got {self.table!r:.60} "
                            f"({type(self.table).__name__})")
        for a in self.elements:
            for b in self.elements:
                if (a, b) not in self.table:
                    raise ValueError(f"table has no product for ({a!r}, {b!r})")
                if self.table[(a, b)] not in members:
                    raise ValueError(f"table is not closed: {a!r} * {b!r} = "
                                     f"{self.table[(a, b)]!r} is not in elements")
        e = self.elements[0]
        if any(self.table[(e, g)] != g or self.table[(g, e)] != g for g in self.elements):
            raise ValueError("elements[0] must be the identity of table")

    @property
    def order(self) -> int:
        return len(self.elements)

    @property
    def identity(self) -> Element:
        return self.elements[0]

    def product(self, a: Element, b: Element) -> Element:
        r"""The product :math:`a\cdot b` from the table.

        Parameters
        ----------
        a, b : element
            Group elements.

        Returns
        -------
        element
            :math:`a\cdot b`.
        """
        return self.table[(a, b)]

    def inverse(self, a: Element) -> Element:
        """The inverse of ``a``.

        Parameters
        ----------
        a : element
            A group element.

        Returns
        -------
        element
            :math:`a^{-1}`.
        """
        for b in self.elements:
            if self.table[(a, b)] == self.identity:
                return b
        raise ValueError(f"{a!r} has no inverse: not a group")

    @classmethod
    def from_product(cls, elements: Iterable[Element], product: Callable[[Any, Any], Any],
                     identity: Element, *, name: str = "") -> FiniteGroup:
        """The group on ``elements`` under ``product`` (identity moved first).

        Parameters
        ----------
        elements : iterable
            The elements.
        product : callable
            ``product(a, b)`` = :math:`a\\cdot b`.
        identity : element
            The identity.
        name : str, keyword-only
            The group's name.

        Returns
        -------
        FiniteGroup
            The group.
        """
        if isinstance(elements, str | bytes) or not isinstance(elements, Iterable):
            raise TypeError(f"elements must be an iterable of group elements, got "
                            f"{elements!r:.60} ({type(elements).__name__})")
        check_callable("product", product, "a function (a, b) -> a*b")
        els = [identity]
        for g in elements:
            if g != identity:
                els.append(g)
            if len(els) > MAX_GROUP_ORDER:
                raise ValueError(f"groups above order {MAX_GROUP_ORDER} are refused: elements "
                                 f"has more")
        try:
            table = {(a, b): product(a, b) for a in els for b in els}
        except (TypeError, ValueError, KeyError, IndexError) as err:
            raise TypeError(f"product could not multiply the elements "
                            f"({type(err).__name__}: {err})") from None
        members = set(els)
        if any(v not in members for v in table.values()):
            raise ValueError("the elements are not closed under the product")
        return cls(tuple(els), table, name)

    @classmethod
    def cyclic(cls, n: int) -> FiniteGroup:
        """:math:`C_n` as 0..n-1 under addition mod n.

        Parameters
        ----------
        n : int
            The order.

        Returns
        -------
        FiniteGroup
            :math:`C_n`.
        """
        m = check_int("n", n, maximum=MAX_GROUP_ORDER)
        return cls.from_product(range(m), lambda a, b: (a + b) % m, 0, name=f"C_{m}")

    @classmethod
    def from_permutations(cls, generators: Sequence[Sequence[int]], *, name: str = ""
                          ) -> FiniteGroup:
        """The permutation group generated by ``generators`` (tuples of images).

        Parameters
        ----------
        generators : sequence of sequences of int
            Permutations as tuples of images.
        name : str, keyword-only
            The group's name.

        Returns
        -------
        FiniteGroup
            The generated group.
        """
        if isinstance(generators, str | bytes) or not isinstance(generators, Iterable):
            raise TypeError(f"generators must be a sequence of permutation tuples, got "
                            f"{generators!r:.60} ({type(generators).__name__})")
        gens = [tuple(int(v) for v in check_array("generators", g, ndim=1, dtype=np.int64))
                for g in generators]
        if not gens:
            raise ValueError("give at least one generator: generators is empty")
        n = len(gens[0])
        if any(sorted(g) != list(range(n)) for g in gens):
            raise ValueError(f"generators must be permutations of 0..{n - 1} (tuples of "
                             f"images, all of the same length)")
        ident = tuple(range(n))
        seen, frontier = {ident}, [ident]
        while frontier:
            nxt = []
            for g in frontier:
                for s in gens:
                    h = tuple(s[g[x]] for x in range(n))            # s . g
                    if h not in seen:
                        seen.add(h)
                        nxt.append(h)
            frontier = nxt
            if len(seen) > MAX_GROUP_ORDER:
                raise ValueError(f"the group exceeds order {MAX_GROUP_ORDER}")
        return cls.from_product(sorted(seen), lambda a, b: tuple(a[b[x]] for x in range(n)),
                                ident, name=name)

    def run(self, words: npt.ArrayLike) -> IntArray:
        """Prefix products :math:`\\sigma_t\\cdots\\sigma_1` as element indices, for words of
        element indices (the canonical semiautomaton from :math:`q_0 = e`).

        Parameters
        ----------
        words : array_like
            Element indices, shape (B, T).

        Returns
        -------
        numpy.ndarray
            Element indices of the prefix products, shape (B, T).
        """
        W = _check_words(words, self.order)
        index = {g: i for i, g in enumerate(self.elements)}
        mult = np.array([[index[self.table[(a, b)]] for b in self.elements]
                         for a in self.elements])
        out = np.empty_like(W)
        q = np.zeros(W.shape[0], dtype=np.int64)
        for t in range(W.shape[1]):
            q = mult[W[:, t], q]
            out[:, t] = q
        return out

    def all_words(self, length: int) -> IntArray:
        """Every word of ``length`` element indices, shape ``(|G|^length, length)``.

        Parameters
        ----------
        length : int
            The word length.

        Returns
        -------
        numpy.ndarray
            Element indices, shape ``(|G|^length, length)``.
        """
        n = check_int("length", length)
        if n * math.log(max(self.order, 1)) > math.log(2_000_000):
            raise ValueError(f"{self.order}^{n} words are too many: lower length")
        return np.array(list(itertools.product(range(self.order), repeat=n)),
                        dtype=np.int64).reshape(-1, n)


def _check_words(words: npt.ArrayLike, order: int) -> IntArray:
    """Words of element indices: a 2-D integer array with entries in ``0..order-1``."""
    W = check_array("words", words, ndim=2, dtype=np.int64, min_size=0,
                    what="(batch, t) element indices")
    if W.size and (W.min() < 0 or W.max() >= order):
        raise ValueError(f"words must hold element indices 0..{order - 1}, got entries in "
                         f"{W.min()}..{W.max()}")
    return W


def find_embedding(source: FiniteGroup, target: FiniteGroup,
                   generators: Sequence[Element] | None = None) -> dict[Element, Element]:
    """An injective homomorphism ``source -> target``, by search over the images of a
    generating set (the first found in the targets' order); ValueError if none exists.

    Parameters
    ----------
    source, target : FiniteGroup
        The groups.
    generators : sequence, optional
        A generating set of ``source`` (default: found).

    Returns
    -------
    dict
        Element of ``source`` -> element of ``target``.

    Examples
    --------
    >>> emb = find_embedding(FiniteGroup.cyclic(2), FiniteGroup.cyclic(4))
    >>> emb[1]
    2
    """
    _check_group("source", source)
    _check_group("target", target)
    if generators is None:
        gens = _generators(source)
    else:
        if isinstance(generators, str | bytes) or not isinstance(generators, Iterable):
            raise TypeError(f"generators must be a sequence of elements of source, got "
                            f"{generators!r:.60} ({type(generators).__name__})")
        gens = list(generators)
        members = set(source.elements)
        if any(g not in members for g in gens) or len(_closure(source, gens)) != source.order:
            raise ValueError("generators must be elements of source that generate it")
    check_work(target.order ** len(gens) * source.order * (len(gens) + 1),
               what=f"a search over {target.order}^{len(gens)} images of {len(gens)} "
               f"generators", fix="give fewer generators= or a smaller target")
    for images in itertools.product(target.elements, repeat=len(gens)):
        hom = _extend(source, target, gens, images)
        if hom is not None and len(set(hom.values())) == source.order:
            return hom
    raise ValueError(f"{source.name or 'the group'} does not embed in {target.name or 'it'}")


def _check_group(name: str, value: Any) -> FiniteGroup:
    return check_instance(name, value, FiniteGroup, expected="a FiniteGroup",
                          hint="build one with FiniteGroup.cyclic(n), .from_permutations(...) "
                          "or .from_product(...)")



def _generators(group: FiniteGroup) -> list[Element]:
    """A small generating set (greedy: add the element that grows the subgroup most)."""
    gens: list[Element] = []
    span = {group.identity}
    while len(span) < group.order:
        best, best_span = None, span
        for g in group.elements:
            if g in span:
                continue
            s = _closure(group, [*gens, g])
            if len(s) > len(best_span):
                best, best_span = g, s
        gens.append(best)
        span = best_span
    return gens


def _closure(group: FiniteGroup, gens: Sequence[Element]) -> set[Element]:
    span, frontier = {group.identity}, [group.identity]
    while frontier:
        nxt = []
        for g in frontier:
            for s in gens:
                h = group.product(s, g)
                if h not in span:
                    span.add(h)
                    nxt.append(h)
        frontier = nxt
    return span


def _extend(source: FiniteGroup, target: FiniteGroup, gens: Sequence[Element],
            images: Sequence[Element]) -> dict[Element, Element] | None:
    hom = {source.identity: target.identity}
    frontier = [source.identity]
    while frontier:
        nxt = []
        for g in frontier:
            for s, t in zip(gens, images, strict=True):
                h, img = source.product(s, g), target.product(t, hom[g])
                if h in hom:
                    if hom[h] != img:
                        return None
                else:
                    hom[h] = img
                    nxt.append(h)
        frontier = nxt
    return hom


def _subgroup(group: FiniteGroup, elements: Sequence[Element]) -> FiniteGroup:
    members = set(elements)
    return FiniteGroup.from_product([g for g in group.elements if g in members],
                                    group.product, group.identity,
                                    name=f"subgroup of order {len(members)}")

