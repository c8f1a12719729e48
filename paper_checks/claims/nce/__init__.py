"""Claims ``NCE-*``: paper 004 §4.1, the NCE landscape, NGD and eNCE
(:mod:`identifiability.nce`).  Shared measurements: :mod:`paper_checks.claims.nce.common`."""
