r"""The candidate (M, T) of a G-HMM recovery, before the predictor picks one (004, Theorem 8).

After the CP decomposition of the masked-prediction tensor, unit norms (A9) leave the means
up to signs (cases 1 and 3: :func:`sign_candidates`, one pattern per connected block of T's
sign graph, notes D.10) or up to a common translation with the two unit-norm solutions of
Lemma 7 (case 2: :func:`translation_candidates`).  :func:`~identifiability.masked.recovery.
recover_ghmm` scores every candidate by the predictor at fresh points.

References
----------
004, Theorem 8 (2.70)-(2.77), Lemma 7, (2.58); notes D.10.
"""

from __future__ import annotations

import itertools

import numpy as np

from seprank.core.types import FloatArray

__all__ = ["sign_candidates", "translation_candidates"]

#: More sign blocks than this would mean 2**blocks candidate models.
MAX_SIGN_COMPONENTS = 12


def sign_candidates(U: FloatArray, T0: FloatArray) -> list[tuple[FloatArray, FloatArray]]:
    """Signs s with S T0 S >= 0 (BFS on the significant entries), times per-component flips.

    Parameters
    ----------
    U : numpy.ndarray
        Columns known up to sign.
    T0 : numpy.ndarray
        The transition matrix up to the same signs.

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        Candidate (M, T) pairs.

    Examples
    --------
    >>> U = np.eye(3)
    >>> T0 = np.array([[0.6, -0.3, 0.0], [-0.4, 0.6, 0.0], [0.0, 0.0, 0.9]])  # blocks {0, 1}, {2}
    >>> cands = sign_candidates(U, T0)
    >>> len(cands), all(bool(np.all(T >= 0)) for _, T in cands)   # 2^2 flips, all S T0 S >= 0
    (4, True)
    >>> sorted(np.diag(V).tolist() for V, _ in cands)              # the signs found
    [[-1.0, 1.0, -1.0], [-1.0, 1.0, 1.0], [1.0, -1.0, -1.0], [1.0, -1.0, 1.0]]
    """
    k = T0.shape[0]
    thresh = 1e-8 * float(np.max(np.abs(T0)))
    s = np.zeros(k)
    comps = []
    for root in range(k):
        if s[root]:
            continue
        s[root] = 1
        comps.append(root)
        stack = [root]
        while stack:
            i = stack.pop()
            for j in range(k):
                if j != i and max(abs(T0[i, j]), abs(T0[j, i])) > thresh:
                    val = T0[i, j] if abs(T0[i, j]) >= abs(T0[j, i]) else T0[j, i]
                    sj = s[i] * np.sign(val)
                    if not s[j]:
                        s[j] = sj
                        stack.append(j)
    if len(comps) > MAX_SIGN_COMPONENTS:
        raise ValueError(f"T splits into {len(comps)} blocks; too many sign patterns")
    comp_of = np.zeros(k, dtype=int)
    for c, root in enumerate(comps):  # label components by a second BFS over the same graph
        comp_of[_reach(T0, root, thresh)] = c
    out = []
    for flips in itertools.product((1.0, -1.0), repeat=len(comps)):
        sv = s * np.array(flips)[comp_of]
        out.append((U * sv, sv[:, None] * T0 * sv[None, :]))
    return out


def _reach(T0: FloatArray, root: int, thresh: float) -> list[int]:
    seen, stack = {root}, [root]
    while stack:
        i = stack.pop()
        for j in range(T0.shape[0]):
            if j not in seen and max(abs(T0[i, j]), abs(T0[j, i])) > thresh:
                seen.add(j)
                stack.append(j)
    return sorted(seen)


def translation_candidates(K: list[FloatArray], A_true: FloatArray, X: FloatArray,
                      roles: list[str]) -> list[tuple[FloatArray, FloatArray]]:
    """Lemma 7 made constructive: M in col(MT) up to translation, two unit-norm solutions.

    Parameters
    ----------
    K : list of numpy.ndarray
        The recovered factors.
    A_true : numpy.ndarray
        The factor known exactly.
    X : numpy.ndarray
        The input points.
    roles : list of str
        What each factor stands for.

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        Candidate (M, T) pairs (two unit-norm solutions).

    Examples
    --------
    >>> from identifiability.masked.hmm import gaussian_posterior
    >>> rng = np.random.default_rng(0)
    >>> d, k = 4, 3
    >>> M = rng.standard_normal((d, k))
    >>> M /= np.linalg.norm(M, axis=0)                           # unit means (A9)
    >>> T = np.array([[0.6, 0.3, 0.1], [0.1, 0.6, 0.3], [0.3, 0.1, 0.6]])
    >>> K = [np.outer(rng.standard_normal(d), (M @ T)[:, i]) for i in range(k)]  # b_i (M t_i)^T
    >>> X = rng.standard_normal((d, k))                           # k points, posteriors at them
    >>> cands = translation_candidates(K, X @ gaussian_posterior(M, X.T), X, ["middle", "last"])
    >>> [bool(np.allclose(Mc, M) and np.allclose(Tc, T)) for Mc, Tc in cands]   # truth + twin
    [True, False]
    >>> all(bool(np.allclose(np.linalg.norm(Mc, axis=0), 1)) for Mc, _ in cands)
    True
    """
    k = len(K)
    last = roles.index("last")
    Qh = np.column_stack([np.linalg.svd(Ki if last == 1 else Ki.T)[2][0] for Ki in K])
    Phi = (np.linalg.pinv(X) @ A_true).T  # k x n posteriors at the points
    if np.any(Phi <= 0):
        raise ValueError("recovered posteriors are not positive; the CP did not converge")
    L = np.log(Phi)
    delta = (L - L[0]) @ np.linalg.pinv(Qh.T @ X)  # rows: delta_i^T (Qh^T X) = L_i - L_0
    G = Qh.T @ Qh
    lin = np.array([2 * G @ delta[i] for i in range(1, k)])
    rhs = -np.array([delta[i] @ G @ delta[i] for i in range(1, k)])
    omega_p = np.linalg.lstsq(lin, rhs, rcond=None)[0]
    nu = np.linalg.svd(lin)[2][-1]
    a, b, c = nu @ G @ nu, 2 * omega_p @ G @ nu, omega_p @ G @ omega_p - 1
    disc = b * b - 4 * a * c
    if disc < -1e-8 * max(1.0, b * b):
        raise ValueError("no unit-norm translation exists; the CP did not converge")
    out = []
    for t in ((-b + np.sqrt(max(disc, 0))) / (2 * a), (-b - np.sqrt(max(disc, 0))) / (2 * a)):
        omega = omega_p + t * nu
        M = Qh @ (delta + omega).T
        TD = np.linalg.pinv(M) @ Qh
        out.append((M, TD / TD.sum(axis=0)))
    return out
