r"""The TeX of a paper's symbols (``seprank/core/tex.py``): what is accepted is TeX that an
independent parser (matplotlib's mathtext) also accepts, what is refused says why, and the
plain-text reading keeps every symbol of the formula.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.mathtext import MathTextParser

from seprank.core.tex import MACROS, check_tex, tex_to_text

_MATHTEXT = MathTextParser("path")


def _mathtext_accepts(tex: str) -> bool:
    try:
        _MATHTEXT.parse(f"${tex}$")
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(("tex", "plain"), [
    # Greek (TeX's \phi is the straight phi, \varphi the curly one), operators, relations
    (r"\alpha, \Theta, \phi, \varphi, \epsilon, \varepsilon", "α, Θ, ϕ, φ, ϵ, ε"),
    (r"a \le b \ge c \ne d \in S", "a ≤ b ≥ c ≠ d ∈ S"),
    (r"A \otimes B \odot C \times D", "A ⊗ B ⊙ C × D"),
    # scripts: one character bare, more in braces, digits as Unicode scripts
    (r"x_i^2", "x_i²"), (r"x_{12}", "x₁₂"), (r"x_{ij}^{(1)}", "x_{ij}⁽¹⁾"),
    (r"e^{-1}", "e⁻¹"), (r"V^\top", "Vᵀ"), (r"(VV^\top)^{\odot p}", "(VVᵀ)^{⊙p}"),
    (r"y_p^{i,L,d_x,H,\Theta}", "y_p^{i,L,d_x,H,Θ}"), (r"\theta_*", "θ_*"),
    (r"\Lambda_{\min}", "Λ_{min}"), (r"\log_3 d_x", "log₃ d_x"),
    # constructions
    (r"\binom{n+k-1}{k}", "binom(n+k-1, k)"),
    (r"\left(\!\!\binom{n}{k}\!\!\right)", "((n k))"),
    (r"\left(\binom{n}{k} + 1\right)", "(binom(n, k) + 1)"),
    (r"\frac{3^L - 1}{2}", "(3^L - 1)/2"), (r"\frac{hq}{1 - h}", "hq/(1 - h)"),
    (r"1/\sqrt{m}", "1/√m"), (r"\sqrt{2 \eta}", "√(2 η)"),
    (r"\mathbb{E}_\pi \|x\|", "𝔼_π ‖x‖"), (r"\mathcal{T}(\mathcal{A})", "𝒯(𝒜)"),
    (r"\{\pm1\}^d", "{±1}^d"), (r"\hat{x}", "x\u0302"),
    (r"\eta \text{ (learning rate)}", "η (learning rate)"),
    (r"O \text{ (}d \times k\text{, column-stochastic)}", "O (d × k, column-stochastic)"),
    (r"\mathrm{sep}(y; A, B)", "sep(y; A, B)"), (r"a\,b\;c", "a b c"),
])
def test_the_plain_reading(tex: str, plain: str) -> None:
    assert tex_to_text(tex) == plain
    check_tex(tex)


@pytest.mark.parametrize(("tex", "what"), [
    ("x^{2", "a '{' is never closed (at character 3); close it with '}'"),
    ("x}", "a '}' closes nothing (at character 2)"),
    (r"\left( x", r"a '\left' has no '\right' (at character 1)"),
    (r"x \right)", r"a '\right' closes nothing"),
    (r"\left( x } \right)", "cross"),
    ("a_b_c", "a double subscript"), ("a^b^c", "a double superscript"),
    ("x^", "'^' has nothing to attach"), ("x_}", "'_' has nothing to attach"),
    ("x^2'", "a prime after a superscript"),
    (r"\frobnicate", r"unknown macro '\frobnicate'"),
    (r"\frac{a}", r"'\frac' needs its argument in braces"),
    (r"\text x", r"'\text' needs its argument in braces"),
    (r"\text{a_b}", "only words"), (r"\text{\alpha}", "only words"),
    (r"\left x \right)", "needs a delimiter"),
    ("$x$", "without '$' (at character 1)"), ("`x`", "backtick"),
    ("a & b", r"write '\&'"), ("50%", r"write '\%'"), ("#1", r"write '\#'"),
    ("x\\", "a backslash with nothing after it"), ("", "empty"), ("  ", "empty"),
])
def test_what_is_not_accepted_tex_is_refused_saying_what_and_where(tex: str, what: str) -> None:
    with pytest.raises(ValueError, match=r"^TeX ") as error:
        check_tex(tex)
    assert what in str(error.value) and repr(tex) in str(error.value)


def test_not_a_string_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="tex must be a str"):
        check_tex(3)  # type: ignore[arg-type]


def test_the_refusals_are_refused_by_an_independent_tex_parser_too() -> None:
    """The checks are not stricter than TeX for nothing: matplotlib's mathtext refuses them."""
    for tex in ("x^{2", "x}", r"\left( x", "a_b_c", "a^b^c", "x^", r"\frobnicate",
                r"\frac{a}"):
        assert not _mathtext_accepts(tex), tex


#: Pieces of the TeX this module accepts, restricted to what matplotlib's mathtext also knows
#: (it lacks a few MathJax macros: ``\le``, ``\lVert``, ...).
_ATOMS = st.sampled_from(["x", "y", "2", "(", ")", "+", "-", "=", ",", "[", "]", "|", "'",
                          r"\alpha", r"\Theta", r"\leq", r"\odot", r"\otimes", r"\cdot",
                          r"\in", r"\mathbb{R}", r"\mathcal{T}", r"\top", r"\log", r"\max",
                          r"\ldots", r"\{", r"\}", r"\|", r"\,", r"\!", " "])


def _formulas(depth: int) -> st.SearchStrategy[str]:
    atoms = _ATOMS
    if depth == 0:
        return atoms
    inner = _formulas(depth - 1).filter(lambda t: bool(t.strip()))
    groups = st.one_of(
        inner.map(lambda t: "{" + t + "}"),
        st.tuples(inner, inner).map(lambda t: r"\frac{" + t[0] + "}{" + t[1] + "}"),
        st.tuples(inner, inner).map(lambda t: r"\binom{" + t[0] + "}{" + t[1] + "}"),
        inner.map(lambda t: r"\sqrt{" + t + "}"),
        inner.map(lambda t: r"\left(" + t + r"\right)"),
        st.text(st.sampled_from("ab (),.-"), max_size=8).map(lambda t: r"\text{" + t + "}"),
    )
    scripted = st.tuples(st.sampled_from(["x", "y", r"\alpha", "2"]),
                         st.sampled_from(["_", "^"]),
                         st.one_of(atoms.filter(lambda t: t not in (" ", r"\,", r"\!")),
                                   groups)).map(lambda t: t[0] + t[1] + t[2])
    return st.lists(st.one_of(atoms, groups, scripted), min_size=1, max_size=6).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(_formulas(depth=1))
def test_every_formula_built_from_accepted_pieces_is_accepted_and_valid_tex(tex: str) -> None:
    if not tex.strip():
        return
    assert isinstance(tex_to_text(tex), str)
    assert _mathtext_accepts(tex), tex


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from("xy12_^{}()\\ab$`%' "), min_size=1, max_size=12))
def test_anything_accepted_an_independent_tex_parser_accepts(tex: str) -> None:
    """Random strings: ours refuses with a ValueError, or TeX (mathtext) accepts it too."""
    try:
        check_tex(tex)
    except ValueError:
        return
    assert _mathtext_accepts(tex), tex


def test_every_macro_has_a_reading() -> None:
    """No macro of :data:`MACROS` reads as its own name with a backslash."""
    for macro in sorted(MACROS):
        if macro in ("left", "right"):
            tex = r"\left( x \right)"
        elif macro in ("binom", "frac"):
            tex = rf"\{macro}{{a}}{{b}}"
        elif macro in ("text", "textrm", "mathrm", "operatorname", "mathbf", "mathit",
                       "boldsymbol", "mathsf", "mathtt", "mathbb", "mathcal", "hat", "tilde",
                       "bar", "dot", "vec", "sqrt"):
            tex = rf"\{macro}{{A}}"
        else:
            tex = rf"x \{macro} y"
        assert "\\" not in tex_to_text(tex), macro
