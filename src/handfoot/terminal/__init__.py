"""The terminal front ends: the game against bots or pass-and-play (:mod:`.play`), and the
score keeper for games played with real cards (:mod:`.score_keeper`) (docs/terminal.md)."""
