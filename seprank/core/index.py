"""The index every paper subpackage carries: the paper, its notation, statement -> function.

A paper subpackage (``seprank.d2w``, ``identifiability.masked``, ...) defines one
:class:`PaperIndex` named ``INDEX`` in its ``__init__`` and appends :meth:`PaperIndex.render` to
its docstring, so the same table is read by people (``help(seprank.d2w)``, the API reference)
and by the test that checks every function it names exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

__all__ = ["PaperIndex"]


def _table(header: tuple[str, str], rows: tuple[tuple[str, str], ...]) -> str:
    w0 = max(len(header[0]), *(len(a) for a, _ in rows))
    w1 = max(len(header[1]), *(len(b) for _, b in rows))
    rule = f"{'=' * w0}  {'=' * w1}"
    lines = [rule, f"{header[0]:<{w0}}  {header[1]}", rule]
    lines += [f"{a:<{w0}}  {b}" for a, b in rows]
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

    def render(self) -> str:
        """The index as reStructuredText (appended to the subpackage docstring)."""
        parts = [f"Paper: {self.key} -- {self.citation}.  Claims: ``{self.claims}-*``."]
        if self.notes:
            parts.append(f"Reading notes: ``{self.notes}`` (cited as \"notes §...\").")
        parts += ["", "Notation", "--------", "",
                  _table(("paper", "code"), self.notation), "",
                  "Statement -> function", "---------------------", "",
                  _table(("statement", "function"),
                         tuple((s, f":obj:`{f}`") for s, f in self.statements)), ""]
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
