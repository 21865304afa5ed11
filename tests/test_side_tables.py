"""A side's table as the engine keeps it while the side's melds are the same ones (the
view's ``open_melds``, the listing's meld sizes, the checks' meld indices) and the staging
flags it keeps by target and meld size: at every decision of games of every profile, and
after melds are edited by hand, the views, listings and meld options are those of a copy
(which keeps nothing: it works each out again) and ``open_melds`` is the bots' own walk of
the view's melds."""

from __future__ import annotations

import pytest

from handfoot.bots.melds import _currents
from handfoot.bots.registry import make_bot
from handfoot.game import cards
from handfoot.game.cards import kind_counts
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.values import PlayerView, TableMeld


def _check_view(view: PlayerView) -> None:
    assert view.hand_kinds == tuple(kind_counts(view.hand))
    for side in range(view.sides):
        assert view.open_melds[side] == tuple(_currents(view.melds[side], view))


def _check(state: GameState, seat: int) -> None:
    """The state's view, listing and meld options (from its kept tables and flags) are a
    fresh copy's."""
    fresh = state.copy()
    view = state.view(seat)
    _check_view(view)
    assert view == fresh.view(seat)
    if not state.is_over and state.to_act == seat:
        assert state.legal_actions() == fresh.legal_actions()
    assert state.meld_options(seat) == fresh.meld_options(seat)


@pytest.mark.parametrize("name", builtin_profile_names())
def test_the_kept_tables_and_flags_are_worked_out_again_by_a_copy(name: str) -> None:
    profile = load_profile(name, overrides={"rounds": 2})
    for seed in range(2):
        state = GameState.new(profile, seed=seed)
        bots = [make_bot("hard" if seed else "random", seed * 10 + s)
                for s in range(state.players)]
        while not state.is_over:
            seat = state.to_act
            view = state.play_view(seat)
            _check_view(view)
            _check(state, seat)
            _check(state, (seat + 1) % state.players)
            state.apply_listed(bots[seat].choose(state.play_view(seat)))


def test_melds_edited_by_hand_are_seen_at_once() -> None:
    """The tables are kept by their content, not by the moves: a meld changed by hand (as
    tests and tools do) is in the next view and listing, with no move between."""
    state = GameState.new(load_profile("partnership-13"), seed=3)
    state.apply_action(0)  # the draw
    seat = state.to_act
    side = state.side_of[seat]
    rank = cards.NINE
    faces = cards.KIND_FACES[rank]
    assert state.play_view(seat).open_melds[side][rank] is None
    listed = state.legal_actions()
    meld = TableMeld(rank, 3, 0, 0, tuple(faces[:3]))
    state.melds[side].append(meld)
    after = state.view(seat)
    assert after.open_melds[side][rank] is meld and after.melds[side] == (meld,)
    _check(state, seat)
    state.melds[side][0] = TableMeld(rank, 4, 0, 0, tuple(faces[:4]))
    _check(state, seat)
    assert state.view(seat).open_melds[side][rank] == state.melds[side][0]
    state.melds[side].clear()
    assert state.view(seat).open_melds[side][rank] is None
    assert state.legal_actions() == listed
    _check(state, seat)
