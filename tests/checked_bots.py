"""Games of bots that check something at their own decisions (tests of the bots' memos and
shortcuts): each such bot class counts the checks it made in a class attribute
``checked``."""

from __future__ import annotations

from typing import Any

from handfoot.game.loading import load_profile
from handfoot.runs.sim import derive_seed, play_game


def play_checked(kind: Any, profile_name: str, tag: str, games: int = 2) -> int:
    """Play ``games`` one-round games of ``profile_name`` with ``kind`` in every seat (its
    count of checks set to 0 first, its seeds derived from ``tag``); the checks made."""
    profile = load_profile(profile_name, overrides={"rounds": 1})
    kind.checked = 0
    for game in range(games):
        bots = [kind(derive_seed(34, tag, game, s)) for s in range(profile.layout.players)]
        play_game(profile, derive_seed(34, tag, game), bots)
    return int(kind.checked)
