"""The claims' statements, written in ASCII TeX (``W^{V,L,h}_{i,j} = i 1_{j = d_a}``,
``|zeta_{k-1}| <= tau_g``), as prose with inline math that MathJax renders.

A statement mixes words and formulas.  :func:`segments` splits it at whitespace into runs of
prose and runs of math: a token is math when it carries a TeX sign (``^ _ = < > { } | \\ ~``),
an operator between symbols (``+ * /``), a Greek letter's name or a lone variable; numbers and
lone operators join the math next to them.  Each math run is translated by :func:`to_tex`
(Greek names -> ``\\zeta``, ``<=`` -> ``\\le``, ``binom(d,k)`` -> ``\\binom{d}{k}``,
``sqrt(x)`` -> ``\\sqrt{x}``, multi-letter words upright, ``w_ij`` -> ``w_{ij}``) and kept as
math only when the result is well formed (balanced braces, no dangling ``^``/``_``, no unknown
macro); otherwise the run stays text, exactly as printed.  Nothing is dropped: reading the
segments' sources in order gives the statement back.

Examples
--------
>>> to_tex("|zeta_{k-1}|^2 <= tau_g")
'|\\\\zeta_{k-1}|^2 \\\\le \\\\tau_g'
>>> [(s.math, s.tex or s.source) for s in segments("for all i in S, w_ij >= 0")][-2:]
[(False, ', '), (True, 'w_{ij} \\\\ge 0')]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

GREEK = frozenset({
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
    "vartheta", "iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau",
    "upsilon", "phi", "varphi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda",
    "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega"})
#: ASCII spellings of other symbols.
WORD_SYMBOLS = {"eps": r"\varepsilon", "inf": r"\infty", "infinity": r"\infty",
                "in": r"\in", "notin": r"\notin", "cdot": r"\cdot", "times": r"\times",
                "sum": r"\sum", "odot": r"\odot", "prod": r"\prod", "nabla": r"\nabla",
                "partial": r"\partial"}
#: Words typeset as TeX's operator names.
FUNCTIONS = frozenset({"log", "ln", "exp", "sin", "cos", "tan", "max", "min", "sup", "det",
                       "lim", "arg", "deg", "dim", "ker", "Pr", "gcd"})
#: Macros the translation may leave (MathJax defines them all).
KNOWN_MACROS = (GREEK | FUNCTIONS | {v[1:] for v in WORD_SYMBOLS.values()}
                | {"le", "ge", "ne", "to", "sim", "binom", "sqrt", "mathrm", "setminus",
                   "backslash", "approx", "otimes", "oplus", "circ", "ldots", "perp", "mid",
                   "lfloor", "rfloor", "tilde", "lceil", "rceil", "top", "bot", "lbrace", "rbrace"})
_SIGNS = re.compile(r"[\^_={}<>|\\~]")
_OPERATOR_BETWEEN = re.compile(r"[A-Za-z0-9)\]}][+*/][A-Za-z0-9(\[{]")
_NEUTRAL = re.compile(r"^[-+*/=()\[\].,0-9]+$")
_LONE_VARIABLE = re.compile(r"^[b-zB-HJ-Z]'*$")
_WORD = re.compile(r"(?<![\\A-Za-z])([A-Za-z]+)(?![A-Za-z])")
_TRAILING = re.compile(r"[,;:.!?]+$")
#: A Python or JSON structure printed in a detail (``{'L=6': 816}``): text, not a formula.
_PYTHON_REPR = re.compile(r"""[{\[,]\s*['"]|['"]\s*:""")
_CALL = re.compile(r"(?<![A-Za-z])(binom|sqrt|log|exp|O|Omega|Theta|max|min|poly)\(")


@dataclass(frozen=True)
class Segment:
    """A run of a statement: its source text, and its TeX when it is math."""

    source: str
    math: bool
    tex: str = ""


def _greek_prefix(token: str) -> bool:
    word = re.match(r"[A-Za-z]+", token.lstrip("(|[-"))
    return word is not None and (word.group(0) in GREEK or word.group(0) == "eps")


def _kind(token: str) -> str:
    """``m`` (math), ``n`` (neutral: numbers and operators) or ``t`` (text)."""
    core = _TRAILING.sub("", token)
    if not core:
        return "t"
    if _SIGNS.search(core) or _OPERATOR_BETWEEN.search(core) or _greek_prefix(core) \
            or _CALL.search(core) \
            or _LONE_VARIABLE.match(core):
        return "m"
    if _NEUTRAL.match(core):
        return "n"
    return "t"


def _tokens(text: str) -> list[str]:
    """Whitespace-separated tokens, merged while a ``{`` is open (``{a, b}`` is one token)."""
    out: list[str] = []
    depth = 0
    for piece in re.split(r"(\s+)", text):
        if not piece:
            continue
        if depth > 0:
            out[-1] += piece
        else:
            out.append(piece)
        if not piece.isspace():
            depth = max(0, depth + _brace_depth(piece))
    return out


def _brace_depth(text: str) -> int:
    plain = text.replace("\\{", "").replace("\\}", "")
    return plain.count("{") - plain.count("}")


def _matched(text: str, start: int) -> int:
    """Index of the parenthesis closing the one at ``start`` (-1 when none)."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return -1


def _calls(text: str, name: str, render: Callable[[str], str | None]) -> str:
    """Replace ``name(args)`` by ``render(args)`` (left as is when it returns None)."""
    out, i = [], 0
    pattern = re.compile(rf"(?<![A-Za-z\\]){name}\(")
    while (m := pattern.search(text, i)) is not None:
        close = _matched(text, m.end() - 1)
        if close < 0:
            break
        inner = _calls(text[m.end():close], name, render)
        rendered = render(inner)
        out.append(text[i:m.start()])
        out.append(rendered if rendered is not None else f"{name}({inner})")
        i = close + 1
    out.append(text[i:])
    return "".join(out)


def _binom(inner: str) -> str | None:
    parts = inner.split(",")
    return None if len(parts) != 2 else "\\binom{" + parts[0].strip() + "}{" + \
        parts[1].strip() + "}"


def _group(text: str, sign: str) -> str:
    """``x_(q,L)`` -> ``x_{(q,L)}``, ``w^(1)`` -> ``w^{(1)}``, ``e^-2`` -> ``e^{-2}``,
    ``w_ij`` -> ``w_{ij}``."""
    out, i = [], 0
    while (j := text.find(sign, i)) >= 0:
        out.append(text[i:j + 1])
        rest = text[j + 1:]
        if rest.startswith("("):
            close = _matched(rest, 0)
            if close > 0:
                out.append("{" + rest[:close + 1] + "}")
                i = j + 1 + close + 1
                continue
        m = re.match(r"-?[A-Za-z0-9]{2,}|-[A-Za-z0-9]", rest)
        if m and not rest.startswith("{"):
            out.append("{" + m.group(0) + "}")
            i = j + 1 + m.end()
            continue
        i = j + 1
    out.append(text[i:])
    return "".join(out)


def _word(m: re.Match[str]) -> str:
    word = m.group(1)
    if word in GREEK:
        return "\\" + word + " "
    if word in WORD_SYMBOLS:
        return WORD_SYMBOLS[word] + " "
    if word in FUNCTIONS:
        return "\\" + word + " "
    if len(word) >= 3 or (len(word) == 2 and not word.islower()):
        return "\\mathrm{" + word + "}"
    return word


def well_formed(tex: str) -> bool:
    """Balanced braces, no dangling or doubled script sign, only known macros."""
    depth = 0
    plain = tex.replace("\\{", "").replace("\\}", "").replace("\\|", "").replace("\\%", "")
    for ch in plain:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    if depth != 0 or re.search(r"[\^_]\s*($|[\^_}])", plain) or tex.rstrip().endswith("\\"):
        return False
    grouped = plain
    while (ungrouped := re.sub(r"\{[^{}]*\}", "G", grouped)) != grouped:
        grouped = ungrouped
    if re.search(r"([_^])(G|\\[A-Za-z]+|[A-Za-z0-9*'])\1", grouped):
        return False  # a_b_c, x^2^3: double scripts
    if re.search(r"\^(\{(?:[^{}]|\{[^{}]*\})*\}|[^{\s\\])'", plain):
        return False  # x^2': a prime after a superscript
    return all(m in KNOWN_MACROS for m in re.findall(r"\\([A-Za-z]+)", tex))


def _set_braces(text: str) -> str:
    """Braces not opening a sub- or superscript are a set's: ``{500, 1000}`` -> ``\\{...\\}``."""
    out, stack = [], []
    for i, ch in enumerate(text):
        escaped = i > 0 and text[i - 1] == "\\"
        if ch == "{" and not escaped:
            literal = not ((i > 0 and text[i - 1] in "_^}")
                           or re.search(r"\\[A-Za-z]+$", text[:i]))
            stack.append(literal)
            out.append("\\{" if literal else "{")
        elif ch == "}" and not escaped and stack:
            out.append("\\}" if stack.pop() else "}")
        else:
            out.append(ch)
    return "".join(out)


def to_tex(text: str) -> str:
    """One math run of a statement in TeX (see the module docstring; check it with
    :func:`well_formed`)."""
    tex = re.sub(r"\\\{([^{}]*)\}", r"\\setminus\\{\1\\}", text)  # [k]\{j}: set difference
    tex = _set_braces(tex)
    for raw, esc in (("%", r"\%"), ("#", r"\#"), ("&", r"\&"), ("$", r"\$")):
        tex = tex.replace(raw, esc)
    tex = re.sub(r"\\(?![A-Za-z{}%#&$|])", r"\\backslash ", tex)
    tex = re.sub(r"([A-Za-z]+)~(?=[^A-Za-z\s]|$)", r"\\tilde{\1}", tex)  # v~, Theta~(..)
    tex = _calls(tex, "binom", _binom)
    tex = _calls(tex, "sqrt", lambda inner: "\\sqrt{" + inner + "}")
    tex = _group(_group(tex, "_"), "^")
    tex = re.sub(r"(?<=[A-Za-z0-9)\]}])\s*\*\s*(?=[A-Za-z0-9(\[{\\])", r" \\cdot ", tex)
    for ascii_op, op in (("<=", r"\le "), (">=", r"\ge "), ("!=", r"\ne "), ("->", r"\to "),
                         ("||", r"\|"), ("~", r"\sim ")):
        tex = tex.replace(ascii_op, op)
    tex = _WORD.sub(_word, tex)
    return re.sub(r" +", " ", re.sub(r" ([_^}),])", r"\1", tex)).strip()


#: A formula longer than this is split where it may wrap (inline math does not wrap).
WRAP_AT = 40


def _chunks(source: str, tex: str) -> list[Segment]:
    """A long formula as several, each well formed, cut at spaces outside any bracket (before
    a relation or an operator, so that a line reads ``= Theta(...)``); the spaces between
    them are text, where the line may wrap."""
    if len(source) <= WRAP_AT:
        return [Segment(source, True, tex)]
    cuts, depth = [], 0
    for i, ch in enumerate(source):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if ch == " " and depth == 0:
            cuts.append(i)
    pieces, start = [], 0
    for cut in cuts:
        if cut - start >= WRAP_AT // 2:
            pieces.append(source[start:cut])
            start = cut + 1
    pieces.append(source[start:])
    pieces = [p for p in pieces if p]
    texs = [to_tex(p) for p in pieces]
    if len(pieces) < 2 or not all(well_formed(t) for t in texs):
        return [Segment(source, True, tex)]
    out: list[Segment] = []
    for piece, piece_tex in zip(pieces, texs, strict=True):
        if out:
            out.append(Segment(" ", False))
        out.append(Segment(piece, True, piece_tex))
    return out


def segments(statement: str) -> list[Segment]:
    """A statement as prose and math runs (their sources concatenate to the statement)."""
    tokens = _tokens(statement)
    kinds = ["s" if t.isspace() else _kind(t) for t in tokens]
    words = [i for i, k in enumerate(kinds) if k != "s"]
    for pos, i in enumerate(words):  # neutral tokens join the math next to them
        if kinds[i] == "n":
            near = [kinds[words[p]] for p in (pos - 1, pos + 1) if 0 <= p < len(words)]
            kinds[i] = "m" if "m" in near else "t"
    out: list[Segment] = []
    run: list[str] = []
    run_math = False

    def flush() -> None:
        if not run:
            return
        source = "".join(run)
        if run_math:
            core = source.rstrip()
            tail = source[len(core):]
            trailing = _TRAILING.search(core)
            if trailing:
                core, tail = core[:trailing.start()], core[trailing.start():] + tail
            tex = to_tex(core)
            if core and well_formed(tex) and not _PYTHON_REPR.search(core):
                out.extend(_chunks(core, tex))
            elif core:
                out.append(Segment(core, False))
            if tail:
                out.append(Segment(tail, False))
        else:
            out.append(Segment(source, False))
        run.clear()

    for i, (token, kind) in enumerate(zip(tokens, kinds, strict=True)):
        if kind == "s":
            # a space inside a math run stays in it when math follows
            following = next((kinds[j] for j in range(i + 1, len(kinds)) if kinds[j] != "s"),
                             "t")
            if run_math and following != "m":
                flush()
                run_math = False
            run.append(token)
            continue
        is_math = kind == "m"
        if is_math != run_math:
            flush()
            run_math = is_math
        run.append(token)
        if is_math and _TRAILING.search(token):
            flush()  # "S," ends a formula
            run_math = False
    flush()
    merged: list[Segment] = []
    for seg in out:  # adjacent text runs read as one
        if merged and not seg.math and not merged[-1].math:
            merged[-1] = Segment(merged[-1].source + seg.source, False)
        else:
            merged.append(seg)
    return merged
