"""identifiability: parameter identifiability of masked prediction (HMM, Gaussian HMM) and
contrastive estimation of transition kernels (seed 004, chapters 2 and 4)."""

from __future__ import annotations

# --- masked prediction (seed 004 §2.2) -------------------------------------------------------

# --- contrastive kernels and NCE (seed 004 §2.1, §4.1) ---------------------------------------

__all__: list[str] = []
