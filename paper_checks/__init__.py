"""paper_checks: one registered, executable check per checkable claim of a paper.

Run them with the ``paper-checks`` command or from Python::

    from paper_checks import select, run_claims
    outcomes = run_claims(select(paper="003"))

Bring your own paper: :func:`register_paper` it (or declare an entry point in the group
``paper_checks.papers``), register its statements with :func:`claim`, and run them with
``paper-checks --paper KEY`` or as pytest items (:mod:`paper_checks.pytest_plugin`);
``paper-checks init NAME`` scaffolds such a package (docs: "Checking your own paper").
"""

import lazy_loader

# The names of the modules below are loaded on first use (the list is __init__.pyi, each module's
# __all__): importing paper_checks -- or its pytest plugin, which every pytest run in an
# environment holding this toolkit loads -- costs nothing until a name is used.
__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
