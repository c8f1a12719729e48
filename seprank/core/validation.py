"""Argument checks shared by every public entry point: each names the argument and the fix.

Every function of the toolkit validates its arguments where they enter, with these helpers,
so that a wrong call fails with a message that says which argument is wrong and what is
expected -- never with a numpy internal error or, worse, a silently truncated value.
"""

from __future__ import annotations

import numbers
from typing import Any

__all__ = ["check_int"]


def check_int(name: str, value: Any, minimum: int = 1, maximum: int | None = None) -> int:
    """``value`` as a Python int in ``[minimum, maximum]``; bools and floats are refused.

    Parameters
    ----------
    name : str
        How the caller's documentation names the argument (e.g. ``"depth L"``).
    value : Any
        The argument.
    minimum, maximum : int
        Inclusive range (``maximum=None``: unbounded).

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
    what = f"an integer >= {minimum}" + ("" if maximum is None else f" and <= {maximum}")
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be {what}, got {value!r} ({type(value).__name__})")
    v = int(value)
    if v < minimum or (maximum is not None and v > maximum):
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return v
