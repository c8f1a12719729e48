"""Claims ``PD-*``: paper 004 §4.2, progressive distillation
(:mod:`identifiability.distillation`)."""
