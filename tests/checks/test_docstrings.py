"""Every public callable documents its parameters and what it returns (numpydoc).

The public callables of a package are the functions and classes named in the ``__all__`` of
its public modules (no dotted component starting with ``_``), each counted once where it is
defined, plus the public methods (including class and static methods) each of those classes
defines itself.  For each one, parsed with :class:`numpydoc.docscrape.NumpyDocString`:

* every parameter of the signature (``self`` / ``cls`` aside; ``*args`` / ``**kwargs`` as
  numpydoc writes them) is documented under Parameters or Other Parameters -- for a class,
  the parameters of its constructor, in the class docstring (a dataclass field documented
  under Attributes counts: numpydoc renders both as a parameter list here; a field a base
  class defines may be documented in the base class's docstring);
* no documented parameter is absent from the signature;
* a function whose return annotation is not ``None`` has a Returns (or Yields) section.

The check is strict for the modules in :data:`COVERED` (both packages) except those in
:data:`EXEMPT` (empty: a place for a newly merged module whose docstrings are still to be
written); ``python -m tests.checks.test_docstrings`` prints the counts of every package and,
with ``-v``, the callables still missing a section.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import pkgutil
import sys
import typing
from dataclasses import dataclass, is_dataclass
from types import ModuleType

import pytest

numpydoc_docscrape = pytest.importorskip("numpydoc.docscrape")

#: The packages whose public callables are checked.
PACKAGES = ("seprank", "identifiability")

#: The modules (or packages, with everything below them) where every public callable must pass:
#: all of both packages.
COVERED: tuple[str, ...] = PACKAGES
#: Modules (or packages) exempted for now -- e.g. a newly merged subpackage whose docstrings are
#: not written yet.  Keep it empty: an entry here is documentation debt.
EXEMPT: tuple[str, ...] = ()


@dataclass(frozen=True)
class Callable_:
    """One public callable: where it is defined, its dotted name, the object."""

    module: str
    qualname: str
    obj: object
    is_class: bool

    @property
    def name(self) -> str:
        return f"{self.module}.{self.qualname}"


def _is_public_module(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


def public_modules(package: str) -> list[ModuleType]:
    """The package and every public module below it, imported."""
    top = importlib.import_module(package)
    found = [top]
    for info in pkgutil.walk_packages(top.__path__, prefix=f"{package}."):
        if _is_public_module(info.name):
            found.append(importlib.import_module(info.name))
    return found


def _ours(obj: object, packages: tuple[str, ...]) -> bool:
    module = getattr(obj, "__module__", None)
    return isinstance(module, str) and module.split(".")[0] in packages


def _skip_class(cls: type) -> bool:
    """Classes whose constructor is not the user's to call with documented parameters."""
    if issubclass(cls, (BaseException, enum.Enum)):
        return True
    return bool(getattr(cls, "_is_protocol", False)) or typing.is_typeddict(cls)


def public_callables(packages: tuple[str, ...] = PACKAGES) -> list[Callable_]:
    """Every public function, class and method of the packages, once each, sorted."""
    seen: dict[int, Callable_] = {}
    for package in packages:
        for module in public_modules(package):
            for attr in getattr(module, "__all__", ()):
                obj = getattr(module, attr, None)
                if id(obj) in seen or not _ours(obj, packages):
                    continue
                if inspect.isfunction(obj):
                    seen[id(obj)] = Callable_(obj.__module__, obj.__qualname__, obj, False)
                elif inspect.isclass(obj) and not _skip_class(obj):
                    seen[id(obj)] = Callable_(obj.__module__, obj.__qualname__, obj, True)
                    for name, member in vars(obj).items():
                        if name.startswith("_"):
                            continue
                        if isinstance(member, (classmethod, staticmethod)):
                            member = member.__func__
                        if inspect.isfunction(member) and id(member) not in seen:
                            seen[id(member)] = Callable_(obj.__module__, member.__qualname__,
                                                         member, False)
    return sorted(seen.values(), key=lambda c: c.name)


def _signature_parameters(item: Callable_) -> list[str]:
    obj = item.obj
    try:
        signature = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return []
    names = []
    for i, p in enumerate(signature.parameters.values()):
        if i == 0 and not item.is_class and p.name in ("self", "cls"):
            continue
        if p.name.startswith("_"):  # a private field or keyword: not the caller's
            continue
        if p.kind is p.VAR_POSITIONAL:
            names.append(f"*{p.name}")
        elif p.kind is p.VAR_KEYWORD:
            names.append(f"**{p.name}")
        else:
            names.append(p.name)
    return names


def _returns_something(item: Callable_) -> bool:
    if item.is_class:
        return False
    annotation = inspect.signature(item.obj).return_annotation  # type: ignore[arg-type]
    return annotation not in (None, "None", type(None))


def _documented(doc: object, sections: tuple[str, ...]) -> list[str]:
    names: list[str] = []
    for section in sections:
        for parameter in doc[section]:  # type: ignore[index]
            names.extend(n.strip() for n in parameter.name.split(",") if n.strip())
    return names


def _parse(item: Callable_) -> object:
    text = inspect.getdoc(item.obj) or ""
    if item.is_class and is_dataclass(item.obj) and item.obj.__doc__ is None:
        text = ""
    return numpydoc_docscrape.NumpyDocString(text)


@dataclass(frozen=True)
class Report:
    """What a callable's docstring lacks."""

    item: Callable_
    missing: tuple[str, ...]  # signature parameters not documented
    extra: tuple[str, ...]  # documented parameters not in the signature
    needs_parameters: bool
    has_parameters: bool
    needs_returns: bool
    has_returns: bool

    @property
    def ok(self) -> bool:
        return (not self.missing and not self.extra
                and (self.has_returns or not self.needs_returns))

    def problems(self) -> str:
        out = []
        if self.missing:
            out.append(f"parameters not documented: {', '.join(self.missing)}")
        if self.extra:
            out.append(f"documented but not in the signature: {', '.join(self.extra)}")
        if self.needs_returns and not self.has_returns:
            out.append("no Returns (or Yields) section")
        return f"{self.item.name}: " + "; ".join(out)


def check(item: Callable_) -> Report:
    """Compare the callable's signature with its parsed docstring."""
    doc = _parse(item)
    sections: tuple[str, ...] = ("Parameters", "Other Parameters")
    if item.is_class:
        sections += ("Attributes",)
    documented = _documented(doc, sections)
    if item.is_class:  # fields a base class defines are documented there
        for base in item.obj.__mro__[1:]:  # type: ignore[attr-defined]
            if _ours(base, PACKAGES) and base.__doc__:
                documented += _documented(numpydoc_docscrape.NumpyDocString(
                    inspect.cleandoc(base.__doc__)), sections)
    parameters = _signature_parameters(item)
    own = _documented(doc, ("Parameters", "Other Parameters"))
    missing = tuple(p for p in parameters if p not in documented)
    extra = tuple(p for p in own if p not in parameters)
    returns = bool(doc["Returns"]) or bool(doc["Yields"])  # type: ignore[index]
    return Report(item, missing, extra, bool(parameters), bool(own) or not parameters,
                  _returns_something(item), returns)


def _within(module: str, names: tuple[str, ...]) -> bool:
    return any(module == m or module.startswith(m + ".") for m in names)


def _covered(item: Callable_) -> bool:
    return _within(item.module, COVERED) and not _within(item.module, EXEMPT)


def counts(reports: list[Report]) -> dict[str, int]:
    """Functions and methods with a Parameters / Returns section (the issue's counts)."""
    functions = [r for r in reports if not r.item.is_class]
    return {
        "functions and methods": len(functions),
        "with Parameters (of those taking any)": sum(
            1 for r in functions if r.needs_parameters and r.has_parameters),
        "taking parameters": sum(1 for r in functions if r.needs_parameters),
        "with Returns": sum(1 for r in functions if r.has_returns),
        "returning something": sum(1 for r in functions if r.needs_returns),
        "classes": len(reports) - len(functions),
        "passing the check (functions, methods, classes)": sum(1 for r in reports if r.ok),
    }


_ITEMS = [c for c in public_callables() if _covered(c)]


@pytest.mark.parametrize("item", _ITEMS, ids=[c.name for c in _ITEMS])
def test_docstring_documents_parameters_and_returns(item: Callable_) -> None:
    report = check(item)
    assert report.ok, report.problems()


def test_covered_and_exempt_modules_exist() -> None:
    modules = {m.__name__ for p in PACKAGES for m in public_modules(p)}
    assert all(m in modules for m in COVERED + EXEMPT), set(COVERED + EXEMPT) - modules


if __name__ == "__main__":
    everything = [check(c) for c in public_callables()]
    for package in PACKAGES:
        mine = [r for r in everything if r.item.module.split(".")[0] == package]
        print(package, counts(mine))
    print("all", counts(everything))
    if "-v" in sys.argv:
        for r in everything:
            if not r.ok:
                print(" ", r.problems())
