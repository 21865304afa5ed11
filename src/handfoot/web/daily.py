"""The daily deal: the same deal for everyone on each UTC date.

Its seed is HMAC-SHA256(server secret, date): the code is open, so a seed derived from the
date alone would let anybody compute the deal in advance. The secret is made once per
database (256 random bits, table ``server_secrets``).

A daily game ends with its day: from midnight UTC after its date, it can no longer move
(:meth:`Table.refusal <handfoot.web.table.Table.refusal>`: no move, hint, check or bot
move), and only then is the seed published (by ``GET /api/daily/{date}``; until then a
daily game's record leaves it out). So the seed never helps a game still being played, and
the leaderboard counts only games finished within their day.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from typing import Any, Final

__all__ = ["DAILY_SETTINGS", "daily_seed", "is_over", "today"]

SECRET_NAME: Final = "daily"

DAILY_SETTINGS: Final[dict[str, Any]] = {
    "profile": "partnership-13",
    "layout": "2x2",
    "rounds": 1,
    "seats": [{"kind": "human"}, {"kind": "bot", "level": "hard"},
              {"kind": "bot", "level": "hard"}, {"kind": "bot", "level": "hard"}],
    "absent": "wait",
}
"""The fixed settings: partnership-13, 2x2, you (seat 0) with a hard partner (seat 2)
against two hard bots, one round."""


def today() -> dt.date:
    """The current UTC date."""
    return dt.datetime.now(dt.UTC).date()


def daily_seed(secret: bytes, date: dt.date) -> int:
    """The deal's seed for a date: 128 bits of HMAC-SHA256(secret, ``YYYY-MM-DD``)."""
    digest = hmac.new(secret, f"handfoot-daily:{date.isoformat()}".encode(),
                      hashlib.sha256).digest()
    return int.from_bytes(digest[:16], "big")


def is_over(date: dt.date, now: dt.date | None = None) -> bool:
    """Whether a UTC date has ended as of the date ``now`` (default :func:`today`): its
    games can no longer move, and its seed may be published.

    >>> is_over(dt.date(2026, 12, 4), now=dt.date(2026, 12, 5))
    True
    >>> is_over(dt.date(2026, 12, 5), now=dt.date(2026, 12, 5))
    False
    """
    return date < (today() if now is None else now)
