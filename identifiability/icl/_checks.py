"""Argument checks of :mod:`identifiability.icl` (each names the argument and the fix)."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import numpy.typing as npt

from seprank.core.validation import check_int

__all__ = ["check_fraction", "check_int", "check_matrix", "check_positive"]


def check_positive(name: str, value: Any, *, allow_zero: bool = False) -> float:
    """``value`` as a finite float > 0 (>= 0 with ``allow_zero``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    v = float(value)
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
    return v


def check_fraction(name: str, value: Any, *, allow_zero: bool = False) -> float:
    """``value`` as a float in (0, 1] ([0, 1] with ``allow_zero``)."""
    v = check_positive(name, value, allow_zero=allow_zero)
    if v > 1:
        raise ValueError(f"{name} must lie in {'[0' if allow_zero else '(0'}, 1], got {value!r}")
    return v


def check_matrix(name: str, value: Any, *, shape: tuple[int | None, int | None] = (None, None)
                 ) -> npt.NDArray[np.float64]:
    """``value`` as a finite 2-D float64 array with the given (partial) shape."""
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got shape {arr.shape}")
    for axis, want in enumerate(shape):
        if want is not None and arr.shape[axis] != want:
            raise ValueError(f"{name} must have {want} {'rows' if axis == 0 else 'columns'}, "
                             f"got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} has non-finite entries")
    return arr
