"""Engine edge cases found in review, each played through the engine."""

from __future__ import annotations

import random

import pytest

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.notation import PositionSyntaxError, parse_position, position_text
from handfoot.game.rules import Profile
from handfoot.game.values import TAKE_BACKS_PER_TURN, Phase
from positions import must_fail, position


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


# --- a pickup may not complete one's own meld, of any kind (issue 13, item 4a) -------------

def _singles_wild_books() -> Profile:
    return load_profile("remastered-singles", overrides={"singles_wild_books": True})


def test_a_wild_on_top_may_not_complete_an_all_wild_meld() -> None:
    """001:85 "The first card in the discard pile can be picked up as long as that card does
    not complete a book from an existing meld" (remastered-singles,
    pickup_existing_meld = "forbidden_if_completes"); with OPT-08 (001:244, wild books in
    singles) an all-wild meld of six is completed by a 2 or a joker just as a natural meld
    of six is by its rank."""
    p = _singles_wild_books()
    for top in ("2C", "JK"):
        state = position(p, hands={0: "5C 6D 9H"}, melds={0: ["2S 2H 2D JK JK 2C"]},
                         pile=f"8S {top}")
        assert mv.PICKUP not in state.legal_actions()
        must_fail(state, "pickup", "would complete your all-wild meld into a wild book")


def test_a_wild_on_top_of_a_shorter_all_wild_meld_may_be_taken() -> None:
    state = position(_singles_wild_books(), hands={0: "5C 6D 9H"},
                     melds={0: ["2S 2H 2D JK JK"]}, pile="8S JK")
    assert mv.PICKUP in state.legal_actions()
    state.apply(mv.parse_move("pickup"))
    assert state.phase == Phase.PLAY and len(state.pile) == 1


def test_a_pickup_may_not_complete_a_natural_meld_with_its_rank_or_a_wild() -> None:
    """The same rule for natural melds: a 9 on six 9s, or a wild that six 9s may hold
    (remastered-singles: wilds may not outnumber naturals, 001:36)."""
    for meld, top in (("9C 9D 9H 9S 9C 9D", "9H"), ("9C 9D 9H 9S 9C 2D", "JK")):
        state = position(_singles_wild_books(), hands={0: "5C 6D 7H"}, melds={0: [meld]},
                         pile=f"8S {top}")
        assert mv.PICKUP not in state.legal_actions()
        must_fail(state, "pickup", "would complete your book of 9s")
    # an 8 on top completes nothing of a side whose melds are 9s
    state = position(_singles_wild_books(), hands={0: "5C 6D 7H"},
                     melds={0: ["9C 9D 9H 9S 9C 9D"]}, pile="9S 8S")
    assert mv.PICKUP in state.legal_actions()


def test_complete_and_start_holds_for_an_all_wild_meld_too() -> None:
    """partnership-13 (000:31, resolved by A-10: a pickup onto a rank the side has an
    unfinished meld of must complete it and start a new one), checked for the all-wild meld
    as for a rank: two 2s with a 2 on top of four wilds complete it without starting a new
    meld, so the pickup is refused; with five wilds the top card completes it and three 2s
    start the next."""
    hand = {0: "2C 2H 2D 2S 5C 6D 9H 9S"}
    state = position("partnership-13", hands=hand, melds={0: ["2S 2H 2D JK"]}, pile="8S 2S")
    must_fail(state, "pickup 2 2", "unfinished all-wild meld (4 cards)",
              "complete it to 7 cards and start a new meld")
    state = position("partnership-13", hands=hand, melds={0: ["2S 2H 2D JK JK"]},
                     pile="8S 2S")
    state.apply(mv.parse_move("pickup 2 | new 2 2 2"))
    assert [(m.target, m.size) for m in state.melds[0]] == [(mv.WILD_MELD, 7), (mv.WILD_MELD, 3)]


# --- a red 3 taken with the pile is laid and replaced at once (issue 27, item 1) -----------

@pytest.mark.parametrize("profile", ["hand-knee-foot", "remastered-teams"])
def test_a_red_three_picked_up_with_the_pile_is_laid_and_replaced_at_once(profile: str) -> None:
    # 3H lies among the cards the pickup takes (remastered-teams takes the top three)
    state = position(profile, hands={0: "KH KD 9S 9C 8S 6C 5S"}, melds={0: ["QS QH QD"]},
                     pile="4C 3H 5C KS", stock_top="7C 7D")
    red = cards.parse_face("3H")
    stock_before = len(state.stock)
    state.apply(mv.parse_move("pickup K K"))
    assert state.held[0][cards.RED_THREE] == 0
    assert state.red_threes[0] == [red]
    assert len(state.stock) == stock_before - 1  # replaced from the stock
    assert state.held_faces[0][cards.parse_face("7C")] == 1  # the replacement card
    assert state.phase == Phase.PLAY


def test_a_red_three_picked_up_with_the_pile_scores_as_laid_not_caught() -> None:
    # one stock card replaces the red 3; the next seat's draw finds the stock empty
    state = position("remastered-teams", hands={0: "KH KD 9S 9C 8S 6C 5S"},
                     melds={0: ["QS QH QD"]}, pile="4C 3H 5C KS", stock_size=1)
    state.apply(mv.parse_move("pickup K K"))
    state.apply(mv.parse_move("discard 6"))
    state.apply(mv.parse_move("draw"))
    result = state.results[0]
    assert result.reason == "stock exhausted"
    lines = {line.key: line for line in result.scores[0].lines}
    assert (lines["red_threes"].count, lines["red_threes"].points) == (1, 100)
    assert lines["red_threes_caught"].count == 0


# --- a second meld of a rank laid in the same move as its first (issue 27, item 1) ---------

def _second_book(name: str = "remastered-teams") -> Profile:
    """Books grow past 7 with naturals, or a second meld of the rank starts beside them."""
    return load_profile(name, overrides={"second_book": True})


def test_a_second_meld_of_a_rank_may_be_laid_in_the_same_opening() -> None:
    state = position(_second_book(), phase=Phase.PLAY,
                     hands={0: "KS KS KH KH KD KD KC KC KH KD 9C 9D 5S 6S"}, opened=())
    state.apply(mv.parse_move("meld K K K K K K K | new K K K"))
    assert [(m.target, m.size) for m in state.melds[0]] == [(cards.KING, 7), (cards.KING, 3)]
    assert state.opened[0]


def test_a_second_meld_of_a_rank_may_be_laid_in_the_same_meld_as_its_book() -> None:
    state = position(_second_book(), phase=Phase.PLAY,
                     hands={0: "KS KS KH KH KD KD KC KC KH KD 9C 9D 5S 6S"},
                     melds={0: ["QS QH QD"]})
    state.apply(mv.parse_move("meld K K K K K K K | new K K K"))
    assert [m.size for m in state.melds[0] if m.target == cards.KING] == [7, 3]


def test_a_second_meld_in_the_same_move_still_needs_its_first_to_be_a_book() -> None:
    state = position(_second_book(), phase=Phase.PLAY,
                     hands={0: "KS KS KH KH KD KD KC KC KH 9C 9D 5S 6S"},
                     melds={0: ["QS QH QD"]})
    must_fail(state, "meld K K K K K K | new K K K", "unfinished")


def test_without_the_option_a_second_meld_in_the_same_move_is_refused() -> None:
    p = load_profile("remastered-teams", overrides={"book_max": "none"})
    state = position(p, phase=Phase.PLAY,
                     hands={0: "KS KS KH KH KD KD KC KC KH KD 9C 9D 5S 6S"},
                     melds={0: ["QS QH QD"]})
    must_fail(state, "meld K K K K K K K | new K K K", "second meld of a rank is not allowed")


def test_a_second_meld_is_listed_for_staging_once_the_staged_cards_make_the_first_a_book(
        ) -> None:
    state = position(_second_book(), phase=Phase.PLAY,
                     hands={0: "KS KS KH KH KD KD KC KC KH KD 9C 9D 5S 6S"}, opened=())
    stage0, stage1 = (mv.encode_stage(cards.KING, cards.KING, s) for s in (0, 1))
    for _ in range(6):
        assert stage1 not in state.legal_actions()
        must_fail(state, mv.Stage(cards.KING, cards.KING, 1), "could never")
        state.apply_action(stage0)
    state.apply_action(stage0)  # the seventh king: a book
    for _ in range(3):
        assert stage1 in state.legal_actions()
        state.apply_action(stage1)
    assert mv.CONFIRM in state.legal_actions()
    state.apply_action(mv.CONFIRM)
    assert [m.size for m in state.melds[0]] == [7, 3]


def test_at_a_pickup_the_top_card_counts_toward_the_book_a_second_meld_needs() -> None:
    state = position(_second_book(), hands={0: "KS KS KH KH KD KD KC KC KH 9C 9D 5S 6S"},
                     pile="5C 6C KD")
    stage0, stage1 = (mv.encode_stage(cards.KING, cards.KING, s) for s in (0, 1))
    for _ in range(6):
        assert stage1 not in state.legal_actions()
        state.apply_action(stage0)
    assert stage1 in state.legal_actions()  # six staged and the top king: a book
    for _ in range(3):
        state.apply_action(stage1)
    assert mv.PICKUP in state.legal_actions()
    state.apply_action(mv.PICKUP)
    assert [m.size for m in state.melds[0]] == [7, 3]


# --- hand-knee-foot: the Knee comes only once the side has a book (issue 27, item 1) ------

def test_in_the_foot_a_meld_without_a_book_keeps_cards_while_the_knee_waits() -> None:
    # the Knee is still to come but the side has no book: an empty hand would bring
    # nothing, so a meld keeps a card to discard and one to hold
    state = position("hand-knee-foot", phase=Phase.PLAY, hands={0: "KS KH KD 5C"},
                     in_foot=[0], melds={0: ["QS QH QD"]})
    must_fail(state, "meld K K K", "keep at least 2 cards")


def test_in_the_foot_a_meld_that_makes_a_book_may_leave_one_card_for_the_knee() -> None:
    state = position("hand-knee-foot", phase=Phase.PLAY,
                     hands={0: "KS KS KH KH KD KD KC 5C"}, in_foot=[0],
                     melds={0: ["QS QH QD"]})
    state.apply(mv.parse_move("meld K K K K K K K"))
    assert state.held_n[0] == 1 and state.knees[0]  # the book opens the Knee
    state.apply(mv.PickUpKnee())
    assert state.held_n[0] == 1 + 13


def test_emptying_the_hand_without_a_book_brings_the_foot_not_the_knee() -> None:
    state = position("hand-knee-foot", phase=Phase.PLAY, hands={0: "KS KH KD"},
                     melds={0: ["QS QH QD"]})
    knee = sorted(state.knees[0])
    foot = sorted(state.feet[0])
    state.apply(mv.parse_move("meld K K K"))
    assert sorted(state.knees[0]) == knee and state.feet[0] == []
    assert sorted(state.hand(0)) == foot


def test_the_forecast_of_emptying_the_hand_without_a_book_looks_at_the_foot() -> None:
    # the Foot holds a red 3 and the stock is empty: picking it up ends the round (the
    # Knee, which holds none, does not come without a book)
    state = position("hand-knee-foot", phase=Phase.PLAY, hands={0: "KS KH KD"},
                     feet={0: "3H 4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S"},
                     melds={0: ["QS QH QD"]}, stock_size=0)
    assert cards.RED_THREE not in [cards.kind_of(f) for f in state.knees[0]]
    effect = state.verify(mv.parse_move("meld K K K"))
    assert effect.ends_round
    state.apply(effect)
    assert state.results[-1].reason == "red 3 not replaced"


# --- the staging listing is what the staging check allows (issue 27, item 1) ---------------

STAGING = range(mv.STAGE_NATURAL, mv.KNEE)


@pytest.mark.parametrize(("name", "overrides"), [
    ("partnership-13", {}), ("remastered-teams", {"second_book": True}),
    ("hand-knee-foot", {}), ("remastered-singles", {"second_book": True}),
    ("biegames", {})])
def test_the_staging_listed_is_the_staging_the_check_allows(
        name: str, overrides: dict[str, object]) -> None:
    """At every draw (a pickup's staging, with the pile's top card joining its target)
    and play of random games, a staging action is listed exactly when checking it finds
    nothing wrong."""
    profile = load_profile(name, overrides={"rounds": 1, **overrides})
    rng = random.Random(5)
    compared = 0
    for seed in range(3):
        state = GameState.new(profile, seed=seed)
        for _ in range(3000):
            if state.is_over:
                break
            legal = state.legal_actions()
            if state.phase in (Phase.DRAW, Phase.PLAY):
                listed = {a for a in legal if a in STAGING}
                allowed = {a for a in STAGING if state.check(mv.decode_action(a)) is None}
                assert listed == allowed, (state.phase, state.staged_groups())
                compared += 1
            stages = [a for a in legal if a in STAGING]
            # stage often, so that melds (and pickups) are staged card by card
            action = rng.choice(stages if stages and rng.random() < 0.6 else legal)
            state.apply_action(action)
    assert compared > 200


# --- a turn takes back at most TAKE_BACKS_PER_TURN times (issue 27, item 5) ---------------

def _meld_and_undo_position() -> GameState:
    return position("partnership-13", phase=Phase.PLAY, hands={0: "KS KH KD 5C 6C 7C"},
                    melds={0: ["QS QH QD"]})


def test_a_turn_cannot_meld_and_undo_forever() -> None:
    state = _meld_and_undo_position()
    for i in range(TAKE_BACKS_PER_TURN):
        state.apply(mv.parse_move("meld K K K"))
        assert mv.UNDO in state.legal_actions()
        state.apply(mv.Undo())
        assert state.take_backs == i + 1
    state.apply(mv.parse_move("meld K K K"))
    assert mv.UNDO not in state.legal_actions()
    must_fail(state, mv.Undo(), f"taken back {TAKE_BACKS_PER_TURN} times this turn")
    state.apply(mv.parse_move("discard 5"))  # the turn goes on, and ends
    assert state.seat == 1 and state.take_backs == 0  # the next turn may take back again


def test_clearing_staged_cards_counts_as_a_take_back() -> None:
    state = _meld_and_undo_position()
    stage = mv.encode_stage(cards.KING, cards.KING, 0)
    for _ in range(TAKE_BACKS_PER_TURN // 2):
        state.apply(mv.parse_move("meld K K K"))
        state.apply(mv.Undo())
        state.apply_action(stage)
        state.apply_action(mv.CLEAR)
    assert state.take_backs == TAKE_BACKS_PER_TURN
    state.apply_action(stage)
    assert mv.CLEAR not in state.legal_actions()
    must_fail(state, mv.ClearStaged(), "the most a turn allows")
    assert mv.CONFIRM not in state.legal_actions()  # one king: no meld
    state.apply_action(stage)
    state.apply_action(stage)
    state.apply_action(mv.CONFIRM)  # the staged kings are melded
    assert [m.target for m in state.melds[0]] == [cards.QUEEN, cards.KING]


def test_the_take_backs_of_a_turn_are_in_copies_positions_and_their_text() -> None:
    state = _meld_and_undo_position()
    for _ in range(3):
        state.apply(mv.parse_move("meld K K K"))
        state.apply(mv.Undo())
    assert state.copy().take_backs == 3
    assert GameState.from_position(state.position()).take_backs == 3
    text = position_text(state.position())
    assert "take backs: 3" in text
    assert parse_position(text).take_backs == 3
    with pytest.raises(PositionSyntaxError, match="take backs"):
        parse_position(text.replace("take backs: 3", f"take backs: {TAKE_BACKS_PER_TURN + 1}"))
