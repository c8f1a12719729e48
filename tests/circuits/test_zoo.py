"""The zoo against the toolkit's hand-written paths, and every circuit's certificate recomputed.

* 003's network: the circuit's entry equals ``LinearAttention``'s (exact and GF(p)) on random
  integer networks; its derived degree structure equals the declared one (003, eq. 12).
* 000/001's in-context representation: the circuit equals ``InContextRepresentation`` and its
  registered GF(p) fast path; certified ranks through the circuit path equal the closed form PB
  of the held-out settings (tests/separation/test_degree.py) and today's ranks on the D2W ones.
* Every zoo circuit's certificate verifies in the stdlib checker with its values recomputed.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from seprank import LinearAttention
from seprank.certificates import certify, verify
from seprank.circuits import (
    deep_cac,
    from_incontext,
    from_linear_attention,
    incontext,
    linear_attention,
    linear_ssm,
    polynomial_mlp,
    rac,
    shallow_cac,
)
from seprank.core.domains import ExactDomain, ModularDomain
from seprank.evaluators import evaluators
from seprank.incontext import InContextRepresentation
from tests.separation.test_degree import D2W, INCONTEXT, TEMPLATE_SEED, WEIGHT_SEED

P = 16_777_259
SHAPES = ((1, 2, 1, 3), (2, 3, 1, 2), (2, 4, 2, 3), (3, 2, 2, 2), (1, 5, 5, 4))


@pytest.mark.parametrize(("L", "d_x", "H", "N"), SHAPES)
@pytest.mark.parametrize("residual", [False, True])
def test_attention_circuit_entries_equal_linear_attention(L: int, d_x: int, H: int, N: int,
                                                          residual: bool) -> None:
    rng = np.random.default_rng(L * 100 + d_x * 10 + H)
    for seed in range(3):
        net = LinearAttention.random(depth=L, width=d_x, heads=H, residual=residual, seed=seed)
        position, coordinate = int(rng.integers(N)), int(rng.integers(d_x))
        f = from_linear_attention(net, n_inputs=N, position=position, coordinate=coordinate)
        X = rng.integers(-P, P, (20, N, d_x))
        F = ModularDomain(P)
        assert np.array_equal(f(X, domain=F), net(X, domain=F)[:, position, coordinate])
        Xs = rng.integers(-4, 5, (3, N, d_x))
        assert f(Xs, domain=ExactDomain()).tolist() == net(Xs)[:, position, coordinate].tolist()


@pytest.mark.parametrize(("L", "d_x", "H", "N"), SHAPES)
def test_derived_degree_structure_equals_the_declared_one(L: int, d_x: int, H: int,
                                                          N: int) -> None:
    """003, eq. 12: homogeneous of degree 3^L, A-degree odd iff the output position is in A --
    declared by hand for OutputEntry, derived here from the program."""
    net = LinearAttention.random(depth=L, width=d_x, heads=H, seed=1)
    for position in range(N):
        f = from_linear_attention(net, n_inputs=N, position=position)
        for A in ((0,), tuple(range(1, N))):
            B = tuple(i for i in range(N) if i not in A)
            if not A or not B:
                continue
            got = f.degree_structure(A, B)
            want = net.entry(position, 0).degree_structure(A, B)
            assert got is not None and want is not None
            assert got.bidegrees == want.bidegrees


@pytest.mark.parametrize(("d_x", "H", "L", "N", "pb"), INCONTEXT[:6])
def test_incontext_circuit_equals_the_representation(d_x: int, H: int, L: int, N: int,
                                                     pb: int) -> None:
    rep = InContextRepresentation.random(depth=L, width=d_x, heads=H, n_tokens=N,
                                         position=N, seed=d_x + L)
    f = from_incontext(rep)
    rng = np.random.default_rng(0)
    F = ModularDomain(P)
    X = rng.integers(0, P, (30, 2, d_x))
    fast = evaluators(form="incontext_pairs", domain=F)[0]
    assert np.array_equal(f(X, domain=F), fast(rep, X[:, 0], X[:, 1], F))
    Xs = rng.integers(-3, 4, (3, 2, d_x))
    assert f(Xs).tolist() == rep(Xs[:, 0], Xs[:, 1]).tolist()
    g = incontext(depth=L, width=d_x, heads=H, n_tokens=N, position=N, seed=d_x + L)
    assert g(Xs).tolist() == f(Xs).tolist()            # the constructor: same seed, weights


@pytest.mark.parametrize(("d_x", "H", "L", "N", "pb"), INCONTEXT)
@pytest.mark.parametrize("i_in_first", [True, False])
def test_incontext_circuit_ranks_equal_the_held_out_settings(d_x: int, H: int, L: int, N: int,
                                                             pb: int, i_in_first: bool) -> None:
    """The settings and seeds of tests/separation/test_degree.py: through the circuit the
    certified seq-sep is PB (d_x > H, the closed form) and the blocks are the bidegrees of
    one parity, as today's path finds."""
    rep = InContextRepresentation.random(depth=L, width=d_x, heads=H, n_tokens=N,
                                         position=0 if i_in_first else N,
                                         seed=1000 * d_x + 100 * H + 10 * L + N)
    f = from_incontext(rep)
    r = f.separation_rank(partition=([0], [1]), seed=7)
    assert r.block_bound == pb
    parity = 1 if i_in_first else 0
    assert all(b.a_degree % 2 == parity for b in r.blocks)
    if d_x > H:
        assert r.rank == pb


@pytest.mark.parametrize(("L", "d_x", "H", "N"),
                         D2W)
def test_attention_circuit_ranks_equal_todays_on_the_d2w_settings(L: int, d_x: int, H: int,
                                                                  N: int) -> None:
    net = LinearAttention.random(depth=L, width=d_x, heads=H,
                                 seed=WEIGHT_SEED + 97 * L + 13 * d_x + H)
    part = (tuple(range(N // 2)), tuple(range(N // 2, N)))
    today = net.separation_rank(position=0, coordinate=0, partition=part, n_inputs=N,
                                seed=TEMPLATE_SEED)
    f = from_linear_attention(net, n_inputs=N)
    assert f.separation_rank(partition=part, seed=TEMPLATE_SEED).rank == today.rank


ZOO = {
    "attention": (lambda: linear_attention(depth=2, width=2, n_inputs=2, seed=0), ([0], [1])),
    "attention-residual": (lambda: linear_attention(depth=1, width=2, n_inputs=2,
                                                    residual=True, seed=0), ([0], [1])),
    "incontext": (lambda: incontext(depth=1, width=3, n_tokens=2, seed=0), ([0], [1])),
    "shallow-cac": (lambda: shallow_cac(n_inputs=4, dim=2, channels=3, seed=0),
                    ([0, 1], [2, 3])),
    "deep-cac": (lambda: deep_cac(n_inputs=4, dim=2, channels=2, pooling="interleaved",
                                  seed=0), ([0, 2], [1, 3])),
    "rac": (lambda: rac(n_inputs=4, dim=2, hidden=2, depth=2, seed=0), ([0, 1], [2, 3])),
    "ssm": (lambda: linear_ssm(n_inputs=4, dim=2, state=2, seed=0), ([0, 1], [2, 3])),
    "ssm-lti": (lambda: linear_ssm(n_inputs=4, dim=2, state=2, kind="lti", seed=0),
                ([0, 2], [1, 3])),
    "mlp": (lambda: polynomial_mlp(n_inputs=2, dim=2, widths=(2, 2), seed=0), ([0], [1])),
}


@pytest.mark.parametrize("name", sorted(ZOO))
def test_every_zoo_certificate_is_recomputed_by_the_checker(name: str) -> None:
    make, part = ZOO[name]
    f = make()
    cert = certify(f.separation_rank(partition=part, seed=0))
    assert cert["function"]["type"] == "circuit"
    report = verify(cert)
    assert report.ok and report.recomputed, report.summary()
    forged = copy.deepcopy(cert)
    for node in forged["function"]["program"]["nodes"]:
        if node["op"] == "const":
            first = node["value"]
            while isinstance(first[0], list):
                first = first[0]
            first[0] = int(first[0]) + 1
            break
    assert verify(forged).status == "rejected"


def test_a_non_homogeneous_circuit_is_refused_for_blocks_by_the_checker() -> None:
    """A block certificate rests on homogeneity: a program that adds degrees 1 and 3 (a
    residual connection) is not shown homogeneous, so the checker rejects blocks for it."""
    good = certify(ZOO["attention"][0]().separation_rank(partition=([0], [1]), seed=0))
    residual = linear_attention(depth=1, width=2, n_inputs=2, residual=True, seed=0)
    forged = copy.deepcopy(good)
    forged["function"] = residual.certificate_function()
    assert verify(forged).status in ("rejected", "refused")
