"""Claims ``NCE-*``: paper 004 §4.1, the NCE landscape, NGD and eNCE
(:mod:`identifiability.nce`).  Shared measurements: :mod:`paper_checks.claims.nce.common`."""

from paper_checks.registry import import_claim_modules

# The entry point of this folder (pyproject.toml, group "paper_checks.papers") imports this
# package; importing it registers every claim below it.
import_claim_modules(__name__)
