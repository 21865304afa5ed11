"""The load benchmark's clients (``benchmarks/server_load.py``): the seats of a table, each on a
WebSocket of its own (:class:`load_socket.Socket`), choosing its moves with a bot from a shadow
of the game that the table's clients share, and the figures they gather (:class:`Stats`).

Split from server_load.py, which starts the server, creates the tables, runs these clients in
processes of their own and reports; ``tests/test_web_durability.py`` reuses them (through
server_load, which names them too).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import random
import time
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from load_socket import Socket, SocketClosed

from handfoot.bots.heuristic import Bot
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import format_move, parse_move
from handfoot.game.rules import Layout, Profile
from handfoot.runs.sim import bot_turn
from handfoot.web.store import Store

if TYPE_CHECKING:
    from server_load import Server

__all__ = ["SeatClient", "Shadow", "Stats", "token_of"]


def token_of(link: str) -> str:
    return link.split("#", 1)[1].split("=", 1)[1]


# -- following a game -----------------------------------------------------------------------


_PROFILES: dict[tuple[str, str], Profile] = {}
"""Profiles read by :meth:`Shadow.of`, by name and overrides (JSON)."""


class Shadow:
    """A game followed from the events its clients receive: the state after each move.

    The clients of one game share it; a move whose notation no client was sent (a server
    bot's go-out asked of its partner) is read from the database."""

    def __init__(self, store: Store, game_id: str, state: GameState) -> None:
        self.store = store
        self.game_id = game_id
        self.state = state
        self.seq = 0
        self.notes: dict[int, str] = {}
        self.waiting: list[tuple[int, asyncio.Future[None]]] = []
        """Who waits in :meth:`reach` for which move."""
        self.seen: dict[int, int] = {}
        """The last seq each seat's client was sent a state for."""
        self.sent: dict[int, float] = {}
        """When each move not yet seen by every seat's client was sent (by its seq)."""
        self.facts: dict[str, Any] = {}
        """What it was made of (:meth:`facts_of`)."""

    def saw(self, seat: int, seq: int, stats: Stats, seats: int, at: float) -> None:
        """A seat's client has the state after ``seq`` (read at ``at``, ``perf_counter``): a
        move every seat has now seen counts its table round trip (the mover's send to the
        last seat's state read)."""
        self.seen[seat] = seq
        if len(self.seen) < seats:
            return
        least = min(self.seen.values())
        for n in [n for n in self.sent if n <= least]:
            stats.table_trips.append(at - self.sent.pop(n))

    @classmethod
    async def load(cls, store: Store, game_id: str) -> Shadow:
        row = await store.game(game_id)
        assert row is not None, game_id
        return cls.of(store, game_id, Shadow.facts_of(row))

    @staticmethod
    def facts_of(row: Any) -> dict[str, Any]:
        """What a shadow needs of a game's row (a :class:`~handfoot.web.store.GameRow`), as
        JSON: what the benchmark hands its clients' processes with each first game, so that
        they need not read 500 games back from the database while the clock runs."""
        return {"profile": row.profile, "overrides": dict(row.overrides),
                "layout": row.layout, "seed": row.seed}

    @classmethod
    def of(cls, store: Store, game_id: str, facts: dict[str, Any]) -> Shadow:
        """The shadow of a game from :meth:`facts_of`; the profile read once per name and
        overrides (:data:`_PROFILES`: a profile is frozen, and reading one parses its TOML)."""
        key = (facts["profile"], json.dumps(facts["overrides"], sort_keys=True))
        profile = _PROFILES.get(key)
        if profile is None:
            profile = _PROFILES[key] = load_profile(facts["profile"],
                                                    overrides=facts["overrides"])
        shadow = cls(store, game_id, GameState.new(profile,
                                                   layout=Layout.parse(facts["layout"]),
                                                   seed=facts["seed"]))
        shadow.facts = facts
        return shadow

    def learn(self, events: Sequence[dict[str, Any]]) -> Coroutine[Any, Any, None] | None:
        """The moves ``events`` show, applied: None when done, else (a move whose notation
        no client was sent) a coroutine to await, which reads the moves from the database
        first."""
        unknown = False
        for event in events:
            n = int(event["n"])
            if n <= self.seq or n in self.notes:
                continue
            if event["type"] == "answer":
                self.notes[n] = "yes" if event["yes"] else "no"
            elif "notation" in event:
                self.notes[n] = str(event["notation"])
            elif "notation" in event.get("private", {}):
                self.notes[n] = str(event["private"]["notation"])
            else:
                unknown = True
        if unknown:
            return self._learn_stored()
        self._advance()
        return None

    async def _learn_stored(self) -> None:
        for row in await self.store.moves(self.game_id):
            self.notes.setdefault(row.seq, row.notation)
        self._advance()

    def note(self, n: int, notation: str) -> None:
        """A move this driver sent, acknowledged as number ``n``."""
        if n > self.seq:
            self.notes.setdefault(n, notation)
            self._advance()

    def _advance(self) -> None:
        while self.seq + 1 in self.notes:
            self.state.apply(parse_move(self.notes[self.seq + 1]))
            self.seq += 1
        if self.waiting:
            still = []
            for seq, waiter in self.waiting:
                if self.seq >= seq:
                    if not waiter.done():
                        waiter.set_result(None)
                else:
                    still.append((seq, waiter))
            self.waiting = still

    async def reach(self, seq: int, timeout: float = 30.0) -> None:
        """Until the shadow has applied move ``seq``."""
        if self.seq >= seq:  # the usual case
            return
        waiter = asyncio.get_running_loop().create_future()
        self.waiting.append((seq, waiter))
        await asyncio.wait_for(waiter, timeout)


@dataclass
class Stats:
    """What the clients measured."""

    round_trips: list[float] = field(default_factory=list)
    """From a move sent until the state that shows it came off the mover's socket (read,
    before the client handled it or anything read in the same turn)."""
    handled_trips: list[float] = field(default_factory=list)
    """The same moves until the client had handled that state (what the benchmark
    measured before it noted the reading time: the client's own handling of everything
    read in that turn included)."""
    arrived: list[float] = field(default_factory=list)
    """When each of :attr:`round_trips` ended (``time.monotonic``)."""
    table_trips: list[float] = field(default_factory=list)
    """From a move sent until every seat's client has the state with it (with several
    server processes the seats are on different ones: the cross-process round trip)."""
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0
    lost: list[str] = field(default_factory=list)
    """Acknowledged moves a server did not have after a restart (durability)."""
    talk: dict[str, int] = field(default_factory=dict)
    """With ``--talk-flood``: the reactions sent, and their answers by kind."""
    joined: int = 0
    """Clients that have had their first ``state`` (each counted once)."""

    def error(self, text: str) -> None:
        self.errors.append(text)

    def parsed(self, text: str | bytes, who: str, default: Any) -> Any:
        """``text``, the JSON a child process (``who``) printed, read; ``default`` with an
        error that quotes what it printed instead when that is not JSON (the run goes on
        and its figures say so; a traceback would lose them)."""
        try:
            return json.loads(text)
        except ValueError as exc:
            shown = text.decode(errors="replace") if isinstance(text, bytes) else text
            self.error(f"{who} printed what is not JSON ({exc}): {shown[:200]!r}"
                       + (f" ... ({len(shown)} characters)" if len(shown) > 200 else ""))
            return default


class Slices:
    """Connections opened at most ``per_turn`` a turn of the event loop, the others in the
    next turns in the order they asked (``--connect-slice``: a clients' process's burst of
    connections spread, to see how much of the joins' cost is the clients' own)."""

    def __init__(self, per_turn: int) -> None:
        self.per_turn = per_turn
        self._opened = 0
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self._next: asyncio.Handle | None = None

    async def turn(self) -> None:
        """Wait until this connection may be opened."""
        if self._opened < self.per_turn and not self._waiting:
            self._opened += 1
        else:
            done = asyncio.get_running_loop().create_future()
            self._waiting.append(done)
            self._schedule()
            await done
        self._schedule()

    def _schedule(self) -> None:
        if self._next is None:
            self._next = asyncio.get_running_loop().call_soon(self._turned)

    def _turned(self) -> None:
        self._next = None
        self._opened = 0
        while self._waiting and self._opened < self.per_turn:
            done = self._waiting.popleft()
            if not done.done():
                done.set_result(None)
                self._opened += 1
        if self._waiting:
            self._schedule()


class SeatClient:
    """One seat (or a spectator: ``seat`` None) of a game on a WebSocket.

    A seat plays: on its turn it waits ``think`` seconds and sends its bot's move. With
    ``reconnect`` it comes back after the connection drops (a server restart) and checks
    that every move acknowledged before is still there.

    Its connection is a :class:`load_socket.Socket` opened ``after_reads``: what every
    socket ready in a turn of the event loop read is noted with its reading time, then
    handled in the next turn in that order (:meth:`_on_message`); only what must wait (the
    database read of a move no client was sent, the think time) runs as a task. The round
    trip of a move ends when its state came off the socket (:attr:`Stats.round_trips`),
    not when the client had handled it and the rest of that turn's reads
    (:attr:`Stats.handled_trips`, reported beside)."""

    def __init__(self, server: Server, shadow: Shadow, token: str, seat: int | None,
                 bot: Bot | None, stats: Stats, *, think: float = 0.0,
                 spread: float = 0.0, seed: int = 0,
                 reconnect: bool = False, stop_at: int | None = None) -> None:
        self.server = server
        self.shadow = shadow
        self.token = token
        self.seat = seat
        self.bot = bot
        self.stats = stats
        self.think = think
        self.spread = spread
        """Each wait is ``think`` times a uniform draw from 1 - spread to 1 + spread."""
        self._waits = random.Random(seed)
        self.reconnect = reconnect
        self.stop_at = stop_at
        """Stop once the game has reached this seq (None: play to the end)."""
        self.acked: dict[int, str] = {}
        """Every move known to have been acknowledged: its number and notation."""
        self.over = False
        self.stopped = False
        self.ws: Socket | None = None
        self._pending: tuple[str, float, str] | None = None  # id, sent at, notation
        self._ack_seq: int | None = None
        self._acting: asyncio.Task[None] | None = None
        self._continued: set[int] = set()
        self._count = 0
        self._first = True
        """No state read yet on this connection."""
        self._backlog: collections.deque[tuple[dict[str, Any], float]] | None = None
        """Messages come while an earlier one waits (for the database), in order."""
        self._draining: asyncio.Task[None] | None = None
        self.compression: str | None = "deflate"
        """The per-message compression asked for (what browsers ask for), or None."""
        self.acks = "state"
        """How the hello asks for its moves' acks (``state``: within the state that shows
        the move, as the browser's client asks; ``frame``: an ``ack`` frame before it)."""
        self.table_seats = 0
        """With every seat of the game played by a client: their number (the table round
        trip is measured), else 0."""
        self.joined = False
        self.opening: Slices | None = None
        """Where its connections wait for their turn to open (None: at once)."""

    async def run(self, until: float) -> None:
        """Play until the game is over or the clock reaches ``until`` (monotonic)."""
        while not self.over and not self.stopped and time.monotonic() < until:
            ws: Socket | None = None
            try:
                if self.opening is not None:
                    await self.opening.turn()
                ws = await Socket.open("127.0.0.1", self.server.port,
                                       f"/ws/{self.shadow.game_id}",
                                       f"http://127.0.0.1:{self.server.port}", self._deliver,
                                       deflate=self.compression == "deflate", timeout=30,
                                       after_reads=True)
                self.ws = ws
                self._first = True
                ws.send_text(json.dumps({"type": "hello", "token": self.token,
                                         "seq": self.shadow.seq, "acks": self.acks}))
                await self._wait(ws, until)
            except (OSError, TimeoutError) as exc:  # SocketClosed is an OSError
                if not self.reconnect:
                    if not self.stopped and time.monotonic() < until:
                        self.stats.error(f"{self.shadow.game_id} seat {self.seat}: {exc!r}")
                    return
                self.stats.reconnects += 1
                await asyncio.sleep(0.05)
                with contextlib.suppress(TimeoutError):  # until the server is back
                    await asyncio.wait_for(self.server.up.wait(), until - time.monotonic())
            finally:
                self.ws = None
                self._pending = None
                for task in (self._acting, self._draining):
                    if task is not None:
                        task.cancel()
                self._acting = self._draining = None
                self._backlog = None
                if ws is not None:
                    await ws.close()

    async def _wait(self, ws: Socket, until: float) -> None:
        """Until the game is over (the socket's ``done``), the clock reaches ``until``
        (stopped) or the connection ends (raises why); a minute without a frame is an
        error."""
        while True:
            if ws.done.done():
                if self.over:
                    return
                raise ws.closed_error()
            now = time.monotonic()
            if now >= until:
                self.stopped = True
                return
            silent = ws.last + 60.0
            if silent <= now:
                self.stats.error(f"{self.shadow.game_id} seat {self.seat}: no frame "
                                 "for 60 s")
                self.stopped = True
                return
            await asyncio.wait([ws.done], timeout=min(until, silent) - now)

    def _deliver(self, m: dict[str, Any]) -> None:
        """A message, as the socket reads it: handled now, or after those still waiting;
        none once the client is through with the connection (closing it)."""
        if self.ws is None:
            return
        at = self.ws.read_at
        if self._backlog is not None:
            self._backlog.append((m, at))
            return
        later = self._on_message(m, at)
        if later is not None:
            self._backlog = collections.deque()
            self._draining = asyncio.create_task(self._drain(later))

    async def _drain(self, later: Coroutine[Any, Any, None]) -> None:
        try:
            await later
            while self._backlog:
                more = self._on_message(*self._backlog.popleft())
                if more is not None:
                    await more
        except Exception as exc:  # the connection's waiter raises it
            if self.ws is not None:
                self.ws.failure = exc
                self.ws.abort()
            raise
        finally:
            self._backlog = None

    def _on_message(self, m: dict[str, Any], at: float,
                    ) -> Coroutine[Any, Any, None] | None:
        """A message read at ``at`` (``time.perf_counter``)."""
        kind = m["type"]
        if kind == "state":
            if self._first:
                self._first = False
                if not self.joined:
                    self.joined = True
                    self.stats.joined += 1
                self._check_acked(m["seq"])
            if "id" in m:  # the ack of our move, within its state
                self._on_ack(m)
            later = self.shadow.learn(m["events"])
            if later is not None:
                return self._state_after(later, m, at)
            self._on_state(m, at)
        elif kind == "ack":
            self._on_ack(m)
        elif kind == "error":
            if m.get("code") != "stale":
                self.stats.error(f"{self.shadow.game_id} seat {self.seat}: {m}")
            self._pending = None  # stale: the table moved on (a bot stood in)
        return None

    async def _state_after(self, learning: Coroutine[Any, Any, None],
                           m: dict[str, Any], at: float) -> None:
        await learning
        self._on_state(m, at)

    def _on_ack(self, m: dict[str, Any]) -> None:
        if self._pending is not None and m["id"] == self._pending[0]:
            self._ack_seq = int(m["seq"])
            self.acked[self._ack_seq] = self._pending[2]
            if self.table_seats:
                self.shadow.sent[self._ack_seq] = self._pending[1]
            self.shadow.note(self._ack_seq, self._pending[2])

    def _check_acked(self, seq: int) -> None:
        known = max(self.acked, default=0)
        if seq < known:
            self.stats.lost.append(f"{self.shadow.game_id}: moves {seq + 1}..{known} were "
                                   "acknowledged but are gone after a restart")

    def _on_state(self, m: dict[str, Any], at: float) -> None:
        """A state whose moves the shadow has applied (read at ``at``)."""
        seq = int(m["seq"])
        if self.table_seats and self.seat is not None:
            self.shadow.saw(self.seat, seq, self.stats, self.table_seats, at)
        for event in m["events"]:
            n = int(event["n"])
            if n in self.shadow.notes:
                self.acked.setdefault(n, self.shadow.notes[n])
        if self._pending is not None and self._ack_seq is not None and seq >= self._ack_seq:
            self.stats.round_trips.append(at - self._pending[1])
            self.stats.handled_trips.append(time.perf_counter() - self._pending[1])
            self.stats.arrived.append(time.monotonic())
            self.stats.moves += 1
            self._pending = None
            self._ack_seq = None
        view = m["view"]
        if view["phase"] == "game_over" or (self.stop_at is not None
                                            and seq >= self.stop_at):
            self.over = True
            if self.ws is not None:
                self.ws.finish()
            return
        if self.seat is None:
            return
        waiting = m["waiting"]
        if waiting is not None:
            number = int(waiting["round"])
            if self.seat in waiting["continue"] and number not in self._continued:
                self._continued.add(number)
                self._send({"type": "continue", "round": number})
            return
        if view["to_act"] == self.seat and self._pending is None and (
                self._acting is None or self._acting.done()):
            self._acting = asyncio.create_task(self._act(seq))

    async def _act(self, seq: int) -> None:
        if self.think:
            await asyncio.sleep(self.think * self._waits.uniform(1 - self.spread,
                                                                 1 + self.spread))
        await self.shadow.reach(seq)
        state = self.shadow.state
        if self.shadow.seq != seq or state.is_over or state.to_act != self.seat:
            return
        assert self.bot is not None and self.seat is not None
        notation = format_move(bot_turn(self.bot, state, self.seat))
        self._count += 1
        rid = f"{self.seat}-{self._count}"
        self._pending = (rid, time.perf_counter(), notation)
        self._ack_seq = None
        self._send({"type": "move", "id": rid, "seq": seq, "move": notation})

    def _send(self, message: dict[str, Any]) -> None:
        if self.ws is not None:
            with contextlib.suppress(SocketClosed):
                self.ws.send_text(json.dumps(message))
