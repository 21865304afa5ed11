"""People's moves begin at most ``BEGIN_AT_ONCE`` a turn of the event loop (web/table.py,
``_MoveTurns``): in the order they came, every one of them, and a move cancelled while it
waits holds none of the others up."""

from __future__ import annotations

import asyncio

import pytest

from handfoot.web import table as table_module


async def _turns_of(count: int, cancel: frozenset[int] = frozenset(),
                   ) -> tuple[list[int], list[int]]:
    """``count`` moves begun at once: the order they began in, and how many began in each
    turn of the loop (a probe counts the turns)."""
    turns = table_module._MoveTurns.of(asyncio.get_running_loop())
    begun: list[int] = []
    turn = [0]
    per_turn: dict[int, int] = {}

    async def move(n: int) -> None:
        await turns.begin()
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
