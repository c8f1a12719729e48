r"""The independent checker of rank certificates: Python integers and fractions, nothing else.

This package imports **only the standard library** -- its modules import each other
relatively and nothing else (tested: no seprank engine, numpy or flint) -- so a reader can
check a certificate without trusting the engine that produced it: copy this folder and run
``python -m verify certificate.json`` (or ``python -m seprank.certificates.verify``).  It

1. reads a certificate **strictly, before any work** (:mod:`.schema`): a mapping, JSON text
   or a file (a regular file within the size budget, measured before it is read); duplicate
   keys, numbers with exponents, over-long integers, deep nesting and unknown fields are
   refused; schema ``seprank.certificate`` version 2 exactly (an older one is refused with the
   advice to regenerate it with seprank >= 0.3); every shape consistent (a network's width is
   the grid's ``dim``, minors of the claimed size, indices in range);
2. **estimates the work** (:mod:`.limits`: evaluations x arithmetic size, C(n, k) column
   sets, interpolation size, eliminations) and refuses a certificate above the budget
   (:class:`VerifyBudget`, ``verify(cert, max_operations=...)``) with the estimate;
3. **recomputes** every matrix entry the certificate uses from the function's integer
   parameters with its own evaluators, written for this purpose: the linearized attention
   network by the explicit sums of 003 eq. 3 (scores first, head by head -- not the Gram form
   the engine uses), the in-context representation of 000/001 eqs. 4 and 8 on top of it, and
   polynomials given by their monomials; a recomputed entry that differs from the engine's
   rejects the certificate with the first differing entry;
4. checks the proof: an r x r minor that is non-zero modulo the prime (Gaussian elimination
   over GF(p) on Python ints) for the lower side; for the upper side a kernel basis
   (``M v = 0`` exactly with :class:`fractions.Fraction`, and the basis independent), or a
   dependent column set with its kernel vector (Kruskal rank);
5. checks that the claim names what the data is about (``claim.subject``: the function's
   type, digest and parameters, the partition, the matrix's shape and digest);
6. bounds its own resources: the estimate counts the interpreter's work per circuit node,
   index plans, Kruskal column sets and the growth of denominators in sums over Q, and a
   separate estimate of memory (:attr:`VerifyBudget.max_memory`: index plans, node values,
   interpolation weights) is checked with it before any work; the deadline
   (:attr:`VerifyBudget.seconds`) is polled inside every loop the estimates cannot bound,
   and no message ever prints an attacker-sized number (a huge integer is shown by its size);
7. says what it verified, what it could not, and how long it took (:class:`Verification`):
   ``status`` is ``'verified'`` (``ok``), ``'rejected'``, ``'unchecked'`` or ``'refused'``.
   ``verify`` never raises.

Certificate kinds
-----------------
``matrix_rank``
    ``rank(M) >= r`` (the matrix -- ``matrix``, or ``matrix_packed`` for a large one
    (:mod:`.packed`) -- and a non-zero minor mod p) or ``rank(M) = r`` (adds a kernel basis of
    dimension ``n - r``, or nothing when r = min(m, n)).
``grid_rank``
    ``sep_(A,B)(f) >= r``: the r x r minor of a grid matricization of f at the given templates
    is non-zero mod p, so the grid matrix has rank >= r, and (003, Claim 1) every grid
    matricization has rank at most the separation rank.  ``arithmetic`` says whether f was
    evaluated over GF(p) (templates are residues) or exactly over Q.
``grid_rank_blocks``
    ``sep_(A,B)(f) >= r_1 + ... + r_K`` for a rank computed block by block: f is homogeneous
    of total degree D (proven from its parameters -- a network without residual connections,
    003 eq. 12 -- and tested at random points of the checker's choosing), so its coefficient
    matrix is block-diagonal by A-degree and sep is the sum over the blocks; each block k of
    bidegree (j_k, D - j_k) (distinct j_k) has an r_k x r_k minor of the grid of f's
    A-degree-j_k part, whose values the checker recomputes as the coefficient of t^j_k of
    f(t x_A, x_B), interpolated at its own nodes t = 0..D mod p
    (:mod:`seprank.certificates.verify.blocks`).
``kruskal_rank``
    ``k_A = k``: every k columns independent (all k x k minors of P A mod p are non-zero for
    the given projection P, a listed exception by its own minor of A) and, unless k = n, k + 1
    columns with a kernel vector.

What is not recomputed is not verified: a certificate of an *opaque* function (arbitrary
Python code), or a matrix certificate without its matrix, has only the minor of the values it
states checked -- its status is ``'unchecked'`` (``ok`` False) and ``not_checked`` says what
was missing.  ``python -m verify`` exits non-zero for it unless ``--allow-unchecked``.
"""

from __future__ import annotations

from .checker import (
    SCHEMA,
    SCHEMA_VERSION,
    STATUSES,
    Verification,
    main,
    same_json,
    subject_of,
    verify,
)
from .evaluators import evaluate_function
from .limits import DEFAULT_BUDGET, VerifyBudget
from .text import describe_subject, escape_for_terminal

__all__ = ["DEFAULT_BUDGET", "SCHEMA", "SCHEMA_VERSION", "STATUSES", "Verification",
           "VerifyBudget", "describe_subject", "escape_for_terminal", "evaluate_function",
           "main", "same_json", "subject_of", "verify"]
