r"""The lower-bound witness of paper 003 (Lemma 6): built, evaluated on its grid, certified.

The construction (weights, templates, the constant c) is in
:mod:`seprank.d2w.lemma6_construction`; this module evaluates the grid sub-matrix

.. math::  [\![\mathcal A(y_p^{i})]\!]_{\tilde I, \tilde J} = c\,(VV^T)^{\odot 3^{L-2}}

and certifies its rank.

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
.. [1] 003, Lemma 6 (eqs. 28-54), App. B.2 (eqs. 24-27), Claims 1-2.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import singledispatch
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from seprank.attention import LinearAttention
from seprank.core.domains import Domain, ExactDomain, FloatDomain, ModularDomain, domain_for
from seprank.core.gaussian_rationals import GaussianRational
from seprank.core.grid import grid_tensor
from seprank.core.minors import nonzero_minor
from seprank.core.random import SeedLike, spawn
from seprank.core.rank import RankResult
from seprank.core.results import Certificate, Method, RankValued
from seprank.core.types import Array
from seprank.core.validation import check_int
from seprank.d2w.bounds import multiset_coefficient
from seprank.d2w.hadamard import paper_witness_V, rational_sphere_V
from seprank.d2w.lemma6_construction import (
    LastLayer,
    WitnessWeights,
    lemma6_templates,
    lemma6_weights,
    validate_witness_shape,
    witness_constant,
)

__all__ = ["WitnessResult", "lemma6_witness"]


#: Float witness: relative error below which the sub-matrix counts as proportional.
PROPORTIONAL_RTOL = 1e-8


@dataclass(frozen=True, repr=False)
class WitnessResult(RankValued):
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
    method : str
        The method used.
    seconds : float
        Wall time.
    details : Mapping
        Prime, iota, V, shapes.
    evidence : object
        What :meth:`certificate` needs (``'modular'`` only), or None.
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
    #: (network, per-position templates, output position, output coordinate) of a modular
    #: witness, for :meth:`certificate`.
    evidence: Any = field(default=None, repr=False, compare=False)

    def certificate(self) -> dict[str, Any]:
        r"""The certificate of a ``'modular'`` witness: the GF(p) network (weights
        :math:`\mathrm{re} + \iota\,\mathrm{im}` with :math:`\iota^2 = -1`), the 2R + 1
        templates, and a non-zero minor of the R x R sub-matrix (all of it when the rank is
        full), which :func:`seprank.certificates.verify` recomputes by its own evaluator.

        Returns
        -------
        dict
            The certificate (JSON-serialisable), checked by :func:`seprank.certificates.verify`.

        Examples
        --------
        >>> from seprank.certificates import verify
        >>> cert = lemma6_witness(5, 2, seed=0).certificate()
        >>> cert["claim"]["value"], cert["arithmetic"], verify(cert).ok
        (2, 'GF(p)', True)
        """
        from seprank.certificates.build import (
            bind_subject,
            certificate_header,
            exact_json,
            function_spec,
        )

        if self.evidence is None:
            raise ValueError(f"a {self.method!r} witness has no certificate; use "
                             "method='modular'")
        net, grids, position, coordinate = self.evidence
        prime = int(self.details["prime"])
        R, n = self.matrix.shape[0], len(grids)
        if self.rank == R:
            rows, cols = tuple(range(R)), tuple(range(R))
        else:
            rows, cols = nonzero_minor(self.matrix, prime)
        templates = [*grids[0], *grids[n // 2], grids[1 % n][0] if n > 2 else grids[0][0]]
        last = 2 * R if n > 2 else 0
        A, B = list(range(n // 2)), list(range(n // 2, n))
        cert = certificate_header("grid_rank", {
            "quantity": "rank of the Lemma 6 grid sub-matrix over GF(p)", "relation": ">=",
            "value": self.rank,
            "statement": f"the {R} x {R} grid sub-matrix of the Lemma 6 network over GF({prime}) "
            f"(iota = {self.details['iota']}, a square root of -1) has rank >= {self.rank}; a "
            "non-zero minor of this polynomial in the weights proves, by 003 Claims 1-2, "
            f"sep >= {self.rank} for almost every real weight assignment"},
            method="modular", seconds=self.seconds)
        cert.update({
            "function": function_spec(net.entry(position, coordinate)), "n_inputs": n,
            "dim": len(templates[0]), "partition": [A, B],
            "arithmetic": "GF(p)", "prime": prime,
            "templates": [[exact_json(v) for v in t] for t in templates],
            "rows": [[r] + [last] * (len(A) - 1) for r in rows],
            "cols": [[R + c] + [last] * (len(B) - 1) for c in cols],
            "entries": [[int(self.matrix[r, c]) for c in cols] for r in rows]})
        return bind_subject(cert)

    def _repr_info(self) -> dict[str, Any]:
        return {"rank": self.rank, "expected_rank": self.expected_rank,
                "certifies": self.certifies, "proportional": self.proportional,
                "constant": self.constant, "constant_matches": self.constant_matches,
                "method": self.method, "seconds": self.seconds}

    def summary(self) -> str:
        """One line in words: the value, what it certifies, the key evidence.

        Returns
        -------
        str
            One line: the rank, the expected rank and what is certified.
        """
        return (f"Lemma 6 witness: rank {self.rank} of {self.expected_rank} = ((d lambda)) "
                f"({self.method}, certifies {self.certifies}; proportional to "
                f"c (VV^T)^lambda: {self.proportional}; {self.seconds:.2f} s)")


@singledispatch
def _proportionality(domain: Domain, E: Array, V: Array, lam: int,
                     constant: GaussianRational | None, rank: RankResult,
                     details: dict[str, Any]) -> tuple[bool, Any, bool | None]:
    """Whether ``E = c' (VV^T)^{∘lam}`` in ``domain``: (proportional, c', c' == constant)."""
    raise TypeError(f"no proportionality fit for {type(domain).__name__}")


@_proportionality.register
def _(domain: ModularDomain, E: Array, V: Array, lam: int, constant: GaussianRational | None,
      rank: RankResult, details: dict[str, Any]) -> tuple[bool, Any, bool | None]:
    """GF(p): E = c (VV^T)^lam checked entrywise with c fitted at a nonzero entry."""
    p, iota = domain.p, domain.sqrt_minus_one()
    Vp = domain.asarray(V)
    G = domain.matmul(Vp, Vp.T)
    P = np.ones_like(G)
    for _ in range(lam):
        P = domain.mul(P, G)
    nz = np.argwhere(P != 0)
    if len(nz):
        a, b = (int(x) for x in nz[0])
        fitted = int(E[a, b]) * pow(int(P[a, b]), -1, p) % p
        proportional = bool(np.array_equal(E, domain.scale(P, fitted)))
    else:
        fitted, proportional = 0, bool(np.all(E == 0))
    return proportional, fitted, None if constant is None else fitted == constant.residue(iota, p)


@_proportionality.register
def _(domain: ExactDomain, E: Array, V: Array, lam: int, constant: GaussianRational | None,
      rank: RankResult, details: dict[str, Any]) -> tuple[bool, Any, bool | None]:
    """Q(i): exact proportionality, c fitted at the first nonzero entry of (VV^T)^lam."""
    R = E.shape[0]
    target = np.vectorize(lambda g: g**lam, otypes=[object])(V.dot(V.T))
    a, b = next((x, y) for x in range(R) for y in range(R) if target[x, y] != 0)
    ratio = GaussianRational.coerce(E[a, b]) * (1 / Fraction(target[a, b]))
    proportional = all(E[x, y] == ratio * target[x, y] for x in range(R) for y in range(R))
    return proportional, ratio, None if constant is None else ratio == constant


@_proportionality.register
def _(domain: FloatDomain, E: Array, V: Array, lam: int, constant: GaussianRational | None,
      rank: RankResult, details: dict[str, Any]) -> tuple[bool, Any, bool | None]:
    """complex128: proportional to relative error :data:`PROPORTIONAL_RTOL`, c fitted at the
    largest entry of (VV^T)^lam."""
    Vf = V.astype(float)
    target = (Vf @ Vf.T) ** lam
    a, b = (int(x) for x in np.unravel_index(int(np.argmax(np.abs(target))), target.shape))
    ratio = complex(E[a, b] / target[a, b])
    err = float(np.max(np.abs(E - ratio * target)) / max(np.max(np.abs(E)), 1e-300))
    matches = (None if constant is None
               else abs(ratio - complex(constant)) <= PROPORTIONAL_RTOL * abs(ratio))
    sv = rank.details["singular_values"]
    details.update(relative_error=err,
                   condition=float(sv[0] / sv[-1]) if sv[-1] else math.inf)
    return err < PROPORTIONAL_RTOL, ratio, matches


def _network(weights: WitnessWeights, unit: Any) -> LinearAttention:
    """The complex Lemma 6 network with weights re + unit * im, ``unit`` the square root of -1
    of the domain it is evaluated in (the domain reads the weights into its own numbers)."""
    return LinearAttention(*(r + i * unit for r, i in zip(weights.real, weights.imag,
                                                           strict=True)))


def lemma6_witness(width: int, depth: int, heads: int = 1, n_inputs: int = 2, *,
                   V: npt.ArrayLike | Literal["rational", "paper"] = "rational",
                   method: Method = "modular", last_layer: LastLayer = "fixed",
                   value_layer: LastLayer = "fixed", output_position: int = 0,
                   output_coordinate: int = 0, omega: int = 2,
                   seed: SeedLike = None,
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
        The output position i and coordinate p of :math:`y_p^i`.
    seed : int or Generator, optional, keyword-only
        Seeds V (``'rational'``) and the prime (separate streams).
    progress : bool, optional, keyword-only
        Progress bar over the grid (default: for more than a million points on a terminal).
    order : {'auto', 'gram', 'scores'}, keyword-only
        Association of the network's products (:meth:`seprank.LinearAttention.__call__`);
        ``'auto'`` is scores-first here (N << d_x) for every method.  Only speed (and float
        rounding) depends on it.
    omega : int, keyword-only
        Ω of the paper's rows (``V='paper'``).

    Returns
    -------
    WitnessResult
        The sub-matrix, its rank and what is certified.

    References
    ----------
    .. [1] 003, Lemma 6 (eq. 28), App. B.2 (eq. 24), Claims 1-2.

    Examples
    --------
    >>> r = lemma6_witness(7, 3, seed=0)
    >>> r.rank, r.expected_rank, r.certifies, r.proportional, r.constant, r.constant_matches
    (10, 10, 'exact', True, GaussianRational(18), True)
    """
    start = time.perf_counter()
    _, _, d = validate_witness_shape(width, depth, heads, n_inputs)
    if order not in ("auto", "gram", "scores"):
        raise ValueError(f"order must be 'auto', 'gram' or 'scores', got {order!r}")
    output_position = check_int("output_position", output_position, 0, n_inputs - 1)
    output_coordinate = check_int("output_coordinate", output_coordinate, 0, width - 1)
    omega = check_int("omega", omega, 2)
    lam = 3 ** (depth - 2)
    R = multiset_coefficient(d, lam)
    v_rng, p_rng = spawn(seed, 2)
    # a field with a square root of -1, where the complex witness lives: GF(p) with p = 1 mod 4,
    # the Gaussian rationals, or complex128
    domain = domain_for(method, p_rng, complex_=True)
    exact_field = domain.certifies != "none"
    if isinstance(V, str):
        if V == "rational":
            Varr = rational_sphere_V(R, d, seed=v_rng)
        elif V == "paper":
            if exact_field:
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
    if exact_field and not exact_v:
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
    T = lemma6_templates(Varr, width, heads)
    per_position = [T[-1:]] * n_inputs
    per_position[0] = T[:R_used]
    per_position[n_inputs // 2] = T[R_used:2 * R_used]
    constant = (witness_constant(width, depth, heads, n_inputs)
                if last_layer == "fixed" and value_layer == "fixed" else None)
    details: dict[str, Any] = {"d": d, "lambda": lam, "R": R_used, "templates": 2 * R_used + 1}
    unit = domain.sqrt_minus_one()
    net, grids = _network(weights, unit), [domain.asarray(t) for t in per_position]
    evidence = None
    if isinstance(domain, ModularDomain):  # a GF(p) witness ships its certificate
        details.update(prime=domain.p, iota=unit)
        evidence = (net, grids, output_position, output_coordinate)
    how = net.cheaper_order(n_inputs) if order == "auto" else order  # scores first: N << d_x
    tensor = grid_tensor(
        lambda X: net(X, domain=domain, order=how)[..., output_position, output_coordinate],
        grids, n_inputs, progress=progress)
    E = tensor.reshape(R_used, R_used)
    rank = domain.rank(E)
    details["rank"] = rank.summary()
    proportional, fitted_c, matches = _proportionality(domain, E, Varr, lam, constant, rank,
                                                       details)
    details["fitted_constant"] = fitted_c
    return WitnessResult(rank.rank, R, rank.certifies, proportional, constant, matches,
                         domain.method, time.perf_counter() - start, E, details, evidence)
