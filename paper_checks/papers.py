"""Papers: who registered which document, and how installed papers are found.

A :class:`Paper` names the document whose printed statements the claims check (key, title,
authors, year, venue or identifier, optionally the path of its source text for quoting and line
references).  Papers are *registered*, never listed: by :func:`register_paper` (a notebook, a
test module) or by an installed package's entry point in the group ``paper_checks.papers``::

    # pyproject.toml of a claims package
    [project.entry-points."paper_checks.papers"]
    kruskal77 = "kruskal_claims.claims"     # importing it registers the paper and its claims

:func:`load_papers` imports every entry point of the group (:func:`importlib.metadata.entry_points`
-- there is no other plugin loader); the five papers this toolkit checks and its foundation
checks register through the same door (``paper_checks.claims.*`` in this package's
``pyproject.toml``).  An entry point that raises on import is recorded by name
(:func:`plugin_failures`), whatever it registered before raising is taken back, and the other
papers still load; ``paper-checks`` and the pytest plugin report it and exit non-zero.

Keys and namespacing
--------------------
A key is one word (letters, digits, ``.``, ``_``, ``-``; e.g. ``"kruskal77"``) and belongs to the
module that registered it first.  The same key registered again from another module -- another
package's entry point, a notebook cell after an installed package took it -- is refused, and the
error names *both* origins (module and, for entry points, the distribution); so is a claim id
(:func:`paper_checks.registry.claim`).  Two packages therefore cannot silently share a key: the
second fails loudly at load time, is reported as a failed plugin, and the first keeps its
claims.  By convention an entry point's name is the key of the paper it registers
(``KEY`` or ``KEY.part`` when one paper's claims live in several modules): a claim of an
unregistered key first loads the entry points of that name, so a test module can use an
installed paper without loading every other paper.

Examples
--------
>>> from paper_checks.papers import Paper, register_paper, registered_papers, unregister_paper
>>> p = register_paper(Paper(key="sylvester1884", title="Sylvester's law of nullity",
...                          authors=("J. J. Sylvester",), year=1884,
...                          identifier="Johns Hopkins University Circulars 3"))
>>> registered_papers()["sylvester1884"].year
1884
>>> register_paper(Paper(key="sylvester1884", title="other", authors=("X",), year=2000,
...                      identifier="x"))
Traceback (most recent call last):
...
ValueError: paper key 'sylvester1884' is already registered by module ... refused from module ...
>>> unregister_paper("sylvester1884")
"""

from __future__ import annotations

import re
import sys
import traceback
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

__all__ = [
    "ENTRY_POINT_GROUP",
    "Paper",
    "PluginFailure",
    "entry_point_keys",
    "load_papers",
    "paper_origin",
    "plugin_failures",
    "register_paper",
    "registered_papers",
    "unregister_paper",
]

#: The entry point group a claims package declares its paper modules in.
ENTRY_POINT_GROUP = "paper_checks.papers"
_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


@dataclass(frozen=True)
class Paper:
    """A document whose printed statements claims check.

    Parameters
    ----------
    key : str
        Short unique key the claims name (``claim(paper=key)``): one word of letters, digits,
        ``.``, ``_``, ``-`` (at most 64 characters), e.g. ``"kruskal77"``.
    title : str
        The document's title.
    authors : sequence of str
        Its authors (at least one; a single string is one author).
    year : int
        Year of the version checked.
    identifier : str
        Venue, DOI, arXiv id or report number: what lets a reader find *this* version.
    source : str or Path, optional
        A plain-text copy of the document (for quoting and line references,
        :meth:`line` / :meth:`find`); must exist when given.
    stem : str, optional
        The source document's file name without extension (default: ``key``); ``--paper``
        matches it as well as the key and title words.

    Raises
    ------
    ValueError, TypeError
        A missing or malformed field, named, with the fix.
    """

    key: str
    title: str
    authors: tuple[str, ...]
    year: int
    identifier: str
    source: str | None = None
    stem: str = field(default="")

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not _KEY.match(self.key):
            raise ValueError(f"Paper.key must be one word of letters, digits, '.', '_', '-' "
                             f"(at most 64 characters), got {self.key!r}")
        for name in ("title", "identifier"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"Paper {self.key!r}: {name} is missing (a non-empty string; "
                                 f"identifier = venue, DOI or arXiv id of the version checked)")
        authors = (self.authors,) if isinstance(self.authors, str) else self.authors
        if (not isinstance(authors, Sequence) or not authors
                or not all(isinstance(a, str) and a.strip() for a in authors)):
            raise ValueError(f"Paper {self.key!r}: authors is missing (a non-empty sequence of "
                             f"names), got {self.authors!r}")
        object.__setattr__(self, "authors", tuple(a.strip() for a in authors))
        if type(self.year) is not int or not 1000 <= self.year <= 9999:
            raise ValueError(f"Paper {self.key!r}: year must be a four-digit int, got "
                             f"{self.year!r}")
        if self.source is not None:
            path = Path(self.source)
            if not path.is_file():
                raise ValueError(f"Paper {self.key!r}: source {str(path)!r} is not a readable "
                                 "file (give the path of the document's text, or leave it out)")
            object.__setattr__(self, "source", str(path.resolve()))
        if not isinstance(self.stem, str):
            raise TypeError(f"Paper {self.key!r}: stem must be a str, got {self.stem!r}")
        if not self.stem:
            object.__setattr__(self, "stem", self.key)

    def _lines(self) -> list[str]:
        if self.source is None:
            raise ValueError(f"paper {self.key!r} registers no source text (Paper(source=...))")
        return Path(self.source).read_text(encoding="utf-8", errors="replace").splitlines()

    def line(self, number: int) -> str:
        """Line ``number`` (1-based) of the source text.

        Parameters
        ----------
        number : int
            1-based line number.

        Returns
        -------
        str
            The line, without its newline.
        """
        lines = self._lines()
        if type(number) is not int or not 1 <= number <= len(lines):
            raise ValueError(f"paper {self.key!r}: line must be an int in 1..{len(lines)}, got "
                             f"{number!r}")
        return lines[number - 1]

    def find(self, text: str) -> list[int]:
        """The 1-based numbers of the source lines containing ``text`` (whitespace-normalized).

        Parameters
        ----------
        text : str
            What to look for, e.g. a formula as printed.

        Returns
        -------
        list of int
            Line numbers, in order (empty when the text is not there).
        """
        needle = " ".join(text.split())
        return [i for i, line in enumerate(self._lines(), 1) if needle in " ".join(line.split())]

    def citation(self) -> str:
        """One line: authors, year, title, identifier.

        Returns
        -------
        str
        """
        who = self.authors[0] + (" et al." if len(self.authors) > 2 else
                                 f" and {self.authors[1]}" if len(self.authors) == 2 else "")
        return f"{who} ({self.year}). {self.title}. {self.identifier}"


@dataclass(frozen=True)
class PluginFailure:
    """An entry point of :data:`ENTRY_POINT_GROUP` that raised on import (skipped).

    Attributes
    ----------
    name : str
        The entry point's name.
    value : str
        The module it names.
    distribution : str
        The installed distribution that declares it.
    error : str
        ``Type: message`` of what it raised.
    traceback : str
        The traceback.
    """

    name: str
    value: str
    distribution: str
    error: str
    traceback: str = field(repr=False, default="")

    def summary(self) -> str:
        """One line: which plugin, from where, what it raised.

        Returns
        -------
        str
        """
        return (f"paper plugin {self.name!r} ({self.value}, distribution {self.distribution}) "
                f"failed to import and was skipped: {self.error}")


_PAPERS: dict[str, Paper] = {}
#: The claim registry's table (claim id -> claim), the same dict object
#: :mod:`paper_checks.registry` fills: this module reads it (a paper with claims is not
#: unregistered; a failing plugin's claims are taken back) without importing the registry.
CLAIMS: dict[str, Any] = {}
_ORIGINS: dict[str, str] = {}
_FAILURES: dict[str, PluginFailure] = {}
_LOADED: set[tuple[str, str]] = set()
_LOADING: list[str] = []          # the entry point being imported (its origin text)
#: A read-only live view of the registered papers, key -> :class:`Paper` (what is registered
#: *now*: :func:`load_papers` first to see every installed paper).
REGISTERED: Mapping[str, Paper] = MappingProxyType(_PAPERS)


def _caller_module(depth: int) -> str:
    try:
        return str(sys._getframe(depth).f_globals.get("__name__", "?"))
    except ValueError:  # pragma: no cover - shallow stack
        return "?"


def current_origin(module: str) -> str:
    """How an origin is named in refusals: the module, and the entry point being loaded.

    Parameters
    ----------
    module : str
        The registering module.

    Returns
    -------
    str
    """
    where = f"module {module}"
    return f"{where} ({_LOADING[-1]})" if _LOADING else where


def register_paper(paper: Paper | None = None, /, **fields: Any) -> Paper:
    """Register a paper so that claims can name it (``claim(paper=key)``).

    Parameters
    ----------
    paper : Paper, optional
        The record; or give its fields as keywords (``key=..., title=..., authors=...,
        year=..., identifier=..., source=...``).
    **fields
        The :class:`Paper` fields when ``paper`` is not given.

    Returns
    -------
    Paper
        The registered record.

    Raises
    ------
    ValueError
        A missing field (named), or a key already registered by another module (both origins
        named).  Registering an equal record again from the same module is a no-op (a module
        imported twice).

    Examples
    --------
    >>> p = register_paper(key="eckart1936", title="The approximation of one matrix by another "
    ...                    "of lower rank", authors=["C. Eckart", "G. Young"], year=1936,
    ...                    identifier="Psychometrika 1(3)")
    >>> p.citation()[:44]
    'C. Eckart and G. Young (1936). The approxima'
    >>> register_paper(key="eckart1936", title="", authors=["X"], year=1936, identifier="x")
    Traceback (most recent call last):
    ...
    ValueError: Paper 'eckart1936': title is missing ...
    >>> unregister_paper("eckart1936")
    """
    if paper is None:
        paper = Paper(**fields)
    elif fields:
        raise TypeError("register_paper takes a Paper or its fields as keywords, not both")
    if not isinstance(paper, Paper):
        raise TypeError(f"register_paper takes a Paper, got {type(paper).__name__}")
    module = _caller_module(2)
    origin = current_origin(module)
    old = _PAPERS.get(paper.key)
    if old is not None:
        if old == paper and _ORIGINS[paper.key].startswith(f"module {module}"):
            return old
        raise ValueError(f"paper key {paper.key!r} is already registered by "
                         f"{_ORIGINS[paper.key]}; refused from {origin}: paper keys are "
                         "unique across installed packages (choose another key)")
    _PAPERS[paper.key] = paper
    _ORIGINS[paper.key] = origin
    return paper


def unregister_paper(key: str) -> None:
    """Remove a paper registered by :func:`register_paper` (a notebook re-run; tests).

    Parameters
    ----------
    key : str
        The paper's key; its claims must have been removed first.

    Returns
    -------
    None

    Examples
    --------
    >>> _ = register_paper(key="tmp-paper", title="T", authors=["A"], year=2000, identifier="x")
    >>> unregister_paper("tmp-paper"); "tmp-paper" in registered_papers()
    False
    """
    users = [c.id for c in CLAIMS.values() if getattr(c, "paper", None) == key]
    if users:
        raise ValueError(f"paper {key!r} still has registered claims: {users[:5]}")
    _PAPERS.pop(key, None)
    _ORIGINS.pop(key, None)


def registered_papers() -> Mapping[str, Paper]:
    """The registered papers (without loading the installed ones).

    Returns
    -------
    Mapping
        A read-only view, key -> :class:`Paper`.

    Examples
    --------
    >>> import paper_checks.claims  # the built-in papers register on import
    >>> registered_papers()["003"].year
    2020
    """
    return REGISTERED


def paper_origin(key: str) -> str:
    """Who registered paper ``key`` (module, and entry point and distribution if any).

    Parameters
    ----------
    key : str

    Returns
    -------
    str

    Examples
    --------
    >>> import paper_checks.claims
    >>> paper_origin("003").startswith("module paper_checks.claims")
    True
    """
    return _ORIGINS[key]


def plugin_failures() -> list[PluginFailure]:
    """The entry points that raised on import (each skipped), in load order.

    Returns
    -------
    list of PluginFailure

    Examples
    --------
    >>> [f.name for f in plugin_failures()]   # none of the installed plugins raised
    []
    """
    return list(_FAILURES.values())


def entry_point_keys() -> set[str]:
    """The paper keys the installed entry points are named after (``KEY`` of ``KEY.part``),
    without importing them.

    Returns
    -------
    set of str

    Examples
    --------
    >>> {"003", "004", "foundation"} <= entry_point_keys()
    True
    """
    return {ep.name.split(".", 1)[0] for ep in _entry_points()}


def _entry_points() -> list[Any]:
    from importlib.metadata import entry_points

    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: (ep.value, ep.name))


@contextmanager
def _taken_back_on_error() -> Iterator[None]:
    """Remove what a failing import registered (papers and claims), so nothing half-loaded
    stays."""
    papers, claims = dict(_PAPERS), dict(CLAIMS)
    try:
        yield
    except BaseException:
        for key in set(_PAPERS) - set(papers):
            _PAPERS.pop(key)
            _ORIGINS.pop(key, None)
        for cid in set(CLAIMS) - set(claims):
            CLAIMS.pop(cid)
        raise


def load_papers(keys: Iterable[str] | None = None) -> list[PluginFailure]:
    """Import the entry points of :data:`ENTRY_POINT_GROUP` (each once per process).

    Parameters
    ----------
    keys : iterable of str, optional
        Only the entry points named ``KEY`` or ``KEY.<part>`` for these keys (default: all).

    Returns
    -------
    list of PluginFailure
        Every failure so far (:func:`plugin_failures`); the failing plugins are skipped and
        the others loaded.

    Raises
    ------
    RuntimeError
        When the group holds none of this toolkit's own papers: the installed metadata is
        older than the code (an editable install made before the entry points existed);
        ``pip install -e .`` again.

    Examples
    --------
    >>> load_papers(["foundation"])     # the entry point named after the key; no failure
    []
    >>> "foundation" in registered_papers()
    True
    """
    eps = _entry_points()
    if keys is None and not any(ep.value.startswith("paper_checks.claims") for ep in eps):
        raise RuntimeError(
            "paper_checks: no entry point of the group 'paper_checks.papers' registers this "
            "toolkit's own papers -- the installed metadata of seprank-identifiability is older "
            "than its code; reinstall it (pip install -e . in the checkout)")
    wanted = None if keys is None else set(keys)
    for ep in eps:
        if wanted is not None and ep.name.split(".", 1)[0] not in wanted \
                and ep.name not in wanted:
            continue
        ident = (ep.name, ep.value)
        if ident in _LOADED:
            continue
        _LOADED.add(ident)
        dist = getattr(getattr(ep, "dist", None), "name", None) or "?"
        _LOADING.append(f"entry point {ep.name!r} of distribution {dist}")
        try:
            with _taken_back_on_error():
                ep.load()
        except (Exception, SystemExit) as err:
            _FAILURES[ep.name] = PluginFailure(
                ep.name, ep.value, dist, f"{type(err).__name__}: {err}",
                "".join(traceback.format_exception(err)))
        finally:
            _LOADING.pop()
    return plugin_failures()
