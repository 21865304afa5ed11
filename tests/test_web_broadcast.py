"""Every ``state`` frame is the message docs/web.md describes for its connection: a
broadcast writes the parts every connection shares once and each connection's own part on
its own (:class:`~handfoot.web.messages.StateMessage`); each seat and a spectator, over a
whole game, its end included, must get exactly its view and the events it lacks, as the
protocol's functions build them. A connection's writer and reader behave."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from typing import Any

import pytest

from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.moves import format_move
from handfoot.runs.sim import bot_turn, play_game
from handfoot.web.connection import Connection
from handfoot.web.protocol import (
    OWN_KEYS,
    event_json,
    own_view_json,
    public_view_json,
    seat_view_json,
)
from handfoot.web.settings import Settings
from handfoot.web.store import GameRow, MoveRow, SeatRow, now
from handfoot.web.table import Table


class _Store:
    async def add_move(self, game_id: str, move: MoveRow, *, status: str | None = None,
                       ) -> datetime:
        return now()


class _Connection:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.last_event = 0
        self.closed = False
        self.frames: list[str] = []

    def send_text(self, text: str) -> None:
        self.frames.append(text)


def expected_state(table: Table, seat: int | None, since: int) -> dict[str, Any]:
    """The ``state`` message of docs/web.md for a connection of ``seat`` that was sent the
    events before ``since``, built from the protocol's functions."""
    state = table.state
    view = public_view_json(state.view(0), table.side_names) if seat is None else \
        seat_view_json(state, seat, table.side_names)
    if state.is_over:
        view["stats"] = [{"seat": i, "pickups": s.pickups, "books": s.books,
                          "melded": s.melded} for i, s in enumerate(table.stats.seats)]
        view["winners"] = list(state.winners())
    return {"type": "state", "seq": table.seq, "view": view,
            "events": [event_json(e, seat) for e in state.events(since)],
            "presence": table.presence(), "waiting": table.waiting()}


def test_every_state_frame_is_the_connections_state_message() -> None:
    profile = load_profile("biegames", overrides={"rounds": 2})
    seats = tuple(SeatRow(s, "human", None, f"P{s}", f"t{s}") for s in range(4))
    row = GameRow("g", "biegames", {"rounds": 2}, "2x2", {"absent": "wait"}, 5, "h",
                  "playing", now(), now(), seats)
    table = Table(row, profile, _Store(), Settings(), lambda: None)  # type: ignore[arg-type]
    connections = [_Connection(s) for s in (0, 1, 2, 3, None)]
    table.connections = connections  # type: ignore[assignment]
    shadow = GameState.new(profile, seed=5)
    bots = [make_bot("hard", s) for s in range(4)]

    async def play() -> int:
        moves = 0
        while not shadow.is_over:
            seat = shadow.to_act
            move = bot_turn(bots[seat], shadow, seat)
            shadow.apply(move)
            await table.commit(table.state.verify(move), "human", f"m{moves}")
            expected = [expected_state(table, c.seat, c.last_event) for c in connections]
            table.broadcast()
            sent = [json.loads(c.frames[-1]) for c in connections]
            assert sent == json.loads(json.dumps(expected)), (moves, format_move(move))
            if moves % 25 == 0:  # a newcomer's state (as after a hello or a stale move)
                newcomer = _Connection(moves % 5 if moves % 5 < 4 else None)
                table.send_state(newcomer)  # type: ignore[arg-type]
                assert json.loads(newcomer.frames[-1]) == json.loads(json.dumps(
                    expected_state(table, newcomer.seat, 0)))
                assert newcomer.last_event == table.seq
            moves += 1
        return moves

    moves = asyncio.run(play())
    assert moves > 100
    assert table.state.is_over
    assert all(len(c.frames) == moves for c in connections)
    last = json.loads(connections[4].frames[-1])
    assert last["view"]["winners"] and last["view"]["seat"] is None
    assert list(last) == ["type", "seq", "view", "events", "presence", "waiting"]


def test_a_seats_connections_and_the_spectators_share_one_message_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's own part of the view is built once per broadcast whatever the number of
    its connections (and not at all for a seat not to act whose cards and opening
    minimum are those of its last one), and every connection of one kind (a seat's, or a
    spectator's) that saw the same events is sent the same text: still each its own state,
    nobody another's."""
    import handfoot.web.messages as messages_module

    if not (messages_module.__file__ or "").endswith(".py"):
        pytest.skip("counts own_view_json's calls by patching web/messages.py, which the "
                    "compiled module does not see")
    built: list[int | None] = []
    real = messages_module.own_view_json

    def counted(state: GameState, seat: int | None, view: Any = None) -> dict[str, Any]:
        built.append(seat)
        return real(state, seat, view)

    monkeypatch.setattr(messages_module, "own_view_json", counted)
    profile = load_profile("biegames", overrides={"rounds": 1})
    seats = tuple(SeatRow(s, "human", None, f"P{s}", f"t{s}") for s in range(4))
    row = GameRow("g", "biegames", {"rounds": 1}, "2x2", {"absent": "wait"}, 9, "h",
                  "playing", now(), now(), seats)
    table = Table(row, profile, _Store(), Settings(), lambda: None)  # type: ignore[arg-type]
    connections = [_Connection(s) for s in (0, 1, 1, 2, 3, None, None)]
    table.connections = connections  # type: ignore[assignment]
    shadow = GameState.new(profile, seed=9)
    bots = [make_bot("hard", s) for s in range(4)]

    idle_built = 0

    async def play() -> None:
        nonlocal idle_built
        for n in range(60):
            seat = shadow.to_act
            move = bot_turn(bots[seat], shadow, seat)
            shadow.apply(move)
            await table.commit(table.state.verify(move), "human", f"m{n}")
            expected = [expected_state(table, c.seat, c.last_event) for c in connections]
            built.clear()
            table.broadcast()
            assert len(built) == len(set(built)) and table.state.to_act in built \
                and None not in built
            idle_built += len(built) - 1
            sent = [json.loads(c.frames[-1]) for c in connections]
            assert sent == json.loads(json.dumps(expected))
            assert connections[1].frames[-1] is connections[2].frames[-1]
            assert connections[5].frames[-1] is connections[6].frames[-1]
            assert len({c.frames[-1] for c in connections}) == 5

    asyncio.run(play())
    assert idle_built < 60  # the seats not to act are mostly written once per hand


def test_closing_a_connection_wakes_its_reader_and_a_real_cancel_still_cancels() -> None:
    """A client that stopped reading may never answer: :meth:`Connection.close` must end
    the reader's wait for its next frame (``receive`` gives None). A cancellation that is
    not the close's (the server stopping) still cancels the reader."""

    class _Silent:
        async def receive(self) -> dict[str, Any]:
            await asyncio.Event().wait()  # never a frame
            raise AssertionError("unreachable")

        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()  # never drained either

        async def close(self, code: int = 1000, reason: str = "") -> None:
            pass

    async def scenario() -> tuple[Any, bool]:
        conn = Connection(_Silent(), 0)  # type: ignore[arg-type]
        conn.start()
        reader = asyncio.create_task(conn.receive())
        await asyncio.sleep(0.01)
        conn.close(4000, "behind")
        done, _ = await asyncio.wait({reader}, timeout=1.0)  # (waits, never cancels)
        assert reader in done, "close() did not wake the reader"
        woken = reader.result()
        other = Connection(_Silent(), 1)  # type: ignore[arg-type]
        stopped = asyncio.create_task(other.receive())
        await asyncio.sleep(0.01)
        stopped.cancel()
        try:
            await stopped
        except asyncio.CancelledError:
            cancelled = True
        else:
            cancelled = False
        for c in (conn, other):
            if c.writer is not None:
                c.writer.cancel()
        return woken, cancelled

    woken, cancelled = asyncio.run(scenario())
    assert woken is None and cancelled


@pytest.mark.parametrize("name", builtin_profile_names())
def test_a_seat_not_acting_gets_the_own_part_its_whole_view_gives(name: str) -> None:
    """The own part of a seat that is not to act is written without building its view
    (own_view_json's short way): after every action of a whole game on each profile, staging
    steps and two layouts included, it is exactly what the seat's whole view gives
    (seat_view_json), for every seat; the acting seat's and a spectator's too."""
    profile = load_profile(name, overrides={"rounds": 1})
    seen: list[tuple[str, int, bool]] = []

    def after(state: GameState) -> None:
        for seat in range(state.players):
            assert own_view_json(state, seat) == seat_view_json(state, seat, public={}), \
                (name, state.players, seat)
            seen.append((str(state.layout), seat, state.to_act == seat))
        assert own_view_json(state, None) == dict.fromkeys(OWN_KEYS)
        staged.append(bool(state.staged))

    staged: list[bool] = []
    for layout in profile.layouts[:2]:
        play_game(profile, 11, [make_bot("normal", s) for s in range(layout.players)],
                  layout=layout, after=after)
    assert any(staged), "no staging step was checked"
    idle = [s for s in seen if not s[2]]
    assert len(idle) > len(seen) // 2 and len({s[0] for s in seen}) == len(profile.layouts[:2])


def test_a_send_started_at_once_that_waits_is_finished_in_order() -> None:
    """A connection sends a frame at once when nothing is queued; a send that has to wait
    (the client's side is full) is finished by the writer task, the frames after it queued
    behind it: every frame goes out, in order. A socket that fails closes the connection
    as a failed send of the writer did."""
    sent: list[str] = []

    class _Slow:
        def __init__(self) -> None:
            self.gate: asyncio.Future[None] | None = None
            self.closed: tuple[int, str] | None = None

        async def send_text(self, text: str) -> None:
            if text.startswith("wait"):
                self.gate = asyncio.get_running_loop().create_future()
                await self.gate
                await asyncio.sleep(0)
            if text == "boom":
                raise OSError("gone")
            sent.append(text)

        async def close(self, code: int = 1000, reason: str = "") -> None:
            self.closed = (code, reason)

    async def scenario() -> tuple[list[str], int, bool, tuple[int, str] | None]:
        ws = _Slow()
        conn = Connection(ws, 0)  # type: ignore[arg-type]
        conn.start()
        conn.send_text("a")
        assert sent == ["a"] and conn.queue.qsize() == 0  # at once: no queue, no task turn
        conn.send_text("wait-b")
        conn.send_text("c")
        conn.send_text("d")
        queued = conn.queue.qsize()
        await asyncio.sleep(0.01)
        assert sent == ["a"]
        assert ws.gate is not None
        ws.gate.set_result(None)
        await asyncio.sleep(0.01)
        conn.send_text("e")
        conn.send_text("boom")
        conn.send_text("f")
        await asyncio.wait_for(conn.ended.wait(), 1.0)
        assert conn.writer is not None
        await asyncio.wait_for(conn.writer, 1.0)
        return list(sent), queued, conn.closed, ws.closed

    frames, queued, closed, ws_closed = asyncio.run(scenario())
    assert frames == ["a", "wait-b", "c", "d", "e"]
    assert queued == 3  # the waiting send, then the two behind it
    assert closed and ws_closed == (1000, "")


def test_a_message_is_written_as_the_standard_librarys_compact_json() -> None:
    """:func:`~handfoot.web.messages.encode` asks orjson without its option for keys that
    are not strings first: a message with such keys, or with an integer orjson does not
    take, is still written, as the standard library writes it compactly."""
    from handfoot.web.messages import encode

    for message in ({"type": "state", "view": {"melds": [[{"cards": ["7h", "JK"]}]]},
                     "name": "Zoë ✓"},
                    {"type": "stats", "by_seat": {0: 1, 1: [2, 3]}, "waiting": None},
                    {"big": 2 ** 70, "list": [1.5, True, None]}):
        text = encode(message)
        assert json.loads(text) == json.loads(json.dumps(message))
        assert text == json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def test_a_connection_with_the_sockets_channel_reads_and_writes_through_it() -> None:
    """A connection given its socket's ASGI ``receive`` and ``send`` (``channel``, as
    web/app.py's endpoint gives it) reads and writes every frame through them, never through
    the WebSocket's methods: a send at once, one the server's send makes wait (an awaitable
    that is not a coroutine, finished by the writer), the frames behind it in order, a frame
    read, and the close."""
    sent: list[dict[str, Any]] = []

    class _Unused:
        async def receive(self) -> dict[str, Any]:
            raise AssertionError("read through the WebSocket")

        async def send_text(self, text: str) -> None:
            raise AssertionError("written through the WebSocket")

        async def close(self, code: int = 1000, reason: str = "") -> None:
            sent.append({"type": "websocket.close", "code": code})

    async def scenario() -> tuple[dict[str, Any] | None, Any]:
        frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        gate = asyncio.get_running_loop().create_future()

        async def receive() -> dict[str, Any]:
            return await frames.get()

        def send(message: dict[str, Any]) -> Any:
            if message.get("text") == "wait":  # a server whose send is a future
                async def later() -> None:
                    await gate
                    sent.append(message)
                return asyncio.ensure_future(later())

            async def now_() -> None:
                sent.append(message)
            return now_()

        conn = Connection(_Unused(), 0, channel=(receive, send))  # type: ignore[arg-type]
        conn.start()
        conn.send_text("a")
        conn.send_text("wait")
        conn.send_text("b")
        await asyncio.sleep(0.01)
        assert [m.get("text") for m in sent] == ["a"]
        gate.set_result(None)
        frames.put_nowait({"type": "websocket.receive", "text": "hi"})
        frame = await asyncio.wait_for(conn.receive(), 1.0)
        conn.close(4000)
        assert conn.writer is not None
        await asyncio.wait_for(conn.writer, 1.0)
        return frame, sent

    frame, out = asyncio.run(scenario())
    assert frame == {"type": "websocket.receive", "text": "hi"}
    assert out == [{"type": "websocket.send", "text": t} for t in ("a", "wait", "b")] + \
        [{"type": "websocket.close", "code": 4000}]
