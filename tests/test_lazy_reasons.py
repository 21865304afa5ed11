"""The engine words a reason only when a player asks why: a legality test (the listing,
``is_legal``) never builds a sentence it would throw away."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from handfoot.game import engine
from handfoot.game.engine import GameState, IllegalMoveError
from handfoot.game.loading import load_profile

ENGINE = Path(engine.__file__)


def test_no_reason_is_formatted_before_it_is_raised() -> None:
    """Every ``IllegalMoveError(...)`` in the engine gets a constant, a function that words
    it (a lambda, a partial) or a reason already made (a name): never an f-string, a
    ``format`` or a concatenation built on the spot."""

    def built(arg: ast.expr) -> bool:
        if isinstance(arg, ast.IfExp):  # one of two reasons
            return built(arg.body) or built(arg.orelse)
        return isinstance(arg, ast.JoinedStr | ast.BinOp) or (
            isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute)
            and arg.func.attr == "format")

    tree = ast.parse(ENGINE.read_text(encoding="utf-8"))
    eager = [f"line {node.lineno}" for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
             and node.func.id == "IllegalMoveError" and node.args and built(node.args[0])]
    assert not eager, "reasons built before they are raised: " + ", ".join(eager)


def test_the_listing_words_no_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    worded = []
    original = IllegalMoveError.__str__

    def counting(self: IllegalMoveError) -> str:
        worded.append(self)
        return original(self)

    monkeypatch.setattr(IllegalMoveError, "__str__", counting)
    listings = 0
    for name in ("partnership-13", "hand-knee-foot", "remastered-teams"):
        state = GameState.new(load_profile(name), seed=5)
        rng = random.Random(5)
        while not state.is_over and listings < 3000:
            actions = state.legal_actions()
            listings += 1
            state.apply_listed(actions[rng.randrange(len(actions))])
    assert listings >= 3000
    assert not worded
    # and a reason is still there when asked for
    state = GameState.new(load_profile("partnership-13"), seed=5)
    assert state.check(engine.mv.Discard(0)) is not None
    assert worded
