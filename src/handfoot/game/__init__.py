"""The game itself: cards, rule profiles, moves, the engine, notation, records, the rules in
words and score sheets. Pure: no I/O but reading the package's own data files, no clock, no
global state; every other layer of handfoot sits on top of it (docs/architecture.md)."""
