"""How a server runs: :class:`Settings` (``handfoot serve``'s options, and the test hook
that gives new games their seeds)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from handfoot.web.guard import OpenLimit
from handfoot.web.push import DEFAULT_PUSH_HOSTS

__all__ = ["BOT_PACES", "SeedSource", "Settings"]

BOT_PACES: Final = {"fast": 0.28, "normal": 1.0, "slow": 2.0}
"""The bot paces a table may choose (the ``pace`` message, docs/web.md), each as a share of
:attr:`Settings.bot_delay`: with the default 0.9 s, 0.25 s, 0.9 s and 1.8 s a bot move."""

SeedSource = Callable[[str, str, Sequence[Mapping[str, Any]]], int]
"""``(profile name, layout, seat rows) -> seed``: see :attr:`Settings.seed_source`."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How a server runs."""

    database_url: str | None = None
    """Any SQLAlchemy async URL; None: SQLite in the user's data directory."""
    bot_delay: float = 0.9
    """Seconds from a bot's turn to its move appearing, whatever it computed."""
    absent_grace: float = 60.0
    """Seconds a person may be away before a stand-in plays (where the table chose it)."""
    expert_budget: float | None = None
    """Seconds per searched expert decision (None: the expert's default)."""
    expert_workers: int = 1
    """Processes the expert searches in."""
    seed_source: SeedSource | None = None
    """A test hook: where a new game's seed comes from. None (the default, and always so
    for ``handfoot serve``): 128 bits from :mod:`secrets`. Otherwise called as
    ``seed_source(profile, layout, seats)`` for every game created without a fixed seed
    (new games and rematches, not the daily deal), with the profile's name, the layout
    (``"2x2"``) and the seat rows (``kind``, ``level``, ``name``), so tests get the same
    deals on every run; it may keep its own count of games made. Only code that builds
    :class:`Settings` can set it: nothing from the network reaches it."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may open a table's WebSocket or send a
    ``POST`` (``--allowed-origin``), like ``"https://cards.example.org"``."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names the server answers to (``--allowed-host``, like ``"cards.example.org"``
    or ``"*.example.org"``); a request with another ``Host`` gets ``400``. Empty: any."""
    message_rate: float = 50.0
    """Messages a second one WebSocket may send, on average (a token bucket)."""
    message_burst: int = 200
    """Messages one WebSocket may send at once (the bucket's size)."""
    flood_limit: int = 100
    """Messages refused for the rate within :attr:`flood_window` seconds after which the
    connection is closed (code 4429)."""
    flood_window: float = 10.0
    """The sliding window over which refusals are counted (see :attr:`flood_limit`)."""
    talk_limit: int = 5
    """Reactions and chat messages one seat (or one watcher's connection) may send within
    :attr:`talk_window` seconds (see :mod:`handfoot.web.talk`)..."""
    talk_window: float = 10.0
    """... the window of :attr:`talk_limit`..."""
    talk_gap: float = 0.5
    """... and the seconds that must pass between two of them."""
    idle_timeout: float = 300.0
    """Seconds a game stays in memory with nobody connected to it or asking for it; then
    it is dropped, and rebuilt from the database (by replay) when next asked for."""
    open_limits: bool = True
    """Whether new games, table WebSockets and new score sheets are limited per client
    address (the eight fields below; ``--no-open-limits``): False only for tests and
    benchmarks that open hundreds of tables from one address."""
    games_burst: int = 20
    """New games (and daily deals and rematches) one address may make at once..."""
    games_per_minute: float = 10.0
    """... and then on average a minute."""
    sockets_burst: int = 60
    """Table WebSockets one address may open at once..."""
    sockets_per_minute: float = 60.0
    """... and then on average a minute (a page reconnects with a growing back-off)."""
    sheets_burst: int = 20
    """New score sheets one address may make at once..."""
    sheets_per_minute: float = 10.0
    """... and then on average a minute."""
    posts_burst: int = 120
    """Other ``POST`` requests (rules checks, games' status, a score sheet's rounds) one
    address may send at once (the history page asks for the status of every game the
    browser holds)..."""
    posts_per_minute: float = 240.0
    """... and then on average a minute."""

    smtp_url: str | None = None
    """Where sign-in mails and turn notices are sent (``--smtp-url``): ``smtp://host:port``
    (plain, or
    STARTTLS when the server offers it), ``smtps://host:port`` (TLS from the start); a
    user and password may come before the host (``smtp://user:pass@host:587``). None: no
    mail (the sign-in by mail is not offered)."""
    mail_from: str = "handfoot@localhost"
    """The sender of sign-in mails (``--mail-from``)."""
    public_url: str | None = None
    """The site's address as players reach it (``--public-url``, like
    ``"https://cards.example.org"``): the links in mails start with it (never with the
    ``Host`` a request claims). Required for mail."""

    def pace_delay(self, pace: str) -> float:
        """Seconds a bot waits at a table of ``pace`` (one of :data:`BOT_PACES`; another
        name: the normal pace).

        >>> [round(Settings().pace_delay(p), 2) for p in ("fast", "normal", "slow", "x")]
        [0.25, 0.9, 1.8, 0.9]
        """
        return self.bot_delay * BOT_PACES.get(pace, 1.0)

    timer_every: float = 1.0
    """Seconds between a process's looks at the correspondence games' timers (turns whose
    notices are to be sent, whose time ran out, or whose bot is to move)."""
    push_contact: str | None = None
    """The VAPID ``sub`` claim push services may contact (``mailto:`` or ``https:``); None:
    ``mailto:`` the mail sender."""
    push_hosts: tuple[str, ...] = DEFAULT_PUSH_HOSTS
    """The push services' hosts a browser's subscription may point at (a test adds its
    stand-in service on 127.0.0.1; nothing else need change)."""

    def vapid_contact(self) -> str:
        """The VAPID ``sub`` claim."""
        if self.push_contact:
            return self.push_contact
        return "mailto:" + self.mail_from.rpartition("<")[2].rstrip(">").strip()

    def open_limit_list(self) -> tuple[OpenLimit, ...]:
        """The limits :class:`~handfoot.web.guard.OpenLimiter` applies (none if turned off)."""
        if not self.open_limits:
            return ()
        return (OpenLimit("game", self.games_burst, self.games_per_minute, "new games"),
                OpenLimit("socket", self.sockets_burst, self.sockets_per_minute,
                          "table connections"),
                OpenLimit("sheet", self.sheets_burst, self.sheets_per_minute,
                          "new score sheets"),
                OpenLimit("post", self.posts_burst, self.posts_per_minute, "requests"))
