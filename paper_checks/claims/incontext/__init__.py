"""Claims ``ICB-*``: papers 000/001, the inductive bias of in-context learning
(:mod:`seprank.incontext`).  Shared measurements: :mod:`paper_checks.claims.incontext.common`."""
