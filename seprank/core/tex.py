r"""A paper's symbols written in TeX: checked before they reach MathJax, read in a terminal.

A paper index (:class:`seprank.core.index.PaperIndex`) writes each symbol of its paper once, in
the TeX the paper prints (``y_p^{i,L,d_x,H,\Theta}``, ``\binom{n+k-1}{k}``,
``(VV^\top)^{\odot p}``).  The documentation site typesets it with MathJax; ``help()`` in a
terminal shows :func:`tex_to_text` of it (``y_p^{i,L,d_x,H,Θ}``, ``binom(n+k-1, k)``,
``(VVᵀ)^{⊙p}``): Greek letters and operators as their Unicode characters, sub- and
superscripts in TeX's own ``_``/``^`` form (braces kept around more than one character;
digits as Unicode sub- and superscripts), operator names and ``\text{...}`` as plain words.
Every character of the reading comes from the TeX; nothing is dropped but spacing commands.

Only a known subset of TeX is accepted (:data:`MACROS`, all defined in MathJax): an entry is
refused by :func:`check_tex` -- with what is wrong and where -- when its braces or
``\left``/``\right`` do not balance, a script is doubled or has nothing to attach to, a macro
is unknown or lacks its argument, or it holds ``$`` (the entry *is* the formula), a backtick
(it would end the reStructuredText role) or TeX's special ``#``, ``&``, ``%`` unescaped.

Examples
--------
>>> tex_to_text(r"y_p^{i,L,d_x,H,\Theta}")
'y_p^{i,L,d_x,H,Θ}'
>>> tex_to_text(r"\left(\!\!\binom{n}{k}\!\!\right) = \binom{n+k-1}{k}")
'((n k)) = binom(n+k-1, k)'
>>> tex_to_text(r"L < \log_3 d_x")
'L < log₃ d_x'
>>> check_tex(r"x^{2")
Traceback (most recent call last):
...
ValueError: TeX 'x^{2': a '{' is never closed (at character 3); close it with '}'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["MACROS", "check_tex", "tex_to_text"]

_GREEK_NAMES = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
    "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "ϕ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
    "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ",
    "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω"}
#: Macros without arguments: their reading in plain text.
_SYMBOLS = {
    **_GREEK_NAMES,
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈",
    "sim": "~", "simeq": "≃", "equiv": "≡", "propto": "∝", "ll": "≪", "gg": "≫",
    "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆", "supset": "⊃", "cup": "∪",
    "cap": "∩", "setminus": "∖", "emptyset": "∅", "forall": "∀", "exists": "∃",
    "times": "×", "cdot": "·", "otimes": "⊗", "odot": "⊙", "oplus": "⊕", "circ": "∘",
    "pm": "±", "mp": "∓", "ast": "*", "star": "⋆", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "mapsto": "↦", "Rightarrow": "⇒", "iff": "⇔", "infty": "∞",
    "partial": "∂", "nabla": "∇", "sum": "∑", "prod": "∏", "top": "⊤", "bot": "⊥",
    "perp": "⊥", "prime": "′", "mid": "|", "vert": "|", "lvert": "|", "rvert": "|",
    "Vert": "‖", "lVert": "‖", "rVert": "‖", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊",
    "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "lbrace": "{", "rbrace": "}",
    "ldots": "…", "cdots": "⋯", "dots": "…", "colon": ":",
    # operator names, upright in TeX
    "log": "log", "ln": "ln", "exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan",
    "max": "max", "min": "min", "sup": "sup", "inf": "inf", "arg": "arg", "det": "det",
    "dim": "dim", "ker": "ker", "deg": "deg", "lim": "lim", "gcd": "gcd", "Pr": "Pr",
    # spacing: TeX's thin, medium, thick, negative and quad spaces
    ",": " ", ":": " ", ";": " ", "!": "", " ": " ", "quad": " ", "qquad": " ",
    # escaped characters
    "{": "{", "}": "}", "|": "‖", "%": "%", "#": "#", "&": "&", "_": "_",
}
#: Macros with one argument read as their argument (fonts, words).
_AS_ARGUMENT = frozenset({"text", "textrm", "mathrm", "operatorname", "mathbf", "mathit",
                          "boldsymbol", "mathsf", "mathtt"})
#: Letters in a font with Unicode code points: macro -> Unicode character-name prefixes.
_FONTS = {"mathbb": ("MATHEMATICAL DOUBLE-STRUCK CAPITAL ", "DOUBLE-STRUCK CAPITAL "),
          "mathcal": ("MATHEMATICAL SCRIPT CAPITAL ", "SCRIPT CAPITAL ")}
#: Accents over one letter: macro -> combining character.
_ACCENTS = {"hat": "\u0302", "tilde": "\u0303", "bar": "\u0304", "dot": "\u0307",
            "vec": "\u20d7"}
_TWO_ARGUMENTS = frozenset({"binom", "frac"})

#: Every macro an entry may use (MathJax defines them all; :func:`tex_to_text` reads them).
MACROS: frozenset[str] = frozenset(
    {m for m in _SYMBOLS if m.isalpha()} | _AS_ARGUMENT | set(_FONTS) | set(_ACCENTS)
    | _TWO_ARGUMENTS | {"sqrt", "left", "right"})

_SUPERSCRIPTS = dict(zip("0123456789+-=()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾", strict=True))
_SUBSCRIPTS = dict(zip("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎", strict=True))
_DELIMITERS = frozenset("()[]|./") | {"\\{", "\\}", "\\|", "\\langle", "\\rangle",
                                      "\\lVert", "\\rVert", "\\lvert", "\\rvert", "\\Vert",
                                      "\\vert", "\\lfloor", "\\rfloor", "\\lceil", "\\rceil"}
_FORBIDDEN = {"$": "the entry is the formula itself: write it without '$'",
              "`": "a backtick would end the reStructuredText role: remove it",
              "#": "TeX reads '#' as a macro parameter: write '\\#'",
              "&": "TeX reads '&' as an alignment tab: write '\\&'",
              "%": "TeX reads '%' as a comment: write '\\%'"}
_TOKEN = re.compile(r"\\([A-Za-z]+|.)|(.)", re.S)


class _TexError(ValueError):
    def __init__(self, what: str, at: int) -> None:
        super().__init__(what)
        self.what, self.at = what, at


@dataclass
class _Node:
    """One atom: its plain reading, and its sub- and superscript once attached."""

    text: str
    sub: str | None = None
    sup: str | None = None
    spaces: bool = False  # a run of spaces (nothing to attach a script to)


class _Reader:
    """A recursive-descent reading of the accepted TeX (see the module docstring)."""

    def __init__(self, tex: str) -> None:
        self.tokens = [(m.start(), m.group(1), m.group(2)) for m in _TOKEN.finditer(tex)]
        self.i = 0
        self.script_depth = 0  # TeX ignores spaces in math; the reading keeps them outside scripts

    def _peek(self) -> tuple[int, str | None, str | None] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _next(self) -> tuple[int, str | None, str | None]:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def read(self) -> str:
        text = self._sequence(closing=None, opened_at=0)
        return " ".join(text.split())

    def _sequence(self, closing: str | None, opened_at: int) -> str:
        """Atoms up to ``closing`` (``}`` or ``\\right``; None: the end), read as plain text."""
        nodes: list[_Node] = []
        while True:
            token = self._peek()
            if token is None:
                if closing == "}":
                    raise _TexError("a '{' is never closed", opened_at)
                if closing == "right":
                    raise _TexError("a '\\left' has no '\\right'", opened_at)
                break
            at, macro, char = token
            if char == "}" or macro == "right":
                if closing is None:
                    raise _TexError(f"a '{char or chr(92) + 'right'}' closes nothing", at)
                if (char == "}") != (closing == "}"):
                    raise _TexError("'\\left' ... '\\right' and '{' ... '}' cross", at)
                break
            if char in ("^", "_"):
                self._next()
                self._script(nodes, char, at)
                continue
            if char == "'" and nodes and not nodes[-1].spaces and nodes[-1].sup is not None:
                raise _TexError("a prime after a superscript (write the prime inside it: "
                                "'x^{2\\prime}')", at)
            if char is not None and char.isspace():
                self._next()
                if not (nodes and nodes[-1].spaces) and not self.script_depth:
                    nodes.append(_Node(" ", spaces=True))
                continue
            nodes.append(_Node(self._atom()))
        return "".join(_reading(n) for n in nodes)

    def _script(self, nodes: list[_Node], sign: str, at: int) -> None:
        base = nodes[-1] if nodes and not nodes[-1].spaces else None
        if base is None:
            base = _Node("")
            nodes.append(base)
        which = "sub" if sign == "_" else "sup"
        if getattr(base, which) is not None:
            raise _TexError(f"a double {'sub' if sign == '_' else 'super'}script (write "
                            f"'{{x{sign}a}}{sign}b' or one group)", at)
        while (token := self._peek()) is not None and token[2] is not None \
                and token[2].isspace():
            self._next()
        following = self._peek()
        if following is None or following[2] in ("}", "^", "_") or following[1] == "right":
            raise _TexError(f"'{sign}' has nothing to attach", at)
        self.script_depth += 1
        try:
            setattr(base, which, self._atom())
        finally:
            self.script_depth -= 1

    def _group(self, macro: str, at: int) -> str:
        token = self._peek()
        if token is None or token[2] != "{":
            raise _TexError(f"'\\{macro}' needs its argument in braces", at)
        self._next()
        inner = self._sequence(closing="}", opened_at=token[0])
        self._next()
        return inner

    def _raw_group(self, macro: str, at: int) -> str:
        """A ``\\text{...}`` argument: words, no macros or scripts."""
        token = self._peek()
        if token is None or token[2] != "{":
            raise _TexError(f"'\\{macro}' needs its argument in braces", at)
        self._next()
        out, depth = [], 1
        while True:
            token = self._peek()
            if token is None:
                raise _TexError("a '{' is never closed", at)
            self._next()
            if token[1] is not None:
                if token[1] in ("{", "}", " ", ",", "!", "_", "%", "#", "&"):
                    out.append(_SYMBOLS[token[1]])
                    continue
                raise _TexError(f"'\\{token[1]}' inside '\\{macro}{{...}}' (only words)",
                                token[0])
            char = token[2]
            if char in ("^", "_"):
                raise _TexError(f"'{char}' inside '\\{macro}{{...}}' (only words)", token[0])
            depth += {"{": 1, "}": -1}.get(char or "", 0)
            if depth == 0:
                return "".join(out)
            if char not in ("{", "}"):
                out.append(char or "")

    def _delimiter(self, macro: str, at: int) -> str:
        token = self._peek()
        name = None if token is None else (f"\\{token[1]}" if token[1] else token[2])
        if token is None or name not in _DELIMITERS:
            raise _TexError(f"'\\{macro}' needs a delimiter after it, such as '(' or '\\|'",
                            at)
        self._next()
        return "" if name == "." else (_SYMBOLS[name[1:]] if name.startswith("\\") else name)

    def _atom(self) -> str:
        at, macro, char = self._next()
        if char is not None:
            if char == "{":
                inner = self._sequence(closing="}", opened_at=at)
                self._next()
                return inner
            if char == "~":
                return " "
            if char in _FORBIDDEN:
                raise _TexError(_FORBIDDEN[char], at)
            if char == "\\":
                raise _TexError("a backslash with nothing after it", at)
            return char
        assert macro is not None
        if macro in _SYMBOLS:
            return _SYMBOLS[macro]
        if macro in _AS_ARGUMENT:
            return (self._raw_group if macro.startswith("text") else self._group)(macro, at)
        if macro in _FONTS:
            return "".join(_font_letter(c, _FONTS[macro]) for c in self._group(macro, at))
        if macro in _ACCENTS:
            inner = self._group(macro, at)
            return inner + _ACCENTS[macro] if len(inner) == 1 else f"{macro}({inner})"
        if macro == "sqrt":
            inner = self._group(macro, at)
            return "√" + (inner if len(inner) == 1 else f"({inner})")
        if macro in _TWO_ARGUMENTS:
            first = self._group(macro, at)
            second = self._group(macro, at)
            if macro == "binom":
                return f"binom({first}, {second})"
            return "/".join(s if _simple(s) else f"({s})" for s in (first, second))
        if macro == "left":
            return self._left_right(at)
        if macro == "right":
            raise _TexError("a '\\right' closes nothing", at)
        raise _TexError(f"unknown macro '\\{macro}' (known: see seprank.core.tex.MACROS)", at)

    def _left_right(self, at: int) -> str:
        opening = self._delimiter("left", at)
        start = self.i
        inner = self._sequence(closing="right", opened_at=at)
        body = [t for t in self.tokens[start:self.i]
                if t[1] not in ("!", ",") and not (t[2] or "x").isspace()]
        self._next()
        closing = self._delimiter("right", at)
        if opening == "(" and closing == ")" and body and body[0][1] == "binom":
            # \left(\!\!\binom{n}{k}\!\!\right): the multiset coefficient, read ((n k))
            match = re.fullmatch(r"binom\((.*), (.*)\)", inner.strip())
            if match and _closes_at_end(body):
                return f"(({match.group(1)} {match.group(2)}))"
        return f"{opening}{inner}{closing}"


def _closes_at_end(body: list[tuple[int, str | None, str | None]]) -> bool:
    """``body`` is one ``\\binom{...}{...}`` and nothing after it."""
    depth, groups = 0, 0
    for _, macro, char in body[1:]:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            groups += depth == 0
        elif depth == 0 or macro == "right":
            return False
    return groups == 2


def _font_letter(char: str, prefixes: tuple[str, ...]) -> str:
    for prefix in prefixes:
        try:
            return unicodedata.lookup(prefix + char)
        except KeyError:
            continue
    return char


def _simple(text: str) -> bool:
    """No space and no operator: a numerator or denominator that needs no parentheses."""
    return re.fullmatch(r"[^\s+\-/·×]+", text) is not None


def _script_text(text: str, table: dict[str, str], sign: str) -> str:
    if text and all(c in table for c in text):
        return "".join(table[c] for c in text)
    if sign == "^" and text == "⊤":
        return "ᵀ"
    if len(text) == 1 or (len(text) == 2 and unicodedata.combining(text[1])):
        return sign + text
    return f"{sign}{{{text}}}"


def _reading(node: _Node) -> str:
    out = node.text
    if node.sub is not None:
        out += _script_text(node.sub, _SUBSCRIPTS, "_")
    if node.sup is not None:
        out += _script_text(node.sup, _SUPERSCRIPTS, "^")
    return out


def check_tex(tex: str) -> None:
    r"""Refuse ``tex`` unless it is one formula in the accepted TeX (see the module docstring).

    Parameters
    ----------
    tex : str
        A formula as written inside ``$...$``, without the dollars.

    Raises
    ------
    TypeError
        If ``tex`` is not a string.
    ValueError
        If it is empty or one of the errors listed in the module docstring; the message says
        what, at which character, and how to write it.

    Examples
    --------
    >>> check_tex(r"\binom{n+k-1}{k}")
    >>> check_tex(r"x_1_2")
    Traceback (most recent call last):
    ...
    ValueError: TeX 'x_1_2': a double subscript (write '{x_a}_b' or one group) (at character 4)
    """
    tex_to_text(tex)


def tex_to_text(tex: str) -> str:
    r"""``tex`` as plain text for a terminal (see the module docstring), after checking it.

    Parameters
    ----------
    tex : str
        A formula in the accepted TeX, without ``$``.

    Returns
    -------
    str
        Its reading: Unicode symbols, ``_``/``^`` scripts, words for operator names; runs of
        spaces as one.

    Raises
    ------
    TypeError
        If ``tex`` is not a string.
    ValueError
        If :func:`check_tex` refuses it.

    Examples
    --------
    >>> tex_to_text(r"(VV^\top)^{\odot p}")
    '(VVᵀ)^{⊙p}'
    >>> tex_to_text(r"\mathbb{E}_\pi \|x\| \text{ (eq. 2.2)}")
    '𝔼_π ‖x‖ (eq. 2.2)'
    >>> tex_to_text(r"W_K^{(2)}")
    'W_K⁽²⁾'
    """
    if not isinstance(tex, str):
        raise TypeError(f"tex must be a str, got {type(tex).__name__}")
    if not tex.strip():
        raise ValueError(f"TeX {tex!r}: an empty formula; write the symbol")
    for char, fix in _FORBIDDEN.items():
        where = [m.start() for m in re.finditer(re.escape(char), tex)
                 if not (char in "#&%" and m.start() > 0 and tex[m.start() - 1] == "\\")]
        if where:
            raise ValueError(f"TeX {tex!r}: {fix} (at character {where[0] + 1})")
    try:
        return _Reader(tex).read()
    except _TexError as error:
        hints = {"a '{' is never closed": "; close it with '}'",
                 "a '\\left' has no '\\right'": "; add the '\\right' that closes it"}
        raise ValueError(f"TeX {tex!r}: {error.what} (at character {error.at + 1})"
                         f"{hints.get(error.what, '')}") from None
