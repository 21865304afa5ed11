"""Players without passwords: a name, and a key held by each of the player's browsers.

A browser makes a random key (32 bytes from ``crypto.getRandomValues``, base64url: 43
characters), keeps it in its ``localStorage`` and sends it as the ``X-Handfoot-Player``
header (:data:`PLAYER_HEADER`) on the JSON API; the server stores only its SHA-256
(:data:`~handfoot.web.store.player_keys`). No cookie: a page of another site can neither
send the header nor read an answer, so the API needs no CSRF token. :func:`current_player`
is who sent a request (None: nobody signed in).

Another device is added by a one-time link (:meth:`Players.new_link`, kind ``"device"``:
single use, :data:`LINK_TTL`; the token travels in the URL's fragment, never to a server
log); a sign-in link mailed to the player's address (kind ``"mail"``) does the same and
marks the address verified. A link is used by a ``POST`` (a mail scanner's ``GET`` uses
nothing), atomically: of two uses at once, one wins.

The seats: when a signed-in player creates or joins a game, :meth:`Players.link_seat`
records who sits where (:data:`~handfoot.web.store.seat_players`); when the game ends the
process that stored its last move records each linked seat's result and statistics
(:meth:`Players.game_finished`) and then calls every hook given to
:meth:`Players.on_game_finished` with a :class:`FinishedGame` (ratings attach here).

A deleted player keeps a row named :data:`FORMER_PLAYER` (so standings and records stay
whole) and loses everything else: name, address, keys, links, memberships; the names on
their seats of stored games become :data:`FORMER_PLAYER` too.

The API other modules use: :func:`current_player`, and on :class:`Players` (the app's
``app.state.players``): :meth:`~Players.player`, :meth:`~Players.games_of_player`,
:meth:`~Players.player_email`, :meth:`~Players.on_game_finished`.
"""

from __future__ import annotations

import hmac
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import Column, and_, delete, func, insert, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from handfoot.web.store import (
    Store,
    club_members,
    games,
    metadata,
    now,
    player_keys,
    player_links,
    players,
    seat_players,
    seats,
    token_hash,
)

if TYPE_CHECKING:
    from handfoot.web.table import Table
    from handfoot.web.tables import Tables

__all__ = ["FORMER_PLAYER", "LINK_TTL", "MAIL_TTL", "PLAYER_HEADER", "FinishHook",
           "FinishedGame", "Player", "PlayerGame", "Players", "SeatResult", "clean_name",
           "current_player", "is_key"]

log = logging.getLogger("handfoot.web")

PLAYER_HEADER: Final = "X-Handfoot-Player"
"""The request header that carries the browser's key."""

FORMER_PLAYER: Final = "Former player"
"""The name a deleted player's row and seats keep."""

LINK_TTL: Final = timedelta(minutes=10)
"""How long a link that adds a device stays valid."""

MAIL_TTL: Final = timedelta(minutes=15)
"""How long a mailed sign-in link stays valid."""

MAILS_PER_HOUR: Final = 3
"""Sign-in mails sent to one player (or one address) in an hour, at most."""

SEEN_EVERY: Final = timedelta(hours=1)
"""A device's ``seen`` is brought up to date when it is this old (not on every request)."""

MAX_NAME: Final = 40
"""The longest player's (or club's) name, in characters."""

MAX_EMAIL: Final = 254

_KEY = re.compile(r"[A-Za-z0-9_-]{43}")
_EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s]+\.[^@\s]+")


def is_key(value: object) -> bool:
    """Whether ``value`` is shaped like a key or a link's token: 32 bytes as base64url
    (43 characters).

    >>> is_key("A" * 43), is_key("A" * 42), is_key("A" * 42 + "=")
    (True, False, False)
    """
    return isinstance(value, str) and _KEY.fullmatch(value) is not None


def new_id() -> str:
    """A player's or club's id: 96 random bits, URL-safe."""
    return secrets.token_urlsafe(12)


def clean_name(value: object) -> str | None:
    """A name as stored: spaces collapsed, at most :data:`MAX_NAME` characters, printable;
    None when nothing is left.

    >>> clean_name("  Aunt   May "), clean_name("\\x00"), clean_name(7)
    ('Aunt May', None, None)
    """
    if not isinstance(value, str):
        return None
    name = " ".join("".join(c for c in value if c.isprintable()).split())[:MAX_NAME].strip()
    return name or None


def clean_email(value: object) -> str | None:
    """An address as stored (lower case), or None when it does not look like one.

    >>> clean_email(" Gran@Example.org "), clean_email("gran"), clean_email("a@b")
    ('gran@example.org', None, None)
    """
    if not isinstance(value, str):
        return None
    email = value.strip().lower()
    if len(email) > MAX_EMAIL or not _EMAIL.fullmatch(email):
        return None
    return email


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    email: str | None
    email_verified: bool
    created: datetime

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "email": self.email,
                "email_verified": self.email_verified}


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """A game a player sits in: which seat, whether it is over, whose turn it is."""

    game_id: str
    seat: int
    finished: bool
    turn: int | None
    """The seat that must act now (None: the game is over, or could not be loaded)."""
    club: str | None
    updated: datetime
    rules: str = ""
    """The rule set: the club's name for it, else the game's profile."""
    names: tuple[str, ...] = ()
    """Every seat's name, in seat order."""

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A seat at the end of a game."""

    seat: int
    side: int
    player: str | None
    """The player linked to the seat (None: a bot, or a person who was not signed in)."""
    kind: str
    level: str | None
    name: str
    points: int
    """The side's final total."""
    won: bool
    stats: Mapping[str, Any]
    """``books``, ``pickups``, ``melded``, ``went_out`` (rounds it went out) and
    ``round_scores`` (its side's score in each round)."""


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """What a hook of :meth:`Players.on_game_finished` is given."""

    game_id: str
    profile: str
    """The rules' name (a built-in profile, or the house rules' own name)."""
    layout: str
    seats: tuple[SeatResult, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    club: str | None = None
    rules: str | None = None
    """The club's name for the rule set it was made with (for a club game)."""


FinishHook = Callable[[FinishedGame], Awaitable[None]]


async def current_player(request: HTTPConnection) -> Player | None:
    """Who sent a request: the player whose key is in its :data:`PLAYER_HEADER` (None: no
    header, a malformed or unknown key, a deleted player)."""
    key = request.headers.get(PLAYER_HEADER)
    if not is_key(key):
        return None
    assert key is not None
    registry: Players = request.app.state.players
    return await registry.by_key(key)


@dataclass
class Players:
    """The players of a server (``app.state.players``); every method is one transaction."""

    store: Store
    tables: Tables | None = None
    clock: Callable[[], datetime] = now
    """The time (naive UTC) links are made and checked at; a test may set its own."""
    hooks: list[FinishHook] = field(default_factory=list)

    def on_game_finished(self, hook: FinishHook) -> None:
        """Call ``hook`` once for every game that ends with at least one seat linked to a
        player, after the seats' results are stored (in the process that stored the last
        move; a hook that fails is logged, the others still run)."""
        self.hooks.append(hook)

    # -- who -------------------------------------------------------------------------------

    async def create(self, name: str, key: str, label: str = "") -> Player:
        """A new player with one device (its key's hash); ValueError for a bad name or key
        (a key already used by a player is refused too)."""
        clean = clean_name(name)
        if clean is None:
            raise ValueError("name: a name of 1 to 40 characters")
        if not is_key(key):
            raise ValueError("key: 32 random bytes, base64url (43 characters)")
        stamp = self.clock()
        player = Player(new_id(), clean, None, False, stamp)
        try:
            async with self.store.engine.begin() as conn:
                await conn.execute(insert(players).values(
                    id=player.id, name=player.name, email=None, email_verified=False,
                    created=stamp, deleted=None))
                await conn.execute(insert(player_keys).values(
                    key_hash=token_hash(key), player=player.id,
                    label=clean_name(label) or "browser", created=stamp, seen=stamp))
        except IntegrityError:
            raise ValueError("key: already in use; make a new one") from None
        return player

    async def by_key(self, key: str) -> Player | None:
        """The player a device's key belongs to (None: unknown, or a deleted player)."""
        digest = token_hash(key)
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(
                select(players, player_keys.c.key_hash, player_keys.c.seen).join(
                    player_keys, player_keys.c.player == players.c.id)
                .where(player_keys.c.key_hash == digest, players.c.deleted.is_(None))
            )).first()
        if row is None or not hmac.compare_digest(row.key_hash, digest):
            return None
        stamp = self.clock()
        if row.seen < stamp - SEEN_EVERY:  # when the device was last used, to the hour
            async with self.store.engine.begin() as conn:
                await conn.execute(update(player_keys).where(
                    player_keys.c.key_hash == digest).values(seen=stamp))
        return _player(row)

    async def player(self, player_id: str) -> Player | None:
        """A player by id (a deleted one too: named :data:`FORMER_PLAYER`)."""
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(players).where(players.c.id == player_id))
                   ).first()
        return None if row is None else _player(row)

    async def player_email(self, player_id: str) -> str | None:
        """A player's verified address (None: none, or not yet verified)."""
        player = await self.player(player_id)
        if player is None or not player.email_verified:
            return None
        return player.email

    async def rename(self, player_id: str, name: str) -> str:
        clean = clean_name(name)
        if clean is None:
            raise ValueError("name: a name of 1 to 40 characters")
        async with self.store.engine.begin() as conn:
            await conn.execute(update(players).where(players.c.id == player_id)
                               .values(name=clean))
        return clean

    async def set_email(self, player_id: str, email: str | None) -> str | None:
        """Set (unverified until a mailed link is used) or remove a player's address."""
        clean = None if email in (None, "") else clean_email(email)
        if email not in (None, "") and clean is None:
            raise ValueError("email: an address like name@example.org")
        async with self.store.engine.begin() as conn:
            await conn.execute(update(players).where(players.c.id == player_id)
                               .values(email=clean, email_verified=False))
        return clean

    async def player_by_email(self, email: str) -> Player | None:
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(players).where(
                players.c.email == email, players.c.deleted.is_(None))
                .order_by(players.c.email_verified.desc(), players.c.created))).first()
        return None if row is None else _player(row)

    # -- devices and links -----------------------------------------------------------------

    async def devices(self, player_id: str) -> list[dict[str, Any]]:
        """A player's devices: an id (the start of the key's hash), label, created, seen."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(player_keys).where(
                player_keys.c.player == player_id).order_by(player_keys.c.created))).all()
        return [{"id": r.key_hash[:16], "label": r.label, "created": _iso(r.created),
                 "seen": _iso(r.seen)} for r in rows]

    async def forget_device(self, player_id: str, device: str) -> bool:
        """Remove one of a player's devices (by the id :meth:`devices` gives)."""
        if not re.fullmatch(r"[0-9a-f]{16}", device):
            return False
        async with self.store.engine.begin() as conn:
            done = await conn.execute(delete(player_keys).where(
                player_keys.c.player == player_id,
                player_keys.c.key_hash.like(device + "%")))
        return bool(done.rowcount)

    async def add_key(self, player_id: str, key: str, label: str = "") -> None:
        if not is_key(key):
            raise ValueError("key: 32 random bytes, base64url (43 characters)")
        stamp = self.clock()
        try:
            async with self.store.engine.begin() as conn:
                await conn.execute(insert(player_keys).values(
                    key_hash=token_hash(key), player=player_id,
                    label=clean_name(label) or "browser", created=stamp, seen=stamp))
        except IntegrityError:
            raise ValueError("key: already in use; make a new one") from None

    async def new_link(self, player_id: str, kind: str, email: str | None = None) -> str:
        """A one-time link's token (256 random bits) for a player: ``"device"`` (valid
        :data:`LINK_TTL`) or ``"mail"`` (:data:`MAIL_TTL`, to ``email``)."""
        token = secrets.token_urlsafe(32)
        stamp = self.clock()
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(player_links).values(
                token_hash=token_hash(token), player=player_id, kind=kind, email=email,
                created=stamp, expires=stamp + (LINK_TTL if kind == "device" else MAIL_TTL),
                used=None))
        return token

    async def links_sent(self, player_id: str, email: str, within: timedelta) -> int:
        """Sign-in mails made for this player or this address in the last ``within``."""
        since = self.clock() - within
        async with self.store.engine.connect() as conn:
            count = (await conn.execute(select(func.count()).select_from(player_links).where(
                player_links.c.kind == "mail", player_links.c.created >= since,
                (player_links.c.player == player_id) | (player_links.c.email == email)))
            ).scalar_one()
        return int(count)

    async def use_link(self, token: str, kind: str, key: str, label: str = "",
                       ) -> Player | None:
        """Use a one-time link: the new device's ``key`` is added to the link's player,
        and a mailed link's address marked verified; the player, or None when the link is
        unknown, used, expired or of another kind (nothing changes then). Atomic: of two
        uses at once, one wins."""
        if not (is_key(token) and is_key(key)):
            return None
        digest = token_hash(token)
        stamp = self.clock()
        try:
            async with self.store.engine.begin() as conn:
                row = (await conn.execute(select(player_links).where(
                    player_links.c.token_hash == digest))).first()
                if row is None or not hmac.compare_digest(row.token_hash, digest) \
                        or row.kind != kind or row.used is not None or row.expires <= stamp:
                    return None
                done = await conn.execute(update(player_links).where(
                    player_links.c.token_hash == digest, player_links.c.used.is_(None))
                    .values(used=stamp))
                if done.rowcount != 1:
                    return None
                owner = (await conn.execute(select(players).where(
                    players.c.id == row.player, players.c.deleted.is_(None)))).first()
                if owner is None:
                    return None
                await conn.execute(insert(player_keys).values(
                    key_hash=token_hash(key), player=row.player,
                    label=clean_name(label) or "browser", created=stamp, seen=stamp))
                if kind == "mail" and row.email == owner.email:
                    await conn.execute(update(players).where(players.c.id == row.player)
                                       .values(email_verified=True))
        except IntegrityError:
            return None  # the key is taken (the browser makes a new one and tries again)
        return await self.player(row.player)

    # -- seats and games -------------------------------------------------------------------

    async def link_seat(self, game_id: str, seat: int, player_id: str) -> bool:
        """Record that a player sits at a game's seat: True if the seat is now theirs
        (or already was), False if another player holds it."""
        try:
            async with self.store.engine.begin() as conn:
                row = (await conn.execute(select(seat_players.c.player).where(
                    seat_players.c.game == game_id, seat_players.c.seat == seat))).first()
                if row is not None:
                    return bool(row.player == player_id)
                await conn.execute(insert(seat_players).values(
                    game=game_id, seat=seat, player=player_id, joined=self.clock()))
        except IntegrityError:  # another process linked it meanwhile
            return (await self.seat_players(game_id)).get(seat) == player_id
        return True

    async def name_seat(self, game_id: str, seat: int, name: str) -> None:
        """Give a seat its player's name (a member took an open seat of a club game);
        other processes holding the game read it again."""
        async with self.store.engine.begin() as conn:
            await conn.execute(update(seats).where(seats.c.game == game_id,
                                                   seats.c.seat == seat).values(name=name))
            await self.store._notify(conn, "s", game_id)

    async def seat_players(self, game_id: str) -> dict[int, str]:
        """The seats of a game linked to players: seat → player id."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(seat_players.c.seat, seat_players.c.player)
                                       .where(seat_players.c.game == game_id))).all()
        return {int(r.seat): str(r.player) for r in rows}

    async def games_of_player(self, player_id: str) -> list[PlayerGame]:
        """The games a player sits in, the latest first, with whose turn it is in the
        unfinished ones (their tables loaded if need be)."""
        from handfoot.web.store import club_games

        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(seat_players.c.game, seat_players.c.seat, games.c.status,
                       games.c.updated, games.c.profile, club_games.c.club,
                       club_games.c.rules)
                .join(games, games.c.id == seat_players.c.game)
                .outerjoin(club_games, club_games.c.game == seat_players.c.game)
                .where(seat_players.c.player == player_id)
                .order_by(games.c.updated.desc()))).all()
            named = (await conn.execute(
                select(seats.c.game, seats.c.name).where(
                    seats.c.game.in_([r.game for r in rows])).order_by(seats.c.seat))
            ).all() if rows else []
        names: dict[str, list[str]] = {}
        for n in named:
            names.setdefault(n.game, []).append(n.name)
        out = []
        for r in rows:
            finished = r.status == "over"
            turn = None
            if not finished and self.tables is not None:
                table = await self.tables.get(r.game)
                if table is not None and not table.state.is_over:
                    turn = table.state.actor
                finished = table is not None and table.state.is_over
            out.append(PlayerGame(r.game, int(r.seat), finished, turn, r.club, r.updated,
                                  r.rules or r.profile, tuple(names.get(r.game, ()))))
        return out

    async def game_finished(self, table: Table) -> None:
        """A game just ended (its last move is stored): store each linked seat's result
        and statistics, then call the hooks. Nothing when no seat is linked, or when the
        results were stored before (a second call, from any process, calls no hook)."""
        linked = await self.seat_players(table.id)
        if not linked:
            return
        finished = finished_game(table, linked, await self._club_of(table.id))
        stamp = self.clock()
        stored = 0
        async with self.store.engine.begin() as conn:
            for s in finished.seats:
                if s.player is None:
                    continue
                done = await conn.execute(update(seat_players).where(
                    seat_players.c.game == table.id, seat_players.c.seat == s.seat,
                    seat_players.c.finished.is_(None)).values(
                    finished=stamp, side=s.side, points=s.points, won=s.won,
                    stats=dict(s.stats)))
                stored += done.rowcount
        if not stored:
            return  # recorded before (by this process or another): the hooks ran then
        for hook in list(self.hooks):
            try:
                await hook(finished)
            except Exception:
                log.exception("game %s: a hook on its end failed", table.id)

    async def unrecorded(self, game_ids: list[str]) -> list[str]:
        """Those of these games that are over but have a linked seat whose result is not
        stored (the process that stored the last move stopped before it could)."""
        if not game_ids:
            return []
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(seat_players.c.game).distinct()
                .join(games, games.c.id == seat_players.c.game)
                .where(seat_players.c.game.in_(game_ids), games.c.status == "over",
                       seat_players.c.finished.is_(None)))).all()
        return [str(r.game) for r in rows]

    async def _club_of(self, game_id: str) -> tuple[str, str] | None:
        from handfoot.web.store import club_games

        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(club_games.c.club, club_games.c.rules).where(
                club_games.c.game == game_id))).first()
        return None if row is None else (str(row.club), str(row.rules))

    # -- a player's own data ---------------------------------------------------------------

    async def export(self, player_id: str) -> dict[str, Any]:
        """Everything stored about a player, as JSON: the player's row, and every row of
        every table that names the player (a column with a foreign key to ``players.id``:
        devices with their keys' hashes, links, seats and their results, clubs joined,
        invites made, house rules saved, and any table added later), by table name."""
        out: dict[str, Any] = {}
        async with self.store.engine.connect() as conn:
            me = (await conn.execute(select(players).where(players.c.id == player_id))
                  ).one()
            out["player"] = _plain(me._mapping)
            for table, column in player_columns():
                rows = (await conn.execute(select(table).where(column == player_id))).all()
                out.setdefault("tables", {})[table.name] = [_plain(r._mapping) for r in rows]
            seated = (await conn.execute(
                select(seat_players.c.game, seat_players.c.seat, seats.c.name).join(
                    seats, and_(seats.c.game == seat_players.c.game,
                                seats.c.seat == seat_players.c.seat))
                .where(seat_players.c.player == player_id))).all()
        out["names_at_seats"] = [{"game": s.game, "seat": s.seat, "name": s.name}
                                 for s in seated]
        return out

    async def delete(self, player_id: str) -> list[str]:
        """Delete a player: the row keeps only its id, named :data:`FORMER_PLAYER` (the
        standings stay whole); keys, links and memberships go; the player's seats in
        stored games are renamed :data:`FORMER_PLAYER`. The games renamed."""
        stamp = self.clock()
        async with self.store.engine.begin() as conn:
            seated = (await conn.execute(select(seat_players.c.game, seat_players.c.seat)
                                         .where(seat_players.c.player == player_id))).all()
            for s in seated:
                await conn.execute(update(seats).where(
                    seats.c.game == s.game, seats.c.seat == s.seat).values(
                    name=FORMER_PLAYER))
            await conn.execute(delete(player_keys).where(player_keys.c.player == player_id))
            await conn.execute(delete(player_links).where(
                player_links.c.player == player_id))
            await conn.execute(delete(club_members).where(
                club_members.c.player == player_id))
            await conn.execute(update(players).where(players.c.id == player_id).values(
                name=FORMER_PLAYER, email=None, email_verified=False, deleted=stamp))
            for game_id in {s.game for s in seated}:
                await self.store._notify(conn, "s", game_id)  # other processes reload names
        return sorted({str(s.game) for s in seated})


def finished_game(table: Table, linked: Mapping[int, str],
                  club: tuple[str, str] | None = None) -> FinishedGame:
    """A finished table's result, seat by seat, with the seats' players ``linked``."""
    state = table.state
    winners = tuple(state.winners())
    out = []
    for s in table.seats:
        side = state.side_of[s.seat]
        counted = table.stats.seats[s.seat]
        stats = {"books": counted.books, "pickups": counted.pickups,
                 "melded": counted.melded,
                 "went_out": sum(1 for r in state.results if r.went_out == s.seat),
                 "round_scores": [r.scores[side].total for r in state.results]}
        out.append(SeatResult(s.seat, side, linked.get(s.seat), s.kind, s.level, s.name,
                              state.totals[side], side in winners, stats))
    return FinishedGame(table.id, table.profile.name, str(table.layout), tuple(out),
                        tuple(state.totals), winners,
                        club=None if club is None else club[0],
                        rules=None if club is None else club[1])


def player_columns() -> list[tuple[SqlTable, Column[Any]]]:
    """Every (table, column) of the schema that names a player (a foreign key to
    ``players.id``): what :meth:`Players.export` gives a player of their own."""
    out = []
    for table in metadata.sorted_tables:
        for column in table.columns:
            if any(fk.column is players.c.id for fk in column.foreign_keys):
                out.append((table, column))
    return out


def _plain(row: Any) -> dict[str, Any]:
    """A row as JSON: dates in ISO 8601 (UTC), bytes in hex."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        if isinstance(value, datetime):
            value = value.isoformat() + "Z"
        elif isinstance(value, (bytes, bytearray, memoryview)):
            value = bytes(value).hex()
        out[key] = value
    return out


def _player(row: Any) -> Player:
    return Player(row.id, row.name, row.email, bool(row.email_verified), row.created)


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat() + "Z"
