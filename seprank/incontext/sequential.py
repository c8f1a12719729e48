r"""The sequential representation Z_seq(a, b) (eq. 5 + eq. 8), its regime check and seq-sep.

:math:`S_1` is shown at step t with its embeddings multiplied by a; one SGD step with learning
rate η on the tied-softmax next-token loss updates **all** parameters, :math:`M^V` included:
:math:`\theta'(a) = \theta - \eta\,\nabla_\theta \mathcal L(S_1; a)`
(:func:`seprank.incontext.gradient.lm_loss_and_gradient`).  Then :math:`S_2` is evaluated alone
with the updated parameters and its embeddings multiplied by b:

.. math::

    Z_{seq}(a, b) = \big[g^{i,L,d_x}_{W'(a)}\big(M'^V(a)_{:, w_2^1}\odot b, \dots,
        M'^V(a)_{:, w_2^N}\odot b\big)\big]_p, \qquad i \in [N].

:math:`Z_{seq}(\mathbf 1, \mathbf 1) = y_{sequential}`; :math:`Z_{seq}(a, \cdot)` is a form of
degree :math:`3^L` in b for every a, so :math:`\operatorname{seq-sep} \le m(3^L)` (our
derivation, :func:`seprank.incontext.bounds.sequential_ceiling`); its dependence on a goes
through the softmax and is **not** polynomial, so no GF(p) evaluation of a exists.

The theorems assume bounded weights and gradients (Λ_min, Λ_max); with unnormalised polynomial
attention the gradient can be astronomically large and "η small" must be *checked*:
:func:`gradient_regime` measures :math:`\|M(\eta) - M(0)\|_F / \eta` for the grid matrix M and
reports whether it has stabilised (the first-order regime), never assumes it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from seprank.attention import LinearAttention
from seprank.core.domains import FloatDomain, ModularDomain, domain_for
from seprank.core.memory import array_bytes, guard_memory
from seprank.core.progress import track
from seprank.core.random import SeedLike, spawn
from seprank.core.types import Array
from seprank.core.validation import (
    check_array,
    check_bool,
    check_choice,
    check_float,
    check_index,
    check_instance,
    check_int,
)
from seprank.incontext.bounds import sequential_ceiling
from seprank.incontext.gradient import (
    LanguageModel,
    _finite,
    lm_loss_and_gradient,
)
from seprank.incontext.representation import validate_sentences
from seprank.incontext.seq_sep import SeqSepResult

__all__ = ["GradientRegime", "SequentialRepresentation", "gradient_regime",
           "sequential_seq_sep"]



def _forward(lm: LanguageModel, X: Array, lead: int) -> Array:
    """Eq. 1 with per-batch weights: ``lm`` has batch shape ``X.shape[:lead]`` and its network
    gets singleton axes for the remaining batch axes of X (numpy broadcasting)."""
    net = lm.network
    extra = X.ndim - 2 - lead
    if extra:
        q, k, v, o = (w.reshape(w.shape[:lead] + (1,) * extra + w.shape[lead:])
                      for w in (net.query, net.key, net.value, net.output))
        net = LinearAttention(q, k, v, o)
    return net(X, domain=FloatDomain())


@dataclass(eq=False)
class SequentialRepresentation:
    r"""Z_seq(a, b): one SGD step on :math:`S_1 \odot a`, then :math:`S_2 \odot b` (eqs. 5, 8).

    Parameters
    ----------
    model : LanguageModel
        Float parameters at step t (unbatched).
    first, second : sequence of int
        :math:`S_1`, :math:`S_2`: the same length N >= 2.
    eta : float
        Learning rate, > 0.
    position, coordinate : int
        Output position i (0-based, in :math:`S_2`: ``0..N-1``) and coordinate p of
        :math:`y^{(p,i)}`.

    References
    ----------
    .. [1] 000 / 001, eqs. 5, 8-9 and footnote 1;
       App. B (:math:`\tilde w^j = g(b)^j + \eta f(a)^j \odot b`).  Notes §1.4-1.6.

    Examples
    --------
    >>> lm = LanguageModel.random(depth=1, width=2, vocab=4, seed=0)
    >>> rep = SequentialRepresentation(lm, [0, 1], [2, 3], eta=0.01)
    >>> a = np.array([[1.0, 1.2], [0.7, 0.9]]); b = np.array([[1.0, 0.5]])
    >>> bool(np.allclose(rep(a, 2 * b), 2**3 * rep(a, b)))    # degree 3**L in b
    True
    """

    model: LanguageModel
    first: Sequence[int]
    second: Sequence[int]
    eta: float
    position: int = 0
    coordinate: int = 0
    _cache: dict[bytes, LanguageModel] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.model, LanguageModel) or self.model.network.batch_shape:
            raise TypeError("model must be an unbatched LanguageModel")
        if self.model.network.weight_kind == "complex":
            raise TypeError("the sequential representation is defined for real parameters")
        _, self.first, self.second = validate_sentences(self.model.embedding, self.first,
                                                        self.second, min_length=2)
        if isinstance(self.eta, bool) or not (isinstance(self.eta, int | float) and
                                              math.isfinite(self.eta) and self.eta > 0):
            raise ValueError(f"the learning rate eta must be a finite number > 0, got "
                             f"{self.eta!r} (eta = 0 leaves the weights unchanged: use "
                             "frozen_grid() for that case)")
        self.eta = float(self.eta)
        self.position = check_index("output position", self.position, len(self.second),
                                    " (S2 alone is evaluated at step t+1)")
        self.coordinate = check_index("output coordinate", self.coordinate, self.width)

    @property
    def width(self) -> int:
        return self.model.network.width

    @property
    def depth(self) -> int:
        return self.model.network.depth

    @property
    def n_tokens(self) -> int:
        return len(self.first)

    def with_eta(self, eta: float) -> SequentialRepresentation:
        """The same representation with learning rate ``eta``.

        Parameters
        ----------
        eta : float
            η > 0.

        Returns
        -------
        SequentialRepresentation
            A copy.
        """
        return SequentialRepresentation(self.model, self.first, self.second, eta, self.position,
                                        self.coordinate)

    def _a_batch(self, a: npt.ArrayLike, name: str = "a") -> Array:
        arr = check_array(name, a, ndim=(1, 2))
        if arr.shape[-1] != self.width:
            raise ValueError(f"{name} must have shape (d_x,) or (Z, d_x) with d_x = "
                             f"{self.width}, got {arr.shape}")
        return arr.reshape(-1, self.width)

    def gradient(self, a: npt.ArrayLike) -> LanguageModel:
        """:math:`\\nabla_\\theta\\mathcal L(S_1; a)` for each row of ``a`` (batched).

        Parameters
        ----------
        a : array_like
            Shape ``(B, d_x)``.

        Returns
        -------
        LanguageModel
            The gradients, leading batch axis B.
        """
        return lm_loss_and_gradient(self.model, self.first, self._a_batch(a))[1]

    def updated(self, a: npt.ArrayLike, *, eta: float | None = None) -> LanguageModel:
        """:math:`\\theta'(a) = \\theta - \\eta\\nabla_\\theta\\mathcal L(S_1; a)`, batched.

        Parameters
        ----------
        a : array_like
            Shape ``(B, d_x)``.
        eta : float, optional, keyword-only
            Learning rate (default: the representation's η).

        Returns
        -------
        LanguageModel
            The updated parameters, leading batch axis B.
        """
        step = self.eta if eta is None else eta
        g = self.gradient(a)
        return LanguageModel.from_arrays(*(w[None] - step * gw for w, gw in zip(
            self.model.arrays, g.arrays, strict=True)))

    def _evaluate(self, lm: LanguageModel, b: Array, lead: int) -> Array:
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported, not warned
            return self._evaluate_unchecked(lm, b, lead)

    def _evaluate_unchecked(self, lm: LanguageModel, b: Array, lead: int) -> Array:
        E2 = np.swapaxes(lm.embedding[..., list(self.second)], -1, -2)  # (batch, N, d_x)
        shape = E2.shape[:lead] + (1,) * (b.ndim - 1 - lead) + E2.shape[lead:]
        X = _finite(E2.reshape(shape) * b[..., None, :],
                    "Z_seq (the updated network's input on S2)")
        out = _forward(lm, X, lead)[..., self.position, self.coordinate]
        return _finite(out, "Z_seq (the updated network's output on S2)")

    def __call__(self, a: npt.ArrayLike, b: npt.ArrayLike) -> Array:
        """:math:`Z_{seq}(a_r, b_r)` for paired rows (``a``, ``b``: (Z, d_x), broadcastable)."""
        A, B = self._a_batch(a), _finite(np.asarray(b, dtype=float).reshape(-1, self.width), "b")
        A, B = np.broadcast_arrays(A, B)
        return self._evaluate(self.updated(A), B, lead=1)

    def grid(self, a_templates: npt.ArrayLike, b_templates: npt.ArrayLike, *,
             eta: float | None = None) -> Array:
        """Grid matrix :math:`[Z_{seq}(a^{(r)}, b^{(s)})]_{r,s}` (float64).

        Parameters
        ----------
        a_templates, b_templates : array_like
            Templates, shapes ``(Z_a, d_x)`` and ``(Z_b, d_x)``.
        eta : float, optional, keyword-only
            Learning rate (default: the representation's η).

        Returns
        -------
        numpy.ndarray
            float64, shape ``(Z_a, Z_b)``.
        """
        A = self._a_batch(a_templates)
        B = _finite(np.asarray(b_templates, dtype=float).reshape(-1, self.width), "b")
        lm = self.updated(A, eta=eta)
        return self._evaluate(lm, np.broadcast_to(B, (A.shape[0], *B.shape)), lead=1)

    def frozen_grid(self, a_templates: npt.ArrayLike, b_templates: npt.ArrayLike) -> Array:
        """The grid at η = 0 (no update): :math:`y_{W}(M^V_{w_2}\\odot b)` repeated for every a
        -- the rank-1 matrix M(0) of the regime check.

        Parameters
        ----------
        a_templates, b_templates : array_like
            Templates, shapes ``(Z_a, d_x)`` and ``(Z_b, d_x)``.

        Returns
        -------
        numpy.ndarray
            Shape ``(Z_a, Z_b)``, rank 1.
        """
        A = self._a_batch(a_templates)
        B = _finite(np.asarray(b_templates, dtype=float).reshape(-1, self.width), "b")
        lm = LanguageModel.from_arrays(*(w[None] for w in self.model.arrays))
        row = self._evaluate(lm, B[None], lead=1)
        return np.broadcast_to(row, (A.shape[0], B.shape[0])).copy()

    def value(self) -> float:
        """:math:`y^{(p,i),\\eta}_{sequential}(S_1, S_2) = Z_{seq}(\\mathbf 1, \\mathbf 1)`.

        Returns
        -------
        float
            :math:`Z_{seq}(\\mathbf 1, \\mathbf 1)`.
        """
        one = np.ones((1, self.width))
        return float(self(one, one)[0])


def _dyadic_network(lm: LanguageModel, index: int) -> tuple[LinearAttention, Array]:
    """Row ``index`` of a batched model as exact dyadic rationals (Fraction(float) is exact)."""
    from fractions import Fraction

    def exact(w: Array) -> Array:
        return np.vectorize(Fraction, otypes=[object])(w[index])

    q, k, v, o, e = (exact(w) for w in lm.arrays)
    return LinearAttention(q, k, v, o), e


def sequential_seq_sep(
    rep: SequentialRepresentation, *, method: Literal["svd", "modular", "exact"] = "svd",
    n_templates: int | None = None, a_templates: npt.ArrayLike | None = None,
    seed: SeedLike = None, rtol: float | None = None,
    check_regime: bool = True, progress: bool = False,
) -> SeqSepResult:
    r"""seq-sep of the sequential representation, with what it certifies.

    * ``'svd'``: float grid :math:`[Z_{seq}(a^{(r)}, b^{(s)})]`, SVD rank -- certifies nothing.
    * ``'modular'`` / ``'exact'``: the updated parameters :math:`\tilde\theta'(a^{(r)})` are
      computed in float64 (the a-dependence is not polynomial) and then taken as the exact
      dyadic rationals they are; :math:`b \mapsto Z(a^{(r)}, b)` is then evaluated exactly
      (GF(p) with random templates, or integers in [-50, 50]).  The rank is a **certified lower
      bound on the seq-sep of** :math:`F(a, b) = y_{\tilde\theta'(a)}(M'_{w_2}\odot b)`, the
      sequential representation *with the float-computed update*; the true update differs by
      float rounding of the backward pass (not bounded here).  With the exact ceiling
      :math:`m(3^L)` (our derivation, valid for F too) a rank equal to the ceiling certifies
      seq-sep(F) exactly.

    a-templates are uniform in [0.5, 1.5] (or ``a_templates``); ``n_templates`` defaults to
    :math:`m(3^L) + 8` per side.  Data (templates) and prime use separate seed streams.  With
    ``check_regime`` (default) :func:`gradient_regime` runs on 16 of the templates and its
    verdict is stored in ``details['first_order_regime']``; when η is not in the bounded-gradient
    regime the statement says so (the rank is still what it certifies, but the theorems'
    assumption does not hold there).

    Parameters
    ----------
    rep : SequentialRepresentation
        The representation.
    method : {'svd', 'modular', 'exact'}, keyword-only
        See above (default ``'svd'``).
    n_templates : int, optional, keyword-only
        Templates per side (default :math:`m(3^L) + 8`).
    a_templates : array_like, optional, keyword-only
        The a-templates (default uniform in [0.5, 1.5]).
    seed : int or numpy.random.Generator, optional, keyword-only
        Seeds templates and prime (separate streams).
    rtol : float, optional, keyword-only
        SVD tolerance (``'svd'`` only).
    check_regime : bool, keyword-only
        Run :func:`gradient_regime` (default True).
    progress : bool, keyword-only
        A progress bar.

    Returns
    -------
    SeqSepResult
        The rank and what it certifies.

    References
    ----------
    .. [1] 000 / 001, eqs. 5, 8-9, Theorems 1 and 3; notes
       docs/notes/seed_incontext_bias.md §1.6, PC-5.

    Examples
    --------
    >>> lm = LanguageModel.random(depth=1, width=2, vocab=4, seed=0)
    >>> rep = SequentialRepresentation(lm, [0, 1], [2, 3], eta=0.05)
    >>> r = sequential_seq_sep(rep, method="modular", seed=0)
    >>> r.rank, r.upper_bound, r.certifies
    (4, 4, 'exact')
    """
    check_instance("rep", rep, SequentialRepresentation,
                   expected="a SequentialRepresentation",
                   hint="build one with SequentialRepresentation(model, first, second, eta=...)")
    check_choice("method", method, ("svd", "modular", "exact"))
    check_bool("check_regime", check_regime)
    ceiling = sequential_ceiling(rep.width, rep.depth)
    t_rng, p_rng = spawn(seed, 2)
    domain = domain_for(method, p_rng, rtol=rtol)  # the prime has its own stream
    z = ceiling + 8 if n_templates is None else check_int("n_templates", n_templates)
    guard_memory(array_bytes((z, z), domain.dtype) * 4,
                 what=f"the {z:,} x {z:,} grid of Z_seq", fix="use fewer n_templates")
    A = (t_rng.uniform(0.5, 1.5, (z, rep.width)) if a_templates is None
         else rep._a_batch(a_templates, "a_templates"))
    details: dict[str, Any] = {"a_templates": A.shape[0]}
    regime_note = ""
    if check_regime:
        regime = gradient_regime(rep, A[:16], t_rng.uniform(0.5, 1.5, (16, rep.width)))
        details["first_order_regime"] = regime.first_order
        details["regime"] = regime.summary()
        if not regime.first_order:
            regime_note = ("; WARNING: eta is not in the measured first-order (bounded-gradient) "
                           "regime that Theorems 1 and 3 assume")
    if isinstance(domain, FloatDomain):  # the float grid itself, b-templates in [0.5, 1.5]
        B_float = t_rng.uniform(0.5, 1.5, (z, rep.width))
        res = domain.rank(rep.grid(A, B_float))
        details.update(res.details)
        return SeqSepResult(
            rank=res.rank, certifies="none", upper_bound=ceiling, details=details,
            statement=(f"float SVD rank {res.rank} of a {A.shape[0]}x{z} grid of Z_seq "
                       f"(certifies nothing; ceiling m(3^L) = {ceiling}, our derivation)"
                       + regime_note))
    lm = rep.updated(A)
    B = domain.templates(t_rng, z, rep.width)
    if isinstance(domain, ModularDomain):
        details["prime"] = domain.p
    rows = []
    for r in track(range(A.shape[0]), desc="Z_seq rows (exact in b)", progress=progress):
        net, emb = _dyadic_network(lm, r)
        E2 = domain.asarray(emb[:, list(rep.second)].T)  # (N, d_x)
        X = domain.mul(E2[None, :, :], domain.asarray(B)[:, None, :])
        rows.append(net(X, domain=domain)[:, rep.position, rep.coordinate])
    res = domain.rank(np.array(rows, dtype=domain.dtype))
    rank = res.rank
    if rank > ceiling:
        raise AssertionError(f"certified rank {rank} exceeds the ceiling m(3^L) = {ceiling}")
    what = ("F(a, b) = Z_seq with the float64-computed update theta~'(a) taken as exact "
            "dyadic rationals")
    if rank == ceiling:
        return SeqSepResult(rank=rank, certifies="exact", upper_bound=ceiling, details=details,
                            statement=f"seq-sep(F) = {rank} exactly, {what}: certified {method} "
                                      "rank = the ceiling m(3^L) (our derivation)" + regime_note)
    return SeqSepResult(rank=rank, certifies="lower_bound", upper_bound=ceiling, details=details,
                        statement=f"seq-sep(F) >= {rank} (certified {method} rank), {what}; "
                                  f"ceiling m(3^L) = {ceiling}" + regime_note)


# --- the bounded-gradient regime (notes §1.6) ------------------------------------------------

@dataclass(frozen=True)
class GradientRegime:
    """Is η in the bounded-gradient (first-order) regime? (notes §1.6, PC-5)

    Attributes
    ----------
    eta : float
        The learning rate examined.
    etas, ratios : tuple of float
        Probe rates :math:`\\eta 10^{-k}` and :math:`\\|M(\\eta') - M(0)\\|_F / \\eta'`.
    first_order : bool
        The ratio at η agrees with the ratio at the smallest resolvable probe within ``rtol``
        and the two smallest probes agree with each other: the update acts to first order in η,
        as the theorems' bounded gradients (Λ_max) presuppose.
    resolvable : bool
        Whether :math:`\\eta\\|M'(0)\\|` is above float rounding of M(0) at all.
    max_abs_gradient, min_abs_gradient, max_abs_parameter, min_abs_parameter : float
        Λ-style ranges over all a-templates (Theorem 1: :math:`\\Lambda_{min} \\le |\\theta|,
        |\\partial L/\\partial\\theta| \\le \\Lambda_{max}`).
    relative_step : float
        :math:`\\eta\\max|\\nabla| / \\max|\\theta|`.
    rtol : float
        The agreement tolerance used.
    """

    eta: float
    etas: tuple[float, ...]
    ratios: tuple[float, ...]
    first_order: bool
    resolvable: bool
    rtol: float
    max_abs_gradient: float
    min_abs_gradient: float
    max_abs_parameter: float
    min_abs_parameter: float
    relative_step: float

    def summary(self) -> str:
        """One line: the verdict and the numbers it rests on.

        Returns
        -------
        str
            One line.
        """
        state = ("first-order (bounded-gradient) regime" if self.first_order else
                 "NOT in the first-order regime: ||M(eta)-M(0)||/eta has not stabilised")
        ratios = ", ".join(f"{e:.0e}: {r:.4g}" for e, r in zip(self.etas, self.ratios,
                                                                strict=True))
        return (f"eta = {self.eta:.3g}: {state}; ratios {ratios}; max|grad| = "
                f"{self.max_abs_gradient:.3g}, eta*max|grad|/max|theta| = "
                f"{self.relative_step:.3g}")


def gradient_regime(rep: SequentialRepresentation, a_templates: npt.ArrayLike,
                    b_templates: npt.ArrayLike, *, probes: int = 2,
                    rtol: float = 0.05) -> GradientRegime:
    r"""Detect whether η is in the bounded-gradient regime the theorems assume.

    :math:`\theta'(\eta)` is affine in η, so the grid :math:`M(\eta)` is a polynomial in η and
    :math:`r(\eta) = \|M(\eta) - M(0)\|_F/\eta \to \|M'(0)\|_F`.  η is declared first-order when
    :math:`|r(\eta) - r(\eta 10^{-k})| \le` ``rtol`` :math:`\cdot r(\eta 10^{-k})` for the smallest
    resolvable probe k <= ``probes`` and the two smallest probes agree too.  Probes whose change
    is below :math:`10^3` float roundings of M(0) are not used.

    Parameters
    ----------
    rep : SequentialRepresentation
        The representation and its η.
    a_templates, b_templates : array_like
        Templates of the grid.
    probes : int, keyword-only
        Number of smaller probe rates :math:`\eta 10^{-k}` (default 2).
    rtol : float, keyword-only
        Agreement tolerance (default 0.05).

    Returns
    -------
    GradientRegime
        The verdict and the numbers it rests on.

    References
    ----------
    .. [1] 000 / 001, eqs. 5, 8-9, Theorems 1 and 3; notes
       docs/notes/seed_incontext_bias.md §1.6, PC-5.

    Examples
    --------
    >>> from seprank.incontext.gradient import LanguageModel
    >>> from seprank.incontext.sequential import SequentialRepresentation
    >>> lm = LanguageModel.random(depth=1, width=2, vocab=4, seed=0)
    >>> rep = SequentialRepresentation(lm, [0, 1], [2, 3], eta=1e-3)
    >>> rng = np.random.default_rng(1); A, B = rng.uniform(0.5, 1.5, (2, 6, 2))
    >>> gradient_regime(rep, A, B).first_order
    True
    """
    check_instance("rep", rep, SequentialRepresentation,
                   expected="a SequentialRepresentation",
                   hint="build one with SequentialRepresentation(model, first, second, eta=...)")
    probes = check_int("probes", probes)
    rtol = check_float("rtol", rtol, positive=True)
    A = rep._a_batch(a_templates, "a_templates")
    B = rep._a_batch(b_templates, "b_templates")
    M0 = rep.frozen_grid(A, B)
    norm0 = float(np.linalg.norm(M0))
    floor = 1e3 * np.finfo(float).eps * max(norm0, np.finfo(float).tiny)
    etas, ratios = [], []
    for k in range(probes + 1):
        e = rep.eta * 10.0**-k
        diff = float(np.linalg.norm(rep.grid(A, B, eta=e) - M0))
        if k > 0 and diff < floor:
            break
        etas.append(e)
        ratios.append(diff / e)
    resolvable = len(etas) >= 2 or (len(etas) == 1 and ratios[0] * rep.eta >= floor)
    if len(ratios) >= 3:
        ref = ratios[-1]
        first = (abs(ratios[0] - ref) <= rtol * ref and abs(ratios[-2] - ref) <= rtol * ref)
    elif len(ratios) == 2:
        first = abs(ratios[0] - ratios[1]) <= rtol * ratios[1]
    else:
        first = False
    grads = rep.gradient(A)
    g_abs = np.concatenate([np.abs(g).ravel() for g in grads.arrays])
    lo, hi = rep.model.abs_range()
    return GradientRegime(
        eta=rep.eta, etas=tuple(etas), ratios=tuple(ratios), first_order=bool(first),
        resolvable=bool(resolvable), rtol=rtol, max_abs_gradient=float(g_abs.max()),
        min_abs_gradient=float(g_abs.min()), max_abs_parameter=hi, min_abs_parameter=lo,
        relative_step=float(rep.eta * g_abs.max() / hi),
    )
