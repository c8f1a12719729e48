"""PaperIndex.render(): the table shows every cell exactly as written, whatever characters it
holds, and parses as reStructuredText without a warning (so no index can break ``sphinx -W``).

The rendering is parsed by docutils itself (the parser Sphinx uses), and the text of each table
cell is compared with the cell as given.
"""

from __future__ import annotations

import unicodedata

import pytest
from docutils import nodes
from docutils.core import publish_doctree
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank.core.index import PaperIndex

#: Cells that reStructuredText reads as markup when written raw (each broke, or would break,
#: the docs build): substitutions, roles and literals, emphasis, references, footnotes, list
#: and enumerator markers, comments, transitions, literal-block markers, escapes.
HOSTILE_CELLS = [
    "|S|", "|T_tr| >= M1", "||q|| = 1", "|w1 - Lemma 63 target|", "`x`", "``code``",
    ":math:`x`", "*emph*", "**strong**", "p_*(z' | z)", "word_", "word__", "[1]_", "sep_(A,B)",
    "- leading bullet", "* star bullet", "+ plus", "1. first", "(a) item", "a) item", "#. auto",
    "iv. roman", ".. comment", ".. _target:", "----", "====", "ends with::", "back\\slash",
    "trailing \\", "\\", ":1:", ">>> x", "/V option", "-a  described", "x_1 + E_pi",
    "Dyck_{n,k}", "<http://example.org>", "a  b  c", "§3.4.5", "一二 wide",
]


def _cells(index: PaperIndex) -> list[list[str]]:
    """Parse ``index.render()`` with docutils; every warning is an error; the cell texts.

    (``:obj:`` is Sphinx's role for the function cells; plain docutils reads it as ``:literal:``.)
    """
    text = index.render().replace(":obj:`", ":literal:`")
    doctree = publish_doctree(text, settings_overrides={
        "report_level": 5, "halt_level": 5, "warning_stream": False})
    problems = [m.astext() for m in doctree.findall(nodes.system_message) if m["level"] >= 2]
    assert not problems, problems
    tables = list(doctree.findall(nodes.table))
    assert len(tables) == 2
    return [[entry.astext() for entry in row.findall(nodes.entry)]
            for table in tables for row in table.findall(nodes.row)]


def theorem1() -> None:
    """A stand-in for the function a statement names."""


#: How the function cell of :func:`theorem1` reads once ``:obj:`` is parsed as a literal.
THEOREM1_CELL = f"~{__name__}.theorem1"


def _index(notation: tuple[tuple[str, str], ...],
           statements: tuple[tuple[str, object], ...] = (("Theorem 1", theorem1),)
           ) -> PaperIndex:
    return PaperIndex(key="003", claims="D2W", citation="Levine et al. 2020", notes="",
                      notation=notation, statements=statements)  # type: ignore[arg-type]


@pytest.mark.parametrize("cell", HOSTILE_CELLS)
def test_a_cell_with_markup_characters_is_shown_as_written(cell: str) -> None:
    rows = _cells(_index(((cell, cell),), ((cell, theorem1),)))
    assert rows == [["paper", "code"], [cell, cell],
                    ["statement", "function"], [cell, THEOREM1_CELL]]


_CELL = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                min_size=1, max_size=30).map(str.strip).filter(
                    lambda s: bool(s) and not unicodedata.combining(s[0]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_CELL, _CELL), min_size=1, max_size=4))
def test_any_one_line_cells_round_trip(rows: list[tuple[str, str]]) -> None:
    parsed = _cells(_index(tuple(rows)))
    assert parsed[1:1 + len(rows)] == [list(r) for r in rows]


@pytest.mark.parametrize("bad", ["", "  ", " padded", "two\nlines", "\u0301x"])
def test_a_cell_that_cannot_be_a_table_cell_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="notation"):
        _index(((bad, "x"),))


def test_rows_must_be_pairs_of_strings() -> None:
    with pytest.raises(TypeError, match="statements"):
        _index((("a", "b"),), statements=(("only one",),))


def test_a_statement_names_the_function_object_not_a_string() -> None:
    """A name as a string could go stale when the function is renamed; the object cannot."""
    with pytest.raises(TypeError, match="not a function"):
        _index((("a", "b"),), statements=(("Theorem 1", "theorem1"),))
    rows = _cells(_index((("a", "b"),), statements=(("Lemma", PaperIndex.render),)))
    assert rows[-1] == ["Lemma", "~seprank.core.index.PaperIndex.render"]


def test_the_citation_is_shown_as_written() -> None:
    citation = 'A. Author, "|x|-norms and *stars* for word_ readers", 2024'
    index = PaperIndex(key="004 §4.2", claims="PD", citation=citation, notes="",
                       notation=(("a", "b"),), statements=(("Theorem 1", theorem1),))
    doctree = publish_doctree(index.render().replace(":obj:`", ":literal:`"),
                              settings_overrides={"report_level": 5, "halt_level": 5})
    assert not [m for m in doctree.findall(nodes.system_message) if m["level"] >= 2]
    first = next(iter(doctree.findall(nodes.paragraph))).astext()
    assert first == f"Paper: 004 §4.2 -- {citation}.  Claims: PD-*."
