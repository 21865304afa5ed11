"""Positions as values: a state gives its ``Position`` and is made from one, and no
module outside the engine reaches into a state's private fields."""

from __future__ import annotations

import ast
import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from handfoot.bots.heuristic import HardBot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.state import State
from handfoot.game.values import History, Phase, Position
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


ENGINE_SOURCES = {Path(sys.modules[cls.__module__].__file__ or "").with_suffix(".py").resolve()
                  for cls in GameState.__mro__ if cls.__module__.startswith("handfoot.")}
"""The modules that define GameState and the classes it is built on: they may."""


def _private_names() -> set[str]:
    """The private attributes and methods of GameState."""
    names = {n for n in State.__slots__ if n.startswith("_")}
    names |= {n for cls in GameState.__mro__ for n in vars(cls)
              if n.startswith("_") and not n.startswith("__")}
    return names


def test_no_module_outside_the_engine_touches_a_private_field_of_a_state() -> None:
    private = _private_names()
    assert "_refused" in private and "_plan" in private
    offences = []
    for path in sorted([*ROOT.glob("src/handfoot/**/*.py"), *ROOT.glob("tests/**/*.py")]):
        if path.resolve() in ENGINE_SOURCES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr in private
                    and not (isinstance(node.value, ast.Name) and node.value.id == "self")):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
    assert not offences, "private GameState fields used outside the engine:\n" + "\n".join(
        offences)


# --- one list of fields: State.__slots__, made from state._STATE_FIELDS -------------


def _states() -> list[GameState]:
    """States of every profile in the middle of play: melds, staged cards, an undo stack,
    a finished round, a go-out asked."""
    out = []
    for name in builtin_profile_names():
        state = GameState.new(load_profile(name, overrides={"rounds": 2}), seed=4)
        bots = [HardBot(s) for s in range(state.players)]
        rng = random.Random(4)
        for step in range(3000):
            if state.is_over:
                break
            if step % 150 == 0 or state.staged or state.undo_stack or state.phase == Phase.ANSWER:
                out.append(state.copy())
            if rng.random() < 0.2:
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(bots[state.to_act].choose(state.view(state.to_act)))
        out.append(state)
    books = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2",
             "JK JK 2 2 2 2 2"]
    asking = position("partnership-13", hands={0: "9 9 9 8 8"}, in_foot=[0, 2],
                      foot_played=[2], foot_turn_done=[2], melds={0: books}, stock_top="8 K")
    out.append(play(asking, "draw", "goout 9 9 9 | 8 8 8 discard K"))
    out.append(play(asking.copy(), "no"))
    return out


_KEPT_BY_CONTENT = {"_side_tables", "_flags_kept"}
"""Caches that a listing or a view fills and a copy starts without (each is worked out
again from the fields it depends on: tests/test_side_tables.py)."""


def _same_fields(a: GameState, b: GameState) -> list[str]:
    return [name for name in State.__slots__
            if name not in _KEPT_BY_CONTENT and getattr(a, name) != getattr(b, name)]


def test_every_field_is_declared_once() -> None:
    annotated = {name for name in State.__annotations__ if not name.startswith("__")}
    assert annotated == set(State.__slots__)
    assert len(State.__slots__) == len(set(State.__slots__))


def test_every_field_is_copied_and_goes_through_a_position() -> None:
    """A field missing from copy, position or from_position fails here: every slot of a
    copy and of from_position(state.position()) is compared with the state's, and a copy
    shares no list or dict with the state (nor the lists inside them)."""
    states = _states()
    assert any(s.staged for s in states) and any(s.undo_stack for s in states)
    assert any(s.phase == Phase.ANSWER for s in states) and any(s.results for s in states)
    assert any(s.position().refused for s in states)
    for state in states:
        for made in (state.copy(), GameState.from_position(state.position())):
            for name in State.__slots__:
                getattr(made, name)  # set (a slot never set raises AttributeError)
            assert not _same_fields(made, state)
        copy = state.copy()
        for name in State.__slots__:
            value, copied = getattr(state, name), getattr(copy, name)
            if name in _KEPT_BY_CONTENT:
                assert copied is None, name  # (not shared: the copy keeps none)
            elif isinstance(value, (list, dict)):
                assert copied is not value, name
                inner = value.values() if isinstance(value, dict) else value
                inner_copied = copied.values() if isinstance(copied, dict) else copied
                for x, y in zip(inner, inner_copied, strict=True):
                    assert not isinstance(x, list) or x is not y, name


def test_a_new_game_sets_every_field() -> None:
    for name in builtin_profile_names():
        state = GameState.new(load_profile(name), seed=1)
        for field_name in State.__slots__:
            getattr(state, field_name)
