"""Claims ``AUT-*``: paper 004 chapter 3, transformers and automata
(:mod:`seprank.automata`)."""

from paper_checks.registry import import_claim_modules

# The entry point of this folder (pyproject.toml, group "paper_checks.papers") imports this
# package; importing it registers every claim below it.
import_claim_modules(__name__)
