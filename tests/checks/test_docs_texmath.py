"""The ASCII-TeX statements of the claims as prose with inline math
(``paper_checks/sphinx/texmath.py``): nothing is lost, every formula handed to MathJax is
well formed, and the translations a reader relies on are the TeX ones."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))
from paper_checks.sphinx.texmath import WRAP_AT, segments, to_tex, well_formed


def _statements() -> list[str]:
    from paper_checks.registry import all_claims

    return [c.statement for c in all_claims()]


def test_every_statement_reads_back_whole_and_its_formulas_are_well_formed() -> None:
    statements = _statements()
    assert len(statements) > 100
    n_math = 0
    for text in statements:
        segs = segments(text)
        # the math runs' sources and the prose, in order, are the statement
        assert "".join(s.source for s in segs) == text, text
        for s in segs:
            if s.math:
                n_math += 1
                assert well_formed(s.tex), (text, s.tex)
    assert n_math > len(statements), "most statements should carry some math"


@pytest.mark.parametrize("ascii_tex,tex", [
    ("|zeta_{k-1}| <= tau_g", r"|\zeta_{k-1}| \le \tau_g"),
    ("binom(d,k) >= 1", r"\binom{d}{k} \ge 1"),
    ("sqrt(2 eps_tr)", r"\sqrt{2 \varepsilon_{tr}}"),
    ("w_ij^(1)", r"w_{ij}^{(1)}"),
    ("e^-2", r"e^{-2}"),
    ("T in {500, 1000}", r"T \in \{500, 1000\}"),
    ("chi_{[k]\\{j}}(w)", r"\chi_{[k]\setminus\{j\}}(w)"),
    ("12*38", r"12 \cdot 38"),
    ("log(kd/eps)", r"\log (kd/\varepsilon)"),
    ("Theta(d^{k-1})", r"\Theta (d^{k-1})"),
])
def test_translations(ascii_tex: str, tex: str) -> None:
    assert to_tex(ascii_tex) == tex
    assert well_formed(tex)


@pytest.mark.parametrize("tex", ["x^{2", "a_b_c", "x^2'", r"\frobnicate x", "x^", "}{"])
def test_ill_formed_tex_is_refused(tex: str) -> None:
    assert not well_formed(tex)


def test_an_ill_formed_formula_stays_text_as_printed() -> None:
    text = "the sum x^{2 of the rest"
    segs = segments(text)
    assert "".join(s.source for s in segs) == text
    assert all(well_formed(s.tex) for s in segs if s.math)
    assert not any("x^{2" in s.source and s.math for s in segs)


def test_prose_stays_prose_and_formulas_become_math() -> None:
    segs = segments("for all i in S, w_ij >= 0 holds")
    assert [(s.math, s.source) for s in segs] == [
        (False, "for all "), (True, "i"), (False, " in "), (True, "S"), (False, ", "),
        (True, "w_ij >= 0"), (False, " holds")]


def test_a_long_formula_is_cut_where_a_line_may_wrap() -> None:
    text = "T_1 B_1 = Theta(|zeta_{k-1}|^2 k^2 log(kd/eps)) = Theta(d^{k-1} k^2 log(dk/eps))"
    segs = segments(text)
    maths = [s for s in segs if s.math]
    assert len(maths) >= 2 and "".join(s.source for s in segs) == text
    # every cut is outside brackets: each piece is a formula of its own
    assert all(well_formed(s.tex) for s in maths)
    assert all(len(s.source) < len(text) for s in maths) and len(text) > WRAP_AT


def test_a_printed_python_structure_is_text_not_a_formula() -> None:
    text = "rows {'(d_x=5, H=1)': {'template rows': False}, 'L=6': 816}"
    assert not any(s.math and "template" in s.source for s in segments(text))


def test_a_prime_after_a_superscript_is_refused_not_sent_to_mathjax() -> None:
    assert not well_formed(to_tex("d_x^shallow'"))
    assert "".join(s.source for s in segments("width d_x^shallow' here")) == \
        "width d_x^shallow' here"
