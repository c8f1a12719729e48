"""Claims ``FND-*``: the toolkit foundation, numerical-rank pitfalls (:mod:`seprank.core`)."""
