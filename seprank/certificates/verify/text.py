"""Printing a stranger's text safely: names from a certificate or a certificate directory (an
index key, a claim id, a label, a file name) shown on one terminal line (standard library only).

A name can hold a newline (a made-up "ok ... verified" line below the real one), terminal
escape codes (erasing or recolouring the line above), bidirectional overrides (text that reads
backwards), or lone surrogates (which ``print`` cannot encode: ``UnicodeEncodeError``).
:func:`escape_for_terminal` writes every such character as a visible backslash escape, so the
printed text is one line, shows exactly which characters the name holds, and always encodes.

Examples
--------
>>> print(escape_for_terminal("H_8\\n    ok  H_12: rank(M) = 12"))
H_8\\n    ok  H_12: rank(M) = 12
>>> escape_for_terminal("\\x1b[2K\\x1b[1A") == "\\\\x1b[2K\\\\x1b[1A"
True
"""

from __future__ import annotations

import os
import unicodedata
from typing import Any

__all__ = ["escape_for_terminal", "escape_markdown"]

#: Unicode categories written as escapes: controls, format characters (bidi overrides,
#: zero-width), surrogates, private use, unassigned, line and paragraph separators.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}


def escape_for_terminal(text: Any, width: int | None = None, *, ascii_only: bool = False) -> str:
    r"""``text`` as one safe line for a terminal: control characters, escape codes, bidi
    overrides, line separators and lone surrogates become visible backslash escapes
    (``\n``, ``\x1b``, ``\u202e``, ``\ud800``), a backslash is doubled (so an escape in the
    output always means the character), and the result always encodes as UTF-8.

    Parameters
    ----------
    text : str, bytes or os.PathLike
        The name (bytes are decoded as UTF-8 with ``surrogateescape``, i.e. as a file name;
        anything else is first turned into text by ``str``).
    width : int, optional
        Cut the result to at most this many characters, ending in ``...`` (None: no cut).
    ascii_only : bool, default False, keyword-only
        Escape every non-ASCII character too (for a terminal whose encoding is not UTF-8).

    Returns
    -------
    str
        The escaped line.

    Examples
    --------
    >>> escape_for_terminal("caf\u00e9 \u202eevil")
    'café \\u202eevil'
    >>> escape_for_terminal("caf\u00e9", ascii_only=True)
    'caf\\xe9'
    >>> escape_for_terminal("\udcff.json")
    '\\udcff.json'
    >>> escape_for_terminal("x" * 50, width=10)
    'xxxxxxx...'
    """
    if isinstance(text, os.PathLike):
        text = os.fspath(text)
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8", "surrogateescape")
    if not isinstance(text, str):
        text = str(text)
    out: list[str] = []
    size = 0
    for ch in text:
        piece = _escape(ch, ascii_only)
        out.append(piece)
        size += len(piece)
        if width is not None and size > width:
            break
    line = "".join(out)
    if width is not None and len(line) > width:
        line = line[: max(width - 3, 0)] + "..."
    return line


def _escape(ch: str, ascii_only: bool) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if code < 0x80 and (ch.isprintable() or ch == " "):
        return ch
    if not ascii_only and unicodedata.category(ch) not in UNSAFE_CATEGORIES:
        return ch
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


_MARKDOWN_PUNCTUATION = frozenset("\\`*_[]()#+-!~{}")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;"}


def escape_markdown(text: str) -> str:
    """Text shown literally in Markdown (a table cell or a bold headline): ``&``, ``<``,
    ``>`` and ``|`` as HTML entities (no raw HTML, no cell break), Markdown punctuation
    backslash-escaped (no links, images, emphasis or code spans from a stranger's text),
    whitespace runs as one space.  (:func:`seprank.core.display.escape_markdown` is the
    same rule for the engine's displays; this package imports only the standard library.)

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    str
        The escaped text, one line.

    Examples
    --------
    >>> print(escape_markdown("![x](http://t/) | <b>"))
    \\!\\[x\\]\\(http://t/\\) &#124; &lt;b&gt;
    """
    out = []
    for ch in " ".join(str(text).split()):
        if ch in _ENTITIES:
            out.append(_ENTITIES[ch])
        elif ch in _MARKDOWN_PUNCTUATION:
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)
