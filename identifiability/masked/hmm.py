r"""Hidden Markov models of paper 004 §2.2: the discrete HMM and the conditionally Gaussian HMM.

Conventions (004, §2.2.1.1), all **column-stochastic**:

* hidden states :math:`h_t \in [k]`, :math:`P(h_{t+1}=i \mid h_t=j) = T_{ij}`;
* discrete HMM: :math:`P(x_t=i \mid h_t=j) = O_{ij}`, :math:`O \in \mathbb R^{d\times k}`;
* G-HMM: :math:`x_t \mid h_t=i \sim \mathcal N(\mu_i, I_d)`, :math:`M = [\mu_1,\dots,\mu_k]`.

Assumptions, checked on construction (each error names the assumption that failed):

* **A5** :math:`T` is doubly stochastic and :math:`h_1` is stationary, hence uniform;
* **A6** (HMM) every row of :math:`O` is non-zero;
* **A7** (HMM) :math:`\operatorname{rank} T = \operatorname{rank} O = k \le d`;
* **A8** (G-HMM) :math:`\operatorname{rank} T = \operatorname{rank} M = k \le d`;
* **A9** (G-HMM) every :math:`\mu_i` is a unit vector.

Nothing is renormalised: a matrix whose columns sum to :math:`1 \pm 10^{-6}` is refused (with
``atol`` in the message), not silently fixed.  Ranks are float SVD ranks with the relative
tolerance ``rank_rtol`` (the entries are floats; see :func:`seprank.matrix_rank`).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import numpy as np
import numpy.typing as npt

from identifiability.masked.assumptions import (
    ASSUMPTIONS,
    DEFAULT_ATOL,
    DEFAULT_RANK_RTOL,
    AssumptionCheck,
    AssumptionError,
    AssumptionReport,
    _as_real_matrix,
    _random_doubly_stochastic,
    check_assumptions,
    sinkhorn,
)
from seprank.core import (
    SeedLike,
    as_generator,
    check_array,
    check_float,
    check_int,
    guard_memory,
)
from seprank.core.display import html_table, markdown_table, summarize
from seprank.core.types import FloatArray

__all__ = [
    "ASSUMPTIONS",
    "HMM",
    "AssumptionCheck",
    "AssumptionError",
    "AssumptionReport",
    "GaussianHMM",
    "Sample",
    "check_assumptions",
    "gaussian_posterior",
    "sinkhorn",
]


class Sample(NamedTuple):
    """What :meth:`HMM.sample` returns, in hmmlearn's order ``(X, Z)``.

    Attributes
    ----------
    observations : numpy.ndarray
        ``(n_sequences, n_steps)`` token indices (HMM) or ``(n_sequences, n_steps, d)``
        vectors (G-HMM).
    states : numpy.ndarray
        ``(n_sequences, n_steps)`` hidden states.
    """

    observations: npt.NDArray[Any]
    states: npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False, repr=False)
class _BaseHMM:
    T: FloatArray
    atol: float = field(default=DEFAULT_ATOL, kw_only=True)
    rank_rtol: float = field(default=DEFAULT_RANK_RTOL, kw_only=True)
    require: tuple[str, ...] = field(default=(), kw_only=True)
    start: FloatArray = field(default_factory=lambda: np.zeros(0), kw_only=True)

    kind: ClassVar[str]
    _required: ClassVar[tuple[str, ...]]

    def _setup(self, emission_name: str, emission: Any, T: Any, atol: float, rank_rtol: float,
               require: Iterable[str] | None, start: Any = None) -> None:
        """Shared constructor body: store validated float matrices, then check assumptions."""
        object.__setattr__(self, emission_name, _as_real_matrix(emission, emission_name))
        object.__setattr__(self, "T", _as_real_matrix(T, "T"))
        object.__setattr__(self, "atol", check_float("atol", atol, minimum=0,
                                                     hint=" (a tolerance)"))
        object.__setattr__(self, "rank_rtol", check_float("rank_rtol", rank_rtol, minimum=0,
                                                          hint=" (a tolerance)"))
        object.__setattr__(self, "start", self._check_start(start))
        self._validate(require)

    def _check_start(self, start: Any) -> FloatArray:
        """The law of :math:`h_1` (uniform when None): a probability vector of length k."""
        k = int(self.T.shape[0])
        if start is None:
            return np.full(k, 1.0 / k)
        law = check_array("start", start, ndim=1)
        if law.shape != (k,):
            raise ValueError(f"start (the law of h_1) must have k = {k} entries (one per hidden "
                             f"state), got shape {law.shape}")
        if np.any(law < -self.atol) or abs(float(law.sum()) - 1.0) > self.atol:
            raise ValueError(f"start (the law of h_1) must be a probability vector: entries >= 0 "
                             f"summing to 1 within atol = {self.atol:g}, got {law} (sum "
                             f"{float(law.sum())!r}); nothing is renormalised")
        return np.asarray(law, dtype=float)

    @property
    def uniform_start(self) -> bool:
        """True when :math:`h_1` is uniform (within ``atol``), as A5 requires."""
        return bool(np.max(np.abs(self.start - 1.0 / self.start.size)) <= self.atol)

    @property
    def emission(self) -> FloatArray:  # pragma: no cover - overridden
        raise NotImplementedError

    @property
    def d(self) -> int:
        return int(self.emission.shape[0])

    @property
    def k(self) -> int:
        return int(self.emission.shape[1])

    def _validate(self, require: Iterable[str] | None) -> None:
        req = self._required if require is None else tuple(require)
        unknown = set(req) - set(self._required)
        if unknown:
            raise ValueError(f"unknown assumption(s) {sorted(unknown)}; a {self.kind} model has "
                             f"{list(self._required)}")
        object.__setattr__(self, "require", req)
        report = self.check_assumptions()
        for name in req:
            c = report[name]
            if not c.holds:
                raise AssumptionError(name, c.measured + ". Fix the parameters (nothing is "
                                      "renormalised), or pass require=... without it to "
                                      "explore a model that violates it.",
                                      description=ASSUMPTIONS[name])
        if "A5" in req and not self.uniform_start:
            raise AssumptionError("A5", f"start = {self.start} is not the uniform stationary "
                                  "law of a doubly stochastic T (A5 makes h_1 stationary). Pass "
                                  "require=... without 'A5' to keep this start distribution.",
                                  description=ASSUMPTIONS["A5"])

    def __repr__(self) -> str:
        name = "O" if self.kind == "hmm" else "M"
        start = "uniform" if self.uniform_start else np.array2string(self.start, precision=3)
        return (f"{type(self).__name__}(d={self.d}, k={self.k}, {name}=<{self.d}x{self.k} array>, "
                f"T=<{self.k}x{self.k} array>, start={start})")

    def errors_against(self, other: Any) -> dict[str, Any]:
        """Max-abs differences to another model after matching the hidden states (the
        Hungarian matching of the emission columns): a comparison up to relabelling.

        Parameters
        ----------
        other : HMM, GaussianHMM, or a result with a ``model`` attribute
            A model of the same kind and sizes (e.g. the truth, or an estimate, a recovery
            or an EM fit: their ``model`` is used).

        Returns
        -------
        dict
            ``perm`` (state ``perm[j]`` of this model matched to state j of ``other``),
            ``emission``, ``T`` and ``start`` (max-abs differences after the matching).

        Examples
        --------
        >>> m = HMM.random(4, 3, seed=0)
        >>> p = [2, 0, 1]
        >>> twin = HMM(m.O[:, p], m.T[np.ix_(p, p)])
        >>> err = twin.errors_against(m)
        >>> err["perm"], err["emission"], err["T"]
        ([1, 2, 0], 0.0, 0.0)
        """
        from identifiability.masked.matching import match_permutation

        ref = getattr(other, "model", other)
        if not isinstance(ref, _BaseHMM):
            raise TypeError(f"other must be an HMM or GaussianHMM (or a result with a model), "
                            f"got {type(other).__name__}")
        if ref.kind != self.kind or ref.emission.shape != self.emission.shape:
            raise ValueError(f"cannot compare a {self.kind} model with d = {self.d}, k = "
                             f"{self.k} to a {ref.kind} model with d = {ref.d}, k = {ref.k}: "
                             "the kinds and sizes must agree")
        m = match_permutation(self.emission, ref.emission)
        p = m.perm
        return {"perm": p.tolist(), "emission": m.max_abs_error,
                "T": float(np.max(np.abs(self.T[np.ix_(p, p)] - ref.T))),
                "start": float(np.max(np.abs(self.start[p] - ref.start)))}

    def summary(self) -> str:
        """One line: the sizes, the start law and the assumptions."""
        what = "discrete HMM" if self.kind == "hmm" else "Gaussian HMM (identity covariances)"
        report = self.check_assumptions()
        bad = [c.name for c in report.checks if not c.holds]
        state = "all assumptions hold" if not bad else "violated: " + ", ".join(bad)
        start = "uniform h_1" if self.uniform_start else "non-uniform h_1"
        return f"{what}: d = {self.d}, k = {self.k}, {start}; {state}"

    def _display_fields(self) -> list[tuple[str, Any]]:
        name = "O" if self.kind == "hmm" else "M"
        checks = [(f"{c.name} {'ok' if c.holds else 'NO'}", c.measured)
                  for c in self.check_assumptions().checks]
        return [(name, self.emission), ("T", self.T), ("start", self.start),
                ("require", self.require), *checks]

    def _repr_markdown_(self) -> str:
        return markdown_table(self.summary(), self._display_fields())

    def _repr_html_(self) -> str:
        """The summary, the matrices as tables (when small) and the assumption checks."""
        name = "O" if self.kind == "hmm" else "M"
        parts = [f"<div><p><b>{html.escape(self.summary())}</b></p>"]
        for label, matrix in ((name, self.emission), ("T", self.T)):
            if matrix.shape[0] <= 12 and matrix.shape[1] <= 12:
                rows = "".join("<tr>" + "".join(f"<td>{v:.4g}</td>" for v in row) + "</tr>"
                               for row in matrix)
                parts.append(f"<p>{label} ({matrix.shape[0]}x{matrix.shape[1]})</p>"
                             f"<table>{rows}</table>")
            else:
                parts.append(f"<p>{label}: {html.escape(summarize(matrix))}</p>")
        parts.append(html_table("assumptions", [(f"{c.name} {'ok' if c.holds else 'NO'}",
                                                 c.measured)
                                                for c in self.check_assumptions().checks]))
        return "".join(parts) + "</div>"

    def check_assumptions(self) -> AssumptionReport:
        """Report on every assumption for this model (see :func:`check_assumptions`)."""
        return check_assumptions(self.emission, self.T, kind=self.kind, atol=self.atol,
                                 rank_rtol=self.rank_rtol)

    def sample(self, n_steps: int, *, n_sequences: int = 1, seed: SeedLike = None) -> Sample:
        r"""Exact samples: :math:`h_1 \sim` ``start`` (uniform, stationary by A5),
        :math:`h_{t+1} \sim T_{:,h_t}`.

        Returns
        -------
        Sample
            The named pair ``(observations, states)`` -- hmmlearn's order ``(X, Z)`` -- of
            shapes ``(n_sequences, n_steps)`` (HMM token indices) or
            ``(n_sequences, n_steps, d)`` (G-HMM vectors), and ``(n_sequences, n_steps)``.
            Categorical draws use inverse-CDF sampling on uniforms from ``seed``.

        Raises
        ------
        AssumptionError
            A5, when ``T`` is not column-stochastic (the chain is undefined); a model built
            without A5 samples from its own ``start`` when ``T`` is stochastic.

        Examples
        --------
        >>> x, h = HMM.random(4, 3, seed=0).sample(5, n_sequences=2, seed=1)
        >>> x.shape, h.shape
        ((2, 5), (2, 5))
        """
        if "A5" not in self.require:
            cols = self.T.sum(axis=0)
            if np.any(-self.atol > self.T) or np.max(np.abs(cols - 1.0)) > self.atol:
                raise AssumptionError("A5", "sampling needs a column-stochastic T (its columns "
                                      f"sum to {cols})", description=ASSUMPTIONS["A5"])
        n_steps = check_int("n_steps", n_steps)
        n_sequences = check_int("n_sequences", n_sequences)
        per_step = 32 + 17 * self.d  # states, uniforms, observations and the inverse-CDF temps
        guard_memory(n_steps * n_sequences * per_step,
                     what=f"{n_sequences:,} sequences of {n_steps:,} steps (d = {self.d})",
                     fix="sample fewer steps, or in batches (one call per batch, seeds from "
                         "seprank.core.split_seed)")
        rng = as_generator(seed)
        k = self.k
        states = np.empty((n_sequences, n_steps), dtype=np.int64)
        if self.uniform_start:
            states[:, 0] = rng.integers(0, k, n_sequences)
        else:
            u0 = rng.random(n_sequences)
            states[:, 0] = np.minimum((u0[:, None] > np.cumsum(self.start)).sum(axis=1), k - 1)
        cdf_T = np.cumsum(self.T, axis=0)
        for t in range(1, n_steps):
            u = rng.random(n_sequences)
            cols = cdf_T[:, states[:, t - 1]]
            states[:, t] = np.minimum((u[None, :] > cols).sum(axis=0), k - 1)
        return Sample(self._emit(states, rng), states)

    def _emit(self, states: npt.NDArray[np.int64], rng: np.random.Generator) -> npt.NDArray[Any]:
        raise NotImplementedError  # pragma: no cover


@dataclass(frozen=True, eq=False, repr=False)
class HMM(_BaseHMM):
    r"""Discrete HMM :math:`(O, T)`: ``O`` d x k column-stochastic, ``T`` k x k doubly stochastic.

    Parameters
    ----------
    O, T : array_like
        Emission and transition matrices, column convention (see the module docstring).
    atol : float, keyword-only
        Tolerance on stochasticity and non-negativity (default 1e-10).  Printed matrices with 8
        decimals, such as the example (2.47), need about 1e-7.
    rank_rtol : float, keyword-only
        Relative SVD tolerance for the ranks in A7 (default 1e-10).
    require : iterable of {'O', 'A5', 'A6', 'A7'}, keyword-only
        Assumptions enforced (default all).  Dropping one is an explicit request to explore a
        violating model; :meth:`check_assumptions` still reports it.
    start : array_like of shape (k,), optional, keyword-only
        The law of :math:`h_1` (default uniform).  A5 makes it the uniform stationary law, so
        a non-uniform ``start`` needs ``require=`` without ``'A5'``.

    Raises
    ------
    AssumptionError
        Naming the violated assumption.
    ValueError
        Wrong shapes, NaN or infinity.

    References
    ----------
    .. [1] 004, §2.2.1.1 and Assumptions 5–7.

    Examples
    --------
    >>> m = HMM([[0.5, 0.2], [0.5, 0.8]], [[0.9, 0.1], [0.1, 0.9]])
    >>> m.d, m.k
    (2, 2)
    >>> HMM([[0.5, 0.2], [0.5, 0.8]], [[0.9, 0.2], [0.1, 0.8]])
    Traceback (most recent call last):
    ...
    identifiability.errors.AssumptionError: A5 (doubly stochastic ... violated: ...
    """

    O: FloatArray = field(default_factory=lambda: np.zeros((0, 0)))
    kind: ClassVar[str] = "hmm"
    _required: ClassVar[tuple[str, ...]] = ("O", "A5", "A6", "A7")

    def __init__(self, O: Any, T: Any, *, atol: float = DEFAULT_ATOL,
                 rank_rtol: float = DEFAULT_RANK_RTOL,
                 require: Iterable[str] | None = None, start: Any = None) -> None:
        self._setup("O", O, T, atol, rank_rtol, require, start)

    @property
    def emission(self) -> FloatArray:
        return self.O

    @classmethod
    def random(cls, d: int, k: int, *, seed: SeedLike = None,
               concentration: float = 1.0, transition_scale: float = 1.0) -> HMM:
        r"""Random HMM: columns of ``O`` ~ Dirichlet(concentration * 1_d); ``T`` = Sinkhorn
        balancing of :math:`\exp(s Z)`, :math:`Z_{ij} \sim N(0,1)`, ``s = transition_scale``.

        Parameters
        ----------
        d : int
            Vocabulary size.
        k : int
            Number of hidden states.
        seed : int or numpy.random.Generator, optional, keyword-only
            Seeds the draw.
        concentration : float, keyword-only
            Dirichlet concentration of the emission columns (default 1).
        transition_scale : float, keyword-only
            Scale s of the log-transition Gaussians (default 1).

        Returns
        -------
        HMM
            The model.

        Examples
        --------
        >>> HMM.random(5, 3, seed=0).O.shape
        (5, 3)
        """
        d, k = check_int("d", d), check_int("k", k)
        concentration = check_float("concentration", concentration, positive=True)
        transition_scale = check_float("transition_scale", transition_scale, positive=True)
        guard_memory(8 * (d * k + 3 * k * k) * 2, what=f"a random HMM with d = {d}, k = {k}",
                     fix="use smaller d and k")
        rng = as_generator(seed)
        O = rng.dirichlet(np.full(d, concentration), size=k).T
        return cls(O, _random_doubly_stochastic(k, rng, transition_scale))

    def _emit(self, states: npt.NDArray[np.int64], rng: np.random.Generator) -> npt.NDArray[Any]:
        cdf = np.cumsum(self.O, axis=0)[:, states]  # (d, n, t)
        u = rng.random(states.shape)
        return np.minimum((u[None] > cdf).sum(axis=0), self.d - 1).astype(np.int64)

    def posterior(self, x: Any) -> FloatArray:
        r""":math:`\phi(x) = O^\top x / \|O^\top x\|_1` for token indices or one-hot rows.

        Parameters
        ----------
        x : array_like
            Token indices (n,) or one-hot rows (n, d).

        Returns
        -------
        numpy.ndarray
            :math:`\phi(x)`, shape (n, k).
        """
        X = _tokens_to_onehot(x, self.d)
        num = X @ self.O
        total = num.sum(axis=-1, keepdims=True)
        if np.any(total <= 0):
            raise ValueError(
                "x has zero probability under O (an all-zero row, or a token whose row of O is "
                "zero): its posterior O^T x / ||O^T x||_1 is undefined; pass token indices or "
                "one-hot rows")
        return np.asarray(num / total)

    def to_hmmlearn(self) -> Any:
        """An ``hmmlearn.hmm.CategoricalHMM`` (row convention: ``transmat_ = T.T``).

        Returns
        -------
        hmmlearn.hmm.CategoricalHMM
            The same model in hmmlearn's row convention.
        """
        from hmmlearn.hmm import CategoricalHMM

        h = CategoricalHMM(n_components=self.k, n_features=self.d, init_params="",
                           params="")
        h.startprob_ = np.array(self.start)
        h.transmat_ = np.array(self.T.T)
        h.emissionprob_ = np.array(self.O.T)
        return h

    @classmethod
    def from_hmmlearn(cls, h: Any, *, atol: float = DEFAULT_ATOL,
                      rank_rtol: float = DEFAULT_RANK_RTOL,
                      require: Iterable[str] | None = None) -> HMM:
        """From a fitted ``CategoricalHMM``, with its ``startprob_`` as ``start``.

        A5 (the default ``require``) needs a uniform ``startprob_`` and a doubly stochastic
        ``transmat_``; an ordinary fit has neither, so pass e.g. ``require=("O", "A6", "A7")``
        to bring it back (``errors_against`` and the converters then work on it).

        Parameters
        ----------
        h : hmmlearn.hmm.CategoricalHMM
            A fitted model.
        atol : float, default DEFAULT_ATOL
            Tolerance of the stochasticity and assumption checks.
        rank_rtol : float, default DEFAULT_RANK_RTOL
            Relative tolerance of the rank checks (A6, A7).
        require : iterable of str, optional
            The assumptions to check (default: all of them, A5 included).

        Returns
        -------
        HMM
            The model, column convention, with ``start`` = ``startprob_``.

        Examples
        --------
        >>> from hmmlearn.hmm import CategoricalHMM
        >>> h = HMM.random(4, 2, seed=0).to_hmmlearn()
        >>> h.startprob_ = np.array([0.7, 0.3])
        >>> m = HMM.from_hmmlearn(h, require=("O", "A6", "A7"))
        >>> m.start
        array([0.7, 0.3])
        """
        return cls(np.asarray(h.emissionprob_).T, np.asarray(h.transmat_).T, atol=atol,
                   rank_rtol=rank_rtol, require=require,
                   start=np.asarray(h.startprob_, dtype=float))


@dataclass(frozen=True, eq=False, repr=False)
class GaussianHMM(_BaseHMM):
    r"""G-HMM :math:`(M, T)`: means ``M`` d x k with unit columns, identity covariance.

    Parameters
    ----------
    M, T : array_like
        Means (columns) and the doubly stochastic transition matrix (column convention).
    atol, rank_rtol, require, start
        As for :class:`HMM`; ``require`` is a subset of ``('A5', 'A8', 'A9')``.

    References
    ----------
    .. [1] 004, §2.2.1.1 and Assumptions 5, 8, 9.

    Examples
    --------
    >>> g = GaussianHMM.random(4, 3, seed=1)
    >>> bool(np.allclose(np.linalg.norm(g.M, axis=0), 1))
    True
    >>> GaussianHMM([[2.0, 0.0], [0.0, 1.0]], [[0.5, 0.5], [0.5, 0.5]])
    Traceback (most recent call last):
    ...
    identifiability.errors.AssumptionError: A8 (non-degeneracy: ... violated: ...
    """

    M: FloatArray = field(default_factory=lambda: np.zeros((0, 0)))
    kind: ClassVar[str] = "ghmm"
    _required: ClassVar[tuple[str, ...]] = ("A5", "A8", "A9")

    def __init__(self, M: Any, T: Any, *, atol: float = DEFAULT_ATOL,
                 rank_rtol: float = DEFAULT_RANK_RTOL,
                 require: Iterable[str] | None = None, start: Any = None) -> None:
        self._setup("M", M, T, atol, rank_rtol, require, start)

    @property
    def emission(self) -> FloatArray:
        return self.M

    @classmethod
    def random(cls, d: int, k: int, *, seed: SeedLike = None,
               transition_scale: float = 1.0) -> GaussianHMM:
        """Random G-HMM: Gaussian columns normalised to unit length; Sinkhorn-balanced ``T``.

        Parameters
        ----------
        d : int
            Dimension of the observations.
        k : int
            Number of hidden states.
        seed : int or numpy.random.Generator, optional, keyword-only
            Seeds the draw.
        transition_scale : float, keyword-only
            Scale s of the log-transition Gaussians (default 1).

        Returns
        -------
        GaussianHMM
            The model.
        """
        d, k = check_int("d", d), check_int("k", k)
        transition_scale = check_float("transition_scale", transition_scale, positive=True)
        guard_memory(8 * (d * k + 3 * k * k) * 2, what=f"a random G-HMM with d = {d}, k = {k}",
                     fix="use smaller d and k")
        rng = as_generator(seed)
        M = rng.standard_normal((d, k))
        M /= np.linalg.norm(M, axis=0)
        return cls(M, _random_doubly_stochastic(k, rng, transition_scale))

    def _emit(self, states: npt.NDArray[np.int64], rng: np.random.Generator) -> npt.NDArray[Any]:
        return np.asarray(self.M.T[states] + rng.standard_normal((*states.shape, self.d)))

    def posterior(self, x: Any) -> FloatArray:
        r""":math:`\phi(x)_i = \operatorname{softmax}_i(-\|x-\mu_i\|^2/2)` for rows of ``x``.

        Parameters
        ----------
        x : array_like
            A point (d,) or rows (n, d).

        Returns
        -------
        numpy.ndarray
            :math:`\phi(x)`, shape (k,) or (n, k).
        """
        return gaussian_posterior(self.M, x)

    def to_hmmlearn(self) -> Any:
        """An ``hmmlearn.hmm.GaussianHMM`` with spherical unit covariances.

        Returns
        -------
        hmmlearn.hmm.GaussianHMM
            The same model in hmmlearn's row convention.
        """
        from hmmlearn.hmm import GaussianHMM as _G

        h = _G(n_components=self.k, covariance_type="spherical", init_params="", params="")
        h.n_features = self.d
        h.startprob_ = np.array(self.start)
        h.transmat_ = np.array(self.T.T)
        h.means_ = np.array(self.M.T)
        h.covars_ = np.ones(self.k)
        return h

    @classmethod
    def from_hmmlearn(cls, h: Any, *, atol: float = DEFAULT_ATOL,
                      rank_rtol: float = DEFAULT_RANK_RTOL,
                      require: Iterable[str] | None = None) -> GaussianHMM:
        """From an ``hmmlearn`` GaussianHMM (identity covariances), ``startprob_`` as
        ``start``; a non-uniform ``startprob_`` needs ``require`` without ``'A5'``.

        Parameters
        ----------
        h : hmmlearn.hmm.GaussianHMM
            A fitted model with identity covariances.
        atol : float, default DEFAULT_ATOL
            Tolerance of the stochasticity and assumption checks.
        rank_rtol : float, default DEFAULT_RANK_RTOL
            Relative tolerance of the rank checks (A6, A7).
        require : iterable of str, optional
            The assumptions to check (default: all of them, A5 included).

        Returns
        -------
        GaussianHMM
            The model, column convention, with ``start`` = ``startprob_``.
        """
        means = np.asarray(h.means_, dtype=float)
        from hmmlearn.utils import fill_covars

        covs = np.asarray(fill_covars(h._covars_, h.covariance_type, means.shape[0],
                                      means.shape[1]), dtype=float)  # (k, d, d)
        eye = np.broadcast_to(np.eye(means.shape[1]), covs.shape)
        if np.max(np.abs(covs - eye)) > atol:
            raise ValueError("the G-HMM of paper 004 has identity covariances; this hmmlearn "
                             f"model has max |Sigma - I| = {np.max(np.abs(covs - eye)):.3g}")
        return cls(means.T, np.asarray(h.transmat_).T, atol=atol, rank_rtol=rank_rtol,
                   require=require, start=np.asarray(h.startprob_, dtype=float))


def gaussian_posterior(M: Any, x: Any) -> FloatArray:
    r"""G-HMM posterior (footnote 8): :math:`\phi(x)_i \propto \exp(-\|x-\mu_i\|^2/2)`.

    ``x`` is one point (d,) or rows (n, d); ``M`` is d x k.  No validation (raw helper).

    Parameters
    ----------
    M : array_like
        The d x k means.
    x : array_like
        A point (d,) or rows (n, d).

    Returns
    -------
    numpy.ndarray
        :math:`\phi(x)`, shape (k,) or (n, k).

    Examples
    --------
    >>> gaussian_posterior(np.eye(2), [10.0, 0.0]).round(6)
    array([1., 0.])
    """
    X = check_array("x", x, ndim=(1, 2))
    Mm = check_array("M", M, ndim=2)
    if X.shape[-1] != Mm.shape[0]:
        raise ValueError(f"x must have last dimension d = {Mm.shape[0]} (rows of M), got "
                         f"{X.shape}")
    logits = -0.5 * ((X[..., :, None] - Mm) ** 2).sum(axis=-2)
    logits -= logits.max(axis=-1, keepdims=True)
    w = np.exp(logits)
    return np.asarray(w / w.sum(axis=-1, keepdims=True))


def _tokens_to_onehot(x: Any, d: int) -> FloatArray:
    """Token indices (int or int array) or one-hot float rows -> one-hot rows."""
    if isinstance(x, bool | np.bool_):
        raise ValueError(f"x must be token indices or one-hot rows, got {x!r}")
    arr = np.asarray(x)
    if arr.dtype.kind in "iu":
        if np.any((arr < 0) | (arr >= d)):
            raise ValueError(f"x: token indices must lie in [0, {d}), got {arr}")
        return np.eye(d)[arr]
    arr = check_array("x", arr, ndim=(1, 2))
    if arr.shape[-1:] != (d,):
        raise ValueError(f"x: one-hot inputs must have last dimension d = {d}, got {arr.shape} "
                         "(token indices must be integers)")
    if np.any(arr < 0):
        raise ValueError("x: one-hot rows must be non-negative")
    return arr
