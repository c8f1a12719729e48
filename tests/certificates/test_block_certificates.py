"""Certificates of ranks computed block by block (kind ``grid_rank_blocks``): they verify with
and without a kept witness, claim what the dense certificate claims, their block values agree
with an independent sympy expansion, and every corruption is rejected with the first failure.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sympy

from seprank import InContextRepresentation, LinearAttention, incontext_seq_sep, separation_rank
from seprank.certificates import polynomial_function, verify
from seprank.certificates.verify import blocks as verify_blocks
from seprank.separation import DegreeStructure

VERIFY_DIR = Path(__file__).resolve().parents[2] / "seprank" / "certificates" / "verify"
PARTITION = ([0, 2], [1, 3])


@cache
def _net_results(keep: bool) -> tuple[Any, Any]:
    net = LinearAttention.random(depth=2, width=2, seed=5)
    kw: dict[str, Any] = {"position": 0, "coordinate": 1, "partition": PARTITION, "n_inputs": 4,
                          "seed": 6}
    return (net.separation_rank(keep_witness=keep, **kw),
            net.separation_rank(structure="dense", keep_witness=True, **kw))


@cache
def _seq_results(keep: bool) -> tuple[Any, Any]:
    rep = InContextRepresentation.random(depth=2, width=2, n_tokens=2, seed=3)
    return (incontext_seq_sep(rep, seed=0, keep_witness=keep),
            incontext_seq_sep(rep, seed=0, structure="dense", keep_witness=True))


def _block_cert() -> dict[str, Any]:
    return copy.deepcopy(_net_results(True)[0].certificate())


@pytest.mark.parametrize("keep", [True, False])
def test_a_linear_attention_block_certificate_verifies_and_claims_the_dense_value(
        keep: bool) -> None:
    blocks, dense = _net_results(keep)
    assert blocks.blocks and all((b.evidence.kept_minor is not None) == keep
                                 for b in blocks.blocks)
    cert = blocks.certificate()
    assert cert["kind"] == "grid_rank_blocks" and json.loads(json.dumps(cert)) == cert
    assert cert["structure"]["total_degree"] == 3**2
    assert [b["rank"] for b in cert["blocks"]] == [b.rank for b in blocks.blocks if b.rank]
    v = verify(cert)
    assert v.ok and v.recomputed, v.reason
    assert "homogeneous of degree D = 9" in v.verified and "003, eq. 12" in v.verified
    dense_cert = dense.certificate()
    assert verify(dense_cert).ok
    assert cert["claim"]["value"] == dense_cert["claim"]["value"] == sum(
        b["rank"] for b in cert["blocks"])


@pytest.mark.parametrize("keep", [True, False])
def test_an_incontext_block_certificate_verifies_and_claims_the_dense_value(keep: bool) -> None:
    blocks, dense = _seq_results(keep)
    cert = blocks.certificate()
    assert cert["kind"] == "grid_rank_blocks" and cert["function"]["type"] == "incontext"
    v = verify(cert)
    assert v.ok and v.recomputed, v.reason
    assert v.claim.endswith(f">= {blocks.rank}")
    assert cert["claim"]["value"] == dense.certificate()["claim"]["value"] == 15


def test_block_values_agree_with_an_independent_expansion() -> None:
    """f = <x0, x1>^2 <x0, x0> in dimension 2: homogeneous of degree 6 with A-degrees 4 (and
    B-degree 2) only.  The certificate's block entries must be the values of f's A-degree-j
    part, computed here by sympy (expand and keep the monomials of x0-degree j)."""
    x0 = sympy.symbols("x0_0 x0_1")
    x1 = sympy.symbols("x1_0 x1_1")
    expr = (x0[0] * x1[0] + x0[1] * x1[1]) ** 2 * (x0[0] ** 2 + x0[1] ** 2)

    def f(X: np.ndarray) -> np.ndarray:
        inner = X[:, 0, 0] * X[:, 1, 0] + X[:, 0, 1] * X[:, 1, 1]
        return inner**2 * (X[:, 0, 0] ** 2 + X[:, 0, 1] ** 2)

    r = separation_rank(f, n_inputs=2, dim=2, partition=([0], [1]), seed=1,
                        structure=DegreeStructure.homogeneous(6))
    cert = r.certificate(function=polynomial_function(expr, n_inputs=2, dim=2))
    v = verify(cert)
    assert v.ok and v.recomputed, v.reason
    assert [b["bidegree"] for b in cert["blocks"]] == [[4, 2]]
    p = cert["prime"]
    poly = sympy.Poly(sympy.expand(expr), *x0)
    for blk in cert["blocks"]:
        j = blk["bidegree"][0]
        part = sum(c * x0[0] ** e[0] * x0[1] ** e[1] for e, c in poly.terms() if sum(e) == j)
        T = blk["templates"]
        for a, row in enumerate(blk["rows"]):
            for b, col in enumerate(blk["cols"]):
                point = dict(zip(x0 + x1, T[row[0]] + T[col[0]], strict=True))
                assert int(part.subs(point)) % p == blk["entries"][a][b]


def _rejected(cert: dict[str, Any]) -> str:
    v = verify(cert)
    assert not v.ok, "a corrupted certificate was accepted"
    assert v.reason
    return v.reason


def test_an_index_changed_is_rejected() -> None:
    cert = _block_cert()
    blk = cert["blocks"][1]
    name = f"block ({blk['bidegree'][0]}, {blk['bidegree'][1]})"
    blk["rows"][0] = [(blk["rows"][0][0] + 1) % len(blk["templates"]), blk["rows"][0][1]]
    assert _rejected(cert).startswith(f"{name}: entry (0, ")


def test_a_changed_bidegree_is_rejected() -> None:
    cert = _block_cert()
    cert["blocks"][0]["bidegree"] = [1, 7]               # 1 + 7 != D = 9
    assert "(1, 7)" in _rejected(cert) and "!= 9" in _rejected(cert)
    cert = _block_cert()
    cert["blocks"][0]["bidegree"] = list(cert["blocks"][1]["bidegree"])
    assert "both have A-degree" in _rejected(cert)
    cert = _block_cert()                                  # an even A-degree: f has none
    cert["blocks"][0]["bidegree"] = [2, 7]
    assert _rejected(cert).startswith("block (2, 7): entry (0, 0)")


def test_a_wrong_prime_is_rejected() -> None:
    cert = _block_cert()
    cert["prime"] = int(sympy.nextprime(cert["prime"]))
    assert "entry (0, 0)" in _rejected(cert)
    cert["prime"] = 15
    assert "not a prime" in _rejected(cert)
    cert["prime"] = 7                                     # too small for D + 1 = 10 nodes
    assert "must exceed the total degree" in _rejected(cert)


def test_a_claim_above_the_sum_of_the_blocks_is_rejected() -> None:
    cert = _block_cert()
    cert["claim"]["value"] += 1
    assert "exceeds the sum of the block ranks" in _rejected(cert)
    cert = _block_cert()                                  # a block claiming more than its minor
    cert["blocks"][0]["rank"] += 1
    assert "must list the" in _rejected(cert)


def test_a_residual_network_passed_off_as_homogeneous_is_rejected() -> None:
    cert = _block_cert()
    cert["function"]["network"]["residual"] = True
    assert "residual connections" in _rejected(cert)


def test_a_non_homogeneous_polynomial_is_rejected() -> None:
    cert = _block_cert()
    x = sympy.symbols("x0_0 x1_0")
    cert["function"] = polynomial_function(x[0] * x[1] + x[0] ** 2 * x[1], n_inputs=4, dim=2)
    assert "not homogeneous" in _rejected(cert)


def test_the_random_homogeneity_test_catches_what_the_structural_proof_misses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend the structural proof accepted a non-homogeneous f: the checker's own random
    points f(t x) = t^D f(x) must still refuse it."""
    cert = _block_cert()
    cert["function"]["network"]["residual"] = True
    monkeypatch.setattr(verify_blocks, "homogeneous_degree", lambda spec: (9, "pretended"))
    assert "is not homogeneous of degree 9: at a random point" in _rejected(cert)


def test_a_declared_total_degree_other_than_the_networks_is_rejected() -> None:
    cert = _block_cert()
    cert["structure"]["total_degree"] = 27
    for blk in cert["blocks"]:
        blk["bidegree"][1] += 18
    assert "not of the declared total degree D = 27" in _rejected(cert)


def test_an_opaque_function_is_checked_but_neither_recomputed_nor_tested() -> None:
    def f(X: np.ndarray) -> np.ndarray:                   # <x1, x2>^3 in dimension 2
        return np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** 3

    r = separation_rank(f, n_inputs=2, dim=2, partition=([0], [1]), seed=0,
                        structure=DegreeStructure.homogeneous(6))
    v = verify(r.certificate())
    assert not v.ok and not v.recomputed and "homogeneity NOT checked" in v.verified
    assert v.status == "unchecked" and any("homogeneity" in m for m in v.not_checked)


def test_a_non_homogeneous_declared_structure_has_no_block_certificate() -> None:
    def f(X: np.ndarray) -> np.ndarray:                   # a b^2 + a^2: bidegrees (1, 2), (2, 0)
        return X[:, 0, 0] * X[:, 1, 0] ** 2 + X[:, 0, 0] ** 2

    r = separation_rank(f, n_inputs=2, dim=1, partition=([0], [1]), seed=0,
                        structure=DegreeStructure(((1, 2), (2, 0))))
    assert r.rank == 2
    with pytest.raises(ValueError, match="not homogeneous"):
        r.certificate()


def test_a_block_certificate_verifies_in_a_copied_checker(tmp_path: Path) -> None:
    shutil.copytree(VERIFY_DIR, tmp_path / "verify")
    (tmp_path / "c.json").write_text(json.dumps(_block_cert()))
    run = subprocess.run([sys.executable, "-S", "-E", "-m", "verify", "c.json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "VERIFIED sep_((0, 2),(1, 3))(f) >= 18" in run.stdout
