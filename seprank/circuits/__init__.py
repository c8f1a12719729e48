r"""One circuit description for every polynomial architecture.

An architecture is a small typed program over integer weights
(:mod:`seprank.circuits.program`: inputs, constants, einsums, powers, sums, product pooling,
entries, reshapes; recurrences unrolled by the constructor).  From the program alone the
toolkit derives its evaluators in every number domain (:mod:`.evaluate`), the degree blocks of
every partition (:mod:`.degrees`) and a certificate the independent checker recomputes
(function kind ``"circuit"``).  :mod:`.zoo` builds 003's linearized self-attention, 000/001's
in-context representation, convolutional and recurrent arithmetic circuits, linear
state-space models and a polynomial MLP.

=====================================  =============================================
:class:`CircuitBuilder`                emit nodes; ``build(output)``
:class:`Circuit`                       the batch function: ``f(X, domain=)``,
                                       ``degree_structure``, ``certificate_function``
:func:`linear_attention`               003, eq. 3 / eq. 12 (entries of LinearAttention)
:func:`incontext`                      000/001, eqs. 4, 8 (Z_in of the representation)
:func:`shallow_cac`, :func:`deep_cac`  Cohen, Sharir & Shashua 2016
:func:`rac`                            Levine, Sharir & Shashua 2018
:func:`linear_ssm`                     linear state-space / recurrent models
:func:`polynomial_mlp`                 an MLP with activation z -> z^k
=====================================  =============================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seprank.circuits.builder import *
from seprank.circuits.circuit import *
from seprank.circuits.degrees import *
from seprank.circuits.evaluate import *
from seprank.circuits.program import *
from seprank.circuits.zoo import *
from seprank.core.index import reexport

if not TYPE_CHECKING:
    __all__ = reexport(__name__, ["builder", "circuit", "degrees", "evaluate", "program",
                                  "zoo"])
