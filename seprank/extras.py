"""The toolkit's dependencies in groups, and the one door to an optional one.

``pip install -e .`` installs every group.  A user who wants less installs the distribution
without its dependencies and then only the groups their work needs::

    pip install --no-deps -e .
    python -m seprank.extras core | pip install -r /dev/stdin

(add ``automata``, ``distributed``, ``kernels`` or ``baselines`` after ``core`` for more; the
documentation's "Installing less" lists what each group enables).  This module is the one
table of the groups (:data:`GROUPS`): ``pyproject.toml`` declares the same groups as its
optional dependencies and its dependencies as their union, and a test holds the two equal.  It
imports nothing outside the standard library, so it runs before anything else is installed.

Every import of a dependency outside ``core`` goes through :func:`require` (or
:func:`optional`, where a slower path exists without it): a missing package raises
:class:`MissingExtraError`, an :class:`ImportError` whose message names the feature, the
package and the exact ``pip install`` line of its group alone -- never
``pip install seprank-identifiability[...]``, which would bring every other group back.

Examples
--------
>>> pip_line("distributed")
'pip install "dask>=2024.1" "distributed>=2024.1"'
>>> GROUP_OF["libsemigroups_pybind11"]
'automata'
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = [
    "DISTRIBUTION_OF",
    "GROUPS",
    "GROUP_OF",
    "PURPOSE",
    "MissingExtraError",
    "group_installed",
    "main",
    "optional",
    "pip_line",
    "require",
    "requirements",
]

#: The dependency groups: name -> requirement lines.  ``pyproject.toml`` declares each as an
#: optional dependency and their union as ``[project].dependencies`` (tested).
GROUPS: dict[str, tuple[str, ...]] = {
    "core": (
        "numpy>=1.26",
        "scipy>=1.11",
        "sympy>=1.12",
        "tensorly>=0.8",
        "networkx>=3.0",
        "python-flint>=0.6",
        "matplotlib>=3.7",
        "tqdm>=4.60",
        "threadpoolctl>=3.1",
        "lazy_loader>=0.4",
        "tabulate>=0.9",
    ),
    "automata": ("libsemigroups_pybind11>=1.0", "automata-lib>=8.0"),
    "distributed": ("dask>=2024.1", "distributed>=2024.1"),
    "kernels": ("numba>=0.59",),
    "baselines": ("scikit-learn>=1.3",),
}

#: What each group enables (the documentation's table and the command's ``--list``).
PURPOSE: dict[str, str] = {
    "core": "everything not listed below: ranks and certificates, HMM identifiability and "
            "estimation, contrastive, NCE, ICL, distillation, the paper checks and their plots",
    "automata": "the independent recounts of semigroup sizes (libsemigroups) and of minimal "
                "Dyck automata (automata-lib) in seprank.automata and the 004 ch. 3 checks",
    "distributed": "parallel sweeps and paper checks on a dask cluster (paper-checks "
                   "--workers/--scheduler, seprank.sweeps with an executor)",
    "kernels": "compiled numba kernels: faster GF(p) eliminations, in-context grids and "
               "Birkhoff projections (without them a numpy path gives the same results, "
               "slower: ranks bit for bit, the projection to rounding); the unrolled "
               "in-context kernel needs them",
    "baselines": "the classical baselines (logistic regression, k-NN, SVM) of the ICL paper "
                 "002 (identifiability.icl.baselines)",
}

#: Import name of each optional package -> its group.
GROUP_OF: dict[str, str] = {
    "libsemigroups_pybind11": "automata",
    "automata": "automata",
    "dask": "distributed",
    "distributed": "distributed",
    "numba": "kernels",
    "sklearn": "baselines",
}
#: Import name -> the distribution pip installs, where the two differ.
DISTRIBUTION_OF: dict[str, str] = {"automata": "automata-lib", "sklearn": "scikit-learn"}


class MissingExtraError(ImportError):
    """An optional dependency group is not installed.

    Attributes
    ----------
    feature : str
        What needed it.
    package : str
        The missing import name (its top level).
    group : str
        Its group in :data:`GROUPS`.
    pip : str
        The exact command that installs that group alone (:func:`pip_line`).

    Examples
    --------
    >>> err = MissingExtraError("Dyck automata", "automata")
    >>> err.group, err.pip
    ('automata', 'pip install "libsemigroups_pybind11>=1.0" "automata-lib>=8.0"')
    """

    def __init__(self, feature: str, package: str) -> None:
        top = package.split(".")[0]
        self.feature, self.package = feature, top
        self.group = GROUP_OF.get(top, "core")
        self.pip = pip_line(self.group)
        super().__init__(
            f"{feature} needs {DISTRIBUTION_OF.get(top, top)} (import {top}), of the optional "
            f"group {self.group!r}, which is not installed; install that group alone with:  "
            f"{self.pip}", name=top)

    def __reduce__(self) -> tuple[type[MissingExtraError], tuple[str, str]]:
        return MissingExtraError, (self.feature, self.package)


def _check_groups(groups: Sequence[str]) -> list[str]:
    names = list(GROUPS) if list(groups) == ["all"] else list(groups)
    unknown = [g for g in names if g not in GROUPS]
    if unknown or not names:
        raise ValueError(f"groups must be among {', '.join(GROUPS)} (or 'all'), got "
                         f"{', '.join(map(repr, unknown)) or 'none'}")
    return names


def requirements(*groups: str) -> list[str]:
    """The requirement lines of some groups, in table order, each once.

    Parameters
    ----------
    *groups : str
        Names in :data:`GROUPS`, or ``'all'``.

    Returns
    -------
    list of str

    Raises
    ------
    ValueError
        No group, or a name not in :data:`GROUPS`.

    Examples
    --------
    >>> requirements("kernels", "baselines")
    ['numba>=0.59', 'scikit-learn>=1.3']
    """
    names = _check_groups(groups)
    return list(dict.fromkeys(r for g in names for r in GROUPS[g]))


def pip_line(*groups: str) -> str:
    """The ``pip install`` command of some groups alone (each requirement quoted).

    Parameters
    ----------
    *groups : str
        Names in :data:`GROUPS`, or ``'all'``.

    Returns
    -------
    str

    Examples
    --------
    >>> pip_line("kernels")
    'pip install "numba>=0.59"'
    """
    return "pip install " + " ".join(f'"{r}"' for r in requirements(*groups))


def _import(package: str) -> ModuleType | None:
    """The module, or None when it (or a package above it) is not installed."""
    try:
        return importlib.import_module(package)
    except ModuleNotFoundError as err:
        # only a missing package itself: a module that is there but fails inside raises
        missing = err.name or ""
        if missing and (package == missing or package.startswith(missing + ".")):
            return None
        raise


def require(package: str, *, feature: str) -> ModuleType:
    """Import an optional package, or say which group installs it.

    Parameters
    ----------
    package : str
        Import name (``'dask'``, ``'automata.fa.dfa'``, ...); its top level must be in
        :data:`GROUP_OF`.
    feature : str
        What needs it, for the message (``'a local dask cluster'``).

    Returns
    -------
    module

    Raises
    ------
    MissingExtraError
        The package is not installed: the message names the feature, the package and the
        ``pip install`` line of its group alone.
    ValueError
        ``package`` is not one of the optional packages.

    Examples
    --------
    >>> require("distributed", feature="a dask cluster").__name__   # with its group installed
    'distributed'
    """
    if package.split(".")[0] not in GROUP_OF:
        raise ValueError(f"package must be an optional package ({', '.join(GROUP_OF)}), got "
                         f"{package!r}; add it to seprank.extras.GROUP_OF and pyproject.toml")
    module = _import(package)
    if module is None:
        raise MissingExtraError(feature, package)
    return module


def optional(package: str) -> ModuleType | None:
    """An optional package, or None when its group is not installed (for code with a slower
    path of the same results).

    Parameters
    ----------
    package : str
        Import name; its top level must be in :data:`GROUP_OF`.

    Returns
    -------
    module or None

    Examples
    --------
    >>> optional("numba") is None or optional("numba").__name__ == "numba"
    True
    """
    if package.split(".")[0] not in GROUP_OF:
        raise ValueError(f"package must be an optional package ({', '.join(GROUP_OF)}), got "
                         f"{package!r}")
    return _import(package)


def group_installed(group: str) -> bool:
    """Whether every package of a group can be imported.

    Parameters
    ----------
    group : str
        A name in :data:`GROUPS` other than ``'core'``.

    Returns
    -------
    bool

    Examples
    --------
    >>> group_installed("kernels") in (True, False)
    True
    """
    _check_groups([group])
    if group == "core":
        raise ValueError("group must be an optional group (not 'core'), got 'core'")
    return all(_import(p) is not None for p, g in GROUP_OF.items() if g == group)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m seprank.extras GROUP ...``: print the groups' requirement lines, one a line
    (for ``pip install -r /dev/stdin``); ``--list`` prints the groups and what they enable.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        0, or 2 for an unknown or missing group (one line on stderr naming the groups).

    Examples
    --------
    >>> main(["kernels"])
    numba>=0.59
    0
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--list"]:
        for name, reqs in GROUPS.items():
            print(f"{name}: {' '.join(reqs)}\n    {PURPOSE[name]}")
        return 0
    try:
        lines = requirements(*args)
    except ValueError as err:
        print(f"python -m seprank.extras GROUP ... (or --list): {err}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
