"""Correspondence games: a time per move, and the timers that act when it runs out.

A correspondence game (chosen in the lobby: ``"correspondence": {"per_move": seconds,
"on_timeout": "bot" | "wait"}``, from :data:`MIN_PER_MOVE` to :data:`MAX_PER_MOVE`) lasts
days: nobody needs to be connected. The turn it waits for is a row of ``turns`` (the move
after which the turn began, the seat to act, when it began and when it is due), written by
the process that stores the move that passes the turn (:meth:`TurnKeeper.moved`). The
timers are deadlines in the database, not sleeps: they survive restarts. Every process
runs a :class:`Timers` loop that looks for rows needing something (notices not yet sent,
a deadline passed, a bot to drive) and **claims** each with a conditional ``UPDATE``
(its lease free or lapsed), so across ``--workers`` one process acts on each timer; the
moves' ``(game, seq)`` key makes a stand-in's move count once even if two processes ever
raced.

When the time runs out, the seat's stand-in bot plays that turn (its moves stored with
``by = "timeout"`` and marked in the moves list; the game record just has the moves), or,
with ``"wait"``, the game waits and the other people at the table may give the seat to a
bot (:meth:`TurnKeeper.give_to_bot`) until its person comes back. A turn is the unit: the
stand-in plays from the seat's first decision of the turn to the last (draw, melds,
discard), as a person would.

Time comes from a :class:`Clock` passed to the server, so tests control it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final, Protocol

from sqlalchemy import and_, delete, exists, or_, select, update

from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.web.store import Store, _upsert, log_failure, moves, now, turns

__all__ = ["MAX_PER_MOVE", "MIN_PER_MOVE", "SYSTEM_CLOCK", "Clock", "Correspondence",
           "RequestProblem", "Timers", "TurnKeeper", "TurnRow", "TurnTable",
           "correspondence_from_request"]

log = logging.getLogger("handfoot.web")

MIN_PER_MOVE: Final = 3600
"""Seconds: the shortest time per move of a correspondence game (an hour)."""
MAX_PER_MOVE: Final = 3 * 24 * 3600
"""Seconds: the longest (three days)."""

TIMER_LEASE: Final = 60.0
"""Seconds a process's claim on a timer lasts (a process that dies while acting on it is
replaced once it lapses)."""

BOT_TURN_LEASE: Final = 30.0
"""Seconds before a bot's turn of a correspondence game is driven again if it is still the
same turn (its process died, or nobody held the table)."""


class Clock(Protocol):
    """Where the server's correspondence timers read the time (naive UTC)."""

    def now(self) -> datetime: ...


class _TurnBots(Protocol):
    def start(self) -> None: ...

    async def stand_in_move(self, seat: int) -> mv.PlayerMove: ...


class _TurnSharing(Protocol):
    async def catch_up_moves(self, *, heard_only: bool = False) -> bool: ...


class TurnTable(Protocol):
    """What the turns use of their table (a :class:`~handfoot.web.table.Table`)."""

    id: str
    store: Store
    state: GameState
    seq: int
    seats: tuple[Any, ...]
    turn_start: int
    given_to_bot: set[int]
    timeouts: set[int]
    lock: asyncio.Lock
    wake: asyncio.Event
    turns: TurnKeeper

    @property
    def bots(self) -> _TurnBots: ...

    @property
    def sharing(self) -> _TurnSharing: ...

    def waiting(self) -> dict[str, Any] | None: ...

    def bot_to_act(self) -> bool: ...

    def broadcast(self) -> None: ...

    async def play_bot_move(self, move: mv.PlayerMove, by: str) -> None: ...


class _SystemClock:
    def now(self) -> datetime:
        return now()


SYSTEM_CLOCK: Final[Clock] = _SystemClock()
"""The real time."""


class RequestProblem(ValueError):
    """A correspondence option the lobby sent is not one the server takes."""


@dataclass(frozen=True, slots=True)
class Correspondence:
    """A game's time per move (seconds) and what a time-out does (``"bot"``: the seat's
    stand-in plays the turn; ``"wait"``: the game waits, and the others may give the seat
    to a bot)."""

    per_move: int
    on_timeout: str

    def json(self) -> dict[str, Any]:
        return {"per_move": self.per_move, "on_timeout": self.on_timeout}

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> Correspondence | None:
        data = settings.get("correspondence")
        if not isinstance(data, Mapping):
            return None
        return cls(int(data["per_move"]), str(data["on_timeout"]))


def correspondence_from_request(body: Mapping[str, Any]) -> Correspondence | None:
    """The ``correspondence`` of a new game's request, checked (None: a live game).

    >>> correspondence_from_request({"correspondence": {"per_move": 86400}})
    Correspondence(per_move=86400, on_timeout='bot')
    >>> correspondence_from_request({"correspondence": {"per_move": 60}}) # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    handfoot.web.turns.RequestProblem: correspondence: per_move: from 3600 seconds (an hour)...
    """
    data = body.get("correspondence")
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise RequestProblem("correspondence: {\"per_move\": seconds, \"on_timeout\": "
                             "\"bot\" or \"wait\"}")
    per_move = data.get("per_move")
    if isinstance(per_move, bool) or not isinstance(per_move, int) \
            or not MIN_PER_MOVE <= per_move <= MAX_PER_MOVE:
        raise RequestProblem(f"correspondence: per_move: from {MIN_PER_MOVE} seconds (an "
                             f"hour) to {MAX_PER_MOVE} (three days)")
    on_timeout = data.get("on_timeout", "bot")
    if on_timeout not in ("bot", "wait"):
        raise RequestProblem("correspondence: on_timeout: \"bot\" or \"wait\"")
    return Correspondence(per_move, on_timeout)


@dataclass(frozen=True, slots=True)
class TurnRow:
    """A stored turn (a row of ``turns``)."""

    game: str
    seq: int
    seat: int
    started: datetime
    due: datetime
    notified: bool
    fired: bool


def _turn(row: Any) -> TurnRow:
    return TurnRow(str(row.game), int(row.seq), int(row.seat), row.started, row.due,
                   bool(row.notified), bool(row.fired))


# -- the turns in the database ----------------------------------------------------------------


async def write_turn(store: Store, turn: TurnRow) -> None:
    """Store the turn a game waits for now (replacing the one before, unclaimed)."""
    values = {"seq": turn.seq, "seat": turn.seat, "started": turn.started, "due": turn.due,
              "notified": turn.notified, "fired": turn.fired, "worker": None, "lease": None}
    async with store.engine.begin() as conn:
        stmt = _upsert(conn, turns).values(game=turn.game, **values)
        await conn.execute(stmt.on_conflict_do_update(index_elements=["game"], set_=values))


async def read_turn(store: Store, game_id: str) -> TurnRow | None:
    async with store.engine.connect() as conn:
        row = (await conn.execute(select(turns).where(turns.c.game == game_id))).first()
    return None if row is None else _turn(row)


async def read_turns(store: Store, game_ids: list[str]) -> dict[str, TurnRow]:
    if not game_ids:
        return {}
    async with store.engine.connect() as conn:
        rows = (await conn.execute(select(turns).where(turns.c.game.in_(game_ids)))).all()
    return {str(r.game): _turn(r) for r in rows}


async def drop_turn(store: Store, game_id: str) -> None:
    async with store.engine.begin() as conn:
        await conn.execute(delete(turns).where(turns.c.game == game_id))


async def claim_turns(store: Store, worker: str, at: datetime, *, limit: int = 50,
                      ) -> list[TurnRow]:
    """The turns that need something now (notices not sent; a deadline passed and not yet
    acted on), each claimed for :data:`TIMER_LEASE` seconds by ``worker`` with a
    conditional ``UPDATE`` (granted only while nobody holds it or its lease lapsed): the
    rows this process won. Another process's claim of the same row updates nothing."""
    free = or_(turns.c.lease.is_(None), turns.c.lease < at)
    wanted = and_(free, or_(turns.c.notified.is_(False),
                            and_(turns.c.fired.is_(False), turns.c.due <= at)))
    async with store.engine.connect() as conn:
        rows = (await conn.execute(select(turns).where(wanted).order_by(turns.c.due)
                                   .limit(limit))).all()
    won = []
    for row in rows:
        async with store.engine.begin() as conn:
            result = await conn.execute(
                update(turns).where(turns.c.game == row.game, turns.c.seq == row.seq, free)
                .values(worker=worker, lease=at + timedelta(seconds=TIMER_LEASE)))
        if result.rowcount == 1:
            won.append(_turn(row))
    return won


async def settle_turn(store: Store, turn: TurnRow, worker: str, *, notified: bool | None = None,
                      fired: bool | None = None, lease_until: datetime | None = None) -> None:
    """Note what ``worker`` did with a turn it claimed and give up (or keep until
    ``lease_until``) its claim; nothing if the game moved on to another turn meanwhile."""
    values: dict[str, Any] = {"lease": lease_until}
    if lease_until is None:
        values["worker"] = None
    if notified is not None:
        values["notified"] = notified
    if fired is not None:
        values["fired"] = fired
    async with store.engine.begin() as conn:
        await conn.execute(update(turns).where(
            turns.c.game == turn.game, turns.c.seq == turn.seq, turns.c.worker == worker)
            .values(**values))


async def moved_since(store: Store) -> list[str]:
    """The games with moves stored after their turn began: among them any whose process
    died between storing the move that passed the turn and storing the next turn."""
    later = exists().where(moves.c.game == turns.c.game, moves.c.seq > turns.c.seq)
    async with store.engine.connect() as conn:
        rows = (await conn.execute(select(turns.c.game).where(later))).all()
    return [str(r.game) for r in rows]


async def release_all(store: Store) -> None:
    """Free every claim (a SQLite server at start: no other process can hold one)."""
    async with store.engine.begin() as conn:
        await conn.execute(update(turns).values(worker=None, lease=None))


# -- one table's turns ----------------------------------------------------------------------


class TurnKeeper:
    """A correspondence table's turn: which it is, its row in the database, and what a
    time-out does (one per :class:`~handfoot.web.table.Table`)."""

    def __init__(self, table: TurnTable, rules: Correspondence | None, clock: Clock,
                 ) -> None:
        self.table = table
        self.rules = rules
        self.clock = clock
        self.stored: tuple[int, int] | None = None
        """The turn as last stored or read by this process, (seq, seat)..."""
        self.due: datetime | None = None
        """... and when it is due."""
        self.overdue = False
        """Whether the time of the stored turn ran out and the game waits ("wait")."""

    def view_json(self) -> dict[str, Any]:
        """What a table's ``state`` says of its correspondence: the time per move, what a
        time-out does, when the turn is due (ISO, UTC), whether it is overdue, the moves
        stand-ins played on time-outs (event numbers) and the seats given to a bot."""
        assert self.rules is not None
        due = self.due if self.stored == self.current else None
        return {**self.rules.json(), "due": None if due is None else due.isoformat() + "Z",
                "overdue": self.overdue and self.stored == self.current,
                "timeouts": sorted(seq - 1 for seq in self.table.timeouts),
                "given_to_bot": sorted(self.table.given_to_bot)}

    def _note(self, row: TurnRow) -> None:
        self.stored = (row.seq, row.seat)
        self.due = row.due
        self.overdue = row.fired

    @property
    def current(self) -> tuple[int, int]:
        """The turn the game waits for: (the move after which it began, the seat)."""
        return self.table.turn_start, self.table.state.to_act

    def row_now(self, started: datetime | None = None) -> TurnRow:
        """The current turn as a row: a person's is due after the time per move, a bot's
        (or a seat given to a bot) at once."""
        assert self.rules is not None
        table = self.table
        seq, seat = self.current
        started = started or self.clock.now()
        bot = table.seats[seat].kind == "bot" or seat in table.given_to_bot
        due = started if bot else started + timedelta(seconds=self.rules.per_move)
        return TurnRow(table.id, seq, seat, started, due, notified=bot, fired=False)

    async def moved(self) -> None:
        """A move was stored and played: if it passed the turn (or ended the game), store
        the new turn (or none)."""
        if self.rules is None:
            return
        if self.table.state.is_over:
            await drop_turn(self.table.store, self.table.id)
            self.stored = self.due = None
            return
        if self.stored == self.current:
            return
        await self.sync()
        if self.table.bot_to_act():  # nobody need be connected for the bots to move
            self.table.bots.start()
            self.table.wake.set()

    async def sync(self, stored: TurnRow | None = None) -> TurnRow | None:
        """Make the stored turn the table's (a process may have died between storing a move
        and its turn); the turn as stored now (None: the game is over or no
        correspondence game)."""
        table = self.table
        if self.rules is None or table.state.is_over:
            return None
        if stored is None:
            stored = await read_turn(table.store, table.id)
        if stored is not None and (stored.seq, stored.seat) == self.current:
            self._note(stored)
            return stored
        if stored is not None and stored.seq > table.turn_start:
            return stored  # a newer turn, stored by a process ahead of this one: kept
        row = self.row_now()
        await write_turn(table.store, row)
        self._note(row)
        return row

    def timed_out(self, turn: TurnRow) -> bool:
        return (turn.seq, turn.seat) == self.current and turn.due <= self.clock.now()

    async def time_out(self, turn: TurnRow) -> int:
        """The time of ``turn`` ran out: its seat's stand-in plays the turn (moves stored
        ``by = "timeout"``); the number of moves it played (0: the turn had passed)."""
        table = self.table
        played = 0
        async with table.lock:
            while not table.state.is_over and (turn.seq, turn.seat) == self.current \
                    and table.waiting() is None:
                seq = table.seq
                move = await table.bots.stand_in_move(turn.seat)
                if table.seq != seq:
                    continue
                await table.play_bot_move(move, "timeout")
                if table.seq == seq:  # not stored (the database is out): try later
                    break
                played += 1
        if played:
            table.wake.set()
        return played

    async def give_to_bot(self, seat: int) -> None:
        """The others gave an overdue seat to a bot: its stand-in plays its turns until its
        person comes back."""
        table = self.table
        if seat in table.given_to_bot:
            return
        table.given_to_bot.add(seat)
        await table.store.set_setting(table.id, "given_to_bot", sorted(table.given_to_bot))
        row = self.row_now()  # a bot's turn now: due at once
        await write_turn(table.store, row)
        self._note(row)
        table.bots.start()
        table.wake.set()

    async def taken_back(self, seat: int) -> None:
        """A person opened their seat: it is theirs again."""
        table = self.table
        if seat not in table.given_to_bot:
            return
        table.given_to_bot.discard(seat)
        await table.store.set_setting(table.id, "given_to_bot", sorted(table.given_to_bot))
        if self.stored is not None and self.stored[1] == seat:
            self.stored = None
            await self.sync(stored=None)


# -- the loop every process runs ----------------------------------------------------------------


class Timers:
    """Every few seconds: claim the turns that need something and act on them (send the
    "your turn" notices, play a time-out, drive a bot's turn)."""

    def __init__(self, store: Store, get_table: Callable[[str], Awaitable[TurnTable | None]],
                 notify: Callable[[Any, TurnRow], Awaitable[None]], clock: Clock,
                 every: float, digest: Callable[[], Awaitable[object]] | None = None,
                 overdue: Callable[[Any, TurnRow], Awaitable[None]] | None = None) -> None:
        self.store = store
        self.get_table = get_table
        self.notify = notify
        self.clock = clock
        self.every = every
        self.digest = digest
        self.overdue = overdue
        """Called once when a seat's time runs out in a game that waits."""
        self.worker = secrets.token_hex(8)
        self.task: asyncio.Task[None] | None = None
        self.mending: asyncio.Task[int] | None = None

    async def start(self) -> None:
        if self.store.engine.dialect.name == "sqlite":  # one process per file: its claims
            await release_all(self.store)              # were a dead process's
        self.task = asyncio.create_task(self._run())
        self.mending = asyncio.create_task(self.mend())

    async def mend(self) -> int:
        """At start: load every game with moves after its stored turn began (loading one
        stores its current turn if the stored one is older: a process died between the
        two), one after another; the games looked at."""
        games = await moved_since(self.store)
        for game_id in games:
            try:
                await self.get_table(game_id)
            except Exception:
                log_failure(log, "game %s: its turn could not be mended", game_id)
        return len(games)

    async def close(self) -> None:
        for task in (self.task, self.mending):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self.task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
                if self.digest is not None:
                    await self.digest()
            except Exception:
                log_failure(log, "the correspondence timers failed")
            await asyncio.sleep(self.every)

    async def run_once(self) -> int:
        """One pass: the turns this process claimed and acted on."""
        claimed = await claim_turns(self.store, self.worker, self.clock.now())
        for turn in claimed:
            try:
                await self._act(turn)
            except Exception:
                log_failure(log, "game %s: the timer of move %d failed", turn.game, turn.seq)
        return len(claimed)

    async def _act(self, turn: TurnRow) -> None:
        table = await self.get_table(turn.game)
        if table is None or table.turns.rules is None:
            await drop_turn(self.store, turn.game)
            return
        if self.store.shared:  # another process may have moved: play its moves first
            async with table.lock:
                await table.sharing.catch_up_moves()
        current = await table.turns.sync(stored=turn)
        if current is None:
            await drop_turn(self.store, turn.game)
            return
        if current != turn:  # the stored turn was stale: the new one is acted on next pass
            return
        seat = table.seats[turn.seat]
        if seat.kind == "bot" or turn.seat in table.given_to_bot:
            # a bot's turn: this process drives the table's bots (nobody need be connected);
            # the claim lapses, and the turn is driven again, if it is still the same later
            table.bots.start()
            table.wake.set()
            await settle_turn(self.store, turn, self.worker, notified=True,
                              lease_until=self.clock.now() + timedelta(
                                  seconds=BOT_TURN_LEASE))
            return
        notified = turn.notified
        if not notified:
            await self.notify(table, turn)
            notified = True
        if not turn.fired and table.turns.timed_out(turn):
            if table.turns.rules.on_timeout == "wait":  # the others may give it to a bot
                await settle_turn(self.store, turn, self.worker, notified=True, fired=True)
                table.turns.overdue = True
                table.broadcast()
                if self.overdue is not None:
                    await self.overdue(table, turn)
                return
            if await table.turns.time_out(turn) and table.turns.current != (turn.seq,
                                                                            turn.seat):
                return  # the turn passed: its row is the next turn's now
        await settle_turn(self.store, turn, self.worker, notified=notified)
