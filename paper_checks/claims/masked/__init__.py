"""Claims ``MP-*``: paper 004 §2.2, masked-prediction identifiability
(:mod:`identifiability.masked`)."""
