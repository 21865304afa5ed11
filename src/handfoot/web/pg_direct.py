"""What joining a table reads and writes on PostgreSQL, straight through asyncpg (the pool
:class:`~handfoot.web.store.Store` stores moves with), one statement each.

Through SQLAlchemy a table's load on a shared database was sixteen round trips on three
pooled connections (the game, its seats, moves and Continue presses; its talk; then the
catch-up: presence, moves, Continue presses, game and seats again, each with its ``BEGIN``
and ``ROLLBACK``), and each burst of joins at a table a transaction of five (``BEGIN``,
``DELETE``, ``INSERT``, ``NOTIFY``, ``COMMIT``) to store the process's presence, and one
more of three in every other process to read it. Here:

- :func:`load_game` reads a game, its seats, moves, Continue presses, latest talk and the
  seats connected to other live processes in one statement (one snapshot);
- :func:`write_presences` stores this process's presence at every table whose
  connections changed in one event-loop turn, with their notifications, in one statement;
- :func:`read_presences` reads the presence elsewhere of every table heard of in one turn.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
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

__all__ = ["Loaded", "load_game", "read_presences", "write_presences"]


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
FROM games g WHERE g.id = $1
"""


async def load_game(pool: Any, game_id: str, *, talk: int, besides: str) -> Loaded | None:
    """A game, its seats, moves, Continue presses, its last ``talk`` reactions and messages
    and the seats connected to live processes other than ``besides``, as one statement
    sees them (None: no such game). ``pool`` is asyncpg's."""
    row = await pool.fetchrow(_LOAD, game_id, talk, besides,
                              now() - timedelta(seconds=PRESENCE_STALE))
    if row is None:
        return None
    game = GameRow(
        id=row["id"], profile=row["profile"], overrides=json.loads(row["overrides"]),
        layout=row["layout"], settings=json.loads(row["settings"]), seed=int(row["seed"]),
        spectator_hash=row["spectator_hash"], status=row["status"], created=row["created"],
        updated=row["updated"], seats=tuple(SeatRow(*s) for s in row["seats"]))
    return Loaded(game, list(map(MoveRow._make, row["moves"])),
                  {(int(r), int(s)) for r, s in row["continued"]},
                  [TalkRow._make(t) for t in reversed(row["talk"])],
                  {int(s) for s in row["presence"]})


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
