"""Claims ``ICB-*``: papers 000/001, the inductive bias of in-context learning
(:mod:`seprank.incontext`).  Shared measurements: :mod:`paper_checks.claims.incontext.common`."""

from paper_checks.registry import import_claim_modules

# The entry point of this folder (pyproject.toml, group "paper_checks.papers") imports this
# package; importing it registers every claim below it.
import_claim_modules(__name__)
