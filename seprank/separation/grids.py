r"""The separation-rank engine's grid side: evaluators of f on template grids, memory sizing
of a round, exactness checks of modular / exact values, and duplicate-row removal.

:func:`seprank.separation.separation_rank` builds one of :class:`GenericGrid` (a function of
N vectors, through :func:`seprank.core.grid.grid_tensor` and
:func:`seprank.core.grid.matricize`) or :class:`CallerGrid` (a caller's structured
``grid_matrix``) and hands it to the growth loop; :func:`domain_evaluator` is the batch
evaluator the degree blocks use.  Nothing here knows a paper.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from seprank.core.domains import Domain, ExactDomain, FloatDomain, ModularDomain
from seprank.core.grid import GridTooLargeError, grid_tensor, matricize
from seprank.core.inputs import to_rational
from seprank.core.memory import RANK_STEP_FACTOR
from seprank.core.types import Array
from seprank.separation.result import accepts_domain

__all__ = ["CallerGrid", "GenericGrid", "dedupe", "dedupe_matrix", "domain_evaluator"]



def _entry_bytes(domain: Domain, _bits: int = 64) -> int:
    """Bytes per grid entry in ``domain``: int64 residues, floats, or exact objects of about
    ``_bits`` _bits (a Python int, its flint copy and the elimination's copies all grow with
    the size of the numbers: ~64 + _bits/2 bytes, measured with getrusage on 150-bit entries)."""
    if isinstance(domain, ExactDomain):
        return 64 + _bits // 2
    if isinstance(domain, FloatDomain) and domain.complex_:
        return 16
    return 8


def _bits(values: Array) -> int:
    """The largest bit size of the exact numbers in ``values`` (numerator plus denominator)."""
    best = 0
    for v in np.asarray(values, dtype=object).ravel():
        q = to_rational(v)
        best = max(best, abs(q.numerator).bit_length() + q.denominator.bit_length()
                   if isinstance(q, Fraction) else abs(q).bit_length())
    return best


def _round_bytes(n_rows: int, n_cols: int, domain: Domain, *, copies: float,
                 extra: int = 0, _bits: int = 64) -> int:
    """Peak of one round: ``copies`` grid-sized arrays while the matrix is built, or the
    matrix plus its rank step (:data:`~seprank.core.memory.RANK_STEP_FACTOR`), whichever is
    larger, plus the evaluator's own temporaries ``extra``."""
    grid = n_rows * n_cols * _entry_bytes(domain, _bits)
    return int(grid * max(copies, 1 + RANK_STEP_FACTOR[domain.method])) + extra


def _too_large(what: str, need: int, limit: int) -> GridTooLargeError:
    return GridTooLargeError(
        f"{what} needs about {need / 2**30:.3g} GiB with its rank step, above the limit of "
        f"{limit / 2**30:.3g} GiB. Use fewer templates, or raise the limit with "
        "budget=Budget(max_bytes=...) or seprank.set_memory_limit(n_bytes) if the machine has "
        "the memory.",
        needed=need, limit=limit, what=what)


class GenericGrid:
    """The grid matrix of any batch function: grid tensor, matricization, de-duplication.

    Parameters
    ----------
    f : callable
        The batch function ``f(X)``, X of shape ``(batch, n_inputs, dim)``.
    domain : Domain
        The arithmetic f is evaluated in.
    n_inputs : int
        N, the number of input positions.
    A, B : tuple of int
        The two parts of the partition of the positions.
    limit : int
        Memory limit in bytes.
    progress : bool or None
        Show a progress bar (None: automatic).
    """

    def __init__(self, f: Callable[..., Any], domain: Domain, n_inputs: int,
                 A: tuple[int, ...], B: tuple[int, ...], limit: int,
                 progress: bool | None) -> None:
        self.evaluate = domain_evaluator(f, domain)
        self.domain, self.n_inputs, self.A, self.B = domain, n_inputs, A, B
        self.limit, self.progress = limit, progress
        #: Bit size of the exact values seen so far (ExactDomain: entries grow with it).
        self.bits = 64
        #: Rows and columns of the last matrix in the full matricization (after de-duplication).
        self.kept: tuple[Array, Array] | None = None

    def peak_bytes(self, m: int) -> int:
        """Estimated peak memory of the grid tensor and its matricization for ``m`` templates.

        Parameters
        ----------
        m : int
            Number of templates.

        Returns
        -------
        int
            Bytes.
        """
        dedupe = max(len(self.A), len(self.B)) > 1
        return _round_bytes(m ** len(self.A), m ** len(self.B), self.domain,
                            copies=4 if dedupe else 2, _bits=self.bits)

    def _probe_bits(self, templates: Array) -> None:
        """Exact values can be large (a degree-3^L polynomial): measure a few before sizing."""
        m = len(templates)
        idx = np.arange(_PROBE_POINTS)[:, None] * (1 + np.arange(self.n_inputs)) % m
        self.bits = max(self.bits, _bits(self.evaluate(np.asarray(templates)[idx])))

    def fits(self, m: int) -> bool:
        """Whether the grid matrix of ``m`` templates fits in the memory limit.

        Parameters
        ----------
        m : int
            Number of templates.

        Returns
        -------
        bool
            ``peak_bytes(m) <= limit``.
        """
        return self.peak_bytes(m) <= self.limit

    def __call__(self, templates: Array) -> Array:
        m = len(templates)
        exact = isinstance(self.domain, ExactDomain)
        if exact:
            self._probe_bits(templates)
        need = self.peak_bytes(m)
        if need > self.limit:
            raise _too_large(f"the {m ** len(self.A):,} x {m ** len(self.B):,} grid matrix of "
                             f"{m} templates", need, self.limit)
        tensor = grid_tensor(self.evaluate, templates, self.n_inputs, max_bytes=self.limit,
                             progress=self.progress)
        E = matricize(tensor, self.A, self.B)
        del tensor
        self.kept = None
        if max(len(self.A), len(self.B)) > 1:  # symmetric positions repeat rows/columns
            E, self.kept = dedupe(E)
        if exact:  # the real sizes, before the rank step allocates its copies
            self.bits = max(self.bits, _bits(E))
            need = _round_bytes(E.shape[0], E.shape[1], self.domain, copies=1, _bits=self.bits)
            if need > self.limit:
                raise _too_large(f"the exact rank of a {E.shape[0]:,} x {E.shape[1]:,} matrix "
                                 f"of {self.bits}-bit numbers", need, self.limit)
        return E


class CallerGrid:
    """A caller's faster grid evaluator, memory-checked and shape-checked.

    Parameters
    ----------
    grid_matrix : callable
        ``grid_matrix(templates, domain)``: the caller's evaluator of the grid matrix.
    domain : Domain
        The arithmetic it computes in.
    n_a, n_b : int
        ``|A|`` and ``|B|``: the matrix of ``m`` templates is ``m**n_a x m**n_b``.
    limit : int
        Memory limit in bytes.
    """

    def __init__(self, grid_matrix: Callable[[Array, Domain], Array], domain: Domain,
                 n_a: int, n_b: int, limit: int) -> None:
        self.grid_matrix, self.domain, self.n_a, self.n_b = grid_matrix, domain, n_a, n_b
        self.limit = limit

    def peak_bytes(self, m: int) -> int:
        """Estimated peak memory of the grid matrix of ``m`` templates.

        Parameters
        ----------
        m : int
            Number of templates.

        Returns
        -------
        int
            Bytes: the matrix, plus what the caller's evaluator declares with its own
            ``peak_bytes``.
        """
        own = getattr(self.grid_matrix, "peak_bytes", None)
        extra = int(own(m)) if own is not None else 0
        return _round_bytes(m ** self.n_a, m ** self.n_b, self.domain, copies=1, extra=extra)

    def fits(self, m: int) -> bool:
        """Whether the grid matrix of ``m`` templates fits in the memory limit.

        Parameters
        ----------
        m : int
            Number of templates.

        Returns
        -------
        bool
            ``peak_bytes(m) <= limit``.
        """
        return self.peak_bytes(m) <= self.limit

    def __call__(self, templates: Array) -> Array:
        m = len(templates)
        need = self.peak_bytes(m)
        if need > self.limit:
            raise _too_large(f"the {m ** self.n_a:,} x {m ** self.n_b:,} grid matrix", need,
                             self.limit)
        E = np.asarray(self.grid_matrix(templates, self.domain))
        if E.shape != (m ** self.n_a, m ** self.n_b):
            raise ValueError(f"grid_matrix returned shape {E.shape}, expected "
                             f"{(m ** self.n_a, m ** self.n_b)} for {m} templates")
        return E


def dedupe(E: Array) -> tuple[Array, tuple[Array, Array]]:
    """Drop repeated rows and columns (exact equality; the rank is unchanged); also return the
    indices of the kept rows and columns.

    Parameters
    ----------
    E : numpy.ndarray
        A 2-D matrix (any dtype with exact equality).

    Returns
    -------
    kept : numpy.ndarray
        ``E`` restricted to its distinct rows and columns.
    indices : (numpy.ndarray, numpy.ndarray)
        The indices of the kept rows and columns in ``E``.

    Examples
    --------
    >>> E = np.array([[1, 2, 1], [1, 2, 1], [0, 5, 0]])
    >>> kept, (rows, cols) = dedupe(E)
    >>> kept.tolist(), rows.tolist(), cols.tolist()
    ([[0, 5], [1, 2]], [2, 0], [0, 1])
    >>> np.array_equal(kept, E[np.ix_(rows, cols)])
    True
    """
    if E.dtype == object:
        first_row: dict[tuple[Any, ...], int] = {}
        for k, r in enumerate(E):
            first_row.setdefault(tuple(r), k)
        rows = np.fromiter(first_row.values(), dtype=np.int64, count=len(first_row))
        first_col: dict[tuple[Any, ...], int] = {}
        for k, c in enumerate(E[rows].T):
            first_col.setdefault(tuple(c), k)
        cols = np.fromiter(first_col.values(), dtype=np.int64, count=len(first_col))
    else:
        rows = np.unique(E, axis=0, return_index=True)[1]
        cols = np.unique(E[rows].T, axis=0, return_index=True)[1]
    return E[np.ix_(rows, cols)], (rows, cols)


def dedupe_matrix(E: Array) -> Array:
    """:func:`dedupe` without the kept indices (what the degree blocks need).

    Parameters
    ----------
    E : numpy.ndarray
        A 2-D matrix.

    Returns
    -------
    numpy.ndarray
        ``E`` without repeated rows and columns.

    Examples
    --------
    >>> dedupe_matrix(np.array([[3, 3], [3, 3]])).tolist()
    [[3]]
    """
    return dedupe(E)[0]


#: Template tuples evaluated to measure the size of exact values before a round is sized.
_PROBE_POINTS = 8


#: What a modular / exact evaluation may return: exact rationals only.
_EXACT_HINT = (
    "Evaluate f safely: compute with the Python ints it receives (no astype(np.int64) / "
    "np.int32 casts, which wrap around silently on overflow), or with fractions.Fraction, or "
    "let f accept domain= and compute with the domain's operations (domain.mul, domain.add, "
    "domain.matmul), as seprank.LinearAttention.entry does; otherwise use method='svd' (a "
    "float estimate that certifies nothing)")


def _refuse_inexact(values: Array, how: str) -> None:
    """Refuse results that are not exact rationals: fixed-width integers may have wrapped."""
    if values.dtype.kind in "iub":
        raise TypeError(
            f"f returned fixed-width {values.dtype} values {how}: they may have overflowed and "
            f"wrapped around, so no rank computed from them can be certified. {_EXACT_HINT}")
    if values.dtype.kind in "fc":
        raise TypeError(f"f returned floats ({values.dtype}) {how}; the modular and exact "
                        f"methods need exact values. {_EXACT_HINT}")
    for v in values.ravel():
        if isinstance(v, np.generic):
            kind = "floats" if isinstance(v, np.inexact) else f"numpy {type(v).__name__} scalars"
            raise TypeError(f"f returned {kind} {how} (fixed-width numbers may have overflowed "
                            f"and wrapped around, floats are not exact). {_EXACT_HINT}")
        if isinstance(v, float | complex):
            raise TypeError(f"f returned floats {how}; the modular and exact methods need "
                            f"exact values. {_EXACT_HINT}")


def domain_evaluator(f: Callable[..., Any], domain: Domain) -> Callable[[Array], Array]:
    """A batch evaluator ``X -> values in domain`` of ``f`` that refuses inexact values.

    A domain-aware ``f`` (a ``domain=`` keyword) computes in the domain itself; any other ``f``
    gets exact Python integers and must return exact rationals, which are then reduced:
    fixed-width integers (which may have wrapped around) and floats are refused.

    Parameters
    ----------
    f : callable
        The batch function; with a ``domain=`` keyword it computes in the domain.
    domain : Domain
        The arithmetic the values are wanted in.

    Returns
    -------
    callable
        ``X -> values`` in ``domain`` (inexact values raise ``TypeError``).

    Examples
    --------
    >>> F = ModularDomain(101)
    >>> square = domain_evaluator(lambda X: X[:, 0, 0] ** 2, F)
    >>> square(np.array([[[20]], [[3]]])).tolist()        # 400 = 97 (mod 101)
    [97, 9]
    >>> wraps = domain_evaluator(lambda X: X.astype(np.int64)[:, 0, 0] ** 2, F)
    >>> wraps(np.array([[[20]]]))
    Traceback (most recent call last):
    ...
    TypeError: f returned fixed-width int64 values on exact integer inputs: ...
    """
    if accepts_domain(f):
        if isinstance(domain, ModularDomain):
            def evaluate_mod(X: Array) -> Array:
                values = np.asarray(f(X, domain=domain))
                if values.dtype == object:
                    _refuse_inexact(values, "with domain=ModularDomain")
                elif values.dtype.kind not in "iu":
                    raise TypeError(f"f returned {values.dtype} values in GF(p); a domain-aware "
                                    "f must return integer residues")
                elif values.size and (values.min() < 0 or values.max() >= domain.p):
                    raise ValueError(
                        f"f(X, domain=ModularDomain(p={domain.p})) returned values outside "
                        "[0, p): it did not compute in GF(p) (int64 arithmetic outside the "
                        f"domain can overflow silently). {_EXACT_HINT}")
                return domain.asarray(values)
            return evaluate_mod
        if isinstance(domain, ExactDomain):
            def evaluate_exact(X: Array) -> Array:
                values = np.asarray(f(X, domain=domain))
                _refuse_inexact(values, "with domain=ExactDomain()")
                return values
            return evaluate_exact
        return lambda X: np.asarray(f(X, domain=domain))
    if isinstance(domain, FloatDomain):
        return lambda X: np.asarray(f(X))
    exact = ExactDomain()

    def evaluate(X: Array) -> Array:
        values = np.asarray(f(exact.asarray(X)))
        _refuse_inexact(values, "on exact integer inputs")
        return domain.asarray(values)

    return evaluate
