r"""The lower-bound pipeline of Theorem 2 (000/001, App. C): Hadamard powers of Gram
matrices, Lemmas 10-11 and 15-17, and a network construction realising them.

Theorem 2 reduces the in-context ε-seq-sep to the ε-rank of a grid sub-matrix equal (up to a
constant) to :math:`M = (BB^T)^{\odot\lambda}` with unit rows :math:`B \in \mathbb R^{n\times d}`,
:math:`d = (d_x-H)/2`, :math:`\lambda = 3^{L-2}`, :math:`n = ((d\ \lambda))`:

* rank M = ((d λ)) generically (degree-λ monomials in d variables);
* Lemma 11: :math:`r = \#\{\lambda_k(M) > 1/n\} \ge (n-1)/\|M\|_F` (unit diagonal);
* Lemma 10: :math:`(1/(2n^2))`-rank(M) >= r;
* Lemma 15: :math:`\mathbb E\|M\|_F \le \sqrt{d+1}\, n^{3/4}` (rows uniform on the sphere).

Sphere convention (notes §7.2, decision): rows uniform on :math:`S^{d-1}\subset\mathbb R^d`
(:func:`sphere_rows`, floats); exact rational rows on the same sphere come from
:func:`seprank.d2w.hadamard.rational_sphere_V`.  The Hadamard powers and their certified ranks are
paper 003's (:func:`seprank.d2w.hadamard.hadamard_power_gram`,
:func:`seprank.d2w.hadamard.hadamard_power_rank`, whose ``arithmetic='modular'`` forms them in GF(p)
for the large n of this pipeline).

:func:`hadamard_construction` builds weights, an all-ones embedding and templates for which the
in-context grid sub-matrix is exactly :math:`c\,(AA^T)^{\odot\lambda'}` with
:math:`\lambda' = (3^{L-1}-1)/2` -- a real variant (asymmetric query/key; H = 1,
:math:`d_x = 2d+1`) of the complex construction of paper 003 that the paper imports, which gives
:math:`3^{L-2}`; :math:`\lambda' \ge 3^{L-2}` (notes §4.2, [INF]).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from seprank.attention import LinearAttention
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import Array
from seprank.core.validation import check_array, check_int, validated
from seprank.d2w.bounds import check_depth, multiset_coefficient
from seprank.incontext.representation import InContextRepresentation

__all__ = [
    "HadamardConstruction",
    "hadamard_construction",
    "lemma11_count",
    "lemma15_exact_bound",
    "lemma16_moment",
    "lemma17_maximum",
    "sphere_rows",
]



def sphere_rows(n: int, d: int, *, seed: SeedLike = None) -> Array:
    """``n`` rows uniform on :math:`S^{d-1} \\subset \\mathbb R^d` (normalised Gaussians).

    Parameters
    ----------
    n : int
        Number of rows.
    d : int
        Dimension.
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the Gaussians.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, d)``, unit rows.

    References
    ----------
    .. [1] 001, App. C.2 (rows uniform on the sphere, Corollary 2).

    Examples
    --------
    >>> U = sphere_rows(3, 2, seed=0)
    >>> bool(np.allclose(np.linalg.norm(U, axis=1), 1))
    True
    """
    n, d = check_int("n", n), check_int("d", d)
    guard_memory(array_bytes((n, d)) * 2, what=f"{n:,} x {d:,} sphere rows", fix="use fewer rows")
    rng = as_generator(seed)
    G = rng.standard_normal((n, d))
    return G / np.linalg.norm(G, axis=1, keepdims=True)


def lemma11_count(M: npt.ArrayLike) -> tuple[int, float]:
    r"""Lemma 11 for symmetric M with unit diagonal: :math:`(r, (n-1)/\|M\|_F)` with
    :math:`r = \max\{k : \lambda_k > 1/n\}`; the lemma asserts :math:`r \ge (n-1)/\|M\|_F`.

    (000 prints ">= 1/n" inside the max; the proof uses the strict version.)

    Parameters
    ----------
    M : array_like
        A symmetric matrix with unit diagonal.

    Returns
    -------
    (int, float)
        r and :math:`(n-1)/\|M\|_F`.

    References
    ----------
    .. [1] 001, App. C.3, Lemma 11.

    Examples
    --------
    >>> from seprank.d2w.hadamard import hadamard_power_gram
    >>> r, bound = lemma11_count(hadamard_power_gram(sphere_rows(10, 2, seed=0), 9))
    >>> r, round(bound, 2)
    (6, 1.74)
    """
    arr = check_array("M", M, ndim=2)
    n = arr.shape[0]
    if arr.shape != (n, n) or not np.allclose(arr, arr.T):
        raise ValueError("Lemma 11 needs a symmetric square matrix")
    if not np.allclose(np.diag(arr), 1.0):
        raise ValueError("Lemma 11 needs a unit diagonal")
    ev = np.linalg.eigvalsh(arr)
    return int(np.count_nonzero(ev > 1.0 / n)), (n - 1) / float(np.linalg.norm(arr))


@validated(k="count", lam="count0")
def lemma16_moment(k: int, lam: int) -> float:
    r""":math:`\mathbb E\langle u, v\rangle^{2\lambda}` for u, v uniform on
    :math:`S^{k-1}\subset\mathbb R^k`: :math:`\Gamma(k/2)\Gamma(\lambda+\frac12)/(\sqrt\pi\,
    \Gamma(\lambda+k/2))` (exact formula; the marginal of :math:`u_1` has density
    :math:`\propto (1-x^2)^{(k-3)/2}`).

    Parameters
    ----------
    k : int
        Dimension.
    lam : int
        λ.

    Returns
    -------
    float
        :math:`\mathbb E\langle u, v\rangle^{2\lambda}`.

    References
    ----------
    .. [1] 001, App. C.3, Lemma 16.

    Examples
    --------
    >>> round(lemma16_moment(2, 3), 6)
    0.3125
    """
    return math.exp(math.lgamma(k / 2) + math.lgamma(lam + 0.5) - 0.5 * math.log(math.pi)
                    - math.lgamma(lam + k / 2))


@validated(d="count", lam="count0")
def lemma15_exact_bound(d: int, lam: int) -> tuple[float, float]:
    r"""Lemma 15 made exact: :math:`\sqrt{\mathbb E\|M\|_F^2} = \sqrt{n + n(n-1)\,
    \mathbb E\langle u,v\rangle^{2\lambda}}` (diagonal included, unlike the proof's
    :math:`n^2\mathbb E\langle u,v\rangle^{2\lambda}`) and the printed
    :math:`\sqrt{d+1}\,n^{3/4}`, for :math:`n = ((d\ \lambda))` rows on :math:`S^{d-1}`.
    By Jensen, :math:`\mathbb E\|M\|_F` is at most the first number.

    Parameters
    ----------
    d : int
        Dimension of the sphere's ambient space.
    lam : int
        λ.

    Returns
    -------
    (float, float)
        The exact :math:`\sqrt{\mathbb E\|M\|_F^2}` and the printed bound.

    References
    ----------
    .. [1] 001, App. C.3, Lemma 15; notes §4.2, PC-8.

    Examples
    --------
    >>> [round(x, 2) for x in lemma15_exact_bound(2, 3)]
    [2.78, 4.9]
    """
    n = multiset_coefficient(d, lam)
    second = n + n * (n - 1) * lemma16_moment(d, lam)
    return math.sqrt(second), math.sqrt(d + 1) * n**0.75


@validated(d="count", lam="count")
def lemma17_maximum(d: int, lam: int) -> tuple[float, float]:
    r"""Lemma 17: :math:`\max_{x\in[0,1]} x^{2\lambda}(1-x^2)^{d/2}` (at :math:`x^2 =
    2\lambda/(2\lambda+d)`) and the printed bound :math:`((d\ \lambda))^{-1/2}`.

    Parameters
    ----------
    d : int
        Dimension.
    lam : int
        λ.

    Returns
    -------
    (float, float)
        The maximum and the printed bound.

    References
    ----------
    .. [1] 001, App. C.3, Lemma 17.

    Examples
    --------
    >>> [round(x, 4) for x in lemma17_maximum(2, 3)]
    [0.1055, 0.5]
    """
    x2 = 2 * lam / (2 * lam + d)
    value = math.exp(lam * math.log(x2) + d / 2 * math.log1p(-x2))
    return value, multiset_coefficient(d, lam) ** -0.5


@dataclass(frozen=True)
class HadamardConstruction:
    r"""Weights, embedding and templates whose in-context grid is :math:`c(AA^T)^{\odot\lambda'}`.

    Attributes
    ----------
    representation : InContextRepresentation
        H = 1, :math:`d_x = 2d+1`, all-ones embedding (V = 1), output coordinate 2d (0-based).
    a_templates, b_templates : numpy.ndarray (object)
        :math:`(A_j, 0, 1)` and :math:`(0, A_j, 1)`.
    lam : int
        :math:`\lambda' = (3^{L-1}-1)/2`.
    constant : Fraction
        :math:`c = 2N (2N^3)^{\lambda'}`.
    """

    representation: InContextRepresentation
    a_templates: Array
    b_templates: Array
    lam: int
    constant: Fraction


def hadamard_construction(rows: npt.ArrayLike, *, depth: int, n_tokens: int = 1,
                          output_position: int = 0) -> HadamardConstruction:
    r"""Real construction for Theorem 2 (notes §4.2, our variant, verified exactly in tests).

    Layer 1: :math:`W^{Q} = W^{K} = e_1 e_{2d+1}^T` (score ≡ 1), :math:`W^V = W^O = I`, so every
    position outputs :math:`u = N(a + b) = N(A_{j_1}, A_{j_2}, 2)`.  Layers l >= 2: :math:`W^Q`
    reads the a-half, :math:`W^K` the b-half, :math:`W^V = W^O = I`; all 2N positions stay equal,
    :math:`y^{(l+1)} = 2N\langle Q y, K y\rangle y`, so with :math:`g = \langle A_{j_1},
    A_{j_2}\rangle`, :math:`y^{(l)} = (2N^3 g)^{(3^{l-1}-1)/2} u` and the constant coordinate
    reads :math:`Z_{in} = 2N (2N^3)^{\lambda'} g^{\lambda'}`.

    Parameters
    ----------
    rows : array_like
        The rows :math:`A_j` (unit vectors of dimension d).
    depth : int, keyword-only
        L.
    n_tokens : int, keyword-only
        N (default 1).
    output_position : int, keyword-only
        The output position i (default 0).

    Returns
    -------
    HadamardConstruction
        The network, embedding and sentences.

    References
    ----------
    .. [1] 001, App. C.2, Theorem 2 (our real variant of its construction, notes §4.2,
       PC-9).

    Examples
    --------
    >>> from seprank.d2w.hadamard import hadamard_power_gram, rational_sphere_V
    >>> A = rational_sphere_V(4, 2, seed=1)
    >>> c = hadamard_construction(A, depth=2)
    >>> G = c.representation.grid(c.a_templates, c.b_templates)
    >>> bool(np.all(G == c.constant * hadamard_power_gram(A, c.lam)))
    True
    """
    A = np.asarray(rows)
    if A.ndim != 2 or A.shape[1] < 1 or A.shape[0] < 1:
        raise ValueError(f"rows must be an (n, d) matrix, got shape {A.shape}")
    if A.dtype.kind not in "iuO":
        raise TypeError(f"rows must be exact (integers or Fractions, e.g. rational_sphere_V): "
                        f"the construction is evaluated exactly, got dtype {A.dtype}")
    depth = check_depth(depth, 2)
    n_tokens = check_int("n_tokens N", n_tokens)
    output_position = check_int("output_position i", output_position, 0, 2 * n_tokens - 1)
    n, d = A.shape
    d_x = 2 * d + 1
    L = depth
    zero = np.zeros((L, 1, d_x, d_x), dtype=int)
    q, k = zero.copy(), zero.copy()
    q[0, 0, 0, 2 * d] = k[0, 0, 0, 2 * d] = 1
    for layer in range(1, L):
        for r in range(d):
            q[layer, 0, r, r] = 1
            k[layer, 0, r, d + r] = 1
    eye = np.broadcast_to(np.eye(d_x, dtype=int), (L, 1, d_x, d_x)).copy()
    net = LinearAttention(q, k, eye, eye.copy())
    tokens = [0] * n_tokens
    rep = InContextRepresentation(net, np.ones((d_x, 1), dtype=int), tokens, tokens,
                                  position=output_position, coordinate=2 * d)
    obj = A.astype(object)
    zeros = np.zeros((n, d), dtype=int).astype(object)
    ones = np.ones((n, 1), dtype=int).astype(object)
    a_t = np.concatenate([obj, zeros, ones], axis=1)
    b_t = np.concatenate([zeros, obj, ones], axis=1)
    lam = (3 ** (L - 1) - 1) // 2
    N = n_tokens
    return HadamardConstruction(rep, a_t, b_t, lam, Fraction(2 * N * (2 * N**3) ** lam))
