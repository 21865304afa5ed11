"""The PettingZoo AEC environment: PettingZoo's API and seed tests under every profile."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout
from handfoot.game.values import IllegalMoveError, Phase
from handfoot.rl.pettingzoo import env, raw_env
from positions import position

NAMES = builtin_profile_names()

# PettingZoo's api_test warns that a dict observation is not an array: that is its format
pytestmark = pytest.mark.filterwarnings("ignore:Observation")


@pytest.mark.parametrize("name", NAMES)
def test_api_and_seed_tests_pass_under_every_profile(name: str) -> None:
    # one-round games: PettingZoo's random play reaches the end of the game
    api_test(env(profile=name, rounds=1), num_cycles=3000)
    seed_test(lambda: env(profile=name, rounds=1), num_cycles=3000)


def play_out(e: raw_env, seed: int) -> tuple[dict[str, float], list[str]]:
    """Random legal play to the end; each agent's summed rewards and the agents that acted."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    acted: list[str] = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        acted.append(agent)
        legal = np.flatnonzero(obs["action_mask"])
        assert e.state is not None and e.seat(agent) == e.state.to_act
        e.step(int(rng.choice(legal)))
    return total, acted


@pytest.mark.parametrize("name", NAMES)
def test_every_seating_plays_a_whole_game(name: str) -> None:
    for layout in load_profile(name).layouts:
        e = raw_env(profile=name, players=str(layout), rounds=1)
        assert e.possible_agents == [f"player_{s}" for s in range(layout.players)]
        api_test(e, num_cycles=50)
        total, _ = play_out(e, 1)
        state = e.state
        assert state is not None and state.is_over
        assert all(total[a] == state.totals[state.side_of[s]]
                   for s, a in enumerate(e.possible_agents))


def test_rewards_are_the_side_score_shared_by_partners() -> None:
    e = raw_env(profile="partnership-13", rounds=2)
    total, _ = play_out(e, 4)
    state = e.state
    assert state is not None and state.is_over and len(state.results) == 2
    for seat, agent in enumerate(e.possible_agents):
        assert total[agent] == state.totals[state.side_of[seat]]
    assert total["player_0"] == total["player_2"] and total["player_1"] == total["player_3"]


def test_a_partner_answers_may_i_go_out_in_its_own_step() -> None:
    e = raw_env(profile="biegames", players=4)
    e.reset(seed=0)
    e.state = position(
        "biegames", layout=Layout(2, 2), turn=0, phase=Phase.PLAY,
        hands={0: "9S 9D 9H 4C", 2: "6C 6D 8S"}, in_foot=[0, 2],
        melds={0: ["KC KC KD KD KH KH KS", "QC QC QD QD QH QH QS",
                   "JC JC JD JD JH JH 2C", "TC TC TD TD TH TH 2D"]})
    e.agent_selection = "player_0"
    for a in [mv.STAGE_NATURAL + cards.NINE * 2] * 3 + [mv.GO_OUT_DISCARD + cards.FOUR]:
        e.step(a)
    assert e.agent_selection == "player_2"  # the partner answers, out of turn order
    obs = e.observe("player_2")
    assert list(np.flatnonzero(obs["action_mask"])) == [mv.ANSWER_YES, mv.ANSWER_NO]
    assert e.observe("player_0")["action_mask"].sum() == 0
    e.step(mv.ANSWER_YES)
    # the round ended: every agent got its side's round score, partners alike
    result = e.state.results[-1]
    assert result.went_out == 0
    assert e.rewards["player_0"] == e.rewards["player_2"] == result.scores[0].total
    assert e.rewards["player_1"] == e.rewards["player_3"] == result.scores[1].total


def test_observations_of_waiting_agents_have_empty_masks() -> None:
    e = raw_env(profile="remastered-singles", players=3, rounds=1)
    e.reset(seed=2)
    for agent in e.agents:
        mask = e.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        assert bool(mask.any()) == (agent == e.agent_selection)


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env(rounds=1)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError):
        e.step(illegal)
    assert np.array_equal(e.observe(e.agent_selection)["observation"], obs["observation"])


def test_ansi_render_prints_the_table() -> None:
    e = env(profile="hand-knee-foot", players=3, render_mode="ansi", rounds=1)
    e.reset(seed=0)
    text = e.render()
    assert "hand-knee-foot round 1/1" in text and "stock:" in text and "knee" in text
    quiet = raw_env(rounds=1)
    quiet.reset(seed=0)
    assert quiet.render() is None


def test_bad_players_are_refused_with_the_allowed_seatings() -> None:
    with pytest.raises(ValueError, match="2x2 \\(4 players\\)"):
        env(profile="partnership-13", players=3)
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="human")


def test_same_seed_same_game_and_reset_without_seed_continues() -> None:
    a, b = raw_env(rounds=1), raw_env(rounds=1)
    ta, _ = play_out(a, 9)
    tb, _ = play_out(b, 9)
    assert ta == tb
    a.reset(seed=5)
    first = a.observe(a.agent_selection)["observation"]
    a.reset()
    assert not np.array_equal(a.observe(a.agent_selection)["observation"], first)
