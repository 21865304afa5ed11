"""The moves' commits on SQLite made on the event loop's own thread: :class:`LoopWriter`.

A group of moves (web/store.py, ``_GroupCommit``) committed through aiosqlite goes to the
driver's thread and comes back: two thread switches, each waiting for Python's lock while
the event loop runs (up to its switch interval, 5 ms, at every one of the transaction's
statements) and for the operating system to run the thread. SQLite's own work for a group
is about 0.2 ms (WAL, ``synchronous=NORMAL``: no flush to disk at a commit), but in
``benchmarks/server_load.py`` (500 tables on a busy machine) a move waited 39 ms (median)
and 264 ms (p99) for its commit, nearly all of it the trip to the thread and back. Here
the group is committed by a connection of the loop's thread, in the loop's turn: no
switch, and the move's wait is the transaction itself.

What a connection on the loop must never do, it does not:

- **wait for a lock**: its busy timeout is 0; a group that finds the file locked (another
  connection's write transaction: a migration, a game being created) is not committed here
  (:meth:`LoopWriter.commit` returns False) and goes the old way, through the pool, which
  waits off the loop;
- **flush the file**: SQLite checkpoints (the WAL copied into the database file, with its
  ``fsync``) in the connection whose commit fills the WAL past a thousand pages; this
  connection's automatic checkpoints are off, and a passive checkpoint runs on a thread of
  its own (a connection of its own) at most every :data:`CHECKPOINT_EVERY` seconds after
  moves were committed here. A passive checkpoint never blocks a writer.

Only a file database in WAL mode is written so (an in-memory one would be another
database; in another journal mode a commit flushes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect

__all__ = ["CHECKPOINT_EVERY", "LoopWriter", "datetime_writer"]

log = logging.getLogger("handfoot.web")

CHECKPOINT_EVERY: Final = 1.0
"""The most often (seconds) a checkpoint of the WAL runs after moves were committed."""

_BUSY: Final = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})

Commit = Callable[[sqlite3.Connection, list[tuple[Any, ...]], list[tuple[Any, str | None, str]],
                   bool], bool]
"""How a group is written on a connection (web/store.py's ``_commit_moves``)."""


class LoopWriter:
    """A SQLite connection of the event loop's thread for the moves' grouped commits, and
    the checkpoints it leaves to another thread (see the module)."""

    def __init__(self, path: str, db: sqlite3.Connection) -> None:
        self.path = path
        self.db = db
        self.checkpoints = 0
        """Checkpoints run so far."""
        self._dirty = False
        self._last = time.monotonic()
        self._checkpoint: asyncio.Future[None] | None = None

    @classmethod
    def open(cls, database: str | None) -> LoopWriter | None:
        """A writer on the SQLite file ``database`` (a SQLAlchemy URL's database part), or
        None where this way cannot be used: no file (in memory), a URI, a file missing or
        not in WAL mode, or one that does not open."""
        if not database or database == ":memory:" or database.startswith("file:") \
                or not Path(database).is_file():
            return None
        try:
            db = sqlite3.connect(database, timeout=0, isolation_level=None)
        except sqlite3.Error:
            return None
        try:
            mode = db.execute("PRAGMA journal_mode").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                db.close()
                return None
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA wal_autocheckpoint=0")
        except sqlite3.Error:
            db.close()
            return None
        return cls(database, db)

    def commit(self, write: Commit, rows: list[tuple[Any, ...]],
               games_now: list[tuple[Any, str | None, str]]) -> bool:
        """Write a group with ``write`` on this connection, now: True once committed; False
        when the file is locked by another connection (nothing written: the caller commits
        the group another way). Other errors are raised, nothing written."""
        try:
            write(self.db, rows, games_now, False)
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorcode", None) in _BUSY:
                return False
            raise
        self._dirty = True
        self._maybe_checkpoint()
        return True

    def _maybe_checkpoint(self) -> None:
        running = self._checkpoint
        if running is not None and not running.done():
            return
        now = time.monotonic()
        if now - self._last < CHECKPOINT_EVERY:
            return
        self._last = now
        self._dirty = False
        self._checkpoint = asyncio.get_running_loop().run_in_executor(
            None, _checkpoint, self.path)
        self._checkpoint.add_done_callback(self._checked)

    def _checked(self, done: asyncio.Future[None]) -> None:
        if done.cancelled():
            return
        exc = done.exception()
        if exc is None:
            self.checkpoints += 1
        else:
            log.warning("a checkpoint of the SQLite file failed (%s)", type(exc).__name__)

    async def close(self) -> None:
        """Wait for a checkpoint under way, run a last one if moves came since, and close
        the connection."""
        running = self._checkpoint
        if running is not None:
            with contextlib.suppress(Exception):
                await running
        if self._dirty:
            with contextlib.suppress(Exception):
                await asyncio.get_running_loop().run_in_executor(None, _checkpoint, self.path)
                self.checkpoints += 1
        self.db.close()


def _checkpoint(path: str) -> None:
    """A passive checkpoint of the file's WAL, on a connection of its own (off the event
    loop: it writes pages into the file and flushes it)."""
    db = sqlite3.connect(path, timeout=1.0, isolation_level=None)
    try:
        db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    finally:
        db.close()


def datetime_writer(dialect: Dialect) -> Callable[[datetime], Any]:
    """How SQLAlchemy writes a ``DateTime`` in ``dialect`` (SQLite keeps text), so rows
    written past it read back the same. Where that is SQLite's text, a naive time (every
    stamp the store makes) is written by ``isoformat`` instead, three times as fast: the
    same text, checked here once."""
    write = DateTime().dialect_impl(dialect).bind_processor(dialect)
    if write is None:
        return lambda value: value
    if any(write(t) != t.isoformat(" ", "microseconds") for t in (
            datetime(2026, 12, 7, 1, 2, 3, 45), datetime(999, 1, 2, 3, 4, 5))):
        return write
    slow = write

    def fast(value: datetime) -> Any:
        if type(value) is datetime and value.tzinfo is None:
            return value.isoformat(" ", "microseconds")
        return slow(value)

    return fast
