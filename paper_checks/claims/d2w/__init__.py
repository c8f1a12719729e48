"""Claims ``D2W-*``: paper 003, the depth-to-width interplay in self-attention
(:mod:`seprank.d2w`).  Shared measurements: :mod:`paper_checks.claims.d2w.common`."""

from paper_checks.registry import import_claim_modules

# The entry point of this folder (pyproject.toml, group "paper_checks.papers") imports this
# package; importing it registers every claim below it.
import_claim_modules(__name__)
