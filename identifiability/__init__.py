"""identifiability: parameter identifiability of masked prediction (HMM, Gaussian HMM) and
contrastive estimation of transition kernels (seed 004, chapters 2 and 4)."""

from __future__ import annotations

__all__: list[str] = []
