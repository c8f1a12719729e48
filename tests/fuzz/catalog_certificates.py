"""Valid calls of the certificate builder :mod:`seprank.certificates` (fuzz catalogue; the
independent checker ``seprank.certificates.verify`` has its own forgery corpus)."""

from __future__ import annotations

import os
import tempfile
from fractions import Fraction

import sympy

import seprank
import seprank.certificates as CE
from tests.fuzz.harness import Entry

M22 = [[1, 2], [3, 4]]
RANK = seprank.matrix_rank(M22, method="exact")
NET = seprank.LinearAttention.random(depth=1, width=2, seed=0, low=-2, high=2)
X00, X10 = sympy.symbols("x0_0 x1_0")
FOLDER = tempfile.mkdtemp(prefix="seprank-fuzz-")
PROGRAM = {"n_inputs": 2, "dim": 1, "output": 2, "nodes": [
    {"op": "input"}, {"op": "reshape", "arg": 0, "shape": [2]},
    {"op": "einsum", "spec": "n,n->", "args": [1, 1]}]}
SAVED = CE.save_certificate(CE.matrix_certificate(M22, RANK, seed=0),
                            os.path.join(FOLDER, "cert.json"))

ENTRIES: list[Entry] = [
    Entry("certificates.exact_json", CE.exact_json, dict(x=Fraction(1, 2)),
          kinds={"x": "object"}, accept={"x": (3,)}),                  # an int is exact
    Entry("certificates.json_array", CE.json_array, dict(a=[[1, 2], [3, 4]])),
    Entry("certificates.certificate_header", CE.certificate_header,
          dict(kind="matrix_rank", claim={"relation": ">=", "value": 2}),
          kinds={"kind": "object", "claim": "object"}),
    Entry("certificates.matrix_certificate", CE.matrix_certificate,
          dict(M=M22, result=RANK, seed=0), kinds={"result": "object"}),
    Entry("certificates.certify", lambda obj, matrix: CE.certify(obj, matrix=matrix),
          dict(obj=RANK, matrix=M22), kinds={"obj": "object"}),
    Entry("certificates.network_spec", CE.network_spec, dict(net=NET)),
    Entry("certificates.function_spec", CE.function_spec, dict(f=NET.entry(0, 1)),
          kinds={"f": "skip"}),
    Entry("certificates.circuit_function", CE.circuit_function,
          dict(program=PROGRAM, name="x0^2 + x1^2"), kinds={"program": "object", "name": "skip"}),
    Entry("certificates.polynomial_function", CE.polynomial_function,
          dict(expr=(X00 * X10) ** 2, n_inputs=2, dim=1), kinds={"expr": "object"},
          accept={"expr": (3,)}, huge=("n_inputs", "dim")),
    Entry("certificates.save_certificate", CE.save_certificate,
          dict(cert={"schema": CE.SCHEMA, "value": 2}, path=os.path.join(FOLDER, "c.json")),
          kinds={"cert": "object", "path": "object"}, accept={"path": ("abc",)}),  # a file
    # reading a file is the checker's (issue 22 rewrites it): only the valid call here
    Entry("certificates.load_certificate", CE.load_certificate, dict(path=str(SAVED)),
          kinds={"path": "skip"}),
    # issue 22's checker-side helpers: a budget, the subject a claim is bound to, packed matrices
    Entry("certificates.VerifyBudget", CE.VerifyBudget, dict(max_operations=10**6),
          huge=()),
    Entry("certificates.bind_subject", CE.bind_subject,
          dict(cert=CE.matrix_certificate(M22, RANK, seed=0)), kinds={"cert": "object"}),
    Entry("certificates.subject_of", CE.subject_of,
          dict(certificate=CE.matrix_certificate(M22, RANK, seed=0)),
          kinds={"certificate": "object"}),
    Entry("certificates.matrix_fields", CE.matrix_fields, dict(values=[[1, 2]]),
          kinds={"values": "object"}),
    # issue 35: printing a stranger's names (any value is shown, escaped)
    Entry("certificates.escape_for_terminal", CE.escape_for_terminal,
          dict(text="a\nb", width=80, ascii_only=False), kinds={"text": "skip"}, huge=()),
    Entry("certificates.same_json", CE.same_json, dict(a={"v": 1}, b={"v": True}),
          kinds={"a": "skip", "b": "skip"}),
    Entry("certificates.describe_subject", CE.describe_subject,
          dict(proves={"subject": {"matrix": {"shape": [1, 2], "sha256": None}}}),
          kinds={"proves": "skip"}),
]
