"""The defence of an accusation: the readings under which a printed statement would be right,
and what an independent attack on the verdict said.

Before a check says a printed statement is wrong (``erratum``, ``fails``, ``unproven``) or only
a different convention (``note``), it builds the statement's *defence* -- the best reading under
which the authors would be right -- along six lines, and says for each why it does not save the
statement (or why it does not apply):

``version``
    the other version of the paper (000 vs 001: camera-ready vs earlier), another chapter;
``regime``
    the asymptotic regime the statement may mean (large d, small eta, "up to constants");
``convention``
    the field's convention (0- vs 1-based, row vs column stochastic, natural vs base-2 logs);
``definitions``
    the paper's own definitions of its terms ("generalization error" = hinge loss in 002);
``parameters``
    the printed experimental parameters (K' = 5, batch sizes, the printed seeds or sizes);
``extraction``
    text-extraction loss: the documents were turned into text, so minus signs, sub- and
    superscripts, primes and Greek letters can vanish -- a "typo" that rests only on a symbol
    extraction may have dropped is not an erratum.

The verdict is then attacked by an independent reviewer who sees only the document and the
verdict (:class:`Attack`), and the outcome is recorded with the claim.

Examples
--------
>>> d = Defence(version="003 has one version.", regime="Exact statement, no regime.",
...             convention="No convention involved.", definitions="Uses Def. 1 as printed.",
...             parameters="No experimental parameter.",
...             extraction="The constant 3 is a digit, not a symbol extraction can drop.",
...             attack=Attack("independent reviewer (document and verdict only)", "2026-11-25",
...                           "upheld", "recomputed the count by hand: 12, not 13"))
>>> [a for a, _ in d.items()][:3], d.attack.outcome
(['version', 'regime', 'convention'], 'upheld')
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Literal, get_args

__all__ = ["ASPECTS", "ASPECT_TITLES", "Attack", "AttackOutcome", "Defence"]

AttackOutcome = Literal["upheld", "revised", "overturned"]
ATTACK_OUTCOMES: tuple[str, ...] = get_args(AttackOutcome)
#: The six readings every accusation answers, in the order they are shown.
ASPECTS: tuple[str, ...] = ("version", "regime", "convention", "definitions", "parameters",
                            "extraction")
ASPECT_TITLES = {
    "version": "the other version of the paper",
    "regime": "the asymptotic regime",
    "convention": "the field's convention",
    "definitions": "the paper's own definitions",
    "parameters": "the printed parameters",
    "extraction": "text-extraction loss",
}


def _text(name: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"Defence.{name} must say, in words, the reading considered and why it "
                         f"does (not) save the statement -- or why it does not apply; got "
                         f"{value!r}")
    return value.strip()


@dataclass(frozen=True)
class Attack:
    """What an independent reviewer said about a verdict, seeing only the document and it.

    Attributes
    ----------
    reviewer : str
        Who attacked it and what they saw ("independent reviewer, document and verdict only").
    date : str
        ISO date of the attack.
    outcome : {'upheld', 'revised', 'overturned'}
        ``upheld``: the verdict stands as registered; ``revised``: it stands after a change the
        attack asked for (kind, correction, defence); ``overturned``: the attack showed the
        printed statement right -- the claim's verdict was changed accordingly.
    summary : str
        What the reviewer argued and recomputed, and how the verdict answers it.
    """

    reviewer: str
    date: str
    outcome: AttackOutcome
    summary: str

    def __post_init__(self) -> None:
        _text("attack.reviewer", self.reviewer)
        _text("attack.summary", self.summary)
        if self.outcome not in ATTACK_OUTCOMES:
            raise ValueError(f"Attack.outcome must be one of {ATTACK_OUTCOMES}, "
                             f"got {self.outcome!r}")
        try:
            datetime.date.fromisoformat(self.date)
        except (TypeError, ValueError):
            raise ValueError(f"Attack.date must be an ISO date (YYYY-MM-DD), got {self.date!r}"
                             ) from None


@dataclass(frozen=True)
class Defence:
    """The readings under which a printed statement would be right, each answered.

    Every field is one paragraph: the reading considered and why it does not save the statement,
    or why it does not apply (module docstring).  ``attack`` records the independent attack on
    the verdict.
    """

    version: str
    regime: str
    convention: str
    definitions: str
    parameters: str
    extraction: str
    attack: Attack | None = None

    def __post_init__(self) -> None:
        for name in ASPECTS:
            object.__setattr__(self, name, _text(name, getattr(self, name)))
        if self.attack is not None and not isinstance(self.attack, Attack):
            raise TypeError(f"Defence.attack must be an Attack, got {type(self.attack).__name__}")

    def items(self) -> Iterator[tuple[str, str]]:
        """(aspect, answer) in :data:`ASPECTS` order."""
        for name in ASPECTS:
            yield name, getattr(self, name)

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: the six answers and the attack."""
        out: dict[str, object] = dict(self.items())
        out["attack"] = None if self.attack is None else {
            f.name: getattr(self.attack, f.name) for f in fields(self.attack)}
        return out


if set(ASPECTS) != set(ASPECT_TITLES):  # pragma: no cover - guards the vocabulary
    raise RuntimeError("ASPECT_TITLES must title every aspect")
