"""Exact separation rank of a polynomial: rank of its A-monomial x B-monomial coefficient matrix.

If :math:`f = \\sum_{\\alpha, \\beta} c_{\\alpha\\beta}\\, x_A^{\\alpha} x_B^{\\beta}`, every
separated representation :math:`\\sum_r g_r(x_A) g'_r(x_B)` of the polynomial can be projected
onto polynomials, so :math:`\\operatorname{sep}_{(A,B)}(f) = \\operatorname{rank}(c)` exactly
(003 notes §4.3).  The ``'symbolic'`` strategy (:mod:`seprank.separation.strategies`):
``separation_rank(..., method="symbolic")`` runs it whatever ``structure=`` says.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from seprank.core.domains import Domain, ExactDomain, matrix_rank
from seprank.core.memory import guard_memory
from seprank.core.validation import check_callable, check_int
from seprank.separation.budget import Budget
from seprank.separation.request import SeparationRequest
from seprank.separation.result import (
    RoundRecord,
    SeparationRankResult,
    accepts_domain,
    validate_partition,
)
from seprank.separation.strategies import Streams, register_strategy

__all__ = ["coefficient_matrix", "symbolic_separation_rank"]


def coefficient_matrix(
    expr: sympy.Expr, a_symbols: list[sympy.Symbol], b_symbols: list[sympy.Symbol]
) -> np.ndarray:
    """Coefficient matrix of a polynomial between A-monomials (rows) and B-monomials (columns).

    Parameters
    ----------
    expr : sympy.Expr
        A polynomial in the symbols.
    a_symbols, b_symbols : list of sympy.Symbol
        The variables of the A side and of the B side.

    Returns
    -------
    numpy.ndarray
        Object array of coefficients, rows the A-monomials, columns the B-monomials.

    Examples
    --------
    >>> x, y = sympy.symbols("x y")
    >>> coefficient_matrix(x * y + x**2 * y + 3, [x], [y])
    array([[3, 0],
           [0, 1],
           [0, 1]], dtype=object)
    """
    symbols = list(a_symbols) + list(b_symbols)
    if isinstance(expr, str):
        raise TypeError(f"expr must be a sympy expression, got the string {expr!r} (use "
                        "sympy.sympify if you mean it)")
    expr = sympy.expand(expr)
    if expr == 0:
        return np.zeros((0, 0), dtype=object)
    try:
        poly = sympy.Poly(expr, *symbols)
    except sympy.PolynomialError as err:
        raise ValueError(f"f is not a polynomial in the input coordinates: {err}") from err
    n_a = len(a_symbols)
    rows: dict[tuple[int, ...], int] = {}
    cols: dict[tuple[int, ...], int] = {}
    entries: list[tuple[int, int, int | Fraction]] = []
    for monom, coeff in poly.terms():
        if not coeff.is_Rational:
            raise ValueError(
                f"coefficient {coeff} is not rational; the symbolic method needs a polynomial "
                "with rational coefficients (substitute numeric weights)"
            )
        r = rows.setdefault(tuple(monom[:n_a]), len(rows))
        c = cols.setdefault(tuple(monom[n_a:]), len(cols))
        value = Fraction(int(coeff.p), int(coeff.q))
        entries.append((r, c, int(value) if value.denominator == 1 else value))
    M = np.zeros((len(rows), len(cols)), dtype=np.int64).astype(object)
    for r, c, v in entries:
        M[r, c] = v
    # present rows in sorted monomial order for readability
    order_r = sorted(rows, key=lambda m: (sum(m), m))
    order_c = sorted(cols, key=lambda m: (sum(m), m))
    M = M[[rows[m] for m in order_r]][:, [cols[m] for m in order_c]]
    return M


def symbolic_separation_rank(
    f: Any, *, n_inputs: int, dim: int, partition: tuple[tuple[int, ...], tuple[int, ...]],
    start: float | None = None, upper_bound: int | None = None,
) -> SeparationRankResult:
    """Exact separation rank of a polynomial batch function (see module docstring).

    Parameters
    ----------
    f : callable
        The polynomial batch function (evaluated on sympy symbols).
    n_inputs : int, keyword-only
        N, the number of positions.
    dim : int, keyword-only
        Dimension of each input vector.
    partition : (tuple of int, tuple of int), keyword-only
        The parts (A, B).
    start : float, optional, keyword-only
        ``time.perf_counter()`` when the computation began (default: now).
    upper_bound : int, optional, keyword-only
        A known upper bound, reported with the result.

    Returns
    -------
    SeparationRankResult
        The exact rank of the coefficient matrix, ``certifies='exact'``.
    """
    t0 = time.perf_counter() if start is None else start
    check_callable("f", f, "a batch function f(X)")
    n_inputs, dim = check_int("n_inputs", n_inputs, 2), check_int("dim", dim)
    A, B = validate_partition(partition, n_inputs)
    guard_memory(n_inputs * dim * 1024, what=f"{n_inputs * dim:,} sympy symbols",
                 fix="use fewer inputs or a smaller dim")
    grid = [[sympy.Symbol(f"x{j}_{k}") for k in range(dim)] for j in range(n_inputs)]
    X = np.array(grid, dtype=object)[None]
    try:
        value = f(X, domain=ExactDomain()) if accepts_domain(f) else f(X)
    except TypeError as err:
        raise TypeError(f"f could not be evaluated on sympy symbols ({err}); the symbolic "
                        "method needs f to compute with the object array it receives (no "
                        "astype casts)") from err
    expr = np.asarray(value, dtype=object).ravel()
    if expr.size != 1:
        raise ValueError(f"f must return one value per input tuple, got shape {np.shape(value)}")
    a_syms = [s for j in A for s in grid[j]]
    b_syms = [s for j in B for s in grid[j]]
    M = coefficient_matrix(sympy.sympify(expr[0]), a_syms, b_syms)
    rank = matrix_rank(M, method="exact").rank if M.size else 0
    seconds = time.perf_counter() - t0
    shape = (int(M.shape[0]), int(M.shape[1]))
    details = {"a_monomials": shape[0], "b_monomials": shape[1]}
    if upper_bound is not None and rank > upper_bound:
        details["exceeds_upper_bound"] = True
    return SeparationRankResult(
        rank=rank, certifies="exact", method="symbolic", partition=(A, B),
        stop_reason="symbolic", n_templates=0, matrix_shape=shape,
        history=(RoundRecord(0, shape[0], shape[1], rank, seconds),), seconds=seconds,
        upper_bound=upper_bound, details=details,
    )


@register_strategy("symbolic", methods=("symbolic",), grid=False, by_method=True,
                   description="the exact rank of the coefficient matrix (sympy)")
def symbolic_strategy(request: SeparationRequest, domain: Domain | None,
                      streams: Streams | None, budget: Budget) -> SeparationRankResult:
    """The ``'symbolic'`` strategy's driver: :func:`symbolic_separation_rank` of the request
    (no grid, no randomness; the budget does not apply: nothing grows).

    Examples
    --------
    >>> from seprank.separation.request import SeparationRequest
    >>> request = SeparationRequest(lambda X: X[:, 0, 0] * X[:, 1, 0] + X[:, 0, 1] ** 2,
    ...                             n_inputs=2, dim=2, partition=([0], [1]),
    ...                             method="symbolic")
    >>> symbolic_strategy(request, None, None, Budget()).rank
    2
    """
    return symbolic_separation_rank(request.f, n_inputs=request.n_inputs, dim=request.dim,
                                    partition=request.partition, start=request.started,
                                    upper_bound=request.upper_bound)
