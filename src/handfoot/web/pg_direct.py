"""What joining a table reads and writes on PostgreSQL, straight through asyncpg (the pool
:class:`~handfoot.web.store.Store` stores moves with), one statement each.

Through SQLAlchemy a table's load on a shared database was sixteen round trips on three
pooled connections (the game, its seats, moves and Continue presses; its talk; then the
catch-up: presence, moves, Continue presses, game and seats again, each with its ``BEGIN``
and ``ROLLBACK``), and each burst of joins at a table a transaction of five (``BEGIN``,
``DELETE``, ``INSERT``, ``NOTIFY``, ``COMMIT``) to store the process's presence, and one
more of three in every other process to read it. Here:

- :func:`load_games` reads games, their seats, moves, Continue presses, latest talk and the
  seats connected to other live processes in one statement (one snapshot), and
  :class:`GameLoads` gathers the loads asked for while one is on its way into the next
  statement (a burst of joins loads its tables a few dozen a statement, on one pooled
  connection, so that the moves' commits on the same pool do not queue behind a load a
  table), and hands a statement's games over a few a turn of the event loop;
- :func:`write_presences` stores this process's presence at every table whose
  connections changed in one event-loop turn, with their notifications, in one statement;
- :func:`read_presences` reads the presence elsewhere of every table heard of in one turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any, Final, NamedTuple

from handfoot.web.store import (
    CHANNEL,
    PRESENCE_STALE,
    GameRow,
    MoveRow,
    SeatRow,
    TalkRow,
    now,
)

__all__ = ["LOAD_AT_ONCE", "SETTLE_LOADS_AT_ONCE", "GameLoads", "Loaded", "load_game",
           "load_games", "read_presences", "write_presences"]


class Loaded(NamedTuple):
    """A game as :func:`load_game` read it."""

    game: GameRow
    moves: list[MoveRow]
    continued: set[tuple[int, int]]
    talk: list[TalkRow]
    """The latest talk, oldest first."""
    presence: set[int]
    """The seats connected to live processes other than the reader."""


_LOAD: Final = """
SELECT g.id, g.profile, g.overrides::text AS overrides, g.layout, g.settings::text AS settings,
       g.seed, g.spectator_hash, g.status, g.created, g.updated,
       ARRAY(SELECT ROW(s.seat, s.kind, s.level, s.name, s.token_hash) FROM seats s
             WHERE s.game = g.id ORDER BY s.seat) AS seats,
       ARRAY(SELECT ROW(m.seq, m.round, m.seat, m.notation, m."by", m.request_id) FROM moves m
             WHERE m.game = g.id ORDER BY m.seq) AS moves,
       ARRAY(SELECT ROW(c.round, c.seat) FROM continues c WHERE c.game = g.id) AS continued,
       ARRAY(SELECT ROW(t.id, t.seq, t.seat, t.name, t.preset, t.text, t.created) FROM talk t
             WHERE t.game = g.id ORDER BY t.id DESC LIMIT $2) AS talk,
       ARRAY(SELECT DISTINCT p.seat FROM presence p
             WHERE p.game = g.id AND p.worker <> $3 AND p.seen >= $4) AS presence
FROM games g WHERE g.id = ANY($1::varchar[])
"""


async def load_game(pool: Any, game_id: str, *, talk: int, besides: str) -> Loaded | None:
    """A game, its seats, moves, Continue presses, its last ``talk`` reactions and messages
    and the seats connected to live processes other than ``besides``, as one statement
    sees them (None: no such game). ``pool`` is asyncpg's."""
    return (await load_games(pool, [game_id], talk=talk, besides=besides)).get(game_id)


async def load_games(pool: Any, game_ids: Iterable[str], *, talk: int, besides: str,
                     ) -> dict[str, Loaded]:
    """:func:`load_game` of many games in one statement (one snapshot): those found."""
    rows = await pool.fetch(_LOAD, list(game_ids), talk, besides,
                            now() - timedelta(seconds=PRESENCE_STALE))
    return {row["id"]: _loaded(row) for row in rows}


def _loaded(row: Any) -> Loaded:
    game = GameRow(
        id=row["id"], profile=row["profile"], overrides=json.loads(row["overrides"]),
        layout=row["layout"], settings=json.loads(row["settings"]), seed=int(row["seed"]),
        spectator_hash=row["spectator_hash"], status=row["status"], created=row["created"],
        updated=row["updated"], seats=tuple(SeatRow(*s) for s in row["seats"]))
    return Loaded(game, list(map(MoveRow._make, row["moves"])),
                  {(int(r), int(s)) for r, s in row["continued"]},
                  [TalkRow._make(t) for t in reversed(row["talk"])],
                  {int(s) for s in row["presence"]})


LOAD_AT_ONCE: Final = 64
"""The most games :class:`GameLoads` reads in one statement."""


class GameLoads:
    """Games loaded in groups (:func:`load_games`): the loads asked for while a statement
    is on its way, and those asked for in the same turn of the event loop as the first,
    go into the next statement, :data:`LOAD_AT_ONCE` at most; one statement at a time, so
    that a burst of joins holds one pooled connection, not all of them (the moves'
    commits use the same pool). One load alone waits for nothing but a turn. The games a
    statement read go on :data:`SETTLE_LOADS_AT_ONCE` a turn, while the next statement is
    on its way."""

    def __init__(self, pool: Callable[[], Awaitable[Any]], *, talk: int,
                 besides: str) -> None:
        self._pool = pool
        self.talk = talk
        self.besides = besides
        self._due: dict[str, list[asyncio.Future[Loaded | None]]] = {}
        self._loader: asyncio.Task[None] | None = None
        self._settling: set[asyncio.Task[None]] = set()
        self.statements = 0
        """The statements made so far (for tests and measuring)."""
        self.at_once = LOAD_AT_ONCE
        """The most games one statement reads."""

    async def load(self, game_id: str) -> Loaded | None:
        """:func:`load_game` of ``game_id``, with the other games due."""
        done: asyncio.Future[Loaded | None] = asyncio.get_running_loop().create_future()
        self._due.setdefault(game_id, []).append(done)
        if self._loader is None or self._loader.done():
            self._loader = asyncio.create_task(self._load_all())
        return await done

    async def _load_all(self) -> None:
        while self._due:
            ids = list(self._due)[:self.at_once]
            due = {game_id: self._due.pop(game_id) for game_id in ids}
            try:
                self.statements += 1
                found = await self.read(ids)
            except BaseException as exc:
                for waiting in due.values():
                    for done in waiting:
                        if done.done():
                            continue
                        if isinstance(exc, asyncio.CancelledError):
                            done.cancel()
                        else:
                            done.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
                continue
            # let go by turns, while the next statement is on its way
            settling = asyncio.create_task(_settle_by_turns(due, found))
            self._settling.add(settling)
            settling.add_done_callback(self._settling.discard)

    async def read(self, game_ids: list[str]) -> dict[str, Loaded]:
        """One statement's games (:func:`load_games`; on SQLite, one call on the driver's
        thread: :class:`handfoot.web.sqlite_loads.SqliteLoads`)."""
        return await load_games(await self._pool(), game_ids, talk=self.talk,
                                besides=self.besides)

    async def close(self) -> None:
        """Stop loading: the loads due (and those read but not yet handed over) are
        cancelled."""
        if self._loader is not None and not self._loader.done():
            self._loader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loader
        for settling in list(self._settling):
            settling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await settling
        for waiting in self._due.values():
            for done in waiting:
                done.cancel()
        self._due.clear()


SETTLE_LOADS_AT_ONCE: Final = 8
"""The loaded games whose tables go on (are built, their connections join and are sent their
first state) in one turn of the event loop, the next ones in the next turns: the 64 games
of one statement going on in the same turn held every other connection's frames (a move,
its commit's end, a ping) for as long as 64 tables' joins take (see :class:`GameLoads`)."""


async def _settle_by_turns(due: Mapping[str, list[asyncio.Future[Loaded | None]]],
                           found: Mapping[str, Loaded]) -> None:
    """Give each load due its game, :data:`SETTLE_LOADS_AT_ONCE` games a turn; cancelled,
    the rest are cancelled."""
    try:
        for n, (game_id, waiting) in enumerate(due.items()):
            if n and n % SETTLE_LOADS_AT_ONCE == 0:
                await asyncio.sleep(0)  # the tables let go run before the next ones
            for done in waiting:
                if not done.done():
                    done.set_result(found.get(game_id))
    finally:
        for waiting in due.values():
            for done in waiting:
                if not done.done():
                    done.cancel()


_WRITE_PRESENCE: Final = """
WITH new AS (SELECT * FROM unnest($4::varchar[], $5::int[]) AS t(game, seat)),
     gone AS (DELETE FROM presence p WHERE p.worker = $1 AND p.game = ANY($2::varchar[])
              AND NOT EXISTS (SELECT 1 FROM new WHERE new.game = p.game
                                                  AND new.seat = p.seat)),
     kept AS (INSERT INTO presence (game, seat, worker, seen)
              SELECT game, seat, $1, $3 FROM new
              ON CONFLICT (game, seat, worker) DO UPDATE SET seen = EXCLUDED.seen)
SELECT pg_notify($6, n) FROM unnest($7::text[]) AS n
"""

NOTICE_BYTES: Final = 7000
"""The longest presence notice (``P <worker> <game> <game>...``) written: PostgreSQL takes
a payload of under 8,000 bytes."""


def presence_notices(worker: str, games: Iterable[str]) -> list[str]:
    """The notices of a change of presence at ``games`` by the process ``worker``: ``P
    <worker>`` and as many games as fit in :data:`NOTICE_BYTES` each (a thousand tables'
    joins heard as a few notices, where a notice a table cost every process its handling;
    the writer knows itself and skips its own).

    >>> presence_notices("w1", ["g1", "g2"])
    ['P w1 g1 g2']
    >>> [len(n.split()) - 2 for n in presence_notices("w1", [f"game{i:018d}" for i in range(600)])]
    [304, 296]
    """
    out: list[str] = []
    head = f"P {worker}"
    notice = head
    for game in games:
        if len(notice) + 1 + len(game) > NOTICE_BYTES and notice != head:
            out.append(notice)
            notice = head
        notice += f" {game}"
    if notice != head:
        out.append(notice)
    return out


async def write_presences(pool: Any, worker: str, seats: Mapping[str, Iterable[int]],
                          when: datetime | None = None) -> None:
    """Store the seats each game of ``seats`` has connections for at the process
    ``worker`` (its rows of those games only), and announce the change
    (:func:`presence_notices`), atomically: :meth:`~handfoot.web.store.Store.set_presence`
    of many games at once."""
    games = list(seats)
    pairs = [(game, seat) for game in games for seat in sorted(set(seats[game]))]
    await pool.execute(_WRITE_PRESENCE, worker, games, when or now(),
                       [g for g, _ in pairs], [s for _, s in pairs], CHANNEL,
                       presence_notices(worker, games))


_READ_PRESENCE: Final = """
SELECT game, seat FROM presence
WHERE game = ANY($1::varchar[]) AND worker <> $2 AND seen >= $3
"""


async def read_presences(pool: Any, game_ids: Iterable[str], *, besides: str,
                         ) -> dict[str, set[int]]:
    """:meth:`~handfoot.web.store.Store.presences` in one statement through asyncpg."""
    ids = list(game_ids)
    found: dict[str, set[int]] = {game_id: set() for game_id in ids}
    if ids:
        for game, seat in await pool.fetch(_READ_PRESENCE, ids, besides,
                                           now() - timedelta(seconds=PRESENCE_STALE)):
            found[game].add(int(seat))
    return found
