"""The daily deal: the same deal for everyone on each UTC date.

Its seed is HMAC-SHA256(server secret, date): the code is open, so a seed derived from the
date alone would let anybody compute the deal in advance. The secret is made once per
database (256 random bits, table ``server_secrets``). The seed is published (by
``GET /api/daily/{date}``) only once that date is over in UTC; until then a daily game's
record leaves it out.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from typing import Any, Final

__all__ = ["DAILY_SETTINGS", "daily_seed", "today"]

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


def is_over(date: dt.date) -> bool:
    """Whether a UTC date has ended (its seed may be published)."""
    return date < today()
