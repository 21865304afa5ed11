"""The OpenSpiel game: OpenSpiel's random simulation test and its MCTS bot."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from handfoot.bots.registry import make_bot  # noqa: E402
from handfoot.game.loading import builtin_profile_names, load_profile  # noqa: E402
from handfoot.rl.observation import ObservationEncoder  # noqa: E402
from handfoot.rl.openspiel import GAME_NAME, engine_state, ismcts_resampler  # noqa: E402

NAMES = builtin_profile_names()


@pytest.mark.parametrize("name", NAMES)
def test_random_sim_test_passes_under_every_profile(name: str) -> None:
    game = pyspiel.load_game(GAME_NAME, {"profile": name, "rounds": 1, "deals": 50})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", [n for n in NAMES if len(load_profile(n).layouts) > 1])
def test_random_sim_test_passes_at_the_largest_seating(name: str) -> None:
    layout = max(load_profile(name).layouts, key=lambda x: (x.players, x.sides))
    game = pyspiel.load_game(GAME_NAME, {"profile": name, "layout": str(layout), "rounds": 1,
                                         "deals": 50})
    assert game.num_players() == layout.players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_parameters_choose_the_seating() -> None:
    game = pyspiel.load_game(GAME_NAME, {"profile": "remastered-singles", "players": 6})
    assert game.num_players() == 6
    game = pyspiel.load_game(GAME_NAME, {"profile": "remastered-teams", "layout": "3x2"})
    assert game.num_players() == 6 and game.layout.sides == 3
    assert game.num_distinct_actions() == 108
    assert game.max_chance_outcomes() == 10_000
    with pytest.raises(ValueError, match="2x2"):
        pyspiel.load_game(GAME_NAME, {"profile": "partnership-13", "players": 3})


def test_chance_deals_the_game_from_a_seed_and_observations_are_the_views() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rounds": 1})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 10_000
    state.apply_action(17)
    engine = engine_state(state)
    assert engine.seed == 17
    p = load_profile("partnership-13", overrides={"rounds": 1})
    enc = ObservationEncoder(p, p.layout)
    seat = state.current_player()
    assert seat == engine.to_act
    assert state.legal_actions() == engine.legal_actions()
    assert np.array_equal(np.array(state.observation_tensor(seat), np.float32),
                          enc.encode(engine.view(seat)))
    assert state.observation_string(seat).startswith("partnership-13 round 1/1")
    draw = 0
    state.apply_action(draw)
    assert "0:draw" in state.information_state_string(seat)
    assert "moves:" not in state.observation_string(seat)
    # other seats' strings never hold the cards of this seat
    hand = state.observation_string(seat).splitlines()[1]
    assert all(hand not in state.observation_string(s) for s in range(4) if s != seat)


def test_mcts_plays_complete_games_against_the_hard_bot() -> None:
    game = pyspiel.load_game(GAME_NAME, {"profile": "biegames", "players": 2, "rounds": 1,
                                         "deals": 100})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2000.0, max_simulations=2,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    for seed in (1,):
        hard = make_bot("hard", seed)
        state = game.new_initial_state()
        state.apply_action(seed)
        while not state.is_terminal():
            seat = state.current_player()
            action = bot.step(state) if seat == 0 else hard.choose(engine_state(state).view(seat))
            state.apply_action(action)
        assert engine_state(state).is_over
        assert len(state.returns()) == 2


def test_ismcts_plays_a_complete_game_against_the_hard_bot() -> None:
    game = pyspiel.load_game(GAME_NAME, {"profile": "remastered-singles", "players": 2,
                                         "rounds": 1, "deals": 100})
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2000.0,
                           max_simulations=2, random_state=rng)
    bot.set_resampler(ismcts_resampler(1))
    hard = make_bot("hard", 2)
    state = game.new_initial_state()
    state.apply_action(2)
    while not state.is_terminal():
        seat = state.current_player()
        action = bot.step(state) if seat == 1 else hard.choose(engine_state(state).view(seat))
        state.apply_action(action)
    assert engine_state(state).is_over


def test_resampling_keeps_the_information_state() -> None:
    game = pyspiel.load_game(GAME_NAME, {"profile": "hand-knee-foot", "players": 3,
                                         "rounds": 1})
    state = game.new_initial_state()
    state.apply_action(4)
    rng = np.random.RandomState(4)
    for _ in range(300):
        state.apply_action(rng.choice(state.legal_actions()))
    resample = ismcts_resampler(0)
    for player in range(3):
        other = resample(state, player)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.legal_actions() == state.legal_actions() or player != state.current_player()
        assert any(engine_state(other).hand(s) != engine_state(state).hand(s)
                   for s in range(3) if s != player)
        assert len(state.history()) == len(other.history())
