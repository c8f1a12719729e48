"""Claims ``ICL-*``: paper 002, how nonlinear transformers learn in context
(:mod:`identifiability.icl`).  The shared trained model: :mod:`paper_checks.claims.icl.common`."""
