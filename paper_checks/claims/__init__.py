"""The claims, one folder per paper key, named like the library's subpackages (``d2w``,
``incontext``, ``automata``, ``masked``, ``contrastive``, ``nce``, ``icl``, ``distillation``;
``foundation`` for the toolkit's own FND claims).  A folder holds one module per topic and, where
its modules share a measurement, one ``common`` module; a claim module never imports another
claim module (tested).

The papers register here, through the same door as a third party's
(:func:`paper_checks.papers.register_paper`): each folder is an entry point of the group
``paper_checks.papers`` in ``pyproject.toml`` (named after its paper key), and importing any
folder imports this package first, so the papers exist before their claims."""

from paper_checks.papers import Paper, register_paper

_LEVINE_ICB = ("Yoav Levine", "Noam Wies", "Daniel Jannai", "Dan Navon", "Yedid Hoshen",
               "Amnon Shashua")
for _paper in (
    Paper(key="foundation", stem="foundation",
          title="Numerical-rank pitfalls (toolkit foundation)",
          authors=("seprank-identifiability contributors",), year=2026,
          identifier="this toolkit (seprank.core)"),
    Paper(key="000",
          title="The Inductive Bias of In-Context Learning (Levine et al., ICLR 2022, "
                "camera-ready)",
          authors=_LEVINE_ICB, year=2022, identifier="ICLR 2022 (camera-ready)"),
    Paper(key="001",
          title="The Inductive Bias of In-Context Learning (earlier version)",
          authors=_LEVINE_ICB, year=2022, identifier="OpenReview submission (earlier version)"),
    Paper(key="002",
          title="How Do Nonlinear Transformers Learn and Generalize in In-Context Learning? "
                "(Li, Wang, Lu, Cui, Chen, ICML 2024)",
          authors=("Hongkang Li", "Meng Wang", "Songtao Lu", "Xiaodong Cui", "Pin-Yu Chen"),
          year=2024, identifier="ICML 2024"),
    Paper(key="003",
          title="The Depth-to-Width Interplay in Self-Attention (Levine et al., NeurIPS 2020)",
          authors=("Yoav Levine", "Noam Wies", "Or Sharir", "Hofit Bata", "Amnon Shashua"),
          year=2020, identifier="NeurIPS 2020"),
    Paper(key="004",
          title="B. Liu, PhD thesis: contrastive kernels, masked prediction (ch. 2), automata "
                "(ch. 3), NCE, progressive distillation (ch. 4)",
          authors=("Bingbin Liu",), year=2024,
          identifier="Guiding Machine Learning Design with Insights from Simple Sandboxes, "
                     "CMU-ML-24-110"),
):
    register_paper(_paper)
