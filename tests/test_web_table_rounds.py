"""A table's bots across a round's end (web/table.py, :meth:`Table.replay`): a restore that
ends in a new round leaves the bots of that round, seeded for it, as a table that played the
moves live has; a restore within a round keeps the bots it has."""

from __future__ import annotations

from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import format_move
from handfoot.web.store import MoveRow
from test_web_restore import _game, _table


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
