r"""Linearized (softmax-free) multi-head self-attention, the network of paper 003, eq. 3 / eq. 12.

One layer maps the rows :math:`x^1, \dots, x^N \in \mathbb R^{d_x}` of ``X`` to

.. math::

    y^{i} = \sum_{j=1}^{N} \sum_{h=1}^{H}
        \langle W^{Q,h} x^{i}, W^{K,h} x^{j} \rangle \, W^{O,h} W^{V,h} x^{j},
    \qquad W^{Q,h}, W^{K,h}, W^{V,h} \in \mathbb R^{d_a \times d_x},\;
    W^{O,h} \in \mathbb R^{d_x \times d_a},\; d_a = d_x / H,

with no softmax, no scaling, no normalisation and no mask; the depth-L network composes L such
layers (``residual=True``: :math:`x \leftarrow x + y`, the variant of Theorems 5-6).  In the
row convention used here (``X`` is ``(N, d_x)``), eq. 12 reads

.. math::  Y = \sum_h X\,(W^{Q,h\,T} W^{K,h})\,(X^T X)\,(W^{V,h\,T} W^{O,h\,T}),

which is how the layer is evaluated: per layer one Gram matrix :math:`X^T X` and ``H`` products
of ``d_x x d_x`` matrices, batched over leading axes.  The output is a homogeneous polynomial of
degree :math:`3^L` in the inputs (without residual).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from seprank.core.display import markdown_table
from seprank.core.domains import Domain, ExactDomain, FloatDomain, ModularDomain
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.random import SeedLike, as_generator
from seprank.core.types import Array
from seprank.core.validation import check_choice, check_int
from seprank.separation.degree import DegreeStructure
from seprank.separation.engine import separation_rank
from seprank.separation.result import SeparationRankResult

if TYPE_CHECKING:
    import sympy

__all__ = ["LinearAttention", "OutputEntry"]



def _kind(arrays: Sequence[Array]) -> Literal["float", "complex", "exact"]:
    kinds = {a.dtype.kind for a in arrays}
    if "c" in kinds:
        return "complex"
    if "f" in kinds:
        return "float"
    return "exact"


@dataclass(frozen=True)
class OutputEntry:
    """The scalar function :math:`y^{i}_p(x^1..x^N)` of a network, batch-evaluable: output
    ``position`` i (a row of the output) and ``coordinate`` p (a column).

    ``entry(X, domain=...)`` with ``X`` of shape ``(batch, N, d_x)`` returns ``(batch,)``.

    Parameters
    ----------
    net : LinearAttention
        The network (unbatched).
    position : int
        The output position i.
    coordinate : int
        The output coordinate p.
    """

    net: LinearAttention
    position: int
    coordinate: int

    def __call__(self, X: Array, *, domain: Domain | None = None) -> Array:
        return self.net(X, domain=domain)[..., self.position, self.coordinate]

    def certificate_function(self) -> dict[str, Any]:
        """This entry as a certificate's function (:mod:`seprank.certificates`): the exact
        weights, ``residual``, ``position`` and ``coordinate``, from which the independent
        checker recomputes every grid entry.

        Returns
        -------
        dict
            The function ``{'type': 'linear_attention', ...}``.
        """
        from seprank.certificates.build import network_spec

        return {"type": "linear_attention", "network": network_spec(self.net),
                "position": self.position, "coordinate": self.coordinate}

    def degree_structure(self, A: Sequence[int], B: Sequence[int]) -> DegreeStructure | None:
        r"""The bidegrees of :math:`y^i_p` in :math:`(x_A, x_B)` (for
        ``separation_rank(..., structure='degree')``), or None for a residual network.

        Without residual connections every layer is cubic, so :math:`y^i_p` is homogeneous of
        degree :math:`3^L` (003, eq. 12); in each term of a layer the output position enters
        once and the summed position twice, so by induction the degree in :math:`x_A` is odd
        when :math:`i \in A` and even otherwise.  A residual network mixes degrees
        :math:`1, 3, \dots, 3^L` and has no block-diagonal structure.

        Parameters
        ----------
        A, B : sequence of int
            The partition of the positions.

        Returns
        -------
        DegreeStructure or None
            The bidegrees (None for a residual network).

        Examples
        --------
        >>> net = LinearAttention.random(depth=1, width=2, seed=0)
        >>> net.entry(0, 0).degree_structure((0,), (1,)).bidegrees
        ((1, 2), (3, 0))
        """
        if self.net.residual:
            return None
        D = 3**self.net.depth
        return DegreeStructure.homogeneous(
            D, a_parity=int(self.position in tuple(A)),
            source=f"003, eq. 12: no residual, homogeneous of degree 3^L = {D}; A-degree odd "
                   "iff the output position is in A")


@dataclass(eq=False)
class LinearAttention:
    """Depth-L, width-d_x, H-head linear self-attention (003, eq. 3 and eq. 12).

    Weights may be float64, complex128 (the lower-bound witness of App. B.2 is complex),
    integers, or exact objects (``int``, ``Fraction``, sympy expressions).  Integer and exact
    weights can be evaluated in every domain; float weights only in :class:`FloatDomain`.
    Leading axes ``...`` (the same for all four) are a **batch of networks**
    (:attr:`batch_shape`; e.g. one updated network per input of 000/001's sequential
    representation): evaluation broadcasts them against the batch axes of ``X``; everything
    that addresses one network (entries, polynomials, certificates) needs an unbatched one.
    Fast paths of the same evaluation are registered in :mod:`seprank.evaluators`.

    Parameters
    ----------
    query, key, value : array_like, shape (..., L, H, d_a, d_x)
        :math:`W^{Q,l,h}`, :math:`W^{K,l,h}`, :math:`W^{V,l,h}`.
    output : array_like, shape (..., L, H, d_x, d_a)
        :math:`W^{O,l,h}`.
    residual : bool, keyword-only
        Add the skip connection :math:`x^{l} = x^{l-1} + y^{l}` (003, App. A.4).

    References
    ----------
    .. [1] 003 (Levine et al., "The Depth-to-Width Interplay in
       Self-Attention", NeurIPS 2020), eqs. 3-4 and 12, App. A.4 (residual variant).

    Examples
    --------
    >>> net = LinearAttention.random(depth=2, width=4, heads=2, seed=0)
    >>> X = np.arange(12).reshape(3, 4)
    >>> Y = net(X)                          # exact integers: degree 3**2 = 9 polynomial
    >>> Y.shape, Y.dtype
    ((3, 4), dtype('O'))
    >>> bool(np.all(net(2 * X) == 2**9 * Y))  # homogeneity
    True
    """

    query: Array
    key: Array
    value: Array
    output: Array
    residual: bool = False
    _cache: dict[Domain, tuple[Array, Array]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        q, k, v, o = (np.asarray(w) for w in (self.query, self.key, self.value, self.output))
        if q.ndim < 4:
            raise ValueError(f"query weights must have shape (L, H, d_a, d_x) or (batch, L, H, "
                             f"d_a, d_x), got {q.shape}")
        *batch, L, H, d_a, d_x = q.shape
        if L < 1 or H < 1 or d_a < 1:
            raise ValueError(f"need L >= 1, H >= 1 and d_a >= 1; got shape {q.shape}")
        for name, w, shape in (("key", k, q.shape), ("value", v, q.shape),
                               ("output", o, (*batch, L, H, d_x, d_a))):
            if w.shape != shape:
                raise ValueError(f"{name} weights must have shape {shape}, got {w.shape}")
        for name, w in (("query", q), ("key", k), ("value", v), ("output", o)):
            if w.dtype.kind in "fc" and not np.all(np.isfinite(w)):
                raise ValueError(f"the {name} weights contain NaN or infinite entries")
            w = w.copy()
            w.flags.writeable = False  # cached per-domain products must not go stale
            setattr(self, name, w)

    # --- construction ----------------------------------------------------------------------

    @classmethod
    def random(
        cls,
        *,
        depth: int,
        width: int,
        heads: int = 1,
        residual: bool = False,
        weights: Literal["integer", "float"] = "integer",
        low: int = -50,
        high: int = 50,
        seed: SeedLike = None,
    ) -> LinearAttention:
        """A network with random weights.

        Parameters
        ----------
        depth, width, heads : int, keyword-only
            L >= 1, d_x >= 1 and H >= 1 with H dividing d_x (d_a = d_x / H).
        residual : bool
            Residual variant.
        weights : {'integer', 'float'}
            ``'integer'``: uniform integers in ``[low, high]`` (default [-50, 50]; exact and
            modular evaluation possible).  Ranks of random weights are generic only with high
            probability -- small ranges make singular weight matrices likely (e.g. in [-5, 5] a
            3 x 3 key matrix is singular with probability ~1e-2) -- so use several seeds.
            ``'float'``: standard normal / sqrt(d_x).
        seed : int or Generator, optional
            Seeds the weights.
        low, high : int, keyword-only
            The range of the integer weights (default -50..50).

        Returns
        -------
        LinearAttention
            The network.
        """
        depth, width, heads = (check_int(name, value) for name, value in (
            ("depth L", depth), ("width d_x", width), ("heads H", heads)))
        if width % heads:
            raise ValueError(
                f"the width d_x = {width} is not divisible by the number of heads H = {heads}; "
                "the head dimension d_a = d_x / H must be an integer"
            )
        check_choice("weights", weights, ("integer", "float"))
        low, high = check_int("low", low, None), check_int("high", high, None)
        if high < low:
            raise ValueError(f"need low <= high, got low={low}, high={high}")
        rng = as_generator(seed)
        d_a = width // heads
        # four weight tensors of L*H*d_a*d_x entries, drawn then frozen (copied) once each
        guard_memory(8 * array_bytes((depth, heads, d_a, width), np.int64),
                     what=f"the weights of a depth-{depth}, width-{width} network",
                     fix="use a smaller width or depth")
        qkv_shape = (depth, heads, d_a, width)
        o_shape = (depth, heads, width, d_a)

        def draw(shape: tuple[int, ...]) -> Array:
            if weights == "integer":
                return rng.integers(low, high + 1, shape)
            return rng.standard_normal(shape) / np.sqrt(width)

        return cls(draw(qkv_shape), draw(qkv_shape), draw(qkv_shape), draw(o_shape),
                   residual=residual)

    # --- shape -------------------------------------------------------------------------------

    @property
    def batch_shape(self) -> tuple[int, ...]:
        """The leading (batch) axes of the weights; ``()`` for one network."""
        return tuple(self.query.shape[:-4])

    @property
    def depth(self) -> int:
        return int(self.query.shape[-4])

    @property
    def heads(self) -> int:
        return int(self.query.shape[-3])

    @property
    def head_dim(self) -> int:
        return int(self.query.shape[-2])

    @property
    def width(self) -> int:
        return int(self.query.shape[-1])

    @property
    def weight_kind(self) -> Literal["float", "complex", "exact"]:
        """``'exact'`` for integer/object weights, else ``'float'`` or ``'complex'``."""
        return _kind([self.query, self.key, self.value, self.output])

    def __repr__(self) -> str:
        batch = f"batch={self.batch_shape}, " if self.batch_shape else ""
        return (f"LinearAttention({batch}L={self.depth}, d_x={self.width}, H={self.heads}, "
                f"d_a={self.head_dim}, residual={self.residual}, weights={self.weight_kind})")

    def summary(self) -> str:
        """One line: the architecture of 003 (eq. 3) this network instantiates.

        Returns
        -------
        str
            Depth, width, heads, head dimension, the kind of weights (and the batch shape and
            residual connections when there are any).
        """
        batch = f"{self.batch_shape} batch of " if self.batch_shape else ""
        res = "residual " if self.residual else ""
        return (f"{batch}{res}linear self-attention: depth L = {self.depth}, width d_x = "
                f"{self.width}, H = {self.heads} heads of d_a = {self.head_dim}, "
                f"{self.weight_kind} weights")

    def _repr_markdown_(self) -> str:
        return markdown_table(self.summary(), [
            ("query", self.query), ("key", self.key), ("value", self.value),
            ("output", self.output),
            ("depth L", self.depth), ("width d_x", self.width), ("heads H", self.heads),
            ("residual", self.residual), ("weights", self.weight_kind)])

    def _one_network(self, what: str) -> None:
        if self.batch_shape:
            raise ValueError(f"{what} needs one network, but this one has batch axes "
                             f"{self.batch_shape}; index its weights to pick one")

    # --- evaluation ----------------------------------------------------------------------------

    def default_domain(self, X: Array) -> Domain:
        """The domain an input is evaluated in when none is given: exact for integer or exact
        weights and inputs, float (complex when any is complex) otherwise.

        Parameters
        ----------
        X : numpy.ndarray
            The input.

        Returns
        -------
        ExactDomain or FloatDomain
            The domain.
        """
        kind = _kind([np.asarray(X), self.query, self.key, self.value, self.output])
        if kind == "exact":
            return ExactDomain()
        return FloatDomain(complex_=kind == "complex")

    def _layer_matrices(self, domain: Domain) -> tuple[Array, Array]:
        """Per layer and head: KQ = W^{Q T} W^K and VO = W^{V T} W^{O T}, in ``domain``."""
        cached = self._cache.get(domain)
        if cached is not None:
            return cached
        if isinstance(domain, ModularDomain | ExactDomain) and self.weight_kind != "exact":
            raise TypeError(
                f"this network has {self.weight_kind} weights, which cannot be evaluated "
                f"exactly or modulo a prime; build it with integer or Fraction weights "
                "(LinearAttention.random(..., weights='integer'))"
            )
        q, k, v, o = (domain.asarray(w) for w in (self.query, self.key, self.value, self.output))
        kq = domain.matmul(np.swapaxes(q, -1, -2), k)
        vo = domain.matmul(np.swapaxes(v, -1, -2), np.swapaxes(o, -1, -2))
        self._cache[domain] = (kq, vo)
        return kq, vo

    def __call__(
        self,
        X: npt.ArrayLike,
        *,
        domain: Domain | None = None,
        order: Literal["auto", "gram", "scores"] = "auto",
    ) -> Array:
        r"""Evaluate the network on ``X`` of shape ``(N, d_x)`` or ``(..., N, d_x)``.

        Parameters
        ----------
        X : array_like
            Inputs, one row per position.
        domain : Domain, optional, keyword-only
            :class:`~seprank.core.domains.FloatDomain`, :class:`~seprank.core.domains.ModularDomain`
            or :class:`~seprank.core.domains.ExactDomain`.  Default: exact for integer/object
            inputs and weights, float (or complex) otherwise.
        order : {'auto', 'gram', 'scores'}, keyword-only
            How each layer's product is associated (the value is the same; only the cost and,
            for floats, the rounding differ):

            * ``'gram'`` -- :math:`Y = Z\,[\sum_h (W^{Q,h\,T} W^{K,h}) (Z^T Z)
              (W^{V,h\,T} W^{O,h\,T})]`, about :math:`N d_x^2 + 2 H d_x^3 + N d_x^2`
              multiplications per layer (cheap for long inputs);
            * ``'scores'`` -- :math:`Y = \sum_h [(Z W^{Q,h\,T} W^{K,h}) Z^T]\,
              (Z W^{V,h\,T} W^{O,h\,T})`: the N x N attention scores first, about
              :math:`2 H (N d_x^2 + N^2 d_x)` multiplications (cheap when
              :math:`N \ll d_x`, e.g. the d_x = 29, N = 2 witness of Lemma 6);
            * ``'auto'`` (default) -- ``'gram'`` in floating point (so float results are
              bit-for-bit those of earlier versions), the cheaper of the two in exact and
              modular arithmetic, where association does not change the result.

        Returns
        -------
        numpy.ndarray
            Shape ``X.shape`` (broadcast with :attr:`batch_shape` for a batch of networks):
            row ``i`` is the output :math:`y^{i}` of the last layer.
        """
        X = np.asarray(X)
        if X.dtype.kind in "USV":
            raise TypeError(f"X (the inputs) must be an array of numbers, got dtype {X.dtype}")
        if X.ndim < 2 or X.shape[-1] != self.width:
            raise ValueError(
                f"X (the inputs) must have shape (N, d_x) or (batch, N, d_x) with d_x = "
                f"{self.width}, got {X.shape}"
            )
        if X.dtype.kind in "fc" and not np.all(np.isfinite(X)):
            raise ValueError("X (the inputs) contains NaN or infinite entries")
        if X.shape[-2] < 1:
            raise ValueError("need at least one input position (N >= 1)")
        try:
            np.broadcast_shapes(X.shape[:-2], self.batch_shape)
        except ValueError:
            raise ValueError(f"X (the inputs) has batch axes {X.shape[:-2]}, which do not "
                             f"broadcast with the network's batch axes {self.batch_shape}; "
                             "add singleton axes to one of them") from None
        if order not in ("auto", "gram", "scores"):
            raise ValueError(f"order must be 'auto', 'gram' or 'scores', got {order!r}")
        if domain is not None and not all(hasattr(domain, a) for a in ("asarray", "matmul",
                                                                         "add", "mul")):
            raise TypeError(f"domain must be a number domain (FloatDomain(), ModularDomain(p) "
                            f"or ExactDomain()), got {domain!r}; a method name such as "
                            "'modular' is translated by seprank.core.domain_for(method)")
        dom = self.default_domain(X) if domain is None else domain
        if order == "auto":
            order = "gram" if isinstance(dom, FloatDomain) else self.cheaper_order(X.shape[-2])
        kq, vo = self._layer_matrices(dom)
        Z = dom.asarray(X)
        for layer in range(self.depth):
            KQ, VO = kq[..., layer, :, :, :], vo[..., layer, :, :, :]  # (..., H, d_x, d_x)
            if order == "gram":
                gram = dom.matmul(np.swapaxes(Z, -1, -2), Z)
                mix = dom.matmul(dom.matmul(KQ[..., 0, :, :], gram), VO[..., 0, :, :])
                for h in range(1, self.heads):
                    mix = dom.add(mix, dom.matmul(dom.matmul(KQ[..., h, :, :], gram),
                                                  VO[..., h, :, :]))
                Y = dom.matmul(Z, mix)
            else:
                Zt = np.swapaxes(Z, -1, -2)
                Y = dom.matmul(dom.matmul(dom.matmul(Z, KQ[..., 0, :, :]), Zt),
                               dom.matmul(Z, VO[..., 0, :, :]))
                for h in range(1, self.heads):
                    scores = dom.matmul(dom.matmul(Z, KQ[..., h, :, :]), Zt)
                    Y = dom.add(Y, dom.matmul(scores, dom.matmul(Z, VO[..., h, :, :])))
            Z = dom.add(Z, Y) if self.residual else Y
        return Z

    def cheaper_order(self, n_positions: int) -> Literal["gram", "scores"]:
        """The association with fewer scalar multiplications per layer (see ``__call__``).

        Parameters
        ----------
        n_positions : int
            N, the number of input positions.

        Returns
        -------
        {'gram', 'scores'}
            The cheaper association.
        """
        n, d, h = n_positions, self.width, self.heads
        gram_cost = 2 * n * d * d + 2 * h * d**3
        scores_cost = 2 * h * (n * d * d + n * n * d)
        return "scores" if scores_cost < gram_cost else "gram"

    def loop_form(self, X: npt.ArrayLike) -> Array:
        """Reference evaluation by the explicit sums of eq. 3 (float; slow; for testing).

        Parameters
        ----------
        X : array_like
            Inputs, shape ``(N, d_x)`` (or with leading batch axes).

        Returns
        -------
        numpy.ndarray
            The output, same shape, float.
        """
        self._one_network("loop_form")
        Z = np.asarray(X, dtype=np.complex128 if self.weight_kind == "complex" else np.float64)
        for layer in range(self.depth):
            Y = np.zeros_like(Z)
            for i in range(Z.shape[0]):
                for j in range(Z.shape[0]):
                    for h in range(self.heads):
                        q = self.query[layer, h] @ Z[i]
                        k = self.key[layer, h] @ Z[j]
                        score = np.sum(q * k)  # bilinear <.,.>, no conjugation
                        Y[i] += score * (self.output[layer, h] @ (self.value[layer, h] @ Z[j]))
            Z = Z + Y if self.residual else Y
        return Z

    def entry(self, position: int, coordinate: int) -> OutputEntry:
        """The scalar output :math:`y^{i}_p` as a batch function: output ``position`` i and
        ``coordinate`` p (both 0-based).

        Parameters
        ----------
        position : int
            The output position i, 0-based.
        coordinate : int
            The output coordinate p, 0-based.

        Returns
        -------
        OutputEntry
            The batch function :math:`y^i_p`.
        """
        self._one_network("entry()")
        coordinate = check_int("output coordinate", coordinate, 0, self.width - 1)
        position = check_int("output position", position, 0)
        return OutputEntry(self, position, coordinate)

    def polynomial(self, n_inputs: int, *, position: int = 0,
                   coordinate: int = 0) -> sympy.Expr:
        """:math:`y^{i}_p` (i = ``position``, p = ``coordinate``) as an expanded sympy
        polynomial in symbols ``x{j}_{k}``.

        Only for tiny networks: the number of terms grows like
        :math:`\\binom{N d_x + 3^L - 1}{3^L}`.

        Parameters
        ----------
        n_inputs : int
            N.
        position : int, keyword-only
            The output position i (default 0).
        coordinate : int, keyword-only
            The output coordinate p (default 0).

        Returns
        -------
        sympy.Expr
            The expanded polynomial.

        Examples
        --------
        >>> net = LinearAttention.random(depth=1, width=1, seed=3, low=-3, high=3)
        >>> net.polynomial(2, position=0)   # L = 1, d_x = 1: c * x0 * (x0**2 + x1**2)
        -24*x0_0**3 - 24*x0_0*x1_0**2
        """
        import sympy

        if self.weight_kind != "exact":
            raise TypeError("polynomial() needs integer or Fraction weights")
        n_inputs = check_int("n_inputs", n_inputs)
        position = check_int("output position", position, 0, n_inputs - 1)
        symbols = np.array(
            [[sympy.Symbol(f"x{j}_{k}") for k in range(self.width)] for j in range(n_inputs)],
            dtype=object,
        )
        return sympy.expand(self.entry(position, coordinate)(symbols[None],
                                                             domain=ExactDomain())[0])

    def separation_rank(
        self, *, position: int, coordinate: int,
        partition: tuple[Sequence[int], Sequence[int]], n_inputs: int, **kwargs: Any,
    ) -> SeparationRankResult:
        """:func:`seprank.separation_rank` of the output entry :math:`y^{i}_p` (i =
        ``position``, p = ``coordinate``).

        Keyword arguments are passed on (``method``, ``seed``, ``upper_bound``, ``structure``,
        ``budget=Budget(...)``, ...).

        Parameters
        ----------
        position : int, keyword-only
            The output position i.
        coordinate : int, keyword-only
            The output coordinate p.
        partition : (sequence of int, sequence of int), keyword-only
            The partition (A, B) of the input positions.
        n_inputs : int, keyword-only
            N.
        **kwargs
            Passed to :func:`seprank.separation_rank`.

        Returns
        -------
        SeparationRankResult
            The rank and what it certifies.
        """
        n_inputs = check_int("n_inputs", n_inputs, 2)
        position = check_int("output position", position, 0, n_inputs - 1)
        return separation_rank(self.entry(position, coordinate), n_inputs=n_inputs,
                               dim=self.width, partition=partition, **kwargs)
