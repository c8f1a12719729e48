"""PaperIndex.render(): the table shows every cell exactly as written, whatever characters it
holds, and parses as reStructuredText without a warning (so no index can break ``sphinx -W``);
the paper symbols are TeX, typeset as math on the site and read as plain text in ``help()``.

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
from seprank.core.tex import tex_to_text

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


def _doctree(text: str) -> nodes.document:
    """``text`` parsed by docutils; every warning is an error.

    (``:obj:`` is Sphinx's role for the function cells; plain docutils reads it as ``:literal:``.)
    """
    doctree = publish_doctree(text.replace(":obj:`", ":literal:`"), settings_overrides={
        "report_level": 5, "halt_level": 5, "warning_stream": False})
    problems = [m.astext() for m in doctree.findall(nodes.system_message) if m["level"] >= 2]
    assert not problems, problems
    return doctree


def _cells(index: PaperIndex) -> list[list[str]]:
    """The cell texts of the site's rendering (``render(math=True)``): two tables."""
    tables = list(_doctree(index.render(math=True)).findall(nodes.table))
    assert len(tables) == 2
    return [[entry.astext() for entry in row.findall(nodes.entry)]
            for table in tables for row in table.findall(nodes.row)]


def _math(index: PaperIndex) -> list[str]:
    """The TeX of each math node of the site's rendering, in order."""
    return [m.astext() for m in _doctree(index.render(math=True)).findall(nodes.math)]


def _literal(index: PaperIndex) -> str:
    """The docstring's rendering (``render()``): its notation block, as docutils reads it."""
    blocks = list(_doctree(index.render()).findall(nodes.literal_block))
    assert len(blocks) == 1
    return blocks[0].astext()


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
    rows = _cells(_index(((r"\Theta", cell),), ((cell, theorem1),)))
    assert rows == [["paper", "code"], [r"\Theta", cell],
                    ["statement", "function"], [cell, THEOREM1_CELL]]
    assert _literal(_index(((r"\Theta", cell),))).splitlines()[2].endswith(cell)


_CELL = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                min_size=1, max_size=30).map(str.strip).filter(
                    lambda s: bool(s) and not unicodedata.combining(s[0]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_CELL, _CELL), min_size=1, max_size=4))
def test_any_one_line_cells_round_trip(rows: list[tuple[str, str]]) -> None:
    notation = tuple((r"\Theta", code) for _, code in rows)
    parsed = _cells(_index(notation, tuple((s, theorem1) for s, _ in rows)))
    assert [r[1] for r in parsed[1:1 + len(rows)]] == [code for _, code in rows]
    assert [r[0] for r in parsed[2 + len(rows):]] == [s for s, _ in rows]


#: Symbols as the papers print them -> what help() shows in a terminal.
PAPER_SYMBOLS = [
    (r"y_p^{i,L,d_x,H,\Theta}", "y_p^{i,L,d_x,H,Θ}"),
    (r"\left(\!\!\binom{n}{k}\!\!\right) = \binom{n+k-1}{k}", "((n k)) = binom(n+k-1, k)"),
    (r"(VV^\top)^{\odot \lambda}", "(VVᵀ)^{⊙λ}"),
    (r"L < \log_3 d_x", "L < log₃ d_x"),
    (r"C(L) = \frac{3^L - 1}{2}", "C(L) = (3^L - 1)/2"),
    (r"|S| = k", "|S| = k"),
    (r"p_*^{\eta}(z, z')", "p_*^η(z, z')"),
    (r"\mathbb{E}[x_2 \otimes x_3 \mid x_1 = x]", "𝔼[x₂ ⊗ x₃ | x₁ = x]"),
    (r"\eta \text{ (learning rate)}", "η (learning rate)"),
]


@pytest.mark.parametrize(("tex", "plain"), PAPER_SYMBOLS)
def test_a_paper_symbol_is_math_on_the_site_and_plain_text_in_help(tex: str, plain: str) -> None:
    index = _index(((tex, "code_name"),))
    # the site: a math node holding the TeX exactly as written (MathJax typesets it)
    assert _math(index) == [tex]
    assert f":math:`{tex}`" in index.render(math=True)
    # help(): a literal block (shown verbatim) whose row reads the symbol as plain text
    header, rule, row = _literal(index).splitlines()
    assert header.split() == ["paper", "code"] and set(rule) == {"-", " "}
    assert row.startswith(plain + " ") and row.endswith("code_name")
    assert tex_to_text(tex) == plain


def test_the_plain_columns_line_up_with_wide_and_combining_characters() -> None:
    index = _index(((r"\hat{x}", "a"), (r"\text{一二}", "b"), (r"\mathbb{E}", "c")))
    lines = _literal(index).splitlines()
    rows = [lines[0], *lines[2:]]
    # the code column starts at the same display column on every row: "paper" (5) + 2 spaces
    assert [sum(0 if unicodedata.combining(ch) else
                2 if unicodedata.east_asian_width(ch) in "WF" else 1
                for ch in row[:-1]) for row in rows[1:]] == [7, 7, 7]
    assert rows[0].index("code") == 7 and rows[2].startswith("一二")


@pytest.mark.parametrize(("tex", "what"), [
    ("x^{2", "never closed"), ("x}", "closes nothing"), ("$x$", "'$'"), ("`x`", "backtick"),
    (r"\frobnicate x", "unknown macro"), ("a_b_c", "double subscript"), ("x^", "nothing to "
     "attach"), (r"\left( x", r"\right"), ("50%", r"\%"), ("x^2'", "prime"),
])
def test_a_paper_symbol_that_is_not_tex_is_refused_naming_the_entry(tex: str, what: str) -> None:
    with pytest.raises(ValueError, match="notation, row 2") as error:
        _index(((r"\Theta", "weights"), (tex, "the_code_name")))
    message = str(error.value)
    assert repr(tex) in message and "'the_code_name'" in message and what in message


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
    for math in (False, True):
        first = next(iter(_doctree(index.render(math=math)).findall(nodes.paragraph))).astext()
        assert first == f"Paper: 004 §4.2 -- {citation}.  Claims: PD-*."
