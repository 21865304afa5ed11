"""What a table does with the other server processes on a shared database (PostgreSQL; see
docs/server.md): :class:`Sharing`, one per table.

Each process holds its own copy of a table its clients play at. The store's (game, seq) key
arbitrates: a process commits a move only as the next seq, and when another process stored
that seq first (:class:`~handfoot.web.store.MoveConflict`) it reads the moves it missed and
refuses the person's move as stale, or drops its bot's move (so two processes never both
play a bot's turn). Every change is announced by ``NOTIFY``; a move's notification carries
the move, which a process holding the game plays when it is the next one
(:meth:`Sharing.play_heard`), and otherwise (a seq missing) it reads all the moves after the
last it played (see :mod:`handfoot.web.bus`); a sweep every few seconds
(:data:`~handfoot.web.tables.SWEEP_EVERY`) catches up whatever a lost notification hid.
Presence is stored per process (``presence``, refreshed at every heartbeat), so a stand-in
never plays for a person connected to another process; and one process at a time plays a
game's bots and stand-ins, the one holding the game's lease (``bot_leases``: taken by a
process with connections to the game, renewed at each heartbeat, taken over once it
lapses). Moves another process stored are only applied: no bot thinks again for them (its
memory is remade from the round's start, away from the event loop, if ever this process
comes to play it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any, Protocol

from handfoot.game.engine import GameState
from handfoot.game.moves import MoveSyntaxError
from handfoot.game.values import IllegalMoveError
from handfoot.web.connection import Connection
from handfoot.web.pg_direct import read_presences, write_presences
from handfoot.web.store import GameRow, MoveRow, Store, log_failure
from handfoot.web.tokens import REMATCH_SECRET

__all__ = ["Presences", "SharedTable", "Sharing"]

log = logging.getLogger("handfoot.web")


class SharedTable(Protocol):
    """What :class:`Sharing` uses of its table (a :class:`~handfoot.web.table.Table`)."""

    id: str
    state: GameState
    seq: int
    lock: asyncio.Lock
    wake: asyncio.Event
    connections: list[Connection]
    unattended: bool
    continued: set[tuple[int, int]]
    rematch: tuple[str, bytes] | None
    seat_names: tuple[str, ...]
    given_to_bot: set[int]

    @property
    def has_bots(self) -> bool:
        """Whether a bot may ever play at the table."""

    def present(self, seat: int) -> bool:
        """Whether ``seat``'s person is connected, here or elsewhere."""

    def went_away(self, seat: int) -> None:
        """``seat``'s person may have left the last of their connections."""

    def replay(self, rows: list[MoveRow], continued: set[tuple[int, int]]) -> None:
        """Play stored moves."""

    def moved_elsewhere(self) -> None:
        """Moves stored elsewhere were just played."""

    def set_rematch(self, game_id: str, secret: bytes) -> None:
        """The rematch exists."""

    def rename_seats(self, names: dict[int, str]) -> None:
        """New names for seats."""

    def settings_stored(self, settings: Mapping[str, Any]) -> None:
        """The game's settings as stored now (a change of its talk settings)."""

    def broadcast(self) -> None:
        """Send every connection its ``state``."""

    def presence_soon(self) -> None:
        """Send every connection who is present, once, at the end of this turn."""


class Sharing:
    """A table's dealings with the other processes on a shared database: the moves they
    stored, who is connected to them, and the lease on the table's bots. On a database of
    its own a process has no others (:attr:`worker` None): it plays the bots and needs
    nothing of this."""

    def __init__(self, table: SharedTable, store: Store) -> None:
        self.table = table
        self.store = store
        self.worker: str | None = None
        """This process's name in the presence table, on a shared database; else None."""
        self.remote: set[int] = set()
        """The seats connected to other processes."""
        self.remote_known = True
        """False from a load on a shared database until the presence elsewhere is read: no
        stand-in plays before that."""
        self.drives_bots = True
        """Whether this process plays the table's bots and stand-ins: always on a database
        of its own; on a shared one, while it holds the game's lease (see
        :meth:`claim_bots`), so one process thinks for them."""
        self.heard: dict[int, MoveRow] = {}
        """Moves another process stored, as its notifications carried them, by seq: played
        from here, without reading them back (see :meth:`play_heard`)."""
        self.presences: Presences | None = None
        """This process's presence writes and reads (a shared database only)."""
        self.storing: int | None = None
        """The seq of the move this process is storing now (:meth:`Table.commit`), whose
        notification may come back before its commit returns: that one is not heard (the
        move is played once stored; a conflict reads the moves stored from the table)."""

    def start(self, worker: str, presences: Presences) -> None:
        """The table was just loaded by the process ``worker`` on a shared database: no
        stand-in plays until it has read who is connected elsewhere, and no bot until it
        holds the lease. Its presence is written with other tables' (:class:`Presences`)."""
        self.worker = worker
        self.presences = presences
        self.remote_known = False
        self.drives_bots = False

    # -- moves and changes stored elsewhere -------------------------------------------------

    async def catch_up(self, what: str = "mcsp") -> None:
        """Read what other processes stored: ``m`` the moves after the last played here
        (``h``: those heard, read from the database only if some are missing), ``c``
        Continue presses, ``s`` the game's settings (a rematch, the talk settings), ``p`` who
        is connected elsewhere; then tell this
        process's connections and wake the bots."""
        table = self.table
        if what == "mcsp" and self.worker is not None:
            await self._catch_up_all()
            return
        changed = False
        if "p" in what and self.worker is not None:  # needs no lock: nothing is played
            self.set_remote(await self.store.presence(table.id, besides=self.worker))
            if not self.drives_bots and table.connections and table.has_bots:
                # its holder may have left
                await self.claim_bots()
        async with table.lock:
            if "m" in what or "h" in what:
                changed |= await self.catch_up_moves(heard_only="m" not in what)
            if "c" in what:
                changed |= self._continued(await self.store.continues(table.id))
            if "s" in what:  # a seat's name may have changed (a member took it, a
                game = await self.store.game(table.id)  # player was deleted)
                changed |= await self._game_stored(game)
        if changed:
            table.broadcast()
        table.wake.set()

    async def _catch_up_all(self) -> None:
        """:meth:`catch_up` of everything (after a load, or a lost listening connection):
        the moves, Continue presses, game and presence elsewhere read on one connection
        (:meth:`~handfoot.web.store.Store.stored_since`; four reads on four pooled
        connections before), under the table's lock."""
        table = self.table
        assert self.worker is not None
        async with table.lock:
            changed = self.play_heard()
            stored = await self.store.stored_since(table.id, after=table.seq,
                                                   besides=self.worker)
            self.heard.clear()
            rows = [row for row in stored.moves if row.seq > table.seq]
            if rows:
                table.replay(rows, table.continued)
                table.moved_elsewhere()
                changed = True
            changed |= self._continued(stored.continued)
            changed |= await self._game_stored(stored.game)
        self.set_remote(stored.presence)
        if not self.drives_bots and table.connections and table.has_bots:
            await self.claim_bots()  # its holder may have left
        if changed:
            table.broadcast()
        table.wake.set()

    def _continued(self, stored: set[tuple[int, int]]) -> bool:
        """Continue presses as stored: whether any was new here."""
        table = self.table
        if stored <= table.continued:
            return False
        table.continued |= stored
        return True

    async def _game_stored(self, game: GameRow | None) -> bool:
        """The game as stored (its seats' names, its settings: the talk settings, the
        rematch, the seats given to a bot): whether a name changed."""
        table = self.table
        changed = False
        names = {} if game is None else {s.seat: s.name for s in game.seats}
        if any(names.get(i, n) != n for i, n in enumerate(table.seat_names)):
            table.rename_seats(names)
            changed = True
        settings = {} if game is None else dict(game.settings)
        table.settings_stored(settings)  # the talk settings
        rematch = settings.get("rematch")
        if table.rematch is None and isinstance(rematch, str):
            table.set_rematch(rematch, await self.store.secret(REMATCH_SECRET))
        given = settings.get("given_to_bot")
        if isinstance(given, list):  # seats of a correspondence game a bot plays
            table.given_to_bot = {s for s in given if isinstance(s, int)}
        return changed

    def play_heard(self) -> bool:
        """Play the moves heard (:attr:`heard`) that follow the last one played here, in
        order, without awaiting anything (the caller holds the lock, or it is free);
        whether any was. Those played and older are forgotten; the rest wait for the moves
        between (a gap: read from the database)."""
        table = self.table
        played = False
        while (row := self.heard.pop(table.seq + 1, None)) is not None:
            try:
                table.replay([row], table.continued)
            except (ValueError, IllegalMoveError, MoveSyntaxError):
                log.warning("game %s: the move %d heard could not be played: %r", table.id,
                            row.seq, row.notation)
                self.heard.clear()  # read from the database instead
                break
            played = True
        for seq in [seq for seq in self.heard if seq <= table.seq]:
            del self.heard[seq]
        if played:
            table.moved_elsewhere()
        return played

    async def catch_up_moves(self, *, heard_only: bool = False) -> bool:
        """Play the moves stored after the last one played here (the caller holds the
        lock): the moves heard, then (unless ``heard_only`` and none is missing) those in
        the database; whether there were any."""
        table = self.table
        played = self.play_heard()
        if heard_only and not self.heard:
            return played
        rows = await self.store.moves(table.id, after=table.seq)
        self.heard.clear()
        if not rows:
            return played
        table.replay(rows, table.continued)
        table.moved_elsewhere()
        return True

    # -- presence and the lease on the bots -------------------------------------------------

    def set_remote(self, seats: set[int]) -> None:
        """The seats connected to other processes, as just read (known from now on): tell
        this process's connections of a change."""
        self.remote_known = True
        if seats == self.remote:
            return
        gone = self.remote - seats
        self.remote = seats
        for seat in gone:
            self.table.went_away(seat)
        self.table.presence_soon()

    def presence_changed(self) -> None:
        """Store which seats this process has connections for (a shared database only:
        with other tables', by :class:`Presences`)."""
        if self.presences is not None:
            self.presences.write(self)

    def seats_here(self) -> set[int]:
        """The seats this process has open connections for."""
        return {c.seat for c in self.table.connections if c.seat is not None and not c.closed}

    async def presence_read(self, seats: set[int]) -> None:
        """The seats connected elsewhere, as just read (:class:`Presences`): tell this
        process's connections, take the lease on the bots if its holder may have left."""
        self.set_remote(seats)
        table = self.table
        if not self.drives_bots and table.connections and table.has_bots:
            try:
                await self.claim_bots()
            except Exception:  # the heartbeat tries again
                log_failure(log, "game %s: the lease on its bots could not be stored",
                            table.id)
        table.wake.set()

    async def claim_bots(self) -> None:
        """On a shared database: take (or keep) the lease on playing this game's bots while
        this process has connections to it and the game goes on, and give it up when it
        has none (another process with connections then takes it when it hears of the
        change, or at its next heartbeat)."""
        table = self.table
        if self.worker is None or not table.has_bots:
            return
        if (table.connections or table.unattended) and not table.state.is_over:
            granted = table.id in await self.store.claim_bots(self.worker, [table.id])
        else:
            if self.drives_bots:
                await self.store.release_bots(self.worker, [table.id])
            granted = False
        self.set_drives_bots(granted)

    def set_drives_bots(self, granted: bool) -> None:
        """Whether this process holds the lease on the bots now (woken when it takes it)."""
        if granted and not self.drives_bots:
            log.info("game %s: this process plays its bots now", self.table.id)
            self.table.wake.set()
        self.drives_bots = granted


class Presences:
    """This process's presence on a shared database, written and read in groups (see
    :mod:`handfoot.web.pg_direct`): the presence at every table whose connections changed
    in one event-loop turn is stored by one statement with their notifications (a
    thousand tables' four thousand connections arriving at once made a transaction of five
    round trips per table and burst), and the presence elsewhere of every table heard of
    is read by one. One write (and one read) at a time: a change while one is on its way
    goes into the next, so the latest state is written last."""

    def __init__(self, store: Store, worker: str) -> None:
        self.store = store
        self.worker = worker
        self._writes: dict[str, Sharing] = {}
        self._reads: dict[str, Sharing] = {}
        self._writer: asyncio.Task[None] | None = None
        self._reader: asyncio.Task[None] | None = None

    def write(self, sharing: Sharing) -> None:
        """Store this process's presence at ``sharing``'s table (soon, with others)."""
        self._writes[sharing.table.id] = sharing
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all())

    def read(self, sharing: Sharing) -> None:
        """Read the presence elsewhere at ``sharing``'s table (soon, with others)."""
        self._reads[sharing.table.id] = sharing
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read_all())

    async def _write_all(self) -> None:
        while self._writes:
            due, self._writes = self._writes, {}
            for sharing in due.values():
                if sharing.table.has_bots:
                    try:  # before the presence's notice, which others act on
                        await sharing.claim_bots()
                    except Exception:  # the heartbeat tries again
                        log_failure(log, "game %s: the lease on its bots could not be "
                                    "stored", sharing.table.id)
            seats = {game_id: sharing.seats_here() for game_id, sharing in due.items()}
            try:
                await write_presences(await self.store.direct(), self.worker, seats)
            except Exception:
                log_failure(log, "the presence at %d tables could not be stored",
                            len(seats))

    async def _read_all(self) -> None:
        while self._reads:
            due, self._reads = self._reads, {}
            try:
                found = await read_presences(await self.store.direct(), due,
                                             besides=self.worker)
            except Exception:
                log_failure(log, "the presence elsewhere at %d tables could not be read",
                            len(due))
                continue
            for game_id, sharing in due.items():
                await sharing.presence_read(found[game_id])

    async def close(self) -> None:
        """Stop writing and reading (the process stops)."""
        for task in (self._writer, self._reader):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._writes.clear()
        self._reads.clear()
