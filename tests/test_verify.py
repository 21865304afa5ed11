"""Check, then do: ``verify`` raises with the reason or says what a move will do,
``is_legal`` answers cheaply, and ``apply`` is the two together."""

from __future__ import annotations

import random

import pytest

from handfoot.game import cards, checks
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import MeldGroup, parse_move
from handfoot.game.values import Effect, IllegalMoveError
from positions import play, position, snapshot

BOOKS = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2",
         "JK JK 2 2 2 2 2"]


def test_verify_gives_the_reason_apply_gives_and_changes_nothing() -> None:
    state = position("partnership-13", hands={0: "K K 9 9 9 5"}, stock_top="4C 5C")
    play(state, "draw")
    before = snapshot(state)
    for text, words in (("meld K K", "at least 3 cards"), ("meld 9 9 9", "opening"),
                        ("draw", "already drawn"), ("discard A", "hold no")):
        with pytest.raises(IllegalMoveError) as verified:
            state.verify(parse_move(text))
        assert words in str(verified.value)
        assert not state.is_legal(parse_move(text))
        assert state.check(parse_move(text)) == str(verified.value)
        with pytest.raises(IllegalMoveError) as applied:
            state.apply(parse_move(text))
        assert str(applied.value) == str(verified.value)
    assert snapshot(state) == before


def test_effect_of_a_meld_a_pickup_and_going_out() -> None:
    state = position("partnership-13", hands={0: "K K K 9 9 9 5 J J"}, melds={0: ["Q Q Q"]},
                     pile="4C 8S JD", stock_top="4C 5C")
    pickup = state.verify(parse_move("pickup J J"))
    assert pickup == Effect(mv.Pickup((MeldGroup(cards.JACK, 2),)), 0,
                            melds=(MeldGroup(cards.JACK, 3, new=True),), value=30,
                            taken=3)
    play(state, "draw")
    meld = state.verify(parse_move("meld K K K | 9 9 9"))
    assert meld.move == mv.Meld((MeldGroup(cards.KING, 3), MeldGroup(cards.NINE, 3)))
    assert meld.melds == (MeldGroup(cards.KING, 3, new=True), MeldGroup(cards.NINE, 3, new=True))
    assert (meld.value, meld.books, meld.opens, meld.goes_out) == (60, 0, False, False)
    assert state.verify(mv.Stage(cards.KING, cards.KING)) == Effect(None, 0)
    state.apply(mv.Stage(cards.KING, cards.KING))
    state.apply(mv.Stage(cards.KING, cards.KING))
    state.apply(mv.Stage(cards.KING, cards.KING))
    confirm = state.verify(mv.Confirm())
    assert confirm.move == mv.Meld((MeldGroup(cards.KING, 3),))

    out = position("partnership-13", hands={0: "9 9 9 8 8"}, in_foot=[0, 2], foot_played=[2],
                   foot_turn_done=[2], melds={0: BOOKS}, stock_top="8 K")
    play(out, "draw")
    asking = out.verify(parse_move("goout 9 9 9 | 8 8 8 discard K"))
    assert asking.asks and not asking.goes_out
    play(out, "goout 9 9 9 | 8 8 8 discard K")
    assert out.verify(parse_move("yes")).goes_out
    assert not out.verify(parse_move("no")).goes_out


def test_is_legal_words_no_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing's legality tests throw their reasons away: none is worded."""
    def no_wording(*args: object) -> str:
        raise AssertionError("a reason was worded")

    monkeypatch.setattr(checks, "_group_text", no_wording)
    monkeypatch.setattr(checks, "_target_plural", no_wording)
    state = position("partnership-13", hands={0: "K K 9 9 9 5"}, stock_top="4C 5C")
    play(state, "draw")
    assert not state.is_legal(parse_move("meld K K"))
    assert not state.is_legal(parse_move("meld 9 9 9"))
    with pytest.raises(AssertionError, match="worded"):
        state.check(parse_move("meld K K"))


@pytest.mark.parametrize("name", ["partnership-13", "hand-knee-foot", "remastered-singles"])
def test_listed_actions_are_legal_and_others_are_not(name: str) -> None:
    """Every listed action applies; is_legal agrees with apply for the player moves."""
    state = GameState.new(load_profile(name, overrides={"rounds": 1}), seed=4)
    rng = random.Random(4)
    steps = 0
    while not state.is_over and steps < 400:
        steps += 1
        for move in (mv.Draw(), mv.Undo(), mv.Knock(), mv.PickUpKnee(), mv.ClearStaged(),
                     mv.Answer(True), *(mv.Discard(k) for k in range(cards.RED_THREE))):
            trial = state.copy()
            try:
                trial.apply(move)
                applied = True
            except IllegalMoveError:
                applied = False
            assert state.is_legal(move) == applied, (move, state.check(move))
            assert (state.check(move) is None) == applied
        state.apply_action(rng.choice(state.legal_actions()))
