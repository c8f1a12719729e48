"""The index every paper subpackage carries: the paper, its notation, statement -> function.

A paper subpackage (``seprank.d2w``, ``identifiability.masked``, ...) defines one
:class:`PaperIndex` named ``INDEX`` in its ``__init__`` and appends :meth:`PaperIndex.render` to
its docstring, so the same table is read by people (``help(seprank.d2w)``, the API reference)
and by the test that checks every function it names exists.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from types import ModuleType

__all__ = ["PaperIndex"]

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


def _check_rows(field: str, rows: object) -> None:
    if not isinstance(rows, tuple) or not all(
            isinstance(r, tuple) and len(r) == 2 and all(isinstance(c, str) for c in r)
            for r in rows):
        raise TypeError(f"PaperIndex.{field} must be a tuple of (str, str) pairs")
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
        Paper symbol -> argument name or meaning in this code.
    statements : tuple of (str, str)
        Statement as printed ("Theorem 1 (eq. 7), lower bound") -> public name in the subpackage.
    """

    key: str
    claims: str
    citation: str
    notes: str
    notation: tuple[tuple[str, str], ...]
    statements: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        _check_rows("notation", self.notation)
        _check_rows("statements", self.statements)

    def render(self) -> str:
        r"""The index as reStructuredText (appended to the subpackage docstring).

        Notation and statement cells are shown as written: characters that reStructuredText
        would read as markup (``|x|``, a backtick, ``*``, ``word_``, a leading ``-``) are
        backslash-escaped, so no index can break the documentation build.

        Examples
        --------
        >>> index = PaperIndex(key="003", claims="D2W", citation="Levine et al. 2020", notes="",
        ...                    notation=(("|S|", "len(support)"), ("- w_", "-weights")),
        ...                    statements=(("Theorem 1", "theorem1"),))
        >>> for line in index.render().splitlines()[5:10]:
        ...     print(line)
        =======  ============
        paper    code
        =======  ============
        \|S\|    len(support)
        \ - w\_  \ -weights
        """
        key, citation = (_INLINE_MARKUP.sub(lambda m: "\\" + m.group(), s)
                         for s in (self.key, self.citation))
        parts = [f"Paper: {key} -- {citation}.  Claims: ``{self.claims}-*``."]
        if self.notes:
            parts.append(f"Reading notes: ``{self.notes}`` (cited as \"notes §...\").")
        parts += ["", "Notation", "--------", "",
                  _table(("paper", "code"),
                         tuple((_rst_text(a), _rst_text(b)) for a, b in self.notation)), "",
                  "Statement -> function", "---------------------", "",
                  _table(("statement", "function"),
                         tuple((_rst_text(s), f":obj:`{f}`") for s, f in self.statements)), ""]
        return "\n".join(parts)

    def missing(self, package: ModuleType) -> list[str]:
        """Names in :attr:`statements` (dotted for methods) that ``package`` does not define."""
        absent = []
        for _, name in self.statements:
            obj: object = package
            for part in name.split("."):
                if not hasattr(obj, part):
                    absent.append(name)
                    break
                obj = getattr(obj, part)
        return absent
