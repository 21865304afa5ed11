"""The engine words a reason only when a player asks why: a legality test (the listing,
``is_legal``) never builds a sentence it would throw away."""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

import pytest

from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.values import IllegalMoveError

ENGINE = sorted({Path(sys.modules[cls.__module__].__file__ or "").with_suffix(".py")
                 for cls in GameState.__mro__ if cls.__module__.startswith("handfoot.")})
"""The modules GameState is built from (each raises reasons)."""


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

    assert len(ENGINE) >= 4, ENGINE
    eager = [f"{path.name} line {node.lineno}" for path in ENGINE
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
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
    assert state.check(mv.Discard(0)) is not None
    assert worded
