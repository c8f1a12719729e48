"""Stationary Markov processes for contrastive kernel estimation (004 §2.1).

* :class:`OrnsteinUhlenbeck` — the Langevin diffusion (eq. 2.1)
  :math:`dx_t = -\\nabla f(x_t)\\,dt + \\sqrt2\\,dW_t` with quadratic
  :math:`f(x) = \\tfrac12 x^\\top A x`, simulated exactly, with its closed-form η-transition
  kernel, stationary law :math:`\\pi = \\mathcal N(0, A^{-1})` and
  :math:`B = \\mathbb E_\\pi\\|x\\|`.
* :class:`LangevinDiffusion` — the same SDE for a user-supplied :math:`\\nabla f`, integrated
  by Euler–Maruyama on a fine sub-step (biased; see its docstring).
* :class:`FiniteStateChain` — a finite-state Markov chain with row-stochastic P, the setting in
  which the inequality chains of Theorems 2 and 3 can be evaluated exactly.

Every sampler takes a ``seed`` (int, SeedSequence or numpy Generator).

References
----------
004, §2.1.1.1 (eq. 2.1, stationarity, eq. 2.2 for B),
§2.1.1.2 (observations at multiples of η), Lemma 5 and Definition 1 (β-mixing).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cached_property

import numpy as np
import numpy.typing as npt
from scipy import integrate

from identifiability.contrastive.kernels import (
    FloatArray,
    GaussianKernel,
    gauss_hermite_rule,
    gaussian_tv_1d,
)
from identifiability.markov import stochastic_power
from seprank.core import (
    SeedLike,
    array_bytes,
    as_generator,
    check_array,
    check_callable,
    check_float,
    check_index,
    check_int,
    guard_memory,
)

__all__ = ["FiniteStateChain", "LangevinDiffusion", "OrnsteinUhlenbeck", "check_eta"]

#: Default sub-step budget of :meth:`LangevinDiffusion.simulate` (~minutes of numpy work).
DEFAULT_MAX_SUBSTEPS = 10**7


def check_eta(eta: float, name: str = "eta") -> float:
    """Validate a lag η > 0 (finite); return it as float.

    Parameters
    ----------
    eta : float
        The lag.
    name : str, default 'eta'
        The name in the error message.

    Returns
    -------
    float
        η.

    Examples
    --------
    >>> check_eta("0.5")
    Traceback (most recent call last):
    ...
    ValueError: eta (the lag) must be a positive finite number, got '0.5' (str)
    """
    return check_float(f"{name} (the lag)", eta, positive=True)


def _check_finite_trajectory(x: FloatArray, what: str = "trajectory") -> None:
    bad = ~np.isfinite(x)
    if np.any(bad):
        first = int(np.argwhere(bad.reshape(bad.shape[0], -1).any(axis=1))[0, 0])
        raise ValueError(
            f"the {what} contains NaN or infinite values (first at observation {first}); "
            "remove or re-simulate it — contrastive estimators cannot use non-finite data"
        )


class OrnsteinUhlenbeck:
    """The Ornstein–Uhlenbeck process :math:`dx = -Ax\\,dt + \\sqrt2\\,dW` in d dimensions.

    This is the Langevin diffusion (2.1) for :math:`f(x) = \\tfrac12 x^\\top A x`, so A must be
    symmetric positive definite (it is the Hessian of f; ρ = λ_min(A) is the strong-convexity
    constant of Assumption 1).  Closed forms, with :math:`A = U\\Lambda U^\\top`:

    * η-transition kernel (eq. 2.3):
      :math:`p_*^\\eta(z,\\cdot) = \\mathcal N(e^{-A\\eta} z,\\; A^{-1}(I - e^{-2A\\eta}))`;
    * stationary law :math:`\\pi = \\mathcal N(0, A^{-1})`, :math:`\\pi(z_*) = \\pi(0) =
      \\det(A/2\\pi)^{1/2}`;
    * :math:`B = \\mathbb E_\\pi\\|x\\| = \\frac1{2\\sqrt\\pi}\\int_0^\\infty
      \\big(1 - \\prod_i(1 + 2t/\\lambda_i)^{-1/2}\\big) t^{-3/2} dt`, which is
      :math:`\\sqrt{2/(\\pi\\rho)}` in 1-D and :math:`\\sqrt{2/\\rho}\\,\\Gamma(\\frac{d+1}2)/
      \\Gamma(\\frac d2)` for :math:`A = \\rho I`.

    Parameters
    ----------
    A : array_like, shape (d, d), or a positive scalar (1-D)
        Symmetric positive-definite drift matrix.  Non-symmetric or non-positive-definite
        A is refused (it is not the Hessian of a strongly convex f).
    symmetry_rtol : float, keyword-only
        Relative tolerance of the symmetry check of A (default 1e-10).

    Examples
    --------
    >>> ou = OrnsteinUhlenbeck(1.0)
    >>> round(ou.expected_norm(), 6) == round(float(np.sqrt(2 / np.pi)), 6)
    True
    >>> x = ou.simulate(5, eta=0.1, seed=0)
    >>> x.shape
    (5, 1)
    """

    def __init__(self, A: npt.ArrayLike, *, symmetry_rtol: float = 1e-10) -> None:
        symmetry_rtol = check_float("symmetry_rtol", symmetry_rtol, minimum=0,
                                    hint=" (a tolerance)")
        Am = np.atleast_2d(check_array("A", A, ndim=(0, 2)))
        if Am.ndim != 2 or Am.shape[0] != Am.shape[1]:
            raise ValueError(f"A must be a square matrix or a scalar, got shape {Am.shape}")
        if not np.all(np.isfinite(Am)):
            raise ValueError("A contains NaN or infinite entries")
        scale = max(1.0, float(np.max(np.abs(Am))))
        if np.max(np.abs(Am - Am.T)) > symmetry_rtol * scale:
            raise ValueError(
                "A must be symmetric: the Langevin drift is -grad f with f(x) = x^T A x / 2, "
                "whose Hessian A is symmetric (symmetrise it as (A + A.T) / 2 if that is meant)")
        Am = (Am + Am.T) / 2
        lam, U = np.linalg.eigh(Am)
        if lam[0] <= 0:
            raise ValueError(
                f"A must be positive definite (f strongly convex, Assumption 1); its smallest "
                f"eigenvalue is {lam[0]:.6g}. A non-positive-definite A has no stationary law.")
        self.A: FloatArray = Am
        self.dim: int = Am.shape[0]
        self.eigenvalues: FloatArray = lam
        self._U: FloatArray = U

    def __repr__(self) -> str:
        return f"OrnsteinUhlenbeck(A={self.A.tolist()})"

    @property
    def rho(self) -> float:
        """Strong-convexity constant ρ = λ_min(A) (Assumption 1)."""
        return float(self.eigenvalues[0])

    def _fun_of_A(self, g: Callable[[FloatArray], FloatArray]) -> FloatArray:
        return np.asarray((self._U * g(self.eigenvalues)) @ self._U.T, dtype=float)

    @cached_property
    def stationary_cov(self) -> FloatArray:
        """:math:`A^{-1}`."""
        return self._fun_of_A(lambda lam: 1 / lam)

    @cached_property
    def stationary(self) -> GaussianKernel:
        """π as a z-independent :class:`GaussianKernel` (usable as the contrast q = π)."""
        return GaussianKernel.global_gaussian(np.zeros(self.dim), self.stationary_cov)

    def stationary_density_at_mode(self) -> float:
        """:math:`\\pi(z_*) = \\pi(0) = \\det(A/(2\\pi))^{1/2}`.

        Returns
        -------
        float
            :math:`\\pi(0)`.
        """
        return float(np.prod(np.sqrt(self.eigenvalues / (2 * math.pi))))

    def transition_matrix(self, eta: float) -> FloatArray:
        """:math:`e^{-A\\eta}`.

        Parameters
        ----------
        eta : float
            The lag.

        Returns
        -------
        numpy.ndarray
            :math:`e^{-A\\eta}`.
        """
        e = check_eta(eta)
        return self._fun_of_A(lambda lam: np.exp(-lam * e))

    def transition_cov(self, eta: float) -> FloatArray:
        """:math:`A^{-1}(I - e^{-2A\\eta})` (computed with ``expm1``, accurate for small η).

        Parameters
        ----------
        eta : float
            The lag.

        Returns
        -------
        numpy.ndarray
            The covariance of :math:`p_*^\\eta(z, \\cdot)`.
        """
        e = check_eta(eta)
        return self._fun_of_A(lambda lam: -np.expm1(-2 * lam * e) / lam)

    def kernel(self, eta: float) -> GaussianKernel:
        """The exact η-transition kernel :math:`p_*^\\eta` as a :class:`GaussianKernel`.

        Parameters
        ----------
        eta : float
            The lag.

        Returns
        -------
        GaussianKernel
            The transition kernel :math:`p_*^\\eta`.
        """
        return GaussianKernel(self.transition_matrix(eta), np.zeros(self.dim),
                              self.transition_cov(eta))

    def sample_stationary(self, n: int, seed: SeedLike = None) -> FloatArray:
        """n independent draws from π, shape ``(n, d)``.

        Parameters
        ----------
        n : int
            Number of points.
        seed : int or numpy.random.Generator, optional
            Seeds the draw.

        Returns
        -------
        numpy.ndarray
            Shape (n, d).
        """
        n = check_int("n", n)
        guard_memory(3 * array_bytes((n, self.dim)), what=f"{n:,} stationary draws",
                     fix="draw fewer points, or in batches")
        rng = as_generator(seed)
        return np.asarray(rng.standard_normal((n, self.dim))
                          @ np.linalg.cholesky(self.stationary_cov).T, dtype=float)

    def simulate(self, n_obs: int, eta: float, *, seed: SeedLike = None,
                 x0: npt.ArrayLike | None = None) -> FloatArray:
        """Exact observations :math:`\\tilde x_0, \\tilde x_\\eta, \\dots` (shape ``(n_obs, d)``).

        :math:`\\tilde x_{(i+1)\\eta} = e^{-A\\eta}\\tilde x_{i\\eta} + \\xi_i`,
        :math:`\\xi_i \\sim \\mathcal N(0, A^{-1}(I-e^{-2A\\eta}))` — no discretisation error.
        ``x0 = None`` starts from π (the stationary process of §2.1.1.1).

        Parameters
        ----------
        n_obs : int
            Number of observations.
        eta : float
            The lag between observations.
        seed : int or numpy.random.Generator, optional, keyword-only
            Seeds the trajectory.
        x0 : array_like, optional, keyword-only
            The start (None: drawn from π).

        Returns
        -------
        numpy.ndarray
            Shape (n_obs, d).
        """
        e = check_eta(eta)
        n_obs = check_int("n_obs", n_obs)
        # noise, the eigen-coordinates, the observations and the finiteness check
        guard_memory(5 * array_bytes((n_obs, self.dim)),
                     what=f"a trajectory of {n_obs:,} observations in dimension {self.dim}",
                     fix="simulate fewer observations (a shorter horizon or a larger eta), "
                         "or in segments started from the last state with x0=")
        rng = as_generator(seed)
        if x0 is None:
            start = self.sample_stationary(1, rng)[0]
        else:
            start = np.asarray(x0, dtype=float).reshape(self.dim)
            _check_finite_trajectory(start[None, :], "starting point x0")
        # In the eigenbasis the coordinates are independent AR(1) sequences.
        a = np.exp(-self.eigenvalues * e)
        s = np.sqrt(-np.expm1(-2 * self.eigenvalues * e) / self.eigenvalues)
        noise = rng.standard_normal((n_obs - 1, self.dim)) * s
        y = np.empty((n_obs, self.dim))
        y[0] = self._U.T @ start
        # Linear recursion y_{i+1} = a y_i + noise_i per eigen-coordinate (an IIR filter).
        for k in range(self.dim):
            y[:, k] = _ar1_filter(a[k], y[0, k], noise[:, k])
        x = y @ self._U.T
        _check_finite_trajectory(x)
        return np.asarray(x, dtype=float)

    def expected_norm(self) -> float:
        """:math:`B = \\mathbb E_\\pi\\|x\\|` (closed form in 1-D, one quadrature in d-D).

        Returns
        -------
        float
            :math:`B = \\mathbb E_\\pi\\|x\\|`.
        """
        lam = self.eigenvalues
        if self.dim == 1:
            return math.sqrt(2 / (math.pi * lam[0]))

        def integrand(t: float) -> float:
            return float((1 - np.prod((1 + 2 * t / lam) ** -0.5)) * t ** -1.5)

        val = sum(integrate.quad(integrand, lo, hi, limit=200)[0]
                  for lo, hi in ((0, 1), (1, np.inf)))
        return val / (2 * math.sqrt(math.pi))

    # -- mixing (1-D) -----------------------------------------------------------------------
    def tv_to_stationary(self, z: float, t: float) -> float:
        """:math:`\\mathrm{TV}(P(z_t \\mid z_0 = z), \\pi)` exactly (1-D only).

        Parameters
        ----------
        z : float
            The start point (1-D).
        t : float
            The time.

        Returns
        -------
        float
            The total-variation distance.
        """
        if self.dim != 1:
            raise NotImplementedError("exact TV between Gaussians is implemented in 1-D only")
        z = check_float("z", z)
        k = self.kernel(check_eta(t, "t"))
        return gaussian_tv_1d(float(k.M[0, 0]) * float(z), math.sqrt(float(k.S[0, 0])),
                              0.0, math.sqrt(float(self.stationary_cov[0, 0])))

    def beta_mixing(self, t: float, *, n_nodes: int = 80) -> float:
        """β(t) = :math:`\\mathbb E_{z\\sim\\pi}\\mathrm{TV}(P^t(\\cdot|z),\\pi)` (Definition 1),
        by Gauss–Hermite quadrature over z ~ π (1-D only).

        Parameters
        ----------
        t : float
            The time lag.
        n_nodes : int, keyword-only
            Quadrature nodes (default 80).

        Returns
        -------
        float
            β(t).
        """
        t = check_eta(t, "t")
        n_nodes = check_int("n_nodes", n_nodes)
        nodes, w = gauss_hermite_rule(np.zeros(1), self.stationary_cov, n_nodes=n_nodes)
        return float(sum(wi * self.tv_to_stationary(float(zi), t)
                         for zi, wi in zip(nodes[:, 0], w, strict=True)))


def _ar1_filter(a: float, y0: float, noise: FloatArray) -> FloatArray:
    """y_0 = y0, y_{i+1} = a y_i + noise_i (scipy.signal.lfilter, exact and fast)."""
    from scipy.signal import lfilter

    out = np.empty(noise.size + 1)
    out[0] = y0
    if noise.size:
        zi = np.array([a * y0])
        out[1:] = lfilter([1.0], [1.0, -a], noise, zi=zi)[0]
    return out


class LangevinDiffusion:
    """The Langevin diffusion (2.1) :math:`dx = -\\nabla f(x)\\,dt + \\sqrt2\\,dW` for a
    user-supplied gradient, integrated by Euler–Maruyama.

    Between two observations (lag η) the SDE is integrated with
    :math:`k = \\lceil \\eta/h_{\\max}\\rceil` sub-steps of size :math:`h = \\eta/k`:
    :math:`x \\leftarrow x - h\\nabla f(x) + \\sqrt{2h}\\,\\xi`.

    **Bias.** Euler–Maruyama has weak order 1: expectations of smooth functions are off by
    :math:`O(h)`, and the chain's stationary law is not π.  For the OU drift
    :math:`\\nabla f(x) = \\rho x` the discretised stationary variance is exactly
    :math:`1/(\\rho(1 - \\rho h/2))` instead of :math:`1/\\rho` (relative bias
    :math:`\\approx \\rho h / 2`), and the one-lag autocorrelation is :math:`(1-\\rho h)^k`
    instead of :math:`e^{-\\rho\\eta}`.  The explicit scheme is unstable for
    :math:`h L_0 > 2` (L_0 the smoothness of f): the trajectory then blows up, which is
    detected and reported.  Use :class:`OrnsteinUhlenbeck` for exact OU simulation.

    Parameters
    ----------
    grad_f : callable
        :math:`\\nabla f`, mapping an array of shape ``(..., d)`` to the same shape.
    dim : int
        Dimension d.
    max_substep : float
        Largest Euler–Maruyama step :math:`h_{\\max}` (default 1e-3).

    Examples
    --------
    >>> lang = LangevinDiffusion(lambda x: 2.0 * x, dim=1, max_substep=1e-2)
    >>> x = lang.simulate(3, eta=0.1, x0=[0.0], seed=1)
    >>> x.shape
    (3, 1)
    """

    def __init__(self, grad_f: Callable[[FloatArray], npt.ArrayLike], dim: int, *,
                 max_substep: float = 1e-3) -> None:
        self.grad_f = check_callable("grad_f", grad_f, "a function x -> grad f(x)")
        self.dim = check_int("dim", dim)
        self.max_substep = check_float("max_substep", max_substep, positive=True)

    def substeps(self, eta: float) -> tuple[int, float]:
        """Number of sub-steps per lag and their size h for a lag η.

        Parameters
        ----------
        eta : float
            The lag.

        Returns
        -------
        (int, float)
            Number of sub-steps and their size h.
        """
        e = check_eta(eta)
        k = max(1, math.ceil(e / self.max_substep - 1e-12))
        return k, e / k

    def simulate(self, n_obs: int, eta: float, *, x0: npt.ArrayLike,
                 seed: SeedLike = None, burn_in: float = 0.0,
                 max_substeps: int = DEFAULT_MAX_SUBSTEPS) -> FloatArray:
        """Observations at multiples of η starting from ``x0`` after ``burn_in`` time.

        ``x0`` of shape ``(d,)`` gives one trajectory, shape ``(n_obs, d)``; shape
        ``(n_chains, d)`` runs independent chains in parallel, result ``(n_obs, n_chains, d)``.
        A non-finite state raises ``ValueError`` naming the observation and the fix.

        The work is budgeted before it starts: ``n_obs * ceil(eta / max_substep)`` plus the
        burn-in sub-steps must not exceed ``max_substeps`` (default 10**7, a few minutes), and
        the output must fit in memory (:mod:`seprank.core.memory`).

        Parameters
        ----------
        n_obs : int
            Number of observations.
        eta : float
            The lag between observations.
        x0 : array_like, keyword-only
            Start, shape (d,) or (n_chains, d).
        seed : int or numpy.random.Generator, optional, keyword-only
            Seeds the noise.
        burn_in : float, keyword-only
            Time simulated before the first observation (default 0).
        max_substeps : int, keyword-only
            Budget of integration sub-steps (default 10**7).

        Returns
        -------
        numpy.ndarray
            Shape ``(n_obs, d)`` or ``(n_obs, n_chains, d)``.
        """
        n_obs = check_int("n_obs", n_obs)
        k, h = self.substeps(eta)
        burn_in = check_float("burn_in", burn_in, minimum=0)
        max_substeps = check_int("max_substeps", max_substeps)
        rng = as_generator(seed)
        x = check_array("x0", x0, ndim=(1, 2))
        if x.shape[-1] != self.dim:
            raise ValueError(f"x0 must have shape ({self.dim},) or (n_chains, {self.dim})")
        total = (n_obs - 1) * k + math.ceil(burn_in / h)
        if total > max_substeps:
            raise ValueError(
                f"this simulation needs {total:.3g} Euler–Maruyama sub-steps ((n_obs - 1) = "
                f"{n_obs - 1} lags of eta = {eta} in steps of h = {h:.3g}, plus the burn-in), "
                f"above max_substeps = {max_substeps:.3g}: raise max_substep (a coarser h, more "
                "bias), lower eta, n_obs or burn_in, or raise max_substeps if you mean it")
        guard_memory(2 * array_bytes((n_obs, *x.shape)),
                     what=f"{n_obs:,} observations of shape {x.shape}",
                     fix="simulate fewer observations")
        sq = math.sqrt(2 * h)

        def step(x: FloatArray, n: int) -> FloatArray:
            # overflow is detected (and reported) after the sub-steps, not warned about
            with np.errstate(over="ignore", invalid="ignore"):
                for _ in range(n):
                    x = x - h * np.asarray(self.grad_f(x), dtype=float) \
                        + sq * rng.standard_normal(x.shape)
            return x

        n_burn = math.ceil(burn_in / h)
        x = step(x, n_burn)
        out = np.empty((n_obs, *x.shape))
        for i in range(n_obs):
            if i:
                x = step(x, k)
            if not np.all(np.isfinite(x)):
                raise ValueError(
                    f"the Euler–Maruyama trajectory became non-finite at observation {i} "
                    f"(sub-step h = {h:.3g}); the explicit scheme is unstable when h times the "
                    "smoothness of f exceeds 2 — decrease max_substep")
            out[i] = x
        return out


class FiniteStateChain:
    """A finite-state Markov chain with row-stochastic transition matrix P.

    ``P[i, j] = Pr(x_{t+1} = j | x_t = i)`` (rows sum to one) — the discrete analogue of
    :math:`p_*^\\eta(z, z')`.  P must be irreducible enough to have a unique stationary law.

    Parameters
    ----------
    P : array_like
        Row-stochastic transition matrix, shape (k, k).
    atol : float, keyword-only
        Tolerance of the stochasticity check (default 1e-12).

    Examples
    --------
    >>> ch = FiniteStateChain([[0.9, 0.1], [0.2, 0.8]])
    >>> np.round(ch.stationary, 6)
    array([0.666667, 0.333333])
    """

    def __init__(self, P: npt.ArrayLike, *, atol: float = 1e-12) -> None:
        atol = check_float("atol", atol, minimum=0, hint=" (a tolerance)")
        Pm = check_array("P", P, ndim=2)
        if Pm.ndim != 2 or Pm.shape[0] != Pm.shape[1] or Pm.shape[0] < 1:
            raise ValueError(f"P must be a square matrix, got shape {Pm.shape}")
        if not np.all(np.isfinite(Pm)):
            raise ValueError("P contains NaN or infinite entries")
        if np.any(Pm < 0):
            raise ValueError("P has negative entries; a transition matrix is non-negative")
        sums = Pm.sum(axis=1)
        if np.max(np.abs(sums - 1)) > atol * Pm.shape[0]:
            raise ValueError(
                f"P must be row-stochastic (rows sum to 1; max deviation "
                f"{np.max(np.abs(sums - 1)):.3g}). It is not renormalised for you: fix the "
                "input, or pass P / P.sum(axis=1, keepdims=True) if that is what you mean")
        self.P: FloatArray = Pm
        self.n_states: int = Pm.shape[0]

    @cached_property
    def stationary(self) -> FloatArray:
        """The unique π with πP = π (refuses chains with several stationary laws)."""
        n = self.n_states
        w, v = np.linalg.eig(self.P.T)
        ones = np.abs(w - 1) < 1e-10
        if int(np.sum(ones)) != 1:
            raise ValueError("P has more than one stationary distribution (reducible chain)")
        pi = np.real(v[:, np.argmax(ones)])
        pi = pi / pi.sum()
        # one step of refinement by least squares on [P^T - I; 1^T]
        Mls = np.vstack([self.P.T - np.eye(n), np.ones((1, n))])
        pi = np.linalg.lstsq(Mls, np.r_[np.zeros(n), 1.0], rcond=None)[0]
        return np.asarray(pi, dtype=float)

    def kernel(self, k: int) -> FloatArray:
        """The k-step kernel :math:`P^k` (k >= 0; stochastic for any k, e.g. 10**16:
        :func:`identifiability.markov.stochastic_power`).

        Parameters
        ----------
        k : int
            The number of steps.

        Returns
        -------
        numpy.ndarray
            :math:`P^k`.
        """
        k = check_int("k (the number of steps; P^-1 is not a kernel)", k, 0)
        return stochastic_power(self.P, k, convention="rows", atol=1e-9)

    def simulate(self, n_obs: int, *, seed: SeedLike = None, x0: int | None = None
                 ) -> npt.NDArray[np.int64]:
        """A trajectory of states (ints), started from π when ``x0`` is None.

        Parameters
        ----------
        n_obs : int
            Length of the trajectory.
        seed : int or numpy.random.Generator, optional, keyword-only
            Seeds the trajectory.
        x0 : int, optional, keyword-only
            The start state (None: drawn from π).

        Returns
        -------
        numpy.ndarray
            int64 states, shape (n_obs,).
        """
        n_obs = check_int("n_obs", n_obs)
        if x0 is not None:
            x0 = check_index("x0 (the starting state)", x0, self.n_states)
        guard_memory(2 * array_bytes(n_obs), what=f"a trajectory of {n_obs:,} states",
                     fix="simulate fewer observations, or in segments")
        rng = as_generator(seed)
        cum = np.cumsum(self.P, axis=1)
        x = np.empty(n_obs, dtype=np.int64)
        x[0] = rng.choice(self.n_states, p=self.stationary) if x0 is None else int(x0)
        u = rng.random(n_obs)
        for i in range(1, n_obs):
            x[i] = min(int(np.searchsorted(cum[x[i - 1]], u[i], side="right")),
                       self.n_states - 1)
        return x

    def tv_to_stationary(self, k: int) -> FloatArray:
        """:math:`\\mathrm{TV}(P^k(z,\\cdot), \\pi)` for every start z.

        Parameters
        ----------
        k : int
            The number of steps.

        Returns
        -------
        numpy.ndarray
            One distance per start state.
        """
        return np.asarray(0.5 * np.abs(self.kernel(k) - self.stationary).sum(axis=1),
                          dtype=float)

    def beta_mixing(self, k: int) -> float:
        """β(k) = :math:`\\sum_z \\pi(z)\\,\\mathrm{TV}(P^k(z,\\cdot),\\pi)` (Definition 1).

        Parameters
        ----------
        k : int
            The lag.

        Returns
        -------
        float
            β(k).
        """
        return float(self.stationary @ self.tv_to_stationary(k))
