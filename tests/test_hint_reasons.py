"""The coach's reasons (a hint's ``reason``) say why a meld pays, not the move again
("meld 5 — meld your 5s" was the reason of every meld)."""

from __future__ import annotations

from handfoot.game import moves as mv
from handfoot.game.values import Phase
from handfoot.runs.sim import hint_reason
from positions import position


def test_a_meld_that_completes_a_book_says_so() -> None:
    state = position("biegames", hands={0: "K K 9 4 5"}, melds={0: ["K K K K K"]},
                     phase=Phase.PLAY)
    reason = hint_reason(state, mv.parse_move("meld K: K K"))
    assert reason == "it completes a book of kings", reason


def test_a_meld_toward_a_book_says_how_far() -> None:
    state = position("biegames", hands={0: "K 9 4 5 6"}, melds={0: ["K K K"]},
                     phase=Phase.PLAY)
    reason = hint_reason(state, mv.parse_move("meld K: K"))
    assert reason == "your kings reach 4 of 7, closer to a book", reason


def test_an_opening_says_what_it_is_worth_against_the_minimum() -> None:
    state = position("biegames", hands={0: "K K K 9 9 9 4"}, phase=Phase.PLAY)
    reason = hint_reason(state, mv.parse_move("meld K K K | 9 9 9"))
    need = state.opening_minimum_of(0)
    assert reason.startswith(f"60 points open your side, which needs {need:,}"), reason
    assert "meld your" not in reason


def test_a_new_meld_after_the_opening_says_why_it_pays() -> None:
    state = position("biegames", hands={0: "9 9 9 4 5"}, melds={0: ["K K K"]},
                     phase=Phase.PLAY)
    reason = hint_reason(state, mv.parse_move("meld 9 9 9"))
    assert "meld your" not in reason and "score instead of counting against you" in reason


def test_no_reason_says_the_move_again() -> None:
    state = position("biegames", hands={0: "K 9 4 5 3S"}, melds={0: ["K K K"]},
                     phase=Phase.PLAY, pile="8D")
    for move, verb in (("discard 9", "discard"), ("discard B3", "discard")):
        reason = hint_reason(state, mv.parse_move(move))
        assert not reason.startswith(verb), reason
    drawing = position("biegames", hands={0: "K 9 4 5"}, pile="8D")
    assert not hint_reason(drawing, mv.parse_move("draw")).startswith("draw")


def test_a_draw_says_why_the_pile_cannot_be_taken() -> None:
    # one natural 8 in hand, where taking the pile needs a pair: not "does not pay"
    lone = position("partnership-13", hands={0: "8 9 4 5 K"}, pile="8D")
    reason = hint_reason(lone, mv.parse_move("draw"))
    assert reason == "taking the pile (8♦ on top) needs two natural 8s in your hand", reason
    blocked = position("partnership-13", hands={0: "3S 3C 9 4 5"}, pile="3S")
    reason = hint_reason(blocked, mv.parse_move("draw"))
    assert reason.endswith("cannot be taken: a black 3 on top of the pile blocks it"), reason


def test_a_draw_with_a_pair_for_the_pile_says_taking_it_does_not_pay() -> None:
    pair = position("partnership-13", hands={0: "8 8 9 4 5"}, pile="8D")
    reason = hint_reason(pair, mv.parse_move("draw"))
    assert reason == "taking the pile (8♦ on top) does not pay now", reason
