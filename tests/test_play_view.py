"""The play loop's view: ``play_view`` keeps the fields no staging step changes between
two moves, and is always the view ``view`` builds."""

from __future__ import annotations

import dataclasses

import pytest

from handfoot.bots.melds import _currents
from handfoot.bots.registry import make_bot
from handfoot.game import moves as mv
from handfoot.game.cards import kind_counts
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.values import PlayerView


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


def test_every_field_of_the_view_holds_what_its_name_says() -> None:
    """The view is built from a tuple of its fields in order: each must land in its own
    field (a view compared with itself would not notice two swapped)."""
    state = GameState.new(load_profile("partnership-13"), seed=2)
    state.apply_action(mv.DRAW)
    staged = next(a for a in state.legal_actions() if mv.STAGE_NATURAL <= a < mv.STAGE_WILD)
    state.apply_action(staged)
    seat = state.to_act
    side = state.layout.side_of(seat)
    view0 = state.view(seat)
    expected = {
        "profile": state.profile, "seat": seat, "side": side, "players": state.players,
        "sides": state.sides, "round_number": state.round_number,
        "rounds": state.profile.rounds, "phase": state.phase, "turn": state.seat,
        "to_act": state.to_act, "opening_minimum": state.opening_minimum_of(side),
        "hand": tuple(state.hand(seat)), "hand_kinds": tuple(kind_counts(state.hand(seat))),
        "hand_counts": tuple(state.held_n),
        "foot_counts": tuple(len(f) for f in state.feet),
        "knee_counts": tuple(len(k) for k in state.knees),
        "in_foot": tuple(state.foot_picked), "melds": tuple(tuple(m) for m in state.melds),
        "open_melds": tuple(tuple(_currents(tuple(m), view0)) for m in state.melds),
        "red_threes": tuple(tuple(r) for r in state.red_threes),
        "opened": tuple(state.opened), "discard_top": state.pile[-1],
        "discard_size": len(state.pile), "stock_size": len(state.stock),
        "totals": tuple(state.totals), "results": tuple(state.results), "asking": None,
        "staged": state.staged_groups(), "legal_actions": tuple(state.legal_actions()),
        "stalled_turns": state.stalled_turns, "pickup_size": state.pickup_size(),
    }
    assert [f.name for f in dataclasses.fields(PlayerView)] == list(expected)
    for view in (state.view(seat), state.play_view(seat), state.play_view(seat)):
        for name, value in expected.items():
            assert getattr(view, name) == value, name


def test_the_compiled_builds_view_constructor_gives_the_same_views(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled, a view is built by naming the class (its ``__init__`` native); pure
    Python, by the slot-setting constructor. Both give the same view, field for field."""
    from handfoot.game import listing

    profile = load_profile("partnership-13")
    state = GameState.new(profile, seed=34)
    bots = [make_bot("hard", s) for s in range(4)]
    for _ in range(300):
        if state.is_over:
            break
        seat = state.to_act
        slot_set = state.view(seat)
        monkeypatch.setattr(listing, "_SLOT_SETTER", False)
        named = state.view(seat)
        monkeypatch.setattr(listing, "_SLOT_SETTER", True)
        assert named == slot_set
        state.apply_listed(bots[seat].choose(state.play_view(seat)))
