"""Seed 004 §2.1 (contrastive estimation of transition kernels): checks CL-1 .. CL-8.

The exact and proof-level statements: Lemma 1, eq. 2.2, Lemmas 4–5, the constant of
Theorem 2's proof, the inequality chains of Theorems 2 and 3 on finite-state kernels, and the
key factor of Theorem 3 for Ornstein–Uhlenbeck.  The end-to-end rate checks CL-9 .. CL-11 are
in :mod:`paper_checks.claims.contrastive_rates`.

Expected verdicts come from the mathematics (derivations in the docstrings of
:mod:`identifiability.contrastive.bounds`), not from running this code.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import flint
import numpy as np
import sympy as sp
from scipy.optimize import minimize

from identifiability.contrastive.bounds import (
    expected_norm_bounds,
    pair_sequence_beta,
    r_second_derivative,
    theorem2_chain,
    theorem3_chain,
    theorem3_factor_gaussian,
)
from identifiability.contrastive.kernels import GaussianKernel
from identifiability.contrastive.metrics import population_risk
from identifiability.contrastive.processes import FiniteStateChain, OrnsteinUhlenbeck
from identifiability.contrastive.task import bayes_classifier, kernel_from_classifier
from paper_checks.registry import ClaimResult, claim, judge

PAPER = "004"


# ------------------------------------------------------------------------------------------
# CL-1  Lemma 1
# ------------------------------------------------------------------------------------------
def _exact_stationary(P: list[list[Fraction]]) -> list[Fraction]:
    n = len(P)
    rows = [[P[j][i] - (1 if i == j else 0) for j in range(n)] for i in range(n - 1)]
    rows.append([Fraction(1)] * n)
    A = flint.fmpq_mat(n, n, [flint.fmpq(x.numerator, x.denominator) for r in rows for x in r])
    b = flint.fmpq_mat(n, 1, [0] * (n - 1) + [1])
    sol = A.solve(b)
    return [Fraction(int(sol[i, 0].p), int(sol[i, 0].q)) for i in range(n)]


def _lemma1_exact(P: list[list[Fraction]], Q: list[list[Fraction]]) -> dict[str, bool]:
    """Population ℓ2 and CE minimisers from the task's joint law, in exact arithmetic."""
    n = len(P)
    pi = _exact_stationary(P)
    ok_bayes = ok_recover = ok_min = True
    for z, zp in product(range(n), range(n)):
        a = pi[z] * Fraction(1, 2) * P[z][zp]      # Pr(z, z', y = 1)
        b = pi[z] * Fraction(1, 2) * Q[z][zp]      # Pr(z, z', y = 0)
        # E_y (h - y)^2 = (a + b) h^2 - 2 a h + a: minimiser a / (a + b); same for the CE
        h_opt = a / (a + b)
        risk = [(a + b) * h * h - 2 * a * h + a for h in (h_opt, h_opt + Fraction(1, 7))]
        ok_min &= risk[1] - risk[0] == (a + b) * Fraction(1, 49)
        h_star = P[z][zp] / (P[z][zp] + Q[z][zp])  # Lemma 1
        ok_bayes &= h_opt == h_star
        ok_recover &= h_star * Q[z][zp] / (1 - h_star) == P[z][zp]    # eq. 2.12
    return {"bayes_equals_lemma1": ok_bayes, "eq_2_12_recovers_p_star": ok_recover,
            "quadratic_excess_exact": ok_min}


def _lemma1_gaussian_family() -> dict[str, float]:
    """Minimise the population CE risk over N(az + c, s^2) for OU (q = π) by quadrature."""
    ou = OrnsteinUhlenbeck(1.0)
    eta = 0.5
    pk, q = ou.kernel(eta), ou.stationary

    def risk(th: np.ndarray) -> float:
        k = GaussianKernel([[th[0]]], [th[1]], [[math.exp(2 * th[2])]])
        return population_risk(lambda z, zp: k.logpdf(z, zp) - q.logpdf(z, zp), pk, q,
                               ou.stationary, n_nodes=30)

    res = minimize(risk, np.zeros(3), method="Nelder-Mead",
                   options={"xatol": 1e-9, "fatol": 1e-14, "maxiter": 4000})
    return {"a_hat": float(res.x[0]), "a_true": float(pk.M[0, 0]), "c_hat": float(res.x[1]),
            "s2_hat": math.exp(2 * res.x[2]), "s2_true": float(pk.S[0, 0])}


@claim(id="CL-1-Lemma1", paper=PAPER, reference="§2.1.1.3 Lemma 1, eqs. 2.10–2.12",
       statement="The optimum of the contrastive objective is h*(x,x') = p_*^eta(z,z') / "
       "(q(z') + p_*^eta(z,z')); eq. 2.12 then returns p_*^eta",
       expected_verdict="holds")
def _cl1() -> ClaimResult:
    F = Fraction
    P = [[F(1, 2), F(1, 3), F(1, 6)], [F(1, 5), F(3, 5), F(1, 5)], [F(1, 4), F(1, 4), F(1, 2)]]
    q_global = [[F(1, 3), F(1, 2), F(1, 6)]] * 3
    q_cond = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 3), F(1, 3), F(1, 3)],
              [F(1, 8), F(3, 8), F(1, 2)]]
    exact_global = _lemma1_exact(P, q_global)
    exact_cond = _lemma1_exact(P, q_cond)
    # float path through the library functions
    Pf = np.array(P, dtype=float)
    qf = np.array(q_global[0], dtype=float)
    lib_ok = bool(np.allclose(kernel_from_classifier(bayes_classifier(Pf, qf), qf), Pf,
                              rtol=1e-14, atol=0))
    fam = _lemma1_gaussian_family()
    fam_ok = (abs(fam["a_hat"] - fam["a_true"]) < 1e-4 and abs(fam["c_hat"]) < 1e-4
              and abs(fam["s2_hat"] / fam["s2_true"] - 1) < 1e-4)
    holds = all(exact_global.values()) and all(exact_cond.values()) and lib_ok and fam_ok
    return ClaimResult(
        measured={"exact_global_q": exact_global, "exact_conditional_q": exact_cond,
                  "gaussian_family_optimum": fam},
        reference_value="h* = p/(p+q); p = h q/(1-h) = p_*",
        verdict=judge(holds),
        details={"finite_state": "3-state rational P; population risks from the task's joint "
                 "law in Fraction arithmetic (global q and a conditional q(.|z))",
                 "library_round_trip": lib_ok,
                 "ou_population_optimum": "OU rho=1, eta=0.5, q=pi: Nelder-Mead on the "
                 "Gauss-Hermite population CE risk over N(az+c, s^2) from (0, 0, 1)",
                 "gaussian_family_recovers_truth": fam_ok})


# ------------------------------------------------------------------------------------------
# CL-2  eq. 2.2
# ------------------------------------------------------------------------------------------
@claim(id="CL-2-eq2.2-B-bound", paper=PAPER, reference="§2.1.1.1 eq. 2.2",
       statement="B = E_pi||x|| <= pi(z_*) E_{N(0, I/rho)}||z|| <= pi(z_*) sqrt(d/rho)",
       expected_verdict="erratum")
def _cl2() -> ClaimResult:
    cases = [(rho, d) for rho in (0.5, 1.0, 2.0, 10.0) for d in (1, 2, 3)]
    rows = []
    for rho, d in cases:
        rows.append((f"A={rho}I_{d}", expected_norm_bounds(OrnsteinUhlenbeck(rho * np.eye(d)))))
    rows.append(("A=[[1,.3],[.3,2]]", expected_norm_bounds(OrnsteinUhlenbeck([[1, .3], [.3, 2]]))))
    printed_ok = all(r["B"] <= r["printed"] for _, r in rows)
    corrected_ok = all(r["B"] <= r["corrected"] * (1 + 1e-12) for _, r in rows)
    fails = [name for name, r in rows if r["B"] > r["printed"]]
    table = {name: {k: round(v, 4) for k, v in r.items()} for name, r in rows}
    return ClaimResult(
        measured=table["A=1.0I_1"], reference_value="B <= pi(0) sqrt(d/rho)",
        verdict=judge(printed_ok, corrected_ok),
        details={"printed": f"fails for {len(fails)}/{len(rows)} OU cases, e.g. 1-D rho=1: "
                 f"B = {table['A=1.0I_1']['B']} > pi(0) = {table['A=1.0I_1']['printed']} "
                 f"(holds only when rho is large, the factor (rho/2pi)^(d/2) being missing)",
                 "corrected": "B <= pi(z_*) (2pi/rho)^(d/2) sqrt(d/rho) holds in every case "
                 f"(1-D rho=1: {table['A=1.0I_1']['corrected']})",
                 "cases": table, "printed_fails_for": fails})


# ------------------------------------------------------------------------------------------
# CL-3  Lemma 5
# ------------------------------------------------------------------------------------------
@claim(id="CL-3-Lemma5", paper=PAPER, reference="§2.1.2.1 Lemma 5 (Bubeck et al. 2018)",
       statement="For any t > 0 and all z: TV(P(z_t | z_0 = z), pi) <= B / sqrt(2 pi t)",
       expected_verdict="erratum")
def _cl3() -> ClaimResult:
    ts = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
    averaged_ok = True
    pointwise_fail = []
    rows = {}
    for rho in (0.5, 1.0, 2.0):
        ou = OrnsteinUhlenbeck(rho)
        B = ou.expected_norm()
        for t in ts:
            bound = B / math.sqrt(2 * math.pi * t)
            beta = ou.beta_mixing(t)
            averaged_ok &= beta <= bound
            z_far = 5 / math.sqrt(rho)
            tv_far = ou.tv_to_stationary(z_far, t)
            if tv_far > bound:
                pointwise_fail.append((rho, t, round(z_far, 3), round(tv_far, 4), round(bound, 4)))
            rows[f"rho={rho},t={t}"] = {"beta": round(beta, 4), "bound": round(bound, 4),
                                        f"TV(z={z_far:.3g})": round(tv_far, 4)}
    ou1 = OrnsteinUhlenbeck(1.0)
    tv51 = ou1.tv_to_stationary(5.0, 1.0)
    b51 = ou1.expected_norm() / math.sqrt(2 * math.pi)
    return ClaimResult(
        measured={"TV(z=5,t=1)": round(tv51, 4), "beta(1)": round(ou1.beta_mixing(1.0), 4)},
        reference_value={"B/sqrt(2 pi t)": round(b51, 4)},
        verdict=judge(not pointwise_fail, averaged_ok),
        details={"printed": f"the 'for all z' bound fails: OU rho=1, z=5, t=1 gives TV "
                 f"{tv51:.3f} > {b51:.3f}; {len(pointwise_fail)} failing (rho, t) cells at "
                 "z = 5/sqrt(rho)",
                 "corrected": "the pi-averaged version beta(t) = E_z TV <= B/sqrt(2 pi t) "
                 f"holds at every t in {ts} for rho in (0.5, 1, 2): {averaged_ok}",
                 "table": rows, "pointwise_failures": pointwise_fail})


# ------------------------------------------------------------------------------------------
# CL-4  Lemma 4
# ------------------------------------------------------------------------------------------
def _pair_beta_brute_force(P: np.ndarray, q: np.ndarray, k: int) -> float:
    """beta of the observed pair sequence via the extended chain (z, x1, y, z')."""
    n = P.shape[0]
    pi = FiniteStateChain(P).stationary
    states = list(product(range(n), range(n), (0, 1), range(n)))
    index = {s: i for i, s in enumerate(states)}
    N = len(states)

    def pair_law(z: int) -> dict[tuple[int, int, int, int], float]:
        out: dict[tuple[int, int, int, int], float] = {}
        for x1 in range(n):
            out[(z, x1, 1, x1)] = 0.5 * P[z, x1]
            for zp in range(n):
                out[(z, x1, 0, zp)] = out.get((z, x1, 0, zp), 0.0) + 0.5 * P[z, x1] * q[zp]
        return out

    K = np.zeros((N, N))
    for s in states:
        x1 = s[1]
        for z_next in range(n):
            for s2, w in pair_law(z_next).items():
                K[index[s], index[s2]] += P[x1, z_next] * w
    pi_ext = np.zeros(N)
    for z in range(n):
        for s2, w in pair_law(z).items():
            pi_ext[index[s2]] += pi[z] * w
    O = np.zeros((N, n * n))
    for s in states:
        O[index[s], s[0] * n + s[3]] = 1.0
    pi_obs = pi_ext @ O
    fut = np.linalg.matrix_power(K, k) @ O                 # law of the pair k steps on
    beta = 0.0
    for o in range(n * n):
        if pi_obs[o] == 0:
            continue
        post = pi_ext * O[:, o] / pi_obs[o]
        beta += pi_obs[o] * 0.5 * float(np.abs(post @ fut - pi_obs).sum())
    return beta


@claim(id="CL-4-Lemma4", paper=PAPER, reference="§2.1.2.1 Lemma 4, eqs. 2.18–2.19",
       statement="beta_{S_X}(t) = beta_{L_X}(t): the pair sequence has the same beta-mixing "
       "coefficients as the point sequence",
       expected_verdict="erratum")
def _cl4() -> ClaimResult:
    rng = np.random.default_rng(20240604)
    max_rel_gap = 0.0
    corrected_ok = True
    brute_agrees = True
    example = None
    for trial in range(60):
        n = int(rng.integers(2, 5))
        P = rng.dirichlet(np.ones(n), size=n)
        q = rng.dirichlet(np.ones(n))
        ch = FiniteStateChain(P)
        for k in (1, 2, 3):
            bs = pair_sequence_beta(P, q, k)
            b_even, b_odd = ch.beta_mixing(2 * k), ch.beta_mixing(2 * k - 1)
            if trial < 12:
                brute_agrees &= abs(bs - _pair_beta_brute_force(P, q, k)) <= 1e-12
            max_rel_gap = max(max_rel_gap, float((bs - b_even) / b_even))
            corrected_ok &= (b_even - 1e-12 <= bs <= 0.5 * (b_odd + b_even) + 1e-12)
            if example is None and n == 3 and k == 1:
                example = {"beta_pairs(1)": round(float(bs), 5),
                           "beta_points(2 eta)": round(b_even, 5),
                           "beta_points(eta)": round(b_odd, 5)}
    printed_holds = max_rel_gap <= 1e-9
    return ClaimResult(
        measured={"max relative gap (beta_S - beta_L)/beta_L": round(max_rel_gap, 4),
                  "example": example},
        reference_value="beta_S(k pairs) = beta_L(2k eta)",
        verdict=judge(printed_holds, corrected_ok and brute_agrees),
        details={"printed": "the identity fails on random finite chains (60 chains, n = 2..4, "
                 f"k = 1..3): beta_S exceeds beta_L(2k) by up to {100 * max_rel_gap:.1f}%. "
                 "Eq. 2.18 drops the dependence of the next pair on x' (a positive x' is one "
                 "step before the next x), so its transition kernel is not the pair chain's",
                 "corrected": "beta_L(2k) <= beta_S(k) <= (beta_L(2k-1) + beta_L(2k))/2 holds "
                 f"in all cases ({corrected_ok}); beta_S from the closed form equals a brute "
                 f"force over the extended chain (z, x1, y, z') ({brute_agrees}). Lemma 3's "
                 "O(B/sqrt(t)) survives",
                 "example": example})


# ------------------------------------------------------------------------------------------
# CL-5  r'' >= 2/(1+c_q)^5
# ------------------------------------------------------------------------------------------
@claim(id="CL-5-Thm2-rpp", paper=PAPER, reference="§2.1.3.2 eqs. 2.23–2.26",
       statement="r''(delta) >= r_min := 2/(1+c_q)^5 when Delta_max <= 7/6 and "
       "1/c_q <= p_*/q <= c_q",
       expected_verdict="holds")
def _cl5() -> ClaimResult:
    u, d = sp.symbols("u delta", positive=True)
    r = (u * d / ((u * (1 + d) + 1) * (u + 1))) ** 2
    r2 = sp.diff(r, d, 2)
    closed = 2 * u**2 * (1 + u - 2 * u * d) / ((1 + u) * (1 + u + u * d) ** 4)
    symbolic_ok = sp.simplify(r2 - closed) == 0
    rows = {}
    holds = symbolic_ok
    for cq in (1.5, 2.0, 4.0, 10.0):
        U = np.geomspace(1 / cq, cq, 601)
        D = np.concatenate([np.linspace(-1 + 1e-9, 1 / 6, 1201), [1 / 6]])
        UU, DD = np.meshgrid(U, D)
        vals = r_second_derivative(UU, DD)
        i = np.unravel_index(np.argmin(vals), vals.shape)
        rmin = 2 / (1 + cq) ** 5
        rows[f"c_q={cq}"] = {"min r''": float(f"{vals.min():.4g}"), "r_min": float(f"{rmin:.4g}"),
                             "argmin (u, delta)": (round(float(UU[i]), 4), round(float(DD[i]), 4))}
        holds &= bool(vals.min() >= rmin)
    const_225 = Fraction(8 * 6**6, 3 * 7**6)
    return ClaimResult(
        measured=rows, reference_value="r'' >= 2/(1+c_q)^5",
        verdict=judge(holds),
        details={"sympy_closed_form_matches": symbolic_ok,
                 "closed_form": "r'' = 2u^2(1+u-2u delta)/((1+u)(1+u+u delta)^4), u = p_*/q",
                 "room": "the bound holds with room; r'' first turns negative at "
                 "delta = (1+u)/(2u) >= 1/2, so Delta_max < 3/2 would suffice",
                 "eq_2_25_constant": f"8*6^6/(3*7^6) = {float(const_225):.4f} >= 1"})


# ------------------------------------------------------------------------------------------
# CL-6 / CL-7  Theorem 2 and Theorem 3 chains on finite-state kernels
# ------------------------------------------------------------------------------------------
def _random_instances(seed: int, n_trials: int, *, close: bool):
    rng = np.random.default_rng(seed)
    for _ in range(n_trials):
        n = int(rng.integers(3, 8))
        P = rng.dirichlet(np.ones(n) * rng.uniform(0.5, 3), size=n)
        conditional = bool(rng.random() < 0.5)
        q = (rng.dirichlet(np.ones(n) * rng.uniform(0.5, 3), size=n) if conditional
             else rng.dirichlet(np.ones(n) * rng.uniform(0.5, 3)))
        if close:
            Ph = P * np.exp(rng.choice([0.02, 0.05, 0.1]) * rng.standard_normal((n, n)))
        else:
            Ph = rng.dirichlet(np.ones(n) * rng.uniform(0.1, 3), size=n)
        yield P, Ph / Ph.sum(axis=1, keepdims=True), q


@claim(id="CL-6-Thm2-finite", paper=PAPER, reference="§2.1.1.4 Theorem 2, eqs. 2.14, 2.22, 2.27",
       statement="If Delta_max <= 7/6: E_{z~pi} KL(p_*(.|z) || p(.|z)) <= 2(1+c_q)^5 eps_tr / "
       "Delta_min^2 (eq. 2.14)",
       expected_verdict="holds")
def _cl6() -> ClaimResult:
    worst = {"kl/bound (2.14)": 0.0, "kl/step bound (2.22)": 0.0,
             "(r_min/4)E delta^2 / excess (2.27)": 0.0}
    used = 0
    for P, Ph, q in _random_instances(6, 2000, close=True):
        t = theorem2_chain(P, Ph, q)
        if t.delta_max > 7 / 6:
            continue
        used += 1
        worst["kl/bound (2.14)"] = max(worst["kl/bound (2.14)"], t.kl / t.bound)
        worst["kl/step bound (2.22)"] = max(worst["kl/step bound (2.22)"], t.kl / t.kl_step_bound)
        worst["(r_min/4)E delta^2 / excess (2.27)"] = max(
            worst["(r_min/4)E delta^2 / excess (2.27)"], t.excess_step_bound / t.excess)
    holds = used > 1000 and all(v <= 1 for v in worst.values())
    return ClaimResult(
        measured={k: round(v, 4) for k, v in worst.items()}, reference_value="all ratios <= 1",
        verdict=judge(holds),
        details={"instances": f"{used} random finite-state kernels (n = 3..7, global or "
                 "conditional q, p = p_* e^noise renormalised, Delta_max <= 7/6) out of 2000",
                 "why_finite_state": "on R^d, c_q and Delta_min are infinite for Gaussian "
                 "kernels (notes §D.16); the proof is pointwise algebra plus normalisation, so "
                 "it applies verbatim with sums; excess = 2 eps_tr is the population ℓ2 excess"})


@claim(id="CL-7-Thm3-finite", paper=PAPER, reference="§2.1.3.3 Theorem 3, eqs. 2.30–2.32",
       statement="E_{pi,p_*}|p - p_*| <= sqrt(2 eps_tr) * sqrt(E_{pi,p_*}(max{p,p_*}+q)^4/q^2) "
       "(eq. 2.32 with eq. 2.30)",
       expected_verdict="holds")
def _cl7() -> ClaimResult:
    worst = {"abs/printed": 0.0, "abs/cauchy-schwarz (2.32)": 0.0,
             "E dr^2 / (2 excess) (2.30)": 0.0}
    for P, Ph, q in _random_instances(7, 2000, close=False):
        t = theorem3_chain(P, Ph, q)
        worst["abs/printed"] = max(worst["abs/printed"], t.abs_error / t.printed_bound)
        worst["abs/cauchy-schwarz (2.32)"] = max(worst["abs/cauchy-schwarz (2.32)"],
                                                 t.abs_error / t.cauchy_schwarz_bound)
        worst["E dr^2 / (2 excess) (2.30)"] = max(worst["E dr^2 / (2 excess) (2.30)"],
                                                  t.mean_dr_sq / (2 * t.excess))
    holds = all(v <= 1 for v in worst.values())
    return ClaimResult(
        measured={k: round(v, 4) for k, v in worst.items()}, reference_value="all ratios <= 1",
        verdict=judge(holds),
        details={"instances": "2000 random finite-state kernels, arbitrary p (no closeness), "
                 "global or conditional q",
                 "constant": "eq. 2.30 gives E_{pi,p_*}(r_q(p)-r_q(p_*))^2 <= 2*(2 eps_tr), so "
                 "the proof supports 2 sqrt(eps_tr), not the printed sqrt(2 eps_tr) (notes "
                 "§D.19); the printed constant nevertheless held in every instance"})


# ------------------------------------------------------------------------------------------
# CL-8  Theorem 3's key factor for OU
# ------------------------------------------------------------------------------------------
@claim(id="CL-8-Thm3-factor", paper=PAPER, reference="§2.1.3.3 eqs. 2.33–2.34",
       statement="E_{x,x'}(max{p,p_*}+q)^4/q^2 <= O(pi(z_*) (1/(rho eta^2))^{d/2}) for "
       "eta = O(1), with q the contrast distribution q(z') of §2.1.1.2",
       expected_verdict="erratum")
def _cl8() -> ClaimResult:
    ou = OrnsteinUhlenbeck(1.0)
    etas_global = (0.05, 0.1, 0.25, 0.45, 0.5, 1.0)
    glob = {eta: theorem3_factor_gaussian(ou.kernel(eta), ou.stationary, ou.stationary)
            for eta in etas_global}
    threshold = 0.5 * math.log(8 / 3)   # rho*eta below which the q = pi factor diverges
    small_eta_infinite = all(math.isinf(v) for e, v in glob.items() if e < threshold)
    etas = (0.0125, 0.025, 0.05)
    slopes = {}
    local_vals = {}
    for d in (1, 2):
        ou_d = OrnsteinUhlenbeck(np.eye(d))
        vals = [theorem3_factor_gaussian(ou_d.kernel(e), GaussianKernel.local(d, e),
                                         ou_d.stationary) for e in etas]
        local_vals[f"d={d}"] = [round(v, 2) for v in vals]
        slopes[f"d={d}"] = float(np.polyfit(np.log(etas), np.log(vals), 1)[0])
    corrected_ok = all(math.isfinite(v) for vs in local_vals.values() for v in vs) and all(
        abs(slopes[f"d={d}"] + d) <= 0.2 * d for d in (1, 2))
    big = theorem3_factor_gaussian(ou.kernel(0.25), GaussianKernel.local(1, 0.25), ou.stationary)
    return ClaimResult(
        measured={"q=pi": {e: v for e, v in glob.items()}, "local q, sigma^2=eta": local_vals,
                  "log-log slopes": {k: round(v, 3) for k, v in slopes.items()}},
        reference_value="finite, ~ eta^-d",
        verdict=judge(not small_eta_infinite, corrected_ok),
        details={"printed": "with the fixed contrast q = pi the factor is infinite at p = p_* "
                 f"for every rho*eta < ln(8/3)/2 = {threshold:.3f} (the z'-integral of "
                 "p_*^5/pi^2 leaves exp(rho z^2 (5a^2/(3+2a^2) - 1/2)), a = e^{-rho eta}); "
                 f"measured inf at eta in {[e for e in etas_global if e < threshold]}",
                 "corrected": "with the conditional q(.|z) = N(z, sigma^2 I), sigma^2 = eta (the "
                 "q the proof's eq. 2.34 uses), the factor is finite and scales like eta^-d: "
                 f"slopes {slopes}",
                 "large_eta": f"with sigma^2 = eta it diverges again at eta = 0.25 ({big}), "
                 "mirroring the requirement eta = O(1)",
                 "evaluation": "closed-form Gaussian integrals at p = p_* (any p gives a "
                 "larger factor since max{p, p_*} >= p_*)"})
