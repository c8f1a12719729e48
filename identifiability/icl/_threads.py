"""One BLAS thread for the small matrix products of :mod:`identifiability.icl`.

The model's matrices are at most 64 x 60: a multi-threaded BLAS only adds synchronisation, and
on a shared 2-core machine one forward pass became ~20x slower (115 ms vs 6 ms for 1000
prompts).  :func:`single_blas_thread` limits the BLAS pool with :mod:`threadpoolctl` for the
duration of a call and restores it afterwards; it changes no result beyond summation order.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["single_blas_thread", "single_blas_threaded"]

F = TypeVar("F", bound=Callable[..., Any])


@functools.cache
def _controller() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextlib.contextmanager
def single_blas_thread(*, openmp: bool = False) -> Iterator[None]:
    """Limit BLAS (and with ``openmp=True`` also OpenMP, which scikit-learn uses) to one
    thread inside the ``with`` block."""
    with _controller().limit(limits=1, user_api=None if openmp else "blas"):
        yield


def single_blas_threaded(func: F) -> F:
    """Decorator form of :func:`single_blas_thread`."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with single_blas_thread():
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
