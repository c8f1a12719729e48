"""Claims ``D2W-*``: paper 003, the depth-to-width interplay in self-attention
(:mod:`seprank.d2w`).  Shared measurements: :mod:`paper_checks.claims.d2w.common`."""
