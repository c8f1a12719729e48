r"""The in-context representation and its sentence-association function Z_in(a, b).

Two sentences :math:`S_1 = (w_1^1..w_1^N)` and :math:`S_2 = (w_2^1..w_2^N)` over a vocabulary
with embedding matrix :math:`M^V \in \mathbb R^{d_x \times V}` (column :math:`w` is the embedding
:math:`E(w)`) are shown *in the same example* (000/001, eq. 4): the network
:math:`g^{i,L,d_x}_W` of eq. 1 (no residual, no softmax) reads the 2N rows
:math:`E(w_1^1), \dots, E(w_1^N), E(w_2^1), \dots, E(w_2^N)`.  The sentence-association layer
(eq. 8) multiplies every embedding of :math:`S_1` by a vector :math:`a` and every embedding of
:math:`S_2` by :math:`b` (elementwise), giving

.. math::

    Z_{in}(a, b) = \big[g^{i,L,d_x}_W(E(w_1^1)\odot a, \dots, E(w_1^N)\odot a,
        E(w_2^1)\odot b, \dots, E(w_2^N)\odot b)\big]_p ,

so that :math:`Z_{in}(\mathbf 1, \mathbf 1) = y^{(p,i)}_{in\text{-}context}` and the
*sequential separation rank* (eq. 9) is :math:`\operatorname{seq-sep}(y) =
\operatorname{sep}_{(a,b)}(Z_y)` -- a separation rank between the two *vectors* a and b.

:math:`Z_{in}` is a polynomial, homogeneous of degree :math:`3^L`; when the output position i is
in :math:`S_1` its a-degree is odd (and even when i is in :math:`S_2`), which gives the bidegree
bound :func:`seprank.incontext.bounds.bidegree_bound` (our derivation).  Because it is a
polynomial with integer coefficients for integer weights and embeddings, its grid ranks can be
certified over GF(p) or exactly (:func:`seprank.incontext.seq_sep.incontext_seq_sep`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

import seprank.incontext.modular  # noqa: F401  (registers the GF(p) in-context evaluators)
from seprank.attention import LinearAttention
from seprank.core.domains import (
    Domain,
    ExactDomain,
    FloatDomain,
)
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import Array
from seprank.core.validation import check_index, check_int
from seprank.evaluators import evaluators
from seprank.incontext.bounds import bidegree_bound
from seprank.separation.degree import DegreeStructure

__all__ = [
    "InContextRepresentation",
    "random_embedding",
    "validate_sentences",
]


#: Pairs (a, b) evaluated per block by :meth:`InContextRepresentation.grid`.
GRID_PAIRS_PER_BLOCK = 1 << 16


def validate_sentences(
    embedding: npt.ArrayLike, first: Sequence[int], second: Sequence[int], *,
    min_length: int = 1,
) -> tuple[Array, tuple[int, ...], tuple[int, ...]]:
    """Check an embedding matrix and two sentences; return ``(M^V, S1, S2)``.

    Parameters
    ----------
    embedding : array_like, shape (d_x, V)
        :math:`M^V`; column ``w`` embeds token ``w``.  Integers, exact numbers or finite floats.
    first, second : sequence of int
        Token ids of :math:`S_1` and :math:`S_2`, each in ``0..V-1``.  Both sentences must have
        the same length N (eqs. 4-5 of paper 000/001 define both as :math:`\\{w^j\\}_{j=1}^N`
        and Proposition 1 uses the balanced partition :math:`([N], [2N]\\setminus[N])`).
    min_length : int
        Smallest admissible N (the sequential representation's next-token loss needs 2).

    Returns
    -------
    (numpy.ndarray, tuple of int, tuple of int)
        The embedding :math:`M^V` and the sentences.

    Raises
    ------
    ValueError
        Naming the out-of-vocabulary token, the unequal lengths, the bad shape or the
        non-finite entry.

    References
    ----------
    .. [1] 000 / 001, eqs. 4-5 and 8.

    Examples
    --------
    >>> M, s1, s2 = validate_sentences(np.ones((2, 3), dtype=int), [0, 2], [1, 1])
    >>> s1, s2
    ((0, 2), (1, 1))
    >>> validate_sentences(np.ones((2, 3), dtype=int), [0, 3], [1, 1])
    Traceback (most recent call last):
    ...
    ValueError: token 3 at position 1 of S1 (first) is out of vocabulary: ids must lie in 0..2 ...
    """
    M = np.asarray(embedding)
    if M.ndim != 2 or M.shape[0] < 1 or M.shape[1] < 1:
        raise ValueError(f"the embedding M^V must be a (d_x, V) matrix, got shape {M.shape}")
    if M.dtype.kind in "fc" and not np.all(np.isfinite(M)):
        raise ValueError("the embedding M^V contains NaN or infinite entries")
    if M.dtype.kind == "c":
        raise TypeError("the embedding M^V must be real")
    V = M.shape[1]
    min_length = check_int("min_length", min_length, 0)
    sentences = []
    for name, sentence in (("S1 (first)", first), ("S2 (second)", second)):
        if isinstance(sentence, str | bytes) or not hasattr(sentence, "__iter__"):
            raise TypeError(f"{name} must be a sequence of integer token ids, got {sentence!r}")
        tokens = []
        for pos, w in enumerate(sentence):
            if isinstance(w, bool) or not isinstance(w, int | np.integer):
                raise ValueError(f"token {w!r} at position {pos} of {name} is not an integer id")
            if not 0 <= int(w) < V:
                raise ValueError(
                    f"token {int(w)} at position {pos} of {name} is out of vocabulary: ids must "
                    f"lie in 0..{V - 1} (V = {V} columns of M^V)"
                )
            tokens.append(int(w))
        if len(tokens) < min_length:
            raise ValueError(f"{name} has {len(tokens)} tokens; this construction needs at least "
                             f"{min_length}")
        sentences.append(tuple(tokens))
    if len(sentences[0]) != len(sentences[1]):
        raise ValueError(
            f"S1 has {len(sentences[0])} tokens but S2 has {len(sentences[1])}: the in-context "
            "and sequential representations (eqs. 4-5) take two sentences of the same length N; "
            "pad or truncate them to a common length"
        )
    return M, sentences[0], sentences[1]


def random_embedding(
    width: int, vocab: int, *, low: int = 1, high: int = 50,
    seed: SeedLike = None,
) -> Array:
    """A random integer embedding matrix with **nonzero** entries in ``±[low, high]``.

    A zero entry of :math:`E(w)` would erase a coordinate of a or b from every use of w, which
    can lower the separation rank; nonzero entries keep the instance generic.

    Parameters
    ----------
    width : int
        :math:`d_x`.
    vocab : int
        V.
    low, high : int, keyword-only
        Range of the absolute values (default 1..50).
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds the draw.

    Returns
    -------
    numpy.ndarray
        int64 matrix, shape ``(d_x, V)``.

    References
    ----------
    .. [1] 000 / 001, eqs. 4-5 and 8.

    Examples
    --------
    >>> E = random_embedding(3, 5, seed=0)
    >>> E.shape, bool(np.all(E != 0))
    ((3, 5), True)
    """
    width, vocab = check_int("width d_x", width), check_int("vocab V", vocab)
    low, high = check_int("low", low), check_int("high", high)
    if high < low:
        raise ValueError(f"need 1 <= low <= high, got low={low}, high={high}")
    guard_memory(3 * array_bytes((width, vocab), np.int64),
                 what=f"a {width:,} x {vocab:,} embedding", fix="use a smaller width or vocab")
    rng = as_generator(seed)
    magnitude = rng.integers(low, high + 1, (width, vocab))
    return magnitude * rng.choice(np.array([-1, 1]), (width, vocab))


@dataclass(eq=False)
class InContextRepresentation:
    r"""Z_in(a, b): the in-context representation with its sentence-association layer (eqs. 4, 8).

    Parameters
    ----------
    net : LinearAttention
        The network of eq. 1 (``residual=False``; paper 000/001 analyse no residual).
    embedding : array_like, shape (d_x, V)
        :math:`M^V`.
    first, second : sequence of int
        :math:`S_1`, :math:`S_2` (same length N).
    position : int
        Output position i, 0-based in ``0..2N-1`` (``i < N``: inside :math:`S_1`).
    coordinate : int
        Output coordinate p, 0-based in ``0..d_x-1``.

    References
    ----------
    .. [1] 000 / 001 (Levine et al., "The Inductive
       Bias of In-Context Learning", ICLR 2022), eqs. 1-4 and 8-9.  Notes:
       docs/notes/seed_incontext_bias.md §1.3, §1.5.

    Examples
    --------
    >>> net = LinearAttention.random(depth=1, width=2, seed=0, low=-3, high=3)
    >>> rep = InContextRepresentation(net, [[1, 2, 3], [1, -1, 2]], [0, 1], [2, 2])
    >>> one = np.ones(2, dtype=int)
    >>> bool(rep(one, one) == net(rep.inputs(one, one))[0, 0])   # Z(1, 1) = y
    True
    >>> int(rep(2 * one, 2 * one)) == 2 ** 3 * int(rep(one, one))   # homogeneous, degree 3**L
    True
    """

    net: LinearAttention
    embedding: Array
    first: Sequence[int]
    second: Sequence[int]
    position: int = 0
    coordinate: int = 0
    _grid_function: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.net, LinearAttention):
            raise TypeError("net must be a seprank.LinearAttention")
        if self.net.residual:
            raise ValueError("paper 000/001 analyse eq. 1 without residual connections; "
                             "build the network with residual=False")
        M, s1, s2 = validate_sentences(self.embedding, self.first, self.second)
        if M.shape[0] != self.net.width:
            raise ValueError(f"the embedding has d_x = {M.shape[0]} rows but the network has "
                             f"width {self.net.width}")
        self.embedding, self.first, self.second = M, s1, s2
        n = len(s1)
        self.position = check_index("output position", self.position, 2 * n,
                                    " (the in-context input has 2N positions)")
        self.coordinate = check_index("output coordinate", self.coordinate, self.net.width)
        self._grid_function = _PairFunction(self)

    @classmethod
    def random(cls, *, depth: int, width: int, heads: int = 1, n_tokens: int = 1,
               vocab: int | None = None, position: int = 0, coordinate: int = 0,
               seed: SeedLike = None) -> InContextRepresentation:
        """Random integer weights in [-50, 50], a nonzero integer embedding and random
        sentences over ``vocab`` (default 2N) tokens: a generic instance for certified ranks.

        Parameters
        ----------
        depth : int, keyword-only
            L.
        width : int, keyword-only
            :math:`d_x`.
        heads : int, keyword-only
            H (default 1).
        n_tokens : int, keyword-only
            N, the length of each sentence (default 1).
        vocab : int, optional, keyword-only
            Vocabulary size (default 2N).
        position, coordinate : int, keyword-only
            The output position i and coordinate p.
        seed : int or numpy.random.Generator, optional, keyword-only
            Seeds the instance.

        Returns
        -------
        InContextRepresentation
            The instance.
        """
        rng = as_generator(seed)
        n_tokens = check_int("n_tokens N", n_tokens)
        V = 2 * n_tokens if vocab is None else check_int("vocab V", vocab)
        guard_memory(8 * 4 * n_tokens, what=f"two sentences of {n_tokens:,} tokens",
                     fix="use fewer tokens")
        net = LinearAttention.random(depth=depth, width=width, heads=heads, seed=rng)
        E = random_embedding(width, V, seed=rng)
        s1 = [int(x) for x in rng.integers(0, V, n_tokens)]
        s2 = [int(x) for x in rng.integers(0, V, n_tokens)]
        return cls(net, E, s1, s2, position=position, coordinate=coordinate)

    # --- shape ---------------------------------------------------------------------------------

    @property
    def n_tokens(self) -> int:
        """N, the common length of the two sentences."""
        return len(self.first)

    @property
    def width(self) -> int:
        return self.net.width

    @property
    def output_in_first(self) -> bool:
        """Whether the output position i lies in :math:`S_1` (then the a-degrees are odd)."""
        return self.position < self.n_tokens

    def __repr__(self) -> str:
        return (f"InContextRepresentation({self.net!r}, N={self.n_tokens}, S1={self.first}, "
                f"S2={self.second}, position={self.position}, coordinate={self.coordinate})")

    # --- evaluation ----------------------------------------------------------------------------

    def _domain(self, *arrays: Array) -> Domain:
        kinds = {np.asarray(x).dtype.kind for x in (*arrays, self.embedding)}
        if kinds & {"f", "c"} or self.net.weight_kind != "exact":
            return FloatDomain(complex_="c" in kinds or self.net.weight_kind == "complex")
        return ExactDomain()

    def inputs(self, a: npt.ArrayLike, b: npt.ArrayLike, *,
               domain: Domain | None = None) -> Array:
        """The 2N network inputs :math:`E(w_1^j)\\odot a` then :math:`E(w_2^j)\\odot b`.

        ``a`` and ``b`` have shape ``(..., d_x)`` (broadcast); returns ``(..., 2N, d_x)``.

        Parameters
        ----------
        a, b : array_like
            Shape ``(..., d_x)``.
        domain : Domain, optional, keyword-only
            The arithmetic (None: float64).

        Returns
        -------
        numpy.ndarray
            Shape ``(..., 2N, d_x)``.
        """
        a_arr, b_arr = np.asarray(a), np.asarray(b)
        for name, v in (("a", a_arr), ("b", b_arr)):
            if v.ndim < 1 or v.shape[-1] != self.width:
                raise ValueError(f"{name} must have shape (d_x,) or (..., d_x) with d_x = "
                                 f"{self.width}, got {v.shape}")
        dom = self._domain(a_arr, b_arr) if domain is None else domain
        E = dom.asarray(self.embedding)
        E1 = E[:, list(self.first)].T  # (N, d_x)
        E2 = E[:, list(self.second)].T
        a_d, b_d = dom.asarray(a_arr), dom.asarray(b_arr)
        batch = np.broadcast_shapes(a_d.shape[:-1], b_d.shape[:-1])
        a_d = np.broadcast_to(a_d, (*batch, self.width))
        b_d = np.broadcast_to(b_d, (*batch, self.width))
        X1 = dom.mul(E1, a_d[..., None, :])
        X2 = dom.mul(E2, b_d[..., None, :])
        return np.concatenate([X1, X2], axis=-2)

    def __call__(self, a: npt.ArrayLike, b: npt.ArrayLike, *,
                 domain: Domain | None = None) -> Array:
        """:math:`Z_{in}(a, b)`, batched over leading axes of ``a`` and ``b``."""
        dom = self._domain(np.asarray(a), np.asarray(b)) if domain is None else domain
        X = self.inputs(a, b, domain=dom)
        return self.net(X, domain=dom)[..., self.position, self.coordinate]

    def value(self, *, domain: Domain | None = None) -> Any:
        """:math:`y^{(p,i)}_{in\\text{-}context}(S_1, S_2) = Z_{in}(\\mathbf 1, \\mathbf 1)`.

        Parameters
        ----------
        domain : Domain, optional, keyword-only
            The arithmetic (None: float64).

        Returns
        -------
        number
            :math:`Z_{in}(\\mathbf 1, \\mathbf 1)`.
        """
        ones = np.ones(self.width, dtype=int)
        return self(ones, ones, domain=domain)[()]

    @property
    def grid_function(self) -> Any:
        """``f(X, *, domain=None)`` with ``X[:, 0] = a``, ``X[:, 1] = b``: for
        :func:`seprank.separation_rank` with ``n_inputs=2`` and partition ``([0], [1])``."""
        return self._grid_function

    def grid(self, a_templates: npt.ArrayLike, b_templates: npt.ArrayLike, *,
             domain: Domain | None = None) -> Array:
        """The grid matrix :math:`[Z_{in}(a^{(r)}, b^{(s)})]_{r,s}` (001, Lemma 13).

        Parameters
        ----------
        a_templates, b_templates : array_like
            Templates, shapes ``(Z_a, d_x)`` and ``(Z_b, d_x)``.
        domain : Domain, optional, keyword-only
            The arithmetic (None: float64).

        Returns
        -------
        numpy.ndarray
            Shape ``(Z_a, Z_b)``.
        """
        A, B = np.asarray(a_templates), np.asarray(b_templates)
        if A.ndim != 2 or B.ndim != 2:
            raise ValueError("templates must be 2-D arrays of shape (Z, d_x)")
        rows = max(1, GRID_PAIRS_PER_BLOCK // max(1, B.shape[0]))  # bounded temporaries
        blocks = [self(A[r:r + rows, None, :], B[None, :, :], domain=domain)
                  for r in range(0, A.shape[0], rows)]
        return np.concatenate(blocks, axis=0)

    def a_degree_profile(self, a: npt.ArrayLike, b: npt.ArrayLike) -> list[Fraction]:
        r"""Exact coefficients :math:`c_m` of :math:`Z_{in}(s a, b) = \sum_m s^m c_m(a, b)`.

        Interpolation in s through :math:`3^L + 1` exact evaluations (integer/Fraction
        weights, embeddings and vectors); :math:`c_m` is the a-degree-m part of Z_in at (a, b).
        Our derivation (notes §1.7): nonzero only for odd m when i is in :math:`S_1`, even m
        when i is in :math:`S_2`.

        Parameters
        ----------
        a, b : array_like
            Exact vectors of length :math:`d_x`.

        Returns
        -------
        list of fractions.Fraction
            :math:`c_0, \dots, c_{3^L}`.
        """
        if self.net.weight_kind != "exact":
            raise TypeError("a_degree_profile needs integer or Fraction weights")
        D = 3**self.net.depth
        a_arr, b_arr = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
        values = [Fraction(self(a_arr * s, b_arr, domain=ExactDomain()).item())
                  for s in range(D + 1)]
        # Newton divided differences at nodes 0..D, then expand to monomial coefficients
        coef = list(values)
        for level in range(1, D + 1):
            for k in range(D, level - 1, -1):
                coef[k] = (coef[k] - coef[k - 1]) / level
        poly = [coef[D]]  # Horner on the Newton basis: poly <- poly * (s - k) + c_k
        for k in range(D - 1, -1, -1):
            shifted = [Fraction(0), *poly]
            for m in range(len(poly)):
                shifted[m] -= k * poly[m]
            shifted[0] += coef[k]
            poly = shifted
        return poly

    def bound(self) -> int:
        """The bidegree bound PB(d_x, L) on seq-sep (our derivation, notes §3.2).

        Returns
        -------
        int
            PB(d_x, L).
        """
        return bidegree_bound(self.width, self.net.depth)


@dataclass(frozen=True)
class _PairFunction:
    """Adapter: X (batch, 2, d_x) -> Z_in(X[:, 0], X[:, 1]) (accepts ``domain=``); where a
    registered ``'incontext_pairs'`` evaluator supports the domain (:mod:`seprank.evaluators`:
    :func:`seprank.incontext.modular.modular_pair_values` over GF(p), p < 2**25) it uses it."""

    rep: InContextRepresentation

    def certificate_function(self) -> dict[str, Any]:
        """Z_in as a certificate's function (:mod:`seprank.certificates`): the network's exact
        weights, the embedding, the sentences, the output position and coordinate."""
        from seprank.certificates.build import json_array, network_spec

        rep = self.rep
        return {"type": "incontext", "network": network_spec(rep.net),
                "embedding": json_array(rep.embedding),
                "first": list(rep.first), "second": list(rep.second),
                "position": rep.position, "coordinate": rep.coordinate}

    def __call__(self, X: Array, *, domain: Domain | None = None) -> Array:
        X = np.asarray(X)
        fast = evaluators(form="incontext_pairs", domain=domain) if domain is not None else ()
        if fast:
            return np.asarray(fast[0](self.rep, X[:, 0], X[:, 1], domain))
        return self.rep(X[:, 0], X[:, 1], domain=domain)

    def degree_structure(self, A: Sequence[int], B: Sequence[int]) -> DegreeStructure | None:
        """Bidegrees of Z_in in (a, b) (our derivation, notes §1.7; tested by the claim
        ICB-bidegree-structure): homogeneous of degree 3^L, the a-degree odd when the output
        position i is in S1 and even when it is in S2."""
        D = 3**self.rep.net.depth
        parity = int(self.rep.output_in_first) if tuple(A) == (0,) else int(
            not self.rep.output_in_first)
        return DegreeStructure.homogeneous(
            D, a_parity=parity, source=f"Z_in is homogeneous of degree 3^L = {D}, a-degree odd "
            "iff i is in S1 (our derivation, notes §1.7)")


