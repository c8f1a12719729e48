"""The claims, one folder per paper key, named like the library's subpackages (``d2w``,
``incontext``, ``automata``, ``masked``, ``contrastive``, ``nce``, ``icl``, ``distillation``;
``foundation`` for the toolkit's own FND claims).  A folder holds one module per topic and, where
its modules share a measurement, one ``common`` module; a claim module never imports another
claim module (tested).  :func:`paper_checks.registry.load_all` imports every module below this
package, so every claim registers."""
