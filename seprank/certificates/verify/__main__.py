"""``python -m seprank.certificates.verify CERT.json ...`` (or ``python -m verify`` in a copy of
this folder)."""

from .checker import main

raise SystemExit(main())
