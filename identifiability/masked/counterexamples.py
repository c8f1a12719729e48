r"""Non-identifiability, constructively: pairs of different models with equal predictors.

* :func:`rotation_about_ones`, :func:`rotation_twin` — Theorem 4 / Theorem 6: an orthogonal
  :math:`R` with :math:`R\mathbf 1 = \mathbf 1` gives :math:`\tilde O = OR`,
  :math:`\tilde T = R^\top T R` with :math:`\tilde\phi = R^\top\phi` (because
  :math:`\mathbf 1^\top R^\top = \mathbf 1^\top`), hence
  :math:`\tilde O\tilde T^s\tilde\phi = OT^s\phi` for every gap s, in both time directions.
* :func:`pairwise_twin` — the single task ``x2|x1`` with any R such that
  :math:`R\mathbf 1 = \mathbf 1`, :math:`\mathbf 1^\top R = \mathbf 1^\top`:
  :math:`\tilde T = R^{-1}TR^{-\top}` (the route for k = 2, notes D.3).
* :func:`theorem6_printed`, :func:`theorem6_regenerated` — the example (2.47) and its exact
  regeneration with a 0.1 rad rotation about (1, 1, 1).
* :func:`claim3_pair` — Claim 1/3: :math:`\tilde T = M^{-1}R(2\pi/t)^{-1}M\,T` with
  :math:`\tilde T^t = T^t`.
* :func:`householder_twin` — Lemma 7 / (2.58): :math:`HM` has the same posterior as M and
  :math:`\tilde T = (HM)^+MT` gives the same ``x2|x1`` predictor, with column sums -1.
* :func:`lemma7_translation` — the d > k translations that Lemma 7 as printed misses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.linalg import expm

from identifiability.masked.hmm import HMM, GaussianHMM
from seprank.core import (
    SeedLike,
    as_generator,
    check_array,
    check_instance,
    check_int,
    validated,
)
from seprank.core.types import FloatArray

__all__ = [
    "THEOREM6_PRINTED",
    "HouseholderTwin",
    "claim3_pair",
    "claim3_rotation_factor",
    "householder_twin",
    "lemma7_translation",
    "pairwise_twin",
    "rotation_about_ones",
    "rotation_twin",
    "theorem6_printed",
    "theorem6_regenerated",
]


#: The matrices of (2.47), as printed (8 decimals), paper 004 §2.2.3.2.
THEOREM6_PRINTED: dict[str, FloatArray] = {
    "O": np.array([[0.23016003, 0.3549092, 0.16493077], [0.30716059, 0.06962305, 0.37321636],
                   [0.2580854, 0.26965425, 0.22226035], [0.20459398, 0.3058135, 0.23959252]]),
    "O_tilde": np.array([[0.24120928, 0.35062535, 0.15816537],
                         [0.28937626, 0.07433156, 0.38629218],
                         [0.26077674, 0.26749114, 0.22173212],
                         [0.20863772, 0.30755194, 0.23381033]]),
    "T": np.array([[0.56893146, 0.35811118, 0.07295736], [0.35811118, 0.10805638, 0.53383243],
                   [0.07295736, 0.53383243, 0.39321021]]),
    "T_tilde": np.array([[0.59740926, 0.30452087, 0.09806987],
                         [0.30452087, 0.1331689, 0.56231024],
                         [0.09806987, 0.56231024, 0.33961989]]),
}
for _v in THEOREM6_PRINTED.values():
    _v.setflags(write=False)
#: Stochasticity tolerance that 8-decimal printed matrices need.
PRINTED_ATOL = 1e-7


def _rotation_k(name: str, value: Any) -> int:
    k = check_int(name, value, None)
    if k < 3:
        raise ValueError(f"{name} = {k}: for k < 3 the only orthogonal R with R1 = 1 are I and "
                         "the swap; use pairwise_twin with a non-orthogonal R (notes D.3)")
    return k


@validated(theta="real", k=_rotation_k, seed="seed")
def rotation_about_ones(
    theta: float, k: int = 3, *, seed: SeedLike = None,
) -> FloatArray:
    r"""An orthogonal :math:`R = \exp(\theta K)` with :math:`R\mathbf 1 = R^\top\mathbf 1 =
    \mathbf 1`.

    For k = 3 this is the Rodrigues rotation by ``theta`` (right-handed) about
    :math:`u = (1,1,1)/\sqrt 3`: :math:`R = I + \sin\theta\,K + (1-\cos\theta)K^2` with K the
    cross-product matrix of u (Theorem 6, Claim 2).  For k > 3, K is a random skew-symmetric
    matrix (from ``seed``) with :math:`K\mathbf 1 = 0` and spectral norm 1.

    Parameters
    ----------
    theta : float
        The rotation angle.
    k : int, default 3
        The dimension.
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the skew-symmetric generator (k > 3).

    Returns
    -------
    numpy.ndarray
        The k x k orthogonal R.

    Examples
    --------
    >>> R = rotation_about_ones(0.1)
    >>> bool(np.allclose(R @ np.ones(3), 1) and np.allclose(R.T @ R, np.eye(3)))
    True
    """
    if k == 3:
        u = np.ones(3) / np.sqrt(3)
        K = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
        return np.asarray(np.eye(3) + np.sin(theta) * K + (1 - np.cos(theta)) * K @ K)
    rng = as_generator(seed)
    S = rng.standard_normal((k, k))
    Pi = np.eye(k) - np.ones((k, k)) / k
    K = Pi @ (S - S.T) @ Pi
    K /= np.linalg.norm(K, 2)
    return np.asarray(expm(theta * K))


@validated(model=lambda n, v: check_instance(n, v, HMM, expected="an HMM",
                                             hint="HMM(O, T) or HMM.random(d, k)"),
           R=lambda n, v: check_array(n, v, ndim=2))
def rotation_twin(model: HMM, R: Any, **kwargs: Any) -> HMM:
    r"""Theorem 4/6 twin :math:`(\tilde O, \tilde T) = (OR, R^\top T R)` (validated).

    Parameters
    ----------
    model : HMM
        The model.
    R : array_like
        An orthogonal k x k matrix fixing the all-ones vector.
    **kwargs
        Passed to :class:`HMM` (``atol``, ``require``; default the model's ``atol``).

    Returns
    -------
    HMM
        The twin :math:`(OR, R^\top T R)`.

    Raises
    ------
    ValueError
        If R is not orthogonal with :math:`R\mathbf 1 = \mathbf 1`.
    AssumptionError
        If the twin leaves the model class (e.g. negative entries: use a smaller angle).

    Examples
    --------
    >>> from identifiability.masked.tasks import optimal_predictor
    >>> m = HMM.random(5, 3, seed=0, concentration=5.0)
    >>> twin = rotation_twin(m, rotation_about_ones(0.05))
    >>> f, g = optimal_predictor(m, "x4|x1"), optimal_predictor(twin, "x4|x1")
    >>> bool(np.max(np.abs(f.table() - g.table())) < 1e-14)
    True
    """
    Rm = np.asarray(R, dtype=float)
    k = model.k
    if Rm.shape != (k, k) or not np.allclose(Rm.T @ Rm, np.eye(k), atol=1e-12) \
            or not np.allclose(Rm @ np.ones(k), 1, atol=1e-12):
        raise ValueError("R must be a k x k orthogonal matrix with R 1 = 1")
    return HMM(model.O @ Rm, Rm.T @ model.T @ Rm, **{"atol": model.atol, **kwargs})


@validated(R=lambda n, v: check_array(n, v, ndim=2))
def pairwise_twin(model: HMM | GaussianHMM, R: Any, **kwargs: Any) -> HMM:
    r"""Same ``x2|x1`` predictor: :math:`(\tilde O, \tilde T) = (OR, R^{-1}TR^{-\top})` for
    any invertible R with :math:`R\mathbf 1 = \mathbf 1` and :math:`\mathbf 1^\top R =
    \mathbf 1^\top` (HMM only; validated).

    Parameters
    ----------
    model : HMM
        The model (a GaussianHMM is refused).
    R : array_like
        An invertible k x k matrix with unit row and column sums.
    **kwargs
        Passed to :class:`HMM` (``atol``, ``require``; default the model's ``atol``).

    Returns
    -------
    HMM
        The twin :math:`(OR, R^{-1}TR^{-\top})`.

    Examples
    --------
    >>> m = HMM([[0.6, 0.2], [0.4, 0.8]], [[0.7, 0.3], [0.3, 0.7]])
    >>> R = np.array([[1.1, -0.1], [-0.1, 1.1]])
    >>> twin = pairwise_twin(m, R)
    >>> from identifiability.masked.tasks import optimal_predictor
    >>> bool(np.allclose(optimal_predictor(m, "x2|x1").table(),
    ...                  optimal_predictor(twin, "x2|x1").table(), atol=1e-15))
    True
    """
    if not isinstance(model, HMM):
        raise TypeError(f"model must be an HMM: pairwise_twin is the HMM construction of "
                        f"Theorem 4, got {type(model).__name__}")
    Rm = np.asarray(R, dtype=float)
    k = model.k
    if Rm.shape != (k, k) or not np.allclose(Rm @ np.ones(k), 1, atol=1e-12) \
            or not np.allclose(np.ones(k) @ Rm, 1, atol=1e-12):
        raise ValueError("R must be k x k with R 1 = 1 and 1^T R = 1^T")
    Ri = np.linalg.inv(Rm)
    return HMM(model.O @ Rm, Ri @ model.T @ Ri.T, **{"atol": model.atol, **kwargs})


def theorem6_printed(*, atol: float = PRINTED_ATOL) -> tuple[HMM, HMM]:
    """The two HMMs of (2.47), as printed (validated with ``atol`` = 1e-7: 8 decimals).

    Parameters
    ----------
    atol : float, keyword-only
        Tolerance of the HMM validation (default 1e-7).

    Returns
    -------
    (HMM, HMM)
        The model and its twin as printed.

    References
    ----------
    .. [1] 004, Theorem 6, example (2.47).

    Examples
    --------
    >>> a, b = theorem6_printed()
    >>> from identifiability.masked.tasks import optimal_predictor
    >>> diff = optimal_predictor(a, "x2|x1").table() - optimal_predictor(b, "x2|x1").table()
    >>> bool(np.abs(diff).max() < 1e-8)        # equal up to the 8 printed decimals
    True
    """
    P = THEOREM6_PRINTED
    return HMM(P["O"], P["T"], atol=atol), HMM(P["O_tilde"], P["T_tilde"], atol=atol)


@validated(theta="real")
def theorem6_regenerated(theta: float = 0.1, *, atol: float = PRINTED_ATOL
                         ) -> tuple[HMM, HMM, FloatArray]:
    r"""(2.47) regenerated: the printed (O, T) and :math:`(OR, R^\top TR)`, R = R_u(theta).

    Returns ``(model, twin, R)``.  The printed (O, T) satisfy A5 only to 8 decimals, hence the
    default ``atol``.

    Parameters
    ----------
    theta : float, default 0.1
        The rotation angle of :math:`R_u`.
    atol : float, keyword-only
        Tolerance of the HMM validation (default 1e-7).

    Returns
    -------
    model, twin : HMM
        The printed (O, T) and the regenerated twin.
    R : numpy.ndarray
        The rotation.

    References
    ----------
    .. [1] 004, Theorem 6 proof, Claim 2, (2.47); notes D.5.

    Examples
    --------
    >>> m, twin, R = theorem6_regenerated(0.1)
    >>> bool(np.abs(twin.O - THEOREM6_PRINTED["O_tilde"]).max() < 1e-8)
    True
    """
    R = rotation_about_ones(theta)
    m = HMM(THEOREM6_PRINTED["O"], THEOREM6_PRINTED["T"], atol=atol)
    return m, HMM(m.O @ R, R.T @ m.T @ R, atol=atol), R


_CLAIM3_M = np.array([[1.0, -0.5, -0.5], [0.0, -np.sqrt(3) / 2, np.sqrt(3) / 2],
                      [2 ** -0.5, 2 ** -0.5, 2 ** -0.5]])
_CLAIM3_P = np.array([[0.0, 0, 1], [1, 0, 0], [0, 1, 0]])


@validated(t="count")
def claim3_rotation_factor(t: int) -> FloatArray:
    r""":math:`M^{-1}R(2\pi/t)^{-1}M`, the matrix the printed sentence calls non-negative.

    Without the factor T it has negative entries (Claim 3 proof, after (2.51)).

    Parameters
    ----------
    t : int
        The horizon t >= 3.

    Returns
    -------
    numpy.ndarray
        The 3 x 3 factor.

    Examples
    --------
    >>> round(float(claim3_rotation_factor(2).min()), 6)
    -0.333333
    """
    th = 2 * np.pi / t
    Rz = np.array([[np.cos(th), -np.sin(th), 0], [np.sin(th), np.cos(th), 0], [0, 0, 1]])
    return np.asarray(np.linalg.solve(_CLAIM3_M, Rz.T @ _CLAIM3_M))


@validated(t="count", a="real")
def claim3_pair(t: int, a: float = 0.5) -> tuple[FloatArray, FloatArray, FloatArray]:
    r"""Claim 1/3: ``(T, T_tilde, M)`` with :math:`T = aI + (1-a)P` and
    :math:`\tilde T = M^{-1}R(2\pi/t)^{-1}M\,T`, so :math:`\tilde T^t = T^t`.

    Raw arrays (no validation): for a != 1/2, :math:`\tilde T` has negative entries for many t.

    Parameters
    ----------
    t : int
        The horizon t >= 3 (the rotation angle is :math:`2\pi/t`).
    a : float, default 0.5
        The weight of the identity in T.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        T, :math:`\tilde T` and M (3 x 3).

    Examples
    --------
    >>> T, Tt, M = claim3_pair(2)
    >>> Tt.round(6).tolist()[0]
    [0.166667, 0.666667, 0.166667]
    >>> bool(np.allclose(Tt @ Tt, T @ T, atol=1e-15))
    True
    """
    if int(t) != t or t < 1:
        raise ValueError(f"t must be a positive integer, got {t!r}")
    T = a * np.eye(3) + (1 - a) * _CLAIM3_P
    return T, claim3_rotation_factor(int(t)) @ T, _CLAIM3_M.copy()


@dataclass(frozen=True)
class HouseholderTwin:
    r"""Lemma 7 / Theorem 5: :math:`H = I - 2\hat v\hat v^\top`,
    :math:`\hat v \propto (M^+)^\top\mathbf 1`, ``M_twin = H M``, ``T_twin = (HM)^+ M T``.

    Parameters
    ----------
    v_hat : numpy.ndarray
        The unit vector :math:`\hat v`.
    H : numpy.ndarray
        The reflection :math:`I - 2\hat v\hat v^\top`.
    M_twin : numpy.ndarray
        HM, unit columns.
    T_twin : numpy.ndarray
        :math:`(HM)^+ M T` (not stochastic).
    """

    v_hat: FloatArray
    H: FloatArray
    M_twin: FloatArray
    T_twin: FloatArray


@validated(M=lambda n, v: check_array(n, v, ndim=2), T=lambda n, v: check_array(n, v, ndim=2))
def householder_twin(M: Any, T: Any) -> HouseholderTwin:
    r"""The Householder twin of a G-HMM (Lemma 7, (2.58)).

    ``M_twin`` has unit columns and the same posterior :math:`\phi`; with
    :math:`\tilde T = (HM)^+MT` the ``x2|x1`` predictor is the same, but
    :math:`\mathbf 1^\top\tilde T = -\mathbf 1^\top`, so :math:`\tilde T` is not stochastic.

    Parameters
    ----------
    M : array_like
        The d x k means (unit columns).
    T : array_like
        The k x k transition matrix.

    Returns
    -------
    HouseholderTwin
        The reflection and the twin parameters.

    Examples
    --------
    >>> g = GaussianHMM.random(4, 3, seed=0)
    >>> tw = householder_twin(g.M, g.T)
    >>> tw.T_twin.sum(axis=0).round(12).tolist()
    [-1.0, -1.0, -1.0]
    """
    Mm = np.asarray(M, dtype=float)
    Mp = np.linalg.pinv(Mm)
    v = Mp.T @ np.ones(Mm.shape[1])
    v_hat = v / np.sqrt(np.ones(Mm.shape[1]) @ Mp @ Mp.T @ np.ones(Mm.shape[1]))
    H = np.eye(Mm.shape[0]) - 2 * np.outer(v_hat, v_hat)
    HM = H @ Mm
    return HouseholderTwin(v_hat, H, HM, np.linalg.pinv(HM) @ Mm @ np.asarray(T, dtype=float))


@validated(M=lambda n, v: check_array(n, v, ndim=2), w=lambda n, v: check_array(n, v, ndim=1))
def lemma7_translation(M: Any, w: Any, *, branch: int = 1) -> FloatArray:
    r"""A translate :math:`\tilde M = M - v\mathbf 1^\top` with unit columns and the same
    posterior, :math:`v = \alpha\hat v + w`, :math:`w \perp \operatorname{col}(M)`.

    With :math:`c = \hat v^\top\mu_i = 1/\|(M^+)^\top\mathbf 1\|`, unit norms need
    :math:`\alpha^2 - 2\alpha c + \|w\|^2 = 0`, i.e. :math:`\alpha = c \pm\sqrt{c^2-\|w\|^2}`
    (``branch`` = +1 or -1).  ``w = 0``, ``branch=+1`` gives HM; for d > k and w != 0 the
    column space changes, so Lemma 7's "M or HM" needs the column-space constraint.

    Parameters
    ----------
    M : array_like
        The d x k means (unit columns).
    w : array_like
        A vector orthogonal to the column space of M.
    branch : {1, -1}, keyword-only
        The root :math:`\alpha = c \pm\sqrt{c^2-\|w\|^2}` (default +1).

    Returns
    -------
    numpy.ndarray
        :math:`\tilde M`, d x k with unit columns.

    Raises
    ------
    ValueError
        If w is not orthogonal to col(M) or :math:`\|w\| > c`.

    Examples
    --------
    >>> g = GaussianHMM.random(5, 3, seed=0)
    >>> w = np.linalg.svd(g.M)[0][:, 3] * 0.1            # orthogonal to col(M)
    >>> Mt = lemma7_translation(g.M, w)
    >>> bool(np.allclose(np.linalg.norm(Mt, axis=0), 1))
    True
    """
    Mm = np.asarray(M, dtype=float)
    wv = np.asarray(w, dtype=float)
    Mp = np.linalg.pinv(Mm)
    if np.max(np.abs(Mm.T @ wv)) > 1e-12 * max(1.0, float(np.linalg.norm(wv))):
        raise ValueError("w must be orthogonal to the column space of M")
    u = Mp.T @ np.ones(Mm.shape[1])
    c = 1.0 / np.linalg.norm(u)
    v_hat = u * c
    disc = c * c - wv @ wv
    if disc < 0:
        raise ValueError(f"||w|| = {np.linalg.norm(wv):.3g} exceeds c = {c:.3g}: no unit-norm "
                         "translate")
    if branch not in (1, -1):
        raise ValueError("branch must be +1 or -1")
    alpha = c + branch * np.sqrt(disc)
    return np.asarray(Mm - np.outer(alpha * v_hat + wv, np.ones(Mm.shape[1])))
