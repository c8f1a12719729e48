"""Every exception :mod:`identifiability` raises beyond ``ValueError`` / ``TypeError``, in one
place (networkx's ``exception.py``).  The module that raises an error re-exports it.

================================  ========================================================
:class:`AssumptionError`          a model outside the assumptions of the statement applied
:class:`InvalidRecoveryError`     a recovered model that fails its own checks
:class:`UnreliableEstimateError`  an estimate from data too poor to trust
:class:`NotNormalisableError`     a kernel estimate that cannot be normalised
================================  ========================================================
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AssumptionError",
    "InvalidRecoveryError",
    "NotNormalisableError",
    "UnreliableEstimateError",
]


class NotNormalisableError(ValueError):
    """The kernel implied by a classifier (eq. 2.12) does not integrate in z'."""


class UnreliableEstimateError(ValueError):
    """The sample does not determine the parameters (or the projected model is invalid);
    ``estimate`` holds the :class:`~identifiability.masked.estimation.MomentEstimate` with its
    ``status`` and ``problems``."""

    def __init__(self, message: str, estimate: Any) -> None:
        super().__init__(message)
        self.estimate = estimate
        self.problems = estimate.problems


class InvalidRecoveryError(ValueError):
    """The recovered parameters are not a valid model (wrong k, a predictor that is not an
    exact optimal predictor, a failed decomposition).  ``model`` holds what was recovered
    (a :class:`~identifiability.masked.recovery.RecoveredModel`), ``problems`` says what is
    wrong with it."""

    def __init__(self, message: str, model: Any) -> None:
        super().__init__(message)
        self.model = model
        self.problems = model.problems


class AssumptionError(ValueError):
    """A parameter violates an assumption of 004 §2.2; ``assumption`` is its key ("A5"), and
    the message opens with its ``description``
    (:data:`~identifiability.masked.assumptions.ASSUMPTIONS`)."""

    def __init__(self, assumption: str, message: str, *, description: str | None = None
                 ) -> None:
        self.assumption = assumption
        super().__init__(f"{description or assumption} violated: {message}")
