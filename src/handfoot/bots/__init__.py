"""The players that choose moves by themselves, from a seat's view only: the heuristic
levels (random, easy, normal, hard), the expert's search, the learned styles and the
plan-ranking network, and the registry that names them all (docs/bots.md)."""
