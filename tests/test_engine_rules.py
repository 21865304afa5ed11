"""Engine edge cases found in review, each played through the engine."""

from __future__ import annotations

from handfoot import cards
from handfoot import moves as mv
from handfoot.engine import Phase
from positions import position


def test_two_red_threes_drawn_with_no_replacement_are_both_laid() -> None:
    state = position("partnership-13", stock_top="3H 3D", stock_size=2)
    shoe = sorted(cards.build_shoe(5, 2))
    state.apply(mv.parse_move("draw"))
    result = state.results[0]
    assert result.reason == "red 3 not replaced"
    reds = {line.key: line for line in result.scores[0].lines}["red_threes"]
    assert (reds.count, reds.points) == (2, 200)
    assert state.round_number == 2
    assert sorted(state.all_faces()) == shoe


def test_action_layer_top_card_alone_completes_a_six_card_meld() -> None:
    state = position("partnership-13", hands={0: "KH KH KH 9S"},
                     melds={0: ["KC KC KC KD KD KD"]}, pile="5C 6C 7C 8C 9D TD KS")
    for _ in range(3):
        action = mv.encode_stage(cards.KING, cards.KING, 1)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert mv.PICKUP in state.legal_actions()
    committed = state.apply_action(mv.PICKUP)
    assert mv.format_move(committed) == "pickup K: | new K K K"  # type: ignore[arg-type]
    assert [(m.target, m.size) for m in state.melds[0]] == [(cards.KING, 7), (cards.KING, 3)]
    assert state.phase == Phase.PLAY


def test_undo_restores_the_hand_on_a_copy_without_touching_the_original() -> None:
    state = position("partnership-13", phase=Phase.PLAY,
                     hands={0: "KS KD KH QS QD QH 5C 6C 7C 8C 9C TC JC"},
                     melds={0: ["AS AD AH"]})
    before = sorted(state.hand(0))
    state.apply(mv.parse_move("meld K K K"))
    copy = state.copy()
    copy.apply(mv.Undo())
    copy.apply(mv.parse_move("discard 5"))
    state.apply(mv.Undo())
    assert sorted(state.hand(0)) == before


def test_a_bare_3_is_read_as_a_black_three() -> None:
    """Red 3s are never held, so a player typing `discard 3` means a black 3."""
    assert mv.parse_move("discard 3") == mv.Discard(cards.BLACK_THREE)
    assert mv.parse_move("discard B3") == mv.Discard(cards.BLACK_THREE)
