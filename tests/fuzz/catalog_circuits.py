"""Valid calls of :mod:`seprank.circuits` (fuzz catalogue): the builder, the circuit's
methods and the zoo's constructors."""

from __future__ import annotations

import numpy as np

import seprank
import seprank.circuits as CI
from tests.fuzz.harness import Entry

NET = seprank.LinearAttention.random(depth=1, width=2, seed=0, low=-2, high=2)
REP = seprank.InContextRepresentation.random(depth=1, width=2, n_tokens=1, seed=0)
F = CI.shallow_cac(n_inputs=2, dim=2, channels=2, seed=0)
B = CI.CircuitBuilder(n_inputs=2, dim=2)
X = B.input()

Y = B.einsum("nd->", X)


def _power_structure(exponent: int) -> object:
    """(x0 + x1)^exponent and its degree blocks: a huge exponent is derived by squaring on
    degree sets or refused up front (issue 35), never a quadratic hang."""
    b = CI.CircuitBuilder(n_inputs=2, dim=1)
    s = b.einsum("n->", b.reshape(b.input(), (2,)))
    f = b.build(b.power(s, exponent), name="(x0 + x1)^e")
    return f.total_degrees(), f.degree_structure((0,), (1,))


def _mlp_structure(exponent: int) -> object:
    f = CI.polynomial_mlp(n_inputs=2, dim=1, widths=2, exponent=exponent, seed=0)
    return f.degree_structure((0,), (1,))


def _incontext_degrees(depth: int) -> object:
    return CI.incontext(depth=depth, width=2, seed=0).bidegrees((0,), (1,))


def _evaluate(p: int) -> object:
    """F in GF(p): p = 2 included (ModularDomain(2) exists, so the circuit evaluates in it)."""
    return F(np.ones((2, 2, 2), dtype=int), domain=seprank.ModularDomain(p))


NAMES = ("bogus",)   # the harness's "unknown choice" is a valid name or source
ENTRIES: list[Entry] = [
    Entry("circuits.Circuit", CI.Circuit,
          dict(nodes=F.nodes, output=F.output, n_inputs=2, dim=2, name="f", source="s",
               parameters=4),
          kinds={"nodes": "skip", "output": "count0", "parameters": "count0"},
          accept={"name": NAMES, "source": NAMES}),
    Entry("circuits.Circuit.from_nodes", CI.Circuit.from_nodes,
          dict(nodes=F.nodes, output=F.output, n_inputs=2, dim=2, name="f", source="s"),
          kinds={"nodes": "skip", "output": "count0"},
          accept={"name": NAMES, "source": NAMES}),
    Entry("circuits.check_program", CI.check_program,
          dict(nodes=F.nodes, output=F.output, n_inputs=2, dim=2),
          kinds={"nodes": "skip", "output": "count0", "n_inputs": "skip", "dim": "skip"}),
    Entry("circuits.CircuitBuilder.build",
          lambda name, source: B.build(Y, name=name, source=source),
          dict(name="f", source="s"), accept={"name": NAMES, "source": NAMES}),
    Entry("circuits.Circuit.__call__(GF(p))", _evaluate, dict(p=2), kinds={"p": "count"},
          aliases={"p": ("ModularDomain",)}),
    Entry("circuits.power.degree_structure", _power_structure, dict(exponent=3),
          huge=("exponent",)),
    Entry("circuits.polynomial_mlp.degree_structure", _mlp_structure, dict(exponent=3),
          huge=("exponent",)),
    Entry("circuits.incontext.bidegrees", _incontext_degrees, dict(depth=1),
          huge=("depth",), aliases={"depth": ("L",)}),
    Entry("circuits.CircuitBuilder", CI.CircuitBuilder, dict(n_inputs=2, dim=2)),
    Entry("circuits.CircuitBuilder.const", B.const, dict(value=[[1, 2], [3, 4]])),
    Entry("circuits.CircuitBuilder.einsum", lambda spec: B.einsum(spec, X, X),
          dict(spec="nk,nl->kl")),
    Entry("circuits.CircuitBuilder.power", lambda exponent: B.power(X, exponent),
          dict(exponent=2)),
    Entry("circuits.CircuitBuilder.take", lambda axis, indices: B.take(X, axis, indices),
          dict(axis=0, indices=[1, 0])),
    Entry("circuits.CircuitBuilder.reshape", lambda shape: B.reshape(X, shape),
          dict(shape=(4,))),
    Entry("circuits.CircuitBuilder.prod", lambda axis: B.prod(X, axis), dict(axis=1)),
    Entry("circuits.Circuit.__call__", F, dict(X=np.ones((3, 2, 2), dtype=int))),
    Entry("circuits.Circuit.bidegrees", F.bidegrees, dict(A=[0], B=[1])),
    Entry("circuits.Circuit.degree_structure", F.degree_structure, dict(A=[0], B=[1])),
    Entry("circuits.Circuit.separation_rank", F.separation_rank,
          dict(partition=([0], [1]), seed=0), kinds={"partition": "skip"}),
    Entry("circuits.from_json", CI.from_json, dict(program=F.to_json()),
          kinds={"program": "object"}),
    Entry("circuits.from_linear_attention", CI.from_linear_attention,
          dict(net=NET, n_inputs=2, position=1, coordinate=0),
          kinds={"position": "count0", "coordinate": "count0"}),
    Entry("circuits.from_incontext", CI.from_incontext, dict(rep=REP)),
    Entry("circuits.linear_attention", CI.linear_attention,
          dict(depth=1, width=2, n_inputs=2, heads=1, residual=False, position=0,
               coordinate=0, low=-5, high=5, seed=0),
          kinds={"low": "int", "high": "int", "position": "count0", "coordinate": "count0"},
          huge=("width", "depth")),
    Entry("circuits.incontext", CI.incontext,
          dict(depth=1, width=2, n_tokens=1, heads=1, position=0, coordinate=0, seed=0),
          kinds={"position": "count0", "coordinate": "count0"}),
    Entry("circuits.shallow_cac", CI.shallow_cac,
          dict(n_inputs=2, dim=2, channels=2, shared=True, low=-5, high=5, seed=0),
          kinds={"low": "int", "high": "int"}, huge=("n_inputs", "dim", "channels")),
    Entry("circuits.deep_cac", CI.deep_cac,
          dict(n_inputs=4, dim=2, channels=2, pooling="contiguous", low=-5, high=5, seed=0),
          kinds={"low": "int", "high": "int"}, huge=("dim", "channels")),
    Entry("circuits.rac", CI.rac,
          dict(n_inputs=2, dim=2, hidden=2, depth=1, low=-5, high=5, seed=0),
          kinds={"low": "int", "high": "int"}, huge=("n_inputs", "dim", "hidden", "depth")),
    Entry("circuits.linear_ssm", CI.linear_ssm,
          dict(n_inputs=2, dim=2, state=2, kind="selective", low=-5, high=5, seed=0),
          kinds={"low": "int", "high": "int"}, huge=("n_inputs", "dim", "state")),
    Entry("circuits.polynomial_mlp", CI.polynomial_mlp,
          dict(n_inputs=2, dim=2, widths=(2,), exponent=2, low=-5, high=5, seed=0),
          kinds={"low": "int", "high": "int", "widths": "skip"},
          huge=("n_inputs", "dim", "exponent")),
]
