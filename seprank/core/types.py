"""The array type aliases both libraries use (sympy's ``_typing.py``): one definition each.

``Array`` is any numpy array, ``FloatArray`` and ``IntArray`` the float64 and int64 ones.

Examples
--------
>>> import numpy as np
>>> x: FloatArray = np.zeros(3)
>>> x.dtype
dtype('float64')
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Array", "FloatArray", "IntArray"]

#: Any numpy array (object arrays of exact numbers included).
Array = npt.NDArray[Any]
#: A float64 array.
FloatArray = npt.NDArray[np.float64]
#: An int64 array.
IntArray = npt.NDArray[np.int64]
