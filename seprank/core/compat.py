"""Old module paths keep working after a move, with a :class:`FutureWarning` naming the new one.

``install_moved_modules({"pkg.old": "pkg.new", ...})`` registers an import hook: ``import
pkg.old`` (or ``from pkg.old import name``) imports ``pkg.new`` instead, binds it under the old
name and warns once.  Nothing is copied, so ``pkg.old.f is pkg.new.f``.  This is the move the
quimb project made with its ``quimb.tensor.tensor_1d`` shims, written once instead of one file
per old path.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

__all__ = ["install_moved_modules"]


class _MovedModuleLoader(importlib.abc.Loader):
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new
        self._spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{self.old} moved to {self.new}; import it from there (the old path will be "
            "removed in a later release)", FutureWarning, stacklevel=2)
        module = importlib.import_module(self.new)
        self._spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """The target module is already executed; undo the import system's ``__spec__``."""
        module.__spec__ = self._spec


class _MovedModuleFinder(importlib.abc.MetaPathFinder):
    def __init__(self, moved: Mapping[str, str]) -> None:
        self.moved = dict(moved)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: Any = None) -> importlib.machinery.ModuleSpec | None:
        new = self.moved.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _MovedModuleLoader(fullname, new))


def install_moved_modules(moved: Mapping[str, str]) -> None:
    """Make every old module path in ``moved`` import its new module (see module docstring).

    Examples
    --------
    >>> install_moved_modules({"seprank._doc_example_old": "seprank.core.log3"})
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     from seprank._doc_example_old import log3
    >>> float(log3(9)), caught[0].category.__name__
    (2.0, 'FutureWarning')
    """
    for finder in sys.meta_path:
        if isinstance(finder, _MovedModuleFinder):
            finder.moved.update(moved)
            return
    sys.meta_path.append(_MovedModuleFinder(moved))
