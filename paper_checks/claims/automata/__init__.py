"""Claims ``AUT-*``: paper 004 chapter 3, transformers and automata
(:mod:`seprank.automata`)."""
