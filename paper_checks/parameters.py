"""The printed parameters of a paper's experiments and definitions, in one table per paper.

A check of a figure or an experiment uses the parameters and definitions the paper prints
(K' = 5 in 002 §5; "generalization error" = the hinge loss of 002 eqs. 4-5), read from one
table that every claim of that paper shares, so two claims cannot read the same paper two
ways.  A check that must depart from a printed value says so through :meth:`deviate`, which
returns the value and a record of the departure for the claim's details; a test asserts that no
claim module writes a literal for a tabled parameter by hand.

Examples
--------
>>> table = PrintedParameters("002", K_prime=Printed(5.0, "§5, 'K' = 5'"),
...     generalization_error=Printed("hinge", "eqs. 4-5: the expected hinge loss"))
>>> table.value("K_prime")
5.0
>>> value, note = table.deviate("K_prime", 0.5, why="the 1-layer model saturates at K' = 5")
>>> value, note["printed"]
(0.5, 5.0)
>>> table.value("eta")
Traceback (most recent call last):
...
KeyError: "002 prints no parameter 'eta' in its table (known: K_prime, generalization_error)"
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Printed", "PrintedParameters"]


@dataclass(frozen=True)
class Printed:
    """A printed value and where the paper prints it.

    Attributes
    ----------
    value : Any
        The value (a number, or a string naming a definition).
    where : str
        Section, equation, table or figure caption that prints it.
    names : tuple of str
        Other identifiers the checks use for it (``("kprime",)``); the table's key is always
        one of them.
    """

    value: Any
    where: str
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.where, str) or not self.where.strip():
            raise ValueError("Printed.where says where the paper prints the value")


class PrintedParameters(Mapping[str, Printed]):
    """One paper's printed parameters and definitions (module docstring)."""

    def __init__(self, paper: str, **entries: Printed) -> None:
        if not entries:
            raise ValueError("PrintedParameters needs at least one printed parameter")
        for name, entry in entries.items():
            if not isinstance(entry, Printed):
                raise TypeError(f"{paper}: {name}= must be a Printed(value, where), got "
                                f"{type(entry).__name__}")
        self.paper = paper
        self._entries = dict(entries)

    def __getitem__(self, name: str) -> Printed:
        try:
            return self._entries[name]
        except KeyError:
            raise KeyError(f"{self.paper} prints no parameter {name!r} in its table (known: "
                           f"{', '.join(sorted(self._entries))})") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def value(self, name: str) -> Any:
        """The printed value of ``name``."""
        return self[name].value

    def deviate(self, name: str, value: Any, *, why: str) -> tuple[Any, dict[str, Any]]:
        """Use ``value`` instead of the printed one, and say so: returns ``value`` and a record
        (``{"parameter", "printed", "used", "where", "why"}``) for the claim's details."""
        if not isinstance(why, str) or not why.strip():
            raise ValueError(f"deviating from the printed {name} needs a reason (why=...)")
        entry = self[name]
        return value, {"parameter": name, "printed": entry.value, "used": value,
                       "where": entry.where, "why": why.strip()}

    def identifiers(self) -> dict[str, str]:
        """Every identifier a check may use for a tabled parameter -> its table key."""
        out = {name: name for name in self._entries}
        for name, entry in self._entries.items():
            out.update({alias: name for alias in entry.names})
        return out
