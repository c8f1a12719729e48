"""Mixins shared by the frozen result dataclasses of seprank and identifiability."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["FrozenDetails", "RankValued"]


class FrozenDetails:
    """Makes the ``details`` mapping of a frozen dataclass read-only after construction."""

    details: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))


class RankValued(FrozenDetails):
    """``int(result)`` and ``sequence[result]`` give ``result.rank``."""

    rank: int

    def __int__(self) -> int:
        return int(self.rank)

    def __index__(self) -> int:
        return int(self.rank)
