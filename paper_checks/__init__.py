"""paper_checks: one registered, executable check per checkable claim of a paper.

Run them with the ``paper-checks`` command or from Python::

    from paper_checks import select, run_claims
    outcomes = run_claims(select(paper="003"))

Bring your own paper: :func:`register_paper` it (or declare an entry point in the group
``paper_checks.papers``), register its statements with :func:`claim`, and run them with
``paper-checks --paper KEY`` or as pytest items (:mod:`paper_checks.pytest_plugin`);
``paper-checks init NAME`` scaffolds such a package (docs: "Checking your own paper").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paper_checks.defence import *
from paper_checks.evidence import *
from paper_checks.papers import *
from paper_checks.parameters import *
from paper_checks.perturbation import *
from paper_checks.registry import *
from paper_checks.runner import *
from seprank.core.index import reexport

# Type checkers follow the star imports; __all__ (every module's, each name once) is built
# at run time.
if not TYPE_CHECKING:
    __all__ = reexport(__name__, ["defence", "evidence", "papers", "parameters",
                                  "perturbation", "registry", "runner"])
