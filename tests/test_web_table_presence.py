"""Who a table counts as away, and when a stand-in may play for them (web/table.py): a
person who leaves gets the grace time from the moment they left; a table of people only
that waits for the absent needs no bots; one that lets bots stand in does. Everybody
connected hears who comes and goes; a stopped table lets every connection go."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field

import pytest

from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.web import sharing as sharing_module
from handfoot.web.settings import Settings
from handfoot.web.sharing import Presences
from handfoot.web.store import GameRow, SeatRow, now
from handfoot.web.table import Table

GRACE = 60.0


class _Store:
    """A shared database, as far as a table of people only uses it: the pool its presence
    is written through (:func:`~handfoot.web.pg_direct.write_presences`, replaced)."""

    async def direct(self) -> None:
        return None


@dataclass
class _Conn:
    """What a table uses of a connection, keeping what it is sent."""

    seat: int | None
    closed: bool = False
    last_event: int = 0
    sent: list[dict[str, object]] = field(default_factory=list)

    def start(self) -> None:
        pass

    def send(self, message: dict[str, object]) -> None:
        self.sent.append(message)

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self) -> None:
        self.closed = True

    def presence(self) -> object:
        """The last presence it was told (in a ``presence`` frame or a ``state``)."""
        return [m["presence"] for m in self.sent if m["type"] in ("presence", "state")][-1]

    def presence_frames(self) -> int:
        return sum(1 for m in self.sent if m["type"] == "presence")


def _table(kinds: list[str], absent: str) -> Table:
    profile = load_profile("biegames")
    layout = GameState.new(profile, seed=1).layout
    assert layout.players == len(kinds)
    seats = tuple(SeatRow(s, kind, "easy" if kind == "bot" else None, f"P{s}",
                          f"t{s}" if kind == "human" else None) for s, kind in enumerate(kinds))
    row = GameRow("g", profile.name, {}, str(layout), {"absent": absent}, 1, "h", "playing",
                  now(), now(), seats)
    return Table(row, profile, _Store(), Settings(absent_grace=GRACE),  # type: ignore[arg-type]
                 lambda: None)  # type: ignore[arg-type,return-value]


def test_a_person_who_leaves_gets_the_grace_time_before_a_stand_in_plays() -> None:
    async def check() -> None:
        table = _table(["human", "bot", "human", "bot"], "bot")
        table.connections.append(_Conn(0))  # type: ignore[arg-type]
        assert table.present(0) and not table.stood_in(0)
        table.went_away(0)  # still connected: nothing changes
        assert table.away_since[0] == 0.0
        table.connections[0].closed = True
        before = time.monotonic()
        table.went_away(0)
        assert before <= table.away_since[0] <= time.monotonic()
        assert not table.stood_in(0)  # the grace time has only begun
        table.away_since[0] -= GRACE
        assert table.stood_in(0)  # and now it is over
        table.went_away(1)  # a bot's seat is never away
        assert 1 not in table.away_since and not table.stood_in(1)

    asyncio.run(check())


def test_a_stand_in_plays_only_where_the_table_chose_it() -> None:
    async def check() -> None:
        table = _table(["human", "bot", "human", "bot"], "wait")
        table.away_since[0] = time.monotonic() - 2 * GRACE
        assert not table.stood_in(0)

    asyncio.run(check())


def test_only_a_table_with_bots_or_stand_ins_has_bots() -> None:
    assert not _table(["human"] * 4, "wait").has_bots
    assert _table(["human"] * 4, "bot").has_bots
    assert _table(["human", "bot", "human", "human"], "wait").has_bots


def test_everybody_hears_who_comes_and_goes_and_a_stopped_table_lets_all_go() -> None:
    async def check() -> None:
        table = _table(["human"] * 4, "wait")
        ann, bea, watcher = _Conn(0), _Conn(2), _Conn(None)
        table.join(ann)  # type: ignore[arg-type]
        assert ann.presence() == [True, False, False, False]
        table.join(bea)  # type: ignore[arg-type]
        assert bea.presence() == [True, False, True, False]
        assert ann.presence() == [True, False, False, False]  # told at the end of the turn
        await asyncio.sleep(0)
        assert ann.presence() == bea.presence() == [True, False, True, False]
        # a newcomer has the presence in its first state, and no frame of its own
        assert ann.presence_frames() == 1 and bea.presence_frames() == 0
        table.join(watcher)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        # a watcher changes nobody's presence: no frame for anyone
        assert ann.presence_frames() == 1 and bea.presence_frames() == 0
        assert watcher.presence() == [True, False, True, False]
        table.leave(bea)  # type: ignore[arg-type]
        assert bea.closed
        await asyncio.sleep(0)  # the others are told at the end of the turn
        assert ann.presence() == watcher.presence() == [True, False, False, False]
        assert table.bots.task is not None and not table.bots.task.done()
        await table.stop()
        assert ann.closed and watcher.closed
        assert table.bots.task.done()  # the task that plays the bots' turns is stopped

    asyncio.run(check())


def test_a_wave_of_closings_tells_each_table_once_at_the_end_of_the_turn() -> None:
    """Connections that close in one turn of the event loop (a proxy restarted, every
    client gone at once) make one ``presence`` frame for each connection still there, sent
    in the next turn with who is left; none for those that closed, and none for a table
    nobody is left at."""
    async def check() -> None:
        full, empty = _table(["human"] * 4, "wait"), _table(["human"] * 4, "wait")
        conns = [_Conn(s) for s in range(4)]
        gone = [_Conn(s) for s in range(4)]
        watcher = _Conn(None)
        for conn in conns:
            full.join(conn)  # type: ignore[arg-type]
        full.join(watcher)  # type: ignore[arg-type]
        for conn in gone:
            empty.join(conn)  # type: ignore[arg-type]
        await asyncio.sleep(0)  # (the joins' presence sent)
        frames = [c.presence_frames() for c in (*conns, watcher, *gone)]
        for conn in conns[1:]:  # three of four leave in one turn, and all of the other table
            full.leave(conn)  # type: ignore[arg-type]
        for conn in gone:
            empty.leave(conn)  # type: ignore[arg-type]
        assert [c.presence_frames() for c in (*conns, watcher, *gone)] == frames  # not yet
        await asyncio.sleep(0)
        told = [c.presence_frames() - f for c, f in zip((*conns, watcher, *gone), frames,
                                                         strict=True)]
        assert told == [1, 0, 0, 0, 1, 0, 0, 0, 0]
        assert conns[0].presence() == watcher.presence() == [True, False, False, False]
        for _ in range(3):
            await asyncio.sleep(0)
        assert conns[0].presence_frames() == frames[0] + 1  # once, not three times
        full.leave(watcher)  # type: ignore[arg-type]
        await full.stop()  # stopping drops a broadcast not yet made
        await asyncio.sleep(0)
        assert conns[0].presence_frames() == frames[0] + 1
        await empty.stop()

    asyncio.run(check())


def test_a_wave_of_joins_tells_each_connection_once_and_the_last_to_join_nothing() -> None:
    """A table's four seats and a watcher joining in one turn of the event loop: each
    newcomer's first ``state`` carries the presence as it joined, and at the end of the
    turn the connections whose state no longer says who is here are sent one ``presence``
    frame each (three, where each join sent one to every other connection: six); the last
    seat to join and the watcher (whose arrival changes nobody's presence) get none. A
    table where a seat joins and leaves in the same turn tells the one left nothing, what
    its state said being true again."""
    async def check() -> None:
        table, other = _table(["human"] * 4, "wait"), _table(["human"] * 4, "wait")
        conns = [_Conn(s) for s in range(4)]
        watcher = _Conn(None)
        for conn in conns:
            table.join(conn)  # type: ignore[arg-type]
        table.join(watcher)  # type: ignore[arg-type]
        assert [c.presence() for c in conns] == [
            [s <= n for s in range(4)] for n in range(4)]  # each as it joined
        assert sum(c.presence_frames() for c in (*conns, watcher)) == 0  # not yet
        ann, bea = _Conn(0), _Conn(1)
        other.join(ann)  # type: ignore[arg-type]
        other.join(bea)  # type: ignore[arg-type]
        other.leave(bea)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        assert [c.presence_frames() for c in (*conns, watcher)] == [1, 1, 1, 0, 0]
        assert all(c.presence() == [True] * 4 for c in (*conns, watcher))
        assert ann.presence_frames() == 0 and ann.presence() == [True, False, False, False]
        for _ in range(3):
            await asyncio.sleep(0)
        assert sum(c.presence_frames() for c in (*conns, watcher)) == 3  # once only
        await table.stop()
        await other.stop()

    asyncio.run(check())


def test_on_a_shared_database_the_seats_connected_here_are_stored_as_they_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[tuple[str, dict[str, set[int]]]] = []

    async def write(_pool: object, worker: str, seats: dict[str, set[int]]) -> None:
        written.append((worker, {game: set(s) for game, s in seats.items()}))

    monkeypatch.setattr(sharing_module, "write_presences", write)

    async def check() -> None:
        table = _table(["human"] * 4, "wait")
        table.sharing.start("w1", Presences(_Store(), "w1"))  # type: ignore[arg-type]
        ann, bea = _Conn(0), _Conn(2)
        for step in (lambda: table.join(ann), lambda: table.join(bea),  # type: ignore[arg-type]
                     lambda: table.leave(ann)):  # type: ignore[arg-type]
            step()
            for _ in range(5):
                await asyncio.sleep(0)  # the store is written in the background
        assert written == [("w1", {"g": {0}}), ("w1", {"g": {0, 2}}), ("w1", {"g": {2}})]
        await table.stop()

    asyncio.run(check())
