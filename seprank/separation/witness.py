r"""The witness of a certified grid rank: a non-zero minor of the last grid matrix.

A grid matricization of rank r has an r x r minor that is non-zero modulo a prime; its rows
and columns are template tuples (one template index per position of A, of B), so anyone can
recompute its entries from the function and check the determinant
(:mod:`seprank.certificates.verify`).  :func:`find_grid_minor` finds it with
:func:`seprank.core.minors.nonzero_minor` (one echelon form of the grid matrix and one of an
r x m matrix) and maps the rows and columns of the de-duplicated matrix back to template tuples.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.domains import Domain, ExactDomain, ModularDomain
from seprank.core.inputs import as_exact_matrix, to_rational
from seprank.core.minors import nonzero_minor
from seprank.core.random import SeedLike, as_generator, random_prime
from seprank.core.types import Array
from seprank.core.validation import check_int
from seprank.separation.growth import GrowthOutcome
from seprank.separation.result import GridEvidence, GridMinor

__all__ = ["GridWitness", "find_grid_minor"]


#: Primes tried for an exact grid before giving up (each fails with probability ~r * bits / 2**61).
_PRIME_ATTEMPTS = 8


def find_grid_minor(E: npt.ArrayLike, n_templates: int, *, n_a: int, n_b: int, rank: int,
                    prime: int | None, kept: tuple[Array, Array] | None = None,
                    seed: SeedLike = None) -> GridMinor:
    r"""A non-zero ``rank`` x ``rank`` minor of the grid matrix ``E`` with its template tuples.

    Parameters
    ----------
    E : array_like
        The grid matrix: GF(``prime``) residues, or exact values when ``prime`` is None.
    n_templates : int
        m, the number of templates (rows of E index :math:`m^{|A|}` template tuples).
    n_a, n_b : int
        :math:`|A|` and :math:`|B|`.
    rank : int
        The certified rank of E (the minor found must have this size).
    prime : int or None
        E's modulus; None for an exact E (then 62-bit primes are drawn until one keeps the
        rank, at most 8).
    kept : (array, array), optional
        Indices of E's rows and columns in the full matricization (after duplicates were
        removed); default: E is the full matricization.
    seed : int or Generator, optional
        Seeds the primes of an exact E.

    Returns
    -------
    GridMinor
        The minor: its rows' and columns' template tuples and its values.

    Examples
    --------
    >>> E = np.array([[1, 2], [2, 4], [0, 1], [1, 3]])   # 2 templates, |A| = 2, |B| = 1
    >>> w = find_grid_minor(E, 2, n_a=2, n_b=1, rank=2, prime=7)
    >>> w.rows, w.cols, w.entries
    (((0, 0), (1, 0)), ((0,), (1,)), ((1, 2), (0, 1)))
    """
    start = time.perf_counter()
    m = check_int("n_templates", n_templates)
    rank = check_int("rank", rank, 0)
    arr = np.asarray(E)
    if prime is not None:
        p = check_int("prime", prime, 2)
        rows, cols = nonzero_minor(arr, p)
    else:
        exact = as_exact_matrix(arr, "E")
        rng = as_generator(seed)
        for _ in range(_PRIME_ATTEMPTS):
            p = random_prime(rng, 62)
            if exact.denominators_divisible_by(p):
                continue
            rows, cols = nonzero_minor(arr, p)
            if len(rows) == rank:
                break
        else:  # pragma: no cover - probability ~ (r * bits / 2**61) ** 8
            raise RuntimeError(f"no prime in {_PRIME_ATTEMPTS} kept the rank {rank}")
    if len(rows) != rank:
        raise AssertionError(f"the grid matrix has rank {len(rows)} mod {p}, not the "
                             f"certified {rank}; please report this")
    row_ids = np.arange(arr.shape[0]) if kept is None else np.asarray(kept[0])
    col_ids = np.arange(arr.shape[1]) if kept is None else np.asarray(kept[1])

    def tuples(ids: Array, chosen: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(int(v) for v in np.unravel_index(int(ids[k]), (m,) * size))
                     for k in chosen)

    def value(v: Any) -> Any:
        return int(v) if isinstance(v, int | np.integer) else to_rational(v)

    entries = tuple(tuple(value(arr[r, c]) for c in cols) for r in rows)
    return GridMinor(rows=tuples(row_ids, rows, n_a), cols=tuples(col_ids, cols, n_b),
                     entries=entries, prime=int(p), seconds=time.perf_counter() - start)


class GridWitness:
    """The witness side of one :func:`seprank.separation_rank` computation: the growth loop's
    ``on_final`` hook (a minor of the last grid matrix, when kept) and the
    :class:`~seprank.separation.result.GridEvidence` of the result (which can re-evaluate the
    last grid to find the minor later).

    Parameters
    ----------
    f : callable
        The batch function.
    n_inputs : int
        N, the number of positions.
    dim : int
        Dimension of a template.
    domain : Domain
        The number domain of the grid.
    matrix_of : callable or None
        The grid evaluator (None: the evidence re-evaluates ``f``).
    sides : (int, int)
        ``(|A|, |B|)``.
    rng : numpy.random.Generator
        The stream of the primes of an exact witness.

    Examples
    --------
    >>> from seprank.core.domains import ModularDomain
    >>> w = GridWitness(lambda X: X[:, 0, 0], 2, 1, ModularDomain(7), None, (1, 1),
    ...                 np.random.default_rng(0))
    >>> w.certified, w.prime
    (True, 7)
    """

    def __init__(self, f: Callable[..., Any], n_inputs: int, dim: int, domain: Domain,
                 matrix_of: Callable[[Array], Array] | None, sides: tuple[int, int],
                 rng: np.random.Generator) -> None:
        self.f, self.n_inputs, self.dim, self.matrix_of = f, n_inputs, dim, matrix_of
        self.certified = isinstance(domain, ModularDomain | ExactDomain)
        self.prime = domain.p if isinstance(domain, ModularDomain) else None
        self.sides = sides
        self.seed = int(rng.integers(2**62))

    def on_final(self, E: Array, templates: Array, last: Any) -> GridMinor:
        """Find the minor of the last round's matrix ``E`` (the growth loop's hook).

        Parameters
        ----------
        E : numpy.ndarray
            The last round's grid matrix.
        templates : numpy.ndarray
            Its templates.
        last : RankResult
            Its rank.

        Returns
        -------
        GridMinor
            A non-zero minor of ``E`` of size the rank.
        """
        return find_grid_minor(E, len(templates), n_a=self.sides[0], n_b=self.sides[1],
                               rank=last.rank, prime=self.prime,
                               kept=getattr(self.matrix_of, "kept", None), seed=self.seed)

    def evidence(self, outcome: GrowthOutcome) -> GridEvidence | None:
        """The result's evidence (None when the method certifies nothing).

        Parameters
        ----------
        outcome : GrowthOutcome
            What the growth loop reached.

        Returns
        -------
        GridEvidence or None
            The result's evidence (None for a method that certifies nothing).
        """
        if not self.certified or outcome.templates is None:
            return None
        final, rank = outcome.templates, outcome.last

        def refind() -> GridMinor:
            start = time.perf_counter()
            assert self.matrix_of is not None
            minor = self.on_final(self.matrix_of(final), final, rank)
            return GridMinor(minor.rows, minor.cols, minor.entries, minor.prime,
                             time.perf_counter() - start)

        return GridEvidence(self.f, self.n_inputs, self.dim, final, self.prime,
                            kept_minor=outcome.witness, finder=refind)
