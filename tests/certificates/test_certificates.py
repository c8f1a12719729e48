"""Certificates: every kind verifies, corrupted ones are rejected (with the first differing
entry), the checker imports only the standard library, and its own evaluators agree with the
engine's network on random integer networks."""

from __future__ import annotations

import ast
import copy
import json
import sys
from fractions import Fraction
from pathlib import Path

import flint
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from identifiability.masked import kruskal_certificate, kruskal_rank
from seprank import (
    InContextRepresentation,
    LinearAttention,
    ModularDomain,
    incontext_seq_sep,
    lemma6_witness,
    matrix_rank,
    rank_mod_p,
    separation_rank,
)
from seprank.certificates import (
    SCHEMA_VERSION,
    bind_subject,
    certify,
    evaluate_function,
    matrix_certificate,
    polynomial_function,
    verify,
)
from seprank.core.minors import kernel_basis, nonzero_minor
from seprank.core.random import random_prime

VERIFY_DIR = Path(__file__).resolve().parents[2] / "seprank" / "certificates" / "verify"
P = 16777259  # a prime below 2**25


def test_the_checker_imports_only_the_standard_library() -> None:
    modules = sorted(VERIFY_DIR.glob("*.py"))
    assert {m.name for m in modules} >= {"__init__.py", "checker.py", "evaluators.py",
                                          "exact.py", "kinds.py"}
    imported: set[str] = set()
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                if node.level:          # the checker's own modules, relatively
                    assert (VERIFY_DIR / f"{node.module}.py").is_file(), (path, node.module)
                    continue
                imported.add((node.module or "").split(".")[0])
    assert imported, "found no imports at all"
    assert imported <= set(sys.stdlib_module_names), imported - set(sys.stdlib_module_names)
    assert not imported & {"seprank", "numpy", "flint", "sympy", "identifiability"}


def test_the_checker_runs_as_a_copied_folder(tmp_path: Path) -> None:
    import shutil
    import subprocess

    shutil.copytree(VERIFY_DIR, tmp_path / "verify")
    cert = matrix_certificate(HILBERT, matrix_rank(HILBERT, method="exact"), seed=0)
    (tmp_path / "c.json").write_text(json.dumps(cert))
    # -S: no site-packages at all, so neither seprank nor numpy nor flint could be imported
    run = subprocess.run([sys.executable, "-S", "-E", "-m", "verify", "c.json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "VERIFIED rank(M) = 6" in run.stdout


def _det_mod(rows: list[list[int]], p: int) -> int:
    return int(flint.nmod_mat(rows, p).det())


# --- matrices ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_minor_found_is_nonzero_and_of_the_rank(seed: int) -> None:
    rng = np.random.default_rng(seed)
    M = rng.integers(-5, 6, (9, 4)) @ rng.integers(-5, 6, (4, 11))   # rank 4 (generic)
    rows, cols = nonzero_minor(M, P)
    assert len(rows) == len(cols) == matrix_rank(M, method="exact").rank
    assert _det_mod([[int(M[i, j]) for j in cols] for i in rows], P) != 0


def test_kernel_basis_spans_the_kernel() -> None:
    M = np.array([[1, 2, 3, 4], [2, 4, 6, 8], [1, 0, 1, 0]])
    K = kernel_basis(M)
    assert len(K) == 4 - 2
    assert all(np.all(M @ np.array(v) == 0) for v in K)
    assert matrix_rank(K, method="exact").rank == len(K)


HILBERT = [[Fraction(1, i + j + 1) for j in range(6)] for i in range(6)]
DEFICIENT = [[1, 2, 3], [2, 4, 6], [Fraction(1, 2), 0, 1], [3, 6, 9]]


@pytest.mark.parametrize("M,method,relation", [
    (HILBERT, "exact", "="), (HILBERT, "modular", "="), (DEFICIENT, "exact", "="),
    (DEFICIENT, "modular", ">="), (np.ones((3, 5), dtype=int), "exact", "=")])
def test_matrix_certificates_verify(M: object, method: str, relation: str) -> None:
    result = matrix_rank(M, method=method, seed=3)
    cert = certify(result, matrix=M, seed=4)
    assert cert["claim"]["relation"] == relation and cert["claim"]["value"] == result.rank
    v = verify(cert)
    assert v.ok, v.reason
    assert v.seconds >= 0 and "rank >=" in v.verified


def test_rank_mod_p_certificate_verifies() -> None:
    r = rank_mod_p([[1, 2], [3, 4]], 5)
    assert verify(matrix_certificate([[1, 2], [3, 4]], r)).ok


def test_matrix_certificate_corruptions_are_rejected() -> None:
    cert = matrix_certificate(DEFICIENT, matrix_rank(DEFICIENT, method="exact"), seed=0)
    assert verify(cert).ok
    bad = copy.deepcopy(cert)
    bad["lower"]["rows"][0] = 1 if bad["lower"]["rows"][0] != 1 else 0   # row 1 = 2 x row 0
    assert not verify(bad).ok
    bad = copy.deepcopy(cert)
    bad["upper"]["vectors"][0][0] += 1
    v = verify(bad)
    assert not v.ok and "kernel" in v.reason
    bad = copy.deepcopy(cert)
    bad["upper"]["vectors"] = bad["upper"]["vectors"][:0]
    assert "rank-nullity" in verify(bad).reason
    bad = copy.deepcopy(cert)
    bad["claim"]["value"] = 3
    assert not verify(bad).ok
    bad = copy.deepcopy(cert)
    bad["lower"]["prime"] = 15
    assert "not a prime" in verify(bad).reason
    bad = copy.deepcopy(cert)
    bad["version"] = 1
    assert "version" in verify(bad).reason
    assert "regenerate" in verify(bad).reason and "seprank >= 0.3" in verify(bad).reason


# --- separation ranks ----------------------------------------------------------------------


def inner_squared(X: np.ndarray) -> np.ndarray:
    return np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** 2


@pytest.mark.parametrize("method,structure", [("modular", "dense"), ("exact", "dense"),
                                              ("modular", "degree"), ("modular", "auto")])
@pytest.mark.parametrize("keep", [True, False])
def test_grid_certificates_verify_with_and_without_a_kept_witness(method: str, structure: str,
                                                                 keep: bool) -> None:
    net = LinearAttention.random(depth=2, width=2, seed=5)
    r = net.separation_rank(position=0, coordinate=1,
                            partition=([0, 2], [1, 3]), n_inputs=4, method=method,
                            seed=6, keep_witness=keep, structure=structure)
    blocks = structure != "dense"      # 'auto' splits a network entry by degree, kept or not
    evidence = [b.evidence for b in r.blocks] if blocks else [r.evidence]
    assert evidence and all((ev.kept_minor is not None) == keep for ev in evidence)
    cert = r.certificate()
    assert cert["kind"] == ("grid_rank_blocks" if blocks else "grid_rank")
    assert cert["arithmetic"] == ("GF(p)" if method == "modular" else "Q")
    v = verify(cert)
    assert v.ok and v.recomputed, v.reason
    assert v.claim == f"sep_((0, 2),(1, 3))(f) >= {r.rank}"


def test_an_opaque_function_is_checked_but_not_recomputed() -> None:
    """Issue 22: what the checker does not recompute it does not call verified -- the minor
    of the engine's values is checked, the status says 'unchecked' and ok is False."""
    r = separation_rank(inner_squared, n_inputs=2, dim=3, partition=([0], [1]), seed=0)
    v = verify(r.certificate())
    assert not v.ok and not v.recomputed and "NOT recomputed" in v.verified
    assert v.status == "unchecked" and not bool(v) and "opaque" in v.not_checked[0]
    terms = polynomial_function(sum(sympy.Symbol(f"x0_{k}") * sympy.Symbol(f"x1_{k}")
                                    for k in range(3)) ** 2, n_inputs=2, dim=3)
    v = verify(r.certificate(function=terms))
    assert v.ok and v.recomputed and r.rank == 6


def _seq_cert() -> dict:
    rep = InContextRepresentation.random(depth=2, width=2, n_tokens=2, seed=3)
    return incontext_seq_sep(rep, seed=0, keep_witness=True, structure="dense").certificate()


def test_incontext_and_witness_certificates_verify() -> None:
    v = verify(_seq_cert())
    assert v.ok and v.recomputed and v.claim.endswith(">= 15")
    w = lemma6_witness(7, 3, seed=0)
    v = verify(w.certificate())
    assert v.ok and v.claim.endswith(f">= {w.rank}") and w.rank == 10


def test_grid_rank_certificate_corruptions_are_rejected_with_the_first_differing_entry() -> None:
    cert = _seq_cert()
    bad = copy.deepcopy(cert)
    bad["entries"][2][3] = (bad["entries"][2][3] + 1) % cert["prime"]
    v = verify(bad)
    assert not v.ok and v.reason.startswith("entry (2, 3) of the minor")
    bad = copy.deepcopy(cert)                      # an index changed: the entries no longer match
    bad["rows"][0] = [len(cert["templates"]) - 1 - bad["rows"][0][0]]
    assert not verify(bad).ok
    bad = copy.deepcopy(cert)                      # a wrong prime: GF(p') values differ
    bad["prime"] = int(sympy.nextprime(cert["prime"]))
    v = verify(bad)
    assert not v.ok and "entry (0, 0)" in v.reason
    bad = copy.deepcopy(cert)
    bad["function"]["network"]["query"][0][0][0][0] += 1
    assert not verify(bad).ok
    bad = copy.deepcopy(cert)                      # two equal rows: the minor vanishes
    bad["rows"][1], bad["entries"][1] = bad["rows"][0], bad["entries"][0]
    assert "vanishes" in verify(bad).reason


def test_the_int64_overflow_example_is_rejected() -> None:
    """Issue 11: f = (x0 * y0)^5 through int64 wraps around; its 'grid rank' over GF(p) is
    large although f has separation rank 1.  The engine refuses f; a certificate built by hand
    from the wrapped values is rejected because the checker recomputes the entries exactly."""

    def f(X: np.ndarray) -> np.ndarray:
        return (X.astype(np.int64)[:, 0, 0] * X.astype(np.int64)[:, 1, 0]) ** 5

    with pytest.raises(TypeError, match="wrapped around"):
        separation_rank(f, n_inputs=2, dim=1, partition=([0], [1]), seed=0)
    rng = np.random.default_rng(0)
    p = random_prime(rng, 25)
    T = rng.integers(0, p, (16, 1))
    with np.errstate(over="ignore"):
        wrapped = np.array([[int(f(np.array([[a, b]]).reshape(1, 2, 1))[0]) % p
                             for b in T] for a in T])
    rows, cols = nonzero_minor(wrapped, p)
    assert len(rows) > 1                           # the false "certified lower bound"
    expr = (sympy.Symbol("x0_0") * sympy.Symbol("x1_0")) ** 5
    cert = {"schema": "seprank.certificate", "version": SCHEMA_VERSION, "kind": "grid_rank",
            "claim": {"relation": ">=", "value": len(rows)},
            "function": polynomial_function(expr, n_inputs=2, dim=1), "n_inputs": 2,
            "dim": 1, "partition": [[0], [1]], "arithmetic": "GF(p)", "prime": int(p),
            "templates": T.tolist(), "rows": [[int(r)] for r in rows],
            "cols": [[int(c)] for c in cols],
            "entries": [[int(wrapped[r, c]) for c in cols] for r in rows]}
    v = verify(bind_subject(cert))
    assert not v.ok and "the certificate says" in v.reason and "recomputed" in v.reason
    honest = separation_rank(lambda X: (X[:, 0, 0] * X[:, 1, 0]) ** 5, n_inputs=2, dim=1,
                             partition=([0], [1]), seed=0)
    assert honest.rank == 1
    assert verify(honest.certificate(function=polynomial_function(
        expr, n_inputs=2, dim=1))).ok


# --- Kruskal ranks -------------------------------------------------------------------------


@pytest.mark.parametrize("A,k", [
    ([[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 1]], 2),
    ([[1, 1, 0], [0, 0, 1]], 1),
    ([[1, 2, 3, 5], [2, 7, 1, 1], [4, 1, 8, 3]], 3),
    ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], 3),
    ([[0, 1], [0, 2]], 0),
    ([[Fraction(1, 2), 1, 0], [1, Fraction(1, 3), 1]], 2)])
def test_kruskal_certificates_verify(A: list, k: int) -> None:
    r = kruskal_rank(A)
    assert r.rank == k
    cert = certify(r, matrix=A, seed=1)
    v = verify(cert)
    assert v.ok and v.claim == f"k-rank(M) = {k}", v.reason


def test_kruskal_certificate_corruptions_are_rejected() -> None:
    A = [[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 1]]
    cert = kruskal_certificate(A, kruskal_rank(A), seed=0)
    bad = copy.deepcopy(cert)
    bad["claim"]["value"] = 3          # {e1, e2, e1+e2} are dependent: no projection helps
    assert not verify(bad).ok
    bad = copy.deepcopy(cert)
    bad["upper"]["kernel"][0] += 1
    assert "kernel vector" in verify(bad).reason
    bad = copy.deepcopy(cert)
    bad["matrix"][2][2] = 1            # column 2 = (1, 1, 1): columns 0, 1, 2 independent
    assert not verify(bad).ok


# --- the independent evaluators ------------------------------------------------------------


@st.composite
def networks(draw: st.DrawFn) -> tuple[LinearAttention, np.ndarray, int, int]:
    depth = draw(st.integers(1, 2))
    heads = draw(st.integers(1, 2))
    width = heads * draw(st.integers(1, 2))
    n = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    net = LinearAttention.random(depth=depth, width=width, heads=heads, low=-4, high=4,
                                 residual=draw(st.booleans()), seed=seed)
    X = np.random.default_rng(seed + 1).integers(-6, 7, (n, width))
    return net, X, draw(st.integers(0, n - 1)), draw(st.integers(0, width - 1))


@settings(max_examples=60, deadline=None)
@given(networks())
def test_the_checkers_evaluator_agrees_with_linear_attention(case: tuple) -> None:
    net, X, i, p = case
    spec = net.entry(i, p).certificate_function()
    assert evaluate_function(spec, X.tolist()) == net(X)[i, p]
    F = ModularDomain(P)
    assert evaluate_function(spec, X.tolist(), prime=P) == int(net(X, domain=F)[i, p])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 2), st.integers(1, 3))
def test_the_checkers_incontext_evaluator_agrees(seed: int, depth: int, width: int) -> None:
    rep = InContextRepresentation.random(depth=depth, width=width, n_tokens=2, seed=seed,
                                         position=seed % 4, coordinate=seed % width)
    a, b = np.random.default_rng(seed).integers(-5, 6, (2, width))
    spec = rep.grid_function.certificate_function()
    assert evaluate_function(spec, [a.tolist(), b.tolist()]) == rep(a, b)
