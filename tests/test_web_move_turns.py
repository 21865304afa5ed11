"""People's moves begin at most ``BEGIN_AT_ONCE`` a turn of the event loop (web/table.py,
``_MoveTurns``): in the order they came, every one of them, and a move cancelled while it
waits holds none of the others up. New connections begin to join the same way, at most
``JOIN_AT_ONCE`` a turn (``begin_join``), on turns of their own."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from handfoot.web import app as app_module
from handfoot.web import table as table_module
from web_client import client, new_game, token_of


async def _turns_of(count: int, cancel: frozenset[int] = frozenset(), *,
                   begin: Callable[[], Awaitable[None]] | None = None,
                   ) -> tuple[list[int], list[int]]:
    """``count`` moves (or what ``begin`` begins) begun at once: the order they began in,
    and how many began in each turn of the loop (a probe counts the turns)."""
    if begin is None:
        begin = table_module._MoveTurns.of(asyncio.get_running_loop()).begin
    begun: list[int] = []
    turn = [0]
    per_turn: dict[int, int] = {}

    async def move(n: int) -> None:
        await begin()
        begun.append(n)
        per_turn[turn[0]] = per_turn.get(turn[0], 0) + 1

    async def probe() -> None:
        while len(begun) < count - len(cancel):
            await asyncio.sleep(0)
            turn[0] += 1

    tasks = [asyncio.create_task(move(n)) for n in range(count)]
    counting = asyncio.create_task(probe())
    await asyncio.sleep(0)  # every move has asked to begin
    for n in cancel:
        tasks[n].cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await counting
    return begun, list(per_turn.values())


@pytest.mark.parametrize("at_once", [1, 8, 32])
def test_moves_begin_in_order_a_few_a_turn(at_once: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "BEGIN_AT_ONCE", at_once)
    begun, per_turn = asyncio.run(_turns_of(100))
    assert begun == list(range(100))
    assert max(per_turn) <= at_once and len(per_turn) >= 100 // at_once


def test_a_move_cancelled_while_it_waits_holds_none_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "BEGIN_AT_ONCE", 4)
    begun, _ = asyncio.run(_turns_of(20, cancel=frozenset({5, 6, 13})))
    assert begun == [n for n in range(20) if n not in {5, 6, 13}]


@pytest.mark.parametrize("at_once", [1, 16])
def test_connections_begin_to_join_in_order_a_few_a_turn(
        at_once: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "JOIN_AT_ONCE", at_once)
    begun, per_turn = asyncio.run(_turns_of(100, begin=table_module.begin_join))
    assert begun == list(range(100))
    assert max(per_turn) <= at_once and len(per_turn) >= 100 // at_once


def test_joins_and_moves_begin_on_turns_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A burst of joins takes none of the moves' turns: both begin their full share in the
    same turn."""
    monkeypatch.setattr(table_module, "JOIN_AT_ONCE", 2)
    monkeypatch.setattr(table_module, "BEGIN_AT_ONCE", 3)
    kinds: list[str] = []

    async def main() -> None:
        moves = table_module._MoveTurns.of(asyncio.get_running_loop())

        async def one(kind: str) -> None:
            await (table_module.begin_join() if kind == "join" else moves.begin())
            kinds.append(kind)

        tasks = [asyncio.create_task(one(k)) for k in ["join"] * 10 + ["move"] * 10]
        await asyncio.sleep(0)  # every task has asked once: the first turn's have begun
        assert sorted(kinds) == ["join"] * 2 + ["move"] * 3
        await asyncio.gather(*tasks)

    asyncio.run(main())


def test_a_connection_waits_for_its_turn_before_its_handshake_is_answered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's WebSocket asks for its turn to join before it accepts the connection,
    and then joins as ever."""
    asked: list[int] = []
    real = table_module.begin_join

    async def counted() -> None:
        asked.append(1)
        await real()

    monkeypatch.setattr(app_module, "begin_join", counted)
    with client(tmp_path / "t.db") as c:
        game = new_game(c, seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3)
        with c.websocket_connect(f"/ws/{game['game_id']}") as ws:
            ws.send_json({"type": "hello", "token": token_of(game["seats"][0]["link"])})
            assert ws.receive_json()["type"] == "welcome"
            assert ws.receive_json()["type"] == "state"
    assert asked == [1]
