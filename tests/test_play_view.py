"""The play loop's view: ``play_view`` keeps the fields no staging step changes between
two moves, and is always the view ``view`` builds."""

from __future__ import annotations

import dataclasses

import pytest

from handfoot import moves as mv
from handfoot.engine import GameState, PlayerView
from handfoot.registry import make_bot
from handfoot.rules import builtin_profile_names, load_profile


@pytest.mark.parametrize("name", builtin_profile_names())
def test_the_play_view_is_the_view_at_every_decision_of_every_seat(name: str) -> None:
    profile = load_profile(name, overrides={"rounds": 1})
    for seed in range(2):
        state = GameState.new(profile, seed=seed)
        bots = [make_bot("hard" if seed else "random", seed * 10 + s)
                for s in range(state.players)]
        decisions = staged = 0
        while not state.is_over:
            seat = state.to_act
            for other in range(state.players):  # kept per seat: any order
                assert state.play_view(other) == state.view(other)
            view = state.play_view(seat)
            assert view == state.view(seat)
            staged += bool(view.staged)
            state.apply_listed(bots[seat].choose(view))
            decisions += 1
        assert state.play_view(0) == state.view(0)
        assert staged, "no view with staged cards: the test saw no staging step"


def test_a_view_after_a_move_is_not_the_kept_one() -> None:
    state = GameState.new(load_profile("partnership-13"), seed=5)
    before = state.play_view(state.to_act)
    state.apply_action(mv.DRAW)
    after = state.play_view(state.to_act)
    assert after == state.view(state.to_act)
    assert after.phase != before.phase and len(after.hand) > len(before.hand)


def test_a_copy_does_not_keep_its_originals_view_fields() -> None:
    state = GameState.new(load_profile("partnership-13"), seed=5)
    state.apply_action(mv.DRAW)
    seat = state.to_act
    state.play_view(seat)
    copy = state.copy()
    discard = next(a for a in copy.legal_actions() if mv.DISCARD <= a < mv.STAGE_NATURAL)
    copy.apply_action(discard)  # the turn ends in the copy: its log node is a new one
    assert copy.play_view(seat) == copy.view(seat)
    assert state.play_view(seat) == state.view(seat)
    assert copy.play_view(seat) != state.play_view(seat)


def test_the_kept_fields_are_the_views_fields_in_order() -> None:
    state = GameState.new(load_profile("partnership-13"), seed=2)
    kept = state._view_fields(state.to_act)
    names = [f.name for f in dataclasses.fields(PlayerView)]
    assert names[len(kept):] == ["staged", "legal_actions", "stalled_turns"]
    view = state.view(state.to_act)
    assert tuple(getattr(view, n) for n in names[:len(kept)]) == kept
