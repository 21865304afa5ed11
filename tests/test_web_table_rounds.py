"""A table's bots across a round's end (web/table.py, :meth:`Table.replay`): a restore that
ends in a new round leaves the bots of that round, seeded for it, as a table that played the
moves live has; a restore within a round keeps the bots it has."""

from __future__ import annotations

import asyncio

from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import format_move
from handfoot.web.protocol import ClientMessage
from handfoot.web.store import MoveRow
from test_web_restore import _game, _table
from test_web_table_presence import _Conn


def _rows(played: list[tuple[int, object]], upto: int) -> list[MoveRow]:
    return [MoveRow(i + 1, 0, seat, format_move(move), "human" if seat == 0 else "bot",  # type: ignore[arg-type]
                    None) for i, (seat, move) in enumerate(played[:upto])]


def _rng_states(bots: dict[int, object]) -> dict[int, object]:
    # an easy bot's only state is its random generator, seeded by the table's seed, the
    # seat and the round (TableBots.make)
    return {seat: bot._rng.getstate() for seat, bot in bots.items()}  # type: ignore[attr-defined]


def test_a_restore_into_a_new_round_leaves_that_round_s_bots() -> None:
    profile = load_profile("biegames")
    seed = 3
    _, played = _game(profile, seed, "easy")
    # the moves up to the first one of round 2 (the one that ended round 1 is just before)
    state = GameState.new(profile, seed=seed)
    ends = 0
    while state.round_number == 1:
        state.apply(played[ends][1])
        ends += 1
    ends -= 1  # the move that ended round 1
    table = _table(profile, seed)
    table.replay(_rows(played, ends + 1), set())
    assert table.state.round_number == 2 and table.seq == ends + 1
    fresh = {seat: table.bots.make("easy", seat) for seat in table.bots.bots}
    assert fresh and all(seat != 0 for seat in fresh)
    assert _rng_states(table.bots.bots) == _rng_states(fresh)
    # round 1's bots are seeded otherwise: the check above can tell them apart
    first = {seat: table.bots.make("easy", seat, round_number=1) for seat in fresh}
    assert _rng_states(first) != _rng_states(fresh)


def test_a_restore_within_a_round_keeps_the_bots_it_has() -> None:
    profile = load_profile("biegames")
    _, played = _game(profile, 3, "easy")
    table = _table(profile, 3)
    table.replay(_rows(played, 3), set())
    bots = table.bots.bots
    for bot in bots.values():
        bot._rng.random()  # type: ignore[attr-defined]  # as a bot's thinking moves it on
    before = _rng_states(bots)
    rows = _rows(played, 6)[3:]
    table.replay(rows, set())  # moves another process stored, in the same round
    assert table.state.round_number == 1 and table.bots.bots is bots
    assert _rng_states(table.bots.bots) == before


class _Continues:
    def __init__(self) -> None:
        self.stored: list[tuple[str, int, int]] = []

    async def add_continue(self, game_id: str, round_number: int, seat: int) -> None:
        self.stored.append((game_id, round_number, seat))


def test_continue_is_for_a_round_that_ended_and_for_the_people_only() -> None:
    profile = load_profile("biegames")
    _, played = _game(profile, 3, "easy")
    state = GameState.new(profile, seed=3)
    ends = 0
    while state.round_number == 1:
        state.apply(played[ends][1])
        ends += 1

    async def check() -> None:
        table = _table(profile, 3)  # seat 0 a person, the others bots
        store = _Continues()
        table.store = store  # type: ignore[assignment]
        person, bot, watcher = _Conn(0), _Conn(1), _Conn(None)
        table.connections += [person, watcher]  # type: ignore[list-item]

        async def say(conn: _Conn, number: int | None) -> object:
            conn.sent.clear()
            await table._continue(conn, ClientMessage("continue", "c", round=number))  # type: ignore[arg-type]
            return conn.sent[0] if conn.sent else None

        assert await say(person, 1) == {"type": "error", "id": "c", "code": "bad_message",
                                        "message": "round 1 has not ended"}
        table.replay(_rows(played, ends), set())  # round 1 ends
        assert table.waiting() == {"continue": [0], "round": 1}
        for number in (0, -1, 2, None):
            reply = await say(person, number)
            assert reply == {"type": "error", "id": "c", "code": "bad_message",
                             "message": f"round {number} has not ended"}, number
        for conn in (bot, watcher):
            reply = await say(conn, 1)
            assert reply is not None and reply["message"] == \
                "only the people at the table continue"  # type: ignore[index]
        assert store.stored == [] and table.continued == set()
        reply = await say(person, 1)
        assert reply is not None and reply["type"] == "state"  # type: ignore[index]
        assert store.stored == [("g", 1, 0)] and table.continued == {(1, 0)}
        assert table.waiting() is None
        assert await say(person, 1) is None  # pressed twice: stored once, nothing new
        assert store.stored == [("g", 1, 0)]

    asyncio.run(check())
