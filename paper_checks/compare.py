"""One :class:`~paper_checks.ledger.ClaimResult` builder per comparison kind.

A check measures something and compares it with the printed statement in one of four ways; each
builder takes the two sides of that comparison, decides the verdict with
:func:`~paper_checks.ledger.judge` and builds the matching :class:`~paper_checks.ledger.Margin`,
so a claim states *what* it compares instead of spelling the verdict and the margin again:

:func:`exact_result`
    an exact equality (integers, ranks, rationals, symbolic identities): ``Margin.exact``.
:func:`identity_result`
    an identity evaluated in floating point: an error below a tolerance, ``Margin.exact`` saying
    the tolerance and the error measured.
:func:`ratio_result`
    an inequality ``value <= bound`` (or ``>=``): ``Margin.ratio``.
:func:`tolerance_result`
    a printed number reproduced to a tolerance, ``|value - target| <= tol``:
    ``Margin.tolerance``.

Every builder accepts

* ``holds`` -- the verdict of a check whose statement has several parts (every row of a table,
  a second condition): the comparison then supplies the margin only.  The builders of an
  inequality refuse ``holds=True`` when their own comparison fails (a ``holds`` whose margin says
  the statement is violated is a contradiction, not a verdict);
* ``corrected`` -- whether the corrected statement holds (``judge(printed, corrected)``: an
  ``erratum`` when the printed one fails); with ``kind='convention'`` or ``'notation'`` it is
  the statement under the paper's own reading, and its holding makes a ``note``
  (:func:`~paper_checks.ledger.judge_reading`);
* ``measured`` / ``reference_value`` -- what the report shows when it differs from the numbers
  compared;
* the other :class:`~paper_checks.ledger.ClaimResult` fields unchanged (``details``, ``kind``,
  ``independent``, ``figures``, ``certificates``).

The result is exactly the :class:`~paper_checks.ledger.ClaimResult` the check would build by hand.

Examples
--------
>>> r = ratio_result(12, 15, what="rank / bound")
>>> r.verdict, r.measured, r.reference_value, round(r.margin.log10_slack, 3)
('holds', 12, 15, 0.097)
>>> r == ClaimResult(measured=12, reference_value=15, verdict=judge(12 <= 15),
...                  margin=Margin.ratio(12, 15, what="rank / bound"))
True
>>> exact_result(35, 35, what="integer ranks").verdict
'holds'
>>> identity_result(3e-15, 1e-10).margin.what
'identity to 1e-10 (measured 3.0e-15)'
>>> tolerance_result(0.85493, 0.854, 0.001, what="chi2").verdict
'holds'
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from paper_checks.ledger import (
    NOTE_KINDS,
    ClaimResult,
    Independent,
    Kind,
    Margin,
    judge,
    judge_reading,
)

__all__ = ["exact_result", "identity_result", "ratio_result", "tolerance_result"]


class _Same:
    """Default of ``measured`` / ``reference_value``: the value compared."""

    def __repr__(self) -> str:
        return "<the value compared>"


SAME: Any = _Same()


def _result(measured: Any, reference_value: Any, printed_holds: bool, corrected: bool | None,
            margin: Margin, details: Mapping[str, Any] | None, kind: Kind | None,
            independent: Independent | None, figures: Mapping[str, Any] | None,
            certificates: Mapping[str, Mapping[str, Any]] | None) -> ClaimResult:
    # a convention or notation: the paper's own reading is the "corrected" one, and its
    # holding makes a note, not an erratum
    verdict = (judge_reading(printed_holds, bool(corrected)) if kind in NOTE_KINDS
               else judge(printed_holds, corrected))
    return ClaimResult(measured=measured, reference_value=reference_value,
                       verdict=verdict, details=details or {},
                       figures=figures or {}, kind=kind, margin=margin,
                       independent=independent, certificates=certificates or {})


def _verdict(compared: bool, holds: bool | None, what: str) -> bool:
    if holds is None:
        return compared
    if not isinstance(holds, (bool, np.bool_)):
        raise TypeError(f"holds must be a bool or None, got {type(holds).__name__}; pass "
                        "bool(...) of the check's combined condition")
    if holds and not compared:
        raise ValueError(f"holds=True but the comparison it reports ({what}) fails: the margin "
                         "would contradict the verdict; include the comparison in holds")
    return bool(holds)


def exact_result(measured: Any, reference_value: Any, *, what: str, holds: bool | None = None,
                 corrected: bool | None = None, note: str = "",
                 details: Mapping[str, Any] | None = None, kind: Kind | None = None,
                 independent: Independent | None = None, figures: Mapping[str, Any] | None = None,
                 certificates: Mapping[str, Mapping[str, Any]] | None = None) -> ClaimResult:
    """An exact equality: the printed statement holds when ``measured == reference_value``.

    Parameters
    ----------
    measured, reference_value : Any
        What was measured and what the paper (or the mathematics) says.
    what : str
        What was compared exactly (``Margin.exact``: no room at all).
    holds : bool, optional
        The verdict of a check of several equalities (``measured`` / ``reference_value`` are then
        what the report shows, e.g. a table and ``"0 wrong"``).
    corrected : bool, optional
        Whether the corrected statement holds (``erratum`` when the printed one fails).
    note : str
        The margin's note.
    details, kind, independent, figures, certificates
        As in :class:`~paper_checks.ledger.ClaimResult`.

    Examples
    --------
    >>> exact_result(4, 4, what="integers").margin
    Margin(log10_slack=0.0, what='integers', note='')
    >>> exact_result({"wrong": 0}, "0 wrong", holds=True, what="0 errors on every word").verdict
    'holds'
    """
    printed = measured == reference_value if holds is None else _verdict(True, holds, what)
    return _result(measured, reference_value, bool(printed), corrected, Margin.exact(what, note),
                   details, kind, independent, figures, certificates)


def identity_result(error: float, tol: float, *, what: str = "identity", strict: bool = True,
                    measured: Any = SAME, reference_value: Any = 0.0, holds: bool | None = None,
                    corrected: bool | None = None, note: str = "",
                    details: Mapping[str, Any] | None = None, kind: Kind | None = None,
                    independent: Independent | None = None,
                    figures: Mapping[str, Any] | None = None,
                    certificates: Mapping[str, Mapping[str, Any]] | None = None) -> ClaimResult:
    """An identity evaluated in floating point: it holds when ``error < tol`` (``<=`` with
    ``strict=False``); the margin is exact and says ``"<what> to <tol> (measured <error>)"``.

    Parameters
    ----------
    error : float
        The largest deviation from the identity.
    tol : float
        The tolerance (round-off of the computation).
    what : str
        What holds to ``tol`` (``"identity"``, ``"identities"``, ``"exact recovery"``, ...).
    strict : bool
        ``error < tol`` (default) or ``error <= tol``.
    measured, reference_value : Any
        Shown in the report; default ``error`` and ``0.0``.
    holds, corrected, note, details, kind, independent, figures, certificates
        As in :func:`exact_result`.

    Examples
    --------
    >>> r = identity_result(2e-13, 1e-10, what="identities")
    >>> r.verdict, r.measured, r.reference_value, r.margin.what
    ('holds', 2e-13, 0.0, 'identities to 1e-10 (measured 2.0e-13)')
    """
    compared = error < tol if strict else error <= tol
    label = f"{what} to {tol:g} (measured {error:.1e})"
    return _result(error if measured is SAME else measured, reference_value,
                   _verdict(bool(compared), holds, label), corrected, Margin.exact(label, note),
                   details, kind, independent, figures, certificates)


def ratio_result(value: float, bound: float, *, what: str, upper: bool = True,
                 strict: bool = False, measured: Any = SAME, reference_value: Any = SAME,
                 holds: bool | None = None, corrected: bool | None = None, note: str = "",
                 details: Mapping[str, Any] | None = None, kind: Kind | None = None,
                 independent: Independent | None = None, figures: Mapping[str, Any] | None = None,
                 certificates: Mapping[str, Mapping[str, Any]] | None = None) -> ClaimResult:
    """An inequality: ``value <= bound`` (``upper``) or ``value >= bound``, both positive;
    the margin is ``Margin.ratio(value, bound)``.

    Parameters
    ----------
    value, bound : float
        The two sides, both > 0.
    what : str
        What the ratio is (``"rank / bound"``).
    upper : bool
        ``value <= bound`` (default) or ``value >= bound``.
    strict : bool
        ``<`` / ``>`` instead of ``<=`` / ``>=``.
    measured, reference_value : Any
        Shown in the report; default ``value`` and ``bound``.
    holds, corrected, note, details, kind, independent, figures, certificates
        As in :func:`exact_result`; ``holds=True`` is refused when the inequality fails.

    Examples
    --------
    >>> r = ratio_result(0.6, 0.5, what="min BC / 1/2", upper=False)
    >>> r.verdict, round(r.margin.log10_slack, 3)
    ('holds', 0.079)
    >>> ratio_result(3, 2, what="rank / bound", corrected=True).verdict
    Traceback (most recent call last):
    ValueError: an 'erratum' verdict must show both measurements: ...
    """
    cmp: Callable[[Any, Any], bool]
    if upper:
        cmp = operator.lt if strict else operator.le
    else:
        cmp = operator.gt if strict else operator.ge
    compared = bool(cmp(value, bound))
    margin = Margin.ratio(value, bound, what=what, upper=upper, note=note)
    return _result(value if measured is SAME else measured,
                   bound if reference_value is SAME else reference_value,
                   _verdict(compared, holds, what), corrected, margin, details, kind,
                   independent, figures, certificates)


def tolerance_result(value: float, target: float, tol: float, *, what: str,
                     measured: Any = SAME, reference_value: Any = SAME,
                     holds: bool | None = None, corrected: bool | None = None, note: str = "",
                     details: Mapping[str, Any] | None = None, kind: Kind | None = None,
                     independent: Independent | None = None,
                     figures: Mapping[str, Any] | None = None,
                     certificates: Mapping[str, Mapping[str, Any]] | None = None
                     ) -> ClaimResult:
    """A printed number reproduced to a tolerance: ``|value - target| <= tol``; the margin is
    ``Margin.tolerance(value, target, tol)``.

    Parameters
    ----------
    value, target : float
        The measured and the printed number.
    tol : float
        The window (a unit of the last printed digit, a relative slack times the target).
    what : str
        What was compared.
    measured, reference_value : Any
        Shown in the report; default ``value`` and ``target``.
    holds, corrected, note, details, kind, independent, figures, certificates
        As in :func:`exact_result`; ``holds=True`` is refused outside the window.

    Examples
    --------
    >>> tolerance_result(0.8565, 0.854, 0.001, what="chi2_red within 0.001", holds=True)
    Traceback (most recent call last):
    ValueError: holds=True but the comparison it reports (chi2_red within 0.001) fails: ...
    """
    compared = abs(value - target) <= tol
    margin = Margin.tolerance(value, target, tol, what=what, note=note)
    return _result(value if measured is SAME else measured,
                   target if reference_value is SAME else reference_value,
                   _verdict(bool(compared), holds, what), corrected, margin, details, kind,
                   independent, figures, certificates)
