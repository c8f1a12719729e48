"""seprank: what linearized self-attention can represent -- certified separation ranks and the
bounds of the papers around them.

The floors, bottom up (each imports only the ones below it):

==========================  ===================================================================
:mod:`seprank.core`         paper-free certified arithmetic: domains (float / GF(p) / exact),
                            ranks that say what they certify, grid tensors, ε-ranks, seeds and
                            primes, the result base class
:mod:`seprank.separation`   certified separation ranks of any batch function (grid growth,
                            symbolic coefficient matrices)
:mod:`seprank.attention`    the linearized self-attention network both papers analyse
:mod:`seprank.d2w`          003, Levine et al. 2020, "The Depth-to-Width Interplay in
                            Self-Attention" (claims ``D2W-*``)
:mod:`seprank.incontext`    000/001, Levine et al. 2022, "The Inductive Bias of In-Context
                            Learning" (claims ``ICB-*``)
:mod:`seprank.automata`     004 Chapter 3, B. Liu's thesis: Transformers and automata --
                            semigroups, shortcut constructions, flip-flops, Dyck (``AUT-*``)
:mod:`seprank.circuits`     one circuit language for polynomial architectures (attention,
                            convolutional and recurrent arithmetic circuits, state-space
                            models, polynomial MLPs): certified ranks and certificates the
                            checker recomputes
==========================  ===================================================================

Each paper subpackage's ``__init__`` is its index: the paper, its notation and a statement ->
function table.  The names below are re-exported for convenience, and loaded on first use
(``lazy_loader``; the list is ``seprank/__init__.pyi``): ``import seprank.core`` or ``import
identifiability`` loads neither the automata (sympy's combinatorics), nor numba, nor dask.
The dependencies come in groups (:mod:`seprank.extras`); ``python -m seprank.extras core``
prints the core group's requirements, and runs before anything else is installed.
"""

from typing import Any

try:
    import lazy_loader
except ModuleNotFoundError:  # installed with --no-deps: only ``python -m seprank.extras`` runs

    def __getattr__(name: str) -> Any:
        from seprank.extras import pip_line

        raise ModuleNotFoundError(f"seprank.{name} needs the core dependencies, which are not "
                                  f"installed: {pip_line('core')}")
else:
    __getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
