"""Tables written by the shipped sweeps (``python -m seprank.sweeps ... --out``)."""
