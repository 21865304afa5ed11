"""Positions as values: a state gives its ``Position`` and is made from one, and no
module outside the engine reaches into a state's private fields."""

from __future__ import annotations

import ast
import random
from dataclasses import replace
from pathlib import Path

import pytest

from handfoot import cards
from handfoot import moves as mv
from handfoot.bots import HardBot
from handfoot.engine import GameState, History, Phase, Position
from handfoot.rules import builtin_profile_names, load_profile
from positions import play, position

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", builtin_profile_names())
def test_a_state_and_its_position_make_each_other(name: str) -> None:
    profile = load_profile(name, overrides={"rounds": 2})
    state = GameState.new(profile, seed=8)
    bots = [HardBot(s) for s in range(state.players)]
    rng = random.Random(8)
    while not state.is_over:
        pos = state.position()
        again = GameState.from_position(pos)
        assert again == state and again.position() == pos
        assert again.events() == state.events() and again.history == state.history
        # the copy plays on exactly as the original
        if rng.random() < 0.1:
            action = bots[state.to_act].choose(state.view(state.to_act))
            assert again.apply_action(action) == state.apply_action(action)
            assert again == state
            assert again.events(again.moves_played - 1) == state.events(state.moves_played - 1)
        else:
            state.apply_action(bots[state.to_act].choose(state.view(state.to_act)))
    assert GameState.from_position(state.position()) == state


def test_a_made_up_position_plays() -> None:
    p = load_profile("partnership-13")
    pos = GameState.new(p, seed=1).position()
    hands = list(pos.hands)
    stock = list(pos.stock)
    # swap seat 0's hand for the top of the stock: still every card of the shoe
    hands[0], stock[:13] = tuple(stock[:13]), list(hands[0])
    made = GameState.from_position(replace(pos, hands=tuple(hands), stock=tuple(stock)))
    assert made.hand(0) == sorted(pos.stock[:13]) and made.phase == Phase.DRAW
    assert sorted(made.all_faces()) == sorted(GameState.new(p, seed=1).all_faces())
    made.apply(mv.Draw())
    assert made.moves_played == 1
    with pytest.raises(ValueError, match="seats"):
        GameState.from_position(replace(pos, hands=pos.hands[:3]))


def test_equality_and_repr() -> None:
    state = position("partnership-13", hands={0: "K K K 9"}, stock_top="4C 5C")
    twin = state.copy()
    assert twin == state and twin is not state
    play(twin, "draw")
    assert twin != state
    assert "round 1" in repr(state) and "seat 1 to act" in repr(state)
    assert state.history == History() == ()
    assert isinstance(state.position(), Position)
    assert cards.face_name(state.position().stock[0]) == "4C"  # the stock, top first


def _private_names() -> set[str]:
    """The private attributes and methods of GameState."""
    names = {n for n in GameState.__slots__ if n.startswith("_")}
    names |= {n for n in vars(GameState) if n.startswith("_") and not n.startswith("__")}
    return names


def test_no_module_outside_the_engine_touches_a_private_field_of_a_state() -> None:
    private = _private_names()
    assert "_refused" in private and "_plan" in private
    offences = []
    for path in sorted([*ROOT.glob("src/handfoot/**/*.py"), *ROOT.glob("tests/**/*.py")]):
        if path.name == "engine.py" and path.parent.name == "handfoot":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr in private
                    and not (isinstance(node.value, ast.Name) and node.value.id == "self")):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
    assert not offences, "private GameState fields used outside the engine:\n" + "\n".join(
        offences)
