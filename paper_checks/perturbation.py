"""Perturbed statements written before the measurement.

A ``holds`` on a paper must be able to fail: the check is run a second time on a *perturbed*
statement -- the next constant, a wrong exponent, a dropped hypothesis, a wrong domain -- and
must then return a non-``holds`` verdict.  A perturbation computed from the measured value
("the bound divided by its measured slack x 1.01") is rejected by construction and shows no
power, so a perturbation is data fixed at registration: :class:`Perturbed` names the
statement's parameters it changes and their perturbed values.  The check takes those
parameters as keyword arguments whose defaults are the printed values; the registry calls it
with the defaults (the printed statement) and with the overrides (the perturbed one), so the
perturbed statement exists before anything is measured.

Values must be plain data (numbers, fractions, strings, booleans, ``None`` and tuples or
frozensets of them): a callable could read the measurement, and is refused.

Examples
--------
>>> p = Perturbed("the exponent 1/2 replaced by 1/3", exponent=1 / 3)
>>> dict(p.overrides)
{'exponent': 0.3333333333333333}
>>> Perturbed("bound from the measurement", bound=lambda m: m / 1.01)
Traceback (most recent call last):
...
TypeError: Perturbed: bound= must be plain data fixed before the measurement ...
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

__all__ = ["Perturbed"]


def _plain(name: str, value: Any) -> Any:
    if value is None or isinstance(value, str | bool | Fraction | numbers.Integral | float):
        return value
    if isinstance(value, tuple | frozenset):
        for v in value:
            _plain(name, v)
        return value
    raise TypeError(f"Perturbed: {name}= must be plain data fixed before the measurement "
                    "(numbers, fractions, strings, booleans, None, tuples of them), got "
                    f"{'a function' if callable(value) else type(value).__name__}")


@dataclass(frozen=True)
class Perturbed:
    """A perturbed statement: what it says, and the statement parameters it changes.

    Parameters
    ----------
    description : str
        The perturbed statement in words ("the constant 3 replaced by 2").
    **overrides
        Statement parameters of the check and their perturbed values (plain data).
    """

    description: str
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, description: str, **overrides: Any) -> None:
        if not isinstance(description, str) or not description.strip():
            raise ValueError("Perturbed: the description says what the perturbed statement is")
        if not overrides:
            raise ValueError(f"Perturbed({description!r}) changes no statement parameter: name "
                             "the check's parameters it changes (e.g. exponent=1/3)")
        if "perturbed" in overrides:
            raise ValueError("Perturbed: 'perturbed' is not a statement parameter")
        object.__setattr__(self, "description", description.strip())
        object.__setattr__(self, "overrides", MappingProxyType(
            {k: _plain(k, v) for k, v in overrides.items()}))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.overrides.items())
        return f"Perturbed({self.description!r}, {args})"
