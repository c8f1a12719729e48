"""Data tables shipped with seprank (003, Levine et al. 2020: Tables 1, 2 and 4(a)-(b))."""
