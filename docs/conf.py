"""Sphinx configuration of the seprank + identifiability site.

Build it with one command from the repository root (after ``pip install -e ".[test]"``)::

    python -m sphinx -W --keep-going -b html docs build/docs/html

The ``seprank_docs`` extension (``docs/_ext``) writes the generated pages into
``docs/generated/`` (ignored by git) before Sphinx reads the sources:

* one page per paper subpackage -- every module of ``seprank`` / ``identifiability`` that
  defines a :class:`seprank.core.index.PaperIndex` named ``INDEX`` -- with its index, its tour
  (``docs/tours/<module>.md`` when present), its verdicts and its API;
* the API reference, one page per public module;
* the truth ledger, one page per paper (the thesis, 004: one per chapter), each holding the
  ``paper-ledger`` directive of the public extension :mod:`paper_checks.sphinx`, from
  ``paper-checks --json``: the file given by ``-D seprank_ledger_json=PATH``, or a fresh
  ``paper-checks`` run (quick profile, or ``-D seprank_ledger_profile=full``; its progress is
  printed);
* the gallery: the notebooks with their outputs -- copies already executed by the test suite
  (``-D seprank_executed_notebooks=DIR``), or executed by this build (cached by source hash).
"""

from __future__ import annotations

import sys
from pathlib import Path

from sphinx.application import Sphinx

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "seprank + identifiability"
author = "the seprank + identifiability authors"
copyright = "the seprank + identifiability authors"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    # MathJax 3 shipped with the site (into _static/mathjax): math renders offline, no CDN
    "sphinx-mathjax-offline",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",
    # the ledger pages: the public extension any project can use (.. paper-ledger:: KEY)
    "paper_checks.sphinx",
    "seprank_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "**/.ipynb_checkpoints", "generated/ledger/_run",
                    "generated/_executed"]
templates_path: list[str] = []
# numpydoc turns a References section into citations; one cited nowhere in the text is fine.
suppress_warnings = ["ref.citation"]

# -- math: MathJax from _static (the sphinx-mathjax-offline package of the docs extra) -------
mathjax_path = "mathjax/tex-chtml.js"

# -- autodoc / numpydoc ---------------------------------------------------------------------
# Members are listed per page (docs/_ext/seprank_docs/discover.py: each name once, where it is
# defined); undocumented module-level functions are listed too, undocumented class members not.
autodoc_default_options = {"show-inheritance": True, "undoc-members": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
# Short signatures: the project's aliases by name, not expanded (numpy's ArrayLike is a
# 300-character union), and type names without their module.
autodoc_type_aliases = {
    "npt.ArrayLike": "ArrayLike", "ArrayLike": "ArrayLike", "SeedLike": "SeedLike",
    "FloatArray": "FloatArray", "IntArray": "IntArray", "Array": "Array",
}
python_use_unqualified_type_names = True
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False

# -- MyST / notebooks -----------------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
# Notebooks arrive executed (seprank_docs executes them, or takes the test suite's runs).
nb_execution_mode = "off"
nb_merge_streams = True
# No widget manager from a CDN: the site is read offline.  (The gallery drops the notebooks'
# progress-bar widgets: a bar is not a result -- seprank_docs.pages.write_gallery.)
nb_ipywidgets_js: dict[str, dict[str, str]] = {}

# -- HTML -----------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = "seprank + identifiability"
html_static_path = ["_static"]
html_css_files = ["site.css"]
html_show_sourcelink = False
# The ledger pages are wide tables and cards: no section navigation beside them (the page's
# own table of contents, on the right, lists every claim).
# The gallery's notebooks: no section navigation either (and no page contents: site.css), so
# that code and aligned output keep their lines at 1280 px.
html_sidebars = {"generated/ledger/*": [], "generated/gallery/*": []}
html_theme_options = {
    "navigation_depth": 3,
    "show_toc_level": 2,
    "navbar_align": "left",
    "footer_start": ["copyright"],
    "footer_end": [],
    "secondary_sidebar_items": ["page-toc"],
}


def setup(app: Sphinx) -> None:
    """sphinx-mathjax-offline only copies MathJax into the output once the build has finished;
    it does not declare that it is safe for a parallel build (``-j``), so Sphinx would assume it
    is not and read serially (with a warning, an error under ``-W``).  Declare it."""
    extension = app.extensions["sphinx-mathjax-offline"]
    extension.parallel_read_safe = extension.parallel_write_safe = True
