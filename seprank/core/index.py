r"""What a package's face shows: its public names, and for a paper its index.

Every module lists its public names once, in its ``__all__``; a package's ``__init__`` (its
face) star-imports its modules and sets ``__all__ = reexport(__name__, [...modules...])``
(the networkx ``algorithms/isomorphism`` style), so a name is written in one place.  Type
checkers do not evaluate a computed ``__all__``: faces set it under ``if not TYPE_CHECKING``,
so mypy reads the star imports themselves.

A paper subpackage (``seprank.d2w``, ``identifiability.masked``, ...) also defines one
:class:`PaperIndex` named ``INDEX`` in its face -- the paper, its notation, and each statement
with the function object that implements it -- and appends :meth:`PaperIndex.render` to its
docstring, so the same table is read by people (``help(seprank.d2w)``, the API reference).

The paper's symbols are written once, in TeX (``r"y_p^{i,L,d_x,H,\Theta}"``), and checked when
the index is built (:func:`seprank.core.tex.check_tex`).  ``help()`` shows them as plain text
(``y_p^{i,L,d_x,H,Θ}``: Unicode for the macros, TeX's ``_``/``^`` for scripts) in a literal block,
so a terminal shows every character as written; the documentation site replaces that block by
``render(math=True)``, a table whose paper column is ``:math:`` that MathJax typesets.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from seprank.core.tex import check_tex, tex_to_text

__all__ = ["PaperIndex", "reexport"]

#: Characters that start or end inline markup: ``\\``, a backtick (roles, literals, links),
#: ``*`` (emphasis), ``|`` (substitutions), and ``_`` not followed by a letter or digit
#: (``word_`` and ``[1]_`` are references; ``x_1`` and ``E_pi`` are plain text).
_INLINE_MARKUP = re.compile(r"[\\`*|]|_(?![A-Za-z0-9])")
#: A cell that could start a block (bullet, enumerator, field or option list, doctest, comment,
#: transition, line block, ...): any ASCII punctuation or bullet first, or an enumerator.
_BLOCK_START = re.compile(r"[!-/:-@\[-`{-~\u2022\u2023\u2043]"
                          r"|\(?(?:\d+|#|[A-Za-z]|[ivxlcdmIVXLCDM]+)[.)](?:\s|$)")


def _rst_text(cell: str) -> str:
    """``cell`` as reStructuredText that displays exactly ``cell`` (no markup, no list)."""
    text = _INLINE_MARKUP.sub(lambda m: "\\" + m.group(), cell)
    if _BLOCK_START.match(text) and not re.match(r"\\[`*|_]", text):
        text = "\\ " + text          # an escaped space renders as nothing
    if text.endswith("::"):           # a paragraph ending in "::" announces a literal block
        text = text[:-2] + "\\::"
    return text


def reexport(package: str, modules: Sequence[str], *, extra: Sequence[str] = ()) -> list[str]:
    """A face's ``__all__``: the ``__all__`` of each of its ``modules`` (already imported), in
    order, each name once, then ``extra`` (names the face defines itself, e.g. ``INDEX``).

    Two modules exporting the same name for different objects is an error (the face would show
    one of them silently).

    Parameters
    ----------
    package : str
        The face's module name (for messages).
    modules : sequence of str
        The modules re-exported, in order.
    extra : sequence of str, keyword-only
        Names the face defines itself.

    Returns
    -------
    list of str
        The face's ``__all__``.

    Examples
    --------
    >>> import seprank.core.memory, seprank.core.random
    >>> names = reexport("seprank.core", ["memory", "random"])
    >>> names[:2], "random_prime" in names
    (['DEFAULT_MEMORY_LIMIT', 'OBJECT_ENTRY_BYTES'], True)
    """
    names: dict[str, object] = {}
    for short in modules:
        module = sys.modules[f"{package}.{short}"]
        for name in module.__all__:
            obj = getattr(module, name)
            if name in names and names[name] is not obj:
                raise ImportError(f"{package}: two modules export different objects named "
                                  f"{name!r}; rename one")
            names[name] = obj
    return [*names, *(n for n in extra if n not in names)]


def _qualified(obj: Any) -> str:
    """``module.qualname`` of a function, class, method or property."""
    target = obj.fget if isinstance(obj, property) else obj
    module, qualname = getattr(target, "__module__", None), getattr(target, "__qualname__", None)
    if not module or not qualname:
        raise TypeError(f"PaperIndex.statements: {obj!r} is not a function, class, method or "
                        "property (it has no module and qualified name)")
    return f"{module}.{qualname}"


def _check_rows(field: str, rows: object) -> None:
    if not isinstance(rows, tuple) or not all(
            isinstance(r, tuple) and len(r) == 2 and all(isinstance(c, str) for c in r)
            for r in rows):
        raise TypeError(f"PaperIndex.{field} must be a tuple of (str, str) pairs")
    _check_cells(field, rows)


def _check_cells(field: str, rows: tuple[tuple[str, ...], ...]) -> None:
    for row in rows:
        for cell in row:
            if (not cell.strip() or "\n" in cell or cell != cell.strip()
                    or unicodedata.combining(cell[0])):
                raise ValueError(f"PaperIndex.{field}: every cell is one non-empty line without "
                                 "surrounding spaces, not starting with a combining character (a "
                                 f"table cell), got {cell!r} in {row!r}")


def _width(text: str) -> int:
    """Columns ``text`` takes in a table, as docutils counts them (wide East Asian characters
    take two, combining characters none)."""
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _table(header: tuple[str, str], rows: tuple[tuple[str, str], ...]) -> str:
    w0 = max(_width(header[0]), *(_width(a) for a, _ in rows))
    w1 = max(_width(header[1]), *(_width(b) for _, b in rows))
    rule = f"{'=' * w0}  {'=' * w1}"
    lines = [rule, f"{header[0]:<{w0}}  {header[1]}", rule]
    lines += [f"{a}{' ' * (w0 - _width(a))}  {b}" for a, b in rows]
    return "\n".join([*lines, rule])


def _literal_table(header: tuple[str, str], rows: tuple[tuple[str, str], ...]) -> str:
    """Two aligned columns as the indented lines of a literal block (shown as written)."""
    w0 = max(_width(header[0]), *(_width(a) for a, _ in rows))
    w1 = max(_width(header[1]), *(_width(b) for _, b in rows))
    lines = [header, ("-" * w0, "-" * w1), *rows]
    return "\n".join(f"    {a}{' ' * (w0 - _width(a))}  {b}".rstrip() for a, b in lines)


@dataclass(frozen=True)
class PaperIndex:
    """Which paper a subpackage implements, in whose notation, and where each statement is.

    Attributes
    ----------
    key : str
        Short key of the document (``"003"``; ``"004 §2.2"`` for a thesis section).
    claims : str
        Prefix of the claim ids that check it in :mod:`paper_checks` (``"D2W"``).
    citation : str
        Authors, title, venue and year.
    notes : str
        The reading notes in the repository that docstrings cite as "notes §..."
        (``docs/notes/...``), or ``""``.
    notation : tuple of (str, str)
        Paper symbol, in TeX as the paper prints it (without ``$``; words inside ``\\text{}``)
        -> argument name or meaning in this code.
    statements : tuple of (str, callable)
        Statement as printed ("Theorem 1 (eq. 7), lower bound") -> the function, class, method
        or property that implements it (the object itself, so a renamed function cannot leave
        a stale entry).
    """

    key: str
    claims: str
    citation: str
    notes: str
    notation: tuple[tuple[str, str], ...]
    statements: tuple[tuple[str, Callable[..., Any] | property], ...]

    def __post_init__(self) -> None:
        _check_rows("notation", self.notation)
        for number, (symbol, code) in enumerate(self.notation, start=1):
            try:
                check_tex(symbol)
            except ValueError as error:
                raise ValueError(f"PaperIndex.notation, row {number} ({symbol!r} -> {code!r}): "
                                 f"the paper symbol must be TeX that MathJax and help() can "
                                 f"show; {error}") from None
        if not isinstance(self.statements, tuple) or not all(
                isinstance(r, tuple) and len(r) == 2 and isinstance(r[0], str)
                for r in self.statements):
            raise TypeError("PaperIndex.statements must be a tuple of (str, function) pairs")
        _check_cells("statements", tuple((s,) for s, _ in self.statements))
        for _, obj in self.statements:
            _qualified(obj)

    def render(self, *, math: bool = False) -> str:
        r"""The index as reStructuredText: the docstring's (``help()``), or the site's.

        ``render()`` is appended to the subpackage's docstring: the notation is a literal
        block, each paper symbol read as plain text (:func:`~seprank.core.tex.tex_to_text`),
        so a terminal shows it exactly.  ``render(math=True)`` is what the documentation site
        shows in its place: a table whose paper column is ``:math:`` (TeX for MathJax).
        Code and statement cells are shown as written: characters that reStructuredText would
        read as markup (``|x|``, a backtick, ``*``, ``word_``, a leading ``-``) are
        backslash-escaped, so no index can break the documentation build.

        Parameters
        ----------
        math : bool, keyword-only
            The site's form (``:math:`` cells) instead of the docstring's.

        Returns
        -------
        str
            The reStructuredText.

        Examples
        --------
        >>> index = PaperIndex(key="003", claims="D2W", citation="Levine et al. 2020", notes="",
        ...                    notation=((r"\Theta", "weights"), (r"\binom{n}{k}", "|S| = k")),
        ...                    statements=(("Theorem 1", reexport),))
        >>> for line in index.render().splitlines()[4:11]:
        ...     print(line)
        The paper's symbols (typeset on the documentation site) and their names here::
        <BLANKLINE>
            paper        code
            -----------  -------
            Θ            weights
            binom(n, k)  |S| = k
        <BLANKLINE>
        >>> for line in index.render(math=True).splitlines()[5:10]:
        ...     print(line)
        ====================  =========
        paper                 code
        ====================  =========
        :math:`\Theta`        weights
        :math:`\binom{n}{k}`  \|S\| = k
        """
        key, citation = (_INLINE_MARKUP.sub(lambda m: "\\" + m.group(), s)
                         for s in (self.key, self.citation))
        parts = [f"Paper: {key} -- {citation}.  Claims: ``{self.claims}-*``."]
        if self.notes:
            parts.append(f"Reading notes: ``{self.notes}`` (cited as \"notes §...\").")
        parts += ["", "Notation", "--------", ""]
        if math:
            parts += [_table(("paper", "code"),
                             tuple((f":math:`{symbol}`", _rst_text(code))
                                   for symbol, code in self.notation)), ""]
        else:
            parts += ["The paper's symbols (typeset on the documentation site) and their "
                      "names here::", "",
                      _literal_table(("paper", "code"),
                                     tuple((tex_to_text(symbol), code)
                                           for symbol, code in self.notation)), ""]
        parts += ["Statement -> function", "---------------------", "",
                  _table(("statement", "function"),
                         tuple((_rst_text(s), f":obj:`~{_qualified(f)}`")
                               for s, f in self.statements)), ""]
        return "\n".join(parts)
