"""The bots by name: every level from ``random`` to ``expert``, and ``learned`` (hard with
the settings tuned for the profile by self-play, :mod:`handfoot.bots.styles`), for the command
line, simulations, tournaments and the server.

It sits above every bot (:mod:`handfoot.bots.heuristic` and the search bot of
:mod:`handfoot.bots.search`), so no bot module registers itself or imports another to be
complete. Add a bot of your own with ``BOTS[name] = cls`` (``cls(seed)`` makes one).

>>> make_bot("hard", 1).name
'hard'
"""

from __future__ import annotations

from collections.abc import Callable

from handfoot.bots.heuristic import Bot, EasyBot, HardBot, NormalBot, RandomBot, configure
from handfoot.bots.search import ExpertBot
from handfoot.bots.styles import StyledBot

__all__ = ["BOTS", "check_bot", "make_bot", "parse_spec"]

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot, "easy": EasyBot, "normal": NormalBot, "hard": HardBot,
    "expert": ExpertBot, "learned": StyledBot}
"""Bot levels by name, weakest first: each makes a bot from a seed."""


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot of the named level (``random``), seeded for reproducible play.

    ``name`` may also be a *spec*: a level with settings (:data:`handfoot.bots.heuristic.SETTINGS`)
    each after a colon, such as ``hard:hold=1:keep_pair=80``, for measuring a style in a
    tournament. Raises ``ValueError`` for an unknown level or a bad setting.

    >>> make_bot("hard:hold=1", 1).hold
    1
    """
    level, settings = parse_spec(name)
    try:
        bot = BOTS[level](seed)
    except KeyError:
        raise ValueError(f"unknown bot {level!r}: choose one of {', '.join(BOTS)}") from None
    if settings:
        try:
            configure(bot, settings)
        except ValueError as exc:
            raise ValueError(f"bot {name!r}: {exc}") from None
    return bot


def parse_spec(name: str) -> tuple[str, dict[str, str]]:
    """A bot spec's level and settings (as text): ``"hard:hold=1"`` gives
    ``("hard", {"hold": "1"})``; a plain level has no settings."""
    level, colon, rest = name.partition(":")
    settings: dict[str, str] = {}
    if not colon:
        return level, settings
    for item in rest.split(":"):
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals or not key or not value.strip():
            raise ValueError(f"bot {name!r}: write each setting as :name=value "
                             f"(not {item!r})")
        if key in settings:
            raise ValueError(f"bot {name!r}: setting {key} is given twice")
        settings[key] = value.strip()
    return level, settings


def check_bot(name: str) -> None:
    """Raise ``ValueError`` (saying why) unless :func:`make_bot` can make ``name``."""
    make_bot(name, 0)

