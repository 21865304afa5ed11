"""Live tables: one :class:`Table` per game being played, its connections and its bots.

A table holds the game's :class:`~handfoot.game.engine.GameState`, rebuilt at load by replaying
the stored moves (so a restart resumes every game), and the connections watching it. Each
connection has its own outbound queue and one writer task, so a slow client never stalls
its table. A person's move is parsed, checked by the engine, **committed to the database**,
then played; every connection is then sent its own ``state`` (its seat's view only;
spectators the public view) and the mover an ``ack``.

Bots: one task per table plays the bot seats (and, where the table chose ``"absent":
"bot"``, the seats of people away longer than the grace time) while anybody is connected.
A bot move is worked out on a copy of the state from the seat's view (the expert in a
process pool, off the event loop), revealed a fixed ``bot_delay`` after the bot's turn
began whatever it computed, stored, then played. Bots start every round afresh, with a
seed from the game's, the seat and the round (what the hard bots remember is the round's
anyway). Bot memory survives a restart: the stored moves are played again, then (in a
thread, before the bots next move) each bot makes its own moves of the current round again
from its seat's views (a bot whose choice differs, as the time-limited expert's may, keeps
what it saw and the stored move is played); the moves of earlier rounds are only played,
which keeps rebuilding a table cheap.

Between rounds the table waits until every person (present, or away without a stand-in)
has pressed Continue for the round just ended; moves are refused meanwhile.

Several processes (on PostgreSQL; see docs/server.md): each process holds its own copy of
a table its clients play at. The store's (game, seq) key arbitrates: a process commits a
move only as the next seq, and when another process stored that seq first
(:class:`~handfoot.web.store.MoveConflict`) it reads the moves it missed and refuses the
person's move as stale, or drops its bot's move (so two processes never both play a bot's
turn). Every change is announced by ``NOTIFY``; a move's notification carries the move,
which a process holding the game plays when it is the next one (:meth:`Table.play_heard`),
and otherwise (a seq missing) it reads all the moves after the last it played (see
:mod:`handfoot.web.bus`); a sweep every :data:`SWEEP_EVERY` seconds catches up whatever a
lost notification hid. Presence is
stored per process (``presence``, refreshed every :data:`HEARTBEAT_EVERY` seconds), so a
stand-in never plays for a person connected to another process; and one process at a time
plays a game's bots and stand-ins, the one holding the game's lease (``bot_leases``: taken by
a process with connections to the game, renewed at each heartbeat, taken over once it
lapses). Moves another process stored are only applied: no bot thinks again for them (its
memory is remade from the round's start, away from the event loop, if ever this process
comes to play it).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import multiprocessing
import os
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Final

from starlette.websockets import WebSocket

from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import BOTS, make_bot
from handfoot.bots.search import ExpertBot
from handfoot.game import moves as mv
from handfoot.game.cards import FACE_KIND
from handfoot.game.engine import GameState
from handfoot.game.moves import MoveSyntaxError, format_move, parse_move
from handfoot.game.record import GameRecord, record_from_state, record_to_data
from handfoot.game.rules import Layout, Profile, builtin_profile_names, load_profile
from handfoot.game.values import Event, IllegalMoveError
from handfoot.game.wording import advice_words
from handfoot.runs.sim import bot_turn, derive_seed, hint
from handfoot.web.bus import Listener
from handfoot.web.guard import OpenLimit
from handfoot.web.protocol import (
    ClientMessage,
    ViewCache,
    event_json,
    hands_json,
    public_view_json,
    seat_view_json,
)
from handfoot.web.store import (
    CHANNEL,
    GameRow,
    MoveConflict,
    MoveRow,
    Store,
    now,
    read_move_payload,
    token_hash,
)

__all__ = ["BOTS", "Connection", "SeedSource", "Settings", "Table", "Tables"]

log = logging.getLogger("handfoot.web")

HELLO_EVENTS: Final = 30
"""Events of the current round sent with the first state after a hello whose ``seq`` is not
in the current round (a client that saw the round so far gets exactly what it missed)."""

MAX_QUEUE: Final = 500
"""Frames waiting for one slow client before it is disconnected (it resyncs on reconnect)."""

REMATCH_SECRET: Final = "rematch"
"""The server secret a rematch's tokens are derived from."""

OWN_KEYS: Final = ("seat", "side", "opening_minimum")
"""The keys of a view that are a seat's own (null for a spectator); with ``hand``, ``staged``
and ``legal`` (a seat's only) they are what a seat's view adds to the public part."""

STAND_IN_BOT: Final = "hard"
"""The bot that plays for a person away past the grace time, where the table chose so."""

PROFILE_ENV: Final = "HANDFOOT_SERVER_PROFILE"
"""Set to a path prefix, each server process profiles itself (cProfile) from its tables'
start and writes the statistics to ``<prefix>.<pid>`` when they close (a measuring aid for
``serve --workers``, whose worker processes cannot be started under ``python -m cProfile``)."""

SWEEP_EVERY: Final = 10.0
"""Seconds between a process's sweeps over a shared database: it catches up every game it
holds that is behind the table of moves."""

HEARTBEAT_EVERY: Final = 2.0
"""Seconds between a process's heartbeats on a shared database: it says it is alive (its
presence rows, which count for :data:`~handfoot.web.store.PRESENCE_STALE` seconds), renews
or takes the leases on the bots of the games it has connections to (which last
:data:`~handfoot.web.store.BOT_LEASE` seconds), and reads who is connected elsewhere."""


SeedSource = Callable[[str, str, Sequence[Mapping[str, Any]]], int]

_Played = tuple[int, int, mv.PlayerMove, str]
"""A move of the current round as a table played it: seq, seat, move, by whom."""
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
    message_rate: float = 50.0
    """Messages a second one WebSocket may send, on average (a token bucket)."""
    message_burst: int = 200
    """Messages one WebSocket may send at once (the bucket's size)."""
    flood_limit: int = 100
    """Messages refused in a row for the rate after which the connection is closed."""
    idle_timeout: float = 300.0
    """Seconds a game stays in memory with nobody connected to it or asking for it; then
    it is dropped, and rebuilt from the database (by replay) when next asked for."""
    open_limits: bool = True
    """Whether new games, table WebSockets and new score sheets are limited per client
    address (the six fields below; ``--no-open-limits``): False only for tests and
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

    def open_limit_list(self) -> tuple[OpenLimit, ...]:
        """The limits :class:`~handfoot.web.guard.OpenLimiter` applies (none if turned off)."""
        if not self.open_limits:
            return ()
        return (OpenLimit("game", self.games_burst, self.games_per_minute, "new games"),
                OpenLimit("socket", self.sockets_burst, self.sockets_per_minute,
                          "table connections"),
                OpenLimit("sheet", self.sheets_burst, self.sheets_per_minute,
                          "new score sheets"))


@dataclass
class SeatStats:
    """What a player did over the game (for the final screen)."""

    pickups: int = 0
    books: int = 0
    melded: int = 0

    def json(self, seat: int) -> dict[str, int]:
        return {"seat": seat, "pickups": self.pickups, "books": self.books,
                "melded": self.melded}


@dataclass(eq=False)
class Connection:
    """One WebSocket on a table: its seat (None for a spectator) and its outbound queue."""

    ws: WebSocket
    seat: int | None
    last_event: int = 0
    closed: bool = False
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    writer: asyncio.Task[None] | None = None
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the server has let the connection go (its reader stops waiting)."""
    close_code: tuple[int, str] = (1000, "")
    _reader: asyncio.Task[Any] | None = None
    """The task waiting in :meth:`receive` (one per connection: its handler's)."""

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue a message; a client that stopped reading is let go."""
        if not self.closed:
            self.send_text(json.dumps(message, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queue a message already written as JSON."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            log.info("a client fell %d frames behind: disconnected", MAX_QUEUE)
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Let the connection go once the frames queued before are sent (closing the
        WebSocket with ``code`` and ``reason``); a reader waiting in :meth:`receive` is
        woken (the socket may never answer: a client that stopped reading)."""
        if not self.closed:
            self.closed = True
            self.close_code = (code, reason)
            self.queue.put_nowait(None)
            reader = self._reader
            if reader is not None and reader is not asyncio.current_task():
                reader.cancel()
        self.ended.set()

    async def receive(self) -> dict[str, Any] | None:
        """The next frame from the client, or None once either side has let go (when the
        server lets go, :meth:`close` wakes a reader waiting here)."""
        if self.closed:
            return None
        self._reader = asyncio.current_task()
        try:
            frame: dict[str, Any] = dict(await self.ws.receive())
        except asyncio.CancelledError:
            task = self._reader
            self._reader = None
            if not self.closed or task is None or task.uncancel() > 0:
                raise  # not (only) the wake-up of close(): a real cancellation
            return None
        self._reader = None
        return None if frame["type"] == "websocket.disconnect" else frame

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                break
            try:
                await self.ws.send_text(text)
            except Exception:  # the socket is gone; the reader notices too
                break
        self.closed = True
        self.ended.set()
        with contextlib.suppress(Exception):
            await self.ws.close(*self.close_code)


@dataclass(frozen=True, slots=True)
class SeatConfig:
    seat: int
    kind: str
    level: str | None
    name: str

    def json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "kind": self.kind, "level": self.level}


class Table:
    """A game being played: the state, who is connected, and the bots."""

    def __init__(self, row: GameRow, profile: Profile, store: Store, settings: Settings,
                 pool: Callable[[], ProcessPoolExecutor]) -> None:
        self.id = row.id
        self.row = row
        self.profile = profile
        self.layout = Layout.parse(row.layout)
        self.store = store
        self.settings = settings
        self._pool = pool
        self.seats = tuple(SeatConfig(s.seat, s.kind, s.level, s.name) for s in row.seats)
        self._token_hashes = {s.token_hash: s.seat for s in row.seats if s.token_hash}
        self.absent: str = row.settings.get("absent", "wait")
        self.daily: str | None = row.settings.get("daily")
        self.state = GameState.new(profile, layout=self.layout, seed=row.seed)
        names = [s.name for s in self.seats]
        self.seat_names = tuple(names)
        self.side_names = [" and ".join(names[s] for s in self.layout.seats_of(side))
                           for side in range(self.layout.sides)]
        self.seq = 0
        self.updated = row.updated
        self.acks: dict[tuple[int, str], int] = {}
        self.continued: set[tuple[int, int]] = set()
        self.stats = [SeatStats() for _ in self.seats]
        self._tally = _Tally(profile)
        self._view_cache = ViewCache()
        self.bots: dict[int, Bot] = {s.seat: self._make_bot(s.level or "hard", s.seat)
                                     for s in self.seats if s.kind == "bot"}
        self.stand_ins: dict[int, Bot] = {}
        self.connections: list[Connection] = []
        self.away_since: dict[int, float] = {s.seat: 0.0 for s in self.seats
                                             if s.kind == "human"}
        self.rematch: tuple[str, bytes] | None = None
        """The game that follows this one (its id, and the secret its tokens come from)."""
        self.rematch_lock = asyncio.Lock()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.touched = time.monotonic()
        """When the table was last asked for or a connection came or went."""
        # several processes (a shared database): see the section "other processes"
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
        self._thought: dict[int, int] = {}
        """The seq at which each seat's bot last thought here (its memory has that view)."""
        self._bots_behind = False
        """Whether a bot's move of this round was played without its bot thinking it here
        (a load, another process's move): the bots remake the round before they move."""
        self._round_start = self.state.copy()
        """The current round as dealt (for the bots to remake its moves from)."""
        self._round_rows: list[_Played] = []
        """The current round's moves so far."""
        self._presence_lock = asyncio.Lock()
        self._background: set[asyncio.Task[Any]] = set()
        self.heard: dict[int, MoveRow] = {}
        """Moves another process stored, as its notifications carried them, by seq: played
        from here, without reading them back (see :meth:`play_heard`)."""

    def _make_bot(self, level: str, seat: int, label: str = "bot", *,
                  round_number: int | None = None) -> Bot:
        """A bot for the current round, or ``round_number`` (round 1's seed is the one
        bots had before they were made per round)."""
        number = self.state.round_number if round_number is None else round_number
        seed = derive_seed(self.row.seed, label, seat) if number == 1 else \
            derive_seed(self.row.seed, label, seat, number)
        if level == "expert" and self.settings.expert_budget is not None:
            return ExpertBot(seed, time_budget=self.settings.expert_budget)
        return make_bot(level, seed)

    # -- replay and playing moves -----------------------------------------------------------

    def replay(self, rows: list[MoveRow], continued: set[tuple[int, int]]) -> None:
        """Play stored moves (at load, and moves another process stored). Nobody thinks
        here: a bot's move this process did not think leaves the bots behind, and they
        remake the current round's moves from its start (:meth:`catch_up_bots`, in a
        thread) before they next move here, if ever."""
        self.continued = set(continued)
        number = self.state.round_number
        try:
            for row in rows:
                if row.seq != self.seq + 1:
                    raise ValueError(f"game {self.id}: move {row.seq} follows move {self.seq}")
                if row.by == "bot" and self._thought.get(row.seat) != self.seq:
                    self._bots_behind = True
                self._play(row.seat, _stored_move(row.notation), row.request_id, row.by,
                           new_bots=False)
        finally:
            if self.state.round_number != number:  # the bots of the last round only
                self.bots = self._fresh_bots(self.state.round_number)

    def catch_up_bots(self) -> None:
        """Bring the bots' memory up to date (see :meth:`replay`), all at once."""
        if self._bots_behind:
            start, rows = self._round_start.copy(), list(self._round_rows)
            bots, differ = _remake_bots(self._fresh_bots(start.round_number), start, rows)
            self._log_differences(differ)
            self._install_bots(bots, len(rows))

    async def catch_up_bots_apart(self) -> None:
        """:meth:`catch_up_bots` away from the event loop: in a thread, or for the expert
        (whose every move is a search) in the pool of processes it thinks in. Moves may be
        played meanwhile: bots remade for an earlier point of the round catch up again."""
        loop = asyncio.get_running_loop()
        while self._bots_behind:
            number = self.state.round_number
            start, rows = self._round_start.copy(), list(self._round_rows)
            fresh = self._fresh_bots(number)
            if any(b.name == "expert" for b in fresh.values()):
                bots, differ = await loop.run_in_executor(self._pool(), _remake_bots, fresh,
                                                          start, rows)
            else:
                bots, differ = await asyncio.to_thread(_remake_bots, fresh, start, rows)
            self._log_differences(differ)
            if self.state.round_number == number:
                self._install_bots(bots, len(rows))
            # else a new round began meanwhile: its bots start afresh (already behind
            # again only if a bot's move of the new round was not thought here)

    def _fresh_bots(self, round_number: int) -> dict[int, Bot]:
        return {s.seat: self._make_bot(s.level or "hard", s.seat, round_number=round_number)
                for s in self.seats if s.kind == "bot"}

    def _log_differences(self, differ: list[tuple[int, str | None, str]]) -> None:
        for seq, again, played in differ:
            log.info("game %s move %d: the bot chose %r again, the game has %r", self.id,
                     seq, again, played)

    def _install_bots(self, bots: dict[int, Bot], upto: int) -> None:
        """Take bots remade from the first ``upto`` moves of the round; still behind if a
        bot's move came after those."""
        self.bots = bots
        self._thought.clear()
        self._bots_behind = any(r[3] == "bot" for r in self._round_rows[upto:])

    def _play(self, seat: int, move: mv.PlayerMove, request_id: str | None,
              by: str, *, new_bots: bool = True) -> None:
        """Play a move already checked (and stored), noting its events and statistics;
        a move that begins a round makes the round's bots unless not ``new_bots`` (a replay
        makes only the last round's)."""
        state = self.state
        round_before = state.round_number
        results_before = len(state.results)
        # a draw or a discard lays nothing on the table: no points melded, no book made
        lays = not isinstance(move, mv.Draw | mv.Discard)
        before = self._tally.before(state, state.side_of[seat]) if lays else None
        state.apply(move)
        self.seq += 1
        if state.round_number != round_before:  # a new round: its bots start afresh
            if new_bots:
                self.bots = self._fresh_bots(state.round_number)
            self.stand_ins.clear()
            self._thought.clear()
            self._bots_behind = False
            self._round_start = state.copy()
            self._round_rows = []
        else:
            self._round_rows.append((self.seq, seat, move, by))
        if request_id is not None:
            self.acks[(seat, request_id)] = self.seq
        if before is not None:
            self._count_laid(seat, move, before, results_before)

    def _count_laid(self, seat: int, move: mv.PlayerMove, before: tuple[int, int],
                    results_before: int) -> None:
        """Add to a seat's statistics what its move (just played; neither a draw nor a
        discard) laid on its side's table: the card points it added and the books it made,
        from the side's tally ``before`` it (nothing for a move that takes cards back, as an
        undo does)."""
        state = self.state
        side = state.side_of[seat]
        stats = self.stats[seat]
        if isinstance(move, mv.Pickup):
            stats.pickups += 1
        if len(state.results) > results_before:  # the move ended the round
            lines = {line.key: line for line in state.results[results_before].scores[side].lines}
            table_after = lines["melded"].points
            books_after = sum(lines[k].count for k in
                              ("clean_books", "special_books", "dirty_books", "wild_books")
                              if k in lines)
        else:
            table_after, books_after = self._tally(state, side)
        stats.melded += max(0, table_after - before[0])
        stats.books += max(0, books_after - before[1])

    async def commit(self, seat: int, move: mv.PlayerMove, by: str,
                     request_id: str | None) -> None:
        """Store a legal move, then play it (the caller holds the lock)."""
        trial = self.state.copy()
        trial.apply(move)  # raises IllegalMoveError before anything is stored
        row = MoveRow(self.seq + 1, self.state.round_number, seat, format_move(move), by,
                      request_id)
        stamp = await self.store.add_move(self.id, row,
                                          status="over" if trial.is_over else None)
        self._play(seat, move, request_id, by)
        self.updated = stamp  # as stored: a table rebuilt from the database has the same
        if self.state.is_over and self.daily is not None:
            human = next((s.seat for s in self.seats if s.kind == "human"), 0)
            side = self.state.side_of[human]
            await self.store.finish_daily(self.id, self.state.totals[side],
                                          side in self.state.winners())

    # -- what the table is waiting for ------------------------------------------------------

    def authenticate(self, token: str) -> tuple[bool, int | None]:
        """Whether a token is one of this game's, and its seat (None: the spectator's)."""
        digest = token_hash(token)
        if hmac.compare_digest(digest, self.row.spectator_hash):
            return True, None
        for known, seat in self._token_hashes.items():
            if hmac.compare_digest(digest, known):
                return True, seat
        return False, None

    def present(self, seat: int) -> bool:
        return any(c.seat == seat and not c.closed for c in self.connections) \
            or seat in self.remote

    def presence(self) -> list[bool]:
        return [s.kind == "bot" or self.present(s.seat) for s in self.seats]

    def _stood_in(self, seat: int) -> bool:
        """A person away past the grace time whose seat a bot plays (where chosen)."""
        if self.absent != "bot" or self.seats[seat].kind != "human" or self.present(seat) \
                or not self.remote_known:
            return False
        return time.monotonic() - self.away_since[seat] >= self.settings.absent_grace

    def waiting(self) -> dict[str, Any] | None:
        """The people who must still press Continue after the last round, or None."""
        state = self.state
        if state.is_over or not state.results:
            return None
        number = state.results[-1].round_number
        missing = [s.seat for s in self.seats if s.kind == "human"
                   and (number, s.seat) not in self.continued and not self._stood_in(s.seat)]
        return {"continue": missing, "round": number} if missing else None

    def refusal(self, seat: int | None) -> tuple[str, str] | None:
        """Why ``seat`` may not move now, as (code, message), or None."""
        if seat is None:
            return "not_your_turn", "you are watching: spectators cannot move"
        if self.state.is_over:
            return "illegal", "the game is over"
        wait = self.waiting()
        if wait is not None:
            return "waiting", (f"round {wait['round']} is over: waiting for everyone to "
                               "press Continue")
        if self.state.to_act != seat:
            who = self.seats[self.state.to_act].name
            return "not_your_turn", f"it is {who}'s turn, not yours"
        return None

    # -- messages out -----------------------------------------------------------------------

    def game_json(self) -> dict[str, Any]:
        return {"id": self.id, "profile": self.profile.name,
                "profile_title": self.profile.title, "layout": str(self.layout),
                "rounds": self.profile.rounds, "seats": [s.json() for s in self.seats],
                "absent": self.absent}

    def public_view(self) -> dict[str, Any]:
        """The view anybody watching has (from a seat not acting: no legal moves listed)."""
        state = self.state
        return public_view_json(state.view(1 if state.to_act == 0 else 0), self.side_names,
                                cache=self._view_cache)

    def view_for(self, seat: int | None, public: dict[str, Any] | None = None,
                 ) -> dict[str, Any]:
        """A connection's view; ``public``: :meth:`public_view` now, if already built."""
        state = self.state
        if seat is None:
            data = dict(public) if public is not None else self.public_view()
        else:
            data = seat_view_json(state, seat, self.side_names, public=public)
        if state.is_over:
            data["stats"] = [s.json(i) for i, s in enumerate(self.stats)]
            data["winners"] = list(state.winners())
        return data

    def hello_events(self, since: int | None) -> list[Event]:
        """The events for the state after a hello: those after ``since`` (the last seq the
        client saw) when they are all of the latest event's round, else the last
        :data:`HELLO_EVENTS` or fewer of that round."""
        if self.seq == 0:
            return []
        latest = self.state.events(self.seq - 1)[-1].round_number
        if since is not None and 0 <= since <= self.seq:
            missed = self.state.events(since)
            if all(e.round_number == latest for e in missed):
                return missed
        events = self.state.events(max(0, self.seq - HELLO_EVENTS))
        return [e for e in events if e.round_number == latest]

    def state_message(self, conn: Connection, *, hello: bool = False,
                      since: int | None = None, public: dict[str, Any] | None = None,
                      recent: Sequence[Event] | None = None) -> dict[str, Any]:
        """A connection's ``state``: its view and the events it has not been sent.
        ``public`` and ``recent`` (the events from the oldest a connection lacks), when
        given, are shared by every connection of a broadcast."""
        start = min(conn.last_event, self.seq)
        if hello:
            events = self.hello_events(since)
        elif recent is not None:
            events = [e for e in recent if e.number >= start]
        else:
            events = self.state.events(start)
        conn.last_event = self.seq
        return {"type": "state", "seq": self.seq, "view": self.view_for(conn.seat, public),
                "events": [event_json(e, conn.seat) for e in events],
                "presence": self.presence(), "waiting": self.waiting()}

    def broadcast(self) -> None:
        """Send every connection its own state: the message :meth:`state_message` gives,
        with the public part of the view and the events built, and the public part written
        as JSON, once for every connection (a seat's own part is written on its own)."""
        connections = list(self.connections)
        if not connections:
            return
        public = self.public_view()
        for key in OWN_KEYS:
            del public[key]
        if self.state.is_over:
            public["stats"] = [s.json(i) for i, s in enumerate(self.stats)]
            public["winners"] = list(self.state.winners())
        head = (f'{{"type":"state","seq":{self.seq},"presence":{_json(self.presence())},'
                f'"waiting":{_json(self.waiting())},"view":{_json(public)[:-1]},')
        recent = self.state.events(min(min(c.last_event for c in connections), self.seq))
        for conn in connections:
            start = min(conn.last_event, self.seq)
            events = [event_json(e, conn.seat) for e in recent if e.number >= start]
            conn.last_event = self.seq
            own = dict.fromkeys(OWN_KEYS) if conn.seat is None else \
                seat_view_json(self.state, conn.seat, self.side_names, public={})
            conn.send_text(f'{head}{_json(own)[1:]},"events":{_json(events)}}}')

    def broadcast_presence(self) -> None:
        message = {"type": "presence", "presence": self.presence()}
        for conn in list(self.connections):
            conn.send(message)

    def rematch_message(self, seat: int | None) -> dict[str, Any] | None:
        """The rematch for one connection: its own seat's new link (the spectator link for a
        spectator), or None while there is no rematch."""
        if self.rematch is None:
            return None
        game_id, secret = self.rematch
        key = "s" if seat is None else "t"
        return {"type": "rematch", "game_id": game_id,
                "link": f"/game/{game_id}#{key}={rematch_token(secret, game_id, seat)}"}

    def set_rematch(self, game_id: str, secret: bytes) -> None:
        """The rematch exists: tell every connection its own way in."""
        self.rematch = (game_id, secret)
        for conn in list(self.connections):
            message = self.rematch_message(conn.seat)
            if message is not None:
                conn.send(message)

    # -- connections ------------------------------------------------------------------------

    def join(self, conn: Connection, since: int | None = None) -> None:
        """A connection arrives; ``since`` is the last seq its hello said it saw."""
        self.touched = time.monotonic()
        self.connections.append(conn)
        conn.start()
        conn.send({"type": "welcome", "seat": conn.seat, "game": self.game_json()})
        conn.send(self.state_message(conn, hello=True, since=since))
        rematch = self.rematch_message(conn.seat)
        if rematch is not None:
            conn.send(rematch)
        self.broadcast_presence()
        self._presence_changed()
        self._ensure_task()
        self.wake.set()

    def leave(self, conn: Connection) -> None:
        self.touched = time.monotonic()
        if conn in self.connections:
            self.connections.remove(conn)
        conn.close()
        seat = conn.seat
        if seat is not None and not self.present(seat):
            self.away_since[seat] = time.monotonic()
            if self.absent == "bot":
                asyncio.get_running_loop().call_later(self.settings.absent_grace + 0.01,
                                                      self.wake.set)
        self.broadcast_presence()
        self._presence_changed()
        self.wake.set()

    # -- handling client messages -----------------------------------------------------------

    async def handle(self, conn: Connection, msg: ClientMessage) -> None:
        if msg.type == "ping":
            conn.send({"type": "pong"})
        elif msg.type == "move":
            await self._move(conn, msg)
        elif msg.type == "check":
            self._check(conn, msg)
        elif msg.type == "hint":
            self._hint(conn, msg)
        elif msg.type == "continue":
            await self._continue(conn, msg)
        elif msg.type == "hello":
            conn.send(_error(msg.id, "bad_message", "already said hello"))

    async def _move(self, conn: Connection, msg: ClientMessage) -> None:
        seat = conn.seat
        if seat is None:
            conn.send(_error(msg.id, "not_your_turn", "you are watching: spectators cannot move"))
            return
        async with self.lock:
            if msg.id is not None and (seat, msg.id) in self.acks:
                conn.send({"type": "ack", "id": msg.id, "seq": self.acks[(seat, msg.id)]})
                return
            if msg.seq != self.seq:
                conn.send(_error(msg.id, "stale", f"you saw move {msg.seq}; the game is at "
                                 f"move {self.seq}: here is the table now"))
                conn.send(self.state_message(conn))
                return
            refused = self.refusal(seat)
            if refused is not None:
                conn.send(_error(msg.id, *refused))
                return
            assert seat is not None and msg.move is not None
            try:
                move = parse_move(msg.move)
            except MoveSyntaxError as exc:
                conn.send(_error(msg.id, "illegal", str(exc)))
                return
            reason = self.state.check(move)
            if reason is not None:
                conn.send(_error(msg.id, "illegal", reason))
                return
            try:
                await self.commit(seat, move, "human", msg.id)
            except MoveConflict:  # another process stored a move first
                await self._catch_up_moves()
                conn.send(_error(msg.id, "stale", "another move came first: here is the "
                                 "table now"))
                self.broadcast()
                return
            conn.send({"type": "ack", "id": msg.id, "seq": self.seq})
            self.broadcast()
        self.wake.set()

    def _check(self, conn: Connection, msg: ClientMessage) -> None:
        refused = self.refusal(conn.seat)
        if refused is not None:
            conn.send({"type": "checked", "id": msg.id, "ok": False, "message": refused[1]})
            return
        assert msg.move is not None
        try:
            reason = self.state.check(parse_move(msg.move))
        except MoveSyntaxError as exc:
            reason = str(exc)
        conn.send({"type": "checked", "id": msg.id, "ok": reason is None, "message": reason})

    def _hint(self, conn: Connection, msg: ClientMessage) -> None:
        refused = self.refusal(conn.seat)
        if refused is not None or conn.seat is None:
            conn.send({"type": "hint", "id": msg.id, "move": None, "words": None,
                       "reason": refused[1] if refused else "spectators get no hints"})
            return
        advice = hint(self.state, conn.seat, derive_seed(self.row.seed, "hint", self.seq))
        if advice is None:
            conn.send({"type": "hint", "id": msg.id, "move": None, "words": None,
                       "reason": "the hard bot has no advice here"})
        else:
            conn.send({"type": "hint", "id": msg.id, "move": advice.notation,
                       "words": advice_words(advice.move), "reason": advice.reason})

    async def _continue(self, conn: Connection, msg: ClientMessage) -> None:
        seat = conn.seat
        number = msg.round
        if seat is None or self.seats[seat].kind != "human":
            conn.send(_error(msg.id, "not_your_turn", "only the people at the table continue"))
            return
        if number is None or not 1 <= number <= len(self.state.results):
            conn.send(_error(msg.id, "bad_message", f"round {number} has not ended"))
            return
        async with self.lock:
            if (number, seat) not in self.continued:
                await self.store.add_continue(self.id, number, seat)
                self.continued.add((number, seat))
                self.broadcast()
        self.wake.set()

    # -- bots -------------------------------------------------------------------------------

    def _ensure_task(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run_bots())

    def _bot_to_move(self) -> tuple[int, Bot, str] | None:
        state = self.state
        if state.is_over or not self.connections or not self.drives_bots \
                or self.waiting() is not None:
            return None
        seat = state.to_act
        if seat in self.bots:
            return seat, self.bots[seat], "bot"
        if self._stood_in(seat):
            if seat not in self.stand_ins:
                self.stand_ins[seat] = self._make_bot(STAND_IN_BOT, seat, "stand-in")
            return seat, self.stand_ins[seat], "stand-in"
        return None

    async def _run_bots(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self.wake.wait()
            self.wake.clear()
            while (turn := self._bot_to_move()) is not None:
                if self._bots_behind:
                    await self.catch_up_bots_apart()
                    continue
                seat, bot, by = turn
                seq = self.seq
                started = loop.time()
                try:
                    move, bot = await self._think(bot, seat)
                    self._thought[seat] = seq
                except Exception:
                    log.exception("game %s: the %s bot of seat %d failed", self.id,
                                  bot.name, seat + 1)
                    return
                delay = started + self.settings.bot_delay - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                async with self.lock:
                    again = self._bot_to_move()
                    if self.seq != seq or again is None or again[0] != seat or again[2] != by:
                        continue  # the table changed while the bot thought
                    (self.bots if by == "bot" else self.stand_ins)[seat] = bot
                    try:
                        await self.commit(seat, move, by, None)
                    except MoveConflict:  # another process played this turn first
                        await self._catch_up_moves()
                    self.broadcast()

    async def _think(self, bot: Bot, seat: int) -> tuple[mv.PlayerMove, Bot]:
        if bot.name == "expert":
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool(), _think_apart, bot,
                                              self.state.copy(), seat)
        return bot_turn(bot, self.state, seat), bot

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        for conn in list(self.connections):
            conn.close()

    # -- other processes (a shared database) ------------------------------------------------

    async def catch_up(self, what: str = "mcsp") -> None:
        """Read what other processes stored: ``m`` the moves after the last played here
        (``h``: those heard, read from the database only if some are missing), ``c``
        Continue presses, ``s`` a rematch, ``p`` who is connected elsewhere; then tell this
        process's connections and wake the bots."""
        changed = False
        if "p" in what and self.worker is not None:  # needs no lock: nothing is played
            self._remote_presence(await self.store.presence(self.id, besides=self.worker))
            self.remote_known = True
            if not self.drives_bots and self.connections and self.has_bots:
                # its holder may have left
                await self.claim_bots()
        async with self.lock:
            if "m" in what or "h" in what:
                changed |= await self._catch_up_moves(heard_only="m" not in what)
            if "c" in what:
                stored = await self.store.continues(self.id)
                if not stored <= self.continued:
                    self.continued |= stored
                    changed = True
            if "s" in what and self.rematch is None:
                rematch = (await self.store.settings(self.id) or {}).get("rematch")
                if isinstance(rematch, str):
                    self.set_rematch(rematch, await self.store.secret(REMATCH_SECRET))
        if changed:
            self.broadcast()
        self.wake.set()

    def play_heard(self) -> bool:
        """Play the moves heard (:attr:`heard`) that follow the last one played here, in
        order, without awaiting anything (the caller holds the lock, or it is free);
        whether any was. Those played and older are forgotten; the rest wait for the moves
        between (a gap: read from the database)."""
        played = False
        while (row := self.heard.pop(self.seq + 1, None)) is not None:
            try:
                self.replay([row], self.continued)
            except (ValueError, IllegalMoveError, MoveSyntaxError):
                log.warning("game %s: the move %d heard could not be played: %r", self.id,
                            row.seq, row.notation)
                self.heard.clear()  # read from the database instead
                break
            played = True
        for seq in [seq for seq in self.heard if seq <= self.seq]:
            del self.heard[seq]
        if played:
            self.updated = now()
        return played

    async def _catch_up_moves(self, *, heard_only: bool = False) -> bool:
        """Play the moves stored after the last one played here (the caller holds the
        lock): the moves heard, then (unless ``heard_only`` and none is missing) those in
        the database; whether there were any."""
        played = self.play_heard()
        if heard_only and not self.heard:
            return played
        rows = await self.store.moves(self.id, after=self.seq)
        self.heard.clear()
        if not rows:
            return played
        self.replay(rows, self.continued)
        self.updated = now()
        return True

    def _remote_presence(self, seats: set[int]) -> None:
        if seats == self.remote:
            return
        gone = self.remote - seats
        self.remote = seats
        for seat in gone:
            if not self.present(seat) and seat in self.away_since:
                self.away_since[seat] = time.monotonic()
                if self.absent == "bot":
                    asyncio.get_running_loop().call_later(
                        self.settings.absent_grace + 0.01, self.wake.set)
        self.broadcast_presence()

    def _presence_changed(self) -> None:
        """Store which seats this process has connections for (a shared database only)."""
        if self.worker is None:
            return
        task = asyncio.create_task(self._write_presence(self.worker))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _write_presence(self, worker: str) -> None:
        async with self._presence_lock:  # the latest state is written last
            seats = {c.seat for c in self.connections if c.seat is not None and not c.closed}
            try:
                await self.claim_bots()  # before the presence's notice, which others act on
            except Exception:  # the heartbeat tries again
                log.exception("game %s: the lease on its bots could not be stored", self.id)
            try:
                await self.store.set_presence(worker, self.id, seats)
            except Exception:
                log.exception("game %s: presence could not be stored", self.id)

    async def claim_bots(self) -> None:
        """On a shared database: take (or keep) the lease on playing this game's bots while
        this process has connections to it and the game goes on, and give it up when it
        has none (another process with connections then takes it when it hears of the
        change, or at its next heartbeat)."""
        if self.worker is None or not self.has_bots:
            return
        if self.connections and not self.state.is_over:
            granted = self.id in await self.store.claim_bots(self.worker, [self.id])
        else:
            if self.drives_bots:
                await self.store.release_bots(self.worker, [self.id])
            granted = False
        self.set_drives_bots(granted)

    @property
    def has_bots(self) -> bool:
        """Whether a bot may ever play at this table: a bot's seat, or stand-ins for
        absent people (a table of people only needs no lease)."""
        return bool(self.bots) or any(s.kind == "bot" for s in self.seats) \
            or self.absent == "bot"

    def set_drives_bots(self, granted: bool) -> None:
        """Whether this process holds the lease on the bots now (woken when it takes it)."""
        if granted and not self.drives_bots:
            log.info("game %s: this process plays its bots now", self.id)
            self.wake.set()
        self.drives_bots = granted

    # -- after the game ---------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game so far as a record, from the state's history (made when asked for:
        a restore builds nothing for it)."""
        return record_from_state(self.state, seat_names=self.seat_names,
                                 metadata={"game_id": self.id})

    def record_data(self) -> dict[str, Any]:
        data = record_to_data(self.record())
        if self.daily is not None and self.daily >= _today():
            data.get("metadata", {}).pop("seed", None)  # published once the day is over
        return data

    def replay_frames(self) -> list[dict[str, Any]]:
        """The whole game move by move, every card visible (after the game only): the
        deal, then the table after each move; a move that ends a round shows the table as
        the round ended (phase ``round_end``, or ``game_over`` after the last), then comes
        the next deal."""
        state = GameState.new(self.profile, layout=self.layout, seed=self.row.seed)
        frames = [self._frame(state, None, None)]
        for rnd in self.record().rounds:
            for recorded in rnd.moves:
                move = parse_move(recorded.move)
                number = state.round_number
                results = len(state.results)
                end = state.copy()
                # the same rules but for the game ending here, so the table stays as it was
                end.profile = replace(state.profile, rounds=number, target_score=None)
                end.apply(move)
                state.apply(move)
                if len(state.results) == results:
                    frames.append(self._frame(state, recorded.move, recorded.seat, number))
                    continue
                frame = self._frame(end, recorded.move, recorded.seat, number)
                if not state.is_over:
                    frame["state"]["phase"] = "round_end"
                frames.append(frame)
                if not state.is_over:
                    frames.append(self._frame(state, None, None))
        return frames

    def _frame(self, state: GameState, move: str | None, seat: int | None,
               round_number: int | None = None) -> dict[str, Any]:
        data = public_view_json(state.view(0), self.side_names)
        data.update(hands_json(state))
        data["rounds"] = self.profile.rounds
        return {"move": move, "seat": seat, "round": round_number or state.round_number,
                "state": data}


def _remake_bots(bots: dict[int, Bot], trial: GameState, rows: list[_Played],
                 ) -> tuple[dict[int, Bot], list[tuple[int, str | None, str]]]:
    """``bots`` (new for the round), each having remade its own moves of ``rows`` (the
    round's moves so far, played from ``trial``, its start) from its seat's views; and the
    moves a bot chose differently (seq, its choice, the move played), as the time-limited
    expert's may."""
    differ: list[tuple[int, str | None, str]] = []
    for seq, seat, move, by in rows:
        bot = bots.get(seat) if by == "bot" else None
        if bot is not None:
            try:
                again: mv.PlayerMove | None = bot_turn(bot, trial, seat)
            except (ValueError, IllegalMoveError):
                again = None
            if again != move:
                differ.append((seq, None if again is None else format_move(again),
                               format_move(move)))
        trial.apply(move)
    return bots, differ


def _think_apart(bot: Bot, state: GameState, seat: int) -> tuple[mv.PlayerMove, Bot]:
    """A bot's move worked out in another process; the bot comes back with its memory."""
    return bot_turn(bot, state, seat), bot


def _table_tally(state: GameState, side: int) -> tuple[int, int]:
    """The points of the cards on a side's table, and its books (of any kind: every meld
    of a book's size is one, as :meth:`GameState.book_counts` counts them)."""
    value = _face_values(state.profile.kind_values).__getitem__
    size = state.profile.book_size
    melds = state.melds[side]
    return (sum(sum(map(value, m.faces)) for m in melds),
            sum(m.naturals + m.twos + m.jokers >= size for m in melds))


class _Tally:
    """:func:`_table_tally` for a table's sides, counting again only what changed: the
    melds on a table are frozen values, replaced when cards are added, so a meld that is
    the same object as at the last tally keeps its points and whether it is a book. A
    replay asks after every move that lays cards, and a move changes one or two melds;
    before such a move it asks :meth:`before`, which answers from the side's last tally in
    the round (only the side's own moves other than draws and discards change its table,
    and each was tallied)."""

    __slots__ = ("_sides", "_size", "_value")

    def __init__(self, profile: Profile) -> None:
        self._value = _face_values(profile.kind_values).__getitem__
        self._size = profile.book_size
        self._sides: dict[int, _SideTally] = {}

    def __call__(self, state: GameState, side: int) -> tuple[int, int]:
        melds = state.melds[side]
        kept = self._sides.get(side)
        if kept is None:
            kept = self._sides[side] = _SideTally()
        old, points, books = kept.melds, kept.points, kept.books
        total, made = kept.tally
        count = len(melds)
        if len(old) > count:  # melds taken back (an undo), or a new round's empty table
            total -= sum(points[count:])
            made -= sum(books[count:])
            del old[count:], points[count:], books[count:]
        value, size = self._value, self._size
        for i, m in enumerate(melds):
            if i < len(old):
                if old[i] is m:
                    continue
                total -= points[i]
                made -= books[i]
                old[i] = m
                points[i] = worth = sum(map(value, m.faces))
                books[i] = book = int(m.naturals + m.twos + m.jokers >= size)
            else:
                old.append(m)
                worth = sum(map(value, m.faces))
                points.append(worth)
                book = int(m.naturals + m.twos + m.jokers >= size)
                books.append(book)
            total += worth
            made += book
        kept.round = state.round_number
        kept.tally = (total, made)
        return kept.tally

    def before(self, state: GameState, side: int) -> tuple[int, int]:
        """The side's tally now, just before one of its moves: its last tally if it was
        made in this round, else counted."""
        kept = self._sides.get(side)
        if kept is not None and kept.round == state.round_number:
            return kept.tally
        return self(state, side)


class _SideTally:
    """A side's melds as :class:`_Tally` last saw them, each one's points and whether it
    is a book (1 or 0), the round then, and the totals."""

    __slots__ = ("books", "melds", "points", "round", "tally")

    def __init__(self) -> None:
        self.melds: list[Any] = []
        self.points: list[int] = []
        self.books: list[int] = []
        self.round = 0
        self.tally = (0, 0)


@functools.lru_cache(maxsize=16)
def _face_values(kind_values: tuple[int, ...]) -> tuple[int, ...]:
    """The value of each face, given the value of each kind (a replay asks for the table's
    points before and after every meld)."""
    return tuple(kind_values[kind] for kind in FACE_KIND)


@functools.lru_cache(maxsize=4096)
def _stored_move(notation: str) -> mv.PlayerMove:
    """A stored move's notation read (moves are frozen values, and the same notations come
    back again and again in a replay: ``draw``, ``discard 7``)."""
    return parse_move(notation)


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


def _json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def _error(request_id: str | None, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": request_id, "code": code, "message": message}


def _today() -> str:
    return now().date().isoformat()


class Tables:
    """The live tables of a server, loaded from the database when first asked for."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self._tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._executor: ProcessPoolExecutor | None = None
        # several processes (a shared database): see the section "other processes"
        self.worker: str | None = None
        self.listener: Listener | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._heart: asyncio.Task[None] | None = None
        self._following: set[asyncio.Task[None]] = set()
        self._idle_sweeper: asyncio.Task[None] | None = None
        self._profiler: Any = None
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
            loaded = await self.store.load(game_id)
            if loaded is None:
                return None
            row, rows, continued = loaded
            profile = _game_profile(row.profile, row.overrides)
            table = Table(row, profile, self.store, self.settings, self.pool)
            await asyncio.to_thread(table.replay, rows, continued)
            rematch = row.settings.get("rematch")
            if isinstance(rematch, str):
                table.rematch = (rematch, await self.store.secret(REMATCH_SECRET))
            self._shared(table)
            table.touched = time.monotonic()
            self._tables[game_id] = table
            return table

    def held(self) -> list[str]:
        """The games in memory now."""
        return list(self._tables)

    async def drop_idle(self, clock: float | None = None) -> list[str]:
        """Drop from memory every table nobody has been connected to or asked for in
        :attr:`Settings.idle_timeout` seconds (as of ``clock``, default now), unless it is
        busy storing something; the games dropped. Its next :meth:`get` replays it."""
        clock = time.monotonic() if clock is None else clock
        dropped = []
        for game_id, table in list(self._tables.items()):
            if table.connections or clock - table.touched < self.settings.idle_timeout \
                    or table.lock.locked() or table.rematch_lock.locked():
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
                log.exception("dropping idle tables failed")

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

    # -- other processes (a shared database) ------------------------------------------------

    async def start(self) -> None:
        """On a shared database (PostgreSQL): listen for what other processes store, and
        sweep every :data:`SWEEP_EVERY` seconds. Nothing to do on SQLite."""
        if not self.store.shared or self.worker is not None:
            return
        self.worker = secrets.token_hex(8)
        self.listener = Listener(self.store.listen_dsn(), CHANNEL, self._heard,
                                 self._recover)
        await self.listener.start()
        self._sweeper = asyncio.create_task(self._sweep())
        self._heart = asyncio.create_task(self._beat())

    def _shared(self, table: Table) -> None:
        """A table just loaded: catch up with what was stored while it loaded."""
        if self.worker is not None:
            table.worker = self.worker
            table.remote_known = False
            table.drives_bots = False  # until it holds the lease (see Table.claim_bots)
            self._follow(table, "mcsp")

    def _heard(self, payload: str) -> None:
        """A notification ``"<kind> <game>[ <seq>[ <move>]]"``: the table, if held here,
        plays the move it carries when that is the next one and the table is not busy, and
        otherwise catches up from the database."""
        kind, _, rest = payload.partition(" ")
        game_id, _, rest = rest.partition(" ")
        seq, _, data = rest.partition(" ")
        table = self._tables.get(game_id)
        if table is None or (kind == "m" and seq.isdigit() and int(seq) <= table.seq):
            return  # not held here, or a move this process made (or has already read)
        if kind == "m" and self._let_go(game_id, table):
            return
        row = read_move_payload(int(seq), data) if kind == "m" and data and seq.isdigit() \
            else None
        if row is None:
            self._follow(table, kind)
            return
        table.heard[row.seq] = row
        if table.lock.locked() or row.seq != table.seq + 1:
            self._follow(table, "h")  # played once the lock is free, or read on a gap
        elif table.play_heard():  # at once: nothing else is playing
            table.broadcast()
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
        task = asyncio.create_task(table.catch_up(what) if what else table.stop())
        self._following.add(task)
        task.add_done_callback(self._followed)

    def _followed(self, task: asyncio.Task[None]) -> None:
        self._following.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("catching up failed", exc_info=task.exception())

    def _recover(self) -> None:
        """The listening connection was lost: notifications may have been missed."""
        for table in list(self._tables.values()):
            self._follow(table, "mcsp")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep over the shared database failed")

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_EVERY)
            try:
                await self.heartbeat()
            except Exception:
                log.exception("the heartbeat on the shared database failed")

    async def heartbeat(self) -> None:
        """Say this process is alive (its presence rows), take or renew the leases on the
        bots of the games it has connections to (and give up the others'), and read
        everybody's presence elsewhere."""
        if self.worker is None:
            return
        await self.store.refresh_presence(self.worker)
        held = dict(self._tables)
        wanted = [g for g, t in held.items()
                  if t.connections and not t.state.is_over and t.has_bots]
        granted = await self.store.claim_bots(self.worker, wanted)
        unwanted = [g for g, t in held.items() if t.drives_bots and g not in wanted]
        await self.store.release_bots(self.worker, unwanted)
        remote = await self.store.presences(held, besides=self.worker)
        for game_id, table in held.items():
            if self._tables.get(game_id) is table:
                table.set_drives_bots(game_id in granted)
                table._remote_presence(remote[game_id])
                table.remote_known = True
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
                catching_up.append(table.catch_up(what))
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
        if self.worker is not None:
            with contextlib.suppress(Exception):
                await self.store.clear_presence(self.worker)
            self.worker = None


def new_token() -> str:
    """A seat or spectator token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def rematch_token(secret: bytes, game_id: str, seat: int | None) -> str:
    """A seat's token (None: the spectator's) in a rematch game, derived from a server
    secret and the new game's id, so that whoever of the old game presses Rematch (or
    reconnects to it) is given the same link to their own seat again."""
    label = "spectator" if seat is None else f"seat {seat}"
    digest = hmac.new(secret, f"{game_id}:{label}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def new_game_id() -> str:
    """A game id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    """A game's seed: 128 bits from :mod:`secrets` (never sent before the game is over)."""
    return secrets.randbits(128)
