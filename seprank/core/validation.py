"""Argument checks shared by every public entry point: each names the argument and the fix.

Every function of the toolkit validates its arguments where they enter, with these helpers,
so that a wrong call fails with a message that says which argument is wrong and what is
expected -- never with a numpy internal error or, worse, a silently truncated value:

==========================  ==================================================================
:func:`check_int`           a count or index; bools, floats (even 2.0) and strings refused
:func:`check_index`         an integer position in ``0..size-1``
:func:`check_float`         a real number; NaN, strings, bools refused; optional range
:func:`check_tolerance`     a finite non-negative tolerance (or None)
:func:`check_choice`        one of a few strings
:func:`check_bool`          True or False (not 0/1, not "yes")
:func:`check_callable`      a function
:func:`check_instance`      an object of the expected class, with the function to build one
:func:`check_array`         a finite real array of the expected dimension and shape
:func:`check_indices`       a sequence of integer positions (bools refused), optionally distinct
:func:`validated`           a decorator applying these checks by argument name
:func:`check_work`          the growth budget: refuse a computation planned beyond
                            :func:`get_work_limit` operations before it starts
==========================  ==================================================================

The work budget is the time analogue of the memory policy (:mod:`seprank.core.memory`): a loop
whose length grows with an argument (samples, steps, closures, enumerations) estimates its
elementary operations first and calls :func:`check_work`, which raises
:class:`~seprank.core.errors.WorkBudgetError` (a ``ValueError``) naming the estimate, the budget
and the argument to lower.  The budget is process-wide, :data:`DEFAULT_WORK_LIMIT` = 10**13
operations (hours of numpy work) by default: :func:`set_work_limit`, ``with work_limit(n):``.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from seprank.core.errors import WorkBudgetError

__all__ = [
    "DEFAULT_WORK_LIMIT",
    "WorkBudgetError",
    "check_array",
    "check_bool",
    "check_callable",
    "check_choice",
    "check_float",
    "check_index",
    "check_indices",
    "check_instance",
    "check_int",
    "check_tolerance",
    "check_work",
    "get_work_limit",
    "set_work_limit",
    "validated",
    "work_limit",
]

#: The process-wide work budget by default: 10**13 elementary operations.
DEFAULT_WORK_LIMIT = 10**13
_work_limit = DEFAULT_WORK_LIMIT


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_int(name: str, value: Any, minimum: int | None = 1,
              maximum: int | None = None) -> int:
    """``value`` as a Python int in ``[minimum, maximum]``; bools and floats are refused.

    Parameters
    ----------
    name : str
        How the caller's documentation names the argument (e.g. ``"depth L"``).
    value : Any
        The argument.
    minimum, maximum : int
        Inclusive range (``maximum=None``: unbounded).

    Returns
    -------
    int
        The value.

    Raises
    ------
    ValueError
        Not an integer (a float such as 2.5 or even 2.0 is refused: nothing is truncated), or
        out of range.

    Examples
    --------
    >>> check_int("depth L", 3)
    3
    >>> check_int("n_steps", 2.5)
    Traceback (most recent call last):
    ...
    ValueError: n_steps must be an integer >= 1, got 2.5 (float)
    """
    what = "an integer" + ("" if minimum is None else f" >= {minimum}") + (
        "" if maximum is None else f" and <= {maximum}")
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be {what}, got {_shown(value)} ({type(value).__name__})")
    v = int(value)
    if (minimum is not None and v < minimum) or (maximum is not None and v > maximum):
        raise ValueError(f"{name} must be {what}, got {_shown(value)}")
    return v


def check_index(name: str, value: Any, size: int, what: str = "") -> int:
    """An integer position ``value`` in ``0..size-1`` (``what`` explains the range).

    Parameters
    ----------
    name : str
        The argument's name in the message.
    value : object
        The value to check.
    size : int
        The number of positions.
    what : str, default ''
        What the range is, for the message.

    Returns
    -------
    int
        The position.

    Examples
    --------
    >>> check_index("output position i", 4, 4, " (the input has 4 positions)")
    Traceback (most recent call last):
    ...
    ValueError: output position i = 4 is outside 0..3 (the input has 4 positions)
    """
    v = check_int(name, value, None)
    if not 0 <= v < size:
        raise ValueError(f"{name} = {v} is outside 0..{size - 1}{what}")
    return v


def check_float(name: str, value: Any, *, minimum: float | None = None,
                maximum: float | None = None, positive: bool = False,
                finite: bool = True, hint: str = "") -> float:
    """``value`` as a Python float; strings, bools, complex numbers and NaN are refused.

    Parameters
    ----------
    name : str
        The argument's name in the caller.
    value : Any
        Any real number (int, float, Fraction, numpy scalar).
    minimum, maximum : float, optional
        Inclusive bounds.
    positive : bool
        Require ``value > 0``.
    finite : bool
        Refuse ``inf`` (default).
    hint : str
        Appended to the expectation, e.g. ``" (or None)"``.

    Returns
    -------
    float
        The value.

    Examples
    --------
    >>> check_float("eta", 0.5, positive=True)
    0.5
    >>> check_float("eta", "0.5", positive=True)
    Traceback (most recent call last):
    ...
    ValueError: eta must be a positive finite number, got '0.5' (str)
    >>> check_float("atol", float("nan"), minimum=0)
    Traceback (most recent call last):
    ...
    ValueError: atol must be a finite number >= 0, got nan
    """
    parts = []
    if positive:
        parts.append("positive")
    if finite:
        parts.append("finite")
    what = " ".join([*parts, "number"])
    if minimum is not None:
        what += f" >= {minimum:g}"
    if maximum is not None:
        what += f" and <= {maximum:g}" if minimum is not None else f" <= {maximum:g}"
    what += hint
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a {what}, got {_shown(value)} "
                         f"({type(value).__name__})")
    try:
        v = float(value)
    except (OverflowError, ValueError) as err:  # a huge Fraction / int
        raise ValueError(f"{name} must be a {what}, got {_shown(value)} ({err})") from err
    if (math.isnan(v) or (finite and math.isinf(v)) or (positive and not v > 0)
            or (minimum is not None and v < minimum) or (maximum is not None and v > maximum)):
        raise ValueError(f"{name} must be a {what}, got {_shown(value)}")
    return v


def check_tolerance(name: str, value: Any, *, allow_none: bool = True) -> float | None:
    """A tolerance: a finite number >= 0 (or None when ``allow_none``).

    Parameters
    ----------
    name : str
        The argument's name in the message.
    value : object
        The value to check.
    allow_none : bool, keyword-only
        Accept None (default True).

    Returns
    -------
    float or None
        The tolerance.

    Examples
    --------
    >>> check_tolerance("rtol", 1e-8)
    1e-08
    >>> check_tolerance("atol", -1)
    Traceback (most recent call last):
    ...
    ValueError: atol must be a finite number >= 0 (a tolerance), got -1
    """
    if value is None and allow_none:
        return None
    return check_float(name, value, minimum=0, hint=" (a tolerance)")


def check_choice(name: str, value: Any, choices: Sequence[Any]) -> Any:
    """``value`` if it is one of ``choices`` (compared by equality, strings not coerced).

    Parameters
    ----------
    name : str
        The argument's name in the message.
    value : object
        The value to check.
    choices : sequence
        The allowed values.

    Returns
    -------
    object
        The value.

    Examples
    --------
    >>> check_choice("method", "svd", ("exact", "svd"))
    'svd'
    >>> check_choice("method", "qr", ("exact", "svd"))
    Traceback (most recent call last):
    ...
    ValueError: method must be one of 'exact', 'svd'; got 'qr'
    """
    try:
        ok = any(type(value) is type(c) and value == c for c in choices)
    except Exception:  # unhashable / odd comparisons
        ok = False
    if not ok:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {listed}; got {_shown(value)}")
    return value


def check_bool(name: str, value: Any) -> bool:
    """``True`` or ``False`` (numpy bools too); 0/1, strings and None are refused.

    Parameters
    ----------
    name : str
        The argument's name in the message.
    value : object
        The value to check.

    Returns
    -------
    bool
        The value.

    Examples
    --------
    >>> check_bool("strict", "yes")
    Traceback (most recent call last):
    ...
    ValueError: strict must be True or False, got 'yes' (str)
    """
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {_shown(value)} "
                         f"({type(value).__name__})")
    return bool(value)


def check_callable(name: str, value: Any, what: str = "a function") -> Any:
    """``value`` if it is callable.

    Parameters
    ----------
    name : str
        The argument's name in the message.
    value : object
        The value to check.
    what : str, default 'a function'
        What is expected, in words.

    Returns
    -------
    callable
        The value.

    Examples
    --------
    >>> check_callable("grad_f", 3, "a function x -> grad f(x)")
    Traceback (most recent call last):
    ...
    TypeError: grad_f must be a function x -> grad f(x), got 3 (int)
    """
    if not callable(value):
        raise TypeError(f"{name} must be {what}, got {_shown(value)} ({type(value).__name__})")
    return value


def check_instance(name: str, value: Any, types: type | tuple[type, ...], *,
                   expected: str, hint: str = "") -> Any:
    """``value`` if it is an instance of ``types``; otherwise a TypeError that says what is
    expected and how to get one.

    Parameters
    ----------
    name : str
        The argument's name in the message.
    value : object
        The value to check.
    types : type or tuple of type
        The accepted types.
    expected : str, keyword-only
        What is expected, in words.
    hint : str, keyword-only
        How to get one (appended to the message).

    Returns
    -------
    object
        The value.

    Examples
    --------
    >>> check_instance("rng", 3, np.random.Generator, expected="a numpy Generator",
    ...                hint="use numpy.random.default_rng(seed)")
    Traceback (most recent call last):
    ...
    TypeError: rng must be a numpy Generator, got 3 (int); use numpy.random.default_rng(seed)
    """
    if not isinstance(value, types):
        raise TypeError(f"{name} must be {expected}, got {_shown(value)} "
                        f"({type(value).__name__})" + (f"; {hint}" if hint else ""))
    return value


def check_array(name: str, value: Any, *, ndim: int | tuple[int, ...] | None = None,
                shape: tuple[int | None, ...] | None = None, min_size: int = 1,
                finite: bool = True, dtype: Any = float,
                what: str = "") -> npt.NDArray[Any]:
    """``value`` as a numpy array of ``dtype`` (default float64), checked.

    Parameters
    ----------
    name : str
        The argument's name.
    ndim : int or tuple of int, optional
        Allowed numbers of dimensions.
    shape : tuple, optional
        Required shape; ``None`` entries are free.
    min_size : int
        Fewest entries (default 1: empty arrays refused).
    finite : bool
        Refuse NaN and infinity (default).
    dtype : dtype or None
        Target dtype; strings, objects that are not numbers and complex values (for a real
        dtype) are refused with a message naming ``name``.  ``None`` keeps the input's dtype
        (complex, object arrays of Fractions or sympy expressions) and only refuses strings
        and non-finite floats.
    what : str
        What the array is, for the message (e.g. ``"(n, d) observations"``).
    value : array_like
        The value to check.

    Returns
    -------
    numpy.ndarray
        The array.

    Examples
    --------
    >>> check_array("x0", [1.0, 2.0], ndim=1).tolist()
    [1.0, 2.0]
    >>> check_array("x0", [[1.0, float("nan")]], ndim=2)
    Traceback (most recent call last):
    ...
    ValueError: x0 contains NaN or infinite values (first at index (0, 1))
    """
    label = f"{name}" + (f" ({what})" if what else "")
    if isinstance(value, bool | np.bool_):
        raise TypeError(f"{label} must be an array of numbers, got the bool {value!r}")
    if isinstance(value, str | bytes):
        raise TypeError(f"{label} must be an array of numbers, got the string {_shown(value)}")
    kind = "numbers" if dtype is None else f"{np.dtype(dtype).name} numbers"
    integer = dtype is not None and np.dtype(dtype).kind in "iu"
    try:
        with np.errstate(all="ignore"):
            raw = np.asarray(value)
            if raw.dtype.kind in "USVMm":
                raise TypeError(f"dtype {raw.dtype}")
            if raw.dtype.kind == "c" and dtype is not None and np.dtype(dtype).kind in "fiu":
                raise TypeError("complex values")
            if integer:
                _check_integral(label, raw)
            arr = raw if dtype is None else raw.astype(dtype)
    except (TypeError, ValueError, OverflowError) as err:
        if isinstance(err, _NotIntegral):
            raise ValueError(str(err)) from None
        raise TypeError(f"{label} must be an array of {kind}, got {_shown(value)} "
                        f"({err})") from err
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
        if arr.ndim not in allowed:
            want = " or ".join(f"{d}-D" for d in allowed)
            raise ValueError(f"{label} must be {want}, got an array of shape {arr.shape}")
    if shape is not None and (len(shape) != arr.ndim or any(
            s is not None and s != a for s, a in zip(shape, arr.shape, strict=False))):
        want = "(" + ", ".join("any" if s is None else str(s) for s in shape) + ")"
        raise ValueError(f"{label} must have shape {want}, got {arr.shape}")
    if arr.size < min_size:
        raise ValueError(f"{label} must have at least {min_size} entries, got shape "
                         f"{arr.shape}")
    if finite and arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        first = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
        where = first[0] if len(first) == 1 else first
        raise ValueError(f"{label} contains NaN or infinite values (first at index {where})")
    return arr


class _NotIntegral(ValueError):
    """An array meant to hold integers holds something else (raised inside check_array)."""


def _check_integral(label: str, raw: npt.NDArray[Any]) -> None:
    """Refuse an array for an integer dtype whose entries are not integers: bools, NaN,
    infinities or fractional floats (an ``astype`` would silently truncate or wrap them)."""
    if raw.dtype.kind == "b":
        raise _NotIntegral(f"{label} must hold integers, got booleans (a bool is not a "
                           "count or an index)")
    if raw.dtype.kind == "f":
        bad = ~np.isfinite(raw) | (raw != np.round(raw))
        if np.any(bad):
            first = tuple(int(i) for i in np.argwhere(bad)[0])
            raise _NotIntegral(f"{label} must hold integers, got {raw[first]!r} at index "
                               f"{first[0] if len(first) == 1 else first}")
        if raw.size and np.max(np.abs(raw)) >= 2.0**63:
            raise _NotIntegral(f"{label} holds values beyond the int64 range")
    if raw.dtype.kind == "O":
        for v in raw.ravel():
            if isinstance(v, bool | np.bool_) or not isinstance(v, numbers.Integral):
                raise _NotIntegral(f"{label} must hold integers, got {_shown(v)} "
                                   f"({type(v).__name__})")
            if not -(2**63) <= int(v) < 2**63:
                raise _NotIntegral(f"{label} holds {_shown(v)}, beyond the int64 range")


def check_indices(name: str, value: Any, *, size: int | None = None, distinct: bool = True,
                  min_length: int = 0, max_length: int | None = None,
                  what: str = "positions") -> tuple[int, ...]:
    """A finite sequence of integer positions (0-based, below ``size`` when given), in order.

    Bools -- Python's and numpy's -- are refused (``[True]`` is not position 1), as are
    strings, floats and non-iterables; ``distinct`` refuses repeats (``(0, 0)`` is not a set
    of positions).  A sized input longer than ``max_length`` is refused before it is read.

    Parameters
    ----------
    name : str
        The argument's name in the message.
    value : object
        The value to check.
    size : int, optional, keyword-only
        Positions must be below it.
    distinct : bool, keyword-only
        Refuse repeats (default True).
    min_length : int, keyword-only
        Minimum length (default 0).
    max_length : int, optional, keyword-only
        Maximum length.
    what : str, keyword-only
        What the indices are, for the message (default ``'positions'``).

    Returns
    -------
    tuple of int
        The positions.

    Examples
    --------
    >>> check_indices("support", (2, 0), size=3)
    (2, 0)
    >>> check_indices("support", (0, 0))
    Traceback (most recent call last):
    ...
    ValueError: support repeats the position 0: give each of its positions once
    >>> check_indices("row_modes", [True])
    Traceback (most recent call last):
    ...
    ValueError: row_modes must hold integer positions, got True (bool) at place 0
    """
    if isinstance(value, str | bytes) or not isinstance(value, Iterable) or isinstance(
            value, Iterator):
        raise TypeError(f"{name} must be a list or tuple of integer {what}, got "
                        f"{_shown(value)} ({type(value).__name__})")
    if isinstance(value, np.ndarray) and value.ndim != 1:
        raise ValueError(f"{name} must be a 1-D sequence of {what}, got shape {value.shape}")
    if max_length is not None and isinstance(value, Sized) and len(value) > max_length:
        raise ValueError(f"{name} has {len(value)} {what}, more than the {max_length} allowed")
    out = []
    for place, v in enumerate(value):
        if isinstance(v, bool | np.bool_) or not isinstance(v, numbers.Integral):
            raise ValueError(f"{name} must hold integer {what}, got {_shown(v)} "
                             f"({type(v).__name__}) at place {place}")
        i = int(v)
        if i < 0 or (size is not None and i >= size):
            span = "0.." + ("" if size is None else str(size - 1))
            raise ValueError(f"{name} holds {i}, outside the {what} {span}")
        out.append(i)
        if max_length is not None and len(out) > max_length:
            raise ValueError(f"{name} has more than the {max_length} {what} allowed")
    if len(out) < min_length:
        raise ValueError(f"{name} must hold at least {min_length} {what}, got {len(out)}")
    if distinct and len(set(out)) != len(out):
        seen: set[int] = set()
        repeat = next(i for i in out if i in seen or seen.add(i))  # type: ignore[func-returns-value]
        raise ValueError(f"{name} repeats the position {repeat}: give each of its {what} once")
    return tuple(out)


def get_work_limit() -> int:
    """The process-wide work budget in elementary operations (default 10**13).

    Returns
    -------
    int
        Operations.

    Examples
    --------
    >>> get_work_limit() >= 1
    True
    """
    return _work_limit


def set_work_limit(n_ops: int) -> int:
    """Set the process-wide work budget (operations); returns the previous one.

    Parameters
    ----------
    n_ops : int
        The new budget (> 0).

    Returns
    -------
    int
        The previous budget.

    Examples
    --------
    >>> old = set_work_limit(10**6)
    >>> get_work_limit()
    1000000
    >>> _ = set_work_limit(old)
    """
    global _work_limit
    value = check_int("n_ops", n_ops, 1)
    previous, _work_limit = _work_limit, value
    return previous


@contextmanager
def work_limit(n_ops: int) -> Iterator[int]:
    """Set the work budget inside a ``with`` block (restored afterwards, also on errors).

    Parameters
    ----------
    n_ops : int
        The budget inside the block.

    Yields
    ------
    int
        ``n_ops``, the budget in force inside the block.

    Examples
    --------
    >>> with work_limit(10**6):
    ...     get_work_limit()
    1000000
    """
    previous = set_work_limit(n_ops)
    try:
        yield n_ops
    finally:
        set_work_limit(previous)


def check_work(n_ops: float, *, what: str, fix: str, max_ops: int | None = None) -> int:
    """Refuse a computation whose planned work ``n_ops`` (elementary operations: arithmetic,
    array entries touched, loop iterations) exceeds the budget, before it starts.

    Parameters
    ----------
    n_ops : int or float
        The estimate (Python ints never overflow; ``inf`` is allowed).
    what : str
        What would be computed, for the message.
    fix : str
        Which argument to lower (the message names it).
    max_ops : int, optional
        A per-call budget; default :func:`get_work_limit`.

    Returns
    -------
    int
        The budget used.

    Raises
    ------
    WorkBudgetError
        A ``ValueError`` with the estimate, the budget and the fix.

    Examples
    --------
    >>> check_work(10**20, what="10**14 samples of 10**6 entries", fix="lower n_samples")
    Traceback (most recent call last):
    ...
    seprank.core.errors.WorkBudgetError: 10**14 samples of 10**6 entries needs about 1e+20 ...
    """
    limit = _work_limit if max_ops is None else check_int("max_ops", max_ops, 1)
    if not n_ops <= limit:  # also catches NaN
        try:
            shown = f"{float(n_ops):.3g}"
        except OverflowError:  # an int beyond float range
            shown = f"10**{int(int(n_ops).bit_length() * math.log10(2))}"
        raise WorkBudgetError(
            f"{what} needs about {shown} operations, above the work budget of {limit:.3g}; "
            f"{fix}, or raise the budget with seprank.core.set_work_limit(n_ops)",
            needed=int(min(n_ops, 2**63)) if n_ops == n_ops else 2**63, limit=limit,
            what=what)
    return limit


def _number(name: str, value: Any, **bounds: Any) -> Any:
    """check_float, keeping exact ints and Fractions exact (numpy scalars become floats)."""
    check_float(name, value, **bounds)
    if isinstance(value, int | Fraction) and not isinstance(value, bool):
        return value
    return float(value)


def _check_seed(name: str, value: Any) -> Any:
    from seprank.core.random import as_generator

    if not isinstance(value, np.random.Generator):
        as_generator(value, name=name)  # validation only: the callee draws from it
    return value


#: The named checks :func:`validated` understands.
CHECKS: dict[str, Callable[[str, Any], Any]] = {
    "count": lambda n, v: check_int(n, v, 1),
    "count0": lambda n, v: check_int(n, v, 0),
    "int": lambda n, v: check_int(n, v, None),
    "positive": lambda n, v: _number(n, v, positive=True),
    "nonnegative": lambda n, v: _number(n, v, minimum=0),
    "real": lambda n, v: _number(n, v),
    "extended_real": lambda n, v: _number(n, v, finite=False),
    "probability": lambda n, v: _number(n, v, minimum=0, maximum=1),
    "open_unit": lambda n, v: _open_unit(n, v),
    "tolerance": lambda n, v: check_tolerance(n, v, allow_none=False),
    "bool": check_bool,
    "seed": _check_seed,
    "callable": check_callable,
}


def _open_unit(name: str, value: Any) -> Any:
    v = _number(name, value, minimum=0, maximum=1, hint=" strictly between 0 and 1")
    if not 0 < v < 1:
        raise ValueError(f"{name} must be a number strictly between 0 and 1, got "
                         f"{_shown(value)}")
    return v


_F = TypeVar("_F", bound=Callable[..., Any])


def validated(**specs: str | Callable[[str, Any], Any]) -> Callable[[_F], _F]:
    """Decorate a function so that its arguments are checked by name before it runs.

    Each keyword maps an argument to a check: a name from :data:`CHECKS` (``"count"`` for an
    int >= 1, ``"count0"`` for an int >= 0, ``"positive"``, ``"real"``, ``"tolerance"``,
    ``"probability"``, ``"bool"``, ``"seed"``, ``"callable"``, ...) or a function
    ``check(name, value) -> value``.  The checked value replaces the argument (ints stay
    ints, Fractions stay exact).  An argument whose default is ``None`` may be ``None``.

    Parameters
    ----------
    **specs
        Argument name -> check (a name from :data:`CHECKS` or a function).

    Returns
    -------
    callable
        The decorator.

    Examples
    --------
    >>> @validated(n="count", eta="positive")
    ... def f(n, eta=0.5):
    ...     return n * eta
    >>> f(2, eta=0.25)
    0.5
    >>> f(2.0)
    Traceback (most recent call last):
    ...
    ValueError: n must be an integer >= 1, got 2.0 (float)
    """

    def decorate(func: _F) -> _F:
        sig = inspect.signature(func)
        unknown = set(specs) - set(sig.parameters)
        if unknown:
            raise TypeError(f"validated: {func.__qualname__} has no argument(s) {unknown}")
        checks = {name: CHECKS[spec] if isinstance(spec, str) else spec
                  for name, spec in specs.items()}
        optional = {name for name in specs if sig.parameters[name].default is None}

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound = sig.bind(*args, **kwargs)
            for name, check in checks.items():
                if name in bound.arguments:
                    value = bound.arguments[name]
                    if value is None and name in optional:
                        continue
                    bound.arguments[name] = check(name, value)
            return func(*bound.args, **bound.kwargs)

        return cast(_F, wrapper)

    return decorate
