"""Claims ``CL-*``: paper 004 §2.1, contrastive estimation of transition kernels
(:mod:`identifiability.contrastive`)."""
