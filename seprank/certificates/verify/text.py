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

from .exact import show

__all__ = ["describe_subject", "escape_for_terminal", "escape_markdown"]

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
    if width is not None and (type(width) is not int or width < 4):
        raise ValueError(f"width must be an integer >= 4 or None, got {show(width)}")
    if type(ascii_only) is not bool:
        raise TypeError(f"ascii_only must be True or False, got {show(ascii_only)}")
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


_MARKDOWN_PUNCTUATION = frozenset("\\`*_[]~")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;"}


def escape_markdown(text: str) -> str:
    """Text shown literally in Markdown (a table cell or a bold headline): ``&``, ``<``,
    ``>`` and ``|`` as HTML entities (no raw HTML, no cell break), the characters of inline
    markup (backslash, backtick, ``*``, ``_``, ``[``, ``]``, ``~``) backslash-escaped (no
    links, images, emphasis or code spans from a stranger's text), whitespace runs as one
    space.  (:func:`seprank.core.display.escape_markdown` is the same rule for the engine's
    displays; this package imports only the standard library.)

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
    !\\[x\\](http://t/) &#124; &lt;b&gt;
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


def describe_subject(proves: Any) -> str:
    """What a certificate is about, in one escaped line, from a ``proves`` mapping
    (:attr:`~.checker.Verification.proves`, or the copy an index file states) -- never
    raising, whatever its shape: odd values are shown by :func:`~.exact.show` (a huge integer
    by its size), missing ones as ``?``.

    Parameters
    ----------
    proves : object
        The mapping (``kind``, ``relation``, ``value``, ``subject``); anything else gives
        ``'?'``.

    Returns
    -------
    str
        For example ``'a 3 x 4 matrix (sha256:0123456789)'`` or ``'linear_attention L=1 d_x=2
        H=1 d_a=2 i=0 p=0 n_inputs=2 partition=[[0], [1]] (sha256:0123456789)'``, at most
        300 characters, safe to print (:func:`escape_for_terminal`).

    Examples
    --------
    >>> describe_subject({"subject": {"matrix": {"shape": [3, 4],
    ...                                          "sha256": "sha256:0123456789ab"}}})
    'a 3 x 4 matrix (sha256:0123456789)'
    >>> describe_subject({"subject": {"matrix": {"shape": [1, 2, 3]}}})
    'a matrix of shape [1, 2, 3] (no matrix)'
    >>> describe_subject({"subject": {"function": {"first": 5, "depth": 10**5000}}})[:40]
    '? L=an integer of 16,610 bits (~10^5000)'
    """
    try:
        return escape_for_terminal(_describe(proves), 300)
    except Exception:          # a description never stops a report
        return "?"


def _describe(proves: Any) -> str:
    subject = proves.get("subject") if type(proves) is dict else None
    if type(subject) is not dict:
        return "?"

    def field(where: dict[str, Any], key: str) -> str:
        value = where.get(key, "?")
        return value if type(value) is str and len(value) <= 40 else show(value, 40)

    def digest(value: Any) -> str:
        return value[:17] if type(value) is str else "no matrix" if value is None else show(value)

    matrix = subject.get("matrix")
    if type(matrix) is dict:
        shape = matrix.get("shape")
        sha = digest(matrix.get("sha256"))
        if type(shape) is list and len(shape) == 2 and all(type(v) is int for v in shape):
            return f"a {show(shape[0])} x {show(shape[1])} matrix ({sha})"
        return f"a matrix of shape {show(shape)} ({sha})"
    fn = subject.get("function")
    fn = fn if type(fn) is dict else {}
    words = [field(fn, "type")]
    if "depth" in fn:
        words.append(f"L={field(fn, 'depth')} d_x={field(fn, 'width')} H={field(fn, 'heads')} "
                     f"d_a={field(fn, 'key_dim')}" + (" residual" if fn.get("residual") is True
                                                       else ""))
    if "first" in fn:
        first = fn["first"]
        words.append(f"N={len(first) if type(first) is list else show(first)} "
                     f"V={field(fn, 'vocab')}")
    if "position" in fn:
        words.append(f"i={field(fn, 'position')} p={field(fn, 'coordinate')}")
    words.append(f"n_inputs={field(subject, 'n_inputs')} "
                 f"partition={show(subject.get('partition'), 80)}")
    words.append(f"({digest(fn.get('sha256', ''))})")
    return " ".join(words)
