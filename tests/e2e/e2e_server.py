"""The real web app under uvicorn for the browser tests (run as a script by conftest.py).

    python e2e_server.py DATABASE_URL [SMTP_URL]

With ``SMTP_URL`` the server sends mail there (its public URL is its own address). Binds
127.0.0.1 on a free port, prints ``PORT <n>`` (conftest.py then polls until the app
answers), serves until SIGTERM.
Bots move with no delay; a game review is planned for 2 s, not 30. For repeatable games
whatever order the tests run in, a new game's seed is made from its seats' names and kinds
(each test names its players its own way) and how many games with those seats came before
(the ``seed_source`` test hook of :class:`Settings`), instead of the secrets module; the
daily deal's seed is fixed.
Nothing else differs from ``handfoot serve``.
"""

from __future__ import annotations

import asyncio
import collections
import json
import socket
import sys
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import uvicorn

from handfoot.web import daily, reviews
from handfoot.web.app import Settings, create_app
from handfoot.web.settings import SeedSource

DAILY_SEED = 13  # a short deal: the person goes out after 28 decisions (as of 2026-12)


def seats_seeds() -> SeedSource:
    """Seeds from the seats' names and kinds and the count of such games before
    (:attr:`Settings.seed_source`)."""
    made: collections.Counter[str] = collections.Counter()

    def seed(profile: str, layout: str, seats: Sequence[Mapping[str, Any]]) -> int:
        key = json.dumps([layout, list(seats)], sort_keys=True)
        made[key] += 1
        return zlib.crc32(f"{key}#{made[key]}".encode())

    return seed


def main() -> None:
    database_url = sys.argv[1]
    daily.daily_seed = lambda secret, date: DAILY_SEED  # type: ignore[assignment]
    reviews.BUDGET = 2.0  # a game review in seconds, not a minute (docs/review.md)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    mail: dict[str, Any] = {}
    if len(sys.argv) > 2:
        mail = {"smtp_url": sys.argv[2], "mail_from": "handfoot <cards@example.org>",
                "public_url": f"http://127.0.0.1:{port}"}
    app = create_app(Settings(database_url=database_url, bot_delay=0.0, absent_grace=60.0,
                              open_limits=False, seed_source=seats_seeds(), **mail))
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    print(f"PORT {port}", flush=True)
    asyncio.run(server.serve(sockets=[sock]))


if __name__ == "__main__":
    main()
