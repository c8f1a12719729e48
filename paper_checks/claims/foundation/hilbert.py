"""Foundation claims: the float-rank pitfall on Hilbert matrices.

The Hilbert matrix :math:`H_n = (1/(i+j-1))_{i,j=1}^n` is nonsingular: it is a Cauchy matrix with
:math:`\\det H_n = c_n^4 / c_{2n}`, :math:`c_n = \\prod_{i=1}^{n-1} i!`.  Its condition number grows
like :math:`e^{3.5 n}`, so a float SVD rank with numpy's default tolerance drops below n from
n = 12 on.  These checks certify rank n exactly, verify the determinant against the closed form,
and record what the SVD reports, with its tolerance and singular-value gap.

They verify the toolkit's certified ranks against a closed form, not a statement of a paper:
consistency checks, reported apart from the verdicts on the papers.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import numpy as np

from paper_checks.compare import exact_result
from paper_checks.evidence import Proves
from paper_checks.registry import ClaimResult, register_check
from seprank import matrix_rank
from seprank.certificates import (
    bind_subject,
    certificate_header,
    matrix_certificate,
    matrix_fields,
)

HILBERT_SIZES = (8, 12, 14, 16)


def hilbert(n: int) -> list[list[Fraction]]:
    """The n x n Hilbert matrix with exact Fraction entries."""
    return [[Fraction(1, i + j + 1) for j in range(n)] for i in range(n)]


def hilbert_determinant(n: int) -> Fraction:
    """Closed form det H_n = c_n^4 / c_{2n} with c_n = prod_{i<n} i! (Cauchy determinant)."""

    def c(m: int) -> int:
        return math.prod(math.factorial(i) for i in range(1, m))

    return Fraction(c(n) ** 4, c(2 * n))


def hilbert_subject(n: int) -> dict[str, object]:
    """What a certificate about H_n is about (its shape and digest), as the checker reads it."""
    cert = certificate_header("matrix_rank", {"relation": ">=", "value": 0})
    cert.update({"shape": [n, n], **matrix_fields(hilbert(n))})
    return dict(bind_subject(cert)["claim"]["subject"])


def fnd_hilbert(n: int) -> ClaimResult:
    H = hilbert(n)
    exact = matrix_rank(H, method="exact")
    modular = matrix_rank(H, method="modular", seed=n)
    entries = [flint.fmpq(x.numerator, x.denominator) for row in H for x in row]
    det = flint.fmpq_mat(n, n, entries).det()
    det_closed = hilbert_determinant(n)
    det_ok = Fraction(int(det.p), int(det.q)) == det_closed
    svd = matrix_rank(np.array(H, dtype=float), method="svd")
    sv = svd.details["singular_values"]
    holds = exact.rank == n and det_ok and modular.rank == n
    return exact_result(
        measured={"exact_rank": exact.rank, "svd_rank": svd.rank}, reference_value=n,
        what="integer rank, exact determinant", holds=holds,
        certificates={f"H_{n} exact rank": matrix_certificate(H, exact, seed=n),
                      f"H_{n} modular rank": matrix_certificate(H, modular)},
        details={
            "exact_rank": exact.summary(),
            "modular_rank": modular.summary(),
            "determinant_matches_closed_form": det_ok,
            "determinant": f"1/{int(det.q)}" if det.p == 1 else str(det),
            "svd_rank": svd.summary(),
            "svd_tolerance": svd.details["tolerance"],
            "condition_number": float(sv[0] / sv[-1]),
            "float_pitfall": svd.rank < n,
        })


for _n in HILBERT_SIZES:
    register_check(
        fnd_hilbert, id=f"FND-Hilbert-{_n}", args={"n": _n},
        paper="foundation",
        reference="anchors §4.1 (numpy matrix_rank tolerance); Cauchy determinant",
        statement=f"The Hilbert matrix H_{_n} is nonsingular (rank {_n}), although float SVD "
        "ranks may report less",
        category="consistency", certifies=True,
        proves=Proves("matrix_rank", ">=", _n, subject=hilbert_subject(_n), name=f"H_{_n} *"),
        basis="certified",
    )
