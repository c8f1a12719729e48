"""Argument checks of :mod:`identifiability.icl` (each names the argument and the fix): thin
wrappers of :mod:`seprank.core.validation` in the vocabulary of 002."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.validation import check_array, check_float, check_instance, check_int

__all__ = ["check_fraction", "check_int", "check_matrix", "check_object", "check_positive"]


def check_positive(name: str, value: Any, *, allow_zero: bool = False) -> float:
    """``value`` as a finite float > 0 (>= 0 with ``allow_zero``); bools and strings refused."""
    if allow_zero:
        return check_float(name, value, minimum=0)
    return check_float(name, value, positive=True)


def check_fraction(name: str, value: Any, *, allow_zero: bool = False) -> float:
    """``value`` as a float in (0, 1] ([0, 1] with ``allow_zero``)."""
    v = check_positive(name, value, allow_zero=allow_zero)
    if v > 1:
        raise ValueError(f"{name} must lie in {'[0' if allow_zero else '(0'}, 1], got {value!r}")
    return v


def check_matrix(name: str, value: Any, *, shape: tuple[int | None, int | None] = (None, None)
                 ) -> npt.NDArray[np.float64]:
    """``value`` as a finite 2-D float64 array with the given (partial) shape."""
    arr = check_array(name, value, ndim=2, min_size=0)
    for axis, want in enumerate(shape):
        if want is not None and arr.shape[axis] != want:
            raise ValueError(f"{name} must have {want} {'rows' if axis == 0 else 'columns'}, "
                             f"got shape {arr.shape}")
    return arr


def check_object(name: str, value: Any, cls: type, how: str) -> Any:
    """``value`` if it is a ``cls`` (e.g. the ICLParams of :func:`initialize`); otherwise a
    TypeError naming the argument and how to get one."""
    return check_instance(name, value, cls, expected=f"an {cls.__name__}"
                          if cls.__name__[0] in "AEIOU" else f"a {cls.__name__}", hint=how)
