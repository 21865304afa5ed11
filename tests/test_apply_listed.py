"""The play loop's fast path: ``apply_listed`` plays an action of the listing made just
before without checking it again, and anything else exactly as ``apply_action`` does."""

from __future__ import annotations

import random

import pytest

from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.values import IllegalMoveError, Phase


def _in_play(seed: int = 3) -> GameState:
    state = GameState.new(load_profile("partnership-13"), seed=seed)
    state.apply_action(mv.DRAW)
    assert state.phase == Phase.PLAY
    return state


def _single_stage(state: GameState) -> int:
    """A listed staging action of a rank the seat holds exactly one card of."""
    held = state.held[state.seat]
    return next(a for a in state.legal_actions()
                if mv.STAGE_NATURAL <= a < mv.STAGE_WILD
                and held[(a - mv.STAGE_NATURAL) // 2] == 1)


def test_a_listed_action_plays_as_apply_action_plays_it() -> None:
    for seed in range(6):
        fast = GameState.new(load_profile("biegames"), seed=seed)
        slow = fast.copy()
        rng = random.Random(seed)
        while not fast.is_over:
            actions = fast.legal_actions()
            assert actions == slow.legal_actions()
            action = actions[rng.randrange(len(actions))]
            assert fast.apply_listed(action) == slow.apply_action(action)
        assert fast == slow
        assert fast.history == slow.history


def test_an_unlisted_action_is_refused_with_its_reason_and_nothing_changes() -> None:
    state = _in_play()
    state.legal_actions()
    before = state.copy()
    with pytest.raises(IllegalMoveError, match="already drawn"):
        state.apply_listed(mv.DRAW)
    assert state == before


def test_a_listing_is_not_used_after_a_move() -> None:
    state = _in_play()
    stage = _single_stage(state)
    state.apply_action(stage)  # the only card of its rank is staged now
    with pytest.raises(IllegalMoveError, match="left to stage"):
        state.apply_listed(stage)


def test_a_copy_does_not_take_its_original_listing() -> None:
    state = _in_play()
    stage = _single_stage(state)
    copy = state.copy()
    copy.apply_action(stage)
    copy_listing = copy.copy()
    with pytest.raises(IllegalMoveError, match="left to stage"):
        copy_listing.apply_listed(stage)
    state.apply_listed(stage)  # the original's listing still holds for the original
    assert state.staged == copy.staged


def test_a_returned_listing_changed_by_its_caller_is_not_trusted() -> None:
    state = _in_play()
    listing = state.legal_actions()
    held = state.held[state.seat]
    absent = next(mv.STAGE_NATURAL + 2 * k for k in range(11) if not held[k])
    listing.append(absent)
    with pytest.raises(IllegalMoveError, match="left to stage"):
        state.apply_listed(absent)
