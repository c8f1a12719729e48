"""Claim modules, one per paper topic; every module here is imported by
:func:`paper_checks.registry.load_all`. Modules starting with ``_`` are helpers, not claims."""
