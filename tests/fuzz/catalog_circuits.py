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

ENTRIES: list[Entry] = [
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
