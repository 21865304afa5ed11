"""Generated rules: whatever loads must play (issue 13, items 2 and 5).

Hypothesis builds house rules from a built-in profile, a few of its parameters set to
random values of their kind and range (every field of :class:`Profile` can be drawn, see
:data:`handfoot.game.rules.FIELDS`), and a few optional rules. Rules that loading refuses are
fine (the message names keys). Rules that load must make a game that ends: every round
within the turn bound of ``tests/test_liveness.py`` under random, easy, normal and hard
bots, and the game's record must survive JSON and replay to the same results.
``HANDFOOT_PROPERTY_SCALE=20`` multiplies the number of rule sets tried.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import OPTIONS, ProfileError, builtin_profile_names, load_profile
from handfoot.game.record import GameRecorder, from_json, replay, to_json
from handfoot.game.rules import FIELDS, FieldInfo
from test_liveness import MAX_TURN_ACTIONS, turn_bound

SCALE = int(os.environ.get("HANDFOOT_PROPERTY_SCALE", "1"))
KIND_WORDS = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "joker", "black 3",
              "red 3"]
RANK_WORDS = KIND_WORDS[:11]
BOTS = ("random", "easy", "normal", "hard")


def small_ints(info: FieldInfo) -> st.SearchStrategy[int]:
    """Integers of the field's range, most of them near its low end (where games are)."""
    low = info.minimum
    high = info.maximum if info.maximum is not None else low + 1000
    return st.one_of(st.integers(low, min(high, low + 15)), st.integers(low, high))


def field_values(info: FieldInfo) -> st.SearchStrategy[Any]:
    """TOML values for a parameter: its kind, mostly in range, some out of it."""
    kind = info.kind
    if kind == "int":
        return small_ints(info)
    if kind == "opt_int":
        return st.one_of(st.just("none" if info.name != "pickup_count" else "all"),
                         small_ints(info))
    if kind == "bool":
        return st.booleans()
    if kind == "str":
        return st.sampled_from(info.choices)
    if kind == "ints":
        return st.lists(small_ints(info), min_size=0 if info.empty_ok else 1, max_size=5)
    if kind == "kinds":
        words = RANK_WORDS if info.name != "starter_rejected" else KIND_WORDS
        return st.lists(st.sampled_from(words), max_size=4, unique=True)
    if kind == "layouts":
        layout = st.builds(lambda a, b: f"{a}x{b}", st.integers(2, 6), st.integers(1, 3))
        return st.lists(layout, min_size=1, max_size=3, unique=True)
    if kind == "bonus_map":
        return st.dictionaries(st.sampled_from(RANK_WORDS), st.integers(0, 5000), max_size=2)
    if kind == "pairs":
        return st.lists(st.tuples(st.integers(-5000, 20000), st.integers(0, 200)),
                        max_size=4, unique_by=lambda pair: pair[0]).map(
            lambda pairs: [list(pair) for pair in sorted(pairs)])
    raise AssertionError(kind)


@st.composite
def house_rules(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A built-in profile and overrides: some parameters, some options, at most 3 rounds."""
    base = draw(st.sampled_from(builtin_profile_names()))
    names = draw(st.lists(st.sampled_from(sorted(FIELDS)), min_size=1, max_size=6,
                          unique=True))
    overrides: dict[str, Any] = {name: draw(field_values(FIELDS[name])) for name in names}
    for key in draw(st.lists(st.sampled_from(sorted(OPTIONS)), max_size=2, unique=True)):
        overrides[key] = True
    overrides["rounds"] = draw(st.integers(1, 3))  # parameters beat options: games stay short
    return base, overrides


def play_to_the_end(state: GameState, recorder: GameRecorder, bots: list[Bot]) -> None:
    """Play the game out, checking every round against its turn bound."""
    bound = turn_bound(state.profile, state.layout, len(state.deal.stock))
    round_number, turns, actions = state.round_number, 0, 0
    while not state.is_over:
        if state.round_number != round_number:
            bound = turn_bound(state.profile, state.layout, len(state.deal.stock))
            round_number, turns = state.round_number, 0
        seat = state.to_act
        view = state.view(seat)
        assert view.legal_actions, f"seat {seat + 1} has no legal action"
        before = state.moves_played
        move = recorder.apply_action(bots[seat].choose(view))
        actions += 1
        if move is not None and state.moves_played > before and type(move).__name__ in (
                "Draw", "Pickup"):
            turns += 1
            assert turns <= bound, f"round {round_number}: {turns} turns, bound {bound}"
            actions = 0
        assert actions <= MAX_TURN_ACTIONS * max(1, state.players), "a turn never ends"


@settings(max_examples=40 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=house_rules(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_rules_that_load_play_to_the_end_and_replay(rules: tuple[str, dict[str, Any]],
                                                     seed: int, data: st.DataObject) -> None:
    base, overrides = rules
    try:
        profile = load_profile(base, overrides=overrides)
    except ProfileError as exc:
        assert str(exc).startswith("overrides: ")
        event("refused at load")
        return
    event("loaded")
    layout = data.draw(st.sampled_from(profile.layouts))
    state = GameState.new(profile, layout=layout, seed=seed)
    recorder = GameRecorder(state)
    levels = data.draw(st.lists(st.sampled_from(BOTS), min_size=layout.players,
                                max_size=layout.players))
    bots = [make_bot(level, seed + i) for i, level in enumerate(levels)]
    play_to_the_end(state, recorder, bots)
    assert len(state.results) == profile.rounds or profile.target_score is not None
    record = from_json(to_json(recorder.record()))
    result = replay(record)
    assert result.ok, [problem.message for problem in result.problems]
    assert result.game_over and list(result.results) == state.results
