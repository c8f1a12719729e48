"""Claims ``ICL-*``: paper 002, how nonlinear transformers learn in context
(:mod:`identifiability.icl`).  The shared trained model: :mod:`paper_checks.claims.icl.common`."""

from paper_checks.registry import import_claim_modules

# The entry point of this folder (pyproject.toml, group "paper_checks.papers") imports this
# package; importing it registers every claim below it.
import_claim_modules(__name__)
