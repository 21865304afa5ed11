"""Persistence: games, seats, moves, Continue presses and daily results (SQLAlchemy Core).

Every accepted move is a row of ``moves`` with primary key (game, seq), written and
committed before anybody is told of it; a game is rebuilt by replaying its rows. The key
also arbitrates between server processes: a move is committed only as the game's next seq,
and a second process's insert of the same seq fails (:class:`MoveConflict`).

The default database is SQLite (``sqlite+aiosqlite``) in the user's data directory, opened
in WAL mode with ``synchronous=NORMAL``: a commit survives the process being killed (not a
power cut), at about 0.02 ms instead of FULL's 4 ms. PostgreSQL (``postgresql://...``, run
through asyncpg) lets several server processes share the games: every change is announced
with ``NOTIFY`` on :data:`CHANNEL` in the transaction that makes it (see
:mod:`handfoot.web.bus`). The schema is brought up to date at start by the migrations of
:mod:`handfoot.web.migrations`.

Only one server process may use a SQLite file: several would each keep their own tables
in memory (see :mod:`handfoot.web.tables`); ``handfoot serve`` refuses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final, NamedTuple

import platformdirs
from sqlalchemy import (
    Table,
    bindparam,
    delete,
    event,
    func,
    insert,
    make_url,
    select,
    text,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from handfoot.web import migrations
from handfoot.web.schema import (
    bot_leases as bot_leases,
)
from handfoot.web.schema import (
    club_games as club_games,
)
from handfoot.web.schema import (
    club_invites as club_invites,
)
from handfoot.web.schema import (
    club_members as club_members,
)
from handfoot.web.schema import (
    club_rules as club_rules,
)
from handfoot.web.schema import (
    club_tournament_games as club_tournament_games,
)
from handfoot.web.schema import (
    club_tournaments as club_tournaments,
)
from handfoot.web.schema import (
    clubs as clubs,
)
from handfoot.web.schema import (
    continues as continues,
)
from handfoot.web.schema import (
    daily_results as daily_results,
)
from handfoot.web.schema import (
    games as games,
)
from handfoot.web.schema import (  # the tables, re-exported for the modules that keep each
    metadata as metadata,
)
from handfoot.web.schema import (
    moves as moves,
)
from handfoot.web.schema import (
    notice_seats as notice_seats,
)
from handfoot.web.schema import (
    player_keys as player_keys,
)
from handfoot.web.schema import (
    player_links as player_links,
)
from handfoot.web.schema import (
    player_pushes as player_pushes,
)
from handfoot.web.schema import (
    player_ratings as player_ratings,
)
from handfoot.web.schema import (
    players as players,
)
from handfoot.web.schema import (
    presence as presence,
)
from handfoot.web.schema import (
    push_subscriptions as push_subscriptions,
)
from handfoot.web.schema import (
    rated_games as rated_games,
)
from handfoot.web.schema import (
    reviews as reviews,
)
from handfoot.web.schema import (
    score_rounds as score_rounds,
)
from handfoot.web.schema import (
    score_sheets as score_sheets,
)
from handfoot.web.schema import (
    seat_players as seat_players,
)
from handfoot.web.schema import (
    seats as seats,
)
from handfoot.web.schema import (
    server_secrets as server_secrets,
)
from handfoot.web.schema import (
    talk as talk,
)
from handfoot.web.schema import (
    turns as turns,
)
from handfoot.web.sqlite_writer import LoopWriter, datetime_writer

__all__ = ["CHANNEL", "GameRow", "MoveConflict", "MoveRow", "SeatRow", "Store",
           "StoreUnavailable", "TalkRow", "async_database_url", "default_database_url",
           "is_outage", "log_failure", "move_payload", "read_move_payload", "token_hash"]

CHANNEL: Final = "handfoot"
"""The PostgreSQL NOTIFY channel: payload ``"<kind> <game id>[ <seq>[ <move>]]"``, kind ``m``
(a move; its seq and, as JSON, the move itself: see :func:`move_payload`), ``c`` (a
Continue press), ``s`` (the game's settings: a rematch, the talk settings), ``p`` (who is
connected where) or ``t`` (a reaction or chat message: ``"t <game> <JSON>"``, see
:meth:`Store.add_talk`)."""

MAX_PAYLOAD: Final = 7000
"""A move's notification carries the move only below this length (PostgreSQL's limit on
a payload is 8,000 bytes); a longer one is read from the table of moves."""

PRESENCE_STALE: Final = 12.0
"""Seconds after which a process's presence rows no longer count (it stopped refreshing
them, every :data:`handfoot.web.tables.HEARTBEAT_EVERY` seconds: it died)."""

BOT_LEASE: Final = 10.0
"""Seconds a process's lease on playing a game's bots lasts unless renewed (it renews
every :data:`handfoot.web.tables.HEARTBEAT_EVERY` seconds while it has connections to the
game); then another process may take it over."""


def move_payload(game_id: str, move: MoveRow) -> str:
    """The notification of a stored move: ``"m <game> <seq> [round, seat, by, request id,
    notation]"`` (so another process plays it without reading it back), or without the
    move when that would be too long."""
    data = json.dumps([move.round, move.seat, move.by, move.request_id, move.notation],
                      separators=(",", ":"))
    payload = f"m {game_id} {move.seq} {data}"
    return payload if len(payload.encode()) <= MAX_PAYLOAD else f"m {game_id} {move.seq}"


def read_move_payload(seq: int, data: str) -> MoveRow | None:
    """The move a notification carries (the JSON of :func:`move_payload`), or None when
    it carries none or something unexpected (then the move is read from the table)."""
    try:
        rnd, seat, by, request_id, notation = json.loads(data)
    except (ValueError, TypeError):
        return None
    if not (isinstance(rnd, int) and isinstance(seat, int) and isinstance(by, str)
            and isinstance(notation, str) and (request_id is None
                                               or isinstance(request_id, str))):
        return None
    return MoveRow(seq, rnd, seat, notation, by, request_id)


PG_MOVE_CONNECTIONS: Final = 8
"""PostgreSQL: the connections of a process's pool for storing moves."""

SETTLE_AT_ONCE: Final = 8
"""The moves of a committed group let go on in one turn of the event loop (each then plays
and sends its states in that turn, about 0.2-0.3 ms a move), the next ones in the next: a
group of a hundred (a thousand tables moving in step) does not hold every other
connection's frames (a ping, another table's move) for 30 ms (benchmarks/burst.py)."""

_ADD_MOVE_PG: Final = """
WITH m AS (INSERT INTO moves (game, seq, round, seat, notation, "by", request_id, created)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING seq),
     g AS (UPDATE games SET updated = $8, status = COALESCE($9, status) WHERE id = $1)
SELECT pg_notify($10, $11) FROM m
"""


async def _keep_session(_connection: Any) -> None:
    """A connection of the moves' pool needs no reset when it goes back to the pool."""


class MoveConflict(Exception):
    """Another writer (server process) committed this seq first: catch up, then decide."""


def log_failure(logger: logging.Logger, message: str, *args: object) -> None:
    """Log the exception being handled: one warning line for a database outage
    (:func:`is_outage`: the next try may work), the whole traceback for anything else."""
    exc = sys.exc_info()[1]
    if exc is not None and is_outage(exc):
        logger.warning(message + " (the database did not answer: %s)", *args,
                       type(exc).__name__)
    else:
        logger.exception(message, *args)


class StoreUnavailable(Exception):
    """The database did not answer (an outage: see :func:`is_outage`) after a few tries;
    nothing was stored."""


def is_outage(exc: BaseException) -> bool:
    """Whether an error from the database is an outage (no connection, the server shutting
    down or refusing connections, a pool that waited too long) rather than a bug: the
    request may be tried again once the database is back.

    >>> from sqlalchemy.exc import OperationalError
    >>> is_outage(OperationalError("SELECT 1", {}, ConnectionRefusedError()))
    True
    >>> is_outage(ValueError("a bug"))
    False
    """
    if isinstance(exc, (OSError, TimeoutError, sa_exc.OperationalError, sa_exc.InterfaceError,
                        sa_exc.TimeoutError, sa_exc.DisconnectionError)):
        return True
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True
    try:
        from asyncpg import exceptions as pg
    except ImportError:  # pragma: no cover (asyncpg comes with the web extra)
        return False
    outage = (pg.PostgresConnectionError, pg.InterfaceError, pg.OperatorInterventionError,
              pg.TooManyConnectionsError, pg.InternalClientError)
    # (InternalClientError: asyncpg's own state gone wrong as the server shuts down)
    orig = getattr(exc, "orig", None)  # under SQLAlchemy's error: its cause
    return isinstance(exc, outage) or isinstance(getattr(orig, "__cause__", None), outage)


def default_database_url() -> str:
    """``sqlite+aiosqlite`` at ``platformdirs.user_data_dir("handfoot")/handfoot.db``."""
    folder = Path(platformdirs.user_data_dir("handfoot"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'handfoot.db'}"


def async_database_url(url: str) -> str:
    """The async driver's URL: ``postgresql://`` (or ``postgres://``) runs on asyncpg and
    ``sqlite://`` on aiosqlite; a URL naming its driver is kept as it is.

    >>> async_database_url("postgresql://hf@db.example/handfoot")
    'postgresql+asyncpg://hf@db.example/handfoot'
    >>> async_database_url("sqlite:///games.db")
    'sqlite+aiosqlite:///games.db'
    """
    for plain, driver in (("postgresql://", "postgresql+asyncpg://"),
                          ("postgres://", "postgresql+asyncpg://"),
                          ("sqlite://", "sqlite+aiosqlite://")):
        if url.startswith(plain):
            return driver + url[len(plain):]
    return url


def token_hash(token: str) -> str:
    """How a token is stored: its SHA-256, hex (a token is 256 random bits, so no salt)."""
    return hashlib.sha256(token.encode()).hexdigest()


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str
    """``"human"`` or ``"bot"``."""
    level: str | None
    name: str
    token_hash: str | None = None


class MoveRow(NamedTuple):
    """A stored move (a named tuple: a restore makes one for every move of the game, and a
    tuple is made four times as fast as a frozen dataclass)."""

    seq: int
    round: int
    seat: int
    notation: str
    by: str
    request_id: str | None


class StoredSince(NamedTuple):
    """:meth:`Store.stored_since`: what other processes may have stored for a game."""

    moves: list[MoveRow]
    continued: set[tuple[int, int]]
    game: GameRow | None
    presence: set[int]


class TalkRow(NamedTuple):
    """A reaction or chat message at a table (``id`` 0 until stored)."""

    id: int
    seq: int
    seat: int | None
    name: str
    preset: str | None
    text: str | None
    created: datetime


@dataclass(frozen=True, slots=True)
class GameRow:
    id: str
    profile: str
    overrides: Mapping[str, Any]
    layout: str
    settings: Mapping[str, Any]
    seed: int
    spectator_hash: str
    status: str
    created: datetime
    updated: datetime
    seats: tuple[SeatRow, ...] = ()


class Store:
    """The database of a server; every method is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = async_database_url(url)
        # SQLite: one connection, so writers queue in order here instead of polling the
        # file's lock (under load its busy handler's backoff gave seconds of latency and
        # "database is locked" errors); a single process uses a SQLite file anyway
        single = make_url(self.url).get_backend_name() == "sqlite" and \
            make_url(self.url).database not in (None, "", ":memory:")
        # PostgreSQL: connections kept rather than opened per burst (an overflow
        # connection, closed once returned, cost a new connection and backend each time),
        # each checked at its checkout (the joins, loads and moves go through asyncpg's own
        # pool: a restart of the database may be seen only there, and the next request
        # through SQLAlchemy would have met a dead connection)
        pooling = {"pool_size": 1, "max_overflow": 0, "pool_timeout": 300} if single else \
            {"pool_size": 10, "max_overflow": 5, "pool_pre_ping": True} \
            if make_url(self.url).get_backend_name() == "postgresql" else {}
        self.engine: AsyncEngine = create_async_engine(self.url, **pooling)
        self.shared = self.engine.dialect.name == "postgresql"
        """Whether several server processes may use this database (PostgreSQL): then every
        change is announced on :data:`CHANNEL`."""
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._group: _GroupCommit | None = _GroupCommit(self.engine, self) if single else None
        """SQLite: the moves of every table committed together (see :class:`_GroupCommit`)."""
        self._pg_group: _PgGroupCommit | None = _PgGroupCommit(self.engine, self) \
            if self.shared else None
        """PostgreSQL: the moves of every table committed together (see
        :class:`_PgGroupCommit`)."""
        self._pg_pool: Any = None
        """PostgreSQL: asyncpg's own pool for storing moves (see :class:`_PgGroupCommit`):
        the move, the game's ``updated`` (and status) and the notification in one statement
        (one round trip with asyncpg's prepared statement; through SQLAlchemy a move took
        five: BEGIN, INSERT, UPDATE, NOTIFY, COMMIT)."""
        self._pg_pool_lock = asyncio.Lock()
        self.on_commit: Callable[[float], None] | None = None
        """Told the seconds each commit of moves took (the server's metrics)."""

    @property
    def kind(self) -> str:
        """The database's kind: ``"sqlite"`` or ``"postgresql"``."""
        return str(self.engine.dialect.name)

    async def ping(self) -> None:
        """Ask the database something (``SELECT 1``): raises if it does not answer."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    def _committed(self, started: float) -> None:
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - started)

    async def start(self) -> list[str]:
        """Bring the schema up to date (see :mod:`handfoot.web.migrations`); the revisions
        applied."""
        async with self.engine.begin() as conn:
            return await conn.run_sync(migrations.upgrade)

    def listen_dsn(self) -> str:
        """The plain ``postgresql://`` address for a listening connection of its own."""
        return make_url(self.url).set(drivername="postgresql").render_as_string(
            hide_password=False)

    async def _notify(self, conn: AsyncConnection, *payload: object) -> None:
        """Announce a change when the transaction commits (PostgreSQL only)."""
        if self.shared:
            await conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                               {"channel": CHANNEL, "payload": " ".join(map(str, payload))})

    async def close(self) -> None:
        for group in (self._group, self._pg_group):
            if group is not None:
                await group.close()
        if self._pg_pool is not None:
            pool, self._pg_pool = self._pg_pool, None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pool.close(), 5.0)
        await self.engine.dispose()

    # -- games ----------------------------------------------------------------------------

    async def create_game(self, game: GameRow, *, also: Mapping[Table, Mapping[str, Any]]
                          | None = None) -> None:
        """Store a new game; with ``also``, rows of other tables in the same transaction
        (a row that breaks a constraint makes none of it: ``IntegrityError``)."""
        async with self.engine.begin() as conn:
            await _insert_game(conn, game)
            for table, values in (also or {}).items():
                await conn.execute(insert(table).values(**values))

    async def create_rematch(self, of: str, game: GameRow) -> str:
        """Make ``game`` the rematch of game ``of`` unless it already has one: the id of
        the rematch (``game``'s, or the one made first). The old game's row is locked
        while this is decided, so two processes pressing Rematch at once make one game."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(games.c.settings).where(games.c.id == of)
                                      .with_for_update())).first()
            if row is None:
                raise KeyError(of)
            known = (row.settings or {}).get("rematch")
            if isinstance(known, str):
                return known
            await _insert_game(conn, game)
            await conn.execute(update(games).where(games.c.id == of).values(
                settings={**row.settings, "rematch": game.id}))
            await self._notify(conn, "s", of)
        return game.id

    # -- which process plays a game's bots (shared databases only) ------------------------

    async def claim_bots(self, worker: str, game_ids: Iterable[str]) -> set[str]:
        """Take or renew, for :data:`BOT_LEASE` seconds, the lease on playing the bots of
        each game: granted where nobody holds it, ``worker`` holds it, or its holder let
        it run out (that process died or stopped renewing); the games ``worker`` now
        holds."""
        ids = sorted(set(game_ids))
        if not ids:
            return set()
        stamp = now()
        until = stamp + timedelta(seconds=BOT_LEASE)
        async with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":  # one statement, whatever the number
                rows = (await conn.execute(_CLAIM_PG, {
                    "games": ids, "worker": worker, "now": stamp, "until": until})).all()
                return {str(r.game) for r in rows}
            await conn.execute(update(bot_leases).where(
                bot_leases.c.game.in_(ids),
                (bot_leases.c.worker == worker) | (bot_leases.c.expires < stamp))
                .values(worker=worker, expires=until))
            new = _upsert(conn, bot_leases).values(
                [{"game": g, "worker": worker, "expires": until} for g in ids])
            await conn.execute(new.on_conflict_do_nothing(index_elements=["game"]))
            rows = (await conn.execute(select(bot_leases.c.game).where(
                bot_leases.c.game.in_(ids), bot_leases.c.worker == worker))).all()
        return {str(r.game) for r in rows}

    async def release_bots(self, worker: str, game_ids: Iterable[str] | None = None) -> None:
        """Give up the leases ``worker`` holds on these games (None: on every game)."""
        where = bot_leases.c.worker == worker
        if game_ids is not None:
            ids = sorted(set(game_ids))
            if not ids:
                return
            where = where & bot_leases.c.game.in_(ids)
        async with self.engine.begin() as conn:
            await conn.execute(delete(bot_leases).where(where))

    async def bot_lease(self, game_id: str) -> str | None:
        """The process that holds the lease on a game's bots now (None: nobody)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(bot_leases.c.worker).where(
                bot_leases.c.game == game_id, bot_leases.c.expires >= now()))).first()
        return None if row is None else str(row.worker)



    async def game(self, game_id: str) -> GameRow | None:
        async with self.engine.connect() as conn:
            return await _game(conn, game_id)

    # -- game reviews ---------------------------------------------------------------------

    async def review(self, game_id: str, seat: int) -> dict[str, Any] | None:
        """A seat's review row: ``status``, ``done``, ``total``, ``data``, ``updated``."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(reviews).where(
                reviews.c.game == game_id, reviews.c.seat == seat))).first()
        if row is None:
            return None
        return {"status": row.status, "done": row.done, "total": row.total, "data": row.data,
                "updated": row.updated}

    async def claim_review(self, game_id: str, seat: int, total: int,
                           stale: timedelta) -> bool:
        """Mark a seat's review as being computed here; False when it is done or another
        process is computing it (its row updated within ``stale``)."""
        try:
            async with self.engine.begin() as conn:
                row = (await conn.execute(select(reviews.c.status, reviews.c.updated).where(
                    reviews.c.game == game_id, reviews.c.seat == seat))).first()
                if row is None:
                    await conn.execute(insert(reviews).values(
                        game=game_id, seat=seat, status="running", done=0, total=total,
                        data=None, updated=now()))
                    return True
                if row.status == "done" or (row.status == "running"
                                            and row.updated > now() - stale):
                    return False
                result = await conn.execute(update(reviews).where(
                    reviews.c.game == game_id, reviews.c.seat == seat,
                    reviews.c.updated == row.updated).values(
                    status="running", done=0, total=total, data=None, updated=now()))
                return bool(result.rowcount)
        except IntegrityError:
            return False  # another process made the row meanwhile

    async def review_progress(self, game_id: str, seat: int, done: int) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(reviews).where(
                reviews.c.game == game_id, reviews.c.seat == seat,
                reviews.c.status == "running").values(done=done, updated=now()))

    async def finish_review(self, game_id: str, seat: int, data: dict[str, Any] | None,
                            ) -> None:
        """Keep a computed review (``data``), or mark it failed (None)."""
        async with self.engine.begin() as conn:
            values: dict[str, Any] = {"status": "done" if data is not None else "failed",
                                      "data": data, "updated": now()}
            if data is not None:
                values["done"] = reviews.c.total
            await conn.execute(update(reviews).where(
                reviews.c.game == game_id, reviews.c.seat == seat).values(**values))

    async def load(self, game_id: str,
                   ) -> tuple[GameRow, list[MoveRow], set[tuple[int, int]]] | None:
        """A game, its moves and its Continue presses (:meth:`game`, :meth:`moves` and
        :meth:`continues` on one connection, as a restore needs them), or None."""
        async with self.engine.connect() as conn:
            if self.engine.dialect.name == "sqlite":
                driver = (await conn.get_raw_connection()).driver_connection
                run, sqlite = getattr(driver, "_execute", None), getattr(driver, "_conn", None)
                if run is not None and isinstance(sqlite, sqlite3.Connection):
                    # the game's row through SQLAlchemy (its JSON and dates), the rest in
                    # one call on aiosqlite's thread (a hop and SQLAlchemy's rows per query
                    # were a third of reading a game: 1.5 against 2.5 ms)
                    row = (await conn.execute(select(games).where(games.c.id == game_id))
                           ).first()
                    if row is None:
                        return None
                    seat_rows, move_rows, continued = await run(_read_game, sqlite, game_id)
                    return _game_row(row, seat_rows), move_rows, continued
            game = await _game(conn, game_id)
            if game is None:
                return None
            return game, await _moves(conn, game_id), await _continues(conn, game_id)

    async def set_setting(self, game_id: str, key: str, value: Any) -> None:
        """Set one key of a game's settings (such as ``rematch``, the game that follows)."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(games.c.settings)
                                      .where(games.c.id == game_id).with_for_update())).first()
            if row is None:
                return
            settings = {**row.settings, key: value}
            await conn.execute(update(games).where(games.c.id == game_id)
                               .values(settings=settings))
            await self._notify(conn, "s", game_id)

    async def settings(self, game_id: str) -> Mapping[str, Any] | None:
        """A game's settings as stored now (None: no such game)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(games.c.settings)
                                      .where(games.c.id == game_id))).first()
        return None if row is None else dict(row.settings)

    async def moves(self, game_id: str, after: int = 0) -> list[MoveRow]:
        """A game's moves in order; only those with a seq above ``after`` if given."""
        async with self.engine.connect() as conn:
            return await _moves(conn, game_id, after)

    async def last_seqs(self, game_ids: Iterable[str]) -> dict[str, int]:
        """The seq of each game's last move (a game without moves is left out)."""
        ids = list(game_ids)
        if not ids:
            return {}
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(moves.c.game, func.max(moves.c.seq))
                                       .where(moves.c.game.in_(ids))
                                       .group_by(moves.c.game))).all()
        return {str(game): int(seq) for game, seq in rows}

    async def add_move(self, game_id: str, move: MoveRow, *, status: str | None = None,
                       ) -> datetime:
        """Commit one move (and the game's new status, when it ends); the time stored as
        the game's ``updated``. A second move with the same sequence number raises
        :class:`MoveConflict` and changes nothing: two writers can never both commit a
        move."""
        stamp = now()
        if self._group is not None:
            await self._group.add(game_id, move, status, stamp)
            return stamp
        if self._pg_group is not None:
            await self._pg_group.add(game_id, move, status, stamp)
            return stamp
        started = time.perf_counter()
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(moves).values(
                    game=game_id, seq=move.seq, round=move.round, seat=move.seat,
                    notation=move.notation, by=move.by, request_id=move.request_id,
                    created=stamp))
                values: dict[str, Any] = {"updated": stamp}
                if status is not None:
                    values["status"] = status
                await conn.execute(update(games).where(games.c.id == game_id)
                                   .values(**values))
                if self.shared:
                    await self._notify(conn, move_payload(game_id, move))
        except IntegrityError:
            raise MoveConflict(f"game {game_id}: move {move.seq} is already stored") from None
        self._committed(started)
        return stamp

    async def _move_pool(self) -> Any:
        """PostgreSQL: asyncpg's pool for storing moves (made at the first move)."""
        import asyncpg

        if self._pg_pool is None:
            async with self._pg_pool_lock:
                if self._pg_pool is None:
                    # no reset on release (by default a query of its own each time): the
                    # statement changes nothing in the session
                    self._pg_pool = await asyncpg.create_pool(
                        self.listen_dsn(), min_size=1, max_size=PG_MOVE_CONNECTIONS,
                        reset=_keep_session)
        return self._pg_pool

    async def direct(self) -> Any:
        """PostgreSQL: asyncpg's own pool, the moves' (see :mod:`handfoot.web.pg_direct`)."""
        return await self._move_pool()

    async def continues(self, game_id: str) -> set[tuple[int, int]]:
        """The (round, seat) pairs whose Continue was pressed."""
        async with self.engine.connect() as conn:
            return await _continues(conn, game_id)

    async def add_continue(self, game_id: str, round_number: int, seat: int) -> None:
        """Note a Continue press (a second press, from any process, changes nothing)."""
        try:
            async with self.engine.begin() as conn:
                exists = (await conn.execute(select(continues.c.seat).where(
                    continues.c.game == game_id, continues.c.round == round_number,
                    continues.c.seat == seat))).first()
                if exists is None:
                    await conn.execute(insert(continues).values(
                        game=game_id, round=round_number, seat=seat))
                    await self._notify(conn, "c", game_id)
        except IntegrityError:
            pass  # another process stored the same press meanwhile

    # -- talk at the table -------------------------------------------------------------------

    async def add_talk(self, game_id: str, row: TalkRow,
                       notice: Callable[[TalkRow], str] | None = None) -> TalkRow:
        """Store a reaction or chat message; the row with its id. On a shared database it
        is announced as ``"t <game> <notice(row)>"`` (a few hundred bytes: see
        :meth:`handfoot.web.talk.TableTalk.heard`)."""
        async with self.engine.begin() as conn:
            result = await conn.execute(insert(talk).values(
                game=game_id, seq=row.seq, seat=row.seat, name=row.name, preset=row.preset,
                text=row.text, created=row.created).returning(talk.c.id))
            stored = row._replace(id=int(result.scalar_one()))
            if self.shared and notice is not None:
                await self._notify(conn, "t", game_id, notice(stored))
        return stored

    async def talk(self, game_id: str, *, last: int | None = None) -> list[TalkRow]:
        """A game's reactions and chat, oldest first (only the ``last`` ones if given)."""
        query = select(talk.c.id, talk.c.seq, talk.c.seat, talk.c.name, talk.c.preset,
                       talk.c.text, talk.c.created).where(talk.c.game == game_id)
        if last is not None:
            query = query.order_by(talk.c.id.desc()).limit(last)
        async with self.engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection \
                if conn.dialect.name == "sqlite" else None
            run, sqlite = getattr(driver, "_execute", None), getattr(driver, "_conn", None)
            if run is not None and isinstance(sqlite, sqlite3.Connection):
                # one call on aiosqlite's thread (every table's load reads its talk: through
                # SQLAlchemy, four hops to the thread and back)
                read = talk.c.created.type.dialect_impl(conn.dialect).result_processor(
                    conn.dialect, None)
                rows = [TalkRow._make((*r[:6], read(r[6]) if read is not None else r[6]))
                        for r in await run(_read_talk, sqlite, game_id, last)]
            else:
                rows = [TalkRow._make(r) for r in (await conn.execute(query)).all()]
        return sorted(rows, key=lambda r: r.id)

    # -- presence across processes (shared databases only) ----------------------------------

    async def set_presence(self, worker: str, game_id: str, seats: Iterable[int]) -> None:
        """The seats of a game that ``worker`` (a server process) has connections for."""
        stamp = now()
        async with self.engine.begin() as conn:
            await conn.execute(delete(presence).where(presence.c.game == game_id,
                                                      presence.c.worker == worker))
            rows = [{"game": game_id, "seat": s, "worker": worker, "seen": stamp}
                    for s in sorted(set(seats))]
            if rows:
                await conn.execute(insert(presence), rows)
            await self._notify(conn, "p", game_id)

    async def stored_since(self, game_id: str, *, after: int, besides: str) -> StoredSince:
        """What other processes may have stored for a game, read on one connection (a
        table just loaded, or a lost listening connection, catches up with all of it): the
        moves after ``after``, the Continue presses, the game (its seats' names, its
        settings) and the seats connected to live processes other than ``besides``."""
        fresh = now() - timedelta(seconds=PRESENCE_STALE)
        async with self.engine.connect() as conn:
            seats = {int(r.seat) for r in (await conn.execute(select(presence.c.seat).where(
                presence.c.game == game_id, presence.c.worker != besides,
                presence.c.seen >= fresh))).all()}
            return StoredSince(await _moves(conn, game_id, after),
                               await _continues(conn, game_id), await _game(conn, game_id),
                               seats)

    async def presence(self, game_id: str, *, besides: str) -> set[int]:
        """The seats of a game connected to live processes other than ``besides``."""
        fresh = now() - timedelta(seconds=PRESENCE_STALE)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(presence.c.seat).where(
                presence.c.game == game_id, presence.c.worker != besides,
                presence.c.seen >= fresh))).all()
        return {int(r.seat) for r in rows}

    async def presences(self, game_ids: Iterable[str], *, besides: str,
                        ) -> dict[str, set[int]]:
        """:meth:`presence` of several games at once (every game given is a key)."""
        ids = list(game_ids)
        found: dict[str, set[int]] = {game_id: set() for game_id in ids}
        if not ids:
            return found
        fresh = now() - timedelta(seconds=PRESENCE_STALE)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(presence.c.game, presence.c.seat).where(
                presence.c.game.in_(ids), presence.c.worker != besides,
                presence.c.seen >= fresh))).all()
        for row in rows:
            found[str(row.game)].add(int(row.seat))
        return found

    async def refresh_presence(self, worker: str) -> None:
        """A process is alive: its presence rows count for :data:`PRESENCE_STALE` more
        seconds; rows of processes long dead are deleted."""
        stamp = now()
        async with self.engine.begin() as conn:
            await conn.execute(update(presence).where(presence.c.worker == worker)
                               .values(seen=stamp))
            await conn.execute(delete(presence).where(
                presence.c.seen < stamp - timedelta(seconds=10 * PRESENCE_STALE)))
            await conn.execute(delete(bot_leases).where(
                bot_leases.c.expires < stamp - timedelta(seconds=10 * BOT_LEASE)))

    async def clear_presence(self, worker: str) -> None:
        """A process stops: none of its connections count any more."""
        async with self.engine.begin() as conn:
            held = (await conn.execute(select(presence.c.game).distinct()
                                       .where(presence.c.worker == worker))).all()
            await conn.execute(delete(presence).where(presence.c.worker == worker))
            await conn.execute(delete(bot_leases).where(bot_leases.c.worker == worker))
            for row in held:
                await self._notify(conn, "p", row.game)

    # -- daily ----------------------------------------------------------------------------

    async def secret(self, name: str) -> bytes:
        """A server secret, made (256 random bits) the first time it is asked for (by
        whichever process asks first: the others read it)."""
        for _ in range(2):
            try:
                async with self.engine.begin() as conn:
                    row = (await conn.execute(select(server_secrets.c.value)
                                              .where(server_secrets.c.name == name))).first()
                    if row is not None:
                        return bytes(row.value)
                    value = secrets.token_bytes(32)
                    await conn.execute(insert(server_secrets).values(name=name, value=value))
                    return value
            except IntegrityError:
                continue  # made by another process meanwhile: read it
        raise RuntimeError(f"the server secret {name!r} could not be read or made")

    async def add_daily(self, date: str, game_id: str, name: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(insert(daily_results).values(
                date=date, game=game_id, name=name, score=None, won=None, finished=False,
                created=now()))

    async def finish_daily(self, game_id: str, score: int, won: bool) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(daily_results).where(daily_results.c.game == game_id)
                               .values(score=score, won=won, finished=True))

    async def daily_game(self, game_id: str) -> str | None:
        """The date of a daily game, or None for another game."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(daily_results.c.date)
                                      .where(daily_results.c.game == game_id))).first()
        return None if row is None else str(row.date)

    async def leaderboard(self, date: str) -> list[dict[str, Any]]:
        """A date's results: finished games by score, best first, then unfinished ones."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(daily_results)
                                       .where(daily_results.c.date == date))).all()
        out = [{"name": r.name, "score": r.score, "won": r.won, "finished": r.finished,
                "created": r.created} for r in rows]
        out.sort(key=lambda r: (not r["finished"], -(r["score"] or 0), r["created"]))
        for r in out:
            del r["created"]
        return out


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class _GroupCommit:
    """Moves committed in groups (SQLite, one server process): each :meth:`add` returns once
    its move is committed, and every move waiting when a transaction starts goes into it.

    A transaction through SQLAlchemy and aiosqlite costs about 1-2 ms of hops to the driver's
    thread whatever it holds, so one per move capped a server near 300 moves/s; one per group
    keeps a move's wait about one transaction under any load. Still one insert per move:
    a seq stored twice fails (the group is then retried move by move, so only that move's
    sender sees :class:`MoveConflict`).
    """

    def __init__(self, engine: AsyncEngine, store: Store) -> None:
        self.engine = engine
        self.store = store
        self._stamp: Callable[[datetime], Any] | None = None
        self._direct: tuple[Callable[..., Awaitable[Any]], sqlite3.Connection] | None = None
        """SQLite: aiosqlite's way of running a function on its thread, and the pool's one
        connection, once a group has gone through the pool (see :meth:`_commit`)."""
        self._loop: LoopWriter | None = None
        """SQLite: the event loop's own connection for the groups, opened after the first
        group went through the pool (see :mod:`handfoot.web.sqlite_writer`)."""
        self._loop_tried = False
        self.waiting: list[tuple[dict[str, Any], str | None, asyncio.Future[None]]] = []
        self.wake: asyncio.Event | None = None
        self.task: asyncio.Task[None] | None = None

    async def add(self, game_id: str, move: MoveRow, status: str | None,
                  stamp: datetime) -> None:
        if self.task is None or self.task.done():
            self.wake = asyncio.Event()
            self.task = asyncio.create_task(self._run())
        assert self.wake is not None
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        row = {"game": game_id, "seq": move.seq, "round": move.round, "seat": move.seat,
               "notation": move.notation, "by": move.by, "request_id": move.request_id,
               "created": stamp}
        self.waiting.append((row, status, done))
        self.wake.set()
        await done

    async def _run(self) -> None:
        assert self.wake is not None
        while True:
            await self.wake.wait()
            self.wake.clear()
            group, self.waiting = self.waiting, []
            if not group:
                continue
            started = time.perf_counter()
            try:
                await self._commit(group)
                self.store._committed(started)
            except IntegrityError:
                for one in group:  # find the move stored twice
                    started = time.perf_counter()
                    try:
                        await self._commit([one])
                        self.store._committed(started)
                    except Exception as exc:
                        _settle(one[2], exc)
            except Exception as exc:
                for one in group:
                    _settle(one[2], exc)
            await _settle_by_turns(group)

    async def _commit(self, group: list[tuple[dict[str, Any], str | None,
                                              asyncio.Future[None]]]) -> None:
        latest: dict[str, dict[str, Any]] = {}
        for row, status, _ in group:
            values = latest.setdefault(row["game"], {})
            values["updated"] = row["created"]
            if status is not None:
                values["status"] = status
        if self._loop is not None and self._stamp is not None:
            # on the event loop's own connection, in this turn: no trip to a thread
            # (web/sqlite_writer.py); False: the file is locked, the group goes below
            try:
                if self._loop.commit(_commit_moves,
                                     *_sqlite_rows(group, latest, self._stamp)):
                    return
            except sqlite3.IntegrityError as exc:
                raise IntegrityError("INSERT INTO moves", None, exc) from exc
            except sqlite3.OperationalError as exc:  # as SQLAlchemy's: an outage, tried again
                raise sa_exc.OperationalError("INSERT INTO moves", None, exc) from exc
        if self._direct is not None and self._stamp is not None:
            # straight onto the pool's connection, on its thread, without checking it out:
            # a checkout and its return (a rollback: a second hop to the thread) cost more
            # CPU than SQLite's work. The call runs alone on that thread; it commits only
            # when no transaction of another user of the connection is open there (then
            # the group waits for the connection in the pool, as below).
            direct, db = self._direct
            try:
                if await direct(_commit_moves, db, *_sqlite_rows(group, latest, self._stamp),
                                True):
                    return
            except sqlite3.IntegrityError as exc:
                raise IntegrityError("INSERT INTO moves", None, exc) from exc
            except sqlite3.OperationalError as exc:  # as SQLAlchemy's: an outage, tried again
                raise sa_exc.OperationalError("INSERT INTO moves", None, exc) from exc
            except (ValueError, sqlite3.ProgrammingError):  # the connection was closed
                self._direct = None                             # (the pool let it go)
        async with self.engine.connect() as conn:
            raw = (await conn.get_raw_connection()).driver_connection
            run, sqlite = getattr(raw, "_execute", None), getattr(raw, "_conn", None)
            if run is not None and isinstance(sqlite, sqlite3.Connection):
                # the whole transaction in one call on aiosqlite's thread (its own way of
                # running a function there): a hop per statement through SQLAlchemy and
                # aiosqlite cost about 15% of the server's CPU at saturation
                stamp = self._stamp or datetime_writer(conn.dialect)
                self._stamp = stamp
                self._direct = (run, sqlite)
                if self._loop is None and not self._loop_tried:
                    self._loop_tried = True
                    self._loop = LoopWriter.open(self.engine.url.database)
                try:
                    await run(_commit_moves, sqlite, *_sqlite_rows(group, latest, stamp),
                              False)
                except sqlite3.IntegrityError as exc:
                    raise IntegrityError("INSERT INTO moves", None, exc) from exc
                except sqlite3.OperationalError as exc:
                    raise sa_exc.OperationalError("INSERT INTO moves", None, exc) from exc
                return
        async with self.engine.begin() as conn:
            await conn.execute(insert(moves), [row for row, _, _ in group])
            await conn.execute(update(games).where(games.c.id == bindparam("game_id"))
                               .values(updated=bindparam("stamp")),
                               [{"game_id": game, "stamp": values["updated"]}
                                for game, values in latest.items()])
            for game, values in latest.items():
                if "status" in values:
                    await conn.execute(update(games).where(games.c.id == game)
                                       .values(status=values["status"]))

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self._loop is not None:
            loop, self._loop = self._loop, None
            await loop.close()


class _PgGroupCommit(_GroupCommit):
    """Moves committed in groups on PostgreSQL, as :class:`_GroupCommit` does on SQLite:
    every move waiting when a commit starts goes into it, each move still acknowledged only
    once its group is committed. One group is one ``executemany`` of the one-statement
    insert (:data:`_ADD_MOVE_PG`, its notification included), pipelined in one round trip
    and atomic (asyncpg): a move stored twice fails the group, which is then tried move by
    move, so only that move's sender sees :class:`MoveConflict`. At a hundred moves a
    second and more, a commit per move and its round trip cost more CPU than the move."""

    async def _commit(self, group: list[tuple[dict[str, Any], str | None,
                                              asyncio.Future[None]]]) -> None:
        import asyncpg

        pool = await self.store._move_pool()
        args = [(r["game"], r["seq"], r["round"], r["seat"], r["notation"], r["by"],
                 r["request_id"], r["created"], status, CHANNEL,
                 move_payload(r["game"], MoveRow(r["seq"], r["round"], r["seat"],
                                                 r["notation"], r["by"], r["request_id"])))
                for r, status, _ in group]
        try:
            if len(args) == 1:
                await pool.execute(_ADD_MOVE_PG, *args[0])
            else:
                await pool.executemany(_ADD_MOVE_PG, args)
        except asyncpg.UniqueViolationError as exc:
            raise IntegrityError("INSERT INTO moves", None, exc) from exc


def _sqlite_rows(group: list[tuple[dict[str, Any], str | None, asyncio.Future[None]]],
                 latest: Mapping[str, Mapping[str, Any]], stamp: Callable[[datetime], Any],
                 ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, str | None, str]]]:
    """:func:`_commit_moves`'s rows: the moves, and each game's new ``updated`` and
    ``status``."""
    return ([(r["game"], r["seq"], r["round"], r["seat"], r["notation"], r["by"],
              r["request_id"], stamp(r["created"])) for r, _, _ in group],
            [(stamp(v["updated"]), v.get("status"), game) for game, v in latest.items()])


def _commit_moves(db: sqlite3.Connection, rows: list[tuple[Any, ...]],
                  games_now: list[tuple[Any, str | None, str]], unless_busy: bool) -> bool:
    """Store moves and their games' ``updated`` (and ``status``, where given) in one
    transaction on a SQLite connection (on its own thread); nothing if any fails. With
    ``unless_busy``, nothing either when a transaction is open on the connection (another
    user's, between two of its statements): False then, else True."""
    if unless_busy and db.in_transaction:
        return False
    db.execute("BEGIN")
    try:
        db.executemany('INSERT INTO moves (game, seq, round, seat, notation, "by", '
                       "request_id, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        db.executemany("UPDATE games SET updated = ?, status = coalesce(?, status) "
                       "WHERE id = ?", games_now)
        db.commit()
    except BaseException:
        if db.in_transaction:  # (a failed commit may leave it open)
            db.rollback()
        raise
    return True


async def _settle_by_turns(group: list[tuple[dict[str, Any], str | None,
                                            asyncio.Future[None]]]) -> None:
    """Let a committed group's moves go on (those a failure has not settled already),
    :data:`SETTLE_AT_ONCE` a turn of the event loop; all at once if cancelled meanwhile."""
    try:
        for start in range(0, len(group), SETTLE_AT_ONCE):
            if start:
                await asyncio.sleep(0)  # the moves let go run before the next ones
            for one in group[start:start + SETTLE_AT_ONCE]:
                _settle(one[2], None)
    finally:
        for one in group:
            _settle(one[2], None)


def _settle(done: asyncio.Future[None], exc: BaseException | None) -> None:
    if done.done():
        return
    if isinstance(exc, IntegrityError):
        exc = MoveConflict("this move is already stored")
    if exc is None:
        done.set_result(None)
    else:
        done.set_exception(exc)


async def _game(conn: AsyncConnection, game_id: str) -> GameRow | None:
    row = (await conn.execute(select(games).where(games.c.id == game_id))).first()
    if row is None:
        return None
    seat_rows = (await conn.execute(
        select(seats.c.seat, seats.c.kind, seats.c.level, seats.c.name, seats.c.token_hash)
        .where(seats.c.game == game_id).order_by(seats.c.seat))).all()
    return _game_row(row, seat_rows)


def _game_row(row: Any, seat_rows: Iterable[Any]) -> GameRow:
    """A game from its row and its seats' (seat, kind, level, name, token_hash)."""
    return GameRow(
        id=row.id, profile=row.profile, overrides=row.overrides, layout=row.layout,
        settings=row.settings, seed=int(row.seed), spectator_hash=row.spectator_hash,
        status=row.status, created=row.created, updated=row.updated,
        seats=tuple(SeatRow(*s) for s in seat_rows))


def _read_game(db: sqlite3.Connection, game_id: str,
               ) -> tuple[list[Any], list[MoveRow], set[tuple[int, int]]]:
    """A game's seats (as :func:`_game_row` takes them), moves and Continue presses, read
    on a SQLite connection (on its own thread)."""
    seat_rows = db.execute("SELECT seat, kind, level, name, token_hash FROM seats "
                           "WHERE game = ? ORDER BY seat", (game_id,)).fetchall()
    move_rows = list(map(MoveRow._make, db.execute(_MOVES_SQLITE, (game_id, 0))))
    continued = set(db.execute('SELECT round, seat FROM continues WHERE game = ?',
                               (game_id,)).fetchall())
    return seat_rows, move_rows, continued


def _read_talk(db: sqlite3.Connection, game_id: str, last: int | None) -> list[Any]:
    """:meth:`Store.talk`'s rows, read on a SQLite connection (on its own thread)."""
    return db.execute("SELECT id, seq, seat, name, preset, text, created FROM talk "
                      "WHERE game = ? ORDER BY id DESC LIMIT ?",
                      (game_id, -1 if last is None else last)).fetchall()


async def _moves(conn: AsyncConnection, game_id: str, after: int = 0) -> list[MoveRow]:
    fetch = getattr((await conn.get_raw_connection()).driver_connection, "execute_fetchall",
                    None) if conn.dialect.name == "sqlite" else None
    if fetch is not None:
        # aiosqlite's own fetch of plain tuples, without SQLAlchemy's rows: a restore reads
        # every move of its game (1.2 against 1.7 ms for a four-round game)
        rows: Any = await fetch(_MOVES_SQLITE, (game_id, after))
    else:
        # the columns in MoveRow's order, made into MoveRows from the rows as tuples: half
        # the time of reading each by name (3 against 6.5 ms for a four-round game)
        query = select(moves.c.seq, moves.c.round, moves.c.seat, moves.c.notation,
                       moves.c.by, moves.c.request_id).where(moves.c.game == game_id)
        if after:
            query = query.where(moves.c.seq > after)
        rows = (await conn.execute(query.order_by(moves.c.seq))).all()
    # MoveRow a named tuple: 0.2 against 0.8 ms for the rows of a four-round game
    return list(map(MoveRow._make, rows))


_MOVES_SQLITE: Final = ('SELECT seq, round, seat, notation, "by", request_id FROM moves '
                        "WHERE game = ? AND seq > ? ORDER BY seq")
""":func:`_moves` on SQLite, through the driver."""


async def _continues(conn: AsyncConnection, game_id: str) -> set[tuple[int, int]]:
    rows = (await conn.execute(select(continues.c.round, continues.c.seat)
                               .where(continues.c.game == game_id))).all()
    return {(r.round, r.seat) for r in rows}


async def _insert_game(conn: AsyncConnection, game: GameRow) -> None:
    await conn.execute(insert(games).values(
        id=game.id, profile=game.profile, overrides=dict(game.overrides),
        layout=game.layout, settings=dict(game.settings), seed=str(game.seed),
        spectator_hash=game.spectator_hash, status=game.status,
        created=game.created, updated=game.updated))
    await conn.execute(insert(seats), [
        {"game": game.id, "seat": s.seat, "kind": s.kind, "level": s.level,
         "name": s.name, "token_hash": s.token_hash} for s in game.seats])


_CLAIM_PG: Final = text(
    "INSERT INTO bot_leases (game, worker, expires) "
    "SELECT g, :worker, :until FROM unnest(CAST(:games AS VARCHAR[])) AS g "
    "ON CONFLICT (game) DO UPDATE SET worker = EXCLUDED.worker, expires = EXCLUDED.expires "
    "WHERE bot_leases.worker = EXCLUDED.worker OR bot_leases.expires < :now "
    "RETURNING game")
""":meth:`Store.claim_bots` on PostgreSQL: take or renew every lease that is free, ours
or lapsed, in one statement (a row it does not update is not returned)."""


def _upsert(conn: AsyncConnection, table: Table) -> Any:
    """An ``INSERT`` of the connection's dialect (PostgreSQL's or SQLite's: both have
    ``on_conflict_do_nothing``)."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert
        return pg_insert(table)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert
    return sqlite_insert(table)
