r"""The lower-bound witness of seed 003 (Lemma 6, App. B.2-B.3), built, evaluated and certified.

Lemma 6: for :math:`d_a = d_x/H` odd, L >= 2, N even and any :math:`V \in \mathbb
R^{R \times d}` with unit rows (:math:`d = (d_x - H)/2`), there are weights and :math:`2R+1`
templates such that a sub-matrix of the grid matricization is

.. math::  [\![\mathcal A(y_p^{i})]\!]_{\tilde I, \tilde J} = c\,(VV^T)^{\odot 3^{L-2}}.

With :math:`R = (\!(d\ \lambda)\!)` and a V whose Hadamard power has full rank, this certifies
:math:`\operatorname{sep} \ge (\!(d\ \lambda)\!)` for almost every Θ (Claims 1-2).

**Construction (0-based; the fixes of notes §7.3 applied).**  Coordinate
:math:`k = h d_a + o`; offsets :math:`o < s = (d_a-1)/2` form the first half, :math:`s \le o <
2s` the second half, :math:`o = d_a - 1` the constant slot; V-column :math:`h s + o`.

* Templates: :math:`t < R`: first half = row t of V; :math:`R \le t < 2R`: second half = row
  :math:`t - R`; :math:`t = 2R`: constants only; every template has 1 in every constant slot.
  (Fixes (b) :math:`V_{i-M/2}` and (c) stride :math:`(d_a-1)/2` per head.)
* Layer 1: :math:`W^{Q} = W^{K} = e_1 e_{d_a}^T` (all scores 1);
  :math:`W^{V,1,h} = \frac1N[\,u_o = x_o + \mathbf i x_{s+o};\ u_{s+o} = -x_o - \mathbf i
  x_{s+o} + x_{d_a-1};\ u_{d_a-1} = x_{d_a - 1}\,]` on head h's segment (fix (a): the
  printed conditions of rows :math:`s < i \le d_a-1` can never hold; ``value_layer='printed'``
  keeps them).  :math:`W^{O,l,h}` embeds head h's segment.
* Layer 2: :math:`W^{Q} = W^{K}` project head h's first half; score
  :math:`\sigma_h = \langle \tilde u^{(h)}, \tilde u^{(h)}\rangle` (bilinear).
* Layers :math:`2 < l < L`: first row of :math:`W^{Q} = W^{K}` = 1 off the constant slots;
  :math:`W^{V}` = identity on the segment.
* Last layer, ``last_layer='fixed'`` (fix (g)): :math:`W^{V,L,h} = \mathbf i\, e_1
  e_{(h, d_a-1)}^T` (head h's constant slot) and :math:`W^{O,L,h} = e_p e_1^T` (every head
  writes into output coordinate p).  ``last_layer='printed'``:
  :math:`W^{V,L,h}_{ij} = \mathbf i\, 1_{j = d_a}` with head-wise :math:`W^{O}` -- wrong for
  H > 1 (each output coordinate sees one head's partial norm, not :math:`\|\tilde u\|^2`).

Then :math:`S = \|\tilde u\|^2 = 2\mathbf i (VV^T)_{i_1 j_1}/N^2` and the output is
:math:`c\,((VV^T)_{i_1 j_1})^{\lambda}` with :math:`c` from :func:`witness_constant`
(e.g. 392 at :math:`(L, d_x, H, N) = (3, 29, 1, 2)`).

**Certification.**  All products are bilinear, so the construction lives in any field with a
square root of -1.  ``method='modular'`` evaluates it in GF(p), p = 1 (mod 4), with the
integer :math:`\iota = \sqrt{-1}` and an exactly normalised rational V: a full GF(p) rank R of
the sub-matrix proves that some R x R minor -- a polynomial with integer coefficients in the
weights and templates -- is not identically zero, so the grid rank is >= R for almost every
real Θ (Claim 2) and :math:`\operatorname{sep} \ge R` (Claim 1).  ``method='exact'`` uses
:class:`~seprank.core.GaussianRational` (tiny cases); ``method='svd'`` is complex128 with
an SVD rank (certifies nothing; the side-by-side comparison).

References
----------
.. [1] Seed 003_780437e4ec8fa9c6, Lemma 6 (eqs. 28-54), App. B.2 (eqs. 24-27), Claims 1-2.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from seprank.attention import LinearAttention
from seprank.core.domains import ExactDomain, FloatDomain, ModularDomain, domain_for
from seprank.core.gaussian_rationals import (
    GaussianRational,
    complex_rank_embedding,
    sqrt_minus_one_mod,
)
from seprank.core.grid import grid_tensor
from seprank.core.random import spawn
from seprank.core.rank import matrix_rank
from seprank.core.results import Certificate, Method
from seprank.d2w.bounds import multiset_coefficient
from seprank.d2w.hadamard import paper_witness_V, rational_sphere_V

__all__ = [
    "WitnessResult",
    "WitnessWeights",
    "lemma6_templates",
    "lemma6_weights",
    "lemma6_witness",
    "witness_constant",
]

Array = npt.NDArray[Any]
LastLayer = Literal["fixed", "printed"]

#: Float witness: relative error below which the sub-matrix counts as proportional.
PROPORTIONAL_RTOL = 1e-8


def _validate(width: int, depth: int, heads: int, n_inputs: int) -> tuple[int, int, int]:
    for name, v, lo in (("depth L", depth, 2), ("width d_x", width, 3), ("heads H", heads, 1),
                        ("n_inputs N", n_inputs, 2)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < lo:
            raise ValueError(f"the Lemma 6 witness needs {name} >= {lo} (an integer), got {v!r}")
    if width % heads:
        raise ValueError(f"the width d_x = {width} is not divisible by the number of heads "
                         f"H = {heads}; the head dimension d_a = d_x / H must be an integer")
    d_a = width // heads
    if d_a % 2 == 0 or d_a < 3:
        raise ValueError(f"the Lemma 6 witness needs an odd head dimension d_a = d_x / H >= 3, "
                         f"got d_a = {d_a} (pad an even d_a to d_a - 1 by hand)")
    if n_inputs % 2:
        raise ValueError(f"Lemma 6 uses a balanced partition: n_inputs N must be even, "
                         f"got {n_inputs}")
    s = (d_a - 1) // 2
    return d_a, s, heads * s


@dataclass(frozen=True)
class WitnessWeights:
    """Lemma 6 weights as exact real and imaginary parts (object arrays of Fractions)."""

    real: tuple[Array, Array, Array, Array]
    imag: tuple[Array, Array, Array, Array]

    def gaussian(self) -> LinearAttention:
        """Exact network with :class:`~seprank.core.gaussian_rationals.GaussianRational` weights."""
        q, k, v, o = (np.vectorize(GaussianRational, otypes=[object])(r, i)
                      for r, i in zip(self.real, self.imag, strict=True))
        return LinearAttention(q, k, v, o)

    def complex(self) -> LinearAttention:
        """complex128 network (float; certifies nothing)."""
        q, k, v, o = (r.astype(float) + 1j * i.astype(float)
                      for r, i in zip(self.real, self.imag, strict=True))
        return LinearAttention(q, k, v, o)

    def modular(self, iota: int) -> LinearAttention:
        """Network whose weights are the rationals re + iota * im: valid **only** when evaluated
        in ``ModularDomain(p)`` with ``iota**2 = -1 (mod p)``."""
        q, k, v, o = (r + iota * i for r, i in zip(self.real, self.imag, strict=True))
        return LinearAttention(q, k, v, o)


def lemma6_weights(width: int, depth: int, heads: int = 1, n_inputs: int = 2, *,
                   output_coordinate: int = 0, last_layer: LastLayer = "fixed",
                   value_layer: LastLayer = "fixed") -> WitnessWeights:
    """The weight assignment of Lemma 6 (module docstring), shapes as in
    :class:`~seprank.LinearAttention`.

    References
    ----------
    .. [1] Seed 003_780437e4ec8fa9c6, Lemma 6 (App. B.3), with the fixes of notes §7.3.

    Examples
    --------
    >>> w = lemma6_weights(5, 2)
    >>> [a.shape for a in w.real]
    [(2, 1, 5, 5), (2, 1, 5, 5), (2, 1, 5, 5), (2, 1, 5, 5)]
    """
    d_a, s, _ = _validate(width, depth, heads, n_inputs)
    L, H, N, d_x = depth, heads, n_inputs, width
    if last_layer not in ("fixed", "printed") or value_layer not in ("fixed", "printed"):
        raise ValueError("last_layer and value_layer must be 'fixed' or 'printed'")
    if not 0 <= output_coordinate < d_x:
        raise ValueError(f"output_coordinate must be in 0..{d_x - 1}, got {output_coordinate}")
    zero = Fraction(0)
    shape, o_shape = (L, H, d_a, d_x), (L, H, d_x, d_a)
    Q, K, V, O = (np.full(sh, zero, dtype=object) for sh in (shape, shape, shape, o_shape))
    Vi, Oi = np.full(shape, zero, dtype=object), np.full(o_shape, zero, dtype=object)
    inv_n = Fraction(1, N)
    for h in range(H):
        base, const = h * d_a, h * d_a + d_a - 1
        # layer 1: all scores 1 (head 0's constant slot); value = [u, 1 - u, 1] / N
        Q[0, h, 0, d_a - 1] = K[0, h, 0, d_a - 1] = Fraction(1)
        for o in range(s):
            V[0, h, o, base + o] = inv_n
            Vi[0, h, o, base + s + o] = inv_n
            if value_layer == "fixed":
                V[0, h, s + o, base + o] = -inv_n
                Vi[0, h, s + o, base + s + o] = -inv_n
        for row in range(s, d_a):
            V[0, h, row, const] = inv_n
        for layer in range(L):
            for o in range(d_a):
                O[layer, h, base + o, o] = Fraction(1)
        # layer 2: scores <u_h, u_h>; value identity (unless it is the last layer)
        for o in range(s):
            Q[1, h, o, base + o] = K[1, h, o, base + o] = Fraction(1)
        for layer in range(2, L):   # scores (sum of non-constant coordinates)^2
            for k in range(d_x):
                if k % d_a != d_a - 1:
                    Q[layer, h, 0, k] = K[layer, h, 0, k] = Fraction(1)
        for layer in range(1, L - 1):
            for o in range(d_a):
                V[layer, h, o, base + o] = Fraction(1)
        last = L - 1
        if last_layer == "fixed":
            Vi[last, h, 0, const] = Fraction(1)
            O[last, h] = zero
            O[last, h, output_coordinate, 0] = Fraction(1)
        else:
            Vi[last, h, :, d_a - 1] = Fraction(1)
    zeros = np.full(shape, zero, dtype=object)
    return WitnessWeights((Q, K, V, O), (zeros, zeros.copy(), Vi, Oi))


def lemma6_templates(V: npt.ArrayLike, width: int, heads: int = 1) -> Array:
    """The :math:`2R + 1` templates of Lemma 6 (rows 0..R-1, R..2R-1, then the constant one).

    References
    ----------
    .. [1] Seed 003_780437e4ec8fa9c6, Lemma 6 (App. B.3), template vectors.

    Examples
    --------
    >>> lemma6_templates(np.array([[1], [0]], dtype=object), 3).tolist()
    [[1, 0, 1], [0, 0, 1], [0, 1, 1], [0, 0, 1], [0, 0, 1]]
    """
    Varr = np.asarray(V)
    d_a = width // heads
    s = (d_a - 1) // 2
    if width % heads or d_a % 2 == 0 or d_a < 3:
        raise ValueError(f"need H | d_x and odd d_a >= 3, got d_x = {width}, H = {heads}")
    if Varr.ndim != 2 or Varr.shape[1] != heads * s or Varr.shape[0] < 1:
        raise ValueError(f"V must have shape (R, (d_x - H)/2 = {heads * s}), got {Varr.shape}")
    R = Varr.shape[0]
    T = np.zeros((2 * R + 1, width), dtype=object if Varr.dtype == object else float)
    for h in range(heads):
        cols = slice(h * s, (h + 1) * s)
        T[:R, h * d_a: h * d_a + s] = Varr[:, cols]
        T[R:2 * R, h * d_a + s: h * d_a + 2 * s] = Varr[:, cols]
        T[:, h * d_a + d_a - 1] = 1
    return T


def witness_constant(width: int, depth: int, heads: int = 1,
                     n_inputs: int = 2) -> GaussianRational:
    r"""The constant c of :math:`c\,(VV^T)^{\odot\lambda}` for the fixed last layer.

    :math:`A_2 = N`, :math:`A_{l+1} = N s^2 A_l^3 S^2` (layers :math:`3..L-1`), output
    :math:`\mathbf i N s^2 A_{L-1}^3 S^3` (L >= 3) or :math:`\mathbf i N S` (L = 2), with
    :math:`S = 2\mathbf i (VV^T)_{i_1 j_1} / N^2` and :math:`s = (d_a - 1)/2`.

    References
    ----------
    .. [1] Seed 003_780437e4ec8fa9c6, Lemma 6, eqs. 45-50 (recurrence of alpha_l, beta_l).

    Examples
    --------
    >>> witness_constant(29, 3), witness_constant(5, 2), witness_constant(9, 3, 3, 4)
    (GaussianRational(392), GaussianRational(-1), GaussianRational(1/2))
    """
    _, s, _ = _validate(width, depth, heads, n_inputs)
    N, i = n_inputs, GaussianRational(0, 1)
    if depth == 2:
        coef, exponent = i * N, 1
    else:
        coef, exponent = GaussianRational(N), 0
        for _ in range(3, depth):
            coef, exponent = coef**3 * (N * s * s), 3 * exponent + 2
        coef, exponent = i * (N * s * s) * coef**3, 3 * exponent + 3
    return coef * (GaussianRational(0, Fraction(2, N * N)) ** exponent)


@dataclass(frozen=True)
class WitnessResult:
    """The Lemma 6 sub-matrix, its rank and what is certified.

    Attributes
    ----------
    rank : int
        Rank of the R x R sub-matrix (GF(p) rank, exact rank, or SVD rank).
    expected_rank : int
        :math:`(\\!(d\\ \\lambda)\\!)`, the rank the construction is meant to reach.
    certifies : {'exact', 'lower_bound', 'none'}
        What ``rank`` certifies about the complex witness sub-matrix (full rank mod p is exact).
        In every certified case, ``rank`` is a lower bound on sep for almost every Θ.
    proportional : bool
        Whether the sub-matrix equals ``c' * (VV^T)^{∘λ}`` for some constant c' (exactly,
        mod p, or to relative error :data:`PROPORTIONAL_RTOL` for floats), the identity
        eq. 28 claims; c' is ``details['fitted_constant']``.
    constant : GaussianRational or None
        The c of :func:`witness_constant` (fixed weights; ``None`` for printed variants).
    constant_matches : bool or None
        Whether c' equals ``constant``.
    matrix : numpy.ndarray
        The sub-matrix (residues, Gaussian rationals or complex floats).
    """

    rank: int
    expected_rank: int
    certifies: Certificate
    proportional: bool
    constant: GaussianRational | None
    constant_matches: bool | None
    method: Method
    seconds: float
    matrix: Array = field(repr=False)
    details: Mapping[str, Any] = field(default_factory=dict)

    def summary(self) -> str:
        return (f"Lemma 6 witness: rank {self.rank} of {self.expected_rank} = ((d lambda)) "
                f"({self.method}, certifies {self.certifies}; proportional to "
                f"c (VV^T)^lambda: {self.proportional}; {self.seconds:.2f} s)")


def lemma6_witness(width: int, depth: int, heads: int = 1, n_inputs: int = 2, *,
                   V: npt.ArrayLike | Literal["rational", "paper"] = "rational",
                   method: Method = "modular", last_layer: LastLayer = "fixed",
                   value_layer: LastLayer = "fixed", output_position: int = 0,
                   output_coordinate: int = 0, omega: int = 2,
                   seed: int | np.random.Generator | None = None,
                   progress: bool | None = None,
                   order: Literal["auto", "gram", "scores"] = "auto") -> WitnessResult:
    r"""Build Lemma 6's witness, evaluate its grid sub-matrix and certify its rank.

    Parameters
    ----------
    width, depth, heads, n_inputs : int
        :math:`d_x`, L >= 2, H with odd :math:`d_a = d_x/H \ge 3`, even N >= 2.
    V : {'rational', 'paper'} or array_like, keyword-only
        ``'rational'`` -- :math:`R = (\!(d\ \lambda)\!)` random exactly-normalised rational
        rows (:func:`~seprank.d2w.hadamard.rational_sphere_V`); ``'paper'`` -- the paper's
        :math:`\Omega^{q}` rows, normalised in floating point (``method='svd'`` only; its
        Hadamard rank is certified separately by :func:`~seprank.d2w.hadamard.hadamard_power_rank`);
        or an (R, d) array with unit rows (exact for modular/exact).
    method : {'modular', 'exact', 'svd'}, keyword-only
        GF(p) with :math:`\iota = \sqrt{-1}` (default), exact Gaussian rationals (tiny cases),
        or complex128 with an SVD rank (certifies nothing).
    last_layer, value_layer : {'fixed', 'printed'}, keyword-only
        Use the printed (erroneous) weights instead of the fixed ones (module docstring).
    output_position, output_coordinate : int, keyword-only
        i and p of :math:`y_p^i`.
    seed : int or Generator, optional, keyword-only
        Seeds V (``'rational'``) and the prime (separate streams).
    progress : bool, optional, keyword-only
        Progress bar over the grid (default: for more than a million points on a terminal).
    order : {'auto', 'gram', 'scores'}, keyword-only
        Association of the network's products (:meth:`seprank.LinearAttention.__call__`);
        ``'auto'`` is scores-first here (N << d_x) for every method.  Only speed (and float
        rounding) depends on it.

    References
    ----------
    .. [1] Seed 003_780437e4ec8fa9c6, Lemma 6 (eq. 28), App. B.2 (eq. 24), Claims 1-2.

    Examples
    --------
    >>> r = lemma6_witness(7, 3, seed=0)
    >>> r.rank, r.expected_rank, r.certifies, r.proportional, r.constant, r.constant_matches
    (10, 10, 'exact', True, GaussianRational(18), True)
    """
    start = time.perf_counter()
    _, _, d = _validate(width, depth, heads, n_inputs)
    if method not in ("modular", "exact", "svd"):
        hint = " ('float' is now spelled 'svd')" if method == "float" else ""
        raise ValueError(f"method must be 'modular', 'exact' or 'svd', got {method!r}{hint}")
    if order not in ("auto", "gram", "scores"):
        raise ValueError(f"order must be 'auto', 'gram' or 'scores', got {order!r}")
    if not 0 <= output_position < n_inputs:
        raise ValueError(f"output_position must be in 0..{n_inputs - 1}")
    lam = 3 ** (depth - 2)
    R = multiset_coefficient(d, lam)
    v_rng, p_rng = spawn(seed, 2)
    if isinstance(V, str):
        if V == "rational":
            Varr = rational_sphere_V(R, d, seed=v_rng)
        elif V == "paper":
            if method != "svd":
                raise ValueError("V='paper' has irrational normalised rows: use method='svd' "
                                 "(and hadamard_power_rank for its exact rank)")
            Varr = paper_witness_V(d, lam, omega=omega)
        else:
            raise ValueError(f"V must be 'rational', 'paper' or an array, got {V!r}")
    else:
        Varr = np.asarray(V)
    if Varr.ndim != 2 or Varr.shape[1] != d or Varr.shape[0] < 1:
        raise ValueError(f"V must have shape (R, d) with d = (d_x - H)/2 = {d}, got "
                         f"{Varr.shape}")
    exact_v = Varr.dtype.kind in "iuO"
    if method != "svd" and not exact_v:
        raise TypeError("method='modular'/'exact' needs an exact V (ints or Fractions); use "
                        "V='rational' or method='svd'")
    norms = (Varr * Varr).sum(axis=1)
    bad = [a for a, n2 in enumerate(norms)
           if (n2 != 1 if exact_v else abs(float(n2) - 1) > 1e-12)]
    if bad:
        raise ValueError(f"Lemma 6 needs unit rows of V (the norms cancel in eq. 52); rows "
                         f"{bad[:5]} have squared norms {[norms[a] for a in bad[:5]]}")
    R_used = Varr.shape[0]
    weights = lemma6_weights(width, depth, heads, n_inputs, output_coordinate=output_coordinate,
                             last_layer=last_layer, value_layer=value_layer)
    T = lemma6_templates(Varr if method != "svd" else Varr.astype(float), width, heads)
    per_position = [T[-1:]] * n_inputs
    per_position[0] = T[:R_used]
    per_position[n_inputs // 2] = T[R_used:2 * R_used]
    constant = (witness_constant(width, depth, heads, n_inputs)
                if last_layer == "fixed" and value_layer == "fixed" else None)
    details: dict[str, Any] = {"d": d, "lambda": lam, "R": R_used, "templates": 2 * R_used + 1}
    fitted_c: Any = None
    if method == "modular":
        # p = 1 mod 4: GF(p) holds iota = sqrt(-1), so the complex witness reduces mod p
        F = domain_for("modular", p_rng, residue=(1, 4))
        assert isinstance(F, ModularDomain)
        p = F.p
        iota = sqrt_minus_one_mod(p)
        net = weights.modular(iota)
        how = net._cheaper_order(n_inputs) if order == "auto" else order
        tensor = grid_tensor(
            lambda X: net(X, domain=F, order=how)[..., output_position, output_coordinate],
            [F.asarray(t) for t in per_position], n_inputs, progress=progress)
        E = tensor.reshape(R_used, R_used)
        rank_res = F.rank(E)
        Vp = F.asarray(Varr)
        G = F.matmul(Vp, Vp.T)
        P = np.ones_like(G)
        for _ in range(lam):
            P = F.mul(P, G)
        nz = np.argwhere(P != 0)
        if len(nz):
            a, b = (int(x) for x in nz[0])
            fitted = int(E[a, b]) * pow(int(P[a, b]), -1, p) % p
            proportional = bool(np.array_equal(E, F.scale(P, fitted)))
        else:
            fitted, proportional = 0, bool(np.all(E == 0))
        matches = None if constant is None else fitted == constant.residue(iota, p)
        fitted_c = fitted
        details.update(prime=p, iota=iota, rank=rank_res.summary())
        rank, certifies = rank_res.rank, rank_res.certifies
    elif method == "exact":
        net = weights.gaussian()
        exact = ExactDomain()
        how = net._cheaper_order(n_inputs) if order == "auto" else order
        tensor = grid_tensor(
            lambda X: net(X, domain=exact, order=how)[..., output_position, output_coordinate],
            per_position, n_inputs, progress=progress)
        E = tensor.reshape(R_used, R_used)
        G = Varr.dot(Varr.T)
        target = np.vectorize(lambda g: g**lam, otypes=[object])(G)
        a, b = next((x, y) for x in range(R_used) for y in range(R_used) if target[x, y] != 0)
        ratio = GaussianRational.coerce(E[a, b]) * (1 / Fraction(target[a, b]))
        proportional = all(E[x, y] == ratio * target[x, y]
                           for x in range(R_used) for y in range(R_used))
        fitted_c = ratio
        matches = None if constant is None else ratio == constant
        rr = matrix_rank(complex_rank_embedding(E), method="exact")
        rank, certifies = rr.rank // 2, "exact"
        details.update(rank=f"{rank} (exact, over Q(i) via the real 2R x 2R embedding)")
    else:
        net = weights.complex()
        cdom = FloatDomain(complex_=True)
        Tf = [t.astype(float) for t in per_position]
        # N << d_x: scores first by default (only the rounding differs from 'gram')
        how = net._cheaper_order(n_inputs) if order == "auto" else order

        def evaluate(X: Array) -> Array:
            return net(X, domain=cdom, order=how)[..., output_position, output_coordinate]

        tensor = grid_tensor(evaluate, Tf, n_inputs, progress=progress)
        E = tensor.reshape(R_used, R_used)
        Vf = Varr.astype(float)
        target = (Vf @ Vf.T) ** lam
        a, b = (int(x) for x in np.unravel_index(int(np.argmax(np.abs(target))), target.shape))
        ratio_c = complex(E[a, b] / target[a, b])
        err = float(np.max(np.abs(E - ratio_c * target)) / max(np.max(np.abs(E)), 1e-300))
        proportional = err < PROPORTIONAL_RTOL
        details["relative_error"] = err
        fitted_c = ratio_c
        matches = (None if constant is None
                   else abs(ratio_c - complex(constant)) <= PROPORTIONAL_RTOL * abs(ratio_c))
        svd = matrix_rank(E, method="svd")
        sv = svd.details["singular_values"]
        details.update(rank=svd.summary(), condition=float(sv[0] / sv[-1]) if sv[-1] else math.inf)
        rank, certifies = svd.rank, "none"
    details["fitted_constant"] = fitted_c
    return WitnessResult(rank, R, certifies, proportional, constant, matches, method,
                         time.perf_counter() - start, E, details)
