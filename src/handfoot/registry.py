"""The bots by name: every level from ``random`` to ``expert`` (and ``learned``, where NumPy
is installed), for the command line,
simulations, tournaments and the server.

It sits above every bot (:mod:`handfoot.bots` and the search bot of
:mod:`handfoot.search`), so no bot module registers itself or imports another to be
complete. Add a bot of your own with ``BOTS[name] = cls`` (``cls(seed)`` makes one).

>>> make_bot("hard", 1).name
'hard'
"""

from __future__ import annotations

from collections.abc import Callable

from handfoot.bots import Bot, EasyBot, HardBot, NormalBot, RandomBot
from handfoot.search import ExpertBot

__all__ = ["BOTS", "make_bot"]

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot, "easy": EasyBot, "normal": NormalBot, "hard": HardBot,
    "expert": ExpertBot}
"""Bot levels by name, weakest first: each makes a bot from a seed."""

try:  # the learned bot needs NumPy (the rl extra); without it the level is not offered
    from handfoot.learned import LearnedBot
except ImportError:  # pragma: no cover - numpy is missing
    pass
else:
    BOTS["learned"] = LearnedBot


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot of the named level (``random``), seeded for reproducible play."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}") from None
