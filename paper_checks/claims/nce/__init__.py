"""Claims ``NCE-*``: paper 004 §4.1, the NCE landscape, NGD and eNCE
(:mod:`identifiability.nce`)."""
