"""How results and models show themselves: short reprs and Jupyter's rich display.

Arrays are summarised (shape, dtype, a few entries), huge exact numbers are shown by size and
a float view, long texts are cut -- so no display dumps a whole array or a 300-digit
fraction.  :class:`RichDisplay` gives a class ``_repr_markdown_`` and ``_repr_html_`` from two
hooks: a headline (``summary()``) and the fields to tabulate (``_display_fields()``).

Examples
--------
>>> import numpy as np
>>> summarize(np.arange(100.0).reshape(10, 10))
'array(10x10 float64: [0. 1. 2. 3. 4. 5. …])'
>>> summarize(np.eye(2))
'[[1. 0.] [0. 1.]]'
"""

from __future__ import annotations

import html
import math
import numbers
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .validation import check_int

__all__ = ["MAX_CELL", "MAX_DISPLAY", "MAX_MAIN_FIELDS", "RichDisplay", "escape_markdown",
           "html_result", "html_table", "markdown_result", "markdown_table", "summarize"]

#: Longest cell of a display table (characters).
MAX_CELL = 120
#: Most rows of a display table; the rest are counted.
MAX_ROWS = 24
#: A rich display never exceeds this many characters.
MAX_DISPLAY = 8000
#: Fields shown open under a result's headline; the rest sit in a collapsed section.
MAX_MAIN_FIELDS = 6
_ARRAY_ITEMS = 6
_SMALL_ARRAY = 9


def _cut(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def summarize(value: Any, width: int = MAX_CELL) -> str:
    """One short line for any value: small arrays in full, larger ones by shape, dtype and the
    first entries; big exact integers and fractions by size and a float view; containers by
    length; long text cut with an ellipsis.

    Parameters
    ----------
    value : Any
        What to show: an array, a number, a string, a container, or an object with a
        ``summary()`` method (anything else shows its ``repr``).
    width : int, default MAX_CELL
        The most characters of the line (longer text ends in an ellipsis).

    Returns
    -------
    str
        One line of at most ``width`` characters (a big integer's size line aside).

    Examples
    --------
    >>> from fractions import Fraction
    >>> summarize(Fraction(3**400, 2**700))
    'Fraction ≈ 1.34e-20 (191-digit numerator / 211-digit denominator)'
    >>> summarize(list(range(100)), width=30)
    '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9…'
    """
    width = check_int("width", width, minimum=1)
    if isinstance(value, np.ndarray):
        if value.size <= _SMALL_ARRAY and value.dtype != object:
            return _cut(np.array2string(value, precision=4, separator=" "), width)
        head = np.array2string(value.ravel()[:_ARRAY_ITEMS], precision=4,
                               separator=" ").rstrip("]")
        shape = "x".join(map(str, value.shape))
        return _cut(f"array({shape} {value.dtype}: {head} …])", width)
    if isinstance(value, Fraction) and value.denominator != 1:
        n, d = len(str(abs(value.numerator))), len(str(value.denominator))
        if n + d > 24:
            return _cut(f"Fraction ≈ {_float_view(value)} ({n}-digit numerator / "
                        f"{d}-digit denominator)", width)
        return str(value)
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        digits = len(str(abs(int(value))))
        if digits > 24:
            return f"≈ {_float_view(value)} ({digits}-digit integer)"
        return str(int(value))
    if isinstance(value, float | np.floating):
        return f"{float(value):.6g}"
    if isinstance(value, str):
        return _cut(value, width)
    if isinstance(value, tuple | list) and any(isinstance(v, np.ndarray) for v in value):
        each = max(width // max(len(value), 1) - 2, 12)
        inner = ", ".join(summarize(v, each) for v in value[:8])
        return _cut(f"({inner}{', …' if len(value) > 8 else ''})", width)
    if isinstance(value, Mapping) and len(value) > 8:
        return _cut(f"{{{len(value)} entries: {', '.join(map(str, list(value)[:6]))}, …}}",
                    width)
    if hasattr(value, "summary") and callable(value.summary) and not isinstance(value, type):
        try:
            return _cut(f"{type(value).__name__}: {value.summary()}", width)
        except Exception:
            pass
    return _cut(repr(value), width)


def _float_view(x: numbers.Rational) -> str:
    try:
        return f"{float(x):.3g}"
    except OverflowError:
        sign = "-" if x < 0 else ""
        num, den = abs(int(x.numerator)), int(x.denominator)
        log10 = (math.log10(num) if num else -math.inf) - math.log10(den)
        return f"{sign}10^{log10:.2f}"


def _check_table(title: Any, rows: Any, header: Any) -> None:
    """Refuse table arguments of the wrong shape by name (before anything is formatted)."""
    if not isinstance(title, str):
        raise TypeError(f"title must be a str, got {type(title).__name__}")
    if not isinstance(rows, Mapping) and not (
            isinstance(rows, list) and all(isinstance(r, tuple) and len(r) == 2 for r in rows)):
        raise TypeError(f"rows must be a mapping or a list of (name, value) pairs, got "
                        f"{type(rows).__name__}")
    if not (isinstance(header, tuple) and len(header) == 2
            and all(isinstance(h, str) for h in header)):
        raise TypeError(f"header must be a tuple of two str, got {header!r}")


def _rows(rows: Mapping[str, Any] | list[tuple[str, Any]]) -> tuple[list[tuple[str, str]], int]:
    items = list(rows.items()) if isinstance(rows, Mapping) else list(rows)
    shown = [(str(k), summarize(v)) for k, v in items[:MAX_ROWS]]
    return shown, len(items) - len(shown)


#: Characters a Markdown renderer may read as markup: backslash-escaped in a cell.
_MARKDOWN_PUNCTUATION = frozenset("\\`*_[]~")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;"}


def escape_markdown(text: str) -> str:
    """Text shown literally in a Markdown table cell: ``&``, ``<``, ``>`` and ``|`` as HTML
    entities (no raw HTML, no cell break), the characters of inline markup (backslash,
    backtick, ``*``, ``_``, ``[``, ``]``, ``~``) backslash-escaped (no links, images, emphasis
    or code spans from a stranger's text), whitespace runs as one space.

    Parameters
    ----------
    text : str
        The text (for example a name read from a certificate).

    Returns
    -------
    str
        The escaped text, one line.

    Examples
    --------
    >>> escape_markdown("a | b")
    'a &#124; b'
    >>> print(escape_markdown("![x](http://t/) <b>"))
    !\\[x\\](http://t/) &lt;b&gt;
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    out = []
    for ch in " ".join(text.split()):
        if ch in _ENTITIES:
            out.append(_ENTITIES[ch])
        elif ch in _MARKDOWN_PUNCTUATION:
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def _fit(head: str, lines: list[str], tail: str, more: int, more_line: Any,
         sep: str = "") -> str:
    """``head`` + as many whole ``lines`` as fit in :data:`MAX_DISPLAY` with ``tail`` (the
    rest counted by ``more_line(count)``): text is cut before markup, never inside it."""
    budget = MAX_DISPLAY - len(head) - len(tail) - 80
    kept: list[str] = []
    for line in lines:
        if len(line) + len(sep) > budget:
            break
        kept.append(line)
        budget -= len(line) + len(sep)
    more += len(lines) - len(kept)
    if more:
        kept.append(more_line(more))
    return head + sep.join(kept) + tail


def markdown_table(title: str, rows: Mapping[str, Any] | list[tuple[str, Any]],
                   header: tuple[str, str] = ("field", "value")) -> str:
    """``**title**`` then a two-column Markdown table of summarised values (every cell, the
    title and the header escaped by :func:`escape_markdown`).

    Parameters
    ----------
    title : str
        The headline above the table (cut to ``4 * MAX_CELL`` characters).
    rows : Mapping or list of (str, Any)
        The rows: name and value (each value summarised by :func:`summarize`); at most
        ``MAX_ROWS`` are shown, the rest counted in a last row.
    header : tuple of str, default ("field", "value")
        The two column headings.

    Returns
    -------
    str
        The Markdown text of at most ``MAX_DISPLAY`` characters (whole rows only).

    Examples
    --------
    >>> print(markdown_table("a result", {"rank": 3, "note": "a | b"}))
    **a result**
    <BLANKLINE>
    | field | value |
    |---|---|
    | rank | 3 |
    | note | a &#124; b |
    """
    _check_table(title, rows, header)
    shown, more = _rows(rows)
    head = (f"**{escape_markdown(_cut(title, 4 * MAX_CELL))}**\n\n| "
            f"{escape_markdown(_cut(header[0], MAX_CELL))} | "
            f"{escape_markdown(_cut(header[1], MAX_CELL))} |\n|---|---|\n")
    lines = [f"| {escape_markdown(_cut(k, MAX_CELL))} | {escape_markdown(v)} |"
             for k, v in shown]
    return _fit(head, lines, "", more, lambda n: f"| … | {n} more |", "\n").rstrip("\n")


def html_table(title: str, rows: Mapping[str, Any] | list[tuple[str, Any]],
               header: tuple[str, str] = ("field", "value")) -> str:
    """The same table as :func:`markdown_table`, in HTML (title, header and cells escaped).

    Parameters
    ----------
    title : str
        The headline above the table (cut to ``4 * MAX_CELL`` characters).
    rows : Mapping or list of (str, Any)
        The rows: name and value (each value summarised by :func:`summarize`); at most
        ``MAX_ROWS`` are shown, the rest counted in a last row.
    header : tuple of str, default ("field", "value")
        The two column headings.

    Returns
    -------
    str
        The HTML fragment (a ``div``) of at most ``MAX_DISPLAY`` characters: whole rows only,
        so its markup is always complete.

    Examples
    --------
    >>> html_table("r", {"x": "<b>"}).count("<tr>")
    2
    """
    _check_table(title, rows, header)
    shown, more = _rows(rows)
    head = (f"<div><p><b>{html.escape(_cut(title, 4 * MAX_CELL))}</b></p><table>"
            f"<tr><th>{html.escape(_cut(header[0], MAX_CELL))}</th>"
            f"<th>{html.escape(_cut(header[1], MAX_CELL))}</th></tr>")
    lines = [f"<tr><td>{html.escape(_cut(k, MAX_CELL))}</td><td>{html.escape(v)}</td></tr>"
             for k, v in shown]
    return _fit(head, lines, "</table></div>", more,
                lambda n: f"<tr><td>…</td><td>{n} more</td></tr>")


Table = tuple[tuple[str, ...], list[tuple[Any, ...]]]


def _check_page(title: Any, main: Any, table: Table | None, math: str | None) -> None:
    _check_table(title, main, ("field", "value"))
    if math is not None and not isinstance(math, str):
        raise TypeError(f"math must be a LaTeX str or None, got {type(math).__name__}")
    if table is not None and not (isinstance(table, tuple) and len(table) == 2
                                  and all(isinstance(h, str) for h in table[0])):
        raise TypeError("table must be (headers, rows): a tuple of column names and a list of "
                        "row tuples")


def markdown_result(title: str, main: list[tuple[str, Any]], *, math: str | None = None,
                    table: Table | None = None, more: list[tuple[str, Any]] = ()  # type: ignore[assignment]
                    ) -> str:
    r"""A result's Markdown display, the answer first: the headline, the value as math, at
    most :data:`MAX_MAIN_FIELDS` fields, a real table (e.g. blocks), and every other field in a
    collapsed ``<details>`` section.

    Parameters
    ----------
    title : str
        The headline (the answer in words).
    main : list of (str, Any)
        The fields a researcher reads (the first :data:`MAX_MAIN_FIELDS` are shown open).
    math : str, optional
        The answer as LaTeX, e.g. ``r"\operatorname{sep}_{A,B}(f) \ge 49"``.
    table : (headers, rows), optional
        A table shown open (rows summarised, at most ``MAX_ROWS``).
    more : list of (str, Any)
        Everything else, collapsed.

    Returns
    -------
    str
        At most :data:`MAX_DISPLAY` characters, cut between parts.

    Examples
    --------
    >>> print(markdown_result("sep >= 4", [("rank", 4)], math="s \\ge 4", more=[("p", 7)]))
    **sep &gt;= 4**
    <BLANKLINE>
    $s \ge 4$
    <BLANKLINE>
    | field | value |
    |---|---|
    | rank | 4 |
    <BLANKLINE>
    <details><summary>1 more field</summary>
    <BLANKLINE>
    | field | value |
    |---|---|
    | p | 7 |
    <BLANKLINE>
    </details>
    """
    _check_page(title, main, table, math)
    rest = list(main[MAX_MAIN_FIELDS:]) + list(more)
    open_rows = markdown_table(title, list(main[:MAX_MAIN_FIELDS]))
    head, _, body = open_rows.partition("\n\n")
    parts = [head]
    if math:
        parts.append(f"${math}$")
    parts.append(body)
    if table is not None:
        headers, rows = table
        lines = ["| " + " | ".join(escape_markdown(_cut(h, MAX_CELL)) for h in headers) + " |",
                 "|" + "---|" * len(headers)]
        lines += ["| " + " | ".join(escape_markdown(summarize(v, 40)) for v in row) + " |"
                  for row in rows[:MAX_ROWS]]
        if len(rows) > MAX_ROWS:
            lines.append(f"| … {len(rows) - MAX_ROWS} more |" + " |" * (len(headers) - 1))
        parts.append("\n".join(lines))
    if rest:
        hidden = markdown_table("", rest).partition("\n\n")[2]
        label = f"{len(rest)} more field{'s' if len(rest) != 1 else ''}"
        parts.append(f"<details><summary>{label}</summary>\n\n{hidden}\n\n</details>")
    return _fit("", parts, "", 0, lambda n: "", "\n\n")


def html_result(title: str, main: list[tuple[str, Any]], *, math: str | None = None,
                table: Table | None = None, more: list[tuple[str, Any]] = ()  # type: ignore[assignment]
                ) -> str:
    """The same display as :func:`markdown_result`, in HTML (math in ``\\(...\\)``, rendered
    by MathJax where the page has it).

    Parameters
    ----------
    title : str
        The headline.
    main : list of (str, Any)
        The fields shown open (at most :data:`MAX_MAIN_FIELDS`).
    math : str, optional
        The answer as LaTeX.
    table : (headers, rows), optional
        A table shown open.
    more : list of (str, Any)
        Everything else, collapsed.

    Returns
    -------
    str
        A ``div`` of at most :data:`MAX_DISPLAY` characters with complete markup.

    Examples
    --------
    >>> page = html_result("sep >= 4", [("rank", 4)], more=[("p", 7)])
    >>> page.startswith("<div>") and "<details>" in page and page.endswith("</div>")
    True
    """
    _check_page(title, main, table, math)
    rest = list(main[MAX_MAIN_FIELDS:]) + list(more)
    parts = [html_table(title, list(main[:MAX_MAIN_FIELDS]))[len("<div>"):-len("</div>")]]
    if math:
        parts.insert(1, f"<p>\\({html.escape(math)}\\)</p>")
    if table is not None:
        headers, rows = table
        cells = "".join(f"<th>{html.escape(_cut(h, MAX_CELL))}</th>" for h in headers)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(summarize(v, 40))}</td>"
                                        for v in row) + "</tr>" for row in rows[:MAX_ROWS])
        if len(rows) > MAX_ROWS:
            body += f"<tr><td>… {len(rows) - MAX_ROWS} more</td></tr>"
        parts.append(f"<table><tr>{cells}</tr>{body}</table>")
    if rest:
        hidden = html_table("", rest)[len("<div>"):-len("</div>")]
        label = f"{len(rest)} more field{'s' if len(rest) != 1 else ''}"
        parts.append(f"<details><summary>{label}</summary>{hidden}</details>")
    return _fit("<div>", parts, "</div>", 0, lambda n: "")


class RichDisplay:
    """Mixin: Jupyter's ``_repr_markdown_`` and ``_repr_html_`` from :meth:`summary` and
    :meth:`_display_fields` (default: the dataclass fields, arrays summarised), and a short
    :meth:`_short_repr` for ``__repr__``."""

    def summary(self) -> str:
        """One line in words (default: the class name).

        Returns
        -------
        str
            The headline of the rich display.
        """
        return type(self).__name__

    def _display_fields(self) -> list[tuple[str, Any]]:
        if is_dataclass(self):
            return [(f.name, getattr(self, f.name)) for f in fields(self) if f.repr]
        return []

    def _repr_markdown_(self) -> str:
        return markdown_table(self.summary(), self._display_fields())

    def _repr_html_(self) -> str:
        return html_table(self.summary(), self._display_fields())

    def __repr__(self) -> str:
        return self._short_repr(width=40)

    def _short_repr(self, keys: tuple[str, ...] | None = None, width: int = 60) -> str:
        """``Name(field=short value, ...)`` over ``keys`` (default: all display fields)."""
        items = [(k, v) for k, v in self._display_fields() if keys is None or k in keys]
        inner = ", ".join(f"{k}={summarize(v, width)}" for k, v in items)
        return f"{type(self).__name__}({inner})"
