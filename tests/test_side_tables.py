"""A side's table as the engine keeps it (``State._side_table``): its melds that take cards
(the view's ``open_melds``), their sizes and indices are what a walk of the side's melds
gives, at every view of games of every profile, and after the melds are edited by hand;
and the staging flags kept by target and size are the flags worked out each time."""

from __future__ import annotations

import pytest

from handfoot.bots.melds import _currents
from handfoot.bots.registry import make_bot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import kind_counts
from handfoot.game.engine import GameState
from handfoot.game.listing import _NONE_STAGED
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.values import PlayerView, TableMeld


def _walked(state: GameState, side: int) -> tuple[list[int], list[int]]:
    """Each target's size and index of the side's meld that takes cards, walked."""
    p = state.profile
    sizes = [0] * mv.NUM_TARGETS
    index = [-1] * mv.NUM_TARGETS
    for i, m in enumerate(state.melds[side]):
        cap = p.book_size if m.target == mv.WILD_MELD else (p.book_max or 1 << 30)
        open_ = m.size < cap
        sizes[m.target] = m.size if open_ else 0
        index[m.target] = i if open_ else -1
    return sizes, index


def _check(state: GameState, view: PlayerView) -> None:
    assert view.hand_kinds == tuple(kind_counts(view.hand))
    for side in range(state.sides):
        assert view.open_melds[side] == tuple(_currents(view.melds[side], view))
        sizes, index = _walked(state, side)
        assert state._existing_sizes(side) == sizes
        assert [state._current_meld(side, t) for t in range(mv.NUM_TARGETS)] == index


@pytest.mark.parametrize("name", builtin_profile_names())
def test_the_kept_tables_are_the_walked_ones_at_every_view(name: str) -> None:
    profile = load_profile(name, overrides={"rounds": 2})
    for seed in range(2):
        state = GameState.new(profile, seed=seed)
        bots = [make_bot("hard", seed * 10 + s) for s in range(state.players)]
        while not state.is_over:
            seat = state.to_act
            view = state.play_view(seat)
            _check(state, view)
            _check(state, state.view((seat + 1) % state.players))
            state.apply_listed(bots[seat].choose(view))


def test_melds_edited_by_hand_are_seen_at_once() -> None:
    """The tables are kept by their content, not by the moves: a meld changed by hand (as
    tests and tools do) is in the next view and listing, with no move between."""
    state = GameState.new(load_profile("partnership-13"), seed=3)
    seat = state.to_act
    side = state.side_of[seat]
    rank = cards.NINE
    faces = cards.KIND_FACES[rank]
    assert state.play_view(seat).open_melds[side][rank] is None
    meld = TableMeld(rank, 3, 0, 0, tuple(faces[:3]))
    state.melds[side].append(meld)
    after = state.view(seat)
    assert after.open_melds[side][rank] is meld
    assert after.melds[side] == (meld,)
    assert state._existing_sizes(side)[rank] == 3
    assert state._current_meld(side, rank) == 0
    state.melds[side][0] = TableMeld(rank, 4, 0, 0, tuple(faces[:4]))
    _check(state, state.view(seat))
    assert state._existing_sizes(side)[rank] == 4
    state.melds[side].clear()
    assert state.view(seat).open_melds[side][rank] is None
    assert state._current_meld(side, rank) == -1
    # a copy keeps nothing of it
    assert state.copy()._tables is None


@pytest.mark.parametrize("name", builtin_profile_names())
def test_the_kept_staging_flags_are_the_worked_out_ones(name: str) -> None:
    state = GameState.new(load_profile(name), seed=1)
    for top in range(-1, mv.NUM_TARGETS):
        for t in range(mv.NUM_TARGETS):
            for size in (0, 1, 2, 3, 5, 6, 7, 8, 9, 12, 63, 64, 70):
                want = state._target_flags(t, size, top, _NONE_STAGED)
                assert state._flags_alone(t, size, top) == want, (top, t, size)
                assert state._flags_alone(t, size, top) == want, (top, t, size)  # kept
