"""A live game: :class:`Table`, its state, who is connected, moves in and messages out.

A table holds the game's :class:`~handfoot.game.engine.GameState`, rebuilt at load by replaying
the stored moves (so a restart resumes every game), and the connections watching it (each
a :class:`~handfoot.web.connection.Connection`, with its own outbound queue). A person's
move is parsed and checked by the engine once (:meth:`GameState.verify`, whose
:class:`~handfoot.game.engine.Effect` says whether the move ends the game), **committed to
the database**, then played as checked; every connection is then sent its own ``state``
(its seat's view only; spectators the public view) and the mover an ``ack``. A bot's move
goes the same way. A stored move (at a load, or another process's) is played as a move,
which is its one check.

The table holds its bots (:class:`~handfoot.web.table_bots.TableBots`: the bot seats, the
stand-ins for absent people, their memory and the task that plays them) and its dealings
with other processes on a shared database (:class:`~handfoot.web.sharing.Sharing`: moves
heard, presence elsewhere, the lease on the bots).

Between rounds the table waits until every person (present, or away without a stand-in)
has pressed Continue for the round just ended; moves are refused meanwhile.
"""

from __future__ import annotations

import asyncio
import collections
import datetime as dt
import functools
import hmac
import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final, TypeVar

from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.events import move_words
from handfoot.game.moves import MoveSyntaxError, format_move, parse_move
from handfoot.game.record import GameRecord, record_from_state, record_to_data
from handfoot.game.rules import Layout, Profile
from handfoot.game.values import Effect, Event, IllegalMoveError, PlayerView
from handfoot.runs.sim import derive_seed, hint
from handfoot.web import daily, messages
from handfoot.web.connection import Connection
from handfoot.web.messages import StateMessage
from handfoot.web.metrics import Metrics
from handfoot.web.protocol import (
    OWN_KEYS,
    ClientMessage,
    ViewCache,
    hands_json,
    public_view_json,
)
from handfoot.web.settings import Settings
from handfoot.web.sharing import Sharing
from handfoot.web.stats import GameStats
from handfoot.web.store import (
    GameRow,
    MoveConflict,
    MoveRow,
    Store,
    StoreUnavailable,
    is_outage,
    now,
    token_hash,
)
from handfoot.web.table_bots import TableBots, stored_pace
from handfoot.web.talk import TableTalk
from handfoot.web.tokens import rematch_token
from handfoot.web.turns import SYSTEM_CLOCK, Clock, Correspondence, TurnKeeper

__all__ = ["HELLO_EVENTS", "SeatConfig", "Table"]

ADVICE: Final = ThreadPoolExecutor(max_workers=1, thread_name_prefix="handfoot-advice")
"""The thread hints and checks are worked out in, off the event loop. One: they hold
Python's lock while they compute, and a second thread would only make the event loop wait
longer for it."""

STORE_RETRIES: Final = (0.2, 0.5, 1.0)
"""Seconds waited before each new try of a write the database did not answer (a move is
answered ``busy`` after the last: about 2 s in all)."""

BUSY: Final = ("the server is busy (its database does not answer): your move was not "
               "played; send it again in a moment")
BUSY_CONTINUE: Final = ("the server is busy (its database does not answer): your Continue "
                        "was not noted; press it again in a moment")

log = logging.getLogger("handfoot.web")

T = TypeVar("T")

BEGIN_AT_ONCE = 32
"""The people's moves that begin (checked by the engine, handed to the commit) in one turn
of the event loop, the next ones in the next turns, in the order they came: a thousand
tables' frames read in one turn (tables moving in step) otherwise all begin in the turn
after it, 20-30 ms in which no ping or other frame is answered (benchmarks/burst.py,
``--begin``). 0: no limit."""

JOIN_AT_ONCE = 16
"""The connections that begin to join (their handshake answered, their hello read, the
table loaded if need be, their first frames sent) in one turn of the event loop, the next
ones in the next turns, in the order they came, as :data:`BEGIN_AT_ONCE` does for moves: a
thousand tables' four thousand connections arriving at once otherwise all begin in the
same few turns, each turn long enough to hold the moves of the tables already playing
(see :func:`begin_join`). 0: no limit."""

HELLO_EVENTS: Final = 30
"""Events of the current round sent with the first state after a hello whose ``seq`` is not
in the current round (a client that saw the round so far gets exactly what it missed)."""


@dataclass(frozen=True, slots=True)
class SeatConfig:
    """A seat of the game: who sits there (``kind`` ``"human"`` or ``"bot"``, a bot's
    level) and the name shown."""

    seat: int
    kind: str
    level: str | None
    name: str

    def json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "kind": self.kind, "level": self.level}


class Table:
    """A game being played: the state, who is connected, and the bots."""

    def __init__(self, row: GameRow, profile: Profile, store: Store, settings: Settings,
                 pool: Callable[[], ProcessPoolExecutor], *,
                 today: Callable[[], dt.date] = daily.today,
                 metrics: Metrics | None = None, clock: Clock = SYSTEM_CLOCK) -> None:
        self.id = row.id
        self.metrics = metrics
        self.today = today
        """The current UTC date (when a daily game ends)."""
        self.row = row
        self.profile = profile
        self.layout = Layout.parse(row.layout)
        self.store = store
        self.settings = settings
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
        self.stats = GameStats(profile, len(self.seats))
        self._view_cache = ViewCache()
        self._own_texts = messages.OwnTexts()
        self.connections: list[Connection] = []
        self.away_since: dict[int, float] = {s.seat: 0.0 for s in self.seats
                                             if s.kind == "human"}
        self.unattended = bool(row.settings.get("unattended"))
        """A club tournament's table: its bots (and the stand-ins of people away) play with
        nobody connected, so a round ends whoever watches (see
        :mod:`handfoot.web.tournaments`)."""
        self.rematch: tuple[str, bytes] | None = None
        """The game that follows this one (its id, and the secret its tokens come from)."""
        self.rematch_lock = asyncio.Lock()
        self.on_finished: Callable[[Table], Awaitable[None]] | None = None
        """Called once the move that ends the game is stored here (see
        :meth:`handfoot.web.players.Players.game_finished`)."""
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        """Set when the bots may have a turn to play."""
        self.touched = time.monotonic()
        """When the table was last asked for or a connection came or went."""
        self._presence_due: asyncio.Handle | None = None
        """The presence's broadcast at the end of this turn (:meth:`presence_soon`)."""
        self._presence_told: list[tuple[Connection, list[bool]]] = []
        """The connections that joined in this turn, each with the presence its first
        ``state`` carried (the presence's broadcast skips those it would tell nothing)."""
        self.bots = TableBots(self, {s.seat: s.level or "hard" for s in self.seats
                                     if s.kind == "bot"}, row.seed, settings, pool)
        self.bots.pace = stored_pace(row.settings)
        self.sharing = Sharing(self, store)
        self.talk = TableTalk(self, store, row.settings)
        """Reactions and chat (kept with the game, never in its record)."""
        # correspondence games (see handfoot.web.turns)
        self.turn_start = 0
        """The move after which the turn the game waits for began (0: the deal)."""
        self.timeouts: set[int] = set()
        """The moves (seqs) a stand-in played because the seat's time ran out."""
        self.given_to_bot: set[int] = {s for s in row.settings.get("given_to_bot", [])
                                       if isinstance(s, int)}
        """Seats of a correspondence game whose time ran out and which the others gave to
        a bot, until their person comes back."""
        self.turns = TurnKeeper(self, Correspondence.from_settings(row.settings), clock)

    def rename_seats(self, names: dict[int, str]) -> None:
        """New names for seats (a deleted player's become "Former player")."""
        self.seats = tuple(replace(s, name=names.get(s.seat, s.name)) for s in self.seats)
        self.seat_names = tuple(s.name for s in self.seats)
        self.side_names = [" and ".join(self.seat_names[s] for s in self.layout.seats_of(side))
                           for side in range(self.layout.sides)]

    # -- playing moves ----------------------------------------------------------------------

    def replay(self, rows: list[MoveRow], continued: set[tuple[int, int]]) -> None:
        """Play stored moves (at load, and moves another process stored), each checked as it
        is played. Nobody thinks here: a bot's move this process did not think leaves the
        bots behind, and they remake the current round's moves from its start (in a
        thread) before they next move here, if ever."""
        self.continued = set(continued)
        number = self.state.round_number
        try:
            for row in rows:
                if row.seq != self.seq + 1:
                    raise ValueError(f"game {self.id}: move {row.seq} follows move {self.seq}")
                self.bots.stored_elsewhere(row.seat, row.by)
                self._play(row.seat, _stored_move(row.notation), row.request_id, row.by,
                           new_bots=False)
        finally:
            if self.state.round_number != number:  # the bots of the last round only
                self.bots.renew()

    async def commit(self, effect: Effect, by: str, request_id: str | None) -> None:
        """Store a move the engine has checked (``effect``, from :meth:`GameState.verify`
        in the state as it is), then play it as checked (the caller holds the lock). A
        move another process stored first raises :class:`MoveConflict`, nothing played."""
        move, seat = effect.move, effect.seat
        assert move is not None, "a table is sent player moves, never a staging action"
        row = MoveRow(self.seq + 1, self.state.round_number, seat, format_move(move), by,
                      request_id)
        status = "over" if effect.ends_game else None
        self.sharing.storing = row.seq  # its own notification is not heard (tables.py)
        try:
            stamp = await self.storing(
                lambda: self.store.add_move(self.id, row, status=status), f"move {row.seq}")
        finally:
            self.sharing.storing = None
        self._play(seat, move, request_id, by, effect=effect)
        if self.metrics is not None:
            self.metrics.moved(by)
        self.updated = stamp  # as stored: a table rebuilt from the database has the same
        if self.turns.rules is not None:
            try:  # the next turn and its timer (a sync by the timers mends a failure here)
                await self.turns.moved()
            except Exception as exc:
                if not is_outage(exc):
                    raise
                log.warning("game %s: the next turn was not stored (%s)", self.id,
                            type(exc).__name__)
        if self.state.is_over and self.daily is not None:
            human = next((s.seat for s in self.seats if s.kind == "human"), 0)
            side = self.state.side_of[human]
            try:
                await self.storing(lambda: self.store.finish_daily(
                    self.id, self.state.totals[side], side in self.state.winners()),
                    "the daily result")
            except StoreUnavailable:  # the game is stored; only the leaderboard lacks it
                log.warning("game %s: the daily result was not stored (the database did "
                            "not answer)", self.id)
        if effect.ends_game and self.on_finished is not None:
            try:
                await self.on_finished(self)
            except Exception:  # the game is stored; only its players' results lack it
                log.exception("game %s: its players' results were not stored", self.id)

    async def storing(self, action: Callable[[], Awaitable[T]], what: str) -> T:
        """``action()`` (a write to the database), tried again after a short wait while
        the database is out (:func:`~handfoot.web.store.is_outage`), up to
        :data:`STORE_RETRIES` times; then :class:`StoreUnavailable`. Other errors (a
        :class:`MoveConflict`) go to the caller at once."""
        for attempt, wait in enumerate((*STORE_RETRIES, None)):
            try:
                return await action()
            except Exception as exc:
                if not is_outage(exc):
                    raise
                log.warning("game %s: %s not stored, try %d (the database: %s)", self.id,
                            what, attempt + 1, type(exc).__name__)
                if wait is None:
                    raise StoreUnavailable(f"{what}: the database did not answer") from None
                await asyncio.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    async def play_bot_move(self, move: mv.PlayerMove, by: str) -> None:
        """A bot's (or a stand-in's) move: checked, stored and played, then sent to
        everyone; if another process stored a move first, that move is played instead (the
        caller holds the lock)."""
        try:
            await self.commit(self.state.verify(move), by, None)
        except MoveConflict:  # another process played this turn first
            await self.sharing.catch_up_moves()
        except StoreUnavailable:  # nothing played: the bots' task thinks and tries again
            return
        self.broadcast()

    def moved_elsewhere(self) -> None:
        """Moves another process stored were just played here."""
        self.updated = now()

    def _play(self, seat: int, move: mv.PlayerMove, request_id: str | None, by: str, *,
              effect: Effect | None = None, new_bots: bool = True) -> None:
        """Play a move: as ``effect`` checked it (a move just stored), or checked now (a
        stored move); note its statistics, and the round's moves for the bots (a move that
        begins a round makes the round's bots unless not ``new_bots``: a replay makes only
        the last round's)."""
        state = self.state
        round_before = state.round_number
        acting = state.to_act
        laid = self.stats.before(state, seat, move)
        state.apply(move if effect is None else effect)
        self.seq += 1
        if state.to_act != acting or state.round_number != round_before:
            self.turn_start = self.seq
        if by == "timeout":
            self.timeouts.add(self.seq)
        self.bots.played(seat, move, by, new_round=state.round_number != round_before,
                         new_bots=new_bots)
        if request_id is not None:
            self.acks[(seat, request_id)] = self.seq
        if laid is not None:
            self.stats.count(state, seat, move, laid)

    # -- who is here, and what the table is waiting for -------------------------------------

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
            or seat in self.sharing.remote

    def presence(self) -> list[bool]:
        """:meth:`present` of every seat (a bot's always), the connections read once."""
        here = {c.seat for c in self.connections if not c.closed}
        remote = self.sharing.remote
        return [s.kind == "bot" or s.seat in here or s.seat in remote for s in self.seats]

    def went_away(self, seat: int) -> None:
        """A connection of ``seat`` (here or elsewhere) is gone: if it was the person's
        last, the grace time before a stand-in plays for them starts now."""
        if self.present(seat) or seat not in self.away_since:
            return
        self.away_since[seat] = time.monotonic()
        if self.absent == "bot":
            asyncio.get_running_loop().call_later(self.settings.absent_grace + 0.01,
                                                  self.wake.set)

    @property
    def has_bots(self) -> bool:
        """Whether a bot may ever play at this table: a bot's seat, or stand-ins for
        absent people (a table of people only needs no lease)."""
        return any(s.kind == "bot" for s in self.seats) or self.absent == "bot" \
            or bool(self.given_to_bot)

    def stood_in(self, seat: int) -> bool:
        """A person away past the grace time whose seat a bot plays (where chosen), or
        the seat of a correspondence game given to a bot."""
        if seat in self.given_to_bot and self.seats[seat].kind == "human":
            return True
        if self.absent != "bot" or self.seats[seat].kind != "human" or self.present(seat) \
                or not self.sharing.remote_known:
            return False
        return time.monotonic() - self.away_since[seat] >= self.settings.absent_grace

    def bot_to_act(self) -> bool:
        """Whether a bot plays the seat to act now (a bot's seat, or a correspondence
        seat given to a bot)."""
        seat = self.state.to_act
        return not self.state.is_over and (self.seats[seat].kind == "bot"
                                           or seat in self.given_to_bot)

    def day_over(self) -> bool:
        """Whether this is a daily game whose day has ended (it can no longer move)."""
        return self.daily is not None and \
            daily.is_over(dt.date.fromisoformat(self.daily), self.today())

    def bots_may_play(self) -> bool:
        """Whether bots may move now: the game goes on (a daily game within its day),
        somebody is connected (or the table plays unattended, or is a correspondence game),
        this process plays the table's bots, and the table waits for nobody's Continue."""
        return not self.state.is_over and not self.day_over() \
            and (bool(self.connections) or self.unattended
                 or self.turns.rules is not None) \
            and self.sharing.drives_bots and self.waiting() is None

    def waiting(self) -> dict[str, Any] | None:
        """The people who must still press Continue after the last round, or None."""
        state = self.state
        if state.is_over or not state.results or self.turns.rules is not None:
            return None  # (a correspondence game waits for nobody's Continue)
        number = state.results[-1].round_number
        missing = [s.seat for s in self.seats if s.kind == "human"
                   and (number, s.seat) not in self.continued and not self.stood_in(s.seat)]
        return {"continue": missing, "round": number} if missing else None

    def refusal(self, seat: int | None) -> tuple[str, str] | None:
        """Why ``seat`` may not move now, as (code, message), or None."""
        if seat is None:
            return "not_your_turn", "you are watching: spectators cannot move"
        if self.state.is_over:
            return "illegal", "the game is over"
        if self.day_over():
            return "illegal", (f"the daily deal of {self.daily} ended at midnight UTC: its "
                               "games can no longer move")
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
                "absent": self.absent, "pace": self.bots.pace, "pace_seats": self.pace_seats(),
                "correspondence": None if self.turns.rules is None
                else self.turns.rules.json()}

    def pace_seats(self) -> list[int]:
        """The seats that may set the bots' pace: the table's creator (its first person's
        seat, the one the lobby opens for whoever made the table), which in a table of one
        person is that person."""
        return [s.seat for s in self.seats if s.kind == "human"][:1]

    def state_message(self, events: Sequence[Event], view: PlayerView | None = None,
                      ) -> StateMessage:
        """The ``state`` message of the table now, for any of its connections, with
        ``events`` (those a connection may lack): the public part of the view (of ``view``,
        any seat's view of the state now, or a seat's not acting: no legal moves listed),
        and after the game the statistics and the winners."""
        state = self.state
        if view is None:
            view = state.view(1 if state.to_act == 0 else 0)
        public = public_view_json(view, self.side_names, cache=self._view_cache)
        for key in OWN_KEYS:
            del public[key]
        if state.is_over:
            public["stats"] = self.stats.json()
            public["winners"] = list(state.winners())
        if self.turns.rules is not None:
            public["correspondence"] = self.turns.view_json()
        return StateMessage(self.seq, public, self.presence(), self.waiting(), events)

    def send_state(self, conn: Connection, message: StateMessage | None = None, *,
                   since: int | None = None, view: PlayerView | None = None,
                   acked: str | None = None) -> None:
        """Send a connection its ``state``: ``message`` (one a broadcast shares) or the
        table's now, with the connection's own part of the view and the events from
        ``since`` (by default those it has not been sent); ``view``: a view of the state
        now the caller has (the seat to act's, in a broadcast); ``acked``: the request id
        of the connection's move that this state acknowledges (it shows the move)."""
        start = min(conn.last_event, self.seq) if since is None else since
        if message is None:
            message = self.state_message(self.state.events(start))
        seat = conn.seat
        text = message.text(seat, lambda: self._own_texts.text(self.state, seat, view), start)
        conn.send_text(text if acked is None else StateMessage.acked(text, acked))
        conn.last_event = self.seq

    def broadcast(self, acked: tuple[Connection, str] | None = None) -> None:
        """Send every connection its own state, the parts they share built once (the view
        of the seat to act, when it is connected, gives both its own part and the public
        part); ``acked``: a connection and the request id of its move just committed, which
        its state acknowledges (:attr:`Connection.acks_in_state`)."""
        connections = list(self.connections)
        if not connections:
            return
        state = self.state
        oldest = min(min(c.last_event for c in connections), self.seq)
        acting = state.to_act
        view = state.view(acting) if any(c.seat == acting for c in connections) else None
        message = self.state_message(state.events(oldest), view)
        message.send(connections, self._own_texts, state, view, acked)  # (as send_state)

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

    def broadcast_presence(self, besides: Connection | None = None) -> None:
        """Send every connection (but ``besides``) who is present."""
        text = messages.encode(messages.presence(self.presence()))
        for conn in list(self.connections):
            if conn is not besides:
                conn.send_text(text)

    def presence_soon(self) -> None:
        """Send every connection who is present once, in the next turn of the event loop,
        however many connections came or went in this one: a wave of closings (every
        client of a proxy, or of the load benchmark, gone at once) tells each table once,
        not once a connection closed, and not the connections closed in the same turn."""
        if self._presence_due is None:
            self._presence_due = asyncio.get_running_loop().call_soon(self._tell_presence)

    def _tell_presence(self) -> None:
        self._presence_due = None
        told, self._presence_told = self._presence_told, []
        if not self.connections:
            return
        presence = self.presence()
        said = {id(conn) for conn, seen in told if seen == presence}  # (held: ids unique)
        text = messages.encode(messages.presence(presence))
        for conn in list(self.connections):
            if id(conn) not in said:  # (a newcomer whose state said it all: nothing)
                conn.send_text(text)

    def rematch_message(self, seat: int | None) -> dict[str, Any] | None:
        """The rematch for one connection: its own seat's new link (the spectator link for a
        spectator), or None while there is no rematch."""
        if self.rematch is None:
            return None
        game_id, secret = self.rematch
        key = "s" if seat is None else "t"
        return messages.rematch(
            game_id, f"/game/{game_id}#{key}={rematch_token(secret, game_id, seat)}")

    def set_rematch(self, game_id: str, secret: bytes) -> None:
        """The rematch exists: tell every connection its own way in."""
        self.rematch = (game_id, secret)
        for conn in list(self.connections):
            message = self.rematch_message(conn.seat)
            if message is not None:
                conn.send(message)

    # -- connections ------------------------------------------------------------------------

    def play_unattended(self) -> None:
        """An unattended table's bots play now (nobody need be connected)."""
        if self.unattended and not self.state.is_over:
            self.bots.start()
            self.wake.set()

    def join(self, conn: Connection, since: int | None = None) -> None:
        """A connection arrives; ``since`` is the last seq its hello said it saw. Its first
        ``state`` carries the presence; if that changed, the others are sent it once, at
        the end of this turn of the event loop (:meth:`presence_soon`), however many
        joined (or left) in the turn, and not to a newcomer whose state already said who
        is here: a table's four seats joining together send three ``presence`` frames,
        not six."""
        self.touched = time.monotonic()
        before = self.presence()
        self.connections.append(conn)
        conn.start()
        conn.send(messages.welcome(conn.seat, self.game_json(), self.talk.welcome_json()))
        self.send_state(conn, self.state_message(self.hello_events(since)), since=0)
        rematch = self.rematch_message(conn.seat)
        if rematch is not None:
            conn.send(rematch)
        after = self.presence()
        if after != before:
            self.presence_soon()
        if self._presence_due is not None:  # what its state said, for the broadcast due
            self._presence_told.append((conn, after))
        self.sharing.presence_changed()
        self.bots.start()
        self.wake.set()

    def leave(self, conn: Connection) -> None:
        self.touched = time.monotonic()
        if conn in self.connections:
            self.connections.remove(conn)
        conn.close()
        if conn.seat is not None:
            self.went_away(conn.seat)
        self.presence_soon()
        self.sharing.presence_changed()
        self.wake.set()

    async def stop(self) -> None:
        if self._presence_due is not None:
            self._presence_due.cancel()
            self._presence_due = None
        self._presence_told.clear()
        await self.bots.stop()
        for conn in list(self.connections):
            conn.close()

    # -- handling client messages -----------------------------------------------------------

    async def handle(self, conn: Connection, msg: ClientMessage) -> None:
        if msg.type == "ping":
            conn.send(messages.pong())
        elif msg.type == "move":
            await self._move(conn, msg)
        elif msg.type == "check":
            await self._check(conn, msg)
        elif msg.type == "hint":
            await self._hint(conn, msg)
        elif msg.type == "continue":
            await self._continue(conn, msg)
        elif msg.type in ("react", "chat", "talk_settings"):
            await self.talk.handle(conn, msg)
        elif msg.type == "pace":
            await self._pace(conn, msg)
        elif msg.type == "hello":
            conn.send(messages.error(msg.id, "bad_message", "already said hello"))

    async def _pace(self, conn: Connection, msg: ClientMessage) -> None:
        """The bots' pace, set by the table's creator (:meth:`pace_seats`), stored with the
        game (a restart or another process keeps it) and told to every connection; the next
        bot move waits as long as the pace says."""
        if conn.seat is None or conn.seat not in self.pace_seats():
            conn.send(messages.error(msg.id, "not_allowed", "only the table's creator sets "
                                     "the bots' pace"))
            return
        pace = str(msg.raw["pace"])
        if pace != self.bots.pace:
            try:
                await self.storing(lambda: self.store.set_setting(self.id, "pace", pace),
                                   "the bots' pace")
            except StoreUnavailable:
                conn.send(messages.error(msg.id, "busy", "the server is busy (its database "
                                         "does not answer): the pace was not changed"))
                return
        self.bots.pace = pace
        for c in self.connections:
            c.send(messages.pace(msg.id if c is conn else None, pace, conn.seat))

    async def _move(self, conn: Connection, msg: ClientMessage) -> None:
        """A person's move: read, checked by the engine once, stored, played as checked,
        acknowledged, and sent to everyone."""
        seat = conn.seat
        if seat is None:
            conn.send(messages.error(msg.id, "not_your_turn",
                                     "you are watching: spectators cannot move"))
            return
        started = time.perf_counter()
        if BEGIN_AT_ONCE:
            await _MoveTurns.of(asyncio.get_running_loop()).begin()
        async with self.lock:
            if msg.id is not None and (seat, msg.id) in self.acks:
                conn.send(messages.ack(msg.id, self.acks[(seat, msg.id)]))
                return
            if msg.seq != self.seq:
                conn.send(messages.error(msg.id, "stale", f"you saw move {msg.seq}; the game "
                                         f"is at move {self.seq}: here is the table now"))
                self.send_state(conn)
                return
            refused = self.refusal(seat)
            if refused is not None:
                conn.send(messages.error(msg.id, *refused))
                return
            assert msg.move is not None
            try:
                effect = self.state.verify(parse_move(msg.move))
            except (MoveSyntaxError, IllegalMoveError) as exc:
                conn.send(messages.error(msg.id, "illegal", str(exc)))
                return
            try:
                await self.commit(effect, "human", msg.id)
            except StoreUnavailable:  # nothing played: the client may send it again
                conn.send(messages.error(msg.id, "busy", BUSY))
                return
            except MoveConflict:  # another process stored a move first
                await self.sharing.catch_up_moves()
                conn.send(messages.error(msg.id, "stale", "another move came first: here "
                                         "is the table now"))
                self.broadcast()
                return
            if conn.acks_in_state and msg.id is not None:  # the ack within its state
                self.broadcast(acked=(conn, msg.id))
                if self.metrics is not None:
                    self.metrics.acknowledged(time.perf_counter() - started)
            else:
                conn.send(messages.ack(msg.id, self.seq))
                if self.metrics is not None:
                    self.metrics.acknowledged(time.perf_counter() - started)
                self.broadcast()
        if self.has_bots:  # (a table of people only: its bots' task has nothing to do)
            self.wake.set()

    async def _check(self, conn: Connection, msg: ClientMessage) -> None:
        """Whether a move would be legal now, worked out off the event loop (on a copy of
        the state: moves go on meanwhile)."""
        refused = self.refusal(conn.seat)
        if refused is not None:
            conn.send(messages.checked(msg.id, refused[1]))
            return
        assert msg.move is not None
        reason = await asyncio.get_running_loop().run_in_executor(
            ADVICE, _paced, _check_move, self.state.copy(), msg.move)
        conn.send(messages.checked(msg.id, reason))

    async def _hint(self, conn: Connection, msg: ClientMessage) -> None:
        """The hard bot's advice, worked out off the event loop (on a copy of the state).
        One connection's messages are read one after another, so a burst of hints waits
        its turn instead of holding the other tables up."""
        refused = self.refusal(conn.seat)
        if refused is not None or conn.seat is None:
            conn.send(messages.hint(msg.id, None,
                                    refused[1] if refused else "spectators get no hints"))
            return
        advice = await asyncio.get_running_loop().run_in_executor(
            ADVICE, _paced, hint, self.state.copy(), conn.seat,
            derive_seed(self.row.seed, "hint", self.seq))
        if advice is None:
            conn.send(messages.hint(msg.id, None, "the hard bot has no advice here"))
        else:
            conn.send(messages.hint(msg.id, advice.move, advice.reason))

    async def _continue(self, conn: Connection, msg: ClientMessage) -> None:
        seat = conn.seat
        number = msg.round
        if seat is None or self.seats[seat].kind != "human":
            conn.send(messages.error(msg.id, "not_your_turn",
                                     "only the people at the table continue"))
            return
        if number is None or not 1 <= number <= len(self.state.results):
            conn.send(messages.error(msg.id, "bad_message", f"round {number} has not ended"))
            return
        async with self.lock:
            if (number, seat) not in self.continued:
                try:
                    await self.storing(lambda: self.store.add_continue(self.id, number, seat),
                                       "a Continue")
                except StoreUnavailable:
                    conn.send(messages.error(msg.id, "busy", BUSY_CONTINUE))
                    return
                self.continued.add((number, seat))
                self.broadcast()
        self.wake.set()

    # -- after the game ---------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game so far as a record, from the state's history (made when asked for:
        a restore builds nothing for it). Its metadata: the game's id, each seat's bot
        level (``null`` for a person) and, once the game is over, when it ended (UTC)."""
        metadata: dict[str, Any] = {
            "game_id": self.id,
            "bots": [s.level if s.kind == "bot" else None for s in self.seats]}
        if self.state.is_over:  # when it ended: the order handfoot ratings rates games in
            metadata["finished"] = self.updated.isoformat(timespec="microseconds") + "Z"
        return record_from_state(self.state, seat_names=self.seat_names, metadata=metadata)

    def record_data(self) -> dict[str, Any]:
        data = record_to_data(self.record())
        if self.daily is not None and not self.day_over():
            data.get("metadata", {}).pop("seed", None)  # published once the day is over
        return data

    def settings_stored(self, settings: Mapping[str, Any]) -> None:
        """The game's settings as another process stored them (its talk settings, the
        bots' pace): told to this process's connections where they changed."""
        self.talk.settings_stored(settings)
        pace = stored_pace(settings)
        if pace != self.bots.pace:
            self.bots.pace = pace
            for c in self.connections:
                c.send(messages.pace(None, pace, None))

    def replay_frames(self, talk: Mapping[int, list[dict[str, Any]]] | None = None,
                      ) -> list[dict[str, Any]]:
        """The whole game move by move, every card visible (after the game only): the
        deal, then the table after each move; a move that ends a round shows the table as
        the round ended (phase ``round_end``, or ``game_over`` after the last), then comes
        the next deal. Each frame lists the reactions and chat said after its move
        (``talk``: by the number of moves made before them, from
        :func:`~handfoot.web.talk.replay_talk`)."""
        talk = talk or {}
        state = GameState.new(self.profile, layout=self.layout, seed=self.row.seed)
        frames = [self._frame(state, None, None)]
        frames[0]["talk"] = talk.get(0, [])
        seq = 0
        for rnd in self.record().rounds:
            for recorded in rnd.moves:
                seq += 1
                move = parse_move(recorded.move)
                number = state.round_number
                effect = state.verify(move)
                if not effect.ends_round:
                    state.apply(effect)
                    frames.append(self._frame(state, recorded.move, recorded.seat, number))
                    frames[-1]["talk"] = talk.get(seq, [])
                    continue
                end = state.copy()
                # the same rules but for the game ending here, so the table stays as it was
                end.profile = replace(state.profile, rounds=number, target_score=None)
                end.apply(move)
                state.apply(effect)
                frame = self._frame(end, recorded.move, recorded.seat, number)
                if not state.is_over:
                    frame["state"]["phase"] = "round_end"
                frame["talk"] = talk.get(seq, [])
                frames.append(frame)
                if not state.is_over:
                    frames.append(self._frame(state, None, None))
                    frames[-1]["talk"] = []
        return frames

    def _frame(self, state: GameState, move: str | None, seat: int | None,
               round_number: int | None = None) -> dict[str, Any]:
        data = public_view_json(state.view(0), self.side_names)
        data.update(hands_json(state))
        data["rounds"] = self.profile.rounds
        return {"move": move, "words": None if move is None else move_words(_stored_move(move)),
                "seat": seat, "round": round_number or state.round_number, "state": data}


async def begin_join() -> None:
    """Wait until a new connection may begin to join: at most :data:`JOIN_AT_ONCE` begin
    in a turn of the event loop (first come, first begun)."""
    if JOIN_AT_ONCE:
        await _JoinTurns.of(asyncio.get_running_loop()).begin()


class _MoveTurns:
    """An event loop's people's moves begun, at most :data:`BEGIN_AT_ONCE` a turn (see
    there): :meth:`begin` returns at once while fewer have begun since the last turn began
    and none waits, else when the move's turn comes (first come, first begun)."""

    __slots__ = ("__weakref__", "_begun", "_loop", "_next", "_waiting")

    _of: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _MoveTurns]] = \
        weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._begun = 0
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self._next: asyncio.Handle | None = None

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> _MoveTurns:
        turns = cls._of.get(loop)
        if turns is None:
            turns = cls._of[loop] = cls(loop)
        return turns

    def at_once(self) -> int:
        """How many begin in a turn."""
        return BEGIN_AT_ONCE

    async def begin(self) -> None:
        if self._next is None:  # the first move since the loop last turned
            self._next = self._loop.call_soon(self._turn)
        if self._begun < self.at_once() and not self._waiting:
            self._begun += 1
            return
        waiting = self._loop.create_future()
        self._waiting.append(waiting)
        try:
            await waiting
        except asyncio.CancelledError:
            if waiting.done() and not waiting.cancelled():  # its turn came: give it on
                self._release(1)
            raise

    def _turn(self) -> None:
        """A new turn: up to :data:`BEGIN_AT_ONCE` waiting moves begin in it."""
        self._next = None
        self._begun = 0
        self._release(self.at_once())
        if self._waiting or self._begun:
            self._next = self._loop.call_soon(self._turn)

    def _release(self, count: int) -> None:
        while self._waiting and count > 0:
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_result(None)
                self._begun += 1
                count -= 1


class _JoinTurns(_MoveTurns):
    """An event loop's new connections begun, at most :data:`JOIN_AT_ONCE` a turn (as
    :class:`_MoveTurns` begins moves)."""

    __slots__ = ()

    _of: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _MoveTurns]] = \
        weakref.WeakKeyDictionary()

    def at_once(self) -> int:
        return JOIN_AT_ONCE


def _paced(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` in the :data:`ADVICE` thread, then a rest as long as it took (at most
    5 ms) without Python's lock: a burst of hints takes at most about half of it, and the
    event loop never waits for a whole burst."""
    start = time.perf_counter()
    try:
        return work(*args)
    finally:
        time.sleep(min(time.perf_counter() - start, 0.005))


def _check_move(state: GameState, notation: str) -> str | None:
    """Why a move would be refused in ``state``, or None (in the :data:`ADVICE` thread)."""
    try:
        return state.check(parse_move(notation))
    except MoveSyntaxError as exc:
        return str(exc)


@functools.lru_cache(maxsize=4096)
def _stored_move(notation: str) -> mv.PlayerMove:
    """A stored move's notation read (moves are frozen values, and the same notations come
    back again and again in a replay: ``draw``, ``discard 7``)."""
    return parse_move(notation)
