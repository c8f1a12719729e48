r"""The weights and templates of paper 003's Lemma 6 witness (App. B.3), and its constant.

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

References
----------
.. [1] 003, Lemma 6 (eqs. 28-54), App. B.2 (eqs. 24-27).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np
import numpy.typing as npt

from seprank.attention import LinearAttention
from seprank.core.gaussian_rationals import GaussianRational
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.types import Array
from seprank.core.validation import check_choice, check_int
from seprank.d2w.bounds import check_depth

__all__ = [
    "LastLayer",
    "WitnessWeights",
    "lemma6_templates",
    "lemma6_weights",
    "validate_witness_shape",
    "witness_constant",
]

LastLayer = Literal["fixed", "printed"]


def validate_witness_shape(width: int, depth: int, heads: int,
                           n_inputs: int) -> tuple[int, int, int]:
    r"""Check the shape hypotheses of Lemma 6's witness.

    Parameters
    ----------
    width : int
        :math:`d_x` >= 3.
    depth : int
        L >= 2.
    heads : int
        H, dividing :math:`d_x` with an odd :math:`d_a = d_x / H \ge 3`.
    n_inputs : int
        N, even and >= 2.

    Returns
    -------
    (int, int, int)
        :math:`d_a`, :math:`s = (d_a - 1)/2` and :math:`d = H s`.

    Raises
    ------
    ValueError
        Naming the hypothesis that fails.
    """
    for name, v, lo in (("depth L", depth, 2), ("width d_x", width, 3), ("heads H", heads, 1),
                        ("n_inputs N", n_inputs, 2)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < lo:
            raise ValueError(f"the Lemma 6 witness needs {name} >= {lo} (an integer), got {v!r}")
    check_depth(depth, 2)
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
    """Lemma 6 weights as exact real and imaginary parts (object arrays of Fractions).

    Parameters
    ----------
    real, imag : tuple of 4 numpy.ndarray
        Real and imaginary parts of the four weight arrays of
        :class:`~seprank.LinearAttention` (object arrays of Fractions).
    """

    real: tuple[Array, Array, Array, Array]
    imag: tuple[Array, Array, Array, Array]

    def gaussian(self) -> LinearAttention:
        """Exact network with :class:`~seprank.core.gaussian_rationals.GaussianRational` weights.

        Returns
        -------
        LinearAttention
            The network with exact Gaussian-rational weights.
        """
        q, k, v, o = (np.vectorize(GaussianRational, otypes=[object])(r, i)
                      for r, i in zip(self.real, self.imag, strict=True))
        return LinearAttention(q, k, v, o)

    def complex(self) -> LinearAttention:
        """complex128 network (float; certifies nothing).

        Returns
        -------
        LinearAttention
            The network with complex128 weights ``real + 1j * imag``.
        """
        q, k, v, o = (r.astype(float) + 1j * i.astype(float)
                      for r, i in zip(self.real, self.imag, strict=True))
        return LinearAttention(q, k, v, o)

    def modular(self, iota: int) -> LinearAttention:
        """Network whose weights are the rationals re + iota * im: valid **only** when evaluated
        in ``ModularDomain(p)`` with ``iota**2 = -1 (mod p)``.

        Parameters
        ----------
        iota : int
            A square root of -1 modulo the prime p the network will be evaluated in.

        Returns
        -------
        LinearAttention
            The network with integer-or-rational weights ``re + iota * im``.
        """
        q, k, v, o = (r + iota * i for r, i in zip(self.real, self.imag, strict=True))
        return LinearAttention(q, k, v, o)


def lemma6_weights(width: int, depth: int, heads: int = 1, n_inputs: int = 2, *,
                   output_coordinate: int = 0, last_layer: LastLayer = "fixed",
                   value_layer: LastLayer = "fixed") -> WitnessWeights:
    """The weight assignment of Lemma 6 (module docstring), shapes as in
    :class:`~seprank.LinearAttention`.

    Parameters
    ----------
    width : int
        :math:`d_x` (odd :math:`d_a = d_x / H \\ge 3`).
    depth : int
        L >= 2.
    heads : int, default 1
        H.
    n_inputs : int, default 2
        N, even.
    output_coordinate : int, keyword-only
        The output coordinate p of :math:`y_p^i` (default 0).
    last_layer : {'fixed', 'printed'}, keyword-only
        The last layer's weights: fixed (notes §7.3) or as printed.
    value_layer : {'fixed', 'printed'}, keyword-only
        The value matrices: fixed or as printed.

    Returns
    -------
    WitnessWeights
        The weights as exact real and imaginary parts.

    References
    ----------
    .. [1] 003, Lemma 6 (App. B.3), with the fixes of notes §7.3.

    Examples
    --------
    >>> w = lemma6_weights(5, 2)
    >>> [a.shape for a in w.real]
    [(2, 1, 5, 5), (2, 1, 5, 5), (2, 1, 5, 5), (2, 1, 5, 5)]
    """
    d_a, s, _ = validate_witness_shape(width, depth, heads, n_inputs)
    L, H, N, d_x = depth, heads, n_inputs, width
    guard_memory(8 * array_bytes((L, H, d_a, d_x), object),
                 what=f"the exact weights of a depth-{L}, width-{d_x} witness",
                 fix="use a smaller depth or width")
    check_choice("last_layer", last_layer, ("fixed", "printed"))
    check_choice("value_layer", value_layer, ("fixed", "printed"))
    output_coordinate = check_int("output_coordinate", output_coordinate, 0, d_x - 1)
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

    Parameters
    ----------
    V : array_like
        The (R, d) matrix of unit rows.
    width : int
        :math:`d_x`.
    heads : int, default 1
        H.

    Returns
    -------
    numpy.ndarray
        The 2R + 1 template vectors of dimension :math:`d_x`.

    References
    ----------
    .. [1] 003, Lemma 6 (App. B.3), template vectors.

    Examples
    --------
    >>> lemma6_templates(np.array([[1], [0]], dtype=object), 3).tolist()
    [[1, 0, 1], [0, 0, 1], [0, 1, 1], [0, 0, 1], [0, 0, 1]]
    """
    width = check_int("width d_x", width, 3)
    heads = check_int("heads H", heads)
    Varr = np.asarray(V)
    if Varr.dtype.kind in "fc" and not np.all(np.isfinite(Varr)):
        raise ValueError("V contains NaN or infinite entries")
    if Varr.dtype.kind in "USV":
        raise TypeError(f"V must be a matrix of numbers, got {V!r}")
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

    Parameters
    ----------
    width : int
        :math:`d_x`.
    depth : int
        L >= 2.
    heads : int, default 1
        H.
    n_inputs : int, default 2
        N.

    Returns
    -------
    GaussianRational
        The constant c.

    References
    ----------
    .. [1] 003, Lemma 6, eqs. 45-50 (recurrence of alpha_l, beta_l).

    Examples
    --------
    >>> witness_constant(29, 3), witness_constant(5, 2), witness_constant(9, 3, 3, 4)
    (GaussianRational(392), GaussianRational(-1), GaussianRational(1/2))
    """
    _, s, _ = validate_witness_shape(width, depth, heads, n_inputs)
    N, i = n_inputs, GaussianRational(0, 1)
    if depth == 2:
        coef, exponent = i * N, 1
    else:
        coef, exponent = GaussianRational(N), 0
        for _ in range(3, depth):
            coef, exponent = coef**3 * (N * s * s), 3 * exponent + 2
        coef, exponent = i * (N * s * s) * coef**3, 3 * exponent + 3
    return coef * (GaussianRational(0, Fraction(2, N * N)) ** exponent)
