"""The edges of game/moves.py that the engine's tests pass by: the action ids' bounds and
names, the meld groups' defaults and sizes, the fast constructors, and the notation's
corners (a rank named alone, "new" alone, text after a simple verb, a go-out's discard)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass

import pytest

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import JOKER, TWO


def test_the_action_ids_run_from_0_to_num_actions_minus_1() -> None:
    assert mv.decode_action(0) == mv.Draw()  # the first id is a move, not an error
    assert mv.decode_action(mv.NUM_ACTIONS - 1) == mv.PickUpKnee()
    for bad in (-1, mv.NUM_ACTIONS):
        with pytest.raises(ValueError, match=rf"action {bad} is outside 0\.\.107"):
            mv.decode_action(bad)


def test_staged_cards_encode_and_decode_to_the_same_stage() -> None:
    seen = set()
    for kind in [*cards.RANKS, TWO, JOKER]:
        targets = [kind] if kind in cards.RANKS else range(mv.NUM_TARGETS)
        for target in targets:
            for slot in (0, 1):
                action = mv.encode_stage(kind, target, slot)
                assert mv.decode_action(action) == mv.Stage(kind, target, slot)
                seen.add(action)
    # every stage id, each once: 11 ranks x 2 slots, 2 wilds x 12 targets x 2 slots
    assert seen == set(range(mv.STAGE_NATURAL, mv.KNEE))


def test_each_action_has_its_own_name() -> None:
    ace = mv.encode_stage(cards.ACE, cards.ACE, 0)
    assert mv.action_name(ace) == "stage A for aces"
    assert mv.action_name(ace + 1) == "stage A for aces (second meld)"
    joker = mv.encode_stage(JOKER, mv.WILD_MELD, 0)
    assert mv.action_name(joker) == "stage joker for all-wild meld"
    assert mv.action_name(mv.PICKUP) == "pickup with staged cards"
    assert mv.action_name(mv.CONFIRM) == "meld staged cards"
    assert mv.action_name(mv.CLEAR) == "clear staged cards"
    assert mv.action_name(mv.GO_OUT) == "go out with staged cards"
    assert mv.action_name(mv.GO_OUT_DISCARD + cards.FIVE) == \
        "go out with staged cards, discarding 5"
    assert mv.action_name(mv.DRAW) == "draw"
    assert mv.action_name(mv.DISCARD + cards.KING) == "discard K"
    names = [mv.action_name(a) for a in range(mv.NUM_ACTIONS)]
    assert len(set(names)) == mv.NUM_ACTIONS


def test_a_meld_group_is_not_new_unless_said_and_counts_each_kind() -> None:
    group = mv.MeldGroup(cards.KING, 3, 2, 1)
    assert group.new is False and mv.format_group(group) == "K K K 2 2 JK"
    assert group.size == 6 and group.wilds == 3
    assert mv.MeldGroup(cards.KING, 1, 0, 4).size == 5
    assert mv.MeldGroup(cards.KING, 4, 1, 0).size == 5
    assert group.kind_counts() == [(cards.KING, 3), (TWO, 2), (JOKER, 1)]


@dataclass(frozen=True, slots=True)
class _Plain:
    a: int
    b: str


@dataclass(frozen=True, slots=True)
class _Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


def test_a_fast_constructor_sets_the_slots_and_keeps_a_post_init() -> None:
    new = mv.fast_constructor(_Plain)
    assert new is not _Plain  # its own function, not the class's __init__
    made = new(1, "x")
    assert type(made) is _Plain and made == _Plain(1, "x")
    # a class that checks its fields keeps its own constructor (and its check)
    assert mv.fast_constructor(_Checked) is _Checked


def test_what_a_fast_constructor_makes_is_the_frozen_class_itself() -> None:
    """It is made as a twin class's object (plain slots) and then made the class: what
    comes out is frozen, equal, hashed, pickled and copied as the class's own."""
    made = mv.fast_constructor(_Plain)(1, "x")
    assert type(made) is _Plain and made.__class__ is _Plain
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.a = 2  # type: ignore[misc]
    assert hash(made) == hash(_Plain(1, "x"))
    assert pickle.loads(pickle.dumps(made)) == made
    assert copy.deepcopy(made) == made and repr(made) == "_Plain(a=1, b='x')"


def test_the_notation_s_corners() -> None:
    # a rank named alone: at a pickup, the top card only
    assert mv.parse_group("K:") == mv.MeldGroup(cards.KING)
    assert mv.parse_group("new K:") == mv.MeldGroup(cards.KING, new=True)
    assert mv.parse_group("K: 2 JK") == mv.MeldGroup(cards.KING, 0, 1, 1)
    assert mv.parse_group("9 9 2") == mv.MeldGroup(cards.NINE, 2, 1, 0)
    assert mv.parse_group("2 JK") == mv.MeldGroup(mv.WILD_MELD, 0, 1, 1)
    for bad, reason in [("", "an empty meld group"), ("new", "'new' needs the cards"),
                        ("2: JK", "name a meld by its rank"), ("K: Q", "mixes kings and queens"),
                        ("K K Q", "mixes kings and queens"), ("B3", "threes can never"),
                        ("X:", "X"), ("K ZZ", "ZZ")]:
        with pytest.raises(mv.MoveSyntaxError, match=reason):
            mv.parse_group(bad)
    assert mv.parse_move("  Draw  ") == mv.Draw()
    with pytest.raises(mv.MoveSyntaxError, match="'draw' takes nothing after it"):
        mv.parse_move("draw 5")
    with pytest.raises(mv.MoveSyntaxError, match="an empty move"):
        mv.parse_move("   ")
    with pytest.raises(mv.MoveSyntaxError, match="'meld' needs cards"):
        mv.parse_move("meld  ")
    assert mv.parse_move("pickup") == mv.Pickup(())
    assert mv.parse_move("meld K K K | 9 9 2") == mv.Meld(
        (mv.MeldGroup(cards.KING, 3), mv.MeldGroup(cards.NINE, 2, 1)))
    go = mv.parse_move("goout 9 9 2 discard 5")
    assert go == mv.GoOut((mv.MeldGroup(cards.NINE, 2, 1),), cards.FIVE)
    assert mv.format_move(go) == "goout 9 9 2 discard 5"
    assert mv.format_move(mv.GoOut((mv.MeldGroup(cards.NINE, 3),))) == "goout 9 9 9"
    assert mv.parse_move("go-out 9 9 9") == mv.GoOut((mv.MeldGroup(cards.NINE, 3),), None)
    # the two-word spellings a person types are the same moves
    assert mv.parse_move("Go Out 9 9 9 discard 5") == mv.GoOut(
        (mv.MeldGroup(cards.NINE, 3),), cards.FIVE)
    assert mv.parse_move("go out") == mv.GoOut((), None)
    assert mv.parse_move("pick up K K") == mv.Pickup((mv.MeldGroup(cards.KING, 2),))
    with pytest.raises(mv.MoveSyntaxError, match="unknown move 'go'"):
        mv.parse_move("go home")
    with pytest.raises(mv.MoveSyntaxError, match="exactly one card after it"):
        mv.parse_move("goout 9 9 9 discard")
    with pytest.raises(mv.MoveSyntaxError, match="unknown move 'fold'"):
        mv.parse_move("fold now")
    for text in ["draw", "pickup K K", "meld new K K K", "meld K: 2", "discard JK", "yes",
                 "no", "undo", "knock", "knee"]:
        assert mv.format_move(mv.parse_move(text)) == text
