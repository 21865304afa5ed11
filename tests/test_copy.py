"""``GameState.copy()`` as a property: a copy equals its original in every field and stays
independent of it, whatever is then played on either, in every phase of every built-in
profile. The fields come from ``state._STATE_FIELDS`` (the list ``__slots__`` and ``copy``
are made from), so a field added there is covered here without a change."""

from __future__ import annotations

import copy as deep
import functools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot.bots.heuristic import HardBot
from handfoot.game import moves as mv
from handfoot.game import state
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.state import State
from handfoot.game.values import Phase
from positions import play, position

FIELDS = tuple(name for name, _ in state._STATE_FIELDS)
COPIED = tuple(name for name, how in state._STATE_FIELDS
               if how not in (state._SHARED, state._FRESH))
"""The fields a copy holds its own containers for (the others are immutable or shared)."""
FRESH = tuple(name for name, how in state._STATE_FIELDS if how == state._FRESH)
"""The fields a copy does not take (a move's scratch, a cache): None in a copy."""
COMPARED = tuple(name for name in FIELDS if name not in FRESH)


def _asking(name: str) -> GameState | None:
    """A state of the profile in which a seat has asked its partner "May I go out?", or
    None where the profile never asks (no partners, or no permission rule)."""
    p = load_profile(name, overrides={"rounds": 2})
    if not p.permission or p.layout.players == p.layout.sides:
        return None
    books = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 6 6", "7 7 7 7 7 7 7",
             "8 8 8 8 8 2 2", "T T T T T 2 2", "J J J J J 2 2"]
    if p.all_wild_melds:
        books.append("JK JK 2 2 2 2 2")
    partners = [s for s in range(1, p.layout.players) if p.layout.side_of(s) == 0]
    for hand, move in (("9 9 9 Q K", "goout 9 9 9 | Q Q Q discard K"),
                       ("9 9 9 Q", "goout 9 9 9 | Q Q Q")):
        state = position(p, hands={0: hand}, in_foot=[0, *partners], foot_played=partners,
                         foot_turn_done=partners, knee_picked=range(p.layout.players),
                         melds={0: books}, stock_top="Q Q")
        play(state, "draw")
        if state.check(mv.parse_move(move)) is None:
            return play(state, move)
    raise AssertionError(f"{name}: no go-out to ask about")


@functools.cache
def _states(name: str) -> dict[Phase, list[GameState]]:
    """States of a two-round game of the profile, by phase: every 40th decision, each
    with staged cards or an undo stack, the game's end; and a go-out asked."""
    state = GameState.new(load_profile(name, overrides={"rounds": 2}), seed=11)
    bots = [HardBot(s) for s in range(state.players)]
    rng = random.Random(11)
    out: dict[Phase, list[GameState]] = {}
    for step in range(6000):
        if state.is_over:
            break
        if step % 40 == 0 or (state.staged and rng.random() < 0.1) or (
                state.undo_stack and rng.random() < 0.2):
            out.setdefault(state.phase, []).append(_twin(state))
        if rng.random() < 0.25:
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(bots[state.to_act].choose(state.view(state.to_act)))
    assert state.is_over
    out[Phase.GAME_OVER] = [state]
    asking = _asking(name)
    if asking is not None:
        out[Phase.ANSWER] = [asking]
    return out


def _twin(state: GameState) -> GameState:
    """An equal state made without ``copy`` (which is what is tested)."""
    return GameState.from_position(state.position())


CASES = [(name, phase) for name in builtin_profile_names() for phase in Phase
         if phase != Phase.ANSWER or _asking(name) is not None]


def _snapshot(state: GameState) -> dict[str, Any]:
    """Every field's value, deep-copied where the state holds its own containers."""
    return {name: deep.deepcopy(getattr(state, name)) if name in COPIED else getattr(state, name)
            for name in FIELDS}


def _differences(state: GameState, snapshot: dict[str, Any]) -> list[str]:
    return [name for name in COMPARED if getattr(state, name) != snapshot[name]]


def _play_randomly(state: GameState, rng: random.Random, moves: int) -> int:
    played = 0
    for _ in range(moves):
        if state.is_over:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        played += 1
    return played


def _scribble(state: GameState) -> None:
    """Change every container a state holds, in place (and the lists inside them)."""
    for name in COPIED:
        value = getattr(state, name)
        if isinstance(value, dict):
            for inner in value.values():
                inner.append(99)
            value[999] = [1, 2, 3]
        elif isinstance(value, list):
            for inner in value:
                if isinstance(inner, list):
                    inner.append(99)
            value.append(99)


def test_the_fields_are_the_slots() -> None:
    assert State.__slots__ == FIELDS
    assert {"held", "melds", "staged", "undo_stack", "dealer"} <= set(FIELDS)
    assert set(COPIED) >= {"held", "held_n", "melds", "staged", "undo_stack", "pile", "stock"}
    assert "_facts" in FRESH and "dealer" in COMPARED


def test_every_profile_reaches_the_phases_it_has() -> None:
    for name in builtin_profile_names():
        phases = set(_states(name))
        assert {Phase.DRAW, Phase.PLAY, Phase.GAME_OVER} <= phases, name
        assert any(s.staged for s in _states(name)[Phase.PLAY]), name
    asking = [name for name, phase in CASES if phase == Phase.ANSWER]
    assert set(asking) >= {"partnership-13", "biegames", "hand-knee-foot", "remastered-teams"}


@pytest.mark.parametrize(("name", "phase"), CASES, ids=[f"{n}-{p.name}" for n, p in CASES])
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_copy_equals_its_original_and_stays_independent(name: str, phase: Phase,
                                                          data: st.DataObject) -> None:
    pool = _states(name)[phase]
    original = _twin(data.draw(st.sampled_from(pool), label="state"))  # the pool stays as is
    moves = data.draw(st.integers(1, 40), label="moves")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    before = _snapshot(original)

    original.legal_actions()  # (fills what a listing may cache, which a copy drops)
    made = original.copy()
    assert made is not original and made == original
    assert not [name for name in COMPARED if getattr(made, name) != getattr(original, name)]
    assert all(getattr(made, name) is None for name in FRESH)
    for field in COPIED:
        value, copied = getattr(original, field), getattr(made, field)
        if isinstance(value, (list, dict)):
            assert copied is not value, field

    # play on the copy: the original does not change
    played = _play_randomly(made, rng, moves)
    assert played or original.is_over
    assert not _differences(original, before)
    # change every container of the copy in place: the original still does not change
    _scribble(made)
    assert not _differences(original, before)

    # and the other way: play on the original, a copy made before it does not change
    twin = original.copy()
    twin_before = _snapshot(twin)
    _play_randomly(original, rng, moves)
    _scribble(original)
    assert not _differences(twin, twin_before)
