r"""ReLU gadgets of 004 Chapter 3 beyond Lemma 10: the threshold of Lemma 12, the
multi-dimensional interpolation of Lemma 11, and the MLP lemmas 38-42 of the Dyck proof (§3.6.4.4).

**Lemma 12 (threshold).**  Two ReLUs make a ramp
:math:`\psi_h(x) = (\frac{x}{2h}+\frac12)_+ - (\frac{x}{2h}-\frac12)_+`, 0 for :math:`x\le-h`
and 1 for :math:`x\ge h` (:func:`ramp_mlp`).  On :math:`x+\xi`, :math:`|x|\ge\Delta`,
:math:`|\xi|\le\Delta/4` it equals :math:`\mathbb 1[x>0]` iff :math:`h\le 3\Delta/4`.  The
printed construction :math:`(\frac{x+\Delta}{2\Delta})_+ - (\frac{x-\Delta}{2\Delta})_+` is the
ramp with :math:`h=\Delta` (exact only at :math:`\xi=0`); :math:`h=\Delta/2` has exactly the
printed norms :math:`\|W_1\|_\infty = 1/\Delta`, :math:`\|b_1\|_\infty = 1/2`
(:func:`lemma12_mlp`).  A 2-unit network bounded on both sides is a ramp whose slope is one
unit's, at most :math:`\|W_1\|_\infty\|W_2\|_\infty`; it rises by 1 between
:math:`-3\Delta/4` and :math:`3\Delta/4` only if that is :math:`\ge 2/(3\Delta)`
(:func:`lemma12_required_slope`).

**Lemma 11 (memorisation).**  Lemma 10 bumps per coordinate value, an AND per point
(:math:`\mathrm{relu}(\sum_i\psi_i - (d_{in}-1))`), a linear read-out: widths
:math:`4\sum_i|\mathcal X_i|` and :math:`|\mathcal X|` (:func:`lemma11_mlp`).

**Lemmas 38-42** (:func:`lemma38_mlp` ... :func:`lemma42_mlp`): interpolation of n points with
width 2n, an orthonormal system avoiding given vectors, indexing :math:`x\oplus y\mapsto x_y`,
decoding a one-hot position, and selecting one of K networks by an index input -- each as
printed (``printed=True``) and, where the printed one is wrong, corrected.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from seprank.automata.layers import MLP
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.types import FloatArray
from seprank.core.validation import (
    check_array,
    check_bool,
    check_float,
    check_indices,
    check_instance,
    check_int,
)

__all__ = [
    "lemma11_mlp",
    "lemma12_mlp",
    "lemma12_required_slope",
    "lemma38_mlp",
    "lemma39_basis",
    "lemma40_mlp",
    "lemma41_mlp",
    "lemma42_mlp",
    "ramp_mlp",
]


def _positive(name: str, value: float) -> float:
    """A positive finite real (strings, bools and NaN refused, naming the argument)."""
    return check_float(name, value, positive=True)


def ramp_mlp(half_width: float) -> MLP:
    r"""The 2-ReLU ramp :math:`\psi_h(x) = (\frac{x}{2h}+\frac12)_+ - (\frac{x}{2h}-\frac12)_+`:
    0 for :math:`x\le -h`, 1 for :math:`x\ge h`, linear in between.

    Weights :math:`\|W_1\|_\infty = 1/(2h)`, :math:`\|b_1\|_\infty = 1/2`, :math:`W_2 = (1,-1)`.

    Parameters
    ----------
    half_width : float
        h > 0.

    Returns
    -------
    MLP
        The ramp network.

    Examples
    --------
    >>> ramp_mlp(0.5)(np.array([[-0.5], [0.0], [0.25], [0.5], [9.0]])).ravel()
    array([0.  , 0.5 , 0.75, 1.  , 1.  ])
    """
    h = _positive("half_width", half_width)
    W1 = np.array([[1.0, 1.0]]) / (2 * h)
    b1 = np.array([0.5, -0.5])
    return MLP(((W1, b1), (np.array([[1.0], [-1.0]]), np.zeros(1))))


def lemma12_mlp(delta: float, *, printed: bool = False) -> MLP:
    r"""Lemma 12's threshold network for :math:`|x|\ge\Delta`, :math:`|\xi|\le\Delta/4`.

    ``printed=True``: the proof's :math:`(\frac{x+\Delta}{2\Delta})_+ -
    (\frac{x-\Delta}{2\Delta})_+` (the ramp of half-width :math:`\Delta`, exact only at
    :math:`\xi = 0`); default: the ramp of half-width :math:`\Delta/2`, whose norms are the
    printed bounds :math:`1/\Delta` and :math:`1/2` exactly.

    Parameters
    ----------
    delta : float
        Δ > 0.
    printed : bool, keyword-only
        The proof's ramp instead of the half-width Δ/2 one (default False).

    Returns
    -------
    MLP
        The threshold network.

    Examples
    --------
    >>> x = np.array([[-0.75], [0.75]])               # Delta = 1, xi = +-1/4 towards 0
    >>> lemma12_mlp(1.0)(x).ravel(), lemma12_mlp(1.0, printed=True)(x).ravel()
    (array([0., 1.]), array([0.125, 0.875]))
    """
    d = _positive("delta", delta)
    printed = check_bool("printed", printed)
    return ramp_mlp(d if printed else d / 2)


def lemma12_required_slope(delta: float, tolerance: Fraction | float = Fraction(1, 4)
                           ) -> float:
    r"""The least slope a threshold network needs: it must rise from 0 to 1 between
    :math:`-\Delta(1-\tau)` and :math:`\Delta(1-\tau)` (:math:`\tau` = ``tolerance``), i.e.
    :math:`1/(2\Delta(1-\tau))` -- :math:`2/(3\Delta)` for the printed :math:`\tau = 1/4`.

    Parameters
    ----------
    delta : float
        Δ > 0.
    tolerance : fractions.Fraction or float, default 1/4
        τ, the input perturbation as a fraction of Δ.

    Returns
    -------
    float
        :math:`1/(2\Delta(1-\tau))`.

    Examples
    --------
    >>> round(lemma12_required_slope(1.0), 6)
    0.666667
    """
    d = _positive("delta", delta)
    tau = check_float("tolerance", tolerance, minimum=0, maximum=1)
    if not tau < 1:
        raise ValueError(f"tolerance must be in [0, 1), got {tolerance!r}")
    return 1 / (2 * d * (1 - tau))


def lemma11_mlp(points: npt.ArrayLike, values: npt.ArrayLike, delta: float, *,
                in_channels: Sequence[int] | None = None, in_dim: int | None = None,
                out_channels: Sequence[int] | None = None, out_dim: int | None = None) -> MLP:
    r"""Lemma 11: a 3-layer ReLU network with :math:`f_{\rm mlp}(x+\xi) = f(x)` for
    :math:`x\in\mathcal X\subset\mathbb R^{d_{in}}`, :math:`\|\xi\|_\infty\le\Delta/4`.

    Layer 1 has a Lemma 10 bump (4 ReLUs) for each value of each coordinate, layer 2 one
    :math:`\mathrm{relu}(\sum_i\psi_{x,i} - (d_{in}-1))` per point (1 at the point, 0 at the
    others), layer 3 reads :math:`f`.  Widths :math:`d_1 = 4\sum_i|\mathcal X_i|`,
    :math:`d_2 = |\mathcal X|`; norms :math:`\|W_1\| = 4/\Delta`,
    :math:`\|b_1\|\le 4B_x/\Delta + 2`, :math:`\|W_2\| = 1`, :math:`\|b_2\| = d_{in}-1`,
    :math:`\|W_3\|\le B_y`.

    Parameters
    ----------
    points : array_like, shape (n_points, d_in)
        Distinct points; two points differ by at least ``delta`` in some coordinate.
    values : array_like, shape (n_points, d_out)
        :math:`f(x)` per point.
    delta : float
        :math:`\Delta`, the least gap between two values of a coordinate.
    in_channels, in_dim : optional, keyword-only
        The MLP reads coordinates ``in_channels`` of an ``in_dim``-dimensional input
        (default: all of a ``d_in``-dimensional one).
    out_channels, out_dim : optional, keyword-only
        It writes ``f`` into coordinates ``out_channels`` of an ``out_dim``-dimensional output
        (default: all of a ``d_out``-dimensional one).

    Returns
    -------
    MLP
        The 3-layer network.

    Examples
    --------
    >>> pts = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> xor = lemma11_mlp(pts, [[0], [1], [1], [0]], 1.0)
    >>> xor(np.array([[0.2, 0.9], [1.1, 1.2], [0.0, 0.0]])).ravel()
    array([1., 0., 0.])
    >>> xor.widths
    (16, 4)
    """
    X = check_array("points", points, ndim=2, what="(n_points, d_in) points")
    Y = check_array("values", values, ndim=(1, 2), min_size=0)
    Y = Y[:, None] if Y.ndim == 1 else Y
    if Y.shape[0] != X.shape[0]:
        raise ValueError(f"values has {Y.shape[0]} rows for {X.shape[0]} points")
    d = _positive("delta", delta)
    n_pts, d_in = X.shape
    width_in = d_in if in_dim is None else check_int("in_dim", in_dim)
    width_out = Y.shape[1] if out_dim is None else check_int("out_dim", out_dim)
    ins = list(range(d_in)) if in_channels is None else list(
        check_indices("in_channels", in_channels, size=width_in, distinct=False,
                      max_length=d_in, what="input coordinates"))
    outs = list(range(Y.shape[1])) if out_channels is None else list(
        check_indices("out_channels", out_channels, size=width_out, distinct=False,
                      max_length=Y.shape[1], what="output coordinates"))
    if len(ins) != d_in or len(outs) != Y.shape[1]:
        raise ValueError(f"in_channels/out_channels must list {d_in} / {Y.shape[1]} coordinates")
    n_units = 4 * int(sum(np.unique(X[:, i]).size for i in range(d_in)))
    guard_memory(array_bytes((width_in + n_pts + 2, n_units)) + array_bytes((n_pts, width_out)),
                 what=f"a Lemma 11 network of widths ({n_units}, {n_pts}) on {width_in} inputs "
                 f"and {width_out} outputs", fix="use fewer points or smaller in_dim / out_dim")
    if len({tuple(r) for r in X}) != n_pts:
        raise ValueError("points must be distinct (Lemma 11)")
    # layer 1: one Lemma 10 bump per (coordinate, value)
    uniq = [np.unique(X[:, i]) for i in range(d_in)]
    for i, u in enumerate(uniq):
        if u.size > 1 and np.min(np.diff(u)) < d * (1 - 1e-12):
            raise ValueError(f"coordinate {i} has values closer than delta")
    blocks: list[tuple[int, float]] = []
    bump_index: dict[tuple[int, float], int] = {}
    for i, u in enumerate(uniq):
        for v in u:
            bump_index[(i, float(v))] = len(blocks)
            blocks.append((i, float(v)))
    dp = d / 4
    offsets = np.array([-2.0, -1.0, 1.0, 2.0]) * dp
    signs = np.array([1.0, -1.0, -1.0, 1.0])
    W1 = np.zeros((width_in, 4 * len(blocks)))
    b1 = np.zeros(4 * len(blocks))
    for j, (i, v) in enumerate(blocks):
        W1[ins[i], 4 * j:4 * j + 4] = 1.0 / dp
        b1[4 * j:4 * j + 4] = -(v + offsets) / dp
    # layer 2: an AND of the d_in bumps of each point
    W2 = np.zeros((4 * len(blocks), n_pts))
    for p, row in enumerate(X):
        for i in range(d_in):
            j = bump_index[(i, float(row[i]))]
            W2[4 * j:4 * j + 4, p] = signs
    b2 = np.full(n_pts, -(d_in - 1.0))
    W3 = np.zeros((n_pts, width_out))
    W3[:, outs] = Y
    return MLP(((W1, b1), (W2, b2), (W3, np.zeros(width_out))))


# -- Lemmas 38-42 (§3.6.4.4) ------------------------------------------------------------------

def lemma38_mlp(points: npt.ArrayLike, values: npt.ArrayLike) -> tuple[MLP, FloatArray, float]:
    r"""Lemma 38's width-2n interpolating network, as printed: a direction w separating the
    points by :math:`2\gamma`, :math:`z_1 = y_1/\gamma`,
    :math:`z_i = y_i/\gamma - 2\sum_{j<i} z_j` (points sorted along w) and
    :math:`f(x) = \sum_i z_i\,\mathrm{relu}(\langle w, x-x_i\rangle+\gamma) -
    z_i\,\mathrm{relu}(\langle w, x-x_i\rangle-\gamma)`.

    Returns ``(mlp, w, gamma)``; w is the first direction (in a fixed order of candidates) on
    which the points are distinct.

    Parameters
    ----------
    points : array_like
        n distinct points, one per row.
    values : array_like
        The value at each point.

    Returns
    -------
    mlp : MLP
        The network.
    w : numpy.ndarray
        The separating direction.
    gamma : float
        γ.

    Examples
    --------
    >>> f, w, g = lemma38_mlp([[0.0], [1.0], [3.0]], [2.0, -1.0, 5.0])
    >>> np.round(f(np.array([[0.0], [1.0], [3.0]])).ravel(), 12), f.widths
    (array([ 2., -1.,  5.]), (6,))
    """
    X = check_array("points", points, ndim=2, what="(n, d) points")
    y = check_array("values", values, min_size=0).ravel()
    if y.size != X.shape[0]:
        raise ValueError(f"values has {y.size} entries for {X.shape[0]} points")
    n, d = X.shape
    guard_memory(array_bytes((n, n)) * 3 + array_bytes((65, d)) + array_bytes((d + 2, 2 * n)),
                 what=f"the {n} x {n} gaps of {n} points", fix="use fewer points")
    rng = np.random.default_rng(38)
    candidates = [np.eye(d)[0]] + [v / np.linalg.norm(v) for v in rng.normal(size=(64, d))]
    for w in candidates:
        proj = X @ w
        gaps = np.abs(proj[:, None] - proj[None, :])[~np.eye(n, dtype=bool)]
        if not gaps.size or gaps.min() > 1e-9:
            break
    else:
        raise ValueError("points must be distinct (Lemma 38 interpolates a function)")
    gamma = float(gaps.min()) / 2 if gaps.size else 1.0
    order = np.argsort(proj)
    z = np.zeros(n)
    for k, i in enumerate(order):
        z[k] = y[i] / gamma - 2 * z[:k].sum()
    xs = X[order]
    W1 = np.repeat(w[:, None], 2 * n, axis=1)
    base = -(xs @ w)
    b1 = np.concatenate([base + gamma, base - gamma])
    W2 = np.concatenate([z, -z])[:, None]
    return MLP(((W1, b1), (W2, np.zeros(1)))), w, gamma


def lemma39_basis(vectors: npt.ArrayLike, count: int) -> FloatArray:
    r"""Lemma 39's orthonormal vectors :math:`u_1..u_{count}` orthogonal to :math:`\mathbf 1`
    (rows): the proof's basis of span(v, 1)^⊥ with v a direction no given vector is orthogonal
    to, extended by the unit vector of :math:`v - \bar v\mathbf 1` (when ``count = n - 1``:
    then the rows span all of :math:`\mathbf 1^\perp`).

    Parameters
    ----------
    vectors : array_like
        The vectors (rows) the basis is orthogonal to, besides :math:`\mathbf 1`.
    count : int
        Number of basis vectors.

    Returns
    -------
    numpy.ndarray
        Orthonormal rows.

    Examples
    --------
    >>> U = lemma39_basis([[1.0, -1.0, 0.0, 0.0]], 2)
    >>> np.allclose(U @ U.T, np.eye(2)), np.allclose(U.sum(axis=1), 0)
    (True, True)
    """
    X = check_array("vectors", vectors, ndim=(1, 2))
    X = X[None] if X.ndim == 1 else X
    n = X.shape[1]
    if n < 2:
        raise ValueError(f"vectors must have at least 2 coordinates, got shape {X.shape}")
    c = check_int("count", count, minimum=0, maximum=n - 1)
    guard_memory(array_bytes((n, n)) * 4, what=f"an orthonormal basis of R^{n}",
                 fix="use shorter vectors")
    if np.any(np.all(np.abs(X) < 1e-15, axis=1)):
        raise ValueError("Lemma 39 needs nonzero vectors")
    rng = np.random.default_rng(39)
    for _ in range(100):
        v = rng.normal(size=n)
        if np.all(np.abs(X @ v) > 1e-9):
            break
    ones = np.ones(n) / math.sqrt(n)
    v_perp = v - (v @ ones) * ones
    v_perp /= np.linalg.norm(v_perp)
    Q, _ = np.linalg.qr(np.column_stack([ones, v_perp, rng.normal(size=(n, n - 2))]))
    complement = Q[:, 2:].T                                # basis of span(v, 1)^perp
    rows = complement if c <= n - 2 else np.vstack([complement, v_perp])
    return rows[:c]


def lemma40_mlp(n: int, M: float) -> MLP:
    r"""Lemma 40: :math:`f(x\oplus y) = x_y` for :math:`x\in[0,M]^n`, :math:`y\in[n]`, with
    width 2n: the printed
    :math:`\sum_i \mathrm{relu}(x_i + M(y-i)) - \mathrm{relu}(x_i + M(y-i-1)) - M(y-1)`, its
    linear term written as :math:`-M\,\mathrm{relu}(y) + M` (:math:`y\ge1`) and the unit
    :math:`\mathrm{relu}(x_n + M(y-n-1))`, which is 0 on the domain, dropped.

    Parameters
    ----------
    n : int
        The length of x.
    M : float
        The bound on the entries of x.

    Returns
    -------
    MLP
        The width-2n network.

    Examples
    --------
    >>> f = lemma40_mlp(3, 2.0)
    >>> f(np.array([[0.5, 1.5, 2.0, 2.0], [0.5, 1.5, 2.0, 3.0]])).ravel(), f.widths
    (array([1.5, 2. ]), (6,))
    """
    nn = check_int("n", n)
    m = _positive("M", M)
    guard_memory(array_bytes((nn + 2, 2 * nn)) * 2, what=f"a width-{2 * nn} network",
                 fix="use a smaller n")
    cols, bias, out = [], [], []
    for i in range(1, nn + 1):
        for shift, sign in ((0.0, 1.0), (-1.0, -1.0)):
            if i == nn and sign < 0:
                continue                     # relu(x_n + M(y - n - 1)) = 0 on the domain
            w = np.zeros(nn + 1)
            w[i - 1], w[nn] = 1.0, m
            cols.append(w)
            bias.append(-m * i + m * shift)
            out.append(sign)
    w = np.zeros(nn + 1)
    w[nn] = 1.0
    cols.append(w)                           # relu(y) = y on the domain
    bias.append(0.0)
    out.append(-m)
    W1 = np.column_stack(cols)
    return MLP(((W1, np.array(bias)), (np.array(out)[:, None], np.array([m]))))


def lemma41_mlp(n: int, M: float, *, printed: bool = False) -> MLP:
    r"""Lemma 41: :math:`f(x) = i` when :math:`x_i > M` and :math:`x_j = 0` otherwise, width 2n.

    ``printed=True``: :math:`\sum_i i(\mathrm{relu}(x_i) - \mathrm{relu}(x_i - M) + M)/M`
    (which returns :math:`i + n(n+1)/2`); default: without the :math:`+M`.

    Parameters
    ----------
    n : int
        The length of x.
    M : float
        The threshold.
    printed : bool, keyword-only
        The printed network (default: the corrected one).

    Returns
    -------
    MLP
        The width-2n network.

    Examples
    --------
    >>> x = np.array([[0.0, 5.0, 0.0]])
    >>> lemma41_mlp(3, 1.0)(x).ravel(), lemma41_mlp(3, 1.0, printed=True)(x).ravel()
    (array([2.]), array([8.]))
    """
    nn = check_int("n", n)
    m = _positive("M", M)
    printed = check_bool("printed", printed)
    guard_memory(array_bytes((nn + 2, 2 * nn)) * 2, what=f"a width-{2 * nn} network",
                 fix="use a smaller n")
    W1 = np.hstack([np.eye(nn), np.eye(nn)])
    b1 = np.concatenate([np.zeros(nn), np.full(nn, -m)])
    idx = np.arange(1, nn + 1, dtype=np.float64)
    W2 = np.concatenate([idx, -idx])[:, None] / m
    b2 = np.array([idx.sum() if printed else 0.0])
    return MLP(((W1, b1), (W2, b2)))


def lemma42_mlp(networks: Sequence[MLP], M: float, *, printed: bool = False) -> MLP:
    r"""Lemma 42: one 2-layer network with :math:`f(k\oplus x) = f_k(x)` (:math:`k\in[K]`,
    :math:`x\in[0,M]^n`) from K 2-layer networks :math:`f_k`.

    ``printed=True``: the proof's
    :math:`\sum_{k,i} a_{k,i}\mathrm{relu}(u_{k,i} + M(y-k)) - a_{k,i}\mathrm{relu}(u_{k,i} +
    M(y-k-1)) + b_k - c_{k,i}\mathrm{relu}(y+1-k)` with
    :math:`\sum_{k\le k'} c_{k,i}(k'+1-k) = M\sum_{k<k'} a_{k,i}` (:math:`u_{k,i}` the
    pre-activations of :math:`f_k`); it assumes :math:`0\le u_{k,i}\le M`.  Default: the
    gate :math:`a(\mathrm{relu}(u + 2L(y-k)) - \mathrm{relu}(u + 2L(y-k) - L))` with
    :math:`L\ge\max|u|` (so the gate is :math:`a\,\mathrm{relu}(u)` at y = k, the constant
    :math:`aL` for y > k and 0 for y < k), the unit that is 0 on the domain (k = K) dropped, and
    :math:`b_y - L\sum_{k<y}A_k` interpolated in y by K - 1 units
    :math:`\mathrm{relu}(y - j)`: width :math:`2Km - m + K - 1`.

    Parameters
    ----------
    networks : sequence of MLP
        The K 2-layer networks :math:`f_k`.
    M : float
        The bound on the inputs.
    printed : bool, keyword-only
        The proof's construction (default: the gated one).

    Returns
    -------
    MLP
        The combined 2-layer network.

    Examples
    --------
    >>> f1 = MLP(((np.array([[1.0]]), np.array([-0.5])), (np.array([[2.0]]), np.array([1.0]))))
    >>> f2 = MLP(((np.array([[-1.0]]), np.array([1.0])), (np.array([[1.0]]), np.array([0.0]))))
    >>> g = lemma42_mlp([f1, f2], 1.0)
    >>> x = np.array([[1.0, 0.2], [2.0, 0.2]])          # (k, x)
    >>> g(x).ravel(), f1(np.array([[0.2]])).ravel(), f2(np.array([[0.2]])).ravel()
    (array([1. , 0.8]), array([1.]), array([0.8]))
    """
    check_instance("networks", networks, (list, tuple), expected="a list of MLPs")
    nets = list(networks)
    if not nets:
        raise ValueError("lemma42_mlp needs at least one network: networks is empty")
    for i, f in enumerate(nets):
        check_instance(f"networks[{i}]", f, MLP, expected="an MLP",
                       hint="build one with seprank.automata.MLP(((W1, b1), (W2, b2)))")
        if len(f.layers) != 2 or f.layers[1][0].shape[1] != 1:
            raise ValueError("every network must be a 2-layer MLP with a scalar output "
                             f"(networks[{i}] is not)")
    n = nets[0].layers[0][0].shape[0]
    if any(f.layers[0][0].shape[0] != n for f in nets):
        raise ValueError("every network must read the same input dimension n")
    m_box = _positive("M", M)
    printed = check_bool("printed", printed)
    K = len(nets)
    cols: list[FloatArray] = []
    bias: list[float] = []
    out: list[float] = []

    def unit(w: FloatArray, y_coef: float, b: float, a: float) -> None:
        cols.append(np.concatenate([[y_coef], w]))
        bias.append(b)
        out.append(a)

    if printed:
        width = max(f.layers[0][0].shape[1] for f in nets)
        const = 0.0
        c = np.zeros((K, width))
        a_mat = np.zeros((K, width))
        for k, f in enumerate(nets, start=1):
            (W1, b1), (W2, b2) = f.layers
            for i in range(W1.shape[1]):
                a = float(W2[i, 0])
                a_mat[k - 1, i] = a
                unit(W1[:, i], m_box, float(b1[i]) - m_box * k, a)
                unit(W1[:, i], m_box, float(b1[i]) - m_box * (k + 1), -a)
                const += float(b2[0])                    # "+ b_k" inside the sum over i
        for i in range(width):                           # solve the printed c-equations
            for kp in range(1, K + 1):
                rhs = m_box * a_mat[:kp - 1, i].sum()
                acc = sum(c[k - 1, i] * (kp + 1 - k) for k in range(1, kp))
                c[kp - 1, i] = rhs - acc                 # coefficient of c_{k',i} is 1
        for k in range(1, K + 1):
            unit(np.zeros(n), 1.0, 1.0 - k, -float(c[k - 1].sum()))
        return MLP(((np.column_stack(cols), np.array(bias)),
                    (np.array(out)[:, None], np.array([const]))))
    # corrected: L bounds every pre-activation on the box [0, M]^n
    L = 1.0
    for f in nets:
        W1, b1 = f.layers[0]
        L = max(L, float(np.max(np.abs(b1) + m_box * np.clip(W1, 0, None).sum(axis=0)
                                + m_box * np.clip(-W1, 0, None).sum(axis=0))))
    A = np.zeros(K)
    for k, f in enumerate(nets, start=1):
        (W1, b1), (W2, _) = f.layers
        A[k - 1] = float(W2[:, 0].sum())
        for i in range(W1.shape[1]):
            a = float(W2[i, 0])
            unit(W1[:, i], 2 * L, float(b1[i]) - 2 * L * k, a)
            if k < K:                                    # 0 on the domain when k = K
                unit(W1[:, i], 2 * L, float(b1[i]) - 2 * L * k - L, -a)
    h = np.array([float(f.layers[1][1][0]) - L * A[:k - 1].sum()
                  for k, f in enumerate(nets, start=1)])  # h(y), y = 1..K
    slopes = np.diff(h)                                  # h(j+1) - h(j)
    prev = 0.0
    for j in range(1, K):                                # relu(y - j): y - j for y >= j
        unit(np.zeros(n), 1.0, -float(j), float(slopes[j - 1] - prev))
        prev = float(slopes[j - 1])
    const = float(h[0])
    return MLP(((np.column_stack(cols), np.array(bias)),
                (np.array(out)[:, None], np.array([const]))))
