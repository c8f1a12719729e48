"""What the site documents: the public modules and the paper subpackages (those with ``INDEX``).

Nothing here is a list to keep up to date: a module is public when no component of its dotted
name starts with ``_``; a paper subpackage is a public module that defines a
:class:`seprank.core.index.PaperIndex` named ``INDEX`` (its ``__init__`` is its index).  A new
paper subpackage therefore gets its page, its API pages and its verdict table without an edit
to the docs.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from seprank.core.index import PaperIndex

#: The top-level packages documented, bottom floor first.
TOP_PACKAGES = ("seprank", "identifiability", "paper_checks")
#: Modules that are documented elsewhere: the claim checks are the ledger's subject.
EXCLUDED_PREFIXES = ("paper_checks.claims",)


@dataclass(frozen=True)
class PublicModule:
    """A public module: its dotted name, whether it is a package, and its paper index if any."""

    name: str
    is_package: bool
    index: object | None  # a seprank.core.index.PaperIndex, or None

    @property
    def module(self) -> ModuleType:
        return importlib.import_module(self.name)

    @property
    def is_paper(self) -> bool:
        return self.index is not None


def _is_public(name: str) -> bool:
    return (not any(part.startswith("_") for part in name.split("."))
            and not name.startswith(EXCLUDED_PREFIXES))


def paper_index(module: ModuleType) -> PaperIndex | None:
    """The module's own index: an ``INDEX`` whose rendering its docstring carries (a package
    that merely re-exports a subpackage's ``INDEX`` is not a paper subpackage)."""
    from seprank.core.index import PaperIndex

    index = getattr(module, "INDEX", None)
    if isinstance(index, PaperIndex) and index.render() in (module.__doc__ or ""):
        return index
    return None


def public_modules(top: tuple[str, ...] = TOP_PACKAGES) -> list[PublicModule]:
    """Every public module of the ``top`` packages, packages before their modules, sorted."""
    found: dict[str, PublicModule] = {}
    for top_name in top:
        package = importlib.import_module(top_name)
        found[top_name] = PublicModule(top_name, True, paper_index(package))
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{top_name}.",
                                          onerror=_raise):
            if not _is_public(info.name):
                continue
            module = importlib.import_module(info.name)
            found[info.name] = PublicModule(info.name, info.ispkg, paper_index(module))
    return [found[name] for name in sorted(found)]


def _raise(name: str) -> None:
    raise ImportError(f"the docs could not import {name} while walking the packages")


def paper_modules(modules: list[PublicModule] | None = None) -> list[PublicModule]:
    """The paper subpackages (and paper modules such as ``identifiability.nce``)."""
    return [m for m in (public_modules() if modules is None else modules) if m.is_paper]


def owner(name: str, papers: list[PublicModule]) -> PublicModule | None:
    """The paper subpackage a module belongs to (itself, or the package containing it)."""
    best = None
    for paper in papers:
        if (name == paper.name or name.startswith(paper.name + ".")) and (
                best is None or len(paper.name) > len(best.name)):
            best = paper
    return best


def _defined_in(obj: object) -> str | None:
    """The module that defines ``obj`` when it is one of ours; ``None`` for data and aliases."""
    module = getattr(obj, "__module__", None)
    if (isinstance(module, str) and module.split(".")[0] in TOP_PACKAGES
            and (inspect.isfunction(obj) or inspect.isclass(obj))):
        return module
    return None


def _is_type_alias(obj: object) -> bool:
    """A subscripted generic such as ``npt.NDArray[np.float64]`` (``seprank.core.types``):
    autodoc cannot format it as a member; its module docstring describes it."""
    return isinstance(obj, types.GenericAlias)


def documented_members(modules: list[PublicModule]) -> dict[str, list[str]]:
    """Which names each module's page documents: every name of every ``__all__``, once.

    A function or class is documented where it is defined when that module is public; a
    re-export (``seprank.matrix_rank``) links there.  Data and type aliases are documented in
    the (non-package) module whose ``__all__`` lists them.  A name defined in a private module
    is documented at the deepest public module that exports it.
    """
    public = {m.name for m in modules}
    pages: dict[str, list[str]] = {m.name: [] for m in modules}
    homeless: dict[int, tuple[str, str]] = {}
    for m in modules:
        module = m.module
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if isinstance(obj, ModuleType) or _is_type_alias(obj):
                continue
            home = _defined_in(obj)
            if home == m.name or (home is None and not m.is_package):
                pages[m.name].append(name)
            elif home is not None and home not in public:
                best = homeless.get(id(obj))
                if best is None or len(m.name) > len(best[0]):
                    homeless[id(obj)] = (m.name, name)
    for module_name, name in homeless.values():
        pages[module_name].append(name)
    return pages
