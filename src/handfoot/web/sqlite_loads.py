"""Tables' loads on SQLite in groups: :class:`SqliteLoads`.

A table's load through :meth:`~handfoot.web.store.Store.load` and
:meth:`~handfoot.web.store.Store.talk` took eight trips to aiosqlite's thread and back
(the game's row through SQLAlchemy: a cursor, its statement, its rows, its closing; the
seats, moves and Continue presses; a rollback; the talk; a rollback), each a wake-up of
the thread and of the event loop, and SQLAlchemy's statement and rows on the loop's
thread; on the one pooled connection a SQLite file has, every other load and request
waited behind them. Here the loads asked for in one turn of the event loop (a burst of
joins: sixteen connections a turn, four a table) are read by one call on the driver's
thread, the game's row with the rest, as :class:`~handfoot.web.pg_direct.GameLoads`
gathers them on PostgreSQL (one read at a time, the games handed over a few a turn).
Where the driver is not aiosqlite on a :class:`sqlite3.Connection`, each game is read as
before.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, Final

from sqlalchemy import DateTime

from handfoot.web.pg_direct import GameLoads, Loaded
from handfoot.web.store import Store, TalkRow, _game_row, _read_game, _read_talk

__all__ = ["SQLITE_LOAD_AT_ONCE", "SqliteLoads", "read_games"]

SQLITE_LOAD_AT_ONCE: Final = 8
"""The most games one call reads: the tables of one read are sent their first states
together, and the benchmark's clients, which move a second after their first state, then
move together every second; 64 a read (PostgreSQL's) made the load benchmark's tables move
in groups of up to 64 (docs/server.md, "Issue 34, fourteenth pass")."""

_COLUMNS: Final = ("id", "profile", "overrides", "layout", "settings", "seed",
                   "spectator_hash", "status", "created", "updated")
_GAME: Final = f"SELECT {', '.join(_COLUMNS)} FROM games WHERE id = ?"


class SqliteLoads(GameLoads):
    """:class:`~handfoot.web.pg_direct.GameLoads` on SQLite: the games of one read in one
    call on aiosqlite's thread (:func:`read_games`), on one pooled connection."""

    def __init__(self, store: Store, *, talk: int) -> None:
        super().__init__(store.direct, talk=talk, besides="")
        self.store = store
        self.at_once = SQLITE_LOAD_AT_ONCE
        dialect = store.engine.dialect
        self._when: Callable[[Any], Any] | None = \
            DateTime().dialect_impl(dialect).result_processor(dialect, None)

    async def read(self, game_ids: list[str]) -> dict[str, Loaded]:
        async with self.store.engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            run, db = getattr(driver, "_execute", None), getattr(driver, "_conn", None)
            if run is not None and isinstance(db, sqlite3.Connection):
                return dict(await run(read_games, db, game_ids, self.talk, self._when))
        found: dict[str, Loaded] = {}
        for game_id in game_ids:  # another driver: each game as Store.load reads it
            loaded = await self.store.load(game_id)
            if loaded is not None:
                game, moves, continued = loaded
                found[game_id] = Loaded(game, moves, continued,
                                        await self.store.talk(game_id, last=self.talk), set())
        return found


def read_games(db: sqlite3.Connection, game_ids: list[str], talk: int,
               when: Callable[[Any], Any] | None = None) -> dict[str, Loaded]:
    """Games with their seats, moves, Continue presses and latest ``talk`` messages (oldest
    first), read on a SQLite connection (on its own thread): those found. ``when`` reads a
    stored date (SQLAlchemy's processor for the dialect; None: as stored)."""
    def date(value: Any) -> Any:
        return when(value) if when is not None else value

    found: dict[str, Loaded] = {}
    for game_id in game_ids:
        row = db.execute(_GAME, (game_id,)).fetchone()
        if row is None:
            continue
        seat_rows, moves, continued = _read_game(db, game_id)
        fields = dict(zip(_COLUMNS, row, strict=True))  # as SQLAlchemy's types read them
        fields.update(overrides=_json(fields["overrides"]), settings=_json(fields["settings"]),
                      created=date(fields["created"]), updated=date(fields["updated"]))
        game = _game_row(SimpleNamespace(**fields), seat_rows)
        said = sorted((TalkRow._make((*r[:6], date(r[6])))
                       for r in _read_talk(db, game_id, talk)), key=lambda r: r.id)
        found[game_id] = Loaded(game, moves, continued, said, set())
    return found


def _json(value: Any) -> Any:
    """A JSON column as SQLAlchemy's JSON type reads it on SQLite (``None`` for SQL NULL)."""
    return json.loads(value) if isinstance(value, (str, bytes)) else value
