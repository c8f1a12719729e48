"""One progress policy for the toolkit: one quiet bar per user-visible call.

A researcher's notebook should show what a long call is doing and nothing else.  Every loop of
:mod:`seprank`, :mod:`identifiability` and :mod:`paper_checks` that reports progress opens its
bar through :func:`progress_bar`, which decides:

* **one bar per user-visible call** -- while a bar is open, every bar opened below it (a degree
  block's growth rounds inside ``separation_rank``, a claim's computation inside
  ``run_claims``) is silent;
* **nothing for short calls** -- a bar appears only once its call has run
  :data:`DELAY_SECONDS` (2 s); no widget, no line is created before that, so a notebook of fast
  calls saves no widget state at all;
* **``progress=False`` is honoured by every inner call** -- it silences the call's own bar and
  every bar below it; ``progress=True`` asks for one even when the module switch is off;
* **a module switch**: :func:`set_progress` (``seprank.set_progress(False)``) turns the
  default off for the session;
* **tqdm.auto**: a widget in Jupyter, a text bar on a terminal (stderr) -- the CLI and the
  sweeps use the same bars.

Examples
--------
>>> with progress_bar(desc="outer", total=3) as bar:
...     with progress_bar(desc="inner") as inner:     # silent: a bar is already open
...         inner.shown
...     bar.update(3)
False
>>> set_progress(False); progress_enabled()
False
>>> set_progress(True); progress_enabled()
True
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from types import TracebackType
from typing import Any, TypeVar

from seprank.core.validation import check_bool, check_instance, check_int

__all__ = ["DELAY_SECONDS", "ProgressBar", "progress_bar", "progress_enabled", "set_progress",
           "track"]

#: A bar appears only after its call has run this long.
DELAY_SECONDS = 2.0
_ENABLED = [True]
#: How many bars (shown or silenced) are open in this context: bars below one are silent.
_OPEN: ContextVar[int] = ContextVar("seprank_progress_open", default=0)


def set_progress(enabled: bool) -> None:
    """Turn the toolkit's progress bars on or off for this session (the default of every
    ``progress=None``; an explicit ``progress=True`` still shows one).

    Parameters
    ----------
    enabled : bool
        Whether calls show a bar by default.

    Returns
    -------
    None

    Examples
    --------
    >>> set_progress(False); progress_enabled()
    False
    >>> set_progress(True)
    """
    _ENABLED[0] = check_bool("enabled", enabled)


def progress_enabled() -> bool:
    """Whether calls show a bar by default (:func:`set_progress`).

    Returns
    -------
    bool
        The module switch.

    Examples
    --------
    >>> progress_enabled() in (True, False)
    True
    """
    return _ENABLED[0]


class ProgressBar:
    """A bar that exists only if it is wanted and its call is long: the tqdm.auto bar is
    created at the first update after :data:`DELAY_SECONDS`, never before.

    Use it through :func:`progress_bar` (a context manager; ``close()`` also ends it).

    Parameters
    ----------
    desc : str
        What the bar counts.
    total : int, optional
        How many steps there are (None: unknown).
    unit : str
        The unit of a step.
    initial : int
        Steps already done.
    wanted : bool
        False: a silent bar that records its count only.
    """

    def __init__(self, *, desc: str, total: int | None = None, unit: str = "it",
                 initial: int = 0, wanted: bool = True) -> None:
        self.desc, self.total, self.unit = desc, total, unit
        self.n = int(initial)
        self._wanted = wanted
        self._start = time.monotonic()
        self._bar: Any = None
        self._postfix = ""
        self._open = True
        _OPEN.set(_OPEN.get() + 1)

    @property
    def shown(self) -> bool:
        """Whether a bar is on screen."""
        return self._bar is not None

    def _show_if_due(self) -> None:
        if (self._bar is None and self._wanted
                and time.monotonic() - self._start >= DELAY_SECONDS):
            from tqdm.auto import tqdm

            self._bar = tqdm(desc=self.desc, total=self.total, unit=self.unit,
                             initial=self.n, leave=False)
            if self._postfix:
                self._bar.set_postfix_str(self._postfix, refresh=False)

    def update(self, n: int = 1) -> None:
        """Count ``n`` more steps.

        Parameters
        ----------
        n : int
            Steps done.
        """
        self.n += n
        self._show_if_due()
        if self._bar is not None:
            self._bar.update(n)

    def set_postfix_str(self, text: str) -> None:
        """Show ``text`` after the bar (e.g. the current claim or rank).

        Parameters
        ----------
        text : str
            What to show.
        """
        self._postfix = text
        if self._bar is not None:
            self._bar.set_postfix_str(text, refresh=False)

    def close(self) -> None:
        """End the bar (and let bars open again in this context)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        if self._open:
            _OPEN.set(max(0, _OPEN.get() - 1))
            self._open = False

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def progress_bar(*, desc: str, total: int | None = None, unit: str = "it", initial: int = 0,
                 progress: bool | None = None) -> ProgressBar:
    """The bar of one call, under the toolkit's progress policy (module docstring).

    Parameters
    ----------
    desc : str
        What the bar counts.
    total : int, optional
        How many steps there are.
    unit : str
        The unit of a step.
    initial : int
        Steps already done (a resumed sweep).
    progress : bool, optional
        The caller's ``progress=`` argument: None follows :func:`set_progress`, False silences
        this bar and every bar below it, True shows one (after the delay) even when the switch
        is off.  Inside another bar it is always silent.

    Returns
    -------
    ProgressBar
        Use it as a context manager, or ``close()`` it.

    Examples
    --------
    >>> with progress_bar(desc="steps", total=2, progress=False) as bar:
    ...     bar.update(2)
    >>> bar.n, bar.shown
    (2, False)
    """
    if progress is not None:
        check_bool("progress", progress)
    check_instance("desc", desc, str, expected="a str")
    check_instance("unit", unit, str, expected="a str")
    total = None if total is None else check_int("total", total, 0)
    initial = check_int("initial", initial, 0)
    wanted = (not _OPEN.get()) and (progress is True
                                    or (progress is None and _ENABLED[0]))
    return ProgressBar(desc=desc, total=total, unit=unit, initial=initial, wanted=wanted)


T = TypeVar("T")


def track(items: Iterable[T], *, desc: str, total: int | None = None, unit: str = "it",
          progress: bool | None = None) -> Iterator[T]:
    """Iterate over ``items`` under one bar (:func:`progress_bar`), closed when the loop ends,
    breaks or raises.

    Parameters
    ----------
    items : iterable
        What the loop runs over.
    desc : str
        What the bar counts.
    total : int, optional
        ``len(items)`` when it has one.
    unit : str
        The unit of a step.
    progress : bool, optional
        As in :func:`progress_bar`.

    Yields
    ------
    object
        The items.

    Examples
    --------
    >>> sum(track(range(4), desc="sum"))
    6
    """
    check_instance("desc", desc, str, expected="a str")
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with progress_bar(desc=desc, total=total, unit=unit, progress=progress) as bar:
        for item in items:
            yield item
            bar.update()
