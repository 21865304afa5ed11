"""The web table's statistics helper counts what the engine counts (a restore replays
every move through it, so it is the fast form of two engine questions)."""

from __future__ import annotations

import pytest

from handfoot.bots.registry import make_bot
from handfoot.game.cards import FACE_KIND
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.runs.sim import bot_turn
from handfoot.web.stats import Tally, table_tally


@pytest.mark.parametrize("profile", ["partnership-13", "hand-knee-foot", "biegames"])
def testtable_tally_is_the_engines_points_and_books(profile: str) -> None:
    state = GameState.new(load_profile(profile), seed=11)
    bots = [make_bot("hard", seat) for seat in range(state.players)]
    checked = books_seen = 0
    while not state.is_over and checked < 1500:
        for side in range(len(state.melds)):
            values = state.profile.kind_values
            points = sum(values[FACE_KIND[f]] for m in state.melds[side] for f in m.faces)
            books = state.book_counts(side)
            count = books["clean"] + books["dirty"] + books["wild"]
            assert table_tally(state, side) == (points, count)
            books_seen += count
        seat = state.to_act
        state.apply(bot_turn(bots[seat], state, seat))
        checked += 1
    assert books_seen > 0  # the game made books: the count was tested on some


@pytest.mark.parametrize("profile", ["partnership-13", "hand-knee-foot"])
def test_the_kept_tally_answers_as_the_full_one(profile: str) -> None:
    """The table's running tally (asked for one side at a time, as a replay asks) equals
    :func:`table_tally` after every move, across rounds and undos."""
    state = GameState.new(load_profile(profile), seed=5)
    tally = Tally(state.profile)
    bots = [make_bot("hard", seat + 20) for seat in range(state.players)]
    rounds = set()
    moves = 0
    while not state.is_over and moves < 1200:
        side = state.side_of[state.to_act]
        assert tally(state, side) == table_tally(state, side)
        seat = state.to_act
        state.apply(bot_turn(bots[seat], state, seat))
        moves += 1
        rounds.add(state.round_number)
        for other in range(len(state.melds)):
            assert tally(state, other) == table_tally(state, other)
    assert len(rounds) > 1  # new rounds, whose tables start empty, were crossed
