"""The web table's statistics helper counts what the engine counts (a restore replays
every move through it, so it is the fast form of two engine questions)."""

from __future__ import annotations

import pytest

from handfoot.cards import FACE_KIND
from handfoot.engine import GameState
from handfoot.registry import make_bot
from handfoot.rules import load_profile
from handfoot.sim import bot_turn
from handfoot.web.tables import _table_tally


@pytest.mark.parametrize("profile", ["partnership-13", "hand-knee-foot", "biegames"])
def test_table_tally_is_the_engines_points_and_books(profile: str) -> None:
    state = GameState.new(load_profile(profile), seed=11)
    bots = [make_bot("hard", seat) for seat in range(state.players)]
    checked = books_seen = 0
    while not state.is_over and checked < 1500:
        for side in range(len(state.melds)):
            values = state.profile.kind_values
            points = sum(values[FACE_KIND[f]] for m in state.melds[side] for f in m.faces)
            books = state.book_counts(side)
            count = books["clean"] + books["dirty"] + books["wild"]
            assert _table_tally(state, side) == (points, count)
            books_seen += count
        seat = state.to_act
        state.apply(bot_turn(bots[seat], state, seat))
        checked += 1
    assert books_seen > 0  # the game made books: the count was tested on some
