"""Paper 004 Chapter 3, §3.6.4.4: the technical MLP lemmas 38-42 of the Dyck proofs (AUT-*).

Each printed construction is built (:mod:`seprank.automata.gadgets`) and evaluated on random
instances of its hypotheses; the independent routes are hand computations written here.
Found here (2026-11 audit): Lemma 41's construction carries a stray '+M', Lemma 42's assumes
pre-activations in [0, M] and adds every b_k.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from paper_checks.claims.automata.common import (
    NO_REGIME,
    ONE_VERSION,
    PAPER,
    PARAMETERS,
    defence,
)
from paper_checks.compare import exact_result
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Independent, claim, judge
from seprank.automata import (
    MLP,
    lemma38_mlp,
    lemma39_basis,
    lemma40_mlp,
    lemma41_mlp,
    lemma42_mlp,
)

WIDTH_FACTOR = Fraction(PARAMETERS.value("lemma38_width"))     # Lemma 38: "width-2n"


def _turning_points(y: np.ndarray) -> int:
    """Strict local extrema of a sequence: each needs its own kink of a piecewise-linear
    interpolant along the line (so a 2-layer ReLU net needs that many units)."""
    d = np.sign(np.diff(y))
    return int(np.sum(d[1:] * d[:-1] < 0))


@claim(id="AUT-Lemma38-interpolation", paper=PAPER, reference="§3.6.4.4 Lemma 38",
       basis="not_refuted", universal=True,
       statement="for any size-n dataset (x_i, y_i), x_i in R^d, there is a width-2n two-layer "
       "ReLU MLP with f(x_i) = y_i",
       perturbation=Perturbed("width n/2 instead of 2n (the factor 2 inverted)",
                              width_factor=Fraction(1, 2)))
def aut_lemma38_interpolation(width_factor: Fraction = WIDTH_FACTOR) -> ClaimResult:
    rng = np.random.default_rng(38)
    worst, widths_ok = 0.0, True
    for _ in range(200):
        n, d = int(rng.integers(1, 13)), int(rng.integers(1, 6))
        X = rng.normal(size=(n, d))
        y = rng.normal(size=n) * 5
        f, _, _ = lemma38_mlp(X, y)
        worst = max(worst, float(np.abs(f(X).ravel() - y).max() / (1 + np.abs(y).max())))
        widths_ok &= f.widths[0] <= width_factor * n
    # the alternating collinear dataset: any 2-layer net needs >= n - 2 units along the line
    n = 8
    alt = np.array([(-1.0) ** i for i in range(n)])
    need = _turning_points(alt)
    ok = worst < 1e-9 and widths_ok and need <= width_factor * n
    return exact_result(
        measured={"max relative interpolation error": worst, "width <= factor * n": widths_ok,
                  "units needed for 8 alternating collinear points": need},
        reference_value="0 error, width 2n", what="interpolation to 1e-9 (200 random "
        "datasets, n <= 12, d <= 5); the construction's width is 2n", holds=bool(ok),
        details={"lower bound": "on collinear points with alternating labels a piecewise-"
                 "linear f must change slope sign between every three consecutive points: "
                 "n - 2 kinks, one ReLU each -- more than n/2 for n >= 5",
                 "hypothesis used": "the points must be distinct (the proof's direction w "
                 "with |<w, x_i - x_j>| >= 2 gamma); a dataset with a repeated x and two labels "
                 "is not a function, which 'dataset (x_i, y_i)' excludes",
                 "width factor": str(width_factor)})


@claim(id="AUT-Lemma39-basis", paper=PAPER, reference="§3.6.4.4 Lemma 39",
       basis="not_refuted", universal=True,
       statement="for nonzero x_1..x_m in R^n there are orthonormal u_1..u_{n-2} with "
       "u_j^T 1 = 0 and sum_j (u_j^T x_i) u_j != x_i for every i",
       perturbation=Perturbed("n - 1 vectors instead of n - 2", deficit=1))
def aut_lemma39_basis(deficit: int = PARAMETERS.value("lemma39_deficit")) -> ClaimResult:
    rng = np.random.default_rng(39)
    bad, cases, ortho_ok = 0, 0, True
    for n in range(3, 11):
        for _ in range(20):
            m = int(rng.integers(1, 8))
            X = rng.normal(size=(m, n))
            i, j = rng.choice(n, 2, replace=False)
            X[0] = 0.0
            X[0, i], X[0, j] = 1.0, -1.0               # a difference of one-hot embeddings
            U = lemma39_basis(X, n - deficit)
            ortho_ok &= bool(np.allclose(U @ U.T, np.eye(len(U)))
                             and np.allclose(U.sum(axis=1), 0))
            P = X @ U.T @ U
            bad += int(np.sum(np.all(np.abs(P - X) < 1e-9, axis=1)))
            cases += 1
    ok = bad == 0 and ortho_ok
    return exact_result(
        measured={"vectors equal to their projection": bad, "instances": cases,
                  "orthonormal and orthogonal to 1": ortho_ok},
        reference_value=0, what="exact (to 1e-9) over 160 random instances, each with a "
        "one-hot difference", holds=bool(ok),
        details={"why n - 2": "n - 1 orthonormal vectors orthogonal to 1 span all of 1^perp, "
                 "so every x_i with 1^T x_i = 0 (e.g. a difference of one-hot embeddings, "
                 "the lemma's use in (3.43)) equals its projection", "deficit": deficit})


@claim(id="AUT-Lemma40-indexing", paper=PAPER, reference="§3.6.4.4 Lemma 40",
       basis="not_refuted", universal=True,
       statement="for any n and M there is a 2-layer width-2n ReLU network f on R^{n+1} with "
       "f(x (+) y) = x_y for x in [0, M]^n, y in [n]",
       perturbation=Perturbed("the domain hypothesis dropped: x in R^n", domain="R^n"))
def aut_lemma40_indexing(domain: str = "[0, M]^n") -> ClaimResult:
    rng = np.random.default_rng(40)
    worst, widths_ok = 0.0, True
    for n in range(1, 9):
        for M in (0.5, 1.0, 7.0):
            f = lemma40_mlp(n, M)
            widths_ok &= f.widths == (PARAMETERS.value("lemma40_width") * n,)
            x = rng.uniform(0, M, (300, n)) if domain == "[0, M]^n" else \
                rng.uniform(-3 * M, 3 * M, (300, n))
            x[:3] = [0.0] * n, [M] * n, rng.choice([0.0, M], n)
            y = rng.integers(1, n + 1, 300)
            out = f(np.column_stack([x, y])).ravel()
            worst = max(worst, float(np.abs(out - x[np.arange(300), y - 1]).max()))
    return exact_result(
        measured={"max |f(x (+) y) - x_y|": worst, "width 2n": widths_ok},
        reference_value=0.0, what="exact to float round-off (1e-9)",
        holds=bool(worst < 1e-9 and widths_ok),
        details={"network": "the printed sum_i relu(x_i + M(y - i)) - relu(x_i + M(y - i - 1)) "
                 "- M(y - 1), with the linear term as -M relu(y) + M (y >= 1) and the unit "
                 "relu(x_n + M(y - n - 1)) -- zero on the domain -- dropped: width 2n",
                 "why the domain matters": "at fixed y a ReLU network is asymptotically "
                 "positively homogeneous in x, so f(s v, y)/s -> g(v) independent of y as s -> "
                 "infinity: no network equals x_y and x_y' on all of R^n", "domain": domain})


@claim(id="AUT-Lemma41-decoder", paper=PAPER, reference="§3.6.4.4 proof of Lemma 41",
       statement="f(x) = sum_{i=1}^m i (ReLU(x_i) - ReLU(x_i - M) + M)/M gives f(x) = i when "
       "x_i > M and x_j = 0 for j != i", expected_verdict="erratum", defence=defence(
           "AUT-Lemma41-decoder", version=ONE_VERSION, regime=NO_REGIME,
           convention="No convention for ReLU or the sum changes the constant: every term with "
           "x_j = 0 contributes j (M/M), the active one 2i.",
           definitions="Lemma 41's statement (width 2n, f(x) = i on one-hot-like inputs) is "
           "true -- the same sum without '+ M' gives i (measured) -- so only the proof's "
           "formula is wrong, by the constant n(n+1)/2; the upper limit 'm' for the lemma's "
           "n is a second slip of the same line.",
           parameters="n = 1..8, M in {0.5, 1, 7}, the active x_i drawn in (M, 10M].",
           extraction="The '+ M' is a printed term inside the parentheses; extraction drops "
           "symbols, it does not add a '+ M'. A lost symbol that would make the printed line "
           "right (e.g. a subtracted n(n+1)/2) would be a whole term, not one symbol."),
       basis="numeric", universal=True)
def aut_lemma41_decoder() -> ClaimResult:
    rng = np.random.default_rng(41)
    printed_err = corrected_err = 0.0
    width_ok = True
    offsets_n4: set[float] = set()
    for n in range(1, 9):
        for M in (0.5, 1.0, 7.0):
            i = rng.integers(1, n + 1, 200)
            x = np.zeros((200, n))
            x[np.arange(200), i - 1] = rng.uniform(M * 1.0001, 10 * M, 200)
            p = lemma41_mlp(n, M, printed=True)(x).ravel()
            c = lemma41_mlp(n, M)(x).ravel()
            width_ok &= lemma41_mlp(n, M).widths == (PARAMETERS.value("lemma41_width") * n,)
            printed_err = max(printed_err, float(np.abs(p - i).max()))
            corrected_err = max(corrected_err, float(np.abs(c - i).max()))
            if n == 4:
                offsets_n4 = {round(float(v), 9) for v in p - i}
    hand = {n: n * (n + 1) // 2 for n in (1, 4, 8)}
    return ClaimResult(
        measured={"max |printed f - i|": printed_err, "max |corrected f - i|": corrected_err,
                  "printed f - i at n = 4": sorted(offsets_n4), "corrected width 2n": width_ok},
        reference_value="f(x) = i", kind="typo",
        verdict=judge(printed_err < 1e-9, corrected_err < 1e-9 and width_ok),
        independent=Independent("by hand: each x_j = 0 term gives j, the active term 2i, so "
                                "f = i + n(n+1)/2", hand, sorted(offsets_n4) == [10.0]),
        details={"printed": "the '+ M' makes every term contribute its index: f = i + "
                 "n(n+1)/2 (10 for n = 4)", "corrected": "f(x) = sum_i i (ReLU(x_i) - "
                 "ReLU(x_i - M))/M = i, width 2n (Lemma 41 holds)"})


def _random_networks(rng: np.random.Generator, K: int, m: int, n: int) -> list[MLP]:
    return [MLP(((rng.normal(size=(n, m)), rng.normal(size=m)),
                 (rng.normal(size=(m, 1)), rng.normal(size=1)))) for _ in range(K)]


@claim(id="AUT-Lemma42-selection", paper=PAPER, reference="§3.6.4.4 Lemma 42 and its proof",
       basis="numeric", universal=True,
       statement="K 2-layer width-m networks f_k give a 2-layer width-2Km network f with "
       "f(k (+) x) = f_k(x) on [0, M]^n, by the printed sum of a(ReLU(u + M(y - k)) - ReLU(u + "
       "M(y - k - 1))) + b_k - c_{k,i} ReLU(y + 1 - k)", expected_verdict="unproven",
       defence=defence(
           "AUT-Lemma42-selection", version=ONE_VERSION, regime=NO_REGIME,
           convention="No convention fixes the construction: with ReLU(t) = max(t, 0) the "
           "gate a(ReLU(u + M(y - k)) - ReLU(u + M(y - k - 1))) equals a ReLU(u) at y = k "
           "only if u <= M and a constant for y > k only if u >= 0.",
           definitions="u = w_{k,i}^T x + b_{k,i} is a pre-activation of f_k, which the lemma "
           "allows to be any 2-layer network: on [0, M]^n it can be negative or exceed M, and "
           "then the gate is not constant in x for y > k, so the c-terms (functions of y only) "
           "cannot cancel it; '+ b_k' inside the double sum adds m sum_k b_k for every y. The "
           "c-terms are K more units (width 2Km + K). A corrected gate (shift 2L with L >= "
           "max|u|) and a K - 1 unit interpolation of b_y - L sum_{k<y} A_k give width 2Km - "
           "m + K - 1, within 2Km iff K <= m + 1; for K > m + 1 the width is neither reached "
           "nor refuted -- 'unproven'. The lemma's uses (Theorem 1's proof) only need O(.) "
           "widths.",
           parameters="K in {2, 3, 4}, m in {1, 2, 3}, n in {1, 2}, M in {1, 3}; weights "
           "normal (seed 42), x uniform in [0, M]^n.",
           extraction="The failure does not rest on a symbol: the construction is printed in "
           "full, and it is right exactly when 0 <= u <= M and every b_k = 0 (measured)."))
def aut_lemma42_selection() -> ClaimResult:
    rng = np.random.default_rng(42)
    printed_err = corrected_err = 0.0
    widths = {}
    for K in (2, 3, 4):
        for m in (1, 2, 3):
            for n in (1, 2):
                for M in (1.0, 3.0):
                    nets = _random_networks(rng, K, m, n)
                    x = rng.uniform(0, M, (100, n))
                    p, c = lemma42_mlp(nets, M, printed=True), lemma42_mlp(nets, M)
                    for k in range(1, K + 1):
                        inp = np.column_stack([np.full(100, float(k)), x])
                        ref = nets[k - 1](x).ravel()
                        printed_err = max(printed_err, float(np.abs(p(inp).ravel() - ref).max()))
                        corrected_err = max(corrected_err,
                                            float(np.abs(c(inp).ravel() - ref).max()))
                    widths[(K, m)] = (p.widths[0], c.widths[0],
                                       PARAMETERS.value("lemma42_width") * K * m)
    # the printed construction is right when 0 <= u <= M and b_k = 0
    good = [MLP(((np.abs(rng.normal(size=(2, 2))) * 0.2, np.abs(rng.normal(size=2)) * 0.1),
                 (rng.normal(size=(2, 1)), np.zeros(1)))) for _ in range(3)]
    x = rng.uniform(0, 1.0, (50, 2))
    pg = lemma42_mlp(good, 1.0, printed=True)
    good_err = max(float(np.abs(pg(np.column_stack([np.full(50, k), x])).ravel()
                                - good[k - 1](x).ravel()).max()) for k in (1, 2, 3))
    # by hand: K = 2, m = 1, n = 1, M = 1, f_1 = relu(x - 1/2), f_2 = 0 (a = 0): at y = 2,
    # x = 0 the printed pair for k = 1 is relu(-1/2 + 1) - relu(-1/2) = 1/2, not M = 1
    hand = max(-0.5 + 1, 0) - max(-0.5, 0)
    within = {km: c <= w for km, (_, c, w) in widths.items()}
    return ClaimResult(
        measured={"max |printed f - f_k|": round(printed_err, 4),
                  "max |corrected f - f_k|": corrected_err,
                  "printed, when 0 <= u <= M and b_k = 0": good_err,
                  "(printed width, corrected width, 2Km) by (K, m)": widths},
        reference_value="f(k (+) x) = f_k(x), width 2Km", verdict="unproven", kind="proof",
        independent=Independent("by hand: the printed gate of a unit with u = -1/2 at y = k + 1 "
                                "is relu(1/2) - relu(-1/2) = 1/2, not the constant M = 1", hand,
                                hand == 0.5 and printed_err > 1e-3 and corrected_err < 1e-9),
        details={"why": "the printed construction assumes every pre-activation in [0, M] and "
                 "every b_k = 0 (then it is exact: measured); it also has K extra units "
                 "(2Km + K). The corrected construction is exact with width 2Km - m + K - 1, "
                 f"within 2Km for K <= m + 1 ({within}); the printed width for K > m + 1 is "
                 "not established (nor refuted)"})
