r"""Certified brackets on the ε-rank of a matrix.

The ε-rank (Alon, Lee, Shraibman & Vempala 2013; used in paper 001, App. C.1.2, and 000) is

.. math::

    \operatorname{rank}_\varepsilon(M) = \min\{\operatorname{rank}(B) :
        |M_{ij} - B_{ij}| \le \varepsilon \text{ for all } i, j\}

(absolute version, paper 000), or with :math:`\varepsilon |M_{ij}|` on the right (relative
version, paper 001).  Computing it exactly is hard in general, so :func:`eps_rank` returns a
bracket ``lower <= rank_eps(M) <= upper`` and states how each side was obtained.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from seprank.core.inputs import as_float_matrix
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.rank import float_rank_bytes, matrix_shape
from seprank.core.results import Certificate, CertifiedResult
from seprank.core.validation import check_float

__all__ = ["EpsRankResult", "eps_rank"]

EpsMode = Literal["absolute", "relative"]

#: Safety factor p(m, n) = _SV_ERROR_FACTOR * max(m, n) in the singular-value error bound
#: |computed sigma_i - sigma_i| <= p(m, n) * eps_machine * sigma_1 of a backward-stable SVD.
_SV_ERROR_FACTOR = 10.0


@dataclass(frozen=True, repr=False)
class EpsRankResult(CertifiedResult):
    """A certified bracket ``lower <= eps-rank <= upper``.

    Attributes
    ----------
    lower, upper : int
        The bracket.
    eps : float
        The tolerance.
    mode : {'absolute', 'relative'}
        ``|M - B| <= eps`` entrywise, or ``|M - B| <= eps * |M|`` entrywise.
    lower_method, upper_method : str
        How each side was proved.
    singular_values : numpy.ndarray
        The singular values of ``M``.
    details : Mapping
        Thresholds and floating-point safety margins used.
    certifies : {'exact', 'lower_bound'}
        ``'exact'`` when the bracket is closed (the ε-rank is proved); otherwise
        ``'lower_bound'``: ``lower`` is proved (and ``upper`` is a proved upper bound).
    """

    lower: int
    upper: int
    eps: float
    mode: EpsMode
    lower_method: str
    upper_method: str
    singular_values: npt.NDArray[np.float64] = field(compare=False)
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)
    certifies: Certificate = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "certifies", "exact" if self.closed else "lower_bound")
        super().__post_init__()

    @property
    def bracket(self) -> tuple[int, int]:
        """``(lower, upper)``."""
        return (self.lower, self.upper)

    @property
    def closed(self) -> bool:
        """True when the bracket pins the ε-rank down (lower == upper)."""
        return self.lower == self.upper

    def _repr_info(self) -> dict[str, Any]:
        return {"lower": self.lower, "upper": self.upper, "eps": self.eps, "mode": self.mode,
                "certifies": self.certifies, "lower_method": self.lower_method,
                "upper_method": self.upper_method}

    def summary(self) -> str:
        """One line: the mode, the bracket and ε.

        Returns
        -------
        str
            One line.
        """
        return f"{self.mode} ε-rank in [{self.lower}, {self.upper}] (ε = {self.eps:.3g})"


def eps_rank(M: Any, eps: float, *, mode: EpsMode = "absolute") -> EpsRankResult:
    r"""Bracket the ε-rank of ``M``: certified ``lower <= rank_eps(M) <= upper``.

    Parameters
    ----------
    M : array_like
        A finite 2-D real matrix (exact inputs are converted to float64).
    eps : float
        The entrywise tolerance, > 0.
    mode : {'absolute', 'relative'}, keyword-only
        ``'absolute'`` (000): :math:`|M_{ij} - B_{ij}| \le \varepsilon`.
        ``'relative'`` (001): :math:`|M_{ij} - B_{ij}| \le \varepsilon |M_{ij}|`.

    Returns
    -------
    EpsRankResult

    Notes
    -----
    **Lower side.**  If :math:`|E_{ij}| \le \varepsilon` entrywise then
    :math:`\|E\|_2 \le \|E\|_F \le \varepsilon\sqrt{mn}`; in relative mode
    :math:`\|E\|_2 \le \| |E| \|_2 \le \varepsilon \| |M| \|_2` (the spectral norm is monotone on
    entrywise non-negative matrices).  By Weyl's inequality a matrix ``B = M - E`` of rank ``r``
    has :math:`\sigma_{r+1}(M) \le \|E\|_2`, so
    :math:`\operatorname{rank}_\varepsilon(M) \ge \#\{i : \sigma_i(M) > \tau\}` with
    :math:`\tau` that norm bound.  Also, ``B`` must be nonzero when some
    :math:`|M_{ij}| > \varepsilon` (absolute) or some :math:`M_{ij} \ne 0` with
    :math:`\varepsilon < 1` (relative).  Computed singular values are trusted only up to
    :math:`10 \max(m,n) \epsilon_{mach} \sigma_1`, which is subtracted before counting.

    **Upper side.**  The smallest ``k`` for which the truncated SVD
    :math:`B_k = U_k \Sigma_k V_k^T` meets the entrywise condition, after adding a rigorous
    bound :math:`(k+2)\epsilon_{mach} (|U_k|\Sigma_k|V_k|^T)_{ij}` on the rounding error of
    forming :math:`B_k`; :math:`B_k` has rank at most ``k`` exactly.  If no ``k`` passes,
    ``upper = min(m, n)`` (take ``B = M``).  The truncated SVD is optimal in spectral norm, not
    in max norm, so the upper side may be loose.

    References
    ----------
    .. [1] 001, App. C.1.2 (definition) and Lemma 10;
       000, eq. 7 (absolute ε).  Notes: docs/notes/seed_incontext_bias.md §4.4.

    Examples
    --------
    >>> import numpy as np
    >>> M = np.diag([1.0, 0.5, 1e-6])
    >>> r = eps_rank(M, 1e-3)
    >>> r.bracket, r.closed
    ((2, 2), True)
    """
    if mode not in ("absolute", "relative"):
        raise ValueError(f"mode must be 'absolute' or 'relative', got {mode!r}")
    eps = check_float("eps", eps, positive=True)
    shape = matrix_shape(M)
    if shape is not None:  # the float copy, |M|, the allowed deviations, the SVD
        guard_memory(float_rank_bytes(shape, M) + 3 * array_bytes(shape, np.float64),
                     what=f"the eps-rank of a {shape[0]:,} x {shape[1]:,} matrix (SVD, "
                          "float copies and the truncations)", fix="use a smaller matrix")
    arr = as_float_matrix(M, "M")
    if arr.dtype.kind == "c":
        raise TypeError("eps_rank is defined here for real matrices; got a complex matrix")
    m, n = arr.shape
    full = min(m, n)
    if full == 0:
        return EpsRankResult(0, 0, float(eps), mode, "empty matrix", "empty matrix",
                             np.zeros(0))
    u_mach = float(np.finfo(np.float64).eps)
    with np.errstate(over="ignore", invalid="ignore"):
        U, s, Vt = np.linalg.svd(arr, full_matrices=False)
    if not np.all(np.isfinite(s)):
        raise OverflowError("the singular values of M overflow double precision (entries near "
                            "1e308); rescale M and eps by the same factor")
    sv_error = _SV_ERROR_FACTOR * max(m, n) * u_mach * float(s[0])
    abs_M = np.abs(arr)
    if mode == "absolute":
        tau = float(eps) * float(np.sqrt(m * n))
        norm_desc = f"eps*sqrt(mn) = {tau:.3g}"
        must_be_nonzero = bool(abs_M.max() > eps)
        allowed = np.full_like(arr, float(eps))
    else:
        norm_abs = float(np.linalg.norm(abs_M, 2))
        tau = float(eps) * norm_abs * (1 + _SV_ERROR_FACTOR * max(m, n) * u_mach)
        norm_desc = f"eps*|| |M| ||_2 = {tau:.3g}"
        must_be_nonzero = bool(eps < 1 and abs_M.max() > 0)
        allowed = float(eps) * abs_M
    sv_count = int(np.count_nonzero(s - sv_error > tau))
    if sv_count >= 1 or not must_be_nonzero:
        lower = sv_count
        lower_method = (
            f"Weyl: #{{sigma_i > {norm_desc}}} (after a float margin {sv_error:.2g} on the "
            "singular values)"
        )
    else:
        lower = 1
        lower_method = "an entry exceeds the tolerance, so any admissible B is nonzero"

    upper, upper_method = full, "trivial: B = M has rank <= min(m, n)"
    if not must_be_nonzero:
        upper, upper_method = 0, "B = 0 is admissible (every entry within tolerance)"
    else:
        B = np.zeros_like(arr)
        absB = np.zeros_like(arr)
        for k in range(1, full + 1):
            col, row = U[:, k - 1] * s[k - 1], Vt[k - 1]
            B += np.outer(col, row)
            absB += np.outer(np.abs(col), np.abs(row))
            if k < lower:
                continue
            err = np.abs(arr - B) + (k + 2) * u_mach * (absB + np.abs(arr))
            if np.all(err <= allowed):
                upper = k
                upper_method = (
                    f"truncated SVD of rank {k}: max entry error {np.abs(arr - B).max():.3g} "
                    "within the tolerance (rounding bound included)"
                )
                break
    return EpsRankResult(
        lower=lower,
        upper=upper,
        eps=float(eps),
        mode=mode,
        lower_method=lower_method,
        upper_method=upper_method,
        singular_values=s,
        details={"spectral_threshold": tau, "singular_value_margin": sv_error},
    )
