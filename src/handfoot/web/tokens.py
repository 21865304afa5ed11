"""The random and derived secrets of games: seat and spectator tokens, game ids, seeds, and
the tokens of a rematch (derived from a server secret, so a second press of Rematch gives
the same links again)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Final

__all__ = ["REMATCH_SECRET", "new_game_id", "new_seed", "new_token", "rematch_token"]

REMATCH_SECRET: Final = "rematch"
"""The name of the server secret a rematch's tokens are derived from."""


def new_token() -> str:
    """A seat or spectator token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def rematch_token(secret: bytes, game_id: str, seat: int | None) -> str:
    """A seat's token (None: the spectator's) in a rematch game, derived from a server
    secret and the new game's id, so that whoever of the old game presses Rematch (or
    reconnects to it) is given the same link to their own seat again."""
    label = "spectator" if seat is None else f"seat {seat}"
    digest = hmac.new(secret, f"{game_id}:{label}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def new_game_id() -> str:
    """A game id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    """A game's seed: 128 bits from :mod:`secrets` (never sent before the game is over)."""
    return secrets.randbits(128)
