"""The live tables of a server: :class:`Tables`, the registry of the games in memory.

A game is loaded from the database when first asked for (its stored moves replayed, in a
thread) and dropped from memory once nobody has been connected to it or asked for it for
:attr:`~handfoot.web.settings.Settings.idle_timeout` seconds. On a shared database
(PostgreSQL, several server processes: see :mod:`handfoot.web.sharing`) the registry
listens for what the other processes store and hands each notification to the table it is
about, sweeps every :data:`SWEEP_EVERY` seconds for whatever a lost notification hid, and
keeps this process's presence and leases alive with a heartbeat every
:data:`HEARTBEAT_EVERY` seconds.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import functools
import json
import logging
import multiprocessing
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Profile
from handfoot.web import daily
from handfoot.web.bus import Listener
from handfoot.web.metrics import Metrics
from handfoot.web.pg_direct import GameLoads, Loaded
from handfoot.web.pg_trace import PoolTrace
from handfoot.web.settings import Settings
from handfoot.web.sharing import Presences
from handfoot.web.sqlite_loads import SqliteLoads
from handfoot.web.store import CHANNEL, Store, is_outage, log_failure, read_move_payload
from handfoot.web.table import Table
from handfoot.web.talk import RECENT
from handfoot.web.tokens import REMATCH_SECRET
from handfoot.web.turns import SYSTEM_CLOCK, Clock

__all__ = ["HEARD_AT_ONCE", "HEARTBEAT_EVERY", "PROFILE_ENV", "SWEEP_EVERY", "Tables"]

log = logging.getLogger("handfoot.web")

PROFILE_ENV: Final = "HANDFOOT_SERVER_PROFILE"
"""Set to a path prefix, each server process profiles itself (cProfile) from its tables'
start and writes the statistics to ``<prefix>.<pid>`` when they close (a measuring aid for
``serve --workers``, whose worker processes cannot be started under ``python -m cProfile``)."""

HEARD_AT_ONCE: Final = 16
"""The notifications from other processes handled in one turn of the event loop, the next
ones in the next turns, in the order heard: asyncpg hands the notifications of one read to
the loop together (each a callback of the next turn), so that another process's commit of a
group of a hundred moves made a hundred moves played and broadcast here in one turn, which
held this process's own frames (a move, a commit's end, a ping) meanwhile."""

SWEEP_EVERY: Final = 10.0
"""Seconds between a process's sweeps over a shared database: it catches up every game it
holds that is behind the table of moves."""

HEARTBEAT_EVERY: Final = 2.0
"""Seconds between a process's heartbeats on a shared database: it says it is alive (its
presence rows, which count for :data:`~handfoot.web.store.PRESENCE_STALE` seconds), renews
or takes the leases on the bots of the games it has connections to (which last
:data:`~handfoot.web.store.BOT_LEASE` seconds), and reads who is connected elsewhere."""


class Tables:
    """The live tables of a server, loaded from the database when first asked for."""

    def __init__(self, store: Store, settings: Settings,
                 metrics: Metrics | None = None, clock: Clock = SYSTEM_CLOCK) -> None:
        self.store = store
        self.settings = settings
        self.metrics = metrics
        """Where moves are counted and timed (``/metrics``), if anywhere."""
        self.clock = clock
        """The time of correspondence games' timers (a test's own clock)."""
        self._tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._missed: dict[str, set[str]] = {}
        """On a shared database, the games loading now and the kinds of the notifications
        heard of each meanwhile (none: its load read all there was)."""
        self._presences: Presences | None = None
        self._loads: GameLoads | None = None
        """On a shared database, the tables' loads, grouped (see
        :class:`~handfoot.web.pg_direct.GameLoads`)."""
        self._executor: ProcessPoolExecutor | None = None
        self.on_finished: Callable[[Table], Awaitable[None]] | None = None
        """Given to every table (:attr:`Table.on_finished`): a game just ended here."""
        self.today: Callable[[], dt.date] = daily.today
        """The current UTC date (a test may set its own clock): when daily games end."""
        # several processes (a shared database): see the section "other processes"
        self.worker: str | None = None
        self.listener: Listener | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._heart: asyncio.Task[None] | None = None
        self._following: set[asyncio.Task[None]] = set()
        self._heard_due: collections.deque[str] = collections.deque()
        self._hearing: asyncio.Handle | None = None
        """The notifications heard and not yet handled, and the turn that handles the next
        ones (see :meth:`_hear`)."""
        self._idle_sweeper: asyncio.Task[None] | None = None
        self._profiler: Any = None
        self._trace: PoolTrace | None = None
        """On a shared database with ``HANDFOOT_PG_TRACE`` set, the pools' statements
        noted (see :mod:`handfoot.web.pg_trace`)."""
        if os.environ.get(PROFILE_ENV):
            import cProfile

            self._profiler = cProfile.Profile()
            self._profiler.enable()

    def pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.settings.expert_workers,
                mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    async def get(self, game_id: str) -> Table | None:
        """The live table of a game, rebuilt from the database if needed; None if no such
        game."""
        table = self._tables.get(game_id)
        if table is not None:
            table.touched = time.monotonic()
            return table
        if self._idle_sweeper is None or self._idle_sweeper.done():
            self._idle_sweeper = asyncio.create_task(self._sweep_idle())
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            table = self._tables.get(game_id)
            if table is not None:
                table.touched = time.monotonic()
                return table
            if self.worker is not None:  # what other processes store from now is heard
                self._missed[game_id] = set()
            try:
                return await self._load(game_id)
            finally:
                self._missed.pop(game_id, None)

    async def _load(self, game_id: str) -> Table | None:
        """:meth:`get` of a table not in memory (under its loading lock)."""
        shared: Loaded | None = None
        if self._loads is not None:  # one read, with others (pg_direct, sqlite_loads)
            shared = await self._loads.load(game_id)
            if shared is None:
                return None
            row, rows, continued = shared.game, shared.moves, shared.continued
        else:
            loaded = await self.store.load(game_id)
            if loaded is None:
                return None
            row, rows, continued = loaded
        profile = _game_profile(row.profile, row.overrides)
        table = Table(row, profile, self.store, self.settings, self.pool,
                      today=lambda: self.today(), metrics=self.metrics,
                      clock=self.clock)
        if rows:  # (a new game's nothing to replay: no thread for it)
            await asyncio.to_thread(table.replay, rows, continued)
        else:
            table.replay(rows, continued)
        table.talk.loaded(shared.talk if shared is not None
                          else await self.store.talk(game_id, last=RECENT))
        table.on_finished = self.on_finished
        if table.turns.rules is not None:
            try:  # the turn it waits for, as stored (or stored now: see turns.py)
                await table.turns.sync()
            except Exception:
                log_failure(log, "game %s: its turn could not be read", game_id)
            if table.bot_to_act():  # its bots move with nobody connected
                table.bots.start()
                table.wake.set()
        rematch = row.settings.get("rematch")
        if isinstance(rematch, str):
            table.rematch = (rematch, await self.store.secret(REMATCH_SECRET))
        self._shared(table, shared)
        table.touched = time.monotonic()
        self._tables[game_id] = table
        return table

    def held(self) -> list[str]:
        """The games in memory now."""
        return list(self._tables)

    def live(self) -> list[Table]:
        """The tables in memory now."""
        return list(self._tables.values())

    async def drop_idle(self, clock: float | None = None) -> list[str]:
        """Drop from memory every table nobody has been connected to or asked for in
        :attr:`Settings.idle_timeout` seconds (as of ``clock``, default now), unless it is
        busy storing something; the games dropped. Its next :meth:`get` replays it."""
        clock = time.monotonic() if clock is None else clock
        dropped = []
        for game_id, table in list(self._tables.items()):
            if table.connections or clock - table.touched < self.settings.idle_timeout \
                    or (table.unattended and not table.state.is_over) \
                    or table.lock.locked() or table.rematch_lock.locked() \
                    or (table.turns.rules is not None and table.bot_to_act()):
                continue
            del self._tables[game_id]
            self._loading.pop(game_id, None)
            await table.stop()
            dropped.append(game_id)
        return dropped

    async def _sweep_idle(self) -> None:
        every = min(30.0, max(0.05, self.settings.idle_timeout / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.drop_idle()
            except Exception:
                log_failure(log, "dropping idle tables failed")

    async def close(self) -> None:
        if self._idle_sweeper is not None:
            self._idle_sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._idle_sweeper
            self._idle_sweeper = None
        await self._stop_sharing()
        for table in list(self._tables.values()):
            await table.stop()
        self._tables.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        if self._profiler is not None:
            self._profiler.disable()
            self._profiler.dump_stats(f"{os.environ[PROFILE_ENV]}.{os.getpid()}")
            self._profiler = None
        if self._trace is not None:
            await self._trace.close()
            self._trace = None

    # -- other processes (a shared database) ------------------------------------------------

    async def start(self) -> None:
        """On a shared database (PostgreSQL): listen for what other processes store, and
        sweep every :data:`SWEEP_EVERY` seconds. On SQLite: the tables' loads gathered
        (:class:`~handfoot.web.sqlite_loads.SqliteLoads`)."""
        if self.store.kind == "sqlite" and self._loads is None:
            self._loads = SqliteLoads(self.store, talk=RECENT)
        if not self.store.shared or self.worker is not None:
            return
        self.worker = secrets.token_hex(8)
        self._trace = PoolTrace.from_environment()
        if self._trace is not None:  # a measuring aid: each pool's statements timed
            self.store._move_pool = self._trace.wrap(  # type: ignore[method-assign,assignment]
                self.store._move_pool)
        self._presences = Presences(self.store, self.worker)
        self._loads = GameLoads(self.store.direct, talk=RECENT, besides=self.worker)
        self.listener = Listener(self.store.listen_dsn(), CHANNEL, self._hear,
                                 self._recover)
        await self.listener.start()
        self._sweeper = asyncio.create_task(self._sweep())
        self._heart = asyncio.create_task(self._beat())

    def _shared(self, table: Table, loaded: Loaded | None) -> None:
        """A table just loaded: it knows who is connected elsewhere from its load, and
        catches up with what was stored while it loaded (if anything was heard of it
        meanwhile: its load read the rest in one statement; a change of presence alone,
        as the other processes' connections to the same table arrive, is read with other
        tables' presence)."""
        if self.worker is not None:
            assert self._presences is not None
            table.sharing.start(self.worker, self._presences)
            missed = self._missed.get(table.id, set())
            if loaded is None or missed - {"p"}:
                self._follow(table, "mcsp")
            else:
                table.sharing.set_remote(loaded.presence)
                table.wake.set()
                if missed:
                    self._presences.read(table.sharing)

    def _hear(self, payload: str) -> None:
        """A notification heard (the listener's callback): handled by :meth:`_heard` in its
        turn, at most :data:`HEARD_AT_ONCE` a turn of the event loop, in the order heard."""
        self._heard_due.append(payload)
        if self._hearing is None:
            self._hearing = asyncio.get_running_loop().call_soon(self._hear_some)

    def _hear_some(self) -> None:
        self._hearing = None
        for _ in range(min(HEARD_AT_ONCE, len(self._heard_due))):
            payload = self._heard_due.popleft()
            try:
                self._heard(payload)
            except Exception:
                log.exception("a notification could not be handled: %r", payload)
        if self._heard_due:  # the rest in the next turns, the loop's I/O read between
            self._hearing = asyncio.get_running_loop().call_soon(self._hear_some)

    def _heard(self, payload: str) -> None:
        """A notification ``"<kind> <game>[ <seq>[ <move>]]"`` (or ``"P <worker> <game>
        <game>..."``, a change of presence at many tables): the table, if held here,
        plays the move it carries when that is the next one and the table is not busy, and
        otherwise catches up from the database; talk (``"t <game> <JSON>"``) is passed to
        the table's connections."""
        kind, _, rest = payload.partition(" ")
        if kind == "P":  # "P <worker> <game> <game>...": presence written by a process
            worker, _, games = rest.partition(" ")
            if worker != self.worker:  # (this process's own: nothing new elsewhere)
                for game_id in games.split():
                    self._heard(f"p {game_id}")
            return
        game_id, _, rest = rest.partition(" ")
        table = self._tables.get(game_id)
        if table is None and kind != "t" and game_id in self._missed:
            self._missed[game_id].add(kind)  # a table loading: it catches up once loaded
            return
        if kind == "t":  # talk: "t <game> <JSON>"
            if table is not None:
                table.talk.heard(rest, self.worker)
            return
        seq, _, data = rest.partition(" ")
        if table is None or (kind == "m" and seq.isdigit() and (
                int(seq) <= table.seq or int(seq) == table.sharing.storing)):
            return  # not held here, or a move this process made, is storing, or has read
        if kind == "m" and self._let_go(game_id, table):
            return
        row = read_move_payload(int(seq), data) if kind == "m" and data and seq.isdigit() \
            else None
        if row is None:
            if kind == "p" and self._presences is not None:
                self._presences.read(table.sharing)  # one read for the tables heard of
                return
            self._follow(table, kind)
            return
        table.sharing.heard[row.seq] = row
        if table.lock.locked() or row.seq != table.seq + 1:
            self._follow(table, "h")  # played once the lock is free, or read on a gap
        elif table.sharing.play_heard():  # at once: nothing else is playing
            table.broadcast()
            if table.has_bots:  # (as after a move made here)
                table.wake.set()

    def _let_go(self, game_id: str, table: Table) -> bool:
        """Drop a table that moved elsewhere if nobody here watches it (its next load
        replays every move, in a thread, rather than rebuild its bots' memory on the event
        loop); whether it was dropped."""
        if table.connections or table.lock.locked() or table.rematch_lock.locked():
            return False
        del self._tables[game_id]
        self._loading.pop(game_id, None)
        self._follow(table, "")
        return True

    def _follow(self, table: Table, what: str) -> None:
        task = asyncio.create_task(table.sharing.catch_up(what) if what else table.stop())
        self._following.add(task)
        task.add_done_callback(self._followed)

    def _followed(self, task: asyncio.Task[None]) -> None:
        self._following.discard(task)
        exc = None if task.cancelled() else task.exception()
        if exc is not None and is_outage(exc):
            log.warning("catching up failed (the database did not answer: %s)",
                        type(exc).__name__)
        elif exc is not None:
            log.error("catching up failed", exc_info=exc)

    def _recover(self) -> None:
        """The listening connection was lost: notifications may have been missed."""
        for missed in self._missed.values():  # tables loading: they catch up once loaded
            missed.add("r")
        for table in list(self._tables.values()):
            self._follow(table, "mcsp")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self.sweep()
            except Exception:
                log_failure(log, "the sweep over the shared database failed")

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_EVERY)
            try:
                await self.heartbeat()
            except Exception:
                log_failure(log, "the heartbeat on the shared database failed")

    async def heartbeat(self) -> None:
        """Say this process is alive (its presence rows), take or renew the leases on the
        bots of the games it has connections to (and give up the others'), and read
        everybody's presence elsewhere."""
        if self.worker is None:
            return
        await self.store.refresh_presence(self.worker)
        held = dict(self._tables)
        wanted = [g for g, t in held.items()
                  if ((t.connections or t.unattended) and not t.state.is_over and t.has_bots)
                  or (t.turns.rules is not None and t.bot_to_act())]
        granted = await self.store.claim_bots(self.worker, wanted)
        unwanted = [g for g, t in held.items() if t.sharing.drives_bots and g not in wanted]
        await self.store.release_bots(self.worker, unwanted)
        remote = await self.store.presences(held, besides=self.worker)
        for game_id, table in held.items():
            if self._tables.get(game_id) is table:
                table.sharing.set_drives_bots(game_id in granted)
                table.sharing.set_remote(remote[game_id])
                table.wake.set()

    async def sweep(self) -> None:
        """Catch up every game held here that is behind the stored moves (a notification
        was lost), between rounds (a Continue press), or over without a rematch."""
        if self.worker is None:
            return
        held = dict(self._tables)
        last = await self.store.last_seqs(held)
        catching_up = []
        for game_id, table in held.items():
            what = ""
            if last.get(game_id, 0) > table.seq:
                if self._let_go(game_id, table):
                    continue
                what += "m"
            if table.waiting() is not None:
                what += "c"
            if table.state.is_over and table.rematch is None:
                what += "s"
            if what:
                catching_up.append(table.sharing.catch_up(what))
        await asyncio.gather(*catching_up)

    async def _stop_sharing(self) -> None:
        for task in (self._sweeper, self._heart):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._sweeper = self._heart = None
        for task in list(self._following):
            task.cancel()
        if self.listener is not None:
            await self.listener.stop()
            self.listener = None
        if self._hearing is not None:
            self._hearing.cancel()
            self._hearing = None
        self._heard_due.clear()
        if self._presences is not None:
            await self._presences.close()
            self._presences = None
        if self._loads is not None:
            await self._loads.close()
            self._loads = None
        if self.worker is not None:
            with contextlib.suppress(Exception):
                await self.store.clear_presence(self.worker)
            self.worker = None


def _game_profile(name: str, overrides: Mapping[str, Any] | None) -> Profile:
    """A stored game's rules; a built-in profile with given overrides is read once per
    process (reading its TOML took about 7 ms, a third of restoring a game)."""
    if name not in _builtin_names():
        return load_profile(name, overrides=overrides)
    return _builtin_profile(name, json.dumps(dict(overrides or {}), sort_keys=True))


@functools.cache
def _builtin_names() -> frozenset[str]:
    return frozenset(builtin_profile_names())


@functools.lru_cache(maxsize=64)
def _builtin_profile(name: str, overrides: str) -> Profile:
    return load_profile(name, overrides=json.loads(overrides) or None)
