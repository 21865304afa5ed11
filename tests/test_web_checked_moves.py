"""The server checks a person's move once: the engine's :meth:`GameState.verify` gives the
checked move, which is stored and then committed as checked (``apply(effect)``), with no
second check and no copy of the state to try it. An illegal move is refused with the
engine's own reason and changes nothing.

A table of four people (no bot thinks, so nothing else checks or copies meanwhile); each
seat's WebSocket runs inside the app's event loop (:mod:`asgi_socket`), and the engine's
methods are wrapped to count what they are asked while one move is handled.
"""

from __future__ import annotations

import collections
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import handfoot
from asgi_socket import Socket
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.moves import parse_move
from handfoot.game.values import Effect
from handfoot.web.table import Table
from web_client import client, new_game, token_of

Calls = collections.Counter[str]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Calls, list[Any]]]:
    """Counts of the engine's checks and copies (``verify``, ``check``, ``copy``, ``apply``
    of a move or of an :class:`Effect`) and every move ``_verify`` was asked about, from
    the moment the test clears them."""
    if handfoot.compiled:
        pytest.skip("the engine is compiled: its methods cannot be wrapped")
    calls: Calls = collections.Counter()
    checked: list[Any] = []

    def wrap(name: str) -> None:
        real = getattr(GameState, name)

        def method(self: GameState, *args: Any) -> Any:
            if name == "_verify":
                checked.append(args[0])
            elif name == "apply":
                calls["apply effect" if isinstance(args[0], Effect) else "apply move"] += 1
            else:
                calls[name] += 1
            return real(self, *args)
        monkeypatch.setattr(GameState, name, method)
    for name in ("verify", "_verify", "check", "copy", "apply"):
        wrap(name)
    yield calls, checked


class Seat:
    """One seat's WebSocket in the app's loop."""

    def __init__(self, c: TestClient, game_id: str, token: str) -> None:
        self.app = c.app
        self.path = f"/ws/{game_id}"
        self.token = token

    async def join(self) -> dict[str, Any]:
        """Open the socket (in the app's loop) and say hello; the first state."""
        self.sock = Socket(self.app, self.path)
        await self.sock.open()
        self.sock.send_json({"type": "hello", "token": self.token})
        return await self.next("state")

    async def next(self, kind: str) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = await self.sock.receive_json()
            if message["type"] == kind:
                return message

    async def unread(self) -> list[dict[str, Any]]:
        """The frames sent to this seat and not read yet: those before the answer to a
        ping (a connection's frames go out in order)."""
        self.sock.send_json({"type": "ping"})
        frames = []
        while (message := await self.sock.receive_json())["type"] != "pong":
            frames.append(message)
        return frames


def four_people(c: TestClient) -> tuple[str, list[Seat]]:
    game = new_game(c, profile="biegames", rounds=1, absent="wait",
                    seats=[{"kind": "human"}] * 4)
    return game["game_id"], [Seat(c, game["game_id"], token_of(s["link"]))
                             for s in game["seats"]]


def in_loop(c: TestClient, function: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    """What ``function(*args)`` returns, run in the app's event loop."""
    assert c.portal is not None
    return c.portal.call(function, *args)


def table_of(c: TestClient, game_id: str) -> Table:
    table = in_loop(c, c.app.state.tables.get, game_id)  # type: ignore[attr-defined]
    assert isinstance(table, Table)
    return table


def test_a_move_is_verified_once_and_committed_without_a_copy(
        tmp_path: Path, counted: tuple[Calls, list[Any]]) -> None:
    calls, checked = counted
    with client(tmp_path / "once.db") as c:
        game_id, seats = four_people(c)

        async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
            first = [await s.join() for s in seats]
            view = first[0]["view"]
            assert view["phase"] == "draw"
            mover = seats[view["to_act"]]
            for s in seats:
                await s.unread()  # (the presence of those who joined after)
            calls.clear()
            checked.clear()
            mover.sock.send_json({"type": "move", "id": "m1", "seq": 0, "move": "draw"})
            ack = await mover.next("ack")
            states = [await s.next("state") for s in seats]  # every seat is told
            for s in seats:
                await s.sock.close()
            return ack, states

        ack, states = in_loop(c, scenario)
        assert ack == {"type": "ack", "id": "m1", "seq": 1}
        assert all(s["seq"] == 1 and s["events"][-1]["type"] == "draw" for s in states)
        assert checked.count(mv.Draw()) == 1  # the move was verified once...
        assert calls["verify"] == 1 and calls["check"] == 0
        assert calls["apply effect"] == 1 and calls["apply move"] == 0  # ...committed as such
        assert calls["copy"] == 0  # and no state was copied to try it
        assert table_of(c, game_id).state.moves_played == 1
        rows = in_loop(c, c.app.state.store.moves, game_id)  # type: ignore[attr-defined]
        assert [(r.seq, r.notation, r.by, r.request_id) for r in rows] == \
            [(1, "draw", "human", "m1")]


def test_an_illegal_move_gets_the_engines_reason_and_changes_nothing(
        tmp_path: Path, counted: tuple[Calls, list[Any]]) -> None:
    calls, _ = counted
    with client(tmp_path / "illegal.db") as c:
        game_id, seats = four_people(c)
        table = table_of(c, game_id)
        before = (table.seq, table.state.position(), dict(table.acks), table.updated)
        move = "discard 7"  # in the draw phase
        reason = table.state.check(parse_move(move))
        assert reason

        async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            first = [await s.join() for s in seats]
            mover = seats[first[0]["view"]["to_act"]]
            for s in seats:
                await s.unread()
            calls.clear()
            mover.sock.send_json({"type": "move", "id": "bad", "seq": 0, "move": move})
            answer = await mover.unread()
            others = [m for s in seats if s is not mover for m in await s.unread()]
            for s in seats:
                await s.sock.close()
            return answer, others

        answer, others = in_loop(c, scenario)
        assert answer == [{"type": "error", "id": "bad", "code": "illegal", "message": reason}]
        assert others == []  # no state to anybody
        assert calls["verify"] == 1 and calls["apply effect"] + calls["apply move"] == 0
        assert calls["copy"] == 0
        assert (table.seq, table.state.position(), dict(table.acks), table.updated) == before
        assert in_loop(c, c.app.state.store.moves, game_id) == []  # type: ignore[attr-defined]

