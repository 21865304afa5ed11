"""Checked moves: :meth:`GameState.verify` says what a move will do, and
:meth:`GameState.apply` commits that checked move without checking it again.

The forecast of whether a move ends the round (or the game) walks the steps a commit sets
off without changing anything (red 3s laid and replaced, a Foot or Knee picked up, the turn
ending and the next beginning); here it is held to what the commit then does, for every
move of random and bot games of every profile, at every seating it allows, and of profiles
with the house rules that end rounds in other ways (a target score, stalled rounds).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import handfoot
from handfoot.bots.heuristic import EasyBot
from handfoot.bots.registry import make_bot
from handfoot.game import moves as mv
from handfoot.game.cards import RED_THREE
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.moves import decode_action, parse_move
from handfoot.game.rules import Layout
from handfoot.game.values import Effect, IllegalMoveError, Phase
from positions import position

NAMES = builtin_profile_names()
CONFIGS = [(name, layout) for name in NAMES for layout in load_profile(name).layouts]


def move_of(state: GameState, action: int) -> mv.Move:
    """The move an integer action stands for now (as ``apply_action`` makes it)."""
    move = decode_action(action)
    if isinstance(move, mv.Pickup):
        return mv.Pickup(state.staged_groups())
    if isinstance(move, mv.GoOut):
        return mv.GoOut(state.staged_groups(), move.discard)
    return move


def play_checked(state: GameState, choose: object, limit: int = 200_000) -> int:
    """Play the game to its end, every move verified and its checked move applied, each
    forecast compared with what the commit did; the number of moves checked."""
    for moves in range(limit):
        if state.is_over:
            return moves
        move = move_of(state, choose(state))  # type: ignore[operator]
        effect = state.verify(move)
        round_number, results = state.round_number, len(state.results)
        state.apply(effect)
        ended = len(state.results) > results
        assert effect.ends_round == ended, (move, round_number, state.results[-1:])
        assert effect.ends_game == state.is_over, move
    raise AssertionError("the game did not end")


def uniform(seed: int) -> object:
    rng = random.Random(seed)
    return lambda state: rng.choice(state.legal_actions())


def bots(level: str, seed: int, players: int) -> object:
    seats = [make_bot(level, seed * 10 + s) for s in range(players)]
    return lambda state: seats[state.to_act].choose(state.view(state.to_act))


def easy_mostly(seed: int, players: int) -> object:
    """The easy bot, with one action in ten uniform: it melds, picks up packets, takes the
    pile and goes out, and also wanders."""
    rng = random.Random(seed)
    seats = [EasyBot(seed * 10 + s) for s in range(players)]

    def choose(state: GameState) -> int:
        if rng.random() < 0.1:
            return rng.choice(state.legal_actions())
        return seats[state.to_act].choose(state.view(state.to_act))
    return choose


@pytest.mark.parametrize(("name", "layout"), CONFIGS, ids=[f"{n}-{x}" for n, x in CONFIGS])
def test_the_forecast_is_what_the_commit_does(name: str, layout: Layout) -> None:
    profile = load_profile(name, overrides={"rounds": 2})
    checked = 0
    for seed, policy in ((1, uniform(1)), (2, easy_mostly(2, layout.players)),
                         (3, bots("hard", 3, layout.players))):
        state = GameState.new(profile, layout=layout, seed=seed)
        checked += play_checked(state, policy)
    assert checked > 100


def stalling(seed: int) -> object:
    """Takes the pile whenever it may and throws a card back: where a pickup takes the top
    card into the hand, nobody draws and nobody lays a card, and the round stalls."""
    rng = random.Random(seed)

    def choose(state: GameState) -> int:
        legal = state.legal_actions()
        if mv.PICKUP in legal:
            return mv.PICKUP
        if mv.KNOCK in legal:
            return mv.KNOCK
        discards = [a for a in legal if mv.DISCARD <= a < mv.DISCARD + RED_THREE]
        if discards and state.phase == Phase.PLAY:
            return rng.choice(discards)
        return rng.choice(legal)
    return choose


@pytest.mark.parametrize("name", NAMES)
def test_rounds_with_a_stall_limit_are_forecast(name: str) -> None:
    profile = load_profile(name, overrides={"rounds": 2, "stalled_turns_each": 1})
    reasons = set()
    for seed in range(3):
        state = GameState.new(profile, seed=seed)
        play_checked(state, stalling(seed))
        reasons |= {r.reason for r in state.results}
    if name == "remastered-singles":  # a pickup takes the top card into the hand
        assert reasons == {"stalled"}


def test_a_game_to_a_target_score_ends_when_it_is_reached() -> None:
    profile = load_profile("biegames", overrides={"target_score": 4000, "rounds": 30})
    state = GameState.new(profile, seed=5)
    play_checked(state, bots("hard", 5, state.players))
    assert max(state.totals) >= 4000 and len(state.results) < 30


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(NAMES), st.integers(0, 2**32 - 1))
def test_random_games_of_random_seeds(name: str, seed: int) -> None:
    profile = load_profile(name, overrides={"rounds": 1})
    state = GameState.new(profile, seed=seed)
    play_checked(state, easy_mostly(seed, state.players))


def test_red_threes_that_run_the_stock_out_end_the_round_at_the_draw() -> None:
    # the stock holds two cards, a red 3 on top: the draw takes both, and the red 3 laid
    # finds no card to replace it
    state = position("partnership-13", hands={0: "K K K 9"}, stock_top="3H 5C", stock_size=2)
    effect = state.verify(parse_move("draw"))
    assert effect.ends_round and not effect.ends_game
    state.apply(effect)
    assert state.results[-1].reason == "red 3 not replaced"


@pytest.mark.parametrize(("stock", "ends"), [(0, True), (1, False)])
def test_a_red_three_taken_with_the_pile_is_forecast(stock: int, ends: bool) -> None:
    # the red 3 below the top is laid at once; with no stock card to replace it the
    # pickup ends the round
    state = position("remastered-teams", hands={0: "KH KD 9S 9C 8S 6C 5S"},
                     melds={0: ["QS QH QD"]}, pile="4C 3H 5C KS", stock_size=stock)
    effect = state.verify(parse_move("pickup K K"))
    assert effect.ends_round == ends
    state.apply(effect)
    assert (state.results[-1:] != []) == ends


def test_a_draw_from_an_empty_stock_ends_the_round() -> None:
    state = position("partnership-13", hands={0: "K K K 9"}, stock_size=1)
    effect = state.verify(parse_move("draw"))
    assert effect.ends_round
    state.apply(effect)
    assert state.results[-1].reason == "stock exhausted"


def test_a_checked_move_is_committed_only_where_it_was_checked() -> None:
    state = GameState.new(load_profile("biegames"), seed=3)
    effect = state.verify(parse_move("draw"))
    twin = state.copy()
    with pytest.raises(ValueError, match="checked in another position"):
        twin.apply(effect)
    state.apply(effect)
    with pytest.raises(ValueError, match="checked in another position"):
        state.apply(effect)  # not twice
    assert state.moves_played == 1


def test_a_staging_checked_before_other_staging_is_refused() -> None:
    state = GameState.new(load_profile("biegames"), seed=3)
    state.apply(parse_move("draw"))
    stages = [a for a in state.legal_actions() if isinstance(decode_action(a), mv.Stage)]
    first = state.verify(decode_action(stages[0]))
    state.apply_action(stages[0])
    with pytest.raises(ValueError):
        state.apply(first)


def test_applying_a_checked_move_does_not_check_it_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = GameState.new(load_profile("biegames"), seed=3)
    effect = state.verify(parse_move("draw"))
    calls = []

    def counted(self: GameState, move: mv.Move) -> object:
        calls.append(move)
        raise IllegalMoveError("checked again")
    if not handfoot.compiled:  # pure Python: the method can be replaced
        monkeypatch.setattr(type(state), "_verify", counted)
        state.apply(effect)
        assert calls == [] and state.moves_played == 1


def test_effect_equality_ignores_where_it_was_checked() -> None:
    a = GameState.new(load_profile("biegames"), seed=3)
    b = a.copy()
    ea, eb = a.verify(parse_move("draw")), b.verify(parse_move("draw"))
    assert ea == eb and isinstance(ea, Effect) and "checked" not in repr(ea)
